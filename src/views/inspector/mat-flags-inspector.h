/* mat-flags-inspector.h - attr1 bit by bit, the payload version, attr3 */
#pragma once

#include <gtk/gtk.h>

#include "mat-batch.h"
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

/* The other materials selected with the one shown (nullable): a flag
 * toggled, a bit flipped or a blend index chosen goes to each of them in
 * the same undo step, only the bits of that field; the bits, rows and
 * the drop-down where they differ have the style class "differs". The
 * version conversion changes the material shown only. */
void         mat_flags_inspector_set_batch    (MatFlagsInspector *self,
                                               MatBatch          *batch);

/* The apply step of the "Convert Version…" dialog: changes the payload
 * version of the shown material (mat_material_set_attr2, one undo step).
 * MAT_MODEL_ERROR_NOT_EDITABLE without an editable material. */
gboolean     mat_flags_inspector_convert_version (MatFlagsInspector *self,
                                                  guint32            version,
                                                  GError           **error);

/* Returns: (transfer full): what the cell of @bit (0..31) says when the
 * pointer rests on it: the bit's mask, its meaning and its value now. */
char        *mat_flags_inspector_dup_bit_tooltip (MatFlagsInspector *self,
                                                  guint              bit);

G_END_DECLS
