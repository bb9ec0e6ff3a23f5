/* test-nres-writer.c - the preserving writer and repack
 *
 * Inputs and expected files are built with tests/support or by hand,
 * never with the writers under test.
 */
#include "config.h"

#include <string.h>

#include "cp1251.h"
#include "nres.h"
#include "test-support.h"

static const guint8 bytes_a[] = { 1, 2, 3, 4, 5 };
static const guint8 bytes_b[] = { 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
                                  0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F };
static const guint8 bytes_c[] = { 0xC0, 0xC1, 0xC2 };
static const guint8 bytes_d[] = { 0xD0 };
static const guint8 bytes_new[] = { 0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7,
                                    0xE8, 0xE9, 0xEA, 0xEB, 0xEC, 0xED, 0xEE, 0xEF };

/* Four entries, B's size chosen by the test:
 *   Alpha 5 bytes, 3 bytes padding, 8 unindexed bytes 0xA0
 *   beta  b_size bytes (padded)
 *   Gamma 3 bytes, padding, 16 unindexed bytes 0xA2
 *   delta 1 byte, padding
 * Canonical sort_index: alpha(0) beta(1) delta(3) gamma(2). */
static void
four_specs (TestEntrySpec specs[4],
            gsize         b_size)
{
  const TestEntrySpec init[4] = {
    { NRES_TYPE_MAT0, 0x41, 6, 0, "Alpha", bytes_a, sizeof bytes_a, 8 },
    { NRES_TYPE_MAT0, 0x02, 6, 9, "beta", bytes_b, 0, 0 },
    { NRES_TYPE_TEXM, 0, 0, 0, "Gamma", bytes_c, sizeof bytes_c, 16 },
    { 0x12345678, 0xFFFFFFFF, 1, 2, "delta", bytes_d, sizeof bytes_d, 0 },
  };

  memcpy (specs, init, sizeof init);
  specs[1].size = b_size;
}

static GBytes *
build_four (gsize    b_size,
            gboolean align8)
{
  TestEntrySpec specs[4];

  four_specs (specs, b_size);
  return test_build_archive (specs, 4, align8);
}

static NresArchive *
parse_ok (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  NresArchive *archive = nres_archive_parse (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (archive);
  return archive;
}

static void
set_u32 (guint8  *p,
         guint32  v)
{
  p[0] = v & 0xFF;
  p[1] = (v >> 8) & 0xFF;
  p[2] = (v >> 16) & 0xFF;
  p[3] = v >> 24;
}

static GBytes *
patched_copy (GBytes *bytes,
              gsize   offset,
              guint32 value)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();

  g_byte_array_append (array, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  set_u32 (array->data + offset, value);
  return g_byte_array_free_to_bytes (g_steal_pointer (&array));
}

static void
assert_bytes_equal (GBytes *actual,
                    GBytes *expected)
{
  g_assert_cmpmem (g_bytes_get_data (actual, NULL), g_bytes_get_size (actual),
                   g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));
}

/* Writes with the preserving writer, checks the result re-parses and
 * returns it. */
static GBytes *
preserve_ok (const NresArchive  *archive,
             const NresOutEntry *out,
             guint               n_out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) result = nres_write_preserving (archive, out, n_out, &error);
  g_autoptr(NresArchive) reparsed = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (result);
  reparsed = nres_archive_parse (result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (reparsed->n_entries, ==, n_out);
  for (guint i = 0; i < n_out; i++)
    {
      gsize size = 0;
      const guint8 *p = nres_archive_payload (reparsed, i, &size);

      if (out[i].payload != NULL)
        g_assert_cmpmem (p, size, g_bytes_get_data (out[i].payload, NULL),
                         g_bytes_get_size (out[i].payload));
      else
        {
          gsize orig_size = 0;
          const guint8 *orig = nres_archive_payload (archive, out[i].source, &orig_size);

          g_assert_cmpmem (p, size, orig, orig_size);
        }
      g_assert_cmpmem (reparsed->entries[i].name, NRES_NAME_SIZE,
                       out[i].entry.name, NRES_NAME_SIZE);
      g_assert_cmpuint (reparsed->entries[i].type_id, ==, out[i].entry.type_id);
      g_assert_cmpuint (reparsed->entries[i].attr1, ==, out[i].entry.attr1);
      g_assert_cmpuint (reparsed->entries[i].attr2, ==, out[i].entry.attr2);
      g_assert_cmpuint (reparsed->entries[i].attr3, ==, out[i].entry.attr3);
    }

  return g_steal_pointer (&result);
}

static void
assert_unchanged_roundtrip (GBytes *bytes)
{
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(GBytes) result = NULL;
  NresOutEntry *out;
  guint n_out = 0;

  out = nres_out_entries_from_archive (archive, &n_out);
  result = preserve_ok (archive, out, n_out);
  assert_bytes_equal (result, bytes);

  /* Payloads handed back byte-equal to the originals are no change. */
  for (guint i = 0; i < n_out; i++)
    out[i].payload = nres_archive_payload_bytes (archive, i);
  g_clear_pointer (&result, g_bytes_unref);
  result = preserve_ok (archive, out, n_out);
  assert_bytes_equal (result, bytes);

  nres_out_entries_free (out, n_out);
}

/* A hand-made file: header, @region as the data region (from offset 16),
 * then one directory entry per name with the given offsets, sizes and
 * sort_index values. */
typedef struct {
  const char *name;
  guint32     offset;
  guint32     size;
  guint32     sort_index;
} RawEntry;

static void
put_entry (GByteArray *array,
           guint32     type_id,
           guint32     attr1,
           guint32     attr2,
           guint32     size,
           guint32     attr3,
           const char *name,
           guint32     offset,
           guint32     sort_index)
{
  char field[NRES_NAME_SIZE] = { 0 };

  memcpy (field, name, strlen (name));
  test_put_u32 (array, type_id);
  test_put_u32 (array, attr1);
  test_put_u32 (array, attr2);
  test_put_u32 (array, size);
  test_put_u32 (array, attr3);
  test_put_bytes (array, field, NRES_NAME_SIZE);
  test_put_u32 (array, offset);
  test_put_u32 (array, sort_index);
}

static void
put_header (GByteArray *array,
            guint32     count,
            guint32     total)
{
  test_put_bytes (array, "NRes", 4);
  test_put_u32 (array, 0x100);
  test_put_u32 (array, count);
  test_put_u32 (array, total);
}

static GBytes *
build_raw (const guint8   *region,
           gsize           region_len,
           const RawEntry *entries,
           guint           n)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();

  put_header (array, n, 16 + region_len + n * 64);
  test_put_bytes (array, region, region_len);
  for (guint i = 0; i < n; i++)
    put_entry (array, NRES_TYPE_MAT0, i, 6, entries[i].size, 0,
               entries[i].name, entries[i].offset, entries[i].sort_index);

  return g_byte_array_free_to_bytes (g_steal_pointer (&array));
}

/* ---- unchanged ---- */

static void
test_unchanged_aligned (void)
{
  g_autoptr(GBytes) bytes = build_four (8, TRUE);

  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 72 + 4 * 64);
  assert_unchanged_roundtrip (bytes);
}

static void
test_unchanged_unaligned (void)
{
  const TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "one", bytes_a, sizeof bytes_a, 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "two", bytes_b, 7, 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "three", bytes_c, sizeof bytes_c, 0 },
  };
  g_autoptr(GBytes) bytes = test_build_archive (specs, 3, FALSE);

  assert_unchanged_roundtrip (bytes);
}

static void
test_unchanged_gaps (void)
{
  g_autoptr(GBytes) aligned = build_four (13, TRUE);
  g_autoptr(GBytes) unaligned = build_four (13, FALSE);
  TestEntrySpec specs[4];
  g_autoptr(GBytes) odd_gaps = NULL;

  assert_unchanged_roundtrip (aligned);
  assert_unchanged_roundtrip (unaligned);

  four_specs (specs, 8);
  specs[0].gap_after = 3;
  specs[1].gap_after = 1;
  specs[3].gap_after = 5;
  odd_gaps = test_build_archive (specs, 4, TRUE);
  assert_unchanged_roundtrip (odd_gaps);
}

static void
test_unchanged_odd_layouts (void)
{
  /* A lead gap, payloads out of directory order, a zero-size entry, a
   * nonzero byte where padding would be, shared bytes, garbage after a
   * name's NUL and a non-canonical sort_index. */
  const guint8 region[] = {
    0x77, 0x77, 0x77, 0x77, 0x77,          /* 16: unindexed */
    0x01, 0x02, 0x03,                      /* 21: "first" (ends at 24) */
    0x04, 0x05, 0x06, 0x07, 0x08,          /* 24: "second" */
    0x00, 0x00, 0x09,                      /* 29: not padding */
    0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11,   /* 32: "shared" 8, "inner" 4 at 34 */
  };
  const RawEntry entries[] = {
    { "second", 24, 5, 3 },
    { "first", 21, 3, 0 },
    { "inner", 34, 4, 1 },
    { "shared", 32, 8, 2 },
    { "empty", 40, 0, 4 },
  };
  g_autoptr(GBytes) bytes = build_raw (region, sizeof region, entries, G_N_ELEMENTS (entries));
  g_autoptr(GByteArray) garbage = g_byte_array_new ();
  g_autoptr(GBytes) with_garbage = NULL;
  g_autoptr(NresArchive) archive = parse_ok (bytes);

  g_assert_true (archive->sort_index_valid);
  g_assert_false (archive->sort_index_canonical);
  assert_unchanged_roundtrip (bytes);

  g_byte_array_append (garbage, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  memset (garbage->data + 40 + 64 + 20 + 6, 0xCC, 30);   /* after "first\0" */
  with_garbage = g_byte_array_free_to_bytes (g_steal_pointer (&garbage));
  assert_unchanged_roundtrip (with_garbage);
}

static void
test_unchanged_empty (void)
{
  g_autoptr(GBytes) empty = test_build_archive (NULL, 0, TRUE);
  const guint8 region[] = { 1, 2, 3 };
  g_autoptr(GBytes) only_gap = build_raw (region, sizeof region, NULL, 0);

  assert_unchanged_roundtrip (empty);
  assert_unchanged_roundtrip (only_gap);
}

/* ---- edits ---- */

static void
test_same_size_edit (void)
{
  g_autoptr(GBytes) bytes = build_four (8, TRUE);
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(GBytes) result = NULL;
  const guint8 *before, *after;
  const guint8 new_b[8] = { 0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7 };
  NresOutEntry *out;
  guint n_out = 0;

  out = nres_out_entries_from_archive (archive, &n_out);
  out[1].payload = g_bytes_new (new_b, sizeof new_b);
  result = preserve_ok (archive, out, n_out);
  nres_out_entries_free (out, n_out);

  /* beta sits at 16 + 8 (Alpha + padding) + 8 (gap) = 32. */
  g_assert_cmpuint (archive->entries[1].data_offset, ==, 32);
  g_assert_cmpuint (g_bytes_get_size (result), ==, g_bytes_get_size (bytes));
  before = g_bytes_get_data (bytes, NULL);
  after = g_bytes_get_data (result, NULL);
  for (gsize i = 0; i < g_bytes_get_size (bytes); i++)
    {
      if (i >= 32 && i < 40)
        g_assert_cmpuint (after[i], ==, new_b[i - 32]);
      else
        g_assert_cmpuint (after[i], ==, before[i]);
    }
}

/* Resizes beta from @from to @to bytes in an archive built with @align8
 * and compares the result with the archive built directly at size @to,
 * whose layout (payloads, padding and gaps) is the one the preserving
 * writer must keep. @table, when not NULL, is written into the stored
 * sort_index of both before the edit. */
static void
check_resize (gsize          from,
              gsize          to,
              gboolean       align8,
              const guint32 *table)
{
  g_autoptr(GBytes) original = build_four (from, align8);
  g_autoptr(GBytes) expected = build_four (to, align8);
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(NresArchive) reparsed = NULL;
  g_autoptr(GBytes) result = NULL;
  NresOutEntry *out;
  guint n_out = 0;

  if (table != NULL)
    {
      for (guint i = 0; i < 4; i++)
        {
          GBytes *tmp;

          tmp = patched_copy (original, g_bytes_get_size (original) - 256 + i * 64 + 60, table[i]);
          g_bytes_unref (original);
          original = tmp;
          tmp = patched_copy (expected, g_bytes_get_size (expected) - 256 + i * 64 + 60, table[i]);
          g_bytes_unref (expected);
          expected = tmp;
        }
    }

  archive = parse_ok (original);
  out = nres_out_entries_from_archive (archive, &n_out);
  out[1].payload = g_bytes_new (bytes_b, to);
  result = preserve_ok (archive, out, n_out);
  nres_out_entries_free (out, n_out);

  assert_bytes_equal (result, expected);

  reparsed = parse_ok (result);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpuint (reparsed->entries[i].sort_index, ==,
                        table != NULL ? table[i] : archive->entries[i].sort_index);
      if (align8)
        g_assert_cmpuint (reparsed->entries[i].data_offset % 8, ==, 0);
    }
}

static void
test_grow_middle (void)
{
  g_autoptr(GBytes) original = build_four (8, TRUE);
  g_autoptr(NresArchive) archive = parse_ok (original);
  g_autoptr(NresArchive) reparsed = NULL;
  g_autoptr(GBytes) result = NULL;
  const guint8 *in, *res;
  NresOutEntry *out;
  guint n_out = 0;

  /* Spelled out once: beta 8 -> 13 bytes moves Gamma from 40 to 48 and
   * delta from 64 to 72; the directory from 72 to 80. */
  out = nres_out_entries_from_archive (archive, &n_out);
  out[1].payload = g_bytes_new (bytes_b, 13);
  result = preserve_ok (archive, out, n_out);
  nres_out_entries_free (out, n_out);

  in = g_bytes_get_data (original, NULL);
  res = g_bytes_get_data (result, NULL);
  g_assert_cmpuint (g_bytes_get_size (result), ==, 80 + 256);
  g_assert_cmpuint (test_get_u32 (res + 12), ==, 80 + 256);
  g_assert_cmpmem (res + 16, 16, in + 16, 16);               /* Alpha, padding, gap */
  g_assert_cmpmem (res + 32, 13, bytes_b, 13);               /* beta */
  g_assert_cmpmem (res + 45, 3, "\0\0\0", 3);                /* regrown padding */
  g_assert_cmpmem (res + 48, 24, in + 40, 24);               /* Gamma, padding, gap */
  g_assert_cmpmem (res + 72, 8, in + 64, 8);                 /* delta, padding */

  reparsed = parse_ok (result);
  g_assert_cmpuint (reparsed->directory_offset, ==, 80);
  g_assert_cmpuint (reparsed->entries[0].data_offset, ==, 16);
  g_assert_cmpuint (reparsed->entries[1].data_offset, ==, 32);
  g_assert_cmpuint (reparsed->entries[1].size, ==, 13);
  g_assert_cmpuint (reparsed->entries[2].data_offset, ==, 48);
  g_assert_cmpuint (reparsed->entries[3].data_offset, ==, 72);
  g_assert_true (reparsed->sort_index_canonical);
  for (guint i = 0; i < 4; i++)
    {
      /* Every other directory byte as before. */
      g_assert_cmpmem (res + 80 + i * 64, 12, in + 72 + i * 64, 12);
      g_assert_cmpmem (res + 80 + i * 64 + 16, 40, in + 72 + i * 64 + 16, 40);
      g_assert_cmpmem (res + 80 + i * 64 + 60, 4, in + 72 + i * 64 + 60, 4);
    }

  check_resize (8, 13, TRUE, NULL);
  check_resize (8, 16, TRUE, NULL);
  check_resize (8, 0, TRUE, NULL);
}

static void
test_shrink_middle (void)
{
  check_resize (13, 8, TRUE, NULL);
  check_resize (16, 1, TRUE, NULL);
  check_resize (16, 9, TRUE, NULL);
}

static void
test_resize_unaligned (void)
{
  /* Alpha ends at 21, then 8 gap bytes; beta 6 bytes at 29 ends at 35,
   * Gamma ends at 38, 16 gap bytes, delta at 54 ends at 55: no payload
   * ends on a multiple of 8, so no padding is grown anywhere. */
  check_resize (6, 9, FALSE, NULL);
  check_resize (6, 2, FALSE, NULL);
}

static void
test_resize_keeps_sort_index (void)
{
  const guint32 non_canonical[] = { 3, 2, 1, 0 };
  const guint32 invalid[] = { 0, 0, 7, 0xFFFFFFFF };

  check_resize (8, 13, TRUE, non_canonical);
  check_resize (13, 8, TRUE, invalid);
}

static void
test_edit_first_and_last (void)
{
  const TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "a", bytes_a, 5, 8 },
    { NRES_TYPE_MAT0, 0, 6, 0, "b", bytes_b, 16, 0 },
  };
  const TestEntrySpec grown[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "a", bytes_new, 11, 8 },
    { NRES_TYPE_MAT0, 0, 6, 0, "b", bytes_new, 3, 0 },
  };
  g_autoptr(GBytes) bytes = test_build_archive (specs, 2, TRUE);
  g_autoptr(GBytes) expected = test_build_archive (grown, 2, TRUE);
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(GBytes) result = NULL;
  NresOutEntry *out;
  guint n_out = 0;

  out = nres_out_entries_from_archive (archive, &n_out);
  out[0].payload = g_bytes_new (bytes_new, 11);
  out[1].payload = g_bytes_new (bytes_new, 3);
  result = preserve_ok (archive, out, n_out);
  nres_out_entries_free (out, n_out);
  assert_bytes_equal (result, expected);
}

static void
test_lead_gap_and_fake_padding (void)
{
  /* 5 unindexed bytes, "a" 3 bytes ending at 24 (aligned, no padding),
   * "b" 5 bytes at 24 followed by 00 00 01: not all zero, so unindexed,
   * "c" 2 bytes at 32 and 6 bytes of padding. */
  const guint8 region[] = {
    0x77, 0x77, 0x77, 0x77, 0x77,
    0xA1, 0xA2, 0xA3,
    0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0x00, 0x00, 0x01,
    0xC1, 0xC2, 0, 0, 0, 0, 0, 0,
  };
  const RawEntry entries[] = {
    { "a", 21, 3, 0 },
    { "b", 24, 5, 1 },
    { "c", 32, 2, 2 },
  };
  /* "a" grows to 4 bytes (21..25): padded to 32 as it ended aligned; "b"
   * grows to 7 bytes (32..39) and gets no padding: its 00 00 01 follow
   * verbatim, then "c" at 42 (unaligned now, as nothing pads after the
   * unindexed bytes), padded to 48. */
  const guint8 expected_region[] = {
    0x77, 0x77, 0x77, 0x77, 0x77,
    0xE0, 0xE1, 0xE2, 0xE3, 0, 0, 0, 0, 0, 0, 0,
    0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0x00, 0x00, 0x01,
    0xC1, 0xC2, 0, 0, 0, 0,
  };
  const RawEntry expected_entries[] = {
    { "a", 21, 4, 0 },
    { "b", 32, 7, 1 },
    { "c", 42, 2, 2 },
  };
  g_autoptr(GBytes) bytes = build_raw (region, sizeof region, entries, 3);
  g_autoptr(GBytes) expected = build_raw (expected_region, sizeof expected_region, expected_entries, 3);
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(GBytes) result = NULL;
  NresOutEntry *out;
  guint n_out = 0;

  assert_unchanged_roundtrip (bytes);

  out = nres_out_entries_from_archive (archive, &n_out);
  out[0].payload = g_bytes_new (bytes_new, 4);
  out[1].payload = g_bytes_new (bytes_new, 7);
  result = preserve_ok (archive, out, n_out);
  nres_out_entries_free (out, n_out);
  assert_bytes_equal (result, expected);
}

static void
test_remove_entry (void)
{
  g_autoptr(GBytes) bytes = build_four (8, TRUE);
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(GByteArray) expected = g_byte_array_new ();
  g_autoptr(GBytes) expected_bytes = NULL;
  g_autoptr(GBytes) result = NULL;
  g_autoptr(NresArchive) reparsed = NULL;
  const guint8 *in = g_bytes_get_data (bytes, NULL);
  NresOutEntry *out;
  guint n_out = 0;

  /* Drop Gamma (40..43 + padding to 48); its following 16 unindexed bytes
   * stay; delta moves from 64 to 56. sort_index recomputed for Alpha,
   * beta, delta: [0, 1, 2]. */
  out = nres_out_entries_from_archive (archive, &n_out);
  out[2] = out[3];
  n_out = 3;
  result = preserve_ok (archive, out, n_out);
  nres_out_entries_free (out, n_out);

  put_header (expected, 3, 64 + 3 * 64);
  test_put_bytes (expected, in + 16, 24);        /* Alpha, padding, gap, beta */
  test_put_bytes (expected, in + 48, 16);        /* Gamma's gap, 0xA2 */
  test_put_bytes (expected, in + 64, 8);         /* delta, padding */
  put_entry (expected, NRES_TYPE_MAT0, 0x41, 6, 5, 0, "Alpha", 16, 0);
  put_entry (expected, NRES_TYPE_MAT0, 0x02, 6, 8, 9, "beta", 32, 1);
  put_entry (expected, 0x12345678, 0xFFFFFFFF, 1, 1, 2, "delta", 56, 2);
  expected_bytes = g_byte_array_free_to_bytes (g_steal_pointer (&expected));
  assert_bytes_equal (result, expected_bytes);

  reparsed = parse_ok (result);
  g_assert_true (reparsed->sort_index_canonical);
}

static void
test_remove_all (void)
{
  g_autoptr(GBytes) bytes = build_four (8, TRUE);
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(GByteArray) expected = g_byte_array_new ();
  g_autoptr(GBytes) expected_bytes = NULL;
  g_autoptr(GBytes) result = NULL;
  const guint8 *in = g_bytes_get_data (bytes, NULL);

  /* Only the unindexed bytes remain. */
  result = preserve_ok (archive, NULL, 0);
  put_header (expected, 0, 16 + 8 + 16);
  test_put_bytes (expected, in + 24, 8);
  test_put_bytes (expected, in + 48, 16);
  expected_bytes = g_byte_array_free_to_bytes (g_steal_pointer (&expected));
  assert_bytes_equal (result, expected_bytes);
}

static void
test_add_entry (void)
{
  g_autoptr(GBytes) bytes = build_four (8, TRUE);
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(GByteArray) expected = g_byte_array_new ();
  g_autoptr(GBytes) expected_bytes = NULL;
  g_autoptr(GBytes) result = NULL;
  const guint8 *in = g_bytes_get_data (bytes, NULL);
  NresOutEntry *out;
  NresOutEntry *grown;
  guint n_out = 0;
  g_autoptr(GError) error = NULL;

  out = nres_out_entries_from_archive (archive, &n_out);
  grown = g_new0 (NresOutEntry, n_out + 2);
  memcpy (grown, out, n_out * sizeof (NresOutEntry));
  g_free (out);

  /* A new entry first in the directory and one last; their payloads go
   * after delta, 8-aligned, in directory order. */
  memmove (grown + 1, grown, n_out * sizeof (NresOutEntry));
  grown[0].source = -1;
  memset (&grown[0].entry, 0, sizeof (NresEntry));
  grown[0].entry.type_id = NRES_TYPE_MAT0;
  grown[0].entry.attr2 = 6;
  g_assert_true (nres_entry_set_name (&grown[0].entry, "Epsilon", &error));
  grown[0].payload = g_bytes_new (bytes_new, 3);
  grown[5].source = -1;
  grown[5].entry = archive->entries[2];
  g_assert_true (nres_entry_set_name (&grown[5].entry, "\xD0\x91\xD1\x80\xD0\xBE\xD0\xBD\xD1\x8F", &error));
  grown[5].payload = g_bytes_new (bytes_new, 9);
  n_out += 2;

  result = preserve_ok (archive, grown, n_out);
  nres_out_entries_free (grown, n_out);

  /* Names: Epsilon(0) Alpha(1) beta(2) Gamma(3) delta(4) Броня(5):
   * alpha beta delta epsilon gamma, then 0xC1 after every ASCII letter. */
  put_header (expected, 6, 96 + 6 * 64);
  test_put_bytes (expected, in + 16, 56);        /* everything up to 72 */
  test_put_bytes (expected, bytes_new, 3);       /* Epsilon at 72 */
  test_put_bytes (expected, "\0\0\0\0\0", 5);
  test_put_bytes (expected, bytes_new, 9);       /* Броня at 80 */
  test_put_bytes (expected, "\0\0\0\0\0\0\0", 7);
  put_entry (expected, NRES_TYPE_MAT0, 0, 6, 3, 0, "Epsilon", 72, 1);
  put_entry (expected, NRES_TYPE_MAT0, 0x41, 6, 5, 0, "Alpha", 16, 2);
  put_entry (expected, NRES_TYPE_MAT0, 0x02, 6, 8, 9, "beta", 32, 4);
  put_entry (expected, NRES_TYPE_TEXM, 0, 0, 3, 0, "Gamma", 40, 0);
  put_entry (expected, 0x12345678, 0xFFFFFFFF, 1, 1, 2, "delta", 64, 3);
  put_entry (expected, NRES_TYPE_TEXM, 0, 0, 9, 0, "\xC1\xF0\xEE\xED\xFF", 80, 5);
  expected_bytes = g_byte_array_free_to_bytes (g_steal_pointer (&expected));
  assert_bytes_equal (result, expected_bytes);
}

static void
test_add_entry_unaligned (void)
{
  const TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "a", bytes_a, 5, 0 },
  };
  g_autoptr(GBytes) bytes = test_build_archive (specs, 1, FALSE);
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(GByteArray) expected = g_byte_array_new ();
  g_autoptr(GBytes) expected_bytes = NULL;
  g_autoptr(GBytes) result = NULL;
  NresOutEntry out[2];

  memset (out, 0, sizeof out);
  out[0].source = 0;
  out[0].entry = archive->entries[0];
  out[1].source = -1;
  out[1].entry = archive->entries[0];
  out[1].entry.name[0] = 'b';
  out[1].payload = g_bytes_new_static (bytes_c, 3);
  result = preserve_ok (archive, out, 2);
  g_bytes_unref (out[1].payload);

  put_header (expected, 2, 32 + 128);
  test_put_bytes (expected, bytes_a, 5);
  test_put_bytes (expected, "\0\0\0", 3);         /* aligning the new entry */
  test_put_bytes (expected, bytes_c, 3);
  test_put_bytes (expected, "\0\0\0\0\0", 5);
  put_entry (expected, NRES_TYPE_MAT0, 0, 6, 5, 0, "a", 16, 0);
  put_entry (expected, NRES_TYPE_MAT0, 0, 6, 3, 0, "b", 24, 1);
  expected_bytes = g_byte_array_free_to_bytes (g_steal_pointer (&expected));
  assert_bytes_equal (result, expected_bytes);
}

static void
test_rename (void)
{
  g_autoptr(GBytes) bytes = build_four (8, TRUE);
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(GByteArray) expected = g_byte_array_new ();
  g_autoptr(GBytes) expected_bytes = NULL;
  g_autoptr(GBytes) result = NULL;
  g_autoptr(GError) error = NULL;
  NresOutEntry *out;
  guint n_out = 0;
  const guint32 recomputed[] = { 0, 3, 2, 1 };   /* alpha delta gamma zulu */

  out = nres_out_entries_from_archive (archive, &n_out);
  g_assert_true (nres_entry_set_name (&out[1].entry, "Zulu", &error));
  g_assert_no_error (error);
  result = preserve_ok (archive, out, n_out);
  nres_out_entries_free (out, n_out);

  g_byte_array_append (expected, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  memset (expected->data + 72 + 64 + 20, 0, 36);
  memcpy (expected->data + 72 + 64 + 20, "Zulu", 4);
  for (guint i = 0; i < 4; i++)
    set_u32 (expected->data + 72 + i * 64 + 60, recomputed[i]);
  expected_bytes = g_byte_array_free_to_bytes (g_steal_pointer (&expected));
  assert_bytes_equal (result, expected_bytes);
}

static void
test_rename_case_only_and_reorder (void)
{
  const guint32 stale[] = { 3, 2, 1, 0 };
  g_autoptr(GBytes) bytes = build_four (8, TRUE);
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(NresArchive) reparsed = NULL;
  g_autoptr(GBytes) result = NULL;
  NresOutEntry *out;
  NresOutEntry tmp;
  guint n_out = 0;

  for (guint i = 0; i < 4; i++)
    {
      GBytes *patched = patched_copy (bytes, 72 + i * 64 + 60, stale[i]);

      g_bytes_unref (bytes);
      bytes = patched;
    }
  archive = parse_ok (bytes);
  g_assert_false (archive->sort_index_canonical);

  /* A case-only rename is a rename: the stored table is recomputed. */
  out = nres_out_entries_from_archive (archive, &n_out);
  out[1].entry.name[0] = 'B';
  result = preserve_ok (archive, out, n_out);
  reparsed = parse_ok (result);
  g_assert_true (reparsed->sort_index_canonical);
  g_assert_cmpuint (reparsed->entries[3].sort_index, ==, 2);

  /* Reordering the directory moves no payload but changes the table. */
  out[1].entry.name[0] = 'b';
  tmp = out[0];
  out[0] = out[3];
  out[3] = tmp;
  g_clear_pointer (&result, g_bytes_unref);
  g_clear_pointer (&reparsed, nres_archive_free);
  result = preserve_ok (archive, out, n_out);
  reparsed = parse_ok (result);
  g_assert_true (reparsed->sort_index_canonical);
  g_assert_cmpstr (reparsed->entries[0].name, ==, "delta");
  g_assert_cmpuint (reparsed->entries[0].data_offset, ==, 64);
  g_assert_cmpstr (reparsed->entries[3].name, ==, "Alpha");
  g_assert_cmpuint (reparsed->entries[3].data_offset, ==, 16);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (result, NULL) + 16, 56,
                   (const guint8 *) g_bytes_get_data (bytes, NULL) + 16, 56);
  nres_out_entries_free (out, n_out);
}

static void
test_overlap (void)
{
  /* "x" 16..24 and "y" 20..28 share bytes; "z" 32..35 does not. */
  const guint8 region[] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 0,
    0x21, 0x22, 0x23, 0, 0, 0, 0, 0,
  };
  const RawEntry entries[] = {
    { "x", 16, 8, 0 },
    { "y", 20, 8, 1 },
    { "z", 32, 3, 2 },
  };
  g_autoptr(GBytes) bytes = build_raw (region, sizeof region, entries, 3);
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(GBytes) result = NULL;
  g_autoptr(NresArchive) reparsed = NULL;
  g_autoptr(GError) error = NULL;
  NresOutEntry *out;
  guint n_out = 0;
  const guint8 z_new[] = { 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A };

  assert_unchanged_roundtrip (bytes);

  /* Changing a shared payload cannot be done in place. */
  out = nres_out_entries_from_archive (archive, &n_out);
  out[1].payload = g_bytes_new (bytes_new, 8);
  result = nres_write_preserving (archive, out, n_out, &error);
  g_assert_null (result);
  g_assert_error (error, NRES_ERROR, NRES_ERROR_OVERLAP);
  g_assert_cmpstr (error->message, ==,
                   "y: offset 20: expected a payload that shares no bytes with x, found an overlap; "
                   "the preserving save cannot change or remove shared bytes, use repack");
  g_clear_error (&error);
  nres_out_entries_free (out, n_out);

  /* Nor can removing one of them. */
  out = nres_out_entries_from_archive (archive, &n_out);
  out[0] = out[1];
  out[1] = out[2];
  result = nres_write_preserving (archive, out, 2, &error);
  g_assert_null (result);
  g_assert_error (error, NRES_ERROR, NRES_ERROR_OVERLAP);
  g_assert_nonnull (strstr (error->message, "x: offset 16"));
  g_assert_nonnull (strstr (error->message, "y"));
  g_assert_nonnull (strstr (error->message, "repack"));
  g_clear_error (&error);
  nres_out_entries_free (out, 2);

  /* Growing the other payload: the union 16..28 is copied verbatim with
   * its padding, "z" grows in place. */
  out = nres_out_entries_from_archive (archive, &n_out);
  out[2].payload = g_bytes_new (z_new, sizeof z_new);
  result = preserve_ok (archive, out, n_out);
  nres_out_entries_free (out, n_out);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (result, NULL) + 16, 16, region, 16);
  reparsed = parse_ok (result);
  g_assert_cmpuint (reparsed->entries[0].data_offset, ==, 16);
  g_assert_cmpuint (reparsed->entries[1].data_offset, ==, 20);
  g_assert_cmpuint (reparsed->entries[2].data_offset, ==, 32);
  g_assert_cmpuint (reparsed->entries[2].size, ==, 10);
  g_assert_cmpuint (reparsed->directory_offset, ==, 48);
}

static void
test_invalid_edits (void)
{
  g_autoptr(GBytes) bytes = build_four (8, TRUE);
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  NresOutEntry *out;
  guint n_out = 0;

  out = nres_out_entries_from_archive (archive, &n_out);

  /* A source named twice. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) result = NULL;

    out[2].source = 1;
    result = nres_write_preserving (archive, out, n_out, &error);
    g_assert_null (result);
    g_assert_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT);
    out[2].source = 2;
  }

  /* A source out of range. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) result = NULL;

    out[3].source = 4;
    result = nres_write_preserving (archive, out, n_out, &error);
    g_assert_null (result);
    g_assert_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT);
    g_clear_error (&error);
    out[3].source = -2;
    result = nres_write_preserving (archive, out, n_out, &error);
    g_assert_null (result);
    g_assert_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT);
    out[3].source = 3;
  }

  /* A new entry without bytes. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) result = NULL;

    out[3].source = -1;
    result = nres_write_preserving (archive, out, n_out, &error);
    g_assert_null (result);
    g_assert_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT);
    g_assert_nonnull (strstr (error->message, "delta"));
    out[3].source = 3;
  }

  /* Names the reader would refuse. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) result = NULL;

    out[1].entry.name[0] = 0;
    result = nres_write_preserving (archive, out, n_out, &error);
    g_assert_null (result);
    g_assert_error (error, NRES_ERROR, NRES_ERROR_BAD_NAME);
    g_clear_error (&error);

    result = nres_write_repack (archive, out, n_out, &error);
    g_assert_null (result);
    g_assert_error (error, NRES_ERROR, NRES_ERROR_BAD_NAME);
    g_clear_error (&error);

    memset (out[1].entry.name, 'n', NRES_NAME_SIZE);
    result = nres_write_preserving (archive, out, n_out, &error);
    g_assert_null (result);
    g_assert_error (error, NRES_ERROR, NRES_ERROR_BAD_NAME);
  }

  nres_out_entries_free (out, n_out);
}

/* ---- repack ---- */

static void
test_repack_exact (void)
{
  /* Unaligned, with unindexed bytes after "b" and a stale sort_index:
   * "b" 5 bytes at 16, 3 bytes 0x77, "A" 2 bytes at 24, "c" 0 bytes. */
  const guint8 region[] = { 1, 2, 3, 4, 5, 0x77, 0x77, 0x77, 6, 7 };
  const RawEntry entries[] = {
    { "b", 16, 5, 0 },
    { "A", 24, 2, 0 },
    { "c", 26, 0, 0 },
  };
  const guint8 expected[] = {
    'N', 'R', 'e', 's', 0x00, 0x01, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0xE0, 0x00, 0x00, 0x00,
    1, 2, 3, 4, 5, 0, 0, 0,           /* b at 16 */
    6, 7, 0, 0, 0, 0, 0, 0,           /* A at 24; c (empty) at 32 */
    /* b */
    0x4D, 0x41, 0x54, 0x30, 0, 0, 0, 0, 6, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0,
    'b', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    16, 0, 0, 0, 1, 0, 0, 0,
    /* A */
    0x4D, 0x41, 0x54, 0x30, 1, 0, 0, 0, 6, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
    'A', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    24, 0, 0, 0, 0, 0, 0, 0,
    /* c */
    0x4D, 0x41, 0x54, 0x30, 2, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    'c', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    32, 0, 0, 0, 2, 0, 0, 0,
  };
  g_autoptr(GBytes) bytes = build_raw (region, sizeof region, entries, 3);
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(NresArchive) reparsed = NULL;
  g_autoptr(GBytes) result = NULL;
  g_autoptr(GError) error = NULL;
  NresOutEntry *out;
  guint n_out = 0;

  g_assert_cmpuint (sizeof expected, ==, 0xE0);
  g_assert_false (archive->sort_index_valid);

  out = nres_out_entries_from_archive (archive, &n_out);
  result = nres_write_repack (archive, out, n_out, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (result, NULL), g_bytes_get_size (result),
                   expected, sizeof expected);
  reparsed = parse_ok (result);
  g_assert_true (reparsed->sort_index_canonical);

  /* The same from payloads alone, without the archive. */
  for (guint i = 0; i < n_out; i++)
    out[i].payload = nres_archive_payload_bytes (archive, i);
  g_clear_pointer (&result, g_bytes_unref);
  result = nres_write_repack (NULL, out, n_out, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (result, NULL), g_bytes_get_size (result),
                   expected, sizeof expected);
  nres_out_entries_free (out, n_out);
}

static void
test_repack_equals_builder (void)
{
  /* Repacking a gap-filled archive gives the builder's aligned layout
   * without the gaps. */
  TestEntrySpec specs[4];
  g_autoptr(GBytes) bytes = build_four (13, FALSE);
  g_autoptr(GBytes) expected = NULL;
  g_autoptr(NresArchive) archive = parse_ok (bytes);
  g_autoptr(GBytes) result = NULL;
  g_autoptr(GError) error = NULL;
  NresOutEntry *out;
  guint n_out = 0;

  four_specs (specs, 13);
  for (guint i = 0; i < 4; i++)
    specs[i].gap_after = 0;
  expected = test_build_archive (specs, 4, TRUE);

  out = nres_out_entries_from_archive (archive, &n_out);
  result = nres_write_repack (archive, out, n_out, &error);
  nres_out_entries_free (out, n_out);
  g_assert_no_error (error);
  assert_bytes_equal (result, expected);
}

static void
test_repack_missing_payload (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) result = NULL;
  NresOutEntry out[1];

  memset (out, 0, sizeof out);
  out[0].source = 0;
  memcpy (out[0].entry.name, "x", 2);
  result = nres_write_repack (NULL, out, 1, &error);
  g_assert_null (result);
  g_assert_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/nres-writer/preserving/unchanged/aligned", test_unchanged_aligned);
  g_test_add_func ("/core/nres-writer/preserving/unchanged/unaligned", test_unchanged_unaligned);
  g_test_add_func ("/core/nres-writer/preserving/unchanged/gaps", test_unchanged_gaps);
  g_test_add_func ("/core/nres-writer/preserving/unchanged/odd-layouts", test_unchanged_odd_layouts);
  g_test_add_func ("/core/nres-writer/preserving/unchanged/empty", test_unchanged_empty);
  g_test_add_func ("/core/nres-writer/preserving/same-size-edit", test_same_size_edit);
  g_test_add_func ("/core/nres-writer/preserving/grow-middle", test_grow_middle);
  g_test_add_func ("/core/nres-writer/preserving/shrink-middle", test_shrink_middle);
  g_test_add_func ("/core/nres-writer/preserving/resize-unaligned", test_resize_unaligned);
  g_test_add_func ("/core/nres-writer/preserving/resize-keeps-sort-index", test_resize_keeps_sort_index);
  g_test_add_func ("/core/nres-writer/preserving/edit-first-and-last", test_edit_first_and_last);
  g_test_add_func ("/core/nres-writer/preserving/lead-gap-and-fake-padding", test_lead_gap_and_fake_padding);
  g_test_add_func ("/core/nres-writer/preserving/remove", test_remove_entry);
  g_test_add_func ("/core/nres-writer/preserving/remove-all", test_remove_all);
  g_test_add_func ("/core/nres-writer/preserving/add", test_add_entry);
  g_test_add_func ("/core/nres-writer/preserving/add-unaligned", test_add_entry_unaligned);
  g_test_add_func ("/core/nres-writer/preserving/rename", test_rename);
  g_test_add_func ("/core/nres-writer/preserving/rename-case-and-reorder", test_rename_case_only_and_reorder);
  g_test_add_func ("/core/nres-writer/preserving/overlap", test_overlap);
  g_test_add_func ("/core/nres-writer/preserving/invalid-edits", test_invalid_edits);
  g_test_add_func ("/core/nres-writer/repack/exact", test_repack_exact);
  g_test_add_func ("/core/nres-writer/repack/equals-builder", test_repack_equals_builder);
  g_test_add_func ("/core/nres-writer/repack/missing-payload", test_repack_missing_payload);

  return g_test_run ();
}
