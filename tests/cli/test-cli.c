/* test-cli.c - mat0tool commands, exit codes and JSON (cli.md) */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "test-support.h"

typedef struct {
  int   status;
  char *out;
  char *err;
} Run;

static void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs mat0tool with a NULL-terminated argument list. */
static void
run_tool (Run *run, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("MAT0TOOL"));
  va_start (args, run);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  proc = g_subprocess_newv ((const char * const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                            &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  run->status = g_subprocess_get_exit_status (proc);
}

static char *
tmp_path (const char *name)
{
  static char *dir;

  if (dir == NULL)
    {
      g_autoptr(GError) error = NULL;
      dir = g_dir_make_tmp ("mat0tool-test-XXXXXX", &error);
      g_assert_no_error (error);
    }
  return g_build_filename (dir, name, NULL);
}

static char *
write_tmp (const char *name, GBytes *bytes)
{
  char *path = tmp_path (name);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return path;
}

static JsonNode *
parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* An archive holding the worked example of evaluator.md as "WORKED" and a
 * plain material "DEFAULT". */
static char *
worked_library (void)
{
  g_autoptr(GBytes) worked = test_worked_example_payload (0);
  g_autoptr(GByteArray) plain = g_byte_array_new ();
  g_autoptr(GBytes) archive = NULL;
  guint8 p[18] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 255 };
  TestEntrySpec specs[2] = {
    { 0x3054414D, 0x41, 6, 0, "WORKED", NULL, 0, 0 },
    { 0x3054414D, 0x01, 6, 0, "DEFAULT", NULL, 0, 5 },
  };

  test_put_u16 (plain, 1);
  test_put_u16 (plain, 0);
  test_put_u8 (plain, 255);
  test_put_u8 (plain, 255);
  test_put_u32 (plain, 0x3F800000);
  test_put_u32 (plain, 0);
  test_put_phase (plain, p, "ROCK.0");

  specs[0].payload = g_bytes_get_data (worked, &specs[0].size);
  specs[1].payload = plain->data;
  specs[1].size = plain->len;
  archive = test_build_archive (specs, 2, TRUE);
  return write_tmp ("worked.lib", archive);
}

static void
test_usage (void)
{
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 };

  run_tool (&r1, NULL);
  g_assert_cmpint (r1.status, ==, 2);
  run_tool (&r2, "frobnicate", "x", NULL);
  g_assert_cmpint (r2.status, ==, 2);
  g_assert_nonnull (strstr (r2.err, "unknown command 'frobnicate'"));
  run_tool (&r3, "info", "/nonexistent/Material.lib", NULL);
  g_assert_cmpint (r3.status, ==, 2);
  g_assert_true (g_str_has_prefix (r3.err, "/nonexistent/Material.lib: "));
  run_tool (&r4, "dump", g_getenv ("DEMO_LIB"), NULL);   /* no --json */
  g_assert_cmpint (r4.status, ==, 2);
}

static void
test_eval_worked_example (void)
{
  g_autofree char *lib = worked_library ();
  g_auto(Run) r = { 0 }, r2 = { 0 }, r3 = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o;
  JsonArray *f;

  run_tool (&r, "eval", lib, "worked", "--block", "0", "--time", "250", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  root = parse_json (r.out);
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "material"), ==, "WORKED");
  g_assert_cmpint (json_object_get_int_member (o, "cycle"), ==, 1000);
  g_assert_cmpint (json_object_get_int_member (o, "r"), ==, 250);
  g_assert_cmpint (json_object_get_int_member (o, "segment"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "next"), ==, 1);
  g_assert_cmpfloat (json_object_get_double_member (o, "alpha"), ==, 0.5);
  g_assert_cmpint (json_object_get_int_member (o, "phase_a"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "phase_b"), ==, 1);
  g_assert_false (json_object_get_boolean_member (o, "hold"));
  f = json_object_get_array_member (o, "f");
  g_assert_cmpuint (json_array_get_length (f), ==, 16);
  g_assert_cmpfloat (json_array_get_double_element (f, 0), ==, 0.5);
  g_assert_cmpfloat (json_array_get_double_element (f, 2), ==, 0.5);
  g_assert_cmpfloat (json_array_get_double_element (f, 3), ==, 0.0);
  g_assert_cmpint (json_object_get_int_member (o, "i18"), ==, -1);
  /* %.9g floats, as cli.md says */
  g_assert_nonnull (strstr (r.out, "\"alpha\": 0.5,"));

  /* mode 2 would hold; the same library at 1250 in loop mode = 250 */
  run_tool (&r2, "eval", lib, "WORKED", "--block", "0", "--time", "1300", "--start", "50", "--json", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_nonnull (strstr (r2.out, "\"r\": 250,"));

  run_tool (&r3, "eval", lib, "WORKED", "--t", "0.75", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  g_assert_nonnull (strstr (r3.out, "r 750, key 1 -> 0, alpha 0.5, phase 1 -> 0"));
}

static void
test_eval_errors (void)
{
  g_autofree char *lib = worked_library ();
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 };

  run_tool (&r1, "eval", lib, "WORKED", "--block", "3", "--time", "0", NULL);
  g_assert_cmpint (r1.status, ==, 2);
  run_tool (&r2, "eval", lib, "NOPE", "--time", "0", NULL);
  g_assert_cmpint (r2.status, ==, 1);
  run_tool (&r3, "eval", lib, "WORKED", "--time", "0", "--t", "0.5", NULL);
  g_assert_cmpint (r3.status, ==, 2);
}

static void
test_resolve (void)
{
  g_autofree char *lib = worked_library ();
  g_auto(Run) r1 = { 0 }, r2 = { 0 };

  run_tool (&r1, "resolve", lib, "Worked", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_cmpstr (r1.out, ==, "exact WORKED\n");
  run_tool (&r2, "resolve", lib, "MISSING", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_cmpstr (r2.out, ==, "default DEFAULT\n");
}

static void
test_set_changes_only_the_edited_bytes (void)
{
  g_autofree char *lib = worked_library ();
  g_autofree char *out = tmp_path ("set.lib");
  g_autoptr(GBytes) before = test_load_file (lib);
  g_autoptr(GBytes) after = NULL;
  g_auto(Run) r = { 0 };
  const guint8 *a, *b;
  gsize len;

  /* phase[1].p[5] of WORKED: payload at 16, prefix 4 + 10, phase 1 at +34 */
  run_tool (&r, "set", lib, "WORKED", "phase[1].p[5]=128", "block[0].key[1].k1=750",
            "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 0);
  after = test_load_file (out);
  a = g_bytes_get_data (before, &len);
  b = g_bytes_get_data (after, NULL);
  g_assert_cmpuint (g_bytes_get_size (after), ==, len);
  for (gsize i = 0; i < len; i++)
    {
      if (i == 16 + 14 + 34 + 5)
        g_assert_cmpuint (b[i], ==, 128);
      else if (i == 16 + 14 + 68 + 4 + 2 + 6 + 2)
        g_assert_cmpuint (test_get_u16 (b + i), ==, 750);
      else if (i == 16 + 14 + 68 + 4 + 2 + 6 + 3)
        continue;
      else
        g_assert_cmpuint (a[i], ==, b[i]);
    }
}

static void
test_set_in_place_is_atomic (void)
{
  g_autofree char *lib = worked_library ();
  g_autoptr(GBytes) before = test_load_file (lib);
  g_autoptr(GBytes) after = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 };
  g_autofree char *dir = g_path_get_dirname (lib);
  g_autoptr(GDir) d = NULL;
  const char *name;

  /* an invalid assignment leaves the file alone */
  run_tool (&r1, "set", lib, "WORKED", "phase[9].p[0]=1", "-o", lib, NULL);
  g_assert_cmpint (r1.status, ==, 2);
  g_assert_nonnull (strstr (r1.err, "expected a phase index below 2, found 9"));
  after = test_load_file (lib);
  g_assert_true (g_bytes_equal (before, after));
  g_clear_pointer (&after, g_bytes_unref);

  run_tool (&r2, "set", lib, "WORKED", "attr1=0x40", "-o", lib, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  after = test_load_file (lib);
  g_assert_cmpuint (test_get_u32 ((const guint8 *) g_bytes_get_data (after, NULL) +
                                  g_bytes_get_size (after) - 2 * 64 + 4), ==, 0x40);
  /* no temporary file is left behind */
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL)
    g_assert_false (g_str_has_prefix (name, ".goutputstream"));
}

static void
test_bad_input (void)
{
  g_autofree char *lib = worked_library ();
  g_autoptr(GBytes) good = test_load_file (lib);
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  g_autofree char *bad_path = NULL;
  g_autoptr(GBytes) bad_bytes = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autofree char *out = tmp_path ("never.lib");
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 };

  /* WORKED's animBlockCount (payload offset 2, file offset 18) set to 25 */
  g_byte_array_append (bad, g_bytes_get_data (good, NULL), g_bytes_get_size (good));
  bad->data[18] = 25;
  bad_bytes = g_bytes_new (bad->data, bad->len);
  bad_path = write_tmp ("bad.lib", bad_bytes);

  run_tool (&r1, "check", bad_path, NULL);
  g_assert_cmpint (r1.status, ==, 1);
  g_assert_nonnull (strstr (r1.out, "error: "));
  g_assert_nonnull (strstr (r1.out, ": WORKED: offset 18: expected animBlockCount < 20"));
  run_tool (&r2, "list", bad_path, NULL);
  g_assert_cmpint (r2.status, ==, 1);
  g_assert_nonnull (strstr (r2.err, "WORKED: offset 18:"));
  run_tool (&r3, "roundtrip", bad_path, "-o", out, NULL);
  g_assert_cmpint (r3.status, ==, 1);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  after = test_load_file (bad_path);
  g_assert_true (g_bytes_equal (after, bad_bytes));

  /* a truncated archive */
  g_byte_array_set_size (bad, 20);
  g_clear_pointer (&bad_bytes, g_bytes_unref);
  bad_bytes = g_bytes_new (bad->data, bad->len);
  g_free (bad_path);
  bad_path = write_tmp ("short.lib", bad_bytes);
  run_tool (&r4, "info", bad_path, NULL);
  g_assert_cmpint (r4.status, ==, 1);
  g_assert_true (g_str_has_prefix (r4.err, bad_path));
  g_assert_nonnull (strstr (r4.err, "offset "));
}

static void
roundtrip_file (const char *lib)
{
  g_autofree char *base = g_path_get_basename (lib);
  g_autofree char *out = tmp_path (base);
  g_autoptr(GBytes) a = test_load_file (lib);
  g_autoptr(GBytes) b = NULL;
  g_auto(Run) r = { 0 };

  run_tool (&r, "roundtrip", lib, "-o", out, NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  b = test_load_file (out);
  g_assert_true (g_bytes_equal (a, b));
}

static void
test_roundtrip_demo (void)
{
  roundtrip_file (g_getenv ("DEMO_LIB"));
}

static void
test_roundtrip_retail (void)
{
  roundtrip_file (g_getenv ("RETAIL_LIB"));
}

static void
test_roundtrip_stress (void)
{
  roundtrip_file (g_getenv ("STRESS_LIB"));
}

static void
test_dump_build_identity (void)
{
  const char *lib = g_getenv ("DEMO_LIB");
  g_autofree char *json = tmp_path ("demo.json");
  g_autofree char *out = tmp_path ("rebuilt.lib");
  g_autoptr(GBytes) a = test_load_file (lib);
  g_autoptr(GBytes) b = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 };

  run_tool (&r1, "dump", lib, "--json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_file_set_contents (json, r1.out, -1, &error);
  g_assert_no_error (error);
  /* the demo is built in canonical layout, so dump + build reproduces it */
  run_tool (&r2, "build", json, "-o", out, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  b = test_load_file (out);
  g_assert_true (g_bytes_equal (a, b));
}

static void
test_dump_demo_values (void)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *e, *meta, *flags;
  JsonArray *entries, *keys;

  run_tool (&r, "dump", g_getenv ("DEMO_LIB"), "OLD_VERSION3", "fade_out", "БРОНЯ_ЗЕЛЁНАЯ", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  root = parse_json (r.out);
  entries = json_object_get_array_member (json_node_get_object (root), "entries");
  g_assert_cmpuint (json_array_get_length (entries), ==, 3);

  e = json_array_get_object_element (entries, 0);
  g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, "OLD_VERSION3");
  g_assert_cmpint (json_object_get_int_member (e, "attr2"), ==, 3);
  meta = json_object_get_object_member (e, "meta");
  g_assert_cmpint (json_object_get_int_member (meta, "a"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (meta, "c_raw"), ==, 0x3F000000);
  g_assert_cmpfloat (json_object_get_double_member (meta, "c"), ==, 0.5);
  g_assert_cmpint (json_object_get_int_member (meta, "d"), ==, 0);
  g_assert_false (json_object_get_boolean_member (meta, "from_file"));

  e = json_array_get_object_element (entries, 1);
  g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, "FADE_OUT");
  keys = json_object_get_array_member (json_array_get_object_element (json_object_get_array_member (e, "blocks"), 0), "keys");
  g_assert_cmpint (json_array_get_int_element (json_array_get_array_element (keys, 0), 1), ==, 2000);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (json_object_get_array_member (e, "blocks"), 0), "header_raw"), ==, (0x11 << 3) | 2);

  e = json_array_get_object_element (entries, 2);
  g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, "БРОНЯ_ЗЕЛЁНАЯ");
  flags = json_object_get_object_member (e, "flags");
  g_assert_true (json_object_get_boolean_member (flags, "ext_texture_load"));
  g_assert_false (json_object_get_boolean_member (flags, "behaviour"));
}

static void
test_check_demo (void)
{
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 };
  g_autoptr(JsonNode) root = NULL;

  /* the demo has one material that shows lints on purpose */
  run_tool (&r1, "check", g_getenv ("DEMO_LIB"), NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_null (strstr (r1.out, "error:"));
  g_assert_nonnull (strstr (r1.out, "lint: "));
  g_assert_nonnull (strstr (r1.out, "LINT_EXAMPLE: offset "));
  run_tool (&r2, "check", g_getenv ("DEMO_LIB"), "--strict", NULL);
  g_assert_cmpint (r2.status, ==, 1);
  run_tool (&r3, "check", g_getenv ("DEMO_LIB"), "--json", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  root = parse_json (r3.out);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (root), "errors"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (root), "lints"), >=, 4);
}

static void
test_info_and_list (void)
{
  g_auto(Run) r1 = { 0 }, r2 = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonArray *list;

  run_tool (&r1, "info", g_getenv ("RETAIL_LIB"), NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_nonnull (strstr (r1.out, "entries: 905\n  MAT0: 905\n"));
  g_assert_nonnull (strstr (r1.out, "material versions (attr2): 6: 905\n"));
  g_assert_nonnull (strstr (r1.out, "(at most 29 in one material)"));
  g_assert_nonnull (strstr (r1.out, "(at most 8;"));
  g_assert_nonnull (strstr (r1.out, "sort index: canonical\n"));

  run_tool (&r2, "list", g_getenv ("DEMO_LIB"), "--json", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  root = parse_json (r2.out);
  list = json_node_get_array (root);
  g_assert_cmpuint (json_array_get_length (list), >=, 20);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (list, 0), "name"), ==, "DEFAULT");
}

static void
test_repack_canonical (void)
{
  g_autofree char *lib = worked_library ();
  g_autofree char *out = tmp_path ("repacked.lib");
  g_autoptr(GBytes) a = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 };
  const guint8 *d;

  /* the worked library has 5 unindexed bytes after DEFAULT's payload */
  run_tool (&r1, "repack", lib, "-o", out, NULL);
  g_assert_cmpint (r1.status, ==, 0);
  a = test_load_file (out);
  d = g_bytes_get_data (a, NULL);
  /* WORKED: 100 bytes at 16, padded to 120; DEFAULT: 48 bytes at 120;
   * the 5 unindexed bytes are dropped -> directory at 168 */
  g_assert_cmpuint (g_bytes_get_size (a), ==, 168 + 2 * 64);
  g_assert_cmpuint (test_get_u32 (d + 168 + 56), ==, 16);
  g_assert_cmpuint (test_get_u32 (d + 168 + 64 + 56), ==, 120);
  g_assert_cmpuint (test_get_u32 (d + 12), ==, 168 + 2 * 64);
  run_tool (&r2, "check", out, NULL);
  g_assert_cmpint (r2.status, ==, 0);
}

static void
test_build_rejects_bad_json (void)
{
  g_autofree char *json = tmp_path ("bad.json");
  g_autofree char *out = tmp_path ("bad-build.lib");
  g_autoptr(GError) error = NULL;
  g_auto(Run) r = { 0 };

  g_file_set_contents (json,
                       "{\"entries\": [{\"name\": \"X\", \"type\": \"MAT0\", \"attr2\": 6,"
                       " \"phases\": [{\"params\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,300]}],"
                       " \"blocks\": []}]}", -1, &error);
  g_assert_no_error (error);
  run_tool (&r, "build", json, "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "entries[0] (X).phases[0].params[17]: expected an integer 0..255"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

static void
test_textures (void)
{
  g_autofree char *dir = tmp_path ("png");
  g_autofree char *png = g_build_filename (dir, "ATLAS.0.png", NULL);
  g_auto(Run) r = { 0 };

  run_tool (&r, "textures", g_getenv ("DEMO_TEXTURES"), "--png", dir, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "ATLAS.0"));
  g_assert_nonnull (strstr (r.out, "page 4 rects"));
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/usage", test_usage);
  g_test_add_func ("/cli/eval/worked-example", test_eval_worked_example);
  g_test_add_func ("/cli/eval/errors", test_eval_errors);
  g_test_add_func ("/cli/resolve", test_resolve);
  g_test_add_func ("/cli/set/only-edited-bytes", test_set_changes_only_the_edited_bytes);
  g_test_add_func ("/cli/set/atomic-in-place", test_set_in_place_is_atomic);
  g_test_add_func ("/cli/bad-input", test_bad_input);
  g_test_add_func ("/cli/roundtrip/demo", test_roundtrip_demo);
  g_test_add_func ("/cli/roundtrip/retail", test_roundtrip_retail);
  g_test_add_func ("/cli/roundtrip/stress", test_roundtrip_stress);
  g_test_add_func ("/cli/dump/build-identity", test_dump_build_identity);
  g_test_add_func ("/cli/dump/values", test_dump_demo_values);
  g_test_add_func ("/cli/check/demo", test_check_demo);
  g_test_add_func ("/cli/info-list", test_info_and_list);
  g_test_add_func ("/cli/repack", test_repack_canonical);
  g_test_add_func ("/cli/build/bad-json", test_build_rejects_bad_json);
  g_test_add_func ("/cli/textures", test_textures);

  return g_test_run ();
}
