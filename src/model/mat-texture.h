/* mat-texture.h - one Texm texture of a texture library */
#pragma once

#include <glib-object.h>

#include "texm.h"

G_BEGIN_DECLS

#define MAT_TYPE_TEXTURE (mat_texture_get_type ())

G_DECLARE_FINAL_TYPE (MatTexture, mat_texture, MAT, TEXTURE, GObject)

/* Properties "name", "format", "width", "height", "mip-count",
 * "page-rects", "error" (a parse error, %NULL when the payload is valid). */
const char *mat_texture_get_name       (MatTexture *self);
guint       mat_texture_get_format     (MatTexture *self);
guint       mat_texture_get_width      (MatTexture *self);
guint       mat_texture_get_height     (MatTexture *self);
guint       mat_texture_get_mip_count  (MatTexture *self);
guint       mat_texture_get_page_rects (MatTexture *self);
const char *mat_texture_get_error      (MatTexture *self);
/* Returns: (transfer none) (nullable): the parsed payload. */
const TexmImage *mat_texture_get_image (MatTexture *self);

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

/* Internal to the model: made by MatTextureLibrary. */
MatTexture *_mat_texture_new           (const char *name,
                                        GBytes     *payload,
                                        gsize       base_offset);

G_END_DECLS
