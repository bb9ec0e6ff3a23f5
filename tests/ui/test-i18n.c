/* test-i18n.c - run from the build folder, the editor speaks Russian
 *
 * The quick start runs the editor from the build folder, before any
 * `meson install`: its catalogues must be found there. This test runs
 * from the build folder too, with LANGUAGE=ru, and reads the real window.
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat-application.h"
#include "mat-window.h"
#include "ui-support.h"

static MatApplication *app;

static gboolean
has_label (GtkWidget     *widget,
           gconstpointer  text)
{
  if (GTK_IS_LABEL (widget))
    return g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
  if (GTK_IS_BUTTON (widget))
    return g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), text) == 0;
  return FALSE;
}

static gboolean
window_shown (gpointer data)
{
  GtkWidget *window = ui_find_toplevel (MAT_TYPE_WINDOW);

  return window != NULL && ui_widget_is_shown (window);
}

static void
test_build_folder_catalogue (void)
{
  const char *dir = mat_application_bind_text_domain ();

  /* the test program lives in the build folder, like the quick start's */
  g_assert_cmpstr (dir, ==, BUILD_LOCALEDIR);
  g_assert_cmpstr (g_dgettext (GETTEXT_PACKAGE, "Parkan Material Editor"),
                   ==, "Редактор материалов Parkan");
}

static void
test_window_in_russian (void)
{
  g_autoptr(GFile) demo = mat_application_find_demo ();
  GtkWidget *window;

  g_assert_nonnull (demo);
  mat_application_open_file (app, demo, NULL);
  g_assert_true (ui_wait_for (window_shown, NULL, 20));
  window = ui_find_toplevel (MAT_TYPE_WINDOW);

  /* the header bar's Open button and a page tab, as the user reads them */
  g_assert_nonnull (ui_find_widget (window, has_label, "_Открыть"));
  g_assert_nonnull (ui_find_widget (window, has_label, "Фазы"));
  g_assert_null (ui_find_widget (window, has_label, "_Open"));
  ui_screenshot (window, "window-ru.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  /* as a Russian user's session would say it; C.UTF-8 is everywhere */
  g_setenv ("LANGUAGE", "ru", TRUE);
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  setlocale (LC_ALL, "");
  mat_application_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);

  app = mat_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/i18n/build-folder-catalogue", test_build_folder_catalogue);
  g_test_add_func ("/ui/i18n/window-in-russian", test_window_in_russian);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
