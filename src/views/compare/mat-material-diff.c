/* mat-material-diff.c - two whole materials side by side, field by field
 *
 * The table is a GtkGrid of rows (field, A, copy, B) built from the two
 * materials' shapes (how many phases, blocks and keys each has) and
 * rebuilt only when a shape changes; otherwise an update rewrites the
 * texts. Which rows differ comes from mat0_diff_materials, the one
 * comparison the library diff and mat0tool use too. Labels and readings
 * come from mat0-fields. Each copy is one call into mat-material-copy.h.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat0-diff.h"
#include "mat0-fields.h"
#include "mat-compare-cells.h"
#include "mat-material-copy.h"
#include "mat-material-diff.h"
#include "mat-style.h"
#include "mat-tooltip.h"

#define RESOURCE_PREFIX "/io/github/parkan/MatEdit/"
#define N_SIDES 2
#define ROW_NOTE 100   /* "… N more": not a field */

enum {
  COL_TITLE,
  COL_A,
  COL_COPY,
  COL_B,
  N_COLUMNS
};

typedef struct {
  guint      kind;      /* MatMaterialDiffRowKind or ROW_NOTE */
  guint      item;      /* phase or block */
  guint      index;
  gint       section;   /* the row of its section title, -1 for none */

  gboolean   differs;
  gboolean   copyable[N_SIDES];
  gboolean   visible;
  char      *text[N_SIDES];

  GtkWidget *title;
  GtkWidget *value[N_SIDES];
  GtkWidget *copy_box;
  GtkWidget *copy[N_SIDES];   /* the button that copies into A, into B */
} Row;

typedef struct {
  MatMaterial  *material;
  gboolean      editable;
  Mat0Material *core;
  guint32       attr1;
  guint32       attr3;
  GSignalGroup *signals;
} Side;

struct _MatMaterialDiff
{
  GtkWidget   parent_instance;

  Side        sides[N_SIDES];
  GArray     *rows;           /* Row */
  GArray     *fields;         /* Mat0DiffField of the last update */
  gboolean    differences_only;
  guint       n_differences;
  char       *summary;
  char       *changes;        /* the line of changes under the summary */
  char       *error;          /* the last failed copy */
  guint       update_id;      /* an update after the materials changed */

  /* template */
  GtkLabel   *summary_label;
  GtkLabel   *changes_label;
  GtkWidget  *only_check;
  GtkGrid    *table;
};

G_DEFINE_FINAL_TYPE (MatMaterialDiff, mat_material_diff, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DIFFERENCES_ONLY,
  PROP_N_DIFFERENCES,
  N_PROPS
};

enum {
  EDITED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void update (MatMaterialDiff *self);

/* ------------------------------------------------------------------ */
/* Rows                                                                 */

static void
row_clear (gpointer data)
{
  Row *row = data;

  for (guint s = 0; s < N_SIDES; s++)
    g_clear_pointer (&row->text[s], g_free);
}

static void
add_row (GArray *rows,
         guint   kind,
         guint   item,
         guint   index,
         gint    section)
{
  Row row = { 0 };

  row.kind = kind;
  row.item = item;
  row.index = index;
  row.section = section;
  row.visible = TRUE;
  g_array_append_val (rows, row);
}

/* The rows the two materials' shapes ask for. */
static GArray *
plan_rows (MatMaterialDiff *self)
{
  const Mat0Material *a = self->sides[0].core, *b = self->sides[1].core;
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (Row));
  guint n_phases = 0, n_blocks = 0;

  g_array_set_clear_func (rows, row_clear);
  add_row (rows, MAT_MATERIAL_DIFF_ROW_MATERIAL, 0, 0, -1);
  add_row (rows, MAT_MATERIAL_DIFF_ROW_ATTR1, 0, 0, 0);
  add_row (rows, MAT_MATERIAL_DIFF_ROW_ATTR2, 0, 0, 0);
  add_row (rows, MAT_MATERIAL_DIFF_ROW_ATTR3, 0, 0, 0);
  for (guint m = 0; m < MAT0_N_META; m++)
    add_row (rows, MAT_MATERIAL_DIFF_ROW_META, 0, m, 0);

  if (a != NULL)
    {
      n_phases = a->n_phases;
      n_blocks = a->n_blocks;
    }
  if (b != NULL)
    {
      n_phases = MAX (n_phases, b->n_phases);
      n_blocks = MAX (n_blocks, b->n_blocks);
    }

  for (guint i = 0; i < MIN (n_phases, MAT_MATERIAL_DIFF_MAX_ROWS); i++)
    {
      gint section = (gint) rows->len;

      add_row (rows, MAT_MATERIAL_DIFF_ROW_PHASE, i, 0, -1);
      for (guint g = 0; g < MAT0_N_GROUPS; g++)
        add_row (rows, MAT_MATERIAL_DIFF_ROW_GROUP, i, g, section);
      add_row (rows, MAT_MATERIAL_DIFF_ROW_PARAM, i, 16, section);
      add_row (rows, MAT_MATERIAL_DIFF_ROW_PARAM, i, MAT0_CELL_BYTE, section);
      add_row (rows, MAT_MATERIAL_DIFF_ROW_TEXTURE, i, 0, section);
    }
  if (n_phases > MAT_MATERIAL_DIFF_MAX_ROWS)
    add_row (rows, ROW_NOTE, 0, n_phases - MAT_MATERIAL_DIFF_MAX_ROWS, -1);

  for (guint j = 0; j < n_blocks; j++)
    {
      gint section = (gint) rows->len;
      guint n_keys = 0;

      if (a != NULL && j < a->n_blocks)
        n_keys = a->blocks[j].n_keys;
      if (b != NULL && j < b->n_blocks)
        n_keys = MAX (n_keys, b->blocks[j].n_keys);
      add_row (rows, MAT_MATERIAL_DIFF_ROW_BLOCK, j, 0, -1);
      add_row (rows, MAT_MATERIAL_DIFF_ROW_MODE, j, 0, section);
      add_row (rows, MAT_MATERIAL_DIFF_ROW_INTERP, j, 0, section);
      for (guint k = 0; k < MIN (n_keys, MAT_MATERIAL_DIFF_MAX_ROWS); k++)
        add_row (rows, MAT_MATERIAL_DIFF_ROW_KEY, j, k, section);
      if (n_keys > MAT_MATERIAL_DIFF_MAX_ROWS)
        add_row (rows, ROW_NOTE, j, n_keys - MAT_MATERIAL_DIFF_MAX_ROWS, section);
    }
  return rows;
}

static gboolean
same_plan (GArray *a,
           GArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    {
      const Row *x = &g_array_index (a, Row, i), *y = &g_array_index (b, Row, i);

      if (x->kind != y->kind || x->item != y->item || x->index != y->index)
        return FALSE;
    }
  return TRUE;
}

static gboolean
is_section (const Row *row)
{
  return row->kind == MAT_MATERIAL_DIFF_ROW_MATERIAL ||
         row->kind == MAT_MATERIAL_DIFF_ROW_PHASE ||
         row->kind == MAT_MATERIAL_DIFF_ROW_BLOCK;
}

/* ------------------------------------------------------------------ */
/* Texts                                                                */

static char *
row_title (const Row *row)
{
  switch (row->kind)
    {
    case MAT_MATERIAL_DIFF_ROW_MATERIAL:
      return g_strdup (_("Whole material"));
    case MAT_MATERIAL_DIFF_ROW_ATTR1:
      return g_strdup (_("Flags (attr1)"));
    case MAT_MATERIAL_DIFF_ROW_ATTR2:
      return g_strdup (_("Version (attr2)"));
    case MAT_MATERIAL_DIFF_ROW_ATTR3:
      return g_strdup (_("attr3"));
    case MAT_MATERIAL_DIFF_ROW_META:
      {
        const Mat0MetaField *meta = mat0_fields_meta ((Mat0MetaId) row->index);

        /* Translators: a metadata field and where it is stored, "Ground class (meta.a)" */
        return g_strdup_printf (_("%s (meta.%s)"), _(meta->label), meta->key);
      }
    case MAT_MATERIAL_DIFF_ROW_PHASE:
      /* Translators: a phase's section in the material comparison */
      return g_strdup_printf (_("Phase %u"), row->item);
    case MAT_MATERIAL_DIFF_ROW_GROUP:
      {
        const Mat0GroupField *group = mat0_fields_group ((Mat0ColourGroup) row->index);

        if (!group->drawn)
          /* Translators: a field the game stores but never draws */
          return g_strdup_printf (_("%s (not drawn)"), _(group->label));
        return g_strdup (_(group->label));
      }
    case MAT_MATERIAL_DIFF_ROW_PARAM:
      return g_strdup (_(mat0_fields_param (row->index)->label));
    case MAT_MATERIAL_DIFF_ROW_TEXTURE:
      return g_strdup (_(mat0_fields_texture_label ()));
    case MAT_MATERIAL_DIFF_ROW_BLOCK:
      /* Translators: an animation block's section in the material comparison */
      return g_strdup_printf (_("Block %u"), row->item);
    case MAT_MATERIAL_DIFF_ROW_MODE:
      return g_strdup (_("Mode"));
    case MAT_MATERIAL_DIFF_ROW_INTERP:
      return g_strdup (_("Interpolation"));
    case MAT_MATERIAL_DIFF_ROW_KEY:
      /* Translators: a key of an animation block */
      return g_strdup_printf (_("Key %u"), row->index);
    default:
      return g_strdup ("");
    }
}

static const char *
row_tooltip (const Row *row)
{
  switch (row->kind)
    {
    case MAT_MATERIAL_DIFF_ROW_MATERIAL:
      return _("Everything but the name: attr1, the version, attr3, the metadata, every phase and every block");
    case MAT_MATERIAL_DIFF_ROW_ATTR1:
      return _(mat0_fields_blend_index ()->meaning);
    case MAT_MATERIAL_DIFF_ROW_ATTR2:
      return _("The payload version: it decides which metadata fields are stored");
    case MAT_MATERIAL_DIFF_ROW_ATTR3:
      return _("Not read by the game’s loader; kept as stored");
    case MAT_MATERIAL_DIFF_ROW_META:
      return _(mat0_fields_meta ((Mat0MetaId) row->index)->meaning);
    case MAT_MATERIAL_DIFF_ROW_PHASE:
      return _("The 34\u00a0bytes of the phase: 18\u00a0parameters and the texture name");
    case MAT_MATERIAL_DIFF_ROW_GROUP:
      return _(mat0_fields_group ((Mat0ColourGroup) row->index)->meaning);
    case MAT_MATERIAL_DIFF_ROW_PARAM:
      return _(mat0_fields_param (row->index)->meaning);
    case MAT_MATERIAL_DIFF_ROW_TEXTURE:
      return _(mat0_fields_texture_meaning ());
    case MAT_MATERIAL_DIFF_ROW_BLOCK:
      return _("The block’s header (mode and interpolation) and all its keys");
    case MAT_MATERIAL_DIFF_ROW_MODE:
      return _("How the block plays its period: the low three bits of its header");
    case MAT_MATERIAL_DIFF_ROW_INTERP:
      return _("Which fields blend between keys: the header’s bits from 3 up");
    case MAT_MATERIAL_DIFF_ROW_KEY:
      return _("k0: the phase; k1: the time in ms at which the key’s interval ends; k2: kept as stored");
    default:
      return NULL;
    }
}

static char *
mode_text (guint mode)
{
  const Mat0ModeField *field = mat0_fields_mode (mode);

  if (field->known)
    return g_strdup (_(field->label));
  /* Translators: "Unknown", then the stored mode number */
  return g_strdup_printf (_("%s (%u)"), _(field->label), mode & 7u);
}

static char *
interp_text (guint32 mask)
{
  GString *labels = g_string_new (NULL);
  g_autofree char *list = NULL;
  guint32 rest = mask;

  for (guint i = 0; i < MAT0_N_INTERP_BITS; i++)
    {
      const Mat0InterpField *field = mat0_fields_interp (i);

      if ((mask & field->mask) == 0)
        continue;
      if (labels->len > 0)
        g_string_append (labels, _(", "));
      g_string_append (labels, _(field->label));
      rest &= ~field->mask;
    }
  if (rest != 0)
    {
      if (labels->len > 0)
        g_string_append (labels, _(", "));
      /* Translators: interpolation bits no code is known to read */
      g_string_append_printf (labels, _("unknown bits 0x%X"), rest);
    }
  if (labels->len == 0)
    /* Translators: no field blends between keys */
    g_string_append (labels, _("none"));
  list = g_string_free (labels, FALSE);
  /* Translators: the interpolation mask in hex and what it blends */
  return g_strdup_printf (_("0x%X — %s"), mask, list);
}

static char *
meta_text (const Mat0Material *core,
           Mat0MetaId          id)
{
  g_autofree char *value = NULL;
  gboolean stored;

  switch (id)
    {
    case MAT0_META_A:
      value = mat0_fields_dup_ground_reading (core->meta_a);
      stored = mat0_has_meta_ab (core->attr2);
      break;
    case MAT0_META_B:
      value = g_strdup_printf ("%u", core->meta_b);
      stored = mat0_has_meta_ab (core->attr2);
      break;
    case MAT0_META_C:
      {
        float f;

        memcpy (&f, &core->meta_c, sizeof f);
        value = g_strdup_printf ("%g (0x%08X)", (double) f, core->meta_c);
        stored = mat0_has_meta_c (core->attr2);
      }
      break;
    default:
      value = g_strdup_printf ("%u", core->meta_d);
      stored = mat0_has_meta_d (core->attr2);
      break;
    }
  if (!stored)
    /* Translators: a metadata value the payload version does not store */
    return g_strdup_printf (_("%s (default, not stored)"), value);
  return g_steal_pointer (&value);
}

static char *
texture_text (const Mat0Phase *phase)
{
  g_autofree char *name = NULL;

  if (!mat0_phase_is_textured (phase))
    return g_strdup (_("untextured"));
  name = mat0_phase_dup_texture (phase);
  return g_strdup_printf ("“%s”", name);
}

/* The raw 16 bytes of a texture field, in hex. */
static char *
texture_hex (const Mat0Phase *phase)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < MAT0_TEXTURE_SIZE; i++)
    g_string_append_printf (text, i > 0 ? " %02X" : "%02X", phase->texture[i]);
  return g_string_free (text, FALSE);
}

static char *
block_text (const Mat0Block *block)
{
  g_autofree char *mode = mode_text (mat0_block_mode (block));

  /* Translators: an animation block: its mode, its period and how many
   * keys it has, "Loop · 3200 ms · 4 keys"; no-break spaces between the
   * numbers and their units */
  return g_strdup_printf (ngettext ("%s · %u\u00a0ms · %u\u00a0key", "%s · %u\u00a0ms · %u\u00a0keys", block->n_keys),
                          mode, (guint) mat0_block_period (block), (guint) block->n_keys);
}

/* What side @s shows in @row. Returns: (transfer full). */
static char *
cell_text (MatMaterialDiff *self,
           const Row       *row,
           guint            s)
{
  const Side *side = &self->sides[s];
  const Mat0Material *core = side->core;
  const Mat0Phase *phase = NULL;
  const Mat0Block *block = NULL;

  if (side->material == NULL)
    return g_strdup ("");
  if (row->kind == MAT_MATERIAL_DIFF_ROW_MATERIAL)
    return g_strdup (mat_material_get_name (side->material));
  if (core == NULL)
    return g_strdup (row->kind == MAT_MATERIAL_DIFF_ROW_ATTR1 ? _("does not decode") : "");

  switch (row->kind)
    {
    case MAT_MATERIAL_DIFF_ROW_PHASE:
    case MAT_MATERIAL_DIFF_ROW_GROUP:
    case MAT_MATERIAL_DIFF_ROW_PARAM:
    case MAT_MATERIAL_DIFF_ROW_TEXTURE:
      if (row->item >= core->n_phases)
        return g_strdup ("—");
      phase = &core->phases[row->item];
      break;
    case MAT_MATERIAL_DIFF_ROW_BLOCK:
    case MAT_MATERIAL_DIFF_ROW_MODE:
    case MAT_MATERIAL_DIFF_ROW_INTERP:
    case MAT_MATERIAL_DIFF_ROW_KEY:
      if (row->item >= core->n_blocks)
        return g_strdup ("—");
      block = &core->blocks[row->item];
      break;
    default:
      break;
    }

  switch (row->kind)
    {
    case MAT_MATERIAL_DIFF_ROW_ATTR1:
      {
        g_autofree char *blend = mat0_fields_blend_dup_reading ((side->attr1 >> 2) & 0xFu);

        /* Translators: attr1 in hex, then the blend it selects */
        return g_strdup_printf (_("0x%X · %s"), side->attr1, blend);
      }
    case MAT_MATERIAL_DIFF_ROW_ATTR2:
      return g_strdup_printf ("%u", core->attr2);
    case MAT_MATERIAL_DIFF_ROW_ATTR3:
      return g_strdup_printf ("%u", side->attr3);
    case MAT_MATERIAL_DIFF_ROW_META:
      return meta_text (core, (Mat0MetaId) row->index);
    case MAT_MATERIAL_DIFF_ROW_PHASE:
      return texture_text (phase);
    case MAT_MATERIAL_DIFF_ROW_GROUP:
      {
        const guint *bytes = mat0_fields_group ((Mat0ColourGroup) row->index)->bytes;

        return g_strdup_printf ("%u, %u, %u, %u", phase->p[bytes[0]], phase->p[bytes[1]],
                                phase->p[bytes[2]], phase->p[bytes[3]]);
      }
    case MAT_MATERIAL_DIFF_ROW_PARAM:
      if (row->index == MAT0_CELL_BYTE)
        {
          g_autofree char *reading = mat0_fields_dup_cell_reading (phase->p[MAT0_CELL_BYTE],
                                                                   mat0_phase_is_textured (phase));

          return g_strdup_printf ("%u · %s", phase->p[MAT0_CELL_BYTE], reading);
        }
      return g_strdup_printf ("%u", phase->p[row->index]);
    case MAT_MATERIAL_DIFF_ROW_TEXTURE:
      return texture_text (phase);
    case MAT_MATERIAL_DIFF_ROW_BLOCK:
      return block_text (block);
    case MAT_MATERIAL_DIFF_ROW_MODE:
      return mode_text (mat0_block_mode (block));
    case MAT_MATERIAL_DIFF_ROW_INTERP:
      return interp_text (mat0_block_interp_mask (block));
    case MAT_MATERIAL_DIFF_ROW_KEY:
      if (row->index >= block->n_keys)
        return g_strdup ("—");
      /* Translators: a key: its phase (k0), the time its interval ends
       * (k1) and the opaque k2; a no-break space before "ms" */
      return g_strdup_printf (_("phase %u · ends at %u\u00a0ms · k2 %u"), block->keys[row->index].k0,
                              block->keys[row->index].k1, block->keys[row->index].k2);
    case ROW_NOTE:
      {
        guint n = row->section < 0 ? core->n_phases
                  : row->item < core->n_blocks ? core->blocks[row->item].n_keys : 0;
        guint more = n > MAT_MATERIAL_DIFF_MAX_ROWS ? n - MAT_MATERIAL_DIFF_MAX_ROWS : 0;

        if (more == 0)
          return g_strdup ("");
        /* Translators: more phases or keys than the table lists */
        return g_strdup_printf (ngettext ("… and %u more", "… and %u more", more), more);
      }
    default:
      return g_strdup ("");
    }
}

/* ------------------------------------------------------------------ */
/* Differences and copies                                               */

/* The row a field of the core's comparison belongs to, or -1. */
static gint
row_of_field (MatMaterialDiff     *self,
              const Mat0DiffField *field)
{
  guint kind, item = 0, index = 0;

  switch (field->kind)
    {
    case MAT0_DIFF_ATTR1: kind = MAT_MATERIAL_DIFF_ROW_ATTR1; break;
    case MAT0_DIFF_ATTR2: kind = MAT_MATERIAL_DIFF_ROW_ATTR2; break;
    case MAT0_DIFF_ATTR3: kind = MAT_MATERIAL_DIFF_ROW_ATTR3; break;
    case MAT0_DIFF_META: kind = MAT_MATERIAL_DIFF_ROW_META; index = field->index; break;
    case MAT0_DIFF_PHASE: kind = MAT_MATERIAL_DIFF_ROW_PHASE; item = field->phase; break;
    case MAT0_DIFF_PARAM:
      item = field->phase;
      if (field->index >= 16)
        {
          kind = MAT_MATERIAL_DIFF_ROW_PARAM;
          index = field->index;
        }
      else
        {
          kind = MAT_MATERIAL_DIFF_ROW_GROUP;
          index = (guint) mat0_fields_param (field->index)->group;
        }
      break;
    case MAT0_DIFF_TEXTURE: kind = MAT_MATERIAL_DIFF_ROW_TEXTURE; item = field->phase; break;
    case MAT0_DIFF_BLOCK: kind = MAT_MATERIAL_DIFF_ROW_BLOCK; item = field->block; break;
    case MAT0_DIFF_MODE: kind = MAT_MATERIAL_DIFF_ROW_MODE; item = field->block; break;
    case MAT0_DIFF_INTERP: kind = MAT_MATERIAL_DIFF_ROW_INTERP; item = field->block; break;
    case MAT0_DIFF_KEY:
    case MAT0_DIFF_K0:
    case MAT0_DIFF_K1:
    case MAT0_DIFF_K2:
      kind = MAT_MATERIAL_DIFF_ROW_KEY;
      item = field->block;
      index = field->key;
      break;
    default:
      return -1;
    }
  return mat_material_diff_find_row (self, kind, item, index);
}

static gboolean
has_phase (const Side *side,
           guint       phase)
{
  return side->core != NULL && phase < side->core->n_phases;
}

static gboolean
has_block (const Side *side,
           guint       block)
{
  return side->core != NULL && block < side->core->n_blocks;
}

static gboolean
has_key (const Side *side,
         guint       block,
         guint       key)
{
  return has_block (side, block) && key < side->core->blocks[block].n_keys;
}

/* Whether @row can be copied into side @to. */
static gboolean
row_can_copy (MatMaterialDiff *self,
              const Row       *row,
              guint            to)
{
  const Side *target = &self->sides[to], *source = &self->sides[1 - to];

  if (!row->differs || !target->editable || target->core == NULL || source->core == NULL ||
      target->material == source->material)
    return FALSE;

  switch (row->kind)
    {
    case MAT_MATERIAL_DIFF_ROW_MATERIAL:
    case MAT_MATERIAL_DIFF_ROW_ATTR1:
    case MAT_MATERIAL_DIFF_ROW_ATTR2:
    case MAT_MATERIAL_DIFF_ROW_ATTR3:
      return TRUE;
    case MAT_MATERIAL_DIFF_ROW_META:
      {
        guint32 attr2 = target->core->attr2;

        return row->index <= MAT0_META_B ? mat0_has_meta_ab (attr2) :
               row->index == MAT0_META_C ? mat0_has_meta_c (attr2) : mat0_has_meta_d (attr2);
      }
    case MAT_MATERIAL_DIFF_ROW_PHASE:
      /* replaced, or appended just past the target's last phase */
      return has_phase (source, row->item) && row->item <= target->core->n_phases;
    case MAT_MATERIAL_DIFF_ROW_GROUP:
    case MAT_MATERIAL_DIFF_ROW_PARAM:
    case MAT_MATERIAL_DIFF_ROW_TEXTURE:
      return has_phase (source, row->item) && has_phase (target, row->item);
    case MAT_MATERIAL_DIFF_ROW_BLOCK:
      return has_block (source, row->item) &&
             (has_block (target, row->item) ||
              (row->item == target->core->n_blocks && target->core->n_blocks < MAT0_MAX_BLOCKS));
    case MAT_MATERIAL_DIFF_ROW_MODE:
    case MAT_MATERIAL_DIFF_ROW_INTERP:
      return has_block (source, row->item) && has_block (target, row->item);
    case MAT_MATERIAL_DIFF_ROW_KEY:
      return has_key (source, row->item, row->index) && has_key (target, row->item, row->index);
    default:
      return FALSE;
    }
}

static gboolean
copy_row (MatMaterialDiff  *self,
          const Row        *row,
          guint             to,
          GError          **error)
{
  MatMaterial *target = self->sides[to].material;
  MatMaterial *source = self->sides[1 - to].material;

  switch (row->kind)
    {
    case MAT_MATERIAL_DIFF_ROW_MATERIAL:
      return mat_material_copy_all (target, source, error);
    case MAT_MATERIAL_DIFF_ROW_ATTR1:
      return mat_material_copy_field (target, source, MAT_COPY_ATTR1, error);
    case MAT_MATERIAL_DIFF_ROW_ATTR2:
      return mat_material_copy_field (target, source, MAT_COPY_ATTR2, error);
    case MAT_MATERIAL_DIFF_ROW_ATTR3:
      return mat_material_copy_field (target, source, MAT_COPY_ATTR3, error);
    case MAT_MATERIAL_DIFF_ROW_META:
      return mat_material_copy_field (target, source, MAT_COPY_META_A + row->index, error);
    case MAT_MATERIAL_DIFF_ROW_PHASE:
      return mat_material_copy_phase (target, row->item, source, row->item, error);
    case MAT_MATERIAL_DIFF_ROW_GROUP:
      return mat_material_copy_group (target, row->item, source, row->item,
                                      (Mat0ColourGroup) row->index, error);
    case MAT_MATERIAL_DIFF_ROW_PARAM:
      return mat_material_copy_param (target, row->item, source, row->item, row->index, error);
    case MAT_MATERIAL_DIFF_ROW_TEXTURE:
      return mat_material_copy_texture (target, row->item, source, row->item, error);
    case MAT_MATERIAL_DIFF_ROW_BLOCK:
      return mat_material_copy_block (target, row->item, source, row->item, error);
    case MAT_MATERIAL_DIFF_ROW_MODE:
      return mat_material_copy_mode (target, row->item, source, row->item, error);
    case MAT_MATERIAL_DIFF_ROW_INTERP:
      return mat_material_copy_interp (target, row->item, source, row->item, error);
    case MAT_MATERIAL_DIFF_ROW_KEY:
      return mat_material_copy_key (target, row->item, row->index, source, row->item,
                                    row->index, error);
    default:
      return TRUE;
    }
}

/* ------------------------------------------------------------------ */
/* The table                                                            */



static void
clear_table (MatMaterialDiff *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->table))) != NULL)
    gtk_grid_remove (self->table, child);
}

static void
build_table (MatMaterialDiff *self)
{
  static const char *const heads[N_COLUMNS] = { N_("Field"), "A", N_("Copy"), "B" };

  clear_table (self);

  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkWidget *head = mat_compare_cell_label (NULL, 0.f, "column-title");

      gtk_label_set_text (GTK_LABEL (head), c == COL_A || c == COL_B ? heads[c] : _(heads[c]));
      if (c == COL_COPY)
        {
          gtk_label_set_xalign (GTK_LABEL (head), 0.5f);
          mat_tooltip_set_text (head, _("Copy across: → from A to B, ← from B to A; each copy is one undo step"));
        }
      else if (c == COL_A)
        gtk_widget_add_css_class (head, "side-a");
      else if (c == COL_B)
        gtk_widget_add_css_class (head, "side-b");
      gtk_grid_attach (self->table, head, (int) c, 0, 1, 1);
    }

  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);
      gboolean section = is_section (row);
      g_autofree char *title = row_title (row);
      const char *tooltip = row_tooltip (row);
      int y = (int) i + 1;

      row->title = mat_compare_cell_label (NULL, 0.f, section ? "group-title" : NULL);
      gtk_label_set_text (GTK_LABEL (row->title), title);
      if (!section)
        gtk_widget_set_margin_start (row->title, 12);
      if (row->kind == MAT_MATERIAL_DIFF_ROW_GROUP &&
          !mat0_fields_group ((Mat0ColourGroup) row->index)->drawn)
        gtk_widget_add_css_class (row->title, "not-drawn");
      if (tooltip != NULL)
        mat_tooltip_set_text (row->title, tooltip);
      gtk_grid_attach (self->table, row->title, COL_TITLE, y, 1, 1);

      for (guint s = 0; s < N_SIDES; s++)
        {
          GtkWidget *value = mat_compare_cell_label (NULL, 0.f, s == 0 ? "side-a" : "side-b");

          if (section)
            gtk_widget_add_css_class (value, "group-title");
          gtk_widget_add_css_class (value, "value-cell");
          /* long readings wrap: nothing is cut off */
          gtk_label_set_wrap (GTK_LABEL (value), TRUE);
          gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
          gtk_label_set_width_chars (GTK_LABEL (value), 12);
          gtk_widget_set_hexpand (value, TRUE);
          row->value[s] = value;
          gtk_grid_attach (self->table, value, s == 0 ? COL_A : COL_B, y, 1, 1);
        }

      row->copy_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
      gtk_widget_add_css_class (row->copy_box, "cell");
      gtk_widget_add_css_class (row->copy_box, "copy-cell");
      if (section)
        gtk_widget_add_css_class (row->copy_box, "group-title");
      {
        /* two places of one size, each holding its arrow or nothing, so
         * an arrow stays where it is when the other one is not offered */
        GtkWidget *inner = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);

        gtk_box_set_homogeneous (GTK_BOX (inner), TRUE);
        gtk_widget_set_hexpand (inner, TRUE);
        gtk_widget_set_halign (inner, GTK_ALIGN_CENTER);
        for (guint s = 0; s < N_SIDES; s++)
          {
            GtkWidget *place = gtk_stack_new ();
            gboolean whole = row->kind == MAT_MATERIAL_DIFF_ROW_MATERIAL;

            row->copy[s] = s == 0
              ? mat_compare_copy_button ("←", "material-diff.copy-to-a", i,
                             whole ? _("Copy the whole material from B to A (one undo step)")
                                   : _("Copy B’s value to A (one undo step)"))
              : mat_compare_copy_button ("→", "material-diff.copy-to-b", i,
                             whole ? _("Copy the whole material from A to B (one undo step)")
                                   : _("Copy A’s value to B (one undo step)"));
            gtk_stack_add_named (GTK_STACK (place), gtk_label_new (NULL), "none");
            gtk_stack_add_named (GTK_STACK (place), row->copy[s], "copy");
            gtk_box_append (GTK_BOX (inner), place);
          }
        gtk_box_append (GTK_BOX (row->copy_box), inner);
      }
      gtk_grid_attach (self->table, row->copy_box, COL_COPY, y, 1, 1);
    }
}

static void
set_class (GtkWidget  *widget,
           const char *css_class,
           gboolean    set)
{
  if (set)
    gtk_widget_add_css_class (widget, css_class);
  else
    gtk_widget_remove_css_class (widget, css_class);
}

static void
label_set (GtkWidget  *label,
           const char *text)
{
  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) != 0)
    gtk_label_set_text (GTK_LABEL (label), text);
}

/* A tooltip change costs a round trip to the display server: only when
 * the text changes. */
static void
tooltip_set (GtkWidget  *widget,
             const char *text)
{
  const char *old = gtk_widget_get_tooltip_text (widget);

  if (g_strcmp0 (old, text) != 0)
    mat_tooltip_set_text (widget, text);
}

static void
update_summary (MatMaterialDiff *self)
{
  Side *a = &self->sides[0], *b = &self->sides[1];
  g_autofree char *text = NULL;

  if (self->error != NULL)
    text = g_strdup (self->error);
  else if (a->material == NULL || b->material == NULL)
    text = g_strdup (_("Choose a material in both slots to compare them."));
  else if (a->material == b->material)
    text = g_strdup (_("Both slots show the same material: choose another one in A or B."));
  else if (a->core == NULL || b->core == NULL)
    text = g_strdup (_("A material that does not decode is compared by its bytes only."));
  else if (self->n_differences == 0)
    text = g_strdup (_("The materials are the same: every byte but the name."));
  else
    {
      g_autofree char *list = mat0_diff_dup_summary ((const Mat0DiffField *) (gpointer) self->fields->data,
                                                     self->fields->len);

      /* Translators: how many fields differ, then what differs:
       * "3 differences: attr1, phase 2 (self-light), block 0 (keys)" */
      text = g_strdup_printf (ngettext ("%u difference: %s", "%u differences: %s",
                                        self->n_differences),
                              self->n_differences, list);
    }

  /* each change, A's value → B's, on a line or two under the summary;
   * one a line in its tooltip */
  {
    gboolean shown = self->error == NULL && self->n_differences > 0;
    g_autofree char *lines = shown ? mat0_diff_dup_changes ((const Mat0DiffField *) (gpointer) self->fields->data,
                                                            self->fields->len, MAT_MATERIAL_DIFF_MAX_CHANGES)
                                   : NULL;
    g_auto(GStrv) split = lines != NULL ? g_strsplit (lines, "\n", -1) : NULL;
    g_autofree char *line = split != NULL ? g_strjoinv (" · ", split) : NULL;

    g_free (self->changes);
    self->changes = g_strdup (line != NULL ? line : "");
    label_set (GTK_WIDGET (self->changes_label), self->changes);
    tooltip_set (GTK_WIDGET (self->changes_label), lines);
    gtk_widget_set_visible (GTK_WIDGET (self->changes_label), shown);
  }

  g_free (self->summary);
  self->summary = g_strdup (text);
  label_set (GTK_WIDGET (self->summary_label), text);
  tooltip_set (GTK_WIDGET (self->summary_label), text);
  set_class (GTK_WIDGET (self->summary_label), "has-differences",
             self->error == NULL && self->n_differences > 0);
  set_class (GTK_WIDGET (self->summary_label), "error", self->error != NULL);
}

static void
apply_visibility (MatMaterialDiff *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);
      gboolean visible = !self->differences_only || row->differs ||
                         row->kind == MAT_MATERIAL_DIFF_ROW_MATERIAL;

      if (row->kind == ROW_NOTE)
        visible = TRUE;
      row->visible = visible;
      gtk_widget_set_visible (row->title, visible);
      gtk_widget_set_visible (row->copy_box, visible);
      for (guint s = 0; s < N_SIDES; s++)
        gtk_widget_set_visible (row->value[s], visible);
    }
}

static void
update (MatMaterialDiff *self)
{
  g_autoptr(GArray) plan = NULL;
  guint n_differences = 0;

  g_clear_handle_id (&self->update_id, g_source_remove);

  for (guint s = 0; s < N_SIDES; s++)
    {
      Side *side = &self->sides[s];

      g_clear_pointer (&side->core, mat0_material_free);
      if (side->material != NULL)
        {
          side->core = mat_material_dup_core (side->material);
          side->attr1 = mat_material_get_attr1 (side->material);
          side->attr3 = mat_material_get_attr3 (side->material);
        }
    }

  plan = plan_rows (self);
  if (!same_plan (plan, self->rows))
    {
      g_array_unref (self->rows);
      self->rows = g_steal_pointer (&plan);
      build_table (self);
    }

  g_array_set_size (self->fields, 0);
  if (self->sides[0].core != NULL && self->sides[1].core != NULL &&
      self->sides[0].material != self->sides[1].material)
    mat0_diff_materials (self->sides[0].core, self->sides[0].attr1, self->sides[0].attr3,
                         self->sides[1].core, self->sides[1].attr1, self->sides[1].attr3,
                         self->fields);
  n_differences = self->fields->len;

  for (guint i = 0; i < self->rows->len; i++)
    g_array_index (self->rows, Row, i).differs = FALSE;
  for (guint f = 0; f < self->fields->len; f++)
    {
      const Mat0DiffField *field = &g_array_index (self->fields, Mat0DiffField, f);
      gint r = row_of_field (self, field);
      Row *row;

      if (r < 0)
        continue;
      row = &g_array_index (self->rows, Row, r);
      row->differs = TRUE;
      g_array_index (self->rows, Row, 0).differs = TRUE;
      if (row->section >= 0)
        g_array_index (self->rows, Row, row->section).differs = TRUE;
      /* a phase or a block on one side only: all its rows */
      if (field->kind == MAT0_DIFF_PHASE || field->kind == MAT0_DIFF_BLOCK)
        for (guint i = (guint) r + 1; i < self->rows->len &&
             g_array_index (self->rows, Row, i).section == r; i++)
          g_array_index (self->rows, Row, i).differs = TRUE;
    }

  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);

      for (guint s = 0; s < N_SIDES; s++)
        {
          g_free (row->text[s]);
          row->text[s] = cell_text (self, row, s);
          label_set (row->value[s], row->text[s]);
          if (row->kind == MAT_MATERIAL_DIFF_ROW_TEXTURE && has_phase (&self->sides[s], row->item))
            {
              g_autofree char *hex = texture_hex (&self->sides[s].core->phases[row->item]);
              /* Translators: the texture name, then its 16 stored bytes in hex */
              g_autofree char *tip = g_strdup_printf (_("%s\nStored bytes: %s"), row->text[s], hex);

              tooltip_set (row->value[s], tip);
            }
          else
            tooltip_set (row->value[s], row->text[s][0] != '\0' ? row->text[s] : NULL);
          row->copyable[s] = row_can_copy (self, row, s);
          gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_parent (row->copy[s])),
                                            row->copyable[s] ? "copy" : "none");
        }
      set_class (row->title, "differs", row->differs);
      set_class (row->copy_box, "differs", row->differs);
      for (guint s = 0; s < N_SIDES; s++)
        set_class (row->value[s], "differs", row->differs);
    }
  apply_visibility (self);

  if (n_differences != self->n_differences)
    {
      self->n_differences = n_differences;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_DIFFERENCES]);
    }
  update_summary (self);
}

static gboolean
update_idle (gpointer data)
{
  MatMaterialDiff *self = data;

  self->update_id = 0;
  update (self);
  return G_SOURCE_REMOVE;
}

/* A change of a material: one update for a burst of them (an undo of a
 * group of hundreds of commands), before the next frame. */
static void
on_material_changed (MatMaterialDiff *self)
{
  g_clear_pointer (&self->error, g_free);
  if (self->update_id == 0)
    self->update_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 10, update_idle, self, NULL);
}

/* Whatever asks about the table sees the materials as they are now. */
static void
flush (MatMaterialDiff *self)
{
  if (self->update_id != 0)
    {
      g_clear_handle_id (&self->update_id, g_source_remove);
      update (self);
    }
}

/* ------------------------------------------------------------------ */
/* Actions                                                              */

static void
copy_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatMaterialDiff *self = MAT_MATERIAL_DIFF (widget);
  gint32 index = g_variant_get_int32 (parameter);
  guint to = g_str_equal (action_name, "material-diff.copy-to-b") ? 1 : 0;
  g_autoptr(GError) error = NULL;
  g_autoptr(MatMaterial) target = NULL;
  MatLibrary *library;
  Row row;

  if (index < 0 || (guint) index >= self->rows->len)
    return;
  row = g_array_index (self->rows, Row, index);
  if (!row.copyable[to])
    return;

  target = g_object_ref (self->sides[to].material);
  library = mat_material_get_library (target);
  g_clear_pointer (&self->error, g_free);
  /* the copy changes the material: the rows may be rebuilt meanwhile */
  row.text[0] = row.text[1] = NULL;
  if (!copy_row (self, &row, to, &error))
    {
      self->error = g_strdup (error->message);
      update_summary (self);
      return;
    }
  if (library != NULL)
    g_signal_emit (self, signals[EDITED], 0, library);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
mat_material_diff_dispose (GObject *object)
{
  MatMaterialDiff *self = MAT_MATERIAL_DIFF (object);

  g_clear_handle_id (&self->update_id, g_source_remove);
  for (guint s = 0; s < N_SIDES; s++)
    {
      if (self->sides[s].signals != NULL)
        g_signal_group_set_target (self->sides[s].signals, NULL);
      g_clear_object (&self->sides[s].signals);
      g_clear_object (&self->sides[s].material);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_MATERIAL_DIFF);
  /* the children the template gave no name */
  {
    GtkWidget *child;

    while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
      gtk_widget_unparent (child);
  }

  G_OBJECT_CLASS (mat_material_diff_parent_class)->dispose (object);
}

static void
mat_material_diff_finalize (GObject *object)
{
  MatMaterialDiff *self = MAT_MATERIAL_DIFF (object);

  for (guint s = 0; s < N_SIDES; s++)
    g_clear_pointer (&self->sides[s].core, mat0_material_free);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->fields, g_array_unref);
  g_clear_pointer (&self->summary, g_free);
  g_clear_pointer (&self->changes, g_free);
  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (mat_material_diff_parent_class)->finalize (object);
}

static void
mat_material_diff_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  MatMaterialDiff *self = MAT_MATERIAL_DIFF (object);

  switch (prop_id)
    {
    case PROP_DIFFERENCES_ONLY: g_value_set_boolean (value, self->differences_only); break;
    case PROP_N_DIFFERENCES: g_value_set_uint (value, self->n_differences); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_material_diff_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  MatMaterialDiff *self = MAT_MATERIAL_DIFF (object);

  switch (prop_id)
    {
    case PROP_DIFFERENCES_ONLY:
      mat_material_diff_set_differences_only (self, g_value_get_boolean (value));
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_material_diff_class_init (MatMaterialDiffClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_material_diff_dispose;
  object_class->finalize = mat_material_diff_finalize;
  object_class->get_property = mat_material_diff_get_property;
  object_class->set_property = mat_material_diff_set_property;

  properties[PROP_DIFFERENCES_ONLY] =
    g_param_spec_boolean ("differences-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_DIFFERENCES] =
    g_param_spec_uint ("n-differences", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MatMaterialDiff::edited:
   * @library: the library a copy changed
   */
  signals[EDITED] =
    g_signal_new ("edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, MAT_TYPE_LIBRARY);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "mat-material-diff.ui");
  gtk_widget_class_set_css_name (widget_class, "matmaterialdiff");
  gtk_widget_class_bind_template_child (widget_class, MatMaterialDiff, summary_label);
  gtk_widget_class_bind_template_child (widget_class, MatMaterialDiff, changes_label);
  gtk_widget_class_bind_template_child (widget_class, MatMaterialDiff, only_check);
  gtk_widget_class_bind_template_child (widget_class, MatMaterialDiff, table);

  gtk_widget_class_install_action (widget_class, "material-diff.copy-to-a", "i", copy_activated);
  gtk_widget_class_install_action (widget_class, "material-diff.copy-to-b", "i", copy_activated);
  gtk_widget_class_install_property_action (widget_class, "material-diff.differences-only",
                                            "differences-only");
}

static void
mat_material_diff_init (MatMaterialDiff *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  mat_style_ensure ();

  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, row_clear);
  self->fields = mat0_diff_fields_new ();
  for (guint s = 0; s < N_SIDES; s++)
    {
      self->sides[s].signals = g_signal_group_new (MAT_TYPE_MATERIAL);
      g_signal_group_connect_swapped (self->sides[s].signals, "changed",
                                      G_CALLBACK (on_material_changed), self);
    }
  update (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

GtkWidget *
mat_material_diff_new (void)
{
  return g_object_new (MAT_TYPE_MATERIAL_DIFF, NULL);
}

void
mat_material_diff_set_materials (MatMaterialDiff *self,
                                 MatMaterial     *a,
                                 gboolean         a_editable,
                                 MatMaterial     *b,
                                 gboolean         b_editable)
{
  MatMaterial *materials[N_SIDES] = { a, b };
  gboolean editable[N_SIDES] = { a_editable, b_editable };
  gboolean changed = FALSE;

  g_return_if_fail (MAT_IS_MATERIAL_DIFF (self));
  g_return_if_fail (a == NULL || MAT_IS_MATERIAL (a));
  g_return_if_fail (b == NULL || MAT_IS_MATERIAL (b));

  for (guint s = 0; s < N_SIDES; s++)
    {
      Side *side = &self->sides[s];
      gboolean can_edit = editable[s] && materials[s] != NULL &&
                          mat_material_get_library (materials[s]) != NULL;

      if (g_set_object (&side->material, materials[s]))
        {
          g_signal_group_set_target (side->signals, materials[s]);
          changed = TRUE;
        }
      if (side->editable != can_edit)
        {
          side->editable = can_edit;
          changed = TRUE;
        }
    }
  /* the materials' own changes reach update() through their signals */
  if (!changed)
    return;
  g_clear_pointer (&self->error, g_free);
  update (self);
}

MatMaterial *
mat_material_diff_get_material (MatMaterialDiff *self,
                                guint            side)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), NULL);
  g_return_val_if_fail (side < N_SIDES, NULL);

  return self->sides[side].material;
}

gboolean
mat_material_diff_get_differences_only (MatMaterialDiff *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), FALSE);

  return self->differences_only;
}

void
mat_material_diff_set_differences_only (MatMaterialDiff *self,
                                        gboolean         only)
{
  g_return_if_fail (MAT_IS_MATERIAL_DIFF (self));

  only = !!only;
  if (self->differences_only == only)
    return;
  self->differences_only = only;
  apply_visibility (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFFERENCES_ONLY]);
}

guint
mat_material_diff_get_n_differences (MatMaterialDiff *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), 0);
  flush (self);

  return self->n_differences;
}

const char *
mat_material_diff_get_changes (MatMaterialDiff *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), NULL);
  return self->changes != NULL ? self->changes : "";
}

const char *
mat_material_diff_get_summary (MatMaterialDiff *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), NULL);
  flush (self);

  return self->summary;
}

int
mat_material_diff_find_row (MatMaterialDiff        *self,
                            MatMaterialDiffRowKind  kind,
                            guint                   item,
                            guint                   index)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), -1);
  flush (self);

  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);

      if (row->kind == (guint) kind && row->item == item && row->index == index)
        return (int) i;
    }
  return -1;
}

guint
mat_material_diff_get_n_rows (MatMaterialDiff *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), 0);
  flush (self);

  return self->rows->len;
}

gboolean
mat_material_diff_get_row_differs (MatMaterialDiff *self,
                                   guint            row)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), FALSE);
  flush (self);
  g_return_val_if_fail (row < self->rows->len, FALSE);

  return g_array_index (self->rows, Row, row).differs;
}

gboolean
mat_material_diff_get_row_visible (MatMaterialDiff *self,
                                   guint            row)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), FALSE);
  flush (self);
  g_return_val_if_fail (row < self->rows->len, FALSE);

  return gtk_widget_get_visible (g_array_index (self->rows, Row, row).title);
}

gboolean
mat_material_diff_get_row_copyable (MatMaterialDiff *self,
                                    guint            row,
                                    guint            to)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), FALSE);
  flush (self);
  g_return_val_if_fail (row < self->rows->len, FALSE);
  g_return_val_if_fail (to < N_SIDES, FALSE);

  return g_array_index (self->rows, Row, row).copyable[to] &&
         gtk_widget_get_child_visible (g_array_index (self->rows, Row, row).copy[to]);
}

const char *
mat_material_diff_get_row_title (MatMaterialDiff *self,
                                 guint            row)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), "");
  flush (self);
  g_return_val_if_fail (row < self->rows->len, "");

  return gtk_label_get_text (GTK_LABEL (g_array_index (self->rows, Row, row).title));
}

const char *
mat_material_diff_get_cell_text (MatMaterialDiff *self,
                                 guint            row,
                                 guint            side)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_DIFF (self), "");
  flush (self);
  g_return_val_if_fail (row < self->rows->len, "");
  g_return_val_if_fail (side < N_SIDES, "");

  return gtk_label_get_text (GTK_LABEL (g_array_index (self->rows, Row, row).value[side]));
}
