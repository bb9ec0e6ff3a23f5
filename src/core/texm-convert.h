/* texm-convert.h - pictures to Texm payloads (formats.md section 3)
 *
 * What a modder's picture (RGBA8, rows top to bottom) goes through to
 * become a texture the game loads:
 *
 * - Size: each side a power of two from 1 to TEXM_MAX_SIDE. The largest
 *   retail texture size is not documented; 1024 is a limit every Direct3D 7
 *   card of the game's time took.
 * - Alpha: 565, 556, 888 and 0 have no alpha (the palette's fourth byte is
 *   not alpha); a picture with any alpha other than 255 is refused for them
 *   unless the caller drops the alpha (the colour is then kept as stored,
 *   alpha ignored). 4444, 88 and 8888 keep alpha.
 * - Channels: 8888 and 888 store 8 bits exactly. 565, 556 and 4444 round
 *   each channel to the nearest value of its grid (the bit-replicated
 *   values the decoder expands to; ties, which fall only where the grid's
 *   steps are uneven, go to the side nearer on the linear scale
 *   v * max / 255), or, with dithering, diffuse the error Floyd-Steinberg
 *   fashion (see texm_encode). 88 stores the luminance
 *   (77 R + 150 G + 29 B + 128) >> 8, exact for grey pictures.
 * - Palette (format 0): index 0 is left unused, as in the retail data, so
 *   at most 255 colours (indices 1..255). A picture with at most 255
 *   distinct colours gets exactly those (sorted by 0xRRGGBB, no error at
 *   all); more colours are quantized with libimagequant. Each entry is
 *   written B, G, R, 0 (formats.md 3: the memory order of 888 and 8888;
 *   the fourth byte is not alpha), entry 0 as zeros, and entries after the
 *   last colour repeat it, so that mapping to the palette as a fixed one
 *   (searching 1..255) finds the same indices. A caller may also give a
 *   fixed palette, as a payload stores it; its bytes are written as they
 *   are. Pixels map to the nearest entry (squared RGB distance, the
 *   lowest index on a tie).
 * - Mip chain: level k is max (1, w >> k) x max (1, h >> k); each texel is
 *   the truncated average of the level-0 block under it, per channel:
 *   floor (sum / count), the block being 2^k x 2^k texels clipped to the
 *   picture (a side shorter than 2^k averages over the whole side). Every
 *   level is computed from level 0 directly, then converted like level 0.
 * - Header: flags4 = 32 when the texture has more than one level, else 0;
 *   flags5 = 0, unk6 = 0, as a new texture has them (formats.md 3); a
 *   texture that replaces another keeps the other's flags5 and unk6
 *   (texm_keep_replaced_flags in texm.h: of flags5 the game reads the
 *   alpha-surface bits, render.md 2).
 */
#pragma once

#include <glib.h>

#include "texm.h"

G_BEGIN_DECLS

#define TEXM_ENCODE_ERROR (texm_encode_error_quark ())

typedef enum {
  TEXM_ENCODE_ERROR_SIZE,      /* a side not a power of two, or too large */
  TEXM_ENCODE_ERROR_ALPHA,     /* alpha other than 255 for a format without alpha */
  TEXM_ENCODE_ERROR_FORMAT,    /* not one of the Texm formats */
  TEXM_ENCODE_ERROR_MIPS,      /* more levels than the chain has */
  TEXM_ENCODE_ERROR_CELL,      /* a Page cell outside the picture */
  TEXM_ENCODE_ERROR_QUANTIZE,  /* libimagequant failed */
  TEXM_ENCODE_ERROR_NAME,      /* a texture name against formats.md 2.1 */
} TexmEncodeError;

GQuark texm_encode_error_quark (void);

#define TEXM_MAX_SIDE           1024
/* Palette suffix indices the engine's palette bank holds (formats.md 2.1) */
#define TEXM_PALETTE_BANK_SIZE  286
/* The bit flags4 carries on textures with a mip chain */
#define TEXM_FLAGS4_MIPMAPPED   32u
/* Texture names live in a 16-byte field: 15 bytes and a NUL */
#define TEXM_NAME_MAX_BYTES     15

typedef struct {
  guint32         format;      /* 0, 565, 556, 4444, 88, 888 or 8888 */
  guint           mip_count;   /* 0: the whole chain down to 1x1 */
  gboolean        dither;      /* Floyd-Steinberg (565, 556, 4444, 0) */
  gboolean        drop_alpha;  /* allow alpha to be lost (565, 556, 888, 0) */
  const guint8   *palette;     /* format 0: a fixed palette as a payload
                                  stores it (256 x B, G, R, X: 1024 bytes,
                                  written as given) to map to instead of
                                  building one; %NULL builds one */
  gboolean        page;        /* write a Page chunk (even with 0 cells) */
  const TexmRect *rects;       /* the Page cells */
  guint           n_rects;
} TexmEncodeOptions;

/* Defaults: @format, the full chain, no dithering, alpha kept, no Page. */
void            texm_encode_options_init   (TexmEncodeOptions *options,
                                            guint32            format);

/* What an encode produced, for the caller to show. */
typedef struct {
  guint    width;
  guint    height;
  guint    mip_count;
  gsize    size;          /* payload bytes */
  gboolean exact;         /* level 0 decodes to the picture exactly (the
                             alpha aside when the format has none) */
  guint    max_error;     /* largest channel difference of level 0 */
  guint    n_colours;     /* format 0: palette entries in use; else 0 */
  gboolean quantized;     /* format 0: libimagequant chose the palette */
} TexmEncodeResult;

/* Encodes a picture of @width x @height RGBA8 pixels, @stride bytes per
 * row (0: 4 * @width), with @options. On failure returns %NULL with a
 * TEXM_ENCODE_ERROR that names what was found and what was expected.
 *
 * Dithering (Floyd-Steinberg): pixels in rows top to bottom, each row left
 * to right; per channel the target is t = 16 v + e in sixteenths of a
 * step (e the error diffused into the pixel), clamped to 0..4080; the
 * stored value is the grid value nearest to t; the error t - 16 g goes
 * 7/16 right, 3/16 down-left, 5/16 down and the rest (so nothing is lost
 * to rounding) down-right, each share truncated toward zero; shares that
 * fall outside the picture are dropped. For format 0 the same is done on
 * the three colour channels with the nearest palette colour (squared
 * distance, the lowest index on a tie); level 0 of a quantized palette is
 * dithered by libimagequant itself.
 *
 * Returns: (transfer full): the payload, or %NULL. */
GBytes         *texm_encode                (const guint8            *rgba,
                                            guint                    width,
                                            guint                    height,
                                            gsize                    stride,
                                            const TexmEncodeOptions *options,
                                            TexmEncodeResult        *result,
                                            GError                 **error);

/* Level 0 as the game will show it after texm_encode with the same
 * arguments (the same pixels texm_decode_rgba gives for level 0), without
 * building the rest of the chain: for a live preview.
 * Returns: (transfer full): 4 * @width * @height bytes, or %NULL. */
guint8         *texm_encode_preview        (const guint8            *rgba,
                                            guint                    width,
                                            guint                    height,
                                            gsize                    stride,
                                            const TexmEncodeOptions *options,
                                            TexmEncodeResult        *result,
                                            GError                 **error);

/* The payload size texm_encode writes for these parameters (@mip_count 0:
 * the full chain); 0 when the format is not valid. */
gsize           texm_encoded_size          (guint32                  format,
                                            guint                    width,
                                            guint                    height,
                                            guint                    mip_count,
                                            gboolean                 page,
                                            guint                    n_rects);

/* Levels down to 1x1: 1 + log2 (max (width, height)). */
guint           texm_full_mip_count        (guint                    width,
                                            guint                    height);

gboolean        texm_format_has_alpha      (guint32                  format);

/* Each side a power of two in 1..TEXM_MAX_SIDE. */
gboolean        texm_check_picture_size    (guint                    width,
                                            guint                    height,
                                            GError                 **error);

/* How a picture whose sides are not powers of two is brought to the
 * next power of two up a side (texm_fit_power_of_two). */
typedef enum {
  TEXM_RESIZE_NONE,   /* not at all: the encoder refuses it */
  TEXM_RESIZE_SCALE,  /* scaled up, bilinear */
  TEXM_RESIZE_PAD,    /* the picture at the top left, its last column and
                         row repeated into the new texels */
} TexmResize;

/* The smallest power of two at or above @side; 0 when that is past
 * TEXM_MAX_SIDE or @side is 0. */
guint           texm_next_power_of_two     (guint                    side);

/* The picture (@width x @height RGBA8, @stride bytes a row, 0: 4 *
 * @width; each side 1..TEXM_MAX_SIDE) brought to the next power of two
 * a side, @out_width x @out_height (a side already a power of two stays
 * as it is), rows top to bottom, 4 * @out_width bytes a row:
 *
 * - TEXM_RESIZE_SCALE: bilinear. Output texel x samples the source at
 *   sx = (x + 1/2) w / W - 1/2 (clamped to 0), in integer arithmetic:
 *   n = (2x + 1) w - W; x0 = n div 2W, the weight of x0 + 1 is
 *   fx = round (256 (n mod 2W) / 2W) (256 moves to the next texel), the
 *   texel past the last is the last; the same for y. Each of the four
 *   texels has the weight (256 - fx or fx) (256 - fy or fy), 65536 in
 *   all. Alpha is round (sum w a / 65536); a colour channel is weighted
 *   by alpha too, round (sum w a c / sum w a), so that transparent texels
 *   lend no colour (sum w c / 65536, rounded, when all four are
 *   transparent). A side that is already a power of two is copied.
 * - TEXM_RESIZE_PAD: texel (x, y) is the source's (min (x, w - 1),
 *   min (y, h - 1)).
 * - TEXM_RESIZE_NONE: a copy, when both sides are powers of two.
 *
 * A side past TEXM_MAX_SIDE (or 0) fails with TEXM_ENCODE_ERROR_SIZE,
 * as does TEXM_RESIZE_NONE of a side that is no power of two.
 * Returns: (transfer full): 4 * @out_width * @out_height bytes, or %NULL. */
guint8         *texm_fit_power_of_two      (const guint8            *rgba,
                                            guint                    width,
                                            guint                    height,
                                            gsize                    stride,
                                            TexmResize               how,
                                            guint                   *out_width,
                                            guint                   *out_height,
                                            GError                 **error);

/* Every cell inside the picture with a positive size. */
gboolean        texm_check_cells           (guint                    width,
                                            guint                    height,
                                            const TexmRect          *rects,
                                            guint                    n_rects,
                                            GError                 **error);

/* A name for a new texture (formats.md 2.1): UTF-8 that CP1251 holds in
 * at most 15 bytes, with a '.', whose palette suffix index is below
 * TEXM_PALETTE_BANK_SIZE. @field (16 bytes, may be %NULL) receives the
 * CP1251 bytes, zero-filled. */
gboolean        texm_check_texture_name    (const char              *utf8,
                                            guint8                  *field,
                                            GError                 **error);

typedef enum {
  TEXM_ALPHA_NONE,      /* every alpha is 255 */
  TEXM_ALPHA_BINARY,    /* only 0 and 255 */
  TEXM_ALPHA_GRADED,    /* other values too */
} TexmAlphaKind;

TexmAlphaKind   texm_picture_alpha         (const guint8            *rgba,
                                            guint                    width,
                                            guint                    height,
                                            gsize                    stride);

/* A format for a picture: 565 when it is opaque; with alpha, 4444 unless
 * 4444 would visibly lose it - more than 16 distinct alpha values or more
 * than 4096 distinct colours (all that 4 bits per channel can hold) - then
 * 8888. Binary alpha follows the same rule: 4444 keeps 0 and 255 exactly
 * at half the size of 8888. */
guint32         texm_suggest_format        (const guint8            *rgba,
                                            guint                    width,
                                            guint                    height,
                                            gsize                    stride);

/* The low-level builder behind texm_encode_rgba (texm.h): no size, alpha
 * or cell checks, any size; format 0 maps to @palette (indices 1..255).
 * Returns: (transfer full). */
GBytes         *texm_encode_raw            (guint32                  format,
                                            guint                    width,
                                            guint                    height,
                                            guint                    mip_count,
                                            const guint8            *rgba,
                                            const guint8            *palette,
                                            gboolean                 dither,
                                            gboolean                 page,
                                            const TexmRect          *rects,
                                            guint                    n_rects);

G_END_DECLS
