/* mat-texture-picker.h - a dialog choosing a texture of a Textures.lib
 *
 * A modal window over the editor showing the textures of a
 * MatTextureLibrary as a grid of thumbnails (drawn over a checkerboard so
 * alpha shows) with their name, "format · W×H" and a "Page N" badge for
 * atlases; a search entry filters by name as you type. "Choose" (or a
 * double-click, or Enter) emits "chosen" with the texture's name,
 * "Untextured" emits it with "". Without a library the dialog offers to
 * open a Textures.lib ("textures" changes when it has loaded).
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-document.h"
#include "mat-texture-library.h"

G_BEGIN_DECLS

#define MAT_TYPE_TEXTURE_PICKER (mat_texture_picker_get_type ())

G_DECLARE_FINAL_TYPE (MatTexturePicker, mat_texture_picker, MAT, TEXTURE_PICKER, GtkWindow)

/* Returns: (transfer none): a new picker, modal and transient for
 * @parent, with @current (nullable) selected; present it with
 * gtk_window_present. It destroys itself after "chosen" or when closed.
 * Over an editor window (MatWindow) its "document" is the window's.
 * Signal "chosen" (const char *name): the texture picked, "" for
 * untextured. */
MatTexturePicker  *mat_texture_picker_new          (GtkWindow         *parent,
                                                    MatTextureLibrary *textures,
                                                    const char        *current);

/* Returns: (transfer none) (nullable): the textures shown. */
MatTextureLibrary *mat_texture_picker_get_textures (MatTexturePicker  *self);
void               mat_texture_picker_set_textures (MatTexturePicker  *self,
                                                    MatTextureLibrary *textures);

/* Returns: (transfer none) (nullable): the document that remembers a
 * Textures.lib opened here (mat_document_choose_textures). */
MatDocument       *mat_texture_picker_get_document (MatTexturePicker  *self);
void               mat_texture_picker_set_document (MatTexturePicker  *self,
                                                    MatDocument       *document);

/* Reads @file as the Textures.lib to show, as "Choose a Textures.lib…"
 * does with the file the user picked: on success it becomes "textures"
 * and the document's choice; a file that does not load is shown as an
 * error and changes nothing. */
void               mat_texture_picker_open_file    (MatTexturePicker  *self,
                                                    GFile             *file);

/* "palette (0)", "565", ... for a Texm format. Returns: (transfer full) */
char              *mat_texture_format_name         (guint              format);

G_END_DECLS
