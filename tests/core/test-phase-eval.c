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

static void
fixture_worked (Fixture *fx, guint mode)
{
  g_autoptr(GBytes) payload = test_worked_example_payload (mode);

  fixture_from_payload (fx, payload);
}

static void
fixture_clear (Fixture *fx)
{
  g_clear_pointer (&fx->material, mat0_material_free);
}

/* A block over phases 0..n-1 whose p bytes are all distinct: phase i has
 * p[j] = 10 + 40 * i + j; phase 1 is textured (tex_slot 1, p[17] = 51). */
static void
fixture_keys (Fixture       *fx,
              guint          n_phases,
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
    {
      guint8 p[18];

      for (guint j = 0; j < 18; j++)
        p[j] = (guint8) (10 + 40 * i + j);
      test_put_phase (a, p, i == 1 ? "ROCK.0" : "");
    }
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

/* The value blended by @mask from @a to @b, computed field by field. */
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

/* ---- the worked example of evaluator.md ---- */

static void
test_worked_example (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;

  fixture_worked (&fx, 0);
  g_assert_cmpuint (fx.input.n_phases, ==, 2);

  /* delta 250: segment 0, alpha 0.5, phase 0 -> 1; f3 from phase 0 */
  phase_eval_at_time (&fx.input, 250, 0, 0, &res);
  assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);
  g_assert_cmpuint (res.period, ==, 1000);
  g_assert_cmpuint (res.mode, ==, 0);
  g_assert_false (res.unknown_mode);
  g_assert_false (res.bad_key);
  assert_float_eq (res.value.f[0], 0.5f);
  assert_float_eq (res.value.f[1], 0.5f);
  assert_float_eq (res.value.f[2], 0.5f);
  assert_float_eq (res.value.f[3], 0.0f);
  g_assert_cmpint (res.value.tex_slot, ==, -1);
  g_assert_cmpint (res.value.i18, ==, -1);

  /* delta 750: segment 1, alpha 0.5, phase 1 -> 0 (the loop closes) */
  phase_eval_at_time (&fx.input, 750, 0, 0, &res);
  assert_state (&res, 750, 1, 0, 0.5f, 1, 0, FALSE);
  assert_float_eq (res.value.f[0], 0.5f);
  assert_float_eq (res.value.f[1], 0.5f);
  assert_float_eq (res.value.f[2], 0.5f);
  assert_float_eq (res.value.f[3], 1.0f);

  /* delta 1250: the same as 250 */
  {
    PhaseEvalResult at250;

    phase_eval_at_time (&fx.input, 250, 0, 0, &at250);
    phase_eval_at_time (&fx.input, 1250, 0, 0, &res);
    g_assert_cmpmem (&res, sizeof res, &at250, sizeof at250);
  }
  fixture_clear (&fx);

  /* mode 1 at 1250: q = 1 is odd, r = 750: as loop at 750 */
  fixture_worked (&fx, 1);
  phase_eval_at_time (&fx.input, 1250, 0, 0, &res);
  g_assert_cmpuint (res.mode, ==, 1);
  assert_state (&res, 750, 1, 0, 0.5f, 1, 0, FALSE);
  assert_float_eq (res.value.f[0], 0.5f);
  assert_float_eq (res.value.f[3], 1.0f);
  fixture_clear (&fx);

  /* mode 2 at 1250: held at the last key, phase 1, f0 = 1.0 */
  fixture_worked (&fx, 2);
  phase_eval_at_time (&fx.input, 1250, 0, 0, &res);
  g_assert_cmpuint (res.mode, ==, 2);
  assert_state (&res, 1000, 1, 1, 0.0f, 1, 1, TRUE);
  assert_float_eq (res.value.f[0], 1.0f);
  assert_float_eq (res.value.f[3], 1.0f);
  assert_runtime_eq (&res.value, &fx.rt[1]);
  fixture_clear (&fx);
}

/* ---- game time ---- */

static void
test_time_boundaries (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;

  fixture_worked (&fx, 0);

  phase_eval_at_time (&fx.input, 0, 0, 0, &res);
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);
  assert_runtime_eq (&res.value, &fx.rt[0]);

  phase_eval_at_time (&fx.input, 500, 0, 0, &res);
  assert_state (&res, 500, 1, 0, 0.0f, 1, 0, FALSE);
  assert_runtime_eq (&res.value, &fx.rt[1]);

  phase_eval_at_time (&fx.input, 999, 0, 0, &res);
  assert_state (&res, 999, 1, 0, 499.0f / 500.0f, 1, 0, FALSE);
  assert_float_eq (res.value.f[0], 1.0f + (0.0f - 1.0f) * (499.0f / 500.0f));

  /* loop: delta == cycle is r = 0 again */
  phase_eval_at_time (&fx.input, 1000, 0, 0, &res);
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);

  /* start is subtracted */
  phase_eval_at_time (&fx.input, 5250, 5000, 0, &res);
  assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);
  fixture_clear (&fx);
}

static void
test_time_wraparound (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;

  fixture_worked (&fx, 0);

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

static void
test_time_ping_pong (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;

  fixture_worked (&fx, 1);

  /* q = 0: forward */
  phase_eval_at_time (&fx.input, 250, 0, 0, &res);
  assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);

  /* delta == cycle: q = 1, r = 0 -> r = cycle: the last non-zero key at
   * alpha 1, blending to key 0's phase */
  phase_eval_at_time (&fx.input, 1000, 0, 0, &res);
  assert_state (&res, 1000, 1, 0, 1.0f, 1, 0, FALSE);
  assert_float_eq (res.value.f[0], 0.0f);
  assert_float_eq (res.value.f[3], 1.0f);   /* diffuse A from phase 1 */

  phase_eval_at_time (&fx.input, 1999, 0, 0, &res);
  assert_state (&res, 1, 0, 1, 1.0f / 500.0f, 0, 1, FALSE);

  /* q = 2: forward again */
  phase_eval_at_time (&fx.input, 2000, 0, 0, &res);
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);
  phase_eval_at_time (&fx.input, 2250, 0, 0, &res);
  assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);

  /* q = 3 */
  phase_eval_at_time (&fx.input, 3000, 0, 0, &res);
  assert_state (&res, 1000, 1, 0, 1.0f, 1, 0, FALSE);
  fixture_clear (&fx);
}

static void
test_time_one_shot (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;

  fixture_worked (&fx, 2);

  phase_eval_at_time (&fx.input, 250, 0, 0, &res);
  assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);
  phase_eval_at_time (&fx.input, 999, 0, 0, &res);
  assert_state (&res, 999, 1, 0, 499.0f / 500.0f, 1, 0, FALSE);

  /* q > 0 from delta == cycle on: hold the last key */
  phase_eval_at_time (&fx.input, 1000, 0, 0, &res);
  assert_state (&res, 1000, 1, 1, 0.0f, 1, 1, TRUE);
  assert_runtime_eq (&res.value, &fx.rt[1]);
  phase_eval_at_time (&fx.input, 0xFFFFFFFFu, 0, 0, &res);
  assert_state (&res, 1000, 1, 1, 0.0f, 1, 1, TRUE);
  fixture_clear (&fx);
}

static void
test_time_random (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;

  fixture_worked (&fx, 3);

  /* r = (delta + R) % cycle */
  phase_eval_at_time (&fx.input, 100, 0, 300, &res);
  g_assert_cmpuint (res.mode, ==, 3);
  assert_state (&res, 400, 0, 1, 400.0f / 500.0f, 0, 1, FALSE);

  phase_eval_at_time (&fx.input, 100, 0, 650, &res);
  assert_state (&res, 750, 1, 0, 0.5f, 1, 0, FALSE);

  /* R = 0: as loop */
  phase_eval_at_time (&fx.input, 1250, 0, 0, &res);
  assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);

  /* delta + R wraps in 32 bits: (0xFFFFFFFF + 2) mod 2^32 = 1 */
  phase_eval_at_time (&fx.input, 0xFFFFFFFFu, 0, 2, &res);
  assert_state (&res, 1, 0, 1, 1.0f / 500.0f, 0, 1, FALSE);

  /* R is ignored by the other modes */
  fixture_clear (&fx);
  fixture_worked (&fx, 0);
  phase_eval_at_time (&fx.input, 100, 0, 300, &res);
  assert_state (&res, 100, 0, 1, 100.0f / 500.0f, 0, 1, FALSE);
  fixture_clear (&fx);
}

static void
test_time_unknown_modes (void)
{
  for (guint mode = 4; mode < 8; mode++)
    {
      Fixture fx = { 0 };
      PhaseEvalResult res;

      fixture_worked (&fx, mode);
      phase_eval_at_time (&fx.input, 1250, 0, 300, &res);
      g_assert_cmpuint (res.mode, ==, mode);
      g_assert_true (res.unknown_mode);
      assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);

      phase_eval_at_t (&fx.input, 0.75f, &res);
      g_assert_cmpuint (res.mode, ==, mode);
      g_assert_true (res.unknown_mode);
      assert_state (&res, 750, 1, 0, 0.5f, 1, 0, FALSE);
      fixture_clear (&fx);
    }

  for (guint mode = 0; mode < 4; mode++)
    {
      Fixture fx = { 0 };
      PhaseEvalResult res;

      fixture_worked (&fx, mode);
      phase_eval_at_time (&fx.input, 10, 0, 0, &res);
      g_assert_false (res.unknown_mode);
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

  fixture_worked (&fx, 2);   /* the mode is ignored: no hold */

  phase_eval_at_t (&fx.input, 0.0f, &res);
  g_assert_cmpuint (res.mode, ==, 2);
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);

  phase_eval_at_t (&fx.input, -0.0f, &res);
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);

  phase_eval_at_t (&fx.input, 0.25f, &res);
  assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);
  assert_float_eq (res.value.f[0], 0.5f);

  /* t = 1: r = cycle, the last non-zero key at alpha 1 */
  phase_eval_at_t (&fx.input, 1.0f, &res);
  assert_state (&res, 1000, 1, 0, 1.0f, 1, 0, FALSE);
  assert_float_eq (res.value.f[0], 0.0f);
  assert_float_eq (res.value.f[3], 1.0f);

  /* out of range: 0.5 */
  phase_eval_at_t (&fx.input, 0.5f, &half);
  assert_state (&half, 500, 1, 0, 0.0f, 1, 0, FALSE);
  phase_eval_at_t (&fx.input, NAN, &res);
  g_assert_cmpmem (&res, sizeof res, &half, sizeof half);
  phase_eval_at_t (&fx.input, -1.0f, &res);
  g_assert_cmpmem (&res, sizeof res, &half, sizeof half);
  phase_eval_at_t (&fx.input, 2.0f, &res);
  g_assert_cmpmem (&res, sizeof res, &half, sizeof half);
  phase_eval_at_t (&fx.input, INFINITY, &res);
  g_assert_cmpmem (&res, sizeof res, &half, sizeof half);
  phase_eval_at_t (&fx.input, -INFINITY, &res);
  g_assert_cmpmem (&res, sizeof res, &half, sizeof half);
  phase_eval_at_t (&fx.input, nextafterf (1.0f, 2.0f), &res);
  g_assert_cmpmem (&res, sizeof res, &half, sizeof half);

  /* just below 1: r = (uint32) (0.99999994f * 1000) = 999 */
  phase_eval_at_t (&fx.input, nextafterf (1.0f, 0.0f), &res);
  assert_state (&res, 999, 1, 0, 499.0f / 500.0f, 1, 0, FALSE);
  fixture_clear (&fx);

  /* ping-pong is ignored too */
  fixture_worked (&fx, 1);
  phase_eval_at_t (&fx.input, 0.25f, &res);
  assert_state (&res, 250, 0, 1, 0.5f, 0, 1, FALSE);
  fixture_clear (&fx);
}

/* ---- keys ---- */

static void
test_zero_duration_keys (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  /* a zero-duration key in the middle and at the end: cycle 200 */
  static const Mat0Key keys[] = { { 0, 100, 0 }, { 1, 0, 0 }, { 2, 100, 0 }, { 3, 0, 0 } };
  static const Mat0Key first[] = { { 1, 0, 0 }, { 0, 100, 0 }, { 2, 100, 0 } };

  fixture_keys (&fx, 4, 0x1Fu << 3, keys, G_N_ELEMENTS (keys));

  phase_eval_at_time (&fx.input, 0, 0, 0, &res);
  g_assert_cmpuint (res.period, ==, 200);
  /* segment 0 blends into the zero-duration key 1 */
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);
  phase_eval_at_time (&fx.input, 50, 0, 0, &res);
  assert_state (&res, 50, 0, 1, 0.5f, 0, 1, FALSE);
  /* key 1 is never selected */
  phase_eval_at_time (&fx.input, 100, 0, 0, &res);
  assert_state (&res, 100, 2, 3, 0.0f, 2, 3, FALSE);
  phase_eval_at_time (&fx.input, 199, 0, 0, &res);
  assert_state (&res, 199, 2, 3, 99.0f / 100.0f, 2, 3, FALSE);
  /* r == cycle: the last key with a duration (2), not 3 */
  phase_eval_at_t (&fx.input, 1.0f, &res);
  assert_state (&res, 200, 2, 3, 1.0f, 2, 3, FALSE);
  {
    PhaseRuntime want;

    expected_blend (&fx.rt[2], &fx.rt[3], 0x1F, 1.0f, &want);
    assert_runtime_eq (&res.value, &want);
  }
  /* loop: 200 is 0 again */
  phase_eval_at_time (&fx.input, 200, 0, 0, &res);
  assert_state (&res, 0, 0, 1, 0.0f, 0, 1, FALSE);
  fixture_clear (&fx);

  /* a zero-duration first key */
  fixture_keys (&fx, 3, 0, first, G_N_ELEMENTS (first));
  phase_eval_at_time (&fx.input, 0, 0, 0, &res);
  assert_state (&res, 0, 1, 2, 0.0f, 0, 2, FALSE);
  phase_eval_at_time (&fx.input, 150, 0, 0, &res);
  assert_state (&res, 150, 2, 0, 0.5f, 2, 1, FALSE);
  fixture_clear (&fx);
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
  assert_state (&res, 150, 0, 0, 0.5f, 1, 1, FALSE);
  assert_runtime_eq (&res.value, &fx.rt[1]);   /* A + (A - A) * a = A */
  phase_eval_at_t (&fx.input, 1.0f, &res);
  assert_state (&res, 300, 0, 0, 1.0f, 1, 1, FALSE);
  assert_runtime_eq (&res.value, &fx.rt[1]);
  fixture_clear (&fx);

  /* a single key of duration 0: a zero cycle, held */
  fixture_keys (&fx, 2, 0x1Fu << 3, zero, 1);
  phase_eval_at_time (&fx.input, 150, 0, 0, &res);
  g_assert_cmpuint (res.period, ==, 0);
  assert_state (&res, 0, 0, 0, 0.0f, 1, 1, TRUE);
  assert_runtime_eq (&res.value, &fx.rt[1]);
  fixture_clear (&fx);
}

static void
test_zero_cycle (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  static const Mat0Key keys[] = { { 2, 0, 0 }, { 0, 0, 0 } };

  fixture_keys (&fx, 3, (0x1Fu << 3) | 1, keys, 2);
  phase_eval_at_time (&fx.input, 12345, 0, 7, &res);
  g_assert_cmpuint (res.mode, ==, 1);
  g_assert_cmpuint (res.period, ==, 0);
  assert_state (&res, 0, 0, 0, 0.0f, 2, 2, TRUE);
  assert_runtime_eq (&res.value, &fx.rt[2]);
  g_assert_false (res.bad_key);

  phase_eval_at_t (&fx.input, 0.3f, &res);
  assert_state (&res, 0, 0, 0, 0.0f, 2, 2, TRUE);
  assert_runtime_eq (&res.value, &fx.rt[2]);
  fixture_clear (&fx);
}

static void
test_bad_key (void)
{
  Fixture fx = { 0 };
  PhaseEvalResult res;
  static const Mat0Key keys[] = { { 5, 100, 0 }, { 0, 100, 0 }, { 0xFFFF, 100, 0 } };
  static const Mat0Key zero[] = { { 9, 0, 0 } };

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
  {
    static const Mat0Key good[] = { { 0, 100, 0 }, { 1, 100, 0 } };

    fixture_keys (&fx, 2, 0, good, 2);
    phase_eval_at_time (&fx.input, 150, 0, 0, &res);
    g_assert_false (res.bad_key);
    fixture_clear (&fx);
  }

  /* a zero cycle with a bad key */
  fixture_keys (&fx, 2, 0, zero, 1);
  phase_eval_at_time (&fx.input, 0, 0, 0, &res);
  assert_state (&res, 0, 0, 0, 0.0f, 1, 1, TRUE);
  g_assert_true (res.bad_key);
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
  static const Mat0Key keys[] = { { 1, 400, 0 }, { 0, 400, 0 } };

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
  static const Mat0Key keys[] = { { 0, 400, 0 }, { 1, 400, 0 } };

  /* phase 0 p[j] = 10 + j, phase 1 p[j] = 50 + j; alpha 0.25 */
  fixture_keys (&fx, 2, 0x1Fu << 3, keys, 2);
  phase_eval_at_time (&fx.input, 100, 0, 0, &res);

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

/* ---- huge cycles ---- */

static void
test_huge_cycle (void)
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
      keys[k].k1 = 65535;
    }
  phases[1].p[4] = 255;
  phase_eval_expand (&phases[0], 0, &rt[0]);
  phase_eval_expand (&phases[1], 1, &rt[1]);

  g_assert_cmpuint (mat0_block_period (&block), ==, 4294836225u);

  /* t = 1: (float) cycle rounds to 4294836224 < cycle; r is clamped to
   * cycle and never overflows */
  phase_eval_at_t (&input, 1.0f, &res);
  g_assert_cmpuint (res.period, ==, 4294836225u);
  assert_state (&res, 4294836225u, 65534, 0, 1.0f, 0, 0, FALSE);

  /* t = 0.5: x = 2147418112.0f; segment 32767, alpha 32767 / 65535 */
  phase_eval_at_t (&input, 0.5f, &res);
  assert_state (&res, 2147418112u, 32767, 32768, 32767.0f / 65535.0f, 1, 0, FALSE);

  /* game time, delta = 2^32 - 1: q = 1, r = 131070: key 2 at alpha 0 */
  phase_eval_at_time (&input, 0xFFFFFFFFu, 0, 0, &res);
  assert_state (&res, 131070, 2, 3, 0.0f, 0, 1, FALSE);
  phase_eval_at_time (&input, 4294836224u, 0, 0, &res);
  assert_state (&res, 4294836224u, 65534, 0, 65534.0f / 65535.0f, 0, 0, FALSE);

  /* ping-pong at delta = cycle: r = cycle */
  block.header_raw = (0x02u << 3) | 1;
  phase_eval_at_time (&input, 4294836225u, 0, 0, &res);
  assert_state (&res, 4294836225u, 65534, 0, 1.0f, 0, 0, FALSE);

  /* random with a huge R wraps in 32 bits */
  block.header_raw = (0x02u << 3) | 3;
  phase_eval_at_time (&input, 4294836225u, 0, 4294836225u, &res);
  /* (2 * 4294836225) mod 2^32 = 4294705154; mod cycle = 4294705154 */
  assert_state (&res, 4294705154u, 65532, 65533, 65534.0f / 65535.0f, 0, 1, FALSE);
}

/* (float) cycle rounds up above cycle: t = 1 still gives r == cycle */
static void
test_cycle_rounding_up (void)
{
  g_autofree Mat0Key *keys = g_new0 (Mat0Key, 257);
  PhaseRuntime rt[1];
  Mat0Phase phase = { 0 };
  Mat0Block block = { 0, 257, keys };
  PhaseEvalInput input = { rt, 1, &block, 0 };
  PhaseEvalResult res;

  for (guint k = 0; k < 256; k++)
    keys[k].k1 = 65535;
  keys[256].k1 = 259;   /* cycle 16777219: (float) gives 16777220 */
  phase_eval_expand (&phase, 0, &rt[0]);

  g_assert_cmpuint (float_bits ((float) 16777219u), ==, float_bits (16777220.0f));
  phase_eval_at_t (&input, 1.0f, &res);
  g_assert_cmpuint (res.period, ==, 16777219u);
  assert_state (&res, 16777219u, 256, 0, 1.0f, 0, 0, FALSE);
}

static void
test_mode_names (void)
{
  g_assert_cmpstr (phase_eval_mode_name (0), ==, "loop");
  g_assert_cmpstr (phase_eval_mode_name (1), ==, "ping-pong");
  g_assert_cmpstr (phase_eval_mode_name (2), ==, "one-shot");
  g_assert_cmpstr (phase_eval_mode_name (3), ==, "random");
  for (guint m = 4; m < 8; m++)
    g_assert_cmpstr (phase_eval_mode_name (m), ==, "unknown");
  g_assert_cmpstr (phase_eval_mode_name (1000), ==, "unknown");
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
  g_test_add_func ("/core/phase-eval/time/boundaries", test_time_boundaries);
  g_test_add_func ("/core/phase-eval/time/wraparound", test_time_wraparound);
  g_test_add_func ("/core/phase-eval/time/ping-pong", test_time_ping_pong);
  g_test_add_func ("/core/phase-eval/time/one-shot", test_time_one_shot);
  g_test_add_func ("/core/phase-eval/time/random", test_time_random);
  g_test_add_func ("/core/phase-eval/time/unknown-modes", test_time_unknown_modes);
  g_test_add_func ("/core/phase-eval/normalized", test_normalized);
  g_test_add_func ("/core/phase-eval/keys/zero-duration", test_zero_duration_keys);
  g_test_add_func ("/core/phase-eval/keys/single", test_single_key);
  g_test_add_func ("/core/phase-eval/keys/zero-cycle", test_zero_cycle);
  g_test_add_func ("/core/phase-eval/keys/bad-k0", test_bad_key);
  g_test_add_func ("/core/phase-eval/no-phases", test_no_phases);
  g_test_add_func ("/core/phase-eval/static-phase", test_static_phase);
  g_test_add_func ("/core/phase-eval/interp/bits", test_interp_bits);
  g_test_add_func ("/core/phase-eval/interp/exact-values", test_interp_exact_values);
  g_test_add_func ("/core/phase-eval/huge-cycle", test_huge_cycle);
  g_test_add_func ("/core/phase-eval/cycle-rounding-up", test_cycle_rounding_up);
  g_test_add_func ("/core/phase-eval/mode-names", test_mode_names);

  return g_test_run ();
}
