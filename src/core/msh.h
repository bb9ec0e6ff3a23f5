/* msh.h - MESH: a model's streams, its rest pose and what it draws
 *
 * See models.md 2. The payload of a MESH member is itself an NRes archive
 * (read with nres.h); each inner entry is a stream: type_id the stream
 * number, attr1 its element count (attr2 the frame count of stream 19).
 * The last copy of a stream counts; a missing stream is empty.
 *
 * Three steps, each usable on its own:
 *
 *   msh_model_read ()       streams decoded and every check of models.md 2
 *                           "Validation": errors (nothing can be drawn)
 *                           and lints, in MshModel.problems; the rest pose
 *                           of every node when there is no error.
 *   msh_model_lint_wear ()  the lints that need the model's WEAR (rows
 *                           past the table, lightmap pages, no .wea).
 *   msh_model_draw ()       what is drawn at rest: one MshDrawBatch per
 *                           (drawn node, batch of its slot), and with
 *                           MSH_DRAW_GEOMETRY the posed vertex arrays and
 *                           32-bit indices a GL renderer uploads once.
 *
 * Space: model space, Z up, as the file stores it; rotations are the
 * file's quaternions normalised and conjugated (the engine is
 * left-handed), composed as q_model = q_parent * q_local,
 * t_model = t_parent + q_parent t_local q_parent^-1.
 *
 * Nothing here reads outside the payload or allocates more than the
 * payload's size justifies: every count is checked against the bytes
 * before anything is allocated, and what is drawn at rest is capped by
 * MSH_MAX_DRAWN_TRIANGLES and MSH_MAX_DRAWN_BATCHES (an error beyond).
 */
#pragma once

#include <glib.h>

#include "msh-problem.h"
#include "nres.h"
#include "wear.h"

G_BEGIN_DECLS

/* Stream numbers (models.md 2). Others are kept in the payload, ignored. */
enum {
  MSH_STREAM_NODES        = 1,    /* 38 B */
  MSH_STREAM_SLOTS        = 2,    /* 140 B header, then 68 B each */
  MSH_STREAM_POSITIONS    = 3,    /* 12 B: f32 x, y, z (Z up) */
  MSH_STREAM_NORMALS      = 4,    /* 4 B: i8 x, y, z / 127, pad */
  MSH_STREAM_UVS          = 5,    /* 4 B: u16 u, v / 1024 */
  MSH_STREAM_TRIANGLES    = 6,    /* 6 B: u16 a, b, c, relative to the
                                     covering batch's first_vertex */
  MSH_STREAM_FACES        = 7,    /* 16 B, not needed to draw */
  MSH_STREAM_KEYS         = 8,    /* 24 B: f32 t[3], f32 time, i16 q[4] */
  MSH_STREAM_NAMES        = 9,    /* 32 B: node name, NUL-padded */
  MSH_STREAM_BATCHES      = 13,   /* 20 B */
  MSH_STREAM_LIGHTMAP_UVS = 18,   /* 4 B: u16 u, v / 1024 */
  MSH_STREAM_FRAME_MAP    = 19,   /* u16; attr2 = frames per animated node */
  MSH_N_STREAMS           = 20,
};

#define MSH_NONE                0xFFFFu   /* no parent, slot, animation */
#define MSH_N_SLOT_INDICES      15        /* slot[0..4] variant 0 (LOD 0..4),
                                             slot[5..14] damage states */
#define MSH_N_REST_SLOTS        5         /* slot[0..4]: where the rest
                                             slot is looked for */
#define MSH_SLOTS_HEADER_SIZE   140

/* Node flags */
#define MSH_NODE_INTERIOR       0x0001u   /* drawn */
#define MSH_NODE_COCKPIT        0x0020u   /* drawn only from inside: not at rest */

/* Batch word bits (others are kept and mean nothing to the draw) */
#define MSH_BATCH_BACKFACE      0x00000002u   /* struck from behind (collision) */
#define MSH_BATCH_PORTAL        0x00000008u
#define MSH_BATCH_TRANSLUCENT   0x00000100u
#define MSH_BATCH_LIGHTMAPPED   0x00002000u

/* Lightmap page byte: none */
#define MSH_PAGE_NONE           0xFFu

/* The most one model may draw at rest (about 13 times the triangles and
 * 290 times the batches of the largest retail model): beyond,
 * msh_model_read reports an MSH_CHECK_TOO_LARGE error. */
#define MSH_MAX_DRAWN_TRIANGLES (1u << 19)
#define MSH_MAX_DRAWN_BATCHES   (1u << 16)

/* Stream 1 */
typedef struct {
  guint16  flags;
  guint16  parent;                     /* MSH_NONE: a root */
  guint16  anim_start;                 /* MSH_NONE: not animated */
  guint16  fallback_key;
  guint16  slot[MSH_N_SLOT_INDICES];   /* MSH_NONE: none */
  char    *name;                       /* stream 9, UTF-8; NULL when the
                                          stream does not reach the node */
} MshNode;

/* Stream 2's header: the model's authored extent, posed space */
typedef struct {
  float box[8][3];
  float sphere[4];
  float cylinder[7];
} MshExtent;

/* Stream 2 */
typedef struct {
  guint16 first_triangle;     /* stream 6 */
  guint16 triangle_count;
  guint16 first_batch;        /* stream 13 */
  guint16 batch_count;
  float   aabb_min[3];
  float   aabb_max[3];
  float   sphere[4];
  float   area;
  float   volume;
  guint32 extra[3];
} MshSlot;

/* Stream 13, every field as stored */
typedef struct {
  guint32 word;               /* +0: MSH_BATCH_* bits and others */
  guint8  row;                /* +4: the WEAR row of its material */
  guint8  page;               /* +5: lightmap page, MSH_PAGE_NONE */
  guint16 node;               /* +6: node / portal room, MSH_NONE */
  guint16 index_count;        /* +8: 3 x triangles */
  guint16 first_index;        /* +10: into stream 6's indices */
  guint16 index_high;         /* +12: the u16 after first_index (0) */
  guint16 vertex_count;       /* +14 */
  guint16 first_vertex;       /* +16 */
  guint16 vertex_high;        /* +18: the u16 after first_vertex (0) */
} MshBatch;

/* Stream 8, as stored */
typedef struct {
  float  translation[3];
  float  time;                /* frames */
  gint16 rotation[4];         /* w, x, y, z / 32767, not conjugated */
} MshKey;

/* Where one stream is: the last inner entry with its number. */
typedef struct {
  gboolean      present;
  guint         entry;        /* index in the inner archive */
  guint32       attr1;        /* element count */
  guint32       attr2;
  guint32       size;
  guint64       offset;       /* absolute offset of its data in the archive */
  const guint8 *data;         /* into MshModel.payload */
} MshStreamInfo;

/* A node at rest, in model space */
typedef struct {
  float    rotation[4];       /* w, x, y, z: unit, conjugated, composed */
  float    translation[3];
  gint     key;               /* its rest key (stream 8), -1 for the
                                 identity (none, or out of range) */
  guint16  slot;              /* the slot drawn at rest, MSH_NONE */
  gboolean drawn;             /* has a rest slot and is not a cockpit */
} MshNodePose;

typedef struct {
  GBytes        *payload;          /* the member (a reference) */
  guint64        base_offset;      /* where it starts in its archive */
  char          *member;           /* its name, UTF-8 */

  gboolean       valid;            /* no error: poses set, can be drawn */
  gboolean       nodes_readable;   /* stream 1 could be read (its node
                                      count is known, even with errors) */
  NresArchive   *streams_archive;  /* the inner archive, NULL when it
                                      fails formats.md 1 */
  MshStreamInfo  streams[MSH_N_STREAMS];

  guint          n_nodes;
  MshNode       *nodes;
  guint          n_slots;
  MshSlot       *slots;
  gboolean       has_extent;       /* stream 2 present */
  MshExtent      extent;
  guint          n_batches;
  MshBatch      *batches;
  guint          n_keys;
  MshKey        *keys;
  guint          n_frame_map;
  guint16       *frame_map;        /* stream 19 */
  guint          n_frames;         /* stream 19's attr2 */
  guint          n_vertices;       /* stream 3 */
  guint          n_normals;        /* stream 4 */
  guint          n_uvs;            /* stream 5 */
  guint          n_triangles;      /* stream 6 */
  guint          n_lightmap_uvs;   /* stream 18 */

  MshNodePose   *poses;            /* n_nodes, when valid */
  guint          n_drawn_nodes;    /* when valid: what the draw will hold */
  guint          n_drawn_batches;
  guint          n_drawn_triangles;

  GPtrArray     *problems;         /* (element-type MshProblem) */
} MshModel;

/* Reads a MESH payload. Never fails: a model with an error has
 * valid = FALSE, the error (and lints found before it) in problems, and
 * its node count when stream 1 was readable. The first error stops the
 * checks; lints are all reported.
 * @base_offset: where @payload starts in the archive; @member: its name,
 * UTF-8, for messages.
 * Returns: (transfer full): the model, holding a reference to @payload. */
MshModel   *msh_model_read            (GBytes          *payload,
                                       guint64          base_offset,
                                       const char      *member);
void        msh_model_free            (MshModel        *model);

/* Appends to @out (element-type MshProblem) the lints that need the
 * model's wear: every batch of stream 13 whose row is past @wear's rows;
 * every lightmapped batch whose page is MSH_PAGE_NONE or past the wear's
 * LIGHTMAPS, or whose wear has no page; with @wear %NULL, one "no .wea"
 * lint instead. Needs stream 13 readable; does nothing otherwise. */
void        msh_model_lint_wear       (const MshModel  *model,
                                       const WearTable *wear,
                                       GPtrArray       *out);

/* A vertex of the streams, as stored (index below the stream's count). */
void        msh_model_position        (const MshModel  *model,
                                       guint            vertex,
                                       float            out[3]);
void        msh_model_normal          (const MshModel  *model,
                                       guint            vertex,
                                       float            out[3]);
void        msh_model_uv              (const MshModel  *model,
                                       guint            vertex,
                                       float            out[2]);
void        msh_model_lightmap_uv     (const MshModel  *model,
                                       guint            vertex,
                                       float            out[2]);
/* Triangle @triangle's three indices (relative to a batch's first_vertex). */
void        msh_model_triangle        (const MshModel  *model,
                                       guint            triangle,
                                       guint16          out[3]);

/* The page of @n_lightmaps that a batch draws with (models.md 4): -1
 * when it is not lightmapped or there is no page, else its page byte,
 * or 0 for MSH_PAGE_NONE and a page past the list. */
gint        msh_batch_lightmap_page   (const MshBatch  *batch,
                                       guint            n_lightmaps);

typedef enum {
  MSH_DRAW_COUNTS   = 0,        /* batches, counts, bounds: no arrays */
  MSH_DRAW_GEOMETRY = 1 << 0,   /* and the vertex and index arrays */
} MshDrawFlags;

/* One batch drawn at rest by one node */
typedef struct {
  guint   batch;             /* its index in stream 13 */
  guint   node;              /* the node that draws (and poses) it */
  guint   slot;              /* that node's rest slot */
  guint32 word;              /* MshBatch fields, copied */
  guint8  row;
  guint8  page;
  guint16 batch_node;
  guint   n_triangles;       /* index_count / 3 */
  guint   first_index;       /* with GEOMETRY: its 3 x n_triangles
                                entries of MshDraw.indices start here */
  guint   first_vertex;      /* with GEOMETRY: its vertices in the arrays */
  guint   n_vertices;
  float   box_min[3];        /* its posed corners' box; all 0 without */
  float   box_max[3];
} MshDrawBatch;

typedef struct {
  guint         n_batches;
  MshDrawBatch *batches;        /* nodes in index order, each node's slot's
                                   batches in stream order */
  guint         n_drawn_nodes;  /* nodes with a rest slot, not cockpits */
  guint         n_triangles;    /* sum of the batches' */

  /* With MSH_DRAW_GEOMETRY (else 0 and NULL). Each drawn batch has its
   * own vertices: the distinct corners of its triangles in the order they
   * are first met, posed by its node (normals turned, not moved). */
  guint         n_vertices;
  float        *positions;      /* 3 per vertex */
  float        *normals;        /* 3 per vertex */
  float        *uvs;            /* 2 per vertex */
  float        *lightmap_uvs;   /* 2 per vertex; NULL when the model's
                                   stream 18 is missing or empty; 0 for
                                   a vertex past its count */
  guint         n_indices;
  guint32      *indices;        /* into the vertex arrays */

  gboolean      has_bounds;     /* something is drawn */
  float         bounds_min[3];  /* every drawn posed corner */
  float         bounds_max[3];

  /* Per WEAR row (byte +4): how many drawn batches use it, and their
   * triangles. A row of the wear with 0 batches is "named, not drawn". */
  guint         row_batches[256];
  guint         row_triangles[256];
  /* Per batch of stream 13 (model->n_batches): how often it is drawn. */
  guint        *batch_draws;
} MshDraw;

/* What @model draws at rest (models.md 2): for each node in index order
 * whose pose is drawn, each batch of its rest slot, its triangles
 * first_index / 3 .. + index_count / 3 of stream 6, each corner
 * first_vertex + index posed by the node.
 * Returns: (transfer full): the draw, or %NULL when the model has an
 * error (nothing is drawn). */
MshDraw    *msh_model_draw            (const MshModel  *model,
                                       MshDrawFlags     flags);
void        msh_draw_free             (MshDraw         *draw);

/* Turns @v by the unit quaternion @q (w, x, y, z): q v q^-1. */
void        msh_quat_rotate           (const float      q[4],
                                       const float      v[3],
                                       float            out[3]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshModel, msh_model_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshDraw, msh_draw_free)

G_END_DECLS
