/* test-library-name.c - the names that tell open libraries apart: the
 * file's name alone, or with as many of its folders as it takes */
#include "config.h"

#include <gio/gio.h>

#include "mat-library-name.h"

/* The name of @paths[@index] among all of @paths (NULL: no file; a
 * leading '*': the demo). Returns: (transfer full). */
static char *
name_among (const char *const *paths,
            guint              n,
            guint              index)
{
  MatLibraryPlace places[8] = { { 0 } };
  char *name;

  g_assert_cmpuint (n, <=, G_N_ELEMENTS (places));
  for (guint i = 0; i < n; i++)
    {
      const char *path = paths[i];

      places[i].is_demo = path != NULL && path[0] == '*';
      if (path != NULL)
        places[i].file = g_file_new_for_path (places[i].is_demo ? path + 1 : path);
    }
  name = mat_library_dup_display_name (&places[index], places, n);
  for (guint i = 0; i < n; i++)
    g_clear_object (&places[i].file);
  return name;
}

/* Every name of @paths is @names[i]. */
static void
check_names (const char *const *paths,
             const char *const *names,
             guint              n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = name_among (paths, n, i);

      g_assert_cmpstr (name, ==, names[i]);
    }
}

static void
test_alone (void)
{
  const char *paths[] = { "/games/Parkan/DATA/Material.lib", "/games/Parkan/DATA/Textures.lib" };
  const char *names[] = { "Material.lib", "Textures.lib" };
  MatLibraryPlace place = { NULL, FALSE };
  g_autofree char *alone = NULL;

  check_names (paths, names, 2);
  /* with no other library at all */
  place.file = g_file_new_for_path (paths[0]);
  alone = mat_library_dup_display_name (&place, NULL, 0);
  g_assert_cmpstr (alone, ==, "Material.lib");
  g_object_unref (place.file);
}

/* Two Material.lib in two folders: the folder that differs, with the
 * ones under it. */
static void
test_two_folders (void)
{
  const char *paths[] = { "/games/Parkan/DATA/Material.lib", "/games/mod/DATA/Material.lib",
                          "/games/mod/DATA/Textures.lib" };
  const char *names[] = { "Material.lib — Parkan/DATA", "Material.lib — mod/DATA", "Textures.lib" };
  const char *siblings[] = { "/games/Parkan/Material.lib", "/games/mod/Material.lib" };
  const char *sibling_names[] = { "Material.lib — Parkan", "Material.lib — mod" };

  check_names (paths, names, 3);
  check_names (siblings, sibling_names, 2);
}

/* The same folder names at other depths: as many folders as it takes,
 * each name for itself; the top of the file system as "/". */
static void
test_depths (void)
{
  const char *nested[] = { "/x/Parkan/DATA/Material.lib", "/x/Parkan/DATA/Parkan/DATA/Material.lib" };
  const char *nested_names[] = { "Material.lib — x/Parkan/DATA", "Material.lib — DATA/Parkan/DATA" };
  const char *shallow[] = { "/a/DATA/Material.lib", "/b/c/DATA/Material.lib", "/DATA/Material.lib",
                            "/b/d/DATA/Material.lib" };
  const char *shallow_names[] = { "Material.lib — a/DATA", "Material.lib — c/DATA",
                                  "Material.lib — /DATA", "Material.lib — d/DATA" };
  /* one rival needs three folders, the other one */
  const char *three[] = { "/x/Parkan/DATA/Material.lib", "/y/Parkan/DATA/Material.lib",
                          "/x/mod/Material.lib" };
  const char *three_names[] = { "Material.lib — x/Parkan/DATA", "Material.lib — y/Parkan/DATA",
                                "Material.lib — mod" };

  check_names (nested, nested_names, 2);
  check_names (shallow, shallow_names, 4);
  check_names (three, three_names, 3);
}

/* The home folder reads "~"; names and folders compare without their
 * case; a file listed twice is no rival of itself. */
static void
test_home_case_same (void)
{
  g_autofree char *home_lib = g_build_filename (g_get_home_dir (), "Material.lib", NULL);
  g_autofree char *parkan = g_build_filename (g_get_home_dir (), "Parkan", "DATA", "MATERIAL.LIB", NULL);
  const char *home[] = { home_lib, parkan };
  const char *home_names[] = { "Material.lib — ~", "MATERIAL.LIB — DATA" };
  const char *cased[] = { "/g/Data/Material.lib", "/h/DATA/Material.lib" };
  const char *cased_names[] = { "Material.lib — g/Data", "Material.lib — h/DATA" };
  const char *twice[] = { "/g/DATA/Material.lib", "/g/DATA/Material.lib" };
  const char *twice_names[] = { "Material.lib", "Material.lib" };

  check_names (home, home_names, 2);
  check_names (cased, cased_names, 2);
  check_names (twice, twice_names, 2);
}

/* The demo is named as the demo, and gives no other library a folder;
 * a library without a file is untitled. */
static void
test_demo_untitled (void)
{
  const char *paths[] = { "*/usr/share/parkan-matedit/demo/Material.lib",
                          "/games/Parkan/DATA/Material.lib", NULL };
  const char *names[] = { "Demo library", "Material.lib", "Untitled" };

  check_names (paths, names, 3);
}

static void
test_folder_name (void)
{
  g_autoptr(GFile) in_home = g_file_new_build_filename (g_get_home_dir (), "Material.lib", NULL);
  g_autoptr(GFile) below = g_file_new_build_filename (g_get_home_dir (), "Parkan", "DATA", "Material.lib", NULL);
  g_autoptr(GFile) elsewhere = g_file_new_for_path ("/mnt/game/DATA/Material.lib");
  g_autoptr(GFile) root = g_file_new_for_path ("/");
  g_autofree char *a = mat_library_dup_folder_name (in_home);
  g_autofree char *b = mat_library_dup_folder_name (below);
  g_autofree char *c = mat_library_dup_folder_name (elsewhere);

  g_assert_cmpstr (a, ==, "~");
  g_assert_cmpstr (b, ==, "~/Parkan/DATA");
  g_assert_cmpstr (c, ==, "/mnt/game/DATA");
  g_assert_null (mat_library_dup_folder_name (root));
}

int
main (int   argc,
      char *argv[])
{
  /* a home folder of the test's own, before anything asks for it */
  g_setenv ("HOME", "/home/modder", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/library-name/alone", test_alone);
  g_test_add_func ("/model/library-name/two-folders", test_two_folders);
  g_test_add_func ("/model/library-name/depths", test_depths);
  g_test_add_func ("/model/library-name/home-case-same", test_home_case_same);
  g_test_add_func ("/model/library-name/demo-untitled", test_demo_untitled);
  g_test_add_func ("/model/library-name/folder-name", test_folder_name);

  return g_test_run ();
}
