/* mat-drafts-dialog.h - the unsaved changes an editor that ended left,
 * offered back at the start
 *
 * Lists the drafts (MatDraft) an editor that was killed, crashed or
 * ended by a signal left: each with its file, folder, kind, when it was
 * written and what became of the file since, and three buttons:
 *
 *  - Restore: opens the library with the draft's content, unsaved (a
 *    Textures.lib in the window of the library it was edited with), so
 *    that Save writes it to the original file, the file's version still
 *    checked;
 *  - Compare: the draft against the file on disk, in a library diff (a
 *    material taken from the file there is kept when the draft is then
 *    restored);
 *  - Discard: the draft is removed.
 *
 * "Restore All" restores each (the material libraries first, then the
 * Textures.lib drafts into their windows); "Decide Later" closes the
 * dialog and the drafts are offered again at the next start. The
 * dialog closes once no draft is left in it.
 *
 * Its buttons activate the application's actions app.restore-draft,
 * app.compare-draft, app.discard-draft (each with the draft's id) and
 * app.restore-all-drafts, which call the functions below.
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-application.h"
#include "mat-drafts.h"

G_BEGIN_DECLS

#define MAT_TYPE_DRAFTS_DIALOG (mat_drafts_dialog_get_type ())

G_DECLARE_FINAL_TYPE (MatDraftsDialog, mat_drafts_dialog, MAT, DRAFTS_DIALOG, GtkWindow)

/* Shows @drafts (MatDraft, not empty) over @parent (nullable), for
 * @application, whose MatDraftStore keeps or removes them.
 * Returns: (transfer none): the dialog. */
MatDraftsDialog *mat_drafts_dialog_present     (MatApplication  *application,
                                                GtkWindow       *parent,
                                                GListModel      *drafts);

/* Returns: (transfer none): the drafts still offered (MatDraft). */
GListModel      *mat_drafts_dialog_get_drafts  (MatDraftsDialog *self);

/* What the buttons do. An unknown @id does nothing. Restoring reads the
 * draft in a thread; a draft that does not read is shown in a message
 * and stays offered. */
void             mat_drafts_dialog_restore     (MatDraftsDialog *self,
                                                const char      *id);
void             mat_drafts_dialog_restore_all (MatDraftsDialog *self);
void             mat_drafts_dialog_compare     (MatDraftsDialog *self,
                                                const char      *id);
void             mat_drafts_dialog_discard     (MatDraftsDialog *self,
                                                const char      *id);

G_END_DECLS
