/* make-models.c - writes the demo game folder: a few models that show what
 * the MESH and WEAR formats do (doc/models.md), wearing the demo's
 * materials, and the archives a game folder has around them.
 *
 *   Material.lib, Textures.lib   copies of the demo library and textures
 *   LightMap.lib                 the lightmap page of the bunker (Texm 565)
 *   static.rlb    box.msh/.wea   a crate of two materials (a third row
 *                                names a material no batch draws)
 *                 tree.msh/.wea  two crossed planes of cut-out foliage
 *   turrets.rlb   turret.msh/.wea  base, head and barrel turned by their
 *                                keys; the barrel animated (frame map),
 *                                a glow at its muzzle, a cockpit inside the
 *                                head (never drawn at rest) and a damaged
 *                                head (a damage slot, not drawn at rest)
 *   fortif.rlb    bunker.msh/.wea  lightmapped walls and roof (stream 18,
 *                                LIGHTMAPS in its wear), a see-through
 *                                window (batch word 0x100) and an interior
 *                                part (node flag 0x01) behind it
 *   land.rlb      Land1.wea      a terrain's material table, no model
 *
 * Usage: make-models OUTDIR MATERIAL.lib TEXTURES.lib
 *
 * Every model is read back with the core's reader before it is written:
 * a model with a problem fails the build. Deterministic (no rand (), no
 * libm): every build writes the same bytes.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cp1251.h"
#include "msh.h"
#include "nres.h"
#include "texm.h"
#include "wear.h"

/* ---- A small MESH writer ------------------------------------------------ */

typedef struct {
  guint16     flags;
  guint16     parent;
  guint16     anim_start;
  guint16     fallback_key;
  guint16     slot[MSH_N_SLOT_INDICES];
  const char *name;
} Node;

typedef struct {
  guint16 first_triangle, triangle_count, first_batch, batch_count;
  float   min[3], max[3];
} Slot;

typedef struct {
  guint32 word;
  guint8  row, page;
  guint16 index_count, first_index, vertex_count, first_vertex;
} Batch;

typedef struct {
  float  t[3];
  float  time;
  gint16 q[4];
} Key;

typedef struct {
  GArray  *nodes, *slots, *batches, *keys;
  GArray  *pos, *nrm, *uv, *lm, *idx, *frame_map;
  guint    frames;
  gboolean lightmapped;
  guint    slot_first_triangle, slot_first_batch, slot_first_vertex;
  guint    batch_first_vertex, batch_first_index;
  guint32  batch_word;
  guint8   batch_row, batch_page;
} Mesh;

static Mesh *
mesh_new (void)
{
  Mesh *m = g_new0 (Mesh, 1);

  m->nodes = g_array_new (FALSE, TRUE, sizeof (Node));
  m->slots = g_array_new (FALSE, TRUE, sizeof (Slot));
  m->batches = g_array_new (FALSE, TRUE, sizeof (Batch));
  m->keys = g_array_new (FALSE, TRUE, sizeof (Key));
  m->pos = g_array_new (FALSE, TRUE, sizeof (float));
  m->nrm = g_array_new (FALSE, TRUE, sizeof (gint8));
  m->uv = g_array_new (FALSE, TRUE, sizeof (guint16));
  m->lm = g_array_new (FALSE, TRUE, sizeof (guint16));
  m->idx = g_array_new (FALSE, TRUE, sizeof (guint16));
  m->frame_map = g_array_new (FALSE, TRUE, sizeof (guint16));

  return m;
}

static void
mesh_free (Mesh *m)
{
  g_array_unref (m->nodes);
  g_array_unref (m->slots);
  g_array_unref (m->batches);
  g_array_unref (m->keys);
  g_array_unref (m->pos);
  g_array_unref (m->nrm);
  g_array_unref (m->uv);
  g_array_unref (m->lm);
  g_array_unref (m->idx);
  g_array_unref (m->frame_map);
  g_free (m);
}

static guint
n_vertices (const Mesh *m)
{
  return m->pos->len / 3;
}

/* A node drawing @slot0 at rest (MSH_NONE for none). */
static guint
mesh_node (Mesh       *m,
           const char *name,
           guint16     flags,
           guint16     parent,
           guint16     anim_start,
           guint16     fallback_key,
           guint16     slot0)
{
  Node node = { flags, parent, anim_start, fallback_key, { 0 }, name };

  for (guint k = 0; k < MSH_N_SLOT_INDICES; k++)
    node.slot[k] = MSH_NONE;
  node.slot[0] = slot0;
  g_array_append_val (m->nodes, node);

  return m->nodes->len - 1;
}

/* A key as stored: @q the FILE quaternion (w, x, y, z) x 32767, which the
 * reader conjugates: a file rotation of +a about an axis draws as -a. */
static guint
mesh_key (Mesh  *m,
          float  tx,
          float  ty,
          float  tz,
          float  time,
          gint16 qw,
          gint16 qx,
          gint16 qy,
          gint16 qz)
{
  Key key = { { tx, ty, tz }, time, { qw, qx, qy, qz } };

  g_array_append_val (m->keys, key);
  return m->keys->len - 1;
}

static void
mesh_begin_slot (Mesh *m)
{
  m->slot_first_triangle = m->idx->len / 3;
  m->slot_first_batch = m->batches->len;
  m->slot_first_vertex = n_vertices (m);
}

static guint
mesh_end_slot (Mesh *m)
{
  Slot slot = { (guint16) m->slot_first_triangle,
                (guint16) (m->idx->len / 3 - m->slot_first_triangle),
                (guint16) m->slot_first_batch,
                (guint16) (m->batches->len - m->slot_first_batch),
                { 0 }, { 0 } };

  for (guint v = m->slot_first_vertex; v < n_vertices (m); v++)
    for (guint k = 0; k < 3; k++)
      {
        float p = g_array_index (m->pos, float, 3 * v + k);

        if (v == m->slot_first_vertex || p < slot.min[k])
          slot.min[k] = p;
        if (v == m->slot_first_vertex || p > slot.max[k])
          slot.max[k] = p;
      }
  g_array_append_val (m->slots, slot);

  return m->slots->len - 1;
}

static void
mesh_begin_batch (Mesh    *m,
                  guint32  word,
                  guint8   row,
                  guint8   page)
{
  m->batch_first_vertex = n_vertices (m);
  m->batch_first_index = m->idx->len;
  m->batch_word = word;
  m->batch_row = row;
  m->batch_page = page;
}

static void
mesh_end_batch (Mesh *m)
{
  Batch b = { m->batch_word, m->batch_row, m->batch_page,
              (guint16) (m->idx->len - m->batch_first_index),
              (guint16) m->batch_first_index,
              (guint16) (n_vertices (m) - m->batch_first_vertex),
              (guint16) m->batch_first_vertex };

  g_array_append_val (m->batches, b);
}

static guint16
uv16 (float f)
{
  return (guint16) (f * 1024.0f + 0.5f);
}

/* A vertex of the current batch; returns its index relative to the
 * batch's first vertex, as stream 6 stores it. */
static guint16
mesh_vertex (Mesh        *m,
             const float  p[3],
             const gint8  n[3],
             float        u,
             float        v,
             float        lu,
             float        lv)
{
  guint16 uv[2] = { uv16 (u), uv16 (v) };
  guint16 lm[2] = { uv16 (lu), uv16 (lv) };

  g_array_append_vals (m->pos, p, 3);
  g_array_append_vals (m->nrm, n, 3);
  g_array_append_vals (m->uv, uv, 2);
  g_array_append_vals (m->lm, lm, 2);

  return (guint16) (n_vertices (m) - 1 - m->batch_first_vertex);
}

static void
mesh_triangle (Mesh    *m,
               guint16  a,
               guint16  b,
               guint16  c)
{
  guint16 abc[3] = { a, b, c };

  g_array_append_vals (m->idx, abc, 3);
}

/* The quad c, c + du, c + du + dv, c + dv, facing @n. Texture UVs: the
 * corner c is (uv[0], uv[3]), c + du + dv is (uv[2], uv[1]): v runs down
 * from the dv edge. @lm: the same for the lightmap (NULL: zeros). */
static void
mesh_quad (Mesh        *m,
           const float  c[3],
           const float  du[3],
           const float  dv[3],
           const gint8  n[3],
           const float  uv[4],
           const float *lm)
{
  static const float no_lm[4] = { 0, 0, 0, 0 };
  float p[4][3];
  guint16 i[4];

  if (lm == NULL)
    lm = no_lm;
  for (guint k = 0; k < 3; k++)
    {
      p[0][k] = c[k];
      p[1][k] = c[k] + du[k];
      p[2][k] = c[k] + du[k] + dv[k];
      p[3][k] = c[k] + dv[k];
    }
  i[0] = mesh_vertex (m, p[0], n, uv[0], uv[3], lm[0], lm[3]);
  i[1] = mesh_vertex (m, p[1], n, uv[2], uv[3], lm[2], lm[3]);
  i[2] = mesh_vertex (m, p[2], n, uv[2], uv[1], lm[2], lm[1]);
  i[3] = mesh_vertex (m, p[3], n, uv[0], uv[1], lm[0], lm[1]);
  mesh_triangle (m, i[0], i[1], i[2]);
  mesh_triangle (m, i[0], i[2], i[3]);
}

/* The six faces of the box @lo..@hi, the texture once a face. */
static void
mesh_box (Mesh        *m,
          const float  lo[3],
          const float  hi[3],
          gboolean     sides,
          gboolean     caps)
{
  static const float full[4] = { 0, 0, 1, 1 };
  float w = hi[0] - lo[0], d = hi[1] - lo[1], h = hi[2] - lo[2];

  if (sides)
    {
      mesh_quad (m, (float[3]) { lo[0], lo[1], lo[2] }, (float[3]) { w, 0, 0 },
                 (float[3]) { 0, 0, h }, (gint8[3]) { 0, -127, 0 }, full, NULL);
      mesh_quad (m, (float[3]) { hi[0], lo[1], lo[2] }, (float[3]) { 0, d, 0 },
                 (float[3]) { 0, 0, h }, (gint8[3]) { 127, 0, 0 }, full, NULL);
      mesh_quad (m, (float[3]) { hi[0], hi[1], lo[2] }, (float[3]) { -w, 0, 0 },
                 (float[3]) { 0, 0, h }, (gint8[3]) { 0, 127, 0 }, full, NULL);
      mesh_quad (m, (float[3]) { lo[0], hi[1], lo[2] }, (float[3]) { 0, -d, 0 },
                 (float[3]) { 0, 0, h }, (gint8[3]) { -127, 0, 0 }, full, NULL);
    }
  if (caps)
    {
      mesh_quad (m, (float[3]) { lo[0], lo[1], hi[2] }, (float[3]) { w, 0, 0 },
                 (float[3]) { 0, d, 0 }, (gint8[3]) { 0, 0, 127 }, full, NULL);
      mesh_quad (m, (float[3]) { lo[0], hi[1], lo[2] }, (float[3]) { w, 0, 0 },
                 (float[3]) { 0, -d, 0 }, (gint8[3]) { 0, 0, -127 }, full, NULL);
    }
}

static void
put_u16 (GByteArray *a,
         guint16     v)
{
  guint8 b[2] = { v & 0xFF, v >> 8 };

  g_byte_array_append (a, b, 2);
}

static void
put_u32 (GByteArray *a,
         guint32     v)
{
  guint8 b[4] = { v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, v >> 24 };

  g_byte_array_append (a, b, 4);
}

static void
put_f32 (GByteArray *a,
         float       f)
{
  guint32 bits;

  memcpy (&bits, &f, sizeof bits);
  put_u32 (a, bits);
}

static void
put_zeros (GByteArray *a,
           guint       n)
{
  static const guint8 zeros[64] = { 0 };

  g_assert (n <= sizeof zeros);
  g_byte_array_append (a, zeros, n);
}

typedef struct {
  guint32     type;
  guint32     attr1;
  guint32     attr2;
  const char *name;
  GByteArray *data;
} StreamOut;

/* The MESH payload: the streams as the entries of a nested NRes archive
 * (the core's repack writer: canonical layout). Returns: (transfer full). */
static GBytes *
mesh_encode (const Mesh *m)
{
  StreamOut s[12];
  guint n = 0, n_tri = m->idx->len / 3;
  float lo[3] = { 0 }, hi[3] = { 0 };
  NresOutEntry *out;
  g_autoptr(GError) error = NULL;
  GBytes *payload;

#define STREAM(T, A1, A2, NAME) \
  (s[n] = (StreamOut) { T, A1, A2, NAME, g_byte_array_new () }, s[n++].data)

  for (guint v = 0; v < n_vertices (m); v++)
    for (guint k = 0; k < 3; k++)
      {
        float p = g_array_index (m->pos, float, 3 * v + k);

        lo[k] = v == 0 || p < lo[k] ? p : lo[k];
        hi[k] = v == 0 || p > hi[k] ? p : hi[k];
      }

  {
    GByteArray *a = STREAM (MSH_STREAM_NODES, m->nodes->len, 0, "nodes");

    for (guint i = 0; i < m->nodes->len; i++)
      {
        const Node *node = &g_array_index (m->nodes, Node, i);

        put_u16 (a, node->flags);
        put_u16 (a, node->parent);
        put_u16 (a, node->anim_start);
        put_u16 (a, node->fallback_key);
        for (guint k = 0; k < MSH_N_SLOT_INDICES; k++)
          put_u16 (a, node->slot[k]);
      }
  }
  {
    /* the header: the box of the unposed vertices (the editor does not
     * read it), its bounding sphere, no cylinder */
    GByteArray *a = STREAM (MSH_STREAM_SLOTS, m->slots->len, 0, "slots");
    float c[3], r2 = 0;

    for (guint corner = 0; corner < 8; corner++)
      for (guint k = 0; k < 3; k++)
        put_f32 (a, (corner >> k) & 1 ? hi[k] : lo[k]);
    for (guint k = 0; k < 3; k++)
      {
        c[k] = (lo[k] + hi[k]) / 2;
        r2 += (hi[k] - c[k]) * (hi[k] - c[k]);
      }
    for (guint k = 0; k < 3; k++)
      put_f32 (a, c[k]);
    put_f32 (a, r2);   /* the squared radius: no libm */
    put_zeros (a, 28);
    for (guint i = 0; i < m->slots->len; i++)
      {
        const Slot *slot = &g_array_index (m->slots, Slot, i);

        put_u16 (a, slot->first_triangle);
        put_u16 (a, slot->triangle_count);
        put_u16 (a, slot->first_batch);
        put_u16 (a, slot->batch_count);
        for (guint k = 0; k < 3; k++)
          put_f32 (a, slot->min[k]);
        for (guint k = 0; k < 3; k++)
          put_f32 (a, slot->max[k]);
        put_zeros (a, 36);
      }
  }
  {
    GByteArray *a = STREAM (MSH_STREAM_POSITIONS, n_vertices (m), 0, "positions");

    for (guint i = 0; i < m->pos->len; i++)
      put_f32 (a, g_array_index (m->pos, float, i));
  }
  {
    GByteArray *a = STREAM (MSH_STREAM_NORMALS, n_vertices (m), 0, "normals");

    for (guint v = 0; v < n_vertices (m); v++)
      {
        g_byte_array_append (a, (const guint8 *) &g_array_index (m->nrm, gint8, 3 * v), 3);
        put_zeros (a, 1);
      }
  }
  {
    GByteArray *a = STREAM (MSH_STREAM_UVS, n_vertices (m), 0, "uvs");

    for (guint i = 0; i < m->uv->len; i++)
      put_u16 (a, g_array_index (m->uv, guint16, i));
  }
  {
    GByteArray *a = STREAM (MSH_STREAM_TRIANGLES, n_tri, 0, "triangles");

    for (guint i = 0; i < m->idx->len; i++)
      put_u16 (a, g_array_index (m->idx, guint16, i));
  }
  {
    /* face records: no flags, no neighbours, the first corner's normal */
    GByteArray *a = STREAM (MSH_STREAM_FACES, n_tri, 0, "faces");

    for (guint t = 0; t < m->batches->len; t++)
      {
        const Batch *b = &g_array_index (m->batches, Batch, t);

        for (guint i = b->first_index; i < (guint) b->first_index + b->index_count; i += 3)
          {
            guint v = b->first_vertex + g_array_index (m->idx, guint16, i);

            put_u16 (a, 0);
            put_u16 (a, MSH_NONE);
            put_u16 (a, MSH_NONE);
            put_u16 (a, MSH_NONE);
            for (guint k = 0; k < 3; k++)
              put_u16 (a, (guint16) (gint16) (g_array_index (m->nrm, gint8, 3 * v + k) * 258));
            put_u16 (a, 0);
          }
      }
    g_assert (a->len == n_tri * 16u);
  }
  {
    GByteArray *a = STREAM (MSH_STREAM_KEYS, m->keys->len, 0, "keys");

    for (guint i = 0; i < m->keys->len; i++)
      {
        const Key *key = &g_array_index (m->keys, Key, i);

        for (guint k = 0; k < 3; k++)
          put_f32 (a, key->t[k]);
        put_f32 (a, key->time);
        for (guint k = 0; k < 4; k++)
          put_u16 (a, (guint16) key->q[k]);
      }
  }
  {
    GByteArray *a = STREAM (MSH_STREAM_NAMES, m->nodes->len, 0, "names");

    for (guint i = 0; i < m->nodes->len; i++)
      {
        guint8 field[32] = { 0 };
        const char *name = g_array_index (m->nodes, Node, i).name;

        g_assert (strlen (name) < sizeof field);
        memcpy (field, name, strlen (name));
        g_byte_array_append (a, field, sizeof field);
      }
  }
  {
    GByteArray *a = STREAM (MSH_STREAM_BATCHES, m->batches->len, 0, "batches");

    for (guint i = 0; i < m->batches->len; i++)
      {
        const Batch *b = &g_array_index (m->batches, Batch, i);

        put_u32 (a, b->word);
        g_byte_array_append (a, &b->row, 1);
        g_byte_array_append (a, &b->page, 1);
        put_u16 (a, MSH_NONE);
        put_u16 (a, b->index_count);
        put_u16 (a, b->first_index);
        put_u16 (a, 0);
        put_u16 (a, b->vertex_count);
        put_u16 (a, b->first_vertex);
        put_u16 (a, 0);
      }
  }
  if (m->lightmapped)
    {
      GByteArray *a = STREAM (MSH_STREAM_LIGHTMAP_UVS, n_vertices (m), 0, "lightmap_uvs");

      for (guint i = 0; i < m->lm->len; i++)
        put_u16 (a, g_array_index (m->lm, guint16, i));
    }
  if (m->frame_map->len > 0)
    {
      GByteArray *a = STREAM (MSH_STREAM_FRAME_MAP, m->frame_map->len, m->frames, "frames");

      for (guint i = 0; i < m->frame_map->len; i++)
        put_u16 (a, g_array_index (m->frame_map, guint16, i));
    }
#undef STREAM

  out = g_new0 (NresOutEntry, n);
  for (guint i = 0; i < n; i++)
    {
      out[i].source = -1;
      out[i].entry.type_id = s[i].type;
      out[i].entry.attr1 = s[i].attr1;
      out[i].entry.attr2 = s[i].attr2;
      if (!nres_entry_set_name (&out[i].entry, s[i].name, &error))
        g_error ("%s: %s", s[i].name, error->message);
      out[i].payload = g_byte_array_free_to_bytes (s[i].data);
    }
  payload = nres_write_repack (NULL, out, n, &error);
  nres_out_entries_free (out, n);
  if (payload == NULL)
    g_error ("mesh: %s", error->message);

  return payload;
}

/* A WEAR: @names (UTF-8) as rows 0.., then @lightmaps when not NULL;
 * CR LF line endings. Returns: (transfer full). */
static GBytes *
wear_text (const char *const *names,
           const char *const *lightmaps)
{
  GByteArray *a = g_byte_array_new ();
  g_autofree char *count = NULL;
  guint n = g_strv_length ((char **) names);

  count = g_strdup_printf ("%u\r\n", n);
  g_byte_array_append (a, (const guint8 *) count, (guint) strlen (count));
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *id = g_strdup_printf ("%u ", i);
      guint8 field[WEAR_NAME_MAX + 1];
      g_autoptr(GError) error = NULL;

      if (!wear_check_name (names[i], field, NULL, &error))
        g_error ("%s: %s", names[i], error->message);
      g_byte_array_append (a, (const guint8 *) id, (guint) strlen (id));
      g_byte_array_append (a, field, (guint) strlen ((const char *) field));
      g_byte_array_append (a, (const guint8 *) "\r\n", 2);
    }
  if (lightmaps != NULL)
    {
      g_autofree char *lm_count = g_strdup_printf ("\r\nLIGHTMAPS\r\n%u\r\n",
                                                   g_strv_length ((char **) lightmaps));

      g_byte_array_append (a, (const guint8 *) lm_count, (guint) strlen (lm_count));
      for (guint i = 0; lightmaps[i] != NULL; i++)
        {
          g_autofree char *row = g_strdup_printf ("%u %s\r\n", i, lightmaps[i]);

          g_byte_array_append (a, (const guint8 *) row, (guint) strlen (row));
        }
    }

  return g_byte_array_free_to_bytes (a);
}

/* ---- The models ---------------------------------------------------------- */

/* FILE quaternions (x 32767) of the rotations the models are drawn with:
 * the reader conjugates, so each is the inverse of the rotation drawn. */
#define COS_5    32642
#define SIN_5     2856
#define COS_15   31650
#define SIN_15    8481
#define COS_22_5 30273
#define SIN_22_5 12539
#define COS_40   25101
#define SIN_40   21062

/* A crate: sides in one material, top and bottom in another; a third row
 * that no batch draws. */
static Mesh *
make_box (void)
{
  Mesh *m = mesh_new ();
  static const float lo[3] = { -1, -1, 0 }, hi[3] = { 1, 1, 2 };

  mesh_node (m, "crate", 0, MSH_NONE, MSH_NONE, 0, 0);
  mesh_key (m, 0, 0, 0, 0, 32767, 0, 0, 0);
  mesh_begin_slot (m);
  mesh_begin_batch (m, 0, 0, MSH_PAGE_NONE);
  mesh_box (m, lo, hi, TRUE, FALSE);
  mesh_end_batch (m);
  mesh_begin_batch (m, 0, 1, MSH_PAGE_NONE);
  mesh_box (m, lo, hi, FALSE, TRUE);
  mesh_end_batch (m);
  mesh_end_slot (m);

  return m;
}

static const char *const box_rows[] = { "БРОНЯ_ЗЕЛЁНАЯ", "METAL_PLATE", "LAVA_FLOW", NULL };

/* Two crossed planes of cut-out foliage, 3 m wide, 4 m tall. */
static Mesh *
make_tree (void)
{
  Mesh *m = mesh_new ();
  static const float full[4] = { 0, 0, 1, 1 };

  mesh_node (m, "tree", 0, MSH_NONE, MSH_NONE, 0, 0);
  mesh_begin_slot (m);
  mesh_begin_batch (m, 0, 0, MSH_PAGE_NONE);
  mesh_quad (m, (float[3]) { -1.5f, 0, 0 }, (float[3]) { 3, 0, 0 }, (float[3]) { 0, 0, 4 },
             (gint8[3]) { 0, -127, 0 }, full, NULL);
  mesh_quad (m, (float[3]) { 0, -1.5f, 0 }, (float[3]) { 0, 3, 0 }, (float[3]) { 0, 0, 4 },
             (gint8[3]) { 127, 0, 0 }, full, NULL);
  mesh_end_batch (m);
  mesh_end_slot (m);

  return m;
}

static const char *const tree_rows[] = { "FOLIAGE", NULL };

/* An octagonal prism of radius @r from z0 to z1 with a top, in the
 * current batch. */
static void
mesh_octagon (Mesh  *m,
              float  r,
              float  z0,
              float  z1)
{
  /* cos and sin of 22.5° + k x 45° */
  static const float c[8] = { 0.92387953f, 0.38268343f, -0.38268343f, -0.92387953f,
                              -0.92387953f, -0.38268343f, 0.38268343f, 0.92387953f };
  static const float s[8] = { 0.38268343f, 0.92387953f, 0.92387953f, 0.38268343f,
                              -0.38268343f, -0.92387953f, -0.92387953f, -0.38268343f };
  /* the side normals, at k x 45° + 45° */
  static const gint8 nx[8] = { 90, 0, -90, -127, -90, 0, 90, 127 };
  static const gint8 ny[8] = { 90, 127, 90, 0, -90, -127, -90, 0 };
  guint16 ring[8];

  for (guint k = 0; k < 8; k++)
    {
      guint j = (k + 1) % 8;
      float uv[4] = { k / 8.0f, 0, (k + 1) / 8.0f, 1 };

      mesh_quad (m, (float[3]) { r * c[k], r * s[k], z0 },
                 (float[3]) { r * (c[j] - c[k]), r * (s[j] - s[k]), 0 },
                 (float[3]) { 0, 0, z1 - z0 }, (gint8[3]) { nx[k], ny[k], 0 }, uv, NULL);
    }
  /* the top: a fan of six triangles from corner 0 */
  for (guint k = 0; k < 8; k++)
    ring[k] = mesh_vertex (m, (float[3]) { r * c[k], r * s[k], z1 }, (gint8[3]) { 0, 0, 127 },
                           0.5f + c[k] / 2, 0.5f - s[k] / 2, 0, 0);
  for (guint k = 1; k < 7; k++)
    mesh_triangle (m, ring[0], ring[k], ring[k + 1]);
}

/* Base, head, barrel (animated), muzzle glow; a cockpit inside the head
 * and the head's damaged state, neither drawn at rest. */
static Mesh *
make_turret (void)
{
  Mesh *m = mesh_new ();
  static const float full[4] = { 0, 0, 1, 1 };
  guint base, head, barrel, muzzle, cockpit;
  guint s_base, s_head, s_barrel, s_muzzle, s_cockpit, s_wreck;

  /* keys: 0 base, 1 head, 2 the barrel's fallback (pointing up: not its
   * rest, since the barrel is animated), 3..5 the barrel's frames, 6 the
   * muzzle, 7 the cockpit */
  mesh_key (m, 4, -3, 0, 0, COS_22_5, 0, 0, -SIN_22_5);   /* +45° about Z; moved, dropped */
  mesh_key (m, 0, 0, 0.6f, 0, COS_15, 0, 0, -SIN_15);     /* +30° about Z */
  mesh_key (m, 0.5f, 0, 0.4f, 0, COS_40, 0, SIN_40, 0);   /* 80° up */
  mesh_key (m, 0.5f, 0, 0.4f, 0, COS_5, 0, SIN_5, 0);     /* 10° up */
  mesh_key (m, 0.35f, 0, 0.4f, 1, COS_5, 0, SIN_5, 0);    /* recoil */
  mesh_key (m, 0.42f, 0, 0.4f, 2, COS_5, 0, SIN_5, 0);
  mesh_key (m, 1.9f, 0, 0, 0, 32767, 0, 0, 0);
  mesh_key (m, 0, 0, 0, 0, 32767, 0, 0, 0);
  {
    static const guint16 frames[] = { 3, 4, 5, 4 };

    g_array_append_vals (m->frame_map, frames, G_N_ELEMENTS (frames));
    m->frames = G_N_ELEMENTS (frames);
  }

  mesh_begin_slot (m);
  mesh_begin_batch (m, 0, 0, MSH_PAGE_NONE);
  mesh_octagon (m, 1.2f, 0, 0.6f);
  mesh_end_batch (m);
  s_base = mesh_end_slot (m);

  mesh_begin_slot (m);
  mesh_begin_batch (m, 0, 1, MSH_PAGE_NONE);
  mesh_box (m, (float[3]) { -0.8f, -0.6f, 0 }, (float[3]) { 0.8f, 0.6f, 0.7f }, TRUE, TRUE);
  mesh_end_batch (m);
  s_head = mesh_end_slot (m);

  mesh_begin_slot (m);
  mesh_begin_batch (m, 0, 0, MSH_PAGE_NONE);
  mesh_box (m, (float[3]) { 0, -0.12f, -0.12f }, (float[3]) { 1.8f, 0.12f, 0.12f }, TRUE, TRUE);
  mesh_end_batch (m);
  s_barrel = mesh_end_slot (m);

  mesh_begin_slot (m);
  mesh_begin_batch (m, MSH_BATCH_TRANSLUCENT, 2, MSH_PAGE_NONE);
  mesh_quad (m, (float[3]) { 0, -0.3f, -0.3f }, (float[3]) { 0, 0.6f, 0 },
             (float[3]) { 0, 0, 0.6f }, (gint8[3]) { 127, 0, 0 }, full, NULL);
  mesh_quad (m, (float[3]) { -0.3f, -0.3f, 0 }, (float[3]) { 0.6f, 0, 0 },
             (float[3]) { 0, 0.6f, 0 }, (gint8[3]) { 0, 0, 127 }, full, NULL);
  mesh_end_batch (m);
  s_muzzle = mesh_end_slot (m);

  mesh_begin_slot (m);
  mesh_begin_batch (m, 0, 3, MSH_PAGE_NONE);
  mesh_box (m, (float[3]) { -0.5f, -0.4f, 0.1f }, (float[3]) { 0.3f, 0.4f, 0.6f }, TRUE, TRUE);
  mesh_end_batch (m);
  s_cockpit = mesh_end_slot (m);

  mesh_begin_slot (m);
  mesh_begin_batch (m, 0, 1, MSH_PAGE_NONE);
  mesh_box (m, (float[3]) { -0.9f, -0.7f, 0 }, (float[3]) { 0.7f, 0.5f, 0.3f }, TRUE, TRUE);
  mesh_end_batch (m);
  s_wreck = mesh_end_slot (m);

  base = mesh_node (m, "base", 0, MSH_NONE, MSH_NONE, 0, (guint16) s_base);
  head = mesh_node (m, "head", 0, (guint16) base, MSH_NONE, 1, (guint16) s_head);
  barrel = mesh_node (m, "barrel", 0, (guint16) head, 0, 2, (guint16) s_barrel);
  muzzle = mesh_node (m, "muzzle", 0, (guint16) barrel, MSH_NONE, 6, (guint16) s_muzzle);
  cockpit = mesh_node (m, "cockpit", MSH_NODE_COCKPIT, (guint16) head, MSH_NONE, 7,
                       (guint16) s_cockpit);
  g_array_index (m->nodes, Node, head).slot[5] = (guint16) s_wreck;
  (void) muzzle;
  (void) cockpit;

  return m;
}

static const char *const turret_rows[] = { "METAL_PLATE", "БРОНЯ_ЗЕЛЁНАЯ", "HALO_GLOW",
                                           "GLOW_PULSE", NULL };

/* The bunker's lightmap page: regions of the 0..1 square, {u0, v0, u1, v1} */
static const float lm_front[4] = { 0, 0.5f, 0.5f, 0.75f };
static const float lm_back[4] = { 0.5f, 0.5f, 1, 0.75f };
static const float lm_left[4] = { 0, 0.75f, 0.35f, 1 };
static const float lm_right[4] = { 0.5f, 0.75f, 0.85f, 1 };
static const float lm_roof[4] = { 0, 0, 1, 0.5f };

#define BUNKER_X 3.0f
#define BUNKER_Y 2.0f
#define BUNKER_Z 2.5f

/* A part x0..x1, z0..z1 of the front wall (y = -BUNKER_Y): ROCK tiled
 * once a metre, the lightmap region cut to the part. */
static void
front_part (Mesh  *m,
            float  x0,
            float  x1,
            float  z0,
            float  z1)
{
  float uv[4] = { x0 + BUNKER_X, BUNKER_Z - z1, x1 + BUNKER_X, BUNKER_Z - z0 };
  float su = lm_front[2] - lm_front[0], sv = lm_front[3] - lm_front[1];
  float lm[4] = {
    lm_front[0] + su * (x0 + BUNKER_X) / (2 * BUNKER_X),
    lm_front[1] + sv * (BUNKER_Z - z1) / BUNKER_Z,
    lm_front[0] + su * (x1 + BUNKER_X) / (2 * BUNKER_X),
    lm_front[1] + sv * (BUNKER_Z - z0) / BUNKER_Z,
  };

  mesh_quad (m, (float[3]) { x0, -BUNKER_Y, z0 }, (float[3]) { x1 - x0, 0, 0 },
             (float[3]) { 0, 0, z1 - z0 }, (gint8[3]) { 0, -127, 0 }, uv, lm);
}

static Mesh *
make_bunker (void)
{
  Mesh *m = mesh_new ();
  float wall_x[4] = { 0, 0, 2 * BUNKER_X, BUNKER_Z };
  float wall_y[4] = { 0, 0, 2 * BUNKER_Y, BUNKER_Z };
  static const float glass[4] = { 0, 0, 1, 1 };
  static const float sign[4] = { 0, 0, 1, 1 };
  guint s_shell, s_inside;

  m->lightmapped = TRUE;
  mesh_key (m, 0, 0, 0, 0, 32767, 0, 0, 0);

  mesh_begin_slot (m);
  mesh_begin_batch (m, MSH_BATCH_LIGHTMAPPED, 0, 0);
  /* the front wall around the window x -1..1, z 1..2 */
  front_part (m, -BUNKER_X, -1, 0, BUNKER_Z);
  front_part (m, 1, BUNKER_X, 0, BUNKER_Z);
  front_part (m, -1, 1, 0, 1);
  front_part (m, -1, 1, 2, BUNKER_Z);
  mesh_quad (m, (float[3]) { BUNKER_X, BUNKER_Y, 0 }, (float[3]) { -2 * BUNKER_X, 0, 0 },
             (float[3]) { 0, 0, BUNKER_Z }, (gint8[3]) { 0, 127, 0 }, wall_x, lm_back);
  mesh_quad (m, (float[3]) { -BUNKER_X, BUNKER_Y, 0 }, (float[3]) { 0, -2 * BUNKER_Y, 0 },
             (float[3]) { 0, 0, BUNKER_Z }, (gint8[3]) { -127, 0, 0 }, wall_y, lm_left);
  mesh_quad (m, (float[3]) { BUNKER_X, -BUNKER_Y, 0 }, (float[3]) { 0, 2 * BUNKER_Y, 0 },
             (float[3]) { 0, 0, BUNKER_Z }, (gint8[3]) { 127, 0, 0 }, wall_y, lm_right);
  mesh_end_batch (m);
  mesh_begin_batch (m, MSH_BATCH_LIGHTMAPPED, 1, 0);
  mesh_quad (m, (float[3]) { -BUNKER_X, -BUNKER_Y, BUNKER_Z }, (float[3]) { 2 * BUNKER_X, 0, 0 },
             (float[3]) { 0, 2 * BUNKER_Y, 0 }, (gint8[3]) { 0, 0, 127 },
             (float[4]) { 0, 0, 2, 2 }, lm_roof);
  mesh_end_batch (m);
  mesh_begin_batch (m, MSH_BATCH_TRANSLUCENT, 2, MSH_PAGE_NONE);
  mesh_quad (m, (float[3]) { -1, -BUNKER_Y + 0.05f, 1 }, (float[3]) { 2, 0, 0 },
             (float[3]) { 0, 0, 1 }, (gint8[3]) { 0, -127, 0 }, glass, NULL);
  mesh_end_batch (m);
  s_shell = mesh_end_slot (m);

  mesh_begin_slot (m);
  mesh_begin_batch (m, 0, 3, MSH_PAGE_NONE);
  mesh_quad (m, (float[3]) { -BUNKER_X + 0.1f, -BUNKER_Y + 0.1f, 0.02f },
             (float[3]) { 2 * BUNKER_X - 0.2f, 0, 0 }, (float[3]) { 0, 2 * BUNKER_Y - 0.2f, 0 },
             (gint8[3]) { 0, 0, 127 }, (float[4]) { 0, 0, 3, 2 }, NULL);
  mesh_end_batch (m);
  mesh_begin_batch (m, 0, 4, MSH_PAGE_NONE);
  mesh_quad (m, (float[3]) { -1, BUNKER_Y - 0.1f, 0.8f }, (float[3]) { 2, 0, 0 },
             (float[3]) { 0, 0, 1 }, (gint8[3]) { 0, -127, 0 }, sign, NULL);
  mesh_end_batch (m);
  s_inside = mesh_end_slot (m);

  mesh_node (m, "bunker", 0, MSH_NONE, MSH_NONE, 0, (guint16) s_shell);
  mesh_node (m, "interior", MSH_NODE_INTERIOR, 0, MSH_NONE, 0, (guint16) s_inside);

  return m;
}

static const char *const bunker_rows[] = { "ROCK_WALL", "METAL_PLATE", "GLASS", "DEFAULT",
                                           "ATLAS_SIGN", NULL };
static const char *const bunker_lightmaps[] = { "bunker_lm.0", NULL };
static const char *const land_rows[] = { "GRASS_FIELD", "ROCK_WALL", "WATER_SURFACE",
                                         "LAVA_FLOW", NULL };

/* ---- The lightmap page --------------------------------------------------- */

static guint8
clamp8 (int v)
{
  return (guint8) CLAMP (v, 0, 255);
}

/* Light on the bunker at a point of the page: walls darker towards the
 * ground and the corners, the roof bright with darker rims, a soft
 * shadow of the roof's edge on the walls' tops. 0..255. */
static int
bunker_light (guint x,
              guint y,
              guint size)
{
  int u = (int) (x * 256 / size), v = (int) (y * 256 / size);   /* 0..255 */

  if (v < 128)   /* the roof */
    {
      int du = MIN (u, 255 - u), dv = MIN (v, 127 - v);
      int rim = MIN (MIN (du, dv) * 6, 40);

      return 200 + rim;
    }
  else
    {
      /* a wall: its own 0..255 height, 255 at the top */
      int band_top = v < 192 ? 128 : 192;
      int h = 255 - (v - band_top) * 4;
      int left = v < 192 ? (u < 128 ? 0 : 128) : (u < 128 ? 0 : 128);
      int width = v < 192 ? 128 : 90;
      int across = u - left;
      int edge = MIN (across, width - across);
      int ao = h < 80 ? (80 - h) : 0;
      int corner = edge < 12 ? (12 - edge) * 4 : 0;
      int eave = h > 235 ? (h - 235) * 3 : 0;

      return 110 + h / 2 - ao - corner - eave;
    }
}

static GBytes *
make_lightmap_page (guint size)
{
  g_autofree guint8 *rgba = g_malloc ((gsize) size * size * 4);
  g_autoptr(TexmImage) check = NULL;
  g_autoptr(GError) error = NULL;
  GBytes *payload;

  for (guint y = 0; y < size; y++)
    for (guint x = 0; x < size; x++)
      {
        int l = bunker_light (x, y, size);
        guint8 *p = rgba + ((gsize) y * size + x) * 4;

        /* warm sunlight, cooler shade */
        p[0] = clamp8 (l + 10);
        p[1] = clamp8 (l);
        p[2] = clamp8 (l - 15 + (255 - l) / 8);
        p[3] = 255;
      }
  payload = texm_encode_rgba (565, size, size, 1, rgba, NULL, NULL, 0);
  check = texm_parse (payload, "bunker_lm.0", 0, &error);
  if (check == NULL)
    g_error ("bunker_lm.0: %s", error->message);

  return payload;
}

/* ---- Archives ------------------------------------------------------------ */

typedef struct {
  const char *name;
  guint32     type;
  GBytes     *payload;   /* owned */
} Member;

static void
write_file (const char *dir,
            const char *name,
            GBytes     *bytes)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                            (gssize) g_bytes_get_size (bytes), &error))
    g_error ("%s", error->message);
}

static void
write_archive (const char *dir,
               const char *name,
               Member     *members,
               guint       n)
{
  NresOutEntry *out = g_new0 (NresOutEntry, n);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;

  for (guint i = 0; i < n; i++)
    {
      out[i].source = -1;
      out[i].entry.type_id = members[i].type;
      if (!nres_entry_set_name (&out[i].entry, members[i].name, &error))
        g_error ("%s: %s", members[i].name, error->message);
      out[i].payload = members[i].payload;
    }
  file = nres_write_repack (NULL, out, n, &error);
  nres_out_entries_free (out, n);
  if (file == NULL)
    g_error ("%s: %s", name, error->message);
  write_file (dir, name, file);
}

static guint
print_problems (const GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    g_printerr ("%s\n", ((const MshProblem *) problems->pdata[i])->message);

  return problems->len;
}

/* Reads a model back as the editor will and refuses any problem. */
static void
check_model (const char *member,
             GBytes     *mesh,
             GBytes     *wear)
{
  g_autoptr(MshModel) model = msh_model_read (mesh, 0, member);
  g_autofree char *wea = wear_member_for_mesh (member);
  g_autoptr(WearTable) table = wear_table_read (wear, 0, wea);
  g_autoptr(GPtrArray) lints = msh_problem_list_new ();
  guint n;

  msh_model_lint_wear (model, table, lints);
  n = print_problems (model->problems) + print_problems (table->problems) +
      print_problems (lints);
  if (n > 0 || !model->valid)
    g_error ("%s: the generated model has problems", member);
}

static Member
mesh_member (const char *name,
             Mesh       *m)
{
  Member member = { name, NRES_TYPE_MESH, mesh_encode (m) };

  mesh_free (m);
  return member;
}

static Member
wear_member (const char        *name,
             const char *const *rows,
             const char *const *lightmaps)
{
  Member member = { name, NRES_TYPE_WEAR, wear_text (rows, lightmaps) };

  return member;
}

static void
copy_file (const char *from,
           const char *dir,
           const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;
  g_autoptr(GBytes) bytes = NULL;

  if (!g_file_get_contents (from, &contents, &len, &error))
    g_error ("%s", error->message);
  bytes = g_bytes_new_take (g_steal_pointer (&contents), len);
  write_file (dir, name, bytes);
}

int
main (int argc, char *argv[])
{
  const char *dir;

  if (argc != 4)
    {
      fprintf (stderr, "Usage: %s OUTDIR MATERIAL.lib TEXTURES.lib\n", argv[0]);
      return 2;
    }
  dir = argv[1];
  g_mkdir_with_parents (dir, 0755);

  copy_file (argv[2], dir, "Material.lib");
  copy_file (argv[3], dir, "Textures.lib");

  {
    Member lightmaps[] = {
      { "bunker_lm.0", NRES_TYPE_TEXM, make_lightmap_page (128) },
    };

    write_archive (dir, "LightMap.lib", lightmaps, G_N_ELEMENTS (lightmaps));
  }
  {
    Member members[] = {
      mesh_member ("box.msh", make_box ()),
      wear_member ("box.wea", box_rows, NULL),
      mesh_member ("tree.msh", make_tree ()),
      wear_member ("tree.wea", tree_rows, NULL),
    };

    check_model ("box.msh", members[0].payload, members[1].payload);
    check_model ("tree.msh", members[2].payload, members[3].payload);
    write_archive (dir, "static.rlb", members, G_N_ELEMENTS (members));
  }
  {
    Member members[] = {
      mesh_member ("turret.msh", make_turret ()),
      wear_member ("turret.wea", turret_rows, NULL),
    };

    check_model ("turret.msh", members[0].payload, members[1].payload);
    write_archive (dir, "turrets.rlb", members, G_N_ELEMENTS (members));
  }
  {
    Member members[] = {
      mesh_member ("bunker.msh", make_bunker ()),
      wear_member ("bunker.wea", bunker_rows, bunker_lightmaps),
    };

    check_model ("bunker.msh", members[0].payload, members[1].payload);
    write_archive (dir, "fortif.rlb", members, G_N_ELEMENTS (members));
  }
  {
    Member members[] = {
      wear_member ("Land1.wea", land_rows, NULL),
    };

    write_archive (dir, "land.rlb", members, G_N_ELEMENTS (members));
  }

  return 0;
}
