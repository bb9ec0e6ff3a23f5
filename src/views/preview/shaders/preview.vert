/* preview.vert - MatPreviewRenderer: the shape lit per vertex as Direct3D 7
 * fixed function lights it (render.md 2), or (compiled with BACKGROUND
 * defined) the light squares of the checkerboard. Compiled with RAW
 * defined, the colour is the evaluator's diffuse colour without
 * lighting. The #version line (330 core or 300 es) and the defines are
 * prepended when compiling. */

in vec3 a_position;
in vec3 a_normal;
in vec2 a_uv;

#ifdef BACKGROUND

uniform vec2  u_viewport;       /* framebuffer size in pixels */

#else

uniform mat4  u_mvp;
uniform mat4  u_model_view;

/* the device material (render.md 1) */
uniform vec3  u_diffuse;        /* f0..f2 */
uniform vec3  u_emissive;       /* scene + f4..f6: the self-light */
uniform vec3  u_specular;       /* f8..f10 */
uniform float u_power;          /* 1 << (power & 31) */

uniform vec3  u_light_dir;      /* eye space, towards the light, unit length */
uniform vec4  u_uv_rect;        /* the cell: offset xy, size zw */

out vec2 v_uv;
out vec3 v_colour;              /* the clamped vertex colour */

#endif

void
main ()
{
#ifdef BACKGROUND
  /* a_position is in framebuffer pixels */
  gl_Position = vec4 (a_position.xy / u_viewport * 2.0 - 1.0, 0.0, 1.0);
#else
#ifdef RAW
  v_colour = clamp (u_diffuse, 0.0, 1.0);
#else
  /* The model-view matrix is a rotation and a translation: its upper 3x3
   * transforms normals. The camera looks down -z from the origin (a local
   * viewer). Two-sided batches keep their normal on the back. */
  vec3 n = normalize (mat3 (u_model_view) * a_normal);
  vec3 position = (u_model_view * vec4 (a_position, 1.0)).xyz;
  vec3 h = normalize (u_light_dir + normalize (-position));
  float n_dot_l = max (dot (n, u_light_dir), 0.0);
  float n_dot_h = max (dot (n, h), 0.0);
  /* the highlight only on the lit side, as fixed function computes it; a
   * negative exponent (power 31) saturates instead of overflowing */
  float spec = n_dot_l > 0.0 && n_dot_h > 0.0
               ? clamp (pow (n_dot_h, u_power), 0.0, 1.0) : 0.0;

  v_colour = clamp (u_emissive + u_diffuse * n_dot_l + u_specular * spec, 0.0, 1.0);
#endif
  /* the cell: every UV rewritten into the Page rectangle (render.md 4) */
  v_uv = u_uv_rect.xy + a_uv * u_uv_rect.zw;
  gl_Position = u_mvp * vec4 (a_position, 1.0);
#endif
}
