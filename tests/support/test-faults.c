/* test-faults.c - making the system calls of a save fail */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "mat-file-private.h"
#include "test-faults.h"

static const char * const op_names[TEST_N_OPS] = {
  "open", "read", "write", "fsync", "fchmod", "fchown", "fsetxattr", "rename", "close",
};

static struct {
  guint     calls[TEST_N_OPS];
  int       op;          /* -1: none fails */
  guint     at;
  int       error;
  gboolean  fired;
  gboolean  fired_after_commit;
  gboolean  committed;
  char     *target;
  void    (*hook) (gpointer data);
  gpointer  hook_data;
} fault = { .op = -1 };

const char *
test_op_name (TestOp op)
{
  return op < TEST_N_OPS ? op_names[op] : "?";
}

/* Whether this call fails (errno set); counts it either way. */
static gboolean
fails (TestOp op)
{
  guint n = fault.calls[op]++;

  if ((int) op != fault.op || n != fault.at || fault.fired)
    return FALSE;
  fault.fired = TRUE;
  fault.fired_after_commit = fault.committed;
  errno = fault.error;
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
  return fails (TEST_OP_OPEN) ? -1 : sys ()->open (path, flags, mode);
}

static ssize_t
t_read (int fd, void *buf, size_t count)
{
  return fails (TEST_OP_READ) ? -1 : sys ()->read (fd, buf, count);
}

static ssize_t
t_write (int fd, const void *buf, size_t count)
{
  if (fault.hook != NULL)
    {
      void (*hook) (gpointer) = fault.hook;

      fault.hook = NULL;
      hook (fault.hook_data);
    }
  return fails (TEST_OP_WRITE) ? -1 : sys ()->write (fd, buf, count);
}

static int
t_fsync (int fd)
{
  return fails (TEST_OP_FSYNC) ? -1 : sys ()->fsync (fd);
}

static int
t_fchmod (int fd, mode_t mode)
{
  return fails (TEST_OP_FCHMOD) ? -1 : sys ()->fchmod (fd, mode);
}

static int
t_fchown (int fd, uid_t owner, gid_t group)
{
  return fails (TEST_OP_FCHOWN) ? -1 : sys ()->fchown (fd, owner, group);
}

static int
t_fsetxattr (int fd, const char *name, const void *value, size_t size, int flags)
{
  return fails (TEST_OP_FSETXATTR) ? -1 : sys ()->fsetxattr (fd, name, value, size, flags);
}

static int
t_rename (const char *from, const char *to)
{
  int result;

  if (fails (TEST_OP_RENAME))
    return -1;
  result = sys ()->rename (from, to);
  if (result == 0 && fault.target != NULL && g_str_equal (to, fault.target))
    fault.committed = TRUE;
  return result;
}

static int
t_close (int fd)
{
  if (fails (TEST_OP_CLOSE))
    {
      /* Linux closes the descriptor even when close reports an error */
      int saved = errno;

      sys ()->close (fd);
      errno = saved;
      return -1;
    }
  return sys ()->close (fd);
}

static const MatFileIO fault_io = {
  t_open, t_read, t_write, t_fsync, t_fchmod, t_fchown, t_fsetxattr, t_rename, t_close,
};

void
test_faults_arm (int         op,
                 guint       at,
                 int         error,
                 const char *target)
{
  memset (fault.calls, 0, sizeof fault.calls);
  fault.op = op;
  fault.at = at;
  fault.error = error;
  fault.fired = fault.fired_after_commit = fault.committed = FALSE;
  g_free (fault.target);
  fault.target = g_strdup (target);
  _mat_file_set_io (&fault_io);
}

void
test_faults_disarm (void)
{
  _mat_file_set_io (NULL);
  fault.op = -1;
  fault.hook = NULL;
}

guint
test_faults_count (TestOp op)
{
  return fault.calls[op];
}

gboolean
test_faults_fired (void)
{
  return fault.fired;
}

gboolean
test_faults_fired_after_commit (void)
{
  return fault.fired_after_commit;
}

void
test_faults_on_first_write (void     (*hook) (gpointer data),
                            gpointer   data)
{
  fault.hook = hook;
  fault.hook_data = data;
}

/* ---- files ------------------------------------------------------------- */

char *
test_scratch_dir (const char *name)
{
  const char *root = g_getenv ("G_TEST_BUILDDIR");
  g_autofree char *template = g_strdup_printf ("%s/%s-XXXXXX", root != NULL ? root : ".", name);
  g_autofree char *dir = g_mkdtemp (g_steal_pointer (&template));
  char *real;

  g_assert_nonnull (dir);
  /* as the save names it: absolute, links resolved */
  real = realpath (dir, NULL);
  g_assert_nonnull (real);
  return real;
}

void
test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

void
test_write_file (const char *path,
                 GBytes     *bytes,
                 int         mode)
{
  g_autoptr(GError) error = NULL;

  g_unlink (path);
  g_assert_true (g_file_set_contents_full (path, g_bytes_get_data (bytes, NULL),
                                           (gssize) g_bytes_get_size (bytes),
                                           G_FILE_SET_CONTENTS_NONE, mode, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

void
test_assert_file_is (const char *path,
                     GBytes     *bytes)
{
  g_autofree char *contents = NULL;
  gsize len = 0;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (contents, len, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

int
test_file_mode (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_mode & 07777;
}

void
test_rewrite_in_place (const char *path,
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

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

char *
test_list_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv ("\n", (char **) names->pdata);
}

/* ---- waiting ------------------------------------------------------------ */

void
test_result_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

GAsyncResult *
test_wait_result (GAsyncResult **slot)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (*slot == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      g_main_context_iteration (NULL, TRUE);
    }
  return *slot;
}
