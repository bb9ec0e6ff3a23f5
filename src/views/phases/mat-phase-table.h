/* mat-phase-table.h - the phases of a material as an editable table
 *
 * A GtkColumnView of the material's MatPhase objects: index, colour
 * swatches (diffuse, self-light with its opacity p3 in per cent,
 * specular, emissive) that open a colour picker at their colour, the
 * texture name (validated as typed; what is wrong shows in a line under
 * the table), a cell chooser for p17 with the Page rectangles of the
 * phase's texture and the power p16, labelled from mat0-fields; the
 * bytes the game never draws are dimmed. Under the table, when
 * "show-raw-bytes" is on (the phase.show-raw-bytes action, the "Raw
 * Bytes" button), p0..p17 of the selected phase as spin buttons. With a
 * texture library ("textures") the texture cell's button opens a
 * MatTexturePicker, names not in the library show a warning icon and the
 * cell chooser knows the rectangles. A toolbar adds, duplicates, removes
 * and reorders phases (the "phase.*" actions, on the selected row).
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-batch.h"
#include "mat-material.h"
#include "mat-texture-library.h"

G_BEGIN_DECLS

#define MAT_TYPE_PHASE_TABLE (mat_phase_table_get_type ())

G_DECLARE_FINAL_TYPE (MatPhaseTable, mat_phase_table, MAT, PHASE_TABLE, GtkWidget)

/* The colour groups of a phase record (formats.md 2.2), in the order of
 * Mat0ColourGroup. */
typedef enum {
  MAT_PHASE_COLOUR_DIFFUSE,   /* p4..p7 RGBA, p / 255; p7 not drawn */
  MAT_PHASE_COLOUR_AMBIENT,   /* the self-light: p0..p2 RGB / 255, p3 opacity * 0.01 */
  MAT_PHASE_COLOUR_SPECULAR,  /* p8..p11 RGBA, p / 255 */
  MAT_PHASE_COLOUR_EMISSIVE,  /* p12..p15 RGBA, p / 255 */
  MAT_PHASE_N_COLOURS
} MatPhaseColour;

GtkWidget   *mat_phase_table_new          (void);
MatMaterial *mat_phase_table_get_material (MatPhaseTable *self);
/* Shows @material (or nothing for %NULL); the widget follows the model
 * and edits it only through the model's functions. */
void         mat_phase_table_set_material (MatPhaseTable *self,
                                           MatMaterial   *material);

/* The other materials selected with the one shown (nullable): an edit
 * of a colour, the texture, the cell or a byte goes to the same place of
 * each of them in the same undo step (mat_batch_apply), Enter on a byte
 * or a texture they do not share gives it to them; the cells where they
 * hold something else have the style class "differs". Adding, removing
 * and moving phases, and a pasted phase, change the material shown only. */
MatBatch    *mat_phase_table_get_batch    (MatPhaseTable *self);
void         mat_phase_table_set_batch    (MatPhaseTable *self,
                                           MatBatch      *batch);

/* The Textures.lib the materials' texture names refer to ("textures"
 * property, %NULL when there is none): the texture picker lists it and
 * names not in it are marked missing. Returns: (transfer none) (nullable). */
MatTextureLibrary *mat_phase_table_get_textures (MatPhaseTable     *self);
void               mat_phase_table_set_textures (MatPhaseTable     *self,
                                                 MatTextureLibrary *textures);

/* The game's emboss bump setting ("emboss-bump", off by default): with
 * it off, a lit skin's textures draw opaque (render.md 2). A texture
 * cell whose texture holds alpha the game ignores (a lit skin, or a
 * format without alpha) shows an information icon with the note
 * (texm_draw_alpha_note). */
gboolean     mat_phase_table_get_emboss_bump (MatPhaseTable *self);
void         mat_phase_table_set_emboss_bump (MatPhaseTable *self,
                                              gboolean       emboss_bump);

/* Whether the raw bytes of the selected phase show under the table
 * ("show-raw-bytes" property, the phase.show-raw-bytes action). */
gboolean     mat_phase_table_get_show_raw_bytes (MatPhaseTable *self);
void         mat_phase_table_set_show_raw_bytes (MatPhaseTable *self,
                                                 gboolean       show);

/* The width the table needs to show all its columns without scrolling
 * sideways (its frame included, its margins not). */
int          mat_phase_table_get_columns_width (MatPhaseTable *self);

/* The selected row ("selected" property), GTK_INVALID_LIST_POSITION for
 * none. */
guint        mat_phase_table_get_selected (MatPhaseTable *self);
void         mat_phase_table_set_selected (MatPhaseTable *self,
                                           guint          position);

/* Writes @rgba into the colour group @group of phase @row as one
 * undoable step (mat_phase_set_params); what the colour picker calls.
 * Channels the picker cannot express (ambient alpha above 1.0, p3 > 100)
 * are kept when the colour leaves them unchanged. */
gboolean     mat_phase_table_apply_colour (MatPhaseTable  *self,
                                           guint           row,
                                           MatPhaseColour  group,
                                           const GdkRGBA  *rgba,
                                           GError        **error);

/* The colour of @group as the swatch shows it (alpha clamped to 1). */
void         mat_phase_colour_to_rgba     (const guint8   *params,
                                           MatPhaseColour  group,
                                           GdkRGBA        *rgba);

G_END_DECLS
