/* test-texm-alpha.c - which textures the game draws with their alpha
 * (render.md 2), against payloads built here byte by byte */
#include "config.h"

#include <string.h>

#include "texm-alpha.h"
#include "test-support.h"

/* A 4 x 2 texture of @format, one level, @flags5, with @texels (bytes
 * per texel of the format, little-endian) after a palette for format 0
 * (entry i = (i, i, i, 0x5A)). */
static TexmImage *
image_new (guint32       format,
           guint32       flags5,
           const guint8 *texels,
           gsize         n_bytes)
{
  GByteArray *a = g_byte_array_new ();
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(GError) error = NULL;
  TexmImage *image;

  test_put_u32 (a, TEXM_MAGIC);
  test_put_u32 (a, 4);
  test_put_u32 (a, 2);
  test_put_u32 (a, 1);
  test_put_u32 (a, 0);
  test_put_u32 (a, flags5);
  test_put_u32 (a, 0);
  test_put_u32 (a, format);
  if (format == 0)
    for (guint i = 0; i < 256; i++)
      {
        test_put_u8 (a, (guint8) i);
        test_put_u8 (a, (guint8) i);
        test_put_u8 (a, (guint8) i);
        test_put_u8 (a, 0x5A);
      }
  test_put_bytes (a, texels, n_bytes);
  payload = g_byte_array_free_to_bytes (a);
  image = texm_parse (payload, "T.0", 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (image);
  return image;
}

/* render.md 2: 4444 and 8888 draw their alpha; every other format only
 * on an alpha surface (flags5 0x1000000 or 0x2000000); other flags5 bits
 * change nothing; a lit skin (attr1 0x02) draws opaque unless emboss
 * bump; a palettised texture on an alpha surface keys on index 0. */
static void
test_rule (void)
{
  static const guint32 formats[] = { 0, 565, 556, 4444, 88, 888, 8888 };
  static const guint32 unknown_bits[] = { 0, 1, 0x80000000u, 0x00FFFFFFu & ~0u, 0xFCFFFFFFu };

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (guint u = 0; u < G_N_ELEMENTS (unknown_bits); u++)
      {
        guint32 format = formats[f];
        /* none of the bits are the alpha-surface ones */
        guint32 flags5 = unknown_bits[u] & ~(TEXM_FLAGS5_ALPHA_SURFACE | TEXM_FLAGS5_ALPHA_FADE);
        gboolean own = format == 4444 || format == 8888;

        g_assert_cmpint (texm_draw_alpha (format, flags5, 0, FALSE), ==,
                         own ? TEXM_DRAW_ALPHA : TEXM_DRAW_OPAQUE_FORMAT);
        /* the blend index and the other attr1 bits do not matter */
        g_assert_cmpint (texm_draw_alpha (format, flags5, 0xFFFFFFFDu, FALSE), ==,
                         own ? TEXM_DRAW_ALPHA : TEXM_DRAW_OPAQUE_FORMAT);
        /* a lit skin: opaque, but a format without alpha says so first */
        g_assert_cmpint (texm_draw_alpha (format, flags5, 0x02, FALSE), ==,
                         own ? TEXM_DRAW_OPAQUE_LIT_SKIN : TEXM_DRAW_OPAQUE_FORMAT);
        g_assert_cmpint (texm_draw_alpha (format, flags5, 0x06, TRUE), ==,
                         own ? TEXM_DRAW_ALPHA : TEXM_DRAW_OPAQUE_FORMAT);

        /* on an alpha surface, every format draws its alpha */
        for (guint bit = 0; bit < 2; bit++)
          {
            guint32 surface = flags5 | (bit == 0 ? TEXM_FLAGS5_ALPHA_SURFACE : TEXM_FLAGS5_ALPHA_FADE);
            TexmDrawAlpha drawn = format == 0 ? TEXM_DRAW_ALPHA_INDEX0 : TEXM_DRAW_ALPHA;

            g_assert_cmpint (texm_draw_alpha (format, surface, 0, FALSE), ==, drawn);
            g_assert_cmpint (texm_draw_alpha (format, surface, 0x02, FALSE), ==,
                             TEXM_DRAW_OPAQUE_LIT_SKIN);
            g_assert_cmpint (texm_draw_alpha (format, surface, 0x02, TRUE), ==, drawn);
          }
      }

  g_assert_true (texm_draw_alpha_is_opaque (TEXM_DRAW_OPAQUE_FORMAT));
  g_assert_true (texm_draw_alpha_is_opaque (TEXM_DRAW_OPAQUE_LIT_SKIN));
  g_assert_false (texm_draw_alpha_is_opaque (TEXM_DRAW_ALPHA));
  g_assert_false (texm_draw_alpha_is_opaque (TEXM_DRAW_ALPHA_INDEX0));
  g_assert_cmpstr (texm_draw_alpha_note (TEXM_DRAW_OPAQUE_LIT_SKIN), ==,
                   "Lit skin: the game draws this texture opaque (its alpha only with emboss bump on)");
  g_assert_cmpstr (texm_draw_alpha_note (TEXM_DRAW_OPAQUE_FORMAT), ==,
                   "Format without alpha: the game draws this texture opaque");
}

/* Alpha a draw could use: below 255 somewhere (4444, 88, 8888), index 0
 * somewhere (palettised); never in 565, 556, 888 */
static void
test_has_alpha (void)
{
  static const struct {
    guint32 format;
    guint8  texels[32];
    gsize   size;
    gboolean alpha;
  } cases[] = {
    /* 8888: A R G B in a little-endian u32 (B, G, R, A in memory) */
    { 8888, { [3] = 255, [7] = 255, [11] = 255, [15] = 255, [19] = 255, [23] = 255,
              [27] = 255, [31] = 255 }, 32, FALSE },
    { 8888, { [3] = 255, [7] = 255, [11] = 255, [15] = 255, [19] = 255, [23] = 255,
              [27] = 255, [31] = 254 }, 32, TRUE },
    /* 4444: A in the top nibble of the high byte */
    { 4444, { 0, 0xF0, 0, 0xF0, 0, 0xF0, 0, 0xF0, 0, 0xF0, 0, 0xF0, 0, 0xF0, 0, 0xFF }, 16, FALSE },
    { 4444, { 0, 0xF0, 0, 0xF0, 0, 0xE0, 0, 0xF0, 0, 0xF0, 0, 0xF0, 0, 0xF0, 0, 0xF0 }, 16, TRUE },
    /* 88: alpha in the low byte */
    { 88, { 255, 1, 255, 2, 255, 3, 255, 4, 255, 5, 255, 6, 255, 7, 255, 8 }, 16, FALSE },
    { 88, { 255, 1, 255, 2, 255, 3, 0, 4, 255, 5, 255, 6, 255, 7, 255, 8 }, 16, TRUE },
    /* 565 and 888 store none, whatever the bytes */
    { 565, { 0 }, 16, FALSE },
    { 888, { 0 }, 32, FALSE },
    /* palettised: index 0 */
    { 0, { 1, 2, 3, 4, 5, 6, 7, 8 }, 8, FALSE },
    { 0, { 1, 2, 3, 4, 0, 6, 7, 8 }, 8, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TexmImage) image = image_new (cases[i].format, 0, cases[i].texels, cases[i].size);

      g_test_message ("case %u: format %u", i, cases[i].format);
      g_assert_cmpint (texm_image_has_alpha (image), ==, cases[i].alpha);
    }
}

/* The drawn alpha of decoded pixels: 255 where opaque, index 0 clear on
 * an alpha surface, the decoded alpha otherwise; the colour untouched. */
static void
test_apply (void)
{
  static const guint8 indices[8] = { 0, 7, 0, 200, 1, 0, 255, 9 };
  static const guint8 grey88[16] = { 10, 1, 255, 2, 0, 3, 128, 4, 255, 5, 255, 6, 77, 7, 255, 8 };
  g_autoptr(TexmImage) keyed = image_new (0, TEXM_FLAGS5_ALPHA_SURFACE, indices, sizeof indices);
  g_autoptr(TexmImage) grey = image_new (88, 0, grey88, sizeof grey88);
  g_autofree guint8 *rgba = NULL;
  guint w, h;

  /* palettised, on an alpha surface: index 0 at 0, the rest 255 */
  rgba = texm_decode_rgba (keyed, 0, &w, &h);
  g_assert_cmpuint (w * h, ==, 8);
  texm_apply_draw_alpha (keyed, 0, texm_draw_alpha (0, TEXM_FLAGS5_ALPHA_SURFACE, 0, FALSE), rgba);
  for (guint i = 0; i < 8; i++)
    {
      g_assert_cmpuint (rgba[i * 4 + 3], ==, indices[i] == 0 ? 0 : 255);
      /* grey palette: the colour is the index whatever the channel order */
      g_assert_cmpuint (rgba[i * 4 + 0], ==, indices[i]);
    }
  /* the same texture on a lit skin: opaque */
  g_free (rgba);
  rgba = texm_decode_rgba (keyed, 0, NULL, NULL);
  texm_apply_draw_alpha (keyed, 0, texm_draw_alpha (0, TEXM_FLAGS5_ALPHA_SURFACE, 0x02, FALSE), rgba);
  for (guint i = 0; i < 8; i++)
    g_assert_cmpuint (rgba[i * 4 + 3], ==, 255);

  /* 88: decoded with its alpha byte, drawn opaque; on an alpha surface
   * (the same bytes with flags5 set) the alpha is kept */
  g_free (rgba);
  rgba = texm_decode_rgba (grey, 0, NULL, NULL);
  g_assert_cmpuint (rgba[3], ==, 10);
  texm_apply_draw_alpha (grey, 0, texm_draw_alpha (88, 0, 0, FALSE), rgba);
  for (guint i = 0; i < 8; i++)
    {
      g_assert_cmpuint (rgba[i * 4 + 3], ==, 255);
      g_assert_cmpuint (rgba[i * 4 + 0], ==, grey88[i * 2 + 1]);
    }
  g_free (rgba);
  rgba = texm_decode_rgba (grey, 0, NULL, NULL);
  texm_apply_draw_alpha (grey, 0, TEXM_DRAW_ALPHA, rgba);
  for (guint i = 0; i < 8; i++)
    g_assert_cmpuint (rgba[i * 4 + 3], ==, grey88[i * 2]);
  /* index 0 asked of a texture that is not palettised: unchanged */
  texm_apply_draw_alpha (grey, 0, TEXM_DRAW_ALPHA_INDEX0, rgba);
  for (guint i = 0; i < 8; i++)
    g_assert_cmpuint (rgba[i * 4 + 3], ==, grey88[i * 2]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/texm-alpha/rule", test_rule);
  g_test_add_func ("/core/texm-alpha/has-alpha", test_has_alpha);
  g_test_add_func ("/core/texm-alpha/apply", test_apply);
  return g_test_run ();
}
