/* mat-application.h - the application: app actions, settings, windows */
#pragma once

#include <gtk/gtk.h>

#include "mat-drafts.h"
#include "mat-game-folder.h"

G_BEGIN_DECLS

#define MAT_TYPE_APPLICATION (mat_application_get_type ())

G_DECLARE_FINAL_TYPE (MatApplication, mat_application, MAT, APPLICATION, GtkApplication)

/* @flags: G_APPLICATION_HANDLES_OPEN is always added; tests pass
 * G_APPLICATION_NON_UNIQUE.
 * Returns: (transfer full). */
MatApplication *mat_application_new          (const char        *application_id,
                                              GApplicationFlags  flags);

/* Returns: (transfer none) (nullable): the settings, %NULL when the
 * schema io.github.parkan.MatEdit is not installed. */
GSettings      *mat_application_get_settings (MatApplication    *self);

/* Returns: (transfer none) (nullable): the drafts of the unsaved edits
 * of every window, kept under g_get_user_data_dir() (made at startup). */
MatDraftStore  *mat_application_get_drafts   (MatApplication    *self);
/* Once, at the first activation or file opened: SIGTERM, SIGHUP and
 * SIGINT write the drafts and end the editor, and the drafts left by
 * editors that ended are looked for and offered (MatDraftsDialog) over
 * the active window. */
void            mat_application_offer_drafts (MatApplication    *self);
/* Returns: (transfer none): the game folder of the Preferences
 * ("game-folder") and its index of who wears what, made and read (in a
 * worker) the first time it is asked for: the search's worn: words. */
MatGameFolder  *mat_application_get_game_folder (MatApplication *self);
/* Returns: (transfer none) (nullable): the dialog offering them, while
 * it is shown. */
GtkWindow      *mat_application_get_drafts_dialog (MatApplication *self);

/* Returns: (transfer none): the "Open Recent" menu shared by every
 * window (items activate app.open-recent with the file's URI). */
GMenuModel     *mat_application_get_recent_menu (MatApplication *self);

/* Remembers @file in the recent files (GSettings and GtkRecentManager). */
void            mat_application_add_recent   (MatApplication    *self,
                                              GFile             *file);

/* Opens @file: presents the window that has it open already, reuses
 * @reuse when it shows the untouched demo library or nothing, or opens a
 * new window. @reuse may be %NULL. */
void            mat_application_open_file    (MatApplication    *self,
                                              GFile             *file,
                                              GtkWindow         *reuse);

/* Returns: (transfer full) (nullable): the bundled demo library
 * (Material.lib) from $MATEDIT_DEMO_DIR, the build tree or the installed
 * data, or %NULL when none exists. */
GFile          *mat_application_find_demo    (void);

/* Binds the editor's text domain (UTF-8): to the catalogues compiled in
 * the build folder when the program runs from there, to the installed
 * ones otherwise. Returns: (transfer none): the folder used. */
const char     *mat_application_bind_text_domain (void);

G_END_DECLS
