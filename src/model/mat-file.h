/* mat-file.h - reading and replacing library files on a local disk
 *
 * The only place where the editor and mat0tool touch the files they
 * open and save. Reading never blocks on a FIFO or a device and looks at
 * the header and the directory before anything else; replacing writes a
 * temporary file beside the target and renames it over the target, so a
 * failed save leaves the original exactly as it was. No GObject types:
 * mat0tool links this without the rest of the model.
 */
#pragma once

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "nres.h"

G_BEGIN_DECLS

typedef enum {
  MAT_SAVE_NONE            = 0,
  MAT_SAVE_BACKUP          = 1 << 0,   /* keep the previous file as FILE.bak */
  MAT_SAVE_IGNORE_CHANGES  = 1 << 1,   /* write even when the file changed on
                                          disk since @etag ("Overwrite") */
} MatSaveFlags;

typedef enum {
  MAT_SAVE_NOTE_NONE           = 0,
  MAT_SAVE_NOTE_LINKS_DETACHED = 1 << 0,  /* the file had other hard links:
                                             they keep the previous content */
  MAT_SAVE_NOTE_STALE_REMOVED  = 1 << 1,  /* temporary files that killed
                                             saves left in the folder were
                                             removed */
} MatSaveNotes;

/* Opens @path for reading without blocking and checks it is a regular
 * file: a FIFO, a device, a socket or a folder is refused at once with
 * G_IO_ERROR_NOT_REGULAR_FILE, before anything is read. @st receives its
 * status. Returns: the descriptor (close it), or -1 with @error. */
int       mat_file_open_regular   (const char      *path,
                                   GStatBuf        *st,
                                   GError         **error);

/* Reads exactly @len bytes of the file open as @fd at @offset, in pieces
 * of at most a mebibyte, checking @cancellable between them; a file that
 * ends before fails with G_IO_ERROR_PARTIAL_INPUT.
 * Returns: %TRUE, or %FALSE with @error. */
gboolean  mat_file_read_at        (int              fd,
                                   guint8          *buf,
                                   gsize            len,
                                   goffset          offset,
                                   GCancellable    *cancellable,
                                   GError         **error);

/* Reads an NRes library: refuses anything but a regular file, checks the
 * header and then the directory against the file's size
 * (nres_check_header, nres_check_directory) before the payloads are
 * read, then reads the file in bounded pieces. A file that is not a
 * library answers after 16 bytes, whatever its size.
 * @etag: (out) (optional): the file's ETag (mat_file_query_etag): its
 * inode, size and time, and a digest of its bytes as they were read.
 * @summary: (out) (optional): on failure, what is wrong in plain words
 * ("The file is cut short: 1,900 of 3,768 bytes."); @error holds the
 * exact detail (the core's "ENTRY: offset N: expected X, found Y").
 * Returns: (transfer full): the file's bytes, or %NULL with @error. */
GBytes   *mat_file_read_library   (const char      *path,
                                   char           **etag,
                                   char           **summary,
                                   GCancellable    *cancellable,
                                   GError         **error);

/* Reads an NRes library as mat_file_read_library () does, but only what
 * its directory names: the header, the payloads with the runs of fewer than
 * NRES_GAP_MIN unindexed bytes near them, and the directory. Larger
 * unindexed regions (nres_find_gaps) are not read: a file whose header
 * claims gigabytes answers at once. The archive's gap reader reads them
 * from the file when the preserving writer needs them, after checking that
 * the file is still the version read (G_IO_ERROR_WRONG_ETAG otherwise).
 * @etag, @summary: as mat_file_read_library (); without @etag no digest
 * is taken and the archive has no gap reader (it can be read, not
 * written with the preserving writer when it has gaps).
 * Returns: (transfer full): the archive, or %NULL with @error. */
NresArchive *mat_file_read_archive (const char      *path,
                                    char           **etag,
                                    char           **summary,
                                    GCancellable    *cancellable,
                                    GError         **error);

/* What identifies one version of a file: inode, size and modification
 * time to the nanosecond, following symbolic links, and a digest (SHA-1)
 * of its bytes, less the gaps of an archive (nres_find_gaps): the file is
 * read. A file that does not exist fails with G_IO_ERROR_NOT_FOUND.
 * Returns: (transfer full): the ETag, or %NULL with @error. */
char     *mat_file_query_etag     (const char      *path,
                                   GError         **error);

/* Removes from @dir the temporary files of saves (".NAME.XXXXXX.matedit-tmp")
 * that no running save holds: what a killed save left.
 * @bytes: (out) (optional): their size.
 * Returns: how many were removed. */
guint     mat_file_remove_stale_temporaries (const char *dir,
                                             guint64    *bytes);

/* Writes @contents to @path atomically: a temporary file in the target's
 * folder (created 0600, or with the original's mode when narrower, and
 * locked while the save runs), every write checked, flushed and synced,
 * given the original's mode, owner (where permitted) and extended
 * attributes, renamed over the target, then the folder synced. Leftovers
 * of killed saves in the folder are removed first
 * (MAT_SAVE_NOTE_STALE_REMOVED). If any step before the rename fails,
 * the temporary file is removed and the original is left exactly as it
 * was; the original is never truncated or rewritten in place.
 *
 * A symbolic link is followed: its target is replaced and the link stays.
 * A file with other hard links is replaced too (the other names keep the
 * old content: MAT_SAVE_NOTE_LINKS_DETACHED). A target that exists but is
 * not a regular file is refused. A folder that cannot be written fails
 * with an error naming it.
 *
 * @etag: (nullable): the ETag of the version the contents were made from;
 * when the file on disk differs (its inode, size or time at the start, or
 * its bytes just before the rename), nothing is written and the call fails
 * with G_IO_ERROR_WRONG_ETAG, unless @flags has MAT_SAVE_IGNORE_CHANGES.
 * MAT_SAVE_BACKUP first keeps the previous file as TARGET.bak (beside the
 * file replaced, with its mode), one per save.
 * @new_etag: (out) (optional): the ETag of the file written.
 * @notes: (out) (optional).
 * Returns: %TRUE when the file now holds @contents. */
gboolean  mat_file_replace        (const char      *path,
                                   GBytes          *contents,
                                   const char      *etag,
                                   MatSaveFlags     flags,
                                   char           **new_etag,
                                   MatSaveNotes    *notes,
                                   GCancellable    *cancellable,
                                   GError         **error);

/* The path of @file on a local disk.
 * Returns: (transfer full): the path, or %NULL with
 * G_IO_ERROR_NOT_SUPPORTED for a file elsewhere (a URI). */
char     *mat_file_get_local_path (GFile           *file,
                                   GError         **error);

/* mat_file_replace() of @file's local path in a worker thread; the
 * callback runs in the thread-default main context of the caller. */
void      mat_file_replace_async  (GFile               *file,
                                   GBytes              *contents,
                                   const char          *etag,
                                   MatSaveFlags         flags,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data);
/* @new_etag: (out) (optional): the ETag of the file written.
 * @notes: (out) (optional).
 * Returns: %TRUE when the file now holds the contents. */
gboolean  mat_file_replace_finish (GAsyncResult    *result,
                                   char           **new_etag,
                                   MatSaveNotes    *notes,
                                   GError         **error);

/* "1,900": @value with the translated thousands separator.
 * Returns: (transfer full). */
char     *mat_file_format_count   (guint64          value);

G_END_DECLS
