/* test-texm.c - Texm payloads: parse, decode, write, encode */
#include "config.h"

#include <string.h>

#include "test-support.h"
#include "texm.h"

/* A header built byte by byte, independent of the code under test. */
static GByteArray *
put_header (guint32 width,
            guint32 height,
            guint32 mips,
            guint32 format)
{
  GByteArray *a = g_byte_array_new ();

  test_put_u32 (a, 0x6D786554u);
  test_put_u32 (a, width);
  test_put_u32 (a, height);
  test_put_u32 (a, mips);
  test_put_u32 (a, 0);
  test_put_u32 (a, 0);
  test_put_u32 (a, 0);
  test_put_u32 (a, format);

  return a;
}

static GBytes *
finish (GByteArray *a)
{
  return g_byte_array_free_to_bytes (a);
}

static TexmImage *
parse_ok (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TexmImage *image = texm_parse (bytes, "TEST.0", 0, &error);

  g_assert_no_error (error);
  g_assert_nonnull (image);

  return image;
}

static void
assert_parse_fails (GBytes     *bytes,
                    TexmError   code,
                    const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TexmImage) image = texm_parse (bytes, "TEST.0", 0, &error);

  g_assert_null (image);
  g_assert_error (error, TEXM_ERROR, (gint) code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
}

/* Decodes level @level and compares it with @expect (4 * w * h bytes). */
static void
assert_decode (const TexmImage *image,
               guint            level,
               guint            expect_w,
               guint            expect_h,
               const guint8    *expect)
{
  g_autofree guint8 *rgba = NULL;
  guint w = 0, h = 0;

  rgba = texm_decode_rgba (image, level, &w, &h);
  g_assert_nonnull (rgba);
  g_assert_cmpuint (w, ==, expect_w);
  g_assert_cmpuint (h, ==, expect_h);
  g_assert_cmpmem (rgba, (gsize) w * h * 4, expect, (gsize) expect_w * expect_h * 4);
}

static void
test_formats (void)
{
  static const struct { guint32 format; guint bpp; } table[] = {
    { 0, 1 }, { 565, 2 }, { 556, 2 }, { 4444, 2 }, { 88, 2 }, { 888, 4 }, { 8888, 4 },
  };
  static const guint32 bad[] = { 1, 555, 1555, 8, 24, 32, 565565, 0xFFFFFFFFu };

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      g_assert_true (texm_format_is_valid (table[i].format));
      g_assert_cmpuint (texm_bytes_per_pixel (table[i].format), ==, table[i].bpp);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (texm_format_is_valid (bad[i]));
      g_assert_cmpuint (texm_bytes_per_pixel (bad[i]), ==, 0);
    }
}

static void
test_decode_565 (void)
{
  GByteArray *a = put_header (2, 2, 1, 565);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  static const guint8 expect[] = {
    255, 0, 0, 255,      0, 255, 0, 255,
    0, 0, 255, 255,      132, 130, 132, 255,
  };

  test_put_u16 (a, 0xF800);
  test_put_u16 (a, 0x07E0);
  test_put_u16 (a, 0x001F);
  test_put_u16 (a, 0x8410);   /* R 16, G 32, B 16 */
  bytes = finish (a);

  image = parse_ok (bytes);
  g_assert_cmpuint (image->bytes_per_pixel, ==, 2);
  g_assert_null (image->palette);
  g_assert_false (image->has_page);
  assert_decode (image, 0, 2, 2, expect);
}

/* Runs of a level decode to exactly the bytes of the whole level, in
 * every format, across rows and into the next level; a run past the
 * level writes nothing. */
static void
test_decode_run (void)
{
  static const guint32 formats[] = { 0, 565, 556, 4444, 88, 888, 8888 };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      guint bpp = texm_bytes_per_pixel (formats[f]);
      GByteArray *a = put_header (5, 3, 2, formats[f]);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(TexmImage) image = NULL;
      guint8 out[4 * 15 + 4];

      if (formats[f] == 0)
        for (guint i = 0; i < 1024; i++)
          test_put_u8 (a, (guint8) (i * 7 + 3));
      /* level 0: 15 pixels, level 1: 2 x 1 */
      for (guint i = 0; i < (15 + 2) * bpp; i++)
        test_put_u8 (a, (guint8) (i * 37 + 11));
      bytes = finish (a);
      image = parse_ok (bytes);

      for (guint level = 0; level < 2; level++)
        {
          g_autofree guint8 *whole = texm_decode_rgba (image, level, NULL, NULL);
          guint n = level == 0 ? 15 : 2;

          for (guint first = 0; first <= n; first++)
            for (guint len = 0; first + len <= n; len++)
              {
                memset (out, 0xAB, sizeof out);
                g_assert_true (texm_decode_rgba_run (image, level, first, len, out));
                g_assert_cmpmem (out, (gsize) len * 4, whole + (gsize) first * 4, (gsize) len * 4);
                /* nothing written after the run */
                g_assert_cmpuint (out[len * 4], ==, 0xAB);
              }
          memset (out, 0xAB, sizeof out);
          g_assert_false (texm_decode_rgba_run (image, level, n - 1, 2, out));
          g_assert_false (texm_decode_rgba_run (image, level, n + 1, 0, out));
          g_assert_false (texm_decode_rgba_run (image, level, G_MAXUINT64, 1, out));
          g_assert_cmpuint (out[0], ==, 0xAB);
        }
    }
}

static void
test_decode_556 (void)
{
  GByteArray *a = put_header (4, 1, 1, 556);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  static const guint8 expect[] = {
    255, 0, 0, 255,   0, 255, 0, 255,   0, 0, 255, 255,   8, 132, 130, 255,
  };

  test_put_u16 (a, 0xF800);
  test_put_u16 (a, 0x07C0);
  test_put_u16 (a, 0x003F);
  test_put_u16 (a, 0x0C20);   /* R 1, G 16, B 32 */
  bytes = finish (a);

  image = parse_ok (bytes);
  assert_decode (image, 0, 4, 1, expect);
}

static void
test_decode_4444 (void)
{
  GByteArray *a = put_header (2, 2, 1, 4444);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  static const guint8 expect[] = {
    0, 255, 0, 255,     255, 0, 255, 0,
    34, 51, 68, 17,     0, 0, 0, 136,
  };

  test_put_u16 (a, 0xF0F0);
  test_put_u16 (a, 0x0F0F);
  test_put_u16 (a, 0x1234);
  test_put_u16 (a, 0x8000);
  bytes = finish (a);

  image = parse_ok (bytes);
  assert_decode (image, 0, 2, 2, expect);
}

static void
test_decode_88 (void)
{
  GByteArray *a = put_header (3, 1, 1, 88);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  static const guint8 expect[] = {
    255, 255, 255, 128,   0x40, 0x40, 0x40, 0,   0x12, 0x12, 0x12, 0x34,
  };

  test_put_u16 (a, 0xFF80);
  test_put_u16 (a, 0x4000);
  test_put_u16 (a, 0x1234);
  bytes = finish (a);

  image = parse_ok (bytes);
  assert_decode (image, 0, 3, 1, expect);
}

static void
test_decode_888 (void)
{
  GByteArray *a = put_header (2, 1, 1, 888);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  static const guint8 raw[] = { 0x33, 0x22, 0x11, 0xAA,   0xFF, 0x00, 0x80, 0x00 };
  static const guint8 expect[] = {
    0x11, 0x22, 0x33, 255,   0x80, 0x00, 0xFF, 255,
  };

  test_put_bytes (a, raw, sizeof raw);
  bytes = finish (a);

  image = parse_ok (bytes);
  g_assert_cmpuint (image->bytes_per_pixel, ==, 4);
  assert_decode (image, 0, 2, 1, expect);
}

static void
test_decode_8888 (void)
{
  GByteArray *a = put_header (1, 2, 1, 8888);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  static const guint8 expect[] = {
    0x11, 0x22, 0x33, 0x80,
    0xFF, 0x00, 0x01, 0x00,
  };

  test_put_u32 (a, 0x80112233u);
  test_put_u32 (a, 0x00FF0001u);
  bytes = finish (a);

  image = parse_ok (bytes);
  assert_decode (image, 0, 1, 2, expect);
}

/* A palette as stored: B, G, R and a fourth byte that is not constant
 * (99, 0, 0x5A, 4): the decoder ignores it, the writer keeps it. */
static void
put_test_palette (GByteArray *a)
{
  guint8 pal[1024];

  for (guint i = 0; i < 256; i++)
    {
      pal[i * 4 + 0] = (guint8) i;
      pal[i * 4 + 1] = (guint8) (255 - i);
      pal[i * 4 + 2] = (guint8) (i * 7);
      pal[i * 4 + 3] = 0x5A;
    }
  pal[0] = 10; pal[1] = 20; pal[2] = 30; pal[3] = 99;
  pal[4] = 200; pal[5] = 100; pal[6] = 50; pal[7] = 0;
  pal[1020] = 1; pal[1021] = 2; pal[1022] = 3; pal[1023] = 4;
  test_put_bytes (a, pal, sizeof pal);
}

static void
test_decode_palette (void)
{
  GByteArray *a = put_header (4, 1, 2, 0);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  static const guint8 idx[] = { 0, 1, 255, 1,   2, 0 };
  /* entries B, G, R, X: entry 0 (10, 20, 30, 99) is red 30, green 20,
   * blue 10; entry 1 (200, 100, 50, 0), entry 255 (1, 2, 3, 4) */
  static const guint8 expect0[] = {
    30, 20, 10, 255,   50, 100, 200, 255,   3, 2, 1, 255,   50, 100, 200, 255,
  };
  /* entry 2: (2, 253, 14, 0x5A) */
  static const guint8 expect1[] = {
    14, 253, 2, 255,   30, 20, 10, 255,
  };

  put_test_palette (a);
  test_put_bytes (a, idx, sizeof idx);
  bytes = finish (a);

  image = parse_ok (bytes);
  g_assert_cmpuint (image->bytes_per_pixel, ==, 1);
  g_assert_nonnull (image->palette);
  g_assert_true (image->palette == (const guint8 *) g_bytes_get_data (bytes, NULL) + 32);
  g_assert_cmpuint (image->mip_offsets[0], ==, 32 + 1024);
  g_assert_cmpuint (image->mip_offsets[1], ==, 32 + 1024 + 4);
  assert_decode (image, 0, 4, 1, expect0);
  assert_decode (image, 1, 2, 1, expect1);
  /* the fourth bytes (99, 0, 0x5A ..., 4) are written back as they were */
  {
    g_autoptr(GBytes) again = texm_write (image);

    g_assert_true (g_bytes_equal (again, bytes));
  }
}

/* formats.md 3: a palette entry 0x10, 0x20, 0x30, 0x00 is red 0x30,
 * green 0x20, blue 0x10 - the memory order of 888 (0x00302010 read as a
 * little-endian X8 R8 G8 B8 is the same colour). */
static void
test_decode_palette_order (void)
{
  GByteArray *a = put_header (2, 1, 1, 0);
  GByteArray *b = put_header (1, 1, 1, 888);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) bytes888 = NULL;
  g_autoptr(TexmImage) image = NULL;
  g_autoptr(TexmImage) image888 = NULL;
  g_autofree guint8 *rgba888 = NULL;
  guint8 pal[1024] = { 0 };
  static const guint8 idx[] = { 1, 2 };
  static const guint8 expect[] = { 0x30, 0x20, 0x10, 255,   0x00, 0x00, 0xFF, 255 };
  static const guint8 pixel888[] = { 0x10, 0x20, 0x30, 0x00 };

  pal[4] = 0x10; pal[5] = 0x20; pal[6] = 0x30; pal[7] = 0x00;
  /* entry 2: pure blue, and a fourth byte of 0xFF that is not alpha */
  pal[8] = 0xFF; pal[9] = 0x00; pal[10] = 0x00; pal[11] = 0xFF;
  test_put_bytes (a, pal, sizeof pal);
  test_put_bytes (a, idx, sizeof idx);
  bytes = finish (a);
  image = parse_ok (bytes);
  assert_decode (image, 0, 2, 1, expect);

  test_put_bytes (b, pixel888, sizeof pixel888);
  bytes888 = finish (b);
  image888 = parse_ok (bytes888);
  rgba888 = texm_decode_rgba (image888, 0, NULL, NULL);
  g_assert_cmpmem (rgba888, 4, expect, 4);
}

static void
test_decode_mips (void)
{
  GByteArray *a = put_header (2, 2, 2, 565);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  static const guint8 expect1[] = { 0, 0, 255, 255 };

  for (guint i = 0; i < 4; i++)
    test_put_u16 (a, 0xFFFF);
  test_put_u16 (a, 0x001F);
  bytes = finish (a);

  image = parse_ok (bytes);
  g_assert_cmpuint (image->mip_offsets[0], ==, 32);
  g_assert_cmpuint (image->mip_offsets[1], ==, 40);
  assert_decode (image, 1, 1, 1, expect1);
}

static void
test_mip_sizes (void)
{
  static const guint expect[][2] = { { 8, 2 }, { 4, 1 }, { 2, 1 }, { 1, 1 } };
  GByteArray *a = put_header (8, 2, 4, 8888);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  gsize off = 32;

  for (guint i = 0; i < 16 + 4 + 2 + 1; i++)
    test_put_u32 (a, i);
  bytes = finish (a);

  image = parse_ok (bytes);
  for (guint i = 0; i < 4; i++)
    {
      guint w = 0, h = 0;

      texm_mip_size (image, i, &w, &h);
      g_assert_cmpuint (w, ==, expect[i][0]);
      g_assert_cmpuint (h, ==, expect[i][1]);
      g_assert_cmpuint (image->mip_offsets[i], ==, off);
      off += (gsize) w * h * 4;
    }
  g_assert_cmpuint (off, ==, g_bytes_get_size (bytes));
}

static void
test_mip_sizes_tall (void)
{
  /* 3x5 with 4 levels: 3x5, 1x2, 1x1, 1x1 (2 bytes each pixel). */
  GByteArray *a = put_header (3, 5, 4, 4444);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  guint w = 0, h = 0;

  for (guint i = 0; i < 15 + 2 + 1 + 1; i++)
    test_put_u16 (a, (guint16) i);
  bytes = finish (a);

  image = parse_ok (bytes);
  texm_mip_size (image, 1, &w, &h);
  g_assert_cmpuint (w, ==, 1);
  g_assert_cmpuint (h, ==, 2);
  texm_mip_size (image, 3, &w, &h);
  g_assert_cmpuint (w, ==, 1);
  g_assert_cmpuint (h, ==, 1);
  g_assert_cmpuint (image->mip_offsets[3], ==, 32 + 2 * (15 + 2 + 1));
}

static void
test_mip_count_32 (void)
{
  /* 32 levels are accepted even for a 1x1 texture; 33 are not. Also a
   * 0x80000000 x 1 texture whose level 31 is 1x1: the level sizes must be
   * computed without overflow (it is truncated, of course). */
  GByteArray *a = put_header (1, 1, 32, 88);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) bytes33 = NULL;
  g_autoptr(TexmImage) image = NULL;
  guint w = 0, h = 0;

  for (guint i = 0; i < 32; i++)
    test_put_u16 (a, (guint16) (i << 8 | 0xFF));
  bytes = finish (a);
  image = parse_ok (bytes);
  g_assert_cmpuint (image->header.mip_count, ==, 32);
  g_assert_cmpuint (image->mip_offsets[31], ==, 32 + 31 * 2);
  texm_mip_size (image, 31, &w, &h);
  g_assert_cmpuint (w, ==, 1);
  g_assert_cmpuint (h, ==, 1);
  texm_mip_size (image, 40, &w, &h);
  g_assert_cmpuint (w, ==, 1);
  g_assert_cmpuint (h, ==, 1);

  a = put_header (1, 1, 33, 88);
  for (guint i = 0; i < 33; i++)
    test_put_u16 (a, 0);
  bytes33 = finish (a);
  assert_parse_fails (bytes33, TEXM_ERROR_BAD_SIZE,
                      "TEST.0: offset 12: expected mipCount <= 32, found 33");
}

static void
test_page (void)
{
  GByteArray *a = put_header (1, 1, 1, 8888);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;

  test_put_u32 (a, 0xFF000000u);
  test_put_bytes (a, "Page", 4);
  test_put_u32 (a, 2);
  test_put_u16 (a, 0); test_put_u16 (a, 64); test_put_u16 (a, 32); test_put_u16 (a, 16);
  test_put_u16 (a, 0xFFFF); test_put_u16 (a, 0x8000); test_put_u16 (a, 0x7FFF); test_put_u16 (a, 0xFFFE);
  bytes = finish (a);

  image = parse_ok (bytes);
  g_assert_true (image->has_page);
  g_assert_cmpuint (image->n_rects, ==, 2);
  g_assert_cmpint (image->rects[0].x, ==, 0);
  g_assert_cmpint (image->rects[0].w, ==, 64);
  g_assert_cmpint (image->rects[0].y, ==, 32);
  g_assert_cmpint (image->rects[0].h, ==, 16);
  g_assert_cmpint (image->rects[1].x, ==, -1);
  g_assert_cmpint (image->rects[1].w, ==, -32768);
  g_assert_cmpint (image->rects[1].y, ==, 32767);
  g_assert_cmpint (image->rects[1].h, ==, -2);
}

static void
test_page_empty (void)
{
  GByteArray *a = put_header (1, 1, 1, 565);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  g_autoptr(GBytes) again = NULL;

  test_put_u16 (a, 0x1234);
  test_put_bytes (a, "Page", 4);
  test_put_u32 (a, 0);
  bytes = finish (a);

  image = parse_ok (bytes);
  g_assert_true (image->has_page);
  g_assert_cmpuint (image->n_rects, ==, 0);
  again = texm_write (image);
  g_assert_true (g_bytes_equal (again, bytes));
}

static void
test_error_truncated_header (void)
{
  static const guint8 junk[31] = { 'T', 'e', 'x', 'm' };

  for (gsize n = 0; n < sizeof junk; n++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (junk, n);

      assert_parse_fails (bytes, TEXM_ERROR_TRUNCATED, NULL);
    }
  {
    g_autoptr(GBytes) bytes = g_bytes_new (junk, 5);
    assert_parse_fails (bytes, TEXM_ERROR_TRUNCATED,
                        "TEST.0: offset 0: expected 32 bytes of header, found 5 bytes");
  }
}

static void
test_error_magic (void)
{
  GByteArray *a = put_header (1, 1, 1, 565);
  g_autoptr(GBytes) bytes = NULL;

  a->data[0] = 't';
  test_put_u16 (a, 0);
  bytes = finish (a);
  assert_parse_fails (bytes, TEXM_ERROR_BAD_MAGIC,
                      "TEST.0: offset 0: expected magic \"Texm\" (0x6D786554), found 0x6D786574");
}

static void
test_error_format (void)
{
  static const guint32 bad[] = { 1, 555, 8880, 0x8888 };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      GByteArray *a = put_header (1, 1, 1, bad[i]);
      g_autoptr(GBytes) bytes = NULL;

      test_put_u32 (a, 0);
      bytes = finish (a);
      assert_parse_fails (bytes, TEXM_ERROR_BAD_FORMAT, NULL);
    }
  {
    GByteArray *a = put_header (1, 1, 1, 555);
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(TexmImage) image = NULL;

    test_put_u32 (a, 0);
    bytes = finish (a);
    image = texm_parse (bytes, "FOO.0", 100, &error);
    g_assert_null (image);
    g_assert_error (error, TEXM_ERROR, TEXM_ERROR_BAD_FORMAT);
    g_assert_cmpstr (error->message, ==,
                     "FOO.0: offset 128: expected format 0, 565, 556, 4444, 88, 888 or 8888, found 555");
  }
}

static void
test_error_zero (void)
{
  static const struct { guint32 w, h, m; const char *msg; } cases[] = {
    { 0, 1, 1, "TEST.0: offset 4: expected width > 0, found 0" },
    { 1, 0, 1, "TEST.0: offset 8: expected height > 0, found 0" },
    { 1, 1, 0, "TEST.0: offset 12: expected mipCount > 0, found 0" },
    { 0, 0, 0, "TEST.0: offset 4: expected width > 0, found 0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GByteArray *a = put_header (cases[i].w, cases[i].h, cases[i].m, 8888);
      g_autoptr(GBytes) bytes = NULL;

      test_put_u32 (a, 0);
      bytes = finish (a);
      assert_parse_fails (bytes, TEXM_ERROR_BAD_SIZE, cases[i].msg);
    }
}

static void
test_error_palette_message (void)
{
  GByteArray *a = put_header (4, 4, 1, 0);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TexmImage) image = NULL;
  guint8 zero[300] = { 0 };

  test_put_bytes (a, zero, sizeof zero);
  bytes = finish (a);
  image = texm_parse (bytes, "STONE.0", 4108, &error);
  g_assert_null (image);
  g_assert_error (error, TEXM_ERROR, TEXM_ERROR_TRUNCATED);
  g_assert_cmpstr (error->message, ==,
                   "STONE.0: offset 4140: expected 1024 bytes of palette, found 300");
}

static void
test_error_mip_message (void)
{
  GByteArray *a = put_header (4, 2, 2, 565);
  g_autoptr(GBytes) bytes = NULL;

  for (guint i = 0; i < 8 + 1; i++)   /* level 1 (2x1) needs 4 bytes */
    test_put_u16 (a, 0);
  test_put_u8 (a, 0);
  bytes = finish (a);
  assert_parse_fails (bytes, TEXM_ERROR_TRUNCATED,
                      "TEST.0: offset 48: expected 4 bytes of mip level 1 (2x1), found 3");
}

/* Valid payloads used by the every-prefix and round-trip tests; flags set
 * to odd values to check they survive. */
static GBytes *
sample_payload (guint which)
{
  GByteArray *a;

  switch (which)
    {
    case 0:   /* palette, 3 mips */
      a = put_header (4, 2, 3, 0);
      put_test_palette (a);
      for (guint i = 0; i < 8 + 2 + 1; i++)
        test_put_u8 (a, (guint8) (i * 37));
      break;
    case 1:   /* 565 with a Page chunk */
      a = put_header (2, 2, 2, 565);
      for (guint i = 0; i < 5; i++)
        test_put_u16 (a, (guint16) (i * 0x1111));
      test_put_bytes (a, "Page", 4);
      test_put_u32 (a, 1);
      test_put_u16 (a, 1); test_put_u16 (a, 2); test_put_u16 (a, 0xFFF0); test_put_u16 (a, 4);
      break;
    case 2:   /* 8888 non-square */
      a = put_header (4, 1, 3, 8888);
      for (guint i = 0; i < 4 + 2 + 1; i++)
        test_put_u32 (a, 0x01020304u * (i + 1));
      break;
    case 3:   /* 888, 1 mip */
      a = put_header (3, 3, 1, 888);
      for (guint i = 0; i < 9; i++)
        test_put_u32 (a, 0xDEAD0000u + i);
      break;
    case 4:   /* 88 with page of two rects */
      a = put_header (2, 1, 2, 88);
      for (guint i = 0; i < 3; i++)
        test_put_u16 (a, (guint16) (0x8000 + i));
      test_put_bytes (a, "Page", 4);
      test_put_u32 (a, 2);
      for (guint i = 0; i < 8; i++)
        test_put_u16 (a, (guint16) (i * 0x2001));
      break;
    default:
      g_assert_not_reached ();
    }

  /* flags4, flags5, unk6 */
  a->data[16] = 0x11; a->data[17] = 0x22;
  a->data[20] = 0x80; a->data[23] = 0xFF;
  a->data[24] = 0x07;

  return finish (a);
}

#define N_SAMPLES 5

static gsize
chain_end (GBytes *bytes)
{
  g_autoptr(TexmImage) image = parse_ok (bytes);
  guint last = image->header.mip_count - 1;
  guint w, h;

  texm_mip_size (image, last, &w, &h);
  return image->mip_offsets[last] + (gsize) w * h * image->bytes_per_pixel;
}

static void
test_error_every_prefix (void)
{
  for (guint s = 0; s < N_SAMPLES; s++)
    {
      g_autoptr(GBytes) full = sample_payload (s);
      gsize size = 0;
      const guint8 *data = g_bytes_get_data (full, &size);
      gsize end = chain_end (full);

      for (gsize n = 0; n < size; n++)
        {
          /* A fresh copy so ASan catches any read past @n. */
          g_autofree guint8 *copy = g_memdup2 (data, n);
          g_autoptr(GBytes) bytes = g_bytes_new_static (copy, n);
          g_autoptr(GError) error = NULL;
          g_autoptr(TexmImage) image = texm_parse (bytes, "TEST.0", 0, &error);

          if (n == end)
            {
              /* The mip chain alone is a complete payload. */
              g_assert_no_error (error);
              g_assert_nonnull (image);
              g_assert_false (image->has_page);
            }
          else if (n < end)
            {
              g_assert_null (image);
              g_assert_error (error, TEXM_ERROR, TEXM_ERROR_TRUNCATED);
            }
          else
            {
              g_assert_null (image);
              g_assert_nonnull (error);
              g_assert_true (g_error_matches (error, TEXM_ERROR, TEXM_ERROR_BAD_PAGE) ||
                             g_error_matches (error, TEXM_ERROR, TEXM_ERROR_TRAILING_BYTES));
            }
        }
    }
}

static void
test_error_page (void)
{
  /* rectCount 2, one rect of bytes */
  {
    GByteArray *a = put_header (1, 1, 1, 565);
    g_autoptr(GBytes) bytes = NULL;

    test_put_u16 (a, 0);
    test_put_bytes (a, "Page", 4);
    test_put_u32 (a, 2);
    for (guint i = 0; i < 4; i++)
      test_put_u16 (a, 1);
    bytes = finish (a);
    assert_parse_fails (bytes, TEXM_ERROR_BAD_PAGE,
                        "TEST.0: offset 42: expected 16 bytes of 2 Page rects ending at "
                        "the payload end, found 8");
  }
  /* rectCount 1, bytes after the rect */
  {
    GByteArray *a = put_header (1, 1, 1, 565);
    g_autoptr(GBytes) bytes = NULL;

    test_put_u16 (a, 0);
    test_put_bytes (a, "Page", 4);
    test_put_u32 (a, 1);
    for (guint i = 0; i < 5; i++)
      test_put_u16 (a, 1);
    bytes = finish (a);
    assert_parse_fails (bytes, TEXM_ERROR_BAD_PAGE, NULL);
  }
  /* rectCount whose byte size overflows 32 bits */
  {
    static const guint32 counts[] = { 0xFFFFFFFFu, 0x20000000u, 0x20000001u, 0x80000000u };

    for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
      {
        GByteArray *a = put_header (1, 1, 1, 565);
        g_autoptr(GBytes) bytes = NULL;

        test_put_u16 (a, 0);
        test_put_bytes (a, "Page", 4);
        test_put_u32 (a, counts[c]);
        test_put_u32 (a, 0);
        test_put_u32 (a, 0);
        bytes = finish (a);
        assert_parse_fails (bytes, TEXM_ERROR_BAD_PAGE, NULL);
      }
  }
  /* "Page" without a full rectCount */
  {
    GByteArray *a = put_header (1, 1, 1, 565);
    g_autoptr(GBytes) bytes = NULL;

    test_put_u16 (a, 0);
    test_put_bytes (a, "Page", 4);
    test_put_u16 (a, 0);
    bytes = finish (a);
    assert_parse_fails (bytes, TEXM_ERROR_BAD_PAGE,
                        "TEST.0: offset 38: expected 4 bytes of rectCount, found 2");
  }
}

static void
test_error_trailing (void)
{
  {
    GByteArray *a = put_header (1, 1, 1, 565);
    g_autoptr(GBytes) bytes = NULL;

    test_put_u16 (a, 0);
    test_put_bytes (a, "Pag", 3);
    bytes = finish (a);
    assert_parse_fails (bytes, TEXM_ERROR_TRAILING_BYTES,
                        "TEST.0: offset 34: expected the end of the payload or a \"Page\" "
                        "chunk, found 3 more bytes");
  }
  {
    GByteArray *a = put_header (1, 1, 1, 565);
    g_autoptr(GBytes) bytes = NULL;

    test_put_u16 (a, 0);
    test_put_bytes (a, "PAGE", 4);
    test_put_u32 (a, 0);
    bytes = finish (a);
    assert_parse_fails (bytes, TEXM_ERROR_TRAILING_BYTES, NULL);
  }
  {
    GByteArray *a = put_header (1, 1, 1, 565);
    g_autoptr(GBytes) bytes = NULL;

    test_put_u16 (a, 0);
    test_put_u8 (a, 0);
    bytes = finish (a);
    assert_parse_fails (bytes, TEXM_ERROR_TRAILING_BYTES, NULL);
  }
}

static void
test_error_huge (void)
{
  static const struct { guint32 w, h, m, f; } cases[] = {
    { 0xFFFFFFFFu, 0xFFFFFFFFu, 32, 8888 },
    { 0xFFFFFFFFu, 0xFFFFFFFFu, 1, 0 },
    { 0x80000000u, 0x80000000u, 32, 888 },
    { 0x40000000u, 0x00000004u, 2, 8888 },   /* 2^32 pixels * 4 */
    { 0x10000u, 0x10000u, 1, 565 },
    { 0xFFFFFFFFu, 1, 32, 4444 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GByteArray *a = put_header (cases[i].w, cases[i].h, cases[i].m, cases[i].f);
      g_autoptr(GBytes) bytes = NULL;

      if (cases[i].f == 0)
        put_test_palette (a);
      for (guint k = 0; k < 64; k++)
        test_put_u32 (a, 0);
      bytes = finish (a);
      assert_parse_fails (bytes, TEXM_ERROR_TRUNCATED, NULL);
    }

  {
    GByteArray *a = put_header (0xFFFFFFFFu, 0xFFFFFFFFu, 1, 8888);
    g_autoptr(GBytes) bytes = NULL;

    bytes = finish (a);
    assert_parse_fails (bytes, TEXM_ERROR_TRUNCATED,
                        "TEST.0: offset 32: expected 18446744065119617025 x 4 bytes of "
                        "mip level 0 (4294967295x4294967295), found 0");
  }
}

static void
test_write_roundtrip (void)
{
  for (guint s = 0; s < N_SAMPLES; s++)
    {
      g_autoptr(GBytes) bytes = sample_payload (s);
      g_autoptr(TexmImage) image = parse_ok (bytes);
      g_autoptr(GBytes) again = texm_write (image);

      g_assert_cmpuint (image->header.flags4, ==, 0x2211);
      g_assert_cmpuint (image->header.flags5, ==, 0xFF000080u);
      g_assert_cmpuint (image->header.unk6, ==, 7);
      g_assert_true (g_bytes_equal (again, bytes));
    }
}

/* A small deterministic mutation fuzzer: nothing may crash, and whatever
 * parses must decode and write back identically. */
static void
test_mutations (void)
{
  guint32 state = 12345;

  for (guint s = 0; s < N_SAMPLES; s++)
    {
      g_autoptr(GBytes) base = sample_payload (s);
      gsize size = g_bytes_get_size (base);

      for (guint round = 0; round < 3000; round++)
        {
          g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (base, NULL), size);
          gsize n = size;
          g_autofree guint8 *trimmed = NULL;
          g_autoptr(GBytes) bytes = NULL;
          g_autoptr(GError) error = NULL;
          g_autoptr(TexmImage) image = NULL;
          guint flips;

          state = state * 1103515245u + 12345u;
          flips = 1 + (state >> 16) % 4;
          for (guint f = 0; f < flips; f++)
            {
              state = state * 1103515245u + 12345u;
              copy[(state >> 8) % size] = (guint8) (state >> 24);
            }
          state = state * 1103515245u + 12345u;
          if ((state >> 16) % 4 == 0)
            n = (state >> 4) % (size + 1);

          /* An exact-size copy so ASan catches any read past @n. */
          trimmed = g_memdup2 (copy, n);
          bytes = g_bytes_new_static (trimmed, n);
          image = texm_parse (bytes, "FUZZ", 0, &error);
          if (image == NULL)
            {
              g_assert_nonnull (error);
              g_assert_true (error->domain == TEXM_ERROR);
              continue;
            }
          g_assert_no_error (error);

          for (guint l = 0; l < image->header.mip_count; l++)
            {
              g_autofree guint8 *rgba = texm_decode_rgba (image, l, NULL, NULL);
              g_assert_nonnull (rgba);
            }
          {
            g_autoptr(GBytes) again = texm_write (image);
            g_assert_true (g_bytes_equal (again, bytes));
          }
        }
    }
}

/* Every value a format can store, expanded: encode must give it back. */
static void
encode_decode_check (guint32       format,
                     guint         w,
                     guint         h,
                     const guint8 *rgba,
                     const guint8 *palette)
{
  g_autoptr(GBytes) bytes = texm_encode_rgba (format, w, h, 1, rgba, palette, NULL, 0);
  g_autoptr(TexmImage) image = parse_ok (bytes);
  g_autofree guint8 *back = NULL;
  guint bw = 0, bh = 0;

  g_assert_cmpuint (image->header.format, ==, format);
  g_assert_cmpuint (image->header.flags4, ==, 0);
  g_assert_cmpuint (image->header.flags5, ==, 0);
  g_assert_cmpuint (image->header.unk6, ==, 0);
  g_assert_false (image->has_page);
  back = texm_decode_rgba (image, 0, &bw, &bh);
  g_assert_cmpuint (bw, ==, w);
  g_assert_cmpuint (bh, ==, h);
  g_assert_cmpmem (back, (gsize) w * h * 4, rgba, (gsize) w * h * 4);
}

/* The documented expansion, written generically: the n-bit value in the
 * high bits, its top bits repeated below, (v << (8 - n)) | (v >> (2n - 8)). */
static guint8
rep (guint v, guint bits)
{
  return (guint8) ((v << (8 - bits)) | (v >> (2 * bits - 8)));
}

static void
test_expansion_table (void)
{
  /* Every 4-, 5- and 6-bit value expands by bit replication: 0 -> 0,
   * max -> 255 and within one step of v * 255 / max. */
  g_assert_cmpuint (rep (3, 5), ==, 24);
  g_assert_cmpuint (rep (16, 5), ==, 132);
  g_assert_cmpuint (rep (32, 6), ==, 130);
  g_assert_cmpuint (rep (9, 4), ==, 153);
  for (guint bits = 4; bits <= 6; bits++)
    {
      GByteArray *a = put_header (1u << bits, 1, 1, bits == 4 ? 4444 : 556);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(TexmImage) image = NULL;
      g_autofree guint8 *rgba = NULL;

      for (guint v = 0; v < (1u << bits); v++)
        {
          if (bits == 4)
            test_put_u16 (a, (guint16) (v << 8));          /* R */
          else if (bits == 5)
            test_put_u16 (a, (guint16) (v << 6));          /* 556 G */
          else
            test_put_u16 (a, (guint16) v);                 /* 556 B */
        }
      bytes = finish (a);
      image = parse_ok (bytes);
      rgba = texm_decode_rgba (image, 0, NULL, NULL);
      for (guint v = 0; v < (1u << bits); v++)
        {
          guint ch = bits == 4 ? 0 : bits == 5 ? 1 : 2;
          guint max = (1u << bits) - 1;

          g_assert_cmpuint (rgba[v * 4 + ch], ==, rep (v, bits));
          g_assert_cmpfloat (ABS ((double) rgba[v * 4 + ch] - v * 255.0 / max), <, 1.0);
        }
    }
}

static void
test_encode_exact (void)
{
  g_autofree guint8 *rgba = g_malloc (64 * 64 * 4);
  guint32 state = 99;

  /* 8888: any value */
  for (guint i = 0; i < 64 * 64 * 4; i++)
    {
      state = state * 1664525u + 1013904223u;
      rgba[i] = (guint8) (state >> 24);
    }
  encode_decode_check (8888, 64, 64, rgba, NULL);

  /* 888: any RGB, A 255 */
  for (guint i = 0; i < 64 * 64; i++)
    rgba[i * 4 + 3] = 255;
  encode_decode_check (888, 32, 128, rgba, NULL);

  /* 565 / 556: every combination of representable channel values over
   * the pixels */
  for (guint i = 0; i < 64 * 64; i++)
    {
      rgba[i * 4 + 0] = rep (i % 32, 5);
      rgba[i * 4 + 1] = rep ((i / 32) % 64, 6);
      rgba[i * 4 + 2] = rep ((i * 7 + 3) % 32, 5);
      rgba[i * 4 + 3] = 255;
    }
  encode_decode_check (565, 64, 64, rgba, NULL);
  for (guint i = 0; i < 64 * 64; i++)
    {
      rgba[i * 4 + 0] = rep ((i / 64) % 32, 5);
      rgba[i * 4 + 1] = rep ((i * 3) % 32, 5);
      rgba[i * 4 + 2] = rep (i % 64, 6);
    }
  encode_decode_check (556, 64, 64, rgba, NULL);

  /* 4444 */
  for (guint i = 0; i < 64 * 64; i++)
    {
      rgba[i * 4 + 0] = rep (i % 16, 4);
      rgba[i * 4 + 1] = rep ((i / 16) % 16, 4);
      rgba[i * 4 + 2] = rep ((i / 256) % 16, 4);
      rgba[i * 4 + 3] = rep ((i * 5) % 16, 4);
    }
  encode_decode_check (4444, 64, 64, rgba, NULL);

  /* 88: grey with any alpha */
  for (guint i = 0; i < 64 * 64; i++)
    {
      guint8 l = (guint8) (i % 256);

      rgba[i * 4 + 0] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = l;
      rgba[i * 4 + 3] = (guint8) (i / 16);
    }
  encode_decode_check (88, 64, 64, rgba, NULL);
}

static void
test_encode_palette (void)
{
  guint8 pal[1024];
  guint8 rgba[8 * 4];
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  const guint8 *idx;

  /* Entries 0..255: red i, green 255 - i, blue 0, stored B, G, R, X;
   * entry 7 duplicated at 200. */
  for (guint i = 0; i < 256; i++)
    {
      pal[i * 4 + 0] = 0;
      pal[i * 4 + 1] = (guint8) (255 - i);
      pal[i * 4 + 2] = (guint8) i;
      pal[i * 4 + 3] = 0xEE;
    }
  pal[200 * 4 + 2] = 7; pal[200 * 4 + 1] = 248;

  /* entries 1, 31, ... 211: index 0 is never used */
  for (guint p = 0; p < 8; p++)
    {
      guint e = 1 + p * 30;

      rgba[p * 4 + 0] = pal[e * 4 + 2];
      rgba[p * 4 + 1] = pal[e * 4 + 1];
      rgba[p * 4 + 2] = pal[e * 4 + 0];
      rgba[p * 4 + 3] = 255;
    }
  encode_decode_check (0, 4, 2, rgba, pal);

  /* nearest and first wins; entry 0 is not looked at */
  rgba[0] = 7; rgba[1] = 248; rgba[2] = 0;      /* entries 7 and 200 */
  rgba[4] = 10; rgba[5] = 250; rgba[6] = 3;     /* (10,250,3): 5->? */
  rgba[8] = 0; rgba[9] = 255; rgba[10] = 0;     /* entry 0's colour */
  bytes = texm_encode_rgba (0, 3, 1, 1, rgba, pal, NULL, 0);
  image = parse_ok (bytes);
  g_assert_cmpmem (image->palette, 1024, pal, 1024);
  idx = (const guint8 *) g_bytes_get_data (bytes, NULL) + 32 + 1024;
  g_assert_cmpuint (idx[0], ==, 7);
  /* (10,250,3): entry 5 = (5,250,0): 25 + 0 + 9 = 34; entry 6 = (6,249,0):
   * 16 + 1 + 9 = 26; entry 7 = (7,248,0): 9 + 4 + 9 = 22; entry 8 =
   * (8,247,0): 4 + 9 + 9 = 22 -> 7 wins the tie. */
  g_assert_cmpuint (idx[1], ==, 7);
  /* (0,255,0) is entry 0; entry 1 = (1,254,0) is the nearest after it */
  g_assert_cmpuint (idx[2], ==, 1);
}

/* A replace keeps the replaced texture's flags5 and unk6 (formats.md 3),
 * byte for byte; everything else is the new payload's. */
static void
test_keep_replaced_flags (void)
{
  static const guint8 rgba[4 * 4] = { 1, 2, 3, 255,   4, 5, 6, 255,   7, 8, 9, 255,   10, 11, 12, 255 };
  /* a new picture with a mip chain: flags4 32, flags5 0, unk6 0 */
  g_autoptr(GBytes) fresh = texm_encode_rgba (565, 2, 2, 2, rgba, NULL, NULL, 0);
  GByteArray *a = put_header (4, 2, 1, 8888);
  g_autoptr(GBytes) old = NULL;
  g_autoptr(GBytes) kept = NULL;
  g_autoptr(GBytes) same = NULL;
  g_autoptr(GBytes) short_old = g_bytes_new_static ("Texm", 4);
  g_autoptr(GBytes) other = NULL;
  g_autoptr(GBytes) from_other = NULL;
  g_autoptr(GBytes) from_short = NULL;
  g_autoptr(TexmImage) image = NULL;
  const guint8 *d;
  const guint8 *f;
  gsize size;

  for (guint i = 0; i < 8; i++)
    test_put_u32 (a, 0xFF00FF00u);
  /* the old texture: flags4 0x2211, flags5 0xFF000080, unk6 7 */
  memcpy (a->data + 16, ((const guint8[]) { 0x11, 0x22, 0, 0,   0x80, 0, 0, 0xFF,   7, 0, 0, 0 }), 12);
  old = finish (a);
  kept = texm_keep_replaced_flags (fresh, old);
  g_assert_cmpuint (g_bytes_get_size (kept), ==, g_bytes_get_size (fresh));
  d = g_bytes_get_data (kept, &size);
  f = g_bytes_get_data (fresh, NULL);
  g_assert_cmpmem (d, 20, f, 20);
  g_assert_cmpmem (d + 20, 8, ((const guint8[]) { 0x80, 0x00, 0x00, 0xFF, 0x07, 0x00, 0x00, 0x00 }), 8);
  g_assert_cmpmem (d + 28, size - 28, f + 28, size - 28);
  image = parse_ok (kept);
  g_assert_cmpuint (image->header.flags4, ==, 32);
  g_assert_cmpuint (image->header.flags5, ==, 0xFF000080u);
  g_assert_cmpuint (image->header.unk6, ==, 7);
  g_assert_cmpuint (image->header.format, ==, 565);

  /* flags already equal: the payload itself */
  same = texm_keep_replaced_flags (kept, old);
  g_assert_true (same == kept);
  /* an old entry without a Texm header gives nothing to keep */
  from_short = texm_keep_replaced_flags (fresh, short_old);
  g_assert_true (from_short == fresh);
  other = g_bytes_new_static ("NOPE............................", 32);
  from_other = texm_keep_replaced_flags (fresh, other);
  g_assert_true (from_other == fresh);
}

static void
test_encode_quantise (void)
{
  /* Values between steps round to the nearest step. */
  static const guint8 rgba[] = {
    4, 0, 0, 255,     5, 2, 0, 255,     251, 253, 255, 255,   128, 128, 128, 255,
  };
  g_autoptr(GBytes) bytes = texm_encode_rgba (565, 4, 1, 1, rgba, NULL, NULL, 0);
  const guint8 *px = (const guint8 *) g_bytes_get_data (bytes, NULL) + 32;

  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 32 + 8);
  g_assert_cmphex (test_get_u16 (px + 0), ==, 0x0000);        /* 4 -> 0 */
  g_assert_cmphex (test_get_u16 (px + 2), ==, (1 << 11) | (0 << 5));  /* 5 -> 1, 2 -> 0 */
  g_assert_cmphex (test_get_u16 (px + 4), ==, 0xFFFF);        /* 251 -> 31, 253 -> 63 */
  /* 128: 5 bits (128 * 31 + 127) / 255 = 16, 6 bits (128 * 63 + 127) / 255 = 32 */
  g_assert_cmphex (test_get_u16 (px + 6), ==, (16 << 11) | (32 << 5) | 16);
}

static void
test_encode_mips (void)
{
  /* 4x2 8888 with 3 levels: 4x2 -> 2x1 -> 1x1; each texel the truncated
   * mean of the level-0 block under it (2x2 for level 1, the whole 4x2
   * for level 2), per channel. */
  static const guint8 rgba[] = {
    0, 0, 0, 0,     1, 1, 1, 4,     10, 20, 30, 40,   11, 21, 31, 41,
    1, 0, 0, 0,     1, 2, 0, 4,     12, 22, 32, 42,   13, 23, 33, 43,
  };
  /* (0 + 1 + 1 + 1) / 4 = 0, (0 + 1 + 0 + 2) / 4 = 0, 1 / 4 = 0, 8 / 4 = 2;
   * (10 + 11 + 12 + 13) / 4 = 11, 86 / 4 = 21, 126 / 4 = 31, 166 / 4 = 41 */
  static const guint8 level1[] = {
    0, 0, 0, 2,   11, 21, 31, 41,
  };
  /* R 49 / 8 = 6, G 89 / 8 = 11, B 127 / 8 = 15, A 174 / 8 = 21 (level 1
   * averaged again would give 5 and 10) */
  static const guint8 level2[] = {
    6, 11, 15, 21,
  };
  g_autoptr(GBytes) bytes = texm_encode_rgba (8888, 4, 2, 3, rgba, NULL, NULL, 0);
  g_autoptr(TexmImage) image = parse_ok (bytes);

  g_assert_cmpuint (image->header.mip_count, ==, 3);
  /* a mip chain: flags4 32 */
  g_assert_cmpuint (image->header.flags4, ==, 32);
  g_assert_cmpuint (image->header.flags5, ==, 0);
  g_assert_cmpuint (image->header.unk6, ==, 0);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 32 + (8 + 2 + 1) * 4);
  assert_decode (image, 0, 4, 2, rgba);
  assert_decode (image, 1, 2, 1, level1);
  assert_decode (image, 2, 1, 1, level2);
}

static void
test_encode_mips_odd (void)
{
  /* 3x1 with 3 levels, any size is accepted here: level 1 (1x1) averages
   * the 2x1 block, pixels 0 and 1; level 2 the 4x1 block clipped to the
   * picture, all three: (150 / 3, 200 / 3, 0) = (50, 66, 0). */
  static const guint8 rgba[] = {
    100, 0, 0, 255,   50, 0, 0, 255,   0, 200, 0, 255,
  };
  static const guint8 level1[] = { 75, 0, 0, 255 };
  static const guint8 level2[] = { 50, 66, 0, 255 };
  g_autoptr(GBytes) bytes = texm_encode_rgba (8888, 3, 1, 3, rgba, NULL, NULL, 0);
  g_autoptr(TexmImage) image = parse_ok (bytes);

  assert_decode (image, 1, 1, 1, level1);
  assert_decode (image, 2, 1, 1, level2);
}

static void
test_encode_page (void)
{
  static const guint8 rgba[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  static const TexmRect rects[] = { { 0, 1, 0, 1 }, { -5, 300, -32768, 32767 } };
  g_autoptr(GBytes) bytes = texm_encode_rgba (8888, 2, 1, 1, rgba, NULL, rects, 2);
  g_autoptr(TexmImage) image = parse_ok (bytes);
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GBytes) empty = NULL;
  g_autoptr(TexmImage) empty_image = NULL;
  const guint8 *d = g_bytes_get_data (bytes, NULL);

  g_assert_cmpmem (d + 40, 4, "Page", 4);
  g_assert_cmpuint (test_get_u32 (d + 44), ==, 2);
  g_assert_cmpuint (test_get_u16 (d + 56), ==, 0xFFFB);
  g_assert_true (image->has_page);
  g_assert_cmpuint (image->n_rects, ==, 2);
  g_assert_cmpmem (image->rects, sizeof rects, rects, sizeof rects);
  again = texm_write (image);
  g_assert_true (g_bytes_equal (again, bytes));

  /* non-NULL rects with n_rects 0: an empty Page chunk */
  empty = texm_encode_rgba (8888, 2, 1, 1, rgba, NULL, rects, 0);
  g_assert_cmpuint (g_bytes_get_size (empty), ==, 32 + 8 + 8);
  empty_image = parse_ok (empty);
  g_assert_true (empty_image->has_page);
  g_assert_cmpuint (empty_image->n_rects, ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/texm/formats", test_formats);
  g_test_add_func ("/core/texm/decode/565", test_decode_565);
  g_test_add_func ("/core/texm/decode/run", test_decode_run);
  g_test_add_func ("/core/texm/decode/556", test_decode_556);
  g_test_add_func ("/core/texm/decode/4444", test_decode_4444);
  g_test_add_func ("/core/texm/decode/88", test_decode_88);
  g_test_add_func ("/core/texm/decode/888", test_decode_888);
  g_test_add_func ("/core/texm/decode/8888", test_decode_8888);
  g_test_add_func ("/core/texm/decode/palette", test_decode_palette);
  g_test_add_func ("/core/texm/decode/palette-order", test_decode_palette_order);
  g_test_add_func ("/core/texm/decode/mips", test_decode_mips);
  g_test_add_func ("/core/texm/decode/expansion", test_expansion_table);
  g_test_add_func ("/core/texm/mips/sizes", test_mip_sizes);
  g_test_add_func ("/core/texm/mips/tall", test_mip_sizes_tall);
  g_test_add_func ("/core/texm/mips/count-32", test_mip_count_32);
  g_test_add_func ("/core/texm/page/rects", test_page);
  g_test_add_func ("/core/texm/page/empty", test_page_empty);
  g_test_add_func ("/core/texm/error/truncated-header", test_error_truncated_header);
  g_test_add_func ("/core/texm/error/magic", test_error_magic);
  g_test_add_func ("/core/texm/error/format", test_error_format);
  g_test_add_func ("/core/texm/error/zero", test_error_zero);
  g_test_add_func ("/core/texm/error/palette-message", test_error_palette_message);
  g_test_add_func ("/core/texm/error/mip-message", test_error_mip_message);
  g_test_add_func ("/core/texm/error/every-prefix", test_error_every_prefix);
  g_test_add_func ("/core/texm/error/page", test_error_page);
  g_test_add_func ("/core/texm/error/trailing", test_error_trailing);
  g_test_add_func ("/core/texm/error/huge", test_error_huge);
  g_test_add_func ("/core/texm/write/roundtrip", test_write_roundtrip);
  g_test_add_func ("/core/texm/parse/mutations", test_mutations);
  g_test_add_func ("/core/texm/encode/exact", test_encode_exact);
  g_test_add_func ("/core/texm/encode/palette", test_encode_palette);
  g_test_add_func ("/core/texm/replace/keeps-flags", test_keep_replaced_flags);
  g_test_add_func ("/core/texm/encode/quantise", test_encode_quantise);
  g_test_add_func ("/core/texm/encode/mips", test_encode_mips);
  g_test_add_func ("/core/texm/encode/mips-odd", test_encode_mips_odd);
  g_test_add_func ("/core/texm/encode/page", test_encode_page);

  return g_test_run ();
}
