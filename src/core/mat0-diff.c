/* mat0-diff.c - what differs between two materials or two libraries */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "mat0-diff.h"
#include "mat0-fields.h"

static Mat0DiffField *
add (GArray       *out,
     Mat0DiffKind  kind,
     Mat0DiffSide  side,
     guint         phase,
     guint         block,
     guint         key,
     guint         index,
     guint32       from,
     guint32       to)
{
  Mat0DiffField field = { 0 };

  field.kind = kind;
  field.side = side;
  field.phase = phase;
  field.block = block;
  field.key = key;
  field.index = index;
  field.from = from;
  field.to = to;
  g_array_append_val (out, field);
  return &g_array_index (out, Mat0DiffField, out->len - 1);
}

GArray *
mat0_diff_fields_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (Mat0DiffField));
}

static void
diff_phases (const Mat0Material *a,
             const Mat0Material *b,
             GArray             *out)
{
  guint n = MAX (a->n_phases, b->n_phases);

  for (guint i = 0; i < n; i++)
    {
      const Mat0Phase *pa, *pb;
      Mat0DiffField *field;

      if (i >= a->n_phases || i >= b->n_phases)
        {
          add (out, MAT0_DIFF_PHASE, i < a->n_phases ? MAT0_DIFF_ONLY_A : MAT0_DIFF_ONLY_B,
               i, 0, 0, 0, a->n_phases, b->n_phases);
          continue;
        }
      pa = &a->phases[i];
      pb = &b->phases[i];
      for (guint p = 0; p < MAT0_PARAM_COUNT; p++)
        if (pa->p[p] != pb->p[p])
          {
            field = add (out, MAT0_DIFF_PARAM, MAT0_DIFF_BOTH, i, 0, 0, p, pa->p[p], pb->p[p]);
            memcpy (field->texture[0], pa->texture, MAT0_TEXTURE_SIZE);
            memcpy (field->texture[1], pb->texture, MAT0_TEXTURE_SIZE);
          }
      if (memcmp (pa->texture, pb->texture, MAT0_TEXTURE_SIZE) != 0)
        {
          field = add (out, MAT0_DIFF_TEXTURE, MAT0_DIFF_BOTH, i, 0, 0, 0, 0, 0);
          memcpy (field->texture[0], pa->texture, MAT0_TEXTURE_SIZE);
          memcpy (field->texture[1], pb->texture, MAT0_TEXTURE_SIZE);
        }
    }
}

static void
diff_blocks (const Mat0Material *a,
             const Mat0Material *b,
             GArray             *out)
{
  guint n = MAX (a->n_blocks, b->n_blocks);

  for (guint j = 0; j < n; j++)
    {
      const Mat0Block *ba, *bb;
      guint n_keys;

      if (j >= a->n_blocks || j >= b->n_blocks)
        {
          add (out, MAT0_DIFF_BLOCK, j < a->n_blocks ? MAT0_DIFF_ONLY_A : MAT0_DIFF_ONLY_B,
               0, j, 0, 0, a->n_blocks, b->n_blocks);
          continue;
        }
      ba = &a->blocks[j];
      bb = &b->blocks[j];
      if (mat0_block_mode (ba) != mat0_block_mode (bb))
        add (out, MAT0_DIFF_MODE, MAT0_DIFF_BOTH, 0, j, 0, 0,
             mat0_block_mode (ba), mat0_block_mode (bb));
      if (mat0_block_interp_mask (ba) != mat0_block_interp_mask (bb))
        add (out, MAT0_DIFF_INTERP, MAT0_DIFF_BOTH, 0, j, 0, 0,
             mat0_block_interp_mask (ba), mat0_block_interp_mask (bb));

      n_keys = MAX (ba->n_keys, bb->n_keys);
      for (guint k = 0; k < n_keys; k++)
        {
          const Mat0Key *ka, *kb;

          if (k >= ba->n_keys || k >= bb->n_keys)
            {
              add (out, MAT0_DIFF_KEY, k < ba->n_keys ? MAT0_DIFF_ONLY_A : MAT0_DIFF_ONLY_B,
                   0, j, k, 0, ba->n_keys, bb->n_keys);
              continue;
            }
          ka = &ba->keys[k];
          kb = &bb->keys[k];
          if (ka->k0 != kb->k0)
            add (out, MAT0_DIFF_K0, MAT0_DIFF_BOTH, 0, j, k, 0, ka->k0, kb->k0);
          if (ka->k1 != kb->k1)
            add (out, MAT0_DIFF_K1, MAT0_DIFF_BOTH, 0, j, k, 0, ka->k1, kb->k1);
          if (ka->k2 != kb->k2)
            add (out, MAT0_DIFF_K2, MAT0_DIFF_BOTH, 0, j, k, 0, ka->k2, kb->k2);
        }
    }
}

/* The metadata, phases and blocks of two decoded materials. */
static void
diff_content (const Mat0Material *a,
              const Mat0Material *b,
              GArray             *out)
{
  if (a->meta_a != b->meta_a)
    add (out, MAT0_DIFF_META, MAT0_DIFF_BOTH, 0, 0, 0, MAT0_META_A, a->meta_a, b->meta_a);
  if (a->meta_b != b->meta_b)
    add (out, MAT0_DIFF_META, MAT0_DIFF_BOTH, 0, 0, 0, MAT0_META_B, a->meta_b, b->meta_b);
  if (a->meta_c != b->meta_c)
    add (out, MAT0_DIFF_META, MAT0_DIFF_BOTH, 0, 0, 0, MAT0_META_C, a->meta_c, b->meta_c);
  if (a->meta_d != b->meta_d)
    add (out, MAT0_DIFF_META, MAT0_DIFF_BOTH, 0, 0, 0, MAT0_META_D, a->meta_d, b->meta_d);
  diff_phases (a, b, out);
  diff_blocks (a, b, out);
}

gboolean
mat0_diff_materials (const Mat0Material *a,
                     guint32             attr1_a,
                     guint32             attr3_a,
                     const Mat0Material *b,
                     guint32             attr1_b,
                     guint32             attr3_b,
                     GArray             *out)
{
  guint before;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  before = out->len;
  if (attr1_a != attr1_b)
    add (out, MAT0_DIFF_ATTR1, MAT0_DIFF_BOTH, 0, 0, 0, 0, attr1_a, attr1_b);
  if (a->attr2 != b->attr2)
    add (out, MAT0_DIFF_ATTR2, MAT0_DIFF_BOTH, 0, 0, 0, 0, a->attr2, b->attr2);
  if (attr3_a != attr3_b)
    add (out, MAT0_DIFF_ATTR3, MAT0_DIFF_BOTH, 0, 0, 0, 0, attr3_a, attr3_b);
  diff_content (a, b, out);
  return out->len > before;
}

gboolean
mat0_diff_entries (const Mat0DiffEntry *a,
                   const Mat0DiffEntry *b,
                   GArray              *out)
{
  guint before;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  before = out->len;
  if (a->type_id != b->type_id)
    add (out, MAT0_DIFF_TYPE, MAT0_DIFF_BOTH, 0, 0, 0, 0, a->type_id, b->type_id);
  if (a->attr1 != b->attr1)
    add (out, MAT0_DIFF_ATTR1, MAT0_DIFF_BOTH, 0, 0, 0, 0, a->attr1, b->attr1);
  if (a->attr2 != b->attr2)
    add (out, MAT0_DIFF_ATTR2, MAT0_DIFF_BOTH, 0, 0, 0, 0, a->attr2, b->attr2);
  if (a->attr3 != b->attr3)
    add (out, MAT0_DIFF_ATTR3, MAT0_DIFF_BOTH, 0, 0, 0, 0, a->attr3, b->attr3);

  if (a->type_id == b->type_id && a->material != NULL && b->material != NULL)
    diff_content (a->material, b->material, out);
  else if (a->size != b->size ||
           (a->size > 0 && (a->payload == NULL || b->payload == NULL ||
                            memcmp (a->payload, b->payload, a->size) != 0)))
    add (out, MAT0_DIFF_PAYLOAD, MAT0_DIFF_BOTH, 0, 0, 0, 0,
         (guint32) MIN (a->size, G_MAXUINT32), (guint32) MIN (b->size, G_MAXUINT32));

  return out->len > before;
}

char *
mat0_diff_field_dup_path (const Mat0DiffField *field)
{
  static const char *const k_names[] = { "k0", "k1", "k2" };

  g_return_val_if_fail (field != NULL, NULL);

  switch (field->kind)
    {
    case MAT0_DIFF_TYPE: return g_strdup ("type");
    case MAT0_DIFF_ATTR1: return g_strdup ("attr1");
    case MAT0_DIFF_ATTR2: return g_strdup ("attr2");
    case MAT0_DIFF_ATTR3: return g_strdup ("attr3");
    case MAT0_DIFF_PAYLOAD: return g_strdup ("payload");
    case MAT0_DIFF_META:
      return g_strdup_printf ("meta.%s", mat0_fields_meta ((Mat0MetaId) MIN (field->index, MAT0_META_D))->key);
    case MAT0_DIFF_PHASE: return g_strdup_printf ("phase[%u]", field->phase);
    case MAT0_DIFF_PARAM: return g_strdup_printf ("phase[%u].p[%u]", field->phase, field->index);
    case MAT0_DIFF_TEXTURE: return g_strdup_printf ("phase[%u].texture", field->phase);
    case MAT0_DIFF_BLOCK: return g_strdup_printf ("block[%u]", field->block);
    case MAT0_DIFF_MODE: return g_strdup_printf ("block[%u].mode", field->block);
    case MAT0_DIFF_INTERP: return g_strdup_printf ("block[%u].interp", field->block);
    case MAT0_DIFF_KEY: return g_strdup_printf ("block[%u].key[%u]", field->block, field->key);
    case MAT0_DIFF_K0:
    case MAT0_DIFF_K1:
    case MAT0_DIFF_K2:
      return g_strdup_printf ("block[%u].key[%u].%s", field->block, field->key,
                              k_names[field->kind - MAT0_DIFF_K0]);
    default:
      g_return_val_if_reached (g_strdup ("?"));
    }
}

static void
append_part (GString    *text,
             const char *part)
{
  if (text->len > 0)
    g_string_append (text, _(", "));
  g_string_append (text, part);
}

/* ---- one field and its values for people -------------------------------- */

static const Mat0ParamField *
param_of (const Mat0DiffField *field)
{
  return mat0_fields_param (MIN (field->index, MAT0_PARAM_COUNT - 1u));
}

static const Mat0MetaField *
meta_of (const Mat0DiffField *field)
{
  return mat0_fields_meta ((Mat0MetaId) MIN (field->index, MAT0_META_D));
}

/* The colour channel of a group: "R", "G", "B", "A". Returns: (transfer none). */
static const char *
channel_letter (guint channel)
{
  switch (channel)
    {
    /* Translators: colour channels, written after a colour group: "diffuse R" */
    case 0: return C_("colour channel", "R");
    case 1: return C_("colour channel", "G");
    case 2: return C_("colour channel", "B");
    default: return C_("colour channel", "A");
    }
}

/* What part of a phase a parameter byte is: "diffuse R", "opacity",
 * "specular power". Returns: (transfer full). */
static char *
param_part (guint byte)
{
  const Mat0ParamField *param = mat0_fields_param (MIN (byte, MAT0_PARAM_COUNT - 1u));

  if (param->group != MAT0_GROUP_NONE && param->reading == MAT0_READING_UNIT)
    {
      g_autofree char *group = g_utf8_strdown (_(mat0_fields_group (param->group)->label), -1);

      /* Translators: a colour group and one of its channels, "diffuse R" */
      return g_strdup_printf (_("%s %s"), group, channel_letter (param->channel));
    }
  return g_utf8_strdown (_(param->label), -1);
}

char *
mat0_diff_field_dup_label (const Mat0DiffField *field)
{
  g_return_val_if_fail (field != NULL, NULL);

  switch (field->kind)
    {
    case MAT0_DIFF_TYPE:
      return g_strdup (_("entry type"));
    case MAT0_DIFF_ATTR1:
      return g_strdup (_("attr1"));
    case MAT0_DIFF_ATTR2:
      return g_strdup (_("version"));
    case MAT0_DIFF_ATTR3:
      return g_strdup (_("attr3"));
    case MAT0_DIFF_PAYLOAD:
      return g_strdup (_("payload bytes"));
    case MAT0_DIFF_META:
      return g_utf8_strdown (_(meta_of (field)->label), -1);
    case MAT0_DIFF_PHASE:
      return field->side == MAT0_DIFF_ONLY_B ? g_strdup_printf (_("phase %u added"), field->phase)
                                             : g_strdup_printf (_("phase %u removed"), field->phase);
    case MAT0_DIFF_PARAM:
    case MAT0_DIFF_TEXTURE:
      {
        g_autofree char *part = field->kind == MAT0_DIFF_TEXTURE
                                ? g_utf8_strdown (_(mat0_fields_texture_label ()), -1)
                                : param_part (field->index);

        /* Translators: a field of a phase: "phase 0 diffuse R", "phase 1 texture" */
        return g_strdup_printf (_("phase %u %s"), field->phase, part);
      }
    case MAT0_DIFF_BLOCK:
      return field->side == MAT0_DIFF_ONLY_B ? g_strdup_printf (_("block %u added"), field->block)
                                             : g_strdup_printf (_("block %u removed"), field->block);
    case MAT0_DIFF_MODE:
      /* Translators: the animation mode of a block */
      return g_strdup_printf (_("block %u mode"), field->block);
    case MAT0_DIFF_INTERP:
      /* Translators: the interpolation mask of a block */
      return g_strdup_printf (_("block %u interpolation"), field->block);
    case MAT0_DIFF_KEY:
      return field->side == MAT0_DIFF_ONLY_B
             /* Translators: B has a key A has not */
             ? g_strdup_printf (_("block %u key %u added"), field->block, field->key)
             /* Translators: A has a key B has not */
             : g_strdup_printf (_("block %u key %u removed"), field->block, field->key);
    case MAT0_DIFF_K0:
      /* Translators: k0 of a key, the phase it shows */
      return g_strdup_printf (_("block %u key %u phase"), field->block, field->key);
    case MAT0_DIFF_K1:
      /* Translators: k1 of a key, the time its interval ends */
      return g_strdup_printf (_("block %u key %u time"), field->block, field->key);
    case MAT0_DIFF_K2:
      /* Translators: k2 of a key, kept as stored; "k2" is its name */
      return g_strdup_printf (_("block %u key %u k2"), field->block, field->key);
    default:
      g_return_val_if_reached (g_strdup ("?"));
    }
}

static guint32
value_of (const Mat0DiffField *field,
          guint                side)
{
  return side == 0 ? field->from : field->to;
}

static gboolean
textured (const Mat0DiffField *field,
          guint                side)
{
  return field->texture[side != 0][0] != 0;
}

/* The labels of the bits of an interpolation mask, "Self-light RGB,
 * Opacity", "none". Returns: (transfer full). */
static char *
interp_labels (guint32 mask)
{
  GString *text = g_string_new (NULL);
  guint32 rest = mask;

  for (guint i = 0; i < MAT0_N_INTERP_BITS; i++)
    {
      const Mat0InterpField *bit = mat0_fields_interp (i);

      if ((mask & bit->mask) == 0)
        continue;
      append_part (text, _(bit->label));
      rest &= ~bit->mask;
    }
  if (rest != 0)
    {
      /* Translators: interpolation bits no code is known to read */
      g_autofree char *unknown = g_strdup_printf (_("unknown bits 0x%X"), rest);

      append_part (text, unknown);
    }
  if (text->len == 0)
    /* Translators: no field blends between keys */
    g_string_append (text, _("none"));
  return g_string_free (text, FALSE);
}

char *
mat0_diff_field_dup_reading (const Mat0DiffField *field,
                             guint                side)
{
  guint32 v;

  g_return_val_if_fail (field != NULL, NULL);

  v = value_of (field, side);
  switch (field->kind)
    {
    case MAT0_DIFF_TYPE:
      {
        char letters[5];

        for (guint i = 0; i < 4; i++)
          {
            letters[i] = (char) ((v >> (8 * i)) & 0xFFu);
            if (!g_ascii_isprint (letters[i]))
              return NULL;
          }
        letters[4] = '\0';
        return g_strdup (letters);
      }
    case MAT0_DIFF_ATTR1:
      {
        const Mat0BlendField *blend = mat0_fields_blend_of_attr1 (v);
        GString *text = g_string_new (NULL);
        guint32 unknown = v & mat0_fields_unknown_bits ()->mask;

        if (blend->mode < 0)
          /* Translators: a blend index past the engine's table */
          g_string_append_printf (text, _("unknown blend %u"), blend->index);
        else
          g_string_append (text, _(blend->label));
        /* then the single-bit flags that are set */
        for (guint i = 0; i < MAT0_N_FLAG_FIELDS; i++)
          if (v & mat0_fields_flag (i)->mask)
            {
              g_autofree char *flag = g_utf8_strdown (_(mat0_fields_flag (i)->label), -1);

              append_part (text, flag);
            }
        if (unknown != 0)
          {
            /* Translators: attr1 bits no code is known to read */
            g_autofree char *bits = g_strdup_printf (_("unknown bits 0x%X"), unknown);

            append_part (text, bits);
          }
        return g_string_free (text, FALSE);
      }
    case MAT0_DIFF_PAYLOAD:
      /* Translators: a size; the space is a no-break space */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u\u00a0byte", "%u\u00a0bytes", v), v);
    case MAT0_DIFF_META:
      switch (field->index)
        {
        case MAT0_META_A:
          {
            const char *ground = mat0_fields_ground_class (v);

            return ground != NULL ? g_strdup (_(ground)) : NULL;
          }
        case MAT0_META_C:
          {
            float f;
            char text[G_ASCII_DTOSTR_BUF_SIZE];

            memcpy (&f, &v, sizeof f);
            return g_strdup (g_ascii_formatd (text, sizeof text, "%g", (double) f));
          }
        default:
          return NULL;
        }
    case MAT0_DIFF_PHASE:
      /* Translators: how many phases a material has; a no-break space */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u\u00a0phase", "%u\u00a0phases", v), v);
    case MAT0_DIFF_PARAM:
      switch (param_of (field)->reading)
        {
        case MAT0_READING_PERCENT:
          return mat0_fields_dup_opacity_reading ((guint8) v);
        case MAT0_READING_CELL:
          return mat0_fields_dup_cell_reading ((guint8) v, textured (field, side));
        default:
          return NULL;
        }
    case MAT0_DIFF_BLOCK:
      /* Translators: how many animation blocks a material has; a no-break space */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u\u00a0block", "%u\u00a0blocks", v), v);
    case MAT0_DIFF_MODE:
      {
        const Mat0ModeField *mode = mat0_fields_mode (v);

        if (mode->known)
          return g_strdup (_(mode->label));
        /* Translators: "Unknown", then the stored mode number */
        return g_strdup_printf (_("%s (%u)"), _(mode->label), v & 7u);
      }
    case MAT0_DIFF_INTERP:
      return interp_labels (v);
    case MAT0_DIFF_KEY:
      /* Translators: how many keys a block has; a no-break space */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u\u00a0key", "%u\u00a0keys", v), v);
    case MAT0_DIFF_K1:
      /* Translators: a time in milliseconds; the space is a no-break space */
      return g_strdup_printf (_("%u\u00a0ms"), v);
    default:
      return NULL;
    }
}

/* "0x8 (Additive)": a number and how it reads. Returns: (transfer full). */
static char *
with_reading (const char *number,
              const char *reading)
{
  if (reading == NULL)
    return g_strdup (number);
  /* Translators: a value and how it reads: "0x8 (Additive)", "7 (water)" */
  return g_strdup_printf (_("%s (%s)"), number, reading);
}

char *
mat0_diff_field_dup_texture (const Mat0DiffField *field,
                             guint                side)
{
  g_return_val_if_fail (field != NULL, NULL);

  return cp1251_to_utf8 (field->texture[side != 0], MAT0_TEXTURE_SIZE);
}

char *
mat0_diff_field_dup_value (const Mat0DiffField *field,
                           guint                side)
{
  g_autofree char *reading = NULL;
  g_autofree char *number = NULL;
  guint32 v;

  g_return_val_if_fail (field != NULL, NULL);

  v = value_of (field, side);
  reading = mat0_diff_field_dup_reading (field, side);
  switch (field->kind)
    {
    case MAT0_DIFF_TYPE:
      return reading != NULL ? g_steal_pointer (&reading) : g_strdup_printf ("0x%08X", v);
    case MAT0_DIFF_ATTR1:
    case MAT0_DIFF_INTERP:
      number = g_strdup_printf ("0x%X", v);
      return with_reading (number, reading);
    case MAT0_DIFF_META:
      if (field->index == MAT0_META_C)
        {
          number = g_strdup_printf ("0x%08X", v);
          return with_reading (reading, number);
        }
      number = g_strdup_printf ("%u", v);
      return with_reading (number, reading);
    case MAT0_DIFF_TEXTURE:
      {
        g_autofree char *name = NULL;

        if (!textured (field, side))
          return g_strdup (_("untextured"));
        name = mat0_diff_field_dup_texture (field, side);
        return g_strdup_printf ("“%s”", name);
      }
    default:
      /* the readings of sizes, counts, the opacity, the cell, modes and
       * times hold their number */
      if (reading != NULL)
        return g_steal_pointer (&reading);
      return g_strdup_printf ("%u", v);
    }
}

/* The 16 bytes of a texture field in hex. Returns: (transfer full). */
static char *
texture_hex (const guint8 *texture)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < MAT0_TEXTURE_SIZE; i++)
    g_string_append_printf (text, i > 0 ? " %02X" : "%02X", texture[i]);
  return g_string_free (text, FALSE);
}

/* "255 (−1 untextured)": the raw number, then its reading.
 * Returns: (transfer full). */
static char *
raw_value (const Mat0DiffField *field,
           guint                side)
{
  g_autofree char *number = g_strdup_printf ("%u", value_of (field, side));
  g_autofree char *reading = mat0_diff_field_dup_reading (field, side);

  return with_reading (number, reading);
}

char *
mat0_diff_field_dup_change (const Mat0DiffField *field)
{
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;

  g_return_val_if_fail (field != NULL, NULL);

  from = mat0_diff_field_dup_value (field, 0);
  to = mat0_diff_field_dup_value (field, 1);
  if (g_str_equal (from, to))
    {
      g_free (from);
      g_free (to);
      if (field->kind == MAT0_DIFF_TEXTURE)
        {
          /* the same name: the bytes after its NUL differ */
          from = texture_hex (field->texture[0]);
          to = texture_hex (field->texture[1]);
        }
      else
        {
          /* two bytes the engine reads alike (a cell when untextured):
           * their numbers tell them apart */
          from = raw_value (field, 0);
          to = raw_value (field, 1);
        }
    }
  /* Translators: a change, the old value, then the new one */
  return g_strdup_printf (_("%s → %s"), from, to);
}

char *
mat0_diff_field_dup_description (const Mat0DiffField *field)
{
  g_autofree char *label = NULL;
  g_autofree char *change = NULL;

  g_return_val_if_fail (field != NULL, NULL);

  label = mat0_diff_field_dup_label (field);
  change = mat0_diff_field_dup_change (field);
  /* Translators: a field and its change, "phase 0 diffuse R: 128 → 200" */
  return g_strdup_printf (_("%s: %s"), label, change);
}

char *
mat0_diff_dup_changes (const Mat0DiffField *fields,
                       guint                n_fields,
                       guint                max)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (fields != NULL || n_fields == 0, NULL);

  for (guint i = 0; i < MIN (n_fields, max); i++)
    {
      g_autofree char *line = mat0_diff_field_dup_description (&fields[i]);

      if (i > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, line);
    }
  if (n_fields > max)
    {
      guint more = n_fields - max;

      if (text->len > 0)
        g_string_append_c (text, '\n');
      /* Translators: more changes than are listed */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "… and %u more change",
                                                 "… and %u more changes", more), more);
    }
  return g_string_free (text, FALSE);
}

/* ---- the summary for people ------------------------------------------- */

/* Adds @label (translated already) to @parts unless it is there. */
static void
add_label (GPtrArray  *parts,
           const char *label)
{
  g_autofree char *lower = g_utf8_strdown (label, -1);

  for (guint i = 0; i < parts->len; i++)
    if (g_str_equal (parts->pdata[i], lower))
      return;
  g_ptr_array_add (parts, g_steal_pointer (&lower));
}

static char *
join_parts (GPtrArray *parts)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < parts->len; i++)
    append_part (text, parts->pdata[i]);
  return g_string_free (text, FALSE);
}

/* What part of a phase a field is: its colour group, the power, the cell
 * or the texture. Returns: (transfer none): translated. */
static const char *
phase_part_label (const Mat0DiffField *field)
{
  const Mat0ParamField *param;

  if (field->kind == MAT0_DIFF_TEXTURE)
    return _(mat0_fields_texture_label ());
  param = mat0_fields_param (MIN (field->index, MAT0_PARAM_COUNT - 1u));
  if (param->group != MAT0_GROUP_NONE)
    return _(mat0_fields_group (param->group)->label);
  return _(param->label);
}

char *
mat0_diff_dup_summary (const Mat0DiffField *fields,
                       guint                n_fields)
{
  g_autoptr(GPtrArray) meta = g_ptr_array_new_with_free_func (g_free);
  GString *text = g_string_new (NULL);
  gboolean type = FALSE, attr1 = FALSE, attr2 = FALSE, attr3 = FALSE, payload = FALSE;
  guint i;

  g_return_val_if_fail (fields != NULL || n_fields == 0, NULL);

  /* the entry's own fields first, whatever their order */
  for (i = 0; i < n_fields; i++)
    switch (fields[i].kind)
      {
      case MAT0_DIFF_TYPE: type = TRUE; break;
      case MAT0_DIFF_ATTR1: attr1 = TRUE; break;
      case MAT0_DIFF_ATTR2: attr2 = TRUE; break;
      case MAT0_DIFF_ATTR3: attr3 = TRUE; break;
      case MAT0_DIFF_PAYLOAD: payload = TRUE; break;
      case MAT0_DIFF_META:
        add_label (meta, _(mat0_fields_meta ((Mat0MetaId) MIN (fields[i].index, MAT0_META_D))->label));
        break;
      default: break;
      }
  if (type)
    /* Translators: a summary item: the two entries have other types */
    append_part (text, _("entry type"));
  if (attr1)
    /* Translators: a summary item, the name of the flags field */
    append_part (text, _("attr1"));
  if (attr2)
    /* Translators: a summary item: the payload version (attr2) */
    append_part (text, _("version"));
  if (attr3)
    append_part (text, _("attr3"));
  if (meta->len > 0)
    {
      g_autofree char *list = join_parts (meta);
      /* Translators: a summary item: the metadata fields that differ,
       * "metadata (ground class, speed factor)" */
      g_autofree char *part = g_strdup_printf (_("metadata (%s)"), list);

      append_part (text, part);
    }
  if (payload)
    /* Translators: a summary item: entries compared byte by byte */
    append_part (text, _("payload bytes"));

  /* the phases, then the blocks, each once with its parts */
  i = 0;
  while (i < n_fields)
    {
      const Mat0DiffField *field = &fields[i];
      g_autofree char *part = NULL;

      if (field->kind == MAT0_DIFF_PHASE)
        {
          part = field->side == MAT0_DIFF_ONLY_B
                 /* Translators: a summary item: B has a phase A has not */
                 ? g_strdup_printf (_("phase %u added"), field->phase)
                 /* Translators: a summary item: A has a phase B has not */
                 : g_strdup_printf (_("phase %u removed"), field->phase);
          i++;
        }
      else if (field->kind == MAT0_DIFF_PARAM || field->kind == MAT0_DIFF_TEXTURE)
        {
          g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
          g_autofree char *list = NULL;
          guint phase = field->phase;

          for (; i < n_fields && fields[i].phase == phase &&
                 (fields[i].kind == MAT0_DIFF_PARAM || fields[i].kind == MAT0_DIFF_TEXTURE); i++)
            add_label (parts, phase_part_label (&fields[i]));
          list = join_parts (parts);
          /* Translators: a summary item: what differs in a phase,
           * "phase 2 (self-light, texture)" */
          part = g_strdup_printf (_("phase %u (%s)"), phase, list);
        }
      else if (field->kind == MAT0_DIFF_BLOCK)
        {
          part = field->side == MAT0_DIFF_ONLY_B
                 /* Translators: a summary item: B has an animation block A has not */
                 ? g_strdup_printf (_("block %u added"), field->block)
                 : g_strdup_printf (_("block %u removed"), field->block);
          i++;
        }
      else if (field->kind >= MAT0_DIFF_MODE && field->kind <= MAT0_DIFF_K2)
        {
          g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
          g_autofree char *list = NULL;
          guint block = field->block;

          for (; i < n_fields && fields[i].block == block &&
                 fields[i].kind >= MAT0_DIFF_MODE && fields[i].kind <= MAT0_DIFF_K2; i++)
            {
              if (fields[i].kind == MAT0_DIFF_MODE)
                /* Translators: a summary item: the animation mode differs */
                add_label (parts, _("mode"));
              else if (fields[i].kind == MAT0_DIFF_INTERP)
                /* Translators: a summary item: the interpolation mask differs */
                add_label (parts, _("interpolation"));
              else
                /* Translators: a summary item: keys differ (their phase,
                 * time or k2, or how many there are) */
                add_label (parts, _("keys"));
            }
          list = join_parts (parts);
          /* Translators: a summary item: what differs in an animation
           * block, "block 0 (mode, keys)" */
          part = g_strdup_printf (_("block %u (%s)"), block, list);
        }
      else
        {
          i++;
          continue;
        }
      append_part (text, part);
    }

  return g_string_free (text, FALSE);
}

/* ---- libraries ---------------------------------------------------------- */

static void
item_free (gpointer data)
{
  Mat0DiffItem *item = data;

  g_clear_pointer (&item->fields, g_array_unref);
  g_free (item);
}

static Mat0DiffItem *
item_new (Mat0DiffStatus status,
          gint           index_a,
          gint           index_b)
{
  Mat0DiffItem *item = g_new0 (Mat0DiffItem, 1);

  item->status = status;
  item->index_a = index_a;
  item->index_b = index_b;
  item->fields = mat0_diff_fields_new ();
  return item;
}

Mat0LibraryDiff *
mat0_diff_libraries (const Mat0DiffEntry *a,
                     guint                n_a,
                     const Mat0DiffEntry *b,
                     guint                n_b)
{
  g_autoptr(GHashTable) by_name = NULL;
  g_autofree gboolean *matched = NULL;
  Mat0LibraryDiff *diff;

  g_return_val_if_fail (a != NULL || n_a == 0, NULL);
  g_return_val_if_fail (b != NULL || n_b == 0, NULL);

  diff = g_new0 (Mat0LibraryDiff, 1);
  diff->items = g_ptr_array_new_with_free_func (item_free);

  /* B's entries by folded name, each name's occurrences in index order */
  by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                   (GDestroyNotify) g_queue_free);
  for (guint i = 0; i < n_b; i++)
    {
      char *key = g_ascii_strdown (b[i].name != NULL ? b[i].name : "", -1);
      GQueue *queue = g_hash_table_lookup (by_name, key);

      if (queue == NULL)
        {
          queue = g_queue_new ();
          g_hash_table_insert (by_name, key, queue);
        }
      else
        g_free (key);
      g_queue_push_tail (queue, GUINT_TO_POINTER (i));
    }

  matched = g_new0 (gboolean, MAX (n_b, 1));
  for (guint i = 0; i < n_a; i++)
    {
      g_autofree char *key = g_ascii_strdown (a[i].name != NULL ? a[i].name : "", -1);
      GQueue *queue = g_hash_table_lookup (by_name, key);
      Mat0DiffItem *item;
      guint j;

      if (queue == NULL || g_queue_is_empty (queue))
        {
          g_ptr_array_add (diff->items, item_new (MAT0_DIFF_REMOVED, (gint) i, -1));
          diff->n_removed++;
          continue;
        }
      j = GPOINTER_TO_UINT (g_queue_pop_head (queue));
      matched[j] = TRUE;
      item = item_new (MAT0_DIFF_SAME, (gint) i, (gint) j);
      if (mat0_diff_entries (&a[i], &b[j], item->fields))
        {
          item->status = MAT0_DIFF_CHANGED;
          diff->n_changed++;
        }
      else
        diff->n_same++;
      g_ptr_array_add (diff->items, item);
    }

  for (guint j = 0; j < n_b; j++)
    if (!matched[j])
      {
        g_ptr_array_add (diff->items, item_new (MAT0_DIFF_ADDED, -1, (gint) j));
        diff->n_added++;
      }

  return diff;
}

typedef struct {
  Mat0DiffEntry *entries;
  Mat0Material **materials;
  char         **names;
  guint          n;
} ArchiveEntries;

static void
archive_entries_init (ArchiveEntries    *out,
                      const NresArchive *archive)
{
  out->n = archive->n_entries;
  out->entries = g_new0 (Mat0DiffEntry, MAX (out->n, 1));
  out->materials = g_new0 (Mat0Material *, MAX (out->n, 1));
  out->names = g_new0 (char *, out->n + 1);

  for (guint i = 0; i < out->n; i++)
    {
      const NresEntry *e = &archive->entries[i];
      Mat0DiffEntry *entry = &out->entries[i];

      out->names[i] = cp1251_to_utf8 ((const guint8 *) e->name, NRES_NAME_SIZE);
      entry->name = out->names[i];
      entry->type_id = e->type_id;
      entry->attr1 = e->attr1;
      entry->attr2 = e->attr2;
      entry->attr3 = e->attr3;
      entry->payload = nres_archive_payload (archive, i, &entry->size);
      if (e->type_id == NRES_TYPE_MAT0)
        /* one that does not decode compares by its bytes */
        out->materials[i] = mat0_decode (entry->payload, entry->size, e->attr2,
                                         out->names[i], e->data_offset, NULL);
      entry->material = out->materials[i];
    }
}

static void
archive_entries_clear (ArchiveEntries *entries)
{
  for (guint i = 0; i < entries->n; i++)
    g_clear_pointer (&entries->materials[i], mat0_material_free);
  g_free (entries->materials);
  g_free (entries->entries);
  g_strfreev (entries->names);
}

Mat0LibraryDiff *
mat0_diff_archives (const NresArchive *a,
                    const NresArchive *b)
{
  ArchiveEntries ea, eb;
  Mat0LibraryDiff *diff;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  archive_entries_init (&ea, a);
  archive_entries_init (&eb, b);
  diff = mat0_diff_libraries (ea.entries, ea.n, eb.entries, eb.n);
  archive_entries_clear (&ea);
  archive_entries_clear (&eb);
  return diff;
}

gboolean
mat0_library_diff_is_equal (const Mat0LibraryDiff *diff)
{
  g_return_val_if_fail (diff != NULL, FALSE);

  return diff->n_changed == 0 && diff->n_added == 0 && diff->n_removed == 0;
}

void
mat0_library_diff_free (Mat0LibraryDiff *diff)
{
  if (diff == NULL)
    return;
  g_clear_pointer (&diff->items, g_ptr_array_unref);
  g_free (diff);
}
