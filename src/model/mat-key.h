/* mat-key.h - one key of an animation block: phase, end time, opaque k2 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define MAT_TYPE_KEY (mat_key_get_type ())

G_DECLARE_FINAL_TYPE (MatKey, mat_key, MAT, KEY, GObject)

typedef struct _MatAnimBlock MatAnimBlock;

/* Returns: (transfer none) (nullable): the block, %NULL once removed. */
MatAnimBlock *mat_key_get_block (MatKey      *self);
guint         mat_key_get_index (MatKey      *self);
/* k0: phase index; k1: the time in ms at which the key's interval ends;
 * k2: opaque, kept as stored. */
guint16       mat_key_get_k0    (MatKey      *self);
guint16       mat_key_get_k1    (MatKey      *self);
guint16       mat_key_get_k2    (MatKey      *self);
/* Each is one undoable command (merged inside a group). */
gboolean      mat_key_set_k0    (MatKey      *self,
                                 guint16      value,
                                 GError     **error);
gboolean      mat_key_set_k1    (MatKey      *self,
                                 guint16      value,
                                 GError     **error);
gboolean      mat_key_set_k2    (MatKey      *self,
                                 guint16      value,
                                 GError     **error);

G_END_DECLS
