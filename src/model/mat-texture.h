/* mat-texture.h - one Texm texture of a texture library */
#pragma once

#include <glib-object.h>

#include "texm.h"
#include "texm-alpha.h"

G_BEGIN_DECLS

#define MAT_TYPE_TEXTURE (mat_texture_get_type ())

G_DECLARE_FINAL_TYPE (MatTexture, mat_texture, MAT, TEXTURE, GObject)

/* Properties "name", "format", "width", "height", "mip-count",
 * "page-rects", "error" (a parse error, %NULL when the payload is valid).
 * Signal "changed": the payload was replaced (an import over the texture,
 * new Page rectangles, or their undo/redo); the properties that changed
 * are notified before it. */
const char *mat_texture_get_name       (MatTexture *self);
guint       mat_texture_get_format     (MatTexture *self);
guint       mat_texture_get_width      (MatTexture *self);
guint       mat_texture_get_height     (MatTexture *self);
guint       mat_texture_get_mip_count  (MatTexture *self);
guint       mat_texture_get_page_rects (MatTexture *self);
const char *mat_texture_get_error      (MatTexture *self);
/* Returns: (transfer none) (nullable): the parsed payload. */
const TexmImage *mat_texture_get_image (MatTexture *self);

/* The Page rectangles (formats.md 3), in the order a phase's cell (p[17])
 * numbers them. @has_page: (out) (optional): whether the payload has a
 * Page chunk at all (it may have one with no rectangles).
 * Returns: (transfer none) (nullable): @n_rects rectangles. */
const TexmRect *mat_texture_get_rects  (MatTexture *self,
                                        guint      *n_rects,
                                        gboolean   *has_page);
/* Returns: (transfer none) (nullable): the payload as it is now. */
GBytes     *mat_texture_get_payload    (MatTexture *self);

/* The pixels of mip @level as RGBA8 (rows top to bottom), decoded on first
 * use and kept for level 0. Returns: (transfer full) (nullable): %NULL
 * when the payload does not parse or the level does not exist. */
GBytes     *mat_texture_dup_rgba       (MatTexture *self,
                                        guint       level,
                                        guint      *width,
                                        guint      *height);

/* The mean of the pixels of the smallest mip level (the one a box
 * filter made from all the others, when the texture has mips), RGBA8,
 * computed once: the texture's average colour, cheaply. Returns %FALSE
 * (and transparent black) when the payload does not decode. */
gboolean    mat_texture_get_average    (MatTexture *self,
                                        guint8      rgba[4]);

/* How the game draws this texture's alpha for a material with @attr1
 * (texm_draw_alpha of its header, render.md 2); TEXM_DRAW_ALPHA when the
 * payload does not parse. */
TexmDrawAlpha mat_texture_draw_alpha   (MatTexture *self,
                                        guint32     attr1,
                                        gboolean    emboss_bump);
/* Whether level 0 holds alpha a draw could use (texm_image_has_alpha),
 * computed once per payload. */
gboolean    mat_texture_has_alpha      (MatTexture *self);
/* The pixels of mip @level as the game draws them (mat_texture_dup_rgba
 * with the alpha texm_apply_draw_alpha gives for @how). Returns:
 * (transfer full) (nullable): %NULL as mat_texture_dup_rgba. */
GBytes     *mat_texture_dup_drawn_rgba (MatTexture    *self,
                                        guint          level,
                                        TexmDrawAlpha  how,
                                        guint         *width,
                                        guint         *height);

/* mat_texture_get_average with the alpha the game draws (@how): 255 when
 * opaque, the share of texels that are not index 0 for a keyed
 * palettised texture. */
gboolean    mat_texture_get_drawn_average (MatTexture    *self,
                                           TexmDrawAlpha  how,
                                           guint8         rgba[4]);

/* Internal to the model: made by MatTextureLibrary. */
MatTexture *_mat_texture_new           (const char *name,
                                        GBytes     *payload,
                                        gsize       base_offset);
/* Internal to the model: the texture's payload is now @payload; notifies
 * what changed and emits "changed". */
void        _mat_texture_set_payload   (MatTexture *self,
                                        GBytes     *payload,
                                        gsize       base_offset);

G_END_DECLS
