/* mat-file-private.h - the system calls of a save, replaceable by tests
 *
 * mat_file_replace makes every call that can fail through this table, so
 * a test can make any one of them fail (ENOSPC, EIO, a short write) and
 * check that the original is left as it was. Always compiled in: one
 * indirect call per system call.
 */
#pragma once

#include <sys/types.h>

#include "mat-file.h"

G_BEGIN_DECLS

typedef struct {
  int     (*open)      (const char *path, int flags, mode_t mode);
  ssize_t (*read)      (int fd, void *buf, size_t count);
  ssize_t (*write)     (int fd, const void *buf, size_t count);
  int     (*fsync)     (int fd);
  int     (*fchmod)    (int fd, mode_t mode);
  int     (*fchown)    (int fd, uid_t owner, gid_t group);
  int     (*fsetxattr) (int fd, const char *name, const void *value, size_t size, int flags);
  int     (*rename)    (const char *from, const char *to);
  int     (*close)     (int fd);
} MatFileIO;

/* The real calls. Returns: (transfer none). */
const MatFileIO *_mat_file_get_system_io (void);
/* Replaces the calls of every later save; %NULL restores the real ones.
 * Not thread-safe: tests set it while no save runs. */
void             _mat_file_set_io        (const MatFileIO *io);

G_END_DECLS
