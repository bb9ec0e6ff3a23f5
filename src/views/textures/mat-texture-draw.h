/* mat-texture-draw.h - pictures and textures drawn over a checkerboard
 *
 * What the texture window, its list and the import dialog share: RGBA8
 * pixels as a cairo surface, drawn to fit an area with the texels kept
 * sharp when enlarged, over a checkerboard so alpha shows.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* @stride: bytes a row (0: 4 * @width). Returns: (transfer full)
 * (nullable): a premultiplied ARGB32 surface of the pixels, %NULL for
 * an empty picture. */
cairo_surface_t *mat_texture_draw_surface_new (const guint8 *rgba,
                                               guint         width,
                                               guint         height,
                                               gsize         stride);

/* Draws @surface (may be %NULL: an empty frame) centred in @width x
 * @height, as large as fits (whole multiples when enlarged). */
void             mat_texture_draw_fit         (cairo_t         *cr,
                                               cairo_surface_t *surface,
                                               int              width,
                                               int              height);

G_END_DECLS
