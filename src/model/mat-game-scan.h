/* mat-game-scan.h - finding a game folder's archives and reading what
 * the index of its models needs
 *
 * See models.md 6. A folder is walked recursively (links followed, a
 * folder reached twice walked once); every regular file whose first four
 * bytes are "NRes" is an archive, whatever its name. Of an archive only
 * the header, the directory and the MESH and WEAR members are read, each
 * with a bounded read at its offset (msh-index.h gives the caps): a
 * texture archive costs its header and directory, a 4 GiB file its first
 * sixteen bytes. No GObject types: mat0tool links this, and
 * MatGameFolder runs it in a worker thread.
 */
#pragma once

#include <gio/gio.h>

#include "msh-index.h"

G_BEGIN_DECLS

/* One regular file of the folder, and the version of it last seen */
typedef struct {
  char    *path;       /* relative to the folder, '/' between folders,
                          UTF-8 (as shown: a name that is not UTF-8 is
                          shown with U+FFFD) */
  char    *file;       /* its path on disk */
  guint64  size;
  gint64   mtime_ns;   /* modification time, nanoseconds */
  guint64  inode;
  guint64  device;
} MatScanFile;

void         mat_scan_file_free        (MatScanFile       *file);
MatScanFile *mat_scan_file_copy        (const MatScanFile *file);
/* Whether @a and @b are one version of one file: same inode, device,
 * size and modification time. */
gboolean     mat_scan_file_same_version (const MatScanFile *a,
                                         const MatScanFile *b);

/* What a walk found */
typedef struct {
  GPtrArray *files;      /* (element-type MatScanFile) sorted by path */
  GPtrArray *folders;    /* (element-type utf8) the folders walked, as
                            paths on disk, the first one walked first */
  GPtrArray *problems;   /* (element-type utf8) "PATH: message" for each
                            folder or file that could not be read */
} MatScanWalk;

void         mat_scan_walk_free        (MatScanWalk       *walk);

/* Whether @name (a file's name, without its folder) is a temporary file
 * of the safe save (mat-file.h: ".NAME.XXXXXX.matedit-tmp"), which a walk
 * skips: it is gone, renamed over its file, as soon as the save ends. */
gboolean     mat_game_scan_is_temporary (const char       *name);

/* Walks @root's folder @start (a path relative to @root, with '/'; ""
 * or %NULL for @root itself) and every folder under it: the regular
 * files (symbolic links followed; a link to nothing is skipped), the
 * folders, and what could not be read.
 * The safe save's temporary files are skipped.
 * Returns: (transfer full): what was found, or %NULL with @error when
 * @start itself is not a folder that can be read
 * (G_IO_ERROR_NOT_DIRECTORY for a file) or on cancellation. */
MatScanWalk *mat_game_scan_walk        (const char        *root,
                                        const char        *start,
                                        GCancellable      *cancellable,
                                        GError           **error);

/* The file named @name (ASCII case-insensitively) at the top of the
 * folder walked; unless @top_only, else the least deep one elsewhere,
 * the first by path among those.
 * Returns: (transfer none) (nullable). */
const MatScanFile *mat_game_scan_find  (const MatScanWalk *walk,
                                        const char        *name,
                                        gboolean           top_only);

/* Reads the index of @file (bounded: header, directory, the MESH and WEAR
 * members). A file that is not "NRes" gives %NULL without @error; one
 * that fails formats.md 1 a failed archive (reported once, contributing
 * nothing). @file's size, time and inode are updated to the version read.
 * @bytes_read: (inout) (optional): what was read is added.
 * Returns: (transfer full) (nullable): the archive, or %NULL (with
 * @error on an I/O error, a file changed while it was read, or
 * cancellation). */
MshIndexArchive *mat_game_scan_read    (MatScanFile       *file,
                                        guint64           *bytes_read,
                                        GCancellable      *cancellable,
                                        GError           **error);

/* Reads the payload of the member at @offset, @size bytes, of @file_path
 * (a model's MESH for its geometry, say), bounded by the caps of the
 * index. Returns: (transfer full): the bytes, or %NULL with @error. */
GBytes      *mat_game_scan_read_member (const char        *file_path,
                                        guint32            offset,
                                        guint32            size,
                                        GCancellable      *cancellable,
                                        GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MatScanFile, mat_scan_file_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MatScanWalk, mat_scan_walk_free)

G_END_DECLS
