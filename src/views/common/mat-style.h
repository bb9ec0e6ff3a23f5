/* mat-style.h - the editor's one style sheet */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Adds style.css (from the resources) to the default display, once.
 * The application calls it at start-up; every widget with styles of its
 * own calls it too, so a widget used on its own (tests, other windows)
 * looks the same. */
void mat_style_ensure (void);

G_END_DECLS
