/* mat0.h - MAT0 material payloads (formats.md section 2)
 *
 * Every byte of a MAT0 payload is a field, so encode (decode (x)) == x for
 * every payload that decodes. Metadata fields absent from a version are
 * held as the runtime defaults and flagged as such; the encoder never
 * writes them.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MAT0_ERROR (mat0_error_quark ())

typedef enum {
  MAT0_ERROR_TRUNCATED_HEADER,   /* shorter than counts + metadata prefix */
  MAT0_ERROR_TOO_MANY_BLOCKS,    /* animBlockCount >= 20 */
  MAT0_ERROR_TRUNCATED_PHASES,   /* phase table runs past the payload */
  MAT0_ERROR_TRUNCATED_BLOCK,    /* an anim block runs past the payload */
  MAT0_ERROR_TRAILING_BYTES,     /* bytes after the last block */
} Mat0Error;

GQuark mat0_error_quark (void);

#define MAT0_PHASE_SIZE        34
#define MAT0_PARAM_COUNT       18
#define MAT0_TEXTURE_SIZE      16
#define MAT0_AMBIENT_ALPHA_BYTE 3     /* p[3]: opacity in per cent */
#define MAT0_CELL_BYTE         17     /* p[17]: the Page cell, signed */
#define MAT0_MAX_BLOCKS        19     /* animBlockCount must be < 20 */
#define MAT0_KEY_SIZE          6
#define MAT0_BLOCK_HEADER_SIZE 6

#define MAT0_DEFAULT_META_A    255
#define MAT0_DEFAULT_META_B    255
#define MAT0_DEFAULT_META_C    0x3F800000u   /* 1.0f */
#define MAT0_DEFAULT_META_D    0u

#define MAT0_CANONICAL_ATTR2   6

typedef struct {
  guint8 p[MAT0_PARAM_COUNT];
  guint8 texture[MAT0_TEXTURE_SIZE];   /* raw: bytes after the NUL kept */
} Mat0Phase;

typedef struct {
  guint16 k0;   /* phase index */
  guint16 k1;   /* time in ms at which the key's interval ends */
  guint16 k2;   /* opaque: kept as stored */
} Mat0Key;

typedef struct {
  guint32  header_raw;   /* mode = & 7, interp mask = >> 3 */
  guint16  n_keys;
  Mat0Key *keys;
} Mat0Block;

typedef struct {
  guint32    attr2;       /* payload version: decides the prefix */
  guint8     meta_a;      /* values in use; defaults when absent */
  guint8     meta_b;
  guint32    meta_c;      /* raw bits of a float */
  guint32    meta_d;
  guint16    n_phases;
  Mat0Phase *phases;
  guint16    n_blocks;
  Mat0Block *blocks;
} Mat0Material;

/* Metadata prefix length by version: <2: 0, 2: 2, 3: 6, >=4: 10. */
gsize          mat0_prefix_size        (guint32 attr2);
gboolean       mat0_has_meta_ab        (guint32 attr2);
gboolean       mat0_has_meta_c         (guint32 attr2);
gboolean       mat0_has_meta_d         (guint32 attr2);

/* Decodes a payload of version @attr2. @base_offset is the payload's
 * absolute offset in the file and @entry_name the entry's name (UTF-8):
 * both go into the error message ("NAME: offset N: expected ..., found ...").
 * Returns: (transfer full): the material, or %NULL with @error. */
Mat0Material  *mat0_decode             (const guint8       *data,
                                        gsize               size,
                                        guint32             attr2,
                                        const char         *entry_name,
                                        gsize               base_offset,
                                        GError            **error);

/* As mat0_decode(); on failure also stores the absolute file offset of the
 * problem (the N of the message) in @error_offset when it is not %NULL.
 * Returns: (transfer full): the material, or %NULL with @error. */
Mat0Material  *mat0_decode_full        (const guint8       *data,
                                        gsize               size,
                                        guint32             attr2,
                                        const char         *entry_name,
                                        gsize               base_offset,
                                        gsize              *error_offset,
                                        GError            **error);

/* Checks a payload for every decode error without allocating; the same
 * errors and messages as mat0_decode_full. */
gboolean       mat0_check              (const guint8       *data,
                                        gsize               size,
                                        guint32             attr2,
                                        const char         *entry_name,
                                        gsize               base_offset,
                                        gsize              *error_offset,
                                        GError            **error);

gsize          mat0_encoded_size       (const Mat0Material *material);
/* Returns: (transfer full): the payload bytes. */
GBytes        *mat0_encode             (const Mat0Material *material);

/* Returns: (transfer full): a new material, attr2 6, metadata at the
 * defaults, one untextured phase (p all 0 but diffuse 255,255,255,255 and
 * p[17] = 255), no blocks. */
Mat0Material  *mat0_material_new_canonical (void);
/* Returns: (transfer full): a deep copy. */
Mat0Material  *mat0_material_copy      (const Mat0Material *material);
void           mat0_material_free      (Mat0Material       *material);
gboolean       mat0_material_equal     (const Mat0Material *a,
                                        const Mat0Material *b);

/* Texture name of a phase: the bytes up to the NUL (at most 16). */
gsize          mat0_phase_texture_len  (const Mat0Phase    *phase);
gboolean       mat0_phase_is_textured  (const Mat0Phase    *phase);
/* Returns: (transfer full): the texture name as UTF-8 (from CP1251). */
char          *mat0_phase_dup_texture  (const Mat0Phase    *phase);
/* Sets the texture name from UTF-8: at most 15 CP1251 bytes, zero-filled.
 * "" makes the phase untextured. */
gboolean       mat0_phase_set_texture  (Mat0Phase          *phase,
                                        const char         *utf8,
                                        GError            **error);
/* Palette index of a texture name (formats.md 2.1); -1 for no palette
 * (no dot, untextured, or a negative index). */
gint           mat0_texture_palette_index (const guint8    *texture,
                                           gsize            len);
/* The same for a name of @end bytes whose first '.' is at @dot. */
gint           mat0_palette_index_at   (const guint8       *texture,
                                        gsize               end,
                                        gsize               dot);

static inline guint
mat0_block_mode (const Mat0Block *block)
{
  return block->header_raw & 7u;
}

static inline guint32
mat0_block_interp_mask (const Mat0Block *block)
{
  return block->header_raw >> 3;
}

/* The track's period: the last key's time k1 in ms (formats.md 2.3: a
 * key's k1 is the time its interval ends), 0 without keys. */
guint32        mat0_block_period       (const Mat0Block    *block);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Mat0Material, mat0_material_free)

G_END_DECLS
