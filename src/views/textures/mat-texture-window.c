/* mat-texture-window.c - the textures of a Textures.lib, edited */
#include "config.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib/gi18n.h>

#include "mat-cell-editor.h"
#include "mat-dialogs.h"
#include "mat-file.h"
#include "mat-query.h"
#include "mat-revealer.h"
#include "mat-texture-draw.h"
#include "mat-texture-import-dialog.h"
#include "mat-texture-picker.h"
#include "mat-texture-rename-dialog.h"
#include "mat-texture-window.h"
#include "mat-tooltip.h"
#include "mat-unsaved-dialog.h"
#include "mat-window.h"

#define THUMB_SIZE 40
/* No list thumbnail is larger than this a side. */
#define THUMB_MAX_SIDE 256

/* A typed cell number closes its undo step after this long without a
 * change (a held spin button is one step). */
#define CELL_GROUP_IDLE_MS 800

/* The grid steps on offer, in texels. */
static const guint grid_steps[] = { 1, 2, 4, 8, 16, 32 };

struct _MatTextureWindow
{
  GtkWindow           parent_instance;

  MatTextureLibrary  *textures;
  GFile              *library_file;
  MatMaterial        *material;        /* the material being edited, or NULL */
  GSignalGroup       *material_signals;
  gboolean            emboss_bump;
  GBinding           *owner_binding;
  GtkFilterListModel *filter_model;
  GtkStringFilter    *name_filter;
  GtkSingleSelection *selection;
  MatTexture         *shown;          /* the texture whose details are shown */
  GSignalGroup       *textures_signals;
  GSignalGroup       *history_signals;
  GCancellable       *cancellable;
  gboolean            saving;
  gboolean            creating;
  gboolean            close_after_save;
  gboolean            close_confirmed;
  gboolean            close_parent;    /* the parent's closing waits for us */
  gboolean            offer_overwrite;
  MatUnsavedDialog   *unsaved_dialog;
#if !GTK_CHECK_VERSION (4, 10, 0)
  GtkFileChooserNative *chooser;
#endif

  GtkLabel           *title_label;
  GtkLabel           *subtitle_label;
  GtkButton          *save_button;
  GtkButton          *undo_button;
  GtkButton          *redo_button;
  GtkRevealer        *banner_revealer;
  GtkLabel           *banner_label;
  GtkButton          *overwrite_button;
  GtkStack           *main_stack;
  GtkLabel           *none_label;
  GtkSearchEntry     *search_entry;
  GtkListView        *list_view;
  GtkLabel           *count_label;
  GtkStack           *detail_stack;
  GtkLabel           *empty_title;
  GtkLabel           *empty_body;
  GtkLabel           *name_label;
  GtkLabel           *info_label;
  GtkLabel           *users_label;
  GSignalGroup       *users_signals;   /* the parent library's history */
  guint               users_source;    /* timeout: count them again */
  GtkLabel           *size_note_label;
  GtkLabel           *alpha_label;
  GtkDropDown        *level_dropdown;
  GtkLabel           *cell_label;
  GtkDropDown        *grid_dropdown;
  MatCellEditor      *cell_editor;

  /* the selected cell's x, y, w, h typed, and the undo step they make */
  GtkWidget          *cell_fields;
  GtkSpinButton      *cell_spins[4];
  gboolean            cell_syncing;
  MatHistory         *cell_group;
  guint               cell_group_timeout;
  GtkWidget          *texture_menu_button;
};

G_DEFINE_FINAL_TYPE (MatTextureWindow, mat_texture_window, GTK_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_TEXTURES,
  PROP_LIBRARY_FILE,
  PROP_MATERIAL,
  PROP_EMBOSS_BUMP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* GTask source tags: the addresses of variables */
static char export_tag;
static char ask_tag;

/* ---- the banner ------------------------------------------------------- */

static void
show_banner (MatTextureWindow *self,
             const char       *text,
             gboolean          offer_overwrite)
{
  self->offer_overwrite = offer_overwrite;
  gtk_label_set_text (self->banner_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->overwrite_button), offer_overwrite);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "textures.overwrite", offer_overwrite);
  gtk_revealer_set_reveal_child (self->banner_revealer, TRUE);
}

static void
hide_banner (MatTextureWindow *self)
{
  self->offer_overwrite = FALSE;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "textures.overwrite", FALSE);
  gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);
}

/* ---- what is shown ---------------------------------------------------- */

static char *
file_name (MatTextureWindow *self)
{
  GFile *file = self->textures != NULL ? mat_texture_library_get_file (self->textures) : NULL;

  return file != NULL ? g_file_get_basename (file) : g_strdup ("Textures.lib");
}

static void
update_title (MatTextureWindow *self)
{
  g_autofree char *name = file_name (self);
  g_autofree char *title = NULL;
  g_autofree char *folder = NULL;
  GFile *file = self->textures != NULL ? mat_texture_library_get_file (self->textures) : NULL;

  if (self->textures == NULL)
    {
      gtk_label_set_text (self->title_label, _("Textures"));
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      gtk_window_set_title (GTK_WINDOW (self), _("Textures"));
      return;
    }
  /* Translators: the window title of a library with unsaved changes */
  title = mat_texture_library_get_dirty (self->textures) ? g_strdup_printf (_("%s •"), name)
                                                         : g_strdup (name);
  if (file != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (file);

      folder = parent != NULL ? g_file_get_parse_name (parent) : NULL;
    }
  gtk_label_set_text (self->title_label, title);
  gtk_label_set_text (self->subtitle_label, folder != NULL ? folder : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), folder != NULL);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

static void
update_actions (MatTextureWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  MatHistory *history = self->textures != NULL ? mat_texture_library_get_history (self->textures) : NULL;
  gboolean have = self->textures != NULL;
  gboolean dirty = have && mat_texture_library_get_dirty (self->textures);
  gboolean parses = self->shown != NULL && mat_texture_get_image (self->shown) != NULL;
  const char *label;

  gtk_widget_action_set_enabled (widget, "win.undo", history != NULL && mat_history_get_can_undo (history));
  gtk_widget_action_set_enabled (widget, "win.redo", history != NULL && mat_history_get_can_redo (history));
  gtk_widget_action_set_enabled (widget, "win.save",
                                 dirty && !self->saving && mat_texture_library_get_file (self->textures) != NULL);
  gtk_widget_action_set_enabled (widget, "textures.import", have);
  gtk_widget_action_set_enabled (widget, "textures.replace", have && self->shown != NULL);
  gtk_widget_action_set_enabled (widget, "textures.export", parses);
  gtk_widget_action_set_enabled (widget, "textures.create",
                                 !have && !self->creating && self->library_file != NULL);
  gtk_widget_action_set_enabled (widget, "textures.delete-cell",
                                 parses && mat_cell_editor_get_selected (self->cell_editor) >= 0);
  gtk_widget_action_set_enabled (widget, "textures.rename", have && self->shown != NULL);
  gtk_widget_action_set_enabled (widget, "textures.delete", have && self->shown != NULL);

  if (dirty)
    gtk_widget_add_css_class (GTK_WIDGET (self->save_button), "suggested-action");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->save_button), "suggested-action");

  label = history != NULL ? mat_history_get_undo_label (history) : NULL;
  {
    g_autofree char *text = label != NULL ? g_strdup_printf (_("Undo “%s”"), label) : g_strdup (_("Undo"));

    mat_tooltip_set_text (GTK_WIDGET (self->undo_button), text);
  }
  label = history != NULL ? mat_history_get_redo_label (history) : NULL;
  {
    g_autofree char *text = label != NULL ? g_strdup_printf (_("Redo “%s”"), label) : g_strdup (_("Redo"));

    mat_tooltip_set_text (GTK_WIDGET (self->redo_button), text);
  }
}

static void
update_count (MatTextureWindow *self)
{
  guint total = self->textures != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->textures)) : 0;
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  g_autofree char *text = NULL;

  if (shown == total)
    text = g_strdup_printf (ngettext ("%u texture", "%u textures", total), total);
  else
    /* Translators: textures shown by the search, of all */
    text = g_strdup_printf (ngettext ("%u of %u texture", "%u of %u textures", total), shown, total);
  gtk_label_set_text (self->count_label, text);
}

/* ---- the selected cell's numbers --------------------------------------- */

static void
cell_group_end (MatTextureWindow *self)
{
  g_autoptr(MatHistory) history = g_steal_pointer (&self->cell_group);

  g_clear_handle_id (&self->cell_group_timeout, g_source_remove);
  if (history != NULL && mat_history_in_group (history))
    mat_history_end_group (history);
}

static gboolean
cell_group_timeout_cb (gpointer data)
{
  MatTextureWindow *self = data;

  self->cell_group_timeout = 0;
  cell_group_end (self);
  return G_SOURCE_REMOVE;
}

/* The spin buttons show the selected cell, in the texture's bounds;
 * without one they show nothing and take nothing. */
static void
cell_fields_update (MatTextureWindow *self)
{
  gint cell = mat_cell_editor_get_selected (self->cell_editor);
  const TexmRect *rects = NULL;
  guint n = 0;
  gboolean have;
  guint tw = 0, th = 0;

  if (self->shown != NULL)
    {
      rects = mat_texture_get_rects (self->shown, &n, NULL);
      tw = mat_texture_get_width (self->shown);
      th = mat_texture_get_height (self->shown);
    }
  have = self->textures != NULL && rects != NULL && cell >= 0 && (guint) cell < n &&
         mat_texture_get_image (self->shown) != NULL;
  self->cell_syncing = TRUE;
  {
    /* x, y from 0, sizes from 1, each at most the texture's side; the
     * model checks that the rectangle stays inside */
    const guint limits[4] = { tw, th, tw, th };
    const gint values[4] = { have ? rects[cell].x : 0, have ? rects[cell].y : 0,
                             have ? rects[cell].w : 0, have ? rects[cell].h : 0 };

    for (guint i = 0; i < 4; i++)
      {
        gtk_spin_button_set_range (self->cell_spins[i], i < 2 ? 0 : 1, MAX (limits[i], 1));
        gtk_spin_button_set_increments (self->cell_spins[i], 1, MAX (mat_cell_editor_get_grid (self->cell_editor), 1));
        if (have)
          gtk_spin_button_set_value (self->cell_spins[i], values[i]);
        else
          gtk_editable_set_text (GTK_EDITABLE (self->cell_spins[i]), "");
        gtk_widget_set_sensitive (GTK_WIDGET (self->cell_spins[i]), have);
      }
  }
  self->cell_syncing = FALSE;
}

/* A number typed or stepped: the selected cell takes it, one undo step
 * for a gesture (a held button, a typed value). */
static void
cell_spin_changed_cb (GtkSpinButton    *spin,
                      MatTextureWindow *self)
{
  g_autoptr(GError) error = NULL;
  gint cell = mat_cell_editor_get_selected (self->cell_editor);
  const TexmRect *rects;
  TexmRect rect;
  guint n = 0;
  MatHistory *history;

  if (self->cell_syncing || self->shown == NULL || self->textures == NULL)
    return;
  rects = mat_texture_get_rects (self->shown, &n, NULL);
  if (cell < 0 || (guint) cell >= n)
    return;
  rect = rects[cell];
  rect.x = (gint16) gtk_spin_button_get_value_as_int (self->cell_spins[0]);
  rect.y = (gint16) gtk_spin_button_get_value_as_int (self->cell_spins[1]);
  rect.w = (gint16) gtk_spin_button_get_value_as_int (self->cell_spins[2]);
  rect.h = (gint16) gtk_spin_button_get_value_as_int (self->cell_spins[3]);

  history = mat_texture_library_get_history (self->textures);
  if (self->cell_group != history)
    {
      cell_group_end (self);
      mat_history_begin_group (history, NULL);
      self->cell_group = g_object_ref (history);
    }
  g_clear_handle_id (&self->cell_group_timeout, g_source_remove);
  self->cell_group_timeout = g_timeout_add (CELL_GROUP_IDLE_MS, cell_group_timeout_cb, self);
  if (!mat_cell_editor_set_selected_rect (self->cell_editor, &rect, &error))
    {
      if (error != NULL)
        show_banner (self, error->message, FALSE);
      /* back to what the cell is */
      cell_fields_update (self);
    }
}

static void
cell_spin_done_cb (MatTextureWindow *self)
{
  cell_group_end (self);
}

static void
update_cell_label (MatTextureWindow *self)
{
  gint cell = mat_cell_editor_get_selected (self->cell_editor);
  g_autofree char *text = NULL;
  const TexmRect *rects;
  guint n = 0;

  if (self->shown == NULL)
    return;
  rects = mat_texture_get_rects (self->shown, &n, NULL);
  cell_fields_update (self);
  if (cell >= 0 && (guint) cell < n)
    /* Translators: a Page cell: its number, position and size in texels */
    text = g_strdup_printf (_("Cell %d: x %d, y %d, %d×%d"), cell, rects[cell].x, rects[cell].y,
                            rects[cell].w, rects[cell].h);
  else if (n == 0)
    text = g_strdup (_("None: phases draw the whole texture (cell −1)"));
  else
    text = g_strdup_printf (ngettext ("%u cell, numbered from 0", "%u cells, numbered 0 to %u", n),
                            n, n - 1);
  gtk_label_set_text (self->cell_label, text);
  update_actions (self);
}

static void update_users (MatTextureWindow *self);
/* Where the game ignores the alpha the texture holds (render.md 2): a
 * format without alpha, or the material being edited a lit skin without
 * emboss bump; and a palettised texture keyed on index 0. Hidden when
 * the texture holds no alpha or the game draws it. */
static void
update_alpha_note (MatTextureWindow *self)
{
  MatTexture *texture = self->shown;
  const char *note = NULL;

  if (texture != NULL && mat_texture_get_error (texture) == NULL && mat_texture_has_alpha (texture))
    {
      guint32 attr1 = self->material != NULL ? mat_material_get_attr1 (self->material) : 0;
      TexmDrawAlpha how = mat_texture_draw_alpha (texture, attr1, self->emboss_bump);

      if (how != TEXM_DRAW_ALPHA)
        note = _(texm_draw_alpha_note (how));
    }
  gtk_label_set_text (self->alpha_label, note != NULL ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->alpha_label), note != NULL);
}

static void
update_details (MatTextureWindow *self)
{
  MatTexture *texture = self->shown;
  g_autoptr(GtkStringList) levels = gtk_string_list_new (NULL);
  g_autofree char *info = NULL;
  guint level = gtk_drop_down_get_selected (self->level_dropdown);

  if (texture == NULL)
    {
      gboolean empty = self->textures == NULL ||
                       g_list_model_get_n_items (G_LIST_MODEL (self->textures)) == 0;

      gtk_label_set_text (self->empty_title, empty ? _("No Textures Yet") : _("No Texture Selected"));
      gtk_label_set_text (self->empty_body,
                          empty ? _("Import a picture to make the first texture of this Textures.lib.")
                                : _("Choose a texture in the list to see it and edit its cells."));
      gtk_stack_set_visible_child_name (self->detail_stack, "empty");
      mat_cell_editor_set_texture (self->cell_editor, NULL, NULL);
      update_actions (self);
      return;
    }

  gtk_stack_set_visible_child_name (self->detail_stack, "texture");
  gtk_label_set_text (self->name_label, mat_texture_get_name (texture));
  update_users (self);
  if (mat_texture_get_error (texture) != NULL)
    /* Translators: why a texture's payload does not parse */
    info = g_strdup_printf (_("Does not parse: %s"), mat_texture_get_error (texture));
  else
    {
      g_autofree char *format = mat_texture_format_name (mat_texture_get_format (texture));
      g_autofree char *bytes = mat_file_format_count (g_bytes_get_size (mat_texture_get_payload (texture)));
      guint mips = mat_texture_get_mip_count (texture);

      /* Translators: format, width × height, mip levels, payload bytes */
      info = g_strdup_printf (ngettext ("%s · %u×%u · %u mip level · %s bytes",
                                        "%s · %u×%u · %u mip levels · %s bytes", mips),
                              format, mat_texture_get_width (texture), mat_texture_get_height (texture),
                              mips, bytes);
      for (guint i = 0; i < mips; i++)
        {
          const TexmImage *image = mat_texture_get_image (texture);
          guint w, h;
          g_autofree char *text = NULL;

          texm_mip_size (image, i, &w, &h);
          /* Translators: a mip level and its size */
          text = g_strdup_printf (_("Level %u · %u×%u"), i, w, h);
          gtk_string_list_append (levels, text);
        }
    }
  gtk_label_set_text (self->info_label, info);
  {
    /* a texture the big view shows reduced, or not at all */
    guint w = 0, h = 0;
    MatTextureFit fit = mat_texture_get_fit (texture, 0, MAT_TEXTURE_MAX_SHOWN_SIDE, NULL, &w, &h);
    g_autofree char *note = mat_texture_dup_fit_note (texture, fit, w, h);

    gtk_label_set_text (self->size_note_label, note != NULL ? note : "");
    gtk_widget_set_visible (GTK_WIDGET (self->size_note_label), note != NULL);
  }
  update_alpha_note (self);
  gtk_drop_down_set_model (self->level_dropdown, G_LIST_MODEL (levels));
  if (level < g_list_model_get_n_items (G_LIST_MODEL (levels)))
    gtk_drop_down_set_selected (self->level_dropdown, level);
  mat_cell_editor_set_texture (self->cell_editor, self->textures, texture);
  update_cell_label (self);
}

/* ---- the materials that use it ------------------------------------- */

/* The search that finds the materials using @texture: texture:NAME. */
static char *
users_query (MatTexture *texture)
{
  g_autofree char *value = mat_query_quote (mat_texture_get_name (texture));

  return g_strconcat ("texture:", value, NULL);
}

/* Returns: (transfer none) (nullable): the library of the window this
 * one belongs to. */
static MatLibrary *
parent_library (MatTextureWindow *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  return MAT_IS_WINDOW (parent) ? mat_window_get_library (MAT_WINDOW (parent)) : NULL;
}

#define USERS_NAMED 5

static void
update_users (MatTextureWindow *self)
{
  MatLibrary *library = parent_library (self);
  g_autoptr(MatQuery) query = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GString) names = NULL;
  guint n = 0;

  g_signal_group_set_target (self->users_signals,
                             library != NULL ? mat_library_get_history (library) : NULL);
  if (self->shown == NULL || library == NULL)
    {
      gtk_label_set_text (self->users_label, "");
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "textures.select-users", FALSE);
      return;
    }

  text = users_query (self->shown);
  query = mat_query_new (text, NULL);
  names = g_string_new (NULL);
  for (guint i = 0; query != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (library)); i++)
    {
      MatMaterial *material = mat_library_get_material (library, i);

      if (!mat_query_matches (query, material))
        continue;
      if (n < USERS_NAMED)
        {
          if (names->len > 0)
            /* Translators: separates the items of a list */
            g_string_append (names, _(", "));
          g_string_append (names, mat_material_get_name (material));
        }
      n++;
    }

  g_clear_pointer (&text, g_free);
  if (n == 0)
    text = g_strdup (_("No material of the library uses it"));
  else if (n <= USERS_NAMED)
    /* Translators: %u materials of the library use the texture; %s lists their names */
    text = g_strdup_printf (ngettext ("Used by %u material: %s", "Used by %u materials: %s", n), n, names->str);
  else
    /* Translators: %u materials use the texture, %s names the first five of them */
    text = g_strdup_printf (ngettext ("Used by %u material: %s and more", "Used by %u materials: %s and more", n),
                            n, names->str);
  gtk_label_set_text (self->users_label, text);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "textures.select-users", n > 0);
}

static gboolean
users_timeout_cb (gpointer data)
{
  MatTextureWindow *self = data;

  self->users_source = 0;
  update_users (self);
  return G_SOURCE_REMOVE;
}

/* The library changed: counted again a moment after the last step (a
 * drag is many). */
static void
users_history_changed_cb (MatTextureWindow *self)
{
  g_clear_handle_id (&self->users_source, g_source_remove);
  self->users_source = g_timeout_add (200, users_timeout_cb, self);
}

static void
select_users_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (widget);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  g_autofree char *text = NULL;

  if (self->shown == NULL || !MAT_IS_WINDOW (parent))
    return;
  text = users_query (self->shown);
  mat_window_select_query (MAT_WINDOW (parent), text);
}

static void
shown_changed_cb (MatTextureWindow *self)
{
  update_details (self);
}

static void
set_shown (MatTextureWindow *self,
           MatTexture       *texture)
{
  if (self->shown == texture)
    {
      update_details (self);
      return;
    }
  cell_group_end (self);
  if (self->shown != NULL)
    g_signal_handlers_disconnect_by_data (self->shown, self);
  g_set_object (&self->shown, texture);
  if (texture != NULL)
    g_signal_connect_swapped (texture, "changed", G_CALLBACK (shown_changed_cb), self);
  gtk_drop_down_set_selected (self->level_dropdown, 0);
  update_details (self);
}

static void
selection_changed_cb (MatTextureWindow *self)
{
  set_shown (self, gtk_single_selection_get_selected_item (self->selection));
}

/* ---- the list --------------------------------------------------------- */

static guint
thumbnail_level (MatTexture *texture)
{
  guint w = mat_texture_get_width (texture);
  guint h = mat_texture_get_height (texture);
  guint n = mat_texture_get_mip_count (texture);
  guint level = 0;

  while (level + 1 < n && MAX (w >> (level + 1), h >> (level + 1)) >= THUMB_SIZE)
    level++;
  return level;
}

static void
draw_thumbnail (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        user_data)
{
  mat_texture_draw_fit (cr, g_object_get_data (G_OBJECT (area), "mat-surface"), width, height);
}

static void
row_refresh (GtkWidget *row)
{
  MatTexture *texture = g_object_get_data (G_OBJECT (row), "mat-texture");
  GtkWidget *thumb = gtk_widget_get_first_child (row);
  GtkWidget *labels = gtk_widget_get_next_sibling (thumb);
  GtkWidget *name = gtk_widget_get_first_child (labels);
  GtkWidget *caption = gtk_widget_get_next_sibling (name);
  cairo_surface_t *surface = NULL;
  g_autofree char *text = NULL;
  g_autofree char *note = NULL;

  if (texture == NULL)
    return;
  gtk_label_set_text (GTK_LABEL (name), mat_texture_get_name (texture));
  if (mat_texture_get_error (texture) != NULL)
    text = g_strdup (_("Does not parse"));
  else
    {
      g_autofree char *format = mat_texture_format_name (mat_texture_get_format (texture));
      guint rects = mat_texture_get_page_rects (texture);
      g_autoptr(GBytes) rgba = NULL;
      MatTextureFit fit = MAT_TEXTURE_FIT_NONE;
      guint w = 0, h = 0;

      if (rects > 0)
        /* Translators: format, size, and the number of Page cells */
        text = g_strdup_printf (ngettext ("%s · %u×%u · %u cell", "%s · %u×%u · %u cells", rects),
                                format, mat_texture_get_width (texture),
                                mat_texture_get_height (texture), rects);
      else
        /* Translators: texture format, width and height, e.g. "565 · 64×64" */
        text = g_strdup_printf (_("%s · %u×%u"), format, mat_texture_get_width (texture),
                                mat_texture_get_height (texture));
      rgba = mat_texture_dup_rgba_fitted (texture, thumbnail_level (texture), THUMB_MAX_SIDE,
                                          &w, &h, &fit);
      if (rgba != NULL)
        surface = mat_texture_draw_surface_new (g_bytes_get_data (rgba, NULL), w, h, 0);
      if (fit == MAT_TEXTURE_FIT_TOO_LARGE)
        note = mat_texture_dup_fit_note (texture, fit, 0, 0);
    }
  gtk_label_set_text (GTK_LABEL (caption), text);
  mat_tooltip_set_text (thumb, note);
  g_object_set_data_full (G_OBJECT (thumb), "mat-surface", surface,
                          (GDestroyNotify) cairo_surface_destroy);
  gtk_widget_queue_draw (thumb);
}

static void
row_setup_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *thumb = gtk_drawing_area_new ();
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *caption = gtk_label_new (NULL);

  gtk_widget_set_margin_top (row, 3);
  gtk_widget_set_margin_bottom (row, 3);
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (thumb), THUMB_SIZE);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (thumb), THUMB_SIZE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (thumb), draw_thumbnail, NULL, NULL);
  gtk_widget_set_valign (labels, GTK_ALIGN_CENTER);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (name, "heading");
  gtk_label_set_xalign (GTK_LABEL (caption), 0);
  gtk_label_set_ellipsize (GTK_LABEL (caption), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (caption, "caption");
  gtk_widget_add_css_class (caption, "dim-label");
  gtk_widget_add_css_class (caption, "numeric");
  gtk_box_append (GTK_BOX (labels), name);
  gtk_box_append (GTK_BOX (labels), caption);
  gtk_box_append (GTK_BOX (row), thumb);
  gtk_box_append (GTK_BOX (row), labels);
  gtk_list_item_set_child (item, row);
}

static void
row_bind_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  GtkWidget *row = gtk_list_item_get_child (item);
  MatTexture *texture = gtk_list_item_get_item (item);

  g_object_set_data_full (G_OBJECT (row), "mat-texture", g_object_ref (texture), g_object_unref);
  /* a payload replaced in place: the same item, new pixels */
  g_signal_connect_object (texture, "changed", G_CALLBACK (row_refresh), row, G_CONNECT_SWAPPED);
  row_refresh (row);
}

static void
row_unbind_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  GtkWidget *row = gtk_list_item_get_child (item);
  MatTexture *texture = g_object_get_data (G_OBJECT (row), "mat-texture");

  if (texture != NULL)
    g_signal_handlers_disconnect_by_data (texture, row);
  g_object_set_data (G_OBJECT (row), "mat-texture", NULL);
}

static void
search_changed_cb (MatTextureWindow *self)
{
  gtk_string_filter_set_search (self->name_filter,
                                gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

/* ---- the library ------------------------------------------------------ */

static void
library_state_cb (MatTextureWindow *self)
{
  update_title (self);
  update_actions (self);
}

static void
items_changed_cb (MatTextureWindow *self)
{
  update_count (self);
  if (self->shown == NULL)
    update_details (self);
}

void
mat_texture_window_set_textures (MatTextureWindow  *self,
                                 MatTextureLibrary *textures)
{
  g_return_if_fail (MAT_IS_TEXTURE_WINDOW (self));
  g_return_if_fail (textures == NULL || MAT_IS_TEXTURE_LIBRARY (textures));

  if (!g_set_object (&self->textures, textures))
    return;

  g_signal_group_set_target (self->textures_signals, textures);
  g_signal_group_set_target (self->history_signals,
                             textures != NULL ? mat_texture_library_get_history (textures) : NULL);
  gtk_filter_list_model_set_model (self->filter_model, G_LIST_MODEL (textures));
  gtk_stack_set_visible_child_name (self->main_stack, textures != NULL ? "library" : "none");
  hide_banner (self);
  selection_changed_cb (self);
  update_count (self);
  update_title (self);
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURES]);
}

MatTextureLibrary *
mat_texture_window_get_textures (MatTextureWindow *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_WINDOW (self), NULL);
  return self->textures;
}

static void
update_none_label (MatTextureWindow *self)
{
  g_autofree char *text = NULL;

  if (self->library_file != NULL)
    {
      g_autofree char *name = g_file_get_basename (self->library_file);

      /* Translators: %s is the material library's file name */
      text = g_strdup_printf (_("There is no Textures.lib beside %s. Create an empty one there, "
                                "then import pictures into it."), name);
    }
  else
    text = g_strdup (_("Open a material library first: its textures live in the Textures.lib "
                       "beside it."));
  gtk_label_set_text (self->none_label, text);
}

GFile *
mat_texture_window_get_library_file (MatTextureWindow *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_WINDOW (self), NULL);
  return self->library_file;
}

void
mat_texture_window_set_library_file (MatTextureWindow *self,
                                     GFile            *library_file)
{
  g_return_if_fail (MAT_IS_TEXTURE_WINDOW (self));
  g_return_if_fail (library_file == NULL || G_IS_FILE (library_file));

  if (self->library_file == library_file ||
      (self->library_file != NULL && library_file != NULL && g_file_equal (self->library_file, library_file)))
    return;
  g_set_object (&self->library_file, library_file);
  update_none_label (self);
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIBRARY_FILE]);
}

MatTexture *
mat_texture_window_get_selected (MatTextureWindow *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_WINDOW (self), NULL);
  return self->shown;
}

gboolean
mat_texture_window_select (MatTextureWindow *self,
                           MatTexture       *texture)
{
  GListModel *model = G_LIST_MODEL (self->filter_model);

  g_return_val_if_fail (MAT_IS_TEXTURE_WINDOW (self), FALSE);

  for (int pass = 0; pass < 2; pass++)
    {
      guint n = g_list_model_get_n_items (model);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(MatTexture) item = g_list_model_get_item (model, i);

          if (item == texture)
            {
              gtk_single_selection_set_selected (self->selection, i);
              gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", i);
              return TRUE;
            }
        }
      /* hidden by the search: show everything */
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      search_changed_cb (self);
    }
  return FALSE;
}

/* ---- saving ----------------------------------------------------------- */

/* Closes the window now that its edits are saved or discarded, and the
 * parent when its closing was what asked. */
static void
finish_close (MatTextureWindow *self)
{
  GtkWindow *transient = gtk_window_get_transient_for (GTK_WINDOW (self));
  g_autoptr(GtkWindow) parent = self->close_parent && transient != NULL ? g_object_ref (transient) : NULL;

  self->close_parent = FALSE;
  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
  if (parent != NULL)
    {
      /* no longer tied to a parent that goes too */
      gtk_window_set_transient_for (GTK_WINDOW (self), NULL);
      gtk_window_close (parent);
    }
}

static void
save_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(MatTextureWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  MatSaveNotes notes = MAT_SAVE_NOTE_NONE;

  self->saving = FALSE;
  if (!mat_texture_library_save_finish (MAT_TEXTURE_LIBRARY (object), result, &notes, &error))
    {
      g_autofree char *name = file_name (self);
      g_autofree char *text = NULL;
      gboolean changed = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);

      self->close_after_save = FALSE;
      self->close_parent = FALSE;
      if (changed)
        /* Translators: %s is the texture library's file name */
        text = g_strdup_printf (_("%s was changed by another program since it was opened: not saved. "
                                  "Overwrite it with these textures, or close without saving."), name);
      else
        /* Translators: the file name, then why the save failed */
        text = g_strdup_printf (_("%s was not saved: %s"), name, error->message);
      if (gtk_widget_get_root (GTK_WIDGET (self->banner_label)) != NULL)
        show_banner (self, text, changed);
      update_actions (self);
      return;
    }
  hide_banner (self);
  if (notes & MAT_SAVE_NOTE_LINKS_DETACHED)
    show_banner (self, _("The file had other hard links: they keep the previous content."), FALSE);
  update_actions (self);
  if (self->close_after_save)
    finish_close (self);
}

static void
save (MatTextureWindow *self,
      MatSaveFlags      flags)
{
  if (self->textures == NULL || self->saving)
    return;
  self->saving = TRUE;
  update_actions (self);
  mat_texture_library_save_async (self->textures, NULL, flags, NULL, save_done_cb, g_object_ref (self));
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  save (MAT_TEXTURE_WINDOW (widget), MAT_SAVE_NONE);
}

static void
overwrite_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (widget);

  hide_banner (self);
  save (self, MAT_SAVE_IGNORE_CHANGES);
}

static void
dismiss_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  hide_banner (MAT_TEXTURE_WINDOW (widget));
}

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (widget);

  if (self->textures != NULL)
    mat_history_undo (mat_texture_library_get_history (self->textures));
}

static void
redo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (widget);

  if (self->textures != NULL)
    mat_history_redo (mat_texture_library_get_history (self->textures));
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

/* ---- closing ---------------------------------------------------------- */

static void
reverted_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(MatTextureWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(MatTextureLibrary) textures = mat_texture_library_load_finish (result, &error);

  if (textures != NULL)
    mat_texture_window_set_textures (self, textures);
  finish_close (self);
}

/* Discarding: the edits since the last save are undone (they stay
 * redoable); when the saved state is no longer in the history, the file
 * is read again. */
static void
discard (MatTextureWindow *self)
{
  MatHistory *history = mat_texture_library_get_history (self->textures);
  GFile *file = mat_texture_library_get_file (self->textures);

  while (mat_texture_library_get_dirty (self->textures) && mat_history_undo (history))
    ;
  if (mat_texture_library_get_dirty (self->textures) && file != NULL)
    {
      mat_texture_library_load_async (file, NULL, reverted_cb, g_object_ref (self));
      return;
    }
  finish_close (self);
}

typedef struct {
  MatTextureWindow *self;
  int               response;
} Answer;

static void
answer_free (gpointer data)
{
  Answer *answer = data;

  g_object_unref (answer->self);
  g_free (answer);
}

/* After the dialog is gone: closing windows inside its response would
 * pull its parent from under it. */
static gboolean
answer_idle (gpointer data)
{
  Answer *answer = data;
  MatTextureWindow *self = answer->self;

  if (self->textures == NULL)
    return G_SOURCE_REMOVE;   /* disposed meanwhile */
  switch (answer->response)
    {
    case MAT_UNSAVED_RESPONSE_SAVE:
      self->close_after_save = TRUE;
      save (self, MAT_SAVE_NONE);
      break;
    case MAT_UNSAVED_RESPONSE_DISCARD:
      discard (self);
      break;
    case MAT_UNSAVED_RESPONSE_CANCEL:
    default:
      self->close_parent = FALSE;
      break;
    }
  return G_SOURCE_REMOVE;
}

static void
unsaved_response_cb (MatTextureWindow *self,
                     int               response)
{
  Answer *answer = g_new0 (Answer, 1);

  self->unsaved_dialog = NULL;
  answer->self = g_object_ref (self);
  answer->response = response;
  g_idle_add_full (G_PRIORITY_DEFAULT, answer_idle, answer, answer_free);
}

/* Asks about unsaved edits; %TRUE when the window stays open for now. */
static gboolean
ask_before_closing (MatTextureWindow *self)
{
  GtkWindow *window = GTK_WINDOW (self);

  if (self->textures != NULL && mat_texture_library_get_dirty (self->textures) &&
      !self->close_confirmed)
    {
      if (self->unsaved_dialog == NULL)
        {
          g_autofree char *name = file_name (self);

          self->unsaved_dialog = mat_unsaved_dialog_present (window, name);
          g_signal_connect_object (self->unsaved_dialog, "response",
                                   G_CALLBACK (unsaved_response_cb), self, G_CONNECT_SWAPPED);
        }
      else
        gtk_window_present (GTK_WINDOW (self->unsaved_dialog));
      return TRUE;
    }
  return FALSE;
}

static gboolean
mat_texture_window_close_request (GtkWindow *window)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (window);

  if (ask_before_closing (self))
    return TRUE;
  return GTK_WINDOW_CLASS (mat_texture_window_parent_class)->close_request (window);
}

/* The parent closing (or the application quitting) would take this
 * window along: unsaved texture edits are asked about first, and the
 * parent closes once they are saved or discarded. */
static gboolean
parent_close_request_cb (MatTextureWindow *self,
                         GtkWindow        *parent)
{
  if (!ask_before_closing (self))
    return FALSE;
  self->close_parent = TRUE;
  gtk_window_present (GTK_WINDOW (self));
  return TRUE;
}

/* ---- asking before the library is dropped ------------------------------ */

typedef struct {
  GtkWindow        *parent;     /* (nullable) a weak pointer: it may go first */
  MatUnsavedDialog *dialog;     /* (nullable) while it is shown */
  GCancellable     *cancellable;
  gulong            cancelled_id;
} AskData;

static void
ask_data_free (AskData *data)
{
  if (data->cancellable != NULL)
    g_clear_signal_handler (&data->cancelled_id, data->cancellable);
  g_clear_object (&data->cancellable);
  g_clear_weak_pointer (&data->dialog);
  g_clear_weak_pointer (&data->parent);
  g_free (data);
}

static void
ask_saved_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AskData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!mat_texture_library_save_finish (MAT_TEXTURE_LIBRARY (object), result, NULL, &error))
    {
      GFile *file = mat_texture_library_get_file (MAT_TEXTURE_LIBRARY (object));
      g_autofree char *name = file != NULL ? g_file_get_basename (file) : g_strdup ("Textures.lib");
      /* Translators: %s is a file name */
      g_autofree char *heading = g_strdup_printf (_("Could Not Save “%s”"), name);

      mat_dialogs_show_message (data->parent, GTK_MESSAGE_ERROR, heading, error->message);
      g_task_return_boolean (task, FALSE);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
ask_response_cb (MatUnsavedDialog *dialog,
                 int               response,
                 GTask            *task)
{
  AskData *data = g_task_get_task_data (task);

  /* answered once: the cancellable has nothing left to close */
  if (data->cancellable != NULL)
    g_clear_signal_handler (&data->cancelled_id, data->cancellable);
  switch (response)
    {
    case MAT_UNSAVED_RESPONSE_SAVE:
      mat_texture_library_save_async (g_task_get_source_object (task), NULL, MAT_SAVE_NONE, NULL,
                                      ask_saved_cb, g_object_ref (task));
      break;
    case MAT_UNSAVED_RESPONSE_DISCARD:
      g_task_return_boolean (task, TRUE);
      break;
    case MAT_UNSAVED_RESPONSE_CANCEL:
    default:
      g_task_return_boolean (task, FALSE);
      break;
    }
}

/* @cancellable went off: the question closes, as if cancelled. */
static void
ask_cancelled_cb (GCancellable *cancellable,
                  AskData      *data)
{
  if (data->dialog != NULL)
    gtk_window_close (GTK_WINDOW (data->dialog));
}

void
mat_texture_window_ask_unsaved_async (GtkWindow          *parent,
                                      MatTextureLibrary  *textures,
                                      GCancellable       *cancellable,
                                      GAsyncReadyCallback callback,
                                      gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *name = NULL;
  AskData *data;
  GFile *file;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));
  g_return_if_fail (MAT_IS_TEXTURE_LIBRARY (textures));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (textures, NULL, callback, user_data);
  g_task_set_source_tag (task, &ask_tag);
  if (!mat_texture_library_get_dirty (textures))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
    {
      g_task_return_boolean (task, FALSE);
      return;
    }

  data = g_new0 (AskData, 1);
  g_set_weak_pointer (&data->parent, parent);
  g_task_set_task_data (task, data, (GDestroyNotify) ask_data_free);
  file = mat_texture_library_get_file (textures);
  name = file != NULL ? g_file_get_basename (file) : g_strdup ("Textures.lib");
  g_set_weak_pointer (&data->dialog, mat_unsaved_dialog_present (parent, name));
  /* the dialog holds the task until it answers */
  g_signal_connect_data (data->dialog, "response", G_CALLBACK (ask_response_cb),
                         g_object_ref (task), (GClosureNotify) (void (*) (void)) g_object_unref, 0);
  if (cancellable != NULL)
    {
      data->cancellable = g_object_ref (cancellable);
      /* a plain handler: it may go from inside the emission */
      data->cancelled_id = g_signal_connect (cancellable, "cancelled", G_CALLBACK (ask_cancelled_cb), data);
    }
}

gboolean
mat_texture_window_ask_unsaved_finish (GAsyncResult *result)
{
  g_return_val_if_fail (G_IS_TASK (result), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == &ask_tag, FALSE);

  return g_task_propagate_boolean (G_TASK (result), NULL);
}

/* ---- import, export, create ------------------------------------------ */

static void
imported_cb (MatTextureWindow *self,
             MatTexture       *texture)
{
  mat_texture_window_select (self, texture);
}

static void
open_import (MatTextureWindow *self,
             MatTexture       *replace)
{
  MatTextureImportDialog *dialog;

  if (self->textures == NULL)
    return;
  dialog = mat_texture_import_dialog_new (GTK_WINDOW (self), self->textures, replace);
  /* whether the game will draw the picture's alpha */
  mat_texture_import_dialog_set_material (dialog, self->material, self->emboss_bump);
  g_signal_connect_object (dialog, "imported", G_CALLBACK (imported_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  open_import (MAT_TEXTURE_WINDOW (widget), NULL);
}

static void
replace_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (widget);

  open_import (self, self->shown);
}

/* ---- renaming and deleting a texture ------------------------------------ */

/* Returns: (transfer none) (nullable): the material library whose
 * materials name the textures: the editor window's, else the one of the
 * material being edited. */
static MatLibrary *
materials_library (MatTextureWindow *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  if (MAT_IS_WINDOW (parent) && mat_window_get_library (MAT_WINDOW (parent)) != NULL)
    return mat_window_get_library (MAT_WINDOW (parent));
  return self->material != NULL ? mat_material_get_library (self->material) : NULL;
}

static char *
materials_name (MatLibrary *library)
{
  GFile *file = library != NULL ? mat_library_get_file (library) : NULL;

  if (library == NULL)
    return NULL;
  return file != NULL ? g_file_get_basename (file) : g_strdup ("Material.lib");
}

static void
renamed_cb (MatTextureWindow *self,
            MatTexture       *texture,
            guint             phases)
{
  g_autofree char *text = NULL;

  if (phases > 0)
    /* Translators: a texture's new name, then how many phases now name it */
    text = g_strdup_printf (ngettext ("Renamed to %s; %u phase names it now.",
                                      "Renamed to %s; %u phases name it now.", phases),
                            mat_texture_get_name (texture), phases);
  else
    /* Translators: a texture's new name */
    text = g_strdup_printf (_("Renamed to %s."), mat_texture_get_name (texture));
  show_banner (self, text, FALSE);
  mat_texture_window_select (self, texture);
}

static void
rename_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (widget);
  MatTextureRenameDialog *dialog;

  if (self->textures == NULL || self->shown == NULL)
    return;
  cell_group_end (self);
  dialog = mat_texture_rename_dialog_present (GTK_WINDOW (self), self->textures, self->shown,
                                              materials_library (self));
  g_signal_connect_object (dialog, "renamed", G_CALLBACK (renamed_cb), self, G_CONNECT_SWAPPED);
}

typedef struct {
  MatTextureWindow *self;
  MatTexture       *texture;
} DeleteOp;

static void
delete_op_free (DeleteOp *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->texture);
  g_free (op);
}

static void
delete_answered_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  DeleteOp *op = user_data;
  MatTextureWindow *self = op->self;
  g_autoptr(GError) error = NULL;

  /* 1: Delete; the library may have gone meanwhile */
  if (mat_dialogs_choose_finish (result) == 1 && self->textures != NULL &&
      gtk_widget_get_root (GTK_WIDGET (self->banner_label)) != NULL &&
      !mat_texture_library_remove (self->textures, op->texture, &error))
    show_banner (self, error->message, FALSE);
  delete_op_free (op);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (widget);
  static const char *const buttons[] = { N_("_Cancel"), N_("_Delete"), NULL };
  const char *labels[3];
  MatLibrary *library;
  g_autoptr(GPtrArray) users = NULL;
  g_autofree char *library_name = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *users_text = NULL;
  g_autofree char *body = NULL;
  DeleteOp *op;

  if (self->textures == NULL || self->shown == NULL)
    return;
  cell_group_end (self);
  library = materials_library (self);
  library_name = materials_name (library);
  users = library != NULL ? mat_library_dup_texture_users (library, mat_texture_get_name (self->shown))
                          : g_ptr_array_new ();
  users_text = mat_texture_dup_users_text (users, mat_texture_get_name (self->shown), library_name);
  /* Translators: the question before a texture is deleted */
  heading = g_strdup_printf (_("Delete %s?"), mat_texture_get_name (self->shown));
  if (users->len > 0)
    /* Translators: %s says which materials use the texture */
    body = g_strdup_printf (_("%s They keep its name, and the game will find no texture for them. "
                              "Undo in this window brings it back."), users_text);
  else
    /* Translators: %s says that no material uses the texture */
    body = g_strdup_printf (_("%s Undo in this window brings it back."), users_text);
  for (guint i = 0; i < 3; i++)
    labels[i] = buttons[i] != NULL ? _(buttons[i]) : NULL;

  op = g_new0 (DeleteOp, 1);
  op->self = g_object_ref (self);
  op->texture = g_object_ref (self->shown);
  mat_dialogs_choose (GTK_WINDOW (self), heading, body, labels, 0, 0, 1, self->cancellable,
                      delete_answered_cb, op);
}

static void
delete_cell_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (!mat_cell_editor_delete_selected (self->cell_editor, &error) && error != NULL)
    show_banner (self, error->message, FALSE);
}

static void
cell_error_cb (MatTextureWindow *self,
               const char       *message)
{
  show_banner (self, message, FALSE);
}

static void
export_written_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!mat_file_replace_finish (result, NULL, NULL, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
mat_texture_window_export_async (MatTextureWindow    *self,
                                 MatTexture          *texture,
                                 guint                level,
                                 GFile               *file,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GBytes) rgba = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) png = NULL;
  gchar *buffer = NULL;
  gsize size = 0;
  guint w = 0, h = 0;

  g_return_if_fail (MAT_IS_TEXTURE_WINDOW (self));
  g_return_if_fail (MAT_IS_TEXTURE (texture));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, &export_tag);
  rgba = mat_texture_dup_rgba (texture, level, &w, &h);
  if (rgba == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               /* Translators: a texture name, a mip level, the texture's levels */
                               _("%s: expected a mip level that decodes (0 to %u), found level %u"),
                               mat_texture_get_name (texture),
                               MAX (mat_texture_get_mip_count (texture), 1) - 1, level);
      return;
    }
  /* the decoded RGBA as it is: straight alpha, 8 bits a channel */
  pixbuf = gdk_pixbuf_new_from_bytes (rgba, GDK_COLORSPACE_RGB, TRUE, 8, (int) w, (int) h, (int) w * 4);
  if (!gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &size, "png", &error, NULL))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  png = g_bytes_new_take (buffer, size);
  /* the safe save of every file: a failed write leaves the old file */
  mat_file_replace_async (file, png, NULL, MAT_SAVE_NONE, cancellable, export_written_cb,
                          g_steal_pointer (&task));
}

gboolean
mat_texture_window_export_finish (MatTextureWindow  *self,
                                  GAsyncResult      *result,
                                  GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

typedef struct {
  MatTextureWindow *self;
  MatTexture       *texture;
  guint             level;
} ExportOp;

static void
export_op_free (ExportOp *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->texture);
  g_free (op);
}

static void
exported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (object);
  GFile *file = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *text = NULL;

  if (!mat_texture_window_export_finish (self, result, &error))
    /* Translators: the PNG file, then why it was not written */
    text = g_strdup_printf (_("%s was not written: %s"), name, error->message);
  else
    /* Translators: the PNG file written */
    text = g_strdup_printf (_("Exported to %s."), name);
  if (gtk_widget_get_root (GTK_WIDGET (self->banner_label)) != NULL)
    show_banner (self, text, FALSE);
  g_object_unref (file);
}

static void
export_to (ExportOp *op,
           GFile    *file)
{
  mat_texture_window_export_async (op->self, op->texture, op->level, file, NULL, exported_cb,
                                   g_object_ref (file));
}

/* "ROCK.0.png", "ROCK.0-level2.png" */
static char *
export_name (MatTexture *texture,
             guint       level)
{
  g_autofree char *safe = g_strdup (mat_texture_get_name (texture));

  g_strdelimit (safe, "/\\", '_');
  if (level == 0)
    return g_strdup_printf ("%s.png", safe);
  return g_strdup_printf ("%s-level%u.png", safe, level);
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
export_chosen_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  ExportOp *op = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (source), result, NULL);

  if (file != NULL)
    export_to (op, file);
  export_op_free (op);
}
#else
static void
export_response_cb (GtkNativeDialog *chooser,
                    int              response,
                    ExportOp        *op)
{
  MatTextureWindow *self = op->self;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        export_to (op, file);
    }
  gtk_native_dialog_destroy (chooser);
  if (self->chooser == GTK_FILE_CHOOSER_NATIVE (chooser))
    g_clear_object (&self->chooser);
  export_op_free (op);
}
#endif

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (widget);
  g_autofree char *name = NULL;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  ExportOp *op;

  if (self->shown == NULL)
    return;
  op = g_new0 (ExportOp, 1);
  op->self = g_object_ref (self);
  op->texture = g_object_ref (self->shown);
  op->level = gtk_drop_down_get_selected (self->level_dropdown);
  if (op->level == GTK_INVALID_LIST_POSITION)
    op->level = 0;
  name = export_name (op->texture, op->level);
  gtk_file_filter_set_name (filter, _("PNG pictures"));
  gtk_file_filter_add_mime_type (filter, "image/png");
  gtk_file_filter_add_suffix (filter, "png");

#if GTK_CHECK_VERSION (4, 10, 0)
  {
    g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
    g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);

    g_list_store_append (filters, filter);
    gtk_file_dialog_set_title (dialog, _("Export Texture as PNG"));
    gtk_file_dialog_set_initial_name (dialog, name);
    gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
    gtk_file_dialog_save (dialog, GTK_WINDOW (self), NULL, export_chosen_cb, op);
  }
#else
  if (self->chooser != NULL)
    {
      export_op_free (op);
      return;
    }
  self->chooser = gtk_file_chooser_native_new (_("Export Texture as PNG"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_signal_connect (self->chooser, "response", G_CALLBACK (export_response_cb), op);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
#endif
}

static void
created_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(MatTextureWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(MatTextureLibrary) textures = mat_texture_library_create_finish (result, &error);
  GtkWindow *parent;

  self->creating = FALSE;
  if (gtk_widget_get_root (GTK_WIDGET (self->banner_label)) == NULL)
    return;   /* closed meanwhile */
  if (textures == NULL)
    {
      /* Translators: why Textures.lib could not be created */
      g_autofree char *text = g_strdup_printf (_("Textures.lib was not created: %s"), error->message);

      show_banner (self, text, FALSE);
      update_actions (self);
      return;
    }
  /* Over an editor window, the library's document takes it as its
   * Textures.lib (and hands it to the phase table, the preview and the
   * compare view, and so back to this window) */
  parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  if (MAT_IS_WINDOW (parent) && mat_window_get_document (MAT_WINDOW (parent)) != NULL)
    mat_document_adopt_textures (mat_window_get_document (MAT_WINDOW (parent)), textures);
  mat_texture_window_set_textures (self, textures);
}

static void
create_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (widget);
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GFile) file = NULL;

  if (self->library_file == NULL || self->textures != NULL || self->creating)
    return;
  folder = g_file_get_parent (self->library_file);
  if (folder == NULL)
    return;
  file = g_file_get_child (folder, "Textures.lib");
  self->creating = TRUE;
  update_actions (self);
  mat_texture_library_create_async (file, NULL, created_cb, g_object_ref (self));
}

/* ---- GObject ---------------------------------------------------------- */

static void
grid_changed_cb (MatTextureWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->grid_dropdown);

  mat_cell_editor_set_grid (self->cell_editor, i < G_N_ELEMENTS (grid_steps) ? grid_steps[i] : 1);
  /* the spin buttons step by the grid too */
  cell_fields_update (self);
}

static void
mat_texture_window_dispose (GObject *object)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (object);

  cell_group_end (self);
  if (self->owner_binding != NULL)
    g_binding_unbind (self->owner_binding);
  self->owner_binding = NULL;
  /* a window kept alive past its parent must not point at it */
  gtk_window_set_transient_for (GTK_WINDOW (self), NULL);
  g_cancellable_cancel (self->cancellable);
#if !GTK_CHECK_VERSION (4, 10, 0)
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
#endif
  if (self->shown != NULL)
    g_signal_handlers_disconnect_by_data (self->shown, self);
  g_clear_object (&self->shown);
  if (self->textures_signals != NULL)
    g_signal_group_set_target (self->textures_signals, NULL);
  if (self->history_signals != NULL)
    g_signal_group_set_target (self->history_signals, NULL);
  if (self->users_signals != NULL)
    g_signal_group_set_target (self->users_signals, NULL);
  g_clear_object (&self->users_signals);
  g_clear_handle_id (&self->users_source, g_source_remove);
  if (self->material_signals != NULL)
    g_signal_group_set_target (self->material_signals, NULL);
  g_clear_object (&self->material_signals);
  g_clear_object (&self->material);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_TEXTURE_WINDOW);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->textures_signals);
  g_clear_object (&self->history_signals);
  g_clear_object (&self->textures);
  g_clear_object (&self->library_file);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (mat_texture_window_parent_class)->dispose (object);
}

static void
mat_texture_window_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_TEXTURES:
      g_value_set_object (value, self->textures);
      break;
    case PROP_LIBRARY_FILE:
      g_value_set_object (value, self->library_file);
      break;
    case PROP_MATERIAL:
      g_value_set_object (value, self->material);
      break;
    case PROP_EMBOSS_BUMP:
      g_value_set_boolean (value, self->emboss_bump);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_texture_window_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  MatTextureWindow *self = MAT_TEXTURE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_TEXTURES:
      mat_texture_window_set_textures (self, g_value_get_object (value));
      break;
    case PROP_LIBRARY_FILE:
      mat_texture_window_set_library_file (self, g_value_get_object (value));
      break;
    case PROP_MATERIAL:
      mat_texture_window_set_material (self, g_value_get_object (value));
      break;
    case PROP_EMBOSS_BUMP:
      mat_texture_window_set_emboss_bump (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_texture_window_class_init (MatTextureWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = mat_texture_window_dispose;
  object_class->get_property = mat_texture_window_get_property;
  object_class->set_property = mat_texture_window_set_property;
  window_class->close_request = mat_texture_window_close_request;

  properties[PROP_TEXTURES] =
    g_param_spec_object ("textures", NULL, NULL, MAT_TYPE_TEXTURE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LIBRARY_FILE] =
    g_param_spec_object ("library-file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MATERIAL] =
    g_param_spec_object ("material", NULL, NULL, MAT_TYPE_MATERIAL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EMBOSS_BUMP] =
    g_param_spec_boolean ("emboss-bump", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (MAT_TYPE_CELL_EDITOR);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-texture-window.ui");
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, save_button);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, undo_button);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, redo_button);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, banner_revealer);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, banner_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, overwrite_button);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, none_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, list_view);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, count_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, detail_stack);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, empty_title);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, empty_body);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, name_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, users_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, size_note_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, alpha_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, level_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, cell_label);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, grid_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, cell_editor);
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, cell_fields);
  gtk_widget_class_bind_template_child_full (widget_class, "cell_x_spin", FALSE,
                                             G_STRUCT_OFFSET (MatTextureWindow, cell_spins[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "cell_y_spin", FALSE,
                                             G_STRUCT_OFFSET (MatTextureWindow, cell_spins[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "cell_w_spin", FALSE,
                                             G_STRUCT_OFFSET (MatTextureWindow, cell_spins[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "cell_h_spin", FALSE,
                                             G_STRUCT_OFFSET (MatTextureWindow, cell_spins[3]));
  gtk_widget_class_bind_template_child (widget_class, MatTextureWindow, texture_menu_button);

  /* the application's accelerators (Ctrl+Z, Ctrl+Shift+Z, Ctrl+S,
   * Ctrl+W) reach these: they are this window's own */
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, redo_action);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "textures.import", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "textures.replace", NULL, replace_action);
  gtk_widget_class_install_action (widget_class, "textures.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "textures.create", NULL, create_action);
  gtk_widget_class_install_action (widget_class, "textures.delete-cell", NULL, delete_cell_action);
  gtk_widget_class_install_action (widget_class, "textures.rename", NULL, rename_action);
  gtk_widget_class_install_action (widget_class, "textures.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "textures.overwrite", NULL, overwrite_action);
  gtk_widget_class_install_action (widget_class, "textures.dismiss", NULL, dismiss_action);
  gtk_widget_class_install_action (widget_class, "textures.select-users", NULL, select_users_action);
  /* also when the window is shown on its own, without the application */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "win.undo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_y, GDK_CONTROL_MASK, "win.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "win.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "textures.rename", NULL);
}

static void
mat_texture_window_init (MatTextureWindow *self)
{
  g_autoptr(GtkStringList) grid_labels = gtk_string_list_new (NULL);
  GtkListItemFactory *factory;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  mat_revealer_skip_concealed (self->banner_revealer);
  self->users_signals = g_signal_group_new (MAT_TYPE_HISTORY);
  g_signal_group_connect_swapped (self->users_signals, "changed",
                                  G_CALLBACK (users_history_changed_cb), self);

  self->name_filter = gtk_string_filter_new (gtk_property_expression_new (MAT_TYPE_TEXTURE, NULL, "name"));
  gtk_string_filter_set_match_mode (self->name_filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->name_filter, TRUE);
  self->filter_model = gtk_filter_list_model_new (NULL, GTK_FILTER (self->name_filter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->filter_model)));
  gtk_single_selection_set_autoselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (selection_changed_cb), self);
  g_signal_connect_swapped (self->filter_model, "items-changed", G_CALLBACK (items_changed_cb), self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (row_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (row_bind_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (row_unbind_cb), NULL);
  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);

  for (guint i = 0; i < G_N_ELEMENTS (grid_steps); i++)
    {
      /* Translators: a grid step in texels (pixels of the texture) */
      g_autofree char *label = g_strdup_printf (_("%u px"), grid_steps[i]);

      gtk_string_list_append (grid_labels, label);
    }
  gtk_drop_down_set_model (self->grid_dropdown, G_LIST_MODEL (grid_labels));
  gtk_drop_down_set_selected (self->grid_dropdown, 0);
  g_signal_connect_swapped (self->grid_dropdown, "notify::selected", G_CALLBACK (grid_changed_cb), self);
  grid_changed_cb (self);

  /* another cell selected: the numbers typed so far are one step */
  g_signal_connect_swapped (self->cell_editor, "notify::selected", G_CALLBACK (cell_group_end), self);
  g_signal_connect_swapped (self->cell_editor, "notify::selected", G_CALLBACK (update_cell_label), self);
  for (guint i = 0; i < 4; i++)
    {
      static const char *const names[4] = { N_("Cell x"), N_("Cell y"), N_("Cell width"), N_("Cell height") };
      static const char *const tips[4] = {
        N_("Left edge of the selected cell, in texels from the texture’s left"),
        N_("Top edge of the selected cell, in texels from the texture’s top"),
        N_("Width of the selected cell, in texels"),
        N_("Height of the selected cell, in texels"),
      };
      GtkEventController *focus = gtk_event_controller_focus_new ();

      gtk_accessible_update_property (GTK_ACCESSIBLE (self->cell_spins[i]),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _(names[i]), -1);
      mat_tooltip_set_text (GTK_WIDGET (self->cell_spins[i]), _(tips[i]));
      g_signal_connect (self->cell_spins[i], "value-changed", G_CALLBACK (cell_spin_changed_cb), self);
      /* Enter: after the spin button took the typed value */
      for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->cell_spins[i])); c != NULL;
           c = gtk_widget_get_next_sibling (c))
        if (GTK_IS_TEXT (c))
          g_signal_connect_object (c, "activate", G_CALLBACK (cell_spin_done_cb), self,
                                   G_CONNECT_SWAPPED | G_CONNECT_AFTER);
      g_signal_connect_swapped (focus, "leave", G_CALLBACK (cell_spin_done_cb), self);
      gtk_widget_add_controller (GTK_WIDGET (self->cell_spins[i]), focus);
    }
  {
    /* Delete in the list deletes the texture (in the cell editor, the cell) */
    GtkEventController *keys = gtk_shortcut_controller_new ();

    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Delete, 0),
                                                            gtk_named_action_new ("textures.delete")));
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_KP_Delete, 0),
                                                            gtk_named_action_new ("textures.delete")));
    gtk_widget_add_controller (GTK_WIDGET (self->list_view), keys);
  }
  /* an icon alone: its name says what it holds */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->texture_menu_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Rename or Delete the Texture"), -1);
  mat_tooltip_set_text (self->texture_menu_button,
                        _("Rename this texture (F2) or delete it (Delete in the list); both say first which materials use it"));
  g_signal_connect_swapped (self->cell_editor, "error", G_CALLBACK (cell_error_cb), self);

  self->textures_signals = g_signal_group_new (MAT_TYPE_TEXTURE_LIBRARY);
  g_signal_group_connect_swapped (self->textures_signals, "notify::dirty",
                                  G_CALLBACK (library_state_cb), self);
  g_signal_group_connect_swapped (self->textures_signals, "notify::file",
                                  G_CALLBACK (library_state_cb), self);
  self->material_signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_swapped (self->material_signals, "notify::attr1",
                                  G_CALLBACK (update_alpha_note), self);
  self->history_signals = g_signal_group_new (MAT_TYPE_HISTORY);
  g_signal_group_connect_swapped (self->history_signals, "changed",
                                  G_CALLBACK (library_state_cb), self);

  gtk_stack_set_visible_child_name (self->main_stack, "none");
  update_none_label (self);
  update_count (self);
  update_details (self);
  update_title (self);
  update_actions (self);
}

MatMaterial *
mat_texture_window_get_material (MatTextureWindow *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_WINDOW (self), NULL);

  return self->material;
}

void
mat_texture_window_set_material (MatTextureWindow *self,
                                 MatMaterial      *material)
{
  g_return_if_fail (MAT_IS_TEXTURE_WINDOW (self));
  g_return_if_fail (material == NULL || MAT_IS_MATERIAL (material));

  if (!g_set_object (&self->material, material))
    return;
  g_signal_group_set_target (self->material_signals, material);
  update_alpha_note (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATERIAL]);
}

gboolean
mat_texture_window_get_emboss_bump (MatTextureWindow *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_WINDOW (self), FALSE);

  return self->emboss_bump;
}

void
mat_texture_window_set_emboss_bump (MatTextureWindow *self,
                                    gboolean          emboss_bump)
{
  g_return_if_fail (MAT_IS_TEXTURE_WINDOW (self));

  emboss_bump = !!emboss_bump;
  if (self->emboss_bump == emboss_bump)
    return;
  self->emboss_bump = emboss_bump;
  update_alpha_note (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMBOSS_BUMP]);
}

MatTextureWindow *
mat_texture_window_present (GtkWindow *parent,
                            GObject   *owner,
                            GFile     *library_file)
{
  MatTextureWindow *self = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (owner == NULL || G_IS_OBJECT (owner), NULL);

  for (guint i = 0; self == NULL && i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (MAT_IS_TEXTURE_WINDOW (window) &&
          gtk_window_get_transient_for (GTK_WINDOW (window)) == parent)
        self = MAT_TEXTURE_WINDOW (window);
    }

  if (self == NULL)
    {
      self = g_object_new (MAT_TYPE_TEXTURE_WINDOW,
                           "transient-for", parent,
                           "destroy-with-parent", TRUE,
                           NULL);
      if (parent != NULL && gtk_window_get_application (parent) != NULL)
        gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
      if (parent != NULL)
        g_signal_connect_object (parent, "close-request", G_CALLBACK (parent_close_request_cb),
                                 self, G_CONNECT_SWAPPED);
      if (owner != NULL)
        {
          self->owner_binding = g_object_bind_property (owner, "textures", self, "textures",
                                                        G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
          /* the binding goes with whichever of the two goes first */
          g_object_add_weak_pointer (G_OBJECT (self->owner_binding), (gpointer *) &self->owner_binding);
          /* the material being edited, and whether the game draws lit
           * skins' alpha: the notes of what the game ignores */
          if (g_object_class_find_property (G_OBJECT_GET_CLASS (owner), "material") != NULL)
            g_object_bind_property (owner, "material", self, "material", G_BINDING_SYNC_CREATE);
          if (g_object_class_find_property (G_OBJECT_GET_CLASS (owner), "emboss-bump") != NULL)
            g_object_bind_property (owner, "emboss-bump", self, "emboss-bump", G_BINDING_SYNC_CREATE);
        }
    }
  mat_texture_window_set_library_file (self, library_file);
  update_users (self);
  gtk_window_present (GTK_WINDOW (self));
  return self;
}
