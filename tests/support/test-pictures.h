/* test-pictures.h - picture files made byte by byte for the import tests:
 * valid ones and hostile ones (a header claiming 65535×65535 over a tiny
 * body, an SVG, a file cut short), independent of the reader under test */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A PNG whose IHDR says @width × @height, @bit_depth and @colour_type
 * (0 grey, 2 RGB, 6 RGBA), every CRC right. With @full_body the IDAT holds
 * every row (all zero: black, transparent), compressed, so that a 16384 ×
 * 16384 one-bit picture is a file of a few hundred kilobytes; without it,
 * one compressed row only, as a header that lies about its body.
 * Returns: (transfer full). */
GBytes  *test_png_new        (guint32   width,
                              guint32   height,
                              guint8    bit_depth,
                              guint8    colour_type,
                              gboolean  full_body);
/* An SVG drawing of @width × @height pixels: one rectangle.
 * Returns: (transfer full). */
GBytes  *test_svg_new        (guint     width,
                              guint     height);
/* A JPEG whose frame header says @width × @height (grey, baseline): SOI,
 * SOF0, SOS over a few bytes, EOI; no tables, so it never decodes.
 * Returns: (transfer full). */
GBytes  *test_jpeg_header    (guint16   width,
                              guint16   height);
/* A 32-bit BMP whose header says @width × @height over one row of
 * pixels. Returns: (transfer full). */
GBytes  *test_bmp_header     (gint32    width,
                              gint32    height);
/* A 32-bit uncompressed TGA of @width × @height; @rows rows of pixels
 * follow the header (fewer than @height: cut short).
 * Returns: (transfer full). */
GBytes  *test_tga_new        (guint16   width,
                              guint16   height,
                              guint     rows);
/* @png with a tEXt chunk of @size bytes after its IHDR (a comment of
 * @size - 8 letters): the largest files a picture can be.
 * Returns: (transfer full). */
GBytes  *test_png_add_text   (GBytes   *png,
                              gsize     size);
/* The first @length bytes of @bytes. Returns: (transfer full). */
GBytes  *test_bytes_cut      (GBytes   *bytes,
                              gsize     length);

G_END_DECLS
