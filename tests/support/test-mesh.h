/* test-mesh.h - MESH payloads and model archives built byte by byte for
 * tests (models.md 2), independent of the reader under test.
 *
 * A TestMesh is a list of streams in the order they are added; building
 * it writes them as the entries of a nested NRes archive
 * (test_build_archive, no padding), so stream k's data starts at 16 plus
 * the sizes of the streams added before it. The element count (attr1) is
 * the number of elements given; test_mesh_stream writes any bytes with
 * any counts, for broken models.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TEST_NONE 0xFFFFu

typedef struct {
  guint16 flags;
  guint16 parent;
  guint16 anim_start;
  guint16 fallback_key;
  guint16 slot[15];
} TestMeshNode;

typedef struct {
  guint16 first_triangle;
  guint16 triangle_count;
  guint16 first_batch;
  guint16 batch_count;
} TestMeshSlot;

typedef struct {
  guint32 word;           /* +0 */
  guint8  row;            /* +4 */
  guint8  page;           /* +5 */
  guint16 node;           /* +6 */
  guint16 index_count;    /* +8 */
  guint16 first_index;    /* +10 */
  guint16 vertex_count;   /* +14 */
  guint16 first_vertex;   /* +16 */
} TestMeshBatch;

typedef struct {
  float  translation[3];
  float  time;
  gint16 rotation[4];     /* w, x, y, z as stored */
} TestMeshKey;

typedef struct _TestMesh TestMesh;

TestMesh *test_mesh_new          (void);
void      test_mesh_free         (TestMesh *mesh);

/* A node with every slot TEST_NONE but slot[0] = @slot0. */
TestMeshNode test_mesh_node      (guint16 flags,
                                  guint16 parent,
                                  guint16 anim_start,
                                  guint16 fallback_key,
                                  guint16 slot0);

/* Any stream: @size bytes with @attr1 and @attr2 as given. */
void      test_mesh_stream       (TestMesh     *mesh,
                                  guint32       type,
                                  guint32       attr1,
                                  guint32       attr2,
                                  const void   *data,
                                  gsize         size);
void      test_mesh_nodes        (TestMesh           *mesh,
                                  const TestMeshNode *nodes,
                                  guint               n);
/* Stream 2: a zero header, then each slot with a zero box and stats. */
void      test_mesh_slots        (TestMesh           *mesh,
                                  const TestMeshSlot *slots,
                                  guint               n);
/* Stream 3: @n vertices of x, y, z. */
void      test_mesh_positions    (TestMesh     *mesh,
                                  const float  *xyz,
                                  guint         n);
/* Stream 4: @n normals of x, y, z (then a 0 pad byte). */
void      test_mesh_normals      (TestMesh     *mesh,
                                  const gint8  *xyz,
                                  guint         n);
/* Stream 5 or 18 (@type): @n pairs u, v. */
void      test_mesh_uvs          (TestMesh      *mesh,
                                  guint32        type,
                                  const guint16 *uv,
                                  guint          n);
/* Stream 6: @n triangles of three indices. */
void      test_mesh_triangles    (TestMesh      *mesh,
                                  const guint16 *abc,
                                  guint          n);
void      test_mesh_keys         (TestMesh          *mesh,
                                  const TestMeshKey *keys,
                                  guint              n);
/* Stream 9: names NUL-padded to 32 bytes. */
void      test_mesh_names        (TestMesh          *mesh,
                                  const char *const *names,
                                  guint              n);
void      test_mesh_batches      (TestMesh            *mesh,
                                  const TestMeshBatch *batches,
                                  guint                n);
/* Stream 19: @n entries, attr2 = @frames. */
void      test_mesh_frame_map    (TestMesh      *mesh,
                                  const guint16 *map,
                                  guint          n,
                                  guint          frames);

/* Where stream entry @index (in the order added) starts in the payload. */
gsize     test_mesh_stream_offset (const TestMesh *mesh,
                                   guint           index);
/* Where the inner directory starts in the payload. */
gsize     test_mesh_directory_offset (const TestMesh *mesh);

/* The MESH payload. Returns: (transfer full). */
GBytes   *test_mesh_build        (const TestMesh *mesh);

/* An archive with @stem.msh (MESH, @mesh) and, when @wear is not NULL,
 * @stem.wea (WEAR, the text's bytes). The .msh payload comes first, at
 * offset 16. Returns: (transfer full). */
GBytes   *test_model_archive     (const char *stem,
                                  GBytes     *mesh,
                                  const char *wear);

G_END_DECLS
