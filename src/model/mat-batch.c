/* mat-batch.c - one edit for many materials
 *
 * The apply command holds, for every target that has the place, the
 * object the place lives in (a MatPhase, the MatMaterial, a MatAnimBlock)
 * and the value it gets; running it swaps each value with the object's,
 * so the same run undoes and redoes it. 65,536 targets are one command.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat0-flags.h"

#include "mat-batch.h"
#include "mat-model-private.h"

/* ---- the command -------------------------------------------------------- */

typedef struct {
  MatCommand  parent;
  MatApply    what;
  GPtrArray  *objects;   /* MatPhase, MatMaterial or MatAnimBlock, refs */
  GArray     *values;    /* Mat0Phase for a phase's bytes, else guint32 */
} ApplyCommand;

static gboolean
is_phase_kind (MatApplyKind kind)
{
  return kind == MAT_APPLY_PARAM || kind == MAT_APPLY_GROUP ||
         kind == MAT_APPLY_TEXTURE || kind == MAT_APPLY_PHASE;
}

static gboolean
is_block_kind (MatApplyKind kind)
{
  return kind == MAT_APPLY_MODE || kind == MAT_APPLY_INTERP;
}

static MatField
material_field (const MatApply *what)
{
  switch (what->kind)
    {
    case MAT_APPLY_ATTR1_BITS: return MAT_FIELD_ATTR1;
    case MAT_APPLY_ATTR3: return MAT_FIELD_ATTR3;
    default: return (MatField) (MAT_FIELD_META_A + (guint) what->meta);
    }
}

static void
apply_run (MatCommand *cmd,
           gboolean    undo)
{
  ApplyCommand *self = (ApplyCommand *) cmd;

  for (guint i = 0; i < self->objects->len; i++)
    {
      gpointer object = g_ptr_array_index (self->objects, i);

      if (is_phase_kind (self->what.kind))
        _mat_phase_swap_data (object, &g_array_index (self->values, Mat0Phase, i));
      else if (is_block_kind (self->what.kind))
        _mat_anim_block_swap_header (object, &g_array_index (self->values, guint32, i));
      else
        _mat_material_swap_field (object, material_field (&self->what),
                                  &g_array_index (self->values, guint32, i));
    }
}

static void
apply_free (MatCommand *cmd)
{
  ApplyCommand *self = (ApplyCommand *) cmd;

  g_clear_pointer (&self->objects, g_ptr_array_unref);
  g_clear_pointer (&self->values, g_array_unref);
}

static gboolean
same_place (const MatApply *a,
            const MatApply *b)
{
  if (a->kind != b->kind || a->index != b->index)
    return FALSE;
  switch (a->kind)
    {
    case MAT_APPLY_PARAM: return a->byte == b->byte;
    case MAT_APPLY_GROUP: return a->group == b->group;
    case MAT_APPLY_ATTR1_BITS:
    case MAT_APPLY_INTERP: return a->mask == b->mask;
    case MAT_APPLY_META: return a->meta == b->meta;
    default: return TRUE;
    }
}

/* In a group (a drag of a colour over many materials): a later apply of
 * the same place to the very same objects adds nothing, this one holds
 * every value from before the group. */
static gboolean
apply_merge (MatCommand       *cmd,
             const MatCommand *next)
{
  ApplyCommand *a = (ApplyCommand *) cmd;
  const ApplyCommand *b = (const ApplyCommand *) next;

  if (!same_place (&a->what, &b->what) || a->objects->len != b->objects->len)
    return FALSE;
  return memcmp (a->objects->pdata, b->objects->pdata, sizeof (gpointer) * a->objects->len) == 0;
}

static const MatCommandClass apply_class = {
  apply_run,
  apply_free,
  apply_merge,
};

static const char *
apply_label (const MatApply *what)
{
  switch (what->kind)
    {
    case MAT_APPLY_PARAM: return _("Change a Field of the Selected Materials");
    case MAT_APPLY_GROUP: return _("Change a Colour of the Selected Materials");
    case MAT_APPLY_TEXTURE: return _("Change the Texture of the Selected Materials");
    case MAT_APPLY_PHASE: return _("Copy a Phase to the Selected Materials");
    case MAT_APPLY_ATTR1_BITS:
      return what->mask == MAT0_FLAG_NIBBLE_MASK ? _("Change the Blend Mode of the Selected Materials")
                                                 : _("Change the Flags of the Selected Materials");
    case MAT_APPLY_ATTR3: return _("Change attr3 of the Selected Materials");
    case MAT_APPLY_META: return _("Change Metadata of the Selected Materials");
    case MAT_APPLY_MODE: return _("Change the Mode of the Selected Materials");
    case MAT_APPLY_INTERP: return _("Change the Interpolation of the Selected Materials");
    default: return _("Change the Selected Materials");
    }
}

/* Returns: (transfer none) (nullable). */
static gpointer
item_at (GListModel *list,
         guint       index)
{
  gpointer item = g_list_model_get_item (list, index);

  if (item != NULL)
    g_object_unref (item);   /* its owner keeps it */
  return item;
}

static gboolean
meta_stored (guint32    attr2,
             Mat0MetaId meta)
{
  switch (meta)
    {
    case MAT0_META_A:
    case MAT0_META_B: return mat0_has_meta_ab (attr2);
    case MAT0_META_C: return mat0_has_meta_c (attr2);
    default: return mat0_has_meta_d (attr2);
    }
}

/* @what of @from into @to (a phase record). */
static void
phase_apply (const MatApply  *what,
             const Mat0Phase *from,
             Mat0Phase       *to)
{
  switch (what->kind)
    {
    case MAT_APPLY_PARAM:
      to->p[what->byte] = from->p[what->byte];
      break;
    case MAT_APPLY_GROUP:
      {
        const Mat0GroupField *group = mat0_fields_group (what->group);

        for (guint c = 0; c < 4; c++)
          to->p[group->bytes[c]] = from->p[group->bytes[c]];
      }
      break;
    case MAT_APPLY_TEXTURE:
      memcpy (to->texture, from->texture, MAT0_TEXTURE_SIZE);
      break;
    default:
      *to = *from;
      break;
    }
}

static guint32
value_apply (const MatApply *what,
             guint32         from,
             guint32         to)
{
  switch (what->kind)
    {
    case MAT_APPLY_ATTR1_BITS: return (to & ~what->mask) | (from & what->mask);
    case MAT_APPLY_MODE: return (to & ~7u) | (from & 7u);
    case MAT_APPLY_INTERP:
      {
        guint32 bits = what->mask != 0 ? what->mask << 3 : ~7u;

        return (to & ~bits) | (from & bits);
      }
    default: return from;
    }
}

static gboolean
check_what (const MatApply *what)
{
  switch (what->kind)
    {
    case MAT_APPLY_PARAM: return what->byte < MAT0_PARAM_COUNT;
    case MAT_APPLY_GROUP: return what->group >= 0 && what->group < MAT0_N_GROUPS;
    case MAT_APPLY_META: return what->meta >= MAT0_META_A && what->meta < MAT0_N_META;
    case MAT_APPLY_TEXTURE:
    case MAT_APPLY_PHASE:
    case MAT_APPLY_ATTR1_BITS:
    case MAT_APPLY_ATTR3:
    case MAT_APPLY_MODE:
    case MAT_APPLY_INTERP:
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
mat_library_apply_to_many (MatLibrary          *self,
                           MatMaterial         *source,
                           MatMaterial * const *targets,
                           guint                n_targets,
                           const MatApply      *what,
                           guint               *n_changed,
                           GError             **error)
{
  g_autoptr(GPtrArray) objects = NULL;
  g_autoptr(GArray) values = NULL;
  Mat0Phase source_phase;
  guint32 source_value = 0;
  guint changed = 0;
  ApplyCommand *cmd;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), FALSE);
  g_return_val_if_fail (targets != NULL || n_targets == 0, FALSE);
  g_return_val_if_fail (what != NULL && check_what (what), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (n_changed != NULL)
    *n_changed = 0;
  if (!_mat_material_check_editable (source, error))
    return FALSE;
  g_return_val_if_fail (mat_material_get_library (source) == self, FALSE);

  /* what the source holds there */
  if (is_phase_kind (what->kind))
    {
      MatPhase *phase = item_at (mat_material_get_phases (source), what->index);

      if (phase == NULL)
        {
          g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                       /* Translators: “NAME” has no phase N */
                       _("“%s” has no phase %u"), mat_material_get_name (source), what->index);
          return FALSE;
        }
      source_phase = *_mat_phase_get_data (phase);
    }
  else if (is_block_kind (what->kind))
    {
      MatAnimBlock *block = item_at (mat_material_get_blocks (source), what->index);

      if (block == NULL)
        {
          g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                       /* Translators: “NAME” has no animation block N */
                       _("“%s” has no animation block %u"), mat_material_get_name (source), what->index);
          return FALSE;
        }
      source_value = mat_anim_block_get_header_raw (block);
    }
  else
    {
      if (what->kind == MAT_APPLY_META && !meta_stored (mat_material_get_attr2 (source), what->meta))
        {
          g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_META_ABSENT,
                       _("Payload version %u of “%s” does not store this metadata field"),
                       mat_material_get_attr2 (source), mat_material_get_name (source));
          return FALSE;
        }
      source_value = _mat_material_get_field (source, material_field (what));
    }

  objects = g_ptr_array_new_with_free_func (g_object_unref);
  values = is_phase_kind (what->kind) ? g_array_new (FALSE, FALSE, sizeof (Mat0Phase))
                                      : g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < n_targets; i++)
    {
      MatMaterial *target = targets[i];

      if (target == source || mat_material_get_library (target) != self ||
          !mat_material_get_editable (target))
        continue;

      if (is_phase_kind (what->kind))
        {
          MatPhase *phase = item_at (mat_material_get_phases (target), what->index);
          Mat0Phase value;

          if (phase == NULL)
            continue;
          value = *_mat_phase_get_data (phase);
          phase_apply (what, &source_phase, &value);
          if (memcmp (&value, _mat_phase_get_data (phase), sizeof value) != 0)
            changed++;
          g_ptr_array_add (objects, g_object_ref (phase));
          g_array_append_val (values, value);
        }
      else if (is_block_kind (what->kind))
        {
          MatAnimBlock *block = item_at (mat_material_get_blocks (target), what->index);
          guint32 old, value;

          if (block == NULL)
            continue;
          old = mat_anim_block_get_header_raw (block);
          value = value_apply (what, source_value, old);
          changed += value != old;
          g_ptr_array_add (objects, g_object_ref (block));
          g_array_append_val (values, value);
        }
      else
        {
          guint32 old, value;

          if (what->kind == MAT_APPLY_META && !meta_stored (mat_material_get_attr2 (target), what->meta))
            continue;
          old = _mat_material_get_field (target, material_field (what));
          value = value_apply (what, source_value, old);
          changed += value != old;
          g_ptr_array_add (objects, g_object_ref (target));
          g_array_append_val (values, value);
        }
    }

  if (n_changed != NULL)
    *n_changed = changed;
  if (changed == 0)
    return TRUE;

  /* every target with the place is recorded, the equal ones too: a later
   * apply of the same place in a group then merges into this one */
  cmd = _mat_command_new (&apply_class, sizeof (ApplyCommand), apply_label (what));
  cmd->what = *what;
  cmd->objects = g_steal_pointer (&objects);
  cmd->values = g_steal_pointer (&values);
  _mat_history_push (_mat_library_get_history (self), &cmd->parent);
  return TRUE;
}

/* ---- the batch ---------------------------------------------------------- */

#define TEXTURE_BIT (1u << MAT0_PARAM_COUNT)
#define ALL_PHASE_BITS ((TEXTURE_BIT << 1) - 1)

typedef struct {
  guint32   attr1;          /* the bits that differ */
  gboolean  attr3;
  gboolean  meta[MAT0_N_META];
  gboolean  n_phases;
  gboolean  n_blocks;
  GArray   *phases;         /* guint32 a leader's phase: bit j, p[j]; TEXTURE_BIT */
  GArray   *headers;        /* guint32 a leader's block: the headerRaw bits */
  GArray   *keys;           /* gboolean a leader's block */
} Summary;

struct _MatBatch
{
  GObject      parent_instance;

  MatLibrary  *library;
  MatMaterial *leader;
  GPtrArray   *others;      /* MatMaterial, refs */
  Summary     *summary;     /* %NULL until asked, and after a step */
};

G_DEFINE_FINAL_TYPE (MatBatch, mat_batch, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
summary_free (Summary *summary)
{
  g_array_unref (summary->phases);
  g_array_unref (summary->headers);
  g_array_unref (summary->keys);
  g_free (summary);
}

static gboolean
keys_equal (const Mat0Block *a,
            const Mat0Block *b)
{
  return a->n_keys == b->n_keys &&
         (a->n_keys == 0 || memcmp (a->keys, b->keys, sizeof (Mat0Key) * a->n_keys) == 0);
}

static gboolean
meta_value (const Mat0Material *core,
            Mat0MetaId          meta,
            guint32            *value)
{
  if (!meta_stored (core->attr2, meta))
    return FALSE;
  switch (meta)
    {
    case MAT0_META_A: *value = core->meta_a; break;
    case MAT0_META_B: *value = core->meta_b; break;
    case MAT0_META_C: *value = core->meta_c; break;
    default: *value = core->meta_d; break;
    }
  return TRUE;
}

/* One pass over the others, as the core reads them (no object made). */
static Summary *
summary_new (MatBatch *self)
{
  Summary *summary = g_new0 (Summary, 1);
  const Mat0Material *leader = _mat_material_peek_core (self->leader);
  const NresEntry *lead_entry = _mat_material_get_entry (self->leader);
  guint n_phases = leader != NULL ? leader->n_phases : 0;
  guint n_blocks = leader != NULL ? leader->n_blocks : 0;
  guint32 *phases, *headers;
  gboolean *keys;

  summary->phases = g_array_new (FALSE, TRUE, sizeof (guint32));
  summary->headers = g_array_new (FALSE, TRUE, sizeof (guint32));
  summary->keys = g_array_new (FALSE, TRUE, sizeof (gboolean));
  g_array_set_size (summary->phases, n_phases);
  g_array_set_size (summary->headers, n_blocks);
  g_array_set_size (summary->keys, n_blocks);
  if (leader == NULL)
    return summary;

  phases = (guint32 *) (gpointer) summary->phases->data;
  headers = (guint32 *) (gpointer) summary->headers->data;
  keys = (gboolean *) (gpointer) summary->keys->data;
  for (guint i = 0; i < self->others->len; i++)
    {
      MatMaterial *other = g_ptr_array_index (self->others, i);
      const Mat0Material *core = _mat_material_peek_core (other);
      const NresEntry *entry = _mat_material_get_entry (other);

      if (core == NULL)
        continue;   /* not a material an edit reaches */

      summary->attr1 |= entry->attr1 ^ lead_entry->attr1;
      summary->attr3 |= entry->attr3 != lead_entry->attr3;
      for (guint m = 0; m < MAT0_N_META; m++)
        {
          guint32 a = 0, b = 0;
          gboolean has_a = meta_value (leader, m, &a);
          gboolean has_b = meta_value (core, m, &b);

          summary->meta[m] |= has_a != has_b || a != b;
        }
      summary->n_phases |= core->n_phases != n_phases;
      summary->n_blocks |= core->n_blocks != n_blocks;

      for (guint p = 0; p < n_phases; p++)
        {
          const Mat0Phase *a = &leader->phases[p];
          const Mat0Phase *b;

          if (p >= core->n_phases)
            {
              phases[p] = ALL_PHASE_BITS;
              continue;
            }
          b = &core->phases[p];
          if (memcmp (a, b, sizeof *a) == 0)
            continue;
          for (guint j = 0; j < MAT0_PARAM_COUNT; j++)
            if (a->p[j] != b->p[j])
              phases[p] |= 1u << j;
          if (memcmp (a->texture, b->texture, MAT0_TEXTURE_SIZE) != 0)
            phases[p] |= TEXTURE_BIT;
        }
      for (guint b = 0; b < n_blocks; b++)
        {
          if (b >= core->n_blocks)
            {
              headers[b] = G_MAXUINT32;
              keys[b] = TRUE;
              continue;
            }
          headers[b] |= leader->blocks[b].header_raw ^ core->blocks[b].header_raw;
          keys[b] |= !keys_equal (&leader->blocks[b], &core->blocks[b]);
        }
    }

  return summary;
}

static Summary *
get_summary (MatBatch *self)
{
  if (self->summary == NULL)
    self->summary = summary_new (self);
  return self->summary;
}

static void
history_changed_cb (MatBatch *self)
{
  g_clear_pointer (&self->summary, summary_free);
  g_signal_emit (self, signals[CHANGED], 0);
}

MatBatch *
mat_batch_new (MatMaterial         *leader,
               MatMaterial * const *others,
               guint                n_others)
{
  MatBatch *self;

  g_return_val_if_fail (MAT_IS_MATERIAL (leader), NULL);
  g_return_val_if_fail (others != NULL || n_others == 0, NULL);

  self = g_object_new (MAT_TYPE_BATCH, NULL);
  self->leader = g_object_ref (leader);
  self->library = mat_material_get_library (leader) != NULL
                  ? g_object_ref (mat_material_get_library (leader)) : NULL;
  g_ptr_array_set_size (self->others, 0);
  for (guint i = 0; i < n_others; i++)
    {
      g_return_val_if_fail (MAT_IS_MATERIAL (others[i]) && others[i] != leader, self);
      g_ptr_array_add (self->others, g_object_ref (others[i]));
    }
  if (self->library != NULL)
    g_signal_connect_object (mat_library_get_history (self->library), "changed",
                             G_CALLBACK (history_changed_cb), self, G_CONNECT_SWAPPED);
  return self;
}

MatMaterial *
mat_batch_get_leader (MatBatch *self)
{
  g_return_val_if_fail (MAT_IS_BATCH (self), NULL);

  return self->leader;
}

MatMaterial * const *
mat_batch_get_others (MatBatch *self,
                      guint    *n_others)
{
  g_return_val_if_fail (MAT_IS_BATCH (self), NULL);

  if (n_others != NULL)
    *n_others = self->others->len;
  return (MatMaterial * const *) self->others->pdata;
}

guint
mat_batch_get_n_materials (MatBatch *self)
{
  g_return_val_if_fail (MAT_IS_BATCH (self), 0);

  return self->others->len + 1;
}

gboolean
mat_batch_apply (MatBatch        *self,
                 const MatApply  *what,
                 GError         **error)
{
  g_return_val_if_fail (MAT_IS_BATCH (self), FALSE);
  g_return_val_if_fail (what != NULL, FALSE);

  if (self->library == NULL || mat_material_get_library (self->leader) != self->library)
    {
      g_set_error_literal (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                           _("The object is no longer part of a library"));
      return FALSE;
    }
  return mat_library_apply_to_many (self->library, self->leader,
                                    (MatMaterial * const *) self->others->pdata, self->others->len,
                                    what, NULL, error);
}

gboolean
mat_batch_differs (MatBatch       *self,
                   const MatApply *what)
{
  Summary *summary;
  guint32 bits;

  g_return_val_if_fail (MAT_IS_BATCH (self), FALSE);
  g_return_val_if_fail (what != NULL && check_what (what), FALSE);

  summary = get_summary (self);
  switch (what->kind)
    {
    case MAT_APPLY_ATTR1_BITS:
      return (summary->attr1 & what->mask) != 0;
    case MAT_APPLY_ATTR3:
      return summary->attr3;
    case MAT_APPLY_META:
      return summary->meta[what->meta];
    case MAT_APPLY_MODE:
    case MAT_APPLY_INTERP:
      if (what->index >= summary->headers->len)
        return FALSE;
      bits = g_array_index (summary->headers, guint32, what->index);
      if (what->kind == MAT_APPLY_MODE)
        return (bits & 7u) != 0;
      return (bits & (what->mask != 0 ? what->mask << 3 : ~7u)) != 0;
    default:
      break;
    }

  if (what->index >= summary->phases->len)
    return FALSE;
  bits = g_array_index (summary->phases, guint32, what->index);
  switch (what->kind)
    {
    case MAT_APPLY_PARAM:
      return (bits & (1u << what->byte)) != 0;
    case MAT_APPLY_GROUP:
      {
        const Mat0GroupField *group = mat0_fields_group (what->group);

        for (guint c = 0; c < 4; c++)
          if ((bits & (1u << group->bytes[c])) != 0)
            return TRUE;
        return FALSE;
      }
    case MAT_APPLY_TEXTURE:
      return (bits & TEXTURE_BIT) != 0;
    default:
      return bits != 0;
    }
}

guint32
mat_batch_get_attr1_differs (MatBatch *self)
{
  g_return_val_if_fail (MAT_IS_BATCH (self), 0);

  return get_summary (self)->attr1;
}

gboolean
mat_batch_phase_count_differs (MatBatch *self)
{
  g_return_val_if_fail (MAT_IS_BATCH (self), FALSE);

  return get_summary (self)->n_phases;
}

gboolean
mat_batch_block_count_differs (MatBatch *self)
{
  g_return_val_if_fail (MAT_IS_BATCH (self), FALSE);

  return get_summary (self)->n_blocks;
}

gboolean
mat_batch_keys_differ (MatBatch *self,
                       guint     block)
{
  Summary *summary;

  g_return_val_if_fail (MAT_IS_BATCH (self), FALSE);

  summary = get_summary (self);
  return block < summary->keys->len && g_array_index (summary->keys, gboolean, block);
}

static void
mat_batch_dispose (GObject *object)
{
  MatBatch *self = MAT_BATCH (object);

  g_clear_pointer (&self->summary, summary_free);
  g_clear_object (&self->library);
  g_clear_object (&self->leader);
  if (self->others != NULL)
    g_ptr_array_set_size (self->others, 0);

  G_OBJECT_CLASS (mat_batch_parent_class)->dispose (object);
}

static void
mat_batch_finalize (GObject *object)
{
  MatBatch *self = MAT_BATCH (object);

  g_ptr_array_unref (self->others);

  G_OBJECT_CLASS (mat_batch_parent_class)->finalize (object);
}

static void
mat_batch_class_init (MatBatchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mat_batch_dispose;
  object_class->finalize = mat_batch_finalize;

  /* after any step of the library's history: the differences may have
   * changed, mat_batch_differs() reads them again */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mat_batch_init (MatBatch *self)
{
  self->others = g_ptr_array_new_with_free_func (g_object_unref);
}
