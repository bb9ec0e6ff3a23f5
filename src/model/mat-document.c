/* mat-document.c - one library file as the editor has it open */
#include "config.h"

#include <stdlib.h>
#include <glib/gi18n-lib.h>

#include "mat-document.h"
#include "mat-model-error.h"

#define MONITOR_DELAY_MS 300
/* How many libraries "chosen-textures" remembers a Textures.lib for. */
#define MAX_CHOSEN_TEXTURES 100

struct _MatDocument
{
  GObject            parent_instance;

  MatLibrary        *library;
  GFile             *file;
  MatDiskState       disk_state;

  guint              load_generation;   /* the newest load wins */
  guint              loading;
  guint              saving;

  GFileMonitor      *monitor;
  guint              monitor_source;
  GCancellable      *check_cancellable;
  guint              check_pending : 1; /* a change seen while saving */

  /* Textures.lib: beside the file, in the game folder, or chosen */
  GSettings         *settings;          /* (nullable) game-folder, chosen-textures */
  GFile             *chosen;            /* the choice remembered for the file */
  GCancellable      *textures_cancellable;
  guint              textures_generation;
  gboolean           finding_textures;
  MatTexturesSource  textures_source;
  MatTextureLibrary *textures;
};

G_DEFINE_FINAL_TYPE (MatDocument, mat_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_LIBRARY,
  PROP_FILE,
  PROP_BUSY,
  PROP_DISK_STATE,
  PROP_TEXTURES,
  PROP_TEXTURES_SOURCE,
  PROP_FINDING_TEXTURES,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char load_tag[] = "mat_document_load_async";
static char save_tag[] = "mat_document_save_async";

GType
mat_disk_state_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { MAT_DISK_STATE_SAME, "MAT_DISK_STATE_SAME", "same" },
        { MAT_DISK_STATE_CHANGED, "MAT_DISK_STATE_CHANGED", "changed" },
        { MAT_DISK_STATE_DELETED, "MAT_DISK_STATE_DELETED", "deleted" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("MatDiskState"), values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

GType
mat_textures_source_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { MAT_TEXTURES_SOURCE_NONE, "MAT_TEXTURES_SOURCE_NONE", "none" },
        { MAT_TEXTURES_SOURCE_BESIDE, "MAT_TEXTURES_SOURCE_BESIDE", "beside" },
        { MAT_TEXTURES_SOURCE_GAME_FOLDER, "MAT_TEXTURES_SOURCE_GAME_FOLDER", "game-folder" },
        { MAT_TEXTURES_SOURCE_CHOSEN, "MAT_TEXTURES_SOURCE_CHOSEN", "chosen" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("MatTexturesSource"), values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

static void
set_disk_state (MatDocument  *self,
                MatDiskState  state)
{
  if (self->disk_state == state)
    return;
  self->disk_state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISK_STATE]);
}

static void
set_busy (MatDocument *self,
          guint       *counter,
          gint         delta)
{
  gboolean was = self->loading > 0 || self->saving > 0;

  *counter = (guint) ((gint) *counter + delta);
  if (was != (self->loading > 0 || self->saving > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* ---- settings values ------------------------------------------------ */

GFile *
mat_document_file_from_setting (const char *value)
{
  g_autofree char *scheme = NULL;

  if (value == NULL || value[0] == '\0')
    return NULL;
  /* an absolute path, "~/..." or a URI; anything else (a relative path
   * would depend on the folder the editor started in) is no file */
  scheme = g_uri_parse_scheme (value);
  if (scheme == NULL && !g_path_is_absolute (value) && !g_str_has_prefix (value, "~/"))
    return NULL;
  return g_file_parse_name (value);
}

char *
mat_document_file_to_setting (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  /* valid UTF-8 whatever the file name's bytes, and read back as the
   * same file by g_file_parse_name() */
  return g_file_get_parse_name (file);
}

static gboolean
settings_have (GSettings  *settings,
               const char *key)
{
  g_autoptr(GSettingsSchema) schema = NULL;

  if (settings == NULL)
    return FALSE;
  g_object_get (settings, "settings-schema", &schema, NULL);
  return schema != NULL && g_settings_schema_has_key (schema, key);
}

/* Returns: (transfer full) (nullable): the game folder of the settings. */
static GFile *
game_folder_get (MatDocument *self)
{
  g_autofree char *value = NULL;

  if (!settings_have (self->settings, "game-folder"))
    return NULL;
  value = g_settings_get_string (self->settings, "game-folder");
  return mat_document_file_from_setting (value);
}

/* Returns: (transfer full) (nullable): the Textures.lib remembered for
 * @file in "chosen-textures". */
static GFile *
chosen_lookup (MatDocument *self,
               GFile       *file)
{
  g_autoptr(GVariant) dict = NULL;
  g_autofree char *key = NULL;
  const char *value = NULL;

  if (file == NULL || !settings_have (self->settings, "chosen-textures"))
    return NULL;
  dict = g_settings_get_value (self->settings, "chosen-textures");
  key = mat_document_file_to_setting (file);
  if (!g_variant_lookup (dict, key, "&s", &value))
    return NULL;
  return mat_document_file_from_setting (value);
}

/* Remembers @textures for @file in "chosen-textures", as the newest
 * entry; the oldest go beyond MAX_CHOSEN_TEXTURES. */
static void
chosen_remember (MatDocument *self,
                 GFile       *file,
                 GFile       *textures)
{
  g_autoptr(GVariant) dict = NULL;
  g_autofree char *key = NULL;
  g_autofree char *value = NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *k, *v;
  const char *old = NULL;
  gsize n, skip;

  if (file == NULL || textures == NULL || !settings_have (self->settings, "chosen-textures"))
    return;
  key = mat_document_file_to_setting (file);
  value = mat_document_file_to_setting (textures);
  dict = g_settings_get_value (self->settings, "chosen-textures");

  n = g_variant_n_children (dict);
  if (g_variant_lookup (dict, key, "&s", &old))
    {
      g_autoptr(GVariant) last = g_variant_get_child_value (dict, n - 1);
      const char *last_key = NULL;

      /* already the newest entry: nothing changes */
      g_variant_get (last, "{&s&s}", &last_key, NULL);
      if (g_str_equal (old, value) && g_str_equal (last_key, key))
        return;
      n--;   /* it moves to the end */
    }
  skip = n >= MAX_CHOSEN_TEXTURES ? n - (MAX_CHOSEN_TEXTURES - 1) : 0;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  g_variant_iter_init (&iter, dict);
  while (g_variant_iter_next (&iter, "{&s&s}", &k, &v))
    {
      if (g_str_equal (k, key))
        continue;
      if (skip > 0)
        {
          skip--;
          continue;
        }
      g_variant_builder_add (&builder, "{ss}", k, v);
    }
  g_variant_builder_add (&builder, "{ss}", key, value);
  g_settings_set_value (self->settings, "chosen-textures", g_variant_builder_end (&builder));
}

/* ---- finding Textures.lib --------------------------------------------- */

static void
set_textures (MatDocument       *self,
              MatTextureLibrary *textures,
              MatTexturesSource  source)
{
  gboolean changed = g_set_object (&self->textures, textures);
  gboolean source_changed = self->textures_source != source;

  self->textures_source = source;
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURES]);
  if (source_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURES_SOURCE]);
}

static void
set_finding (MatDocument *self,
             gboolean     finding)
{
  if (self->finding_textures == finding)
    return;
  self->finding_textures = finding;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FINDING_TEXTURES]);
}

typedef struct {
  guint      generation;
  GFile     *library_file;   /* (nullable) */
  GFile     *game_folder;    /* (nullable) */
  GFile     *chosen;         /* (nullable) */
  gboolean   carried;        /* @chosen: the textures used before a save-as */
  GPtrArray *reuse;          /* MatTextureLibrary: loaded already */
} FindData;

static void
find_data_free (FindData *data)
{
  g_clear_object (&data->library_file);
  g_clear_object (&data->game_folder);
  g_clear_object (&data->chosen);
  g_clear_pointer (&data->reuse, g_ptr_array_unref);
  g_free (data);
}

typedef struct {
  MatTexturesSource  source;
  GFile             *file;      /* (nullable) what was found */
  MatTextureLibrary *loaded;    /* (nullable) %NULL when reused or none */
} FindResult;

static void
find_result_free (FindResult *result)
{
  g_clear_object (&result->file);
  g_clear_object (&result->loaded);
  g_free (result);
}

static MatTextureLibrary *
find_reusable (GPtrArray *reuse,
               GFile     *file)
{
  for (guint i = 0; i < reuse->len; i++)
    {
      MatTextureLibrary *library = g_ptr_array_index (reuse, i);
      GFile *loaded = mat_texture_library_get_file (library);

      if (loaded != NULL && g_file_equal (loaded, file))
        return library;
    }
  return NULL;
}

/* In order: beside the library, in the game folder, the choice. The
 * first that loads wins; one that is there but does not load is told
 * about and the next is tried. */
static void
find_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  FindData *data = task_data;
  FindResult *result = g_new0 (FindResult, 1);

  for (MatTexturesSource source = MAT_TEXTURES_SOURCE_BESIDE;
       source <= MAT_TEXTURES_SOURCE_CHOSEN; source++)
    {
      g_autoptr(GFile) candidate = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *name = NULL;

      if (source == MAT_TEXTURES_SOURCE_BESIDE && data->library_file != NULL)
        candidate = mat_texture_library_find_beside (data->library_file, cancellable);
      else if (source == MAT_TEXTURES_SOURCE_GAME_FOLDER && data->game_folder != NULL)
        candidate = mat_texture_library_find_in_folder (data->game_folder, cancellable);
      else if (source == MAT_TEXTURES_SOURCE_CHOSEN && data->chosen != NULL)
        candidate = g_object_ref (data->chosen);
      if (candidate == NULL)
        continue;

      if (find_reusable (data->reuse, candidate) == NULL)
        result->loaded = mat_texture_library_load (candidate, cancellable, &error);
      if (g_cancellable_is_cancelled (cancellable))
        break;
      if (error != NULL)
        {
          /* a remembered file that is gone is no news */
          if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
            {
              name = g_file_get_parse_name (candidate);
              g_message ("Textures.lib %s: %s", name, error->message);
            }
          continue;
        }
      result->source = source;
      result->file = g_steal_pointer (&candidate);
      break;
    }

  g_task_return_pointer (task, result, (GDestroyNotify) find_result_free);
}

static void
textures_found_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  MatDocument *self = MAT_DOCUMENT (object);
  FindData *data = g_task_get_task_data (G_TASK (result));
  FindResult *found = g_task_propagate_pointer (G_TASK (result), NULL);
  MatTextureLibrary *textures = NULL;

  if (data->generation != self->textures_generation)
    {
      /* a newer search took over */
      g_clear_pointer (&found, find_result_free);
      return;
    }
  g_clear_object (&self->textures_cancellable);

  if (found != NULL && found->file != NULL)
    textures = found->loaded != NULL ? found->loaded : find_reusable (data->reuse, found->file);
  set_textures (self, textures, textures != NULL ? found->source : MAT_TEXTURES_SOURCE_NONE);

  /* After a save-as, the textures that came along are this file's
   * choice from now on. */
  if (textures != NULL && found->source == MAT_TEXTURES_SOURCE_CHOSEN && data->carried)
    {
      g_set_object (&self->chosen, found->file);
      chosen_remember (self, self->file, found->file);
    }
  set_finding (self, FALSE);
  g_clear_pointer (&found, find_result_free);
}

typedef enum {
  FIND_AFRESH,   /* load again even what is loaded (a reload) */
  FIND_REUSE,    /* keep the loaded library when it is still the one */
  FIND_CARRY,    /* a save-as: the textures shown come along */
} FindMode;

/* Looks for the Textures.lib of the file again, in a thread. @extra:
 * (nullable) a library loaded already that may be the answer. */
static void
find_textures (MatDocument       *self,
               FindMode           mode,
               MatTextureLibrary *extra)
{
  g_autoptr(GTask) task = NULL;
  FindData *data;

  if (self->textures_cancellable != NULL)
    g_cancellable_cancel (self->textures_cancellable);
  g_clear_object (&self->textures_cancellable);
  self->textures_generation++;

  data = g_new0 (FindData, 1);
  data->generation = self->textures_generation;
  data->library_file = self->file != NULL ? g_object_ref (self->file) : NULL;
  data->game_folder = game_folder_get (self);
  data->reuse = g_ptr_array_new_with_free_func (g_object_unref);
  if (mode != FIND_AFRESH && self->textures != NULL)
    g_ptr_array_add (data->reuse, g_object_ref (self->textures));
  if (extra != NULL)
    g_ptr_array_add (data->reuse, g_object_ref (extra));
  if (mode == FIND_CARRY && self->textures != NULL &&
      mat_texture_library_get_file (self->textures) != NULL)
    {
      data->chosen = g_object_ref (mat_texture_library_get_file (self->textures));
      data->carried = TRUE;
    }
  else if (self->chosen != NULL)
    data->chosen = g_object_ref (self->chosen);

  if (data->library_file == NULL)
    {
      find_data_free (data);
      set_textures (self, NULL, MAT_TEXTURES_SOURCE_NONE);
      set_finding (self, FALSE);
      return;
    }

  self->textures_cancellable = g_cancellable_new ();
  set_finding (self, TRUE);
  task = g_task_new (self, self->textures_cancellable, textures_found_cb, NULL);
  g_task_set_task_data (task, data, (GDestroyNotify) find_data_free);
  g_task_run_in_thread (task, find_thread);
}

static void
game_folder_changed_cb (MatDocument *self)
{
  find_textures (self, FIND_REUSE, NULL);
}

static void
chosen_textures_changed_cb (MatDocument *self)
{
  g_autoptr(GFile) chosen = chosen_lookup (self, self->file);

  /* another window chose for this file, or the choices were forgotten */
  if (chosen == self->chosen ||
      (chosen != NULL && self->chosen != NULL && g_file_equal (chosen, self->chosen)))
    return;
  g_set_object (&self->chosen, chosen);
  find_textures (self, FIND_REUSE, NULL);
}

void
mat_document_choose_textures (MatDocument       *self,
                              MatTextureLibrary *textures)
{
  GFile *file;

  g_return_if_fail (MAT_IS_DOCUMENT (self));
  g_return_if_fail (MAT_IS_TEXTURE_LIBRARY (textures));

  file = mat_texture_library_get_file (textures);
  g_return_if_fail (file != NULL);

  g_set_object (&self->chosen, file);
  chosen_remember (self, self->file, file);
  find_textures (self, FIND_REUSE, textures);
}

/* Whether @file is in the folder of the library's file. */
static gboolean
is_beside_library (MatDocument *self,
                   GFile       *file)
{
  g_autoptr(GFile) folder = self->file != NULL ? g_file_get_parent (self->file) : NULL;
  g_autoptr(GFile) parent = g_file_get_parent (file);

  return folder != NULL && parent != NULL && g_file_equal (folder, parent);
}

void
mat_document_adopt_textures (MatDocument       *self,
                             MatTextureLibrary *textures)
{
  GFile *file;
  MatTexturesSource source = MAT_TEXTURES_SOURCE_BESIDE;

  g_return_if_fail (MAT_IS_DOCUMENT (self));
  g_return_if_fail (MAT_IS_TEXTURE_LIBRARY (textures));

  file = mat_texture_library_get_file (textures);
  g_return_if_fail (file != NULL);

  /* a search that would read the file again (or find nothing) is given up */
  if (self->textures_cancellable != NULL)
    g_cancellable_cancel (self->textures_cancellable);
  g_clear_object (&self->textures_cancellable);
  self->textures_generation++;

  if (!is_beside_library (self, file))
    {
      source = MAT_TEXTURES_SOURCE_CHOSEN;
      g_set_object (&self->chosen, file);
      chosen_remember (self, self->file, file);
    }
  set_textures (self, textures, source);
  set_finding (self, FALSE);
}

void
mat_document_restore_textures (MatDocument       *self,
                               MatTextureLibrary *textures)
{
  GFile *file;
  GFile *found;

  g_return_if_fail (MAT_IS_DOCUMENT (self));
  g_return_if_fail (MAT_IS_TEXTURE_LIBRARY (textures));

  file = mat_texture_library_get_file (textures);
  g_return_if_fail (file != NULL);

  /* the file the search found: it stays where it was found */
  found = self->textures != NULL ? mat_texture_library_get_file (self->textures) : NULL;
  if (found != NULL && g_file_equal (found, file))
    {
      if (self->textures_cancellable != NULL)
        g_cancellable_cancel (self->textures_cancellable);
      g_clear_object (&self->textures_cancellable);
      self->textures_generation++;
      set_textures (self, textures, self->textures_source);
      set_finding (self, FALSE);
      return;
    }
  mat_document_adopt_textures (self, textures);
}

/* ---- watching the file ------------------------------------------------ */

static void
check_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GError *error = NULL;
  char *etag = mat_file_query_etag (task_data, &error);

  if (etag == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, etag, g_free);
}

static void
check_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  MatDocument *self = MAT_DOCUMENT (object);
  g_autoptr(GError) error = NULL;
  g_autofree char *etag = g_task_propagate_pointer (G_TASK (result), &error);
  const char *ours;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->library == NULL)
    return;
  if (self->saving > 0)
    {
      /* Our own save may be what moved: look again once it is done. */
      self->check_pending = TRUE;
      return;
    }

  ours = mat_library_get_etag (self->library);
  if (etag == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        set_disk_state (self, MAT_DISK_STATE_DELETED);
      return;
    }
  set_disk_state (self, ours != NULL && !g_str_equal (etag, ours)
                        ? MAT_DISK_STATE_CHANGED : MAT_DISK_STATE_SAME);
}

void
mat_document_check_disk (MatDocument *self)
{
  g_autoptr(GTask) task = NULL;
  char *path;

  g_return_if_fail (MAT_IS_DOCUMENT (self));

  if (self->file == NULL || self->library == NULL)
    return;
  if (self->saving > 0)
    {
      self->check_pending = TRUE;
      return;
    }
  path = g_file_get_path (self->file);
  if (path == NULL)
    return;

  if (self->check_cancellable != NULL)
    g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  self->check_cancellable = g_cancellable_new ();

  task = g_task_new (self, self->check_cancellable, check_done_cb, NULL);
  g_task_set_task_data (task, path, g_free);
  g_task_run_in_thread (task, check_thread);
}

static gboolean
monitor_timeout_cb (gpointer user_data)
{
  MatDocument *self = user_data;

  self->monitor_source = 0;
  mat_document_check_disk (self);

  return G_SOURCE_REMOVE;
}

static void
monitor_changed_cb (MatDocument       *self,
                    GFile             *file,
                    GFile             *other,
                    GFileMonitorEvent  event,
                    GFileMonitor      *monitor)
{
  if (event == G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED)
    return;

  /* A burst of events is one change. */
  g_clear_handle_id (&self->monitor_source, g_source_remove);
  self->monitor_source = g_timeout_add (MONITOR_DELAY_MS, monitor_timeout_cb, self);
}

static void
stop_watching (MatDocument *self)
{
  g_clear_handle_id (&self->monitor_source, g_source_remove);
  if (self->check_cancellable != NULL)
    g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      g_file_monitor_cancel (self->monitor);
      g_clear_object (&self->monitor);
    }
}

static void
watch_file (MatDocument *self)
{
  g_autofree char *path = NULL;
  g_autofree char *real = NULL;
  g_autoptr(GFile) watched = NULL;

  stop_watching (self);
  if (self->file == NULL)
    return;

  /* A symbolic link is watched where it points: that file is the one
   * other programs write and our saves replace. */
  path = g_file_get_path (self->file);
  real = path != NULL ? realpath (path, NULL) : NULL;
  watched = real != NULL ? g_file_new_for_path (real) : g_object_ref (self->file);

  self->monitor = g_file_monitor_file (watched, G_FILE_MONITOR_WATCH_MOVES, NULL, NULL);
  if (self->monitor != NULL)
    g_signal_connect_object (self->monitor, "changed", G_CALLBACK (monitor_changed_cb),
                             self, G_CONNECT_SWAPPED);
}

/* The library's file is the document's file. */
static void
follow_file (MatDocument *self)
{
  GFile *file = self->library != NULL ? mat_library_get_file (self->library) : NULL;
  gboolean moved = self->file != NULL;
  g_autoptr(GFile) chosen = NULL;

  if (file == self->file || (file != NULL && self->file != NULL && g_file_equal (file, self->file)))
    return;
  g_set_object (&self->file, file);
  watch_file (self);
  /* A library saved to another file takes the textures it showed along
   * when nothing closer is found there. */
  chosen = chosen_lookup (self, file);
  g_set_object (&self->chosen, chosen);
  find_textures (self, moved ? FIND_CARRY : FIND_AFRESH, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
}

/* ---- loading ---------------------------------------------------------- */

/* @library (loaded or restored) is the document's from now on. */
static void
take_library (MatDocument *self,
              MatLibrary  *library)
{
  if (self->library != NULL)
    g_signal_handlers_disconnect_by_data (self->library, self);
  g_set_object (&self->library, library);
  g_signal_connect_object (library, "notify::file", G_CALLBACK (follow_file),
                           self, G_CONNECT_SWAPPED);

  /* Reloading the same file looks at it afresh: a new monitor, the
   * textures found and read again. */
  g_clear_object (&self->file);
  self->check_pending = FALSE;
  set_disk_state (self, MAT_DISK_STATE_SAME);
  follow_file (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIBRARY]);
}

void
mat_document_restore (MatDocument *self,
                      MatLibrary  *library)
{
  g_return_if_fail (MAT_IS_DOCUMENT (self));
  g_return_if_fail (MAT_IS_LIBRARY (library));
  g_return_if_fail (mat_library_get_file (library) != NULL);

  /* a load running would replace it */
  self->load_generation++;
  take_library (self, library);
  /* the file may have changed since the version the draft was made from */
  mat_document_check_disk (self);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  MatDocument *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(MatLibrary) library = mat_library_load_finish (result, &error);
  guint generation = GPOINTER_TO_UINT (g_task_get_task_data (task));

  set_busy (self, &self->loading, -1);

  if (generation != self->load_generation)
    {
      /* A newer load took over. */
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("Another file was opened meanwhile"));
      return;
    }
  if (library == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  take_library (self, library);
  g_task_return_boolean (task, TRUE);
}

void
mat_document_load_async (MatDocument         *self,
                         GFile               *file,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (MAT_IS_DOCUMENT (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, load_tag);
  g_task_set_task_data (task, GUINT_TO_POINTER (++self->load_generation), NULL);
  set_busy (self, &self->loading, +1);
  mat_library_load_async (file, cancellable, load_cb, task);
}

gboolean
mat_document_load_finish (MatDocument   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- saving ----------------------------------------------------------- */

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  MatDocument *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  MatSaveNotes notes = MAT_SAVE_NOTE_NONE;
  gboolean pending;

  set_busy (self, &self->saving, -1);
  if (!mat_library_save_finish (MAT_LIBRARY (object), result, &notes, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG) &&
          MAT_LIBRARY (object) == self->library)
        set_disk_state (self, MAT_DISK_STATE_CHANGED);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (MAT_LIBRARY (object) == self->library)
    {
      /* What is on disk is what we wrote. */
      pending = self->check_pending;
      self->check_pending = FALSE;
      set_disk_state (self, MAT_DISK_STATE_SAME);
      if (pending)
        mat_document_check_disk (self);
    }

  g_task_set_task_data (task, GUINT_TO_POINTER (notes), NULL);
  g_task_return_boolean (task, TRUE);
}

void
mat_document_save_async (MatDocument         *self,
                         GFile               *file,
                         MatSaveFlags         flags,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (MAT_IS_DOCUMENT (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, save_tag);
  if (self->library == NULL)
    {
      g_task_return_new_error (task, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NO_FILE,
                               _("There is no library to save"));
      g_object_unref (task);
      return;
    }

  set_busy (self, &self->saving, +1);
  mat_library_save_async (self->library, file, flags, cancellable, save_cb, task);
}

gboolean
mat_document_save_finish (MatDocument   *self,
                          GAsyncResult  *result,
                          MatSaveNotes  *notes,
                          GError       **error)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (notes != NULL)
    *notes = GPOINTER_TO_UINT (g_task_get_task_data (G_TASK (result)));

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- getters ---------------------------------------------------------- */

MatDocument *
mat_document_new (void)
{
  return g_object_new (MAT_TYPE_DOCUMENT, NULL);
}

MatDocument *
mat_document_new_with_settings (GSettings *settings)
{
  g_return_val_if_fail (settings == NULL || G_IS_SETTINGS (settings), NULL);

  return g_object_new (MAT_TYPE_DOCUMENT, "settings", settings, NULL);
}

MatLibrary *
mat_document_get_library (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), NULL);

  return self->library;
}

GFile *
mat_document_get_file (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), NULL);

  return self->file;
}

const char *
mat_document_get_etag (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), NULL);

  return self->library != NULL ? mat_library_get_etag (self->library) : NULL;
}

gboolean
mat_document_get_busy (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), FALSE);

  return self->loading > 0 || self->saving > 0;
}

gboolean
mat_document_get_loading (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), FALSE);

  return self->loading > 0;
}

gboolean
mat_document_get_saving (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), FALSE);

  return self->saving > 0;
}

MatDiskState
mat_document_get_disk_state (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), MAT_DISK_STATE_SAME);

  return self->disk_state;
}

MatTextureLibrary *
mat_document_get_textures (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), NULL);

  return self->textures;
}

MatTexturesSource
mat_document_get_textures_source (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), MAT_TEXTURES_SOURCE_NONE);

  return self->textures_source;
}

gboolean
mat_document_get_finding_textures (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), FALSE);

  return self->finding_textures;
}

GSettings *
mat_document_get_settings (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), NULL);

  return self->settings;
}

GFile *
mat_document_get_chosen_textures (MatDocument *self)
{
  g_return_val_if_fail (MAT_IS_DOCUMENT (self), NULL);

  return self->chosen;
}

/* ---- GObject ---------------------------------------------------------- */

static void
mat_document_dispose (GObject *object)
{
  MatDocument *self = MAT_DOCUMENT (object);

  stop_watching (self);
  if (self->textures_cancellable != NULL)
    g_cancellable_cancel (self->textures_cancellable);
  g_clear_object (&self->textures_cancellable);
  if (self->library != NULL)
    g_signal_handlers_disconnect_by_data (self->library, self);
  g_clear_object (&self->library);
  g_clear_object (&self->file);
  g_clear_object (&self->chosen);
  g_clear_object (&self->textures);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (mat_document_parent_class)->dispose (object);
}

static void
mat_document_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  MatDocument *self = MAT_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_LIBRARY:
      g_value_set_object (value, self->library);
      break;
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, mat_document_get_busy (self));
      break;
    case PROP_DISK_STATE:
      g_value_set_enum (value, self->disk_state);
      break;
    case PROP_TEXTURES:
      g_value_set_object (value, self->textures);
      break;
    case PROP_TEXTURES_SOURCE:
      g_value_set_enum (value, self->textures_source);
      break;
    case PROP_FINDING_TEXTURES:
      g_value_set_boolean (value, self->finding_textures);
      break;
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_document_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  MatDocument *self = MAT_DOCUMENT (object);

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
mat_document_constructed (GObject *object)
{
  MatDocument *self = MAT_DOCUMENT (object);

  G_OBJECT_CLASS (mat_document_parent_class)->constructed (object);

  /* A key is only reported as changed once it has been read. */
  if (settings_have (self->settings, "game-folder"))
    {
      g_autoptr(GFile) unused = NULL;

      g_signal_connect_object (self->settings, "changed::game-folder",
                               G_CALLBACK (game_folder_changed_cb), self, G_CONNECT_SWAPPED);
      unused = game_folder_get (self);
    }
  if (settings_have (self->settings, "chosen-textures"))
    {
      g_autoptr(GVariant) unused = NULL;

      g_signal_connect_object (self->settings, "changed::chosen-textures",
                               G_CALLBACK (chosen_textures_changed_cb), self, G_CONNECT_SWAPPED);
      unused = g_settings_get_value (self->settings, "chosen-textures");
    }
}

static void
mat_document_class_init (MatDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mat_document_dispose;
  object_class->constructed = mat_document_constructed;
  object_class->get_property = mat_document_get_property;
  object_class->set_property = mat_document_set_property;

  properties[PROP_LIBRARY] =
    g_param_spec_object ("library", NULL, NULL, MAT_TYPE_LIBRARY,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DISK_STATE] =
    g_param_spec_enum ("disk-state", NULL, NULL, MAT_TYPE_DISK_STATE, MAT_DISK_STATE_SAME,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXTURES] =
    g_param_spec_object ("textures", NULL, NULL, MAT_TYPE_TEXTURE_LIBRARY,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXTURES_SOURCE] =
    g_param_spec_enum ("textures-source", NULL, NULL, MAT_TYPE_TEXTURES_SOURCE,
                       MAT_TEXTURES_SOURCE_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FINDING_TEXTURES] =
    g_param_spec_boolean ("finding-textures", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mat_document_init (MatDocument *self)
{
}
