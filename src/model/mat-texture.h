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
 * new Page rectangles, or their undo/redo) or the texture was renamed;
 * the properties that changed are notified before it. */
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

/* Views never make a picture of a texture (a GdkTexture, a cairo surface,
 * an OpenGL texture) with a side longer than MAT_TEXTURE_MAX_SHOWN_SIDE,
 * and never read more than MAT_TEXTURE_MAX_READ_PIXELS pixels of a level
 * to make one. */
#define MAT_TEXTURE_MAX_SHOWN_SIDE  8192u
#define MAT_TEXTURE_MAX_READ_PIXELS (8192u * 8192u)

/* How a level is shown within a size (mat_texture_get_fit). */
typedef enum {
  MAT_TEXTURE_FIT_NONE,       /* the payload does not parse, or no such level */
  MAT_TEXTURE_FIT_AS_IS,      /* the level itself */
  MAT_TEXTURE_FIT_SMALLER,    /* a smaller mip level, the first that fits */
  MAT_TEXTURE_FIT_REDUCED,    /* no level fits: the smallest, box filtered */
  MAT_TEXTURE_FIT_TOO_LARGE,  /* no level fits, and the smallest has more
                                 than MAT_TEXTURE_MAX_READ_PIXELS pixels */
} MatTextureFit;

/* How mip @level is shown in at most @max_side pixels a side (never more
 * than MAT_TEXTURE_MAX_SHOWN_SIDE): the level when it fits, else the first
 * smaller level that fits, else the smallest level reduced by whole
 * factors fx = ceil (w / @max_side), fy = ceil (h / @max_side) to
 * ceil (w / fx) x ceil (h / fy), else nothing. Decodes nothing.
 * @source_level: (out) (optional): the level the pixels come from;
 * @width, @height: (out) (optional): the size shown (0 for none). */
MatTextureFit mat_texture_get_fit      (MatTexture *self,
                                        guint       level,
                                        guint       max_side,
                                        guint      *source_level,
                                        guint      *width,
                                        guint      *height);
/* The pixels mat_texture_get_fit() describes, RGBA8, rows top to bottom.
 * A reduction is the rounded mean of each channel over each fx x fy box
 * (the last boxes of a row or column may be narrower), made a run of
 * pixels at a time (texm_decode_rgba_run), so that only the result is
 * held; the last two are kept. @fit: (out) (optional).
 * Returns: (transfer full) (nullable): %NULL for FIT_NONE and
 * FIT_TOO_LARGE. */
GBytes     *mat_texture_dup_rgba_fitted (MatTexture    *self,
                                         guint          level,
                                         guint          max_side,
                                         guint         *width,
                                         guint         *height,
                                         MatTextureFit *fit);
/* What a view says beside a picture of @fit at @width x @height:
 * "Too large to show: 65536 × 65536", "Too large to show as it is:
 * 65536 × 1, shown at 8192 × 1", %NULL when it is shown as it is.
 * Returns: (transfer full) (nullable). */
char       *mat_texture_dup_fit_note   (MatTexture    *self,
                                        MatTextureFit  fit,
                                        guint          width,
                                        guint          height);

/* The mean of the pixels of the smallest mip level (the one a box
 * filter made from all the others, when the texture has mips), RGBA8,
 * computed once: the texture's average colour, cheaply. Returns %FALSE
 * (and transparent black) when the payload does not decode or that level
 * has more than MAT_TEXTURE_MAX_READ_PIXELS pixels. */
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
/* The pixels of mip @level as the game draws them, no side over
 * @max_side (mat_texture_dup_rgba_fitted, with the alpha
 * texm_apply_draw_alpha gives for @how; a box-filtered reduction is made
 * opaque for an opaque @how and keeps its alpha otherwise). Returns:
 * (transfer full) (nullable): %NULL as mat_texture_dup_rgba_fitted. */
GBytes     *mat_texture_dup_drawn_rgba (MatTexture    *self,
                                        guint          level,
                                        guint          max_side,
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
/* Internal to the model: the texture is now called @name; notifies
 * "name" and emits "changed". */
void        _mat_texture_set_name      (MatTexture *self,
                                        const char *name);
/* Internal to the model: the texture's payload is now @payload; notifies
 * what changed and emits "changed". */
void        _mat_texture_set_payload   (MatTexture *self,
                                        GBytes     *payload,
                                        gsize       base_offset);

G_END_DECLS
