/* mat-preview-private.h - test hooks
 *
 * Frames read back, controls by name. Not part of the widget's interface: only
 * mat-preview.c, the tests and the benchmarks include this header.
 */
#pragma once

#include "mat-preview.h"

G_BEGIN_DECLS

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
/* What the last frame's material draw ran with (GL state read back). */
void         mat_preview_get_draw_info_for_test (MatPreview         *self,
                                                 MatPreviewDrawInfo *info);

/* Returns: (transfer none) (nullable): a control by its template id
 * ("play_button", "loop_button", "time_scale", "time_label",
 * "block_dropdown", "phase_spin", "shape_dropdown", "unlit_button",
 * "speed_spin", "reroll_button", "texture_label", "gl_area",
 * "error_label", "controls", "background_dropdown", "scene_button",
 * "blend_label"). */
GtkWidget   *mat_preview_get_test_widget     (MatPreview *self,
                                              const char *name);

G_END_DECLS
