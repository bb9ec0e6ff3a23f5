/* bench-ui.c - start-up, opening and filtering, against baselines
 *
 *   bench-ui DEMO.lib STRESS.lib     the benchmark (spawns itself)
 *   bench-ui --app DEMO.lib          child: the editor on the demo library,
 *                                    prints when its first frame was
 *                                    painted and exits
 *   bench-ui --app-preview DEMO.lib  child: the same, exits once the preview
 *                                    beside the pages has drawn (OpenGL
 *                                    starts after the window's first frames)
 *   bench-ui --bare                  child: a bare GTK 4 window, the same
 *
 * Start-up is the wall time from spawn to the child's first frame painted
 * (it prints the monotonic clock then, and quits), the median of several
 * runs of each kind in the same run; spawn to the process gone is shown
 * beside it.
 * The rest is measured in one process with the 65,536-material library
 * (its rows with their swatches).
 */
#include "config.h"

#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>

#include "mat-application.h"
#include "mat-block-editor.h"
#include "mat-preview.h"
#include "mat-gsk-renderer.h"
#include "mat-timeline-private.h"
#include "mat-window.h"

#define RUNS 11

/* ---- children ---------------------------------------------------------- */

/* The first frame painted: the child prints when (the monotonic clock,
 * the parent's too), then quits. */
static gulong first_paint_handler;

static void
first_paint (GdkFrameClock *clock,
             GtkWidget     *window)
{
  g_clear_signal_handler (&first_paint_handler, clock);
  printf ("painted %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  fflush (stdout);
  g_application_quit (G_APPLICATION (gtk_window_get_application (GTK_WINDOW (window))));
}

static void
watch_paint (GtkWidget *window)
{
  first_paint_handler = g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                                          G_CALLBACK (first_paint), window);
}

/* @window's frame clock exists once it is realized */
static void
quit_after_first_paint (GtkWidget *window)
{
  if (gtk_widget_get_realized (window))
    watch_paint (window);
  else
    g_signal_connect (window, "realize", G_CALLBACK (watch_paint), NULL);
}

static void
bare_activate (GtkApplication *app)
{
  GtkWidget *window = gtk_application_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  gtk_window_set_child (GTK_WINDOW (window), gtk_label_new ("Parkan"));
  quit_after_first_paint (window);
  gtk_window_present (GTK_WINDOW (window));
}

static gboolean
watch_app_window (gpointer data)
{
  GtkApplication *app = data;
  GtkWindow *window = gtk_application_get_active_window (app);

  if (window == NULL || mat_window_get_library (MAT_WINDOW (window)) == NULL)
    return G_SOURCE_CONTINUE;
  /* the library is shown before the window is: any frame shows it */
  quit_after_first_paint (GTK_WIDGET (window));
  return G_SOURCE_REMOVE;
}

/* The preview beside the pages has drawn its first frame. */
static gboolean
watch_preview (gpointer data)
{
  GtkApplication *app = data;
  GtkWindow *window = gtk_application_get_active_window (app);
  MatPreview *preview;

  if (window == NULL)
    return G_SOURCE_CONTINUE;
  preview = MAT_PREVIEW (gtk_widget_get_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW,
                                                        "preview"));
  if (mat_preview_get_n_renders (preview) == 0 && mat_preview_get_error (preview) == NULL)
    return G_SOURCE_CONTINUE;
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

static int
run_child (gboolean bare, const char *demo, gboolean until_preview)
{
  g_autoptr(GtkApplication) app = NULL;
  char *argv[] = { (char *) "bench-ui", NULL };

  if (bare)
    {
      app = gtk_application_new ("io.github.parkan.MatEdit.BenchBare", G_APPLICATION_NON_UNIQUE);
      g_signal_connect (app, "activate", G_CALLBACK (bare_activate), NULL);
    }
  else
    {
      g_autofree char *dir = g_path_get_dirname (demo);

      /* the editor opens the demo library when it is given no file */
      g_setenv ("MATEDIT_DEMO_DIR", dir, TRUE);
      app = GTK_APPLICATION (mat_application_new ("io.github.parkan.MatEdit.Bench",
                                                  G_APPLICATION_NON_UNIQUE));
      g_timeout_add (1, until_preview ? watch_preview : watch_app_window, app);
    }
  return g_application_run (G_APPLICATION (app), 1, argv);
}

/* ---- the driver -------------------------------------------------------- */

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

typedef struct {
  const char *mode;
  const char *arg;
  const char *renderer;   /* GSK_RENDERER for the child, or %NULL */
  double      painted[RUNS];   /* spawn to the first frame painted, ms */
  double      exited[RUNS];    /* spawn to the process gone, ms */
} Spawns;

static void
spawn_once (const char *self, Spawns *kind, guint run)
{
  const char *argv[] = { self, kind->mode, kind->arg, NULL };   /* arg may end it */
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autofree char *out = NULL;
  const char *line;
  gint64 t0 = g_get_monotonic_time ();

  if (kind->renderer != NULL)
    g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", kind->renderer, TRUE);
  child = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (child, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (child, NULL, &error);
  g_assert_no_error (error);
  kind->exited[run] = (g_get_monotonic_time () - t0) / 1000.0;
  line = out != NULL ? strstr (out, "painted ") : NULL;
  kind->painted[run] = line != NULL ? (g_ascii_strtoll (line + 8, NULL, 10) - t0) / 1000.0
                                    : kind->exited[run];
}

/* RUNS spawns of each kind, taken in turn so that the machine's ups and
 * downs fall on all of them alike; each kind's times sorted after. A
 * child prints when its first frame was painted (first_paint()); one that
 * prints nothing (the preview child) counts to its exit. */
static void
spawn_in_turn (const char *self, Spawns *kinds, guint n_kinds)
{
  for (guint run = 0; run < RUNS; run++)
    for (guint k = 0; k < n_kinds; k++)
      spawn_once (self, &kinds[k], run);
  for (guint k = 0; k < n_kinds; k++)
    {
      qsort (kinds[k].painted, RUNS, sizeof (double), compare_doubles);
      qsort (kinds[k].exited, RUNS, sizeof (double), compare_doubles);
    }
}

static GtkWidget *
find_by_type (GtkWidget *widget,
              GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_by_type (child, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_search_entry (GtkWidget *widget)
{
  return find_by_type (widget, GTK_TYPE_SEARCH_ENTRY);
}

static guint paints;

static void
after_paint (GdkFrameClock *clock, gpointer data)
{
  paints++;
}

/* Iterates until @window has painted a frame after this call. */
static void
wait_for_frame (GtkWidget *window)
{
  guint start = paints;

  gtk_widget_queue_draw (window);
  while (paints == start)
    g_main_context_iteration (NULL, TRUE);
}

static guint64
rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "VmRSS:");
  return line != NULL ? g_ascii_strtoull (line + 6, NULL, 10) : 0;
}

/* Resident KiB of the mappings of Mesa's GL driver: under llvmpipe
 * that is LLVM's code and the software rasterizer, which a GPU driver
 * does not need. */
static guint64
gl_driver_rss_kib (void)
{
  g_autofree char *smaps = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean driver = FALSE;
  guint64 total = 0;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return 0;
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_ascii_isxdigit (line[0]) && strchr (line, '-') != NULL)
        driver = strstr (line, "libLLVM") != NULL || strstr (line, "/dri/") != NULL;
      else if (driver && g_str_has_prefix (line, "Rss:"))
        total += g_ascii_strtoull (line + 4, NULL, 10);
    }
  return total;
}

#define TYPINGS 7

static gboolean
ms_passed (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
run_ms (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, ms_passed, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* Types @text into the search entry: the ms until the window has painted
 * the result; @sync_ms (optional) gets the ms of the search itself. */
static double
type_search (MatWindow  *window,
             GtkWidget  *entry,
             const char *text,
             double     *sync_ms)
{
  gint64 t0 = g_get_monotonic_time ();

  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  g_signal_emit_by_name (entry, "search-changed");
  if (sync_ms != NULL)
    *sync_ms = (g_get_monotonic_time () - t0) / 1000.0;
  wait_for_frame (GTK_WIDGET (window));
  return (g_get_monotonic_time () - t0) / 1000.0;
}

/* Types @more after what the entry holds, as typing does (a text set
 * anew is emptied first, which the entry reports at once): the ms until
 * the window has painted the result. */
static double
type_more (MatWindow  *window,
           GtkWidget  *entry,
           const char *more)
{
  const char *now = gtk_editable_get_text (GTK_EDITABLE (entry));
  int position = (int) g_utf8_strlen (now, -1);
  gint64 t0 = g_get_monotonic_time ();

  gtk_editable_insert_text (GTK_EDITABLE (entry), more, -1, &position);
  g_signal_emit_by_name (entry, "search-changed");
  wait_for_frame (GTK_WIDGET (window));
  return (g_get_monotonic_time () - t0) / 1000.0;
}

static gboolean
mark_done (gpointer data)
{
  *(gint64 *) data = g_get_monotonic_time ();
  return G_SOURCE_REMOVE;
}

/* The ms from @t0 until what waits at G_PRIORITY_LOW (the pages reading
 * where the materials selected differ) has run. */
static double
wait_for_low_idle (gint64 t0)
{
  gint64 done = 0;

  g_idle_add_full (G_PRIORITY_LOW + 10, mark_done, &done, NULL);
  while (done == 0)
    g_main_context_iteration (NULL, TRUE);
  return (done - t0) / 1000.0;
}

/* Several of the 65,536 selected, searched by content, edited at once:
 * each figure beside a baseline taken in the same run. */
static void
bench_many (MatWindow *window,
            GtkWidget *entry)
{
  GtkSelectionModel *selection = mat_window_get_selection (window);
  MatLibrary *library = mat_window_get_library (window);
  MatHistory *history = mat_library_get_history (library);
  double name_ms[TYPINGS], opacity_ms[TYPINGS], texture_ms[TYPINGS];
  double first_content_ms, one_ms, all_ms, marks_ms, edit_ms, apply_ms, undo_ms;
  guint n_undo;
  gint64 t0;

  /* the first search by content reads every material's content */
  type_search (window, entry, "", NULL);
  run_ms (100);
  first_content_ms = type_search (window, entry, "opacity:<10", NULL);
  for (guint i = 0; i < TYPINGS; i++)
    {
      type_search (window, entry, "ta", NULL);
      name_ms[i] = type_more (window, entry, "l");
      type_search (window, entry, "opacity:<10", NULL);
      opacity_ms[i] = type_more (window, entry, "0");
      type_search (window, entry, "texture:GUN4.", NULL);
      texture_ms[i] = type_more (window, entry, "0");
      type_search (window, entry, "", NULL);
      run_ms (100);
    }
  qsort (name_ms, TYPINGS, sizeof (double), compare_doubles);
  qsort (opacity_ms, TYPINGS, sizeof (double), compare_doubles);
  qsort (texture_ms, TYPINGS, sizeof (double), compare_doubles);

  /* one row, then every row */
  t0 = g_get_monotonic_time ();
  gtk_selection_model_select_item (selection, 5, TRUE);
  wait_for_frame (GTK_WIDGET (window));
  one_ms = (g_get_monotonic_time () - t0) / 1000.0;
  run_ms (200);
  t0 = g_get_monotonic_time ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.select-all", NULL);
  wait_for_frame (GTK_WIDGET (window));
  all_ms = (g_get_monotonic_time () - t0) / 1000.0;
  marks_ms = wait_for_low_idle (t0);
  {
    g_autoptr(GPtrArray) selected = mat_window_dup_selected_materials (window);

    g_assert (selected->len == 65536);
  }

  /* an edit of the one shown (the baseline), then its phase 0 given to
   * the other 65,535: one undo step, undone */
  {
    MatMaterial *shown = mat_window_get_selected_material (window);
    g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (shown), 0);

    t0 = g_get_monotonic_time ();
    mat_phase_set_param (phase, 3, (guint8) (mat_phase_get_param (phase, 3) ^ 1), NULL);
    wait_for_frame (GTK_WIDGET (window));
    edit_ms = (g_get_monotonic_time () - t0) / 1000.0;
  }
  run_ms (200);
  n_undo = mat_history_get_n_undo (history);
  t0 = g_get_monotonic_time ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.apply-phase", NULL);
  wait_for_frame (GTK_WIDGET (window));
  apply_ms = (g_get_monotonic_time () - t0) / 1000.0;
  g_assert (mat_history_get_n_undo (history) == n_undo + 1);
  run_ms (200);
  t0 = g_get_monotonic_time ();
  mat_history_undo (history);
  wait_for_frame (GTK_WIDGET (window));
  undo_ms = (g_get_monotonic_time () - t0) / 1000.0;
  mat_history_undo (history);
  g_assert (!mat_library_get_dirty (library));

  printf ("search by content, the first (reads every material's content): %8.1f ms\n", first_content_ms);
  printf ("re-filter on one typed character, until the frame is drawn (median of %d):\n", TYPINGS);
  printf ("  a name, \"ta\" -> \"tal\" (the baseline):       %8.1f ms\n", name_ms[TYPINGS / 2]);
  printf ("  \"opacity:<10\" -> \"opacity:<100\":            %8.1f ms  (%.2fx the baseline; goal < 50 ms)\n",
          opacity_ms[TYPINGS / 2], opacity_ms[TYPINGS / 2] / name_ms[TYPINGS / 2]);
  printf ("  \"texture:GUN4.\" -> \"texture:GUN4.0\":        %8.1f ms  (%.2fx the baseline; goal < 50 ms)\n",
          texture_ms[TYPINGS / 2], texture_ms[TYPINGS / 2] / name_ms[TYPINGS / 2]);
  printf ("select one row, until the frame is drawn (the baseline): %8.1f ms\n", one_ms);
  printf ("select all 65,536, until the frame is drawn:   %8.1f ms  (%.2fx; goal < 100 ms)\n",
          all_ms, all_ms / one_ms);
  printf ("  and until the pages have marked what differs: %7.1f ms\n", marks_ms);
  printf ("an edit of the material shown, to the frame (the baseline): %5.1f ms\n", edit_ms);
  printf ("its phase 0 to the other 65,535, one undo step, to the frame: %5.1f ms  (%.1fx; goal < 1000 ms)\n",
          apply_ms, apply_ms / edit_ms);
  printf ("  undone, to the frame:                         %8.1f ms\n", undo_ms);
}

static void
bench_stress (const char *stress)
{
  g_autoptr(MatApplication) app = mat_application_new ("io.github.parkan.MatEdit.BenchStress",
                                                       G_APPLICATION_NON_UNIQUE);
  g_autoptr(GFile) file = g_file_new_for_path (stress);
  g_autoptr(GError) error = NULL;
  GtkSelectionModel *selection;
  GtkWidget *entry;
  MatWindow *window;
  gint64 t0;
  double open_ms;
  double filter_ms[TYPINGS], filter_sync_ms[TYPINGS], stricter_ms[TYPINGS], clear_ms[TYPINGS];
  guint64 rss_before, rss_after;

  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  window = mat_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                    G_CALLBACK (after_paint), NULL);
  wait_for_frame (GTK_WIDGET (window));
  rss_before = rss_kib ();

  /* opening: load, decode the directory, fill the list, paint it */
  selection = mat_window_get_selection (window);
  t0 = g_get_monotonic_time ();
  mat_window_open (window, file, FALSE);
  while (mat_window_get_library (window) == NULL ||
         g_list_model_get_n_items (G_LIST_MODEL (selection)) != 65536)
    g_main_context_iteration (NULL, TRUE);
  wait_for_frame (GTK_WIDGET (window));
  open_ms = (g_get_monotonic_time () - t0) / 1000.0;
  rss_after = rss_kib ();

  /* typing: the first character filters all 65,536 names; each round
   * types "t", then "ta", then clears the search */
  entry = find_search_entry (GTK_WIDGET (window));
  g_assert_nonnull (entry);
  for (guint i = 0; i < TYPINGS; i++)
    {
      filter_ms[i] = type_search (window, entry, "t", &filter_sync_ms[i]);
      stricter_ms[i] = type_search (window, entry, "ta", NULL);
      clear_ms[i] = type_search (window, entry, "", NULL);
      run_ms (100);   /* the material page follows the selection */
    }
  qsort (filter_ms, TYPINGS, sizeof (double), compare_doubles);
  qsort (filter_sync_ms, TYPINGS, sizeof (double), compare_doubles);
  qsort (stricter_ms, TYPINGS, sizeof (double), compare_doubles);
  qsort (clear_ms, TYPINGS, sizeof (double), compare_doubles);

  printf ("open 65,536 materials until the list shows: %8.1f ms  (goal < 1000 ms)\n", open_ms);
  printf ("re-filter, first typed character:           %8.1f ms  (goal < 50 ms; median of %d, %.1f to %.1f)\n",
          filter_ms[TYPINGS / 2], TYPINGS, filter_ms[0], filter_ms[TYPINGS - 1]);
  printf ("  of which the search and the list's update:   %8.1f ms; the rest is the next frame\n",
          filter_sync_ms[TYPINGS / 2]);
  printf ("re-filter, second character:                %8.1f ms\n", stricter_ms[TYPINGS / 2]);
  printf ("clear the search:                           %8.1f ms\n", clear_ms[TYPINGS / 2]);
  printf ("resident memory with the stress library:    %8.1f MB  (goal < 200 MB; %.1f MB before opening)\n",
          rss_after / 1024.0, rss_before / 1024.0);
  printf ("  of which the GL driver's code (LLVM, llvmpipe): %5.1f MB\n", gl_driver_rss_kib () / 1024.0);

  bench_many (window, entry);
  printf ("resident memory after searching and editing all by content: %5.1f MB\n", rss_kib () / 1024.0);

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
window_loaded (MatWindow *window)
{
  return mat_window_get_library (window) != NULL && !mat_window_get_busy (window);
}

/* Iterates until @preview has rendered another frame; returns the ms. */
static gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static double
wait_for_render (MatPreview *preview, gint64 t0, guint64 before)
{
  g_autoptr(GSource) wake = g_timeout_source_new (100);   /* so the check below runs */

  g_source_set_callback (wake, wake_up, NULL, NULL);
  g_source_attach (wake, NULL);
  while (mat_preview_get_n_renders (preview) == before)
    {
      g_main_context_iteration (NULL, TRUE);
      if (g_get_monotonic_time () - t0 > 10 * G_USEC_PER_SEC)
        g_error ("the preview did not draw within 10 s (mapped %d, error %s)",
                 gtk_widget_get_mapped (GTK_WIDGET (preview)),
                 mat_preview_get_error (preview) ? mat_preview_get_error (preview) : "none");
    }
  g_source_destroy (wake);
  return (g_get_monotonic_time () - t0) / 1000.0;
}

#define DRAGS 60

/* Pointer motion reaches GTK 4's widgets at the start of a frame (GDK
 * flushes its events there), and that frame then lays out and paints what
 * changed. So each update below runs in a tick callback, at the start of a
 * frame as a motion event would, and its time runs until the preview's new
 * picture has been painted: event to redrawn preview, on screen. Updates
 * come one a frame, as during a drag. */
typedef struct {
  MatPreview  *preview;
  MatTimeline *timeline;
  gboolean     drag;           /* else a change of the preview's own time */
  guint        n;              /* updates measured */
  gboolean     waiting;        /* for the preview's redraw */
  guint64      renders;        /* the preview's renders before the update */
  gint64       t0;
  double       latency[DRAGS];
  double       handling[DRAGS];
} FrameRun;

static gboolean
frame_run_tick (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       data)
{
  FrameRun *run = data;

  if (run->waiting || run->n == DRAGS)
    return G_SOURCE_CONTINUE;

  run->renders = mat_preview_get_n_renders (run->preview);
  run->t0 = g_get_monotonic_time ();
  if (run->drag)
    mat_timeline_test_drag_update (run->timeline, run->n % 2 == 0 ? 10.0 : 0.0, 0.0);
  else
    mat_preview_set_time (run->preview, 1201 + (run->n % 2));   /* a new time each frame */
  run->handling[run->n] = (g_get_monotonic_time () - run->t0) / 1000.0;
  run->waiting = TRUE;
  return G_SOURCE_CONTINUE;
}

static void
frame_run_painted (GdkFrameClock *clock,
                   FrameRun      *run)
{
  if (!run->waiting || mat_preview_get_n_renders (run->preview) == run->renders)
    return;
  run->latency[run->n++] = (g_get_monotonic_time () - run->t0) / 1000.0;
  run->waiting = FALSE;
}

static void
frame_run (FrameRun *run)
{
  GtkWidget *widget = GTK_WIDGET (run->timeline);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  gulong painted;
  guint tick;

  painted = g_signal_connect (clock, "after-paint", G_CALLBACK (frame_run_painted), run);
  tick = gtk_widget_add_tick_callback (widget, frame_run_tick, run, NULL);
  while (run->n < DRAGS)
    {
      g_main_context_iteration (NULL, TRUE);
      if (g_get_monotonic_time () > end)
        g_error ("the preview did not redraw (mapped %d, error %s)",
                 gtk_widget_get_mapped (GTK_WIDGET (run->preview)),
                 mat_preview_get_error (run->preview) ? mat_preview_get_error (run->preview) : "none");
    }
  gtk_widget_remove_tick_callback (widget, tick);
  g_signal_handler_disconnect (clock, painted);
  qsort (run->latency, DRAGS, sizeof (double), compare_doubles);
  qsort (run->handling, DRAGS, sizeof (double), compare_doubles);
}

/* A drag on the timeline retimes a key through the model; the preview
 * re-expands the material and draws the new blend. Baseline: the preview
 * redrawing after a change of its own time (one evaluation, one frame). */
static void
bench_drag (const char *demo)
{
  g_autoptr(MatApplication) app = mat_application_new ("io.github.parkan.MatEdit.BenchDrag",
                                                       G_APPLICATION_NON_UNIQUE);
  g_autoptr(GFile) file = g_file_new_for_path (demo);
  g_autoptr(GError) error = NULL;
  FrameRun own = { 0 }, drag = { 0 };
  MatWindow *window;
  MatLibrary *library;
  MatMaterial *material;
  MatPreview *preview;
  MatTimeline *timeline;
  GListModel *rows;
  double x;

  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  window = mat_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  while (!window_loaded (window))
    g_main_context_iteration (NULL, TRUE);

  library = mat_window_get_library (window);
  material = mat_library_find (library, "COLOR_CYCLE");
  rows = G_LIST_MODEL (mat_window_get_selection (window));
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(MatMaterial) item = g_list_model_get_item (rows, i);
      if (item == material)
        gtk_selection_model_select_item (mat_window_get_selection (window), i, TRUE);
    }
  gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                              MAT_TYPE_WINDOW,
                                                                              "material_stack")),
                                    "animation");
  preview = MAT_PREVIEW (gtk_widget_get_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW, "preview"));
  /* the Animation page is made when first shown */
  timeline = mat_block_editor_get_timeline (MAT_BLOCK_EDITOR (find_by_type (GTK_WIDGET (window),
                                                                            MAT_TYPE_BLOCK_EDITOR)));
  /* at 1200 ms both key 1 and key 2 of COLOR_CYCLE blend into the colour */
  mat_preview_set_time (preview, 1200);
  wait_for_render (preview, g_get_monotonic_time (), 0);

  own.preview = drag.preview = preview;
  own.timeline = drag.timeline = timeline;
  frame_run (&own);

  /* drag key 1 (starts at 800 ms) back and forth by 10 px */
  x = mat_timeline_time_to_x (timeline, 800);
  mat_timeline_test_drag_begin (timeline, x, mat_timeline_get_track_y (timeline), 0);
  drag.drag = TRUE;
  frame_run (&drag);
  mat_timeline_test_drag_end (timeline, 0.0, 0.0);

  printf ("timeline drag to redrawn preview: median %.1f ms, p90 %.1f ms  (goal < 16 ms); "
          "preview redraw after its own change %.1f ms; ratio %.2fx\n",
          drag.latency[DRAGS / 2], drag.latency[DRAGS * 9 / 10], own.latency[DRAGS / 2],
          drag.latency[DRAGS / 2] / own.latency[DRAGS / 2]);
  printf ("  (from the update at the start of a frame, as GTK delivers pointer motion, "
          "to that frame painted)\n");
  printf ("  of which the drag's handling (model edit, timeline, preview input): median %.2f ms\n",
          drag.handling[DRAGS / 2]);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  if (argc == 2 && g_str_equal (argv[1], "--bare"))
    return run_child (TRUE, NULL, FALSE);
  if (argc == 3 && g_str_equal (argv[1], "--app"))
    return run_child (FALSE, argv[2], FALSE);
  if (argc == 3 && g_str_equal (argv[1], "--app-preview"))
    return run_child (FALSE, argv[2], TRUE);
  if (argc != 3)
    {
      g_printerr ("usage: bench-ui DEMO.lib STRESS.lib\n");
      return 2;
    }

  g_set_prgname ("bench-ui");   /* recent files record the program */
  setvbuf (stdout, NULL, _IOLBF, 0);
  gtk_init ();
  if (g_getenv ("BENCH_UI_ONLY_STRESS") != NULL)   /* for profiling */
    {
      bench_stress (argv[2]);
      bench_drag (argv[1]);
      return 0;
    }
  {
    g_autofree char *gl_name = mat_gsk_renderer_dup_gl_name (gdk_display_get_default ());
    /* the renderer the editor draws with (mat_gsk_renderer_choose()):
     * cairo on software OpenGL before GTK 4.14, else GTK's own choice */
    const char *same = g_getenv ("GSK_RENDERER") == NULL && gtk_get_minor_version () < 14 &&
                       mat_gsk_renderer_is_software (gl_name) ? "cairo" : NULL;
    Spawns kinds[] = {
      { .mode = "--bare", .renderer = same },
      { .mode = "--app", .arg = argv[1] },
      { .mode = "--app-preview", .arg = argv[1] },
      { .mode = "--bare" },   /* GTK's default renderer, when that is not the same */
    };
    Spawns *bare = &kinds[0], *app = &kinds[1], *preview = &kinds[2], *gl = &kinds[3];
    const guint m = RUNS / 2;

    spawn_in_turn (argv[0], kinds, same != NULL ? 4 : 3);
    printf ("start-up, spawn to the first frame painted (median of %d, taken in turn): editor "
            "with the demo %.1f ms, a bare window drawn by the same renderer (%s) %.1f ms, "
            "ratio %.2fx  (goal <= 1.5x)\n", RUNS, app->painted[m],
            same != NULL ? same : "GTK's choice", bare->painted[m],
            app->painted[m] / bare->painted[m]);
    printf ("  quartiles: editor %.1f-%.1f ms, bare window %.1f-%.1f ms; OpenGL here: %s\n",
            app->painted[RUNS / 4], app->painted[RUNS * 3 / 4], bare->painted[RUNS / 4],
            bare->painted[RUNS * 3 / 4], gl_name != NULL ? gl_name : "none");
    printf ("  spawn to the process gone after that frame: editor %.1f ms, bare window %.1f ms, "
            "ratio %.2fx\n", app->exited[m], bare->exited[m], app->exited[m] / bare->exited[m]);
    if (same != NULL)
      printf ("  a bare window drawn by GTK's default renderer: %.1f ms to its first frame "
              "(the editor's ratio to it %.2fx)\n", gl->painted[m], app->painted[m] / gl->painted[m]);
    printf ("  until the preview beside the pages has drawn too (its OpenGL starts after "
            "the window's first frames; spawn to exit): %.1f ms\n", preview->exited[m]);
  }
  if (g_getenv ("BENCH_UI_ONLY_STARTUP") != NULL)   /* for measuring changes */
    return 0;

  bench_stress (argv[2]);
  bench_drag (argv[1]);
  return 0;
}
