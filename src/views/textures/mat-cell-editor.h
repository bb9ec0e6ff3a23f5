/* mat-cell-editor.h - the Page rectangles of a texture, drawn over it
 *
 * Shows a texture's top level (over a checkerboard, texels enlarged
 * sharply by a whole factor when they fit, halved until they do when they
 * do not) with its Page rectangles outlined and numbered as a phase's
 * cell (p[17]) counts them: 0, 1, 2, ...
 *
 * With the mouse: a drag on empty space draws a new rectangle (appended:
 * the next number); a drag inside a rectangle moves it; only the selected
 * one has handles: a drag on one of them, or on a band along an edge
 * inside it, resizes it (next to it, away from its handles, a drag draws
 * a new one). Positions snap to the
 * grid ("grid", in texels; 0 or 1: every texel) and stay inside the
 * texture. A click selects; Delete removes the selected rectangle (the
 * later ones move down a number). Each finished drag, and each deletion,
 * is one call of mat_texture_library_set_page_rects: one undo step.
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-texture-library.h"

G_BEGIN_DECLS

#define MAT_TYPE_CELL_EDITOR (mat_cell_editor_get_type ())

G_DECLARE_FINAL_TYPE (MatCellEditor, mat_cell_editor, MAT, CELL_EDITOR, GtkWidget)

GtkWidget         *mat_cell_editor_new             (void);

/* The texture shown and the library its edits go through (the texture's
 * own). Either may be %NULL: nothing to edit. */
void               mat_cell_editor_set_texture     (MatCellEditor     *self,
                                                    MatTextureLibrary *library,
                                                    MatTexture        *texture);
/* Returns: (transfer none) (nullable) */
MatTexture        *mat_cell_editor_get_texture     (MatCellEditor     *self);

/* Property "grid": the snap step in texels (0 and 1: none). */
guint              mat_cell_editor_get_grid        (MatCellEditor     *self);
void               mat_cell_editor_set_grid        (MatCellEditor     *self,
                                                    guint              grid);

/* Property "selected": the selected rectangle, -1 for none. */
gint               mat_cell_editor_get_selected    (MatCellEditor     *self);
void               mat_cell_editor_set_selected    (MatCellEditor     *self,
                                                    gint               cell);

/* Makes the selected rectangle @rect (typed numbers): one call of
 * mat_texture_library_set_page_rects, so one undo step unless a history
 * group is open. Returns: %FALSE when none is selected, or with the
 * model's error (a rectangle outside the texture: nothing changed). */
gboolean           mat_cell_editor_set_selected_rect (MatCellEditor  *self,
                                                      const TexmRect *rect,
                                                      GError        **error);

/* Removes the selected rectangle ("cells.delete"). Returns: %FALSE when
 * none is selected, or with the model's error. */
gboolean           mat_cell_editor_delete_selected (MatCellEditor     *self,
                                                    GError           **error);

/* Property "zoom": widget pixels per texel (1/2, 1/4, ... when the
 * texture is larger than the widget). */
double             mat_cell_editor_get_zoom        (MatCellEditor     *self);
/* Where the texel corner (@tx, @ty) of the top level is drawn, in the
 * widget's coordinates. */
void               mat_cell_editor_texel_to_widget (MatCellEditor     *self,
                                                    double             tx,
                                                    double             ty,
                                                    double            *wx,
                                                    double            *wy);

G_END_DECLS
