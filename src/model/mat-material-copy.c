/* mat-material-copy.c - copying parts of one material into another
 *
 * A field, a colour group, a key or a phase that both sides have is
 * copied through the ordinary setters inside one labelled history group,
 * so the objects the views show stay the same. A whole block, an appended
 * phase or block and a whole material are one splice command
 * (_mat_material_splice): a block of thousands of keys is still one
 * command, and undo puts back the objects it took out.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat-material-copy.h"
#include "mat-model-private.h"

/* Both sides decode; the target is part of a library. */
static gboolean
check_sides (MatMaterial  *self,
             MatMaterial  *source,
             GError      **error)
{
  if (!_mat_material_check_editable (self, error))
    return FALSE;
  if (!mat_material_get_editable (source))
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                   _("“%s” is not a material that decodes and cannot be copied"),
                   mat_material_get_name (source));
      return FALSE;
    }
  return TRUE;
}

/* Returns: (transfer none). */
static MatPhase *
phase_at (MatMaterial *material,
          guint        index)
{
  MatPhase *phase = g_list_model_get_item (mat_material_get_phases (material), index);

  if (phase != NULL)
    g_object_unref (phase);   /* the material holds it */
  return phase;
}

/* Returns: (transfer none). */
static MatAnimBlock *
block_at (MatMaterial *material,
          guint        index)
{
  MatAnimBlock *block = g_list_model_get_item (mat_material_get_blocks (material), index);

  if (block != NULL)
    g_object_unref (block);
  return block;
}

/* Returns: (transfer none). */
static MatKey *
key_at (MatAnimBlock *block,
        guint         index)
{
  MatKey *key = g_list_model_get_item (mat_anim_block_get_keys (block), index);

  if (key != NULL)
    g_object_unref (key);
  return key;
}

static MatHistory *
history_of (MatMaterial *material)
{
  return mat_library_get_history (mat_material_get_library (material));
}

gboolean
mat_material_copy_field (MatMaterial   *self,
                         MatMaterial   *source,
                         MatCopyField   field,
                         GError       **error)
{
  MatHistory *history;
  gboolean ok;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), FALSE);
  g_return_val_if_fail (field <= MAT_COPY_META_D, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_sides (self, source, error))
    return FALSE;

  history = history_of (self);
  mat_history_begin_group (history, _("Copy Field Across"));
  switch (field)
    {
    case MAT_COPY_ATTR1:
      ok = mat_material_set_attr1 (self, mat_material_get_attr1 (source), error);
      break;
    case MAT_COPY_ATTR2:
      ok = mat_material_set_attr2 (self, mat_material_get_attr2 (source), error);
      break;
    case MAT_COPY_ATTR3:
      ok = mat_material_set_attr3 (self, mat_material_get_attr3 (source), error);
      break;
    case MAT_COPY_META_A:
      ok = mat_material_set_meta_a (self, mat_material_get_meta_a (source), error);
      break;
    case MAT_COPY_META_B:
      ok = mat_material_set_meta_b (self, mat_material_get_meta_b (source), error);
      break;
    case MAT_COPY_META_C:
      ok = mat_material_set_meta_c (self, mat_material_get_meta_c (source), error);
      break;
    default:
      ok = mat_material_set_meta_d (self, mat_material_get_meta_d (source), error);
      break;
    }
  mat_history_end_group (history);
  return ok;
}

gboolean
mat_material_copy_param (MatMaterial  *self,
                         guint         phase,
                         MatMaterial  *source,
                         guint         source_phase,
                         guint         byte,
                         GError      **error)
{
  MatHistory *history;
  gboolean ok;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), FALSE);
  g_return_val_if_fail (byte < MAT0_PARAM_COUNT, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_sides (self, source, error))
    return FALSE;
  g_return_val_if_fail (phase < mat_material_get_n_phases (self), FALSE);
  g_return_val_if_fail (source_phase < mat_material_get_n_phases (source), FALSE);

  history = history_of (self);
  mat_history_begin_group (history, _("Copy Field Across"));
  ok = mat_phase_set_param (phase_at (self, phase), byte,
                            mat_phase_get_param (phase_at (source, source_phase), byte), error);
  mat_history_end_group (history);
  return ok;
}

gboolean
mat_material_copy_texture (MatMaterial  *self,
                           guint         phase,
                           MatMaterial  *source,
                           guint         source_phase,
                           GError      **error)
{
  MatHistory *history;
  guint8 raw[MAT0_TEXTURE_SIZE];
  gboolean ok;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_sides (self, source, error))
    return FALSE;
  g_return_val_if_fail (phase < mat_material_get_n_phases (self), FALSE);
  g_return_val_if_fail (source_phase < mat_material_get_n_phases (source), FALSE);

  /* a copy: the source may be the target's own phase */
  memcpy (raw, mat_phase_get_texture_raw (phase_at (source, source_phase)), sizeof raw);
  history = history_of (self);
  mat_history_begin_group (history, _("Copy Field Across"));
  ok = mat_phase_set_texture_raw (phase_at (self, phase), raw, error);
  mat_history_end_group (history);
  return ok;
}

gboolean
mat_material_copy_group (MatMaterial      *self,
                         guint             phase,
                         MatMaterial      *source,
                         guint             source_phase,
                         Mat0ColourGroup   group,
                         GError          **error)
{
  const Mat0GroupField *field;
  MatHistory *history;
  MatPhase *target;
  guint8 params[MAT0_PARAM_COUNT];
  const guint8 *from;
  gboolean ok;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), FALSE);
  g_return_val_if_fail (group >= 0 && group < MAT0_N_GROUPS, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_sides (self, source, error))
    return FALSE;
  g_return_val_if_fail (phase < mat_material_get_n_phases (self), FALSE);
  g_return_val_if_fail (source_phase < mat_material_get_n_phases (source), FALSE);

  field = mat0_fields_group (group);
  target = phase_at (self, phase);
  from = mat_phase_get_params (phase_at (source, source_phase));
  memcpy (params, mat_phase_get_params (target), sizeof params);
  for (guint i = 0; i < 4; i++)
    params[field->bytes[i]] = from[field->bytes[i]];

  history = history_of (self);
  mat_history_begin_group (history, _("Copy Colour Across"));
  ok = mat_phase_set_params (target, params, error);
  mat_history_end_group (history);
  return ok;
}

/* A new phase or block for a splice at the end. */
static gboolean
check_room (MatMaterial  *self,
            gboolean      phases,
            GError      **error)
{
  if (phases && mat_material_get_n_phases (self) >= G_MAXUINT16)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TOO_MANY_ITEMS,
                   _("A material holds at most %u phases"), (guint) G_MAXUINT16);
      return FALSE;
    }
  if (!phases && mat_material_get_n_blocks (self) >= MAT0_MAX_BLOCKS)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TOO_MANY_BLOCKS,
                   _("A material holds at most %u animation blocks"), (guint) MAT0_MAX_BLOCKS);
      return FALSE;
    }
  return TRUE;
}

gboolean
mat_material_copy_phase (MatMaterial  *self,
                         guint         phase,
                         MatMaterial  *source,
                         guint         source_phase,
                         GError      **error)
{
  Mat0Phase data;
  MatHistory *history;
  MatPhase *target;
  gboolean ok;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_sides (self, source, error))
    return FALSE;
  g_return_val_if_fail (phase <= mat_material_get_n_phases (self), FALSE);
  g_return_val_if_fail (source_phase < mat_material_get_n_phases (source), FALSE);

  data = *_mat_phase_get_data (phase_at (source, source_phase));
  if (phase == mat_material_get_n_phases (self))
    {
      MatSplice splice = { 0 };

      if (!check_room (self, TRUE, error))
        return FALSE;
      splice.phase_pos = phase;
      splice.phases = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (splice.phases, _mat_phase_new (&data));
      _mat_material_splice (self, &splice, _("Copy Phase Across"));
      return TRUE;
    }

  target = phase_at (self, phase);
  history = history_of (self);
  mat_history_begin_group (history, _("Copy Phase Across"));
  ok = mat_phase_set_params (target, data.p, error) &&
       mat_phase_set_texture_raw (target, data.texture, error);
  mat_history_end_group (history);
  return ok;
}

static gboolean
copy_header_bits (MatMaterial  *self,
                  guint         block,
                  MatMaterial  *source,
                  guint         source_block,
                  guint32       mask,
                  GError      **error)
{
  MatAnimBlock *target;
  MatHistory *history;
  guint32 from, header;
  gboolean ok;

  if (!check_sides (self, source, error))
    return FALSE;
  g_return_val_if_fail (block < mat_material_get_n_blocks (self), FALSE);
  g_return_val_if_fail (source_block < mat_material_get_n_blocks (source), FALSE);

  target = block_at (self, block);
  from = mat_anim_block_get_header_raw (block_at (source, source_block));
  header = (mat_anim_block_get_header_raw (target) & ~mask) | (from & mask);

  history = history_of (self);
  mat_history_begin_group (history, _("Copy Field Across"));
  ok = mat_anim_block_set_header_raw (target, header, error);
  mat_history_end_group (history);
  return ok;
}

gboolean
mat_material_copy_mode (MatMaterial  *self,
                        guint         block,
                        MatMaterial  *source,
                        guint         source_block,
                        GError      **error)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return copy_header_bits (self, block, source, source_block, 7u, error);
}

gboolean
mat_material_copy_interp (MatMaterial  *self,
                          guint         block,
                          MatMaterial  *source,
                          guint         source_block,
                          GError      **error)
{
  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return copy_header_bits (self, block, source, source_block, ~7u, error);
}

gboolean
mat_material_copy_key (MatMaterial  *self,
                       guint         block,
                       guint         key,
                       MatMaterial  *source,
                       guint         source_block,
                       guint         source_key,
                       GError      **error)
{
  MatAnimBlock *target_block, *source_anim;
  MatKey *target, *from;
  MatHistory *history;
  guint16 k0, k1, k2;
  gboolean ok;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_sides (self, source, error))
    return FALSE;
  g_return_val_if_fail (block < mat_material_get_n_blocks (self), FALSE);
  g_return_val_if_fail (source_block < mat_material_get_n_blocks (source), FALSE);
  target_block = block_at (self, block);
  source_anim = block_at (source, source_block);
  g_return_val_if_fail (key < mat_anim_block_get_n_keys (target_block), FALSE);
  g_return_val_if_fail (source_key < mat_anim_block_get_n_keys (source_anim), FALSE);

  target = key_at (target_block, key);
  from = key_at (source_anim, source_key);
  k0 = mat_key_get_k0 (from);
  k1 = mat_key_get_k1 (from);
  k2 = mat_key_get_k2 (from);

  history = history_of (self);
  mat_history_begin_group (history, _("Copy Key Across"));
  ok = mat_key_set_k0 (target, k0, error) &&
       mat_key_set_k1 (target, k1, error) &&
       mat_key_set_k2 (target, k2, error);
  mat_history_end_group (history);
  return ok;
}

/* Returns: (transfer full): a detached copy of @block. */
static MatAnimBlock *
block_copy (MatAnimBlock *block)
{
  Mat0Block data;
  MatAnimBlock *copy;

  _mat_anim_block_to_core (block, &data);
  copy = _mat_anim_block_new (&data);
  g_free (data.keys);
  return copy;
}

static gboolean
blocks_equal (MatAnimBlock *a,
              MatAnimBlock *b)
{
  Mat0Block da, db;
  gboolean equal;

  _mat_anim_block_to_core (a, &da);
  _mat_anim_block_to_core (b, &db);
  equal = da.header_raw == db.header_raw && da.n_keys == db.n_keys &&
          memcmp (da.keys, db.keys, da.n_keys * sizeof (Mat0Key)) == 0;
  g_free (da.keys);
  g_free (db.keys);
  return equal;
}

gboolean
mat_material_copy_block (MatMaterial  *self,
                         guint         block,
                         MatMaterial  *source,
                         guint         source_block,
                         GError      **error)
{
  MatSplice splice = { 0 };
  MatAnimBlock *from;
  guint n_blocks;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_sides (self, source, error))
    return FALSE;
  n_blocks = mat_material_get_n_blocks (self);
  g_return_val_if_fail (block <= n_blocks, FALSE);
  g_return_val_if_fail (source_block < mat_material_get_n_blocks (source), FALSE);

  from = block_at (source, source_block);
  if (block < n_blocks && blocks_equal (block_at (self, block), from))
    return TRUE;
  if (block == n_blocks && !check_room (self, FALSE, error))
    return FALSE;

  splice.block_pos = block;
  splice.n_blocks_removed = block < n_blocks ? 1 : 0;
  splice.blocks = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (splice.blocks, block_copy (from));
  _mat_material_splice (self, &splice, _("Copy Block Across"));
  return TRUE;
}

gboolean
mat_material_copy_all (MatMaterial  *self,
                       MatMaterial  *source,
                       GError      **error)
{
  g_autoptr(Mat0Material) mine = NULL;
  g_autoptr(Mat0Material) theirs = NULL;
  MatSplice splice = { 0 };
  guint n_phases, n_blocks;

  g_return_val_if_fail (MAT_IS_MATERIAL (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_sides (self, source, error))
    return FALSE;

  mine = mat_material_dup_core (self);
  theirs = mat_material_dup_core (source);
  if (mat_material_get_attr1 (self) == mat_material_get_attr1 (source) &&
      mat_material_get_attr3 (self) == mat_material_get_attr3 (source) &&
      mat0_material_equal (mine, theirs))
    return TRUE;

  splice.set_fields = TRUE;
  splice.attr1 = mat_material_get_attr1 (source);
  splice.attr2 = mat_material_get_attr2 (source);
  splice.attr3 = mat_material_get_attr3 (source);
  splice.meta[0] = theirs->meta_a;
  splice.meta[1] = theirs->meta_b;
  splice.meta[2] = theirs->meta_c;
  splice.meta[3] = theirs->meta_d;

  n_phases = mat_material_get_n_phases (self);
  n_blocks = mat_material_get_n_blocks (self);
  splice.n_phases_removed = n_phases;
  splice.phases = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < theirs->n_phases; i++)
    g_ptr_array_add (splice.phases, _mat_phase_new (&theirs->phases[i]));
  splice.n_blocks_removed = n_blocks;
  splice.blocks = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < theirs->n_blocks; i++)
    g_ptr_array_add (splice.blocks, _mat_anim_block_new (&theirs->blocks[i]));

  _mat_material_splice (self, &splice, _("Copy Material Across"));
  return TRUE;
}

MatMaterial *
mat_library_take_material (MatLibrary   *self,
                           MatMaterial  *target,
                           MatMaterial  *source,
                           GError      **error)
{
  MatHistory *history;
  gboolean ok;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (target == NULL || MAT_IS_MATERIAL (target), NULL);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (target == NULL)
    return mat_library_add_copy (self, source, error);

  g_return_val_if_fail (mat_material_get_library (target) == self, NULL);
  history = mat_library_get_history (self);
  mat_history_begin_group (history, _("Take Material from Other Library"));
  ok = mat_material_copy_all (target, source, error);
  mat_history_end_group (history);
  return ok ? target : NULL;
}
