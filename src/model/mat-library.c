/* mat-library.c - a material library (an NRes archive) as a GListModel */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "mat0-validate.h"

#include "mat-archive-private.h"
#include "mat-model-private.h"

struct _MatLibrary
{
  MatArchive   parent_instance;

  GPtrArray   *items;         /* MatMaterial */
  GPtrArray   *diagnostics;   /* cache, %NULL when stale */
};

static void mat_library_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MatLibrary, mat_library, MAT_TYPE_ARCHIVE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      mat_library_list_model_init))

enum {
  PROP_0,
  PROP_N_ITEMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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

static MatHistory *
history_of (MatLibrary *self)
{
  return mat_archive_get_history (MAT_ARCHIVE (self));
}

/* Every entry of the base as a material. */
static gboolean
library_load (MatArchive  *archive,
              GError     **error)
{
  MatLibrary *self = MAT_LIBRARY (archive);
  const NresArchive *base = _mat_archive_get_base (archive);
  guint generation = _mat_archive_get_generation (archive);

  g_ptr_array_set_size (self->items, 0);
  for (guint i = 0; i < base->n_entries; i++)
    {
      g_autoptr(GBytes) payload = nres_archive_payload_bytes (base, i);
      MatMaterial *material = _mat_material_new_from_entry (&base->entries[i], (gint) i,
                                                            generation, payload);

      _mat_material_set_library (material, self);
      /* a material of many keys is decoded here (the loader's thread),
       * not in the main loop when the list first shows it */
      _mat_material_prepare (material);
      g_ptr_array_add (self->items, material);
    }

  return TRUE;
}

MatLibrary *
mat_library_new_from_bytes (GBytes  *bytes,
                            GError **error)
{
  return MAT_LIBRARY (_mat_archive_new_from_bytes (MAT_TYPE_LIBRARY, bytes, error));
}

MatLibrary *
mat_library_new_restored (GBytes      *bytes,
                          GFile       *file,
                          const char  *etag,
                          GError     **error)
{
  return MAT_LIBRARY (_mat_archive_new_restored (MAT_TYPE_LIBRARY, bytes, file, etag, error));
}

void
mat_library_load_async (GFile               *file,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  _mat_archive_load_async (MAT_TYPE_LIBRARY, file, cancellable, callback, user_data);
}

MatLibrary *
mat_library_load_finish (GAsyncResult  *result,
                         GError       **error)
{
  return MAT_LIBRARY (_mat_archive_load_finish (result, error));
}

/* What a save writes now: every entry with its source in the base and
 * its new payload (the decoded materials encoded), over the base. */
static MatSavePlan *
library_plan_save (MatArchive *archive)
{
  MatLibrary *self = MAT_LIBRARY (archive);
  guint generation = _mat_archive_get_generation (archive);
  guint n = self->items->len;
  NresOutEntry *out = g_new0 (NresOutEntry, n > 0 ? n : 1);

  for (guint i = 0; i < n; i++)
    {
      MatMaterial *material = g_ptr_array_index (self->items, i);

      out[i].source = _mat_material_get_source (material, generation);
      out[i].entry = *_mat_material_get_entry (material);
      out[i].payload = _mat_material_dup_payload (material, generation);
    }

  return _mat_save_plan_new (_mat_archive_get_base (archive), out, n);
}

/* The materials a plan holds, for the rebase after the save. */
static GPtrArray *
library_snapshot (MatArchive *archive)
{
  MatLibrary *self = MAT_LIBRARY (archive);
  GPtrArray *snapshot = g_ptr_array_new_full (self->items->len, g_object_unref);

  for (guint i = 0; i < self->items->len; i++)
    g_ptr_array_add (snapshot, g_object_ref (g_ptr_array_index (self->items, i)));
  return snapshot;
}

static void
library_rebase (MatArchive        *archive,
                GPtrArray         *snapshot,
                const NresArchive *written)
{
  MatLibrary *self = MAT_LIBRARY (archive);
  guint generation = _mat_archive_get_generation (archive);

  for (guint i = 0; i < snapshot->len; i++)
    _mat_material_rebase (g_ptr_array_index (snapshot, i), written, i, generation);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
}

static void
library_history_changed (MatArchive *archive)
{
  g_clear_pointer (&MAT_LIBRARY (archive)->diagnostics, g_ptr_array_unref);
}

GBytes *
mat_library_save_to_bytes (MatLibrary  *self,
                           GError     **error)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);

  return mat_archive_save_to_bytes (MAT_ARCHIVE (self), error);
}

void
mat_library_save_async (MatLibrary          *self,
                        GFile               *file,
                        MatSaveFlags         flags,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_return_if_fail (MAT_IS_LIBRARY (self));

  mat_archive_save_async (MAT_ARCHIVE (self), file, flags, cancellable, callback, user_data);
}

gboolean
mat_library_save_finish (MatLibrary    *self,
                         GAsyncResult  *result,
                         MatSaveNotes  *notes,
                         GError       **error)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), FALSE);

  return mat_archive_save_finish (MAT_ARCHIVE (self), result, notes, error);
}

guint
mat_library_get_removed_temporaries (MatLibrary *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), 0);

  return mat_archive_get_removed_temporaries (MAT_ARCHIVE (self));
}

GFile *
mat_library_get_file (MatLibrary *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);

  return mat_archive_get_file (MAT_ARCHIVE (self));
}

const char *
mat_library_get_etag (MatLibrary *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);

  return mat_archive_get_etag (MAT_ARCHIVE (self));
}

gboolean
mat_library_get_dirty (MatLibrary *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), FALSE);

  return mat_archive_get_dirty (MAT_ARCHIVE (self));
}

MatHistory *
mat_library_get_history (MatLibrary *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);

  return history_of (self);
}

MatHistory *
_mat_library_get_history (MatLibrary *self)
{
  return history_of (self);
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
  _mat_history_push (history_of (self), &cmd->parent);
}

/* Command: remove or insert many materials at once, one change of the
 * list. @positions (ascending) are where @materials stand while they are
 * in the list. */
typedef struct {
  MatCommand  parent;
  MatLibrary *library;    /* not owned */
  GPtrArray  *materials;  /* MatMaterial, refs */
  GArray     *positions;  /* guint */
  gboolean    remove;
} ItemsCommand;

static void
items_run (MatCommand *cmd,
           gboolean    undo)
{
  ItemsCommand *self = (ItemsCommand *) cmd;
  MatLibrary *library = self->library;
  const guint *positions = (const guint *) (gpointer) self->positions->data;
  guint n = self->positions->len;
  guint first = positions[0], last = positions[n - 1];
  guint span = last - first + 1;   /* the part of the longer list that changes */
  GPtrArray *items = g_ptr_array_new_full (library->items->len + n, g_object_unref);
  guint k = 0;

  if (self->remove != undo)
    {
      for (guint i = 0; i < library->items->len; i++)
        {
          MatMaterial *material = g_ptr_array_index (library->items, i);

          if (k < n && positions[k] == i)
            {
              _mat_material_set_library (material, NULL);
              k++;
              continue;
            }
          g_ptr_array_add (items, g_object_ref (material));
        }
      g_ptr_array_unref (library->items);
      library->items = items;
      g_list_model_items_changed (G_LIST_MODEL (library), first, span, span - n);
    }
  else
    {
      guint old = 0;
      guint total = library->items->len + n;

      for (guint i = 0; i < total; i++)
        {
          MatMaterial *material;

          if (k < n && positions[k] == i)
            {
              material = g_ptr_array_index (self->materials, k++);
              _mat_material_set_library (material, library);
            }
          else
            material = g_ptr_array_index (library->items, old++);
          g_ptr_array_add (items, g_object_ref (material));
        }
      g_ptr_array_unref (library->items);
      library->items = items;
      g_list_model_items_changed (G_LIST_MODEL (library), first, span - n, span);
    }
  g_object_notify_by_pspec (G_OBJECT (library), properties[PROP_N_ITEMS]);
}

static void
items_free (MatCommand *cmd)
{
  ItemsCommand *self = (ItemsCommand *) cmd;

  g_clear_pointer (&self->materials, g_ptr_array_unref);
  g_clear_pointer (&self->positions, g_array_unref);
}

static const MatCommandClass items_class = {
  items_run,
  items_free,
  NULL,
};

static void
push_items (MatLibrary *self,
            GPtrArray  *materials,
            GArray     *positions,
            gboolean    remove,
            const char *label)
{
  ItemsCommand *cmd = _mat_command_new (&items_class, sizeof (ItemsCommand), label);

  cmd->library = self;
  cmd->materials = materials;
  cmd->positions = positions;
  cmd->remove = remove;
  _mat_history_push (history_of (self), &cmd->parent);
}

void
_mat_library_insert_materials (MatLibrary *self,
                               GPtrArray  *materials,
                               guint       position,
                               const char *label)
{
  GArray *positions;

  if (materials->len == 0)
    return;
  positions = g_array_sized_new (FALSE, FALSE, sizeof (guint), materials->len);
  for (guint i = 0; i < materials->len; i++)
    {
      guint at = position + i;

      g_array_append_val (positions, at);
    }
  push_items (self, g_ptr_array_ref (materials), positions, FALSE, label);
}

guint
mat_library_delete_materials (MatLibrary          *self,
                              MatMaterial * const *materials,
                              guint                n_materials)
{
  g_autoptr(GHashTable) seen = NULL;
  g_autoptr(GArray) positions = NULL;
  g_autoptr(GPtrArray) removed = NULL;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), 0);
  g_return_val_if_fail (materials != NULL || n_materials == 0, 0);

  /* the positions, in one pass over the library */
  seen = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < n_materials; i++)
    if (mat_material_get_library (materials[i]) == self &&
        mat_material_get_type_id (materials[i]) == NRES_TYPE_MAT0)
      g_hash_table_add (seen, materials[i]);
  positions = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < self->items->len; i++)
    if (g_hash_table_contains (seen, g_ptr_array_index (self->items, i)))
      g_array_append_val (positions, i);
  if (positions->len == 0)
    return 0;

  removed = g_ptr_array_new_full (positions->len, g_object_unref);
  for (guint i = 0; i < positions->len; i++)
    g_ptr_array_add (removed, g_object_ref (g_ptr_array_index (self->items,
                                                               g_array_index (positions, guint, i))));
  push_items (self, g_steal_pointer (&removed), g_array_ref (positions), TRUE,
              positions->len == 1 ? _("Delete Material") : _("Delete Materials"));
  return positions->len;
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
      if (mat_library_get_dirty (self))
        {
          g_autoptr(GBytes) bytes = mat_archive_save_to_bytes (MAT_ARCHIVE (self), NULL);
          g_autoptr(NresArchive) archive = NULL;

          if (bytes != NULL)
            archive = nres_archive_parse (bytes, NULL);
          if (archive != NULL)
            self->diagnostics = mat0_validate_archive (archive);
        }
      if (self->diagnostics == NULL)
        self->diagnostics = mat0_validate_archive (_mat_archive_get_base (MAT_ARCHIVE (self)));
    }

  return self->diagnostics;
}

/* ---- GObject ----------------------------------------------------------- */

static void
mat_library_dispose (GObject *object)
{
  MatLibrary *self = (MatLibrary *) object;

  for (guint i = 0; i < self->items->len; i++)
    _mat_material_set_library (g_ptr_array_index (self->items, i), NULL);
  g_ptr_array_set_size (self->items, 0);

  G_OBJECT_CLASS (mat_library_parent_class)->dispose (object);
}

static void
mat_library_finalize (GObject *object)
{
  MatLibrary *self = (MatLibrary *) object;

  g_clear_pointer (&self->items, g_ptr_array_unref);
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
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_library_class_init (MatLibraryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  MatArchiveClass *archive_class = MAT_ARCHIVE_CLASS (klass);

  object_class->dispose = mat_library_dispose;
  object_class->finalize = mat_library_finalize;
  object_class->get_property = mat_library_get_property;

  archive_class->draft_kind = MAT_DRAFT_KIND_MATERIALS;
  archive_class->load = library_load;
  archive_class->plan_save = library_plan_save;
  archive_class->snapshot = library_snapshot;
  archive_class->rebase = library_rebase;
  archive_class->history_changed = library_history_changed;

  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mat_library_init (MatLibrary *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}
