/* mat-compare-window.h - the Compare window: materials and libraries
 *
 * Two pages, switched in the header bar: "Materials" (a MatCompareView:
 * two phases or blocks side by side, and two whole materials field by
 * field) and "Libraries" (a MatLibraryDiff of the window's library
 * against another file). The header bar has Undo and Redo for the copies
 * made here; Ctrl+Z, Ctrl+Shift+Z (Ctrl+Y), Ctrl+W and Escape work as in
 * the main window, Escape and Ctrl+W close it.
 *
 * Undo and redo act on the history of the library the last copy made in
 * this window went into; until then, on the window's own library.
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-compare-view.h"
#include "mat-library.h"
#include "mat-library-diff.h"

G_BEGIN_DECLS

#define MAT_TYPE_COMPARE_WINDOW (mat_compare_window_get_type ())

G_DECLARE_FINAL_TYPE (MatCompareWindow, mat_compare_window, MAT, COMPARE_WINDOW, GtkWindow)

/* Properties:
 *   "library"       MatLibrary*  (construct-only) the library it was opened for
 *   "undo-library"  MatLibrary*  (read-only) the one Undo and Redo act on
 * Actions: win.undo, win.redo, win.close, win.show-page (string: "materials"
 * or "libraries"). */
MatCompareWindow *mat_compare_window_new            (GtkApplication   *application,
                                                     MatLibrary       *library);

/* Returns: (transfer none). */
MatLibrary       *mat_compare_window_get_library    (MatCompareWindow *self);
/* Returns: (transfer none). */
MatLibrary       *mat_compare_window_get_undo_library (MatCompareWindow *self);
/* Returns: (transfer none). */
MatCompareView   *mat_compare_window_get_view       (MatCompareWindow *self);
/* Returns: (transfer none). */
MatLibraryDiff   *mat_compare_window_get_library_diff (MatCompareWindow *self);
/* "materials" or "libraries". */
const char       *mat_compare_window_get_page       (MatCompareWindow *self);
/* The view shows the textures of @owner's "textures" property (a
 * MatTextureLibrary), and whichever library that changes to (another
 * Textures.lib chosen, created or found), until the window goes or another
 * owner is given. @owner: (nullable): none, the view keeps its textures. */
void              mat_compare_window_follow_textures (MatCompareWindow *self,
                                                      GObject          *owner);

G_END_DECLS
