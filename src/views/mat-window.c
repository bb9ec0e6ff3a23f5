/* mat-window.c - placeholder, to be written */
#include "config.h"

#include "mat-window.h"

struct _MatWindow
{
  GtkApplicationWindow parent_instance;
};

G_DEFINE_FINAL_TYPE (MatWindow, mat_window, GTK_TYPE_APPLICATION_WINDOW)

static void
mat_window_class_init (MatWindowClass *klass)
{
}

static void
mat_window_init (MatWindow *self)
{
}

MatWindow *
mat_window_new (MatApplication *application)
{
  return g_object_new (MAT_TYPE_WINDOW, "application", application, NULL);
}
