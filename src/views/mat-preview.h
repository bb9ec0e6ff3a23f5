/* mat-preview.h - live GL preview of a material, driven by the evaluator */
#pragma once

#include <gtk/gtk.h>

#include "mat-material.h"
#include "mat-texture-library.h"
#include "phase-eval.h"

G_BEGIN_DECLS

typedef enum {
  MAT_PREVIEW_SHAPE_SPHERE,
  MAT_PREVIEW_SHAPE_CUBE,
  MAT_PREVIEW_SHAPE_PLANE,
} MatPreviewShape;

#define MAT_TYPE_PREVIEW_SHAPE (mat_preview_shape_get_type ())
GType mat_preview_shape_get_type (void);

#define MAT_TYPE_PREVIEW (mat_preview_get_type ())

G_DECLARE_FINAL_TYPE (MatPreview, mat_preview, MAT, PREVIEW, GtkWidget)

/* Properties:
 *   "material"      MatMaterial*       what is shown (%NULL: nothing)
 *   "block"         int                animation block, -1: a static phase
 *   "phase"         uint               the static phase (block -1, or a
 *                                      block without keys)
 *   "time"          uint               ms since the instance started
 *                                      (the evaluator's now - start)
 *   "random-offset" uint               R of mode 3
 *   "playing"       boolean            advance "time" from the frame clock
 *   "speed"         double             playback speed (1.0 = real time)
 *   "unlit"         boolean            show the raw blended colour
 *   "shape"         MatPreviewShape
 *   "textures"      MatTextureLibrary* where phase textures are found
 *   "show-controls" boolean            the control bar under the view
 * Every redraw evaluates through phase_eval_at_time(); nothing else
 * computes a blended phase. */
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
MatPreviewShape mat_preview_get_shape      (MatPreview  *self);
guint        mat_preview_get_random_offset (MatPreview  *self);
void         mat_preview_set_random_offset (MatPreview  *self,
                                            guint        random_offset);
/* Returns: (transfer none) (nullable) */
MatTextureLibrary *mat_preview_get_textures (MatPreview *self);
gboolean     mat_preview_get_show_controls (MatPreview  *self);
void         mat_preview_set_show_controls (MatPreview  *self,
                                            gboolean     show_controls);

/* Why the view cannot draw (no GL context, a shader that does not
 * compile), shown in its place. Returns: (transfer none) (nullable):
 * %NULL while the view draws. Setting MATEDIT_PREVIEW_FAIL_GL=1 in the
 * environment makes realize fail on purpose. */
const char  *mat_preview_get_error         (MatPreview  *self);

/* For tests and benchmarks. */
/* Renders the next frame and reads it back from the GL framebuffer
 * (iterates the default main context, at most 5 s).
 * Returns: (transfer full) (nullable): the frame, %NULL when the view
 * cannot draw. */
GdkTexture  *mat_preview_read_frame_for_test (MatPreview *self);
/* The same for one pixel at (@x, @y) in widget coordinates from the top
 * left: RGBA8 in @rgba. Returns %FALSE when the view cannot draw. */
gboolean     mat_preview_read_pixel_for_test (MatPreview *self,
                                              int         x,
                                              int         y,
                                              guint8      rgba[4]);
/* Frames rendered and evaluator calls since the widget was created. */
guint64      mat_preview_get_n_renders       (MatPreview *self);
guint64      mat_preview_get_n_evaluations   (MatPreview *self);
/* Returns: (transfer none) (nullable): a control by its template id
 * ("play_button", "loop_button", "time_scale", "time_label",
 * "block_dropdown", "phase_spin", "shape_dropdown", "unlit_button",
 * "speed_spin", "reroll_button", "texture_label", "gl_area",
 * "error_label", "controls"). */
GtkWidget   *mat_preview_get_test_widget     (MatPreview *self,
                                              const char *name);

G_END_DECLS
