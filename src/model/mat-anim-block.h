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

/* A new key (k2 = 0) at @position (0..n_keys).
 * Returns: (transfer none): the key, or %NULL with @error. */
MatKey      *mat_anim_block_insert_key      (MatAnimBlock *self,
                                             guint         position,
                                             guint16       k0,
                                             guint16       k1,
                                             GError      **error);
gboolean     mat_anim_block_remove_key      (MatAnimBlock *self,
                                             guint         position,
                                             GError      **error);
gboolean     mat_anim_block_move_key        (MatAnimBlock *self,
                                             guint         from,
                                             guint         to,
                                             GError      **error);

G_END_DECLS
