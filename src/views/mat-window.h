#pragma once

#include <gtk/gtk.h>

#include "mat-application.h"

G_BEGIN_DECLS

#define MAT_TYPE_WINDOW (mat_window_get_type ())

G_DECLARE_FINAL_TYPE (MatWindow, mat_window, MAT, WINDOW, GtkApplicationWindow)

MatWindow *mat_window_new (MatApplication *application);

G_END_DECLS
