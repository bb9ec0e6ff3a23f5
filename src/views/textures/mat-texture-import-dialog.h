/* mat-texture-import-dialog.h - a picture becomes a texture of Textures.lib
 *
 * A modal window: the picture (PNG, JPEG, BMP or TGA, read by
 * mat-picture.h: told by its content, its size checked before it is
 * decoded; a refusal is shown with its reason), the texture's name (formats.md 2.1, checked as typed, with the
 * verdict under the entry: a new texture or the one it replaces, whose
 * name is kept), the format (the one suggested for the picture chosen at
 * first), dithering, dropping the alpha, the mip chain, keeping the Page
 * cells of a texture replaced; the picture and the texture as the game
 * will show it side by side, with its size in bytes. A picture whose
 * sides are no powers of two gets a size row: scaled (bilinear) or padded
 * (its last column and row repeated) to the next ones, by the model's
 * picture code (mat_picture_fit_power_of_two), scaled unless the user
 * chooses otherwise; what the encoder refuses (alpha a format cannot
 * hold) is shown instead of the result, with the Import button off.
 * Before a picture is chosen the result is a neutral placeholder.
 * "import.import" encodes it in a thread and stores it as one undo step
 * of the library, emits "imported" and closes the dialog.
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-material.h"
#include "mat-texture-library.h"

G_BEGIN_DECLS

#define MAT_TYPE_TEXTURE_IMPORT_DIALOG (mat_texture_import_dialog_get_type ())

G_DECLARE_FINAL_TYPE (MatTextureImportDialog, mat_texture_import_dialog, MAT,
                      TEXTURE_IMPORT_DIALOG, GtkWindow)

/* A dialog over @parent importing into @library; @replace (nullable):
 * the texture whose name it proposes. Present it with gtk_window_present;
 * it destroys itself when it closes. Signal "imported" (MatTexture *).
 * Returns: (transfer none) */
MatTextureImportDialog *mat_texture_import_dialog_new      (GtkWindow              *parent,
                                                            MatTextureLibrary      *library,
                                                            MatTexture             *replace);

/* Reads the picture of @file (what choosing it in "import.choose" does).
 * Property "busy": TRUE while a picture loads, a preview is made or the
 * import runs. */
void                    mat_texture_import_dialog_set_file (MatTextureImportDialog *self,
                                                            GFile                  *file);
gboolean                mat_texture_import_dialog_get_busy (MatTextureImportDialog *self);

/* Property "format": the Texm format chosen (the format drop-down). */
guint32                 mat_texture_import_dialog_get_format (MatTextureImportDialog *self);
void                    mat_texture_import_dialog_set_format (MatTextureImportDialog *self,
                                                              guint32                 format);

/* The material being edited (%NULL: none) and the game's emboss bump
 * setting: a picture with alpha warns (the label alpha_warning) when the
 * game will not draw that alpha (render.md 2), because of the format
 * (a texture replaced keeps its flags5) or because @material is a lit
 * skin and @emboss_bump is off. */
void                    mat_texture_import_dialog_set_material (MatTextureImportDialog *self,
                                                                MatMaterial            *material,
                                                                gboolean                emboss_bump);

/* The formats the drop-down offers, in its order. Returns: the count. */
guint                   mat_texture_import_formats           (const guint32         **formats);

G_END_DECLS
