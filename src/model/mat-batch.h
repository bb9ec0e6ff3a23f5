/* mat-batch.h - one edit for many materials
 *
 * mat_library_apply_to_many() copies one part of a material (a field, a
 * colour group, a texture, a whole phase, attr1 bits, metadata, a block's
 * mode or interpolation) into any number of materials of its library as
 * ONE undo step, however many they are; undo gives every one of them its
 * bytes back.
 *
 * A MatBatch is a selection of several materials of one library as the
 * pages edit it: the material they show (the leader) and the others
 * selected with it. An edit of the leader goes to the others through
 * mat_batch_apply(); mat_batch_differs() tells where the others hold
 * something else than the leader, so the pages can mark it. It follows
 * the library's history: after any step the differences are read again
 * and "changed" is emitted.
 */
#pragma once

#include "mat0-fields.h"
#include "mat-library.h"
#include "mat-material.h"

G_BEGIN_DECLS

typedef enum {
  MAT_APPLY_PARAM,       /* byte @byte (0..17) of phase @index */
  MAT_APPLY_GROUP,       /* the four bytes of colour group @group of phase @index */
  MAT_APPLY_TEXTURE,     /* the 16-byte texture field of phase @index */
  MAT_APPLY_PHASE,       /* all 34 bytes of phase @index */
  MAT_APPLY_ATTR1_BITS,  /* the bits @mask of attr1: a flag, the blend
                            index (MAT0_FLAG_NIBBLE_MASK), all of them */
  MAT_APPLY_ATTR3,       /* attr3 */
  MAT_APPLY_META,        /* metadata @meta, where the target's version stores it */
  MAT_APPLY_MODE,        /* the mode bits of block @index (headerRaw & 7) */
  MAT_APPLY_INTERP,      /* the interpolation mask of block @index (headerRaw >> 3);
                            with @mask, only those bits of it */
} MatApplyKind;

typedef struct {
  MatApplyKind    kind;
  guint           index;   /* the phase or block */
  guint           byte;    /* MAT_APPLY_PARAM */
  Mat0ColourGroup group;   /* MAT_APPLY_GROUP */
  guint32         mask;    /* MAT_APPLY_ATTR1_BITS, MAT_APPLY_INTERP */
  Mat0MetaId      meta;    /* MAT_APPLY_META */
} MatApply;

/* Copies @what of @source into each of the @n_targets @targets that has
 * its place (phase or block @index; for metadata, a version that stores
 * the field), as ONE undo step labelled for it. Targets without the
 * place, @source itself and entries that are not editable materials are
 * left as they are. Nothing is recorded when no target changes. The
 * targets must belong to @self, as @source must.
 * @n_changed: (out) (optional): how many targets changed.
 * Returns: %FALSE with @error when @source is not editable or lacks the
 * place itself (MAT_MODEL_ERROR_NOT_EDITABLE, MAT_MODEL_ERROR_META_ABSENT). */
gboolean      mat_library_apply_to_many (MatLibrary          *self,
                                         MatMaterial         *source,
                                         MatMaterial * const *targets,
                                         guint                n_targets,
                                         const MatApply      *what,
                                         guint               *n_changed,
                                         GError             **error);

#define MAT_TYPE_BATCH (mat_batch_get_type ())

G_DECLARE_FINAL_TYPE (MatBatch, mat_batch, MAT, BATCH, GObject)

/* @leader and @others (@n_others, none of them @leader) are materials of
 * one library. Returns: (transfer full). */
MatBatch     *mat_batch_new            (MatMaterial         *leader,
                                        MatMaterial * const *others,
                                        guint                n_others);

/* Returns: (transfer none). */
MatMaterial  *mat_batch_get_leader     (MatBatch            *self);
/* Returns: (transfer none) (array length=n_others): the others. */
MatMaterial * const *mat_batch_get_others (MatBatch         *self,
                                           guint            *n_others);
/* The leader and the others. */
guint         mat_batch_get_n_materials (MatBatch           *self);

/* @what of the leader into every other (mat_library_apply_to_many),
 * one undo step. */
gboolean      mat_batch_apply          (MatBatch            *self,
                                        const MatApply      *what,
                                        GError             **error);

/* Whether some other material holds another value than the leader at
 * @what (or lacks that phase or block, or that metadata field): what
 * mat_batch_apply (@what) would change. Answered from a summary read in
 * one pass over the others, kept until the library's next step. */
gboolean      mat_batch_differs        (MatBatch            *self,
                                        const MatApply      *what);
/* The bits of attr1 in which some other differs from the leader. */
guint32       mat_batch_get_attr1_differs (MatBatch         *self);
/* Whether some other has another number of phases / of blocks, or
 * other keys in block @block (count, or any k0, k1, k2). */
gboolean      mat_batch_phase_count_differs (MatBatch       *self);
gboolean      mat_batch_block_count_differs (MatBatch       *self);
gboolean      mat_batch_keys_differ    (MatBatch            *self,
                                        guint                block);

G_END_DECLS
