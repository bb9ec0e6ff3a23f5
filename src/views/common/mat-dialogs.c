/* mat-dialogs.c - the dialogs that differ between GTK 4.8 and 4.10+ */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat-dialogs-private.h"

/* One dialog on screen. The list of shown dialogs holds a reference
 * until it is answered; on GTK 4.10+ the running GTK dialog holds another
 * until its own callback has come back. */
typedef struct {
  guint             ref_count;
  MatDialogRequest  request;
  GTask            *task;           /* %NULL for a message */
  GCancellable     *cancellable;    /* the caller's, nullable */
  gulong            cancelled_id;
  gboolean          answered;
#if GTK_CHECK_VERSION (4, 10, 0)
  GCancellable     *inner;          /* closes the GTK dialog */
#else
  GtkWindow        *dialog;         /* a message or a choice */
  GtkNativeDialog  *chooser;        /* a file chooser (a reference) */
#endif
} Shown;

static GPtrArray *shown_dialogs;    /* Shown, oldest first */

/* What each _finish checks its result came from. */
static const char choose_tag[] = "mat-dialogs-choose";
static const char open_tag[] = "mat-dialogs-open";
static const char save_tag[] = "mat-dialogs-save";

#if GTK_CHECK_VERSION (4, 10, 0)
static Shown *
shown_ref (Shown *shown)
{
  shown->ref_count++;
  return shown;
}
#endif

static void
shown_unref (Shown *shown)
{
  MatDialogRequest *request = &shown->request;

  if (--shown->ref_count > 0)
    return;

  g_clear_object (&shown->task);
  g_clear_object (&shown->cancellable);
#if GTK_CHECK_VERSION (4, 10, 0)
  g_clear_object (&shown->inner);
#endif
  g_clear_object (&request->parent);
  g_free (request->heading);
  g_free (request->body);
  g_strfreev (request->buttons);
  g_free (request->initial_name);
  g_clear_object (&request->initial_folder);
  g_free (shown);
}

static void shown_cancelled_cb (GCancellable *cancellable, Shown *shown);

static Shown *
shown_new (MatDialogKind        kind,
           GtkWindow           *parent,
           const char          *heading,
           const char          *body,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             user_data,
           const char          *source_tag)
{
  Shown *shown = g_new0 (Shown, 1);

  shown->ref_count = 1;
  shown->request.kind = kind;
  shown->request.parent = parent != NULL ? g_object_ref (parent) : NULL;
  shown->request.heading = g_strdup (heading);
  shown->request.body = g_strdup (body);
  shown->request.destructive_button = -1;
  if (callback != NULL)
    {
      shown->task = g_task_new (parent, NULL, callback, user_data);
      g_task_set_source_tag (shown->task, (gpointer) source_tag);
    }
  if (cancellable != NULL)
    {
      shown->cancellable = g_object_ref (cancellable);
      shown->cancelled_id = g_signal_connect (cancellable, "cancelled",
                                              G_CALLBACK (shown_cancelled_cb), shown);
    }
#if GTK_CHECK_VERSION (4, 10, 0)
  shown->inner = g_cancellable_new ();
#endif

  if (shown_dialogs == NULL)
    shown_dialogs = g_ptr_array_new ();
  g_ptr_array_add (shown_dialogs, shown);

  return shown;
}

/* The answer: the task returns it, the dialog closes, the list lets go.
 * @choice for a choice, @files for an open, @file for a save. */
static void
shown_answer (Shown      *shown,
              int         choice,
              GListModel *files,
              GFile      *file)
{
  if (shown->answered)
    return;
  shown->answered = TRUE;

  if (shown->cancelled_id != 0)
    g_signal_handler_disconnect (shown->cancellable, shown->cancelled_id);
  shown->cancelled_id = 0;

  if (shown->task != NULL)
    switch (shown->request.kind)
      {
      case MAT_DIALOG_CHOICE:
        if (choice < 0 || shown->request.buttons == NULL ||
            (guint) choice >= g_strv_length (shown->request.buttons))
          choice = shown->request.cancel_button;
        g_task_return_int (shown->task, choice);
        break;
      case MAT_DIALOG_OPEN:
        if (files != NULL && g_list_model_get_n_items (files) == 0)
          files = NULL;
        g_task_return_pointer (shown->task, files != NULL ? g_object_ref (files) : NULL,
                               g_object_unref);
        break;
      case MAT_DIALOG_SAVE:
        g_task_return_pointer (shown->task, file != NULL ? g_object_ref (file) : NULL,
                               g_object_unref);
        break;
      case MAT_DIALOG_MESSAGE:
      default:
        g_task_return_boolean (shown->task, TRUE);
        break;
      }

#if GTK_CHECK_VERSION (4, 10, 0)
  g_cancellable_cancel (shown->inner);
#else
  if (shown->dialog != NULL)
    {
      GtkWindow *dialog = g_steal_pointer (&shown->dialog);

      g_signal_handlers_disconnect_by_data (dialog, shown);
      gtk_window_destroy (dialog);
    }
  if (shown->chooser != NULL)
    {
      GtkNativeDialog *chooser = g_steal_pointer (&shown->chooser);

      g_signal_handlers_disconnect_by_data (chooser, shown);
      gtk_native_dialog_destroy (chooser);
      g_object_unref (chooser);
    }
#endif

  g_ptr_array_remove (shown_dialogs, shown);
  shown_unref (shown);
}

/* Closed without an answer: a choice takes its cancel button, a file
 * chooser returns nothing. */
static void
shown_dismiss (Shown *shown)
{
  shown_answer (shown, -1, NULL, NULL);
}

static void
shown_cancelled_cb (GCancellable *cancellable,
                    Shown        *shown)
{
  shown_dismiss (shown);
}

/* Messages and choices */

#if GTK_CHECK_VERSION (4, 10, 0)
static void
alert_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Shown *shown = user_data;
  g_autoptr(GError) error = NULL;
  int choice = gtk_alert_dialog_choose_finish (GTK_ALERT_DIALOG (object), result, &error);

  shown_answer (shown, error != NULL ? -1 : choice, NULL, NULL);
  shown_unref (shown);
}

static void
show_alert (Shown *shown)
{
  MatDialogRequest *request = &shown->request;
  g_autoptr(GtkAlertDialog) dialog = gtk_alert_dialog_new ("%s", request->heading);
  const char *close[] = { _("_Close"), NULL };

  if (request->body != NULL)
    gtk_alert_dialog_set_detail (dialog, request->body);
  gtk_alert_dialog_set_modal (dialog, TRUE);
  if (request->kind == MAT_DIALOG_CHOICE)
    {
      gtk_alert_dialog_set_buttons (dialog, (const char * const *) request->buttons);
      gtk_alert_dialog_set_cancel_button (dialog, request->cancel_button);
      gtk_alert_dialog_set_default_button (dialog, request->default_button);
    }
  else
    {
      gtk_alert_dialog_set_buttons (dialog, close);
      gtk_alert_dialog_set_cancel_button (dialog, 0);
      gtk_alert_dialog_set_default_button (dialog, 0);
    }
  gtk_alert_dialog_choose (dialog, request->parent, shown->inner, alert_done_cb, shown_ref (shown));
}
#else
static void
message_response_cb (GtkDialog *dialog,
                     int        response,
                     Shown     *shown)
{
  shown_answer (shown, response, NULL, NULL);
}

/* The parent closed and took the dialog with it. */
static void
message_destroy_cb (GtkWidget *dialog,
                    Shown     *shown)
{
  shown->dialog = NULL;
  shown_dismiss (shown);
}

static void
show_alert (Shown *shown)
{
  MatDialogRequest *request = &shown->request;
  GtkWidget *dialog;

  dialog = gtk_message_dialog_new (request->parent,
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   request->type,
                                   request->kind == MAT_DIALOG_CHOICE ? GTK_BUTTONS_NONE
                                                                      : GTK_BUTTONS_CLOSE,
                                   "%s", request->heading);
  if (request->body != NULL)
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", request->body);
  if (request->kind == MAT_DIALOG_CHOICE)
    {
      for (int i = 0; request->buttons[i] != NULL; i++)
        {
          GtkWidget *button = gtk_dialog_add_button (GTK_DIALOG (dialog), request->buttons[i], i);

          if (i == request->destructive_button)
            gtk_widget_add_css_class (button, "destructive-action");
        }
      gtk_dialog_set_default_response (GTK_DIALOG (dialog), request->default_button);
    }

  shown->dialog = GTK_WINDOW (dialog);
  request->window = GTK_WINDOW (dialog);
  g_signal_connect (dialog, "response", G_CALLBACK (message_response_cb), shown);
  g_signal_connect (dialog, "destroy", G_CALLBACK (message_destroy_cb), shown);
  gtk_window_present (GTK_WINDOW (dialog));
}
#endif

void
mat_dialogs_show_message (GtkWindow      *parent,
                          GtkMessageType  type,
                          const char     *heading,
                          const char     *body)
{
  Shown *shown;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));
  g_return_if_fail (heading != NULL);

  shown = shown_new (MAT_DIALOG_MESSAGE, parent, heading, body, NULL, NULL, NULL, NULL);
  shown->request.type = type;
  show_alert (shown);
}

void
mat_dialogs_choose (GtkWindow           *parent,
                    const char          *heading,
                    const char          *body,
                    const char * const  *buttons,
                    int                  cancel_button,
                    int                  default_button,
                    int                  destructive_button,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  Shown *shown;
  int n_buttons;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));
  g_return_if_fail (heading != NULL);
  g_return_if_fail (buttons != NULL && buttons[0] != NULL);
  n_buttons = (int) g_strv_length ((char **) buttons);
  g_return_if_fail (cancel_button >= 0 && cancel_button < n_buttons);
  g_return_if_fail (default_button >= 0 && default_button < n_buttons);
  g_return_if_fail (destructive_button < n_buttons);

  shown = shown_new (MAT_DIALOG_CHOICE, parent, heading, body, cancellable, callback, user_data,
                     choose_tag);
  shown->request.type = GTK_MESSAGE_QUESTION;
  shown->request.buttons = g_strdupv ((char **) buttons);
  shown->request.cancel_button = cancel_button;
  shown->request.default_button = default_button;
  shown->request.destructive_button = destructive_button;
  if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
    {
      shown_dismiss (shown);
      return;
    }
  show_alert (shown);
}

int
mat_dialogs_choose_finish (GAsyncResult *result)
{
  g_return_val_if_fail (G_IS_TASK (result), -1);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == choose_tag, -1);

  return (int) g_task_propagate_int (G_TASK (result), NULL);
}

/* File choosers */

#if GTK_CHECK_VERSION (4, 10, 0)
static void
file_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Shown *shown = user_data;
  GtkFileDialog *dialog = GTK_FILE_DIALOG (object);

  switch (shown->request.kind)
    {
    case MAT_DIALOG_OPEN:
      if (shown->request.multiple)
        {
          g_autoptr(GListModel) files = gtk_file_dialog_open_multiple_finish (dialog, result, NULL);

          shown_answer (shown, 0, files, NULL);
        }
      else
        {
          g_autoptr(GFile) file = gtk_file_dialog_open_finish (dialog, result, NULL);
          g_autoptr(GListStore) files = g_list_store_new (G_TYPE_FILE);

          if (file != NULL)
            g_list_store_append (files, file);
          shown_answer (shown, 0, G_LIST_MODEL (files), NULL);
        }
      break;
    case MAT_DIALOG_SAVE:
    default:
      {
        g_autoptr(GFile) file = gtk_file_dialog_save_finish (dialog, result, NULL);

        shown_answer (shown, 0, NULL, file);
      }
      break;
    }
  shown_unref (shown);
}

static void
show_file_chooser (Shown      *shown,
                   GListModel *filters)
{
  MatDialogRequest *request = &shown->request;
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, request->heading);
  gtk_file_dialog_set_modal (dialog, TRUE);
  if (filters != NULL && g_list_model_get_n_items (filters) > 0)
    {
      g_autoptr(GtkFileFilter) first = g_list_model_get_item (filters, 0);

      gtk_file_dialog_set_filters (dialog, filters);
      gtk_file_dialog_set_default_filter (dialog, first);
    }
  if (request->kind == MAT_DIALOG_SAVE)
    {
      if (request->initial_name != NULL)
        gtk_file_dialog_set_initial_name (dialog, request->initial_name);
      if (request->initial_folder != NULL)
        gtk_file_dialog_set_initial_folder (dialog, request->initial_folder);
      gtk_file_dialog_save (dialog, request->parent, shown->inner, file_done_cb, shown_ref (shown));
    }
  else if (request->multiple)
    gtk_file_dialog_open_multiple (dialog, request->parent, shown->inner, file_done_cb,
                                   shown_ref (shown));
  else
    gtk_file_dialog_open (dialog, request->parent, shown->inner, file_done_cb, shown_ref (shown));
}
#else
static void
chooser_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     Shown           *shown)
{
  if (response != GTK_RESPONSE_ACCEPT)
    shown_dismiss (shown);
  else if (shown->request.kind == MAT_DIALOG_SAVE)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      shown_answer (shown, 0, NULL, file);
    }
  else
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));

      shown_answer (shown, 0, files, NULL);
    }
}

static void
show_file_chooser (Shown      *shown,
                   GListModel *filters)
{
  MatDialogRequest *request = &shown->request;
  gboolean save = request->kind == MAT_DIALOG_SAVE;
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (request->heading, request->parent,
                                         save ? GTK_FILE_CHOOSER_ACTION_SAVE
                                              : GTK_FILE_CHOOSER_ACTION_OPEN,
                                         save ? _("_Save") : _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  for (guint i = 0; filters != NULL && i < g_list_model_get_n_items (filters); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (filters, i);

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
      if (i == 0)
        gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (chooser), filter);
    }
  if (save)
    {
      if (request->initial_name != NULL)
        gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), request->initial_name);
      if (request->initial_folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), request->initial_folder,
                                             NULL);
    }
  else
    gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), request->multiple);

  shown->chooser = GTK_NATIVE_DIALOG (chooser);
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response_cb), shown);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
#endif

void
mat_dialogs_open_files (GtkWindow           *parent,
                        const char          *title,
                        GListModel          *filters,
                        gboolean             multiple,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  Shown *shown;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));
  g_return_if_fail (title != NULL);
  g_return_if_fail (filters == NULL || G_IS_LIST_MODEL (filters));

  shown = shown_new (MAT_DIALOG_OPEN, parent, title, NULL, cancellable, callback, user_data,
                     open_tag);
  shown->request.multiple = multiple;
  if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
    {
      shown_dismiss (shown);
      return;
    }
  show_file_chooser (shown, filters);
}

GListModel *
mat_dialogs_open_files_finish (GAsyncResult *result)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == open_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), NULL);
}

void
mat_dialogs_save_file (GtkWindow           *parent,
                       const char          *title,
                       const char          *initial_name,
                       GFile               *initial_folder,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  Shown *shown;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));
  g_return_if_fail (title != NULL);
  g_return_if_fail (initial_folder == NULL || G_IS_FILE (initial_folder));

  shown = shown_new (MAT_DIALOG_SAVE, parent, title, NULL, cancellable, callback, user_data,
                     save_tag);
  shown->request.initial_name = g_strdup (initial_name);
  shown->request.initial_folder = initial_folder != NULL ? g_object_ref (initial_folder) : NULL;
  if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
    {
      shown_dismiss (shown);
      return;
    }
  show_file_chooser (shown, NULL);
}

GFile *
mat_dialogs_save_file_finish (GAsyncResult *result)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == save_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), NULL);
}

/* Colours */

GtkWidget *
mat_dialogs_colour_button_new (const char *title,
                               gboolean    with_alpha)
{
  GtkWidget *button;

  g_return_val_if_fail (title != NULL, NULL);

#if GTK_CHECK_VERSION (4, 10, 0)
  {
    GtkColorDialog *dialog = gtk_color_dialog_new ();

    gtk_color_dialog_set_title (dialog, title);
    gtk_color_dialog_set_with_alpha (dialog, with_alpha);
    /* the button takes the dialog */
    button = gtk_color_dialog_button_new (dialog);
  }
#else
  button = gtk_color_button_new ();
  gtk_color_button_set_title (GTK_COLOR_BUTTON (button), title);
  gtk_color_chooser_set_use_alpha (GTK_COLOR_CHOOSER (button), with_alpha);
#endif

  return button;
}

/* For the tests */

const MatDialogRequest *
_mat_dialogs_get_shown (void)
{
  Shown *shown;

  if (shown_dialogs == NULL || shown_dialogs->len == 0)
    return NULL;
  shown = g_ptr_array_index (shown_dialogs, shown_dialogs->len - 1);
  return &shown->request;
}

guint
_mat_dialogs_get_n_shown (void)
{
  return shown_dialogs != NULL ? shown_dialogs->len : 0;
}

void
_mat_dialogs_answer (int choice)
{
  Shown *shown;

  g_return_if_fail (_mat_dialogs_get_n_shown () > 0);

  shown = g_ptr_array_index (shown_dialogs, shown_dialogs->len - 1);
  shown_answer (shown, choice, NULL, NULL);
}

void
_mat_dialogs_answer_files (GListModel *files)
{
  Shown *shown;
  g_autoptr(GFile) first = NULL;

  g_return_if_fail (_mat_dialogs_get_n_shown () > 0);
  g_return_if_fail (files == NULL || G_IS_LIST_MODEL (files));

  shown = g_ptr_array_index (shown_dialogs, shown_dialogs->len - 1);
  g_return_if_fail (shown->request.kind == MAT_DIALOG_OPEN ||
                    shown->request.kind == MAT_DIALOG_SAVE);
  if (files != NULL && g_list_model_get_n_items (files) > 0)
    first = g_list_model_get_item (files, 0);
  shown_answer (shown, 0, files, first);
}
