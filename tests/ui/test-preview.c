/* test-preview.c - MatPreview: real GL pixels against the evaluator, the
 * preview against `mat0tool eval`, the failure path, the controls, and a
 * screenshot of a lit textured sphere.
 *
 * Runs with real OpenGL (never GSK_RENDERER=cairo) under xvfb-run; on
 * these machines that is Mesa llvmpipe through GLX. The GL tests do not
 * skip themselves.
 *
 * Environment: DEMO_LIB (the demo Material.lib), DEMO_TEXTURES (its
 * Textures.lib), MAT0TOOL (the CLI); optional SCREENSHOT_DIR, where the
 * PNGs go (default: the build directory).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "mat-library.h"
#include "mat-preview.h"
#include "mat-texture-library.h"
#include "phase-eval.h"
#include "test-support.h"
#include "ui-support.h"

#define VIEW_WIDTH  800
#define VIEW_HEIGHT 600

/* ---- helpers ---------------------------------------------------------- */

static MatLibrary *
demo_library (void)
{
  g_autoptr(GBytes) bytes = ui_demo_bytes ();

  return ui_library_new (bytes);
}

static MatTextureLibrary *
demo_textures (void)
{
  g_autoptr(GBytes) bytes = test_load_file (ui_need_env ("DEMO_TEXTURES"));
  g_autoptr(GError) error = NULL;
  MatTextureLibrary *textures = mat_texture_library_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (textures);
  return textures;
}

/* A window holding @preview at 800x600; destroy it with gtk_window_destroy. */
static GtkWindow *
show_preview (GtkWidget *preview)
{
  gtk_widget_set_size_request (preview, VIEW_WIDTH, VIEW_HEIGHT);
  return ui_show (preview, "MatPreview", -1, -1);
}

static GtkWidget *
preview_widget (GtkWidget  *preview,
                const char *name)
{
  GtkWidget *widget = mat_preview_get_test_widget (MAT_PREVIEW (preview), name);

  g_assert_nonnull (widget);
  return widget;
}

/* What the evaluator says, computed here from the model's core copy. */
static void
evaluate_directly (MatMaterial     *material,
                   int              block,
                   guint32          time,
                   guint32          random_offset,
                   PhaseEvalResult *result)
{
  Mat0Material *core = mat_material_dup_core (material);
  g_autofree PhaseRuntime *phases = NULL;
  PhaseEvalInput input = { 0 };

  g_assert_nonnull (core);
  phases = g_new0 (PhaseRuntime, MAX (core->n_phases, 1));
  phase_eval_expand_material (core, phases);
  input.phases = phases;
  input.n_phases = core->n_phases;
  input.block = block >= 0 ? &core->blocks[block] : NULL;
  phase_eval_at_time (&input, time, 0, random_offset, result);
  mat0_material_free (core);
}

static int
channel (float value)
{
  return (int) lrintf (CLAMP (value, 0.0f, 1.0f) * 255.0f);
}

/* ---- GL pixels against the evaluator ---------------------------------- */

static void
test_unlit_pixels (void)
{
  g_autoptr(MatLibrary) lib = demo_library ();
  MatMaterial *material = ui_find_material (lib, "COLOR_CYCLE");
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  GtkWindow *window;
  GtkWidget *area;
  static const guint times[] = { 0, 200, 400, 800, 1000, 3100 };
  guint8 first[4];

  mat_preview_set_show_controls (p, FALSE);
  mat_preview_set_material (p, material);
  mat_preview_set_shape (p, MAT_PREVIEW_SHAPE_PLANE);
  mat_preview_set_unlit (p, TRUE);
  g_assert_cmpint (mat_preview_get_block (p), ==, 0);
  g_assert_false (mat_preview_get_playing (p));
  window = show_preview (preview);
  area = preview_widget (preview, "gl_area");
  g_assert_null (mat_preview_get_error (p));
  g_assert_cmpint (gtk_widget_get_width (area), ==, VIEW_WIDTH);
  g_assert_cmpint (gtk_widget_get_height (area), ==, VIEW_HEIGHT);

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      PhaseEvalResult expected, shown;
      guint64 evaluations, renders;
      guint8 rgba[4];

      mat_preview_set_time (p, times[i]);
      evaluations = mat_preview_get_n_evaluations (p);
      renders = mat_preview_get_n_renders (p);
      g_assert_true (mat_preview_read_pixel_for_test (p, VIEW_WIDTH / 2, VIEW_HEIGHT / 2, rgba));
      g_assert_cmpuint (mat_preview_get_n_renders (p), >, renders);
      /* the frame drew the evaluation made for this time: no second call */
      g_assert_cmpuint (mat_preview_get_n_evaluations (p), ==, evaluations);

      evaluate_directly (material, 0, times[i], 0, &expected);
      g_assert_true (mat_preview_get_evaluation (p, &shown));
      g_assert_cmpmem (shown.value.f, sizeof shown.value.f, expected.value.f, sizeof expected.value.f);
      g_test_message ("t=%u: pixel %u %u %u %u, evaluator %.4f %.4f %.4f %.4f", times[i],
                      rgba[0], rgba[1], rgba[2], rgba[3], expected.value.f[0],
                      expected.value.f[1], expected.value.f[2], expected.value.f[3]);
      for (guint c = 0; c < 3; c++)
        g_assert_cmpint (ABS ((int) rgba[c] - channel (expected.value.f[c])), <=, 2);
      /* alpha f3 = 1 over the checkerboard: the colour is not mixed */
      g_assert_cmpfloat (expected.value.f[3], ==, 1.0f);
      if (i == 0)
        memcpy (first, rgba, 4);
    }

  /* paused: the same time gives the same frame again */
  {
    guint8 again[4];

    mat_preview_set_time (p, 0);
    g_assert_true (mat_preview_read_pixel_for_test (p, VIEW_WIDTH / 2, VIEW_HEIGHT / 2, again));
    g_assert_cmpmem (again, 3, first, 3);
    g_assert_true (mat_preview_read_pixel_for_test (p, VIEW_WIDTH / 2, VIEW_HEIGHT / 2, again));
    g_assert_cmpmem (again, 3, first, 3);
  }

  /* a corner shows the checkerboard: two different greys */
  {
    guint8 a[4], b[4];

    g_assert_true (mat_preview_read_pixel_for_test (p, 4, 4, a));
    g_assert_true (mat_preview_read_pixel_for_test (p, 20, 4, b));
    g_assert_cmpint (a[0], ==, a[1]);
    g_assert_cmpint (b[0], ==, b[1]);
    g_assert_cmpint (a[0], !=, b[0]);
  }

  gtk_window_destroy (window);
  ui_pump ();
}

/* Half-transparent diffuse (f3 < 1) blends over the checkerboard. */
static void
test_unlit_alpha (void)
{
  g_autoptr(MatLibrary) lib = demo_library ();
  MatMaterial *material = ui_find_material (lib, "SMOKE_PUFF");
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  GtkWindow *window;
  PhaseEvalResult r;
  guint8 a[4], b[4], grey_a[4], grey_b[4];

  mat_preview_set_show_controls (p, FALSE);
  mat_preview_set_material (p, material);   /* no textures: untextured */
  mat_preview_set_shape (p, MAT_PREVIEW_SHAPE_PLANE);
  mat_preview_set_unlit (p, TRUE);
  mat_preview_set_time (p, 5000);           /* one-shot: held at phase 1 */
  window = show_preview (preview);

  g_assert_true (mat_preview_get_evaluation (p, &r));
  g_assert_true (r.hold);
  g_assert_cmpfloat (r.value.f[3], <, 0.5f);
  /* the two checker greys, from a corner */
  g_assert_true (mat_preview_read_pixel_for_test (p, 4, 4, grey_a));
  g_assert_true (mat_preview_read_pixel_for_test (p, 20, 4, grey_b));
  /* two neighbouring checker cells near the centre differ after blending */
  g_assert_true (mat_preview_read_pixel_for_test (p, VIEW_WIDTH / 2 + 4, VIEW_HEIGHT / 2 + 4, a));
  g_assert_true (mat_preview_read_pixel_for_test (p, VIEW_WIDTH / 2 + 20, VIEW_HEIGHT / 2 + 4, b));
  g_assert_cmpint (a[0], !=, b[0]);
  /* each is diffuse * f3 + grey * (1 - f3) over one of the two greys */
  for (guint i = 0; i < 2; i++)
    {
      const guint8 *px = i == 0 ? a : b;
      gboolean over_a = TRUE, over_b = TRUE;

      for (guint c = 0; c < 3; c++)
        {
          float d = r.value.f[c] * r.value.f[3];
          float ea = d + grey_a[c] / 255.0f * (1 - r.value.f[3]);
          float eb = d + grey_b[c] / 255.0f * (1 - r.value.f[3]);

          over_a = over_a && ABS ((int) px[c] - channel (ea)) <= 2;
          over_b = over_b && ABS ((int) px[c] - channel (eb)) <= 2;
        }
      g_test_message ("blended pixel %u %u %u", px[0], px[1], px[2]);
      g_assert_true (over_a || over_b);
    }

  gtk_window_destroy (window);
  ui_pump ();
}

/* ---- the preview against mat0tool eval -------------------------------- */

static JsonObject *
cli_eval (const char *name,
          guint32     time,
          guint32     offset,
          JsonParser *parser)
{
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *time_arg = g_strdup_printf ("%u", time);
  g_autofree char *offset_arg = g_strdup_printf ("%u", offset);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                           ui_need_env ("MAT0TOOL"), "eval", ui_need_env ("DEMO_LIB"), name,
                           "--block", "0", "--time", time_arg, "--offset", offset_arg, "--json",
                           NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_successful (proc))
    g_error ("mat0tool eval %s failed: %s", name, err);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
compare_with_cli (MatPreview *p,
                  const char *name,
                  guint32     time)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  PhaseEvalResult r;
  JsonObject *cli;
  JsonArray *f;

  mat_preview_set_time (p, time);
  g_assert_true (mat_preview_get_evaluation (p, &r));
  cli = cli_eval (name, time, mat_preview_get_random_offset (p), parser);

  f = json_object_get_array_member (cli, "f");
  g_assert_cmpuint (json_array_get_length (f), ==, 16);
  for (guint i = 0; i < 16; i++)
    {
      float value = (float) json_array_get_double_element (f, i);

      if (value != r.value.f[i])
        g_error ("%s t=%u: f%u preview %.9g, mat0tool %.9g", name, time, i, r.value.f[i], value);
    }
  g_assert_cmpfloat ((float) json_object_get_double_member (cli, "power"), ==, r.value.power);
  g_assert_cmpfloat ((float) json_object_get_double_member (cli, "alpha"), ==, r.alpha);
  g_assert_cmpint (json_object_get_int_member (cli, "segment"), ==, r.segment);
  g_assert_cmpint (json_object_get_int_member (cli, "next"), ==, r.next);
  g_assert_cmpint (json_object_get_int_member (cli, "phase_a"), ==, r.phase_a);
  g_assert_cmpint (json_object_get_int_member (cli, "phase_b"), ==, r.phase_b);
  g_assert_cmpint (json_object_get_int_member (cli, "r"), ==, r.r);
  g_assert_cmpint (json_object_get_int_member (cli, "cycle"), ==, r.period);
  g_assert_cmpint (json_object_get_int_member (cli, "mode"), ==, r.mode);
  g_assert_cmpint (json_object_get_boolean_member (cli, "hold"), ==, r.hold);
  g_assert_cmpint (json_object_get_int_member (cli, "tex_slot"), ==, r.value.tex_slot);
  g_assert_cmpint (json_object_get_int_member (cli, "i18"), ==, r.value.i18);
}

static void
test_cli_agreement (void)
{
  g_autoptr(MatLibrary) lib = demo_library ();
  static const guint32 times[] = { 0, 1, 250, 599, 600, 777, 1199, 1200, 1500, 2999, 3000,
                                   4321, 100000, 4294967295u };
  static const char *const names[] = { "GLOW_PULSE", "FLICKER_LAMP", "WATER_SURFACE" };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      GtkWidget *preview = g_object_ref_sink (mat_preview_new ());
      MatPreview *p = MAT_PREVIEW (preview);

      mat_preview_set_material (p, ui_find_material (lib, names[n]));
      g_assert_cmpint (mat_preview_get_block (p), ==, 0);
      if (strcmp (names[n], "FLICKER_LAMP") == 0)
        {
          PhaseEvalResult r;

          g_assert_true (mat_preview_get_evaluation (p, &r));
          g_assert_cmpuint (r.mode, ==, PHASE_EVAL_MODE_RANDOM);
          /* the re-roll button's action, twice: R changes, stays < cycle */
          g_assert_true (gtk_widget_activate_action (preview, "preview.reroll", NULL));
          g_assert_cmpuint (mat_preview_get_random_offset (p), <, r.period);
          g_assert_cmpuint (mat_preview_get_random_offset (p), >, 0);
          for (guint t = 0; t < G_N_ELEMENTS (times); t++)
            compare_with_cli (p, names[n], times[t]);
          g_assert_true (gtk_widget_activate_action (preview, "preview.reroll", NULL));
          g_assert_cmpuint (mat_preview_get_random_offset (p), <, r.period);
        }
      for (guint t = 0; t < G_N_ELEMENTS (times); t++)
        compare_with_cli (p, names[n], times[t]);
      g_object_unref (preview);
    }
}

/* The seeded generator: two previews draw the same offsets. */
static void
test_reroll_reproducible (void)
{
  g_autoptr(MatLibrary) lib = demo_library ();
  GtkWidget *a = g_object_ref_sink (mat_preview_new ());
  GtkWidget *b = g_object_ref_sink (mat_preview_new ());

  mat_preview_set_material (MAT_PREVIEW (a), ui_find_material (lib, "FLICKER_LAMP"));
  mat_preview_set_material (MAT_PREVIEW (b), ui_find_material (lib, "FLICKER_LAMP"));
  for (guint i = 0; i < 5; i++)
    {
      mat_preview_reroll (MAT_PREVIEW (a));
      mat_preview_reroll (MAT_PREVIEW (b));
      g_assert_cmpuint (mat_preview_get_random_offset (MAT_PREVIEW (a)), ==,
                        mat_preview_get_random_offset (MAT_PREVIEW (b)));
    }
  /* not a random block: the re-roll action is off */
  {
    guint before = mat_preview_get_random_offset (MAT_PREVIEW (a));

    mat_preview_set_material (MAT_PREVIEW (a), ui_find_material (lib, "COLOR_CYCLE"));
    gtk_widget_activate_action (a, "preview.reroll", NULL);
    g_assert_cmpuint (mat_preview_get_random_offset (MAT_PREVIEW (a)), ==, before);
  }
  g_object_unref (a);
  g_object_unref (b);
}

/* ---- the failure path ------------------------------------------------- */

static void
test_gl_failure (void)
{
  g_autoptr(MatLibrary) lib = demo_library ();
  GtkWidget *preview;
  MatPreview *p;
  GtkWindow *window;
  GtkWidget *label;
  guint8 rgba[4];
  PhaseEvalResult r;

  g_setenv ("MATEDIT_PREVIEW_FAIL_GL", "1", TRUE);
  preview = mat_preview_new ();
  p = MAT_PREVIEW (preview);
  mat_preview_set_material (p, ui_find_material (lib, "COLOR_CYCLE"));
  window = show_preview (preview);
  g_unsetenv ("MATEDIT_PREVIEW_FAIL_GL");

  g_assert_nonnull (mat_preview_get_error (p));
  g_assert_nonnull (strstr (mat_preview_get_error (p), "MATEDIT_PREVIEW_FAIL_GL"));
  label = preview_widget (preview, "error_label");
  g_assert_true (gtk_widget_get_mapped (label));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, mat_preview_get_error (p));
  g_assert_false (gtk_widget_get_mapped (preview_widget (preview, "gl_area")));
  g_assert_false (mat_preview_read_pixel_for_test (p, 10, 10, rgba));
  /* the rest still works: evaluation, time, playback */
  mat_preview_set_time (p, 1234);
  g_assert_true (mat_preview_get_evaluation (p, &r));
  mat_preview_set_playing (p, TRUE);
  ui_spin_ms (100);
  mat_preview_set_playing (p, FALSE);
  ui_screenshot (preview, "preview-error.png");
  gtk_window_destroy (window);
  ui_pump ();
}

/* ---- the controls ----------------------------------------------------- */

static void
test_controls (void)
{
  g_autoptr(MatLibrary) lib = demo_library ();
  MatMaterial *material = ui_find_material (lib, "COLOR_CYCLE");
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  GtkWindow *window;
  PhaseEvalResult r;
  GtkDropDown *blocks;
  guint time;

  mat_preview_set_material (p, material);
  window = show_preview (preview);
  g_assert_true (gtk_widget_get_mapped (preview_widget (preview, "controls")));

  /* the block list: static phase, then the block with its mode */
  blocks = GTK_DROP_DOWN (preview_widget (preview, "block_dropdown"));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (blocks)), ==, 2);
  g_assert_cmpuint (gtk_drop_down_get_selected (blocks), ==, 1);
  g_assert_false (gtk_widget_get_sensitive (preview_widget (preview, "phase_spin")));
  gtk_drop_down_set_selected (blocks, 0);
  g_assert_cmpint (mat_preview_get_block (p), ==, -1);
  g_assert_true (gtk_widget_get_sensitive (preview_widget (preview, "phase_spin")));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (preview_widget (preview, "phase_spin")), 2);
  g_assert_cmpuint (mat_preview_get_phase (p), ==, 2);
  g_assert_true (mat_preview_get_evaluation (p, &r));
  g_assert_true (r.hold);
  g_assert_cmpint (r.phase_a, ==, 2);
  g_assert_cmpfloat (r.value.f[2], ==, 1.0f);   /* blue */

  /* the evaluator input follows the model: a changed phase re-expands */
  {
    MatPhase *phase = g_list_model_get_item (mat_material_get_phases (material), 2);
    g_autoptr(GError) error = NULL;

    g_assert_true (mat_phase_set_param (phase, 6, 51, &error));
    g_assert_no_error (error);
    g_assert_true (mat_preview_get_evaluation (p, &r));
    g_assert_cmpfloat (r.value.f[2], ==, 51 / 255.0f);
    g_object_unref (phase);
  }
  /* a new block appears in the list */
  {
    g_autoptr(GError) error = NULL;

    g_assert_nonnull (mat_material_insert_block (material, 1, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (blocks)), ==, 3);
    g_assert_true (mat_material_remove_block (material, 1, &error));
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (blocks)), ==, 2);
  }
  gtk_drop_down_set_selected (blocks, 1);
  g_assert_cmpint (mat_preview_get_block (p), ==, 0);

  /* shape, unlit, speed */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (preview_widget (preview, "shape_dropdown")), 1);
  g_assert_cmpint (mat_preview_get_shape (p), ==, MAT_PREVIEW_SHAPE_CUBE);
  g_assert_true (gtk_widget_activate_action (preview, "preview.unlit", NULL));
  g_assert_true (mat_preview_get_unlit (p));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (preview_widget (preview, "unlit_button"))));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (preview_widget (preview, "speed_spin")), 2.0);
  g_assert_cmpfloat (mat_preview_get_speed (p), ==, 2.0);
  mat_preview_set_speed (p, 10.0);
  g_assert_cmpfloat (mat_preview_get_speed (p), ==, 4.0);

  /* scrubbing: the scale sets the time */
  gtk_range_set_value (GTK_RANGE (preview_widget (preview, "time_scale")), 1700);
  g_assert_cmpuint (mat_preview_get_time (p), ==, 1700);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (preview_widget (preview, "time_label"))),
                            "3200"));

  /* play: the time advances from the frame clock; pause stops it */
  mat_preview_set_speed (p, 1.0);
  time = mat_preview_get_time (p);
  {
    guint64 evaluations = mat_preview_get_n_evaluations (p);
    guint64 renders = mat_preview_get_n_renders (p);

    g_assert_true (gtk_widget_activate_action (preview, "preview.playing", NULL));
    g_assert_true (mat_preview_get_playing (p));
    ui_spin_ms (400);
    g_assert_true (gtk_widget_activate_action (preview, "preview.playing", NULL));
    g_assert_false (mat_preview_get_playing (p));
    /* one evaluator call per frame */
    g_test_message ("playing: %" G_GUINT64_FORMAT " frames, %" G_GUINT64_FORMAT " evaluations",
                    mat_preview_get_n_renders (p) - renders,
                    mat_preview_get_n_evaluations (p) - evaluations);
    g_assert_cmpuint (mat_preview_get_n_renders (p) - renders, >, 2);
    g_assert_cmpuint (mat_preview_get_n_evaluations (p) - evaluations, <=,
                      mat_preview_get_n_renders (p) - renders + 2);
  }
  g_assert_cmpuint (mat_preview_get_time (p), >, time + 100);
  time = mat_preview_get_time (p);
  ui_spin_ms (100);
  g_assert_cmpuint (mat_preview_get_time (p), ==, time);

  /* loop off: playback stops at the end of the cycle */
  g_assert_true (gtk_widget_activate_action (preview, "preview.loop", NULL));
  g_assert_false (mat_preview_get_loop (p));
  mat_preview_set_speed (p, 4.0);
  mat_preview_set_time (p, 3200 * 2 + 2900);
  mat_preview_set_playing (p, TRUE);
  for (guint i = 0; i < 100 && mat_preview_get_playing (p); i++)
    ui_spin_ms (20);
  g_assert_false (mat_preview_get_playing (p));
  g_assert_cmpuint (mat_preview_get_time (p), ==, 3200 * 3);

  /* no texture library: a textured phase says so on the bar */
  mat_preview_set_material (p, ui_find_material (lib, "ROCK_WALL"));
  ui_pump ();
  g_assert_true (gtk_widget_get_visible (preview_widget (preview, "texture_label")));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (preview_widget (preview, "texture_label"))),
                            "ROCK.0"));
  {
    g_autoptr(MatTextureLibrary) textures = demo_textures ();

    mat_preview_set_textures (p, textures);
    g_assert_false (gtk_widget_get_visible (preview_widget (preview, "texture_label")));
  }

  gtk_window_destroy (window);
  ui_pump ();
}

/* ---- screenshots ------------------------------------------------------ */

static void
test_screenshot (void)
{
  g_autoptr(MatLibrary) lib = demo_library ();
  g_autoptr(MatTextureLibrary) textures = demo_textures ();
  g_autoptr(GdkTexture) frame = NULL;
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  GtkWindow *window;
  g_autofree guint8 *pixels = NULL;
  int w, h;
  guint8 *centre, *corner_a, *corner_b;
  guint distinct = 0;

  mat_preview_set_material (p, ui_find_material (lib, "LAVA_FLOW"));
  mat_preview_set_textures (p, textures);
  mat_preview_set_shape (p, MAT_PREVIEW_SHAPE_SPHERE);
  mat_preview_set_time (p, 350);
  window = show_preview (preview);
  g_assert_false (gtk_widget_get_visible (preview_widget (preview, "texture_label")));

  frame = mat_preview_read_frame_for_test (p);
  g_assert_nonnull (frame);
  ui_save_texture (frame, "preview.png");
  ui_screenshot (preview, "preview-window.png");

  w = gdk_texture_get_width (frame);
  h = gdk_texture_get_height (frame);
  pixels = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (frame, pixels, (gsize) w * 4);
  /* GdkMemoryTexture downloads as B8G8R8A8 premultiplied on little endian */
  centre = pixels + ((gsize) (h / 2) * w + w / 2) * 4;
  corner_a = pixels + ((gsize) 4 * w + 4) * 4;
  corner_b = pixels + ((gsize) 4 * w + 20) * 4;
  /* lava: red over green over blue at the centre, lit */
  g_assert_cmpint (centre[2], >, centre[1]);
  g_assert_cmpint (centre[1], >, centre[0]);
  /* checkerboard in the corner (neutral grey: R == G) */
  g_assert_cmpint (corner_a[2], ==, corner_a[1]);
  g_assert_cmpint (corner_a[0], !=, corner_b[0]);
  /* textured: the sphere's middle row shows many different colours */
  {
    GHashTable *seen = g_hash_table_new (NULL, NULL);

    for (int x = w / 2 - 100; x < w / 2 + 100; x++)
      {
        guint8 *px = pixels + ((gsize) (h / 2) * w + x) * 4;

        g_hash_table_add (seen, GUINT_TO_POINTER ((px[0] << 16) | (px[1] << 8) | px[2]));
      }
    distinct = g_hash_table_size (seen);
    g_hash_table_unref (seen);
  }
  g_assert_cmpuint (distinct, >, 30);

  gtk_window_destroy (window);
  ui_pump ();
}

static guint
luma (const guint8 *bgra)
{
  return (guint) bgra[0] + bgra[1] + bgra[2];
}

/* A lit metal sphere: the light comes from the upper left, so that side
 * is brighter than the lower right, with a specular highlight. */
static void
test_lit_sphere (void)
{
  g_autoptr(MatLibrary) lib = demo_library ();
  g_autoptr(MatTextureLibrary) textures = demo_textures ();
  g_autoptr(GdkTexture) frame = NULL;
  g_autofree guint8 *pixels = NULL;
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  GtkWindow *window;
  int w, h, r;
  guint8 *upper_left, *lower_right;
  guint brightest = 0;

  mat_preview_set_material (p, ui_find_material (lib, "METAL_PLATE"));
  mat_preview_set_textures (p, textures);
  mat_preview_set_show_controls (p, FALSE);
  window = show_preview (preview);

  frame = mat_preview_read_frame_for_test (p);
  g_assert_nonnull (frame);
  ui_save_texture (frame, "preview-metal.png");
  w = gdk_texture_get_width (frame);
  h = gdk_texture_get_height (frame);
  pixels = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (frame, pixels, (gsize) w * 4);

  r = h / 5;   /* well inside the sphere */
  upper_left = pixels + ((gsize) (h / 2 - r) * w + (w / 2 - r)) * 4;
  lower_right = pixels + ((gsize) (h / 2 + r) * w + (w / 2 + r)) * 4;
  g_test_message ("upper left %u, lower right %u", luma (upper_left), luma (lower_right));
  g_assert_cmpuint (luma (upper_left), >, luma (lower_right) + 60);
  for (int y = h / 2 - 2 * r; y < h / 2 + 2 * r; y++)
    for (int x = w / 2 - 2 * r; x < w / 2 + 2 * r; x++)
      brightest = MAX (brightest, luma (pixels + ((gsize) y * w + x) * 4));
  g_assert_cmpuint (brightest, >, 3 * 235);   /* the highlight */

  gtk_window_destroy (window);
  ui_pump ();
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);
  gtk_init ();

  g_test_add_func ("/preview/gl/unlit-pixels", test_unlit_pixels);
  g_test_add_func ("/preview/gl/unlit-alpha", test_unlit_alpha);
  g_test_add_func ("/preview/eval/cli-agreement", test_cli_agreement);
  g_test_add_func ("/preview/eval/reroll-reproducible", test_reroll_reproducible);
  g_test_add_func ("/preview/gl/failure", test_gl_failure);
  g_test_add_func ("/preview/controls", test_controls);
  g_test_add_func ("/preview/gl/screenshot", test_screenshot);
  g_test_add_func ("/preview/gl/lit-sphere", test_lit_sphere);
  return g_test_run ();
}
