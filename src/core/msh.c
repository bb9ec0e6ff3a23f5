/* msh.c - MESH: a model's streams, its rest pose and what it draws
 *
 * See models.md 2 and msh.h. Messages read
 * "MEMBER: stream N: offset O: expected X, found Y", O being absolute in
 * the archive that holds the member.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "msh.h"

#define NODE_SIZE      38
#define SLOT_SIZE      68
#define VERTEX_SIZE    12
#define NORMAL_SIZE     4
#define UV_SIZE         4
#define TRIANGLE_SIZE   6
#define FACE_SIZE      16
#define KEY_SIZE       24
#define NAME_SIZE      32
#define BATCH_SIZE     20
#define FRAME_SIZE      2

#define NODE_OFF_PARENT  2
#define NODE_OFF_SLOTS   8
#define BATCH_OFF_ROW    4
#define BATCH_OFF_PAGE   5
#define BATCH_OFF_FIRST_INDEX 10
#define DIR_OFF_SIZE    12

static guint16
get_u16 (const guint8 *p)
{
  return (guint16) (p[0] | (p[1] << 8));
}

static guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) |
         ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

static float
get_f32 (const guint8 *p)
{
  guint32 bits = get_u32 (p);
  float f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

/* ---- Reading ----------------------------------------------------------- */

static const struct {
  guint stream;
  guint element;
} stream_sizes[] = {
  { MSH_STREAM_NODES,        NODE_SIZE },
  { MSH_STREAM_SLOTS,        SLOT_SIZE },
  { MSH_STREAM_POSITIONS,    VERTEX_SIZE },
  { MSH_STREAM_NORMALS,      NORMAL_SIZE },
  { MSH_STREAM_UVS,          UV_SIZE },
  { MSH_STREAM_TRIANGLES,    TRIANGLE_SIZE },
  { MSH_STREAM_FACES,        FACE_SIZE },
  { MSH_STREAM_KEYS,         KEY_SIZE },
  { MSH_STREAM_NAMES,        NAME_SIZE },
  { MSH_STREAM_BATCHES,      BATCH_SIZE },
  { MSH_STREAM_LIGHTMAP_UVS, UV_SIZE },
  { MSH_STREAM_FRAME_MAP,    FRAME_SIZE },
};

/* The absolute offset of the size field of a stream's directory entry. */
static guint64
size_field_offset (const MshModel *model,
                   guint           stream)
{
  return model->base_offset + model->streams_archive->directory_offset +
         (guint64) model->streams[stream].entry * NRES_ENTRY_SIZE + DIR_OFF_SIZE;
}

static gboolean
check_stream_size (MshModel *model,
                   guint     stream,
                   guint     element)
{
  const MshStreamInfo *info = &model->streams[stream];
  guint64 expected;
  guint64 offset;

  if (!info->present)
    return TRUE;

  expected = (guint64) info->attr1 * element +
             (stream == MSH_STREAM_SLOTS ? MSH_SLOTS_HEADER_SIZE : 0);
  if (expected == info->size)
    return TRUE;

  offset = size_field_offset (model, stream);
  if (stream == MSH_STREAM_SLOTS)
    msh_problem_add (model->problems, MSH_SEVERITY_ERROR, MSH_CHECK_STREAM_SIZE,
                     model->member, (gint) stream, -1, offset,
                     _("%s: stream %u: offset %lu: expected %lu bytes (%u + attr1 %u × %u bytes), found %u"),
                     model->member, stream, (unsigned long) offset, (unsigned long) expected,
                     (guint) MSH_SLOTS_HEADER_SIZE, info->attr1, element, info->size);
  else
    msh_problem_add (model->problems, MSH_SEVERITY_ERROR, MSH_CHECK_STREAM_SIZE,
                     model->member, (gint) stream, -1, offset,
                     _("%s: stream %u: offset %lu: expected %lu bytes (attr1 %u × %u bytes), found %u"),
                     model->member, stream, (unsigned long) offset, (unsigned long) expected,
                     info->attr1, element, info->size);
  return FALSE;
}

static void
decode_nodes (MshModel *model)
{
  const MshStreamInfo *info = &model->streams[MSH_STREAM_NODES];

  model->n_nodes = info->present ? info->attr1 : 0;
  model->nodes = g_new0 (MshNode, MAX (model->n_nodes, 1));
  for (guint i = 0; i < model->n_nodes; i++)
    {
      const guint8 *p = info->data + (gsize) i * NODE_SIZE;
      MshNode *node = &model->nodes[i];

      node->flags = get_u16 (p);
      node->parent = get_u16 (p + 2);
      node->anim_start = get_u16 (p + 4);
      node->fallback_key = get_u16 (p + 6);
      for (guint k = 0; k < MSH_N_SLOT_INDICES; k++)
        node->slot[k] = get_u16 (p + NODE_OFF_SLOTS + 2 * k);
    }
  model->nodes_readable = TRUE;
}

static void
decode_streams (MshModel *model)
{
  const MshStreamInfo *s;

  s = &model->streams[MSH_STREAM_NAMES];
  for (guint i = 0; s->present && i < MIN (s->attr1, model->n_nodes); i++)
    model->nodes[i].name = cp1251_to_utf8 (s->data + (gsize) i * NAME_SIZE, NAME_SIZE);

  s = &model->streams[MSH_STREAM_SLOTS];
  model->has_extent = s->present;
  if (s->present)
    {
      const guint8 *h = s->data;

      for (guint c = 0; c < 8; c++)
        for (guint k = 0; k < 3; k++)
          model->extent.box[c][k] = get_f32 (h + (c * 3 + k) * 4);
      for (guint k = 0; k < 4; k++)
        model->extent.sphere[k] = get_f32 (h + 96 + k * 4);
      for (guint k = 0; k < 7; k++)
        model->extent.cylinder[k] = get_f32 (h + 112 + k * 4);
    }
  model->n_slots = s->present ? s->attr1 : 0;
  model->slots = g_new0 (MshSlot, MAX (model->n_slots, 1));
  for (guint i = 0; i < model->n_slots; i++)
    {
      const guint8 *p = s->data + MSH_SLOTS_HEADER_SIZE + (gsize) i * SLOT_SIZE;
      MshSlot *slot = &model->slots[i];

      slot->first_triangle = get_u16 (p);
      slot->triangle_count = get_u16 (p + 2);
      slot->first_batch = get_u16 (p + 4);
      slot->batch_count = get_u16 (p + 6);
      for (guint k = 0; k < 3; k++)
        {
          slot->aabb_min[k] = get_f32 (p + 8 + k * 4);
          slot->aabb_max[k] = get_f32 (p + 20 + k * 4);
        }
      for (guint k = 0; k < 4; k++)
        slot->sphere[k] = get_f32 (p + 32 + k * 4);
      slot->area = get_f32 (p + 48);
      slot->volume = get_f32 (p + 52);
      for (guint k = 0; k < 3; k++)
        slot->extra[k] = get_u32 (p + 56 + k * 4);
    }

  s = &model->streams[MSH_STREAM_BATCHES];
  model->n_batches = s->present ? s->attr1 : 0;
  model->batches = g_new0 (MshBatch, MAX (model->n_batches, 1));
  for (guint i = 0; i < model->n_batches; i++)
    {
      const guint8 *p = s->data + (gsize) i * BATCH_SIZE;
      MshBatch *b = &model->batches[i];

      b->word = get_u32 (p);
      b->row = p[BATCH_OFF_ROW];
      b->page = p[BATCH_OFF_PAGE];
      b->node = get_u16 (p + 6);
      b->index_count = get_u16 (p + 8);
      b->first_index = get_u16 (p + 10);
      b->index_high = get_u16 (p + 12);
      b->vertex_count = get_u16 (p + 14);
      b->first_vertex = get_u16 (p + 16);
      b->vertex_high = get_u16 (p + 18);
    }

  s = &model->streams[MSH_STREAM_KEYS];
  model->n_keys = s->present ? s->attr1 : 0;
  model->keys = g_new0 (MshKey, MAX (model->n_keys, 1));
  for (guint i = 0; i < model->n_keys; i++)
    {
      const guint8 *p = s->data + (gsize) i * KEY_SIZE;
      MshKey *key = &model->keys[i];

      for (guint k = 0; k < 3; k++)
        key->translation[k] = get_f32 (p + k * 4);
      key->time = get_f32 (p + 12);
      for (guint k = 0; k < 4; k++)
        key->rotation[k] = (gint16) get_u16 (p + 16 + k * 2);
    }

  s = &model->streams[MSH_STREAM_FRAME_MAP];
  model->n_frame_map = s->present ? s->attr1 : 0;
  model->n_frames = s->present ? s->attr2 : 0;
  model->frame_map = g_new0 (guint16, MAX (model->n_frame_map, 1));
  for (guint i = 0; i < model->n_frame_map; i++)
    model->frame_map[i] = get_u16 (s->data + (gsize) i * FRAME_SIZE);

  model->n_vertices = model->streams[MSH_STREAM_POSITIONS].present ?
                      model->streams[MSH_STREAM_POSITIONS].attr1 : 0;
  model->n_normals = model->streams[MSH_STREAM_NORMALS].present ?
                     model->streams[MSH_STREAM_NORMALS].attr1 : 0;
  model->n_uvs = model->streams[MSH_STREAM_UVS].present ?
                 model->streams[MSH_STREAM_UVS].attr1 : 0;
  model->n_triangles = model->streams[MSH_STREAM_TRIANGLES].present ?
                       model->streams[MSH_STREAM_TRIANGLES].attr1 : 0;
  model->n_lightmap_uvs = model->streams[MSH_STREAM_LIGHTMAP_UVS].present ?
                          model->streams[MSH_STREAM_LIGHTMAP_UVS].attr1 : 0;
}

/* The slot a node draws at rest: slot[0], else the first of slot[0..4]. */
static guint16
rest_slot (const MshNode *node)
{
  for (guint k = 0; k < MSH_N_REST_SLOTS; k++)
    if (node->slot[k] != MSH_NONE)
      return node->slot[k];

  return MSH_NONE;
}

static gboolean
check_node_slots (MshModel *model)
{
  guint64 base = model->streams[MSH_STREAM_NODES].offset;

  for (guint i = 0; i < model->n_nodes; i++)
    for (guint k = 0; k < MSH_N_SLOT_INDICES; k++)
      {
        guint16 s = model->nodes[i].slot[k];
        guint64 offset = base + (guint64) i * NODE_SIZE + NODE_OFF_SLOTS + 2 * k;

        if (s == MSH_NONE || s < model->n_slots)
          continue;
        msh_problem_add (model->problems, MSH_SEVERITY_ERROR, MSH_CHECK_SLOT_INDEX,
                         model->member, MSH_STREAM_NODES, (gint) i, offset,
                         _("%s: stream %u: offset %lu: expected a slot below %u (stream 2's count), found %u"),
                         model->member, (guint) MSH_STREAM_NODES, (unsigned long) offset,
                         model->n_slots, s);
        return FALSE;
      }

  return TRUE;
}

static gboolean
check_slots (MshModel *model)
{
  guint64 base = model->streams[MSH_STREAM_SLOTS].offset + MSH_SLOTS_HEADER_SIZE;

  for (guint i = 0; i < model->n_slots; i++)
    {
      const MshSlot *slot = &model->slots[i];
      guint64 offset = base + (guint64) i * SLOT_SIZE;

      if ((guint) slot->first_triangle + slot->triangle_count > model->n_triangles)
        {
          msh_problem_add (model->problems, MSH_SEVERITY_ERROR, MSH_CHECK_SLOT_TRIANGLES,
                           model->member, MSH_STREAM_SLOTS, (gint) i, offset,
                           _("%s: stream %u: offset %lu: expected first triangle + triangle count <= %u (stream 6's count), found %u + %u"),
                           model->member, (guint) MSH_STREAM_SLOTS, (unsigned long) offset,
                           model->n_triangles, slot->first_triangle, slot->triangle_count);
          return FALSE;
        }
      if ((guint) slot->first_batch + slot->batch_count > model->n_batches)
        {
          offset += 4;
          msh_problem_add (model->problems, MSH_SEVERITY_ERROR, MSH_CHECK_SLOT_BATCHES,
                           model->member, MSH_STREAM_SLOTS, (gint) i, offset,
                           _("%s: stream %u: offset %lu: expected first batch + batch count <= %u (stream 13's count), found %u + %u"),
                           model->member, (guint) MSH_STREAM_SLOTS, (unsigned long) offset,
                           model->n_batches, slot->first_batch, slot->batch_count);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
check_batch_ranges (MshModel *model)
{
  guint64 base = model->streams[MSH_STREAM_BATCHES].offset;

  for (guint i = 0; i < model->n_batches; i++)
    {
      const MshBatch *b = &model->batches[i];
      guint64 offset = base + (guint64) i * BATCH_SIZE + 8;

      if ((guint) b->first_index / 3 + b->index_count / 3 <= model->n_triangles)
        continue;
      msh_problem_add (model->problems, MSH_SEVERITY_ERROR, MSH_CHECK_BATCH_INDICES,
                       model->member, MSH_STREAM_BATCHES, (gint) i, offset,
                       _("%s: stream %u: offset %lu: expected first index + index count <= %u (stream 6's indices), found %u + %u"),
                       model->member, (guint) MSH_STREAM_BATCHES, (unsigned long) offset,
                       model->n_triangles * 3, b->first_index, b->index_count);
      return FALSE;
    }

  return TRUE;
}

/* A range-maximum tree over stream 6's indices: checking every batch's
 * corners costs O(log n) a batch, whatever ranges the batches claim. */
typedef struct {
  guint    n;
  guint16 *tree;    /* 2n: leaves at n.., parents below */
} MaxTree;

static void
max_tree_init (MaxTree        *t,
               const MshModel *model)
{
  const guint8 *data = model->streams[MSH_STREAM_TRIANGLES].data;

  t->n = model->n_triangles * 3;
  t->tree = g_new (guint16, MAX (2 * (gsize) t->n, 1));
  for (guint i = 0; i < t->n; i++)
    t->tree[t->n + i] = get_u16 (data + (gsize) i * 2);
  for (guint i = t->n; i-- > 1;)
    t->tree[i] = MAX (t->tree[2 * i], t->tree[2 * i + 1]);
}

/* The largest index of [lo, hi). */
static guint16
max_tree_query (const MaxTree *t,
                guint          lo,
                guint          hi)
{
  guint16 best = 0;

  for (lo += t->n, hi += t->n; lo < hi; lo >>= 1, hi >>= 1)
    {
      if (lo & 1)
        {
          best = MAX (best, t->tree[lo]);
          lo++;
        }
      if (hi & 1)
        {
          hi--;
          best = MAX (best, t->tree[hi]);
        }
    }

  return best;
}

static gboolean
check_corners (MshModel *model)
{
  const guint8 *indices = model->streams[MSH_STREAM_TRIANGLES].data;
  MaxTree tree = { 0, NULL };
  gboolean ok = TRUE;

  if (model->n_batches == 0 || model->n_triangles == 0)
    return TRUE;

  max_tree_init (&tree, model);
  for (guint i = 0; i < model->n_batches && ok; i++)
    {
      const MshBatch *b = &model->batches[i];
      guint lo = (guint) (b->first_index / 3) * 3;
      guint hi = lo + (guint) (b->index_count / 3) * 3;
      const struct { guint stream; guint count; } limits[] = {
        { MSH_STREAM_POSITIONS, model->n_vertices },
        { MSH_STREAM_NORMALS, model->n_normals },
        { MSH_STREAM_UVS, model->n_uvs },
        { MSH_STREAM_LIGHTMAP_UVS, (b->word & MSH_BATCH_LIGHTMAPPED) ? model->n_lightmap_uvs
                                                                     : G_MAXUINT },
      };
      guint limit = G_MAXUINT;

      if (lo == hi)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (limits); k++)
        limit = MIN (limit, limits[k].count);
      if ((guint) b->first_vertex + max_tree_query (&tree, lo, hi) < limit)
        continue;

      /* the first corner past a stream, and the first stream it is past */
      for (guint j = lo; j < hi; j++)
        {
          guint16 index = get_u16 (indices + (gsize) j * 2);
          guint corner = (guint) b->first_vertex + index;

          for (guint k = 0; k < G_N_ELEMENTS (limits); k++)
            {
              guint64 offset;

              if (corner < limits[k].count)
                continue;
              offset = model->streams[MSH_STREAM_TRIANGLES].offset + (guint64) j * 2;
              msh_problem_add (model->problems, MSH_SEVERITY_ERROR, MSH_CHECK_CORNER,
                               model->member, MSH_STREAM_TRIANGLES, (gint) (j / 3), offset,
                               _("%s: stream %u: offset %lu: expected a vertex below %u (stream %u's count), found %u (batch %u: first vertex %u + index %u)"),
                               model->member, (guint) MSH_STREAM_TRIANGLES, (unsigned long) offset,
                               limits[k].count, limits[k].stream, corner, i,
                               b->first_vertex, index);
              ok = FALSE;
              break;
            }
          if (!ok)
            break;
        }
      g_assert (!ok);
    }
  g_free (tree.tree);

  return ok;
}

/* Slot choice and what the draw will hold, against the caps. */
static gboolean
count_drawn (MshModel *model)
{
  g_autofree guint64 *prefix = g_new (guint64, model->n_batches + 1);
  guint64 batches = 0, triangles = 0;
  guint64 offset = model->streams[MSH_STREAM_BATCHES].offset;

  prefix[0] = 0;
  for (guint i = 0; i < model->n_batches; i++)
    prefix[i + 1] = prefix[i] + model->batches[i].index_count / 3;

  model->n_drawn_nodes = 0;
  for (guint i = 0; i < model->n_nodes; i++)
    {
      MshNodePose *pose = &model->poses[i];
      const MshSlot *slot;

      pose->slot = rest_slot (&model->nodes[i]);
      pose->drawn = pose->slot != MSH_NONE && !(model->nodes[i].flags & MSH_NODE_COCKPIT);
      if (!pose->drawn)
        continue;
      slot = &model->slots[pose->slot];
      model->n_drawn_nodes++;
      batches += slot->batch_count;
      triangles += prefix[slot->first_batch + slot->batch_count] - prefix[slot->first_batch];
    }

  if (batches > MSH_MAX_DRAWN_BATCHES)
    {
      msh_problem_add (model->problems, MSH_SEVERITY_ERROR, MSH_CHECK_TOO_LARGE,
                       model->member, MSH_STREAM_BATCHES, -1, offset,
                       _("%s: stream %u: offset %lu: expected at most %u batches drawn at rest, found %lu"),
                       model->member, (guint) MSH_STREAM_BATCHES, (unsigned long) offset,
                       MSH_MAX_DRAWN_BATCHES, (unsigned long) batches);
      return FALSE;
    }
  if (triangles > MSH_MAX_DRAWN_TRIANGLES)
    {
      msh_problem_add (model->problems, MSH_SEVERITY_ERROR, MSH_CHECK_TOO_LARGE,
                       model->member, MSH_STREAM_BATCHES, -1, offset,
                       _("%s: stream %u: offset %lu: expected at most %u triangles drawn at rest, found %lu"),
                       model->member, (guint) MSH_STREAM_BATCHES, (unsigned long) offset,
                       MSH_MAX_DRAWN_TRIANGLES, (unsigned long) triangles);
      return FALSE;
    }
  model->n_drawn_batches = (guint) batches;
  model->n_drawn_triangles = (guint) triangles;

  return TRUE;
}

/* ---- The rest pose ----------------------------------------------------- */

typedef struct {
  double q[4];   /* w, x, y, z */
  double t[3];
} Pose;

static void
quat_mul (const double a[4],
          const double b[4],
          double       out[4])
{
  double r[4] = {
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  };

  memcpy (out, r, sizeof r);
}

/* v' = q v q^-1 for a unit q: v + 2w (u x v) + 2 u x (u x v). */
static void
quat_rotate_d (const double q[4],
               const double v[3],
               double       out[3])
{
  double u[3] = { q[1], q[2], q[3] };
  double c1[3] = {
    u[1] * v[2] - u[2] * v[1],
    u[2] * v[0] - u[0] * v[2],
    u[0] * v[1] - u[1] * v[0],
  };
  double c2[3] = {
    u[1] * c1[2] - u[2] * c1[1],
    u[2] * c1[0] - u[0] * c1[2],
    u[0] * c1[1] - u[1] * c1[0],
  };

  for (guint k = 0; k < 3; k++)
    out[k] = v[k] + 2.0 * (q[0] * c1[k] + c2[k]);
}

void
msh_quat_rotate (const float q[4],
                 const float v[3],
                 float       out[3])
{
  double qd[4] = { q[0], q[1], q[2], q[3] };
  double vd[3] = { v[0], v[1], v[2] };
  double r[3];

  quat_rotate_d (qd, vd, r);
  for (guint k = 0; k < 3; k++)
    out[k] = (float) r[k];
}

/* The rest key of node @i, or -1 for the identity. */
static gint
rest_key (const MshModel *model,
          guint           i)
{
  const MshNode *node = &model->nodes[i];
  guint key = node->fallback_key;

  if (node->anim_start != MSH_NONE && model->n_frames > 0 &&
      node->anim_start < model->n_frame_map)
    key = model->frame_map[node->anim_start];

  return key < model->n_keys ? (gint) key : -1;
}

/* A key as a local pose: the quaternion normalised and conjugated. */
static void
local_pose (const MshModel *model,
            gint            key,
            Pose           *out)
{
  const MshKey *k;
  double q[4], len = 0;

  memset (out, 0, sizeof *out);
  out->q[0] = 1.0;
  if (key < 0)
    return;

  k = &model->keys[key];
  for (guint c = 0; c < 4; c++)
    {
      q[c] = k->rotation[c] / 32767.0;
      len += q[c] * q[c];
    }
  if (len > 0)
    {
      len = sqrt (len);
      out->q[0] = q[0] / len;
      out->q[1] = -q[1] / len;
      out->q[2] = -q[2] / len;
      out->q[3] = -q[3] / len;
    }
  for (guint c = 0; c < 3; c++)
    out->t[c] = k->translation[c];
}

/* parent (x) local */
static void
compose (const Pose *parent,
         const Pose *local,
         Pose       *out)
{
  double t[3];

  quat_rotate_d (parent->q, local->t, t);
  quat_mul (parent->q, local->q, out->q);
  for (guint c = 0; c < 3; c++)
    out->t[c] = parent->t[c] + t[c];
}

/* Poses every node (models.md 2), in index order: from a node not yet
 * posed, walk up its parents until a root, a parent past the count, a
 * node already posed, or a node already on this walk (a loop); then pose
 * the walk from its top down. The top keeps its translation unless it is
 * a root; in a loop the top is the node whose parent is the first node of
 * the loop this walk reached. */
static void
compute_poses (MshModel *model)
{
  guint n = model->n_nodes;
  g_autofree Pose *poses = g_new0 (Pose, MAX (n, 1));
  g_autofree guint8 *state = g_new0 (guint8, MAX (n, 1));   /* 0 new, 1 walking, 2 posed */
  g_autofree guint *walk = g_new (guint, MAX (n, 1));
  guint64 base = model->streams[MSH_STREAM_NODES].offset;

  for (guint i = 0; i < n; i++)
    {
      guint16 parent = model->nodes[i].parent;
      guint64 offset = base + (guint64) i * NODE_SIZE + NODE_OFF_PARENT;

      if (parent != MSH_NONE && parent >= n)
        msh_problem_add (model->problems, MSH_SEVERITY_LINT, MSH_CHECK_PARENT_RANGE,
                         model->member, MSH_STREAM_NODES, (gint) i, offset,
                         _("%s: stream %u: offset %lu: expected a parent below %u (the node count) or 0xFFFF, found %u"),
                         model->member, (guint) MSH_STREAM_NODES, (unsigned long) offset, n, parent);
    }

  for (guint i = 0; i < n; i++)
    {
      guint len = 0, m = i;
      gint above = -1;            /* a posed node the top hangs from */
      gboolean root = FALSE;

      if (state[i] == 2)
        continue;
      for (;;)
        {
          guint16 parent = model->nodes[m].parent;

          state[m] = 1;
          walk[len++] = m;
          if (parent == MSH_NONE)
            {
              root = TRUE;
              break;
            }
          if (parent >= n)
            break;
          if (state[parent] == 2)
            {
              above = parent;
              break;
            }
          if (state[parent] == 1)
            {
              guint64 offset = base + (guint64) m * NODE_SIZE + NODE_OFF_PARENT;

              msh_problem_add (model->problems, MSH_SEVERITY_LINT, MSH_CHECK_PARENT_LOOP,
                               model->member, MSH_STREAM_NODES, (gint) m, offset,
                               _("%s: stream %u: offset %lu: expected the parent chain of node %u to reach a root, found a loop back to node %u"),
                               model->member, (guint) MSH_STREAM_NODES, (unsigned long) offset,
                               m, parent);
              break;
            }
          m = parent;
        }

      for (guint j = len; j-- > 0;)
        {
          guint node = walk[j];
          Pose local;

          model->poses[node].key = rest_key (model, node);
          local_pose (model, model->poses[node].key, &local);
          if (j + 1 < len)
            compose (&poses[walk[j + 1]], &local, &poses[node]);
          else if (above >= 0)
            compose (&poses[above], &local, &poses[node]);
          else
            {
              poses[node] = local;
              if (root)
                memset (poses[node].t, 0, sizeof poses[node].t);
            }
          state[node] = 2;
        }
    }

  for (guint i = 0; i < n; i++)
    {
      for (guint c = 0; c < 4; c++)
        model->poses[i].rotation[c] = (float) poses[i].q[c];
      for (guint c = 0; c < 3; c++)
        model->poses[i].translation[c] = (float) poses[i].t[c];
    }
}

MshModel *
msh_model_read (GBytes      *payload,
                guint64      base_offset,
                const char  *member)
{
  g_autoptr(GError) error = NULL;
  MshModel *model;
  const guint8 *data;

  g_return_val_if_fail (payload != NULL, NULL);

  model = g_new0 (MshModel, 1);
  model->payload = g_bytes_ref (payload);
  model->base_offset = base_offset;
  model->member = g_strdup (member != NULL ? member : "");
  model->problems = msh_problem_list_new ();

  model->streams_archive = nres_archive_parse_nested (payload, base_offset, &error);
  if (model->streams_archive == NULL)
    {
      msh_problem_add (model->problems, MSH_SEVERITY_ERROR, MSH_CHECK_ARCHIVE,
                       model->member, -1, -1, base_offset,
                       _("%s: %s"), model->member, error->message);
      return model;
    }

  data = g_bytes_get_data (payload, NULL);
  for (guint i = 0; i < model->streams_archive->n_entries; i++)
    {
      const NresEntry *e = &model->streams_archive->entries[i];
      MshStreamInfo *info;

      if (e->type_id >= MSH_N_STREAMS)
        continue;
      info = &model->streams[e->type_id];
      info->present = TRUE;
      info->entry = i;
      info->attr1 = e->attr1;
      info->attr2 = e->attr2;
      info->size = e->size;
      info->offset = base_offset + e->data_offset;
      info->data = data + e->data_offset;
    }

  for (guint i = 0; i < G_N_ELEMENTS (stream_sizes); i++)
    {
      if (!check_stream_size (model, stream_sizes[i].stream, stream_sizes[i].element))
        return model;
      if (stream_sizes[i].stream == MSH_STREAM_NODES)
        decode_nodes (model);
    }
  decode_streams (model);

  model->poses = g_new0 (MshNodePose, MAX (model->n_nodes, 1));
  if (!check_node_slots (model) || !check_slots (model) ||
      !check_batch_ranges (model) || !check_corners (model) ||
      !count_drawn (model))
    {
      g_clear_pointer (&model->poses, g_free);
      return model;
    }

  compute_poses (model);
  model->valid = TRUE;

  return model;
}

void
msh_model_free (MshModel *model)
{
  if (model == NULL)
    return;

  for (guint i = 0; model->nodes != NULL && i < model->n_nodes; i++)
    g_free (model->nodes[i].name);
  g_free (model->nodes);
  g_free (model->slots);
  g_free (model->batches);
  g_free (model->keys);
  g_free (model->frame_map);
  g_free (model->poses);
  g_clear_pointer (&model->streams_archive, nres_archive_free);
  g_clear_pointer (&model->problems, g_ptr_array_unref);
  g_bytes_unref (model->payload);
  g_free (model->member);
  g_free (model);
}

/* ---- Lints that need the wear ----------------------------------------- */

void
msh_model_lint_wear (const MshModel  *model,
                     const WearTable *wear,
                     GPtrArray       *out)
{
  guint64 base;

  g_return_if_fail (model != NULL);
  g_return_if_fail (out != NULL);

  if (wear == NULL)
    {
      g_autofree char *wea = wear_member_for_mesh (model->member);

      msh_problem_add (out, MSH_SEVERITY_LINT, MSH_CHECK_NO_WEAR,
                       model->member, -1, -1, model->base_offset,
                       _("%s: offset %lu: expected its material table %s in the same archive, found none (drawn with DEFAULT)"),
                       model->member, (unsigned long) model->base_offset, wea);
      return;
    }
  if (model->batches == NULL)
    return;

  base = model->streams[MSH_STREAM_BATCHES].offset;
  for (guint i = 0; i < model->n_batches; i++)
    {
      const MshBatch *b = &model->batches[i];
      guint64 offset = base + (guint64) i * BATCH_SIZE;

      if (b->row >= wear->n_rows)
        msh_problem_add (out, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_ROW,
                         model->member, MSH_STREAM_BATCHES, (gint) i, offset + BATCH_OFF_ROW,
                         _("%s: stream %u: offset %lu: expected a WEAR row below %u, found %u"),
                         model->member, (guint) MSH_STREAM_BATCHES,
                         (unsigned long) (offset + BATCH_OFF_ROW), wear->n_rows, b->row);
      if (!(b->word & MSH_BATCH_LIGHTMAPPED))
        continue;
      if (wear->n_lightmaps == 0)
        msh_problem_add (out, MSH_SEVERITY_LINT, MSH_CHECK_NO_LIGHTMAP,
                         model->member, MSH_STREAM_BATCHES, (gint) i, offset + BATCH_OFF_PAGE,
                         _("%s: stream %u: offset %lu: expected a LIGHTMAPS page in %s for a lightmapped batch, found none (drawn without its lightmap)"),
                         model->member, (guint) MSH_STREAM_BATCHES,
                         (unsigned long) (offset + BATCH_OFF_PAGE), wear->member);
      else if (b->page >= wear->n_lightmaps)
        msh_problem_add (out, MSH_SEVERITY_LINT, MSH_CHECK_LIGHTMAP_PAGE,
                         model->member, MSH_STREAM_BATCHES, (gint) i, offset + BATCH_OFF_PAGE,
                         _("%s: stream %u: offset %lu: expected a lightmap page below %u, found %u (page 0 is drawn)"),
                         model->member, (guint) MSH_STREAM_BATCHES,
                         (unsigned long) (offset + BATCH_OFF_PAGE), wear->n_lightmaps, b->page);
    }
}

gint
msh_batch_lightmap_page (const MshBatch *batch,
                         guint           n_lightmaps)
{
  g_return_val_if_fail (batch != NULL, -1);

  if (!(batch->word & MSH_BATCH_LIGHTMAPPED) || n_lightmaps == 0)
    return -1;

  return batch->page < n_lightmaps ? batch->page : 0;
}

/* ---- Vertex access ------------------------------------------------------ */

void
msh_model_position (const MshModel *model,
                    guint           vertex,
                    float           out[3])
{
  const guint8 *p;

  g_return_if_fail (model != NULL && vertex < model->n_vertices);

  p = model->streams[MSH_STREAM_POSITIONS].data + (gsize) vertex * VERTEX_SIZE;
  for (guint k = 0; k < 3; k++)
    out[k] = get_f32 (p + k * 4);
}

void
msh_model_normal (const MshModel *model,
                  guint           vertex,
                  float           out[3])
{
  const guint8 *p;

  g_return_if_fail (model != NULL && vertex < model->n_normals);

  p = model->streams[MSH_STREAM_NORMALS].data + (gsize) vertex * NORMAL_SIZE;
  for (guint k = 0; k < 3; k++)
    out[k] = (gint8) p[k] / 127.0f;
}

void
msh_model_uv (const MshModel *model,
              guint           vertex,
              float           out[2])
{
  const guint8 *p;

  g_return_if_fail (model != NULL && vertex < model->n_uvs);

  p = model->streams[MSH_STREAM_UVS].data + (gsize) vertex * UV_SIZE;
  out[0] = get_u16 (p) / 1024.0f;
  out[1] = get_u16 (p + 2) / 1024.0f;
}

void
msh_model_lightmap_uv (const MshModel *model,
                       guint           vertex,
                       float           out[2])
{
  const guint8 *p;

  g_return_if_fail (model != NULL && vertex < model->n_lightmap_uvs);

  p = model->streams[MSH_STREAM_LIGHTMAP_UVS].data + (gsize) vertex * UV_SIZE;
  out[0] = get_u16 (p) / 1024.0f;
  out[1] = get_u16 (p + 2) / 1024.0f;
}

void
msh_model_triangle (const MshModel *model,
                    guint           triangle,
                    guint16         out[3])
{
  const guint8 *p;

  g_return_if_fail (model != NULL && triangle < model->n_triangles);

  p = model->streams[MSH_STREAM_TRIANGLES].data + (gsize) triangle * TRIANGLE_SIZE;
  for (guint k = 0; k < 3; k++)
    out[k] = get_u16 (p + 2 * k);
}

/* ---- What is drawn ------------------------------------------------------ */

typedef struct {
  const MshModel *model;
  MshDraw        *draw;
  gboolean        geometry;
  guint32        *stamp;       /* per vertex of stream 3: the last item
                                  (+1) that took it */
  guint32        *map;         /* per vertex: its index in that item */
  guint32         item;
} DrawWalk;

/* The rotation of the unit quaternion @q (w, x, y, z) as a row-major
 * 3 x 3 matrix: the same turn as msh_quat_rotate, cheaper per vertex. */
static void
quat_to_matrix (const float q[4],
                float       m[9])
{
  double w = q[0], x = q[1], y = q[2], z = q[3];

  m[0] = (float) (1 - 2 * (y * y + z * z));
  m[1] = (float) (2 * (x * y - w * z));
  m[2] = (float) (2 * (x * z + w * y));
  m[3] = (float) (2 * (x * y + w * z));
  m[4] = (float) (1 - 2 * (x * x + z * z));
  m[5] = (float) (2 * (y * z - w * x));
  m[6] = (float) (2 * (x * z - w * y));
  m[7] = (float) (2 * (y * z + w * x));
  m[8] = (float) (1 - 2 * (x * x + y * y));
}

static void
matrix_apply (const float  m[9],
              const float  v[3],
              float        out[3])
{
  for (guint k = 0; k < 3; k++)
    out[k] = m[3 * k] * v[0] + m[3 * k + 1] * v[1] + m[3 * k + 2] * v[2];
}

/* The box of a batch's posed corners, and the bounds of all drawn so
 * far grown by them, in scalars a compiler keeps in registers (the
 * index of a retail-sized folder poses 720,000 corners): the first corner
 * is taken as it is, then each one that is less (or greater) replaces it,
 * corner by corner, NaN ones included. @all_lo, @all_hi: the bounds, with
 * @have_all whether there are any yet. */
static void
corners_box (const guint8 *indices,
             guint         first,
             guint         n,
             guint         first_vertex,
             const guint8 *positions,
             const float   r[9],
             const float   t[3],
             float         lo[3],
             float         hi[3],
             float         all_lo[3],
             float         all_hi[3],
             gboolean      have_all)
{
  float lx = 0, ly = 0, lz = 0, hx = 0, hy = 0, hz = 0;
  float ax = all_lo[0], ay = all_lo[1], az = all_lo[2];
  float bx = all_hi[0], by = all_hi[1], bz = all_hi[2];

  for (guint j = 0; j < n; j++)
    {
      guint v = first_vertex + get_u16 (indices + (gsize) (first + j) * 2);
      const guint8 *pv = positions + (gsize) v * VERTEX_SIZE;
      float x = get_f32 (pv), y = get_f32 (pv + 4), z = get_f32 (pv + 8);
      float px = r[0] * x + r[1] * y + r[2] * z + t[0];
      float py = r[3] * x + r[4] * y + r[5] * z + t[1];
      float pz = r[6] * x + r[7] * y + r[8] * z + t[2];

      if (j == 0)
        {
          lx = hx = px;
          ly = hy = py;
          lz = hz = pz;
          if (!have_all)
            {
              ax = bx = px;
              ay = by = py;
              az = bz = pz;
            }
        }
      lx = px < lx ? px : lx;
      ly = py < ly ? py : ly;
      lz = pz < lz ? pz : lz;
      hx = px > hx ? px : hx;
      hy = py > hy ? py : hy;
      hz = pz > hz ? pz : hz;
      ax = px < ax ? px : ax;
      ay = py < ay ? py : ay;
      az = pz < az ? pz : az;
      bx = px > bx ? px : bx;
      by = py > by ? py : by;
      bz = pz > bz ? pz : bz;
    }
  lo[0] = lx, lo[1] = ly, lo[2] = lz;
  hi[0] = hx, hi[1] = hy, hi[2] = hz;
  all_lo[0] = ax, all_lo[1] = ay, all_lo[2] = az;
  all_hi[0] = bx, all_hi[1] = by, all_hi[2] = bz;
}

/* One batch drawn by one node. With @fill, writes its vertices and
 * indices, its box and the bounds; without, only counts the vertices it
 * will have. Every corner is below the vertex streams' counts (checked
 * by msh_model_read). */
static void
walk_batch (DrawWalk     *w,
            MshDrawBatch *item,
            gboolean      fill)
{
  const MshModel *model = w->model;
  const MshBatch *b = &model->batches[item->batch];
  const MshNodePose *pose = &model->poses[item->node];
  const guint8 *indices = model->streams[MSH_STREAM_TRIANGLES].data;
  const guint8 *positions = model->streams[MSH_STREAM_POSITIONS].data;
  guint first = (guint) (b->first_index / 3) * 3;
  guint n = item->n_triangles * 3;
  MshDraw *draw = w->draw;
  float rot[9];

  quat_to_matrix (pose->rotation, rot);
  w->item++;
  for (guint j = 0; w->geometry && j < n; j++)
    {
      guint v = (guint) b->first_vertex + get_u16 (indices + (gsize) (first + j) * 2);

      if (w->stamp[v] != w->item)
        {
          w->stamp[v] = w->item;
          w->map[v] = draw->n_vertices++;
          item->n_vertices++;
          if (fill)
            {
              guint o = w->map[v];
              float p[3], posed[3], nrm[3];

              msh_model_position (model, v, p);
              matrix_apply (rot, p, posed);
              for (guint k = 0; k < 3; k++)
                draw->positions[3 * o + k] = posed[k] + pose->translation[k];
              msh_model_normal (model, v, nrm);
              matrix_apply (rot, nrm, draw->normals + 3 * o);
              msh_model_uv (model, v, draw->uvs + 2 * o);
              if (draw->lightmap_uvs != NULL && v < model->n_lightmap_uvs)
                msh_model_lightmap_uv (model, v, draw->lightmap_uvs + 2 * o);
            }
        }
      if (fill)
        draw->indices[draw->n_indices++] = w->map[v];
    }
  if (fill && n > 0)
    {
      corners_box (indices, first, n, b->first_vertex, positions, rot, pose->translation,
                   item->box_min, item->box_max, draw->bounds_min, draw->bounds_max,
                   draw->has_bounds);
      draw->has_bounds = TRUE;
    }
}

MshDraw *
msh_model_draw (const MshModel *model,
                MshDrawFlags    flags)
{
  DrawWalk w = { model, NULL, (flags & MSH_DRAW_GEOMETRY) != 0, NULL, NULL, 0 };
  MshDraw *draw;
  guint k = 0;

  g_return_val_if_fail (model != NULL, NULL);

  if (!model->valid)
    return NULL;

  draw = w.draw = g_new0 (MshDraw, 1);
  draw->n_batches = model->n_drawn_batches;
  draw->batches = g_new0 (MshDrawBatch, MAX (draw->n_batches, 1));
  draw->n_drawn_nodes = model->n_drawn_nodes;
  draw->batch_draws = g_new0 (guint, MAX (model->n_batches, 1));

  for (guint i = 0; i < model->n_nodes; i++)
    {
      const MshNodePose *pose = &model->poses[i];
      const MshSlot *slot;

      if (!pose->drawn)
        continue;
      slot = &model->slots[pose->slot];
      for (guint b = slot->first_batch; b < (guint) slot->first_batch + slot->batch_count; b++)
        {
          const MshBatch *batch = &model->batches[b];
          MshDrawBatch *item = &draw->batches[k++];

          item->batch = b;
          item->node = i;
          item->slot = pose->slot;
          item->word = batch->word;
          item->row = batch->row;
          item->page = batch->page;
          item->batch_node = batch->node;
          item->n_triangles = batch->index_count / 3;
          draw->n_triangles += item->n_triangles;
          draw->row_batches[batch->row]++;
          draw->row_triangles[batch->row] += item->n_triangles;
          draw->batch_draws[b]++;
        }
    }
  g_assert (k == draw->n_batches);

  if (w.geometry)
    {
      w.stamp = g_new0 (guint32, MAX (model->n_vertices, 1));
      w.map = g_new (guint32, MAX (model->n_vertices, 1));
      /* first count each batch's vertices, then allocate and fill */
      for (guint i = 0; i < draw->n_batches; i++)
        walk_batch (&w, &draw->batches[i], FALSE);
      draw->positions = g_new (float, MAX (3 * (gsize) draw->n_vertices, 1));
      draw->normals = g_new (float, MAX (3 * (gsize) draw->n_vertices, 1));
      draw->uvs = g_new (float, MAX (2 * (gsize) draw->n_vertices, 1));
      if (model->n_lightmap_uvs > 0)
        draw->lightmap_uvs = g_new0 (float, MAX (2 * (gsize) draw->n_vertices, 1));
      draw->indices = g_new (guint32, MAX (3 * (gsize) draw->n_triangles, 1));
      draw->n_vertices = 0;
    }

  for (guint i = 0; i < draw->n_batches; i++)
    {
      MshDrawBatch *item = &draw->batches[i];

      item->first_index = draw->n_indices;
      item->first_vertex = draw->n_vertices;
      item->n_vertices = 0;
      walk_batch (&w, item, TRUE);
    }
  g_assert (!w.geometry || draw->n_indices == 3 * draw->n_triangles);

  g_free (w.stamp);
  g_free (w.map);

  return draw;
}

void
msh_draw_free (MshDraw *draw)
{
  if (draw == NULL)
    return;

  g_free (draw->batches);
  g_free (draw->positions);
  g_free (draw->normals);
  g_free (draw->uvs);
  g_free (draw->lightmap_uvs);
  g_free (draw->indices);
  g_free (draw->batch_draws);
  g_free (draw);
}
