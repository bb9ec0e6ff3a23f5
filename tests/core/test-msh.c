/* test-msh.c - MESH: streams, validation, the rest pose and what is drawn
 * (models.md 2), on hand-made models built in the test (test-mesh.h)
 *
 * Each rule has a case that fails when the rule is read the other way:
 * the material is byte +4 (not the u16 at +2), indices are relative to
 * the batch's first vertex, quaternions are conjugated, a root keeps its
 * rotation but not its translation, a child's translation is turned by
 * its parent's rotation, cockpits and damage slots are not drawn, the
 * rest key comes from the frame map.
 */
#include "config.h"

#include <string.h>

#include "msh.h"
#include "nres.h"
#include "test-mesh.h"
#include "test-support.h"
#include "wear.h"

#define BASE 16   /* where test_model_archive puts the .msh payload */
#define EPS 1e-5

/* cos 45° x 32767, rounded */
#define H 23170

static MshModel *
read_mesh (const TestMesh *mesh)
{
  g_autoptr(GBytes) payload = test_mesh_build (mesh);

  return msh_model_read (payload, BASE, "tree.msh");
}

static void
assert_vec3 (const float *got,
             double       x,
             double       y,
             double       z)
{
  g_assert_cmpfloat_with_epsilon (got[0], x, EPS);
  g_assert_cmpfloat_with_epsilon (got[1], y, EPS);
  g_assert_cmpfloat_with_epsilon (got[2], z, EPS);
}

static void
assert_no_problems (const MshModel *model)
{
  for (guint i = 0; i < model->problems->len; i++)
    g_test_message ("%s", ((MshProblem *) model->problems->pdata[i])->message);
  g_assert_cmpuint (model->problems->len, ==, 0);
  g_assert_true (model->valid);
}

/* The only problem of @problems is an error (or lint) with @message. */
static void
assert_one_problem (const GPtrArray *problems,
                    MshSeverity      severity,
                    MshCheck         check,
                    const char      *message)
{
  const MshProblem *p;

  for (guint i = 0; i < problems->len; i++)
    g_test_message ("%s", ((MshProblem *) problems->pdata[i])->message);
  g_assert_cmpuint (problems->len, ==, 1);
  p = problems->pdata[0];
  g_assert_cmpstr (p->message, ==, message);
  g_assert_cmpint (p->severity, ==, severity);
  g_assert_cmpint (p->check, ==, check);
}

static void
assert_error (const MshModel *model,
              MshCheck        check,
              const char     *message)
{
  g_autoptr(MshDraw) draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);

  assert_one_problem (model->problems, MSH_SEVERITY_ERROR, check, message);
  g_assert_false (model->valid);
  g_assert_null (model->poses);
  g_assert_null (draw);
}

/* ---- Two quads, two batches, two materials ----------------------------- */

static const float two_quads_xyz[] = {
  0, 0, 0,  1, 0, 0,  1, 1, 0,  0, 1, 0,      /* quad A, z = 0 */
  0, 0, 1,  1, 0, 1,  1, 1, 1,  0, 1, 1,      /* quad B, z = 1 */
};
static const gint8 up_normals[] = {
  0, 0, 127,  0, 0, 127,  0, 0, 127,  0, 0, 127,
  0, 0, 127,  0, 0, 127,  0, 0, 127,  0, 0, 127,
};
static const guint16 quad_uvs[] = {
  0, 0,  1024, 0,  1024, 1024,  0, 1024,
  0, 0,  512, 0,  512, 2048,  0, 2048,
};
/* relative to each batch's first vertex */
static const guint16 two_quads_abc[] = { 0, 1, 2,  0, 2, 3,  0, 1, 2,  0, 2, 3 };

/* Node 0 (root) draws slot 0: batch 0 (quad A, row @row0, word @word0)
 * and batch 1 (quad B, row @row1, word @word1, first vertex 4). */
static TestMesh *
two_quads (guint32 word0,
           guint8  row0,
           guint32 word1,
           guint8  row1)
{
  TestMesh *m = test_mesh_new ();
  TestMeshNode node = test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0);
  TestMeshSlot slot = { 0, 4, 0, 2 };
  TestMeshBatch batches[] = {
    { word0, row0, 0xFF, TEST_NONE, 6, 0, 4, 0 },
    { word1, row1, 0xFF, TEST_NONE, 6, 6, 4, 4 },
  };

  test_mesh_nodes (m, &node, 1);
  test_mesh_slots (m, &slot, 1);
  test_mesh_positions (m, two_quads_xyz, 8);
  test_mesh_normals (m, up_normals, 8);
  test_mesh_uvs (m, 5, quad_uvs, 8);
  test_mesh_triangles (m, two_quads_abc, 4);
  test_mesh_batches (m, batches, 2);

  return m;
}

static void
test_two_quads (void)
{
  TestMesh *m = two_quads (0, 0, 0, 1);
  g_autoptr(MshModel) model = read_mesh (m);
  g_autoptr(MshDraw) draw = NULL;
  static const guint32 indices[] = { 0, 1, 2, 0, 2, 3,  4, 5, 6, 4, 6, 7 };

  assert_no_problems (model);
  g_assert_cmpuint (model->n_nodes, ==, 1);
  g_assert_cmpuint (model->n_slots, ==, 1);
  g_assert_cmpuint (model->n_batches, ==, 2);
  g_assert_cmpuint (model->n_vertices, ==, 8);
  g_assert_cmpuint (model->n_triangles, ==, 4);
  g_assert_cmpuint (model->n_drawn_nodes, ==, 1);
  g_assert_cmpuint (model->n_drawn_batches, ==, 2);
  g_assert_cmpuint (model->n_drawn_triangles, ==, 4);
  g_assert_cmpuint (model->batches[1].first_vertex, ==, 4);
  g_assert_cmpuint (model->batches[1].page, ==, 0xFF);

  draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);
  g_assert_nonnull (draw);
  g_assert_cmpuint (draw->n_batches, ==, 2);
  g_assert_cmpuint (draw->n_drawn_nodes, ==, 1);
  g_assert_cmpuint (draw->n_triangles, ==, 4);
  g_assert_cmpuint (draw->batches[0].batch, ==, 0);
  g_assert_cmpuint (draw->batches[0].node, ==, 0);
  g_assert_cmpuint (draw->batches[0].slot, ==, 0);
  g_assert_cmpuint (draw->batches[0].row, ==, 0);
  g_assert_cmpuint (draw->batches[0].n_triangles, ==, 2);
  g_assert_cmpuint (draw->batches[0].first_index, ==, 0);
  g_assert_cmpuint (draw->batches[0].first_vertex, ==, 0);
  g_assert_cmpuint (draw->batches[0].n_vertices, ==, 4);
  g_assert_cmpuint (draw->batches[1].batch, ==, 1);
  g_assert_cmpuint (draw->batches[1].row, ==, 1);
  g_assert_cmpuint (draw->batches[1].first_index, ==, 6);
  g_assert_cmpuint (draw->batches[1].first_vertex, ==, 4);
  g_assert_cmpuint (draw->batches[1].n_vertices, ==, 4);

  g_assert_cmpuint (draw->n_vertices, ==, 8);
  g_assert_cmpuint (draw->n_indices, ==, 12);
  for (guint i = 0; i < 12; i++)
    g_assert_cmpuint (draw->indices[i], ==, indices[i]);
  for (guint v = 0; v < 8; v++)
    {
      assert_vec3 (draw->positions + 3 * v, two_quads_xyz[3 * v],
                   two_quads_xyz[3 * v + 1], two_quads_xyz[3 * v + 2]);
      assert_vec3 (draw->normals + 3 * v, 0, 0, 1);
      g_assert_cmpfloat (draw->uvs[2 * v], ==, quad_uvs[2 * v] / 1024.0);
      g_assert_cmpfloat (draw->uvs[2 * v + 1], ==, quad_uvs[2 * v + 1] / 1024.0);
    }
  g_assert_cmpfloat (draw->uvs[13], ==, 2.0);
  g_assert_null (draw->lightmap_uvs);

  g_assert_true (draw->has_bounds);
  assert_vec3 (draw->bounds_min, 0, 0, 0);
  assert_vec3 (draw->bounds_max, 1, 1, 1);
  assert_vec3 (draw->batches[0].box_min, 0, 0, 0);
  assert_vec3 (draw->batches[0].box_max, 1, 1, 0);
  assert_vec3 (draw->batches[1].box_min, 0, 0, 1);
  assert_vec3 (draw->batches[1].box_max, 1, 1, 1);

  g_assert_cmpuint (draw->row_batches[0], ==, 1);
  g_assert_cmpuint (draw->row_batches[1], ==, 1);
  g_assert_cmpuint (draw->row_triangles[0], ==, 2);
  g_assert_cmpuint (draw->row_triangles[1], ==, 2);
  g_assert_cmpuint (draw->row_batches[2], ==, 0);
  g_assert_cmpuint (draw->batch_draws[0], ==, 1);
  g_assert_cmpuint (draw->batch_draws[1], ==, 1);
  test_mesh_free (m);
}

/* The counts without the arrays agree with the full draw. */
static void
test_counts_only (void)
{
  TestMesh *m = two_quads (0, 0, 0, 1);
  g_autoptr(MshModel) model = read_mesh (m);
  g_autoptr(MshDraw) draw = msh_model_draw (model, MSH_DRAW_COUNTS);

  g_assert_cmpuint (draw->n_batches, ==, 2);
  g_assert_cmpuint (draw->n_triangles, ==, 4);
  g_assert_cmpuint (draw->n_vertices, ==, 0);
  g_assert_null (draw->positions);
  g_assert_null (draw->indices);
  g_assert_true (draw->has_bounds);
  assert_vec3 (draw->bounds_max, 1, 1, 1);
  assert_vec3 (draw->batches[1].box_min, 0, 0, 1);
  test_mesh_free (m);
}

/* The material is byte +4. The u16 at +2 (the upper half of the batch
 * word) is made to say the other row: a reader of +2 swaps the rows. */
static void
test_material_byte_4 (void)
{
  TestMesh *m = two_quads (0x00010000u, 0, 0, 1);
  g_autoptr(MshModel) model = read_mesh (m);
  g_autoptr(MshDraw) draw = msh_model_draw (model, MSH_DRAW_COUNTS);
  g_autoptr(GBytes) payload = test_mesh_build (m);
  const guint8 *p = (const guint8 *) g_bytes_get_data (payload, NULL) + test_mesh_stream_offset (m, 6);

  /* the bytes as built: +2 says 1, +4 says 0 (batch 0); +2 0, +4 1 (batch 1) */
  g_assert_cmpuint (test_get_u16 (p + 2), ==, 1);
  g_assert_cmpuint (p[4], ==, 0);
  g_assert_cmpuint (test_get_u16 (p + 22), ==, 0);
  g_assert_cmpuint (p[24], ==, 1);

  assert_no_problems (model);
  g_assert_cmpuint (model->batches[0].row, ==, 0);
  g_assert_cmpuint (model->batches[0].word, ==, 0x00010000u);
  g_assert_cmpuint (model->batches[1].row, ==, 1);
  g_assert_cmpuint (draw->batches[0].row, ==, 0);
  g_assert_cmpuint (draw->batches[1].row, ==, 1);
  /* a word with unknown bits is not a lint */
  g_assert_cmpuint (model->problems->len, ==, 0);

  /* and the row is a position in the wear, whatever the ids say */
  {
    g_autoptr(GBytes) text = g_bytes_new_static ("2\r\n1 SECOND\r\n0 FIRST\r\n", 22);
    g_autoptr(WearTable) wear = wear_table_read (text, 0, "tree.wea");

    g_assert_cmpstr (wear->rows[draw->batches[0].row].name, ==, "SECOND");
    g_assert_cmpstr (wear->rows[draw->batches[1].row].name, ==, "FIRST");
  }
  test_mesh_free (m);
}

/* Indices are relative to the batch's first vertex: batch 1's indices
 * 0, 1, 2, 3 are vertices 4..7 (z = 1), not 0..3 (z = 0). */
static void
test_relative_indices (void)
{
  TestMesh *m = two_quads (0, 0, 0, 1);
  g_autoptr(MshModel) model = read_mesh (m);
  g_autoptr(MshDraw) draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);
  const MshDrawBatch *b = &draw->batches[1];

  for (guint i = 0; i < 6; i++)
    g_assert_cmpfloat (draw->positions[3 * draw->indices[b->first_index + i] + 2], ==, 1.0f);
  assert_vec3 (draw->positions + 3 * b->first_vertex, 0, 0, 1);
  assert_vec3 (draw->positions + 3 * (b->first_vertex + 2), 1, 1, 1);
  test_mesh_free (m);
}

/* Vertices reached by no drawn node are not drawn, nor in the bounds. */
static void
test_unreached_vertices (void)
{
  TestMesh *m = test_mesh_new ();
  TestMeshNode node = test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0);
  TestMeshSlot slot = { 0, 1, 0, 1 };
  /* vertex 0 and 4 are never a corner */
  static const float xyz[] = { 100, 100, 100,  1, 0, 0,  0, 2, 0,  0, 0, 3,  -50, -50, -50 };
  static const gint8 nrm[15] = { 0 };
  static const guint16 uv[10] = { 0 };
  static const guint16 abc[] = { 0, 1, 2 };
  TestMeshBatch batch = { 0, 0, 0, TEST_NONE, 3, 0, 3, 1 };
  g_autoptr(MshModel) model = NULL;
  g_autoptr(MshDraw) draw = NULL;

  test_mesh_nodes (m, &node, 1);
  test_mesh_slots (m, &slot, 1);
  test_mesh_positions (m, xyz, 5);
  test_mesh_normals (m, nrm, 5);
  test_mesh_uvs (m, 5, uv, 5);
  test_mesh_triangles (m, abc, 1);
  test_mesh_batches (m, &batch, 1);
  model = read_mesh (m);
  assert_no_problems (model);
  draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);
  g_assert_cmpuint (draw->n_vertices, ==, 3);
  assert_vec3 (draw->positions, 1, 0, 0);
  assert_vec3 (draw->positions + 6, 0, 0, 3);
  assert_vec3 (draw->bounds_min, 0, 0, 0);
  assert_vec3 (draw->bounds_max, 1, 2, 3);
  test_mesh_free (m);
}

/* ---- One triangle per node --------------------------------------------- */

/* Node i draws slot i (set by the caller in @nodes), which holds batch i:
 * triangle i, vertices 3i..3i+2 given in @xyz (3 per node). */
static TestMesh *
per_node_mesh (const TestMeshNode  *nodes,
               guint                n,
               const float         *xyz,
               const TestMeshKey   *keys,
               guint                n_keys)
{
  TestMesh *m = test_mesh_new ();
  g_autofree TestMeshSlot *slots = g_new0 (TestMeshSlot, n);
  g_autofree TestMeshBatch *batches = g_new0 (TestMeshBatch, n);
  g_autofree guint16 *abc = g_new0 (guint16, 3 * n);
  g_autofree gint8 *nrm = g_new0 (gint8, 9 * n);
  g_autofree guint16 *uv = g_new0 (guint16, 6 * n);

  for (guint i = 0; i < n; i++)
    {
      slots[i] = (TestMeshSlot) { (guint16) i, 1, (guint16) i, 1 };
      batches[i] = (TestMeshBatch) { 0, (guint8) i, 0xFF, TEST_NONE, 3, (guint16) (3 * i), 3,
                                     (guint16) (3 * i) };
      abc[3 * i] = 0;
      abc[3 * i + 1] = 1;
      abc[3 * i + 2] = 2;
      for (guint v = 0; v < 3; v++)
        nrm[9 * i + 3 * v] = 127;   /* +X, to see normals turn */
    }
  test_mesh_nodes (m, nodes, n);
  test_mesh_slots (m, slots, n);
  test_mesh_positions (m, xyz, 3 * n);
  test_mesh_normals (m, nrm, 3 * n);
  test_mesh_uvs (m, 5, uv, 3 * n);
  test_mesh_triangles (m, abc, n);
  test_mesh_batches (m, batches, n);
  if (keys != NULL)
    test_mesh_keys (m, keys, n_keys);

  return m;
}

/* The posed position of corner @c of the batch drawn by node @node. */
static const float *
corner_of (const MshDraw *draw,
           guint          node,
           guint          c)
{
  for (guint i = 0; i < draw->n_batches; i++)
    if (draw->batches[i].node == node)
      return draw->positions + 3 * draw->indices[draw->batches[i].first_index + c];

  g_assert_not_reached ();
  return NULL;
}

/* The file's quaternion (w, x, y, z) = 90° about +Z is conjugated: the
 * root turns by -90°, so +X goes to -Y (unconjugated: +Y). The root's
 * translation (5, 6, 7) is dropped; its rotation is kept. */
static void
test_conjugated_root (void)
{
  TestMeshNode node = test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0);
  static const float xyz[] = { 1, 0, 0,  0, 2, 0,  0, 0, 3 };
  TestMeshKey key = { { 5, 6, 7 }, 0, { H, 0, 0, H } };
  TestMesh *m = per_node_mesh (&node, 1, xyz, &key, 1);
  g_autoptr(MshModel) model = read_mesh (m);
  g_autoptr(MshDraw) draw = NULL;

  assert_no_problems (model);
  g_assert_cmpint (model->poses[0].key, ==, 0);
  g_assert_cmpfloat_with_epsilon (model->poses[0].rotation[0], G_SQRT2 / 2, EPS);
  g_assert_cmpfloat_with_epsilon (model->poses[0].rotation[1], 0, EPS);
  g_assert_cmpfloat_with_epsilon (model->poses[0].rotation[2], 0, EPS);
  g_assert_cmpfloat_with_epsilon (model->poses[0].rotation[3], -G_SQRT2 / 2, EPS);
  assert_vec3 (model->poses[0].translation, 0, 0, 0);

  draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);
  assert_vec3 (corner_of (draw, 0, 0), 0, -1, 0);
  assert_vec3 (corner_of (draw, 0, 1), 2, 0, 0);
  assert_vec3 (corner_of (draw, 0, 2), 0, 0, 3);
  /* normals turn with the node: +X to -Y */
  assert_vec3 (draw->normals, 0, -1, 0);
  assert_vec3 (draw->bounds_min, 0, -1, 0);
  assert_vec3 (draw->bounds_max, 2, 0, 3);
  test_mesh_free (m);
}

/* An all-zero quaternion is the identity; a quaternion is normalised. */
static void
test_quaternion_normalised (void)
{
  TestMeshNode nodes[] = {
    test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0),
    test_mesh_node (0, 0, TEST_NONE, 1, 1),
  };
  static const float xyz[] = { 1, 0, 0,  0, 1, 0,  0, 0, 1,
                               1, 0, 0,  0, 1, 0,  0, 0, 1 };
  /* 180° about +Y at a quarter of unit length */
  TestMeshKey keys[] = {
    { { 0, 0, 0 }, 0, { 0, 0, 0, 0 } },
    { { 0, 0, 0 }, 0, { 0, 0, 8000, 0 } },
  };
  TestMesh *m = per_node_mesh (nodes, 2, xyz, keys, 2);
  g_autoptr(MshModel) model = read_mesh (m);
  g_autoptr(MshDraw) draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);

  assert_no_problems (model);
  g_assert_cmpfloat_with_epsilon (model->poses[0].rotation[0], 1, EPS);
  assert_vec3 (corner_of (draw, 0, 0), 1, 0, 0);
  g_assert_cmpfloat_with_epsilon (model->poses[1].rotation[2], -1, EPS);
  assert_vec3 (corner_of (draw, 1, 0), -1, 0, 0);
  assert_vec3 (corner_of (draw, 1, 2), 0, 0, -1);
  test_mesh_free (m);
}

/* A chain of three: the child's translation is turned by its parent's
 * rotation, rotations multiply parent first (q_parent x q_local), and
 * the grandchild hangs from the child's composed pose. */
static void
test_chain (void)
{
  TestMeshNode nodes[] = {
    test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0),
    test_mesh_node (0, 0, TEST_NONE, 1, 1),
    test_mesh_node (0, 1, TEST_NONE, 2, 2),
  };
  static const float xyz[] = {
    0, 0, 0,  1, 0, 0,  0, 0, 0,      /* node 0 */
    0, 1, 0,  0, 0, 0,  0, 0, 0,      /* node 1 */
    0, 0, 0,  0, 0, 1,  0, 0, 0,      /* node 2 */
  };
  TestMeshKey keys[] = {
    { { 9, 9, 9 }, 0, { H, 0, 0, H } },   /* root: 90° about Z (-90° drawn) */
    { { 2, 0, 0 }, 0, { H, H, 0, 0 } },   /* 90° about X (-90° drawn) */
    { { 0, 0, 3 }, 0, { 32767, 0, 0, 0 } },
  };
  TestMesh *m = per_node_mesh (nodes, 3, xyz, keys, 3);
  g_autoptr(MshModel) model = read_mesh (m);
  g_autoptr(MshDraw) draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);

  assert_no_problems (model);
  /* node 1: t = Rz(-90) (2, 0, 0) = (0, -2, 0) */
  assert_vec3 (model->poses[1].translation, 0, -2, 0);
  /* its vertex (0, 1, 0): Rz(-90) Rx(-90) (0, 1, 0) + t = (0, -2, -1) */
  assert_vec3 (corner_of (draw, 1, 0), 0, -2, -1);
  /* node 2: t = (0, -2, 0) + Rz(-90) Rx(-90) (0, 0, 3) = (3, -2, 0) */
  assert_vec3 (model->poses[2].translation, 3, -2, 0);
  assert_vec3 (corner_of (draw, 2, 0), 3, -2, 0);
  /* (0, 0, 1) of node 2 turns as node 1 does: to (1, 0, 0) */
  assert_vec3 (corner_of (draw, 2, 1), 4, -2, 0);
  /* the root: rotated, not moved */
  assert_vec3 (corner_of (draw, 0, 1), 0, -1, 0);
  test_mesh_free (m);
}

/* A cockpit (0x20) is not drawn; an interior part (0x01) is. Neither the
 * cockpit's batch nor its far-away vertices are drawn or in the bounds. */
static void
test_cockpit_interior (void)
{
  TestMeshNode nodes[] = {
    test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0),
    test_mesh_node (MSH_NODE_COCKPIT, 0, TEST_NONE, 0, 1),
    test_mesh_node (MSH_NODE_INTERIOR, 0, TEST_NONE, 0, 2),
  };
  static const float xyz[] = {
    0, 0, 0,  1, 0, 0,  0, 1, 0,
    0, 0, 50,  1, 0, 50,  0, 1, 50,
    0, 0, 2,  1, 0, 2,  0, 1, 2,
  };
  TestMesh *m = per_node_mesh (nodes, 3, xyz, NULL, 0);
  g_autoptr(MshModel) model = read_mesh (m);
  g_autoptr(MshDraw) draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);

  assert_no_problems (model);
  g_assert_true (model->poses[0].drawn);
  g_assert_false (model->poses[1].drawn);
  g_assert_true (model->poses[2].drawn);
  g_assert_cmpuint (draw->n_drawn_nodes, ==, 2);
  g_assert_cmpuint (draw->n_batches, ==, 2);
  g_assert_cmpuint (draw->batches[0].node, ==, 0);
  g_assert_cmpuint (draw->batches[1].node, ==, 2);
  g_assert_cmpuint (draw->batch_draws[1], ==, 0);
  g_assert_cmpuint (draw->row_batches[1], ==, 0);   /* named, not drawn */
  g_assert_cmpuint (draw->row_batches[2], ==, 1);
  g_assert_cmpuint (draw->n_vertices, ==, 6);
  assert_vec3 (draw->bounds_max, 1, 1, 2);
  test_mesh_free (m);
}

/* slot[0], else the first of slot[0..4]; slot[5..14] (damage) never. */
static void
test_slot_choice (void)
{
  TestMeshNode nodes[] = {
    test_mesh_node (0, TEST_NONE, TEST_NONE, 0, TEST_NONE),
    test_mesh_node (0, TEST_NONE, TEST_NONE, 0, TEST_NONE),
    test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0),
  };
  static const float xyz[27] = { 0 };
  TestMesh *m;
  g_autoptr(MshModel) model = NULL;
  g_autoptr(MshDraw) draw = NULL;

  nodes[0].slot[3] = 1;       /* and slot[4] after it: not taken */
  nodes[0].slot[4] = 2;
  nodes[1].slot[5] = 2;       /* a damage state only: nothing at rest */
  nodes[2].slot[6] = 2;       /* slot[0] wins over a damage state */
  m = per_node_mesh (nodes, 3, xyz, NULL, 0);
  model = read_mesh (m);
  draw = msh_model_draw (model, MSH_DRAW_COUNTS);

  assert_no_problems (model);
  g_assert_cmpuint (model->poses[0].slot, ==, 1);
  g_assert_cmpuint (model->poses[1].slot, ==, MSH_NONE);
  g_assert_false (model->poses[1].drawn);
  g_assert_cmpuint (model->poses[2].slot, ==, 0);
  g_assert_cmpuint (draw->n_batches, ==, 2);
  g_assert_cmpuint (draw->batches[0].node, ==, 0);
  g_assert_cmpuint (draw->batches[0].batch, ==, 1);
  g_assert_cmpuint (draw->batches[1].node, ==, 2);
  g_assert_cmpuint (draw->batches[1].batch, ==, 0);
  g_assert_cmpuint (draw->batch_draws[2], ==, 0);
  g_assert_cmpuint (draw->n_drawn_nodes, ==, 2);
  test_mesh_free (m);
}

/* Two nodes drawing one slot draw its batch twice, each posed by its own
 * node: the vertices are not shared between the two draws. */
static void
test_shared_slot (void)
{
  TestMeshNode nodes[] = {
    test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0),
    test_mesh_node (0, 0, TEST_NONE, 1, 0),
  };
  static const float xyz[] = { 0, 0, 0,  1, 0, 0,  0, 1, 0,  0, 0, 0,  0, 0, 0,  0, 0, 0 };
  TestMeshKey keys[] = {
    { { 0, 0, 0 }, 0, { 32767, 0, 0, 0 } },
    { { 0, 0, 10 }, 0, { 32767, 0, 0, 0 } },
  };
  TestMesh *m = per_node_mesh (nodes, 2, xyz, keys, 2);
  g_autoptr(MshModel) model = read_mesh (m);
  g_autoptr(MshDraw) draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);

  assert_no_problems (model);
  g_assert_cmpuint (draw->n_batches, ==, 2);
  g_assert_cmpuint (draw->batch_draws[0], ==, 2);
  g_assert_cmpuint (draw->batch_draws[1], ==, 0);
  g_assert_cmpuint (draw->row_batches[0], ==, 2);
  g_assert_cmpuint (draw->row_triangles[0], ==, 2);
  g_assert_cmpuint (draw->n_vertices, ==, 6);
  assert_vec3 (corner_of (draw, 0, 1), 1, 0, 0);
  assert_vec3 (corner_of (draw, 1, 1), 1, 0, 10);
  test_mesh_free (m);
}

/* The rest key: frame_map[anim_start] for an animated node with frames,
 * else the fallback key; a key out of range is the identity. */
static TestMesh *
keyed_mesh (guint frames)
{
  TestMeshNode nodes[] = {
    test_mesh_node (0, TEST_NONE, TEST_NONE, 9, 0),   /* root, identity */
    test_mesh_node (0, 0, 1, 0, 1),                   /* frame_map[1] = 1 */
    test_mesh_node (0, 0, TEST_NONE, 2, 2),           /* fallback 2 */
    test_mesh_node (0, 0, 5, 3, 3),                   /* past the map: fallback 3 */
    test_mesh_node (0, 0, 0, 9, 4),                   /* frame_map[0] = 3 */
    test_mesh_node (0, 0, TEST_NONE, 9, 5),           /* fallback out of range */
  };
  static const float xyz[18 * 3] = { 0 };
  TestMeshKey keys[] = {
    { { 1, 0, 0 }, 0, { 32767, 0, 0, 0 } },
    { { 2, 0, 0 }, 1, { 32767, 0, 0, 0 } },
    { { 3, 0, 0 }, 2, { 32767, 0, 0, 0 } },
    { { 4, 0, 0 }, 3, { 32767, 0, 0, 0 } },
  };
  static const guint16 map[] = { 3, 1, 2 };
  TestMesh *m = per_node_mesh (nodes, 6, xyz, keys, 4);

  test_mesh_frame_map (m, map, 3, frames);
  return m;
}

static void
test_rest_key (void)
{
  TestMesh *m = keyed_mesh (2);
  TestMesh *still = keyed_mesh (0);
  g_autoptr(MshModel) model = read_mesh (m);
  g_autoptr(MshModel) frameless = read_mesh (still);
  g_autoptr(MshDraw) draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);

  assert_no_problems (model);
  g_assert_cmpuint (model->n_frames, ==, 2);
  g_assert_cmpuint (model->n_frame_map, ==, 3);
  g_assert_cmpint (model->poses[0].key, ==, -1);
  g_assert_cmpint (model->poses[1].key, ==, 1);
  assert_vec3 (model->poses[1].translation, 2, 0, 0);
  g_assert_cmpint (model->poses[2].key, ==, 2);
  assert_vec3 (model->poses[2].translation, 3, 0, 0);
  g_assert_cmpint (model->poses[3].key, ==, 3);
  g_assert_cmpint (model->poses[4].key, ==, 3);
  assert_vec3 (model->poses[4].translation, 4, 0, 0);
  g_assert_cmpint (model->poses[5].key, ==, -1);
  assert_vec3 (model->poses[5].translation, 0, 0, 0);
  assert_vec3 (corner_of (draw, 1, 0), 2, 0, 0);

  /* frame count 0: the fallback key even for an animated node */
  assert_no_problems (frameless);
  g_assert_cmpint (frameless->poses[1].key, ==, 0);
  assert_vec3 (frameless->poses[1].translation, 1, 0, 0);
  g_assert_cmpint (frameless->poses[4].key, ==, -1);
  test_mesh_free (m);
  test_mesh_free (still);
}

/* A parent past the count ends the chain (a lint; the node keeps its
 * translation); a loop stops the walk (a lint; its top keeps its
 * translation). */
static void
test_parent_lints (void)
{
  TestMeshNode nodes[] = {
    test_mesh_node (0, TEST_NONE, TEST_NONE, 3, 0),
    test_mesh_node (0, 7, TEST_NONE, 0, 1),
    test_mesh_node (0, 3, TEST_NONE, 1, 2),
    test_mesh_node (0, 2, TEST_NONE, 2, 3),
  };
  static const float xyz[36] = { 0 };
  TestMeshKey keys[] = {
    { { 1, 0, 0 }, 0, { 32767, 0, 0, 0 } },
    { { 0, 2, 0 }, 0, { 32767, 0, 0, 0 } },
    { { 0, 0, 3 }, 0, { 32767, 0, 0, 0 } },
    { { 8, 8, 8 }, 0, { 32767, 0, 0, 0 } },
  };
  TestMesh *m = per_node_mesh (nodes, 4, xyz, keys, 4);
  g_autoptr(MshModel) model = read_mesh (m);
  guint64 nodes_at = BASE + test_mesh_stream_offset (m, 0);
  g_autofree char *bad = g_strdup_printf ("tree.msh: stream 1: offset %lu: expected a parent below 4 (the node count) or 0xFFFF, found 7",
                                          (unsigned long) (nodes_at + 38 + 2));
  g_autofree char *loop = g_strdup_printf ("tree.msh: stream 1: offset %lu: expected the parent chain of node 3 to reach a root, found a loop back to node 2",
                                           (unsigned long) (nodes_at + 3 * 38 + 2));

  /* the nodes start right after the payload's header */
  g_assert_cmpuint (nodes_at, ==, 32);
  g_assert_true (model->valid);
  g_assert_cmpuint (model->problems->len, ==, 2);
  g_assert_cmpstr (((MshProblem *) model->problems->pdata[0])->message, ==, bad);
  g_assert_cmpstr (((MshProblem *) model->problems->pdata[0])->message, ==,
                   "tree.msh: stream 1: offset 72: expected a parent below 4 (the node count) or 0xFFFF, found 7");
  g_assert_cmpint (((MshProblem *) model->problems->pdata[0])->check, ==, MSH_CHECK_PARENT_RANGE);
  g_assert_cmpint (((MshProblem *) model->problems->pdata[0])->element, ==, 1);
  g_assert_cmpstr (((MshProblem *) model->problems->pdata[1])->message, ==, loop);
  g_assert_cmpint (((MshProblem *) model->problems->pdata[1])->check, ==, MSH_CHECK_PARENT_LOOP);
  g_assert_cmpint (((MshProblem *) model->problems->pdata[1])->severity, ==, MSH_SEVERITY_LINT);

  assert_vec3 (model->poses[0].translation, 0, 0, 0);   /* a root */
  assert_vec3 (model->poses[1].translation, 1, 0, 0);   /* bad parent: kept */
  assert_vec3 (model->poses[3].translation, 0, 0, 3);   /* the loop's top: kept */
  assert_vec3 (model->poses[2].translation, 0, 2, 3);   /* under the top */
  test_mesh_free (m);
}

/* A 65,535-node chain and a 65,535-node loop are posed in linear time. */
static void
test_long_chains (void)
{
  for (guint loop = 0; loop < 2; loop++)
    {
      guint n = 65535;
      TestMesh *m = test_mesh_new ();
      g_autofree TestMeshNode *nodes = g_new (TestMeshNode, n);
      g_autoptr(MshModel) model = NULL;
      TestMeshKey key = { { 1, 0, 0 }, 0, { 32767, 0, 0, 0 } };

      for (guint i = 0; i < n; i++)
        nodes[i] = test_mesh_node (0, i == 0 ? (loop ? n - 1 : TEST_NONE) : i - 1,
                                   TEST_NONE, 0, TEST_NONE);
      test_mesh_nodes (m, nodes, n);
      test_mesh_keys (m, &key, 1);
      model = read_mesh (m);
      g_assert_true (model->valid);
      g_assert_cmpuint (model->problems->len, ==, loop ? 1 : 0);
      /* each node 1 further along +X than its parent */
      if (loop)
        {
          /* the walk from node 0 stops at node 1 (its parent 0 is on the
           * walk): node 1 is the top */
          assert_vec3 (model->poses[1].translation, 1, 0, 0);
          assert_vec3 (model->poses[0].translation, n, 0, 0);
        }
      else
        assert_vec3 (model->poses[n - 1].translation, n - 1, 0, 0);
      test_mesh_free (m);
    }
}

/* ---- Streams ------------------------------------------------------------ */

/* The last copy of a stream counts; unknown streams are ignored; missing
 * streams are empty. */
static void
test_stream_copies (void)
{
  TestMesh *m = two_quads (0, 0, 0, 1);
  static const float moved[24] = { 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
                                   6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6 };
  static const guint8 junk[7] = { 1, 2, 3, 4, 5, 6, 7 };
  g_autoptr(MshModel) model = NULL;
  g_autoptr(MshDraw) draw = NULL;

  test_mesh_positions (m, moved, 8);
  test_mesh_stream (m, 10, 99, 99, junk, sizeof junk);
  test_mesh_stream (m, 17, 1, 0, junk, 3);
  test_mesh_stream (m, 0x4853454D, 1, 0, junk, 1);
  model = read_mesh (m);
  assert_no_problems (model);
  draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);
  assert_vec3 (draw->bounds_min, 5, 5, 5);
  assert_vec3 (draw->bounds_max, 6, 6, 6);
  g_assert_cmpuint (model->streams[MSH_STREAM_POSITIONS].entry, ==, 7);
  test_mesh_free (m);
}

static void
test_missing_streams (void)
{
  TestMesh *m = test_mesh_new ();
  TestMeshNode node = test_mesh_node (0, TEST_NONE, TEST_NONE, 0, TEST_NONE);
  g_autoptr(MshModel) model = NULL;
  g_autoptr(MshDraw) draw = NULL;
  g_autoptr(GBytes) empty = test_mesh_build (m);
  g_autoptr(MshModel) nothing = msh_model_read (empty, 0, "empty.msh");
  g_autoptr(MshDraw) nothing_draw = msh_model_draw (nothing, MSH_DRAW_GEOMETRY);

  test_mesh_nodes (m, &node, 1);
  model = read_mesh (m);
  assert_no_problems (model);
  g_assert_cmpuint (model->n_nodes, ==, 1);
  g_assert_cmpuint (model->n_slots, ==, 0);
  g_assert_false (model->has_extent);
  draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);
  g_assert_cmpuint (draw->n_batches, ==, 0);
  g_assert_cmpuint (draw->n_drawn_nodes, ==, 0);
  g_assert_false (draw->has_bounds);
  g_assert_cmpuint (draw->n_vertices, ==, 0);

  /* an archive of no streams is a model of no nodes */
  assert_no_problems (nothing);
  g_assert_cmpuint (nothing->n_nodes, ==, 0);
  g_assert_false (nothing_draw->has_bounds);
  test_mesh_free (m);
}

/* Stream 18 and node names. */
static void
test_lightmap_uvs_and_names (void)
{
  TestMesh *m = two_quads (MSH_BATCH_LIGHTMAPPED, 0, 0, 1);
  static const guint16 lm[] = { 0, 0,  1024, 0,  1024, 1024,  0, 1024,  512, 512 };
  const char *names[] = { "\xc1\xc0\xc7\xc0" };   /* БАЗА */
  g_autoptr(MshModel) model = NULL;
  g_autoptr(MshDraw) draw = NULL;

  /* five lightmap UVs for eight vertices: enough for batch 0 (lightmapped,
   * vertices 0..3), zeros past them for batch 1 */
  test_mesh_uvs (m, 18, lm, 5);
  test_mesh_names (m, names, 1);
  model = read_mesh (m);
  assert_no_problems (model);
  g_assert_cmpstr (model->nodes[0].name, ==, "БАЗА");
  draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);
  g_assert_nonnull (draw->lightmap_uvs);
  g_assert_cmpfloat (draw->lightmap_uvs[2 * 2], ==, 1.0f);
  g_assert_cmpfloat (draw->lightmap_uvs[2 * 2 + 1], ==, 1.0f);
  g_assert_cmpfloat (draw->lightmap_uvs[2 * 4], ==, 0.5f);
  g_assert_cmpfloat (draw->lightmap_uvs[2 * 5], ==, 0.0f);
  g_assert_cmpuint (draw->batches[0].word, ==, MSH_BATCH_LIGHTMAPPED);
  test_mesh_free (m);
}

/* ---- Errors ------------------------------------------------------------- */

static void
test_error_archive (void)
{
  static const guint8 short_payload[10] = "NRes";
  guint8 bad_version[16] = { 'N', 'R', 'e', 's', 0, 2, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0 };
  g_autoptr(GBytes) a = g_bytes_new (short_payload, sizeof short_payload);
  g_autoptr(GBytes) b = g_bytes_new (bad_version, sizeof bad_version);
  g_autoptr(MshModel) ma = msh_model_read (a, BASE, "tree.msh");
  g_autoptr(MshModel) mb = msh_model_read (b, 1000, "tree.msh");
  TestMesh *m = two_quads (0, 0, 0, 1);
  g_autoptr(GBytes) good = test_mesh_build (m);
  g_autoptr(GByteArray) broken = g_byte_array_new ();
  g_autoptr(GBytes) c = NULL;
  g_autoptr(MshModel) mc = NULL;
  gsize dir = test_mesh_directory_offset (m);
  g_autofree char *expected = NULL;

  assert_error (ma, MSH_CHECK_ARCHIVE, "tree.msh: (header): offset 16: expected at least 16 bytes, found 10");
  g_assert_false (ma->nodes_readable);
  assert_error (mb, MSH_CHECK_ARCHIVE, "tree.msh: (header): offset 1004: expected version 0x00000100, found 0x00000200");

  /* directory entry 3 (s04_3, the normals: 32 bytes) claims 240 */
  g_byte_array_append (broken, g_bytes_get_data (good, NULL), (guint) g_bytes_get_size (good));
  g_assert_cmpuint (test_get_u32 (broken->data + dir + 3 * 64 + 12), ==, 32);
  broken->data[dir + 3 * 64 + 12] = 0xF0;
  c = g_bytes_new (broken->data, broken->len);
  mc = msh_model_read (c, BASE, "tree.msh");
  expected = g_strdup_printf ("tree.msh: s04_3: offset %lu: expected size <= %lu (data offset %lu up to the directory at %lu), found 240",
                              (unsigned long) (BASE + dir + 3 * 64 + 12),
                              (unsigned long) (dir - test_mesh_stream_offset (m, 3)),
                              (unsigned long) test_mesh_stream_offset (m, 3), (unsigned long) dir);
  assert_error (mc, MSH_CHECK_ARCHIVE, expected);
  test_mesh_free (m);
}

static void
test_error_stream_size (void)
{
  TestMesh *m = test_mesh_new ();
  TestMeshNode nodes[2] = {
    test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0),
    test_mesh_node (0, 0, TEST_NONE, 0, 0),
  };
  static const float xyz[12] = { 0 };
  g_autoptr(MshModel) model = NULL;
  g_autofree char *expected = NULL;

  test_mesh_nodes (m, nodes, 2);
  test_mesh_stream (m, 3, 5, 0, xyz, sizeof xyz);   /* 5 vertices, 4 given */
  model = read_mesh (m);
  /* entry 1 in directory order (names "s01_0", "s03_1") */
  expected = g_strdup_printf ("tree.msh: stream 3: offset %lu: expected 60 bytes (attr1 5 × 12 bytes), found 48",
                              (unsigned long) (BASE + test_mesh_directory_offset (m) + 64 + 12));
  assert_error (model, MSH_CHECK_STREAM_SIZE, expected);
  /* the node count is still known */
  g_assert_true (model->nodes_readable);
  g_assert_cmpuint (model->n_nodes, ==, 2);
  g_assert_cmpuint (model->nodes[1].parent, ==, 0);
  g_assert_cmpuint (BASE + test_mesh_directory_offset (m) + 64 + 12, ==, 16 + 16 + 76 + 48 + 76);
  test_mesh_free (m);
}

static void
test_error_stream_sizes (void)
{
  static const guint8 bytes[300] = { 0 };
  static const struct { guint type; guint attr1; gsize size; const char *tail; } cases[] = {
    { 1, 2, 75, "expected 76 bytes (attr1 2 × 38 bytes), found 75" },
    { 2, 2, 208, "expected 276 bytes (140 + attr1 2 × 68 bytes), found 208" },
    { 2, 0, 0, "expected 140 bytes (140 + attr1 0 × 68 bytes), found 0" },
    { 4, 3, 13, "expected 12 bytes (attr1 3 × 4 bytes), found 13" },
    { 5, 1, 0, "expected 4 bytes (attr1 1 × 4 bytes), found 0" },
    { 6, 2, 6, "expected 12 bytes (attr1 2 × 6 bytes), found 6" },
    { 7, 1, 15, "expected 16 bytes (attr1 1 × 16 bytes), found 15" },
    { 8, 1, 25, "expected 24 bytes (attr1 1 × 24 bytes), found 25" },
    { 9, 1, 31, "expected 32 bytes (attr1 1 × 32 bytes), found 31" },
    { 13, 3, 40, "expected 60 bytes (attr1 3 × 20 bytes), found 40" },
    { 18, 1, 8, "expected 4 bytes (attr1 1 × 4 bytes), found 8" },
    { 19, 4, 4, "expected 8 bytes (attr1 4 × 2 bytes), found 4" },
    { 19, 0xFFFFFFFFu, 4, "expected 8589934590 bytes (attr1 4294967295 × 2 bytes), found 4" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TestMesh *m = test_mesh_new ();
      g_autoptr(MshModel) model = NULL;
      g_autofree char *expected = NULL;

      test_mesh_stream (m, cases[i].type, cases[i].attr1, 0, bytes, cases[i].size);
      model = read_mesh (m);
      expected = g_strdup_printf ("tree.msh: stream %u: offset %lu: %s", cases[i].type,
                                  (unsigned long) (BASE + 16 + cases[i].size + 12), cases[i].tail);
      assert_error (model, MSH_CHECK_STREAM_SIZE, expected);
      g_assert_cmpint (((MshProblem *) model->problems->pdata[0])->stream, ==, (gint) cases[i].type);
      /* no stream 1 is no node: the count (0) is known */
      g_assert_true (model->nodes_readable == (cases[i].type != 1));
      test_mesh_free (m);
    }
}

static void
test_error_slot_index (void)
{
  TestMesh *m = two_quads (0, 0, 0, 1);
  TestMeshNode node = test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0);
  g_autoptr(MshModel) model = NULL;
  g_autofree char *expected = NULL;

  node.slot[9] = 5;   /* a damage slot is checked too */
  test_mesh_nodes (m, &node, 1);
  model = read_mesh (m);
  expected = g_strdup_printf ("tree.msh: stream 1: offset %lu: expected a slot below 1 (stream 2's count), found 5",
                              (unsigned long) (BASE + test_mesh_stream_offset (m, 7) + 8 + 18));
  assert_error (model, MSH_CHECK_SLOT_INDEX, expected);
  g_assert_cmpuint (model->n_nodes, ==, 1);
  test_mesh_free (m);
}

static void
test_error_slot_ranges (void)
{
  TestMesh *m = two_quads (0, 0, 0, 1);
  TestMesh *n = two_quads (0, 0, 0, 1);
  TestMeshSlot tri = { 1, 4, 0, 2 };
  TestMeshSlot bat = { 0, 4, 1, 2 };
  g_autoptr(MshModel) a = NULL;
  g_autoptr(MshModel) b = NULL;
  g_autofree char *ea = NULL;
  g_autofree char *eb = NULL;

  test_mesh_slots (m, &tri, 1);
  test_mesh_slots (n, &bat, 1);
  a = read_mesh (m);
  b = read_mesh (n);
  ea = g_strdup_printf ("tree.msh: stream 2: offset %lu: expected first triangle + triangle count <= 4 (stream 6's count), found 1 + 4",
                        (unsigned long) (BASE + test_mesh_stream_offset (m, 7) + 140));
  eb = g_strdup_printf ("tree.msh: stream 2: offset %lu: expected first batch + batch count <= 2 (stream 13's count), found 1 + 2",
                        (unsigned long) (BASE + test_mesh_stream_offset (n, 7) + 140 + 4));
  assert_error (a, MSH_CHECK_SLOT_TRIANGLES, ea);
  assert_error (b, MSH_CHECK_SLOT_BATCHES, eb);
  test_mesh_free (m);
  test_mesh_free (n);
}

static void
test_error_batch_range (void)
{
  TestMesh *m = two_quads (0, 0, 0, 1);
  TestMeshBatch batches[] = {
    { 0, 0, 0xFF, TEST_NONE, 6, 0, 4, 0 },
    { 0, 1, 0xFF, TEST_NONE, 9, 6, 4, 4 },
  };
  g_autoptr(MshModel) model = NULL;
  g_autofree char *expected = NULL;

  test_mesh_batches (m, batches, 2);
  model = read_mesh (m);
  expected = g_strdup_printf ("tree.msh: stream 13: offset %lu: expected first index + index count <= 12 (stream 6's indices), found 6 + 9",
                              (unsigned long) (BASE + test_mesh_stream_offset (m, 7) + 20 + 8));
  assert_error (model, MSH_CHECK_BATCH_INDICES, expected);
  test_mesh_free (m);
}

/* A corner is first_vertex + index, checked against every vertex stream
 * the draw reads (3, 4, 5, and 18 for a lightmapped batch): streams that
 * disagree are an error at the first corner past the shorter one. */
static void
test_error_corners (void)
{
  TestMeshBatch past_positions[] = {
    { 0, 0, 0xFF, TEST_NONE, 6, 0, 4, 0 },
    { 0, 1, 0xFF, TEST_NONE, 6, 6, 4, 6 },
  };
  TestMesh *a = two_quads (0, 0, 0, 1);
  TestMesh *b = two_quads (0, 0, 0, 1);
  TestMesh *c = two_quads (MSH_BATCH_LIGHTMAPPED, 0, 0, 1);
  TestMesh *d = two_quads (0, 0, 0, 1);
  g_autoptr(MshModel) ma = NULL;
  g_autoptr(MshModel) mb = NULL;
  g_autoptr(MshModel) mc = NULL;
  g_autoptr(MshModel) md = NULL;
  g_autofree char *ea = NULL;
  g_autofree char *eb = NULL;
  g_autofree char *ec = NULL;
  g_autofree char *ed = NULL;

  test_mesh_batches (a, past_positions, 2);
  test_mesh_normals (b, up_normals, 6);           /* two normals short */
  test_mesh_uvs (d, 5, quad_uvs, 7);
  ma = read_mesh (a);
  mb = read_mesh (b);
  mc = read_mesh (c);
  md = read_mesh (d);
  /* batch 1: corners 6, 7, 8: index 8 of stream 6 (its third) */
  ea = g_strdup_printf ("tree.msh: stream 6: offset %lu: expected a vertex below 8 (stream 3's count), found 8 (batch 1: first vertex 6 + index 2)",
                        (unsigned long) (BASE + test_mesh_stream_offset (a, 5) + 8 * 2));
  eb = g_strdup_printf ("tree.msh: stream 6: offset %lu: expected a vertex below 6 (stream 4's count), found 6 (batch 1: first vertex 4 + index 2)",
                        (unsigned long) (BASE + test_mesh_stream_offset (b, 5) + 8 * 2));
  ec = g_strdup_printf ("tree.msh: stream 6: offset %lu: expected a vertex below 0 (stream 18's count), found 0 (batch 0: first vertex 0 + index 0)",
                        (unsigned long) (BASE + test_mesh_stream_offset (c, 5)));
  ed = g_strdup_printf ("tree.msh: stream 6: offset %lu: expected a vertex below 7 (stream 5's count), found 7 (batch 1: first vertex 4 + index 3)",
                        (unsigned long) (BASE + test_mesh_stream_offset (d, 5) + 11 * 2));
  assert_error (ma, MSH_CHECK_CORNER, ea);
  assert_error (mb, MSH_CHECK_CORNER, eb);
  assert_error (mc, MSH_CHECK_CORNER, ec);
  assert_error (md, MSH_CHECK_CORNER, ed);
  g_assert_cmpint (((MshProblem *) ma->problems->pdata[0])->element, ==, 2);
  test_mesh_free (a);
  test_mesh_free (b);
  test_mesh_free (c);
  test_mesh_free (d);
}

/* 50,000 batches that each claim all of stream 6 are checked at once
 * (a batch-by-index scan would take billions of steps). */
static void
test_huge_ranges (void)
{
  guint n_tri = 21845, n_batches = 50000;
  TestMesh *m = test_mesh_new ();
  g_autofree guint16 *abc = g_new0 (guint16, 3 * n_tri);
  g_autofree TestMeshBatch *batches = g_new0 (TestMeshBatch, n_batches);
  static const float xyz[6] = { 0 };
  static const gint8 nrm[6] = { 0 };
  static const guint16 uv[4] = { 0 };
  g_autoptr(MshModel) model = NULL;
  g_autofree char *expected = NULL;

  abc[3 * n_tri - 1] = 1;
  for (guint i = 0; i < n_batches; i++)
    batches[i] = (TestMeshBatch) { 0, 0, 0, TEST_NONE, 65535, 0, 2, 0 };
  batches[n_batches - 1].first_vertex = 1;   /* its last corner: 1 + 1 */
  test_mesh_positions (m, xyz, 2);
  test_mesh_normals (m, nrm, 2);
  test_mesh_uvs (m, 5, uv, 2);
  test_mesh_triangles (m, abc, n_tri);
  test_mesh_batches (m, batches, n_batches);
  model = read_mesh (m);
  expected = g_strdup_printf ("tree.msh: stream 6: offset %lu: expected a vertex below 2 (stream 3's count), found 2 (batch 49999: first vertex 1 + index 1)",
                              (unsigned long) (BASE + test_mesh_stream_offset (m, 3) + (3 * n_tri - 1) * 2));
  assert_error (model, MSH_CHECK_CORNER, expected);
  test_mesh_free (m);
}

/* What is drawn at rest is capped: a slot shared by many nodes cannot
 * make a small file allocate without bound. */
static void
test_error_too_large (void)
{
  guint n_tri = 21845;
  g_autofree guint16 *abc = g_new0 (guint16, 3 * n_tri);
  static const float xyz[3] = { 0 };
  static const gint8 nrm[3] = { 0 };
  static const guint16 uv[2] = { 0 };
  TestMeshSlot slot = { 0, 0, 0, 1 };
  TestMeshBatch batch = { 0, 0, 0, TEST_NONE, 65535, 0, 1, 0 };
  TestMeshNode nodes[25];

  for (guint i = 0; i < 25; i++)
    nodes[i] = test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0);

  for (guint n = 24; n <= 25; n++)
    {
      TestMesh *m = test_mesh_new ();
      g_autoptr(MshModel) model = NULL;

      test_mesh_nodes (m, nodes, n);
      test_mesh_slots (m, &slot, 1);
      test_mesh_positions (m, xyz, 1);
      test_mesh_normals (m, nrm, 1);
      test_mesh_uvs (m, 5, uv, 1);
      test_mesh_triangles (m, abc, n_tri);
      test_mesh_batches (m, &batch, 1);
      model = read_mesh (m);
      if (n == 24)
        {
          g_autoptr(MshDraw) draw = msh_model_draw (model, MSH_DRAW_GEOMETRY);

          assert_no_problems (model);
          g_assert_cmpuint (draw->n_triangles, ==, 24 * n_tri);
          g_assert_cmpuint (draw->n_vertices, ==, 24);
          g_assert_cmpuint (draw->batch_draws[0], ==, 24);
          g_assert_cmpuint (draw->row_triangles[0], ==, 24 * n_tri);
        }
      else
        {
          g_autofree char *expected = g_strdup_printf ("tree.msh: stream 13: offset %lu: expected at most 524288 triangles drawn at rest, found 546125",
                                                       (unsigned long) (BASE + test_mesh_stream_offset (m, 6)));

          assert_error (model, MSH_CHECK_TOO_LARGE, expected);
          g_assert_cmpuint (model->n_nodes, ==, 25);
        }
      test_mesh_free (m);
    }

  {
    TestMesh *m = test_mesh_new ();
    guint n_batches = 65535;
    g_autofree TestMeshBatch *batches = g_new0 (TestMeshBatch, n_batches);
    TestMeshSlot big = { 0, 0, 0, 65535 };
    g_autoptr(MshModel) model = NULL;
    g_autofree char *expected = NULL;

    test_mesh_nodes (m, nodes, 2);
    test_mesh_slots (m, &big, 1);
    test_mesh_batches (m, batches, n_batches);
    model = read_mesh (m);
    expected = g_strdup_printf ("tree.msh: stream 13: offset %lu: expected at most 65536 batches drawn at rest, found 131070",
                                (unsigned long) (BASE + test_mesh_stream_offset (m, 2)));
    assert_error (model, MSH_CHECK_TOO_LARGE, expected);
    test_mesh_free (m);
  }
}

/* ---- Lints that need the wear ------------------------------------------ */

/* The example of cli.md, byte for byte: a batch's row past a one-row
 * wear, at offset 84 of the archive. */
static void
test_lint_wear_row (void)
{
  TestMesh *m = test_mesh_new ();
  static const float xyz[12] = { 0 };
  TestMeshBatch batches[] = {
    { 2, 3, 0xFF, TEST_NONE, 0, 0, 0, 0 },
    { MSH_BATCH_LIGHTMAPPED, 0, 0xFF, TEST_NONE, 0, 0, 0, 0 },
    { MSH_BATCH_LIGHTMAPPED, 0, 0, TEST_NONE, 0, 0, 0, 0 },
    { MSH_BATCH_LIGHTMAPPED, 0, 1, TEST_NONE, 0, 0, 0, 0 },
  };
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(NresArchive) outer = NULL;
  g_autoptr(GBytes) member = NULL;
  g_autoptr(GBytes) wea = NULL;
  g_autoptr(MshModel) model = NULL;
  g_autoptr(WearTable) wear = NULL;
  g_autoptr(WearTable) lit = NULL;
  g_autoptr(GPtrArray) problems = msh_problem_list_new ();
  g_autoptr(GPtrArray) lit_problems = msh_problem_list_new ();
  g_autoptr(GPtrArray) none = msh_problem_list_new ();
  g_autoptr(GBytes) lit_text = NULL;
  gint msh, wea_index;

  test_mesh_positions (m, xyz, 4);       /* 48 bytes: the batches start at 64 */
  test_mesh_batches (m, batches, 4);
  payload = test_mesh_build (m);
  archive = test_model_archive ("tree", payload, "1\r\n0 FTREE1\r\n");
  outer = nres_archive_parse (archive, NULL);
  msh = nres_archive_find (outer, "TREE.MSH");
  wea_index = nres_archive_find (outer, "tree.wea");
  g_assert_cmpint (msh, >=, 0);
  g_assert_cmpint (outer->entries[msh].type_id, ==, NRES_TYPE_MESH);
  g_assert_cmpint (outer->entries[wea_index].type_id, ==, NRES_TYPE_WEAR);
  member = nres_archive_payload_bytes (outer, (guint) msh);
  wea = nres_archive_payload_bytes (outer, (guint) wea_index);
  model = msh_model_read (member, outer->entries[msh].data_offset, "tree.msh");
  wear = wear_table_read (wea, outer->entries[wea_index].data_offset, "tree.wea");
  assert_no_problems (model);
  g_assert_cmpuint (wear->problems->len, ==, 0);

  msh_model_lint_wear (model, wear, problems);
  g_assert_cmpuint (problems->len, ==, 4);
  g_assert_cmpstr (((MshProblem *) problems->pdata[0])->message, ==,
                   "tree.msh: stream 13: offset 84: expected a WEAR row below 1, found 3");
  g_assert_cmpint (((MshProblem *) problems->pdata[0])->check, ==, MSH_CHECK_WEAR_ROW);
  g_assert_cmpint (((MshProblem *) problems->pdata[0])->element, ==, 0);
  g_assert_cmpstr (((MshProblem *) problems->pdata[1])->message, ==,
                   "tree.msh: stream 13: offset 105: expected a LIGHTMAPS page in tree.wea for a lightmapped batch, found none (drawn without its lightmap)");
  g_assert_cmpint (((MshProblem *) problems->pdata[3])->check, ==, MSH_CHECK_NO_LIGHTMAP);

  lit_text = g_bytes_new_static ("1\n0 A\nLIGHTMAPS\n1\n0 lm.0\n", 25);
  lit = wear_table_read (lit_text, 0, "tree.wea");
  msh_model_lint_wear (model, lit, lit_problems);
  g_assert_cmpuint (lit_problems->len, ==, 3);
  g_assert_cmpstr (((MshProblem *) lit_problems->pdata[1])->message, ==,
                   "tree.msh: stream 13: offset 105: expected a lightmap page below 1, found 255 (page 0 is drawn)");
  g_assert_cmpstr (((MshProblem *) lit_problems->pdata[2])->message, ==,
                   "tree.msh: stream 13: offset 145: expected a lightmap page below 1, found 1 (page 0 is drawn)");

  msh_model_lint_wear (model, NULL, none);
  assert_one_problem (none, MSH_SEVERITY_LINT, MSH_CHECK_NO_WEAR,
                      "tree.msh: offset 16: expected its material table tree.wea in the same archive, found none (drawn with DEFAULT)");

  g_assert_cmpint (msh_batch_lightmap_page (&model->batches[0], 1), ==, -1);
  g_assert_cmpint (msh_batch_lightmap_page (&model->batches[1], 0), ==, -1);
  g_assert_cmpint (msh_batch_lightmap_page (&model->batches[1], 2), ==, 0);
  g_assert_cmpint (msh_batch_lightmap_page (&model->batches[2], 2), ==, 0);
  g_assert_cmpint (msh_batch_lightmap_page (&model->batches[3], 2), ==, 1);
  g_assert_cmpint (msh_batch_lightmap_page (&model->batches[3], 1), ==, 0);
  test_mesh_free (m);
}

/* Rows a drawn batch uses, and rows only named. */
static void
test_row_usage (void)
{
  TestMeshNode nodes[] = {
    test_mesh_node (0, TEST_NONE, TEST_NONE, 0, 0),
    test_mesh_node (MSH_NODE_COCKPIT, 0, TEST_NONE, 0, 1),
  };
  static const float xyz[18] = { 0 };
  TestMesh *m = per_node_mesh (nodes, 2, xyz, NULL, 0);
  g_autoptr(MshModel) model = read_mesh (m);
  g_autoptr(MshDraw) draw = msh_model_draw (model, MSH_DRAW_COUNTS);
  g_autoptr(GBytes) text = g_bytes_new_static ("3\n0 A\n1 B\n2 C\n", 14);
  g_autoptr(WearTable) wear = wear_table_read (text, 0, "tree.wea");

  g_assert_cmpuint (wear->n_rows, ==, 3);
  /* row 0 drawn; row 1 named by the cockpit's batch only; row 2 by none */
  g_assert_cmpuint (draw->row_batches[0], ==, 1);
  g_assert_cmpuint (draw->row_triangles[0], ==, 1);
  g_assert_cmpuint (draw->row_batches[1], ==, 0);
  g_assert_cmpuint (draw->row_batches[2], ==, 0);
  test_mesh_free (m);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/msh/draw/two-quads", test_two_quads);
  g_test_add_func ("/core/msh/draw/counts-only", test_counts_only);
  g_test_add_func ("/core/msh/draw/material-byte-4", test_material_byte_4);
  g_test_add_func ("/core/msh/draw/relative-indices", test_relative_indices);
  g_test_add_func ("/core/msh/draw/unreached-vertices", test_unreached_vertices);
  g_test_add_func ("/core/msh/draw/cockpit-interior", test_cockpit_interior);
  g_test_add_func ("/core/msh/draw/slot-choice", test_slot_choice);
  g_test_add_func ("/core/msh/draw/shared-slot", test_shared_slot);
  g_test_add_func ("/core/msh/draw/row-usage", test_row_usage);
  g_test_add_func ("/core/msh/pose/conjugated-root", test_conjugated_root);
  g_test_add_func ("/core/msh/pose/normalised", test_quaternion_normalised);
  g_test_add_func ("/core/msh/pose/chain", test_chain);
  g_test_add_func ("/core/msh/pose/rest-key", test_rest_key);
  g_test_add_func ("/core/msh/pose/parent-lints", test_parent_lints);
  g_test_add_func ("/core/msh/pose/long-chains", test_long_chains);
  g_test_add_func ("/core/msh/streams/copies", test_stream_copies);
  g_test_add_func ("/core/msh/streams/missing", test_missing_streams);
  g_test_add_func ("/core/msh/streams/lightmap-uvs-and-names", test_lightmap_uvs_and_names);
  g_test_add_func ("/core/msh/error/archive", test_error_archive);
  g_test_add_func ("/core/msh/error/stream-size", test_error_stream_size);
  g_test_add_func ("/core/msh/error/stream-sizes", test_error_stream_sizes);
  g_test_add_func ("/core/msh/error/slot-index", test_error_slot_index);
  g_test_add_func ("/core/msh/error/slot-ranges", test_error_slot_ranges);
  g_test_add_func ("/core/msh/error/batch-range", test_error_batch_range);
  g_test_add_func ("/core/msh/error/corners", test_error_corners);
  g_test_add_func ("/core/msh/error/huge-ranges", test_huge_ranges);
  g_test_add_func ("/core/msh/error/too-large", test_error_too_large);
  g_test_add_func ("/core/msh/lint/wear-row", test_lint_wear_row);

  return g_test_run ();
}
