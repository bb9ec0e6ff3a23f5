/* mat-material.h - one entry of a material library
 *
 * A MAT0 entry that decodes is editable: its phases and animation blocks
 * are GListModels of MatPhase and MatAnimBlock. Entries of other types and
 * MAT0 entries that do not decode are listed too, read-only, with no
 * phases (the latter with "error" set). Decoding is lazy: the first access
 * to anything below the directory fields decodes the payload.
 */
#pragma once

#include <gio/gio.h>

#include "mat0.h"
#include "mat-anim-block.h"
#include "mat-phase.h"

G_BEGIN_DECLS

#define MAT_TYPE_MATERIAL (mat_material_get_type ())

G_DECLARE_FINAL_TYPE (MatMaterial, mat_material, MAT, MATERIAL, GObject)

typedef struct _MatLibrary MatLibrary;

/* Returns: (transfer none) (nullable): the library, %NULL once deleted. */
MatLibrary   *mat_material_get_library     (MatMaterial  *self);

/* Returns: (transfer none): the NRes name as UTF-8. */
const char   *mat_material_get_name        (MatMaterial  *self);
/* Rename: 1..35 CP1251 bytes (MAT_MODEL_ERROR_NAME_INVALID), unique in
 * the library case-insensitively (MAT_MODEL_ERROR_NAME_TAKEN). */
gboolean      mat_material_set_name        (MatMaterial  *self,
                                            const char   *name,
                                            GError      **error);

guint32       mat_material_get_type_id     (MatMaterial  *self);
guint32       mat_material_get_attr1       (MatMaterial  *self);
guint32       mat_material_get_attr2       (MatMaterial  *self);
guint32       mat_material_get_attr3       (MatMaterial  *self);
gboolean      mat_material_set_attr1       (MatMaterial  *self,
                                            guint32       attr1,
                                            GError      **error);
/* Changes the payload version: metadata fields that the new version adds
 * or drops take the runtime defaults (undo restores the old values). */
gboolean      mat_material_set_attr2       (MatMaterial  *self,
                                            guint32       attr2,
                                            GError      **error);
gboolean      mat_material_set_attr3       (MatMaterial  *self,
                                            guint32       attr3,
                                            GError      **error);

/* Metadata in use (the runtime defaults when the version lacks a field). */
guint8        mat_material_get_meta_a      (MatMaterial  *self);
guint8        mat_material_get_meta_b      (MatMaterial  *self);
guint32       mat_material_get_meta_c      (MatMaterial  *self);
guint32       mat_material_get_meta_d      (MatMaterial  *self);
/* Whether the payload version stores the field (else it is a default). */
gboolean      mat_material_has_meta_ab     (MatMaterial  *self);
gboolean      mat_material_has_meta_c      (MatMaterial  *self);
gboolean      mat_material_has_meta_d      (MatMaterial  *self);
/* MAT_MODEL_ERROR_META_ABSENT when the version lacks the field. */
gboolean      mat_material_set_meta_a      (MatMaterial  *self,
                                            guint8        value,
                                            GError      **error);
gboolean      mat_material_set_meta_b      (MatMaterial  *self,
                                            guint8        value,
                                            GError      **error);
gboolean      mat_material_set_meta_c      (MatMaterial  *self,
                                            guint32       value,
                                            GError      **error);
gboolean      mat_material_set_meta_d      (MatMaterial  *self,
                                            guint32       value,
                                            GError      **error);

gboolean      mat_material_get_editable    (MatMaterial  *self);
/* Returns: (transfer none) (nullable): the decode error message. */
const char   *mat_material_get_error       (MatMaterial  *self);
guint         mat_material_get_n_phases    (MatMaterial  *self);
guint         mat_material_get_n_blocks    (MatMaterial  *self);
/* A block with at least two keys. */
gboolean      mat_material_get_animated    (MatMaterial  *self);
/* A phase with a texture name. */
gboolean      mat_material_get_textured    (MatMaterial  *self);

/* The material list's swatch: phase 0 as the evaluator gives it, lit as
 * the game lights the point of a sphere that faces the light, over the
 * default scene colour, without its texture (phase_light_swatch in
 * phase-light.h); RGBA8, alpha the ambient alpha. Computed once and
 * kept until the material changes. Returns %FALSE (and transparent
 * black) for an entry without phases. */
gboolean      mat_material_get_swatch      (MatMaterial  *self,
                                            guint8        rgba[4]);
/* For tests: whether the swatch is kept from an earlier computation. */
gboolean      mat_material_get_swatch_cached (MatMaterial *self);

/* Returns: (transfer none): GListModel of MatPhase / MatAnimBlock. */
GListModel   *mat_material_get_phases      (MatMaterial  *self);
GListModel   *mat_material_get_blocks      (MatMaterial  *self);

/* Phases. Keys follow the phases they point at; keys pointing at a
 * removed phase point at the one that takes its place (the one before it
 * when the last phase was removed); keys whose k0 was already out of range
 * are kept. Undo restores every k0 exactly.
 * Returns: (transfer none): the new phase, or %NULL with @error. */
MatPhase     *mat_material_insert_phase    (MatMaterial  *self,
                                            guint         position,
                                            GError      **error);
MatPhase     *mat_material_duplicate_phase (MatMaterial  *self,
                                            guint         index,
                                            GError      **error);
gboolean      mat_material_move_phase      (MatMaterial  *self,
                                            guint         from,
                                            guint         to,
                                            GError      **error);
/* MAT_MODEL_ERROR_LAST_PHASE for the only phase. */
gboolean      mat_material_remove_phase    (MatMaterial  *self,
                                            guint         index,
                                            GError      **error);

/* A new block (loop, all known blend bits, one key: phase 0, 1000 ms) at
 * @position; MAT_MODEL_ERROR_TOO_MANY_BLOCKS beyond MAT0_MAX_BLOCKS.
 * Returns: (transfer none): the block, or %NULL with @error. */
MatAnimBlock *mat_material_insert_block    (MatMaterial  *self,
                                            guint         position,
                                            GError      **error);
gboolean      mat_material_remove_block    (MatMaterial  *self,
                                            guint         index,
                                            GError      **error);

/* Returns: (transfer full) (nullable): the current state as a core
 * material, %NULL when the entry is not an editable material. */
Mat0Material *mat_material_dup_core       (MatMaterial  *self);
/* The payload a save would write: the encoded current state of an
 * editable material, the stored bytes of any other entry.
 * Returns: (transfer full). */
GBytes       *mat_material_dup_payload    (MatMaterial  *self);
/* Lints of the current state (mat0_lint_material), or the decode error.
 * Returns: (transfer full) (element-type Mat0Diagnostic). */
GPtrArray    *mat_material_dup_diagnostics (MatMaterial *self);

G_END_DECLS
