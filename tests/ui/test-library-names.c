/* test-library-names.c - two libraries called Material.lib, told apart by
 * their folders wherever both are named: the windows' titles and
 * subtitles, the Compare window's choosers, the library diff's header
 * and the paste dialog; the demo named as the demo
 *
 * Real windows of a real application under Xvfb; the libraries are the
 * demo's bytes in folders of a home of the test's own.
 */
#include "config.h"

#include <locale.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "mat-application.h"
#include "mat-compare-view-private.h"
#include "mat-compare-window.h"
#include "mat-document.h"
#include "mat-library-diff-private.h"
#include "mat-material-json.h"
#include "mat-name-dialog.h"
#include "mat-window.h"
#include "mat-window-clipboard.h"
#include "ui-support.h"

#define WAIT_SECONDS 20

static MatApplication *app;
static char *tmp_dir;

/* Helpers */

/* The demo's bytes as ~/@folder/Material.lib. Returns: (transfer full). */
static GFile *
library_in (const char *folder)
{
  g_autoptr(GBytes) demo = ui_demo_bytes ();
  g_autofree char *dir = g_build_filename (tmp_dir, folder, NULL);
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, g_bytes_get_data (demo, NULL), (gssize) g_bytes_get_size (demo), &error);
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

static gboolean
not_busy (gpointer data)
{
  return !mat_window_get_busy (MAT_WINDOW (data));
}

static MatWindow *
open_window (GFile    *file,
             gboolean  is_demo)
{
  MatWindow *window = mat_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  mat_window_open (window, file, is_demo);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  g_assert_nonnull (mat_window_get_library (window));
  return window;
}

static const char *
label_of (MatWindow  *window,
          const char *name)
{
  return gtk_label_get_label (ui_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW, name));
}

/* The items of a drop-down whose model is a GtkStringList, joined by
 * " | ". Returns: (transfer full). */
static char *
dropdown_items (GtkWidget *dropdown)
{
  GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown));
  GString *text = g_string_new (NULL);

  g_assert_true (GTK_IS_STRING_LIST (model));
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      if (i > 0)
        g_string_append (text, " | ");
      g_string_append (text, gtk_string_list_get_string (GTK_STRING_LIST (model), i));
    }
  return g_string_free (text, FALSE);
}

/* The text the drop-down's button shows for its choice. */
static const char *
dropdown_shown (GtkWidget *dropdown)
{
  GtkWidget *button = ui_find_by_type (dropdown, GTK_TYPE_TOGGLE_BUTTON);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  g_assert_nonnull (button);
  ui_collect_by_type (button, GTK_TYPE_LABEL, labels);
  /* the one on screen: not the "(None)" of no choice */
  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_get_mapped (labels->pdata[i]))
      return gtk_label_get_text (labels->pdata[i]);
  g_assert_not_reached ();
}

static gboolean
compare_window_shown (gpointer data)
{
  GtkWidget *window = ui_find_toplevel (MAT_TYPE_COMPARE_WINDOW);

  return window != NULL && ui_widget_is_shown (window);
}

/* The Compare window of @window, shown. Returns: (transfer none). */
static MatCompareWindow *
open_compare (MatWindow *window)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.compare", NULL));
  g_assert_true (ui_wait_for (compare_window_shown, NULL, WAIT_SECONDS));
  return ui_find_toplevel (MAT_TYPE_COMPARE_WINDOW);
}

static gboolean
other_loaded (gpointer data)
{
  return !mat_library_diff_get_loading (data) && mat_library_diff_get_other (data) != NULL;
}

static gboolean
name_dialog_shown (gpointer data)
{
  return ui_find_toplevel (MAT_TYPE_NAME_DIALOG) != NULL;
}

typedef struct {
  GtkWindow  *window;
  const char *title;
} TitleWait;

static gboolean
has_title (gpointer data)
{
  TitleWait *wait = data;

  return g_strcmp0 (gtk_window_get_title (wait->window), wait->title) == 0;
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  mat_document_save_finish (MAT_DOCUMENT (object), result, NULL, &error);
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* Tests */

/* One Material.lib: its name; two: each with the folder that tells them
 * apart, in the title the window lists show; the header bar keeps the
 * name over the folder. When one closes, the other needs no folder. */
static void
test_window_titles (void)
{
  g_autoptr(GFile) parkan = library_in ("games/Parkan/DATA");
  g_autoptr(GFile) mod = library_in ("games/mod/DATA");
  MatWindow *a = open_window (parkan, FALSE);
  MatWindow *b;
  TitleWait wait = { GTK_WINDOW (a), "Material.lib" };

  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (a)), ==, "Material.lib");
  g_assert_cmpstr (label_of (a, "title_label"), ==, "Material.lib");
  g_assert_cmpstr (label_of (a, "subtitle_label"), ==, "~/games/Parkan/DATA");

  b = open_window (mod, FALSE);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (a)), ==, "Material.lib — Parkan/DATA");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (b)), ==, "Material.lib — mod/DATA");
  g_assert_cmpstr (label_of (a, "title_label"), ==, "Material.lib");
  g_assert_cmpstr (label_of (b, "title_label"), ==, "Material.lib");
  /* the subtitles: the folders */
  g_assert_cmpstr (label_of (a, "subtitle_label"), ==, "~/games/Parkan/DATA");
  g_assert_cmpstr (label_of (b, "subtitle_label"), ==, "~/games/mod/DATA");
  g_assert_true (gtk_widget_get_visible (ui_template_child (GTK_WIDGET (b), MAT_TYPE_WINDOW,
                                                            "subtitle_label")));

  /* an edit marks the title, folders kept */
  g_assert_true (mat_material_set_attr3 (mat_library_find (mat_window_get_library (b), "DEFAULT"), 5, NULL));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (b)), ==, "Material.lib — mod/DATA •");
  g_assert_true (mat_history_undo (mat_library_get_history (mat_window_get_library (b))));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (b)), ==, "Material.lib — mod/DATA");

  ui_close_window (GTK_WINDOW (b));
  g_assert_true (ui_wait_for (has_title, &wait, WAIT_SECONDS));
  ui_close_window (GTK_WINDOW (a));
}

/* The Compare window's choosers list both by their folders, and the
 * library diff names the file it compares with apart from this one. */
static void
test_compare_and_diff (void)
{
  g_autoptr(GFile) parkan = library_in ("games/Parkan/DATA");
  g_autoptr(GFile) mod = library_in ("games/mod/DATA");
  g_autoptr(GFile) original = library_in ("cd/DATA");
  MatWindow *a = open_window (parkan, FALSE);
  MatWindow *b = open_window (mod, FALSE);
  MatCompareWindow *compare = open_compare (b);
  MatCompareView *view = mat_compare_window_get_view (compare);
  MatLibraryDiff *diff = mat_compare_window_get_library_diff (compare);
  GtkWidget *library_a = mat_compare_view_get_test_widget (view, "library-a");
  GtkWidget *library_b = mat_compare_view_get_test_widget (view, "library-b");
  GtkWidget *header = mat_library_diff_get_test_widget (diff, "other-label");
  g_autofree char *items = dropdown_items (library_a);
  g_autofree char *items_b = dropdown_items (library_b);
  g_autofree char *with_other = NULL;

  /* this window's library first, then the other open one */
  g_assert_cmpstr (items, ==, "Material.lib — mod/DATA | Material.lib — Parkan/DATA");
  g_assert_cmpstr (items_b, ==, items);
  g_assert_true (mat_compare_view_get_slot_library (view, MAT_COMPARE_SLOT_A) == mat_window_get_library (b));
  g_assert_cmpstr (dropdown_shown (library_a), ==, "Material.lib — mod/DATA");

  /* a third Material.lib, from the game's disc: the header names it by
   * its folder, apart from this one; the choosers offer it too */
  gtk_widget_activate_action (GTK_WIDGET (compare), "win.show-page", "s", "libraries");
  mat_library_diff_open_file (diff, original);
  g_assert_true (ui_wait_for (other_loaded, diff, WAIT_SECONDS));
  g_assert_cmpstr (mat_library_diff_get_other_title (diff), ==, "Material.lib — cd/DATA");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (header)), ==, "Compared with “Material.lib — cd/DATA”");
  with_other = dropdown_items (library_b);
  g_assert_cmpstr (with_other, ==,
                   "Material.lib — mod/DATA | Material.lib — Parkan/DATA | Material.lib — cd/DATA");

  /* this library saved as Other.lib: the header needs no folder for the
   * other any more; the choosers still tell the other two Material.lib
   * apart; the windows' titles follow */
  {
    g_autofree char *path = g_build_filename (tmp_dir, "games", "mod", "Other.lib", NULL);
    g_autoptr(GFile) elsewhere = g_file_new_for_path (path);
    g_autofree char *renamed = NULL;
    gboolean done = FALSE;

    mat_document_save_async (mat_window_get_document (b), elsewhere, MAT_SAVE_NONE, NULL,
                             saved_cb, &done);
    g_assert_true (ui_wait_for (is_true, &done, WAIT_SECONDS));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (header)), ==, "Compared with “Material.lib”");
    g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (b)), ==, "Other.lib");
    g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (a)), ==, "Material.lib");
    renamed = dropdown_items (library_b);
    g_assert_cmpstr (renamed, ==,
                     "Other.lib | Material.lib — Parkan/DATA | Material.lib — cd/DATA");
  }

  /* another file to compare with, of another name: the one it replaces
   * goes from the choosers, and Parkan's needs its folders no more */
  {
    g_autofree char *path = g_build_filename (tmp_dir, "cd", "DATA", "Original.lib", NULL);
    g_autoptr(GFile) renamed_original = g_file_new_for_path (path);
    g_autofree char *left = NULL;

    g_assert_cmpint (g_rename (g_file_peek_path (original), path), ==, 0);
    mat_library_diff_open_file (diff, renamed_original);
    g_assert_true (ui_wait_for (other_loaded, diff, WAIT_SECONDS));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (header)), ==, "Compared with “Original.lib”");
    left = dropdown_items (library_b);
    g_assert_cmpstr (left, ==, "Other.lib | Material.lib | Original.lib");
  }

  /* a title given is shown as it is (the public interface) */
  mat_library_diff_set_other (diff, mat_library_diff_get_other (diff), "On disk");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (header)), ==, "Compared with “On disk”");

  /* the other window goes: a new Compare window offers this one alone */
  gtk_window_destroy (GTK_WINDOW (compare));
  ui_close_window (GTK_WINDOW (a));
  compare = open_compare (b);
  view = mat_compare_window_get_view (compare);
  g_clear_pointer (&items, g_free);
  items = dropdown_items (mat_compare_view_get_test_widget (view, "library-a"));
  g_assert_cmpstr (items, ==, "Other.lib");

  gtk_window_destroy (GTK_WINDOW (compare));
  ui_close_window (GTK_WINDOW (b));
}

/* The demo reads as the demo, and takes no folder from another library
 * of its file name. */
static void
test_demo (void)
{
  g_autoptr(GFile) demo = g_file_new_for_path (ui_need_env ("DEMO_LIB"));
  g_autoptr(GFile) mod = library_in ("games/mod/DATA");
  MatWindow *a = open_window (demo, TRUE);
  MatWindow *b = open_window (mod, FALSE);
  MatCompareWindow *compare;
  g_autofree char *items = NULL;

  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (a)), ==, "Demo library");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (b)), ==, "Material.lib");
  g_assert_true (g_str_has_prefix (label_of (a, "subtitle_label"), "Demo library in "));

  compare = open_compare (a);
  items = dropdown_items (mat_compare_view_get_test_widget (mat_compare_window_get_view (compare),
                                                            "library-a"));
  g_assert_cmpstr (items, ==, "Demo library | Material.lib");

  gtk_window_destroy (GTK_WINDOW (compare));
  ui_close_window (GTK_WINDOW (b));
  ui_close_window (GTK_WINDOW (a));
}

/* Pasting a material whose name is taken: the dialog says which library
 * has it, by the name its window has. */
static void
test_paste_dialog (void)
{
  g_autoptr(GFile) parkan = library_in ("games/Parkan/DATA");
  g_autoptr(GFile) mod = library_in ("games/mod/DATA");
  MatWindow *a = open_window (parkan, FALSE);
  MatWindow *b = open_window (mod, FALSE);
  g_autofree char *text = mat_material_to_json (mat_library_find (mat_window_get_library (a), "ROCK_WALL"),
                                                NULL);
  MatNameDialog *dialog;

  g_assert_nonnull (text);
  mat_window_paste_text (b, text);
  g_assert_true (ui_wait_for (name_dialog_shown, NULL, WAIT_SECONDS));
  dialog = ui_find_toplevel (MAT_TYPE_NAME_DIALOG);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (b));
  g_assert_cmpstr (mat_name_dialog_get_intro (dialog), ==,
                   "“Material.lib — mod/DATA” already has a material named “ROCK_WALL”. "
                   "Paste the copy under another name:");

  gtk_window_destroy (GTK_WINDOW (dialog));
  ui_close_window (GTK_WINDOW (b));
  ui_close_window (GTK_WINDOW (a));
}

typedef struct {
  GtkWidget *widget;
  int        width;
  int        height;
} SizeWanted;

static gboolean
has_size (gpointer data)
{
  SizeWanted *wanted = data;

  return gtk_widget_get_width (wanted->widget) == wanted->width &&
         gtk_widget_get_height (wanted->widget) == wanted->height;
}

/* @window's own area @width x @height (the default size counts the frame
 * GTK draws around it too), then a screenshot of it. */
static void
shoot (GtkWindow  *window,
       const char *name,
       int         width,
       int         height)
{
  SizeWanted wanted = { GTK_WIDGET (window), width, height };
  const char *language = g_getenv ("LANGUAGE");
  g_autofree char *file = g_strdup_printf ("%s-%s-%dx%d.png", name,
                                           language != NULL && *language != '\0' ? language : "en",
                                           width, height);

  int default_width, default_height;

  gtk_window_get_default_size (window, &default_width, &default_height);
  gtk_window_set_default_size (window, default_width + (width - gtk_widget_get_width (GTK_WIDGET (window))),
                               default_height + (height - gtk_widget_get_height (GTK_WIDGET (window))));
  if (!ui_wait_for (has_size, &wanted, 5))
    g_test_message ("%s: %dx%d of %dx%d", name, gtk_widget_get_width (GTK_WIDGET (window)),
                    gtk_widget_get_height (GTK_WIDGET (window)), width, height);
  ui_spin_ms (300);
  ui_screenshot (GTK_WIDGET (window), file);
}

/* What the user sees, in either language: two windows of Material.lib,
 * the Compare window's choosers and the library diff against a third. */
static void
test_screenshots (void)
{
  static const int sizes[][2] = { { 1100, 720 }, { 1280, 800 } };
  g_autoptr(GFile) parkan = library_in ("games/Parkan/DATA");
  g_autoptr(GFile) mod = library_in ("games/mod/DATA");
  g_autoptr(GFile) original = library_in ("cd/DATA");
  MatWindow *a = open_window (parkan, FALSE);
  MatWindow *b = open_window (mod, FALSE);
  MatCompareWindow *compare = open_compare (b);
  MatLibraryDiff *diff = mat_compare_window_get_library_diff (compare);
  MatCompareView *view = mat_compare_window_get_view (compare);

  mat_library_diff_open_file (diff, original);
  g_assert_true (ui_wait_for (other_loaded, diff, WAIT_SECONDS));
  /* this one's COLOR_CYCLE against the other window's */
  mat_compare_view_set_slot (view, MAT_COMPARE_SLOT_A,
                             mat_library_find (mat_window_get_library (a), "COLOR_CYCLE"), -1, 0, 0);
  mat_compare_view_set_slot (view, MAT_COMPARE_SLOT_B,
                             mat_library_find (mat_window_get_library (b), "COLOR_CYCLE"), -1, 2, 0);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      gtk_widget_activate_action (GTK_WIDGET (compare), "win.show-page", "s", "materials");
      shoot (GTK_WINDOW (compare), "library-names-compare", sizes[i][0], sizes[i][1]);
      gtk_widget_activate_action (GTK_WIDGET (compare), "win.show-page", "s", "libraries");
      shoot (GTK_WINDOW (compare), "library-names-diff", sizes[i][0], sizes[i][1]);
    }
  shoot (GTK_WINDOW (b), "library-names-window", 1100, 720);

  gtk_window_destroy (GTK_WINDOW (compare));
  ui_close_window (GTK_WINDOW (b));
  ui_close_window (GTK_WINDOW (a));
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  /* a home of our own: the libraries' folders read "~/...", and recent
   * files and settings stay out of the real one */
  tmp_dir = g_dir_make_tmp ("test-library-names-XXXXXX", &error);
  g_assert_no_error (error);
  {
    const char *dirs[] = { "XDG_DATA_HOME", ".local/share", "XDG_CONFIG_HOME", ".config",
                           "XDG_CACHE_HOME", ".cache" };

    g_setenv ("HOME", tmp_dir, TRUE);
    for (guint i = 0; i < G_N_ELEMENTS (dirs); i += 2)
      {
        g_autofree char *path = g_build_filename (tmp_dir, dirs[i + 1], NULL);

        g_mkdir_with_parents (path, 0700);
        g_setenv (dirs[i], path, TRUE);
      }
  }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  /* LANGUAGE=ru (library-names-ru): the screenshots in Russian */
  setlocale (LC_ALL, "");
  mat_application_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);
  gtk_test_init (&argc, &argv, NULL);

  app = mat_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/library-names/window-titles", test_window_titles);
  g_test_add_func ("/ui/library-names/compare-and-diff", test_compare_and_diff);
  g_test_add_func ("/ui/library-names/demo", test_demo);
  g_test_add_func ("/ui/library-names/paste-dialog", test_paste_dialog);
  g_test_add_func ("/ui/library-names/shown/screenshots", test_screenshots);

  status = g_test_run ();

  g_clear_object (&app);
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
