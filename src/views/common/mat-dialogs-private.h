/* mat-dialogs-private.h - for the tests: the dialogs shown, and answering them
 *
 * GTK 4.10's dialogs are not widgets a test can reach. Every dialog the
 * shim shows is kept here until it closes, with what it asks, so a test
 * reads the question and answers it the same way on every GTK version.
 * On GTK 4.8 the dialog is also a real window (see "window") that a test
 * may drive itself.
 */
#pragma once

#include "mat-dialogs.h"

G_BEGIN_DECLS

typedef enum {
  MAT_DIALOG_MESSAGE,
  MAT_DIALOG_CHOICE,
  MAT_DIALOG_OPEN,
  MAT_DIALOG_SAVE,
} MatDialogKind;

typedef struct {
  MatDialogKind   kind;
  GtkWindow      *parent;          /* nullable */
  GtkMessageType  type;            /* of a message */
  char           *heading;         /* the title of a file chooser */
  char           *body;            /* nullable */
  GStrv           buttons;         /* of a choice */
  int             cancel_button;
  int             default_button;
  int             destructive_button;
  gboolean        multiple;        /* of an open */
  char           *initial_name;    /* of a save, nullable */
  GFile          *initial_folder;  /* of a save, nullable */
  GtkWindow      *window;          /* GTK 4.8: the message dialog shown */
} MatDialogRequest;

/* Returns: (transfer none) (nullable): the newest dialog still open. */
const MatDialogRequest *_mat_dialogs_get_shown    (void);
/* The number of dialogs still open. */
guint                   _mat_dialogs_get_n_shown  (void);
/* Answers the newest dialog, as if the user had: @choice is the button
 * of a choice (-1: closed), any value closes a message; a file chooser
 * is cancelled. The dialog closes and its callback runs. */
void                    _mat_dialogs_answer       (int         choice);
/* Answers the newest file chooser with @files (GFile, nullable:
 * cancelled). */
void                    _mat_dialogs_answer_files (GListModel *files);

G_END_DECLS
