/* test-phase-eval.c - runtime expansion and the evaluator (evaluator.md) */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mat0.h"
#include "phase-eval.h"
#include "test-support.h"

static guint32
float_bits (float f)
{
  guint32 u;

  memcpy (&u, &f, 4);
  return u;
}

/* Exact float comparison, by bits. */
#define assert_float_eq(a, b) g_assert_cmphex (float_bits (a), ==, float_bits (b))

static void
assert_runtime_eq (const PhaseRuntime *a, const PhaseRuntime *b)
{
  for (guint i = 0; i < 16; i++)
    assert_float_eq (a->f[i], b->f[i]);
  assert_float_eq (a->power, b->power);
  g_assert_cmpint (a->tex_slot, ==, b->tex_slot);
  g_assert_cmpint (a->i18, ==, b->i18);
}

/* ---- expansion ---- */

static void
test_expand_constants (void)
{
  Mat0Phase phase = { 0 };
  PhaseRuntime rt;

  for (guint i = 0; i < 18; i++)
    phase.p[i] = 0;
  phase.p[4] = 128;   /* diffuse R */
  phase.p[0] = 1;     /* ambient R */
  phase.p[3] = 50;    /* ambient A */
  phase.p[8] = 254;   /* specular R */
  phase.p[15] = 255;  /* emissive A */
  phase.p[16] = 200;  /* power */
  phase.p[17] = 255;
  memcpy (phase.texture, "ROCK.0", 6);

  phase_eval_expand (&phase, 7, &rt);
  g_assert_cmphex (float_bits (rt.f[0]), ==, 0x3F008081u);   /* 128 / 255 */
  g_assert_cmphex (float_bits (rt.f[4]), ==, 0x3B808081u);   /* 1 / 255 */
  g_assert_cmphex (float_bits (rt.f[7]), ==, 0x3F000000u);   /* 50 * 0.01 */
  g_assert_cmphex (float_bits (rt.f[8]), ==, 0x3F7EFEFFu);   /* 254 / 255 */
  g_assert_cmphex (float_bits (rt.f[15]), ==, 0x3F800000u);  /* 1.0 */
  g_assert_cmphex (float_bits (rt.f[1]), ==, 0);
  g_assert_cmphex (float_bits (rt.power), ==, float_bits (200.0f));
  g_assert_cmpint (rt.tex_slot, ==, 7);
  g_assert_cmpint (rt.i18, ==, -1);

  phase.p[3] = 1;
  phase_eval_expand (&phase, 0, &rt);
  g_assert_cmphex (float_bits (rt.f[7]), ==, 0x3C23D70Au);   /* 0.01f */
  phase.p[3] = 100;
  phase_eval_expand (&phase, 0, &rt);
  g_assert_cmphex (float_bits (rt.f[7]), ==, 0x3F800000u);   /* 1.0 */
  phase.p[3] = 255;
  phase_eval_expand (&phase, 0, &rt);
  g_assert_cmphex (float_bits (rt.f[7]), ==, 0x40233333u);   /* 2.55 */
}

/* Every p byte at every value lands in exactly its runtime slot. */
static void
test_expand_every_byte (void)
{
  /* runtime float slot of p[i] for i < 16 */
  static const guint slot[16] = { 4, 5, 6, 7, 0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15 };

  for (guint i = 0; i < 18; i++)
    {
      for (guint v = 0; v < 256; v++)
        {
          Mat0Phase phase = { 0 };
          PhaseRuntime rt;

          phase.p[i] = (guint8) v;
          phase.texture[0] = 'A';
          phase_eval_expand (&phase, 3, &rt);

          for (guint f = 0; f < 16; f++)
            {
              float want = 0.0f;

              if (i < 16 && slot[i] == f)
                want = f == 7 ? (float) v * 0.01f : (float) v / 255.0f;
              assert_float_eq (rt.f[f], want);
            }
          assert_float_eq (rt.power, i == 16 ? (float) v : 0.0f);
          g_assert_cmpint (rt.tex_slot, ==, 3);
          g_assert_cmpint (rt.i18, ==, i == 17 ? (gint) (gint8) v : 0);
          if (v == 255 && i != 3 && i < 16)
            assert_float_eq (rt.f[slot[i]], 1.0f);
        }
    }
}

static void
test_expand_texture (void)
{
  Mat0Phase phase = { 0 };
  PhaseRuntime rt;

  phase.p[17] = 0x80;
  phase_eval_expand (&phase, 5, &rt);
  g_assert_cmpint (rt.tex_slot, ==, -1);   /* untextured */
  g_assert_cmpint (rt.i18, ==, -1);

  memcpy (phase.texture, "\0ROCK.0", 7);   /* bytes after a leading NUL */
  phase_eval_expand (&phase, 5, &rt);
  g_assert_cmpint (rt.tex_slot, ==, -1);
  g_assert_cmpint (rt.i18, ==, -1);

  memcpy (phase.texture, "ROCK.0", 6);
  phase_eval_expand (&phase, 5, &rt);
  g_assert_cmpint (rt.tex_slot, ==, 5);
  g_assert_cmpint (rt.i18, ==, -128);
  phase.p[17] = 0x7F;
  phase_eval_expand (&phase, 5, &rt);
  g_assert_cmpint (rt.i18, ==, 127);
  phase.p[17] = 0;
  phase_eval_expand (&phase, 5, &rt);
  g_assert_cmpint (rt.i18, ==, 0);
}

static void
test_expand_material (void)
{
  Mat0Phase phases[3] = { 0 };
  Mat0Material m = { .attr2 = 6, .n_phases = 3, .phases = phases };
  PhaseRuntime rt[3];

  memcpy (phases[0].texture, "A.B", 3);
  memcpy (phases[2].texture, "C.D", 3);
  phases[0].p[17] = 2;
  phases[1].p[17] = 3;
  phases[2].p[17] = 0xFF;
  phase_eval_expand_material (&m, rt);
  g_assert_cmpint (rt[0].tex_slot, ==, 0);
  g_assert_cmpint (rt[0].i18, ==, 2);
  g_assert_cmpint (rt[1].tex_slot, ==, -1);
  g_assert_cmpint (rt[1].i18, ==, -1);
  g_assert_cmpint (rt[2].tex_slot, ==, 2);
  g_assert_cmpint (rt[2].i18, ==, -1);
}

/* ---- evaluator fixtures ---- */

typedef struct {
  Mat0Material *material;
  PhaseRuntime  rt[8];
  PhaseEvalInput input;
} Fixture;

static void
fixture_from_payload (Fixture *fx, GBytes *payload)
{
  g_autoptr(GError) error = NULL;

  fx->material = mat0_decode (g_bytes_get_data (payload, NULL),
                              g_bytes_get_size (payload), 6, "TEST", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fx->material->n_phases, <=, G_N_ELEMENTS (fx->rt));
  phase_eval_expand_material (fx->material, fx->rt);
  fx->input.phases = fx->rt;
  fx->input.n_phases = fx->material->n_phases;
  fx->input.block = fx->material->n_blocks > 0 ? &fx->material->blocks[0] : NULL;
  fx->input.static_phase = 0;
}

/* evaluator.md's worked example: keys (0, 500) (1, 1000), mask 0x02 */
static void
fixture_worked (Fixture *fx, guint mode)
{
  g_autoptr(GBytes) payload = test_worked_example_payload (mode);

  fixture_from_payload (fx, payload);
  g_assert_cmpuint (fx->material->blocks[0].n_keys, ==, 2);
  g_assert_cmpuint (fx->material->blocks[0].keys[0].k1, ==, 500);
  g_assert_cmpuint (fx->material->blocks[0].keys[1].k1, ==, 1000);
}

static void
fixture_clear (Fixture *fx)
{
  g_clear_pointer (&fx->material, mat0_material_free);
}

/* One block over @n_phases phases given byte by byte. */
static void
fixture_phases (Fixture       *fx,
                guint          n_phases,
                const guint8 (*p)[18],
                const char   **textures,
                guint32        header,
                const Mat0Key *keys,
                guint          n_keys)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();

  test_put_u16 (a, n_phases);
  test_put_u16 (a, 1);
  test_put_u8 (a, 255);
  test_put_u8 (a, 255);
  test_put_u32 (a, 0x3F800000u);
  test_put_u32 (a, 0);
  for (guint i = 0; i < n_phases; i++)
    test_put_phase (a, p[i], textures[i]);
  test_put_u32 (a, header);
  test_put_u16 (a, n_keys);
  for (guint k = 0; k < n_keys; k++)
    {
      test_put_u16 (a, keys[k].k0);
      test_put_u16 (a, keys[k].k1);
      test_put_u16 (a, keys[k].k2);
    }

  {
    g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (g_steal_pointer (&a));

    fixture_from_payload (fx, bytes);
  }
}

/* A block over phases 0..n-1 whose p bytes are all distinct: phase i has
 * p[j] = 10 + 40 * i + j; phase 1 is textured (tex_slot 1, p[17] = 67). */
static void
fixture_keys (Fixture       *fx,
              guint          n_phases,
              guint32        header,
              const Mat0Key *keys,
              guint          n_keys)
{
  guint8 p[8][18];
  const char *textures[8];

  g_assert_cmpuint (n_phases, <=, 8);
  for (guint i = 0; i < n_phases; i++)
    {
      for (guint j = 0; j < 18; j++)
        p[i][j] = (guint8) (10 + 40 * i + j);
      textures[i] = i == 1 ? "ROCK.0" : "";
    }
  fixture_phases (fx, n_phases, (const guint8 (*)[18]) p, textures, header, keys, n_keys);
}

static void
assert_state (const PhaseEvalResult *res,
              guint32                r,
              gint                   segment,
              gint                   next,
              float                  alpha,
              gint                   phase_a,
              gint                   phase_b,
              gboolean               hold)
{
  g_assert_cmpuint (res->r, ==, r);
  g_assert_cmpint (res->segment, ==, segment);
  g_assert_cmpint (res->next, ==, next);
  assert_float_eq (res->alpha, alpha);
  g_assert_cmpint (res->phase_a, ==, phase_a);
  g_assert_cmpint (res->phase_b, ==, phase_b);
  g_assert_cmpint (res->hold, ==, hold);
}

/* The value blended by @mask from @a to @b, computed field by field from
 * evaluator.md's table (not from the evaluator's select rows). */
static void
expected_blend (const PhaseRuntime *a,
                const PhaseRuntime *b,
                guint32             mask,
                float               alpha,
                PhaseRuntime       *out)
{
  *out = *a;
  for (guint f = 0; f < 16; f++)
    {
      gboolean blend =
        ((mask & 0x01) && (f == 4 || f == 5 || f == 6)) ||
        ((mask & 0x02) && (f == 0 || f == 1 || f == 2)) ||
        ((mask & 0x04) && (f == 8 || f == 9 || f == 10)) ||
        ((mask & 0x08) && (f == 12 || f == 13 || f == 14)) ||
        ((mask & 0x10) && f == 7);

      if (blend)
        out->f[f] = a->f[f] + (b->f[f] - a->f[f]) * alpha;
    }
}

/* Two results of the same evaluation, field by field */
static void
assert_result_eq (const PhaseEvalResult *a,
                  const PhaseEvalResult *b)
{
  assert_runtime_eq (&a->value, &b->value);
  g_assert_cmpuint (a->mode, ==, b->mode);
  g_assert_cmpuint (a->period, ==, b->period);
  assert_state (a, b->r, b->segment, b->next, b->alpha, b->phase_a, b->phase_b, b->hold);
  g_assert_cmpint (a->unknown_mode, ==, b->unknown_mode);
  g_assert_cmpint (a->bad_key, ==, b->bad_key);
}

/* ---- the worked examples of evaluator.md ---- */

static void
test_worked_example (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  PhaseEvalResult at250;
  PhaseEvalResult at750;

  fixture_worked (&fx, 0);
  g_assert_cmpuint (fx.input.n_phases, ==, 2);

  /* delta 250: segment 0, alpha 0.5, phase 0 -> 1; f3 from phase 0 */
  phase_eval_at_time (&fx.input, 250, 0, 0, &at250);
  assert_state (&at250, 250, 0, 1, 0.5f, 0, 1, FALSE);
  g_assert_cmpuint (at250.period, ==, 1000);
  g_assert_cmpuint (at250.mode, ==, 0);
  g_assert_false (at250.unknown_mode);
  g_assert_false (at250.bad_key);
  assert_float_eq (at250.value.f[0], 0.5f);
  assert_float_eq (at250.value.f[1], 0.5f);
  assert_float_eq (at250.value.f[2], 0.5f);
  assert_float_eq (at250.value.f[3], 0.0f);
  for (guint i = 4; i < 16; i++)
    assert_float_eq (at250.value.f[i], 0.0f);
  assert_float_eq (at250.value.power, 0.0f);
  g_assert_cmpint (at250.value.tex_slot, ==, -1);
  g_assert_cmpint (at250.value.i18, ==, -1);

  /* delta 750: segment 1 (500 <= 750 < 1000), alpha 0.5, phase 1 -> 0
   * (the loop closes): f0 = 0.5, f3 = 1.0 */
  phase_eval_at_time (&fx.input, 750, 0, 0, &at750);
  assert_state (&at750, 750, 1, 0, 0.5f, 1, 0, FALSE);
  g_assert_cmpuint (at750.period, ==, 1000);
  assert_float_eq (at750.value.f[0], 0.5f);
  assert_float_eq (at750.value.f[1], 0.5f);
  assert_float_eq (at750.value.f[2], 0.5f);
  assert_float_eq (at750.value.f[3], 1.0f);

  /* delta 1250: the same as 250 */
  phase_eval_at_time (&fx.input, 1250, 0, 0, &res);
  assert_result_eq (&res, &at250);
  fixture_clear (&fx);

  /* mode 1 at 1250: q = 1 is odd, r = 750: the same as loop at 750 */
  fixture_worked (&fx, 1);
  phase_eval_at_time (&fx.input, 1250, 0, 0, &res);
  g_assert_cmpuint (res.mode, ==, 1);
  assert_state (&res, 750, 1, 0, 0.5f, 1, 0, FALSE);
  assert_runtime_eq (&res.value, &at750.value);

  /* mode 1 at 1000: r = period: segment 1, alpha 1: f0 = 0 (phase 0
   * reached), f3 = 1.0 (copied from phase 1) */
  phase_eval_at_time (&fx.input, 1000, 0, 0, &res);
  assert_state (&res, 1000, 1, 0, 1.0f, 1, 0, FALSE);
  assert_float_eq (res.value.f[0], 0.0f);
  assert_float_eq (res.value.f[1], 0.0f);
  assert_float_eq (res.value.f[2], 0.0f);
  assert_float_eq (res.value.f[3], 1.0f);
  fixture_clear (&fx);

  /* mode 2 at 1250: held at the last key: phase 1, f0 = 1.0 */
  fixture_worked (&fx, 2);
  phase_eval_at_time (&fx.input, 1250, 0, 0, &res);
  g_assert_cmpuint (res.mode, ==, 2);
  assert_state (&res, 1000, 1, 1, 0.0f, 1, 1, TRUE);
  assert_float_eq (res.value.f[0], 1.0f);
  assert_float_eq (res.value.f[3], 1.0f);
  assert_runtime_eq (&res.value, &fx.rt[1]);
  fixture_clear (&fx);
}

/* HLP_RAY_R: keys (0, 50) (1, 100) (2, 150) (1, 200), mode 0, mask 1.
 * Phases: self-light (p0..p2) 0,40,200 / 255,120,100 / 10,250,0, cells
 * 0, 1, 2 of one texture; the diffuse differs too but never blends. */
static void
fixture_hlp_ray (Fixture *fx)
{
  static const guint8 p[3][18] = {
    { 0, 40, 200, 100, 255, 255, 255, 100, 0, 0, 0, 100, 0, 0, 0, 100, 3, 0 },
    { 255, 120, 100, 100, 10, 20, 30, 100, 0, 0, 0, 100, 0, 0, 0, 100, 4, 1 },
    { 10, 250, 0, 100, 40, 50, 60, 100, 0, 0, 0, 100, 0, 0, 0, 100, 5, 2 },
  };
  static const char *textures[3] = { "HLP_RAY.0", "HLP_RAY.0", "HLP_RAY.0" };
  static const Mat0Key keys[] = { { 0, 50, 0 }, { 1, 100, 0 }, { 2, 150, 0 }, { 1, 200, 0 } };

  fixture_phases (fx, 3, p, textures, (0x01u << 3) | 0, keys, G_N_ELEMENTS (keys));
}

static void
test_worked_hlp_ray (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  PhaseEvalResult at0;

  fixture_hlp_ray (&fx);
  g_assert_cmpuint (mat0_block_period (fx.input.block), ==, 200);

  /* 0 ms: phase 0 exactly, heading for phase 1 */
  phase_eval_at_time (&fx.input, 0, 0, 0, &at0);
  assert_state (&at0, 0, 0, 1, 0.0f, 0, 1, FALSE);
  g_assert_cmpuint (at0.period, ==, 200);
  assert_runtime_eq (&at0.value, &fx.rt[0]);

  /* 25 ms: the self-light halfway from phase 0 to phase 1, the cell and
   * the (unblended) diffuse are phase 0's */
  phase_eval_at_time (&fx.input, 25, 0, 0, &res);
  assert_state (&res, 25, 0, 1, 0.5f, 0, 1, FALSE);
  g_assert_cmphex (float_bits (res.value.f[4]), ==, 0x3F000000u);  /* 0 -> 1: 0.5 */
  g_assert_cmphex (float_bits (res.value.f[5]), ==, 0x3EA0A0A0u);  /* 40 -> 120 */
  g_assert_cmphex (float_bits (res.value.f[6]), ==, 0x3F169697u);  /* 200 -> 100 */
  assert_float_eq (res.value.f[0], 1.0f);
  assert_float_eq (res.value.f[1], 1.0f);
  assert_float_eq (res.value.f[2], 1.0f);
  assert_float_eq (res.value.f[7], 1.0f);
  assert_float_eq (res.value.power, 3.0f);
  g_assert_cmpint (res.value.tex_slot, ==, 0);
  g_assert_cmpint (res.value.i18, ==, 0);

  /* 50 ms: phase 1 has arrived */
  phase_eval_at_time (&fx.input, 50, 0, 0, &res);
  assert_state (&res, 50, 1, 2, 0.0f, 1, 2, FALSE);
  assert_runtime_eq (&res.value, &fx.rt[1]);

  /* 100 ms: phase 2 has arrived (segment 2: 100 <= r < 150) */
  phase_eval_at_time (&fx.input, 100, 0, 0, &res);
  assert_state (&res, 100, 2, 3, 0.0f, 2, 1, FALSE);
  assert_runtime_eq (&res.value, &fx.rt[2]);
  g_assert_cmphex (float_bits (res.value.f[4]), ==, 0x3D20A0A1u);  /* 10 / 255 */
  g_assert_cmpint (res.value.i18, ==, 2);
  g_assert_cmpint (res.value.tex_slot, ==, 2);

  /* 175 ms: segment 3 (phase 1), halfway back to phase 0 (key 0) */
  phase_eval_at_time (&fx.input, 175, 0, 0, &res);
  assert_state (&res, 175, 3, 0, 0.5f, 1, 0, FALSE);
  g_assert_cmphex (float_bits (res.value.f[4]), ==, 0x3F000000u);  /* 1 -> 0 */
  g_assert_cmphex (float_bits (res.value.f[5]), ==, 0x3EA0A0A1u);  /* 120 -> 40 */
  g_assert_cmphex (float_bits (res.value.f[6]), ==, 0x3F169697u);  /* 100 -> 200 */
  assert_float_eq (res.value.f[0], 10.0f / 255.0f);   /* phase 1's diffuse */
  assert_float_eq (res.value.power, 4.0f);
  g_assert_cmpint (res.value.i18, ==, 1);

  /* 200 ms equals 0 ms */
  phase_eval_at_time (&fx.input, 200, 0, 0, &res);
  assert_result_eq (&res, &at0);
  /* and so does every period later */
  phase_eval_at_time (&fx.input, 200 * 1000 + 7, 7, 0, &res);
  assert_result_eq (&res, &at0);
  fixture_clear (&fx);
}

/* ---- every mode at the period boundaries ---- */

typedef struct {
  guint32  delta;
  guint32  r;
  gint     segment;
  gint     next;
  float    alpha;
  gint     phase_a;
  gint     phase_b;
  gboolean hold;
} Expect;

static void
check_mode_table (guint         mode,
                  guint32       random_offset,
                  const Expect *want,
                  guint         n_want)
{
  Fixture fx = { 0 };

  fixture_worked (&fx, mode);
  for (guint i = 0; i < n_want; i++)
    {
      PhaseEvalResult res;

      /* start 1000000: the delta is what counts */
      phase_eval_at_time (&fx.input, 1000000u + want[i].delta, 1000000u,
                          random_offset, &res);
      g_assert_cmpuint (res.mode, ==, mode);
      g_assert_cmpuint (res.period, ==, 1000);
      g_assert_cmpint (res.unknown_mode, ==, mode >= 4);
      g_assert_false (res.bad_key);
      assert_state (&res, want[i].r, want[i].segment, want[i].next,
                    want[i].alpha, want[i].phase_a, want[i].phase_b,
                    want[i].hold);
      if (want[i].hold)
        assert_runtime_eq (&res.value, &fx.rt[want[i].phase_a]);
      else
        {
          PhaseRuntime expect;

          expected_blend (&fx.rt[want[i].phase_a], &fx.rt[want[i].phase_b],
                          0x02, want[i].alpha, &expect);
          assert_runtime_eq (&res.value, &expect);
        }
    }
  fixture_clear (&fx);
}

static void
test_modes_loop (void)
{
  /* delta = 0, period - 1, period, period + 1, 2 * period */
  static const Expect loop[] = {
    { 0, 0, 0, 1, 0.0f, 0, 1, FALSE },
    { 250, 250, 0, 1, 0.5f, 0, 1, FALSE },
    { 499, 499, 0, 1, 499.0f / 500.0f, 0, 1, FALSE },
    { 500, 500, 1, 0, 0.0f, 1, 0, FALSE },
    { 999, 999, 1, 0, 499.0f / 500.0f, 1, 0, FALSE },
    { 1000, 0, 0, 1, 0.0f, 0, 1, FALSE },
    { 1001, 1, 0, 1, 1.0f / 500.0f, 0, 1, FALSE },
    { 2000, 0, 0, 1, 0.0f, 0, 1, FALSE },
  };

  check_mode_table (0, 0, loop, G_N_ELEMENTS (loop));
  /* R does not move a loop */
  check_mode_table (0, 123, loop, G_N_ELEMENTS (loop));
  /* 4..7: played as a loop, flagged unknown */
  for (guint mode = 4; mode < 8; mode++)
    check_mode_table (mode, 777, loop, G_N_ELEMENTS (loop));
}

static void
test_modes_ping_pong (void)
{
  static const Expect ping_pong[] = {
    { 0, 0, 0, 1, 0.0f, 0, 1, FALSE },
    { 999, 999, 1, 0, 499.0f / 500.0f, 1, 0, FALSE },
    /* q = 1, r = 0 -> period: the turnaround, segment n-1 at alpha 1 */
    { 1000, 1000, 1, 0, 1.0f, 1, 0, FALSE },
    { 1001, 999, 1, 0, 499.0f / 500.0f, 1, 0, FALSE },
    { 1250, 750, 1, 0, 0.5f, 1, 0, FALSE },
    { 1500, 500, 1, 0, 0.0f, 1, 0, FALSE },
    { 1501, 499, 0, 1, 499.0f / 500.0f, 0, 1, FALSE },
    { 1999, 1, 0, 1, 1.0f / 500.0f, 0, 1, FALSE },
    /* q = 2: forwards again */
    { 2000, 0, 0, 1, 0.0f, 0, 1, FALSE },
    { 2001, 1, 0, 1, 1.0f / 500.0f, 0, 1, FALSE },
    /* q = 3 */
    { 3000, 1000, 1, 0, 1.0f, 1, 0, FALSE },
  };

  check_mode_table (1, 0, ping_pong, G_N_ELEMENTS (ping_pong));
  check_mode_table (1, 999, ping_pong, G_N_ELEMENTS (ping_pong));
}

static void
test_modes_once (void)
{
  static const Expect once[] = {
    { 0, 0, 0, 1, 0.0f, 0, 1, FALSE },
    { 250, 250, 0, 1, 0.5f, 0, 1, FALSE },
    { 999, 999, 1, 0, 499.0f / 500.0f, 1, 0, FALSE },
    /* q > 0 from delta == period on: the last key held, alpha 0 */
    { 1000, 1000, 1, 1, 0.0f, 1, 1, TRUE },
    { 1001, 1000, 1, 1, 0.0f, 1, 1, TRUE },
    { 2000, 1000, 1, 1, 0.0f, 1, 1, TRUE },
    { 0xFFFFFFFFu, 1000, 1, 1, 0.0f, 1, 1, TRUE },
  };

  check_mode_table (2, 0, once, G_N_ELEMENTS (once));
}

static void
test_modes_random (void)
{
  /* r = R % period whatever the time */
  static const struct {
    guint32 random_offset;
    Expect  want;
  } cases[] = {
    { 0, { 0, 0, 0, 1, 0.0f, 0, 1, FALSE } },
    { 250, { 0, 250, 0, 1, 0.5f, 0, 1, FALSE } },
    { 999, { 0, 999, 1, 0, 499.0f / 500.0f, 1, 0, FALSE } },
    { 1000, { 0, 0, 0, 1, 0.0f, 0, 1, FALSE } },
    { 1001, { 0, 1, 0, 1, 1.0f / 500.0f, 0, 1, FALSE } },
    { 2750, { 0, 750, 1, 0, 0.5f, 1, 0, FALSE } },
    /* 4294967295 % 1000 = 295 */
    { 0xFFFFFFFFu, { 0, 295, 0, 1, 295.0f / 500.0f, 0, 1, FALSE } },
  };
  static const guint32 deltas[] = { 0, 1, 250, 999, 1000, 1001, 2000, 0xFFFFFFFFu };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint d = 0; d < G_N_ELEMENTS (deltas); d++)
      {
        Expect want = cases[c].want;

        want.delta = deltas[d];
        check_mode_table (3, cases[c].random_offset, &want, 1);
      }
}

/* Mode 3 keeps no state: every call uses the R it is given. */
static void
test_random_per_call (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult first;
  PhaseEvalResult other;
  PhaseEvalResult again;

  fixture_worked (&fx, 3);
  phase_eval_at_time (&fx.input, 40, 0, 250, &first);
  assert_state (&first, 250, 0, 1, 0.5f, 0, 1, FALSE);
  phase_eval_at_time (&fx.input, 40, 0, 750, &other);
  assert_state (&other, 750, 1, 0, 0.5f, 1, 0, FALSE);
  phase_eval_at_time (&fx.input, 40, 0, 250, &again);
  assert_result_eq (&again, &first);
  /* a different time, the same R: the same result */
  phase_eval_at_time (&fx.input, 987654, 321, 250, &again);
  assert_result_eq (&again, &first);
  /* start does not matter either */
  phase_eval_at_time (&fx.input, 0, 0xFFFFFFFFu, 250, &again);
  assert_result_eq (&again, &first);
  fixture_clear (&fx);
}

static void
test_time_start_and_wraparound (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;

  fixture_worked (&fx, 0);

  /* start is subtracted */
  phase_eval_at_time (&fx.input, 5250, 5000, 0, &res);
  assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);

  /* now < start: delta = 100 + 2^32 - 0xFFFFFF00 = 356 */
  phase_eval_at_time (&fx.input, 100, 0xFFFFFF00u, 0, &res);
  assert_state (&res, 356, 0, 1, 356.0f / 500.0f, 0, 1, FALSE);

  /* delta = 2^32 - 1: 4294967295 % 1000 = 295 */
  phase_eval_at_time (&fx.input, 0, 1, 0, &res);
  assert_state (&res, 295, 0, 1, 295.0f / 500.0f, 0, 1, FALSE);
  fixture_clear (&fx);

  /* ping-pong after the wrap: q = 4294967 is odd, r = 1000 - 295 */
  fixture_worked (&fx, 1);
  phase_eval_at_time (&fx.input, 0, 1, 0, &res);
  assert_state (&res, 705, 1, 0, 205.0f / 500.0f, 1, 0, FALSE);
  fixture_clear (&fx);
}

/* ---- the position alone: phase_eval_position () ---- */

typedef struct {
  guint32  delta;
  guint32  r;
  gboolean hold;
} Position;

static void
check_positions (guint           mode,
                 guint32         period,
                 guint32         random_offset,
                 const Position *want,
                 guint           n_want)
{
  for (guint i = 0; i < n_want; i++)
    {
      gboolean hold = !want[i].hold;
      guint32 r = phase_eval_position (mode, period, want[i].delta, random_offset, &hold);

      if (r != want[i].r || hold != want[i].hold)
        g_error ("mode %u, period %u, R %u, delta %u: r %u (hold %d), expected %u (hold %d)",
                 mode, period, random_offset, want[i].delta, r, hold, want[i].r, want[i].hold);
      /* @hold may be NULL */
      g_assert_cmpuint (phase_eval_position (mode, period, want[i].delta, random_offset, NULL),
                        ==, want[i].r);
    }
}

static void
test_position_boundaries (void)
{
  /* delta = 0, period - 1, period, period + 1, 2 period, 2 period + 1,
   * 3 period, and the uint32 wrap: 4294967295 = 4294967 * 1000 + 295,
   * an odd q */
  static const Position loop[] = {
    { 0, 0, FALSE }, { 999, 999, FALSE }, { 1000, 0, FALSE }, { 1001, 1, FALSE },
    { 2000, 0, FALSE }, { 2001, 1, FALSE }, { 3000, 0, FALSE },
    { 0xFFFFFFFFu, 295, FALSE },
  };
  static const Position ping_pong[] = {
    { 0, 0, FALSE }, { 999, 999, FALSE },
    /* q = 1: reflected; at the turnaround r = period */
    { 1000, 1000, FALSE }, { 1001, 999, FALSE }, { 1999, 1, FALSE },
    /* q = 2: forwards again */
    { 2000, 0, FALSE }, { 2001, 1, FALSE },
    { 3000, 1000, FALSE }, { 3001, 999, FALSE },
    { 0xFFFFFFFFu, 705, FALSE },
  };
  static const Position once[] = {
    { 0, 0, FALSE }, { 999, 999, FALSE },
    /* from the end of the first period on: held at the end */
    { 1000, 1000, TRUE }, { 1001, 1000, TRUE }, { 2000, 1000, TRUE },
    { 2001, 1000, TRUE }, { 0xFFFFFFFFu, 1000, TRUE },
  };
  /* R % period whatever the time */
  static const Position random_250[] = {
    { 0, 250, FALSE }, { 999, 250, FALSE }, { 1000, 250, FALSE }, { 1001, 250, FALSE },
    { 2000, 250, FALSE }, { 2001, 250, FALSE }, { 0xFFFFFFFFu, 250, FALSE },
  };
  static const Position random_big[] = {
    { 0, 295, FALSE }, { 1000, 295, FALSE }, { 2001, 295, FALSE },
  };
  /* the demo's WATER_SURFACE: ping-pong over 3000 ms; 4.633 s in, the way
   * back stands at 1367 ms, not at 1633 */
  static const Position water[] = {
    { 0, 0, FALSE }, { 1633, 1633, FALSE }, { 2999, 2999, FALSE },
    { 3000, 3000, FALSE }, { 3001, 2999, FALSE }, { 4633, 1367, FALSE },
    { 5999, 1, FALSE }, { 6000, 0, FALSE }, { 6001, 1, FALSE },
    { 9000, 3000, FALSE }, { 10633, 1367, FALSE },
    /* 4294967295 = 1431655 * 3000 + 2295, q odd */
    { 0xFFFFFFFFu, 705, FALSE },
  };
  /* a period of 0: static, whatever the mode */
  static const Position still[] = {
    { 0, 0, TRUE }, { 1, 0, TRUE }, { 1000, 0, TRUE }, { 0xFFFFFFFFu, 0, TRUE },
  };
  /* a period of 1: every millisecond is a period */
  static const Position pp_one[] = {
    { 0, 0, FALSE }, { 1, 1, FALSE }, { 2, 0, FALSE }, { 3, 1, FALSE },
    { 0xFFFFFFFFu, 1, FALSE },
  };
  /* the longest period a key can give */
  static const Position pp_max[] = {
    { 65534, 65534, FALSE }, { 65535, 65535, FALSE }, { 65536, 65534, FALSE },
    { 131070, 0, FALSE }, { 131071, 1, FALSE },
    /* 4294967295 = 65537 * 65535: q odd, r 0 -> the turnaround */
    { 0xFFFFFFFFu, 65535, FALSE },
  };

  check_positions (0, 1000, 0, loop, G_N_ELEMENTS (loop));
  check_positions (0, 1000, 777, loop, G_N_ELEMENTS (loop));
  check_positions (1, 1000, 0, ping_pong, G_N_ELEMENTS (ping_pong));
  check_positions (1, 1000, 777, ping_pong, G_N_ELEMENTS (ping_pong));
  check_positions (2, 1000, 0, once, G_N_ELEMENTS (once));
  check_positions (3, 1000, 250, random_250, G_N_ELEMENTS (random_250));
  check_positions (3, 1000, 1250, random_250, G_N_ELEMENTS (random_250));
  check_positions (3, 1000, 0xFFFFFFFFu, random_big, G_N_ELEMENTS (random_big));
  /* unknown modes, and anything past 7 a caller may pass: as loop */
  for (guint mode = 4; mode < 8; mode++)
    check_positions (mode, 1000, 250, loop, G_N_ELEMENTS (loop));
  check_positions (9, 1000, 250, loop, G_N_ELEMENTS (loop));
  check_positions (G_MAXUINT, 1000, 250, loop, G_N_ELEMENTS (loop));
  check_positions (1, 3000, 0, water, G_N_ELEMENTS (water));
  for (guint mode = 0; mode < 8; mode++)
    check_positions (mode, 0, 123, still, G_N_ELEMENTS (still));
  check_positions (1, 1, 0, pp_one, G_N_ELEMENTS (pp_one));
  check_positions (1, 65535, 0, pp_max, G_N_ELEMENTS (pp_max));
}

/* The cycle a time scale shows, and where a time falls on it. */
static void
test_position_cycle (void)
{
  static const struct {
    guint    mode;
    guint32  period;
    guint32  cycle;
  } cycles[] = {
    { 0, 1000, 1000 }, { 1, 1000, 2000 }, { 2, 1000, 1000 }, { 3, 1000, 1000 },
    { 4, 1000, 1000 }, { 7, 1000, 1000 }, { 1, 3000, 6000 },
    { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 },
    { 1, 65535, 131070 }, { 1, 0x7FFFFFFFu, 0xFFFFFFFEu },
    /* no cycle of 2^32: saturated */
    { 1, 0x80000000u, 0xFFFFFFFFu }, { 1, 0xFFFFFFFFu, 0xFFFFFFFFu },
    { 0, 0xFFFFFFFFu, 0xFFFFFFFFu },
  };
  static const struct {
    guint    mode;
    guint32  period;
    guint32  delta;
    guint32  at;
  } times[] = {
    { 0, 1000, 0, 0 }, { 0, 1000, 999, 999 }, { 0, 1000, 1000, 0 }, { 0, 1000, 2001, 1 },
    { 1, 1000, 999, 999 }, { 1, 1000, 1000, 1000 }, { 1, 1000, 1999, 1999 },
    { 1, 1000, 2000, 0 }, { 1, 1000, 2001, 1 }, { 1, 3000, 4633, 4633 },
    { 1, 3000, 10633, 4633 },
    { 2, 1000, 999, 999 }, { 2, 1000, 1000, 1000 }, { 2, 1000, 2001, 1000 },
    { 2, 1000, 0xFFFFFFFFu, 1000 },
    { 3, 1000, 2001, 1 }, { 5, 1000, 2001, 1 },
    { 0, 0, 1234, 0 }, { 1, 0, 1234, 0 }, { 2, 0, 1234, 0 },
    { 0, 1000, 0xFFFFFFFFu, 295 },
    /* 4294967295 = 2147483 * 2000 + 1295 */
    { 1, 1000, 0xFFFFFFFFu, 1295 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cycles); i++)
    g_assert_cmpuint (phase_eval_cycle (cycles[i].mode, cycles[i].period), ==, cycles[i].cycle);
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      guint32 at = phase_eval_cycle_time (times[i].mode, times[i].period, times[i].delta);

      if (at != times[i].at)
        g_error ("mode %u, period %u, delta %u: at %u of the cycle, expected %u",
                 times[i].mode, times[i].period, times[i].delta, at, times[i].at);
      /* the position of a time is the position of its place in the cycle
       * (a scale that shows the cycle shows the same track) */
      g_assert_cmpuint (phase_eval_position (times[i].mode, times[i].period, at, 0, NULL),
                        ==, phase_eval_position (times[i].mode, times[i].period, times[i].delta, 0, NULL));
    }
}

/* The evaluator's r is the position, for every mode, R and delta. */
static void
test_position_is_the_evaluators (void)
{
  static const guint32 deltas[] = {
    0, 1, 499, 500, 999, 1000, 1001, 1500, 1999, 2000, 2001, 3000, 3001,
    0x7FFFFFFFu, 0xFFFFFFFEu, 0xFFFFFFFFu,
  };
  static const guint32 offsets[] = { 0, 250, 999, 1000, 0xFFFFFFFFu };

  for (guint mode = 0; mode < 8; mode++)
    {
      Fixture fx = { 0 };

      fixture_worked (&fx, mode);
      for (guint d = 0; d < G_N_ELEMENTS (deltas); d++)
        for (guint o = 0; o < G_N_ELEMENTS (offsets); o++)
          {
            PhaseEvalResult res;
            gboolean hold;
            guint32 r = phase_eval_position (mode, 1000, deltas[d], offsets[o], &hold);

            /* a start before the wrap: the same delta */
            phase_eval_at_time (&fx.input, deltas[d] - 7u, 0xFFFFFFF9u, offsets[o], &res);
            g_assert_cmpuint (res.r, ==, r);
            g_assert_cmpint (res.hold, ==, hold);
          }
      fixture_clear (&fx);
    }
}

/* ---- normalized ---- */

static void
test_normalized (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  PhaseEvalResult half;
  static const float outside[] = {
    NAN, -NAN, -1.0f, -0x1p-149f, 2.0f, INFINITY, -INFINITY, 1.00000012f,
  };

  fixture_worked (&fx, 2);   /* the mode is ignored: no hold */

  phase_eval_at_t (&fx.input, 0.0f, &res);
  g_assert_cmpuint (res.mode, ==, 2);
  g_assert_cmpuint (res.period, ==, 1000);
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);
  assert_runtime_eq (&res.value, &fx.rt[0]);

  phase_eval_at_t (&fx.input, -0.0f, &res);
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);

  phase_eval_at_t (&fx.input, 0.25f, &res);
  assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);
  assert_float_eq (res.value.f[0], 0.5f);

  phase_eval_at_t (&fx.input, 0.75f, &res);
  assert_state (&res, 750, 1, 0, 0.5f, 1, 0, FALSE);

  /* t = 1: r = period, the last key at alpha 1 */
  phase_eval_at_t (&fx.input, 1.0f, &res);
  assert_state (&res, 1000, 1, 0, 1.0f, 1, 0, FALSE);
  assert_float_eq (res.value.f[0], 0.0f);
  assert_float_eq (res.value.f[3], 1.0f);

  /* just below 1: r = (uint32) (0.99999994f * 1000) = 999 */
  phase_eval_at_t (&fx.input, nextafterf (1.0f, 0.0f), &res);
  assert_state (&res, 999, 1, 0, 499.0f / 500.0f, 1, 0, FALSE);

  /* out of range or NaN: 0.5, r = 500, segment 1 at alpha 0 */
  phase_eval_at_t (&fx.input, 0.5f, &half);
  assert_state (&half, 500, 1, 0, 0.0f, 1, 0, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (outside); i++)
    {
      phase_eval_at_t (&fx.input, outside[i], &res);
      assert_result_eq (&res, &half);
    }
  fixture_clear (&fx);

  /* ping-pong and random are ignored too: t is a position in one period */
  for (guint mode = 0; mode < 8; mode++)
    {
      fixture_worked (&fx, mode);
      phase_eval_at_t (&fx.input, 0.25f, &res);
      g_assert_cmpuint (res.mode, ==, mode);
      g_assert_cmpint (res.unknown_mode, ==, mode >= 4);
      assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);
      phase_eval_at_t (&fx.input, 1.0f, &res);
      assert_state (&res, 1000, 1, 0, 1.0f, 1, 0, FALSE);
      fixture_clear (&fx);
    }

  /* the HLP_RAY_R track: t = 1 ends the last interval, phase 1 -> 0 */
  fixture_hlp_ray (&fx);
  phase_eval_at_t (&fx.input, 1.0f, &res);
  assert_state (&res, 200, 3, 0, 1.0f, 1, 0, FALSE);
  assert_float_eq (res.value.f[4], fx.rt[0].f[4]);
  g_assert_cmpint (res.value.i18, ==, 1);
  phase_eval_at_t (&fx.input, 0.5f, &res);
  assert_state (&res, 100, 2, 3, 0.0f, 2, 1, FALSE);
  fixture_clear (&fx);
}

/* ---- key times that do not increase ---- */

static void
test_keys_not_increasing (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  /* intervals: k0 [0, 100), k1 [100, 50) empty, k2 [50, 300),
   * k3 [300, 300) empty, k4 [300, 400); period 400 */
  static const Mat0Key keys[] = {
    { 0, 100, 0 }, { 1, 50, 0 }, { 2, 300, 0 }, { 3, 300, 0 }, { 4, 400, 0 },
  };

  fixture_keys (&fx, 5, 0x1Fu << 3, keys, G_N_ELEMENTS (keys));

  phase_eval_at_time (&fx.input, 0, 0, 0, &res);
  g_assert_cmpuint (res.period, ==, 400);
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);
  phase_eval_at_time (&fx.input, 49, 0, 0, &res);
  assert_state (&res, 49, 0, 1, 49.0f / 100.0f, 0, 1, FALSE);
  /* 50..99 lie in k0 and k2: the largest k wins */
  phase_eval_at_time (&fx.input, 50, 0, 0, &res);
  assert_state (&res, 50, 2, 3, 0.0f, 2, 3, FALSE);
  phase_eval_at_time (&fx.input, 60, 0, 0, &res);
  assert_state (&res, 60, 2, 3, 10.0f / 250.0f, 2, 3, FALSE);
  {
    PhaseRuntime want;

    expected_blend (&fx.rt[2], &fx.rt[3], 0x1F, 10.0f / 250.0f, &want);
    assert_runtime_eq (&res.value, &want);
  }
  phase_eval_at_time (&fx.input, 100, 0, 0, &res);
  assert_state (&res, 100, 2, 3, 50.0f / 250.0f, 2, 3, FALSE);
  phase_eval_at_time (&fx.input, 299, 0, 0, &res);
  assert_state (&res, 299, 2, 3, 249.0f / 250.0f, 2, 3, FALSE);
  /* k3 is empty: 300 is k4's first moment */
  phase_eval_at_time (&fx.input, 300, 0, 0, &res);
  assert_state (&res, 300, 4, 0, 0.0f, 4, 0, FALSE);
  phase_eval_at_time (&fx.input, 399, 0, 0, &res);
  assert_state (&res, 399, 4, 0, 99.0f / 100.0f, 4, 0, FALSE);
  phase_eval_at_t (&fx.input, 1.0f, &res);
  assert_state (&res, 400, 4, 0, 1.0f, 4, 0, FALSE);
  phase_eval_at_time (&fx.input, 400, 0, 0, &res);
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);
  fixture_clear (&fx);
}

static void
test_keys_zero_times (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  /* key 0 at time 0: its interval [0, 0) is empty */
  static const Mat0Key first[] = { { 1, 0, 0 }, { 0, 100, 0 }, { 2, 200, 0 } };
  /* a time 0 in the middle: k1 [100, 0) empty, k2 [0, 200) covers k0 */
  static const Mat0Key middle[] = { { 0, 100, 0 }, { 1, 0, 0 }, { 2, 200, 0 } };
  /* a last interval that is empty: r == period ends key n-1 all the same */
  static const Mat0Key last[] = { { 0, 100, 0 }, { 1, 200, 0 }, { 2, 200, 0 } };

  fixture_keys (&fx, 3, 0x1Fu << 3, first, G_N_ELEMENTS (first));
  phase_eval_at_time (&fx.input, 0, 0, 0, &res);
  g_assert_cmpuint (res.period, ==, 200);
  assert_state (&res, 0, 1, 2, 0.0f, 0, 2, FALSE);
  phase_eval_at_time (&fx.input, 50, 0, 0, &res);
  assert_state (&res, 50, 1, 2, 0.5f, 0, 2, FALSE);
  phase_eval_at_time (&fx.input, 150, 0, 0, &res);
  assert_state (&res, 150, 2, 0, 0.5f, 2, 1, FALSE);
  phase_eval_at_t (&fx.input, 1.0f, &res);
  assert_state (&res, 200, 2, 0, 1.0f, 2, 1, FALSE);
  fixture_clear (&fx);

  fixture_keys (&fx, 3, 0x1Fu << 3, middle, G_N_ELEMENTS (middle));
  for (guint32 r = 0; r < 200; r += 25)
    {
      phase_eval_at_time (&fx.input, r, 0, 0, &res);
      assert_state (&res, r, 2, 0, (float) r / 200.0f, 2, 0, FALSE);
    }
  fixture_clear (&fx);

  fixture_keys (&fx, 3, 0x1Fu << 3, last, G_N_ELEMENTS (last));
  phase_eval_at_time (&fx.input, 199, 0, 0, &res);
  assert_state (&res, 199, 1, 2, 99.0f / 100.0f, 1, 2, FALSE);
  phase_eval_at_t (&fx.input, 1.0f, &res);
  assert_state (&res, 200, 2, 0, 1.0f, 2, 0, FALSE);
  {
    PhaseRuntime want;

    expected_blend (&fx.rt[2], &fx.rt[0], 0x1F, 1.0f, &want);
    assert_runtime_eq (&res.value, &want);
  }
  fixture_clear (&fx);

  /* ping-pong turnaround over the empty last interval: the same */
  fixture_keys (&fx, 3, (0x1Fu << 3) | 1, last, G_N_ELEMENTS (last));
  phase_eval_at_time (&fx.input, 200, 0, 0, &res);
  assert_state (&res, 200, 2, 0, 1.0f, 2, 0, FALSE);
  fixture_clear (&fx);
}

/* The segment as evaluator.md defines it, found the other way round
 * (scanning up, keeping the last match). */
static gint
reference_segment (const Mat0Key *keys,
                   guint          n,
                   guint32        r,
                   float         *alpha)
{
  gint segment = -1;

  for (guint k = 0; k < n; k++)
    {
      guint32 begin = k > 0 ? keys[k - 1].k1 : 0;
      guint32 end = keys[k].k1;

      if (begin <= r && r < end)
        {
          segment = (gint) k;
          *alpha = (float) (r - begin) / (float) (end - begin);
        }
    }
  if (segment < 0 && r == keys[n - 1].k1)
    {
      segment = (gint) n - 1;
      *alpha = 1.0f;
    }
  return segment;
}

/* Random tracks with repeated, falling and zero times: every mode at
 * every delta of two periods agrees with the definition. */
static void
test_keys_random_tracks (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240611);

  for (guint round = 0; round < 400; round++)
    {
      Fixture fx = { 0 };
      Mat0Key keys[6];
      guint n = (guint) g_rand_int_range (rand, 1, 7);
      guint mode = (guint) g_rand_int_range (rand, 0, 8);
      guint32 mask = (guint32) g_rand_int_range (rand, 0, 32);
      guint32 period;

      for (guint k = 0; k < n; k++)
        {
          keys[k].k0 = (guint16) g_rand_int_range (rand, 0, 4);  /* 3 is past the table */
          keys[k].k1 = (guint16) g_rand_int_range (rand, 0, 40);
          keys[k].k2 = 0;
        }
      fixture_keys (&fx, 3, (mask << 3) | mode, keys, n);
      period = keys[n - 1].k1;

      for (guint32 delta = 0; delta <= 2 * period + 1; delta++)
        {
          PhaseEvalResult res;
          guint32 random_offset = delta * 7919u + round;
          guint32 q = period > 0 ? delta / period : 0;
          guint32 r = period > 0 ? delta % period : 0;
          gboolean bad = FALSE;
          float alpha = 0.0f;
          gint segment;
          gint next;
          guint a;
          guint b;
          PhaseRuntime want;

          phase_eval_at_time (&fx.input, delta, 0, random_offset, &res);
          g_assert_cmpuint (res.period, ==, period);
          g_assert_cmpuint (res.mode, ==, mode);
          g_assert_cmpuint (res.r, ==, phase_eval_position (mode, period, delta, random_offset, NULL));

          if (period == 0)
            {
              a = keys[0].k0 < 3 ? keys[0].k0 : 2;
              assert_state (&res, 0, 0, 0, 0.0f, (gint) a, (gint) a, TRUE);
              g_assert_cmpint (res.bad_key, ==, keys[0].k0 >= 3);
              assert_runtime_eq (&res.value, &fx.rt[a]);
              continue;
            }

          if (mode == 1 && (q & 1))
            r = period - r;
          else if (mode == 3)
            r = random_offset % period;
          else if (mode == 2 && q > 0)
            {
              a = keys[n - 1].k0 < 3 ? keys[n - 1].k0 : 2;
              assert_state (&res, period, (gint) n - 1, (gint) n - 1, 0.0f,
                            (gint) a, (gint) a, TRUE);
              assert_runtime_eq (&res.value, &fx.rt[a]);
              continue;
            }

          segment = reference_segment (keys, n, r, &alpha);
          g_assert_cmpint (segment, >=, 0);
          next = segment + 1 < (gint) n ? segment + 1 : 0;
          a = keys[segment].k0;
          b = keys[next].k0;
          if (a >= 3 || b >= 3)
            bad = TRUE;
          a = MIN (a, 2u);
          b = MIN (b, 2u);
          assert_state (&res, r, segment, next, alpha, (gint) a, (gint) b, FALSE);
          g_assert_cmpint (res.bad_key, ==, bad);
          g_assert_cmpuint (res.r, <=, period);
          expected_blend (&fx.rt[a], &fx.rt[b], mask, alpha, &want);
          assert_runtime_eq (&res.value, &want);
        }
      fixture_clear (&fx);
    }
}

static void
test_single_key (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  static const Mat0Key one[] = { { 1, 300, 0 } };
  static const Mat0Key zero[] = { { 1, 0, 0 } };

  fixture_keys (&fx, 2, 0x1Fu << 3, one, 1);
  phase_eval_at_time (&fx.input, 150, 0, 0, &res);
  g_assert_cmpuint (res.period, ==, 300);
  assert_state (&res, 150, 0, 0, 0.5f, 1, 1, FALSE);
  assert_runtime_eq (&res.value, &fx.rt[1]);   /* A + (A - A) * a = A */
  phase_eval_at_t (&fx.input, 1.0f, &res);
  assert_state (&res, 300, 0, 0, 1.0f, 1, 1, FALSE);
  assert_runtime_eq (&res.value, &fx.rt[1]);
  fixture_clear (&fx);

  /* a single key at time 0: period 0, held */
  fixture_keys (&fx, 2, 0x1Fu << 3, zero, 1);
  phase_eval_at_time (&fx.input, 150, 0, 0, &res);
  g_assert_cmpuint (res.period, ==, 0);
  assert_state (&res, 0, 0, 0, 0.0f, 1, 1, TRUE);
  assert_runtime_eq (&res.value, &fx.rt[1]);
  fixture_clear (&fx);
}

/* Period 0 (the last key's time is 0): key 0's phase, alpha 0, held */
static void
test_zero_period (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  static const Mat0Key zeros[] = { { 2, 0, 0 }, { 0, 0, 0 } };
  /* earlier keys have times; the last has none: still period 0 */
  static const Mat0Key last_zero[] = { { 2, 100, 0 }, { 1, 200, 0 }, { 0, 0, 0 } };

  for (guint mode = 0; mode < 8; mode++)
    {
      fixture_keys (&fx, 3, (0x1Fu << 3) | mode, zeros, 2);
      phase_eval_at_time (&fx.input, 12345, 0, 7, &res);
      g_assert_cmpuint (res.mode, ==, mode);
      g_assert_cmpuint (res.period, ==, 0);
      g_assert_cmpint (res.unknown_mode, ==, mode >= 4);
      assert_state (&res, 0, 0, 0, 0.0f, 2, 2, TRUE);
      assert_runtime_eq (&res.value, &fx.rt[2]);
      g_assert_false (res.bad_key);

      phase_eval_at_t (&fx.input, 0.3f, &res);
      assert_state (&res, 0, 0, 0, 0.0f, 2, 2, TRUE);
      assert_runtime_eq (&res.value, &fx.rt[2]);
      phase_eval_at_t (&fx.input, 1.0f, &res);
      assert_state (&res, 0, 0, 0, 0.0f, 2, 2, TRUE);
      fixture_clear (&fx);
    }

  fixture_keys (&fx, 3, 0x1Fu << 3, last_zero, 3);
  phase_eval_at_time (&fx.input, 150, 0, 0, &res);
  g_assert_cmpuint (res.period, ==, 0);
  assert_state (&res, 0, 0, 0, 0.0f, 2, 2, TRUE);
  assert_runtime_eq (&res.value, &fx.rt[2]);
  fixture_clear (&fx);
}

static void
test_bad_key (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  static const Mat0Key keys[] = { { 5, 100, 0 }, { 0, 200, 0 }, { 0xFFFF, 300, 0 } };
  static const Mat0Key zero[] = { { 9, 0, 0 } };
  static const Mat0Key good[] = { { 0, 100, 0 }, { 1, 200, 0 } };
  static const Mat0Key last_bad[] = { { 0, 100, 0 }, { 2, 200, 0 } };

  fixture_keys (&fx, 2, 0x02u << 3, keys, 3);

  /* key 0 points past the table: the last phase (1) */
  phase_eval_at_time (&fx.input, 50, 0, 0, &res);
  assert_state (&res, 50, 0, 1, 0.5f, 1, 0, FALSE);
  g_assert_true (res.bad_key);

  /* key 1 -> key 2 (bad as B) */
  phase_eval_at_time (&fx.input, 150, 0, 0, &res);
  assert_state (&res, 150, 1, 2, 0.5f, 0, 1, FALSE);
  g_assert_true (res.bad_key);

  /* key 2 -> key 0, both bad */
  phase_eval_at_time (&fx.input, 250, 0, 0, &res);
  assert_state (&res, 250, 2, 0, 0.5f, 1, 1, FALSE);
  g_assert_true (res.bad_key);
  assert_runtime_eq (&res.value, &fx.rt[1]);
  fixture_clear (&fx);

  /* good keys: no flag */
  fixture_keys (&fx, 2, 0, good, 2);
  phase_eval_at_time (&fx.input, 150, 0, 0, &res);
  g_assert_false (res.bad_key);
  fixture_clear (&fx);

  /* once, held at a bad last key: the last phase */
  fixture_keys (&fx, 2, 2, last_bad, 2);
  phase_eval_at_time (&fx.input, 50, 0, 0, &res);
  assert_state (&res, 50, 0, 1, 0.5f, 0, 1, FALSE);
  g_assert_true (res.bad_key);
  phase_eval_at_time (&fx.input, 5000, 0, 0, &res);
  assert_state (&res, 200, 1, 1, 0.0f, 1, 1, TRUE);
  g_assert_true (res.bad_key);
  assert_runtime_eq (&res.value, &fx.rt[1]);
  fixture_clear (&fx);

  /* a zero period with a bad key */
  fixture_keys (&fx, 2, 0, zero, 1);
  phase_eval_at_time (&fx.input, 0, 0, 0, &res);
  assert_state (&res, 0, 0, 0, 0.0f, 1, 1, TRUE);
  g_assert_true (res.bad_key);
  assert_runtime_eq (&res.value, &fx.rt[1]);
  fixture_clear (&fx);
}

static void
test_no_phases (void)
{
  Mat0Key keys[] = { { 0, 100, 0 } };
  Mat0Block block = { 0x05u | (0x1Fu << 3), 1, keys };
  PhaseEvalInput input = { NULL, 0, &block, 0 };
  PhaseEvalInput none = { NULL, 0, NULL, 3 };
  PhaseEvalResult res;

  phase_eval_at_time (&input, 50, 0, 0, &res);
  for (guint i = 0; i < 16; i++)
    assert_float_eq (res.value.f[i], 0.0f);
  assert_float_eq (res.value.power, 0.0f);
  g_assert_cmpint (res.value.tex_slot, ==, -1);
  g_assert_cmpint (res.value.i18, ==, -1);
  g_assert_cmpint (res.phase_a, ==, -1);
  g_assert_cmpint (res.phase_b, ==, -1);
  g_assert_cmpint (res.segment, ==, -1);
  g_assert_cmpint (res.next, ==, -1);
  g_assert_true (res.bad_key);
  g_assert_true (res.hold);
  g_assert_cmpuint (res.mode, ==, 5);
  g_assert_true (res.unknown_mode);
  g_assert_cmpuint (res.period, ==, 100);

  phase_eval_at_t (&none, 0.5f, &res);
  g_assert_cmpint (res.value.tex_slot, ==, -1);
  g_assert_cmpint (res.value.i18, ==, -1);
  g_assert_cmpint (res.phase_a, ==, -1);
  g_assert_cmpint (res.phase_b, ==, -1);
  g_assert_true (res.bad_key);
  g_assert_cmpuint (res.mode, ==, 0);
  g_assert_cmpuint (res.period, ==, 0);
}

static void
test_static_phase (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;

  fixture_keys (&fx, 3, 0, NULL, 0);
  g_assert_cmpuint (fx.material->blocks[0].n_keys, ==, 0);

  /* no block */
  fx.input.block = NULL;
  fx.input.static_phase = 1;
  phase_eval_at_time (&fx.input, 777, 0, 0, &res);
  assert_state (&res, 0, -1, -1, 0.0f, 1, 1, TRUE);
  g_assert_cmpuint (res.mode, ==, 0);
  g_assert_cmpuint (res.period, ==, 0);
  g_assert_false (res.bad_key);
  g_assert_false (res.unknown_mode);
  assert_runtime_eq (&res.value, &fx.rt[1]);
  g_assert_cmpint (res.value.tex_slot, ==, 1);
  g_assert_cmpint (res.value.i18, ==, 10 + 40 + 17);

  phase_eval_at_t (&fx.input, 0.5f, &res);
  assert_state (&res, 0, -1, -1, 0.0f, 1, 1, TRUE);
  assert_runtime_eq (&res.value, &fx.rt[1]);

  /* a block without keys: the static phase, the block's mode */
  fx.input.block = &fx.material->blocks[0];
  fx.material->blocks[0].header_raw = 6;
  fx.input.static_phase = 2;
  phase_eval_at_time (&fx.input, 777, 0, 0, &res);
  assert_state (&res, 0, -1, -1, 0.0f, 2, 2, TRUE);
  g_assert_cmpuint (res.mode, ==, 6);
  g_assert_cmpuint (res.period, ==, 0);
  g_assert_true (res.unknown_mode);
  assert_runtime_eq (&res.value, &fx.rt[2]);

  /* clamped like a key */
  fx.input.static_phase = 99;
  phase_eval_at_time (&fx.input, 0, 0, 0, &res);
  assert_state (&res, 0, -1, -1, 0.0f, 2, 2, TRUE);
  g_assert_true (res.bad_key);
  assert_runtime_eq (&res.value, &fx.rt[2]);
  fixture_clear (&fx);
}

/* ---- interpMask: each bit blends only its fields ---- */

static void
test_interp_bits (void)
{
  static const guint32 masks[] = {
    0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F, 0x15, 0x0A,
    0x1FFFFFFF,     /* every bit, unknown ones included */
    0x1FFFFFE0,     /* only unknown bits: nothing blends */
  };
  static const Mat0Key keys[] = { { 1, 400, 0 }, { 0, 800, 0 } };

  for (guint m = 0; m < G_N_ELEMENTS (masks); m++)
    {
      Fixture fx = { 0 };
      PhaseEvalResult res;
      PhaseRuntime want;

      fixture_keys (&fx, 2, masks[m] << 3, keys, 2);

      /* delta 100: segment 0, alpha 0.25, phase 1 (textured) -> phase 0 */
      phase_eval_at_time (&fx.input, 100, 0, 0, &res);
      assert_state (&res, 100, 0, 1, 0.25f, 1, 0, FALSE);
      expected_blend (&fx.rt[1], &fx.rt[0], masks[m], 0.25f, &want);
      assert_runtime_eq (&res.value, &want);

      /* never blended: copied from A */
      assert_float_eq (res.value.f[3], fx.rt[1].f[3]);
      assert_float_eq (res.value.f[11], fx.rt[1].f[11]);
      assert_float_eq (res.value.f[15], fx.rt[1].f[15]);
      assert_float_eq (res.value.power, fx.rt[1].power);
      g_assert_cmpint (res.value.tex_slot, ==, 1);
      g_assert_cmpint (res.value.i18, ==, 67);

      for (guint f = 0; f < 16; f++)
        {
          gboolean changed = float_bits (res.value.f[f]) != float_bits (fx.rt[1].f[f]);
          gboolean in_mask =
            ((masks[m] & 0x01) && f >= 4 && f <= 6) ||
            ((masks[m] & 0x02) && f <= 2) ||
            ((masks[m] & 0x04) && f >= 8 && f <= 10) ||
            ((masks[m] & 0x08) && f >= 12 && f <= 14) ||
            ((masks[m] & 0x10) && f == 7);

          /* phases differ in every byte, so blended fields move */
          g_assert_cmpint (changed, ==, in_mask);
        }

      fixture_clear (&fx);
    }
}

static void
test_interp_exact_values (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  static const Mat0Key keys[] = { { 0, 400, 0 }, { 1, 800, 0 } };

  /* phase 0 p[j] = 10 + j, phase 1 p[j] = 50 + j; alpha 0.25 */
  fixture_keys (&fx, 2, 0x1Fu << 3, keys, 2);
  phase_eval_at_time (&fx.input, 100, 0, 0, &res);
  assert_state (&res, 100, 0, 1, 0.25f, 0, 1, FALSE);

  /* diffuse R: p[4] 14 -> 54 */
  assert_float_eq (res.value.f[0], 14.0f / 255.0f + (54.0f / 255.0f - 14.0f / 255.0f) * 0.25f);
  /* ambient A: p[3] 13 -> 53, scaled by 0.01 */
  assert_float_eq (res.value.f[7], 13.0f * 0.01f + (53.0f * 0.01f - 13.0f * 0.01f) * 0.25f);
  /* diffuse A: copied, p[7] = 17 */
  assert_float_eq (res.value.f[3], 17.0f / 255.0f);
  /* power: p[16] = 26 from A */
  assert_float_eq (res.value.power, 26.0f);
  fixture_clear (&fx);
}

/* ---- the largest period a u16 time allows ---- */

static void
test_max_period (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  static const Mat0Key keys[] = { { 0, 65534, 0 }, { 1, 65535, 0 } };

  fixture_keys (&fx, 2, 0x02u << 3, keys, 2);

  phase_eval_at_t (&fx.input, 1.0f, &res);
  g_assert_cmpuint (res.period, ==, 65535);
  assert_state (&res, 65535, 1, 0, 1.0f, 1, 0, FALSE);

  /* 0.5 * 65535 = 32767.5: r = 32767 */
  phase_eval_at_t (&fx.input, 0.5f, &res);
  assert_state (&res, 32767, 0, 1, 32767.0f / 65534.0f, 0, 1, FALSE);

  /* just below 1: 65534.996: r = 65534, the last key at alpha 0 */
  phase_eval_at_t (&fx.input, nextafterf (1.0f, 0.0f), &res);
  assert_state (&res, 65534, 1, 0, 0.0f, 1, 0, FALSE);

  /* 2^32 - 1 = 65535 * 65537: r = 0, q = 65537 */
  phase_eval_at_time (&fx.input, 0xFFFFFFFFu, 0, 0, &res);
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);
  phase_eval_at_time (&fx.input, 0xFFFFFFFEu, 0, 0, &res);
  assert_state (&res, 65534, 1, 0, 0.0f, 1, 0, FALSE);
  fixture_clear (&fx);

  /* ping-pong: q = 65537 is odd, r = period */
  fixture_keys (&fx, 2, (0x02u << 3) | 1, keys, 2);
  phase_eval_at_time (&fx.input, 0xFFFFFFFFu, 0, 0, &res);
  assert_state (&res, 65535, 1, 0, 1.0f, 1, 0, FALSE);
  fixture_clear (&fx);

  /* random: R = 2^32 - 2 gives 65534 */
  fixture_keys (&fx, 2, (0x02u << 3) | 3, keys, 2);
  phase_eval_at_time (&fx.input, 5, 0, 0xFFFFFFFEu, &res);
  assert_state (&res, 65534, 1, 0, 0.0f, 1, 0, FALSE);
  fixture_clear (&fx);
}

/* 65535 keys of 65535 ms: every r lands in the last key, the others are
 * empty intervals */
static void
test_many_keys (void)
{
  g_autofree Mat0Key *keys = g_new0 (Mat0Key, 65535);
  PhaseRuntime rt[2];
  Mat0Phase phases[2] = { 0 };
  Mat0Block block = { 0x02u << 3, 65535, keys };
  PhaseEvalInput input = { rt, 2, &block, 0 };
  PhaseEvalResult res;

  for (guint k = 0; k < 65535; k++)
    {
      keys[k].k0 = k & 1;
      keys[k].k1 = (guint16) (k + 1);
    }
  phases[1].p[4] = 255;
  phase_eval_expand (&phases[0], 0, &rt[0]);
  phase_eval_expand (&phases[1], 1, &rt[1]);
  g_assert_cmpuint (mat0_block_period (&block), ==, 65535);

  /* r = 40000: key 40000 ([40000, 40001)) at alpha 0 */
  phase_eval_at_time (&input, 40000, 0, 0, &res);
  assert_state (&res, 40000, 40000, 40001, 0.0f, 0, 1, FALSE);
  phase_eval_at_t (&input, 1.0f, &res);
  assert_state (&res, 65535, 65534, 0, 1.0f, 0, 0, FALSE);

  for (guint k = 0; k < 65535; k++)
    keys[k].k1 = 65535;
  phase_eval_at_time (&input, 40000, 0, 0, &res);
  assert_state (&res, 40000, 0, 1, 40000.0f / 65535.0f, 0, 1, FALSE);
  phase_eval_at_t (&input, 1.0f, &res);
  assert_state (&res, 65535, 65534, 0, 1.0f, 0, 0, FALSE);
}

static void
test_mode_names (void)
{
  g_assert_cmpstr (phase_eval_mode_name (0), ==, "loop");
  g_assert_cmpstr (phase_eval_mode_name (1), ==, "ping-pong");
  g_assert_cmpstr (phase_eval_mode_name (2), ==, "once");
  g_assert_cmpstr (phase_eval_mode_name (3), ==, "random");
  for (guint m = 4; m < 8; m++)
    g_assert_cmpstr (phase_eval_mode_name (m), ==, "unknown");
  /* the mode is headerRaw & 7 */
  g_assert_cmpstr (phase_eval_mode_name (8), ==, "loop");
  g_assert_cmpstr (phase_eval_mode_name (1001), ==, "ping-pong");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/phase-eval/expand/constants", test_expand_constants);
  g_test_add_func ("/core/phase-eval/expand/every-byte", test_expand_every_byte);
  g_test_add_func ("/core/phase-eval/expand/texture", test_expand_texture);
  g_test_add_func ("/core/phase-eval/expand/material", test_expand_material);
  g_test_add_func ("/core/phase-eval/worked-example", test_worked_example);
  g_test_add_func ("/core/phase-eval/worked-hlp-ray", test_worked_hlp_ray);
  g_test_add_func ("/core/phase-eval/modes/loop", test_modes_loop);
  g_test_add_func ("/core/phase-eval/modes/ping-pong", test_modes_ping_pong);
  g_test_add_func ("/core/phase-eval/modes/once", test_modes_once);
  g_test_add_func ("/core/phase-eval/modes/random", test_modes_random);
  g_test_add_func ("/core/phase-eval/modes/random-per-call", test_random_per_call);
  g_test_add_func ("/core/phase-eval/time/start-and-wraparound", test_time_start_and_wraparound);
  g_test_add_func ("/core/phase-eval/position/boundaries", test_position_boundaries);
  g_test_add_func ("/core/phase-eval/position/cycle", test_position_cycle);
  g_test_add_func ("/core/phase-eval/position/is-the-evaluators", test_position_is_the_evaluators);
  g_test_add_func ("/core/phase-eval/normalized", test_normalized);
  g_test_add_func ("/core/phase-eval/keys/not-increasing", test_keys_not_increasing);
  g_test_add_func ("/core/phase-eval/keys/zero-times", test_keys_zero_times);
  g_test_add_func ("/core/phase-eval/keys/random-tracks", test_keys_random_tracks);
  g_test_add_func ("/core/phase-eval/keys/single", test_single_key);
  g_test_add_func ("/core/phase-eval/keys/zero-period", test_zero_period);
  g_test_add_func ("/core/phase-eval/keys/bad-k0", test_bad_key);
  g_test_add_func ("/core/phase-eval/no-phases", test_no_phases);
  g_test_add_func ("/core/phase-eval/static-phase", test_static_phase);
  g_test_add_func ("/core/phase-eval/interp/bits", test_interp_bits);
  g_test_add_func ("/core/phase-eval/interp/exact-values", test_interp_exact_values);
  g_test_add_func ("/core/phase-eval/max-period", test_max_period);
  g_test_add_func ("/core/phase-eval/many-keys", test_many_keys);
  g_test_add_func ("/core/phase-eval/mode-names", test_mode_names);

  return g_test_run ();
}
