/* texm-convert.c - pictures to Texm payloads (formats.md section 3)
 *
 * The rules (sizes, alpha, rounding, dithering, palettes, the mip chain,
 * the header) are written down in texm-convert.h. Everything here is
 * integer arithmetic except libimagequant's own, so an encode gives the
 * same bytes on every machine (the quantized palette aside: libimagequant
 * may split its work over threads).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <libimagequant.h>

#include "cp1251.h"
#include "mat0.h"
#include "texm-convert.h"

#define TEXM_MAX_MIPS   32
#define PAGE_RECT_SIZE  8
#define MAX_COLOURS     255     /* palette indices 1..255; 0 stays unused */

G_DEFINE_QUARK (texm-encode-error-quark, texm_encode_error)

/* ---- small helpers ----------------------------------------------------- */

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

static inline guint32
mip_dim (guint32 dim, guint level)
{
  guint32 d = level < 32 ? dim >> level : 0;

  return MAX (d, 1u);
}

static inline gboolean
is_power_of_two (guint v)
{
  return v != 0 && (v & (v - 1)) == 0;
}

/* The decoder's expansion of an n-bit value to 8 bits (bit replication). */
static inline guint
expand (guint q, guint bits)
{
  switch (bits)
    {
    case 4:
      return q * 17;
    case 5:
      return (q << 3) | (q >> 2);
    case 6:
      return (q << 2) | (q >> 4);
    default:
      return q;
    }
}

/* Rounding to the nearest grid value: q = (v * max + 127) / 255 is always
 * one of the grid values nearest to v (checked for every v by the tests). */
static inline guint
quant (guint v, guint max)
{
  return (v * max + 127) / 255;
}

/* The same for a target in sixteenths of a step (0..4080): the linear
 * guess, then a neighbour if it is strictly nearer on the grid. */
static inline guint
quant16 (gint32 t, guint bits)
{
  guint max = (1u << bits) - 1;
  guint q = ((guint) t * max + 2040) / 4080;
  gint32 d = ABS (t - 16 * (gint32) expand (q, bits));

  if (q > 0 && ABS (t - 16 * (gint32) expand (q - 1, bits)) < d)
    return q - 1;
  if (q < max && ABS (t - 16 * (gint32) expand (q + 1, bits)) < d)
    return q + 1;
  return q;
}

gboolean
texm_format_has_alpha (guint32 format)
{
  return format == 4444 || format == 88 || format == 8888;
}

guint
texm_full_mip_count (guint width,
                     guint height)
{
  guint m = MAX (width, height);
  guint n = 1;

  while (m > 1)
    {
      m >>= 1;
      n++;
    }
  return n;
}

gsize
texm_encoded_size (guint32  format,
                   guint    width,
                   guint    height,
                   guint    mip_count,
                   gboolean page,
                   guint    n_rects)
{
  guint bpp = texm_bytes_per_pixel (format);
  guint64 size;

  if (bpp == 0 || width == 0 || height == 0)
    return 0;
  if (mip_count == 0)
    mip_count = texm_full_mip_count (width, height);

  size = TEXM_HEADER_SIZE + (format == 0 ? TEXM_PALETTE_SIZE : 0);
  for (guint i = 0; i < mip_count && i < TEXM_MAX_MIPS; i++)
    size += (guint64) mip_dim (width, i) * mip_dim (height, i) * bpp;
  if (page)
    size += 8 + (guint64) n_rects * PAGE_RECT_SIZE;

  return size <= G_MAXSIZE ? (gsize) size : 0;
}

void
texm_encode_options_init (TexmEncodeOptions *options,
                          guint32            format)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->format = format;
}

/* ---- checks ------------------------------------------------------------ */

gboolean
texm_check_picture_size (guint    width,
                         guint    height,
                         GError **error)
{
  if (!is_power_of_two (width) || width > TEXM_MAX_SIDE)
    {
      g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE,
                   _("the picture is %ux%u: expected each side a power of two "
                     "from 1 to %u, found a width of %u"),
                   width, height, (guint) TEXM_MAX_SIDE, width);
      return FALSE;
    }
  if (!is_power_of_two (height) || height > TEXM_MAX_SIDE)
    {
      g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE,
                   _("the picture is %ux%u: expected each side a power of two "
                     "from 1 to %u, found a height of %u"),
                   width, height, (guint) TEXM_MAX_SIDE, height);
      return FALSE;
    }
  return TRUE;
}

guint
texm_next_power_of_two (guint side)
{
  guint p = 1;

  if (side == 0 || side > TEXM_MAX_SIDE)
    return 0;
  while (p < side)
    p <<= 1;
  return p;
}

/* Where output texel @x of @big samples a side of @small texels
 * (texm_fit_power_of_two): the first texel and the weight of the next
 * one, in 256ths. */
static void
bilinear_tap (guint  x,
              guint  small,
              guint  big,
              guint *x0,
              guint *x1,
              guint *weight)
{
  gint64 n = (gint64) (2 * x + 1) * small - big;
  guint64 den = 2 * (guint64) big;
  guint64 rem;
  guint f;

  if (n <= 0)
    {
      *x0 = 0;
      *weight = 0;
    }
  else
    {
      *x0 = (guint) ((guint64) n / den);
      rem = (guint64) n % den;
      f = (guint) ((rem * 256 + big) / den);
      if (f >= 256)
        {
          (*x0)++;
          f = 0;
        }
      *weight = f;
    }
  *x0 = MIN (*x0, small - 1);
  *x1 = MIN (*x0 + 1, small - 1);
}

guint8 *
texm_fit_power_of_two (const guint8 *rgba,
                       guint         width,
                       guint         height,
                       gsize         stride,
                       TexmResize    how,
                       guint        *out_width,
                       guint        *out_height,
                       GError      **error)
{
  guint w2 = texm_next_power_of_two (width);
  guint h2 = texm_next_power_of_two (height);
  g_autofree guint *xs = NULL;
  guint8 *out;

  g_return_val_if_fail (rgba != NULL || width == 0 || height == 0, NULL);
  g_return_val_if_fail (out_width != NULL && out_height != NULL, NULL);

  if (w2 == 0 || h2 == 0)
    {
      g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE,
                   _("the picture is %ux%u: expected each side from 1 to %u pixels"),
                   width, height, (guint) TEXM_MAX_SIDE);
      return NULL;
    }
  if (how == TEXM_RESIZE_NONE && !texm_check_picture_size (width, height, error))
    return NULL;
  if (stride == 0)
    stride = (gsize) width * 4;
  g_return_val_if_fail (stride >= (gsize) width * 4, NULL);

  *out_width = w2;
  *out_height = h2;
  out = g_malloc ((gsize) w2 * h2 * 4);

  if (how != TEXM_RESIZE_SCALE)
    {
      /* a copy, or the last column and row repeated */
      for (guint y = 0; y < h2; y++)
        {
          const guint8 *row = rgba + (gsize) MIN (y, height - 1) * stride;
          guint8 *dst = out + (gsize) y * w2 * 4;

          memcpy (dst, row, (gsize) width * 4);
          for (guint x = width; x < w2; x++)
            memcpy (dst + (gsize) x * 4, row + (gsize) (width - 1) * 4, 4);
        }
      return out;
    }

  /* the columns' taps once: x0, x1, weight */
  xs = g_new (guint, (gsize) w2 * 3);
  for (guint x = 0; x < w2; x++)
    bilinear_tap (x, width, w2, &xs[3 * x], &xs[3 * x + 1], &xs[3 * x + 2]);

  for (guint y = 0; y < h2; y++)
    {
      guint y0, y1, fy;
      const guint8 *rows[2];
      guint8 *dst = out + (gsize) y * w2 * 4;

      bilinear_tap (y, height, h2, &y0, &y1, &fy);
      rows[0] = rgba + (gsize) y0 * stride;
      rows[1] = rgba + (gsize) y1 * stride;
      for (guint x = 0; x < w2; x++)
        {
          const guint cols[2] = { xs[3 * x], xs[3 * x + 1] };
          const guint fx = xs[3 * x + 2];
          guint64 weights[4], sum_a = 0, sum_c[3] = { 0, 0, 0 }, plain_c[3] = { 0, 0, 0 };
          const guint8 *taps[4];

          weights[0] = (guint64) (256 - fx) * (256 - fy);
          weights[1] = (guint64) fx * (256 - fy);
          weights[2] = (guint64) (256 - fx) * fy;
          weights[3] = (guint64) fx * fy;
          taps[0] = rows[0] + (gsize) cols[0] * 4;
          taps[1] = rows[0] + (gsize) cols[1] * 4;
          taps[2] = rows[1] + (gsize) cols[0] * 4;
          taps[3] = rows[1] + (gsize) cols[1] * 4;
          for (guint k = 0; k < 4; k++)
            {
              guint64 wa = weights[k] * taps[k][3];

              sum_a += wa;
              for (guint c = 0; c < 3; c++)
                {
                  sum_c[c] += wa * taps[k][c];
                  plain_c[c] += weights[k] * taps[k][c];
                }
            }
          for (guint c = 0; c < 3; c++)
            dst[4 * x + c] = (guint8) (sum_a > 0 ? (sum_c[c] + sum_a / 2) / sum_a
                                                 : (plain_c[c] + 32768) >> 16);
          dst[4 * x + 3] = (guint8) ((sum_a + 32768) >> 16);
        }
    }
  return out;
}

gboolean
texm_check_cells (guint           width,
                  guint           height,
                  const TexmRect *rects,
                  guint           n_rects,
                  GError        **error)
{
  g_return_val_if_fail (n_rects == 0 || rects != NULL, FALSE);

  for (guint i = 0; i < n_rects; i++)
    {
      const TexmRect *r = &rects[i];

      if (r->x < 0 || r->y < 0 || r->w <= 0 || r->h <= 0 ||
          (guint) r->x + (guint) r->w > width || (guint) r->y + (guint) r->h > height)
        {
          g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_CELL,
                       _("cell %u (x %d, w %d, y %d, h %d): expected a rectangle "
                         "of positive size inside the %ux%u picture"),
                       i, r->x, r->w, r->y, r->h, width, height);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
texm_check_texture_name (const char  *utf8,
                         guint8      *field,
                         GError     **error)
{
  guint8 buf[TEXM_NAME_MAX_BYTES + 1];
  g_autoptr(GError) local = NULL;
  const guint8 *dot;
  gsize len;
  gint palette;

  g_return_val_if_fail (utf8 != NULL, FALSE);

  if (utf8[0] == '\0')
    {
      g_set_error_literal (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_NAME,
                           _("texture name: expected a name, found an empty one"));
      return FALSE;
    }
  if (!cp1251_from_utf8 (utf8, buf, sizeof buf, &local))
    {
      g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_NAME,
                   _("texture name “%s”: %s"), utf8, local->message);
      return FALSE;
    }

  len = strlen ((const char *) buf);
  dot = memchr (buf, '.', len);
  if (dot == NULL)
    {
      g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_NAME,
                   _("texture name “%s”: expected a '.' (without one the game "
                     "logs “Bad texture name.” and draws no texture), found none"),
                   utf8);
      return FALSE;
    }
  palette = mat0_palette_index_at (buf, len, (gsize) (dot - buf));
  if (palette >= TEXM_PALETTE_BANK_SIZE)
    {
      g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_NAME,
                   _("texture name “%s”: expected a palette suffix (the letter "
                     "and digit after the '.') with an index below %d, found %d"),
                   utf8, TEXM_PALETTE_BANK_SIZE, palette);
      return FALSE;
    }

  if (field != NULL)
    memcpy (field, buf, sizeof buf);
  return TRUE;
}

TexmAlphaKind
texm_picture_alpha (const guint8 *rgba,
                    guint         width,
                    guint         height,
                    gsize         stride)
{
  TexmAlphaKind kind = TEXM_ALPHA_NONE;

  g_return_val_if_fail (rgba != NULL || width == 0 || height == 0, TEXM_ALPHA_NONE);

  if (stride == 0)
    stride = (gsize) width * 4;
  for (guint y = 0; y < height; y++)
    {
      const guint8 *row = rgba + (gsize) y * stride;

      for (guint x = 0; x < width; x++)
        {
          guint8 a = row[x * 4 + 3];

          if (a == 0)
            kind = TEXM_ALPHA_BINARY;
          else if (a != 255)
            return TEXM_ALPHA_GRADED;
        }
    }
  return kind;
}

guint32
texm_suggest_format (const guint8 *rgba,
                     guint         width,
                     guint         height,
                     gsize         stride)
{
  g_autofree guint32 *seen = NULL;
  gboolean alpha_seen[256] = { FALSE };
  guint n_alpha = 0;
  guint n_colours = 0;

  g_return_val_if_fail (rgba != NULL || width == 0 || height == 0, 565);

  if (texm_picture_alpha (rgba, width, height, stride) == TEXM_ALPHA_NONE)
    return 565;

  if (stride == 0)
    stride = (gsize) width * 4;
  /* one bit per 24-bit colour: 2 MiB */
  seen = g_new0 (guint32, (1u << 24) / 32);
  for (guint y = 0; y < height; y++)
    {
      const guint8 *row = rgba + (gsize) y * stride;

      for (guint x = 0; x < width; x++)
        {
          const guint8 *p = row + x * 4;
          guint32 c = ((guint32) p[0] << 16) | ((guint32) p[1] << 8) | p[2];

          if (!alpha_seen[p[3]])
            {
              alpha_seen[p[3]] = TRUE;
              if (++n_alpha > 16)
                return 8888;
            }
          if ((seen[c >> 5] & (1u << (c & 31))) == 0)
            {
              seen[c >> 5] |= 1u << (c & 31);
              if (++n_colours > 4096)
                return 8888;
            }
        }
    }
  return 4444;
}

/* ---- the mip chain ----------------------------------------------------- */

/* Level @level of the chain from level 0 (@w0 x @h0, contiguous): each
 * texel the truncated average of the level-0 block under it, the block
 * 2^level texels per side clipped to the picture. Returns: (transfer full). */
static guint8 *
box_level (const guint8 *rgba0,
           guint32       w0,
           guint32       h0,
           guint         level,
           guint32      *out_w,
           guint32      *out_h)
{
  guint32 dw = mip_dim (w0, level);
  guint32 dh = mip_dim (h0, level);
  guint64 step = (guint64) 1 << level;
  guint32 bx = (guint32) MIN (step, (guint64) w0);
  guint32 by = (guint32) MIN (step, (guint64) h0);
  guint64 count = (guint64) bx * by;
  g_autofree guint64 *sums = g_new (guint64, (gsize) dw * 4);
  guint8 *out = g_malloc ((gsize) dw * dh * 4);

  for (guint32 y = 0; y < dh; y++)
    {
      memset (sums, 0, (gsize) dw * 4 * sizeof (guint64));
      for (guint32 sy = 0; sy < by; sy++)
        {
          const guint8 *row = rgba0 + ((gsize) y * step + sy) * w0 * 4;

          for (guint32 x = 0; x < dw; x++)
            {
              const guint8 *p = row + (gsize) x * step * 4;
              guint64 *s = sums + (gsize) x * 4;

              for (guint32 sx = 0; sx < bx; sx++, p += 4)
                {
                  s[0] += p[0];
                  s[1] += p[1];
                  s[2] += p[2];
                  s[3] += p[3];
                }
            }
        }
      for (guint32 x = 0; x < dw * 4; x++)
        out[(gsize) y * dw * 4 + x] = (guint8) (sums[x] / count);
    }

  *out_w = dw;
  *out_h = dh;
  return out;
}

/* The same levels one after the other for a picture whose sides are
 * powers of two: the sums of a level's blocks are the sums of the four (or
 * two, once a side is 1) blocks of the level before, so each level costs
 * its own size instead of the whole picture, and the texels are the very
 * same truncated means. Sums fit 32 bits up to 2^24 texels. */
typedef struct {
  const guint8 *rgba0;
  guint32       w0, h0;
  guint         level;     /* of @sums; 0 before the first step */
  guint32       w, h;
  guint32      *sums;      /* w * h * 4 */
} Pyramid;

static gboolean
pyramid_fits (guint32 w0, guint32 h0)
{
  return is_power_of_two (w0) && is_power_of_two (h0) && (guint64) w0 * h0 <= (1u << 24);
}

static void
pyramid_clear (Pyramid *p)
{
  g_clear_pointer (&p->sums, g_free);
}

/* Advances to the next level and returns its texels. Returns: (transfer
 * full). */
static guint8 *
pyramid_next (Pyramid  *p,
              guint32  *out_w,
              guint32  *out_h)
{
  guint32 cx = p->w > 1 ? 2 : 1;
  guint32 cy = p->h > 1 ? 2 : 1;
  guint32 nw = p->w / cx, nh = p->h / cy;
  guint32 *next = g_new (guint32, (gsize) nw * nh * 4);
  guint shift;
  guint8 *out;

  /* the first step reads the picture's bytes, the later ones the sums;
   * the usual 2x2 case spelled out */
#define SUM_STEP(src)                                                        \
  for (guint32 y = 0; y < nh; y++)                                           \
    {                                                                        \
      const __typeof__ (*(src)) *r0 = (src) + (gsize) y * cy * p->w * 4;    \
      const __typeof__ (*(src)) *r1 = r0 + (cy == 2 ? (gsize) p->w * 4 : 0); \
      guint32 *o = next + (gsize) y * nw * 4;                                \
                                                                             \
      if (cx == 2 && cy == 2)                                                \
        for (guint32 x = 0; x < nw; x++, o += 4, r0 += 8, r1 += 8)           \
          for (guint c = 0; c < 4; c++)                                      \
            o[c] = (guint32) r0[c] + r0[4 + c] + r1[c] + r1[4 + c];          \
      else if (cx == 2)                                                      \
        for (guint32 x = 0; x < nw; x++, o += 4, r0 += 8)                    \
          for (guint c = 0; c < 4; c++)                                      \
            o[c] = (guint32) r0[c] + r0[4 + c];                              \
      else                                                                   \
        for (guint32 x = 0; x < nw; x++, o += 4, r0 += 4, r1 += 4)           \
          for (guint c = 0; c < 4; c++)                                      \
            o[c] = (guint32) r0[c] + (cy == 2 ? r1[c] : 0);                  \
    }

  if (p->sums == NULL)
    {
      SUM_STEP (p->rgba0)
    }
  else
    {
      SUM_STEP (p->sums)
    }
#undef SUM_STEP

  g_free (p->sums);
  p->sums = next;
  p->w = nw;
  p->h = nh;
  p->level++;

  /* the block has 2^shift texels: the mean is a shift */
  shift = 0;
  for (guint32 bx = MIN ((guint64) 1 << p->level, (guint64) p->w0); bx > 1; bx >>= 1)
    shift++;
  for (guint32 by = MIN ((guint64) 1 << p->level, (guint64) p->h0); by > 1; by >>= 1)
    shift++;
  out = g_malloc ((gsize) nw * nh * 4);
  for (gsize k = 0; k < (gsize) nw * nh * 4; k++)
    out[k] = (guint8) (next[k] >> shift);
  *out_w = nw;
  *out_h = nh;
  return out;
}

/* ---- channel formats --------------------------------------------------- */

typedef struct {
  guint bits[4];   /* R, G, B, A; 0 = not stored */
} ChannelLayout;

static gboolean
channel_layout (guint32 format, ChannelLayout *layout)
{
  static const ChannelLayout l565 = { { 5, 6, 5, 0 } };
  static const ChannelLayout l556 = { { 5, 5, 6, 0 } };
  static const ChannelLayout l4444 = { { 4, 4, 4, 4 } };

  switch (format)
    {
    case 565:
      *layout = l565;
      return TRUE;
    case 556:
      *layout = l556;
      return TRUE;
    case 4444:
      *layout = l4444;
      return TRUE;
    default:
      return FALSE;
    }
}

/* Grid values of every channel, 4 per pixel, rounded or dithered. */
static void
quantize_channels (const guint8        *rgba,
                   guint32              w,
                   guint32              h,
                   const ChannelLayout *layout,
                   gboolean             dither,
                   guint8              *q)
{
  gsize n = (gsize) w * h;
  g_autofree gint32 *rows = NULL;
  gint32 *cur, *next;

  if (!dither)
    {
      guint8 lut[4][256];

      for (guint c = 0; c < 4; c++)
        for (guint v = 0; v < 256; v++)
          lut[c][v] = layout->bits[c] != 0 ? (guint8) quant (v, (1u << layout->bits[c]) - 1) : 0;
      for (gsize i = 0; i < n; i++)
        for (guint c = 0; c < 4; c++)
          q[i * 4 + c] = lut[c][rgba[i * 4 + c]];
      return;
    }

  /* Two rows of diffused error with a border texel on each side; the
   * shares that land in a border are outside the picture: dropped. */
  rows = g_new0 (gint32, 2 * ((gsize) w + 2) * 4);
  cur = rows;
  next = rows + ((gsize) w + 2) * 4;
  for (guint32 y = 0; y < h; y++)
    {
      memset (next, 0, ((gsize) w + 2) * 4 * sizeof (gint32));
      for (guint32 x = 0; x < w; x++)
        {
          gsize i = ((gsize) y * w + x) * 4;

          for (guint c = 0; c < 4; c++)
            {
              guint bits = layout->bits[c];
              gint32 t, e, e7, e3, e5;
              guint g;

              if (bits == 0)
                {
                  q[i + c] = 0;
                  continue;
                }
              t = 16 * (gint32) rgba[i + c] + cur[(x + 1) * 4 + c];
              t = CLAMP (t, 0, 4080);
              g = quant16 (t, bits);
              q[i + c] = (guint8) g;
              e = t - 16 * (gint32) expand (g, bits);
              e7 = e * 7 / 16;
              e3 = e * 3 / 16;
              e5 = e * 5 / 16;
              cur[(x + 2) * 4 + c] += e7;
              next[x * 4 + c] += e3;
              next[(x + 1) * 4 + c] += e5;
              next[(x + 2) * 4 + c] += e - e7 - e3 - e5;
            }
        }
      {
        gint32 *t = cur;

        cur = next;
        next = t;
      }
    }
}

/* ---- palettes ---------------------------------------------------------- */

/* The palette as the payload stores it: 256 entries of B, G, R, X
 * (formats.md 3, the memory order of 888 and 8888). */
typedef struct {
  guint8 palette[TEXM_PALETTE_SIZE];
  guint  n_entries;        /* entries 1..n_entries are searched */
  guint8 *level0;          /* indices of level 0 when already known */
  guint  n_colours;
  gboolean quantized;
} Palette;

static void
palette_clear (Palette *pal)
{
  g_clear_pointer (&pal->level0, g_free);
}

/* Channel @c (0 red, 1 green, 2 blue) of entry @e. */
static inline guint8
entry_channel (const Palette *pal,
               guint          e,
               guint          c)
{
  return pal->palette[e * 4 + 2 - c];
}

/* Entry @e is the colour 0xRRGGBB, written B, G, R and a 0 byte. */
static void
set_entry (Palette *pal,
           guint    e,
           guint8   r,
           guint8   g,
           guint8   b)
{
  pal->palette[e * 4 + 0] = b;
  pal->palette[e * 4 + 1] = g;
  pal->palette[e * 4 + 2] = r;
  pal->palette[e * 4 + 3] = 0;
}

/* Entries past the last colour repeat it: nearest-colour searches over
 * 1..255 (a fixed palette) then find what a search over 1..n finds, so a
 * decoded texture maps back to the same indices. Entry 0 stays zero. */
static void
palette_pad (Palette *pal)
{
  for (guint e = pal->n_entries + 1; e <= MAX_COLOURS && pal->n_entries > 0; e++)
    memcpy (pal->palette + e * 4, pal->palette + pal->n_entries * 4, 4);
}

/* Nearest entry in 1..n to a colour given in sixteenths (0..4080 each):
 * squared distance, the lowest index on a tie. */
static guint8
nearest_entry (const Palette *pal,
               gint32         r16,
               gint32         g16,
               gint32         b16)
{
  guint best = 1;
  guint32 best_d = G_MAXUINT32;

  for (guint e = 1; e <= pal->n_entries; e++)
    {
      gint32 dr = 16 * (gint32) entry_channel (pal, e, 0) - r16;
      gint32 dg = 16 * (gint32) entry_channel (pal, e, 1) - g16;
      gint32 db = 16 * (gint32) entry_channel (pal, e, 2) - b16;
      guint32 d = (guint32) (dr * dr) + (guint32) (dg * dg) + (guint32) (db * db);

      if (d < best_d)
        {
          best = e;
          best_d = d;
          if (d == 0)
            break;
        }
    }
  return (guint8) best;
}

#define CACHE_BITS 12

static void
map_to_palette (const Palette *pal,
                const guint8  *rgba,
                guint32        w,
                guint32        h,
                gboolean       dither,
                guint8        *out)
{
  g_autofree gint32 *rows = NULL;
  gint32 *cur, *next;

  if (!dither)
    {
      /* a direct-mapped cache: pictures repeat their colours */
      g_autofree guint32 *keys = g_new0 (guint32, 1u << CACHE_BITS);
      g_autofree guint8 *values = g_new0 (guint8, 1u << CACHE_BITS);
      gsize n = (gsize) w * h;

      for (gsize i = 0; i < n; i++)
        {
          const guint8 *p = rgba + i * 4;
          guint32 c = ((guint32) p[0] << 16) | ((guint32) p[1] << 8) | p[2];
          guint32 key = c | 0x1000000u;
          guint slot = ((c * 2654435761u) >> (32 - CACHE_BITS));

          if (keys[slot] != key)
            {
              keys[slot] = key;
              values[slot] = nearest_entry (pal, 16 * p[0], 16 * p[1], 16 * p[2]);
            }
          out[i] = values[slot];
        }
      return;
    }

  rows = g_new0 (gint32, 2 * ((gsize) w + 2) * 3);
  cur = rows;
  next = rows + ((gsize) w + 2) * 3;
  for (guint32 y = 0; y < h; y++)
    {
      memset (next, 0, ((gsize) w + 2) * 3 * sizeof (gint32));
      for (guint32 x = 0; x < w; x++)
        {
          gsize i = (gsize) y * w + x;
          const guint8 *p = rgba + i * 4;
          gint32 t[3];
          guint8 e;

          for (guint c = 0; c < 3; c++)
            t[c] = CLAMP (16 * (gint32) p[c] + cur[(x + 1) * 3 + c], 0, 4080);
          e = nearest_entry (pal, t[0], t[1], t[2]);
          out[i] = e;
          for (guint c = 0; c < 3; c++)
            {
              gint32 err = t[c] - 16 * (gint32) entry_channel (pal, e, c);
              gint32 e7 = err * 7 / 16, e3 = err * 3 / 16, e5 = err * 5 / 16;

              cur[(x + 2) * 3 + c] += e7;
              next[x * 3 + c] += e3;
              next[(x + 1) * 3 + c] += e5;
              next[(x + 2) * 3 + c] += err - e7 - e3 - e5;
            }
        }
      {
        gint32 *t = cur;

        cur = next;
        next = t;
      }
    }
}

static int
compare_u32 (const void *a, const void *b)
{
  guint32 ua = *(const guint32 *) a, ub = *(const guint32 *) b;

  return ua < ub ? -1 : ua > ub;
}

/* At most MAX_COLOURS distinct colours: the palette is exactly them,
 * sorted, and level 0 maps without error. FALSE when there are more. */
static gboolean
exact_palette (const guint8 *rgba,
               gsize         n,
               Palette      *pal)
{
  /* open addressing, 512 slots for at most 255 colours */
  guint32 table[512] = { 0 };
  guint32 colours[MAX_COLOURS];
  guint n_colours = 0;

  for (gsize i = 0; i < n; i++)
    {
      const guint8 *p = rgba + i * 4;
      guint32 c = ((guint32) p[0] << 16) | ((guint32) p[1] << 8) | p[2];
      guint32 key = c | 0x1000000u;
      guint slot = (c * 2654435761u) >> 23;

      while (table[slot] != 0 && table[slot] != key)
        slot = (slot + 1) & 511;
      if (table[slot] == 0)
        {
          if (n_colours == MAX_COLOURS)
            return FALSE;
          table[slot] = key;
          colours[n_colours++] = c;
        }
    }

  qsort (colours, n_colours, sizeof (guint32), compare_u32);
  memset (pal->palette, 0, sizeof pal->palette);
  for (guint e = 0; e < n_colours; e++)
    set_entry (pal, e + 1, (guint8) (colours[e] >> 16), (guint8) (colours[e] >> 8),
               (guint8) colours[e]);
  pal->n_entries = n_colours;
  pal->n_colours = n_colours;
  palette_pad (pal);
  pal->level0 = g_malloc (MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      const guint8 *p = rgba + i * 4;
      guint32 c = ((guint32) p[0] << 16) | ((guint32) p[1] << 8) | p[2];
      const guint32 *hit = bsearch (&c, colours, n_colours, sizeof (guint32), compare_u32);

      pal->level0[i] = (guint8) (hit - colours + 1);
    }
  return TRUE;
}

static gboolean
quantized_palette (const guint8 *rgba,
                   guint32       w,
                   guint32       h,
                   gboolean      dither,
                   Palette      *pal,
                   GError      **error)
{
  gsize n = (gsize) w * h;
  g_autofree guint8 *opaque = g_memdup2 (rgba, n * 4);
  liq_attr *attr = NULL;
  liq_image *image = NULL;
  liq_result *result = NULL;
  const liq_palette *lp;
  liq_error err;
  gboolean ok = FALSE;

  /* format 0 has no alpha: quantize the colour alone */
  for (gsize i = 0; i < n; i++)
    opaque[i * 4 + 3] = 255;

  attr = liq_attr_create ();
  if (attr == NULL)
    goto out;
  err = liq_set_max_colors (attr, MAX_COLOURS);
  if (err != LIQ_OK)
    goto failed;
  image = liq_image_create_rgba (attr, opaque, (int) w, (int) h, 0);
  if (image == NULL)
    goto out;
  err = liq_image_quantize (image, attr, &result);
  if (err != LIQ_OK)
    goto failed;
  err = liq_set_dithering_level (result, dither ? 1.0f : 0.0f);
  if (err != LIQ_OK)
    goto failed;
  pal->level0 = g_malloc (n);
  err = liq_write_remapped_image (result, image, pal->level0, n);
  if (err != LIQ_OK)
    goto failed;

  /* read after remapping: libimagequant refines the palette there */
  lp = liq_get_palette (result);
  memset (pal->palette, 0, sizeof pal->palette);
  for (guint e = 0; e < lp->count && e < MAX_COLOURS; e++)
    set_entry (pal, e + 1, lp->entries[e].r, lp->entries[e].g, lp->entries[e].b);
  pal->n_entries = MIN (lp->count, (guint) MAX_COLOURS);
  pal->n_colours = pal->n_entries;
  pal->quantized = TRUE;
  palette_pad (pal);
  for (gsize i = 0; i < n; i++)
    pal->level0[i] = (guint8) MIN (pal->level0[i] + 1u, pal->n_entries);
  ok = TRUE;
  goto out;

failed:
  g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_QUANTIZE,
               _("libimagequant could not reduce the picture to %d colours "
                 "(error %d)"), MAX_COLOURS, (int) err);
out:
  if (!ok && error != NULL && *error == NULL)
    g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_QUANTIZE,
                 _("libimagequant could not reduce the picture to %d colours "
                   "(out of memory)"), MAX_COLOURS);
  if (result != NULL)
    liq_result_destroy (result);
  if (image != NULL)
    liq_image_destroy (image);
  if (attr != NULL)
    liq_attr_destroy (attr);
  return ok;
}

/* ---- the payload ------------------------------------------------------- */

static void
append_level (GByteArray    *out,
              guint32        format,
              const guint8  *rgba,
              guint32        w,
              guint32        h,
              gboolean       dither,
              const Palette *pal,
              const guint8  *indices)
{
  gsize n = (gsize) w * h;
  guint start = out->len;
  guint bpp = texm_bytes_per_pixel (format);
  guint8 *dst;
  ChannelLayout layout;

  g_byte_array_set_size (out, start + (guint) (n * bpp));
  dst = out->data + start;

  if (format == 0)
    {
      if (indices != NULL)
        memcpy (dst, indices, n);
      else
        map_to_palette (pal, rgba, w, h, dither, dst);
      return;
    }

  if (channel_layout (format, &layout))
    {
      g_autofree guint8 *q = g_malloc (n * 4);

      quantize_channels (rgba, w, h, &layout, dither, q);
      for (gsize i = 0; i < n; i++)
        {
          const guint8 *c = q + i * 4;
          guint16 v;

          if (format == 565)
            v = (guint16) ((c[0] << 11) | (c[1] << 5) | c[2]);
          else if (format == 556)
            v = (guint16) ((c[0] << 11) | (c[1] << 6) | c[2]);
          else
            v = (guint16) ((c[3] << 12) | (c[0] << 8) | (c[1] << 4) | c[2]);
          put_u16 (dst + i * 2, v);
        }
      return;
    }

  for (gsize i = 0; i < n; i++)
    {
      const guint8 *p = rgba + i * 4;

      switch (format)
        {
        case 88:
          /* luminance by the integer Rec. 601 weights (77 + 150 + 29 =
           * 256), exact for grey pixels */
          put_u16 (dst + i * 2,
                   (guint16) ((((77u * p[0] + 150u * p[1] + 29u * p[2] + 128) >> 8) << 8) | p[3]));
          break;
        case 888:
          /* the unused X byte is written as 0 */
          put_u32 (dst + i * 4, ((guint32) p[0] << 16) | ((guint32) p[1] << 8) | p[2]);
          break;
        case 8888:
          put_u32 (dst + i * 4, ((guint32) p[3] << 24) | ((guint32) p[0] << 16) |
                                ((guint32) p[1] << 8) | p[2]);
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

/* Header, palette, every level, Page: the one place payloads are built. */
static GBytes *
build_payload (guint32         format,
               const guint8   *rgba0,
               guint32         width,
               guint32         height,
               guint           mip_count,
               gboolean        dither,
               const Palette  *pal,
               gboolean        page,
               const TexmRect *rects,
               guint           n_rects)
{
  g_autoptr(GByteArray) out = NULL;
  guint8 head[TEXM_HEADER_SIZE];
  Pyramid pyramid = { rgba0, width, height, 0, width, height, NULL };
  gboolean fits = pyramid_fits (width, height);

  out = g_byte_array_sized_new ((guint) texm_encoded_size (format, width, height, mip_count,
                                                           page, n_rects));

  put_u32 (head + 0, TEXM_MAGIC);
  put_u32 (head + 4, width);
  put_u32 (head + 8, height);
  put_u32 (head + 12, mip_count);
  put_u32 (head + 16, mip_count > 1 ? TEXM_FLAGS4_MIPMAPPED : 0);
  put_u32 (head + 20, 0);   /* flags5 */
  put_u32 (head + 24, 0);   /* unk6 */
  put_u32 (head + 28, format);
  g_byte_array_append (out, head, sizeof head);
  if (format == 0)
    g_byte_array_append (out, pal->palette, TEXM_PALETTE_SIZE);

  for (guint level = 0; level < mip_count; level++)
    {
      if (level == 0)
        append_level (out, format, rgba0, width, height, dither, pal,
                      format == 0 ? pal->level0 : NULL);
      else
        {
          guint32 w, h;
          g_autofree guint8 *px = fits ? pyramid_next (&pyramid, &w, &h)
                                       : box_level (rgba0, width, height, level, &w, &h);

          append_level (out, format, px, w, h, dither, pal, NULL);
        }
    }

  pyramid_clear (&pyramid);

  if (page)
    {
      guint8 rec[8];

      put_u32 (rec, TEXM_PAGE_MAGIC);
      put_u32 (rec + 4, n_rects);
      g_byte_array_append (out, rec, 8);
      for (guint r = 0; r < n_rects; r++)
        {
          put_u16 (rec + 0, (guint16) rects[r].x);
          put_u16 (rec + 2, (guint16) rects[r].w);
          put_u16 (rec + 4, (guint16) rects[r].y);
          put_u16 (rec + 6, (guint16) rects[r].h);
          g_byte_array_append (out, rec, PAGE_RECT_SIZE);
        }
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static void
fixed_palette (Palette      *pal,
               const guint8 *palette)
{
  memcpy (pal->palette, palette, TEXM_PALETTE_SIZE);
  pal->n_entries = MAX_COLOURS;
  pal->n_colours = 0;
}

GBytes *
texm_encode_raw (guint32         format,
                 guint           width,
                 guint           height,
                 guint           mip_count,
                 const guint8   *rgba,
                 const guint8   *palette,
                 gboolean        dither,
                 gboolean        page,
                 const TexmRect *rects,
                 guint           n_rects)
{
  Palette pal = { { 0 }, 0, NULL, 0, FALSE };
  GBytes *bytes;

  g_return_val_if_fail (texm_format_is_valid (format), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);
  g_return_val_if_fail (mip_count > 0 && mip_count <= TEXM_MAX_MIPS, NULL);
  /* GByteArray lengths are guint */
  g_return_val_if_fail ((guint64) width * height <= G_MAXUINT / 4, NULL);
  g_return_val_if_fail (texm_encoded_size (format, width, height, mip_count,
                                           page, n_rects) - 1 < G_MAXUINT, NULL);
  g_return_val_if_fail (rgba != NULL, NULL);
  g_return_val_if_fail (format != 0 || palette != NULL, NULL);
  g_return_val_if_fail (n_rects == 0 || rects != NULL, NULL);

  if (format == 0)
    fixed_palette (&pal, palette);
  bytes = build_payload (format, rgba, width, height, mip_count, dither, &pal,
                         page, rects, n_rects);
  palette_clear (&pal);
  return bytes;
}

/* ---- the checked encoder ----------------------------------------------- */

/* Checks @options against the picture, copies it contiguous and builds
 * the palette; what texm_encode and texm_encode_preview share. */
static gboolean
prepare (const guint8             *rgba,
         guint                     width,
         guint                     height,
         gsize                     stride,
         const TexmEncodeOptions  *options,
         guint8                  **pixels,
         guint                    *mip_count,
         Palette                  *pal,
         GError                  **error)
{
  guint full;
  gsize n;

  if (!texm_format_is_valid (options->format))
    {
      g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_FORMAT,
                   _("expected format 0, 565, 556, 4444, 88, 888 or 8888, found %u"),
                   options->format);
      return FALSE;
    }
  if (!texm_check_picture_size (width, height, error))
    return FALSE;
  full = texm_full_mip_count (width, height);
  *mip_count = options->mip_count == 0 ? full : options->mip_count;
  if (*mip_count > full)
    {
      g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_MIPS,
                   _("a %ux%u texture has at most %u mip levels (down to 1x1), "
                     "found %u"), width, height, full, *mip_count);
      return FALSE;
    }
  if (options->page && !texm_check_cells (width, height, options->rects, options->n_rects, error))
    return FALSE;

  if (stride == 0)
    stride = (gsize) width * 4;
  g_return_val_if_fail (stride >= (gsize) width * 4, FALSE);

  if (!texm_format_has_alpha (options->format) && !options->drop_alpha)
    for (guint y = 0; y < height; y++)
      for (guint x = 0; x < width; x++)
        {
          guint8 a = rgba[(gsize) y * stride + x * 4 + 3];

          if (a != 255)
            {
              g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_ALPHA,
                           _("format %u has no alpha: expected an opaque picture "
                             "(alpha 255), found alpha %u at x %u, y %u; choose "
                             "4444, 88 or 8888, or drop the alpha"),
                           options->format, a, x, y);
              return FALSE;
            }
        }

  n = (gsize) width * height;
  *pixels = g_malloc (n * 4);
  for (guint y = 0; y < height; y++)
    memcpy (*pixels + (gsize) y * width * 4, rgba + (gsize) y * stride, (gsize) width * 4);

  if (options->format != 0)
    return TRUE;
  if (options->palette != NULL)
    {
      fixed_palette (pal, options->palette);
      return TRUE;
    }
  if (exact_palette (*pixels, n, pal))
    return TRUE;
  if (!quantized_palette (*pixels, width, height, options->dither, pal, error))
    {
      g_clear_pointer (pixels, g_free);
      return FALSE;
    }
  return TRUE;
}

/* Fills @result from level 0 of @payload against the picture. */
static void
measure (GBytes                  *payload,
         const guint8            *pixels,
         guint                    width,
         guint                    height,
         const TexmEncodeOptions *options,
         const Palette           *pal,
         TexmEncodeResult        *result,
         guint8                 **level0)
{
  g_autoptr(TexmImage) image = texm_parse (payload, "Texm", 0, NULL);
  g_autofree guint8 *back = NULL;
  guint channels = texm_format_has_alpha (options->format) ? 4 : 3;
  guint max_error = 0;
  gsize n = (gsize) width * height;

  g_assert (image != NULL);
  back = texm_decode_rgba (image, 0, NULL, NULL);
  for (gsize i = 0; i < n; i++)
    for (guint c = 0; c < channels; c++)
      {
        guint d = (guint) ABS ((gint) back[i * 4 + c] - (gint) pixels[i * 4 + c]);

        max_error = MAX (max_error, d);
      }

  if (result != NULL)
    {
      result->width = width;
      result->height = height;
      result->mip_count = image->header.mip_count;
      result->size = g_bytes_get_size (payload);
      result->exact = max_error == 0;
      result->max_error = max_error;
      result->n_colours = options->format == 0 ? pal->n_colours : 0;
      result->quantized = options->format == 0 && pal->quantized;
    }
  if (level0 != NULL)
    *level0 = g_steal_pointer (&back);
}

GBytes *
texm_encode (const guint8            *rgba,
             guint                    width,
             guint                    height,
             gsize                    stride,
             const TexmEncodeOptions *options,
             TexmEncodeResult        *result,
             GError                 **error)
{
  g_autofree guint8 *pixels = NULL;
  Palette pal = { { 0 }, 0, NULL, 0, FALSE };
  GBytes *payload;
  guint mip_count = 0;

  g_return_val_if_fail (rgba != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (options->n_rects == 0 || options->rects != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!prepare (rgba, width, height, stride, options, &pixels, &mip_count, &pal, error))
    {
      palette_clear (&pal);
      return NULL;
    }

  payload = build_payload (options->format, pixels, width, height, mip_count,
                           options->dither, &pal, options->page, options->rects,
                           options->n_rects);
  measure (payload, pixels, width, height, options, &pal, result, NULL);
  palette_clear (&pal);
  return payload;
}

guint8 *
texm_encode_preview (const guint8            *rgba,
                     guint                    width,
                     guint                    height,
                     gsize                    stride,
                     const TexmEncodeOptions *options,
                     TexmEncodeResult        *result,
                     GError                 **error)
{
  g_autofree guint8 *pixels = NULL;
  g_autoptr(GBytes) payload = NULL;
  Palette pal = { { 0 }, 0, NULL, 0, FALSE };
  guint mip_count = 0;
  guint8 *level0 = NULL;

  g_return_val_if_fail (rgba != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (options->n_rects == 0 || options->rects != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!prepare (rgba, width, height, stride, options, &pixels, &mip_count, &pal, error))
    {
      palette_clear (&pal);
      return NULL;
    }

  /* level 0 alone: the conversion of a level does not depend on the others */
  payload = build_payload (options->format, pixels, width, height, 1, options->dither,
                           &pal, FALSE, NULL, 0);
  measure (payload, pixels, width, height, options, &pal, result, &level0);
  if (result != NULL)
    {
      result->mip_count = mip_count;
      result->size = texm_encoded_size (options->format, width, height, mip_count,
                                        options->page, options->n_rects);
    }
  palette_clear (&pal);
  return level0;
}
