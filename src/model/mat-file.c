/* mat-file.c - reading and replacing library files on a local disk */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#if defined(__has_include)
# if __has_include(<sys/xattr.h>)
#  include <sys/xattr.h>
#  define HAVE_XATTR 1
# endif
#endif

#include "nres.h"

#include "mat-file-private.h"

#define READ_PIECE       (1u << 20)   /* bytes per read() */
#define WRITE_PIECE      (1u << 20)   /* bytes per write() */
#define MAX_LINK_DEPTH   40
#define TEMP_ATTEMPTS    100

/* ---- the system calls ------------------------------------------------- */

static int
system_open (const char *path,
             int         flags,
             mode_t      mode)
{
  return open (path, flags, mode);
}

static int
system_fsetxattr (int         fd,
                  const char *name,
                  const void *value,
                  size_t      size,
                  int         flags)
{
#ifdef HAVE_XATTR
  return fsetxattr (fd, name, value, size, flags);
#else
  errno = ENOTSUP;
  return -1;
#endif
}

static const MatFileIO system_io = {
  system_open,
  read,
  write,
  fsync,
  fchmod,
  fchown,
  system_fsetxattr,
  rename,
  close,
};

static const MatFileIO *io = &system_io;

const MatFileIO *
_mat_file_get_system_io (void)
{
  return &system_io;
}

void
_mat_file_set_io (const MatFileIO *replacement)
{
  io = replacement != NULL ? replacement : &system_io;
}

/* ---- small helpers ---------------------------------------------------- */

char *
mat_file_get_local_path (GFile   *file,
                         GError **error)
{
  char *path;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Only files on a local disk can be opened and saved, not %s"), uri);
    }
  return path;
}

static char replace_tag[] = "mat_file_replace_async";

typedef struct {
  char         *path;
  GBytes       *contents;
  char         *etag;
  MatSaveFlags  flags;
  char         *new_etag;
  MatSaveNotes  notes;
} ReplaceData;

static void
replace_data_free (gpointer data)
{
  ReplaceData *replace = data;

  g_free (replace->path);
  g_bytes_unref (replace->contents);
  g_free (replace->etag);
  g_free (replace->new_etag);
  g_free (replace);
}

static void
replace_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  ReplaceData *replace = task_data;
  GError *error = NULL;

  if (!mat_file_replace (replace->path, replace->contents, replace->etag, replace->flags,
                         &replace->new_etag, &replace->notes, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
mat_file_replace_async (GFile               *file,
                        GBytes              *contents,
                        const char          *etag,
                        MatSaveFlags         flags,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  ReplaceData *replace;
  char *path;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (contents != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, replace_tag);
  path = mat_file_get_local_path (file, &error);
  if (path == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  replace = g_new0 (ReplaceData, 1);
  replace->path = path;
  replace->contents = g_bytes_ref (contents);
  replace->etag = g_strdup (etag);
  replace->flags = flags;
  g_task_set_task_data (task, replace, replace_data_free);
  g_task_run_in_thread (task, replace_thread);
}

gboolean
mat_file_replace_finish (GAsyncResult  *result,
                         char         **new_etag,
                         MatSaveNotes  *notes,
                         GError       **error)
{
  ReplaceData *replace;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  replace = g_task_get_task_data (G_TASK (result));
  if (new_etag != NULL)
    *new_etag = g_steal_pointer (&replace->new_etag);
  if (notes != NULL)
    *notes = replace->notes;
  return TRUE;
}

char *
mat_file_format_count (guint64 value)
{
  /* Translators: the thousands separator of byte counts ("1,900 bytes") */
  const char *separator = C_("thousands separator", ",");
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, value);
  GString *out = g_string_new (NULL);
  gsize n = strlen (digits);

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append (out, separator);
      g_string_append_c (out, digits[i]);
    }

  return g_string_free (out, FALSE);
}

static char *
etag_from_stat (const GStatBuf *st)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%" G_GINT64_FORMAT ".%09ld",
                          (guint64) st->st_ino, (guint64) st->st_size,
                          (gint64) st->st_mtim.tv_sec, (long) st->st_mtim.tv_nsec);
}

static const char *
not_regular_message (mode_t mode)
{
  if (S_ISDIR (mode))
    return _("This is a folder, not a file");
  if (S_ISFIFO (mode))
    return _("This is a named pipe (FIFO), not a regular file");
  if (S_ISCHR (mode) || S_ISBLK (mode))
    return _("This is a device, not a regular file");
  if (S_ISSOCK (mode))
    return _("This is a socket, not a regular file");

  return _("This is not a regular file");
}

static void
set_not_regular (GError **error,
                 mode_t   mode)
{
  g_set_error_literal (error, G_IO_ERROR,
                       S_ISDIR (mode) ? G_IO_ERROR_IS_DIRECTORY : G_IO_ERROR_NOT_REGULAR_FILE,
                       not_regular_message (mode));
}

static char *
display_path (const char *path)
{
  return g_filename_display_name (path);
}

/* ---- reading ---------------------------------------------------------- */

int
mat_file_open_regular (const char  *path,
                       GStatBuf    *st,
                       GError     **error)
{
  GStatBuf local;
  int fd;
  int saved;

  g_return_val_if_fail (path != NULL, -1);
  g_return_val_if_fail (error == NULL || *error == NULL, -1);

  if (st == NULL)
    st = &local;

  /* Look before opening: opening some devices has effects of its own. */
  if (g_stat (path, st) == 0 && !S_ISREG (st->st_mode))
    {
      set_not_regular (error, st->st_mode);
      return -1;
    }

  /* O_NONBLOCK: a FIFO put in the file's place meanwhile does not block
   * the open; fstat below refuses it. */
  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not open the file: %s"), g_strerror (saved));
      return -1;
    }
  if (fstat (fd, st) != 0)
    {
      saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not open the file: %s"), g_strerror (saved));
      close (fd);
      return -1;
    }
  if (!S_ISREG (st->st_mode))
    {
      set_not_regular (error, st->st_mode);
      close (fd);
      return -1;
    }

  return fd;
}

/* Reads exactly @len bytes at @offset; a file that ends before fails. */
static gboolean
read_at (int            fd,
         guint8        *buf,
         gsize          len,
         goffset        offset,
         GCancellable  *cancellable,
         GError       **error)
{
  while (len > 0)
    {
      gssize n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      n = pread (fd, buf, MIN (len, READ_PIECE), offset);
      if (n < 0)
        {
          int saved = errno;

          if (saved == EINTR)
            continue;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("Could not read the file: %s"), g_strerror (saved));
          return FALSE;
        }
      if (n == 0)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                               _("The file got shorter while it was read"));
          return FALSE;
        }
      buf += n;
      len -= (gsize) n;
      offset += n;
    }

  return TRUE;
}

/* What a core error means, in plain words. */
static char *
summarize_nres_error (const GError *error,
                      guint64       file_size,
                      guint32       total_size)
{
  g_autofree char *have = mat_file_format_count (file_size);
  g_autofree char *want = mat_file_format_count (total_size);

  switch (error->code)
    {
    case NRES_ERROR_TRUNCATED:
      return g_strdup_printf (_("The file is too short to be a library: %s bytes."), have);
    case NRES_ERROR_BAD_MAGIC:
      return g_strdup (_("This is not a material library: it does not start with “NRes”."));
    case NRES_ERROR_BAD_VERSION:
      return g_strdup (_("This library has a version the game does not read."));
    case NRES_ERROR_BAD_COUNT:
      return g_strdup (_("The library’s directory does not fit in the file."));
    case NRES_ERROR_BAD_SIZE:
      if (file_size < total_size)
        return g_strdup_printf (_("The file is cut short: %s of %s bytes."), have, want);
      return g_strdup_printf (_("The file is longer than its header says: %s bytes instead of %s."),
                              have, want);
    case NRES_ERROR_BAD_ENTRY:
      return g_strdup (_("An entry of the library points outside the file."));
    case NRES_ERROR_BAD_NAME:
      return g_strdup (_("An entry of the library has a broken name."));
    default:
      return g_strdup (_("The file is not a valid material library."));
    }
}

static char *
summarize_io_error (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY))
    return g_strdup (_("This is not a library file."));
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    return g_strdup (_("The file does not exist."));
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    return g_strdup (_("You are not allowed to read this file."));

  return g_strdup (_("The file could not be read."));
}

GBytes *
mat_file_read_library (const char    *path,
                       char         **etag,
                       char         **summary,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree guint8 *directory = NULL;
  g_autofree guint8 *data = NULL;
  guint8 header[NRES_HEADER_SIZE] = { 0 };
  guint32 n_entries = 0, directory_offset = 0;
  guint64 size;
  GStatBuf st, after;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  fd = mat_file_open_regular (path, &st, &local_error);
  if (fd < 0)
    goto io_failed;
  size = (guint64) st.st_size;

  /* The header, checked against the file's size before anything else. */
  if (!read_at (fd, header, MIN (size, sizeof header), 0, cancellable, &local_error))
    goto io_failed;
  if (!nres_check_header (header, MIN (size, sizeof header), size,
                          &n_entries, &directory_offset, &local_error))
    goto nres_failed;

  /* Then the directory, before the payloads. */
  directory = g_malloc ((gsize) n_entries * NRES_ENTRY_SIZE + 1);
  if (!read_at (fd, directory, (gsize) n_entries * NRES_ENTRY_SIZE, directory_offset,
                cancellable, &local_error))
    goto io_failed;
  if (!nres_check_directory (directory, n_entries, directory_offset, &local_error))
    goto nres_failed;
  g_clear_pointer (&directory, g_free);

  /* Then the whole file, in bounded pieces (no mapping: a file cut short
   * by another program later must not take the editor down). */
  data = g_try_malloc (MAX (size, 1));
  if (data == NULL)
    {
      g_autofree char *shown = mat_file_format_count (size);

      g_set_error (&local_error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _("Not enough memory to read a file of %s bytes"), shown);
      goto io_failed;
    }
  if (!read_at (fd, data, size, 0, cancellable, &local_error))
    goto io_failed;
  if (fstat (fd, &after) != 0 || after.st_size != st.st_size ||
      after.st_mtim.tv_sec != st.st_mtim.tv_sec || after.st_mtim.tv_nsec != st.st_mtim.tv_nsec)
    {
      g_set_error_literal (&local_error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("Another program changed the file while it was read"));
      goto io_failed;
    }
  close (fd);

  if (etag != NULL)
    *etag = etag_from_stat (&st);

  return g_bytes_new_take (g_steal_pointer (&data), size);

nres_failed:
  if (summary != NULL)
    {
      guint32 total = size >= NRES_HEADER_SIZE
                      ? (guint32) header[12] | ((guint32) header[13] << 8) |
                        ((guint32) header[14] << 16) | ((guint32) header[15] << 24)
                      : 0;

      *summary = summarize_nres_error (local_error, size, total);
    }
  close (fd);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return NULL;

io_failed:
  if (summary != NULL && !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    *summary = summarize_io_error (local_error);
  if (fd >= 0)
    close (fd);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return NULL;
}

char *
mat_file_query_etag (const char  *path,
                     GError     **error)
{
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_stat (path, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not look at the file: %s"), g_strerror (saved));
      return NULL;
    }

  return etag_from_stat (&st);
}

/* ---- replacing -------------------------------------------------------- */

/* Follows @path through symbolic links to the file a save replaces (which
 * need not exist yet). Returns: (transfer full), or %NULL with @error. */
static char *
resolve_links (const char  *path,
               GError     **error)
{
  g_autofree char *current = g_strdup (path);

  for (guint depth = 0; depth <= MAX_LINK_DEPTH; depth++)
    {
      g_autofree char *target = NULL;
      GStatBuf st;

      if (g_lstat (current, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&current);

      target = g_file_read_link (current, NULL);
      if (target == NULL)
        break;
      if (!g_path_is_absolute (target))
        {
          g_autofree char *dir = g_path_get_dirname (current);
          g_autofree char *joined = g_build_filename (dir, target, NULL);

          g_free (current);
          current = g_steal_pointer (&joined);
        }
      else
        {
          g_free (current);
          current = g_steal_pointer (&target);
        }
    }

  {
    g_autofree char *shown = display_path (path);

    g_set_error (error, G_IO_ERROR, G_IO_ERROR_TOO_MANY_LINKS,
                 _("Could not follow the link “%s”: %s"), shown, g_strerror (ELOOP));
  }
  return NULL;
}

static void
set_errno_error (GError     **error,
                 int          saved,
                 const char  *format,
                 ...) G_GNUC_PRINTF (3, 4);

static void
set_errno_error (GError     **error,
                 int          saved,
                 const char  *format,
                 ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved), message);
}

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         len,
           int          *saved)
{
  while (len > 0)
    {
      gssize n = io->write (fd, data, MIN (len, WRITE_PIECE));

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          *saved = errno;
          return FALSE;
        }
      if (n == 0)
        {
          *saved = ENOSPC;
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }

  return TRUE;
}

/* A temporary file beside @target: ".NAME.XXXXXX.tmp", created with
 * O_EXCL (mode 0666 less the umask, as any new file). */
static int
create_temp (const char  *target,
             const char  *kind,
             char       **out_path,
             GError     **error)
{
  static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  int saved = 0;

  /* room for the prefix and suffix in a 255-byte name */
  if (strlen (base) > 200)
    base[200] = '\0';

  for (guint attempt = 0; attempt < TEMP_ATTEMPTS; attempt++)
    {
      char suffix[7];
      g_autofree char *name = NULL;
      g_autofree char *path = NULL;
      int fd;

      for (guint i = 0; i < 6; i++)
        suffix[i] = chars[g_random_int_range (0, sizeof chars - 1)];
      suffix[6] = '\0';
      name = g_strdup_printf (".%s.%s%s.tmp", base, kind, suffix);
      path = g_build_filename (dir, name, NULL);

      fd = io->open (path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (fd >= 0)
        {
          *out_path = g_steal_pointer (&path);
          return fd;
        }
      saved = errno;
      if (saved != EEXIST && saved != EINTR)
        break;
    }

  {
    g_autofree char *shown = display_path (dir);

    if (saved == EACCES || saved == EPERM || saved == EROFS)
      set_errno_error (error, saved, _("Cannot write in the folder “%s”: %s"),
                       shown, g_strerror (saved));
    else
      set_errno_error (error, saved, _("Could not create a file in the folder “%s”: %s"),
                       shown, g_strerror (saved));
  }
  return -1;
}

typedef enum {
  STEP_OWNER,
  STEP_MODE,
  STEP_XATTR,
} MetadataStep;

#ifdef HAVE_XATTR
/* Returns: the errno of the attribute that could not be set, or 0; its
 * name in @failed_name. */
static int
copy_xattrs (int    from,
             int    to,
             char **failed_name)
{
  g_autofree char *names = NULL;
  gssize size;

  for (;;)
    {
      size = flistxattr (from, NULL, 0);
      if (size <= 0)
        return 0;   /* none, or a file system without them */
      g_free (names);
      names = g_malloc ((gsize) size);
      size = flistxattr (from, names, (gsize) size);
      if (size >= 0)
        break;
      if (errno != ERANGE)
        return 0;
    }

  for (const char *name = names; name < names + size; name += strlen (name) + 1)
    {
      g_autofree guint8 *value = NULL;
      gssize len = fgetxattr (from, name, NULL, 0);

      if (len < 0)
        continue;
      value = g_malloc ((gsize) len + 1);
      len = fgetxattr (from, name, value, (gsize) len);
      if (len < 0)
        continue;
      if (io->fsetxattr (to, name, value, (gsize) len, 0) != 0)
        {
          int saved = errno;

          /* Attributes the user may not set (trusted.*, some security.*)
           * stay behind, as with cp --preserve=xattr. */
          if (saved == EPERM || saved == EACCES || saved == ENOTSUP)
            continue;
          *failed_name = g_strdup (name);
          return saved;
        }
    }

  return 0;
}
#endif

/* Gives the file open as @fd the owner (where permitted), mode and
 * extended attributes of @original (open as @original_fd).
 * Returns: 0, or the errno of the failed @step. */
static int
copy_metadata (int             fd,
               int             original_fd,
               const GStatBuf *original,
               MetadataStep   *step,
               char          **failed_name)
{
  /* Owner first: a change of owner clears the set-id bits. */
  *step = STEP_OWNER;
  if (io->fchown (fd, original->st_uid, original->st_gid) != 0)
    {
      if (errno != EPERM && errno != EINVAL)
        return errno;
      /* Not permitted: keep at least the group when we may. */
      if (io->fchown (fd, (uid_t) -1, original->st_gid) != 0 && errno != EPERM && errno != EINVAL)
        return errno;
    }

  *step = STEP_MODE;
  if (io->fchmod (fd, original->st_mode & 07777) != 0)
    return errno;

#ifdef HAVE_XATTR
  *step = STEP_XATTR;
  return copy_xattrs (original_fd, fd, failed_name);
#else
  return 0;
#endif
}

static void
set_metadata_error (GError       **error,
                    int            saved,
                    MetadataStep   step,
                    const char    *name)
{
  switch (step)
    {
    case STEP_OWNER:
      set_errno_error (error, saved,
                       _("Could not give the new file the original’s owner: %s. The original was left as it was."),
                       g_strerror (saved));
      break;
    case STEP_MODE:
      set_errno_error (error, saved,
                       _("Could not give the new file the original’s mode: %s. The original was left as it was."),
                       g_strerror (saved));
      break;
    case STEP_XATTR:
    default:
      set_errno_error (error, saved,
                       _("Could not copy the extended attribute “%s”: %s. The original was left as it was."),
                       name != NULL ? name : "", g_strerror (saved));
      break;
    }
}

/* Syncs and closes @fd (closed even on failure). Returns: 0 or errno. */
static int
sync_and_close (int *fd)
{
  int saved = 0;

  if (io->fsync (*fd) != 0)
    saved = errno;
  if (io->close (*fd) != 0 && saved == 0)
    saved = errno;
  *fd = -1;

  return saved;
}

static void
discard_temp (int   *fd,
              char **path)
{
  if (*fd >= 0)
    io->close (*fd);
  *fd = -1;
  if (*path != NULL)
    g_unlink (*path);
  g_clear_pointer (path, g_free);
}

/* Copies the original (open as @original_fd) to TARGET.bak, through a
 * temporary file renamed over the old backup, with the original's mode,
 * owner and attributes. */
static gboolean
keep_backup (const char     *target,
             int             original_fd,
             const GStatBuf *original,
             GError        **error)
{
  g_autofree char *backup = g_strconcat (target, ".bak", NULL);
  g_autofree char *tmp = NULL;
  g_autofree char *failed_name = NULL;
  g_autofree guint8 *buf = g_malloc (READ_PIECE);
  goffset offset = 0;
  MetadataStep step;
  int fd;
  int saved = 0;

  fd = create_temp (target, "bak.", &tmp, error);
  if (fd < 0)
    return FALSE;

  for (;;)
    {
      gssize n;

      if (lseek (original_fd, offset, SEEK_SET) < 0)
        {
          saved = errno;
          goto failed;
        }
      n = io->read (original_fd, buf, READ_PIECE);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          saved = errno;
          goto failed;
        }
      if (n == 0)
        break;
      if (!write_all (fd, buf, (gsize) n, &saved))
        goto failed;
      offset += n;
    }

  saved = copy_metadata (fd, original_fd, original, &step, &failed_name);
  if (saved == 0)
    saved = sync_and_close (&fd);
  if (saved == 0 && io->rename (tmp, backup) != 0)
    saved = errno;
  if (saved == 0)
    return TRUE;

failed:
  discard_temp (&fd, &tmp);
  {
    g_autofree char *shown = display_path (backup);

    set_errno_error (error, saved,
                     _("Could not keep the backup “%s”: %s. The original was left as it was."),
                     shown, g_strerror (saved));
  }
  return FALSE;
}

static gboolean
same_version (const char *path,
              const char *etag)
{
  g_autofree char *now = mat_file_query_etag (path, NULL);

  /* A file deleted meanwhile is written again: nothing to lose. */
  return now == NULL || g_str_equal (now, etag);
}

static void
sync_folder (const char *target)
{
  g_autofree char *dir = g_path_get_dirname (target);
  int fd = io->open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

  /* After the rename the new file is in place: a folder that cannot be
   * synced (some file systems refuse) does not undo the save. */
  if (fd < 0)
    return;
  if (io->fsync (fd) != 0)
    g_debug ("Could not sync the folder %s: %s", dir, g_strerror (errno));
  io->close (fd);
}

gboolean
mat_file_replace (const char    *path,
                  GBytes        *contents,
                  const char    *etag,
                  MatSaveFlags   flags,
                  char         **new_etag,
                  MatSaveNotes  *notes,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_autofree char *target = NULL;
  g_autofree char *tmp = NULL;
  const guint8 *data;
  gsize len;
  GStatBuf original, written;
  gboolean exists;
  int original_fd = -1;
  int fd = -1;
  int saved = 0;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (notes != NULL)
    *notes = MAT_SAVE_NOTE_NONE;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  /* A symbolic link stays: the file it points at is replaced. */
  target = resolve_links (path, error);
  if (target == NULL)
    return FALSE;

  exists = g_stat (target, &original) == 0;
  if (exists && !S_ISREG (original.st_mode))
    {
      set_not_regular (error, original.st_mode);
      return FALSE;
    }

  if (exists)
    {
      /* Opened for its attributes and the backup; never written. */
      original_fd = io->open (target, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
      if (original_fd < 0 || fstat (original_fd, &original) != 0 || !S_ISREG (original.st_mode))
        {
          saved = errno;
          if (original_fd >= 0 && !S_ISREG (original.st_mode))
            set_not_regular (error, original.st_mode);
          else
            set_errno_error (error, saved,
                             _("Could not read the original to keep its attributes: %s. The original was left as it was."),
                             g_strerror (saved));
          goto failed;
        }
      if (etag != NULL && !(flags & MAT_SAVE_IGNORE_CHANGES))
        {
          g_autofree char *now = etag_from_stat (&original);

          if (!g_str_equal (now, etag))
            goto changed;
        }
    }

  fd = create_temp (target, "", &tmp, error);
  if (fd < 0)
    goto failed;

  data = g_bytes_get_data (contents, &len);
  if (!write_all (fd, data, len, &saved))
    {
      set_errno_error (error, saved,
                       _("Could not write the new file: %s. The original was left as it was."),
                       g_strerror (saved));
      goto failed;
    }

  if (exists)
    {
      g_autofree char *failed_name = NULL;
      MetadataStep step;

      saved = copy_metadata (fd, original_fd, &original, &step, &failed_name);
      if (saved != 0)
        {
          set_metadata_error (error, saved, step, failed_name);
          goto failed;
        }
    }
  if (fstat (fd, &written) != 0)
    memset (&written, 0, sizeof written);
  saved = sync_and_close (&fd);
  if (saved != 0)
    {
      set_errno_error (error, saved,
                       _("Could not write the new file: %s. The original was left as it was."),
                       g_strerror (saved));
      goto failed;
    }

  if (exists && (flags & MAT_SAVE_BACKUP) && !keep_backup (target, original_fd, &original, error))
    goto failed;

  /* The last look before the rename: another program may have written
   * while we did. */
  if (exists && etag != NULL && !(flags & MAT_SAVE_IGNORE_CHANGES) && !same_version (target, etag))
    goto changed;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto failed;

  if (io->rename (tmp, target) != 0)
    {
      saved = errno;
      set_errno_error (error, saved,
                       _("Could not replace the original: %s. The original was left as it was."),
                       g_strerror (saved));
      goto failed;
    }
  g_clear_pointer (&tmp, g_free);

  sync_folder (target);

  if (original_fd >= 0)
    io->close (original_fd);
  if (notes != NULL && exists && original.st_nlink > 1)
    *notes |= MAT_SAVE_NOTE_LINKS_DETACHED;
  if (new_etag != NULL)
    *new_etag = written.st_ino != 0 ? etag_from_stat (&written) : mat_file_query_etag (target, NULL);

  return TRUE;

changed:
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG,
                       _("The file changed on disk since it was read. Nothing was written."));
failed:
  discard_temp (&fd, &tmp);
  if (original_fd >= 0)
    io->close (original_fd);
  return FALSE;
}
