/* main.c - Parkan Material Editor */
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "mat-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(MatApplication) app = NULL;

  setlocale (LC_ALL, "");
  mat_application_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);

  app = mat_application_new (APPLICATION_ID, G_APPLICATION_HANDLES_OPEN);

  return g_application_run (G_APPLICATION (app), argc, argv);
}
