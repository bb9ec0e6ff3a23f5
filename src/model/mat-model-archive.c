/* mat-model-archive.c - an archive of models (a .rlb) and its WEAR edits */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "wear.h"

#include "mat-model-archive.h"
#include "mat-model-private.h"

struct _MatModelArchive
{
  MatArchive   parent_instance;

  GPtrArray   *slots;    /* MatArchiveSlot: every member, directory order */
  GPtrArray   *models;   /* MatModelEntry */
};

static void mat_model_archive_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MatModelArchive, mat_model_archive, MAT_TYPE_ARCHIVE,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      mat_model_archive_list_model_init))

enum {
  WEAR_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- GListModel -------------------------------------------------------- */

static GType
mat_model_archive_get_item_type (GListModel *model)
{
  return MAT_TYPE_MODEL_ENTRY;
}

static guint
mat_model_archive_get_n_items (GListModel *model)
{
  return MAT_MODEL_ARCHIVE (model)->models->len;
}

static gpointer
mat_model_archive_get_item (GListModel *model,
                            guint       position)
{
  MatModelArchive *self = MAT_MODEL_ARCHIVE (model);

  if (position >= self->models->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->models, position));
}

static void
mat_model_archive_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = mat_model_archive_get_item_type;
  iface->get_n_items = mat_model_archive_get_n_items;
  iface->get_item = mat_model_archive_get_item;
}

/* ---- the archive ------------------------------------------------------- */

/* The WEAR slot named as @mesh's stem with ".wea", or %NULL. */
static MatArchiveSlot *
find_wear_of (GPtrArray            *slots,
              const MatArchiveSlot *mesh)
{
  g_autofree char *name = cp1251_to_utf8 ((const guint8 *) mesh->entry.name, NRES_NAME_SIZE);
  g_autofree char *wear = wear_member_for_mesh (name);
  guint8 field[NRES_NAME_SIZE];

  /* a stem too long for ".wea" names no member */
  if (!cp1251_from_utf8 (wear, field, sizeof field, NULL))
    return NULL;
  for (guint i = 0; i < slots->len; i++)
    {
      MatArchiveSlot *slot = g_ptr_array_index (slots, i);

      if (slot->entry.type_id == NRES_TYPE_WEAR &&
          cp1251_name_compare (slot->entry.name, (const char *) field) == 0)
        return slot;
    }
  return NULL;
}

/* Every member as a slot; an entry per MESH (with its WEAR) and per WEAR
 * no MESH claims, in directory order. */
static gboolean
model_archive_load (MatArchive  *archive,
                    GError     **error)
{
  MatModelArchive *self = MAT_MODEL_ARCHIVE (archive);
  g_autoptr(GHashTable) claimed = g_hash_table_new (NULL, NULL);

  g_clear_pointer (&self->slots, g_ptr_array_unref);
  g_ptr_array_set_size (self->models, 0);
  self->slots = _mat_archive_dup_base_slots (archive);

  for (guint i = 0; i < self->slots->len; i++)
    {
      MatArchiveSlot *slot = g_ptr_array_index (self->slots, i);

      if (slot->entry.type_id == NRES_TYPE_MESH)
        {
          MatArchiveSlot *wear = find_wear_of (self->slots, slot);

          if (wear != NULL)
            g_hash_table_add (claimed, wear);
        }
    }
  for (guint i = 0; i < self->slots->len; i++)
    {
      MatArchiveSlot *slot = g_ptr_array_index (self->slots, i);

      if (slot->entry.type_id == NRES_TYPE_MESH)
        g_ptr_array_add (self->models,
                         _mat_model_entry_new (archive, slot, find_wear_of (self->slots, slot)));
      else if (slot->entry.type_id == NRES_TYPE_WEAR && !g_hash_table_contains (claimed, slot))
        g_ptr_array_add (self->models, _mat_model_entry_new (archive, NULL, slot));
    }

  return TRUE;
}

MatModelArchive *
mat_model_archive_new_from_bytes (GBytes  *bytes,
                                  GError **error)
{
  return MAT_MODEL_ARCHIVE (_mat_archive_new_from_bytes (MAT_TYPE_MODEL_ARCHIVE, bytes, error));
}

MatModelArchive *
mat_model_archive_new_restored (GBytes      *bytes,
                                GFile       *file,
                                const char  *etag,
                                GError     **error)
{
  return MAT_MODEL_ARCHIVE (_mat_archive_new_restored (MAT_TYPE_MODEL_ARCHIVE, bytes, file, etag,
                                                       error));
}

MatModelArchive *
mat_model_archive_load (GFile         *file,
                        GCancellable  *cancellable,
                        GError       **error)
{
  return MAT_MODEL_ARCHIVE (_mat_archive_load (MAT_TYPE_MODEL_ARCHIVE, file, cancellable, error));
}

void
mat_model_archive_load_async (GFile               *file,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  _mat_archive_load_async (MAT_TYPE_MODEL_ARCHIVE, file, cancellable, callback, user_data);
}

MatModelArchive *
mat_model_archive_load_finish (GAsyncResult  *result,
                               GError       **error)
{
  return MAT_MODEL_ARCHIVE (_mat_archive_load_finish (result, error));
}

static MatSavePlan *
model_archive_plan_save (MatArchive *archive)
{
  return _mat_archive_plan_slots (archive, MAT_MODEL_ARCHIVE (archive)->slots);
}

static GPtrArray *
model_archive_snapshot (MatArchive *archive)
{
  return _mat_archive_snapshot_slots (MAT_MODEL_ARCHIVE (archive)->slots);
}

/* After a save: a wear whose member moved in the file is read again, so
 * the offsets its lints name are where the bytes are. */
static void
model_archive_rebase (MatArchive        *archive,
                      GPtrArray         *snapshot,
                      const NresArchive *written)
{
  MatModelArchive *self = MAT_MODEL_ARCHIVE (archive);

  _mat_archive_rebase_slots (archive, snapshot, written);
  for (guint i = 0; i < self->models->len; i++)
    {
      MatModelEntry *model = g_ptr_array_index (self->models, i);

      if (_mat_model_entry_wear_moved (model))
        _mat_model_entry_reload_wear (model);
    }
}

/* ---- queries ----------------------------------------------------------- */

MatModelEntry *
mat_model_archive_get_model (MatModelArchive *self,
                             guint            position)
{
  g_return_val_if_fail (MAT_IS_MODEL_ARCHIVE (self), NULL);

  if (position >= self->models->len)
    return NULL;
  return g_ptr_array_index (self->models, position);
}

MatModelEntry *
mat_model_archive_find_model (MatModelArchive *self,
                              const char      *name)
{
  g_return_val_if_fail (MAT_IS_MODEL_ARCHIVE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  /* ASCII case-insensitive on UTF-8 is the engine's comparison of the
   * CP1251 bytes: the other characters map one to one */
  for (guint i = 0; i < self->models->len; i++)
    {
      MatModelEntry *model = g_ptr_array_index (self->models, i);
      const char *mesh = mat_model_entry_get_mesh_member (model);
      const char *wear = mat_model_entry_get_wear_member (model);

      if ((mesh != NULL && g_ascii_strcasecmp (mesh, name) == 0) ||
          (wear != NULL && g_ascii_strcasecmp (wear, name) == 0) ||
          g_ascii_strcasecmp (mat_model_entry_get_stem (model), name) == 0)
        return model;
    }
  return NULL;
}

/* ---- the WEAR edit ----------------------------------------------------- */

/* A swap of the payloads of some WEAR members: the command holds what
 * the slots do not. */
typedef struct {
  MatCommand       parent;
  MatModelArchive *archive;    /* not a reference: the history is the archive's */
  GPtrArray       *slots;      /* MatArchiveSlot */
  GPtrArray       *payloads;   /* GBytes, one a slot */
} WearCommand;

static void
wear_run (MatCommand *cmd,
          gboolean    undo)
{
  WearCommand *swap = (WearCommand *) cmd;
  MatModelArchive *self = swap->archive;

  for (guint i = 0; i < swap->slots->len; i++)
    {
      MatArchiveSlot *slot = g_ptr_array_index (swap->slots, i);
      GBytes *held = g_ptr_array_index (swap->payloads, i);

      swap->payloads->pdata[i] = slot->payload;
      slot->payload = held;
    }
  for (guint i = 0; i < self->models->len; i++)
    {
      MatModelEntry *model = g_ptr_array_index (self->models, i);
      MatArchiveSlot *wear = _mat_model_entry_get_wear_slot (model);

      if (wear != NULL && g_ptr_array_find (swap->slots, wear, NULL))
        _mat_model_entry_reload_wear (model);
    }
  g_signal_emit (self, signals[WEAR_CHANGED], 0);
}

static void
wear_free (MatCommand *cmd)
{
  WearCommand *swap = (WearCommand *) cmd;

  g_clear_pointer (&swap->slots, g_ptr_array_unref);
  g_clear_pointer (&swap->payloads, g_ptr_array_unref);
}

static const MatCommandClass wear_class = { wear_run, wear_free, NULL };

/* The wear a target edits, or %NULL with @error. */
static MatArchiveSlot *
target_slot (MatModelArchive      *self,
             const MatWearTarget  *target,
             GError              **error)
{
  MatArchiveSlot *slot;

  if (!MAT_IS_MODEL_ENTRY (target->model) || !g_ptr_array_find (self->models, target->model, NULL))
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                   _("%s: expected a model of this archive, found another’s"),
                   MAT_IS_MODEL_ENTRY (target->model) ? mat_model_entry_get_stem (target->model) : "?");
      return NULL;
    }
  slot = _mat_model_entry_get_wear_slot (target->model);
  if (slot == NULL)
    {
      const char *mesh = mat_model_entry_get_mesh_member (target->model);
      g_autofree char *wear = wear_member_for_mesh (mesh);

      /* Translators: a model's MESH member, then the WEAR member it lacks */
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                   _("%s: expected a material table “%s” in its archive, found none"),
                   mesh, wear);
      return NULL;
    }
  return slot;
}

gboolean
mat_model_archive_wear_on (MatModelArchive      *self,
                           const MatWearTarget  *targets,
                           guint                 n_targets,
                           const char           *name,
                           guint                *rows,
                           GError              **error)
{
  MatArchive *archive = MAT_ARCHIVE (self);
  guint8 field[WEAR_NAME_MAX + 1];
  g_autoptr(GPtrArray) slots = g_ptr_array_new ();   /* the wears edited */
  g_autoptr(GPtrArray) tables = g_ptr_array_new_with_free_func ((GDestroyNotify) wear_table_free);
  g_autofree guint *made = NULL;
  gboolean only_new = TRUE;
  WearCommand *cmd;

  g_return_val_if_fail (MAT_IS_MODEL_ARCHIVE (self), FALSE);
  g_return_val_if_fail (n_targets == 0 || targets != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!wear_check_name (name, field, NULL, error))
    return FALSE;

  /* every new member first: a target that fails changes nothing */
  made = g_new0 (guint, MAX (n_targets, 1));
  for (guint t = 0; t < n_targets; t++)
    {
      MatArchiveSlot *slot = target_slot (self, &targets[t], error);
      g_autoptr(GBytes) bytes = NULL;
      WearTable *table;
      guint k;

      if (slot == NULL)
        return FALSE;
      if (!g_ptr_array_find (slots, slot, &k))
        {
          k = slots->len;
          g_ptr_array_add (slots, slot);
          g_ptr_array_add (tables, wear_table_read (slot->payload,
                                                    _mat_archive_slot_offset (archive, slot),
                                                    mat_model_entry_get_wear_member (targets[t].model)));
        }
      table = g_ptr_array_index (tables, k);
      if (targets[t].row == MAT_WEAR_ROW_NEW)
        {
          made[t] = table->n_rows;
          bytes = wear_table_add_row (table, name, error);
        }
      else
        {
          made[t] = targets[t].row;
          bytes = wear_table_set_name (table, targets[t].row, name, error);
          only_new = FALSE;
        }
      if (bytes == NULL)
        return FALSE;
      tables->pdata[k] = wear_table_read (bytes, table->base_offset, table->member);
      wear_table_free (table);
    }
  if (rows != NULL && n_targets > 0)
    memcpy (rows, made, n_targets * sizeof *rows);

  /* the wears whose bytes change: none when every target named it */
  for (guint k = slots->len; k-- > 0;)
    {
      const WearTable *table = g_ptr_array_index (tables, k);

      if (g_bytes_equal (table->bytes, ((MatArchiveSlot *) g_ptr_array_index (slots, k))->payload))
        {
          g_ptr_array_remove_index (slots, k);
          g_ptr_array_remove_index (tables, k);
        }
    }
  if (slots->len == 0)
    return TRUE;

  cmd = _mat_command_new (&wear_class, sizeof *cmd,
                          only_new ? _("Add Wear Row") : _("Wear Material"));
  cmd->archive = self;
  cmd->slots = g_ptr_array_new_with_free_func (_mat_archive_slot_unref);
  cmd->payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  for (guint k = 0; k < slots->len; k++)
    {
      const WearTable *table = g_ptr_array_index (tables, k);

      g_ptr_array_add (cmd->slots, _mat_archive_slot_ref (g_ptr_array_index (slots, k)));
      g_ptr_array_add (cmd->payloads, g_bytes_ref (table->bytes));
    }
  _mat_history_push (mat_archive_get_history (archive), &cmd->parent);
  return TRUE;
}

gboolean
mat_model_archive_set_wear (MatModelArchive  *self,
                            MatModelEntry    *model,
                            guint             row,
                            const char       *name,
                            GError          **error)
{
  MatWearTarget target = { model, row };

  g_return_val_if_fail (row != MAT_WEAR_ROW_NEW, FALSE);

  return mat_model_archive_wear_on (self, &target, 1, name, NULL, error);
}

gboolean
mat_model_archive_add_wear_row (MatModelArchive  *self,
                                MatModelEntry    *model,
                                const char       *name,
                                guint            *row,
                                GError          **error)
{
  MatWearTarget target = { model, MAT_WEAR_ROW_NEW };

  return mat_model_archive_wear_on (self, &target, 1, name, row, error);
}

/* ---- GObject ----------------------------------------------------------- */

static void
mat_model_archive_dispose (GObject *object)
{
  MatModelArchive *self = MAT_MODEL_ARCHIVE (object);

  for (guint i = 0; i < self->models->len; i++)
    _mat_model_entry_detach (g_ptr_array_index (self->models, i));
  g_ptr_array_set_size (self->models, 0);

  G_OBJECT_CLASS (mat_model_archive_parent_class)->dispose (object);
}

static void
mat_model_archive_finalize (GObject *object)
{
  MatModelArchive *self = MAT_MODEL_ARCHIVE (object);

  g_clear_pointer (&self->models, g_ptr_array_unref);
  g_clear_pointer (&self->slots, g_ptr_array_unref);

  G_OBJECT_CLASS (mat_model_archive_parent_class)->finalize (object);
}

static void
mat_model_archive_class_init (MatModelArchiveClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  MatArchiveClass *archive_class = MAT_ARCHIVE_CLASS (klass);

  object_class->dispose = mat_model_archive_dispose;
  object_class->finalize = mat_model_archive_finalize;

  archive_class->draft_kind = MAT_DRAFT_KIND_MODELS;
  archive_class->load = model_archive_load;
  archive_class->plan_save = model_archive_plan_save;
  archive_class->snapshot = model_archive_snapshot;
  archive_class->rebase = model_archive_rebase;

  /**
   * MatModelArchive::wear-changed:
   *
   * After every WEAR edit, its undo and its redo (once a step): the
   * bytes of the archive now are mat_archive_save_to_bytes ().
   */
  signals[WEAR_CHANGED] =
    g_signal_new ("wear-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mat_model_archive_init (MatModelArchive *self)
{
  self->slots = g_ptr_array_new_with_free_func (_mat_archive_slot_unref);
  self->models = g_ptr_array_new_with_free_func (g_object_unref);
}
