/* mat-library-diff-row.h - one material in the library diff's list
 *
 * What the core's comparison (mat0-diff.h) says about one name: the
 * material in this library and in the other one (either may be missing),
 * whether it was added, removed or changed, the summary of what
 * changed and each change with its old and new value. A row never
 * changes; the list replaces it when its material does.
 */
#pragma once

#include <glib-object.h>

#include "mat0-diff.h"
#include "mat-material.h"

G_BEGIN_DECLS

#define MAT_TYPE_LIBRARY_DIFF_ROW (mat_library_diff_row_get_type ())

G_DECLARE_FINAL_TYPE (MatLibraryDiffRow, mat_library_diff_row, MAT, LIBRARY_DIFF_ROW, GObject)

/* The changes a row lists, and its tooltip. */
#define MAT_LIBRARY_DIFF_ROW_MAX_CHANGES 3
#define MAT_LIBRARY_DIFF_ROW_MAX_TOOLTIP 40

/* @fields: (nullable) (element-type Mat0DiffField): what changed, with
 * the other library as A (the old values) and this one as B; the row
 * keeps a reference. @mine: the material in this library (%NULL when
 * removed); @theirs: in the other library (%NULL when added).
 * Returns: (transfer full). */
MatLibraryDiffRow *mat_library_diff_row_new        (Mat0DiffStatus     status,
                                                    const char        *name,
                                                    const char        *summary,
                                                    GArray            *fields,
                                                    MatMaterial       *mine,
                                                    MatMaterial       *theirs);

Mat0DiffStatus     mat_library_diff_row_get_status  (MatLibraryDiffRow *self);
/* Returns: (transfer none): the name (this library's spelling when it has it). */
const char        *mat_library_diff_row_get_name    (MatLibraryDiffRow *self);
/* Returns: (transfer none): what changed, for people; "" when the same. */
const char        *mat_library_diff_row_get_summary (MatLibraryDiffRow *self);
/* Returns: (transfer none): the changes, old → new, one a line
 * ("phase 2 diffuse G: 0 → 9"): the first MAT_LIBRARY_DIFF_ROW_MAX_CHANGES
 * and "… and 4 more changes"; "" when nothing changed. */
const char        *mat_library_diff_row_get_changes (MatLibraryDiffRow *self);
/* Returns: (transfer none): the same with up to
 * MAT_LIBRARY_DIFF_ROW_MAX_TOOLTIP changes, for its tooltip. */
const char        *mat_library_diff_row_get_all_changes (MatLibraryDiffRow *self);
/* Returns: (transfer none) (nullable). */
MatMaterial       *mat_library_diff_row_get_mine    (MatLibraryDiffRow *self);
/* Returns: (transfer none) (nullable). */
MatMaterial       *mat_library_diff_row_get_theirs  (MatLibraryDiffRow *self);
/* Whether the rows say the same about the same materials. */
gboolean           mat_library_diff_row_equal       (MatLibraryDiffRow *a,
                                                     MatLibraryDiffRow *b);

G_END_DECLS
