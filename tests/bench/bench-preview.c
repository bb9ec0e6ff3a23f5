/* bench-preview.c - frames per second of the GL preview while it plays
 *
 * An 800x600 MatPreview plays a demo material for a few seconds (real GL:
 * under xvfb-run that is Mesa llvmpipe); the frames are counted from the
 * GdkFrameClock ("after-paint") and from the preview's own render count.
 * A plain GtkGLArea of the same size that only clears the screen every
 * frame is the baseline, measured the same way in the same run.
 *
 * Also printed: the process CPU time per frame (all threads, llvmpipe's
 * included), steadier than the frame rate on a loaded machine.
 *
 * The preview draws as the game does (render.md): a depth buffer, culling
 * off, the material's blend mode (printed; a see-through or additive
 * material such as SMOKE_PUFF draws both faces of the sphere blended).
 *
 * Environment: DEMO_LIB, DEMO_TEXTURES (optional), BENCH_NO_CONTROLS=1
 * (the view alone, without the control bar). Arguments: [SECONDS]
 * [MATERIAL] (default 5 s, LAVA_FLOW).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <epoxy/gl.h>
#include <gtk/gtk.h>

#include "mat-library.h"
#include "mat-preview.h"
#include "mat-gsk-renderer.h"
#include "mat-texture-library.h"

#define VIEW_WIDTH  800
#define VIEW_HEIGHT 600

typedef struct {
  guint   paints;
  guint   renders;
  double  cpu_seconds;   /* process CPU time, all threads (llvmpipe's too) */
  gint64  first_paint;
  gint64  last_paint;
} Count;

static void
on_after_paint (GdkFrameClock *clock,
                Count         *count)
{
  gint64 now = g_get_monotonic_time ();

  if (count->paints == 0)
    count->first_paint = now;
  count->last_paint = now;
  count->paints++;
}

static double
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static gboolean
on_timeout (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
run_for (double seconds)
{
  gboolean done = FALSE;

  g_timeout_add ((guint) (seconds * 1000), on_timeout, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static GtkWindow *
show (GtkWidget *child)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  gtk_widget_set_size_request (child, VIEW_WIDTH, VIEW_HEIGHT);
  gtk_window_set_child (window, child);
  gtk_window_present (window);
  while (!gtk_widget_get_mapped (child))
    g_main_context_iteration (NULL, TRUE);
  run_for (0.5);   /* settle: first frames, shader compilation */
  return window;
}

/* Counts what the frame clock paints over @seconds. */
static double
measure (GtkWidget *widget,
         double     seconds,
         Count     *count,
         guint64  (*renders) (GtkWidget *widget))
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gulong id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), count);
  guint64 before = renders (widget);
  gint64 start = g_get_monotonic_time ();
  double cpu_start = cpu_now ();
  double elapsed;

  run_for (seconds);
  elapsed = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  count->cpu_seconds = cpu_now () - cpu_start;
  g_signal_handler_disconnect (clock, id);
  count->renders = (guint) (renders (widget) - before);
  return elapsed;
}

/* ---- the preview ------------------------------------------------------ */

static guint64
preview_renders (GtkWidget *widget)
{
  return mat_preview_get_n_renders (MAT_PREVIEW (widget));
}

/* ---- the baseline: a GtkGLArea that clears ----------------------------- */

static guint64 baseline_render_count;

static gboolean
baseline_render (GtkGLArea    *area,
                 GdkGLContext *context,
                 gpointer      data)
{
  glClearColor (0.3f, 0.3f, 0.32f, 1.0f);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  baseline_render_count++;
  return TRUE;
}

static gboolean
baseline_tick (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       data)
{
  gtk_gl_area_queue_render (GTK_GL_AREA (widget));
  return G_SOURCE_CONTINUE;
}

static guint64
baseline_renders (GtkWidget *widget)
{
  return baseline_render_count;
}

int
main (int   argc,
      char *argv[])
{
  double seconds = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 5.0;
  const char *name = argc > 2 ? argv[2] : "LAVA_FLOW";
  const char *lib_path = g_getenv ("DEMO_LIB");
  const char *tex_path = g_getenv ("DEMO_TEXTURES");
  g_autoptr(GError) error = NULL;
  g_autoptr(MatLibrary) lib = NULL;
  g_autoptr(MatTextureLibrary) textures = NULL;
  char *data = NULL;
  gsize size = 0;
  Count preview_count = { 0 }, baseline_count = { 0 };
  double preview_time, baseline_time, preview_fps, baseline_fps, clock_fps;
  GtkWidget *preview, *area;
  guint blend_mode;
  GtkWindow *window;

  if (seconds <= 0)
    seconds = 5.0;
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  gtk_init ();
  /* the windows drawn as the editor's are */
  printf ("windows drawn with: %s\n", mat_gsk_renderer_choose (gdk_display_get_default ()) != NULL
          ? "cairo (OpenGL is software)" : "GTK's choice");

  if (lib_path == NULL || !g_file_get_contents (lib_path, &data, &size, &error))
    {
      fprintf (stderr, "bench-preview: DEMO_LIB: %s\n",
               error != NULL ? error->message : "not set");
      return 1;
    }
  {
    g_autoptr(GBytes) bytes = g_bytes_new_take (data, size);

    lib = mat_library_new_from_bytes (bytes, &error);
  }
  if (lib == NULL)
    {
      fprintf (stderr, "bench-preview: %s\n", error->message);
      return 1;
    }
  if (tex_path != NULL && g_file_get_contents (tex_path, &data, &size, NULL))
    {
      g_autoptr(GBytes) bytes = g_bytes_new_take (data, size);

      textures = mat_texture_library_new_from_bytes (bytes, NULL);
    }
  if (mat_library_find (lib, name) == NULL)
    {
      fprintf (stderr, "bench-preview: no material %s\n", name);
      return 1;
    }

  /* the preview, playing, controls shown */
  preview = mat_preview_new ();
  mat_preview_set_material (MAT_PREVIEW (preview), mat_library_find (lib, name));
  mat_preview_set_textures (MAT_PREVIEW (preview), textures);
  if (g_getenv ("BENCH_NO_CONTROLS") != NULL)
    mat_preview_set_show_controls (MAT_PREVIEW (preview), FALSE);
  window = show (preview);
  if (mat_preview_get_error (MAT_PREVIEW (preview)) != NULL)
    {
      fprintf (stderr, "bench-preview: the preview cannot draw: %s\n",
               mat_preview_get_error (MAT_PREVIEW (preview)));
      return 1;
    }
  /* measured while playing: the first tick after play only notes the
   * start time (nothing has moved yet), so playback settles first */
  mat_preview_set_playing (MAT_PREVIEW (preview), TRUE);
  run_for (0.5);
  preview_time = measure (preview, seconds, &preview_count, preview_renders);
  mat_preview_set_playing (MAT_PREVIEW (preview), FALSE);
  clock_fps = gdk_frame_clock_get_fps (gtk_widget_get_frame_clock (preview));
  blend_mode = mat_preview_get_blend_mode (MAT_PREVIEW (preview));
  gtk_window_destroy (window);

  /* the baseline */
  area = gtk_gl_area_new ();
  gtk_gl_area_set_required_version (GTK_GL_AREA (area), 3, 3);
  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (area), TRUE);
  g_signal_connect (area, "render", G_CALLBACK (baseline_render), NULL);
  gtk_widget_add_tick_callback (area, baseline_tick, NULL, NULL);
  window = show (area);
  baseline_time = measure (area, seconds, &baseline_count, baseline_renders);
  gtk_window_destroy (window);

  preview_fps = preview_count.renders / preview_time;
  baseline_fps = baseline_count.renders / baseline_time;
  printf ("material %s (blend mode %u), %dx%d, %.1f s each\n", name, blend_mode, VIEW_WIDTH,
          VIEW_HEIGHT, seconds);
  printf ("preview frames: %u paints, %u renders in %.2f s (frame clock reports %.1f fps)\n",
          preview_count.paints, preview_count.renders, preview_time, clock_fps);
  printf ("baseline frames: %u paints, %u renders in %.2f s\n",
          baseline_count.paints, baseline_count.renders, baseline_time);
  printf ("cpu per frame: preview %.2f ms, baseline %.2f ms (process CPU time, all threads)\n",
          preview_count.renders > 0 ? preview_count.cpu_seconds * 1000 / preview_count.renders : 0.0,
          baseline_count.renders > 0 ? baseline_count.cpu_seconds * 1000 / baseline_count.renders : 0.0);
  printf ("preview fps: %.1f (goal >= 60)\n", preview_fps);
  printf ("baseline fps: %.1f (plain GtkGLArea clearing)\n", baseline_fps);
  printf ("ratio preview/baseline: %.2f\n", baseline_fps > 0 ? preview_fps / baseline_fps : 0.0);
  return 0;
}
