/* mat-model-entry.c - one model of a model archive */
#include "config.h"

#include <string.h>

#include "cp1251.h"

#include "mat-model-private.h"

struct _MatModelEntry
{
  GObject         parent_instance;

  MatArchive     *archive;     /* not a reference: it owns the entry */
  MatArchiveSlot *mesh;        /* nullable */
  MatArchiveSlot *wear;        /* nullable */
  char           *stem;
  char           *mesh_member;
  char           *wear_member;
  WearTable      *table;       /* read from wear->payload */
};

G_DEFINE_FINAL_TYPE (MatModelEntry, mat_model_entry, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STEM,
  PROP_MESH_MEMBER,
  PROP_WEAR_MEMBER,
  PROP_N_ROWS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *
slot_name (const MatArchiveSlot *slot)
{
  return cp1251_to_utf8 ((const guint8 *) slot->entry.name, NRES_NAME_SIZE);
}

static void
read_wear (MatModelEntry *self)
{
  g_clear_pointer (&self->table, wear_table_free);
  if (self->wear != NULL)
    self->table = wear_table_read (self->wear->payload, _mat_archive_slot_offset (self->archive,
                                                                                  self->wear),
                                   self->wear_member);
}

MatModelEntry *
_mat_model_entry_new (MatArchive     *archive,
                      MatArchiveSlot *mesh,
                      MatArchiveSlot *wear)
{
  MatModelEntry *self;
  const char *named;
  const char *dot;

  g_return_val_if_fail (MAT_IS_ARCHIVE (archive), NULL);
  g_return_val_if_fail (mesh != NULL || wear != NULL, NULL);

  self = g_object_new (MAT_TYPE_MODEL_ENTRY, NULL);
  self->archive = archive;
  if (mesh != NULL)
    {
      self->mesh = _mat_archive_slot_ref (mesh);
      self->mesh_member = slot_name (mesh);
    }
  if (wear != NULL)
    {
      self->wear = _mat_archive_slot_ref (wear);
      self->wear_member = slot_name (wear);
    }
  named = self->mesh_member != NULL ? self->mesh_member : self->wear_member;
  dot = strrchr (named, '.');
  self->stem = dot != NULL && dot != named ? g_strndup (named, (gsize) (dot - named))
                                           : g_strdup (named);
  read_wear (self);
  return self;
}

MatArchiveSlot *
_mat_model_entry_get_mesh_slot (MatModelEntry *self)
{
  return self->mesh;
}

MatArchiveSlot *
_mat_model_entry_get_wear_slot (MatModelEntry *self)
{
  return self->wear;
}

void
_mat_model_entry_reload_wear (MatModelEntry *self)
{
  guint n_before = mat_model_entry_get_n_rows (self);

  read_wear (self);
  if (mat_model_entry_get_n_rows (self) != n_before)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ROWS]);
  g_signal_emit (self, signals[CHANGED], 0);
}

gboolean
_mat_model_entry_wear_moved (MatModelEntry *self)
{
  return self->table != NULL &&
         self->table->base_offset != _mat_archive_slot_offset (self->archive, self->wear);
}

void
_mat_model_entry_detach (MatModelEntry *self)
{
  self->archive = NULL;
}

/* ---- public ------------------------------------------------------------ */

const char *
mat_model_entry_get_stem (MatModelEntry *self)
{
  g_return_val_if_fail (MAT_IS_MODEL_ENTRY (self), NULL);

  return self->stem;
}

const char *
mat_model_entry_get_mesh_member (MatModelEntry *self)
{
  g_return_val_if_fail (MAT_IS_MODEL_ENTRY (self), NULL);

  return self->mesh_member;
}

const char *
mat_model_entry_get_wear_member (MatModelEntry *self)
{
  g_return_val_if_fail (MAT_IS_MODEL_ENTRY (self), NULL);

  return self->wear_member;
}

MatArchive *
mat_model_entry_get_archive (MatModelEntry *self)
{
  g_return_val_if_fail (MAT_IS_MODEL_ENTRY (self), NULL);

  return self->archive;
}

const WearTable *
mat_model_entry_get_wear (MatModelEntry *self)
{
  g_return_val_if_fail (MAT_IS_MODEL_ENTRY (self), NULL);

  return self->table;
}

guint
mat_model_entry_get_n_rows (MatModelEntry *self)
{
  g_return_val_if_fail (MAT_IS_MODEL_ENTRY (self), 0);

  return self->table != NULL ? self->table->n_rows : 0;
}

const char *
mat_model_entry_get_row_name (MatModelEntry *self,
                              guint          row)
{
  g_return_val_if_fail (MAT_IS_MODEL_ENTRY (self), NULL);

  if (self->table == NULL || row >= self->table->n_rows)
    return NULL;
  return self->table->rows[row].name;
}

GBytes *
mat_model_entry_get_mesh (MatModelEntry *self)
{
  g_return_val_if_fail (MAT_IS_MODEL_ENTRY (self), NULL);

  return self->mesh != NULL ? self->mesh->payload : NULL;
}

MshModel *
mat_model_entry_read_mesh (MatModelEntry *self)
{
  guint64 offset = 0;

  g_return_val_if_fail (MAT_IS_MODEL_ENTRY (self), NULL);

  if (self->mesh == NULL)
    return NULL;
  if (self->archive != NULL)
    offset = _mat_archive_slot_offset (self->archive, self->mesh);
  return msh_model_read (self->mesh->payload, offset, self->mesh_member);
}

/* ---- GObject ----------------------------------------------------------- */

static void
mat_model_entry_finalize (GObject *object)
{
  MatModelEntry *self = MAT_MODEL_ENTRY (object);

  g_clear_pointer (&self->mesh, _mat_archive_slot_unref);
  g_clear_pointer (&self->wear, _mat_archive_slot_unref);
  g_clear_pointer (&self->table, wear_table_free);
  g_free (self->stem);
  g_free (self->mesh_member);
  g_free (self->wear_member);

  G_OBJECT_CLASS (mat_model_entry_parent_class)->finalize (object);
}

static void
mat_model_entry_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  MatModelEntry *self = MAT_MODEL_ENTRY (object);

  switch (prop_id)
    {
    case PROP_STEM:
      g_value_set_string (value, self->stem);
      break;
    case PROP_MESH_MEMBER:
      g_value_set_string (value, self->mesh_member);
      break;
    case PROP_WEAR_MEMBER:
      g_value_set_string (value, self->wear_member);
      break;
    case PROP_N_ROWS:
      g_value_set_uint (value, mat_model_entry_get_n_rows (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_model_entry_class_init (MatModelEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = mat_model_entry_finalize;
  object_class->get_property = mat_model_entry_get_property;

  properties[PROP_STEM] = g_param_spec_string ("stem", NULL, NULL, NULL, flags);
  properties[PROP_MESH_MEMBER] = g_param_spec_string ("mesh-member", NULL, NULL, NULL, flags);
  properties[PROP_WEAR_MEMBER] = g_param_spec_string ("wear-member", NULL, NULL, NULL, flags);
  properties[PROP_N_ROWS] = g_param_spec_uint ("n-rows", NULL, NULL, 0, G_MAXUINT, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MatModelEntry::changed:
   *
   * The wear table was replaced: a WEAR edit, its undo or redo, or a
   * save that moved the member in the file.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mat_model_entry_init (MatModelEntry *self)
{
}
