/* test-models-cli.c - `mat0tool models`, `where-used` and `wear` (cli.md
 * "Models") on the demo game folder (data/samples/make-models.c) and on
 * copies of it made worse: exit codes, the JSON documents compared
 * byte for byte, problems reported once, and `wear ... ROW=NAME -o OUT`
 * changing only the bytes of the names, atomically over its input */
#define _GNU_SOURCE 1   /* memmem */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-support.h"
#include "nres.h"
#include "test-mesh.h"
#include "test-support.h"

static char *tmp_dir;

static const char *
game (void)
{
  const char *path = g_getenv ("DEMO_GAME");

  g_assert_nonnull (path);
  return path;
}

static char *
game_file (const char *name)
{
  return g_build_filename (game (), name, NULL);
}

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autoptr(GBytes) bytes = test_load_file (from);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (to, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                       &error);
  g_assert_no_error (error);
}

static void
write_bytes (const char *path,
             GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                       &error);
  g_assert_no_error (error);
}

/* A copy of the demo game folder, @name under the test's folder.
 * Returns: (transfer full): its path. */
static char *
copy_game (const char *name)
{
  static const char *const files[] = {
    "Material.lib", "Textures.lib", "LightMap.lib", "static.rlb", "turrets.rlb",
    "fortif.rlb", "land.rlb",
  };
  char *dir = tmp_path (name);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *from = game_file (files[i]);
      g_autofree char *to = g_build_filename (dir, files[i], NULL);

      copy_file (from, to);
    }
  return dir;
}

static char *
expected_file (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, name, NULL);
  g_autoptr(GBytes) bytes = test_load_file (path);

  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
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

/* How many lines of @text hold @needle. */
static guint
count_lines (const char *text,
             const char *needle)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += strstr (lines[i], needle) != NULL;
  return n;
}

/* Where @needle is in @haystack (once). */
static gsize
find_bytes (GBytes     *haystack,
            const char *needle)
{
  gsize size, n = strlen (needle);
  const guint8 *data = g_bytes_get_data (haystack, &size);
  const guint8 *at = memmem (data, size, needle, n);

  g_assert_nonnull (at);
  g_assert_null (memmem (at + 1, size - (gsize) (at - data) - 1, needle, n));
  return (gsize) (at - data);
}

/* ---- models ------------------------------------------------------------------ */

static void
test_models_demo (void)
{
  g_auto(Run) run = { 0 };
  g_auto(Run) text = { 0 };
  g_autofree char *expected = expected_file ("models-demo.json");

  run_tool (&run, "models", game (), "--json", NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, expected);

  run_tool (&text, "models", game (), NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_true (g_str_has_prefix (text.out,
    "fortif.rlb: bunker.msh: wear bunker.wea, 2 nodes (2 drawn), 5 batches and 22 triangles drawn\n"
    "  row 0 (id 0): ROCK_WALL: 1 batch, 14 triangles\n"));
  g_assert_nonnull (strstr (text.out, "  row 2 (id 2): LAVA_FLOW: named, not drawn\n"));
  g_assert_nonnull (strstr (text.out, "land.rlb: Land1.wea: a material table without a model\n"
                                      "  row 0 (id 0): GRASS_FIELD\n"));
}

static void
test_models_usage (void)
{
  g_auto(Run) file = { 0 };
  g_auto(Run) missing = { 0 };
  g_auto(Run) none = { 0 };
  g_autofree char *lib = game_file ("Material.lib");
  g_autofree char *nowhere = tmp_path ("nowhere");

  /* a regular file is not a folder: exit 2 */
  run_tool (&file, "models", lib, NULL);
  g_assert_cmpint (file.status, ==, 2);
  g_assert_nonnull (strstr (file.err, "This is not a folder"));
  g_assert_cmpstr (file.out, ==, "");
  run_tool (&missing, "models", nowhere, "--json", NULL);
  g_assert_cmpint (missing.status, ==, 2);
  run_tool (&none, "models", NULL);
  g_assert_cmpint (none.status, ==, 2);
}

/* Broken and strange files in a copy of the folder: each failing archive
 * reported once (stderr and the document's problems), exit 1; the rest
 * indexed as before; a file that is not NRes skipped. */
static void
test_models_broken (void)
{
  g_autofree char *dir = copy_game ("broken");
  g_autofree char *garbage = g_build_filename (dir, "sub/garbage.rlb", NULL);
  g_autofree char *cut = g_build_filename (dir, "cut.rlb", NULL);
  g_autofree char *huge = g_build_filename (dir, "huge.rlb", NULL);
  g_autofree char *notes = g_build_filename (dir, "readme.rlb", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autofree char *static_rlb = game_file ("static.rlb");
  g_autoptr(GBytes) whole = test_load_file (static_rlb);
  g_autoptr(GBytes) cut_bytes = g_bytes_new_from_bytes (whole, 0, g_bytes_get_size (whole) - 100);
  g_autoptr(GBytes) junk = g_bytes_new_static ("NRes\x01\x01\0\0garbage, not an archive", 31);
  g_autoptr(GBytes) text = g_bytes_new_static ("plain text\n", 11);
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *expected = NULL;
  g_auto(GStrv) err_lines = NULL;
  g_auto(Run) run = { 0 };
  JsonObject *object;
  JsonArray *problems;
  gint64 t0;
  int fd;

  g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
  write_bytes (garbage, junk);
  write_bytes (cut, cut_bytes);
  write_bytes (notes, text);
  /* 4 GiB of zeros: not NRes, skipped after 16 bytes */
  fd = g_open (huge, O_WRONLY | O_CREAT, 0644);
  g_assert_cmpint (ftruncate (fd, G_GINT64_CONSTANT (4) << 30), ==, 0);
  close (fd);

  t0 = g_get_monotonic_time ();
  run_tool (&run, "models", dir, "--json", NULL);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 10 * G_USEC_PER_SEC);
  g_assert_cmpint (run.status, ==, 1);
  root = parse_json (run.out);
  object = json_node_get_object (root);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "models")), ==, 4);
  problems = json_object_get_array_member (object, "problems");
  g_assert_cmpuint (json_array_get_length (problems), ==, 2);
  expected = g_strdup_printf ("cut.rlb: (header): offset 12: expected total size %" G_GSIZE_FORMAT
                              " (the file size), found %" G_GSIZE_FORMAT,
                              g_bytes_get_size (cut_bytes), g_bytes_get_size (whole));
  g_assert_cmpstr (json_array_get_string_element (problems, 0), ==, expected);
  g_assert_cmpstr (json_array_get_string_element (problems, 1), ==,
                   "sub/garbage.rlb: (header): offset 4: expected version 0x00000100, found 0x00000101");
  /* once each on stderr, FILE: ENTRY: offset N: ... */
  g_assert_cmpuint (count_lines (run.err, "cut.rlb: (header): offset 12:"), ==, 1);
  g_assert_cmpuint (count_lines (run.err, "sub/garbage.rlb: (header): offset 4:"), ==, 1);
  err_lines = g_strsplit (run.err, "\n", -1);
  g_assert_cmpuint (g_strv_length (err_lines), ==, 3);   /* two lines and "" */
  g_assert_cmpuint (count_lines (run.err, "readme.rlb"), ==, 0);
  g_assert_cmpuint (count_lines (run.err, "huge.rlb"), ==, 0);
}

/* A model with an error: exit 1, listed with its problem, nothing drawn;
 * lints alone: exit 0. */
static void
test_models_errors (void)
{
  g_autofree char *dir = tmp_path ("errors");
  g_autofree char *bad = g_build_filename (dir, "bad.rlb", NULL);
  g_autofree char *lint = tmp_path ("lints");
  g_autofree char *lint_rlb = g_build_filename (lint, "lint.rlb", NULL);
  TestMesh *m = test_mesh_new ();
  TestMeshNode node = test_mesh_node (0, TEST_NONE, TEST_NONE, TEST_NONE, 3);   /* slot 3 of 1 */
  TestMeshSlot slot = { 0, 0, 0, 0 };
  g_autoptr(GBytes) mesh = NULL;
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(GBytes) lint_archive = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_auto(Run) run = { 0 };
  g_auto(Run) lints = { 0 };
  JsonObject *model;

  test_mesh_nodes (m, &node, 1);
  test_mesh_slots (m, &slot, 1);
  mesh = test_mesh_build (m);
  test_mesh_free (m);
  archive = test_model_archive ("bad", mesh, "1\n0 SOMETHING\n");
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  write_bytes (bad, archive);

  run_tool (&run, "models", dir, "--json", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpuint (count_lines (run.err, "bad.rlb: bad.msh: stream 1: offset "), ==, 1);
  root = parse_json (run.out);
  model = json_array_get_object_element (json_object_get_array_member (json_node_get_object (root),
                                                                       "models"), 0);
  g_assert_cmpint (json_object_get_int_member (model, "nodes"), ==, 1);
  g_assert_true (json_object_get_null_member (model, "drawn_nodes"));
  g_assert_true (json_object_get_null_member (model, "drawn_triangles"));
  g_assert_true (json_object_get_null_member (model, "bounds"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (model, "batches")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (model, "rows")), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (model, "problems")), ==, 1);

  /* the same model with a slot it has and no wear: a lint, exit 0 */
  m = test_mesh_new ();
  node.slot[0] = 0;
  test_mesh_nodes (m, &node, 1);
  test_mesh_slots (m, &slot, 1);
  g_clear_pointer (&mesh, g_bytes_unref);
  mesh = test_mesh_build (m);
  test_mesh_free (m);
  lint_archive = test_model_archive ("lint", mesh, NULL);
  g_assert_cmpint (g_mkdir_with_parents (lint, 0755), ==, 0);
  write_bytes (lint_rlb, lint_archive);
  run_tool (&lints, "models", lint, NULL);
  g_assert_cmpint (lints.status, ==, 0);
  g_assert_cmpstr (lints.err, ==, "");
  g_assert_nonnull (strstr (lints.out, "lint.rlb: lint.msh: wear none, 1 node (1 drawn), 0 batches and 0 triangles drawn\n"
                                       "  lint: lint.msh: offset 16: expected its material table lint.wea in the same archive, found none (drawn with DEFAULT)\n"));
}

/* --library LIB, else DIR/Material.lib in any case, else none. */
static void
test_models_library (void)
{
  g_autofree char *dir = copy_game ("library");
  g_autofree char *own = g_build_filename (dir, "Material.lib", NULL);
  g_autofree char *upper = g_build_filename (dir, "MATERIAL.LIB", NULL);
  g_autofree char *small = tmp_path ("small.lib");
  g_autofree char *not_lib = tmp_path ("not.lib");
  g_autofree char *missing = tmp_path ("missing.lib");
  static const guint8 payload[] = { 0 };
  TestEntrySpec specs[] = { { 0x3054414Du, 0, 0, 0, "METAL_PLATE", payload, 1, 0 } };
  g_autoptr(GBytes) small_bytes = test_build_archive (specs, 1, TRUE);
  g_autoptr(GBytes) text = g_bytes_new_static ("no", 2);
  g_auto(Run) with_own = { 0 };
  g_auto(Run) with_small = { 0 };
  g_auto(Run) with_upper = { 0 };
  g_auto(Run) without = { 0 };
  g_auto(Run) bad = { 0 };
  g_auto(Run) gone = { 0 };

  write_bytes (small, small_bytes);
  write_bytes (not_lib, text);

  /* the folder's own library has every material the demo wears */
  run_tool (&with_own, "models", dir, NULL);
  g_assert_cmpint (with_own.status, ==, 0);
  g_assert_cmpuint (count_lines (with_own.out, "worn but missing"), ==, 0);

  /* a library of METAL_PLATE alone (no DEFAULT): every other row; the
   * offset is that of the name in the file */
  run_tool (&with_small, "models", dir, "--library", small, NULL);
  g_assert_cmpint (with_small.status, ==, 0);
  {
    g_autofree char *fortif = game_file ("fortif.rlb");
    g_autoptr(GBytes) bytes = test_load_file (fortif);
    g_autofree char *line = g_strdup_printf (
      "  lint: bunker.wea: row 0: offset %" G_GSIZE_FORMAT ": expected a material of the library, found “ROCK_WALL” (worn but missing: the game draws the first entry, METAL_PLATE)\n",
      find_bytes (bytes, "0 ROCK_WALL") + 2);

    g_assert_nonnull (strstr (with_small.out, line));
  }
  /* bunker 4, box 2, tree 1, turret 3, Land1 4 */
  g_assert_cmpuint (count_lines (with_small.out, "worn but missing"), ==, 14);

  /* the folder's library found in any case */
  g_assert_cmpint (g_rename (own, upper), ==, 0);
  run_tool (&with_upper, "models", dir, "--json", NULL);
  g_assert_cmpint (with_upper.status, ==, 0);
  g_assert_cmpuint (count_lines (with_upper.out, "worn but missing"), ==, 0);
  /* none: no such lints, though the materials are nowhere */
  g_assert_cmpint (g_unlink (upper), ==, 0);
  run_tool (&without, "models", dir, NULL);
  g_assert_cmpint (without.status, ==, 0);
  g_assert_cmpuint (count_lines (without.out, "worn but missing"), ==, 0);

  run_tool (&bad, "models", dir, "--library", not_lib, NULL);
  g_assert_cmpint (bad.status, ==, 1);
  g_assert_cmpstr (bad.out, ==, "");
  run_tool (&gone, "where-used", dir, "METAL_PLATE", "--library", missing, NULL);
  g_assert_cmpint (gone.status, ==, 2);
}

/* ---- where-used ---------------------------------------------------------------- */

static void
test_where_used (void)
{
  g_auto(Run) metal = { 0 };
  g_auto(Run) lava = { 0 };
  g_auto(Run) glow = { 0 };
  g_auto(Run) nothing = { 0 };
  g_auto(Run) text = { 0 };
  g_auto(Run) usage = { 0 };

  run_tool (&metal, "where-used", game (), "metal_plate", "--json", NULL);
  g_assert_cmpint (metal.status, ==, 0);
  g_assert_cmpstr (metal.out, ==,
    "{\n"
    "  \"name\": \"METAL_PLATE\",\n"
    "  \"models\": [\n"
    "    {\n"
    "      \"archive\": \"fortif.rlb\",\n"
    "      \"model\": \"bunker.msh\",\n"
    "      \"batches\": 1,\n"
    "      \"triangles\": 2\n"
    "    },\n"
    "    {\n"
    "      \"archive\": \"static.rlb\",\n"
    "      \"model\": \"box.msh\",\n"
    "      \"batches\": 1,\n"
    "      \"triangles\": 4\n"
    "    },\n"
    "    {\n"
    "      \"archive\": \"turrets.rlb\",\n"
    "      \"model\": \"turret.msh\",\n"
    "      \"batches\": 2,\n"
    "      \"triangles\": 34\n"
    "    }\n"
    "  ],\n"
    "  \"named_not_drawn\": [],\n"
    "  \"tables\": []\n"
    "}\n");

  /* named by a row no batch draws, and by a table: exit 1 */
  run_tool (&lava, "where-used", game (), "Lava_Flow", "--json", NULL);
  g_assert_cmpint (lava.status, ==, 1);
  g_assert_cmpstr (lava.out, ==,
    "{\n"
    "  \"name\": \"LAVA_FLOW\",\n"
    "  \"models\": [],\n"
    "  \"named_not_drawn\": [\n"
    "    {\n"
    "      \"archive\": \"static.rlb\",\n"
    "      \"model\": \"box.msh\"\n"
    "    }\n"
    "  ],\n"
    "  \"tables\": [\n"
    "    {\n"
    "      \"archive\": \"land.rlb\",\n"
    "      \"wear\": \"Land1.wea\"\n"
    "    }\n"
    "  ]\n"
    "}\n");

  /* only the cockpit draws it */
  run_tool (&glow, "where-used", game (), "GLOW_PULSE", NULL);
  g_assert_cmpint (glow.status, ==, 1);
  g_assert_cmpstr (glow.out, ==, "turrets.rlb: turret.msh: named, not drawn\n");

  run_tool (&nothing, "where-used", game (), "NO_SUCH", "--json", NULL);
  g_assert_cmpint (nothing.status, ==, 1);
  g_assert_cmpstr (nothing.out, ==, "{\n  \"name\": \"NO_SUCH\",\n  \"models\": [],\n"
                                    "  \"named_not_drawn\": [],\n  \"tables\": []\n}\n");

  /* Cyrillic names are matched as written (only ASCII folds) */
  run_tool (&text, "where-used", game (), "БРОНЯ_ЗЕЛЁНАЯ", NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_cmpstr (text.out, ==, "static.rlb: box.msh: 1 batch, 8 triangles\n"
                                 "turrets.rlb: turret.msh: 1 batch, 12 triangles\n");

  run_tool (&usage, "where-used", game (), NULL);
  g_assert_cmpint (usage.status, ==, 2);
}

/* ---- wear ----------------------------------------------------------------------- */

static void
test_wear_list (void)
{
  g_autofree char *fortif = game_file ("fortif.rlb");
  g_autofree char *lib = game_file ("Material.lib");
  g_autofree char *bare = tmp_path ("bare.rlb");
  g_autofree char *expected = NULL;
  g_autoptr(GBytes) mesh = NULL;
  g_autoptr(GBytes) archive = NULL;
  TestMesh *m = test_mesh_new ();
  g_auto(Run) json = { 0 };
  g_auto(Run) text = { 0 };
  g_auto(Run) unknown = { 0 };
  g_auto(Run) no_wear = { 0 };
  g_auto(Run) not_archive = { 0 };

  run_tool (&json, "wear", fortif, "BUNKER", "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  g_assert_cmpstr (json.err, ==, "");
  expected = g_strdup_printf (
    "{\n"
    "  \"archive\": \"%s\",\n"
    "  \"model\": \"bunker.msh\",\n"
    "  \"wear\": \"bunker.wea\",\n"
    "  \"rows\": [\n"
    "    {\n      \"row\": 0,\n      \"id\": 0,\n      \"material\": \"ROCK_WALL\",\n      \"drawn\": true\n    },\n"
    "    {\n      \"row\": 1,\n      \"id\": 1,\n      \"material\": \"METAL_PLATE\",\n      \"drawn\": true\n    },\n"
    "    {\n      \"row\": 2,\n      \"id\": 2,\n      \"material\": \"GLASS\",\n      \"drawn\": true\n    },\n"
    "    {\n      \"row\": 3,\n      \"id\": 3,\n      \"material\": \"DEFAULT\",\n      \"drawn\": true\n    },\n"
    "    {\n      \"row\": 4,\n      \"id\": 4,\n      \"material\": \"ATLAS_SIGN\",\n      \"drawn\": true\n    }\n"
    "  ],\n"
    "  \"lightmaps\": [\"bunker_lm.0\"]\n"
    "}\n", fortif);
  g_assert_cmpstr (json.out, ==, expected);

  {
    g_autofree char *turrets = game_file ("turrets.rlb");

    run_tool (&text, "wear", turrets, "turret.msh", NULL);
    g_assert_cmpint (text.status, ==, 0);
    g_assert_true (g_str_has_suffix (text.out, ": turret.msh: turret.wea\n"
                                               "  row 0 (id 0): METAL_PLATE\n"
                                               "  row 1 (id 1): БРОНЯ_ЗЕЛЁНАЯ\n"
                                               "  row 2 (id 2): HALO_GLOW\n"
                                               "  row 3 (id 3): GLOW_PULSE (not drawn)\n"));
  }

  run_tool (&unknown, "wear", fortif, "tower", NULL);
  g_assert_cmpint (unknown.status, ==, 1);
  g_assert_nonnull (strstr (unknown.err, ": tower: no such model"));

  /* a model without its .wea */
  {
    TestMeshNode node = test_mesh_node (0, TEST_NONE, TEST_NONE, TEST_NONE, TEST_NONE);

    test_mesh_nodes (m, &node, 1);
    mesh = test_mesh_build (m);
    test_mesh_free (m);
    archive = test_model_archive ("bare", mesh, NULL);
    write_bytes (bare, archive);
  }
  run_tool (&no_wear, "wear", bare, "bare", "--json", NULL);
  g_assert_cmpint (no_wear.status, ==, 1);
  g_assert_cmpstr (no_wear.out, ==, "");
  g_assert_nonnull (strstr (no_wear.err, "bare.rlb: bare.msh: offset 16: expected its material table bare.wea in the same archive, found none\n"));

  /* an archive without models: unknown model; a file that is not one;
   * a folder */
  run_tool (&not_archive, "wear", lib, "box", NULL);
  g_assert_cmpint (not_archive.status, ==, 1);
  {
    g_autofree char *text_path = tmp_path ("text.rlb");
    g_autoptr(GBytes) text = g_bytes_new_static ("plain text\n", 11);
    g_auto(Run) run = { 0 };
    g_auto(Run) folder = { 0 };

    write_bytes (text_path, text);
    run_tool (&run, "wear", text_path, "box", NULL);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "text.rlb: (header): offset 0: expected an NRes archive, found another file\n"));
    run_tool (&folder, "wear", game (), "box", NULL);
    g_assert_cmpint (folder.status, ==, 2);
    g_assert_nonnull (strstr (folder.err, "This is a folder, not a file"));
  }
}

/* Renaming to names of the same length: the output differs from the
 * input in those bytes only; -o over the input is atomic. */
static void
test_wear_set_same_length (void)
{
  g_autofree char *from = game_file ("static.rlb");
  g_autofree char *renamed = tmp_path ("renamed");
  g_autofree char *out = g_build_filename (renamed, "static-renamed.rlb", NULL);
  g_autofree char *in_place = g_build_filename (renamed, "static-in-place.rlb", NULL);
  g_autoptr(GBytes) before = test_load_file (from);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autofree guint8 *expected = NULL;
  gsize size = g_bytes_get_size (before);
  gsize metal = find_bytes (before, "1 METAL_PLATE") + 2;
  gsize lava = find_bytes (before, "2 LAVA_FLOW") + 2;
  g_auto(Run) run = { 0 };
  g_auto(Run) over = { 0 };
  g_auto(Run) check = { 0 };
  GStatBuf st_before, st_after;

  g_assert_cmpint (g_mkdir_with_parents (renamed, 0755), ==, 0);
  /* METAL_PLATE -> GLASS_PANEL, LAVA_FLOW -> ROCK_WALL (11 and 9 bytes) */
  expected = g_memdup2 (g_bytes_get_data (before, NULL), size);
  memcpy (expected + metal, "GLASS_PANEL", 11);
  memcpy (expected + lava, "ROCK_WALL", 9);

  run_tool (&run, "wear", from, "box", "1=GLASS_PANEL", "2=ROCK_WALL", "-o", out, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  after = test_load_file (out);
  g_assert_cmpuint (g_bytes_get_size (after), ==, size);
  g_assert_cmpmem (g_bytes_get_data (after, NULL), size, expected, size);

  /* -o equal to the archive: replaced by rename, same bytes */
  copy_file (from, in_place);
  g_assert_cmpint (g_stat (in_place, &st_before), ==, 0);
  run_tool (&over, "wear", in_place, "box.msh", "1=GLASS_PANEL", "2=ROCK_WALL", "-o", in_place, NULL);
  g_assert_cmpint (over.status, ==, 0);
  g_assert_cmpint (g_stat (in_place, &st_after), ==, 0);
  g_assert_cmpuint (st_after.st_ino, !=, st_before.st_ino);
  again = test_load_file (in_place);
  g_assert_true (g_bytes_equal (again, after));

  /* and it reads back: the rows as written */
  run_tool (&check, "where-used", renamed, "GLASS_PANEL", NULL);
  g_assert_cmpint (check.status, ==, 0);
  g_assert_cmpuint (count_lines (check.out, "box.msh: 1 batch, 4 triangles"), ==, 2);
}

/* A longer name: the WEAR member is its old bytes with the name
 * replaced; every other member keeps its bytes (the preserving writer
 * moves them). */
static void
test_wear_set_longer (void)
{
  g_autofree char *from = game_file ("fortif.rlb");
  g_autofree char *out = tmp_path ("fortif-renamed.rlb");
  g_autoptr(GBytes) before = test_load_file (from);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(NresArchive) a = nres_archive_parse (before, NULL);
  g_autoptr(NresArchive) b = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Run) run = { 0 };
  static const char longer[] = "REINFORCED_CONCRETE_WALL_35_BYTES_X";

  g_assert_cmpuint (strlen (longer), ==, 35);
  run_tool (&run, "wear", from, "bunker", "0=" "REINFORCED_CONCRETE_WALL_35_BYTES_X", "-o", out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  after = test_load_file (out);
  b = nres_archive_parse (after, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (b->n_entries, ==, a->n_entries);
  for (guint i = 0; i < a->n_entries; i++)
    {
      gsize size_a, size_b;
      const guint8 *pa = nres_archive_payload (a, i, &size_a);
      const guint8 *pb = nres_archive_payload (b, i, &size_b);

      g_assert_cmpstr (a->entries[i].name, ==, b->entries[i].name);
      g_assert_cmpuint (a->entries[i].type_id, ==, b->entries[i].type_id);
      if (a->entries[i].type_id != 0x52414557u)
        {
          g_assert_cmpmem (pa, size_a, pb, size_b);
          continue;
        }
      {
        g_autofree char *old_text = g_strndup ((const char *) pa, size_a);
        g_auto(GStrv) parts = g_strsplit (old_text, "0 ROCK_WALL", 2);
        g_autofree char *new_text = g_strconcat (parts[0], "0 ", longer, parts[1], NULL);

        g_assert_cmpmem (pb, size_b, new_text, strlen (new_text));
      }
    }
}

/* Bad rows and names: exit 2, nothing written; an unknown model or one
 * without a wear: exit 1. */
static void
test_wear_set_refused (void)
{
  g_autofree char *from = game_file ("static.rlb");
  g_autofree char *out = tmp_path ("refused.rlb");
  g_autofree char *bare = tmp_path ("bare-set.rlb");
  g_autofree char *long_name = g_strnfill (36, 'A');
  g_autofree char *long_assign = g_strconcat ("0=", long_name, NULL);
  static const char *const bad[][2] = {
    { "3=ROCK_WALL", "offset" },     /* past the 3 rows */
    { "0=TWO WORDS", "U+0020" },
    { "0=", "name" },
    { "0=名前", "CP1251" },
    { "x=ROCK_WALL", "row number" },
    { "ROCK_WALL", "ROW=NAME" },
  };
  g_autoptr(GBytes) mesh = NULL;
  g_autoptr(GBytes) archive = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_auto(Run) run = { 0 };

      run_tool (&run, "wear", from, "box", bad[i][0], "-o", out, NULL);
      g_test_message ("%s: %s", bad[i][0], run.err);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_nonnull (strstr (run.err, bad[i][1]));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  {
    g_auto(Run) run = { 0 };

    run_tool (&run, "wear", from, "box", long_assign, "-o", out, NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "35"));
  }
  {
    g_auto(Run) run = { 0 };

    run_tool (&run, "wear", from, "crate", "0=ROCK_WALL", "-o", out, NULL);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  }
  {
    g_auto(Run) run = { 0 };
    TestMesh *m = test_mesh_new ();
    TestMeshNode node = test_mesh_node (0, TEST_NONE, TEST_NONE, TEST_NONE, TEST_NONE);

    test_mesh_nodes (m, &node, 1);
    mesh = test_mesh_build (m);
    test_mesh_free (m);
    archive = test_model_archive ("bare", mesh, NULL);
    write_bytes (bare, archive);
    run_tool (&run, "wear", bare, "bare", "0=ROCK_WALL", "-o", out, NULL);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  }
  {
    g_auto(Run) run = { 0 };

    run_tool (&run, "wear", from, "box", "0=ROCK_WALL", NULL);
    g_assert_cmpint (run.status, ==, 2);
  }
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("mat0tool-models-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/models/demo", test_models_demo);
  g_test_add_func ("/cli/models/usage", test_models_usage);
  g_test_add_func ("/cli/models/broken", test_models_broken);
  g_test_add_func ("/cli/models/errors", test_models_errors);
  g_test_add_func ("/cli/models/library", test_models_library);
  g_test_add_func ("/cli/where-used", test_where_used);
  g_test_add_func ("/cli/wear/list", test_wear_list);
  g_test_add_func ("/cli/wear/set-same-length", test_wear_set_same_length);
  g_test_add_func ("/cli/wear/set-longer", test_wear_set_longer);
  g_test_add_func ("/cli/wear/set-refused", test_wear_set_refused);

  status = g_test_run ();
  {
    g_autofree char *command = g_strdup_printf ("rm -rf '%s'", tmp_dir);

    if (system (command) != 0)
      g_warning ("could not remove %s", tmp_dir);
  }
  return status;
}
