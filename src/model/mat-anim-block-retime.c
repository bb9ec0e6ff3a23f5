/* mat-anim-block-retime.c - the times of a block's keys (formats.md 2.3)
 *
 * A key's k1 is the time, in ms from the start of the track, at which its
 * interval ends; key k's interval runs from the previous key's time (0 for
 * key 0) to its own, and the period is the last key's time. Retiming is
 * therefore a matter of setting the k1 values the user moves and nothing
 * else: moving one key changes one k1, "carry the later keys" changes
 * that key's and every later key's k1 by the same amount, inserting or
 * removing a key leaves every other k1 as it was.
 *
 * Every change is one swap command holding the keys it touched and the
 * values they had; inside a history group (a drag) later moves of the
 * same keys merge into the first command, so the gesture is one step.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat-model-private.h"

static MatKey *
key_at (MatAnimBlock *self,
        guint         i)
{
  MatKey *key = g_list_model_get_item (mat_anim_block_get_keys (self), i);

  g_object_unref (key);   /* the block keeps it */
  return key;
}

/* Command: new k1 values for some keys of one block; holds the replaced
 * values (swap style: undo and redo are the same operation). */
typedef struct {
  MatCommand    parent;
  MatAnimBlock *block;
  GPtrArray    *keys;     /* MatKey, owned */
  GArray       *values;   /* guint16, one per key */
} SetTimesCommand;

static void
set_times_run (MatCommand *cmd,
               gboolean    undo)
{
  SetTimesCommand *self = (SetTimesCommand *) cmd;

  for (guint i = 0; i < self->keys->len; i++)
    _mat_key_swap_k1 (g_ptr_array_index (self->keys, i),
                      &g_array_index (self->values, guint16, i));
  _mat_anim_block_content_changed (self->block);
}

static void
set_times_free (MatCommand *cmd)
{
  SetTimesCommand *self = (SetTimesCommand *) cmd;

  g_clear_object (&self->block);
  g_clear_pointer (&self->keys, g_ptr_array_unref);
  g_clear_pointer (&self->values, g_array_unref);
}

/* Inside a group, @next adds nothing when @cmd already holds the value
 * from before the group of every key @next changed. */
static gboolean
set_times_merge (MatCommand       *cmd,
                 const MatCommand *next)
{
  SetTimesCommand *a = (SetTimesCommand *) cmd;
  const SetTimesCommand *b = (const SetTimesCommand *) next;

  if (a->block != b->block)
    return FALSE;
  for (guint i = 0; i < b->keys->len; i++)
    {
      guint index;

      if (!g_ptr_array_find (a->keys, g_ptr_array_index (b->keys, i), &index))
        return FALSE;
    }
  return TRUE;
}

static const MatCommandClass set_times_class = {
  set_times_run,
  set_times_free,
  set_times_merge,
};

/* Records and runs the change of the keys at @positions (@n, distinct)
 * to @times; keys already at their time are left out. */
static void
push_times (MatAnimBlock  *self,
            const guint   *positions,
            const guint16 *times,
            guint          n,
            const char    *label)
{
  SetTimesCommand *cmd;
  MatMaterial *material = mat_anim_block_get_material (self);

  cmd = _mat_command_new (&set_times_class, sizeof (SetTimesCommand), label);
  cmd->block = g_object_ref (self);
  cmd->keys = g_ptr_array_new_with_free_func (g_object_unref);
  cmd->values = g_array_new (FALSE, FALSE, sizeof (guint16));
  for (guint i = 0; i < n; i++)
    {
      MatKey *key = key_at (self, positions[i]);

      if (mat_key_get_k1 (key) == times[i])
        continue;
      g_ptr_array_add (cmd->keys, g_object_ref (key));
      g_array_append_val (cmd->values, times[i]);
    }
  if (cmd->keys->len == 0)
    {
      set_times_free (&cmd->parent);
      g_free (cmd);
      return;
    }
  _mat_history_push (_mat_material_get_history (material), &cmd->parent);
}

gboolean
mat_anim_block_set_key_time (MatAnimBlock  *self,
                             guint          position,
                             guint16        time,
                             GError       **error)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), FALSE);
  g_return_val_if_fail (position < mat_anim_block_get_n_keys (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (mat_anim_block_get_material (self), error))
    return FALSE;

  push_times (self, &position, &time, 1, _("Change Key Time"));
  return TRUE;
}

gboolean
mat_anim_block_set_key_times (MatAnimBlock   *self,
                              const guint    *positions,
                              const guint16  *times,
                              guint           n,
                              GError        **error)
{
  guint n_keys;
  g_autofree gboolean *seen = NULL;

  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), FALSE);
  g_return_val_if_fail (n == 0 || (positions != NULL && times != NULL), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  n_keys = mat_anim_block_get_n_keys (self);
  seen = g_new0 (gboolean, n_keys + 1);
  for (guint i = 0; i < n; i++)
    {
      g_return_val_if_fail (positions[i] < n_keys && !seen[positions[i]], FALSE);
      seen[positions[i]] = TRUE;
    }

  if (!_mat_material_check_editable (mat_anim_block_get_material (self), error))
    return FALSE;

  push_times (self, positions, times, n, n > 1 ? _("Retime Keys") : _("Change Key Time"));
  return TRUE;
}

static gboolean
move_flagged (MatAnimBlock    *self,
              const gboolean  *moved,
              gint             dt,
              gint            *applied,
              const char      *label,
              GError         **error)
{
  guint n = mat_anim_block_get_n_keys (self);
  gint64 lo = G_MININT64, hi = G_MAXINT64;
  guint lowest = 0, highest = 0;
  guint16 lowest_time = G_MAXUINT16, highest_time = 0;
  g_autoptr(GArray) positions = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (guint16));
  gint64 clamped;

  if (applied != NULL)
    *applied = 0;
  if (!_mat_material_check_editable (mat_anim_block_get_material (self), error))
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      guint16 t;

      if (!moved[i])
        continue;
      t = mat_key_get_k1 (key_at (self, i));
      lo = MAX (lo, -(gint64) t);
      hi = MIN (hi, (gint64) G_MAXUINT16 - t);
      if (positions->len == 0 || t < lowest_time)
        {
          lowest = i;
          lowest_time = t;
        }
      if (positions->len == 0 || t > highest_time)
        {
          highest = i;
          highest_time = t;
        }
      g_array_append_val (positions, i);
    }
  if (positions->len == 0 || dt == 0)
    return TRUE;

  clamped = CLAMP ((gint64) dt, lo, hi);
  if (clamped == 0)
    {
      MatMaterial *material = mat_anim_block_get_material (self);
      guint limit = dt < 0 ? lowest : highest;
      guint16 at = dt < 0 ? lowest_time : highest_time;

      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TIME_RANGE,
                   _("%s, anim block %u: a key’s time must stay within 0 to %u ms; "
                     "key %u is at %u ms, so the keys cannot move by %d ms"),
                   mat_material_get_name (material), mat_anim_block_get_index (self),
                   (guint) G_MAXUINT16, limit, at, dt);
      return FALSE;
    }

  for (guint i = 0; i < positions->len; i++)
    {
      guint16 t = (guint16) (mat_key_get_k1 (key_at (self, g_array_index (positions, guint, i))) + clamped);

      g_array_append_val (times, t);
    }
  push_times (self, (const guint *) (gpointer) positions->data,
              (const guint16 *) (gpointer) times->data, positions->len, label);
  if (applied != NULL)
    *applied = (gint) clamped;
  return TRUE;
}

gboolean
mat_anim_block_move_key_time (MatAnimBlock  *self,
                              guint          position,
                              gint           dt,
                              gboolean       carry_later,
                              gint          *applied,
                              GError       **error)
{
  g_autofree gboolean *moved = NULL;
  guint n;

  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), FALSE);
  n = mat_anim_block_get_n_keys (self);
  g_return_val_if_fail (position < n, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  moved = g_new0 (gboolean, n);
  for (guint i = position; i < (carry_later ? n : position + 1); i++)
    moved[i] = TRUE;
  return move_flagged (self, moved, dt, applied,
                       carry_later && position + 1 < n ? _("Retime Keys") : _("Retime Key"),
                       error);
}

gboolean
mat_anim_block_move_key_times (MatAnimBlock  *self,
                               const guint   *positions,
                               guint          n_positions,
                               gint           dt,
                               gint          *applied,
                               GError       **error)
{
  g_autofree gboolean *moved = NULL;
  guint n;

  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), FALSE);
  g_return_val_if_fail (positions != NULL || n_positions == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  n = mat_anim_block_get_n_keys (self);

  moved = g_new0 (gboolean, n + 1);
  for (guint i = 0; i < n_positions; i++)
    {
      g_return_val_if_fail (positions[i] < n, FALSE);
      moved[positions[i]] = TRUE;
    }
  return move_flagged (self, moved, dt, applied,
                       n_positions > 1 ? _("Retime Keys") : _("Retime Key"), error);
}

guint
mat_anim_block_position_for_time (MatAnimBlock *self,
                                  guint32       time)
{
  guint n, found;
  guint32 previous = 0;

  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), 0);

  n = mat_anim_block_get_n_keys (self);
  found = n;
  for (guint k = 0; k < n; k++)
    {
      guint32 t = mat_key_get_k1 (key_at (self, k));

      if (previous <= time && time < t)
        found = k;
      previous = t;
    }
  return found;
}

MatKey *
mat_anim_block_insert_key_at_time (MatAnimBlock  *self,
                                   guint16        time,
                                   guint16        k0,
                                   GError       **error)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return mat_anim_block_insert_key (self, mat_anim_block_position_for_time (self, time),
                                    k0, time, error);
}
