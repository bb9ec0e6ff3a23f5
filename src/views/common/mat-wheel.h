/* mat-wheel.h - the mouse wheel scrolls the page, not the number under it */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Makes @widget (a GtkSpinButton in a scrolled page) take the wheel only
 * while it has the keyboard focus: otherwise the wheel scrolls the
 * nearest GtkScrolledWindow around it, as it does over the rest of the
 * page, and the value under the pointer stays as it is. */
void mat_wheel_scrolls_page (GtkWidget *widget);

G_END_DECLS
