/* mat-unsaved-dialog.c - "Save changes?" before a window with edits closes */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat-unsaved-dialog.h"

struct _MatUnsavedDialog
{
  GtkWindow  parent_instance;

  GtkLabel  *body_label;
  gboolean   answered;
};

G_DEFINE_FINAL_TYPE (MatUnsavedDialog, mat_unsaved_dialog, GTK_TYPE_WINDOW)

enum {
  RESPONSE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
respond (MatUnsavedDialog   *self,
         MatUnsavedResponse  response)
{
  if (self->answered)
    return;
  self->answered = TRUE;

  g_object_ref (self);
  g_signal_emit (self, signals[RESPONSE], 0, (int) response);
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}

static void
response_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  MatUnsavedDialog *self = MAT_UNSAVED_DIALOG (widget);
  const char *answer = g_variant_get_string (parameter, NULL);

  if (g_str_equal (answer, "save"))
    respond (self, MAT_UNSAVED_RESPONSE_SAVE);
  else if (g_str_equal (answer, "discard"))
    respond (self, MAT_UNSAVED_RESPONSE_DISCARD);
  else
    respond (self, MAT_UNSAVED_RESPONSE_CANCEL);
}

static gboolean
mat_unsaved_dialog_close_request (GtkWindow *window)
{
  respond (MAT_UNSAVED_DIALOG (window), MAT_UNSAVED_RESPONSE_CANCEL);
  return TRUE;
}

MatUnsavedDialog *
mat_unsaved_dialog_present (GtkWindow  *parent,
                            const char *file_name)
{
  MatUnsavedDialog *self;
  g_autofree char *body = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (file_name != NULL, NULL);

  self = g_object_new (MAT_TYPE_UNSAVED_DIALOG,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
  body = g_strdup_printf (_("“%s” has changes that are not saved. If you do not save them, they are lost."),
                          file_name);
  gtk_label_set_label (self->body_label, body);
  gtk_window_present (GTK_WINDOW (self));

  return self;
}

static void
mat_unsaved_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), MAT_TYPE_UNSAVED_DIALOG);

  G_OBJECT_CLASS (mat_unsaved_dialog_parent_class)->dispose (object);
}

static void
mat_unsaved_dialog_class_init (MatUnsavedDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = mat_unsaved_dialog_dispose;
  window_class->close_request = mat_unsaved_dialog_close_request;

  /**
   * MatUnsavedDialog::response:
   * @response: a #MatUnsavedResponse
   */
  signals[RESPONSE] =
    g_signal_new ("response", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-unsaved-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, MatUnsavedDialog, body_label);

  gtk_widget_class_install_action (widget_class, "dialog.response", "s", response_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0,
                                       "dialog.response", "s", "cancel");
}

static void
mat_unsaved_dialog_init (MatUnsavedDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
