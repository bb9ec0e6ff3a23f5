/* mat-phase-table-private.h - test hooks
 *
 * The cell widgets of a row. Not part of the widget's interface: only
 * mat-phase-table.c, the tests and the benchmarks include this header.
 */
#pragma once

#include "mat-phase-table.h"

G_BEGIN_DECLS

/* Test hooks: the cell widgets of the row shown at @row, %NULL when the
 * row has no widget (not realised or scrolled away). The spin button of
 * byte @param: the raw bytes' when they are shown and @row is selected,
 * else the Power column's for p16, else %NULL.
 * Returns: (transfer none) (nullable). */
GtkSpinButton *mat_phase_table_get_spin_for_test    (MatPhaseTable *self,
                                                     guint          row,
                                                     guint          param);
GtkEntry      *mat_phase_table_get_texture_for_test (MatPhaseTable *self,
                                                     guint          row);
/* The button beside the texture entry that opens the texture picker. */
GtkButton     *mat_phase_table_get_texture_button_for_test (MatPhaseTable *self,
                                                            guint          row);
GtkButton     *mat_phase_table_get_swatch_for_test  (MatPhaseTable *self,
                                                     guint          row,
                                                     MatPhaseColour group);
/* The cell chooser beside p17 (a GtkDropDown of GtkStringObjects: "−1
 * whole texture", "cell 0: 0,0 64×64", ...); the opacity's reading beside
 * the self-light's swatch, and the button around it, which opens the
 * swatch's popover at the opacity. */
GtkDropDown   *mat_phase_table_get_cell_chooser_for_test (MatPhaseTable *self,
                                                          guint          row);
GtkLabel      *mat_phase_table_get_opacity_for_test      (MatPhaseTable *self,
                                                          guint          row);
GtkButton     *mat_phase_table_get_opacity_button_for_test (MatPhaseTable *self,
                                                            guint          row);
/* The colour popover a swatch opened, while it is shown; the spin button
 * of byte @param in it; its button to the colour chooser. */
GtkPopover    *mat_phase_table_get_colour_popover_for_test  (MatPhaseTable *self);
GtkSpinButton *mat_phase_table_get_popover_spin_for_test    (MatPhaseTable *self,
                                                             guint          param);
GtkButton     *mat_phase_table_get_popover_chooser_for_test (MatPhaseTable *self);
/* The caption under the table that explains the dimmed columns. */
GtkLabel      *mat_phase_table_get_legend_for_test       (MatPhaseTable *self);

G_END_DECLS
