/* test-json.c - materials and phases as dump JSON: copy, paste, undo */
#include "config.h"

#include <string.h>

#include "mat0-validate.h"
#include "mat-library.h"
#include "mat-material-json.h"
#include "nres.h"
#include "test-support.h"

/* Helpers */

static GBytes *
save_bytes (MatLibrary *lib)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = mat_library_save_to_bytes (lib, &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

static void
assert_same_bytes (GBytes *a,
                   GBytes *b)
{
  gsize la, lb;
  const guint8 *da = g_bytes_get_data (a, &la);
  const guint8 *db = g_bytes_get_data (b, &lb);

  if (la == lb && (la == 0 || memcmp (da, db, la) == 0))
    return;
  for (gsize i = 0; i < MIN (la, lb); i++)
    if (da[i] != db[i])
      {
        g_test_message ("first difference at offset %" G_GSIZE_FORMAT ": %02x vs %02x",
                        i, da[i], db[i]);
        break;
      }
  g_test_message ("sizes %" G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT, la, lb);
  g_assert_not_reached ();
}

static MatLibrary *
library_from (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  MatLibrary *lib = mat_library_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (lib);
  return lib;
}

static MatLibrary *
demo_library (GBytes **bytes)
{
  const char *path = g_getenv ("DEMO_LIB");

  g_assert_nonnull (path);
  *bytes = test_load_file (path);
  return library_from (*bytes);
}

/* An archive of no entries. */
static MatLibrary *
empty_library (void)
{
  g_autoptr(GBytes) bytes = test_build_archive (NULL, 0, TRUE);

  return library_from (bytes);
}

/* What a save of @lib writes for entry @index: its directory fields and
 * its payload. */
static GBytes *
saved_entry (MatLibrary *lib,
             guint       index,
             NresEntry  *entry)
{
  g_autoptr(GBytes) bytes = save_bytes (lib);
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (index, <, archive->n_entries);
  *entry = archive->entries[index];
  return nres_archive_payload_bytes (archive, index);
}

/* Entry @index of @archive pasted into @target (as its last entry) from
 * the text its material copies as: the same payload and directory
 * fields, byte for byte. */
static void
assert_copy_exact (MatLibrary        *source,
                   const NresArchive *archive,
                   guint              index,
                   MatLibrary        *target,
                   gboolean           document)
{
  MatMaterial *material = mat_library_get_material (source, index);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GBytes) original = nres_archive_payload_bytes (archive, index);
  g_autoptr(GBytes) pasted = NULL;
  const NresEntry *a = &archive->entries[index];
  MatMaterial *copy;
  NresEntry b;
  guint n;

  text = document ? mat_material_to_json_document (material, &error)
                  : mat_material_to_json (material, &error);
  g_assert_no_error (error);
  g_assert_nonnull (text);

  copy = mat_library_paste_material (target, text, -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (copy);
  n = g_list_model_get_n_items (G_LIST_MODEL (target));
  g_assert_true (mat_library_get_material (target, n - 1) == copy);
  g_assert_cmpstr (mat_material_get_name (copy), ==, mat_material_get_name (material));

  pasted = saved_entry (target, n - 1, &b);
  assert_same_bytes (original, pasted);
  g_assert_cmpuint (a->type_id, ==, b.type_id);
  g_assert_cmpuint (a->attr1, ==, b.attr1);
  g_assert_cmpuint (a->attr2, ==, b.attr2);
  g_assert_cmpuint (a->attr3, ==, b.attr3);
  g_assert_cmpmem (a->name, NRES_NAME_SIZE, b.name, NRES_NAME_SIZE);
}

static GBytes *
worked_payload (guint16 k2)
{
  g_autoptr(GBytes) worked = test_worked_example_payload (0);
  GByteArray *array = g_byte_array_new ();
  gsize size;
  const guint8 *data = g_bytes_get_data (worked, &size);

  g_byte_array_append (array, data, size);
  /* the last key's k2 is the payload's last two bytes */
  array->data[size - 2] = (guint8) (k2 & 0xFF);
  array->data[size - 1] = (guint8) (k2 >> 8);
  return g_byte_array_free_to_bytes (array);
}

/* A library of what the JSON must carry raw: bytes after the NULs of a
 * name and a texture, a texture field with no NUL, k2, unknown attr1
 * bits, attr3, metadata bit patterns no float prints (NaN, infinity),
 * every payload version and a MAT0 entry that does not decode. */
static GBytes *
odd_library (void)
{
  g_autoptr(GByteArray) v6 = g_byte_array_new ();
  g_autoptr(GByteArray) v0 = g_byte_array_new ();
  g_autoptr(GByteArray) v2 = g_byte_array_new ();
  g_autoptr(GByteArray) v3 = g_byte_array_new ();
  g_autoptr(GByteArray) v9 = g_byte_array_new ();
  g_autoptr(GBytes) worked = worked_payload (0xBEEF);
  static const guint8 broken[] = { 1, 0, 0 };
  guint8 p[18];
  GByteArray *archive;
  gsize dir;

  for (guint i = 0; i < 18; i++)
    p[i] = (guint8) (i * 13 + 7);

  /* version 6: two phases, one block with keys and k2 */
  test_put_u16 (v6, 2);
  test_put_u16 (v6, 1);
  test_put_u8 (v6, 3);
  test_put_u8 (v6, 4);
  test_put_u32 (v6, 0x7FC00001);   /* a NaN */
  test_put_u32 (v6, 0xDEADBEEF);
  test_put_bytes (v6, p, 18);
  test_put_bytes (v6, "ROCK.0\0tail\x55\x55\x55\x55\x55", 16);
  test_put_bytes (v6, p, 18);
  test_put_bytes (v6, "ABCDEFGH.JKLMNOP", 16);   /* no NUL */
  test_put_u32 (v6, 0xFFFFFFFF);
  test_put_u16 (v6, 2);
  test_put_u16 (v6, 1);
  test_put_u16 (v6, 300);
  test_put_u16 (v6, 0xFFFF);
  test_put_u16 (v6, 0);
  test_put_u16 (v6, 600);
  test_put_u16 (v6, 7);

  /* version 0: no metadata */
  test_put_u16 (v0, 1);
  test_put_u16 (v0, 0);
  test_put_phase (v0, p, "");
  /* version 2: A and B */
  test_put_u16 (v2, 1);
  test_put_u16 (v2, 0);
  test_put_u8 (v2, 9);
  test_put_u8 (v2, 8);
  test_put_phase (v2, p, "\xc1\xd0\xce\xcd\xdf.0");   /* БРОНЯ.0 */
  /* version 3: A, B and C (infinity) */
  test_put_u16 (v3, 0);
  test_put_u16 (v3, 0);
  test_put_u8 (v3, 0);
  test_put_u8 (v3, 255);
  test_put_u32 (v3, 0x7F800000);
  /* version 9: all four */
  test_put_u16 (v9, 0);
  test_put_u16 (v9, 0);
  test_put_u8 (v9, 1);
  test_put_u8 (v9, 2);
  test_put_u32 (v9, 0xFF800001);
  test_put_u32 (v9, 5);

  {
    TestEntrySpec specs[] = {
      { NRES_TYPE_MAT0, 0xFFFFFF81u, 6, 7, "ODD", v6->data, v6->len, 0 },
      { NRES_TYPE_MAT0, 0x44, 0, 0, "V0", v0->data, v0->len, 0 },
      { NRES_TYPE_MAT0, 0x02, 2, 1, "V2", v2->data, v2->len, 0 },
      { NRES_TYPE_MAT0, 0x08, 3, 0, "V3", v3->data, v3->len, 0 },
      { NRES_TYPE_MAT0, 0x00, 9, 0, "V9", v9->data, v9->len, 0 },
      { NRES_TYPE_MAT0, 0x01, 6, 0, "BROKEN", broken, sizeof broken, 0 },
      { NRES_TYPE_MAT0, 0x41, 6, 0, "WORKED", g_bytes_get_data (worked, NULL),
        g_bytes_get_size (worked), 0 },
    };
    g_autoptr(GBytes) bytes = test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);

    archive = g_byte_array_new ();
    g_byte_array_append (archive, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    dir = archive->len - G_N_ELEMENTS (specs) * NRES_ENTRY_SIZE;
  }
  /* bytes after the NUL of the first name: "ODD\0junk" */
  memcpy (archive->data + dir + 20 + 4, "junk\x07\x07", 6);

  return g_byte_array_free_to_bytes (archive);
}

/* Tests */

/* Every demo material, as an entry and as a document, pasted into an
 * empty library: the same bytes. */
static void
test_roundtrip_demo (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MatLibrary) demo = demo_library (&bytes);
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (demo));

  g_assert_nonnull (archive);
  g_assert_cmpuint (n, >=, 20);
  for (int document = 0; document < 2; document++)
    {
      g_autoptr(MatLibrary) target = empty_library ();

      for (guint i = 0; i < n; i++)
        assert_copy_exact (demo, archive, i, target, document);
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (target)), ==, n);
      /* one step each */
      g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (target)), ==, n);
    }
}

/* The bytes no plain value would keep go through exactly. */
static void
test_roundtrip_odd (void)
{
  g_autoptr(GBytes) bytes = odd_library ();
  g_autoptr(MatLibrary) odd = library_from (bytes);
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, NULL);
  g_autoptr(GBytes) demo_bytes = NULL;
  g_autoptr(MatLibrary) target = demo_library (&demo_bytes);
  MatMaterial *broken = mat_library_find (odd, "BROKEN");
  g_autofree char *text = NULL;
  g_autofree char *odd_text = NULL;

  g_assert_nonnull (archive);
  g_assert_nonnull (mat_material_get_error (broken));
  for (guint i = 0; i < archive->n_entries; i++)
    assert_copy_exact (odd, archive, i, target, FALSE);

  /* what made it exact */
  odd_text = mat_material_to_json (mat_library_get_material (odd, 0), NULL);
  g_assert_nonnull (strstr (odd_text, "\"name_raw\": \"T0REAGp1bmsHBwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\""));
  g_assert_nonnull (strstr (odd_text, "\"texture_raw\": \"Uk9DSy4wAHRhaWxVVVVVVQ==\""));
  g_assert_nonnull (strstr (odd_text, "\"texture_raw\": \"QUJDREVGR0guSktMTU5PUA==\""));
  g_assert_nonnull (strstr (odd_text, "\"c_raw\": 2143289345,\n    \"c\": null,"));
  g_assert_nonnull (strstr (odd_text, "\"keys\": [[1,300,65535], [0,600,7]]"));
  g_assert_nonnull (strstr (odd_text, "\"unknown_bits\": 4294967168"));
  text = mat_material_to_json (broken, NULL);
  g_assert_nonnull (strstr (text, "\"payload_base64\": \"AQAA\""));
}

/* The text of a phase and of a material, as they go to the clipboard. */
static void
test_texts (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MatLibrary) demo = demo_library (&bytes);
  MatMaterial *material = mat_library_find (demo, "DEFAULT");
  g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (material), 0);
  g_autofree char *text = mat_phase_to_json (phase);
  g_autofree char *entry = mat_material_to_json (material, NULL);
  g_autofree char *document = mat_material_to_json_document (material, NULL);
  g_autofree char *name = NULL;
  MatJsonKind kind;

  g_assert_cmpstr (text, ==,
                   "{\n"
                   "  \"phase\": {\n"
                   "    \"params\": [64, 64, 64, 100, 200, 200, 200, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255],\n"
                   "    \"texture\": \"ROCK.0\"\n"
                   "  }\n"
                   "}\n");
  g_assert_true (g_str_has_prefix (entry,
                                   "{\n"
                                   "  \"index\": 0,\n"
                                   "  \"name\": \"DEFAULT\",\n"
                                   "  \"type\": \"MAT0\",\n"
                                   "  \"attr1\": 1,\n"
                                   "  \"attr2\": 6,\n"
                                   "  \"attr3\": 0,\n"
                                   "  \"data_offset\": 16,\n"
                                   "  \"size\": 48,\n"
                                   "  \"sort_index\": 0,\n"
                                   "  \"flags\": {\n"));
  g_assert_true (g_str_has_prefix (document,
                                   "{\n"
                                   "  \"archive\": {\n"
                                   "    \"version\": 256,\n"
                                   "    \"entry_count\": 1,\n"
                                   "    \"total_size\": 128,\n"
                                   "    \"sort_index_valid\": true,\n"
                                   "    \"sort_index_canonical\": true\n"
                                   "  },\n"
                                   "  \"entries\": [\n"
                                   "    {\n"
                                   "      \"index\": 0,\n"));

  g_assert_true (mat_json_identify (text, -1, &kind, &name, NULL));
  g_assert_cmpint (kind, ==, MAT_JSON_PHASE);
  g_assert_null (name);
  g_assert_true (mat_json_identify (entry, -1, &kind, &name, NULL));
  g_assert_cmpint (kind, ==, MAT_JSON_MATERIAL);
  g_assert_cmpstr (name, ==, "DEFAULT");
  g_clear_pointer (&name, g_free);
  g_assert_true (mat_json_identify (document, -1, &kind, &name, NULL));
  g_assert_cmpint (kind, ==, MAT_JSON_MATERIAL);
  g_assert_cmpstr (name, ==, "DEFAULT");
}

/* The exported document is what `mat0tool dump` says of the library the
 * canonical writer makes of it: archive values and entry, to the byte. */
static void
test_document_is_a_dump (void)
{
  g_autoptr(GBytes) bytes = odd_library ();
  g_autoptr(MatLibrary) odd = library_from (bytes);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (odd)); i++)
    {
      g_autofree char *text = mat_material_to_json_document (mat_library_get_material (odd, i), NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) built = NULL;
      g_autoptr(NresArchive) archive = NULL;
      g_autoptr(JsonNode) again = NULL;
      g_autoptr(Mat0Material) material = NULL;
      g_autofree char *entry_text = NULL;
      g_autofree char *again_text = NULL;
      NresOutEntry out = { -1, { 0 }, NULL };
      JsonObject *document, *head;
      JsonNode *entry;
      const guint8 *data;
      gsize size;

      g_assert_true (mat_json_load (parser, text, -1, &error));
      g_assert_no_error (error);
      document = json_node_get_object (json_parser_get_root (parser));
      head = json_object_get_object_member (document, "archive");
      entry = json_array_get_element (json_object_get_array_member (document, "entries"), 0);
      g_assert_true (mat_json_entry_parse (entry, "entries[0]", &out.entry, &out.payload, &error));
      g_assert_no_error (error);
      built = nres_write_repack (NULL, &out, 1, &error);
      g_assert_no_error (error);
      g_clear_pointer (&out.payload, g_bytes_unref);
      archive = nres_archive_parse (built, &error);
      g_assert_no_error (error);

      g_assert_cmpint (json_object_get_int_member (head, "version"), ==, archive->version);
      g_assert_cmpint (json_object_get_int_member (head, "entry_count"), ==, archive->n_entries);
      g_assert_cmpint (json_object_get_int_member (head, "total_size"), ==, archive->total_size);
      g_assert_cmpint (json_object_get_boolean_member (head, "sort_index_valid"), ==,
                       archive->sort_index_valid);
      g_assert_cmpint (json_object_get_boolean_member (head, "sort_index_canonical"), ==,
                       archive->sort_index_canonical);

      data = nres_archive_payload (archive, 0, &size);
      material = mat0_decode (data, size, archive->entries[0].attr2, "x", 0, NULL);
      again = mat_json_entry_new (0, &archive->entries[0], material, data, size,
                                  mat_material_get_error (mat_library_get_material (odd, i)));
      entry_text = mat_json_to_string (entry, TRUE);
      again_text = mat_json_to_string (again, TRUE);
      g_assert_cmpstr (entry_text, ==, again_text);
    }
}

/* A name taken: refused with NAME_TAKEN and no change; a free name is
 * offered; pasted under it, one step that undo takes back to the bytes. */
static void
test_paste_clash (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MatLibrary) source = demo_library (&bytes);
  g_autoptr(MatLibrary) target = library_from (bytes);
  MatHistory *history = mat_library_get_history (target);
  MatMaterial *rock = mat_library_find (source, "ROCK_WALL");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *free_name = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GBytes) pasted = NULL;
  g_autoptr(GBytes) original = NULL;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (target));
  MatMaterial *copy;
  NresEntry entry;

  /* an edit first: the copy carries the current state, not the file's */
  {
    g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (rock), 0);

    g_assert_true (mat_phase_set_param (phase, 5, 17, NULL));
  }
  text = mat_material_to_json (rock, &error);
  g_assert_no_error (error);

  g_assert_null (mat_library_paste_material (target, text, -1, NULL, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN);
  g_clear_error (&error);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 0);
  g_assert_false (mat_library_get_dirty (target));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (target)), ==, n);

  /* a different case is the same name */
  g_assert_null (mat_library_paste_material (target, text, -1, "rock_wall", &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN);
  g_clear_error (&error);

  free_name = mat_library_dup_free_name (target, "ROCK_WALL");
  g_assert_cmpstr (free_name, ==, "ROCK_WALL_2");
  copy = mat_library_paste_material (target, text, -1, free_name, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mat_material_get_name (copy), ==, "ROCK_WALL_2");
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Paste Material");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (target)), ==, n + 1);
  g_assert_true (mat_library_get_material (target, n) == copy);

  /* the payload is the edited one of the source */
  pasted = saved_entry (target, n, &entry);
  {
    g_autoptr(Mat0Material) core = mat_material_dup_core (rock);
    g_autoptr(GBytes) expected = mat0_encode (core);

    assert_same_bytes (expected, pasted);
    g_assert_cmpuint (g_bytes_get_size (pasted), >, 22);
    g_assert_cmpuint (((const guint8 *) g_bytes_get_data (pasted, NULL))[14 + 5], ==, 17);
  }
  g_assert_cmpstr (entry.name, ==, "ROCK_WALL_2");

  after = save_bytes (target);
  g_assert_true (mat_history_undo (history));
  undone = save_bytes (target);
  assert_same_bytes (undone, bytes);
  g_assert_false (mat_library_get_dirty (target));
  g_assert_null (mat_library_find (target, "ROCK_WALL_2"));
  g_assert_true (mat_history_redo (history));
  redone = save_bytes (target);
  assert_same_bytes (redone, after);

  /* the next free one */
  g_clear_pointer (&free_name, g_free);
  free_name = mat_library_dup_free_name (target, "rock_wall_2");
  g_assert_cmpstr (free_name, ==, "rock_wall_3");
  original = save_bytes (target);
  g_assert_nonnull (original);
}

/* Free names fit the 35 bytes of a name field. */
static void
test_free_name (void)
{
  g_autoptr(MatLibrary) lib = empty_library ();
  const char *long_name = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345678";   /* 35 */
  const char *cyrillic = "БРОНЯБРОНЯБРОНЯБРОНЯБРОНЯБРОНЯБРОНЯ";  /* 35 */
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;
  g_autofree char *d = NULL;

  g_assert_nonnull (mat_library_add_material (lib, long_name, NULL));
  a = mat_library_dup_free_name (lib, long_name);
  g_assert_cmpstr (a, ==, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456_2");
  g_assert_nonnull (mat_library_add_material (lib, a, NULL));
  b = mat_library_dup_free_name (lib, long_name);
  g_assert_cmpstr (b, ==, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456_3");

  g_assert_nonnull (mat_library_add_material (lib, cyrillic, NULL));
  c = mat_library_dup_free_name (lib, cyrillic);
  g_assert_cmpstr (c, ==, "БРОНЯБРОНЯБРОНЯБРОНЯБРОНЯБРОНЯБРО_2");

  /* free as it is */
  d = mat_library_dup_free_name (lib, "FREE");
  g_assert_cmpstr (d, ==, "FREE");
}

/* A phase replaces the selected one: 34 bytes, one step, undo and redo
 * to the bytes; or goes in as a new phase, keys following. */
static void
test_paste_phase (void)
{
  g_autoptr(GBytes) bytes = odd_library ();
  g_autoptr(MatLibrary) source = library_from (bytes);
  g_autoptr(GBytes) demo_bytes = NULL;
  g_autoptr(MatLibrary) target = demo_library (&demo_bytes);
  MatHistory *history = mat_library_get_history (target);
  MatMaterial *odd = mat_library_find (source, "ODD");
  MatMaterial *glow = mat_library_find (target, "GLOW_PULSE");
  g_autoptr(MatPhase) from = g_list_model_get_item (mat_material_get_phases (odd), 0);
  g_autofree char *text = mat_phase_to_json (from);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) replaced = NULL;
  g_autoptr(GBytes) inserted = NULL;
  g_autoptr(GBytes) now = NULL;
  guint index = (guint) mat_library_index_of (target, glow);
  guint n_phases = mat_material_get_n_phases (glow);
  MatPhase *phase;
  NresEntry entry;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(Mat0Material) core = NULL;
  GArray *k0_before;

  g_assert_cmpuint (n_phases, >=, 2);

  phase = mat_material_paste_phase (glow, 1, TRUE, text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mat_phase_get_index (phase), ==, 1);
  g_assert_cmpmem (mat_phase_get_params (phase), 18, mat_phase_get_params (from), 18);
  g_assert_cmpmem (mat_phase_get_texture_raw (phase), 16, "ROCK.0\0tail\x55\x55\x55\x55\x55", 16);
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "ROCK.0");
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Paste Phase");
  g_assert_cmpuint (mat_material_get_n_phases (glow), ==, n_phases);

  /* in the saved payload: phase 1's 34 bytes (after the 14-byte head of version 6) */
  payload = saved_entry (target, index, &entry);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (payload, NULL) + 14 + 34, 18,
                   mat_phase_get_params (from), 18);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (payload, NULL) + 14 + 34 + 18, 16,
                   "ROCK.0\0tail\x55\x55\x55\x55\x55", 16);

  replaced = save_bytes (target);
  g_assert_true (mat_history_undo (history));
  now = save_bytes (target);
  assert_same_bytes (now, demo_bytes);
  g_clear_pointer (&now, g_bytes_unref);
  g_assert_true (mat_history_redo (history));
  now = save_bytes (target);
  assert_same_bytes (now, replaced);
  g_clear_pointer (&now, g_bytes_unref);
  g_assert_true (mat_history_undo (history));

  /* the same phase again: nothing to do, no step */
  g_assert_true (mat_history_redo (history));
  g_assert_nonnull (mat_material_paste_phase (glow, 1, TRUE, text, -1, &error));
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_true (mat_history_undo (history));

  /* inserted at 0: the keys that pointed at phase k point at k + 1 */
  core = mat_material_dup_core (glow);
  g_assert_cmpuint (core->n_blocks, >, 0);
  k0_before = g_array_new (FALSE, FALSE, sizeof (guint16));
  for (guint k = 0; k < core->blocks[0].n_keys; k++)
    g_array_append_val (k0_before, core->blocks[0].keys[k].k0);
  phase = mat_material_paste_phase (glow, 0, FALSE, text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mat_phase_get_index (phase), ==, 0);
  g_assert_cmpuint (mat_material_get_n_phases (glow), ==, n_phases + 1);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  {
    g_autoptr(Mat0Material) after = mat_material_dup_core (glow);

    g_assert_cmpmem (after->phases[0].p, 18, mat_phase_get_params (from), 18);
    for (guint k = 0; k < after->blocks[0].n_keys; k++)
      g_assert_cmpuint (after->blocks[0].keys[k].k0, ==, g_array_index (k0_before, guint16, k) + 1);
  }
  g_array_unref (k0_before);
  inserted = save_bytes (target);
  g_assert_true (mat_history_undo (history));
  now = save_bytes (target);
  assert_same_bytes (now, demo_bytes);
  g_clear_pointer (&now, g_bytes_unref);
  g_assert_true (mat_history_redo (history));
  now = save_bytes (target);
  assert_same_bytes (now, inserted);
}

/* Anything else is refused with a message, and nothing changes. */
static void
test_bad_input (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MatLibrary) lib = demo_library (&bytes);
  MatHistory *history = mat_library_get_history (lib);
  MatMaterial *rock = mat_library_find (lib, "ROCK_WALL");
  g_autoptr(GString) deep = g_string_new ("{\"phase\": ");
  static const struct {
    const char *text;
    const char *message;
  } materials[] = {
    { "", "neither a material" },
    { "ROCK_WALL", "The text is not JSON" },
    { "[1, 2]", "neither a material" },
    { "{\"name\": \"X\"}", "neither a material" },
    { "{\"entries\": []}", "The document holds 0 entries" },
    { "{\"entries\": [{\"name\": \"A\", \"type\": \"MAT0\"}, {\"name\": \"B\", \"type\": \"MAT0\"}]}",
      "The document holds 2 entries" },
    { "{\"phase\": {\"params\": [], \"texture\": \"\"}}", "holds a phase, not a material" },
    { "{\"name\": \"NEW\", \"type\": \"MAT0\", \"attr2\": 6, \"phases\": [{\"params\": "
      "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,300]}], \"blocks\": []}",
      "entry (NEW).phases[0].params[17]: expected an integer 0..255, found 300" },
    { "{\"name\": \"NEW\", \"type\": \"MAT0\", \"attr2\": 6, \"phases\": [], \"blocks\": [{\"keys\": [[1]]}]}",
      "entry (NEW).blocks[0].keys[0]: expected [k0, k1, k2], found an array of 1" },
    { "{\"name\": \"NEW\", \"type\": \"MAT0\", \"attr2\": 6, \"phases\": []}",
      "entry (NEW): expected an array \"blocks\", found none" },
    { "{\"name\": \"NEW\", \"type\": \"MAT0\", \"payload_base64\": \"A!==\"}",
      "entry (NEW).payload_base64: expected base64 text" },
    { "{\"entries\": [{\"name\": \"TEX\", \"type\": \"Texm\", \"payload_base64\": \"AAAA\"}]}",
      "“TEX” is an entry of type Texm, not a material" },
    { "{\"name\": \"ROCK\u4e2dWALL\", \"type\": \"MAT0\", \"phases\": [], \"blocks\": []}",
      "expected a name of 1..35 CP1251 bytes" },
    { "{\"name\": \"\xff\xfe\", \"type\": \"MAT0\"}", "The text is not UTF-8" },
  };

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');

  for (guint i = 0; i < G_N_ELEMENTS (materials); i++)
    {
      g_autoptr(GError) error = NULL;

      if (g_utf8_validate (materials[i].text, -1, NULL))
        g_test_message ("%s", materials[i].text);
      g_assert_null (mat_library_paste_material (lib, materials[i].text, -1, NULL, &error));
      g_assert_nonnull (error);
      g_test_message ("-> %s", error->message);
      g_assert_nonnull (strstr (error->message, materials[i].message));
    }
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (mat_library_paste_material (lib, deep->str, -1, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_nonnull (strstr (error->message, "expected at most 64 levels"));
    g_clear_error (&error);
    g_assert_null (mat_material_paste_phase (rock, 0, TRUE, deep->str, -1, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_clear_error (&error);

    g_assert_null (mat_material_paste_phase (rock, 0, TRUE, "{\"phase\": {\"params\": [1, 2]}}", -1, &error));
    g_assert_nonnull (strstr (error->message, "phase: expected 18 params, found 2"));
    g_clear_error (&error);
    g_assert_null (mat_material_paste_phase (rock, 0, FALSE,
                                             "{\"name\": \"X\", \"type\": \"MAT0\"}", -1, &error));
    g_assert_nonnull (strstr (error->message, "holds a material, not a phase"));
    g_clear_error (&error);
    g_assert_null (mat_material_paste_phase (rock, 0, TRUE,
                                             "{\"phase\": {\"params\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"
                                             " \"texture\": \"MUCH_TOO_LONG.NAME\"}}", -1, &error));
    g_assert_nonnull (strstr (error->message, "phase.texture: "));
  }

  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 0);
  g_assert_false (mat_library_get_dirty (lib));
  {
    g_autoptr(GBytes) now = save_bytes (lib);

    assert_same_bytes (now, bytes);
  }
}

/* ---- decoded off the main thread ------------------------------------- */

static void
decoded_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  MatJsonItem **out = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  *out = mat_json_item_decode_finish (result, &error);
  g_assert_no_error (error);
}

/* A material decoded (in a worker), then pasted: the same bytes as the
 * direct paste; an item pastes once as itself, then as a copy under
 * another name; a phase item pastes into a material. */
static void
test_decode_item (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MatLibrary) source = demo_library (&bytes);
  g_autoptr(MatLibrary) target = empty_library ();
  g_autoptr(MatLibrary) direct = empty_library ();
  MatMaterial *water = mat_library_find (source, "WATER_SURFACE");
  g_autofree char *text = mat_material_to_json (water, NULL);
  g_autofree char *phase_text = NULL;
  g_autoptr(GBytes) text_bytes = g_bytes_new (text, strlen (text));
  g_autoptr(MatJsonItem) item = NULL;
  g_autoptr(MatJsonItem) phase_item = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) via_item = NULL;
  g_autoptr(GBytes) via_text = NULL;
  MatMaterial *pasted, *again;
  NresEntry a, b;

  mat_json_item_decode_async (text_bytes, NULL, decoded_cb, &item);
  while (item == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (mat_json_item_get_kind (item), ==, MAT_JSON_MATERIAL);
  g_assert_cmpstr (mat_json_item_get_name (item), ==, "WATER_SURFACE");
  g_assert_null (mat_json_item_get_error (item));

  pasted = mat_library_paste_item (target, item, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (pasted);
  g_assert_cmpuint (mat_material_get_n_blocks (pasted), ==, mat_material_get_n_blocks (water));
  g_assert_nonnull (mat_library_paste_material (direct, text, -1, NULL, &error));
  g_assert_no_error (error);
  via_item = saved_entry (target, 0, &a);
  via_text = saved_entry (direct, 0, &b);
  assert_same_bytes (via_item, via_text);
  g_assert_cmpmem (&a, sizeof a, &b, sizeof b);

  /* the same item again: its name is taken now; under another name a
   * new material of the same payload */
  g_assert_null (mat_library_paste_item (target, item, NULL, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN);
  g_clear_error (&error);
  again = mat_library_paste_item (target, item, "WATER_2", &error);
  g_assert_no_error (error);
  g_assert_true (again != pasted);
  g_assert_cmpstr (mat_material_get_name (again), ==, "WATER_2");
  {
    g_autoptr(GBytes) second = saved_entry (target, 1, &b);

    assert_same_bytes (second, via_text);
    g_assert_cmpstr (b.name, ==, "WATER_2");
  }
  /* the lints made in the decode name a copy by its own name, and its
   * index in the library */
  {
    MatMaterial *lint = mat_library_find (source, "LINT_EXAMPLE");
    g_autofree char *lint_text = mat_material_to_json (lint, NULL);
    g_autoptr(MatJsonItem) lint_item = mat_json_item_decode (lint_text, -1, &error);
    g_autoptr(GPtrArray) lints = NULL;
    MatMaterial *copy;

    g_assert_no_error (error);
    copy = mat_library_paste_item (target, lint_item, "LINT_2", &error);
    g_assert_no_error (error);
    lints = mat_material_dup_diagnostics (copy);
    g_assert_cmpuint (lints->len, >, 0);
    for (guint i = 0; i < lints->len; i++)
      {
        Mat0Diagnostic *diag = lints->pdata[i];

        g_assert_cmpstr (diag->entry_name, ==, "LINT_2");
        g_assert_true (g_str_has_prefix (diag->message, "LINT_2: offset "));
        g_assert_cmpint (diag->entry, ==, 2);
      }
  }

  /* a phase: into a material, not into a library */
  {
    g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (water), 1);
    g_autoptr(MatPhase) first = g_list_model_get_item (mat_material_get_phases (pasted), 0);
    MatPhase *written;

    phase_text = mat_phase_to_json (phase);
    phase_item = mat_json_item_decode (phase_text, -1, &error);
    g_assert_no_error (error);
    g_assert_cmpint (mat_json_item_get_kind (phase_item), ==, MAT_JSON_PHASE);
    g_assert_null (mat_json_item_get_name (phase_item));
    g_assert_null (mat_library_paste_item (target, phase_item, NULL, &error));
    g_assert_nonnull (strstr (error->message, "holds a phase, not a material"));
    g_clear_error (&error);
    g_assert_null (mat_material_paste_phase_item (pasted, 0, TRUE, item, &error));
    g_assert_nonnull (strstr (error->message, "holds a material, not a phase"));
    g_clear_error (&error);
    written = mat_material_paste_phase_item (pasted, 0, TRUE, phase_item, &error);
    g_assert_no_error (error);
    g_assert_true (written == first);
    g_assert_cmpmem (mat_phase_get_params (first), 18, mat_phase_get_params (phase), 18);
  }
}

/* Values that are wrong still make an item (its kind is known), and its
 * paste fails with their message; what is neither makes none. */
static void
test_decode_item_errors (void)
{
  g_autoptr(MatLibrary) lib = empty_library ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MatJsonItem) item = NULL;

  g_assert_null (mat_json_item_decode ("[1, 2]", -1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  item = mat_json_item_decode ("{\"name\": \"NEW\", \"type\": \"MAT0\", \"attr2\": 6, \"phases\": []}",
                               -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mat_json_item_get_kind (item), ==, MAT_JSON_MATERIAL);
  g_assert_cmpstr (mat_json_item_get_name (item), ==, "NEW");
  g_assert_nonnull (mat_json_item_get_error (item));
  g_assert_null (mat_library_paste_item (lib, item, NULL, &error));
  g_assert_cmpstr (error->message, ==, mat_json_item_get_error (item)->message);
  g_assert_nonnull (strstr (error->message, "entry (NEW): expected an array \"blocks\", found none"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (lib)), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("DEMO_LIB") == NULL)
    {
      g_printerr ("DEMO_LIB is not set (run through meson test)\n");
      return 77;
    }

  g_test_add_func ("/model/json/roundtrip-demo", test_roundtrip_demo);
  g_test_add_func ("/model/json/roundtrip-odd", test_roundtrip_odd);
  g_test_add_func ("/model/json/texts", test_texts);
  g_test_add_func ("/model/json/document-is-a-dump", test_document_is_a_dump);
  g_test_add_func ("/model/json/paste-clash", test_paste_clash);
  g_test_add_func ("/model/json/free-name", test_free_name);
  g_test_add_func ("/model/json/paste-phase", test_paste_phase);
  g_test_add_func ("/model/json/decode-item", test_decode_item);
  g_test_add_func ("/model/json/decode-item-errors", test_decode_item_errors);
  g_test_add_func ("/model/json/bad-input", test_bad_input);

  return g_test_run ();
}
