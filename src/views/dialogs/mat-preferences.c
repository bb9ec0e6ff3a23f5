/* mat-preferences.c - the Preferences window
 *
 * Each row shows one setting and writes it at once: the switch and the
 * colour button through g_settings_bind, the game folder through
 * mat_preferences_set_game_folder (what the folder chooser calls). Rows
 * follow the settings' "changed" signals, so a change made elsewhere (in
 * another window, or by the texture picker) shows here too.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat-document.h"
#include "mat-preferences.h"
#include "mat-texture-library.h"
#include "mat-tooltip.h"

struct _MatPreferences
{
  GtkWindow     parent_instance;

  GtkListBoxRow *game_folder_row;
  GtkLabel      *game_folder_label;
  GtkBox        *status_box;
  GtkImage      *status_icon;
  GtkLabel      *status_label;
  GtkLabel      *chosen_label;
  GtkListBoxRow *backup_row;
  GtkSwitch     *backup_switch;
  GtkBox        *scene_colour_box;
  GtkListBoxRow *emboss_row;
  GtkSwitch     *emboss_switch;
  GtkWidget     *scene_colour_button;

  GSettings     *settings;
  GCancellable  *check_cancellable;   /* looking for Textures.lib in the game folder */
  gboolean       game_folder_checked;
#if !GTK_CHECK_VERSION (4, 10, 0)
  GtkFileChooserNative *chooser;
#endif
};

G_DEFINE_FINAL_TYPE (MatPreferences, mat_preferences, GTK_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_GAME_FOLDER_CHECKED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- the game folder ---------------------------------------------------- */

static void
set_checked (MatPreferences *self,
             gboolean        checked)
{
  if (self->game_folder_checked == checked)
    return;
  self->game_folder_checked = checked;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GAME_FOLDER_CHECKED]);
}

static void
find_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GFile *found = mat_texture_library_find_in_folder (task_data, cancellable);

  g_task_return_pointer (task, found, g_object_unref);
}

static void
found_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  MatPreferences *self = MAT_PREFERENCES (object);
  g_autoptr(GFile) found = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  if (g_task_get_cancellable (G_TASK (result)) != self->check_cancellable)
    return;
  g_clear_object (&self->check_cancellable);

  gtk_widget_remove_css_class (GTK_WIDGET (self->status_box), "warning");
  if (found != NULL)
    {
      name = g_file_get_basename (found);
      gtk_image_set_from_icon_name (self->status_icon, "object-select-symbolic");
      /* Translators: the name of the Textures.lib file found in the game folder */
      text = g_strdup_printf (_("%s found in this folder."), name);
      gtk_label_set_text (self->status_label, text);
    }
  else
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->status_box), "warning");
      gtk_image_set_from_icon_name (self->status_icon, "dialog-warning-symbolic");
      gtk_label_set_text (self->status_label, _("This folder has no Textures.lib."));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->status_box), TRUE);
  set_checked (self, TRUE);
}

/* The row shows the folder, then whether it holds a Textures.lib. */
static void
game_folder_changed (MatPreferences *self)
{
  g_autoptr(GFile) folder = mat_preferences_get_game_folder (self);
  g_autoptr(GTask) task = NULL;
  g_autofree char *shown = NULL;

  if (self->check_cancellable != NULL)
    g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  gtk_widget_set_visible (GTK_WIDGET (self->status_box), FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "prefs.clear-game-folder", folder != NULL);

  if (folder == NULL)
    {
      gtk_label_set_text (self->game_folder_label,
                          _("None: only the Textures.lib beside a library is used"));
      set_checked (self, TRUE);
      return;
    }

  shown = g_file_get_parse_name (folder);
  gtk_label_set_text (self->game_folder_label, shown);
  mat_tooltip_set_text (GTK_WIDGET (self->game_folder_label), shown);

  set_checked (self, FALSE);
  self->check_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->check_cancellable, found_cb, NULL);
  g_task_set_task_data (task, g_steal_pointer (&folder), g_object_unref);
  g_task_run_in_thread (task, find_thread);
}

GFile *
mat_preferences_get_game_folder (MatPreferences *self)
{
  g_autofree char *value = NULL;

  g_return_val_if_fail (MAT_IS_PREFERENCES (self), NULL);

  value = g_settings_get_string (self->settings, "game-folder");
  return mat_document_file_from_setting (value);
}

void
mat_preferences_set_game_folder (MatPreferences *self,
                                 GFile          *folder)
{
  g_autofree char *value = NULL;

  g_return_if_fail (MAT_IS_PREFERENCES (self));
  g_return_if_fail (folder == NULL || G_IS_FILE (folder));

  value = folder != NULL ? mat_document_file_to_setting (folder) : g_strdup ("");
  g_settings_set_string (self->settings, "game-folder", value);
}

gboolean
mat_preferences_get_game_folder_checked (MatPreferences *self)
{
  g_return_val_if_fail (MAT_IS_PREFERENCES (self), FALSE);

  return self->game_folder_checked;
}

static void
prefs_clear_game_folder (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  mat_preferences_set_game_folder (MAT_PREFERENCES (widget), NULL);
}

#if GTK_CHECK_VERSION (4, 10, 0)
/* GDK_VERSION_MAX_ALLOWED pins 4.8: this branch is only compiled with a
 * newer GTK, where GtkFileDialog replaces GtkFileChooserNative. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static void
folder_chosen_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(MatPreferences) self = user_data;
  g_autoptr(GFile) folder = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (source),
                                                                  result, NULL);

  if (folder != NULL)
    mat_preferences_set_game_folder (self, folder);
}

static void
prefs_choose_game_folder (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  MatPreferences *self = MAT_PREFERENCES (widget);
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GFile) current = mat_preferences_get_game_folder (self);

  gtk_file_dialog_set_title (dialog, _("Choose the Game Folder"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  if (current != NULL)
    gtk_file_dialog_set_initial_folder (dialog, current);
  gtk_file_dialog_select_folder (dialog, GTK_WINDOW (self), NULL, folder_chosen_cb,
                                 g_object_ref (self));
}
G_GNUC_END_IGNORE_DEPRECATIONS
#else
static void
chooser_response (GtkNativeDialog *chooser,
                  int              response,
                  MatPreferences  *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (folder != NULL)
        mat_preferences_set_game_folder (self, folder);
    }
  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);
}

static void
prefs_choose_game_folder (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  MatPreferences *self = MAT_PREFERENCES (widget);
  g_autoptr(GFile) current = mat_preferences_get_game_folder (self);

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Choose the Game Folder"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (current != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), current, NULL);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}
#endif

/* ---- the choices per library ------------------------------------------- */

static void
chosen_changed (MatPreferences *self)
{
  g_autoptr(GVariant) dict = g_settings_get_value (self->settings, "chosen-textures");
  guint n = (guint) g_variant_n_children (dict);
  g_autofree char *text = NULL;

  if (n == 0)
    text = g_strdup (_("None yet: a Textures.lib chosen in the texture picker is remembered for its library."));
  else
    /* Translators: how many libraries have a Textures.lib of their own */
    text = g_strdup_printf (ngettext ("A Textures.lib is remembered for %u library.",
                                      "A Textures.lib is remembered for %u libraries.", n), n);
  gtk_label_set_text (self->chosen_label, text);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "prefs.forget-chosen", n > 0);
}

static void
prefs_forget_chosen (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  g_settings_reset (MAT_PREFERENCES (widget)->settings, "chosen-textures");
}

/* ---- the scene colour --------------------------------------------------- */

static gboolean
colour_from_setting (GValue   *value,
                     GVariant *variant,
                     gpointer  data)
{
  GdkRGBA colour;

  if (!gdk_rgba_parse (&colour, g_variant_get_string (variant, NULL)))
    return FALSE;
  colour.alpha = 1;
  g_value_set_boxed (value, &colour);
  return TRUE;
}

static GVariant *
colour_to_setting (const GValue       *value,
                   const GVariantType *type,
                   gpointer            data)
{
  const GdkRGBA *colour = g_value_get_boxed (value);
  GdkRGBA opaque;
  g_autofree char *text = NULL;

  if (colour == NULL)
    return NULL;
  opaque = *colour;
  opaque.alpha = 1;
  text = gdk_rgba_to_string (&opaque);
  return g_variant_new_string (text);
}

static GtkWidget *
colour_button_new (void)
{
#if GTK_CHECK_VERSION (4, 10, 0)
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GtkColorDialog *dialog = gtk_color_dialog_new ();
  GtkWidget *button;

  gtk_color_dialog_set_title (dialog, _("Scene Colour"));
  gtk_color_dialog_set_with_alpha (dialog, FALSE);
  button = gtk_color_dialog_button_new (dialog);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return button;
#else
  GtkWidget *button = gtk_color_button_new ();

  gtk_color_button_set_title (GTK_COLOR_BUTTON (button), _("Scene Colour"));
  gtk_color_chooser_set_use_alpha (GTK_COLOR_CHOOSER (button), FALSE);
  return button;
#endif
}

static void
prefs_reset_scene_colour (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  g_settings_reset (MAT_PREFERENCES (widget)->settings, "preview-scene-colour");
}

static void
scene_colour_changed (MatPreferences *self)
{
  g_autoptr(GVariant) set = g_settings_get_user_value (self->settings, "preview-scene-colour");

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "prefs.reset-scene-colour", set != NULL);
}

/* ---- rows --------------------------------------------------------------- */

/* Activating a row does what its control does. */
static void
row_activated (MatPreferences *self,
               GtkListBoxRow  *row)
{
  if (row == self->game_folder_row)
    gtk_widget_activate_action (GTK_WIDGET (self), "prefs.choose-game-folder", NULL);
  else if (row == self->backup_row)
    gtk_switch_set_active (self->backup_switch, !gtk_switch_get_active (self->backup_switch));
  else if (row == self->emboss_row)
    gtk_switch_set_active (self->emboss_switch, !gtk_switch_get_active (self->emboss_switch));
}

/* ---- GObject ------------------------------------------------------------ */

static void
mat_preferences_constructed (GObject *object)
{
  MatPreferences *self = MAT_PREFERENCES (object);

  G_OBJECT_CLASS (mat_preferences_parent_class)->constructed (object);

  g_return_if_fail (G_IS_SETTINGS (self->settings));

  g_settings_bind (self->settings, "make-backup", self->backup_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "emboss-bump", self->emboss_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->settings, "preview-scene-colour",
                                self->scene_colour_button, "rgba", G_SETTINGS_BIND_DEFAULT,
                                colour_from_setting, colour_to_setting, NULL, NULL);

  g_signal_connect_object (self->settings, "changed::game-folder",
                           G_CALLBACK (game_folder_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::chosen-textures",
                           G_CALLBACK (chosen_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::preview-scene-colour",
                           G_CALLBACK (scene_colour_changed), self, G_CONNECT_SWAPPED);
  game_folder_changed (self);
  chosen_changed (self);
  scene_colour_changed (self);
}

static void
mat_preferences_dispose (GObject *object)
{
  MatPreferences *self = MAT_PREFERENCES (object);

  if (self->check_cancellable != NULL)
    g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
#if !GTK_CHECK_VERSION (4, 10, 0)
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
#endif
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_PREFERENCES);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (mat_preferences_parent_class)->dispose (object);
}

static void
mat_preferences_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  MatPreferences *self = MAT_PREFERENCES (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    case PROP_GAME_FOLDER_CHECKED:
      g_value_set_boolean (value, self->game_folder_checked);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_preferences_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  MatPreferences *self = MAT_PREFERENCES (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_set_object (&self->settings, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_preferences_class_init (MatPreferencesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = mat_preferences_constructed;
  object_class->dispose = mat_preferences_dispose;
  object_class->get_property = mat_preferences_get_property;
  object_class->set_property = mat_preferences_set_property;

  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* "game-folder-checked": FALSE while the game folder is looked at */
  properties[PROP_GAME_FOLDER_CHECKED] =
    g_param_spec_boolean ("game-folder-checked", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "matpreferences");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, MatPreferences, game_folder_row);
  gtk_widget_class_bind_template_child (widget_class, MatPreferences, game_folder_label);
  gtk_widget_class_bind_template_child (widget_class, MatPreferences, status_box);
  gtk_widget_class_bind_template_child (widget_class, MatPreferences, status_icon);
  gtk_widget_class_bind_template_child (widget_class, MatPreferences, status_label);
  gtk_widget_class_bind_template_child (widget_class, MatPreferences, chosen_label);
  gtk_widget_class_bind_template_child (widget_class, MatPreferences, backup_row);
  gtk_widget_class_bind_template_child (widget_class, MatPreferences, backup_switch);
  gtk_widget_class_bind_template_child (widget_class, MatPreferences, scene_colour_box);
  gtk_widget_class_bind_template_child (widget_class, MatPreferences, emboss_row);
  gtk_widget_class_bind_template_child (widget_class, MatPreferences, emboss_switch);
  gtk_widget_class_bind_template_callback (widget_class, row_activated);

  gtk_widget_class_install_action (widget_class, "prefs.choose-game-folder", NULL,
                                   prefs_choose_game_folder);
  gtk_widget_class_install_action (widget_class, "prefs.clear-game-folder", NULL,
                                   prefs_clear_game_folder);
  gtk_widget_class_install_action (widget_class, "prefs.forget-chosen", NULL,
                                   prefs_forget_chosen);
  gtk_widget_class_install_action (widget_class, "prefs.reset-scene-colour", NULL,
                                   prefs_reset_scene_colour);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
mat_preferences_init (MatPreferences *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->scene_colour_button = colour_button_new ();
  gtk_widget_set_valign (self->scene_colour_button, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->scene_colour_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Scene Colour"), -1);
  gtk_box_append (self->scene_colour_box, self->scene_colour_button);
}

MatPreferences *
mat_preferences_new (GtkWindow *parent,
                     GSettings *settings)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (MAT_TYPE_PREFERENCES,
                       "transient-for", parent,
                       "settings", settings,
                       NULL);
}

GSettings *
mat_preferences_get_settings (MatPreferences *self)
{
  g_return_val_if_fail (MAT_IS_PREFERENCES (self), NULL);

  return self->settings;
}
