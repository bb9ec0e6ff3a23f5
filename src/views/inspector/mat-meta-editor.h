/* mat-meta-editor.h - metaA..metaD, locked until the user unlocks them */
#pragma once

#include <gtk/gtk.h>

#include "mat-batch.h"
#include "mat-material.h"

G_BEGIN_DECLS

#define MAT_TYPE_META_EDITOR (mat_meta_editor_get_type ())

G_DECLARE_FINAL_TYPE (MatMetaEditor, mat_meta_editor, MAT, META_EDITOR, GtkWidget)

GtkWidget   *mat_meta_editor_new          (void);
MatMaterial *mat_meta_editor_get_material (MatMetaEditor *self);
/* Shows @material (or nothing for %NULL); the widget follows the model
 * and edits it only through the model's functions. Showing another
 * material locks the editor again. */
void         mat_meta_editor_set_material (MatMetaEditor *self,
                                MatMaterial *material);

/* The other materials selected with the one shown (nullable): an edit of
 * a value goes to each of them whose version stores it, in the same undo
 * step; the fields where they differ have the style class "differs". */
void         mat_meta_editor_set_batch    (MatMetaEditor *self,
                                           MatBatch      *batch);

/* The "unlocked" property (action "meta.unlocked"): whether the fields
 * accept edits. Only an editable material can be unlocked. */
gboolean     mat_meta_editor_get_unlocked (MatMetaEditor *self);
void         mat_meta_editor_set_unlocked (MatMetaEditor *self,
                                           gboolean       unlocked);

G_END_DECLS
