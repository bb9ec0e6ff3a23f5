/* test-edits.c - size-changing MAT0 edits through the preserving writer
 *
 * Adding or removing a phase, a key or a block, adding or removing a
 * material and renaming one must keep every other payload and every
 * unindexed region byte for byte, and give a file the strict reader
 * accepts.
 */
#include "config.h"

#include <string.h>

#include "mat0.h"
#include "mat0-validate.h"
#include "nres.h"
#include "test-support.h"

#define N_ENTRIES 4

typedef struct {
  GBytes      *file;
  NresArchive *archive;
  GBytes      *payloads[N_ENTRIES];
} Fixture;

/* Four materials; gaps (unindexed bytes) after entries 0, 2 and 3, and an
 * unaligned payload size in between. */
static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  static const char *names[N_ENTRIES] = { "DEFAULT", "WORKED", "ROCK", "WATER" };
  TestEntrySpec specs[N_ENTRIES];

  for (guint i = 0; i < N_ENTRIES; i++)
    {
      if (i == 1)
        f->payloads[i] = test_worked_example_payload (1);
      else
        {
          g_autoptr(GByteArray) a = g_byte_array_new ();
          guint8 p[18];

          for (guint j = 0; j < 18; j++)
            p[j] = (guint8) (i * 20 + j);
          test_put_u16 (a, 1 + (i == 2));
          test_put_u16 (a, 0);
          test_put_u8 (a, 255);
          test_put_u8 (a, 255);
          test_put_u32 (a, 0x3F800000);
          test_put_u32 (a, i);
          test_put_phase (a, p, "ROCK.0");
          if (i == 2)
            test_put_phase (a, p, "LAVA.A");
          f->payloads[i] = g_byte_array_free_to_bytes (g_steal_pointer (&a));
        }
      specs[i] = (TestEntrySpec) { NRES_TYPE_MAT0, 0x41, 6, 0, names[i], NULL, 0, i == 1 ? 0 : 3 + i };
      specs[i].payload = g_bytes_get_data (f->payloads[i], &specs[i].size);
    }
  f->file = test_build_archive (specs, N_ENTRIES, TRUE);
  f->archive = nres_archive_parse (f->file, NULL);
  g_assert_nonnull (f->archive);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  for (guint i = 0; i < N_ENTRIES; i++)
    g_bytes_unref (f->payloads[i]);
  nres_archive_free (f->archive);
  g_bytes_unref (f->file);
}

/* The gap after entry @i in the original file (unindexed bytes 0xA0 + i). */
static void
assert_gap_kept (const NresArchive *out, guint i, guint index_in_out)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (out->bytes, &size);
  const NresEntry *e = &out->entries[index_in_out];
  gsize end = e->data_offset + e->size;
  gsize n = 3 + i;

  /* padding to 8, then the gap verbatim */
  end = (end + 7) & ~(gsize) 7;
  for (gsize k = 0; k < n; k++)
    g_assert_cmpuint (data[end + k], ==, 0xA0 + i);
}

/* Writes @out, checks it strictly, and that every entry but @changed keeps
 * its payload and (for entries with one) its unindexed gap. */
static NresArchive *
write_and_check (Fixture *f, NresOutEntry *out, guint n_out, gint changed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = nres_write_preserving (f->archive, out, n_out, &error);
  NresArchive *archive;
  g_autoptr(GPtrArray) diags = NULL;

  g_assert_no_error (error);
  archive = nres_archive_parse (bytes, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (archive->n_entries, ==, n_out);
  diags = mat0_validate_archive (archive);
  for (guint i = 0; i < diags->len; i++)
    g_assert_cmpint (((Mat0Diagnostic *) diags->pdata[i])->severity, !=, MAT0_SEVERITY_ERROR);

  for (guint i = 0; i < n_out; i++)
    {
      gint src = out[i].source;
      gsize size;
      const guint8 *payload = nres_archive_payload (archive, i, &size);

      /* a new payload starts aligned; a kept one keeps its alignment (the
       * unindexed gaps make some of them unaligned on purpose) */
      if (src < 0)
        g_assert_cmpuint (archive->entries[i].data_offset % 8, ==, 0);
      else
        g_assert_cmpuint (archive->entries[i].data_offset % 8, ==,
                          f->archive->entries[src].data_offset % 8);
      if (src < 0 || src == changed)
        continue;
      g_assert_cmpmem (payload, size, g_bytes_get_data (f->payloads[src], NULL),
                       g_bytes_get_size (f->payloads[src]));
      if (src != 1)
        assert_gap_kept (archive, (guint) src, i);
    }
  return archive;
}

static Mat0Material *
decode (Fixture *f, guint i)
{
  gsize size;
  const guint8 *data = nres_archive_payload (f->archive, i, &size);

  return mat0_decode (data, size, 6, "x", 0, NULL);
}

static void
edit_material (Fixture *f, guint index, void (*edit) (Mat0Material *m))
{
  g_autoptr(Mat0Material) m = decode (f, index);
  g_autoptr(NresArchive) result = NULL;
  g_autoptr(Mat0Material) again = NULL;
  NresOutEntry *out;
  guint n_out;
  gsize size;
  const guint8 *data;

  edit (m);
  out = nres_out_entries_from_archive (f->archive, &n_out);
  out[index].payload = mat0_encode (m);
  result = write_and_check (f, out, n_out, (gint) index);
  data = nres_archive_payload (result, index, &size);
  again = mat0_decode (data, size, 6, "x", 0, NULL);
  g_assert_true (mat0_material_equal (m, again));
  /* the directory keeps its sort_index: no name changed */
  for (guint i = 0; i < n_out; i++)
    g_assert_cmpuint (result->entries[i].sort_index, ==, f->archive->entries[i].sort_index);
  nres_out_entries_free (out, n_out);
}

static void
add_phase (Mat0Material *m)
{
  m->phases = g_renew (Mat0Phase, m->phases, m->n_phases + 1);
  memset (&m->phases[m->n_phases], 7, sizeof (Mat0Phase));
  m->n_phases++;
}

static void
remove_phase (Mat0Material *m)
{
  m->n_phases--;
}

static void
add_key (Mat0Material *m)
{
  Mat0Block *b = &m->blocks[0];

  b->keys = g_renew (Mat0Key, b->keys, b->n_keys + 1);
  b->keys[b->n_keys] = (Mat0Key) { 0, 250, 0 };
  b->n_keys++;
}

static void
remove_key (Mat0Material *m)
{
  m->blocks[0].n_keys--;
}

static void
add_block (Mat0Material *m)
{
  m->blocks = g_renew (Mat0Block, m->blocks, m->n_blocks + 1);
  m->blocks[m->n_blocks] = (Mat0Block) { (0x1Fu << 3), 1, g_new0 (Mat0Key, 1) };
  m->blocks[m->n_blocks].keys[0].k1 = 1000;
  m->n_blocks++;
}

static void
remove_block (Mat0Material *m)
{
  g_free (m->blocks[0].keys);
  m->blocks[0] = m->blocks[m->n_blocks - 1];
  m->n_blocks--;
}

static void
test_phase_add (Fixture *f, gconstpointer d)
{
  edit_material (f, 0, add_phase);
  edit_material (f, 2, add_phase);
}

static void
test_phase_remove (Fixture *f, gconstpointer d)
{
  edit_material (f, 2, remove_phase);
}

static void
test_key_add_remove (Fixture *f, gconstpointer d)
{
  edit_material (f, 1, add_key);
  edit_material (f, 1, remove_key);
}

static void
test_block_add_remove (Fixture *f, gconstpointer d)
{
  edit_material (f, 1, add_block);
  edit_material (f, 3, add_block);
  edit_material (f, 1, remove_block);
}

static void
test_material_add_remove (Fixture *f, gconstpointer d)
{
  g_autoptr(NresArchive) added = NULL;
  g_autoptr(NresArchive) removed = NULL;
  g_autoptr(Mat0Material) fresh = mat0_material_new_canonical ();
  g_autoptr(GError) error = NULL;
  NresOutEntry *out;
  guint n_out;

  out = nres_out_entries_from_archive (f->archive, &n_out);
  out = g_renew (NresOutEntry, out, n_out + 1);
  memset (&out[n_out], 0, sizeof out[n_out]);
  out[n_out].source = -1;
  out[n_out].entry.type_id = NRES_TYPE_MAT0;
  out[n_out].entry.attr2 = 6;
  nres_entry_set_name (&out[n_out].entry, "ARMOR", &error);
  g_assert_no_error (error);
  out[n_out].payload = mat0_encode (fresh);
  added = write_and_check (f, out, n_out + 1, -1);
  g_assert_cmpuint (added->entries[n_out].size, ==, 48);
  g_assert_true (added->sort_index_canonical);
  nres_out_entries_free (out, n_out + 1);

  /* remove WORKED (index 1): the others keep payloads and gaps */
  out = nres_out_entries_from_archive (f->archive, &n_out);
  g_clear_pointer (&out[1].payload, g_bytes_unref);
  memmove (&out[1], &out[2], 2 * sizeof (NresOutEntry));
  removed = write_and_check (f, out, n_out - 1, -1);
  g_assert_cmpint (nres_archive_find (removed, "worked"), ==, -1);
  g_assert_true (removed->sort_index_canonical);
  nres_out_entries_free (out, n_out - 1);
}

static void
test_rename (Fixture *f, gconstpointer d)
{
  g_autoptr(NresArchive) renamed = NULL;
  g_autoptr(GError) error = NULL;
  NresOutEntry *out;
  guint n_out;

  out = nres_out_entries_from_archive (f->archive, &n_out);
  nres_entry_set_name (&out[3].entry, "AAA_WATER", &error);
  g_assert_no_error (error);
  renamed = write_and_check (f, out, n_out, -1);
  g_assert_cmpint (nres_archive_find (renamed, "aaa_water"), ==, 3);
  g_assert_true (renamed->sort_index_canonical);
  /* same length payloads, same offsets: only the directory changed */
  g_assert_cmpuint (g_bytes_get_size (renamed->bytes), ==, g_bytes_get_size (f->file));
  nres_out_entries_free (out, n_out);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/core/edits/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("phase-add", test_phase_add);
  ADD ("phase-remove", test_phase_remove);
  ADD ("key-add-remove", test_key_add_remove);
  ADD ("block-add-remove", test_block_add_remove);
  ADD ("material-add-remove", test_material_add_remove);
  ADD ("rename", test_rename);
#undef ADD

  return g_test_run ();
}
