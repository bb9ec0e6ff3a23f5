/* mat-preview-mesh.h - the preview's shapes and the camera that frames them
 *
 * Plain data, no GL: the vertices (position, normal, UV) and triangles of
 * the sphere, the cube and the plane the preview draws, the light squares
 * of its checkerboard, and where the camera sits so that a shape is never
 * cut by the edges of the view, however it is turned. The renderer
 * uploads the meshes; tests compute pixels from the camera.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  MAT_PREVIEW_SHAPE_SPHERE,
  MAT_PREVIEW_SHAPE_CUBE,
  MAT_PREVIEW_SHAPE_PLANE,
} MatPreviewShape;

#define MAT_PREVIEW_N_SHAPES 3

/* The shapes, centred at the origin: a sphere of radius 1, a cube of
 * half-side MAT_PREVIEW_CUBE_HALF, the plane -1..1 in x and y facing +z
 * (its texture's top row at y = 1). */
#define MAT_PREVIEW_CUBE_HALF  0.72f
#define MAT_PREVIEW_PLANE_HALF 1.0f

/* The camera: at the origin looking down -z, the shape's centre
 * mat_preview_camera_distance () in front of it. The field of view is
 * MAT_PREVIEW_CAMERA_FOV degrees across the SHORTER side of the view
 * (vertically in a wide view, horizontally in a tall one). At zoom 1 the
 * distance is the larger of MAT_PREVIEW_CAMERA_DISTANCE and the one at
 * which the shape's bounding sphere spans MAT_PREVIEW_CAMERA_FILL of the
 * half field of view: no rotation brings a corner out of the view. */
#define MAT_PREVIEW_CAMERA_DISTANCE 3.6f
#define MAT_PREVIEW_CAMERA_FOV      40.0f
#define MAT_PREVIEW_CAMERA_FILL     0.9f
/* Zoom: the distance is divided by it. */
#define MAT_PREVIEW_ZOOM_MIN        0.5f
#define MAT_PREVIEW_ZOOM_MAX        3.0f

typedef struct {
  GArray *vertices;   /* float: x y z, nx ny nz, u v */
  GArray *indices;    /* guint32, three per triangle */
} MatPreviewMesh;

#define MAT_PREVIEW_MESH_STRIDE 8   /* floats per vertex */

/* Fills @mesh (initialised or cleared) with @shape: the sphere as 48
 * slices and 32 stacks (its seam at the back), the cube's faces and the
 * plane as grids (lighting is per vertex, as in Direct3D 7). */
void   mat_preview_mesh_build      (MatPreviewMesh  *mesh,
                                    MatPreviewShape  shape);
/* The light squares of a checkerboard of @cell pixels over @width x
 * @height, in framebuffer pixels from the bottom left (the bottom left
 * square is dark: the clear colour). */
void   mat_preview_mesh_checkerboard (MatPreviewMesh *mesh,
                                      int             width,
                                      int             height,
                                      int             cell);
void   mat_preview_mesh_init       (MatPreviewMesh  *mesh);
void   mat_preview_mesh_clear      (MatPreviewMesh  *mesh);
guint  mat_preview_mesh_n_vertices (const MatPreviewMesh *mesh);

/* The radius of the smallest sphere about the origin that holds @shape. */
float  mat_preview_shape_radius    (MatPreviewShape  shape);
/* The camera's distance from the shape's centre (see above); @zoom is
 * clamped to MAT_PREVIEW_ZOOM_MIN..MAX. */
float  mat_preview_camera_distance (MatPreviewShape  shape,
                                    float            zoom);
/* The projection's scale along x and y for a view of @width x @height:
 * a point (x, y) at the distance z in front of the camera lands at
 * (x * scale_x / z, y * scale_y / z) in normalized device coordinates
 * (-1..1 across the view). 1 / tan (MAT_PREVIEW_CAMERA_FOV / 2) on the
 * shorter side. */
void   mat_preview_camera_scale    (int              width,
                                    int              height,
                                    float           *scale_x,
                                    float           *scale_y);

G_END_DECLS
