#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MAT_TYPE_APPLICATION (mat_application_get_type ())

G_DECLARE_FINAL_TYPE (MatApplication, mat_application, MAT, APPLICATION, GtkApplication)

MatApplication *mat_application_new (const char        *application_id,
                                     GApplicationFlags  flags);

G_END_DECLS
