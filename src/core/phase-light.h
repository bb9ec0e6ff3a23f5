/* phase-light.h - a phase's lit colour on the CPU (render.md 1-2)
 *
 * What the preview's shader computes per vertex, for one point: the
 * device material of an evaluated phase (render.md 1) lit by one white
 * directional light (render.md 2). The material list's swatches use it
 * at one fixed point (phase_light_swatch); tests use it to know a pixel.
 * Nothing here allocates.
 */
#pragma once

#include <glib.h>

#include "phase-eval.h"

G_BEGIN_DECLS

/* The scene colour of Mission 01 (the sky's property 16): grey 40/255. */
#define PHASE_LIGHT_DEFAULT_SCENE (40.0f / 255.0f)

/* The preview's light: white and directional, towards (X, Y, Z) in eye
 * space (normalized when used): from the upper left, in front. The
 * camera looks down -z, so the eye direction at the middle of the view
 * is (0, 0, 1). */
#define PHASE_LIGHT_DIR_X (-0.45f)
#define PHASE_LIGHT_DIR_Y 0.55f
#define PHASE_LIGHT_DIR_Z 0.70f

/* The device's specular exponent: 1 << (power & 31) as the engine's x86
 * shift gives it (a 32-bit int: power 31 gives a negative number). */
float    phase_light_specular_exponent (float               power);

/* render.md 2 at one point with N·L = @n_dot_l and N·H = @n_dot_h:
 *   rgb = clamp (scene + f4..f6 + f0..f2 × max (N·L, 0)
 *                + f8..f10 × max (N·H, 0)^(1 << (power & 31)), 0, 1)
 * with the highlight only where N·L and N·H are positive, as fixed
 * function lighting computes it (an infinite power saturates to 1).
 * @scene: the scene colour, 0..1. Untextured (texture white). */
void     phase_light_colour      (const PhaseRuntime *phase,
                                  const float         scene[3],
                                  float               n_dot_l,
                                  float               n_dot_h,
                                  float               rgb[3]);

/* The point a swatch shows: the point of a sphere whose normal faces the
 * preview's light (N = L, so N·L = 1), seen from the preview's camera
 * (V = (0, 0, 1)): N·H = L·normalize (L + V). */
void     phase_light_swatch_geometry (float          *n_dot_l,
                                      float          *n_dot_h);

/* The swatch of a material: its phase 0 as the evaluator gives it (no
 * block: the static phase 0), lit at the swatch's point over the default
 * scene colour, without its texture; alpha is the ambient alpha f7
 * clamped to 0..1. RGBA8 in @rgba, each channel rounded from 0..1.
 * Returns %FALSE (and transparent black) when @n_phases is 0. */
gboolean phase_light_swatch      (const PhaseRuntime *phases,
                                  guint               n_phases,
                                  guint8              rgba[4]);

/* render.md 3 on the CPU: a colour @src (0..1) at @alpha drawn over @dst
 * with blend mode @mode (0 ONE/ZERO, 1 SRCALPHA/ZERO, 2 SRCALPHA/ONE,
 * 3 ZERO/SRCCOLOR, 4 SRCALPHA/INVSRCALPHA, 5 DESTCOLOR/SRCCOLOR; a mode
 * past 5 draws as 0), with the alpha test of modes 1..5 (alpha below
 * 1/255 leaves @dst as it was); @alpha is clamped to 0..1 (NaN: 0), the
 * result to 0..1. What the game's opaque back buffer then holds. */
void     phase_light_blend       (guint               mode,
                                  const float         src[3],
                                  float               alpha,
                                  const float         dst[3],
                                  float               out[3]);

G_END_DECLS
