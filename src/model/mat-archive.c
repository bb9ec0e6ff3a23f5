/* mat-archive.c - an NRes archive open for editing: the store every
 * editable archive is built on */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat-archive-private.h"
#include "mat-model-error.h"
#include "mat-model-private.h"

typedef struct
{
  NresArchive *base;          /* as loaded or last saved */
  guint        generation;    /* bumped when the base changes */
  GFile       *file;
  char        *etag;
  MatHistory  *history;
  guint64      saved_state;   /* the history's state the file holds */
  gboolean     dirty;
  guint        removed_temporaries;   /* found at the load */
} MatArchivePrivate;

static void mat_archive_draftable_init (MatDraftableInterface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (MatArchive, mat_archive, G_TYPE_OBJECT,
                                  G_ADD_PRIVATE (MatArchive)
                                  G_IMPLEMENT_INTERFACE (MAT_TYPE_DRAFTABLE,
                                                         mat_archive_draftable_init))

enum {
  PROP_0,
  PROP_FILE,
  PROP_DIRTY,
  PROP_HISTORY,
  PROP_ETAG,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* GTask source tags: the addresses of variables (a function pointer is
 * no gpointer in ISO C). */
static char load_tag;
static char save_tag;

/* ---- state --------------------------------------------------------------- */

static void
update_dirty (MatArchive *self)
{
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);
  gboolean dirty = _mat_history_get_state (priv->history) != priv->saved_state;

  if (dirty != priv->dirty)
    {
      priv->dirty = dirty;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRTY]);
    }
}

static void
history_changed_cb (MatArchive *self,
                    MatHistory *history)
{
  MatArchiveClass *klass = MAT_ARCHIVE_GET_CLASS (self);

  if (klass->history_changed != NULL)
    klass->history_changed (self);
  update_dirty (self);
}

const NresArchive *
_mat_archive_get_base (MatArchive *self)
{
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);

  return priv->base;
}

guint
_mat_archive_get_generation (MatArchive *self)
{
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);

  return priv->generation;
}

/* ---- making one ---------------------------------------------------------- */

MatArchive *
_mat_archive_new (GType         type,
                  NresArchive  *base,
                  GError      **error)
{
  g_autoptr(MatArchive) self = NULL;
  MatArchivePrivate *priv;

  g_return_val_if_fail (g_type_is_a (type, MAT_TYPE_ARCHIVE), NULL);
  g_return_val_if_fail (base != NULL, NULL);

  self = g_object_new (type, NULL);
  priv = mat_archive_get_instance_private (self);
  priv->base = base;
  priv->generation = 1;
  if (!MAT_ARCHIVE_GET_CLASS (self)->load (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

MatArchive *
_mat_archive_new_from_bytes (GType    type,
                             GBytes  *bytes,
                             GError **error)
{
  NresArchive *base;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  base = nres_archive_parse (bytes, error);
  if (base == NULL)
    return NULL;
  return _mat_archive_new (type, base, error);
}

MatArchive *
_mat_archive_new_restored (GType        type,
                           GBytes      *bytes,
                           GFile       *file,
                           const char  *etag,
                           GError     **error)
{
  MatArchive *self;
  MatArchivePrivate *priv;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = _mat_archive_new_from_bytes (type, bytes, error);
  if (self == NULL)
    return NULL;
  priv = mat_archive_get_instance_private (self);
  priv->file = g_object_ref (file);
  priv->etag = g_strdup (etag);
  /* no state of the history is the saved one: unsaved until a save */
  priv->saved_state = G_MAXUINT64;
  update_dirty (self);
  return self;
}

MatArchive *
_mat_archive_load (GType          type,
                   GFile         *file,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *etag = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *dir = NULL;
  MatArchivePrivate *priv;
  NresArchive *base;
  MatArchive *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  path = mat_file_get_local_path (file, error);
  if (path == NULL)
    return NULL;
  /* only what the directory names: unindexed gigabytes are not read */
  base = mat_file_read_archive (path, &etag, &summary, cancellable, &local_error);
  if (base == NULL)
    {
      /* first what is wrong in plain words, then the exact detail */
      if (summary != NULL)
        g_set_error (error, local_error->domain, local_error->code, "%s\n%s", summary,
                     local_error->message);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  self = _mat_archive_new (type, base, error);
  if (self == NULL)
    return NULL;
  priv = mat_archive_get_instance_private (self);
  priv->file = g_object_ref (file);
  priv->etag = g_steal_pointer (&etag);
  /* what killed saves left beside it, unless a save still runs */
  dir = g_path_get_dirname (path);
  priv->removed_temporaries = mat_file_remove_stale_temporaries (dir, NULL);
  return self;
}

typedef struct {
  GType  type;
  GFile *file;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *load = data;

  g_clear_object (&load->file);
  g_free (load);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *load = task_data;
  GError *error = NULL;
  MatArchive *self = _mat_archive_load (load->type, load->file, cancellable, &error);

  if (self == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, self, g_object_unref);
}

void
_mat_archive_load_async (GType                type,
                         GFile               *file,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *load;

  g_return_if_fail (g_type_is_a (type, MAT_TYPE_ARCHIVE));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, &load_tag);
  load = g_new0 (LoadData, 1);
  load->type = type;
  load->file = g_object_ref (file);
  g_task_set_task_data (task, load, load_data_free);
  g_task_run_in_thread (task, load_thread);
}

MatArchive *
_mat_archive_load_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- saving -------------------------------------------------------------- */

GBytes *
mat_archive_save_to_bytes (MatArchive  *self,
                           GError     **error)
{
  g_autoptr(MatSavePlan) plan = NULL;

  g_return_val_if_fail (MAT_IS_ARCHIVE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  plan = MAT_ARCHIVE_GET_CLASS (self)->plan_save (self);
  return mat_save_plan_write (plan, error);
}

typedef struct {
  GFile     *file;
  GBytes    *bytes;
  GPtrArray *snapshot;   /* the items the bytes hold, in order */
  guint64    state;
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
  MatArchive *self = g_task_get_source_object (task);
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);
  SaveData *save = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *new_etag = NULL;
  MatSaveNotes notes = MAT_SAVE_NOTE_NONE;
  NresArchive *archive;
  gboolean file_changed;

  if (!mat_file_replace_finish (result, &new_etag, &notes, &error))
    {
      /* Nothing changed: the archive keeps its edits, its base, its file
       * and its unsaved state. */
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  archive = nres_archive_parse (save->bytes, &error);
  if (archive == NULL)
    {
      /* The writer produced a file its own reader refuses: a bug. */
      g_critical ("Saved archive does not parse: %s", error->message);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  priv->generation++;
  g_clear_pointer (&priv->base, nres_archive_free);
  priv->base = archive;
  MAT_ARCHIVE_GET_CLASS (self)->rebase (self, save->snapshot, archive);

  file_changed = priv->file == NULL || !g_file_equal (priv->file, save->file);
  g_set_object (&priv->file, save->file);
  g_free (priv->etag);
  priv->etag = g_steal_pointer (&new_etag);
  priv->saved_state = save->state;

  if (file_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ETAG]);
  update_dirty (self);

  g_task_return_int (task, notes);
}

void
mat_archive_save_async (MatArchive          *self,
                        GFile               *file,
                        MatSaveFlags         flags,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  MatArchivePrivate *priv;
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  const char *etag = NULL;
  SaveData *save;

  g_return_if_fail (MAT_IS_ARCHIVE (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  priv = mat_archive_get_instance_private (self);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, &save_tag);

  if (file == NULL)
    file = priv->file;
  if (file == NULL)
    {
      g_task_return_new_error (task, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NO_FILE,
                               _("There is no file to save it to yet"));
      return;
    }

  save = g_new0 (SaveData, 1);
  save->file = g_object_ref (file);
  save->snapshot = MAT_ARCHIVE_GET_CLASS (self)->snapshot (self);
  save->state = _mat_history_get_state (priv->history);
  g_task_set_task_data (task, save, save_data_free);

  save->bytes = mat_archive_save_to_bytes (self, &error);
  if (save->bytes == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Over its own file, the version it was loaded (or last saved) as. */
  if (priv->file != NULL && g_file_equal (file, priv->file))
    etag = priv->etag;
  mat_file_replace_async (file, save->bytes, etag, flags, cancellable, save_done_cb,
                          g_steal_pointer (&task));
}

gboolean
mat_archive_save_finish (MatArchive    *self,
                         GAsyncResult  *result,
                         MatSaveNotes  *notes,
                         GError       **error)
{
  gssize value;

  g_return_val_if_fail (MAT_IS_ARCHIVE (self), FALSE);
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

/* ---- properties ---------------------------------------------------------- */

GFile *
mat_archive_get_file (MatArchive *self)
{
  MatArchivePrivate *priv;

  g_return_val_if_fail (MAT_IS_ARCHIVE (self), NULL);

  priv = mat_archive_get_instance_private (self);
  return priv->file;
}

const char *
mat_archive_get_etag (MatArchive *self)
{
  MatArchivePrivate *priv;

  g_return_val_if_fail (MAT_IS_ARCHIVE (self), NULL);

  priv = mat_archive_get_instance_private (self);
  return priv->etag;
}

gboolean
mat_archive_get_dirty (MatArchive *self)
{
  MatArchivePrivate *priv;

  g_return_val_if_fail (MAT_IS_ARCHIVE (self), FALSE);

  priv = mat_archive_get_instance_private (self);
  return priv->dirty;
}

MatHistory *
mat_archive_get_history (MatArchive *self)
{
  MatArchivePrivate *priv;

  g_return_val_if_fail (MAT_IS_ARCHIVE (self), NULL);

  priv = mat_archive_get_instance_private (self);
  return priv->history;
}

guint
mat_archive_get_removed_temporaries (MatArchive *self)
{
  MatArchivePrivate *priv;

  g_return_val_if_fail (MAT_IS_ARCHIVE (self), 0);

  priv = mat_archive_get_instance_private (self);
  return priv->removed_temporaries;
}

/* ---- slots --------------------------------------------------------------- */

static void
slot_clear (gpointer data)
{
  MatArchiveSlot *slot = data;

  g_clear_pointer (&slot->payload, g_bytes_unref);
  g_clear_pointer (&slot->base, g_bytes_unref);
  g_clear_object (&slot->item);
}

MatArchiveSlot *
_mat_archive_slot_new (void)
{
  MatArchiveSlot *slot = g_rc_box_new0 (MatArchiveSlot);

  slot->source = -1;
  return slot;
}

MatArchiveSlot *
_mat_archive_slot_ref (MatArchiveSlot *slot)
{
  return g_rc_box_acquire (slot);
}

void
_mat_archive_slot_unref (gpointer slot)
{
  g_rc_box_release_full (slot, slot_clear);
}

gboolean
_mat_archive_slot_in_base (MatArchive           *self,
                           const MatArchiveSlot *slot)
{
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);

  return slot->source >= 0 && slot->generation == priv->generation;
}

gsize
_mat_archive_slot_offset (MatArchive           *self,
                          const MatArchiveSlot *slot)
{
  return _mat_archive_slot_in_base (self, slot) ? slot->entry.data_offset : 0;
}

GPtrArray *
_mat_archive_dup_base_slots (MatArchive *self)
{
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);
  GPtrArray *slots = g_ptr_array_new_full (priv->base->n_entries, _mat_archive_slot_unref);

  for (guint i = 0; i < priv->base->n_entries; i++)
    {
      MatArchiveSlot *slot = _mat_archive_slot_new ();

      slot->source = (gint) i;
      slot->generation = priv->generation;
      slot->entry = priv->base->entries[i];
      slot->base = nres_archive_payload_bytes (priv->base, i);
      slot->payload = g_bytes_ref (slot->base);
      g_ptr_array_add (slots, slot);
    }
  return slots;
}

MatSavePlan *
_mat_archive_plan_slots (MatArchive *self,
                         GPtrArray  *slots)
{
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);
  guint n = slots->len;
  NresOutEntry *out = g_new0 (NresOutEntry, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      MatArchiveSlot *slot = g_ptr_array_index (slots, i);
      gboolean in_base = _mat_archive_slot_in_base (self, slot);

      out[i].source = in_base ? slot->source : -1;
      out[i].entry = slot->entry;
      /* the base's own bytes need no copy (NULL); the writer counts a
       * payload byte-equal to its source as unchanged anyway */
      out[i].payload = in_base && slot->payload == slot->base ? NULL : g_bytes_ref (slot->payload);
    }

  return _mat_save_plan_new (priv->base, out, n);
}

GPtrArray *
_mat_archive_snapshot_slots (GPtrArray *slots)
{
  GPtrArray *snapshot = g_ptr_array_new_full (slots->len, _mat_archive_slot_unref);

  for (guint i = 0; i < slots->len; i++)
    g_ptr_array_add (snapshot, _mat_archive_slot_ref (g_ptr_array_index (slots, i)));
  return snapshot;
}

void
_mat_archive_rebase_slots (MatArchive        *self,
                           GPtrArray         *snapshot,
                           const NresArchive *archive)
{
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);

  for (guint i = 0; i < snapshot->len; i++)
    {
      MatArchiveSlot *slot = g_ptr_array_index (snapshot, i);

      slot->source = (gint) i;
      slot->generation = priv->generation;
      slot->entry = archive->entries[i];
      g_clear_pointer (&slot->base, g_bytes_unref);
      slot->base = nres_archive_payload_bytes (archive, i);
      /* the same bytes: share the new base's */
      if (g_bytes_equal (slot->base, slot->payload))
        {
          g_bytes_unref (slot->payload);
          slot->payload = g_bytes_ref (slot->base);
        }
    }
}

/* ---- MatDraftable -------------------------------------------------------- */

static const char *
draftable_get_kind (MatDraftable *draftable)
{
  return MAT_ARCHIVE_GET_CLASS (draftable)->draft_kind;
}

static GFile *
draftable_get_file (MatDraftable *draftable)
{
  return mat_archive_get_file (MAT_ARCHIVE (draftable));
}

static const char *
draftable_get_etag (MatDraftable *draftable)
{
  return mat_archive_get_etag (MAT_ARCHIVE (draftable));
}

static gboolean
draftable_get_dirty (MatDraftable *draftable)
{
  return mat_archive_get_dirty (MAT_ARCHIVE (draftable));
}

static MatHistory *
draftable_get_history (MatDraftable *draftable)
{
  return mat_archive_get_history (MAT_ARCHIVE (draftable));
}

static MatSavePlan *
draftable_plan_save (MatDraftable  *draftable,
                     GError       **error)
{
  MatArchive *self = MAT_ARCHIVE (draftable);

  return MAT_ARCHIVE_GET_CLASS (self)->plan_save (self);
}

static void
mat_archive_draftable_init (MatDraftableInterface *iface)
{
  iface->get_kind = draftable_get_kind;
  iface->get_file = draftable_get_file;
  iface->get_etag = draftable_get_etag;
  iface->get_dirty = draftable_get_dirty;
  iface->get_history = draftable_get_history;
  iface->plan_save = draftable_plan_save;
}

/* ---- GObject ------------------------------------------------------------- */

static void
mat_archive_dispose (GObject *object)
{
  MatArchive *self = MAT_ARCHIVE (object);
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);

  /* Commands point at the archive: drop them before it goes (a view may
   * hold the history a while longer). */
  if (priv->history != NULL)
    {
      g_signal_handlers_disconnect_by_data (priv->history, self);
      _mat_history_clear (priv->history);
    }
  g_clear_object (&priv->history);
  g_clear_object (&priv->file);

  G_OBJECT_CLASS (mat_archive_parent_class)->dispose (object);
}

static void
mat_archive_finalize (GObject *object)
{
  MatArchive *self = MAT_ARCHIVE (object);
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);

  g_clear_pointer (&priv->base, nres_archive_free);
  g_clear_pointer (&priv->etag, g_free);

  G_OBJECT_CLASS (mat_archive_parent_class)->finalize (object);
}

static void
mat_archive_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  MatArchive *self = MAT_ARCHIVE (object);
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, priv->file);
      break;
    case PROP_DIRTY:
      g_value_set_boolean (value, priv->dirty);
      break;
    case PROP_HISTORY:
      g_value_set_object (value, priv->history);
      break;
    case PROP_ETAG:
      g_value_set_string (value, priv->etag);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_archive_class_init (MatArchiveClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = mat_archive_dispose;
  object_class->finalize = mat_archive_finalize;
  object_class->get_property = mat_archive_get_property;

  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, flags);
  properties[PROP_DIRTY] = g_param_spec_boolean ("dirty", NULL, NULL, FALSE, flags);
  properties[PROP_HISTORY] = g_param_spec_object ("history", NULL, NULL, MAT_TYPE_HISTORY, flags);
  properties[PROP_ETAG] = g_param_spec_string ("etag", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mat_archive_init (MatArchive *self)
{
  MatArchivePrivate *priv = mat_archive_get_instance_private (self);

  priv->history = _mat_history_new ();
  g_signal_connect_object (priv->history, "changed", G_CALLBACK (history_changed_cb), self,
                           G_CONNECT_SWAPPED);
}
