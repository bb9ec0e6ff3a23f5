/* texm.h - Texm texture payloads (formats.md section 3) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TEXM_ERROR (texm_error_quark ())

typedef enum {
  TEXM_ERROR_TRUNCATED,      /* header, palette or mip chain past the end */
  TEXM_ERROR_BAD_MAGIC,
  TEXM_ERROR_BAD_FORMAT,     /* not one of 0, 565, 556, 4444, 88, 888, 8888 */
  TEXM_ERROR_BAD_SIZE,       /* width, height or mipCount 0, or absurd */
  TEXM_ERROR_BAD_PAGE,       /* a Page chunk that does not end at the end */
  TEXM_ERROR_TRAILING_BYTES, /* bytes after the mip chain that are no Page */
} TexmError;

GQuark texm_error_quark (void);

#define TEXM_MAGIC        0x6D786554u   /* "Texm" */
#define TEXM_PAGE_MAGIC   0x65676150u   /* "Page" */
#define TEXM_HEADER_SIZE  32
#define TEXM_PALETTE_SIZE 1024

typedef struct {
  guint32 magic;
  guint32 width;
  guint32 height;
  guint32 mip_count;
  guint32 flags4;
  guint32 flags5;
  guint32 unk6;
  guint32 format;
} TexmHeader;

typedef struct {
  gint16 x, w, y, h;
} TexmRect;

typedef struct {
  GBytes       *bytes;        /* the payload */
  TexmHeader    header;
  const guint8 *palette;      /* 1024 bytes into @bytes, or %NULL */
  guint         bytes_per_pixel;
  gsize        *mip_offsets;  /* mip_count offsets into the payload */
  gboolean      has_page;
  guint         n_rects;
  TexmRect     *rects;
} TexmImage;

gboolean    texm_format_is_valid   (guint32 format);
guint       texm_bytes_per_pixel   (guint32 format);   /* 0 if invalid */

/* Returns: (transfer full): the parsed texture, or %NULL with @error
 * ("NAME: offset N: expected ..., found ..."). */
TexmImage  *texm_parse             (GBytes          *payload,
                                    const char      *entry_name,
                                    gsize            base_offset,
                                    GError         **error);
void        texm_image_free        (TexmImage       *image);

void        texm_mip_size          (const TexmImage *image,
                                    guint            level,
                                    guint           *width,
                                    guint           *height);
/* Decodes mip @level to RGBA8, rows top to bottom, 4 * w * h bytes.
 * Returns: (transfer full). */
guint8     *texm_decode_rgba       (const TexmImage *image,
                                    guint            level,
                                    guint           *width,
                                    guint           *height);

/* Decodes @n_pixels pixels of mip @level, from pixel @first on (pixels
 * counted row by row from the top left), to RGBA8 at @out (4 *
 * @n_pixels bytes), as texm_decode_rgba() decodes them: a level larger
 * than a caller can hold is read a run at a time. Returns: %FALSE (and
 * writes nothing) when the run does not lie inside the level. */
gboolean    texm_decode_rgba_run   (const TexmImage *image,
                                    guint            level,
                                    guint64          first,
                                    gsize            n_pixels,
                                    guint8          *out);

/* Serialises @image back: header, palette, mip chain, Page chunk.
 * texm_write (texm_parse (x)) == x for every payload that parses.
 * Returns: (transfer full). */
GBytes     *texm_write             (const TexmImage *image);

/* @payload as the replacement of the texture @old (formats.md 3): the
 * same bytes with the header's flags5 and unk6 (+0x14, +0x18) taken from
 * @old, as every replace keeps them (a new texture has 0, 0; flags4 and
 * the rest follow the new picture). When either has no Texm header
 * (under 32 bytes or another magic), @payload as it is.
 * Returns: (transfer full). */
GBytes     *texm_keep_replaced_flags (GBytes        *payload,
                                      GBytes        *old);

/* Builds a payload from RGBA8 top-level pixels of any size, with no
 * checks on the picture (texm-convert.h has the checked encoder): channels
 * rounded to the nearest grid value, the mip chain of truncated box
 * averages of level 0, flags4 32 when @mip_count > 1 (else 0), flags5 and
 * unk6 0; format 0 writes @palette as given (1024 bytes as a payload
 * stores them: 256 entries of B, G, R, X, formats.md 3) and maps each
 * pixel to the nearest entry among 1..255 (index 0 stays unused). A non-%NULL
 * @rects writes a Page chunk, also with @n_rects 0.
 * Returns: (transfer full). */
GBytes     *texm_encode_rgba       (guint32          format,
                                    guint            width,
                                    guint            height,
                                    guint            mip_count,
                                    const guint8    *rgba,
                                    const guint8    *palette,
                                    const TexmRect  *rects,
                                    guint            n_rects);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TexmImage, texm_image_free)

G_END_DECLS
