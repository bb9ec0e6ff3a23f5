/* test-picture.c - pictures checked before they are decoded (mat-picture.h)
 *
 * Hostile files are refused with their message and without being
 * decoded: the peak memory of this process stays far below what one
 * decode would take (a 65535×65535 picture is 16 GiB of pixels). Valid
 * PNG, JPEG, BMP and TGA pictures are read with their pixels.
 */
#include "config.h"

#include <fcntl.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mat-picture.h"
#include "test-pictures.h"
#include "test-support.h"

static char *tmp_dir;

static GBytes *
saved (GdkPixbuf *pixbuf, const char *type)
{
  g_autoptr(GError) error = NULL;
  gchar *buffer = NULL;
  gsize size = 0;

  gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &size, type, &error, NULL);
  g_assert_no_error (error);
  return g_bytes_new_take (buffer, size);
}

/* A w × h RGB picture with something to decode in every row. */
static GdkPixbuf *
pattern (int w, int h)
{
  GdkPixbuf *pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, w, h);
  guint8 *pixels = gdk_pixbuf_get_pixels (pixbuf);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint8 *p = pixels + y * gdk_pixbuf_get_rowstride (pixbuf) + x * 3;

        p[0] = (guint8) (x * 4);
        p[1] = (guint8) (y * 4);
        p[2] = (guint8) ((x ^ y) * 8);
      }
  return pixbuf;
}

static glong
peak_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static void
assert_refused (GBytes *bytes, const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) picture = mat_picture_load_bytes (bytes, &error);

  g_assert_null (picture);
  g_test_message ("-> %s", error->message);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, message));
}

static void
test_refused_before_decoding (void)
{
  g_autoptr(GBytes) claims = test_png_new (65535, 65535, 8, 6, FALSE);
  g_autoptr(GBytes) huge = test_png_new (16384, 16384, 1, 0, TRUE);
  g_autoptr(GBytes) wide = test_png_new (2048, 16, 8, 2, TRUE);
  g_autoptr(GBytes) tall = test_png_new (1, 1025, 8, 6, TRUE);
  g_autoptr(GBytes) svg = test_svg_new (30000, 30000);
  g_autoptr(GBytes) jpeg = test_jpeg_header (65500, 65500);
  g_autoptr(GBytes) bmp = test_bmp_header (65535, 65535);
  g_autoptr(GBytes) bmp_down = test_bmp_header (4096, -4096);
  g_autoptr(GBytes) tga = test_tga_new (65535, 65535, 0);

  /* what the issue found: 16.4 GB, 1.8 GB, 6.9 GB */
  g_assert_cmpuint (g_bytes_get_size (huge), <, 1 << 20);
  assert_refused (claims, "expected a picture of at most 1024×1024 pixels, found 65535×65535");
  assert_refused (huge, "expected a picture of at most 1024×1024 pixels, found 16384×16384");
  assert_refused (wide, "expected a picture of at most 1024×1024 pixels, found 2048×16");
  assert_refused (tall, "expected a picture of at most 1024×1024 pixels, found 1×1025");
  assert_refused (svg, "expected a PNG, JPEG, BMP or TGA picture, found an SVG drawing");
  assert_refused (jpeg, "expected a picture of at most 1024×1024 pixels, found 65500×65500");
  assert_refused (bmp, "expected a picture of at most 1024×1024 pixels, found 65535×65535");
  assert_refused (bmp_down, "expected a picture of at most 1024×1024 pixels, found 4096×4096");
  assert_refused (tga, "expected a picture of at most 1024×1024 pixels, found 65535×65535");
  /* the size is refused from the header, whatever follows it: an IHDR
   * whose CRC is wrong, a JPEG table that libjpeg refuses before it
   * reaches the frame header */
  {
    g_autoptr(GBytes) png = test_png_new (2048, 2048, 8, 6, TRUE);
    g_autoptr(GBytes) jpeg_frame = test_jpeg_header (4096, 4096);
    g_autoptr(GByteArray) bad_crc = g_byte_array_new ();
    g_autoptr(GByteArray) bad_table = g_byte_array_new ();
    g_autoptr(GBytes) crc_bytes = NULL;
    g_autoptr(GBytes) table_bytes = NULL;
    static const guint8 dqt[] = { 0xFF, 0xDB, 0x00, 0x03, 0x00 };

    g_byte_array_append (bad_crc, g_bytes_get_data (png, NULL), (guint) g_bytes_get_size (png));
    bad_crc->data[8 + 8 + 13] ^= 0xFF;   /* the first byte of IHDR's CRC */
    crc_bytes = g_bytes_new (bad_crc->data, bad_crc->len);
    assert_refused (crc_bytes, "expected a picture of at most 1024×1024 pixels, found 2048×2048");

    g_byte_array_append (bad_table, g_bytes_get_data (jpeg_frame, NULL), 2);
    g_byte_array_append (bad_table, dqt, sizeof dqt);
    g_byte_array_append (bad_table, (const guint8 *) g_bytes_get_data (jpeg_frame, NULL) + 2,
                         (guint) g_bytes_get_size (jpeg_frame) - 2);
    table_bytes = g_bytes_new (bad_table->data, bad_table->len);
    assert_refused (table_bytes, "expected a picture of at most 1024×1024 pixels, found 4096×4096");
  }
  /* none of them was decoded */
  g_test_message ("peak memory: %ld KiB", peak_kib ());
  g_assert_cmpint (peak_kib (), <, 100 * 1024);
}

static void
test_not_raster (void)
{
  static const struct {
    const char *bytes;
    gsize       size;
    const char *message;
  } files[] = {
    { "", 0, "found an empty file" },
    { "\xef\xbb\xbf  <svg width='1' height='1'/>", 31, "found an SVG drawing" },
    { "<!DOCTYPE html><html></html>", 28, "found an SVG drawing or another XML or HTML document" },
    { "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10, "found gzip-compressed data" },
    { "GIF89a\x01\x00\x01\x00\x00\x00\x00;", 14, "found a GIF picture" },
    { "II*\0\x08\0\0\0", 8, "found a TIFF picture" },
    { "RIFF\x10\0\0\0WEBPVP8 ", 16, "found a WebP picture" },
    { "P6\n1 1\n255\n\0\0\0", 14, "found a file of another kind" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new_static (files[i].bytes, files[i].size);

      assert_refused (bytes, files[i].message);
    }
}

static void
test_cut_short (void)
{
  g_autoptr(GdkPixbuf) picture = pattern (64, 64);
  g_autoptr(GBytes) png = saved (picture, "png");
  g_autoptr(GBytes) jpeg = saved (picture, "jpeg");
  g_autoptr(GBytes) bmp = saved (picture, "bmp");
  g_autoptr(GBytes) tga = test_tga_new (16, 16, 16);
  g_autoptr(GBytes) png_half = test_bytes_cut (png, g_bytes_get_size (png) / 2);
  g_autoptr(GBytes) png_end = test_bytes_cut (png, g_bytes_get_size (png) - 1);
  g_autoptr(GBytes) jpeg_half = test_bytes_cut (jpeg, g_bytes_get_size (jpeg) / 2);
  g_autoptr(GBytes) jpeg_end = test_bytes_cut (jpeg, g_bytes_get_size (jpeg) - 2);
  g_autoptr(GBytes) bmp_half = test_bytes_cut (bmp, g_bytes_get_size (bmp) / 2);
  g_autoptr(GBytes) tga_half = test_tga_new (16, 16, 8);
  g_autoptr(GBytes) header = test_bytes_cut (png, 20);

  /* whole, each is read */
  {
    GBytes *whole[] = { png, jpeg, bmp, tga };

    for (guint i = 0; i < G_N_ELEMENTS (whole); i++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(GdkPixbuf) back = mat_picture_load_bytes (whole[i], &error);

        g_assert_no_error (error);
        g_assert_nonnull (back);
      }
  }
  assert_refused (png_half, "expected a complete PNG picture up to its end marker, found the end "
                            "of the file after");
  assert_refused (png_end, "expected a complete PNG picture up to its end marker");
  assert_refused (header, "expected a complete PNG picture up to its end marker");
  assert_refused (jpeg_half, "expected a complete JPEG picture up to its end marker");
  assert_refused (jpeg_end, "expected a complete JPEG picture up to its end marker");
  /* 54 bytes of headers, then rows of 192 bytes bottom up */
  assert_refused (bmp_half, "expected a complete BMP picture, found 31 of its 64 rows");
  assert_refused (tga_half, "expected a TGA picture that decodes, found:");
}

/* What is read: the pixels, as RGBA. */
static void
test_accepted (void)
{
  g_autoptr(GdkPixbuf) picture = pattern (16, 8);
  g_autoptr(GBytes) png = saved (picture, "png");
  g_autoptr(GBytes) bmp = saved (picture, "bmp");
  g_autoptr(GBytes) big = test_png_new (1024, 1024, 8, 6, TRUE);
  g_autoptr(GBytes) tga = test_tga_new (4, 2, 2);
  GBytes *lossless[] = { png, bmp };

  for (guint i = 0; i < G_N_ELEMENTS (lossless); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GdkPixbuf) back = mat_picture_load_bytes (lossless[i], &error);

      g_assert_no_error (error);
      g_assert_cmpint (gdk_pixbuf_get_width (back), ==, 16);
      g_assert_cmpint (gdk_pixbuf_get_height (back), ==, 8);
      g_assert_true (gdk_pixbuf_get_has_alpha (back));
      for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++)
          {
            const guint8 *a = gdk_pixbuf_read_pixels (back) + y * gdk_pixbuf_get_rowstride (back) + x * 4;
            const guint8 *b = gdk_pixbuf_read_pixels (picture) + y * gdk_pixbuf_get_rowstride (picture) + x * 3;

            g_assert_cmpmem (a, 3, b, 3);
            g_assert_cmpuint (a[3], ==, 255);
          }
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GdkPixbuf) back = mat_picture_load_bytes (big, &error);

    g_assert_no_error (error);
    g_assert_cmpint (gdk_pixbuf_get_width (back), ==, 1024);
    g_assert_cmpint (gdk_pixbuf_get_height (back), ==, 1024);
  }
  {
    static const guint8 pixel_1_1[4] = { 0x80, 1, 1, 0xFF };   /* B G R A = x, y, 0x80 */
    g_autoptr(GError) error = NULL;
    g_autoptr(GdkPixbuf) back = mat_picture_load_bytes (tga, &error);

    g_assert_no_error (error);
    g_assert_cmpint (gdk_pixbuf_get_width (back), ==, 4);
    g_assert_cmpmem (gdk_pixbuf_read_pixels (back) + gdk_pixbuf_get_rowstride (back) + 4, 4,
                     pixel_1_1, 4);
  }
}

/* A file: by its content, whatever it is called; only regular files;
 * no file larger than a picture can be. */
static void
test_files (void)
{
  g_autoptr(GBytes) svg = test_svg_new (30000, 30000);
  g_autofree char *named_png = g_build_filename (tmp_dir, "drawing.png", NULL);
  g_autofree char *big = g_build_filename (tmp_dir, "big.png", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) picture = NULL;
  int fd;

  g_file_set_contents (named_png, g_bytes_get_data (svg, NULL), (gssize) g_bytes_get_size (svg), &error);
  g_assert_no_error (error);
  picture = mat_picture_load_path (named_png, &error);
  g_assert_null (picture);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "found an SVG drawing"));
  g_clear_error (&error);

  picture = mat_picture_load_path (tmp_dir, &error);
  g_assert_null (picture);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_clear_error (&error);

  picture = mat_picture_load_path ("/nonexistent/picture.png", &error);
  g_assert_null (picture);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* 64 MiB, sparse: refused from its size, before a byte is read */
  fd = g_open (big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "\x89PNG\r\n\x1a\n", 8), ==, 8);
  g_assert_cmpint (ftruncate (fd, 64 << 20), ==, 0);
  close (fd);
  picture = mat_picture_load_path (big, &error);
  g_assert_null (picture);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "expected a picture file of at most 33,554,432 bytes, "
                                            "found 67,108,864"));
  g_unlink (big);
  g_unlink (named_png);
}

/* A picture read from a PNG of 3×1 pixels, fitted to 4×1 both ways:
 * exact pixels (the arithmetic is in test-texm-encode.c), the picture
 * read back from the file first. */
static void
test_fit (void)
{
  static const guint8 row[3 * 3] = { 0, 100, 200, 255, 50, 0, 10, 20, 30 };
  static const guint8 scaled[4 * 4] = {
    0, 100, 200, 255,  159, 69, 75, 255,  163, 39, 11, 255,  10, 20, 30, 255,
  };
  static const guint8 padded[4 * 4] = {
    0, 100, 200, 255,  255, 50, 0, 255,  10, 20, 30, 255,  10, 20, 30, 255,
  };
  g_autoptr(GdkPixbuf) source = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 3, 1);
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GdkPixbuf) picture = NULL;
  g_autoptr(GdkPixbuf) a = NULL;
  g_autoptr(GdkPixbuf) b = NULL;
  g_autoptr(GdkPixbuf) same = NULL;
  g_autoptr(GdkPixbuf) square = NULL;
  g_autoptr(GError) error = NULL;

  memcpy (gdk_pixbuf_get_pixels (source), row, sizeof row);
  png = saved (source, "png");
  picture = mat_picture_load_bytes (png, &error);
  g_assert_no_error (error);

  a = mat_picture_fit_power_of_two (picture, TEXM_RESIZE_SCALE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (a), ==, 4);
  g_assert_cmpint (gdk_pixbuf_get_height (a), ==, 1);
  g_assert_true (gdk_pixbuf_get_has_alpha (a));
  g_assert_cmpmem (gdk_pixbuf_read_pixels (a), 16, scaled, sizeof scaled);

  b = mat_picture_fit_power_of_two (picture, TEXM_RESIZE_PAD, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (b), ==, 4);
  g_assert_cmpmem (gdk_pixbuf_read_pixels (b), 16, padded, sizeof padded);

  /* not a power of two, and no resize asked for: the encoder's refusal */
  g_assert_null (mat_picture_fit_power_of_two (picture, TEXM_RESIZE_NONE, &error));
  g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE);
  g_clear_error (&error);

  /* sides that are powers of two already: the very picture */
  same = mat_picture_fit_power_of_two (a, TEXM_RESIZE_PAD, &error);
  g_assert_no_error (error);
  g_assert_true (same == a);

  /* the largest picture the reader gives, 1000 wide: 1024, no further */
  {
    g_autoptr(GdkPixbuf) wide = gdk_pixbuf_new (GDK_COLORSPACE_RGB, TRUE, 8, 1000, 3);

    gdk_pixbuf_fill (wide, 0x336699ff);
    square = mat_picture_fit_power_of_two (wide, TEXM_RESIZE_SCALE, &error);
    g_assert_no_error (error);
    g_assert_cmpint (gdk_pixbuf_get_width (square), ==, 1024);
    g_assert_cmpint (gdk_pixbuf_get_height (square), ==, 4);
    g_assert_cmpmem (gdk_pixbuf_read_pixels (square) + (3 * 1024 + 1023) * 4, 4,
                     ((const guint8[]) { 0x33, 0x66, 0x99, 0xff }), 4);
  }
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("mat-picture-XXXXXX", &error);
  g_assert_no_error (error);

  /* first: the peak memory it checks is the process's */
  g_test_add_func ("/model/picture/refused-before-decoding", test_refused_before_decoding);
  g_test_add_func ("/model/picture/not-raster", test_not_raster);
  g_test_add_func ("/model/picture/cut-short", test_cut_short);
  g_test_add_func ("/model/picture/accepted", test_accepted);
  g_test_add_func ("/model/picture/files", test_files);
  g_test_add_func ("/model/picture/fit", test_fit);
  status = g_test_run ();
  g_rmdir (tmp_dir);
  return status;
}
