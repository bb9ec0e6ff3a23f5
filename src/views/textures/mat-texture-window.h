/* mat-texture-window.h - the textures of a Textures.lib, edited
 *
 * A window beside the editor's for the library's Textures.lib: the
 * textures as a searchable list of thumbnails; the one selected with its
 * format, size and mip levels, its Page rectangles in a cell editor (draw,
 * move, resize, snap to a grid, delete), export of any mip level to PNG,
 * and import of a picture as a new texture or over the selected one. The
 * edits have their own undo and redo (win.undo, win.redo: the usual keys)
 * and their own Save (win.save), which writes the Textures.lib safely with
 * every untouched byte kept. Closing with unsaved edits asks first.
 * Under the texture shown, the materials of the parent window's library
 * that use it; "Select Them" (textures.select-users) selects them there
 * (mat_window_select_query with texture:NAME).
 *
 * Without a Textures.lib it offers to create an empty one beside the
 * material library ("textures.create"); over an editor window, the
 * library's document takes it as its Textures.lib at once
 * (mat_document_adopt_textures), so every view shows it and later saves
 * write that file.
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-material.h"
#include "mat-texture-library.h"

G_BEGIN_DECLS

#define MAT_TYPE_TEXTURE_WINDOW (mat_texture_window_get_type ())

G_DECLARE_FINAL_TYPE (MatTextureWindow, mat_texture_window, MAT, TEXTURE_WINDOW, GtkWindow)

/* The texture window of @parent (one per parent: made on first use,
 * raised afterwards). Its "textures" property is bound both ways to the
 * "textures" property (a MatTextureLibrary) of @owner, when given: a
 * library the owner switches to is shown, one the window creates is the
 * owner's. @library_file: the material library, beside which a new
 * Textures.lib is created. Returns: (transfer none): the window, shown. */
MatTextureWindow  *mat_texture_window_present       (GtkWindow          *parent,
                                                     GObject            *owner,
                                                     GFile              *library_file);

/* Returns: (transfer none) (nullable) */
MatTextureLibrary *mat_texture_window_get_textures  (MatTextureWindow   *self);
void               mat_texture_window_set_textures  (MatTextureWindow   *self,
                                                     MatTextureLibrary  *textures);
GFile             *mat_texture_window_get_library_file (MatTextureWindow *self);
void               mat_texture_window_set_library_file (MatTextureWindow *self,
                                                        GFile            *library_file);

/* Before something that drops @textures as it is (the material library
 * reloaded reads Textures.lib again): when it has unsaved edits, asks
 * over @parent with the unsaved-changes dialog. Save writes them (a
 * failed save is shown, and counts as Cancel), Discard leaves them to be
 * dropped, Cancel (or @cancellable) keeps everything. Without unsaved
 * edits it answers at once. @callback runs once, after the dialog. */
void               mat_texture_window_ask_unsaved_async  (GtkWindow          *parent,
                                                          MatTextureLibrary  *textures,
                                                          GCancellable       *cancellable,
                                                          GAsyncReadyCallback callback,
                                                          gpointer            user_data);
/* Returns: %TRUE when what was asked about may go on (saved, discarded
 * or nothing unsaved), %FALSE when it stays as it is. */
gboolean           mat_texture_window_ask_unsaved_finish (GAsyncResult       *result);

/* The material being edited ("material", nullable) and the game's emboss
 * bump setting ("emboss-bump"), bound from the owner's properties of
 * those names when it has them: the selected texture says where the game
 * ignores the alpha it holds (texm_draw_alpha_note: a format without
 * alpha, or a lit skin), and the import dialog warns before a picture's
 * alpha is lost that way. */
MatMaterial       *mat_texture_window_get_material  (MatTextureWindow   *self);
void               mat_texture_window_set_material  (MatTextureWindow   *self,
                                                     MatMaterial        *material);
gboolean           mat_texture_window_get_emboss_bump (MatTextureWindow *self);
void               mat_texture_window_set_emboss_bump (MatTextureWindow *self,
                                                       gboolean          emboss_bump);

/* Returns: (transfer none) (nullable): the texture selected. */
MatTexture        *mat_texture_window_get_selected  (MatTextureWindow   *self);
/* Selects @texture (of the library shown); %FALSE when it is not listed. */
gboolean           mat_texture_window_select        (MatTextureWindow   *self,
                                                     MatTexture         *texture);

/* Writes mip @level of @texture to @file as PNG (what the export file
 * chooser does): the decoded RGBA8 pixels, straight alpha, through an
 * atomic replace. */
void               mat_texture_window_export_async  (MatTextureWindow   *self,
                                                     MatTexture         *texture,
                                                     guint               level,
                                                     GFile              *file,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
gboolean           mat_texture_window_export_finish (MatTextureWindow   *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);

G_END_DECLS
