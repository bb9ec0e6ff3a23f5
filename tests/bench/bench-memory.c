/* bench-memory.c - peak memory of mat0tool beside the size of the file
 *
 * `dump --json` and `build` of a library each run as a child process;
 * the peak resident set size of the child (getrusage of the waited
 * child) is printed beside the library's size. Both must stay within
 * ten times the library's size: the dump is written as it is made and
 * the build reads the document one entry at a time. Also `check` of a
 * 4 GiB file that is not a library, and `check`, `info` and `list` of a
 * 4 GiB library (sparse) whose directory names one material: time and
 * memory, each beside the same command on the first library given.
 *
 * Usage: bench-memory MAT0TOOL LIB...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#define LIMIT_FACTOR 10.0
/* Below this size the process itself (GLib, GIO, json-glib: about 5 MB)
 * is most of the peak: the limit is checked for larger files only. */
#define LIMIT_MIN_SIZE (4u << 20)

/* Runs @argv with stdout to @out_path (or /dev/null); returns the exit
 * status, the child's peak RSS in KiB and the wall time in seconds. */
static int
run (const char * const *argv,
     const char         *out_path,
     glong              *peak_kib,
     double             *seconds)
{
  gint64 start = g_get_monotonic_time ();
  struct rusage usage;
  int status = 0;
  pid_t pid = fork ();

  if (pid < 0)
    g_error ("fork: %s", g_strerror (errno));
  if (pid == 0)
    {
      int fd = open (out_path != NULL ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int null_fd = open ("/dev/null", O_WRONLY);

      /* the lint counts of check go nowhere: only the figures are shown */
      if (fd < 0 || null_fd < 0 || dup2 (fd, STDOUT_FILENO) < 0 || dup2 (null_fd, STDERR_FILENO) < 0)
        _exit (127);
      execv (argv[0], (char * const *) argv);
      _exit (127);
    }
  if (wait4 (pid, &status, 0, &usage) != pid)
    g_error ("wait4: %s", g_strerror (errno));
  *seconds = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  *peak_kib = usage.ru_maxrss;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128;
}

static gboolean
report (const char *what,
        guint64     file_size,
        glong       peak_kib,
        double      seconds,
        double      limit_factor)
{
  double peak = (double) peak_kib * 1024.0;
  double factor = peak / (double) file_size;
  gboolean ok = limit_factor <= 0 || file_size < LIMIT_MIN_SIZE || factor <= limit_factor;

  printf ("%-44s  file %10" G_GUINT64_FORMAT " bytes  peak RSS %8.1f MB  = %5.2fx the file  %6.2f s%s\n",
          what, file_size, peak / 1e6, factor, seconds,
          ok ? "" : "  OVER THE LIMIT");
  return ok;
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  gboolean ok = TRUE;

  if (argc < 3)
    {
      fprintf (stderr, "usage: %s MAT0TOOL LIB...\n", argv[0]);
      return 2;
    }
  dir = g_dir_make_tmp ("bench-memory-XXXXXX", &error);
  g_assert_no_error (error);

  printf ("Peak memory of mat0tool beside the library's size (limit: %.0fx, for files of %u MiB and more)\n",
          LIMIT_FACTOR, LIMIT_MIN_SIZE >> 20);
  for (int i = 2; i < argc; i++)
    {
      g_autofree char *base = g_path_get_basename (argv[i]);
      g_autofree char *json = g_build_filename (dir, "dump.json", NULL);
      g_autofree char *built = g_build_filename (dir, "built.lib", NULL);
      g_autofree char *label = NULL;
      const char *dump_argv[] = { argv[1], "dump", argv[i], "--json", NULL };
      const char *build_argv[] = { argv[1], "build", json, "-o", built, NULL };
      const char *check_argv[] = { argv[1], "check", argv[i], NULL };
      GStatBuf st, json_st;
      glong peak;
      double seconds;

      if (g_stat (argv[i], &st) != 0)
        g_error ("%s: %s", argv[i], g_strerror (errno));

      if (run (check_argv, NULL, &peak, &seconds) > 1)
        g_error ("check %s failed", argv[i]);
      label = g_strdup_printf ("check %s", base);
      report (label, (guint64) st.st_size, peak, seconds, 0);

      if (run (dump_argv, json, &peak, &seconds) != 0)
        g_error ("dump --json %s failed", argv[i]);
      g_free (label);
      label = g_strdup_printf ("dump --json %s", base);
      ok &= report (label, (guint64) st.st_size, peak, seconds, LIMIT_FACTOR);

      g_stat (json, &json_st);
      if (run (build_argv, NULL, &peak, &seconds) != 0)
        g_error ("build of the dump of %s failed", argv[i]);
      g_free (label);
      label = g_strdup_printf ("build (%.1f MB of JSON) %s", json_st.st_size / 1e6, base);
      ok &= report (label, (guint64) st.st_size, peak, seconds, LIMIT_FACTOR);
      g_unlink (json);
      g_unlink (built);
    }

  /* A 4 GiB file that is not a library (sparse: no disk used). */
  {
    g_autofree char *big = g_build_filename (dir, "big.lib", NULL);
    const char *check_argv[] = { argv[1], "check", big, NULL };
    int fd = g_open (big, O_WRONLY | O_CREAT, 0644);
    glong peak;
    double seconds;

    if (fd < 0 || ftruncate (fd, G_GINT64_CONSTANT (4) << 30) != 0)
      g_error ("%s: %s", big, g_strerror (errno));
    close (fd);
    if (run (check_argv, NULL, &peak, &seconds) != 1)
      g_error ("check of a 4 GiB file that is not a library did not say so");
    printf ("%-44s  file %10" G_GUINT64_FORMAT " bytes  peak RSS %8.1f MB  %6.3f s\n",
            "check of 4 GiB of zeros", (guint64) 4 << 30, peak * 1024.0 / 1e6, seconds);
    ok &= seconds < 1.0;
    g_unlink (big);
  }

  /* A 4 GiB library (sparse) of one material: only what the directory
   * names is read. Baseline: the same command on the first library. */
  {
    g_autofree char *huge = g_build_filename (dir, "huge.lib", NULL);
    g_autofree char *contents = NULL;
    static const char *commands[] = { "check", "info", "list" };
    const guint32 total = 0xFFFFFFFFu;
    guint8 header[16] = { 'N', 'R', 'e', 's', 0, 1, 0, 0, 1, 0, 0, 0 };
    guint8 entry[64];
    guint32 count, offset, size;
    gsize len = 0;
    int fd;

    if (!g_file_get_contents (argv[2], &contents, &len, &error))
      g_error ("%s", error->message);
    memcpy (&count, contents + 8, 4);
    memcpy (entry, contents + len - (gsize) count * 64, 64);   /* entry 0 */
    memcpy (&size, entry + 12, 4);
    memcpy (&offset, entry + 56, 4);
    memcpy (header + 12, &total, 4);
    memcpy (entry + 56, (guint32[]) { 16 }, 4);
    memset (entry + 60, 0, 4);
    fd = g_open (huge, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ftruncate (fd, total) != 0 || pwrite (fd, header, 16, 0) != 16 ||
        pwrite (fd, contents + offset, size, 16) != (gssize) size ||
        pwrite (fd, entry, 64, total - 64) != 64)
      g_error ("%s: %s", huge, g_strerror (errno));
    close (fd);

    for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
      {
        const char *huge_argv[] = { argv[1], commands[c], huge, NULL };
        const char *base_argv[] = { argv[1], commands[c], argv[2], NULL };
        g_autofree char *label = g_strdup_printf ("%s of a 4 GiB library of 1 entry", commands[c]);
        glong peak, base_peak;
        double seconds, base_seconds;

        if (run (base_argv, NULL, &base_peak, &base_seconds) > 1 ||
            run (huge_argv, NULL, &peak, &seconds) > 1)
          g_error ("%s failed", commands[c]);
        printf ("%-44s  file %10" G_GUINT64_FORMAT " bytes  peak RSS %8.1f MB  %6.3f s"
                "  (the first library: %.1f MB, %.3f s; %.2fx the memory, %.2fx the time)\n",
                label, (guint64) total, peak * 1024.0 / 1e6, seconds,
                base_peak * 1024.0 / 1e6, base_seconds,
                (double) peak / (double) base_peak, seconds / base_seconds);
        ok &= seconds < 1.0 && peak < 50 * 1024;
      }
    g_unlink (huge);
  }

  g_rmdir (dir);
  return ok ? 0 : 1;
}
