/* fuzz-texm-encode.c - libFuzzer target: the picture encoder
 *
 * The input chooses the picture size (any, to reach the refusals), the
 * format, the options (dithering, dropped alpha, mip count, a fixed
 * palette, Page cells) and the pixels. An encode either fails with a
 * TEXM_ENCODE_ERROR or gives a payload that parses, whose size is the one
 * announced, whose every level decodes, whose palette indices are never 0
 * and whose level 0 is the preview. The raw builder gets any size.
 */
#include <string.h>

#include <glib.h>

#include "texm-convert.h"

typedef struct {
  const guint8 *data;
  size_t        size;
} Input;

static guint8
take (Input *in)
{
  guint8 v;

  if (in->size == 0)
    return 0;
  v = in->data[0];
  in->data++;
  in->size--;
  return v;
}

static void
check_payload (GBytes                  *bytes,
               guint                    w,
               guint                    h,
               const TexmEncodeOptions *options,
               const TexmEncodeResult  *result,
               const guint8            *rgba,
               gsize                    stride)
{
  g_autoptr(TexmImage) image = texm_parse (bytes, "FUZZ.0", 0, NULL);
  g_autofree guint8 *preview = NULL;
  g_autofree guint8 *level0 = NULL;
  g_autoptr(GError) error = NULL;
  TexmEncodeResult again;

  g_assert (image != NULL);
  g_assert (image->header.width == w && image->header.height == h);
  g_assert (image->header.format == options->format);
  g_assert (image->header.flags4 == (image->header.mip_count > 1 ? 32u : 0u));
  g_assert (g_bytes_get_size (bytes) == result->size);
  g_assert (texm_encoded_size (options->format, w, h, options->mip_count, options->page,
                               options->n_rects) == result->size);
  g_assert (image->has_page == options->page);
  for (guint level = 0; level < image->header.mip_count; level++)
    {
      g_autofree guint8 *px = texm_decode_rgba (image, level, NULL, NULL);

      g_assert (px != NULL);
      if (level == 0)
        level0 = g_steal_pointer (&px);
    }
  if (options->format == 0 && options->palette == NULL)
    g_assert (result->n_colours >= 1 && result->n_colours <= 255);
  if (options->format == 0)
    {
      const guint8 *d = g_bytes_get_data (bytes, NULL);
      gsize end = g_bytes_get_size (bytes) - (options->page ? 8 + 8 * (gsize) options->n_rects : 0);

      for (gsize i = image->mip_offsets[0]; i < end; i++)
        g_assert (d[i] != 0);
      /* a fixed palette is written as given; a built one B, G, R, 0 */
      if (options->palette != NULL)
        g_assert (memcmp (d + TEXM_HEADER_SIZE, options->palette, TEXM_PALETTE_SIZE) == 0);
      else
        for (guint e = 0; e < 256; e++)
          g_assert (d[TEXM_HEADER_SIZE + e * 4 + 3] == 0);
    }
  g_assert (result->exact == (result->max_error == 0));

  preview = texm_encode_preview (rgba, w, h, stride, options, &again, &error);
  g_assert (preview != NULL && error == NULL);
  g_assert (memcmp (preview, level0, (gsize) w * h * 4) == 0);
  g_assert (again.size == result->size && again.max_error == result->max_error);
}

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  static const guint32 formats[] = { 0, 565, 556, 4444, 88, 888, 8888, 1 };
  Input in = { data, size };
  guint8 sizes = take (&in);
  guint8 flags = take (&in);
  guint8 extra = take (&in);
  guint8 mode = take (&in);
  guint w, h;
  gsize stride, len;
  g_autofree guint8 *rgba = NULL;
  g_autofree guint8 *palette = NULL;
  TexmRect rects[4];
  TexmEncodeOptions options;
  TexmEncodeResult result;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  /* sides: a power of two up to 64 most of the time, any size up to 70
   * (and 0) otherwise */
  if (flags & 0x80)
    {
      w = take (&in) % 71;
      h = take (&in) % 71;
    }
  else
    {
      w = 1u << (sizes & 7) % 7;
      h = 1u << ((sizes >> 3) & 7) % 7;
    }
  stride = (gsize) w * 4 + (extra & 3) * 4;
  len = MAX (stride * h, (gsize) 4);
  rgba = g_malloc (len);
  /* the pixels: the rest of the input, repeated (few distinct colours: the
   * exact palette path), or noise seeded by it (many: libimagequant) */
  if (mode & 1)
    {
      guint32 seed = mode;

      for (gsize i = 0; i < in.size; i++)
        seed = seed * 31 + in.data[i];
      for (gsize i = 0; i < len; i++)
        {
          seed = seed * 1664525u + 1013904223u;
          rgba[i] = (guint8) (seed >> 24);
          /* mostly opaque, so formats without alpha are not always refused */
          if ((i & 3) == 3 && (mode & 2))
            rgba[i] = 255;
        }
    }
  else
    for (gsize i = 0; i < len; i++)
      rgba[i] = in.size > 0 ? in.data[i % in.size] : (guint8) i;

  texm_encode_options_init (&options, formats[flags & 7]);
  options.dither = (flags & 0x08) != 0;
  options.drop_alpha = (flags & 0x10) != 0;
  options.mip_count = (extra >> 2) % 9;
  if (flags & 0x20)
    {
      options.page = TRUE;
      options.n_rects = (extra >> 6) % 4;
      for (guint r = 0; r < options.n_rects; r++)
        {
          rects[r].x = (gint16) (take (&in) % 80) - 4;
          rects[r].w = (gint16) (take (&in) % 80);
          rects[r].y = (gint16) (take (&in) % 80) - 4;
          rects[r].h = (gint16) (take (&in) % 80);
        }
      options.rects = rects;
    }
  if ((flags & 0x40) && options.format == 0)
    {
      palette = g_malloc (TEXM_PALETTE_SIZE);
      for (gsize i = 0; i < TEXM_PALETTE_SIZE; i++)
        palette[i] = in.size > 0 ? in.data[(i * 7) % in.size] : (guint8) i;
      options.palette = palette;
    }

  /* the analysis: any picture, any stride */
  {
    TexmAlphaKind kind = texm_picture_alpha (rgba, w, h, stride);
    guint32 suggested = texm_suggest_format (rgba, w, h, stride);
    g_autofree char *name = g_strndup ((const char *) in.data, MIN (in.size, 20));

    g_assert ((kind == TEXM_ALPHA_NONE) == (suggested == 565));
    g_assert (suggested == 565 || suggested == 4444 || suggested == 8888);
    if (texm_check_texture_name (name, NULL, NULL))
      g_assert (strchr (name, '.') != NULL);
  }

  bytes = texm_encode (rgba, w, h, stride, &options, &result, &error);
  if (bytes == NULL)
    {
      g_assert (error != NULL && error->domain == TEXM_ENCODE_ERROR);
      g_assert (error->message != NULL && error->message[0] != '\0');
    }
  else
    {
      g_assert (error == NULL);
      check_payload (bytes, w, h, &options, &result, rgba, stride);
    }

  /* the raw builder takes any size from 1 */
  if (w > 0 && h > 0 && texm_format_is_valid (options.format))
    {
      g_autofree guint8 *packed = g_malloc ((gsize) w * h * 4);
      g_autofree guint8 *pal = g_malloc0 (TEXM_PALETTE_SIZE);
      g_autoptr(GBytes) raw = NULL;
      g_autoptr(TexmImage) image = NULL;
      guint mips = 1 + (extra >> 2) % 9;

      for (guint y = 0; y < h; y++)
        memcpy (packed + (gsize) y * w * 4, rgba + (gsize) y * stride, (gsize) w * 4);
      raw = texm_encode_raw (options.format, w, h, mips, packed, options.palette != NULL ? options.palette : pal,
                             options.dither, FALSE, NULL, 0);
      image = texm_parse (raw, "RAW.0", 0, NULL);
      g_assert (image != NULL && image->header.mip_count == mips);
      for (guint level = 0; level < mips; level++)
        g_free (texm_decode_rgba (image, level, NULL, NULL));
    }

  return 0;
}
