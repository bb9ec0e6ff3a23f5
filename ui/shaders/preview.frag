/* preview.frag - MatPreview: one runtime phase (formats.md 2.2) on the
 * shape, or (compiled with BACKGROUND defined) the checkerboard behind
 * it. Variants are compiled with UNLIT and TEXTURED defined or not, so no
 * fragment pays for a branch (a software rasteriser such as llvmpipe runs
 * both sides). The #version line, a precision for ES and the defines are
 * prepended when compiling. */

out vec4 frag_colour;

#ifdef BACKGROUND

/* The dark squares come from the clear colour; these are the light ones,
 * drawn as geometry: a flat colour costs a software rasteriser far less
 * than a per-pixel pattern. */
uniform vec3  u_checker_light;

void
main ()
{
  frag_colour = vec4 (u_checker_light, 1.0);
}

#else

in vec2 v_uv;
in vec3 v_colour;
in vec3 v_specular;

uniform vec4      u_diffuse;    /* f0..f3 */
uniform sampler2D u_texture;
uniform vec4      u_uv_rect;    /* atlas cell: offset xy, size zw */

void
main ()
{
#ifdef TEXTURED
  vec4 tex = texture (u_texture, u_uv_rect.xy + v_uv * u_uv_rect.zw);
#else
  vec4 tex = vec4 (1.0);
#endif

#ifdef UNLIT
  /* Exactly the blended diffuse colour, modulated by the texture as the
   * default texture stage does; alpha f3. */
  frag_colour = vec4 (u_diffuse.rgb * tex.rgb, u_diffuse.a * tex.a);
#else
  /* The lit colour modulated by the texture, then the specular term. */
  frag_colour = vec4 (clamp (v_colour * tex.rgb + v_specular, 0.0, 1.0),
                      u_diffuse.a * tex.a);
#endif
}

#endif
