/* test-picture-cli.c - texture-import refuses hostile pictures unread
 *
 * Each hostile file (a PNG header claiming 65535×65535 over a tiny body,
 * a real 16384×16384 PNG, an SVG named .png, a PNG cut short, and the
 * other formats' headers claiming huge sizes) is refused with one line
 * naming the file and what was expected, exit 1, nothing written; and
 * none is decoded: the peak memory of every mat0tool run stays under
 * 100 MB (one decode of 65535×65535 would take 16 GiB).
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>

#include "cli-support.h"
#include "test-pictures.h"
#include "test-support.h"

static char *tmp_dir;

static char *
write_tmp (const char *name, GBytes *bytes)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return path;
}

/* The largest peak resident size of the mat0tool runs so far, in MB. */
static double
children_peak_mb (void)
{
  struct rusage usage;

  getrusage (RUSAGE_CHILDREN, &usage);
  return usage.ru_maxrss * 1024.0 / 1e6;
}

static void
test_hostile_pictures (void)
{
  static const struct {
    const char *name;
    const char *message;
  } cases[] = {
    { "claims.png", "expected a picture of at most 1024×1024 pixels, found 65535×65535" },
    { "huge.png", "expected a picture of at most 1024×1024 pixels, found 16384×16384" },
    { "drawing.png", "expected a PNG, JPEG, BMP or TGA picture, found an SVG drawing" },
    { "drawing.svg", "expected a PNG, JPEG, BMP or TGA picture, found an SVG drawing" },
    { "cut.png", "expected a complete PNG picture up to its end marker, found the end of the file after" },
    { "claims.jpg", "expected a picture of at most 1024×1024 pixels, found 65500×65500" },
    { "claims.bmp", "expected a picture of at most 1024×1024 pixels, found 65535×65535" },
    { "claims.tga", "expected a picture of at most 1024×1024 pixels, found 65535×65535" },
  };
  g_autoptr(GBytes) whole = test_png_new (64, 64, 8, 6, TRUE);
  GBytes *files[] = {
    test_png_new (65535, 65535, 8, 6, FALSE),
    test_png_new (16384, 16384, 1, 0, TRUE),
    test_svg_new (30000, 30000),
    test_svg_new (30000, 30000),
    test_bytes_cut (whole, g_bytes_get_size (whole) - 20),
    test_jpeg_header (65500, 65500),
    test_bmp_header (65535, 65535),
    test_tga_new (65535, 65535, 0),
  };
  g_autofree char *out = g_build_filename (tmp_dir, "never.lib", NULL);
  const char *demo = g_getenv ("DEMO_TEXTURES");

  G_STATIC_ASSERT (G_N_ELEMENTS (files) == G_N_ELEMENTS (cases));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = write_tmp (cases[i].name, files[i]);
      g_autofree char *expected = g_strdup_printf ("%s: %s", path, cases[i].message);
      g_auto(Run) r = { 0 };

      run_tool (&r, "texture-import", demo, "HOSTILE.0", path, "--format", "auto", "-o", out, NULL);
      g_test_message ("%s -> %d %s (peak so far %.1f MB)", cases[i].name, r.status, r.err,
                      children_peak_mb ());
      g_assert_cmpint (r.status, ==, 1);
      g_assert_true (g_str_has_prefix (r.err, expected));
      g_assert_true (strchr (r.err, '\n') == r.err + strlen (r.err) - 1);
      g_assert_cmpstr (r.out, ==, "");
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
      g_assert_cmpfloat (children_peak_mb (), <, 100.0);
      g_bytes_unref (files[i]);
    }
}

/* The largest picture there is, in every format: under 300 MB. */
static void
test_largest_accepted (void)
{
  g_autoptr(GBytes) picture = test_png_new (1024, 1024, 8, 6, TRUE);
  g_autofree char *path = write_tmp ("largest.png", picture);
  g_autofree char *out = g_build_filename (tmp_dir, "largest.lib", NULL);
  const char *formats[] = { "8888", "565", "0" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_auto(Run) r = { 0 };

      run_tool (&r, "texture-import", g_getenv ("DEMO_TEXTURES"), "LARGEST.0", path,
                "--format", formats[i], "--drop-alpha", "-o", out, NULL);
      g_assert_cmpstr (r.err, ==, "");
      g_assert_cmpint (r.status, ==, 0);
      g_assert_nonnull (strstr (r.out, "1024x1024, 11 mips"));
      g_test_message ("format %s: peak so far %.1f MB", formats[i], children_peak_mb ());
      g_assert_cmpfloat (children_peak_mb (), <, 300.0);
      g_unlink (out);
    }
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("mat0tool-picture-XXXXXX", &error);
  g_assert_no_error (error);

  /* refusals first: the peak they check is of every run so far */
  g_test_add_func ("/cli/picture/hostile", test_hostile_pictures);
  g_test_add_func ("/cli/picture/largest-accepted", test_largest_accepted);
  status = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

        g_unlink (path);
      }
    g_rmdir (tmp_dir);
  }
  return status;
}
