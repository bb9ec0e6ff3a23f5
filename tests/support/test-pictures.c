/* test-pictures.c - picture files made byte by byte for the import tests */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "test-pictures.h"
#include "test-support.h"

static void
put_be32 (GByteArray *a,
          guint32     v)
{
  guint8 b[4] = { v >> 24, v >> 16, v >> 8, v };

  g_byte_array_append (a, b, 4);
}

static guint32
crc32_of (const guint8 *data,
          gsize         len)
{
  guint32 crc = 0xFFFFFFFFu;

  for (gsize i = 0; i < len; i++)
    {
      crc ^= data[i];
      for (guint k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
    }
  return crc ^ 0xFFFFFFFFu;
}

static void
put_chunk (GByteArray   *a,
           const char   *type,
           const guint8 *data,
           gsize         len)
{
  gsize start;

  put_be32 (a, (guint32) len);
  start = a->len;
  g_byte_array_append (a, (const guint8 *) type, 4);
  if (len > 0)
    g_byte_array_append (a, data, (guint) len);
  put_be32 (a, crc32_of (a->data + start, len + 4));
}

/* @rows rows of @row_bytes zeros (the filter byte included), zlib. */
static GBytes *
zeros_compressed (gsize   row_bytes,
                  guint32 rows)
{
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB, 9);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree guint8 *row = g_malloc0 (row_bytes);
  guint8 buffer[1 << 16];

  for (guint32 r = 0; r <= rows; r++)
    {
      const guint8 *in = row;
      gsize left = r < rows ? row_bytes : 0;
      GConverterResult result;

      do
        {
          gsize read = 0, written = 0;
          g_autoptr(GError) error = NULL;

          result = g_converter_convert (G_CONVERTER (z), in, left, buffer, sizeof buffer,
                                        r < rows ? G_CONVERTER_NO_FLAGS : G_CONVERTER_INPUT_AT_END,
                                        &read, &written, &error);
          g_assert_no_error (error);
          g_byte_array_append (out, buffer, (guint) written);
          in += read;
          left -= read;
        }
      while (left > 0 || (r == rows && result != G_CONVERTER_FINISHED));
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

GBytes *
test_png_new (guint32  width,
              guint32  height,
              guint8   bit_depth,
              guint8   colour_type,
              gboolean full_body)
{
  GByteArray *a = g_byte_array_new ();
  guint channels = colour_type == 6 ? 4 : colour_type == 2 ? 3 : 1;
  gsize row_bytes = 1 + ((gsize) width * channels * bit_depth + 7) / 8;
  g_autoptr(GBytes) idat = zeros_compressed (row_bytes, full_body ? height : 1);
  GByteArray *ihdr = g_byte_array_new ();
  guint8 tail[5] = { bit_depth, colour_type, 0, 0, 0 };

  g_byte_array_append (a, (const guint8 *) "\x89PNG\r\n\x1a\n", 8);
  put_be32 (ihdr, width);
  put_be32 (ihdr, height);
  g_byte_array_append (ihdr, tail, sizeof tail);
  put_chunk (a, "IHDR", ihdr->data, ihdr->len);
  g_byte_array_unref (ihdr);
  put_chunk (a, "IDAT", g_bytes_get_data (idat, NULL), g_bytes_get_size (idat));
  put_chunk (a, "IEND", NULL, 0);
  return g_byte_array_free_to_bytes (a);
}

GBytes *
test_svg_new (guint width,
              guint height)
{
  char *text = g_strdup_printf ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\">\n"
                                "  <rect width=\"%u\" height=\"%u\" fill=\"#804020\"/>\n"
                                "</svg>\n", width, height, width, height);

  return g_bytes_new_take (text, strlen (text));
}

GBytes *
test_jpeg_header (guint16 width,
                  guint16 height)
{
  GByteArray *a = g_byte_array_new ();
  const guint8 sof[] = {
    0xFF, 0xC0, 0x00, 0x0B, 8, height >> 8, height & 0xFF, width >> 8, width & 0xFF,
    1, 1, 0x11, 0,
  };
  static const guint8 sos[] = { 0xFF, 0xDA, 0x00, 0x08, 1, 1, 0x00, 0, 63, 0 };
  static const guint8 scan[] = { 0x12, 0x34, 0x56, 0x78, 0xFF, 0xD9 };

  g_byte_array_append (a, (const guint8 *) "\xFF\xD8", 2);
  g_byte_array_append (a, sof, sizeof sof);
  g_byte_array_append (a, sos, sizeof sos);
  g_byte_array_append (a, scan, sizeof scan);
  return g_byte_array_free_to_bytes (a);
}

GBytes *
test_bmp_header (gint32 width,
                 gint32 height)
{
  GByteArray *a = g_byte_array_new ();
  guint32 row = (guint32) width * 4;

  g_byte_array_append (a, (const guint8 *) "BM", 2);
  test_put_u32 (a, 54 + row);            /* file size: one row */
  test_put_u32 (a, 0);
  test_put_u32 (a, 54);                  /* pixels at */
  test_put_u32 (a, 40);                  /* BITMAPINFOHEADER */
  test_put_u32 (a, (guint32) width);
  test_put_u32 (a, (guint32) height);
  test_put_u16 (a, 1);
  test_put_u16 (a, 32);
  test_put_u32 (a, 0);                   /* BI_RGB */
  test_put_u32 (a, 0);
  test_put_u32 (a, 2835);
  test_put_u32 (a, 2835);
  test_put_u32 (a, 0);
  test_put_u32 (a, 0);
  for (guint32 i = 0; i < MIN (row, 4096u); i++)
    test_put_u8 (a, 0x40);
  return g_byte_array_free_to_bytes (a);
}

GBytes *
test_tga_new (guint16 width,
              guint16 height,
              guint   rows)
{
  GByteArray *a = g_byte_array_new ();
  const guint8 head[18] = {
    0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    width & 0xFF, width >> 8, height & 0xFF, height >> 8, 32, 0x28,
  };

  g_byte_array_append (a, head, sizeof head);
  for (guint y = 0; y < rows; y++)
    for (guint x = 0; x < width; x++)
      {
        const guint8 bgra[4] = { (guint8) x, (guint8) y, 0x80, 0xFF };

        g_byte_array_append (a, bgra, 4);
      }
  return g_byte_array_free_to_bytes (a);
}

GBytes *
test_png_add_text (GBytes *png,
                   gsize   size)
{
  GByteArray *a = g_byte_array_new ();
  const guint8 *data = g_bytes_get_data (png, NULL);
  g_autofree guint8 *text = g_malloc (size);
  const gsize after_ihdr = 8 + 12 + 13;

  g_assert_cmpuint (size, >=, 9);
  memcpy (text, "Comment", 8);   /* the keyword and its NUL */
  memset (text + 8, 'a', size - 8);
  g_byte_array_append (a, data, after_ihdr);
  put_chunk (a, "tEXt", text, size);
  g_byte_array_append (a, data + after_ihdr, (guint) (g_bytes_get_size (png) - after_ihdr));
  return g_byte_array_free_to_bytes (a);
}

GBytes *
test_bytes_cut (GBytes *bytes,
                gsize   length)
{
  g_assert_cmpuint (length, <=, g_bytes_get_size (bytes));
  return g_bytes_new_from_bytes (bytes, 0, length);
}
