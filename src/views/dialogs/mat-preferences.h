/* mat-preferences.h - the Preferences window
 *
 * A GNOME-style preferences window (groups of rows in boxed lists) over
 * the application's settings: the game folder, whose Textures.lib shows
 * the textures of libraries that have none beside them, and the choices
 * of Textures.lib remembered per library; backups when saving; the
 * preview's scene colour and the game's emboss bump setting. Every change is written to the settings at
 * once (bindings and setters, no Apply button); Escape closes it.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MAT_TYPE_PREFERENCES (mat_preferences_get_type ())

G_DECLARE_FINAL_TYPE (MatPreferences, mat_preferences, MAT, PREFERENCES, GtkWindow)

/* @settings: settings of the schema io.github.parkan.MatEdit.
 * Returns: (transfer none): a new preferences window, transient for
 * @parent (nullable); present it with gtk_window_present(). It is
 * destroyed when closed. */
MatPreferences *mat_preferences_new             (GtkWindow      *parent,
                                                 GSettings      *settings);

/* Returns: (transfer none): the settings shown. */
GSettings      *mat_preferences_get_settings    (MatPreferences *self);

/* Returns: (transfer full) (nullable): the game folder, %NULL when none
 * is set. */
GFile          *mat_preferences_get_game_folder (MatPreferences *self);
/* Sets the game folder (%NULL: none), as the folder chooser does with
 * the folder the user picked. */
void            mat_preferences_set_game_folder (MatPreferences *self,
                                                 GFile          *folder);

/* TRUE once the game folder shown has been looked at and the row says
 * whether it holds a Textures.lib. */
gboolean        mat_preferences_get_game_folder_checked (MatPreferences *self);

G_END_DECLS
