/* mat-block-editor-private.h - test hooks
 *
 * The editor's controls by name. Not part of the widget's interface: only
 * mat-block-editor.c, the tests and the benchmarks include this header.
 */
#pragma once

#include "mat-block-editor.h"

G_BEGIN_DECLS

/* For tests: the widget named @name, or %NULL. Names: "blocks" and
 * "mode" (GtkDropDown), "interp-0" .. "interp-4" (GtkToggleButton for the
 * bits 0x01 .. 0x10), "limit-label", "unknown-bits", "header-raw",
 * "period", "details" (GtkLabel), "block-stack" (GtkStack).
 * Returns: (transfer none) (nullable). */
GtkWidget   *mat_block_editor_get_test_widget    (MatBlockEditor *self,
                                                  const char     *name);

G_END_DECLS
