/* test-textures.c - MatTextureLibrary: Textures.lib beside a library */
#include "config.h"

#include <glib/gstdio.h>

#include "mat-texture-library.h"
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

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/textures/list", test_list);
  g_test_add_func ("/model/textures/lookup-decode", test_lookup);
  g_test_add_func ("/model/textures/find-beside", test_find_beside);
  g_test_add_func ("/model/textures/load-async", test_load_async);
  g_test_add_func ("/model/textures/bad-payload", test_bad_payload_listed);

  return g_test_run ();
}
