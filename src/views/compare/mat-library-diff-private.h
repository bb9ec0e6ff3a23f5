/* mat-library-diff-private.h - test hooks
 *
 * The diff's controls by name. Not part of the widget's interface: only the widget's
 * .c file and the tests include this header.
 */
#pragma once

#include "mat-library-diff.h"

G_BEGIN_DECLS

/* For tests: "open-button", "changed-only", "list", "summary-label",
 * "other-label", "error-label". Returns: (transfer none) (nullable). */
GtkWidget   *mat_library_diff_get_test_widget (MatLibraryDiff *self,
                                               const char     *name);

G_END_DECLS
