/* mat-preview.h - live GL preview of a material, driven by the evaluator */
#pragma once

#include <gtk/gtk.h>

#include "mat-material.h"
#include "mat-playback.h"
#include "mat-preview-renderer.h"
#include "mat-texture-library.h"
#include "phase-eval.h"

G_BEGIN_DECLS

/* MatPreviewShape and MatPreviewBackground: mat-preview-renderer.h */
#define MAT_TYPE_PREVIEW_SHAPE (mat_preview_shape_get_type ())
GType mat_preview_shape_get_type (void);
#define MAT_TYPE_PREVIEW_BACKGROUND (mat_preview_background_get_type ())
GType mat_preview_background_get_type (void);

#define MAT_TYPE_PREVIEW (mat_preview_get_type ())

G_DECLARE_FINAL_TYPE (MatPreview, mat_preview, MAT, PREVIEW, GtkWidget)

/* Properties:
 *   "material"      MatMaterial*       what is shown (%NULL: nothing)
 *   "block"         int                animation block, -1: a static phase
 *   "phase"         uint               the static phase (block -1, or a
 *                                      block without keys)
 *   "time"          uint               ms since the instance started
 *                                      (the evaluator's now - start): the
 *                                      playback's time plus "time-offset"
 *   "time-offset"   uint               added to the playback's time
 *   "random-offset" uint               R of mode 3; while playing a mode-3
 *                                      block, a new R every frame
 *   "playing"       boolean            the playback runs
 *   "speed"         double             playback speed (1.0 = real time)
 *   "loop"          boolean            see mat_preview_set_loop
 *   "playback"      MatPlayback*       the clock (its own unless shared)
 *   "unlit"         boolean            the "raw" view: the evaluated
 *                                      diffuse colour without lighting
 *   "emboss-bump"   boolean            the game's emboss bump setting:
 *                                      on, a lit skin (attr1 0x02) draws
 *                                      its textures' alpha; off (the
 *                                      default, as the game ships), it
 *                                      draws them opaque (render.md 2)
 *   "shape"         MatPreviewShape
 *   "background"    MatPreviewBackground  what the material is drawn over
 *   "scene-colour"  GdkRGBA*           the mission's scene colour (added
 *                                      to the self-light; default grey 40)
 *   "textures"      MatTextureLibrary* where phase textures are found
 *   "show-controls" boolean            the control bar under the view
 *   "yaw", "pitch"  double             the user's turn of the shape, in
 *                                      degrees (yaw -180..180 about the
 *                                      view's vertical axis, pitch -90..90
 *                                      about its horizontal one): dragging
 *                                      the view turns it
 *   "zoom"          double             0.5..3 (the camera's distance is
 *                                      divided by it): the wheel zooms;
 *                                      a double click resets the view
 * Every redraw evaluates through phase_eval_at_time(); nothing else
 * computes a blended phase. The drawing is MatPreviewRenderer's; the
 * blend mode comes from the material's attr1 (render.md 3), the
 * texture's alpha from texm_draw_alpha (render.md 2). When the
 * application's settings schema is installed, "background" and
 * "scene-colour" follow the settings preview-background and
 * preview-scene-colour, "emboss-bump" the setting emboss-bump.
 *
 * OpenGL starts once the window holding the preview has painted its
 * first frames (a plain placeholder is shown until then), so that a
 * window opens without waiting for a GL context and its shaders. */
GtkWidget   *mat_preview_new               (void);
MatMaterial *mat_preview_get_material      (MatPreview  *self);
void         mat_preview_set_material      (MatPreview  *self,
                                            MatMaterial *material);
void         mat_preview_set_block         (MatPreview  *self,
                                            int          block);
void         mat_preview_set_phase         (MatPreview  *self,
                                            guint        phase);
guint        mat_preview_get_time          (MatPreview  *self);
void         mat_preview_set_time          (MatPreview  *self,
                                            guint        time_ms);
void         mat_preview_set_playing       (MatPreview  *self,
                                            gboolean     playing);
void         mat_preview_set_unlit         (MatPreview  *self,
                                            gboolean     unlit);
void         mat_preview_set_shape         (MatPreview  *self,
                                            MatPreviewShape shape);
void         mat_preview_set_textures      (MatPreview  *self,
                                            MatTextureLibrary *textures);
/* A new random offset R from the preview's seeded generator. */
void         mat_preview_reroll            (MatPreview  *self);

/* The clock: %NULL gives the preview a clock of its own again (ticked by
 * its own frame clock). A shared clock is ticked by whoever owns it; the
 * preview then only follows it (mat_preview_set_speed, _set_loop and
 * _set_playing act on the shared clock). */
MatPlayback *mat_preview_get_playback      (MatPreview  *self);
void         mat_preview_set_playback      (MatPreview  *self,
                                            MatPlayback *playback);
guint        mat_preview_get_time_offset   (MatPreview  *self);
void         mat_preview_set_time_offset   (MatPreview  *self,
                                            guint        offset_ms);

MatPreviewBackground mat_preview_get_background (MatPreview *self);
void         mat_preview_set_background    (MatPreview  *self,
                                            MatPreviewBackground background);
/* Returns: (transfer none): the scene colour (alpha ignored). */
const GdkRGBA *mat_preview_get_scene_colour (MatPreview  *self);
void         mat_preview_set_scene_colour  (MatPreview  *self,
                                            const GdkRGBA *colour);

/* The blend mode the material is drawn with (render.md 3: 0..5; an
 * unknown blend index draws as 0), and the blend index b of its attr1
 * (0..15). Both 0 without a material. */
guint        mat_preview_get_blend_mode    (MatPreview  *self);
guint        mat_preview_get_blend_index   (MatPreview  *self);

/* The evaluator's input and output of the last evaluation (what the next
 * frame draws). Returns %FALSE when nothing is shown. */
gboolean     mat_preview_get_evaluation    (MatPreview      *self,
                                            PhaseEvalResult *result);

/* Added: the remaining getters and setters of the properties above, and
 * "loop" (boolean, default %TRUE: when off, playback stops at the end of
 * one cycle of the block). */
int          mat_preview_get_block         (MatPreview  *self);
guint        mat_preview_get_phase         (MatPreview  *self);
gboolean     mat_preview_get_playing       (MatPreview  *self);
gboolean     mat_preview_get_loop          (MatPreview  *self);
void         mat_preview_set_loop          (MatPreview  *self,
                                            gboolean     loop);
double       mat_preview_get_speed         (MatPreview  *self);
/* Clamped to 0.25 .. 4.0. */
void         mat_preview_set_speed         (MatPreview  *self,
                                            double       speed);
gboolean     mat_preview_get_unlit         (MatPreview  *self);
gboolean     mat_preview_get_emboss_bump   (MatPreview  *self);
void         mat_preview_set_emboss_bump   (MatPreview  *self,
                                            gboolean     emboss_bump);
MatPreviewShape mat_preview_get_shape      (MatPreview  *self);
guint        mat_preview_get_random_offset (MatPreview  *self);
void         mat_preview_set_random_offset (MatPreview  *self,
                                            guint        random_offset);
/* Returns: (transfer none) (nullable) */
MatTextureLibrary *mat_preview_get_textures (MatPreview *self);
gboolean     mat_preview_get_show_controls (MatPreview  *self);
void         mat_preview_set_show_controls (MatPreview  *self,
                                            gboolean     show_controls);

/* The view: see "yaw", "pitch" and "zoom" above. */
double       mat_preview_get_yaw           (MatPreview  *self);
void         mat_preview_set_yaw           (MatPreview  *self,
                                            double       yaw);
double       mat_preview_get_pitch         (MatPreview  *self);
void         mat_preview_set_pitch         (MatPreview  *self,
                                            double       pitch);
double       mat_preview_get_zoom          (MatPreview  *self);
void         mat_preview_set_zoom          (MatPreview  *self,
                                            double       zoom);
/* Yaw, pitch and the playing turn back to 0, zoom to 1. */
void         mat_preview_reset_view        (MatPreview  *self);

/* Why the view cannot draw (no GL context, a shader that does not
 * compile), shown in its place. Returns: (transfer none) (nullable):
 * %NULL while the view draws. Setting MATEDIT_PREVIEW_FAIL_GL=1 in the
 * environment makes realize fail on purpose. */
const char  *mat_preview_get_error         (MatPreview  *self);

/* Frames rendered and evaluator calls since the widget was created. */
guint64      mat_preview_get_n_renders       (MatPreview *self);
guint64      mat_preview_get_n_evaluations   (MatPreview *self);

G_END_DECLS
