/* mat-history.h - undo/redo of model commands
 *
 * Every edit of the model is one command pushed here by the model's own
 * functions; views never push commands, they call the model and bind
 * their undo/redo actions to can-undo / can-redo.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define MAT_TYPE_HISTORY (mat_history_get_type ())

G_DECLARE_FINAL_TYPE (MatHistory, mat_history, MAT, HISTORY, GObject)

gboolean    mat_history_get_can_undo   (MatHistory *self);
gboolean    mat_history_get_can_redo   (MatHistory *self);
/* Returns: (transfer none) (nullable): the label of the step undo/redo
 * would revert/repeat, translated. */
const char *mat_history_get_undo_label (MatHistory *self);
const char *mat_history_get_redo_label (MatHistory *self);

/* Returns: %TRUE when a step was undone / redone. Either closes an open
 * group first. */
gboolean    mat_history_undo           (MatHistory *self);
gboolean    mat_history_redo           (MatHistory *self);

/* Every command between begin and the matching end is one undoable step
 * (a drag, a spin). Groups nest; the outermost label wins; @label may be
 * %NULL (the first command's label is used). Within a group, consecutive
 * changes of the same field merge. */
void        mat_history_begin_group    (MatHistory *self,
                                        const char *label);
void        mat_history_end_group      (MatHistory *self);
gboolean    mat_history_in_group       (MatHistory *self);

/* Number of undoable / redoable steps. */
guint       mat_history_get_n_undo     (MatHistory *self);
guint       mat_history_get_n_redo     (MatHistory *self);

G_END_DECLS
