/* mat-gsk-renderer.h - how the windows are drawn when OpenGL is software
 *
 * When OpenGL is Mesa's software rasterizer (llvmpipe, in virtual machines
 * and remote sessions), GTK's GL renderer redraws the whole window on the
 * CPU for every frame, while its cairo renderer redraws only what changed.
 * GTK 4.14 and later choose cairo there by themselves; earlier GTK still
 * chooses GL. mat_gsk_renderer_choose() makes the same choice for them.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Returns: (transfer full) (nullable): the OpenGL renderer string of
 * @display ("llvmpipe (LLVM 15.0.6, 256 bits)"), %NULL without OpenGL.
 * Asked of GLX when Mesa answers without a context, else of a context. */
char       *mat_gsk_renderer_dup_gl_name  (GdkDisplay *display);

/* Whether the OpenGL renderer named @gl_name rasterizes in software. */
gboolean    mat_gsk_renderer_is_software  (const char *gl_name);

/* Has @display's windows drawn with cairo when its OpenGL is software and
 * GTK (before 4.14) would draw them with GL, unless GSK_RENDERER names a
 * renderer. Call it before the first window is shown.
 * Returns: "cairo" when it chose, %NULL when GTK decides. */
const char *mat_gsk_renderer_choose       (GdkDisplay *display);

G_END_DECLS
