/* test-preferences.c - the Preferences window, opened and used as a user
 * would, and the Textures.lib it lets the open library find */
#include "config.h"

#include <locale.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gdk/x11/gdkx.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

#include "mat-application.h"
#include "mat-phase-table-private.h"
#include "mat-preferences.h"
#include "mat-preview-private.h"
#include "mat-texture-picker-private.h"
#include "mat-window.h"
#include "test-support.h"
#include "ui-support.h"

#define WAIT_SECONDS 20

static MatApplication *app;
static char *tmp_dir;
static gboolean russian;

/* ---- helpers ------------------------------------------------------------ */

static GSettings *
settings (void)
{
  GSettings *settings = mat_application_get_settings (app);

  g_assert_nonnull (settings);
  return settings;
}

/* A folder @name under the test's folder, holding the demo library
 * (@library) and the demo textures (@textures) when asked.
 * Returns: (transfer full): its path. */
static char *
make_folder (const char *name,
             gboolean    library,
             gboolean    textures)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  const char *copies[2][2] = { { "DEMO_LIB", "Material.lib" }, { "DEMO_TEXTURES", "Textures.lib" } };

  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GBytes) bytes = NULL;
      g_autofree char *target = NULL;
      g_autoptr(GError) error = NULL;

      if ((i == 0 && !library) || (i == 1 && !textures))
        continue;
      bytes = test_load_file (ui_need_env (copies[i][0]));
      target = g_build_filename (path, copies[i][1], NULL);
      g_file_set_contents (target, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
      g_assert_no_error (error);
    }
  return path;
}

static gboolean
not_busy (gpointer data)
{
  MatWindow *window = data;

  return !mat_window_get_busy (window) && mat_window_get_document (window) != NULL &&
         !mat_document_get_finding_textures (mat_window_get_document (window));
}

static MatWindow *
open_window (const char *folder,
             int         width,
             int         height)
{
  g_autofree char *path = g_build_filename (folder, "Material.lib", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  MatWindow *window = mat_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  return window;
}

static void
destroy_and_wait (GtkWindow *window)
{
  gpointer weak = window;

  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_destroy (window);
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));
}

static gpointer
window_child (MatWindow  *window,
              const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW, name);

  g_assert_nonnull (child);
  return child;
}

static gpointer
prefs_child (MatPreferences *prefs,
             const char     *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (prefs), MAT_TYPE_PREFERENCES, name);

  g_assert_nonnull (child);
  return child;
}

static MatMaterial *
select_material (MatWindow  *window,
                 const char *name)
{
  MatMaterial *material = ui_find_material (mat_window_get_library (window), name);

  mat_window_select_material (window, material);
  g_assert_true (mat_window_get_selected_material (window) == material);
  ui_pump ();
  return material;
}

/* Real key presses through the X server: @keysym with Control when
 * @control, to the window that has the keyboard focus. */
static void
send_key (GtkWidget *widget,
          guint      keysym,
          gboolean   control)
{
  Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  KeyCode code = XKeysymToKeycode (xdisplay, keysym);
  KeyCode ctrl = XKeysymToKeycode (xdisplay, XK_Control_L);

  g_assert_cmpuint (code, !=, 0);
  if (control)
    XTestFakeKeyEvent (xdisplay, ctrl, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, False, CurrentTime);
  if (control)
    XTestFakeKeyEvent (xdisplay, ctrl, False, CurrentTime);
  XFlush (xdisplay);
  ui_spin_ms (60);
}

static gboolean
is_active (gpointer data)
{
  return gtk_window_is_active (GTK_WINDOW (data));
}

static gboolean
preferences_shown (gpointer data)
{
  GtkWidget *prefs = ui_find_toplevel (MAT_TYPE_PREFERENCES);

  return prefs != NULL && ui_widget_is_shown (prefs);
}

static gboolean
preferences_gone (gpointer data)
{
  return ui_find_toplevel (MAT_TYPE_PREFERENCES) == NULL;
}

static MatPreferences *
open_preferences (void)
{
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  g_assert_true (ui_wait_for (preferences_shown, NULL, WAIT_SECONDS));
  return ui_find_toplevel (MAT_TYPE_PREFERENCES);
}

static gboolean
checked (gpointer data)
{
  return mat_preferences_get_game_folder_checked (MAT_PREFERENCES (data));
}

static gboolean
textures_shown (gpointer data)
{
  return mat_phase_table_get_textures (window_child (data, "phase_table")) != NULL;
}

static gboolean
textures_gone (gpointer data)
{
  return mat_phase_table_get_textures (window_child (data, "phase_table")) == NULL;
}

static const char *
label_text (MatPreferences *prefs,
            const char     *name)
{
  return gtk_label_get_text (prefs_child (prefs, name));
}

static gboolean
has_action (GtkWidget     *widget,
            gconstpointer  action)
{
  return GTK_IS_BUTTON (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0;
}

/* The button of @prefs that activates @action. */
static GtkWidget *
action_button (MatPreferences *prefs,
               const char     *action)
{
  GtkWidget *button = ui_find_widget (GTK_WIDGET (prefs), has_action, action);

  g_assert_nonnull (button);
  return button;
}

static void
reset_settings (void)
{
  const char *keys[] = { "game-folder", "chosen-textures", "make-backup", "preview-scene-colour",
                         "emboss-bump" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings (), keys[i]);
}

/* ---- tests -------------------------------------------------------------- */

/* Ctrl+comma on the editor window opens the one Preferences window over
 * it; Escape closes it. */
static void
test_accelerator (void)
{
  g_autofree char *folder = make_folder ("accel", TRUE, FALSE);
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                "app.preferences");
  MatWindow *window;
  MatPreferences *prefs;

  g_assert_nonnull (accels[0]);
  g_assert_cmpstr (accels[0], ==, "<Control>comma");
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (app), "preferences"));

  window = open_window (folder, 1100, 720);
  g_assert_true (ui_wait_for (is_active, window, WAIT_SECONDS));
  g_assert_null (ui_find_toplevel (MAT_TYPE_PREFERENCES));

  send_key (GTK_WIDGET (window), XK_comma, TRUE);
  g_assert_true (ui_wait_for (preferences_shown, NULL, WAIT_SECONDS));
  prefs = ui_find_toplevel (MAT_TYPE_PREFERENCES);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (prefs)) == GTK_WINDOW (window));
  g_assert_true (mat_preferences_get_settings (prefs) == settings ());

  /* asked again: the same window, not a second one */
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  ui_pump ();
  g_assert_true (ui_find_toplevel (MAT_TYPE_PREFERENCES) == prefs);
  {
    guint n = 0;

    for (GList *l = gtk_window_list_toplevels (); l != NULL; l = g_list_delete_link (l, l))
      n += MAT_IS_PREFERENCES (l->data);
    g_assert_cmpuint (n, ==, 1);
  }

  /* Escape, typed in it, closes it */
  g_assert_true (ui_wait_for (is_active, prefs, WAIT_SECONDS));
  send_key (GTK_WIDGET (prefs), XK_Escape, FALSE);
  g_assert_true (ui_wait_for (preferences_gone, NULL, WAIT_SECONDS));

  destroy_and_wait (GTK_WINDOW (window));
}

/* The game folder, set as the folder chooser sets it: the open library
 * without a Textures.lib of its own finds the game's, and the phase
 * table and the preview show its textures. */
static void
test_game_folder (void)
{
  g_autofree char *folder = make_folder ("mods/tanks", TRUE, FALSE);
  g_autofree char *game = make_folder ("Parkan", FALSE, TRUE);
  g_autofree char *empty = make_folder ("not-the-game", FALSE, FALSE);
  g_autoptr(GFile) game_file = g_file_new_for_path (game);
  g_autoptr(GFile) empty_file = g_file_new_for_path (empty);
  g_autoptr(GFile) shown = NULL;
  MatWindow *window;
  MatPreferences *prefs;
  MatPhaseTable *table;
  MatPreview *preview;
  MatDocument *document;
  GtkEntry *entry;

  reset_settings ();
  window = open_window (folder, 1100, 720);
  document = mat_window_get_document (window);
  table = window_child (window, "phase_table");
  preview = window_child (window, "preview");

  /* no Textures.lib: no texture can be said to be missing, and the
   * texture button offers to choose a Textures.lib */
  select_material (window, "LINT_EXAMPLE");
  entry = mat_phase_table_get_texture_for_test (table, 1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "BAD._9");
  g_assert_null (mat_phase_table_get_textures (table));
  g_assert_null (mat_preview_get_textures (preview));
  g_assert_null (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (mat_phase_table_get_texture_button_for_test (table, 1))),
                   ==, _("No Textures.lib beside this library: choose one…"));
  g_assert_cmpint (mat_document_get_textures_source (document), ==, MAT_TEXTURES_SOURCE_NONE);

  prefs = open_preferences ();
  g_assert_true (ui_wait_for (checked, prefs, WAIT_SECONDS));
  g_assert_null (mat_preferences_get_game_folder (prefs));
  g_assert_false (gtk_widget_get_visible (prefs_child (prefs, "status_box")));
  g_assert_false (gtk_widget_is_sensitive (action_button (prefs, "prefs.clear-game-folder")));
  if (russian)
    g_assert_cmpstr (label_text (prefs, "game_folder_label"), ==,
                     "Не задана: используется только Textures.lib рядом с библиотекой");
  else
    g_assert_cmpstr (label_text (prefs, "game_folder_label"), ==,
                     "None: only the Textures.lib beside a library is used");

  /* the folder chooser's answer */
  mat_preferences_set_game_folder (prefs, game_file);
  g_assert_true (ui_wait_for (textures_shown, window, WAIT_SECONDS));
  g_assert_true (mat_phase_table_get_textures (table) == mat_document_get_textures (document));
  g_assert_true (mat_preview_get_textures (preview) == mat_phase_table_get_textures (table));
  g_assert_cmpint (mat_document_get_textures_source (document), ==, MAT_TEXTURES_SOURCE_GAME_FOLDER);
  g_assert_nonnull (mat_texture_library_lookup (mat_phase_table_get_textures (table), "ROCK.0"));
  /* the setting holds the folder, and the row says so */
  {
    g_autofree char *value = g_settings_get_string (settings (), "game-folder");

    g_assert_cmpstr (value, ==, game);
  }
  shown = mat_preferences_get_game_folder (prefs);
  g_assert_true (g_file_equal (shown, game_file));
  g_assert_cmpstr (label_text (prefs, "game_folder_label"), ==, game);
  g_assert_true (gtk_widget_is_sensitive (action_button (prefs, "prefs.clear-game-folder")));
  g_assert_true (ui_wait_for (checked, prefs, WAIT_SECONDS));
  g_assert_true (gtk_widget_get_visible (prefs_child (prefs, "status_box")));
  g_assert_false (gtk_widget_has_css_class (prefs_child (prefs, "status_box"), "warning"));
  g_assert_cmpstr (label_text (prefs, "status_label"), ==,
                   russian ? "В этой папке найден Textures.lib." : "Textures.lib found in this folder.");

  /* the texture state: BAD._9 is now known to be missing, ROCK.0 is there */
  g_assert_cmpstr (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY), ==,
                   "dialog-warning-symbolic");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (mat_phase_table_get_texture_button_for_test (table, 1))),
                   ==, _("Choose a texture from Textures.lib…"));
  select_material (window, "ROCK_WALL");
  entry = mat_phase_table_get_texture_for_test (table, 0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "ROCK.0");
  g_assert_null (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY));
  g_assert_true (mat_preview_get_material (preview) == mat_window_get_selected_material (window));

  /* a folder without Textures.lib: said so, and the textures go */
  mat_preferences_set_game_folder (prefs, empty_file);
  g_assert_true (ui_wait_for (textures_gone, window, WAIT_SECONDS));
  g_assert_null (mat_preview_get_textures (preview));
  g_assert_true (ui_wait_for (checked, prefs, WAIT_SECONDS));
  g_assert_true (gtk_widget_has_css_class (prefs_child (prefs, "status_box"), "warning"));
  g_assert_cmpstr (label_text (prefs, "status_label"), ==,
                   russian ? "В этой папке нет Textures.lib." : "This folder has no Textures.lib.");

  /* back, then cleared with the row's button (its action) */
  mat_preferences_set_game_folder (prefs, game_file);
  g_assert_true (ui_wait_for (textures_shown, window, WAIT_SECONDS));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (prefs), "prefs.clear-game-folder", NULL));
  g_assert_true (ui_wait_for (textures_gone, window, WAIT_SECONDS));
  g_assert_null (mat_preferences_get_game_folder (prefs));
  {
    g_autofree char *value = g_settings_get_string (settings (), "game-folder");

    g_assert_cmpstr (value, ==, "");
  }

  destroy_and_wait (GTK_WINDOW (prefs));
  destroy_and_wait (GTK_WINDOW (window));
  reset_settings ();
}

/* A change applies at once: the backup switch (and its row) and the scene
 * colour write the settings, and the preview follows. */
static void
test_bindings (void)
{
  g_autofree char *folder = make_folder ("bindings", TRUE, TRUE);
  MatWindow *window;
  MatPreferences *prefs;
  MatPreview *preview;
  GtkSwitch *backup;
  GtkWidget *colour_button;
  GdkRGBA red = { 1, 0, 0, 1 };
  GdkRGBA *shown = NULL;
  g_autofree char *value = NULL;

  reset_settings ();
  window = open_window (folder, 1100, 720);
  preview = window_child (window, "preview");
  /* the preview follows the settings while it is shown */
  select_material (window, "ROCK_WALL");
  gtk_stack_set_visible_child_name (window_child (window, "material_stack"), "animation");
  g_assert_true (ui_wait_for (ui_widget_is_shown, preview, WAIT_SECONDS));
  prefs = open_preferences ();

  backup = prefs_child (prefs, "backup_switch");
  g_assert_false (gtk_switch_get_active (backup));
  gtk_switch_set_active (backup, TRUE);
  g_assert_true (g_settings_get_boolean (settings (), "make-backup"));
  /* activating the row flips it back */
  g_assert_true (gtk_widget_activate (prefs_child (prefs, "backup_row")));
  g_assert_false (gtk_switch_get_active (backup));
  g_assert_false (g_settings_get_boolean (settings (), "make-backup"));
  /* and a change made elsewhere shows here */
  g_settings_set_boolean (settings (), "make-backup", TRUE);
  g_assert_true (gtk_switch_get_active (backup));

  colour_button = gtk_widget_get_first_child (prefs_child (prefs, "scene_colour_box"));
  g_assert_nonnull (colour_button);
  g_object_get (colour_button, "rgba", &shown, NULL);
  g_assert_cmpfloat_with_epsilon (shown->red, 40.0 / 255.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (shown->blue, 40.0 / 255.0, 1e-6);
  gdk_rgba_free (shown);

  g_object_set (colour_button, "rgba", &red, NULL);
  value = g_settings_get_string (settings (), "preview-scene-colour");
  g_assert_cmpstr (value, ==, "rgb(255,0,0)");
  g_assert_true (gdk_rgba_equal (mat_preview_get_scene_colour (preview), &red));

  /* emboss bump: off by default; the switch (and its row) writes the
   * setting, and the preview, the phase table and the list follow */
  {
    GtkSwitch *emboss = prefs_child (prefs, "emboss_switch");
    MatPhaseTable *table = window_child (window, "phase_table");

    g_assert_false (g_settings_get_boolean (settings (), "emboss-bump"));
    g_assert_false (gtk_switch_get_active (emboss));
    g_assert_false (mat_preview_get_emboss_bump (preview));
    g_assert_false (mat_phase_table_get_emboss_bump (table));
    gtk_switch_set_active (emboss, TRUE);
    g_assert_true (g_settings_get_boolean (settings (), "emboss-bump"));
    g_assert_true (mat_preview_get_emboss_bump (preview));
    g_assert_true (mat_phase_table_get_emboss_bump (table));
    g_assert_true (gtk_widget_activate (prefs_child (prefs, "emboss_row")));
    g_assert_false (gtk_switch_get_active (emboss));
    g_assert_false (mat_preview_get_emboss_bump (preview));
    g_assert_false (mat_phase_table_get_emboss_bump (table));
    g_settings_set_boolean (settings (), "emboss-bump", TRUE);
    g_assert_true (gtk_switch_get_active (emboss));
    g_assert_true (mat_preview_get_emboss_bump (preview));
    g_settings_reset (settings (), "emboss-bump");
    g_assert_false (mat_preview_get_emboss_bump (preview));
  }

  /* reset: back to mission 01's grey */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (prefs), "prefs.reset-scene-colour", NULL));
  g_clear_pointer (&value, g_free);
  value = g_settings_get_string (settings (), "preview-scene-colour");
  g_assert_cmpstr (value, ==, "rgb(40,40,40)");
  g_object_get (colour_button, "rgba", &shown, NULL);
  g_assert_cmpfloat_with_epsilon (shown->red, 40.0 / 255.0, 1e-6);
  gdk_rgba_free (shown);
  g_assert_cmpfloat_with_epsilon (mat_preview_get_scene_colour (preview)->green, 40.0 / 255.0, 1e-6);

  destroy_and_wait (GTK_WINDOW (prefs));
  destroy_and_wait (GTK_WINDOW (window));
  reset_settings ();
}

static gboolean
picker_has_textures (gpointer data)
{
  return mat_texture_picker_get_textures (MAT_TEXTURE_PICKER (data)) != NULL;
}

static gboolean
document_source_chosen (gpointer data)
{
  MatDocument *document = mat_window_get_document (MAT_WINDOW (data));

  return !mat_document_get_finding_textures (document) &&
         mat_document_get_textures_source (document) == MAT_TEXTURES_SOURCE_CHOSEN;
}

/* A Textures.lib chosen in the texture picker is remembered for the
 * library: the next window on that file finds it; the Preferences count
 * the choices and forget them. */
static void
test_picker_remembers (void)
{
  g_autofree char *folder = make_folder ("picker/library", TRUE, FALSE);
  g_autofree char *elsewhere = make_folder ("picker/textures", FALSE, TRUE);
  g_autofree char *textures_path = g_build_filename (elsewhere, "Textures.lib", NULL);
  g_autoptr(GFile) textures_file = g_file_new_for_path (textures_path);
  MatWindow *window;
  MatPhaseTable *table;
  MatTexturePicker *picker;
  MatPreferences *prefs;
  g_autoptr(GVariant) dict = NULL;

  reset_settings ();
  window = open_window (folder, 1100, 720);
  table = window_child (window, "phase_table");
  select_material (window, "ROCK_WALL");
  g_assert_null (mat_phase_table_get_textures (table));

  /* the texture button opens the picker, over the window, on its document */
  g_signal_emit_by_name (mat_phase_table_get_texture_button_for_test (table, 0), "clicked");
  picker = ui_find_toplevel (MAT_TYPE_TEXTURE_PICKER);
  g_assert_nonnull (picker);
  g_assert_true (mat_texture_picker_get_document (picker) == mat_window_get_document (window));

  /* what the file chooser does with the file picked */
  mat_texture_picker_open_file (picker, textures_file);
  g_assert_true (ui_wait_for (picker_has_textures, picker, WAIT_SECONDS));
  g_assert_true (ui_wait_for (document_source_chosen, window, WAIT_SECONDS));
  g_assert_true (mat_document_get_textures (mat_window_get_document (window)) ==
                 mat_texture_picker_get_textures (picker));
  g_assert_true (mat_phase_table_get_textures (table) == mat_texture_picker_get_textures (picker));
  destroy_and_wait (GTK_WINDOW (picker));

  dict = g_settings_get_value (settings (), "chosen-textures");
  g_assert_cmpuint (g_variant_n_children (dict), ==, 1);
  {
    g_autofree char *key = mat_document_file_to_setting (mat_window_get_file (window));
    const char *value = NULL;

    g_assert_true (g_variant_lookup (dict, key, "&s", &value));
    g_assert_cmpstr (value, ==, textures_path);
  }
  destroy_and_wait (GTK_WINDOW (window));

  /* the library opened again finds its Textures.lib */
  window = open_window (folder, 1100, 720);
  g_assert_true (ui_wait_for (document_source_chosen, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (textures_shown, window, WAIT_SECONDS));

  /* the Preferences count the choice and forget it */
  prefs = open_preferences ();
  g_assert_cmpstr (label_text (prefs, "chosen_label"), ==,
                   "A Textures.lib is remembered for 1 library.");
  g_assert_true (gtk_widget_is_sensitive (action_button (prefs, "prefs.forget-chosen")));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (prefs), "prefs.forget-chosen", NULL));
  g_clear_pointer (&dict, g_variant_unref);
  dict = g_settings_get_value (settings (), "chosen-textures");
  g_assert_cmpuint (g_variant_n_children (dict), ==, 0);
  g_assert_true (ui_wait_for (textures_gone, window, WAIT_SECONDS));
  g_assert_cmpstr (label_text (prefs, "chosen_label"), ==,
                   "None yet: a Textures.lib chosen in the texture picker is remembered for its library.");
  g_assert_false (gtk_widget_is_sensitive (action_button (prefs, "prefs.forget-chosen")));

  destroy_and_wait (GTK_WINDOW (prefs));
  destroy_and_wait (GTK_WINDOW (window));
  reset_settings ();
}

/* ---- screenshots -------------------------------------------------------- */

/* The screen's top-left @width x @height as the X server shows it (the
 * windows as they overlap), saved as the PNG @name. */
static void
screenshot_screen (GtkWidget  *widget,
                   int         width,
                   int         height,
                   const char *name)
{
  Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  XImage *image;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  guint8 *pixels;

  ui_spin_ms (300);
  XSync (xdisplay, False);
  image = XGetImage (xdisplay, DefaultRootWindow (xdisplay), 0, 0, (unsigned) width,
                     (unsigned) height, AllPlanes, ZPixmap);
  g_assert_nonnull (image);
  pixels = g_malloc ((gsize) width * height * 4);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        unsigned long pixel = XGetPixel (image, x, y);
        guint8 *p = pixels + ((gsize) y * width + x) * 4;

        p[0] = (pixel >> 16) & 0xff;
        p[1] = (pixel >> 8) & 0xff;
        p[2] = pixel & 0xff;
        p[3] = 0xff;
      }
  XDestroyImage (image);
  bytes = g_bytes_new_take (pixels, (gsize) width * height * 4);
  texture = gdk_memory_texture_new (width, height, GDK_MEMORY_R8G8B8A8, bytes, (gsize) width * 4);
  ui_save_texture (texture, name);
}

/* The window over the editor at two screen sizes, set up as a user
 * would: a game folder with its Textures.lib found, a remembered choice. */
static void
test_screenshots (void)
{
  static const int sizes[][2] = { { 1100, 720 }, { 1280, 800 } };
  g_autofree char *folder = make_folder ("shots/mods", TRUE, FALSE);
  g_autofree char *game = make_folder ("shots/Parkan Iron Strategy", FALSE, TRUE);
  g_autoptr(GFile) game_file = g_file_new_for_path (game);
  const char *lang = russian ? "ru" : "en";

  reset_settings ();
  g_settings_set_value (settings (), "chosen-textures",
                        g_variant_new_parsed ("{'/home/modder/mod/Material.lib': '/home/modder/Textures.lib'}"));

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      MatWindow *window = open_window (folder, sizes[i][0], sizes[i][1]);
      MatPreferences *prefs;
      g_autofree char *name = NULL;
      Display *xdisplay;

      select_material (window, "ROCK_WALL");
      prefs = open_preferences ();
      mat_preferences_set_game_folder (prefs, game_file);
      g_assert_true (ui_wait_for (checked, prefs, WAIT_SECONDS));
      g_assert_true (ui_wait_for (textures_shown, window, WAIT_SECONDS));
      if (russian)
        {
          g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (prefs)), !=, "Preferences");
          g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (prefs)), ==, _("Preferences"));
        }

      /* without a window manager both windows sit at 0,0: put the
       * preferences where a window manager would, over the middle */
      xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (GTK_WIDGET (prefs)));
      XMoveWindow (xdisplay,
                   gdk_x11_surface_get_xid (gtk_native_get_surface (GTK_NATIVE (prefs))),
                   (sizes[i][0] - gtk_widget_get_width (GTK_WIDGET (prefs))) / 2,
                   (sizes[i][1] - gtk_widget_get_height (GTK_WIDGET (prefs))) / 2);
      g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (prefs)), <=, sizes[i][1]);

      name = g_strdup_printf ("preferences-%s-%dx%d.png", lang, sizes[i][0], sizes[i][1]);
      screenshot_screen (GTK_WIDGET (window), sizes[i][0], sizes[i][1], name);
      if (i == 0)
        {
          g_free (name);
          name = g_strdup_printf ("preferences-%s.png", lang);
          ui_screenshot (GTK_WIDGET (prefs), name);
        }
      destroy_and_wait (GTK_WINDOW (prefs));
      destroy_and_wait (GTK_WINDOW (window));
    }
  reset_settings ();
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

  /* MATEDIT_TEST_LANGUAGE=ru: the same window as a Russian user sees it */
  russian = g_strcmp0 (g_getenv ("MATEDIT_TEST_LANGUAGE"), "ru") == 0;
  if (russian)
    {
      g_setenv ("LANGUAGE", "ru", TRUE);
      g_setenv ("LC_ALL", "C.UTF-8", TRUE);
    }
  setlocale (LC_ALL, "");
  mat_application_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);

  /* a home of our own: recent files and caches stay out of the real one */
  tmp_dir = g_dir_make_tmp ("test-preferences-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", tmp_dir, TRUE);
  g_setenv ("XDG_DATA_HOME", tmp_dir, TRUE);
  g_setenv ("XDG_CACHE_HOME", tmp_dir, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);

  ui_need_env ("DEMO_LIB");
  ui_need_env ("DEMO_TEXTURES");
  app = mat_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  /* in Russian: the window with its words, and its screenshots */
  if (!russian)
    g_test_add_func ("/ui/preferences/accelerator", test_accelerator);
  g_test_add_func ("/ui/preferences/game-folder", test_game_folder);
  if (!russian)
    {
      g_test_add_func ("/ui/preferences/bindings", test_bindings);
      g_test_add_func ("/ui/preferences/picker-remembers", test_picker_remembers);
    }
  g_test_add_func ("/ui/preferences/screenshots", test_screenshots);

  status = g_test_run ();

  g_clear_object (&app);
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
