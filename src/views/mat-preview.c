/* mat-preview.c - live GL preview of a material, driven by the evaluator
 *
 * A GtkGLArea (OpenGL 3.3 core, OpenGL ES 3.0 as the fallback) draws a
 * sphere, a cube or a plane over a checkerboard, shaded from ONE
 * phase_eval_at_time() per frame: the material's expanded phases
 * (phase_eval_expand_material on mat_material_dup_core, redone when the
 * material changes) and the chosen block, time and random offset.
 *
 * Lit mode is Direct3D 7 fixed function as the engine sets it up, lit
 * per vertex: ambient (f4..f6 times f7 as given) under a grey ambient
 * light, diffuse (f0..f2) times N.L of one white directional light,
 * specular (f8..f10) times (N.H)^power, emissive (f12..f14); the phase's
 * texture modulates the lit colour (specular is added after it) and the
 * alpha (diffuse A f3, times the texture's alpha) blends over the
 * checkerboard. Unlit mode draws the blended diffuse RGB exactly (times
 * the texture), alpha f3. Shader variants (background; lit/unlit x
 * untextured/textured) keep branches out of the fragment shader: under a
 * software rasteriser every fragment would pay for both sides.
 *
 * Nothing is redrawn unless something changed or the animation plays: a
 * tick callback exists only while playing; the shape rotates slowly only
 * then, so a paused frame is stable.
 *
 * Cheap under a software rasteriser (llvmpipe): the checkerboard is drawn
 * once per size into its own framebuffer and copied in with one blit per
 * frame; the shapes are convex and drawn with back faces culled, so there
 * is no depth buffer; blending is on only when something is translucent.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <epoxy/gl.h>
#include <glib/gi18n-lib.h>

#include "mat0.h"
#include "mat-preview.h"
#include "mat-style.h"

#define RESOURCE_PREFIX "/io/github/parkan/MatEdit/"

#define SPHERE_SLICES   48
#define SPHERE_STACKS   32
#define CUBE_HALF       0.72f
#define PLANE_HALF      1.0f
#define QUAD_STEPS      8
#define CAMERA_DISTANCE 3.6f
#define CAMERA_FOVY     40.0f
/* Degrees per millisecond of real time while playing. */
#define ROTATION_SPEED  0.02
#define REROLL_SEED     0x5EED1234u
#define CAPTURE_TIMEOUT_US (5 * G_USEC_PER_SEC)
/* While playing, the time readout changes at most this often (µs). */
#define READOUT_INTERVAL_US (G_USEC_PER_SEC / 10)

typedef enum {
  ATTR_POSITION,
  ATTR_NORMAL,
  ATTR_UV,
} Attribute;

typedef struct {
  GLuint  vao;
  GLuint  vbo;
  GLuint  ibo;
  GLsizei n_indices;
} Mesh;

typedef enum {
  U_MVP,
  U_MODEL_VIEW,
  U_TEXTURE,
  U_UV_RECT,
  U_DIFFUSE,
  U_AMBIENT,
  U_SPECULAR,
  U_EMISSIVE,
  U_POWER,
  U_LIGHT_DIR,
  U_AMBIENT_LIGHT,
  U_CHECKER_LIGHT,
  U_VIEWPORT,
  N_UNIFORMS
} Uniform;

static const char *const uniform_names[N_UNIFORMS] = {
  "u_mvp", "u_model_view", "u_texture", "u_uv_rect", "u_diffuse", "u_ambient", "u_specular",
  "u_emissive", "u_power", "u_light_dir", "u_ambient_light",
  "u_checker_light", "u_viewport",
};

/* The shader variants: the background, then the shape with UNLIT and
 * TEXTURED defined or not (index 1 + unlit + 2 * textured). */
enum {
  PROGRAM_BACKGROUND,
  PROGRAM_LIT,
  PROGRAM_UNLIT,
  PROGRAM_LIT_TEXTURED,
  PROGRAM_UNLIT_TEXTURED,
  N_PROGRAMS
};

static const char *const program_defines[N_PROGRAMS] = {
  "#define BACKGROUND 1\n",
  "",
  "#define UNLIT 1\n",
  "#define TEXTURED 1\n",
  "#define UNLIT 1\n#define TEXTURED 1\n",
};

typedef struct {
  GLuint id;
  GLint  uniforms[N_UNIFORMS];   /* -1 where the variant lacks one */
} Program;

typedef struct {
  GLuint   id;       /* 0: not available */
  gboolean opaque;   /* every texel has alpha 255 */
} GlTexture;

struct _MatPreview
{
  GtkWidget          parent_instance;

  /* what is shown */
  MatMaterial       *material;
  MatTextureLibrary *textures;
  GSignalGroup      *material_signals;
  GSignalGroup      *phases_signals;
  GSignalGroup      *blocks_signals;
  int                block;
  guint              phase;
  guint32            time;
  guint32            random_offset;
  gboolean           playing;
  gboolean           loop;
  double             speed;
  gboolean           unlit;
  MatPreviewShape    shape;
  gboolean           show_controls;

  /* the evaluator's input, re-expanded when the material changes */
  Mat0Material      *core;
  PhaseRuntime      *runtime;
  gboolean           core_valid;
  /* the last evaluation */
  PhaseEvalResult    eval;
  gboolean           eval_valid;
  gboolean           have_eval;
  char              *texture_name;   /* of the evaluated phase A, or NULL */
  guint64            n_evaluations;

  /* playback */
  guint              tick_id;
  gint64             last_frame_time;
  double             time_fraction;   /* ms not yet added to "time" */
  guint64            stop_at;         /* loop off: where playback ends */
  double             rotation;        /* degrees */
  gint64             last_readout;
  GRand             *rand;

  /* GL, valid between realize and unrealize */
  gboolean           gl_ready;
  Program            programs[N_PROGRAMS];
  Mesh               meshes[3];
  Mesh               background;      /* the light checker squares */
  GLuint             background_fbo;   /* the checkerboard, drawn once per size */
  GLuint             background_texture;
  int                background_width;
  int                background_height;
  int                background_cell;
  GHashTable        *gl_textures;     /* upper-case name -> GlTexture */
  char              *error;
  guint64            n_renders;

  /* read-back for tests */
  gboolean           capture_pending;
  GBytes            *capture;
  int                capture_width;
  int                capture_height;

  gboolean           syncing;

  /* template */
  GtkWidget         *root_box;
  GtkStack          *view_stack;
  GtkGLArea         *gl_area;
  GtkLabel          *error_label;
  GtkWidget         *controls;
  GtkToggleButton   *play_button;
  GtkToggleButton   *loop_button;
  GtkScale          *time_scale;
  GtkAdjustment     *time_adjustment;
  GtkLabel          *time_label;
  GtkDropDown       *block_dropdown;
  GtkWidget         *phase_title;
  GtkSpinButton     *phase_spin;
  GtkAdjustment     *phase_adjustment;
  GtkButton         *reroll_button;
  GtkLabel          *reroll_label;
  GtkDropDown       *shape_dropdown;
  GtkToggleButton   *unlit_button;
  GtkSpinButton     *speed_spin;
  GtkAdjustment     *speed_adjustment;
  GtkLabel          *texture_label;
};

G_DEFINE_FINAL_TYPE (MatPreview, mat_preview, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MATERIAL,
  PROP_BLOCK,
  PROP_PHASE,
  PROP_TIME,
  PROP_RANDOM_OFFSET,
  PROP_PLAYING,
  PROP_LOOP,
  PROP_SPEED,
  PROP_UNLIT,
  PROP_SHAPE,
  PROP_TEXTURES,
  PROP_SHOW_CONTROLS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GType
mat_preview_shape_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { MAT_PREVIEW_SHAPE_SPHERE, "MAT_PREVIEW_SHAPE_SPHERE", "sphere" },
        { MAT_PREVIEW_SHAPE_CUBE, "MAT_PREVIEW_SHAPE_CUBE", "cube" },
        { MAT_PREVIEW_SHAPE_PLANE, "MAT_PREVIEW_SHAPE_PLANE", "plane" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("MatPreviewShape"), values);

      g_once_init_leave (&type_id, type);
    }
  return type_id;
}



/* ---- the evaluator's input ------------------------------------------- */

static void
ensure_core (MatPreview *self)
{
  if (self->core_valid)
    return;
  self->core_valid = TRUE;
  g_clear_pointer (&self->core, mat0_material_free);
  g_clear_pointer (&self->runtime, g_free);
  if (self->material == NULL)
    return;
  self->core = mat_material_dup_core (self->material);
  if (self->core == NULL)
    return;
  self->runtime = g_new0 (PhaseRuntime, MAX (self->core->n_phases, 1));
  phase_eval_expand_material (self->core, self->runtime);
}

/* The block shown, %NULL for the static phase. */
static const Mat0Block *
current_block (MatPreview *self)
{
  ensure_core (self);
  if (self->core == NULL || self->block < 0 || (guint) self->block >= self->core->n_blocks)
    return NULL;
  return &self->core->blocks[self->block];
}

static guint32
block_cycle (const Mat0Block *block)
{
  return block != NULL ? mat0_block_period (block) : 0;
}

/* The one evaluation per change of the input. */
static const PhaseEvalResult *
ensure_evaluation (MatPreview *self)
{
  PhaseEvalInput input = { 0 };

  if (self->eval_valid)
    return self->have_eval ? &self->eval : NULL;

  self->eval_valid = TRUE;
  self->have_eval = FALSE;
  g_clear_pointer (&self->texture_name, g_free);
  ensure_core (self);
  if (self->core == NULL || self->core->n_phases == 0)
    return NULL;

  input.phases = self->runtime;
  input.n_phases = self->core->n_phases;
  input.block = current_block (self);
  input.static_phase = MIN (self->phase, (guint) self->core->n_phases - 1);
  phase_eval_at_time (&input, self->time, 0, self->random_offset, &self->eval);
  self->n_evaluations++;
  self->have_eval = TRUE;

  if (self->eval.value.tex_slot >= 0
      && (guint) self->eval.value.tex_slot < self->core->n_phases
      && mat0_phase_is_textured (&self->core->phases[self->eval.value.tex_slot]))
    self->texture_name = mat0_phase_dup_texture (&self->core->phases[self->eval.value.tex_slot]);
  return &self->eval;
}

static void
invalidate_evaluation (MatPreview *self)
{
  self->eval_valid = FALSE;
}

/* ---- geometry and matrices ------------------------------------------ */

typedef struct { float m[16]; } Mat4;   /* column-major, as GL reads it */

static Mat4
mat4_identity (void)
{
  Mat4 r = { { 1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  0, 0, 0, 1 } };
  return r;
}

static Mat4
mat4_mul (const Mat4 *a,
          const Mat4 *b)
{
  Mat4 r;

  for (int c = 0; c < 4; c++)
    for (int row = 0; row < 4; row++)
      {
        float sum = 0;

        for (int k = 0; k < 4; k++)
          sum += a->m[k * 4 + row] * b->m[c * 4 + k];
        r.m[c * 4 + row] = sum;
      }
  return r;
}

static Mat4
mat4_rotation (float degrees,
               int   axis)
{
  Mat4 r = mat4_identity ();
  float rad = degrees * (float) G_PI / 180.0f;
  float c = cosf (rad), s = sinf (rad);
  int i = (axis + 1) % 3, j = (axis + 2) % 3;

  r.m[i * 4 + i] = c;
  r.m[j * 4 + j] = c;
  r.m[i * 4 + j] = s;
  r.m[j * 4 + i] = -s;
  return r;
}

static Mat4
mat4_translation (float x,
                  float y,
                  float z)
{
  Mat4 r = mat4_identity ();

  r.m[12] = x;
  r.m[13] = y;
  r.m[14] = z;
  return r;
}

static Mat4
mat4_perspective (float fovy_degrees,
                  float aspect,
                  float near,
                  float far)
{
  Mat4 r = { { 0 } };
  float f = 1.0f / tanf (fovy_degrees * (float) G_PI / 360.0f);

  r.m[0] = f / aspect;
  r.m[5] = f;
  r.m[10] = (far + near) / (near - far);
  r.m[11] = -1.0f;
  r.m[14] = 2.0f * far * near / (near - far);
  return r;
}

typedef struct {
  GArray *vertices;   /* float: x y z, nx ny nz, u v */
  GArray *indices;    /* guint32 */
} MeshData;

static void
mesh_data_vertex (MeshData *d,
                  float x, float y, float z,
                  float nx, float ny, float nz,
                  float u, float v)
{
  float vertex[8] = { x, y, z, nx, ny, nz, u, v };

  g_array_append_vals (d->vertices, vertex, 8);
}

static guint32
mesh_data_n_vertices (MeshData *d)
{
  return d->vertices->len / 8;
}

static void
mesh_data_triangle (MeshData *d,
                    guint32   a,
                    guint32   b,
                    guint32   c)
{
  guint32 tri[3] = { a, b, c };

  g_array_append_vals (d->indices, tri, 3);
}

/* UV sphere of radius 1: v = 0 at the north pole, the seam at the back. */
static void
build_sphere (MeshData *d)
{
  for (guint i = 0; i <= SPHERE_STACKS; i++)
    {
      float theta = (float) G_PI * (float) i / SPHERE_STACKS;

      for (guint j = 0; j <= SPHERE_SLICES; j++)
        {
          float phi = 2.0f * (float) G_PI * (float) j / SPHERE_SLICES;
          /* u = 0 and 1 meet at the back (-z), away from the camera */
          float x = -sinf (theta) * sinf (phi);
          float y = cosf (theta);
          float z = -sinf (theta) * cosf (phi);

          mesh_data_vertex (d, x, y, z, x, y, z,
                            (float) j / SPHERE_SLICES, (float) i / SPHERE_STACKS);
        }
    }
  for (guint i = 0; i < SPHERE_STACKS; i++)
    for (guint j = 0; j < SPHERE_SLICES; j++)
      {
        guint32 a = i * (SPHERE_SLICES + 1) + j;
        guint32 b = a + SPHERE_SLICES + 1;

        mesh_data_triangle (d, a, b, b + 1);
        mesh_data_triangle (d, a, b + 1, a + 1);
      }
}

/* One quad centred at @c with axes @u and @v (u x v = the normal @n),
 * counter-clockwise seen from the front, as a grid of @steps x @steps
 * cells (lighting is per vertex, as in Direct3D 7). */
static void
build_quad (MeshData    *d,
            const float  c[3],
            const float  u[3],
            const float  v[3],
            const float  n[3],
            guint        steps)
{
  guint32 base = mesh_data_n_vertices (d);

  for (guint j = 0; j <= steps; j++)
    for (guint i = 0; i <= steps; i++)
      {
        float a = -1.0f + 2.0f * (float) i / (float) steps;
        float b = -1.0f + 2.0f * (float) j / (float) steps;

        mesh_data_vertex (d,
                          c[0] + a * u[0] + b * v[0],
                          c[1] + a * u[1] + b * v[1],
                          c[2] + a * u[2] + b * v[2],
                          n[0], n[1], n[2],
                          (a + 1) / 2, (1 - b) / 2);
      }
  for (guint j = 0; j < steps; j++)
    for (guint i = 0; i < steps; i++)
      {
        guint32 k = base + j * (steps + 1) + i;
        guint32 above = k + steps + 1;

        mesh_data_triangle (d, k, k + 1, above + 1);
        mesh_data_triangle (d, k, above + 1, above);
      }
}

static void
build_cube (MeshData *d)
{
  const float h = CUBE_HALF;
  /* normal, u axis, v axis per face */
  static const float faces[6][3][3] = {
    { { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } },
    { { 0, 0, -1 }, { -1, 0, 0 }, { 0, 1, 0 } },
    { { 1, 0, 0 }, { 0, 0, -1 }, { 0, 1, 0 } },
    { { -1, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 } },
    { { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, -1 } },
    { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } },
  };

  for (guint f = 0; f < 6; f++)
    {
      float c[3], u[3], v[3];

      for (guint k = 0; k < 3; k++)
        {
          c[k] = faces[f][0][k] * h;
          u[k] = faces[f][1][k] * h;
          v[k] = faces[f][2][k] * h;
        }
      build_quad (d, c, u, v, faces[f][0], QUAD_STEPS);
    }
}

static void
build_plane (MeshData *d)
{
  static const float c[3] = { 0, 0, 0 };
  static const float u[3] = { PLANE_HALF, 0, 0 };
  static const float v[3] = { 0, PLANE_HALF, 0 };
  static const float n[3] = { 0, 0, 1 };

  build_quad (d, c, u, v, n, QUAD_STEPS * 2);
}

static void
mesh_upload (Mesh         *mesh,
             const float  *vertices,
             gsize         n_floats,
             const guint32 *indices,
             gsize         n_indices)
{
  glGenVertexArrays (1, &mesh->vao);
  glBindVertexArray (mesh->vao);
  glGenBuffers (1, &mesh->vbo);
  glBindBuffer (GL_ARRAY_BUFFER, mesh->vbo);
  glBufferData (GL_ARRAY_BUFFER, (GLsizeiptr) (n_floats * sizeof (float)), vertices, GL_STATIC_DRAW);
  glEnableVertexAttribArray (ATTR_POSITION);
  glVertexAttribPointer (ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 8 * sizeof (float), (void *) 0);
  glEnableVertexAttribArray (ATTR_NORMAL);
  glVertexAttribPointer (ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, 8 * sizeof (float),
                         (void *) (3 * sizeof (float)));
  glEnableVertexAttribArray (ATTR_UV);
  glVertexAttribPointer (ATTR_UV, 2, GL_FLOAT, GL_FALSE, 8 * sizeof (float),
                         (void *) (6 * sizeof (float)));
  if (indices != NULL)
    {
      glGenBuffers (1, &mesh->ibo);
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->ibo);
      glBufferData (GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr) (n_indices * sizeof (guint32)),
                    indices, GL_STATIC_DRAW);
    }
  mesh->n_indices = (GLsizei) n_indices;
  glBindVertexArray (0);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
}

static void
mesh_build (Mesh            *mesh,
            MatPreviewShape  shape)
{
  MeshData d = {
    g_array_new (FALSE, FALSE, sizeof (float)),
    g_array_new (FALSE, FALSE, sizeof (guint32)),
  };

  switch (shape)
    {
    case MAT_PREVIEW_SHAPE_SPHERE: build_sphere (&d); break;
    case MAT_PREVIEW_SHAPE_CUBE: build_cube (&d); break;
    case MAT_PREVIEW_SHAPE_PLANE: default: build_plane (&d); break;
    }
  mesh_upload (mesh, (const float *) (void *) d.vertices->data, d.vertices->len,
               (const guint32 *) (void *) d.indices->data, d.indices->len);
  g_array_unref (d.vertices);
  g_array_unref (d.indices);
}

static void
mesh_clear (Mesh *mesh)
{
  if (mesh->vao != 0)
    glDeleteVertexArrays (1, &mesh->vao);
  if (mesh->vbo != 0)
    glDeleteBuffers (1, &mesh->vbo);
  if (mesh->ibo != 0)
    glDeleteBuffers (1, &mesh->ibo);
  memset (mesh, 0, sizeof *mesh);
}

/* The light squares of a checkerboard of @cell pixels over @width x
 * @height, in framebuffer pixels from the bottom left; the dark ones are
 * the clear colour. */
static void
background_build (Mesh *mesh,
                  int   width,
                  int   height,
                  int   cell)
{
  MeshData d = {
    g_array_new (FALSE, FALSE, sizeof (float)),
    g_array_new (FALSE, FALSE, sizeof (guint32)),
  };

  mesh_clear (mesh);
  for (int y = 0; y * cell < height; y++)
    for (int x = y % 2; x * cell < width; x += 2)
      {
        float x0 = (float) (x * cell), y0 = (float) (y * cell);
        float x1 = x0 + (float) cell, y1 = y0 + (float) cell;
        guint32 base = mesh_data_n_vertices (&d);

        mesh_data_vertex (&d, x0, y0, 0, 0, 0, 1, 0, 0);
        mesh_data_vertex (&d, x1, y0, 0, 0, 0, 1, 0, 0);
        mesh_data_vertex (&d, x1, y1, 0, 0, 0, 1, 0, 0);
        mesh_data_vertex (&d, x0, y1, 0, 0, 0, 1, 0, 0);
        mesh_data_triangle (&d, base, base + 1, base + 2);
        mesh_data_triangle (&d, base, base + 2, base + 3);
      }
  mesh_upload (mesh, (const float *) (void *) d.vertices->data, d.vertices->len,
               (const guint32 *) (void *) d.indices->data, d.indices->len);
  g_array_unref (d.vertices);
  g_array_unref (d.indices);
}

static void
background_clear (MatPreview *self)
{
  mesh_clear (&self->background);
  if (self->background_fbo != 0)
    glDeleteFramebuffers (1, &self->background_fbo);
  if (self->background_texture != 0)
    glDeleteTextures (1, &self->background_texture);
  self->background_fbo = 0;
  self->background_texture = 0;
  self->background_width = self->background_height = self->background_cell = 0;
}

/* Draws the checkerboard into its own framebuffer (of the format of
 * @area_fbo, so that the per-frame blit is a plain copy), then binds
 * @area_fbo again. */
static void
draw_background (MatPreview *self,
                 GLuint      area_fbo,
                 int         width,
                 int         height,
                 int         cell)
{
  const Program *program = &self->programs[PROGRAM_BACKGROUND];
  GLint alpha_bits = 8;

  glGetFramebufferAttachmentParameteriv (GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                         GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE, &alpha_bits);
  background_clear (self);
  background_build (&self->background, width, height, cell);

  glGenTextures (1, &self->background_texture);
  glBindTexture (GL_TEXTURE_2D, self->background_texture);
  glTexImage2D (GL_TEXTURE_2D, 0, alpha_bits > 0 ? GL_RGBA8 : GL_RGB8, width, height, 0,
                alpha_bits > 0 ? GL_RGBA : GL_RGB, GL_UNSIGNED_BYTE, NULL);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture (GL_TEXTURE_2D, 0);
  glGenFramebuffers (1, &self->background_fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, self->background_fbo);
  glFramebufferTexture2D (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                          self->background_texture, 0);

  glClearColor (0.28f, 0.28f, 0.30f, 1.0f);
  glClear (GL_COLOR_BUFFER_BIT);
  glUseProgram (program->id);
  glUniform3f (program->uniforms[U_CHECKER_LIGHT], 0.40f, 0.40f, 0.42f);
  glUniform2f (program->uniforms[U_VIEWPORT], (float) width, (float) height);
  glBindVertexArray (self->background.vao);
  glDrawElements (GL_TRIANGLES, self->background.n_indices, GL_UNSIGNED_INT, NULL);
  glBindVertexArray (0);
  glBindFramebuffer (GL_FRAMEBUFFER, area_fbo);

  self->background_width = width;
  self->background_height = height;
  self->background_cell = cell;
}

/* ---- GL setup --------------------------------------------------------- */

static GLuint
compile_shader (GLenum       type,
                const char  *resource,
                gboolean     es,
                const char  *defines,
                GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;
  const char *sources[3];
  GLint lengths[3];
  GLint status = 0;
  GLuint shader;

  bytes = g_resources_lookup_data (resource, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return 0;
  sources[0] = es ? "#version 300 es\nprecision highp float;\nprecision highp int;\n"
                  : "#version 330 core\n";
  lengths[0] = (GLint) strlen (sources[0]);
  sources[1] = defines;
  lengths[1] = (GLint) strlen (defines);
  sources[2] = g_bytes_get_data (bytes, NULL);
  lengths[2] = (GLint) g_bytes_get_size (bytes);

  shader = glCreateShader (type);
  glShaderSource (shader, 3, sources, lengths);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &status);
  if (status == GL_FALSE)
    {
      GLint len = 0;
      g_autofree char *log = NULL;

      glGetShaderiv (shader, GL_INFO_LOG_LENGTH, &len);
      log = g_malloc0 ((gsize) MAX (len, 1) + 1);
      glGetShaderInfoLog (shader, len, NULL, log);
      g_set_error (error, GDK_GL_ERROR, GDK_GL_ERROR_COMPILATION_FAILED,
                   _("The shader %s does not compile: %s"), resource, log);
      glDeleteShader (shader);
      return 0;
    }
  return shader;
}

static GLuint
link_program (gboolean     es,
              const char  *defines,
              GError     **error)
{
  GLuint vertex, fragment, program;
  GLint status = 0;

  vertex = compile_shader (GL_VERTEX_SHADER, RESOURCE_PREFIX "shaders/preview.vert", es,
                           defines, error);
  if (vertex == 0)
    return 0;
  fragment = compile_shader (GL_FRAGMENT_SHADER, RESOURCE_PREFIX "shaders/preview.frag", es,
                             defines, error);
  if (fragment == 0)
    {
      glDeleteShader (vertex);
      return 0;
    }

  program = glCreateProgram ();
  glAttachShader (program, vertex);
  glAttachShader (program, fragment);
  glBindAttribLocation (program, ATTR_POSITION, "a_position");
  glBindAttribLocation (program, ATTR_NORMAL, "a_normal");
  glBindAttribLocation (program, ATTR_UV, "a_uv");
  glLinkProgram (program);
  glGetProgramiv (program, GL_LINK_STATUS, &status);
  glDetachShader (program, vertex);
  glDetachShader (program, fragment);
  glDeleteShader (vertex);
  glDeleteShader (fragment);
  if (status == GL_FALSE)
    {
      GLint len = 0;
      g_autofree char *log = NULL;

      glGetProgramiv (program, GL_INFO_LOG_LENGTH, &len);
      log = g_malloc0 ((gsize) MAX (len, 1) + 1);
      glGetProgramInfoLog (program, len, NULL, log);
      g_set_error (error, GDK_GL_ERROR, GDK_GL_ERROR_LINK_FAILED,
                   _("The preview shaders do not link: %s"), log);
      glDeleteProgram (program);
      return 0;
    }
  return program;
}

static gboolean
show_error_page (gpointer data)
{
  MatPreview *self = data;

  if (self->error != NULL && self->view_stack != NULL)
    gtk_stack_set_visible_child_name (self->view_stack, "error");
  return G_SOURCE_REMOVE;
}

/* Shows @error in place of the view; @on_purpose: asked for, not logged
 * as a warning. */
static void
show_gl_error (MatPreview   *self,
               const GError *error,
               gboolean      on_purpose)
{
  g_free (self->error);
  self->error = g_strdup (error->message);
  gtk_label_set_text (self->error_label, error->message);
  /* not while the stack is mapping the GL area (this runs in its realize) */
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, show_error_page, g_object_ref (self), g_object_unref);
  if (on_purpose)
    g_message ("Preview: %s", error->message);
  else
    g_warning ("Preview: %s", error->message);
}

/* Needs the context current. */
static void
delete_programs (MatPreview *self)
{
  for (guint p = 0; p < N_PROGRAMS; p++)
    {
      if (self->programs[p].id != 0)
        glDeleteProgram (self->programs[p].id);
      self->programs[p].id = 0;
    }
}

/* OpenGL 3.3 core; OpenGL ES 3.0 when desktop GL cannot be had. */
static GdkGLContext *
on_create_context (GtkGLArea  *area,
                   MatPreview *self)
{
  GdkSurface *surface = gtk_native_get_surface (gtk_widget_get_native (GTK_WIDGET (area)));
  g_autoptr(GError) gl_error = NULL;
  g_autoptr(GError) es_error = NULL;
  g_autoptr(GError) error = NULL;
  GdkGLContext *context;

  context = gdk_surface_create_gl_context (surface, &gl_error);
  if (context != NULL)
    {
      gdk_gl_context_set_allowed_apis (context, GDK_GL_API_GL);
      gdk_gl_context_set_required_version (context, 3, 3);
      if (gdk_gl_context_realize (context, &gl_error))
        return context;
      g_clear_object (&context);

      context = gdk_surface_create_gl_context (surface, &es_error);
      if (context != NULL)
        {
          gdk_gl_context_set_allowed_apis (context, GDK_GL_API_GLES);
          gdk_gl_context_set_required_version (context, 3, 0);
          if (gdk_gl_context_realize (context, &es_error))
            return context;
          g_clear_object (&context);
        }
    }

  error = g_error_new (GDK_GL_ERROR, GDK_GL_ERROR_NOT_AVAILABLE,
                       _("The preview needs OpenGL 3.3 or OpenGL ES 3.0: %s"),
                       gl_error != NULL ? gl_error->message
                       : es_error != NULL ? es_error->message : _("no context"));
  gtk_gl_area_set_error (area, error);
  return NULL;
}

static void
on_realize (GtkGLArea  *area,
            MatPreview *self)
{
  g_autoptr(GError) error = NULL;
  GdkGLContext *context;
  gboolean es;

  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) != NULL)
    {
      show_gl_error (self, gtk_gl_area_get_error (area), FALSE);
      return;
    }
  if (g_strcmp0 (g_getenv ("MATEDIT_PREVIEW_FAIL_GL"), "1") == 0)
    {
      error = g_error_new_literal (GDK_GL_ERROR, GDK_GL_ERROR_NOT_AVAILABLE,
                                   _("OpenGL was turned off on purpose (MATEDIT_PREVIEW_FAIL_GL=1)."));
      gtk_gl_area_set_error (area, error);
      show_gl_error (self, error, TRUE);
      return;
    }

  context = gtk_gl_area_get_context (area);
  es = context != NULL && gdk_gl_context_get_use_es (context);
  if (context != NULL)
    {
      int major = 0, minor = 0;

      gdk_gl_context_get_version (context, &major, &minor);
      g_debug ("Preview: OpenGL%s %d.%d", es ? " ES" : "", major, minor);
    }
  for (guint p = 0; p < N_PROGRAMS; p++)
    {
      Program *program = &self->programs[p];

      program->id = link_program (es, program_defines[p], &error);
      if (program->id == 0)
        {
          delete_programs (self);
          gtk_gl_area_set_error (area, error);
          show_gl_error (self, error, FALSE);
          return;
        }
      for (guint i = 0; i < N_UNIFORMS; i++)
        program->uniforms[i] = glGetUniformLocation (program->id, uniform_names[i]);
    }

  for (guint s = 0; s < G_N_ELEMENTS (self->meshes); s++)
    mesh_build (&self->meshes[s], (MatPreviewShape) s);
  self->background_width = self->background_height = 0;

  self->gl_textures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->gl_ready = TRUE;
  g_clear_pointer (&self->error, g_free);
  gtk_stack_set_visible_child_name (self->view_stack, "gl");
}

static void
delete_texture (gpointer key,
                gpointer value,
                gpointer data)
{
  GlTexture *texture = value;

  if (texture->id != 0)
    glDeleteTextures (1, &texture->id);
}

/* Needs the context current. */
static void
clear_gl_textures (MatPreview *self)
{
  if (self->gl_textures == NULL)
    return;
  g_hash_table_foreach (self->gl_textures, delete_texture, NULL);
  g_hash_table_remove_all (self->gl_textures);
}

static void
on_unrealize (GtkGLArea  *area,
              MatPreview *self)
{
  if (!self->gl_ready)
    return;
  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) == NULL)
    {
      clear_gl_textures (self);
      for (guint s = 0; s < G_N_ELEMENTS (self->meshes); s++)
        mesh_clear (&self->meshes[s]);
      background_clear (self);
      delete_programs (self);
    }
  memset (self->programs, 0, sizeof self->programs);
  g_clear_pointer (&self->gl_textures, g_hash_table_unref);
  self->gl_ready = FALSE;
}

/* ---- textures --------------------------------------------------------- */

/* The GL texture of @name, uploaded once (id 0 when it is not available). */
static const GlTexture *
gl_texture_for (MatPreview  *self,
                const char  *name,
                MatTexture **out_texture)
{
  g_autofree char *key = g_ascii_strup (name, -1);
  g_autoptr(GBytes) rgba = NULL;
  GlTexture *cached;
  MatTexture *texture = NULL;
  guint width = 0, height = 0;

  if (self->textures != NULL)
    texture = mat_texture_library_lookup (self->textures, name);
  *out_texture = texture;
  cached = g_hash_table_lookup (self->gl_textures, key);
  if (cached != NULL)
    return cached;

  cached = g_new0 (GlTexture, 1);
  if (texture != NULL)
    rgba = mat_texture_dup_rgba (texture, 0, &width, &height);
  if (rgba != NULL && width > 0 && height > 0)
    {
      const guint8 *pixels = g_bytes_get_data (rgba, NULL);
      gsize n = (gsize) width * height;

      cached->opaque = TRUE;
      for (gsize i = 0; i < n && cached->opaque; i++)
        cached->opaque = pixels[i * 4 + 3] == 255;

      glGenTextures (1, &cached->id);
      glBindTexture (GL_TEXTURE_2D, cached->id);
      glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
      glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, (GLsizei) width, (GLsizei) height, 0,
                    GL_RGBA, GL_UNSIGNED_BYTE, pixels);
      glGenerateMipmap (GL_TEXTURE_2D);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
  g_hash_table_insert (self->gl_textures, g_steal_pointer (&key), cached);
  return cached;
}

/* The atlas cell of the texture when +72 names one of its Page rects,
 * else the whole texture: offset and size in texture coordinates. */
static void
texture_uv_rect (MatTexture *texture,
                 gint32      cell,
                 float       rect[4])
{
  const TexmImage *image = texture != NULL ? mat_texture_get_image (texture) : NULL;

  rect[0] = rect[1] = 0;
  rect[2] = rect[3] = 1;
  if (image == NULL || !image->has_page || cell < 0 || (guint) cell >= image->n_rects
      || image->header.width == 0 || image->header.height == 0)
    return;
  {
    const TexmRect *r = &image->rects[cell];
    float w = (float) image->header.width, h = (float) image->header.height;

    if (r->w <= 0 || r->h <= 0 || r->x < 0 || r->y < 0
        || r->x + r->w > (int) image->header.width || r->y + r->h > (int) image->header.height)
      return;
    rect[0] = r->x / w;
    rect[1] = r->y / h;
    rect[2] = r->w / w;
    rect[3] = r->h / h;
  }
}

/* ---- rendering -------------------------------------------------------- */

static void
model_matrix (MatPreview *self,
              Mat4       *model)
{
  Mat4 tilt, spin;

  switch (self->shape)
    {
    case MAT_PREVIEW_SHAPE_PLANE:
      *model = mat4_rotation ((float) -self->rotation, 2);
      return;
    case MAT_PREVIEW_SHAPE_CUBE:
      tilt = mat4_rotation (25.0f, 0);
      spin = mat4_rotation ((float) (35.0 + self->rotation), 1);
      break;
    case MAT_PREVIEW_SHAPE_SPHERE:
    default:
      tilt = mat4_rotation (18.0f, 0);
      spin = mat4_rotation ((float) (-30.0 + self->rotation), 1);
      break;
    }
  *model = mat4_mul (&tilt, &spin);
}

static void
capture_frame (MatPreview *self,
               int         width,
               int         height)
{
  gsize stride = (gsize) width * 4;
  guint8 *pixels = g_malloc ((gsize) height * stride);
  guint8 *flipped = g_malloc ((gsize) height * stride);

  glPixelStorei (GL_PACK_ALIGNMENT, 4);
  glReadPixels (0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  for (int y = 0; y < height; y++)
    memcpy (flipped + (gsize) y * stride, pixels + (gsize) (height - 1 - y) * stride, stride);
  g_free (pixels);
  g_clear_pointer (&self->capture, g_bytes_unref);
  self->capture = g_bytes_new_take (flipped, (gsize) height * stride);
  self->capture_width = width;
  self->capture_height = height;
  self->capture_pending = FALSE;
}

static gboolean
on_render (GtkGLArea    *area,
           GdkGLContext *context,
           MatPreview   *self)
{
  const PhaseEvalResult *eval;
  const Program *program;
  GLint area_fbo = 0;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (area));
  int width = gtk_widget_get_width (GTK_WIDGET (area)) * scale;
  int height = gtk_widget_get_height (GTK_WIDGET (area)) * scale;
  static const float light_dir[3] = { -0.45f, 0.55f, 0.70f };

  if (!self->gl_ready || width <= 0 || height <= 0)
    return TRUE;

  /* The shapes are convex and drawn with back faces culled (the plane is
   * one face): no depth buffer is needed. Blending is on only when
   * something is translucent. All of it counts under llvmpipe. */
  glViewport (0, 0, width, height);
  glDisable (GL_DEPTH_TEST);
  glDisable (GL_BLEND);
  glDisable (GL_CULL_FACE);

  glGetIntegerv (GL_DRAW_FRAMEBUFFER_BINDING, &area_fbo);
  if (self->background_width != width || self->background_height != height
      || self->background_cell != 16 * scale)
    draw_background (self, (GLuint) area_fbo, width, height, 16 * scale);
  /* one copy per frame instead of drawing the pattern again */
  glBindFramebuffer (GL_READ_FRAMEBUFFER, self->background_fbo);
  glBindFramebuffer (GL_DRAW_FRAMEBUFFER, (GLuint) area_fbo);
  glBlitFramebuffer (0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) area_fbo);

  eval = ensure_evaluation (self);
  if (eval != NULL)
    {
      const PhaseRuntime *v = &eval->value;
      const Mesh *mesh = &self->meshes[self->shape];
      MatTexture *texture = NULL;
      const GlTexture *gl_texture = NULL;
      GLuint tex_id = 0;
      gboolean translucent;
      float uv_rect[4] = { 0, 0, 1, 1 };
      Mat4 projection, view, model, model_view, mvp;

      projection = mat4_perspective (CAMERA_FOVY, (float) width / (float) height, 0.1f, 20.0f);
      view = mat4_translation (0, 0, -CAMERA_DISTANCE);
      model_matrix (self, &model);
      model_view = mat4_mul (&view, &model);
      mvp = mat4_mul (&projection, &model_view);

      if (self->texture_name != NULL)
        gl_texture = gl_texture_for (self, self->texture_name, &texture);
      if (gl_texture != NULL)
        tex_id = gl_texture->id;
      translucent = v->f[3] < 1.0f || (tex_id != 0 && !gl_texture->opaque);
      if (tex_id != 0)
        {
          texture_uv_rect (texture, v->i18, uv_rect);
          glActiveTexture (GL_TEXTURE0);
          glBindTexture (GL_TEXTURE_2D, tex_id);
        }

      program = &self->programs[PROGRAM_LIT + (self->unlit ? 1 : 0) + (tex_id != 0 ? 2 : 0)];
      glUseProgram (program->id);
      glUniformMatrix4fv (program->uniforms[U_MVP], 1, GL_FALSE, mvp.m);
      glUniformMatrix4fv (program->uniforms[U_MODEL_VIEW], 1, GL_FALSE, model_view.m);
      glUniform1i (program->uniforms[U_TEXTURE], 0);
      glUniform4fv (program->uniforms[U_UV_RECT], 1, uv_rect);
      glUniform4fv (program->uniforms[U_DIFFUSE], 1, &v->f[0]);
      glUniform4fv (program->uniforms[U_AMBIENT], 1, &v->f[4]);
      glUniform4fv (program->uniforms[U_SPECULAR], 1, &v->f[8]);
      glUniform4fv (program->uniforms[U_EMISSIVE], 1, &v->f[12]);
      glUniform1f (program->uniforms[U_POWER], v->power);
      glUniform3fv (program->uniforms[U_LIGHT_DIR], 1, light_dir);
      glUniform3f (program->uniforms[U_AMBIENT_LIGHT], 0.35f, 0.35f, 0.35f);

      if (translucent)
        {
          glEnable (GL_BLEND);
          glBlendFuncSeparate (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        }
      if (self->shape != MAT_PREVIEW_SHAPE_PLANE)
        {
          glEnable (GL_CULL_FACE);
          glCullFace (GL_BACK);
          glFrontFace (GL_CCW);
        }
      glBindVertexArray (mesh->vao);
      glDrawElements (GL_TRIANGLES, mesh->n_indices, GL_UNSIGNED_INT, NULL);
      glDisable (GL_CULL_FACE);
      glDisable (GL_BLEND);
      glBindTexture (GL_TEXTURE_2D, 0);
    }

  glBindVertexArray (0);
  glUseProgram (0);

  if (self->capture_pending)
    capture_frame (self, width, height);
  self->n_renders++;
  return TRUE;
}

static void
queue_render (MatPreview *self)
{
  if (self->gl_ready)
    gtk_gl_area_queue_render (self->gl_area);
}

/* ---- controls --------------------------------------------------------- */

static const char *
mode_label (guint mode)
{
  switch (mode)
    {
    case PHASE_EVAL_MODE_LOOP: return _("loop");
    case PHASE_EVAL_MODE_PING_PONG: return _("ping-pong");
    case PHASE_EVAL_MODE_ONE_SHOT: return _("one-shot");
    case PHASE_EVAL_MODE_RANDOM: return _("random");
    default: return NULL;
    }
}

/* How far the time scale reaches: one cycle, two for ping-pong. */
static guint32
scale_span (MatPreview *self)
{
  const Mat0Block *block = current_block (self);
  guint32 cycle = block_cycle (block);

  if (cycle == 0)
    return 0;
  if (mat0_block_mode (block) == PHASE_EVAL_MODE_PING_PONG && cycle <= G_MAXUINT32 / 2)
    return cycle * 2;
  return cycle;
}

static void
sync_readout (MatPreview *self)
{
  const PhaseEvalResult *eval = ensure_evaluation (self);
  g_autofree char *text = NULL;

  if (eval == NULL)
    text = g_strdup_printf (_("%u ms"), self->time);
  else if (eval->period == 0)
    /* Translators: time in ms, then the phase shown */
    text = g_strdup_printf (_("%u ms · phase %d"), self->time, eval->phase_a);
  else
    /* Translators: time in ms, the position in the cycle and the cycle length */
    text = g_strdup_printf (_("%u ms · %u / %u ms"), self->time, eval->r, eval->period);
  if (g_strcmp0 (gtk_label_get_text (self->time_label), text) != 0)
    gtk_label_set_text (self->time_label, text);

  if (eval != NULL && eval->period > 0)
    {
      g_autofree char *tip = NULL;

      if (eval->hold)
        tip = g_strdup_printf (_("Holding key %d (phase %d)"), eval->segment, eval->phase_a);
      else
        /* Translators: key k -> next key, blend factor, phase a -> phase b */
        tip = g_strdup_printf (_("Key %d → %d, α %.3f, phase %d → %d"), eval->segment, eval->next,
                               eval->alpha, eval->phase_a, eval->phase_b);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->time_label), tip);
    }
  else
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->time_label), NULL);
}

static void
sync_time (MatPreview *self)
{
  guint32 span = scale_span (self);
  const Mat0Block *block = current_block (self);
  double value = 0;

  self->syncing = TRUE;
  if (span > 0)
    {
      value = block != NULL && mat0_block_mode (block) == PHASE_EVAL_MODE_ONE_SHOT
              ? MIN (self->time, span) : self->time % span;
      /* while playing only the value moves: no new bounds, no relayout */
      if (gtk_adjustment_get_upper (self->time_adjustment) == span)
        gtk_adjustment_set_value (self->time_adjustment, value);
      else
        gtk_adjustment_configure (self->time_adjustment, value, 0, span, 10, span / 10.0, 0);
    }
  else
    gtk_adjustment_configure (self->time_adjustment, 0, 0, 1, 1, 1, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->time_scale), span > 0);
  self->syncing = FALSE;
}

static void
sync_marks (MatPreview *self)
{
  const Mat0Block *block = current_block (self);
  guint32 span = scale_span (self);
  guint32 start = 0;

  gtk_scale_clear_marks (self->time_scale);
  if (block == NULL || span == 0)
    return;
  for (guint pass = 0; pass < 2 && start < span; pass++)
    for (guint k = 0; k < block->n_keys; k++)
      {
        if (start > 0 && start < span)
          gtk_scale_add_mark (self->time_scale, start, GTK_POS_BOTTOM, NULL);
        start += block->keys[k].k1;
      }
}

static void
sync_texture_status (MatPreview *self)
{
  const PhaseEvalResult *eval = ensure_evaluation (self);
  g_autofree char *text = NULL;

  if (eval != NULL && self->texture_name != NULL)
    {
      MatTexture *texture = self->textures != NULL
                            ? mat_texture_library_lookup (self->textures, self->texture_name)
                            : NULL;

      if (texture == NULL)
        text = g_strdup_printf (_("Texture %s not found: drawn untextured"), self->texture_name);
      else if (mat_texture_get_error (texture) != NULL)
        text = g_strdup_printf (_("Texture %s cannot be decoded: drawn untextured"),
                                self->texture_name);
    }
  if (text != NULL)
    gtk_label_set_text (self->texture_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->texture_label), text != NULL);
}

static void
sync_phase_control (MatPreview *self)
{
  const Mat0Block *block = current_block (self);
  guint n = self->core != NULL ? self->core->n_phases : 0;
  gboolean static_shown = self->core != NULL && (block == NULL || block->n_keys == 0);

  self->syncing = TRUE;
  gtk_adjustment_configure (self->phase_adjustment, MIN (self->phase, n > 0 ? n - 1 : 0),
                            0, n > 0 ? n - 1 : 0, 1, 1, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->phase_spin), static_shown && n > 1);
  gtk_widget_set_sensitive (self->phase_title, static_shown && n > 1);
  self->syncing = FALSE;
}

static void
sync_reroll (MatPreview *self)
{
  const Mat0Block *block = current_block (self);
  gboolean random = block != NULL && mat0_block_mode (block) == PHASE_EVAL_MODE_RANDOM;
  g_autofree char *text = NULL;

  if (random)
    /* Translators: the random offset R of mode 3, in ms */
    text = g_strdup_printf (_("R = %u ms"), self->random_offset);
  gtk_label_set_text (self->reroll_label, text != NULL ? text : _("Re-roll"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "preview.reroll", random);
}

static gboolean
same_strings (GListModel *model,
              GPtrArray  *labels)
{
  if (model == NULL || g_list_model_get_n_items (model) != labels->len)
    return FALSE;
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), i),
                   g_ptr_array_index (labels, i)) != 0)
      return FALSE;
  return TRUE;
}

/* The block list is replaced only when its labels change: never while the
 * drop-down reports a selection. */
static void
sync_blocks (MatPreview *self)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  guint n = self->core != NULL ? self->core->n_blocks : 0;

  g_ptr_array_add (labels, g_strdup (_("Static phase")));
  for (guint b = 0; b < n; b++)
    {
      guint mode = mat0_block_mode (&self->core->blocks[b]);
      const char *name = mode_label (mode);

      if (name != NULL)
        /* Translators: animation block index and its playback mode */
        g_ptr_array_add (labels, g_strdup_printf (_("Block %u (%s)"), b, name));
      else
        g_ptr_array_add (labels, g_strdup_printf (_("Block %u (unknown mode %u)"), b, mode));
    }

  self->syncing = TRUE;
  if (!same_strings (gtk_drop_down_get_model (self->block_dropdown), labels))
    {
      g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);

      for (guint i = 0; i < labels->len; i++)
        gtk_string_list_append (list, g_ptr_array_index (labels, i));
      gtk_drop_down_set_model (self->block_dropdown, G_LIST_MODEL (list));
    }
  if (gtk_drop_down_get_selected (self->block_dropdown) != (guint) (self->block + 1))
    gtk_drop_down_set_selected (self->block_dropdown, (guint) (self->block + 1));
  gtk_widget_set_sensitive (GTK_WIDGET (self->block_dropdown), self->core != NULL);
  self->syncing = FALSE;
}

/* Everything that depends on the evaluation or the block. */
static void
sync_all (MatPreview *self)
{
  ensure_core (self);
  sync_blocks (self);
  sync_phase_control (self);
  sync_time (self);
  sync_marks (self);
  sync_readout (self);
  sync_texture_status (self);
  sync_reroll (self);
}

static void
sync_play_button (MatPreview *self)
{
  gtk_button_set_icon_name (GTK_BUTTON (self->play_button),
                            self->playing ? "media-playback-pause-symbolic"
                                          : "media-playback-start-symbolic");
}

/* ---- playback --------------------------------------------------------- */

static void
update_stop_point (MatPreview *self)
{
  guint32 cycle = block_cycle (current_block (self));

  if (cycle == 0)
    self->stop_at = 0;
  else
    self->stop_at = ((guint64) self->time / cycle + 1) * cycle;
}

static void
set_time_internal (MatPreview *self,
                   guint32     time_ms,
                   gboolean    readout)
{
  if (self->time == time_ms)
    return;
  self->time = time_ms;
  invalidate_evaluation (self);
  sync_time (self);
  if (readout)
    {
      sync_readout (self);
      sync_texture_status (self);
    }
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME]);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  MatPreview *self = MAT_PREVIEW (widget);
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  double dt_ms;
  guint64 next;
  gboolean stop = FALSE, readout;

  if (self->last_frame_time == 0)
    {
      self->last_frame_time = now;
      return G_SOURCE_CONTINUE;
    }
  dt_ms = (double) (now - self->last_frame_time) / 1000.0;
  self->last_frame_time = now;

  self->rotation = fmod (self->rotation + dt_ms * ROTATION_SPEED, 360.0);
  self->time_fraction += dt_ms * self->speed;
  next = (guint64) self->time + (guint64) self->time_fraction;
  self->time_fraction -= floor (self->time_fraction);
  if (!self->loop && self->stop_at > 0 && next >= self->stop_at)
    {
      next = self->stop_at;
      stop = TRUE;
    }

  readout = stop || now - self->last_readout >= READOUT_INTERVAL_US;
  if (readout)
    self->last_readout = now;
  set_time_internal (self, (guint32) (next & G_MAXUINT32), readout);
  queue_render (self);
  if (stop)
    {
      self->tick_id = 0;
      mat_preview_set_playing (self, FALSE);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* ---- model signals ---------------------------------------------------- */

static void
clamp_selection (MatPreview *self)
{
  guint n_blocks = self->core != NULL ? self->core->n_blocks : 0;

  if (self->block >= 0 && (guint) self->block >= n_blocks)
    {
      self->block = n_blocks > 0 ? (int) n_blocks - 1 : -1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BLOCK]);
    }
}

static void
on_material_changed (MatPreview *self)
{
  self->core_valid = FALSE;
  invalidate_evaluation (self);
  ensure_core (self);
  clamp_selection (self);
  sync_all (self);
  if (!self->loop && self->playing)
    update_stop_point (self);
  queue_render (self);
}

/* ---- control callbacks ------------------------------------------------ */

static void
on_time_scale_changed (GtkAdjustment *adjustment,
                       MatPreview    *self)
{
  guint32 span = scale_span (self);
  guint64 value = (guint64) gtk_adjustment_get_value (adjustment);
  guint64 base;

  if (self->syncing || span == 0)
    return;
  /* Keep the instance in its cycle; one-shot holds after the first. */
  base = (self->time / span) * (guint64) span;
  if (mat0_block_mode (current_block (self)) == PHASE_EVAL_MODE_ONE_SHOT)
    base = 0;
  mat_preview_set_time (self, (guint32) MIN (base + value, G_MAXUINT32));
}

static void
on_block_selected (GtkDropDown *dropdown,
                   GParamSpec  *pspec,
                   MatPreview  *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;
  mat_preview_set_block (self, (int) selected - 1);
}

static void
on_shape_selected (GtkDropDown *dropdown,
                   GParamSpec  *pspec,
                   MatPreview  *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->syncing || selected > MAT_PREVIEW_SHAPE_PLANE)
    return;
  mat_preview_set_shape (self, (MatPreviewShape) selected);
}

static void
on_phase_spin_changed (GtkAdjustment *adjustment,
                       MatPreview    *self)
{
  if (self->syncing)
    return;
  mat_preview_set_phase (self, (guint) gtk_adjustment_get_value (adjustment));
}

static void
on_speed_changed (GtkAdjustment *adjustment,
                  MatPreview    *self)
{
  if (self->syncing)
    return;
  mat_preview_set_speed (self, gtk_adjustment_get_value (adjustment));
}

static void
reroll_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  mat_preview_reroll (MAT_PREVIEW (widget));
}

/* ---- GObject ---------------------------------------------------------- */

static void
mat_preview_dispose (GObject *object)
{
  MatPreview *self = MAT_PREVIEW (object);

  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  if (self->material_signals != NULL)
    g_signal_group_set_target (self->material_signals, NULL);
  if (self->phases_signals != NULL)
    g_signal_group_set_target (self->phases_signals, NULL);
  if (self->blocks_signals != NULL)
    g_signal_group_set_target (self->blocks_signals, NULL);
  g_clear_object (&self->material_signals);
  g_clear_object (&self->phases_signals);
  g_clear_object (&self->blocks_signals);
  g_clear_object (&self->material);
  g_clear_object (&self->textures);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_PREVIEW);

  G_OBJECT_CLASS (mat_preview_parent_class)->dispose (object);
}

static void
mat_preview_finalize (GObject *object)
{
  MatPreview *self = MAT_PREVIEW (object);

  g_clear_pointer (&self->core, mat0_material_free);
  g_clear_pointer (&self->runtime, g_free);
  g_clear_pointer (&self->texture_name, g_free);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->capture, g_bytes_unref);
  g_clear_pointer (&self->rand, g_rand_free);

  G_OBJECT_CLASS (mat_preview_parent_class)->finalize (object);
}

static void
mat_preview_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  MatPreview *self = MAT_PREVIEW (object);

  switch (prop_id)
    {
    case PROP_MATERIAL: g_value_set_object (value, self->material); break;
    case PROP_BLOCK: g_value_set_int (value, self->block); break;
    case PROP_PHASE: g_value_set_uint (value, self->phase); break;
    case PROP_TIME: g_value_set_uint (value, self->time); break;
    case PROP_RANDOM_OFFSET: g_value_set_uint (value, self->random_offset); break;
    case PROP_PLAYING: g_value_set_boolean (value, self->playing); break;
    case PROP_LOOP: g_value_set_boolean (value, self->loop); break;
    case PROP_SPEED: g_value_set_double (value, self->speed); break;
    case PROP_UNLIT: g_value_set_boolean (value, self->unlit); break;
    case PROP_SHAPE: g_value_set_enum (value, self->shape); break;
    case PROP_TEXTURES: g_value_set_object (value, self->textures); break;
    case PROP_SHOW_CONTROLS: g_value_set_boolean (value, self->show_controls); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_preview_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  MatPreview *self = MAT_PREVIEW (object);

  switch (prop_id)
    {
    case PROP_MATERIAL: mat_preview_set_material (self, g_value_get_object (value)); break;
    case PROP_BLOCK: mat_preview_set_block (self, g_value_get_int (value)); break;
    case PROP_PHASE: mat_preview_set_phase (self, g_value_get_uint (value)); break;
    case PROP_TIME: mat_preview_set_time (self, g_value_get_uint (value)); break;
    case PROP_RANDOM_OFFSET: mat_preview_set_random_offset (self, g_value_get_uint (value)); break;
    case PROP_PLAYING: mat_preview_set_playing (self, g_value_get_boolean (value)); break;
    case PROP_LOOP: mat_preview_set_loop (self, g_value_get_boolean (value)); break;
    case PROP_SPEED: mat_preview_set_speed (self, g_value_get_double (value)); break;
    case PROP_UNLIT: mat_preview_set_unlit (self, g_value_get_boolean (value)); break;
    case PROP_SHAPE: mat_preview_set_shape (self, g_value_get_enum (value)); break;
    case PROP_TEXTURES: mat_preview_set_textures (self, g_value_get_object (value)); break;
    case PROP_SHOW_CONTROLS: mat_preview_set_show_controls (self, g_value_get_boolean (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_preview_class_init (MatPreviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_preview_dispose;
  object_class->finalize = mat_preview_finalize;
  object_class->get_property = mat_preview_get_property;
  object_class->set_property = mat_preview_set_property;

  properties[PROP_MATERIAL] =
    g_param_spec_object ("material", NULL, NULL, MAT_TYPE_MATERIAL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BLOCK] =
    g_param_spec_int ("block", NULL, NULL, -1, MAT0_MAX_BLOCKS - 1, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PHASE] =
    g_param_spec_uint ("phase", NULL, NULL, 0, G_MAXUINT16, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME] =
    g_param_spec_uint ("time", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RANDOM_OFFSET] =
    g_param_spec_uint ("random-offset", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PLAYING] =
    g_param_spec_boolean ("playing", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOOP] =
    g_param_spec_boolean ("loop", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, 0.25, 4.0, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNLIT] =
    g_param_spec_boolean ("unlit", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHAPE] =
    g_param_spec_enum ("shape", NULL, NULL, MAT_TYPE_PREVIEW_SHAPE, MAT_PREVIEW_SHAPE_SPHERE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXTURES] =
    g_param_spec_object ("textures", NULL, NULL, MAT_TYPE_TEXTURE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_CONTROLS] =
    g_param_spec_boolean ("show-controls", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_property_action (widget_class, "preview.playing", "playing");
  gtk_widget_class_install_property_action (widget_class, "preview.loop", "loop");
  gtk_widget_class_install_property_action (widget_class, "preview.unlit", "unlit");
  gtk_widget_class_install_action (widget_class, "preview.reroll", NULL, reroll_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "preview.playing", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "matpreview");
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "mat-preview.ui");
  gtk_widget_class_bind_template_child (widget_class, MatPreview, root_box);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, view_stack);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, gl_area);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, error_label);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, controls);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, play_button);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, loop_button);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, time_scale);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, time_adjustment);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, time_label);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, block_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, phase_title);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, phase_spin);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, phase_adjustment);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, reroll_button);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, reroll_label);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, shape_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, unlit_button);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, speed_spin);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, speed_adjustment);
  gtk_widget_class_bind_template_child (widget_class, MatPreview, texture_label);
}

static void
mat_preview_init (MatPreview *self)
{
  mat_style_ensure ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->block = -1;
  self->loop = TRUE;
  self->speed = 1.0;
  self->shape = MAT_PREVIEW_SHAPE_SPHERE;
  self->show_controls = TRUE;
  self->rand = g_rand_new_with_seed (REROLL_SEED);

  gtk_gl_area_set_required_version (self->gl_area, 3, 3);
  g_signal_connect (self->gl_area, "create-context", G_CALLBACK (on_create_context), self);
  g_signal_connect (self->gl_area, "realize", G_CALLBACK (on_realize), self);
  g_signal_connect (self->gl_area, "unrealize", G_CALLBACK (on_unrealize), self);
  g_signal_connect (self->gl_area, "render", G_CALLBACK (on_render), self);

  self->material_signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_swapped (self->material_signals, "changed",
                                  G_CALLBACK (on_material_changed), self);
  self->phases_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect_swapped (self->phases_signals, "items-changed",
                                  G_CALLBACK (on_material_changed), self);
  self->blocks_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect_swapped (self->blocks_signals, "items-changed",
                                  G_CALLBACK (on_material_changed), self);

  g_signal_connect (self->time_adjustment, "value-changed",
                    G_CALLBACK (on_time_scale_changed), self);
  g_signal_connect (self->phase_adjustment, "value-changed",
                    G_CALLBACK (on_phase_spin_changed), self);
  g_signal_connect (self->speed_adjustment, "value-changed",
                    G_CALLBACK (on_speed_changed), self);
  g_signal_connect (self->block_dropdown, "notify::selected",
                    G_CALLBACK (on_block_selected), self);
  g_signal_connect (self->shape_dropdown, "notify::selected",
                    G_CALLBACK (on_shape_selected), self);

  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->shape_dropdown, self->shape);
  self->syncing = FALSE;
  sync_all (self);
  sync_play_button (self);
}

/* ---- public API ------------------------------------------------------- */

GtkWidget *
mat_preview_new (void)
{
  return g_object_new (MAT_TYPE_PREVIEW, NULL);
}

MatMaterial *
mat_preview_get_material (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);
  return self->material;
}

/* A new material starts at its first block (the static phase when it has
 * none) and phase 0; the time, the shape and the playback state stay. */
void
mat_preview_set_material (MatPreview  *self,
                          MatMaterial *material)
{
  int block;

  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (material == NULL || MAT_IS_MATERIAL (material));

  if (!g_set_object (&self->material, material))
    return;

  g_signal_group_set_target (self->material_signals, material);
  g_signal_group_set_target (self->phases_signals,
                             material != NULL ? mat_material_get_phases (material) : NULL);
  g_signal_group_set_target (self->blocks_signals,
                             material != NULL ? mat_material_get_blocks (material) : NULL);
  self->core_valid = FALSE;
  invalidate_evaluation (self);
  ensure_core (self);

  g_object_freeze_notify (G_OBJECT (self));
  block = self->core != NULL && self->core->n_blocks > 0 ? 0 : -1;
  if (block != self->block)
    {
      self->block = block;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BLOCK]);
    }
  if (self->phase != 0)
    {
      self->phase = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PHASE]);
    }
  update_stop_point (self);
  sync_all (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATERIAL]);
  g_object_thaw_notify (G_OBJECT (self));
}

int
mat_preview_get_block (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), -1);
  return self->block;
}

void
mat_preview_set_block (MatPreview *self,
                       int         block)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (block >= -1);

  if (self->block == block)
    return;
  self->block = block;
  invalidate_evaluation (self);
  update_stop_point (self);
  sync_all (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BLOCK]);
}

guint
mat_preview_get_phase (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return self->phase;
}

void
mat_preview_set_phase (MatPreview *self,
                       guint       phase)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  if (self->phase == phase)
    return;
  self->phase = phase;
  invalidate_evaluation (self);
  sync_phase_control (self);
  sync_readout (self);
  sync_texture_status (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PHASE]);
}

guint
mat_preview_get_time (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return self->time;
}

void
mat_preview_set_time (MatPreview *self,
                      guint       time_ms)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  self->time_fraction = 0;
  set_time_internal (self, time_ms, TRUE);
  if (self->playing && !self->loop)
    update_stop_point (self);
}

gboolean
mat_preview_get_playing (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), FALSE);
  return self->playing;
}

void
mat_preview_set_playing (MatPreview *self,
                         gboolean    playing)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  playing = !!playing;
  if (self->playing == playing)
    return;
  self->playing = playing;
  if (playing)
    {
      update_stop_point (self);
      self->last_frame_time = 0;
      self->time_fraction = 0;
      if (self->tick_id == 0)
        self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_tick, NULL, NULL);
    }
  else
    {
      if (self->tick_id != 0)
        {
          gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
          self->tick_id = 0;
        }
      sync_readout (self);
      sync_texture_status (self);
    }
  sync_play_button (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

gboolean
mat_preview_get_loop (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), TRUE);
  return self->loop;
}

void
mat_preview_set_loop (MatPreview *self,
                      gboolean    loop)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  loop = !!loop;
  if (self->loop == loop)
    return;
  self->loop = loop;
  update_stop_point (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOOP]);
}

double
mat_preview_get_speed (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 1.0);
  return self->speed;
}

void
mat_preview_set_speed (MatPreview *self,
                       double      speed)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  speed = CLAMP (speed, 0.25, 4.0);
  if (self->speed == speed)
    return;
  self->speed = speed;
  self->syncing = TRUE;
  gtk_adjustment_set_value (self->speed_adjustment, speed);
  self->syncing = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

gboolean
mat_preview_get_unlit (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), FALSE);
  return self->unlit;
}

void
mat_preview_set_unlit (MatPreview *self,
                       gboolean    unlit)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  unlit = !!unlit;
  if (self->unlit == unlit)
    return;
  self->unlit = unlit;
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNLIT]);
}

MatPreviewShape
mat_preview_get_shape (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), MAT_PREVIEW_SHAPE_SPHERE);
  return self->shape;
}

void
mat_preview_set_shape (MatPreview      *self,
                       MatPreviewShape  shape)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (shape <= MAT_PREVIEW_SHAPE_PLANE);

  if (self->shape == shape)
    return;
  self->shape = shape;
  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->shape_dropdown, shape);
  self->syncing = FALSE;
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHAPE]);
}

guint
mat_preview_get_random_offset (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return self->random_offset;
}

void
mat_preview_set_random_offset (MatPreview *self,
                               guint       random_offset)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  if (self->random_offset == random_offset)
    return;
  self->random_offset = random_offset;
  invalidate_evaluation (self);
  sync_readout (self);
  sync_texture_status (self);
  sync_reroll (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANDOM_OFFSET]);
}

/* As the engine: R = rand () % cycle of the shown block (0 without one). */
void
mat_preview_reroll (MatPreview *self)
{
  guint32 cycle, value;

  g_return_if_fail (MAT_IS_PREVIEW (self));

  cycle = block_cycle (current_block (self));
  value = g_rand_int (self->rand);
  mat_preview_set_random_offset (self, cycle > 0 ? value % cycle : 0);
}

MatTextureLibrary *
mat_preview_get_textures (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);
  return self->textures;
}

void
mat_preview_set_textures (MatPreview        *self,
                          MatTextureLibrary *textures)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));
  g_return_if_fail (textures == NULL || MAT_IS_TEXTURE_LIBRARY (textures));

  if (!g_set_object (&self->textures, textures))
    return;
  if (self->gl_ready)
    {
      gtk_gl_area_make_current (self->gl_area);
      if (gtk_gl_area_get_error (self->gl_area) == NULL)
        clear_gl_textures (self);
    }
  sync_texture_status (self);
  queue_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURES]);
}

gboolean
mat_preview_get_show_controls (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), TRUE);
  return self->show_controls;
}

void
mat_preview_set_show_controls (MatPreview *self,
                               gboolean    show_controls)
{
  g_return_if_fail (MAT_IS_PREVIEW (self));

  show_controls = !!show_controls;
  if (self->show_controls == show_controls)
    return;
  self->show_controls = show_controls;
  gtk_widget_set_visible (self->controls, show_controls);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_CONTROLS]);
}

gboolean
mat_preview_get_evaluation (MatPreview      *self,
                            PhaseEvalResult *result)
{
  const PhaseEvalResult *eval;

  g_return_val_if_fail (MAT_IS_PREVIEW (self), FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  eval = ensure_evaluation (self);
  if (eval == NULL)
    return FALSE;
  *result = *eval;
  return TRUE;
}

const char *
mat_preview_get_error (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);
  return self->error;
}

static gboolean
on_capture_timeout (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Renders one frame with the read-back armed; %FALSE when none came. */
static gboolean
capture (MatPreview *self)
{
  gboolean timed_out = FALSE;
  guint timeout_id;

  if (!self->gl_ready || self->error != NULL)
    return FALSE;
  self->capture_pending = TRUE;
  gtk_gl_area_queue_render (self->gl_area);
  timeout_id = g_timeout_add (CAPTURE_TIMEOUT_US / 1000, on_capture_timeout, &timed_out);
  while (self->capture_pending && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout_id);
  self->capture_pending = FALSE;
  return !timed_out && self->capture != NULL;
}

GdkTexture *
mat_preview_read_frame_for_test (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);

  if (!capture (self))
    return NULL;
  return gdk_memory_texture_new (self->capture_width, self->capture_height,
                                 GDK_MEMORY_R8G8B8A8, self->capture,
                                 (gsize) self->capture_width * 4);
}

gboolean
mat_preview_read_pixel_for_test (MatPreview *self,
                                 int         x,
                                 int         y,
                                 guint8      rgba[4])
{
  int scale;
  const guint8 *data;

  g_return_val_if_fail (MAT_IS_PREVIEW (self), FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);

  if (!capture (self))
    return FALSE;
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (self->gl_area));
  x *= scale;
  y *= scale;
  if (x < 0 || y < 0 || x >= self->capture_width || y >= self->capture_height)
    return FALSE;
  data = g_bytes_get_data (self->capture, NULL);
  memcpy (rgba, data + ((gsize) y * (gsize) self->capture_width + (gsize) x) * 4, 4);
  return TRUE;
}

guint64
mat_preview_get_n_renders (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return self->n_renders;
}

guint64
mat_preview_get_n_evaluations (MatPreview *self)
{
  g_return_val_if_fail (MAT_IS_PREVIEW (self), 0);
  return self->n_evaluations;
}

GtkWidget *
mat_preview_get_test_widget (MatPreview *self,
                             const char *name)
{
  static const struct { const char *name; gsize offset; } widgets[] = {
    { "play_button", G_STRUCT_OFFSET (MatPreview, play_button) },
    { "loop_button", G_STRUCT_OFFSET (MatPreview, loop_button) },
    { "time_scale", G_STRUCT_OFFSET (MatPreview, time_scale) },
    { "time_label", G_STRUCT_OFFSET (MatPreview, time_label) },
    { "block_dropdown", G_STRUCT_OFFSET (MatPreview, block_dropdown) },
    { "phase_spin", G_STRUCT_OFFSET (MatPreview, phase_spin) },
    { "shape_dropdown", G_STRUCT_OFFSET (MatPreview, shape_dropdown) },
    { "unlit_button", G_STRUCT_OFFSET (MatPreview, unlit_button) },
    { "speed_spin", G_STRUCT_OFFSET (MatPreview, speed_spin) },
    { "reroll_button", G_STRUCT_OFFSET (MatPreview, reroll_button) },
    { "texture_label", G_STRUCT_OFFSET (MatPreview, texture_label) },
    { "gl_area", G_STRUCT_OFFSET (MatPreview, gl_area) },
    { "error_label", G_STRUCT_OFFSET (MatPreview, error_label) },
    { "controls", G_STRUCT_OFFSET (MatPreview, controls) },
  };

  g_return_val_if_fail (MAT_IS_PREVIEW (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (widgets); i++)
    if (strcmp (widgets[i].name, name) == 0)
      return G_STRUCT_MEMBER (GtkWidget *, self, widgets[i].offset);
  return NULL;
}
