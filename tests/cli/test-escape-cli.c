/* test-escape-cli.c - no terminal escape reaches the terminal
 *
 * Every command of mat0tool is fed entry names, texture names, NAME
 * arguments, option values and paths (library, JSON, picture, output,
 * folder) holding control bytes: ESC ]0;...BEL (retitles the terminal),
 * ESC [2J (clears it), \n, \r, BEL, DEL, a C1 CSI (U+009B) and a lone
 * 0x9B byte. Whatever each run prints, on stdout and on stderr, success
 * or failure, must hold no control byte but the newline that ends a line,
 * and be UTF-8: every name and path goes through one helper (mt_escape).
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "nres.h"
#include "test-pictures.h"
#include "test-support.h"

/* What a hostile name or path holds. */
#define EVIL  "\x1b]0;pwned\x07\x1b[2J\r\n\x7f"
#define C1    "\xc2\x9b" "31m"   /* U+009B: CSI in C1 */
#define RAW   "\x9b" "1m"        /* not UTF-8: CSI in a Latin-1 terminal */

static char *tmp_dir;
static guint n_runs;

/* Fails unless @text (@len bytes) is UTF-8 and every control character
 * in it is a newline. */
static void
assert_clean (const char *what, const char *text, gsize len, const char * const *argv)
{
  const char *end;

  if (!g_utf8_validate (text, (gssize) len, &end))
    {
      g_autofree char *command = g_strescape (argv[1], NULL);

      g_test_message ("%s of '%s': not UTF-8 at byte %" G_GSIZE_FORMAT, what, command,
                      (gsize) (end - text));
      g_test_fail ();
      return;
    }
  for (const char *p = text; p < text + len; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if ((c < 0x20 && c != '\n') || (c >= 0x7f && c <= 0x9f))
        {
          g_autofree char *shown = g_strndup (text, len);
          g_autofree char *escaped = g_strescape (shown, NULL);
          g_autofree char *command = g_strescape (argv[1], NULL);

          g_test_message ("%s of '%s' holds U+%04X at byte %" G_GSIZE_FORMAT ": %s", what,
                          command, c, (gsize) (p - text), escaped);
          g_test_fail ();
          return;
        }
    }
}

/* Runs $MAT0TOOL @args (NULL-terminated) and checks both outputs;
 * returns the exit status. */
static int
run_checked (const char *first, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  g_autoptr(GError) error = NULL;
  va_list args;
  gsize out_len, err_len;
  const char *out_data, *err_data;

  g_ptr_array_add (argv, (gpointer) g_getenv ("MAT0TOOL"));
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  proc = g_subprocess_newv ((const char * const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  out_data = g_bytes_get_data (out, &out_len);
  err_data = g_bytes_get_data (err, &err_len);
  assert_clean ("stdout", out_data, out_len, (const char * const *) argv->pdata);
  assert_clean ("stderr", err_data, err_len, (const char * const *) argv->pdata);
  {
    g_autofree char *err_text = g_strndup (err_len > 0 ? err_data : "", err_len);
    g_autofree char *command = g_strescape (argv->pdata[1], NULL);
    g_autofree char *shown = g_strescape (err_text, NULL);

    g_test_message ("%s: exit %d: %s", command, g_subprocess_get_exit_status (proc), shown);
  }
  n_runs++;
  return g_subprocess_get_exit_status (proc);
}

static char *
write_file (const char *dir, const char *name, GBytes *bytes)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return path;
}

static void
test_every_command (void)
{
  static const guint8 broken[] = { 1, 0 };
  g_autoptr(GBytes) worked = test_worked_example_payload (0);
  g_autoptr(GBytes) demo_textures = test_load_file (g_getenv ("DEMO_TEXTURES"));
  g_autoptr(NresArchive) demo = NULL;
  g_autoptr(GBytes) texm = NULL;
  g_autoptr(GBytes) lib_bytes = NULL;
  g_autoptr(GBytes) other_bytes = NULL;
  g_autoptr(GBytes) tex_bytes = NULL;
  g_autoptr(GBytes) png = test_png_new (8, 8, 8, 6, TRUE);
  g_autoptr(GBytes) svg = test_svg_new (64, 64);
  g_autoptr(GBytes) json = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_build_filename (tmp_dir, "dir" EVIL C1 RAW, NULL);
  g_autofree char *lib = NULL, *other = NULL, *tex = NULL, *picture = NULL, *drawing = NULL;
  g_autofree char *doc = NULL, *bad_doc = NULL;
  g_autofree char *out = NULL, *out_png = NULL, *png_dir = NULL;
  g_autofree char *missing = g_build_filename (tmp_dir, "missing" EVIL C1 RAW, "x.lib", NULL);
  gint texm_index = -1;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  demo = nres_archive_parse (demo_textures, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < demo->n_entries && texm_index < 0; i++)
    if (demo->entries[i].type_id == NRES_TYPE_TEXM)
      texm_index = (gint) i;
  g_assert_cmpint (texm_index, >=, 0);
  texm = nres_archive_payload_bytes (demo, (guint) texm_index);

  {
    /* names with every control byte CP1251 can hold */
    TestEntrySpec specs[] = {
      { NRES_TYPE_MAT0, 0x01, 6, 0, "EVIL\x1b]0;x\x07", g_bytes_get_data (worked, NULL),
        g_bytes_get_size (worked), 0 },
      { NRES_TYPE_MAT0, 0x01, 6, 0, "BAD\r\n\x1b[2J\x7f", broken, sizeof broken, 0 },
      { 0x52414557, 0, 0, 0, "TAB\tBEL\a", broken, sizeof broken, 0 },
    };
    TestEntrySpec changed[] = {
      { NRES_TYPE_MAT0, 0x41, 6, 0, "EVIL\x1b]0;x\x07", g_bytes_get_data (worked, NULL),
        g_bytes_get_size (worked), 0 },
      { NRES_TYPE_MAT0, 0x01, 6, 0, "NEW\x1b[5m", g_bytes_get_data (worked, NULL),
        g_bytes_get_size (worked), 0 },
    };
    TestEntrySpec textures[] = {
      { NRES_TYPE_TEXM, 0, 0, 0, "TEX\x1b[31m.0", g_bytes_get_data (texm, NULL),
        g_bytes_get_size (texm), 0 },
      { NRES_TYPE_TEXM, 0, 0, 0, "CUT\x1b]0;\a.0", broken, sizeof broken, 0 },
    };

    lib_bytes = test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
    other_bytes = test_build_archive (changed, G_N_ELEMENTS (changed), TRUE);
    tex_bytes = test_build_archive (textures, G_N_ELEMENTS (textures), TRUE);
  }
  lib = write_file (dir, "lib" EVIL C1 RAW ".lib", lib_bytes);
  other = write_file (dir, "other" EVIL ".lib", other_bytes);
  tex = write_file (dir, "Textures" EVIL RAW ".lib", tex_bytes);
  picture = write_file (dir, "picture" EVIL C1 RAW ".png", png);
  drawing = write_file (dir, "drawing" EVIL ".png", svg);
  {
    static const char text[] = "{\"entries\": [{\"name\": \"J\\u001b]0;x\\u0007\", \"type\": \"MAT0\", "
                               "\"attr2\": 6, \"phases\": [], \"blocks\": []}]}";

    json = g_bytes_new_static (text, sizeof text - 1);
  }
  doc = write_file (dir, "doc" EVIL ".json", json);
  {
    static const char text[] = "{\"entries\": [{\"name\": \"B\\u001b[2J\\r\\n\", "
                               "\"type\": \"MAT0\", \"attr1\": \"\\u001b]0;\"}]}";
    g_autoptr(GBytes) bad = g_bytes_new_static (text, sizeof text - 1);

    bad_doc = write_file (dir, "bad" EVIL ".json", bad);
  }
  out = g_build_filename (dir, "out" EVIL C1 RAW ".lib", NULL);
  out_png = g_build_filename (dir, "out" EVIL RAW ".png", NULL);
  png_dir = g_build_filename (dir, "png" EVIL C1 RAW, NULL);

  /* reading */
  g_assert_cmpint (run_checked ("info", lib, NULL), ==, 1);
  g_assert_cmpint (run_checked ("list", lib, NULL), ==, 1);
  g_assert_cmpint (run_checked ("list", lib, "--json", NULL), ==, 1);
  g_assert_cmpint (run_checked ("dump", lib, "--json", NULL), ==, 1);
  g_assert_cmpint (run_checked ("dump", lib, "EVIL\x1b]0;x\x07", "--json", NULL), ==, 0);
  g_assert_cmpint (run_checked ("dump", lib, "NO" EVIL C1 RAW, "--json", NULL), ==, 1);
  g_assert_cmpint (run_checked ("check", lib, NULL), ==, 1);
  g_assert_cmpint (run_checked ("check", lib, "--json", NULL), ==, 1);
  g_assert_cmpint (run_checked ("check", drawing, NULL), ==, 1);
  g_assert_cmpint (run_checked ("check", drawing, "--json", NULL), ==, 1);
  g_assert_cmpint (run_checked ("resolve", lib, "EVIL\x1b]0;x\x07", NULL), ==, 0);
  g_assert_cmpint (run_checked ("resolve", lib, "NO" EVIL RAW, NULL), ==, 0);
  g_assert_cmpint (run_checked ("eval", lib, "EVIL\x1b]0;x\x07", "--time", "0", NULL), ==, 0);
  g_assert_cmpint (run_checked ("eval", lib, "EVIL\x1b]0;x\x07", "--time", "0", "--json", NULL), ==, 0);
  g_assert_cmpint (run_checked ("eval", lib, "BAD\r\n\x1b[2J\x7f", "--time", "0", NULL), ==, 1);
  g_assert_cmpint (run_checked ("eval", lib, "TAB\tBEL\a", "--time", "0", NULL), ==, 1);
  g_assert_cmpint (run_checked ("eval", lib, "EVIL\x1b]0;x\x07", "--t", EVIL C1 RAW, NULL), ==, 2);
  g_assert_cmpint (run_checked ("eval", lib, "NO" EVIL, "--time", "0", NULL), ==, 1);
  g_assert_cmpint (run_checked ("info", missing, NULL), ==, 2);
  g_assert_cmpint (run_checked ("list", dir, NULL), ==, 2);

  /* writing: every output path, the messages of refusals */
  g_assert_cmpint (run_checked ("set", other, "EVIL\x1b]0;x\x07", "name=N" EVIL, "-o", out, NULL), ==, 0);
  g_assert_cmpint (run_checked ("set", other, "EVIL\x1b]0;x\x07", "phase[9].p[0]=" EVIL, "-o", out, NULL), ==, 2);
  g_assert_cmpint (run_checked ("set", other, "EVIL\x1b]0;x\x07", "attr1=0x45", "-o", missing, NULL), ==, 2);
  g_assert_cmpint (run_checked ("set", lib, "EVIL\x1b]0;x\x07", "attr1=0x45", "-o", out, NULL), ==, 1);
  g_assert_cmpint (run_checked ("set", other, "EVIL\x1b]0;x\x07", "attr1=0x45", "-o", out, NULL), ==, 0);
  g_assert_cmpint (run_checked ("roundtrip", other, "-o", out, NULL), ==, 0);
  g_assert_cmpint (run_checked ("roundtrip", lib, "-o", out, NULL), ==, 1);
  g_assert_cmpint (run_checked ("repack", other, "-o", out, NULL), ==, 0);
  g_assert_cmpint (run_checked ("repack", lib, "-o", out, NULL), ==, 1);
  g_assert_cmpint (run_checked ("repack", other, "-o", dir, NULL), ==, 2);
  g_assert_cmpint (run_checked ("build", doc, "-o", out, NULL), ==, 0);
  g_assert_cmpint (run_checked ("build", bad_doc, "-o", out, NULL), ==, 1);
  g_assert_cmpint (run_checked ("build", missing, "-o", out, NULL), ==, 2);
  g_assert_cmpint (run_checked ("build", doc, "-o", missing, NULL), ==, 2);
  g_assert_cmpint (run_checked ("diff", lib, other, NULL), ==, 1);
  g_assert_cmpint (run_checked ("diff", lib, other, "--json", NULL), ==, 1);
  g_assert_cmpint (run_checked ("diff", missing, other, NULL), ==, 2);

  /* textures */
  g_assert_cmpint (run_checked ("textures", tex, NULL), ==, 1);
  g_assert_cmpint (run_checked ("textures", tex, "--png", png_dir, NULL), ==, 1);
  {
    /* a folder that cannot be made: its parent is a file */
    g_autofree char *under_file = g_build_filename (lib, "png" EVIL C1 RAW, NULL);

    g_assert_cmpint (run_checked ("textures", tex, "--png", under_file, NULL), ==, 2);
  }
  g_assert_cmpint (run_checked ("texture-export", tex, "TEX\x1b[31m.0", "-o", out_png, NULL), ==, 0);
  g_assert_cmpint (run_checked ("texture-export", tex, "CUT\x1b]0;\a.0", "-o", out_png, NULL), ==, 1);
  g_assert_cmpint (run_checked ("texture-export", tex, "NO" EVIL C1 RAW, "-o", out_png, NULL), ==, 1);
  g_assert_cmpint (run_checked ("texture-export", tex, "TEX\x1b[31m.0", "--level", EVIL, "-o", out_png, NULL), ==, 2);
  g_assert_cmpint (run_checked ("texture-export", tex, "TEX\x1b[31m.0", "-o", missing, NULL), ==, 2);
  g_assert_cmpint (run_checked ("texture-export", lib, "EVIL\x1b]0;x\x07", "-o", out_png, NULL), ==, 1);
  g_assert_cmpint (run_checked ("texture-import", tex, "NEW.0", picture, "--format", "auto", "-o", out, NULL), ==, 0);
  g_assert_cmpint (run_checked ("texture-import", tex, "N\x1b]0;\a.0", picture, "--format", "auto", "-o", out, NULL), ==, 0);
  g_assert_cmpint (run_checked ("texture-import", tex, "TEX\x1b[31m.0", picture, "--format", "565",
                                "--drop-alpha", "-o", out, NULL), ==, 0);
  g_assert_cmpint (run_checked ("texture-import", tex, "NEW.0", drawing, "--format", "auto", "-o", out, NULL), ==, 1);
  g_assert_cmpint (run_checked ("texture-import", tex, "NEW.0", missing, "--format", "auto", "-o", out, NULL), ==, 2);
  g_assert_cmpint (run_checked ("texture-import", tex, "NEW.0", dir, "--format", "auto", "-o", out, NULL), ==, 2);
  g_assert_cmpint (run_checked ("texture-import", tex, "NEW.0", picture, "--format", EVIL C1 RAW, "-o", out, NULL), ==, 2);
  g_assert_cmpint (run_checked ("texture-import", tex, "NEW.0", picture, "--format", "auto",
                                "--cells", EVIL RAW, "-o", out, NULL), ==, 2);
  g_assert_cmpint (run_checked ("texture-import", tex, "NEW.0", picture, "--format", "auto",
                                "--mips", EVIL, "-o", out, NULL), ==, 2);
  g_assert_cmpint (run_checked ("texture-import", lib, "EVIL\x1b]0;x\x07", picture, "--format", "auto",
                                "-o", out, NULL), ==, 2);
  g_assert_cmpint (run_checked ("texture-import", tex, "NEW.0", picture, "--format", "auto", "-o", missing, NULL), ==, 2);
  g_assert_cmpint (run_checked ("texture-import", missing, "NEW.0", picture, "--format", "auto", "-o", out, NULL), ==, 2);

  /* usage */
  g_assert_cmpint (run_checked (EVIL C1 RAW, lib, NULL), ==, 2);
  g_assert_cmpint (run_checked ("info", "--" EVIL RAW, NULL), ==, 2);
  g_assert_cmpint (run_checked ("info", lib, other, NULL), ==, 2);

  g_test_message ("%u runs", n_runs);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("mat0tool-escape-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/escape/every-command", test_every_command);
  status = g_test_run ();
  remove_tree (tmp_dir);
  return status;
}
