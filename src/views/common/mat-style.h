/* mat-style.h - the editor's one style sheet */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Adds style.css (from the resources) to the default display, once.
 * The application calls it at start-up; every widget with styles of its
 * own calls it too, so a widget used on its own (tests, other windows)
 * looks the same. */
void mat_style_ensure (void);

/* Small symbolic icons that are many or in every row (the list's badges,
 * a drop-down's arrow) are a GtkBox drawn by style.css (.mat-icon and
 * the icon's class), not a GtkImage: a GtkImage makes a Pango context
 * and asks it for the font's metrics on its first measure, to place a
 * baseline, 0.1 M instructions each. */

/* Wrapping labels asked their width for a height. A horizontal box asks
 * each child its width for the row's height (and a side-by-side
 * GtkPaned its children for its own, which every vertical box below
 * shares out), and a wrapping GtkLabel answers that by a binary search
 * over widths, a text layout at each step, every time it is laid out:
 * one such label cost a twentieth of the window's start-up. A wrapping
 * label beside other widgets, or under such a paned, therefore sets in
 * its .ui natural-wrap-mode "none" (its natural width is its text on
 * one line), ellipsize "end" and a number of lines it never needs more
 * than (its narrowest is then one layout too): GTK measures it in two
 * layouts, and it still wraps as before. */

G_END_DECLS
