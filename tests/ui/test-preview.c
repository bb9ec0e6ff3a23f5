/* test-preview.c - MatPreview: real GL pixels against render.md's formulas
 * computed here (lit and raw, every blend mode, the alpha test, the
 * backgrounds, texture cells), the evaluator against the preview and
 * `mat0tool eval` (a mode-3 track at a given R), the shared playback
 * clock, the settings, the failure path, the controls, and screenshots.
 *
 * Runs with real OpenGL (never GSK_RENDERER=cairo) under xvfb-run; on
 * these machines that is Mesa llvmpipe through GLX. The GL tests do not
 * skip themselves.
 *
 * The materials and textures the pixel tests draw are built here, byte by
 * byte, so each expected value follows from the test's own numbers.
 *
 * Environment: DEMO_LIB (the demo Material.lib), DEMO_TEXTURES (its
 * Textures.lib), MAT0TOOL (the CLI); optional SCREENSHOT_DIR, where the
 * PNGs go (default: the build directory).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <epoxy/gl.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "mat-drop-down.h"
#include "mat-application.h"
#include "mat-compare-view.h"
#include "mat-library.h"
#include "mat-playback.h"
#include "mat-preview-private.h"
#include "mat-preview-renderer.h"
#include "mat-texture-library.h"
#include "phase-eval.h"
#include "texm.h"
#include "test-support.h"
#include "ui-support.h"

#define VIEW_WIDTH  800
#define VIEW_HEIGHT 600
#define TYPE_MAT0   0x3054414Du
#define TYPE_TEXM   0x6D786554u
#define TOLERANCE   2

/* ---- building materials and textures ---------------------------------- */

typedef struct {
  guint8      p[18];
  const char *texture;
} PhaseSpec;

typedef struct {
  guint32 header;         /* mode | interp mask << 3 */
  guint   n_keys;
  guint16 keys[8][3];     /* k0, k1 (the time the interval ends), k2 */
} BlockSpec;

typedef struct {
  const char      *name;
  guint32          attr1;
  const PhaseSpec *phases;
  guint            n_phases;
  const BlockSpec *blocks;
  guint            n_blocks;
} MaterialSpec;

static GBytes *
material_payload (const MaterialSpec *m)
{
  GByteArray *a = g_byte_array_new ();

  test_put_u16 (a, (guint16) m->n_phases);
  test_put_u16 (a, (guint16) m->n_blocks);
  /* attr2 6: metaA, metaB, metaC, metaD */
  test_put_u8 (a, 255);
  test_put_u8 (a, 255);
  test_put_u32 (a, 0x3F800000u);
  test_put_u32 (a, 0);
  for (guint i = 0; i < m->n_phases; i++)
    test_put_phase (a, m->phases[i].p, m->phases[i].texture);
  for (guint b = 0; b < m->n_blocks; b++)
    {
      test_put_u32 (a, m->blocks[b].header);
      test_put_u16 (a, (guint16) m->blocks[b].n_keys);
      for (guint k = 0; k < m->blocks[b].n_keys; k++)
        for (guint j = 0; j < 3; j++)
          test_put_u16 (a, m->blocks[b].keys[k][j]);
    }
  return g_byte_array_free_to_bytes (a);
}

/* An NRes file with the materials @m. Returns: (transfer full) */
static GBytes *
materials_archive (const MaterialSpec *m,
                   guint               n)
{
  g_autoptr(GPtrArray) payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autofree TestEntrySpec *specs = g_new0 (TestEntrySpec, n);

  for (guint i = 0; i < n; i++)
    {
      GBytes *payload = material_payload (&m[i]);

      g_ptr_array_add (payloads, payload);
      specs[i].type_id = TYPE_MAT0;
      specs[i].attr1 = m[i].attr1;
      specs[i].attr2 = 6;
      specs[i].name = m[i].name;
      specs[i].payload = g_bytes_get_data (payload, &specs[i].size);
    }
  return test_build_archive (specs, n, TRUE);
}

static MatLibrary *
materials_library (const MaterialSpec *m,
                   guint               n)
{
  g_autoptr(GBytes) bytes = materials_archive (m, n);

  return ui_library_new (bytes);
}

/* The 2x2 atlas: 64x64, 8888, quadrants red, green, blue and white at
 * half alpha, a Page rect for each (cells 0..3 in that order). */
static const guint8 atlas_colours[4][4] = {
  { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 }, { 255, 255, 255, 128 },
};

static MatTextureLibrary *
atlas_library (void)
{
  static const TexmRect rects[4] = {
    { 0, 32, 0, 32 }, { 32, 32, 0, 32 }, { 0, 32, 32, 32 }, { 32, 32, 32, 32 },
  };
  g_autofree guint8 *rgba = g_malloc (64 * 64 * 4);
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(GError) error = NULL;
  TestEntrySpec spec = { 0 };
  MatTextureLibrary *textures;

  for (guint y = 0; y < 64; y++)
    for (guint x = 0; x < 64; x++)
      memcpy (rgba + (y * 64 + x) * 4, atlas_colours[(y >= 32 ? 2 : 0) + (x >= 32 ? 1 : 0)], 4);
  payload = texm_encode_rgba (8888, 64, 64, 1, rgba, NULL, rects, G_N_ELEMENTS (rects));
  spec.type_id = TYPE_TEXM;
  spec.name = "ATLAS.0";
  spec.payload = g_bytes_get_data (payload, &spec.size);
  archive = test_build_archive (&spec, 1, TRUE);
  textures = mat_texture_library_new_from_bytes (archive, &error);
  g_assert_no_error (error);
  g_assert_nonnull (textures);
  g_assert_cmpuint (mat_texture_get_page_rects (mat_texture_library_lookup (textures, "atlas.0")),
                    ==, 4);
  return textures;
}

/* A colour cycle: four phases red, green, blue, yellow (diffuse and
 * self-light), loop, blending self-light and diffuse RGB (0x03); keys end
 * at 800, 1600, 2400 and 3200 ms: the period is 3200. */
static const PhaseSpec cycle_phases[] = {
  { { 80, 0, 0, 100, 255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255 }, "" },
  { { 0, 80, 0, 100, 0, 255, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255 }, "" },
  { { 0, 0, 80, 100, 0, 0, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255 }, "" },
  { { 80, 80, 0, 100, 255, 255, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255 }, "" },
};
static const BlockSpec cycle_block = {
  0 | (0x03 << 3), 4, { { 0, 800, 0 }, { 1, 1600, 0 }, { 2, 2400, 0 }, { 3, 3200, 0 } },
};

/* The lit material: every slot that must not reach the screen holds a
 * value that would show if it did (diffuse alpha p7 0, specular alpha
 * p11 0, emissive p12..p15 bright). Self-light (20, 10, 30), opacity 60 %,
 * diffuse (255, 120, 60), specular (40, 40, 40), power 2: exponent 4. */
static const PhaseSpec lit_phase = {
  { 20, 10, 30, 60, 255, 120, 60, 0, 40, 40, 40, 0, 200, 200, 200, 255, 2, 255 }, "",
};
/* The same, opacity 0: dropped by the alpha test of modes 1..5. */
static const PhaseSpec clear_phase = {
  { 20, 10, 30, 0, 255, 120, 60, 0, 40, 40, 40, 0, 200, 200, 200, 255, 2, 255 }, "",
};
/* Opaque (100 %), diffuse white, textured with the atlas at a cell. */
#define ATLAS_PHASE(cell) \
  { { 0, 0, 0, 100, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, cell }, "ATLAS.0" }
static const PhaseSpec atlas_phases[] = {
  ATLAS_PHASE (0), ATLAS_PHASE (1), ATLAS_PHASE (2), ATLAS_PHASE (3),
  ATLAS_PHASE (255), ATLAS_PHASE (9),
};

/* A mode-3 track over four phases that differ in every field, blending
 * all five groups (0x1F); keys end at 100, 250, 400 and 1000 ms. */
static const PhaseSpec random_phases[] = {
  { { 10, 20, 30, 100, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 1, 255 }, "" },
  { { 200, 10, 90, 20, 5, 250, 35, 45, 55, 65, 75, 85, 95, 105, 115, 125, 3, 255 }, "" },
  { { 0, 255, 128, 60, 90, 80, 70, 60, 50, 40, 30, 20, 10, 0, 255, 1, 5, 255 }, "" },
  { { 33, 66, 99, 80, 132, 165, 198, 231, 11, 22, 44, 88, 176, 99, 1, 2, 7, 255 }, "" },
};
static const BlockSpec random_block = {
  3 | (0x1F << 3), 4, { { 0, 100, 0 }, { 2, 250, 0 }, { 1, 400, 0 }, { 3, 1000, 0 } },
};

static const MaterialSpec test_materials[] = {
  { "CYCLE", 0, cycle_phases, G_N_ELEMENTS (cycle_phases), &cycle_block, 1 },
  { "LIT", 0, &lit_phase, 1, NULL, 0 },
  { "CLEAR", 0, &clear_phase, 1, NULL, 0 },
  { "ATLAS", 0, atlas_phases, G_N_ELEMENTS (atlas_phases), NULL, 0 },
  { "RANDOM", 0, random_phases, G_N_ELEMENTS (random_phases), &random_block, 1 },
};

static MatLibrary *
test_library (void)
{
  return materials_library (test_materials, G_N_ELEMENTS (test_materials));
}

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

/* OpenGL has started (it does once the window has painted its first
 * frames): the GL area is shown, or the error in its place. */
static gboolean
gl_started (gpointer data)
{
  MatPreview *p = MAT_PREVIEW (data);

  return ui_widget_is_shown (mat_preview_get_test_widget (p, "gl_area"))
         || mat_preview_get_error (p) != NULL;
}

/* A window holding @preview at 800x600, once OpenGL has started; destroy
 * it with gtk_window_destroy. */
static GtkWindow *
show_preview (GtkWidget *preview)
{
  GtkWindow *window;

  gtk_widget_set_size_request (preview, VIEW_WIDTH, VIEW_HEIGHT);
  window = ui_show (preview, "MatPreview", -1, -1);
  g_assert_true (ui_wait_for (gl_started, preview, 10));
  return window;
}

static GtkWidget *
preview_widget (GtkWidget  *preview,
                const char *name)
{
  GtkWidget *widget = mat_preview_get_test_widget (MAT_PREVIEW (preview), name);

  g_assert_nonnull (widget);
  return widget;
}

static const char *
preview_label (GtkWidget  *preview,
               const char *name)
{
  return gtk_label_get_text (GTK_LABEL (preview_widget (preview, name)));
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

static void
assert_pixel (const guint8 rgba[4],
              const float  expected[3],
              const char  *what)
{
  g_test_message ("%s: pixel %u %u %u, expected %d %d %d", what, rgba[0], rgba[1], rgba[2],
                  channel (expected[0]), channel (expected[1]), channel (expected[2]));
  for (guint c = 0; c < 3; c++)
    if (ABS ((int) rgba[c] - channel (expected[c])) > TOLERANCE)
      g_error ("%s: channel %u is %u, render.md gives %d (%.4f)", what, c, rgba[c],
               channel (expected[c]), expected[c]);
}

static void
assert_pixel_bytes (const guint8 rgba[4],
                    const guint8 expected[3],
                    const char  *what)
{
  float f[3] = { expected[0] / 255.0f, expected[1] / 255.0f, expected[2] / 255.0f };

  assert_pixel (rgba, f, what);
}

static void
read_centre (MatPreview *p,
             guint8      rgba[4])
{
  g_assert_true (mat_preview_read_pixel_for_test (p, VIEW_WIDTH / 2, VIEW_HEIGHT / 2, rgba));
  /* the frame is opaque, as the game's back buffer: GTK composites the
   * GL area's alpha over the window */
  g_assert_cmpuint (rgba[3], ==, 255);
}

/* ---- the camera, computed here ----------------------------------------- */

/* The plane's distance from the camera (mat-preview-mesh.h): far enough
 * that its bounding circle (radius √2 × its half side) spans
 * MAT_PREVIEW_CAMERA_FILL of the half field of view, and never nearer
 * than MAT_PREVIEW_CAMERA_DISTANCE. */
static double
plane_distance (void)
{
  double half_fov = MAT_PREVIEW_CAMERA_FOV / 2.0 * G_PI / 180.0;
  double fit = MAT_PREVIEW_PLANE_HALF * G_SQRT2 / sin (half_fov * MAT_PREVIEW_CAMERA_FILL);

  return MAX (MAT_PREVIEW_CAMERA_DISTANCE, fit);
}

/* Pixels from the middle of a @width x @height view to where a point of
 * the unturned plane at @offset (plane units) from its centre along x or
 * y lands: the field of view spans the shorter side. */
static double
plane_px (int    width,
          int    height,
          double offset)
{
  double f = 1.0 / tan (MAT_PREVIEW_CAMERA_FOV / 2.0 * G_PI / 180.0);
  double short_side = MIN (width, height);

  /* square pixels: the same along x and y */
  return offset * f / plane_distance () * short_side / 2.0;
}

/* The plane's quarter points (its texture's quadrant centres) are this
 * many pixels from the middle of the 800x600 view. */
static int
quarter_px (void)
{
  g_assert_cmpfloat_with_epsilon (mat_preview_camera_distance (MAT_PREVIEW_SHAPE_PLANE, 1.0f),
                                  plane_distance (), 1e-4);
  return (int) lround (plane_px (VIEW_WIDTH, VIEW_HEIGHT, 0.5));
}

/* ---- render.md, computed here ----------------------------------------- */

/* The lit colour of the plane's centre (render.md 2): rotation 0, the
 * plane's normal (0, 0, 1) facing the camera, the eye straight in front
 * (V = (0, 0, 1)), the light from the renderer's documented direction. */
static void
lit_colour (const PhaseRuntime *v,
            const float         scene[3],
            float               out[3])
{
  float l[3] = { MAT_PREVIEW_LIGHT_X, MAT_PREVIEW_LIGHT_Y, MAT_PREVIEW_LIGHT_Z };
  float len = sqrtf (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
  float h[3], hlen, n_dot_l, n_dot_h, exponent;

  for (guint i = 0; i < 3; i++)
    l[i] /= len;
  h[0] = l[0];
  h[1] = l[1];
  h[2] = l[2] + 1.0f;
  hlen = sqrtf (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
  n_dot_l = MAX (l[2], 0.0f);
  n_dot_h = MAX (h[2] / hlen, 0.0f);
  /* power = 1 << (p16 & 31) */
  exponent = (float) (1u << ((guint) v->power & 31u));
  for (guint c = 0; c < 3; c++)
    out[c] = CLAMP (scene[c] + v->f[4 + c]                  /* emissive: scene + self-light */
                    + v->f[0 + c] * n_dot_l                  /* white light x diffuse */
                    + v->f[8 + c] * powf (n_dot_h, exponent), /* specular */
                    0.0f, 1.0f);
}

/* src blended over dst with blend mode @mode (render.md 3). */
static void
blend (guint        mode,
       const float  src[3],
       float        alpha,
       const float  dst[3],
       float        out[3])
{
  for (guint c = 0; c < 3; c++)
    {
      float s = src[c], d = dst[c], r;

      switch (mode)
        {
        case 1: r = s * alpha; break;                      /* SRCALPHA, ZERO */
        case 2: r = s * alpha + d; break;                  /* SRCALPHA, ONE */
        case 3: r = d * s; break;                          /* ZERO, SRCCOLOR */
        case 4: r = s * alpha + d * (1 - alpha); break;    /* SRCALPHA, INVSRCALPHA */
        case 5: r = s * d + d * s; break;                  /* DESTCOLOR, SRCCOLOR */
        case 0: default: r = s; break;                     /* ONE, ZERO */
        }
      out[c] = CLAMP (r, 0.0f, 1.0f);
    }
}

/* ---- GL pixels: the raw view against the evaluator -------------------- */

static void
test_raw_pixels (void)
{
  g_autoptr(MatLibrary) lib = test_library ();
  MatMaterial *material = ui_find_material (lib, "CYCLE");
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
      g_autofree char *what = g_strdup_printf ("raw, t=%u", times[i]);

      mat_preview_set_time (p, times[i]);
      evaluations = mat_preview_get_n_evaluations (p);
      renders = mat_preview_get_n_renders (p);
      read_centre (p, rgba);
      g_assert_cmpuint (mat_preview_get_n_renders (p), >, renders);
      /* the frame drew the evaluation made for this time: no second call */
      g_assert_cmpuint (mat_preview_get_n_evaluations (p), ==, evaluations);

      evaluate_directly (material, 0, times[i], 0, &expected);
      g_assert_true (mat_preview_get_evaluation (p, &shown));
      g_assert_cmpmem (shown.value.f, sizeof shown.value.f, expected.value.f, sizeof expected.value.f);
      g_assert_cmpuint (shown.period, ==, 3200);
      /* mode 0, opaque: the pixel is the diffuse colour f0..f2 itself */
      assert_pixel (rgba, expected.value.f, what);
      if (i == 0)
        memcpy (first, rgba, 4);
    }

  /* 400 ms: halfway through key 0's interval, red -> green */
  {
    PhaseEvalResult r;

    mat_preview_set_time (p, 400);
    g_assert_true (mat_preview_get_evaluation (p, &r));
    g_assert_cmpint (r.segment, ==, 0);
    g_assert_cmpfloat (r.alpha, ==, 0.5f);
    g_assert_cmpfloat (r.value.f[0], ==, 0.5f);
    g_assert_cmpfloat (r.value.f[1], ==, 0.5f);
  }

  /* paused: the same time gives the same frame again */
  {
    guint8 again[4];

    mat_preview_set_time (p, 0);
    read_centre (p, again);
    g_assert_cmpmem (again, 3, first, 3);
    read_centre (p, again);
    g_assert_cmpmem (again, 3, first, 3);
  }

  gtk_window_destroy (window);
  ui_pump ();
}

/* ---- GL pixels: the lit path and every blend mode --------------------- */

static void
assert_draw_state (MatPreview *p,
                   guint       mode,
                   gboolean    depth_write)
{
  MatPreviewDrawInfo info;
  GLenum src, dst;
  gboolean alpha_test;

  mat_preview_get_draw_info_for_test (p, &info);
  mat_preview_blend_factors (mode, &src, &dst, &alpha_test);
  g_assert_true (info.drawn);
  g_assert_cmpint (info.blend, ==, mode != 0);
  g_assert_cmpint (info.src_rgb, ==, (GLint) src);
  g_assert_cmpint (info.dst_rgb, ==, (GLint) dst);
  g_assert_cmpint (info.alpha_test, ==, mode != 0);
  g_assert_true (info.depth_test);
  g_assert_cmpint (info.depth_write, ==, depth_write);
  g_assert_false (info.cull_face);   /* two-sided */
  g_assert_false (info.alpha_write); /* the background's alpha 1 stays */
}

static void
test_lit_blend_modes (void)
{
  g_autoptr(MatLibrary) lib = test_library ();
  MatMaterial *lit = ui_find_material (lib, "LIT");
  MatMaterial *clear = ui_find_material (lib, "CLEAR");
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  GtkWindow *window;
  /* a scene colour in whole bytes, so the background is exact */
  GdkRGBA scene = { 51 / 255.0f, 77 / 255.0f, 128 / 255.0f, 1 };
  const float scene_f[3] = { 51 / 255.0f, 77 / 255.0f, 128 / 255.0f };
  /* render.md 3: mode = [0, 4, 2, 3, 5][b]; b 7 is unknown: mode 0 */
  static const struct { guint b, mode; } table[] = {
    { 0, 0 }, { 1, 4 }, { 2, 2 }, { 3, 3 }, { 4, 5 }, { 7, 0 },
  };
  PhaseEvalResult r;
  float colour[3], expected[3];
  guint8 rgba[4];

  mat_preview_set_show_controls (p, FALSE);
  mat_preview_set_material (p, lit);
  mat_preview_set_shape (p, MAT_PREVIEW_SHAPE_PLANE);
  mat_preview_set_background (p, MAT_PREVIEW_BACKGROUND_SCENE);
  mat_preview_set_scene_colour (p, &scene);
  g_assert_false (mat_preview_get_unlit (p));   /* lit is the default */
  window = show_preview (preview);
  g_assert_null (mat_preview_get_error (p));

  /* the background is the scene colour */
  g_assert_true (mat_preview_read_pixel_for_test (p, 4, 4, rgba));
  assert_pixel (rgba, scene_f, "scene background");

  g_assert_true (mat_preview_get_evaluation (p, &r));
  g_assert_cmpfloat (r.value.f[7], ==, 60 * 0.01f);      /* opacity 60 %: p3 x 0.01 */
  lit_colour (&r.value, scene_f, colour);
  g_test_message ("lit colour %.4f %.4f %.4f", colour[0], colour[1], colour[2]);
  g_assert_cmpfloat (colour[0], ==, 1.0f);             /* red saturates */

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *what = g_strdup_printf ("lit, blend index %u (mode %u)", table[i].b,
                                               table[i].mode);
      const char *readout;

      g_assert_true (mat_material_set_attr1 (lit, table[i].b << 2, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (mat_preview_get_blend_index (p), ==, table[i].b);
      g_assert_cmpuint (mat_preview_get_blend_mode (p), ==, table[i].mode);
      read_centre (p, rgba);
      blend (table[i].mode, colour, r.value.f[7], scene_f, expected);
      assert_pixel (rgba, expected, what);
      /* opacity 60 %: translucent queue, no depth writes */
      assert_draw_state (p, table[i].mode, FALSE);

      readout = preview_label (preview, "blend_label");
      g_test_message ("%s: readout \"%s\"", what, readout);
      /* over the view with the controls; these are hidden here */
      g_assert_false (gtk_widget_get_visible (preview_widget (preview, "blend_label")));
      g_assert_nonnull (strstr (readout, "opacity 60 %"));
      if (table[i].b >= 5)
        g_assert_nonnull (strstr (readout, "Unknown blend index 7: drawn as opaque"));
      else
        g_assert_null (strstr (readout, "Unknown"));
    }

  /* mode 1 (SRCALPHA, ZERO) is in no retail material and has no blend
   * index; the renderer still draws it as the table says */
  {
    GLenum src, dst;
    gboolean alpha_test;

    mat_preview_blend_factors (1, &src, &dst, &alpha_test);
    g_assert_cmpint (src, ==, GL_SRC_ALPHA);
    g_assert_cmpint (dst, ==, GL_ZERO);
    g_assert_true (alpha_test);
    mat_preview_blend_factors (9, &src, &dst, &alpha_test);
    g_assert_cmpint (src, ==, GL_ONE);
    g_assert_cmpint (dst, ==, GL_ZERO);
    g_assert_false (alpha_test);
  }

  /* the raw view: the diffuse colour f0..f2, same alpha and blending */
  {
    g_autoptr(GError) error = NULL;
    const float raw[3] = { 1.0f, 120 / 255.0f, 60 / 255.0f };

    mat_preview_set_unlit (p, TRUE);
    g_assert_true (mat_material_set_attr1 (lit, 0, &error));
    read_centre (p, rgba);
    assert_pixel (rgba, raw, "raw, opaque");
    g_assert_true (mat_material_set_attr1 (lit, 1 << 2, &error));   /* see-through */
    read_centre (p, rgba);
    blend (4, raw, 0.6f, scene_f, expected);
    assert_pixel (rgba, expected, "raw, see-through");
    mat_preview_set_unlit (p, FALSE);
  }

  /* opacity 0: the alpha test drops it in modes 1..5; mode 0 draws it */
  mat_preview_set_material (p, clear);
  g_assert_true (mat_preview_get_evaluation (p, &r));
  g_assert_cmpfloat (r.value.f[7], ==, 0.0f);
  lit_colour (&r.value, scene_f, colour);
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *what = g_strdup_printf ("opacity 0, blend index %u (mode %u)", table[i].b,
                                               table[i].mode);

      g_assert_true (mat_material_set_attr1 (clear, table[i].b << 2, &error));
      read_centre (p, rgba);
      assert_pixel (rgba, table[i].mode == 0 ? colour : scene_f, what);
    }

  /* opacity 100 %: opaque queue, depth writes; the readout says nothing
   * about translucency */
  {
    g_autoptr(GError) error = NULL;
    MatPhase *phase = ui_phase_at (lit, 0);

    g_assert_true (mat_phase_set_param (phase, 3, 100, &error));
    g_assert_true (mat_material_set_attr1 (lit, 3 << 2, &error));   /* modulate */
    mat_preview_set_material (p, lit);
    g_assert_true (mat_preview_get_evaluation (p, &r));
    g_assert_cmpfloat (r.value.f[7], ==, 1.0f);
    lit_colour (&r.value, scene_f, colour);
    read_centre (p, rgba);
    blend (3, colour, 1.0f, scene_f, expected);
    assert_pixel (rgba, expected, "opaque modulate");
    assert_draw_state (p, 3, TRUE);
    g_assert_cmpstr (preview_label (preview, "blend_label"), ==, "Blend: Modulate (ZERO, SRCCOLOR)");
  }

  gtk_window_destroy (window);
  ui_pump ();
}

/* ---- GL pixels: the backgrounds --------------------------------------- */

static void
test_backgrounds (void)
{
  g_autoptr(MatLibrary) lib = test_library ();
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  MatDropDown *dropdown;
  GtkWindow *window;
  guint8 a[4], b[4];
  GdkRGBA colour = { 0.2f, 0.4f, 0.6f, 1 };
  const GdkRGBA *shown;

  /* the default scene colour: grey 40 */
  shown = mat_preview_get_scene_colour (p);
  g_assert_cmpfloat (shown->red, ==, 40 / 255.0f);
  g_assert_cmpfloat (shown->green, ==, 40 / 255.0f);
  g_assert_cmpfloat (shown->blue, ==, 40 / 255.0f);
  g_assert_cmpint (mat_preview_get_background (p), ==, MAT_PREVIEW_BACKGROUND_CHECKERBOARD);

  mat_preview_set_material (p, ui_find_material (lib, "LIT"));
  mat_preview_set_shape (p, MAT_PREVIEW_SHAPE_PLANE);
  window = show_preview (preview);
  dropdown = MAT_DROP_DOWN (preview_widget (preview, "background_dropdown"));
  g_assert_cmpuint (mat_drop_down_get_selected (dropdown), ==, 0);

  /* checkerboard: two greys, 16 px squares */
  g_assert_true (mat_preview_read_pixel_for_test (p, 4, 4, a));
  g_assert_true (mat_preview_read_pixel_for_test (p, 20, 4, b));
  g_assert_cmpint (a[0], ==, a[1]);
  g_assert_cmpint (b[0], ==, b[1]);
  g_assert_cmpint (MIN (a[0], b[0]), ==, channel (MAT_PREVIEW_CHECKER_DARK));
  g_assert_cmpint (MAX (a[0], b[0]), ==, channel (MAT_PREVIEW_CHECKER_LIGHT));

  /* black, from the drop-down */
  mat_drop_down_set_selected (dropdown, 1);
  g_assert_cmpint (mat_preview_get_background (p), ==, MAT_PREVIEW_BACKGROUND_BLACK);
  g_assert_true (mat_preview_read_pixel_for_test (p, 4, 4, a));
  g_assert_true (mat_preview_read_pixel_for_test (p, 20, 4, b));
  g_assert_cmpuint (a[0] | a[1] | a[2] | b[0] | b[1] | b[2], ==, 0);

  /* the scene colour, from the colour button */
  mat_drop_down_set_selected (dropdown, 2);
  g_assert_cmpint (mat_preview_get_background (p), ==, MAT_PREVIEW_BACKGROUND_SCENE);
  g_object_set (preview_widget (preview, "scene_button"), "rgba", &colour, NULL);
  shown = mat_preview_get_scene_colour (p);
  g_assert_true (gdk_rgba_equal (shown, &colour));
  g_assert_true (mat_preview_read_pixel_for_test (p, 4, 4, a));
  {
    const float f[3] = { 0.2f, 0.4f, 0.6f };

    assert_pixel (a, f, "scene colour background");
  }
  /* the property drives the controls back */
  mat_preview_set_background (p, MAT_PREVIEW_BACKGROUND_CHECKERBOARD);
  g_assert_cmpuint (mat_drop_down_get_selected (dropdown), ==, 0);
  {
    GdkRGBA *button = NULL;

    mat_preview_set_scene_colour (p, &(GdkRGBA) { 0.5f, 0.5f, 0.5f, 0.25f });
    g_object_get (preview_widget (preview, "scene_button"), "rgba", &button, NULL);
    g_assert_cmpfloat (button->red, ==, 0.5f);
    g_assert_cmpfloat (mat_preview_get_scene_colour (p)->alpha, ==, 1.0f);
    gdk_rgba_free (button);
  }

  gtk_window_destroy (window);
  ui_pump ();
}

/* ---- GL pixels: texture cells (render.md 4) --------------------------- */

static void
test_cells (void)
{
  g_autoptr(MatLibrary) lib = test_library ();
  g_autoptr(MatTextureLibrary) textures = atlas_library ();
  MatMaterial *material = ui_find_material (lib, "ATLAS");
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  GtkWindow *window;
  PhaseEvalResult r;
  guint8 rgba[4];
  /* the quadrant centres of the whole texture on the plane, in the
   * order of the cells: upper left, upper right, lower left, lower right */
  const int q = quarter_px ();
  const int quarter[4][2] = {
    { VIEW_WIDTH / 2 - q, VIEW_HEIGHT / 2 - q },
    { VIEW_WIDTH / 2 + q, VIEW_HEIGHT / 2 - q },
    { VIEW_WIDTH / 2 - q, VIEW_HEIGHT / 2 + q },
    { VIEW_WIDTH / 2 + q, VIEW_HEIGHT / 2 + q },
  };

  /* the bar is hidden (the GL area is 800x600); its labels still follow */
  mat_preview_set_show_controls (p, FALSE);
  mat_preview_set_material (p, material);
  mat_preview_set_textures (p, textures);
  mat_preview_set_shape (p, MAT_PREVIEW_SHAPE_PLANE);
  mat_preview_set_unlit (p, TRUE);   /* diffuse white: the texel itself */
  mat_preview_set_background (p, MAT_PREVIEW_BACKGROUND_BLACK);
  window = show_preview (preview);

  /* cells 0..3: the centre shows that cell's colour (mode 0: the alpha
   * of cell 3 is ignored) */
  for (guint c = 0; c < 4; c++)
    {
      g_autofree char *what = g_strdup_printf ("cell %u", c);

      mat_preview_set_phase (p, c);
      g_assert_true (mat_preview_get_evaluation (p, &r));
      g_assert_cmpint (r.value.i18, ==, (int) c);
      g_assert_cmpint (r.value.tex_slot, ==, (int) c);
      read_centre (p, rgba);
      assert_pixel_bytes (rgba, atlas_colours[c], what);
      /* and so does every quarter point: the whole plane is the cell */
      g_assert_true (mat_preview_read_pixel_for_test (p, quarter[(c + 1) % 4][0],
                                                      quarter[(c + 1) % 4][1], rgba));
      assert_pixel_bytes (rgba, atlas_colours[c], what);
      g_assert_false (gtk_widget_get_visible (preview_widget (preview, "texture_label")));
    }

  /* cell -1 (p17 = 255) and cell 9 (past the 4 rects): the whole
   * texture, each quadrant at its quarter point; the centre mixes them */
  for (guint phase = 4; phase <= 5; phase++)
    {
      mat_preview_set_phase (p, phase);
      g_assert_true (mat_preview_get_evaluation (p, &r));
      g_assert_cmpint (r.value.i18, ==, phase == 4 ? -1 : 9);
      for (guint c = 0; c < 4; c++)
        {
          g_autofree char *what = g_strdup_printf ("cell %d, quadrant %u", r.value.i18, c);

          g_assert_true (mat_preview_read_pixel_for_test (p, quarter[c][0], quarter[c][1], rgba));
          assert_pixel_bytes (rgba, atlas_colours[c], what);
        }
      read_centre (p, rgba);
      g_test_message ("cell %d, centre %u %u %u", r.value.i18, rgba[0], rgba[1], rgba[2]);
      g_assert_cmpint (rgba[0], >, 64);
      g_assert_cmpint (rgba[1], >, 64);
      g_assert_cmpint (rgba[2], >, 64);
      g_assert_cmpint (MIN (MIN (rgba[0], rgba[1]), rgba[2]), <, 250);
    }
  /* cell 9 is a lint the readout shows */
  g_assert_true (gtk_widget_get_visible (preview_widget (preview, "texture_label")));
  g_assert_cmpstr (preview_label (preview, "texture_label"), ==,
                   "Cell 9 is past the Page table of ATLAS.0 (4 rectangles): the whole texture is drawn");
  mat_preview_set_phase (p, 4);
  g_assert_false (gtk_widget_get_visible (preview_widget (preview, "texture_label")));

  /* lit, see-through (attr1 4), cell 3: texture alpha 128 times the
   * ambient alpha, over black; texture white: the lit colour itself */
  {
    g_autoptr(GError) error = NULL;
    const float black[3] = { 0, 0, 0 };
    float colour[3], expected[3];
    const float scene[3] = { 40 / 255.0f, 40 / 255.0f, 40 / 255.0f };

    g_assert_true (mat_material_set_attr1 (material, 1 << 2, &error));
    g_assert_true (mat_phase_set_param (ui_phase_at (material, 3), 3, 80, &error));
    mat_preview_set_unlit (p, FALSE);
    mat_preview_set_phase (p, 3);
    g_assert_true (mat_preview_get_evaluation (p, &r));
    lit_colour (&r.value, scene, colour);
    read_centre (p, rgba);
    blend (4, colour, (128 / 255.0f) * 0.8f, black, expected);
    assert_pixel (rgba, expected, "lit see-through cell 3");
  }

  /* the texture's cell steps with the key: a block over phases 0..3 */
  {
    g_autoptr(GError) error = NULL;
    MatAnimBlock *block = mat_material_insert_block (material, 0, &error);

    g_assert_no_error (error);
    g_assert_nonnull (block);
    g_assert_true (mat_material_set_attr1 (material, 0, &error));
    for (guint k = 0; k < 4; k++)
      g_assert_nonnull (mat_anim_block_insert_key (block, k, k, 100 * (k + 1), &error));
    mat_preview_set_block (p, 0);
    mat_preview_set_unlit (p, TRUE);
    for (guint k = 0; k < 4; k++)
      {
        g_autofree char *what = g_strdup_printf ("key %u", k);

        mat_preview_set_time (p, 100 * k + 50);
        g_assert_true (mat_preview_get_evaluation (p, &r));
        g_assert_cmpint (r.segment, ==, (int) k);
        read_centre (p, rgba);
        assert_pixel_bytes (rgba, atlas_colours[k], what);
      }
  }

  gtk_window_destroy (window);
  ui_pump ();
}

/* ---- the plane is never cut by the view's edges ---------------------- */

typedef struct {
  int      x0, x1, y0, y1;    /* the plane's pixels, inclusive; x0 > x1: none */
  gboolean border_clear;      /* the outermost rows and columns: background */
} PlaneExtent;

/* Where @frame (the plane drawn over black) is not black. */
static PlaneExtent
plane_extent (GdkTexture *frame)
{
  int w = gdk_texture_get_width (frame), h = gdk_texture_get_height (frame);
  g_autofree guint8 *px = g_malloc ((gsize) w * h * 4);
  PlaneExtent e = { w, -1, h, -1, TRUE };

  gdk_texture_download (frame, px, (gsize) w * 4);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guint8 *p = px + ((gsize) y * w + x) * 4;
        gboolean lit = p[0] > 8 || p[1] > 8 || p[2] > 8;

        if (!lit)
          continue;
        e.x0 = MIN (e.x0, x);
        e.x1 = MAX (e.x1, x);
        e.y0 = MIN (e.y0, y);
        e.y1 = MAX (e.y1, y);
        if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
          e.border_clear = FALSE;
      }
  return e;
}

static void
assert_plane_inside (MatPreview *p,
                     int         width,
                     int         height,
                     const char *what)
{
  g_autoptr(GdkTexture) frame = mat_preview_read_frame_for_test (p);
  PlaneExtent e;

  g_assert_nonnull (frame);
  g_assert_cmpint (gdk_texture_get_width (frame), ==, width);
  g_assert_cmpint (gdk_texture_get_height (frame), ==, height);
  e = plane_extent (frame);
  g_test_message ("%s, %dx%d: plane at x %d..%d, y %d..%d", what, width, height, e.x0, e.x1,
                  e.y0, e.y1);
  g_assert_cmpint (e.x0, <=, e.x1);   /* it is drawn */
  g_assert_true (e.border_clear);     /* and nowhere touches the edge */
  g_assert_cmpint (e.x0, >, 0);
  g_assert_cmpint (e.y0, >, 0);
  g_assert_cmpint (e.x1, <, width - 1);
  g_assert_cmpint (e.y1, <, height - 1);
}

/* Tall like the pane beside the pages, and wide: the unturned plane is a
 * square of the size the camera gives it, in the middle; turned by the
 * pointer or spinning while playing, it stays inside. */
static void
test_plane_not_clipped (void)
{
  static const struct { int width, height; } sizes[] = { { 300, 600 }, { 600, 300 }, { 400, 400 } };
  g_autoptr(MatLibrary) lib = test_library ();

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      int w = sizes[s].width, h = sizes[s].height;
      GtkWidget *preview = mat_preview_new ();
      MatPreview *p = MAT_PREVIEW (preview);
      g_autoptr(GdkTexture) frame = NULL;
      double half = plane_px (w, h, MAT_PREVIEW_PLANE_HALF);
      GtkWindow *window;
      PlaneExtent e;

      mat_preview_set_show_controls (p, FALSE);
      mat_preview_set_material (p, ui_find_material (lib, "LIT"));
      mat_preview_set_shape (p, MAT_PREVIEW_SHAPE_PLANE);
      mat_preview_set_unlit (p, TRUE);
      mat_preview_set_background (p, MAT_PREVIEW_BACKGROUND_BLACK);
      gtk_widget_set_size_request (preview, w, h);
      window = ui_show (preview, "MatPreview", -1, -1);

      /* unturned: the square where the camera puts it */
      frame = mat_preview_read_frame_for_test (p);
      g_assert_nonnull (frame);
      e = plane_extent (frame);
      g_test_message ("%dx%d: plane at x %d..%d, y %d..%d, expected ±%.1f px about the middle",
                      w, h, e.x0, e.x1, e.y0, e.y1, half);
      g_assert_true (e.border_clear);
      g_assert_cmpfloat (fabs (e.x0 - (w / 2.0 - half)), <=, 2.0);
      g_assert_cmpfloat (fabs (e.x1 + 1 - (w / 2.0 + half)), <=, 2.0);
      g_assert_cmpfloat (fabs (e.y0 - (h / 2.0 - half)), <=, 2.0);
      g_assert_cmpfloat (fabs (e.y1 + 1 - (h / 2.0 + half)), <=, 2.0);
      /* its corners reach at most √2 times as far: inside the short side */
      g_assert_cmpfloat (half * G_SQRT2, <, MIN (w, h) / 2.0);

      /* turned as a drag turns it */
      mat_preview_set_yaw (p, 60);
      mat_preview_set_pitch (p, 40);
      assert_plane_inside (p, w, h, "turned");
      mat_preview_set_yaw (p, -35);
      mat_preview_set_pitch (p, -70);
      assert_plane_inside (p, w, h, "turned back");
      mat_preview_reset_view (p);

      /* spinning about its normal while playing (a quarter turn takes
       * 4.5 s): every frame of the first 50 degrees, diagonal included */
      if (s == 0)
        {
          gint64 end = g_get_monotonic_time () + 2600 * 1000;

          mat_preview_set_playing (p, TRUE);
          while (g_get_monotonic_time () < end)
            {
              assert_plane_inside (p, w, h, "spinning");
              ui_spin_ms (150);
            }
          mat_preview_set_playing (p, FALSE);
        }
      gtk_window_destroy (window);
      ui_pump ();
    }
}

/* ---- a mode-3 track: the preview, the evaluator and mat0tool ---------- */

static JsonObject *
cli_eval_file (const char *path,
               const char *name,
               int         block,
               guint32     time,
               guint32     offset,
               JsonParser *parser)
{
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *block_arg = g_strdup_printf ("%d", block);
  g_autofree char *time_arg = g_strdup_printf ("%u", time);
  g_autofree char *offset_arg = g_strdup_printf ("%u", offset);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                           ui_need_env ("MAT0TOOL"), "eval", path, name,
                           "--block", block_arg, "--time", time_arg, "--offset", offset_arg,
                           "--json", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_successful (proc))
    g_error ("mat0tool eval %s failed: %s", name, err);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* The preview's evaluation against mat0tool's JSON, field by field. */
static void
assert_cli_agrees (const PhaseEvalResult *r,
                   JsonObject            *cli,
                   const char            *what)
{
  JsonArray *f = json_object_get_array_member (cli, "f");

  g_assert_cmpuint (json_array_get_length (f), ==, 16);
  for (guint i = 0; i < 16; i++)
    {
      float value = (float) json_array_get_double_element (f, i);

      if (value != r->value.f[i])
        g_error ("%s: f%u preview %.9g, mat0tool %.9g", what, i, r->value.f[i], value);
    }
  g_assert_cmpfloat ((float) json_object_get_double_member (cli, "power"), ==, r->value.power);
  g_assert_cmpfloat ((float) json_object_get_double_member (cli, "alpha"), ==, r->alpha);
  g_assert_cmpint (json_object_get_int_member (cli, "segment"), ==, r->segment);
  g_assert_cmpint (json_object_get_int_member (cli, "next"), ==, r->next);
  g_assert_cmpint (json_object_get_int_member (cli, "phase_a"), ==, r->phase_a);
  g_assert_cmpint (json_object_get_int_member (cli, "phase_b"), ==, r->phase_b);
  g_assert_cmpint (json_object_get_int_member (cli, "r"), ==, r->r);
  /* "cycle" is the period: the last key's time */
  g_assert_cmpint (json_object_get_int_member (cli, "cycle"), ==, r->period);
  g_assert_cmpint (json_object_get_int_member (cli, "mode"), ==, r->mode);
  g_assert_cmpint (json_object_get_boolean_member (cli, "hold"), ==, r->hold);
  g_assert_cmpint (json_object_get_boolean_member (cli, "unknown_mode"), ==, r->unknown_mode);
  g_assert_cmpint (json_object_get_int_member (cli, "tex_slot"), ==, r->value.tex_slot);
  g_assert_cmpint (json_object_get_int_member (cli, "i18"), ==, r->value.i18);
}

static void
assert_results_equal (const PhaseEvalResult *a,
                      const PhaseEvalResult *b)
{
  g_assert_cmpmem (a->value.f, sizeof a->value.f, b->value.f, sizeof b->value.f);
  g_assert_cmpfloat (a->value.power, ==, b->value.power);
  g_assert_cmpint (a->value.tex_slot, ==, b->value.tex_slot);
  g_assert_cmpint (a->value.i18, ==, b->value.i18);
  g_assert_cmpuint (a->mode, ==, b->mode);
  g_assert_cmpuint (a->period, ==, b->period);
  g_assert_cmpuint (a->r, ==, b->r);
  g_assert_cmpint (a->segment, ==, b->segment);
  g_assert_cmpint (a->next, ==, b->next);
  g_assert_cmpfloat (a->alpha, ==, b->alpha);
  g_assert_cmpint (a->phase_a, ==, b->phase_a);
  g_assert_cmpint (a->phase_b, ==, b->phase_b);
  g_assert_cmpint (a->hold, ==, b->hold);
  g_assert_cmpint (a->unknown_mode, ==, b->unknown_mode);
  g_assert_cmpint (a->bad_key, ==, b->bad_key);
}

static void
count_offsets (MatPreview *p,
               GParamSpec *pspec,
               GHashTable *seen)
{
  g_hash_table_add (seen, GUINT_TO_POINTER (mat_preview_get_random_offset (p) + 1));
}

static void
test_random_track (void)
{
  g_autoptr(MatLibrary) lib = test_library ();
  g_autoptr(GBytes) bytes = materials_archive (test_materials, G_N_ELEMENTS (test_materials));
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("preview-XXXXXX", &error);
  g_autofree char *path = NULL;
  MatMaterial *material = ui_find_material (lib, "RANDOM");
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  GtkWindow *window;
  static const guint32 times[6] = { 0, 99, 250, 1000, 123456, 4294967295u };
  static const guint32 offsets[] = { 0, 50, 175, 399, 637, 999, 1000, 2345678 };
  GHashTable *seen;
  gulong handler;

  g_assert_no_error (error);
  path = g_build_filename (dir, "Material.lib", NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));

  mat_preview_set_show_controls (p, TRUE);
  mat_preview_set_material (p, material);
  window = show_preview (preview);
  g_assert_cmpint (mat_preview_get_block (p), ==, 0);

  for (guint o = 0; o < G_N_ELEMENTS (offsets); o++)
    {
      mat_preview_set_random_offset (p, offsets[o]);
      for (guint t = 0; t < G_N_ELEMENTS (times); t++)
        {
          g_autoptr(JsonParser) parser = json_parser_new ();
          g_autofree char *what = g_strdup_printf ("R %u, t %u", offsets[o], times[t]);
          PhaseEvalResult shown, expected;

          mat_preview_set_time (p, times[t]);
          g_assert_true (mat_preview_get_evaluation (p, &shown));
          evaluate_directly (material, 0, times[t], offsets[o], &expected);
          assert_results_equal (&shown, &expected);
          g_assert_cmpuint (shown.mode, ==, PHASE_EVAL_MODE_RANDOM);
          g_assert_cmpuint (shown.period, ==, 1000);
          /* mode 3 sits at R % period whatever the time */
          g_assert_cmpuint (shown.r, ==, offsets[o] % 1000);
          assert_cli_agrees (&shown, cli_eval_file (path, "RANDOM", 0, times[t], offsets[o], parser),
                             what);
        }
    }
  /* R 175: key 1 (100..250 ms, phase 2 -> phase 1) at alpha 0.5 */
  {
    PhaseEvalResult r;

    mat_preview_set_random_offset (p, 175);
    g_assert_true (mat_preview_get_evaluation (p, &r));
    g_assert_cmpint (r.segment, ==, 1);
    g_assert_cmpint (r.phase_a, ==, 2);
    g_assert_cmpint (r.phase_b, ==, 1);
    g_assert_cmpfloat (r.alpha, ==, 0.5f);
  }

  /* playing: a new R every frame, from the seeded generator */
  seen = g_hash_table_new (NULL, NULL);
  handler = g_signal_connect (p, "notify::random-offset", G_CALLBACK (count_offsets), seen);
  mat_preview_set_playing (p, TRUE);
  ui_spin_ms (500);
  mat_preview_set_playing (p, FALSE);
  g_signal_handler_disconnect (p, handler);
  g_test_message ("playing 500 ms: %u different R, %" G_GUINT64_FORMAT " frames",
                  g_hash_table_size (seen), mat_preview_get_n_renders (p));
  g_assert_cmpuint (g_hash_table_size (seen), >=, 3);
  {
    PhaseEvalResult shown, expected;
    guint32 offset = mat_preview_get_random_offset (p);

    g_assert_cmpuint (offset, <, 1000);
    g_assert_true (mat_preview_get_evaluation (p, &shown));
    evaluate_directly (material, 0, mat_preview_get_time (p), offset, &expected);
    assert_results_equal (&shown, &expected);
    /* paused: R stays */
    ui_spin_ms (100);
    g_assert_cmpuint (mat_preview_get_random_offset (p), ==, offset);
  }
  g_hash_table_unref (seen);

  gtk_window_destroy (window);
  ui_pump ();
  g_unlink (path);
  g_rmdir (dir);
}

/* ---- the preview against mat0tool eval, demo materials ---------------- */

static void
compare_with_cli (MatPreview *p,
                  const char *name,
                  guint32     time)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *what = g_strdup_printf ("%s t=%u", name, time);
  PhaseEvalResult r;

  mat_preview_set_time (p, time);
  g_assert_true (mat_preview_get_evaluation (p, &r));
  assert_cli_agrees (&r, cli_eval_file (ui_need_env ("DEMO_LIB"), name, 0, time,
                                        mat_preview_get_random_offset (p), parser), what);
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
          /* the re-roll button's action, twice: R changes, stays < period */
          g_assert_true (gtk_widget_activate_action (preview, "preview.reroll", NULL));
          g_assert_cmpuint (mat_preview_get_random_offset (p), <, r.period);
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
  g_autoptr(MatLibrary) lib = test_library ();
  GtkWidget *a = g_object_ref_sink (mat_preview_new ());
  GtkWidget *b = g_object_ref_sink (mat_preview_new ());
  GHashTable *seen = g_hash_table_new (NULL, NULL);

  mat_preview_set_material (MAT_PREVIEW (a), ui_find_material (lib, "RANDOM"));
  mat_preview_set_material (MAT_PREVIEW (b), ui_find_material (lib, "RANDOM"));
  for (guint i = 0; i < 5; i++)
    {
      mat_preview_reroll (MAT_PREVIEW (a));
      mat_preview_reroll (MAT_PREVIEW (b));
      g_assert_cmpuint (mat_preview_get_random_offset (MAT_PREVIEW (a)), ==,
                        mat_preview_get_random_offset (MAT_PREVIEW (b)));
      g_assert_cmpuint (mat_preview_get_random_offset (MAT_PREVIEW (a)), <, 1000);
      g_hash_table_add (seen, GUINT_TO_POINTER (mat_preview_get_random_offset (MAT_PREVIEW (a)) + 1));
    }
  g_assert_cmpuint (g_hash_table_size (seen), >=, 4);
  /* not a random block: the re-roll action is off */
  {
    guint before = mat_preview_get_random_offset (MAT_PREVIEW (a));

    mat_preview_set_material (MAT_PREVIEW (a), ui_find_material (lib, "CYCLE"));
    gtk_widget_activate_action (a, "preview.reroll", NULL);
    g_assert_cmpuint (mat_preview_get_random_offset (MAT_PREVIEW (a)), ==, before);
  }
  g_hash_table_unref (seen);
  g_object_unref (a);
  g_object_unref (b);
}

/* ---- the playback clock ----------------------------------------------- */

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
count_frame (MatPlayback *clock,
             double       elapsed_ms,
             guint       *count)
{
  g_assert_cmpfloat (elapsed_ms, >=, 0);
  (*count)++;
}

static void
test_playback_clock (void)
{
  g_autoptr(MatPlayback) clock = mat_playback_new ();
  guint time_notifies = 0, frames = 0;

  g_signal_connect (clock, "notify::time", G_CALLBACK (count_notify), &time_notifies);
  g_signal_connect (clock, "frame", G_CALLBACK (count_frame), &frames);
  g_assert_false (mat_playback_get_playing (clock));
  g_assert_true (mat_playback_get_loop (clock));
  g_assert_cmpfloat (mat_playback_get_speed (clock), ==, 1.0);

  /* paused: a frame does nothing */
  mat_playback_advance (clock, 100);
  g_assert_cmpuint (mat_playback_get_time (clock), ==, 0);
  g_assert_cmpuint (frames, ==, 0);

  /* whole milliseconds; the fraction carries over */
  mat_playback_set_playing (clock, TRUE);
  mat_playback_advance (clock, 16.5);
  g_assert_cmpuint (mat_playback_get_time (clock), ==, 16);
  mat_playback_advance (clock, 16.5);
  g_assert_cmpuint (mat_playback_get_time (clock), ==, 33);
  g_assert_cmpuint (frames, ==, 2);
  g_assert_cmpuint (time_notifies, ==, 2);
  /* speed */
  mat_playback_set_speed (clock, 0.25);
  mat_playback_advance (clock, 40);
  g_assert_cmpuint (mat_playback_get_time (clock), ==, 43);
  mat_playback_set_speed (clock, 100);
  g_assert_cmpfloat (mat_playback_get_speed (clock), ==, 4.0);
  mat_playback_advance (clock, 10);
  g_assert_cmpuint (mat_playback_get_time (clock), ==, 83);

  /* loop off: stops at the end of the period it is in */
  mat_playback_set_speed (clock, 1);
  mat_playback_set_period (clock, 100);
  mat_playback_set_loop (clock, FALSE);
  mat_playback_set_time (clock, 250);
  mat_playback_advance (clock, 40);
  g_assert_cmpuint (mat_playback_get_time (clock), ==, 290);
  mat_playback_advance (clock, 40);
  g_assert_cmpuint (mat_playback_get_time (clock), ==, 300);
  g_assert_false (mat_playback_get_playing (clock));

  /* wrap: the time stays inside one period */
  mat_playback_set_loop (clock, TRUE);
  mat_playback_set_wrap (clock, TRUE);
  mat_playback_set_time (clock, 90);
  mat_playback_set_playing (clock, TRUE);
  mat_playback_advance (clock, 25);
  g_assert_cmpuint (mat_playback_get_time (clock), ==, 15);

  /* a widget's frame clock ticks it */
  {
    GtkWidget *label = gtk_label_new ("clock");
    GtkWindow *window;
    guint before;

    mat_playback_set_wrap (clock, FALSE);
    mat_playback_set_period (clock, 0);
    mat_playback_set_widget (clock, label);
    window = ui_show (label, "clock", 200, 100);
    before = mat_playback_get_time (clock);
    ui_spin_ms (300);
    g_assert_cmpuint (mat_playback_get_time (clock), >, before + 100);
    mat_playback_set_playing (clock, FALSE);
    before = mat_playback_get_time (clock);
    ui_spin_ms (100);
    g_assert_cmpuint (mat_playback_get_time (clock), ==, before);
    gtk_window_destroy (window);
    ui_pump ();
    /* the widget is gone: the clock forgets it */
    g_assert_null (mat_playback_get_widget (clock));
    mat_playback_set_playing (clock, TRUE);
    mat_playback_set_playing (clock, FALSE);
  }
}

/* Two previews on one clock stay in step; each adds its own offset. */
static void
test_playback_shared (void)
{
  g_autoptr(MatLibrary) lib = test_library ();
  g_autoptr(MatPlayback) clock = mat_playback_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *a = mat_preview_new ();
  GtkWidget *b = mat_preview_new ();
  MatPreview *pa = MAT_PREVIEW (a), *pb = MAT_PREVIEW (b);
  MatPlayback *own;
  GtkWindow *window;
  guint a_notifies = 0;

  gtk_widget_set_size_request (a, 300, 300);
  gtk_widget_set_size_request (b, 300, 300);
  gtk_box_append (GTK_BOX (box), a);
  gtk_box_append (GTK_BOX (box), b);
  mat_preview_set_material (pa, ui_find_material (lib, "CYCLE"));
  mat_preview_set_material (pb, ui_find_material (lib, "CYCLE"));
  own = mat_preview_get_playback (pa);
  g_assert_nonnull (own);
  g_assert_true (mat_playback_get_widget (own) == a);
  /* its own clock stops at the end of the block's period with loop off */
  g_assert_cmpuint (mat_playback_get_period (own), ==, 3200);

  mat_playback_set_time (clock, 1000);
  mat_preview_set_playback (pa, clock);
  mat_preview_set_playback (pb, clock);
  mat_preview_set_time_offset (pb, 400);
  g_assert_true (mat_preview_get_playback (pa) == clock);
  g_assert_cmpuint (mat_preview_get_time (pa), ==, 1000);
  g_assert_cmpuint (mat_preview_get_time (pb), ==, 1400);

  g_signal_connect (pa, "notify::time", G_CALLBACK (count_notify), &a_notifies);
  mat_playback_set_time (clock, 2000);
  g_assert_cmpuint (a_notifies, ==, 1);
  g_assert_cmpuint (mat_preview_get_time (pa), ==, 2000);
  g_assert_cmpuint (mat_preview_get_time (pb), ==, 2400);
  {
    PhaseEvalResult ra, rb, expected;

    g_assert_true (mat_preview_get_evaluation (pa, &ra));
    g_assert_true (mat_preview_get_evaluation (pb, &rb));
    evaluate_directly (mat_preview_get_material (pa), 0, 2000, 0, &expected);
    assert_results_equal (&ra, &expected);
    evaluate_directly (mat_preview_get_material (pb), 0, 2400, 0, &expected);
    assert_results_equal (&rb, &expected);
  }

  /* setting a preview's time moves the shared clock */
  mat_preview_set_time (pb, 3000);
  g_assert_cmpuint (mat_playback_get_time (clock), ==, 2600);
  g_assert_cmpuint (mat_preview_get_time (pa), ==, 2600);

  /* play: both follow the one clock, ticked by the box's frame clock */
  window = ui_show (box, "shared", -1, -1);
  mat_playback_set_widget (clock, box);
  mat_preview_set_playing (pa, TRUE);
  g_assert_true (mat_playback_get_playing (clock));
  g_assert_true (mat_preview_get_playing (pb));
  ui_spin_ms (300);
  mat_playback_set_playing (clock, FALSE);
  g_assert_false (mat_preview_get_playing (pa));
  g_assert_cmpuint (mat_playback_get_time (clock), >, 2700);
  g_assert_cmpuint (mat_preview_get_time (pb), ==, mat_preview_get_time (pa) + 400);

  /* back to a clock of its own: the shared one no longer moves it */
  mat_preview_set_playback (pa, NULL);
  g_assert_true (mat_preview_get_playback (pa) != clock);
  g_assert_true (mat_playback_get_widget (mat_preview_get_playback (pa)) == a);
  mat_playback_set_time (clock, 10);
  g_assert_cmpuint (mat_preview_get_time (pb), ==, 410);
  g_assert_cmpuint (mat_preview_get_time (pa), !=, 10);

  gtk_window_destroy (window);
  ui_pump ();
}

/* The comparison's two sides on its one clock: after every frame its
 * table holds what each preview evaluated, R of mode 3 included. Checked
 * when the next frame starts (the clock's "frame" comes before the time
 * moves on), when every handler of the last time has run. */
typedef struct {
  MatCompareView *view;
  guint           frames;
  guint           mismatches;
} CompareWatch;

static void
check_compare_frame (MatPlayback  *clock,
                     double        elapsed_ms,
                     CompareWatch *watch)
{
  for (guint s = 0; s < 2; s++)
    {
      MatPreview *preview = mat_compare_view_get_preview (watch->view, s);
      PhaseEvalResult shown;
      PhaseRuntime table;

      g_assert_true (mat_preview_get_evaluation (preview, &shown));
      g_assert_true (mat_compare_view_get_slot_value (watch->view, s, &table));
      if (memcmp (shown.value.f, table.f, sizeof table.f) != 0
          || mat_preview_get_time (preview) != mat_compare_view_get_time (watch->view) + (s == 1 ? 100 : 0))
        watch->mismatches++;
    }
  watch->frames++;
}

static void
test_playback_compare (void)
{
  g_autoptr(MatLibrary) lib = test_library ();
  MatMaterial *random = ui_find_material (lib, "RANDOM");
  GtkWidget *view = mat_compare_view_new ();
  MatCompareView *v = MAT_COMPARE_VIEW (view);
  MatPreview *a, *b;
  CompareWatch watch = { v, 0, 0 };
  GtkWindow *window;
  gulong handler;

  mat_compare_view_set_slot (v, MAT_COMPARE_SLOT_A, random, 0, 0, 0);
  mat_compare_view_set_slot (v, MAT_COMPARE_SLOT_B, random, 0, 0, 100);
  a = mat_compare_view_get_preview (v, MAT_COMPARE_SLOT_A);
  b = mat_compare_view_get_preview (v, MAT_COMPARE_SLOT_B);
  g_assert_true (mat_preview_get_playback (a) == mat_preview_get_playback (b));
  window = ui_show (view, "compare", 1100, 720);

  mat_compare_view_set_time (v, 500);
  g_assert_cmpuint (mat_playback_get_time (mat_preview_get_playback (a)), ==, 500);
  g_assert_cmpuint (mat_preview_get_time (b), ==, 600);

  handler = g_signal_connect (mat_preview_get_playback (a), "frame",
                              G_CALLBACK (check_compare_frame), &watch);
  mat_compare_view_set_playing (v, TRUE);
  g_assert_true (mat_preview_get_playing (a));
  g_assert_true (mat_preview_get_playing (b));
  for (guint i = 0; i < 100 && watch.frames < 10; i++)
    ui_spin_ms (30);
  mat_compare_view_set_playing (v, FALSE);
  g_signal_handler_disconnect (mat_preview_get_playback (a), handler);
  check_compare_frame (mat_preview_get_playback (a), 0, &watch);
  g_test_message ("%u frames, %u mismatches", watch.frames, watch.mismatches);
  g_assert_cmpuint (watch.frames, >=, 10);
  g_assert_cmpuint (watch.mismatches, ==, 0);
  /* the clock went round the period: 1000 ms */
  g_assert_cmpuint (mat_playback_get_period (mat_preview_get_playback (a)), ==, 1000);
  g_assert_true (mat_playback_get_wrap (mat_preview_get_playback (a)));
  g_assert_cmpuint (mat_compare_view_get_time (v), <, 1000);

  gtk_window_destroy (window);
  ui_pump ();
}

/* ---- settings ---------------------------------------------------------- */

static void
test_settings (void)
{
  g_autoptr(MatApplication) app = mat_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
  g_autoptr(GError) error = NULL;
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  GtkWindow *window;
  GSettings *settings;
  g_autofree char *colour = NULL;

  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  settings = mat_application_get_settings (app);
  g_assert_nonnull (settings);
  g_settings_set_string (settings, "preview-background", "black");
  g_settings_set_string (settings, "preview-scene-colour", "rgb(10,20,30)");

  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_application (window, GTK_APPLICATION (app));
  gtk_widget_set_size_request (preview, 400, 300);
  gtk_window_set_child (window, preview);
  gtk_window_present (window);
  g_assert_true (ui_wait_for (ui_widget_is_shown, preview, 10));

  /* the settings reach the preview */
  g_assert_cmpint (mat_preview_get_background (p), ==, MAT_PREVIEW_BACKGROUND_BLACK);
  g_assert_cmpfloat_with_epsilon (mat_preview_get_scene_colour (p)->green, 20 / 255.0, 1e-6);
  g_settings_set_string (settings, "preview-background", "scene");
  g_assert_cmpint (mat_preview_get_background (p), ==, MAT_PREVIEW_BACKGROUND_SCENE);

  /* and the preview's controls reach the settings */
  mat_drop_down_set_selected (MAT_DROP_DOWN (preview_widget (preview, "background_dropdown")), 0);
  g_assert_cmpint (mat_preview_get_background (p), ==, MAT_PREVIEW_BACKGROUND_CHECKERBOARD);
  colour = g_settings_get_string (settings, "preview-background");
  g_assert_cmpstr (colour, ==, "checkerboard");
  g_clear_pointer (&colour, g_free);
  mat_preview_set_scene_colour (p, &(GdkRGBA) { 1.0f, 0.0f, 0.0f, 1.0f });
  colour = g_settings_get_string (settings, "preview-scene-colour");
  g_assert_cmpstr (colour, ==, "rgb(255,0,0)");

  /* a setting that is no colour gives the default, grey 40 */
  g_settings_set_string (settings, "preview-scene-colour", "not a colour");
  g_assert_cmpfloat (mat_preview_get_scene_colour (p)->red, ==, 40 / 255.0f);
  g_assert_cmpfloat (mat_preview_get_scene_colour (p)->blue, ==, 40 / 255.0f);

  g_settings_reset (settings, "preview-background");
  g_settings_reset (settings, "preview-scene-colour");
  g_assert_cmpint (mat_preview_get_background (p), ==, MAT_PREVIEW_BACKGROUND_CHECKERBOARD);
  g_assert_cmpfloat (mat_preview_get_scene_colour (p)->red, ==, 40 / 255.0f);
  gtk_window_destroy (window);
  ui_pump ();
}

/* ---- the failure path ------------------------------------------------- */

static gboolean
error_shown (gpointer data)
{
  return mat_preview_get_error (MAT_PREVIEW (data)) != NULL
         && gtk_widget_get_mapped (mat_preview_get_test_widget (MAT_PREVIEW (data), "error_label"));
}

static void
test_gl_failure (void)
{
  g_autoptr(MatLibrary) lib = test_library ();
  GtkWidget *preview;
  MatPreview *p;
  GtkWindow *window;
  GtkWidget *label;
  guint8 rgba[4];
  PhaseEvalResult r;

  g_setenv ("MATEDIT_PREVIEW_FAIL_GL", "1", TRUE);
  preview = mat_preview_new ();
  p = MAT_PREVIEW (preview);
  mat_preview_set_material (p, ui_find_material (lib, "CYCLE"));
  window = show_preview (preview);
  /* OpenGL starts once the window has painted its first frames */
  g_assert_true (ui_wait_for (error_shown, preview, 10));
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
  g_assert_cmpuint (mat_preview_get_time (p), >, 1234);
  ui_screenshot (preview, "preview-error.png");
  gtk_window_destroy (window);
  ui_pump ();
}

/* ---- the controls ----------------------------------------------------- */

static void
test_controls (void)
{
  g_autoptr(MatLibrary) lib = test_library ();
  MatMaterial *material = ui_find_material (lib, "CYCLE");
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  GtkWindow *window;
  PhaseEvalResult r;
  MatDropDown *blocks;
  guint time;

  mat_preview_set_material (p, material);
  window = show_preview (preview);
  g_assert_true (gtk_widget_get_mapped (preview_widget (preview, "controls")));

  /* the block list: static phase, then the block with its mode */
  blocks = MAT_DROP_DOWN (preview_widget (preview, "block_dropdown"));
  g_assert_cmpuint (g_list_model_get_n_items (mat_drop_down_get_model (blocks)), ==, 2);
  g_assert_cmpuint (mat_drop_down_get_selected (blocks), ==, 1);
  g_assert_false (gtk_widget_get_sensitive (preview_widget (preview, "phase_spin")));
  mat_drop_down_set_selected (blocks, 0);
  g_assert_cmpint (mat_preview_get_block (p), ==, -1);
  g_assert_true (gtk_widget_get_sensitive (preview_widget (preview, "phase_spin")));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (preview_widget (preview, "phase_spin")), 2);
  g_assert_cmpuint (mat_preview_get_phase (p), ==, 2);
  g_assert_true (mat_preview_get_evaluation (p, &r));
  g_assert_true (r.hold);
  g_assert_cmpint (r.phase_a, ==, 2);
  g_assert_cmpfloat (r.value.f[2], ==, 1.0f);   /* blue */
  g_assert_cmpstr (preview_label (preview, "time_label"), ==, "Phase 2, not animated");

  /* the evaluator input follows the model: a changed phase re-expands */
  {
    g_autoptr(GError) error = NULL;

    g_assert_true (mat_phase_set_param (ui_phase_at (material, 2), 6, 51, &error));
    g_assert_no_error (error);
    g_assert_true (mat_preview_get_evaluation (p, &r));
    g_assert_cmpfloat (r.value.f[2], ==, 51 / 255.0f);
  }
  /* a new block appears in the list */
  {
    g_autoptr(GError) error = NULL;

    g_assert_nonnull (mat_material_insert_block (material, 1, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (g_list_model_get_n_items (mat_drop_down_get_model (blocks)), ==, 3);
    g_assert_true (mat_material_remove_block (material, 1, &error));
    g_assert_cmpuint (g_list_model_get_n_items (mat_drop_down_get_model (blocks)), ==, 2);
  }
  mat_drop_down_set_selected (blocks, 1);
  g_assert_cmpint (mat_preview_get_block (p), ==, 0);

  /* shape, unlit, speed */
  mat_drop_down_set_selected (MAT_DROP_DOWN (preview_widget (preview, "shape_dropdown")), 1);
  g_assert_cmpint (mat_preview_get_shape (p), ==, MAT_PREVIEW_SHAPE_CUBE);
  g_assert_true (gtk_widget_activate_action (preview, "preview.unlit", NULL));
  g_assert_true (mat_preview_get_unlit (p));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (preview_widget (preview, "unlit_button"))));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (preview_widget (preview, "speed_spin")), 2.0);
  g_assert_cmpfloat (mat_preview_get_speed (p), ==, 2.0);
  g_assert_cmpfloat (mat_playback_get_speed (mat_preview_get_playback (p)), ==, 2.0);
  mat_preview_set_speed (p, 10.0);
  g_assert_cmpfloat (mat_preview_get_speed (p), ==, 4.0);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (preview_widget (preview, "speed_spin"))),
                     ==, 4.0);

  /* scrubbing: the scale sets the time; the readout gives the position
   * in the period (the last key's time, 3200 ms) */
  gtk_range_set_value (GTK_RANGE (preview_widget (preview, "time_scale")), 1700);
  g_assert_cmpuint (mat_preview_get_time (p), ==, 1700);
  g_assert_cmpstr (preview_label (preview, "time_label"), ==,
                   "Time 1.7 s · at 1700 of the 3200 ms cycle");
  /* 1700 ms: key 2 (1600..2400) blends phase 2 into phase 3 */
  g_assert_true (mat_preview_get_evaluation (p, &r));
  g_assert_cmpint (r.segment, ==, 2);
  g_assert_cmpfloat_with_epsilon (r.alpha, 0.125f, 1e-6);
  /* a second period: the scale stays in it */
  mat_preview_set_time (p, 3200 + 100);
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (preview_widget (preview, "time_scale"))), ==, 100);
  g_assert_cmpstr (preview_label (preview, "time_label"), ==,
                   "Time 3.3 s · at 100 of the 3200 ms cycle");
  gtk_range_set_value (GTK_RANGE (preview_widget (preview, "time_scale")), 200);
  g_assert_cmpuint (mat_preview_get_time (p), ==, 3200 + 200);

  /* play: the time advances from the frame clock; pause stops it */
  mat_preview_set_speed (p, 1.0);
  time = mat_preview_get_time (p);
  {
    guint64 evaluations = mat_preview_get_n_evaluations (p);
    guint64 renders = mat_preview_get_n_renders (p);

    g_assert_true (gtk_widget_activate_action (preview, "preview.playing", NULL));
    g_assert_true (mat_preview_get_playing (p));
    g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (preview_widget (preview, "play_button"))),
                     ==, "media-playback-pause-symbolic");
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

  /* loop off: playback stops at the end of the period */
  g_assert_true (gtk_widget_activate_action (preview, "preview.loop", NULL));
  g_assert_false (mat_preview_get_loop (p));
  mat_preview_set_speed (p, 4.0);
  mat_preview_set_time (p, 3200 * 2 + 2900);
  mat_preview_set_playing (p, TRUE);
  for (guint i = 0; i < 100 && mat_preview_get_playing (p); i++)
    ui_spin_ms (20);
  g_assert_false (mat_preview_get_playing (p));
  g_assert_cmpuint (mat_preview_get_time (p), ==, 3200 * 3);

  /* the blend readout, from attr1; an unknown index says so */
  g_assert_cmpstr (preview_label (preview, "blend_label"), ==, "Blend: Opaque (ONE, ZERO)");
  {
    g_autoptr(GError) error = NULL;

    g_assert_true (mat_material_set_attr1 (material, 0x0C | 0x01, &error));   /* b = 3 */
    g_assert_cmpstr (preview_label (preview, "blend_label"), ==, "Blend: Modulate (ZERO, SRCCOLOR)");
    g_assert_true (mat_material_set_attr1 (material, 0x3C, &error));          /* b = 15 */
    g_assert_cmpstr (preview_label (preview, "blend_label"), ==,
                     "Unknown blend index 15: drawn as opaque");
    g_assert_true (gtk_widget_has_css_class (preview_widget (preview, "blend_label"), "warning"));
    g_assert_cmpuint (mat_preview_get_blend_mode (p), ==, 0);
    g_assert_true (mat_history_undo (mat_library_get_history (lib)));
    g_assert_true (mat_history_undo (mat_library_get_history (lib)));
    g_assert_cmpstr (preview_label (preview, "blend_label"), ==, "Blend: Opaque (ONE, ZERO)");
    g_assert_false (gtk_widget_has_css_class (preview_widget (preview, "blend_label"), "warning"));
  }

  /* no texture library: a textured phase says so on the bar */
  {
    g_autoptr(MatTextureLibrary) textures = atlas_library ();

    mat_preview_set_material (p, ui_find_material (lib, "ATLAS"));
    ui_pump ();
    g_assert_true (gtk_widget_get_visible (preview_widget (preview, "texture_label")));
    g_assert_cmpstr (preview_label (preview, "texture_label"), ==,
                     "Texture ATLAS.0 not found: drawn untextured");
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
  guint brightest = 0, centre;

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
  centre = luma (pixels + ((gsize) (h / 2) * w + w / 2) * 4);
  g_test_message ("upper left %u, lower right %u", luma (upper_left), luma (lower_right));
  g_assert_cmpuint (luma (upper_left), >, luma (lower_right) + 60);
  for (int y = h / 2 - 2 * r; y < h / 2 + 2 * r; y++)
    for (int x = w / 2 - 2 * r; x < w / 2 + 2 * r; x++)
      brightest = MAX (brightest, luma (pixels + ((gsize) y * w + x) * 4));
  g_test_message ("centre %u, brightest %u", centre, brightest);
  g_assert_cmpuint (brightest, >, centre + 60);   /* the highlight */

  gtk_window_destroy (window);
  ui_pump ();
}

/* The preview with its controls in windows of the sizes people use, on
 * each background, with an additive and a see-through material. */
static void
test_screenshots (void)
{
  static const PhaseSpec glow = {
    { 60, 30, 0, 100, 255, 150, 40, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255 }, "",
  };
  static const PhaseSpec smoke = {
    { 30, 30, 30, 45, 200, 200, 210, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255 }, "",
  };
  /* additive (attr1 8) and see-through (attr1 4) */
  static const MaterialSpec materials[] = {
    { "GLOW", 2 << 2, &glow, 1, NULL, 0 },
    { "SMOKE", 1 << 2, &smoke, 1, NULL, 0 },
  };
  g_autoptr(MatLibrary) lib = materials_library (materials, G_N_ELEMENTS (materials));
  g_autoptr(MatLibrary) demo = demo_library ();
  g_autoptr(MatTextureLibrary) textures = demo_textures ();
  static const struct { int width, height; } sizes[] = { { 1100, 720 }, { 1280, 800 } };
  static const char *const backgrounds[] = { "checkerboard", "black", "scene" };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      GtkWidget *preview = mat_preview_new ();
      MatPreview *p = MAT_PREVIEW (preview);
      GtkWindow *window;

      mat_preview_set_textures (p, textures);
      mat_preview_set_material (p, ui_find_material (demo, "LAVA_FLOW"));
      window = ui_show (preview, "MatPreview", sizes[s].width, sizes[s].height);
      for (guint b = 0; b < G_N_ELEMENTS (backgrounds); b++)
        {
          mat_preview_set_background (p, b);
          for (guint m = 0; m < 3; m++)
            {
              g_autofree char *name = NULL;

              mat_preview_set_material (p, m == 0 ? ui_find_material (demo, "LAVA_FLOW")
                                        : ui_find_material (lib, m == 1 ? "GLOW" : "SMOKE"));
              name = g_strdup_printf ("preview-%dx%d-%s-%s.png", sizes[s].width, sizes[s].height,
                                      m == 0 ? "lit" : m == 1 ? "additive" : "see-through",
                                      backgrounds[b]);
              ui_screenshot (GTK_WIDGET (window), name);
            }
        }
      gtk_window_destroy (window);
      ui_pump ();
    }
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);
  gtk_init ();

  g_test_add_func ("/preview/gl/raw-pixels", test_raw_pixels);
  g_test_add_func ("/preview/gl/lit-blend-modes", test_lit_blend_modes);
  g_test_add_func ("/preview/gl/backgrounds", test_backgrounds);
  g_test_add_func ("/preview/gl/cells", test_cells);
  g_test_add_func ("/preview/gl/plane-not-clipped", test_plane_not_clipped);
  g_test_add_func ("/preview/eval/random-track", test_random_track);
  g_test_add_func ("/preview/eval/cli-agreement", test_cli_agreement);
  g_test_add_func ("/preview/eval/reroll-reproducible", test_reroll_reproducible);
  g_test_add_func ("/preview/playback/clock", test_playback_clock);
  g_test_add_func ("/preview/playback/shared", test_playback_shared);
  g_test_add_func ("/preview/playback/compare", test_playback_compare);
  g_test_add_func ("/preview/settings", test_settings);
  g_test_add_func ("/preview/gl/failure", test_gl_failure);
  g_test_add_func ("/preview/controls", test_controls);
  g_test_add_func ("/preview/gl/screenshot", test_screenshot);
  g_test_add_func ("/preview/gl/lit-sphere", test_lit_sphere);
  g_test_add_func ("/preview/gl/screenshots", test_screenshots);
  return g_test_run ();
}
