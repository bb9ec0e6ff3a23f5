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

/* The tooltip of a template's child, kept out of the .ui file: GtkBuilder
 * sets a tooltip-text property on a visible widget, which costs the
 * round trips above for each one while the window is built. */
typedef struct {
  const char *child;   /* its id in the template, a bound child
                        * (gtk_widget_class_bind_template_child_full()
                        * with no field where it has none) */
  const char *text;    /* untranslated, marked for xgettext with N_ */
} MatTooltipEntry;

void mat_tooltip_init_template (GtkWidget             *widget,
                                GType                  widget_type,
                                const MatTooltipEntry *entries,
                                gsize                  n_entries);

G_END_DECLS
