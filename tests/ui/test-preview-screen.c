/* test-preview-screen.c - the preview as it is on the screen
 *
 * What a modder sees is the window, not the GL framebuffer: these tests
 * read the pixels back from the X server (the composited window, as
 * `import -window root` reads it) and, as a cross-check, from the
 * toplevel's snapshot drawn by its own renderer, and compare them with
 * render.md's formulas computed here from the evaluated phase, the
 * background and the blend factors: every blend mode (the five of the
 * blend indices, an unknown index, and mode 1 through the renderer), at
 * opacity 100 % and 50 %, over black, the checkerboard and the scene
 * colour, lit and unlit, untextured and with a cut-out texture (alpha 0
 * in half of its texels), as a plain material and as a lit skin (attr1
 * bit 1: its textures drawn opaque unless "emboss bump" is on), and the
 * texture formats whose alpha the game ignores.
 *
 * Run twice by meson: with the GSK renderer GTK picks (OpenGL) and with
 * GSK_RENDERER=cairo (what the editor picks on a software rasteriser).
 *
 * Environment: GSETTINGS_SCHEMA_DIR (the compiled schema), optional
 * SCREENSHOT_DIR for the PNG of a failing frame.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <epoxy/gl.h>
#include <gtk/gtk.h>

#include "mat-application.h"
#include "mat-compare-view.h"
#include "mat-library.h"
#include "mat-preview-private.h"
#include "mat-preview-renderer.h"
#include "mat-texture-library.h"
#include "phase-eval.h"
#include "phase-light.h"
#include "texm.h"
#include "test-support.h"
#include "ui-screen.h"
#include "ui-support.h"

#define VIEW_WIDTH  320
#define VIEW_HEIGHT 240
#define TYPE_MAT0   0x3054414Du
#define TYPE_TEXM   0x6D786554u
#define TOLERANCE   2

/* ---- the materials and textures, byte by byte -------------------------- */

/* Self-light (30, 20, 10), opacity p3 (set by each case), diffuse
 * (150, 100, 200), no specular, power 0, the whole texture (cell -1). */
#define PHASE_BYTES(opacity) \
  { 30, 20, 10, opacity, 150, 100, 200, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255 }

typedef struct {
  const char *name;
  const char *texture;
} MaterialSpec;

/* The previews side by side: untextured, textured with the cut-out, the
 * lit skin with the same texture (attr1 | 0x02), and textures whose
 * alpha the game ignores (88) or keys on index 0 (a palettised texture on
 * an alpha surface). */
enum { FLAT, CUT, SKIN, GREY88, KEYED, N_VIEWS };

static const MaterialSpec materials[N_VIEWS] = {
  { "FLAT", "" },
  { "CUT", "CUTOUT" },
  { "SKIN", "CUTOUT" },
  { "GREY", "GREY88" },
  { "KEYED", "KEYED" },
};

static GBytes *
materials_archive (void)
{
  g_autoptr(GPtrArray) payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  TestEntrySpec specs[N_VIEWS] = { { 0 } };
  static const guint8 p[18] = PHASE_BYTES (100);

  for (guint i = 0; i < N_VIEWS; i++)
    {
      GByteArray *a = g_byte_array_new ();
      GBytes *payload;

      test_put_u16 (a, 1);   /* phases */
      test_put_u16 (a, 0);   /* blocks */
      test_put_u8 (a, 255);  /* attr2 6: metaA..D */
      test_put_u8 (a, 255);
      test_put_u32 (a, 0x3F800000u);
      test_put_u32 (a, 0);
      test_put_phase (a, p, materials[i].texture);
      payload = g_byte_array_free_to_bytes (a);
      g_ptr_array_add (payloads, payload);
      specs[i].type_id = TYPE_MAT0;
      specs[i].attr2 = 6;
      specs[i].name = materials[i].name;
      specs[i].payload = g_bytes_get_data (payload, &specs[i].size);
    }
  return test_build_archive (specs, N_VIEWS, TRUE);
}

/* 64 x 64 texels: the left half (u < 0.5) clear, the right half opaque. */
#define TEX_SIDE 64
static const guint8 clear_texel[4] = { 255, 0, 255, 0 };      /* magenta, would show */
static const guint8 solid_texel[4] = { 60, 220, 140, 255 };

static void
texm_header (GByteArray *a,
             guint32     format,
             guint32     flags5)
{
  test_put_u32 (a, TEXM_MAGIC);
  test_put_u32 (a, TEX_SIDE);
  test_put_u32 (a, TEX_SIDE);
  test_put_u32 (a, 1);        /* one level */
  test_put_u32 (a, 0);        /* flags4 */
  test_put_u32 (a, flags5);
  test_put_u32 (a, 0);        /* unk6 */
  test_put_u32 (a, format);
}

/* The cut-out in 8888: A8 R8 G8 B8 in a little-endian u32. */
static GBytes *
cutout_8888 (void)
{
  GByteArray *a = g_byte_array_new ();

  texm_header (a, 8888, 0);
  for (guint y = 0; y < TEX_SIDE; y++)
    for (guint x = 0; x < TEX_SIDE; x++)
      {
        const guint8 *t = x < TEX_SIDE / 2 ? clear_texel : solid_texel;

        test_put_u32 (a, (guint32) t[3] << 24 | (guint32) t[0] << 16 | (guint32) t[1] << 8 | t[2]);
      }
  return g_byte_array_free_to_bytes (a);
}

/* 88: luminance in the high byte, alpha in the low one; the left half
 * grey 200 at alpha 0, the right half grey 90 at alpha 255. */
static GBytes *
grey_88 (void)
{
  GByteArray *a = g_byte_array_new ();

  texm_header (a, 88, 0);
  for (guint y = 0; y < TEX_SIDE; y++)
    for (guint x = 0; x < TEX_SIDE; x++)
      test_put_u16 (a, x < TEX_SIDE / 2 ? (200 << 8) | 0 : (90 << 8) | 255);
  return g_byte_array_free_to_bytes (a);
}

/* Palettised on an alpha surface (flags5 0x1000000): the left half
 * index 0, the right half index 1; both entries grey, so the order of the
 * palette's channels does not matter here. */
static GBytes *
keyed_palette (void)
{
  GByteArray *a = g_byte_array_new ();

  texm_header (a, 0, 0x1000000u);
  for (guint i = 0; i < 256; i++)
    {
      guint8 grey = i == 0 ? 250 : i == 1 ? 110 : 0;

      test_put_u8 (a, grey);
      test_put_u8 (a, grey);
      test_put_u8 (a, grey);
      test_put_u8 (a, 0);
    }
  for (guint y = 0; y < TEX_SIDE; y++)
    for (guint x = 0; x < TEX_SIDE; x++)
      test_put_u8 (a, x < TEX_SIDE / 2 ? 0 : 1);
  return g_byte_array_free_to_bytes (a);
}

static MatTextureLibrary *
texture_library (void)
{
  g_autoptr(GBytes) cutout = cutout_8888 ();
  g_autoptr(GBytes) grey = grey_88 ();
  g_autoptr(GBytes) keyed = keyed_palette ();
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(GError) error = NULL;
  TestEntrySpec specs[3] = { { 0 } };
  MatTextureLibrary *textures;

  specs[0].name = "CUTOUT";
  specs[0].payload = g_bytes_get_data (cutout, &specs[0].size);
  specs[1].name = "GREY88";
  specs[1].payload = g_bytes_get_data (grey, &specs[1].size);
  specs[2].name = "KEYED";
  specs[2].payload = g_bytes_get_data (keyed, &specs[2].size);
  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    specs[i].type_id = TYPE_TEXM;
  archive = test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
  textures = mat_texture_library_new_from_bytes (archive, &error);
  g_assert_no_error (error);
  g_assert_nonnull (textures);
  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    g_assert_null (mat_texture_get_error (mat_texture_library_lookup (textures, specs[i].name)));
  return textures;
}

/* What the texture holds at u (the left or the right half), as decoded
 * by formats.md 3, and its alpha as render.md 2 draws it for @view. */
static void
texel_of (guint    view,
          gboolean right,
          gboolean emboss_bump,
          float    out[4])
{
  switch (view)
    {
    case FLAT:
      out[0] = out[1] = out[2] = out[3] = 1;
      return;
    case CUT:
    case SKIN:
      for (guint c = 0; c < 4; c++)
        out[c] = (right ? solid_texel : clear_texel)[c] / 255.0f;
      /* a lit skin loads its textures opaque, unless emboss bump */
      if (view == SKIN && !emboss_bump)
        out[3] = 1;
      return;
    case GREY88:
      out[0] = out[1] = out[2] = (right ? 90 : 200) / 255.0f;
      out[3] = 1;                       /* 88 is no alpha surface */
      return;
    case KEYED:
      out[0] = out[1] = out[2] = (right ? 110 : 250) / 255.0f;
      out[3] = right ? 1 : 0;           /* index 0 clear */
      return;
    default:
      g_assert_not_reached ();
    }
}

/* ---- render.md, computed here ------------------------------------------ */

/* The plane's distance and its size on screen (mat-preview-mesh.h): the
 * field of view spans the shorter side; the bounding circle of the plane
 * (radius √2) spans MAT_PREVIEW_CAMERA_FILL of the half field. */
static double
plane_px (double offset)
{
  double half_fov = MAT_PREVIEW_CAMERA_FOV / 2.0 * G_PI / 180.0;
  double fit = MAT_PREVIEW_PLANE_HALF * G_SQRT2 / sin (half_fov * MAT_PREVIEW_CAMERA_FILL);
  double distance = MAX (MAT_PREVIEW_CAMERA_DISTANCE, fit);

  g_assert_cmpfloat_with_epsilon (mat_preview_camera_distance (MAT_PREVIEW_SHAPE_PLANE, 1.0f),
                                  distance, 1e-4);
  return offset / tan (half_fov) / distance * MIN (VIEW_WIDTH, VIEW_HEIGHT) / 2.0;
}

/* The colour of the material (render.md 2), texture white: lit by the
 * one white light on the plane facing the camera (N·L the light's z; no
 * specular in these phases), or the diffuse colour in the raw view. */
static void
material_colour (const PhaseRuntime *v,
                 const float         scene[3],
                 gboolean            raw,
                 float               out[3])
{
  float l[3] = { MAT_PREVIEW_LIGHT_X, MAT_PREVIEW_LIGHT_Y, MAT_PREVIEW_LIGHT_Z };
  float n_dot_l = l[2] / sqrtf (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);

  for (guint c = 0; c < 3; c++)
    out[c] = raw ? CLAMP (v->f[c], 0.0f, 1.0f)
                 : CLAMP (scene[c] + v->f[4 + c] + v->f[c] * n_dot_l, 0.0f, 1.0f);
}

/* A texel drawn over @dst (render.md 2 and 3): rgb = texture × colour,
 * alpha = texture alpha × ambient alpha; the alpha test (alpha >= 1/255)
 * in modes 1..5; then the mode's factors; a mode past 5 draws as 0. The
 * screen shows the result, opaque. */
static void
drawn_pixel (guint        mode,
             const float  colour[3],
             const float  texel[4],
             float        ambient_alpha,
             const float  dst[3],
             float        out[3])
{
  float alpha = texel[3] * CLAMP (ambient_alpha, 0.0f, 1.0f);

  if (mode > 5)
    mode = 0;
  for (guint c = 0; c < 3; c++)
    {
      float s = texel[c] * colour[c], d = dst[c], r;

      if (mode != 0 && alpha < 1.0f / 255.0f)
        r = d;                                             /* dropped */
      else
        switch (mode)
          {
          case 1: r = s * alpha; break;                    /* SRCALPHA, ZERO */
          case 2: r = s * alpha + d; break;                /* SRCALPHA, ONE */
          case 3: r = d * s; break;                        /* ZERO, SRCCOLOR */
          case 4: r = s * alpha + d * (1 - alpha); break;  /* SRCALPHA, INVSRCALPHA */
          case 5: r = s * d + d * s; break;                /* DESTCOLOR, SRCCOLOR */
          default: r = s; break;                           /* ONE, ZERO */
          }
      out[c] = CLAMP (r, 0.0f, 1.0f);
    }
}

/* The background at (@x, @y) of a view (from its top left): the
 * checkerboard's 16-pixel squares counted from the bottom left, which is
 * dark; black; or the scene colour. */
static void
background_at (MatPreviewBackground background,
               const float          scene[3],
               int                  x,
               int                  y,
               int                  height,
               float                out[3])
{
  int cell_x = x / MAT_PREVIEW_CHECKER_CELL;
  int cell_y = (height - 1 - y) / MAT_PREVIEW_CHECKER_CELL;

  for (guint c = 0; c < 3; c++)
    switch (background)
      {
      case MAT_PREVIEW_BACKGROUND_CHECKERBOARD:
        out[c] = (cell_x + cell_y) % 2 == 0 ? MAT_PREVIEW_CHECKER_DARK : MAT_PREVIEW_CHECKER_LIGHT;
        break;
      case MAT_PREVIEW_BACKGROUND_BLACK:
        out[c] = 0;
        break;
      case MAT_PREVIEW_BACKGROUND_SCENE:
      default:
        out[c] = scene[c];
        break;
      }
}

static int
to_byte (float value)
{
  return (int) lrintf (CLAMP (value, 0.0f, 1.0f) * 255.0f);
}

/* ---- the window -------------------------------------------------------- */

typedef struct {
  MatLibrary        *library;
  MatTextureLibrary *textures;
  GtkWindow         *window;
  GtkWidget         *grid;
  MatPreview        *views[N_VIEWS];
  MatMaterial       *materials[N_VIEWS];
} Fixture;

static gboolean
all_started (gpointer data)
{
  Fixture *f = data;

  for (guint i = 0; i < N_VIEWS; i++)
    if (!ui_widget_is_shown (mat_preview_get_test_widget (f->views[i], "gl_area"))
        && mat_preview_get_error (f->views[i]) == NULL)
      return FALSE;
  return TRUE;
}

static void
fixture_init (Fixture *f)
{
  g_autoptr(GBytes) archive = materials_archive ();

  f->library = ui_library_new (archive);
  f->textures = texture_library ();
  f->grid = gtk_grid_new ();
  for (guint i = 0; i < N_VIEWS; i++)
    {
      GtkWidget *preview = mat_preview_new ();

      f->views[i] = MAT_PREVIEW (preview);
      f->materials[i] = ui_find_material (f->library, materials[i].name);
      mat_preview_set_show_controls (f->views[i], FALSE);
      mat_preview_set_shape (f->views[i], MAT_PREVIEW_SHAPE_PLANE);
      mat_preview_set_textures (f->views[i], f->textures);
      mat_preview_set_material (f->views[i], f->materials[i]);
      gtk_widget_set_size_request (preview, VIEW_WIDTH, VIEW_HEIGHT);
      gtk_widget_set_hexpand (preview, FALSE);
      gtk_widget_set_vexpand (preview, FALSE);
      gtk_grid_attach (GTK_GRID (f->grid), preview, (int) i % 3, (int) i / 3, 1, 1);
    }
  f->window = ui_show (f->grid, "Preview on screen", -1, -1);
  g_assert_true (ui_wait_for (all_started, f, 20));
  for (guint i = 0; i < N_VIEWS; i++)
    {
      GtkWidget *area = mat_preview_get_test_widget (f->views[i], "gl_area");

      g_assert_null (mat_preview_get_error (f->views[i]));
      g_assert_cmpint (gtk_widget_get_width (area), ==, VIEW_WIDTH);
      g_assert_cmpint (gtk_widget_get_height (area), ==, VIEW_HEIGHT);
    }
}

static void
fixture_clear (Fixture *f)
{
  gtk_window_destroy (f->window);
  ui_pump ();
  g_clear_object (&f->textures);
  g_clear_object (&f->library);
}

/* Every view has drawn the state just set and the window is on screen. */
static void
settle (Fixture *f)
{
  guint64 renders[N_VIEWS];

  for (guint i = 0; i < N_VIEWS; i++)
    renders[i] = mat_preview_get_n_renders (f->views[i]);
  for (guint round = 0; round < 100; round++)
    {
      gboolean all = TRUE;

      for (guint i = 0; i < N_VIEWS; i++)
        all = all && mat_preview_get_n_renders (f->views[i]) > renders[i];
      if (all)
        break;
      ui_spin_ms (10);
    }
  for (guint i = 0; i < N_VIEWS; i++)
    g_assert_cmpuint (mat_preview_get_n_renders (f->views[i]), >, renders[i]);
  ui_screen_wait_painted (f->grid, 2);
}

/* Where a view samples, in its own coordinates: the middle row, at
 * u = 0.25 and 0.36 (the left, clear, half of the texture) and 0.64 and
 * 0.75 (the right half): 16 pixels apart, so on squares of both colours
 * of the checkerboard. */
typedef struct {
  int      x, y;
  gboolean right;
} Sample;

static guint
samples (Sample out[4])
{
  int quarter = (int) lround (plane_px (0.5));

  out[0] = (Sample) { VIEW_WIDTH / 2 - quarter, VIEW_HEIGHT / 2, FALSE };
  out[1] = (Sample) { VIEW_WIDTH / 2 - quarter + 16, VIEW_HEIGHT / 2, FALSE };
  out[2] = (Sample) { VIEW_WIDTH / 2 + quarter - 16, VIEW_HEIGHT / 2, TRUE };
  out[3] = (Sample) { VIEW_WIDTH / 2 + quarter, VIEW_HEIGHT / 2, TRUE };
  /* the samples stay clear of the texture's middle, where bilinear
   * filtering mixes the halves */
  g_assert_cmpint (quarter - 16, >, 8);
  return 4;
}

typedef struct {
  MatPreviewBackground background;
  gboolean             raw;
  guint                opacity;
  guint                blend_index;
  gboolean             emboss_bump;
} Case;

static const char *const background_names[] = { "checkerboard", "black", "scene" };

static char *
case_name (const Case *c,
           guint       view)
{
  return g_strdup_printf ("%s, %s, %s, opacity %u %%, blend index %u%s",
                          materials[view].name, background_names[c->background],
                          c->raw ? "raw" : "lit", c->opacity, c->blend_index,
                          c->emboss_bump ? ", emboss bump" : "");
}

/* The blend mode of blend index @b (render.md 3). */
static guint
mode_of_index (guint b)
{
  static const guint modes[5] = { 0, 4, 2, 3, 5 };

  return b < 5 ? modes[b] : 0;
}

/* Checks one frame on screen against the formulas, for every view;
 * @shot is the composited window's pixels of the grid. */
static void
check_frame (Fixture    *f,
             const Case *c,
             GdkTexture *shot,
             const char *source)
{
  const GdkRGBA *scene_rgba = mat_preview_get_scene_colour (f->views[0]);
  const float scene[3] = { (float) scene_rgba->red, (float) scene_rgba->green,
                           (float) scene_rgba->blue };
  Sample points[4];
  guint n = samples (points);

  for (guint i = 0; i < N_VIEWS; i++)
    {
      g_autofree char *what = case_name (c, i);
      graphene_point_t origin;
      PhaseEvalResult eval;
      float colour[3];

      g_assert_true (gtk_widget_compute_point (GTK_WIDGET (f->views[i]), f->grid,
                                               &GRAPHENE_POINT_INIT (0, 0), &origin));
      g_assert_true (mat_preview_get_evaluation (f->views[i], &eval));
      g_assert_cmpfloat_with_epsilon (eval.value.f[7], c->opacity / 100.0f, 1e-6);
      material_colour (&eval.value, scene, c->raw, colour);

      for (guint s = 0; s < n; s++)
        {
          float texel[4], dst[3], expected[3];
          guint8 rgba[4];

          texel_of (i, points[s].right, c->emboss_bump, texel);
          background_at (c->background, scene, points[s].x, points[s].y, VIEW_HEIGHT, dst);
          drawn_pixel (mode_of_index (c->blend_index), colour, texel, eval.value.f[7], dst,
                       expected);
          ui_texture_pixel (shot, (int) origin.x + points[s].x, (int) origin.y + points[s].y, rgba);
          for (guint ch = 0; ch < 3; ch++)
            if (ABS ((int) rgba[ch] - to_byte (expected[ch])) > TOLERANCE)
              {
                g_autofree char *png = g_strdup_printf ("preview-screen-failed-%s.png", source);
                g_autofree char *path = test_build_path (png);

                gdk_texture_save_to_png (shot, path);
                g_error ("%s (%s), at (%d, %d): on screen %u %u %u, render.md gives %d %d %d",
                         what, source, points[s].x, points[s].y, rgba[0], rgba[1], rgba[2],
                         to_byte (expected[0]), to_byte (expected[1]), to_byte (expected[2]));
              }
        }
    }
}

/* Puts case @c on every view. */
static void
apply_case (Fixture    *f,
            const Case *c)
{
  for (guint i = 0; i < N_VIEWS; i++)
    {
      g_autoptr(GError) error = NULL;
      guint32 attr1 = c->blend_index << 2 | (i == SKIN ? 0x02u : 0);

      mat_preview_set_background (f->views[i], c->background);
      mat_preview_set_unlit (f->views[i], c->raw);
      mat_preview_set_emboss_bump (f->views[i], c->emboss_bump);
      g_assert_true (mat_material_set_attr1 (f->materials[i], attr1, &error));
      g_assert_no_error (error);
      g_assert_true (mat_phase_set_param (ui_phase_at (f->materials[i], 0), 3, c->opacity, &error));
      g_assert_no_error (error);
    }
}

/* Every blend index, opacity, background, lit and raw: the composited
 * window against render.md. */
static void
test_blend_modes_on_screen (void)
{
  static const guint blend_indices[] = { 0, 1, 2, 3, 4, 7 };
  static const guint opacities[] = { 100, 50 };
  GdkRGBA scene = { 51 / 255.0, 77 / 255.0, 128 / 255.0, 1 };
  Fixture f = { 0 };
  guint n_frames = 0;

  fixture_init (&f);
  for (guint i = 0; i < N_VIEWS; i++)
    mat_preview_set_scene_colour (f.views[i], &scene);

  for (guint bg = 0; bg < 3; bg++)
    for (guint raw = 0; raw < 2; raw++)
      for (guint o = 0; o < G_N_ELEMENTS (opacities); o++)
        for (guint b = 0; b < G_N_ELEMENTS (blend_indices); b++)
          {
            Case c = { bg, raw, opacities[o], blend_indices[b], FALSE };
            g_autoptr(GdkTexture) shot = NULL;

            apply_case (&f, &c);
            settle (&f);
            shot = ui_screen_grab (f.grid);
            check_frame (&f, &c, shot, "screen");
            /* the toplevel's own rendering of its snapshot agrees, now
             * and then (it costs a full window render) */
            if (b == 1 || b == 3)
              {
                g_autoptr(GdkTexture) rendered = ui_screen_render_toplevel (f.grid);

                check_frame (&f, &c, rendered, "renderer");
              }
            n_frames++;
          }
  g_test_message ("%u frames checked on screen", n_frames);

  /* with emboss bump, the lit skin draws its texture's alpha */
  for (guint b = 0; b < G_N_ELEMENTS (blend_indices); b++)
    {
      Case c = { MAT_PREVIEW_BACKGROUND_CHECKERBOARD, FALSE, 50, blend_indices[b], TRUE };
      g_autoptr(GdkTexture) shot = NULL;

      apply_case (&f, &c);
      settle (&f);
      shot = ui_screen_grab (f.grid);
      check_frame (&f, &c, shot, "screen");
    }
  fixture_clear (&f);
}

/* ---- mode 1, through the renderer ------------------------------------- */

/* Mode 1 (SRCALPHA, ZERO) has no blend index: no material reaches it.
 * The renderer draws it all the same; a GL area of the test's own shows
 * what it draws on screen. */
typedef struct {
  MatPreviewRenderer    *renderer;
  MatPreviewRenderState  state;
  guint                  n_renders;
} BareView;

static void
bare_realize (GtkGLArea *area,
              BareView  *view)
{
  g_autoptr(GError) error = NULL;

  gtk_gl_area_make_current (area);
  g_assert_no_error (gtk_gl_area_get_error (area));
  g_assert_true (mat_preview_renderer_init_gl (view->renderer,
                                               gdk_gl_context_get_use_es (gtk_gl_area_get_context (area)),
                                               &error));
  g_assert_no_error (error);
}

static void
bare_unrealize (GtkGLArea *area,
                BareView  *view)
{
  gtk_gl_area_make_current (area);
  mat_preview_renderer_fini_gl (view->renderer);
}

static gboolean
bare_render (GtkGLArea    *area,
             GdkGLContext *context,
             BareView     *view)
{
  mat_preview_renderer_set_state (view->renderer, &view->state);
  mat_preview_renderer_render (view->renderer, gtk_widget_get_width (GTK_WIDGET (area)),
                               gtk_widget_get_height (GTK_WIDGET (area)), 1);
  view->n_renders++;
  return TRUE;
}

static gboolean
bare_rendered (gpointer data)
{
  return ((BareView *) data)->n_renders > 0;
}

static void
test_mode_1_on_screen (void)
{
  g_autoptr(GBytes) rgba = NULL;
  const float scene[3] = { 51 / 255.0f, 77 / 255.0f, 128 / 255.0f };
  BareView view = { 0 };
  GtkWidget *area = gtk_gl_area_new ();
  GtkWindow *window;
  Sample points[4];
  guint n = samples (points);

  /* the cut-out as the core decodes it, alpha and all */
  {
    guint8 *texels = g_malloc (TEX_SIDE * TEX_SIDE * 4);

    for (guint i = 0; i < TEX_SIDE * TEX_SIDE; i++)
      memcpy (texels + i * 4, i % TEX_SIDE < TEX_SIDE / 2 ? clear_texel : solid_texel, 4);
    rgba = g_bytes_new_take (texels, TEX_SIDE * TEX_SIDE * 4);
  }
  view.renderer = mat_preview_renderer_new ();
  view.state.has_phase = TRUE;
  view.state.blend_mode = 1;
  view.state.shape = MAT_PREVIEW_SHAPE_PLANE;
  view.state.zoom = 1;
  memcpy (view.state.scene, scene, sizeof scene);
  view.state.uv_rect[2] = view.state.uv_rect[3] = 1;
  view.state.phase.f[0] = 150 / 255.0f;    /* diffuse */
  view.state.phase.f[1] = 100 / 255.0f;
  view.state.phase.f[2] = 200 / 255.0f;
  view.state.phase.f[4] = 30 / 255.0f;     /* self-light */
  view.state.phase.f[5] = 20 / 255.0f;
  view.state.phase.f[6] = 10 / 255.0f;

  gtk_gl_area_set_required_version (GTK_GL_AREA (area), 3, 3);
  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (area), TRUE);
  gtk_widget_set_size_request (area, VIEW_WIDTH, VIEW_HEIGHT);
  g_signal_connect (area, "realize", G_CALLBACK (bare_realize), &view);
  g_signal_connect (area, "unrealize", G_CALLBACK (bare_unrealize), &view);
  g_signal_connect (area, "render", G_CALLBACK (bare_render), &view);
  window = ui_show (area, "Mode 1 on screen", -1, -1);
  g_assert_true (ui_wait_for (bare_rendered, &view, 20));

  for (guint bg = 0; bg < 3; bg++)
    for (guint raw = 0; raw < 2; raw++)
      for (guint o = 0; o < 2; o++)
        for (guint textured = 0; textured < 2; textured++)
          {
            g_autoptr(GdkTexture) shot = NULL;
            guint before = view.n_renders;
            MatPreviewDrawInfo info;
            float colour[3];

            view.state.background = bg;
            view.state.raw = raw;
            view.state.phase.f[7] = o == 0 ? 1.0f : 0.5f;
            view.state.texture_key = textured ? "CUTOUT" : NULL;
            view.state.texture_rgba = textured ? rgba : NULL;
            view.state.texture_width = view.state.texture_height = textured ? TEX_SIDE : 0;
            gtk_gl_area_queue_render (GTK_GL_AREA (area));
            while (view.n_renders == before)
              ui_spin_ms (10);
            ui_screen_wait_painted (area, 2);
            mat_preview_renderer_get_draw_info (view.renderer, &info);
            g_assert_true (info.blend);
            g_assert_cmpint (info.src_rgb, ==, GL_SRC_ALPHA);
            g_assert_cmpint (info.dst_rgb, ==, GL_ZERO);
            g_assert_true (info.alpha_test);
            g_assert_false (info.alpha_write);
            shot = ui_screen_grab (area);
            material_colour (&view.state.phase, scene, raw, colour);
            for (guint s = 0; s < n; s++)
              {
                float texel[4] = { 1, 1, 1, 1 }, dst[3], expected[3];
                guint8 pixel[4];

                if (textured)
                  for (guint c = 0; c < 4; c++)
                    texel[c] = (points[s].right ? solid_texel : clear_texel)[c] / 255.0f;
                background_at (bg, scene, points[s].x, points[s].y, VIEW_HEIGHT, dst);
                drawn_pixel (1, colour, texel, view.state.phase.f[7], dst, expected);
                ui_texture_pixel (shot, points[s].x, points[s].y, pixel);
                g_test_message ("mode 1, %s, %s, opacity %.1f%s, (%d, %d): %u %u %u, render.md %d %d %d",
                                background_names[bg], raw ? "raw" : "lit", view.state.phase.f[7],
                                textured ? ", cut-out" : "", points[s].x, points[s].y,
                                pixel[0], pixel[1], pixel[2], to_byte (expected[0]),
                                to_byte (expected[1]), to_byte (expected[2]));
                for (guint c = 0; c < 3; c++)
                  g_assert_cmpint (ABS ((int) pixel[c] - to_byte (expected[c])), <=, TOLERANCE);
              }
          }
  gtk_window_destroy (window);
  ui_pump ();
  mat_preview_renderer_free (view.renderer);
}

/* ---- the comparison's previews ----------------------------------------- */

/* The Compare view's two previews are the same widget, drawn the same
 * way: opaque on screen, a see-through and a modulating material over
 * black and over the scene colour. */
static void
test_compare_on_screen (void)
{
  g_autoptr(GBytes) archive = materials_archive ();
  g_autoptr(MatLibrary) library = ui_library_new (archive);
  MatMaterial *flat = ui_find_material (library, "FLAT");
  GdkRGBA scene_rgba = { 51 / 255.0, 77 / 255.0, 128 / 255.0, 1 };
  const float scene[3] = { 51 / 255.0f, 77 / 255.0f, 128 / 255.0f };
  GtkWidget *view = mat_compare_view_new ();
  MatCompareView *v = MAT_COMPARE_VIEW (view);
  g_autoptr(GError) error = NULL;
  GtkWindow *window;

  g_assert_true (mat_phase_set_param (ui_phase_at (flat, 0), 3, 50, &error));
  mat_compare_view_set_slot (v, MAT_COMPARE_SLOT_A, flat, -1, 0, 0);
  mat_compare_view_set_slot (v, MAT_COMPARE_SLOT_B, flat, -1, 0, 0);
  for (guint s = 0; s < 2; s++)
    {
      MatPreview *p = mat_compare_view_get_preview (v, s);

      mat_preview_set_shape (p, MAT_PREVIEW_SHAPE_PLANE);
      mat_preview_set_scene_colour (p, &scene_rgba);
    }
  window = ui_show (view, "Compare on screen", 1100, 720);
  for (guint s = 0; s < 2; s++)
    g_assert_true (ui_wait_for (ui_widget_is_shown,
                                mat_preview_get_test_widget (mat_compare_view_get_preview (v, s), "gl_area"),
                                20));

  for (guint b = 0; b < 2; b++)
    for (guint bg = 0; bg < 2; bg++)
      {
        guint blend_index = b == 0 ? 1 : 3;   /* see-through, modulate */
        MatPreviewBackground background = bg == 0 ? MAT_PREVIEW_BACKGROUND_BLACK
                                                  : MAT_PREVIEW_BACKGROUND_SCENE;
        guint64 renders[2];

        for (guint s = 0; s < 2; s++)
          {
            MatPreview *p = mat_compare_view_get_preview (v, s);

            renders[s] = mat_preview_get_n_renders (p);
            mat_preview_set_background (p, background);
          }
        g_assert_true (mat_material_set_attr1 (flat, blend_index << 2, &error));
        for (guint s = 0; s < 2; s++)
          while (mat_preview_get_n_renders (mat_compare_view_get_preview (v, s)) <= renders[s])
            ui_spin_ms (10);
        ui_screen_wait_painted (view, 2);
        for (guint s = 0; s < 2; s++)
          {
            MatPreview *p = mat_compare_view_get_preview (v, s);
            GtkWidget *area = mat_preview_get_test_widget (p, "gl_area");
            g_autoptr(GdkTexture) shot = ui_screen_grab (area);
            int x = gtk_widget_get_width (area) / 2, y = gtk_widget_get_height (area) / 2;
            const float white[4] = { 1, 1, 1, 1 };
            float colour[3], dst[3], expected[3];
            PhaseEvalResult eval;
            guint8 pixel[4];

            g_assert_true (mat_preview_get_evaluation (p, &eval));
            material_colour (&eval.value, scene, FALSE, colour);
            background_at (background, scene, x, y, gtk_widget_get_height (area), dst);
            drawn_pixel (mode_of_index (blend_index), colour, white, eval.value.f[7], dst, expected);
            ui_texture_pixel (shot, x, y, pixel);
            g_test_message ("compare slot %u, blend index %u, %s: %u %u %u, render.md %d %d %d", s,
                            blend_index, background_names[background], pixel[0], pixel[1], pixel[2],
                            to_byte (expected[0]), to_byte (expected[1]), to_byte (expected[2]));
            for (guint c = 0; c < 3; c++)
              g_assert_cmpint (ABS ((int) pixel[c] - to_byte (expected[c])), <=, TOLERANCE);
          }
      }
  gtk_window_destroy (window);
  ui_pump ();
}

/* ---- power bytes past 31 (render.md 1) -------------------------------- */

static guint8 *
centre_pixel (MatPreview *p,
              guint8      rgba[4])
{
  GtkWidget *area = mat_preview_get_test_widget (p, "gl_area");
  guint64 renders = mat_preview_get_n_renders (p);
  g_autoptr(GdkTexture) shot = NULL;

  gtk_widget_queue_draw (area);
  while (mat_preview_get_n_renders (p) == renders)
    ui_spin_ms (10);
  ui_screen_wait_painted (area, 2);
  shot = ui_screen_grab (area);
  ui_texture_pixel (shot, VIEW_WIDTH / 2, VIEW_HEIGHT / 2, rgba);
  return rgba;
}

/* The exponent is 1 << (power & 31): 63 and 255 give 1 << 31, the
 * negative exponent, drawn as the full specular colour wherever the light
 * reaches; 32 draws as 0 and 40 as 8. On screen, never a crash. */
static void
test_power_on_screen (void)
{
  g_autoptr(GBytes) archive = materials_archive ();
  g_autoptr(MatLibrary) library = ui_library_new (archive);
  MatMaterial *flat = ui_find_material (library, "FLAT");
  MatPhase *phase = ui_phase_at (flat, 0);
  GtkWidget *preview = mat_preview_new ();
  MatPreview *p = MAT_PREVIEW (preview);
  static const guint8 specular[3] = { 200, 100, 50 };
  g_autoptr(GError) error = NULL;
  GtkWindow *window;
  guint8 a[4], b[4];

  /* only the specular term and the scene colour */
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (mat_phase_set_param (phase, i, 0, &error));          /* self-light */
      g_assert_true (mat_phase_set_param (phase, 4 + i, 0, &error));      /* diffuse */
      g_assert_true (mat_phase_set_param (phase, 8 + i, specular[i], &error));
    }
  g_assert_no_error (error);
  mat_preview_set_show_controls (p, FALSE);
  mat_preview_set_shape (p, MAT_PREVIEW_SHAPE_PLANE);
  mat_preview_set_background (p, MAT_PREVIEW_BACKGROUND_BLACK);
  mat_preview_set_material (p, flat);
  gtk_widget_set_size_request (preview, VIEW_WIDTH, VIEW_HEIGHT);
  window = ui_show (preview, "Power on screen", -1, -1);
  g_assert_true (ui_wait_for (ui_widget_is_shown, mat_preview_get_test_widget (p, "gl_area"), 20));

  for (guint i = 0; i < 3; i++)
    {
      static const guint powers[3] = { 31, 63, 255 };
      float expected;

      g_assert_true (mat_phase_set_param (phase, 16, powers[i], &error));
      centre_pixel (p, a);
      for (guint c = 0; c < 3; c++)
        {
          expected = MIN (PHASE_LIGHT_DEFAULT_SCENE + specular[c] / 255.0f, 1.0f);
          g_test_message ("power %u: channel %u on screen %u, render.md %d", powers[i], c, a[c],
                          to_byte (expected));
          g_assert_cmpint (ABS ((int) a[c] - to_byte (expected)), <=, TOLERANCE);
        }
    }
  /* 32 & 31 = 0, 40 & 31 = 8: the same pixels as 0 and 8 */
  g_assert_true (mat_phase_set_param (phase, 16, 32, &error));
  centre_pixel (p, a);
  g_assert_true (mat_phase_set_param (phase, 16, 0, &error));
  centre_pixel (p, b);
  g_assert_cmpmem (a, 3, b, 3);
  g_assert_true (mat_phase_set_param (phase, 16, 40, &error));
  centre_pixel (p, a);
  g_assert_true (mat_phase_set_param (phase, 16, 8, &error));
  centre_pixel (p, b);
  g_assert_cmpmem (a, 3, b, 3);
  gtk_window_destroy (window);
  ui_pump ();
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(MatApplication) app = NULL;

  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/preview/screen/blend-modes", test_blend_modes_on_screen);
  g_test_add_func ("/preview/screen/mode-1", test_mode_1_on_screen);
  g_test_add_func ("/preview/screen/compare", test_compare_on_screen);
  g_test_add_func ("/preview/screen/power", test_power_on_screen);
  return g_test_run ();
}
