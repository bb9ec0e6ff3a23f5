/* mat-model-entry.h - one model of a model archive: a MESH member and
 * the WEAR member of its stem, or a WEAR member alone
 *
 * models.md 1: a model is the MESH member "stem.msh" of an archive; its
 * material table is the WEAR member "stem.wea" of the same archive (names
 * compared case-insensitively). A MESH without one draws with DEFAULT; a
 * WEAR without a MESH is a material table whose users are not drawn
 * (a terrain's Land1.wea, sky.wea). An entry is one of the three.
 *
 * The entry shows its archive's state now: its wear table follows every
 * WEAR edit of the archive, its undo and its redo. Properties (read-only,
 * notified when they change): "stem", "mesh-member", "wear-member"
 * (strings, UTF-8; the members nullable) and "n-rows" (the material rows
 * of the wear). Signal "changed": the wear table was replaced (an edit,
 * its undo or redo, or a save that moved the member); what
 * mat_model_entry_get_wear() returned before is gone then.
 */
#pragma once

#include <glib-object.h>

#include "msh.h"
#include "wear.h"

#include "mat-archive.h"

G_BEGIN_DECLS

#define MAT_TYPE_MODEL_ENTRY (mat_model_entry_get_type ())

G_DECLARE_FINAL_TYPE (MatModelEntry, mat_model_entry, MAT, MODEL_ENTRY, GObject)

/* Returns: (transfer none): the member's name without its extension
 * ("box" for box.msh). */
const char      *mat_model_entry_get_stem        (MatModelEntry *self);
/* Returns: (transfer none) (nullable): the MESH member's name, %NULL for
 * a table without a model. */
const char      *mat_model_entry_get_mesh_member (MatModelEntry *self);
/* Returns: (transfer none) (nullable): the WEAR member's name, %NULL for
 * a model without a .wea. */
const char      *mat_model_entry_get_wear_member (MatModelEntry *self);
/* Returns: (transfer none) (nullable): the archive the entry belongs to,
 * a MatModelArchive; %NULL once that is gone. */
MatArchive      *mat_model_entry_get_archive     (MatModelEntry *self);

/* Returns: (transfer none) (nullable): the wear table as it is now
 * (offsets in messages absolute in the archive's file as last loaded or
 * saved), %NULL without a WEAR member. Valid until "changed". */
const WearTable *mat_model_entry_get_wear        (MatModelEntry *self);
/* The material rows of the wear (0 without one). */
guint            mat_model_entry_get_n_rows      (MatModelEntry *self);
/* Returns: (transfer none) (nullable): the material name of row @row
 * (UTF-8, "" for a row with no name), %NULL past the rows. */
const char      *mat_model_entry_get_row_name    (MatModelEntry *self,
                                                  guint          row);

/* Returns: (transfer none) (nullable): the MESH payload, %NULL for a
 * table without a model. */
GBytes          *mat_model_entry_get_mesh        (MatModelEntry *self);
/* Reads the MESH (msh_model_read: never fails; errors and lints in its
 * problems, naming the member and absolute offsets).
 * Returns: (transfer full) (nullable): the model, %NULL for a table
 * without a model. */
MshModel        *mat_model_entry_read_mesh       (MatModelEntry *self);

G_END_DECLS
