/* mat-name-dialog.c - asks for a material name, validating as you type */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "nres.h"

#include "mat-material-json.h"
#include "mat-name-dialog.h"

struct _MatNameDialog
{
  GtkWindow          parent_instance;

  GtkLabel          *title_label;
  GtkButton         *accept_button;
  GtkEntry          *name_entry;
  GtkLabel          *message_label;
  GtkLabel          *hint_label;
  GtkLabel          *intro_label;

  MatLibrary        *library;
  MatMaterial       *material;
  MatNameDialogMode  mode;
  char              *message;
  MatJsonItem       *item;       /* MAT_NAME_DIALOG_PASTE: what to paste */
  char              *paste_name; /* ... and the name it has */
};

G_DEFINE_FINAL_TYPE (MatNameDialog, mat_name_dialog, GTK_TYPE_WINDOW)

enum {
  DONE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
show_message (MatNameDialog *self,
              const char    *message)
{
  g_free (self->message);
  self->message = g_strdup (message);
  gtk_label_set_label (self->message_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL);
  if (message != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->name_entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->name_entry), "error");
}

/* The checks the model makes, run as the user types; the model's own
 * message is shown if it still refuses the name. */
static void
validate (MatNameDialog *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
  g_autoptr(GError) error = NULL;
  NresEntry probe;
  MatMaterial *other;
  gboolean ok = FALSE;

  memset (&probe, 0, sizeof probe);
  if (name[0] == '\0')
    show_message (self, NULL);
  else if (!nres_entry_set_name (&probe, name, &error))
    show_message (self, error->message);
  else if ((other = mat_library_find (self->library, name)) != NULL &&
           !(self->mode == MAT_NAME_DIALOG_RENAME && other == self->material))
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("The name “%s” is taken by “%s”; names do not differ by case alone"),
                                 name, mat_material_get_name (other));
      show_message (self, message);
    }
  else
    {
      show_message (self, NULL);
      ok = !(self->mode == MAT_NAME_DIALOG_RENAME &&
             g_strcmp0 (name, mat_material_get_name (self->material)) == 0);
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self->accept_button), ok);
}

static void
accept_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatNameDialog *self = MAT_NAME_DIALOG (widget);
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_entry));
  g_autoptr(GError) error = NULL;
  MatMaterial *result = NULL;

  if (!gtk_widget_get_sensitive (GTK_WIDGET (self->accept_button)))
    return;

  switch (self->mode)
    {
    case MAT_NAME_DIALOG_NEW:
      result = mat_library_add_material (self->library, name, &error);
      break;
    case MAT_NAME_DIALOG_DUPLICATE:
      result = mat_library_duplicate_material (self->library, self->material, name, &error);
      break;
    case MAT_NAME_DIALOG_RENAME:
      if (mat_material_set_name (self->material, name, &error))
        result = self->material;
      break;
    case MAT_NAME_DIALOG_PASTE:
      result = mat_library_paste_item (self->library, self->item, name, &error);
      break;
    default:
      g_assert_not_reached ();
    }

  if (result == NULL)
    {
      show_message (self, error->message);
      gtk_widget_set_sensitive (GTK_WIDGET (self->accept_button), FALSE);
      return;
    }

  g_signal_emit (self, signals[DONE], 0, result);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  gtk_window_destroy (GTK_WINDOW (widget));
}

const char *
mat_name_dialog_get_message (MatNameDialog *self)
{
  g_return_val_if_fail (MAT_IS_NAME_DIALOG (self), NULL);

  return self->message;
}

char *
mat_name_dialog_unique_name (MatLibrary *library,
                             const char *base)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (library), NULL);
  g_return_val_if_fail (base != NULL, NULL);

  if (mat_library_find (library, base) == NULL)
    return g_strdup (base);

  for (guint i = 2; i < G_MAXUINT; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s_%u", base, i);

      if (mat_library_find (library, name) == NULL)
        return g_steal_pointer (&name);
    }

  return g_strdup (base);
}

MatNameDialog *
mat_name_dialog_present (GtkWindow         *parent,
                         MatLibrary        *library,
                         MatNameDialogMode  mode,
                         MatMaterial       *material)
{
  MatNameDialog *self;
  g_autofree char *title = NULL;
  g_autofree char *initial = NULL;
  const char *accept = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MAT_IS_LIBRARY (library), NULL);
  g_return_val_if_fail (mode == MAT_NAME_DIALOG_NEW || MAT_IS_MATERIAL (material), NULL);
  g_return_val_if_fail (mode != MAT_NAME_DIALOG_PASTE, NULL);

  self = g_object_new (MAT_TYPE_NAME_DIALOG,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
  self->library = g_object_ref (library);
  self->material = material != NULL ? g_object_ref (material) : NULL;
  self->mode = mode;

  switch (mode)
    {
    case MAT_NAME_DIALOG_NEW:
      title = g_strdup (_("New Material"));
      accept = _("_Create");
      initial = mat_name_dialog_unique_name (library, "NEW_MATERIAL");
      break;
    case MAT_NAME_DIALOG_DUPLICATE:
      {
        g_autofree char *base = g_strdup_printf ("%s_COPY", mat_material_get_name (material));

        /* Translators: the title of the dialog, %s is a material name */
        title = g_strdup_printf (_("Duplicate “%s”"), mat_material_get_name (material));
        accept = _("_Duplicate");
        initial = mat_name_dialog_unique_name (library, base);
      }
      break;
    case MAT_NAME_DIALOG_RENAME:
      /* Translators: the title of the dialog, %s is a material name */
      title = g_strdup_printf (_("Rename “%s”"), mat_material_get_name (material));
      accept = _("_Rename");
      initial = g_strdup (mat_material_get_name (material));
      break;
    default:
      g_assert_not_reached ();
    }

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_label (self->title_label, title);
  gtk_button_set_label (self->accept_button, accept);
  gtk_editable_set_text (GTK_EDITABLE (self->name_entry), initial);
  validate (self);
  gtk_window_present (GTK_WINDOW (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->name_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->name_entry), 0, -1);

  return self;
}

MatNameDialog *
mat_name_dialog_present_paste (GtkWindow   *parent,
                               MatLibrary  *library,
                               MatJsonItem *item,
                               const char  *name)
{
  MatNameDialog *self;
  g_autofree char *title = NULL;
  g_autofree char *intro = NULL;
  g_autofree char *initial = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MAT_IS_LIBRARY (library), NULL);
  g_return_val_if_fail (item != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  self = g_object_new (MAT_TYPE_NAME_DIALOG,
                       "transient-for", parent,
                       "modal", TRUE,
                       NULL);
  self->library = g_object_ref (library);
  self->mode = MAT_NAME_DIALOG_PASTE;
  self->item = mat_json_item_ref (item);
  self->paste_name = g_strdup (name);

  /* Translators: the title of the dialog, %s is a material name */
  title = g_strdup_printf (_("Paste “%s”"), name);
  /* Translators: %s is a material name */
  intro = g_strdup_printf (_("This library already has a material named “%s”. "
                             "Paste the copy under another name:"), name);
  initial = mat_library_dup_free_name (library, name);

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_label (self->title_label, title);
  gtk_label_set_label (self->intro_label, intro);
  gtk_widget_set_visible (GTK_WIDGET (self->intro_label), TRUE);
  gtk_button_set_label (self->accept_button, _("_Paste"));
  gtk_editable_set_text (GTK_EDITABLE (self->name_entry), initial);
  validate (self);
  gtk_window_present (GTK_WINDOW (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->name_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->name_entry), 0, -1);

  return self;
}

void
mat_name_dialog_set_library_name (MatNameDialog *self,
                                  const char    *library_name)
{
  g_autofree char *intro = NULL;

  g_return_if_fail (MAT_IS_NAME_DIALOG (self));
  g_return_if_fail (library_name != NULL);

  if (self->mode != MAT_NAME_DIALOG_PASTE)
    return;
  /* Translators: the first %s is a library ("Material.lib — mod/DATA"),
   * the second a material name */
  intro = g_strdup_printf (_("“%s” already has a material named “%s”. "
                             "Paste the copy under another name:"),
                           library_name, self->paste_name);
  gtk_label_set_label (self->intro_label, intro);
}

const char *
mat_name_dialog_get_intro (MatNameDialog *self)
{
  g_return_val_if_fail (MAT_IS_NAME_DIALOG (self), NULL);

  return gtk_label_get_label (self->intro_label);
}

static void
mat_name_dialog_dispose (GObject *object)
{
  MatNameDialog *self = MAT_NAME_DIALOG (object);

  g_clear_object (&self->library);
  g_clear_object (&self->material);
  g_clear_pointer (&self->item, mat_json_item_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_NAME_DIALOG);

  G_OBJECT_CLASS (mat_name_dialog_parent_class)->dispose (object);
}

static void
mat_name_dialog_finalize (GObject *object)
{
  MatNameDialog *self = MAT_NAME_DIALOG (object);

  g_free (self->message);
  g_free (self->paste_name);

  G_OBJECT_CLASS (mat_name_dialog_parent_class)->finalize (object);
}

static void
mat_name_dialog_class_init (MatNameDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_name_dialog_dispose;
  object_class->finalize = mat_name_dialog_finalize;

  /**
   * MatNameDialog::done:
   * @material: the new, copied, renamed or pasted material
   */
  signals[DONE] =
    g_signal_new ("done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, MAT_TYPE_MATERIAL);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-name-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, MatNameDialog, title_label);
  gtk_widget_class_bind_template_child (widget_class, MatNameDialog, accept_button);
  gtk_widget_class_bind_template_child (widget_class, MatNameDialog, name_entry);
  gtk_widget_class_bind_template_child (widget_class, MatNameDialog, message_label);
  gtk_widget_class_bind_template_child (widget_class, MatNameDialog, hint_label);
  gtk_widget_class_bind_template_child (widget_class, MatNameDialog, intro_label);
  gtk_widget_class_bind_template_callback (widget_class, validate);

  gtk_widget_class_install_action (widget_class, "dialog.accept", NULL, accept_action);
  gtk_widget_class_install_action (widget_class, "dialog.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "dialog.cancel", NULL);
}

static void
mat_name_dialog_init (MatNameDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
