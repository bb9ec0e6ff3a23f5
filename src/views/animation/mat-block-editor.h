/* mat-block-editor.h - the animation blocks of a material: list, header, keys */
#pragma once

#include <gtk/gtk.h>

#include "mat-batch.h"
#include "mat-material.h"
#include "mat-timeline.h"

G_BEGIN_DECLS

#define MAT_TYPE_BLOCK_EDITOR (mat_block_editor_get_type ())

G_DECLARE_FINAL_TYPE (MatBlockEditor, mat_block_editor, MAT, BLOCK_EDITOR, GtkWidget)

/* Properties: "material" (MatMaterial*), "selected-block" (int, -1 when
 * the material has no blocks).
 * Actions: block.add, block.duplicate, block.remove (disabled at the
 * engine's limit of 19 blocks / without a block), block.zoom-in,
 * block.zoom-out, block.zoom-fit (the whole period in view). Every edit
 * goes through the model (one undo step). */
GtkWidget   *mat_block_editor_new                (void);
MatMaterial *mat_block_editor_get_material       (MatBlockEditor *self);
void         mat_block_editor_set_material       (MatBlockEditor *self,
                                                  MatMaterial    *material);
int          mat_block_editor_get_selected_block (MatBlockEditor *self);
void         mat_block_editor_set_selected_block (MatBlockEditor *self,
                                                  int             block);
/* The other materials selected with the one shown (nullable): a mode
 * chosen or an interpolation bit toggled goes to the same block of each
 * of them in the same undo step; the mode, the bits, the keys (the
 * timeline) and the blocks where they differ have the style class
 * "differs". Keys, blocks added and removed change the material shown
 * only. */
void         mat_block_editor_set_batch          (MatBlockEditor *self,
                                                  MatBatch       *batch);
/* Returns: (transfer none): the timeline of the selected block. */
MatTimeline *mat_block_editor_get_timeline       (MatBlockEditor *self);

G_END_DECLS
