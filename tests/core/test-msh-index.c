/* test-msh-index.c - who wears what (models.md 5 and 6): the index over
 * hand-made archives, built in the test (test-mesh.h, test-support.h),
 * with the exact answers expected
 *
 * The rules each case pins: a batch drawn at rest makes its row's
 * material worn, counted as often as it is drawn (a cockpit's is not, a
 * slot two nodes share counts twice); a row no drawn batch uses is
 * "named, not drawn"; a WEAR without a MESH of its stem is a table; names
 * compare ASCII case-insensitively and each material is spelled as first
 * met walking archives by path (not as added), members in directory
 * order, batches in order; a model with an error draws nothing but keeps
 * its rows; an archive that fails formats.md 1 contributes nothing; a
 * row's material missing from the library is a lint; members past the
 * caps are listed, never read.
 */
#include "config.h"

#include <string.h>

#include "msh-index.h"
#include "nres.h"
#include "test-mesh.h"
#include "test-support.h"

#define MESH 0x4853454Du
#define WEAR 0x52414557u
#define TEXM 0x6D786554u

/* ---- Building archives ----------------------------------------------------- */

typedef struct {
  guint32     type;
  const char *name;
  GBytes     *payload;   /* owned */
} Member;

/* An archive of @members (payloads 8-aligned); frees their payloads. */
static GBytes *
archive_of (Member *members,
            guint   n)
{
  g_autofree TestEntrySpec *specs = g_new0 (TestEntrySpec, n);
  GBytes *bytes;

  for (guint i = 0; i < n; i++)
    {
      specs[i].type_id = members[i].type;
      specs[i].name = members[i].name;
      specs[i].payload = g_bytes_get_data (members[i].payload, &specs[i].size);
    }
  bytes = test_build_archive (specs, n, TRUE);
  for (guint i = 0; i < n; i++)
    g_bytes_unref (members[i].payload);

  return bytes;
}

static GBytes *
text (const char *wear)
{
  return g_bytes_new (wear, strlen (wear));
}

/* Batch b of the model has (b % 3) + 1 triangles, each with three
 * vertices of its own. A root node draws slot 0: the batches of @rows;
 * a cockpit (flag 0x20) under it draws slot 1: the batches of @hidden;
 * with @twice, a second root draws slot 0 again. */
static GBytes *
mesh_of (const guint8 *rows,
         guint         n_rows,
         const guint8 *hidden,
         guint         n_hidden,
         gboolean      twice)
{
  TestMesh *m = test_mesh_new ();
  guint n = n_rows + n_hidden, n_tri = 0;
  g_autofree TestMeshBatch *batches = g_new0 (TestMeshBatch, MAX (n, 1));
  g_autoptr(GArray) xyz = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr(GArray) abc = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autoptr(GArray) nrm = g_array_new (FALSE, TRUE, sizeof (gint8));
  g_autoptr(GArray) uv = g_array_new (FALSE, TRUE, sizeof (guint16));
  TestMeshNode nodes[3] = {
    test_mesh_node (0, TEST_NONE, TEST_NONE, TEST_NONE, 0),
    test_mesh_node (0x20, 0, TEST_NONE, TEST_NONE, 1),
    test_mesh_node (0, TEST_NONE, TEST_NONE, TEST_NONE, 0),
  };
  TestMeshSlot slots[2] = { { 0 } };
  GBytes *payload;

  for (guint b = 0; b < n; b++)
    {
      guint t = b % 3 + 1;

      if (b == n_rows)
        {
          slots[0].triangle_count = (guint16) n_tri;
          slots[1].first_triangle = (guint16) n_tri;
          slots[1].first_batch = (guint16) b;
        }
      batches[b] = (TestMeshBatch) { 0, b < n_rows ? rows[b] : hidden[b - n_rows], 0xFF,
                                     TEST_NONE, (guint16) (3 * t), (guint16) abc->len,
                                     (guint16) (3 * t), (guint16) (xyz->len / 3) };
      for (guint k = 0; k < 3 * t; k++)
        {
          float p[3] = { (float) b, (float) k, b < n_rows ? 0.0f : 100.0f };
          guint16 index = (guint16) k;

          g_array_append_vals (xyz, p, 3);
          g_array_append_val (abc, index);
        }
      n_tri += t;
    }
  if (n_hidden == 0)
    slots[0].triangle_count = (guint16) n_tri;
  else
    slots[1].triangle_count = (guint16) (n_tri - slots[1].first_triangle);
  slots[0].batch_count = (guint16) n_rows;
  slots[1].batch_count = (guint16) n_hidden;
  g_array_set_size (nrm, xyz->len);
  g_array_set_size (uv, xyz->len / 3 * 2);

  test_mesh_nodes (m, nodes, twice ? 3 : n_hidden > 0 ? 2 : 1);
  test_mesh_slots (m, slots, 2);
  test_mesh_positions (m, (const float *) xyz->data, xyz->len / 3);
  test_mesh_normals (m, (const gint8 *) nrm->data, xyz->len / 3);
  test_mesh_uvs (m, 5, (const guint16 *) uv->data, xyz->len / 3);
  test_mesh_triangles (m, (const guint16 *) abc->data, abc->len / 3);
  test_mesh_batches (m, batches, n);
  payload = test_mesh_build (m);
  test_mesh_free (m);

  return payload;
}

static MshIndexArchive *
index_bytes (const char *path,
             GBytes     *bytes)
{
  MshIndexArchive *archive = msh_index_archive_new_from_bytes (path, bytes);

  g_bytes_unref (bytes);
  return archive;
}

static void
print_problems (const GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    g_test_message ("%s", ((const MshProblem *) problems->pdata[i])->message);
}

static const MshIndexModel *
model_at (MshIndexArchive *archive,
          guint            i)
{
  g_assert_cmpuint (i, <, archive->models->len);
  return archive->models->pdata[i];
}

static void
assert_use (const GArray *uses,
            guint         i,
            const char   *archive,
            const char   *model,
            guint         batches,
            guint         triangles)
{
  const MshIndexUse *use;

  g_assert_cmpuint (i, <, uses->len);
  use = &g_array_index ((GArray *) uses, MshIndexUse, i);
  g_assert_cmpstr (use->model->archive->path, ==, archive);
  g_assert_cmpstr (use->model->member, ==, model);
  g_assert_cmpuint (use->n_batches, ==, batches);
  g_assert_cmpuint (use->n_triangles, ==, triangles);
}

/* ---- A folder of three archives ------------------------------------------------ */

/* b.rlb: tree.msh draws rows 0 FOO (batch 0, 1 triangle) and 1 Bar
 *        (batches 1 and 2: 2 + 3 triangles); row 2 UNUSED is drawn by
 *        nothing; its cockpit draws row 2 (not at rest).
 * a.rlb: box.msh draws row 0 "foo" (batch 0, 1 triangle) and names FOO
 *        again in row 1, drawn by nothing.
 * c.rlb: Land1.wea, a table naming Foo and GRASS; sky.wea too, with
 *        GRASS only. */
static MshIndex *
three_archives (void)
{
  static const guint8 tree_rows[] = { 0, 1, 1 };
  static const guint8 tree_cockpit[] = { 2 };
  static const guint8 box_rows[] = { 0 };
  MshIndex *index = msh_index_new ();

  {
    Member members[] = {
      { MESH, "tree.msh", mesh_of (tree_rows, 3, tree_cockpit, 1, FALSE) },
      { WEAR, "tree.wea", text ("3\r\n0 FOO\r\n1 Bar\r\n2 UNUSED\r\n") },
    };

    /* added first, sorted second */
    g_assert_cmpuint (msh_index_add (index, index_bytes ("b.rlb", archive_of (members, 2))), ==, 0);
  }
  {
    Member members[] = {
      { MESH, "box.msh", mesh_of (box_rows, 1, NULL, 0, FALSE) },
      { WEAR, "BOX.WEA", text ("2\n0 foo\n1 FOO\n") },
    };

    g_assert_cmpuint (msh_index_add (index, index_bytes ("a.rlb", archive_of (members, 2))), ==, 0);
  }
  {
    Member members[] = {
      { WEAR, "Land1.wea", text ("2\n0 GRASS\n1 Foo\n") },
      { WEAR, "sky.wea", text ("1\n0 GRASS\n") },
    };

    g_assert_cmpuint (msh_index_add (index, index_bytes ("c.rlb", archive_of (members, 2))), ==, 2);
  }

  return index;
}

static void
test_where_used (void)
{
  g_autoptr(MshIndex) index = three_archives ();
  g_autoptr(MshIndexWearers) foo = msh_index_where_used (index, "Foo");
  g_autoptr(MshIndexWearers) bar = msh_index_where_used (index, "BAR");
  g_autoptr(MshIndexWearers) unused = msh_index_where_used (index, "unused");
  g_autoptr(MshIndexWearers) grass = msh_index_where_used (index, "grass");
  g_autoptr(MshIndexWearers) none = msh_index_where_used (index, "NOTHING");

  g_assert_cmpuint (msh_index_n_archives (index), ==, 3);
  g_assert_cmpstr (msh_index_get_archive (index, 0)->path, ==, "a.rlb");
  g_assert_cmpstr (msh_index_get_archive (index, 1)->path, ==, "b.rlb");
  g_assert_cmpstr (msh_index_get_archive (index, 2)->path, ==, "c.rlb");
  g_assert_cmpuint (msh_index_n_models (index), ==, 2);
  g_assert_cmpuint (msh_index_n_tables (index), ==, 2);

  /* worn by both models, spelled as a.rlb spells it (the first path),
   * though b.rlb was added first; box.msh's second row naming FOO
   * does not make it "named, not drawn": it wears FOO */
  g_assert_cmpstr (foo->name, ==, "foo");
  g_assert_cmpuint (foo->models->len, ==, 2);
  assert_use (foo->models, 0, "a.rlb", "box.msh", 1, 1);
  assert_use (foo->models, 1, "b.rlb", "tree.msh", 1, 1);
  g_assert_cmpuint (foo->named_not_drawn->len, ==, 0);
  g_assert_cmpuint (foo->tables->len, ==, 1);
  g_assert_cmpstr (((MshIndexTable *) foo->tables->pdata[0])->member, ==, "Land1.wea");

  /* two batches of row 1: 2 + 3 triangles */
  g_assert_cmpstr (bar->name, ==, "Bar");
  g_assert_cmpuint (bar->models->len, ==, 1);
  assert_use (bar->models, 0, "b.rlb", "tree.msh", 2, 5);

  /* only the cockpit draws row 2: named, not drawn */
  g_assert_cmpstr (unused->name, ==, "UNUSED");
  g_assert_cmpuint (unused->models->len, ==, 0);
  g_assert_cmpuint (unused->named_not_drawn->len, ==, 1);
  g_assert_cmpstr (((MshIndexModel *) unused->named_not_drawn->pdata[0])->member, ==, "tree.msh");
  g_assert_cmpuint (unused->tables->len, ==, 0);

  /* tables only, in directory order; the first row spelling it */
  g_assert_cmpstr (grass->name, ==, "GRASS");
  g_assert_cmpuint (grass->models->len, ==, 0);
  g_assert_cmpuint (grass->tables->len, ==, 2);
  g_assert_cmpstr (((MshIndexTable *) grass->tables->pdata[0])->member, ==, "Land1.wea");
  g_assert_cmpstr (((MshIndexTable *) grass->tables->pdata[1])->member, ==, "sky.wea");

  g_assert_cmpstr (none->name, ==, "NOTHING");
  g_assert_cmpuint (none->models->len + none->named_not_drawn->len + none->tables->len, ==, 0);
}

static void
test_materials (void)
{
  g_autoptr(MshIndex) index = three_archives ();
  GPtrArray *materials = msh_index_get_materials (index);
  const MshIndexMaterial *m;

  /* first met: a.rlb's box (foo), then b.rlb's tree (FOO again, Bar);
   * UNUSED and the tables' GRASS are no key: no drawn batch wears them */
  g_assert_cmpuint (materials->len, ==, 2);
  m = materials->pdata[0];
  g_assert_cmpstr (m->name, ==, "foo");
  g_assert_cmpuint (m->uses->len, ==, 2);
  assert_use (m->uses, 0, "a.rlb", "box.msh", 1, 1);
  assert_use (m->uses, 1, "b.rlb", "tree.msh", 1, 1);
  m = materials->pdata[1];
  g_assert_cmpstr (m->name, ==, "Bar");
  assert_use (m->uses, 0, "b.rlb", "tree.msh", 2, 5);

  /* removed: the answers follow */
  g_assert_true (msh_index_remove (index, "a.rlb"));
  g_assert_false (msh_index_remove (index, "a.rlb"));
  materials = msh_index_get_materials (index);
  g_assert_cmpstr (((MshIndexMaterial *) materials->pdata[0])->name, ==, "FOO");
  g_assert_cmpuint (msh_index_n_models (index), ==, 1);
  g_assert_null (msh_index_lookup (index, "a.rlb"));
  g_assert_nonnull (msh_index_lookup (index, "b.rlb"));
}

static void
test_model_fields (void)
{
  g_autoptr(MshIndex) index = three_archives ();
  MshIndexArchive *b = msh_index_lookup (index, "b.rlb");
  const MshIndexModel *tree = model_at (b, 0);
  const MshIndexModel *box = model_at (msh_index_lookup (index, "a.rlb"), 0);

  print_problems (tree->problems);
  g_assert_cmpuint (tree->problems->len, ==, 0);
  g_assert_cmpstr (tree->member, ==, "tree.msh");
  g_assert_cmpstr (tree->stem, ==, "tree");
  g_assert_cmpstr (tree->wear, ==, "tree.wea");
  g_assert_cmpint (tree->wear_entry, ==, 1);
  g_assert_true (tree->valid);
  g_assert_cmpuint (tree->n_nodes, ==, 2);
  g_assert_cmpuint (tree->n_drawn_nodes, ==, 1);
  g_assert_cmpuint (tree->n_drawn_batches, ==, 3);
  g_assert_cmpuint (tree->n_drawn_triangles, ==, 6);
  /* the cockpit's vertices at z = 100 are not in the bounds */
  g_assert_true (tree->has_bounds);
  g_assert_cmpfloat (tree->bounds_min[0], ==, 0);
  g_assert_cmpfloat (tree->bounds_max[0], ==, 2);
  g_assert_cmpfloat (tree->bounds_max[1], ==, 8);
  g_assert_cmpfloat (tree->bounds_max[2], ==, 0);

  g_assert_cmpuint (tree->n_batches, ==, 4);
  g_assert_cmpuint (tree->batches[0].draws, ==, 1);
  g_assert_cmpuint (tree->batches[2].n_triangles, ==, 3);
  g_assert_cmpuint (tree->batches[3].row, ==, 2);
  g_assert_cmpuint (tree->batches[3].draws, ==, 0);

  g_assert_cmpuint (tree->n_rows, ==, 3);
  g_assert_cmpstr (tree->rows[1].id, ==, "1");
  g_assert_cmpint (tree->rows[1].id_value, ==, 1);
  g_assert_cmpstr (tree->rows[1].material, ==, "Bar");
  g_assert_cmpuint (tree->rows[1].n_batches, ==, 2);
  g_assert_cmpuint (tree->rows[1].n_triangles, ==, 5);
  g_assert_cmpuint (tree->rows[2].n_batches, ==, 0);
  g_assert_cmpstr (msh_index_model_row_material (tree, 2), ==, "UNUSED");
  g_assert_null (msh_index_model_row_material (tree, 3));
  g_assert_cmpuint (g_strv_length (tree->lightmaps), ==, 0);

  /* the wear found by name, any case */
  g_assert_cmpstr (box->wear, ==, "BOX.WEA");
  g_assert_nonnull (box->wear_table);
  g_assert_cmpuint (box->rows[1].n_batches, ==, 0);

  g_assert_true (msh_index_archive_find_model (b, "TREE.MSH") == tree);
  g_assert_true (msh_index_archive_find_model (b, "Tree") == tree);
  g_assert_null (msh_index_archive_find_model (b, "tree.wea"));
}

/* ---- Edge cases ------------------------------------------------------------ */

/* A slot two drawn nodes share: its batches count twice. */
static void
test_drawn_twice (void)
{
  static const guint8 rows[] = { 0, 0 };
  Member members[] = {
    { MESH, "twin.msh", mesh_of (rows, 2, NULL, 0, TRUE) },
    { WEAR, "twin.wea", text ("1\n0 TWIN\n") },
  };
  g_autoptr(MshIndex) index = msh_index_new ();
  g_autoptr(MshIndexWearers) twin = NULL;
  const MshIndexModel *model;

  msh_index_add (index, index_bytes ("twin.rlb", archive_of (members, 2)));
  model = model_at (msh_index_get_archive (index, 0), 0);
  g_assert_cmpuint (model->n_drawn_nodes, ==, 2);
  g_assert_cmpuint (model->n_drawn_batches, ==, 4);
  g_assert_cmpuint (model->batches[0].draws, ==, 2);
  twin = msh_index_where_used (index, "twin");
  assert_use (twin->models, 0, "twin.rlb", "twin.msh", 4, 6);
}

/* Rows past the table, a row without a name, a model without its wear,
 * a model with an error: what each contributes. */
static void
test_problems (void)
{
  static const guint8 rows[] = { 0, 1, 5 };
  static const guint8 one[] = { 0 };
  g_autoptr(GBytes) broken_mesh = NULL;
  g_autoptr(MshIndex) index = msh_index_new ();
  MshIndexArchive *archive;
  const MshIndexModel *model;
  const MshProblem *p;
  guint8 *data;
  gsize size;

  /* stream 1 (the nodes) one byte short: an error */
  {
    g_autoptr(GBytes) good = mesh_of (one, 1, NULL, 0, FALSE);
    g_autoptr(NresArchive) inner = nres_archive_parse (good, NULL);

    const guint8 *bytes = g_bytes_get_data (good, &size);

    data = g_memdup2 (bytes, size);
    g_assert_nonnull (inner);
    /* the nodes' directory entry: attr1 (count) 1 -> 2 */
    for (guint i = 0; i < inner->n_entries; i++)
      if (inner->entries[i].type_id == 1)
        data[inner->directory_offset + i * 64 + 4] = 2;
    broken_mesh = g_bytes_new_take (data, size);
  }
  {
    Member members[] = {
      { MESH, "rows.msh", mesh_of (rows, 3, NULL, 0, FALSE) },
      { WEAR, "rows.wea", text ("2\n0 NAMED\n1\n") },
      { MESH, "bare.msh", mesh_of (one, 1, NULL, 0, FALSE) },
      { MESH, "broken.msh", g_bytes_ref (broken_mesh) },
      { WEAR, "broken.wea", text ("1\n0 BROKEN\n") },
    };

    msh_index_add (index, index_bytes ("p.rlb", archive_of (members, 5)));
  }
  archive = msh_index_get_archive (index, 0);
  g_assert_cmpuint (archive->models->len, ==, 3);
  g_assert_cmpuint (archive->tables->len, ==, 0);
  g_assert_cmpuint (archive->n_errors, ==, 1);

  /* row 1 has an id and no name: it names nothing; batch 2's row 5 is
   * past the table */
  model = model_at (archive, 0);
  print_problems (model->problems);
  g_assert_cmpuint (model->problems->len, ==, 2);
  p = model->problems->pdata[0];
  g_assert_cmpint (p->check, ==, MSH_CHECK_WEAR_ONE_FIELD);
  p = model->problems->pdata[1];
  g_assert_cmpint (p->check, ==, MSH_CHECK_WEAR_ROW);
  g_assert_cmpstr (model->rows[1].material, ==, "");
  g_assert_null (msh_index_model_row_material (model, 1));
  g_assert_null (msh_index_model_row_material (model, 5));
  g_assert_cmpuint (model->rows[1].n_batches, ==, 1);
  g_assert_cmpuint (msh_index_get_materials (index)->len, ==, 1);
  g_assert_cmpstr (((MshIndexMaterial *) msh_index_get_materials (index)->pdata[0])->name, ==, "NAMED");

  /* no .wea: a lint, no rows, nothing worn */
  model = model_at (archive, 1);
  g_assert_null (model->wear);
  g_assert_cmpint (model->wear_entry, ==, -1);
  g_assert_cmpuint (model->n_rows, ==, 0);
  g_assert_true (model->valid);
  g_assert_cmpuint (model->problems->len, ==, 1);
  g_assert_cmpint (((MshProblem *) model->problems->pdata[0])->check, ==, MSH_CHECK_NO_WEAR);

  /* an error: nothing drawn, no batches; its rows kept, named not drawn */
  model = model_at (archive, 2);
  g_assert_false (model->valid);
  g_assert_true (msh_index_model_has_error (model));
  g_assert_cmpuint (model->n_batches, ==, 0);
  g_assert_cmpuint (model->n_drawn_triangles, ==, 0);
  g_assert_false (model->has_bounds);
  g_assert_cmpuint (model->n_rows, ==, 1);
  p = model->problems->pdata[0];
  g_assert_cmpint (p->severity, ==, MSH_SEVERITY_ERROR);
  g_assert_cmpint (p->check, ==, MSH_CHECK_STREAM_SIZE);
  {
    g_autoptr(MshIndexWearers) w = msh_index_where_used (index, "broken");

    g_assert_cmpuint (w->models->len, ==, 0);
    g_assert_cmpuint (w->named_not_drawn->len, ==, 1);
  }
}

/* An archive that fails formats.md 1: reported with the reader's
 * message, no models. */
static void
test_failed_archive (void)
{
  static const guint8 one[] = { 0 };
  Member members[] = {
    { MESH, "x.msh", mesh_of (one, 1, NULL, 0, FALSE) },
    { WEAR, "x.wea", text ("1\n0 X\n") },
  };
  g_autoptr(GBytes) good = archive_of (members, 2);
  gsize size = g_bytes_get_size (good);
  guint8 *data = g_memdup2 (g_bytes_get_data (good, NULL), size);
  g_autoptr(MshIndex) index = msh_index_new ();
  MshIndexArchive *archive;
  g_autoptr(MshIndexWearers) x = NULL;

  data[4] = 2;   /* version 0x102 */
  archive = msh_index_archive_new_from_bytes ("bad.rlb", g_bytes_new_take (data, size));
  g_assert_true (archive->failed);
  g_assert_cmpstr (archive->error, ==, "(header): offset 4: expected version 0x00000100, found 0x00000102");
  g_assert_cmpuint (archive->models->len, ==, 0);
  msh_index_add (index, archive);
  g_assert_cmpuint (msh_index_n_archives (index), ==, 1);
  g_assert_cmpuint (msh_index_n_models (index), ==, 0);
  x = msh_index_where_used (index, "X");
  g_assert_cmpuint (x->named_not_drawn->len, ==, 0);
}

/* Worn but missing: against the library, again when it changes. */
static void
test_library (void)
{
  g_autoptr(MshIndex) index = three_archives ();
  const MshIndexModel *tree = model_at (msh_index_lookup (index, "b.rlb"), 0);
  const MshIndexTable *land = msh_index_lookup (index, "c.rlb")->tables->pdata[0];
  static const guint8 mat0[] = { 0 };
  TestEntrySpec lib_specs[] = {
    { 0x3054414Du, 0, 0, 0, "FOO", mat0, 1, 0 },
    { 0x3054414Du, 0, 0, 0, "DEFAULT", mat0, 1, 0 },
  };
  g_autoptr(GBytes) lib = test_build_archive (lib_specs, 2, TRUE);

  g_autofree char *expected = NULL;

  g_assert_cmpuint (tree->library_problems->len, ==, 0);
  msh_index_set_library (index, nres_archive_parse (lib, NULL));
  print_problems (tree->library_problems);
  g_assert_cmpuint (tree->library_problems->len, ==, 2);
  /* "3\r\n0 FOO\r\n1 Bar": the name at byte 12 of the member */
  expected = g_strdup_printf ("tree.wea: row 1: offset %u: expected a material of the library, found “Bar” (worn but missing: the game draws DEFAULT)",
                              (guint) tree->wear_table->base_offset + 12);
  g_assert_cmpstr (((MshProblem *) tree->library_problems->pdata[0])->message, ==, expected);
  g_assert_cmpint (((MshProblem *) tree->library_problems->pdata[1])->check, ==, MSH_CHECK_WEAR_MISSING);
  g_assert_cmpuint (land->library_problems->len, ==, 1);
  /* an archive added later is linted too */
  {
    static const guint8 one[] = { 0 };
    Member members[] = {
      { MESH, "d.msh", mesh_of (one, 1, NULL, 0, FALSE) },
      { WEAR, "d.wea", text ("1\n0 MISSING\n") },
    };
    MshIndexArchive *d = index_bytes ("d.rlb", archive_of (members, 2));

    msh_index_add (index, d);
    g_assert_cmpuint (model_at (d, 0)->library_problems->len, ==, 1);
  }
  msh_index_set_library (index, NULL);
  g_assert_cmpuint (tree->library_problems->len, ==, 0);
}

/* The first MESH of a name, else of a stem; the first WEAR of the stem. */
static void
test_find (void)
{
  NresEntry entries[5] = { { 0 } };
  static const struct { guint32 type; const char *name; } spec[] = {
    { WEAR, "a.wea" }, { MESH, "b.msh" }, { MESH, "a" }, { MESH, "A.MSH" }, { WEAR, "A.wea" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (spec); i++)
    {
      entries[i].type_id = spec[i].type;
      strcpy (entries[i].name, spec[i].name);
    }
  g_assert_cmpint (msh_index_find_model (entries, 5, "a.msh"), ==, 3);
  g_assert_cmpint (msh_index_find_model (entries, 5, "A"), ==, 2);
  g_assert_cmpint (msh_index_find_model (entries, 5, "b"), ==, 1);
  g_assert_cmpint (msh_index_find_model (entries, 5, "a.wea"), ==, -1);
  g_assert_cmpint (msh_index_find_wear (entries, 5, 3), ==, 0);
  g_assert_cmpint (msh_index_find_wear (entries, 5, 2), ==, 0);
  g_assert_cmpint (msh_index_find_wear (entries, 5, 1), ==, -1);
}

/* ---- Caps: members too large are never read -------------------------------- */

typedef struct {
  guint   calls;
  guint8 *zeros;   /* large, never touched: calloc's zero pages */
} FakeReader;

static GBytes *
fake_read (const NresEntry  *entry,
           guint             index,
           gpointer          user_data,
           GError          **error)
{
  FakeReader *r = user_data;

  r->calls++;
  g_assert_cmpuint (entry->size, <=, 60u << 20);
  return g_bytes_new_static (r->zeros, entry->size);
}

static void
put_entry (guint8     *p,
           guint32     type,
           guint32     size,
           guint32     offset,
           const char *name)
{
  memset (p, 0, 64);
  memcpy (p, &type, 4);
  memcpy (p + 12, &size, 4);
  strcpy ((char *) p + 20, name);
  memcpy (p + 56, &offset, 4);
}

static void
test_caps (void)
{
  /* a 100 MiB MESH and a 2 MiB WEAR: past their caps; then five MESH of
   * 60 MiB: four are read, the fifth would pass the 256 MiB budget */
  guint8 directory[8 * 64];
  FakeReader reader = { 0, g_malloc0 (60u << 20) };
  g_autoptr(MshIndexArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  const MshIndexModel *model;
  guint32 offset = 16;

  put_entry (directory, MESH, 100u << 20, offset, "huge.msh");
  offset += 100u << 20;
  put_entry (directory + 64, WEAR, 2u << 20, offset, "huge.wea");
  offset += 2u << 20;
  for (guint i = 0; i < 5; i++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "m%u.msh", i);
      put_entry (directory + 128 + 64 * i, MESH, 60u << 20, offset, name);
      offset += 60u << 20;
    }
  put_entry (directory + 448, TEXM, 1, offset, "TEX.0");

  archive = msh_index_archive_read ("caps.rlb", directory, 8, offset + 8, fake_read, &reader,
                                    &error);
  g_assert_no_error (error);
  g_assert_cmpuint (reader.calls, ==, 4);
  g_assert_cmpuint (archive->models->len, ==, 6);
  model = model_at (archive, 0);
  print_problems (model->problems);
  g_assert_cmpuint (model->problems->len, ==, 2);
  g_assert_cmpstr (((MshProblem *) model->problems->pdata[0])->message, ==,
                   "huge.msh: offset 421527588: expected a MESH member of at most 67108864 bytes, found 104857600 (not read)");
  g_assert_cmpint (((MshProblem *) model->problems->pdata[0])->severity, ==, MSH_SEVERITY_ERROR);
  g_assert_cmpstr (((MshProblem *) model->problems->pdata[1])->message, ==,
                   "huge.wea: offset 421527652: expected a WEAR member of at most 1048576 bytes, found 2097152 (not read)");
  g_assert_cmpint (((MshProblem *) model->problems->pdata[1])->severity, ==, MSH_SEVERITY_LINT);
  g_assert_cmpstr (model->wear, ==, "huge.wea");
  g_assert_null (model->wear_table);
  model = model_at (archive, 5);
  g_assert_cmpstr (((MshProblem *) model->problems->pdata[0])->message, ==,
                   "m4.msh: offset 421527972: expected at most 268435456 bytes of MESH and WEAR members in one archive, found more with its 62914560 (not read)");
  /* the four read are zeros: the inner archive's error */
  g_assert_cmpint (((MshProblem *) model_at (archive, 1)->problems->pdata[0])->check, ==, MSH_CHECK_ARCHIVE);
  g_free (reader.zeros);
}

static GBytes *
failing_read (const NresEntry  *entry,
              guint             index,
              gpointer          user_data,
              GError          **error)
{
  g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_IO, "no");
  return NULL;
}

/* An I/O error of the reader: no archive, the error. */
static void
test_reader_error (void)
{
  guint8 directory[64];
  g_autoptr(GError) error = NULL;
  MshIndexArchive *archive;

  put_entry (directory, WEAR, 10, 16, "t.wea");
  archive = msh_index_archive_read ("t.rlb", directory, 1, 32, failing_read, NULL, &error);
  g_assert_null (archive);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_IO);
}

/* A node tree that loops: a lint, the model still drawn and worn. */
static void
test_loop (void)
{
  TestMesh *m = test_mesh_new ();
  TestMeshNode nodes[2] = {
    test_mesh_node (0, 1, TEST_NONE, TEST_NONE, 0),
    test_mesh_node (0, 0, TEST_NONE, TEST_NONE, TEST_NONE),
  };
  TestMeshSlot slot = { 0, 1, 0, 1 };
  TestMeshBatch batch = { 0, 0, 0xFF, TEST_NONE, 3, 0, 3, 0 };
  static const float xyz[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
  static const gint8 nrm[9] = { 0 };
  static const guint16 uv[6] = { 0 };
  static const guint16 abc[3] = { 0, 1, 2 };
  g_autoptr(MshIndex) index = msh_index_new ();
  g_autoptr(MshIndexWearers) w = NULL;
  const MshIndexModel *model;
  Member members[2];

  test_mesh_nodes (m, nodes, 2);
  test_mesh_slots (m, &slot, 1);
  test_mesh_positions (m, xyz, 3);
  test_mesh_normals (m, nrm, 3);
  test_mesh_uvs (m, 5, uv, 3);
  test_mesh_triangles (m, abc, 1);
  test_mesh_batches (m, &batch, 1);
  members[0] = (Member) { MESH, "loop.msh", test_mesh_build (m) };
  members[1] = (Member) { WEAR, "loop.wea", text ("1\n0 RING\n") };
  test_mesh_free (m);

  msh_index_add (index, index_bytes ("loop.rlb", archive_of (members, 2)));
  model = model_at (msh_index_get_archive (index, 0), 0);
  g_assert_true (model->valid);
  g_assert_cmpuint (model->problems->len, ==, 1);
  g_assert_cmpint (((MshProblem *) model->problems->pdata[0])->check, ==, MSH_CHECK_PARENT_LOOP);
  w = msh_index_where_used (index, "ring");
  assert_use (w->models, 0, "loop.rlb", "loop.msh", 1, 1);
}

/* Thousands of broken copies of a good archive (bytes changed, cut
 * short, directories pointing anywhere): the index never crashes, reads
 * outside the bytes (run it under AddressSanitizer) nor holds more than
 * the archive's entries, and every model is either drawn or has an
 * error. */
static void
test_garbage (void)
{
  static const guint8 rows[] = { 0, 1, 2, 1 };
  static const guint8 hidden[] = { 3 };
  Member members[] = {
    { MESH, "tree.msh", mesh_of (rows, 4, hidden, 1, TRUE) },
    { WEAR, "tree.wea", text ("4\r\n0 A\r\n1 B\r\n2 C\r\n3 D\r\n\r\nLIGHTMAPS\r\n1\r\n0 lm.0\r\n") },
    { WEAR, "sky.wea", text ("2\n0 S\n1 T\n") },
  };
  g_autoptr(GBytes) good = archive_of (members, 3);
  g_autoptr(GRand) rand = g_rand_new_with_seed (19);
  gsize size = g_bytes_get_size (good);
  guint failed = 0, with_error = 0, drawn = 0;

  for (guint round = 0; round < 3000; round++)
    {
      guint8 *data = g_memdup2 (g_bytes_get_data (good, NULL), size);
      gsize n = size;
      g_autoptr(MshIndex) index = msh_index_new ();
      g_autoptr(MshIndexWearers) w = NULL;
      MshIndexArchive *archive;
      guint flips = (guint) g_rand_int_range (rand, 1, 9);

      for (guint f = 0; f < flips; f++)
        {
          gsize at = (gsize) g_rand_int_range (rand, 0, (gint) size);

          /* past the header, so that most copies still parse */
          if (at < 16 && g_rand_boolean (rand))
            at += 16;
          data[at] = (guint8) g_rand_int (rand);
        }
      if (g_rand_int_range (rand, 0, 10) == 0)
        n = (gsize) g_rand_int_range (rand, 0, (gint) size);
      archive = msh_index_archive_new_from_bytes ("x.rlb", g_bytes_new_take (data, n));
      if (archive->failed)
        failed++;
      g_assert_cmpuint (archive->models->len + archive->tables->len, <=, archive->n_entries);
      for (guint i = 0; i < archive->models->len; i++)
        {
          const MshIndexModel *model = archive->models->pdata[i];

          if (model->valid)
            {
              drawn++;
              g_assert_false (msh_index_model_has_error (model));
            }
          else
            {
              with_error++;
              g_assert_true (msh_index_model_has_error (model));
              g_assert_cmpuint (model->n_batches, ==, 0);
            }
        }
      msh_index_add (index, archive);
      g_assert_nonnull (msh_index_get_materials (index));
      w = msh_index_where_used (index, "B");
    }
  g_test_message ("%u archives failed, %u models with errors, %u drawn", failed, with_error, drawn);
  /* every kind was met */
  g_assert_cmpuint (failed, >, 0);
  g_assert_cmpuint (with_error, >, 0);
  g_assert_cmpuint (drawn, >, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/msh-index/where-used", test_where_used);
  g_test_add_func ("/core/msh-index/materials", test_materials);
  g_test_add_func ("/core/msh-index/model-fields", test_model_fields);
  g_test_add_func ("/core/msh-index/drawn-twice", test_drawn_twice);
  g_test_add_func ("/core/msh-index/problems", test_problems);
  g_test_add_func ("/core/msh-index/failed-archive", test_failed_archive);
  g_test_add_func ("/core/msh-index/library", test_library);
  g_test_add_func ("/core/msh-index/find", test_find);
  g_test_add_func ("/core/msh-index/caps", test_caps);
  g_test_add_func ("/core/msh-index/reader-error", test_reader_error);
  g_test_add_func ("/core/msh-index/loop", test_loop);
  g_test_add_func ("/core/msh-index/garbage", test_garbage);

  return g_test_run ();
}
