/* mat-library-name.c - names that tell open libraries apart
 *
 * A file's folders are listed nearest first, up to the home folder ("~")
 * or the top of the file system; a name takes the fewest of them that no
 * rival (another file of the same name) has in the same places. Names
 * and folders compare case-folded, so "DATA" and "data" are not told
 * apart by their case alone.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat-library-name.h"

/* Returns: (transfer full): the name of @file as people read it. */
static char *
display_basename (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);

  return g_filename_display_name (basename != NULL ? basename : "");
}

static gboolean
same_text (const char *a,
           const char *b)
{
  g_autofree char *fa = g_utf8_casefold (a, -1);
  g_autofree char *fb = g_utf8_casefold (b, -1);

  return strcmp (fa, fb) == 0;
}

/* The folders of @file, nearest first, as people read them; the last is
 * "~" for the home folder or the top of the file system ("/").
 * Returns: (transfer full) (element-type utf8). */
static GPtrArray *
folders_of (GFile *file)
{
  GPtrArray *folders = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  GFile *folder = g_file_get_parent (file);

  while (folder != NULL)
    {
      GFile *parent;

      if (g_file_equal (folder, home))
        {
          g_ptr_array_add (folders, g_strdup ("~"));
          g_object_unref (folder);
          break;
        }
      parent = g_file_get_parent (folder);
      /* the top: "/" (or a location's own root, "smb://host/") */
      g_ptr_array_add (folders, parent != NULL ? display_basename (folder)
                                               : g_file_get_parse_name (folder));
      g_object_unref (folder);
      folder = parent;
    }
  return folders;
}

/* Whether the @k nearest folders of two files are the same ones. */
static gboolean
same_folders (GPtrArray *a,
              GPtrArray *b,
              guint      k)
{
  guint na = MIN (k, a->len), nb = MIN (k, b->len);

  if (na != nb)
    return FALSE;
  for (guint i = 0; i < na; i++)
    if (!same_text (a->pdata[i], b->pdata[i]))
      return FALSE;
  return TRUE;
}

/* The @k nearest folders, farthest first: "Parkan/DATA", "~/DATA",
 * "/DATA". Returns: (transfer full). */
static char *
join_folders (GPtrArray *folders,
              guint      k)
{
  GString *text = g_string_new (NULL);

  for (guint i = MIN (k, folders->len); i > 0; i--)
    {
      const char *name = folders->pdata[i - 1];

      if (text->len > 0 && text->str[text->len - 1] != '/')
        g_string_append_c (text, '/');
      g_string_append (text, name);
    }
  return g_string_free (text, FALSE);
}

char *
mat_library_dup_display_name (const MatLibraryPlace *place,
                              const MatLibraryPlace *others,
                              guint                  n_others)
{
  g_autofree char *name = NULL;
  g_autofree char *folder = NULL;
  g_autoptr(GPtrArray) rivals = NULL;   /* GPtrArray of folders */
  g_autoptr(GPtrArray) mine = NULL;
  guint k;

  g_return_val_if_fail (place != NULL, NULL);
  g_return_val_if_fail (place->file == NULL || G_IS_FILE (place->file), NULL);
  g_return_val_if_fail (others != NULL || n_others == 0, NULL);

  if (place->is_demo)
    /* Translators: the name of the bundled demo library where several
     * libraries are listed */
    return g_strdup (_("Demo library"));
  if (place->file == NULL)
    return g_strdup (_("Untitled"));

  name = display_basename (place->file);
  rivals = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < n_others; i++)
    {
      const MatLibraryPlace *other = &others[i];
      g_autofree char *other_name = NULL;

      if (other->is_demo || other->file == NULL || g_file_equal (other->file, place->file))
        continue;
      other_name = display_basename (other->file);
      if (same_text (name, other_name))
        g_ptr_array_add (rivals, folders_of (other->file));
    }
  if (rivals->len == 0)
    return g_steal_pointer (&name);

  /* the fewest folders no rival has in the same places */
  mine = folders_of (place->file);
  for (k = 1; k <= mine->len; k++)
    {
      gboolean unique = TRUE;

      for (guint r = 0; r < rivals->len && unique; r++)
        unique = !same_folders (mine, rivals->pdata[r], k);
      if (unique)
        break;
    }
  if (k <= mine->len)
    folder = join_folders (mine, k);
  else
    {
      /* two locations that read the same all the way up: the whole one */
      g_autoptr(GFile) parent = g_file_get_parent (place->file);

      folder = parent != NULL ? g_file_get_parse_name (parent) : g_strdup ("");
    }
  /* Translators: a library's file name and the folders that tell it
   * apart from another open library of that name:
   * "Material.lib — Parkan/DATA" */
  return g_strdup_printf (_("%s — %s"), name, folder);
}

char *
mat_library_dup_folder_name (GFile *file)
{
  g_autoptr(GFile) parent = NULL;
  g_autoptr(GFile) home = NULL;
  g_autofree char *relative = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  parent = g_file_get_parent (file);
  if (parent == NULL)
    return NULL;
  home = g_file_new_for_path (g_get_home_dir ());
  if (g_file_equal (parent, home))
    return g_strdup ("~");
  relative = g_file_get_relative_path (home, parent);
  if (relative != NULL)
    {
      g_autofree char *display = g_filename_display_name (relative);

      return g_build_filename ("~", display, NULL);
    }
  return g_file_get_parse_name (parent);
}
