/* mat-texture-draw.c - pictures and textures drawn over a checkerboard */
#include "config.h"

#include <math.h>

#include "mat-texture-draw.h"

#define CHECKER 8

cairo_surface_t *
mat_texture_draw_surface_new (const guint8 *rgba,
                              guint         width,
                              guint         height,
                              gsize         stride)
{
  cairo_surface_t *surface;
  guint8 *dst;
  int dst_stride;

  if (rgba == NULL || width == 0 || height == 0 || width > G_MAXINT / 4 || height > G_MAXINT)
    return NULL;
  if (stride == 0)
    stride = (gsize) width * 4;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return NULL;
    }
  cairo_surface_flush (surface);
  dst = cairo_image_surface_get_data (surface);
  dst_stride = cairo_image_surface_get_stride (surface);
  for (guint y = 0; y < height; y++)
    {
      const guint8 *s = rgba + (gsize) y * stride;
      guint32 *d = (guint32 *) (dst + (gsize) y * (gsize) dst_stride);

      for (guint x = 0; x < width; x++, s += 4)
        {
          guint32 a = s[3];

          d[x] = (a << 24) | (((s[0] * a + 127) / 255) << 16) |
                 (((s[1] * a + 127) / 255) << 8) | ((s[2] * a + 127) / 255);
        }
    }
  cairo_surface_mark_dirty (surface);
  return surface;
}

void
mat_texture_draw_fit (cairo_t         *cr,
                      cairo_surface_t *surface,
                      int              width,
                      int              height)
{
  double tw, th, scale, w, h, x, y;

  if (surface == NULL)
    {
      cairo_rectangle (cr, 0.5, 0.5, width - 1, height - 1);
      cairo_set_source_rgba (cr, 0.5, 0.5, 0.5, 0.08);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, 0.5, 0.5, 0.5, 0.3);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      return;
    }

  tw = cairo_image_surface_get_width (surface);
  th = cairo_image_surface_get_height (surface);
  scale = MIN (width / tw, height / th);
  if (scale >= 1)
    scale = floor (scale);
  /* a texture of one row (or column) stays a line a pixel wide */
  w = MAX (floor (tw * scale), 1);
  h = MAX (floor (th * scale), 1);
  x = floor ((width - w) / 2);
  y = floor ((height - h) / 2);

  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0.8, 0.8, 0.8);
  for (int row = 0; row * CHECKER < h; row++)
    for (int col = row % 2; col * CHECKER < w; col += 2)
      cairo_rectangle (cr, x + col * CHECKER, y + row * CHECKER, CHECKER, CHECKER);
  cairo_fill (cr);

  cairo_translate (cr, x, y);
  cairo_scale (cr, w / tw, h / th);
  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), scale >= 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_pattern_set_extend (cairo_get_source (cr), CAIRO_EXTEND_PAD);
  cairo_paint (cr);
  cairo_restore (cr);

  cairo_rectangle (cr, x + 0.5, y + 0.5, w - 1, h - 1);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.18);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}
