/* mat-library.c - a material library (an NRes archive) as a GListModel */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "mat0-validate.h"

#include "mat-model-private.h"

struct _MatLibrary
{
  GObject      parent_instance;

  NresArchive *archive;       /* the base: as loaded or last saved */
  guint        generation;    /* bumped when the base changes */
  GPtrArray   *items;         /* MatMaterial */
  GFile       *file;
  char        *etag;
  MatHistory  *history;
  guint64      saved_state;
  gboolean     dirty;
  GPtrArray   *diagnostics;   /* cache, %NULL when stale */
  guint        removed_temporaries;   /* found at the load */
};

static void mat_library_list_model_init (GListModelInterface *iface);
static void mat_library_draftable_init (MatDraftableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MatLibrary, mat_library, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      mat_library_list_model_init)
                               G_IMPLEMENT_INTERFACE (MAT_TYPE_DRAFTABLE,
                                                      mat_library_draftable_init))

enum {
  PROP_0,
  PROP_FILE,
  PROP_DIRTY,
  PROP_HISTORY,
  PROP_N_ITEMS,
  PROP_ETAG,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* GTask source tags (function pointers are not data pointers in ISO C). */
static char load_tag[] = "mat_library_load_async";
static char save_tag[] = "mat_library_save_async";

static GType
mat_library_get_item_type (GListModel *model)
{
  return MAT_TYPE_MATERIAL;
}

static guint
mat_library_get_n_items (GListModel *model)
{
  return MAT_LIBRARY (model)->items->len;
}

static gpointer
mat_library_get_item (GListModel *model,
                      guint       position)
{
  MatLibrary *self = MAT_LIBRARY (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
mat_library_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = mat_library_get_item_type;
  iface->get_n_items = mat_library_get_n_items;
  iface->get_item = mat_library_get_item;
}

static void
update_dirty (MatLibrary *self)
{
  gboolean dirty = _mat_history_get_state (self->history) != self->saved_state;

  if (dirty != self->dirty)
    {
      self->dirty = dirty;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRTY]);
    }
}

static void
history_changed_cb (MatLibrary *self,
                    MatHistory *history)
{
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  update_dirty (self);
}

/* Takes @archive. */
static MatLibrary *
library_new (NresArchive *archive)
{
  MatLibrary *self = g_object_new (MAT_TYPE_LIBRARY, NULL);

  self->archive = archive;
  self->generation = 1;
  g_ptr_array_set_size (self->items, 0);
  for (guint i = 0; i < archive->n_entries; i++)
    {
      g_autoptr(GBytes) payload = nres_archive_payload_bytes (archive, i);
      MatMaterial *material = _mat_material_new_from_entry (&archive->entries[i], (gint) i,
                                                            self->generation, payload);

      _mat_material_set_library (material, self);
      g_ptr_array_add (self->items, material);
    }

  return self;
}

MatLibrary *
mat_library_new_from_bytes (GBytes  *bytes,
                            GError **error)
{
  NresArchive *archive;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  archive = nres_archive_parse (bytes, error);
  if (archive == NULL)
    return NULL;

  return library_new (archive);
}

MatLibrary *
mat_library_new_restored (GBytes      *bytes,
                          GFile       *file,
                          const char  *etag,
                          GError     **error)
{
  MatLibrary *self;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = mat_library_new_from_bytes (bytes, error);
  if (self == NULL)
    return NULL;
  self->file = g_object_ref (file);
  self->etag = g_strdup (etag);
  /* no state of the history is the saved one: unsaved until a save */
  self->saved_state = G_MAXUINT64;
  update_dirty (self);
  return self;
}

/* Returns: (transfer full): the local path of @file, or %NULL with @error. */

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GFile *file = task_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *etag = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *path = NULL;
  NresArchive *archive = NULL;
  MatLibrary *self;

  path = mat_file_get_local_path (file, &error);
  /* only what the directory names: unindexed gigabytes are not read */
  if (path != NULL)
    archive = mat_file_read_archive (path, &etag, &summary, cancellable, &error);
  if (archive != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (path);

      self = library_new (archive);
      /* a material of many keys is decoded here, not in the main loop
       * when the list first shows it */
      for (guint i = 0; i < self->items->len; i++)
        _mat_material_prepare (g_ptr_array_index (self->items, i));
      self->file = g_object_ref (file);
      self->etag = g_steal_pointer (&etag);
      /* what killed saves left beside it, unless a save still runs */
      self->removed_temporaries = mat_file_remove_stale_temporaries (dir, NULL);
      g_task_return_pointer (task, self, g_object_unref);
      return;
    }

  /* First what is wrong in plain words, then the exact detail. */
  if (summary != NULL)
    {
      GError *combined = g_error_new (error->domain, error->code, "%s\n%s",
                                      summary, error->message);

      g_task_return_error (task, combined);
      return;
    }
  g_task_return_error (task, g_steal_pointer (&error));
}

void
mat_library_load_async (GFile               *file,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, load_tag);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
}

MatLibrary *
mat_library_load_finish (GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* What a save writes now: every entry with its source in the base and
 * its new payload (the decoded materials encoded), over the base. */
static MatSavePlan *
plan_save (MatLibrary *self)
{
  guint n = self->items->len;
  NresOutEntry *out = g_new0 (NresOutEntry, n > 0 ? n : 1);

  for (guint i = 0; i < n; i++)
    {
      MatMaterial *material = g_ptr_array_index (self->items, i);

      out[i].source = _mat_material_get_source (material, self->generation);
      out[i].entry = *_mat_material_get_entry (material);
      out[i].payload = _mat_material_dup_payload (material, self->generation);
    }

  return _mat_save_plan_new (self->archive, out, n);
}

static GBytes *
build_bytes (MatLibrary  *self,
             GError     **error)
{
  g_autoptr(MatSavePlan) plan = plan_save (self);

  return mat_save_plan_write (plan, error);
}

GBytes *
mat_library_save_to_bytes (MatLibrary  *self,
                           GError     **error)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return build_bytes (self, error);
}

typedef struct {
  GFile        *file;
  GBytes       *bytes;
  GPtrArray    *snapshot;   /* the items the bytes hold, in order */
  guint64       state;
} SaveData;

static void
save_data_free (gpointer data)
{
  SaveData *save = data;

  g_clear_object (&save->file);
  g_clear_pointer (&save->bytes, g_bytes_unref);
  g_clear_pointer (&save->snapshot, g_ptr_array_unref);
  g_free (save);
}

/* Back on the main thread: the written bytes become the new base. */
static void
save_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  MatLibrary *self = g_task_get_source_object (task);
  SaveData *save = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *new_etag = NULL;
  MatSaveNotes notes = MAT_SAVE_NOTE_NONE;
  NresArchive *archive;
  gboolean file_changed;

  if (!mat_file_replace_finish (result, &new_etag, &notes, &error))
    {
      /* Nothing changed: the library keeps its edits, its base, its file
       * and its unsaved state. */
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  archive = nres_archive_parse (save->bytes, &error);
  if (archive == NULL)
    {
      /* The writer produced a file its own reader refuses: a bug. */
      g_critical ("Saved library does not parse: %s", error->message);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  self->generation++;
  for (guint i = 0; i < save->snapshot->len; i++)
    _mat_material_rebase (g_ptr_array_index (save->snapshot, i), archive, i,
                          self->generation);
  g_clear_pointer (&self->archive, nres_archive_free);
  self->archive = archive;

  file_changed = self->file == NULL || !g_file_equal (self->file, save->file);
  g_set_object (&self->file, save->file);
  g_free (self->etag);
  self->etag = g_steal_pointer (&new_etag);
  self->saved_state = save->state;
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);

  if (file_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ETAG]);
  update_dirty (self);

  g_task_return_int (task, notes);
}

void
mat_library_save_async (MatLibrary          *self,
                        GFile               *file,
                        MatSaveFlags         flags,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  const char *etag = NULL;
  SaveData *save;

  g_return_if_fail (MAT_IS_LIBRARY (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, save_tag);

  if (file == NULL)
    file = self->file;
  if (file == NULL)
    {
      g_task_return_new_error (task, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NO_FILE,
                               _("The library has no file to save to yet"));
      return;
    }

  save = g_new0 (SaveData, 1);
  save->file = g_object_ref (file);
  save->snapshot = g_ptr_array_new_full (self->items->len, g_object_unref);
  for (guint i = 0; i < self->items->len; i++)
    g_ptr_array_add (save->snapshot, g_object_ref (g_ptr_array_index (self->items, i)));
  save->state = _mat_history_get_state (self->history);
  g_task_set_task_data (task, save, save_data_free);

  save->bytes = build_bytes (self, &error);
  if (save->bytes == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Over its own file, the version it was loaded (or last saved) as. */
  if (self->file != NULL && g_file_equal (file, self->file))
    etag = self->etag;
  mat_file_replace_async (file, save->bytes, etag, flags, cancellable, save_done_cb,
                          g_steal_pointer (&task));
}

guint
mat_library_get_removed_temporaries (MatLibrary *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), 0);

  return self->removed_temporaries;
}

gboolean
mat_library_save_finish (MatLibrary    *self,
                         GAsyncResult  *result,
                         MatSaveNotes  *notes,
                         GError       **error)
{
  gssize value;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* the notes, or -1 with the error */
  value = g_task_propagate_int (G_TASK (result), error);
  if (value < 0)
    return FALSE;
  if (notes != NULL)
    *notes = (MatSaveNotes) value;
  return TRUE;
}

GFile *
mat_library_get_file (MatLibrary *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);

  return self->file;
}

const char *
mat_library_get_etag (MatLibrary *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);

  return self->etag;
}

gboolean
mat_library_get_dirty (MatLibrary *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), FALSE);

  return self->dirty;
}

MatHistory *
mat_library_get_history (MatLibrary *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);

  return self->history;
}

MatHistory *
_mat_library_get_history (MatLibrary *self)
{
  return self->history;
}

MatMaterial *
mat_library_get_material (MatLibrary *self,
                          guint       position)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);

  if (position >= self->items->len)
    return NULL;

  return g_ptr_array_index (self->items, position);
}

MatMaterial *
mat_library_find (MatLibrary *self,
                  const char *name)
{
  NresEntry probe;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (!nres_entry_set_name (&probe, name, NULL))
    return NULL;

  for (guint i = 0; i < self->items->len; i++)
    {
      MatMaterial *material = g_ptr_array_index (self->items, i);

      if (cp1251_name_compare (probe.name, _mat_material_get_entry (material)->name) == 0)
        return material;
    }

  return NULL;
}

gint
mat_library_index_of (MatLibrary  *self,
                      MatMaterial *material)
{
  guint index;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), -1);
  g_return_val_if_fail (MAT_IS_MATERIAL (material), -1);

  if (!g_ptr_array_find (self->items, material, &index))
    return -1;

  return (gint) index;
}

gboolean
_mat_library_check_name (MatLibrary   *self,
                         const char   *name,
                         MatMaterial  *except,
                         char         *raw,
                         GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  NresEntry probe;

  memset (&probe, 0, sizeof probe);
  if (!nres_entry_set_name (&probe, name, &local_error))
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_INVALID,
                   _("“%s” cannot be used as a name: %s"), name, local_error->message);
      return FALSE;
    }

  for (guint i = 0; i < self->items->len; i++)
    {
      MatMaterial *material = g_ptr_array_index (self->items, i);

      if (material != except &&
          cp1251_name_compare (probe.name, _mat_material_get_entry (material)->name) == 0)
        {
          g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN,
                       _("The name “%s” is taken by entry %u (“%s”); names do not differ by case alone"),
                       name, i, mat_material_get_name (material));
          return FALSE;
        }
    }

  memcpy (raw, probe.name, NRES_NAME_SIZE);
  return TRUE;
}

/* Command: insert or remove one material. */
typedef struct {
  MatCommand   parent;
  MatLibrary  *library;    /* not owned: the library owns the history */
  MatMaterial *material;
  guint        position;
  gboolean     remove;
} ItemCommand;

static void
item_run (MatCommand *cmd,
          gboolean    undo)
{
  ItemCommand *self = (ItemCommand *) cmd;
  MatLibrary *library = self->library;

  if (self->remove == undo)
    {
      _mat_material_set_library (self->material, library);
      g_ptr_array_insert (library->items, (gint) self->position, g_object_ref (self->material));
      g_list_model_items_changed (G_LIST_MODEL (library), self->position, 0, 1);
    }
  else
    {
      g_ptr_array_remove_index (library->items, self->position);
      _mat_material_set_library (self->material, NULL);
      g_list_model_items_changed (G_LIST_MODEL (library), self->position, 1, 0);
    }
  g_object_notify_by_pspec (G_OBJECT (library), properties[PROP_N_ITEMS]);
}

static void
item_free (MatCommand *cmd)
{
  ItemCommand *self = (ItemCommand *) cmd;

  g_clear_object (&self->material);
}

static const MatCommandClass item_class = {
  item_run,
  item_free,
  NULL,
};

static void
push_item (MatLibrary  *self,
           MatMaterial *material,
           guint        position,
           gboolean     remove,
           const char  *label)
{
  ItemCommand *cmd = _mat_command_new (&item_class, sizeof (ItemCommand), label);

  cmd->library = self;
  cmd->material = g_object_ref (material);
  cmd->position = position;
  cmd->remove = remove;
  _mat_history_push (self->history, &cmd->parent);
}

void
_mat_library_insert_material (MatLibrary  *self,
                              MatMaterial *material,
                              guint        position,
                              const char  *label)
{
  push_item (self, material, position, FALSE, label);
}

MatMaterial *
mat_library_add_material (MatLibrary  *self,
                          const char  *name,
                          GError     **error)
{
  g_autoptr(Mat0Material) core = NULL;
  g_autoptr(MatMaterial) material = NULL;
  NresEntry entry;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  memset (&entry, 0, sizeof entry);
  if (!_mat_library_check_name (self, name, NULL, entry.name, error))
    return NULL;

  core = mat0_material_new_canonical ();
  entry.type_id = NRES_TYPE_MAT0;
  entry.attr2 = core->attr2;
  material = _mat_material_new_from_core (&entry, core);
  push_item (self, material, self->items->len, FALSE, _("Add Material"));

  return material;
}

MatMaterial *
mat_library_duplicate_material (MatLibrary   *self,
                                MatMaterial  *material,
                                const char   *name,
                                GError      **error)
{
  g_autoptr(Mat0Material) core = NULL;
  g_autoptr(MatMaterial) copy = NULL;
  NresEntry entry;
  gint index;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (MAT_IS_MATERIAL (material), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  index = mat_library_index_of (self, material);
  g_return_val_if_fail (index >= 0, NULL);

  if (!_mat_material_check_editable (material, error))
    return NULL;

  entry = *_mat_material_get_entry (material);
  if (!_mat_library_check_name (self, name, NULL, entry.name, error))
    return NULL;

  core = mat_material_dup_core (material);
  copy = _mat_material_new_from_core (&entry, core);
  push_item (self, copy, (guint) index + 1, FALSE, _("Duplicate Material"));

  return copy;
}

MatMaterial *
mat_library_add_copy (MatLibrary   *self,
                      MatMaterial  *source,
                      GError      **error)
{
  g_autoptr(Mat0Material) core = NULL;
  g_autoptr(MatMaterial) copy = NULL;
  NresEntry entry;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (MAT_IS_MATERIAL (source), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (mat_material_get_type_id (source) != NRES_TYPE_MAT0 || !mat_material_get_editable (source))
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                   _("“%s” is not a material that decodes and cannot be copied"),
                   mat_material_get_name (source));
      return NULL;
    }

  entry = *_mat_material_get_entry (source);
  if (!_mat_library_check_name (self, mat_material_get_name (source), NULL, entry.name, error))
    return NULL;

  core = mat_material_dup_core (source);
  copy = _mat_material_new_from_core (&entry, core);
  push_item (self, copy, self->items->len, FALSE, _("Add Material from Another Library"));

  return copy;
}

gboolean
mat_library_delete_material (MatLibrary   *self,
                             MatMaterial  *material,
                             GError      **error)
{
  gint index;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (material), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  index = mat_library_index_of (self, material);
  g_return_val_if_fail (index >= 0, FALSE);

  if (mat_material_get_type_id (material) != NRES_TYPE_MAT0)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                   _("“%s” is not a material and is kept read-only"),
                   mat_material_get_name (material));
      return FALSE;
    }

  push_item (self, material, (guint) index, TRUE, _("Delete Material"));
  return TRUE;
}

GPtrArray *
mat_library_get_diagnostics (MatLibrary *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);

  if (self->diagnostics == NULL)
    {
      if (self->dirty)
        {
          g_autoptr(GBytes) bytes = build_bytes (self, NULL);
          g_autoptr(NresArchive) archive = NULL;

          if (bytes != NULL)
            archive = nres_archive_parse (bytes, NULL);
          if (archive != NULL)
            self->diagnostics = mat0_validate_archive (archive);
        }
      if (self->diagnostics == NULL)
        self->diagnostics = mat0_validate_archive (self->archive);
    }

  return self->diagnostics;
}

/* ---- MatDraftable ------------------------------------------------------ */

static const char *
draftable_get_kind (MatDraftable *draftable)
{
  return MAT_DRAFT_KIND_MATERIALS;
}

static GFile *
draftable_get_file (MatDraftable *draftable)
{
  return MAT_LIBRARY (draftable)->file;
}

static const char *
draftable_get_etag (MatDraftable *draftable)
{
  return MAT_LIBRARY (draftable)->etag;
}

static gboolean
draftable_get_dirty (MatDraftable *draftable)
{
  return MAT_LIBRARY (draftable)->dirty;
}

static MatHistory *
draftable_get_history (MatDraftable *draftable)
{
  return MAT_LIBRARY (draftable)->history;
}

static MatSavePlan *
draftable_plan_save (MatDraftable  *draftable,
                     GError       **error)
{
  return plan_save (MAT_LIBRARY (draftable));
}

static void
mat_library_draftable_init (MatDraftableInterface *iface)
{
  iface->get_kind = draftable_get_kind;
  iface->get_file = draftable_get_file;
  iface->get_etag = draftable_get_etag;
  iface->get_dirty = draftable_get_dirty;
  iface->get_history = draftable_get_history;
  iface->plan_save = draftable_plan_save;
}

static void
mat_library_dispose (GObject *object)
{
  MatLibrary *self = (MatLibrary *) object;

  /* Commands point at the library: drop them before it goes. */
  if (self->history != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->history, self);
      _mat_history_clear (self->history);
    }
  g_clear_object (&self->history);

  for (guint i = 0; i < self->items->len; i++)
    _mat_material_set_library (g_ptr_array_index (self->items, i), NULL);
  g_ptr_array_set_size (self->items, 0);

  g_clear_object (&self->file);

  G_OBJECT_CLASS (mat_library_parent_class)->dispose (object);
}

static void
mat_library_finalize (GObject *object)
{
  MatLibrary *self = (MatLibrary *) object;

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->archive, nres_archive_free);
  g_clear_pointer (&self->etag, g_free);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);

  G_OBJECT_CLASS (mat_library_parent_class)->finalize (object);
}

static void
mat_library_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  MatLibrary *self = MAT_LIBRARY (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_DIRTY:
      g_value_set_boolean (value, self->dirty);
      break;
    case PROP_HISTORY:
      g_value_set_object (value, self->history);
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;
    case PROP_ETAG:
      g_value_set_string (value, self->etag);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_library_class_init (MatLibraryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mat_library_dispose;
  object_class->finalize = mat_library_finalize;
  object_class->get_property = mat_library_get_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DIRTY] =
    g_param_spec_boolean ("dirty", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HISTORY] =
    g_param_spec_object ("history", NULL, NULL, MAT_TYPE_HISTORY,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ETAG] =
    g_param_spec_string ("etag", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mat_library_init (MatLibrary *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->history = _mat_history_new ();
  g_signal_connect_object (self->history, "changed",
                           G_CALLBACK (history_changed_cb), self, G_CONNECT_SWAPPED);
}
