/* test-faults.h - making the system calls of a save fail, for the model's
 * tests (through the save's table of calls, mat-file-private.h), and the
 * files and waits those tests share.
 *
 * test_faults_arm () installs the table: from then on, every call is
 * counted, and call @at (0-based) of @op fails with the errno @error
 * (or none fails with @op -1: a save that works, counted);
 * test_faults_disarm () puts the real calls back.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
  TEST_OP_OPEN,
  TEST_OP_READ,
  TEST_OP_WRITE,
  TEST_OP_FSYNC,
  TEST_OP_FCHMOD,
  TEST_OP_FCHOWN,
  TEST_OP_FSETXATTR,
  TEST_OP_RENAME,
  TEST_OP_CLOSE,
  TEST_N_OPS
} TestOp;

/* Returns: (transfer none): "open", "write", ... */
const char *test_op_name              (TestOp       op);

/* @target: the path whose replacement commits the save (a rename onto
 * it): a failure after that came too late to matter. */
void        test_faults_arm           (int          op,
                                       guint        at,
                                       int          error,
                                       const char  *target);
void        test_faults_disarm        (void);
/* Calls of @op since the last arm. */
guint       test_faults_count         (TestOp       op);
/* Whether the armed call was made (and failed), and whether that came
 * after the rename onto the target. */
gboolean    test_faults_fired         (void);
gboolean    test_faults_fired_after_commit (void);
/* @hook runs once, at the next write call, before it is made. */
void        test_faults_on_first_write (void      (*hook) (gpointer data),
                                        gpointer    data);

/* ---- files ------------------------------------------------------------- */

/* A new folder under the test's own build folder (a real disk file
 * system: extended attributes work). Returns: (transfer full). */
char       *test_scratch_dir          (const char  *name);
void        test_remove_tree          (const char  *path);
void        test_write_file           (const char  *path,
                                       GBytes      *bytes,
                                       int          mode);
void        test_assert_file_is       (const char  *path,
                                       GBytes      *bytes);
int         test_file_mode            (const char  *path);
/* Writes @bytes (the file's size) over @path in place and gives it its
 * modification time back: same inode, size and time, other bytes. */
void        test_rewrite_in_place     (const char  *path,
                                       GBytes      *bytes);
/* The names in @path, sorted, one a line. Returns: (transfer full). */
char       *test_list_dir             (const char  *path);

/* ---- waiting ------------------------------------------------------------ */

/* A GAsyncReadyCallback storing a reference to the result in
 * *(GAsyncResult **) @user_data. */
void        test_result_cb            (GObject      *object,
                                       GAsyncResult *result,
                                       gpointer      user_data);
/* Iterates the main context until *@slot is set (20 s at most).
 * Returns: (transfer none): *@slot. */
GAsyncResult *test_wait_result        (GAsyncResult **slot);

G_END_DECLS
