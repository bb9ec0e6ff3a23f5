/* mat-texture-library.c - the Texm textures of a Textures.lib */
#include "config.h"

#include "cp1251.h"
#include "mat-file.h"
#include "mat-texture-library.h"
#include "nres.h"

struct _MatTextureLibrary
{
  GObject      parent_instance;

  GFile       *file;
  NresArchive *archive;
  GPtrArray   *textures;   /* MatTexture */
  GPtrArray   *by_entry;   /* (element-type MatTexture) (nullable): per entry */
};

static void mat_texture_library_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MatTextureLibrary, mat_texture_library, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      mat_texture_library_list_model_init))

static GType
mat_texture_library_get_item_type (GListModel *model)
{
  return MAT_TYPE_TEXTURE;
}

static guint
mat_texture_library_get_n_items (GListModel *model)
{
  return MAT_TEXTURE_LIBRARY (model)->textures->len;
}

static gpointer
mat_texture_library_get_item (GListModel *model,
                              guint       position)
{
  MatTextureLibrary *self = MAT_TEXTURE_LIBRARY (model);

  if (position >= self->textures->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->textures, position));
}

static void
mat_texture_library_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = mat_texture_library_get_item_type;
  iface->get_n_items = mat_texture_library_get_n_items;
  iface->get_item = mat_texture_library_get_item;
}

static void
mat_texture_library_finalize (GObject *object)
{
  MatTextureLibrary *self = MAT_TEXTURE_LIBRARY (object);

  g_clear_object (&self->file);
  g_clear_pointer (&self->archive, nres_archive_free);
  g_clear_pointer (&self->textures, g_ptr_array_unref);
  g_clear_pointer (&self->by_entry, g_ptr_array_unref);

  G_OBJECT_CLASS (mat_texture_library_parent_class)->finalize (object);
}

static void
mat_texture_library_class_init (MatTextureLibraryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mat_texture_library_finalize;
}

static void
mat_texture_library_init (MatTextureLibrary *self)
{
  self->textures = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_entry = g_ptr_array_new ();
}

MatTextureLibrary *
mat_texture_library_new_from_bytes (GBytes  *bytes,
                                    GError **error)
{
  g_autoptr(MatTextureLibrary) self = g_object_new (MAT_TYPE_TEXTURE_LIBRARY, NULL);

  g_return_val_if_fail (bytes != NULL, NULL);

  self->archive = nres_archive_parse (bytes, error);
  if (self->archive == NULL)
    return NULL;

  for (guint i = 0; i < self->archive->n_entries; i++)
    {
      const NresEntry *entry = &self->archive->entries[i];
      g_autoptr(GBytes) payload = NULL;
      g_autofree char *name = NULL;
      MatTexture *texture;

      if (entry->type_id != NRES_TYPE_TEXM)
        {
          g_ptr_array_add (self->by_entry, NULL);
          continue;
        }
      name = cp1251_to_utf8 ((const guint8 *) entry->name, NRES_NAME_SIZE);
      payload = nres_archive_payload_bytes (self->archive, i);
      texture = _mat_texture_new (name, payload, entry->data_offset);
      g_ptr_array_add (self->textures, texture);
      g_ptr_array_add (self->by_entry, texture);
    }

  return g_steal_pointer (&self);
}

/* A source tag: the address of a variable (a function pointer is no
 * gpointer in ISO C). */
static char load_tag;

MatTextureLibrary *
mat_texture_library_load (GFile         *file,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  MatTextureLibrary *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* A local file is read as a library is: a FIFO or a device is refused
   * at once, a file that is no archive answers after its header. */
  path = g_file_get_path (file);
  if (path != NULL)
    bytes = mat_file_read_library (path, NULL, NULL, cancellable, error);
  else
    bytes = g_file_load_bytes (file, cancellable, NULL, error);
  if (bytes == NULL)
    return NULL;
  self = mat_texture_library_new_from_bytes (bytes, error);
  if (self == NULL)
    return NULL;
  self->file = g_object_ref (file);
  return self;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  MatTextureLibrary *self = mat_texture_library_load (task_data, cancellable, &error);

  if (self == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, self, g_object_unref);
}

void
mat_texture_library_load_async (GFile               *file,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &load_tag);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
}

MatTextureLibrary *
mat_texture_library_load_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

GFile *
mat_texture_library_get_file (MatTextureLibrary *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), NULL);
  return self->file;
}

MatTexture *
mat_texture_library_lookup (MatTextureLibrary *self,
                            const char        *name)
{
  guint8 field[NRES_NAME_SIZE];
  gint index;

  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (!cp1251_from_utf8 (name, field, sizeof field, NULL))
    return NULL;
  /* the engine's lookup: sort_index binary search or linear fallback */
  index = nres_archive_find (self->archive, (const char *) field);
  if (index < 0)
    return NULL;
  return g_ptr_array_index (self->by_entry, index);
}

GFile *
mat_texture_library_find_in_folder (GFile        *folder,
                                    GCancellable *cancellable)
{
  g_autoptr(GFileEnumerator) children = NULL;

  g_return_val_if_fail (G_IS_FILE (folder), NULL);

  children = g_file_enumerate_children (folder,
                                        G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                        G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                        G_FILE_QUERY_INFO_NONE, cancellable, NULL);
  if (children == NULL)
    return NULL;

  for (;;)
    {
      GFileInfo *info = NULL;
      GFile *child = NULL;

      if (!g_file_enumerator_iterate (children, &info, &child, cancellable, NULL) || info == NULL)
        return NULL;
      /* The game's files come from a case-insensitive file system. A
       * folder of that name is not a library. */
      if (g_ascii_strcasecmp (g_file_info_get_name (info), "Textures.lib") == 0 &&
          g_file_info_get_file_type (info) != G_FILE_TYPE_DIRECTORY)
        return g_object_ref (child);
    }
}

GFile *
mat_texture_library_find_beside (GFile        *library_file,
                                 GCancellable *cancellable)
{
  g_autoptr(GFile) folder = NULL;

  g_return_val_if_fail (G_IS_FILE (library_file), NULL);

  folder = g_file_get_parent (library_file);
  if (folder == NULL)
    return NULL;
  return mat_texture_library_find_in_folder (folder, cancellable);
}
