/* test-build-cli.c - mat0tool build refuses hostile documents
 *
 * Every member of the dump document has its JSON type checked; each
 * refusal is one line naming the path of the value at fault, exit 1, no
 * file written, and no GLib critical (the tests run with
 * G_DEBUG=fatal-criticals: one would abort mat0tool).
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mat0.h"
#include "nres.h"
#include "cli-support.h"
#include "hostile-json.h"
#include "test-support.h"

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

/* Runs `build` on @document into a fresh OUT; @out_path: (out) (optional). */
static void
build (Run *run, const char *document, char **out_path)
{
  g_autofree char *json = tmp_path ("doc.json");
  g_autofree char *out = tmp_path ("out.lib");
  g_autoptr(GError) error = NULL;

  g_unlink (out);
  g_file_set_contents (json, document, -1, &error);
  g_assert_no_error (error);
  run_tool (run, "build", json, "-o", out, NULL);
  if (out_path != NULL)
    *out_path = g_steal_pointer (&out);
}

/* Exit 1, @message on one line of stderr and nothing else, no file. */
static void
assert_refused (const char *document, const char *message)
{
  g_auto(Run) r = { 0 };
  g_autofree char *out = NULL;

  g_test_message ("%s", document);
  build (&r, document, &out);
  g_test_message ("-> %d %s", r.status, r.err);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, message));
  g_assert_true (g_str_has_suffix (r.err, "\n"));
  g_assert_true (strchr (r.err, '\n') == r.err + strlen (r.err) - 1);
  g_assert_null (strstr (r.err, "CRITICAL"));
  g_assert_null (strstr (r.err, "WARNING"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

static void
test_hostile_entries (void)
{
  /* fatal-criticals is what makes a critical a failed test */
  g_assert_nonnull (strstr (g_getenv ("G_DEBUG"), "fatal-criticals"));

  for (guint i = 0; i < G_N_ELEMENTS (hostile_json); i++)
    {
      g_autofree char *document = g_strdup_printf ("{\"entries\": [%s]}", hostile_json[i].entry);

      assert_refused (document, hostile_json[i].message);
    }
}

static void
test_hostile_documents (void)
{
  static const HostileJson documents[] = {
    { "{\"archive\": \"x\", \"entries\": []}",
      "archive: expected an object, found a string" },
    { "{\"archive\": {\"version\": \"256\"}, \"entries\": []}",
      "archive.version: expected an integer 0..4294967295, found a string" },
    { "{\"archive\": {\"sort_index_valid\": \"yes\"}, \"entries\": []}",
      "archive.sort_index_valid: expected true or false, found a string" },
    { "{\"archive\": {\"total_size\": 99999999999999999999}, \"entries\": []}",
      "archive.total_size: expected an integer of at most 64 bits" },
    { "{\"entr\\u0000ies\": [], \"entries\": []}",
      "(document): expected text without NUL characters (\\u0000), found one" },
    { "{\"entries\": [{\"name\": \"A\", \"type\": \"MAT0\", \"phases\": [], \"blocks\": []}, "
      "{\"name\": \"B\\u0000\", \"type\": \"MAT0\", \"phases\": [], \"blocks\": []}]}",
      "entries[1].name: expected text without NUL characters" },
    { "{\"entries\": [{\"name\": \"X\", \"type\": \"MAT0\", \"attr2\": 6, \"phases\": [], \"blocks\": []}, 7]}",
      "entries[1]: expected an object, found a number" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (documents); i++)
    assert_refused (documents[i].entry, documents[i].message);
}

/* A MAT0 payload that does not decode is kept byte for byte when the
 * entry says so with "error", as the dump writes it. */
static void
test_undecodable_kept_when_said (void)
{
  static const guint8 payload[] = { 1, 0 };   /* "AQA=" */
  g_auto(Run) r = { 0 };
  g_auto(Run) dump = { 0 };
  g_auto(Run) again = { 0 };
  g_autofree char *out = NULL;
  g_autofree char *out2 = NULL;
  g_autoptr(GBytes) built = NULL;
  g_autoptr(GBytes) built2 = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize size;

  build (&r, "{\"entries\": [{\"name\": \"X\", \"type\": \"MAT0\", \"attr2\": 6, "
             "\"payload_base64\": \"AQA=\", \"error\": \"cut short\"}]}", &out);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  built = test_load_file (out);
  archive = nres_archive_parse (built, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (archive->n_entries, ==, 1);
  data = nres_archive_payload (archive, 0, &size);
  g_assert_cmpmem (data, size, payload, sizeof payload);

  /* what the dump of it writes builds the same library again */
  {
    g_autofree char *json = tmp_path ("undecodable.json");
    const char *argv[] = { "dump", out, "--json", NULL };

    run_tool_argv (&dump, json, argv);
    g_assert_cmpint (dump.status, ==, 1);   /* the entry does not decode */
    out2 = tmp_path ("again.lib");
    run_tool (&again, "build", json, "-o", out2, NULL);
    g_assert_cmpint (again.status, ==, 0);
    built2 = test_load_file (out2);
    g_assert_true (g_bytes_equal (built, built2));
  }
}

/* The dump writes "c": null for a raw value that is no finite float,
 * always beside "c_raw", which wins. */
static void
test_meta_c_null_beside_raw (void)
{
  g_auto(Run) r = { 0 };
  g_autofree char *out = NULL;
  g_autoptr(GBytes) built = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(Mat0Material) material = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize size;

  build (&r, "{\"entries\": [{\"name\": \"X\", \"type\": \"MAT0\", \"attr2\": 6, "
             "\"meta\": {\"c_raw\": 2143289344, \"c\": null}, \"phases\": [], \"blocks\": []}]}",
         &out);
  g_assert_cmpint (r.status, ==, 0);
  built = test_load_file (out);
  archive = nres_archive_parse (built, &error);
  g_assert_no_error (error);
  data = nres_archive_payload (archive, 0, &size);
  material = mat0_decode (data, size, 6, "X", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (material->meta_c, ==, 2143289344u);   /* a NaN's bits */
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("mat0tool-build-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/build/hostile-entries", test_hostile_entries);
  g_test_add_func ("/cli/build/hostile-documents", test_hostile_documents);
  g_test_add_func ("/cli/build/undecodable-kept-when-said", test_undecodable_kept_when_said);
  g_test_add_func ("/cli/build/meta-c-null-beside-raw", test_meta_c_null_beside_raw);
  status = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = tmp_path (name);

        g_unlink (path);
      }
    g_rmdir (tmp_dir);
  }
  return status;
}
