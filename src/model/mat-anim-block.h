/* mat-anim-block.h - one animation block of a material: header and keys */
#pragma once

#include <gio/gio.h>

#include "mat-key.h"

G_BEGIN_DECLS

#define MAT_TYPE_ANIM_BLOCK (mat_anim_block_get_type ())

G_DECLARE_FINAL_TYPE (MatAnimBlock, mat_anim_block, MAT, ANIM_BLOCK, GObject)

typedef struct _MatMaterial MatMaterial;

/* Returns: (transfer none) (nullable): the material, %NULL once removed. */
MatMaterial *mat_anim_block_get_material    (MatAnimBlock *self);
guint        mat_anim_block_get_index       (MatAnimBlock *self);
/* headerRaw as stored: mode = & 7, interp mask = >> 3. */
guint32      mat_anim_block_get_header_raw  (MatAnimBlock *self);
guint        mat_anim_block_get_mode        (MatAnimBlock *self);
guint32      mat_anim_block_get_interp_mask (MatAnimBlock *self);
guint        mat_anim_block_get_n_keys      (MatAnimBlock *self);
/* The period: the last key's time in ms (a key's k1 is the time its
 * interval ends), 0 without keys. */
guint32      mat_anim_block_get_period      (MatAnimBlock *self);
/* Returns: (transfer none): a GListModel of MatKey. */
GListModel  *mat_anim_block_get_keys        (MatAnimBlock *self);

gboolean     mat_anim_block_set_header_raw  (MatAnimBlock *self,
                                             guint32       header_raw,
                                             GError      **error);
/* @mode 0..7; the other bits are kept. */
gboolean     mat_anim_block_set_mode        (MatAnimBlock *self,
                                             guint         mode,
                                             GError      **error);
/* @mask < 2^29; the mode bits are kept. */
gboolean     mat_anim_block_set_interp_mask (MatAnimBlock *self,
                                             guint32       mask,
                                             GError      **error);

/* A new key (k0 @k0, time @k1, k2 = 0) at @position (0..n_keys); the
 * other keys keep their times (a key's k1 is when its interval ends, so
 * nothing shifts). Returns: (transfer none): the key, or %NULL with
 * @error. */
MatKey      *mat_anim_block_insert_key      (MatAnimBlock *self,
                                             guint         position,
                                             guint16       k0,
                                             guint16       k1,
                                             GError      **error);
/* Removes key @position; every other key keeps its time (k1), so the
 * next key's interval now starts where the removed one's started. */
gboolean     mat_anim_block_remove_key      (MatAnimBlock *self,
                                             guint         position,
                                             GError      **error);
gboolean     mat_anim_block_move_key        (MatAnimBlock *self,
                                             guint         from,
                                             guint         to,
                                             GError      **error);

/* Retiming (formats.md 2.3: k1 is the time at which the key's interval
 * ends; the period is the last key's time). Each call is one undoable
 * command (merged inside a group, so a drag is one step) that changes
 * exactly the k1 values it names; k0 and k2 of every key stay. */

/* Key @position's time to @time ms; the other keys keep theirs. */
gboolean     mat_anim_block_set_key_time    (MatAnimBlock *self,
                                             guint         position,
                                             guint16       time,
                                             GError      **error);
/* The keys at @positions (@n, distinct) to @times: one command, the
 * other keys keep their times. */
gboolean     mat_anim_block_set_key_times   (MatAnimBlock  *self,
                                             const guint   *positions,
                                             const guint16 *times,
                                             guint          n,
                                             GError       **error);
/* Moves key @position's time by @dt ms; with @carry_later every later
 * key's time moves by the same @dt as well (the period changes with
 * them). @dt is clamped so that no moved time leaves 0..65535; @applied
 * (optional) receives the dt used. Fails with MAT_MODEL_ERROR_TIME_RANGE,
 * changing nothing, when @dt is not 0 and not even 1 ms of it fits. */
gboolean     mat_anim_block_move_key_time   (MatAnimBlock *self,
                                             guint         position,
                                             gint          dt,
                                             gboolean      carry_later,
                                             gint         *applied,
                                             GError      **error);
/* The same for a set of keys: each of @positions (@n_positions, any
 * order, duplicates ignored) moves by the same clamped @dt. */
gboolean     mat_anim_block_move_key_times  (MatAnimBlock *self,
                                             const guint  *positions,
                                             guint         n_positions,
                                             gint          dt,
                                             gint         *applied,
                                             GError      **error);
/* Where a key at @time goes: the interval that holds @time, as the
 * evaluator finds it (the largest k with T[k-1] <= @time < T[k]), or
 * n_keys when @time is at or past the period. */
guint        mat_anim_block_position_for_time (MatAnimBlock *self,
                                               guint32       time);
/* A new key at @time (k1 = @time, k0 = @k0, k2 = 0), inserted before
 * the key whose interval holds @time (mat_anim_block_position_for_time),
 * which splits that interval in two; every other key keeps its time.
 * Returns: (transfer none): the key, or %NULL with @error. */
MatKey      *mat_anim_block_insert_key_at_time (MatAnimBlock *self,
                                                guint16       time,
                                                guint16       k0,
                                                GError      **error);

G_END_DECLS
