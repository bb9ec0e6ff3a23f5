/* test-drafts.c - drafts of unsaved edits in the real windows: kept while
 * a window has unsaved changes (its library and the Textures.lib its
 * texture window edits), gone when they are saved, undone or discarded
 * at the unsaved-changes prompt; and the dialog that offers what an
 * editor that ended left: its rows, Compare (a library diff against the
 * file on disk), Discard and Restore (the window shows the draft's
 * content, unsaved, byte for byte). Screenshots of the dialog in English
 * and, run again with LANGUAGE=ru, in Russian.
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mat-application.h"
#include "mat-compare-window.h"
#include "mat-dialogs-private.h"
#include "mat-drafts-dialog.h"
#include "mat-library-diff.h"
#include "mat-model-archive.h"
#include "mat-phase-table.h"
#include "mat-texture-library.h"
#include "mat-unsaved-dialog.h"
#include "mat-window.h"
#include "ui-support.h"

#define WAIT_SECONDS 20

static MatApplication *app;
static char *tmp_dir;

/* ---- helpers ---------------------------------------------------------- */

static GBytes *
read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (contents, length);
}

static void
write_bytes (const char *path,
             GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
}

/* A folder @name holding copies of the demo Material.lib and
 * Textures.lib. Returns: (transfer full): the library's file. */
static GFile *
library_copy (const char *name)
{
  g_autofree char *dir = g_build_filename (tmp_dir, name, NULL);
  g_autofree char *lib = g_build_filename (dir, "Material.lib", NULL);
  g_autofree char *tex = g_build_filename (dir, "Textures.lib", NULL);
  g_autoptr(GBytes) lib_bytes = read_bytes (ui_need_env ("DEMO_LIB"));
  g_autoptr(GBytes) tex_bytes = read_bytes (ui_need_env ("DEMO_TEXTURES"));

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  write_bytes (lib, lib_bytes);
  write_bytes (tex, tex_bytes);
  return g_file_new_for_path (lib);
}

static gboolean
window_settled (gpointer data)
{
  MatWindow *window = data;
  MatDocument *document = mat_window_get_document (window);

  return !mat_window_get_busy (window) && document != NULL &&
         !mat_document_get_finding_textures (document) &&
         mat_document_get_textures (document) != NULL;
}

static MatWindow *
open_window (GFile *file)
{
  MatWindow *window = mat_window_new (app);

  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (window_settled, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  return window;
}

static MatTextureLibrary *
window_textures (MatWindow *window)
{
  MatPhaseTable *table = ui_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW, "phase_table");

  return mat_phase_table_get_textures (table);
}

static MatDraftStore *
drafts (void)
{
  return mat_application_get_drafts (app);
}

static gboolean
store_idle (gpointer data)
{
  return !mat_draft_store_get_busy (data);
}

static void
wait_store (MatDraftStore *store)
{
  g_assert_true (ui_wait_for (store_idle, store, WAIT_SECONDS));
}

/* The draft files under the store's folder holding @bytes (all of them
 * with %NULL). */
static guint
drafts_holding (MatDraftStore *store,
                GBytes        *bytes)
{
  g_autofree char *root = g_file_get_path (mat_draft_store_get_folder (store));
  g_autoptr(GDir) sessions = g_dir_open (root, 0, NULL);
  const char *session;
  guint n = 0;

  while (sessions != NULL && (session = g_dir_read_name (sessions)) != NULL)
    {
      g_autofree char *folder = g_build_filename (root, session, NULL);
      g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        if (g_str_has_suffix (name, ".draft"))
          {
            g_autofree char *path = g_build_filename (folder, name, NULL);
            g_autoptr(GBytes) on_disk = read_bytes (path);

            n += bytes == NULL || g_bytes_equal (on_disk, bytes);
          }
    }
  return n;
}

static GBytes *
save_bytes (MatDraftable *archive)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MatSavePlan) plan = mat_draftable_plan_save (archive, &error);
  GBytes *bytes;

  g_assert_no_error (error);
  bytes = mat_save_plan_write (plan, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
edit_attr1 (MatLibrary *library,
            const char *name,
            guint32     attr1)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mat_material_set_attr1 (mat_library_find (library, name), attr1, &error));
  g_assert_no_error (error);
}

static void
edit_cells (MatTextureLibrary *textures)
{
  g_autoptr(GError) error = NULL;
  const TexmRect rect = { 0, 4, 0, 4 };

  g_assert_true (mat_texture_library_set_page_rects (textures,
                                                     mat_texture_library_lookup (textures, "ROCK.0"),
                                                     &rect, 1, &error));
  g_assert_no_error (error);
}

static gboolean
unsaved_dialog_shown (gpointer data)
{
  return ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG) != NULL;
}

/* ---- the window's drafts -------------------------------------------------- */

/* Unsaved edits of the library and of its Textures.lib have drafts;
 * discarding at the prompt removes both. */
static void
test_prompt_discard (void)
{
  g_autoptr(GFile) file = library_copy ("prompt");
  MatDraftStore *store = drafts ();
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  MatTextureLibrary *textures = window_textures (window);
  g_autoptr(GBytes) lib_edited = NULL;
  g_autoptr(GBytes) tex_edited = NULL;
  g_autoptr(GBytes) original = read_bytes (g_file_peek_path (file));
  g_autoptr(GBytes) now = NULL;
  MatUnsavedDialog *dialog;
  gpointer weak = window;

  g_assert_nonnull (textures);
  mat_draft_store_set_delay (store, 50);
  edit_attr1 (library, "GLOW_PULSE", 0x41);
  edit_cells (textures);
  wait_store (store);
  lib_edited = save_bytes (MAT_DRAFTABLE (library));
  tex_edited = save_bytes (MAT_DRAFTABLE (textures));
  g_assert_cmpuint (drafts_holding (store, lib_edited), ==, 1);
  g_assert_cmpuint (drafts_holding (store, tex_edited), ==, 1);

  /* Cancel at the prompt: the drafts stay */
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (unsaved_dialog_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG);
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.response", "s", "cancel");
  ui_spin_ms (50);
  wait_store (store);
  g_assert_cmpuint (drafts_holding (store, NULL), ==, 2);

  /* Discard: the window goes, and so do both drafts; the file is as it
   * was */
  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (unsaved_dialog_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG);
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.response", "s", "discard");
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));
  wait_store (store);
  g_assert_cmpuint (drafts_holding (store, NULL), ==, 0);
  now = read_bytes (g_file_peek_path (file));
  g_assert_true (g_bytes_equal (now, original));
}

/* Undone back to the saved state, or saved: the draft goes. */
static void
test_undo_and_save (void)
{
  g_autoptr(GFile) file = library_copy ("undo");
  MatDraftStore *store = drafts ();
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  g_autoptr(GBytes) edited = NULL;

  mat_draft_store_set_delay (store, 50);
  edit_attr1 (library, "ROCK_WALL", 0x41);
  wait_store (store);
  g_assert_cmpuint (drafts_holding (store, NULL), ==, 1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_false (mat_library_get_dirty (library));
  wait_store (store);
  g_assert_cmpuint (drafts_holding (store, NULL), ==, 0);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  wait_store (store);
  edited = save_bytes (MAT_DRAFTABLE (library));
  g_assert_cmpuint (drafts_holding (store, edited), ==, 1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_true (ui_wait_for (window_settled, window, WAIT_SECONDS));
  while (mat_library_get_dirty (library))
    ui_spin_ms (20);
  wait_store (store);
  g_assert_cmpuint (drafts_holding (store, NULL), ==, 0);
  ui_close_window (GTK_WINDOW (window));
}

/* ---- what an editor that ended left ---------------------------------- */

static gboolean
drafts_dialog_shown (gpointer data)
{
  GtkWindow *dialog = mat_application_get_drafts_dialog (app);

  return dialog != NULL && ui_widget_is_shown (dialog);
}

static gboolean
comparison_shown (gpointer data)
{
  GtkWidget *window = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();
  MatLibraryDiff *diff;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && window == NULL; i++)
    {
      g_autoptr(GtkWidget) item = g_list_model_get_item (toplevels, i);

      if (g_strcmp0 (gtk_widget_get_name (item), "draft-comparison") == 0)
        window = item;
    }
  if (window == NULL || !ui_widget_is_shown (window))
    return FALSE;
  diff = mat_compare_window_get_library_diff (MAT_COMPARE_WINDOW (window));
  if (mat_library_diff_get_loading (diff) || mat_library_diff_get_other (diff) == NULL)
    return FALSE;
  *(GtkWidget **) data = window;
  return TRUE;
}


static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
have_result (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

static MatLibrary *
load_library (GFile *file)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  MatLibrary *library;

  mat_library_load_async (file, NULL, result_cb, &result);
  g_assert_true (ui_wait_for (have_result, &result, WAIT_SECONDS));
  library = mat_library_load_finish (result, &error);
  g_assert_no_error (error);
  return library;
}

/* The id of the draft of @file offered, of @kind. */
static char *
offered_id (GListModel *offered,
            GFile      *file,
            const char *kind)
{
  for (guint i = 0; i < g_list_model_get_n_items (offered); i++)
    {
      g_autoptr(MatDraft) draft = g_list_model_get_item (offered, i);

      if (g_file_equal (mat_draft_get_file (draft), file) &&
          g_str_equal (mat_draft_get_kind (draft), kind))
        return g_strdup (mat_draft_get_id (draft));
    }
  g_assert_not_reached ();
}

static MatWindow *
window_showing (GFile *file)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (MAT_IS_WINDOW (l->data) && mat_window_get_file (l->data) != NULL &&
        g_file_equal (mat_window_get_file (l->data), file))
      return l->data;
  return NULL;
}

static gboolean
restored_shown (gpointer data)
{
  MatWindow *window = window_showing (data);
  MatLibrary *library = window != NULL ? mat_window_get_library (window) : NULL;
  MatTextureLibrary *textures = window != NULL ? window_textures (window) : NULL;

  return library != NULL && mat_library_get_dirty (library) &&
         textures != NULL && mat_texture_library_get_dirty (textures) &&
         mat_application_get_drafts_dialog (app) == NULL;
}

static gboolean
row_is_gone (gpointer data)
{
  GtkWindow *dialog = mat_application_get_drafts_dialog (app);

  return dialog != NULL &&
         g_list_model_get_n_items (mat_drafts_dialog_get_drafts (MAT_DRAFTS_DIALOG (dialog))) ==
         GPOINTER_TO_UINT (data);
}

/* Another editor (a store of its own on the same folder) edits two
 * libraries and a Textures.lib and ends by a signal: its drafts are
 * offered, one compared with its file and discarded, the others
 * restored into a window, byte for byte, and kept as this editor's. */
static void
test_offered (void)
{
  g_autoptr(GFile) file = library_copy ("offered");
  g_autoptr(GFile) other_file = library_copy ("offered-other");
  g_autofree char *tex_path = g_build_filename (tmp_dir, "offered", "Textures.lib", NULL);
  g_autoptr(GFile) tex_file = g_file_new_for_path (tex_path);
  MatDraftStore *store = drafts ();
  g_autoptr(MatDraftStore) ended = mat_draft_store_new (mat_draft_store_get_folder (store));
  g_autoptr(MatLibrary) library = load_library (file);
  g_autoptr(MatLibrary) other = load_library (other_file);
  g_autoptr(MatTextureLibrary) textures = NULL;
  g_autoptr(GBytes) lib_edited = NULL;
  g_autoptr(GBytes) other_edited = NULL;
  g_autoptr(GBytes) tex_edited = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *lib_id = NULL;
  g_autofree char *other_id = NULL;
  g_autofree char *tex_id = NULL;
  gboolean russian = g_strcmp0 (g_getenv ("LANGUAGE"), "ru") == 0;
  GtkWidget *comparison = NULL;
  GtkWindow *dialog;
  GListModel *offered;
  MatLibraryDiff *diff;
  MatWindow *window;
  MatUnsavedDialog *unsaved;
  gpointer weak;

  textures = mat_texture_library_load (tex_file, NULL, &error);
  g_assert_no_error (error);
  mat_draft_store_track (ended, MAT_DRAFTABLE (library), NULL);
  mat_draft_store_track (ended, MAT_DRAFTABLE (other), NULL);
  mat_draft_store_track (ended, MAT_DRAFTABLE (textures), file);
  edit_attr1 (library, "GLOW_PULSE", 0x41);
  edit_attr1 (other, "ROCK_WALL", 0x41);
  edit_cells (textures);
  lib_edited = save_bytes (MAT_DRAFTABLE (library));
  other_edited = save_bytes (MAT_DRAFTABLE (other));
  tex_edited = save_bytes (MAT_DRAFTABLE (textures));
  /* the signal: written at once, then the process is gone */
  g_assert_true (mat_draft_store_flush_sync (ended, TRUE, &error));
  g_assert_no_error (error);
  g_clear_object (&ended);
  g_clear_object (&library);
  g_clear_object (&other);
  g_clear_object (&textures);

  mat_application_offer_drafts (app);
  g_assert_true (ui_wait_for (drafts_dialog_shown, NULL, WAIT_SECONDS));
  dialog = mat_application_get_drafts_dialog (app);
  offered = mat_drafts_dialog_get_drafts (MAT_DRAFTS_DIALOG (dialog));
  g_assert_cmpuint (g_list_model_get_n_items (offered), ==, 3);
  lib_id = offered_id (offered, file, MAT_DRAFT_KIND_MATERIALS);
  other_id = offered_id (offered, other_file, MAT_DRAFT_KIND_MATERIALS);
  tex_id = offered_id (offered, tex_file, MAT_DRAFT_KIND_TEXTURES);
  {
    GtkLabel *heading = ui_template_child (GTK_WIDGET (dialog), MAT_TYPE_DRAFTS_DIALOG, "heading_label");

    if (russian)
      g_assert_cmpstr (gtk_label_get_label (heading), !=, "Restore Unsaved Changes?");
    else
      g_assert_cmpstr (gtk_label_get_label (heading), ==, "Restore Unsaved Changes?");
  }
  ui_screenshot (GTK_WIDGET (dialog), russian ? "drafts-dialog-ru.png" : "drafts-dialog.png");

  /* Compare: the draft against its file, the one material it changed */
  g_action_group_activate_action (G_ACTION_GROUP (app), "compare-draft", g_variant_new_string (other_id));
  g_assert_true (ui_wait_for (comparison_shown, &comparison, WAIT_SECONDS));
  diff = mat_compare_window_get_library_diff (MAT_COMPARE_WINDOW (comparison));
  g_assert_cmpstr (mat_compare_window_get_page (MAT_COMPARE_WINDOW (comparison)), ==, "libraries");
  g_assert_true (mat_library_diff_get_changed_only (diff));
  g_assert_cmpuint (g_list_model_get_n_items (mat_library_diff_get_shown_rows (diff)), ==, 1);
  mat_library_diff_refresh (diff);
  g_assert_cmpuint (mat_library_diff_get_n_status (diff, MAT0_DIFF_CHANGED), ==, 1);
  g_assert_cmpuint (mat_library_diff_get_n_status (diff, MAT0_DIFF_ADDED), ==, 0);
  g_assert_cmpuint (mat_library_diff_get_n_status (diff, MAT0_DIFF_REMOVED), ==, 0);
  g_assert_cmpint (mat_library_diff_find_row (diff, "ROCK_WALL"), >=, 0);
  gtk_window_set_default_size (GTK_WINDOW (comparison), 1100, 720);
  ui_screenshot (comparison, russian ? "drafts-compare-ru.png" : "drafts-compare.png");
  ui_close_window (GTK_WINDOW (comparison));
  if (russian)
    return;

  /* Discard: that draft is gone from the list and from the disk */
  g_assert_cmpuint (drafts_holding (store, other_edited), ==, 1);
  g_action_group_activate_action (G_ACTION_GROUP (app), "discard-draft", g_variant_new_string (other_id));
  g_assert_true (ui_wait_for (row_is_gone, GUINT_TO_POINTER (2), WAIT_SECONDS));
  wait_store (store);
  g_assert_cmpuint (drafts_holding (store, other_edited), ==, 0);
  bytes = read_bytes (g_file_peek_path (other_file));
  g_assert_false (g_bytes_equal (bytes, other_edited));
  g_clear_pointer (&bytes, g_bytes_unref);

  /* Restore All: the library and its Textures.lib in one window, with
   * the drafts' bytes, unsaved */
  g_action_group_activate_action (G_ACTION_GROUP (app), "restore-all-drafts", NULL);
  g_assert_true (ui_wait_for (restored_shown, file, WAIT_SECONDS));
  window = window_showing (file);
  bytes = save_bytes (MAT_DRAFTABLE (mat_window_get_library (window)));
  g_assert_true (g_bytes_equal (bytes, lib_edited));
  g_clear_pointer (&bytes, g_bytes_unref);
  bytes = save_bytes (MAT_DRAFTABLE (window_textures (window)));
  g_assert_true (g_bytes_equal (bytes, tex_edited));
  g_clear_pointer (&bytes, g_bytes_unref);
  g_assert_true (g_file_equal (mat_texture_library_get_file (window_textures (window)), tex_file));
  g_assert_cmpint (mat_document_get_disk_state (mat_window_get_document (window)), ==, MAT_DISK_STATE_SAME);
  /* kept as this editor's drafts: one copy each, the old folder gone */
  wait_store (store);
  g_assert_cmpuint (drafts_holding (store, lib_edited), ==, 1);
  g_assert_cmpuint (drafts_holding (store, tex_edited), ==, 1);
  g_assert_cmpuint (drafts_holding (store, NULL), ==, 2);
  ui_screenshot (GTK_WIDGET (window), "drafts-restored.png");

  /* closed with Discard: nothing stays */
  weak = window;
  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (unsaved_dialog_shown, NULL, WAIT_SECONDS));
  unsaved = ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG);
  gtk_widget_activate_action (GTK_WIDGET (unsaved), "dialog.response", "s", "discard");
  /* the texture window's question, when it asks too */
  ui_spin_ms (200);
  if (ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG) != NULL)
    gtk_widget_activate_action (ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG), "dialog.response", "s", "discard");
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));
  wait_store (store);
  g_assert_cmpuint (drafts_holding (store, NULL), ==, 0);
}

static gboolean
message_shown (gpointer data)
{
  return _mat_dialogs_get_n_shown () > 0;
}

/* A draft of a model archive, which no window of this version shows:
 * Restore says so and keeps the draft (in the list and on disk) instead
 * of dropping it. */
static void
test_models_kept (void)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "models", NULL);
  g_autofree char *path = g_build_filename (dir, "land.rlb", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  MatDraftStore *store = drafts ();
  g_autoptr(MatDraftStore) ended = mat_draft_store_new (mat_draft_store_get_folder (store));
  g_autoptr(MatModelArchive) archive = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  static const char wear[] = "1\r\n0 GRASS\r\n";
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GListModel) left = NULL;
  const MatDialogRequest *request;
  MatDraftsDialog *dialog;
  GListModel *offered;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  {
    NresOutEntry out = { -1, { 0 }, NULL };
    g_autoptr(GBytes) bytes = NULL;

    out.entry.type_id = NRES_TYPE_WEAR;
    g_assert_true (nres_entry_set_name (&out.entry, "Land1.wea", NULL));
    out.payload = g_bytes_new_static (wear, sizeof wear - 1);
    bytes = nres_write_repack (NULL, &out, 1, &error);
    g_assert_no_error (error);
    g_bytes_unref (out.payload);
    write_bytes (path, bytes);
  }
  archive = mat_model_archive_load (file, NULL, &error);
  g_assert_no_error (error);
  mat_draft_store_track (ended, MAT_DRAFTABLE (archive), NULL);
  g_assert_true (mat_model_archive_set_wear (archive, mat_model_archive_get_model (archive, 0), 0,
                                             "ROCK_WALL", &error));
  g_assert_no_error (error);
  edited = save_bytes (MAT_DRAFTABLE (archive));
  g_assert_true (mat_draft_store_flush_sync (ended, TRUE, &error));
  g_assert_no_error (error);
  g_clear_object (&ended);
  g_clear_object (&archive);

  /* the application offers drafts once, at the start: a dialog of our own */
  mat_draft_store_find_left_async (store, NULL, result_cb, &result);
  g_assert_true (ui_wait_for (have_result, &result, WAIT_SECONDS));
  left = mat_draft_store_find_left_finish (store, result, &error);
  g_assert_no_error (error);
  dialog = mat_drafts_dialog_present (app, NULL, left);
  g_assert_true (ui_wait_for (ui_widget_is_shown, dialog, WAIT_SECONDS));
  offered = mat_drafts_dialog_get_drafts (dialog);
  g_assert_cmpuint (g_list_model_get_n_items (offered), ==, 1);
  id = offered_id (offered, file, MAT_DRAFT_KIND_MODELS);

  mat_drafts_dialog_restore (dialog, id);
  g_assert_true (ui_wait_for (message_shown, NULL, WAIT_SECONDS));
  request = _mat_dialogs_get_shown ();
  g_assert_cmpint (request->type, ==, GTK_MESSAGE_ERROR);
  g_test_message ("%s: %s", request->heading, request->body);
  _mat_dialogs_answer (0);
  g_assert_cmpuint (g_list_model_get_n_items (offered), ==, 1);
  g_assert_cmpuint (drafts_holding (store, edited), ==, 1);

  /* discarded on purpose, it goes (and the dialog with the last row) */
  mat_drafts_dialog_discard (dialog, id);
  wait_store (store);
  g_assert_cmpuint (drafts_holding (store, edited), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  tmp_dir = g_dir_make_tmp ("test-drafts-ui-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  {
    g_autofree char *data = g_build_filename (tmp_dir, "data", NULL);

    /* before anything asks GLib for the user's folders */
    g_mkdir_with_parents (data, 0700);
    g_setenv ("XDG_DATA_HOME", data, TRUE);
  }
  setlocale (LC_ALL, "");
  mat_application_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_test_init (&argc, &argv, NULL);

  app = mat_application_new (APPLICATION_ID ".TestDrafts", G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/drafts/prompt-discard", test_prompt_discard);
  g_test_add_func ("/ui/drafts/undo-and-save", test_undo_and_save);
  g_test_add_func ("/ui/drafts/offered", test_offered);
  g_test_add_func ("/ui/drafts/models-kept", test_models_kept);

  status = g_test_run ();
  {
    g_autofree char *command = g_strdup_printf ("rm -rf '%s'", tmp_dir);

    g_assert_cmpint (system (command), ==, 0);
  }
  return status;
}
