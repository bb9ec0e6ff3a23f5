/* mat-preview-renderer.c - how the game draws a material, in OpenGL
 *
 * render.md, step by step:
 *   1. the device material from the evaluated phase: diffuse f0..f2,
 *      emissive = scene + f4..f6 (the self-light), specular f8..f10,
 *      exponent 1 << (power & 31), alpha = the ambient alpha f7; f3, f11
 *      and f12..f15 are never used;
 *   2. one white directional light, per vertex (Gouraud, as Direct3D 7
 *      lights): colour = clamp (emissive + diffuse N.L + specular
 *      (N.H)^exponent), times the texture; alpha = texture alpha times f7;
 *   3. the blend mode's factors, the alpha test for modes 1..5, culling
 *      off, depth writes only when f7 is 1; over the background drawn
 *      into the same framebuffer at alpha 1, and alpha is never written
 *      after it: the frame is opaque, as the game's back buffer is;
 *   4. the cell: the vertex shader rewrites every UV into the Page rect.
 * The "raw" view draws the diffuse colour f0..f2 instead of the lit one,
 * with the same alpha and blending.
 *
 * Cheap under a software rasteriser (llvmpipe): the checkerboard is drawn
 * once per size into its own framebuffer and copied in with one blit per
 * frame, and each shader variant is compiled without branches.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gdk/gdk.h>
#include <glib/gi18n-lib.h>

#include "mat-preview-renderer.h"

#define RESOURCE_PREFIX "/io/github/parkan/MatEdit/"

#define N_SHAPES        MAT_PREVIEW_N_SHAPES

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
  U_EMISSIVE,
  U_SPECULAR,
  U_POWER,
  U_ALPHA,
  U_LIGHT_DIR,
  U_CHECKER_LIGHT,
  U_VIEWPORT,
  N_UNIFORMS
} Uniform;

static const char *const uniform_names[N_UNIFORMS] = {
  "u_mvp", "u_model_view", "u_texture", "u_uv_rect", "u_diffuse", "u_emissive",
  "u_specular", "u_power", "u_alpha", "u_light_dir", "u_checker_light", "u_viewport",
};

/* The background, then the shape's variants: index 1 + raw + 2 * textured
 * + 4 * alpha test. */
#define PROGRAM_BACKGROUND 0
#define PROGRAM_SHAPE      1
#define N_PROGRAMS         9

typedef struct {
  GLuint   id;
  GLint    uniforms[N_UNIFORMS];   /* -1 where the variant lacks one */
  gboolean failed;                 /* did not compile: not tried again */
} Program;

struct _MatPreviewRenderer
{
  gboolean              ready;
  gboolean              es;
  GLint                 max_texture_size;   /* GL_MAX_TEXTURE_SIZE */
  Program               programs[N_PROGRAMS];
  Mesh                  meshes[N_SHAPES];

  /* the checkerboard, drawn once per size */
  Mesh                  background;
  GLuint                background_fbo;
  GLuint                background_texture;
  int                   background_width;
  int                   background_height;
  int                   background_cell;

  GHashTable           *textures;    /* key -> GLuint (0: could not be made) */

  MatPreviewRenderState state;       /* owns texture_key and texture_rgba */
  MatPreviewDrawInfo    draw_info;
};

static const Program *get_program (MatPreviewRenderer *self,
                                   guint               index);

/* ---- pure helpers ----------------------------------------------------- */

void
mat_preview_blend_factors (guint     mode,
                           GLenum   *src,
                           GLenum   *dst,
                           gboolean *alpha_test)
{
  static const struct { GLenum src, dst; } factors[6] = {
    { GL_ONE, GL_ZERO },
    { GL_SRC_ALPHA, GL_ZERO },
    { GL_SRC_ALPHA, GL_ONE },
    { GL_ZERO, GL_SRC_COLOR },
    { GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA },
    { GL_DST_COLOR, GL_SRC_COLOR },
  };

  if (mode >= G_N_ELEMENTS (factors))
    mode = 0;
  if (src != NULL)
    *src = factors[mode].src;
  if (dst != NULL)
    *dst = factors[mode].dst;
  if (alpha_test != NULL)
    *alpha_test = mode != 0;
}

gboolean
mat_preview_cell_uv_rect (const TexmImage *image,
                          gint32           cell,
                          float            rect[4])
{
  const TexmRect *r;
  float w, h;

  rect[0] = rect[1] = 0;
  rect[2] = rect[3] = 1;
  if (cell < 0 || image == NULL)
    return TRUE;
  if (!image->has_page || (guint32) cell >= image->n_rects
      || image->header.width == 0 || image->header.height == 0)
    return FALSE;

  r = &image->rects[cell];
  w = (float) image->header.width;
  h = (float) image->header.height;
  rect[0] = (float) r->x / w;
  rect[1] = (float) r->y / h;
  rect[2] = (float) r->w / w;
  rect[3] = (float) r->h / h;
  return TRUE;
}

float
mat_preview_specular_exponent (float power)
{
  return phase_light_specular_exponent (power);
}

/* ---- matrices --------------------------------------------------------- */

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

/* The field of view spans the shorter side (mat_preview_camera_scale). */
static Mat4
mat4_perspective (int   width,
                  int   height,
                  float near,
                  float far)
{
  Mat4 r = { { 0 } };
  float scale_x, scale_y;

  mat_preview_camera_scale (width, height, &scale_x, &scale_y);
  r.m[0] = scale_x;
  r.m[5] = scale_y;
  r.m[10] = (far + near) / (near - far);
  r.m[11] = -1.0f;
  r.m[14] = 2.0f * far * near / (near - far);
  return r;
}

/* ---- meshes ----------------------------------------------------------- */

static void
mesh_upload (Mesh          *mesh,
             const float   *vertices,
             gsize          n_floats,
             const guint32 *indices,
             gsize          n_indices)
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
  glGenBuffers (1, &mesh->ibo);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->ibo);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr) (n_indices * sizeof (guint32)),
                indices, GL_STATIC_DRAW);
  mesh->n_indices = (GLsizei) n_indices;
  glBindVertexArray (0);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
}

/* Uploads @data and clears it. */
static void
mesh_data_upload (MatPreviewMesh *data,
                  Mesh           *mesh)
{
  mesh_upload (mesh, (const float *) (void *) data->vertices->data, data->vertices->len,
               (const guint32 *) (void *) data->indices->data, data->indices->len);
  mat_preview_mesh_clear (data);
}

static void
mesh_build (Mesh            *mesh,
            MatPreviewShape  shape)
{
  MatPreviewMesh data;

  mat_preview_mesh_init (&data);
  mat_preview_mesh_build (&data, shape);
  mesh_data_upload (&data, mesh);
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

/* ---- the checkerboard ------------------------------------------------- */

static void
background_build (Mesh *mesh,
                  int   width,
                  int   height,
                  int   cell)
{
  MatPreviewMesh data;

  mesh_clear (mesh);
  mat_preview_mesh_init (&data);
  mat_preview_mesh_checkerboard (&data, width, height, cell);
  mesh_data_upload (&data, mesh);
}

static void
background_clear (MatPreviewRenderer *self)
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
 * @target, so that the per-frame blit is a plain copy), then binds
 * @target again. */
static void
background_draw (MatPreviewRenderer *self,
                 GLuint              target,
                 int                 width,
                 int                 height,
                 int                 cell)
{
  const Program *program = get_program (self, PROGRAM_BACKGROUND);
  GLint alpha_bits = 8;

  if (program == NULL)
    return;

  if (target != 0)
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

  glClearColor (MAT_PREVIEW_CHECKER_DARK, MAT_PREVIEW_CHECKER_DARK,
                MAT_PREVIEW_CHECKER_DARK, 1.0f);
  glClear (GL_COLOR_BUFFER_BIT);
  glUseProgram (program->id);
  glUniform3f (program->uniforms[U_CHECKER_LIGHT], MAT_PREVIEW_CHECKER_LIGHT,
               MAT_PREVIEW_CHECKER_LIGHT, MAT_PREVIEW_CHECKER_LIGHT);
  glUniform2f (program->uniforms[U_VIEWPORT], (float) width, (float) height);
  glBindVertexArray (self->background.vao);
  glDrawElements (GL_TRIANGLES, self->background.n_indices, GL_UNSIGNED_INT, NULL);
  glBindVertexArray (0);
  glBindFramebuffer (GL_FRAMEBUFFER, target);

  self->background_width = width;
  self->background_height = height;
  self->background_cell = cell;
}

/* ---- programs --------------------------------------------------------- */

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

static char *
program_defines (guint index)
{
  GString *defines = g_string_new (NULL);

  if (index == PROGRAM_BACKGROUND)
    return g_string_free (g_string_append (defines, "#define BACKGROUND 1\n"), FALSE);
  index -= PROGRAM_SHAPE;
  if (index & 1)
    g_string_append (defines, "#define RAW 1\n");
  if (index & 2)
    g_string_append (defines, "#define TEXTURED 1\n");
  if (index & 4)
    g_string_append (defines, "#define ALPHA_TEST 1\n");
  return g_string_free (defines, FALSE);
}

static void
delete_programs (MatPreviewRenderer *self)
{
  for (guint p = 0; p < N_PROGRAMS; p++)
    {
      if (self->programs[p].id != 0)
        glDeleteProgram (self->programs[p].id);
      self->programs[p].id = 0;
      self->programs[p].failed = FALSE;
    }
}

/* Compiles program @index when it is first needed. Returns %FALSE with
 * @error when it does not compile (and %FALSE again, without an error,
 * every later time). */
static gboolean
ensure_program (MatPreviewRenderer  *self,
                guint                index,
                GError             **error)
{
  Program *program = &self->programs[index];
  g_autofree char *defines = NULL;

  if (program->id != 0)
    return TRUE;
  if (program->failed)
    return FALSE;
  defines = program_defines (index);
  program->id = link_program (self->es, defines, error);
  if (program->id == 0)
    {
      program->failed = TRUE;
      return FALSE;
    }
  for (guint i = 0; i < N_UNIFORMS; i++)
    program->uniforms[i] = glGetUniformLocation (program->id, uniform_names[i]);
  return TRUE;
}

/* The program @index, compiled if need be; %NULL (after a warning, once)
 * when it does not compile. */
static const Program *
get_program (MatPreviewRenderer *self,
             guint               index)
{
  g_autoptr(GError) error = NULL;

  if (ensure_program (self, index, &error))
    return &self->programs[index];
  if (error != NULL)
    g_warning ("Preview: %s", error->message);
  return NULL;
}

/* The mesh of @shape, built when first drawn. */
static const Mesh *
get_mesh (MatPreviewRenderer *self,
          MatPreviewShape     shape)
{
  Mesh *mesh = &self->meshes[shape];

  if (mesh->vao == 0)
    mesh_build (mesh, shape);
  return mesh;
}

/* ---- textures --------------------------------------------------------- */

static void
delete_texture (gpointer key,
                gpointer value,
                gpointer data)
{
  GLuint id = GPOINTER_TO_UINT (value);

  if (id != 0)
    glDeleteTextures (1, &id);
}

/* The GL texture of the state's texture, made once per key; 0 when it
 * cannot be made. */
static GLuint
texture_for_state (MatPreviewRenderer *self)
{
  const MatPreviewRenderState *s = &self->state;
  gpointer value;
  GLuint id = 0;

  if (s->texture_key == NULL)
    return 0;
  if (g_hash_table_lookup_extended (self->textures, s->texture_key, NULL, &value))
    return GPOINTER_TO_UINT (value);

  /* larger than this GL takes: no texture (the caller makes it fit) */
  if (s->texture_rgba != NULL && s->texture_width > 0 && s->texture_height > 0
      && s->texture_width <= (guint) self->max_texture_size
      && s->texture_height <= (guint) self->max_texture_size
      && g_bytes_get_size (s->texture_rgba) >= (gsize) s->texture_width * s->texture_height * 4)
    {
      glGenTextures (1, &id);
      glBindTexture (GL_TEXTURE_2D, id);
      glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
      glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, (GLsizei) s->texture_width,
                    (GLsizei) s->texture_height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                    g_bytes_get_data (s->texture_rgba, NULL));
      glGenerateMipmap (GL_TEXTURE_2D);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      /* Direct3D's default addressing */
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
      glBindTexture (GL_TEXTURE_2D, 0);
    }
  g_hash_table_insert (self->textures, g_strdup (s->texture_key), GUINT_TO_POINTER (id));
  return id;
}

/* ---- public API ------------------------------------------------------- */

MatPreviewRenderer *
mat_preview_renderer_new (void)
{
  MatPreviewRenderer *self = g_new0 (MatPreviewRenderer, 1);

  self->state.shape = MAT_PREVIEW_SHAPE_SPHERE;
  self->state.zoom = 1.0f;
  self->state.scene[0] = self->state.scene[1] = self->state.scene[2] = MAT_PREVIEW_DEFAULT_SCENE;
  self->state.uv_rect[2] = self->state.uv_rect[3] = 1;
  return self;
}

void
mat_preview_renderer_free (MatPreviewRenderer *self)
{
  if (self == NULL)
    return;
  if (self->ready)
    g_warning ("MatPreviewRenderer freed with its GL objects alive");
  g_clear_pointer (&self->textures, g_hash_table_unref);
  g_free ((char *) self->state.texture_key);
  g_clear_pointer (&self->state.texture_rgba, g_bytes_unref);
  g_free (self);
}

gboolean
mat_preview_renderer_init_gl (MatPreviewRenderer  *self,
                              gboolean             es,
                              GError             **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->ready, TRUE);

  self->es = es;
  /* The background and the plain lit variant now, so that a shader that
   * does not compile is reported at once; the other variants and the
   * meshes when a frame first needs them (each costs a compilation under
   * a software rasteriser). */
  if (!ensure_program (self, PROGRAM_BACKGROUND, error)
      || !ensure_program (self, PROGRAM_SHAPE, error))
    {
      delete_programs (self);
      return FALSE;
    }
  self->max_texture_size = 0;
  glGetIntegerv (GL_MAX_TEXTURE_SIZE, &self->max_texture_size);
  /* OpenGL 3.0 and ES 3.0 promise at least 1024 and 2048 */
  self->max_texture_size = MAX (self->max_texture_size, 1024);
  self->background_width = self->background_height = 0;
  self->textures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->ready = TRUE;
  return TRUE;
}

void
mat_preview_renderer_fini_gl (MatPreviewRenderer *self)
{
  g_return_if_fail (self != NULL);

  if (!self->ready)
    return;
  mat_preview_renderer_clear_textures (self);
  g_clear_pointer (&self->textures, g_hash_table_unref);
  for (guint s = 0; s < N_SHAPES; s++)
    mesh_clear (&self->meshes[s]);
  background_clear (self);
  delete_programs (self);
  self->ready = FALSE;
}

gboolean
mat_preview_renderer_is_ready (MatPreviewRenderer *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->ready;
}

guint
mat_preview_renderer_get_max_texture_size (MatPreviewRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->ready ? (guint) self->max_texture_size : 0;
}

void
mat_preview_renderer_set_state (MatPreviewRenderer          *self,
                                const MatPreviewRenderState *state)
{
  char *key;
  GBytes *rgba;

  g_return_if_fail (self != NULL);
  g_return_if_fail (state != NULL);

  key = g_strdup (state->texture_key);
  rgba = state->texture_rgba != NULL ? g_bytes_ref (state->texture_rgba) : NULL;
  g_free ((char *) self->state.texture_key);
  g_clear_pointer (&self->state.texture_rgba, g_bytes_unref);
  self->state = *state;
  self->state.texture_key = key;
  self->state.texture_rgba = rgba;
  if (self->state.shape > MAT_PREVIEW_SHAPE_PLANE)
    self->state.shape = MAT_PREVIEW_SHAPE_SPHERE;
}

gboolean
mat_preview_renderer_has_texture (MatPreviewRenderer *self,
                                  const char         *key)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  return self->textures != NULL && g_hash_table_contains (self->textures, key);
}

void
mat_preview_renderer_clear_textures (MatPreviewRenderer *self)
{
  g_return_if_fail (self != NULL);

  if (self->textures == NULL)
    return;
  g_hash_table_foreach (self->textures, delete_texture, NULL);
  g_hash_table_remove_all (self->textures);
}

/* The shape's own pose (turning slowly while playing), then the user's
 * turn: yaw about the view's vertical axis, then pitch about its
 * horizontal one. */
static Mat4
model_matrix (const MatPreviewRenderState *s)
{
  Mat4 tilt, spin, pose, yaw, pitch, turn;

  switch (s->shape)
    {
    case MAT_PREVIEW_SHAPE_PLANE:
      pose = mat4_rotation (-s->rotation, 2);
      break;
    case MAT_PREVIEW_SHAPE_CUBE:
      tilt = mat4_rotation (25.0f, 0);
      spin = mat4_rotation (35.0f + s->rotation, 1);
      pose = mat4_mul (&tilt, &spin);
      break;
    case MAT_PREVIEW_SHAPE_SPHERE:
    default:
      tilt = mat4_rotation (18.0f, 0);
      spin = mat4_rotation (-30.0f + s->rotation, 1);
      pose = mat4_mul (&tilt, &spin);
      break;
    }
  if (s->yaw == 0.0f && s->pitch == 0.0f)
    return pose;
  yaw = mat4_rotation (s->yaw, 1);
  pitch = mat4_rotation (s->pitch, 0);
  turn = mat4_mul (&pitch, &yaw);
  return mat4_mul (&turn, &pose);
}

static void
draw_material (MatPreviewRenderer *self,
               int                 width,
               int                 height)
{
  const MatPreviewRenderState *s = &self->state;
  const PhaseRuntime *v = &s->phase;
  const Mesh *mesh = get_mesh (self, s->shape);
  const Program *program;
  GLuint texture = texture_for_state (self);
  GLenum src, dst;
  gboolean alpha_test, depth_write;
  float emissive[3], light[3], length, alpha;
  GLint value = 0;
  GLboolean mask = GL_TRUE;
  Mat4 projection, view, model, model_view, mvp;

  projection = mat4_perspective (width, height, 0.1f, 20.0f);
  view = mat4_translation (0, 0, -mat_preview_camera_distance (s->shape, s->zoom));
  model = model_matrix (s);
  model_view = mat4_mul (&view, &model);
  mvp = mat4_mul (&projection, &model_view);

  mat_preview_blend_factors (s->blend_mode, &src, &dst, &alpha_test);
  /* below 1.0 the batch goes to the translucent queue: no depth writes */
  depth_write = !(v->f[7] < 1.0f);
  alpha = isnan (v->f[7]) ? 0.0f : CLAMP (v->f[7], 0.0f, 1.0f);
  for (guint c = 0; c < 3; c++)
    emissive[c] = s->scene[c] + v->f[4 + c];
  length = sqrtf (MAT_PREVIEW_LIGHT_X * MAT_PREVIEW_LIGHT_X + MAT_PREVIEW_LIGHT_Y * MAT_PREVIEW_LIGHT_Y
                  + MAT_PREVIEW_LIGHT_Z * MAT_PREVIEW_LIGHT_Z);
  light[0] = MAT_PREVIEW_LIGHT_X / length;
  light[1] = MAT_PREVIEW_LIGHT_Y / length;
  light[2] = MAT_PREVIEW_LIGHT_Z / length;

  program = get_program (self, PROGRAM_SHAPE + (s->raw ? 1 : 0) + (texture != 0 ? 2 : 0)
                                + (alpha_test ? 4 : 0));
  if (program == NULL)
    return;
  glUseProgram (program->id);
  glUniformMatrix4fv (program->uniforms[U_MVP], 1, GL_FALSE, mvp.m);
  glUniformMatrix4fv (program->uniforms[U_MODEL_VIEW], 1, GL_FALSE, model_view.m);
  glUniform1i (program->uniforms[U_TEXTURE], 0);
  glUniform4fv (program->uniforms[U_UV_RECT], 1, s->uv_rect);
  glUniform3fv (program->uniforms[U_DIFFUSE], 1, &v->f[0]);
  glUniform3fv (program->uniforms[U_EMISSIVE], 1, emissive);
  glUniform3fv (program->uniforms[U_SPECULAR], 1, &v->f[8]);
  glUniform1f (program->uniforms[U_POWER], mat_preview_specular_exponent (v->power));
  glUniform1f (program->uniforms[U_ALPHA], alpha);
  glUniform3fv (program->uniforms[U_LIGHT_DIR], 1, light);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, texture);

  if (s->blend_mode == 0 || s->blend_mode > 5)
    glDisable (GL_BLEND);   /* ONE, ZERO */
  else
    {
      glEnable (GL_BLEND);
      glBlendEquation (GL_FUNC_ADD);
      glBlendFunc (src, dst);
    }
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LESS);
  glDepthMask (depth_write ? GL_TRUE : GL_FALSE);
  glDisable (GL_CULL_FACE);   /* every batch is two-sided */
  /* The game draws into an opaque back buffer: the background's alpha 1
   * stays, whatever the material's alpha, so that GTK, which composites
   * the GL area's alpha over the window, shows exactly the blended
   * colour (render.md 2). */
  glColorMask (GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);

  /* what the draw runs with, from GL itself */
  memset (&self->draw_info, 0, sizeof self->draw_info);
  self->draw_info.drawn = TRUE;
  self->draw_info.blend = glIsEnabled (GL_BLEND);
  glGetIntegerv (GL_BLEND_SRC_RGB, &value);
  self->draw_info.src_rgb = self->draw_info.blend ? value : GL_ONE;
  glGetIntegerv (GL_BLEND_DST_RGB, &value);
  self->draw_info.dst_rgb = self->draw_info.blend ? value : GL_ZERO;
  self->draw_info.depth_test = glIsEnabled (GL_DEPTH_TEST);
  glGetBooleanv (GL_DEPTH_WRITEMASK, &mask);
  self->draw_info.depth_write = mask == GL_TRUE;
  self->draw_info.cull_face = glIsEnabled (GL_CULL_FACE);
  {
    GLboolean colour_mask[4] = { GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE };

    glGetBooleanv (GL_COLOR_WRITEMASK, colour_mask);
    self->draw_info.alpha_write = colour_mask[3] == GL_TRUE;
  }
  self->draw_info.alpha_test = alpha_test;
  self->draw_info.textured = texture != 0;
  self->draw_info.raw = s->raw;

  glBindVertexArray (mesh->vao);
  glDrawElements (GL_TRIANGLES, mesh->n_indices, GL_UNSIGNED_INT, NULL);

  glBindVertexArray (0);
  glBindTexture (GL_TEXTURE_2D, 0);
  glDisable (GL_BLEND);
  glDisable (GL_DEPTH_TEST);
  glDepthMask (GL_TRUE);
  glColorMask (GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

void
mat_preview_renderer_render (MatPreviewRenderer *self,
                             int                 width,
                             int                 height,
                             int                 scale)
{
  const MatPreviewRenderState *s;
  GLint target = 0;

  g_return_if_fail (self != NULL);

  memset (&self->draw_info, 0, sizeof self->draw_info);
  if (!self->ready || width <= 0 || height <= 0)
    return;
  s = &self->state;
  scale = MAX (scale, 1);

  glViewport (0, 0, width, height);
  glColorMask (GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glDisable (GL_BLEND);
  glDisable (GL_DEPTH_TEST);
  glDisable (GL_CULL_FACE);
  glDepthMask (GL_TRUE);

  glGetIntegerv (GL_DRAW_FRAMEBUFFER_BINDING, &target);
  switch (s->background)
    {
    case MAT_PREVIEW_BACKGROUND_CHECKERBOARD:
      if (self->background_width != width || self->background_height != height
          || self->background_cell != MAT_PREVIEW_CHECKER_CELL * scale)
        background_draw (self, (GLuint) target, width, height, MAT_PREVIEW_CHECKER_CELL * scale);
      /* one copy per frame instead of drawing the pattern again */
      glBindFramebuffer (GL_READ_FRAMEBUFFER, self->background_fbo);
      glBindFramebuffer (GL_DRAW_FRAMEBUFFER, (GLuint) target);
      glBlitFramebuffer (0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
      glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) target);
      glClear (GL_DEPTH_BUFFER_BIT);
      break;
    case MAT_PREVIEW_BACKGROUND_BLACK:
      glClearColor (0, 0, 0, 1);
      glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
      break;
    case MAT_PREVIEW_BACKGROUND_SCENE:
    default:
      glClearColor (CLAMP (s->scene[0], 0.0f, 1.0f), CLAMP (s->scene[1], 0.0f, 1.0f),
                    CLAMP (s->scene[2], 0.0f, 1.0f), 1);
      glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
      break;
    }

  if (s->has_phase)
    draw_material (self, width, height);
  glUseProgram (0);
}

GBytes *
mat_preview_renderer_read_pixels (MatPreviewRenderer *self,
                                  int                 width,
                                  int                 height)
{
  gsize stride;
  guint8 *pixels, *flipped;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  stride = (gsize) width * 4;
  pixels = g_malloc ((gsize) height * stride);
  flipped = g_malloc ((gsize) height * stride);
  glPixelStorei (GL_PACK_ALIGNMENT, 4);
  glReadPixels (0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  for (int y = 0; y < height; y++)
    memcpy (flipped + (gsize) y * stride, pixels + (gsize) (height - 1 - y) * stride, stride);
  g_free (pixels);
  return g_bytes_new_take (flipped, (gsize) height * stride);
}

void
mat_preview_renderer_get_draw_info (MatPreviewRenderer *self,
                                    MatPreviewDrawInfo *info)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (info != NULL);

  *info = self->draw_info;
}
