/* preview.frag - MatPreviewRenderer: the vertex colour times the texture,
 * alpha = texture alpha times the ambient alpha (render.md 2), or
 * (compiled with BACKGROUND defined) the checkerboard's light squares.
 * Variants are compiled with TEXTURED and ALPHA_TEST defined or not, so
 * no fragment pays for a branch (a software rasteriser such as llvmpipe
 * runs both sides). The #version line, a precision for ES and the
 * defines are prepended when compiling. */

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

uniform sampler2D u_texture;
uniform float     u_alpha;      /* the ambient alpha f7, clamped to 0..1 */

void
main ()
{
#ifdef TEXTURED
  vec4 tex = texture (u_texture, v_uv);
#else
  vec4 tex = vec4 (1.0);
#endif
  float alpha = tex.a * u_alpha;

#ifdef ALPHA_TEST
  /* Direct3D's alpha test, reference 1, GREATEREQUAL: a blended draw
   * drops exactly the texels whose alpha is 0 */
  if (alpha < 1.0 / 255.0)
    discard;
#endif
  frag_colour = vec4 (v_colour * tex.rgb, alpha);
}

#endif
