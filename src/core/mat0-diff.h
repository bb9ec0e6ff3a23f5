/* mat0-diff.h - what differs between two materials or two libraries
 *
 * The one comparison the compare window, the library diff and
 * `mat0tool diff` share. Pure: it compares what it is given (decoded
 * materials, directory fields, raw payloads) and reads no file.
 *
 * Two materials differ field by field, in payload order: the directory
 * fields attr1..attr3, the metadata values in use (formats.md 2: the
 * runtime defaults when the version lacks a field), every parameter byte
 * and the raw 16-byte texture field of each phase, the mode, the
 * interpolation mask and k0, k1, k2 of every key of each block. A phase,
 * block or key that only one side has is one difference of its own.
 * Entries that are not two decoded materials compare by their type,
 * directory fields and payload bytes. Every difference carries its two
 * values, A's (the old one, "from") and B's (the new one, "to"), and
 * reads for people through the field table (mat0-fields.h).
 *
 * Two libraries: entries are matched by name, ASCII case-insensitively
 * (formats.md 1); when a name occurs more than once, the n-th occurrence
 * in A is matched with the n-th in B.
 */
#pragma once

#include <glib.h>

#include "mat0.h"
#include "nres.h"

G_BEGIN_DECLS

typedef enum {
  MAT0_DIFF_TYPE,      /* the entry type (type_id) */
  MAT0_DIFF_ATTR1,
  MAT0_DIFF_ATTR2,     /* the payload version */
  MAT0_DIFF_ATTR3,
  MAT0_DIFF_PAYLOAD,   /* the raw bytes, when not both sides decode */
  MAT0_DIFF_META,      /* @index: a Mat0MetaId */
  MAT0_DIFF_PHASE,     /* phase @phase is on one side only (@side) */
  MAT0_DIFF_PARAM,     /* byte @index of phase @phase */
  MAT0_DIFF_TEXTURE,   /* the texture field of phase @phase */
  MAT0_DIFF_BLOCK,     /* block @block is on one side only (@side) */
  MAT0_DIFF_MODE,      /* headerRaw & 7 of block @block */
  MAT0_DIFF_INTERP,    /* headerRaw >> 3 of block @block */
  MAT0_DIFF_KEY,       /* key @key of block @block is on one side only */
  MAT0_DIFF_K0,        /* a field of key @key of block @block */
  MAT0_DIFF_K1,
  MAT0_DIFF_K2,
} Mat0DiffKind;

typedef enum {
  MAT0_DIFF_BOTH,      /* the field is on both sides, with other values */
  MAT0_DIFF_ONLY_A,    /* a phase, block or key only A has: B removed it */
  MAT0_DIFF_ONLY_B,    /* only B has it: B added it */
} Mat0DiffSide;

/* One difference, with the two values: @from is A's, @to is B's.
 *   TYPE             the type ids
 *   ATTR1..ATTR3     the directory fields
 *   PAYLOAD          the payload sizes in bytes (the bytes differ)
 *   META             the values in use (metaC: the raw bits of its float)
 *   PARAM, MODE, INTERP, K0, K1, K2   the byte, mode, mask or key field
 *   PHASE            how many phases each side has
 *   BLOCK            how many blocks each side has
 *   KEY              how many keys block @block has on each side
 *   TEXTURE          0 and 0: the two fields are in @texture
 * @texture: for TEXTURE and PARAM, phase @phase's raw 16-byte texture
 * field in A ([0]) and in B ([1]) (the cell p17 reads by it); zeros
 * otherwise. */
typedef struct {
  Mat0DiffKind kind;
  Mat0DiffSide side;
  guint        phase;
  guint        block;
  guint        key;
  guint        index;  /* MAT0_DIFF_META: Mat0MetaId; MAT0_DIFF_PARAM: p index */
  guint32      from;
  guint32      to;
  guint8       texture[2][MAT0_TEXTURE_SIZE];
} Mat0DiffField;

/* One side of a comparison: a directory entry with its payload. */
typedef struct {
  const char         *name;      /* UTF-8 (matched ASCII case-insensitively) */
  guint32             type_id;
  guint32             attr1;
  guint32             attr2;
  guint32             attr3;
  const Mat0Material *material;  /* the decoded MAT0 payload, or %NULL */
  const guint8       *payload;   /* the raw payload: compared when either
                                    side has no decoded material */
  gsize               size;
} Mat0DiffEntry;

/* Appends to @out (element-type Mat0DiffField) every difference between
 * @a and @b, in payload order. Returns: whether there was one. */
gboolean   mat0_diff_entries        (const Mat0DiffEntry *a,
                                     const Mat0DiffEntry *b,
                                     GArray              *out);

/* The same for two decoded materials with their directory fields. */
gboolean   mat0_diff_materials      (const Mat0Material  *a,
                                     guint32              attr1_a,
                                     guint32              attr3_a,
                                     const Mat0Material  *b,
                                     guint32              attr1_b,
                                     guint32              attr3_b,
                                     GArray              *out);

/* Returns: (transfer full): a new, empty array of Mat0DiffField. */
GArray    *mat0_diff_fields_new     (void);

/* Returns: (transfer full): the field as `mat0tool set` names it:
 * "attr1", "meta.a", "phase[2].p[5]", "phase[0].texture",
 * "block[0].mode", "block[0].interp", "block[0].key[1].k1", or for a
 * part on one side only "phase[3]", "block[1]", "block[0].key[4]";
 * "type" and "payload" for entries that are not two materials. */
char      *mat0_diff_field_dup_path (const Mat0DiffField *field);

/* The field and its two values for people, translated; the CLI prints
 * them untranslated. @side: 0 for A (the old value, "from"), 1 for B
 * (the new one, "to"). */

/* Returns: (transfer full): which field it is: "attr1", "version",
 * "ground class", "phase 0 diffuse R", "phase 0 opacity", "phase 1
 * specular power", "phase 1 texture cell", "phase 1 texture", "block 0
 * mode", "block 0 interpolation", "block 0 key 1 phase", "block 0 key 1
 * time", "block 0 key 1 k2", "phase 3 added", "block 1 removed", "block 0
 * key 4 added", "entry type", "payload bytes". */
char      *mat0_diff_field_dup_label   (const Mat0DiffField *field);
/* Returns: (transfer full) (nullable): how one side's raw value reads
 * in the field table (mat0-fields.h), %NULL where the number is all
 * there is: attr1 its blend and the flags set ("Additive", "Opaque,
 * extended texture load, bit 6"), metaA its ground class
 * ("water"), metaC its float ("1.5"), p3 the opacity ("60 %"), p17 the
 * cell ("cell 2", "−1 whole texture"), a mode ("Ping-pong"), a mask
 * ("Self-light RGB, Opacity", "none"), k1 the time ("700 ms"), a type
 * id its four letters ("MAT0"), sizes and counts with their unit ("34
 * bytes", "3 phases"); %NULL for a texture (mat0_diff_field_dup_texture).
 * A number and its unit are joined by a no-break space (U+00A0). */
char      *mat0_diff_field_dup_reading (const Mat0DiffField *field,
                                        guint                side);
/* Returns: (transfer full): one side's value for people: the number and
 * its reading as the user reads them: "0x8 (Additive)", "7 (water)",
 * "128", "60 %", "cell 2", "“ROCK.0”", "untextured", "Loop", "0x3
 * (Self-light RGB, Diffuse RGB)", "700 ms", "3 phases". */
char      *mat0_diff_field_dup_value   (const Mat0DiffField *field,
                                        guint                side);
/* Returns: (transfer full): "old → new": the two values; two texture
 * fields whose names read the same (they differ after the NUL) as their
 * raw bytes in hex. */
char      *mat0_diff_field_dup_change  (const Mat0DiffField *field);
/* Returns: (transfer full): the field and its change, one line for
 * people: "phase 0 diffuse R: 128 → 200" (mat0tool diff prints it under
 * the material's name, the library diff lists it). */
char      *mat0_diff_field_dup_description (const Mat0DiffField *field);
/* Returns: (transfer full): the texture name of one side (UTF-8; "" for
 * an untextured phase) of a TEXTURE or PARAM field. */
char      *mat0_diff_field_dup_texture (const Mat0DiffField *field,
                                        guint                side);

/* Returns: (transfer full): the first @max of @fields as
 * mat0_diff_field_dup_description() gives them, one a line, then "… and
 * 4 more changes" when there are more; "" when @n_fields is 0. */
char      *mat0_diff_dup_changes    (const Mat0DiffField *fields,
                                     guint                n_fields,
                                     guint                max);

/* Returns: (transfer full): @fields for people, translated, one item per
 * part: "attr1, metadata (ground class), phase 2 (self-light, texture),
 * phase 3 added, block 0 (mode, keys)"; "" when @n_fields is 0. */
char      *mat0_diff_dup_summary    (const Mat0DiffField *fields,
                                     guint                n_fields);

/* ---- libraries ------------------------------------------------------- */

typedef enum {
  MAT0_DIFF_SAME,
  MAT0_DIFF_CHANGED,
  MAT0_DIFF_REMOVED,   /* in A only */
  MAT0_DIFF_ADDED,     /* in B only */
} Mat0DiffStatus;

typedef struct {
  Mat0DiffStatus status;
  gint           index_a;  /* entry index in A, -1 when added */
  gint           index_b;  /* entry index in B, -1 when removed */
  GArray        *fields;   /* Mat0DiffField: empty unless changed */
} Mat0DiffItem;

typedef struct {
  GPtrArray *items;        /* Mat0DiffItem: A's entries in A's order,
                              then the added ones in B's order */
  guint      n_same;
  guint      n_changed;
  guint      n_removed;
  guint      n_added;
} Mat0LibraryDiff;

/* Compares two lists of entries (matched by name as above).
 * Returns: (transfer full). */
Mat0LibraryDiff *mat0_diff_libraries   (const Mat0DiffEntry *a,
                                        guint                n_a,
                                        const Mat0DiffEntry *b,
                                        guint                n_b);
/* The same for two parsed archives: MAT0 entries are decoded (one that
 * does not decode compares by its bytes). Returns: (transfer full). */
Mat0LibraryDiff *mat0_diff_archives    (const NresArchive   *a,
                                        const NresArchive   *b);
/* Whether the libraries hold the same entries with the same content. */
gboolean         mat0_library_diff_is_equal (const Mat0LibraryDiff *diff);
void             mat0_library_diff_free (Mat0LibraryDiff    *diff);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Mat0LibraryDiff, mat0_library_diff_free)

G_END_DECLS
