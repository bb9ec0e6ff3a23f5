/* mat-material-row.h - one row of the material list: name, counts, badges */
#pragma once

#include <gtk/gtk.h>

#include "mat-material.h"

G_BEGIN_DECLS

#define MAT_TYPE_MATERIAL_ROW (mat_material_row_get_type ())

G_DECLARE_FINAL_TYPE (MatMaterialRow, mat_material_row, MAT, MATERIAL_ROW, GtkWidget)

GtkWidget   *mat_material_row_new          (void);
MatMaterial *mat_material_row_get_material (MatMaterialRow *self);
/* Shows @material (or nothing for %NULL) and follows its changes. */
void         mat_material_row_set_material (MatMaterialRow *self,
                                            MatMaterial    *material);

/* Returns: (transfer full): the entry's type as four characters
 * ("MAT0", "Texm"), non-printable bytes as '?'. */
char        *mat_material_row_dup_type_name (guint32 type_id);

/* Returns: (transfer full) (nullable): the lints of @material, one a
 * line, at most six and a count of the rest; %NULL when it has none. */
char        *mat_material_row_dup_lint_text (MatMaterial *material);

/* Returns: (transfer full) (nullable): the tooltip @badge, a child of
 * @self, shows now. */
char        *mat_material_row_dup_badge_tooltip (MatMaterialRow *self,
                                                 GtkWidget      *badge);

G_END_DECLS
