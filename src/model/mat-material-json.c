/* mat-material-json.c - materials and phases as the JSON of `mat0tool dump --json` */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "mat0-flags.h"

#include "mat-material-json.h"
#include "mat-model-private.h"

/* ---- Writing text ------------------------------------------------------ */

static void
write_string (GString    *out,
              const char *s)
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
write_double (GString *out,
              double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      /* JSON has no NaN or infinity; a raw metaC can hold any bit
       * pattern (c_raw carries it exactly). */
      g_string_append (out, "null");
      return;
    }
  g_ascii_formatd (buf, sizeof buf, "%.9g", value);
  g_string_append (out, buf);
  if (strpbrk (buf, ".eE") == NULL)
    g_string_append (out, ".0");
}

static void
write_indent (GString  *out,
              gboolean  pretty,
              guint     depth)
{
  if (!pretty)
    return;
  g_string_append_c (out, '\n');
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

/* Arrays of plain values stay on one line, as in the examples of cli.md. */
static gboolean
array_is_flat (JsonArray *array)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (JSON_NODE_HOLDS_OBJECT (json_array_get_element (array, i)))
      return FALSE;
  return TRUE;
}

void
mat_json_write (GString  *out,
                JsonNode *node,
                gboolean  pretty,
                guint     depth)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (node != NULL);

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
            mat_json_write (out, json_object_get_member (object, l->data), pretty, depth + 1);
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
            mat_json_write (out, json_array_get_element (array, i), pretty && !flat, depth + 1);
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
mat_json_to_string (JsonNode *node,
                    gboolean  pretty)
{
  GString *out;

  g_return_val_if_fail (node != NULL, NULL);

  out = g_string_new (NULL);
  mat_json_write (out, node, pretty, 0);
  return g_string_free (out, FALSE);
}

/* ---- Reading text ------------------------------------------------------- */

gboolean
mat_json_load (JsonParser  *parser,
               const char  *text,
               gssize       length,
               GError     **error)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  g_return_val_if_fail (JSON_IS_PARSER (parser), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (length < 0)
    length = (gssize) strlen (text);
  for (gssize i = 0; i < length; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > MAT_JSON_MAX_DEPTH)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("expected at most %u levels of nested arrays and objects, found more"),
                           MAT_JSON_MAX_DEPTH);
              return FALSE;
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }

  return json_parser_load_from_data (parser, text, length, error);
}

/* ---- Writing entries ---------------------------------------------------- */

char *
mat_json_type_name (guint32 type_id)
{
  char s[5];

  for (guint i = 0; i < 4; i++)
    {
      s[i] = (char) ((type_id >> (8 * i)) & 0xFF);
      if (!g_ascii_isprint (s[i]))
        return g_strdup_printf ("0x%08X", type_id);
    }
  s[4] = 0;
  return g_strdup (s);
}

/* Whether the UTF-8 form of a field encodes back to the very same bytes:
 * a NUL inside the field (a name that fills it has no room for one, and
 * the reader refuses it), no undefined byte, nothing after the NUL. */
static gboolean
field_is_plain (const guint8 *field,
                gsize         size)
{
  g_autofree char *utf8 = NULL;
  guint8 back[64];

  g_assert (size < sizeof back);
  if (memchr (field, 0, size) == NULL)
    return FALSE;
  utf8 = cp1251_to_utf8 (field, size);
  if (!cp1251_from_utf8 (utf8, back, size, NULL))
    return FALSE;
  return memcmp (back, field, size) == 0;
}

static void
set_base64 (JsonObject   *object,
            const char   *key,
            const guint8 *data,
            gsize         len)
{
  g_autofree char *text = g_base64_encode (data, len);

  json_object_set_string_member (object, key, text);
}

static JsonArray *
int_array (const guint8 *values,
           guint         n)
{
  JsonArray *array = json_array_sized_new (n);

  for (guint i = 0; i < n; i++)
    json_array_add_int_element (array, values[i]);
  return array;
}

JsonNode *
mat_json_phase_new (const Mat0Phase *phase)
{
  g_autofree char *texture = NULL;
  JsonObject *object;
  JsonNode *node;

  g_return_val_if_fail (phase != NULL, NULL);

  texture = mat0_phase_dup_texture (phase);
  object = json_object_new ();
  json_object_set_array_member (object, "params", int_array (phase->p, MAT0_PARAM_COUNT));
  json_object_set_string_member (object, "texture", texture);
  if (!field_is_plain (phase->texture, MAT0_TEXTURE_SIZE))
    set_base64 (object, "texture_raw", phase->texture, MAT0_TEXTURE_SIZE);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}

static void
add_material (JsonObject         *object,
              guint32             attr1,
              const Mat0Material *m)
{
  JsonObject *flags = json_object_new ();
  JsonObject *meta = json_object_new ();
  JsonArray *fields = json_array_new ();
  JsonArray *phases = json_array_sized_new (m->n_phases);
  JsonArray *blocks = json_array_sized_new (m->n_blocks);
  union { guint32 u; float f; } c = { .u = m->meta_c };

  json_object_set_boolean_member (flags, "ext_texture_load", mat0_flags_ext_texture_load (attr1));
  json_object_set_boolean_member (flags, "hw_profile", mat0_flags_hw_profile (attr1));
  json_object_set_int_member (flags, "nibble_mode", mat0_flags_nibble_mode (attr1));
  json_object_set_boolean_member (flags, "behaviour", mat0_flags_behaviour (attr1));
  json_object_set_int_member (flags, "unknown_bits", mat0_flags_unknown_bits (attr1));
  json_object_set_object_member (object, "flags", flags);

  json_object_set_int_member (meta, "a", m->meta_a);
  json_object_set_int_member (meta, "b", m->meta_b);
  json_object_set_int_member (meta, "c_raw", m->meta_c);
  json_object_set_double_member (meta, "c", c.f);
  json_object_set_int_member (meta, "d", m->meta_d);
  json_object_set_boolean_member (meta, "from_file", mat0_has_meta_d (m->attr2));
  if (mat0_has_meta_ab (m->attr2))
    {
      json_array_add_string_element (fields, "a");
      json_array_add_string_element (fields, "b");
    }
  if (mat0_has_meta_c (m->attr2))
    json_array_add_string_element (fields, "c");
  if (mat0_has_meta_d (m->attr2))
    json_array_add_string_element (fields, "d");
  json_object_set_array_member (meta, "fields", fields);
  json_object_set_object_member (object, "meta", meta);

  for (guint i = 0; i < m->n_phases; i++)
    json_array_add_element (phases, mat_json_phase_new (&m->phases[i]));
  json_object_set_array_member (object, "phases", phases);

  for (guint i = 0; i < m->n_blocks; i++)
    {
      const Mat0Block *block = &m->blocks[i];
      JsonObject *bo = json_object_new ();
      JsonArray *keys = json_array_sized_new (block->n_keys);

      json_object_set_int_member (bo, "header_raw", block->header_raw);
      json_object_set_int_member (bo, "mode", mat0_block_mode (block));
      json_object_set_int_member (bo, "interp_mask", mat0_block_interp_mask (block));
      for (guint k = 0; k < block->n_keys; k++)
        {
          JsonArray *key = json_array_sized_new (3);

          json_array_add_int_element (key, block->keys[k].k0);
          json_array_add_int_element (key, block->keys[k].k1);
          json_array_add_int_element (key, block->keys[k].k2);
          json_array_add_array_element (keys, key);
        }
      json_object_set_array_member (bo, "keys", keys);
      json_array_add_object_element (blocks, bo);
    }
  json_object_set_array_member (object, "blocks", blocks);
}

JsonNode *
mat_json_entry_new (guint               index,
                    const NresEntry    *entry,
                    const Mat0Material *material,
                    const guint8       *payload,
                    gsize               payload_size,
                    const char         *error_message)
{
  g_autofree char *name = NULL;
  g_autofree char *type = NULL;
  JsonObject *object;
  JsonNode *node;

  g_return_val_if_fail (entry != NULL, NULL);
  g_return_val_if_fail (material != NULL || payload != NULL || payload_size == 0, NULL);

  name = cp1251_to_utf8 ((const guint8 *) entry->name, NRES_NAME_SIZE);
  type = mat_json_type_name (entry->type_id);

  object = json_object_new ();
  json_object_set_int_member (object, "index", index);
  json_object_set_string_member (object, "name", name);
  if (!field_is_plain ((const guint8 *) entry->name, NRES_NAME_SIZE))
    set_base64 (object, "name_raw", (const guint8 *) entry->name, NRES_NAME_SIZE);
  json_object_set_string_member (object, "type", type);
  json_object_set_int_member (object, "attr1", entry->attr1);
  json_object_set_int_member (object, "attr2", entry->attr2);
  json_object_set_int_member (object, "attr3", entry->attr3);
  json_object_set_int_member (object, "data_offset", entry->data_offset);
  json_object_set_int_member (object, "size", entry->size);
  json_object_set_int_member (object, "sort_index", entry->sort_index);
  if (material != NULL)
    add_material (object, entry->attr1, material);
  else
    {
      if (error_message != NULL)
        json_object_set_string_member (object, "error", error_message);
      /* Other entry types (and MAT0 entries that do not decode) carry
       * their bytes so that they can be put back. */
      set_base64 (object, "payload_base64", payload, payload_size);
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}

/* ---- Reading entries ---------------------------------------------------- */

static gboolean
node_is_uint (JsonNode *node,
              guint64   max)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_INT64 &&
         json_node_get_int (node) >= 0 && (guint64) json_node_get_int (node) <= max;
}

static gboolean
get_uint (JsonObject  *object,
          const char  *key,
          const char  *where,
          guint32      max,
          gboolean     required,
          guint32     *out,
          GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL)
    {
      if (!required)
        return TRUE;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: expected member \"%s\", found none"), where, key);
      return FALSE;
    }
  if (!node_is_uint (node, max))
    {
      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("%s.%s: expected an integer 0..%u, found one out of range"),
                     where, key, max);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("%s.%s: expected an integer 0..%u, found another kind of value"),
                     where, key, max);
      return FALSE;
    }
  *out = (guint32) json_node_get_int (node);
  return TRUE;
}

static gboolean
get_uint_element (JsonArray   *array,
                  guint        index,
                  const char  *where,
                  guint32      max,
                  guint32     *out,
                  GError     **error)
{
  JsonNode *node = json_array_get_element (array, index);

  if (!node_is_uint (node, max))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s[%u]: expected an integer 0..%u, found another value"),
                   where, index, max);
      return FALSE;
    }
  *out = (guint32) json_node_get_int (node);
  return TRUE;
}

static JsonArray *
get_array (JsonObject  *object,
           const char  *key,
           const char  *where,
           GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: expected an array \"%s\", found none"), where, key);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: expected an array \"%s\", found another kind of value"), where, key);
      return NULL;
    }
  return json_node_get_array (node);
}

static const char *
get_string (JsonObject *object,
            const char *key)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* Strict base64: g_base64_decode skips what it does not know, so a
 * damaged payload would be taken silently. */
static gboolean
base64_is_valid (const char *text)
{
  gsize len = strlen (text);
  gsize padding = 0;

  if (len % 4 != 0)
    return FALSE;
  if (len > 0 && text[len - 1] == '=')
    padding = (len > 1 && text[len - 2] == '=') ? 2 : 1;
  for (gsize i = 0; i < len - padding; i++)
    if (!g_ascii_isalnum (text[i]) && text[i] != '+' && text[i] != '/')
      return FALSE;
  return TRUE;
}

static gboolean
get_base64 (JsonObject  *object,
            const char  *key,
            const char  *where,
            gsize        expected,
            GBytes     **out,
            GError     **error)
{
  const char *text = get_string (object, key);
  guchar *data;
  gsize len;

  if (text == NULL)
    return TRUE;
  if (!base64_is_valid (text))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s.%s: expected base64 text (A-Z, a-z, 0-9, +, / in groups of four, "
                     "= only as padding at the end), found \"%.20s%s\""),
                   where, key, text, strlen (text) > 20 ? "..." : "");
      return FALSE;
    }
  data = g_base64_decode (text, &len);
  if (expected != 0 && len != expected)
    {
      g_free (data);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s.%s: expected %lu bytes, found %lu"),
                   where, key, (gulong) expected, (gulong) len);
      return FALSE;
    }
  *out = g_bytes_new_take (data, len);
  return TRUE;
}

static gboolean
parse_type (const char *text,
            guint32    *out)
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

gboolean
mat_json_phase_parse (JsonNode    *node,
                      const char  *where,
                      Mat0Phase   *phase,
                      GError     **error)
{
  g_autofree char *params_where = NULL;
  g_autoptr(GBytes) raw = NULL;
  JsonObject *object;
  JsonArray *params;
  const char *texture;

  g_return_val_if_fail (node != NULL, FALSE);
  g_return_val_if_fail (where != NULL, FALSE);
  g_return_val_if_fail (phase != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (phase, 0, sizeof *phase);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: expected an object, found another kind of value"), where);
      return FALSE;
    }
  object = json_node_get_object (node);
  params = get_array (object, "params", where, error);
  if (params == NULL)
    return FALSE;
  if (json_array_get_length (params) != MAT0_PARAM_COUNT)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: expected 18 params, found %u"), where,
                   json_array_get_length (params));
      return FALSE;
    }
  params_where = g_strdup_printf ("%s.params", where);
  for (guint j = 0; j < MAT0_PARAM_COUNT; j++)
    {
      guint32 v;

      if (!get_uint_element (params, j, params_where, 255, &v, error))
        return FALSE;
      phase->p[j] = (guint8) v;
    }
  if (!get_base64 (object, "texture_raw", where, MAT0_TEXTURE_SIZE, &raw, error))
    return FALSE;
  texture = get_string (object, "texture");
  if (raw != NULL)
    memcpy (phase->texture, g_bytes_get_data (raw, NULL), MAT0_TEXTURE_SIZE);
  else if (texture != NULL)
    {
      g_autoptr(GError) local = NULL;

      if (!mat0_phase_set_texture (phase, texture, &local))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s.texture: %s", where, local->message);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
parse_material (JsonObject    *object,
                const char    *where,
                guint32        attr2,
                Mat0Material  *m,
                GError       **error)
{
  JsonArray *phases, *blocks;
  JsonNode *meta_node;

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
      guint32 v;

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
          if (!get_uint (meta, "c_raw", mwhere, G_MAXUINT32, TRUE, &m->meta_c, error))
            return FALSE;
        }
      else if (json_object_has_member (meta, "c"))
        {
          union { guint32 u; float f; } c;

          c.f = (float) json_object_get_double_member (meta, "c");
          m->meta_c = c.u;
        }
      if (!get_uint (meta, "d", mwhere, G_MAXUINT32, FALSE, &m->meta_d, error))
        return FALSE;
    }

  phases = get_array (object, "phases", where, error);
  if (phases == NULL)
    return FALSE;
  if (json_array_get_length (phases) > G_MAXUINT16)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s.phases: expected at most 65535 phases, found %u"),
                   where, json_array_get_length (phases));
      return FALSE;
    }
  m->n_phases = json_array_get_length (phases);
  m->phases = g_new0 (Mat0Phase, m->n_phases);
  for (guint i = 0; i < m->n_phases; i++)
    {
      g_autofree char *pwhere = g_strdup_printf ("%s.phases[%u]", where, i);

      if (!mat_json_phase_parse (json_array_get_element (phases, i), pwhere,
                                 &m->phases[i], error))
        return FALSE;
    }

  blocks = get_array (object, "blocks", where, error);
  if (blocks == NULL)
    return FALSE;
  if (json_array_get_length (blocks) > MAT0_MAX_BLOCKS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s.blocks: expected at most %d blocks, found %u"),
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
      guint32 header = 0, mode = 0, interp = 0;
      gboolean has_header, has_split;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s: expected an object, found another kind of value"), bwhere);
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
          guint32 split = (interp << 3) | mode;

          if (has_header && split != header)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("%s: expected header_raw to agree with mode and interp_mask "
                             "(%u), found %u"), bwhere, split, header);
              return FALSE;
            }
          header = split;
        }
      block->header_raw = header;

      keys = get_array (bo, "keys", bwhere, error);
      if (keys == NULL)
        return FALSE;
      if (json_array_get_length (keys) > G_MAXUINT16)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s.keys: expected at most 65535 keys, found %u"),
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
          guint32 k0, k1, k2 = 0;

          if (!JSON_NODE_HOLDS_ARRAY (knode) ||
              json_array_get_length (json_node_get_array (knode)) < 2 ||
              json_array_get_length (json_node_get_array (knode)) > 3)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("%s: expected [k0, k1, k2], found another value"), kwhere);
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

gboolean
mat_json_entry_parse (JsonNode    *node,
                      const char  *where,
                      NresEntry   *entry,
                      GBytes     **payload,
                      GError     **error)
{
  g_autofree char *named = NULL;
  g_autoptr(GBytes) name_raw = NULL;
  g_autoptr(GBytes) bytes = NULL;
  JsonObject *object;
  const char *name;
  const char *type;
  NresEntry e;

  g_return_val_if_fail (node != NULL, FALSE);
  g_return_val_if_fail (where != NULL, FALSE);
  g_return_val_if_fail (entry != NULL, FALSE);
  g_return_val_if_fail (payload != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (&e, 0, sizeof e);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: expected an object, found another kind of value"), where);
      return FALSE;
    }
  object = json_node_get_object (node);
  name = get_string (object, "name");
  if (name != NULL)
    where = named = g_strdup_printf ("%s (%s)", where, name);

  type = get_string (object, "type");
  if (!parse_type (type, &e.type_id))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s.type: expected four characters such as \"MAT0\" or 0xXXXXXXXX, found %s"),
                   where, type != NULL ? type : _("none"));
      return FALSE;
    }
  if (!get_uint (object, "attr1", where, G_MAXUINT32, FALSE, &e.attr1, error) ||
      !get_uint (object, "attr2", where, G_MAXUINT32, FALSE, &e.attr2, error) ||
      !get_uint (object, "attr3", where, G_MAXUINT32, FALSE, &e.attr3, error))
    return FALSE;

  if (!get_base64 (object, "name_raw", where, NRES_NAME_SIZE, &name_raw, error))
    return FALSE;
  if (name_raw != NULL)
    memcpy (e.name, g_bytes_get_data (name_raw, NULL), NRES_NAME_SIZE);
  else
    {
      g_autoptr(GError) local = NULL;

      if (name == NULL || !nres_entry_set_name (&e, name, &local))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s.name: expected a name of 1..35 CP1251 bytes, found %s"),
                       where, local != NULL ? local->message : _("none"));
          return FALSE;
        }
    }

  if (!get_base64 (object, "payload_base64", where, 0, &bytes, error))
    return FALSE;
  if (bytes == NULL && e.type_id == NRES_TYPE_MAT0)
    {
      g_autoptr(Mat0Material) m = g_new0 (Mat0Material, 1);

      if (!parse_material (object, where, e.attr2, m, error))
        return FALSE;
      bytes = mat0_encode (m);
    }
  else if (bytes == NULL)
    bytes = g_bytes_new (NULL, 0);

  *entry = e;
  *payload = g_steal_pointer (&bytes);
  return TRUE;
}

/* ---- The editor's texts ------------------------------------------------- */

/* The directory entry and payload of @material as the only entry of a
 * canonical library: index 0 at offset 16, sort_index 0. */
static JsonNode *
material_entry_node (MatMaterial  *material,
                     GError      **error)
{
  g_autoptr(Mat0Material) core = NULL;
  g_autoptr(GBytes) payload = NULL;
  NresEntry entry;
  gsize size;

  if (mat_material_get_type_id (material) != NRES_TYPE_MAT0)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                   _("“%s” is not a material: only materials are copied"),
                   mat_material_get_name (material));
      return NULL;
    }

  entry = *_mat_material_get_entry (material);
  core = mat_material_dup_core (material);
  if (core == NULL)
    /* generation 0 is no library's: the payload as it is now */
    payload = _mat_material_dup_payload (material, 0);
  size = core != NULL ? mat0_encoded_size (core) : g_bytes_get_size (payload);

  entry.data_offset = NRES_HEADER_SIZE;
  entry.size = (guint32) size;
  entry.sort_index = 0;

  return mat_json_entry_new (0, &entry, core,
                             payload != NULL ? g_bytes_get_data (payload, NULL) : NULL,
                             payload != NULL ? g_bytes_get_size (payload) : 0,
                             mat_material_get_error (material));
}

static char *
to_text (JsonNode *node)
{
  GString *out = g_string_new (NULL);

  mat_json_write (out, node, TRUE, 0);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

char *
mat_material_to_json (MatMaterial  *material,
                      GError      **error)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (MAT_IS_MATERIAL (material), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  node = material_entry_node (material, error);
  if (node == NULL)
    return NULL;
  return to_text (node);
}

char *
mat_material_to_json_document (MatMaterial  *material,
                               GError      **error)
{
  g_autoptr(JsonNode) entry = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *document, *archive;
  JsonArray *entries;
  guint64 size;

  g_return_val_if_fail (MAT_IS_MATERIAL (material), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  entry = material_entry_node (material, error);
  if (entry == NULL)
    return NULL;
  size = (guint64) json_object_get_int_member (json_node_get_object (entry), "size");

  /* What the canonical writer makes of it: header, the payload padded to
   * 8 bytes, one directory entry. */
  archive = json_object_new ();
  json_object_set_int_member (archive, "version", 0x100);
  json_object_set_int_member (archive, "entry_count", 1);
  json_object_set_int_member (archive, "total_size",
                              NRES_HEADER_SIZE + ((size + 7) & ~(guint64) 7) + NRES_ENTRY_SIZE);
  json_object_set_boolean_member (archive, "sort_index_valid", TRUE);
  json_object_set_boolean_member (archive, "sort_index_canonical", TRUE);
  entries = json_array_new ();
  json_array_add_element (entries, g_steal_pointer (&entry));
  document = json_object_new ();
  json_object_set_object_member (document, "archive", archive);
  json_object_set_array_member (document, "entries", entries);

  root = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (root, document);
  return to_text (root);
}

char *
mat_phase_to_json (MatPhase *phase)
{
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;

  g_return_val_if_fail (MAT_IS_PHASE (phase), NULL);

  object = json_object_new ();
  json_object_set_member (object, "phase", mat_json_phase_new (_mat_phase_get_data (phase)));
  root = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (root, object);
  return to_text (root);
}

/* ---- Reading the editor's texts ---------------------------------------- */

/* The content of @text: the material's entry object or the phase object,
 * with the name of that place for messages.
 * Returns: (transfer full) (nullable). */
JsonNode *
_mat_json_parse_item (const char   *text,
                      gssize        length,
                      MatJsonKind  *kind,
                      const char  **where,
                      GError      **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local = NULL;
  JsonObject *object;
  JsonNode *root;
  JsonNode *member;

  if (length < 0)
    length = (gssize) strlen (text);
  if (!g_utf8_validate (text, length, NULL))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The text is not UTF-8"));
      return NULL;
    }
  if (!mat_json_load (parser, text, length, &local))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The text is not JSON: %s"), local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    goto unknown;
  object = json_node_get_object (root);

  member = json_object_get_member (object, "phase");
  if (member != NULL && JSON_NODE_HOLDS_OBJECT (member))
    {
      *kind = MAT_JSON_PHASE;
      *where = "phase";
      return json_node_ref (member);
    }

  member = json_object_get_member (object, "entries");
  if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
    {
      JsonArray *entries = json_node_get_array (member);

      if (json_array_get_length (entries) != 1)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       g_dngettext (GETTEXT_PACKAGE,
                                    "The document holds %u entry; one material at a time can be pasted",
                                    "The document holds %u entries; one material at a time can be pasted",
                                    json_array_get_length (entries)),
                       json_array_get_length (entries));
          return NULL;
        }
      *kind = MAT_JSON_MATERIAL;
      *where = "entries[0]";
      return json_node_ref (json_array_get_element (entries, 0));
    }

  if (json_object_has_member (object, "type") && json_object_has_member (object, "name"))
    {
      *kind = MAT_JSON_MATERIAL;
      *where = "entry";
      return json_node_ref (root);
    }

unknown:
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The text holds neither a material (an entry of “mat0tool dump --json”) "
                         "nor a phase ({\"phase\": …})"));
  return NULL;
}

gboolean
mat_json_identify (const char   *text,
                   gssize        length,
                   MatJsonKind  *kind,
                   char        **name,
                   GError      **error)
{
  g_autoptr(JsonNode) node = NULL;
  const char *where;
  MatJsonKind found;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  node = _mat_json_parse_item (text, length, &found, &where, error);
  if (node == NULL)
    return FALSE;
  if (kind != NULL)
    *kind = found;
  if (name != NULL)
    *name = found == MAT_JSON_MATERIAL
          ? g_strdup (get_string (json_node_get_object (node), "name"))
          : NULL;
  return TRUE;
}
