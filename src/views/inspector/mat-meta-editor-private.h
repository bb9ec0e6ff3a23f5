/* mat-meta-editor-private.h - test hooks
 *
 * The editor's controls by name. Not part of the widget's interface: only
 * mat-meta-editor.c, the tests and the benchmarks include this header.
 */
#pragma once

#include "mat-meta-editor.h"

G_BEGIN_DECLS

/* For tests: the widget named @name, or %NULL. Names: "unlock"
 * (GtkToggleButton), "meta-a", "meta-b", "meta-d" (GtkSpinButton),
 * "meta-c-float", "meta-c-raw" (GtkEntry), "status-a" .. "status-d"
 * (GtkLabel: the reading, or "default … (not in file)"), "name-a" ..
 * "name-d", "caption-a" .. "caption-d" (GtkLabel: the field's name and
 * meaning), "lock-note", "error".
 * Returns: (transfer none) (nullable). */
GtkWidget   *mat_meta_editor_get_test_widget (MatMetaEditor *self,
                                              const char    *name);

G_END_DECLS
