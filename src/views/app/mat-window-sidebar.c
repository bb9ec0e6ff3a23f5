/* mat-window-sidebar.c - the window's material list: search, sort, rows,
 * and the line saying what the game would load for the name searched */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat0-fields.h"

#include "mat-application.h"
#include "mat-material-row.h"
#include "mat-tooltip.h"
#include "mat-window-private.h"

typedef enum {
  SORT_INDEX,
  SORT_NAME,
  SORT_PHASES,
} SortOrder;

static const char * const sort_keys[] = { "index", "name", "phases" };

MatMaterial *
_mat_window_sidebar_get_selected (MatWindow *self)
{
  g_autoptr(GtkBitset) selected = NULL;
  g_autoptr(GObject) item = NULL;

  if (self->selection == NULL)
    return NULL;
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  if (gtk_bitset_is_empty (selected))
    return NULL;
  item = g_list_model_get_item (G_LIST_MODEL (self->selection), gtk_bitset_get_minimum (selected));
  /* the list holds it */
  return item != NULL ? MAT_MATERIAL (item) : NULL;
}

guint
_mat_window_sidebar_get_n_selected (MatWindow *self)
{
  g_autoptr(GtkBitset) selected = NULL;

  if (self->selection == NULL)
    return 0;
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  return (guint) MIN (gtk_bitset_get_size (selected), G_MAXUINT);
}

GPtrArray *
_mat_window_sidebar_dup_selected (MatWindow *self)
{
  g_autoptr(GtkBitset) selected = NULL;
  GtkBitsetIter iter;
  GPtrArray *out;
  guint position;

  out = g_ptr_array_new_with_free_func (g_object_unref);
  if (self->selection == NULL)
    return out;
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  g_ptr_array_set_size (out, 0);
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, selected, &position); ok;
       ok = gtk_bitset_iter_next (&iter, &position))
    g_ptr_array_add (out, g_list_model_get_item (G_LIST_MODEL (self->selection), position));
  return out;
}

void
_mat_window_sidebar_update_counts (MatWindow *self)
{
  g_autofree char *text = NULL;
  guint total = self->library != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->library)) : 0;
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  g_autofree char *materials = NULL;
  g_autofree char *problems = NULL;

  if (self->library == NULL)
    {
      gtk_label_set_label (self->count_label, "");
      return;
    }

  if (shown != total)
    /* Translators: the status line while searching: "3 of 24 materials" */
    materials = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u material",
                                              "%u of %u materials", total),
                                 shown, total);
  else
    materials = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u material", "%u materials", total),
                                 total);

  problems = _mat_window_problems_dup_summary (self);

  /* Translators: the status line: "24 materials, 4 lints" */
  text = g_strdup_printf (_("%s, %s"), materials, problems);
  gtk_label_set_label (self->count_label, text);

  gtk_stack_set_visible_child_name (self->list_stack,
                                    shown == 0 && mat_search_model_get_text (self->filter_model) != NULL
                                    ? "no-results" : "list");
}

static void
show_selected (MatWindow *self)
{
  MatMaterial *material = _mat_window_sidebar_get_selected (self);

  if (material != self->shown)
    _mat_window_show_material (self, material);
  _mat_window_batch_update (self, material);
}

static gboolean
show_selected_idle (gpointer data)
{
  MatWindow *self = data;

  self->show_source = 0;
  /* the window may have been disposed since (the idle holds a reference) */
  if (self->selection == NULL)
    return G_SOURCE_REMOVE;
  show_selected (self);
  return G_SOURCE_REMOVE;
}

static void
show_selected_later (MatWindow *self)
{
  if (self->show_source == 0)
    self->show_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, show_selected_idle,
                                         g_object_ref (self), g_object_unref);
}

static void
cancel_show_after_paint (MatWindow *self)
{
  if (self->show_clock == NULL)
    return;
  /* a clock whose surface went has dropped its handlers already */
  if (g_signal_handler_is_connected (self->show_clock, self->show_paint_handler))
    g_signal_handler_disconnect (self->show_clock, self->show_paint_handler);
  self->show_paint_handler = 0;
  g_clear_object (&self->show_clock);
}

static void
show_after_paint_cb (GdkFrameClock *clock,
                     MatWindow     *self)
{
  cancel_show_after_paint (self);
  show_selected_later (self);
}

static void
selection_changed_cb (MatWindow *self)
{
  /* While a search narrows the list, the selection may move to another
   * row: the list is drawn first and the material pages follow once that
   * frame is out, so typing stays quick in a large library. (An idle
   * alone could run before the frame, which waits for its time.) */
  if (self->filtering)
    {
      GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

      if (self->show_source != 0 || self->show_clock != NULL)
        return;
      if (clock == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
        {
          show_selected_later (self);
          return;
        }
      self->show_clock = g_object_ref (clock);
      self->show_paint_handler = g_signal_connect (clock, "after-paint",
                                                   G_CALLBACK (show_after_paint_cb), self);
      return;
    }
  cancel_show_after_paint (self);
  g_clear_handle_id (&self->show_source, g_source_remove);
  show_selected (self);
}

/* The list changed under the selection. A search may have hidden every
 * row selected: the row where the first of them was is selected then,
 * so that the list always shows one when it has any. */
static void
rows_changed_cb (MatWindow *self,
                 guint      position,
                 guint      removed,
                 guint      added)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));

  if (gtk_bitset_is_empty (selected) && n > 0)
    {
      gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection),
                                       MIN (self->last_position, n - 1), TRUE);
      return;   /* selection_changed_cb follows */
    }
  /* the rows selected may be others now: the batch follows */
  selection_changed_cb (self);
}

static void
selected_rows_changed_cb (MatWindow *self)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));

  if (!gtk_bitset_is_empty (selected))
    self->last_position = gtk_bitset_get_minimum (selected);
  selection_changed_cb (self);
}

/* Search and sort */

/* The material the game would use for @name (formats.md 2.5) and how it
 * got there. */
static MatMaterial *
resolve_like_engine (MatWindow   *self,
                     const char  *name,
                     const char **how)
{
  MatMaterial *material;

  if (self->library == NULL)
    return NULL;

  material = mat_library_find (self->library, name);
  if (material != NULL)
    {
      *how = "exact";
      return material;
    }

  material = mat_library_find (self->library, "DEFAULT");
  if (material != NULL)
    {
      *how = "DEFAULT";
      return material;
    }

  *how = "first entry";
  return mat_library_get_material (self->library, 0);
}

/* worn: words, answered by the game folder's index of the application,
 * asked for (and so read) the first time a search holds one */

static gboolean
worn_by (MatMaterial *material,
         const char  *model,
         gpointer     user_data)
{
  MatGameFolder *folder = user_data;
  g_autoptr(MatWornBy) worn = mat_game_folder_where_used (folder, mat_material_get_name (material));

  for (guint i = 0; i < worn->models->len; i++)
    {
      const MatGameWearer *wearer = g_ptr_array_index (worn->models, i);
      g_autofree char *member = g_utf8_casefold (mat_game_model_get_member (wearer->model), -1);

      if (strstr (member, model) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void update_fallback (MatWindow *self);

static void
worn_index_changed_cb (MatWindow *self)
{
  MatQuery *query = self->filter_model != NULL ? mat_search_model_get_query (self->filter_model) : NULL;

  if (query != NULL && mat_query_needs_worn (query))
    {
      self->filtering = TRUE;
      mat_search_model_refilter (self->filter_model);
      self->filtering = FALSE;
      _mat_window_sidebar_update_counts (self);
    }
  update_fallback (self);
}

static void
ensure_worn (MatWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  MatQuery *query = mat_search_model_get_query (self->filter_model);
  MatGameFolder *folder;

  if (self->worn_folder != NULL || query == NULL || !mat_query_needs_worn (query) ||
      !MAT_IS_APPLICATION (app))
    return;
  folder = mat_application_get_game_folder (MAT_APPLICATION (app));
  g_set_weak_pointer (&self->worn_folder, folder);
  g_signal_connect_object (folder, "changed", G_CALLBACK (worn_index_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (folder, "notify::scanning", G_CALLBACK (update_fallback), self,
                           G_CONNECT_SWAPPED);
  mat_search_model_set_worn_func (self->filter_model, worn_by, g_object_ref (folder), g_object_unref);
}

/* What the game folder's index says of a worn: word: none to ask yet,
 * or still reading. Returns: (nullable). */
static const char *
worn_note (MatWindow *self)
{
  MatQuery *query = mat_search_model_get_query (self->filter_model);

  if (query == NULL || !mat_query_needs_worn (query) || self->worn_folder == NULL)
    return NULL;
  if (mat_game_folder_get_folder (self->worn_folder) == NULL)
    return _("worn: looks at the models of the game folder, and Preferences names none");
  if (mat_game_folder_get_scanning (self->worn_folder))
    return _("Reading the models of the game folder…");
  return NULL;
}

static void
update_fallback (MatWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  MatQuery *query = mat_search_model_get_query (self->filter_model);
  const char *error = mat_search_model_get_error (self->filter_model);
  g_autofree char *label = NULL;
  MatMaterial *material;
  const char *how = NULL;

  /* why the search does not read, under it; else what worn: waits for */
  {
    const char *note = error == NULL ? worn_note (self) : NULL;

    gtk_label_set_label (self->query_error_label, error != NULL ? error : note != NULL ? note : "");
    gtk_widget_set_visible (GTK_WIDGET (self->query_error_label), error != NULL || note != NULL);
    if (error != NULL)
      {
        gtk_widget_remove_css_class (GTK_WIDGET (self->query_error_label), "dim-label");
        gtk_widget_add_css_class (GTK_WIDGET (self->query_error_label), "error");
      }
    else
      {
        gtk_widget_remove_css_class (GTK_WIDGET (self->query_error_label), "error");
        gtk_widget_add_css_class (GTK_WIDGET (self->query_error_label), "dim-label");
      }
  }

  /* the game looks names up: a search by content is no name */
  if (text[0] == '\0' || self->library == NULL || error != NULL ||
      (query != NULL && !mat_query_is_names_only (query)))
    {
      gtk_widget_set_visible (GTK_WIDGET (self->fallback_label), FALSE);
      return;
    }

  material = resolve_like_engine (self, text, &how);
  if (material == NULL)
    label = g_strdup (_("The game finds nothing: the library is empty"));
  else if (g_str_equal (how, "exact"))
    /* Translators: the game's lookup of the typed name; %s is a material name */
    label = g_strdup_printf (_("Game lookup: exact match, “%s”"), mat_material_get_name (material));
  else if (g_str_equal (how, "DEFAULT"))
    /* Translators: %s is the name of the DEFAULT entry as stored (any case) */
    label = g_strdup_printf (_("Game lookup: not found, falls back to “%s”"),
                             mat_material_get_name (material));
  else
    label = g_strdup_printf (_("Game lookup: not found and no DEFAULT, falls back to the first entry, “%s”"),
                             mat_material_get_name (material));

  gtk_label_set_label (self->fallback_label, label);
  mat_tooltip_set_text (GTK_WIDGET (self->fallback_label),
                        _("How the game resolves a material name: an exact match ignoring case, else the entry DEFAULT, else the first entry. Press Enter to select it when nothing matches."));
  gtk_widget_set_visible (GTK_WIDGET (self->fallback_label), TRUE);
}

static void
search_changed_cb (MatWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  self->filtering = TRUE;
  mat_search_model_set_text (self->filter_model, text);
  ensure_worn (self);
  self->filtering = FALSE;

  update_fallback (self);
  _mat_window_sidebar_update_counts (self);
}

static void
search_activate_cb (MatWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  MatMaterial *material;
  const char *how = NULL;

  if (self->library == NULL)
    return;

  if (g_list_model_get_n_items (G_LIST_MODEL (self->selection)) > 0)
    {
      gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), 0, TRUE);
      gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
      return;
    }

  material = resolve_like_engine (self, text, &how);
  if (material != NULL)
    mat_window_select_material (self, material);
}

static void
search_stop_cb (MatWindow *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

/* The words of a search by content, to choose from: a menu beside the
 * search entry whose items add their word to the search
 * (win.insert-query). Made when it first opens. */

static void
add_word (GMenu      *menu,
          const char *label,
          const char *word)
{
  g_autoptr(GMenuItem) item = NULL;
  /* Translators: a choice of the search menu: what it finds, then the
   * word it adds to the search, as "Additive   blend:additive" */
  g_autofree char *text = g_strdup_printf (_("%s   %s"), label, word);

  item = g_menu_item_new (text, NULL);
  g_menu_item_set_action_and_target_value (item, "win.insert-query", g_variant_new_string (word));
  g_menu_append_item (menu, item);
}

static GMenuModel *
query_menu_new (void)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) words = g_menu_new ();
  g_autoptr(GMenu) blend = g_menu_new ();
  g_autoptr(GMenu) flags = g_menu_new ();
  g_autoptr(GMenu) opacity = g_menu_new ();
  g_autoptr(GMenu) mode = g_menu_new ();
  g_autoptr(GMenu) interp = g_menu_new ();
  g_autoptr(GMenu) counts = g_menu_new ();
  g_autoptr(GMenu) lint = g_menu_new ();

  add_word (words, _("Uses a texture (type its name)"), "texture:");
  add_word (words, _("Has a textured phase"), "texture:*");
  add_word (words, _("Has an untextured phase"), "texture:none");
  add_word (words, _("Worn by a model (type its name)"), "worn:");
  add_word (words, _("Not the next word"), "-");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (words));

  for (guint i = 0; i < MAT0_N_BLEND_INDICES; i++)
    {
      g_autofree char *word = g_strdup_printf ("blend:%s", mat_query_blend_id (i));

      add_word (blend, _(mat0_fields_blend (i)->label), word);
    }
  add_word (blend, _("Unknown (5–15)"), "blend:unknown");
  g_menu_append_submenu (menu, _("Blend Mode"), G_MENU_MODEL (blend));

  for (guint i = 0; i < MAT0_N_FLAG_FIELDS; i++)
    {
      const Mat0FlagField *flag = mat0_fields_flag (i);
      g_autofree char *word = g_strdup_printf ("bit:%d", g_bit_nth_lsf (flag->mask, -1));

      add_word (flags, _(flag->label), word);
    }
  add_word (flags, _("Unknown bits set"), "attr1:>=0x80");
  g_menu_append_submenu (menu, _("Flags (attr1)"), G_MENU_MODEL (flags));

  add_word (opacity, _("Below 100 %"), "opacity:<100");
  add_word (opacity, _("Invisible (0 %)"), "opacity:0");
  add_word (opacity, _("Over 100 % (a lint)"), "opacity:>100");
  g_menu_append_submenu (menu, _("Opacity"), G_MENU_MODEL (opacity));

  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *word = g_strdup_printf ("mode:%s", mat_query_mode_id (i));

      add_word (mode, _(mat0_fields_mode (i)->label), word);
    }
  add_word (mode, _("Unknown (4–7)"), "mode:unknown");
  g_menu_append_submenu (menu, _("Animation Mode"), G_MENU_MODEL (mode));

  add_word (interp, _("None: every field steps"), "interp:none");
  for (guint i = 0; i < MAT0_N_INTERP_BITS; i++)
    {
      g_autofree char *word = g_strdup_printf ("interp:%s", mat_query_interp_id (i));

      add_word (interp, _(mat0_fields_interp (i)->label), word);
    }
  g_menu_append_submenu (menu, _("Interpolation"), G_MENU_MODEL (interp));

  add_word (counts, _("Several phases"), "phases:>1");
  add_word (counts, _("Animated (two keys or more)"), "keys:>1");
  add_word (counts, _("More than 4 keys"), "keys:>4");
  add_word (counts, _("No animation block"), "blocks:0");
  add_word (counts, _("Several animation blocks"), "blocks:>1");
  g_menu_append_submenu (menu, _("Phases and Keys"), G_MENU_MODEL (counts));

  add_word (lint, _("Any lint"), "lint:any");
  add_word (lint, _("An empty interval or times out of order"), "lint:key-time-order");
  add_word (lint, _("A zero period"), "lint:zero-period");
  add_word (lint, _("A block without keys"), "lint:block-no-keys");
  add_word (lint, _("A key naming no phase"), "lint:key-phase-range");
  add_word (lint, _("Opacity over 100 %"), "lint:ambient-alpha");
  add_word (lint, _("A texture name without a dot"), "lint:texture-no-dot");
  add_word (lint, _("A texture name without its end"), "lint:texture-no-nul");
  add_word (lint, _("A palette past the engine's bank"), "lint:palette-index");
  add_word (lint, _("Does not decode"), "lint:decode-error");
  g_menu_append_submenu (menu, _("Lints"), G_MENU_MODEL (lint));

  return G_MENU_MODEL (menu);
}

static void
query_button_create_popup (GtkMenuButton *button,
                           gpointer       user_data)
{
  g_autoptr(GMenuModel) menu = NULL;

  if (gtk_menu_button_get_menu_model (button) != NULL)
    return;
  menu = query_menu_new ();
  gtk_menu_button_set_menu_model (button, menu);
}

/* Adds @parameter's word to the search: after a space, unless the text
 * ends in one or in a "-" that waits for its word. */
static void
insert_query_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  const char *word = g_variant_get_string (parameter, NULL);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  gsize len = strlen (text);
  g_autofree char *tail = NULL;
  int position = -1;

  if (len == 0 || g_ascii_isspace (text[len - 1]) ||
      (text[len - 1] == '-' && (len == 1 || g_ascii_isspace (text[len - 2]))))
    tail = g_strdup (word);
  else
    tail = g_strconcat (" ", word, NULL);
  /* added at the end, as if typed: the search does not start over */
  position = (int) g_utf8_strlen (text, -1);
  gtk_editable_insert_text (GTK_EDITABLE (self->search_entry), tail, -1, &position);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_set_position (GTK_EDITABLE (self->search_entry), -1);
  /* at once: the search entry waits a moment before it says so */
  search_changed_cb (self);
}

/* In file order the list shows the filter model itself: a sort model
 * without a sorter would still pass every filter change through a walk
 * over all the rows (65,536 in a large library). */
static void
use_sort_model (MatWindow *self,
                gboolean   sorted)
{
  GListModel *rows = sorted ? G_LIST_MODEL (self->sort_model) : G_LIST_MODEL (self->filter_model);
  g_autoptr(MatMaterial) keep = NULL;

  g_autoptr(GPtrArray) selected = NULL;

  if (gtk_multi_selection_get_model (self->selection) == rows)
    return;

  keep = self->shown != NULL ? g_object_ref (self->shown) : NULL;
  selected = _mat_window_sidebar_dup_selected (self);
  gtk_sort_list_model_set_model (self->sort_model, sorted ? G_LIST_MODEL (self->filter_model) : NULL);
  gtk_multi_selection_set_model (self->selection, rows);
  if (selected->len > 1)
    _mat_window_sidebar_select_materials (self, (MatMaterial **) selected->pdata, selected->len);
  else if (keep != NULL)
    mat_window_select_material (self, keep);
}

static void
apply_sort (MatWindow *self,
            SortOrder  order)
{
  GtkSorter *sorter = NULL;

  switch (order)
    {
    case SORT_NAME:
      sorter = GTK_SORTER (gtk_string_sorter_new (gtk_property_expression_new (MAT_TYPE_MATERIAL,
                                                                               NULL, "name")));
      gtk_string_sorter_set_ignore_case (GTK_STRING_SORTER (sorter), TRUE);
      break;
    case SORT_PHASES:
      sorter = GTK_SORTER (gtk_numeric_sorter_new (gtk_property_expression_new (MAT_TYPE_MATERIAL,
                                                                                NULL, "n-phases")));
      gtk_numeric_sorter_set_sort_order (GTK_NUMERIC_SORTER (sorter), GTK_SORT_DESCENDING);
      break;
    case SORT_INDEX:
    default:
      break;
    }

  gtk_sort_list_model_set_sorter (self->sort_model, sorter);
  use_sort_model (self, sorter != NULL);
  g_clear_object (&sorter);
}

static void
sort_changed_cb (MatWindow *self)
{
  guint order = mat_drop_down_get_selected (self->sort_dropdown);
  GSettings *settings = _mat_window_get_settings (self);

  if (order >= G_N_ELEMENTS (sort_keys))
    order = SORT_INDEX;
  apply_sort (self, (SortOrder) order);
  if (settings != NULL)
    g_settings_set_string (settings, "sort-order", sort_keys[order]);
}

GtkSelectionModel *
mat_window_get_selection (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), NULL);

  return GTK_SELECTION_MODEL (self->selection);
}

MatMaterial *
mat_window_get_selected_material (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), NULL);

  return _mat_window_sidebar_get_selected (self);
}

GPtrArray *
mat_window_dup_selected_materials (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), NULL);

  return _mat_window_sidebar_dup_selected (self);
}

static guint
find_position (GListModel *model,
               gpointer    item)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) other = g_list_model_get_item (model, i);

      if (other == item)
        return i;
    }

  return GTK_INVALID_LIST_POSITION;
}

static guint
first_selected (MatWindow *self)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));

  return gtk_bitset_is_empty (selected) ? GTK_INVALID_LIST_POSITION : gtk_bitset_get_minimum (selected);
}

static void
scroll_to_position (MatWindow *self,
                    guint      position)
{
#if GTK_CHECK_VERSION (4, 12, 0)
  gtk_list_view_scroll_to (self->list_view, position, GTK_LIST_SCROLL_NONE, NULL);
#else
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", position);
#endif
}

static gboolean
scroll_idle (gpointer data)
{
  MatWindow *self = data;
  guint position;

  self->scroll_source = 0;
  if (self->selection == NULL)
    return G_SOURCE_REMOVE;
  position = first_selected (self);
  if (position != GTK_INVALID_LIST_POSITION)
    scroll_to_position (self, position);
  return G_SOURCE_REMOVE;
}

/* Brings the selected row into view: at once, and again once the list
 * has laid out the rows it just got (a new material, a cleared search),
 * which it does when it next draws. */
static void
scroll_to_selected (MatWindow *self)
{
  guint position = first_selected (self);

  if (position == GTK_INVALID_LIST_POSITION)
    return;
  scroll_to_position (self, position);
  if (self->scroll_source == 0)
    self->scroll_source = g_timeout_add_full (G_PRIORITY_LOW, 20, scroll_idle,
                                              g_object_ref (self), g_object_unref);
}

void
mat_window_select_material (MatWindow   *self,
                            MatMaterial *material)
{
  guint position;

  g_return_if_fail (MAT_IS_WINDOW (self));
  g_return_if_fail (MAT_IS_MATERIAL (material));

  position = find_position (G_LIST_MODEL (self->selection), material);
  if (position == GTK_INVALID_LIST_POSITION && mat_search_model_get_text (self->filter_model) != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      search_changed_cb (self);
      position = find_position (G_LIST_MODEL (self->selection), material);
    }
  if (position == GTK_INVALID_LIST_POSITION)
    return;

  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, TRUE);
  scroll_to_selected (self);
}

void
_mat_window_sidebar_select_materials (MatWindow    *self,
                                      MatMaterial **materials,
                                      guint         n)
{
  g_autoptr(GHashTable) wanted = g_hash_table_new (NULL, NULL);
  g_autoptr(GtkBitset) set = gtk_bitset_new_empty ();
  g_autoptr(GtkBitset) all = NULL;
  guint rows = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  for (guint i = 0; i < n; i++)
    g_hash_table_add (wanted, materials[i]);
  for (guint i = 0; i < rows; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (self->selection), i);

      if (g_hash_table_contains (wanted, item))
        gtk_bitset_add (set, i);
    }
  if (gtk_bitset_is_empty (set))
    return;
  all = gtk_bitset_new_range (0, rows);
  gtk_selection_model_set_selection (GTK_SELECTION_MODEL (self->selection), set, all);
  scroll_to_selected (self);
}

void
mat_window_select_materials (MatWindow    *self,
                             MatMaterial **materials,
                             guint         n)
{
  g_autoptr(GPtrArray) selected = NULL;

  g_return_if_fail (MAT_IS_WINDOW (self));
  g_return_if_fail (materials != NULL || n == 0);

  if (n == 0)
    return;
  if (n == 1)
    {
      mat_window_select_material (self, materials[0]);
      return;
    }
  _mat_window_sidebar_select_materials (self, materials, n);
  selected = _mat_window_sidebar_dup_selected (self);
  /* none of them shown: the search hides them */
  if ((selected->len == 0 || !g_ptr_array_find (selected, materials[0], NULL)) &&
      mat_search_model_get_text (self->filter_model) != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      search_changed_cb (self);
      _mat_window_sidebar_select_materials (self, materials, n);
    }
}

void
mat_window_select_query (MatWindow  *self,
                         const char *query)
{
  guint n;

  g_return_if_fail (MAT_IS_WINDOW (self));
  g_return_if_fail (query != NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), query);
  search_changed_cb (self);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  if (n > 0)
    gtk_selection_model_select_all (GTK_SELECTION_MODEL (self->selection));
  _mat_window_sidebar_sync_selection (self);
  gtk_window_present (GTK_WINDOW (self));
}

/* The rows */

/* GTK 4.8's list view drops its rows and makes new ones whenever the
 * list changes (a hundred or more for each typed character in a large
 * library). A row outlives its list item and waits in the window's pool
 * to be used again: taking it back is much cheaper than building one. */
#define MAX_SPARE_ROWS 256

typedef struct {
  GPtrArray *pool;   /* a reference */
  GtkWidget *row;    /* a reference */
} SpareRow;

static void
spare_row_release (gpointer data)
{
  SpareRow *spare = data;

  /* the list item is gone, and with it the row's place in the list */
  if (gtk_widget_get_parent (spare->row) == NULL && spare->pool->len < MAX_SPARE_ROWS)
    g_ptr_array_add (spare->pool, g_steal_pointer (&spare->row));
  g_clear_object (&spare->row);
  g_ptr_array_unref (spare->pool);
  g_free (spare);
}

static void
row_setup_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              MatWindow                *self)
{
  SpareRow *spare = g_new0 (SpareRow, 1);

  if (self->spare_rows->len > 0)
    spare->row = g_ptr_array_steal_index_fast (self->spare_rows, self->spare_rows->len - 1);
  else
    {
      spare->row = g_object_ref_sink (mat_material_row_new ());
      /* the swatch shows phase 0's texture's average colour */
      g_object_bind_property (self->phase_table, "textures", spare->row, "textures",
                              G_BINDING_SYNC_CREATE);
      /* whose alpha counts: a lit skin's only with emboss bump */
      g_object_bind_property (self->phase_table, "emboss-bump", spare->row, "emboss-bump",
                              G_BINDING_SYNC_CREATE);
    }
  spare->pool = g_ptr_array_ref (self->spare_rows);
  gtk_list_item_set_child (item, spare->row);
  g_object_set_data_full (G_OBJECT (item), "mat-spare-row", spare, spare_row_release);
}

static void
row_bind_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  mat_material_row_set_material (MAT_MATERIAL_ROW (gtk_list_item_get_child (item)),
                                 gtk_list_item_get_item (item));
}

static void
row_unbind_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  mat_material_row_set_material (MAT_MATERIAL_ROW (gtk_list_item_get_child (item)), NULL);
}


/* One tab stop */

#if !GTK_CHECK_VERSION (4, 12, 0)
/* GTK 4.8's list view moves the focus from row to row on Tab: about 900
 * presses to leave a retail library. Tab and Shift+Tab leave it for the
 * next or previous area instead: the window moves the focus on as if the
 * list could not take it. */
static gboolean
single_tab_key_cb (GtkEventControllerKey *controller,
                   guint                  keyval,
                   guint                  keycode,
                   GdkModifierType        state,
                   gpointer               user_data)
{
  GtkWidget *list = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkDirectionType direction;
  GtkRoot *root = gtk_widget_get_root (list);

  if (keyval != GDK_KEY_Tab && keyval != GDK_KEY_KP_Tab && keyval != GDK_KEY_ISO_Left_Tab)
    return FALSE;
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0 || root == NULL)
    return FALSE;

  direction = (state & GDK_SHIFT_MASK) != 0 || keyval == GDK_KEY_ISO_Left_Tab
              ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD;
  gtk_widget_set_can_focus (list, FALSE);
  gtk_widget_child_focus (GTK_WIDGET (root), direction);
  gtk_widget_set_can_focus (list, TRUE);

  return TRUE;
}
#endif

void
_mat_window_make_single_tab_stop (GtkWidget *list)
{
  g_return_if_fail (GTK_IS_LIST_VIEW (list));

#if GTK_CHECK_VERSION (4, 12, 0)
  gtk_list_view_set_tab_behavior (GTK_LIST_VIEW (list), GTK_LIST_TAB_ITEM);
#else
  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
    g_signal_connect (keys, "key-pressed", G_CALLBACK (single_tab_key_cb), NULL);
    gtk_widget_add_controller (list, keys);
  }
#endif
}

/* The window */

void
_mat_window_sidebar_set_library (MatWindow  *self,
                                 MatLibrary *library)
{
  mat_search_model_set_library (self->filter_model, library);
  update_fallback (self);
}

void
_mat_window_sidebar_history_changed (MatWindow *self)
{
  if (mat_search_model_get_text (self->filter_model) != NULL)
    mat_search_model_refilter (self->filter_model);
  if (gtk_sort_list_model_get_sorter (self->sort_model) != NULL)
    gtk_sorter_changed (gtk_sort_list_model_get_sorter (self->sort_model), GTK_SORTER_CHANGE_DIFFERENT);

  update_fallback (self);
  _mat_window_sidebar_update_counts (self);
}

void
_mat_window_sidebar_apply_settings (MatWindow *self,
                                    GSettings *settings)
{
  g_autofree char *sort = g_settings_get_string (settings, "sort-order");

  for (guint i = 0; i < G_N_ELEMENTS (sort_keys); i++)
    if (g_strcmp0 (sort, sort_keys[i]) == 0)
      mat_drop_down_set_selected (self->sort_dropdown, i);
}

void
_mat_window_sidebar_sync_selection (MatWindow *self)
{
  selection_changed_cb (self);
}

void
_mat_window_sidebar_cancel_show (MatWindow *self)
{
  cancel_show_after_paint (self);
  g_clear_handle_id (&self->show_source, g_source_remove);
}

void
_mat_window_class_sidebar_init (MatWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);
  gtk_widget_class_bind_template_callback (widget_class, sort_changed_cb);
  gtk_widget_class_install_action (widget_class, "win.insert-query", "s", insert_query_action);
}

void
_mat_window_sidebar_init (MatWindow *self)
{
  GtkListItemFactory *factory;

  /* library -> filter -> sort -> selection */
  self->filter_model = mat_search_model_new (NULL);
  self->sort_model = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->filter_model)), NULL);
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (g_object_ref (self->sort_model)));
  g_signal_connect_swapped (self->selection, "selection-changed",
                            G_CALLBACK (selected_rows_changed_cb), self);
  g_signal_connect_swapped (self->selection, "items-changed",
                            G_CALLBACK (_mat_window_sidebar_update_counts), self);
  /* after the list view's own handler: it knows the new rows then */
  g_signal_connect_data (self->selection, "items-changed", G_CALLBACK (rows_changed_cb), self,
                         NULL, G_CONNECT_SWAPPED | G_CONNECT_AFTER);

  factory = gtk_signal_list_item_factory_new ();
  self->spare_rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (factory, "setup", G_CALLBACK (row_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (row_bind_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (row_unbind_cb), NULL);

  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->list_view));
  gtk_menu_button_set_create_popup_func (self->query_button, query_button_create_popup, NULL, NULL);
  _mat_window_make_single_tab_stop (GTK_WIDGET (self->list_view));
}

void
_mat_window_sidebar_dispose (MatWindow *self)
{
  g_clear_weak_pointer (&self->worn_folder);
  _mat_window_sidebar_cancel_show (self);
  g_clear_handle_id (&self->scroll_source, g_source_remove);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  /* the list view keeps its own references until the template goes */
  g_clear_object (&self->selection);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter_model);
  g_clear_pointer (&self->spare_rows, g_ptr_array_unref);
}

