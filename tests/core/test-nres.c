/* test-nres.c - the strict NRes reader, lookup and names */
#include "config.h"

#include <string.h>

#include "cp1251.h"
#include "nres.h"
#include "test-support.h"

static const guint8 payload_a[] = { 1, 2, 3, 4, 5 };
static const guint8 payload_b[] = { 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17 };
static const guint8 payload_c[] = { 0xEE };

/* Alpha: 16..21 (+3 padding), beta: 24..32, Gamma: 32..33 (+7 padding),
 * directory at 40, total 40 + 3 * 64 = 232. Canonical sort_index: the
 * names in order are Alpha (0), beta (1), Gamma (2): [0, 1, 2]. */
static GBytes *
build_three (gboolean align8)
{
  const TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0x41, 6, 0, "Alpha", payload_a, sizeof payload_a, 0 },
    { NRES_TYPE_TEXM, 0, 0, 7, "beta", payload_b, sizeof payload_b, 0 },
    { 0x12345678, 0xFFFFFFFF, 0x80000000, 0xDEADBEEF, "Gamma", payload_c, sizeof payload_c, 0 },
  };

  return test_build_archive (specs, G_N_ELEMENTS (specs), align8);
}

static GByteArray *
mutable_copy (GBytes *bytes)
{
  GByteArray *array = g_byte_array_new ();

  g_byte_array_append (array, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  return array;
}

static void
set_u32 (GByteArray *array,
         gsize       offset,
         guint32     v)
{
  g_assert_cmpuint (offset + 4, <=, array->len);
  array->data[offset] = v & 0xFF;
  array->data[offset + 1] = (v >> 8) & 0xFF;
  array->data[offset + 2] = (v >> 16) & 0xFF;
  array->data[offset + 3] = v >> 24;
}

/* Parses an exact copy of @array, so reading past its end is visible to
 * the sanitizers. */
static NresArchive *
parse_array (GByteArray  *array,
             GError     **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (array->data, array->len);

  return nres_archive_parse (bytes, error);
}

static void
assert_parse_error (GByteArray *array,
                    gint        code,
                    const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) archive = parse_array (array, &error);

  g_assert_null (archive);
  g_assert_error (error, NRES_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_parse_valid (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (archive);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 232);
  g_assert_cmpuint (archive->version, ==, 0x100);
  g_assert_cmpuint (archive->total_size, ==, 232);
  g_assert_cmpuint (archive->n_entries, ==, 3);
  g_assert_cmpuint (archive->directory_offset, ==, 40);
  g_assert_true (archive->sort_index_valid);
  g_assert_true (archive->sort_index_canonical);

  g_assert_cmpuint (archive->entries[0].type_id, ==, NRES_TYPE_MAT0);
  g_assert_cmpuint (archive->entries[0].attr1, ==, 0x41);
  g_assert_cmpuint (archive->entries[0].attr2, ==, 6);
  g_assert_cmpuint (archive->entries[0].attr3, ==, 0);
  g_assert_cmpuint (archive->entries[0].size, ==, 5);
  g_assert_cmpuint (archive->entries[0].data_offset, ==, 16);
  g_assert_cmpstr (archive->entries[0].name, ==, "Alpha");
  g_assert_cmpuint (archive->entries[0].sort_index, ==, 0);

  g_assert_cmpuint (archive->entries[1].type_id, ==, NRES_TYPE_TEXM);
  g_assert_cmpuint (archive->entries[1].attr3, ==, 7);
  g_assert_cmpuint (archive->entries[1].size, ==, 8);
  g_assert_cmpuint (archive->entries[1].data_offset, ==, 24);
  g_assert_cmpstr (archive->entries[1].name, ==, "beta");
  g_assert_cmpuint (archive->entries[1].sort_index, ==, 1);

  /* Other types and any attribute values are accepted and kept. */
  g_assert_cmpuint (archive->entries[2].type_id, ==, 0x12345678);
  g_assert_cmpuint (archive->entries[2].attr1, ==, 0xFFFFFFFF);
  g_assert_cmpuint (archive->entries[2].attr2, ==, 0x80000000);
  g_assert_cmpuint (archive->entries[2].attr3, ==, 0xDEADBEEF);
  g_assert_cmpuint (archive->entries[2].size, ==, 1);
  g_assert_cmpuint (archive->entries[2].data_offset, ==, 32);
  g_assert_cmpstr (archive->entries[2].name, ==, "Gamma");
  g_assert_cmpuint (archive->entries[2].sort_index, ==, 2);
}

static void
test_parse_unaligned (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = build_three (FALSE);
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (archive->total_size, ==, 16 + 5 + 8 + 1 + 192);
  g_assert_cmpuint (archive->directory_offset, ==, 30);
  g_assert_cmpuint (archive->entries[0].data_offset, ==, 16);
  g_assert_cmpuint (archive->entries[1].data_offset, ==, 21);
  g_assert_cmpuint (archive->entries[2].data_offset, ==, 29);
}

static void
test_parse_empty (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = test_build_archive (NULL, 0, TRUE);
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, &error);
  const guint8 expected[16] = { 'N', 'R', 'e', 's', 0, 1, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0 };

  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), expected, 16);
  g_assert_cmpuint (archive->n_entries, ==, 0);
  g_assert_cmpuint (archive->directory_offset, ==, 16);
  g_assert_true (archive->sort_index_valid);
  g_assert_true (archive->sort_index_canonical);
}

static void
test_parse_overlap_accepted (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);
  g_autoptr(NresArchive) archive = NULL;
  gsize size = 0;
  const guint8 *p;

  /* Gamma points into beta's payload. */
  set_u32 (array, 40 + 2 * 64 + 56, 26);
  archive = parse_array (array, &error);
  g_assert_no_error (error);
  p = nres_archive_payload (archive, 2, &size);
  g_assert_cmpuint (size, ==, 1);
  g_assert_cmpuint (p[0], ==, 0x12);
}

static void
test_parse_short (void)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();

  test_put_bytes (array, "NRes", 4);
  test_put_u32 (array, 0x100);
  test_put_u32 (array, 0);
  assert_parse_error (array, NRES_ERROR_TRUNCATED,
                      "(header): offset 0: expected at least 16 bytes, found 12");
}

static void
test_parse_bad_magic (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);

  array->data[3] = 't';
  assert_parse_error (array, NRES_ERROR_BAD_MAGIC,
                      "(header): offset 0: expected magic \"NRes\", found 4E 52 65 74");
  array->data[2] = 'E';
  assert_parse_error (array, NRES_ERROR_BAD_MAGIC,
                      "(header): offset 0: expected magic \"NRes\", found 4E 52 45 74");
}

static void
test_parse_bad_version (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);

  set_u32 (array, 4, 0x200);
  assert_parse_error (array, NRES_ERROR_BAD_VERSION,
                      "(header): offset 4: expected version 0x00000100, found 0x00000200");
  set_u32 (array, 4, 0);
  assert_parse_error (array, NRES_ERROR_BAD_VERSION,
                      "(header): offset 4: expected version 0x00000100, found 0x00000000");
}

static void
test_parse_negative_count (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);

  set_u32 (array, 8, 0xFFFFFFFF);
  assert_parse_error (array, NRES_ERROR_BAD_COUNT,
                      "(header): offset 8: expected entry count >= 0, found -1");
  set_u32 (array, 8, 0x80000000);
  assert_parse_error (array, NRES_ERROR_BAD_COUNT,
                      "(header): offset 8: expected entry count >= 0, found -2147483648");
}

static void
test_parse_count_overflow (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);
#define EXPECTED_FMT \
  "(directory): offset 8: expected at most 3 entries of 64 bytes after the 16-byte header in a file of 232 bytes, found %d"
  gint32 counts[] = {
    4,             /* one entry too many */
    0x7FFFFFFF,    /* the largest i32 */
    0x04000000,    /* * 64 = 2^32: wraps to 0 in 32 bits */
    0x04000003,    /* * 64 wraps to 192: the real directory size */
  };

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_autofree char *expected = g_strdup_printf (EXPECTED_FMT, counts[i]);

      set_u32 (array, 8, (guint32) counts[i]);
      assert_parse_error (array, NRES_ERROR_BAD_COUNT, expected);
    }
#undef EXPECTED_FMT
}

static void
test_parse_bad_total_size (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);

  set_u32 (array, 12, 233);
  assert_parse_error (array, NRES_ERROR_BAD_SIZE,
                      "(header): offset 12: expected total size 232 (the file size), found 233");
  set_u32 (array, 12, 0);
  assert_parse_error (array, NRES_ERROR_BAD_SIZE,
                      "(header): offset 12: expected total size 232 (the file size), found 0");

  /* One byte more in the file than the header says. */
  set_u32 (array, 12, 232);
  test_put_u8 (array, 0);
  assert_parse_error (array, NRES_ERROR_BAD_SIZE,
                      "(header): offset 12: expected total size 233 (the file size), found 232");
}

static void
test_parse_data_offset_low (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);

  /* beta's data_offset field: 40 + 64 + 56 = 160. */
  set_u32 (array, 160, 15);
  assert_parse_error (array, NRES_ERROR_BAD_ENTRY,
                      "beta: offset 160: expected data offset >= 16, found 15");
  set_u32 (array, 160, 0);
  assert_parse_error (array, NRES_ERROR_BAD_ENTRY,
                      "beta: offset 160: expected data offset >= 16, found 0");
}

static void
test_parse_data_offset_high (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);

  /* Gamma's data_offset field: 40 + 128 + 56 = 224. */
  set_u32 (array, 224, 41);
  assert_parse_error (array, NRES_ERROR_BAD_ENTRY,
                      "Gamma: offset 224: expected data offset <= 40 (the directory offset), found 41");
  set_u32 (array, 224, 0xFFFFFFFF);
  assert_parse_error (array, NRES_ERROR_BAD_ENTRY,
                      "Gamma: offset 224: expected data offset <= 40 (the directory offset), found 4294967295");
}

static void
test_parse_size_past_directory (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) archive = NULL;

  /* Gamma at 32: size 8 ends exactly at the directory, size 9 does not.
   * Its size field: 40 + 128 + 12 = 180. */
  set_u32 (array, 180, 8);
  archive = parse_array (array, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (archive->entries[2].size, ==, 8);

  set_u32 (array, 180, 9);
  assert_parse_error (array, NRES_ERROR_BAD_ENTRY,
                      "Gamma: offset 180: expected size <= 8 (data offset 32 up to the directory at 40), found 9");

  /* A data_offset + size that wraps around in 32 bits: 32 + 0xFFFFFFF0
   * would be 16. */
  set_u32 (array, 180, 0xFFFFFFF0);
  assert_parse_error (array, NRES_ERROR_BAD_ENTRY,
                      "Gamma: offset 180: expected size <= 8 (data offset 32 up to the directory at 40), found 4294967280");
  set_u32 (array, 180, 0xFFFFFFFF);
  assert_parse_error (array, NRES_ERROR_BAD_ENTRY,
                      "Gamma: offset 180: expected size <= 8 (data offset 32 up to the directory at 40), found 4294967295");

  /* Zero-size payload right at the directory is fine. */
  set_u32 (array, 180, 0);
  set_u32 (array, 224, 40);
  g_clear_pointer (&archive, nres_archive_free);
  archive = parse_array (array, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (archive->entries[2].data_offset, ==, 40);
}

static void
test_parse_name_without_nul (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);
  g_autofree char *expected = NULL;
  char name[37];

  /* beta's name field: 40 + 64 + 20 = 124. */
  memset (array->data + 124, 'X', 36);
  memset (name, 'X', 36);
  name[36] = 0;
  expected = g_strdup_printf ("%s: offset 124: expected a NUL within the 36-byte name field, found none", name);
  assert_parse_error (array, NRES_ERROR_BAD_NAME, expected);

  /* 35 bytes and the NUL in the last byte: fine. */
  array->data[124 + 35] = 0;
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(NresArchive) archive = parse_array (array, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (strlen (archive->entries[1].name), ==, 35);
  }
}

static void
test_parse_name_empty (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);

  /* Gamma's name field: 40 + 128 + 20 = 188; bytes after the NUL do not
   * make a name. */
  array->data[188] = 0;
  assert_parse_error (array, NRES_ERROR_BAD_NAME,
                      "entry #2: offset 188: expected a non-empty name, found an empty one");
}

static void
test_parse_cyrillic_name_in_message (void)
{
  const TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "\xC1\xF0\xEE\xED\xFF", payload_a, sizeof payload_a, 0 },   /* Броня */
  };
  g_autoptr(GBytes) bytes = test_build_archive (specs, 1, TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);

  /* directory at 24, data_offset field at 24 + 56 = 80. */
  set_u32 (array, 80, 4);
  assert_parse_error (array, NRES_ERROR_BAD_ENTRY,
                      "\xD0\x91\xD1\x80\xD0\xBE\xD0\xBD\xD1\x8F: offset 80: expected data offset >= 16, found 4");
}

static void
test_parse_bytes_after_nul_kept (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) archive = NULL;

  /* "Alpha\0" then garbage: name field at 40 + 20 = 60. */
  memset (array->data + 60 + 6, 0xCC, 30);
  archive = parse_array (array, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (archive->entries[0].name, ==, "Alpha");
  g_assert_cmpmem (archive->entries[0].name, 36, array->data + 60, 36);
  g_assert_cmpuint ((guint8) archive->entries[0].name[35], ==, 0xCC);
}

static void
test_parse_truncated_every_length (void)
{
  const TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "Alpha", payload_a, sizeof payload_a, 3 },
    { NRES_TYPE_TEXM, 0, 0, 0, "beta", payload_b, sizeof payload_b, 0 },
  };
  gboolean aligned[] = { TRUE, FALSE };

  for (guint a = 0; a < G_N_ELEMENTS (aligned); a++)
    {
      g_autoptr(GBytes) bytes = test_build_archive (specs, 2, aligned[a]);
      const guint8 *data = g_bytes_get_data (bytes, NULL);
      gsize len = g_bytes_get_size (bytes);

      for (gsize l = 0; l < len; l++)
        {
          /* A copy of exactly l bytes: any read past it is caught by ASan. */
          g_autoptr(GBytes) prefix = g_bytes_new (data, l);
          g_autoptr(GError) error = NULL;
          g_autoptr(NresArchive) archive = nres_archive_parse (prefix, &error);

          g_assert_null (archive);
          g_assert_nonnull (error);
          g_assert_true (error->domain == NRES_ERROR);
          if (l < 16)
            g_assert_error (error, NRES_ERROR, NRES_ERROR_TRUNCATED);
          else
            g_assert_error (error, NRES_ERROR, NRES_ERROR_BAD_SIZE);
        }

      /* Truncated with total_size patched to match: the directory no
       * longer fits or points past the data, still an error. */
      for (gsize l = 16; l < len; l++)
        {
          g_autoptr(GByteArray) array = g_byte_array_new ();
          g_autoptr(GError) error = NULL;
          g_autoptr(NresArchive) archive = NULL;

          g_byte_array_append (array, data, l);
          set_u32 (array, 12, (guint32) l);
          archive = parse_array (array, &error);
          g_assert_null (archive);
          g_assert_nonnull (error);
          g_assert_true (error->domain == NRES_ERROR);
        }
    }
}

static void
test_parse_garbage_no_crash (void)
{
  /* Random bytes under a valid header and a matching total size: an error
   * or an archive, never a crash or an out-of-bounds read. */
  GRand *rand = g_rand_new_with_seed (1251);

  for (guint round = 0; round < 2000; round++)
    {
      g_autoptr(GByteArray) array = g_byte_array_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(NresArchive) archive = NULL;
      guint count = g_rand_int_range (rand, 0, 4);
      guint data_len = g_rand_int_range (rand, 0, 40);

      test_put_bytes (array, "NRes", 4);
      test_put_u32 (array, 0x100);
      test_put_u32 (array, count);
      test_put_u32 (array, 16 + data_len + count * 64);
      for (guint i = 0; i < data_len + count * 64; i++)
        {
          guint8 b = g_rand_int_range (rand, 0, 4) == 0 ? 0 : (guint8) g_rand_int (rand);
          test_put_u8 (array, b);
        }
      for (guint i = 0; i < count; i++)
        {
          gsize entry = 16 + data_len + i * 64;

          if (g_rand_boolean (rand))
            set_u32 (array, entry + 56, g_rand_int_range (rand, 0, 16 + data_len + 8));
          if (g_rand_boolean (rand))
            set_u32 (array, entry + 12, g_rand_int_range (rand, 0, data_len + 8));
          if (g_rand_boolean (rand))
            array->data[entry + 20 + g_rand_int_range (rand, 1, 36)] = 0;
        }

      archive = parse_array (array, &error);
      g_assert_true ((archive == NULL) != (error == NULL));
      if (archive != NULL)
        {
          for (guint i = 0; i < archive->n_entries; i++)
            {
              g_autoptr(GBytes) payload = nres_archive_payload_bytes (archive, i);

              g_assert_cmpuint (g_bytes_get_size (payload), ==, archive->entries[i].size);
              nres_archive_find (archive, archive->entries[i].name);
            }
        }
    }

  g_rand_free (rand);
}

static void
test_sort_index_flags (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);
  struct {
    guint32  table[3];
    gboolean valid;
    gboolean canonical;
  } cases[] = {
    { { 0, 1, 2 }, TRUE, TRUE },
    { { 2, 1, 0 }, TRUE, FALSE },
    { { 1, 2, 0 }, TRUE, FALSE },
    { { 0, 0, 2 }, FALSE, FALSE },
    { { 0, 1, 3 }, FALSE, FALSE },
    { { 0xFFFFFFFF, 1, 2 }, FALSE, FALSE },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(NresArchive) archive = NULL;

      for (guint i = 0; i < 3; i++)
        set_u32 (array, 40 + i * 64 + 60, cases[c].table[i]);
      archive = parse_array (array, &error);
      g_assert_no_error (error);
      g_assert_cmpint (archive->sort_index_valid, ==, cases[c].valid);
      g_assert_cmpint (archive->sort_index_canonical, ==, cases[c].canonical);
      for (guint i = 0; i < 3; i++)
        g_assert_cmpuint (archive->entries[i].sort_index, ==, cases[c].table[i]);
    }
}

static void
test_payload (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, &error);
  g_autoptr(GBytes) pb = NULL;
  const guint8 *p;
  gsize size = 0;

  g_assert_no_error (error);
  p = nres_archive_payload (archive, 0, &size);
  g_assert_cmpmem (p, size, payload_a, sizeof payload_a);
  p = nres_archive_payload (archive, 1, &size);
  g_assert_cmpmem (p, size, payload_b, sizeof payload_b);
  g_assert_true (p == (const guint8 *) g_bytes_get_data (bytes, NULL) + 24);
  p = nres_archive_payload (archive, 2, NULL);
  g_assert_cmpuint (p[0], ==, 0xEE);

  pb = nres_archive_payload_bytes (archive, 1);
  g_assert_cmpmem (g_bytes_get_data (pb, NULL), g_bytes_get_size (pb), payload_b, sizeof payload_b);

  /* The archive keeps the file alive. */
  g_clear_pointer (&bytes, g_bytes_unref);
  p = nres_archive_payload (archive, 0, &size);
  g_assert_cmpmem (p, size, payload_a, sizeof payload_a);
}

/* Names chosen so the canonical order differs from the directory order
 * and folding matters: '_' (0x5F) sorts before letters only after
 * folding. */
static GBytes *
build_named (const char * const *names,
             guint                n)
{
  g_autofree TestEntrySpec *specs = g_new0 (TestEntrySpec, n);

  for (guint i = 0; i < n; i++)
    {
      specs[i].type_id = NRES_TYPE_MAT0;
      specs[i].name = names[i];
      specs[i].payload = payload_b;
      specs[i].size = i;
    }

  return test_build_archive (specs, n, TRUE);
}

static void
test_find_case_insensitive (void)
{
  const char *names[] = { "Zeta", "alpha", "MIDDLE", "_under", "Beta", "DEFAULT" };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = build_named (names, G_N_ELEMENTS (names));
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, &error);

  g_assert_no_error (error);
  g_assert_true (archive->sort_index_valid);
  g_assert_true (archive->sort_index_canonical);

  g_assert_cmpint (nres_archive_find (archive, "zeta"), ==, 0);
  g_assert_cmpint (nres_archive_find (archive, "ZETA"), ==, 0);
  g_assert_cmpint (nres_archive_find (archive, "Alpha"), ==, 1);
  g_assert_cmpint (nres_archive_find (archive, "middle"), ==, 2);
  g_assert_cmpint (nres_archive_find (archive, "_UNDER"), ==, 3);
  g_assert_cmpint (nres_archive_find (archive, "beta"), ==, 4);
  g_assert_cmpint (nres_archive_find (archive, "default"), ==, 5);
  g_assert_cmpint (nres_archive_find (archive, "gamma"), ==, -1);
  g_assert_cmpint (nres_archive_find (archive, ""), ==, -1);
  g_assert_cmpint (nres_archive_find (archive, "alph"), ==, -1);
  g_assert_cmpint (nres_archive_find (archive, "alphab"), ==, -1);
  g_assert_cmpint (nres_archive_find (archive,
                   "alpha_and_a_very_long_tail_past_the_36_byte_field"), ==, -1);
}

static void
test_find_non_canonical (void)
{
  const char *names[] = { "a", "b", "c" };
  g_autoptr(GBytes) bytes = build_named (names, 3);
  g_autoptr(GByteArray) array = mutable_copy (bytes);
  guint32 dir = g_bytes_get_size (bytes) - 3 * 64;
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) archive = NULL;

  /* Reversed: a permutation, so the engine still binary-searches, and
   * misses: for "a" it probes i = 1 ("b", go left), i = 0 ("c", go left),
   * gives up; "c" likewise. Only "b" at the middle is found. */
  set_u32 (array, dir + 0 * 64 + 60, 2);
  set_u32 (array, dir + 1 * 64 + 60, 1);
  set_u32 (array, dir + 2 * 64 + 60, 0);
  archive = parse_array (array, &error);
  g_assert_no_error (error);
  g_assert_true (archive->sort_index_valid);
  g_assert_false (archive->sort_index_canonical);
  g_assert_cmpint (nres_archive_find (archive, "A"), ==, -1);
  g_assert_cmpint (nres_archive_find (archive, "B"), ==, 1);
  g_assert_cmpint (nres_archive_find (archive, "C"), ==, -1);
  g_clear_pointer (&archive, nres_archive_free);

  /* Two entries with the same name (up to case): the canonical table
   * breaks the tie by index, the swapped table is not canonical but still
   * sorted, so the binary search finds one of them. */
  {
    const char *dup_names[] = { "same", "SAME" };
    g_autoptr(GBytes) dup = build_named (dup_names, 2);
    g_autoptr(GByteArray) dup_array = mutable_copy (dup);

    g_assert_cmpuint (test_get_u32 (dup_array->data + 16 + 8 + 60), ==, 0);
    g_assert_cmpuint (test_get_u32 (dup_array->data + 16 + 8 + 64 + 60), ==, 1);
    set_u32 (dup_array, 16 + 8 + 60, 1);
    set_u32 (dup_array, 16 + 8 + 64 + 60, 0);
    archive = parse_array (dup_array, &error);
    g_assert_no_error (error);
    g_assert_true (archive->sort_index_valid);
    g_assert_false (archive->sort_index_canonical);
    /* i = 1 first: entries[1].sort_index = 0. */
    g_assert_cmpint (nres_archive_find (archive, "Same"), ==, 0);
  }
}

static void
test_find_invalid_fallback (void)
{
  const char *names[] = { "c", "dup", "a", "DUP", "b" };
  g_autoptr(GBytes) bytes = build_named (names, G_N_ELEMENTS (names));
  g_autoptr(GByteArray) array = mutable_copy (bytes);
  guint32 dir = g_bytes_get_size (bytes) - 5 * 64;
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) archive = NULL;

  /* Canonical would be a(2) b(4) c(0) dup(1) DUP(3). */
  g_assert_cmpuint (test_get_u32 (array->data + dir + 0 * 64 + 60), ==, 2);
  g_assert_cmpuint (test_get_u32 (array->data + dir + 3 * 64 + 60), ==, 1);
  g_assert_cmpuint (test_get_u32 (array->data + dir + 4 * 64 + 60), ==, 3);

  /* A value out of range: linear scan, first match wins. */
  set_u32 (array, dir + 2 * 64 + 60, 5);
  archive = parse_array (array, &error);
  g_assert_no_error (error);
  g_assert_false (archive->sort_index_valid);
  g_assert_false (archive->sort_index_canonical);
  g_assert_cmpint (nres_archive_find (archive, "A"), ==, 2);
  g_assert_cmpint (nres_archive_find (archive, "b"), ==, 4);
  g_assert_cmpint (nres_archive_find (archive, "C"), ==, 0);
  g_assert_cmpint (nres_archive_find (archive, "Dup"), ==, 1);
  g_assert_cmpint (nres_archive_find (archive, "e"), ==, -1);
  g_clear_pointer (&archive, nres_archive_free);

  /* All zero: in range but not a permutation. */
  for (guint i = 0; i < 5; i++)
    set_u32 (array, dir + i * 64 + 60, 0);
  archive = parse_array (array, &error);
  g_assert_no_error (error);
  g_assert_false (archive->sort_index_valid);
  g_assert_cmpint (nres_archive_find (archive, "a"), ==, 2);
  g_assert_cmpint (nres_archive_find (archive, "DUP"), ==, 1);
  g_assert_cmpint (nres_archive_find (archive, "B"), ==, 4);
}

static void
test_find_empty (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = test_build_archive (NULL, 0, TRUE);
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, &error);

  g_assert_no_error (error);
  g_assert_cmpint (nres_archive_find (archive, "a"), ==, -1);
}

static void
test_resolve (void)
{
  const char *with_default[] = { "Rock", "Default", "Sand" };
  const char *without_default[] = { "Rock", "Sand" };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) b1 = build_named (with_default, 3);
  g_autoptr(GBytes) b2 = build_named (without_default, 2);
  g_autoptr(GBytes) b3 = test_build_archive (NULL, 0, TRUE);
  g_autoptr(NresArchive) a1 = nres_archive_parse (b1, &error);
  g_autoptr(NresArchive) a2 = nres_archive_parse (b2, &error);
  g_autoptr(NresArchive) a3 = nres_archive_parse (b3, &error);
  NresResolve how = NRES_RESOLVE_NONE;

  g_assert_no_error (error);

  g_assert_cmpint (nres_archive_resolve (a1, "SAND", &how), ==, 2);
  g_assert_cmpint (how, ==, NRES_RESOLVE_EXACT);
  g_assert_cmpint (nres_archive_resolve (a1, "default", &how), ==, 1);
  g_assert_cmpint (how, ==, NRES_RESOLVE_EXACT);
  g_assert_cmpint (nres_archive_resolve (a1, "Missing", &how), ==, 1);
  g_assert_cmpint (how, ==, NRES_RESOLVE_DEFAULT);

  g_assert_cmpint (nres_archive_resolve (a2, "Rock", &how), ==, 0);
  g_assert_cmpint (how, ==, NRES_RESOLVE_EXACT);
  g_assert_cmpint (nres_archive_resolve (a2, "Missing", &how), ==, 0);
  g_assert_cmpint (how, ==, NRES_RESOLVE_FIRST);
  g_assert_cmpint (nres_archive_resolve (a2, "Missing", NULL), ==, 0);

  how = NRES_RESOLVE_EXACT;
  g_assert_cmpint (nres_archive_resolve (a3, "Missing", &how), ==, -1);
  g_assert_cmpint (how, ==, NRES_RESOLVE_NONE);
}

static void
test_canonical_sort_index (void)
{
  NresEntry entries[5];
  guint32 out[5];
  const char *names[] = { "zeta", "Alpha", "beta", "ALPHA", "_x" };
  const guint32 expected[] = { 4, 1, 3, 2, 0 };

  memset (entries, 0, sizeof entries);
  for (guint i = 0; i < 5; i++)
    strcpy (entries[i].name, names[i]);
  /* Bytes after the NUL do not take part. */
  entries[1].name[10] = 'z';

  nres_canonical_sort_index (entries, 5, out);
  g_assert_cmpmem (out, sizeof out, expected, sizeof expected);

  /* The same table as the independent builder in tests/support. */
  {
    g_autoptr(GBytes) bytes = build_named (names, 5);
    const guint8 *data = g_bytes_get_data (bytes, NULL);
    guint32 dir = g_bytes_get_size (bytes) - 5 * 64;

    for (guint i = 0; i < 5; i++)
      g_assert_cmpuint (test_get_u32 (data + dir + i * 64 + 60), ==, expected[i]);
  }

  nres_canonical_sort_index (entries, 0, out);
}

/* Parses @bytes with the sort_index table replaced by @table. */
static NresArchive *
parse_with_table (GBytes        *bytes,
                  const guint32 *table,
                  guint          n)
{
  g_autoptr(GByteArray) array = mutable_copy (bytes);
  g_autoptr(GError) error = NULL;
  guint32 dir = g_bytes_get_size (bytes) - n * 64;
  NresArchive *archive;

  for (guint i = 0; i < n; i++)
    set_u32 (array, dir + i * 64 + 60, table[i]);
  archive = parse_array (array, &error);
  g_assert_no_error (error);
  g_assert_nonnull (archive);

  return archive;
}

/* The parser's check that the stored table is the canonical one works on
 * neighbours only (name order, ties by index); it must agree with the
 * sorted table of nres_canonical_sort_index. */
static void
test_sort_index_canonical_check (void)
{
  /* Equal names up to case, in both orders, and distinct ones. */
  const char *names[] = { "b", "A", "a", "B", "c", "_x", "SAME", "same", "Same" };
  const guint n = G_N_ELEMENTS (names);
  g_autoptr(GBytes) bytes = build_named (names, n);
  NresEntry entries[G_N_ELEMENTS (names)];
  guint32 canonical[G_N_ELEMENTS (names)];
  /* _x(5) A(1) a(2) b(0) B(3) c(4) SAME(6) same(7) Same(8): '_' (0x5F)
   * sorts before the folded letters. */
  const guint32 expected[] = { 5, 1, 2, 0, 3, 4, 6, 7, 8 };
  GRand *rand = g_rand_new_with_seed (7);

  memset (entries, 0, sizeof entries);
  for (guint i = 0; i < n; i++)
    strcpy (entries[i].name, names[i]);
  nres_canonical_sort_index (entries, n, canonical);
  g_assert_cmpmem (canonical, sizeof canonical, expected, sizeof expected);

  /* Canonical: as written by the builder, and as given explicitly. */
  {
    g_autoptr(NresArchive) a = nres_archive_parse (bytes, NULL);

    g_assert_true (a->sort_index_valid);
    g_assert_true (a->sort_index_canonical);
  }
  {
    g_autoptr(NresArchive) a = parse_with_table (bytes, expected, n);

    g_assert_true (a->sort_index_valid);
    g_assert_true (a->sort_index_canonical);
  }

  /* Equal names with the tie broken against the index: sorted by name,
   * still a permutation, not canonical. Each tie in turn. */
  {
    const guint32 ties[][G_N_ELEMENTS (names)] = {
      { 5, 2, 1, 0, 3, 4, 6, 7, 8 },   /* a(2) before A(1) */
      { 5, 1, 2, 3, 0, 4, 6, 7, 8 },   /* B(3) before b(0) */
      { 5, 1, 2, 0, 3, 4, 6, 8, 7 },   /* Same(8) before same(7) */
      { 5, 1, 2, 0, 3, 4, 8, 7, 6 },   /* the three reversed */
    };

    for (guint t = 0; t < G_N_ELEMENTS (ties); t++)
      {
        g_autoptr(NresArchive) a = parse_with_table (bytes, ties[t], n);

        g_assert_true (a->sort_index_valid);
        g_assert_false (a->sort_index_canonical);
      }
  }

  /* Valid permutations that are not sorted by name. */
  {
    const guint32 unsorted[][G_N_ELEMENTS (names)] = {
      { 0, 1, 2, 3, 4, 5, 6, 7, 8 },   /* the identity */
      { 5, 1, 2, 0, 3, 6, 4, 7, 8 },   /* c(4) and SAME(6) swapped */
      { 1, 2, 0, 3, 4, 6, 7, 8, 5 },   /* "_x" last */
      { 8, 7, 6, 5, 4, 3, 2, 1, 0 },
    };

    for (guint t = 0; t < G_N_ELEMENTS (unsorted); t++)
      {
        g_autoptr(NresArchive) a = parse_with_table (bytes, unsorted[t], n);

        g_assert_true (a->sort_index_valid);
        g_assert_false (a->sort_index_canonical);
      }
  }

  /* Random permutations: canonical exactly when equal to the sorted table. */
  for (guint round = 0; round < 500; round++)
    {
      guint32 table[G_N_ELEMENTS (names)];
      g_autoptr(NresArchive) a = NULL;

      memcpy (table, expected, sizeof table);
      /* Few swaps, so the canonical table itself comes up too. */
      for (guint s = g_rand_int_range (rand, 0, 3); s > 0; s--)
        {
          guint x = g_rand_int_range (rand, 0, n);
          guint y = g_rand_int_range (rand, 0, n);
          guint32 tmp = table[x];

          table[x] = table[y];
          table[y] = tmp;
        }
      a = parse_with_table (bytes, table, n);
      g_assert_true (a->sort_index_valid);
      g_assert_cmpint (a->sort_index_canonical, ==,
                       memcmp (table, expected, sizeof table) == 0);
    }

  /* One entry, and none, are canonical. */
  {
    const char *one[] = { "only" };
    g_autoptr(GBytes) b1 = build_named (one, 1);
    g_autoptr(NresArchive) a1 = nres_archive_parse (b1, NULL);
    g_autoptr(GBytes) b0 = build_named (NULL, 0);
    g_autoptr(NresArchive) a0 = nres_archive_parse (b0, NULL);

    g_assert_true (a1->sort_index_valid);
    g_assert_true (a1->sort_index_canonical);
    g_assert_true (a0->sort_index_valid);
    g_assert_true (a0->sort_index_canonical);
  }

  g_rand_free (rand);
}

static void
test_set_name (void)
{
  g_autoptr(GError) error = NULL;
  NresEntry entry;
  NresEntry before;
  guint8 expected[36] = { 0xC1, 0xF0, 0xEE, 0xED, 0xFF };
  char long_name[37];

  memset (&entry, 0xCC, sizeof entry);
  g_assert_true (nres_entry_set_name (&entry, "\xD0\x91\xD1\x80\xD0\xBE\xD0\xBD\xD1\x8F", &error));
  g_assert_no_error (error);
  g_assert_cmpmem (entry.name, 36, expected, 36);
  g_assert_cmpuint (entry.type_id, ==, 0xCCCCCCCC);
  g_assert_cmpuint (entry.data_offset, ==, 0xCCCCCCCC);

  memcpy (&before, &entry, sizeof entry);

  g_assert_false (nres_entry_set_name (&entry, "", &error));
  g_assert_error (error, CP1251_ERROR, CP1251_ERROR_EMPTY);
  g_clear_error (&error);

  memset (long_name, 'n', 36);
  long_name[36] = 0;
  g_assert_false (nres_entry_set_name (&entry, long_name, &error));
  g_assert_error (error, CP1251_ERROR, CP1251_ERROR_TOO_LONG);
  g_clear_error (&error);

  g_assert_false (nres_entry_set_name (&entry, "Rock\xE2\x9C\x93", &error));   /* ✓ */
  g_assert_error (error, CP1251_ERROR, CP1251_ERROR_UNREPRESENTABLE);
  g_assert_nonnull (strstr (error->message, "\xE2\x9C\x93"));
  g_assert_nonnull (strstr (error->message, "5"));
  g_clear_error (&error);

  g_assert_cmpmem (&entry, sizeof entry, &before, sizeof before);

  long_name[35] = 0;
  g_assert_true (nres_entry_set_name (&entry, long_name, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (entry.name, 35, long_name, 35);
  g_assert_cmpuint (entry.name[35], ==, 0);
}

static void
test_out_entries (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, &error);
  NresOutEntry *out;
  guint n_out = 0;

  g_assert_no_error (error);
  out = nres_out_entries_from_archive (archive, &n_out);
  g_assert_cmpuint (n_out, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpint (out[i].source, ==, (gint) i);
      g_assert_null (out[i].payload);
      g_assert_cmpmem (&out[i].entry, sizeof (NresEntry), &archive->entries[i], sizeof (NresEntry));
    }
  out[1].payload = g_bytes_new_static (payload_c, sizeof payload_c);
  nres_out_entries_free (out, n_out);
  nres_out_entries_free (NULL, 0);
}

/* names_distinct is proven only by a canonical table without equal
 * neighbours; anything else leaves it FALSE ("not proven"). */
static void
test_names_distinct (void)
{
  static const guint8 payload[8] = { 0 };
  TestEntrySpec distinct[3] = {
    { 0x3054414D, 0, 6, 0, "beta", payload, 8, 0 },
    { 0x3054414D, 0, 6, 0, "Alpha", payload, 8, 0 },
    { 0x3054414D, 0, 6, 0, "gamma", payload, 8, 0 },
  };
  TestEntrySpec twice[3] = {
    { 0x3054414D, 0, 6, 0, "beta", payload, 8, 0 },
    { 0x3054414D, 0, 6, 0, "Alpha", payload, 8, 0 },
    { 0x3054414D, 0, 6, 0, "BETA", payload, 8, 0 },
  };
  g_autoptr(GBytes) a = test_build_archive (distinct, 3, TRUE);
  g_autoptr(GBytes) b = test_build_archive (twice, 3, TRUE);
  g_autoptr(NresArchive) pa = nres_archive_parse (a, NULL);
  g_autoptr(NresArchive) pb = nres_archive_parse (b, NULL);
  g_autoptr(GByteArray) c = g_byte_array_new ();
  g_autoptr(GBytes) cb = NULL;
  g_autoptr(NresArchive) pc = NULL;
  gsize size;

  g_assert_true (pa->sort_index_canonical);
  g_assert_true (pa->names_distinct);
  g_assert_true (pb->sort_index_canonical);
  g_assert_false (pb->names_distinct);

  /* the distinct archive with its table swapped: not canonical, so not proven */
  {
    const guint8 *data = g_bytes_get_data (a, &size);

    g_byte_array_append (c, data, size);
  }
  {
    guint8 *dir = c->data + size - 3 * 64;
    guint8 t[4];

    memcpy (t, dir + 60, 4);
    memcpy (dir + 60, dir + 64 + 60, 4);
    memcpy (dir + 64 + 60, t, 4);
  }
  cb = g_bytes_new (c->data, c->len);
  {
    g_autoptr(GError) error = NULL;

    pc = nres_archive_parse (cb, &error);
    g_assert_no_error (error);
  }
  g_assert_true (pc->sort_index_valid);
  g_assert_false (pc->sort_index_canonical);
  g_assert_false (pc->names_distinct);
}

/* A count one or more too large moves the "directory" back into the last
 * payload: the count is named (offset 8), not a name field inside the
 * payload (offset 124 here). */
static void
test_parse_count_too_large (void)
{
  static guint8 payload[152];
  const TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "ONLY", payload, sizeof payload, 0 },
  };
  g_autoptr(GBytes) bytes = test_build_archive (specs, 1, TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);
  g_autoptr(GError) error = NULL;
  guint32 n = 0, offset = 0;

  /* 16 + 152 = 168: the directory; the file 232 bytes */
  g_assert_cmpuint (array->len, ==, 232);
  set_u32 (array, 8, 2);
  assert_parse_error (array, NRES_ERROR_BAD_COUNT,
                      "(header): offset 8: expected entry count 1 (with 2 the directory would begin at offset 104, inside the payloads), found 2");
  /* the checks before the payloads say the same */
  g_assert_true (nres_check_header (array->data, 16, array->len, &n, &offset, &error));
  g_assert_false (nres_check_directory (array->data + offset, n, offset, &error));
  g_assert_error (error, NRES_ERROR, NRES_ERROR_BAD_COUNT);
  g_assert_cmpstr (error->message, ==,
                   "(header): offset 8: expected entry count 1 (with 2 the directory would begin at offset 104, inside the payloads), found 2");

  /* not inside a payload: the entry is named, as before */
  set_u32 (array, 8, 1);
  array->data[168 + 20] = 0;
  assert_parse_error (array, NRES_ERROR_BAD_NAME,
                      "entry #0: offset 188: expected a non-empty name, found an empty one");
}

/* A broken first entry of a sound directory is not blamed on the count. */
static void
test_parse_first_entry_broken (void)
{
  g_autoptr(GBytes) bytes = build_three (TRUE);
  g_autoptr(GByteArray) array = mutable_copy (bytes);

  array->data[40 + 20] = 0;   /* Alpha's name */
  assert_parse_error (array, NRES_ERROR_BAD_NAME,
                      "entry #0: offset 60: expected a non-empty name, found an empty one");
}

/* Large unindexed regions are gaps; small ones, and the 8 bytes after a
 * payload, are held. */
static void
test_find_gaps (void)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();
  guint n_gaps = 0;
  g_autofree NresGap *gaps = NULL;
  /* payload A 16..116, unindexed to 10000, payload B 10000..10010 (listed
   * first), unindexed 10010..10100 (small), directory at 10100 + 8192 */
  guint8 dir[128] = { 0 };

  memcpy (dir + 20, "B", 1);
  dir[56] = 10000 & 0xff; dir[57] = 10000 >> 8; dir[12] = 10;
  memcpy (dir + 64 + 20, "A", 1);
  dir[64 + 56] = 16; dir[64 + 12] = 100;
  gaps = nres_find_gaps (dir, 2, 10100 + 8192, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 2);
  g_assert_cmpuint (gaps[0].offset, ==, 124);
  g_assert_cmpuint (gaps[0].length, ==, 10000 - 124);
  g_assert_cmpuint (gaps[1].offset, ==, 10018);
  g_assert_cmpuint (gaps[1].length, ==, 10100 + 8192 - 10018);
  g_clear_pointer (&gaps, g_free);

  /* below NRES_GAP_MIN: none */
  gaps = nres_find_gaps (dir, 2, 10018 + NRES_GAP_MIN - 1, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 1);
  g_clear_pointer (&gaps, g_free);
  gaps = nres_find_gaps (NULL, 0, 24 + NRES_GAP_MIN - 1, &n_gaps);
  g_assert_null (gaps);
  g_assert_cmpuint (n_gaps, ==, 0);
  gaps = nres_find_gaps (NULL, 0, 24 + NRES_GAP_MIN, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 1);
  g_assert_cmpuint (gaps[0].offset, ==, 24);
}

/* The file less its gaps parses as the whole file does, payloads in place. */
static void
test_parse_held (void)
{
  g_autoptr(GByteArray) file = g_byte_array_new ();
  g_autoptr(GByteArray) held = g_byte_array_new ();
  g_autoptr(GBytes) held_bytes = NULL;
  g_autoptr(GBytes) whole = NULL;
  g_autoptr(NresArchive) a = NULL;
  g_autoptr(NresArchive) b = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *p;
  gsize size;

  /* header, 20000 unindexed bytes, a 5-byte payload at 20016, directory */
  g_byte_array_set_size (file, 20024 + 64);
  memset (file->data, 0x5a, file->len);
  memcpy (file->data, "NRes", 4);
  set_u32 (file, 4, 0x100);
  set_u32 (file, 8, 1);
  set_u32 (file, 12, file->len);
  memset (file->data + 20024, 0, 64);
  memcpy (file->data + 20024 + 20, "ONE", 4);
  set_u32 (file, 20024 + 12, 5);
  set_u32 (file, 20024 + 56, 20016);
  memcpy (file->data + 20016, "\1\2\3\4\5", 5);

  whole = g_bytes_new (file->data, file->len);
  a = nres_archive_parse (whole, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (a->n_gaps, ==, 0);

  /* held: 0..24 and 20016.. */
  g_byte_array_append (held, file->data, 24);
  g_byte_array_append (held, file->data + 20016, file->len - 20016);
  held_bytes = g_bytes_new (held->data, held->len);
  b = nres_archive_parse_held (held_bytes, file->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (b->n_gaps, ==, 1);
  g_assert_cmpuint (b->gaps[0].offset, ==, 24);
  g_assert_cmpuint (b->gaps[0].length, ==, 20016 - 24);
  g_assert_cmpuint (b->entries[0].data_offset, ==, 20016);
  p = nres_archive_payload (b, 0, &size);
  g_assert_cmpuint (size, ==, 5);
  g_assert_cmpmem (p, 5, "\1\2\3\4\5", 5);

  /* a held image of the wrong size is refused */
  g_clear_pointer (&b, nres_archive_free);
  b = nres_archive_parse_held (held_bytes, file->len + 8, &error);
  g_assert_null (b);
  g_assert_nonnull (error);
}

static gboolean
fill_from_file (const NresGapCopy  *copies,
                guint               n_copies,
                gpointer            user_data,
                GError            **error)
{
  GByteArray *file = user_data;

  for (guint i = 0; i < n_copies; i++)
    memcpy (copies[i].dest, file->data + copies[i].offset, copies[i].length);
  return TRUE;
}

/* The preserving writer of an archive with gaps: the same bytes as from the
 * whole file, the gaps from the reader; without a reader, a clear error. */
static void
test_write_held (void)
{
  g_autoptr(GByteArray) file = g_byte_array_new ();
  g_autoptr(GByteArray) held = g_byte_array_new ();
  g_autoptr(GBytes) whole = NULL;
  g_autoptr(GBytes) held_bytes = NULL;
  g_autoptr(NresArchive) a = NULL;
  g_autoptr(NresArchive) b = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 entry_at[2] = { 16, 30016 };

  /* two 5-byte payloads, 30000 unindexed bytes after each */
  g_byte_array_set_size (file, 60016 + 128);
  for (guint i = 0; i < file->len; i++)
    file->data[i] = (guint8) (i * 13 + 1);
  memcpy (file->data, "NRes", 4);
  set_u32 (file, 4, 0x100);
  set_u32 (file, 8, 2);
  set_u32 (file, 12, file->len);
  memset (file->data + 60016, 0, 128);
  for (guint e = 0; e < 2; e++)
    {
      gsize d = 60016 + e * 64;

      file->data[d + 20] = (guint8) ('A' + e);
      set_u32 (file, d + 12, 5);
      set_u32 (file, d + 56, entry_at[e]);
      set_u32 (file, d + 60, e);
    }
  whole = g_bytes_new (file->data, file->len);
  a = nres_archive_parse (whole, &error);
  g_assert_no_error (error);
  {
    guint n = 0;
    g_autofree NresGap *gaps = nres_find_gaps (file->data + 60016, 2, 60016, &n);
    guint64 pos = 0;

    g_assert_cmpuint (n, ==, 2);
    for (guint i = 0; i < n; i++)
      {
        g_byte_array_append (held, file->data + pos, gaps[i].offset - pos);
        pos = (guint64) gaps[i].offset + gaps[i].length;
      }
    g_byte_array_append (held, file->data + pos, file->len - pos);
  }
  held_bytes = g_bytes_new (held->data, held->len);
  b = nres_archive_parse_held (held_bytes, file->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (b->n_gaps, ==, 2);

  for (guint edit = 0; edit < 3; edit++)
    {
      guint n_a, n_b;
      NresOutEntry *out_a = nres_out_entries_from_archive (a, &n_a);
      NresOutEntry *out_b = nres_out_entries_from_archive (b, &n_b);
      g_autoptr(GBytes) from_whole = NULL;
      g_autoptr(GBytes) from_held = NULL;

      if (edit == 1)   /* the first payload grows: everything after shifts */
        {
          out_a[0].payload = g_bytes_new_static ("longer payload", 14);
          out_b[0].payload = g_bytes_new_static ("longer payload", 14);
        }
      else if (edit == 2)   /* the first entry removed */
        {
          out_a[0] = out_a[1];
          out_b[0] = out_b[1];
          n_a = n_b = 1;
        }

      from_whole = nres_write_preserving (a, out_a, n_a, &error);
      g_assert_no_error (error);
      /* no reader: the gaps' bytes are not at hand */
      from_held = nres_write_preserving (b, out_b, n_b, &error);
      g_assert_null (from_held);
      g_assert_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT);
      g_clear_error (&error);
      nres_archive_set_gap_reader (b, fill_from_file, file, NULL);
      from_held = nres_write_preserving (b, out_b, n_b, &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (from_held, from_whole));
      if (edit == 0)
        g_assert_true (g_bytes_equal (from_held, whole));
      nres_archive_set_gap_reader (b, NULL, NULL, NULL);
      nres_out_entries_free (out_a, n_a);
      nres_out_entries_free (out_b, n_b);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/nres/parse/valid", test_parse_valid);
  g_test_add_func ("/core/nres/parse/unaligned", test_parse_unaligned);
  g_test_add_func ("/core/nres/parse/empty", test_parse_empty);
  g_test_add_func ("/core/nres/parse/overlap-accepted", test_parse_overlap_accepted);
  g_test_add_func ("/core/nres/parse/bytes-after-nul-kept", test_parse_bytes_after_nul_kept);
  g_test_add_func ("/core/nres/parse/short", test_parse_short);
  g_test_add_func ("/core/nres/parse/bad-magic", test_parse_bad_magic);
  g_test_add_func ("/core/nres/parse/bad-version", test_parse_bad_version);
  g_test_add_func ("/core/nres/parse/negative-count", test_parse_negative_count);
  g_test_add_func ("/core/nres/parse/count-overflow", test_parse_count_overflow);
  g_test_add_func ("/core/nres/parse/count-too-large", test_parse_count_too_large);
  g_test_add_func ("/core/nres/parse/first-entry-broken", test_parse_first_entry_broken);
  g_test_add_func ("/core/nres/gaps/find", test_find_gaps);
  g_test_add_func ("/core/nres/gaps/parse-held", test_parse_held);
  g_test_add_func ("/core/nres/gaps/write-held", test_write_held);
  g_test_add_func ("/core/nres/parse/bad-total-size", test_parse_bad_total_size);
  g_test_add_func ("/core/nres/parse/data-offset-low", test_parse_data_offset_low);
  g_test_add_func ("/core/nres/parse/data-offset-high", test_parse_data_offset_high);
  g_test_add_func ("/core/nres/parse/size-past-directory", test_parse_size_past_directory);
  g_test_add_func ("/core/nres/parse/name-without-nul", test_parse_name_without_nul);
  g_test_add_func ("/core/nres/parse/name-empty", test_parse_name_empty);
  g_test_add_func ("/core/nres/parse/cyrillic-name-in-message", test_parse_cyrillic_name_in_message);
  g_test_add_func ("/core/nres/parse/truncated-every-length", test_parse_truncated_every_length);
  g_test_add_func ("/core/nres/parse/garbage-no-crash", test_parse_garbage_no_crash);
  g_test_add_func ("/core/nres/parse/sort-index-flags", test_sort_index_flags);
  g_test_add_func ("/core/nres/payload", test_payload);
  g_test_add_func ("/core/nres/find/case-insensitive", test_find_case_insensitive);
  g_test_add_func ("/core/nres/find/non-canonical", test_find_non_canonical);
  g_test_add_func ("/core/nres/find/invalid-fallback", test_find_invalid_fallback);
  g_test_add_func ("/core/nres/find/empty", test_find_empty);
  g_test_add_func ("/core/nres/resolve", test_resolve);
  g_test_add_func ("/core/nres/canonical-sort-index", test_canonical_sort_index);
  g_test_add_func ("/core/nres/parse/sort-index-canonical-check", test_sort_index_canonical_check);
  g_test_add_func ("/core/nres/parse/names-distinct", test_names_distinct);
  g_test_add_func ("/core/nres/set-name", test_set_name);
  g_test_add_func ("/core/nres/out-entries", test_out_entries);

  return g_test_run ();
}
