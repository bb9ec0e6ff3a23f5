/* mat-dialogs.h - the dialogs that differ between GTK 4.8 and 4.10+
 *
 * GTK 4.10 replaced GtkMessageDialog, GtkFileChooserNative and
 * GtkColorButton with GtkAlertDialog, GtkFileDialog and
 * GtkColorDialogButton. The views ask here, in one way, and get the newer
 * dialog where GTK has it. Every question is asynchronous: the callback
 * runs once, after the dialog closed, and calls the matching _finish.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Shows @heading with @body under it and a Close button, modal on
 * @parent (nullable). Nothing waits for it. @type: GTK_MESSAGE_INFO,
 * _WARNING or _ERROR (4.8 shows it; 4.10+ looks the same for all). */
void        mat_dialogs_show_message       (GtkWindow           *parent,
                                            GtkMessageType       type,
                                            const char          *heading,
                                            const char          *body);

/* Asks @heading (with @body under it) with @buttons, a %NULL-terminated
 * array of labels with mnemonics, in the order shown. @cancel_button is
 * the answer when the dialog is closed otherwise (Escape, the window's
 * close button, @cancellable, the parent closing); @default_button the
 * one Enter presses; @destructive_button (-1: none) is drawn red. */
void        mat_dialogs_choose             (GtkWindow           *parent,
                                            const char          *heading,
                                            const char          *body,
                                            const char * const  *buttons,
                                            int                  cancel_button,
                                            int                  default_button,
                                            int                  destructive_button,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
/* Returns: the index of the button chosen (@cancel_button when closed). */
int         mat_dialogs_choose_finish      (GAsyncResult        *result);

/* Asks for files to open. @filters: GtkFileFilter items (nullable), the
 * first one chosen at first; @multiple: several files may be chosen. */
void        mat_dialogs_open_files         (GtkWindow           *parent,
                                            const char          *title,
                                            GListModel          *filters,
                                            gboolean             multiple,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
/* Returns: (transfer full) (nullable): the files (GFile), at least one;
 * %NULL when the user cancelled. */
GListModel *mat_dialogs_open_files_finish  (GAsyncResult        *result);

/* Asks where to save, offering @initial_name in @initial_folder (both
 * nullable). */
void        mat_dialogs_save_file          (GtkWindow           *parent,
                                            const char          *title,
                                            const char          *initial_name,
                                            GFile               *initial_folder,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
/* Returns: (transfer full) (nullable): the file, %NULL when cancelled. */
GFile      *mat_dialogs_save_file_finish   (GAsyncResult        *result);

/* A button showing a colour that opens a colour chooser titled @title.
 * Its "rgba" property (GdkRGBA) is the colour, on every GTK version.
 * Returns: (transfer floating). */
GtkWidget  *mat_dialogs_colour_button_new  (const char          *title,
                                            gboolean             with_alpha);

G_END_DECLS
