/* mat-document.c - one library file as the editor has it open */
#include "config.h"

#include <stdlib.h>
#include <glib/gi18n-lib.h>

#include "mat-document.h"
#include "mat-model-error.h"

#define MONITOR_DELAY_MS 300

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

  GFile             *textures_folder;   /* where textures were looked for */
  GCancellable      *textures_cancellable;
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

/* ---- textures beside the file ----------------------------------------- */

static void
set_textures (MatDocument       *self,
              MatTextureLibrary *textures)
{
  if (g_set_object (&self->textures, textures))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURES]);
}

static void
textures_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(MatDocument) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(MatTextureLibrary) textures = mat_texture_library_load_finish (result, &error);

  if (textures == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_message ("Textures.lib beside the library: %s", error->message);
      return;
    }
  set_textures (self, textures);
}

static void
find_textures_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  GFile *found = mat_texture_library_find_beside (G_FILE (task_data), cancellable);

  g_task_return_pointer (task, found, g_object_unref);
}

static void
textures_found_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  MatDocument *self = MAT_DOCUMENT (object);
  g_autoptr(GFile) found = g_task_propagate_pointer (G_TASK (result), NULL);

  if (found == NULL || self->textures_cancellable == NULL ||
      g_cancellable_is_cancelled (self->textures_cancellable))
    return;
  mat_texture_library_load_async (found, self->textures_cancellable,
                                  textures_loaded_cb, g_object_ref (self));
}

/* Looks for Textures.lib beside the file, unless it was looked for in
 * that folder already. */
static void
find_textures (MatDocument *self)
{
  g_autoptr(GFile) folder = self->file != NULL ? g_file_get_parent (self->file) : NULL;
  g_autoptr(GTask) task = NULL;

  if (folder != NULL && self->textures_folder != NULL && g_file_equal (folder, self->textures_folder))
    return;

  if (self->textures_cancellable != NULL)
    g_cancellable_cancel (self->textures_cancellable);
  g_clear_object (&self->textures_cancellable);
  g_set_object (&self->textures_folder, folder);
  set_textures (self, NULL);
  if (self->file == NULL)
    return;

  self->textures_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->textures_cancellable, textures_found_cb, NULL);
  g_task_set_task_data (task, g_object_ref (self->file), g_object_unref);
  g_task_run_in_thread (task, find_textures_thread);
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

  if (file == self->file || (file != NULL && self->file != NULL && g_file_equal (file, self->file)))
    return;
  g_set_object (&self->file, file);
  watch_file (self);
  find_textures (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
}

/* ---- loading ---------------------------------------------------------- */

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

  if (self->library != NULL)
    g_signal_handlers_disconnect_by_data (self->library, self);
  g_set_object (&self->library, library);
  g_signal_connect_object (library, "notify::file", G_CALLBACK (follow_file),
                           self, G_CONNECT_SWAPPED);

  /* Reloading the same file looks at it afresh: a new monitor, the same
   * textures (found again if they changed). */
  g_clear_object (&self->file);
  g_clear_object (&self->textures_folder);
  self->check_pending = FALSE;
  set_disk_state (self, MAT_DISK_STATE_SAME);
  follow_file (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIBRARY]);

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
  g_clear_object (&self->textures_folder);
  g_clear_object (&self->textures);

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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_document_class_init (MatDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mat_document_dispose;
  object_class->get_property = mat_document_get_property;

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
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mat_document_init (MatDocument *self)
{
}
