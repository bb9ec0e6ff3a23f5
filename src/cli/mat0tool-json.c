/* mat0tool-json.c - the dump, eval and build documents of cli.md */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

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

/* ---- dump: written as it is made --------------------------------------- */

/* Writes the same text as mt_json_to_string (@pretty) of the document
 * would, without building the document: containers are opened and closed
 * as the writer goes. An array that holds no object ("flat") stays on one
 * line. */
#define JSON_MAX_DEPTH 16

typedef struct {
  FILE     *out;
  guint     depth;                      /* containers open */
  gboolean  is_array[JSON_MAX_DEPTH];
  gboolean  flat[JSON_MAX_DEPTH];
  gboolean  pretty[JSON_MAX_DEPTH];     /* how the container is written */
  gboolean  empty[JSON_MAX_DEPTH];
} JsonOut;

static void
out_indent (JsonOut *w, guint depth)
{
  fputc ('\n', w->out);
  for (guint i = 0; i < depth; i++)
    fputs ("  ", w->out);
}

/* How the next value is written: pretty at the top, plain inside a flat
 * array. */
static gboolean
out_child_pretty (const JsonOut *w)
{
  guint level;

  if (w->depth == 0)
    return TRUE;
  level = w->depth - 1;
  return w->pretty[level] && !(w->is_array[level] && w->flat[level]);
}

/* What comes before a value in an array: the comma and the indent. */
static void
out_value_prefix (JsonOut *w)
{
  guint level;

  if (w->depth == 0)
    return;
  level = w->depth - 1;
  if (!w->is_array[level])
    return;   /* a member's value: out_member wrote the key */
  if (!w->empty[level])
    fputs (w->flat[level] && w->pretty[level] ? ", " : ",", w->out);
  if (!w->flat[level] && w->pretty[level])
    out_indent (w, w->depth);
  w->empty[level] = FALSE;
}

static void
out_string_raw (JsonOut *w, const char *s)
{
  fputc ('"', w->out);
  for (const guchar *p = (const guchar *) s; *p != 0; p++)
    {
      switch (*p)
        {
        case '"': fputs ("\\\"", w->out); break;
        case '\\': fputs ("\\\\", w->out); break;
        case '\n': fputs ("\\n", w->out); break;
        case '\r': fputs ("\\r", w->out); break;
        case '\t': fputs ("\\t", w->out); break;
        default:
          if (*p < 0x20)
            fprintf (w->out, "\\u%04x", *p);
          else
            fputc (*p, w->out);
        }
    }
  fputc ('"', w->out);
}

static void
out_push (JsonOut *w, gboolean is_array, gboolean flat, char open)
{
  gboolean pretty;

  out_value_prefix (w);
  pretty = out_child_pretty (w);
  g_assert (w->depth < JSON_MAX_DEPTH);
  w->is_array[w->depth] = is_array;
  w->flat[w->depth] = flat;
  w->pretty[w->depth] = pretty;
  w->empty[w->depth] = TRUE;
  w->depth++;
  fputc (open, w->out);
}

static void
out_begin_object (JsonOut *w)
{
  out_push (w, FALSE, FALSE, '{');
}

static void
out_begin_array (JsonOut *w, gboolean flat)
{
  out_push (w, TRUE, flat, '[');
}

static void
out_end (JsonOut *w)
{
  guint level = --w->depth;

  if (w->is_array[level])
    {
      if (!w->flat[level] && !w->empty[level] && w->pretty[level])
        out_indent (w, level);
      fputc (']', w->out);
    }
  else
    {
      if (!w->empty[level] && w->pretty[level])
        out_indent (w, level);
      fputc ('}', w->out);
    }
}

static void
out_member (JsonOut *w, const char *key)
{
  guint level = w->depth - 1;

  if (!w->empty[level])
    fputc (',', w->out);
  if (w->pretty[level])
    out_indent (w, w->depth);
  out_string_raw (w, key);
  fputs (w->pretty[level] ? ": " : ":", w->out);
  w->empty[level] = FALSE;
}

static void
out_int (JsonOut *w, gint64 value)
{
  out_value_prefix (w);
  fprintf (w->out, "%" G_GINT64_FORMAT, value);
}

static void
out_bool (JsonOut *w, gboolean value)
{
  out_value_prefix (w);
  fputs (value ? "true" : "false", w->out);
}

static void
out_string (JsonOut *w, const char *value)
{
  out_value_prefix (w);
  out_string_raw (w, value);
}

static void
out_double (JsonOut *w, double value)
{
  g_autoptr(GString) text = g_string_new (NULL);

  out_value_prefix (w);
  write_double (text, value);
  fputs (text->str, w->out);
}

static void
put_int (JsonOut *w, const char *key, gint64 value)
{
  out_member (w, key);
  out_int (w, value);
}

static void
put_bool (JsonOut *w, const char *key, gboolean value)
{
  out_member (w, key);
  out_bool (w, value);
}

static void
put_string (JsonOut *w, const char *key, const char *value)
{
  out_member (w, key);
  out_string (w, value);
}

static void
put_base64 (JsonOut *w, const char *key, const guint8 *data, gsize len)
{
  g_autofree char *text = g_base64_encode (data, len);

  put_string (w, key, text);
}

/* Whether the UTF-8 form of a NUL-terminated field encodes back to the
 * very same bytes (no undefined byte, nothing after the NUL). */
static gboolean
field_is_plain (const guint8 *field, gsize size)
{
  g_autofree char *utf8 = cp1251_to_utf8 (field, size);
  guint8 back[64];

  g_assert (size < sizeof back);
  if (!cp1251_from_utf8 (utf8, back, size + 1, NULL))
    return FALSE;
  return memcmp (back, field, size) == 0;
}

static void
dump_material (JsonOut *w, const NresEntry *entry, const Mat0Material *m)
{
  guint32 attr1 = entry->attr1;

  out_member (w, "flags");
  out_begin_object (w);
  put_bool (w, "ext_texture_load", mat0_flags_ext_texture_load (attr1));
  put_bool (w, "hw_profile", mat0_flags_hw_profile (attr1));
  put_int (w, "nibble_mode", mat0_flags_nibble_mode (attr1));
  put_bool (w, "behaviour", mat0_flags_behaviour (attr1));
  put_int (w, "unknown_bits", mat0_flags_unknown_bits (attr1));
  out_end (w);

  out_member (w, "meta");
  out_begin_object (w);
  put_int (w, "a", m->meta_a);
  put_int (w, "b", m->meta_b);
  put_int (w, "c_raw", m->meta_c);
  {
    union { guint32 u; float f; } c = { .u = m->meta_c };
    out_member (w, "c");
    out_double (w, c.f);
  }
  put_int (w, "d", m->meta_d);
  put_bool (w, "from_file", mat0_has_meta_d (m->attr2));
  out_member (w, "fields");
  out_begin_array (w, TRUE);
  if (mat0_has_meta_ab (m->attr2))
    {
      out_string (w, "a");
      out_string (w, "b");
    }
  if (mat0_has_meta_c (m->attr2))
    out_string (w, "c");
  if (mat0_has_meta_d (m->attr2))
    out_string (w, "d");
  out_end (w);
  out_end (w);

  out_member (w, "phases");
  out_begin_array (w, m->n_phases == 0);
  for (guint i = 0; i < m->n_phases; i++)
    {
      const Mat0Phase *phase = &m->phases[i];
      g_autofree char *texture = mat0_phase_dup_texture (phase);

      out_begin_object (w);
      out_member (w, "params");
      out_begin_array (w, TRUE);
      for (guint j = 0; j < MAT0_PARAM_COUNT; j++)
        out_int (w, phase->p[j]);
      out_end (w);
      put_string (w, "texture", texture);
      if (!field_is_plain (phase->texture, MAT0_TEXTURE_SIZE))
        put_base64 (w, "texture_raw", phase->texture, MAT0_TEXTURE_SIZE);
      out_end (w);
    }
  out_end (w);

  out_member (w, "blocks");
  out_begin_array (w, m->n_blocks == 0);
  for (guint i = 0; i < m->n_blocks; i++)
    {
      const Mat0Block *block = &m->blocks[i];

      out_begin_object (w);
      put_int (w, "header_raw", block->header_raw);
      put_int (w, "mode", mat0_block_mode (block));
      put_int (w, "interp_mask", mat0_block_interp_mask (block));
      out_member (w, "keys");
      out_begin_array (w, TRUE);
      for (guint k = 0; k < block->n_keys; k++)
        {
          out_begin_array (w, TRUE);
          out_int (w, block->keys[k].k0);
          out_int (w, block->keys[k].k1);
          out_int (w, block->keys[k].k2);
          out_end (w);
        }
      out_end (w);
      out_end (w);
    }
  out_end (w);
}

gboolean
mt_json_dump (MtLibrary *library, const guint *indices, guint n_indices, FILE *out)
{
  const NresArchive *archive = library->archive;
  JsonOut w = { .out = out };

  out_begin_object (&w);
  out_member (&w, "archive");
  out_begin_object (&w);
  put_int (&w, "version", archive->version);
  put_int (&w, "entry_count", archive->n_entries);
  put_int (&w, "total_size", archive->total_size);
  put_bool (&w, "sort_index_valid", archive->sort_index_valid);
  put_bool (&w, "sort_index_canonical", archive->sort_index_canonical);
  out_end (&w);

  out_member (&w, "entries");
  out_begin_array (&w, n_indices == 0);
  for (guint n = 0; n < n_indices && !ferror (out); n++)
    {
      guint i = indices[n];
      const NresEntry *entry = &archive->entries[i];
      g_autofree char *type = mt_type_name (entry->type_id);

      /* One entry decoded at a time; its decode error is kept for the
       * report at the end. */
      mt_library_decode (library, i);

      out_begin_object (&w);
      put_int (&w, "index", i);
      put_string (&w, "name", library->names[i]);
      if (!field_is_plain ((const guint8 *) entry->name, NRES_NAME_SIZE))
        put_base64 (&w, "name_raw", (const guint8 *) entry->name, NRES_NAME_SIZE);
      put_string (&w, "type", type);
      put_int (&w, "attr1", entry->attr1);
      put_int (&w, "attr2", entry->attr2);
      put_int (&w, "attr3", entry->attr3);
      put_int (&w, "data_offset", entry->data_offset);
      put_int (&w, "size", entry->size);
      put_int (&w, "sort_index", entry->sort_index);
      if (library->materials[i] != NULL)
        dump_material (&w, entry, library->materials[i]);
      else
        {
          gsize size;
          const guint8 *data = nres_archive_payload (archive, i, &size);

          if (library->errors[i] != NULL)
            put_string (&w, "error", library->errors[i]->message);
          /* Other entry types (and MAT0 entries that do not decode) carry
           * their bytes so that `build` can put them back. */
          put_base64 (&w, "payload_base64", data, size);
        }
      out_end (&w);
      g_clear_pointer (&library->materials[i], mat0_material_free);
    }
  out_end (&w);
  out_end (&w);
  fputc ('\n', out);

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

/* Strict base64: g_base64_decode skips what it does not know, so a
 * damaged payload would be built silently. */
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
get_base64 (JsonObject *object, const char *key, const char *where,
            gsize expected, GBytes **out, GError **error)
{
  const char *text = get_string (object, key);
  guchar *data;
  gsize len;

  if (text == NULL)
    return TRUE;
  if (!base64_is_valid (text))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s.%s: expected base64 text (A-Z, a-z, 0-9, +, / in groups of four, "
                   "= only as padding at the end), found \"%.20s%s\"",
                   where, key, text, strlen (text) > 20 ? "..." : "");
      return FALSE;
    }
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

/* One entry of the document into @out (its payload built). */
static gboolean
build_entry (JsonNode *node, guint i, NresOutEntry *out, GError **error)
{
  g_autofree char *where = g_strdup_printf ("entries[%u]", i);
  g_autoptr(GBytes) name_raw = NULL;
  g_autoptr(GBytes) payload = NULL;
  NresEntry *entry = &out->entry;
  JsonObject *object;
  const char *name;
  guint64 attr1 = 0, attr2 = 0, attr3 = 0;

  out->source = -1;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: expected an object, found another kind of value", where);
      return FALSE;
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
      return FALSE;
    }
  if (!get_uint (object, "attr1", where, G_MAXUINT32, FALSE, &attr1, error) ||
      !get_uint (object, "attr2", where, G_MAXUINT32, FALSE, &attr2, error) ||
      !get_uint (object, "attr3", where, G_MAXUINT32, FALSE, &attr3, error))
    return FALSE;
  entry->attr1 = (guint32) attr1;
  entry->attr2 = (guint32) attr2;
  entry->attr3 = (guint32) attr3;

  if (!get_base64 (object, "name_raw", where, NRES_NAME_SIZE, &name_raw, error))
    return FALSE;
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
          return FALSE;
        }
    }

  if (!get_base64 (object, "payload_base64", where, 0, &payload, error))
    return FALSE;
  if (payload != NULL)
    out->payload = g_steal_pointer (&payload);
  else if (entry->type_id == NRES_TYPE_MAT0)
    {
      g_autoptr(Mat0Material) m = g_new0 (Mat0Material, 1);

      if (!build_material (object, where, entry->attr2, m, error))
        return FALSE;
      out->payload = mat0_encode (m);
    }
  else
    out->payload = g_bytes_new (NULL, 0);
  return TRUE;
}

/* ---- reading the document piece by piece ---------------------------- */

#define READ_PIECE (1u << 16)
#define NO_MARK    G_MAXSIZE

/* A window on the document: the bytes from the mark (the start of the
 * value being read) to what was read last; everything before the mark
 * is dropped, so memory holds one entry, not the document. */
typedef struct {
  int      fd;
  guint8  *buf;
  gsize    cap;
  gsize    len;
  gsize    pos;
  gsize    mark;
  gboolean eof;
  guint64  line;
  GError  *error;   /* a read error */
} JsonIn;

static gboolean
in_fill (JsonIn *in)
{
  gssize n;

  if (in->eof || in->error != NULL)
    return FALSE;
  if (in->mark != NO_MARK && in->mark > 0)
    {
      memmove (in->buf, in->buf + in->mark, in->len - in->mark);
      in->len -= in->mark;
      in->pos -= in->mark;
      in->mark = 0;
    }
  else if (in->mark == NO_MARK)
    in->len = in->pos = 0;
  if (in->len == in->cap)
    {
      in->cap *= 2;
      in->buf = g_realloc (in->buf, in->cap);
    }
  do
    n = read (in->fd, in->buf + in->len, in->cap - in->len);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    {
      int saved = errno;

      g_set_error (&in->error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "could not read: %s", g_strerror (saved));
      return FALSE;
    }
  if (n == 0)
    {
      in->eof = TRUE;
      return FALSE;
    }
  in->len += (gsize) n;
  return TRUE;
}

/* The next byte, or -1 at the end. */
static int
in_peek (JsonIn *in)
{
  if (in->pos == in->len && !in_fill (in))
    return -1;
  return in->buf[in->pos];
}

static int
in_next (JsonIn *in)
{
  int c = in_peek (in);

  if (c >= 0)
    {
      in->pos++;
      if (c == '\n')
        in->line++;
    }
  return c;
}

static void
in_skip_space (JsonIn *in)
{
  int c;

  while ((c = in_peek (in)) == ' ' || c == '\t' || c == '\n' || c == '\r')
    in_next (in);
}

static gboolean
in_fail (JsonIn *in, GError **error, const char *expected)
{
  int c;

  if (in->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&in->error));
      return FALSE;
    }
  c = in_peek (in);
  if (c < 0)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 "line %" G_GUINT64_FORMAT ": expected %s, found the end of the file",
                 in->line, expected);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 "line %" G_GUINT64_FORMAT ": expected %s, found '%c'",
                 in->line, expected, g_ascii_isprint (c) ? c : '?');
  return FALSE;
}

static gboolean
in_expect (JsonIn *in, char want, GError **error)
{
  char what[4] = { '\'', want, '\'', 0 };

  in_skip_space (in);
  if (in_peek (in) != want)
    return in_fail (in, error, what);
  in_next (in);
  return TRUE;
}

/* Moves past one value (its syntax is checked when it is parsed). */
static gboolean
in_skip_value (JsonIn *in, GError **error)
{
  guint depth = 0;
  int c = in_peek (in);

  if (c < 0 || c == ',' || c == '}' || c == ']' || c == ':')
    return in_fail (in, error, "a value");
  do
    {
      c = in_next (in);
      if (c < 0)
        return in_fail (in, error, depth > 0 ? "the end of an object or array" : "a value");
      if (c == '"')
        {
          for (;;)
            {
              c = in_next (in);
              if (c < 0)
                return in_fail (in, error, "the end of a string");
              if (c == '\\')
                in_next (in);
              else if (c == '"')
                break;
            }
        }
      else if (c == '{' || c == '[')
        depth++;
      else if (c == '}' || c == ']')
        depth--;
      else if (depth == 0)
        {
          /* a number, true, false or null: up to the next delimiter */
          while ((c = in_peek (in)) >= 0 && c != ',' && c != '}' && c != ']' &&
                 c != ' ' && c != '\t' && c != '\n' && c != '\r')
            in_next (in);
        }
    }
  while (depth > 0);
  return TRUE;
}

/* Reads one value and parses it alone. Returns: (transfer full). */
static JsonNode *
in_read_value (JsonIn *in, JsonParser *parser, GError **error)
{
  g_autoptr(GError) local = NULL;
  guint64 line;
  JsonNode *root;

  in_skip_space (in);
  line = in->line;
  in->mark = in->pos;
  if (!in_skip_value (in, error))
    return NULL;
  if (!json_parser_load_from_data (parser, (const char *) in->buf + in->mark,
                                   (gssize) (in->pos - in->mark), &local))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "line %" G_GUINT64_FORMAT ": %s", line, local->message);
      in->mark = NO_MARK;
      return NULL;
    }
  in->mark = NO_MARK;
  root = json_parser_steal_root (parser);
  return root != NULL ? root : json_node_new (JSON_NODE_NULL);
}

GBytes *
mt_json_build (int fd, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonIn in = { .fd = fd, .cap = READ_PIECE, .mark = NO_MARK, .line = 1 };
  NresOutEntry *out = NULL;
  guint n = 0, cap = 0;
  gboolean have_entries = FALSE;
  GBytes *result = NULL;

  in.buf = g_malloc (in.cap);

  if (!in_expect (&in, '{', error))
    goto out;
  in_skip_space (&in);
  if (in_peek (&in) == '}')
    in_next (&in);
  else
    for (;;)
      {
        g_autoptr(JsonNode) key_node = NULL;
        const char *key;

        in_skip_space (&in);
        if (in_peek (&in) != '"')
          {
            in_fail (&in, error, "a member name");
            goto out;
          }
        key_node = in_read_value (&in, parser, error);
        if (key_node == NULL)
          goto out;
        key = json_node_get_string (key_node);
        if (!in_expect (&in, ':', error))
          goto out;

        if (g_strcmp0 (key, "entries") == 0)
          {
            if (have_entries)
              {
                g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                             "line %" G_GUINT64_FORMAT ": (document): expected one member \"entries\", found another",
                             in.line);
                goto out;
              }
            have_entries = TRUE;
            in_skip_space (&in);
            if (in_peek (&in) != '[')
              {
                g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                             "(document): expected an array \"entries\", found another kind of value");
                goto out;
              }
            in_next (&in);
            in_skip_space (&in);
            if (in_peek (&in) == ']')
              in_next (&in);
            else
              for (;;)
                {
                  g_autoptr(JsonNode) node = in_read_value (&in, parser, error);
                  int c;

                  if (node == NULL)
                    goto out;
                  if (n == cap)
                    {
                      cap = MAX (64, cap * 2);
                      out = g_renew (NresOutEntry, out, cap);
                    }
                  memset (&out[n], 0, sizeof out[n]);
                  n++;
                  if (!build_entry (node, n - 1, &out[n - 1], error))
                    goto out;
                  in_skip_space (&in);
                  c = in_next (&in);
                  if (c == ']')
                    break;
                  if (c != ',')
                    {
                      in.pos -= c >= 0 ? 1 : 0;
                      in_fail (&in, error, "',' or ']'");
                      goto out;
                    }
                }
          }
        else
          {
            /* Other members ("archive") are checked, not used. */
            g_autoptr(JsonNode) value = in_read_value (&in, parser, error);

            if (value == NULL)
              goto out;
          }

        in_skip_space (&in);
        {
          int c = in_next (&in);

          if (c == '}')
            break;
          if (c != ',')
            {
              in.pos -= c >= 0 ? 1 : 0;
              in_fail (&in, error, "',' or '}'");
              goto out;
            }
        }
      }

  in_skip_space (&in);
  if (in_peek (&in) >= 0 || in.error != NULL)
    {
      in_fail (&in, error, "the end of the document");
      goto out;
    }
  if (!have_entries)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "(document): expected an array \"entries\", found none");
      goto out;
    }

  result = nres_write_repack (NULL, out, n, error);

out:
  if (in.error != NULL && error != NULL && *error == NULL)
    g_propagate_error (error, g_steal_pointer (&in.error));
  g_clear_error (&in.error);
  g_free (in.buf);
  nres_out_entries_free (out, n);
  return result;
}
