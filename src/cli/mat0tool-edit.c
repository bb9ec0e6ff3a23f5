/* mat0tool-edit.c - the assignments of `mat0tool set` */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mat0tool.h"

static gboolean
parse_number (const char *text, guint64 max, guint64 *out)
{
  guint base = 10;

  if (g_str_has_prefix (text, "0x") || g_str_has_prefix (text, "0X"))
    {
      text += 2;
      base = 16;
    }
  return g_ascii_string_to_unsigned (text, base, 0, max, out, NULL);
}

/* Reads "[N]" at *p, advancing past it. */
static gboolean
parse_index (const char **p, guint *out)
{
  const char *s = *p;
  char *end;
  guint64 v;

  if (*s != '[' || !g_ascii_isdigit (s[1]))
    return FALSE;
  v = g_ascii_strtoull (s + 1, &end, 10);
  if (*end != ']' || v > G_MAXUINT)
    return FALSE;
  *out = (guint) v;
  *p = end + 1;
  return TRUE;
}

static gboolean
set_error (GError **error, const char *assignment, const char *expected)
{
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "%s: expected %s", assignment, expected);
  return FALSE;
}

gboolean
mt_apply_assignment (NresEntry    *entry,
                     Mat0Material *m,
                     const char   *assignment,
                     GError      **error)
{
  g_autofree char *path = NULL;
  const char *eq = strchr (assignment, '=');
  const char *value, *p;
  guint64 v;
  guint i, j;

  if (eq == NULL)
    return set_error (error, assignment, "PATH=VALUE");
  path = g_strndup (assignment, eq - assignment);
  value = eq + 1;

  if (g_str_equal (path, "attr1") || g_str_equal (path, "attr3"))
    {
      if (!parse_number (value, G_MAXUINT32, &v))
        return set_error (error, assignment, "a 32-bit number");
      if (path[4] == '1')
        entry->attr1 = (guint32) v;
      else
        entry->attr3 = (guint32) v;
      return TRUE;
    }
  if (g_str_equal (path, "attr2"))
    {
      /* A version change: metadata fields the new version has start at the
       * values in use (the defaults when they were absent); fields it lacks
       * are no longer written. */
      if (!parse_number (value, G_MAXUINT32, &v))
        return set_error (error, assignment, "a 32-bit number");
      entry->attr2 = (guint32) v;
      m->attr2 = (guint32) v;
      return TRUE;
    }
  if (g_str_equal (path, "name"))
    return nres_entry_set_name (entry, value, error);

  if (g_str_has_prefix (path, "meta."))
    {
      const char *field = path + 5;
      gboolean present;

      if (g_str_equal (field, "a") || g_str_equal (field, "b"))
        present = mat0_has_meta_ab (m->attr2);
      else if (g_str_equal (field, "c") || g_str_equal (field, "c_raw"))
        present = mat0_has_meta_c (m->attr2);
      else if (g_str_equal (field, "d"))
        present = mat0_has_meta_d (m->attr2);
      else
        return set_error (error, assignment, "meta.a, meta.b, meta.c, meta.c_raw or meta.d");
      if (!present)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "%s: attr2 %u has no field meta.%c; change attr2 first",
                       assignment, m->attr2, field[0]);
          return FALSE;
        }
      if (g_str_equal (field, "c"))
        {
          union { guint32 u; float f; } c;
          char *end;
          double d = g_ascii_strtod (value, &end);

          if (*value == 0 || *end != 0)
            return set_error (error, assignment, "a floating-point number");
          c.f = (float) d;
          m->meta_c = c.u;
          return TRUE;
        }
      if (!parse_number (value, (field[0] == 'a' || field[0] == 'b') ? 255 : G_MAXUINT32, &v))
        return set_error (error, assignment,
                          (field[0] == 'a' || field[0] == 'b') ? "a number 0..255" : "a 32-bit number");
      switch (field[0])
        {
        case 'a': m->meta_a = (guint8) v; break;
        case 'b': m->meta_b = (guint8) v; break;
        case 'c': m->meta_c = (guint32) v; break;
        default: m->meta_d = (guint32) v; break;
        }
      return TRUE;
    }

  p = path;
  if (g_str_has_prefix (p, "phase"))
    {
      p += 5;
      if (!parse_index (&p, &i))
        return set_error (error, assignment, "phase[N]");
      if (i >= m->n_phases)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "%s: expected a phase index below %u, found %u",
                       assignment, m->n_phases, i);
          return FALSE;
        }
      if (g_str_equal (p, ".texture"))
        return mat0_phase_set_texture (&m->phases[i], value, error);
      if (!g_str_has_prefix (p, ".p"))
        return set_error (error, assignment, "phase[N].p[M] or phase[N].texture");
      p += 2;
      if (!parse_index (&p, &j) || *p != 0 || j >= MAT0_PARAM_COUNT)
        return set_error (error, assignment, "phase[N].p[M] with M in 0..17");
      if (!parse_number (value, 255, &v))
        return set_error (error, assignment, "a number 0..255");
      m->phases[i].p[j] = (guint8) v;
      return TRUE;
    }

  if (g_str_has_prefix (p, "block"))
    {
      Mat0Block *block;

      p += 5;
      if (!parse_index (&p, &i))
        return set_error (error, assignment, "block[N]");
      if (i >= m->n_blocks)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "%s: expected a block index below %u, found %u",
                       assignment, m->n_blocks, i);
          return FALSE;
        }
      block = &m->blocks[i];
      if (g_str_equal (p, ".mode"))
        {
          if (!parse_number (value, 7, &v))
            return set_error (error, assignment, "a mode 0..7");
          block->header_raw = (block->header_raw & ~7u) | (guint32) v;
          return TRUE;
        }
      if (g_str_equal (p, ".interp"))
        {
          if (!parse_number (value, G_MAXUINT32 >> 3, &v))
            return set_error (error, assignment, "an interpolation mask below 0x20000000");
          block->header_raw = (block->header_raw & 7u) | ((guint32) v << 3);
          return TRUE;
        }
      if (g_str_equal (p, ".header"))
        {
          if (!parse_number (value, G_MAXUINT32, &v))
            return set_error (error, assignment, "a 32-bit number");
          block->header_raw = (guint32) v;
          return TRUE;
        }
      if (g_str_has_prefix (p, ".key"))
        {
          Mat0Key *key;

          p += 4;
          if (!parse_index (&p, &j))
            return set_error (error, assignment, "block[N].key[M].k0, k1 or k2");
          if (j >= block->n_keys)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "%s: expected a key index below %u, found %u",
                           assignment, block->n_keys, j);
              return FALSE;
            }
          key = &block->keys[j];
          if (!parse_number (value, G_MAXUINT16, &v))
            return set_error (error, assignment, "a number 0..65535");
          if (g_str_equal (p, ".k0"))
            key->k0 = (guint16) v;
          else if (g_str_equal (p, ".k1"))
            key->k1 = (guint16) v;
          else if (g_str_equal (p, ".k2"))
            key->k2 = (guint16) v;
          else
            return set_error (error, assignment, "block[N].key[M].k0, k1 or k2");
          return TRUE;
        }
      return set_error (error, assignment, "block[N].mode, .interp, .header or .key[M].kX");
    }

  return set_error (error, assignment,
                    "attr1..3, name, meta.X, phase[N].p[M], phase[N].texture or block[N]...");
}
