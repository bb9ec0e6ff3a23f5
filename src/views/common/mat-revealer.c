/* mat-revealer.c - a concealed revealer's child costs nothing */
#include "config.h"

#include "mat-revealer.h"

static void
sync_child (GtkRevealer *revealer)
{
  GtkWidget *child = gtk_revealer_get_child (revealer);

  if (child == NULL)
    return;
  if (gtk_revealer_get_reveal_child (revealer))
    gtk_widget_set_visible (child, TRUE);
  else if (!gtk_revealer_get_child_revealed (revealer))
    gtk_widget_set_visible (child, FALSE);
}

void
mat_revealer_skip_concealed (GtkRevealer *revealer)
{
  g_return_if_fail (GTK_IS_REVEALER (revealer));

  g_signal_connect (revealer, "notify::reveal-child", G_CALLBACK (sync_child), NULL);
  g_signal_connect (revealer, "notify::child-revealed", G_CALLBACK (sync_child), NULL);
  g_signal_connect (revealer, "notify::child", G_CALLBACK (sync_child), NULL);
  sync_child (revealer);
}
