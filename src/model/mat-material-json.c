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

/* A string, every control character escaped: C0, DEL and C1 (U+0080 to
 * U+009F, 0xC2 0x80..0x9F in UTF-8), so that what the dump prints never
 * reaches a terminal as a command. */
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
          if (*p < 0x20 || *p == 0x7f)
            g_string_append_printf (out, "\\u%04x", *p);
          else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
            g_string_append_printf (out, "\\u%04x", *++p);
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

/* What json-glib cannot tell once a text is parsed: a string ends at its
 * first NUL (an escaped \u0000 cuts a name short without a word), and an
 * integer past 64 bits wraps around to another value. So the text is
 * walked once before it is parsed, knowing the path of the value it is
 * at, and the parser gets it only when neither is there. The walk also
 * bounds the nesting (json-glib parses by recursion). It trusts nothing:
 * a text that is not JSON at all is the parser's to report. */

typedef struct {
  gboolean    array;
  gboolean    in_value;   /* an object: after the ':' of a member */
  guint       index;      /* an array: the element */
  const char *key;        /* an object: the member's name as written */
  gsize       key_len;
} ScanLevel;

static char *
scan_path (const char      *where,
           const ScanLevel *levels,
           guint            depth)
{
  GString *path = g_string_new (where);

  for (guint i = 0; i < depth; i++)
    if (levels[i].array)
      g_string_append_printf (path, "[%u]", levels[i].index);
    else if (levels[i].key != NULL)
      {
        if (path->len > 0)
          g_string_append_c (path, '.');
        g_string_append_len (path, levels[i].key, (gssize) levels[i].key_len);
      }
  if (path->len == 0)
    /* Translators: the whole JSON text, where a message has no other place to name */
    g_string_append (path, _("(document)"));
  return g_string_free (path, FALSE);
}

static gboolean
is_number_char (char c)
{
  return g_ascii_isdigit (c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* Whether the integer @text (@len bytes: digits after an optional '-')
 * fits a gint64, as json-glib must hold it. */
static gboolean
integer_fits (const char *text,
              gsize       len)
{
  gboolean negative = len > 0 && text[0] == '-';
  const char *limit = negative ? "9223372036854775808" : "9223372036854775807";

  if (negative)
    {
      text++;
      len--;
    }
  while (len > 1 && text[0] == '0')
    {
      text++;
      len--;
    }
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit (text[i]))
      return TRUE;   /* not an integer: the parser says so */
  if (len != 19)
    return len < 19;
  return memcmp (text, limit, 19) <= 0;
}

static gboolean
scan_text (const char  *text,
           gsize        length,
           const char  *where,
           GError     **error)
{
  ScanLevel levels[MAT_JSON_MAX_DEPTH];
  guint depth = 0;

  for (gsize i = 0; i < length; i++)
    {
      ScanLevel *top = depth > 0 ? &levels[depth - 1] : NULL;
      char c = text[i];

      if (c == '[' || c == '{')
        {
          if (depth == MAT_JSON_MAX_DEPTH)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("expected at most %u levels of nested arrays and objects, found more"),
                           MAT_JSON_MAX_DEPTH);
              return FALSE;
            }
          memset (&levels[depth], 0, sizeof levels[depth]);
          levels[depth++].array = c == '[';
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
      else if (c == ',' && top != NULL)
        {
          top->index++;
          top->key = NULL;
          top->in_value = FALSE;
        }
      else if (c == ':' && top != NULL)
        top->in_value = TRUE;
      else if (c == '"')
        {
          gsize start = i + 1;
          gboolean nul = FALSE;

          for (i = start; i < length && text[i] != '"'; i++)
            if (text[i] == '\\' && i + 1 < length)
              {
                i++;
                if (text[i] == 'u' && length - i > 4 && memcmp (text + i + 1, "0000", 4) == 0)
                  nul = TRUE;
              }
          if (top != NULL && !top->array && !top->in_value)
            {
              /* a member's name: the path goes through it */
              top->key = text + start;
              top->key_len = MIN (i, length) - start;
            }
          if (nul)
            {
              g_autofree char *path = scan_path (where, levels, depth);

              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("%s: expected text without NUL characters (\\u0000), found one"),
                           path);
              return FALSE;
            }
        }
      else if (c == '-' || g_ascii_isdigit (c))
        {
          gsize start = i;
          gboolean integer = TRUE;

          while (i + 1 < length && is_number_char (text[i + 1]))
            {
              i++;
              if (text[i] == '.' || text[i] == 'e' || text[i] == 'E')
                integer = FALSE;
            }
          if (integer && !integer_fits (text + start, i + 1 - start))
            {
              g_autofree char *path = scan_path (where, levels, depth);

              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("%s: expected an integer of at most 64 bits, found %.*s"),
                           path, (int) MIN (i + 1 - start, 40), text + start);
              return FALSE;
            }
        }
    }
  return TRUE;
}

gboolean
mat_json_load_at (JsonParser  *parser,
                  const char  *text,
                  gssize       length,
                  const char  *where,
                  GError     **error)
{
  g_return_val_if_fail (JSON_IS_PARSER (parser), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (length < 0)
    length = (gssize) strlen (text);
  if (!scan_text (text, (gsize) length, where, error))
    return FALSE;
  return json_parser_load_from_data (parser, text, length, error);
}

gboolean
mat_json_load (JsonParser  *parser,
               const char  *text,
               gssize       length,
               GError     **error)
{
  return mat_json_load_at (parser, text, length, NULL, error);
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

/* What a value is, for "expected X, found Y". */
static const char *
value_kind (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    /* Translators: a JSON value, in "expected X, found an object" */
    return _("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    /* Translators: a JSON value, in "expected X, found an array" */
    return _("an array");
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      /* Translators: a JSON value, in "expected X, found a string" */
      return _("a string");
    case G_TYPE_BOOLEAN:
      return json_node_get_boolean (node) ? "true" : "false";
    case G_TYPE_INT64:
    case G_TYPE_DOUBLE:
      /* Translators: a JSON value, in "expected X, found a number" */
      return _("a number");
    default:
      /* Translators: a JSON value, in "expected X, found another kind of value" */
      return _("another kind of value");
    }
}

static gboolean
holds (JsonNode *node,
       GType     type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static gboolean
holds_number (JsonNode *node)
{
  return holds (node, G_TYPE_INT64) || holds (node, G_TYPE_DOUBLE);
}

/* An integer 0..@max at @where, then ".@key" or, with @key %NULL,
 * "[@index]"; "found" says what else it is. The path is made only for
 * the message: this runs for every byte of every phase. */
static gboolean
check_uint (JsonNode    *node,
            const char  *where,
            const char  *key,
            guint        index,
            guint32      max,
            guint32     *out,
            GError     **error)
{
  g_autofree char *path = NULL;

  if (holds (node, G_TYPE_INT64) &&
      json_node_get_int (node) >= 0 && (guint64) json_node_get_int (node) <= max)
    {
      if (out != NULL)
        *out = (guint32) json_node_get_int (node);
      return TRUE;
    }
  path = key != NULL ? g_strdup_printf ("%s.%s", where, key)
                     : g_strdup_printf ("%s[%u]", where, index);
  if (holds_number (node))
    {
      char found[G_ASCII_DTOSTR_BUF_SIZE];

      if (holds (node, G_TYPE_INT64))
        g_snprintf (found, sizeof found, "%" G_GINT64_FORMAT, json_node_get_int (node));
      else
        g_ascii_formatd (found, sizeof found, "%.9g", json_node_get_double (node));
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: expected an integer 0..%u, found %s"), path, max, found);
    }
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("%s: expected an integer 0..%u, found %s"), path, max, value_kind (node));
  return FALSE;
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
  return check_uint (node, where, key, 0, max, out, error);
}

static gboolean
get_uint_element (JsonArray   *array,
                  guint        index,
                  const char  *where,
                  guint32      max,
                  guint32     *out,
                  GError     **error)
{
  return check_uint (json_array_get_element (array, index), where, NULL, index, max, out, error);
}

/* The member @key when it is a string (%NULL when it is absent, or null
 * with @nullable). */
static gboolean
get_string (JsonObject   *object,
            const char   *key,
            const char   *where,
            gboolean      nullable,
            const char  **out,
            GError      **error)
{
  JsonNode *node = json_object_get_member (object, key);

  *out = NULL;
  if (node == NULL || (nullable && JSON_NODE_HOLDS_NULL (node)))
    return TRUE;
  if (!holds (node, G_TYPE_STRING))
    {
      if (nullable)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("%s.%s: expected a string or null, found %s"),
                     where, key, value_kind (node));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("%s.%s: expected a string, found %s"), where, key, value_kind (node));
      return FALSE;
    }
  *out = json_node_get_string (node);
  return TRUE;
}

/* The member @key, when present, is true or false. */
static gboolean
check_boolean (JsonObject  *object,
               const char  *key,
               const char  *where,
               GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL || holds (node, G_TYPE_BOOLEAN))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("%s.%s: expected true or false, found %s"), where, key, value_kind (node));
  return FALSE;
}

/* The member @key when it is an object (%NULL when it is absent). */
static gboolean
get_object (JsonObject   *object,
            const char   *key,
            const char   *where,
            JsonObject  **out,
            GError      **error)
{
  JsonNode *node = json_object_get_member (object, key);

  *out = NULL;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s.%s: expected an object, found %s"), where, key, value_kind (node));
      return FALSE;
    }
  *out = json_node_get_object (node);
  return TRUE;
}

/* The member @key when it is an array: absent, %NULL with @error when
 * @required, %NULL without otherwise. */
static JsonArray *
get_array (JsonObject  *object,
           const char  *key,
           const char  *where,
           gboolean     required,
           GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL)
    {
      if (required)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("%s: expected an array \"%s\", found none"), where, key);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s.%s: expected an array, found %s"), where, key, value_kind (node));
      return NULL;
    }
  return json_node_get_array (node);
}

/* The member @key as a string, or %NULL whatever else it is: for
 * recognising a text, where nothing is checked yet. */
static const char *
peek_string (JsonObject *object,
             const char *key)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL || !holds (node, G_TYPE_STRING))
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
  const char *text;
  guchar *data;
  gsize len;

  if (!get_string (object, key, where, FALSE, &text, error))
    return FALSE;
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
mat_json_archive_check (JsonNode    *node,
                        const char  *where,
                        GError     **error)
{
  JsonObject *object;

  g_return_val_if_fail (node != NULL, FALSE);
  g_return_val_if_fail (where != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: expected an object, found %s"), where, value_kind (node));
      return FALSE;
    }
  object = json_node_get_object (node);
  return get_uint (object, "version", where, G_MAXUINT32, FALSE, NULL, error) &&
         get_uint (object, "entry_count", where, G_MAXUINT32, FALSE, NULL, error) &&
         get_uint (object, "total_size", where, G_MAXUINT32, FALSE, NULL, error) &&
         check_boolean (object, "sort_index_valid", where, error) &&
         check_boolean (object, "sort_index_canonical", where, error);
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
                   _("%s: expected an object, found %s"), where, value_kind (node));
      return FALSE;
    }
  object = json_node_get_object (node);
  params = get_array (object, "params", where, TRUE, error);
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
  if (!get_base64 (object, "texture_raw", where, MAT0_TEXTURE_SIZE, &raw, error) ||
      !get_string (object, "texture", where, TRUE, &texture, error))
    return FALSE;
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

/* Whether a double rounds to a finite float: below FLT_MAX and half its
 * last place (the dump prints FLT_MAX as 3.40282347e+38, a little above). */
static gboolean
fits_float (double value)
{
  return fabs (value) < 0x1.ffffffp+127;
}

static gboolean
parse_meta (JsonObject    *meta,
            const char    *where,
            Mat0Material  *m,
            GError       **error)
{
  JsonNode *c_node = json_object_get_member (meta, "c");
  JsonArray *fields;
  guint32 v;

  v = m->meta_a;
  if (!get_uint (meta, "a", where, 255, FALSE, &v, error))
    return FALSE;
  m->meta_a = (guint8) v;
  v = m->meta_b;
  if (!get_uint (meta, "b", where, 255, FALSE, &v, error))
    return FALSE;
  m->meta_b = (guint8) v;
  if (!get_uint (meta, "d", where, G_MAXUINT32, FALSE, &m->meta_d, error) ||
      !check_boolean (meta, "from_file", where, error))
    return FALSE;

  /* "c": a number a float holds; null only beside "c_raw" (the dump
   * writes null for a raw value that is not a finite float) */
  if (c_node != NULL)
    {
      if (JSON_NODE_HOLDS_NULL (c_node) && !json_object_has_member (meta, "c_raw"))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s.c: expected a number, found null (null is written only beside "
                         "\"c_raw\")"), where);
          return FALSE;
        }
      if (!JSON_NODE_HOLDS_NULL (c_node) && !holds_number (c_node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s.c: expected a number, found %s"), where, value_kind (c_node));
          return FALSE;
        }
      if (holds_number (c_node) && !fits_float (json_node_get_double (c_node)))
        {
          char found[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_formatd (found, sizeof found, "%.9g", json_node_get_double (c_node));
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s.c: expected a number a 32-bit float holds "
                         "(-3.40282347e+38..3.40282347e+38), found %s"), where, found);
          return FALSE;
        }
    }
  if (json_object_has_member (meta, "c_raw"))
    {
      /* c_raw wins over c: it holds any bit pattern exactly */
      if (!get_uint (meta, "c_raw", where, G_MAXUINT32, TRUE, &m->meta_c, error))
        return FALSE;
    }
  else if (c_node != NULL)
    {
      union { guint32 u; float f; } c;

      c.f = (float) json_node_get_double (c_node);
      m->meta_c = c.u;
    }

  /* "fields": the names of the fields the version stores (not read) */
  if (json_object_has_member (meta, "fields"))
    {
      g_autofree char *fields_where = g_strdup_printf ("%s.fields", where);

      fields = get_array (meta, "fields", where, TRUE, error);
      if (fields == NULL)
        return FALSE;
      for (guint i = 0; i < json_array_get_length (fields); i++)
        {
          JsonNode *field = json_array_get_element (fields, i);

          if (!holds (field, G_TYPE_STRING))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("%s[%u]: expected a string, found %s"),
                           fields_where, i, value_kind (field));
              return FALSE;
            }
        }
    }
  return TRUE;
}

static gboolean
parse_block (JsonNode    *node,
             const char  *where,
             Mat0Block   *block,
             GError     **error)
{
  JsonObject *bo;
  JsonArray *keys;
  guint32 header = 0, mode = 0, interp = 0;
  gboolean has_header, has_split;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: expected an object, found %s"), where, value_kind (node));
      return FALSE;
    }
  bo = json_node_get_object (node);
  has_header = json_object_has_member (bo, "header_raw");
  has_split = json_object_has_member (bo, "mode") || json_object_has_member (bo, "interp_mask");
  if (!get_uint (bo, "header_raw", where, G_MAXUINT32, FALSE, &header, error) ||
      !get_uint (bo, "mode", where, 7, FALSE, &mode, error) ||
      !get_uint (bo, "interp_mask", where, G_MAXUINT32 >> 3, FALSE, &interp, error))
    return FALSE;
  if (has_split)
    {
      guint32 split = (interp << 3) | mode;

      if (has_header && split != header)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s: expected header_raw to agree with mode and interp_mask "
                         "(%u), found %u"), where, split, header);
          return FALSE;
        }
      header = split;
    }
  block->header_raw = header;

  keys = get_array (bo, "keys", where, TRUE, error);
  if (keys == NULL)
    return FALSE;
  if (json_array_get_length (keys) > G_MAXUINT16)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s.keys: expected at most 65535 keys, found %u"),
                   where, json_array_get_length (keys));
      return FALSE;
    }
  block->n_keys = json_array_get_length (keys);
  block->keys = g_new0 (Mat0Key, block->n_keys);
  for (guint k = 0; k < block->n_keys; k++)
    {
      JsonNode *knode = json_array_get_element (keys, k);
      g_autofree char *kwhere = g_strdup_printf ("%s.keys[%u]", where, k);
      JsonArray *key;
      guint32 k0, k1, k2 = 0;

      if (!JSON_NODE_HOLDS_ARRAY (knode) ||
          json_array_get_length (json_node_get_array (knode)) < 2 ||
          json_array_get_length (json_node_get_array (knode)) > 3)
        {
          if (JSON_NODE_HOLDS_ARRAY (knode))
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("%s: expected [k0, k1, k2], found an array of %u"), kwhere,
                         json_array_get_length (json_node_get_array (knode)));
          else
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("%s: expected [k0, k1, k2], found %s"), kwhere, value_kind (knode));
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
  return TRUE;
}

/* The material of "meta", "phases" and "blocks" into @m. With @required
 * FALSE (the payload is given as base64) they may be absent, and what
 * is there is only checked. */
static gboolean
parse_material (JsonObject    *object,
                const char    *where,
                guint32        attr2,
                gboolean       required,
                Mat0Material  *m,
                GError       **error)
{
  JsonArray *phases, *blocks;
  JsonObject *meta;

  m->attr2 = attr2;
  m->meta_a = MAT0_DEFAULT_META_A;
  m->meta_b = MAT0_DEFAULT_META_B;
  m->meta_c = MAT0_DEFAULT_META_C;
  m->meta_d = MAT0_DEFAULT_META_D;

  if (!get_object (object, "meta", where, &meta, error))
    return FALSE;
  if (meta != NULL)
    {
      g_autofree char *mwhere = g_strdup_printf ("%s.meta", where);

      if (!parse_meta (meta, mwhere, m, error))
        return FALSE;
    }

  phases = get_array (object, "phases", where, required, error);
  if (phases == NULL && (required || json_object_has_member (object, "phases")))
    return FALSE;
  if (phases != NULL && json_array_get_length (phases) > G_MAXUINT16)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s.phases: expected at most 65535 phases, found %u"),
                   where, json_array_get_length (phases));
      return FALSE;
    }
  m->n_phases = phases != NULL ? json_array_get_length (phases) : 0;
  m->phases = g_new0 (Mat0Phase, m->n_phases);
  for (guint i = 0; i < m->n_phases; i++)
    {
      g_autofree char *pwhere = g_strdup_printf ("%s.phases[%u]", where, i);

      if (!mat_json_phase_parse (json_array_get_element (phases, i), pwhere,
                                 &m->phases[i], error))
        return FALSE;
    }

  blocks = get_array (object, "blocks", where, required, error);
  if (blocks == NULL && (required || json_object_has_member (object, "blocks")))
    return FALSE;
  if (blocks != NULL && json_array_get_length (blocks) > MAT0_MAX_BLOCKS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s.blocks: expected at most %d blocks, found %u"),
                   where, MAT0_MAX_BLOCKS, json_array_get_length (blocks));
      return FALSE;
    }
  m->n_blocks = blocks != NULL ? json_array_get_length (blocks) : 0;
  m->blocks = g_new0 (Mat0Block, m->n_blocks);
  for (guint i = 0; i < m->n_blocks; i++)
    {
      g_autofree char *bwhere = g_strdup_printf ("%s.blocks[%u]", where, i);

      if (!parse_block (json_array_get_element (blocks, i), bwhere, &m->blocks[i], error))
        return FALSE;
    }
  return TRUE;
}

/* "flags": what attr1 says, written for people; only checked. */
static gboolean
check_flags (JsonObject  *object,
             const char  *where,
             GError     **error)
{
  g_autofree char *fwhere = g_strdup_printf ("%s.flags", where);
  JsonObject *flags;

  if (!get_object (object, "flags", where, &flags, error))
    return FALSE;
  return flags == NULL ||
         (check_boolean (flags, "ext_texture_load", fwhere, error) &&
          check_boolean (flags, "hw_profile", fwhere, error) &&
          check_boolean (flags, "behaviour", fwhere, error) &&
          get_uint (flags, "nibble_mode", fwhere, G_MAXUINT32, FALSE, NULL, error) &&
          get_uint (flags, "unknown_bits", fwhere, G_MAXUINT32, FALSE, NULL, error));
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
  const char *error_message;
  gboolean material;
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
                   _("%s: expected an object, found %s"), where, value_kind (node));
      return FALSE;
    }
  object = json_node_get_object (node);
  if (!get_string (object, "name", where, FALSE, &name, error))
    return FALSE;
  if (name != NULL)
    where = named = g_strdup_printf ("%s (%s)", where, name);

  if (!get_string (object, "type", where, FALSE, &type, error))
    return FALSE;
  if (!parse_type (type, &e.type_id))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s.type: expected four characters such as \"MAT0\" or 0xXXXXXXXX, found %s"),
                   where, type != NULL ? type : _("none"));
      return FALSE;
    }
  if (!get_uint (object, "attr1", where, G_MAXUINT32, FALSE, &e.attr1, error) ||
      !get_uint (object, "attr2", where, G_MAXUINT32, FALSE, &e.attr2, error) ||
      !get_uint (object, "attr3", where, G_MAXUINT32, FALSE, &e.attr3, error) ||
      /* the directory's layout: the writer makes its own */
      !get_uint (object, "index", where, G_MAXUINT32, FALSE, NULL, error) ||
      !get_uint (object, "data_offset", where, G_MAXUINT32, FALSE, NULL, error) ||
      !get_uint (object, "size", where, G_MAXUINT32, FALSE, NULL, error) ||
      !get_uint (object, "sort_index", where, G_MAXUINT32, FALSE, NULL, error) ||
      !check_flags (object, where, error) ||
      !get_string (object, "error", where, FALSE, &error_message, error))
    return FALSE;

  if (!get_base64 (object, "name_raw", where, NRES_NAME_SIZE, &name_raw, error))
    return FALSE;
  if (name_raw != NULL)
    {
      const guint8 *field = g_bytes_get_data (name_raw, NULL);

      /* what the reader refuses, refused here with the member's name */
      if (memchr (field, 0, NRES_NAME_SIZE) == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s.name_raw: expected a NUL within the %u bytes of the name field, "
                         "found none"), where, (guint) NRES_NAME_SIZE);
          return FALSE;
        }
      if (field[0] == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s.name_raw: expected a name, found an empty one (a NUL first)"), where);
          return FALSE;
        }
      memcpy (e.name, field, NRES_NAME_SIZE);
    }
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
  material = e.type_id == NRES_TYPE_MAT0;
  {
    g_autoptr(Mat0Material) m = g_new0 (Mat0Material, 1);

    /* the material's members are checked wherever they are: beside a
     * payload, and in an entry of another type, they are not used */
    if (!parse_material (object, where, e.attr2, material && bytes == NULL, m, error))
      return FALSE;
    if (material && bytes == NULL)
      bytes = mat0_encode (m);
    else if (material && error_message == NULL)
      {
        g_autoptr(Mat0Material) decoded = NULL;
        g_autoptr(GError) local = NULL;
        g_autofree char *label = cp1251_to_utf8 ((const guint8 *) e.name, NRES_NAME_SIZE);

        decoded = mat0_decode (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                               e.attr2, label, 0, &local);
        if (decoded == NULL)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("%s.payload_base64: expected a MAT0 payload that decodes, or an "
                           "\"error\" member saying it does not (as the dump writes), found: %s"),
                         where, local->message);
            return FALSE;
          }
      }
  }
  if (bytes == NULL)
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
          ? g_strdup (peek_string (json_node_get_object (node), "name"))
          : NULL;
  return TRUE;
}
