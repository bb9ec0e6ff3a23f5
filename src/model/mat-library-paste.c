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

MatMaterial *
mat_library_paste_material (MatLibrary   *self,
                            const char   *text,
                            gssize        length,
                            const char   *name,
                            GError      **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(MatMaterial) material = NULL;
  const char *where;
  MatJsonKind kind;
  NresEntry entry;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  node = _mat_json_parse_item (text, length, &kind, &where, error);
  if (node == NULL)
    return NULL;
  if (kind != MAT_JSON_MATERIAL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The text holds a phase, not a material"));
      return NULL;
    }
  if (!mat_json_entry_parse (node, where, &entry, &payload, error))
    return NULL;
  if (entry.type_id != NRES_TYPE_MAT0)
    {
      g_autofree char *entry_name = cp1251_to_utf8 ((const guint8 *) entry.name, NRES_NAME_SIZE);
      g_autofree char *type = mat_json_type_name (entry.type_id);

      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                   /* Translators: “NAME” is an entry of type TYPE, "Texm" for instance */
                   _("“%s” is an entry of type %s, not a material: only materials are pasted"),
                   entry_name, type);
      return NULL;
    }

  if (name != NULL)
    {
      if (!_mat_library_check_name (self, name, NULL, entry.name, error))
        return NULL;
    }
  else if (!check_own_name (self, &entry, error))
    return NULL;

  entry.size = (guint32) g_bytes_get_size (payload);
  material = _mat_material_new_from_entry (&entry, -1, 0, payload);
  _mat_library_insert_material (self, material, g_list_model_get_n_items (G_LIST_MODEL (self)),
                                _("Paste Material"));

  return material;
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
  g_autoptr(JsonNode) node = NULL;
  GListModel *phases;
  const char *where;
  MatJsonKind kind;
  Mat0Phase data;
  guint n;

  g_return_val_if_fail (MAT_IS_MATERIAL (material), NULL);
  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!_mat_material_check_editable (material, error))
    return NULL;
  phases = mat_material_get_phases (material);
  n = g_list_model_get_n_items (phases);
  g_return_val_if_fail (replace ? index < n : index <= n, NULL);

  node = _mat_json_parse_item (text, length, &kind, &where, error);
  if (node == NULL)
    return NULL;
  if (kind != MAT_JSON_PHASE)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The text holds a material, not a phase"));
      return NULL;
    }
  if (!mat_json_phase_parse (node, where, &data, error))
    return NULL;

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
