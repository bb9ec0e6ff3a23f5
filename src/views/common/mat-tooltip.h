/* mat-tooltip.h - tooltips set without asking where the pointer is */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Sets @widget's tooltip text, as gtk_widget_set_tooltip_text() does.
 *
 * GTK 4.8 asks the display where the pointer is whenever a visible
 * widget's tooltip changes, to update a tooltip that may be showing: on
 * X11 four round trips to the server, about 150 µs each time. A widget
 * that is not on screen shows no tooltip, so its text is set while it is
 * hidden for that moment, and the question is not asked: a window's
 * tables and buttons get their tooltips before it is shown. Not for a
 * widget whose visibility something follows (a GtkStack's page). */
void mat_tooltip_set_text (GtkWidget  *widget,
                           const char *text);

G_END_DECLS
