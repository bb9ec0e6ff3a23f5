/* mat-window.c - a window showing one material library: the template,
 * the state, opening and saving
 *
 * The actions, the material list, the problems panel and dropped files
 * live in mat-window-actions.c, mat-window-sidebar.c,
 * mat-window-problems.c and mat-window-dnd.c (mat-window-private.h).
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "nres.h"

#include "mat-dialogs.h"
#include "mat-library-name.h"
#include "mat-material-row.h"
#include "mat-revealer.h"
#include "mat-texture-library.h"
#include "mat-texture-window.h"
#include "mat-timeline.h"
#include "mat-tooltip.h"
#include "mat-window-clipboard.h"
#include "mat-window-private.h"

G_DEFINE_FINAL_TYPE (MatWindow, mat_window, GTK_TYPE_APPLICATION_WINDOW)

/* Utilities */

GSettings *
_mat_window_get_settings (MatWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (!MAT_IS_APPLICATION (app))
    return NULL;

  return mat_application_get_settings (MAT_APPLICATION (app));
}

/* Returns: (transfer none) (nullable): the application's drafts. */
static MatDraftStore *
get_drafts (MatWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (!MAT_IS_APPLICATION (app))
    return NULL;

  return mat_application_get_drafts (MAT_APPLICATION (app));
}

char *
_mat_window_dup_display_name (GFile *file)
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

/* What the window shows, for the names that tell libraries apart. */
static void
get_place (MatWindow       *self,
           MatLibraryPlace *place)
{
  place->file = self->file;
  place->is_demo = self->loading ? self->loading_demo : self->is_demo;
}

char *
_mat_window_dup_library_name (MatWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  g_autoptr(GArray) others = g_array_new (FALSE, TRUE, sizeof (MatLibraryPlace));
  MatLibraryPlace place;

  get_place (self, &place);
  for (GList *l = app != NULL ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    if (MAT_IS_WINDOW (l->data) && l->data != (gpointer) self)
      {
        MatLibraryPlace other;

        get_place (MAT_WINDOW (l->data), &other);
        if (other.file != NULL)
          g_array_append_val (others, other);
      }
  return mat_library_dup_display_name (&place, (const MatLibraryPlace *) (gpointer) others->data,
                                       others->len);
}

/* Messages */

void
_mat_window_show_error (MatWindow  *self,
                        const char *heading,
                        const char *body)
{
  mat_dialogs_show_message (GTK_WINDOW (self), GTK_MESSAGE_ERROR, heading, body);
}

/* The title */

/* The window's own title (window lists, Alt+Tab): the library's name
 * told apart from the other windows' ("Material.lib — Parkan/DATA"). */
static void
update_window_title (MatWindow *self)
{
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  gboolean dirty = self->library != NULL && mat_library_get_dirty (self->library);

  if (self->file == NULL)
    {
      gtk_window_set_title (GTK_WINDOW (self), _("Parkan Material Editor"));
      return;
    }
  name = _mat_window_dup_library_name (self);
  /* Translators: the window title of a library with unsaved changes */
  title = dirty ? g_strdup_printf (_("%s •"), name) : g_strdup (name);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

/* Every window's title: a library opened, closed or saved elsewhere may
 * tell the others' libraries apart, or no longer. */
static void
update_window_titles (GtkApplication *app)
{
  for (GList *l = app != NULL ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    if (MAT_IS_WINDOW (l->data))
      update_window_title (MAT_WINDOW (l->data));
}

static void
update_title (MatWindow *self)
{
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  gboolean dirty = self->library != NULL && mat_library_get_dirty (self->library);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GFile *file = self->file;

  if (file == NULL)
    {
      gtk_label_set_label (self->title_label, _("Parkan Material Editor"));
      gtk_label_set_label (self->subtitle_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
    }
  else
    {
      /* the header bar: the file's name over its folder */
      name = _mat_window_dup_display_name (file);
      /* Translators: the window title of a library with unsaved changes */
      title = dirty ? g_strdup_printf (_("%s •"), name) : g_strdup (name);
      subtitle = mat_library_dup_folder_name (file);
      if (self->is_demo)
        {
          g_autofree char *folder = g_steal_pointer (&subtitle);

          /* Translators: the subtitle of the demo library; %s is its folder */
          subtitle = g_strdup_printf (_("Demo library in %s"), folder != NULL ? folder : "/");
        }

      gtk_label_set_label (self->title_label, title);
      gtk_label_set_label (self->subtitle_label, subtitle != NULL ? subtitle : "");
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), subtitle != NULL);
      mat_tooltip_set_text (GTK_WIDGET (self->title_label), g_file_peek_path (file));
    }

  if (app != NULL)
    update_window_titles (app);
  else
    update_window_title (self);
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

void
_mat_window_show_material (MatWindow   *self,
                           MatMaterial *material)
{
  g_set_object (&self->shown, material);
  g_signal_group_set_target (self->material_signals, material);

  if (self->library == NULL)
    {
      _mat_window_pages_set_material (self, NULL);
      return;
    }

  if (material == NULL)
    {
      guint total = g_list_model_get_n_items (G_LIST_MODEL (self->library));

      _mat_window_pages_set_material (self, NULL);
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

      _mat_window_pages_set_material (self, NULL);
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

      _mat_window_pages_set_material (self, NULL);
      /* Translators: %s is a material name */
      title = g_strdup_printf (_("“%s” Does Not Decode"), mat_material_get_name (material));
      gtk_label_set_label (self->entry_error_title, title);
      gtk_label_set_label (self->entry_error_label, mat_material_get_error (material));
      gtk_stack_set_visible_child_name (self->main_stack, "entry-error");
    }
  else
    {
      _mat_window_pages_set_material (self, material);
      update_material_header (self);
      gtk_stack_set_visible_child_name (self->main_stack, "material");
    }

  _mat_window_actions_update (self);
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

  mat_tooltip_set_text (GTK_WIDGET (self->undo_button), undo_tip != NULL ? undo_tip : _("Undo"));
  mat_tooltip_set_text (GTK_WIDGET (self->redo_button), redo_tip != NULL ? redo_tip : _("Redo"));
  _mat_window_actions_update (self);
}

static void
history_changed_cb (MatWindow *self)
{
  _mat_window_sidebar_history_changed (self);
  _mat_window_problems_schedule (self);
  _mat_window_actions_history_changed (self);
}

static void
material_changed_cb (MatWindow *self)
{
  if (self->shown != NULL && gtk_stack_get_visible_child_name (self->main_stack) != NULL &&
      g_str_equal (gtk_stack_get_visible_child_name (self->main_stack), "material"))
    update_material_header (self);
  _mat_window_actions_update (self);
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

static void track_textures (MatWindow *self);

static void
document_file_changed_cb (MatWindow *self)
{
  GFile *file = self->document != NULL ? mat_document_get_file (self->document) : NULL;

  if (file == NULL || self->loading)
    return;
  g_set_object (&self->file, file);
  update_title (self);
  /* the Textures.lib's draft names the library by its file */
  track_textures (self);
}

/* Drafts: the Textures.lib the phase table shows (the one the texture
 * window edits) is kept, with the library it is edited with; the one it
 * replaces is discarded (its unsaved edits were asked about), unless it
 * is a restored one waiting for its turn. */
static void
track_textures (MatWindow *self)
{
  MatDraftStore *drafts = get_drafts (self);
  MatTextureLibrary *textures = mat_phase_table_get_textures (self->phase_table);

  if (drafts == NULL)
    return;
  if (self->tracked_textures != NULL && self->tracked_textures != textures &&
      self->tracked_textures != self->pending_textures)
    mat_draft_store_discard_archive (drafts, MAT_DRAFTABLE (self->tracked_textures));
  g_set_weak_pointer (&self->tracked_textures, textures);
  if (textures != NULL)
    mat_draft_store_track (drafts, MAT_DRAFTABLE (textures), self->file);
}

/* A restored Textures.lib waiting: taken once the library shown has
 * loaded and its own search for Textures.lib ended. */
static void
apply_pending_textures (MatWindow *self)
{
  g_autoptr(MatTextureLibrary) textures = NULL;
  g_autoptr(MatDraft) draft = NULL;
  MatDraftStore *drafts = get_drafts (self);

  if (self->pending_textures == NULL || self->loading || self->document == NULL ||
      mat_document_get_library (self->document) == NULL ||
      mat_document_get_finding_textures (self->document))
    return;
  textures = g_steal_pointer (&self->pending_textures);
  draft = g_steal_pointer (&self->pending_draft);
  mat_document_restore_textures (self->document, textures);
  if (drafts != NULL && draft != NULL)
    mat_draft_store_adopt (drafts, draft, MAT_DRAFTABLE (textures));
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

  _mat_window_show_material (self, NULL);
  _mat_window_actions_forget_deleted (self);
  g_set_object (&self->library, library);
  g_signal_group_set_target (self->library_signals, library);
  g_signal_group_set_target (self->history_signals, history);
  _mat_window_sidebar_set_library (self, library);

  update_title (self);
  update_undo (self);
  _mat_window_problems_refresh (self);
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
      _mat_window_sidebar_sync_selection (self);
    }
  _mat_window_actions_update (self);
}

/* Loading */

/* The window's document's library is kept as drafts while it has
 * unsaved changes; the one it replaces is discarded (asked about
 * before: a reload, or a file opened in its place). */
static void
track_library (MatWindow   *self,
               MatDocument *old,
               MatDocument *document)
{
  MatDraftStore *drafts = get_drafts (self);
  MatLibrary *was = old != NULL ? mat_document_get_library (old) : NULL;
  MatLibrary *now = document != NULL ? mat_document_get_library (document) : NULL;

  if (drafts == NULL)
    return;
  if (was != NULL && was != now)
    mat_draft_store_discard_archive (drafts, MAT_DRAFTABLE (was));
  if (now != NULL)
    mat_draft_store_track (drafts, MAT_DRAFTABLE (now), NULL);
}

static void
set_document (MatWindow   *self,
              MatDocument *document)
{
  track_library (self, self->document, document);
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

/* A new window shows once its file has loaded, or after a moment when
 * the file takes longer: no "Loading…" page flashes before the library,
 * and no frame is drawn only to be replaced. */
#define PRESENT_DELAY_MS 300

static void
present_pending_window (MatWindow *self)
{
  g_clear_handle_id (&self->present_source, g_source_remove);
  if (!self->present_pending)
    return;
  self->present_pending = FALSE;
  gtk_window_present (GTK_WINDOW (self));
}

static gboolean
present_timeout_cb (gpointer data)
{
  MatWindow *self = data;

  self->present_source = 0;
  present_pending_window (self);
  return G_SOURCE_REMOVE;
}

static void
load_failed (MatWindow  *self,
             GFile      *file,
             GError     *error)
{
  g_autofree char *name = _mat_window_dup_display_name (file);
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
      _mat_window_actions_update (self);
      _mat_window_show_error (self, title, body);
      return;
    }

  other = other_window (self);
  if (other != NULL)
    {
      /* A window opened for this file alone: no empty window stays. */
      mat_dialogs_show_message (other, GTK_MESSAGE_ERROR, title, body);
      self->close_confirmed = TRUE;
      self->present_pending = FALSE;
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }

  g_free (self->load_error);
  self->load_error = g_steal_pointer (&body);
  gtk_label_set_label (self->library_error_title, title);
  gtk_label_set_label (self->library_error_label, self->load_error);
  gtk_stack_set_visible_child_name (self->main_stack, "library-error");
  update_title (self);
  _mat_window_actions_update (self);
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
      present_pending_window (self);
      return;
    }

  self->is_demo = self->loading_demo;
  self->links_noted = FALSE;
  set_document (self, document);
  apply_pending_textures (self);
  present_pending_window (self);

  app = gtk_window_get_application (GTK_WINDOW (self));
  if (MAT_IS_APPLICATION (app) && !self->is_demo)
    mat_application_add_recent (MAT_APPLICATION (app), self->file);
}

void
mat_window_present_when_loaded (MatWindow *self)
{
  g_return_if_fail (MAT_IS_WINDOW (self));

  if (!self->loading || gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      gtk_window_present (GTK_WINDOW (self));
      return;
    }
  self->present_pending = TRUE;
  if (self->present_source == 0)
    self->present_source = g_timeout_add (PRESENT_DELAY_MS, present_timeout_cb, self);
}

GtkShortcutsWindow *
mat_window_show_shortcuts (MatWindow *self)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (self);
  GtkShortcutsWindow *shortcuts;

  g_return_val_if_fail (MAT_IS_WINDOW (self), NULL);

  shortcuts = gtk_application_window_get_help_overlay (window);
  if (shortcuts == NULL)
    {
      g_autoptr(GtkBuilder) builder =
        gtk_builder_new_from_resource ("/io/github/parkan/MatEdit/mat-shortcuts.ui");

      shortcuts = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      /* the window holds it, and adds win.show-help-overlay for it */
      gtk_application_window_set_help_overlay (window, shortcuts);
    }
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-help-overlay", NULL);
  return shortcuts;
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
  _mat_window_sidebar_cancel_show (self);
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
  _mat_window_actions_update (self);

  document = mat_document_new_with_settings (_mat_window_get_settings (self));
  g_set_object (&self->loading_document, document);
  mat_document_load_async (document, file, self->cancellable, load_cb, g_object_ref (self));
}

void
mat_window_show_restored (MatWindow  *self,
                          MatLibrary *library,
                          MatDraft   *draft,
                          gboolean    is_demo)
{
  g_autoptr(MatDocument) document = NULL;
  MatTextureLibrary *textures;
  MatDraftStore *drafts;

  g_return_if_fail (MAT_IS_WINDOW (self));
  g_return_if_fail (MAT_IS_LIBRARY (library));
  g_return_if_fail (draft == NULL || MAT_IS_DRAFT (draft));

  /* a load running is given up */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->loading_document);
  _mat_window_sidebar_cancel_show (self);
  self->loading = FALSE;
  gtk_spinner_stop (self->spinner);

  /* unsaved texture edits (a Textures.lib restored before) stay */
  textures = mat_phase_table_get_textures (self->phase_table);
  if (self->pending_textures == NULL && textures != NULL && mat_texture_library_get_dirty (textures))
    g_set_object (&self->pending_textures, textures);

  document = mat_document_new_with_settings (_mat_window_get_settings (self));
  mat_document_restore (document, library);
  g_set_object (&self->file, mat_library_get_file (library));
  g_clear_pointer (&self->load_error, g_free);
  self->is_demo = is_demo;
  self->links_noted = FALSE;
  self->close_confirmed = FALSE;
  set_document (self, document);

  drafts = get_drafts (self);
  if (drafts != NULL && draft != NULL)
    mat_draft_store_adopt (drafts, draft, MAT_DRAFTABLE (library));
  apply_pending_textures (self);
  present_pending_window (self);
}

void
mat_window_restore_textures (MatWindow         *self,
                             MatTextureLibrary *textures,
                             MatDraft          *draft)
{
  g_return_if_fail (MAT_IS_WINDOW (self));
  g_return_if_fail (MAT_IS_TEXTURE_LIBRARY (textures));
  g_return_if_fail (draft == NULL || MAT_IS_DRAFT (draft));

  g_set_object (&self->pending_textures, textures);
  g_set_object (&self->pending_draft, draft);
  apply_pending_textures (self);
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
reload_now (MatWindow *self)
{
  MatMaterial *material = _mat_window_sidebar_get_selected (self);
  GFile *file = self->document != NULL ? mat_document_get_file (self->document) : self->file;
  g_autoptr(GFile) target = file != NULL ? g_object_ref (file) : NULL;

  if (target == NULL)
    return;
  g_free (self->reselect_name);
  self->reselect_name = material != NULL ? g_strdup (mat_material_get_name (material)) : NULL;
  self->close_confirmed = FALSE;
  mat_window_open (self, target, self->is_demo);
}

/* @user_data: a GWeakRef to the window, which may go while it asks */
static void
reload_asked_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(MatWindow) self = g_weak_ref_get (weak);

  g_weak_ref_clear (weak);
  g_free (weak);
  if (mat_texture_window_ask_unsaved_finish (result) && self != NULL && self->library != NULL)
    reload_now (self);
}

void
_mat_window_reload (MatWindow *self)
{
  MatTextureLibrary *textures = mat_phase_table_get_textures (self->phase_table);

  /* A reload reads Textures.lib again too: its unsaved edits (the
   * texture window's) are asked about first. */
  if (textures != NULL && mat_texture_library_get_dirty (textures))
    {
      GWeakRef *weak = g_new0 (GWeakRef, 1);

      g_weak_ref_init (weak, self);
      mat_texture_window_ask_unsaved_async (GTK_WINDOW (self), textures, self->dialogs,
                                            reload_asked_cb, weak);
    }
  else
    reload_now (self);
}

static gboolean
make_backup (MatWindow *self)
{
  GSettings *settings = _mat_window_get_settings (self);

  return settings != NULL && g_settings_get_boolean (settings, "make-backup");
}

enum {
  ETAG_CANCEL,
  ETAG_RELOAD,
  ETAG_OVERWRITE,
};

static void
etag_choice_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SaveOp) op = user_data;
  int choice = mat_dialogs_choose_finish (result);

  if (op->self->library == NULL)
    return;
  if (choice == ETAG_RELOAD)
    _mat_window_reload (op->self);
  else if (choice == ETAG_OVERWRITE)
    /* One save that writes over the other program's version. */
    save_library (op->self, NULL, MAT_SAVE_IGNORE_CHANGES, op->close_after);
}

static void
ask_changed_on_disk (MatWindow *self,
                     gboolean   close_after)
{
  SaveOp *op = g_new0 (SaveOp, 1);
  const char *buttons[] = { _("_Cancel"), _("_Reload"), _("_Overwrite"), NULL };

  op->self = g_object_ref (self);
  op->close_after = close_after;
  mat_dialogs_choose (GTK_WINDOW (self), _("The File Changed on Disk"),
                      _("Another program changed the file since it was opened. Reload it and lose your changes, or overwrite it with your version?"),
                      buttons, ETAG_CANCEL, ETAG_CANCEL, ETAG_OVERWRITE,
                      self->dialogs, etag_choice_cb, op);
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
      _mat_window_actions_update (self);
      update_title (self);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG))
        ask_changed_on_disk (self, op->close_after);
      else
        {
          g_autofree char *name = _mat_window_dup_display_name (op->file != NULL ? op->file : self->file);
          g_autofree char *heading = NULL;

          /* Translators: %s is a file name */
          heading = g_strdup_printf (_("Could Not Save “%s”"), name);
          _mat_window_show_error (self, heading, error->message);
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
  _mat_window_actions_update (self);

  if ((notes & MAT_SAVE_NOTE_LINKS_DETACHED) && !self->links_noted)
    {
      g_autofree char *name = _mat_window_dup_display_name (self->file);
      g_autofree char *body = NULL;

      self->links_noted = TRUE;
      /* Translators: %s is a file name */
      body = g_strdup_printf (_("“%s” had other hard links. The library was saved as a file of its own; the other names keep the previous version."),
                              name);
      mat_dialogs_show_message (GTK_WINDOW (self), GTK_MESSAGE_INFO, _("Saved as a Separate File"), body);
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
  _mat_window_actions_update (self);
  mat_document_save_async (self->document, file, flags, NULL, save_cb, op);
}

static void
save_as_chosen_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(SaveOp) op = user_data;
  g_autoptr(GFile) file = mat_dialogs_save_file_finish (result);

  if (file != NULL)
    save_library (op->self, file, MAT_SAVE_NONE, op->close_after);
}

void
_mat_window_save_as (MatWindow *self,
                     gboolean   close_after)
{
  GFile *current = self->library != NULL ? mat_library_get_file (self->library) : NULL;
  g_autofree char *name = current != NULL ? g_file_get_basename (current) : g_strdup ("Material.lib");
  g_autoptr(GFile) folder = NULL;
  SaveOp *op;

  if (self->library == NULL)
    return;
  if (current != NULL && !self->is_demo)
    folder = g_file_get_parent (current);

  op = g_new0 (SaveOp, 1);
  op->self = g_object_ref (self);
  op->close_after = close_after;
  mat_dialogs_save_file (GTK_WINDOW (self), _("Save Material Library As"), name, folder,
                         self->dialogs, save_as_chosen_cb, op);
}

void
_mat_window_save (MatWindow *self,
                  gboolean   close_after)
{
  if (self->library == NULL)
    return;
  /* The bundled demo is not the user's file: ask where to keep it. */
  if (self->is_demo || mat_library_get_file (self->library) == NULL)
    _mat_window_save_as (self, close_after);
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
      _mat_window_save (self, TRUE);
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
  GSettings *settings = _mat_window_get_settings (self);
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

/* What the window shows goes: its drafts with it. */
static void
discard_drafts (MatWindow *self)
{
  MatDraftStore *drafts = get_drafts (self);

  if (drafts == NULL)
    return;
  if (self->document != NULL && mat_document_get_library (self->document) != NULL)
    mat_draft_store_discard_archive (drafts, MAT_DRAFTABLE (mat_document_get_library (self->document)));
  if (self->tracked_textures != NULL)
    mat_draft_store_discard_archive (drafts, MAT_DRAFTABLE (self->tracked_textures));
}

static gboolean
mat_window_close_request (GtkWindow *window)
{
  MatWindow *self = MAT_WINDOW (window);

  if (self->library != NULL && mat_library_get_dirty (self->library) && !self->close_confirmed)
    {
      if (self->unsaved_dialog == NULL)
        {
          g_autofree char *name = _mat_window_dup_display_name (mat_library_get_file (self->library));

          self->unsaved_dialog = mat_unsaved_dialog_present (window, name);
          g_signal_connect_object (self->unsaved_dialog, "response",
                                   G_CALLBACK (unsaved_response_cb), self, G_CONNECT_SWAPPED);
        }
      else
        gtk_window_present (GTK_WINDOW (self->unsaved_dialog));

      return TRUE;
    }

  save_window_state (self);
  /* closed without saving after the question (or with nothing unsaved):
   * no draft stays */
  discard_drafts (self);

  return GTK_WINDOW_CLASS (mat_window_parent_class)->close_request (window);
}

/* Public */

GFile *
mat_window_get_file (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), NULL);

  return self->file;
}

MatDocument *
mat_window_get_document (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), NULL);

  return self->document;
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

  /* unsaved texture edits would go with it too */
  return self->is_demo && !mat_library_get_dirty (self->library) &&
         (mat_phase_table_get_textures (self->phase_table) == NULL ||
          !mat_texture_library_get_dirty (mat_phase_table_get_textures (self->phase_table)));
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

  /* a window that goes may have been what told this library apart */
  g_signal_connect_object (app, "window-removed", G_CALLBACK (update_window_title), self,
                           G_CONNECT_SWAPPED);
  update_title (self);

  if (MAT_IS_APPLICATION (app))
    g_menu_insert_submenu (self->file_section, 1, _("Open _Recent"),
                           mat_application_get_recent_menu (MAT_APPLICATION (app)));

  settings = _mat_window_get_settings (self);
  if (settings != NULL)
    {
      int width = g_settings_get_int (settings, "window-width");
      int height = g_settings_get_int (settings, "window-height");

      if (width > 0 && height > 0)
        gtk_window_set_default_size (GTK_WINDOW (self), width, height);
      if (g_settings_get_boolean (settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      _mat_window_sidebar_apply_settings (self, settings);
      g_settings_bind (settings, "preview-visible", self, "preview-visible",
                       G_SETTINGS_BIND_DEFAULT);
      /* the texture cells' notes and the list's swatches (the preview
       * follows the setting itself) */
      g_settings_bind (settings, "emboss-bump", self->phase_table, "emboss-bump",
                       G_SETTINGS_BIND_GET);
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
  if (self->dialogs != NULL)
    g_cancellable_cancel (self->dialogs);
  g_clear_object (&self->dialogs);

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

  /* a window destroyed without closing goes with its edits; once the
   * application ends (closed store) or a signal came (frozen), the store
   * keeps what is on disk whatever goes */
  discard_drafts (self);
  g_clear_weak_pointer (&self->tracked_textures);
  g_clear_object (&self->pending_textures);
  g_clear_object (&self->pending_draft);

  _mat_window_actions_dispose (self);
  _mat_window_problems_dispose (self);
  _mat_window_sidebar_dispose (self);
  _mat_window_batch_dispose (self);

  self->present_pending = FALSE;
  g_clear_handle_id (&self->present_source, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_WINDOW);
  _mat_window_pages_dispose (self);

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
mat_window_size_allocate (GtkWidget *widget,
                          int        width,
                          int        height,
                          int        baseline)
{
  /* before the children are given their sizes, so that a window that
   * grows or shrinks past the point is laid out once */
  _mat_window_pages_fit (MAT_WINDOW (widget), width);

  GTK_WIDGET_CLASS (mat_window_parent_class)->size_allocate (widget, width, height, baseline);
}

/* The window's icon is for the window manager (X11's _NET_WM_ICON; a
 * Wayland compositor takes the desktop file's). Drawn from its SVG, it
 * loads librsvg: 5 ms and more of start-up for a picture that is not in
 * the window. So the first window gets it once its first frame
 * is on screen, and the windows and dialogs after it from the start. */
static gboolean
set_icon_cb (gpointer data)
{
  gtk_window_set_default_icon_name (APPLICATION_ID);
  gtk_window_set_icon_name (GTK_WINDOW (data), APPLICATION_ID);
  return G_SOURCE_REMOVE;
}

static void
first_frame_painted_cb (GdkFrameClock *clock,
                        MatWindow     *self)
{
  g_clear_signal_handler (&self->icon_paint_handler, clock);
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, set_icon_cb, g_object_ref (self), g_object_unref);
}

static void
mat_window_map (GtkWidget *widget)
{
  MatWindow *self = MAT_WINDOW (widget);

  GTK_WIDGET_CLASS (mat_window_parent_class)->map (widget);

  if (gtk_window_get_default_icon_name () == NULL && self->icon_paint_handler == 0)
    self->icon_paint_handler = g_signal_connect_object (gtk_widget_get_frame_clock (widget),
                                                        "after-paint",
                                                        G_CALLBACK (first_frame_painted_cb),
                                                        self, 0);
}

static void
mat_window_class_init (MatWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = mat_window_dispose;
  object_class->finalize = mat_window_finalize;
  widget_class->size_allocate = mat_window_size_allocate;
  widget_class->map = mat_window_map;
  window_class->close_request = mat_window_close_request;

  g_type_ensure (MAT_TYPE_DROP_DOWN);
  g_type_ensure (MAT_TYPE_PHASE_TABLE);
  g_type_ensure (MAT_TYPE_PREVIEW);
  /* GtkBuilder looks a type it does not know yet up by name in every
   * loaded library (dlsym); these are in the templates of the window,
   * its phase table and its preview */
  {
    const GType types[] = {
      GTK_TYPE_BOX, GTK_TYPE_BUTTON, GTK_TYPE_COLUMN_VIEW, GTK_TYPE_GL_AREA, GTK_TYPE_GRID,
      GTK_TYPE_HEADER_BAR, GTK_TYPE_IMAGE, GTK_TYPE_LABEL, GTK_TYPE_LIST_VIEW, GTK_TYPE_MENU_BUTTON, GTK_TYPE_PANED, GTK_TYPE_REVEALER, GTK_TYPE_SCALE,
      GTK_TYPE_SCROLLED_WINDOW, GTK_TYPE_SEARCH_ENTRY, GTK_TYPE_SEPARATOR, GTK_TYPE_SPIN_BUTTON,
      GTK_TYPE_SPINNER, GTK_TYPE_STACK, GTK_TYPE_STACK_PAGE, GTK_TYPE_STACK_SWITCHER,
      GTK_TYPE_STRING_LIST, GTK_TYPE_TOGGLE_BUTTON, GTK_TYPE_VIEWPORT,
    };

    for (guint i = 0; i < G_N_ELEMENTS (types); i++)
      g_type_ensure (types[i]);
  }

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-window.ui");
  gtk_widget_class_bind_template_child (widget_class, MatWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, undo_button);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, redo_button);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_toggle);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_toggle_icon);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_toggle_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, changed_revealer);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, changed_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, deleted_revealer);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, deleted_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, query_button);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, query_error_label);
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
  gtk_widget_class_bind_template_child (widget_class, MatWindow, batch_revealer);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, batch_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, batch_apply_button);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, batch_menu);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, batch_copy_button);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, batch_delete_button);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, batch_close_button);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, material_stack);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, phase_table);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, animation_page);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, flags_page);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, preview_paned);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, preview_pane);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, preview_toggle);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, material_menu_button);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, material_menu);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, preview);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_revealer);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_summary_label);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_stack);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, lint_list);
  gtk_widget_class_bind_template_child (widget_class, MatWindow, file_section);
  /* reached only for their tooltips */
  gtk_widget_class_bind_template_child_full (widget_class, "open_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "save_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "changed_dismiss_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "deleted_undo_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "deleted_dismiss_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "new_material_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "lint_hide_button", FALSE, 0);

  /* the window's other parts: their actions, callbacks and shortcuts */
  _mat_window_class_actions_init (klass);
  _mat_window_class_sidebar_init (klass);
  _mat_window_class_problems_init (klass);
  _mat_window_class_pages_init (klass);
  _mat_window_class_batch_init (klass);
  mat_window_clipboard_class_init (widget_class);
}

void
_mat_window_menu_button_create_popup (GtkMenuButton *button,
                                      gpointer       model)
{
  if (gtk_menu_button_get_menu_model (button) == NULL)
    gtk_menu_button_set_menu_model (button, model);
}

/* The template's tooltips (undo and redo have theirs from the history).
 * Set here, not in the .ui file: see mat-tooltip.h. */
static const MatTooltipEntry tooltips[] = {
  { "open_button", N_("Open a Material Library (Ctrl+O)") },
  { "primary_menu_button", N_("Main Menu") },
  { "save_button", N_("Save the Library (Ctrl+S)") },
  { "lint_toggle", N_("Show Problems (Ctrl+L)") },
  { "changed_dismiss_button", N_("Dismiss") },
  { "deleted_undo_button", N_("Bring the material back (Ctrl+Z)") },
  { "deleted_dismiss_button", N_("Dismiss") },
  { "new_material_button", N_("New Material (Shift+Ctrl+N)") },
  { "preview_toggle", N_("Hide the Preview (F9)") },
  { "material_menu_button", N_("Material Menu") },
  { "query_button", N_("Search by Content: the words to add to the search") },
  { "batch_apply_button", N_("Give every material selected this part of the one shown") },
  { "batch_copy_button", N_("Copy the Selected Materials (Ctrl+C)") },
  { "batch_delete_button", N_("Delete the Selected Materials (Delete)") },
  { "batch_close_button", N_("Select Only the Material Shown (Escape)") },
  { "lint_hide_button", N_("Hide Problems") },
};

static void
mat_window_init (MatWindow *self)
{
  /* asked for by the action while the template is built */
  self->preview_visible = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  mat_tooltip_init_template (GTK_WIDGET (self), MAT_TYPE_WINDOW, tooltips, G_N_ELEMENTS (tooltips));

  self->dialogs = g_cancellable_new ();

  mat_revealer_skip_concealed (self->changed_revealer);
  mat_revealer_skip_concealed (self->deleted_revealer);
  mat_revealer_skip_concealed (self->lint_revealer);

  gtk_menu_button_set_create_popup_func (self->primary_menu_button, _mat_window_menu_button_create_popup,
                                         self->primary_menu, NULL);
  gtk_menu_button_set_create_popup_func (self->material_menu_button, _mat_window_menu_button_create_popup,
                                         self->material_menu, NULL);

  _mat_window_pages_init (self);

  _mat_window_sidebar_init (self);
  _mat_window_problems_init (self);
  _mat_window_actions_init (self);
  _mat_window_batch_init (self);
  _mat_window_dnd_init (self);

  self->document_signals = g_signal_group_new (MAT_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "notify::file",
                                  G_CALLBACK (document_file_changed_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::disk-state",
                                  G_CALLBACK (disk_state_changed_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::textures",
                                  G_CALLBACK (document_textures_changed_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::finding-textures",
                                  G_CALLBACK (apply_pending_textures), self);
  g_signal_connect_object (self->phase_table, "notify::textures", G_CALLBACK (track_textures),
                           self, G_CONNECT_SWAPPED);

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

  gtk_label_set_label (self->empty_title, _("No Library Open"));
  gtk_label_set_label (self->empty_body, _("Open a material library with Ctrl+O, or drop its file here."));
  gtk_stack_set_visible_child_name (self->main_stack, "empty");
  update_title (self);
  _mat_window_actions_update (self);
  mat_window_clipboard_init (self);
}

MatWindow *
mat_window_new (MatApplication *application)
{
  g_return_val_if_fail (MAT_IS_APPLICATION (application), NULL);

  return g_object_new (MAT_TYPE_WINDOW, "application", application, NULL);
}
