#pragma once

#include <gtk/gtk.h>

#include "mat-material.h"

G_BEGIN_DECLS

#define MAT_TYPE_META_EDITOR (mat_meta_editor_get_type ())

G_DECLARE_FINAL_TYPE (MatMetaEditor, mat_meta_editor, MAT, META_EDITOR, GtkWidget)

GtkWidget   *mat_meta_editor_new          (void);
MatMaterial *mat_meta_editor_get_material (MatMetaEditor *self);
/* Shows @material (or nothing for %NULL); the widget follows the model
 * and edits it only through the model's functions. */
void         mat_meta_editor_set_material (MatMetaEditor *self,
                                MatMaterial *material);

G_END_DECLS
