/* mat-library-textures.c - which materials of a library name a texture,
 * and renaming the texture in them (mat-library.h) */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "mat0.h"
#include "mat-model-private.h"

/* @field (16 bytes, perhaps with no NUL) names @name (CP1251, a NUL
 * within 16 bytes), as the engine looks a texture up: ASCII
 * case-insensitively. */
static gboolean
field_names (const guint8 *field,
             const char   *name)
{
  char text[MAT0_TEXTURE_SIZE + 1];

  memcpy (text, field, MAT0_TEXTURE_SIZE);
  text[MAT0_TEXTURE_SIZE] = '\0';
  return text[0] != '\0' && cp1251_name_compare (text, name) == 0;
}

/* @name as the bytes a texture field holds; FALSE when CP1251 cannot
 * hold it in 15 bytes (then no field names it). */
static gboolean
texture_field (const char *name,
               guint8      field[MAT0_TEXTURE_SIZE])
{
  memset (field, 0, MAT0_TEXTURE_SIZE);
  return name[0] != '\0' && cp1251_from_utf8 (name, field, MAT0_TEXTURE_SIZE, NULL);
}

static gboolean
material_names (MatMaterial *material,
                const char  *field)
{
  GListModel *phases;
  guint n;

  if (!mat_material_get_editable (material))
    return FALSE;
  phases = mat_material_get_phases (material);
  n = g_list_model_get_n_items (phases);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(MatPhase) phase = g_list_model_get_item (phases, i);

      if (field_names (mat_phase_get_texture_raw (phase), field))
        return TRUE;
    }
  return FALSE;
}

GPtrArray *
mat_library_dup_texture_users (MatLibrary *self,
                               const char *texture)
{
  GPtrArray *users = g_ptr_array_new ();
  guint8 field[MAT0_TEXTURE_SIZE];
  guint n;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), users);
  g_return_val_if_fail (texture != NULL, users);

  if (!texture_field (texture, field))
    return users;
  n = g_list_model_get_n_items (G_LIST_MODEL (self));
  for (guint i = 0; i < n; i++)
    {
      MatMaterial *material = mat_library_get_material (self, i);

      if (material_names (material, (const char *) field))
        g_ptr_array_add (users, material);
    }
  return users;
}

guint
mat_library_rename_texture_uses (MatLibrary  *self,
                                 const char  *old_name,
                                 const char  *new_name,
                                 GError     **error)
{
  g_autoptr(GPtrArray) users = NULL;
  g_autoptr(GError) local = NULL;
  guint8 old_field[MAT0_TEXTURE_SIZE];
  guint8 new_field[MAT0_TEXTURE_SIZE];
  MatHistory *history;
  guint n_phases = 0;

  g_return_val_if_fail (MAT_IS_LIBRARY (self), 0);
  g_return_val_if_fail (old_name != NULL, 0);
  g_return_val_if_fail (new_name != NULL, 0);
  g_return_val_if_fail (error == NULL || *error == NULL, 0);

  /* the new name first: a field that cannot hold it changes nothing */
  if (!texture_field (new_name, new_field))
    {
      g_set_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TEXTURE_INVALID,
                   _("texture name “%s”: expected at most 15 bytes in CP1251, found a name "
                     "a texture field cannot hold"), new_name);
      return 0;
    }
  if (!texture_field (old_name, old_field))
    return 0;
  users = mat_library_dup_texture_users (self, old_name);
  if (users->len == 0)
    return 0;

  history = mat_library_get_history (self);
  mat_history_begin_group (history, _("Rename Texture in Materials"));
  for (guint i = 0; i < users->len && local == NULL; i++)
    {
      GListModel *phases = mat_material_get_phases (g_ptr_array_index (users, i));
      guint n = g_list_model_get_n_items (phases);

      for (guint k = 0; k < n && local == NULL; k++)
        {
          g_autoptr(MatPhase) phase = g_list_model_get_item (phases, k);

          if (!field_names (mat_phase_get_texture_raw (phase), (const char *) old_field))
            continue;
          if (mat_phase_set_texture (phase, new_name, &local))
            n_phases++;
        }
    }
  mat_history_end_group (history);
  if (local != NULL)
    {
      /* what was renamed goes back: nothing changed */
      if (n_phases > 0)
        mat_history_undo (history);
      g_propagate_error (error, g_steal_pointer (&local));
      return 0;
    }
  return n_phases;
}
