/* mat-picture.h - pictures read for a texture import, checked before
 * they are decoded
 *
 * The one reader of pictures for `mat0tool texture-import` and the
 * texture window's import dialog. What the file holds is told from its
 * first bytes, whatever it is called: only PNG, JPEG, BMP and TGA are
 * read, each by its own gdk-pixbuf loader (an SVG, even one named .png,
 * never reaches a renderer). The file is at most MAT_PICTURE_MAX_FILE_SIZE
 * bytes; a PNG or a JPEG must run to its end marker (a file cut short is
 * refused, where gdk-pixbuf would fill the rest with grey); the loader
 * reports the size from the header and the picture is refused there,
 * before any pixel is allocated, when a side is past
 * MAT_PICTURE_MAX_SIDE; every row must then be decoded.
 *
 * Every refusal is a G_IO_ERROR_INVALID_DATA whose message says what was
 * expected and what was found ("expected a picture of at most
 * 1024×1024 pixels, found 65535×65535"); a file that cannot be read is
 * another G_IO_ERROR (G_IO_ERROR_NOT_FOUND, G_IO_ERROR_NOT_REGULAR_FILE,
 * ...). No GObject type here beyond gdk-pixbuf's.
 */
#pragma once

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gio/gio.h>

#include "texm-convert.h"

G_BEGIN_DECLS

/* The largest side of a texture (formats.md: powers of two up to 1024). */
#define MAT_PICTURE_MAX_SIDE      1024
/* A 1024×1024 picture takes at most 4 MiB of pixels (8 MiB at 16 bits a
 * channel); this leaves room for any metadata. */
#define MAT_PICTURE_MAX_FILE_SIZE (32u << 20)

/* The picture in @bytes (a whole file) as 8-bit RGBA, its embedded
 * orientation applied, opaque pictures with alpha 255.
 * Returns: (transfer full): the picture, or %NULL with @error. */
GdkPixbuf  *mat_picture_load_bytes (GBytes        *bytes,
                                    GError       **error);

/* The same for the regular file at @path: anything else is refused
 * before it is read (mat_file_open_regular), and so is a file past
 * MAT_PICTURE_MAX_FILE_SIZE. Returns: (transfer full): the picture, or
 * %NULL with @error. */
GdkPixbuf  *mat_picture_load_path  (const char    *path,
                                    GError       **error);

/* @picture (8-bit RGBA, as the readers above give it) with each side at
 * the next power of two, @how: scaled (bilinear) or padded with its last
 * column and row (texm_fit_power_of_two). No side grows past
 * MAT_PICTURE_MAX_SIDE, which the readers never exceed. A picture whose
 * sides are powers of two already comes back as it is (a new
 * reference); TEXM_RESIZE_NONE refuses one whose sides are not.
 * Returns: (transfer full): the picture, or %NULL with a
 * TEXM_ENCODE_ERROR. */
GdkPixbuf  *mat_picture_fit_power_of_two (GdkPixbuf     *picture,
                                          TexmResize     how,
                                          GError       **error);

G_END_DECLS
