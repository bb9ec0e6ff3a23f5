/* test-phase-light.c - a phase's lit colour on the CPU (render.md 1-2),
 * against values worked out here by hand */
#include "config.h"

#include <math.h>
#include <string.h>

#include "phase-light.h"

static PhaseRuntime
runtime_of (const guint8 p[18])
{
  Mat0Phase record = { { 0 }, { 0 } };
  PhaseRuntime out;

  memcpy (record.p, p, 18);
  phase_eval_expand (&record, 0, &out);
  return out;
}

/* 1 << (p16 & 31) on a 32-bit int */
static void
test_specular_exponent (void)
{
  g_assert_cmpfloat (phase_light_specular_exponent (0), ==, 1.0f);
  g_assert_cmpfloat (phase_light_specular_exponent (2), ==, 4.0f);
  g_assert_cmpfloat (phase_light_specular_exponent (10), ==, 1024.0f);
  g_assert_cmpfloat (phase_light_specular_exponent (32), ==, 1.0f);   /* 32 & 31 = 0 */
  g_assert_cmpfloat (phase_light_specular_exponent (40), ==, 256.0f);
  g_assert_cmpfloat (phase_light_specular_exponent (31), ==, -2147483648.0f);
  g_assert_cmpfloat (phase_light_specular_exponent (NAN), ==, 1.0f);
  g_assert_cmpfloat (phase_light_specular_exponent (-3), ==, 1.0f);
}

/* scene 0.25, self-light 0.1, diffuse 0.4 at N·L 0.5, specular 0.5 at
 * N·H 0.5 with exponent 2: 0.25 + 0.1 + 0.2 + 0.125 = 0.675 */
static void
test_colour_terms (void)
{
  PhaseRuntime v;
  const float scene[3] = { 0.25f, 0.0f, 1.0f };
  const float dark[3] = { 0.0f, 0.0f, 0.0f };
  float rgb[3];

  memset (&v, 0, sizeof v);
  v.f[0] = 0.4f;          /* diffuse R */
  v.f[4] = 0.1f;          /* self-light R */
  v.f[8] = 0.5f;          /* specular R */
  v.f[1] = 1.0f;          /* diffuse G */
  v.f[9] = 1.0f;
  v.power = 1;            /* exponent 2 */
  phase_light_colour (&v, scene, 0.5f, 0.5f, rgb);
  g_assert_cmpfloat_with_epsilon (rgb[0], 0.675f, 1e-6);
  g_assert_cmpfloat_with_epsilon (rgb[1], 0.0f + 0.5f + 0.25f, 1e-6);
  g_assert_cmpfloat (rgb[2], ==, 1.0f);    /* the scene alone saturates */

  /* no highlight where the light does not reach (N·L <= 0), nor past 90°
   * from the half vector; negative N·L lights nothing */
  phase_light_colour (&v, scene, -0.3f, 0.9f, rgb);
  g_assert_cmpfloat_with_epsilon (rgb[0], 0.35f, 1e-6);
  phase_light_colour (&v, scene, 0.5f, -0.2f, rgb);
  g_assert_cmpfloat_with_epsilon (rgb[0], 0.55f, 1e-6);

  /* power 31: a negative exponent, an infinite power: the highlight is
   * the whole specular colour */
  v.power = 31;
  phase_light_colour (&v, dark, 0.5f, 0.5f, rgb);
  g_assert_cmpfloat_with_epsilon (rgb[0], 0.1f + 0.2f + 0.5f, 1e-6);
  /* and the sum saturates at 1 */
  phase_light_colour (&v, scene, 0.5f, 0.5f, rgb);
  g_assert_cmpfloat (rgb[0], ==, 1.0f);
}

/* N = L and V = (0, 0, 1): N·H = cos (half the angle between L and V) =
 * sqrt ((1 + L_z) / 2) with L normalized */
static void
test_swatch_geometry (void)
{
  double lx = PHASE_LIGHT_DIR_X, ly = PHASE_LIGHT_DIR_Y, lz = PHASE_LIGHT_DIR_Z;
  double lz_unit = lz / sqrt (lx * lx + ly * ly + lz * lz);
  float n_dot_l = 0, n_dot_h = 0;

  phase_light_swatch_geometry (&n_dot_l, &n_dot_h);
  g_assert_cmpfloat (n_dot_l, ==, 1.0f);
  g_assert_cmpfloat_with_epsilon (n_dot_h, sqrt ((1.0 + lz_unit) / 2.0), 1e-6);
}

/* phase 0 of the material through the evaluator, lit at the swatch's
 * point over grey 40: rounded bytes */
static void
test_swatch (void)
{
  /* self-light (10, 20, 30), opacity 50 %, diffuse (100, 50, 0),
   * specular (80, 80, 80), power 0: exponent 1 */
  static const guint8 p0[18] = { 10, 20, 30, 50, 100, 50, 0, 255, 80, 80, 80, 255,
                                 9, 9, 9, 9, 0, 255 };
  static const guint8 p1[18] = { 255, 255, 255, 100, 255, 255, 255, 255, 0, 0, 0, 0,
                                 0, 0, 0, 0, 0, 255 };
  PhaseRuntime phases[2];
  float n_dot_h;
  guint8 rgba[4] = { 7, 7, 7, 7 };

  phases[0] = runtime_of (p0);
  phases[1] = runtime_of (p1);
  phase_light_swatch_geometry (NULL, &n_dot_h);
  g_assert_true (phase_light_swatch (phases, 2, rgba));
  /* red: 40 + 10 + 100 + 80 × N·H */
  g_assert_cmpuint (rgba[0], ==, (guint) lrintf ((40.0f + 10.0f + 100.0f + 80.0f * n_dot_h)));
  g_assert_cmpuint (rgba[1], ==, (guint) lrintf ((40.0f + 20.0f + 50.0f + 80.0f * n_dot_h)));
  g_assert_cmpuint (rgba[2], ==, (guint) lrintf ((40.0f + 30.0f + 0.0f + 80.0f * n_dot_h)));
  g_assert_cmpuint (rgba[3], ==, 128);   /* 0.5 × 255 = 127.5, rounded to even */

  /* the phase that counts is phase 0, not the brighter one after it */
  g_assert_true (phase_light_swatch (phases + 1, 1, rgba));
  g_assert_cmpmem (rgba, 4, ((guint8[]) { 255, 255, 255, 255 }), 4);

  /* none without phases */
  g_assert_false (phase_light_swatch (NULL, 0, rgba));
  g_assert_cmpmem (rgba, 4, ((guint8[]) { 0, 0, 0, 0 }), 4);
}

/* render.md 3 worked by hand: src (0.8, 0.4, 0.2) at alpha 0.5 over
 * dst (0.5, 0.25, 1.0) */
static void
test_blend (void)
{
  const float src[3] = { 0.8f, 0.4f, 0.2f };
  const float dst[3] = { 0.5f, 0.25f, 1.0f };
  static const struct { guint mode; float out[3]; } cases[] = {
    { 0, { 0.8f, 0.4f, 0.2f } },                 /* ONE, ZERO */
    { 1, { 0.4f, 0.2f, 0.1f } },                 /* SRCALPHA, ZERO */
    { 2, { 0.9f, 0.45f, 1.0f } },                /* SRCALPHA, ONE: 1.1 clamped */
    { 3, { 0.4f, 0.1f, 0.2f } },                 /* ZERO, SRCCOLOR */
    { 4, { 0.65f, 0.325f, 0.6f } },              /* SRCALPHA, INVSRCALPHA */
    { 5, { 0.8f, 0.2f, 0.4f } },                 /* DESTCOLOR, SRCCOLOR: 2 s d */
    { 6, { 0.8f, 0.4f, 0.2f } },                 /* past the table: as 0 */
    { 200, { 0.8f, 0.4f, 0.2f } },
  };
  float out[3];

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      phase_light_blend (cases[i].mode, src, 0.5f, dst, out);
      for (guint c = 0; c < 3; c++)
        g_assert_cmpfloat_with_epsilon (out[c], cases[i].out[c], 1e-6);
    }

  /* the alpha test: alpha 0 (and NaN, and below 1/255) drops the texel
   * in modes 1..5; mode 0 draws it; exactly 1/255 passes */
  for (guint mode = 0; mode <= 6; mode++)
    {
      const float *expected = mode == 0 || mode == 6 ? src : dst;

      phase_light_blend (mode, src, 0.0f, dst, out);
      g_assert_cmpmem (out, sizeof out, expected, sizeof out);
      phase_light_blend (mode, src, NAN, dst, out);
      g_assert_cmpmem (out, sizeof out, expected, sizeof out);
      phase_light_blend (mode, src, 0.5f / 255.0f, dst, out);
      g_assert_cmpmem (out, sizeof out, expected, sizeof out);
    }
  phase_light_blend (4, src, 1.0f / 255.0f, dst, out);
  g_assert_cmpfloat_with_epsilon (out[0], 0.8f / 255.0f + 0.5f * 254.0f / 255.0f, 1e-6);
  /* alpha above 1 is 1 */
  phase_light_blend (4, src, 3.0f, dst, out);
  g_assert_cmpmem (out, sizeof out, src, sizeof out);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/phase-light/specular-exponent", test_specular_exponent);
  g_test_add_func ("/phase-light/colour-terms", test_colour_terms);
  g_test_add_func ("/phase-light/swatch-geometry", test_swatch_geometry);
  g_test_add_func ("/phase-light/swatch", test_swatch);
  g_test_add_func ("/phase-light/blend", test_blend);

  return g_test_run ();
}
