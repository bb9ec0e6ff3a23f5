/* main.c - Parkan Material Editor */
#include "config.h"

#include "mat-application.h"

int
main (int argc, char *argv[])
{
  g_autoptr(MatApplication) app = mat_application_new (APPLICATION_ID, G_APPLICATION_HANDLES_OPEN);

  return g_application_run (G_APPLICATION (app), argc, argv);
}
