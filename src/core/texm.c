/* texm.c - Texm texture payloads (formats.md section 3)
 *
 * Layout: a 32-byte header, a 1024-byte palette for format 0, the mip
 * chain (level i is max (1, w >> i) x max (1, h >> i) pixels) and
 * optionally a "Page" chunk that must end exactly at the payload end.
 *
 * The parser reads nothing it has not checked to lie inside the payload;
 * sizes are computed in 64 bits and compared by division so that no
 * product can wrap.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "texm.h"
#include "texm-convert.h"

#define TEXM_MAX_MIPS   32
#define PAGE_RECT_SIZE  8

G_DEFINE_QUARK (texm-error-quark, texm_error)

gboolean
texm_format_is_valid (guint32 format)
{
  return texm_bytes_per_pixel (format) != 0;
}

guint
texm_bytes_per_pixel (guint32 format)
{
  switch (format)
    {
    case 0:
      return 1;
    case 565:
    case 556:
    case 4444:
    case 88:
      return 2;
    case 888:
    case 8888:
      return 4;
    default:
      return 0;
    }
}

static inline guint16
get_u16 (const guint8 *p)
{
  return (guint16) (p[0] | (p[1] << 8));
}

static inline guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) |
         ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

static inline void
put_u16 (guint8 *p, guint16 v)
{
  p[0] = v & 0xFF;
  p[1] = v >> 8;
}

static inline void
put_u32 (guint8 *p, guint32 v)
{
  p[0] = v & 0xFF;
  p[1] = (v >> 8) & 0xFF;
  p[2] = (v >> 16) & 0xFF;
  p[3] = v >> 24;
}

/* One dimension of mip @level; shifts of 32 and more give 1, never UB. */
static inline guint32
mip_dim (guint32 dim, guint level)
{
  guint32 d = level < 32 ? dim >> level : 0;

  return MAX (d, 1u);
}

static inline guint64
mip_pixels (guint32 width, guint32 height, guint level)
{
  return (guint64) mip_dim (width, level) * (guint64) mip_dim (height, level);
}

/* Sets "NAME: offset N: expected X, found Y"; takes ownership of the
 * two phrases. */
static void
set_error (GError     **error,
           TexmError    code,
           const char  *entry_name,
           guint64      offset,
           char        *expected,
           char        *found)
{
  g_autofree char *e = expected;
  g_autofree char *f = found;

  g_set_error (error, TEXM_ERROR, code,
               _("%s: offset %llu: expected %s, found %s"),
               entry_name != NULL ? entry_name : "Texm", (unsigned long long) offset, e, f);
}

void
texm_image_free (TexmImage *image)
{
  if (image == NULL)
    return;

  g_clear_pointer (&image->bytes, g_bytes_unref);
  g_free (image->mip_offsets);
  g_free (image->rects);
  g_free (image);
}

TexmImage *
texm_parse (GBytes      *payload,
            const char  *entry_name,
            gsize        base_offset,
            GError     **error)
{
  g_autoptr(TexmImage) image = NULL;
  const guint8 *data;
  gsize size;
  gsize pos;
  guint bpp;
  TexmHeader h;

  g_return_val_if_fail (payload != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = g_bytes_get_data (payload, &size);

  if (size < TEXM_HEADER_SIZE)
    {
      set_error (error, TEXM_ERROR_TRUNCATED, entry_name, base_offset,
                 g_strdup_printf (_("%d bytes of header"), TEXM_HEADER_SIZE),
                 g_strdup_printf (_("%lu bytes"), (unsigned long) size));
      return NULL;
    }

  h.magic = get_u32 (data + 0);
  h.width = get_u32 (data + 4);
  h.height = get_u32 (data + 8);
  h.mip_count = get_u32 (data + 12);
  h.flags4 = get_u32 (data + 16);
  h.flags5 = get_u32 (data + 20);
  h.unk6 = get_u32 (data + 24);
  h.format = get_u32 (data + 28);

  if (h.magic != TEXM_MAGIC)
    {
      set_error (error, TEXM_ERROR_BAD_MAGIC, entry_name, base_offset,
                 g_strdup_printf (_("magic \"Texm\" (0x%08X)"), TEXM_MAGIC),
                 g_strdup_printf ("0x%08X", h.magic));
      return NULL;
    }
  if (h.width == 0)
    {
      set_error (error, TEXM_ERROR_BAD_SIZE, entry_name, (guint64) base_offset + 4,
                 g_strdup (_("width > 0")), g_strdup ("0"));
      return NULL;
    }
  if (h.height == 0)
    {
      set_error (error, TEXM_ERROR_BAD_SIZE, entry_name, (guint64) base_offset + 8,
                 g_strdup (_("height > 0")), g_strdup ("0"));
      return NULL;
    }
  if (h.mip_count == 0 || h.mip_count > TEXM_MAX_MIPS)
    {
      set_error (error, TEXM_ERROR_BAD_SIZE, entry_name, (guint64) base_offset + 12,
                 h.mip_count == 0
                   ? g_strdup (_("mipCount > 0"))
                   : g_strdup_printf (_("mipCount <= %d"), TEXM_MAX_MIPS),
                 g_strdup_printf ("%u", h.mip_count));
      return NULL;
    }

  bpp = texm_bytes_per_pixel (h.format);
  if (bpp == 0)
    {
      set_error (error, TEXM_ERROR_BAD_FORMAT, entry_name, (guint64) base_offset + 28,
                 g_strdup (_("format 0, 565, 556, 4444, 88, 888 or 8888")),
                 g_strdup_printf ("%u", h.format));
      return NULL;
    }

  image = g_new0 (TexmImage, 1);
  image->header = h;
  image->bytes_per_pixel = bpp;
  pos = TEXM_HEADER_SIZE;

  if (h.format == 0)
    {
      if (size - pos < TEXM_PALETTE_SIZE)
        {
          set_error (error, TEXM_ERROR_TRUNCATED, entry_name, (guint64) base_offset + pos,
                     g_strdup_printf (_("%d bytes of palette"), TEXM_PALETTE_SIZE),
                     g_strdup_printf ("%" G_GSIZE_FORMAT, size - pos));
          return NULL;
        }
      image->palette = data + pos;
      pos += TEXM_PALETTE_SIZE;
    }

  image->mip_offsets = g_new0 (gsize, h.mip_count);
  for (guint i = 0; i < h.mip_count; i++)
    {
      guint64 pixels = mip_pixels (h.width, h.height, i);
      gsize left = size - pos;

      /* pixels * bpp may not fit in 64 bits: compare by division. */
      if (pixels > left / bpp)
        {
          g_autofree char *need = NULL;

          if (pixels > G_MAXUINT64 / bpp)
            need = g_strdup_printf ("%" G_GUINT64_FORMAT " x %u", pixels, bpp);
          else
            need = g_strdup_printf ("%" G_GUINT64_FORMAT, pixels * bpp);

          set_error (error, TEXM_ERROR_TRUNCATED, entry_name, (guint64) base_offset + pos,
                     g_strdup_printf (_("%s bytes of mip level %u (%ux%u)"), need, i,
                                      mip_dim (h.width, i), mip_dim (h.height, i)),
                     g_strdup_printf ("%" G_GSIZE_FORMAT, left));
          return NULL;
        }
      image->mip_offsets[i] = pos;
      pos += (gsize) (pixels * bpp);
    }

  if (pos < size)
    {
      gsize left = size - pos;
      guint32 n_rects;

      if (left < 4 || get_u32 (data + pos) != TEXM_PAGE_MAGIC)
        {
          set_error (error, TEXM_ERROR_TRAILING_BYTES, entry_name, (guint64) base_offset + pos,
                     g_strdup (_("the end of the payload or a \"Page\" chunk")),
                     g_strdup_printf (_("%lu more bytes"), (unsigned long) left));
          return NULL;
        }
      if (left < 8)
        {
          set_error (error, TEXM_ERROR_BAD_PAGE, entry_name, (guint64) base_offset + pos + 4,
                     g_strdup (_("4 bytes of rectCount")),
                     g_strdup_printf ("%" G_GSIZE_FORMAT, left - 4));
          return NULL;
        }

      n_rects = get_u32 (data + pos + 4);
      /* n_rects * 8 < 2^35: no overflow in 64 bits. */
      if ((guint64) n_rects * PAGE_RECT_SIZE != (guint64) (left - 8))
        {
          set_error (error, TEXM_ERROR_BAD_PAGE, entry_name, (guint64) base_offset + pos + 8,
                     g_strdup_printf (_("%llu bytes of %u Page rects "
                                        "ending at the payload end"),
                                      (unsigned long long) n_rects * PAGE_RECT_SIZE, n_rects),
                     g_strdup_printf ("%" G_GSIZE_FORMAT, left - 8));
          return NULL;
        }

      image->has_page = TRUE;
      image->n_rects = n_rects;
      image->rects = g_new0 (TexmRect, MAX (n_rects, 1u));
      for (guint32 r = 0; r < n_rects; r++)
        {
          const guint8 *p = data + pos + 8 + (gsize) r * PAGE_RECT_SIZE;

          image->rects[r].x = (gint16) get_u16 (p + 0);
          image->rects[r].w = (gint16) get_u16 (p + 2);
          image->rects[r].y = (gint16) get_u16 (p + 4);
          image->rects[r].h = (gint16) get_u16 (p + 6);
        }
    }

  image->bytes = g_bytes_ref (payload);

  return g_steal_pointer (&image);
}

void
texm_mip_size (const TexmImage *image,
               guint            level,
               guint           *width,
               guint           *height)
{
  g_return_if_fail (image != NULL);

  if (width != NULL)
    *width = mip_dim (image->header.width, level);
  if (height != NULL)
    *height = mip_dim (image->header.height, level);
}

/* Channel expansion from n bits to 8 by bit replication: the top bits are
 * repeated into the low bits, so 0 maps to 0, the maximum to 255, and the
 * values are spread evenly (within rounding of v * 255 / max):
 *   5 bits: (v << 3) | (v >> 2)
 *   6 bits: (v << 2) | (v >> 4)
 *   4 bits: (v << 4) | v = v * 17 */
static inline guint8
expand5 (guint v)
{
  return (guint8) ((v << 3) | (v >> 2));
}

static inline guint8
expand6 (guint v)
{
  return (guint8) ((v << 2) | (v >> 4));
}

static inline guint8
expand4 (guint v)
{
  return (guint8) (v * 17);
}

/* Decodes @n pixels at @src (in @image's format) to RGBA8 at @out. */
static gboolean
decode_pixels (const TexmImage *image,
               const guint8    *src,
               gsize            n,
               guint8          *out)
{
  guint8 *o = out;

  switch (image->header.format)
    {
    case 0:
      for (gsize i = 0; i < n; i++, o += 4)
        {
          /* B, G, R, X (formats.md 3): the fourth byte is not alpha */
          const guint8 *e = image->palette + (gsize) src[i] * 4;

          o[0] = e[2];
          o[1] = e[1];
          o[2] = e[0];
          o[3] = 255;
        }
      break;

    case 565:
      for (gsize i = 0; i < n; i++, o += 4)
        {
          guint p = get_u16 (src + i * 2);

          o[0] = expand5 ((p >> 11) & 0x1F);
          o[1] = expand6 ((p >> 5) & 0x3F);
          o[2] = expand5 (p & 0x1F);
          o[3] = 255;
        }
      break;

    case 556:
      for (gsize i = 0; i < n; i++, o += 4)
        {
          guint p = get_u16 (src + i * 2);

          o[0] = expand5 ((p >> 11) & 0x1F);
          o[1] = expand5 ((p >> 6) & 0x1F);
          o[2] = expand6 (p & 0x3F);
          o[3] = 255;
        }
      break;

    case 4444:
      for (gsize i = 0; i < n; i++, o += 4)
        {
          guint p = get_u16 (src + i * 2);

          o[0] = expand4 ((p >> 8) & 0xF);
          o[1] = expand4 ((p >> 4) & 0xF);
          o[2] = expand4 (p & 0xF);
          o[3] = expand4 ((p >> 12) & 0xF);
        }
      break;

    case 88:
      for (gsize i = 0; i < n; i++, o += 4)
        {
          guint p = get_u16 (src + i * 2);

          o[0] = o[1] = o[2] = (guint8) (p >> 8);
          o[3] = (guint8) (p & 0xFF);
        }
      break;

    case 888:
    case 8888:
      for (gsize i = 0; i < n; i++, o += 4)
        {
          guint32 p = get_u32 (src + i * 4);

          o[0] = (p >> 16) & 0xFF;
          o[1] = (p >> 8) & 0xFF;
          o[2] = p & 0xFF;
          o[3] = image->header.format == 8888 ? (guint8) (p >> 24) : 255;
        }
      break;

    default:
      g_return_val_if_reached (FALSE);
    }
  return TRUE;
}

/* Where mip @level's pixels start in the payload, after the checks every
 * decoder makes; %NULL when @image was not made by texm_parse(). */
static const guint8 *
level_pixels (const TexmImage *image,
              guint            level,
              guint64         *n_pixels)
{
  const guint8 *src;
  guint64 n;
  gsize size;

  g_return_val_if_fail (image != NULL, NULL);
  g_return_val_if_fail (image->bytes != NULL, NULL);
  g_return_val_if_fail (level < image->header.mip_count, NULL);
  g_return_val_if_fail (texm_format_is_valid (image->header.format), NULL);
  g_return_val_if_fail (image->header.format != 0 || image->palette != NULL, NULL);

  n = mip_pixels (image->header.width, image->header.height, level);
  src = g_bytes_get_data (image->bytes, &size);
  g_return_val_if_fail (image->mip_offsets[level] <= size &&
                        n <= (size - image->mip_offsets[level]) / image->bytes_per_pixel,
                        NULL);
  *n_pixels = n;
  return src + image->mip_offsets[level];
}

guint8 *
texm_decode_rgba (const TexmImage *image,
                  guint            level,
                  guint           *width,
                  guint           *height)
{
  const guint8 *src;
  guint8 *out;
  guint64 n;

  src = level_pixels (image, level, &n);
  if (src == NULL)
    return NULL;

  out = g_malloc ((gsize) n * 4);
  if (!decode_pixels (image, src, (gsize) n, out))
    {
      g_free (out);
      return NULL;
    }

  if (width != NULL)
    *width = mip_dim (image->header.width, level);
  if (height != NULL)
    *height = mip_dim (image->header.height, level);

  return out;
}

gboolean
texm_decode_rgba_run (const TexmImage *image,
                      guint            level,
                      guint64          first,
                      gsize            n_pixels,
                      guint8          *out)
{
  const guint8 *src;
  guint64 n;

  g_return_val_if_fail (out != NULL || n_pixels == 0, FALSE);

  src = level_pixels (image, level, &n);
  if (src == NULL || first > n || n_pixels > n - first)
    return FALSE;
  return decode_pixels (image, src + (gsize) first * image->bytes_per_pixel, n_pixels, out);
}

static void
append_page (GByteArray     *out,
             const TexmRect *rects,
             guint           n_rects)
{
  guint8 head[8];

  put_u32 (head, TEXM_PAGE_MAGIC);
  put_u32 (head + 4, n_rects);
  g_byte_array_append (out, head, sizeof head);

  for (guint r = 0; r < n_rects; r++)
    {
      guint8 rec[PAGE_RECT_SIZE];

      put_u16 (rec + 0, (guint16) rects[r].x);
      put_u16 (rec + 2, (guint16) rects[r].w);
      put_u16 (rec + 4, (guint16) rects[r].y);
      put_u16 (rec + 6, (guint16) rects[r].h);
      g_byte_array_append (out, rec, sizeof rec);
    }
}

static void
append_header (GByteArray       *out,
               const TexmHeader *h)
{
  guint8 head[TEXM_HEADER_SIZE];

  put_u32 (head + 0, h->magic);
  put_u32 (head + 4, h->width);
  put_u32 (head + 8, h->height);
  put_u32 (head + 12, h->mip_count);
  put_u32 (head + 16, h->flags4);
  put_u32 (head + 20, h->flags5);
  put_u32 (head + 24, h->unk6);
  put_u32 (head + 28, h->format);
  g_byte_array_append (out, head, sizeof head);
}

GBytes *
texm_write (const TexmImage *image)
{
  g_autoptr(GByteArray) out = NULL;
  const guint8 *data;
  gsize size;
  guint bpp;

  g_return_val_if_fail (image != NULL, NULL);
  g_return_val_if_fail (image->bytes != NULL, NULL);
  bpp = texm_bytes_per_pixel (image->header.format);
  g_return_val_if_fail (bpp != 0, NULL);
  g_return_val_if_fail (image->header.mip_count <= TEXM_MAX_MIPS, NULL);
  g_return_val_if_fail (image->header.format != 0 || image->palette != NULL, NULL);
  g_return_val_if_fail (image->n_rects == 0 || image->rects != NULL, NULL);

  data = g_bytes_get_data (image->bytes, &size);
  out = g_byte_array_sized_new (size);

  append_header (out, &image->header);

  if (image->header.format == 0)
    g_byte_array_append (out, image->palette, TEXM_PALETTE_SIZE);

  for (guint i = 0; i < image->header.mip_count; i++)
    {
      guint64 pixels = mip_pixels (image->header.width, image->header.height, i);
      gsize off = image->mip_offsets[i];

      g_return_val_if_fail (off <= size && pixels <= (size - off) / bpp, NULL);
      g_byte_array_append (out, data + off, (guint) (pixels * bpp));
    }

  if (image->has_page)
    append_page (out, image->rects, image->n_rects);

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

GBytes *
texm_keep_replaced_flags (GBytes *payload,
                          GBytes *old)
{
  const guint8 *data;
  const guint8 *was;
  gsize size;
  gsize old_size;
  guint8 *copy;

  g_return_val_if_fail (payload != NULL, NULL);
  g_return_val_if_fail (old != NULL, NULL);

  data = g_bytes_get_data (payload, &size);
  was = g_bytes_get_data (old, &old_size);
  if (size < TEXM_HEADER_SIZE || get_u32 (data) != TEXM_MAGIC ||
      old_size < TEXM_HEADER_SIZE || get_u32 (was) != TEXM_MAGIC ||
      memcmp (data + 20, was + 20, 8) == 0)
    return g_bytes_ref (payload);

  copy = g_memdup2 (data, size);
  /* flags5 (+0x14) and unk6 (+0x18) */
  memcpy (copy + 20, was + 20, 8);
  return g_bytes_new_take (copy, size);
}

/* The builder lives with the picture conversion (texm-convert.c): one
 * place makes payloads, with one rounding rule and one mip chain. */
GBytes *
texm_encode_rgba (guint32         format,
                  guint           width,
                  guint           height,
                  guint           mip_count,
                  const guint8   *rgba,
                  const guint8   *palette,
                  const TexmRect *rects,
                  guint           n_rects)
{
  g_return_val_if_fail (n_rects == 0 || rects != NULL, NULL);

  return texm_encode_raw (format, width, height, mip_count, rgba, palette, FALSE,
                          rects != NULL, rects, n_rects);
}
