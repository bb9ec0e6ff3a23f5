/* mat-library-paste.c - materials and phases pasted from their JSON text */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"

#include "mat-material-json.h"
#include "mat-model-private.h"

/* A name that nres_entry_set_name takes and no entry has. */
static gboolean
name_is_free (MatLibrary *self,
              const char *name)
{
  NresEntry probe;

  if (!nres_entry_set_name (&probe, name, NULL))
    return FALSE;
  return mat_library_find (self, name) == NULL;
}

char *
mat_library_dup_free_name (MatLibrary *self,
                           const char *name)
{
  g_autofree char *base = NULL;
  const char *end;
  guint n_items;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (name_is_free (self, name))
    return g_strdup (name);

  /* "ROCK_2" taken: try "ROCK_3", not "ROCK_2_2". */
  end = name + strlen (name);
  while (end > name && g_ascii_isdigit (end[-1]))
    end--;
  if (end > name + 1 && end[-1] == '_' && *end != '\0')
    base = g_strndup (name, (gsize) (end - 1 - name));
  else
    base = g_strdup (name);

  /* Among n entries one of n + 1 numbers is free. */
  n_items = g_list_model_get_n_items (G_LIST_MODEL (self));
  for (guint i = 2; i < n_items + 3; i++)
    {
      g_autofree char *suffix = g_strdup_printf ("_%u", i);
      /* one CP1251 byte per character: shorten the base to fit */
      glong room = (NRES_NAME_SIZE - 1) - (glong) strlen (suffix);
      g_autofree char *head = g_utf8_substring (base, 0, MIN (g_utf8_strlen (base, -1), room));
      g_autofree char *candidate = g_strconcat (head, suffix, NULL);

      if (name_is_free (self, candidate))
        return g_steal_pointer (&candidate);
    }

  /* Only a base CP1251 cannot hold gets here: the caller shows why. */
  return g_strdup (name);
}

/* Whether @raw (a name field) names an entry of @self. */
static MatMaterial *
find_raw (MatLibrary *self,
          const char *raw)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self));

  for (guint i = 0; i < n; i++)
    {
      MatMaterial *material = mat_library_get_material (self, i);

      if (cp1251_name_compare (raw, _mat_material_get_entry (material)->name) == 0)
        return material;
    }

  return NULL;
}

static gboolean
check_own_name (MatLibrary  *self,
                NresEntry   *entry,
                GError     **error)
{
  g_autofree char *name = cp1251_to_utf8 ((const guint8 *) entry->name, NRES_NAME_SIZE);
  const char *nul = memchr (entry->name, 0, NRES_NAME_SIZE);
  MatMaterial *other;

  if (nul == NULL || nul == entry->name)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_INVALID,
                   _("“%s” cannot be used as a name: %s"), name,
                   nul == NULL ? _("the name field has no end")
                               : _("the name is empty"));
      return FALSE;
    }

  other = find_raw (self, entry->name);
  if (other != NULL)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN,
                   _("The name “%s” is taken by entry %u (“%s”); names do not differ by case alone"),
                   name, (guint) mat_library_index_of (self, other), mat_material_get_name (other));
      return FALSE;
    }

  return TRUE;
}

/* ---- decoding -------------------------------------------------------- */

struct _MatJsonItem
{
  gatomicrefcount ref;
  MatJsonKind     kind;
  char           *name;       /* the material's "name", or NULL */
  GError         *error;      /* why its values cannot be pasted */
  NresEntry       entry;      /* a material: its directory fields */
  GBytes         *payload;    /* ... and payload */
  MatMaterial    *material;   /* ... made of them, until it is pasted */
  GMutex          lock;       /* guards @material */
  Mat0Phase       phase;      /* a phase */
};

/* GTask source tag (function pointers are not data pointers in ISO C). */
static char decode_tag[] = "mat_json_item_decode_async";

static gpointer
boxed_ref (gpointer boxed)
{
  return mat_json_item_ref (boxed);
}

static void
boxed_unref (gpointer boxed)
{
  mat_json_item_unref (boxed);
}

GType
mat_json_item_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_boxed_type_register_static (g_intern_static_string ("MatJsonItem"),
                                                            boxed_ref, boxed_unref));
  return type;
}

MatJsonItem *
mat_json_item_ref (MatJsonItem *item)
{
  g_return_val_if_fail (item != NULL, NULL);

  g_atomic_ref_count_inc (&item->ref);
  return item;
}

void
mat_json_item_unref (MatJsonItem *item)
{
  g_return_if_fail (item != NULL);

  if (!g_atomic_ref_count_dec (&item->ref))
    return;
  g_free (item->name);
  g_clear_error (&item->error);
  g_clear_pointer (&item->payload, g_bytes_unref);
  g_clear_object (&item->material);
  g_mutex_clear (&item->lock);
  g_free (item);
}

/* The material of @entry and @payload; a large one decoded, with its
 * content and lints made (_mat_material_prepare). Returns: (transfer full). */
static MatMaterial *
material_new (const NresEntry *entry,
              GBytes          *payload)
{
  MatMaterial *material = _mat_material_new_from_entry (entry, -1, 0, payload);

  _mat_material_prepare (material);
  return material;
}

/* Checks the values of @node (a material or a phase, @where in
 * messages) into @item. */
static void
item_decode_values (MatJsonItem *item,
                    JsonNode    *node,
                    const char  *where)
{
  if (item->kind == MAT_JSON_PHASE)
    {
      mat_json_phase_parse (node, where, &item->phase, &item->error);
      return;
    }

  if (!mat_json_entry_parse (node, where, &item->entry, &item->payload, &item->error))
    return;
  if (item->entry.type_id != NRES_TYPE_MAT0)
    {
      g_autofree char *entry_name = cp1251_to_utf8 ((const guint8 *) item->entry.name, NRES_NAME_SIZE);
      g_autofree char *type = mat_json_type_name (item->entry.type_id);

      g_set_error (&item->error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                   /* Translators: “NAME” is an entry of type TYPE, "Texm" for instance */
                   _("“%s” is an entry of type %s, not a material: only materials are pasted"),
                   entry_name, type);
      return;
    }
  item->entry.size = (guint32) g_bytes_get_size (item->payload);
  item->material = material_new (&item->entry, item->payload);
}

MatJsonItem *
mat_json_item_decode (const char  *text,
                      gssize       length,
                      GError     **error)
{
  g_autoptr(JsonNode) node = NULL;
  MatJsonItem *item;
  const char *where;
  MatJsonKind kind;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  node = _mat_json_parse_item (text, length, &kind, &where, error);
  if (node == NULL)
    return NULL;

  item = g_new0 (MatJsonItem, 1);
  g_atomic_ref_count_init (&item->ref);
  g_mutex_init (&item->lock);
  item->kind = kind;
  if (kind == MAT_JSON_MATERIAL && JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonNode *name = json_object_get_member (json_node_get_object (node), "name");

      if (name != NULL && JSON_NODE_HOLDS_VALUE (name) && json_node_get_value_type (name) == G_TYPE_STRING)
        item->name = g_strdup (json_node_get_string (name));
    }
  item_decode_values (item, node, where);
  return item;
}

static void
decode_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GBytes *text = task_data;
  GError *error = NULL;
  gsize length;
  const char *data = g_bytes_get_data (text, &length);
  MatJsonItem *item;

  item = mat_json_item_decode (data != NULL ? data : "", (gssize) length, &error);
  if (item == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, item, (GDestroyNotify) mat_json_item_unref);
}

void
mat_json_item_decode_async (GBytes              *text,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (text != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, decode_tag);
  g_task_set_task_data (task, g_bytes_ref (text), (GDestroyNotify) g_bytes_unref);
  g_task_run_in_thread (task, decode_thread);
}

MatJsonItem *
mat_json_item_decode_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == decode_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

MatJsonKind
mat_json_item_get_kind (MatJsonItem *item)
{
  g_return_val_if_fail (item != NULL, MAT_JSON_MATERIAL);
  return item->kind;
}

const char *
mat_json_item_get_name (MatJsonItem *item)
{
  g_return_val_if_fail (item != NULL, NULL);
  return item->name;
}

const GError *
mat_json_item_get_error (MatJsonItem *item)
{
  g_return_val_if_fail (item != NULL, NULL);
  return item->error;
}

/* ---- pasting ---------------------------------------------------------- */

MatMaterial *
mat_library_paste_item (MatLibrary   *self,
                        MatJsonItem  *item,
                        const char   *name,
                        GError      **error)
{
  g_autoptr(MatMaterial) material = NULL;
  NresEntry entry;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (item != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (item->kind != MAT_JSON_MATERIAL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The text holds a phase, not a material"));
      return NULL;
    }
  if (item->error != NULL)
    {
      g_propagate_error (error, g_error_copy (item->error));
      return NULL;
    }

  entry = item->entry;
  if (name != NULL)
    {
      if (!_mat_library_check_name (self, name, NULL, entry.name, error))
        return NULL;
    }
  else if (!check_own_name (self, &entry, error))
    return NULL;

  /* the material the decode made, once; another paste decodes again */
  g_mutex_lock (&item->lock);
  material = g_steal_pointer (&item->material);
  g_mutex_unlock (&item->lock);
  if (material == NULL)
    material = material_new (&item->entry, item->payload);
  if (memcmp (entry.name, item->entry.name, NRES_NAME_SIZE) != 0)
    _mat_material_set_entry_name (material, entry.name);
  _mat_library_insert_material (self, material, g_list_model_get_n_items (G_LIST_MODEL (self)),
                                _("Paste Material"));

  return material;
}

MatMaterial *
mat_library_paste_material (MatLibrary   *self,
                            const char   *text,
                            gssize        length,
                            const char   *name,
                            GError      **error)
{
  g_autoptr(MatJsonItem) item = NULL;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  item = mat_json_item_decode (text, length, error);
  if (item == NULL)
    return NULL;
  return mat_library_paste_item (self, item, name, error);
}

/* Command: all 34 bytes of one phase. */
typedef struct {
  MatCommand  parent;
  MatPhase   *phase;
  Mat0Phase   data;
} ReplacePhaseCommand;

static void
replace_phase_run (MatCommand *cmd,
                   gboolean    undo)
{
  ReplacePhaseCommand *self = (ReplacePhaseCommand *) cmd;

  _mat_phase_swap_data (self->phase, &self->data);
}

static void
replace_phase_free (MatCommand *cmd)
{
  ReplacePhaseCommand *self = (ReplacePhaseCommand *) cmd;

  g_clear_object (&self->phase);
}

static const MatCommandClass replace_phase_class = {
  replace_phase_run,
  replace_phase_free,
  NULL,
};

MatPhase *
mat_material_paste_phase (MatMaterial  *material,
                          guint         index,
                          gboolean      replace,
                          const char   *text,
                          gssize        length,
                          GError      **error)
{
  g_autoptr(MatJsonItem) item = NULL;

  g_return_val_if_fail (MAT_IS_MATERIAL (material), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!_mat_material_check_editable (material, error))
    return NULL;
  item = mat_json_item_decode (text, length, error);
  if (item == NULL)
    return NULL;
  return mat_material_paste_phase_item (material, index, replace, item, error);
}

MatPhase *
mat_material_paste_phase_item (MatMaterial  *material,
                               guint         index,
                               gboolean      replace,
                               MatJsonItem  *item,
                               GError      **error)
{
  GListModel *phases;
  Mat0Phase data;
  guint n;

  g_return_val_if_fail (MAT_IS_MATERIAL (material), NULL);
  g_return_val_if_fail (item != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!_mat_material_check_editable (material, error))
    return NULL;
  phases = mat_material_get_phases (material);
  n = g_list_model_get_n_items (phases);
  g_return_val_if_fail (replace ? index < n : index <= n, NULL);

  if (item->kind != MAT_JSON_PHASE)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The text holds a material, not a phase"));
      return NULL;
    }
  if (item->error != NULL)
    {
      g_propagate_error (error, g_error_copy (item->error));
      return NULL;
    }
  data = item->phase;

  if (replace)
    {
      g_autoptr(MatPhase) phase = g_list_model_get_item (phases, index);
      ReplacePhaseCommand *cmd;

      if (memcmp (_mat_phase_get_data (phase), &data, sizeof data) == 0)
        return phase;
      cmd = _mat_command_new (&replace_phase_class, sizeof (ReplacePhaseCommand), _("Paste Phase"));
      cmd->phase = g_object_ref (phase);
      cmd->data = data;
      _mat_history_push (_mat_material_get_history (material), &cmd->parent);
      return phase;
    }

  if (n >= G_MAXUINT16)
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TOO_MANY_ITEMS,
                   _("A material holds at most %u phases"), (guint) G_MAXUINT16);
      return NULL;
    }
  return _mat_material_insert_phase_data (material, index, &data, _("Paste Phase"));
}
