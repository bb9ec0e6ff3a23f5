/* test-textures.c - MatTextureLibrary: Textures.lib beside a library */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "mat-library.h"
#include "mat-texture-library.h"
#include "nres.h"
#include "test-support.h"

static MatTextureLibrary *
load_demo (void)
{
  g_autoptr(GBytes) bytes = test_load_file (g_getenv ("DEMO_TEXTURES"));
  g_autoptr(GError) error = NULL;
  MatTextureLibrary *library = mat_texture_library_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  return library;
}

static void
test_list (void)
{
  g_autoptr(MatTextureLibrary) library = load_demo ();
  g_autoptr(MatTexture) first = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, 10);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (library)) == MAT_TYPE_TEXTURE);
  first = g_list_model_get_item (G_LIST_MODEL (library), 0);
  g_assert_nonnull (first);
  g_assert_null (mat_texture_get_error (first));
}

static void
test_lookup (void)
{
  g_autoptr(MatTextureLibrary) library = load_demo ();
  MatTexture *atlas = mat_texture_library_lookup (library, "atlas.0");
  MatTexture *lava = mat_texture_library_lookup (library, "LAVA.A");
  g_autoptr(GBytes) rgba = NULL;
  g_autoptr(GBytes) again = NULL;
  guint w = 0, h = 0;

  g_assert_nonnull (atlas);
  g_assert_cmpstr (mat_texture_get_name (atlas), ==, "ATLAS.0");
  g_assert_cmpuint (mat_texture_get_format (atlas), ==, 8888);
  g_assert_cmpuint (mat_texture_get_width (atlas), ==, 128);
  g_assert_cmpuint (mat_texture_get_page_rects (atlas), ==, 4);
  g_assert_nonnull (lava);
  g_assert_cmpuint (mat_texture_get_format (lava), ==, 0);
  g_assert_null (mat_texture_library_lookup (library, "MISSING.0"));
  g_assert_null (mat_texture_library_lookup (library, "漢"));

  rgba = mat_texture_dup_rgba (atlas, 0, &w, &h);
  g_assert_cmpuint (w, ==, 128);
  g_assert_cmpuint (h, ==, 128);
  g_assert_cmpuint (g_bytes_get_size (rgba), ==, 128 * 128 * 4);
  /* level 0 is decoded once and kept */
  again = mat_texture_dup_rgba (atlas, 0, NULL, NULL);
  g_assert_true (rgba == again);
  g_clear_pointer (&again, g_bytes_unref);
  again = mat_texture_dup_rgba (atlas, 3, &w, &h);
  g_assert_cmpuint (w, ==, 16);
  g_assert_cmpuint (g_bytes_get_size (again), ==, 16 * 16 * 4);
  g_assert_null (mat_texture_dup_rgba (atlas, 8, NULL, NULL));
}

static void
test_find_beside (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("matedit-tex-XXXXXX", &error);
  g_autofree char *lib = g_build_filename (dir, "MATERIAL.LIB", NULL);
  g_autofree char *tex = g_build_filename (dir, "textures.LIB", NULL);
  g_autoptr(GFile) lib_file = g_file_new_for_path (lib);
  g_autoptr(GFile) found = NULL;
  g_autofree char *found_path = NULL;

  g_assert_no_error (error);
  g_assert_null (mat_texture_library_find_beside (lib_file, NULL));
  g_file_set_contents (tex, "x", 1, &error);
  g_assert_no_error (error);
  found = mat_texture_library_find_beside (lib_file, NULL);
  g_assert_nonnull (found);
  found_path = g_file_get_path (found);
  g_assert_cmpstr (found_path, ==, tex);
  g_unlink (tex);
  g_rmdir (dir);
}

static void
loaded_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  MatTextureLibrary **out = data;
  g_autoptr(GError) error = NULL;

  *out = mat_texture_library_load_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_load_async (void)
{
  g_autoptr(GFile) file = g_file_new_for_path (g_getenv ("DEMO_TEXTURES"));
  g_autoptr(MatTextureLibrary) library = NULL;

  mat_texture_library_load_async (file, NULL, loaded_cb, &library);
  while (library == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_file_equal (mat_texture_library_get_file (library), file));
  g_assert_nonnull (mat_texture_library_lookup (library, "ROCK.0"));
}

static void
test_bad_payload_listed (void)
{
  /* one good Texm entry and one with a bad magic: both listed */
  g_autoptr(GBytes) good = NULL;
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(MatTextureLibrary) library = NULL;
  g_autoptr(GError) error = NULL;
  guint8 rgba[4] = { 1, 2, 3, 255 };
  TestEntrySpec specs[2] = {
    { 0x6D786554, 0, 0, 0, "GOOD.0", NULL, 0, 0 },
    { 0x6D786554, 0, 0, 0, "BAD.0", NULL, 0, 0 },
  };

  good = texm_encode_rgba (8888, 1, 1, 1, rgba, NULL, NULL, 0);
  test_put_bytes (bad, "Nope", 4);
  for (guint i = 0; i < 28; i++)
    test_put_u8 (bad, 0);
  specs[0].payload = g_bytes_get_data (good, &specs[0].size);
  specs[1].payload = bad->data;
  specs[1].size = bad->len;
  archive = test_build_archive (specs, 2, TRUE);
  library = mat_texture_library_new_from_bytes (archive, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, 2);
  g_assert_null (mat_texture_get_error (mat_texture_library_lookup (library, "good.0")));
  g_assert_nonnull (g_strstr_len (mat_texture_get_error (mat_texture_library_lookup (library, "BAD.0")), -1,
                                  "BAD.0: offset "));
  g_assert_null (mat_texture_dup_rgba (mat_texture_library_lookup (library, "BAD.0"), 0, NULL, NULL));
}

/* ---- textures larger than a view may show ---------------------------- */

/* A Texm payload: the header, a palette of zeros for format 0, then the
 * mip chain, pixel i of every level from @pixel (i, level) as the
 * format's bytes (little-endian). */
static GBytes *
texm_payload (guint32   width,
              guint32   height,
              guint32   mips,
              guint32   format,
              guint32 (*pixel) (guint64 i, guint level))
{
  guint bpp = format == 0 ? 1 : format == 8888 ? 4 : 2;
  GByteArray *a = g_byte_array_new ();
  guint32 head[8] = { 0x6D786554, width, height, mips, 0, 0, 0, format };

  for (guint i = 0; i < 8; i++)
    test_put_u32 (a, head[i]);
  if (format == 0)
    g_byte_array_set_size (a, a->len + 1024);
  for (guint l = 0; l < mips; l++)
    {
      guint64 n = (guint64) MAX (width >> l, 1u) * MAX (height >> l, 1u);
      guint start = a->len;

      g_byte_array_set_size (a, start + (guint) (n * bpp));
      if (pixel != NULL)
        for (guint64 i = 0; i < n; i++)
          {
            guint32 v = pixel (i, l);

            for (guint b = 0; b < bpp; b++)
              a->data[start + i * bpp + b] = (guint8) (v >> (8 * b));
          }
      else
        memset (a->data + start, 0, (gsize) (n * bpp));
    }
  return g_byte_array_free_to_bytes (a);
}

/* A library of one texture "T.0". Returns: (transfer full) */
static MatTextureLibrary *
one_texture (GBytes *payload)
{
  TestEntrySpec spec = { NRES_TYPE_TEXM, 0, 0, 0, "T.0", NULL, 0, 0 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  MatTextureLibrary *library;

  spec.payload = g_bytes_get_data (payload, &spec.size);
  bytes = test_build_archive (&spec, 1, TRUE);
  library = mat_texture_library_new_from_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_null (mat_texture_get_error (mat_texture_library_lookup (library, "T.0")));
  return library;
}

/* 5 x 3, pixel (x, y) = R 10x + y, G 200 - 30y + x, B 17xy, A 255 - 40x
 * (8888 holds B, G, R, A from the low byte up). */
static guint32
small_pixel (guint64 i,
             guint   level)
{
  guint x = (guint) (i % 5), y = (guint) (i / 5);
  guint r = 10 * x + y, g = 200 - 30 * y + x, b = (17 * x * y) % 256, a = 255 - 40 * x;

  return b | (g << 8) | (r << 16) | ((guint32) a << 24);
}

/* The box filter on a case worked by hand: 5 x 3 into 2 x 2 is boxes of
 * 3 x 2 (the last column 2 wide, the last row 1 high), each channel the
 * rounded mean over its box. */
static void
test_fit_reduce_exact (void)
{
  static const guint8 expect[] = {
    /* box x 0..2, y 0..1: R (0+1+10+11+20+21 + 3) / 6 = 11 */
    11, 186, 9, 215,
    /* box x 3..4, y 0..1: R (30+31+40+41 + 2) / 4 = 36 */
    36, 189, 30, 115,
    /* box x 0..2, y 2: R (2+12+22 + 1) / 3 = 12 */
    12, 141, 34, 215,
    /* box x 3..4, y 2: B (102+136 + 1) / 2 = 119 */
    37, 144, 119, 115,
  };
  g_autoptr(GBytes) payload = texm_payload (5, 3, 1, 8888, small_pixel);
  g_autoptr(MatTextureLibrary) library = one_texture (payload);
  MatTexture *texture = mat_texture_library_lookup (library, "T.0");
  g_autoptr(GBytes) rgba = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GBytes) whole = NULL;
  g_autofree char *note = NULL;
  MatTextureFit fit = MAT_TEXTURE_FIT_NONE;
  guint level = 99, w = 0, h = 0;
  guint8 average[4];

  g_assert_cmpint (mat_texture_get_fit (texture, 0, 2, &level, &w, &h), ==, MAT_TEXTURE_FIT_REDUCED);
  g_assert_cmpuint (level, ==, 0);
  g_assert_cmpuint (w, ==, 2);
  g_assert_cmpuint (h, ==, 2);

  rgba = mat_texture_dup_rgba_fitted (texture, 0, 2, &w, &h, &fit);
  g_assert_cmpint (fit, ==, MAT_TEXTURE_FIT_REDUCED);
  g_assert_cmpuint (w, ==, 2);
  g_assert_cmpuint (h, ==, 2);
  g_assert_cmpmem (g_bytes_get_data (rgba, NULL), g_bytes_get_size (rgba), expect, sizeof expect);
  /* kept */
  again = mat_texture_dup_rgba_fitted (texture, 0, 2, NULL, NULL, NULL);
  g_assert_true (again == rgba);

  /* 3 wide: boxes of 2 x 1 */
  g_clear_pointer (&again, g_bytes_unref);
  again = mat_texture_dup_rgba_fitted (texture, 0, 3, &w, &h, &fit);
  g_assert_cmpint (fit, ==, MAT_TEXTURE_FIT_REDUCED);
  g_assert_cmpuint (w, ==, 3);
  g_assert_cmpuint (h, ==, 3);
  {
    /* pixel (2, 1): x 4 alone, y 1: R 41, G 174, B 68, A 95 */
    const guint8 *p = (const guint8 *) g_bytes_get_data (again, NULL) + (1 * 3 + 2) * 4;
    /* pixel (0, 0): x 0..1: R (0 + 10 + 1) / 2 = 5, G 200.5 -> 201 */
    const guint8 *q = g_bytes_get_data (again, NULL);

    g_assert_cmpuint (p[0], ==, 41);
    g_assert_cmpuint (p[1], ==, 174);
    g_assert_cmpuint (p[2], ==, 68);
    g_assert_cmpuint (p[3], ==, 95);
    g_assert_cmpuint (q[0], ==, 5);
    g_assert_cmpuint (q[1], ==, 201);
    g_assert_cmpuint (q[2], ==, 0);
    g_assert_cmpuint (q[3], ==, 235);
  }

  /* room enough: the level itself, the same bytes as dup_rgba */
  whole = mat_texture_dup_rgba_fitted (texture, 0, 5, &w, &h, &fit);
  g_assert_cmpint (fit, ==, MAT_TEXTURE_FIT_AS_IS);
  g_assert_cmpuint (w, ==, 5);
  g_assert_cmpuint (h, ==, 3);
  g_assert_true (whole == mat_texture_dup_rgba (texture, 0, NULL, NULL));
  g_bytes_unref (whole);
  g_assert_null (mat_texture_dup_fit_note (texture, MAT_TEXTURE_FIT_AS_IS, 5, 3));
  note = mat_texture_dup_fit_note (texture, MAT_TEXTURE_FIT_REDUCED, 2, 2);
  g_assert_cmpstr (note, ==, "Too large to show as it is: 5 × 3, shown at 2 × 2");

  /* the average: the whole level as one box, R (sum 309 + 7) / 15 */
  g_assert_true (mat_texture_get_average (texture, average));
  g_assert_cmpuint (average[0], ==, 21);
  g_assert_cmpuint (average[1], ==, 172);
  g_assert_cmpuint (average[2], ==, 34);
  g_assert_cmpuint (average[3], ==, 175);
}

static guint32
level_pixel (guint64 i,
             guint   level)
{
  return 0xFF000000u | (level * 40u) << 16;
}

/* A smaller mip level is taken before any reduction; the reduction reads
 * the smallest level. */
static void
test_fit_levels (void)
{
  g_autoptr(GBytes) payload = texm_payload (64, 16, 3, 8888, level_pixel);
  g_autoptr(MatTextureLibrary) library = one_texture (payload);
  MatTexture *texture = mat_texture_library_lookup (library, "T.0");
  g_autoptr(GBytes) rgba = NULL;
  MatTextureFit fit;
  guint level, w, h;

  g_assert_cmpint (mat_texture_get_fit (texture, 0, 64, &level, &w, &h), ==, MAT_TEXTURE_FIT_AS_IS);
  g_assert_cmpuint (level, ==, 0);
  g_assert_cmpint (mat_texture_get_fit (texture, 0, 32, &level, &w, &h), ==, MAT_TEXTURE_FIT_SMALLER);
  g_assert_cmpuint (level, ==, 1);
  g_assert_cmpuint (w, ==, 32);
  g_assert_cmpuint (h, ==, 8);
  g_assert_cmpint (mat_texture_get_fit (texture, 1, 32, &level, &w, &h), ==, MAT_TEXTURE_FIT_AS_IS);
  /* no level is 8 wide: level 2 (16 x 4) in boxes of 2 x 1 */
  g_assert_cmpint (mat_texture_get_fit (texture, 0, 8, &level, &w, &h), ==, MAT_TEXTURE_FIT_REDUCED);
  g_assert_cmpuint (level, ==, 2);
  g_assert_cmpuint (w, ==, 8);
  g_assert_cmpuint (h, ==, 4);
  rgba = mat_texture_dup_rgba_fitted (texture, 0, 8, &w, &h, &fit);
  g_assert_cmpuint (g_bytes_get_size (rgba), ==, 8 * 4 * 4);
  /* level 2's red */
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (rgba, NULL))[0], ==, 80);
  g_assert_cmpint (mat_texture_get_fit (texture, 3, 64, &level, &w, &h), ==, MAT_TEXTURE_FIT_NONE);
  g_assert_cmpuint (w, ==, 0);
  g_assert_null (mat_texture_dup_rgba_fitted (texture, 3, 64, NULL, NULL, &fit));
  g_assert_cmpint (fit, ==, MAT_TEXTURE_FIT_NONE);
  /* never more than MAT_TEXTURE_MAX_SHOWN_SIDE, never less than 1 */
  g_assert_cmpint (mat_texture_get_fit (texture, 0, 0, &level, &w, &h), ==, MAT_TEXTURE_FIT_REDUCED);
  g_assert_cmpuint (w, ==, 1);
  g_assert_cmpuint (h, ==, 1);
}

/* pixel x of a 1,048,576-wide row: red x / 128 (mod 256), green the
 * position in its box of 128, so that each box's mean green is 63.5 */
static guint32
wide_pixel (guint64 i,
            guint   level)
{
  return 0xFF000000u | (guint32) ((i / 128) % 256) << 16 | (guint32) (i % 128) << 8;
}

/* The three shapes no GdkTexture, cairo surface or GL texture takes,
 * reduced; and one with more pixels than a view reads, refused. */
static void
test_fit_huge (void)
{
  g_autoptr(GBytes) payload = texm_payload (1048576, 1, 1, 8888, wide_pixel);
  g_autoptr(MatTextureLibrary) library = one_texture (payload);
  MatTexture *texture = mat_texture_library_lookup (library, "T.0");
  g_autoptr(GBytes) rgba = NULL;
  g_autofree char *note = NULL;
  const guint8 *p;
  MatTextureFit fit;
  guint w, h, level;

  rgba = mat_texture_dup_rgba_fitted (texture, 0, G_MAXUINT, &w, &h, &fit);
  g_assert_cmpint (fit, ==, MAT_TEXTURE_FIT_REDUCED);
  g_assert_cmpuint (w, ==, 8192);
  g_assert_cmpuint (h, ==, 1);
  g_assert_cmpuint (g_bytes_get_size (rgba), ==, 8192 * 4);
  p = g_bytes_get_data (rgba, NULL);
  for (guint x = 0; x < 8192; x++)
    {
      g_assert_cmpuint (p[x * 4], ==, x % 256);
      g_assert_cmpuint (p[x * 4 + 1], ==, 64);   /* (8128 + 64) / 128 */
      g_assert_cmpuint (p[x * 4 + 3], ==, 255);
    }
  note = mat_texture_dup_fit_note (texture, fit, w, h);
  g_assert_cmpstr (note, ==, "Too large to show as it is: 1048576 × 1, shown at 8192 × 1");
  g_clear_object (&library);
  g_clear_pointer (&payload, g_bytes_unref);

  /* 1 x 65536 with its mip chain: level 3 (1 x 8192) */
  payload = texm_payload (1, 65536, 17, 565, NULL);
  library = one_texture (payload);
  texture = mat_texture_library_lookup (library, "T.0");
  g_assert_cmpint (mat_texture_get_fit (texture, 0, G_MAXUINT, &level, &w, &h), ==, MAT_TEXTURE_FIT_SMALLER);
  g_assert_cmpuint (level, ==, 3);
  g_assert_cmpuint (w, ==, 1);
  g_assert_cmpuint (h, ==, 8192);
  g_clear_object (&library);
  g_clear_pointer (&payload, g_bytes_unref);

  /* 8192 x 8193, one level: 67,117,056 pixels, more than a view reads */
  payload = texm_payload (8192, 8193, 1, 0, NULL);
  library = one_texture (payload);
  texture = mat_texture_library_lookup (library, "T.0");
  g_assert_cmpint (mat_texture_get_fit (texture, 0, G_MAXUINT, NULL, &w, &h), ==, MAT_TEXTURE_FIT_TOO_LARGE);
  g_assert_cmpuint (w, ==, 0);
  g_assert_null (mat_texture_dup_rgba_fitted (texture, 0, 256, &w, &h, &fit));
  g_assert_cmpint (fit, ==, MAT_TEXTURE_FIT_TOO_LARGE);
  g_clear_pointer (&note, g_free);
  note = mat_texture_dup_fit_note (texture, fit, 0, 0);
  g_assert_cmpstr (note, ==, "Too large to show: 8192 × 8193");
  {
    guint8 average[4] = { 1, 2, 3, 4 };

    g_assert_false (mat_texture_get_average (texture, average));
    g_assert_cmpuint (average[0] | average[1] | average[2] | average[3], ==, 0);
  }
}

/* Which materials of the demo library name a texture, as the engine
 * looks it up (ASCII case-insensitively), and the texture renamed in
 * them as one undo step, back to the loaded bytes. */
static void
test_texture_users (void)
{
  g_autoptr(GBytes) original = test_load_file (g_getenv ("DEMO_LIB"));
  g_autoptr(GError) error = NULL;
  g_autoptr(MatLibrary) library = mat_library_new_from_bytes (original, &error);
  g_autoptr(GPtrArray) users = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(GBytes) renamed = NULL;
  g_autoptr(GBytes) undone = NULL;
  MatHistory *history;
  MatMaterial *multi;
  guint8 params_before[4][18];
  static const char *const names[] = { "METAL_PLATE", "MULTI_BLOCK", "БРОНЯ_ЗЕЛЁНАЯ" };

  g_assert_no_error (error);
  history = mat_library_get_history (library);
  users = mat_library_dup_texture_users (library, "metal.0");
  g_assert_cmpuint (users->len, ==, G_N_ELEMENTS (names));
  for (guint i = 0; i < users->len; i++)
    g_assert_cmpstr (mat_material_get_name (g_ptr_array_index (users, i)), ==, names[i]);
  g_clear_pointer (&users, g_ptr_array_unref);
  users = mat_library_dup_texture_users (library, "NOT_THERE.0");
  g_assert_cmpuint (users->len, ==, 0);
  g_clear_pointer (&users, g_ptr_array_unref);
  users = mat_library_dup_texture_users (library, "");
  g_assert_cmpuint (users->len, ==, 0);
  g_clear_pointer (&users, g_ptr_array_unref);

  /* one phase names it in other letters: it counts */
  multi = mat_library_find (library, "MULTI_BLOCK");
  g_assert_nonnull (multi);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (multi), i);

      memcpy (params_before[i], mat_phase_get_params (phase), 18);
      if (i == 1)
        g_assert_true (mat_phase_set_texture (phase, "Metal.0", NULL));
    }
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);

  /* a name no texture field holds: refused, nothing changed */
  g_assert_cmpuint (mat_library_rename_texture_uses (library, "METAL.0", "SIXTEEN_BYTES.00", &error), ==, 0);
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TEXTURE_INVALID);
  g_clear_error (&error);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  /* none uses it: nothing to do */
  g_assert_cmpuint (mat_library_rename_texture_uses (library, "NOT_THERE.0", "X.0", &error), ==, 0);
  g_assert_no_error (error);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);

  /* five phases of three materials ("Metal.0" among them), one step */
  g_assert_cmpuint (mat_library_rename_texture_uses (library, "metal.0", "ЖЕЛЕЗО.0", &error), ==, 5);
  g_assert_no_error (error);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 2);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Rename Texture in Materials");
  after = mat_library_dup_texture_users (library, "ЖЕЛЕЗО.0");
  g_assert_cmpuint (after->len, ==, 3);
  g_clear_pointer (&users, g_ptr_array_unref);
  users = mat_library_dup_texture_users (library, "METAL.0");
  g_assert_cmpuint (users->len, ==, 0);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (multi), i);
      static const guint8 field[16] = { 0xC6, 0xC5, 0xCB, 0xC5, 0xC7, 0xCE, '.', '0' };

      g_assert_cmpmem (mat_phase_get_texture_raw (phase), 16, field, 16);
      /* the texture field only */
      g_assert_cmpmem (mat_phase_get_params (phase), 18, params_before[i], 18);
    }
  renamed = mat_library_save_to_bytes (library, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (renamed), ==, g_bytes_get_size (original));

  g_assert_true (mat_history_undo (history));
  g_clear_pointer (&users, g_ptr_array_unref);
  users = mat_library_dup_texture_users (library, "METAL.0");
  g_assert_cmpuint (users->len, ==, 3);
  g_assert_true (mat_history_undo (history));
  undone = mat_library_save_to_bytes (library, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (undone, original));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/textures/list", test_list);
  g_test_add_func ("/model/textures/texture-users", test_texture_users);
  g_test_add_func ("/model/textures/lookup-decode", test_lookup);
  g_test_add_func ("/model/textures/find-beside", test_find_beside);
  g_test_add_func ("/model/textures/load-async", test_load_async);
  g_test_add_func ("/model/textures/bad-payload", test_bad_payload_listed);
  g_test_add_func ("/model/textures/fit/reduce-exact", test_fit_reduce_exact);
  g_test_add_func ("/model/textures/fit/levels", test_fit_levels);
  g_test_add_func ("/model/textures/fit/huge", test_fit_huge);

  return g_test_run ();
}
