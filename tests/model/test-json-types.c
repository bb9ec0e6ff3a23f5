/* test-json-types.c - the editor's paste refuses what `build` refuses
 *
 * The paste and .json import read an entry with the same function as
 * mat0tool build (mat_json_entry_parse): every member's JSON type is
 * checked, with the path of the value at fault, and nothing reaches a
 * GLib critical (G_DEBUG=fatal-criticals).
 */
#include "config.h"

#include <string.h>

#include "mat-library.h"
#include "mat-material-json.h"
#include "hostile-json.h"
#include "nres.h"
#include "test-support.h"

static MatLibrary *
empty_library (void)
{
  g_autoptr(GBytes) bytes = test_build_archive (NULL, 0, TRUE);
  g_autoptr(GError) error = NULL;
  MatLibrary *lib = mat_library_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  return lib;
}

static void
test_paste_refuses_hostile (void)
{
  g_autoptr(MatLibrary) lib = empty_library ();

  g_assert_nonnull (strstr (g_getenv ("G_DEBUG"), "fatal-criticals"));
  for (guint i = 0; i < G_N_ELEMENTS (hostile_json); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"entries\": [%s]}", hostile_json[i].entry);
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", text);
      g_assert_null (mat_library_paste_material (lib, text, -1, NULL, &error));
      g_test_message ("-> %s", error->message);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, hostile_json[i].message));
    }
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (lib)), ==, 0);
  g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (lib)), ==, 0);
  g_assert_false (mat_library_get_dirty (lib));
}

/* The entry alone, as mat0tool build reads it, and the phase paste. */
static void
test_entry_parse_refuses_hostile (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (hostile_json); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new_immutable ();
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) payload = NULL;
      NresEntry entry;

      if (!mat_json_load_at (parser, hostile_json[i].entry, -1, "entries[0]", &error))
        {
          /* what json-glib would lose: refused before it parses */
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
          g_assert_nonnull (strstr (error->message, hostile_json[i].message));
          continue;
        }
      g_assert_false (mat_json_entry_parse (json_parser_get_root (parser), "entries[0]",
                                            &entry, &payload, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, hostile_json[i].message));
      g_assert_null (payload);
    }
}

static void
test_phase_paste_types (void)
{
  static const HostileJson phases[] = {
    { "{\"phase\": {\"params\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], \"texture\": 5}}",
      "phase.texture: expected a string or null, found a number" },
    { "{\"phase\": {\"params\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0], \"texture\": \"A\\u0000B\"}}",
      "phase.texture: expected text without NUL characters" },
    { "{\"phase\": {\"params\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,true]}}",
      "phase.params[17]: expected an integer 0..255, found true" },
  };
  g_autoptr(GBytes) bytes = test_load_file (g_getenv ("DEMO_LIB"));
  g_autoptr(GError) error = NULL;
  g_autoptr(MatLibrary) lib = mat_library_new_from_bytes (bytes, &error);
  MatMaterial *material;

  g_assert_no_error (error);
  material = mat_library_get_material (lib, 0);
  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    {
      g_autoptr(GError) local = NULL;

      g_assert_null (mat_material_paste_phase (material, 0, TRUE, phases[i].entry, -1, &local));
      g_test_message ("-> %s", local->message);
      g_assert_error (local, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (local->message, phases[i].message));
    }
  g_assert_false (mat_library_get_dirty (lib));
}

/* A material that does not decode travels with "error" (the editor's
 * copy of it writes one) and is pasted byte for byte. */
static void
test_paste_undecodable_with_error (void)
{
  static const guint8 payload[] = { 1, 0 };
  g_autoptr(MatLibrary) lib = empty_library ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(NresArchive) archive = NULL;
  MatMaterial *pasted;
  const guint8 *data;
  gsize size;

  pasted = mat_library_paste_material (lib, "{\"entries\": [{\"name\": \"CUT\", \"type\": \"MAT0\", "
                                            "\"attr2\": 6, \"payload_base64\": \"AQA=\", "
                                            "\"error\": \"cut short\"}]}", -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (pasted);
  saved = mat_library_save_to_bytes (lib, &error);
  g_assert_no_error (error);
  archive = nres_archive_parse (saved, &error);
  g_assert_no_error (error);
  data = nres_archive_payload (archive, 0, &size);
  g_assert_cmpmem (data, size, payload, sizeof payload);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/json-types/paste-refuses-hostile", test_paste_refuses_hostile);
  g_test_add_func ("/model/json-types/entry-parse-refuses-hostile", test_entry_parse_refuses_hostile);
  g_test_add_func ("/model/json-types/phase-paste", test_phase_paste_types);
  g_test_add_func ("/model/json-types/paste-undecodable-with-error", test_paste_undecodable_with_error);
  return g_test_run ();
}
