/* test-support.h - byte builders for tests, independent of the writers
 * under test, so a test never checks a writer against itself. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint32       type_id;
  guint32       attr1;
  guint32       attr2;
  guint32       attr3;
  const char   *name;
  const guint8 *payload;
  gsize         size;
  gsize         gap_after;   /* unindexed bytes (0xA0 + entry index) after
                                the payload and its padding */
} TestEntrySpec;

/* An NRes file: header, payloads in order (each zero-padded to 8 when
 * @align8), the unindexed gaps, then the directory with a canonical
 * sort_index. Returns: (transfer full). */
GBytes  *test_build_archive (const TestEntrySpec *specs,
                             guint                n_specs,
                             gboolean             align8);

void     test_put_u8        (GByteArray *array, guint8  v);
void     test_put_u16       (GByteArray *array, guint16 v);
void     test_put_u32       (GByteArray *array, guint32 v);
void     test_put_bytes     (GByteArray *array, const void *data, gsize len);
/* A phase record: p[18] then a texture name zero-filled to 16 bytes. */
void     test_put_phase     (GByteArray *array, const guint8 p[18], const char *texture);

guint32  test_get_u32       (const guint8 *data);
guint16  test_get_u16       (const guint8 *data);

/* The worked example material of evaluator.md (attr2 6): phase 0 with
 * p[4..7] = 0, phase 1 with p[4..7] = 255, one block (mode @mode, interp
 * 0x02) with keys (0, 500, 0) and (1, 1000, 0): key times are the ends of
 * the intervals, the period is 1000. Returns: (transfer full). */
GBytes  *test_worked_example_payload (guint mode);

/* Path of a file built into the test build directory (G_TEST_BUILDDIR)
 * or the source directory. Returns: (transfer full). */
char    *test_build_path    (const char *name);
/* Reads a whole file or aborts the test. Returns: (transfer full). */
GBytes  *test_load_file     (const char *path);

G_END_DECLS
