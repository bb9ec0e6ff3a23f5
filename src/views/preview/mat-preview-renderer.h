/* mat-preview-renderer.h - how the game draws a material, in OpenGL
 *
 * The drawing half of the preview (render.md): a plain struct with no
 * widget in it. Every function but new, free and the pure helpers needs
 * an OpenGL 3.3 core (or OpenGL ES 3.0) context current, the one
 * init_gl ran in: MatPreview calls them from its GtkGLArea's realize,
 * render and unrealize, and a test can call them in any context.
 *
 * What a frame shows: the background (a checkerboard, black, or the
 * scene colour), then the shape with the evaluated phase as the game's
 * device material (render.md 1), lit by one white directional light per
 * vertex as Direct3D 7 fixed function does (render.md 2), textured with
 * the phase's texture and cell (render.md 4), blended with the blend
 * mode of attr1 (render.md 3), two-sided, writing depth only when the
 * ambient alpha is 1. The frame is opaque: the background is drawn at
 * alpha 1 and the material writes colour only, so what GTK composites
 * over the window is the blended colour itself.
 */
#pragma once

#include <epoxy/gl.h>
#include <glib.h>

#include "mat-preview-mesh.h"
#include "phase-eval.h"
#include "phase-light.h"
#include "texm.h"

G_BEGIN_DECLS

/* MatPreviewShape and the camera: mat-preview-mesh.h */

typedef enum {
  MAT_PREVIEW_BACKGROUND_CHECKERBOARD,
  MAT_PREVIEW_BACKGROUND_BLACK,
  MAT_PREVIEW_BACKGROUND_SCENE,      /* the scene colour */
} MatPreviewBackground;

/* The scene colour of Mission 01 (the sky's property 16): grey 40/255. */
#define MAT_PREVIEW_DEFAULT_SCENE PHASE_LIGHT_DEFAULT_SCENE

/* The geometry, for tests that compute a pixel: the camera sits at the
 * origin looking down -z; the shape's centre is mat_preview_camera_distance ()
 * in front of it (mat-preview-mesh.h); the plane (shape PLANE, rotation
 * 0) is the square -1..1 in x and y at the centre, facing the camera
 * (normal +z), its texture's top row at y = 1. The light is white and
 * directional, towards MAT_PREVIEW_LIGHT_X/Y/Z in eye space (normalized
 * when used): from the upper left, in front (phase-light.h). */
#define MAT_PREVIEW_LIGHT_X         PHASE_LIGHT_DIR_X
#define MAT_PREVIEW_LIGHT_Y         PHASE_LIGHT_DIR_Y
#define MAT_PREVIEW_LIGHT_Z         PHASE_LIGHT_DIR_Z

/* The checkerboard: dark squares and light squares of 16 pixels (times
 * the scale factor), the bottom left one dark. */
#define MAT_PREVIEW_CHECKER_DARK    0.28f
#define MAT_PREVIEW_CHECKER_LIGHT   0.40f
#define MAT_PREVIEW_CHECKER_CELL    16

typedef struct {
  /* the evaluated phase (phase_eval_at_time); has_phase FALSE: only the
   * background is drawn */
  gboolean             has_phase;
  PhaseRuntime         phase;
  /* render.md 3: 0..5; the caller maps attr1 (an unknown index is 0) */
  guint                blend_mode;
  /* TRUE: the evaluator's diffuse colour f0..f2 without lighting (the
   * "raw" view) instead of the lit colour */
  gboolean             raw;
  MatPreviewShape      shape;
  float                rotation;       /* degrees, while playing */
  /* the user's turn of the shape (degrees: yaw about the view's vertical
   * axis, then pitch about its horizontal one, applied after the
   * shape's own pose) and zoom (mat_preview_camera_distance) */
  float                yaw;
  float                pitch;
  float                zoom;
  MatPreviewBackground background;
  float                scene[3];       /* the scene colour, 0..1 */
  /* the phase's texture: @texture_key NULL draws untextured (white,
   * alpha 1). The key names the pixels: the GL texture is made once per
   * key (until clear_textures); @texture_rgba (RGBA8, rows top to
   * bottom, @texture_width x @texture_height, with the alpha the game
   * draws: texm-alpha.h) is read only then. */
  const char          *texture_key;
  GBytes              *texture_rgba;
  guint                texture_width;
  guint                texture_height;
  /* the cell: u' = uv_rect[0] + u * uv_rect[2], v' = uv_rect[1] + v *
   * uv_rect[3] (mat_preview_cell_uv_rect) */
  float                uv_rect[4];
} MatPreviewRenderState;

/* What the last frame's material draw ran with, read back from GL just
 * before the draw call (for tests). */
typedef struct {
  gboolean drawn;          /* a material was drawn */
  gboolean blend;          /* GL_BLEND enabled */
  GLint    src_rgb;        /* GL_BLEND_SRC_RGB */
  GLint    dst_rgb;        /* GL_BLEND_DST_RGB */
  gboolean alpha_test;     /* the program discards alpha < 1/255 */
  gboolean depth_test;
  gboolean depth_write;    /* GL_DEPTH_WRITEMASK */
  gboolean cull_face;      /* GL_CULL_FACE enabled */
  gboolean alpha_write;    /* GL_COLOR_WRITEMASK's alpha: never, so the
                              frame keeps the background's alpha 1 */
  gboolean textured;
  gboolean raw;
} MatPreviewDrawInfo;

typedef struct _MatPreviewRenderer MatPreviewRenderer;

/* Returns: (transfer full): a renderer without GL objects yet. */
MatPreviewRenderer *mat_preview_renderer_new        (void);
/* Frees @self; call fini_gl first while its context is current. */
void                mat_preview_renderer_free       (MatPreviewRenderer *self);

/* Compiles the shaders and builds the meshes (@es: the context is
 * OpenGL ES 3.0). Returns %FALSE with @error (GDK_GL_ERROR-like:
 * "The shader ... does not compile: LOG") when a program fails. */
gboolean            mat_preview_renderer_init_gl    (MatPreviewRenderer *self,
                                                     gboolean            es,
                                                     GError            **error);
/* Deletes every GL object. */
void                mat_preview_renderer_fini_gl    (MatPreviewRenderer *self);
gboolean            mat_preview_renderer_is_ready   (MatPreviewRenderer *self);
/* GL_MAX_TEXTURE_SIZE of the context init_gl ran in (0 before): a
 * texture with a longer side is not uploaded. */
guint               mat_preview_renderer_get_max_texture_size (MatPreviewRenderer *self);

/* Takes a copy of @state for the next render (the strings and bytes it
 * points to are kept alive by the renderer). */
void                mat_preview_renderer_set_state  (MatPreviewRenderer          *self,
                                                     const MatPreviewRenderState *state);
/* Whether the GL texture of @key is made already (set_state then needs
 * no pixels for it: texture_rgba may be %NULL). */
gboolean            mat_preview_renderer_has_texture (MatPreviewRenderer *self,
                                                      const char         *key);
/* Forgets the textures uploaded so far (their library changed). */
void                mat_preview_renderer_clear_textures (MatPreviewRenderer *self);

/* Draws one frame of @width x @height pixels into the framebuffer bound
 * as GL_DRAW_FRAMEBUFFER (it needs a depth buffer); @scale is the
 * widget's scale factor (the checkerboard's cells grow with it). */
void                mat_preview_renderer_render     (MatPreviewRenderer *self,
                                                     int                 width,
                                                     int                 height,
                                                     int                 scale);

/* Reads @width x @height pixels back from the bound framebuffer.
 * Returns: (transfer full): RGBA8, rows top to bottom. */
GBytes             *mat_preview_renderer_read_pixels (MatPreviewRenderer *self,
                                                      int                 width,
                                                      int                 height);
/* The state of the last render's material draw. */
void                mat_preview_renderer_get_draw_info (MatPreviewRenderer *self,
                                                        MatPreviewDrawInfo *info);

/* ---- pure helpers (no GL) --------------------------------------------- */

/* The GL blend factors of blend mode @mode (render.md 3: 0 ONE/ZERO,
 * 1 SRC_ALPHA/ZERO, 2 SRC_ALPHA/ONE, 3 ZERO/SRC_COLOR, 4 SRC_ALPHA/
 * ONE_MINUS_SRC_ALPHA, 5 DST_COLOR/SRC_COLOR) and whether the alpha test
 * is on; a mode past 5 is drawn as 0. */
void                mat_preview_blend_factors       (guint     mode,
                                                     GLenum   *src,
                                                     GLenum   *dst,
                                                     gboolean *alpha_test);

/* The UV rectangle of cell @cell of @image (render.md 4): Page rect c =
 * (x, w, y, h) gives offset (x/W, y/H) and size (w/W, h/H); cell -1, no
 * image, or a cell past the table gives the whole texture (0, 0, 1, 1).
 * Returns %FALSE only for a cell past the table (c >= the number of
 * rects, or any c >= 0 without a Page chunk): a lint. */
gboolean            mat_preview_cell_uv_rect        (const TexmImage *image,
                                                     gint32           cell,
                                                     float            rect[4]);

/* The device's specular exponent: 1 << (power & 31) as the engine's
 * x86 shift gives it (a 32-bit int: power 31 gives a negative number). */
float               mat_preview_specular_exponent   (float            power);

G_END_DECLS
