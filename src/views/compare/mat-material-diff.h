/* mat-material-diff.h - two whole materials side by side, field by field
 *
 * One row per field of two materials A and B: attr1 with its blend
 * reading, the version (attr2), attr3, the metadata with their readings;
 * for every phase its colour groups, power, cell and texture; for every
 * animation block its mode, interpolation mask and each key (k0, k1 = the
 * time its interval ends, k2). What differs comes from the core's
 * comparison (mat0-diff.h) and is highlighted, each change listed under
 * the summary with A's value and B's; a row can be copied across
 * (A to B or B to A) when the target side is editable: a field, a colour
 * group, a key, a whole phase, a whole block (the section rows) or the
 * whole material (the first row), each one undo step in the target's
 * library (mat-material-copy.h).
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-library.h"
#include "mat-material.h"

G_BEGIN_DECLS

typedef enum {
  MAT_MATERIAL_DIFF_ROW_MATERIAL,   /* the first row: the whole material */
  MAT_MATERIAL_DIFF_ROW_ATTR1,
  MAT_MATERIAL_DIFF_ROW_ATTR2,
  MAT_MATERIAL_DIFF_ROW_ATTR3,
  MAT_MATERIAL_DIFF_ROW_META,       /* index: a Mat0MetaId */
  MAT_MATERIAL_DIFF_ROW_PHASE,      /* a phase's section row: the whole phase */
  MAT_MATERIAL_DIFF_ROW_GROUP,      /* index: a Mat0ColourGroup */
  MAT_MATERIAL_DIFF_ROW_PARAM,      /* index: 16 (power) or 17 (cell) */
  MAT_MATERIAL_DIFF_ROW_TEXTURE,
  MAT_MATERIAL_DIFF_ROW_BLOCK,      /* a block's section row: the whole block */
  MAT_MATERIAL_DIFF_ROW_MODE,
  MAT_MATERIAL_DIFF_ROW_INTERP,
  MAT_MATERIAL_DIFF_ROW_KEY,        /* index: the key */
} MatMaterialDiffRowKind;

/* At most this many phase sections, and key rows per block, are listed;
 * a note says how many more there are (the summary counts them all). */
#define MAT_MATERIAL_DIFF_MAX_ROWS 100
/* At most this many changes are listed under the summary. */
#define MAT_MATERIAL_DIFF_MAX_CHANGES 40

#define MAT_TYPE_MATERIAL_DIFF (mat_material_diff_get_type ())

G_DECLARE_FINAL_TYPE (MatMaterialDiff, mat_material_diff, MAT, MATERIAL_DIFF, GtkWidget)

/* Properties:
 *   "differences-only"  boolean           hide the rows that are the same
 *   "n-differences"     uint (read-only)  fields that differ (mat0-diff)
 * Actions:
 *   material-diff.copy-to-b (int row)     A's value into B
 *   material-diff.copy-to-a (int row)     B's into A
 *   material-diff.differences-only        the property as a toggle
 * Signals:
 *   edited (MatLibrary *library)          after a copy changed @library */
GtkWidget   *mat_material_diff_new            (void);

/* The two materials (either may be %NULL) and whether each side may be
 * copied into. The view follows their changes. */
void         mat_material_diff_set_materials  (MatMaterialDiff *self,
                                               MatMaterial     *a,
                                               gboolean         a_editable,
                                               MatMaterial     *b,
                                               gboolean         b_editable);
/* @side 0 for A, 1 for B. Returns: (transfer none) (nullable). */
MatMaterial *mat_material_diff_get_material   (MatMaterialDiff *self,
                                               guint            side);

gboolean     mat_material_diff_get_differences_only (MatMaterialDiff *self);
void         mat_material_diff_set_differences_only (MatMaterialDiff *self,
                                                     gboolean         only);
guint        mat_material_diff_get_n_differences    (MatMaterialDiff *self);
/* Returns: (transfer none): the summary line above the table. */
const char  *mat_material_diff_get_summary          (MatMaterialDiff *self);
/* Returns: (transfer none): the changes under it, A's value → B's,
 * joined by " · " ("attr1: 0x0 (Opaque) → 0x8 (Additive) · phase 2
 * diffuse G: 0 → 9"; at most MAT_MATERIAL_DIFF_MAX_CHANGES, then "… and
 * 5 more changes"); "" when the materials are the same. */
const char  *mat_material_diff_get_changes          (MatMaterialDiff *self);

/* The rows, for the actions and for tests. @item is the phase or block,
 * @index as in MatMaterialDiffRowKind (0 when unused). Returns: the row,
 * or -1 when the table has no such row. */
int          mat_material_diff_find_row       (MatMaterialDiff        *self,
                                               MatMaterialDiffRowKind  kind,
                                               guint                   item,
                                               guint                   index);
guint        mat_material_diff_get_n_rows     (MatMaterialDiff *self);
gboolean     mat_material_diff_get_row_differs (MatMaterialDiff *self,
                                                guint            row);
/* Whether the row is shown (the "differences only" filter). */
gboolean     mat_material_diff_get_row_visible (MatMaterialDiff *self,
                                                guint            row);
/* Whether a copy of the row into side @to (0 A, 1 B) is offered. */
gboolean     mat_material_diff_get_row_copyable (MatMaterialDiff *self,
                                                 guint            row,
                                                 guint            to);
/* Returns: (transfer none): the row's label, or a side's value (@side
 * 0 A, 1 B). */
const char  *mat_material_diff_get_row_title  (MatMaterialDiff *self,
                                               guint            row);
const char  *mat_material_diff_get_cell_text  (MatMaterialDiff *self,
                                               guint            row,
                                               guint            side);

G_END_DECLS
