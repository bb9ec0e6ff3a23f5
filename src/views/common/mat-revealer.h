/* mat-revealer.h - a concealed revealer's child costs nothing */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Hides @revealer's child while it is concealed (not revealed, and done
 * sliding away), and shows it again as it starts to reveal. GtkRevealer
 * measures a visible child even when it shows none of it: a problems
 * panel of wrapped messages cost a tenth of the window's start-up. */
void mat_revealer_skip_concealed (GtkRevealer *revealer);

G_END_DECLS
