/* mat-texture-library.c - the Texm textures of a Textures.lib */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "mat-archive-private.h"
#include "mat-file.h"
#include "mat-model-private.h"
#include "mat-texture-library.h"
#include "nres.h"

/* One directory entry as the library holds it now: a MatArchiveSlot
 * whose item is its MatTexture (Texm entries only). */
typedef MatArchiveSlot Slot;

struct _MatTextureLibrary
{
  MatArchive   parent_instance;

  GPtrArray   *slots;      /* Slot, directory order */
  GPtrArray   *textures;   /* MatTexture, the Texm slots' in order */
};

static void mat_texture_library_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MatTextureLibrary, mat_texture_library, MAT_TYPE_ARCHIVE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      mat_texture_library_list_model_init))

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* GTask source tags: the addresses of variables (a function pointer is
 * no gpointer in ISO C). */
static char create_tag;
static char import_tag;

/* ---- slots ------------------------------------------------------------- */

static MatTexture *
slot_texture (const Slot *slot)
{
  return (MatTexture *) slot->item;
}

static char *
slot_name (const Slot *slot)
{
  return cp1251_to_utf8 ((const guint8 *) slot->entry.name, NRES_NAME_SIZE);
}

/* The texture's position in the list model, or -1. */
static gint
texture_position (MatTextureLibrary *self,
                  MatTexture        *texture)
{
  guint index;

  if (texture == NULL || !g_ptr_array_find (self->textures, texture, &index))
    return -1;
  return (gint) index;
}

static Slot *
slot_of_texture (MatTextureLibrary *self,
                 MatTexture        *texture)
{
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *slot = g_ptr_array_index (self->slots, i);

      if (slot_texture (slot) == texture)
        return slot;
    }
  return NULL;
}

/* ---- GListModel ------------------------------------------------------- */

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

/* ---- GObject ---------------------------------------------------------- */

static MatHistory *
history_of (MatTextureLibrary *self)
{
  return mat_archive_get_history (MAT_ARCHIVE (self));
}

static gboolean texture_library_load (MatArchive *archive, GError **error);
static MatSavePlan *texture_library_plan_save (MatArchive *archive);
static GPtrArray *texture_library_snapshot (MatArchive *archive);

static void
mat_texture_library_finalize (GObject *object)
{
  MatTextureLibrary *self = MAT_TEXTURE_LIBRARY (object);

  g_clear_pointer (&self->slots, g_ptr_array_unref);
  g_clear_pointer (&self->textures, g_ptr_array_unref);

  G_OBJECT_CLASS (mat_texture_library_parent_class)->finalize (object);
}

static void
mat_texture_library_class_init (MatTextureLibraryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  MatArchiveClass *archive_class = MAT_ARCHIVE_CLASS (klass);

  object_class->finalize = mat_texture_library_finalize;

  archive_class->draft_kind = MAT_DRAFT_KIND_TEXTURES;
  archive_class->load = texture_library_load;
  archive_class->plan_save = texture_library_plan_save;
  archive_class->snapshot = texture_library_snapshot;
  archive_class->rebase = _mat_archive_rebase_slots;

  /**
   * MatTextureLibrary::changed:
   * @texture: the texture added, replaced or given new rectangles
   *
   * After every edit, undo and redo: views that draw textures look again.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, MAT_TYPE_TEXTURE);
}

static void
mat_texture_library_init (MatTextureLibrary *self)
{
  self->slots = g_ptr_array_new_with_free_func (_mat_archive_slot_unref);
  self->textures = g_ptr_array_new_with_free_func (g_object_unref);
}

/* Every entry of the base as a slot, a texture for each Texm entry. */
static gboolean
texture_library_load (MatArchive  *archive,
                      GError     **error)
{
  MatTextureLibrary *self = MAT_TEXTURE_LIBRARY (archive);

  g_clear_pointer (&self->slots, g_ptr_array_unref);
  g_ptr_array_set_size (self->textures, 0);
  self->slots = _mat_archive_dup_base_slots (archive);
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *slot = g_ptr_array_index (self->slots, i);

      if (slot->entry.type_id == NRES_TYPE_TEXM)
        {
          g_autofree char *name = slot_name (slot);

          slot->item = G_OBJECT (_mat_texture_new (name, slot->payload, slot->entry.data_offset));
          g_ptr_array_add (self->textures, g_object_ref (slot_texture (slot)));
        }
    }

  return TRUE;
}

MatTextureLibrary *
mat_texture_library_new_from_bytes (GBytes  *bytes,
                                    GError **error)
{
  return MAT_TEXTURE_LIBRARY (_mat_archive_new_from_bytes (MAT_TYPE_TEXTURE_LIBRARY, bytes, error));
}

MatTextureLibrary *
mat_texture_library_new_restored (GBytes      *bytes,
                                  GFile       *file,
                                  const char  *etag,
                                  GError     **error)
{
  return MAT_TEXTURE_LIBRARY (_mat_archive_new_restored (MAT_TYPE_TEXTURE_LIBRARY, bytes, file,
                                                         etag, error));
}

/* The 16 bytes of an archive with no entry: magic, version, count 0,
 * total size 16. */
static GBytes *
empty_archive_bytes (void)
{
  static const guint8 header[NRES_HEADER_SIZE] = {
    'N', 'R', 'e', 's', 0x00, 0x01, 0x00, 0x00, 0, 0, 0, 0, NRES_HEADER_SIZE, 0, 0, 0,
  };

  return g_bytes_new_static (header, sizeof header);
}

MatTextureLibrary *
mat_texture_library_new_empty (void)
{
  g_autoptr(GBytes) bytes = empty_archive_bytes ();
  g_autoptr(GError) error = NULL;
  MatTextureLibrary *self = mat_texture_library_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  return self;
}

/* ---- loading ---------------------------------------------------------- */

MatTextureLibrary *
mat_texture_library_load (GFile         *file,
                          GCancellable  *cancellable,
                          GError       **error)
{
  return MAT_TEXTURE_LIBRARY (_mat_archive_load (MAT_TYPE_TEXTURE_LIBRARY, file, cancellable,
                                                 error));
}

void
mat_texture_library_load_async (GFile               *file,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  _mat_archive_load_async (MAT_TYPE_TEXTURE_LIBRARY, file, cancellable, callback, user_data);
}

MatTextureLibrary *
mat_texture_library_load_finish (GAsyncResult  *result,
                                 GError       **error)
{
  return MAT_TEXTURE_LIBRARY (_mat_archive_load_finish (result, error));
}

static void
create_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GFile *file = task_data;
  g_autoptr(GBytes) bytes = empty_archive_bytes ();
  g_autoptr(GFileOutputStream) stream = NULL;
  GError *error = NULL;
  MatTextureLibrary *self;
  gsize written = 0;

  /* never over a file that is there: the creation itself is exclusive */
  stream = g_file_create (file, G_FILE_CREATE_NONE, cancellable, &error);
  if (stream == NULL ||
      !g_output_stream_write_all (G_OUTPUT_STREAM (stream), g_bytes_get_data (bytes, NULL),
                                  g_bytes_get_size (bytes), &written, cancellable, &error) ||
      !g_output_stream_close (G_OUTPUT_STREAM (stream), cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  self = mat_texture_library_load (file, cancellable, &error);
  if (self == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, self, g_object_unref);
}

void
mat_texture_library_create_async (GFile               *file,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &create_tag);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, create_thread);
}

MatTextureLibrary *
mat_texture_library_create_finish (GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- queries ---------------------------------------------------------- */

GFile *
mat_texture_library_get_file (MatTextureLibrary *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), NULL);
  return mat_archive_get_file (MAT_ARCHIVE (self));
}

const char *
mat_texture_library_get_etag (MatTextureLibrary *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), NULL);
  return mat_archive_get_etag (MAT_ARCHIVE (self));
}

MatHistory *
mat_texture_library_get_history (MatTextureLibrary *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), NULL);
  return history_of (self);
}

gboolean
mat_texture_library_get_dirty (MatTextureLibrary *self)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), FALSE);
  return mat_archive_get_dirty (MAT_ARCHIVE (self));
}

/* Whether the slots are the base's entries, in order, none added. */
static gboolean
slots_are_base (MatTextureLibrary *self)
{
  MatArchive *archive = MAT_ARCHIVE (self);

  if (self->slots->len != _mat_archive_get_base (archive)->n_entries)
    return FALSE;
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *slot = g_ptr_array_index (self->slots, i);

      if (slot->source != (gint) i || !_mat_archive_slot_in_base (archive, slot))
        return FALSE;
      /* a renamed entry is not where the base's sort_index has it */
      if (memcmp (slot->entry.name, _mat_archive_get_base (archive)->entries[i].name,
                  NRES_NAME_SIZE) != 0)
        return FALSE;
    }
  return TRUE;
}

/* The slot named @field (CP1251, NUL-terminated), as the engine looks it
 * up: through the base's sort_index while no entry was added, removed or
 * renamed, else the first of that name (a new name is unique: imports
 * replace, renames are checked). */
static Slot *
find_slot (MatTextureLibrary *self,
           const char        *field)
{
  if (slots_are_base (self))
    {
      gint index = nres_archive_find (_mat_archive_get_base (MAT_ARCHIVE (self)), field);

      return index >= 0 ? g_ptr_array_index (self->slots, index) : NULL;
    }
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *slot = g_ptr_array_index (self->slots, i);

      if (cp1251_name_compare (slot->entry.name, field) == 0)
        return slot;
    }
  return NULL;
}

MatTexture *
mat_texture_library_lookup (MatTextureLibrary *self,
                            const char        *name)
{
  guint8 field[NRES_NAME_SIZE];
  Slot *slot;

  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (!cp1251_from_utf8 (name, field, sizeof field, NULL))
    return NULL;
  slot = find_slot (self, (const char *) field);
  return slot != NULL ? slot_texture (slot) : NULL;
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

/* ---- commands --------------------------------------------------------- */

/* Adding an entry at the end of the directory. */
typedef struct {
  MatCommand         parent;
  MatTextureLibrary *library;   /* not a reference: the history is the library's */
  Slot              *slot;
} AddCommand;

static void
add_run (MatCommand *cmd,
         gboolean    undo)
{
  AddCommand *add = (AddCommand *) cmd;
  MatTextureLibrary *self = add->library;
  guint position = self->textures->len;

  if (!undo)
    {
      g_ptr_array_add (self->slots, _mat_archive_slot_ref (add->slot));
      g_ptr_array_add (self->textures, g_object_ref (slot_texture (add->slot)));
      g_list_model_items_changed (G_LIST_MODEL (self), position, 0, 1);
    }
  else
    {
      /* additions are undone last first: it is the last entry */
      g_assert (self->slots->len > 0 &&
                g_ptr_array_index (self->slots, self->slots->len - 1) == add->slot);
      g_assert (position > 0 && g_ptr_array_index (self->textures, position - 1) == slot_texture (add->slot));
      g_ptr_array_remove_index (self->textures, position - 1);
      g_ptr_array_remove_index (self->slots, self->slots->len - 1);
      g_list_model_items_changed (G_LIST_MODEL (self), position - 1, 1, 0);
    }
  g_signal_emit (self, signals[CHANGED], 0, slot_texture (add->slot));
}

static void
add_free (MatCommand *cmd)
{
  g_clear_pointer (&((AddCommand *) cmd)->slot, _mat_archive_slot_unref);
}

static const MatCommandClass add_class = { add_run, add_free, NULL };

/* A payload swap: the command holds the payload the slot does not. */
typedef struct {
  MatCommand         parent;
  MatTextureLibrary *library;
  Slot              *slot;
  GBytes            *payload;
} PayloadCommand;

static void
payload_run (MatCommand *cmd,
             gboolean    undo)
{
  PayloadCommand *swap = (PayloadCommand *) cmd;
  MatTextureLibrary *self = swap->library;
  GBytes *held = swap->payload;
  gint position;

  swap->payload = swap->slot->payload;
  swap->slot->payload = held;
  _mat_texture_set_payload (slot_texture (swap->slot), held,
                            _mat_archive_slot_offset (MAT_ARCHIVE (self), swap->slot));
  position = texture_position (self, slot_texture (swap->slot));
  if (position >= 0)
    g_list_model_items_changed (G_LIST_MODEL (self), (guint) position, 1, 1);
  g_signal_emit (self, signals[CHANGED], 0, slot_texture (swap->slot));
}

static void
payload_free (MatCommand *cmd)
{
  PayloadCommand *swap = (PayloadCommand *) cmd;

  g_clear_pointer (&swap->slot, _mat_archive_slot_unref);
  g_clear_pointer (&swap->payload, g_bytes_unref);
}

/* Within a group a later swap of the same slot adds nothing: the first
 * one holds the payload from before the group. */
static gboolean
payload_merge (MatCommand       *cmd,
               const MatCommand *next)
{
  return ((PayloadCommand *) cmd)->slot == ((const PayloadCommand *) next)->slot;
}

static const MatCommandClass payload_class = { payload_run, payload_free, payload_merge };

static void
push_payload (MatTextureLibrary *self,
              Slot              *slot,
              GBytes            *payload,
              const char        *label)
{
  PayloadCommand *cmd = _mat_command_new (&payload_class, sizeof *cmd, label);

  cmd->library = self;
  cmd->slot = _mat_archive_slot_ref (slot);
  cmd->payload = g_bytes_ref (payload);
  _mat_history_push (history_of (self), &cmd->parent);
}

/* ---- edits ------------------------------------------------------------ */

gboolean
mat_texture_library_check_import_name (MatTextureLibrary  *self,
                                       const char         *name,
                                       MatTexture        **existing,
                                       GError            **error)
{
  guint8 field[NRES_NAME_SIZE] = { 0 };
  Slot *slot;

  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (existing != NULL)
    *existing = NULL;
  if (!texm_check_texture_name (name, field, error))
    return FALSE;
  slot = find_slot (self, (const char *) field);
  if (slot != NULL && slot_texture (slot) == NULL)
    {
      g_autofree char *stored = slot_name (slot);
      guint index;

      g_ptr_array_find (self->slots, slot, &index);
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN,
                   _("texture name “%s”: expected a new name or a texture’s, found entry %u "
                     "“%s”, which is no texture"),
                   name, index, stored);
      return FALSE;
    }
  if (existing != NULL && slot != NULL)
    *existing = slot_texture (slot);
  return TRUE;
}

MatTexture *
mat_texture_library_import_payload (MatTextureLibrary *self,
                                    const char        *name,
                                    GBytes            *payload,
                                    GError           **error)
{
  guint8 field[NRES_NAME_SIZE] = { 0 };
  g_autoptr(TexmImage) image = NULL;
  MatTexture *existing = NULL;
  AddCommand *cmd;
  Slot *slot;

  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (payload != NULL, NULL);

  if (!mat_texture_library_check_import_name (self, name, &existing, error))
    return NULL;
  image = texm_parse (payload, name, 0, error);
  if (image == NULL)
    return NULL;

  if (existing != NULL)
    {
      g_autoptr(GBytes) kept = NULL;

      slot = slot_of_texture (self, existing);
      g_assert (slot != NULL);
      /* a replace keeps the header's flags5 and unk6 (formats.md 3) */
      kept = texm_keep_replaced_flags (payload, slot->payload);
      if (!g_bytes_equal (slot->payload, kept))
        push_payload (self, slot, kept, _("Replace Texture"));
      return existing;
    }

  texm_check_texture_name (name, field, NULL);
  slot = _mat_archive_slot_new ();
  slot->entry.type_id = NRES_TYPE_TEXM;
  memcpy (slot->entry.name, field, sizeof field);
  slot->payload = g_bytes_ref (payload);
  {
    g_autofree char *stored = slot_name (slot);

    slot->item = G_OBJECT (_mat_texture_new (stored, payload, 0));
  }

  cmd = _mat_command_new (&add_class, sizeof *cmd, _("Import Texture"));
  cmd->library = self;
  cmd->slot = slot;
  _mat_history_push (history_of (self), &cmd->parent);
  return slot_texture (slot);
}

MatTexture *
mat_texture_library_import (MatTextureLibrary       *self,
                            const char              *name,
                            const guint8            *rgba,
                            guint                    width,
                            guint                    height,
                            gsize                    stride,
                            const TexmEncodeOptions *options,
                            TexmEncodeResult        *result,
                            GError                 **error)
{
  g_autoptr(GBytes) payload = NULL;

  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  /* the name first: a refused name costs no encoding */
  if (!mat_texture_library_check_import_name (self, name, NULL, error))
    return NULL;
  payload = texm_encode (rgba, width, height, stride, options, result, error);
  if (payload == NULL)
    return NULL;
  return mat_texture_library_import_payload (self, name, payload, error);
}

typedef struct {
  char              *name;
  GBytes            *rgba;
  guint              width;
  guint              height;
  gsize              stride;
  TexmEncodeOptions  options;
  guint8            *palette;   /* owned copies of what options point at */
  TexmRect          *rects;
  GBytes            *payload;   /* the thread's answer */
  TexmEncodeResult   result;
} ImportData;

static void
import_data_free (gpointer data)
{
  ImportData *import = data;

  g_free (import->name);
  g_clear_pointer (&import->rgba, g_bytes_unref);
  g_free (import->palette);
  g_free (import->rects);
  g_clear_pointer (&import->payload, g_bytes_unref);
  g_free (import);
}

static void
import_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ImportData *import = task_data;
  GError *error = NULL;

  import->payload = texm_encode (g_bytes_get_data (import->rgba, NULL), import->width,
                                 import->height, import->stride, &import->options,
                                 &import->result, &error);
  if (import->payload == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Back on the main thread: the payload is stored as one undo step. */
static void
import_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  MatTextureLibrary *self = MAT_TEXTURE_LIBRARY (object);
  ImportData *import = g_task_get_task_data (G_TASK (result));
  GError *error = NULL;
  MatTexture *texture;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_error (task, error);
      return;
    }
  texture = mat_texture_library_import_payload (self, import->name, import->payload, &error);
  if (texture == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_set_task_data (task, g_memdup2 (&import->result, sizeof import->result), g_free);
  g_task_return_pointer (task, g_object_ref (texture), g_object_unref);
}

void
mat_texture_library_import_async (MatTextureLibrary       *self,
                                  const char              *name,
                                  GBytes                  *rgba,
                                  guint                    width,
                                  guint                    height,
                                  gsize                    stride,
                                  const TexmEncodeOptions *options,
                                  GCancellable            *cancellable,
                                  GAsyncReadyCallback      callback,
                                  gpointer                 user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) inner = NULL;
  GError *error = NULL;
  ImportData *import;
  gsize row;

  g_return_if_fail (MAT_IS_TEXTURE_LIBRARY (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (rgba != NULL);
  g_return_if_fail (options != NULL);
  g_return_if_fail (options->n_rects == 0 || options->rects != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, &import_tag);
  if (!mat_texture_library_check_import_name (self, name, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  /* the encoder reads @stride bytes a row but only 4 * @width of the last */
  row = stride != 0 ? stride : (gsize) width * 4;
  /* (an empty picture is the encoder's to refuse, by its size) */
  if (width > 0 && height > 0 &&
      g_bytes_get_size (rgba) < row * (height - 1) + (gsize) width * 4)
    {
      gsize needed = row * (height - 1) + (gsize) width * 4;
      g_autofree char *expected = mat_file_format_count (needed);
      g_autofree char *found = mat_file_format_count (g_bytes_get_size (rgba));

      /* Translators: byte counts; a picture with fewer bytes than its rows */
      g_task_return_new_error (task, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE,
                               _("the picture is %u×%u: expected %s bytes of pixels, found %s"),
                               width, height, expected, found);
      return;
    }

  import = g_new0 (ImportData, 1);
  import->name = g_strdup (name);
  import->rgba = g_bytes_ref (rgba);
  import->width = width;
  import->height = height;
  import->stride = stride;
  import->options = *options;
  if (options->palette != NULL)
    import->options.palette = import->palette = g_memdup2 (options->palette, TEXM_PALETTE_SIZE);
  if (options->n_rects > 0)
    import->options.rects = import->rects = g_memdup2 (options->rects,
                                                       options->n_rects * sizeof (TexmRect));

  inner = g_task_new (self, cancellable, import_done_cb, g_steal_pointer (&task));
  g_task_set_task_data (inner, import, import_data_free);
  g_task_run_in_thread (inner, import_thread);
}

MatTexture *
mat_texture_library_import_finish (MatTextureLibrary  *self,
                                   GAsyncResult       *result,
                                   TexmEncodeResult   *encoded,
                                   GError            **error)
{
  g_autoptr(MatTexture) texture = NULL;

  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  texture = g_task_propagate_pointer (G_TASK (result), error);
  if (texture == NULL)
    return NULL;
  if (encoded != NULL)
    *encoded = *(const TexmEncodeResult *) g_task_get_task_data (G_TASK (result));
  return g_steal_pointer (&texture);
}

static gboolean
rect_equal (const TexmRect *a,
            const TexmRect *b)
{
  return a->x == b->x && a->w == b->w && a->y == b->y && a->h == b->h;
}

gboolean
mat_texture_library_set_page_rects (MatTextureLibrary *self,
                                    MatTexture        *texture,
                                    const TexmRect    *rects,
                                    guint              n_rects,
                                    GError           **error)
{
  const TexmImage *image;
  TexmImage edited;
  g_autoptr(GBytes) payload = NULL;
  const TexmRect *old_rects;
  guint n_old = 0;
  gboolean has_page = FALSE;
  Slot *slot;

  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), FALSE);
  g_return_val_if_fail (MAT_IS_TEXTURE (texture), FALSE);
  g_return_val_if_fail (n_rects == 0 || rects != NULL, FALSE);

  slot = slot_of_texture (self, texture);
  image = mat_texture_get_image (texture);
  if (slot == NULL || image == NULL)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                   slot == NULL ? _("%s: expected a texture of this library, found another’s")
                                : _("%s: expected a texture that parses, found one that does not"),
                   mat_texture_get_name (texture));
      return FALSE;
    }
  /* the Page chunk counts its rectangles in a u32; its payload is
   * bounded by the u32 entry size */
  if (n_rects > (G_MAXUINT32 - 8 - g_bytes_get_size (slot->payload)) / sizeof (TexmRect))
    {
      g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_CELL,
                   _("%s: expected a Page table that fits an entry, found %u rectangles"),
                   mat_texture_get_name (texture), n_rects);
      return FALSE;
    }

  old_rects = mat_texture_get_rects (texture, &n_old, &has_page);
  for (guint i = 0; i < n_rects; i++)
    if (i >= n_old || !rect_equal (&rects[i], &old_rects[i]))
      {
        g_autoptr(GError) local = NULL;

        if (!texm_check_cells (image->header.width, image->header.height, &rects[i], 1, &local))
          {
            /* the core numbers the one cell it saw 0: name the real one */
            g_set_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_CELL,
                         _("%s: rectangle %u (x %d, w %d, y %d, h %d): expected a rectangle "
                           "inside the %u×%u texture with a positive size"),
                         mat_texture_get_name (texture), i, rects[i].x, rects[i].w, rects[i].y,
                         rects[i].h, image->header.width, image->header.height);
            return FALSE;
          }
      }
  if (has_page && n_rects == n_old &&
      (n_rects == 0 || memcmp (rects, old_rects, n_rects * sizeof *rects) == 0))
    return TRUE;

  edited = *image;
  edited.has_page = TRUE;
  edited.rects = (TexmRect *) rects;
  edited.n_rects = n_rects;
  payload = texm_write (&edited);
  g_return_val_if_fail (payload != NULL, FALSE);
  push_payload (self, slot, payload, _("Change Cells"));
  return TRUE;
}

/* ---- renaming and removing --------------------------------------------- */

/* A name swap: the command holds the name field and the texture name the
 * slot does not. */
typedef struct {
  MatCommand         parent;
  MatTextureLibrary *library;
  Slot              *slot;
  char               field[NRES_NAME_SIZE];
  char              *name;
} RenameCommand;

static void
rename_run (MatCommand *cmd,
            gboolean    undo)
{
  RenameCommand *swap = (RenameCommand *) cmd;
  MatTexture *texture = slot_texture (swap->slot);
  char field[NRES_NAME_SIZE];
  g_autofree char *name = g_strdup (mat_texture_get_name (texture));

  memcpy (field, swap->slot->entry.name, NRES_NAME_SIZE);
  memcpy (swap->slot->entry.name, swap->field, NRES_NAME_SIZE);
  memcpy (swap->field, field, NRES_NAME_SIZE);
  _mat_texture_set_name (texture, swap->name);
  g_free (swap->name);
  swap->name = g_steal_pointer (&name);
  g_signal_emit (swap->library, signals[CHANGED], 0, texture);
}

static void
rename_free (MatCommand *cmd)
{
  RenameCommand *swap = (RenameCommand *) cmd;

  g_clear_pointer (&swap->slot, _mat_archive_slot_unref);
  g_clear_pointer (&swap->name, g_free);
}

static const MatCommandClass rename_class = { rename_run, rename_free, NULL };

/* Taking an entry out of the directory, and putting it back. */
typedef struct {
  MatCommand         parent;
  MatTextureLibrary *library;
  Slot              *slot;
  guint              slot_index;
  guint              position;    /* in the list model */
} RemoveCommand;

static void
remove_run (MatCommand *cmd,
            gboolean    undo)
{
  RemoveCommand *remove = (RemoveCommand *) cmd;
  MatTextureLibrary *self = remove->library;
  MatTexture *texture = slot_texture (remove->slot);

  if (!undo)
    {
      g_assert (g_ptr_array_index (self->slots, remove->slot_index) == remove->slot);
      g_assert (g_ptr_array_index (self->textures, remove->position) == texture);
      /* the texture lives on in the command until it is put back */
      g_object_ref (texture);
      g_ptr_array_remove_index (self->textures, remove->position);
      g_ptr_array_remove_index (self->slots, remove->slot_index);
      g_list_model_items_changed (G_LIST_MODEL (self), remove->position, 1, 0);
    }
  else
    {
      g_ptr_array_insert (self->slots, (gint) remove->slot_index, _mat_archive_slot_ref (remove->slot));
      g_ptr_array_insert (self->textures, (gint) remove->position, g_object_ref (texture));
      g_list_model_items_changed (G_LIST_MODEL (self), remove->position, 0, 1);
    }
  g_signal_emit (self, signals[CHANGED], 0, texture);
  if (!undo)
    g_object_unref (texture);
}

static void
remove_free (MatCommand *cmd)
{
  g_clear_pointer (&((RemoveCommand *) cmd)->slot, _mat_archive_slot_unref);
}

static const MatCommandClass remove_class = { remove_run, remove_free, NULL };

/* The slot of @texture, or %NULL with MAT_MODEL_ERROR_NOT_EDITABLE. */
static Slot *
own_slot (MatTextureLibrary  *self,
          MatTexture         *texture,
          GError            **error)
{
  Slot *slot = slot_of_texture (self, texture);

  if (slot == NULL)
    g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                 _("%s: expected a texture of this library, found another’s"),
                 mat_texture_get_name (texture));
  return slot;
}

gboolean
mat_texture_library_check_rename (MatTextureLibrary  *self,
                                  MatTexture         *texture,
                                  const char         *name,
                                  GError            **error)
{
  guint8 field[NRES_NAME_SIZE] = { 0 };
  Slot *own;

  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), FALSE);
  g_return_val_if_fail (MAT_IS_TEXTURE (texture), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  own = own_slot (self, texture, error);
  if (own == NULL || !texm_check_texture_name (name, field, error))
    return FALSE;
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *slot = g_ptr_array_index (self->slots, i);

      if (slot != own && cp1251_name_compare (slot->entry.name, (const char *) field) == 0)
        {
          g_autofree char *stored = slot_name (slot);

          g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN,
                       _("texture name “%s”: expected a name no other entry has, found entry %u "
                         "“%s”; names do not differ by case alone"),
                       name, i, stored);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
mat_texture_library_rename (MatTextureLibrary  *self,
                            MatTexture         *texture,
                            const char         *name,
                            GError            **error)
{
  guint8 field[NRES_NAME_SIZE] = { 0 };
  RenameCommand *cmd;
  Slot *slot;

  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), FALSE);
  g_return_val_if_fail (MAT_IS_TEXTURE (texture), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!mat_texture_library_check_rename (self, texture, name, error))
    return FALSE;
  slot = slot_of_texture (self, texture);
  texm_check_texture_name (name, field, NULL);
  if (memcmp (slot->entry.name, field, NRES_NAME_SIZE) == 0)
    return TRUE;

  cmd = _mat_command_new (&rename_class, sizeof *cmd, _("Rename Texture"));
  cmd->library = self;
  cmd->slot = _mat_archive_slot_ref (slot);
  memcpy (cmd->field, field, NRES_NAME_SIZE);
  {
    /* as it reads back from the field: the name a texture has */
    g_autofree char *stored = cp1251_to_utf8 (field, NRES_NAME_SIZE);

    cmd->name = g_steal_pointer (&stored);
  }
  _mat_history_push (history_of (self), &cmd->parent);
  return TRUE;
}

gboolean
mat_texture_library_remove (MatTextureLibrary  *self,
                            MatTexture         *texture,
                            GError            **error)
{
  RemoveCommand *cmd;
  Slot *slot;
  guint slot_index = 0;

  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), FALSE);
  g_return_val_if_fail (MAT_IS_TEXTURE (texture), FALSE);

  slot = own_slot (self, texture, error);
  if (slot == NULL)
    return FALSE;
  g_ptr_array_find (self->slots, slot, &slot_index);

  cmd = _mat_command_new (&remove_class, sizeof *cmd, _("Delete Texture"));
  cmd->library = self;
  cmd->slot = _mat_archive_slot_ref (slot);
  cmd->slot_index = slot_index;
  cmd->position = (guint) texture_position (self, texture);
  _mat_history_push (history_of (self), &cmd->parent);
  return TRUE;
}

/* ---- saving ----------------------------------------------------------- */

/* What a save writes now: every slot with its source in the base and
 * its payload, over the base. */
static MatSavePlan *
texture_library_plan_save (MatArchive *archive)
{
  return _mat_archive_plan_slots (archive, MAT_TEXTURE_LIBRARY (archive)->slots);
}

/* The slots the bytes hold, in order: the rebase points them at the
 * written file. */
static GPtrArray *
texture_library_snapshot (MatArchive *archive)
{
  return _mat_archive_snapshot_slots (MAT_TEXTURE_LIBRARY (archive)->slots);
}

GBytes *
mat_texture_library_save_to_bytes (MatTextureLibrary  *self,
                                   GError            **error)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), NULL);

  return mat_archive_save_to_bytes (MAT_ARCHIVE (self), error);
}

void
mat_texture_library_save_async (MatTextureLibrary   *self,
                                GFile               *file,
                                MatSaveFlags         flags,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (MAT_IS_TEXTURE_LIBRARY (self));

  mat_archive_save_async (MAT_ARCHIVE (self), file, flags, cancellable, callback, user_data);
}

gboolean
mat_texture_library_save_finish (MatTextureLibrary  *self,
                                 GAsyncResult       *result,
                                 MatSaveNotes       *notes,
                                 GError            **error)
{
  g_return_val_if_fail (MAT_IS_TEXTURE_LIBRARY (self), FALSE);

  return mat_archive_save_finish (MAT_ARCHIVE (self), result, notes, error);
}
