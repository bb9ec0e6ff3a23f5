/* mat-material-row.h - one row of the material list: swatch, name,
 * counts, badges */
#pragma once

#include <gtk/gtk.h>

#include "mat-material.h"
#include "mat-texture-library.h"

G_BEGIN_DECLS

#define MAT_TYPE_MATERIAL_ROW (mat_material_row_get_type ())

G_DECLARE_FINAL_TYPE (MatMaterialRow, mat_material_row, MAT, MATERIAL_ROW, GtkWidget)

GtkWidget   *mat_material_row_new          (void);
MatMaterial *mat_material_row_get_material (MatMaterialRow *self);
/* Shows @material (or nothing for %NULL) and follows its changes. */
void         mat_material_row_set_material (MatMaterialRow *self,
                                            MatMaterial    *material);

/* Where phase 0's texture is found ("textures" property): the swatch is
 * then multiplied by the texture's average colour. Returns: (transfer
 * none) (nullable). */
MatTextureLibrary *mat_material_row_get_textures (MatMaterialRow    *self);
void         mat_material_row_set_textures (MatMaterialRow    *self,
                                            MatTextureLibrary *textures);

/* The swatch's colour: mat_material_get_swatch of its material, each
 * channel times the texture's average (mat_texture_get_drawn_average of
 * phase 0's texture: its alpha only where the game draws it) / 255,
 * rounded, when "textures" has that texture.
 * RGBA8 in @rgba. Returns %FALSE when it draws none (no material, or an
 * entry that is not an editable material). */
gboolean     mat_material_row_get_swatch   (MatMaterialRow *self,
                                            guint8          rgba[4]);
/* What the swatch shows (render.md 3 on the CPU: phase_light_blend):
 * the colour of mat_material_row_get_swatch at its alpha, blended with
 * the material's blend mode over a dark grey (0.28, the left half) and a
 * light grey (0.75, the right half), each opaque. Returns %FALSE when the
 * row draws no swatch. */
gboolean     mat_material_row_get_swatch_drawn (MatMaterialRow *self,
                                                guint8          over_dark[3],
                                                guint8          over_light[3]);
/* The game's emboss bump setting ("emboss-bump"): whether a lit skin's
 * texture alpha counts in the swatch (render.md 2). */
gboolean     mat_material_row_get_emboss_bump (MatMaterialRow *self);
void         mat_material_row_set_emboss_bump (MatMaterialRow *self,
                                               gboolean        emboss_bump);
/* Returns: (transfer full) (nullable): the swatch's tooltip (its colour
 * and opacity, and whether its texture's average is in it); %NULL
 * without a swatch. */
char        *mat_material_row_dup_swatch_tooltip (MatMaterialRow *self);

/* Returns: (transfer full): the entry's type as four characters
 * ("MAT0", "Texm"), non-printable bytes as '?'. */
char        *mat_material_row_dup_type_name (guint32 type_id);

/* Returns: (transfer full) (nullable): the lints of @material, one a
 * line, at most six and a count of the rest; %NULL when it has none. */
char        *mat_material_row_dup_lint_text (MatMaterial *material);

/* Returns: (transfer full) (nullable): the tooltip @badge, a child of
 * @self, shows now. */
char        *mat_material_row_dup_badge_tooltip (MatMaterialRow *self,
                                                 GtkWidget      *badge);

G_END_DECLS
