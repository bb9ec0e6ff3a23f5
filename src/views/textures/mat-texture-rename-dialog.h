/* mat-texture-rename-dialog.h - a texture renamed, and the materials that
 * name it
 *
 * A modal window over the texture window: the new name, checked as typed
 * (mat_texture_library_check_rename: the import's name rules, no other
 * entry of that name), which materials of the open material library name
 * the texture ("3 materials use ROCK.0", with their names), and whether
 * to rename the texture in them too (on when any does). "rename.rename"
 * renames the texture (one undo step of the Textures.lib) and, when
 * asked, the texture in those materials (one undo step of the material
 * library: each library undoes its own step), emits "renamed" and closes.
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-library.h"
#include "mat-texture-library.h"

G_BEGIN_DECLS

#define MAT_TYPE_TEXTURE_RENAME_DIALOG (mat_texture_rename_dialog_get_type ())

G_DECLARE_FINAL_TYPE (MatTextureRenameDialog, mat_texture_rename_dialog, MAT,
                      TEXTURE_RENAME_DIALOG, GtkWindow)

/* A dialog over @parent renaming @texture of @textures; @materials
 * (nullable): the material library whose materials are looked into.
 * Signal "renamed" (MatTexture *texture, guint phases renamed). It
 * destroys itself when it closes.
 * Returns: (transfer none): the dialog, shown. */
MatTextureRenameDialog *mat_texture_rename_dialog_present (GtkWindow         *parent,
                                                           MatTextureLibrary *textures,
                                                           MatTexture        *texture,
                                                           MatLibrary        *materials);

/* What the dialogs say of the materials that name texture @name
 * (@users: MatMaterial, from mat_library_dup_texture_users): "3
 * materials use ROCK.0: DEFAULT, ROCK_WALL, OLD_VERSION0." (the first 12
 * named, then how many more), or that none of @library_name does.
 * Returns: (transfer full). */
char *mat_texture_dup_users_text (GPtrArray  *users,
                                  const char *name,
                                  const char *library_name);

/* Test hooks: the name entry, the check button "rename in the
 * materials", the line under the entry, the users' text.
 * Returns: (transfer none). */
GtkEditable    *mat_texture_rename_dialog_get_entry_for_test   (MatTextureRenameDialog *self);
GtkCheckButton *mat_texture_rename_dialog_get_check_for_test   (MatTextureRenameDialog *self);
GtkLabel       *mat_texture_rename_dialog_get_message_for_test (MatTextureRenameDialog *self);
GtkLabel       *mat_texture_rename_dialog_get_users_for_test   (MatTextureRenameDialog *self);

G_END_DECLS
