/* mat-window-dnd.c - files dropped on the window open as libraries */
#include "config.h"

#include "mat-window-private.h"

/* The first file may replace what the window shows (the untouched demo,
 * nothing); the others open in windows of their own. Anything but files
 * is refused. */
static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         gpointer       user_data)
{
  MatWindow *self = MAT_WINDOW (user_data);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSList *files;
  gboolean first = TRUE;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST) || !MAT_IS_APPLICATION (app))
    return FALSE;

  files = gdk_file_list_get_files (g_value_get_boxed (value));
  for (GSList *l = files; l != NULL; l = l->next)
    {
      mat_application_open_file (MAT_APPLICATION (app), G_FILE (l->data),
                                 first ? GTK_WINDOW (self) : NULL);
      first = FALSE;
    }
  g_slist_free (files);

  return TRUE;
}

void
_mat_window_dnd_init (MatWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
