/* mat-compare-view-private.h - test hooks
 *
 * The view's controls by name. Not part of the widget's interface: only
 * mat-compare-view.c, the tests and the benchmarks include this header.
 */
#pragma once

#include "mat-compare-view.h"

G_BEGIN_DECLS

/* For tests: "library-a", "material-a", "source-a", "offset-a" (and
 * -b), "play-button", "time-scale", "time-label", "swap-button",
 * "summary-label", "table", "details-switcher", "phase-copy-a" (-b):
 * the whole-phase copy buttons; "row-N" the field label of row N.
 * Returns: (transfer none) (nullable). */
GtkWidget   *mat_compare_view_get_test_widget (MatCompareView *self,
                                               const char     *name);

G_END_DECLS
