/* mat-library-diff.h - this library against another one, material by
 * material
 *
 * The other library (the game's original Material.lib, say) is opened
 * from a file and only read. Every entry is listed with what the core's
 * comparison (mat0-diff.h, as `mat0tool diff OTHER THIS`) says about it:
 * added (only in this library), removed (only in the other), changed
 * (with a summary of what changed: "attr1, phase 2 (self-light), block 0
 * (keys)") or the same; names match ASCII case-insensitively. "Changed
 * only" hides the ones that are the same. "Take from the other library"
 * copies a removed or changed material into this library: added when
 * missing, its content replaced when changed, one undo step.
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-library.h"
#include "mat-library-diff-row.h"

G_BEGIN_DECLS

#define MAT_TYPE_LIBRARY_DIFF (mat_library_diff_get_type ())

G_DECLARE_FINAL_TYPE (MatLibraryDiff, mat_library_diff, MAT, LIBRARY_DIFF, GtkWidget)

/* Properties:
 *   "library"       MatLibrary*   this library (edited by "take")
 *   "other"         MatLibrary*   (read-only) the library compared with
 *   "changed-only"  boolean       hide the materials that are the same
 *   "loading"       boolean       (read-only) a file is being read
 * Actions:
 *   library-diff.open               choose the other library's file
 *   library-diff.take (uint row)    take row @row (of all rows) from the other library
 *   library-diff.compare (uint row) ask to compare the row's two materials
 *   library-diff.changed-only       the property as a toggle
 * Signals:
 *   edited (MatLibrary *library)    after "take" changed @library
 *   compare (MatMaterial *theirs, MatMaterial *mine)
 *                                   the two materials of a row to compare */
GtkWidget   *mat_library_diff_new            (void);

/* Returns: (transfer none) (nullable). */
MatLibrary  *mat_library_diff_get_library    (MatLibraryDiff *self);
void         mat_library_diff_set_library    (MatLibraryDiff *self,
                                              MatLibrary     *library);
/* Returns: (transfer none) (nullable). */
MatLibrary  *mat_library_diff_get_other      (MatLibraryDiff *self);
/* Returns: (transfer none) (nullable): the name shown for it. */
const char  *mat_library_diff_get_other_title (MatLibraryDiff *self);
/* @title: (nullable): the name shown for @other; %NULL: its file's name,
 * with the folders that tell it apart from this library's when both
 * have the same ("Material.lib — Parkan/DATA"; mat-library-name.h), or
 * "Other library" when it has no file. */
void         mat_library_diff_set_other      (MatLibraryDiff *self,
                                              MatLibrary     *other,
                                              const char     *title);
/* What choosing a file in the open dialog does: reads @file in the
 * background, then compares with it ("loading" meanwhile); a file that
 * cannot be read shows its error and keeps the previous comparison. */
void         mat_library_diff_open_file      (MatLibraryDiff *self,
                                              GFile          *file);
gboolean     mat_library_diff_get_loading    (MatLibraryDiff *self);

gboolean     mat_library_diff_get_changed_only (MatLibraryDiff *self);
void         mat_library_diff_set_changed_only (MatLibraryDiff *self,
                                                gboolean        changed_only);

/* Compares again now (otherwise it happens when idle after an edit). */
void         mat_library_diff_refresh        (MatLibraryDiff *self);

/* Returns: (transfer none): every row (MatLibraryDiffRow), and the rows
 * shown (after "changed only"). */
GListModel  *mat_library_diff_get_rows       (MatLibraryDiff *self);
GListModel  *mat_library_diff_get_shown_rows (MatLibraryDiff *self);
/* Counts of the last comparison. */
guint        mat_library_diff_get_n_status   (MatLibraryDiff *self,
                                              Mat0DiffStatus  status);
/* The position in mat_library_diff_get_rows() of the row named @name
 * (ASCII case-insensitively), or -1. */
int          mat_library_diff_find_row       (MatLibraryDiff *self,
                                              const char     *name);

G_END_DECLS
