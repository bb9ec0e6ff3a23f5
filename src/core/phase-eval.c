/* phase-eval.c - runtime expansion and the phase evaluator (evaluator.md)
 *
 * Float32 arithmetic as in the engine; the build passes -ffp-contract=off
 * so A + (B - A) * alpha is never fused. Nothing here allocates.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mat0-fields.h"
#include "phase-eval.h"

static inline float
unit (guint8 v)
{
  return (float) v / 255.0f;
}

void
phase_eval_expand (const Mat0Phase *phase,
                   gint32           tex_slot,
                   PhaseRuntime    *out)
{
  const guint8 *p;

  g_return_if_fail (phase != NULL);
  g_return_if_fail (out != NULL);

  p = phase->p;
  /* diffuse RGBA */
  out->f[0] = unit (p[4]);
  out->f[1] = unit (p[5]);
  out->f[2] = unit (p[6]);
  out->f[3] = unit (p[7]);
  /* ambient RGB, then A scaled by 0.01 */
  out->f[4] = unit (p[0]);
  out->f[5] = unit (p[1]);
  out->f[6] = unit (p[2]);
  out->f[7] = (float) p[3] * 0.01f;
  /* specular RGBA */
  out->f[8] = unit (p[8]);
  out->f[9] = unit (p[9]);
  out->f[10] = unit (p[10]);
  out->f[11] = unit (p[11]);
  /* emissive RGBA */
  out->f[12] = unit (p[12]);
  out->f[13] = unit (p[13]);
  out->f[14] = unit (p[14]);
  out->f[15] = unit (p[15]);
  out->power = (float) p[16];

  if (mat0_phase_is_textured (phase))
    {
      out->tex_slot = tex_slot;
      out->i18 = (gint8) p[17];
    }
  else
    {
      out->tex_slot = -1;
      out->i18 = -1;
    }
}

void
phase_eval_expand_material (const Mat0Material *material,
                            PhaseRuntime       *out)
{
  g_return_if_fail (material != NULL);
  g_return_if_fail (out != NULL || material->n_phases == 0);

  for (guint i = 0; i < material->n_phases; i++)
    phase_eval_expand (&material->phases[i], (gint32) i, &out[i]);
}

const char *
phase_eval_mode_name (guint mode)
{
  return mat0_fields_mode (mode)->id;
}

/* A phase index clamped to the table (n_phases > 0); out of range sets
 * bad_key and uses the last phase, never reading out of bounds. */
static guint
resolve_phase (const PhaseEvalInput *input,
               guint                 index,
               PhaseEvalResult      *result)
{
  if (index >= input->n_phases)
    {
      result->bad_key = TRUE;
      return input->n_phases - 1;
    }

  return index;
}

static void
hold_phase (const PhaseEvalInput *input,
            guint                 index,
            PhaseEvalResult      *result)
{
  guint i = resolve_phase (input, index, result);

  result->value = input->phases[i];
  result->phase_a = (gint) i;
  result->phase_b = (gint) i;
  result->alpha = 0.0f;
  result->hold = TRUE;
}

/* For each value of the five known interpMask bits, which of the 16 float
 * slots blend (1.0) and which are copied from A (0.0): evaluator.md's
 * table, spelled out so the blend below is four vector operations. */
#define SEL(m, bit) (((m) & (bit)) ? 1.0f : 0.0f)
#define ROW(m) { \
  SEL (m, PHASE_EVAL_BLEND_DIFFUSE_RGB), SEL (m, PHASE_EVAL_BLEND_DIFFUSE_RGB), \
  SEL (m, PHASE_EVAL_BLEND_DIFFUSE_RGB), 0.0f, \
  SEL (m, PHASE_EVAL_BLEND_AMBIENT_RGB), SEL (m, PHASE_EVAL_BLEND_AMBIENT_RGB), \
  SEL (m, PHASE_EVAL_BLEND_AMBIENT_RGB), SEL (m, PHASE_EVAL_BLEND_AMBIENT_A), \
  SEL (m, PHASE_EVAL_BLEND_SPECULAR_RGB), SEL (m, PHASE_EVAL_BLEND_SPECULAR_RGB), \
  SEL (m, PHASE_EVAL_BLEND_SPECULAR_RGB), 0.0f, \
  SEL (m, PHASE_EVAL_BLEND_EMISSIVE_RGB), SEL (m, PHASE_EVAL_BLEND_EMISSIVE_RGB), \
  SEL (m, PHASE_EVAL_BLEND_EMISSIVE_RGB), 0.0f }
#define ROW4(m) ROW (m), ROW (m + 1), ROW (m + 2), ROW (m + 3)

static const float blend_select[32][16] = {
  ROW4 (0), ROW4 (4), ROW4 (8), ROW4 (12), ROW4 (16), ROW4 (20), ROW4 (24), ROW4 (28),
};

#undef ROW4
#undef ROW
#undef SEL

/* Blends from key @k towards the next key (the last closes the loop).
 *
 * Every slot is written once as A + (B - A) * w, with w = alpha for the
 * slots the mask blends and w = 0 for the others (blend_select). For the finite values a
 * phase holds, A + (B - A) * 0 is exactly A, so the result is the spec's
 * "copy A, then blend the masked fields" in float32, without branches. */
static inline void
blend_segment (const PhaseEvalInput *input,
               guint                 k,
               float                 alpha,
               PhaseEvalResult      *result)
{
  const Mat0Block *block = input->block;
  guint32 mask = mat0_block_interp_mask (block);
  guint next = k + 1 < block->n_keys ? k + 1 : 0;
  guint a = resolve_phase (input, block->keys[k].k0, result);
  guint b = resolve_phase (input, block->keys[next].k0, result);
  const PhaseRuntime *pa = &input->phases[a];
  const PhaseRuntime *pb = &input->phases[b];
  const float *select = blend_select[mask & PHASE_EVAL_BLEND_KNOWN];

  result->segment = (gint) k;
  result->next = (gint) next;
  result->alpha = alpha;
  result->phase_a = (gint) a;
  result->phase_b = (gint) b;

  /* alpha * 1.0f is alpha exactly, alpha * 0.0f is 0 */
  for (guint i = 0; i < 16; i++)
    result->value.f[i] = pa->f[i] + (pb->f[i] - pa->f[i]) * (alpha * select[i]);
  result->value.power = pa->power;
  result->value.tex_slot = pa->tex_slot;
  result->value.i18 = pa->i18;
}

guint32
phase_eval_position (guint     mode,
                     guint32   period,
                     guint32   delta,
                     guint32   random_offset,
                     gboolean *hold)
{
  guint32 q;
  guint32 r;

  if (hold != NULL)
    *hold = FALSE;
  if (period == 0)
    {
      if (hold != NULL)
        *hold = TRUE;
      return 0;
    }

  /* unsigned division, as the engine */
  q = delta / period;
  r = delta % period;
  switch (mode)
    {
    case PHASE_EVAL_MODE_PING_PONG:
      if (q & 1)
        r = period - r;
      return r;

    case PHASE_EVAL_MODE_ONE_SHOT:
      if (q > 0)
        {
          if (hold != NULL)
            *hold = TRUE;
          return period;
        }
      return r;

    case PHASE_EVAL_MODE_RANDOM:
      /* the engine draws rand () at every evaluation: the position is
       * R % period whatever the time */
      return random_offset % period;

    default:
      /* loop, and 4..7 played as loop */
      return r;
    }
}

guint32
phase_eval_cycle (guint   mode,
                  guint32 period)
{
  if (mode == PHASE_EVAL_MODE_PING_PONG)
    return period <= G_MAXUINT32 / 2 ? period * 2 : G_MAXUINT32;
  return period;
}

guint32
phase_eval_cycle_time (guint   mode,
                       guint32 period,
                       guint32 delta)
{
  guint32 cycle = phase_eval_cycle (mode, period);

  if (cycle == 0)
    return 0;
  if (mode == PHASE_EVAL_MODE_ONE_SHOT)
    return MIN (delta, period);
  return delta % cycle;
}

/* Finds the segment of position @r (0 <= r <= period) and blends.
 *
 * Key k's interval runs from T[k-1] (0 for key 0) to its own time T[k]
 * (evaluator.md). The segment is the largest k with T[k-1] <= r < T[k];
 * an empty interval (T[k] <= T[k-1]) can never hold r. Searching from the
 * last key down finds the largest such k first. */
static inline void
eval_position (const PhaseEvalInput *input,
               guint32               r,
               PhaseEvalResult      *result)
{
  const Mat0Block *block = input->block;
  guint n = block->n_keys;

  result->r = r;

  for (guint k = n; k-- > 0;)
    {
      guint32 end = block->keys[k].k1;
      guint32 begin = k > 0 ? block->keys[k - 1].k1 : 0;

      if (begin <= r && r < end)
        {
          blend_segment (input, k, (float) (r - begin) / (float) (end - begin), result);
          return;
        }
    }

  if (r == result->period)
    {
      /* the end of the last interval: the ping-pong turnaround, t = 1 */
      blend_segment (input, n - 1, 1.0f, result);
      return;
    }

  /* Unreachable for r < period (T[-1] = 0 <= r < T[n-1] crosses some
   * interval); kept so a caller's bad r still gets a defined answer. */
  {
    guint32 end = block->keys[0].k1;
    float alpha = end > 0 ? (float) r / (float) end : 0.0f;

    blend_segment (input, 0, CLAMP (alpha, 0.0f, 1.0f), result);
  }
}

/* The parts both time sources share. Returns TRUE when the result is
 * complete (no phases, no keys, or a zero period). */
static inline gboolean
eval_prepare (const PhaseEvalInput *input,
              PhaseEvalResult      *result)
{
  const Mat0Block *block = input->block;

  /* Every field is set here or on the way to the result; no memset on
   * the hot path. */
  result->mode = 0;
  result->period = 0;
  result->r = 0;
  result->alpha = 0.0f;
  result->hold = FALSE;
  result->unknown_mode = FALSE;
  result->bad_key = FALSE;
  result->segment = -1;
  result->next = -1;
  result->phase_a = -1;
  result->phase_b = -1;

  if (block != NULL)
    {
      result->mode = mat0_block_mode (block);
      result->unknown_mode = result->mode >= 4;
      /* the last key's time */
      result->period = block->n_keys > 0 ? block->keys[block->n_keys - 1].k1 : 0;
    }

  if (input->n_phases == 0 || input->phases == NULL)
    {
      memset (&result->value, 0, sizeof result->value);
      result->value.tex_slot = -1;
      result->value.i18 = -1;
      result->bad_key = TRUE;
      result->hold = TRUE;
      return TRUE;
    }

  if (block == NULL || block->n_keys == 0)
    {
      hold_phase (input, input->static_phase, result);
      return TRUE;
    }

  if (result->period == 0)
    {
      hold_phase (input, block->keys[0].k0, result);
      result->segment = 0;
      result->next = 0;
      return TRUE;
    }

  return FALSE;
}

void
phase_eval_at_time (const PhaseEvalInput *input,
                    guint32               now,
                    guint32               start,
                    guint32               random_offset,
                    PhaseEvalResult      *result)
{
  const Mat0Block *block;
  guint32 delta;
  guint32 r;
  gboolean hold;

  g_return_if_fail (input != NULL);
  g_return_if_fail (result != NULL);

  if (eval_prepare (input, result))
    return;

  block = input->block;
  delta = now - start;   /* unsigned wrap-around, as the engine */
  r = phase_eval_position (result->mode, result->period, delta, random_offset, &hold);
  if (hold)
    {
      /* once, after its first period: the last key held */
      guint last = block->n_keys - 1u;

      hold_phase (input, block->keys[last].k0, result);
      result->segment = (gint) last;
      result->next = (gint) last;
      result->r = r;
      return;
    }

  eval_position (input, r, result);
}

void
phase_eval_at_t (const PhaseEvalInput *input,
                 float                 t,
                 PhaseEvalResult      *result)
{
  guint32 period;
  guint32 r;
  float fperiod;
  float x;

  g_return_if_fail (input != NULL);
  g_return_if_fail (result != NULL);

  if (eval_prepare (input, result))
    return;

  if (isnan (t) || t < 0.0f || t > 1.0f)
    t = 0.5f;

  period = result->period;
  fperiod = (float) period;
  x = t * fperiod;
  /* (float) period may round above period: clamp in float first so the
   * conversion is always in range. */
  if (x >= fperiod)
    r = period;
  else
    r = MIN ((guint32) x, period);

  eval_position (input, r, result);
}
