/* mat-archive-set.c - the archives open for editing, one per file */
#include "config.h"

#include "mat-archive-set.h"

struct _MatArchiveSet
{
  GObject    parent_instance;

  GPtrArray *archives;   /* MatArchive, owned */
  guint      n_dirty;
};

static void mat_archive_set_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MatArchiveSet, mat_archive_set, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      mat_archive_set_list_model_init))

enum {
  PROP_0,
  PROP_DIRTY,
  PROP_N_DIRTY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- GListModel -------------------------------------------------------- */

static GType
mat_archive_set_get_item_type (GListModel *model)
{
  return MAT_TYPE_ARCHIVE;
}

static guint
mat_archive_set_get_n_items (GListModel *model)
{
  return MAT_ARCHIVE_SET (model)->archives->len;
}

static gpointer
mat_archive_set_get_item (GListModel *model,
                          guint       position)
{
  MatArchiveSet *self = MAT_ARCHIVE_SET (model);

  if (position >= self->archives->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->archives, position));
}

static void
mat_archive_set_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = mat_archive_set_get_item_type;
  iface->get_n_items = mat_archive_set_get_n_items;
  iface->get_item = mat_archive_set_get_item;
}

/* ---- dirty --------------------------------------------------------------- */

static void
recount (MatArchiveSet *self)
{
  guint n = 0;
  gboolean was_dirty = self->n_dirty > 0;

  for (guint i = 0; i < self->archives->len; i++)
    if (mat_archive_get_dirty (g_ptr_array_index (self->archives, i)))
      n++;
  if (n == self->n_dirty)
    return;
  self->n_dirty = n;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_DIRTY]);
  if (was_dirty != (n > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRTY]);
}

static void
dirty_changed_cb (MatArchiveSet *self,
                  GParamSpec    *pspec,
                  MatArchive    *archive)
{
  recount (self);
}

/* ---- public -------------------------------------------------------------- */

MatArchiveSet *
mat_archive_set_new (void)
{
  return g_object_new (MAT_TYPE_ARCHIVE_SET, NULL);
}

void
mat_archive_set_add (MatArchiveSet *self,
                     MatArchive    *archive)
{
  g_return_if_fail (MAT_IS_ARCHIVE_SET (self));
  g_return_if_fail (MAT_IS_ARCHIVE (archive));

  if (g_ptr_array_find (self->archives, archive, NULL))
    return;
  g_ptr_array_add (self->archives, g_object_ref (archive));
  g_signal_connect_object (archive, "notify::dirty", G_CALLBACK (dirty_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_list_model_items_changed (G_LIST_MODEL (self), self->archives->len - 1, 0, 1);
  recount (self);
}

gboolean
mat_archive_set_remove (MatArchiveSet *self,
                        MatArchive    *archive)
{
  guint position;

  g_return_val_if_fail (MAT_IS_ARCHIVE_SET (self), FALSE);
  g_return_val_if_fail (MAT_IS_ARCHIVE (archive), FALSE);

  if (!g_ptr_array_find (self->archives, archive, &position))
    return FALSE;
  g_signal_handlers_disconnect_by_data (archive, self);
  g_ptr_array_remove_index (self->archives, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
  recount (self);
  return TRUE;
}

MatArchive *
mat_archive_set_lookup (MatArchiveSet *self,
                        GFile         *file)
{
  g_return_val_if_fail (MAT_IS_ARCHIVE_SET (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  for (guint i = 0; i < self->archives->len; i++)
    {
      MatArchive *archive = g_ptr_array_index (self->archives, i);
      GFile *own = mat_archive_get_file (archive);

      if (own != NULL && g_file_equal (own, file))
        return archive;
    }
  return NULL;
}

gboolean
mat_archive_set_get_dirty (MatArchiveSet *self)
{
  g_return_val_if_fail (MAT_IS_ARCHIVE_SET (self), FALSE);

  return self->n_dirty > 0;
}

guint
mat_archive_set_get_n_dirty (MatArchiveSet *self)
{
  g_return_val_if_fail (MAT_IS_ARCHIVE_SET (self), 0);

  return self->n_dirty;
}

GPtrArray *
mat_archive_set_dup_dirty (MatArchiveSet *self)
{
  GPtrArray *dirty;

  g_return_val_if_fail (MAT_IS_ARCHIVE_SET (self), NULL);

  dirty = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < self->archives->len; i++)
    {
      MatArchive *archive = g_ptr_array_index (self->archives, i);

      if (mat_archive_get_dirty (archive))
        g_ptr_array_add (dirty, g_object_ref (archive));
    }
  return dirty;
}

/* ---- GObject ------------------------------------------------------------- */

static void
mat_archive_set_dispose (GObject *object)
{
  MatArchiveSet *self = MAT_ARCHIVE_SET (object);

  for (guint i = 0; i < self->archives->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->archives, i), self);
  g_ptr_array_set_size (self->archives, 0);

  G_OBJECT_CLASS (mat_archive_set_parent_class)->dispose (object);
}

static void
mat_archive_set_finalize (GObject *object)
{
  MatArchiveSet *self = MAT_ARCHIVE_SET (object);

  g_clear_pointer (&self->archives, g_ptr_array_unref);

  G_OBJECT_CLASS (mat_archive_set_parent_class)->finalize (object);
}

static void
mat_archive_set_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  MatArchiveSet *self = MAT_ARCHIVE_SET (object);

  switch (prop_id)
    {
    case PROP_DIRTY:
      g_value_set_boolean (value, self->n_dirty > 0);
      break;
    case PROP_N_DIRTY:
      g_value_set_uint (value, self->n_dirty);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_archive_set_class_init (MatArchiveSetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = mat_archive_set_dispose;
  object_class->finalize = mat_archive_set_finalize;
  object_class->get_property = mat_archive_set_get_property;

  properties[PROP_DIRTY] = g_param_spec_boolean ("dirty", NULL, NULL, FALSE, flags);
  properties[PROP_N_DIRTY] = g_param_spec_uint ("n-dirty", NULL, NULL, 0, G_MAXUINT, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mat_archive_set_init (MatArchiveSet *self)
{
  self->archives = g_ptr_array_new_with_free_func (g_object_unref);
}
