/* texm-alpha.h - which textures the game draws with their alpha
 * (render.md 2, "Which textures have alpha")
 *
 * A texture's alpha reaches the screen only when the engine uploads it to
 * an alpha surface: format 4444 or 8888, or a header whose flags5 carries
 * 0x1000000 or 0x2000000 (its other bits are ignored). Every other
 * texture draws at alpha 1; a palettised texture on an alpha surface has
 * index 0 clear and every other index opaque (bit 0x2000000, a 32-step
 * fade in the game, is treated as 0x1000000). And a material whose attr1
 * has bit 1 (0x02, the lit skins) loads its textures opaque unless the
 * game's "emboss bump" setting is on.
 *
 * The one place that rule lives: the preview, the comparison, the list's
 * swatches, the phase table, the texture window and the import dialog
 * all ask texm_draw_alpha(). Nothing here allocates.
 */
#pragma once

#include <glib.h>

#include "texm.h"

G_BEGIN_DECLS

/* The flags5 bits that put a texture on an alpha surface. */
#define TEXM_FLAGS5_ALPHA_SURFACE  0x1000000u
#define TEXM_FLAGS5_ALPHA_FADE     0x2000000u
/* attr1 bit 1: the lit skins, whose textures load opaque (formats.md 2.4) */
#define TEXM_ATTR1_LIT_SKIN        0x02u

typedef enum {
  TEXM_DRAW_ALPHA,            /* the texels' alpha as decoded */
  TEXM_DRAW_ALPHA_INDEX0,     /* palettised on an alpha surface: index 0
                                 at alpha 0, every other index opaque */
  TEXM_DRAW_OPAQUE_FORMAT,    /* no alpha surface (565, 556, 88, 888,
                                 palettised without the flags5 bits) */
  TEXM_DRAW_OPAQUE_LIT_SKIN,  /* an alpha surface, but the material is a
                                 lit skin and emboss bump is off */
} TexmDrawAlpha;

/* How a texture of @format with header @flags5 draws for a material with
 * @attr1, with the game's emboss bump setting @emboss_bump. A format
 * without alpha is reported as such even on a lit skin. */
TexmDrawAlpha texm_draw_alpha            (guint32          format,
                                          guint32          flags5,
                                          guint32          attr1,
                                          gboolean         emboss_bump);

/* Whether @how draws every texel at alpha 1. */
gboolean      texm_draw_alpha_is_opaque  (TexmDrawAlpha    how);

/* What @how means, as a plain note for the user (marked for translation,
 * not translated: the caller translates it). For the opaque cases: "Lit skin: the game draws this
 * texture opaque" / "Format without alpha: the game draws this texture
 * opaque". Returns: (transfer none). */
const char   *texm_draw_alpha_note       (TexmDrawAlpha    how);

/* Whether level 0 of @image holds alpha that a draw could use: a texel
 * whose decoded alpha is below 255 (4444, 88, 8888), or, palettised, a
 * texel of index 0. A texture without any has nothing for the game to
 * ignore. */
gboolean      texm_image_has_alpha       (const TexmImage *image);

/* Gives @rgba, mip @level of @image decoded by texm_decode_rgba, the
 * alpha it draws with (@how): 255 everywhere for the opaque cases, 0 for
 * the texels of index 0 and 255 for the others for TEXM_DRAW_ALPHA_INDEX0
 * (read from @image's indices; a texture that is not palettised keeps
 * its alpha), unchanged for TEXM_DRAW_ALPHA. */
void          texm_apply_draw_alpha      (const TexmImage *image,
                                          guint            level,
                                          TexmDrawAlpha    how,
                                          guint8          *rgba);

G_END_DECLS
