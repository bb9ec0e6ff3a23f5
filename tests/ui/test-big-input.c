/* test-big-input.c - a huge material pasted, dropped and imported, then
 * shown, without stalling the main loop, under Xvfb
 *
 * The material has 19 blocks of 65,535 keys (valid JSON of about 15 MB).
 * It is pasted through the real clipboard and the win.paste action,
 * dropped on the list through its GtkDropTarget, imported from a file,
 * and opened in a library dropped on the window as a file; each time it
 * is selected and every page of it shown (the timeline draws its 65,535
 * keys), and the paste is undone and redone.
 *
 * The main loop's gaps are taken from a tick callback on the window (it
 * draws every frame meanwhile) and from a timeout every 5 ms: the
 * longest time nothing ran. On a loaded machine a gap also holds the time
 * the process waited for a CPU or for the X server, so each gap is taken
 * twice: on the wall clock, and as the CPU time the main thread itself
 * spent in it (CLOCK_THREAD_CPUTIME_ID). The test fails when the main
 * thread worked more than STALL_MS without letting the loop run; the
 * wall-clock figures are reported beside it, with those of the same steps
 * on a small material of the demo for comparison.
 */
#include "config.h"

#include <string.h>
#include <time.h>
#include <glib/gstdio.h>

#include "mat-application.h"
#include "mat-block-editor.h"
#include "mat-material-json.h"
#include "mat-timeline.h"
#include "mat-window.h"
#include "mat-window-clipboard.h"
#include "mat-window-private.h"
#include "test-support.h"
#include "ui-support.h"

#define WAIT_SECONDS 180
#define N_BLOCKS     19
#define N_KEYS       65535
/* The longest the main thread may work without the main loop running;
 * AddressSanitizer makes every instruction two to three times slower, so
 * a build with it is allowed three times as much. */
#if defined(__SANITIZE_ADDRESS__)
#define STALL_MS     300.0
#else
#define STALL_MS     100.0
#endif

static MatApplication *app;
static char *tmp_dir;

/* ---- the material ---------------------------------------------------- */

/* @name: two phases, 19 blocks of 65,535 keys each, key i of a block
 * (i % 2, i + 1, i % 7): times 1 .. 65,535 ms. Returns: (transfer full) */
static char *
big_material_text (const char *name)
{
  GString *text = g_string_sized_new (16 << 20);

  g_string_append_printf (text,
                          "{\n  \"name\": \"%s\",\n  \"type\": \"MAT0\",\n  \"attr1\": 0,\n"
                          "  \"attr2\": 6,\n  \"attr3\": 0,\n"
                          "  \"meta\": {\"a\": 255, \"b\": 255, \"c_raw\": 1065353216, \"d\": 0},\n"
                          "  \"phases\": [\n"
                          "    {\"params\": [64, 64, 64, 100, 40, 60, 40, 255, 0, 0, 0, 0, 0, 40, 0, 255, 0, 255], \"texture\": \"\"},\n"
                          "    {\"params\": [80, 255, 120, 100, 40, 60, 40, 255, 0, 0, 0, 0, 80, 255, 120, 255, 0, 255], \"texture\": \"\"}\n"
                          "  ],\n  \"blocks\": [\n", name);
  for (guint b = 0; b < N_BLOCKS; b++)
    {
      g_string_append (text, "    {\"mode\": 0, \"interp_mask\": 9, \"keys\": [");
      for (guint k = 0; k < N_KEYS; k++)
        g_string_append_printf (text, "%s[%u,%u,%u]", k > 0 ? "," : "", k % 2, k + 1, k % 7);
      g_string_append (text, b + 1 < N_BLOCKS ? "]},\n" : "]}\n");
    }
  g_string_append (text, "  ]\n}\n");
  return g_string_free (text, FALSE);
}

/* ---- the main loop's gaps -------------------------------------------- */

typedef struct {
  gint64 last_wall;     /* at the last tick, µs */
  gint64 last_cpu;      /* the main thread's CPU time then, µs */
  gint64 wall;          /* the longest gap on the wall clock, µs */
  gint64 cpu;           /* the most CPU time the main thread spent in one gap */
  guint  ticks;
} Gaps;

static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* A sign of life of the main loop: the gap since the last one. */
static void
gaps_note (Gaps *gaps)
{
  gint64 wall = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_us ();

  if (gaps->last_wall != 0)
    {
      gaps->wall = MAX (gaps->wall, wall - gaps->last_wall);
      gaps->cpu = MAX (gaps->cpu, cpu - gaps->last_cpu);
    }
  gaps->last_wall = wall;
  gaps->last_cpu = cpu;
}

/* Each frame of the window: it draws all the time meanwhile. */
static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  Gaps *gaps = data;

  gaps_note (gaps);
  gaps->ticks++;
  return G_SOURCE_CONTINUE;
}

/* And every 5 ms, whatever window draws: nothing runs in between only
 * when the loop is held up. */
static gboolean
beat_cb (gpointer data)
{
  gaps_note (data);
  return G_SOURCE_CONTINUE;
}

typedef struct {
  GtkWidget *widget;
  guint      tick;
  guint      beat;
} Watch;

static void
watch_start (Watch     *watch,
             MatWindow *window,
             Gaps      *gaps)
{
  watch->widget = GTK_WIDGET (window);
  watch->tick = gtk_widget_add_tick_callback (watch->widget, tick_cb, gaps, NULL);
  watch->beat = g_timeout_add_full (G_PRIORITY_HIGH, 5, beat_cb, gaps, NULL);
}

static void
watch_stop (Watch *watch)
{
  gtk_widget_remove_tick_callback (watch->widget, watch->tick);
  g_source_remove (watch->beat);
}

/* Starts counting anew; the next tick is the first. */
static void
gaps_reset (Gaps *gaps)
{
  gaps->wall = gaps->cpu = 0;
  gaps->last_wall = gaps->last_cpu = 0;
  gaps->ticks = 0;
}

static void
gaps_report (const char *what,
             Gaps       *gaps)
{
  g_test_message ("%s: longest gap %.1f ms on the wall clock, %.1f ms of main-thread CPU time, "
                  "%u frames", what, gaps->wall / 1000.0, gaps->cpu / 1000.0, gaps->ticks);
}

/* ---- helpers --------------------------------------------------------- */

static gboolean
not_busy (gpointer data)
{
  return !mat_window_get_busy (MAT_WINDOW (data));
}

static MatWindow *
open_demo_window (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "Material.lib", NULL);
  g_autoptr(GBytes) bytes = ui_demo_bytes ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  MatWindow *window = mat_window_new (app);

  g_file_replace_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                           NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  g_assert_nonnull (mat_window_get_library (window));
  return window;
}

typedef struct {
  MatWindow  *window;
  const char *name;
} Selected;

static gboolean
is_selected (gpointer data)
{
  Selected *s = data;
  MatMaterial *material = mat_window_get_selected_material (s->window);

  return !mat_window_get_pasting (s->window) && material != NULL &&
         g_strcmp0 (mat_material_get_name (material), s->name) == 0;
}

/* Shows each page of the selected material in turn; reports the gaps
 * as @what (nullable); @shot (nullable): a screenshot of the first. */
static void
show_pages (MatWindow  *window,
            Gaps       *gaps,
            const char *what,
            const char *shot)
{
  static const char *pages[] = { "animation", "flags", "phases" };

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      gint64 cpu;

      gtk_stack_set_visible_child_name (window->material_stack, pages[i]);
      ui_spin_ms (i == 0 ? 800 : 400);
      if (i == 0 && shot != NULL)
        {
          /* not counted: a screenshot is no work of the editor's */
          cpu = gaps->cpu;
          ui_screenshot (GTK_WIDGET (window), shot);
          gaps->last_wall = gaps->last_cpu = 0;
          gaps->cpu = cpu;
        }
    }
  if (what != NULL)
    gaps_report (what, gaps);
}

/* The pasted material: all of it, and its first block on the timeline. */
static void
assert_big (MatWindow  *window,
            const char *name)
{
  MatMaterial *big = mat_window_get_selected_material (window);
  GtkWidget *timeline;
  MatAnimBlock *block;

  g_assert_cmpstr (mat_material_get_name (big), ==, name);
  g_assert_cmpuint (mat_material_get_n_blocks (big), ==, N_BLOCKS);
  for (guint b = 0; b < N_BLOCKS; b++)
    {
      g_autoptr(MatAnimBlock) one = g_list_model_get_item (mat_material_get_blocks (big), b);

      g_assert_cmpuint (mat_anim_block_get_n_keys (one), ==, N_KEYS);
      g_assert_cmpuint (mat_anim_block_get_period (one), ==, N_KEYS);
    }
  timeline = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window->block_editor),
                                                        MAT_TYPE_BLOCK_EDITOR, "timeline"));
  block = mat_timeline_get_block (MAT_TIMELINE (timeline));
  g_assert_nonnull (block);
  g_assert_true (mat_anim_block_get_material (block) == big);
  g_assert_cmpuint (mat_anim_block_get_n_keys (block), ==, N_KEYS);
}

static void
assert_no_stall (const char *what,
                 Gaps       *gaps)
{
  if (gaps->cpu / 1000.0 > STALL_MS)
    g_error ("%s: the main thread worked %.1f ms without letting the main loop run "
             "(at most %.0f ms)", what, gaps->cpu / 1000.0, STALL_MS);
}

/* ---- the tests ------------------------------------------------------- */

/* Ctrl+V's path: the clipboard read, the text decoded in a worker, the
 * material inserted and selected; then every page shown. The same steps
 * on the demo's GLOW_PULSE first: what a small material costs here. */
static void
test_paste (void)
{
  g_autofree char *text = big_material_text ("BIG");
  MatWindow *window = open_demo_window ();
  MatMaterial *glow;
  Gaps gaps = { 0 };
  Selected selected = { window, "BIG" };
  Watch watch;
  gint64 start;
  guint n_before;

  g_test_message ("the material's text: %zu bytes", strlen (text));
  /* every page made once (each is made when first shown) */
  show_pages (window, &gaps, NULL, NULL);
  watch_start (&watch, window, &gaps);
  ui_spin_ms (300);
  gaps_report ("idle", &gaps);


  /* a small material, the same steps */
  glow = mat_library_find (mat_window_get_library (window), "GLOW_PULSE");
  gaps_reset (&gaps);
  mat_window_select_material (window, glow);
  ui_spin_ms (300);
  show_pages (window, &gaps, "GLOW_PULSE selected, its pages shown", NULL);

  /* the paste */
  n_before = g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_library (window)));
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (window)), text);
  ui_spin_ms (100);
  gaps_reset (&gaps);
  start = g_get_monotonic_time ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.paste", NULL));
  /* one paste at a time: a second Ctrl+V meanwhile does nothing (the
   * library has one material more at the end, not two) */
  g_assert_true (mat_window_get_pasting (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.paste", NULL);
  g_assert_true (ui_wait_for (is_selected, &selected, WAIT_SECONDS));
  g_test_message ("pasted and selected %.0f ms after Ctrl+V", (g_get_monotonic_time () - start) / 1000.0);
  ui_spin_ms (300);
  gaps_report ("BIG pasted and selected", &gaps);
  assert_no_stall ("the paste", &gaps);
  assert_big (window, "BIG");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_library (window))), ==, n_before + 1);

  gaps_reset (&gaps);
  show_pages (window, &gaps, "BIG's pages shown", "big-input-timeline.png");
  assert_no_stall ("BIG's pages", &gaps);

  /* undone and redone: one step each */
  gaps_reset (&gaps);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  ui_spin_ms (300);
  g_assert_null (mat_library_find (mat_window_get_library (window), "BIG"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL));
  ui_spin_ms (300);
  g_assert_nonnull (mat_library_find (mat_window_get_library (window), "BIG"));
  gaps_report ("undone and redone", &gaps);
  assert_no_stall ("undo and redo", &gaps);

  watch_stop (&watch);
  ui_close_window (GTK_WINDOW (window));
}

static GtkEventController *
drop_target (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller) &&
          gdk_content_formats_contain_gtype (gtk_drop_target_get_formats (GTK_DROP_TARGET (controller)),
                                             MAT_TYPE_MATERIAL_DRAG))
        return controller;
    }
  return NULL;
}

/* A drag from another window dropped on the list: the same path. */
static void
test_drop (void)
{
  g_autofree char *text = big_material_text ("BIG_DROPPED");
  MatWindow *window = open_demo_window ();
  GtkEventController *target = drop_target (GTK_WIDGET (window->list_view));
  g_auto(GValue) value = G_VALUE_INIT;
  Selected selected = { window, "BIG_DROPPED" };
  Gaps gaps = { 0 };
  gboolean accepted = FALSE;
  Watch watch;

  g_assert_nonnull (target);
  show_pages (window, &gaps, NULL, NULL);
  watch_start (&watch, window, &gaps);
  ui_spin_ms (300);
  g_value_init (&value, MAT_TYPE_MATERIAL_DRAG);
  g_value_take_boxed (&value, mat_material_drag_new (text));
  gaps_reset (&gaps);
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_assert_true (accepted);
  g_assert_true (ui_wait_for (is_selected, &selected, WAIT_SECONDS));
  ui_spin_ms (300);
  gaps_report ("BIG_DROPPED dropped and selected", &gaps);
  assert_no_stall ("the drop", &gaps);
  gaps_reset (&gaps);
  show_pages (window, &gaps, "BIG_DROPPED's pages shown", NULL);
  assert_no_stall ("BIG_DROPPED's pages", &gaps);
  assert_big (window, "BIG_DROPPED");

  watch_stop (&watch);
  ui_close_window (GTK_WINDOW (window));
}

/* A .json file imported: read and decoded in the worker. */
static void
test_import (void)
{
  g_autofree char *text = big_material_text ("BIG_IMPORTED");
  g_autofree char *path = g_build_filename (tmp_dir, "BIG_IMPORTED.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  MatWindow *window = open_demo_window ();
  Selected selected = { window, "BIG_IMPORTED" };
  Gaps gaps = { 0 };
  Watch watch;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  show_pages (window, &gaps, NULL, NULL);
  watch_start (&watch, window, &gaps);
  ui_spin_ms (300);
  gaps_reset (&gaps);
  mat_window_import_file (window, file);
  g_assert_true (mat_window_get_pasting (window));
  g_assert_true (ui_wait_for (is_selected, &selected, WAIT_SECONDS));
  ui_spin_ms (300);
  gaps_report ("BIG_IMPORTED imported and selected", &gaps);
  assert_no_stall ("the import", &gaps);
  gaps_reset (&gaps);
  show_pages (window, &gaps, "BIG_IMPORTED's pages shown", NULL);
  assert_no_stall ("BIG_IMPORTED's pages", &gaps);
  assert_big (window, "BIG_IMPORTED");

  watch_stop (&watch);
  ui_close_window (GTK_WINDOW (window));
}

static gboolean
window_for (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (MAT_IS_WINDOW (window) && mat_window_get_file (MAT_WINDOW (window)) != NULL &&
          g_file_equal (mat_window_get_file (MAT_WINDOW (window)), data) &&
          mat_window_get_library (MAT_WINDOW (window)) != NULL &&
          gtk_widget_get_mapped (GTK_WIDGET (window)))
        return TRUE;
    }
  return FALSE;
}

static MatWindow *
find_window_for (GFile *file)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (MAT_IS_WINDOW (window) && mat_window_get_file (MAT_WINDOW (window)) != NULL &&
          g_file_equal (mat_window_get_file (MAT_WINDOW (window)), file))
        return MAT_WINDOW (window);
    }
  return NULL;
}

/* A library holding the material, dropped on the window as a file: it
 * opens in a window of its own, the large material decoded in the
 * loader's thread, not when the list first shows it. */
static void
test_drop_library (void)
{
  g_autofree char *text = big_material_text ("BIG_IN_FILE");
  g_autofree char *path = g_build_filename (tmp_dir, "Big.lib", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) empty = test_build_archive (NULL, 0, TRUE);
  g_autoptr(MatLibrary) lib = mat_library_new_from_bytes (empty, &error);
  g_autoptr(GBytes) bytes = NULL;
  GdkFileList *files;
  g_autoptr(GSList) list = NULL;
  g_auto(GValue) value = G_VALUE_INIT;
  MatWindow *window = open_demo_window ();
  MatWindow *opened;
  GtkEventController *target = NULL;
  Selected selected;
  Gaps gaps = { 0 };
  gboolean accepted = FALSE;
  Watch watch;

  g_assert_no_error (error);
  /* a small material first: the one the window shows when it opens */
  {
    g_autoptr(GBytes) demo = ui_demo_bytes ();
    g_autoptr(MatLibrary) demo_lib = ui_library_new (demo);
    g_autofree char *small = mat_material_to_json (ui_find_material (demo_lib, "GLOW_PULSE"), NULL);

    g_assert_nonnull (mat_library_paste_material (lib, small, -1, NULL, &error));
    g_assert_no_error (error);
  }
  g_assert_nonnull (mat_library_paste_material (lib, text, -1, NULL, &error));
  g_assert_no_error (error);
  bytes = mat_library_save_to_bytes (lib, &error);
  g_assert_no_error (error);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));

    for (guint i = 0; target == NULL && i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

        if (GTK_IS_DROP_TARGET (controller) &&
            gdk_content_formats_contain_gtype (gtk_drop_target_get_formats (GTK_DROP_TARGET (controller)),
                                               GDK_TYPE_FILE_LIST))
          target = controller;
      }
  }
  g_assert_nonnull (target);

  show_pages (window, &gaps, NULL, NULL);
  watch_start (&watch, window, &gaps);
  ui_spin_ms (300);
  list = g_slist_prepend (NULL, file);
  files = gdk_file_list_new_from_list (list);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, files);
  gaps_reset (&gaps);
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_assert_true (accepted);
  g_assert_true (ui_wait_for (window_for, file, WAIT_SECONDS));
  opened = find_window_for (file);
  g_assert_true (opened != window);
  ui_spin_ms (500);
  gaps_report ("Big.lib dropped and opened", &gaps);
  assert_no_stall ("the dropped library", &gaps);
  /* its pages made once, as in the other window */
  show_pages (opened, &gaps, NULL, NULL);
  gaps_reset (&gaps);
  selected = (Selected) { opened, "BIG_IN_FILE" };
  mat_window_select_material (opened, mat_library_find (mat_window_get_library (opened), "BIG_IN_FILE"));
  g_assert_true (ui_wait_for (is_selected, &selected, WAIT_SECONDS));
  ui_spin_ms (300);
  gaps_report ("BIG_IN_FILE selected", &gaps);
  assert_no_stall ("BIG_IN_FILE selected", &gaps);
  gaps_reset (&gaps);
  show_pages (opened, &gaps, "BIG_IN_FILE's pages shown", NULL);
  assert_no_stall ("BIG_IN_FILE's pages", &gaps);
  assert_big (opened, "BIG_IN_FILE");

  watch_stop (&watch);
  ui_close_window (GTK_WINDOW (opened));
  ui_close_window (GTK_WINDOW (window));
}

#if GTK_CHECK_VERSION (4, 10, 0)
static gboolean
message_shown (gpointer data)
{
  /* GtkAlertDialog is no widget: its window is the one toplevel with
   * the text as a label */
  return ui_find_toplevel (GTK_TYPE_WINDOW) != NULL &&
         g_list_model_get_n_items (gtk_window_get_toplevels ()) > 1;
}
#else
static gboolean
message_shown (gpointer data)
{
  return ui_find_toplevel (GTK_TYPE_MESSAGE_DIALOG) != NULL;
}
#endif

/* A text larger than any material is refused with a message at once,
 * nothing decoded. */
static void
test_too_large (void)
{
  gsize size = (64u << 20) + 1;
  g_autofree char *text = g_malloc (size + 1);
  MatWindow *window = open_demo_window ();
  guint n = g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_library (window)));

  memset (text, ' ', size);
  text[size] = '\0';
  mat_window_paste_text (window, text);
  g_assert_false (mat_window_get_pasting (window));
  g_assert_true (ui_wait_for (message_shown, NULL, WAIT_SECONDS));
#if !GTK_CHECK_VERSION (4, 10, 0)
  {
    GtkWidget *dialog = ui_find_toplevel (GTK_TYPE_MESSAGE_DIALOG);
    g_autofree char *heading = NULL;
    g_autofree char *body = NULL;

    g_object_get (dialog, "text", &heading, "secondary-text", &body, NULL);
    g_test_message ("message: %s / %s", heading, body);
    g_assert_cmpstr (heading, ==, "Nothing to Paste");
    g_assert_nonnull (strstr (body, "a material takes far less (at most 64 MiB are read)"));
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
#endif
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_library (window))), ==, n);
  ui_close_window (GTK_WINDOW (window));
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

  tmp_dir = g_dir_make_tmp ("test-big-input-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", tmp_dir, TRUE);
  g_setenv ("XDG_DATA_HOME", tmp_dir, TRUE);
  g_setenv ("XDG_CONFIG_HOME", tmp_dir, TRUE);
  g_setenv ("XDG_CACHE_HOME", tmp_dir, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);

  app = mat_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/big-input/paste", test_paste);
  g_test_add_func ("/ui/big-input/drop", test_drop);
  g_test_add_func ("/ui/big-input/import", test_import);
  g_test_add_func ("/ui/big-input/drop-library", test_drop_library);
  g_test_add_func ("/ui/big-input/too-large", test_too_large);

  status = g_test_run ();

  g_clear_object (&app);
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
