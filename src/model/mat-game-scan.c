/* mat-game-scan.c - finding a game folder's archives and reading what
 * the index of its models needs */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "mat-file.h"
#include "mat-game-scan.h"

/* ---- Files ------------------------------------------------------------------ */

void
mat_scan_file_free (MatScanFile *file)
{
  if (file == NULL)
    return;

  g_free (file->path);
  g_free (file->file);
  g_free (file);
}

MatScanFile *
mat_scan_file_copy (const MatScanFile *file)
{
  MatScanFile *copy;

  g_return_val_if_fail (file != NULL, NULL);

  copy = g_memdup2 (file, sizeof *file);
  copy->path = g_strdup (file->path);
  copy->file = g_strdup (file->file);

  return copy;
}

gboolean
mat_scan_file_same_version (const MatScanFile *a,
                            const MatScanFile *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return a->size == b->size && a->mtime_ns == b->mtime_ns &&
         a->inode == b->inode && a->device == b->device;
}

static void
file_set_stat (MatScanFile    *file,
               const GStatBuf *st)
{
  file->size = (guint64) st->st_size;
  file->mtime_ns = (gint64) st->st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st->st_mtim.tv_nsec;
  file->inode = (guint64) st->st_ino;
  file->device = (guint64) st->st_dev;
}

/* ---- Walking ----------------------------------------------------------------- */

void
mat_scan_walk_free (MatScanWalk *walk)
{
  if (walk == NULL)
    return;

  g_ptr_array_unref (walk->files);
  g_ptr_array_unref (walk->folders);
  g_ptr_array_unref (walk->problems);
  g_free (walk);
}

static gint
compare_files (gconstpointer a,
               gconstpointer b)
{
  const MatScanFile *fa = *(const MatScanFile *const *) a;
  const MatScanFile *fb = *(const MatScanFile *const *) b;

  return strcmp (fa->path, fb->path);
}

/* (device, inode) of a folder, as a key */
static char *
folder_key (const GStatBuf *st)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
                          (guint64) st->st_dev, (guint64) st->st_ino);
}

/* "PATH: Could not read the folder: REASON" */
static void
add_problem (MatScanWalk *walk,
             const char  *rel,
             gboolean     folder,
             int          saved_errno)
{
  g_autofree char *shown = g_filename_display_name (rel[0] != '\0' ? rel : ".");
  g_autofree char *message = folder
    ? g_strdup_printf (_("Could not read the folder: %s"), g_strerror (saved_errno))
    : g_strdup_printf (_("Could not read the file: %s"), g_strerror (saved_errno));

  g_ptr_array_add (walk->problems, g_strdup_printf ("%s: %s", shown, message));
}

gboolean
mat_game_scan_is_temporary (const char *name)
{
  g_return_val_if_fail (name != NULL, FALSE);

  return name[0] == '.' && g_str_has_suffix (name, ".matedit-tmp");
}

MatScanWalk *
mat_game_scan_walk (const char    *root,
                    const char    *start,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) pending = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *first = NULL;
  MatScanWalk *walk;
  GStatBuf st;

  g_return_val_if_fail (root != NULL, NULL);

  if (start == NULL)
    start = "";
  first = start[0] != '\0' ? g_build_filename (root, start, NULL) : g_strdup (root);
  if (g_stat (first, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not read the folder: %s"), g_strerror (saved));
      return NULL;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                           _("This is not a folder"));
      return NULL;
    }

  walk = g_new0 (MatScanWalk, 1);
  walk->files = g_ptr_array_new_with_free_func ((GDestroyNotify) mat_scan_file_free);
  walk->folders = g_ptr_array_new_with_free_func (g_free);
  walk->problems = g_ptr_array_new_with_free_func (g_free);
  g_hash_table_add (seen, folder_key (&st));
  g_ptr_array_add (pending, g_strdup (start));

  while (pending->len > 0)
    {
      g_autofree char *rel = g_ptr_array_steal_index (pending, pending->len - 1);
      g_autofree char *dir_path = rel[0] != '\0' ? g_build_filename (root, rel, NULL)
                                                 : g_strdup (root);
      g_autoptr(GPtrArray) subfolders = g_ptr_array_new_with_free_func (g_free);
      struct dirent *item;
      DIR *dir;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          mat_scan_walk_free (walk);
          return NULL;
        }
      dir = opendir (dir_path);
      if (dir == NULL)
        {
          add_problem (walk, rel, TRUE, errno);
          continue;
        }
      g_ptr_array_add (walk->folders, g_strdup (dir_path));
      while ((item = readdir (dir)) != NULL)
        {
          const char *name = item->d_name;
          g_autofree char *child_rel = rel[0] != '\0' ? g_strconcat (rel, "/", name, NULL)
                                                      : g_strdup (name);
          g_autofree char *child = NULL;

          if (strcmp (name, ".") == 0 || strcmp (name, "..") == 0 ||
              mat_game_scan_is_temporary (name))
            continue;
          child = g_build_filename (dir_path, name, NULL);
          if (g_stat (child, &st) != 0)
            {
              int saved = errno;

              /* a link to nothing is no file of the folder */
              if (saved != ENOENT && saved != ENOTDIR && saved != ELOOP)
                add_problem (walk, child_rel, FALSE, saved);
              continue;
            }
          if (S_ISDIR (st.st_mode))
            {
              char *key = folder_key (&st);

              if (g_hash_table_contains (seen, key))
                g_free (key);
              else
                {
                  g_hash_table_add (seen, key);
                  g_ptr_array_add (subfolders, g_steal_pointer (&child_rel));
                }
            }
          else if (S_ISREG (st.st_mode))
            {
              MatScanFile *file = g_new0 (MatScanFile, 1);

              file->path = g_filename_display_name (child_rel);
              file->file = g_steal_pointer (&child);
              file_set_stat (file, &st);
              g_ptr_array_add (walk->files, file);
            }
        }
      closedir (dir);
      /* walked in name order, depth first */
      g_ptr_array_sort (subfolders, (GCompareFunc) g_strcmp0);
      for (guint i = subfolders->len; i-- > 0;)
        g_ptr_array_add (pending, g_ptr_array_steal_index (subfolders, i));
    }

  g_ptr_array_sort (walk->files, compare_files);
  return walk;
}

static guint
depth_of (const char *path)
{
  guint depth = 0;

  for (const char *p = path; *p != '\0'; p++)
    depth += *p == '/';
  return depth;
}

const MatScanFile *
mat_game_scan_find (const MatScanWalk *walk,
                    const char        *name,
                    gboolean           top_only)
{
  const MatScanFile *best = NULL;
  guint best_depth = G_MAXUINT;

  g_return_val_if_fail (walk != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  /* files are sorted by path: the first of the least depth wins */
  for (guint i = 0; i < walk->files->len; i++)
    {
      const MatScanFile *file = walk->files->pdata[i];
      const char *slash = strrchr (file->path, '/');
      const char *base = slash != NULL ? slash + 1 : file->path;
      guint depth;

      if (g_ascii_strcasecmp (base, name) != 0)
        continue;
      depth = depth_of (file->path);
      if ((top_only && depth > 0) || depth >= best_depth)
        continue;
      best = file;
      best_depth = depth;
    }

  return best;
}

/* ---- Reading ------------------------------------------------------------------ */

typedef struct {
  int           fd;
  guint64       file_size;
  guint64      *bytes_read;
  GCancellable *cancellable;
  /* One buffer for the MESH members, each dropped once indexed (the
   * index keeps only the WEAR members): no allocation per model. */
  guint8       *scratch;
  gsize         scratch_size;
  gboolean      scratch_busy;
} Reader;

static void
release_scratch (gpointer data)
{
  Reader *r = data;

  r->scratch_busy = FALSE;
}

static GBytes *
read_payload (const NresEntry  *entry,
              guint             index,
              gpointer          user_data,
              GError          **error)
{
  Reader *r = user_data;
  gboolean scratch = entry->type_id == NRES_TYPE_MESH && !r->scratch_busy;
  guint8 *data;

  if (scratch && r->scratch_size < entry->size)
    {
      g_free (r->scratch);
      r->scratch_size = MAX (entry->size, 2 * r->scratch_size);
      r->scratch = g_try_malloc (r->scratch_size);
      if (r->scratch == NULL)
        r->scratch_size = 0;
    }
  data = scratch ? r->scratch : g_try_malloc (MAX (entry->size, 1));
  if (data == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _("Not enough memory to read a member of %u bytes"), entry->size);
      return NULL;
    }
  if (!mat_file_read_at (r->fd, data, entry->size, entry->data_offset, r->cancellable, error))
    {
      if (!scratch)
        g_free (data);
      return NULL;
    }
  if (r->bytes_read != NULL)
    *r->bytes_read += entry->size;
  if (!scratch)
    return g_bytes_new_take (data, entry->size);
  r->scratch_busy = TRUE;
  return g_bytes_new_with_free_func (data, entry->size, release_scratch, r);
}

static gboolean
same_stat (const GStatBuf *a,
           const GStatBuf *b)
{
  return a->st_size == b->st_size && a->st_ino == b->st_ino &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

MshIndexArchive *
mat_game_scan_read (MatScanFile   *file,
                    guint64       *bytes_read,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(MshIndexArchive) archive = NULL;
  g_autofree guint8 *directory = NULL;
  guint8 header[NRES_HEADER_SIZE] = { 0 };
  guint32 n_entries = 0, directory_offset = 0;
  gsize header_len;
  GStatBuf st, after;
  Reader reader;
  int fd;

  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  fd = mat_file_open_regular (file->file, &st, error);
  if (fd < 0)
    return NULL;
  file_set_stat (file, &st);

  header_len = (gsize) MIN ((guint64) st.st_size, sizeof header);
  if (!mat_file_read_at (fd, header, header_len, 0, cancellable, error))
    goto failed;
  if (bytes_read != NULL)
    *bytes_read += header_len;
  /* models.md 6: an archive is a file that starts with "NRes" */
  if (header_len < 4 || memcmp (header, "NRes", 4) != 0)
    {
      close (fd);
      return NULL;
    }

  if (!nres_check_header (header, header_len, (guint64) st.st_size, &n_entries,
                          &directory_offset, &local_error))
    archive = msh_index_archive_new_failed (file->path, local_error->message);
  else if (n_entries > MSH_INDEX_MAX_ENTRIES)
    {
      g_autofree char *message =
        g_strdup_printf (_("(header): offset 8: expected at most %u entries in an archive that is indexed, found %u"),
                         MSH_INDEX_MAX_ENTRIES, n_entries);

      archive = msh_index_archive_new_failed (file->path, message);
    }
  else
    {
      directory = g_malloc ((gsize) n_entries * NRES_ENTRY_SIZE + 1);
      if (!mat_file_read_at (fd, directory, (gsize) n_entries * NRES_ENTRY_SIZE,
                             directory_offset, cancellable, error))
        goto failed;
      if (bytes_read != NULL)
        *bytes_read += (guint64) n_entries * NRES_ENTRY_SIZE;
      if (!nres_check_directory (directory, n_entries, directory_offset, &local_error))
        archive = msh_index_archive_new_failed (file->path, local_error->message);
    }

  if (archive == NULL)
    {
      reader = (Reader) { fd, (guint64) st.st_size, bytes_read, cancellable, NULL, 0, FALSE };
      archive = msh_index_archive_read (file->path, directory, n_entries, directory_offset,
                                        read_payload, &reader, error);
      /* the index holds no MESH member */
      g_assert (!reader.scratch_busy);
      g_free (reader.scratch);
      if (archive == NULL)
        goto failed;
    }

  /* what was read is one version of the file */
  if (fstat (fd, &after) != 0 || !same_stat (&st, &after))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("Another program changed the file while it was read"));
      goto failed;
    }
  close (fd);

  return g_steal_pointer (&archive);

failed:
  close (fd);
  return NULL;
}

GBytes *
mat_game_scan_read_member (const char    *file_path,
                           guint32        offset,
                           guint32        size,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_autofree guint8 *data = NULL;
  GStatBuf st;
  int fd;

  g_return_val_if_fail (file_path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (size > MSH_INDEX_MAX_MESH_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _("A member of %u bytes is too large to read (at most %u)"),
                   size, MSH_INDEX_MAX_MESH_SIZE);
      return NULL;
    }
  fd = mat_file_open_regular (file_path, &st, error);
  if (fd < 0)
    return NULL;
  if ((guint64) offset + size > (guint64) st.st_size)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                           _("The file got shorter while it was read"));
      close (fd);
      return NULL;
    }
  data = g_malloc (MAX (size, 1));
  if (!mat_file_read_at (fd, data, size, offset, cancellable, error))
    {
      close (fd);
      return NULL;
    }
  close (fd);

  return g_bytes_new_take (g_steal_pointer (&data), size);
}
