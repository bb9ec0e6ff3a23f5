/* bench-picture.c - peak memory of texture-import, hostile pictures and
 * the largest ones it takes
 *
 * Each `mat0tool texture-import` runs as a child; its peak resident set
 * (getrusage of the waited child) is printed beside the baseline of the
 * same run: the import of an 8x8 PNG, what the process costs whatever it
 * reads. A refused picture must peak under 100 MB, an accepted one under
 * 300 MB. The hostile ones are what took 16.4 GB (a PNG header claiming
 * 65535x65535), 1.8 GB (a 16384x16384 PNG) and 6.9 GB (an SVG of
 * 30000x30000, named .png too) before their size was checked first.
 *
 * Usage: bench-picture MAT0TOOL TEXLIB
 */
#include <errno.h>
#include <fcntl.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "test-pictures.h"

#define REFUSED_LIMIT_MB  100.0
#define ACCEPTED_LIMIT_MB 300.0

static const char *mat0tool;
static const char *texlib;
static char *dir;

/* Imports @picture as @format; returns the exit status, the peak RSS in
 * MB and the wall time in seconds. */
static int
import (const char *picture,
        const char *format,
        double     *peak_mb,
        double     *seconds)
{
  g_autofree char *out = g_build_filename (dir, "out.lib", NULL);
  const char *argv[] = { mat0tool, "texture-import", texlib, "BENCH.0", picture,
                         "--format", format, "--drop-alpha", "-o", out, NULL };
  gint64 start = g_get_monotonic_time ();
  struct rusage usage;
  int status = 0;
  pid_t pid = fork ();

  if (pid < 0)
    g_error ("fork: %s", g_strerror (errno));
  if (pid == 0)
    {
      int null_fd = open ("/dev/null", O_WRONLY);

      if (null_fd < 0 || dup2 (null_fd, STDOUT_FILENO) < 0 || dup2 (null_fd, STDERR_FILENO) < 0)
        _exit (127);
      execv (argv[0], (char * const *) argv);
      _exit (127);
    }
  if (wait4 (pid, &status, 0, &usage) != pid)
    g_error ("wait4: %s", g_strerror (errno));
  *seconds = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  *peak_mb = usage.ru_maxrss * 1024.0 / 1e6;
  g_unlink (out);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128;
}

static char *
write_file (const char *name, GBytes *bytes)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return path;
}

/* A 1024x1024 picture with something in every pixel, saved as @type. */
static char *
save_pattern (const char *name, const char *type, gboolean alpha)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, alpha, 8, 1024, 1024);
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);
  int n = alpha ? 4 : 3;

  for (int y = 0; y < 1024; y++)
    for (int x = 0; x < 1024; x++)
      {
        guint8 *p = gdk_pixbuf_get_pixels (pixbuf) + y * gdk_pixbuf_get_rowstride (pixbuf) + x * n;

        p[0] = (guint8) (x ^ y);
        p[1] = (guint8) (x * 3 + y);
        p[2] = (guint8) ((x * y) >> 6);
        if (alpha)
          p[3] = (guint8) (255 - (y >> 2));
      }
  gdk_pixbuf_save (pixbuf, path, type, &error, NULL);
  g_assert_no_error (error);
  return path;
}

/* The files of the runs, named as @names says (the last three drawn by
 * gdk-pixbuf). */
static void
make_pictures (const char * const *names)
{
  g_autoptr(GBytes) whole = test_png_new (1024, 1024, 8, 6, TRUE);
  g_autoptr(GBytes) wide = test_png_new (2048, 2048, 8, 6, TRUE);
  GBytes *pictures[] = {
    test_png_new (65535, 65535, 8, 6, FALSE), test_png_new (16384, 16384, 1, 0, TRUE),
    test_svg_new (30000, 30000), test_svg_new (30000, 30000),
    test_bytes_cut (whole, g_bytes_get_size (whole) / 2), test_jpeg_header (65500, 65500),
    test_bmp_header (65535, 65535), test_tga_new (65535, 65535, 0),
    test_png_add_text (wide, 31 << 20), test_png_add_text (whole, 40 << 20),
    test_tga_new (1024, 1024, 1024), test_png_add_text (whole, 31 << 20),
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (pictures); i++)
    {
      g_free (write_file (names[i], pictures[i]));
      g_bytes_unref (pictures[i]);
    }
  g_free (save_pattern (names[i++], "png", TRUE));
  g_free (save_pattern (names[i++], "jpeg", FALSE));
  g_free (save_pattern (names[i++], "bmp", FALSE));
}

static gboolean
report (const char *what,
        const char *path,
        int         status,
        int         expected,
        double      peak,
        double      baseline,
        double      seconds,
        double      limit)
{
  GStatBuf st;
  gboolean ok = status == expected && peak < limit;

  g_stat (path, &st);
  printf ("%-46s %10lld bytes  exit %d  peak RSS %6.1f MB  (+%6.1f over the baseline)  %6.3f s%s\n",
          what, (long long) st.st_size, status, peak, peak - baseline, seconds,
          ok ? "" : status != expected ? "  WRONG EXIT" : "  OVER THE LIMIT");
  return ok;
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  double baseline, seconds, peak;
  gboolean ok = TRUE;

  if (argc != 3)
    {
      fprintf (stderr, "usage: %s MAT0TOOL TEXLIB\n", argv[0]);
      return 2;
    }
  mat0tool = argv[1];
  texlib = argv[2];
  dir = g_dir_make_tmp ("bench-picture-XXXXXX", &error);
  g_assert_no_error (error);

  {
    g_autoptr(GBytes) small = test_png_new (8, 8, 8, 6, TRUE);
    g_autofree char *path = write_file ("small.png", small);

    if (import (path, "8888", &baseline, &seconds) != 0)
      g_error ("the baseline import failed");
    printf ("Peak memory of texture-import (refused: under %.0f MB, accepted: under %.0f MB)\n",
            REFUSED_LIMIT_MB, ACCEPTED_LIMIT_MB);
    printf ("%-46s %10s        exit 0  peak RSS %6.1f MB  %6.3f s\n",
            "baseline: an 8x8 PNG", "", baseline, seconds);
    g_unlink (path);
  }

  {
    /* every file is made by a child of its own: a run's peak counts
     * what it shares of this process until exec, which stays small */
    static const char *refused[][2] = {
      { "claims.png", "refused: PNG header 65535x65535, tiny body" },
      { "huge.png", "refused: PNG of 16384x16384 (1-bit grey)" },
      { "drawing.png", "refused: SVG of 30000x30000 named .png" },
      { "drawing.svg", "refused: SVG of 30000x30000" },
      { "cut.png", "refused: PNG cut short" },
      { "claims.jpg", "refused: JPEG header 65500x65500" },
      { "claims.bmp", "refused: BMP header 65535x65535" },
      { "claims.tga", "refused: TGA header 65535x65535" },
      { "wide.png", "refused: PNG 2048x2048, 31 MB of text first" },
      { "big.png", "refused: a 40 MB file (past 32 MiB)" },
    };
    static const char *accepted[][3] = {
      { "largest.png", "8888", "accepted: PNG 1024x1024 RGBA as 8888" },
      { "largest.png", "0", "accepted: PNG 1024x1024 RGBA as 0 (palette)" },
      { "largest.jpg", "565", "accepted: JPEG 1024x1024 as 565" },
      { "largest.bmp", "0", "accepted: BMP 1024x1024 as 0 (palette)" },
      { "largest.tga", "8888", "accepted: TGA 1024x1024 RGBA as 8888" },
      { "text.png", "0", "accepted: PNG 1024x1024, 31 MB of text, as 0" },
    };
    const char *made[] = {
      "claims.png", "huge.png", "drawing.png", "drawing.svg", "cut.png", "claims.jpg",
      "claims.bmp", "claims.tga", "wide.png", "big.png", "largest.tga", "text.png",
      "largest.png", "largest.jpg", "largest.bmp",
    };
    pid_t maker = fork ();
    int maker_status = 0;

    if (maker < 0)
      g_error ("fork: %s", g_strerror (errno));
    if (maker == 0)
      {
        make_pictures (made);
        _exit (0);
      }
    if (waitpid (maker, &maker_status, 0) != maker || !WIFEXITED (maker_status) ||
        WEXITSTATUS (maker_status) != 0)
      g_error ("the pictures could not be made");

    for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
      {
        g_autofree char *path = g_build_filename (dir, refused[i][0], NULL);
        int status = import (path, "auto", &peak, &seconds);

        ok &= report (refused[i][1], path, status, 1, peak, baseline, seconds, REFUSED_LIMIT_MB);
      }
    for (guint i = 0; i < G_N_ELEMENTS (accepted); i++)
      {
        g_autofree char *path = g_build_filename (dir, accepted[i][0], NULL);
        int status = import (path, accepted[i][1], &peak, &seconds);

        ok &= report (accepted[i][2], path, status, 0, peak, baseline, seconds, ACCEPTED_LIMIT_MB);
      }
    for (guint i = 0; i < G_N_ELEMENTS (made); i++)
      {
        g_autofree char *path = g_build_filename (dir, made[i], NULL);

        g_unlink (path);
      }
  }

  g_rmdir (dir);
  return ok ? 0 : 1;
}
