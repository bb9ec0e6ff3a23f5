/* mat-phase.c - one 34-byte phase record of a material */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat-model-private.h"

struct _MatPhase
{
  GObject      parent_instance;

  MatMaterial *material;   /* not owned; %NULL when detached */
  guint        index;
  Mat0Phase    data;
  char        *texture;    /* UTF-8 cache of data.texture */
};

G_DEFINE_FINAL_TYPE (MatPhase, mat_phase, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_INDEX,
  PROP_TEXTURE,
  PROP_TEXTURED,
  PROP_P0,
  N_PROPS = PROP_P0 + MAT0_PARAM_COUNT
};

enum {
  PARAM_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

MatPhase *
_mat_phase_new (const Mat0Phase *data)
{
  MatPhase *self = g_object_new (MAT_TYPE_PHASE, NULL);

  if (data != NULL)
    self->data = *data;

  return self;
}

Mat0Phase *
_mat_phase_get_data (MatPhase *self)
{
  return &self->data;
}

void
_mat_phase_attach (MatPhase    *self,
                   MatMaterial *material,
                   guint        index)
{
  self->material = material;
  if (material != NULL && self->index != index)
    {
      self->index = index;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEX]);
    }
}

static void
param_changed (MatPhase *self,
               guint     index)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_P0 + index]);
  g_signal_emit (self, signals[PARAM_CHANGED], 0, index);
}

static void
content_changed (MatPhase *self)
{
  if (self->material != NULL)
    _mat_material_content_changed (self->material);
}

/* Command: one parameter, holding the replaced value. */
typedef struct {
  MatCommand  parent;
  MatPhase   *phase;
  guint       index;
  guint8      value;
} SetParamCommand;

static void
set_param_run (MatCommand *cmd,
               gboolean    undo)
{
  SetParamCommand *self = (SetParamCommand *) cmd;
  guint8 old = self->phase->data.p[self->index];

  self->phase->data.p[self->index] = self->value;
  self->value = old;
  if (old != self->phase->data.p[self->index])
    {
      param_changed (self->phase, self->index);
      content_changed (self->phase);
    }
}

static void
phase_command_free (MatCommand *cmd)
{
  SetParamCommand *self = (SetParamCommand *) cmd;

  g_clear_object (&self->phase);
}

static gboolean
set_param_merge (MatCommand       *cmd,
                 const MatCommand *next)
{
  SetParamCommand *a = (SetParamCommand *) cmd;
  const SetParamCommand *b = (const SetParamCommand *) next;

  return a->phase == b->phase && a->index == b->index;
}

static const MatCommandClass set_param_class = {
  set_param_run,
  phase_command_free,
  set_param_merge,
};

/* Command: all parameters. */
typedef struct {
  MatCommand  parent;
  MatPhase   *phase;
  guint8      p[MAT0_PARAM_COUNT];
} SetParamsCommand;

static void
set_params_run (MatCommand *cmd,
                gboolean    undo)
{
  SetParamsCommand *self = (SetParamsCommand *) cmd;
  guint8 old[MAT0_PARAM_COUNT];
  gboolean changed = FALSE;

  memcpy (old, self->phase->data.p, sizeof old);
  memcpy (self->phase->data.p, self->p, sizeof old);
  memcpy (self->p, old, sizeof old);

  g_object_freeze_notify (G_OBJECT (self->phase));
  for (guint i = 0; i < MAT0_PARAM_COUNT; i++)
    if (old[i] != self->phase->data.p[i])
      {
        param_changed (self->phase, i);
        changed = TRUE;
      }
  g_object_thaw_notify (G_OBJECT (self->phase));
  if (changed)
    content_changed (self->phase);
}

static gboolean
set_params_merge (MatCommand       *cmd,
                  const MatCommand *next)
{
  SetParamsCommand *a = (SetParamsCommand *) cmd;
  const SetParamsCommand *b = (const SetParamsCommand *) next;

  return a->phase == b->phase;
}

static const MatCommandClass set_params_class = {
  set_params_run,
  phase_command_free,
  set_params_merge,
};

/* Command: the raw texture field. */
typedef struct {
  MatCommand  parent;
  MatPhase   *phase;
  guint8      texture[MAT0_TEXTURE_SIZE];
} SetTextureCommand;

static void
set_texture_run (MatCommand *cmd,
                 gboolean    undo)
{
  SetTextureCommand *self = (SetTextureCommand *) cmd;
  MatPhase *phase = self->phase;
  guint8 old[MAT0_TEXTURE_SIZE];
  gboolean was_textured = mat0_phase_is_textured (&phase->data);
  g_autofree char *old_name = g_steal_pointer (&phase->texture);

  memcpy (old, phase->data.texture, sizeof old);
  memcpy (phase->data.texture, self->texture, sizeof old);
  memcpy (self->texture, old, sizeof old);
  phase->texture = mat0_phase_dup_texture (&phase->data);

  if (memcmp (old, phase->data.texture, sizeof old) == 0)
    return;

  g_object_freeze_notify (G_OBJECT (phase));
  if (g_strcmp0 (old_name, phase->texture) != 0)
    g_object_notify_by_pspec (G_OBJECT (phase), properties[PROP_TEXTURE]);
  if (was_textured != mat0_phase_is_textured (&phase->data))
    g_object_notify_by_pspec (G_OBJECT (phase), properties[PROP_TEXTURED]);
  g_object_thaw_notify (G_OBJECT (phase));
  content_changed (phase);
}

static gboolean
set_texture_merge (MatCommand       *cmd,
                   const MatCommand *next)
{
  SetTextureCommand *a = (SetTextureCommand *) cmd;
  const SetTextureCommand *b = (const SetTextureCommand *) next;

  return a->phase == b->phase;
}

static const MatCommandClass set_texture_class = {
  set_texture_run,
  phase_command_free,
  set_texture_merge,
};

void
_mat_phase_swap_data (MatPhase  *self,
                      Mat0Phase *data)
{
  Mat0Phase old = self->data;
  gboolean was_textured = mat0_phase_is_textured (&old);
  g_autofree char *old_name = g_steal_pointer (&self->texture);
  gboolean changed = FALSE;

  self->data = *data;
  *data = old;
  self->texture = mat0_phase_dup_texture (&self->data);

  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 0; i < MAT0_PARAM_COUNT; i++)
    if (old.p[i] != self->data.p[i])
      {
        param_changed (self, i);
        changed = TRUE;
      }
  if (memcmp (old.texture, self->data.texture, MAT0_TEXTURE_SIZE) != 0)
    {
      if (g_strcmp0 (old_name, self->texture) != 0)
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURE]);
      if (was_textured != mat0_phase_is_textured (&self->data))
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURED]);
      changed = TRUE;
    }
  g_object_thaw_notify (G_OBJECT (self));
  if (changed)
    content_changed (self);
}

MatMaterial *
mat_phase_get_material (MatPhase *self)
{
  g_return_val_if_fail (MAT_IS_PHASE (self), NULL);

  return self->material;
}

guint
mat_phase_get_index (MatPhase *self)
{
  g_return_val_if_fail (MAT_IS_PHASE (self), 0);

  return self->index;
}

guint8
mat_phase_get_param (MatPhase *self,
                     guint     index)
{
  g_return_val_if_fail (MAT_IS_PHASE (self), 0);
  g_return_val_if_fail (index < MAT0_PARAM_COUNT, 0);

  return self->data.p[index];
}

const guint8 *
mat_phase_get_params (MatPhase *self)
{
  g_return_val_if_fail (MAT_IS_PHASE (self), NULL);

  return self->data.p;
}

gboolean
mat_phase_set_param (MatPhase  *self,
                     guint      index,
                     guint8     value,
                     GError   **error)
{
  SetParamCommand *cmd;

  g_return_val_if_fail (MAT_IS_PHASE (self), FALSE);
  g_return_val_if_fail (index < MAT0_PARAM_COUNT, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self->material, error))
    return FALSE;
  if (self->data.p[index] == value)
    return TRUE;

  cmd = _mat_command_new (&set_param_class, sizeof (SetParamCommand),
                          _("Change Phase Parameter"));
  cmd->phase = g_object_ref (self);
  cmd->index = index;
  cmd->value = value;
  _mat_history_push (_mat_material_get_history (self->material), &cmd->parent);

  return TRUE;
}

gboolean
mat_phase_set_params (MatPhase      *self,
                      const guint8  *params,
                      GError       **error)
{
  SetParamsCommand *cmd;

  g_return_val_if_fail (MAT_IS_PHASE (self), FALSE);
  g_return_val_if_fail (params != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self->material, error))
    return FALSE;
  if (memcmp (self->data.p, params, MAT0_PARAM_COUNT) == 0)
    return TRUE;

  cmd = _mat_command_new (&set_params_class, sizeof (SetParamsCommand),
                          _("Change Phase Parameters"));
  cmd->phase = g_object_ref (self);
  memcpy (cmd->p, params, MAT0_PARAM_COUNT);
  _mat_history_push (_mat_material_get_history (self->material), &cmd->parent);

  return TRUE;
}

const char *
mat_phase_get_texture (MatPhase *self)
{
  g_return_val_if_fail (MAT_IS_PHASE (self), NULL);

  if (self->texture == NULL)
    self->texture = mat0_phase_dup_texture (&self->data);

  return self->texture;
}

const guint8 *
mat_phase_get_texture_raw (MatPhase *self)
{
  g_return_val_if_fail (MAT_IS_PHASE (self), NULL);

  return self->data.texture;
}

gboolean
mat_phase_get_textured (MatPhase *self)
{
  g_return_val_if_fail (MAT_IS_PHASE (self), FALSE);

  return mat0_phase_is_textured (&self->data);
}

gboolean
mat_phase_set_texture (MatPhase    *self,
                       const char  *texture,
                       GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  SetTextureCommand *cmd;
  Mat0Phase scratch;

  g_return_val_if_fail (MAT_IS_PHASE (self), FALSE);
  g_return_val_if_fail (texture != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self->material, error))
    return FALSE;

  scratch = self->data;
  if (!mat0_phase_set_texture (&scratch, texture, &local_error))
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TEXTURE_INVALID,
                   _("Texture name “%s” cannot be used: %s"),
                   texture, local_error->message);
      return FALSE;
    }
  /* The same name keeps the raw field (and its bytes after the NUL). */
  if (g_strcmp0 (mat_phase_get_texture (self), texture) == 0 &&
      mat0_phase_texture_len (&self->data) < MAT0_TEXTURE_SIZE)
    return TRUE;

  cmd = _mat_command_new (&set_texture_class, sizeof (SetTextureCommand),
                          _("Change Texture"));
  cmd->phase = g_object_ref (self);
  memcpy (cmd->texture, scratch.texture, MAT0_TEXTURE_SIZE);
  _mat_history_push (_mat_material_get_history (self->material), &cmd->parent);

  return TRUE;
}

gboolean
mat_phase_set_texture_raw (MatPhase      *self,
                           const guint8  *raw,
                           GError       **error)
{
  SetTextureCommand *cmd;

  g_return_val_if_fail (MAT_IS_PHASE (self), FALSE);
  g_return_val_if_fail (raw != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!_mat_material_check_editable (self->material, error))
    return FALSE;
  if (memcmp (self->data.texture, raw, MAT0_TEXTURE_SIZE) == 0)
    return TRUE;

  cmd = _mat_command_new (&set_texture_class, sizeof (SetTextureCommand),
                          _("Change Texture"));
  cmd->phase = g_object_ref (self);
  memcpy (cmd->texture, raw, MAT0_TEXTURE_SIZE);
  _mat_history_push (_mat_material_get_history (self->material), &cmd->parent);

  return TRUE;
}

static void
mat_phase_finalize (GObject *object)
{
  MatPhase *self = (MatPhase *) object;

  g_clear_pointer (&self->texture, g_free);

  G_OBJECT_CLASS (mat_phase_parent_class)->finalize (object);
}

static void
mat_phase_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  MatPhase *self = MAT_PHASE (object);

  if (prop_id >= PROP_P0 && prop_id < N_PROPS)
    {
      g_value_set_uint (value, self->data.p[prop_id - PROP_P0]);
      return;
    }

  switch (prop_id)
    {
    case PROP_INDEX:
      g_value_set_uint (value, self->index);
      break;
    case PROP_TEXTURE:
      g_value_set_string (value, mat_phase_get_texture (self));
      break;
    case PROP_TEXTURED:
      g_value_set_boolean (value, mat_phase_get_textured (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_phase_class_init (MatPhaseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const names[MAT0_PARAM_COUNT] = {
    "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8",
    "p9", "p10", "p11", "p12", "p13", "p14", "p15", "p16", "p17",
  };

  object_class->finalize = mat_phase_finalize;
  object_class->get_property = mat_phase_get_property;

  properties[PROP_INDEX] =
    g_param_spec_uint ("index", NULL, NULL, 0, G_MAXUINT16, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXTURE] =
    g_param_spec_string ("texture", NULL, NULL, "",
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXTURED] =
    g_param_spec_boolean ("textured", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  for (guint i = 0; i < MAT0_PARAM_COUNT; i++)
    properties[PROP_P0 + i] =
      g_param_spec_uint (names[i], NULL, NULL, 0, 255, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MatPhase::param-changed:
   * @index: the parameter 0..17
   */
  signals[PARAM_CHANGED] =
    g_signal_new ("param-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
mat_phase_init (MatPhase *self)
{
}
