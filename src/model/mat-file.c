/* mat-file.c - reading and replacing library files on a local disk */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
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
/* Every temporary file of a save: ".NAME.XXXXXX.matedit-tmp", locked
 * (flock) by the save that made it for as long as it runs. */
#define TEMP_SUFFIX      ".matedit-tmp"
#define TEMP_RANDOM      6
/* The digest of an ETag. SHA-1: in GLib, 52 ms for the 17.6 MB of the
 * 65,536-material library where SHA-256 takes 143 ms (README); what it
 * guards against is another program's accident, not a forger, who could
 * write the file anyway. */
#define DIGEST_TYPE      G_CHECKSUM_SHA1

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

/* "inode:size:mtime": the part of an ETag that stat tells. */
static char *
stat_part (const GStatBuf *st)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%" G_GINT64_FORMAT ".%09ld",
                          (guint64) st->st_ino, (guint64) st->st_size,
                          (gint64) st->st_mtim.tv_sec, (long) st->st_mtim.tv_nsec);
}

/* "inode:size:mtime:digest". */
static char *
etag_make (const GStatBuf *st,
           const char     *digest)
{
  g_autofree char *part = stat_part (st);

  return g_strconcat (part, ":", digest, NULL);
}

/* Whether @etag was made of a file with @st's inode, size and time. */
static gboolean
etag_stat_matches (const char     *etag,
                   const GStatBuf *st)
{
  g_autofree char *part = stat_part (st);
  gsize len = strlen (part);

  return strncmp (etag, part, len) == 0 && etag[len] == ':';
}

static void
checksum_update (GChecksum    *checksum,
                 const guint8 *data,
                 guint64       len)
{
  while (len > 0)
    {
      gsize n = (gsize) MIN (len, (guint64) G_MAXINT32);

      g_checksum_update (checksum, data, (gssize) n);
      data += n;
      len -= n;
    }
}

/* The gaps of the file whose first bytes are @header (16 of them, or all of
 * a shorter file) when it is an archive whose directory passes its checks:
 * what a digest leaves out. @read_directory reads the directory. */
typedef gboolean (*ReadDirectory) (guint8 *dest, gsize len, guint32 offset, gpointer data);

static NresGap *
plan_gaps (const guint8  *header,
           guint64        size,
           ReadDirectory  read_directory,
           gpointer       data,
           guint         *n_gaps)
{
  g_autofree guint8 *directory = NULL;
  guint32 n = 0, offset = 0;

  *n_gaps = 0;
  if (!nres_check_header (header, MIN (size, NRES_HEADER_SIZE), size, &n, &offset, NULL))
    return NULL;
  directory = g_malloc ((gsize) n * NRES_ENTRY_SIZE + 1);
  if (!read_directory (directory, (gsize) n * NRES_ENTRY_SIZE, offset, data) ||
      !nres_check_directory (directory, n, offset, NULL))
    return NULL;
  return nres_find_gaps (directory, n, offset, n_gaps);
}

static gboolean
directory_in_memory (guint8  *dest,
                     gsize    len,
                     guint32  offset,
                     gpointer data)
{
  memcpy (dest, (const guint8 *) data + offset, len);
  return TRUE;
}

/* The digest of a file's bytes: all of them, less the gaps of an archive
 * (nres_find_gaps), which a reader does not hold. Returns: (transfer full). */
static char *
digest_memory (const guint8 *data,
               gsize         len)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (DIGEST_TYPE);
  g_autofree NresGap *gaps = NULL;
  guint n_gaps = 0;
  guint64 pos = 0;

  gaps = plan_gaps (data, len, directory_in_memory, (gpointer) data, &n_gaps);
  for (guint i = 0; i < n_gaps; i++)
    {
      checksum_update (checksum, data + pos, gaps[i].offset - pos);
      pos = (guint64) gaps[i].offset + gaps[i].length;
    }
  checksum_update (checksum, data + pos, len - pos);

  return g_strdup (g_checksum_get_string (checksum));
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

gboolean
mat_file_read_at (int            fd,
                  guint8        *buf,
                  gsize          len,
                  goffset        offset,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_return_val_if_fail (fd >= 0, FALSE);
  g_return_val_if_fail (buf != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return read_at (fd, buf, len, offset, cancellable, error);
}

static gboolean
directory_from_fd (guint8  *dest,
                   gsize    len,
                   guint32  offset,
                   gpointer data)
{
  return read_at (GPOINTER_TO_INT (data), dest, len, offset, NULL, NULL);
}

/* digest_memory () of the file open as @fd, of @size bytes, read in
 * pieces. Returns: (transfer full): the digest, or %NULL with @error. */
static char *
digest_fd (int            fd,
           guint64        size,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (DIGEST_TYPE);
  g_autofree guint8 *buf = g_malloc (READ_PIECE);
  g_autofree NresGap *gaps = NULL;
  guint8 header[NRES_HEADER_SIZE] = { 0 };
  guint n_gaps = 0;
  guint64 pos = 0;

  if (!read_at (fd, header, MIN (size, sizeof header), 0, cancellable, error))
    return NULL;
  gaps = plan_gaps (header, size, directory_from_fd, GINT_TO_POINTER (fd), &n_gaps);
  for (guint i = 0; i <= n_gaps; i++)
    {
      guint64 end = i < n_gaps ? gaps[i].offset : size;

      while (pos < end)
        {
          gsize n = (gsize) MIN (end - pos, (guint64) READ_PIECE);

          if (!read_at (fd, buf, n, (goffset) pos, cancellable, error))
            return NULL;
          g_checksum_update (checksum, buf, (gssize) n);
          pos += n;
        }
      if (i < n_gaps)
        pos = (guint64) gaps[i].offset + gaps[i].length;
    }

  return g_strdup (g_checksum_get_string (checksum));
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
    {
      g_autofree char *digest = digest_memory (data, size);

      *etag = etag_make (&st, digest);
    }

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
  g_autofree char *digest = NULL;
  GStatBuf st;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  fd = mat_file_open_regular (path, &st, error);
  if (fd < 0)
    return NULL;
  digest = digest_fd (fd, (guint64) st.st_size, NULL, error);
  close (fd);
  if (digest == NULL)
    return NULL;

  return etag_make (&st, digest);
}

/* ---- reading what the directory names ---------------------------------- */

typedef struct {
  char *path;
  char *etag;
} GapSource;

static void
gap_source_free (gpointer data)
{
  GapSource *source = data;

  g_free (source->path);
  g_free (source->etag);
  g_free (source);
}

/* The archive's gap reader: the gaps' bytes from its file, once the file
 * is checked to be still the version read. */
static gboolean
read_gaps (const NresGapCopy  *copies,
           guint               n_copies,
           gpointer            user_data,
           GError            **error)
{
  GapSource *source = user_data;
  g_autofree char *digest = NULL;
  g_autofree char *now = NULL;
  GStatBuf st, after;
  int fd;

  fd = mat_file_open_regular (source->path, &st, error);
  if (fd < 0)
    return FALSE;
  digest = digest_fd (fd, (guint64) st.st_size, NULL, error);
  if (digest == NULL)
    goto failed;
  now = etag_make (&st, digest);
  if (!g_str_equal (now, source->etag))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG,
                           _("The file changed on disk since it was read, and the unindexed bytes it held were not loaded: they cannot be copied. Nothing was written."));
      goto failed;
    }
  for (guint i = 0; i < n_copies; i++)
    if (!read_at (fd, copies[i].dest, copies[i].length, copies[i].offset, NULL, error))
      goto failed;
  if (fstat (fd, &after) != 0 || after.st_size != st.st_size ||
      after.st_mtim.tv_sec != st.st_mtim.tv_sec || after.st_mtim.tv_nsec != st.st_mtim.tv_nsec)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("Another program changed the file while it was read"));
      goto failed;
    }
  close (fd);
  return TRUE;

failed:
  close (fd);
  return FALSE;
}

NresArchive *
mat_file_read_archive (const char    *path,
                       char         **etag,
                       char         **summary,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GChecksum) checksum = NULL;
  g_autofree guint8 *directory = NULL;
  g_autofree NresGap *gaps = NULL;
  g_autoptr(GBytes) held = NULL;
  guint8 *data = NULL;
  guint8 header[NRES_HEADER_SIZE] = { 0 };
  guint32 n_entries = 0, directory_offset = 0;
  guint n_gaps = 0;
  guint64 size, held_size, pos = 0, at = 0;
  GStatBuf st, after;
  NresArchive *archive;
  GapSource *source;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  fd = mat_file_open_regular (path, &st, &local_error);
  if (fd < 0)
    goto io_failed;
  size = (guint64) st.st_size;

  if (!read_at (fd, header, MIN (size, sizeof header), 0, cancellable, &local_error))
    goto io_failed;
  if (!nres_check_header (header, MIN (size, sizeof header), size,
                          &n_entries, &directory_offset, &local_error))
    goto nres_failed;
  directory = g_malloc ((gsize) n_entries * NRES_ENTRY_SIZE + 1);
  if (!read_at (fd, directory, (gsize) n_entries * NRES_ENTRY_SIZE, directory_offset,
                cancellable, &local_error))
    goto io_failed;
  if (!nres_check_directory (directory, n_entries, directory_offset, &local_error))
    goto nres_failed;

  /* What the directory names, and the small runs between: the file less
   * its gaps, hashed as it is read. */
  gaps = nres_find_gaps (directory, n_entries, directory_offset, &n_gaps);
  g_clear_pointer (&directory, g_free);
  held_size = size;
  for (guint i = 0; i < n_gaps; i++)
    held_size -= gaps[i].length;
  data = g_try_malloc (MAX (held_size, 1));
  if (data == NULL)
    {
      g_autofree char *shown = mat_file_format_count (held_size);

      g_set_error (&local_error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _("Not enough memory to read a file of %s bytes"), shown);
      goto io_failed;
    }
  held = g_bytes_new_take (data, held_size);
  /* the ETag's digest, hashed as it is read; a caller that does not
   * write (check) needs none, and a gap reader only with one */
  if (etag != NULL)
    checksum = g_checksum_new (DIGEST_TYPE);
  for (guint i = 0; i <= n_gaps; i++)
    {
      guint64 end = i < n_gaps ? gaps[i].offset : size;

      if (!read_at (fd, data + at, end - pos, (goffset) pos, cancellable, &local_error))
        goto io_failed;
      if (checksum != NULL)
        checksum_update (checksum, data + at, end - pos);
      at += end - pos;
      if (i < n_gaps)
        pos = (guint64) gaps[i].offset + gaps[i].length;
    }
  if (fstat (fd, &after) != 0 || after.st_size != st.st_size ||
      after.st_mtim.tv_sec != st.st_mtim.tv_sec || after.st_mtim.tv_nsec != st.st_mtim.tv_nsec)
    {
      g_set_error_literal (&local_error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("Another program changed the file while it was read"));
      goto io_failed;
    }
  close (fd);
  fd = -1;

  archive = nres_archive_parse_held (held, size, &local_error);
  if (archive == NULL)
    goto nres_failed;
  if (checksum != NULL)
    {
      source = g_new0 (GapSource, 1);
      source->path = g_strdup (path);
      source->etag = etag_make (&st, g_checksum_get_string (checksum));
      *etag = g_strdup (source->etag);
      nres_archive_set_gap_reader (archive, read_gaps, source, gap_source_free);
    }

  return archive;

nres_failed:
  if (summary != NULL)
    {
      guint32 total = size >= NRES_HEADER_SIZE
                      ? (guint32) header[12] | ((guint32) header[13] << 8) |
                        ((guint32) header[14] << 16) | ((guint32) header[15] << 24)
                      : 0;

      *summary = summarize_nres_error (local_error, size, total);
    }
  if (fd >= 0)
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

/* Whether @name is one of a save's temporary files: ".NAME.XXXXXX" +
 * TEMP_SUFFIX. */
static gboolean
is_temp_name (const char *name)
{
  gsize len = strlen (name);
  gsize suffix = strlen (TEMP_SUFFIX);
  const char *random;

  if (name[0] != '.' || len < 2 + 1 + TEMP_RANDOM + suffix || !g_str_has_suffix (name, TEMP_SUFFIX))
    return FALSE;
  random = name + len - suffix - TEMP_RANDOM;
  if (random[-1] != '.')
    return FALSE;
  for (guint i = 0; i < TEMP_RANDOM; i++)
    if (!g_ascii_isalnum (random[i]))
      return FALSE;
  return TRUE;
}

guint
mat_file_remove_stale_temporaries (const char *dir,
                                   guint64    *bytes)
{
  g_autoptr(GDir) folder = NULL;
  const char *name;
  guint removed = 0;

  g_return_val_if_fail (dir != NULL, 0);

  if (bytes != NULL)
    *bytes = 0;
  folder = g_dir_open (dir, 0, NULL);
  while (folder != NULL && (name = g_dir_read_name (folder)) != NULL)
    {
      g_autofree char *path = NULL;
      GStatBuf st, again;
      int fd;

      if (!is_temp_name (name))
        continue;
      path = g_build_filename (dir, name, NULL);
      fd = open (path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
      if (fd < 0)
        continue;
      /* A running save holds its lock: only a file nobody holds is left
       * over, and only that same file is removed. */
      if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode) &&
          flock (fd, LOCK_EX | LOCK_NB) == 0 &&
          g_lstat (path, &again) == 0 && again.st_ino == st.st_ino && again.st_dev == st.st_dev &&
          g_unlink (path) == 0)
        {
          removed++;
          if (bytes != NULL)
            *bytes += (guint64) st.st_size;
        }
      close (fd);
    }

  return removed;
}

/* A save's temporary file: open for writing, and a second descriptor that
 * holds its lock until the save is over (closing the first one, which
 * reports late write errors, does not release it). */
typedef struct {
  int   fd;
  int   lock;
  char *path;
} Temp;

#define TEMP_INIT { -1, -1, NULL }

/* Creates a temporary file beside @target: ".NAME.XXXXXX.matedit-tmp"
 * (NAME the target's name and @kind), with O_EXCL and @mode, and locks
 * it. */
static gboolean
create_temp (const char  *target,
             const char  *kind,
             mode_t       mode,
             Temp        *temp,
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
      char suffix[TEMP_RANDOM + 1];
      g_autofree char *name = NULL;
      g_autofree char *path = NULL;
      GStatBuf st;
      int fd;

      for (guint i = 0; i < TEMP_RANDOM; i++)
        suffix[i] = chars[g_random_int_range (0, sizeof chars - 1)];
      suffix[TEMP_RANDOM] = '\0';
      name = g_strdup_printf (".%s%s.%s" TEMP_SUFFIX, base, kind, suffix);
      path = g_build_filename (dir, name, NULL);

      fd = io->open (path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
      if (fd < 0)
        {
          saved = errno;
          if (saved != EEXIST && saved != EINTR)
            break;
          continue;
        }
      /* Another save's clean-up may have taken the file between its
       * creation and the lock: then it is not ours any more. (A file
       * system without locks saves unlocked.) */
      if (flock (fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
        {
          io->close (fd);
          continue;
        }
      if (fstat (fd, &st) == 0 && st.st_nlink == 0)
        {
          io->close (fd);
          continue;
        }
      temp->fd = fd;
      temp->lock = fcntl (fd, F_DUPFD_CLOEXEC, 0);
      temp->path = g_steal_pointer (&path);
      return TRUE;
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
  return FALSE;
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

/* Removes the temporary file (if any is left) and drops its lock. */
static void
discard_temp (Temp *temp)
{
  if (temp->fd >= 0)
    io->close (temp->fd);
  temp->fd = -1;
  if (temp->path != NULL)
    g_unlink (temp->path);
  g_clear_pointer (&temp->path, g_free);
  if (temp->lock >= 0)
    close (temp->lock);
  temp->lock = -1;
}

/* After the rename: only the lock is left. */
static void
release_temp (Temp *temp)
{
  g_clear_pointer (&temp->path, g_free);
  if (temp->lock >= 0)
    close (temp->lock);
  temp->lock = -1;
}

static void
set_backup_error (GError     **error,
                  const char  *target,
                  int          saved)
{
  g_autofree char *backup = g_strconcat (target, ".bak", NULL);
  g_autofree char *shown = display_path (backup);

  set_errno_error (error, saved,
                   _("Could not keep the backup “%s”: %s. The original was left as it was."),
                   shown, g_strerror (saved));
}

/* Copies the original (open as @original_fd) to a temporary file @temp
 * with the original's mode, owner and attributes, synced: the backup,
 * renamed over TARGET.bak just before the save's own rename. */
static gboolean
prepare_backup (const char     *target,
                int             original_fd,
                const GStatBuf *original,
                Temp           *temp,
                GError        **error)
{
  g_autofree char *failed_name = NULL;
  g_autofree guint8 *buf = g_malloc (READ_PIECE);
  goffset offset = 0;
  MetadataStep step;
  int saved = 0;

  /* never wider than the original while it is filled */
  if (!create_temp (target, ".bak", 0600 & original->st_mode, temp, error))
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
      if (!write_all (temp->fd, buf, (gsize) n, &saved))
        goto failed;
      offset += n;
    }

  saved = copy_metadata (temp->fd, original_fd, original, &step, &failed_name);
  if (saved == 0)
    saved = sync_and_close (&temp->fd);
  if (saved == 0)
    return TRUE;

failed:
  discard_temp (temp);
  set_backup_error (error, target, saved);
  return FALSE;
}

/* The last look before the rename: the bytes on disk now, against the
 * digest of the version the contents were made from. */
static gboolean
same_version (const char *path,
              const char *etag)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *now = mat_file_query_etag (path, &error);

  /* A file deleted meanwhile is written again: nothing to lose. */
  if (now == NULL)
    return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  return g_str_equal (now, etag);
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
  g_autofree char *dir = NULL;
  const guint8 *data;
  gsize len;
  GStatBuf original, written;
  gboolean exists;
  Temp temp = TEMP_INIT;
  Temp backup = TEMP_INIT;
  int original_fd = -1;
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
      /* A file that moved is refused at once; one that did not is still
       * compared by content before the rename. */
      if (etag != NULL && !(flags & MAT_SAVE_IGNORE_CHANGES) && !etag_stat_matches (etag, &original))
        goto changed;
    }

  /* What killed saves left in this folder, unless a save still runs. */
  dir = g_path_get_dirname (target);
  if (mat_file_remove_stale_temporaries (dir, NULL) > 0 && notes != NULL)
    *notes |= MAT_SAVE_NOTE_STALE_REMOVED;

  /* Never readable by more users than the original while it is filled:
   * 0600, or the original's mode when narrower; its own mode at the end.
   * A new file is made as any program makes one (0666 less the umask). */
  if (!create_temp (target, "", exists ? 0600 & original.st_mode : 0666, &temp, error))
    goto failed;

  data = g_bytes_get_data (contents, &len);
  if (!write_all (temp.fd, data, len, &saved))
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

      saved = copy_metadata (temp.fd, original_fd, &original, &step, &failed_name);
      if (saved != 0)
        {
          set_metadata_error (error, saved, step, failed_name);
          goto failed;
        }
    }
  if (fstat (temp.fd, &written) != 0)
    memset (&written, 0, sizeof written);
  saved = sync_and_close (&temp.fd);
  if (saved != 0)
    {
      set_errno_error (error, saved,
                       _("Could not write the new file: %s. The original was left as it was."),
                       g_strerror (saved));
      goto failed;
    }

  if (exists && (flags & MAT_SAVE_BACKUP) &&
      !prepare_backup (target, original_fd, &original, &backup, error))
    goto failed;

  /* The last look before the rename: another program may have written
   * while we did, even keeping the size and the time: the bytes decide. */
  if (exists && etag != NULL && !(flags & MAT_SAVE_IGNORE_CHANGES) && !same_version (target, etag))
    goto changed;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto failed;

  if (backup.path != NULL)
    {
      g_autofree char *backup_path = g_strconcat (target, ".bak", NULL);

      if (io->rename (backup.path, backup_path) != 0)
        {
          set_backup_error (error, target, errno);
          goto failed;
        }
      release_temp (&backup);
    }
  if (io->rename (temp.path, target) != 0)
    {
      saved = errno;
      set_errno_error (error, saved,
                       _("Could not replace the original: %s. The original was left as it was."),
                       g_strerror (saved));
      goto failed;
    }
  release_temp (&temp);

  sync_folder (target);

  if (original_fd >= 0)
    io->close (original_fd);
  if (notes != NULL && exists && original.st_nlink > 1)
    *notes |= MAT_SAVE_NOTE_LINKS_DETACHED;
  if (new_etag != NULL)
    {
      g_autofree char *digest = digest_memory (data, len);

      if (written.st_ino != 0)
        *new_etag = etag_make (&written, digest);
      else
        *new_etag = mat_file_query_etag (target, NULL);
    }

  return TRUE;

changed:
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG,
                       _("The file changed on disk since it was read. Nothing was written."));
failed:
  discard_temp (&backup);
  discard_temp (&temp);
  if (original_fd >= 0)
    io->close (original_fd);
  return FALSE;
}
