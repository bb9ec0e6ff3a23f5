/* test-save.c - saving never loses a library, reading never hangs
 *
 * The save routine (mat_file_replace) is driven through its table of
 * system calls: every call a save makes is made to fail in turn (ENOSPC,
 * EIO, a short write followed by a full disk), and after each the
 * original's bytes, mode, link and extended attributes are checked to be
 * exactly as before, with no temporary file left behind. Then the real
 * cases: symbolic and hard links, a folder the user cannot write, another
 * owner, extended attributes, backups, a changed file, a full tmpfs (as
 * root, in a mount namespace of its own), and reading FIFOs, devices and
 * huge files that are not libraries.
 */
#define _GNU_SOURCE 1   /* unshare, CLONE_NEWNS */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "nres.h"
#include "mat-document.h"
#include "mat-file.h"
#include "mat-file-private.h"
#include "mat-library.h"
#include "test-support.h"

#define XATTR_NAME  "user.parkan-test"
#define XATTR_VALUE "kept across saves"
#define NOBODY      65534

static char *base_dir;

/* ---- helpers ---------------------------------------------------------- */

static char *
make_dir (const char *name)
{
  g_autofree char *path = g_build_filename (base_dir, name, NULL);
  g_autofree char *template = g_strconcat (path, "-XXXXXX", NULL);
  char *dir = g_mkdtemp (g_steal_pointer (&template));

  g_assert_nonnull (dir);
  return dir;
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The names in @dir, sorted, comma-separated. */
static char *
list_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);

  return g_strjoinv (",", (char **) names->pdata);
}

static void
write_bytes (const char *path,
             GBytes     *bytes,
             mode_t      mode)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                       &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

static GBytes *
pattern_bytes (gsize  len,
               guint8 seed)
{
  guint8 *data = g_malloc (len);

  for (gsize i = 0; i < len; i++)
    data[i] = (guint8) (seed + i * 7 + (i >> 9));
  return g_bytes_new_take (data, len);
}

static void
assert_file_is (const char *path,
                GBytes     *expected)
{
  g_autoptr(GBytes) bytes = test_load_file (path);

  g_assert_true (g_bytes_equal (bytes, expected));
}

static mode_t
file_mode (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_lstat (path, &st), ==, 0);
  return st.st_mode & 07777;
}

static gboolean
xattrs_supported (const char *path)
{
  if (setxattr (path, XATTR_NAME, XATTR_VALUE, strlen (XATTR_VALUE), 0) == 0)
    return TRUE;
  g_test_message ("no user xattrs on this file system: %s", g_strerror (errno));
  return FALSE;
}

static char *
get_xattr (const char *path)
{
  char value[256];
  gssize len = getxattr (path, XATTR_NAME, value, sizeof value);

  if (len < 0)
    return NULL;
  return g_strndup (value, (gsize) len);
}

static GBytes *
env_file (const char *var)
{
  const char *path = g_getenv (var);

  g_assert_nonnull (path);   /* set by meson test */
  return test_load_file (path);
}

/* ---- the fault-injecting system calls ---------------------------------- */

typedef enum {
  OP_OPEN,
  OP_READ,
  OP_WRITE,
  OP_FSYNC,
  OP_FCHMOD,
  OP_FCHOWN,
  OP_FSETXATTR,
  OP_RENAME,
  OP_CLOSE,
  N_OPS
} Op;

static const char * const op_names[N_OPS] = {
  "open", "read", "write", "fsync", "fchmod", "fchown", "fsetxattr", "rename", "close",
};

typedef enum {
  FAIL_ERRNO,        /* the call fails with fault.error */
  FAIL_SHORT_FULL,   /* a short write, then every write fails with ENOSPC */
  FAIL_SHORT_ONCE,   /* a short write, then writes work again */
  FAIL_CREATE,       /* every open that creates a file fails with fault.error */
} FailMode;

static struct {
  guint     calls[N_OPS];
  int       fail_op;        /* -1: no failure */
  guint     fail_at;        /* the call (0-based) of fail_op that fails */
  FailMode  mode;
  int       error;
  gboolean  fired;
  gboolean  disk_full;
  gboolean  fired_after_commit;
  gboolean  committed;
  char     *target;         /* a rename onto it commits the save */
} fault;

static void
fault_reset (int         op,
             guint       at,
             FailMode    mode,
             int         error,
             const char *target)
{
  memset (fault.calls, 0, sizeof fault.calls);
  fault.fail_op = op;
  fault.fail_at = at;
  fault.mode = mode;
  fault.error = error;
  fault.fired = fault.disk_full = fault.fired_after_commit = fault.committed = FALSE;
  g_free (fault.target);
  fault.target = g_strdup (target);
}

/* Whether this call fails; counts it either way. */
static gboolean
fault_here (Op op)
{
  guint n = fault.calls[op]++;

  if ((int) op != fault.fail_op || n != fault.fail_at || fault.fired)
    return FALSE;
  fault.fired = TRUE;
  fault.fired_after_commit = fault.committed;
  return TRUE;
}

static const MatFileIO *
sys (void)
{
  return _mat_file_get_system_io ();
}

static int
t_open (const char *path, int flags, mode_t mode)
{
  if (fault.mode == FAIL_CREATE && (flags & O_CREAT))
    {
      fault.calls[OP_OPEN]++;
      fault.fired = TRUE;
      errno = fault.error;
      return -1;
    }
  if (fault_here (OP_OPEN))
    {
      errno = fault.error;
      return -1;
    }
  return sys ()->open (path, flags, mode);
}

static ssize_t
t_read (int fd, void *buf, size_t count)
{
  if (fault_here (OP_READ))
    {
      errno = fault.error;
      return -1;
    }
  return sys ()->read (fd, buf, count);
}

/* Called at the first write of a save, before it is made. */
static void (*first_write_hook) (int fd);

static ssize_t
t_write (int fd, const void *buf, size_t count)
{
  if (first_write_hook != NULL)
    {
      void (*hook) (int fd) = first_write_hook;

      first_write_hook = NULL;
      hook (fd);
    }
  if (fault.disk_full)
    {
      fault.calls[OP_WRITE]++;
      errno = ENOSPC;
      return -1;
    }
  if (fault_here (OP_WRITE))
    {
      if (fault.mode == FAIL_ERRNO)
        {
          errno = fault.error;
          return -1;
        }
      if (fault.mode == FAIL_SHORT_FULL)
        fault.disk_full = TRUE;
      /* a short write: part of what was asked */
      return sys ()->write (fd, buf, MAX (count / 3, 1));
    }
  return sys ()->write (fd, buf, count);
}

static int
t_fsync (int fd)
{
  if (fault_here (OP_FSYNC))
    {
      errno = fault.error;
      return -1;
    }
  return sys ()->fsync (fd);
}

static int
t_fchmod (int fd, mode_t mode)
{
  if (fault_here (OP_FCHMOD))
    {
      errno = fault.error;
      return -1;
    }
  return sys ()->fchmod (fd, mode);
}

static int
t_fchown (int fd, uid_t owner, gid_t group)
{
  if (fault_here (OP_FCHOWN))
    {
      errno = fault.error;
      return -1;
    }
  return sys ()->fchown (fd, owner, group);
}

static int
t_fsetxattr (int fd, const char *name, const void *value, size_t size, int flags)
{
  if (fault_here (OP_FSETXATTR))
    {
      errno = fault.error;
      return -1;
    }
  return sys ()->fsetxattr (fd, name, value, size, flags);
}

static int
t_rename (const char *from, const char *to)
{
  int result;

  if (fault_here (OP_RENAME))
    {
      errno = fault.error;
      return -1;
    }
  result = sys ()->rename (from, to);
  if (result == 0 && fault.target != NULL && g_str_equal (to, fault.target))
    fault.committed = TRUE;
  return result;
}

static int
t_close (int fd)
{
  if (fault_here (OP_CLOSE))
    {
      /* Linux closes the descriptor even when close reports an error. */
      sys ()->close (fd);
      errno = fault.error;
      return -1;
    }
  return sys ()->close (fd);
}

static const MatFileIO fault_io = {
  t_open, t_read, t_write, t_fsync, t_fchmod, t_fchown, t_fsetxattr, t_rename, t_close,
};

/* ---- the fault matrix ------------------------------------------------- */

typedef struct {
  char     *dir;
  char     *real;        /* the library */
  char     *link;        /* a symbolic link to it: the path saved to */
  char     *backup;      /* real.lib.bak */
  GBytes   *original;
  GBytes   *old_backup;
  GBytes   *contents;    /* what the save writes */
  gboolean  xattrs;
  char     *listing;     /* the folder before the save */
} Scene;

static void
scene_clear (Scene *scene)
{
  if (scene->dir != NULL)
    remove_tree (scene->dir);
  g_free (scene->dir);
  g_free (scene->real);
  g_free (scene->link);
  g_free (scene->backup);
  g_clear_pointer (&scene->original, g_bytes_unref);
  g_clear_pointer (&scene->old_backup, g_bytes_unref);
  g_clear_pointer (&scene->contents, g_bytes_unref);
  g_free (scene->listing);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Scene, scene_clear)

/* A library of 1.5 MiB (two write calls of the routine's 1 MiB pieces),
 * mode 0640, an extended attribute, a symbolic link to it and an older
 * backup; the save writes 1.2 MiB of other bytes through the link. */
static void
scene_init (Scene *scene)
{
  scene->dir = make_dir ("faults");
  scene->real = g_build_filename (scene->dir, "real.lib", NULL);
  scene->link = g_build_filename (scene->dir, "link.lib", NULL);
  scene->backup = g_strconcat (scene->real, ".bak", NULL);
  scene->original = pattern_bytes (1536 * 1024, 1);
  scene->old_backup = pattern_bytes (1000, 2);
  scene->contents = pattern_bytes (1229 * 1024, 3);

  write_bytes (scene->real, scene->original, 0640);
  write_bytes (scene->backup, scene->old_backup, 0600);
  g_assert_cmpint (symlink ("real.lib", scene->link), ==, 0);
  scene->xattrs = xattrs_supported (scene->real);
  scene->listing = list_dir (scene->dir);
}

/* The original as it was: bytes, mode, inode kind, link, attribute; the
 * backup either untouched or a true copy of the original; nothing else
 * in the folder. */
static void
scene_assert_untouched (Scene *scene)
{
  g_autofree char *listing = list_dir (scene->dir);
  g_autofree char *link = g_file_read_link (scene->link, NULL);
  g_autoptr(GBytes) backup = test_load_file (scene->backup);

  g_assert_cmpstr (listing, ==, scene->listing);
  g_assert_cmpstr (link, ==, "real.lib");
  assert_file_is (scene->real, scene->original);
  g_assert_cmpuint (file_mode (scene->real), ==, 0640);
  if (scene->xattrs)
    {
      g_autofree char *value = get_xattr (scene->real);

      g_assert_cmpstr (value, ==, XATTR_VALUE);
    }
  if (!g_bytes_equal (backup, scene->old_backup))
    {
      g_assert_true (g_bytes_equal (backup, scene->original));
      g_assert_cmpuint (file_mode (scene->backup), ==, 0640);
    }
}

static void
scene_assert_saved (Scene *scene)
{
  g_autofree char *listing = list_dir (scene->dir);
  g_autofree char *link = g_file_read_link (scene->link, NULL);

  g_assert_cmpstr (listing, ==, scene->listing);
  g_assert_cmpstr (link, ==, "real.lib");
  assert_file_is (scene->real, scene->contents);
  g_assert_cmpuint (file_mode (scene->real), ==, 0640);
  if (scene->xattrs)
    {
      g_autofree char *value = get_xattr (scene->real);

      g_assert_cmpstr (value, ==, XATTR_VALUE);
    }
}

static gboolean
scene_save (Scene        *scene,
            MatSaveFlags  flags,
            GError      **error)
{
  g_autofree char *etag = mat_file_query_etag (scene->link, NULL);
  gboolean ok;

  g_assert_nonnull (etag);
  _mat_file_set_io (&fault_io);
  ok = mat_file_replace (scene->link, scene->contents, etag, flags, NULL, NULL, NULL, error);
  _mat_file_set_io (NULL);
  return ok;
}

static guint
run_fault_matrix (MatSaveFlags flags)
{
  guint counted[N_OPS];
  guint points = 0, failed = 0, after_commit = 0;
  static const int errors[] = { ENOSPC, EIO };

  /* A save that works, counting its calls. */
  {
    g_auto(Scene) scene = { 0 };
    g_autoptr(GError) error = NULL;
    g_autofree char *real = NULL;

    scene_init (&scene);
    real = g_strdup (scene.real);
    fault_reset (-1, 0, FAIL_ERRNO, 0, real);
    g_assert_true (scene_save (&scene, flags, &error));
    g_assert_no_error (error);
    scene_assert_saved (&scene);
    if (flags & MAT_SAVE_BACKUP)
      {
        assert_file_is (scene.backup, scene.original);
        g_assert_cmpuint (file_mode (scene.backup), ==, 0640);
      }
    memcpy (counted, fault.calls, sizeof counted);
    for (guint op = 0; op < N_OPS; op++)
      g_test_message ("a save%s makes %u %s calls",
                      (flags & MAT_SAVE_BACKUP) ? " with a backup" : "", counted[op], op_names[op]);
    g_assert_cmpuint (counted[OP_WRITE], >=, 2);
    g_assert_cmpuint (counted[OP_FSYNC], >=, 1);
    g_assert_cmpuint (counted[OP_FCHMOD], >=, 1);
    g_assert_cmpuint (counted[OP_RENAME], >=, 1);
    if (scene.xattrs)
      g_assert_cmpuint (counted[OP_FSETXATTR], >=, 1);
  }

  /* Then each call fails in turn. */
  for (guint op = 0; op < N_OPS; op++)
    for (guint at = 0; at < counted[op]; at++)
      for (guint e = 0; e < G_N_ELEMENTS (errors) + (op == OP_WRITE ? 1 : 0); e++)
        {
          g_auto(Scene) scene = { 0 };
          g_autoptr(GError) error = NULL;
          gboolean short_write = e == G_N_ELEMENTS (errors);
          gboolean ok;

          scene_init (&scene);
          fault_reset ((int) op, at, short_write ? FAIL_SHORT_FULL : FAIL_ERRNO,
                       short_write ? ENOSPC : errors[e], scene.real);
          ok = scene_save (&scene, flags, &error);
          g_assert_true (fault.fired);
          points++;

          if (fault.fired_after_commit)
            {
              /* Syncing the folder after the rename: the new file is in
               * place, so the save stands. */
              g_assert_true (ok);
              g_assert_no_error (error);
              scene_assert_saved (&scene);
              after_commit++;
              continue;
            }

          if (!ok)
            {
              g_assert_nonnull (error);
              g_assert_true (error->domain == G_IO_ERROR);
              failed++;
              scene_assert_untouched (&scene);
            }
          else
            {
              /* Only a failure that does not matter may pass: none of
               * ENOSPC or EIO does before the commit. */
              g_test_message ("%s call %u (%s) did not fail the save", op_names[op], at,
                              g_strerror (fault.error));
              g_assert_not_reached ();
            }
        }

  g_test_message ("%u failure points%s: %u failed the save and left the original as it was, "
                  "%u came after the rename and kept the new file",
                  points, (flags & MAT_SAVE_BACKUP) ? " (with a backup)" : "", failed, after_commit);
  g_assert_cmpuint (failed, >, 0);
  return points;
}

static void
test_fault_matrix (void)
{
  guint points = run_fault_matrix (MAT_SAVE_NONE);

  g_assert_cmpuint (points, >=, 20);
}

static void
test_fault_matrix_backup (void)
{
  guint points = run_fault_matrix (MAT_SAVE_BACKUP);

  g_assert_cmpuint (points, >=, 30);
}

/* A short write is not an error: the rest is written. */
static void
test_short_write_continues (void)
{
  g_auto(Scene) scene = { 0 };
  g_autoptr(GError) error = NULL;

  scene_init (&scene);
  fault_reset (OP_WRITE, 0, FAIL_SHORT_ONCE, 0, scene.real);
  g_assert_true (scene_save (&scene, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  g_assert_true (fault.fired);
  g_assert_cmpuint (fault.calls[OP_WRITE], >=, 2);
  scene_assert_saved (&scene);
}

/* fchown refused (not permitted): the owner stays ours, the save goes on. */
static void
test_owner_not_permitted (void)
{
  g_auto(Scene) scene = { 0 };
  g_autoptr(GError) error = NULL;

  scene_init (&scene);
  fault_reset (OP_FCHOWN, 0, FAIL_ERRNO, EPERM, scene.real);
  g_assert_true (scene_save (&scene, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  g_assert_true (fault.fired);
  scene_assert_saved (&scene);
}

/* A folder the user cannot write, through the hook (root writes every
 * folder): a clear error that names it, the original untouched. */
static void
test_read_only_folder_hook (void)
{
  g_auto(Scene) scene = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *expected = NULL;

  scene_init (&scene);
  fault_reset (-1, 0, FAIL_CREATE, EACCES, scene.real);
  g_assert_false (scene_save (&scene, MAT_SAVE_BACKUP, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  shown = g_filename_display_name (scene.dir);
  expected = g_strdup_printf ("Cannot write in the folder “%s”: %s", shown, g_strerror (EACCES));
  g_assert_cmpstr (error->message, ==, expected);
  scene_assert_untouched (&scene);
}

/* ---- real cases --------------------------------------------------------- */

static void
test_new_file (void)
{
  g_autofree char *dir = make_dir ("new");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autoptr(GBytes) contents = pattern_bytes (5000, 4);
  g_autoptr(GError) error = NULL;
  g_autofree char *etag = NULL;
  g_autofree char *queried = NULL;
  g_autofree char *listing = NULL;
  mode_t mask = umask (022);

  umask (mask);
  g_assert_true (mat_file_replace (path, contents, NULL, MAT_SAVE_BACKUP, &etag, NULL, NULL, &error));
  g_assert_no_error (error);
  assert_file_is (path, contents);
  /* a new file: 0666 less the umask, as any program makes it */
  g_assert_cmpuint (file_mode (path), ==, 0666 & ~mask);
  queried = mat_file_query_etag (path, NULL);
  g_assert_cmpstr (etag, ==, queried);
  /* no backup of a file that did not exist */
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "Material.lib");
  remove_tree (dir);
}

static void
test_symlink (void)
{
  g_autofree char *dir = make_dir ("symlink");
  g_autofree char *sub = g_build_filename (dir, "data", NULL);
  g_autofree char *real = g_build_filename (sub, "Material.lib", NULL);
  g_autofree char *hop = g_build_filename (dir, "hop.lib", NULL);
  g_autofree char *link = g_build_filename (dir, "link.lib", NULL);
  g_autoptr(GBytes) original = pattern_bytes (4000, 5);
  g_autoptr(GBytes) contents = pattern_bytes (3000, 6);
  g_autoptr(GError) error = NULL;
  g_autofree char *target = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *sub_listing = NULL;
  GStatBuf st;

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  write_bytes (real, original, 0604);
  /* two links: relative, then absolute */
  g_assert_cmpint (symlink ("data/Material.lib", hop), ==, 0);
  g_assert_cmpint (symlink (hop, link), ==, 0);

  g_assert_true (mat_file_replace (link, contents, NULL, MAT_SAVE_BACKUP, NULL, NULL, NULL, &error));
  g_assert_no_error (error);

  /* the links stay links, pointing where they did */
  g_assert_cmpint (g_lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  target = g_file_read_link (link, NULL);
  g_assert_cmpstr (target, ==, hop);
  g_clear_pointer (&target, g_free);
  target = g_file_read_link (hop, NULL);
  g_assert_cmpstr (target, ==, "data/Material.lib");
  /* the file they point at holds the new bytes, with its mode */
  assert_file_is (real, contents);
  assert_file_is (link, contents);
  g_assert_cmpuint (file_mode (real), ==, 0604);
  /* the backup is beside the file replaced, named after it, same mode */
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "data,hop.lib,link.lib");
  sub_listing = list_dir (sub);
  g_assert_cmpstr (sub_listing, ==, "Material.lib,Material.lib.bak");
  {
    g_autofree char *backup = g_build_filename (sub, "Material.lib.bak", NULL);

    assert_file_is (backup, original);
    g_assert_cmpuint (file_mode (backup), ==, 0604);
  }
  remove_tree (dir);
}

static void
test_hard_link (void)
{
  g_autofree char *dir = make_dir ("hardlink");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autofree char *other = g_build_filename (dir, "Other.lib", NULL);
  g_autoptr(GBytes) original = pattern_bytes (4000, 7);
  g_autoptr(GBytes) contents = pattern_bytes (4100, 8);
  g_autoptr(GBytes) again = pattern_bytes (4200, 9);
  g_autoptr(GError) error = NULL;
  MatSaveNotes notes = MAT_SAVE_NOTE_NONE;
  GStatBuf st;

  write_bytes (path, original, 0644);
  g_assert_cmpint (link (path, other), ==, 0);

  g_assert_true (mat_file_replace (path, contents, NULL, MAT_SAVE_NONE, NULL, &notes, NULL, &error));
  g_assert_no_error (error);
  /* replaced atomically: the other name keeps the old content */
  assert_file_is (path, contents);
  assert_file_is (other, original);
  g_assert_cmpuint (notes, ==, MAT_SAVE_NOTE_LINKS_DETACHED);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpuint (st.st_nlink, ==, 1);

  /* said once: the file has no other name now */
  g_assert_true (mat_file_replace (path, again, NULL, MAT_SAVE_NONE, NULL, &notes, NULL, &error));
  g_assert_cmpuint (notes, ==, MAT_SAVE_NOTE_NONE);
  assert_file_is (other, original);
  remove_tree (dir);
}

static void
test_xattrs_and_mode (void)
{
  g_autofree char *dir = make_dir ("xattr");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autoptr(GBytes) original = pattern_bytes (4000, 10);
  g_autoptr(GBytes) contents = pattern_bytes (4000, 11);
  g_autoptr(GError) error = NULL;
  g_autofree char *value = NULL;

  write_bytes (path, original, 0461);
  if (!xattrs_supported (path))
    {
      remove_tree (dir);
      g_test_skip ("the test folder's file system has no user extended attributes");
      return;
    }
  g_assert_true (mat_file_replace (path, contents, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  assert_file_is (path, contents);
  g_assert_cmpuint (file_mode (path), ==, 0461);
  value = get_xattr (path);
  g_assert_cmpstr (value, ==, XATTR_VALUE);
  remove_tree (dir);
}

static void
test_backup_one_per_save (void)
{
  g_autofree char *dir = make_dir ("backup");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autofree char *backup = g_build_filename (dir, "Material.lib.bak", NULL);
  g_autoptr(GBytes) v1 = pattern_bytes (3000, 12);
  g_autoptr(GBytes) v2 = pattern_bytes (3100, 13);
  g_autoptr(GBytes) v3 = pattern_bytes (3200, 14);
  g_autoptr(GError) error = NULL;
  g_autofree char *listing = NULL;

  write_bytes (path, v1, 0640);
  g_assert_true (mat_file_replace (path, v2, NULL, MAT_SAVE_BACKUP, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  assert_file_is (backup, v1);
  g_assert_cmpuint (file_mode (backup), ==, 0640);

  /* the next save keeps the version before it: still one backup */
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  g_assert_true (mat_file_replace (path, v3, NULL, MAT_SAVE_BACKUP, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  assert_file_is (path, v3);
  assert_file_is (backup, v2);
  g_assert_cmpuint (file_mode (backup), ==, 0600);
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "Material.lib,Material.lib.bak");
  remove_tree (dir);
}

static void
test_changed_on_disk (void)
{
  g_autofree char *dir = make_dir ("etag");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autoptr(GBytes) original = pattern_bytes (3000, 15);
  g_autoptr(GBytes) theirs = pattern_bytes (3000, 16);
  g_autoptr(GBytes) ours = pattern_bytes (3000, 17);
  g_autoptr(GError) error = NULL;
  g_autofree char *etag = NULL;
  g_autofree char *new_etag = NULL;
  g_autofree char *listing = NULL;

  write_bytes (path, original, 0644);
  etag = mat_file_query_etag (path, NULL);
  /* another program writes the file in place, same size */
  g_usleep (20 * 1000);
  write_bytes (path, theirs, 0644);

  g_assert_false (mat_file_replace (path, ours, etag, MAT_SAVE_BACKUP, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);
  assert_file_is (path, theirs);
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "Material.lib");
  g_clear_error (&error);

  /* "Overwrite": one save that ignores the change */
  g_assert_true (mat_file_replace (path, ours, etag, MAT_SAVE_IGNORE_CHANGES, &new_etag, NULL,
                                   NULL, &error));
  g_assert_no_error (error);
  assert_file_is (path, ours);

  /* the new ETag lets the next save through; a deleted file is written again */
  g_assert_true (mat_file_replace (path, original, new_etag, MAT_SAVE_NONE, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_true (mat_file_replace (path, ours, new_etag, MAT_SAVE_NONE, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  assert_file_is (path, ours);
  remove_tree (dir);
}

static void
test_not_a_regular_target (void)
{
  g_autofree char *dir = make_dir ("target");
  g_autofree char *fifo = g_build_filename (dir, "pipe.lib", NULL);
  g_autofree char *folder = g_build_filename (dir, "folder.lib", NULL);
  g_autoptr(GBytes) contents = pattern_bytes (100, 18);
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  g_assert_false (mat_file_replace (fifo, contents, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_clear_error (&error);
  g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  g_assert_false (mat_file_replace (folder, contents, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  remove_tree (dir);
}

/* Runs @func in a child process as the user nobody; returns its status. */
static int
run_as_nobody (void (*func) (gpointer), gpointer data)
{
  pid_t pid = fork ();
  int status = 0;

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      if (getuid () == 0 && (setgroups (0, NULL) != 0 || setgid (NOBODY) != 0 || setuid (NOBODY) != 0))
        _exit (90);
      func (data);
      _exit (0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static void
child_reach (gpointer data)
{
  _exit (access (data, X_OK) == 0 ? 0 : 1);
}

/* Whether the user nobody can go into @dir (as root; another user is
 * nobody's equal: whatever it can reach, the test can). */
static gboolean
reachable_by_nobody (const char *dir)
{
  if (getuid () != 0)
    return TRUE;
  return run_as_nobody (child_reach, (gpointer) dir) == 0;
}

typedef struct {
  const char *path;
  GBytes     *contents;
} ChildSave;

static void
child_save_read_only (gpointer data)
{
  ChildSave *save = data;
  GError *error = NULL;
  g_autofree char *dir = g_path_get_dirname (save->path);
  g_autofree char *shown = g_filename_display_name (dir);

  if (mat_file_replace (save->path, save->contents, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, &error))
    _exit (1);
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    _exit (2);
  if (strstr (error->message, shown) == NULL)
    _exit (3);
  _exit (0);
}

static void
test_read_only_folder_real (void)
{
  g_autofree char *dir = make_dir ("readonly");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autoptr(GBytes) original = pattern_bytes (3000, 19);
  g_autoptr(GBytes) contents = pattern_bytes (3000, 20);
  ChildSave save = { path, contents };
  g_autofree char *listing = NULL;

  /* the file itself may be written: the folder may not */
  write_bytes (path, original, 0666);
  if (getuid () == 0)
    g_assert_cmpint (g_chmod (dir, 0755), ==, 0);   /* root's, not nobody's */
  else
    g_assert_cmpint (g_chmod (dir, 0555), ==, 0);
  g_assert_cmpint (g_chmod (base_dir, 0755), ==, 0);
  /* nobody must get to the folder to be refused in it */
  g_assert_true (reachable_by_nobody (dir));

  g_assert_cmpint (run_as_nobody (child_save_read_only, &save), ==, 0);
  g_chmod (dir, 0755);
  assert_file_is (path, original);
  g_assert_cmpuint (file_mode (path), ==, 0666);
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "Material.lib");
  remove_tree (dir);
}

static void
child_save_other_owner (gpointer data)
{
  ChildSave *save = data;
  GError *error = NULL;

  _exit (mat_file_replace (save->path, save->contents, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, &error)
         ? 0 : 1);
}

/* A file of another user: replaced atomically, its mode kept, its owner
 * kept where permitted (root), else ours. */
static void
test_other_owner (void)
{
  g_autofree char *dir = make_dir ("owner");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autoptr(GBytes) original = pattern_bytes (3000, 21);
  g_autoptr(GBytes) contents = pattern_bytes (3000, 22);
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  write_bytes (path, original, 0664);
  if (getuid () == 0)
    {
      /* root saves a file of nobody's: it stays nobody's */
      g_assert_cmpint (chown (path, NOBODY, NOBODY), ==, 0);
      g_assert_true (mat_file_replace (path, contents, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpuint (st.st_uid, ==, NOBODY);
      g_assert_cmpuint (st.st_gid, ==, NOBODY);
      g_assert_cmpuint (st.st_mode & 07777, ==, 0664);
      assert_file_is (path, contents);

      /* nobody saves root's file in a folder it may write: the new file is
       * nobody's (chown is not permitted), the mode is kept */
      {
        g_autoptr(GBytes) third = pattern_bytes (2000, 23);
        ChildSave save = { path, third };

        g_assert_cmpint (chown (path, 0, 0), ==, 0);
        g_assert_cmpint (g_chmod (dir, 0777), ==, 0);
        g_assert_cmpint (g_chmod (base_dir, 0755), ==, 0);
        g_assert_true (reachable_by_nobody (dir));
        g_assert_cmpint (run_as_nobody (child_save_other_owner, &save), ==, 0);
        assert_file_is (path, third);
        g_assert_cmpint (g_stat (path, &st), ==, 0);
        g_assert_cmpuint (st.st_uid, ==, NOBODY);
        g_assert_cmpuint (st.st_mode & 07777, ==, 0664);
      }
    }
  else
    {
      /* without root there is no other user's file to make: our own, with
       * a group we belong to, is kept as it is */
      g_assert_true (mat_file_replace (path, contents, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpuint (st.st_uid, ==, getuid ());
      g_assert_cmpuint (st.st_mode & 07777, ==, 0664);
    }
  remove_tree (dir);
}

/* A real full disk: a tmpfs of 320 KiB in a mount namespace of its own.
 * Needs root (CI runs as root). */
static void
test_full_tmpfs (void)
{
  g_autoptr(GBytes) retail = env_file ("RETAIL_LIB");
  g_autofree char *mount_dir = NULL;
  pid_t pid;
  int status = 0;

  if (getuid () != 0)
    {
      g_test_skip ("mounting a small tmpfs needs root (CI runs as root)");
      return;
    }

  mount_dir = make_dir ("tmpfs");
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      g_autofree char *path = g_build_filename (mount_dir, "Material.lib", NULL);
      g_autofree char *filler = g_build_filename (mount_dir, "filler", NULL);
      g_autoptr(GBytes) ours = pattern_bytes (g_bytes_get_size (retail), 24);
      g_autoptr(GBytes) on_disk = NULL;
      g_autofree char *listing = NULL;
      GError *error = NULL;
      char *contents = NULL;
      gsize len = 0;
      int fd;

      if (unshare (CLONE_NEWNS) != 0)
        _exit (10);
      if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        _exit (11);
      if (mount ("tmpfs", mount_dir, "tmpfs", 0, "size=320k") != 0)
        _exit (12);
      if (!g_file_set_contents (path, g_bytes_get_data (retail, NULL),
                                (gssize) g_bytes_get_size (retail), NULL))
        _exit (13);
      chmod (path, 0640);

      /* 211,248 bytes on a 320 KiB disk: no room for a second copy */
      if (mat_file_replace (path, ours, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, &error))
        _exit (20);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE))
        _exit (21);
      g_clear_error (&error);
      if (!g_file_get_contents (path, &contents, &len, NULL))
        _exit (22);
      on_disk = g_bytes_new_take (contents, len);
      if (!g_bytes_equal (on_disk, retail) || file_mode (path) != 0640)
        _exit (23);
      listing = list_dir (mount_dir);
      if (!g_str_equal (listing, "Material.lib"))
        _exit (24);

      /* no room at all */
      fd = open (filler, O_WRONLY | O_CREAT, 0644);
      if (fd < 0)
        _exit (30);
      {
        static const char block[4096];

        while (write (fd, block, sizeof block) > 0)
          ;
      }
      close (fd);
      if (mat_file_replace (path, ours, NULL, MAT_SAVE_BACKUP, NULL, NULL, NULL, &error))
        _exit (31);
      g_clear_error (&error);
      g_clear_pointer (&on_disk, g_bytes_unref);
      if (!g_file_get_contents (path, &contents, &len, NULL))
        _exit (32);
      on_disk = g_bytes_new_take (contents, len);
      if (!g_bytes_equal (on_disk, retail))
        _exit (33);
      g_free (listing);
      listing = list_dir (mount_dir);
      if (!g_str_equal (listing, "Material.lib,filler"))
        _exit (34);
      umount (mount_dir);
      _exit (0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  remove_tree (mount_dir);
  if (WEXITSTATUS (status) >= 10 && WEXITSTATUS (status) <= 12)
    {
      /* root without CAP_SYS_ADMIN (a locked-down container) */
      g_test_skip_printf ("no mount namespace with a tmpfs here (step %d failed)",
                          WEXITSTATUS (status));
      return;
    }
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

/* ---- reading ------------------------------------------------------------ */

static void
assert_quick_refusal (const char *path,
                      gint        code,
                      const char *summary_prefix)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;
  gint64 start = g_get_monotonic_time ();
  g_autoptr(GBytes) bytes = mat_file_read_library (path, NULL, &summary, NULL, &error);

  g_assert_null (bytes);
  g_assert_nonnull (error);
  g_test_message ("%s: %s / %s", path, summary, error->message);
  if (code >= 0)
    g_assert_cmpint (error->code, ==, code);
  g_assert_true (g_str_has_prefix (summary, summary_prefix));
  /* at once: no waiting on a FIFO, no reading of gigabytes */
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
}

static void
test_read_refuses_at_once (void)
{
  g_autofree char *dir = make_dir ("read");
  g_autofree char *fifo = g_build_filename (dir, "pipe.lib", NULL);
  g_autofree char *big = g_build_filename (dir, "big.lib", NULL);
  g_autofree char *huge_header = g_build_filename (dir, "huge.lib", NULL);
  guint8 header[16] = { 'N', 'R', 'e', 's', 0x00, 0x01, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
  guint8 entry[64] = { 0 };
  int fd;

  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  assert_quick_refusal (fifo, G_IO_ERROR_NOT_REGULAR_FILE, "This is not a library file.");
  assert_quick_refusal ("/dev/zero", G_IO_ERROR_NOT_REGULAR_FILE, "This is not a library file.");
  assert_quick_refusal (dir, G_IO_ERROR_IS_DIRECTORY, "This is not a library file.");

  /* 4 GiB of zeros (sparse): the header says no */
  fd = g_open (big, O_WRONLY | O_CREAT, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, G_GINT64_CONSTANT (4) << 30), ==, 0);
  close (fd);
  assert_quick_refusal (big, NRES_ERROR_BAD_MAGIC, "This is not a material library");

  /* a file of 4 GiB - 1 bytes whose header fits: the directory at its end
   * points past the data, found before any payload is read */
  fd = g_open (huge_header, O_WRONLY | O_CREAT, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, G_GINT64_CONSTANT (0xffffffff)), ==, 0);
  g_assert_cmpint (pwrite (fd, header, sizeof header, 0), ==, sizeof header);
  memcpy (entry + 20, "HUGE", 4);
  entry[56] = 0xf0; entry[57] = 0xff; entry[58] = 0xff; entry[59] = 0xff;   /* data offset */
  entry[12] = 0x40;                                                           /* size */
  g_assert_cmpint (pwrite (fd, entry, sizeof entry, 0xffffffff - 64), ==, sizeof entry);
  close (fd);
  assert_quick_refusal (huge_header, NRES_ERROR_BAD_ENTRY, "An entry of the library points outside");

  remove_tree (dir);
}

static void
test_read_cut_short (void)
{
  g_autoptr(GBytes) demo = env_file ("DEMO_LIB");
  g_autofree char *dir = make_dir ("short");
  g_autofree char *path = g_build_filename (dir, "short.lib", NULL);
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (demo, 0, 1900);
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *etag = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize size = g_bytes_get_size (demo);
  g_autofree char *expected_summary = NULL;
  g_autofree char *expected_detail = NULL;

  /* the demo is larger than 1,900 bytes and smaller than a million */
  g_assert_cmpuint (size, >, 1900);
  g_assert_cmpuint (size, <, 1000000);
  expected_summary = g_strdup_printf ("The file is cut short: 1,900 of %" G_GSIZE_FORMAT ",%03" G_GSIZE_FORMAT " bytes.",
                                      size / 1000, size % 1000);
  expected_detail = g_strdup_printf ("(header): offset 12: expected total size 1900 (the file size), found %" G_GSIZE_FORMAT,
                                     size);
  write_bytes (path, cut, 0644);
  bytes = mat_file_read_library (path, NULL, &summary, NULL, &error);
  g_assert_null (bytes);
  g_assert_error (error, NRES_ERROR, NRES_ERROR_BAD_SIZE);
  g_assert_cmpstr (summary, ==, expected_summary);
  g_assert_cmpstr (error->message, ==, expected_detail);

  /* the whole file reads back as it is, with its ETag */
  write_bytes (path, demo, 0644);
  g_clear_error (&error);
  bytes = mat_file_read_library (path, &etag, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (bytes, demo));
  g_assert_nonnull (etag);
  remove_tree (dir);
}

/* The checks made before the payloads are read say what the full parse
 * says, for every cut of the demo library and for damaged directories. */
static void
test_checks_agree_with_parse (void)
{
  g_autoptr(GBytes) demo = env_file ("DEMO_LIB");
  gsize size = g_bytes_get_size (demo);
  const guint8 *data = g_bytes_get_data (demo, NULL);
  guint checked = 0;

  for (guint variant = 0; variant < 4; variant++)
    for (gsize len = 0; len <= size; len += (variant == 0 ? 1 : size))
      {
        g_autofree guint8 *copy = g_memdup2 (data, size);
        g_autoptr(GBytes) bytes = NULL;
        g_autoptr(NresArchive) archive = NULL;
        g_autoptr(GError) parse_error = NULL;
        g_autoptr(GError) check_error = NULL;
        guint32 n = 0, offset = 0;
        gboolean ok;

        if (variant == 1)
          copy[size - 64 + 56] = 0xff;            /* last entry: data offset */
        else if (variant == 2)
          memset (copy + size - 64 + 20, 'A', 36); /* last entry: name without NUL */
        else if (variant == 3)
          copy[8] = 0x7f;                          /* entry count */
        bytes = g_bytes_new (copy, len);
        archive = nres_archive_parse (bytes, &parse_error);

        ok = nres_check_header (copy, MIN (len, 16), len, &n, &offset, &check_error);
        if (ok)
          ok = nres_check_directory (copy + offset, n, offset, &check_error);
        g_assert_true (ok == (archive != NULL));
        if (!ok)
          {
            g_assert_cmpint (check_error->code, ==, parse_error->code);
            g_assert_cmpstr (check_error->message, ==, parse_error->message);
          }
        checked++;
      }
  g_test_message ("%u files checked both ways", checked);
}

static void
test_format_count (void)
{
  const struct { guint64 value; const char *text; } cases[] = {
    { 0, "0" }, { 999, "999" }, { 1000, "1,000" }, { 211248, "211,248" },
    { 4294967296, "4,294,967,296" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = mat_file_format_count (cases[i].value);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* ---- the library and the document --------------------------------------- */

static void
async_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static gboolean
document_save (MatDocument   *document,
               GFile         *file,
               MatSaveFlags   flags,
               MatSaveNotes  *notes,
               GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mat_document_save_async (document, file, flags, NULL, async_cb, &result);
  return mat_document_save_finish (document, wait_for (&result), notes, error);
}

static gboolean
document_load (MatDocument  *document,
               GFile        *file,
               GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mat_document_load_async (document, file, NULL, async_cb, &result);
  return mat_document_load_finish (document, wait_for (&result), error);
}

static void
edit_first (MatLibrary *library)
{
  MatMaterial *m = mat_library_get_material (library, 0);
  g_autoptr(GError) error = NULL;

  g_assert_true (mat_material_set_attr3 (m, mat_material_get_attr3 (m) + 1, &error));
  g_assert_no_error (error);
}

/* A save that fails keeps everything: edits, unsaved state, file, ETag. */
static void
test_document_failed_save (void)
{
  g_autoptr(GBytes) demo = env_file ("DEMO_LIB");
  g_autofree char *dir = make_dir ("document");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(MatDocument) document = mat_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autofree char *etag = NULL;
  g_autofree char *listing = NULL;
  MatLibrary *library;

  write_bytes (path, demo, 0644);
  g_assert_true (document_load (document, file, &error));
  g_assert_no_error (error);
  library = mat_document_get_library (document);
  etag = g_strdup (mat_document_get_etag (document));
  edit_first (library);
  edited = mat_library_save_to_bytes (library, NULL);

  fault_reset (OP_WRITE, 0, FAIL_ERRNO, ENOSPC, path);
  _mat_file_set_io (&fault_io);
  g_assert_false (document_save (document, NULL, MAT_SAVE_NONE, NULL, &error));
  _mat_file_set_io (NULL);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "The original was left as it was."));
  g_clear_error (&error);

  g_assert_true (mat_library_get_dirty (library));
  g_assert_true (g_file_equal (mat_document_get_file (document), file));
  g_assert_cmpstr (mat_document_get_etag (document), ==, etag);
  g_assert_cmpint (mat_document_get_disk_state (document), ==, MAT_DISK_STATE_SAME);
  assert_file_is (path, demo);
  {
    g_autoptr(GBytes) still = mat_library_save_to_bytes (library, NULL);

    g_assert_true (g_bytes_equal (still, edited));
  }
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "Material.lib");

  /* then it works */
  g_assert_true (document_save (document, NULL, MAT_SAVE_NONE, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (mat_library_get_dirty (library));
  assert_file_is (path, edited);
  g_assert_cmpstr (mat_document_get_etag (document), !=, etag);
  remove_tree (dir);
}

static gboolean
disk_state_is (MatDocument  *document,
               MatDiskState  state)
{
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (mat_document_get_disk_state (document) != state && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);
  return mat_document_get_disk_state (document) == state;
}

/* Another program writes the file: the monitor notices; a plain save is
 * refused, "Overwrite" is one save with the flag. */
static void
test_document_overwrite (void)
{
  g_autoptr(GBytes) demo = env_file ("DEMO_LIB");
  g_autofree char *dir = make_dir ("overwrite");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(MatDocument) document = mat_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) theirs = NULL;
  g_autoptr(GBytes) ours = NULL;
  g_autofree char *listing = NULL;
  GByteArray *array;
  MatLibrary *library;

  write_bytes (path, demo, 0644);
  g_assert_true (document_load (document, file, &error));
  library = mat_document_get_library (document);
  edit_first (library);
  ours = mat_library_save_to_bytes (library, NULL);

  array = g_byte_array_new ();
  g_byte_array_append (array, g_bytes_get_data (demo, NULL), g_bytes_get_size (demo));
  array->data[16] ^= 1;
  theirs = g_byte_array_free_to_bytes (array);
  g_usleep (20 * 1000);
  write_bytes (path, theirs, 0644);
  g_assert_true (disk_state_is (document, MAT_DISK_STATE_CHANGED));

  g_assert_false (document_save (document, NULL, MAT_SAVE_NONE, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);
  g_clear_error (&error);
  assert_file_is (path, theirs);
  g_assert_true (mat_library_get_dirty (library));

  /* Overwrite, failing: nothing changes, the library stays on its file */
  fault_reset (OP_RENAME, 0, FAIL_ERRNO, EIO, path);
  _mat_file_set_io (&fault_io);
  g_assert_false (document_save (document, NULL, MAT_SAVE_IGNORE_CHANGES, NULL, &error));
  _mat_file_set_io (NULL);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_clear_error (&error);
  assert_file_is (path, theirs);
  g_assert_true (mat_library_get_dirty (library));
  g_assert_true (g_file_equal (mat_library_get_file (library), file));
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "Material.lib");

  /* Overwrite: one save, the same file */
  g_assert_true (document_save (document, NULL, MAT_SAVE_IGNORE_CHANGES, NULL, &error));
  g_assert_no_error (error);
  assert_file_is (path, ours);
  g_assert_false (mat_library_get_dirty (library));
  g_assert_true (g_file_equal (mat_library_get_file (library), file));
  g_assert_cmpint (mat_document_get_disk_state (document), ==, MAT_DISK_STATE_SAME);

  /* deleted: noticed */
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_true (disk_state_is (document, MAT_DISK_STATE_DELETED));
  remove_tree (dir);
}

/* A load that fails leaves the document as it was, with a message that
 * first says what is wrong in plain words. */
static void
test_document_load_failure (void)
{
  g_autoptr(GBytes) demo = env_file ("DEMO_LIB");
  g_autofree char *dir = make_dir ("load");
  g_autofree char *good = g_build_filename (dir, "good.lib", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.lib", NULL);
  g_autofree char *fifo = g_build_filename (dir, "pipe.lib", NULL);
  g_autoptr(GFile) good_file = g_file_new_for_path (good);
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad);
  g_autoptr(GFile) fifo_file = g_file_new_for_path (fifo);
  g_autoptr(MatDocument) document = mat_document_new ();
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (demo, 0, 1900);
  g_autoptr(GError) error = NULL;
  MatLibrary *library;

  write_bytes (good, demo, 0644);
  write_bytes (bad, cut, 0644);
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_true (document_load (document, good_file, &error));
  library = mat_document_get_library (document);

  g_assert_false (document_load (document, bad_file, &error));
  g_assert_error (error, NRES_ERROR, NRES_ERROR_BAD_SIZE);
  {
    gsize size = g_bytes_get_size (demo);
    g_autofree char *expected = g_strdup_printf ("The file is cut short: 1,900 of %" G_GSIZE_FORMAT ",%03" G_GSIZE_FORMAT " bytes.\n"
                                                 "(header): offset 12: expected total size 1900 (the file size), found %" G_GSIZE_FORMAT,
                                                 size / 1000, size % 1000, size);

    g_assert_cmpuint (size, >, 1900);
    g_assert_cmpuint (size, <, 1000000);
    g_assert_cmpstr (error->message, ==, expected);
  }
  g_clear_error (&error);
  g_assert_true (mat_document_get_library (document) == library);
  g_assert_true (g_file_equal (mat_document_get_file (document), good_file));

  g_assert_false (document_load (document, fifo_file, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_cmpstr (error->message, ==,
                   "This is not a library file.\nThis is a named pipe (FIFO), not a regular file");
  g_assert_true (mat_document_get_library (document) == library);
  remove_tree (dir);
}

/* The hard-link note reaches the document's caller. */
static void
test_document_links_note (void)
{
  g_autoptr(GBytes) demo = env_file ("DEMO_LIB");
  g_autofree char *dir = make_dir ("links");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autofree char *other = g_build_filename (dir, "Copy.lib", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(MatDocument) document = mat_document_new ();
  g_autoptr(GError) error = NULL;
  MatSaveNotes notes = MAT_SAVE_NOTE_NONE;

  write_bytes (path, demo, 0644);
  g_assert_cmpint (link (path, other), ==, 0);
  g_assert_true (document_load (document, file, &error));
  edit_first (mat_document_get_library (document));
  g_assert_true (document_save (document, NULL, MAT_SAVE_NONE, &notes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (notes, ==, MAT_SAVE_NOTE_LINKS_DETACHED);
  assert_file_is (other, demo);
  edit_first (mat_document_get_library (document));
  g_assert_true (document_save (document, NULL, MAT_SAVE_NONE, &notes, &error));
  g_assert_cmpuint (notes, ==, MAT_SAVE_NOTE_NONE);
  remove_tree (dir);
}

/* ---- another program's change, the temporary file's mode, leftovers ---- */

static char *changer_path;
static GBytes *changer_bytes;

/* Another program rewrites the file in place: same inode, same size, and
 * the modification time put back. */
static void
rewrite_in_place (const char *path,
                  GBytes     *bytes)
{
  GStatBuf before, after;
  struct timespec times[2];
  int fd;

  g_assert_cmpint (g_stat (path, &before), ==, 0);
  g_assert_cmpuint ((guint64) before.st_size, ==, g_bytes_get_size (bytes));
  fd = open (path, O_WRONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), 0), ==,
                   (gssize) g_bytes_get_size (bytes));
  g_assert_cmpint (fsync (fd), ==, 0);
  times[0] = before.st_atim;
  times[1] = before.st_mtim;
  g_assert_cmpint (futimens (fd, times), ==, 0);
  close (fd);
  g_assert_cmpint (g_stat (path, &after), ==, 0);
  g_assert_cmpuint (after.st_ino, ==, before.st_ino);
  g_assert_cmpint (after.st_mtim.tv_sec, ==, before.st_mtim.tv_sec);
  g_assert_cmpint (after.st_mtim.tv_nsec, ==, before.st_mtim.tv_nsec);
}

static void
change_during_save (int fd)
{
  rewrite_in_place (changer_path, changer_bytes);
}

static void
assert_refused_keeping (const char *dir,
                        const char *path,
                        GBytes     *ours,
                        GBytes     *theirs,
                        const char *etag,
                        gboolean    during)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *base = g_path_get_basename (path);

  if (during)
    {
      changer_path = (char *) path;
      changer_bytes = theirs;
      first_write_hook = change_during_save;
      fault_reset (-1, 0, FAIL_ERRNO, 0, path);
      _mat_file_set_io (&fault_io);
    }
  g_assert_false (mat_file_replace (path, ours, etag, MAT_SAVE_BACKUP, NULL, NULL, NULL, &error));
  _mat_file_set_io (NULL);
  g_assert_null (first_write_hook);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);
  assert_file_is (path, theirs);
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, base);
}

/* Same size, same time, other bytes: before the save and during it (the
 * last look before the rename is the only one that can see the second). */
static void
test_changed_same_size_and_time (void)
{
  g_autofree char *dir = make_dir ("same-time");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autoptr(GBytes) original = pattern_bytes (1536 * 1024, 30);
  g_autoptr(GBytes) theirs = pattern_bytes (1536 * 1024, 31);
  g_autoptr(GBytes) ours = pattern_bytes (1536 * 1024, 32);
  g_autoptr(GError) error = NULL;
  g_autofree char *etag = NULL;
  g_autofree char *queried = NULL;

  write_bytes (path, original, 0644);
  etag = mat_file_query_etag (path, NULL);
  rewrite_in_place (path, theirs);
  queried = mat_file_query_etag (path, NULL);
  g_assert_cmpstr (queried, !=, etag);
  assert_refused_keeping (dir, path, ours, theirs, etag, FALSE);

  /* during the save: the original as read when the save starts */
  write_bytes (path, original, 0644);
  g_clear_pointer (&etag, g_free);
  etag = mat_file_query_etag (path, NULL);
  assert_refused_keeping (dir, path, ours, theirs, etag, TRUE);

  /* "Overwrite" writes anyway */
  g_assert_true (mat_file_replace (path, ours, etag, MAT_SAVE_IGNORE_CHANGES, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  assert_file_is (path, ours);
  remove_tree (dir);
}

/* An ETag read with the library is the one the file has, and the one a
 * save returns is the one the saved file has. */
static void
test_etag_digest (void)
{
  g_autoptr(GBytes) demo = env_file ("DEMO_LIB");
  g_autofree char *dir = make_dir ("digest");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *read_etag = NULL;
  g_autofree char *archive_etag = NULL;
  g_autofree char *queried = NULL;
  g_autofree char *saved_etag = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA1);

  write_bytes (path, demo, 0644);
  bytes = mat_file_read_library (path, &read_etag, NULL, NULL, &error);
  g_assert_no_error (error);
  archive = mat_file_read_archive (path, &archive_etag, NULL, NULL, &error);
  g_assert_no_error (error);
  queried = mat_file_query_etag (path, NULL);
  g_assert_cmpstr (read_etag, ==, queried);
  g_assert_cmpstr (archive_etag, ==, queried);
  g_checksum_update (checksum, g_bytes_get_data (demo, NULL), (gssize) g_bytes_get_size (demo));
  g_assert_true (g_str_has_suffix (queried, g_checksum_get_string (checksum)));

  g_assert_true (mat_file_replace (path, demo, queried, MAT_SAVE_NONE, &saved_etag, NULL, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&queried, g_free);
  queried = mat_file_query_etag (path, NULL);
  g_assert_cmpstr (saved_etag, ==, queried);
  remove_tree (dir);
}

static mode_t first_write_mode;

static void
record_mode (int fd)
{
  struct stat st;

  g_assert_cmpint (fstat (fd, &st), ==, 0);
  first_write_mode = st.st_mode & 07777;
}

/* The temporary file is never readable by more users than the original:
 * 0600 (or the original's narrower mode) at the first write, the
 * original's mode at the end; also the backup's. */
static void
test_temp_mode (void)
{
  g_autofree char *dir = make_dir ("temp-mode");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autofree char *backup = g_strconcat (path, ".bak", NULL);
  g_autoptr(GBytes) original = pattern_bytes (3000, 33);
  g_autoptr(GBytes) ours = pattern_bytes (3000, 34);
  const struct { mode_t target, temp; } cases[] = {
    { 0644, 0600 }, { 0666, 0600 }, { 0640, 0600 }, { 0600, 0600 }, { 0400, 0400 }, { 0604, 0600 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (guint with_backup = 0; with_backup < 2; with_backup++)
      {
        g_autoptr(GError) error = NULL;

        write_bytes (path, original, cases[i].target);
        g_unlink (backup);
        first_write_mode = 07777;
        first_write_hook = record_mode;
        fault_reset (-1, 0, FAIL_ERRNO, 0, path);
        _mat_file_set_io (&fault_io);
        g_assert_true (mat_file_replace (path, ours, NULL, with_backup ? MAT_SAVE_BACKUP : MAT_SAVE_NONE,
                                         NULL, NULL, NULL, &error));
        _mat_file_set_io (NULL);
        g_assert_no_error (error);
        g_test_message ("target %04o: temporary file %04o at its first write",
                        cases[i].target, first_write_mode);
        g_assert_cmpuint (first_write_mode, ==, cases[i].temp);
        g_assert_cmpuint (file_mode (path), ==, cases[i].target);
        assert_file_is (path, ours);
        if (with_backup)
          g_assert_cmpuint (file_mode (backup), ==, cases[i].target);
      }
  remove_tree (dir);
}

/* The leftovers of the folder: names of the save's temporary files. */
static guint
count_temporaries (const char *dir)
{
  g_autoptr(GDir) folder = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while ((name = g_dir_read_name (folder)) != NULL)
    if (g_str_has_suffix (name, ".matedit-tmp"))
      n++;
  return n;
}

static int hold_pipe = -1;

static void
die_in_write (int fd)
{
  /* half of the first piece, then killed in the middle of the save */
  static guint8 half[512 * 1024];

  g_assert_cmpint (write (fd, half, sizeof half), ==, sizeof half);
  kill (getpid (), SIGKILL);
}

static void
wait_in_write (int fd)
{
  char c = 'w';

  g_assert_cmpint (write (hold_pipe, &c, 1), ==, 1);
  for (;;)
    pause ();
}

/* Forks a save of @path stopped in its first write by @hook: killed there
 * (die_in_write) or waiting (wait_in_write, its pid returned). */
static pid_t
start_save (const char *path,
            GBytes     *contents,
            void      (*hook) (int fd))
{
  int fds[2];
  pid_t pid;
  char c;

  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      close (fds[0]);
      alarm (60);   /* never outlives a failed test */
      hold_pipe = fds[1];
      first_write_hook = hook;
      fault_reset (-1, 0, FAIL_ERRNO, 0, path);
      _mat_file_set_io (&fault_io);
      mat_file_replace (path, contents, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, NULL);
      _exit (99);
    }
  close (fds[1]);
  if (hook == wait_in_write)
    g_assert_cmpint (read (fds[0], &c, 1), ==, 1);
  else
    {
      int status = 0;

      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      g_assert_true (WIFSIGNALED (status));
      g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);
    }
  close (fds[0]);
  return pid;
}

/* A save killed in the middle leaves its temporary file; the next save in
 * the folder removes it and says so once. A save that still runs keeps
 * its own. */
static void
test_stale_after_kill (void)
{
  g_autofree char *dir = make_dir ("killed");
  g_autofree char *path = g_build_filename (dir, "Material.lib", NULL);
  g_autofree char *other = g_build_filename (dir, "Textures.lib", NULL);
  g_autoptr(GBytes) original = pattern_bytes (1536 * 1024, 35);
  g_autoptr(GBytes) ours = pattern_bytes (1536 * 1024, 36);
  g_autoptr(GError) error = NULL;
  g_autofree char *listing = NULL;
  MatSaveNotes notes = MAT_SAVE_NOTE_NONE;
  guint64 bytes = 0;
  pid_t running;
  int status = 0;

  write_bytes (path, original, 0640);
  write_bytes (other, original, 0644);
  start_save (path, ours, die_in_write);
  g_assert_cmpuint (count_temporaries (dir), ==, 1);
  assert_file_is (path, original);

  /* a save that runs meanwhile (and removed the leftover); one killed
   * beside it cannot take the running one's file */
  running = start_save (other, ours, wait_in_write);
  g_assert_cmpuint (count_temporaries (dir), ==, 1);
  start_save (path, ours, die_in_write);
  g_assert_cmpuint (count_temporaries (dir), ==, 2);

  g_assert_true (mat_file_replace (path, ours, NULL, MAT_SAVE_NONE, NULL, &notes, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (notes, ==, MAT_SAVE_NOTE_STALE_REMOVED);
  g_assert_cmpuint (count_temporaries (dir), ==, 1);   /* the running save's */
  assert_file_is (path, ours);
  assert_file_is (other, original);

  /* said once */
  g_assert_true (mat_file_replace (path, original, NULL, MAT_SAVE_NONE, NULL, &notes, NULL, &error));
  g_assert_cmpuint (notes, ==, MAT_SAVE_NOTE_NONE);

  /* killed too: now it is a leftover, of what it had written */
  g_assert_cmpint (kill (running, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (running, &status, 0), ==, running);
  g_assert_cmpuint (mat_file_remove_stale_temporaries (dir, &bytes), ==, 1);
  g_assert_cmpuint (bytes, ==, 0);   /* stopped before its first write */
  g_assert_cmpuint (count_temporaries (dir), ==, 0);
  assert_file_is (other, original);
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "Material.lib,Textures.lib");
  remove_tree (dir);
}

static gsize
resident_bytes (void)
{
  g_autofree char *statm = NULL;
  unsigned long size = 0, resident = 0;

  g_assert_true (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL));
  g_assert_cmpint (sscanf (statm, "%lu %lu", &size, &resident), ==, 2);
  return (gsize) resident * (gsize) sysconf (_SC_PAGESIZE);
}

/* The demo library with @extra bytes of a pattern before its directory:
 * an unindexed region the reader leaves out. */
static GBytes *
with_unindexed (GBytes *demo,
                guint32 extra)
{
  const guint8 *data = g_bytes_get_data (demo, NULL);
  GByteArray *array = g_byte_array_new ();
  guint32 count, directory, total;

  memcpy (&count, data + 8, 4);
  directory = (guint32) g_bytes_get_size (demo) - count * 64;
  g_byte_array_append (array, data, directory);
  for (guint32 i = 0; i < extra; i++)
    {
      guint8 b = (guint8) (i * 31 + 7);

      g_byte_array_append (array, &b, 1);
    }
  g_byte_array_append (array, data + directory, count * 64);
  total = array->len;
  memcpy (array->data + 12, &total, 4);
  return g_byte_array_free_to_bytes (array);
}

/* The editor's open of a 4 GiB library (sparse) with one material: what
 * the directory names is read, in well under a second and 50 MB; a save of
 * a library with a large unindexed region copies it from the file; and
 * what killed saves left in the folder is removed at the open. */
static void
test_document_huge_library (void)
{
  g_autoptr(GBytes) demo = env_file ("DEMO_LIB");
  g_autoptr(NresArchive) demo_archive = nres_archive_parse (demo, NULL);
  g_autofree char *dir = make_dir ("huge");
  g_autofree char *path = g_build_filename (dir, "Huge.lib", NULL);
  g_autofree char *small = g_build_filename (dir, "Material.lib", NULL);
  g_autofree char *stale = g_build_filename (dir, ".Material.lib.Zz09Yy.matedit-tmp", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) small_file = g_file_new_for_path (small);
  g_autoptr(MatDocument) document = mat_document_new ();
  g_autoptr(GError) error = NULL;
  const guint32 total = 0xFFFFFFFFu;
  guint8 header[16] = { 'N', 'R', 'e', 's', 0, 1, 0, 0, 1, 0, 0, 0 };
  NresEntry entry = demo_archive->entries[0];
  const guint8 *payload;
  gsize size = 0, before;
  gint64 start;
  int fd;

  payload = nres_archive_payload (demo_archive, 0, &size);
  memcpy (header + 12, &total, 4);
  entry.data_offset = 16;
  entry.sort_index = 0;
  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, total), ==, 0);
  g_assert_cmpint (pwrite (fd, header, 16, 0), ==, 16);
  g_assert_cmpint (pwrite (fd, payload, size, 16), ==, (gssize) size);
  g_assert_cmpint (pwrite (fd, &entry, 64, total - 64), ==, 64);
  close (fd);

  before = resident_bytes ();
  start = g_get_monotonic_time ();
  g_assert_true (document_load (document, file, &error));
  g_assert_no_error (error);
  g_test_message ("opened a 4 GiB library in %.3f s, %.1f MB more resident",
                  (g_get_monotonic_time () - start) / 1e6,
                  ((double) resident_bytes () - (double) before) / 1e6);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  g_assert_cmpuint (resident_bytes (), <, before + 50 * 1000 * 1000);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (mat_document_get_library (document))), ==, 1);
  g_unlink (path);

  /* 300,000 unindexed bytes: left out at the open, copied at the save */
  {
    g_autoptr(GBytes) original = with_unindexed (demo, 300000);
    g_autoptr(GBytes) saved = NULL;
    g_autoptr(GBytes) expected = NULL;
    MatLibrary *library;

    write_bytes (small, original, 0644);
    g_assert_true (g_file_set_contents (stale, "left by a killed save", -1, NULL));
    g_assert_true (document_load (document, small_file, &error));
    g_assert_no_error (error);
    library = mat_document_get_library (document);
    g_assert_cmpuint (mat_library_get_removed_temporaries (library), ==, 1);
    g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));

    edit_first (library);
    g_assert_true (document_save (document, NULL, MAT_SAVE_NONE, NULL, &error));
    g_assert_no_error (error);
    saved = test_load_file (small);
    /* the original with entry 0's attr3 one more (a directory field):
     * every other byte, the unindexed ones too, as they were */
    {
      gsize n = g_bytes_get_size (original);
      guint8 *copy = g_memdup2 (g_bytes_get_data (original, NULL), n);
      guint32 count, attr3;
      gsize field;

      memcpy (&count, copy + 8, 4);
      field = n - (gsize) count * 64 + 16;
      memcpy (&attr3, copy + field, 4);
      attr3++;
      memcpy (copy + field, &attr3, 4);
      expected = g_bytes_new_take (copy, n);
    }
    g_assert_true (g_bytes_equal (saved, expected));
    g_assert_cmpuint (g_bytes_get_size (saved), ==, g_bytes_get_size (original));
  }
  remove_tree (dir);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *build_dir = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  /* In the build folder (a real disk file system, for extended
   * attributes) when another user can reach it, else in the temporary
   * folder: the tests that save as nobody need to get there. */
  build_dir = g_strdup (g_getenv ("G_TEST_BUILDDIR"));
  if (build_dir == NULL || !reachable_by_nobody (build_dir))
    {
      g_free (build_dir);
      build_dir = g_strdup (g_get_tmp_dir ());
    }
  {
    g_autofree char *template = g_build_filename (build_dir, "test-save-XXXXXX", NULL);

    base_dir = g_mkdtemp (g_steal_pointer (&template));
    g_assert_nonnull (base_dir);
    g_chmod (base_dir, 0755);
    g_test_message ("scratch folder: %s", base_dir);
  }

  g_test_add_func ("/save/faults/every-call", test_fault_matrix);
  g_test_add_func ("/save/faults/every-call-with-backup", test_fault_matrix_backup);
  g_test_add_func ("/save/faults/short-write-continues", test_short_write_continues);
  g_test_add_func ("/save/faults/owner-not-permitted", test_owner_not_permitted);
  g_test_add_func ("/save/faults/read-only-folder", test_read_only_folder_hook);
  g_test_add_func ("/save/new-file", test_new_file);
  g_test_add_func ("/save/symlink", test_symlink);
  g_test_add_func ("/save/hard-link", test_hard_link);
  g_test_add_func ("/save/xattrs-and-mode", test_xattrs_and_mode);
  g_test_add_func ("/save/backup-one-per-save", test_backup_one_per_save);
  g_test_add_func ("/save/changed-on-disk", test_changed_on_disk);
  g_test_add_func ("/save/changed-same-size-and-time", test_changed_same_size_and_time);
  g_test_add_func ("/save/etag-digest", test_etag_digest);
  g_test_add_func ("/save/temp-mode", test_temp_mode);
  g_test_add_func ("/save/stale-after-kill", test_stale_after_kill);
  g_test_add_func ("/save/not-a-regular-target", test_not_a_regular_target);
  g_test_add_func ("/save/read-only-folder", test_read_only_folder_real);
  g_test_add_func ("/save/other-owner", test_other_owner);
  g_test_add_func ("/save/full-tmpfs", test_full_tmpfs);
  g_test_add_func ("/read/refuses-at-once", test_read_refuses_at_once);
  g_test_add_func ("/read/cut-short", test_read_cut_short);
  g_test_add_func ("/read/format-count", test_format_count);
  g_test_add_func ("/read/checks-agree-with-parse", test_checks_agree_with_parse);
  g_test_add_func ("/document/failed-save", test_document_failed_save);
  g_test_add_func ("/document/overwrite", test_document_overwrite);
  g_test_add_func ("/document/load-failure", test_document_load_failure);
  g_test_add_func ("/document/links-note", test_document_links_note);
  g_test_add_func ("/document/huge-library", test_document_huge_library);

  status = g_test_run ();
  remove_tree (base_dir);
  g_free (base_dir);
  g_free (fault.target);
  return status;
}
