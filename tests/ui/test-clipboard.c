/* test-clipboard.c - materials and phases copied, pasted, dragged, exported
 * and imported between two real windows, under Xvfb
 *
 * Ctrl+C and Ctrl+V are real key presses through the X server (XTest) to
 * the focused window. The drag between the lists is simulated at the
 * controllers: the list's GtkDragSource is asked for its content
 * ("prepare" at a row's position, as a drag would) and the real
 * GdkContentProvider's value is dropped through the other list's
 * GtkDropTarget ("drop"); a real pointer drag between two windows needs a
 * window manager and a drag protocol Xvfb alone does not give.
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gdk/x11/gdkx.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

#include "mat-application.h"
#include "mat-material-json.h"
#include "mat-material-row.h"
#include "mat-name-dialog.h"
#include "mat-phase-table-private.h"
#include "mat-window.h"
#include "mat-window-clipboard.h"
#include "test-support.h"
#include "ui-support.h"

#define WAIT_SECONDS 20

static MatApplication *app;
static char *tmp_dir;

/* Helpers */

static GFile *
temp_file (const char *name,
           GBytes     *bytes)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  GFile *file = g_file_new_for_path (path);

  g_file_replace_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                           NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  return file;
}

/* A small library with no name of the demo's: ALPHA and BETA. */
static GBytes *
other_library (void)
{
  g_autoptr(GBytes) worked = test_worked_example_payload (1);
  TestEntrySpec specs[] = {
    { 0x3054414D, 0x01, 6, 0, "ALPHA", NULL, 0, 0 },
    { 0x3054414D, 0x08, 6, 0, "BETA", NULL, 0, 0 },
  };

  specs[0].payload = g_bytes_get_data (worked, &specs[0].size);
  specs[1].payload = g_bytes_get_data (worked, &specs[1].size);
  return test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
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

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  g_assert_nonnull (mat_window_get_library (window));
  return window;
}

static void
close_window (MatWindow *window)
{
  ui_close_window (GTK_WINDOW (window));
}

static gboolean
is_1100_by_720 (gpointer data)
{
  return gtk_widget_get_width (data) == 1100 && gtk_widget_get_height (data) == 720;
}

/* The window's own area 1100 x 720 (the default size counts the frame
 * GTK draws around it too). */
static void
size_1100_by_720 (MatWindow *window)
{
  int width = gtk_widget_get_width (GTK_WIDGET (window));
  int height = gtk_widget_get_height (GTK_WIDGET (window));

  gtk_window_set_default_size (GTK_WINDOW (window), 1100 + (1100 - width), 720 + (720 - height));
  g_assert_true (ui_wait_for (is_1100_by_720, window, WAIT_SECONDS));
}

static gpointer
template_child (MatWindow  *window,
                const char *name)
{
  return ui_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW, name);
}

static MatMaterial *
select_by_name (MatWindow  *window,
                const char *name)
{
  MatMaterial *material = mat_library_find (mat_window_get_library (window), name);

  g_assert_nonnull (material);
  mat_window_select_material (window, material);
  g_assert_true (mat_window_get_selected_material (window) == material);
  return material;
}

static gboolean
table_shows (gpointer data)
{
  MatWindow *window = data;
  MatPhaseTable *table = template_child (window, "phase_table");

  return mat_phase_table_get_material (table) == mat_window_get_selected_material (window);
}

static guint
n_items (MatWindow *window)
{
  return g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_library (window)));
}

typedef struct {
  MatWindow *window;
  guint      n;
} CountWait;

static gboolean
has_n_items (gpointer data)
{
  CountWait *wait = data;

  return n_items (wait->window) == wait->n;
}

/* The window on top, under the pointer and with the X input focus, and
 * @widget the keyboard focus. */
static gboolean
under_pointer (gpointer data)
{
  GtkWidget *window = data;
  Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (window));
  Window xid = gdk_x11_surface_get_xid (gtk_native_get_surface (GTK_NATIVE (window)));
  Window root, child = None;
  int root_x, root_y, x, y;
  unsigned int mask;

  XQueryPointer (xdisplay, DefaultRootWindow (xdisplay), &root, &child, &root_x, &root_y, &x, &y, &mask);
  return child == xid;
}

static void
focus (MatWindow *window,
       GtkWidget *widget)
{
  Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));

  gtk_window_present (GTK_WINDOW (window));
  ui_pointer_move (widget, 10, 10);
  g_assert_true (ui_wait_for (under_pointer, window, WAIT_SECONDS));
  /* what a window manager does on a click: the keyboard to this window */
  XSetInputFocus (xdisplay, gdk_x11_surface_get_xid (gtk_native_get_surface (GTK_NATIVE (window))),
                  RevertToPointerRoot, CurrentTime);
  XSync (xdisplay, False);
  ui_spin_ms (50);
  gtk_widget_grab_focus (widget);
  ui_spin_ms (50);
  g_assert_nonnull (gtk_root_get_focus (GTK_ROOT (window)));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), widget) ||
                 gtk_root_get_focus (GTK_ROOT (window)) == widget);
}

/* Real key presses through the X server: @keysym with Control held. */
static void
send_control_key (GtkWidget *widget,
                  guint      keysym)
{
  Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  KeyCode control = XKeysymToKeycode (xdisplay, XK_Control_L);
  KeyCode code = XKeysymToKeycode (xdisplay, keysym);

  g_assert_cmpuint (code, !=, 0);
  XTestFakeKeyEvent (xdisplay, control, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, False, CurrentTime);
  XTestFakeKeyEvent (xdisplay, control, False, CurrentTime);
  XFlush (xdisplay);
  ui_spin_ms (80);
}

typedef struct {
  gboolean  done;
  char     *text;
} TextRead;

static void
text_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  TextRead *read = user_data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, NULL);
  read->done = TRUE;
}

static gboolean
text_read_done (gpointer data)
{
  return ((TextRead *) data)->done;
}

/* Returns: (transfer full) (nullable): the clipboard's text. */
static char *
clipboard_text (GtkWidget *widget)
{
  TextRead read = { FALSE, NULL };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, text_read_cb, &read);
  g_assert_true (ui_wait_for (text_read_done, &read, WAIT_SECONDS));
  return read.text;
}

/* The payload and directory entry a save of @library writes for
 * @material. */
static GBytes *
saved_payload (MatLibrary  *library,
               MatMaterial *material,
               NresEntry   *entry)
{
  g_autoptr(GBytes) bytes = ui_library_save (library);
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, NULL);
  gint index = mat_library_index_of (library, material);

  g_assert_nonnull (archive);
  g_assert_cmpint (index, >=, 0);
  if (entry != NULL)
    *entry = archive->entries[index];
  return nres_archive_payload_bytes (archive, (guint) index);
}

static void
assert_same_bytes (GBytes *a,
                   GBytes *b)
{
  gsize first = G_MAXSIZE;

  g_assert_cmpuint (g_bytes_get_size (a), ==, g_bytes_get_size (b));
  g_assert_cmpuint (ui_count_byte_differences (a, b, &first), ==, 0);
}

/* What undo of the last step gives back: the file's bytes. */
static void
assert_undo_to (MatWindow *window,
                GBytes    *original)
{
  MatLibrary *library = mat_window_get_library (window);
  g_autoptr(GBytes) now = NULL;

  g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (library)), ==, 1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  now = ui_library_save (library);
  assert_same_bytes (now, original);
  g_assert_false (mat_library_get_dirty (library));
}

static GtkEventController *
find_controller (GtkWidget *widget,
                 GType      type,
                 GType      content)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        continue;
      if (content != G_TYPE_INVALID &&
          !gdk_content_formats_contain_gtype (gtk_drop_target_get_formats (GTK_DROP_TARGET (controller)),
                                              content))
        continue;
      return controller;
    }
  return NULL;
}

static gboolean
row_of (GtkWidget     *widget,
        gconstpointer  material)
{
  return MAT_IS_MATERIAL_ROW (widget) &&
         mat_material_row_get_material (MAT_MATERIAL_ROW (widget)) == material;
}

#if !GTK_CHECK_VERSION (4, 10, 0)
static gboolean
message_shown (gpointer data)
{
  return ui_find_toplevel (GTK_TYPE_MESSAGE_DIALOG) != NULL;
}

/* The message dialog shown: its texts, then closed. */
static void
take_message (char **text,
              char **secondary)
{
  GtkWidget *dialog;

  g_assert_true (ui_wait_for (message_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (GTK_TYPE_MESSAGE_DIALOG);
  g_object_get (dialog, "text", text, "secondary-text", secondary, NULL);
  g_test_message ("message: %s / %s", *text, *secondary);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  ui_spin_ms (50);
  g_assert_null (ui_find_toplevel (GTK_TYPE_MESSAGE_DIALOG));
}

static gboolean
has_label (GtkWidget     *widget,
           gconstpointer  text)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), text) == 0;
}

/* The file chooser dialog on screen (an earlier one may linger hidden).
 * Returns: (transfer none) (nullable). */
static GtkWidget *
visible_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (window) && gtk_widget_get_visible (window))
        return window;
    }
  return NULL;
}

/* The file chooser dialog would answer @data (a GFile). */
static gboolean
chooser_has_file (gpointer data)
{
  GtkWidget *dialog = visible_chooser ();
  g_autoptr(GFile) file = dialog != NULL ? gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog)) : NULL;

  return file != NULL && g_file_equal (file, data);
}

static gboolean
chooser_shown (gpointer data)
{
  return visible_chooser () != NULL;
}
#endif

static gboolean
name_dialog_shown (gpointer data)
{
  return ui_find_toplevel (MAT_TYPE_NAME_DIALOG) != NULL;
}

/* Tests */

/* Ctrl+C in one window's list, Ctrl+V in the other's: the material
 * arrives with the same payload and directory fields, byte for byte, as
 * one step; the search field is left alone. */
static void
test_copy_paste_material (void)
{
  g_autoptr(GBytes) demo = ui_demo_bytes ();
  g_autoptr(GBytes) other = other_library ();
  g_autoptr(GFile) file_a = temp_file ("copy-a.lib", demo);
  g_autoptr(GFile) file_b = temp_file ("copy-b.lib", other);
  MatWindow *a = open_window (file_a);
  MatWindow *b = open_window (file_b);
  g_autoptr(NresArchive) archive = nres_archive_parse (demo, NULL);
  MatMaterial *material = select_by_name (a, "FLICKER_LAMP");
  g_autofree char *text = NULL;
  g_autofree char *expected = mat_material_to_json (material, NULL);
  g_autoptr(GBytes) pasted = NULL;
  g_autoptr(GBytes) original = NULL;
  MatMaterial *copy;
  NresEntry entry;
  gint index = mat_library_index_of (mat_window_get_library (a), material);
  CountWait wait = { b, n_items (b) + 1 };

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (a)), "nothing yet");
  focus (a, template_child (a, "list_view"));
  send_control_key (GTK_WIDGET (a), XK_c);
  text = clipboard_text (GTK_WIDGET (a));
  g_assert_cmpstr (text, ==, expected);

  focus (b, template_child (b, "list_view"));
  send_control_key (GTK_WIDGET (b), XK_v);
  g_assert_true (ui_wait_for (has_n_items, &wait, WAIT_SECONDS));
  copy = mat_library_get_material (mat_window_get_library (b), wait.n - 1);
  g_assert_cmpstr (mat_material_get_name (copy), ==, "FLICKER_LAMP");
  g_assert_true (mat_window_get_selected_material (b) == copy);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (template_child (b, "search_entry"))), ==, "");

  pasted = saved_payload (mat_window_get_library (b), copy, &entry);
  original = nres_archive_payload_bytes (archive, (guint) index);
  assert_same_bytes (pasted, original);
  g_assert_cmpmem (entry.name, NRES_NAME_SIZE, archive->entries[index].name, NRES_NAME_SIZE);
  g_assert_cmpuint (entry.attr1, ==, archive->entries[index].attr1);
  g_assert_cmpuint (entry.attr2, ==, archive->entries[index].attr2);
  g_assert_cmpuint (entry.attr3, ==, archive->entries[index].attr3);

  /* undo takes the library back to its file's bytes */
  assert_undo_to (b, other);
  g_assert_cmpuint (n_items (b), ==, wait.n - 1);

  /* the menu item does what the key did */
  gtk_widget_activate_action (GTK_WIDGET (b), "win.paste", NULL);
  g_assert_true (ui_wait_for (has_n_items, &wait, WAIT_SECONDS));

  close_window (b);
  close_window (a);
}

/* Ctrl+C in the phase table copies the selected phase; Ctrl+V in the
 * other window's phase table puts it over the selected phase, 34 bytes,
 * one step. In a text field of the table the keys stay the field's. */
static void
test_copy_paste_phase (void)
{
  g_autoptr(GBytes) demo = ui_demo_bytes ();
  g_autoptr(GBytes) other = other_library ();
  g_autoptr(GFile) file_a = temp_file ("phase-a.lib", demo);
  g_autoptr(GFile) file_b = temp_file ("phase-b.lib", other);
  MatWindow *a = open_window (file_a);
  MatWindow *b = open_window (file_b);
  MatPhaseTable *table_a = template_child (a, "phase_table");
  MatPhaseTable *table_b = template_child (b, "phase_table");
  MatMaterial *glow = select_by_name (a, "HALO_GLOW");
  MatMaterial *alpha;
  g_autoptr(MatPhase) source = NULL;
  g_autoptr(MatPhase) target = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GBytes) payload = NULL;
  GtkEntry *texture;
  GtkWidget *column_view;

  g_assert_true (ui_wait_for (table_shows, a, WAIT_SECONDS));
  mat_phase_table_set_selected (table_a, 1);
  source = ui_phase_at (glow, 1);
  g_object_ref (source);
  expected = mat_phase_to_json (source);

  column_view = ui_find_by_type (GTK_WIDGET (table_a), GTK_TYPE_COLUMN_VIEW);
  g_assert_nonnull (column_view);
  focus (a, column_view);
  g_assert_false (GTK_IS_EDITABLE (gtk_root_get_focus (GTK_ROOT (a))));
  send_control_key (GTK_WIDGET (a), XK_c);
  text = clipboard_text (GTK_WIDGET (a));
  g_assert_cmpstr (text, ==, expected);

  /* in the texture field, Ctrl+C copies its text, not the phase */
  texture = mat_phase_table_get_texture_for_test (table_a, 1);
  g_assert_nonnull (texture);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (texture)), ==, "GLOW.0");
  gtk_widget_grab_focus (GTK_WIDGET (texture));
  ui_spin_ms (50);
  g_assert_true (GTK_IS_EDITABLE (gtk_root_get_focus (GTK_ROOT (a))));
  gtk_editable_select_region (GTK_EDITABLE (texture), 0, -1);
  send_control_key (GTK_WIDGET (a), XK_c);
  g_free (text);
  text = clipboard_text (GTK_WIDGET (a));
  g_assert_cmpstr (text, ==, "GLOW.0");
  g_assert_false (mat_library_get_dirty (mat_window_get_library (a)));
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (a)), expected);

  /* into the other window: over its selected phase */
  alpha = select_by_name (b, "ALPHA");
  g_assert_true (ui_wait_for (table_shows, b, WAIT_SECONDS));
  mat_phase_table_set_selected (table_b, 0);
  column_view = ui_find_by_type (GTK_WIDGET (table_b), GTK_TYPE_COLUMN_VIEW);
  focus (b, column_view);
  g_assert_false (GTK_IS_EDITABLE (gtk_root_get_focus (GTK_ROOT (b))));
  send_control_key (GTK_WIDGET (b), XK_v);
  target = ui_phase_at (alpha, 0);
  g_object_ref (target);
  g_assert_cmpmem (mat_phase_get_params (target), 18, mat_phase_get_params (source), 18);
  g_assert_cmpmem (mat_phase_get_texture_raw (target), 16, mat_phase_get_texture_raw (source), 16);
  g_assert_cmpuint (mat_material_get_n_phases (alpha), ==, 2);
  g_assert_cmpuint (mat_phase_table_get_selected (table_b), ==, 0);

  payload = saved_payload (mat_window_get_library (b), alpha, NULL);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (payload, NULL) + 14, 18,
                   mat_phase_get_params (source), 18);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (payload, NULL) + 14 + 18, 16,
                   mat_phase_get_texture_raw (source), 16);
  assert_undo_to (b, other);

  close_window (b);
  close_window (a);
}

/* The name is taken: a dialog proposes a free one the user may edit; the
 * material arrives under it, bytes as they were, one step. */
static void
test_paste_clash (void)
{
  g_autoptr(GBytes) demo = ui_demo_bytes ();
  g_autoptr(GFile) file_a = temp_file ("clash-a.lib", demo);
  g_autoptr(GFile) file_b = temp_file ("clash-b.lib", demo);
  MatWindow *a = open_window (file_a);
  MatWindow *b = open_window (file_b);
  MatMaterial *rock = select_by_name (a, "ROCK_WALL");

  size_1100_by_720 (b);
  g_autoptr(GBytes) original = saved_payload (mat_window_get_library (a), rock, NULL);
  g_autoptr(GBytes) pasted = NULL;
  g_autofree char *title = NULL;
  MatNameDialog *dialog;
  GtkEditable *name;
  MatMaterial *copy;
  CountWait wait = { b, n_items (b) + 1 };

  focus (a, template_child (a, "list_view"));
  send_control_key (GTK_WIDGET (a), XK_c);
  focus (b, template_child (b, "list_view"));
  send_control_key (GTK_WIDGET (b), XK_v);
  g_assert_true (ui_wait_for (name_dialog_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (MAT_TYPE_NAME_DIALOG);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (b));
  name = GTK_EDITABLE (gtk_widget_get_template_child (GTK_WIDGET (dialog), MAT_TYPE_NAME_DIALOG,
                                                      "name_entry"));
  g_assert_cmpstr (gtk_editable_get_text (name), ==, "ROCK_WALL_2");
  g_assert_null (mat_name_dialog_get_message (dialog));
  /* Translators' text, as the user reads it */
  title = g_strdup_printf (_("Paste “%s”"), "ROCK_WALL");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, title);
  g_assert_cmpuint (n_items (b), ==, wait.n - 1);

  /* the taken name is refused as typed */
  gtk_editable_set_text (name, "rock_wall");
  g_assert_nonnull (mat_name_dialog_get_message (dialog));
  gtk_editable_set_text (name, "ROCK_WALL_2");
  ui_spin_ms (100);
  {
    g_autofree char *shot = g_strdup_printf ("paste-clash-%s.png",
                                             g_strcmp0 (g_getenv ("LANGUAGE"), "ru") == 0 ? "ru" : "en");
    GtkWidget *window = GTK_WIDGET (b);
    g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
    g_autoptr(GdkPaintable) under = gtk_widget_paintable_new (window);
    g_autoptr(GdkPaintable) over = gtk_widget_paintable_new (GTK_WIDGET (dialog));
    g_autoptr(GskRenderNode) node = NULL;
    g_autoptr(GdkTexture) texture = NULL;
    int width = gtk_widget_get_width (window);
    int height = gtk_widget_get_height (window);
    int dw = gtk_widget_get_width (GTK_WIDGET (dialog));
    int dh = gtk_widget_get_height (GTK_WIDGET (dialog));

    /* The dialog over its window, centred, as a window manager shows it
     * (Xvfb alone puts it in a corner of the screen). */
    g_assert_cmpint (width, ==, 1100);
    g_assert_cmpint (height, ==, 720);
    gtk_widget_queue_draw (window);
    gtk_widget_queue_draw (GTK_WIDGET (dialog));
    ui_spin_ms (300);
    gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 1, 1, 1, 1 },
                               &GRAPHENE_RECT_INIT (0, 0, width, height));
    gdk_paintable_snapshot (under, GDK_SNAPSHOT (snapshot), width, height);
    gtk_snapshot_save (snapshot);
    gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((width - dw) / 2.f, (height - dh) / 3.f));
    gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 1, 1, 1, 1 }, &GRAPHENE_RECT_INIT (0, 0, dw, dh));
    gdk_paintable_snapshot (over, GDK_SNAPSHOT (snapshot), dw, dh);
    gtk_snapshot_restore (snapshot);
    node = gtk_snapshot_to_node (snapshot);
    g_assert_nonnull (node);
    texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                           &GRAPHENE_RECT_INIT (0, 0, width, height));
    ui_save_texture (texture, shot);
  }

  /* the user's own choice */
  gtk_editable_set_text (name, "ROCK_WALL_FROM_A");
  gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.accept", NULL);
  g_assert_true (ui_wait_for (has_n_items, &wait, WAIT_SECONDS));
  g_assert_null (ui_find_toplevel (MAT_TYPE_NAME_DIALOG));
  copy = mat_library_get_material (mat_window_get_library (b), wait.n - 1);
  g_assert_cmpstr (mat_material_get_name (copy), ==, "ROCK_WALL_FROM_A");
  g_assert_true (mat_window_get_selected_material (b) == copy);
  pasted = saved_payload (mat_window_get_library (b), copy, NULL);
  assert_same_bytes (pasted, original);
  assert_undo_to (b, demo);

  close_window (b);
  close_window (a);
}

typedef struct {
  gboolean  done;
  GBytes   *bytes;
  GValue    value;
} Transfer;

static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Transfer *transfer = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (gdk_content_serialize_finish (result, &error));
  g_assert_no_error (error);
  transfer->done = TRUE;
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Transfer *transfer = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (gdk_content_deserialize_finish (result, &transfer->value, &error));
  g_assert_no_error (error);
  transfer->done = TRUE;
}

static gboolean
transfer_done (gpointer data)
{
  return ((Transfer *) data)->done;
}

/* A row of one window's list dragged onto the other's list: the drag
 * holds the material's JSON (as its own type and as plain text) and the
 * drop pastes it, the same bytes, one step. */
static void
test_drag_between_windows (void)
{
  g_autoptr(GBytes) demo = ui_demo_bytes ();
  g_autoptr(GBytes) other = other_library ();
  g_autoptr(GFile) file_a = temp_file ("drag-a.lib", demo);
  g_autoptr(GFile) file_b = temp_file ("drag-b.lib", other);
  MatWindow *a = open_window (file_a);
  MatWindow *b = open_window (file_b);
  GtkWidget *list_a = template_child (a, "list_view");
  GtkWidget *list_b = template_child (b, "list_view");
  MatMaterial *material = select_by_name (a, "WATER_SURFACE");
  g_autoptr(GBytes) original = saved_payload (mat_window_get_library (a), material, NULL);
  g_autoptr(GdkContentProvider) provider = NULL;
  g_autoptr(GBytes) pasted = NULL;
  g_autofree char *expected = mat_material_to_json (material, NULL);
  g_auto(GValue) value = G_VALUE_INIT;
  g_auto(GValue) text = G_VALUE_INIT;
  GtkEventController *source, *target;
  GtkWidget *row;
  graphene_point_t at;
  gboolean accepted = FALSE;
  CountWait wait = { b, n_items (b) + 1 };

  ui_spin_ms (200);
  row = ui_find_widget (list_a, row_of, material);
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_compute_point (row, list_a,
                                           &GRAPHENE_POINT_INIT (gtk_widget_get_width (row) / 2.f,
                                                                 gtk_widget_get_height (row) / 2.f),
                                           &at));
  source = find_controller (list_a, GTK_TYPE_DRAG_SOURCE, G_TYPE_INVALID);
  g_assert_nonnull (source);
  g_signal_emit_by_name (source, "prepare", (double) at.x, (double) at.y, &provider);
  g_assert_nonnull (provider);
  {
    g_autoptr(GdkContentFormats) formats = gdk_content_provider_ref_formats (provider);

    g_assert_true (gdk_content_formats_contain_gtype (formats, MAT_TYPE_MATERIAL_DRAG));
    g_assert_true (gdk_content_formats_contain_gtype (formats, G_TYPE_STRING));
  }

  /* as plain text, for a text editor or a forum post */
  g_value_init (&text, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (provider, &text, NULL));
  g_assert_cmpstr (g_value_get_string (&text), ==, expected);

  g_value_init (&value, MAT_TYPE_MATERIAL_DRAG);
  g_assert_true (gdk_content_provider_get_value (provider, &value, NULL));
  g_assert_cmpstr (mat_material_drag_get_text (g_value_get_boxed (&value)), ==, expected);

  /* between two processes: the value as its MIME type's bytes (as GDK
   * writes a drag's value for another process) and back */
  {
    g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
    g_autoptr(GInputStream) in = NULL;
    g_autoptr(GBytes) bytes = NULL;
    Transfer transfer = { FALSE, NULL, G_VALUE_INIT };

    g_autoptr(GdkContentFormats) mime = gdk_content_formats_union_serialize_mime_types (
      gdk_content_formats_new_for_gtype (MAT_TYPE_MATERIAL_DRAG));

    g_assert_true (gdk_content_formats_contain_mime_type (mime, MAT_MATERIAL_DRAG_MIME_TYPE));
    gdk_content_serialize_async (out, MAT_MATERIAL_DRAG_MIME_TYPE, &value, G_PRIORITY_DEFAULT,
                                 NULL, written_cb, &transfer);
    g_assert_true (ui_wait_for (transfer_done, &transfer, WAIT_SECONDS));
    g_output_stream_close (out, NULL, NULL);
    bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
    g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), expected, strlen (expected));
    in = g_memory_input_stream_new_from_bytes (bytes);
    transfer.done = FALSE;
    gdk_content_deserialize_async (in, MAT_MATERIAL_DRAG_MIME_TYPE, MAT_TYPE_MATERIAL_DRAG,
                                   G_PRIORITY_DEFAULT, NULL, read_cb, &transfer);
    g_assert_true (ui_wait_for (transfer_done, &transfer, WAIT_SECONDS));
    g_assert_cmpstr (mat_material_drag_get_text (g_value_get_boxed (&transfer.value)), ==, expected);
    g_value_unset (&transfer.value);
  }

  /* the list takes these drags only; files still go to the window */
  target = find_controller (list_b, GTK_TYPE_DROP_TARGET, MAT_TYPE_MATERIAL_DRAG);
  g_assert_nonnull (target);
  g_assert_false (gdk_content_formats_contain_gtype (gtk_drop_target_get_formats (GTK_DROP_TARGET (target)),
                                                     G_TYPE_STRING));
  g_assert_false (gdk_content_formats_contain_gtype (gtk_drop_target_get_formats (GTK_DROP_TARGET (target)),
                                                     GDK_TYPE_FILE_LIST));
  g_assert_null (find_controller (GTK_WIDGET (b), GTK_TYPE_DROP_TARGET, MAT_TYPE_MATERIAL_DRAG));
  g_assert_nonnull (find_controller (GTK_WIDGET (b), GTK_TYPE_DROP_TARGET, GDK_TYPE_FILE_LIST));

  /* a string is not a material drag */
  g_signal_emit_by_name (target, "drop", &text, 10.0, 10.0, &accepted);
  g_assert_false (accepted);

  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_assert_true (accepted);
  g_assert_true (ui_wait_for (has_n_items, &wait, WAIT_SECONDS));
  g_assert_cmpstr (mat_material_get_name (mat_window_get_selected_material (b)), ==, "WATER_SURFACE");
  pasted = saved_payload (mat_window_get_library (b), mat_window_get_selected_material (b), NULL);
  assert_same_bytes (pasted, original);
  assert_undo_to (b, other);

  close_window (b);
  close_window (a);
}

static gboolean
file_exists (gpointer data)
{
  return g_file_query_exists (G_FILE (data), NULL);
}

/* Export writes the one-material dump document; import pastes it into
 * the other window, the same bytes; what is not a material file is
 * refused with a message. */
static void
test_export_import (void)
{
  g_autoptr(GBytes) demo = ui_demo_bytes ();
  g_autoptr(GBytes) other = other_library ();
  g_autoptr(GFile) file_a = temp_file ("export-a.lib", demo);
  g_autoptr(GFile) file_b = temp_file ("export-b.lib", other);
  g_autofree char *path = g_build_filename (tmp_dir, "lava.json", NULL);
  g_autoptr(GFile) json = g_file_new_for_path (path);
  MatWindow *a = open_window (file_a);
  MatWindow *b = open_window (file_b);
  MatMaterial *lava = select_by_name (a, "LAVA_FLOW");
  g_autoptr(GBytes) original = saved_payload (mat_window_get_library (a), lava, NULL);
  g_autofree char *expected = mat_material_to_json_document (lava, NULL);
  g_autoptr(GBytes) pasted = NULL;
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;
  CountWait wait = { b, n_items (b) + 1 };

#if !GTK_CHECK_VERSION (4, 10, 0)
  {
    GtkFileChooser *chooser;

    /* the real action and its file chooser */
    gtk_widget_activate_action (GTK_WIDGET (a), "win.export-material", NULL);
    g_assert_true (ui_wait_for (chooser_shown, NULL, WAIT_SECONDS));
    chooser = GTK_FILE_CHOOSER (visible_chooser ());
    g_assert_cmpint (gtk_file_chooser_get_action (chooser), ==, GTK_FILE_CHOOSER_ACTION_SAVE);
    g_assert_cmpstr (gtk_file_chooser_get_current_name (chooser), ==, "LAVA_FLOW.json");
    /* it opens in the library's folder */
    gtk_file_chooser_set_current_name (chooser, "lava.json");
    /* the folder loads first */
    g_assert_true (ui_wait_for (chooser_has_file, json, WAIT_SECONDS));
    ui_spin_ms (500);
    {
      GtkWidget *button = ui_find_widget (GTK_WIDGET (chooser), has_label, "_Export");
      g_assert_nonnull (button);
      gtk_widget_activate (button);
    }
    g_assert_true (ui_wait_for (file_exists, json, WAIT_SECONDS));
  }
#else
  g_assert_true (mat_window_export_material_to (a, json, &error));
  g_assert_no_error (error);
#endif
  g_assert_true (g_file_load_contents (json, NULL, &contents, &length, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, expected);
  g_free (contents);

#if !GTK_CHECK_VERSION (4, 10, 0)
  {
    GtkFileChooser *chooser;

    gtk_widget_activate_action (GTK_WIDGET (b), "win.import-material", NULL);
    g_assert_true (ui_wait_for (chooser_shown, NULL, WAIT_SECONDS));
    chooser = GTK_FILE_CHOOSER (visible_chooser ());
    g_assert_cmpint (gtk_file_chooser_get_action (chooser), ==, GTK_FILE_CHOOSER_ACTION_OPEN);
    /* the file's path typed, as a user does after "/" */
    g_signal_emit_by_name (ui_find_by_type (GTK_WIDGET (chooser), GTK_TYPE_FILE_CHOOSER_WIDGET),
                           "location-popup", path);
    g_assert_true (ui_wait_for (chooser_has_file, json, WAIT_SECONDS));
    gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  }
#else
  mat_window_import_file (b, json);
#endif
  g_assert_true (ui_wait_for (has_n_items, &wait, WAIT_SECONDS));
  g_assert_cmpstr (mat_material_get_name (mat_window_get_selected_material (b)), ==, "LAVA_FLOW");
  pasted = saved_payload (mat_window_get_library (b), mat_window_get_selected_material (b), NULL);
  assert_same_bytes (pasted, original);
  assert_undo_to (b, other);

  /* the hook the dialog calls writes the same */
  {
    g_autofree char *again_path = g_build_filename (tmp_dir, "lava-again.json", NULL);
    g_autoptr(GFile) again = g_file_new_for_path (again_path);

    g_assert_true (mat_window_export_material_to (a, again, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_load_contents (again, NULL, &contents, &length, NULL, &error));
    g_assert_cmpstr (contents, ==, expected);
    g_free (contents);
  }

#if !GTK_CHECK_VERSION (4, 10, 0)
  /* not a material, not a regular file: a message, nothing pasted */
  {
    g_autoptr(GBytes) junk = g_bytes_new_static ("just some text", 14);
    g_autoptr(GFile) text = temp_file ("junk.json", junk);
    g_autofree char *fifo_path = g_build_filename (tmp_dir, "pipe.json", NULL);
    g_autoptr(GFile) fifo = g_file_new_for_path (fifo_path);
    g_autofree char *heading = NULL;
    g_autofree char *body = NULL;

    mat_window_import_file (b, text);
    take_message (&heading, &body);
    g_assert_cmpstr (heading, ==, "Nothing to Paste");
    g_assert_nonnull (strstr (body, "The text is not JSON"));
    g_clear_pointer (&heading, g_free);
    g_clear_pointer (&body, g_free);

    g_assert_cmpint (mkfifo (fifo_path, 0600), ==, 0);
    mat_window_import_file (b, fifo);
    take_message (&heading, &body);
    g_assert_cmpstr (heading, ==, "Could Not Import “pipe.json”");
    g_assert_nonnull (strstr (body, "is not a regular file"));
    g_unlink (fifo_path);
    g_assert_cmpuint (n_items (b), ==, wait.n - 1);
    g_assert_false (mat_library_get_dirty (mat_window_get_library (b)));
  }
#endif

  close_window (b);
  close_window (a);
}

static gboolean
menu_has_action (GMenuModel *model,
                 const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr(GMenuModel) section = NULL;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) &&
          g_strcmp0 (name, action) == 0)
        return TRUE;
      section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      if (section != NULL && menu_has_action (section, action))
        return TRUE;
    }
  return FALSE;
}

static gboolean
menu_is_open (gpointer button)
{
  GtkPopover *popover = gtk_menu_button_get_popover (button);

  return popover != NULL && gtk_widget_get_mapped (GTK_WIDGET (popover));
}

static gboolean
menu_is_closed (gpointer button)
{
  return !menu_is_open (button);
}

/* The material menu offers every action; the shortcuts window names the
 * keys. */
static void
test_menu_and_shortcuts (void)
{
  g_autoptr(GBytes) demo = ui_demo_bytes ();
  g_autoptr(GFile) file = temp_file ("menu.lib", demo);
  MatWindow *window = open_window (file);
  GtkMenuButton *button = GTK_MENU_BUTTON (template_child (window, "material_menu_button"));
  GMenuModel *model;
  GtkWindow *overlay;
  const char *actions[] = { "win.copy-material", "win.copy-phase", "win.paste",
                            "win.export-material", "win.import-material" };
  g_autoptr(GHashTable) titles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* the menu is made when it first opens, not with the window */
  g_assert_null (gtk_menu_button_get_popover (button));

  /* as the user sees it */
  select_by_name (window, "GLOW_PULSE");
  g_assert_true (ui_wait_for (table_shows, window, WAIT_SECONDS));

  /* F10 opens the main menu, made then too */
  {
    GtkMenuButton *primary = GTK_MENU_BUTTON (template_child (window, "primary_menu_button"));

    g_assert_null (gtk_menu_button_get_popover (primary));
    ui_key (GTK_WIDGET (window), XK_F10, 0);
    g_assert_true (ui_wait_for (menu_is_open, primary, WAIT_SECONDS));
    g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (primary), "app.preferences"));
    gtk_menu_button_popdown (primary);
    g_assert_true (ui_wait_for (menu_is_closed, primary, WAIT_SECONDS));
  }

  gtk_menu_button_popup (button);
  g_assert_true (ui_wait_for (ui_widget_is_shown, gtk_menu_button_get_popover (button), WAIT_SECONDS));
  model = gtk_menu_button_get_menu_model (button);
  g_assert_nonnull (model);
  g_assert_true (menu_has_action (model, "win.rename"));
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    g_assert_true (menu_has_action (model, actions[i]));
  ui_screenshot (GTK_WIDGET (gtk_menu_button_get_popover (button)),
                 g_strcmp0 (g_getenv ("LANGUAGE"), "ru") == 0 ? "material-menu-ru.png" : "material-menu.png");
  gtk_menu_button_popdown (button);
  /* and opens again, the same menu */
  gtk_menu_button_popup (button);
  g_assert_true (ui_wait_for (ui_widget_is_shown, gtk_menu_button_get_popover (button), WAIT_SECONDS));
  g_assert_true (gtk_menu_button_get_menu_model (button) == model);
  gtk_menu_button_popdown (button);

  overlay = GTK_WINDOW (mat_window_show_shortcuts (window));
  g_assert_nonnull (overlay);
  {
    g_autoptr(GPtrArray) shortcuts = g_ptr_array_new ();

    ui_collect_by_type (GTK_WIDGET (overlay), GTK_TYPE_SHORTCUTS_SHORTCUT, shortcuts);
    for (guint i = 0; i < shortcuts->len; i++)
      {
        g_autofree char *accel = NULL;
        char *title = NULL;

        /* the window's search page holds copies: count titles */
        g_object_get (shortcuts->pdata[i], "accelerator", &accel, "title", &title, NULL);
        if (g_strcmp0 (accel, "<Control>c") == 0 || g_strcmp0 (accel, "<Control>v") == 0)
          g_hash_table_add (titles, title);
        else
          g_free (title);
      }
  }
  g_assert_cmpuint (g_hash_table_size (titles), ==, 3);
  g_assert_true (g_hash_table_contains (titles, g_dpgettext2 (GETTEXT_PACKAGE, "shortcut window",
                                                              "Copy the material (in the list)")));
  g_assert_true (g_hash_table_contains (titles, g_dpgettext2 (GETTEXT_PACKAGE, "shortcut window",
                                                              "Copy the phase (in the phase table)")));

  close_window (window);
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

  /* a home of our own: recent files and settings stay out of the real one */
  tmp_dir = g_dir_make_tmp ("test-clipboard-XXXXXX", &error);
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

  /* LANGUAGE=ru (the test "clipboard-ru"): the dialog in Russian */
  setlocale (LC_ALL, "");
  mat_application_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);

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

  g_test_add_func ("/ui/clipboard/copy-paste-material", test_copy_paste_material);
  g_test_add_func ("/ui/clipboard/copy-paste-phase", test_copy_paste_phase);
  g_test_add_func ("/ui/clipboard/shown/paste-clash", test_paste_clash);
  g_test_add_func ("/ui/clipboard/drag-between-windows", test_drag_between_windows);
  g_test_add_func ("/ui/clipboard/export-import", test_export_import);
  g_test_add_func ("/ui/clipboard/shown/menu-and-shortcuts", test_menu_and_shortcuts);

  status = g_test_run ();

  g_clear_object (&app);
  remove_tree (tmp_dir);
  g_free (tmp_dir);

  return status;
}
