/* mat-preview-mesh.c - the preview's shapes and the camera that frames them */
#include "config.h"

#include <math.h>

#include "mat-preview-mesh.h"

#define SPHERE_SLICES   48
#define SPHERE_STACKS   32
#define QUAD_STEPS      8

void
mat_preview_mesh_init (MatPreviewMesh *mesh)
{
  mesh->vertices = g_array_new (FALSE, FALSE, sizeof (float));
  mesh->indices = g_array_new (FALSE, FALSE, sizeof (guint32));
}

void
mat_preview_mesh_clear (MatPreviewMesh *mesh)
{
  g_clear_pointer (&mesh->vertices, g_array_unref);
  g_clear_pointer (&mesh->indices, g_array_unref);
}

guint
mat_preview_mesh_n_vertices (const MatPreviewMesh *mesh)
{
  return mesh->vertices->len / MAT_PREVIEW_MESH_STRIDE;
}

static void
add_vertex (MatPreviewMesh *mesh,
            float x, float y, float z,
            float nx, float ny, float nz,
            float u, float v)
{
  float vertex[MAT_PREVIEW_MESH_STRIDE] = { x, y, z, nx, ny, nz, u, v };

  g_array_append_vals (mesh->vertices, vertex, MAT_PREVIEW_MESH_STRIDE);
}

static void
add_triangle (MatPreviewMesh *mesh,
              guint32         a,
              guint32         b,
              guint32         c)
{
  guint32 tri[3] = { a, b, c };

  g_array_append_vals (mesh->indices, tri, 3);
}

/* UV sphere of radius 1: v = 0 at the north pole, the seam at the back. */
static void
build_sphere (MatPreviewMesh *mesh)
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

          add_vertex (mesh, x, y, z, x, y, z,
                      (float) j / SPHERE_SLICES, (float) i / SPHERE_STACKS);
        }
    }
  for (guint i = 0; i < SPHERE_STACKS; i++)
    for (guint j = 0; j < SPHERE_SLICES; j++)
      {
        guint32 a = i * (SPHERE_SLICES + 1) + j;
        guint32 b = a + SPHERE_SLICES + 1;

        add_triangle (mesh, a, b, b + 1);
        add_triangle (mesh, a, b + 1, a + 1);
      }
}

/* One quad centred at @c with axes @u and @v (u x v = the normal @n),
 * counter-clockwise seen from the front, as a grid of @steps x @steps
 * cells (lighting is per vertex, as in Direct3D 7). */
static void
build_quad (MatPreviewMesh *mesh,
            const float     c[3],
            const float     u[3],
            const float     v[3],
            const float     n[3],
            guint           steps)
{
  guint32 base = mat_preview_mesh_n_vertices (mesh);

  for (guint j = 0; j <= steps; j++)
    for (guint i = 0; i <= steps; i++)
      {
        float a = -1.0f + 2.0f * (float) i / (float) steps;
        float b = -1.0f + 2.0f * (float) j / (float) steps;

        add_vertex (mesh,
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

        add_triangle (mesh, k, k + 1, above + 1);
        add_triangle (mesh, k, above + 1, above);
      }
}

static void
build_cube (MatPreviewMesh *mesh)
{
  const float h = MAT_PREVIEW_CUBE_HALF;
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
      build_quad (mesh, c, u, v, faces[f][0], QUAD_STEPS);
    }
}

static void
build_plane (MatPreviewMesh *mesh)
{
  static const float c[3] = { 0, 0, 0 };
  static const float u[3] = { MAT_PREVIEW_PLANE_HALF, 0, 0 };
  static const float v[3] = { 0, MAT_PREVIEW_PLANE_HALF, 0 };
  static const float n[3] = { 0, 0, 1 };

  build_quad (mesh, c, u, v, n, QUAD_STEPS * 2);
}

void
mat_preview_mesh_build (MatPreviewMesh  *mesh,
                        MatPreviewShape  shape)
{
  g_return_if_fail (mesh != NULL && mesh->vertices != NULL);

  switch (shape)
    {
    case MAT_PREVIEW_SHAPE_SPHERE: build_sphere (mesh); break;
    case MAT_PREVIEW_SHAPE_CUBE: build_cube (mesh); break;
    case MAT_PREVIEW_SHAPE_PLANE: default: build_plane (mesh); break;
    }
}

void
mat_preview_mesh_checkerboard (MatPreviewMesh *mesh,
                               int             width,
                               int             height,
                               int             cell)
{
  g_return_if_fail (mesh != NULL && mesh->vertices != NULL);
  g_return_if_fail (cell > 0);

  for (int y = 0; y * cell < height; y++)
    for (int x = (y + 1) % 2; x * cell < width; x += 2)
      {
        float x0 = (float) (x * cell), y0 = (float) (y * cell);
        float x1 = x0 + (float) cell, y1 = y0 + (float) cell;
        guint32 base = mat_preview_mesh_n_vertices (mesh);

        add_vertex (mesh, x0, y0, 0, 0, 0, 1, 0, 0);
        add_vertex (mesh, x1, y0, 0, 0, 0, 1, 0, 0);
        add_vertex (mesh, x1, y1, 0, 0, 0, 1, 0, 0);
        add_vertex (mesh, x0, y1, 0, 0, 0, 1, 0, 0);
        add_triangle (mesh, base, base + 1, base + 2);
        add_triangle (mesh, base, base + 2, base + 3);
      }
}

/* ---- the camera ------------------------------------------------------- */

float
mat_preview_shape_radius (MatPreviewShape shape)
{
  switch (shape)
    {
    case MAT_PREVIEW_SHAPE_CUBE:
      return MAT_PREVIEW_CUBE_HALF * sqrtf (3.0f);
    case MAT_PREVIEW_SHAPE_PLANE:
      return MAT_PREVIEW_PLANE_HALF * sqrtf (2.0f);
    case MAT_PREVIEW_SHAPE_SPHERE:
    default:
      return 1.0f;
    }
}

float
mat_preview_camera_distance (MatPreviewShape shape,
                             float           zoom)
{
  float half_fov = MAT_PREVIEW_CAMERA_FOV * (float) G_PI / 360.0f;
  /* a sphere of radius r at distance d spans asin (r / d) of the view */
  float fit = mat_preview_shape_radius (shape) / sinf (half_fov * MAT_PREVIEW_CAMERA_FILL);

  if (isnan (zoom))
    zoom = 1.0f;
  zoom = CLAMP (zoom, MAT_PREVIEW_ZOOM_MIN, MAT_PREVIEW_ZOOM_MAX);
  return MAX (MAT_PREVIEW_CAMERA_DISTANCE, fit) / zoom;
}

void
mat_preview_camera_scale (int    width,
                          int    height,
                          float *scale_x,
                          float *scale_y)
{
  float f = 1.0f / tanf (MAT_PREVIEW_CAMERA_FOV * (float) G_PI / 360.0f);
  float aspect = height > 0 && width > 0 ? (float) width / (float) height : 1.0f;

  /* the field of view spans the shorter side */
  if (aspect >= 1.0f)
    {
      *scale_x = f / aspect;
      *scale_y = f;
    }
  else
    {
      *scale_x = f;
      *scale_y = f * aspect;
    }
}
