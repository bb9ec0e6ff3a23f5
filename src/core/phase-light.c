/* phase-light.c - a phase's lit colour on the CPU (render.md 1-2) */
#include "config.h"

#include <math.h>

#include "phase-light.h"

float
phase_light_specular_exponent (float power)
{
  /* the runtime keeps p16 as a float; the engine converts it back to an
   * int and shifts: 1 << (n & 31) on a 32-bit int */
  guint32 n = isfinite (power) && power >= 0 && power < 4294967296.0f ? (guint32) power : 0;

  return (float) (gint32) (1u << (n & 31u));
}

static float
clamp01 (float value)
{
  /* NaN becomes 0, as a clamp in the shader leaves it undefined */
  if (!(value > 0.0f))
    return 0.0f;
  return value < 1.0f ? value : 1.0f;
}

void
phase_light_colour (const PhaseRuntime *phase,
                    const float         scene[3],
                    float               n_dot_l,
                    float               n_dot_h,
                    float               rgb[3])
{
  float spec = 0.0f;

  g_return_if_fail (phase != NULL);
  g_return_if_fail (scene != NULL);
  g_return_if_fail (rgb != NULL);

  n_dot_l = MAX (n_dot_l, 0.0f);
  n_dot_h = MAX (n_dot_h, 0.0f);
  /* a negative exponent (power 31) gives an infinite power: saturated */
  if (n_dot_l > 0.0f && n_dot_h > 0.0f)
    spec = clamp01 (powf (n_dot_h, phase_light_specular_exponent (phase->power)));

  for (guint c = 0; c < 3; c++)
    {
      /* emissive: the scene colour plus the self-light (render.md 1) */
      float emissive = scene[c] + phase->f[4 + c];

      rgb[c] = clamp01 (emissive + phase->f[0 + c] * n_dot_l + phase->f[8 + c] * spec);
    }
}

void
phase_light_swatch_geometry (float *n_dot_l,
                             float *n_dot_h)
{
  float l[3] = { PHASE_LIGHT_DIR_X, PHASE_LIGHT_DIR_Y, PHASE_LIGHT_DIR_Z };
  float length = sqrtf (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
  float h[3], h_length;

  for (guint i = 0; i < 3; i++)
    l[i] /= length;
  /* H = normalize (L + V), V = (0, 0, 1); N = L */
  h[0] = l[0];
  h[1] = l[1];
  h[2] = l[2] + 1.0f;
  h_length = sqrtf (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
  if (n_dot_l != NULL)
    *n_dot_l = 1.0f;
  if (n_dot_h != NULL)
    *n_dot_h = (l[0] * h[0] + l[1] * h[1] + l[2] * h[2]) / h_length;
}

void
phase_light_blend (guint        mode,
                   const float  src[3],
                   float        alpha,
                   const float  dst[3],
                   float        out[3])
{
  g_return_if_fail (src != NULL);
  g_return_if_fail (dst != NULL);
  g_return_if_fail (out != NULL);

  alpha = clamp01 (alpha);
  if (mode > 5)
    mode = 0;
  for (guint c = 0; c < 3; c++)
    {
      float s = clamp01 (src[c]), d = clamp01 (dst[c]), r;

      /* the alpha test, reference 1, GREATEREQUAL */
      if (mode != 0 && alpha < 1.0f / 255.0f)
        r = d;
      else
        switch (mode)
          {
          case 1: r = s * alpha; break;
          case 2: r = s * alpha + d; break;
          case 3: r = d * s; break;
          case 4: r = s * alpha + d * (1.0f - alpha); break;
          case 5: r = s * d + d * s; break;
          case 0:
          default: r = s; break;
          }
      out[c] = clamp01 (r);
    }
}

static guint8
to_byte (float value)
{
  return (guint8) lrintf (clamp01 (value) * 255.0f);
}

gboolean
phase_light_swatch (const PhaseRuntime *phases,
                    guint               n_phases,
                    guint8              rgba[4])
{
  static const float scene[3] = {
    PHASE_LIGHT_DEFAULT_SCENE, PHASE_LIGHT_DEFAULT_SCENE, PHASE_LIGHT_DEFAULT_SCENE,
  };
  PhaseEvalInput input = { 0 };
  PhaseEvalResult result;
  float n_dot_l, n_dot_h, rgb[3];

  g_return_val_if_fail (rgba != NULL, FALSE);
  g_return_val_if_fail (phases != NULL || n_phases == 0, FALSE);

  rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0;
  if (n_phases == 0)
    return FALSE;

  input.phases = phases;
  input.n_phases = n_phases;
  input.block = NULL;
  input.static_phase = 0;
  phase_eval_at_time (&input, 0, 0, 0, &result);

  phase_light_swatch_geometry (&n_dot_l, &n_dot_h);
  phase_light_colour (&result.value, scene, n_dot_l, n_dot_h, rgb);
  for (guint c = 0; c < 3; c++)
    rgba[c] = to_byte (rgb[c]);
  rgba[3] = to_byte (result.value.f[7]);
  return TRUE;
}
