/* mat-key.c - one key of an animation block */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat-model-private.h"

struct _MatKey
{
  GObject       parent_instance;

  MatAnimBlock *block;    /* not owned; %NULL when detached */
  guint         index;
  Mat0Key       data;
};

G_DEFINE_FINAL_TYPE (MatKey, mat_key, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_INDEX,
  PROP_K0,
  PROP_K1,
  PROP_K2,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

MatKey *
_mat_key_new (const Mat0Key *data)
{
  MatKey *self = g_object_new (MAT_TYPE_KEY, NULL);

  if (data != NULL)
    self->data = *data;

  return self;
}

Mat0Key *
_mat_key_get_data (MatKey *self)
{
  return &self->data;
}

void
_mat_key_attach (MatKey       *self,
                 MatAnimBlock *block,
                 guint         index)
{
  self->block = block;
  if (block != NULL && self->index != index)
    {
      self->index = index;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEX]);
    }
}

static guint16 *
field_ptr (MatKey *self,
           guint   field)
{
  switch (field)
    {
    case 0: return &self->data.k0;
    case 1: return &self->data.k1;
    default: return &self->data.k2;
    }
}

static void
key_changed (MatKey *self,
             guint   field)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_K0 + field]);
  if (self->block != NULL)
    _mat_anim_block_content_changed (self->block);
}

void
_mat_key_swap_k0 (MatKey  *self,
                  guint16 *value)
{
  guint16 old = self->data.k0;

  self->data.k0 = *value;
  *value = old;
  if (old != self->data.k0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_K0]);
}

void
_mat_key_swap_k1 (MatKey  *self,
                  guint16 *value)
{
  guint16 old = self->data.k1;

  self->data.k1 = *value;
  *value = old;
  if (old != self->data.k1)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_K1]);
}

/* Command: set one field, holding the replaced value. */
typedef struct {
  MatCommand  parent;
  MatKey     *key;
  guint       field;
  guint16     value;
} SetFieldCommand;

static void
set_field_run (MatCommand *cmd,
               gboolean    undo)
{
  SetFieldCommand *self = (SetFieldCommand *) cmd;
  guint16 *p = field_ptr (self->key, self->field);
  guint16 old = *p;

  *p = self->value;
  self->value = old;
  if (old != *p)
    key_changed (self->key, self->field);
}

static void
set_field_free (MatCommand *cmd)
{
  SetFieldCommand *self = (SetFieldCommand *) cmd;

  g_clear_object (&self->key);
}

static gboolean
set_field_merge (MatCommand       *cmd,
                 const MatCommand *next)
{
  SetFieldCommand *a = (SetFieldCommand *) cmd;
  const SetFieldCommand *b = (const SetFieldCommand *) next;

  return a->key == b->key && a->field == b->field;
}

static const MatCommandClass set_field_class = {
  set_field_run,
  set_field_free,
  set_field_merge,
};

static gboolean
set_field (MatKey   *self,
           guint     field,
           guint16   value,
           GError  **error)
{
  static const char *const labels[] = {
    N_("Change Key Phase"), N_("Change Key Time"), N_("Change Key k2"),
  };
  MatMaterial *material;
  SetFieldCommand *cmd;

  g_return_val_if_fail (MAT_IS_KEY (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  material = self->block != NULL ? _mat_anim_block_get_material (self->block) : NULL;
  if (!_mat_material_check_editable (material, error))
    return FALSE;
  if (*field_ptr (self, field) == value)
    return TRUE;

  cmd = _mat_command_new (&set_field_class, sizeof (SetFieldCommand), _(labels[field]));
  cmd->key = g_object_ref (self);
  cmd->field = field;
  cmd->value = value;
  _mat_history_push (_mat_material_get_history (material), &cmd->parent);

  return TRUE;
}

MatAnimBlock *
mat_key_get_block (MatKey *self)
{
  g_return_val_if_fail (MAT_IS_KEY (self), NULL);

  return self->block;
}

guint
mat_key_get_index (MatKey *self)
{
  g_return_val_if_fail (MAT_IS_KEY (self), 0);

  return self->index;
}

guint16
mat_key_get_k0 (MatKey *self)
{
  g_return_val_if_fail (MAT_IS_KEY (self), 0);

  return self->data.k0;
}

guint16
mat_key_get_k1 (MatKey *self)
{
  g_return_val_if_fail (MAT_IS_KEY (self), 0);

  return self->data.k1;
}

guint16
mat_key_get_k2 (MatKey *self)
{
  g_return_val_if_fail (MAT_IS_KEY (self), 0);

  return self->data.k2;
}

gboolean
mat_key_set_k0 (MatKey   *self,
                guint16   value,
                GError  **error)
{
  return set_field (self, 0, value, error);
}

gboolean
mat_key_set_k1 (MatKey   *self,
                guint16   value,
                GError  **error)
{
  return set_field (self, 1, value, error);
}

gboolean
mat_key_set_k2 (MatKey   *self,
                guint16   value,
                GError  **error)
{
  return set_field (self, 2, value, error);
}

static void
mat_key_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  MatKey *self = MAT_KEY (object);

  switch (prop_id)
    {
    case PROP_INDEX:
      g_value_set_uint (value, self->index);
      break;
    case PROP_K0:
      g_value_set_uint (value, self->data.k0);
      break;
    case PROP_K1:
      g_value_set_uint (value, self->data.k1);
      break;
    case PROP_K2:
      g_value_set_uint (value, self->data.k2);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_key_class_init (MatKeyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = mat_key_get_property;

  properties[PROP_INDEX] =
    g_param_spec_uint ("index", NULL, NULL, 0, G_MAXUINT16, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_K0] =
    g_param_spec_uint ("k0", NULL, NULL, 0, G_MAXUINT16, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_K1] =
    g_param_spec_uint ("k1", NULL, NULL, 0, G_MAXUINT16, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_K2] =
    g_param_spec_uint ("k2", NULL, NULL, 0, G_MAXUINT16, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mat_key_init (MatKey *self)
{
}
