/* mat-phase.h - one 34-byte phase record of a material */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define MAT_TYPE_PHASE (mat_phase_get_type ())

G_DECLARE_FINAL_TYPE (MatPhase, mat_phase, MAT, PHASE, GObject)

typedef struct _MatMaterial MatMaterial;

#define MAT_PHASE_N_PARAMS 18

/* Returns: (transfer none) (nullable): the material, %NULL once removed. */
MatMaterial  *mat_phase_get_material    (MatPhase     *self);
guint         mat_phase_get_index       (MatPhase     *self);

/* p0..p17 (also the properties "p0".."p17" and the signal
 * "param-changed" with the index). */
guint8        mat_phase_get_param       (MatPhase     *self,
                                         guint         index);
/* Returns: (transfer none) (array fixed-size=18): the parameters. */
const guint8 *mat_phase_get_params      (MatPhase     *self);
/* One undoable command; inside a group, changes of the same parameter
 * merge into one. */
gboolean      mat_phase_set_param       (MatPhase     *self,
                                         guint         index,
                                         guint8        value,
                                         GError      **error);
/* All 18 at once, one command. */
gboolean      mat_phase_set_params      (MatPhase     *self,
                                         const guint8 *params,
                                         GError      **error);

/* Returns: (transfer none): the texture name as UTF-8 ("" untextured). */
const char   *mat_phase_get_texture     (MatPhase     *self);
/* Returns: (transfer none) (array fixed-size=16): the raw field, bytes
 * after the NUL included. */
const guint8 *mat_phase_get_texture_raw (MatPhase     *self);
gboolean      mat_phase_get_textured    (MatPhase     *self);
/* At most 15 CP1251 bytes, zero-filled; "" makes the phase untextured.
 * MAT_MODEL_ERROR_TEXTURE_INVALID otherwise. */
gboolean      mat_phase_set_texture     (MatPhase     *self,
                                         const char   *texture,
                                         GError      **error);

/* The raw 16-byte field as it is, bytes after the NUL included (a copy
 * from another phase, byte for byte): one undoable command. */
gboolean      mat_phase_set_texture_raw (MatPhase     *self,
                                         const guint8 *raw,
                                         GError      **error);

G_END_DECLS
