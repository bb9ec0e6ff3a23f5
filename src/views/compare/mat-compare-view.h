/* mat-compare-view.h - two phases or animations side by side, with a diff
 *
 * Two slots, A and B. Each picks a library (any of the libraries added
 * with mat_compare_view_add_library), a MAT0 material of it and either a
 * static phase or an animation block with a time offset. Two MatPreviews
 * show them, driven by one shared clock; below, one row per field (p0..p17
 * and the texture) gives the raw byte and the runtime value (formats.md
 * 2.2) of each slot, or for a block the evaluated value at the shared
 * time, with every differing row highlighted.
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-library.h"
#include "mat-material.h"
#include "mat-material-diff.h"
#include "mat-preview.h"
#include "mat-texture-library.h"
#include "phase-eval.h"

G_BEGIN_DECLS

typedef enum {
  MAT_COMPARE_SLOT_A,
  MAT_COMPARE_SLOT_B,
} MatCompareSlot;

/* Rows of the table (the int parameter of compare.copy-to-a/-b): the
 * parameter p0..p17 by its index, then the texture. */
#define MAT_COMPARE_ROW_TEXTURE 18
#define MAT_COMPARE_N_ROWS      19

#define MAT_TYPE_COMPARE_VIEW (mat_compare_view_get_type ())

G_DECLARE_FINAL_TYPE (MatCompareView, mat_compare_view, MAT, COMPARE_VIEW, GtkWidget)

/* Properties:
 *   "material"       MatMaterial*        slot A's material (see set_material)
 *   "time"           uint                the shared time in ms; each
 *                                        preview shows time + its offset
 *   "playing"        boolean             the shared clock runs
 *   "textures"       MatTextureLibrary*  given to both previews
 *   "n-differences"  uint (read-only)    rows that differ
 * Actions:
 *   compare.swap                 exchange slots A and B
 *   compare.copy-to-b (int row)  A's byte / texture field into B's phase
 *   compare.copy-to-a (int row)  B's into A's
 *   compare.copy-group-to-b (int group), compare.copy-group-to-a
 *                                a colour group's four bytes
 *   compare.copy-phase-to-b, compare.copy-phase-to-a
 *                                the whole phase (34 bytes)
 *   compare.play                 play / pause the shared clock
 * Signals:
 *   edited (MatLibrary *library) after a copy changed @library
 * Copying is offered only when both slots show a static phase of an
 * editable material and the target's library is not a reference; each
 * copy is one undo step in the target's library and a no-op when both
 * slots show the same phase.
 *
 * Below the previews, a switcher picks the details: "fields" (the table
 * of the shown phases or blocks above) or "material" (a MatMaterialDiff
 * of the two slots' whole materials). */
GtkWidget   *mat_compare_view_new            (void);

/* The libraries offered in the slots' library choosers, with the title
 * shown for each; @title %NULL: the file's name, with the folders that
 * tell it apart from the other libraries named by their files
 * ("Material.lib — Parkan/DATA", mat-library-name.h), named anew when a
 * library is added, removed or saved elsewhere. Adding a library twice
 * only changes its title; removing one resets the slots that showed it. */
void         mat_compare_view_add_library    (MatCompareView *self,
                                              MatLibrary     *library,
                                              const char     *title);
void         mat_compare_view_remove_library (MatCompareView *self,
                                              MatLibrary     *library);
/* A library to compare against that is never copied into (a file opened
 * only for comparing, not in a window of its own). */
void         mat_compare_view_add_reference_library (MatCompareView *self,
                                                     MatLibrary     *library,
                                                     const char     *title);
gboolean     mat_compare_view_get_library_editable (MatCompareView *self,
                                                    MatLibrary     *library);
guint        mat_compare_view_get_n_libraries (MatCompareView *self);

/* The material of slot A. Setting it compares two phases of @material:
 * A shows phase 0, B phase 1 (phase 0 when it has one). A library not
 * yet added is added under its file name. */
MatMaterial *mat_compare_view_get_material   (MatCompareView *self);
void         mat_compare_view_set_material   (MatCompareView *self,
                                              MatMaterial    *material);

/* One slot: @material (of an added library, or one that is then added);
 * @block -1 shows @phase statically, else the block with @offset_ms
 * added to the shared time. Out-of-range values are clamped. */
void         mat_compare_view_set_slot       (MatCompareView *self,
                                              MatCompareSlot  slot,
                                              MatMaterial    *material,
                                              int             block,
                                              guint           phase,
                                              guint           offset_ms);
/* Returns: (transfer none) (nullable). */
MatLibrary  *mat_compare_view_get_slot_library  (MatCompareView *self,
                                                 MatCompareSlot  slot);
/* Returns: (transfer none) (nullable). */
MatMaterial *mat_compare_view_get_slot_material (MatCompareView *self,
                                                 MatCompareSlot  slot);
/* -1 for a static phase. */
int          mat_compare_view_get_slot_block    (MatCompareView *self,
                                                 MatCompareSlot  slot);
guint        mat_compare_view_get_slot_phase    (MatCompareView *self,
                                                 MatCompareSlot  slot);
guint        mat_compare_view_get_slot_offset   (MatCompareView *self,
                                                 MatCompareSlot  slot);
/* The runtime phase the table shows for @slot: the expanded phase, or the
 * evaluation of the block at the shared time plus the offset. Returns
 * %FALSE when the slot shows nothing. */
gboolean     mat_compare_view_get_slot_value    (MatCompareView *self,
                                                 MatCompareSlot  slot,
                                                 PhaseRuntime   *value);
/* Returns: (transfer none): the slot's preview. */
MatPreview  *mat_compare_view_get_preview       (MatCompareView *self,
                                                 MatCompareSlot  slot);

guint        mat_compare_view_get_time       (MatCompareView *self);
void         mat_compare_view_set_time       (MatCompareView *self,
                                              guint           time_ms);
gboolean     mat_compare_view_get_playing    (MatCompareView *self);
void         mat_compare_view_set_playing    (MatCompareView *self,
                                              gboolean        playing);
/* Returns: (transfer none) (nullable). */
MatTextureLibrary *mat_compare_view_get_textures (MatCompareView    *self);
void         mat_compare_view_set_textures   (MatCompareView    *self,
                                              MatTextureLibrary *textures);

/* Returns: (transfer none): the whole-material comparison. */
MatMaterialDiff *mat_compare_view_get_material_diff (MatCompareView *self);
/* The details shown: "fields" or "material". */
const char  *mat_compare_view_get_page       (MatCompareView *self);
void         mat_compare_view_set_page       (MatCompareView *self,
                                              const char     *page);

/* Whether row @row (0..MAT_COMPARE_N_ROWS-1) differs, and how many do. */
gboolean     mat_compare_view_get_row_differs (MatCompareView *self,
                                               guint           row);
guint        mat_compare_view_get_n_differences (MatCompareView *self);

/* For tests: the text of a table cell of @slot: @column "raw" or
 * "value". Returns: (transfer none). */
const char  *mat_compare_view_get_cell_text  (MatCompareView *self,
                                              MatCompareSlot  slot,
                                              guint           row,
                                              const char     *column);

G_END_DECLS
