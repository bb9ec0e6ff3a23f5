/* mat-flags-inspector-private.h - test hooks
 *
 * The inspector's controls by name. Not part of the widget's interface: only
 * mat-flags-inspector.c, the tests and the benchmarks include this header.
 */
#pragma once

#include "mat-flags-inspector.h"

G_BEGIN_DECLS

/* For tests: the widget named @name, or %NULL. Names: "ext-texture-load",
 * "hw-profile", "behaviour" (GtkCheckButton), "blend" (GtkDropDown of
 * GtkStringObjects: the blend indices 0..4, then a stored unknown one),
 * "bit-0" .. "bit-31" (grid cells, GtkButton), "attr1", "unknown-bits",
 * "blend-raw", "blend-caption", "ext-title", "ext-caption", "hw-title",
 * "behaviour-title", "unknown-title", "attr2", "attr3", "error"
 * (GtkLabel), "convert-button";
 * while the conversion dialog is open: "convert-dialog" (GtkWindow),
 * "convert-spin", "convert-summary", "convert-apply".
 * Returns: (transfer none) (nullable). */
GtkWidget   *mat_flags_inspector_get_test_widget (MatFlagsInspector *self,
                                                  const char        *name);

G_END_DECLS
