/* mat-compare-cells.h - the cells of the compare tables
 *
 * The phase comparison (mat-compare-view.c) and the whole-material one
 * (mat-material-diff.c) lay their rows out in a GtkGrid of the same
 * cells: labels styled by the compare CSS, and arrow buttons that copy a
 * row from one side to the other.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A label of the "cell" CSS class, and @css_class (nullable).
 * Returns: (transfer floating). */
GtkWidget *mat_compare_cell_label  (const char *text,
                                    float       xalign,
                                    const char *css_class);

/* A flat arrow button activating @action with the row's number as an
 * int32 target; @tooltip is its tooltip and accessible label.
 * Returns: (transfer floating). */
GtkWidget *mat_compare_copy_button (const char *arrow,
                                    const char *action,
                                    guint       row,
                                    const char *tooltip);

G_END_DECLS
