/* test-texm-encode.c - pictures to Texm payloads (texm-convert.h)
 *
 * Expected bytes are written out by hand from the bit layouts of
 * formats.md section 3; the comments show the arithmetic. */
#include "config.h"

#include <string.h>

#include "test-support.h"
#include "texm-convert.h"

static const guint32 all_formats[] = { 0, 565, 556, 4444, 88, 888, 8888 };

/* ---- helpers ----------------------------------------------------------- */

/* The 32-byte header, written field by field. */
static void
put_header (GByteArray *a,
            guint32     width,
            guint32     height,
            guint32     mips,
            guint32     flags4,
            guint32     format)
{
  test_put_u32 (a, 0x6D786554u);
  test_put_u32 (a, width);
  test_put_u32 (a, height);
  test_put_u32 (a, mips);
  test_put_u32 (a, flags4);
  test_put_u32 (a, 0);
  test_put_u32 (a, 0);
  test_put_u32 (a, format);
}

static GBytes *
encode_ok (const guint8            *rgba,
           guint                    w,
           guint                    h,
           const TexmEncodeOptions *options,
           TexmEncodeResult        *result)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = texm_encode (rgba, w, h, 0, options, result, &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

static GBytes *
encode_format (const guint8 *rgba,
               guint         w,
               guint         h,
               guint32       format)
{
  TexmEncodeOptions options;

  texm_encode_options_init (&options, format);
  return encode_ok (rgba, w, h, &options, NULL);
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
assert_bytes (GBytes *bytes, GByteArray *expect)
{
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                   expect->data, expect->len);
}

static void
assert_refused (const guint8            *rgba,
                guint                    w,
                guint                    h,
                const TexmEncodeOptions *options,
                TexmEncodeError          code,
                const char              *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = texm_encode (rgba, w, h, 0, options, NULL, &error);
  g_autofree guint8 *preview = NULL;
  g_autoptr(GError) error2 = NULL;

  g_assert_null (bytes);
  g_assert_error (error, TEXM_ENCODE_ERROR, (gint) code);
  g_assert_cmpstr (error->message, ==, message);
  /* the preview refuses the same way */
  preview = texm_encode_preview (rgba, w, h, 0, options, NULL, &error2);
  g_assert_null (preview);
  g_assert_error (error2, TEXM_ENCODE_ERROR, (gint) code);
}

/* A deterministic noise picture. */
static guint8 *
noise (guint w, guint h, guint32 seed, gboolean opaque)
{
  guint8 *rgba = g_malloc ((gsize) w * h * 4);

  for (gsize i = 0; i < (gsize) w * h * 4; i++)
    {
      seed = seed * 1664525u + 1013904223u;
      rgba[i] = (guint8) (seed >> 24);
      if (opaque && (i & 3) == 3)
        rgba[i] = 255;
    }
  return rgba;
}

/* The documented expansion (formats.md 3, bit replication). */
static guint8
rep (guint v, guint bits)
{
  return (guint8) ((v << (8 - bits)) | (v >> (2 * bits - 8)));
}

/* ---- exact bytes ------------------------------------------------------- */

/* 2x2 pictures, full chain (2 levels, flags4 32). Level 1 is the average
 * of the four texels, truncated: R (255 + 0 + 0 + 128) / 4 = 95,
 * G (0 + 255 + 0 + 64) / 4 = 79, B (0 + 0 + 255 + 32) / 4 = 71 and, for
 * the picture with alpha, A (255 + 136 + 0 + 255) / 4 = 161. */
static const guint8 opaque_2x2[] = {
  255, 0, 0, 255,     0, 255, 0, 255,
  0, 0, 255, 255,     128, 64, 32, 255,
};
static const guint8 alpha_2x2[] = {
  255, 0, 0, 255,     0, 255, 0, 136,
  0, 0, 255, 0,       128, 64, 32, 255,
};

static void
check_2x2 (guint32       format,
           const guint8 *rgba,
           const guint8 *pixels,
           gsize         n_pixels)
{
  g_autoptr(GByteArray) expect = g_byte_array_new ();
  g_autoptr(GBytes) bytes = encode_format (rgba, 2, 2, format);

  put_header (expect, 2, 2, 2, 32, format);
  test_put_bytes (expect, pixels, n_pixels);
  assert_bytes (bytes, expect);
}

static void
test_bytes_2x2 (void)
{
  /* 565, R5 G6 B5: red 0xF800, green 0x07E0, blue 0x001F;
   * (128, 64, 32): R (128 * 31 + 127) / 255 = 16, G (64 * 63 + 127) / 255
   * = 16, B (32 * 31 + 127) / 255 = 4 -> 0x8204; level 1 (95, 79, 71):
   * R 12, G 20, B 9 -> 0x6289. Little-endian. */
  static const guint8 p565[] = { 0x00, 0xF8, 0xE0, 0x07, 0x1F, 0x00, 0x04, 0x82,
                                 0x89, 0x62 };
  /* 556, R5 G5 B6: 0xF800, 0x07C0, 0x003F; (128, 64, 32): R 16,
   * G (64 * 31 + 127) / 255 = 8, B (32 * 63 + 127) / 255 = 8 -> 0x8208;
   * level 1: R 12, G (79 * 31 + 127) / 255 = 10, B (71 * 63 + 127) / 255
   * = 18 -> 0x6292. */
  static const guint8 p556[] = { 0x00, 0xF8, 0xC0, 0x07, 0x3F, 0x00, 0x08, 0x82,
                                 0x92, 0x62 };
  /* 888, X8 R8 G8 B8 with X written 0 */
  static const guint8 p888[] = { 0x00, 0x00, 0xFF, 0x00,  0x00, 0xFF, 0x00, 0x00,
                                 0xFF, 0x00, 0x00, 0x00,  0x20, 0x40, 0x80, 0x00,
                                 0x47, 0x4F, 0x5F, 0x00 };
  /* 4444, A4 R4 G4 B4: (255, 0, 0, 255) 0xFF00; (0, 255, 0, 136): A
   * (136 * 15 + 127) / 255 = 8 -> 0x80F0; (0, 0, 255, 0) 0x000F;
   * (128, 64, 32, 255): R 8, G 4, B 2 -> 0xF842; level 1
   * (95, 79, 71, 161): A 9, R 6, G 5, B 4 -> 0x9654. */
  static const guint8 p4444[] = { 0x00, 0xFF, 0xF0, 0x80, 0x0F, 0x00, 0x42, 0xF8,
                                  0x54, 0x96 };
  /* 88, L8 A8 with L = (77 R + 150 G + 29 B + 128) >> 8: red
   * (19635 + 128) >> 8 = 77 -> 0x4DFF; green (38250 + 128) >> 8 = 149 ->
   * 0x9588; blue (7395 + 128) >> 8 = 29 -> 0x1D00; (128, 64, 32):
   * (9856 + 9600 + 928 + 128) >> 8 = 80 -> 0x50FF; level 1:
   * (7315 + 11850 + 2059 + 128) >> 8 = 83, A 161 -> 0x53A1. */
  static const guint8 p88[] = { 0xFF, 0x4D, 0x88, 0x95, 0x00, 0x1D, 0xFF, 0x50,
                                0xA1, 0x53 };
  /* 8888, A8 R8 G8 B8 */
  static const guint8 p8888[] = { 0x00, 0x00, 0xFF, 0xFF,  0x00, 0xFF, 0x00, 0x88,
                                  0xFF, 0x00, 0x00, 0x00,  0x20, 0x40, 0x80, 0xFF,
                                  0x47, 0x4F, 0x5F, 0xA1 };

  check_2x2 (565, opaque_2x2, p565, sizeof p565);
  check_2x2 (556, opaque_2x2, p556, sizeof p556);
  check_2x2 (888, opaque_2x2, p888, sizeof p888);
  check_2x2 (4444, alpha_2x2, p4444, sizeof p4444);
  check_2x2 (88, alpha_2x2, p88, sizeof p88);
  check_2x2 (8888, alpha_2x2, p8888, sizeof p8888);
}

static void
test_bytes_565_4x2 (void)
{
  static const guint8 rgba[] = {
    0, 0, 0, 255,   255, 255, 255, 255,   100, 100, 100, 255,   200, 50, 25, 255,
    8, 4, 8, 255,   16, 8, 16, 255,       24, 12, 24, 255,      255, 0, 255, 255,
  };
  /* level 0: (100, 100, 100): R 12, G 25, B 12 -> 0x632C; (200, 50, 25):
   * R 24, G 12, B 3 -> 0xC183; (8, 4, 8): 1, 1, 1 -> 0x0821; (16, 8, 16):
   * 2, 2, 2 -> 0x1042; (24, 12, 24): 3, 3, 3 -> 0x1863.
   * level 1 (2x1): (0 + 255 + 8 + 16) / 4 = 69, (0 + 255 + 4 + 8) / 4 = 66
   * -> (69, 66, 69): R 8, G 16, B 8 -> 0x4208; (100 + 200 + 24 + 255) / 4
   * = 144, (100 + 50 + 12 + 0) / 4 = 40, (100 + 25 + 24 + 255) / 4 = 101
   * -> R 18, G 10, B 12 -> 0x914C.
   * level 2 (1x1, the whole 4x2 block): R (0 + 255 + 100 + 200 + 8 + 16 +
   * 24 + 255) / 8 = 858 / 8 = 107, G 429 / 8 = 53, B 683 / 8 = 85 ->
   * R (107 * 31 + 127) / 255 = 13, G (53 * 63 + 127) / 255 = 13,
   * B (85 * 31 + 127) / 255 = 10 -> 0x69AA. */
  static const guint8 pixels[] = {
    0x00, 0x00, 0xFF, 0xFF, 0x2C, 0x63, 0x83, 0xC1,
    0x21, 0x08, 0x42, 0x10, 0x63, 0x18, 0x1F, 0xF8,
    0x08, 0x42, 0x4C, 0x91,
    0xAA, 0x69,
  };
  g_autoptr(GByteArray) expect = g_byte_array_new ();
  g_autoptr(GBytes) bytes = encode_format (rgba, 4, 2, 565);

  put_header (expect, 4, 2, 3, 32, 565);
  test_put_bytes (expect, pixels, sizeof pixels);
  assert_bytes (bytes, expect);
}

static void
test_bytes_palette_4x2 (void)
{
  /* three colours A = (200, 10, 10), B = (10, 200, 10), C = (10, 10, 200):
   *   A A B B
   *   A C B C
   * Sorted by 0xRRGGBB: C 0x0A0AC8 < B 0x0AC80A < A 0xC80A0A, so entries
   * 1 = C, 2 = B, 3 = A; entries 4..255 repeat A; entry 0 stays zero.
   * Each entry is written B, G, R, 0 (formats.md 3). */
  static const guint8 rgba[] = {
    200, 10, 10, 255,   200, 10, 10, 255,   10, 200, 10, 255,   10, 200, 10, 255,
    200, 10, 10, 255,   10, 10, 200, 255,   10, 200, 10, 255,   10, 10, 200, 255,
  };
  /* level 1: (A A A C) = (152, 10, 57): nearest A (48^2 + 47^2); (B B B C)
   * = (10, 152, 57): nearest B. level 2: (81, 81, 57), as far from A as
   * from B (119^2 + 71^2 + 47^2 each): the lower index, B. */
  static const guint8 indices[] = { 3, 3, 2, 2, 3, 1, 2, 1,   3, 2,   2 };
  g_autoptr(GByteArray) expect = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  TexmEncodeOptions options;
  TexmEncodeResult result;

  put_header (expect, 4, 2, 3, 32, 0);
  test_put_bytes (expect, (const guint8[]) { 0, 0, 0, 0 }, 4);
  test_put_bytes (expect, (const guint8[]) { 200, 10, 10, 0 }, 4);
  test_put_bytes (expect, (const guint8[]) { 10, 200, 10, 0 }, 4);
  for (guint e = 3; e < 256; e++)
    test_put_bytes (expect, (const guint8[]) { 10, 10, 200, 0 }, 4);
  test_put_bytes (expect, indices, sizeof indices);

  texm_encode_options_init (&options, 0);
  bytes = encode_ok (rgba, 4, 2, &options, &result);
  assert_bytes (bytes, expect);
  g_assert_true (result.exact);
  g_assert_false (result.quantized);
  g_assert_cmpuint (result.n_colours, ==, 3);
  g_assert_cmpuint (result.max_error, ==, 0);
  g_assert_cmpuint (result.mip_count, ==, 3);
  g_assert_cmpuint (result.size, ==, expect->len);
}

static void
test_single_level_flags (void)
{
  /* one level: flags4 0 */
  TexmEncodeOptions options;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GByteArray) expect = g_byte_array_new ();

  texm_encode_options_init (&options, 8888);
  options.mip_count = 1;
  bytes = encode_ok (alpha_2x2, 2, 2, &options, NULL);
  put_header (expect, 2, 2, 1, 0, 8888);
  test_put_bytes (expect, (const guint8[]) { 0x00, 0x00, 0xFF, 0xFF,  0x00, 0xFF, 0x00, 0x88,
                                             0xFF, 0x00, 0x00, 0x00,  0x20, 0x40, 0x80, 0xFF }, 16);
  assert_bytes (bytes, expect);
}

/* ---- the mip chain ----------------------------------------------------- */

static void
test_mips_4x4 (void)
{
  /* R = 60 x + y, G = 70 y, A = 255 - 16 x - 4 y, B from a table made so
   * that averaging level 1 again would lose what level 0 has:
   *   B: 2 2 1 1 / 2 1 1 0 / 1 1 1 1 / 1 0 1 0 */
  static const guint8 b[4][4] = { { 2, 2, 1, 1 }, { 2, 1, 1, 0 }, { 1, 1, 1, 1 }, { 1, 0, 1, 0 } };
  /* level 1, each texel the truncated mean of its 2x2 block:
   *   (0,0): R (0 + 60 + 1 + 61) / 4 = 30 (30.5), G 140 / 4 = 35,
   *          B 7 / 4 = 1, A (255 + 239 + 251 + 235) / 4 = 245
   *   (1,0): R (120 + 180 + 121 + 181) / 4 = 150, G 35, B 3 / 4 = 0,
   *          A (223 + 207 + 219 + 203) / 4 = 213
   *   (0,1): R (2 + 62 + 3 + 63) / 4 = 32, G (140 + 140 + 210 + 210) / 4
   *          = 175, B 0, A (247 + 231 + 243 + 227) / 4 = 237
   *   (1,1): R 152, G 175, B 0, A 205
   * level 2, the mean of all 16 from level 0: R 1464 / 16 = 91, G 1680 / 16
   * = 105, B 16 / 16 = 1 (level 1 averaged again would give 0),
   * A 3600 / 16 = 225. */
  static const guint8 level1[] = {
    30, 35, 1, 245,   150, 35, 0, 213,
    32, 175, 0, 237,  152, 175, 0, 205,
  };
  static const guint8 level2[] = { 91, 105, 1, 225 };
  guint8 rgba[4 * 4 * 4];
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  g_autofree guint8 *l0 = NULL, *l1 = NULL, *l2 = NULL;
  guint w, h;

  for (guint y = 0; y < 4; y++)
    for (guint x = 0; x < 4; x++)
      {
        guint8 *p = rgba + (y * 4 + x) * 4;

        p[0] = (guint8) (x * 60 + y);
        p[1] = (guint8) (y * 70);
        p[2] = b[y][x];
        p[3] = (guint8) (255 - x * 16 - y * 4);
      }
  bytes = encode_format (rgba, 4, 4, 8888);
  image = parse_ok (bytes);
  g_assert_cmpuint (image->header.mip_count, ==, 3);
  g_assert_cmpuint (image->header.flags4, ==, 32);
  g_assert_cmpuint (image->header.flags5, ==, 0);
  g_assert_cmpuint (image->header.unk6, ==, 0);
  l0 = texm_decode_rgba (image, 0, &w, &h);
  g_assert_cmpmem (l0, sizeof rgba, rgba, sizeof rgba);
  l1 = texm_decode_rgba (image, 1, &w, &h);
  g_assert_cmpuint (w, ==, 2);
  g_assert_cmpuint (h, ==, 2);
  g_assert_cmpmem (l1, 16, level1, sizeof level1);
  l2 = texm_decode_rgba (image, 2, &w, &h);
  g_assert_cmpmem (l2, 4, level2, sizeof level2);
}

static void
test_mips_non_square (void)
{
  /* 8x2: R = 10 i, G = 255 - 10 i, B = i over the 16 texels in raster
   * order. level 1 (4x1) texel 0: R (0 + 10 + 80 + 90) / 4 = 45,
   * G (255 + 245 + 175 + 165) / 4 = 210, B (0 + 1 + 8 + 9) / 4 = 4;
   * level 2 (2x1): 4x2 blocks, texel 0: R (0+10+20+30+80+90+100+110) / 8
   * = 55; level 3 (1x1): all 16, R 1200 / 16 = 75, G 2880 / 16 = 180,
   * B 120 / 16 = 7. */
  static const guint8 level1[] = {
    45, 210, 4, 255,   65, 190, 6, 255,   85, 170, 8, 255,   105, 150, 10, 255,
  };
  static const guint8 level2[] = { 55, 200, 5, 255,   95, 160, 9, 255 };
  static const guint8 level3[] = { 75, 180, 7, 255 };
  /* 1x4: level 1 (1x2) texel 1 = ((50 + 1) / 2, (60 + 2) / 2, (70 + 3) / 2,
   * (80 + 5) / 2) = (25, 31, 36, 42); level 2: (72 / 4, 103 / 4, 134 / 4,
   * 166 / 4) = (18, 25, 33, 41). */
  static const guint8 tall[] = {
    10, 20, 30, 40,   11, 21, 31, 41,   50, 60, 70, 80,   1, 2, 3, 5,
  };
  static const guint8 tall1[] = { 10, 20, 30, 40,   25, 31, 36, 42 };
  static const guint8 tall2[] = { 18, 25, 33, 41 };
  guint8 rgba[16 * 4];
  g_autoptr(GBytes) bytes = NULL, tall_bytes = NULL;
  g_autoptr(TexmImage) image = NULL, tall_image = NULL;
  g_autofree guint8 *l1 = NULL, *l2 = NULL, *l3 = NULL, *t1 = NULL, *t2 = NULL;

  for (guint i = 0; i < 16; i++)
    {
      rgba[i * 4 + 0] = (guint8) (i * 10);
      rgba[i * 4 + 1] = (guint8) (255 - i * 10);
      rgba[i * 4 + 2] = (guint8) i;
      rgba[i * 4 + 3] = 255;
    }
  bytes = encode_format (rgba, 8, 2, 8888);
  image = parse_ok (bytes);
  g_assert_cmpuint (image->header.mip_count, ==, 4);
  l1 = texm_decode_rgba (image, 1, NULL, NULL);
  g_assert_cmpmem (l1, 16, level1, sizeof level1);
  l2 = texm_decode_rgba (image, 2, NULL, NULL);
  g_assert_cmpmem (l2, 8, level2, sizeof level2);
  l3 = texm_decode_rgba (image, 3, NULL, NULL);
  g_assert_cmpmem (l3, 4, level3, sizeof level3);

  tall_bytes = encode_format (tall, 1, 4, 8888);
  tall_image = parse_ok (tall_bytes);
  g_assert_cmpuint (tall_image->header.mip_count, ==, 3);
  t1 = texm_decode_rgba (tall_image, 1, NULL, NULL);
  g_assert_cmpmem (t1, 8, tall1, sizeof tall1);
  t2 = texm_decode_rgba (tall_image, 2, NULL, NULL);
  g_assert_cmpmem (t2, 4, tall2, sizeof tall2);
}

static void
test_mips_count (void)
{
  TexmEncodeOptions options;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  g_autofree guint8 *rgba = noise (16, 4, 5, FALSE);

  g_assert_cmpuint (texm_full_mip_count (1, 1), ==, 1);
  g_assert_cmpuint (texm_full_mip_count (16, 4), ==, 5);
  g_assert_cmpuint (texm_full_mip_count (1024, 1024), ==, 11);
  g_assert_cmpuint (texm_full_mip_count (1, 512), ==, 10);

  texm_encode_options_init (&options, 4444);
  options.mip_count = 3;
  bytes = encode_ok (rgba, 16, 4, &options, NULL);
  image = parse_ok (bytes);
  g_assert_cmpuint (image->header.mip_count, ==, 3);
  g_assert_cmpuint (image->header.flags4, ==, 32);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 32 + (64 + 16 + 4) * 2);
}

/* ---- rounding ---------------------------------------------------------- */

static void
test_rounding_nearest (void)
{
  /* every 8-bit value lands on a nearest grid value of 4, 5 and 6 bits */
  guint8 rgba[256 * 4];
  static const guint32 formats[] = { 4444, 565, 556 };

  for (guint v = 0; v < 256; v++)
    {
      rgba[v * 4 + 0] = rgba[v * 4 + 1] = rgba[v * 4 + 2] = (guint8) v;
      rgba[v * 4 + 3] = 255;
    }
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      TexmEncodeOptions options;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(TexmImage) image = NULL;
      g_autofree guint8 *back = NULL;
      /* bits of R, G, B */
      guint bits[3] = { 4, 4, 4 };

      if (formats[f] == 565)
        bits[0] = 5, bits[1] = 6, bits[2] = 5;
      else if (formats[f] == 556)
        bits[0] = 5, bits[1] = 5, bits[2] = 6;

      texm_encode_options_init (&options, formats[f]);
      options.mip_count = 1;
      bytes = encode_ok (rgba, 256, 1, &options, NULL);
      image = parse_ok (bytes);
      back = texm_decode_rgba (image, 0, NULL, NULL);
      for (guint v = 0; v < 256; v++)
        for (guint c = 0; c < 3; c++)
          {
            guint best = 255;

            for (guint q = 0; q < (1u << bits[c]); q++)
              best = MIN (best, (guint) ABS ((int) rep (q, bits[c]) - (int) v));
            g_assert_cmpuint ((guint) ABS ((int) back[v * 4 + c] - (int) v), ==, best);
          }
    }
}

/* ---- palettes ---------------------------------------------------------- */

static void
assert_indices_valid (GBytes *bytes, guint n_colours)
{
  g_autoptr(TexmImage) image = parse_ok (bytes);
  const guint8 *d = g_bytes_get_data (bytes, NULL);
  gsize end = image->has_page ? g_bytes_get_size (bytes) - 8 - 8 * image->n_rects
                              : g_bytes_get_size (bytes);

  /* every index of every level in 1..n_colours: 0 is never used */
  for (gsize i = 32 + 1024; i < end; i++)
    {
      g_assert_cmpuint (d[i], >=, 1);
      g_assert_cmpuint (d[i], <=, n_colours);
    }
  /* entry 0 is zero */
  g_assert_cmpuint (test_get_u32 (d + 32), ==, 0);
}

static void
test_palette_exact (void)
{
  /* 32x32 with exactly 255 distinct colours (the most index 1..255 hold) */
  g_autofree guint8 *rgba = g_malloc (32 * 32 * 4);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  g_autofree guint8 *back = NULL;
  TexmEncodeOptions options;
  TexmEncodeResult result;

  for (guint i = 0; i < 32 * 32; i++)
    {
      guint c = (i * 7) % 255;

      rgba[i * 4 + 0] = (guint8) (c * 3);
      rgba[i * 4 + 1] = (guint8) (255 - c);
      rgba[i * 4 + 2] = (guint8) (c * 101);
      rgba[i * 4 + 3] = 255;
    }
  texm_encode_options_init (&options, 0);
  options.dither = TRUE;   /* nothing to dither: the colours are exact */
  bytes = encode_ok (rgba, 32, 32, &options, &result);
  g_assert_true (result.exact);
  g_assert_false (result.quantized);
  g_assert_cmpuint (result.n_colours, ==, 255);
  image = parse_ok (bytes);
  back = texm_decode_rgba (image, 0, NULL, NULL);
  g_assert_cmpmem (back, 32 * 32 * 4, rgba, 32 * 32 * 4);
  assert_indices_valid (bytes, 255);
}

static void
check_quantized (gboolean dither)
{
  /* 64x64 smooth colour field: 4096 distinct colours */
  g_autofree guint8 *rgba = g_malloc (64 * 64 * 4);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TexmImage) image = NULL;
  g_autofree guint8 *back = NULL;
  TexmEncodeOptions options;
  TexmEncodeResult result;
  guint64 total = 0;
  guint max_error = 0;

  for (guint y = 0; y < 64; y++)
    for (guint x = 0; x < 64; x++)
      {
        guint8 *p = rgba + (y * 64 + x) * 4;

        p[0] = (guint8) (x * 4);
        p[1] = (guint8) (y * 4);
        p[2] = (guint8) ((x + y) * 2);
        p[3] = 255;
      }
  texm_encode_options_init (&options, 0);
  options.dither = dither;
  bytes = encode_ok (rgba, 64, 64, &options, &result);
  g_assert_true (result.quantized);
  g_assert_false (result.exact);
  g_assert_cmpuint (result.n_colours, >=, 64);
  g_assert_cmpuint (result.n_colours, <=, 255);
  assert_indices_valid (bytes, result.n_colours);

  image = parse_ok (bytes);
  g_assert_cmpuint (image->header.mip_count, ==, 7);
  back = texm_decode_rgba (image, 0, NULL, NULL);
  for (guint i = 0; i < 64 * 64; i++)
    for (guint c = 0; c < 3; c++)
      {
        guint d = (guint) ABS ((int) back[i * 4 + c] - (int) rgba[i * 4 + c]);

        total += d;
        max_error = MAX (max_error, d);
      }
  g_assert_cmpuint (max_error, ==, result.max_error);
  /* 255 colours over a 4096-colour field: close everywhere */
  g_assert_cmpuint (max_error, <=, 24);
  g_assert_cmpfloat ((double) total / (64 * 64 * 3), <, 5.0);
}

static void
test_palette_quantized (void)
{
  check_quantized (FALSE);
}

static void
test_palette_quantized_dither (void)
{
  check_quantized (TRUE);
}

static void
test_palette_fixed (void)
{
  /* a fixed palette: entry 0 is never chosen, even for its own colour */
  guint8 pal[1024] = { 0 };
  static const guint8 rgba[] = {
    0, 0, 0, 255,   9, 9, 9, 255,   250, 250, 250, 255,   100, 0, 0, 255,
  };
  g_autoptr(GBytes) bytes = NULL;
  const guint8 *d;
  TexmEncodeOptions options;

  for (guint e = 1; e < 256; e++)
    {
      pal[e * 4 + 0] = pal[e * 4 + 1] = pal[e * 4 + 2] = (guint8) e;
      pal[e * 4 + 3] = 0x77;
    }
  pal[0] = 0; pal[1] = 0; pal[2] = 0;   /* entry 0 is black */
  texm_encode_options_init (&options, 0);
  options.palette = pal;
  options.mip_count = 1;
  bytes = encode_ok (rgba, 4, 1, &options, NULL);
  d = g_bytes_get_data (bytes, NULL);
  g_assert_cmpmem (d + 32, 1024, pal, 1024);
  /* black -> entry 1 (1, 1, 1); (9, 9, 9) -> 9; (250, ...) -> 250;
   * (100, 0, 0): distance to grey e is (100 - e)^2 + 2 e^2, least at
   * e = 33 (4489 + 2178 = 6667; 32: 4624 + 2048 = 6672; 34: 4356 + 2312
   * = 6668) */
  g_assert_cmpuint (d[32 + 1024 + 0], ==, 1);
  g_assert_cmpuint (d[32 + 1024 + 1], ==, 9);
  g_assert_cmpuint (d[32 + 1024 + 2], ==, 250);
  g_assert_cmpuint (d[32 + 1024 + 3], ==, 33);

  /* a fixed palette is read B, G, R, X as the game reads it: entry 254
   * stored (0, 0, 255) is red, entry 255 stored (255, 0, 0) is blue */
  {
    static const guint8 red_blue[] = { 255, 0, 0, 255,   0, 0, 255, 255 };
    g_autoptr(GBytes) coloured = NULL;
    g_autoptr(TexmImage) image = NULL;
    g_autofree guint8 *back = NULL;

    pal[254 * 4 + 0] = 0; pal[254 * 4 + 1] = 0; pal[254 * 4 + 2] = 255;
    pal[255 * 4 + 0] = 255; pal[255 * 4 + 1] = 0; pal[255 * 4 + 2] = 0;
    coloured = encode_ok (red_blue, 2, 1, &options, NULL);
    d = g_bytes_get_data (coloured, NULL);
    /* written as given, the fourth bytes (0x77) too */
    g_assert_cmpmem (d + 32, 1024, pal, 1024);
    g_assert_cmpuint (d[32 + 1024 + 0], ==, 254);
    g_assert_cmpuint (d[32 + 1024 + 1], ==, 255);
    image = parse_ok (coloured);
    back = texm_decode_rgba (image, 0, NULL, NULL);
    g_assert_cmpmem (back, sizeof red_blue, red_blue, sizeof red_blue);
  }
}

/* ---- dithering --------------------------------------------------------- */

static void
test_dither_bytes (void)
{
  /* a grey ramp 91, 93, 95, 97 on two rows, 565, one level. Red (5 bits:
   * grid values 90, 99 = 1440, 1584 in sixteenths), the target t, the
   * error e and its shares (7 e / 16 right, 3 e / 16 down-left, 5 e / 16
   * down, the rest down-right):
   *   (0,0) t 1456 -> 90, e 16: 7, (3 lost), 5, 1
   *   (1,0) t 1488 + 7 = 1495 -> 90 (55 away; 99 is 89), e 55: 24, 10, 17, 4
   *   (2,0) t 1520 + 24 = 1544 -> 99, e -40: -17, -7, -12, -4
   *   (3,0) t 1552 - 17 = 1535 -> 99, e -49: (-21 lost), -9, -15, (-4 lost)
   *   (0,1) t 1456 + 5 + 10 = 1471 -> 90, e 31: 13 right, 9 lost below
   *   (1,1) t 1488 + 13 + 1 + 17 - 7 = 1512: 72 from either; the linear
   *         scale (1512 * 31 / 4080 = 11.49) picks 11 -> 90, e 72: 31 right
   *   (2,1) t 1520 + 31 + 4 - 12 - 9 = 1534 -> 99, e -50: -21 right
   *   (3,1) t 1552 - 21 - 4 - 15 = 1512 -> 90 again (a tie, as at (1,1);
   *         with the remainder not passed down-right it would be 99)
   * so red is 11 11 12 12 / 11 11 12 11, blue the same; green (6 bits, grid
   * 89, 93, 97) 22 23 24 24 / 23 23 23 24. Rounding alone would repeat
   * 0x5ACB 0x5AEB 0x62EC 0x630C on both rows. */
  static const guint8 expect[] = {
    0xCB, 0x5A, 0xEB, 0x5A, 0x0C, 0x63, 0x0C, 0x63,
    0xEB, 0x5A, 0xEB, 0x5A, 0xEC, 0x62, 0x0B, 0x5B,
  };
  guint8 rgba[8 * 4];
  g_autoptr(GBytes) bytes = NULL;
  TexmEncodeOptions options;

  for (guint i = 0; i < 8; i++)
    {
      rgba[i * 4 + 0] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = (guint8) (91 + 2 * (i % 4));
      rgba[i * 4 + 3] = 255;
    }
  texm_encode_options_init (&options, 565);
  options.mip_count = 1;
  options.dither = TRUE;
  bytes = encode_ok (rgba, 4, 2, &options, NULL);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (bytes, NULL) + 32,
                   g_bytes_get_size (bytes) - 32, expect, sizeof expect);
}

static void
mean_channels (GBytes *bytes, guint n, double mean[4])
{
  g_autoptr(TexmImage) image = parse_ok (bytes);
  g_autofree guint8 *back = texm_decode_rgba (image, 0, NULL, NULL);

  for (guint c = 0; c < 4; c++)
    {
      guint64 s = 0;

      for (guint i = 0; i < n; i++)
        s += back[i * 4 + c];
      mean[c] = (double) s / n;
    }
}

static void
test_dither_flat_average (void)
{
  /* a flat 64x64 region (104, 150, 60, 100): 104 lies between the 5-bit
   * values 99 and 107 and rounds to 107 (3 off); the dithered average
   * stays within one step of the input. */
  static const guint32 formats[] = { 565, 556, 4444 };
  static const guint8 colour[4] = { 104, 150, 60, 100 };
  g_autofree guint8 *rgba = g_malloc (64 * 64 * 4);

  for (guint i = 0; i < 64 * 64; i++)
    memcpy (rgba + i * 4, colour, 4);

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      TexmEncodeOptions options;
      g_autoptr(GBytes) plain = NULL, dithered = NULL;
      double mp[4], md[4];
      guint channels = formats[f] == 4444 ? 4 : 3;

      texm_encode_options_init (&options, formats[f]);
      options.mip_count = 1;
      options.drop_alpha = TRUE;
      plain = encode_ok (rgba, 64, 64, &options, NULL);
      options.dither = TRUE;
      dithered = encode_ok (rgba, 64, 64, &options, NULL);
      mean_channels (plain, 64 * 64, mp);
      mean_channels (dithered, 64 * 64, md);
      for (guint c = 0; c < channels; c++)
        g_assert_cmpfloat (ABS (md[c] - colour[c]), <=, 1.0);
      /* the 5-bit red rounds to 107 when not dithered */
      if (formats[f] != 4444)
        g_assert_cmpfloat (mp[0], ==, 107.0);
    }
}

/* ---- Page -------------------------------------------------------------- */

static void
test_page (void)
{
  static const TexmRect cells[] = { { 0, 4, 0, 2 }, { 4, 4, 2, 2 }, { 0, 8, 0, 4 } };
  g_autofree guint8 *rgba = noise (8, 4, 3, FALSE);
  TexmEncodeOptions options;
  TexmEncodeResult result;
  g_autoptr(GBytes) bytes = NULL, again = NULL, empty = NULL;
  g_autoptr(TexmImage) image = NULL, empty_image = NULL;
  const guint8 *d;
  gsize size;

  texm_encode_options_init (&options, 8888);
  options.page = TRUE;
  options.rects = cells;
  options.n_rects = G_N_ELEMENTS (cells);
  bytes = encode_ok (rgba, 8, 4, &options, &result);
  d = g_bytes_get_data (bytes, &size);
  g_assert_cmpuint (size, ==, 32 + (32 + 8 + 2 + 1) * 4 + 8 + 3 * 8);
  g_assert_cmpuint (result.size, ==, size);
  g_assert_cmpuint (texm_encoded_size (8888, 8, 4, 0, TRUE, 3), ==, size);
  /* "Page", 3, then x, w, y, h of each cell */
  g_assert_cmpmem (d + size - 32, 4, "Page", 4);
  g_assert_cmpuint (test_get_u32 (d + size - 28), ==, 3);
  g_assert_cmpuint (test_get_u16 (d + size - 16 + 0), ==, 4);
  g_assert_cmpuint (test_get_u16 (d + size - 16 + 2), ==, 4);
  g_assert_cmpuint (test_get_u16 (d + size - 16 + 4), ==, 2);
  g_assert_cmpuint (test_get_u16 (d + size - 16 + 6), ==, 2);
  g_assert_cmpuint (test_get_u16 (d + size - 8 + 2), ==, 8);

  image = parse_ok (bytes);
  g_assert_true (image->has_page);
  g_assert_cmpuint (image->n_rects, ==, 3);
  g_assert_cmpmem (image->rects, sizeof cells, cells, sizeof cells);
  again = texm_write (image);
  g_assert_true (g_bytes_equal (again, bytes));

  /* a Page chunk without cells */
  options.n_rects = 0;
  empty = encode_ok (rgba, 8, 4, &options, NULL);
  empty_image = parse_ok (empty);
  g_assert_true (empty_image->has_page);
  g_assert_cmpuint (empty_image->n_rects, ==, 0);
  g_assert_cmpuint (g_bytes_get_size (empty), ==, size - 3 * 8);
}

/* ---- refusals ---------------------------------------------------------- */

static void
test_refuse_alpha (void)
{
  static const guint32 no_alpha[] = { 565, 556, 888, 0 };
  static const char *messages[] = {
    "format 565 has no alpha: expected an opaque picture (alpha 255), found alpha 136 at x 1, y 0; choose 4444, 88 or 8888, or drop the alpha",
    "format 556 has no alpha: expected an opaque picture (alpha 255), found alpha 136 at x 1, y 0; choose 4444, 88 or 8888, or drop the alpha",
    "format 888 has no alpha: expected an opaque picture (alpha 255), found alpha 136 at x 1, y 0; choose 4444, 88 or 8888, or drop the alpha",
    "format 0 has no alpha: expected an opaque picture (alpha 255), found alpha 136 at x 1, y 0; choose 4444, 88 or 8888, or drop the alpha",
  };
  /* binary alpha is refused too: 0 is not 255 */
  static const guint8 binary[] = {
    1, 2, 3, 255,   4, 5, 6, 255,   7, 8, 9, 255,   10, 11, 12, 0,
  };

  for (guint f = 0; f < G_N_ELEMENTS (no_alpha); f++)
    {
      TexmEncodeOptions options;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(TexmImage) image = NULL;
      g_autofree guint8 *back = NULL;
      g_autofree char *binary_message = NULL;
      TexmEncodeResult result;

      g_assert_false (texm_format_has_alpha (no_alpha[f]));
      texm_encode_options_init (&options, no_alpha[f]);
      assert_refused (alpha_2x2, 2, 2, &options, TEXM_ENCODE_ERROR_ALPHA, messages[f]);
      binary_message = g_strdup_printf ("format %u has no alpha: expected an opaque picture "
                                        "(alpha 255), found alpha 0 at x 1, y 1; choose "
                                        "4444, 88 or 8888, or drop the alpha", no_alpha[f]);
      assert_refused (binary, 2, 2, &options, TEXM_ENCODE_ERROR_ALPHA, binary_message);

      /* dropping it keeps the colours as stored */
      options.drop_alpha = TRUE;
      bytes = encode_ok (alpha_2x2, 2, 2, &options, &result);
      image = parse_ok (bytes);
      back = texm_decode_rgba (image, 0, NULL, NULL);
      for (guint i = 0; i < 4; i++)
        g_assert_cmpuint (back[i * 4 + 3], ==, 255);
      if (no_alpha[f] == 888 || no_alpha[f] == 0)
        {
          /* (0, 0, 255) under alpha 0 is kept as it is */
          g_assert_cmpmem (back + 8, 3, alpha_2x2 + 8, 3);
          g_assert_true (result.exact);
        }
    }
  g_assert_true (texm_format_has_alpha (4444));
  g_assert_true (texm_format_has_alpha (88));
  g_assert_true (texm_format_has_alpha (8888));
}

static void
test_refuse_size (void)
{
  g_autofree guint8 *rgba = g_malloc0 ((gsize) 2048 * 4 * 4);
  TexmEncodeOptions options;
  g_autoptr(GError) error = NULL;

  texm_encode_options_init (&options, 8888);
  assert_refused (rgba, 300, 256, &options, TEXM_ENCODE_ERROR_SIZE,
                  "the picture is 300x256: expected each side a power of two "
                  "from 1 to 1024, found a width of 300");
  assert_refused (rgba, 64, 48, &options, TEXM_ENCODE_ERROR_SIZE,
                  "the picture is 64x48: expected each side a power of two "
                  "from 1 to 1024, found a height of 48");
  assert_refused (rgba, 2048, 4, &options, TEXM_ENCODE_ERROR_SIZE,
                  "the picture is 2048x4: expected each side a power of two "
                  "from 1 to 1024, found a width of 2048");
  assert_refused (rgba, 4, 2048, &options, TEXM_ENCODE_ERROR_SIZE,
                  "the picture is 4x2048: expected each side a power of two "
                  "from 1 to 1024, found a height of 2048");
  assert_refused (rgba, 0, 4, &options, TEXM_ENCODE_ERROR_SIZE,
                  "the picture is 0x4: expected each side a power of two "
                  "from 1 to 1024, found a width of 0");
  g_assert_true (texm_check_picture_size (1, 1, NULL));
  g_assert_true (texm_check_picture_size (1024, 1, &error));
  g_assert_no_error (error);
  g_assert_false (texm_check_picture_size (1023, 1, NULL));
}

static void
test_refuse_other (void)
{
  static const TexmRect outside[] = { { 0, 2, 0, 2 }, { 1, 2, 0, 1 } };
  static const TexmRect empty[] = { { 0, 0, 0, 1 } };
  static const TexmRect negative[] = { { -1, 1, 0, 1 } };
  TexmEncodeOptions options;

  texm_encode_options_init (&options, 8888);
  options.mip_count = 3;
  assert_refused (alpha_2x2, 2, 2, &options, TEXM_ENCODE_ERROR_MIPS,
                  "a 2x2 texture has at most 2 mip levels (down to 1x1), found 3");

  texm_encode_options_init (&options, 8888);
  options.page = TRUE;
  options.rects = outside;
  options.n_rects = 2;
  assert_refused (alpha_2x2, 2, 2, &options, TEXM_ENCODE_ERROR_CELL,
                  "cell 1 (x 1, w 2, y 0, h 1): expected a rectangle of positive "
                  "size inside the 2x2 picture");
  options.rects = empty;
  options.n_rects = 1;
  assert_refused (alpha_2x2, 2, 2, &options, TEXM_ENCODE_ERROR_CELL,
                  "cell 0 (x 0, w 0, y 0, h 1): expected a rectangle of positive "
                  "size inside the 2x2 picture");
  options.rects = negative;
  assert_refused (alpha_2x2, 2, 2, &options, TEXM_ENCODE_ERROR_CELL,
                  "cell 0 (x -1, w 1, y 0, h 1): expected a rectangle of positive "
                  "size inside the 2x2 picture");
  /* cells are only checked when a Page chunk is asked for */
  options.page = FALSE;
  g_bytes_unref (encode_ok (alpha_2x2, 2, 2, &options, NULL));

  texm_encode_options_init (&options, 555);
  assert_refused (alpha_2x2, 2, 2, &options, TEXM_ENCODE_ERROR_FORMAT,
                  "expected format 0, 565, 556, 4444, 88, 888 or 8888, found 555");
}

/* ---- re-encoding ------------------------------------------------------- */

/* The palette of a format-0 payload, to encode its decode again. */
static const guint8 *
payload_palette (GBytes *bytes, guint32 format)
{
  return format == 0 ? (const guint8 *) g_bytes_get_data (bytes, NULL) + 32 : NULL;
}

static void
test_reencode_single_level (void)
{
  /* any picture, one level: encode, decode, encode gives the same bytes
   * (level 0 of a decode is on the grid; dithering has no error left) */
  g_autofree guint8 *rgba = noise (32, 32, 11, FALSE);

  for (guint f = 0; f < G_N_ELEMENTS (all_formats); f++)
    for (guint dither = 0; dither < 2; dither++)
      {
        TexmEncodeOptions options;
        g_autoptr(GBytes) first = NULL, second = NULL;
        g_autoptr(TexmImage) image = NULL;
        g_autofree guint8 *back = NULL;

        texm_encode_options_init (&options, all_formats[f]);
        options.mip_count = 1;
        options.dither = dither;
        options.drop_alpha = TRUE;
        first = encode_ok (rgba, 32, 32, &options, NULL);
        image = parse_ok (first);
        back = texm_decode_rgba (image, 0, NULL, NULL);
        options.palette = payload_palette (first, all_formats[f]);
        second = encode_ok (back, 32, 32, &options, NULL);
        g_assert_true (g_bytes_equal (first, second));
      }
}

/* A picture already on the grid of @format. */
static guint8 *
on_grid (guint32 format, guint w, guint h)
{
  guint8 *rgba = noise (w, h, 21 + format, FALSE);

  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      guint8 *p = rgba + i * 4;

      switch (format)
        {
        case 0:
          /* 40 colours */
          p[0] = (guint8) ((p[0] % 40) * 6);
          p[1] = (guint8) (255 - p[0]);
          p[2] = (guint8) (p[0] / 2);
          p[3] = 255;
          break;
        case 565:
          p[0] = rep (p[0] >> 3, 5); p[1] = rep (p[1] >> 2, 6); p[2] = rep (p[2] >> 3, 5); p[3] = 255;
          break;
        case 556:
          p[0] = rep (p[0] >> 3, 5); p[1] = rep (p[1] >> 3, 5); p[2] = rep (p[2] >> 2, 6); p[3] = 255;
          break;
        case 4444:
          for (guint c = 0; c < 4; c++)
            p[c] = rep (p[c] >> 4, 4);
          break;
        case 88:
          p[1] = p[2] = p[0];
          break;
        case 888:
          p[3] = 255;
          break;
        default:
          break;
        }
    }
  return rgba;
}

static void
test_reencode_full_chain (void)
{
  /* a texture made from a picture on its format's grid, decoded and
   * encoded again, is byte-identical, mip chain and all */
  for (guint f = 0; f < G_N_ELEMENTS (all_formats); f++)
    {
      g_autofree guint8 *rgba = on_grid (all_formats[f], 32, 16);
      TexmEncodeOptions options;
      g_autoptr(GBytes) first = NULL, second = NULL, fixed = NULL;
      g_autoptr(TexmImage) image = NULL;
      g_autofree guint8 *back = NULL;

      texm_encode_options_init (&options, all_formats[f]);
      first = encode_ok (rgba, 32, 16, &options, NULL);
      image = parse_ok (first);
      g_assert_cmpuint (image->header.mip_count, ==, 6);
      back = texm_decode_rgba (image, 0, NULL, NULL);
      g_assert_cmpmem (back, 32 * 16 * 4, rgba, 32 * 16 * 4);
      second = encode_ok (back, 32, 16, &options, NULL);
      g_assert_true (g_bytes_equal (first, second));
      options.palette = payload_palette (first, all_formats[f]);
      fixed = encode_ok (back, 32, 16, &options, NULL);
      g_assert_true (g_bytes_equal (first, fixed));
    }
}

static void
test_reencode_retail_shaped (void)
{
  /* A texture built here byte by byte as the retail files are: 2x2 565
   * with flags4 32, level 0 (31, 0, 0) (0, 63, 0) (0, 0, 31) (16, 32, 16),
   * level 1 from the expanded texels (255, 0, 0) (0, 255, 0) (0, 0, 255)
   * (132, 130, 132): R 387 / 4 = 96, G 385 / 4 = 96, B 387 / 4 = 96 ->
   * R (96 * 31 + 127) / 255 = 12, G (96 * 63 + 127) / 255 = 24, B 12 ->
   * 0x630C. Decoded and encoded again: the same bytes. */
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GBytes) retail = NULL, again = NULL;
  g_autoptr(TexmImage) image = NULL;
  g_autofree guint8 *rgba = NULL;

  put_header (a, 2, 2, 2, 32, 565);
  test_put_u16 (a, 0xF800);
  test_put_u16 (a, 0x07E0);
  test_put_u16 (a, 0x001F);
  test_put_u16 (a, 0x8410);
  test_put_u16 (a, 0x630C);
  retail = g_byte_array_free_to_bytes (g_steal_pointer (&a));
  image = parse_ok (retail);
  rgba = texm_decode_rgba (image, 0, NULL, NULL);
  again = encode_format (rgba, 2, 2, 565);
  g_assert_true (g_bytes_equal (again, retail));
}

/* ---- preview, size, stride -------------------------------------------- */

static void
test_preview_matches (void)
{
  /* the preview is level 0 of the full encode, quantized palette too */
  g_autofree guint8 *rgba = noise (64, 32, 17, FALSE);

  for (guint f = 0; f < G_N_ELEMENTS (all_formats); f++)
    for (guint dither = 0; dither < 2; dither++)
      {
        TexmEncodeOptions options;
        TexmEncodeResult r1, r2;
        g_autoptr(GBytes) bytes = NULL;
        g_autoptr(TexmImage) image = NULL;
        g_autofree guint8 *level0 = NULL, *preview = NULL;
        g_autoptr(GError) error = NULL;

        texm_encode_options_init (&options, all_formats[f]);
        options.dither = dither;
        options.drop_alpha = TRUE;
        bytes = encode_ok (rgba, 64, 32, &options, &r1);
        image = parse_ok (bytes);
        level0 = texm_decode_rgba (image, 0, NULL, NULL);
        preview = texm_encode_preview (rgba, 64, 32, 0, &options, &r2, &error);
        g_assert_no_error (error);
        g_assert_cmpmem (preview, 64 * 32 * 4, level0, 64 * 32 * 4);
        g_assert_cmpuint (r1.width, ==, r2.width);
        g_assert_cmpuint (r1.height, ==, r2.height);
        g_assert_cmpuint (r1.mip_count, ==, r2.mip_count);
        g_assert_cmpuint (r1.size, ==, r2.size);
        g_assert_cmpint (r1.exact, ==, r2.exact);
        g_assert_cmpuint (r1.max_error, ==, r2.max_error);
        g_assert_cmpuint (r1.n_colours, ==, r2.n_colours);
        g_assert_cmpint (r1.quantized, ==, r2.quantized);
      }
}

static void
test_encoded_size (void)
{
  g_autofree guint8 *rgba = noise (16, 8, 2, FALSE);

  for (guint f = 0; f < G_N_ELEMENTS (all_formats); f++)
    for (guint mips = 0; mips <= 5; mips++)
      {
        TexmEncodeOptions options;
        TexmEncodeResult result;
        g_autoptr(GBytes) bytes = NULL;

        texm_encode_options_init (&options, all_formats[f]);
        options.mip_count = mips;
        options.drop_alpha = TRUE;
        bytes = encode_ok (rgba, 16, 8, &options, &result);
        g_assert_cmpuint (texm_encoded_size (all_formats[f], 16, 8, mips, FALSE, 0), ==,
                          g_bytes_get_size (bytes));
        g_assert_cmpuint (result.size, ==, g_bytes_get_size (bytes));
      }
  /* 64x64 565 full chain: 32 + 2 * (4096 + 1024 + 256 + 64 + 16 + 4 + 1) */
  g_assert_cmpuint (texm_encoded_size (565, 64, 64, 0, FALSE, 0), ==, 32 + 2 * 5461);
  g_assert_cmpuint (texm_encoded_size (0, 1, 1, 1, TRUE, 2), ==, 32 + 1024 + 1 + 8 + 16);
  g_assert_cmpuint (texm_encoded_size (555, 1, 1, 1, FALSE, 0), ==, 0);
}

static void
test_stride (void)
{
  /* rows with padding give the same payload as packed rows */
  g_autofree guint8 *rgba = noise (8, 4, 9, FALSE);
  g_autofree guint8 *padded = g_malloc0 (40 * 4);
  TexmEncodeOptions options;
  g_autoptr(GBytes) a = NULL, b = NULL;
  g_autoptr(GError) error = NULL;

  for (guint y = 0; y < 4; y++)
    memcpy (padded + y * 40, rgba + y * 32, 32);
  texm_encode_options_init (&options, 4444);
  options.dither = TRUE;
  a = encode_ok (rgba, 8, 4, &options, NULL);
  b = texm_encode (padded, 8, 4, 40, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (a, b));
}

/* ---- analysis ---------------------------------------------------------- */

static void
test_alpha_kind_and_suggest (void)
{
  g_autofree guint8 *rgba = noise (128, 64, 4, TRUE);
  const guint n = 128 * 64;

  /* opaque -> 565 */
  g_assert_cmpint (texm_picture_alpha (rgba, 128, 64, 0), ==, TEXM_ALPHA_NONE);
  g_assert_cmpuint (texm_suggest_format (rgba, 128, 64, 0), ==, 565);

  /* binary alpha and exactly 4096 colours (every 4-bit R, G, B) -> 4444 */
  for (guint i = 0; i < n; i++)
    {
      guint j = i % 4096;

      rgba[i * 4 + 0] = (guint8) ((j & 0xF) << 4);
      rgba[i * 4 + 1] = (guint8) (((j >> 4) & 0xF) << 4);
      rgba[i * 4 + 2] = (guint8) ((j >> 8) << 4);
      rgba[i * 4 + 3] = i % 3 == 0 ? 0 : 255;
    }
  g_assert_cmpint (texm_picture_alpha (rgba, 128, 64, 0), ==, TEXM_ALPHA_BINARY);
  g_assert_cmpuint (texm_suggest_format (rgba, 128, 64, 0), ==, 4444);

  /* one colour more than 4444 holds -> 8888: pixel 4096 repeats pixel 0,
   * black, and becomes (1, 0, 0) */
  rgba[4096 * 4] = 1;
  g_assert_cmpuint (texm_suggest_format (rgba, 128, 64, 0), ==, 8888);
  rgba[4096 * 4] = 0;

  /* 16 alpha levels -> 4444; 17 -> 8888 */
  for (guint i = 0; i < n; i++)
    rgba[i * 4 + 3] = (guint8) ((i % 16) * 17);
  g_assert_cmpint (texm_picture_alpha (rgba, 128, 64, 0), ==, TEXM_ALPHA_GRADED);
  g_assert_cmpuint (texm_suggest_format (rgba, 128, 64, 0), ==, 4444);
  rgba[3] = 1;
  g_assert_cmpuint (texm_suggest_format (rgba, 128, 64, 0), ==, 8888);

  /* the stride is honoured: the padding is not looked at */
  {
    static const guint8 padded[2 * 12] = {
      1, 2, 3, 255,   4, 5, 6, 255,   0, 0, 0, 7,
      1, 2, 3, 255,   4, 5, 6, 255,   0, 0, 0, 0,
    };

    g_assert_cmpint (texm_picture_alpha (padded, 2, 2, 12), ==, TEXM_ALPHA_NONE);
    g_assert_cmpuint (texm_suggest_format (padded, 2, 2, 12), ==, 565);
  }
}

static void
test_texture_name (void)
{
  guint8 field[16];
  g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL, e4 = NULL, e5 = NULL;

  g_assert_true (texm_check_texture_name ("ROCK.0", field, NULL));
  g_assert_cmpmem (field, 16, "ROCK.0\0\0\0\0\0\0\0\0\0", 16);
  /* 'Z', '9': 25 * 11 + 10 = 285, the last palette */
  g_assert_true (texm_check_texture_name ("SKY.Z9", NULL, NULL));
  g_assert_true (texm_check_texture_name ("sky.z9", NULL, NULL));
  g_assert_true (texm_check_texture_name ("ABCDEFGHIJKLM.0", NULL, NULL));   /* 15 bytes */
  g_assert_true (texm_check_texture_name ("ДОМ.0", field, NULL));
  g_assert_cmpuint (field[0], ==, 0xC4);

  g_assert_false (texm_check_texture_name ("ROCK", NULL, &e1));
  g_assert_error (e1, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_NAME);
  g_assert_cmpstr (e1->message, ==, "texture name “ROCK”: expected a '.' (without one "
                   "the game logs “Bad texture name.” and draws no texture), found none");
  /* '[' follows 'Z': (91 - 65) * 11 = 286 */
  g_assert_false (texm_check_texture_name ("ROCK.[", NULL, &e2));
  g_assert_cmpstr (e2->message, ==, "texture name “ROCK.[”: expected a palette suffix "
                   "(the letter and digit after the '.') with an index below 286, found 286");
  g_assert_false (texm_check_texture_name ("ABCDEFGHIJKLMN.0", NULL, &e3));
  g_assert_error (e3, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_NAME);
  g_assert_true (g_str_has_prefix (e3->message, "texture name “ABCDEFGHIJKLMN.0”: "));
  g_assert_false (texm_check_texture_name ("中.0", NULL, &e4));
  g_assert_error (e4, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_NAME);
  g_assert_false (texm_check_texture_name ("", NULL, &e5));
  g_assert_cmpstr (e5->message, ==, "texture name: expected a name, found an empty one");
}

/* ---- to the next power of two (texm_fit_power_of_two) ---------------- */

static void
test_next_power_of_two (void)
{
  g_assert_cmpuint (texm_next_power_of_two (0), ==, 0);
  g_assert_cmpuint (texm_next_power_of_two (1), ==, 1);
  g_assert_cmpuint (texm_next_power_of_two (2), ==, 2);
  g_assert_cmpuint (texm_next_power_of_two (3), ==, 4);
  g_assert_cmpuint (texm_next_power_of_two (300), ==, 512);
  g_assert_cmpuint (texm_next_power_of_two (513), ==, 1024);
  g_assert_cmpuint (texm_next_power_of_two (1024), ==, 1024);
  g_assert_cmpuint (texm_next_power_of_two (1025), ==, 0);
}

static guint8 *
fit_ok (const guint8 *rgba,
        guint         w,
        guint         h,
        gsize         stride,
        TexmResize    how,
        guint         expect_w,
        guint         expect_h)
{
  g_autoptr(GError) error = NULL;
  guint ow = 0, oh = 0;
  guint8 *out = texm_fit_power_of_two (rgba, w, h, stride, how, &ow, &oh, &error);

  g_assert_no_error (error);
  g_assert_nonnull (out);
  g_assert_cmpuint (ow, ==, expect_w);
  g_assert_cmpuint (oh, ==, expect_h);
  return out;
}

/* Padding repeats the last column and row; the picture stays at the top
 * left, byte for byte. */
static void
test_fit_pad (void)
{
  static const guint8 picture[3 * 3 * 4] = {
    1, 2, 3, 255,    4, 5, 6, 128,    7, 8, 9, 0,
    10, 11, 12, 255, 13, 14, 15, 255, 16, 17, 18, 255,
    19, 20, 21, 255, 22, 23, 24, 255, 25, 26, 27, 64,
  };
  static const guint8 expected[4 * 4 * 4] = {
    1, 2, 3, 255,    4, 5, 6, 128,    7, 8, 9, 0,        7, 8, 9, 0,
    10, 11, 12, 255, 13, 14, 15, 255, 16, 17, 18, 255,   16, 17, 18, 255,
    19, 20, 21, 255, 22, 23, 24, 255, 25, 26, 27, 64,    25, 26, 27, 64,
    19, 20, 21, 255, 22, 23, 24, 255, 25, 26, 27, 64,    25, 26, 27, 64,
  };
  g_autofree guint8 *out = fit_ok (picture, 3, 3, 0, TEXM_RESIZE_PAD, 4, 4);
  g_autofree guint8 *wide = NULL;
  guint8 strided[2 * 16];

  g_assert_cmpmem (out, sizeof expected, expected, sizeof expected);

  /* a stride wider than the row: only 4 * width bytes a row are read */
  memset (strided, 0xEE, sizeof strided);
  memcpy (strided, picture, 12);
  memcpy (strided + 16, picture + 12, 12);
  wide = fit_ok (strided, 3, 2, 16, TEXM_RESIZE_PAD, 4, 2);
  g_assert_cmpmem (wide, 16, expected, 16);
  g_assert_cmpmem (wide + 16, 16, expected + 16, 16);
}

/* Scaling 3 -> 4 texels, the taps as texm-convert.h defines them.
 * W = 4, w = 3: n = (2x + 1) 3 - 4 = -1, 5, 11, 17; 2W = 8.
 *   x 0: n < 0: texel 0;
 *   x 1: 5 = 0 * 8 + 5: texels 0 and 1, fx = (5 * 256 + 4) / 8 = 160;
 *   x 2: 11 = 1 * 8 + 3: texels 1 and 2, fx = (3 * 256 + 4) / 8 = 96;
 *   x 3: 17 = 2 * 8 + 1: texel 2 (and the last again), fx = 32. */
static void
test_fit_scale_row (void)
{
  static const guint8 opaque[3 * 4] = { 0, 100, 200, 255, 255, 50, 0, 255, 10, 20, 30, 255 };
  /* x 1: (96 * 0 + 160 * 255) / 256 = 159.4 -> 159, (9600 + 8000) / 256 =
   * 68.75 -> 69, 19200 / 256 = 75; x 2: (160 * 255 + 96 * 10) / 256 =
   * 163.1 -> 163, (8000 + 1920) / 256 = 38.75 -> 39, (0 + 2880) / 256 =
   * 11.25 -> 11 */
  static const guint8 opaque_expected[4 * 4] = {
    0, 100, 200, 255,  159, 69, 75, 255,  163, 39, 11, 255,  10, 20, 30, 255,
  };
  /* a transparent red beside opaque blue and green: it lends alpha, no
   * colour. x 1: alpha (96 * 0 + 160 * 255) / 256 -> 159, colour blue's;
   * x 2: (160 * 255 + 96 * 255) / 256 = 255, green (96 * 255) / 256 ->
   * 96, blue (160 * 255) / 256 -> 159 */
  static const guint8 alpha[3 * 4] = { 255, 0, 0, 0, 0, 0, 255, 255, 0, 255, 0, 255 };
  static const guint8 alpha_expected[4 * 4] = {
    255, 0, 0, 0,  0, 0, 255, 159,  0, 96, 159, 255,  0, 255, 0, 255,
  };
  /* all transparent: the plain weights, (96 * 255) / 256 -> 96 */
  static const guint8 clear[3 * 4] = { 255, 0, 0, 0, 0, 0, 255, 0, 0, 255, 0, 0 };
  static const guint8 clear_expected[4 * 4] = {
    255, 0, 0, 0,  96, 0, 159, 0,  0, 96, 159, 0,  0, 255, 0, 0,
  };
  g_autofree guint8 *a = fit_ok (opaque, 3, 1, 0, TEXM_RESIZE_SCALE, 4, 1);
  g_autofree guint8 *b = fit_ok (alpha, 3, 1, 0, TEXM_RESIZE_SCALE, 4, 1);
  g_autofree guint8 *c = fit_ok (clear, 3, 1, 0, TEXM_RESIZE_SCALE, 4, 1);

  g_assert_cmpmem (a, sizeof opaque_expected, opaque_expected, sizeof opaque_expected);
  g_assert_cmpmem (b, sizeof alpha_expected, alpha_expected, sizeof alpha_expected);
  g_assert_cmpmem (c, sizeof clear_expected, clear_expected, sizeof clear_expected);
}

/* Both sides at once: 3×3 -> 4×4, red rising to the right, green down;
 * each output row and column has the weights above (0, 160, 96, 32 into
 * texels 0, 0-1, 1-2, 2): 90 * 160 / 256 = 56.25 -> 56, 90 + 90 * 96 /
 * 256 = 123.75 -> 124. 5 -> 8: n = 5 (2x + 1) - 8 over 16. */
static void
test_fit_scale_grid (void)
{
  guint8 picture[3 * 3 * 4];
  static const guint8 steps[4] = { 0, 56, 124, 180 };
  g_autofree guint8 *out = NULL;
  g_autofree guint8 *row = NULL;
  guint8 five[5 * 2 * 4];
  /* x 0: n -3: 0; x 1: 7/16: fx (7 * 256 + 8) / 16 = 112: 60 * 112 / 256
   * = 26.25 -> 26; x 2: 17 = 1 * 16 + 1: 60 + 60 * 16 / 256 -> 64 ...;
   * x 7: 67 = 4 * 16 + 3: the last texel, 240 */
  static const guint8 five_expected[8] = { 0, 26, 64, 101, 139, 176, 214, 240 };

  for (guint y = 0; y < 3; y++)
    for (guint x = 0; x < 3; x++)
      {
        guint8 *p = picture + (y * 3 + x) * 4;

        p[0] = (guint8) (90 * x);
        p[1] = (guint8) (90 * y);
        p[2] = 0;
        p[3] = 255;
      }
  out = fit_ok (picture, 3, 3, 0, TEXM_RESIZE_SCALE, 4, 4);
  for (guint y = 0; y < 4; y++)
    for (guint x = 0; x < 4; x++)
      {
        const guint8 *p = out + (y * 4 + x) * 4;

        g_assert_cmpuint (p[0], ==, steps[x]);
        g_assert_cmpuint (p[1], ==, steps[y]);
        g_assert_cmpuint (p[2], ==, 0);
        g_assert_cmpuint (p[3], ==, 255);
      }

  /* a side that is a power of two already stays texel for texel */
  for (guint y = 0; y < 2; y++)
    for (guint x = 0; x < 5; x++)
      {
        guint8 *p = five + (y * 5 + x) * 4;

        p[0] = (guint8) (60 * x);
        p[1] = (guint8) (7 + y);
        p[2] = 0;
        p[3] = 255;
      }
  row = fit_ok (five, 5, 2, 0, TEXM_RESIZE_SCALE, 8, 2);
  for (guint y = 0; y < 2; y++)
    for (guint x = 0; x < 8; x++)
      {
        g_assert_cmpuint (row[(y * 8 + x) * 4], ==, five_expected[x]);
        g_assert_cmpuint (row[(y * 8 + x) * 4 + 1], ==, 7 + y);
      }
}

/* Sizes the encoder takes come back as they are; what no power of two up
 * to 1024 holds is refused. */
static void
test_fit_limits (void)
{
  static const guint8 four[2 * 2 * 4] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *same = NULL;
  g_autofree guint8 *copy = NULL;
  g_autofree guint8 *big = g_malloc0 (1025 * 4);
  guint w = 0, h = 0;

  same = fit_ok (four, 2, 2, 0, TEXM_RESIZE_SCALE, 2, 2);
  g_assert_cmpmem (same, sizeof four, four, sizeof four);
  copy = fit_ok (four, 2, 2, 0, TEXM_RESIZE_NONE, 2, 2);
  g_assert_cmpmem (copy, sizeof four, four, sizeof four);

  g_assert_null (texm_fit_power_of_two (four, 3, 1, 0, TEXM_RESIZE_NONE, &w, &h, &error));
  g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE);
  g_clear_error (&error);
  g_assert_null (texm_fit_power_of_two (big, 1025, 1, 0, TEXM_RESIZE_PAD, &w, &h, &error));
  g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE);
  g_assert_nonnull (strstr (error->message, "1025x1"));
  g_clear_error (&error);
  g_assert_null (texm_fit_power_of_two (big, 0, 1, 0, TEXM_RESIZE_SCALE, &w, &h, &error));
  g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/texm-encode/bytes/2x2", test_bytes_2x2);
  g_test_add_func ("/core/texm-encode/bytes/565-4x2", test_bytes_565_4x2);
  g_test_add_func ("/core/texm-encode/bytes/palette-4x2", test_bytes_palette_4x2);
  g_test_add_func ("/core/texm-encode/bytes/single-level", test_single_level_flags);
  g_test_add_func ("/core/texm-encode/mips/4x4", test_mips_4x4);
  g_test_add_func ("/core/texm-encode/mips/non-square", test_mips_non_square);
  g_test_add_func ("/core/texm-encode/mips/count", test_mips_count);
  g_test_add_func ("/core/texm-encode/rounding/nearest", test_rounding_nearest);
  g_test_add_func ("/core/texm-encode/palette/exact", test_palette_exact);
  g_test_add_func ("/core/texm-encode/palette/quantized", test_palette_quantized);
  g_test_add_func ("/core/texm-encode/palette/quantized-dither", test_palette_quantized_dither);
  g_test_add_func ("/core/texm-encode/palette/fixed", test_palette_fixed);
  g_test_add_func ("/core/texm-encode/dither/bytes", test_dither_bytes);
  g_test_add_func ("/core/texm-encode/dither/flat-average", test_dither_flat_average);
  g_test_add_func ("/core/texm-encode/page", test_page);
  g_test_add_func ("/core/texm-encode/refuse/alpha", test_refuse_alpha);
  g_test_add_func ("/core/texm-encode/refuse/size", test_refuse_size);
  g_test_add_func ("/core/texm-encode/refuse/other", test_refuse_other);
  g_test_add_func ("/core/texm-encode/reencode/single-level", test_reencode_single_level);
  g_test_add_func ("/core/texm-encode/reencode/full-chain", test_reencode_full_chain);
  g_test_add_func ("/core/texm-encode/reencode/retail-shaped", test_reencode_retail_shaped);
  g_test_add_func ("/core/texm-encode/preview", test_preview_matches);
  g_test_add_func ("/core/texm-encode/size", test_encoded_size);
  g_test_add_func ("/core/texm-encode/stride", test_stride);
  g_test_add_func ("/core/texm-encode/analysis", test_alpha_kind_and_suggest);
  g_test_add_func ("/core/texm-encode/name", test_texture_name);
  g_test_add_func ("/core/texm-encode/next-power-of-two", test_next_power_of_two);
  g_test_add_func ("/core/texm-encode/fit-pad", test_fit_pad);
  g_test_add_func ("/core/texm-encode/fit-scale-row", test_fit_scale_row);
  g_test_add_func ("/core/texm-encode/fit-scale-grid", test_fit_scale_grid);
  g_test_add_func ("/core/texm-encode/fit-limits", test_fit_limits);

  return g_test_run ();
}
