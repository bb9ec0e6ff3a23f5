/* test-window.c - the application window driven as a user would, under Xvfb */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "mat0-validate.h"
#include "mat-application.h"
#include "mat-block-editor.h"
#include "mat-compare-window.h"
#include "mat-compare-view-private.h"
#include "mat-drop-down.h"
#include "mat-preview-private.h"
#include "mat-timeline.h"
#include "mat-material-row.h"
#include "mat-name-dialog.h"
#include "mat-phase-table.h"
#include "mat-texture-picker.h"
#include "mat-tooltip.h"
#include "mat-flags-inspector.h"
#include "mat-meta-editor.h"
#include "mat-unsaved-dialog.h"
#include "mat-window.h"
#include "mat-dialogs-private.h"
#include "mat-file-private.h"
#include "ui-support.h"

#include <gdk/x11/gdkx.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#define WAIT_SECONDS 20

static MatApplication *app;
static char *tmp_dir;

/* Helpers */

static GBytes *
file_bytes (GFile *file)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_file_load_contents (file, NULL, &contents, &length, NULL, &error);
  g_assert_no_error (error);

  return g_bytes_new_take (contents, length);
}

static void
write_file (GFile  *file,
            GBytes *bytes)
{
  g_autoptr(GError) error = NULL;

  g_file_replace_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                           NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
}

/* A fresh file @name in the test's temporary folder holding @bytes. */
static GFile *
temp_file (const char *name,
           GBytes     *bytes)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  GFile *file = g_file_new_for_path (path);

  write_file (file, bytes);
  return file;
}

static gboolean
not_busy (gpointer data)
{
  return !mat_window_get_busy (MAT_WINDOW (data));
}

static MatWindow *
open_window (GFile *file)
{
  MatWindow *window = mat_window_new (app);

  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));

  return window;
}

static void
close_window (MatWindow *window)
{
  ui_close_window (GTK_WINDOW (window));
}

static gpointer
template_child (MatWindow  *window,
                const char *name)
{
  return ui_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW, name);
}

static guint
position_of (MatWindow   *window,
             MatMaterial *material)
{
  GListModel *rows = G_LIST_MODEL (mat_window_get_selection (window));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(MatMaterial) item = g_list_model_get_item (rows, i);

      if (item == material)
        return i;
    }

  g_assert_not_reached ();
  return 0;
}

static MatMaterial *
select_by_name (MatWindow  *window,
                const char *name)
{
  MatMaterial *material = mat_library_find (mat_window_get_library (window), name);

  g_assert_nonnull (material);
  gtk_selection_model_select_item (mat_window_get_selection (window),
                                   position_of (window, material), TRUE);
  g_assert_true (mat_window_get_selected_material (window) == material);

  return material;
}

/* Changes p[4] of phase 0 of @material by one, as a view does. */
static void
edit_one_param (MatMaterial *material)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (material), 0);
  guint8 value = mat_phase_get_param (phase, 4);

  g_assert_true (mat_phase_set_param (phase, 4, (guint8) (value ^ 1), &error));
  g_assert_no_error (error);
}

static gboolean
unsaved_dialog_shown (gpointer data)
{
  return ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG) != NULL;
}

static gboolean
window_is_toplevel (MatWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (item == G_OBJECT (window))
        return TRUE;
    }

  return FALSE;
}

/* The dialogs the window asks through (mat-dialogs-private.h): the same
 * on every GTK version; on GTK 4.8 each is a real GtkMessageDialog, which
 * the helpers answer through its own response. */

static gboolean
dialog_shown (gpointer data)
{
  return _mat_dialogs_get_n_shown () > 0;
}

static gboolean
no_dialog_shown (gpointer data)
{
  return _mat_dialogs_get_n_shown () == 0;
}

/* Waits for a dialog of @kind. Returns: (transfer none): what it asks. */
static const MatDialogRequest *
wait_dialog (MatDialogKind kind)
{
  const MatDialogRequest *request;

  g_assert_true (ui_wait_for (dialog_shown, NULL, WAIT_SECONDS));
  request = _mat_dialogs_get_shown ();
  g_assert_nonnull (request);
  g_assert_cmpint (request->kind, ==, kind);
#if !GTK_CHECK_VERSION (4, 10, 0)
  if (kind == MAT_DIALOG_MESSAGE || kind == MAT_DIALOG_CHOICE)
    {
      g_autofree char *text = NULL;
      g_autofree char *secondary = NULL;

      /* the real dialog says the same */
      g_assert_true (GTK_IS_MESSAGE_DIALOG (request->window));
      g_assert_true (gtk_widget_get_visible (GTK_WIDGET (request->window)));
      g_object_get (request->window, "text", &text, "secondary-text", &secondary, NULL);
      g_assert_cmpstr (text, ==, request->heading);
      g_assert_cmpstr (secondary, ==, request->body);
    }
#endif
  return request;
}

/* Answers the newest dialog with button @choice (-1: closed) and lets
 * the answer arrive. */
static void
answer_dialog (int choice)
{
  guint before = _mat_dialogs_get_n_shown ();

  g_assert_cmpuint (before, >, 0);
#if !GTK_CHECK_VERSION (4, 10, 0)
  {
    const MatDialogRequest *request = _mat_dialogs_get_shown ();

    /* its buttons' responses are their indices; a message has Close */
    if (request->kind == MAT_DIALOG_MESSAGE)
      gtk_dialog_response (GTK_DIALOG (request->window), GTK_RESPONSE_CLOSE);
    else if (request->window != NULL)
      gtk_dialog_response (GTK_DIALOG (request->window),
                           choice >= 0 ? choice : GTK_RESPONSE_DELETE_EVENT);
    else
      _mat_dialogs_answer (choice);
  }
#else
  _mat_dialogs_answer (choice);
#endif
  g_assert_cmpuint (_mat_dialogs_get_n_shown (), ==, before - 1);
  ui_pump ();
}

/* Tests */

static void
test_open (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("open.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  GtkLabel *title = template_child (window, "title_label");
  GtkLabel *count = template_child (window, "count_label");
  g_autofree char *expected = NULL;
  guint n;

  g_assert_nonnull (library);
  g_assert_null (mat_window_get_load_error (window));
  g_assert_true (g_file_equal (mat_window_get_file (window), file));
  n = g_list_model_get_n_items (G_LIST_MODEL (library));
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_selection (window))), ==, n);
  g_assert_cmpstr (gtk_label_get_label (title), ==, "open.lib");
  expected = g_strdup_printf ("%u materials, ", n);
  g_assert_true (g_str_has_prefix (gtk_label_get_label (count), expected));
  g_assert_true (g_str_has_suffix (gtk_label_get_label (count), "lints") ||
                 g_str_has_suffix (gtk_label_get_label (count), "lint"));

  /* Autoselected first row, shown in the pages. */
  g_assert_nonnull (mat_window_get_selected_material (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (template_child (window, "main_stack")), ==,
                   "material");

  close_window (window);
}

static void
test_select (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("select.lib", original);
  MatWindow *window = open_window (file);
  MatMaterial *material = select_by_name (window, "GLOW_PULSE");
  GtkLabel *name = template_child (window, "material_name_label");

  g_assert_true (mat_phase_table_get_material (template_child (window, "phase_table")) == material);
  /* the Flags page is made when first shown */
  gtk_stack_set_visible_child_name (template_child (window, "material_stack"), "flags");
  g_assert_true (mat_flags_inspector_get_material (MAT_FLAGS_INSPECTOR (ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_FLAGS_INSPECTOR))) == material);
  g_assert_true (mat_meta_editor_get_material (MAT_META_EDITOR (ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_META_EDITOR))) == material);
  g_assert_cmpstr (gtk_label_get_label (name), ==, "GLOW_PULSE");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (template_child (window, "main_stack")), ==,
                   "material");

  close_window (window);
}

static void
test_undo_redo (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("undo.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  GtkWidget *undo_button = template_child (window, "undo_button");
  GtkWidget *redo_button = template_child (window, "redo_button");
  GtkLabel *title = template_child (window, "title_label");
  MatMaterial *material = select_by_name (window, "METAL_PLATE");
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) after_undo = NULL;
  g_autoptr(GBytes) after_redo = NULL;

  g_assert_false (gtk_widget_get_sensitive (undo_button));
  g_assert_false (gtk_widget_get_sensitive (redo_button));

  edit_one_param (material);
  g_assert_true (mat_library_get_dirty (library));
  g_assert_cmpstr (gtk_label_get_label (title), ==, "undo.lib •");
  g_assert_true (gtk_widget_get_sensitive (undo_button));
  g_assert_false (gtk_widget_get_sensitive (redo_button));
  edited = ui_library_save (mat_window_get_library (window));
  g_assert_cmpuint (ui_count_byte_differences (original, edited, NULL), ==, 1);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  after_undo = ui_library_save (mat_window_get_library (window));
  g_assert_true (g_bytes_equal (after_undo, original));
  g_assert_false (mat_library_get_dirty (library));
  g_assert_cmpstr (gtk_label_get_label (title), ==, "undo.lib");
  g_assert_false (gtk_widget_get_sensitive (undo_button));
  g_assert_true (gtk_widget_get_sensitive (redo_button));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  after_redo = ui_library_save (mat_window_get_library (window));
  g_assert_true (g_bytes_equal (after_redo, edited));
  g_assert_true (gtk_widget_get_sensitive (undo_button));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_false (mat_library_get_dirty (library));

  close_window (window);
}

static void
test_save (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("save.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  GtkLabel *title = template_child (window, "title_label");
  g_autoptr(GBytes) on_disk = NULL;
  g_autoptr(GBytes) edited = NULL;
  gsize first = 0;
  MatMaterial *material;

  /* Unchanged: byte-identical. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_true (mat_window_get_busy (window));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  on_disk = file_bytes (file);
  g_assert_true (g_bytes_equal (on_disk, original));
  g_clear_pointer (&on_disk, g_bytes_unref);

  /* One parameter: one byte differs, the one of that parameter. */
  material = select_by_name (window, "ROCK_WALL");
  edit_one_param (material);
  g_assert_cmpstr (gtk_label_get_label (title), ==, "save.lib •");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_false (mat_library_get_dirty (library));
  g_assert_cmpstr (gtk_label_get_label (title), ==, "save.lib");
  on_disk = file_bytes (file);
  g_assert_cmpuint (ui_count_byte_differences (original, on_disk, &first), ==, 1);
  edited = ui_library_save (mat_window_get_library (window));
  g_assert_true (g_bytes_equal (edited, on_disk));
  g_test_message ("the edit changed byte %" G_GSIZE_FORMAT, first);

  /* Undo after save makes it dirty again, and saving restores the file. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_true (mat_library_get_dirty (library));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_clear_pointer (&on_disk, g_bytes_unref);
  on_disk = file_bytes (file);
  g_assert_true (g_bytes_equal (on_disk, original));

  /* Our own saves never raise the "changed on disk" banner. */
  ui_spin_ms (1500);
  g_assert_false (gtk_revealer_get_reveal_child (template_child (window, "changed_revealer")));

  close_window (window);
}

static gboolean
banner_shown (gpointer data)
{
  return gtk_revealer_get_reveal_child (template_child (MAT_WINDOW (data), "changed_revealer"));
}

static void
test_changed_on_disk (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("changed.lib", original);
  MatWindow *window = open_window (file);
  g_autoptr(GBytes) other = NULL;
  g_autoptr(GBytes) ours = NULL;
  g_autoptr(GBytes) on_disk = NULL;
  GByteArray *array;

  /* Another program rewrites the file (a byte of the first payload). */
  array = g_byte_array_new ();
  g_byte_array_append (array, g_bytes_get_data (original, NULL), g_bytes_get_size (original));
  array->data[16] ^= 0x01;
  other = g_byte_array_free_to_bytes (array);
  ui_spin_ms (50);
  write_file (file, other);
  g_assert_true (ui_wait_for (banner_shown, window, WAIT_SECONDS));

  edit_one_param (select_by_name (window, "METAL_PLATE"));
  ours = ui_library_save (mat_window_get_library (window));

  {
    MatLibrary *library = mat_window_get_library (window);
    const MatDialogRequest *request;

    /* Save: refused by the ETag, the dialog asks; Cancel leaves the file. */
    gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
    request = wait_dialog (MAT_DIALOG_CHOICE);
    g_assert_cmpstr (request->heading, ==, "The File Changed on Disk");
    g_assert_cmpstr (request->buttons[0], ==, "_Cancel");
    g_assert_cmpstr (request->buttons[1], ==, "_Reload");
    g_assert_cmpstr (request->buttons[2], ==, "_Overwrite");
    g_assert_cmpint (request->cancel_button, ==, 0);
    g_assert_cmpint (request->destructive_button, ==, 2);
    g_assert_true (request->parent == GTK_WINDOW (window));
    answer_dialog (-1);
    ui_spin_ms (50);
    on_disk = file_bytes (file);
    g_assert_true (g_bytes_equal (on_disk, other));
    g_assert_true (mat_library_get_dirty (library));
    g_clear_pointer (&on_disk, g_bytes_unref);

    /* Overwrite: our version replaces theirs. */
    gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
    wait_dialog (MAT_DIALOG_CHOICE);
    answer_dialog (2);
    ui_spin_ms (50);
    g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
    on_disk = file_bytes (file);
    g_assert_true (g_bytes_equal (on_disk, ours));
    g_assert_false (mat_library_get_dirty (library));
    g_assert_true (g_file_equal (mat_library_get_file (library), file));
  }

  /* Reload takes what is on disk. */
  write_file (file, other);
  g_assert_true (ui_wait_for (banner_shown, window, WAIT_SECONDS));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL);
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_clear_pointer (&ours, g_bytes_unref);
  ours = ui_library_save (mat_window_get_library (window));
  g_assert_true (g_bytes_equal (ours, other));
  g_assert_cmpstr (mat_material_get_name (mat_window_get_selected_material (window)), ==,
                   "METAL_PLATE");

  close_window (window);
}

static void
test_close_prompt (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("close.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  MatUnsavedDialog *dialog;
  gpointer weak = window;
  g_autoptr(GBytes) on_disk = NULL;
  g_autoptr(GBytes) ours = NULL;

  /* A clean window closes without asking: tested at the end. Dirty: */
  edit_one_param (select_by_name (window, "DEFAULT"));
  ours = ui_library_save (mat_window_get_library (window));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.close", NULL);
  g_assert_true (ui_wait_for (unsaved_dialog_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  ui_screenshot (GTK_WIDGET (dialog), "unsaved-prompt.png");

  /* Cancel: the window stays, with its edits. */
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.response", "s", "cancel");
  ui_spin_ms (50);
  g_assert_null (ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG));
  g_assert_true (window_is_toplevel (window));
  g_assert_true (mat_library_get_dirty (library));

  /* Closing the dialog itself is Cancel too. */
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (unsaved_dialog_shown, NULL, WAIT_SECONDS));
  gtk_window_close (ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG));
  ui_spin_ms (50);
  g_assert_true (window_is_toplevel (window));

  /* Save: writes the file, then closes. */
  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (unsaved_dialog_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG);
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.response", "s", "save");
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));
  on_disk = file_bytes (file);
  g_assert_true (g_bytes_equal (on_disk, ours));

  /* Discard: closes and leaves the file as it was. */
  window = open_window (file);
  weak = window;
  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  edit_one_param (select_by_name (window, "DEFAULT"));
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (unsaved_dialog_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG);
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.response", "s", "discard");
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));
  g_clear_pointer (&on_disk, g_bytes_unref);
  on_disk = file_bytes (file);
  g_assert_true (g_bytes_equal (on_disk, ours));

  /* Clean: closes at once. */
  window = open_window (file);
  weak = window;
  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));
  g_assert_null (ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG));
}

typedef struct {
  MatWindow *window;
  guint      n_rows;
} RowsWait;

static gboolean
rows_are (gpointer data)
{
  RowsWait *wait = data;

  return g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_selection (wait->window))) == wait->n_rows;
}

static guint
count_matching (MatLibrary *library,
                const char *needle)
{
  g_autofree char *folded_needle = g_utf8_casefold (needle, -1);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (library)); i++)
    {
      g_autofree char *folded = g_utf8_casefold (mat_material_get_name (mat_library_get_material (library, i)), -1);

      if (strstr (folded, folded_needle) != NULL)
        n++;
    }

  return n;
}

static gboolean
page_shows_glow_pulse (gpointer data)
{
  return g_strcmp0 (gtk_label_get_label (template_child (data, "material_name_label")),
                    "GLOW_PULSE") == 0;
}

static void
test_search (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("search.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  GtkEditable *entry = template_child (window, "search_entry");
  GtkLabel *fallback = template_child (window, "fallback_label");
  GtkLabel *count = template_child (window, "count_label");
  guint total = g_list_model_get_n_items (G_LIST_MODEL (library));
  GtkWidget *sidebar = template_child (window, "sidebar");
  int sidebar_width = gtk_widget_get_width (sidebar);
  RowsWait wait = { window, 0 };

  /* Case-insensitive substring. */
  wait.n_rows = count_matching (library, "gLoW");
  g_assert_cmpuint (wait.n_rows, >, 0);
  g_assert_cmpuint (wait.n_rows, <, total);
  gtk_editable_set_text (entry, "gLoW");
  g_assert_true (ui_wait_for (rows_are, &wait, WAIT_SECONDS));
  g_assert_true (g_str_has_prefix (gtk_label_get_label (count),
                                   g_strdup_printf ("%u of %u materials", wait.n_rows, total)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fallback)));
  g_assert_nonnull (strstr (gtk_label_get_label (fallback), "DEFAULT"));
  ui_screenshot (GTK_WIDGET (window), "search.png");

  /* Exact name. The selection moves to it at once; the material page
   * follows once the list's frame is out. */
  gtk_editable_set_text (entry, "");
  g_signal_emit_by_name (entry, "search-changed");
  select_by_name (window, "DEFAULT");
  g_assert_cmpstr (gtk_label_get_label (template_child (window, "material_name_label")), ==,
                   "DEFAULT");
  gtk_editable_set_text (entry, "glow_pulse");
  g_signal_emit_by_name (entry, "search-changed");
  wait.n_rows = count_matching (library, "glow_pulse");
  g_assert_true (rows_are (&wait));
  g_assert_cmpstr (mat_material_get_name (mat_window_get_selected_material (window)), ==,
                   "GLOW_PULSE");
  g_assert_cmpstr (gtk_label_get_label (template_child (window, "material_name_label")), ==,
                   "DEFAULT");
  g_assert_true (ui_wait_for (page_shows_glow_pulse, window, WAIT_SECONDS));
  g_assert_nonnull (strstr (gtk_label_get_label (fallback), "exact"));
  g_assert_nonnull (strstr (gtk_label_get_label (fallback), "GLOW_PULSE"));

  /* Nothing matches: the game falls back to DEFAULT; Enter selects it. */
  gtk_editable_set_text (entry, "NO_SUCH_MATERIAL");
  wait.n_rows = 0;
  g_assert_true (ui_wait_for (rows_are, &wait, WAIT_SECONDS));
  g_assert_nonnull (strstr (gtk_label_get_label (fallback), "DEFAULT"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (template_child (window, "list_stack")), ==,
                   "no-results");
  /* the page it shows sizes the stack: the sidebar keeps its width */
  ui_spin_ms (100);
  g_assert_cmpint (gtk_widget_get_width (sidebar), ==, sidebar_width);
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_selection (window))), ==, total);
  g_assert_cmpstr (mat_material_get_name (mat_window_get_selected_material (window)), ==, "DEFAULT");

  close_window (window);
}

/* The badges of @row, in order: animated, textured, flags, lint, error;
 * %NULL for one the row has never shown (a badge is made when first
 * shown). They follow the texts, in that order. */
static void
row_badges (GtkWidget *row,
            GtkWidget *badges[5])
{
  static const char * const names[] = {
    "animated-badge", "textured-badge", "flags-badge", "lint-badge", "error-badge",
  };
  guint next = 0;

  memset (badges, 0, 5 * sizeof (GtkWidget *));
  for (GtkWidget *child = gtk_widget_get_next_sibling (gtk_widget_get_first_child (row));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      guint b = next;

      while (b < 5 && g_strcmp0 (gtk_widget_get_name (child), names[b]) != 0)
        b++;
      g_assert_cmpuint (b, <, 5);   /* a badge, after those before it */
      badges[b] = child;
      next = b + 1;
    }
}

static gboolean
badge_shown (GtkWidget *badge)
{
  return badge != NULL && gtk_widget_get_visible (badge);
}

static char *
first_lint (MatMaterial *material)
{
  g_autoptr(GPtrArray) diags = mat_material_dup_diagnostics (material);

  for (guint i = 0; i < diags->len; i++)
    {
      Mat0Diagnostic *diag = g_ptr_array_index (diags, i);

      if (diag->severity == MAT0_SEVERITY_LINT)
        return g_strdup (diag->message);
    }
  return NULL;
}

/* Every row shown says what its material is: name, counts, and the
 * badges with their tooltips, which are made when asked for. */
static void
check_rows (MatWindow *window)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  guint n_lint = 0, n_flags = 0, n_animated = 0, n_textured = 0;

  ui_spin_ms (100);
  ui_collect_by_type (GTK_WIDGET (template_child (window, "list_view")), MAT_TYPE_MATERIAL_ROW, rows);
  g_assert_cmpuint (rows->len, >=, 10);

  for (guint i = 0; i < rows->len; i++)
    {
      MatMaterialRow *row = g_ptr_array_index (rows, i);
      MatMaterial *material = mat_material_row_get_material (row);
      g_autofree char *lint = NULL;
      g_autofree char *tip = NULL;
      g_autofree char *flags = NULL;
      GtkWidget *badges[5];
      GtkWidget *text;

      if (material == NULL)
        continue;
      row_badges (GTK_WIDGET (row), badges);
      text = gtk_widget_get_first_child (GTK_WIDGET (row));
      g_assert_cmpstr (gtk_inscription_get_text (GTK_INSCRIPTION (gtk_widget_get_first_child (text))), ==,
                       mat_material_get_name (material));
      for (guint b = 0; b < 5; b++)
        g_assert_true (badges[b] == NULL || gtk_widget_get_has_tooltip (badges[b]));
      /* the icons are drawn by the style sheet (mat-style.h) */
      g_assert_null (ui_find_by_type (GTK_WIDGET (row), GTK_TYPE_IMAGE));
      for (guint b = 0; b < 5; b++)
        if (b != 2 && badges[b] != NULL)
          g_assert_true (gtk_widget_has_css_class (badges[b], "mat-icon"));

      g_assert_cmpint (badge_shown (badges[0]), ==, mat_material_get_animated (material));
      g_assert_cmpint (badge_shown (badges[1]), ==, mat_material_get_textured (material));
      n_animated += mat_material_get_animated (material);
      n_textured += mat_material_get_textured (material);

      g_assert_cmpint (badge_shown (badges[2]), ==, mat_material_get_attr1 (material) != 0);
      if (badges[2] != NULL)
        {
          flags = g_strdup_printf ("%02X", mat_material_get_attr1 (material));
          if (mat_material_get_attr1 (material) != 0)
            g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (badges[2])), ==, flags);
          tip = mat_material_row_dup_badge_tooltip (row, badges[2]);
          g_free (flags);
          flags = g_strdup_printf ("0x%08X", mat_material_get_attr1 (material));
          g_assert_nonnull (strstr (tip, flags));
          g_clear_pointer (&tip, g_free);
        }
      n_flags += mat_material_get_attr1 (material) != 0;

      lint = first_lint (material);
      g_assert_cmpint (badge_shown (badges[3]), ==, lint != NULL);
      if (badges[3] != NULL)
        {
          tip = mat_material_row_dup_badge_tooltip (row, badges[3]);
          if (lint != NULL)
            g_assert_true (g_str_has_prefix (tip, lint));
          else
            g_assert_null (tip);
          g_clear_pointer (&tip, g_free);
        }
      n_lint += lint != NULL;

      /* no material of the demo fails to decode: no row has made one */
      g_assert_null (badges[4]);
      if (badges[0] != NULL)
        {
          tip = mat_material_row_dup_badge_tooltip (row, badges[0]);
          g_assert_cmpstr (tip, ==, "Animated: a block with two or more keys");
        }
    }
  /* the demo has some of each */
  g_assert_cmpuint (n_lint, >, 0);
  g_assert_cmpuint (n_flags, >, 0);
  g_assert_cmpuint (n_animated, >, 0);
  g_assert_cmpuint (n_textured, >, 0);
}

static void
test_rows (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("rows.lib", original);
  MatWindow *window = open_window (file);
  GtkEditable *entry = template_child (window, "search_entry");

  check_rows (window);

  /* rows the list let go of come back for other materials: a search and
   * its end leave every row saying what its new material is */
  gtk_editable_set_text (entry, "_");
  g_signal_emit_by_name (entry, "search-changed");
  ui_spin_ms (50);
  gtk_editable_set_text (entry, "");
  g_signal_emit_by_name (entry, "search-changed");
  check_rows (window);

  close_window (window);
}

static GtkDropTarget *
find_drop_target (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }
  return NULL;
}

typedef struct {
  GFile *file;
} FileWait;

static gboolean
file_window_loaded (gpointer data)
{
  FileWait *wait = data;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (MAT_IS_WINDOW (l->data) && mat_window_get_file (l->data) != NULL &&
        g_file_equal (mat_window_get_file (l->data), wait->file) &&
        mat_window_get_library (l->data) != NULL)
      return TRUE;
  return FALSE;
}

static MatWindow *
window_for (GFile *file)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (MAT_IS_WINDOW (l->data) && mat_window_get_file (l->data) != NULL &&
        g_file_equal (mat_window_get_file (l->data), file))
      return l->data;
  return NULL;
}

/* Files dropped on a window holding the untouched demo: the first opens
 * in it, the next in a window of its own; anything else is refused. */
static void
test_drop_files (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) first = temp_file ("dropped-1.lib", original);
  g_autoptr(GFile) second = temp_file ("dropped-2.lib", original);
  GFile *files[] = { first, second };
  g_auto(GValue) value = G_VALUE_INIT;
  g_auto(GValue) text = G_VALUE_INIT;
  g_autoptr(GFile) demo = temp_file ("drop-demo.lib", original);
  MatWindow *window = mat_window_new (app);
  GtkDropTarget *target;
  FileWait wait = { NULL };
  gboolean accepted = FALSE;

  /* a window showing the demo, as the application opens it */
  mat_window_open (window, demo, TRUE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_true (mat_window_get_replaceable (window));

  target = find_drop_target (GTK_WIDGET (window));
  g_assert_nonnull (target);
  g_assert_true (gdk_content_formats_contain_gtype (gtk_drop_target_get_formats (target),
                                                    GDK_TYPE_FILE_LIST));

  /* not files: refused, nothing opens */
  g_value_init (&text, G_TYPE_STRING);
  g_value_set_string (&text, "Material.lib");
  g_signal_emit_by_name (target, "drop", &text, 10.0, 10.0, &accepted);
  g_assert_false (accepted);

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_array (files, G_N_ELEMENTS (files)));
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_assert_true (accepted);

  wait.file = first;
  g_assert_true (ui_wait_for (file_window_loaded, &wait, WAIT_SECONDS));
  wait.file = second;
  g_assert_true (ui_wait_for (file_window_loaded, &wait, WAIT_SECONDS));
  g_assert_true (window_for (first) == window);
  g_assert_true (window_for (second) != window);

  close_window (window_for (second));
  close_window (window);
}

static void
test_sort (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("sort.lib", original);
  MatWindow *window = open_window (file);
  GListModel *rows = G_LIST_MODEL (mat_window_get_selection (window));
  MatDropDown *sort = template_child (window, "sort_dropdown");
  MatMaterial *selected = select_by_name (window, "GLOW_PULSE");
  guint n = g_list_model_get_n_items (rows);

  mat_drop_down_set_selected (sort, 1);
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(MatMaterial) a = g_list_model_get_item (rows, i - 1);
      g_autoptr(MatMaterial) b = g_list_model_get_item (rows, i);
      g_autofree char *fa = g_utf8_casefold (mat_material_get_name (a), -1);
      g_autofree char *fb = g_utf8_casefold (mat_material_get_name (b), -1);

      g_assert_cmpint (g_utf8_collate (fa, fb), <=, 0);
    }
  g_assert_true (mat_window_get_selected_material (window) == selected);

  mat_drop_down_set_selected (sort, 2);
  for (guint i = 1; i < n; i++)
    {
      g_autoptr(MatMaterial) a = g_list_model_get_item (rows, i - 1);
      g_autoptr(MatMaterial) b = g_list_model_get_item (rows, i);

      g_assert_cmpuint (mat_material_get_n_phases (a), >=, mat_material_get_n_phases (b));
    }

  mat_drop_down_set_selected (sort, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(MatMaterial) a = g_list_model_get_item (rows, i);

      g_assert_true (a == mat_library_get_material (mat_window_get_library (window), i));
    }

  close_window (window);
}

static void
test_bad_library (void)
{
  static const guint8 junk[] = "NRes\x00\x01\x00\x00\x05\x00\x00\x00\x40\x00\x00\x00 not a library";
  g_autoptr(GBytes) bytes = g_bytes_new_static (junk, sizeof junk - 1);
  g_autoptr(GFile) file = temp_file ("broken.lib", bytes);
  MatWindow *window = open_window (file);
  GtkLabel *label = template_child (window, "library_error_label");
  g_autoptr(GBytes) after = NULL;

  g_assert_null (mat_window_get_library (window));
  g_assert_nonnull (mat_window_get_load_error (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (template_child (window, "main_stack")), ==,
                   "library-error");
  g_assert_cmpstr (gtk_label_get_label (label), ==, mat_window_get_load_error (window));
  g_test_message ("load error: %s", mat_window_get_load_error (window));

  /* Nothing to save, undo or edit; nothing written. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.new-material", NULL);
  ui_spin_ms (50);
  g_assert_null (ui_find_toplevel (MAT_TYPE_NAME_DIALOG));
  after = file_bytes (file);
  g_assert_true (g_bytes_equal (after, bytes));
  g_assert_true (mat_window_get_replaceable (window));
  ui_screenshot (GTK_WIDGET (window), "library-error.png");

  close_window (window);
}

/* The demo library with the animBlockCount of entry @index set to 25. */
static GBytes *
demo_with_broken_entry (guint index)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  GByteArray *array = g_byte_array_new ();
  guint32 n, total, dir, offset;

  g_byte_array_append (array, g_bytes_get_data (original, NULL), g_bytes_get_size (original));
  memcpy (&n, array->data + 8, 4);
  memcpy (&total, array->data + 12, 4);
  n = GUINT32_FROM_LE (n);
  total = GUINT32_FROM_LE (total);
  g_assert_cmpuint (index, <, n);
  dir = total - n * 64;
  memcpy (&offset, array->data + dir + index * 64 + 56, 4);
  offset = GUINT32_FROM_LE (offset);
  array->data[offset + 2] = 25;
  array->data[offset + 3] = 0;

  return g_byte_array_free_to_bytes (array);
}

static void
test_bad_material (void)
{
  g_autoptr(GBytes) bytes = demo_with_broken_entry (1);
  g_autoptr(GFile) file = temp_file ("broken-entry.lib", bytes);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  MatMaterial *broken = mat_library_get_material (library, 1);
  GtkLabel *label = template_child (window, "entry_error_label");
  GtkListView *lints = template_child (window, "lint_list");
  GListModel *lint_rows;
  g_autoptr(GBytes) saved = NULL;
  guint error_row = G_MAXUINT;

  g_assert_nonnull (library);
  g_assert_nonnull (mat_material_get_error (broken));
  gtk_selection_model_select_item (mat_window_get_selection (window), 1, TRUE);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (template_child (window, "main_stack")), ==,
                   "entry-error");
  g_assert_cmpstr (gtk_label_get_label (label), ==, mat_material_get_error (broken));
  g_assert_null (mat_phase_table_get_material (template_child (window, "phase_table")));
  g_test_message ("entry error: %s", mat_material_get_error (broken));
  ui_screenshot (GTK_WIDGET (window), "entry-error.png");

  /* The problems panel lists the error; activating it selects the entry. */
  gtk_selection_model_select_item (mat_window_get_selection (window), 0, TRUE);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-lints", NULL);
  g_assert_true (gtk_revealer_get_reveal_child (template_child (window, "lint_revealer")));
  lint_rows = G_LIST_MODEL (gtk_list_view_get_model (lints));
  for (guint i = 0; i < g_list_model_get_n_items (lint_rows); i++)
    {
      g_autoptr(GtkStringObject) row = g_list_model_get_item (lint_rows, i);

      if (strcmp (gtk_string_object_get_string (row), mat_material_get_error (broken)) == 0)
        error_row = i;
    }
  g_assert_cmpuint (error_row, !=, G_MAXUINT);
  g_signal_emit_by_name (lints, "activate", error_row);
  g_assert_true (mat_window_get_selected_material (window) == broken);

  /* Nothing was modified: saving writes the file back as it was. */
  saved = ui_library_save (mat_window_get_library (window));
  g_assert_true (g_bytes_equal (saved, bytes));
  g_assert_false (mat_library_get_dirty (library));

  close_window (window);
}

static void
note_visible_at_tooltip (GtkWidget  *widget,
                         GParamSpec *pspec,
                         gboolean   *visible)
{
  *visible = gtk_widget_get_visible (widget);
}

/* A tooltip set before its widget is on screen is set while the widget
 * is hidden for that moment, so GTK does not ask the X server where the
 * pointer is (four round trips each); one on screen is set as GTK sets
 * it; the widget stays visible, and one holding the focus keeps it. */
static void
test_tooltip_set (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *button = gtk_button_new_with_label ("Button");
  GtkWidget *entry = gtk_entry_new ();
  GtkWindow *window;
  GtkWidget *focus;
  gboolean visible = TRUE;

  gtk_box_append (GTK_BOX (box), button);
  gtk_box_append (GTK_BOX (box), entry);
  g_signal_connect (button, "notify::tooltip-text", G_CALLBACK (note_visible_at_tooltip), &visible);

  /* not on screen yet */
  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_child (window, box);
  mat_tooltip_set_text (button, "Before");
  g_assert_false (visible);
  g_assert_true (gtk_widget_get_visible (button));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "Before");
  g_assert_true (gtk_widget_get_has_tooltip (button));

  /* the same text again changes nothing */
  visible = TRUE;
  mat_tooltip_set_text (button, "Before");
  g_assert_true (visible);

  /* the widget with the focus keeps it */
  gtk_window_set_focus (window, entry);
  focus = gtk_window_get_focus (window);   /* the entry's text */
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, entry));
  mat_tooltip_set_text (entry, "Entry");
  g_assert_true (gtk_window_get_focus (window) == focus);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (entry), ==, "Entry");

  /* on screen: as GTK does it */
  gtk_window_present (window);
  g_assert_true (ui_wait_for (ui_widget_is_shown, button, WAIT_SECONDS));
  mat_tooltip_set_text (button, "After");
  g_assert_true (visible);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "After");

  /* an empty text is none */
  mat_tooltip_set_text (button, "");
  g_assert_null (gtk_widget_get_tooltip_text (button));
  g_assert_false (gtk_widget_get_has_tooltip (button));

  ui_close_window (window);
}

/* The start-up templates carry no tooltip-text: GtkBuilder would set it
 * on a visible widget, and GTK 4.8 then asks the X server where the
 * pointer is (four round trips, each tooltip). Their widgets get the
 * tooltips in code while off screen (mat_tooltip_init_template()). */
static void
test_template_tooltips (void)
{
  static const char *const templates[] = { "mat-window.ui", "mat-phase-table.ui", "mat-preview.ui" };
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("tooltips.lib", original);
  MatWindow *window = open_window (file);
  GtkWidget *table = template_child (window, "phase_table");
  GtkWidget *preview = template_child (window, "preview");
  const struct {
    GtkWidget  *parent;
    GType       type;
    const char *child;
    const char *tooltip;
  } expected[] = {
    { GTK_WIDGET (window), MAT_TYPE_WINDOW, "open_button", "Open a Material Library (Ctrl+O)" },
    { GTK_WIDGET (window), MAT_TYPE_WINDOW, "save_button", "Save the Library (Ctrl+S)" },
    { GTK_WIDGET (window), MAT_TYPE_WINDOW, "new_material_button", "New Material (Shift+Ctrl+N)" },
    { GTK_WIDGET (window), MAT_TYPE_WINDOW, "preview_toggle", "Hide the Preview (F9)" },
    { GTK_WIDGET (window), MAT_TYPE_WINDOW, "lint_hide_button", "Hide Problems" },
    { table, MAT_TYPE_PHASE_TABLE, "add_button", "Add a phase after the selected one (Alt+Insert)" },
    { table, MAT_TYPE_PHASE_TABLE, "move_down_button",
      "Move the selected phase down; keys follow it (Alt+Down)" },
    { preview, MAT_TYPE_PREVIEW, "play_button", "Play or pause the animation (Space)" },
    { preview, MAT_TYPE_PREVIEW, "speed_spin", "Playback speed, 0.25× to 4×" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (templates); i++)
    {
      g_autofree char *path = g_strconcat ("/io/github/parkan/MatEdit/", templates[i], NULL);
      g_autoptr(GBytes) ui = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
      gsize size;
      const char *text;

      g_assert_nonnull (ui);
      text = g_bytes_get_data (ui, &size);
      g_assert_null (g_strstr_len (text, (gssize) size, "tooltip-text"));
    }

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      GtkWidget *widget = ui_template_child (expected[i].parent, expected[i].type, expected[i].child);

      g_assert_cmpstr (gtk_widget_get_tooltip_text (widget), ==, expected[i].tooltip);
      g_assert_true (gtk_widget_get_visible (widget));
    }

  close_window (window);
}

static void click (GtkWidget *widget);

/* The stacks shown at start-up are sized by the page they show: a
 * homogeneous GtkStack measures every page, and the status pages behind
 * (a big icon and wrapped text each) cost a tenth of the first frame. */
static void
test_stacks_sized_by_page (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("stacks.lib", original);
  MatWindow *window = open_window (file);
  GtkWidget *preview = template_child (window, "preview");
  GtkStack *stacks[] = {
    template_child (window, "main_stack"),
    template_child (window, "list_stack"),
    template_child (window, "material_stack"),
    ui_template_child (preview, MAT_TYPE_PREVIEW, "view_stack"),
  };

  for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
    {
      g_assert_true (GTK_IS_STACK (stacks[i]));
      g_assert_false (gtk_stack_get_hhomogeneous (stacks[i]));
      g_assert_false (gtk_stack_get_vhomogeneous (stacks[i]));
    }

  close_window (window);
}

/* The wrapping labels beside other widgets in a row, or under the
 * side-by-side paned, are measured in one layout for a height
 * (mat-style.h): their natural width is the
 * text on one line whatever the height, and they wrap within a line
 * limit, so that GTK does not search for the width by bisection. That
 * they are read in full at the window's sizes is test-pane's. */
static void
test_wrapped_labels (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("labels.lib", original);
  MatWindow *window = open_window (file);
  GtkWidget *preview = template_child (window, "preview");
  GtkLabel *labels[] = {
    template_child (window, "material_info_label"),
    template_child (window, "count_label"),
    ui_template_child (template_child (window, "phase_table"), MAT_TYPE_PHASE_TABLE, "legend_label"),
    ui_template_child (preview, MAT_TYPE_PREVIEW, "time_label"),
    /* the preview's blend line is over the view: an overlay measures it
     * once, for its natural size, which its max-width-chars keeps narrow */
  };

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      int natural, natural_for_height, minimum;

      g_assert_true (gtk_label_get_wrap (labels[i]));
      g_assert_cmpint (gtk_label_get_natural_wrap_mode (labels[i]), ==, GTK_NATURAL_WRAP_NONE);
      g_assert_cmpint (gtk_label_get_ellipsize (labels[i]), ==, PANGO_ELLIPSIZE_END);
      g_assert_cmpint (gtk_label_get_lines (labels[i]), >=, 2);
      gtk_label_set_label (labels[i], "Entry 9 · version 6 · 3 phases · 1 animation block");
      gtk_widget_measure (GTK_WIDGET (labels[i]), GTK_ORIENTATION_HORIZONTAL, -1, &minimum,
                          &natural, NULL, NULL);
      gtk_widget_measure (GTK_WIDGET (labels[i]), GTK_ORIENTATION_HORIZONTAL, 40, NULL,
                          &natural_for_height, NULL, NULL);
      g_assert_cmpint (natural_for_height, ==, natural);
      g_assert_cmpint (minimum, <, natural);
    }

  close_window (window);
}

/* The pictures in @window's _NET_WM_ICON, the icon the X window manager
 * shows: each is its width, its height and its pixels. */
static guint
x_window_icons (GtkWindow *window)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (window));
  Display *xdisplay = gdk_x11_display_get_xdisplay (display);
  Window xid = gdk_x11_surface_get_xid (gtk_native_get_surface (GTK_NATIVE (window)));
  Atom type;
  int format;
  unsigned long n_items = 0, left;
  unsigned char *data = NULL;
  guint n_icons = 0;

  if (XGetWindowProperty (xdisplay, xid, gdk_x11_get_xatom_by_name_for_display (display, "_NET_WM_ICON"),
                          0, G_MAXLONG, False, XA_CARDINAL, &type, &format, &n_items, &left,
                          &data) != Success || data == NULL)
    return 0;
  for (unsigned long i = 0; i + 1 < n_items; n_icons++)
    {
      const unsigned long *values = (const unsigned long *) (gpointer) data;

      g_assert_cmpuint (values[i] * values[i + 1], >, 0);
      i += 2 + values[i] * values[i + 1];
      g_assert_cmpuint (i, <=, n_items);
    }
  XFree (data);
  return n_icons;
}

static gboolean
has_icon_name (gpointer window)
{
  return gtk_window_get_icon_name (window) != NULL;
}

/* The first window gets its icon once its first frame is on screen
 * (drawn from the SVG, it loads librsvg); the X window has it then, and a
 * window after it has it from the start. In a process of its own: the
 * first window there is this one. */
static void
test_window_icon (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GFile) file = NULL;
  MatWindow *window, *second;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }

  g_assert_true (GDK_IS_X11_DISPLAY (gdk_display_get_default ()));
  g_assert_null (gtk_window_get_default_icon_name ());
  original = ui_demo_bytes ();
  file = temp_file ("icon.lib", original);

  window = mat_window_new (app);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (gtk_widget_get_realized (GTK_WIDGET (window)));
  g_assert_null (gtk_window_get_icon_name (GTK_WINDOW (window)));
  g_assert_cmpuint (x_window_icons (GTK_WINDOW (window)), ==, 0);

  g_assert_true (ui_wait_for (has_icon_name, window, WAIT_SECONDS));
  g_assert_cmpstr (gtk_window_get_icon_name (GTK_WINDOW (window)), ==, APPLICATION_ID);
  g_assert_cmpstr (gtk_window_get_default_icon_name (), ==, APPLICATION_ID);
  g_assert_cmpuint (x_window_icons (GTK_WINDOW (window)), >, 0);

  second = mat_window_new (app);
  gtk_window_present (GTK_WINDOW (second));
  g_assert_cmpuint (x_window_icons (GTK_WINDOW (second)), >, 0);

  close_window (second);
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  close_window (window);
}

static gboolean
label_reads (GtkWidget     *widget,
             gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
         g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/* a drop-down's menu, once made */
static GtkWidget *
menu_of (gpointer drop_down)
{
  return ui_find_by_type (drop_down, GTK_TYPE_POPOVER);
}

static gboolean
popover_shown (gpointer drop_down)
{
  GtkWidget *popover = menu_of (drop_down);

  return popover != NULL && gtk_widget_get_mapped (popover);
}

static gboolean
popover_gone (gpointer drop_down)
{
  return !popover_shown (drop_down);
}

static void
count_notify (guint *count)
{
  (*count)++;
}

/* MatDropDown: the chosen text on a button; its menu is made when the
 * button first opens, its items choose by click and by key, and it
 * follows its model. */
static void
test_drop_down (void)
{
  const char *const texts[] = { "One", "Two_x", "Three", NULL };
  g_autoptr(GtkStringList) strings = gtk_string_list_new (texts);
  g_autoptr(GtkStringList) other = gtk_string_list_new ((const char *const[]) { "Solo", NULL });
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  MatDropDown *drop_down = MAT_DROP_DOWN (mat_drop_down_new (G_LIST_MODEL (strings)));
  GtkWidget *button = gtk_widget_get_first_child (GTK_WIDGET (drop_down));
  GtkWidget *popover, *focus;
  guint notified = 0;

  g_assert_true (GTK_IS_TOGGLE_BUTTON (button));
  /* its arrow is drawn by the style sheet (mat-style.h) */
  g_assert_null (ui_find_by_type (GTK_WIDGET (drop_down), GTK_TYPE_IMAGE));
  g_assert_nonnull (ui_find_by_css_class (GTK_WIDGET (drop_down), "arrow-icon"));
  g_signal_connect_swapped (drop_down, "notify::selected", G_CALLBACK (count_notify), &notified);
  gtk_window_set_child (window, GTK_WIDGET (drop_down));
  gtk_window_set_default_size (window, 240, 60);
  gtk_window_present (window);
  g_assert_true (ui_wait_for (ui_widget_is_shown, button, WAIT_SECONDS));

  /* a new model chooses its first text; no menu yet */
  g_assert_cmpuint (mat_drop_down_get_selected (drop_down), ==, 0);
  g_assert_nonnull (ui_find_widget (button, label_reads, "One"));
  g_assert_null (menu_of (drop_down));

  /* a click opens the menu, with every text as it reads */
  click (button);
  g_assert_true (ui_wait_for (popover_shown, drop_down, WAIT_SECONDS));
  popover = menu_of (drop_down);
  g_assert_nonnull (ui_find_widget (popover, label_reads, "One"));
  g_assert_nonnull (ui_find_widget (popover, label_reads, "Two_x"));
  g_assert_nonnull (ui_find_widget (popover, label_reads, "Three"));

  /* a click on an item chooses it and closes the menu */
  click (ui_find_widget (popover, label_reads, "Three"));
  g_assert_true (ui_wait_for (popover_gone, drop_down, WAIT_SECONDS));
  g_assert_cmpuint (mat_drop_down_get_selected (drop_down), ==, 2);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_nonnull (ui_find_widget (button, label_reads, "Three"));

  /* by key: Space opens, Up moves to the item before the chosen third,
   * Return chooses it; the same menu is kept */
  gtk_widget_grab_focus (GTK_WIDGET (drop_down));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus == button);
  ui_key (button, XK_space, 0);
  g_assert_true (ui_wait_for (popover_shown, drop_down, WAIT_SECONDS));
  g_assert_true (menu_of (drop_down) == popover);
  ui_key (button, XK_Up, 0);
  ui_key (button, XK_Return, 0);
  g_assert_true (ui_wait_for (popover_gone, drop_down, WAIT_SECONDS));
  g_assert_cmpuint (mat_drop_down_get_selected (drop_down), ==, 1);
  g_assert_cmpuint (notified, ==, 2);

  /* Escape closes it choosing nothing */
  mat_drop_down_set_selected (drop_down, 2);
  notified = 0;
  ui_key (button, XK_space, 0);
  g_assert_true (ui_wait_for (popover_shown, drop_down, WAIT_SECONDS));
  ui_key (button, XK_Escape, 0);
  g_assert_true (ui_wait_for (popover_gone, drop_down, WAIT_SECONDS));
  g_assert_cmpuint (mat_drop_down_get_selected (drop_down), ==, 2);
  g_assert_cmpuint (notified, ==, 0);

  /* the chosen text removed: the one before it is chosen, the menu
   * follows */
  gtk_string_list_remove (strings, 2);
  g_assert_cmpuint (mat_drop_down_get_selected (drop_down), ==, 1);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_nonnull (ui_find_widget (button, label_reads, "Two_x"));
  click (button);
  g_assert_true (ui_wait_for (popover_shown, drop_down, WAIT_SECONDS));
  g_assert_null (ui_find_widget (popover, label_reads, "Three"));
  g_assert_nonnull (ui_find_widget (popover, label_reads, "One"));
  ui_key (button, XK_Escape, 0);
  g_assert_true (ui_wait_for (popover_gone, drop_down, WAIT_SECONDS));

  /* another model: its first text; outside the model: none */
  mat_drop_down_set_model (drop_down, G_LIST_MODEL (other));
  g_assert_true (mat_drop_down_get_model (drop_down) == G_LIST_MODEL (other));
  g_assert_cmpuint (mat_drop_down_get_selected (drop_down), ==, 0);
  g_assert_nonnull (ui_find_widget (button, label_reads, "Solo"));
  mat_drop_down_set_selected (drop_down, 5);
  g_assert_cmpuint (mat_drop_down_get_selected (drop_down), ==, GTK_INVALID_LIST_POSITION);
  g_assert_null (ui_find_widget (button, label_reads, "Solo"));

  ui_close_window (window);
}

static gboolean
child_revealed (gpointer revealer)
{
  return gtk_revealer_get_child_revealed (revealer);
}

static gboolean
child_concealed (gpointer revealer)
{
  return !gtk_revealer_get_child_revealed (revealer);
}

static void
test_lint_panel (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("lints.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  GtkListView *lints = template_child (window, "lint_list");
  GPtrArray *diags = mat_library_get_diagnostics (library);
  GtkLabel *toggle_label = template_child (window, "lint_toggle_label");
  g_autofree char *n = g_strdup_printf ("%u", diags->len);

  GtkRevealer *revealer = template_child (window, "lint_revealer");
  GtkWidget *panel = gtk_revealer_get_child (revealer);
  int height;

  /* concealed, the panel is hidden: its wrapped messages are not measured
   * (GtkRevealer measures a visible child it does not show) */
  g_assert_false (gtk_revealer_get_reveal_child (revealer));
  g_assert_false (gtk_widget_get_visible (panel));
  /* and its rows are filled when it first opens */
  g_assert_null (gtk_list_view_get_factory (lints));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-lints", NULL);
  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  g_assert_true (gtk_widget_get_visible (panel));
  g_assert_nonnull (gtk_list_view_get_factory (lints));
  g_assert_true (ui_wait_for (child_revealed, revealer, WAIT_SECONDS));
  gtk_widget_measure (GTK_WIDGET (revealer), GTK_ORIENTATION_VERTICAL, -1, &height, NULL, NULL, NULL);
  g_assert_cmpint (height, >=, 220);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (lints))), ==,
                    diags->len);
  g_assert_cmpstr (gtk_label_get_label (toggle_label), ==, n);
  select_by_name (window, "GLOW_PULSE");
  ui_screenshot (GTK_WIDGET (window), "lint-panel.png");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-lints", NULL);
  g_assert_false (gtk_revealer_get_reveal_child (revealer));
  /* hidden again once it has slid away */
  g_assert_true (ui_wait_for (child_concealed, revealer, WAIT_SECONDS));
  g_assert_false (gtk_widget_get_visible (panel));

  close_window (window);
}

static gboolean
name_dialog_shown (gpointer data)
{
  return ui_find_toplevel (MAT_TYPE_NAME_DIALOG) != NULL;
}

static MatNameDialog *
open_name_dialog (MatWindow  *window,
                  const char *action)
{
  gtk_widget_activate_action (GTK_WIDGET (window), action, NULL);
  g_assert_true (ui_wait_for (name_dialog_shown, NULL, WAIT_SECONDS));

  return ui_find_toplevel (MAT_TYPE_NAME_DIALOG);
}

static GtkEditable *
name_entry (MatNameDialog *dialog)
{
  return GTK_EDITABLE (gtk_widget_get_template_child (GTK_WIDGET (dialog), MAT_TYPE_NAME_DIALOG,
                                                      "name_entry"));
}

static GtkWidget *
accept_button (MatNameDialog *dialog)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (dialog), MAT_TYPE_NAME_DIALOG,
                                                    "accept_button"));
}

static void
test_material_management (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("manage.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  guint total = g_list_model_get_n_items (G_LIST_MODEL (library));
  MatNameDialog *dialog;
  MatMaterial *material;
  g_autoptr(GBytes) bytes = NULL;

  /* New: live validation, then the model adds it and it is selected. */
  dialog = open_name_dialog (window, "win.new-material");
  g_assert_null (mat_name_dialog_get_message (dialog));
  g_assert_true (gtk_widget_get_sensitive (accept_button (dialog)));
  gtk_editable_set_text (name_entry (dialog), "default");
  g_assert_nonnull (mat_name_dialog_get_message (dialog));
  g_assert_false (gtk_widget_get_sensitive (accept_button (dialog)));
  gtk_editable_set_text (name_entry (dialog), "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
  g_assert_nonnull (mat_name_dialog_get_message (dialog));
  g_assert_false (gtk_widget_get_sensitive (accept_button (dialog)));
  gtk_editable_set_text (name_entry (dialog), "名前");
  g_assert_nonnull (mat_name_dialog_get_message (dialog));
  gtk_editable_set_text (name_entry (dialog), "");
  g_assert_false (gtk_widget_get_sensitive (accept_button (dialog)));
  gtk_editable_set_text (name_entry (dialog), "ЛАВА_НОВАЯ");
  g_assert_null (mat_name_dialog_get_message (dialog));
  ui_screenshot (GTK_WIDGET (dialog), "name-dialog.png");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.accept", NULL);
  ui_spin_ms (20);
  g_assert_null (ui_find_toplevel (MAT_TYPE_NAME_DIALOG));
  material = mat_library_find (library, "ЛАВА_НОВАЯ");
  g_assert_nonnull (material);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, total + 1);
  g_assert_true (mat_window_get_selected_material (window) == material);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_null (mat_library_find (library, "ЛАВА_НОВАЯ"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, total);

  /* Duplicate. */
  select_by_name (window, "GLOW_PULSE");
  dialog = open_name_dialog (window, "win.duplicate");
  g_assert_cmpstr (gtk_editable_get_text (name_entry (dialog)), ==, "GLOW_PULSE_COPY");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.accept", NULL);
  material = mat_library_find (library, "GLOW_PULSE_COPY");
  g_assert_nonnull (material);
  g_assert_cmpint (mat_library_index_of (library, material), ==,
                   mat_library_index_of (library, mat_library_find (library, "GLOW_PULSE")) + 1);
  g_assert_true (mat_window_get_selected_material (window) == material);

  /* Rename: the same name differing only in case is fine for itself. */
  dialog = open_name_dialog (window, "win.rename");
  g_assert_false (gtk_widget_get_sensitive (accept_button (dialog)));
  gtk_editable_set_text (name_entry (dialog), "glow_pulse");
  g_assert_nonnull (mat_name_dialog_get_message (dialog));
  gtk_editable_set_text (name_entry (dialog), "glow_pulse_copy");
  g_assert_null (mat_name_dialog_get_message (dialog));
  gtk_editable_set_text (name_entry (dialog), "GLOW_TWIN");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.accept", NULL);
  g_assert_cmpstr (mat_material_get_name (material), ==, "GLOW_TWIN");
  g_assert_cmpstr (gtk_label_get_label (template_child (window, "material_name_label")), ==, "GLOW_TWIN");

  /* Cancel leaves everything. */
  dialog = open_name_dialog (window, "win.rename");
  gtk_editable_set_text (name_entry (dialog), "SOMETHING_ELSE");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.cancel", NULL);
  ui_spin_ms (20);
  g_assert_cmpstr (mat_material_get_name (material), ==, "GLOW_TWIN");

  /* Delete: it asks first; the neighbour gets selected; undo brings it
   * back. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.delete", NULL);
  g_assert_cmpstr (wait_dialog (MAT_DIALOG_CHOICE)->heading, ==, "Delete “GLOW_TWIN”?");
  g_assert_nonnull (mat_library_find (library, "GLOW_TWIN"));
  answer_dialog (1);
  g_assert_null (mat_library_find (library, "GLOW_TWIN"));
  g_assert_nonnull (mat_window_get_selected_material (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_nonnull (mat_library_find (library, "GLOW_TWIN"));

  /* Undo everything: the bytes of the file. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  bytes = ui_library_save (mat_window_get_library (window));
  g_assert_true (g_bytes_equal (bytes, original));
  g_assert_false (mat_library_get_dirty (library));

  close_window (window);
}

/* The keyboard and the material list */

/* The row showing @material, which must be on screen. */
static GtkWidget *
row_of (MatWindow   *window,
        MatMaterial *material)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  ui_collect_by_type (GTK_WIDGET (template_child (window, "list_view")), MAT_TYPE_MATERIAL_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    if (mat_material_row_get_material (g_ptr_array_index (rows, i)) == material &&
        gtk_widget_get_mapped (g_ptr_array_index (rows, i)))
      return g_ptr_array_index (rows, i);
  return NULL;
}

/* A real click in the middle of @widget. */
static void
click (GtkWidget *widget)
{
  /* a dialog just shown may not be laid out yet */
  g_assert_true (ui_wait_for (ui_widget_is_shown, widget, WAIT_SECONDS));
  ui_spin_ms (50);
  ui_pointer_move (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0);
  ui_pointer_button (widget, 1, TRUE);
  ui_pointer_button (widget, 1, FALSE);
  ui_spin_ms (50);
}

static GtkWidget *
focus_of (MatWindow *window)
{
  return gtk_root_get_focus (GTK_ROOT (window));
}

static gboolean
focus_in (MatWindow  *window,
          const char *name)
{
  GtkWidget *focus = focus_of (window);

  return focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (template_child (window, name)));
}

static gboolean
has_action_name (GtkWidget     *widget,
                 gconstpointer  data)
{
  return GTK_IS_ACTIONABLE (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), data) == 0;
}

static gboolean
has_label (GtkWidget     *widget,
           gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), data) == 0;
}

/* Delete on the list asks, naming the material; Escape keeps it, the
 * dialog's Delete removes it and a banner offers to undo it. */
static void
test_delete_key (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("delete-key.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  guint total = g_list_model_get_n_items (G_LIST_MODEL (library));
  MatMaterial *material = mat_library_get_material (library, 2);
  g_autofree char *name = g_strdup (mat_material_get_name (material));
  g_autofree char *question = g_strdup_printf ("Delete “%s”?", name);
  g_autofree char *deleted = g_strdup_printf ("Deleted “%s”", name);
  g_autoptr(MatMaterial) next = g_object_ref (mat_library_get_material (library, 3));
  GtkWidget *entry = template_child (window, "search_entry");
  GtkRevealer *banner = template_child (window, "deleted_revealer");
  const MatDialogRequest *request;
  g_autoptr(GBytes) bytes = NULL;
  GtkWidget *row;

  /* a click on its row selects it and puts the focus there */
  row = row_of (window, material);
  g_assert_nonnull (row);
  click (row);
  g_assert_true (mat_window_get_selected_material (window) == material);
  g_assert_true (focus_in (window, "list_view"));

  /* Delete: the question, naming it; nothing deleted yet */
  ui_key (GTK_WIDGET (window), XK_Delete, 0);
  request = wait_dialog (MAT_DIALOG_CHOICE);
  g_assert_cmpstr (request->heading, ==, question);
  g_assert_cmpstr (request->body, ==,
                   "The material leaves the library with its phases and animation blocks. Undo brings it back.");
  g_assert_cmpstr (request->buttons[0], ==, "_Cancel");
  g_assert_cmpstr (request->buttons[1], ==, "_Delete");
  g_assert_null (request->buttons[2]);
  g_assert_cmpint (request->cancel_button, ==, 0);
  g_assert_cmpint (request->default_button, ==, 0);
  g_assert_cmpint (request->destructive_button, ==, 1);
  g_assert_true (request->parent == GTK_WINDOW (window));
  g_assert_true (mat_library_find (library, name) == material);
#if !GTK_CHECK_VERSION (4, 10, 0)
  ui_screenshot (GTK_WIDGET (request->window), "delete-confirm.png");
  /* Escape on the real dialog: kept */
  ui_key (GTK_WIDGET (request->window), XK_Escape, 0);
#else
  answer_dialog (-1);
#endif
  g_assert_true (ui_wait_for (no_dialog_shown, NULL, WAIT_SECONDS));
  ui_pump ();
  g_assert_true (mat_library_find (library, name) == material);
  g_assert_false (mat_library_get_dirty (library));
  g_assert_false (gtk_revealer_get_reveal_child (banner));

  /* again, and the dialog's Delete button */
  gtk_widget_grab_focus (row_of (window, material));
  ui_key (GTK_WIDGET (window), XK_KP_Delete, 0);
  request = wait_dialog (MAT_DIALOG_CHOICE);
#if !GTK_CHECK_VERSION (4, 10, 0)
  {
    GtkWidget *button = ui_find_widget (GTK_WIDGET (request->window), has_label, "_Delete");

    g_assert_nonnull (button);
    g_assert_true (gtk_widget_has_css_class (button, "destructive-action"));
    click (button);
  }
#else
  answer_dialog (1);
#endif
  g_assert_true (ui_wait_for (no_dialog_shown, NULL, WAIT_SECONDS));
  ui_pump ();
  g_assert_null (mat_library_find (library, name));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, total - 1);
  /* the next row takes the selection, and the focus stays in the list */
  g_assert_true (mat_window_get_selected_material (window) == next);
  ui_spin_ms (100);
  g_assert_true (focus_in (window, "list_view"));
  g_assert_true (mat_material_row_get_material (MAT_MATERIAL_ROW (ui_find_by_type (focus_of (window), MAT_TYPE_MATERIAL_ROW)))
                 == next);

  /* the banner says what went, its Undo brings it back */
  g_assert_true (gtk_revealer_get_reveal_child (banner));
  g_assert_cmpstr (gtk_label_get_label (template_child (window, "deleted_label")), ==, deleted);
  ui_screenshot (GTK_WIDGET (window), "delete-banner.png");
  click (ui_find_widget (GTK_WIDGET (banner), has_action_name, "win.undo-delete"));
  g_assert_false (gtk_revealer_get_reveal_child (banner));
  g_assert_nonnull (mat_library_find (library, name));
  bytes = ui_library_save (library);
  g_assert_true (g_bytes_equal (bytes, original));
  g_assert_false (mat_library_get_dirty (library));

  /* another edit after a deletion: the banner goes (its Undo would
   * undo that edit) */
  select_by_name (window, name);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.delete", NULL);
  wait_dialog (MAT_DIALOG_CHOICE);
  answer_dialog (1);
  g_assert_true (gtk_revealer_get_reveal_child (banner));
  g_assert_true (gtk_widget_is_sensitive (ui_find_widget (GTK_WIDGET (banner), has_action_name,
                                                          "win.undo-delete")));
  edit_one_param (next);
  g_assert_false (gtk_revealer_get_reveal_child (banner));
  g_assert_false (gtk_widget_is_sensitive (ui_find_widget (GTK_WIDGET (banner), has_action_name,
                                                           "win.undo-delete")));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_nonnull (mat_library_find (library, name));

  /* Delete in the search field edits the text, and asks nothing */
  gtk_editable_set_text (GTK_EDITABLE (entry), "AB");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.find", NULL);
  gtk_editable_set_position (GTK_EDITABLE (entry), 0);
  ui_key (GTK_WIDGET (window), XK_Delete, 0);
  ui_spin_ms (100);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "B");
  g_assert_cmpuint (_mat_dialogs_get_n_shown (), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, total);

  close_window (window);
}

/* The material list is one stop of Tab, however long it is: Tab enters
 * it on the selected row and leaves it at the next press; the arrows
 * move inside it. */
static void
test_tab_stops (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("tab.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  GtkWidget *sidebar = template_child (window, "sidebar");
  GtkWidget *add_button = ui_find_widget (sidebar, has_action_name, "win.new-material");
  GtkWidget *focus;
  GtkWidget *row;
  int here;

  g_assert_nonnull (add_button);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), >, 10);

  /* from the sort order: Tab enters the list, on the row that last had
   * the focus (GTK's own rule) */
  gtk_widget_grab_focus (GTK_WIDGET (template_child (window, "sort_dropdown")));
  g_assert_true (focus_in (window, "list_view") == FALSE);
  ui_key (GTK_WIDGET (window), XK_Tab, 0);
  g_assert_true (focus_in (window, "list_view"));
  focus = focus_of (window);
  row = ui_find_by_type (focus, MAT_TYPE_MATERIAL_ROW);
  g_assert_nonnull (row);
  here = mat_library_index_of (library, mat_material_row_get_material (MAT_MATERIAL_ROW (row)));

  /* the arrows move inside it, and select */
  ui_key (GTK_WIDGET (window), XK_Down, 0);
  g_assert_true (focus_in (window, "list_view"));
  row = ui_find_by_type (focus_of (window), MAT_TYPE_MATERIAL_ROW);
  g_assert_true (mat_material_row_get_material (MAT_MATERIAL_ROW (row)) ==
                 mat_library_get_material (library, (guint) here + 1));
  g_assert_true (mat_window_get_selected_material (window) ==
                 mat_library_get_material (library, (guint) here + 1));

  /* the next Tab leaves it: the + button under it */
  ui_key (GTK_WIDGET (window), XK_Tab, 0);
  g_assert_false (focus_in (window, "list_view"));
  g_assert_true (focus_of (window) == add_button);

  /* and on into the material's pages */
  ui_key (GTK_WIDGET (window), XK_Tab, 0);
  g_assert_false (gtk_widget_is_ancestor (focus_of (window), sidebar));

  /* Shift+Tab back: one stop in the list, then the sort order */
  gtk_widget_grab_focus (add_button);
  ui_key (GTK_WIDGET (window), XK_Tab, GDK_SHIFT_MASK);
  g_assert_true (focus_in (window, "list_view"));
  ui_key (GTK_WIDGET (window), XK_Tab, GDK_SHIFT_MASK);
  g_assert_true (focus_in (window, "sort_dropdown"));

  /* the problems panel's list too */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-lints", NULL);
  ui_spin_ms (300);
  gtk_widget_grab_focus (GTK_WIDGET (template_child (window, "lint_list")));
  g_assert_true (focus_in (window, "lint_list"));
  ui_key (GTK_WIDGET (window), XK_Tab, 0);
  g_assert_false (focus_in (window, "lint_list"));
  ui_key (GTK_WIDGET (window), XK_Tab, GDK_SHIFT_MASK);
  g_assert_true (focus_in (window, "lint_list"));
  ui_key (GTK_WIDGET (window), XK_Tab, GDK_SHIFT_MASK);
  g_assert_false (focus_in (window, "lint_list"));

  close_window (window);
}

/* Whether @row lies wholly inside the visible part of the list. */
static gboolean
row_in_view (MatWindow *window,
             GtkWidget *row)
{
  GtkWidget *list = GTK_WIDGET (template_child (window, "list_view"));
  GtkWidget *scroller = gtk_widget_get_ancestor (list, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;

  /* a row the list has just made has no size yet */
  if (row == NULL || gtk_widget_get_height (row) < 16 ||
      !gtk_widget_compute_bounds (row, scroller, &bounds))
    return FALSE;
  return bounds.origin.y >= 0 &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scroller) + 0.5;
}

typedef struct {
  MatWindow   *window;
  MatMaterial *material;
} RowWait;

static gboolean
material_row_in_view (gpointer data)
{
  RowWait *wait = data;

  return row_in_view (wait->window, row_of (wait->window, wait->material));
}

static gboolean
name_dialog_gone (gpointer data)
{
  return ui_find_toplevel (MAT_TYPE_NAME_DIALOG) == NULL;
}

/* The demo library with @n_more materials added at its end, as long as
 * a retail library. Returns: (transfer full). */
static GBytes *
big_library (guint n_more)
{
  g_autoptr(GBytes) demo = ui_demo_bytes ();
  g_autoptr(MatLibrary) library = ui_library_new (demo);

  for (guint i = 0; i < n_more; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("FILLER_%03u", i);

      g_assert_nonnull (mat_library_add_material (library, name, &error));
      g_assert_no_error (error);
    }
  return ui_library_save (library);
}

/* A new material (added at the end of a list longer than the window) is
 * selected and scrolled into view; so is a duplicate. */
static void
test_new_material_in_view (void)
{
  g_autoptr(GBytes) original = big_library (900);
  g_autoptr(GFile) file = temp_file ("new-in-view.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  GtkWidget *list = GTK_WIDGET (template_child (window, "list_view"));
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (list));
  MatMaterial *first = mat_library_get_material (library, 0);
  MatNameDialog *dialog;
  RowWait wait = { window, NULL };

  /* at the top, and the end out of sight */
  select_by_name (window, mat_material_get_name (first));
  ui_spin_ms (100);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment), >,
                     gtk_adjustment_get_page_size (vadjustment) * 1.2);
  g_assert_true (row_in_view (window, row_of (window, first)));

  /* as a user does it: a click on the first row, Shift+Ctrl+N, the
   * name typed, Enter */
  click (row_of (window, first));
  g_assert_true (focus_in (window, "list_view"));
  ui_key (GTK_WIDGET (window), XK_n, GDK_SHIFT_MASK | GDK_CONTROL_MASK);
  g_assert_true (ui_wait_for (name_dialog_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (MAT_TYPE_NAME_DIALOG);
  ui_spin_ms (100);
  gtk_editable_set_text (name_entry (dialog), "");
  for (const char *c = "ZZEND"; *c != '\0'; c++)
    ui_key (GTK_WIDGET (dialog), XK_A + (guint) (*c - 'A'), GDK_SHIFT_MASK);
  g_assert_cmpstr (gtk_editable_get_text (name_entry (dialog)), ==, "ZZEND");
  ui_key (GTK_WIDGET (dialog), XK_Return, 0);
  g_assert_true (ui_wait_for (name_dialog_gone, NULL, WAIT_SECONDS));
  ui_spin_ms (300);
  wait.material = mat_library_find (library, "ZZEND");
  g_assert_nonnull (wait.material);
  g_assert_cmpint (mat_library_index_of (library, wait.material), ==,
                   (int) g_list_model_get_n_items (G_LIST_MODEL (library)) - 1);
  g_assert_true (mat_window_get_selected_material (window) == wait.material);
  g_assert_true (ui_wait_for (material_row_in_view, &wait, WAIT_SECONDS));
  g_assert_false (row_in_view (window, row_of (window, first)));

  /* while a search hides it: the search is cleared, the list scrolled */
  gtk_editable_set_text (GTK_EDITABLE (template_child (window, "search_entry")), "FILLER_00");
  g_signal_emit_by_name (template_child (window, "search_entry"), "search-changed");
  ui_spin_ms (200);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_selection (window))), ==, 10);
  dialog = open_name_dialog (window, "win.new-material");
  gtk_editable_set_text (name_entry (dialog), "ZZ_HIDDEN");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.accept", NULL);
  wait.material = mat_library_find (library, "ZZ_HIDDEN");
  g_assert_nonnull (wait.material);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (template_child (window, "search_entry"))), ==, "");
  g_assert_true (mat_window_get_selected_material (window) == wait.material);
  g_assert_true (ui_wait_for (material_row_in_view, &wait, WAIT_SECONDS));

  /* sorted by name: it lands where the name puts it */
  mat_drop_down_set_selected (template_child (window, "sort_dropdown"), 1);
  select_by_name (window, "DEFAULT");
  ui_spin_ms (200);
  dialog = open_name_dialog (window, "win.new-material");
  gtk_editable_set_text (name_entry (dialog), "FILLER_450A");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.accept", NULL);
  wait.material = mat_library_find (library, "FILLER_450A");
  g_assert_true (mat_window_get_selected_material (window) == wait.material);
  g_assert_true (ui_wait_for (material_row_in_view, &wait, WAIT_SECONDS));
  mat_drop_down_set_selected (template_child (window, "sort_dropdown"), 0);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);

  /* back to the top, then a duplicate of the first material: it lands
   * right under it, in view */
  select_by_name (window, mat_material_get_name (first));
  mat_window_select_material (window, first);
  wait.material = first;
  g_assert_true (ui_wait_for (material_row_in_view, &wait, WAIT_SECONDS));
  dialog = open_name_dialog (window, "win.duplicate");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.accept", NULL);
  wait.material = mat_window_get_selected_material (window);
  g_assert_true (wait.material != first);
  g_assert_cmpint (mat_library_index_of (library, wait.material), ==, 1);
  g_assert_true (ui_wait_for (material_row_in_view, &wait, WAIT_SECONDS));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_false (mat_library_get_dirty (library));
  close_window (window);
}

/* The row of the problems panel showing @message, once it is on screen. */
static gboolean
has_tooltip_text (GtkWidget     *widget,
                  gconstpointer  data)
{
  return g_strcmp0 (gtk_widget_get_tooltip_text (widget), data) == 0 &&
         gtk_widget_get_mapped (widget);
}

typedef struct {
  GtkWidget  *list;
  const char *message;
} LintWait;

static gboolean
lint_row_in_view (gpointer data)
{
  LintWait *wait = data;
  GtkWidget *row = ui_find_widget (wait->list, has_tooltip_text, wait->message);
  GtkWidget *scroller = gtk_widget_get_ancestor (wait->list, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;

  if (row == NULL || gtk_widget_get_height (row) < 8 ||
      !gtk_widget_compute_bounds (row, scroller, &bounds))
    return FALSE;
  return bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scroller);
}

/* Clicks the problem @check of @material in the panel, a real click. */
static void
click_problem (MatWindow   *window,
               MatMaterial *material,
               Mat0Check    check)
{
  GPtrArray *diags = mat_library_get_diagnostics (mat_window_get_library (window));
  LintWait wait = { GTK_WIDGET (template_child (window, "lint_list")), NULL };
  guint position = G_MAXUINT;

  for (guint i = 0; i < diags->len; i++)
    {
      Mat0Diagnostic *diag = g_ptr_array_index (diags, i);

      if (diag->check == check && g_strcmp0 (diag->entry_name, mat_material_get_name (material)) == 0)
        {
          wait.message = diag->message;
          position = i;
          break;
        }
    }
  g_assert_nonnull (wait.message);
  gtk_widget_activate_action (wait.list, "list.scroll-to-item", "u", position);
  g_assert_true (ui_wait_for (lint_row_in_view, &wait, WAIT_SECONDS));
  click (ui_find_widget (wait.list, has_tooltip_text, wait.message));
}

/* A problem chosen in the panel shows where it is: a key of a block on
 * the Animation page, a phase on the Phases page. */
static void
test_problem_goes_there (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("problems.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  MatMaterial *lints = ui_find_material (library, "LINT_EXAMPLE");
  GtkStack *pages = template_child (window, "material_stack");
  MatBlockEditor *editor;
  MatTimeline *timeline;
  MatPhaseTable *table = template_child (window, "phase_table");
  g_autoptr(GBytes) after = NULL;

  select_by_name (window, "DEFAULT");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-lints", NULL);
  ui_spin_ms (400);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (pages), ==, "phases");

  /* key 1 of block 1 names a phase the material does not have */
  click_problem (window, lints, MAT0_LINT_KEY_PHASE_RANGE);
  g_assert_true (mat_window_get_selected_material (window) == lints);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (pages), ==, "animation");
  /* the page is made when first shown */
  editor = MAT_BLOCK_EDITOR (ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_BLOCK_EDITOR));
  g_assert_nonnull (editor);
  timeline = mat_block_editor_get_timeline (editor);
  g_assert_cmpint (mat_block_editor_get_selected_block (editor), ==, 1);
  g_assert_cmpint (mat_timeline_get_selected_key (timeline), ==, 1);
  ui_screenshot (GTK_WIDGET (window), "problem-key.png");

  /* key 2 of the same block: the key follows */
  click_problem (window, lints, MAT0_LINT_KEY_TIME_ORDER);
  g_assert_cmpint (mat_block_editor_get_selected_block (editor), ==, 1);
  g_assert_cmpint (mat_timeline_get_selected_key (timeline), ==, 2);

  /* block 0's period (its last key, key 1) */
  click_problem (window, lints, MAT0_LINT_ZERO_PERIOD);
  g_assert_cmpint (mat_block_editor_get_selected_block (editor), ==, 0);
  g_assert_cmpint (mat_timeline_get_selected_key (timeline), ==, 1);

  /* a phase's palette index: back on the Phases page, that phase */
  click_problem (window, lints, MAT0_LINT_PALETTE_INDEX);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (pages), ==, "phases");
  g_assert_cmpuint (mat_phase_table_get_selected (table), ==, 1);
  click_problem (window, lints, MAT0_LINT_TEXTURE_NO_DOT);
  g_assert_cmpuint (mat_phase_table_get_selected (table), ==, 0);

  /* looking changed nothing */
  after = ui_library_save (library);
  g_assert_true (g_bytes_equal (after, original));
  close_window (window);
}

static gboolean
has_tooltip_prefix (GtkWidget     *widget,
                    gconstpointer  data)
{
  return GTK_IS_MENU_BUTTON (widget) &&
         g_strcmp0 (gtk_widget_get_tooltip_text (widget), data) == 0;
}

/* The label of the item of @model (and its sections) activating
 * @action. Returns: (transfer full) (nullable) */
static char *
menu_label_of (GMenuModel *model,
               const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *item_action = NULL;
      g_autoptr(GMenuModel) section = NULL;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &item_action) &&
          g_strcmp0 (item_action, action) == 0)
        {
          char *label = NULL;

          g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
          return label;
        }
      section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      if (section != NULL)
        {
          char *label = menu_label_of (section, action);

          if (label != NULL)
            return label;
        }
    }
  return NULL;
}

static guint
n_phases_of (MatMaterial *material)
{
  return mat_material_get_n_phases (material);
}

/* Two Duplicates that copy different things say so: the phase table's
 * button and Shift+Ctrl+D copy the phase, the material menu and Ctrl+D
 * the material, whatever has the focus. */
static void
test_duplicate_names (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("duplicates.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  guint total = g_list_model_get_n_items (G_LIST_MODEL (library));
  MatMaterial *material = select_by_name (window, "LAVA_FLOW");
  guint n_phases = n_phases_of (material);
  MatPhaseTable *table = template_child (window, "phase_table");
  GtkWidget *button = ui_find_widget (GTK_WIDGET (table), has_action_name, "phase.duplicate");
  GtkWidget *menu_button = ui_find_widget (GTK_WIDGET (window), has_tooltip_prefix, "Material Menu");
  g_autofree char *menu_label = NULL;
  GtkLabel *label;
  MatNameDialog *dialog;
  g_autoptr(GBytes) after = NULL;

  /* the names */
  g_assert_nonnull (button);
  label = GTK_LABEL (ui_find_by_type (button, GTK_TYPE_LABEL));
  g_assert_cmpstr (gtk_label_get_label (label), ==, "Duplicate Phase");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==,
                   "Duplicate the selected phase (Shift+Ctrl+D)");
  g_assert_nonnull (menu_button);
  /* the menu is given its items when it opens */
  gtk_menu_button_popup (GTK_MENU_BUTTON (menu_button));
  menu_label = menu_label_of (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)),
                              "win.duplicate");
  gtk_menu_button_popdown (GTK_MENU_BUTTON (menu_button));
  g_assert_cmpstr (menu_label, ==, "D_uplicate Material…");

  /* Shift+Ctrl+D in the phase table: the selected phase, as the button */
  mat_phase_table_set_selected (table, 0);
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (table), GTK_DIR_TAB_FORWARD));
  ui_key (GTK_WIDGET (window), XK_d, GDK_SHIFT_MASK | GDK_CONTROL_MASK);
  g_assert_cmpuint (n_phases_of (material), ==, n_phases + 1);
  g_assert_cmpuint (mat_phase_table_get_selected (table), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, total);
  click (button);
  g_assert_cmpuint (n_phases_of (material), ==, n_phases + 2);

  /* Ctrl+D from the same place: the material */
  g_assert_true (gtk_widget_is_ancestor (focus_of (window), GTK_WIDGET (table)) ||
                 focus_of (window) == button);
  ui_key (GTK_WIDGET (window), XK_d, GDK_CONTROL_MASK);
  g_assert_true (ui_wait_for (name_dialog_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (MAT_TYPE_NAME_DIALOG);
  g_assert_cmpstr (gtk_editable_get_text (name_entry (dialog)), ==, "LAVA_FLOW_COPY");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.cancel", NULL);
  g_assert_true (ui_wait_for (name_dialog_gone, NULL, WAIT_SECONDS));
  g_assert_cmpuint (n_phases_of (material), ==, n_phases + 2);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  after = ui_library_save (library);
  g_assert_true (g_bytes_equal (after, original));
  close_window (window);
}

/* Save As and Open ask through the file choosers of the dialogs shim:
 * what they offer, and what the answer does. */
static void
test_file_choosers (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("choosers.lib", original);
  g_autofree char *copy_path = g_build_filename (tmp_dir, "chosen-copy.lib", NULL);
  g_autoptr(GFile) copy = g_file_new_for_path (copy_path);
  g_autoptr(GFile) folder = g_file_new_for_path (tmp_dir);
  g_autoptr(GFile) other = temp_file ("opened-by-chooser.lib", original);
  g_autoptr(GListStore) answer = g_list_store_new (G_TYPE_FILE);
  MatWindow *window = open_window (file);
  const MatDialogRequest *request;
  g_autoptr(GBytes) written = NULL;
  FileWait wait = { other };

  /* Save As: the file's own name and folder offered; cancelled, nothing */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save-as", NULL);
  request = wait_dialog (MAT_DIALOG_SAVE);
  g_assert_cmpstr (request->heading, ==, "Save Material Library As");
  g_assert_cmpstr (request->initial_name, ==, "choosers.lib");
  g_assert_true (g_file_equal (request->initial_folder, folder));
  g_assert_true (request->parent == GTK_WINDOW (window));
  _mat_dialogs_answer_files (NULL);
  ui_pump ();
  g_assert_false (mat_window_get_busy (window));
  g_assert_false (g_file_query_exists (copy, NULL));

  /* answered: the library is written there and is that file from now on */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save-as", NULL);
  wait_dialog (MAT_DIALOG_SAVE);
  g_list_store_append (answer, copy);
  _mat_dialogs_answer_files (G_LIST_MODEL (answer));
  ui_pump ();
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  written = file_bytes (copy);
  g_assert_true (g_bytes_equal (written, original));
  g_assert_true (g_file_equal (mat_window_get_file (window), copy));
  g_assert_cmpstr (gtk_label_get_label (template_child (window, "title_label")), ==, "chosen-copy.lib");

  /* Open: several libraries at once, the library filter first */
  g_action_group_activate_action (G_ACTION_GROUP (app), "open", NULL);
  request = wait_dialog (MAT_DIALOG_OPEN);
  g_assert_cmpstr (request->heading, ==, "Open Material Library");
  g_assert_true (request->multiple);
  g_assert_true (request->parent == GTK_WINDOW (window));
  g_list_store_remove_all (answer);
  g_list_store_append (answer, other);
  _mat_dialogs_answer_files (G_LIST_MODEL (answer));
  ui_pump ();
  g_assert_true (ui_wait_for (file_window_loaded, &wait, WAIT_SECONDS));
  g_assert_true (window_for (other) != window);

  close_window (window_for (other));
  close_window (window);
  g_unlink (copy_path);
}

static void
test_screenshot (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autofree char *folder = g_build_filename (tmp_dir, "Parkan", NULL);
  g_autoptr(GFile) file = NULL;
  MatWindow *window;
  MatMaterial *best = NULL;
  MatLibrary *library;

  g_mkdir_with_parents (folder, 0700);
  file = temp_file ("Parkan/Material.lib", original);
  window = open_window (file);
  library = mat_window_get_library (window);
  g_assert_cmpstr (gtk_label_get_label (template_child (window, "subtitle_label")), ==, "~/Parkan");

  /* The material with the most phases makes the richest picture. */
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (library)); i++)
    {
      MatMaterial *material = mat_library_get_material (library, i);

      if (mat_material_get_editable (material) &&
          (best == NULL || mat_material_get_n_phases (material) > mat_material_get_n_phases (best)))
        best = material;
    }
  g_assert_nonnull (best);
  select_by_name (window, mat_material_get_name (best));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), >=, 640);

  ui_screenshot (GTK_WIDGET (window), "main-window.png");

  gtk_stack_set_visible_child_name (template_child (window, "material_stack"), "flags");
  ui_screenshot (GTK_WIDGET (window), "flags-page.png");

  close_window (window);
}

static gboolean
textures_loaded (gpointer data)
{
  return mat_phase_table_get_textures (MAT_PHASE_TABLE (data)) != NULL;
}

/* The animation page: the block editor, its timeline and the preview show
 * the selected material and move together; the Textures.lib beside the
 * library reaches the phase table and the preview. */
static void
test_animation_page (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GBytes) texture_bytes = NULL;
  g_autofree char *folder = g_build_filename (tmp_dir, "Anim", NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) textures_file = NULL;
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;
  MatWindow *window;
  MatMaterial *material;
  MatBlockEditor *editor;
  MatPreview *preview;
  MatTimeline *timeline;
  MatPhaseTable *table;
  PhaseEvalResult shown;

  g_mkdir_with_parents (folder, 0700);
  g_file_get_contents (g_getenv ("DEMO_TEXTURES"), &contents, &length, &error);
  g_assert_no_error (error);
  texture_bytes = g_bytes_new_take (contents, length);
  /* any case: the game's files come from a case-insensitive file system */
  textures_file = temp_file ("Anim/TEXTURES.LIB", texture_bytes);
  file = temp_file ("Anim/Material.lib", original);
  window = open_window (file);

  table = template_child (window, "phase_table");
  preview = template_child (window, "preview");
  g_assert_true (ui_wait_for (textures_loaded, table, WAIT_SECONDS));
  g_assert_nonnull (mat_texture_library_lookup (mat_phase_table_get_textures (table), "lava.a"));
  g_assert_true (mat_preview_get_textures (preview) == mat_phase_table_get_textures (table));

  material = select_by_name (window, "COLOR_CYCLE");
  gtk_stack_set_visible_child_name (template_child (window, "material_stack"), "animation");
  /* the Animation page is made when first shown */
  editor = MAT_BLOCK_EDITOR (ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_BLOCK_EDITOR));
  g_assert_nonnull (editor);
  timeline = mat_block_editor_get_timeline (editor);
  g_assert_true (mat_block_editor_get_material (editor) == material);
  g_assert_true (mat_preview_get_material (preview) == material);
  g_assert_cmpint (mat_block_editor_get_selected_block (editor), ==, 0);
  g_assert_cmpint (mat_preview_get_block (preview), ==, 0);

  /* the playhead follows the preview; scrubbing moves and pauses it */
  mat_preview_set_time (preview, 1000);
  g_assert_cmpuint (mat_timeline_get_position (timeline), ==, 1000);
  mat_preview_set_playing (preview, TRUE);
  mat_timeline_set_position (timeline, 2500);
  g_signal_emit_by_name (timeline, "scrubbed", 2500u);
  g_assert_false (mat_preview_get_playing (preview));
  g_assert_cmpuint (mat_preview_get_time (preview), ==, 2500);
  /* 2500 ms: key 3 (starts at 2400) blends towards key 0, alpha 0.125 */
  g_assert_true (mat_preview_get_evaluation (preview, &shown));
  g_assert_cmpint (shown.segment, ==, 3);
  g_assert_cmpfloat_with_epsilon (shown.alpha, 0.125f, 1e-6);

  /* another material: everything follows */
  material = select_by_name (window, "LAVA_FLOW");
  g_assert_true (mat_block_editor_get_material (editor) == material);
  g_assert_true (mat_preview_get_material (preview) == material);

  ui_spin_ms (300);
  ui_screenshot (GTK_WIDGET (window), "animation-page.png");

  /* win.compare opens a comparison of this material with the window's
   * library in it */
  {
    GList *before = gtk_application_get_windows (GTK_APPLICATION (app));
    guint n_before = g_list_length (before);
    GtkWindow *compare;
    MatCompareView *view;

    gtk_widget_activate_action (GTK_WIDGET (window), "win.compare", NULL);
    g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, n_before + 1);
    compare = gtk_application_get_windows (GTK_APPLICATION (app))->data;
    g_assert_true (MAT_IS_COMPARE_WINDOW (compare));
    view = mat_compare_window_get_view (MAT_COMPARE_WINDOW (compare));
    g_assert_true (MAT_IS_COMPARE_VIEW (view));
    g_assert_cmpuint (mat_compare_view_get_n_libraries (view), ==, 1);
    g_assert_true (mat_compare_view_get_material (view) == material);
    g_assert_true (mat_compare_view_get_textures (view) == mat_phase_table_get_textures (table));
    gtk_window_destroy (compare);
  }
  close_window (window);
}

/* The position a readout shows: "… at R of the P ms cycle" (the preview)
 * or "At R of the P ms cycle: …" (the compare view). */
static guint
readout_position (const char *text,
                  guint       period)
{
  const char *at = strstr (text, "t ");
  guint r = G_MAXUINT;
  guint p = 0;

  for (; at != NULL; at = strstr (at + 1, "t "))
    if (sscanf (at, "t %u of the %u ms cycle", &r, &p) == 2)
      break;
  if (at == NULL)
    g_error ("no position in the readout “%s”", text);
  g_assert_cmpuint (p, ==, period);
  return r;
}

/* One clock, one span: WATER_SURFACE (ping-pong over 3000 ms) played past
 * its first period. The timeline's playhead, the preview's readout and
 * time scale, and the compare view's side all stand where the evaluator
 * is: on the way back the playhead runs backwards, and it always sits in
 * the interval whose blend the preview shows. */
static void
test_one_clock (void)
{
  enum { FRAMES = 273 };
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("clock.lib", original);
  MatWindow *window = open_window (file);
  MatMaterial *material = select_by_name (window, "WATER_SURFACE");
  MatMaterial *other;
  MatPreview *preview = template_child (window, "preview");
  MatBlockEditor *editor;
  MatTimeline *timeline;
  MatPlayback *clock;
  GtkRange *scale;
  PhaseEvalResult shown;
  guint playheads[FRAMES + 1];
  guint backwards = 0;
  guint time = 0;

  gtk_stack_set_visible_child_name (template_child (window, "material_stack"), "animation");
  editor = MAT_BLOCK_EDITOR (ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_BLOCK_EDITOR));
  g_assert_nonnull (editor);
  timeline = mat_block_editor_get_timeline (editor);
  g_assert_true (mat_preview_get_material (preview) == material);
  g_assert_cmpint (mat_preview_get_block (preview), ==, 0);

  /* frames of 17 ms, the last one 9: 4633 ms, 1633 ms into the way back */
  mat_preview_set_time (preview, 0);
  mat_preview_set_playing (preview, TRUE);
  clock = mat_preview_get_playback (preview);
  playheads[0] = mat_timeline_get_playhead (timeline);
  g_assert_cmpuint (playheads[0], ==, 0);
  for (guint f = 1; f <= FRAMES; f++)
    {
      guint k;

      mat_playback_advance (clock, f < FRAMES ? 17 : 9);
      time += f < FRAMES ? 17 : 9;
      g_assert_cmpuint (mat_preview_get_time (preview), ==, time);
      g_assert_true (mat_preview_get_evaluation (preview, &shown));
      playheads[f] = mat_timeline_get_playhead (timeline);
      g_assert_cmpuint (playheads[f], ==, shown.r);
      /* in the interval the preview blends: key k runs from T[k-1] to T[k] */
      k = (guint) shown.segment;
      g_assert_cmpuint (playheads[f], >=, k == 0 ? 0 : 1500);
      g_assert_cmpuint (playheads[f], <=, k == 0 ? 1500 : 3000);
      if (time > 3000)
        {
          g_assert_cmpuint (playheads[f], <, playheads[f - 1]);
          backwards++;
        }
      else
        g_assert_cmpuint (playheads[f], >, playheads[f - 1]);
    }
  g_assert_cmpuint (backwards, >, 90);
  mat_preview_set_playing (preview, FALSE);

  g_assert_cmpuint (time, ==, 4633);
  g_assert_cmpuint (mat_timeline_get_playhead (timeline), ==, 1367);
  g_assert_cmpuint (readout_position (gtk_label_get_text (GTK_LABEL (mat_preview_get_test_widget (preview, "time_label"))),
                                      3000), ==, 1367);
  /* the preview's scale runs there and back: 4633 of 6000 */
  scale = GTK_RANGE (mat_preview_get_test_widget (preview, "time_scale"));
  g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_range_get_adjustment (scale)), ==, 6000);
  g_assert_cmpfloat (gtk_range_get_value (scale), ==, 4633);
  /* and its clock with loop off stops after the way back, not at the turn */
  mat_preview_set_loop (preview, FALSE);
  mat_preview_set_time (preview, 2990);
  mat_preview_set_playing (preview, TRUE);
  mat_playback_advance (clock, 30);
  g_assert_true (mat_preview_get_playing (preview));
  g_assert_cmpuint (mat_timeline_get_playhead (timeline), ==, 2980);
  mat_playback_advance (clock, 5000);
  g_assert_false (mat_preview_get_playing (preview));
  g_assert_cmpuint (mat_preview_get_time (preview), ==, 6000);
  g_assert_cmpuint (mat_timeline_get_playhead (timeline), ==, 0);
  mat_preview_set_loop (preview, TRUE);

  /* the compare view on its own clock, side A this block, side B a loop
   * of 3200 ms: the same frames give the same positions */
  {
    GList *before = gtk_application_get_windows (GTK_APPLICATION (app));
    guint n_before = g_list_length (before);
    GtkWindow *compare;
    MatCompareView *view;
    MatPlayback *shared;
    GtkLabel *status;

    gtk_widget_activate_action (GTK_WIDGET (window), "win.compare", NULL);
    g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, n_before + 1);
    compare = gtk_application_get_windows (GTK_APPLICATION (app))->data;
    view = mat_compare_window_get_view (MAT_COMPARE_WINDOW (compare));
    other = mat_library_find (mat_window_get_library (window), "COLOR_CYCLE");
    mat_compare_view_set_slot (view, MAT_COMPARE_SLOT_A, material, 0, 0, 0);
    mat_compare_view_set_slot (view, MAT_COMPARE_SLOT_B, other, 0, 0, 0);
    mat_compare_view_set_time (view, 0);
    mat_compare_view_set_playing (view, TRUE);
    g_assert_true (mat_compare_view_get_playing (view));
    shared = mat_preview_get_playback (mat_compare_view_get_preview (view, MAT_COMPARE_SLOT_A));
    g_assert_true (shared != clock);
    status = GTK_LABEL (mat_compare_view_get_test_widget (view, "status-a"));

    for (guint f = 1; f <= FRAMES; f++)
      {
        PhaseEvalResult side;

        mat_playback_advance (shared, f < FRAMES ? 17 : 9);
        g_assert_true (mat_preview_get_evaluation (mat_compare_view_get_preview (view, MAT_COMPARE_SLOT_A),
                                                   &side));
        g_assert_cmpuint (side.r, ==, playheads[f]);
        g_assert_cmpuint (readout_position (gtk_label_get_text (status), 3000), ==, playheads[f]);
      }
    g_assert_cmpuint (mat_compare_view_get_time (view), ==, 4633);
    /* what the table shows there is what the window's preview showed */
    mat_preview_set_time (preview, 4633);
    g_assert_true (mat_preview_get_evaluation (preview, &shown));
    {
      PhaseRuntime value;

      g_assert_true (mat_compare_view_get_slot_value (view, MAT_COMPARE_SLOT_A, &value));
      g_assert_cmpmem (&value, sizeof value, &shown.value, sizeof shown.value);
    }
    /* the shared scale runs round the longest cycle: there and back */
    g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_range_get_adjustment (GTK_RANGE (mat_compare_view_get_test_widget (view, "time-scale")))),
                       ==, 6000);
    mat_compare_view_set_playing (view, FALSE);
    gtk_window_destroy (compare);
  }
  close_window (window);
}

static void
test_accels (void)
{
  static const struct {
    const char *action;
    const char *accel;
  } expected[] = {
    { "app.open", "<Control>o" },
    { "app.new-window", "<Control>n" },
    { "app.quit", "<Control>q" },
    { "app.shortcuts", "<Control>question" },
    { "win.save", "<Control>s" },
    { "win.save-as", "<Shift><Control>s" },
    { "win.undo", "<Control>z" },
    { "win.redo", "<Shift><Control>z" },
    { "win.find", "<Control>f" },
    { "win.new-material", "<Shift><Control>n" },
    { "win.duplicate", "<Control>d" },
    { "win.rename", "F2" },
    { "win.close", "<Control>w" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                    expected[i].action);

      g_assert_nonnull (accels[0]);
      g_assert_cmpstr (accels[0], ==, expected[i].accel);
    }

  /* Delete belongs to the list only, so text fields keep it. */
  {
    g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.delete");

    g_assert_null (accels[0]);
  }
  for (guint i = 0; i < 5; i++)
    g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app),
                                              (const char *[]) { "open", "new-window", "quit",
                                                                 "about", "shortcuts" }[i]));
}

static gboolean
about_shown (gpointer data)
{
  return ui_find_toplevel (GTK_TYPE_ABOUT_DIALOG) != NULL;
}

static gboolean
shortcuts_shown (gpointer data)
{
  GtkWindow *overlay = ui_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW);

  return overlay != NULL && gtk_widget_get_visible (GTK_WIDGET (overlay));
}

static void
test_about_and_shortcuts (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("about.lib", original);
  MatWindow *window = open_window (file);
  GtkWindow *about;

  /* the shortcuts window is made when first asked for, by app.shortcuts
   * (Ctrl+? and the main menu) */
  g_assert_null (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_action_group_activate_action (G_ACTION_GROUP (app), "shortcuts", NULL);
  {
    GtkShortcutsWindow *shortcuts = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));

    g_assert_nonnull (shortcuts);
    g_assert_true (ui_wait_for (ui_widget_is_shown, shortcuts, WAIT_SECONDS));
    g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (shortcuts)) == GTK_WINDOW (window));
    gtk_window_close (GTK_WINDOW (shortcuts));
    /* hidden, kept for the next time */
    g_assert_true (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)) == shortcuts);
    g_action_group_activate_action (G_ACTION_GROUP (app), "shortcuts", NULL);
    g_assert_true (ui_wait_for (ui_widget_is_shown, shortcuts, WAIT_SECONDS));
    g_assert_true (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)) == shortcuts);
    gtk_window_close (GTK_WINDOW (shortcuts));
  }

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  g_assert_true (ui_wait_for (about_shown, NULL, WAIT_SECONDS));
  about = ui_find_toplevel (GTK_TYPE_ABOUT_DIALOG);
  g_assert_cmpstr (gtk_about_dialog_get_version (GTK_ABOUT_DIALOG (about)), ==, PACKAGE_VERSION);

  /* its logo is the application's icon, from the resources (nothing is
   * installed here), not GTK's "missing image" */
  g_assert_cmpstr (gtk_about_dialog_get_logo_icon_name (GTK_ABOUT_DIALOG (about)), ==, APPLICATION_ID);
  {
    GtkIconTheme *theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (about)));
    g_autoptr(GtkIconPaintable) icon = NULL;
    g_autoptr(GtkIconPaintable) symbolic = NULL;
    g_autoptr(GFile) icon_file = NULL;
    g_autofree char *uri = NULL;
    GtkWidget *image = ui_find_by_type (GTK_WIDGET (about), GTK_TYPE_IMAGE);

    g_assert_true (gtk_icon_theme_has_icon (theme, APPLICATION_ID));
    g_assert_true (gtk_icon_theme_has_icon (theme, APPLICATION_ID "-symbolic"));
    icon = gtk_icon_theme_lookup_icon (theme, APPLICATION_ID, NULL, 128, 1, GTK_TEXT_DIR_NONE, 0);
    g_assert_cmpstr (gtk_icon_paintable_get_icon_name (icon), ==, APPLICATION_ID);
    icon_file = gtk_icon_paintable_get_file (icon);
    uri = g_file_get_uri (icon_file);
    g_assert_cmpstr (uri, ==, "resource:///io/github/parkan/MatEdit/icons/scalable/apps/" APPLICATION_ID ".svg");
    symbolic = gtk_icon_theme_lookup_icon (theme, APPLICATION_ID "-symbolic", NULL, 16, 1, GTK_TEXT_DIR_NONE, 0);
    g_assert_cmpstr (gtk_icon_paintable_get_icon_name (symbolic), ==, APPLICATION_ID "-symbolic");
    g_assert_nonnull (image);
    g_assert_cmpint (gtk_image_get_storage_type (GTK_IMAGE (image)), ==, GTK_IMAGE_ICON_NAME);
    g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (image)), ==, APPLICATION_ID);
  }
  ui_screenshot (GTK_WIDGET (about), "about.png");
  gtk_window_destroy (about);

  gtk_window_present (GTK_WINDOW (window));
  ui_spin_ms (50);
  g_action_group_activate_action (G_ACTION_GROUP (app), "shortcuts", NULL);
  g_assert_true (ui_wait_for (shortcuts_shown, NULL, WAIT_SECONDS));
  {
    GtkWindow *overlay = ui_find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW);

    ui_screenshot (GTK_WIDGET (overlay), "shortcuts.png");
    g_object_set (overlay, "section-name", "phases", NULL);
    ui_screenshot (GTK_WIDGET (overlay), "shortcuts-phases.png");
    g_object_set (overlay, "section-name", "timeline", NULL);
    ui_screenshot (GTK_WIDGET (overlay), "shortcuts-timeline.png");
    g_object_set (overlay, "section-name", "shortcuts", NULL);
    gtk_widget_set_visible (GTK_WIDGET (overlay), FALSE);
  }

  /* Find puts the focus in the search field. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.find", NULL);
  g_assert_nonnull (gtk_root_get_focus (GTK_ROOT (window)));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)),
                                         GTK_WIDGET (template_child (window, "search_entry"))));

  close_window (window);
}

/* Every accelerator the editor has, and what the shortcuts window shows */

/* The name of an accelerator; the keypad's copy of a key counts as the
 * key (the shortcuts window shows them alike). Returns: (transfer full) */
static char *
accelerator_name (guint           keyval,
                  GdkModifierType mods)
{
  static const guint keypad[][2] = {
    { GDK_KEY_KP_Delete, GDK_KEY_Delete }, { GDK_KEY_KP_Enter, GDK_KEY_Return },
    { GDK_KEY_KP_Insert, GDK_KEY_Insert }, { GDK_KEY_KP_Home, GDK_KEY_Home },
    { GDK_KEY_KP_End, GDK_KEY_End }, { GDK_KEY_KP_Add, GDK_KEY_plus },
    { GDK_KEY_KP_Subtract, GDK_KEY_minus }, { GDK_KEY_KP_0, GDK_KEY_0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keypad); i++)
    if (keyval == keypad[i][0])
      keyval = keypad[i][1];
  return gtk_accelerator_name (keyval, mods);
}

/* Adds the accelerators of @trigger to @set (name -> what it does). */
static void
add_trigger (GHashTable         *set,
             GtkShortcutTrigger *trigger,
             const char         *what)
{
  if (GTK_IS_KEYVAL_TRIGGER (trigger))
    {
      GtkKeyvalTrigger *key = GTK_KEYVAL_TRIGGER (trigger);

      g_hash_table_insert (set,
                           accelerator_name (gtk_keyval_trigger_get_keyval (key),
                                             gtk_keyval_trigger_get_modifiers (key)),
                           g_strdup (what));
    }
  else if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    {
      add_trigger (set, gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)), what);
      add_trigger (set, gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)), what);
    }
}

static char *
describe_shortcut (GtkWidget   *widget,
                   GtkShortcut *shortcut)
{
  GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
  g_autofree char *text = gtk_shortcut_action_to_string (action);

  return g_strdup_printf ("%s: %s", G_OBJECT_TYPE_NAME (widget), text);
}

/* The shortcuts of @widget's shortcut controllers that are not those of
 * @plain (an instance of GTK's class it derives from) into @set. */
static void
collect_shortcuts (GtkWidget  *widget,
                   GtkWidget  *plain,
                   GHashTable *set)
{
  g_autoptr(GHashTable) inherited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  if (plain != NULL)
    collect_shortcuts (plain, NULL, inherited);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          g_autoptr(GHashTable) mine = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          g_autofree char *what = describe_shortcut (widget, shortcut);
          GHashTableIter iter;
          gpointer key;

          add_trigger (mine, gtk_shortcut_get_trigger (shortcut), what);
          g_hash_table_iter_init (&iter, mine);
          while (g_hash_table_iter_next (&iter, &key, NULL))
            if (!g_hash_table_contains (inherited, key))
              g_hash_table_insert (set, g_strdup (key), g_strdup (what));
        }
    }
}

/* The nearest of @type's ancestors that is not the editor's own. */
static GType
gtk_ancestor (GType type)
{
  while (g_str_has_prefix (g_type_name (type), "Mat"))
    type = g_type_parent (type);
  return type;
}

/* An instance of @type, a widget of GTK's (%NULL for an abstract one,
 * which has no shortcuts of its own: GtkWidget). */
static GtkWidget *
plain_widget (GType type)
{
  if (G_TYPE_IS_ABSTRACT (type))
    return NULL;
  if (g_type_is_a (type, GTK_TYPE_WINDOW))
    return g_object_new (type, NULL);
  return g_object_ref_sink (g_object_new (type, NULL));
}

static void
drop_widget (GtkWidget *widget)
{
  if (widget == NULL)
    return;
  if (GTK_IS_WINDOW (widget))
    gtk_window_destroy (GTK_WINDOW (widget));
  else
    g_object_unref (widget);
}

/* Every widget of the editor's own under @root, and the shortcut
 * controllers the editor's templates add to GTK's widgets (named mat-*). */
static void
collect_tree (GtkWidget  *root,
              GHashTable *set)
{
  if (g_str_has_prefix (G_OBJECT_TYPE_NAME (root), "Mat"))
    {
      GtkWidget *plain = plain_widget (gtk_ancestor (G_OBJECT_TYPE (root)));

      collect_shortcuts (root, plain, set);
      drop_widget (plain);
    }
  else
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (root);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

          if (!GTK_IS_SHORTCUT_CONTROLLER (controller) ||
              gtk_event_controller_get_name (controller) == NULL ||
              !g_str_has_prefix (gtk_event_controller_get_name (controller), "mat-"))
            continue;
          for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
            {
              g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
              g_autofree char *what = describe_shortcut (root, shortcut);

              add_trigger (set, gtk_shortcut_get_trigger (shortcut), what);
            }
        }
    }

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_tree (child, set);
}

/* The accelerators the shortcuts window lists, as it shows them. */
static void
collect_listed (GtkWidget  *overlay,
                GHashTable *listed)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  ui_collect_by_type (overlay, GTK_TYPE_SHORTCUTS_SHORTCUT, rows);
  g_assert_cmpuint (rows->len, >, 10);
  for (guint i = 0; i < rows->len; i++)
    {
      g_autofree char *accelerator = NULL;
      g_autofree char *action = NULL;
      g_autofree char *title = NULL;

      g_object_get (g_ptr_array_index (rows, i), "accelerator", &accelerator,
                    "action-name", &action, "title", &title, NULL);
      if (action != NULL)
        {
          g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), action);

          /* a row naming an action without a key would show nothing */
          g_assert_nonnull (accels[0]);
          for (guint k = 0; accels[k] != NULL; k++)
            {
              guint keyval;
              GdkModifierType mods;

              g_assert_true (gtk_accelerator_parse (accels[k], &keyval, &mods));
              g_hash_table_insert (listed, accelerator_name (keyval, mods), g_strdup (title));
            }
        }
      if (accelerator != NULL)
        {
          g_auto(GStrv) accels = g_strsplit (accelerator, " ", -1);

          for (guint k = 0; accels[k] != NULL; k++)
            {
              guint keyval;
              GdkModifierType mods;

              g_assert_true (gtk_accelerator_parse (accels[k], &keyval, &mods));
              g_hash_table_insert (listed, accelerator_name (keyval, mods), g_strdup (title));
            }
        }
    }
}

static void
test_shortcuts_complete (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("shortcuts.lib", original);
  MatWindow *window = open_window (file);
  g_autoptr(GHashTable) registered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  GtkWidget *overlay;
  GHashTableIter iter;
  gpointer key, value;
  guint missing = 0;
  /* the windows and dialogs of the editor, as each is made */
  GType dialogs[] = { MAT_TYPE_NAME_DIALOG, MAT_TYPE_UNSAVED_DIALOG, MAT_TYPE_TEXTURE_PICKER,
                      MAT_TYPE_COMPARE_VIEW };

  /* the application's accelerators */
  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);

      for (guint k = 0; accels[k] != NULL; k++)
        {
          guint keyval;
          GdkModifierType mods;

          g_assert_true (gtk_accelerator_parse (accels[k], &keyval, &mods));
          g_hash_table_insert (registered, accelerator_name (keyval, mods), g_strdup (actions[i]));
        }
    }
  g_assert_cmpuint (g_hash_table_size (registered), >=, 15);

  /* the widgets' own: the window with a material on its pages */
  select_by_name (window, "COLOR_CYCLE");
  collect_tree (GTK_WIDGET (window), registered);
  for (guint i = 0; i < G_N_ELEMENTS (dialogs); i++)
    {
      GtkWidget *widget = plain_widget (dialogs[i]);

      collect_tree (widget, registered);
      drop_widget (widget);
    }

  g_hash_table_iter_init (&iter, registered);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_test_message ("accelerator %s: %s", (char *) key, (char *) value);

  /* the shortcuts window lists every one */
  overlay = GTK_WIDGET (mat_window_show_shortcuts (window));
  g_assert_nonnull (overlay);
  collect_listed (overlay, listed);
  g_hash_table_iter_init (&iter, registered);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (listed, key))
      {
        g_printerr ("not in the shortcuts window: %s (%s)\n", (char *) key, (char *) value);
        missing++;
      }
  g_assert_cmpuint (missing, ==, 0);

  close_window (window);
}

static void
test_settings (void)
{
  GSettings *settings = mat_application_get_settings (app);
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("recent.lib", original);
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *sort = NULL;
  g_auto(GStrv) recent = NULL;
  MatWindow *window;

  if (settings == NULL)
    {
      g_test_skip ("the settings schema is not compiled into GSETTINGS_SCHEMA_DIR");
      return;
    }

  g_settings_set_int (settings, "window-width", 900);
  g_settings_set_int (settings, "window-height", 600);
  window = open_window (file);
  recent = g_settings_get_strv (settings, "recent-files");
  g_assert_cmpstr (recent[0], ==, uri);
  {
    int width, height;

    gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
    g_assert_cmpint (width, ==, 900);
    g_assert_cmpint (height, ==, 600);
  }

  mat_drop_down_set_selected (template_child (window, "sort_dropdown"), 1);
  sort = g_settings_get_string (settings, "sort-order");
  g_assert_cmpstr (sort, ==, "name");
  mat_drop_down_set_selected (template_child (window, "sort_dropdown"), 0);

  close_window (window);
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

static void
test_quit (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file_a = temp_file ("quit-a.lib", original);
  g_autoptr(GFile) file_b = temp_file ("quit-b.lib", original);
  MatWindow *dirty = open_window (file_a);
  MatWindow *clean = open_window (file_b);
  gpointer weak_clean = clean;
  MatUnsavedDialog *dialog;

  g_object_add_weak_pointer (G_OBJECT (clean), &weak_clean);
  edit_one_param (select_by_name (dirty, "DEFAULT"));

  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak_clean, WAIT_SECONDS));
  g_assert_true (ui_wait_for (unsaved_dialog_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (dirty));
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.response", "s", "cancel");
  ui_spin_ms (50);
  g_assert_true (window_is_toplevel (dirty));
  g_assert_true (mat_library_get_dirty (mat_window_get_library (dirty)));

  close_window (dirty);
}

static void
test_demo (void)
{
  g_autofree char *dir = g_path_get_dirname (g_getenv ("DEMO_LIB"));
  g_autoptr(GFile) demo = NULL;
  g_autoptr(GFile) expected = g_file_new_for_path (g_getenv ("DEMO_LIB"));
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) other = temp_file ("replaces-demo.lib", original);
  GtkWindow *window;
  GtkLabel *subtitle;

  g_setenv ("MATEDIT_DEMO_DIR", dir, TRUE);
  demo = mat_application_find_demo ();
  g_assert_nonnull (demo);
  g_assert_true (g_file_equal (demo, expected));

  g_action_group_activate_action (G_ACTION_GROUP (app), "new-window", NULL);
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  if (window == NULL)
    window = GTK_WINDOW (gtk_application_get_windows (GTK_APPLICATION (app))->data);
  g_assert_true (MAT_IS_WINDOW (window));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_nonnull (mat_window_get_library (MAT_WINDOW (window)));
  g_assert_true (g_file_equal (mat_window_get_file (MAT_WINDOW (window)), demo));
  subtitle = template_child (MAT_WINDOW (window), "subtitle_label");
  g_assert_true (g_str_has_prefix (gtk_label_get_label (subtitle), "Demo library in "));
  g_assert_true (mat_window_get_replaceable (MAT_WINDOW (window)));

  /* Opening a file replaces the untouched demo in the same window. */
  mat_application_open_file (app, other, window);
  g_assert_true (g_file_equal (mat_window_get_file (MAT_WINDOW (window)), other));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_false (mat_window_get_replaceable (MAT_WINDOW (window)));
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);

  /* Opening it again presents the window that has it. */
  mat_application_open_file (app, other, NULL);
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);

  close_window (MAT_WINDOW (window));
  g_unsetenv ("MATEDIT_DEMO_DIR");
}

/* Saving that fails, opening that fails */

static guint
count_windows (void)
{
  guint n = 0;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (MAT_IS_WINDOW (l->data))
      n++;
  return n;
}

/* Every write of a save fails as on a full disk. */
static ssize_t
full_disk_write (int fd, const void *buf, size_t count)
{
  errno = ENOSPC;
  return -1;
}

static MatFileIO full_disk_io;

static void
fill_the_disk (gboolean full)
{
  if (full)
    {
      full_disk_io = *_mat_file_get_system_io ();
      full_disk_io.write = full_disk_write;
      _mat_file_set_io (&full_disk_io);
    }
  else
    _mat_file_set_io (NULL);
}

static gboolean
no_temporary_files (void)
{
  g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".tmp"))
      return FALSE;
  return TRUE;
}

/* The message shown: its texts, then closed. */
static void
take_message (char **text,
              char **secondary)
{
  const MatDialogRequest *request = wait_dialog (MAT_DIALOG_MESSAGE);

  *text = g_strdup (request->heading);
  *secondary = g_strdup (request->body);
  g_test_message ("message: %s / %s", *text, *secondary);
  answer_dialog (0);
  ui_spin_ms (50);
  g_assert_cmpuint (_mat_dialogs_get_n_shown (), ==, 0);
}

/* Asks to close, checks the unsaved-changes prompt comes, cancels it. */
static void
assert_close_asks (MatWindow *window)
{
  MatUnsavedDialog *dialog;

  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (unsaved_dialog_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG);
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.response", "s", "cancel");
  ui_spin_ms (50);
  g_assert_true (window_is_toplevel (window));
}

/* Ctrl+S on a full disk: an error that says so, the file as it was, the
 * unsaved mark and the edits kept, closing still asks. */
static void
test_save_fails (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("full.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  GtkLabel *title = template_child (window, "title_label");
  g_autoptr(GBytes) ours = NULL;
  g_autoptr(GBytes) on_disk = NULL;
  g_autofree char *text = NULL;
  g_autofree char *secondary = NULL;

  edit_one_param (select_by_name (window, "ROCK_WALL"));
  ours = ui_library_save (library);

  fill_the_disk (TRUE);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  fill_the_disk (FALSE);
  take_message (&text, &secondary);
  g_assert_cmpstr (text, ==, "Could Not Save “full.lib”");
  g_assert_cmpstr (secondary, ==,
                   "Could not write the new file: No space left on device. The original was left as it was.");

  on_disk = file_bytes (file);
  g_assert_true (g_bytes_equal (on_disk, original));
  g_assert_true (no_temporary_files ());
  g_assert_true (mat_library_get_dirty (library));
  g_assert_cmpstr (gtk_label_get_label (title), ==, "full.lib •");
  g_assert_true (g_file_equal (mat_library_get_file (library), file));
  /* not "another program changed the file": nothing did */
  ui_spin_ms (700);
  g_assert_false (gtk_revealer_get_reveal_child (template_child (window, "changed_revealer")));
  assert_close_asks (window);

  /* room again: the same edits are saved */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_clear_pointer (&on_disk, g_bytes_unref);
  on_disk = file_bytes (file);
  g_assert_true (g_bytes_equal (on_disk, ours));
  g_assert_cmpstr (gtk_label_get_label (title), ==, "full.lib");

  close_window (window);
}

/* "Overwrite" after a change on disk is one save over the same file; when
 * it fails nothing changes: their version on disk, our edits in the
 * window, the library on its own file, the unsaved mark, the prompt. */
static void
test_overwrite_fails (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("overwrite.lib", original);
  MatWindow *window = open_window (file);
  MatLibrary *library = mat_window_get_library (window);
  GtkLabel *title = template_child (window, "title_label");
  g_autoptr(GBytes) theirs = NULL;
  g_autoptr(GBytes) ours = NULL;
  g_autoptr(GBytes) on_disk = NULL;
  g_autofree char *text = NULL;
  g_autofree char *secondary = NULL;
  GByteArray *array;

  array = g_byte_array_new ();
  g_byte_array_append (array, g_bytes_get_data (original, NULL), g_bytes_get_size (original));
  array->data[16] ^= 0x01;
  theirs = g_byte_array_free_to_bytes (array);
  ui_spin_ms (50);
  write_file (file, theirs);
  g_assert_true (ui_wait_for (banner_shown, window, WAIT_SECONDS));
  edit_one_param (select_by_name (window, "METAL_PLATE"));
  ours = ui_library_save (library);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  wait_dialog (MAT_DIALOG_CHOICE);
  fill_the_disk (TRUE);
  answer_dialog (2);   /* Overwrite */
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  fill_the_disk (FALSE);
  take_message (&text, &secondary);
  g_assert_cmpstr (text, ==, "Could Not Save “overwrite.lib”");

  on_disk = file_bytes (file);
  g_assert_true (g_bytes_equal (on_disk, theirs));
  g_assert_true (no_temporary_files ());
  g_assert_true (mat_library_get_dirty (library));
  g_assert_true (g_file_equal (mat_library_get_file (library), file));
  g_assert_true (g_file_equal (mat_window_get_file (window), file));
  g_assert_cmpstr (gtk_label_get_label (title), ==, "overwrite.lib •");
  assert_close_asks (window);

  /* Overwrite again, with room: one save, ours on disk, clean */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  wait_dialog (MAT_DIALOG_CHOICE);
  answer_dialog (2);
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  ui_spin_ms (50);
  g_clear_pointer (&on_disk, g_bytes_unref);
  on_disk = file_bytes (file);
  g_assert_true (g_bytes_equal (on_disk, ours));
  g_assert_false (mat_library_get_dirty (library));
  g_assert_true (g_file_equal (mat_library_get_file (library), file));
  g_assert_cmpstr (gtk_label_get_label (title), ==, "overwrite.lib");
  g_assert_false (gtk_revealer_get_reveal_child (template_child (window, "changed_revealer")));

  close_window (window);
}

/* A file with a second hard link: saved as a file of its own, said once. */
static void
test_save_hard_link_note (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("linked.lib", original);
  g_autofree char *other = g_build_filename (tmp_dir, "linked-too.lib", NULL);
  MatWindow *window;
  g_autofree char *text = NULL;
  g_autofree char *secondary = NULL;
  g_autoptr(GBytes) still = NULL;

  g_assert_cmpint (link (g_file_peek_path (file), other), ==, 0);
  window = open_window (file);
  edit_one_param (select_by_name (window, "ROCK_WALL"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  take_message (&text, &secondary);
  g_assert_cmpstr (text, ==, "Saved as a Separate File");
  g_assert_true (g_str_has_prefix (secondary, "“linked.lib” had other hard links."));
  {
    g_autoptr(GFile) other_file = g_file_new_for_path (other);

    still = file_bytes (other_file);
  }
  g_assert_true (g_bytes_equal (still, original));

  /* once */
  edit_one_param (select_by_name (window, "ROCK_WALL"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  ui_spin_ms (100);
  g_assert_cmpuint (_mat_dialogs_get_n_shown (), ==, 0);
  g_unlink (other);
  close_window (window);
}

/* A file that does not open from a window that shows a library: no empty
 * window is left, the message says in plain words what is wrong; the
 * demo a file was to replace stays. */
static void
test_open_fails (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (original, 0, 1900);
  g_autoptr(GFile) file = temp_file ("shown.lib", original);
  g_autoptr(GFile) demo = temp_file ("demo-kept.lib", original);
  g_autoptr(GFile) bad = temp_file ("short.lib", cut);
  gsize size = g_bytes_get_size (original);
  /* in plain words first, with the sizes grouped; then the exact detail */
  g_autofree char *summary = g_strdup_printf ("The file is cut short: 1,900 of %" G_GSIZE_FORMAT ",%03" G_GSIZE_FORMAT " bytes.",
                                              size / 1000, size % 1000);
  g_autofree char *message = g_strdup_printf ("%s\n\n(header): offset 12: expected total size 1900 (the file size), found %" G_GSIZE_FORMAT,
                                              summary, size);
  MatWindow *window = open_window (file);
  MatWindow *demo_window = mat_window_new (app);
  guint before;

  edit_one_param (select_by_name (window, "ROCK_WALL"));   /* not replaceable */
  before = count_windows ();
  mat_application_open_file (app, bad, NULL);
  ui_spin_ms (50);
  {
    g_autofree char *text = NULL;
    g_autofree char *secondary = NULL;

    take_message (&text, &secondary);
    g_assert_cmpstr (text, ==, "Could Not Open “short.lib”");
    g_assert_cmpuint (size, >, 1900);
    g_assert_cmpuint (size, <, 1000000);
    g_assert_cmpstr (secondary, ==, message);
  }
  g_assert_cmpuint (count_windows (), ==, before);
  g_assert_null (window_for (bad));
  g_assert_true (mat_library_get_dirty (mat_window_get_library (window)));

  /* into a window showing the demo: the demo stays */
  mat_window_open (demo_window, demo, TRUE);
  gtk_window_present (GTK_WINDOW (demo_window));
  g_assert_true (ui_wait_for (not_busy, demo_window, WAIT_SECONDS));
  g_assert_true (mat_window_get_replaceable (demo_window));
  mat_window_open (demo_window, bad, FALSE);
  g_assert_true (ui_wait_for (not_busy, demo_window, WAIT_SECONDS));
  {
    g_autofree char *text = NULL;
    g_autofree char *secondary = NULL;

    take_message (&text, &secondary);
    g_assert_true (g_str_has_prefix (secondary, summary));
  }
  g_assert_nonnull (mat_window_get_library (demo_window));
  g_assert_true (g_file_equal (mat_window_get_file (demo_window), demo));
  g_assert_true (mat_window_get_replaceable (demo_window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (template_child (demo_window, "main_stack")),
                   ==, "material");

  close_window (demo_window);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  close_window (window);
}

/* A FIFO: refused at once, never "Loading…" forever. */
static void
test_open_fifo (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "pipe.lib", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  MatWindow *window = mat_window_new (app);
  GtkLabel *label = template_child (window, "library_error_label");

  g_assert_cmpint (mkfifo (path, 0644), ==, 0);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (not_busy, window, 5));
  g_assert_null (mat_window_get_library (window));
  g_assert_cmpstr (mat_window_get_load_error (window), ==,
                   "This is not a library file.\n\nThis is a named pipe (FIFO), not a regular file");
  g_assert_cmpstr (gtk_label_get_label (label), ==, mat_window_get_load_error (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (template_child (window, "main_stack")), ==,
                   "library-error");
  close_window (window);
  g_unlink (path);
}

/* A new window is shown once its library has loaded: the first thing
 * drawn is the library, not a "Loading…" page replaced a moment later.
 * A window for a file that does not open, beside another window, is
 * never shown at all. */
static void
record_page_at_map (GtkWidget *window,
                    gpointer   data)
{
  char **page = data;

  g_free (*page);
  *page = g_strdup (gtk_stack_get_visible_child_name (template_child (MAT_WINDOW (window),
                                                                      "main_stack")));
}

static void
note_mapped (GtkWidget *widget,
             gpointer   data)
{
  *(gboolean *) data = TRUE;
}

static void
test_present_when_loaded (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("shown.lib", original);
  g_autofree char *bad_path = g_build_filename (tmp_dir, "short.lib", NULL);
  g_autoptr(GFile) bad = g_file_new_for_path (bad_path);
  g_autofree char *page = NULL;
  MatWindow *window = mat_window_new (app);
  MatWindow *failing;
  gboolean failing_mapped = FALSE;

  g_signal_connect (window, "map", G_CALLBACK (record_page_at_map), &page);
  mat_window_open (window, file, FALSE);
  mat_window_present_when_loaded (window);
  /* not yet: the library is being read */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window)));
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  g_assert_nonnull (mat_window_get_library (window));
  g_assert_cmpstr (page, ==, "material");

  /* a window already shown is presented at once */
  mat_window_present_when_loaded (window);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window)));

  /* a file cut short, opened in a new window beside this one: the
   * message goes to this window and the new one never shows */
  g_assert_true (g_file_set_contents (bad_path, "NRes", 4, NULL));
  failing = mat_window_new (app);
  g_object_add_weak_pointer (G_OBJECT (failing), (gpointer *) &failing);
  g_signal_connect (failing, "map", G_CALLBACK (note_mapped), &failing_mapped);
  mat_window_open (failing, bad, FALSE);
  mat_window_present_when_loaded (failing);
  g_assert_cmpint (wait_dialog (MAT_DIALOG_MESSAGE)->kind, ==, MAT_DIALOG_MESSAGE);
  g_assert_true (ui_wait_for (ui_pointer_cleared, &failing, WAIT_SECONDS));
  g_assert_false (failing_mapped);
  answer_dialog (-1);
  close_window (window);
}

/* With the backup setting, a save keeps the previous file as FILE.bak. */
static void
test_save_backup (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("kept.lib", original);
  g_autofree char *backup = g_build_filename (tmp_dir, "kept.lib.bak", NULL);
  g_autofree char *tilde = g_build_filename (tmp_dir, "kept.lib~", NULL);
  GSettings *settings = mat_application_get_settings (app);
  MatWindow *window;
  g_autoptr(GBytes) kept = NULL;
  GStatBuf st;

  g_assert_cmpint (g_chmod (g_file_peek_path (file), 0640), ==, 0);
  g_settings_set_boolean (settings, "make-backup", TRUE);
  window = open_window (file);
  edit_one_param (select_by_name (window, "ROCK_WALL"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_settings_set_boolean (settings, "make-backup", FALSE);

  {
    g_autoptr(GFile) backup_file = g_file_new_for_path (backup);

    kept = file_bytes (backup_file);
  }
  g_assert_true (g_bytes_equal (kept, original));
  g_assert_cmpint (g_stat (backup, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 07777, ==, 0640);
  g_assert_false (g_file_test (tilde, G_FILE_TEST_EXISTS));
  close_window (window);
  g_unlink (backup);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  /* A home of our own: recent files, caches and the folder names shown
   * in the title bar ("~/Parkan") stay out of the real one. */
  tmp_dir = g_dir_make_tmp ("test-window-XXXXXX", &error);
  g_assert_no_error (error);
  {
    const char *dirs[] = { "XDG_DATA_HOME", ".local/share", "XDG_CONFIG_HOME", ".config",
                           "XDG_CACHE_HOME", ".cache" };

    g_setenv ("HOME", tmp_dir, TRUE);
    for (guint i = 0; i < G_N_ELEMENTS (dirs); i += 2)
      {
        g_autofree char *path = g_build_filename (tmp_dir, dirs[i + 1], NULL);

        g_mkdir_with_parents (path, 0700);
        g_setenv (dirs[i], path, TRUE);
      }
  }

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("DEMO_LIB") == NULL)
    {
      g_printerr ("DEMO_LIB is not set (run through meson test)\n");
      remove_tree (tmp_dir);
      return 77;
    }

  app = mat_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/window/animation-page", test_animation_page);
  g_test_add_func ("/ui/window/one-clock", test_one_clock);
  g_test_add_func ("/ui/app/accels", test_accels);
  g_test_add_func ("/ui/app/settings", test_settings);
  g_test_add_func ("/ui/app/about-and-shortcuts", test_about_and_shortcuts);
  g_test_add_func ("/ui/app/shortcuts-complete", test_shortcuts_complete);
  g_test_add_func ("/ui/app/quit", test_quit);
  g_test_add_func ("/ui/app/demo", test_demo);
  g_test_add_func ("/ui/window/open", test_open);
  g_test_add_func ("/ui/window/select", test_select);
  g_test_add_func ("/ui/window/undo-redo", test_undo_redo);
  g_test_add_func ("/ui/window/save", test_save);
  g_test_add_func ("/ui/window/changed-on-disk", test_changed_on_disk);
  g_test_add_func ("/ui/window/close-prompt", test_close_prompt);
  g_test_add_func ("/ui/window/save-fails", test_save_fails);
  g_test_add_func ("/ui/window/overwrite-fails", test_overwrite_fails);
  g_test_add_func ("/ui/window/save-hard-link-note", test_save_hard_link_note);
  g_test_add_func ("/ui/window/save-backup", test_save_backup);
  g_test_add_func ("/ui/window/open-fails", test_open_fails);
  g_test_add_func ("/ui/window/open-fifo", test_open_fifo);
  g_test_add_func ("/ui/window/present-when-loaded", test_present_when_loaded);
  g_test_add_func ("/ui/window/search", test_search);
  g_test_add_func ("/ui/window/sort", test_sort);
  g_test_add_func ("/ui/window/rows", test_rows);
  g_test_add_func ("/ui/window/drop-files", test_drop_files);
  g_test_add_func ("/ui/window/bad-library", test_bad_library);
  g_test_add_func ("/ui/window/bad-material", test_bad_material);
  g_test_add_func ("/ui/window/lint-panel", test_lint_panel);
  g_test_add_func ("/ui/window/tooltip-set", test_tooltip_set);
  g_test_add_func ("/ui/window/template-tooltips", test_template_tooltips);
  g_test_add_func ("/ui/window/drop-down", test_drop_down);
  g_test_add_func ("/ui/window/icon", test_window_icon);
  g_test_add_func ("/ui/window/stacks-sized-by-page", test_stacks_sized_by_page);
  g_test_add_func ("/ui/window/wrapped-labels", test_wrapped_labels);
  g_test_add_func ("/ui/window/material-management", test_material_management);
  g_test_add_func ("/ui/window/screenshot", test_screenshot);
  g_test_add_func ("/ui/window/delete-key", test_delete_key);
  g_test_add_func ("/ui/window/tab-stops", test_tab_stops);
  g_test_add_func ("/ui/window/new-material-in-view", test_new_material_in_view);
  g_test_add_func ("/ui/window/problem-goes-there", test_problem_goes_there);
  g_test_add_func ("/ui/window/duplicate-names", test_duplicate_names);
  g_test_add_func ("/ui/window/file-choosers", test_file_choosers);

  status = g_test_run ();

  g_clear_object (&app);
  remove_tree (tmp_dir);
  g_free (tmp_dir);

  return status;
}
