/* mat-name-dialog.h - asks for a material name, validating as you type */
#pragma once

#include <gtk/gtk.h>

#include "mat-library.h"
#include "mat-material-json.h"

G_BEGIN_DECLS

typedef enum {
  MAT_NAME_DIALOG_NEW,        /* mat_library_add_material */
  MAT_NAME_DIALOG_DUPLICATE,  /* mat_library_duplicate_material */
  MAT_NAME_DIALOG_RENAME,     /* mat_material_set_name */
  MAT_NAME_DIALOG_PASTE,      /* mat_library_paste_material, see
                                 mat_name_dialog_present_paste() */
} MatNameDialogMode;

#define MAT_TYPE_NAME_DIALOG (mat_name_dialog_get_type ())

G_DECLARE_FINAL_TYPE (MatNameDialog, mat_name_dialog, MAT, NAME_DIALOG, GtkWindow)

/* A modal dialog over @parent. @material: the one to duplicate or rename
 * (%NULL for MAT_NAME_DIALOG_NEW). On success it performs the edit (one
 * undoable step), emits ::done with the material and closes; a failure
 * shows the model's message and keeps it open.
 * Returns: (transfer none): the dialog, shown. */
MatNameDialog *mat_name_dialog_present (GtkWindow         *parent,
                                        MatLibrary        *library,
                                        MatNameDialogMode  mode,
                                        MatMaterial       *material);

/* Asks under which name to paste the material of @item (decoded,
 * mat_library_paste_item) whose own name @name another entry of
 * @library has, proposing a free one (mat_library_dup_free_name). On
 * success it pastes (one undoable step), emits ::done with the new
 * material and closes.
 * Returns: (transfer none): the dialog, shown. */
MatNameDialog *mat_name_dialog_present_paste (GtkWindow   *parent,
                                              MatLibrary  *library,
                                              MatJsonItem *item,
                                              const char  *name);

/* The paste dialog names the library the material goes into, as the
 * window names it ("“Material.lib — mod/DATA” already has a material
 * named “ROCK”") rather than "this library". Other dialogs ignore it. */
void           mat_name_dialog_set_library_name (MatNameDialog *self,
                                                 const char    *library_name);
/* Returns: (transfer none): the text above the name field ("" when
 * there is none). */
const char    *mat_name_dialog_get_intro   (MatNameDialog *self);

/* Returns: (transfer none) (nullable): the message shown, %NULL when the
 * name is acceptable. */
const char    *mat_name_dialog_get_message (MatNameDialog *self);

/* Returns: (transfer full): @base, or @base with a number appended, that
 * no entry of @library uses yet. */
char          *mat_name_dialog_unique_name (MatLibrary    *library,
                                            const char    *base);

G_END_DECLS
