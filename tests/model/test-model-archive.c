/* test-model-archive.c - the .rlb model archive: its models, WEAR edits
 * as undo steps, and its save
 *
 * The demo game folder's archives open with their models and rows; a
 * WEAR edit (a row's name, a row added, several models at once) is one
 * step of the archive's history, changes only the bytes models.md 3
 * names, and undo and redo give the very bytes back; refused edits
 * change nothing. On disk: saved byte for byte (the unindexed bytes
 * read back from the file, mode and extended attributes kept, backups),
 * every failing system call leaving the file as it was and the archive
 * dirty, drafts written and restored byte for byte, bad input refused
 * with a message. The set of open archives counts the dirty ones.
 */
#define _GNU_SOURCE 1   /* memmem */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "mat-archive-set.h"
#include "mat-drafts.h"
#include "mat-library.h"
#include "mat-model-archive.h"
#include "nres.h"
#include "test-faults.h"
#include "test-mesh.h"
#include "test-support.h"

#define XATTR_NAME  "user.parkan-test"
#define XATTR_VALUE "kept across saves"

/* ---- archives built byte by byte --------------------------------------- */

static const char box_wear[] = "3\r\n0 RED\r\n1 GREEN\r\n2 BLUE\r\n";
static const char crate_wear[] = "1\n0\tWOOD  \n\nLIGHTMAPS\n1\n0 crate_lm\n";
static const char sky_wear[] = "2\r\n0 SKY_DAY\r\n1 SKY_NIGHT\r\n";

static GBytes *
small_mesh (void)
{
  TestMesh *mesh = test_mesh_new ();
  GBytes *bytes;

  test_mesh_stream (mesh, 10, 0, 0, "kept", 4);
  bytes = test_mesh_build (mesh);
  test_mesh_free (mesh);
  return bytes;
}

/* box.msh + box.wea, crate.msh + crate.wea (LF, tabs, a lightmap), a
 * Texm-typed member that is neither, sky.wea alone, 8-byte aligned, with
 * @gap unindexed bytes after the crate's wear. */
static GBytes *
models_archive (gsize gap)
{
  g_autoptr(GBytes) mesh = small_mesh ();
  const guint8 *m = g_bytes_get_data (mesh, NULL);
  gsize n = g_bytes_get_size (mesh);
  static const guint8 other[] = { 1, 2, 3, 4, 5 };
  TestEntrySpec specs[] = {
    { NRES_TYPE_MESH, 11, 12, 13, "box.msh", m, n, 0 },
    { NRES_TYPE_WEAR, 21, 22, 23, "box.wea", (const guint8 *) box_wear, strlen (box_wear), 0 },
    { NRES_TYPE_MESH, 31, 32, 33, "Crate.MSH", m, n, 0 },
    { NRES_TYPE_WEAR, 41, 42, 43, "crate.wea", (const guint8 *) crate_wear, strlen (crate_wear), gap },
    { NRES_TYPE_TEXM, 51, 52, 53, "other", other, sizeof other, 0 },
    { NRES_TYPE_WEAR, 61, 62, 63, "sky.wea", (const guint8 *) sky_wear, strlen (sky_wear), 0 },
  };

  return test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
}

static MatModelArchive *
from_bytes (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  MatModelArchive *archive = mat_model_archive_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (archive);
  return archive;
}

static GBytes *
now_bytes (MatModelArchive *archive)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = mat_archive_save_to_bytes (MAT_ARCHIVE (archive), &error);

  g_assert_no_error (error);
  return bytes;
}

static void
assert_bytes_equal (GBytes *a,
                    GBytes *b)
{
  g_assert_cmpmem (g_bytes_get_data (a, NULL), g_bytes_get_size (a),
                   g_bytes_get_data (b, NULL), g_bytes_get_size (b));
}

/* The offset of @needle in @bytes (asserted found). */
static gsize
offset_of (GBytes     *bytes,
           const char *needle)
{
  gsize n = 0;
  const guint8 *data = g_bytes_get_data (bytes, &n);
  const guint8 *found = memmem (data, n, needle, strlen (needle));

  g_assert_nonnull (found);
  return (gsize) (found - data);
}

/* @bytes with @len bytes at @offset replaced by @with. */
static GBytes *
patched (GBytes     *bytes,
         gsize       offset,
         const char *with)
{
  gsize n = g_bytes_get_size (bytes);
  guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, NULL), n);

  g_assert_cmpuint (offset + strlen (with), <=, n);
  memcpy (copy + offset, with, strlen (with));
  return g_bytes_new_take (copy, n);
}

static NresArchive *
parse (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  NresArchive *archive = nres_archive_parse (bytes, &error);

  g_assert_no_error (error);
  return archive;
}

/* @after is @before with member @changed's payload now @payload
 * (member -1: none changed): the header, every other payload, every
 * directory field but the changed size and the later offsets, the
 * padding (zero, to 8 bytes where it was) and the unindexed bytes are as
 * they were. */
static void
assert_only_member (GBytes     *before,
                    GBytes     *after,
                    gint        changed,
                    const char *payload)
{
  g_autoptr(NresArchive) a = parse (before);
  g_autoptr(NresArchive) b = parse (after);
  const guint8 *da = g_bytes_get_data (before, NULL);
  const guint8 *db = g_bytes_get_data (after, NULL);

  g_assert_cmpmem (da, 12, db, 12);
  g_assert_cmpuint (a->n_entries, ==, b->n_entries);
  for (guint i = 0; i < a->n_entries; i++)
    {
      const NresEntry *ea = &a->entries[i], *eb = &b->entries[i];
      gsize sa = 0, sb = 0;
      const guint8 *pa = nres_archive_payload (a, i, &sa);
      const guint8 *pb = nres_archive_payload (b, i, &sb);
      guint32 end_a = i + 1 < a->n_entries ? a->entries[i + 1].data_offset : a->directory_offset;
      guint32 end_b = i + 1 < b->n_entries ? b->entries[i + 1].data_offset : b->directory_offset;

      g_assert_cmpuint (eb->type_id, ==, ea->type_id);
      g_assert_cmpuint (eb->attr1, ==, ea->attr1);
      g_assert_cmpuint (eb->attr2, ==, ea->attr2);
      g_assert_cmpuint (eb->attr3, ==, ea->attr3);
      g_assert_cmpuint (eb->sort_index, ==, ea->sort_index);
      g_assert_cmpmem (eb->name, NRES_NAME_SIZE, ea->name, NRES_NAME_SIZE);
      g_assert_cmpuint (eb->data_offset % 8, ==, ea->data_offset % 8);
      if ((gint) i < changed || changed < 0)
        g_assert_cmpuint (eb->data_offset, ==, ea->data_offset);
      if ((gint) i == changed)
        g_assert_cmpmem (pb, sb, payload, strlen (payload));
      else
        {
          g_assert_cmpmem (pb, sb, pa, sa);
          /* what follows the payload: padding and unindexed bytes */
          g_assert_cmpmem (db + eb->data_offset + sb, end_b - eb->data_offset - sb,
                           da + ea->data_offset + sa, end_a - ea->data_offset - sa);
        }
      if ((gint) i == changed)
        for (guint32 p = eb->data_offset + (guint32) sb; p < end_b && (p % 8) != 0; p++)
          g_assert_cmpuint (db[p], ==, 0);
    }
}

typedef struct {
  guint wear_changed;
  guint changed[8];
  guint n_rows[8];
} Counts;

static void
count_archive (MatModelArchive *archive,
               Counts          *counts)
{
  counts->wear_changed++;
}

static void
count_entry (MatModelEntry *entry,
             guint         *count)
{
  (*count)++;
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
watch (MatModelArchive *archive,
       Counts          *counts)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (archive));

  memset (counts, 0, sizeof *counts);
  g_assert_cmpuint (n, <=, G_N_ELEMENTS (counts->changed));
  g_signal_connect (archive, "wear-changed", G_CALLBACK (count_archive), counts);
  for (guint i = 0; i < n; i++)
    {
      MatModelEntry *entry = mat_model_archive_get_model (archive, i);

      g_signal_connect (entry, "changed", G_CALLBACK (count_entry), &counts->changed[i]);
      g_signal_connect (entry, "notify::n-rows", G_CALLBACK (count_notify), &counts->n_rows[i]);
    }
}

static void
unwatch (MatModelArchive *archive,
         Counts          *counts)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (archive));

  g_signal_handlers_disconnect_by_data (archive, counts);
  for (guint i = 0; i < n; i++)
    {
      MatModelEntry *entry = mat_model_archive_get_model (archive, i);

      g_signal_handlers_disconnect_by_data (entry, &counts->changed[i]);
      g_signal_handlers_disconnect_by_data (entry, &counts->n_rows[i]);
    }
}

/* ---- the demo game folder -------------------------------------------------- */

typedef struct {
  const char *stem;
  const char *mesh;
  const char *wear;
  const char *rows[6];
} Expected;

static MatModelArchive *
load_file (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  MatModelArchive *archive;

  mat_model_archive_load_async (file, NULL, test_result_cb, &result);
  archive = mat_model_archive_load_finish (test_wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (archive);
  return archive;
}

static void
assert_demo (const char     *name,
             const Expected *expected,
             guint           n)
{
  g_autofree char *path = g_build_filename (g_getenv ("DEMO_GAME"), name, NULL);
  g_autoptr(GBytes) file_bytes = test_load_file (path);
  g_autoptr(MatModelArchive) archive = load_file (path);
  g_autoptr(GBytes) bytes = now_bytes (archive);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (archive)), ==, n);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (archive)) == MAT_TYPE_MODEL_ENTRY);
  g_assert_false (mat_archive_get_dirty (MAT_ARCHIVE (archive)));
  assert_bytes_equal (bytes, file_bytes);
  for (guint i = 0; i < n; i++)
    {
      MatModelEntry *entry = mat_model_archive_get_model (archive, i);
      g_autoptr(MshModel) model = mat_model_entry_read_mesh (entry);
      guint rows = 0;

      g_assert_cmpstr (mat_model_entry_get_stem (entry), ==, expected[i].stem);
      g_assert_cmpstr (mat_model_entry_get_mesh_member (entry), ==, expected[i].mesh);
      g_assert_cmpstr (mat_model_entry_get_wear_member (entry), ==, expected[i].wear);
      g_assert_true (mat_model_entry_get_archive (entry) == MAT_ARCHIVE (archive));
      while (expected[i].rows[rows] != NULL)
        {
          g_assert_cmpstr (mat_model_entry_get_row_name (entry, rows), ==, expected[i].rows[rows]);
          rows++;
        }
      g_assert_cmpuint (mat_model_entry_get_n_rows (entry), ==, rows);
      g_assert_null (mat_model_entry_get_row_name (entry, rows));
      g_assert_cmpuint (mat_model_entry_get_wear (entry)->problems->len, ==, 0);
      if (expected[i].mesh != NULL)
        {
          g_assert_nonnull (model);
          g_assert_true (model->valid);
          g_assert_false (msh_problems_have_error (model->problems));
          {
            g_autoptr(NresArchive) parsed = parse (file_bytes);
            gint index = nres_archive_find (parsed, expected[i].mesh);
            gsize size = 0;
            const guint8 *payload;

            g_assert_cmpint (index, >=, 0);
            payload = nres_archive_payload (parsed, (guint) index, &size);
            g_assert_cmpmem (g_bytes_get_data (mat_model_entry_get_mesh (entry), NULL),
                             g_bytes_get_size (mat_model_entry_get_mesh (entry)), payload, size);
          }
        }
      else
        {
          g_assert_null (model);
          g_assert_null (mat_model_entry_get_mesh (entry));
        }
      g_assert_true (mat_model_archive_find_model (archive, expected[i].stem) == entry);
    }
}

static void
test_demo (void)
{
  static const Expected statics[] = {
    { "box", "box.msh", "box.wea", { "БРОНЯ_ЗЕЛЁНАЯ", "METAL_PLATE", "LAVA_FLOW", NULL } },
    { "tree", "tree.msh", "tree.wea", { "FOLIAGE", NULL } },
  };
  static const Expected turrets[] = {
    { "turret", "turret.msh", "turret.wea",
      { "METAL_PLATE", "БРОНЯ_ЗЕЛЁНАЯ", "HALO_GLOW", "GLOW_PULSE", NULL } },
  };
  static const Expected fortif[] = {
    { "bunker", "bunker.msh", "bunker.wea",
      { "ROCK_WALL", "METAL_PLATE", "GLASS", "DEFAULT", "ATLAS_SIGN", NULL } },
  };
  static const Expected land[] = {
    { "Land1", NULL, "Land1.wea", { "GRASS_FIELD", "ROCK_WALL", "WATER_SURFACE", "LAVA_FLOW", NULL } },
  };

  assert_demo ("static.rlb", statics, G_N_ELEMENTS (statics));
  assert_demo ("turrets.rlb", turrets, G_N_ELEMENTS (turrets));
  assert_demo ("fortif.rlb", fortif, G_N_ELEMENTS (fortif));
  assert_demo ("land.rlb", land, G_N_ELEMENTS (land));
}

/* A demo crate wears another material: the wear's bytes are the
 * original text with that one name changed, every other member, padding
 * and directory field kept; undone, the file's bytes. */
static void
test_demo_wear (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("DEMO_GAME"), "static.rlb", NULL);
  g_autoptr(GBytes) original = test_load_file (path);
  g_autoptr(MatModelArchive) archive = load_file (path);
  MatModelEntry *box = mat_model_archive_find_model (archive, "BOX.MSH");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(NresArchive) parsed = parse (original);
  g_autofree char *expected = NULL;
  gint member = nres_archive_find (parsed, "box.wea");
  gsize size = 0;
  const char *text;

  g_assert_nonnull (box);
  g_assert_cmpint (member, >=, 0);
  text = (const char *) nres_archive_payload (parsed, (guint) member, &size);
  {
    g_autofree char *before = g_strndup (text, size);
    g_auto(GStrv) parts = g_strsplit (before, "1 METAL_PLATE\r\n", 2);

    g_assert_cmpuint (g_strv_length (parts), ==, 2);
    expected = g_strconcat (parts[0], "1 GLASS\r\n", parts[1], NULL);
  }

  g_assert_true (mat_model_archive_set_wear (archive, box, 1, "GLASS", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (mat_model_entry_get_row_name (box, 1), ==, "GLASS");
  edited = now_bytes (archive);
  assert_only_member (original, edited, member, expected);
  g_assert_true (mat_history_undo (mat_archive_get_history (MAT_ARCHIVE (archive))));
  {
    g_autoptr(GBytes) back = now_bytes (archive);

    assert_bytes_equal (back, original);
  }
  g_assert_cmpstr (mat_model_entry_get_row_name (box, 1), ==, "METAL_PLATE");
}

/* ---- the models of an archive ---------------------------------------------- */

/* A MESH takes the WEAR of its stem whatever the case; a WEAR no MESH
 * takes is a table of its own; other members are kept and not listed. */
static void
test_pairing (void)
{
  g_autoptr(GBytes) bytes = models_archive (0);
  g_autoptr(MatModelArchive) archive = from_bytes (bytes);
  MatModelEntry *box, *crate, *sky;

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (archive)), ==, 3);
  box = mat_model_archive_get_model (archive, 0);
  crate = mat_model_archive_get_model (archive, 1);
  sky = mat_model_archive_get_model (archive, 2);
  g_assert_null (mat_model_archive_get_model (archive, 3));

  g_assert_cmpstr (mat_model_entry_get_stem (box), ==, "box");
  g_assert_cmpstr (mat_model_entry_get_wear_member (box), ==, "box.wea");
  g_assert_cmpstr (mat_model_entry_get_stem (crate), ==, "Crate");
  g_assert_cmpstr (mat_model_entry_get_mesh_member (crate), ==, "Crate.MSH");
  g_assert_cmpstr (mat_model_entry_get_wear_member (crate), ==, "crate.wea");
  g_assert_cmpuint (mat_model_entry_get_n_rows (crate), ==, 1);
  g_assert_cmpstr (mat_model_entry_get_row_name (crate, 0), ==, "WOOD");
  g_assert_true (mat_model_entry_get_wear (crate)->has_lightmaps);
  g_assert_null (mat_model_entry_get_mesh_member (sky));
  g_assert_cmpstr (mat_model_entry_get_stem (sky), ==, "sky");
  g_assert_cmpstr (mat_model_entry_get_row_name (sky, 1), ==, "SKY_NIGHT");

  g_assert_true (mat_model_archive_find_model (archive, "CRATE") == crate);
  g_assert_true (mat_model_archive_find_model (archive, "Crate.wea") == crate);
  g_assert_true (mat_model_archive_find_model (archive, "crate.msh") == crate);
  g_assert_true (mat_model_archive_find_model (archive, "Sky.WEA") == sky);
  g_assert_null (mat_model_archive_find_model (archive, "other"));

  /* the wear's offsets are the file's */
  g_assert_cmpuint (mat_model_entry_get_wear (box)->base_offset, ==, offset_of (bytes, "3\r\n0 RED"));
}

/* Row 1 of box.wea names WHITE: only the five bytes of GREEN change;
 * one step; undo gives the very bytes back, redo the edit again; the
 * entry and the archive say so each time. */
static void
test_set_wear (void)
{
  g_autoptr(GBytes) original = models_archive (0);
  g_autoptr(MatModelArchive) archive = from_bytes (original);
  MatModelEntry *box = mat_model_archive_get_model (archive, 0);
  MatHistory *history = mat_archive_get_history (MAT_ARCHIVE (archive));
  g_autoptr(GBytes) expected = patched (original, offset_of (original, "GREEN"), "WHITE");
  g_autoptr(GError) error = NULL;
  const WearTable *before = mat_model_entry_get_wear (box);
  Counts counts;

  watch (archive, &counts);
  g_assert_true (before != NULL);
  g_assert_true (mat_model_archive_set_wear (archive, box, 1, "WHITE", &error));
  g_assert_no_error (error);
  g_assert_true (mat_archive_get_dirty (MAT_ARCHIVE (archive)));
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Wear Material");
  g_assert_cmpstr (mat_model_entry_get_row_name (box, 1), ==, "WHITE");
  g_assert_cmpuint (counts.wear_changed, ==, 1);
  g_assert_cmpuint (counts.changed[0], ==, 1);
  g_assert_cmpuint (counts.changed[1] + counts.changed[2], ==, 0);
  g_assert_cmpuint (counts.n_rows[0], ==, 0);
  {
    g_autoptr(GBytes) bytes = now_bytes (archive);

    assert_bytes_equal (bytes, expected);
  }

  g_assert_true (mat_history_undo (history));
  g_assert_false (mat_archive_get_dirty (MAT_ARCHIVE (archive)));
  g_assert_cmpstr (mat_model_entry_get_row_name (box, 1), ==, "GREEN");
  g_assert_cmpuint (counts.wear_changed, ==, 2);
  g_assert_cmpuint (counts.changed[0], ==, 2);
  {
    g_autoptr(GBytes) bytes = now_bytes (archive);

    assert_bytes_equal (bytes, original);
  }

  g_assert_true (mat_history_redo (history));
  g_assert_true (mat_archive_get_dirty (MAT_ARCHIVE (archive)));
  g_assert_cmpuint (counts.wear_changed, ==, 3);
  {
    g_autoptr(GBytes) bytes = now_bytes (archive);

    assert_bytes_equal (bytes, expected);
  }

  /* a longer name: the member grows, the others move, nothing else */
  g_assert_true (mat_model_archive_set_wear (archive, box, 0, "БРОНЯ_ЗЕЛЁНАЯ", &error));
  g_assert_no_error (error);
  {
    g_autoptr(GBytes) bytes = now_bytes (archive);

    assert_only_member (original, bytes, 1,
                        "3\r\n0 \xc1\xd0\xce\xcd\xdf_\xc7\xc5\xcb\xa8\xcd\xc0\xdf\r\n1 WHITE\r\n2 BLUE\r\n");
  }
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 2);
  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_history_undo (history));
  {
    g_autoptr(GBytes) bytes = now_bytes (archive);

    assert_bytes_equal (bytes, original);
  }
  unwatch (archive, &counts);
}

/* A row added: "<n> <name>" with the wear's own line ending, the count
 * rewritten; LF and tabs of crate.wea kept, its LIGHTMAPS after. */
static void
test_add_row (void)
{
  g_autoptr(GBytes) original = models_archive (0);
  g_autoptr(MatModelArchive) archive = from_bytes (original);
  MatModelEntry *box = mat_model_archive_get_model (archive, 0);
  MatModelEntry *crate = mat_model_archive_get_model (archive, 1);
  MatHistory *history = mat_archive_get_history (MAT_ARCHIVE (archive));
  g_autoptr(GError) error = NULL;
  guint row = 99;
  Counts counts;

  watch (archive, &counts);
  g_assert_true (mat_model_archive_add_wear_row (archive, box, "BLACK", &row, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (row, ==, 3);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Add Wear Row");
  g_assert_cmpuint (mat_model_entry_get_n_rows (box), ==, 4);
  g_assert_cmpuint (counts.n_rows[0], ==, 1);
  {
    g_autoptr(GBytes) bytes = now_bytes (archive);

    assert_only_member (original, bytes, 1, "4\r\n0 RED\r\n1 GREEN\r\n2 BLUE\r\n3 BLACK\r\n");
  }

  g_assert_true (mat_model_archive_add_wear_row (archive, crate, "IRON", &row, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (row, ==, 1);
  {
    g_autoptr(GBytes) bytes = now_bytes (archive);
    g_autoptr(NresArchive) parsed = parse (bytes);
    gsize size = 0;
    const guint8 *p = nres_archive_payload (parsed, 3, &size);
    const char *expected = "2\n0\tWOOD  \n1 IRON\n\nLIGHTMAPS\n1\n0 crate_lm\n";

    g_assert_cmpmem (p, size, expected, strlen (expected));
  }

  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_history_undo (history));
  g_assert_cmpuint (mat_model_entry_get_n_rows (box), ==, 3);
  g_assert_cmpuint (counts.n_rows[0], ==, 2);
  {
    g_autoptr(GBytes) bytes = now_bytes (archive);

    assert_bytes_equal (bytes, original);
  }
  unwatch (archive, &counts);
}

/* "Wear on" several models at once, a new row among them, two rows of
 * one wear: one step, one "wear-changed", each entry told once; undo
 * and redo swap the bytes back and forth. */
static void
test_several (void)
{
  g_autoptr(GBytes) original = models_archive (0);
  g_autoptr(MatModelArchive) archive = from_bytes (original);
  MatModelEntry *box = mat_model_archive_get_model (archive, 0);
  MatModelEntry *crate = mat_model_archive_get_model (archive, 1);
  MatModelEntry *sky = mat_model_archive_get_model (archive, 2);
  MatHistory *history = mat_archive_get_history (MAT_ARCHIVE (archive));
  const MatWearTarget targets[] = {
    { box, 0 }, { crate, MAT_WEAR_ROW_NEW }, { box, 2 }, { sky, 1 },
  };
  guint rows[G_N_ELEMENTS (targets)] = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) edited = NULL;
  Counts counts;

  watch (archive, &counts);
  g_assert_true (mat_model_archive_wear_on (archive, targets, G_N_ELEMENTS (targets), "LAVA",
                                            rows, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpuint (rows[0], ==, 0);
  g_assert_cmpuint (rows[1], ==, 1);
  g_assert_cmpuint (rows[2], ==, 2);
  g_assert_cmpuint (rows[3], ==, 1);
  g_assert_cmpuint (counts.wear_changed, ==, 1);
  g_assert_cmpuint (counts.changed[0], ==, 1);
  g_assert_cmpuint (counts.changed[1], ==, 1);
  g_assert_cmpuint (counts.changed[2], ==, 1);
  g_assert_cmpstr (mat_model_entry_get_row_name (box, 0), ==, "LAVA");
  g_assert_cmpstr (mat_model_entry_get_row_name (box, 1), ==, "GREEN");
  g_assert_cmpstr (mat_model_entry_get_row_name (box, 2), ==, "LAVA");
  g_assert_cmpstr (mat_model_entry_get_row_name (crate, 1), ==, "LAVA");
  g_assert_cmpstr (mat_model_entry_get_row_name (sky, 1), ==, "LAVA");
  edited = now_bytes (archive);
  {
    g_autoptr(NresArchive) parsed = parse (edited);
    static const char *const texts[] = {
      NULL, "3\r\n0 LAVA\r\n1 GREEN\r\n2 LAVA\r\n", NULL,
      "2\n0\tWOOD  \n1 LAVA\n\nLIGHTMAPS\n1\n0 crate_lm\n", NULL, "2\r\n0 SKY_DAY\r\n1 LAVA\r\n",
    };
    g_autoptr(NresArchive) before = parse (original);

    for (guint i = 0; i < parsed->n_entries; i++)
      {
        gsize size = 0, was = 0;
        const guint8 *p = nres_archive_payload (parsed, i, &size);
        const guint8 *o = nres_archive_payload (before, i, &was);

        if (texts[i] != NULL)
          g_assert_cmpmem (p, size, texts[i], strlen (texts[i]));
        else
          g_assert_cmpmem (p, size, o, was);
      }
  }

  g_assert_true (mat_history_undo (history));
  g_assert_cmpuint (counts.wear_changed, ==, 2);
  g_assert_cmpuint (counts.changed[1], ==, 2);
  {
    g_autoptr(GBytes) bytes = now_bytes (archive);

    assert_bytes_equal (bytes, original);
  }
  g_assert_true (mat_history_redo (history));
  {
    g_autoptr(GBytes) bytes = now_bytes (archive);

    assert_bytes_equal (bytes, edited);
  }
  unwatch (archive, &counts);
}

/* What cannot be done is refused with a message and changes nothing: a
 * name with a blank or too long, a row past the table (naming the
 * member), a model without a wear, another archive's model, a new row
 * without a count; a list where one target fails; a name the rows have
 * already records nothing. */
static void
test_refused (void)
{
  g_autoptr(GBytes) original = models_archive (0);
  g_autoptr(MatModelArchive) archive = from_bytes (original);
  g_autoptr(MatModelArchive) other = from_bytes (original);
  MatModelEntry *box = mat_model_archive_get_model (archive, 0);
  MatHistory *history = mat_archive_get_history (MAT_ARCHIVE (archive));
  g_autoptr(GError) error = NULL;
  Counts counts;

  watch (archive, &counts);

  g_assert_false (mat_model_archive_set_wear (archive, box, 0, "TWO WORDS", &error));
  g_assert_error (error, WEAR_ERROR, WEAR_ERROR_BAD_NAME);
  g_clear_error (&error);
  g_assert_false (mat_model_archive_set_wear (archive, box, 0,
                                              "A_NAME_OF_THIRTY_SIX_BYTES_IS_TOO_LO", &error));
  g_assert_error (error, WEAR_ERROR, WEAR_ERROR_BAD_NAME);
  g_clear_error (&error);

  g_assert_false (mat_model_archive_set_wear (archive, box, 9, "LAVA", &error));
  g_assert_error (error, WEAR_ERROR, WEAR_ERROR_BAD_ROW);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "box.wea"));
  g_clear_error (&error);

  {
    const MatWearTarget targets[] = { { box, 0 }, { box, 3 } };

    g_assert_false (mat_model_archive_wear_on (archive, targets, 2, "LAVA", NULL, &error));
    g_assert_error (error, WEAR_ERROR, WEAR_ERROR_BAD_ROW);
    g_clear_error (&error);
  }
  {
    const MatWearTarget targets[] = { { box, 0 }, { mat_model_archive_get_model (other, 0), 0 } };

    g_assert_false (mat_model_archive_wear_on (archive, targets, 2, "LAVA", NULL, &error));
    g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
    g_clear_error (&error);
  }

  /* the same name: nothing to record */
  g_assert_true (mat_model_archive_set_wear (archive, box, 1, "GREEN", &error));
  g_assert_no_error (error);

  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 0);
  g_assert_false (mat_archive_get_dirty (MAT_ARCHIVE (archive)));
  g_assert_cmpuint (counts.wear_changed, ==, 0);
  g_assert_cmpuint (counts.changed[0], ==, 0);
  g_assert_cmpstr (mat_model_entry_get_row_name (box, 0), ==, "RED");
  {
    g_autoptr(GBytes) bytes = now_bytes (archive);

    assert_bytes_equal (bytes, original);
  }
  unwatch (archive, &counts);

  /* a model without its .wea; a table without a count line */
  {
    g_autoptr(GBytes) mesh = small_mesh ();
    static const char junk[] = "no count here\r\n";
    TestEntrySpec specs[] = {
      { NRES_TYPE_MESH, 0, 0, 0, "lone.msh", g_bytes_get_data (mesh, NULL), g_bytes_get_size (mesh), 0 },
      { NRES_TYPE_WEAR, 0, 0, 0, "junk.wea", (const guint8 *) junk, strlen (junk), 0 },
    };
    g_autoptr(GBytes) bytes = test_build_archive (specs, 2, FALSE);
    g_autoptr(MatModelArchive) odd = from_bytes (bytes);
    MatModelEntry *lone = mat_model_archive_get_model (odd, 0);
    MatModelEntry *table = mat_model_archive_get_model (odd, 1);

    g_assert_null (mat_model_entry_get_wear (lone));
    g_assert_cmpuint (mat_model_entry_get_n_rows (lone), ==, 0);
    g_assert_false (mat_model_archive_add_wear_row (odd, lone, "LAVA", NULL, &error));
    g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "lone.wea"));
    g_clear_error (&error);

    /* the junk is a lint, kept; no row to add to */
    g_assert_cmpuint (mat_model_entry_get_wear (table)->problems->len, >, 0);
    g_assert_false (mat_model_archive_add_wear_row (odd, table, "LAVA", NULL, &error));
    g_assert_error (error, WEAR_ERROR, WEAR_ERROR_NO_COUNT);
    g_clear_error (&error);
    g_assert_false (mat_archive_get_dirty (MAT_ARCHIVE (odd)));
  }
}

/* ---- on disk ----------------------------------------------------------------- */

static gboolean
save (MatModelArchive *archive,
      MatSaveFlags     flags,
      GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mat_archive_save_async (MAT_ARCHIVE (archive), NULL, flags, NULL, test_result_cb, &result);
  return mat_archive_save_finish (MAT_ARCHIVE (archive), test_wait_result (&result), NULL, error);
}

static gboolean
set_xattr (const char *path)
{
  return setxattr (path, XATTR_NAME, XATTR_VALUE, strlen (XATTR_VALUE), 0) == 0;
}

static char *
get_xattr (const char *path)
{
  char value[256];
  ssize_t n = getxattr (path, XATTR_NAME, value, sizeof value - 1);

  if (n < 0)
    return NULL;
  value[n] = '\0';
  return g_strdup (value);
}

/* Saved byte for byte: the unindexed bytes (left out at the open, read
 * back from the file by the save), the padding, mode 0640 and an
 * extended attribute kept; clean with the file's new ETag; a save with a
 * backup keeps the previous file as .bak. */
static void
test_save (void)
{
  g_autofree char *dir = test_scratch_dir ("model-save");
  g_autofree char *path = g_build_filename (dir, "static.rlb", NULL);
  g_autofree char *backup = g_strconcat (path, ".bak", NULL);
  g_autoptr(GBytes) original = models_archive (3 * NRES_GAP_MIN);
  g_autoptr(GBytes) first = patched (original, offset_of (original, "GREEN"), "WHITE");
  g_autoptr(GBytes) second = NULL;
  g_autoptr(MatModelArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *queried = NULL;
  gboolean xattrs;

  test_write_file (path, original, 0640);
  xattrs = set_xattr (path);
  archive = load_file (path);
  g_assert_true (mat_model_archive_set_wear (archive, mat_model_archive_get_model (archive, 0), 1,
                                             "WHITE", &error));
  g_assert_no_error (error);
  g_assert_true (save (archive, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  test_assert_file_is (path, first);
  g_assert_cmpint (test_file_mode (path), ==, 0640);
  if (xattrs)
    {
      g_autofree char *value = get_xattr (path);

      g_assert_cmpstr (value, ==, XATTR_VALUE);
    }
  g_assert_false (mat_archive_get_dirty (MAT_ARCHIVE (archive)));
  queried = mat_file_query_etag (path, NULL);
  g_assert_cmpstr (mat_archive_get_etag (MAT_ARCHIVE (archive)), ==, queried);
  g_assert_false (g_file_test (backup, G_FILE_TEST_EXISTS));

  /* SKY_DUS over SKY_DAY: the same length */
  g_assert_true (mat_model_archive_set_wear (archive, mat_model_archive_get_model (archive, 2), 0,
                                             "SKY_DUS", &error));
  g_assert_no_error (error);
  second = patched (first, offset_of (first, "SKY_DAY"), "SKY_DUS");
  g_assert_true (save (archive, MAT_SAVE_BACKUP, &error));
  g_assert_no_error (error);
  test_assert_file_is (path, second);
  test_assert_file_is (backup, first);
  g_assert_cmpint (test_file_mode (backup), ==, 0640);
  g_assert_cmpint (test_file_mode (path), ==, 0640);

  /* undone past both saves: the original bytes, gap and all */
  g_assert_true (mat_history_undo (mat_archive_get_history (MAT_ARCHIVE (archive))));
  g_assert_true (mat_history_undo (mat_archive_get_history (MAT_ARCHIVE (archive))));
  g_assert_true (save (archive, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  test_assert_file_is (path, original);
  test_remove_tree (dir);
}

/* Every system call of a save with a backup fails in turn, the gap's
 * reads included: the file and the backup are as they were (or the
 * backup a true copy of the original), no temporary left, the archive
 * dirty with its edit; after the rename the new file stands. */
static void
test_faults (void)
{
  g_autofree char *dir = test_scratch_dir ("model-faults");
  g_autofree char *path = g_build_filename (dir, "fortif.rlb", NULL);
  g_autofree char *backup = g_strconcat (path, ".bak", NULL);
  g_autoptr(GBytes) original = models_archive (2 * NRES_GAP_MIN);
  g_autoptr(GBytes) edited = NULL;
  static const char old_backup[] = "an older backup";
  g_autoptr(GBytes) old = g_bytes_new_static (old_backup, sizeof old_backup);
  static const int errors[] = { ENOSPC, EIO };
  guint counted[TEST_N_OPS];
  guint points = 0, failed = 0;
  g_autoptr(MatModelArchive) archive = NULL;
  g_autofree char *listing = NULL;
  g_autoptr(GError) error = NULL;

  test_write_file (path, original, 0640);
  test_write_file (backup, old, 0600);
  listing = test_list_dir (dir);
  archive = load_file (path);
  g_assert_true (mat_model_archive_add_wear_row (archive, mat_model_archive_get_model (archive, 1),
                                                 "IRON", NULL, &error));
  g_assert_no_error (error);
  edited = now_bytes (archive);

  /* a save that works, counted */
  {
    g_autofree char *copy_dir = test_scratch_dir ("model-count");
    g_autofree char *copy = g_build_filename (copy_dir, "fortif.rlb", NULL);
    g_autoptr(MatModelArchive) counting = NULL;

    test_write_file (copy, original, 0640);
    counting = load_file (copy);
    g_assert_true (mat_model_archive_add_wear_row (counting, mat_model_archive_get_model (counting, 1),
                                                   "IRON", NULL, &error));
    test_faults_arm (-1, 0, 0, copy);
    g_assert_true (save (counting, MAT_SAVE_BACKUP, &error));
    test_faults_disarm ();
    g_assert_no_error (error);
    test_assert_file_is (copy, edited);
    for (guint op = 0; op < TEST_N_OPS; op++)
      counted[op] = test_faults_count (op);
    test_remove_tree (copy_dir);
  }
  g_assert_cmpuint (counted[TEST_OP_READ], >=, 1);

  for (guint op = 0; op < TEST_N_OPS; op++)
    for (guint at = 0; at < counted[op]; at++)
      for (guint e = 0; e < G_N_ELEMENTS (errors); e++)
        {
          g_autoptr(GBytes) kept = NULL;
          g_autoptr(GBytes) bak = NULL;
          g_autofree char *after = NULL;
          gboolean ok;

          test_faults_arm ((int) op, at, errors[e], path);
          ok = save (archive, MAT_SAVE_BACKUP, &error);
          test_faults_disarm ();
          g_assert_true (test_faults_fired ());
          points++;
          if (test_faults_fired_after_commit ())
            {
              g_assert_true (ok);
              test_assert_file_is (path, edited);
              /* back to the original for the next point */
              test_write_file (path, original, 0640);
              test_write_file (backup, old, 0600);
              g_clear_object (&archive);
              archive = load_file (path);
              g_assert_true (mat_model_archive_add_wear_row (archive,
                                                             mat_model_archive_get_model (archive, 1),
                                                             "IRON", NULL, &error));
              continue;
            }
          g_assert_false (ok);
          g_assert_nonnull (error);
          g_test_message ("%s call %u (%s): %s", test_op_name (op), at, g_strerror (errors[e]),
                          error->message);
          g_clear_error (&error);
          failed++;
          test_assert_file_is (path, original);
          g_assert_cmpint (test_file_mode (path), ==, 0640);
          bak = test_load_file (backup);
          if (!g_bytes_equal (bak, old))
            assert_bytes_equal (bak, original);
          after = test_list_dir (dir);
          g_assert_cmpstr (after, ==, listing);
          g_assert_true (mat_archive_get_dirty (MAT_ARCHIVE (archive)));
          kept = now_bytes (archive);
          assert_bytes_equal (kept, edited);
        }
  g_test_message ("%u failure points, %u failed the save", points, failed);
  g_assert_cmpuint (failed, >=, 20);

  g_assert_true (save (archive, MAT_SAVE_BACKUP, &error));
  g_assert_no_error (error);
  test_assert_file_is (path, edited);
  g_assert_false (mat_archive_get_dirty (MAT_ARCHIVE (archive)));
  test_remove_tree (dir);
}

/* ---- drafts -------------------------------------------------------------------- */

static void
wait_idle (MatDraftStore *store)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (mat_draft_store_get_busy (store))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      g_main_context_iteration (NULL, TRUE);
    }
}

static void
end_store (MatDraftStore **store)
{
  gpointer weak = *store;
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  g_object_add_weak_pointer (G_OBJECT (weak), &weak);
  g_clear_object (store);
  while (weak != NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* The draft of a WEAR edit: the bytes a save would write, of the kind
 * "models"; the next editor finds it and restores the archive byte for
 * byte, dirty, its rows as edited; saved, the file holds those bytes. */
static void
test_drafts (void)
{
  g_autofree char *dir = test_scratch_dir ("model-drafts");
  g_autofree char *path = g_build_filename (dir, "turrets.rlb", NULL);
  g_autoptr(GFile) drafts = g_file_new_build_filename (dir, "drafts", NULL);
  g_autoptr(GBytes) original = models_archive (0);
  g_autoptr(MatModelArchive) archive = NULL;
  g_autoptr(MatDraftStore) store = NULL;
  g_autoptr(MatDraftStore) next = NULL;
  g_autoptr(GListModel) left = NULL;
  g_autoptr(MatDraft) draft = NULL;
  g_autoptr(MatDraftable) restored = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) draft_bytes = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) restore_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);

  test_write_file (path, original, 0644);
  archive = load_file (path);
  store = mat_draft_store_new (drafts);
  mat_draft_store_set_delay (store, 20);
  mat_draft_store_track (store, MAT_DRAFTABLE (archive), NULL);
  g_assert_true (mat_model_archive_set_wear (archive, mat_model_archive_get_model (archive, 0), 2,
                                             "LAVA", &error));
  g_assert_no_error (error);
  edited = now_bytes (archive);
  wait_idle (store);
  g_assert_null (mat_draft_store_get_last_error (store));

  end_store (&store);
  g_clear_object (&archive);
  test_assert_file_is (path, original);

  next = mat_draft_store_new (drafts);
  mat_draft_store_find_left_async (next, NULL, test_result_cb, &result);
  left = mat_draft_store_find_left_finish (next, test_wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (left), ==, 1);
  draft = g_list_model_get_item (left, 0);
  g_assert_cmpstr (mat_draft_get_kind (draft), ==, MAT_DRAFT_KIND_MODELS);
  g_assert_true (g_file_equal (mat_draft_get_file (draft), file));
  g_assert_cmpint (mat_draft_get_disk (draft), ==, MAT_DRAFT_DISK_SAME);
  g_assert_cmpuint (mat_draft_get_size (draft), ==, g_bytes_get_size (edited));

  mat_draft_restore_async (draft, NULL, test_result_cb, &restore_result);
  restored = mat_draft_restore_finish (draft, test_wait_result (&restore_result), &draft_bytes, &error);
  g_assert_no_error (error);
  g_assert_true (MAT_IS_MODEL_ARCHIVE (restored));
  assert_bytes_equal (draft_bytes, edited);
  {
    MatModelArchive *models = MAT_MODEL_ARCHIVE (restored);
    g_autoptr(GBytes) bytes = now_bytes (models);

    assert_bytes_equal (bytes, edited);
    g_assert_true (mat_archive_get_dirty (MAT_ARCHIVE (models)));
    g_assert_cmpstr (mat_model_entry_get_row_name (mat_model_archive_get_model (models, 0), 2), ==,
                     "LAVA");
    mat_draft_store_adopt (next, draft, restored);
    g_assert_true (save (models, MAT_SAVE_NONE, &error));
    g_assert_no_error (error);
    test_assert_file_is (path, edited);
    wait_idle (next);
  }
  /* the results hold the store and the draft */
  g_clear_object (&result);
  g_clear_object (&restore_result);
  g_clear_object (&restored);
  g_clear_object (&draft);
  g_clear_object (&left);
  end_store (&next);
  test_remove_tree (dir);
}

/* ---- bad input ------------------------------------------------------------------ */

static gsize
resident_bytes (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/statm", &status, NULL, NULL))
    return 0;
  line = strchr (status, ' ');
  return line != NULL ? (gsize) g_ascii_strtoull (line + 1, NULL, 10) * (gsize) sysconf (_SC_PAGESIZE) : 0;
}

/* Garbage, cut short, not an archive: refused with a message naming the
 * problem; a 4 GiB file named .rlb with one wear opens at once in
 * little memory and its wear can be edited; a MESH whose streams
 * disagree is listed with its errors. */
static void
test_bad_input (void)
{
  g_autofree char *dir = test_scratch_dir ("model-bad");
  g_autofree char *path = g_build_filename (dir, "bad.rlb", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) good = models_archive (0);
  g_autoptr(GError) error = NULL;
  static const char garbage[] = "NRes\x00\x01\x00\x00\xff\xff\xff\x7f garbage follows";

  {
    g_autoptr(GBytes) bytes = g_bytes_new_static (garbage, sizeof garbage - 1);
    g_autoptr(MatModelArchive) archive = NULL;

    test_write_file (path, bytes, 0644);
    archive = mat_model_archive_load (file, NULL, &error);
    g_assert_null (archive);
    g_assert_nonnull (error);
    g_test_message ("garbage: %s", error->message);
    g_clear_error (&error);
  }
  {
    g_autoptr(GBytes) cut = g_bytes_new_from_bytes (good, 0, g_bytes_get_size (good) / 2);
    g_autoptr(MatModelArchive) archive = NULL;

    test_write_file (path, cut, 0644);
    archive = mat_model_archive_load (file, NULL, &error);
    g_assert_null (archive);
    g_assert_nonnull (strstr (error->message, "cut short"));
    g_test_message ("cut short: %s", error->message);
    g_clear_error (&error);
  }
  {
    g_autoptr(GBytes) text = g_bytes_new_static ("3\r\n0 RED\r\n", 10);
    g_autoptr(MatModelArchive) archive = NULL;

    test_write_file (path, text, 0644);
    archive = mat_model_archive_load (file, NULL, &error);
    g_assert_null (archive);
    g_test_message ("not an archive: %s", error->message);
    g_clear_error (&error);
  }

  /* 4 GiB, a wear at the start, the directory at the end */
  {
    static const char wear[] = "1\r\n0 RED\r\n";
    guint8 header[16] = { 'N', 'R', 'e', 's', 0, 1, 0, 0, 1, 0, 0, 0 };
    const guint32 total = 0xFFFFFFFFu;
    NresEntry entry = { 0 };
    g_autoptr(MatModelArchive) archive = NULL;
    gsize before;
    gint64 start;
    int fd;

    memcpy (header + 12, &total, 4);
    entry.type_id = NRES_TYPE_WEAR;
    entry.size = sizeof wear - 1;
    memcpy (entry.name, "huge.wea", 9);
    entry.data_offset = 16;
    fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (ftruncate (fd, total), ==, 0);
    g_assert_cmpint (pwrite (fd, header, 16, 0), ==, 16);
    g_assert_cmpint (pwrite (fd, wear, sizeof wear - 1, 16), ==, (gssize) sizeof wear - 1);
    g_assert_cmpint (pwrite (fd, &entry, 64, total - 64), ==, 64);
    close (fd);

    before = resident_bytes ();
    start = g_get_monotonic_time ();
    archive = mat_model_archive_load (file, NULL, &error);
    g_assert_no_error (error);
    g_test_message ("a 4 GiB archive opened in %.3f s", (g_get_monotonic_time () - start) / 1e6);
    g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
    g_assert_cmpuint (resident_bytes (), <, before + 50 * 1000 * 1000);
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (archive)), ==, 1);
    g_assert_cmpstr (mat_model_entry_get_row_name (mat_model_archive_get_model (archive, 0), 0), ==,
                     "RED");
    g_assert_true (mat_model_archive_set_wear (archive, mat_model_archive_get_model (archive, 0), 0,
                                               "ROCK", &error));
    g_assert_no_error (error);
    g_assert_true (mat_archive_get_dirty (MAT_ARCHIVE (archive)));
    g_unlink (path);
  }

  /* streams that disagree: stream 3 claims two vertices, holds one */
  {
    TestMesh *mesh = test_mesh_new ();
    static const float xyz[3] = { 1, 2, 3 };
    g_autoptr(GBytes) payload = NULL;
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(MatModelArchive) archive = NULL;
    g_autoptr(MshModel) model = NULL;

    test_mesh_stream (mesh, 3, 2, 0, xyz, sizeof xyz);
    payload = test_mesh_build (mesh);
    test_mesh_free (mesh);
    bytes = test_model_archive ("broken", payload, "1\r\n0 RED\r\n");
    archive = from_bytes (bytes);
    model = mat_model_entry_read_mesh (mat_model_archive_get_model (archive, 0));
    g_assert_nonnull (model);
    g_assert_true (msh_problems_have_error (model->problems));
    g_test_message ("%s", ((MshProblem *) model->problems->pdata[0])->message);
    g_assert_nonnull (strstr (((MshProblem *) model->problems->pdata[0])->message, "broken.msh"));
  }
  test_remove_tree (dir);
}

/* ---- the set of open archives --------------------------------------------------- */

static void
test_set (void)
{
  g_autoptr(MatArchiveSet) set = mat_archive_set_new ();
  g_autofree char *dir = test_scratch_dir ("model-set");
  g_autofree char *one = g_build_filename (dir, "one.rlb", NULL);
  g_autofree char *two = g_build_filename (dir, "two.rlb", NULL);
  g_autoptr(GFile) one_file = g_file_new_for_path (one);
  g_autoptr(GFile) two_file = g_file_new_for_path (two);
  g_autoptr(GFile) none = g_file_new_build_filename (dir, "none.rlb", NULL);
  g_autoptr(GBytes) original = models_archive (0);
  g_autoptr(MatModelArchive) a = NULL;
  g_autoptr(MatModelArchive) b = NULL;
  g_autoptr(GPtrArray) dirty = NULL;
  g_autoptr(GError) error = NULL;
  guint dirty_notes = 0, n_dirty_notes = 0;

  test_write_file (one, original, 0644);
  test_write_file (two, original, 0644);
  a = load_file (one);
  b = load_file (two);
  g_signal_connect (set, "notify::dirty", G_CALLBACK (count_notify), &dirty_notes);
  g_signal_connect (set, "notify::n-dirty", G_CALLBACK (count_notify), &n_dirty_notes);

  mat_archive_set_add (set, MAT_ARCHIVE (a));
  mat_archive_set_add (set, MAT_ARCHIVE (b));
  mat_archive_set_add (set, MAT_ARCHIVE (a));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (set)), ==, 2);
  g_assert_true (mat_archive_set_lookup (set, two_file) == MAT_ARCHIVE (b));
  g_assert_true (mat_archive_set_lookup (set, one_file) == MAT_ARCHIVE (a));
  g_assert_null (mat_archive_set_lookup (set, none));
  g_assert_false (mat_archive_set_get_dirty (set));

  g_assert_true (mat_model_archive_set_wear (b, mat_model_archive_get_model (b, 0), 0, "LAVA", &error));
  g_assert_true (mat_archive_set_get_dirty (set));
  g_assert_cmpuint (mat_archive_set_get_n_dirty (set), ==, 1);
  g_assert_true (mat_model_archive_set_wear (a, mat_model_archive_get_model (a, 0), 0, "LAVA", &error));
  g_assert_cmpuint (mat_archive_set_get_n_dirty (set), ==, 2);
  g_assert_cmpuint (dirty_notes, ==, 1);
  g_assert_cmpuint (n_dirty_notes, ==, 2);
  dirty = mat_archive_set_dup_dirty (set);
  g_assert_cmpuint (dirty->len, ==, 2);
  g_assert_true (g_ptr_array_index (dirty, 0) == a);
  g_assert_true (g_ptr_array_index (dirty, 1) == b);

  /* saved: no longer dirty */
  g_assert_true (save (a, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mat_archive_set_get_n_dirty (set), ==, 1);
  g_assert_true (mat_history_undo (mat_archive_get_history (MAT_ARCHIVE (b))));
  g_assert_false (mat_archive_set_get_dirty (set));
  g_assert_cmpuint (dirty_notes, ==, 2);

  g_assert_true (mat_archive_set_remove (set, MAT_ARCHIVE (a)));
  g_assert_false (mat_archive_set_remove (set, MAT_ARCHIVE (a)));
  g_assert_null (mat_archive_set_lookup (set, one_file));
  /* a removed archive is no longer counted */
  g_assert_true (mat_model_archive_set_wear (a, mat_model_archive_get_model (a, 0), 1, "ROCK", &error));
  g_assert_false (mat_archive_set_get_dirty (set));
  test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model-archive/demo", test_demo);
  g_test_add_func ("/model-archive/demo-wear", test_demo_wear);
  g_test_add_func ("/model-archive/pairing", test_pairing);
  g_test_add_func ("/model-archive/set-wear", test_set_wear);
  g_test_add_func ("/model-archive/add-row", test_add_row);
  g_test_add_func ("/model-archive/several", test_several);
  g_test_add_func ("/model-archive/refused", test_refused);
  g_test_add_func ("/model-archive/save", test_save);
  g_test_add_func ("/model-archive/faults", test_faults);
  g_test_add_func ("/model-archive/drafts", test_drafts);
  g_test_add_func ("/model-archive/bad-input", test_bad_input);
  g_test_add_func ("/model-archive/set", test_set);

  return g_test_run ();
}
