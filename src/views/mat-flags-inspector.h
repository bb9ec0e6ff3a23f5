#pragma once

#include <gtk/gtk.h>

#include "mat-material.h"

G_BEGIN_DECLS

#define MAT_TYPE_FLAGS_INSPECTOR (mat_flags_inspector_get_type ())

G_DECLARE_FINAL_TYPE (MatFlagsInspector, mat_flags_inspector, MAT, FLAGS_INSPECTOR, GtkWidget)

GtkWidget   *mat_flags_inspector_new          (void);
MatMaterial *mat_flags_inspector_get_material (MatFlagsInspector *self);
/* Shows @material (or nothing for %NULL); the widget follows the model
 * and edits it only through the model's functions. */
void         mat_flags_inspector_set_material (MatFlagsInspector *self,
                                MatMaterial *material);

G_END_DECLS
