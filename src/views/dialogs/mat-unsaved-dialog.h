/* mat-unsaved-dialog.h - "Save changes?" before a window with edits closes */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum {
  MAT_UNSAVED_RESPONSE_CANCEL,
  MAT_UNSAVED_RESPONSE_DISCARD,
  MAT_UNSAVED_RESPONSE_SAVE,
} MatUnsavedResponse;

#define MAT_TYPE_UNSAVED_DIALOG (mat_unsaved_dialog_get_type ())

G_DECLARE_FINAL_TYPE (MatUnsavedDialog, mat_unsaved_dialog, MAT, UNSAVED_DIALOG, GtkWindow)

/* A modal dialog over @parent about the file @file_name. It emits
 * ::response (a MatUnsavedResponse) once, then closes itself. The
 * buttons activate "dialog.response" with "cancel", "discard" or "save";
 * Escape and closing the dialog answer "cancel".
 * Returns: (transfer none): the dialog, shown. */
MatUnsavedDialog *mat_unsaved_dialog_present (GtkWindow  *parent,
                                              const char *file_name);

G_END_DECLS
