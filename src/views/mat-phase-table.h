#pragma once

#include <gtk/gtk.h>

#include "mat-material.h"

G_BEGIN_DECLS

#define MAT_TYPE_PHASE_TABLE (mat_phase_table_get_type ())

G_DECLARE_FINAL_TYPE (MatPhaseTable, mat_phase_table, MAT, PHASE_TABLE, GtkWidget)

GtkWidget   *mat_phase_table_new          (void);
MatMaterial *mat_phase_table_get_material (MatPhaseTable *self);
/* Shows @material (or nothing for %NULL); the widget follows the model
 * and edits it only through the model's functions. */
void         mat_phase_table_set_material (MatPhaseTable *self,
                                MatMaterial *material);

G_END_DECLS
