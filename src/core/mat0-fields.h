/* mat0-fields.h - what every byte of a material means (formats.md 2.2-2.4,
 * render.md, evaluator.md)
 *
 * The one table the phase table, the block editor, the timeline, the
 * compare view, the preview and mat0tool take their labels from. Texts
 * are English and only marked for translation; callers that show them to
 * people translate them with gettext (the strings live in the project's
 * domain). The mat0_fields_dup_*() readings are translated already.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* ---- the 18 parameter bytes of a phase -------------------------------- */

typedef enum {
  MAT0_GROUP_DIFFUSE,    /* p4..p7 */
  MAT0_GROUP_SELF_LIGHT, /* p0..p3: the ambient colour, the self-light; p3 the opacity */
  MAT0_GROUP_SPECULAR,   /* p8..p11 */
  MAT0_GROUP_EMISSIVE,   /* p12..p15: stored, never drawn */
  MAT0_N_GROUPS,
  MAT0_GROUP_NONE = -1,  /* p16, p17 */
} Mat0ColourGroup;

typedef enum {
  MAT0_READING_UNIT,     /* value / 255 */
  MAT0_READING_PERCENT,  /* value * 0.01 (ambient alpha: opacity) */
  MAT0_READING_POWER,    /* the device gets 1 << (value & 31) */
  MAT0_READING_CELL,     /* (int8) value: -1 whole texture, c >= 0 Page rect c */
} Mat0Reading;

typedef struct {
  guint           byte;        /* p index, 0..17 */
  const char     *short_label; /* column head, e.g. "Self R" */
  const char     *label;       /* e.g. "Self-light red" */
  const char     *meaning;     /* one sentence for a tooltip */
  Mat0ColourGroup group;
  guint           channel;     /* 0..3 = R, G, B, A inside the group */
  Mat0Reading     reading;
  gint            slot;        /* runtime float slot f0..f15, 16 = power,
                                  18 = +72 (the cell) */
  guint           runtime_offset; /* byte offset in the 76-byte runtime phase */
  gboolean        drawn;       /* FALSE: stored, never reaches the screen */
} Mat0ParamField;

typedef struct {
  Mat0ColourGroup group;
  const char     *label;       /* "Self-light (ambient)" */
  const char     *meaning;
  guint           bytes[4];    /* p indices of R, G, B, A */
  guint           first_slot;  /* runtime float slot of R */
  guint32         interp_bit;  /* interpMask bit that blends its R, G, B */
  gboolean        drawn;       /* the colour reaches the screen */
  gboolean        alpha_drawn; /* its alpha reaches the screen */
} Mat0GroupField;

#define MAT0_N_PARAMS 18

/* Returns: (transfer none): byte @byte (0..17) of a phase record. */
const Mat0ParamField *mat0_fields_param (guint byte);
/* Returns: (transfer none): a colour group (0..MAT0_N_GROUPS-1). */
const Mat0GroupField *mat0_fields_group (Mat0ColourGroup group);
/* The group and channel of runtime float slot @slot (0..15). */
const Mat0ParamField *mat0_fields_param_for_slot (guint slot);

/* "Texture" and what the name field means. */
const char *mat0_fields_texture_label   (void);
const char *mat0_fields_texture_meaning (void);

/* The note beside every field that never reaches the screen (a
 * Mat0ParamField with drawn = FALSE): "stored, not drawn by the game". */
const char *mat0_fields_not_drawn_note  (void);
/* The fields after the colour groups (p16, p17 and the texture) as one
 * heading: "Power, cell and texture". */
const char *mat0_fields_other_label     (void);

/* The unit byte @byte (0..17) is typed in, marked for translation (not
 * translated): "%" for the opacity p3, whose byte is the per cent itself
 * (formats.md 2.2: runtime p3 × 0.01); %NULL for the bytes typed as the
 * 0..255 they hold. */
const char *mat0_fields_param_unit      (guint    byte);

/* Returns: (transfer full): the opacity p3 reads as, translated: "100 %";
 * above 100 (the ambient-alpha lint) "150 % (over 100 %)"; a no-break
 * space (U+00A0) keeps the number and "%" together. */
char       *mat0_fields_dup_opacity_reading (guint8   p3);
/* Returns: (transfer full): how the engine reads cell byte @byte (p17),
 * translated: "−1 untextured" when @textured is FALSE, else "−1 whole
 * texture", "cell 2", or "−5 unknown" for another negative value. */
char       *mat0_fields_dup_cell_reading    (guint8   byte,
                                             gboolean textured);

/* ---- animation: modes and interpolation bits ------------------------- */

typedef struct {
  guint       mode;       /* 0..7 */
  const char *id;         /* "loop", "ping-pong", "once", "random", "unknown" */
  const char *label;      /* "Loop", ... ("Unknown" for 4..7) */
  const char *meaning;
  gboolean    known;
} Mat0ModeField;

typedef struct {
  guint32     mask;       /* 0x01 .. 0x10 */
  const char *label;      /* "Self-light RGB" */
  const char *meaning;    /* which fields blend, with bytes and slots */
  guint       slots[3];   /* runtime float slots it blends */
  guint       n_slots;
} Mat0InterpField;

#define MAT0_N_INTERP_BITS 5

/* Returns: (transfer none): mode @mode & 7 (4..7 give one "unknown" row
 * each with known = FALSE). */
const Mat0ModeField   *mat0_fields_mode   (guint mode);
/* Returns: (transfer none): interpMask bit @index (0..4). */
const Mat0InterpField *mat0_fields_interp (guint index);

/* ---- attr1: the blend index and its render mode ---------------------- */

typedef struct {
  guint       index;      /* b = (attr1 >> 2) & 0xF */
  gint        mode;       /* render.md 3: 0..5, -1 for an unknown index */
  const char *label;      /* "Opaque", "See-through", "Additive", ... */
  const char *meaning;
  const char *src_blend;  /* "ONE", "SRCALPHA", ... */
  const char *dst_blend;
  gboolean    alpha_test;
} Mat0BlendField;

#define MAT0_N_BLEND_INDICES 5   /* 0..4 are in the engine's table */

/* Returns: (transfer none): blend index @index (0..15); 5..15 give a row
 * with mode -1 ("unknown"), drawn as opaque (render.md 3). */
const Mat0BlendField *mat0_fields_blend (guint index);
/* The blend field of @attr1. */
const Mat0BlendField *mat0_fields_blend_of_attr1 (guint32 attr1);
/* Returns: (transfer full): blend index @index (0..15) as a choice reads,
 * translated: "See-through — mode 4: SRCALPHA / INVSRCALPHA"; past the
 * engine's table "Unknown (7) — past the engine's table, drawn as opaque". */
char                 *mat0_fields_blend_dup_reading (guint index);

typedef struct {
  guint32     mask;
  const char *short_label; /* under the cells of a bit grid: "tex", "hw", "b6" */
  const char *label;
  const char *meaning;
} Mat0FlagField;

#define MAT0_N_FLAG_FIELDS 3    /* bit 0, bit 1, bit 6: the blend index has its own table */

/* Returns: (transfer none): one of the single-bit attr1 flags (0..2). */
const Mat0FlagField *mat0_fields_flag         (guint index);
/* Returns: (transfer none): bits 2..5 as one field, the blend index
 * (mask 0x3C; its values are mat0_fields_blend()). */
const Mat0FlagField *mat0_fields_blend_index  (void);
/* Returns: (transfer none): bits 7..31, which no code is known to read
 * (mask 0xFFFFFF80): kept exactly as stored. */
const Mat0FlagField *mat0_fields_unknown_bits (void);

/* ---- metadata -------------------------------------------------------- */

typedef enum {
  MAT0_META_A,
  MAT0_META_B,
  MAT0_META_C,
  MAT0_META_D,
  MAT0_N_META,
} Mat0MetaId;

typedef struct {
  Mat0MetaId  id;
  const char *key;        /* "a", "b", "c", "d" (the JSON and set names) */
  const char *label;      /* "Ground class", "Unused", "Speed factor", "Damage per second" */
  const char *meaning;
  guint       min_attr2;  /* the payload version from which it is stored */
} Mat0MetaField;

/* Returns: (transfer none): metadata field @id. */
const Mat0MetaField *mat0_fields_meta (Mat0MetaId id);
/* A reading of a metaA value: "ground", "object skins", "foliage",
 * "water", "smaller families", "not set" (marked for translation, not
 * translated), or %NULL for a value with no known class. */
const char *mat0_fields_ground_class (guint value);
/* Returns: (transfer full): metaA @value with its class, translated:
 * "7 — water", "255 — not set", "12 — no known class". */
char       *mat0_fields_dup_ground_reading (guint value);

G_END_DECLS
