/* preview.vert - MatPreview: the shape lit per vertex as Direct3D 7 fixed
 * function lights it (Gouraud), or (compiled with BACKGROUND defined) the
 * light squares of the checkerboard. The #version line (330 core or
 * 300 es) and the defines are prepended when compiling. */

in vec3 a_position;
in vec3 a_normal;
in vec2 a_uv;

#ifdef BACKGROUND

uniform vec2  u_viewport;       /* framebuffer size in pixels */

#else

uniform mat4  u_mvp;
uniform mat4  u_model_view;

/* the runtime phase (formats.md 2.2) */
uniform vec4  u_diffuse;        /* f0..f3 */
uniform vec4  u_ambient;        /* f4..f7 (f7 = p3 * 0.01, used as given) */
uniform vec4  u_specular;       /* f8..f11 */
uniform vec4  u_emissive;       /* f12..f15 */
uniform float u_power;

uniform vec3  u_light_dir;      /* eye space, towards the light */
uniform vec3  u_ambient_light;  /* the grey ambient light */

out vec2 v_uv;
out vec3 v_colour;              /* emissive + ambient + diffuse, clamped */
out vec3 v_specular;            /* added after the texture */

#endif

void
main ()
{
#ifdef BACKGROUND
  /* a_position is in framebuffer pixels */
  gl_Position = vec4 (a_position.xy / u_viewport * 2.0 - 1.0, 0.0, 1.0);
#else
  /* The model-view matrix is a rotation and a translation: its upper 3x3
   * transforms normals. The camera looks down -z from the origin. */
  vec3 n = normalize (mat3 (u_model_view) * a_normal);
  vec3 position = (u_model_view * vec4 (a_position, 1.0)).xyz;
  vec3 l = normalize (u_light_dir);
  vec3 h = normalize (l + normalize (-position));
  float n_dot_l = max (dot (n, l), 0.0);
  float spec = pow (max (dot (n, h), 1e-4), u_power);

  v_colour = clamp (u_emissive.rgb
                    + u_ambient.rgb * u_ambient.a * u_ambient_light
                    + u_diffuse.rgb * n_dot_l, 0.0, 1.0);
  v_specular = n_dot_l > 0.0 ? u_specular.rgb * spec : vec3 (0.0);
  v_uv = a_uv;
  gl_Position = u_mvp * vec4 (a_position, 1.0);
#endif
}
