/* gen-models.c - a deterministic game folder of retail size
 *
 *   gen-models OUTDIR [TEXTURE_MIB]
 *
 * About what the retail install holds (models.md: 435 meshes, 15,153
 * batches, 439 wears, 21 of them with a LIGHTMAPS page): 435 models with
 * 240,000 triangles in 15,000 batches over seven .rlb archives, their 435
 * wears and four material tables without a model (Shade.wea, sky.wea,
 * Land1.wea, Land2.wea), 439 wears in all. The largest model, a
 * building in fortif.rlb, has 40,000 triangles in 224 batches over 39
 * materials, lightmapped; 20 more models are lightmapped. Every model has
 * what a retail one has: nodes with names and keys, slots, positions,
 * normals, UVs, triangles (relative to each batch's first vertex), face
 * records, batches. Materials are named from a pool of 905, as the retail
 * Material.lib has.
 *
 * With TEXTURE_MIB, also a Textures.lib of that many mebibytes of Texm
 * entries (random bytes: the index never reads them).
 *
 * The same arguments always give the same bytes (GRand with a fixed
 * seed). No retail data is used or needed.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "nres.h"
#include "test-mesh.h"
#include "test-support.h"

#define N_MODELS       435
#define N_TRIANGLES    240000
#define N_BATCHES      15000
#define N_MATERIALS    905
#define BIG_TRIANGLES  40000
#define BIG_BATCHES    224
#define BIG_MATERIALS  39
#define N_LIT          21

typedef struct {
  const char *name;
  guint       n_models;
} ArchiveSpec;

/* 435 models */
static const ArchiveSpec archives[] = {
  { "static.rlb", 150 },
  { "fortif.rlb", 90 },
  { "turrets.rlb", 50 },
  { "guns.rlb", 40 },
  { "bases.rlb", 45 },
  { "parts.rlb", 50 },
  { "system.rlb", 10 },
};

static char *
material_name (guint i)
{
  static const char *const stems[] = {
    "ROCK", "WALL", "METAL", "GLASS", "TANK", "BASE", "TOWER", "ROAD", "SAND",
    "LAVA", "WATER", "ICE", "ARMOR", "HULL", "ENGINE", "LIGHT", "FIRE", "SMOKE",
  };

  return g_strdup_printf ("%s_%u", stems[i % G_N_ELEMENTS (stems)], i);
}

/* A wear of @n rows drawn from the pool, with a LIGHTMAPS page when @lit. */
static GBytes *
make_wear (GRand    *rand,
           guint     n,
           gboolean  lit,
           guint     lightmap)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "%u\r\n", n);
  for (guint r = 0; r < n; r++)
    {
      g_autofree char *name = material_name ((guint) g_rand_int_range (rand, 0, N_MATERIALS));

      g_string_append_printf (text, "%u %s\r\n", r, name);
    }
  if (lit)
    g_string_append_printf (text, "\r\nLIGHTMAPS\r\n1\r\n0 lm_%03u.0\r\n", lightmap);

  return g_string_free_to_bytes (text);
}

/* A model of @n_triangles in @n_batches (each a strip of quads), over
 * @n_rows rows, in 1..8 nodes each drawing its own slot. */
static GBytes *
make_mesh (GRand    *rand,
           guint     n_triangles,
           guint     n_batches,
           guint     n_rows,
           gboolean  lit,
           gboolean  big)
{
  guint n_nodes = MIN ((guint) g_rand_int_range (rand, 1, 9), n_batches);
  TestMesh *mesh = test_mesh_new ();
  g_autofree TestMeshNode *nodes = g_new0 (TestMeshNode, n_nodes);
  g_autofree TestMeshSlot *slots = g_new0 (TestMeshSlot, n_nodes);
  g_autofree TestMeshBatch *batches = g_new0 (TestMeshBatch, n_batches);
  g_autofree TestMeshKey *keys = g_new0 (TestMeshKey, n_nodes);
  g_autoptr(GArray) xyz = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr(GArray) normals = g_array_new (FALSE, FALSE, sizeof (gint8));
  g_autoptr(GArray) uvs = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autoptr(GArray) abc = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autoptr(GByteArray) faces = g_byte_array_new ();
  g_auto(GStrv) names = g_new0 (char *, n_nodes + 1);
  g_autofree guint *shares = g_new0 (guint, n_batches);
  guint batch = 0;
  GBytes *payload;

  /* Each batch an even number of triangles (a strip of quads). A batch's
   * first index is a u16: the big model puts 21,844 triangles in its last
   * batch, so that every batch starts below index 65,536. */
  {
    guint rest = n_triangles, n = n_batches;

    if (big)
      {
        shares[n_batches - 1] = 21844;
        rest -= shares[--n];
      }
    for (guint b = 0; b < n; b++)
      shares[b] = (rest / n) & ~1u;
    for (guint b = 0, left = rest - n * ((rest / n) & ~1u); left > 0; b = (b + 1) % n, left -= 2)
      shares[b] += 2;
  }

  for (guint node = 0; node < n_nodes; node++)
    {
      guint node_batches = n_batches / n_nodes + (node < n_batches % n_nodes ? 1 : 0);

      slots[node].first_triangle = (guint16) (abc->len / 3);
      slots[node].first_batch = (guint16) batch;
      slots[node].batch_count = (guint16) node_batches;
      for (guint k = 0; k < node_batches; k++, batch++)
        {
          guint t = shares[batch];
          guint first_vertex = xyz->len / 3;
          guint quads = t / 2;

          g_assert (t >= 2 && abc->len < 65536);
          batches[batch].word = lit ? 0x2000u : (g_rand_int_range (rand, 0, 8) == 0 ? 0x100u : 0);
          batches[batch].row = (guint8) g_rand_int_range (rand, 0, (gint) n_rows);
          batches[batch].page = lit ? 0 : 0xFF;
          batches[batch].node = TEST_NONE;
          batches[batch].first_index = (guint16) abc->len;
          batches[batch].index_count = (guint16) (3 * t);
          batches[batch].first_vertex = (guint16) first_vertex;
          batches[batch].vertex_count = (guint16) (2 * (quads + 1));
          for (guint v = 0; v <= quads; v++)
            for (guint side = 0; side < 2; side++)
              {
                float p[3] = { (float) v, (float) side, (float) node + (float) k / 100 };
                gint8 n[3] = { 0, 0, 127 };
                guint16 uv[2] = { (guint16) (v * 64), (guint16) (side * 1024) };

                g_array_append_vals (xyz, p, 3);
                g_array_append_vals (normals, n, 3);
                g_array_append_vals (uvs, uv, 2);
              }
          for (guint q = 0; q < quads; q++)
            {
              guint16 a = (guint16) (2 * q), b = a + 1, c = a + 2, d = a + 3;
              guint16 tri[6] = { a, c, b, b, c, d };

              g_array_append_vals (abc, tri, 6);
              for (guint f = 0; f < 2; f++)
                {
                  static const guint8 face[16] = { 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                                   0, 0, 0, 0, 0xFF, 0x7F, 0, 0 };

                  g_byte_array_append (faces, face, sizeof face);
                }
            }
          /* the vertices a batch reaches: below 65,536 */
          g_assert (xyz->len / 3 <= 65536);
        }
      slots[node].triangle_count = (guint16) (abc->len / 3 - slots[node].first_triangle);
      nodes[node] = test_mesh_node (0, node == 0 ? TEST_NONE : 0, TEST_NONE, (guint16) node,
                                    (guint16) node);
      keys[node].translation[0] = (float) node;
      keys[node].rotation[0] = 32767;
      names[node] = g_strdup_printf ("node%02u", node);
    }

  test_mesh_nodes (mesh, nodes, n_nodes);
  test_mesh_slots (mesh, slots, n_nodes);
  test_mesh_positions (mesh, (const float *) xyz->data, xyz->len / 3);
  test_mesh_normals (mesh, (const gint8 *) normals->data, normals->len / 3);
  test_mesh_uvs (mesh, 5, (const guint16 *) uvs->data, uvs->len / 2);
  test_mesh_triangles (mesh, (const guint16 *) abc->data, abc->len / 3);
  test_mesh_stream (mesh, 7, abc->len / 3, 0, faces->data, faces->len);
  test_mesh_keys (mesh, keys, n_nodes);
  test_mesh_names (mesh, (const char *const *) names, n_nodes);
  test_mesh_batches (mesh, batches, n_batches);
  if (lit)
    test_mesh_uvs (mesh, 18, (const guint16 *) uvs->data, uvs->len / 2);
  payload = test_mesh_build (mesh);
  test_mesh_free (mesh);

  return payload;
}

typedef struct {
  char   *name;
  guint32 type;
  GBytes *payload;
} Member;

static void
member_clear (gpointer data)
{
  Member *m = data;

  g_free (m->name);
  g_bytes_unref (m->payload);
}

static void
write_archive (const char *dir,
               const char *name,
               GArray     *members)
{
  g_autofree TestEntrySpec *specs = g_new0 (TestEntrySpec, members->len);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GBytes) file = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < members->len; i++)
    {
      const Member *m = &g_array_index (members, Member, i);

      specs[i].type_id = m->type;
      specs[i].name = m->name;
      specs[i].payload = g_bytes_get_data (m->payload, &specs[i].size);
    }
  file = test_build_archive (specs, members->len, TRUE);
  if (!g_file_set_contents (path, g_bytes_get_data (file, NULL), (gssize) g_bytes_get_size (file),
                            &error))
    g_error ("%s", error->message);
}

static void
add_member (GArray     *members,
            char       *name,
            guint32     type,
            GBytes     *payload)
{
  Member m = { name, type, payload };

  g_array_append_val (members, m);
}

/* How many triangles and batches each model has: the big one first,
 * the others shared unevenly (weights 0.5..1.5), the sums exact. */
static void
plan_models (GRand *rand,
             guint *triangles,
             guint *batches)
{
  double weights[N_MODELS], sum = 0;
  guint n = N_MODELS - 1, t_left = N_TRIANGLES - BIG_TRIANGLES, b_left = N_BATCHES - BIG_BATCHES;

  triangles[0] = BIG_TRIANGLES;
  batches[0] = BIG_BATCHES;
  for (guint i = 1; i <= n; i++)
    sum += weights[i] = g_rand_double_range (rand, 0.5, 1.5);
  for (guint i = 1; i <= n; i++)
    {
      batches[i] = MAX (1, (guint) (weights[i] / sum * (N_BATCHES - BIG_BATCHES)));
      triangles[i] = MAX (2 * batches[i], (guint) (weights[i] / sum * t_left) & ~1u);
    }
  for (guint i = 1; i <= n; i++)
    {
      b_left -= batches[i];
      t_left -= triangles[i];
    }
  /* what rounding left, one by one */
  for (guint i = 1; b_left > 0; i = i % n + 1, b_left--)
    batches[i]++;
  for (guint i = 1; t_left > 0; i = i % n + 1)
    {
      guint add = MIN (t_left, 2u);

      triangles[i] += add;
      t_left -= add;
    }
  for (guint i = 1; i <= n; i++)
    triangles[i] = MAX (triangles[i], 2 * batches[i]);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GRand) rand = NULL;
  guint triangles[N_MODELS], batches[N_MODELS];
  guint64 total_triangles = 0, total_batches = 0;
  guint model = 0, lit_left = N_LIT, lightmap = 0, big = 0;
  guint64 texture_mib = 0;
  const char *dir;

  if (argc != 2 && argc != 3)
    {
      fprintf (stderr, "Usage: %s OUTDIR [TEXTURE_MIB]\n", argv[0]);
      return 2;
    }
  dir = argv[1];
  if (argc == 3 && !g_ascii_string_to_unsigned (argv[2], 10, 0, 4000, &texture_mib, NULL))
    {
      fprintf (stderr, "%s: expected mebibytes 0..4000, found %s\n", argv[0], argv[2]);
      return 2;
    }
  if (g_mkdir_with_parents (dir, 0755) != 0)
    g_error ("%s: cannot create the folder", dir);
  rand = g_rand_new_with_seed (0x4D455348);
  plan_models (rand, triangles, batches);

  for (guint a = 0; a < G_N_ELEMENTS (archives); a++)
    {
      g_autoptr(GArray) members = g_array_new (FALSE, TRUE, sizeof (Member));

      g_array_set_clear_func (members, member_clear);
      for (guint k = 0; k < archives[a].n_models; k++, model++)
        {
          /* the big building opens fortif.rlb; the others take the plan
           * in order */
          gboolean is_big = a == 1 && k == 0;
          guint plan = is_big ? 0 : ++big;
          guint n_rows = is_big ? BIG_MATERIALS
                                : MIN (batches[plan], (guint) g_rand_int_range (rand, 1, 12));
          gboolean lit = a == 1 && lit_left > 0;

          if (lit)
            lit_left--;
          add_member (members, g_strdup_printf ("m%03u.msh", model), 0x4853454Du,
                      make_mesh (rand, triangles[plan], batches[plan], n_rows, lit, is_big));
          add_member (members, g_strdup_printf ("m%03u.wea", model), 0x52414557u,
                      make_wear (rand, n_rows, lit, lightmap));
          if (lit)
            lightmap++;
          total_triangles += triangles[plan];
          total_batches += batches[plan];
        }
      if (g_str_equal (archives[a].name, "system.rlb"))
        add_member (members, g_strdup ("Shade.wea"), 0x52414557u, make_wear (rand, 6, FALSE, 0));
      write_archive (dir, archives[a].name, members);
    }
  {
    g_autoptr(GArray) members = g_array_new (FALSE, TRUE, sizeof (Member));

    g_array_set_clear_func (members, member_clear);
    add_member (members, g_strdup ("sky.wea"), 0x52414557u, make_wear (rand, 4, FALSE, 0));
    write_archive (dir, "sky.rlb", members);
  }
  {
    g_autoptr(GArray) members = g_array_new (FALSE, TRUE, sizeof (Member));

    g_array_set_clear_func (members, member_clear);
    add_member (members, g_strdup ("Land1.wea"), 0x52414557u, make_wear (rand, 40, FALSE, 0));
    add_member (members, g_strdup ("Land2.wea"), 0x52414557u, make_wear (rand, 40, FALSE, 0));
    write_archive (dir, "land1.rlb", members);
  }
  if (texture_mib > 0)
    {
      g_autoptr(GArray) members = g_array_new (FALSE, TRUE, sizeof (Member));
      guint n = (guint) texture_mib * 4;

      g_array_set_clear_func (members, member_clear);
      for (guint i = 0; i < n; i++)
        {
          gsize size = 256 * 1024;
          guint8 *bytes = g_malloc (size);

          for (gsize k = 0; k < size; k += 4)
            {
              guint32 v = g_rand_int (rand);

              memcpy (bytes + k, &v, 4);
            }
          add_member (members, g_strdup_printf ("TEX_%04u.0", i), 0x6D786554u,
                      g_bytes_new_take (bytes, size));
        }
      write_archive (dir, "Textures.lib", members);
    }
  if (model != N_MODELS || total_triangles != N_TRIANGLES || total_batches != N_BATCHES)
    g_error ("planned %u models, %" G_GUINT64_FORMAT " triangles, %" G_GUINT64_FORMAT " batches",
             model, total_triangles, total_batches);

  return 0;
}
