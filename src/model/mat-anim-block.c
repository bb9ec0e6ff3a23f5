/* mat-anim-block.c - one animation block of a material */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat-model-private.h"

struct _MatAnimBlock
{
  GObject      parent_instance;

  MatMaterial *material;   /* not owned; %NULL when detached */
  guint        index;
  guint32      header_raw;
  GListStore  *keys;       /* MatKey */
  guint32      period;     /* cached for notify */
};

G_DEFINE_FINAL_TYPE (MatAnimBlock, mat_anim_block, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_INDEX,
  PROP_HEADER_RAW,
  PROP_MODE,
  PROP_INTERP_MASK,
  PROP_N_KEYS,
  PROP_PERIOD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static MatKey *
key_at (MatAnimBlock *self,
        guint         i)
{
  MatKey *key = g_list_model_get_item (G_LIST_MODEL (self->keys), i);

  g_object_unref (key);   /* the store keeps it */
  return key;
}

/* The last key's time (formats.md 2.3), 0 without keys. */
static guint32
compute_period (MatAnimBlock *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->keys));

  return n > 0 ? mat_key_get_k1 (key_at (self, n - 1)) : 0;
}

MatAnimBlock *
_mat_anim_block_new (const Mat0Block *data)
{
  MatAnimBlock *self = g_object_new (MAT_TYPE_ANIM_BLOCK, NULL);

  if (data != NULL)
    {
      self->header_raw = data->header_raw;
      for (guint i = 0; i < data->n_keys; i++)
        {
          g_autoptr(MatKey) key = _mat_key_new (&data->keys[i]);

          _mat_key_attach (key, self, i);
          g_list_store_append (self->keys, key);
        }
      self->period = compute_period (self);
    }

  return self;
}

void
_mat_anim_block_attach (MatAnimBlock *self,
                        MatMaterial  *material,
                        guint         index)
{
  self->material = material;
  if (material != NULL && self->index != index)
    {
      self->index = index;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEX]);
    }
}

MatMaterial *
_mat_anim_block_get_material (MatAnimBlock *self)
{
  return self->material;
}

void
_mat_anim_block_to_core (MatAnimBlock *self,
                         Mat0Block    *out)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->keys));

  out->header_raw = self->header_raw;
  out->n_keys = n;
  out->keys = g_new0 (Mat0Key, n > 0 ? n : 1);
  for (guint i = 0; i < n; i++)
    out->keys[i] = *_mat_key_get_data (key_at (self, i));
}

void
_mat_anim_block_content_changed (MatAnimBlock *self)
{
  guint32 period = compute_period (self);

  if (period != self->period)
    {
      self->period = period;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PERIOD]);
    }
  if (self->material != NULL)
    _mat_material_content_changed (self->material);
}

static void
renumber (MatAnimBlock *self,
          guint         from)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->keys));

  for (guint i = from; i < n; i++)
    _mat_key_attach (key_at (self, i), self, i);
}

/* Command: the header, holding the replaced value. */
typedef struct {
  MatCommand    parent;
  MatAnimBlock *block;
  guint32       header_raw;
} SetHeaderCommand;

void
_mat_anim_block_swap_header (MatAnimBlock *block,
                             guint32      *header_raw)
{
  guint32 old = block->header_raw;

  block->header_raw = *header_raw;
  *header_raw = old;
  if (old == block->header_raw)
    return;

  g_object_freeze_notify (G_OBJECT (block));
  g_object_notify_by_pspec (G_OBJECT (block), properties[PROP_HEADER_RAW]);
  if ((old & 7u) != (block->header_raw & 7u))
    g_object_notify_by_pspec (G_OBJECT (block), properties[PROP_MODE]);
  if ((old >> 3) != (block->header_raw >> 3))
    g_object_notify_by_pspec (G_OBJECT (block), properties[PROP_INTERP_MASK]);
  g_object_thaw_notify (G_OBJECT (block));
  if (block->material != NULL)
    _mat_material_content_changed (block->material);
}

static void
set_header_run (MatCommand *cmd,
                gboolean    undo)
{
  SetHeaderCommand *self = (SetHeaderCommand *) cmd;

  _mat_anim_block_swap_header (self->block, &self->header_raw);
}

static void
block_command_free (MatCommand *cmd)
{
  SetHeaderCommand *self = (SetHeaderCommand *) cmd;

  g_clear_object (&self->block);
}

static gboolean
set_header_merge (MatCommand       *cmd,
                  const MatCommand *next)
{
  return ((SetHeaderCommand *) cmd)->block == ((const SetHeaderCommand *) next)->block;
}

static const MatCommandClass set_header_class = {
  set_header_run,
  block_command_free,
  set_header_merge,
};

/* Command: insert (or, with @remove, remove) one key. */
typedef struct {
  MatCommand    parent;
  MatAnimBlock *block;
  MatKey       *key;
  guint         position;
  gboolean      remove;
} KeyListCommand;

static void
keys_changed (MatAnimBlock *self,
              guint         from,
              guint         n_before)
{
  renumber (self, from);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->keys)) != n_before)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_KEYS]);
  _mat_anim_block_content_changed (self);
}

static void
key_list_run (MatCommand *cmd,
              gboolean    undo)
{
  KeyListCommand *self = (KeyListCommand *) cmd;
  MatAnimBlock *block = self->block;
  guint n_before = g_list_model_get_n_items (G_LIST_MODEL (block->keys));

  if (self->remove == undo)
    {
      _mat_key_attach (self->key, block, self->position);
      g_list_store_insert (block->keys, self->position, self->key);
    }
  else
    {
      g_list_store_remove (block->keys, self->position);
      _mat_key_attach (self->key, NULL, 0);
    }
  keys_changed (block, self->position, n_before);
}

static void
key_list_free (MatCommand *cmd)
{
  KeyListCommand *self = (KeyListCommand *) cmd;

  g_clear_object (&self->block);
  g_clear_object (&self->key);
}

static const MatCommandClass key_list_class = {
  key_list_run,
  key_list_free,
  NULL,
};

/* Command: move one key. */
typedef struct {
  MatCommand    parent;
  MatAnimBlock *block;
  guint         from;
  guint         to;
} MoveKeyCommand;

static void
move_key_run (MatCommand *cmd,
              gboolean    undo)
{
  MoveKeyCommand *self = (MoveKeyCommand *) cmd;
  MatAnimBlock *block = self->block;
  guint from = undo ? self->to : self->from;
  guint to = undo ? self->from : self->to;
  g_autoptr(MatKey) key = g_list_model_get_item (G_LIST_MODEL (block->keys), from);

  g_list_store_remove (block->keys, from);
  g_list_store_insert (block->keys, to, key);
  keys_changed (block, MIN (from, to), g_list_model_get_n_items (G_LIST_MODEL (block->keys)));
}

static const MatCommandClass move_key_class = {
  move_key_run,
  block_command_free,
  NULL,
};

MatMaterial *
mat_anim_block_get_material (MatAnimBlock *self)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), NULL);

  return self->material;
}

guint
mat_anim_block_get_index (MatAnimBlock *self)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), 0);

  return self->index;
}

guint32
mat_anim_block_get_header_raw (MatAnimBlock *self)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), 0);

  return self->header_raw;
}

guint
mat_anim_block_get_mode (MatAnimBlock *self)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), 0);

  return self->header_raw & 7u;
}

guint32
mat_anim_block_get_interp_mask (MatAnimBlock *self)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), 0);

  return self->header_raw >> 3;
}

guint
mat_anim_block_get_n_keys (MatAnimBlock *self)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->keys));
}

guint32
mat_anim_block_get_period (MatAnimBlock *self)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), 0);

  return self->period;
}

GListModel *
mat_anim_block_get_keys (MatAnimBlock *self)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), NULL);

  return G_LIST_MODEL (self->keys);
}

gboolean
mat_anim_block_set_header_raw (MatAnimBlock  *self,
                               guint32        header_raw,
                               GError       **error)
{
  SetHeaderCommand *cmd;

  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self->material, error))
    return FALSE;
  if (header_raw == self->header_raw)
    return TRUE;

  cmd = _mat_command_new (&set_header_class, sizeof (SetHeaderCommand),
                          _("Change Animation Mode"));
  cmd->block = g_object_ref (self);
  cmd->header_raw = header_raw;
  _mat_history_push (_mat_material_get_history (self->material), &cmd->parent);

  return TRUE;
}

gboolean
mat_anim_block_set_mode (MatAnimBlock  *self,
                         guint          mode,
                         GError       **error)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), FALSE);
  g_return_val_if_fail (mode < 8, FALSE);

  return mat_anim_block_set_header_raw (self, (self->header_raw & ~7u) | mode, error);
}

gboolean
mat_anim_block_set_interp_mask (MatAnimBlock  *self,
                                guint32        mask,
                                GError       **error)
{
  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), FALSE);
  g_return_val_if_fail (mask < (1u << 29), FALSE);

  return mat_anim_block_set_header_raw (self, (self->header_raw & 7u) | (mask << 3), error);
}

MatKey *
mat_anim_block_insert_key (MatAnimBlock  *self,
                           guint          position,
                           guint16        k0,
                           guint16        k1,
                           GError       **error)
{
  KeyListCommand *cmd;
  Mat0Key data = { k0, k1, 0 };
  MatKey *key;

  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), NULL);
  g_return_val_if_fail (position <= mat_anim_block_get_n_keys (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!_mat_material_check_editable (self->material, error))
    return NULL;
  if (mat_anim_block_get_n_keys (self) >= G_MAXUINT16)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TOO_MANY_ITEMS,
                   _("A block holds at most %u keys"), (guint) G_MAXUINT16);
      return NULL;
    }

  key = _mat_key_new (&data);
  cmd = _mat_command_new (&key_list_class, sizeof (KeyListCommand), _("Add Key"));
  cmd->block = g_object_ref (self);
  cmd->key = key;
  cmd->position = position;
  cmd->remove = FALSE;
  _mat_history_push (_mat_material_get_history (self->material), &cmd->parent);

  return key;
}

gboolean
mat_anim_block_remove_key (MatAnimBlock  *self,
                           guint          position,
                           GError       **error)
{
  KeyListCommand *cmd;

  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), FALSE);
  g_return_val_if_fail (position < mat_anim_block_get_n_keys (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self->material, error))
    return FALSE;

  cmd = _mat_command_new (&key_list_class, sizeof (KeyListCommand), C_("undo step of the model", "Delete Key"));
  cmd->block = g_object_ref (self);
  cmd->key = g_list_model_get_item (G_LIST_MODEL (self->keys), position);
  cmd->position = position;
  cmd->remove = TRUE;
  _mat_history_push (_mat_material_get_history (self->material), &cmd->parent);

  return TRUE;
}

gboolean
mat_anim_block_move_key (MatAnimBlock  *self,
                         guint          from,
                         guint          to,
                         GError       **error)
{
  MoveKeyCommand *cmd;
  guint n;

  g_return_val_if_fail (MAT_IS_ANIM_BLOCK (self), FALSE);
  n = mat_anim_block_get_n_keys (self);
  g_return_val_if_fail (from < n && to < n, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self->material, error))
    return FALSE;
  if (from == to)
    return TRUE;

  cmd = _mat_command_new (&move_key_class, sizeof (MoveKeyCommand), _("Move Key"));
  cmd->block = g_object_ref (self);
  cmd->from = from;
  cmd->to = to;
  _mat_history_push (_mat_material_get_history (self->material), &cmd->parent);

  return TRUE;
}

static void
mat_anim_block_dispose (GObject *object)
{
  MatAnimBlock *self = (MatAnimBlock *) object;

  if (self->keys != NULL)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->keys));

      for (guint i = 0; i < n; i++)
        _mat_key_attach (key_at (self, i), NULL, 0);
    }
  g_clear_object (&self->keys);

  G_OBJECT_CLASS (mat_anim_block_parent_class)->dispose (object);
}

static void
mat_anim_block_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  MatAnimBlock *self = MAT_ANIM_BLOCK (object);

  switch (prop_id)
    {
    case PROP_INDEX:
      g_value_set_uint (value, self->index);
      break;
    case PROP_HEADER_RAW:
      g_value_set_uint (value, self->header_raw);
      break;
    case PROP_MODE:
      g_value_set_uint (value, self->header_raw & 7u);
      break;
    case PROP_INTERP_MASK:
      g_value_set_uint (value, self->header_raw >> 3);
      break;
    case PROP_N_KEYS:
      g_value_set_uint (value, mat_anim_block_get_n_keys (self));
      break;
    case PROP_PERIOD:
      g_value_set_uint (value, self->period);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_anim_block_class_init (MatAnimBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mat_anim_block_dispose;
  object_class->get_property = mat_anim_block_get_property;

  properties[PROP_INDEX] =
    g_param_spec_uint ("index", NULL, NULL, 0, MAT0_MAX_BLOCKS, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HEADER_RAW] =
    g_param_spec_uint ("header-raw", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODE] =
    g_param_spec_uint ("mode", NULL, NULL, 0, 7, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INTERP_MASK] =
    g_param_spec_uint ("interp-mask", NULL, NULL, 0, G_MAXUINT32 >> 3, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_KEYS] =
    g_param_spec_uint ("n-keys", NULL, NULL, 0, G_MAXUINT16, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PERIOD] =
    g_param_spec_uint ("period", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mat_anim_block_init (MatAnimBlock *self)
{
  self->keys = g_list_store_new (MAT_TYPE_KEY);
}
