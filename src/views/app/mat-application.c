/* mat-application.c - the application: app actions, settings, windows */
#include "config.h"

#include <signal.h>
#include <glib-unix.h>
#include <glib/gi18n-lib.h>

#include "mat-application.h"
#include "mat-dialogs.h"
#include "mat-drafts-dialog.h"
#include "mat-gsk-renderer.h"
#include "mat-preferences.h"
#include "mat-style.h"
#include "mat-test-hook.h"
#include "mat-window.h"

#define SCHEMA_ID   "io.github.parkan.MatEdit"
#define MAX_RECENT  10

struct _MatApplication
{
  GtkApplication  parent_instance;

  GSettings      *settings;      /* %NULL without the schema */
  GMenu          *recent_menu;   /* "Open Recent": rebuilt from the settings */
  MatPreferences *preferences;   /* (nullable) (weak) the one open */

  MatDraftStore   *drafts;        /* the unsaved edits of every window */
  MatGameFolder   *game_folder;   /* (nullable) made when first asked for */
  MatDraftsDialog *drafts_dialog; /* (nullable) (weak) what the last editor left */
  gboolean         offered;       /* looked for them once */
};

G_DEFINE_FINAL_TYPE (MatApplication, mat_application, GTK_TYPE_APPLICATION)

GSettings *
mat_application_get_settings (MatApplication *self)
{
  g_return_val_if_fail (MAT_IS_APPLICATION (self), NULL);

  return self->settings;
}

MatDraftStore *
mat_application_get_drafts (MatApplication *self)
{
  g_return_val_if_fail (MAT_IS_APPLICATION (self), NULL);

  return self->drafts;
}

MatGameFolder *
mat_application_get_game_folder (MatApplication *self)
{
  g_return_val_if_fail (MAT_IS_APPLICATION (self), NULL);

  /* made when first asked for: the folder is read in a worker then */
  if (self->game_folder == NULL)
    self->game_folder = self->settings != NULL ? mat_game_folder_new_for_settings (self->settings)
                                               : mat_game_folder_new (NULL);
  return self->game_folder;
}

GtkWindow *
mat_application_get_drafts_dialog (MatApplication *self)
{
  g_return_val_if_fail (MAT_IS_APPLICATION (self), NULL);

  return GTK_WINDOW (self->drafts_dialog);
}

/* SIGTERM, SIGHUP, SIGINT (a logout, a closed terminal, a shutdown,
 * Ctrl+C): the drafts of every unsaved edit are written now, then the
 * editor ends without asking; they are offered at the next start. */
static gboolean
quit_signal_cb (gpointer user_data)
{
  MatApplication *self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mat_draft_store_flush_sync (self->drafts, TRUE, &error))
    g_printerr ("%s\n", error->message);
  g_application_quit (G_APPLICATION (self));
  return G_SOURCE_CONTINUE;
}

static void
left_found_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(MatApplication) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) left = mat_draft_store_find_left_finish (MAT_DRAFT_STORE (object), result,
                                                                 &error);
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (self));

  /* over the first window, also when it is not shown yet */
  if (parent == NULL && windows != NULL)
    parent = windows->data;
  if (left == NULL)
    {
      g_message ("Drafts of unsaved changes: %s", error->message);
      return;
    }
  if (g_list_model_get_n_items (left) == 0 || self->drafts_dialog != NULL)
    return;
  self->drafts_dialog = mat_drafts_dialog_present (self, parent, left);
  g_object_add_weak_pointer (G_OBJECT (self->drafts_dialog), (gpointer *) &self->drafts_dialog);
}

void
mat_application_offer_drafts (MatApplication *self)
{
  g_return_if_fail (MAT_IS_APPLICATION (self));

  if (self->offered)
    return;
  self->offered = TRUE;
  g_unix_signal_add (SIGTERM, quit_signal_cb, self);
  g_unix_signal_add (SIGHUP, quit_signal_cb, self);
  g_unix_signal_add (SIGINT, quit_signal_cb, self);
  mat_draft_store_find_left_async (self->drafts, NULL, left_found_cb, g_object_ref (self));
}

GMenuModel *
mat_application_get_recent_menu (MatApplication *self)
{
  g_return_val_if_fail (MAT_IS_APPLICATION (self), NULL);

  return G_MENU_MODEL (self->recent_menu);
}

static void
rebuild_recent_menu (MatApplication *self)
{
  g_auto(GStrv) uris = NULL;

  g_menu_remove_all (self->recent_menu);
  if (self->settings == NULL)
    return;

  uris = g_settings_get_strv (self->settings, "recent-files");
  for (guint i = 0; uris[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uris[i]);
      g_autofree char *name = g_file_get_basename (file);
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autofree char *folder = parent != NULL ? g_file_get_parse_name (parent) : NULL;
      g_autofree char *label = NULL;
      g_autoptr(GMenuItem) item = NULL;

      /* Translators: a recent file in the menu: file name, then its folder */
      label = folder != NULL ? g_strdup_printf (_("%s (%s)"), name, folder) : g_strdup (name);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "app.open-recent", "s", uris[i]);
      g_menu_append_item (self->recent_menu, item);
    }
}

void
mat_application_add_recent (MatApplication *self,
                            GFile          *file)
{
  g_autofree char *uri = NULL;

  g_return_if_fail (MAT_IS_APPLICATION (self));
  g_return_if_fail (G_IS_FILE (file));

  uri = g_file_get_uri (file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);

  if (self->settings != NULL)
    {
      g_auto(GStrv) old = g_settings_get_strv (self->settings, "recent-files");
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) uris = NULL;
      guint n = 1;

      g_strv_builder_add (builder, uri);
      for (guint i = 0; old[i] != NULL && n < MAX_RECENT; i++)
        if (g_strcmp0 (old[i], uri) != 0)
          {
            g_strv_builder_add (builder, old[i]);
            n++;
          }
      uris = g_strv_builder_end (builder);
      g_settings_set_strv (self->settings, "recent-files", (const char * const *) uris);
    }
}

GFile *
mat_application_find_demo (void)
{
  const char *env = g_getenv ("MATEDIT_DEMO_DIR");
  const char *dirs[3] = { NULL, NULL, NULL };
  guint n = 0;

  if (env != NULL && env[0] != '\0')
    dirs[n++] = env;
#ifdef DEMO_BUILD_DIR
  dirs[n++] = DEMO_BUILD_DIR;
#endif
#ifdef PKGDATADIR
  dirs[n++] = PKGDATADIR "/demo";
#endif

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_build_filename (dirs[i], "Material.lib", NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_file_new_for_path (path);
    }

  return NULL;
}

static MatWindow *
find_window_for_file (MatApplication *self,
                      GFile          *file)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      GFile *shown;

      if (!MAT_IS_WINDOW (l->data))
        continue;
      shown = mat_window_get_file (MAT_WINDOW (l->data));
      if (shown != NULL && g_file_equal (shown, file))
        return MAT_WINDOW (l->data);
    }

  return NULL;
}

void
mat_application_open_file (MatApplication *self,
                           GFile          *file,
                           GtkWindow      *reuse)
{
  MatWindow *window;

  g_return_if_fail (MAT_IS_APPLICATION (self));
  g_return_if_fail (G_IS_FILE (file));

  window = find_window_for_file (self, file);
  if (window == NULL && MAT_IS_WINDOW (reuse) && mat_window_get_replaceable (MAT_WINDOW (reuse)))
    window = MAT_WINDOW (reuse);
  if (window == NULL)
    window = mat_window_new (self);

  if (mat_window_get_file (window) == NULL || !g_file_equal (mat_window_get_file (window), file))
    mat_window_open (window, file, FALSE);
  mat_window_present_when_loaded (window);
}

static void
mat_application_activate (GApplication *application)
{
  MatApplication *self = MAT_APPLICATION (application);
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));
  MatWindow *window;
  g_autoptr(GFile) demo = NULL;

  if (active != NULL)
    {
      gtk_window_present (active);
      return;
    }

  window = mat_window_new (self);
  demo = mat_application_find_demo ();
  if (demo != NULL)
    mat_window_open (window, demo, TRUE);
  mat_window_present_when_loaded (window);
  mat_application_offer_drafts (self);
}

static void
mat_application_open (GApplication  *application,
                      GFile        **files,
                      int            n_files,
                      const char    *hint)
{
  MatApplication *self = MAT_APPLICATION (application);

  for (int i = 0; i < n_files; i++)
    mat_application_open_file (self, files[i], NULL);
  mat_application_offer_drafts (self);
}

/* Opens @files; only the first may replace @parent's untouched demo. */
static void
open_files (MatApplication *self,
            GListModel     *files,
            GtkWindow      *parent)
{
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);

      mat_application_open_file (self, file, i == 0 ? parent : NULL);
    }
}

static GtkFileFilter *
library_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Material Libraries"));
  gtk_file_filter_add_suffix (filter, "lib");
  gtk_file_filter_add_suffix (filter, "LIB");
  return filter;
}

static GtkFileFilter *
all_files_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("All Files"));
  gtk_file_filter_add_pattern (filter, "*");
  return filter;
}

static void
open_chosen_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(MatApplication) self = user_data;
  g_autoptr(GListModel) files = mat_dialogs_open_files_finish (result);

  if (files != NULL)
    open_files (self, files, gtk_application_get_active_window (GTK_APPLICATION (self)));
}

static void
open_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  MatApplication *self = MAT_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) libs = library_filter ();
  g_autoptr(GtkFileFilter) all = all_files_filter ();

  g_list_store_append (filters, libs);
  g_list_store_append (filters, all);
  mat_dialogs_open_files (parent, _("Open Material Library"), G_LIST_MODEL (filters), TRUE,
                          NULL, open_chosen_cb, g_object_ref (self));
}

static void
open_recent_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  MatApplication *self = MAT_APPLICATION (user_data);
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  mat_application_open_file (self, file,
                             gtk_application_get_active_window (GTK_APPLICATION (self)));
}

static void
new_window_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  MatApplication *self = MAT_APPLICATION (user_data);
  MatWindow *window = mat_window_new (self);
  g_autoptr(GFile) demo = mat_application_find_demo ();

  if (demo != NULL)
    mat_window_open (window, demo, TRUE);
  mat_window_present_when_loaded (window);
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  MatApplication *self = MAT_APPLICATION (user_data);
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));

  /* Every window closes through close-request: a window with unsaved
   * changes asks first and stays open on Cancel, which keeps the
   * application running. */
  for (GList *l = windows; l != NULL; l = l->next)
    if (MAT_IS_WINDOW (l->data))
      gtk_window_close (GTK_WINDOW (l->data));
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  MatApplication *self = MAT_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  static const char *authors[] = { "Parkan Material Editor contributors", NULL };

  gtk_show_about_dialog (parent,
                         "program-name", _("Parkan Material Editor"),
                         "logo-icon-name", APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Edit the materials of Parkan: Iron Strategy"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
shortcuts_activated (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  MatApplication *self = MAT_APPLICATION (user_data);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (MAT_IS_WINDOW (window))
    mat_window_show_shortcuts (MAT_WINDOW (window));
}

/* One Preferences window at a time, over the window it was asked from. */
static void
preferences_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  MatApplication *self = MAT_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (self->settings == NULL)
    return;
  if (self->preferences == NULL)
    {
      self->preferences = mat_preferences_new (parent, self->settings);
      g_object_add_weak_pointer (G_OBJECT (self->preferences), (gpointer *) &self->preferences);
    }
  gtk_window_present (GTK_WINDOW (self->preferences));
}

/* The drafts an editor that ended left: what the dialog's buttons do
 * (also over D-Bus). */
static void
draft_action_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  MatApplication *self = MAT_APPLICATION (user_data);
  const char *name = g_action_get_name (G_ACTION (action));
  const char *id = parameter != NULL ? g_variant_get_string (parameter, NULL) : NULL;

  if (self->drafts_dialog == NULL)
    return;
  if (g_str_equal (name, "restore-all-drafts"))
    mat_drafts_dialog_restore_all (self->drafts_dialog);
  else if (g_str_equal (name, "restore-draft"))
    mat_drafts_dialog_restore (self->drafts_dialog, id);
  else if (g_str_equal (name, "compare-draft"))
    mat_drafts_dialog_compare (self->drafts_dialog, id);
  else if (g_str_equal (name, "discard-draft"))
    mat_drafts_dialog_discard (self->drafts_dialog, id);
}

static const GActionEntry app_actions[] = {
  { "open", open_activated, NULL, NULL, NULL, { 0 } },
  { "open-recent", open_recent_activated, "s", NULL, NULL, { 0 } },
  { "new-window", new_window_activated, NULL, NULL, NULL, { 0 } },
  { "quit", quit_activated, NULL, NULL, NULL, { 0 } },
  { "about", about_activated, NULL, NULL, NULL, { 0 } },
  { "preferences", preferences_activated, NULL, NULL, NULL, { 0 } },
  { "shortcuts", shortcuts_activated, NULL, NULL, NULL, { 0 } },
  { "restore-draft", draft_action_activated, "s", NULL, NULL, { 0 } },
  { "compare-draft", draft_action_activated, "s", NULL, NULL, { 0 } },
  { "discard-draft", draft_action_activated, "s", NULL, NULL, { 0 } },
  { "restore-all-drafts", draft_action_activated, NULL, NULL, NULL, { 0 } },
};

static const struct {
  const char *action;
  const char *accels[3];
} accels[] = {
  { "app.open", { "<Control>o", NULL } },
  { "app.new-window", { "<Control>n", NULL } },
  { "app.quit", { "<Control>q", NULL } },
  { "app.shortcuts", { "<Control>question", NULL } },
  { "app.preferences", { "<Control>comma", NULL } },
  { "win.save", { "<Control>s", NULL } },
  { "win.save-as", { "<Control><Shift>s", NULL } },
  { "win.undo", { "<Control>z", NULL } },
  { "win.redo", { "<Control><Shift>z", "<Control>y", NULL } },
  { "win.find", { "<Control>f", NULL } },
  { "win.new-material", { "<Control><Shift>n", NULL } },
  { "win.duplicate", { "<Control>d", NULL } },
  { "win.rename", { "F2", NULL } },
  { "win.compare", { "<Control>k", NULL } },
  { "win.close", { "<Control>w", NULL } },
  { "win.show-lints", { "<Control>l", NULL } },
  { "win.textures", { "<Control>t", NULL } },
  { "win.toggle-preview", { "F9", NULL } },
  /* win.delete is bound to Delete on the list only (mat-window.ui), so
   * that Delete keeps working in text fields. */
};

const char *
mat_application_bind_text_domain (void)
{
  const char *dir = LOCALEDIR;

#ifdef BUILD_LOCALEDIR
  {
    g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

    if (exe != NULL && g_str_has_prefix (exe, BUILD_ROOT G_DIR_SEPARATOR_S))
      dir = BUILD_LOCALEDIR;
  }
#endif

  bindtextdomain (GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  return dir;
}

static gsize application_named;

static void
mat_application_startup (GApplication *application)
{
  MatApplication *self = MAT_APPLICATION (application);
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchemaSource) build_source = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;

  G_APPLICATION_CLASS (mat_application_parent_class)->startup (application);

  /* before any window is drawn */
  mat_gsk_renderer_choose (gdk_display_get_default ());

  /* once per process: tests and benchmarks start several applications */
  if (g_once_init_enter (&application_named))
    {
      g_set_application_name (_("Parkan Material Editor"));
      g_once_init_leave (&application_named, 1);
    }
  /* the windows' icon: set after the first window's first frame
   * (mat-window.c, set_icon_cb()) */

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, SCHEMA_ID, TRUE);
#ifdef DEMO_BUILD_DIR
  /* run from the build folder, before `meson install`: its compiled schema */
  if (schema == NULL)
    build_source = g_settings_schema_source_new_from_directory (DEMO_BUILD_DIR, source, FALSE, NULL);
  if (build_source != NULL)
    schema = g_settings_schema_source_lookup (build_source, SCHEMA_ID, FALSE);
#endif
  if (schema != NULL)
    {
      self->settings = g_settings_new_full (schema, NULL, NULL);
      g_signal_connect_object (self->settings, "changed::recent-files",
                               G_CALLBACK (rebuild_recent_menu), self, G_CONNECT_SWAPPED);
    }
  else
    g_message ("The settings schema %s is not installed: window size and recent files are not kept",
               SCHEMA_ID);
  rebuild_recent_menu (self);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action,
                                           accels[i].accels);
  /* Preferences live in the settings: none without the schema. */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self),
                                                                            "preferences")),
                               self->settings != NULL);

  mat_style_ensure ();

  {
    g_autoptr(GFile) folder = mat_draft_store_get_default_folder ();

    self->drafts = mat_draft_store_new (folder);
  }
  if (g_getenv ("MATEDIT_TEST_HOOKS") != NULL)
    mat_test_hook_install (self);
}

static void
mat_application_shutdown (GApplication *application)
{
  MatApplication *self = MAT_APPLICATION (application);

  /* before the windows go: what is still unsaved stays as drafts */
  if (self->drafts != NULL)
    mat_draft_store_close (self->drafts);

  G_APPLICATION_CLASS (mat_application_parent_class)->shutdown (application);
}

static void
mat_application_dispose (GObject *object)
{
  MatApplication *self = MAT_APPLICATION (object);

  if (self->preferences != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->preferences), (gpointer *) &self->preferences);
      gtk_window_destroy (GTK_WINDOW (self->preferences));
      self->preferences = NULL;
    }
  if (self->drafts_dialog != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->drafts_dialog), (gpointer *) &self->drafts_dialog);
      self->drafts_dialog = NULL;
    }
  g_clear_object (&self->drafts);
  if (self->game_folder != NULL)
    mat_game_folder_cancel (self->game_folder);
  g_clear_object (&self->game_folder);
  g_clear_object (&self->settings);
  g_clear_object (&self->recent_menu);

  G_OBJECT_CLASS (mat_application_parent_class)->dispose (object);
}

static void
mat_application_class_init (MatApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = mat_application_dispose;
  app_class->startup = mat_application_startup;
  app_class->shutdown = mat_application_shutdown;
  app_class->activate = mat_application_activate;
  app_class->open = mat_application_open;
}

static void
mat_application_init (MatApplication *self)
{
  self->recent_menu = g_menu_new ();
}

MatApplication *
mat_application_new (const char        *application_id,
                     GApplicationFlags  flags)
{
  g_return_val_if_fail (application_id != NULL, NULL);

  return g_object_new (MAT_TYPE_APPLICATION,
                       "application-id", application_id,
                       "flags", flags | G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/parkan/MatEdit",
                       NULL);
}
