/* mat-window.c - a window showing one material library */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat0-validate.h"
#include "nres.h"

#include "mat-flags-inspector.h"
#include "mat-material-row.h"
#include "mat-meta-editor.h"
#include "mat-name-dialog.h"
#include "mat-block-editor.h"
#include "mat-compare-view.h"
#include "mat-document.h"
#include "mat-phase-table.h"
#include "mat-preview.h"
#include "mat-texture-library.h"
#include "mat-timeline.h"
#include "mat-unsaved-dialog.h"
#include "mat-search-model.h"
#include "mat-window.h"

#define DIAGNOSTICS_DELAY_MS 250

typedef enum {
  SORT_INDEX,
  SORT_NAME,
  SORT_PHASES,
} SortOrder;

static const char * const sort_keys[] = { "index", "name", "phases" };

struct _MatWindow
{
  GtkApplicationWindow  parent_instance;

  /* template */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkButton            *undo_button;
  GtkButton            *redo_button;
  GtkToggleButton      *lint_toggle;
  GtkImage             *lint_toggle_icon;
  GtkLabel             *lint_toggle_label;
  GtkRevealer          *changed_revealer;
  GtkLabel             *changed_label;
  GtkPaned             *paned;
  GtkWidget            *sidebar;
  GtkSearchEntry       *search_entry;
  GtkLabel             *fallback_label;
  GtkDropDown          *sort_dropdown;
  GtkStack             *list_stack;
  GtkListView          *list_view;
  GtkLabel             *count_label;
  GtkStack             *main_stack;
  GtkSpinner           *spinner;
  GtkLabel             *empty_title;
  GtkLabel             *empty_body;
  GtkLabel             *library_error_title;
  GtkLabel             *library_error_label;
  GtkLabel             *entry_error_title;
  GtkLabel             *entry_error_label;
  GtkLabel             *read_only_title;
  GtkLabel             *read_only_label;
  GtkLabel             *material_name_label;
  GtkLabel             *material_info_label;
  GtkStack             *material_stack;
  MatPhaseTable        *phase_table;
  GtkWidget            *animation_page;
  GtkWidget            *flags_page;
  GtkPaned             *preview_paned;
  GtkWidget            *preview_pane;
  GtkToggleButton      *preview_toggle;
  MatPreview           *preview;
  GtkRevealer          *lint_revealer;
  GtkLabel             *lint_summary_label;
  GtkStack             *lint_stack;
  GtkListView          *lint_list;
  GMenu                *file_section;

  /* the pages made the first time they are shown (%NULL until then) */
  MatBlockEditor       *block_editor;
  MatFlagsInspector    *flags_inspector;
  MatMetaEditor        *meta_editor;

  /* the preview pane: the phase table's focus shows its phase there */
  GtkEventController   *phase_focus;
  gboolean              preview_visible;
  gboolean              showing_phase;   /* the phase table's phase */
  int                   track_block;     /* the block to play otherwise */

  /* the list */
  gboolean              filtering;      /* inside mat_search_model_set_text () */
  guint                 show_source;    /* idle: show the selected material */
  GdkFrameClock        *show_clock;     /* ... after its next frame (a ref) */
  gulong                show_paint_handler;
  MatSearchModel       *filter_model;
  GPtrArray            *spare_rows;     /* MatMaterialRow, for the list */
  GtkSortListModel     *sort_model;
  GtkSingleSelection   *selection;

  /* the problems panel */
  GtkStringList        *lint_strings;
  GPtrArray            *lint_diags;     /* Mat0Diagnostic, a ref of the library's */
  guint                 n_lints;
  guint                 n_errors;
  guint                 diagnostics_source;

  /* the document: the window only shows it */
  MatDocument          *document;
  GFile                *file;           /* shown, or being loaded */
  MatLibrary           *library;        /* the document's, while shown */
  char                 *load_error;
  char                 *reselect_name;
  GCancellable         *cancellable;    /* the running load */
  MatDocument          *loading_document;
  GSignalGroup         *document_signals;
  GSignalGroup         *library_signals;
  GSignalGroup         *history_signals;
  GSignalGroup         *material_signals;
  MatMaterial          *shown;
  MatUnsavedDialog     *unsaved_dialog;

  guint                 is_demo : 1;
  guint                 loading_demo : 1;
  guint                 loading : 1;
  guint                 saving : 1;
  guint                 close_confirmed : 1;
  guint                 links_noted : 1;
  guint                 app_applied : 1;
};

G_DEFINE_FINAL_TYPE (MatWindow, mat_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_PREVIEW_VISIBLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void update_actions (MatWindow *self);
static void pages_set_material (MatWindow *self, MatMaterial *material);

/* Utilities */

static GSettings *
get_settings (MatWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (!MAT_IS_APPLICATION (app))
    return NULL;

  return mat_application_get_settings (MAT_APPLICATION (app));
}

static char *
file_display_name (GFile *file)
{
  g_autoptr(GFileInfo) info = NULL;

  if (file == NULL)
    return g_strdup (_("Untitled"));

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_DISPLAY_NAME,
                            G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info != NULL)
    return g_strdup (g_file_info_get_display_name (info));

  return g_file_get_basename (file);
}

static char *
folder_display_name (GFile *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  g_autofree char *relative = NULL;

  if (parent == NULL)
    return NULL;
  if (g_file_equal (parent, home))
    return g_strdup ("~");
  relative = g_file_get_relative_path (home, parent);
  if (relative != NULL)
    return g_build_filename ("~", relative, NULL);

  return g_file_get_parse_name (parent);
}

static MatMaterial *
selected_material (MatWindow *self)
{
  gpointer item = gtk_single_selection_get_selected_item (self->selection);

  return item != NULL ? MAT_MATERIAL (item) : NULL;
}

/* Messages */

#if !GTK_CHECK_VERSION (4, 10, 0)
static void
message_dialog_response_cb (GtkDialog *dialog,
                            int        response,
                            gpointer   user_data)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
}
#endif

static void
show_message (GtkWindow      *parent,
              GtkMessageType  type,
              const char     *heading,
              const char     *body)
{
#if GTK_CHECK_VERSION (4, 10, 0)
  g_autoptr(GtkAlertDialog) dialog = gtk_alert_dialog_new ("%s", heading);

  gtk_alert_dialog_set_detail (dialog, body);
  gtk_alert_dialog_show (dialog, parent);
#else
  GtkWidget *dialog;

  dialog = gtk_message_dialog_new (parent,
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   type, GTK_BUTTONS_CLOSE, "%s", heading);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", body);
  g_signal_connect (dialog, "response", G_CALLBACK (message_dialog_response_cb), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
#endif
}

static void
show_error (MatWindow  *self,
            const char *heading,
            const char *body)
{
  show_message (GTK_WINDOW (self), GTK_MESSAGE_ERROR, heading, body);
}

/* Title, counts, problems */

static void
update_title (MatWindow *self)
{
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  gboolean dirty = self->library != NULL && mat_library_get_dirty (self->library);
  GFile *file = self->file;

  if (file == NULL)
    {
      gtk_label_set_label (self->title_label, _("Parkan Material Editor"));
      gtk_label_set_label (self->subtitle_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      gtk_window_set_title (GTK_WINDOW (self), _("Parkan Material Editor"));
      return;
    }

  name = file_display_name (file);
  /* Translators: the window title of a library with unsaved changes */
  title = dirty ? g_strdup_printf (_("%s •"), name) : g_strdup (name);
  subtitle = folder_display_name (file);
  if (self->is_demo)
    {
      g_autofree char *folder = g_steal_pointer (&subtitle);

      /* Translators: the subtitle of the demo library; %s is its folder */
      subtitle = g_strdup_printf (_("Demo library in %s"), folder != NULL ? folder : "/");
    }

  gtk_label_set_label (self->title_label, title);
  gtk_label_set_label (self->subtitle_label, subtitle != NULL ? subtitle : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), subtitle != NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), g_file_peek_path (file));
  gtk_window_set_title (GTK_WINDOW (self), title);
}

/* "4 lints", "1 error, 4 lints". Returns: (transfer full). */
static char *
dup_problems_text (MatWindow *self)
{
  g_autofree char *errors = NULL;
  g_autofree char *lints = NULL;

  lints = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u lint", "%u lints", self->n_lints),
                           self->n_lints);
  if (self->n_errors == 0)
    return g_steal_pointer (&lints);

  errors = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u error", "%u errors", self->n_errors),
                            self->n_errors);
  if (self->n_lints == 0)
    return g_steal_pointer (&errors);

  /* Translators: a list of two counts, "1 error, 4 lints" */
  return g_strdup_printf (_("%s, %s"), errors, lints);
}

static void
update_counts (MatWindow *self)
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

  problems = dup_problems_text (self);

  /* Translators: the status line: "24 materials, 4 lints" */
  text = g_strdup_printf (_("%s, %s"), materials, problems);
  gtk_label_set_label (self->count_label, text);

  gtk_stack_set_visible_child_name (self->list_stack,
                                    shown == 0 && mat_search_model_get_text (self->filter_model) != NULL
                                    ? "no-results" : "list");
}

static void
refresh_diagnostics (MatWindow *self)
{
  GPtrArray *diags = NULL;
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->lint_strings));
  g_autofree char *summary = NULL;
  g_autofree char *count = NULL;

  g_clear_handle_id (&self->diagnostics_source, g_source_remove);

  if (self->library != NULL)
    diags = mat_library_get_diagnostics (self->library);

  g_clear_pointer (&self->lint_diags, g_ptr_array_unref);
  self->n_lints = self->n_errors = 0;
  if (diags != NULL)
    {
      self->lint_diags = g_ptr_array_ref (diags);
      for (guint i = 0; i < diags->len; i++)
        {
          Mat0Diagnostic *diag = g_ptr_array_index (diags, i);

          if (diag->severity == MAT0_SEVERITY_ERROR)
            self->n_errors++;
          else
            self->n_lints++;
          g_ptr_array_add (strings, g_strdup (diag->message));
        }
    }
  g_ptr_array_add (strings, NULL);
  gtk_string_list_splice (self->lint_strings, 0, n_old, (const char * const *) strings->pdata);

  count = g_strdup_printf ("%u", self->n_lints + self->n_errors);
  gtk_label_set_label (self->lint_toggle_label, count);
  gtk_image_set_from_icon_name (self->lint_toggle_icon,
                                self->n_errors > 0 ? "dialog-error-symbolic"
                                : self->n_lints > 0 ? "dialog-warning-symbolic"
                                : "object-select-symbolic");
  if (self->n_errors + self->n_lints > 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->lint_toggle), "has-problems");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->lint_toggle), "has-problems");

  summary = dup_problems_text (self);
  gtk_label_set_label (self->lint_summary_label, summary);
  gtk_stack_set_visible_child_name (self->lint_stack,
                                    self->n_lints + self->n_errors > 0 ? "list" : "none");
  update_counts (self);
}

static gboolean
diagnostics_timeout_cb (gpointer user_data)
{
  MatWindow *self = user_data;

  self->diagnostics_source = 0;
  refresh_diagnostics (self);

  return G_SOURCE_REMOVE;
}

static void
schedule_diagnostics (MatWindow *self)
{
  g_clear_handle_id (&self->diagnostics_source, g_source_remove);
  self->diagnostics_source = g_timeout_add (DIAGNOSTICS_DELAY_MS, diagnostics_timeout_cb, self);
}

/* The material shown */

static void
update_material_header (MatWindow *self)
{
  MatMaterial *material = self->shown;
  g_autofree char *phases = NULL;
  g_autofree char *blocks = NULL;
  g_autofree char *info = NULL;
  guint n_phases, n_blocks;

  if (material == NULL || !mat_material_get_editable (material))
    return;

  n_phases = mat_material_get_n_phases (material);
  n_blocks = mat_material_get_n_blocks (material);
  phases = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u phase", "%u phases", n_phases), n_phases);
  blocks = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u animation block",
                                         "%u animation blocks", n_blocks), n_blocks);
  /* Translators: under the material name: entry index, payload version
   * (attr2), phase and block counts */
  info = g_strdup_printf (_("Entry %d · version %u · %s · %s"),
                          mat_library_index_of (self->library, material),
                          mat_material_get_attr2 (material), phases, blocks);

  gtk_label_set_label (self->material_name_label, mat_material_get_name (material));
  gtk_label_set_label (self->material_info_label, info);
}

static void
set_pages_material (MatWindow   *self,
                    MatMaterial *material)
{
  mat_phase_table_set_material (self->phase_table, material);
  pages_set_material (self, material);
}

static void
show_material (MatWindow   *self,
               MatMaterial *material)
{
  g_set_object (&self->shown, material);
  g_signal_group_set_target (self->material_signals, material);

  if (self->library == NULL)
    {
      set_pages_material (self, NULL);
      return;
    }

  if (material == NULL)
    {
      guint total = g_list_model_get_n_items (G_LIST_MODEL (self->library));

      set_pages_material (self, NULL);
      if (total == 0)
        {
          gtk_label_set_label (self->empty_title, _("No Materials"));
          gtk_label_set_label (self->empty_body, _("This library is empty. Add a material with the + button below the list."));
        }
      else
        {
          gtk_label_set_label (self->empty_title, _("No Material Selected"));
          gtk_label_set_label (self->empty_body, _("Choose a material in the list, or open a library with Ctrl+O or by dropping its file here."));
        }
      gtk_stack_set_visible_child_name (self->main_stack, "empty");
    }
  else if (mat_material_get_type_id (material) != NRES_TYPE_MAT0)
    {
      g_autofree char *type = mat_material_row_dup_type_name (mat_material_get_type_id (material));
      g_autofree char *title = NULL;
      g_autofree char *body = NULL;

      set_pages_material (self, NULL);
      /* Translators: the title for an entry that is not a material; %s is its name */
      title = g_strdup_printf (_("“%s” Is Not a Material"), mat_material_get_name (material));
      /* Translators: %s is a four-letter entry type such as Texm */
      body = g_strdup_printf (_("It is an entry of type %s (0x%08X). The editor keeps it byte for byte and does not change it."),
                              type, mat_material_get_type_id (material));
      gtk_label_set_label (self->read_only_title, title);
      gtk_label_set_label (self->read_only_label, body);
      gtk_stack_set_visible_child_name (self->main_stack, "read-only");
    }
  else if (mat_material_get_error (material) != NULL)
    {
      g_autofree char *title = NULL;

      set_pages_material (self, NULL);
      /* Translators: %s is a material name */
      title = g_strdup_printf (_("“%s” Does Not Decode"), mat_material_get_name (material));
      gtk_label_set_label (self->entry_error_title, title);
      gtk_label_set_label (self->entry_error_label, mat_material_get_error (material));
      gtk_stack_set_visible_child_name (self->main_stack, "entry-error");
    }
  else
    {
      set_pages_material (self, material);
      update_material_header (self);
      gtk_stack_set_visible_child_name (self->main_stack, "material");
    }

  update_actions (self);
}

static gboolean
show_selected_idle (gpointer data)
{
  MatWindow *self = data;
  MatMaterial *material;

  self->show_source = 0;
  /* the window may have been disposed since (the idle holds a reference) */
  if (self->selection == NULL)
    return G_SOURCE_REMOVE;
  material = selected_material (self);
  if (material != self->shown)
    show_material (self, material);
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
  MatMaterial *material = selected_material (self);

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
  if (material != self->shown)
    show_material (self, material);
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

static void
update_fallback (MatWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *label = NULL;
  MatMaterial *material;
  const char *how = NULL;

  if (text[0] == '\0' || self->library == NULL)
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
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->fallback_label),
                               _("How the game resolves a material name: an exact match ignoring case, else the entry DEFAULT, else the first entry. Press Enter to select it when nothing matches."));
  gtk_widget_set_visible (GTK_WIDGET (self->fallback_label), TRUE);
}

static void
search_changed_cb (MatWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  self->filtering = TRUE;
  mat_search_model_set_text (self->filter_model, text);
  self->filtering = FALSE;

  update_fallback (self);
  update_counts (self);
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
      gtk_single_selection_set_selected (self->selection, 0);
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

/* In file order the list shows the filter model itself: a sort model
 * without a sorter would still pass every filter change through a walk
 * over all the rows (65,536 in a large library). */
static void
use_sort_model (MatWindow *self,
                gboolean   sorted)
{
  GListModel *rows = sorted ? G_LIST_MODEL (self->sort_model) : G_LIST_MODEL (self->filter_model);
  g_autoptr(MatMaterial) keep = NULL;

  if (gtk_single_selection_get_model (self->selection) == rows)
    return;

  keep = self->shown != NULL ? g_object_ref (self->shown) : NULL;
  gtk_sort_list_model_set_model (self->sort_model, sorted ? G_LIST_MODEL (self->filter_model) : NULL);
  gtk_single_selection_set_model (self->selection, rows);
  if (keep != NULL)
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
  guint order = gtk_drop_down_get_selected (self->sort_dropdown);
  GSettings *settings = get_settings (self);

  if (order >= G_N_ELEMENTS (sort_keys))
    order = SORT_INDEX;
  apply_sort (self, (SortOrder) order);
  if (settings != NULL)
    g_settings_set_string (settings, "sort-order", sort_keys[order]);
}

/* Problems panel */

static void
lint_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *entry = gtk_label_new (NULL);
  GtkWidget *message = gtk_label_new (NULL);

  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (entry), 0);
  gtk_label_set_yalign (GTK_LABEL (entry), 0);
  gtk_label_set_width_chars (GTK_LABEL (entry), 18);
  gtk_label_set_max_width_chars (GTK_LABEL (entry), 18);
  gtk_label_set_ellipsize (GTK_LABEL (entry), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (entry, "heading");
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (message), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (message, TRUE);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), message);
  gtk_list_item_set_child (item, box);
}

static void
lint_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  MatWindow *self = user_data;
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *icon = gtk_widget_get_first_child (box);
  GtkWidget *entry = gtk_widget_get_next_sibling (icon);
  GtkWidget *message = gtk_widget_get_next_sibling (entry);
  guint position = gtk_list_item_get_position (item);
  Mat0Diagnostic *diag;
  const char *text_after;

  if (self->lint_diags == NULL || position >= self->lint_diags->len)
    return;

  diag = g_ptr_array_index (self->lint_diags, position);
  gtk_image_set_from_icon_name (GTK_IMAGE (icon),
                                diag->severity == MAT0_SEVERITY_ERROR ? "dialog-error-symbolic"
                                : "dialog-warning-symbolic");
  gtk_widget_set_css_classes (icon, (const char *[]) {
                                diag->severity == MAT0_SEVERITY_ERROR ? "error" : "warning", NULL
                              });
  gtk_label_set_label (GTK_LABEL (entry), diag->entry_name);

  /* The message starts with the entry name; show the rest under it. */
  text_after = diag->message;
  if (g_str_has_prefix (text_after, diag->entry_name) &&
      g_str_has_prefix (text_after + strlen (diag->entry_name), ": "))
    text_after += strlen (diag->entry_name) + 2;
  gtk_label_set_label (GTK_LABEL (message), text_after);
  gtk_widget_set_tooltip_text (box, diag->message);
}

static void
lint_activate_cb (MatWindow *self,
                  guint      position)
{
  Mat0Diagnostic *diag;
  MatMaterial *material;

  if (self->library == NULL || self->lint_diags == NULL || position >= self->lint_diags->len)
    return;

  diag = g_ptr_array_index (self->lint_diags, position);
  if (diag->entry < 0)
    return;

  /* Diagnostics index the entries as a save would write them: the
   * library's order. */
  material = mat_library_get_material (self->library, (guint) diag->entry);
  if (material != NULL)
    mat_window_select_material (self, material);
}

/* Model following */

static void
update_undo (MatWindow *self)
{
  MatHistory *history = self->library != NULL ? mat_library_get_history (self->library) : NULL;
  g_autofree char *undo_tip = NULL;
  g_autofree char *redo_tip = NULL;

  if (history != NULL && mat_history_get_undo_label (history) != NULL)
    /* Translators: tooltip of the undo button; %s names the step, e.g. “Rename” */
    undo_tip = g_strdup_printf (_("Undo “%s”"), mat_history_get_undo_label (history));
  if (history != NULL && mat_history_get_redo_label (history) != NULL)
    /* Translators: tooltip of the redo button; %s names the step */
    redo_tip = g_strdup_printf (_("Redo “%s”"), mat_history_get_redo_label (history));

  gtk_widget_set_tooltip_text (GTK_WIDGET (self->undo_button), undo_tip != NULL ? undo_tip : _("Undo"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->redo_button), redo_tip != NULL ? redo_tip : _("Redo"));
  update_actions (self);
}

static void
history_changed_cb (MatWindow *self)
{
  /* Names and phase counts may have changed under the filter and sorter. */
  if (mat_search_model_get_text (self->filter_model) != NULL)
    mat_search_model_refilter (self->filter_model);
  if (gtk_sort_list_model_get_sorter (self->sort_model) != NULL)
    gtk_sorter_changed (gtk_sort_list_model_get_sorter (self->sort_model), GTK_SORTER_CHANGE_DIFFERENT);

  update_fallback (self);
  update_counts (self);
  schedule_diagnostics (self);
}

static void
material_changed_cb (MatWindow *self)
{
  if (self->shown != NULL && gtk_stack_get_visible_child_name (self->main_stack) != NULL &&
      g_str_equal (gtk_stack_get_visible_child_name (self->main_stack), "material"))
    update_material_header (self);
  update_actions (self);
}

/* The banner: what the document's monitor saw of the file. */
static void
disk_state_changed_cb (MatWindow *self)
{
  MatDiskState state = self->document != NULL ? mat_document_get_disk_state (self->document)
                                              : MAT_DISK_STATE_SAME;

  if (self->library == NULL || state == MAT_DISK_STATE_SAME)
    {
      gtk_revealer_set_reveal_child (self->changed_revealer, FALSE);
      return;
    }

  if (state == MAT_DISK_STATE_DELETED)
    {
      gtk_label_set_label (self->changed_label,
                           _("The file was deleted or moved on disk. Save to write it again."));
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reload", FALSE);
    }
  else
    {
      gtk_label_set_label (self->changed_label,
                           mat_library_get_dirty (self->library)
                           ? _("The file changed on disk. Reloading it discards your unsaved changes.")
                           : _("The file changed on disk."));
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reload", TRUE);
    }
  gtk_revealer_set_reveal_child (self->changed_revealer, TRUE);
}

static void
document_file_changed_cb (MatWindow *self)
{
  GFile *file = self->document != NULL ? mat_document_get_file (self->document) : NULL;

  if (file == NULL || self->loading)
    return;
  g_set_object (&self->file, file);
  update_title (self);
}

static void
timeline_scrubbed_cb (MatWindow *self,
                      guint      position)
{
  mat_preview_set_playing (self->preview, FALSE);
  mat_preview_set_time (self->preview, position);
}

/* Textures: the Textures.lib the document found beside the library; the
 * phase table and the preview show what it has. */
static void
document_textures_changed_cb (MatWindow *self)
{
  /* the preview follows the table (a library chosen in the picker too) */
  mat_phase_table_set_textures (self->phase_table,
                                self->document != NULL ? mat_document_get_textures (self->document)
                                                       : NULL);
}

static void
set_library (MatWindow  *self,
             MatLibrary *library)
{
  MatHistory *history = library != NULL ? mat_library_get_history (library) : NULL;

  show_material (self, NULL);
  g_set_object (&self->library, library);
  g_signal_group_set_target (self->library_signals, library);
  g_signal_group_set_target (self->history_signals, history);
  mat_search_model_set_library (self->filter_model, library);

  update_title (self);
  update_undo (self);
  update_fallback (self);
  refresh_diagnostics (self);
  disk_state_changed_cb (self);
  document_textures_changed_cb (self);

  if (library != NULL)
    {
      MatMaterial *reselect = NULL;

      if (self->reselect_name != NULL)
        reselect = mat_library_find (library, self->reselect_name);
      g_clear_pointer (&self->reselect_name, g_free);
      if (reselect != NULL)
        mat_window_select_material (self, reselect);
      selection_changed_cb (self);
    }
  update_actions (self);
}

/* Loading */

static void
set_document (MatWindow   *self,
              MatDocument *document)
{
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  if (document != NULL && mat_document_get_file (document) != NULL)
    g_set_object (&self->file, mat_document_get_file (document));
  set_library (self, document != NULL ? mat_document_get_library (document) : NULL);
}

/* Another window of the application to show a message on, or %NULL. */
static GtkWindow *
other_window (MatWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (app == NULL)
    return NULL;
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (MAT_IS_WINDOW (l->data) && l->data != (gpointer) self &&
        mat_window_get_library (MAT_WINDOW (l->data)) != NULL)
      return GTK_WINDOW (l->data);

  return NULL;
}

static void
load_failed (MatWindow  *self,
             GFile      *file,
             GError     *error)
{
  g_autofree char *name = file_display_name (file);
  g_autofree char *title = NULL;
  g_autofree char *body = NULL;
  const char *newline = strchr (error->message, '\n');
  GtkWindow *other;

  /* Translators: %s is a file name */
  title = g_strdup_printf (_("Could Not Open “%s”"), name);
  /* First what is wrong in plain words, then the exact detail. */
  if (newline != NULL)
    body = g_strdup_printf ("%.*s\n\n%s", (int) (newline - error->message), error->message,
                            newline + 1);
  else
    body = g_strdup (error->message);

  if (self->document != NULL && mat_document_get_library (self->document) != NULL)
    {
      /* The window keeps what it showed; the message says why. */
      set_document (self, self->document);
      update_title (self);
      update_actions (self);
      show_error (self, title, body);
      return;
    }

  other = other_window (self);
  if (other != NULL)
    {
      /* A window opened for this file alone: no empty window stays. */
      show_message (other, GTK_MESSAGE_ERROR, title, body);
      self->close_confirmed = TRUE;
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }

  g_free (self->load_error);
  self->load_error = g_steal_pointer (&body);
  gtk_label_set_label (self->library_error_title, title);
  gtk_label_set_label (self->library_error_label, self->load_error);
  gtk_stack_set_visible_child_name (self->main_stack, "library-error");
  update_title (self);
  update_actions (self);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(MatWindow) self = user_data;
  MatDocument *document = MAT_DOCUMENT (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  GtkApplication *app;

  if (!mat_document_load_finish (document, result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (document != self->loading_document)
    return;

  file = g_object_ref (self->file);
  g_clear_object (&self->loading_document);
  self->loading = FALSE;
  gtk_spinner_stop (self->spinner);

  if (error != NULL)
    {
      /* Back to what the window showed before, if anything. */
      if (self->document != NULL && mat_document_get_file (self->document) != NULL)
        g_set_object (&self->file, mat_document_get_file (self->document));
      load_failed (self, file, error);
      return;
    }

  self->is_demo = self->loading_demo;
  self->links_noted = FALSE;
  set_document (self, document);

  app = gtk_window_get_application (GTK_WINDOW (self));
  if (MAT_IS_APPLICATION (app) && !self->is_demo)
    mat_application_add_recent (MAT_APPLICATION (app), self->file);
}

void
mat_window_open (MatWindow *self,
                 GFile     *file,
                 gboolean   is_demo)
{
  g_autoptr(MatDocument) document = NULL;

  g_return_if_fail (MAT_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  cancel_show_after_paint (self);
  g_clear_handle_id (&self->show_source, g_source_remove);
  self->cancellable = g_cancellable_new ();

  /* The document shown stays until the new one has loaded: a file that
   * does not open leaves it as it was. */
  g_set_object (&self->file, file);
  self->loading_demo = is_demo;
  g_clear_pointer (&self->load_error, g_free);
  set_library (self, NULL);

  self->loading = TRUE;
  gtk_spinner_start (self->spinner);
  gtk_stack_set_visible_child_name (self->main_stack, "loading");
  update_title (self);
  update_actions (self);

  document = mat_document_new ();
  g_set_object (&self->loading_document, document);
  mat_document_load_async (document, file, self->cancellable, load_cb, g_object_ref (self));
}

/* Saving */

typedef struct {
  MatWindow *self;
  GFile     *file;       /* the target; %NULL: the library's own */
  gboolean   close_after;
} SaveOp;

static void
save_op_free (SaveOp *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->file);
  g_free (op);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SaveOp, save_op_free)

static void save_library (MatWindow *self, GFile *file, MatSaveFlags flags, gboolean close_after);

static void
reload (MatWindow *self)
{
  MatMaterial *material = selected_material (self);
  GFile *file = self->document != NULL ? mat_document_get_file (self->document) : self->file;
  g_autoptr(GFile) target = file != NULL ? g_object_ref (file) : NULL;

  if (target == NULL)
    return;
  g_free (self->reselect_name);
  self->reselect_name = material != NULL ? g_strdup (mat_material_get_name (material)) : NULL;
  self->close_confirmed = FALSE;
  mat_window_open (self, target, self->is_demo);
}

static gboolean
make_backup (MatWindow *self)
{
  GSettings *settings = get_settings (self);

  return settings != NULL && g_settings_get_boolean (settings, "make-backup");
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
etag_choice_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SaveOp) op = user_data;
  int choice = gtk_alert_dialog_choose_finish (GTK_ALERT_DIALOG (object), result, NULL);

  if (op->self->library == NULL)
    return;
  if (choice == 1)
    reload (op->self);
  else if (choice == 2)
    save_library (op->self, NULL, MAT_SAVE_IGNORE_CHANGES, op->close_after);
}
#else
enum {
  ETAG_RESPONSE_RELOAD = 1,
  ETAG_RESPONSE_OVERWRITE = 2,
};

static void
etag_response_cb (GtkDialog *dialog,
                  int        response,
                  gpointer   user_data)
{
  g_autoptr(SaveOp) op = user_data;

  gtk_window_destroy (GTK_WINDOW (dialog));
  if (op->self->library == NULL)
    return;
  if (response == ETAG_RESPONSE_RELOAD)
    reload (op->self);
  else if (response == ETAG_RESPONSE_OVERWRITE)
    /* One save that writes over the other program's version. */
    save_library (op->self, NULL, MAT_SAVE_IGNORE_CHANGES, op->close_after);
}
#endif

static void
ask_changed_on_disk (MatWindow *self,
                     gboolean   close_after)
{
  SaveOp *op = g_new0 (SaveOp, 1);
  const char *heading = _("The File Changed on Disk");
  const char *body = _("Another program changed the file since it was opened. Reload it and lose your changes, or overwrite it with your version?");

  op->self = g_object_ref (self);
  op->close_after = close_after;

#if GTK_CHECK_VERSION (4, 10, 0)
  {
    g_autoptr(GtkAlertDialog) dialog = gtk_alert_dialog_new ("%s", heading);
    const char *buttons[] = { _("_Cancel"), _("_Reload"), _("_Overwrite"), NULL };

    gtk_alert_dialog_set_detail (dialog, body);
    gtk_alert_dialog_set_buttons (dialog, buttons);
    gtk_alert_dialog_set_cancel_button (dialog, 0);
    gtk_alert_dialog_set_default_button (dialog, 0);
    gtk_alert_dialog_choose (dialog, GTK_WINDOW (self), NULL, etag_choice_cb, op);
  }
#else
  {
    GtkWidget *dialog;
    GtkWidget *button;

    dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                     GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                     GTK_MESSAGE_WARNING, GTK_BUTTONS_NONE, "%s", heading);
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", body);
    gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
    gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Reload"), ETAG_RESPONSE_RELOAD);
    button = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Overwrite"), ETAG_RESPONSE_OVERWRITE);
    gtk_widget_add_css_class (button, "destructive-action");
    gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
    g_signal_connect (dialog, "response", G_CALLBACK (etag_response_cb), op);
    gtk_window_present (GTK_WINDOW (dialog));
  }
#endif
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SaveOp) op = user_data;
  MatWindow *self = op->self;
  g_autoptr(GError) error = NULL;
  MatSaveNotes notes = MAT_SAVE_NOTE_NONE;
  gboolean ok = mat_document_save_finish (MAT_DOCUMENT (object), result, &notes, &error);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  self->saving = FALSE;
  if (MAT_DOCUMENT (object) != self->document)
    return;

  if (!ok)
    {
      /* Nothing was written: the edits, the unsaved mark and the file
       * stay, and closing still asks. */
      update_actions (self);
      update_title (self);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG))
        ask_changed_on_disk (self, op->close_after);
      else
        {
          g_autofree char *name = file_display_name (op->file != NULL ? op->file : self->file);
          g_autofree char *heading = NULL;

          /* Translators: %s is a file name */
          heading = g_strdup_printf (_("Could Not Save “%s”"), name);
          show_error (self, heading, error->message);
        }
      return;
    }

  /* A library saved elsewhere is the user's own file, not the demo. */
  if (op->file != NULL)
    {
      self->is_demo = FALSE;
      if (MAT_IS_APPLICATION (app))
        mat_application_add_recent (MAT_APPLICATION (app), op->file);
    }
  document_file_changed_cb (self);
  update_title (self);
  update_actions (self);

  if ((notes & MAT_SAVE_NOTE_LINKS_DETACHED) && !self->links_noted)
    {
      g_autofree char *name = file_display_name (self->file);
      g_autofree char *body = NULL;

      self->links_noted = TRUE;
      /* Translators: %s is a file name */
      body = g_strdup_printf (_("“%s” had other hard links. The library was saved as a file of its own; the other names keep the previous version."),
                              name);
      show_message (GTK_WINDOW (self), GTK_MESSAGE_INFO, _("Saved as a Separate File"), body);
    }

  if (op->close_after)
    {
      self->close_confirmed = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
}

static void
save_library (MatWindow    *self,
              GFile        *file,
              MatSaveFlags  flags,
              gboolean      close_after)
{
  SaveOp *op;

  if (self->document == NULL || self->library == NULL || self->saving)
    return;

  op = g_new0 (SaveOp, 1);
  op->self = g_object_ref (self);
  op->file = file != NULL ? g_object_ref (file) : NULL;
  op->close_after = close_after;

  if (make_backup (self))
    flags |= MAT_SAVE_BACKUP;
  self->saving = TRUE;
  update_actions (self);
  mat_document_save_async (self->document, file, flags, NULL, save_cb, op);
}

#if GTK_CHECK_VERSION (4, 10, 0)
typedef struct {
  MatWindow *self;
  gboolean   close_after;
} SaveAsOp;

static void
save_as_dialog_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  SaveAsOp *op = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (file != NULL)
    save_library (op->self, file, MAT_SAVE_NONE, op->close_after);
  g_object_unref (op->self);
  g_free (op);
}
#else
static void
save_as_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     gpointer         user_data)
{
  MatWindow *self = MAT_WINDOW (user_data);
  gboolean close_after = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "close-after"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        save_library (self, file, MAT_SAVE_NONE, close_after);
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}
#endif

static void
save_as (MatWindow *self,
         gboolean   close_after)
{
  GFile *current = self->library != NULL ? mat_library_get_file (self->library) : NULL;
  g_autofree char *name = current != NULL ? g_file_get_basename (current) : g_strdup ("Material.lib");
  g_autoptr(GFile) folder = NULL;

  if (self->library == NULL)
    return;
  if (current != NULL && !self->is_demo)
    folder = g_file_get_parent (current);

#if GTK_CHECK_VERSION (4, 10, 0)
  {
    g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
    SaveAsOp *op = g_new0 (SaveAsOp, 1);

    op->self = g_object_ref (self);
    op->close_after = close_after;
    gtk_file_dialog_set_title (dialog, _("Save Material Library As"));
    gtk_file_dialog_set_initial_name (dialog, name);
    if (folder != NULL)
      gtk_file_dialog_set_initial_folder (dialog, folder);
    gtk_file_dialog_save (dialog, GTK_WINDOW (self), NULL, save_as_dialog_cb, op);
  }
#else
  {
    GtkFileChooserNative *dialog;

    dialog = gtk_file_chooser_native_new (_("Save Material Library As"), GTK_WINDOW (self),
                                          GTK_FILE_CHOOSER_ACTION_SAVE,
                                          _("_Save"), _("_Cancel"));
    gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
    if (folder != NULL)
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
    g_object_set_data (G_OBJECT (dialog), "close-after", GINT_TO_POINTER (close_after));
    g_signal_connect (dialog, "response", G_CALLBACK (save_as_response_cb), g_object_ref (self));
    gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
  }
#endif
}

static void
save (MatWindow *self,
      gboolean   close_after)
{
  /* The bundled demo is not the user's file: ask where to keep it. */
  if (self->is_demo || mat_library_get_file (self->library) == NULL)
    save_as (self, close_after);
  else
    save_library (self, NULL, MAT_SAVE_NONE, close_after);
}

/* Closing */

static void
unsaved_response_cb (MatWindow *self,
                     int        response)
{
  self->unsaved_dialog = NULL;

  switch (response)
    {
    case MAT_UNSAVED_RESPONSE_SAVE:
      save (self, TRUE);
      break;
    case MAT_UNSAVED_RESPONSE_DISCARD:
      self->close_confirmed = TRUE;
      gtk_window_close (GTK_WINDOW (self));
      break;
    case MAT_UNSAVED_RESPONSE_CANCEL:
    default:
      break;
    }
}

static void
save_window_state (MatWindow *self)
{
  GSettings *settings = get_settings (self);
  int width = 0, height = 0;

  if (settings == NULL)
    return;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  if (width > 0 && height > 0 && !gtk_window_is_maximized (GTK_WINDOW (self)))
    {
      g_settings_set_int (settings, "window-width", width);
      g_settings_set_int (settings, "window-height", height);
    }
}

static gboolean
mat_window_close_request (GtkWindow *window)
{
  MatWindow *self = MAT_WINDOW (window);

  if (self->library != NULL && mat_library_get_dirty (self->library) && !self->close_confirmed)
    {
      if (self->unsaved_dialog == NULL)
        {
          g_autofree char *name = file_display_name (mat_library_get_file (self->library));

          self->unsaved_dialog = mat_unsaved_dialog_present (window, name);
          g_signal_connect_object (self->unsaved_dialog, "response",
                                   G_CALLBACK (unsaved_response_cb), self, G_CONNECT_SWAPPED);
        }
      else
        gtk_window_present (GTK_WINDOW (self->unsaved_dialog));

      return TRUE;
    }

  save_window_state (self);

  return GTK_WINDOW_CLASS (mat_window_parent_class)->close_request (window);
}

/* Actions */

static void
update_actions (MatWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  MatHistory *history = self->library != NULL ? mat_library_get_history (self->library) : NULL;
  MatMaterial *material = self->shown;
  gboolean have = self->library != NULL;
  gboolean is_mat0 = material != NULL && mat_material_get_type_id (material) == NRES_TYPE_MAT0;

  gtk_widget_action_set_enabled (widget, "win.save", have && !self->saving);
  gtk_widget_action_set_enabled (widget, "win.save-as", have && !self->saving);
  gtk_widget_action_set_enabled (widget, "win.undo", history != NULL && mat_history_get_can_undo (history));
  gtk_widget_action_set_enabled (widget, "win.redo", history != NULL && mat_history_get_can_redo (history));
  gtk_widget_action_set_enabled (widget, "win.find", have);
  gtk_widget_action_set_enabled (widget, "win.new-material", have);
  gtk_widget_action_set_enabled (widget, "win.duplicate",
                                 have && material != NULL && mat_material_get_editable (material));
  gtk_widget_action_set_enabled (widget, "win.rename", have && is_mat0);
  gtk_widget_action_set_enabled (widget, "win.compare", have);
  gtk_widget_action_set_enabled (widget, "win.delete", have && is_mat0);
  gtk_widget_action_set_enabled (widget, "win.show-lints", have);
  gtk_widget_set_visible (GTK_WIDGET (self->lint_toggle), have);
  gtk_widget_set_visible (self->sidebar, have);
  if (!have)
    gtk_toggle_button_set_active (self->lint_toggle, FALSE);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  if (self->library != NULL)
    save (self, FALSE);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  save_as (MAT_WINDOW (widget), FALSE);
}

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  if (self->library != NULL)
    mat_history_undo (mat_library_get_history (self->library));
}

static void
redo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  if (self->library != NULL)
    mat_history_redo (mat_library_get_history (self->library));
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

static void
name_dialog_done_cb (MatWindow   *self,
                     MatMaterial *material)
{
  mat_window_select_material (self, material);
}

static void
open_name_dialog (MatWindow         *self,
                  MatNameDialogMode  mode)
{
  MatNameDialog *dialog;

  if (self->library == NULL)
    return;

  dialog = mat_name_dialog_present (GTK_WINDOW (self), self->library, mode,
                                    mode == MAT_NAME_DIALOG_NEW ? NULL : self->shown);
  g_signal_connect_object (dialog, "done", G_CALLBACK (name_dialog_done_cb), self, G_CONNECT_SWAPPED);
}

static void
new_material_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  open_name_dialog (MAT_WINDOW (widget), MAT_NAME_DIALOG_NEW);
}

static void
duplicate_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  if (self->shown != NULL)
    open_name_dialog (self, MAT_NAME_DIALOG_DUPLICATE);
}

/* A window comparing two phases or blocks: of this material, of two
 * materials, or of the libraries of two windows. */
static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GtkWindow *window;
  MatCompareView *view;
  g_autofree char *title = NULL;

  if (self->library == NULL)
    return;

  view = MAT_COMPARE_VIEW (mat_compare_view_new ());
  /* this window's library first, then every other open one */
  for (int pass = 0; pass < 2; pass++)
    for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
      {
        MatWindow *other = MAT_IS_WINDOW (l->data) ? l->data : NULL;
        MatLibrary *library = other != NULL ? mat_window_get_library (other) : NULL;
        GFile *file = library != NULL ? mat_library_get_file (library) : NULL;
        g_autofree char *name = NULL;

        if (library == NULL || (pass == 0) != (other == self))
          continue;
        name = file != NULL ? g_file_get_basename (file) : g_strdup (_("Untitled"));
        mat_compare_view_add_library (view, library, name);
      }
  mat_compare_view_set_textures (view, mat_phase_table_get_textures (self->phase_table));
  if (self->shown != NULL && mat_material_get_editable (self->shown))
    mat_compare_view_set_material (view, self->shown);

  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_application (window, app);
  gtk_window_set_transient_for (window, GTK_WINDOW (self));
  gtk_window_set_destroy_with_parent (window, TRUE);
  /* Translators: the title of the comparison window; %s is a material */
  title = self->shown != NULL ? g_strdup_printf (_("Compare — %s"), mat_material_get_name (self->shown))
                              : g_strdup (_("Compare"));
  gtk_window_set_title (window, title);
  gtk_window_set_default_size (window, 1100, 760);
  gtk_window_set_child (window, GTK_WIDGET (view));
  gtk_window_present (window);
}

static void
rename_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  if (self->shown != NULL)
    open_name_dialog (self, MAT_NAME_DIALOG_RENAME);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  g_autoptr(MatMaterial) material = NULL;
  g_autoptr(GError) error = NULL;
  guint position;

  if (self->library == NULL || self->shown == NULL)
    return;

  material = g_object_ref (self->shown);
  position = gtk_single_selection_get_selected (self->selection);
  if (!mat_library_delete_material (self->library, material, &error))
    {
      /* Translators: %s is a material name */
      g_autofree char *heading = g_strdup_printf (_("Could Not Delete “%s”"),
                                                  mat_material_get_name (material));

      show_error (self, heading, error->message);
      return;
    }

  /* Keep the selection where it was: the next row, or the last one. */
  if (position != GTK_INVALID_LIST_POSITION)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

      if (n > 0)
        gtk_single_selection_set_selected (self->selection, MIN (position, n - 1));
    }
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
reload_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  reload (MAT_WINDOW (widget));
}

static void
dismiss_banner_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  gtk_revealer_set_reveal_child (MAT_WINDOW (widget)->changed_revealer, FALSE);
}

static void
show_lints_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  gtk_toggle_button_set_active (self->lint_toggle, !gtk_toggle_button_get_active (self->lint_toggle));
}

/* Drag and drop */

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         gpointer       user_data)
{
  MatWindow *self = MAT_WINDOW (user_data);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSList *files;
  gboolean first = TRUE;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST) || !MAT_IS_APPLICATION (app))
    return FALSE;

  files = gdk_file_list_get_files (g_value_get_boxed (value));
  for (GSList *l = files; l != NULL; l = l->next)
    {
      mat_application_open_file (MAT_APPLICATION (app), G_FILE (l->data),
                                 first ? GTK_WINDOW (self) : NULL);
      first = FALSE;
    }
  g_slist_free (files);

  return TRUE;
}

/* Public */

GFile *
mat_window_get_file (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), NULL);

  return self->file;
}

MatLibrary *
mat_window_get_library (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), NULL);

  return self->library;
}

const char *
mat_window_get_load_error (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), NULL);

  return self->load_error;
}

gboolean
mat_window_get_busy (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), FALSE);

  return self->loading || self->saving;
}

gboolean
mat_window_get_replaceable (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), FALSE);

  if (self->saving)
    return FALSE;
  if (self->library == NULL)
    return !self->loading || self->is_demo;

  return self->is_demo && !mat_library_get_dirty (self->library);
}

GtkSingleSelection *
mat_window_get_selection (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), NULL);

  return self->selection;
}

MatMaterial *
mat_window_get_selected_material (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), NULL);

  return selected_material (self);
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

  gtk_single_selection_set_selected (self->selection, position);
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", position);
}

/* GObject */

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

/* "application" is set after construction: the settings and the shared
 * menu are applied once it is known. */
static void
application_set_cb (MatWindow *self)
{
  GtkApplication *app;
  GSettings *settings;

  app = gtk_window_get_application (GTK_WINDOW (self));
  if (!MAT_IS_APPLICATION (app) || self->app_applied)
    return;
  self->app_applied = TRUE;

  if (MAT_IS_APPLICATION (app))
    g_menu_insert_submenu (self->file_section, 1, _("Open _Recent"),
                           mat_application_get_recent_menu (MAT_APPLICATION (app)));

  settings = get_settings (self);
  if (settings != NULL)
    {
      g_autofree char *sort = g_settings_get_string (settings, "sort-order");
      int width = g_settings_get_int (settings, "window-width");
      int height = g_settings_get_int (settings, "window-height");

      if (width > 0 && height > 0)
        gtk_window_set_default_size (GTK_WINDOW (self), width, height);
      if (g_settings_get_boolean (settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      for (guint i = 0; i < G_N_ELEMENTS (sort_keys); i++)
        if (g_strcmp0 (sort, sort_keys[i]) == 0)
          gtk_drop_down_set_selected (self->sort_dropdown, i);
      g_settings_bind (settings, "preview-visible", self, "preview-visible",
                       G_SETTINGS_BIND_DEFAULT);
    }
}

/* The preview pane
 *
 * One MatPreview beside every page (win.toggle-preview shows and hides
 * it; the setting preview-visible keeps the choice). While the phase
 * table has the keyboard focus, the pane shows the phase selected in
 * it, unanimated; otherwise the block chosen in the block editor plays. */

static void
update_preview_source (MatWindow *self)
{
  if (self->phase_focus != NULL
      && gtk_event_controller_focus_contains_focus (GTK_EVENT_CONTROLLER_FOCUS (self->phase_focus)))
    {
      guint selected = mat_phase_table_get_selected (self->phase_table);

      if (!self->showing_phase)
        self->track_block = mat_preview_get_block (self->preview);
      self->showing_phase = TRUE;
      mat_preview_set_block (self->preview, -1);
      mat_preview_set_phase (self->preview, selected != GTK_INVALID_LIST_POSITION ? selected : 0);
      return;
    }
  self->showing_phase = FALSE;
  if (self->block_editor != NULL)
    self->track_block = mat_block_editor_get_selected_block (self->block_editor);
  mat_preview_set_block (self->preview, self->track_block);
}

/* The Animation and Flags pages are made the first time they are shown,
 * so that a window opens without them. */

static void
build_animation_page (MatWindow *self)
{
  MatTimeline *timeline;

  if (self->block_editor != NULL)
    return;
  self->block_editor = MAT_BLOCK_EDITOR (mat_block_editor_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->block_editor), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->block_editor), TRUE);
  mat_block_editor_set_material (self->block_editor, mat_phase_table_get_material (self->phase_table));
  /* the block playing so far stays selected */
  if (!self->showing_phase && self->track_block >= 0)
    mat_block_editor_set_selected_block (self->block_editor, self->track_block);
  gtk_box_append (GTK_BOX (self->animation_page), GTK_WIDGET (self->block_editor));

  /* the block chosen in the editor plays in the preview, the timeline's
   * playhead follows it, and scrubbing the timeline moves the preview
   * (and pauses it) */
  timeline = mat_block_editor_get_timeline (self->block_editor);
  g_signal_connect_object (self->block_editor, "notify::selected-block",
                           G_CALLBACK (update_preview_source), self, G_CONNECT_SWAPPED);
  g_object_bind_property (self->preview, "time", timeline, "position", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (timeline, "scrubbed", G_CALLBACK (timeline_scrubbed_cb), self,
                           G_CONNECT_SWAPPED);
  update_preview_source (self);
}

static void
build_flags_page (MatWindow *self)
{
  MatMaterial *material = mat_phase_table_get_material (self->phase_table);

  if (self->flags_inspector != NULL)
    return;
  self->flags_inspector = MAT_FLAGS_INSPECTOR (mat_flags_inspector_new ());
  self->meta_editor = MAT_META_EDITOR (mat_meta_editor_new ());
  mat_flags_inspector_set_material (self->flags_inspector, material);
  mat_meta_editor_set_material (self->meta_editor, material);
  gtk_box_append (GTK_BOX (self->flags_page), GTK_WIDGET (self->flags_inspector));
  gtk_box_append (GTK_BOX (self->flags_page), GTK_WIDGET (self->meta_editor));
}

static void
material_page_shown_cb (MatWindow *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->material_stack);

  if (g_strcmp0 (name, "animation") == 0)
    build_animation_page (self);
  else if (g_strcmp0 (name, "flags") == 0)
    build_flags_page (self);
}

/* The pages and the preview show @material (the phase table already
 * does); the preview starts on the material's first block. */
static void
pages_set_material (MatWindow   *self,
                    MatMaterial *material)
{
  if (self->block_editor != NULL)
    mat_block_editor_set_material (self->block_editor, material);
  mat_preview_set_material (self->preview, material);
  self->showing_phase = FALSE;
  self->track_block = mat_preview_get_block (self->preview);
  update_preview_source (self);
  if (self->flags_inspector != NULL)
    {
      mat_flags_inspector_set_material (self->flags_inspector, material);
      mat_meta_editor_set_material (self->meta_editor, material);
    }
}

gboolean
mat_window_get_preview_visible (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), FALSE);

  return self->preview_visible;
}

void
mat_window_set_preview_visible (MatWindow *self,
                                gboolean   visible)
{
  g_return_if_fail (MAT_IS_WINDOW (self));

  visible = !!visible;
  if (self->preview_visible == visible)
    return;
  self->preview_visible = visible;
  if (self->preview_pane != NULL)
    gtk_widget_set_visible (self->preview_pane, visible);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->preview_toggle),
                               visible ? _("Hide the Preview (F9)") : _("Show the Preview (F9)"));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PREVIEW_VISIBLE]);
}

static void
preview_pane_init (MatWindow *self)
{
  g_object_bind_property (self->phase_table, "textures",
                          self->preview, "textures", G_BINDING_SYNC_CREATE);
  self->track_block = -1;

  self->phase_focus = gtk_event_controller_focus_new ();
  g_signal_connect_object (self->phase_focus, "notify::contains-focus",
                           G_CALLBACK (update_preview_source), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->phase_table), self->phase_focus);
  g_signal_connect_object (self->phase_table, "notify::selected",
                           G_CALLBACK (update_preview_source), self, G_CONNECT_SWAPPED);
  update_preview_source (self);
}

static void
mat_window_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  MatWindow *self = MAT_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PREVIEW_VISIBLE:
      g_value_set_boolean (value, mat_window_get_preview_visible (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_window_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  MatWindow *self = MAT_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PREVIEW_VISIBLE:
      mat_window_set_preview_visible (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_window_dispose (GObject *object)
{
  MatWindow *self = MAT_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->loading_document);
  g_clear_handle_id (&self->diagnostics_source, g_source_remove);

  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  if (self->library_signals != NULL)
    g_signal_group_set_target (self->library_signals, NULL);
  if (self->history_signals != NULL)
    g_signal_group_set_target (self->history_signals, NULL);
  if (self->material_signals != NULL)
    g_signal_group_set_target (self->material_signals, NULL);
  g_clear_object (&self->library_signals);
  g_clear_object (&self->history_signals);
  g_clear_object (&self->material_signals);

  cancel_show_after_paint (self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_WINDOW);
  /* went with their pages */
  self->block_editor = NULL;
  self->flags_inspector = NULL;
  self->meta_editor = NULL;

  g_clear_object (&self->selection);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter_model);
  g_clear_pointer (&self->spare_rows, g_ptr_array_unref);
  g_clear_object (&self->lint_strings);
  g_clear_pointer (&self->lint_diags, g_ptr_array_unref);
  g_clear_object (&self->shown);
  g_clear_object (&self->library);
  g_clear_object (&self->document);
  g_clear_object (&self->file);

  G_OBJECT_CLASS (mat_window_parent_class)->dispose (object);
}

static void
mat_window_finalize (GObject *object)
{
  MatWindow *self = MAT_WINDOW (object);

  g_free (self->load_error);
  g_free (self->reselect_name);

  G_OBJECT_CLASS (mat_window_parent_class)->finalize (object);
}

static void
mat_window_class_init (MatWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = mat_window_dispose;
  object_class->finalize = mat_window_finalize;
  object_class->get_property = mat_window_get_property;
  object_class->set_property = mat_window_set_property;
  window_class->close_request = mat_window_close_request;

  g_type_ensure (MAT_TYPE_PHASE_TABLE);
  g_type_ensure (MAT_TYPE_BLOCK_EDITOR);
  g_type_ensure (MAT_TYPE_PREVIEW);
  g_type_ensure (MAT_TYPE_FLAGS_INSPECTOR);
  g_type_ensure (MAT_TYPE_META_EDITOR);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-window.ui");
  gtk_widget_class_bind_template_child (widget_class, MatWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, undo_button);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, redo_button);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_toggle);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_toggle_icon);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_toggle_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, changed_revealer);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, changed_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, fallback_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, sort_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, list_stack);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, list_view);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, count_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, empty_title);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, empty_body);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, library_error_title);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, library_error_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, entry_error_title);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, entry_error_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, read_only_title);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, read_only_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, material_name_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, material_info_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, material_stack);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, phase_table);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, animation_page);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, preview_paned);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, preview_pane);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, preview_toggle);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, preview);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, flags_page);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_revealer);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_summary_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_stack);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_list);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, file_section);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);
  gtk_widget_class_bind_template_callback (widget_class, sort_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, lint_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, material_page_shown_cb);

  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, redo_action);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.new-material", NULL, new_material_action);
  gtk_widget_class_install_action (widget_class, "win.duplicate", NULL, duplicate_action);
  gtk_widget_class_install_action (widget_class, "win.rename", NULL, rename_action);
  gtk_widget_class_install_action (widget_class, "win.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "win.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.reload", NULL, reload_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-banner", NULL, dismiss_banner_action);
  gtk_widget_class_install_action (widget_class, "win.show-lints", NULL, show_lints_action);

  properties[PROP_PREVIEW_VISIBLE] =
    g_param_spec_boolean ("preview-visible", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_install_property_action (widget_class, "win.toggle-preview", "preview-visible");
}

static void
mat_window_init (MatWindow *self)
{
  GtkListItemFactory *factory;
  GtkDropTarget *drop;
  GtkSingleSelection *lint_selection;

  /* asked for by the action while the template is built */
  self->preview_visible = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));

  preview_pane_init (self);

  /* library -> filter -> sort -> selection */
  self->filter_model = mat_search_model_new (NULL);
  self->sort_model = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->filter_model)), NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sort_model)));
  gtk_single_selection_set_autoselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (selection_changed_cb), self);
  g_signal_connect_swapped (self->selection, "items-changed",
                            G_CALLBACK (update_counts), self);

  factory = gtk_signal_list_item_factory_new ();
  self->spare_rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (factory, "setup", G_CALLBACK (row_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (row_bind_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (row_unbind_cb), NULL);

  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->list_view));

  self->lint_strings = gtk_string_list_new (NULL);
  lint_selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->lint_strings)));
  gtk_single_selection_set_autoselect (lint_selection, FALSE);
  gtk_single_selection_set_can_unselect (lint_selection, TRUE);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (lint_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (lint_bind_cb), self);
  gtk_list_view_set_factory (self->lint_list, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->lint_list, GTK_SELECTION_MODEL (lint_selection));
  g_object_unref (lint_selection);

  self->document_signals = g_signal_group_new (MAT_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "notify::file",
                                  G_CALLBACK (document_file_changed_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::disk-state",
                                  G_CALLBACK (disk_state_changed_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::textures",
                                  G_CALLBACK (document_textures_changed_cb), self);

  self->library_signals = g_signal_group_new (MAT_TYPE_LIBRARY);
  g_signal_group_connect_swapped (self->library_signals, "notify::dirty",
                                  G_CALLBACK (update_title), self);
  g_signal_group_connect_swapped (self->library_signals, "notify::dirty",
                                  G_CALLBACK (disk_state_changed_cb), self);

  self->history_signals = g_signal_group_new (MAT_TYPE_HISTORY);
  g_signal_group_connect_swapped (self->history_signals, "notify::can-undo",
                                  G_CALLBACK (update_undo), self);
  g_signal_group_connect_swapped (self->history_signals, "notify::can-redo",
                                  G_CALLBACK (update_undo), self);
  g_signal_group_connect_swapped (self->history_signals, "notify::undo-label",
                                  G_CALLBACK (update_undo), self);
  g_signal_group_connect_swapped (self->history_signals, "notify::redo-label",
                                  G_CALLBACK (update_undo), self);
  g_signal_group_connect_swapped (self->history_signals, "changed",
                                  G_CALLBACK (history_changed_cb), self);

  self->material_signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_swapped (self->material_signals, "changed",
                                  G_CALLBACK (material_changed_cb), self);
  g_signal_group_connect_swapped (self->material_signals, "notify::name",
                                  G_CALLBACK (material_changed_cb), self);

  g_signal_connect (self, "notify::application", G_CALLBACK (application_set_cb), NULL);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  gtk_label_set_label (self->empty_title, _("No Library Open"));
  gtk_label_set_label (self->empty_body, _("Open a material library with Ctrl+O, or drop its file here."));
  gtk_stack_set_visible_child_name (self->main_stack, "empty");
  update_title (self);
  update_actions (self);
}

MatWindow *
mat_window_new (MatApplication *application)
{
  g_return_val_if_fail (MAT_IS_APPLICATION (application), NULL);

  return g_object_new (MAT_TYPE_WINDOW, "application", application, NULL);
}
