/* test-diff-cli.c - `mat0tool diff A B [--json]`: exit codes, text lines
 * and the JSON document, on the demo library against copies edited with
 * `mat0tool set` and rebuilt with `mat0tool build` */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "cli-support.h"
#include "test-support.h"


static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  if (tmp_dir == NULL)
    {
      g_autoptr(GError) error = NULL;

      tmp_dir = g_dir_make_tmp ("mat0tool-diff-XXXXXX", &error);
      g_assert_no_error (error);
    }
  return g_build_filename (tmp_dir, name, NULL);
}

static const char *
demo (void)
{
  const char *path = g_getenv ("DEMO_LIB");

  g_assert_nonnull (path);
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

/* The demo library edited with `mat0tool set`. Returns: (transfer full). */
static char *
edited_copy (void)
{
  g_auto(Run) run = { 0 };
  char *out = tmp_path ("edited.lib");

  run_tool (&run, "set", demo (), "COLOR_CYCLE", "attr1=0x41", "phase[2].p[5]=128",
            "block[0].key[1].k1=750", "phase[1].texture=ROCK.0", "-o", out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  return out;
}

/* ---- equal, changed ---------------------------------------------------- */

static void
test_equal (void)
{
  g_auto(Run) run = { 0 };
  g_auto(Run) json = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;

  run_tool (&run, "diff", demo (), demo (), NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_cmpstr (run.err, ==, "");

  run_tool (&json, "diff", demo (), demo (), "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  root = parse_json (json.out);
  object = json_node_get_object (root);
  g_assert_true (json_object_get_boolean_member (object, "equal"));
  g_assert_cmpint (json_object_get_int_member (object, "same"), ==, 31);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "added")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "removed")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "changed")), ==, 0);
}

static void
test_changed (void)
{
  g_autofree char *edited = edited_copy ();
  g_auto(Run) run = { 0 };
  g_auto(Run) back = { 0 };
  g_auto(Run) json = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object, *changed, *change;
  JsonArray *fields, *changes;

  run_tool (&run, "diff", demo (), edited, NULL);
  g_assert_cmpint (run.status, ==, 1);
  /* the fields, then each change: old → new, as the field table reads
   * them (a no-break space between a number and its unit) */
  g_assert_cmpstr (run.out, ==,
                   "changed COLOR_CYCLE: attr1, phase[1].texture, phase[2].p[5], block[0].key[1].k1\n"
                   "  COLOR_CYCLE: attr1: 0x0 (Opaque) → 0x41 (Opaque, extended texture load, bit 6)\n"
                   "  COLOR_CYCLE: phase 1 texture: untextured → “ROCK.0”\n"
                   "  COLOR_CYCLE: phase 2 diffuse G: 0 → 128\n"
                   "  COLOR_CYCLE: block 0 key 1 time: 1600\u00a0ms → 750\u00a0ms\n");
  g_assert_cmpstr (run.err, ==, "");

  /* the other way round: the same fields, the values swapped */
  run_tool (&back, "diff", edited, demo (), NULL);
  g_assert_cmpint (back.status, ==, 1);
  g_assert_cmpstr (back.out, ==,
                   "changed COLOR_CYCLE: attr1, phase[1].texture, phase[2].p[5], block[0].key[1].k1\n"
                   "  COLOR_CYCLE: attr1: 0x41 (Opaque, extended texture load, bit 6) → 0x0 (Opaque)\n"
                   "  COLOR_CYCLE: phase 1 texture: “ROCK.0” → untextured\n"
                   "  COLOR_CYCLE: phase 2 diffuse G: 128 → 0\n"
                   "  COLOR_CYCLE: block 0 key 1 time: 750\u00a0ms → 1600\u00a0ms\n");

  run_tool (&json, "diff", demo (), edited, "--json", NULL);
  g_assert_cmpint (json.status, ==, 1);
  root = parse_json (json.out);
  object = json_node_get_object (root);
  g_assert_false (json_object_get_boolean_member (object, "equal"));
  g_assert_cmpstr (json_object_get_string_member (object, "a"), ==, demo ());
  g_assert_cmpstr (json_object_get_string_member (object, "b"), ==, edited);
  g_assert_cmpint (json_object_get_int_member (object, "same"), ==, 30);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "added")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "removed")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "changed")), ==, 1);
  changed = json_array_get_object_element (json_object_get_array_member (object, "changed"), 0);
  g_assert_cmpstr (json_object_get_string_member (changed, "name"), ==, "COLOR_CYCLE");
  g_assert_false (json_object_has_member (changed, "name_b"));
  g_assert_cmpint (json_object_get_int_member (changed, "index_a"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (changed, "index_b"), ==, 4);
  fields = json_object_get_array_member (changed, "fields");
  g_assert_cmpuint (json_array_get_length (fields), ==, 4);
  g_assert_cmpstr (json_array_get_string_element (fields, 0), ==, "attr1");
  g_assert_cmpstr (json_array_get_string_element (fields, 1), ==, "phase[1].texture");
  g_assert_cmpstr (json_array_get_string_element (fields, 2), ==, "phase[2].p[5]");
  g_assert_cmpstr (json_array_get_string_element (fields, 3), ==, "block[0].key[1].k1");

  /* each change with its raw values, and their readings where the
   * field table has one */
  changes = json_object_get_array_member (changed, "changes");
  g_assert_cmpuint (json_array_get_length (changes), ==, 4);
  change = json_array_get_object_element (changes, 0);
  g_assert_cmpuint (json_object_get_size (change), ==, 5);
  g_assert_cmpstr (json_object_get_string_member (change, "field"), ==, "attr1");
  g_assert_cmpint (json_object_get_int_member (change, "from"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (change, "to"), ==, 0x41);
  g_assert_cmpstr (json_object_get_string_member (change, "from_reading"), ==, "Opaque");
  g_assert_cmpstr (json_object_get_string_member (change, "to_reading"), ==,
                   "Opaque, extended texture load, bit 6");
  /* a texture: the names, and the whole fields as dump's texture_raw */
  change = json_array_get_object_element (changes, 1);
  g_assert_cmpuint (json_object_get_size (change), ==, 5);
  g_assert_cmpstr (json_object_get_string_member (change, "field"), ==, "phase[1].texture");
  g_assert_cmpstr (json_object_get_string_member (change, "from"), ==, "");
  g_assert_cmpstr (json_object_get_string_member (change, "to"), ==, "ROCK.0");
  g_assert_cmpstr (json_object_get_string_member (change, "from_raw"), ==, "AAAAAAAAAAAAAAAAAAAAAA==");
  g_assert_cmpstr (json_object_get_string_member (change, "to_raw"), ==, "Uk9DSy4wAAAAAAAAAAAAAA==");
  /* a colour byte has no reading beyond its number */
  change = json_array_get_object_element (changes, 2);
  g_assert_cmpuint (json_object_get_size (change), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (change, "field"), ==, "phase[2].p[5]");
  g_assert_cmpint (json_object_get_int_member (change, "from"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (change, "to"), ==, 128);
  change = json_array_get_object_element (changes, 3);
  g_assert_cmpstr (json_object_get_string_member (change, "field"), ==, "block[0].key[1].k1");
  g_assert_cmpint (json_object_get_int_member (change, "from"), ==, 1600);
  g_assert_cmpint (json_object_get_int_member (change, "to"), ==, 750);
  g_assert_cmpstr (json_object_get_string_member (change, "from_reading"), ==, "1600\u00a0ms");
  g_assert_cmpstr (json_object_get_string_member (change, "to_reading"), ==, "750\u00a0ms");
}

/* ---- added, removed, matched by name case-insensitively --------------- */

/* The demo library as a dump document, changed by @edit, built again.
 * Returns: (transfer full): the new library's path. */
static char *
rebuilt_copy (void)
{
  g_auto(Run) dump = { 0 };
  g_auto(Run) build = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json_path = tmp_path ("rebuilt.json");
  char *lib_path = tmp_path ("rebuilt.lib");
  JsonArray *entries, *kept;
  JsonObject *extra = NULL;

  run_tool (&dump, "dump", demo (), "--json", NULL);
  g_assert_cmpint (dump.status, ==, 0);
  root = parse_json (dump.out);
  entries = json_object_get_array_member (json_node_get_object (root), "entries");
  kept = json_array_new ();
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);
      g_autofree char *name = g_strdup (json_object_get_string_member (entry, "name"));

      /* GLOW_PULSE goes; ROCK_WALL is spelt in lower case with attr3 5 */
      if (g_str_equal (name, "GLOW_PULSE"))
        continue;
      if (g_str_equal (name, "ROCK_WALL"))
        {
          json_object_set_string_member (entry, "name", "rock_wall");
          json_object_set_int_member (entry, "attr3", 5);
        }
      if (g_str_equal (name, "DEFAULT"))
        extra = json_object_ref (entry);
      json_array_add_object_element (kept, json_object_ref (entry));
    }
  /* NEW_ONE: a copy of DEFAULT under a new name, at the end */
  {
    g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
    g_autofree char *text = NULL;
    JsonNode *copy;

    /* a deep copy: through its text */
    json_node_set_object (node, extra);
    text = json_to_string (node, FALSE);
    copy = json_from_string (text, &error);
    g_assert_no_error (error);
    json_object_set_string_member (json_node_get_object (copy), "name", "NEW_ONE");
    json_array_add_element (kept, copy);
    json_object_unref (extra);
  }
  json_object_set_array_member (json_node_get_object (root), "entries", kept);

  json_generator_set_root (generator, root);
  g_assert_true (json_generator_to_file (generator, json_path, &error));
  g_assert_no_error (error);
  run_tool (&build, "build", json_path, "-o", lib_path, NULL);
  g_assert_cmpstr (build.err, ==, "");
  g_assert_cmpint (build.status, ==, 0);
  return lib_path;
}

static void
test_added_removed (void)
{
  g_autofree char *rebuilt = rebuilt_copy ();
  g_auto(Run) run = { 0 };
  g_auto(Run) json = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object, *entry;
  JsonArray *array;

  run_tool (&run, "diff", demo (), rebuilt, NULL);
  g_assert_cmpint (run.status, ==, 1);
  /* in A's order, then the added ones */
  g_assert_cmpstr (run.out, ==,
                   "changed ROCK_WALL: attr3\n"
                   "  ROCK_WALL: attr3: 0 → 5\n"
                   "removed GLOW_PULSE\n"
                   "added NEW_ONE\n");

  run_tool (&json, "diff", demo (), rebuilt, "--json", NULL);
  g_assert_cmpint (json.status, ==, 1);
  root = parse_json (json.out);
  object = json_node_get_object (root);
  g_assert_cmpint (json_object_get_int_member (object, "same"), ==, 29);

  array = json_object_get_array_member (object, "added");
  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  entry = json_array_get_object_element (array, 0);
  g_assert_cmpstr (json_object_get_string_member (entry, "name"), ==, "NEW_ONE");
  g_assert_cmpint (json_object_get_int_member (entry, "index"), ==, 30);

  array = json_object_get_array_member (object, "removed");
  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  entry = json_array_get_object_element (array, 0);
  g_assert_cmpstr (json_object_get_string_member (entry, "name"), ==, "GLOW_PULSE");
  g_assert_cmpint (json_object_get_int_member (entry, "index"), ==, 3);

  array = json_object_get_array_member (object, "changed");
  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  entry = json_array_get_object_element (array, 0);
  g_assert_cmpstr (json_object_get_string_member (entry, "name"), ==, "ROCK_WALL");
  g_assert_cmpstr (json_object_get_string_member (entry, "name_b"), ==, "rock_wall");
  g_assert_cmpint (json_object_get_int_member (entry, "index_a"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (entry, "index_b"), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (entry, "fields")), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (entry, "fields"), 0),
                   ==, "attr3");
  array = json_object_get_array_member (entry, "changes");
  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  entry = json_array_get_object_element (array, 0);
  g_assert_cmpuint (json_object_get_size (entry), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (entry, "field"), ==, "attr3");
  g_assert_cmpint (json_object_get_int_member (entry, "from"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (entry, "to"), ==, 5);
}

/* A library of one entry built from JSON: DEFAULT of the demo, named by
 * @name_raw (36 bytes) and with @texture_raw (16 bytes) in phase 0.
 * Returns: (transfer full): its path. */
static char *
built_with (const char   *file,
            const guint8 *name_raw,
            const guint8 *texture_raw)
{
  g_auto(Run) dump = { 0 };
  g_auto(Run) build = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json_path = tmp_path ("escaped.json");
  g_autofree char *name = g_base64_encode (name_raw, 36);
  g_autofree char *texture = g_base64_encode (texture_raw, 16);
  char *lib_path = tmp_path (file);
  JsonArray *entries, *kept;
  JsonObject *entry, *phase;

  run_tool (&dump, "dump", demo (), "DEFAULT", "--json", NULL);
  g_assert_cmpint (dump.status, ==, 0);
  root = parse_json (dump.out);
  entries = json_object_get_array_member (json_node_get_object (root), "entries");
  entry = json_array_get_object_element (entries, 0);
  json_object_set_string_member (entry, "name_raw", name);
  phase = json_array_get_object_element (json_object_get_array_member (entry, "phases"), 0);
  json_object_set_string_member (phase, "texture_raw", texture);
  kept = json_array_new ();
  json_array_add_object_element (kept, json_object_ref (entry));
  json_object_set_array_member (json_node_get_object (root), "entries", kept);

  json_generator_set_root (generator, root);
  g_assert_true (json_generator_to_file (generator, json_path, &error));
  g_assert_no_error (error);
  run_tool (&build, "build", json_path, "-o", lib_path, NULL);
  g_assert_cmpstr (build.err, ==, "");
  g_assert_cmpint (build.status, ==, 0);
  return lib_path;
}

/* Names and texture names from the file reach the terminal escaped, on
 * every line of a change. */
static void
test_escaped (void)
{
  static const guint8 name[36] = "TAB\tNAME";
  static const guint8 plain[16] = "ROCK.0";
  static const guint8 escape[16] = "\x1b[31mRED";
  g_autofree char *a = built_with ("plain.lib", name, plain);
  g_autofree char *b = built_with ("escape.lib", name, escape);
  g_auto(Run) run = { 0 };
  g_auto(Run) json = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *change;

  run_tool (&run, "diff", a, b, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==,
                   "changed TAB\\tNAME: phase[0].texture\n"
                   "  TAB\\tNAME: phase 0 texture: “ROCK.0” → “\\x1b[31mRED”\n");

  /* JSON strings carry them as they are */
  run_tool (&json, "diff", a, b, "--json", NULL);
  root = parse_json (json.out);
  change = json_array_get_object_element (json_object_get_array_member (
             json_array_get_object_element (json_object_get_array_member (json_node_get_object (root),
                                                                          "changed"), 0),
             "changes"), 0);
  g_assert_cmpstr (json_object_get_string_member (change, "from"), ==, "ROCK.0");
  g_assert_cmpstr (json_object_get_string_member (change, "to"), ==, "\x1b[31mRED");
}

/* ---- errors: 2 -------------------------------------------------------------- */

static void
test_errors (void)
{
  g_autofree char *missing = tmp_path ("missing.lib");
  g_autofree char *garbage = tmp_path ("garbage.lib");
  g_autoptr(GError) error = NULL;
  g_auto(Run) one = { 0 };
  g_auto(Run) three = { 0 };
  g_auto(Run) absent = { 0 };
  g_auto(Run) directory = { 0 };
  g_auto(Run) not_archive = { 0 };

  run_tool (&one, "diff", demo (), NULL);
  g_assert_cmpint (one.status, ==, 2);
  g_assert_cmpstr (one.out, ==, "");
  g_assert_nonnull (strstr (one.err, "diff takes two libraries"));

  run_tool (&three, "diff", demo (), demo (), demo (), NULL);
  g_assert_cmpint (three.status, ==, 2);

  run_tool (&absent, "diff", demo (), missing, NULL);
  g_assert_cmpint (absent.status, ==, 2);
  g_assert_cmpstr (absent.out, ==, "");
  g_assert_true (g_str_has_prefix (absent.err, missing));

  run_tool (&directory, "diff", tmp_dir, demo (), NULL);
  g_assert_cmpint (directory.status, ==, 2);
  /* the same words as every other command: the model's reader */
  g_assert_nonnull (strstr (directory.err, "This is a folder, not a file"));

  g_file_set_contents (garbage, "not an archive", -1, &error);
  g_assert_no_error (error);
  run_tool (&not_archive, "diff", demo (), garbage, "--json", NULL);
  g_assert_cmpint (not_archive.status, ==, 2);
  g_assert_cmpstr (not_archive.out, ==, "");
  g_assert_true (g_str_has_prefix (not_archive.err, garbage));
}

static void
remove_tmp_dir (void)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (tmp_dir == NULL)
    return;
  dir = g_dir_open (tmp_dir, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (tmp_dir);
  g_clear_pointer (&tmp_dir, g_free);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/diff/equal", test_equal);
  g_test_add_func ("/cli/diff/changed", test_changed);
  g_test_add_func ("/cli/diff/added-removed", test_added_removed);
  g_test_add_func ("/cli/diff/escaped", test_escaped);
  g_test_add_func ("/cli/diff/errors", test_errors);

  status = g_test_run ();
  remove_tmp_dir ();
  return status;
}
