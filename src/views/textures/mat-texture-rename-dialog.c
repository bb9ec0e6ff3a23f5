/* mat-texture-rename-dialog.c - a texture renamed, and the materials that
 * name it */
#include "config.h"

#include <glib/gi18n.h>

#include "mat-texture-rename-dialog.h"

/* The materials named in a list; the rest are counted. */
#define USERS_NAMED 12

struct _MatTextureRenameDialog
{
  GtkWindow          parent_instance;

  MatTextureLibrary *textures;
  MatTexture        *texture;
  MatLibrary        *materials;
  GPtrArray         *users;        /* MatMaterial */
  char              *old_name;

  GtkWidget         *rename_button;
  GtkEditable       *entry;
  GtkLabel          *message;
  GtkLabel          *users_label;
  GtkCheckButton    *check;
};

G_DEFINE_FINAL_TYPE (MatTextureRenameDialog, mat_texture_rename_dialog, GTK_TYPE_WINDOW)

enum {
  SIGNAL_RENAMED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

char *
mat_texture_dup_users_text (GPtrArray  *users,
                            const char *name,
                            const char *library_name)
{
  g_autoptr(GString) list = g_string_new (NULL);
  guint n;

  g_return_val_if_fail (users != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  n = users->len;
  if (n == 0)
    {
      if (library_name == NULL)
        return g_strdup (_("No material library is open: no material was looked into."));
      /* Translators: a material library's file name, then a texture name */
      return g_strdup_printf (_("No material of %s uses %s."), library_name, name);
    }
  for (guint i = 0; i < n && i < USERS_NAMED; i++)
    {
      if (i > 0)
        /* Translators: separates the items of a list */
        g_string_append (list, _(", "));
      g_string_append (list, mat_material_get_name (g_ptr_array_index (users, i)));
    }
  if (n > USERS_NAMED)
    {
      guint more = n - USERS_NAMED;
      /* Translators: after a list of material names: how many more */
      g_autofree char *rest = g_strdup_printf (ngettext ("%s and %u more", "%s and %u more", more),
                                               list->str, more);

      g_string_assign (list, rest);
    }
  /* Translators: the number of materials, a texture name, then the
   * materials' names: "3 materials use ROCK.0: DEFAULT, ROCK_WALL, OLD." */
  return g_strdup_printf (ngettext ("%u material uses %s: %s.", "%u materials use %s: %s.", n),
                          n, name, list->str);
}

static void
validate (MatTextureRenameDialog *self)
{
  const char *name = gtk_editable_get_text (self->entry);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  ok = mat_texture_library_check_rename (self->textures, self->texture, name, &error);
  if (ok)
    {
      gtk_label_set_text (self->message,
                          _("At most 15 bytes in the game’s code page (CP1251) with a “.”; the letter and digit after the dot pick the palette of an indexed texture."));
      gtk_widget_remove_css_class (GTK_WIDGET (self->message), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->message), "dim-label");
      gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");
    }
  else
    {
      gtk_label_set_text (self->message, error->message);
      gtk_widget_remove_css_class (GTK_WIDGET (self->message), "dim-label");
      gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "rename.rename",
                                 ok && g_strcmp0 (name, self->old_name) != 0);
}

static void
rename_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatTextureRenameDialog *self = MAT_TEXTURE_RENAME_DIALOG (widget);
  g_autofree char *name = g_strdup (gtk_editable_get_text (self->entry));
  g_autoptr(GError) error = NULL;
  guint phases = 0;

  if (!mat_texture_library_rename (self->textures, self->texture, name, &error))
    {
      gtk_label_set_text (self->message, error->message);
      gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
      return;
    }
  if (self->materials != NULL && self->users->len > 0 && gtk_check_button_get_active (self->check))
    {
      phases = mat_library_rename_texture_uses (self->materials, self->old_name, name, &error);
      if (error != NULL)
        {
          /* the texture keeps its new name: its own undo step */
          gtk_label_set_text (self->message, error->message);
          gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
          return;
        }
    }
  g_signal_emit (self, signals[SIGNAL_RENAMED], 0, self->texture, phases);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
mat_texture_rename_dialog_dispose (GObject *object)
{
  MatTextureRenameDialog *self = MAT_TEXTURE_RENAME_DIALOG (object);

  g_clear_object (&self->textures);
  g_clear_object (&self->texture);
  g_clear_object (&self->materials);
  g_clear_pointer (&self->users, g_ptr_array_unref);
  g_clear_pointer (&self->old_name, g_free);

  G_OBJECT_CLASS (mat_texture_rename_dialog_parent_class)->dispose (object);
}

static void
mat_texture_rename_dialog_class_init (MatTextureRenameDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_texture_rename_dialog_dispose;

  /**
   * MatTextureRenameDialog::renamed:
   * @texture: the texture renamed
   * @phases: how many phases of the material library were given its name
   */
  signals[SIGNAL_RENAMED] =
    g_signal_new ("renamed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, MAT_TYPE_TEXTURE, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "rename.rename", NULL, rename_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
mat_texture_rename_dialog_init (MatTextureRenameDialog *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *caption = gtk_label_new_with_mnemonic (_("_Name"));
  GtkWidget *users_heading = gtk_label_new (_("Materials"));

  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
  gtk_window_set_resizable (GTK_WINDOW (self), FALSE);

  gtk_header_bar_set_show_title_buttons (GTK_HEADER_BAR (header), FALSE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "window.close");
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), cancel);
  self->rename_button = gtk_button_new_with_mnemonic (_("_Rename"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->rename_button), "rename.rename");
  gtk_widget_add_css_class (self->rename_button, "suggested-action");
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), self->rename_button);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_label_set_xalign (GTK_LABEL (caption), 0);
  gtk_widget_add_css_class (caption, "dim-label");
  self->entry = GTK_EDITABLE (gtk_entry_new ());
  gtk_entry_set_activates_default (GTK_ENTRY (self->entry), TRUE);
  gtk_label_set_mnemonic_widget (GTK_LABEL (caption), GTK_WIDGET (self->entry));
  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->message, 0);
  gtk_label_set_wrap (self->message, TRUE);
  gtk_label_set_max_width_chars (self->message, 56);
  gtk_label_set_width_chars (self->message, 56);
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "caption");
  gtk_label_set_xalign (GTK_LABEL (users_heading), 0);
  gtk_widget_add_css_class (users_heading, "heading");
  gtk_widget_set_margin_top (users_heading, 12);
  self->users_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->users_label, 0);
  gtk_label_set_wrap (self->users_label, TRUE);
  gtk_label_set_max_width_chars (self->users_label, 56);
  gtk_label_set_selectable (self->users_label, TRUE);
  self->check = GTK_CHECK_BUTTON (gtk_check_button_new ());
  gtk_check_button_set_use_underline (self->check, TRUE);

  gtk_box_append (GTK_BOX (box), caption);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->entry));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->message));
  gtk_box_append (GTK_BOX (box), users_heading);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->users_label));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->check));
  gtk_window_set_child (GTK_WINDOW (self), box);
  gtk_window_set_default_widget (GTK_WINDOW (self), self->rename_button);

  g_signal_connect_swapped (self->entry, "changed", G_CALLBACK (validate), self);
}

MatTextureRenameDialog *
mat_texture_rename_dialog_present (GtkWindow         *parent,
                                   MatTextureLibrary *textures,
                                   MatTexture        *texture,
                                   MatLibrary        *materials)
{
  MatTextureRenameDialog *self;
  g_autofree char *title = NULL;
  g_autofree char *users = NULL;
  g_autofree char *library_name = NULL;
  GFile *file;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (textures), NULL);
  g_return_val_if_fail (MAT_IS_TEXTURE (texture), NULL);
  g_return_val_if_fail (materials == NULL || MAT_IS_LIBRARY (materials), NULL);

  self = g_object_new (MAT_TYPE_TEXTURE_RENAME_DIALOG, "transient-for", parent, NULL);
  self->textures = g_object_ref (textures);
  self->texture = g_object_ref (texture);
  self->materials = materials != NULL ? g_object_ref (materials) : NULL;
  self->old_name = g_strdup (mat_texture_get_name (texture));
  self->users = materials != NULL ? mat_library_dup_texture_users (materials, self->old_name)
                                  : g_ptr_array_new ();
  g_ptr_array_set_free_func (self->users, NULL);
  /* the materials are held while the dialog is open */
  for (guint i = 0; i < self->users->len; i++)
    g_object_ref (g_ptr_array_index (self->users, i));
  g_ptr_array_set_free_func (self->users, g_object_unref);

  /* Translators: the rename dialog's title: a texture name */
  title = g_strdup_printf (_("Rename %s"), self->old_name);
  gtk_window_set_title (GTK_WINDOW (self), title);
  file = materials != NULL ? mat_library_get_file (materials) : NULL;
  if (materials != NULL)
    library_name = file != NULL ? g_file_get_basename (file) : g_strdup ("Material.lib");
  users = mat_texture_dup_users_text (self->users, self->old_name, library_name);
  gtk_label_set_text (self->users_label, users);
  if (self->users->len > 0)
    {
      g_autofree char *label = NULL;

      if (self->users->len == 1)
        /* Translators: the check button of the rename dialog; %s is the
         * material library's file name */
        label = g_strdup_printf (_("Also rename it in _this material (one undo step of %s)"),
                                 library_name);
      else
        /* Translators: the check button of the rename dialog: a number of
         * materials, then the material library's file name */
        label = g_strdup_printf (ngettext ("Also rename it in _these %u materials (one undo step of %s)",
                                           "Also rename it in _these %u materials (one undo step of %s)",
                                           self->users->len),
                                 self->users->len, library_name);
      gtk_check_button_set_label (self->check, label);
      gtk_check_button_set_active (self->check, TRUE);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->check), self->users->len > 0);

  gtk_editable_set_text (self->entry, self->old_name);
  validate (self);
  gtk_window_present (GTK_WINDOW (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  gtk_editable_select_region (self->entry, 0, -1);
  return self;
}

GtkEditable *
mat_texture_rename_dialog_get_entry_for_test (MatTextureRenameDialog *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_RENAME_DIALOG (self), NULL);
  return self->entry;
}

GtkCheckButton *
mat_texture_rename_dialog_get_check_for_test (MatTextureRenameDialog *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_RENAME_DIALOG (self), NULL);
  return self->check;
}

GtkLabel *
mat_texture_rename_dialog_get_message_for_test (MatTextureRenameDialog *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_RENAME_DIALOG (self), NULL);
  return self->message;
}

GtkLabel *
mat_texture_rename_dialog_get_users_for_test (MatTextureRenameDialog *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_RENAME_DIALOG (self), NULL);
  return self->users_label;
}
