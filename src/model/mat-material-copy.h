/* mat-material-copy.h - copying parts of one material into another
 *
 * The source is a material of any library (another open one, the game's
 * original file) or the target itself; the target must be editable. Each
 * call is ONE undo step in the target's library, labelled for what it
 * copied, and copies the bytes as they are: the texture field with the
 * bytes after its NUL, k2, unknown mode and interpolation bits. Undo
 * restores the target's bytes exactly. Copying what is already equal
 * records nothing.
 *
 * Phases, blocks and keys are named by index on each side, so a phase of
 * one material can go into another phase of another material. Copying
 * a phase or a block to the index just past the target's last one
 * appends it.
 */
#pragma once

#include "mat0-fields.h"
#include "mat-library.h"
#include "mat-material.h"

G_BEGIN_DECLS

typedef enum {
  MAT_COPY_ATTR1,
  MAT_COPY_ATTR2,    /* the payload version: as mat_material_set_attr2, the
                        metadata fields it adds or drops take the defaults */
  MAT_COPY_ATTR3,
  MAT_COPY_META_A,   /* MAT_MODEL_ERROR_META_ABSENT when the target's */
  MAT_COPY_META_B,   /* version does not store the field */
  MAT_COPY_META_C,
  MAT_COPY_META_D,
} MatCopyField;

gboolean     mat_material_copy_field   (MatMaterial     *self,
                                        MatMaterial     *source,
                                        MatCopyField     field,
                                        GError         **error);

/* Byte @byte (0..17) of phase @source_phase into phase @phase. */
gboolean     mat_material_copy_param   (MatMaterial     *self,
                                        guint            phase,
                                        MatMaterial     *source,
                                        guint            source_phase,
                                        guint            byte,
                                        GError         **error);
/* The raw 16-byte texture field. */
gboolean     mat_material_copy_texture (MatMaterial     *self,
                                        guint            phase,
                                        MatMaterial     *source,
                                        guint            source_phase,
                                        GError         **error);
/* The four bytes of a colour group (mat0_fields_group). */
gboolean     mat_material_copy_group   (MatMaterial     *self,
                                        guint            phase,
                                        MatMaterial     *source,
                                        guint            source_phase,
                                        Mat0ColourGroup  group,
                                        GError         **error);
/* The 34 bytes of a phase; @phase equal to the target's phase count
 * appends a copy (MAT_MODEL_ERROR_TOO_MANY_ITEMS past 65535). Keys keep
 * their k0. */
gboolean     mat_material_copy_phase   (MatMaterial     *self,
                                        guint            phase,
                                        MatMaterial     *source,
                                        guint            source_phase,
                                        GError         **error);

/* The mode bits (headerRaw & 7) or the interpolation mask (headerRaw >> 3). */
gboolean     mat_material_copy_mode    (MatMaterial     *self,
                                        guint            block,
                                        MatMaterial     *source,
                                        guint            source_block,
                                        GError         **error);
gboolean     mat_material_copy_interp  (MatMaterial     *self,
                                        guint            block,
                                        MatMaterial     *source,
                                        guint            source_block,
                                        GError         **error);
/* k0, k1 and k2 of a key. */
gboolean     mat_material_copy_key     (MatMaterial     *self,
                                        guint            block,
                                        guint            key,
                                        MatMaterial     *source,
                                        guint            source_block,
                                        guint            source_key,
                                        GError         **error);
/* A whole block, header and keys; @block equal to the target's block
 * count appends a copy (MAT_MODEL_ERROR_TOO_MANY_BLOCKS past
 * MAT0_MAX_BLOCKS). */
gboolean     mat_material_copy_block   (MatMaterial     *self,
                                        guint            block,
                                        MatMaterial     *source,
                                        guint            source_block,
                                        GError         **error);

/* Everything but the name: attr1..attr3, the metadata, every phase and
 * every block, so that the target's payload becomes the source's. */
gboolean     mat_material_copy_all     (MatMaterial     *self,
                                        MatMaterial     *source,
                                        GError         **error);

/* "Take from the other library": @source's content into @target when
 * given (mat_material_copy_all), else a copy of @source added to @self
 * under its name (mat_library_add_copy). One undo step either way.
 * Returns: (transfer none): the material that now holds the content, or
 * %NULL with @error. */
MatMaterial *mat_library_take_material (MatLibrary      *self,
                                        MatMaterial     *target,
                                        MatMaterial     *source,
                                        GError         **error);

G_END_DECLS
