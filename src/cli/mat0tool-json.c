/* mat0tool-json.c - the dump, eval and build documents of cli.md */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cp1251.h"
#include "mat0-flags.h"
#include "mat0tool.h"

/* ---- writing ---------------------------------------------------------- */

static void
write_string (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) s; *p != 0; p++)
    {
      switch (*p)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, (char) *p);
        }
    }
  g_string_append_c (out, '"');
}

static void
write_double (GString *out, double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      /* JSON has no NaN or infinity; the evaluator never produces them
       * from byte inputs, but a raw metaC can hold any bit pattern. */
      g_string_append (out, "null");
      return;
    }
  g_ascii_formatd (buf, sizeof buf, "%.9g", value);
  g_string_append (out, buf);
  if (strpbrk (buf, ".eE") == NULL)
    g_string_append (out, ".0");
}

static void
write_indent (GString *out, gboolean pretty, guint depth)
{
  if (!pretty)
    return;
  g_string_append_c (out, '\n');
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

/* Arrays of plain numbers stay on one line, as in the examples of cli.md. */
static gboolean
array_is_flat (JsonArray *array)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (JSON_NODE_HOLDS_OBJECT (json_array_get_element (array, i)))
      return FALSE;
  return TRUE;
}

static void
write_node (GString *out, JsonNode *node, gboolean pretty, guint depth)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(GList) members = json_object_get_members (object);
        gboolean first = TRUE;

        g_string_append_c (out, '{');
        for (GList *l = members; l != NULL; l = l->next)
          {
            if (!first)
              g_string_append_c (out, ',');
            first = FALSE;
            write_indent (out, pretty, depth + 1);
            write_string (out, l->data);
            g_string_append (out, pretty ? ": " : ":");
            write_node (out, json_object_get_member (object, l->data), pretty, depth + 1);
          }
        if (!first)
          write_indent (out, pretty, depth);
        g_string_append_c (out, '}');
        break;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        gboolean flat = array_is_flat (array);

        g_string_append_c (out, '[');
        for (guint i = 0; i < json_array_get_length (array); i++)
          {
            if (i > 0)
              g_string_append (out, flat && pretty ? ", " : ",");
            if (!flat)
              write_indent (out, pretty, depth + 1);
            write_node (out, json_array_get_element (array, i), pretty && !flat, depth + 1);
          }
        if (!flat && json_array_get_length (array) > 0)
          write_indent (out, pretty, depth);
        g_string_append_c (out, ']');
        break;
      }
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          break;
        case G_TYPE_DOUBLE:
          write_double (out, json_node_get_double (node));
          break;
        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          break;
        case G_TYPE_STRING:
          write_string (out, json_node_get_string (node));
          break;
        default:
          g_string_append (out, "null");
        }
      break;
    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
      break;
    }
}

char *
mt_json_to_string (JsonNode *node, gboolean pretty)
{
  GString *out = g_string_new (NULL);

  write_node (out, node, pretty, 0);
  return g_string_free (out, FALSE);
}

/* ---- dump ------------------------------------------------------------- */

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

static void
add_base64 (JsonBuilder *b, const char *key, const guint8 *data, gsize len)
{
  g_autofree char *text = g_base64_encode (data, len);

  add_string (b, key, text);
}

/* Whether the UTF-8 form of a NUL-terminated field encodes back to the
 * very same bytes (no undefined byte, nothing after the NUL). */
static gboolean
field_is_plain (const guint8 *field, gsize size)
{
  g_autofree char *utf8 = cp1251_to_utf8 (field, size);
  g_autofree guint8 *back = g_malloc0 (size + 1);

  if (!cp1251_from_utf8 (utf8, back, size + 1, NULL))
    return FALSE;
  return memcmp (back, field, size) == 0;
}

static void
dump_material (JsonBuilder *b, const NresEntry *entry, const Mat0Material *m)
{
  guint32 attr1 = entry->attr1;
  GString *present = g_string_new (NULL);

  json_builder_set_member_name (b, "flags");
  json_builder_begin_object (b);
  add_bool (b, "ext_texture_load", mat0_flags_ext_texture_load (attr1));
  add_bool (b, "hw_profile", mat0_flags_hw_profile (attr1));
  add_int (b, "nibble_mode", mat0_flags_nibble_mode (attr1));
  add_bool (b, "behaviour", mat0_flags_behaviour (attr1));
  add_int (b, "unknown_bits", mat0_flags_unknown_bits (attr1));
  json_builder_end_object (b);

  json_builder_set_member_name (b, "meta");
  json_builder_begin_object (b);
  add_int (b, "a", m->meta_a);
  add_int (b, "b", m->meta_b);
  add_int (b, "c_raw", m->meta_c);
  {
    union { guint32 u; float f; } c = { .u = m->meta_c };
    json_builder_set_member_name (b, "c");
    json_builder_add_double_value (b, c.f);
  }
  add_int (b, "d", m->meta_d);
  add_bool (b, "from_file", mat0_has_meta_d (m->attr2));
  json_builder_set_member_name (b, "fields");
  json_builder_begin_array (b);
  if (mat0_has_meta_ab (m->attr2))
    {
      json_builder_add_string_value (b, "a");
      json_builder_add_string_value (b, "b");
    }
  if (mat0_has_meta_c (m->attr2))
    json_builder_add_string_value (b, "c");
  if (mat0_has_meta_d (m->attr2))
    json_builder_add_string_value (b, "d");
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_string_free (present, TRUE);

  json_builder_set_member_name (b, "phases");
  json_builder_begin_array (b);
  for (guint i = 0; i < m->n_phases; i++)
    {
      const Mat0Phase *phase = &m->phases[i];
      g_autofree char *texture = mat0_phase_dup_texture (phase);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "params");
      json_builder_begin_array (b);
      for (guint j = 0; j < MAT0_PARAM_COUNT; j++)
        json_builder_add_int_value (b, phase->p[j]);
      json_builder_end_array (b);
      add_string (b, "texture", texture);
      if (!field_is_plain (phase->texture, MAT0_TEXTURE_SIZE))
        add_base64 (b, "texture_raw", phase->texture, MAT0_TEXTURE_SIZE);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "blocks");
  json_builder_begin_array (b);
  for (guint i = 0; i < m->n_blocks; i++)
    {
      const Mat0Block *block = &m->blocks[i];

      json_builder_begin_object (b);
      add_int (b, "header_raw", block->header_raw);
      add_int (b, "mode", mat0_block_mode (block));
      add_int (b, "interp_mask", mat0_block_interp_mask (block));
      json_builder_set_member_name (b, "keys");
      json_builder_begin_array (b);
      for (guint k = 0; k < block->n_keys; k++)
        {
          json_builder_begin_array (b);
          json_builder_add_int_value (b, block->keys[k].k0);
          json_builder_add_int_value (b, block->keys[k].k1);
          json_builder_add_int_value (b, block->keys[k].k2);
          json_builder_end_array (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

JsonNode *
mt_json_dump (const MtLibrary *library, const guint *indices, guint n_indices)
{
  const NresArchive *archive = library->archive;
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "archive");
  json_builder_begin_object (b);
  add_int (b, "version", archive->version);
  add_int (b, "entry_count", archive->n_entries);
  add_int (b, "total_size", archive->total_size);
  add_bool (b, "sort_index_valid", archive->sort_index_valid);
  add_bool (b, "sort_index_canonical", archive->sort_index_canonical);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "entries");
  json_builder_begin_array (b);
  for (guint n = 0; n < n_indices; n++)
    {
      guint i = indices[n];
      const NresEntry *entry = &archive->entries[i];
      g_autofree char *type = mt_type_name (entry->type_id);

      json_builder_begin_object (b);
      add_int (b, "index", i);
      add_string (b, "name", library->names[i]);
      if (!field_is_plain ((const guint8 *) entry->name, NRES_NAME_SIZE))
        add_base64 (b, "name_raw", (const guint8 *) entry->name, NRES_NAME_SIZE);
      add_string (b, "type", type);
      add_int (b, "attr1", entry->attr1);
      add_int (b, "attr2", entry->attr2);
      add_int (b, "attr3", entry->attr3);
      add_int (b, "data_offset", entry->data_offset);
      add_int (b, "size", entry->size);
      add_int (b, "sort_index", entry->sort_index);
      if (library->materials[i] != NULL)
        dump_material (b, entry, library->materials[i]);
      else
        {
          gsize size;
          const guint8 *data = nres_archive_payload (archive, i, &size);

          if (library->errors[i] != NULL)
            add_string (b, "error", library->errors[i]->message);
          /* Other entry types (and MAT0 entries that do not decode) carry
           * their bytes so that `build` can put them back. */
          add_base64 (b, "payload_base64", data, size);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  return json_builder_get_root (b);
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

/* ---- build ------------------------------------------------------------ */

static gboolean
get_uint (JsonObject *object, const char *key, const char *where,
          guint64 max, gboolean required, guint64 *out, GError **error)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL)
    {
      if (!required)
        return TRUE;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: expected member \"%s\", found none", where, key);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 0 || (guint64) json_node_get_int (node) > max)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s.%s: expected an integer 0..%" G_GUINT64_FORMAT ", found %s",
                   where, key, max,
                   JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64
                     ? "one out of range" : "another kind of value");
      return FALSE;
    }
  *out = (guint64) json_node_get_int (node);
  return TRUE;
}

static gboolean
get_uint_element (JsonArray *array, guint index, const char *where,
                  guint64 max, guint64 *out, GError **error)
{
  JsonNode *node = json_array_get_element (array, index);

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 0 || (guint64) json_node_get_int (node) > max)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s[%u]: expected an integer 0..%" G_GUINT64_FORMAT ", found another value",
                   where, index, max);
      return FALSE;
    }
  *out = (guint64) json_node_get_int (node);
  return TRUE;
}

static JsonArray *
get_array (JsonObject *object, const char *key, const char *where, GError **error)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: expected an array \"%s\", found %s", where, key,
                   node == NULL ? "none" : "another kind of value");
      return NULL;
    }
  return json_node_get_array (node);
}

static const char *
get_string (JsonObject *object, const char *key)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
get_base64 (JsonObject *object, const char *key, const char *where,
            gsize expected, GBytes **out, GError **error)
{
  const char *text = get_string (object, key);
  guchar *data;
  gsize len;

  if (text == NULL)
    return TRUE;
  data = g_base64_decode (text, &len);
  if (expected != 0 && len != expected)
    {
      g_free (data);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s.%s: expected %" G_GSIZE_FORMAT " bytes, found %" G_GSIZE_FORMAT,
                   where, key, expected, len);
      return FALSE;
    }
  *out = g_bytes_new_take (data, len);
  return TRUE;
}

static gboolean
parse_type (const char *text, guint32 *out)
{
  if (text == NULL)
    return FALSE;
  if (strlen (text) == 4)
    {
      *out = (guint32) (guchar) text[0] | ((guint32) (guchar) text[1] << 8) |
             ((guint32) (guchar) text[2] << 16) | ((guint32) (guchar) text[3] << 24);
      return TRUE;
    }
  if (g_str_has_prefix (text, "0x"))
    {
      guint64 v;
      if (g_ascii_string_to_unsigned (text + 2, 16, 0, G_MAXUINT32, &v, NULL))
        {
          *out = (guint32) v;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
build_material (JsonObject *object, const char *where, guint32 attr2,
                Mat0Material *m, GError **error)
{
  JsonArray *phases, *blocks;
  JsonNode *meta_node;
  guint64 v;

  m->attr2 = attr2;
  m->meta_a = MAT0_DEFAULT_META_A;
  m->meta_b = MAT0_DEFAULT_META_B;
  m->meta_c = MAT0_DEFAULT_META_C;
  m->meta_d = MAT0_DEFAULT_META_D;

  meta_node = json_object_get_member (object, "meta");
  if (meta_node != NULL && JSON_NODE_HOLDS_OBJECT (meta_node))
    {
      JsonObject *meta = json_node_get_object (meta_node);
      g_autofree char *mwhere = g_strdup_printf ("%s.meta", where);

      v = m->meta_a;
      if (!get_uint (meta, "a", mwhere, 255, FALSE, &v, error))
        return FALSE;
      m->meta_a = (guint8) v;
      v = m->meta_b;
      if (!get_uint (meta, "b", mwhere, 255, FALSE, &v, error))
        return FALSE;
      m->meta_b = (guint8) v;
      if (json_object_has_member (meta, "c_raw"))
        {
          if (!get_uint (meta, "c_raw", mwhere, G_MAXUINT32, TRUE, &v, error))
            return FALSE;
          m->meta_c = (guint32) v;
        }
      else if (json_object_has_member (meta, "c"))
        {
          union { guint32 u; float f; } c;
          c.f = (float) json_object_get_double_member (meta, "c");
          m->meta_c = c.u;
        }
      v = m->meta_d;
      if (!get_uint (meta, "d", mwhere, G_MAXUINT32, FALSE, &v, error))
        return FALSE;
      m->meta_d = (guint32) v;
    }

  phases = get_array (object, "phases", where, error);
  if (phases == NULL)
    return FALSE;
  if (json_array_get_length (phases) > G_MAXUINT16)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s.phases: expected at most 65535 phases, found %u",
                   where, json_array_get_length (phases));
      return FALSE;
    }
  m->n_phases = json_array_get_length (phases);
  m->phases = g_new0 (Mat0Phase, m->n_phases);
  for (guint i = 0; i < m->n_phases; i++)
    {
      JsonNode *node = json_array_get_element (phases, i);
      g_autofree char *pwhere = g_strdup_printf ("%s.phases[%u]", where, i);
      g_autofree char *params_where = g_strdup_printf ("%s.params", pwhere);
      g_autoptr(GBytes) raw = NULL;
      JsonObject *phase;
      JsonArray *params;
      const char *texture;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: expected an object, found another kind of value", pwhere);
          return FALSE;
        }
      phase = json_node_get_object (node);
      params = get_array (phase, "params", pwhere, error);
      if (params == NULL)
        return FALSE;
      if (json_array_get_length (params) != MAT0_PARAM_COUNT)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: expected 18 params, found %u", pwhere,
                       json_array_get_length (params));
          return FALSE;
        }
      for (guint j = 0; j < MAT0_PARAM_COUNT; j++)
        {
          if (!get_uint_element (params, j, params_where, 255, &v, error))
            return FALSE;
          m->phases[i].p[j] = (guint8) v;
        }
      if (!get_base64 (phase, "texture_raw", pwhere, MAT0_TEXTURE_SIZE, &raw, error))
        return FALSE;
      texture = get_string (phase, "texture");
      if (raw != NULL)
        memcpy (m->phases[i].texture, g_bytes_get_data (raw, NULL), MAT0_TEXTURE_SIZE);
      else if (texture != NULL)
        {
          g_autoptr(GError) local = NULL;
          if (!mat0_phase_set_texture (&m->phases[i], texture, &local))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "%s.texture: %s", pwhere, local->message);
              return FALSE;
            }
        }
    }

  blocks = get_array (object, "blocks", where, error);
  if (blocks == NULL)
    return FALSE;
  if (json_array_get_length (blocks) > MAT0_MAX_BLOCKS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s.blocks: expected at most %d blocks, found %u",
                   where, MAT0_MAX_BLOCKS, json_array_get_length (blocks));
      return FALSE;
    }
  m->n_blocks = json_array_get_length (blocks);
  m->blocks = g_new0 (Mat0Block, m->n_blocks);
  for (guint i = 0; i < m->n_blocks; i++)
    {
      JsonNode *node = json_array_get_element (blocks, i);
      g_autofree char *bwhere = g_strdup_printf ("%s.blocks[%u]", where, i);
      Mat0Block *block = &m->blocks[i];
      JsonObject *bo;
      JsonArray *keys;
      guint64 header = 0, mode = 0, interp = 0;
      gboolean has_header, has_split;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: expected an object, found another kind of value", bwhere);
          return FALSE;
        }
      bo = json_node_get_object (node);
      has_header = json_object_has_member (bo, "header_raw");
      has_split = json_object_has_member (bo, "mode") || json_object_has_member (bo, "interp_mask");
      if (!get_uint (bo, "header_raw", bwhere, G_MAXUINT32, FALSE, &header, error) ||
          !get_uint (bo, "mode", bwhere, 7, FALSE, &mode, error) ||
          !get_uint (bo, "interp_mask", bwhere, G_MAXUINT32 >> 3, FALSE, &interp, error))
        return FALSE;
      if (has_split)
        {
          guint32 split = (guint32) ((interp << 3) | mode);
          if (has_header && split != header)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "%s: expected header_raw to agree with mode and interp_mask "
                           "(%u), found %" G_GUINT64_FORMAT, bwhere, split, header);
              return FALSE;
            }
          header = split;
        }
      block->header_raw = (guint32) header;

      keys = get_array (bo, "keys", bwhere, error);
      if (keys == NULL)
        return FALSE;
      if (json_array_get_length (keys) > G_MAXUINT16)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s.keys: expected at most 65535 keys, found %u",
                       bwhere, json_array_get_length (keys));
          return FALSE;
        }
      block->n_keys = json_array_get_length (keys);
      block->keys = g_new0 (Mat0Key, block->n_keys);
      for (guint k = 0; k < block->n_keys; k++)
        {
          JsonNode *knode = json_array_get_element (keys, k);
          g_autofree char *kwhere = g_strdup_printf ("%s.keys[%u]", bwhere, k);
          JsonArray *key;
          guint64 k0, k1, k2 = 0;

          if (!JSON_NODE_HOLDS_ARRAY (knode) ||
              json_array_get_length (json_node_get_array (knode)) < 2 ||
              json_array_get_length (json_node_get_array (knode)) > 3)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "%s: expected [k0, k1, k2], found another value", kwhere);
              return FALSE;
            }
          key = json_node_get_array (knode);
          if (!get_uint_element (key, 0, kwhere, G_MAXUINT16, &k0, error) ||
              !get_uint_element (key, 1, kwhere, G_MAXUINT16, &k1, error) ||
              (json_array_get_length (key) == 3 &&
               !get_uint_element (key, 2, kwhere, G_MAXUINT16, &k2, error)))
            return FALSE;
          block->keys[k].k0 = (guint16) k0;
          block->keys[k].k1 = (guint16) k1;
          block->keys[k].k2 = (guint16) k2;
        }
    }
  return TRUE;
}

GBytes *
mt_json_build (JsonNode *root, GError **error)
{
  JsonArray *entries;
  NresOutEntry *out;
  guint n;
  GBytes *result = NULL;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "(document): expected an object, found another kind of value");
      return NULL;
    }
  entries = get_array (json_node_get_object (root), "entries", "(document)", error);
  if (entries == NULL)
    return NULL;

  n = json_array_get_length (entries);
  out = g_new0 (NresOutEntry, n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (entries, i);
      g_autofree char *where = g_strdup_printf ("entries[%u]", i);
      g_autoptr(GBytes) name_raw = NULL;
      g_autoptr(GBytes) payload = NULL;
      NresEntry *entry = &out[i].entry;
      JsonObject *object;
      const char *name;
      guint64 attr1 = 0, attr2 = 0, attr3 = 0;

      out[i].source = -1;
      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s: expected an object, found another kind of value", where);
          goto out;
        }
      object = json_node_get_object (node);
      name = get_string (object, "name");
      if (name != NULL)
        {
          g_free (where);
          where = g_strdup_printf ("entries[%u] (%s)", i, name);
        }

      if (!parse_type (get_string (object, "type"), &entry->type_id))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s.type: expected four characters such as \"MAT0\" or 0xXXXXXXXX, found %s",
                       where, get_string (object, "type") ? get_string (object, "type") : "none");
          goto out;
        }
      if (!get_uint (object, "attr1", where, G_MAXUINT32, FALSE, &attr1, error) ||
          !get_uint (object, "attr2", where, G_MAXUINT32, FALSE, &attr2, error) ||
          !get_uint (object, "attr3", where, G_MAXUINT32, FALSE, &attr3, error))
        goto out;
      entry->attr1 = (guint32) attr1;
      entry->attr2 = (guint32) attr2;
      entry->attr3 = (guint32) attr3;

      if (!get_base64 (object, "name_raw", where, NRES_NAME_SIZE, &name_raw, error))
        goto out;
      if (name_raw != NULL)
        memcpy (entry->name, g_bytes_get_data (name_raw, NULL), NRES_NAME_SIZE);
      else
        {
          g_autoptr(GError) local = NULL;
          if (name == NULL || !nres_entry_set_name (entry, name, &local))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "%s.name: expected a name of 1..35 CP1251 bytes, found %s",
                           where, local != NULL ? local->message : "none");
              goto out;
            }
        }

      if (!get_base64 (object, "payload_base64", where, 0, &payload, error))
        goto out;
      if (payload != NULL)
        out[i].payload = g_steal_pointer (&payload);
      else if (entry->type_id == NRES_TYPE_MAT0)
        {
          g_autoptr(Mat0Material) m = g_new0 (Mat0Material, 1);

          if (!build_material (object, where, entry->attr2, m, error))
            goto out;
          out[i].payload = mat0_encode (m);
        }
      else
        out[i].payload = g_bytes_new (NULL, 0);
    }

  result = nres_write_repack (NULL, out, n, error);

out:
  nres_out_entries_free (out, n);
  return result;
}
