/* mat-compare-window-private.h - test hooks
 *
 * The window's controls by name. Not part of the widget's interface: only the widget's
 * .c file and the tests include this header.
 */
#pragma once

#include "mat-compare-window.h"

G_BEGIN_DECLS

/* For tests: "undo-button", "redo-button", "switcher". Returns:
 * (transfer none) (nullable). */
GtkWidget        *mat_compare_window_get_test_widget (MatCompareWindow *self,
                                                      const char       *name);

G_END_DECLS
