/* mat-gsk-renderer-private.h - the renderer's name, asked two ways */
#pragma once

#include "mat-gsk-renderer.h"

G_BEGIN_DECLS

/* Returns: (transfer full) (nullable): the OpenGL renderer's name asked
 * of GLX without making a context (GLX_MESA_query_renderer, which Mesa's
 * drivers have), %NULL when GLX cannot tell (not X11, not Mesa). */
char *_mat_gsk_renderer_dup_glx_name (GdkDisplay *display);

G_END_DECLS
