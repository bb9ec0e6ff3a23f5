/* mat-application.c - placeholder, to be written */
#include "config.h"

#include "mat-application.h"

struct _MatApplication
{
  GtkApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (MatApplication, mat_application, GTK_TYPE_APPLICATION)

static void
mat_application_class_init (MatApplicationClass *klass)
{
}

static void
mat_application_init (MatApplication *self)
{
}

MatApplication *
mat_application_new (const char *application_id, GApplicationFlags flags)
{
  return g_object_new (MAT_TYPE_APPLICATION, "application-id", application_id,
                       "flags", flags, NULL);
}
