/* mat-history.c - undo/redo of model commands */
#include "config.h"

#include "mat-model-private.h"

typedef struct {
  MatCommand  parent;
  char       *label;     /* owned, or %NULL: the first command's */
  GPtrArray  *commands;  /* MatCommand */
} GroupCommand;

struct _MatHistory
{
  GObject       parent_instance;

  GPtrArray    *commands;     /* MatCommand, owned */
  guint         position;     /* commands[0..position) are done */
  guint         group_depth;
  char         *group_label;
  GroupCommand *open_group;   /* commands[position - 1] while filling */
  guint64       next_serial;
};

G_DEFINE_FINAL_TYPE (MatHistory, mat_history, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  PROP_UNDO_LABEL,
  PROP_REDO_LABEL,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
command_free (gpointer data)
{
  MatCommand *cmd = data;

  if (cmd == NULL)
    return;
  if (cmd->klass->free != NULL)
    cmd->klass->free (cmd);
  g_free (cmd);
}

static void
group_run (MatCommand *cmd,
           gboolean    undo)
{
  GroupCommand *group = (GroupCommand *) cmd;

  if (undo)
    {
      for (guint i = group->commands->len; i > 0; i--)
        {
          MatCommand *sub = g_ptr_array_index (group->commands, i - 1);
          sub->klass->run (sub, TRUE);
        }
    }
  else
    {
      for (guint i = 0; i < group->commands->len; i++)
        {
          MatCommand *sub = g_ptr_array_index (group->commands, i);
          sub->klass->run (sub, FALSE);
        }
    }
}

static void
group_free (MatCommand *cmd)
{
  GroupCommand *group = (GroupCommand *) cmd;

  g_clear_pointer (&group->commands, g_ptr_array_unref);
  g_clear_pointer (&group->label, g_free);
}

static const MatCommandClass group_class = {
  group_run,
  group_free,
  NULL,
};

gpointer
_mat_command_new (const MatCommandClass *klass,
                  gsize                  size,
                  const char            *label)
{
  MatCommand *cmd;

  g_assert (size >= sizeof (MatCommand));

  cmd = g_malloc0 (size);
  cmd->klass = klass;
  cmd->label = label;

  return cmd;
}

static const char *
command_label (MatCommand *cmd)
{
  if (cmd->klass == &group_class)
    {
      GroupCommand *group = (GroupCommand *) cmd;

      if (group->label != NULL)
        return group->label;
      if (group->commands->len > 0)
        return command_label (g_ptr_array_index (group->commands, 0));
    }

  return cmd->label;
}

typedef struct {
  gboolean    can_undo;
  gboolean    can_redo;
  char       *undo_label;
  char       *redo_label;
} Snapshot;

static void
snapshot_take (MatHistory *self,
               Snapshot   *snap)
{
  snap->can_undo = mat_history_get_can_undo (self);
  snap->can_redo = mat_history_get_can_redo (self);
  snap->undo_label = g_strdup (mat_history_get_undo_label (self));
  snap->redo_label = g_strdup (mat_history_get_redo_label (self));
}

static void
snapshot_notify (MatHistory *self,
                 Snapshot   *before)
{
  Snapshot after;

  snapshot_take (self, &after);

  g_object_freeze_notify (G_OBJECT (self));
  if (before->can_undo != after.can_undo)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
  if (before->can_redo != after.can_redo)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
  if (g_strcmp0 (before->undo_label, after.undo_label) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNDO_LABEL]);
  if (g_strcmp0 (before->redo_label, after.redo_label) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REDO_LABEL]);
  g_object_thaw_notify (G_OBJECT (self));

  g_free (before->undo_label);
  g_free (before->redo_label);
  g_free (after.undo_label);
  g_free (after.redo_label);

  g_signal_emit (self, signals[CHANGED], 0);
}

static void
close_groups (MatHistory *self)
{
  self->group_depth = 0;
  self->open_group = NULL;
  g_clear_pointer (&self->group_label, g_free);
}

static void
truncate_redo (MatHistory *self)
{
  if (self->commands->len > self->position)
    g_ptr_array_remove_range (self->commands, self->position,
                              self->commands->len - self->position);
}

void
_mat_history_push (MatHistory *self,
                   MatCommand *cmd)
{
  Snapshot before;

  g_return_if_fail (MAT_IS_HISTORY (self));
  g_return_if_fail (cmd != NULL);

  snapshot_take (self, &before);

  cmd->klass->run (cmd, FALSE);
  cmd->serial = ++self->next_serial;

  if (self->group_depth > 0)
    {
      if (self->open_group == NULL)
        {
          GroupCommand *group = _mat_command_new (&group_class, sizeof (GroupCommand), NULL);

          group->label = g_strdup (self->group_label);
          group->commands = g_ptr_array_new_with_free_func (command_free);
          truncate_redo (self);
          g_ptr_array_add (self->commands, group);
          self->position++;
          self->open_group = group;
        }
      else if (cmd->klass->merge != NULL)
        {
          /* A value command whose field an earlier command of the group
           * already replaced adds nothing: that one holds the value from
           * before the group, and undo/redo of the group swap whole
           * states. Only swap-style commands have @merge; the others
           * work on positions, never on these values. */
          for (guint i = self->open_group->commands->len; i > 0; i--)
            {
              MatCommand *prev = g_ptr_array_index (self->open_group->commands, i - 1);

              if (prev->klass == cmd->klass && cmd->klass->merge (prev, cmd))
                {
                  command_free (cmd);
                  cmd = NULL;
                  break;
                }
            }
        }

      if (cmd != NULL)
        g_ptr_array_add (self->open_group->commands, cmd);
      /* The group's state changed: it is a new state. */
      self->open_group->parent.serial = ++self->next_serial;
    }
  else
    {
      truncate_redo (self);
      g_ptr_array_add (self->commands, cmd);
      self->position++;
    }

  snapshot_notify (self, &before);
}

guint64
_mat_history_get_state (MatHistory *self)
{
  MatCommand *cmd;

  g_return_val_if_fail (MAT_IS_HISTORY (self), 0);

  if (self->position == 0)
    return 0;

  cmd = g_ptr_array_index (self->commands, self->position - 1);
  return cmd->serial;
}

void
_mat_history_clear (MatHistory *self)
{
  Snapshot before;

  g_return_if_fail (MAT_IS_HISTORY (self));

  snapshot_take (self, &before);
  close_groups (self);
  g_ptr_array_set_size (self->commands, 0);
  self->position = 0;
  snapshot_notify (self, &before);
}

MatHistory *
_mat_history_new (void)
{
  return g_object_new (MAT_TYPE_HISTORY, NULL);
}

gboolean
mat_history_get_can_undo (MatHistory *self)
{
  g_return_val_if_fail (MAT_IS_HISTORY (self), FALSE);

  return self->position > 0;
}

gboolean
mat_history_get_can_redo (MatHistory *self)
{
  g_return_val_if_fail (MAT_IS_HISTORY (self), FALSE);

  return self->position < self->commands->len;
}

const char *
mat_history_get_undo_label (MatHistory *self)
{
  g_return_val_if_fail (MAT_IS_HISTORY (self), NULL);

  if (self->position == 0)
    return NULL;

  return command_label (g_ptr_array_index (self->commands, self->position - 1));
}

const char *
mat_history_get_redo_label (MatHistory *self)
{
  g_return_val_if_fail (MAT_IS_HISTORY (self), NULL);

  if (self->position >= self->commands->len)
    return NULL;

  return command_label (g_ptr_array_index (self->commands, self->position));
}

guint
mat_history_get_n_undo (MatHistory *self)
{
  g_return_val_if_fail (MAT_IS_HISTORY (self), 0);

  return self->position;
}

guint
mat_history_get_n_redo (MatHistory *self)
{
  g_return_val_if_fail (MAT_IS_HISTORY (self), 0);

  return self->commands->len - self->position;
}

gboolean
mat_history_undo (MatHistory *self)
{
  Snapshot before;
  MatCommand *cmd;

  g_return_val_if_fail (MAT_IS_HISTORY (self), FALSE);

  close_groups (self);
  if (self->position == 0)
    return FALSE;

  snapshot_take (self, &before);
  cmd = g_ptr_array_index (self->commands, self->position - 1);
  self->position--;
  cmd->klass->run (cmd, TRUE);
  snapshot_notify (self, &before);

  return TRUE;
}

gboolean
mat_history_redo (MatHistory *self)
{
  Snapshot before;
  MatCommand *cmd;

  g_return_val_if_fail (MAT_IS_HISTORY (self), FALSE);

  close_groups (self);
  if (self->position >= self->commands->len)
    return FALSE;

  snapshot_take (self, &before);
  cmd = g_ptr_array_index (self->commands, self->position);
  self->position++;
  cmd->klass->run (cmd, FALSE);
  snapshot_notify (self, &before);

  return TRUE;
}

void
mat_history_begin_group (MatHistory *self,
                         const char *label)
{
  g_return_if_fail (MAT_IS_HISTORY (self));

  if (self->group_depth++ == 0)
    {
      g_free (self->group_label);
      self->group_label = g_strdup (label);
      self->open_group = NULL;
    }
}

void
mat_history_end_group (MatHistory *self)
{
  g_return_if_fail (MAT_IS_HISTORY (self));

  /* undo/redo close groups: a late end is not an error. */
  if (self->group_depth == 0)
    return;

  if (--self->group_depth == 0)
    close_groups (self);
}

gboolean
mat_history_in_group (MatHistory *self)
{
  g_return_val_if_fail (MAT_IS_HISTORY (self), FALSE);

  return self->group_depth > 0;
}

static void
mat_history_finalize (GObject *object)
{
  MatHistory *self = (MatHistory *) object;

  g_clear_pointer (&self->commands, g_ptr_array_unref);
  g_clear_pointer (&self->group_label, g_free);

  G_OBJECT_CLASS (mat_history_parent_class)->finalize (object);
}

static void
mat_history_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  MatHistory *self = MAT_HISTORY (object);

  switch (prop_id)
    {
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, mat_history_get_can_undo (self));
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, mat_history_get_can_redo (self));
      break;
    case PROP_UNDO_LABEL:
      g_value_set_string (value, mat_history_get_undo_label (self));
      break;
    case PROP_REDO_LABEL:
      g_value_set_string (value, mat_history_get_redo_label (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_history_class_init (MatHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mat_history_finalize;
  object_class->get_property = mat_history_get_property;

  properties[PROP_CAN_UNDO] =
    g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_REDO] =
    g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNDO_LABEL] =
    g_param_spec_string ("undo-label", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REDO_LABEL] =
    g_param_spec_string ("redo-label", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MatHistory::changed:
   *
   * After every push, undo, redo and clear: the model's state changed.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mat_history_init (MatHistory *self)
{
  self->commands = g_ptr_array_new_with_free_func (command_free);
}
