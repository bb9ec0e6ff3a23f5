/* mat0tool-json.c - the dump, eval and build documents of cli.md
 *
 * The entries of the dump and build documents are written and read by
 * the model (mat-material-json.h), as the editor's clipboard and files
 * are: one schema, one reader, one writer. This file streams the
 * document around them, one entry at a time. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "mat-material-json.h"
#include "mat0tool.h"

char *
mt_json_to_string (JsonNode *node, gboolean pretty)
{
  return mat_json_to_string (node, pretty);
}

/* ---- dump: written as it is made --------------------------------------- */

/* The document as mt_json_to_string (@pretty) would write it, without
 * building it: the archive object, then each entry made, written at its
 * depth and dropped. */
gboolean
mt_json_dump (MtLibrary *library, const guint *indices, guint n_indices, FILE *out)
{
  const NresArchive *archive = library->archive;
  g_autoptr(JsonNode) head = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GString) text = g_string_new ("{\n  \"archive\": ");
  JsonObject *object = json_object_new ();

  json_object_set_int_member (object, "version", archive->version);
  json_object_set_int_member (object, "entry_count", archive->n_entries);
  json_object_set_int_member (object, "total_size", archive->total_size);
  json_object_set_boolean_member (object, "sort_index_valid", archive->sort_index_valid);
  json_object_set_boolean_member (object, "sort_index_canonical", archive->sort_index_canonical);
  json_node_take_object (head, object);
  mat_json_write (text, head, TRUE, 1);
  g_string_append (text, ",\n  \"entries\": [");
  fwrite (text->str, 1, text->len, out);

  for (guint n = 0; n < n_indices && !ferror (out); n++)
    {
      guint i = indices[n];
      const NresEntry *entry = &archive->entries[i];
      g_autoptr(JsonNode) node = NULL;
      const guint8 *data;
      gsize size;

      /* One entry decoded at a time; its decode error is kept for the
       * report at the end. */
      mt_library_decode (library, i);
      data = nres_archive_payload (archive, i, &size);
      node = mat_json_entry_new (i, entry, library->materials[i], data, size,
                                 library->errors[i] != NULL ? library->errors[i]->message : NULL);
      g_string_assign (text, n > 0 ? ",\n    " : "\n    ");
      mat_json_write (text, node, TRUE, 2);
      fwrite (text->str, 1, text->len, out);
      g_clear_pointer (&library->materials[i], mat0_material_free);
    }
  fputs (n_indices > 0 ? "\n  ]\n}\n" : "]\n}\n", out);

  return !ferror (out);
}

/* ---- the builder helpers of the small documents ----------------------- */

static void
add_int (JsonBuilder *b, const char *key, gint64 value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, value);
}

static void
add_bool (JsonBuilder *b, const char *key, gboolean value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_boolean_value (b, value);
}

static void
add_string (JsonBuilder *b, const char *key, const char *value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, value);
}

/* ---- eval ------------------------------------------------------------- */

JsonNode *
mt_json_eval (const char            *material,
              gint                   block,
              const Mat0Material    *mat,
              const PhaseEvalResult *r)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *texture = NULL;

  if (r->phase_a >= 0 && mat0_phase_is_textured (&mat->phases[r->phase_a]))
    texture = mat0_phase_dup_texture (&mat->phases[r->phase_a]);

  json_builder_begin_object (b);
  add_string (b, "material", material);
  add_int (b, "block", block);
  add_int (b, "mode", r->mode);
  add_int (b, "cycle", r->period);   /* cli.md: the period */
  add_int (b, "r", r->r);
  add_int (b, "segment", r->segment);
  add_int (b, "next", r->next);
  json_builder_set_member_name (b, "alpha");
  json_builder_add_double_value (b, r->alpha);
  add_int (b, "phase_a", r->phase_a);
  add_int (b, "phase_b", r->phase_b);
  add_bool (b, "hold", r->hold);
  add_bool (b, "unknown_mode", r->unknown_mode);
  add_bool (b, "bad_key", r->bad_key);
  json_builder_set_member_name (b, "f");
  json_builder_begin_array (b);
  for (guint i = 0; i < 16; i++)
    json_builder_add_double_value (b, r->value.f[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "power");
  json_builder_add_double_value (b, r->value.power);
  json_builder_set_member_name (b, "texture");
  if (texture != NULL)
    json_builder_add_string_value (b, texture);
  else
    json_builder_add_null_value (b);
  add_int (b, "tex_slot", r->value.tex_slot);
  add_int (b, "i18", r->value.i18);
  json_builder_end_object (b);

  return json_builder_get_root (b);
}
