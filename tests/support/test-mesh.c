/* test-mesh.c - MESH payloads built byte by byte for tests */
#include "config.h"

#include <string.h>

#include "test-mesh.h"
#include "test-support.h"

typedef struct {
  guint32     type;
  guint32     attr1;
  guint32     attr2;
  GByteArray *data;
  char        name[16];
} Stream;

struct _TestMesh {
  GArray *streams;   /* Stream */
};

static void
stream_clear (Stream *s)
{
  g_byte_array_unref (s->data);
}

TestMesh *
test_mesh_new (void)
{
  TestMesh *mesh = g_new0 (TestMesh, 1);

  mesh->streams = g_array_new (FALSE, TRUE, sizeof (Stream));
  g_array_set_clear_func (mesh->streams, (GDestroyNotify) stream_clear);

  return mesh;
}

void
test_mesh_free (TestMesh *mesh)
{
  if (mesh == NULL)
    return;

  g_array_unref (mesh->streams);
  g_free (mesh);
}

TestMeshNode
test_mesh_node (guint16 flags,
                guint16 parent,
                guint16 anim_start,
                guint16 fallback_key,
                guint16 slot0)
{
  TestMeshNode node = { flags, parent, anim_start, fallback_key, { 0 } };

  for (guint k = 0; k < 15; k++)
    node.slot[k] = TEST_NONE;
  node.slot[0] = slot0;

  return node;
}

static GByteArray *
add (TestMesh *mesh,
     guint32   type,
     guint32   attr1,
     guint32   attr2)
{
  Stream s = { type, attr1, attr2, g_byte_array_new (), { 0 } };

  g_snprintf (s.name, sizeof s.name, "s%02u_%u", type, mesh->streams->len);
  g_array_append_val (mesh->streams, s);

  return s.data;
}

static void
put_f32 (GByteArray *a,
         float       f)
{
  guint32 bits;

  memcpy (&bits, &f, sizeof bits);
  test_put_u32 (a, bits);
}

void
test_mesh_stream (TestMesh   *mesh,
                  guint32     type,
                  guint32     attr1,
                  guint32     attr2,
                  const void *data,
                  gsize       size)
{
  test_put_bytes (add (mesh, type, attr1, attr2), data, size);
}

void
test_mesh_nodes (TestMesh           *mesh,
                 const TestMeshNode *nodes,
                 guint               n)
{
  GByteArray *a = add (mesh, 1, n, 0);

  for (guint i = 0; i < n; i++)
    {
      test_put_u16 (a, nodes[i].flags);
      test_put_u16 (a, nodes[i].parent);
      test_put_u16 (a, nodes[i].anim_start);
      test_put_u16 (a, nodes[i].fallback_key);
      for (guint k = 0; k < 15; k++)
        test_put_u16 (a, nodes[i].slot[k]);
    }
}

void
test_mesh_slots (TestMesh           *mesh,
                 const TestMeshSlot *slots,
                 guint               n)
{
  GByteArray *a = add (mesh, 2, n, 0);
  guint8 zeros[140] = { 0 };

  test_put_bytes (a, zeros, 140);
  for (guint i = 0; i < n; i++)
    {
      test_put_u16 (a, slots[i].first_triangle);
      test_put_u16 (a, slots[i].triangle_count);
      test_put_u16 (a, slots[i].first_batch);
      test_put_u16 (a, slots[i].batch_count);
      test_put_bytes (a, zeros, 60);
    }
}

void
test_mesh_positions (TestMesh    *mesh,
                     const float *xyz,
                     guint        n)
{
  GByteArray *a = add (mesh, 3, n, 0);

  for (guint i = 0; i < 3 * n; i++)
    put_f32 (a, xyz[i]);
}

void
test_mesh_normals (TestMesh    *mesh,
                   const gint8 *xyz,
                   guint        n)
{
  GByteArray *a = add (mesh, 4, n, 0);

  for (guint i = 0; i < n; i++)
    {
      test_put_u8 (a, (guint8) xyz[3 * i]);
      test_put_u8 (a, (guint8) xyz[3 * i + 1]);
      test_put_u8 (a, (guint8) xyz[3 * i + 2]);
      test_put_u8 (a, 0);
    }
}

void
test_mesh_uvs (TestMesh      *mesh,
               guint32        type,
               const guint16 *uv,
               guint          n)
{
  GByteArray *a = add (mesh, type, n, 0);

  for (guint i = 0; i < 2 * n; i++)
    test_put_u16 (a, uv[i]);
}

void
test_mesh_triangles (TestMesh      *mesh,
                     const guint16 *abc,
                     guint          n)
{
  GByteArray *a = add (mesh, 6, n, 0);

  for (guint i = 0; i < 3 * n; i++)
    test_put_u16 (a, abc[i]);
}

void
test_mesh_keys (TestMesh          *mesh,
                const TestMeshKey *keys,
                guint              n)
{
  GByteArray *a = add (mesh, 8, n, 0);

  for (guint i = 0; i < n; i++)
    {
      for (guint k = 0; k < 3; k++)
        put_f32 (a, keys[i].translation[k]);
      put_f32 (a, keys[i].time);
      for (guint k = 0; k < 4; k++)
        test_put_u16 (a, (guint16) keys[i].rotation[k]);
    }
}

void
test_mesh_names (TestMesh          *mesh,
                 const char *const *names,
                 guint              n)
{
  GByteArray *a = add (mesh, 9, n, 0);

  for (guint i = 0; i < n; i++)
    {
      char field[32] = { 0 };

      g_assert_cmpuint (strlen (names[i]), <, 32);
      memcpy (field, names[i], strlen (names[i]));
      test_put_bytes (a, field, 32);
    }
}

void
test_mesh_batches (TestMesh            *mesh,
                   const TestMeshBatch *batches,
                   guint                n)
{
  GByteArray *a = add (mesh, 13, n, 0);

  for (guint i = 0; i < n; i++)
    {
      test_put_u32 (a, batches[i].word);
      test_put_u8 (a, batches[i].row);
      test_put_u8 (a, batches[i].page);
      test_put_u16 (a, batches[i].node);
      test_put_u16 (a, batches[i].index_count);
      test_put_u16 (a, batches[i].first_index);
      test_put_u16 (a, 0);
      test_put_u16 (a, batches[i].vertex_count);
      test_put_u16 (a, batches[i].first_vertex);
      test_put_u16 (a, 0);
    }
}

void
test_mesh_frame_map (TestMesh      *mesh,
                     const guint16 *map,
                     guint          n,
                     guint          frames)
{
  GByteArray *a = add (mesh, 19, n, frames);

  for (guint i = 0; i < n; i++)
    test_put_u16 (a, map[i]);
}

gsize
test_mesh_stream_offset (const TestMesh *mesh,
                         guint           index)
{
  gsize offset = 16;

  g_assert_cmpuint (index, <, mesh->streams->len);
  for (guint i = 0; i < index; i++)
    offset += g_array_index (mesh->streams, Stream, i).data->len;

  return offset;
}

gsize
test_mesh_directory_offset (const TestMesh *mesh)
{
  gsize offset = 16;

  for (guint i = 0; i < mesh->streams->len; i++)
    offset += g_array_index (mesh->streams, Stream, i).data->len;

  return offset;
}

GBytes *
test_mesh_build (const TestMesh *mesh)
{
  guint n = mesh->streams->len;
  g_autofree TestEntrySpec *specs = g_new0 (TestEntrySpec, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      const Stream *s = &g_array_index (mesh->streams, Stream, i);

      specs[i].type_id = s->type;
      specs[i].attr1 = s->attr1;
      specs[i].attr2 = s->attr2;
      specs[i].name = s->name;
      specs[i].payload = s->data->data;
      specs[i].size = s->data->len;
    }

  return test_build_archive (specs, n, FALSE);
}

GBytes *
test_model_archive (const char *stem,
                    GBytes     *mesh,
                    const char *wear)
{
  g_autofree char *msh = g_strconcat (stem, ".msh", NULL);
  g_autofree char *wea = g_strconcat (stem, ".wea", NULL);
  TestEntrySpec specs[2] = {
    { 0x4853454Du, 0, 0, 0, msh, g_bytes_get_data (mesh, NULL), g_bytes_get_size (mesh), 0 },
    { 0x52414557u, 0, 0, 0, wea, (const guint8 *) wear, wear != NULL ? strlen (wear) : 0, 0 },
  };

  return test_build_archive (specs, wear != NULL ? 2 : 1, FALSE);
}
