/* mat0-fields.c - what every byte of a material means
 *
 * Sources: formats.md 2.2 (the loader's expansion), 2.3 (modes and the
 * interpolation bits), 2.4 (attr1 and metadata as the engine reads them),
 * render.md (what reaches the screen) and evaluator.md (what blends).
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat0-fields.h"
#include "phase-eval.h"

#define P(byte, shrt, lbl, mean, grp, ch, rd, slot, off, drawn) \
  { byte, shrt, lbl, mean, grp, ch, rd, slot, off, drawn }

static const Mat0ParamField params[MAT0_N_PARAMS] = {
  P (0, N_("Self R"), N_("Self-light red"),
     N_("p0: self-light red (the ambient colour): added to the scene colour and drawn without lights; runtime p / 255"),
     MAT0_GROUP_SELF_LIGHT, 0, MAT0_READING_UNIT, 4, 16, TRUE),
  P (1, N_("Self G"), N_("Self-light green"),
     N_("p1: self-light green (the ambient colour); runtime p / 255"),
     MAT0_GROUP_SELF_LIGHT, 1, MAT0_READING_UNIT, 5, 20, TRUE),
  P (2, N_("Self B"), N_("Self-light blue"),
     N_("p2: self-light blue (the ambient colour); runtime p / 255"),
     MAT0_GROUP_SELF_LIGHT, 2, MAT0_READING_UNIT, 6, 24, TRUE),
  P (3, N_("Opacity %"), N_("Opacity"),
     N_("p3: the ambient alpha, the material's opacity in per cent (runtime p × 0.01; 100 = opaque, above 100 is a lint); below 100 the material is drawn translucent"),
     MAT0_GROUP_SELF_LIGHT, 3, MAT0_READING_PERCENT, 7, 28, TRUE),
  P (4, N_("Diff R"), N_("Diffuse red"),
     N_("p4: diffuse red: lit by the scene's lights, multiplies the texture; runtime p / 255"),
     MAT0_GROUP_DIFFUSE, 0, MAT0_READING_UNIT, 0, 0, TRUE),
  P (5, N_("Diff G"), N_("Diffuse green"),
     N_("p5: diffuse green: lit by the scene's lights; runtime p / 255"),
     MAT0_GROUP_DIFFUSE, 1, MAT0_READING_UNIT, 1, 4, TRUE),
  P (6, N_("Diff B"), N_("Diffuse blue"),
     N_("p6: diffuse blue: lit by the scene's lights; runtime p / 255"),
     MAT0_GROUP_DIFFUSE, 2, MAT0_READING_UNIT, 2, 8, TRUE),
  P (7, N_("Diff A"), N_("Diffuse alpha"),
     N_("p7: diffuse alpha: stored, not drawn by the game (the opacity is p3); runtime p / 255"),
     MAT0_GROUP_DIFFUSE, 3, MAT0_READING_UNIT, 3, 12, FALSE),
  P (8, N_("Spec R"), N_("Specular red"),
     N_("p8: specular red: the highlight's colour; runtime p / 255"),
     MAT0_GROUP_SPECULAR, 0, MAT0_READING_UNIT, 8, 32, TRUE),
  P (9, N_("Spec G"), N_("Specular green"),
     N_("p9: specular green; runtime p / 255"),
     MAT0_GROUP_SPECULAR, 1, MAT0_READING_UNIT, 9, 36, TRUE),
  P (10, N_("Spec B"), N_("Specular blue"),
     N_("p10: specular blue; runtime p / 255"),
     MAT0_GROUP_SPECULAR, 2, MAT0_READING_UNIT, 10, 40, TRUE),
  P (11, N_("Spec A"), N_("Specular alpha"),
     N_("p11: specular alpha: stored, not drawn by the game; runtime p / 255"),
     MAT0_GROUP_SPECULAR, 3, MAT0_READING_UNIT, 11, 44, FALSE),
  P (12, N_("Emis R"), N_("Emissive red"),
     N_("p12: emissive red: stored, not drawn by the game (the renderer never reads it; the self-light is p0–p2); runtime p / 255"),
     MAT0_GROUP_EMISSIVE, 0, MAT0_READING_UNIT, 12, 48, FALSE),
  P (13, N_("Emis G"), N_("Emissive green"),
     N_("p13: emissive green: stored, not drawn by the game; runtime p / 255"),
     MAT0_GROUP_EMISSIVE, 1, MAT0_READING_UNIT, 13, 52, FALSE),
  P (14, N_("Emis B"), N_("Emissive blue"),
     N_("p14: emissive blue: stored, not drawn by the game; runtime p / 255"),
     MAT0_GROUP_EMISSIVE, 2, MAT0_READING_UNIT, 14, 56, FALSE),
  P (15, N_("Emis A"), N_("Emissive alpha"),
     N_("p15: emissive alpha: stored, not drawn by the game; runtime p / 255"),
     MAT0_GROUP_EMISSIVE, 3, MAT0_READING_UNIT, 15, 60, FALSE),
  P (16, N_("Power"), N_("Specular power"),
     N_("p16: specular power: the device gets the exponent 1 << p16 (p16 & 31)"),
     MAT0_GROUP_NONE, 0, MAT0_READING_POWER, 16, 64, TRUE),
  P (17, N_("Cell"), N_("Texture cell"),
     N_("p17: the texture cell, a signed byte: −1 (255) draws the whole texture, c ≥ 0 draws rectangle c of the texture's Page table; −1 when untextured"),
     MAT0_GROUP_NONE, 0, MAT0_READING_CELL, 18, 72, TRUE),
};

#undef P

static const Mat0GroupField groups[MAT0_N_GROUPS] = {
  { MAT0_GROUP_DIFFUSE, N_("Diffuse"),
    N_("Diffuse colour (p4–p6): lit by the scene's lights and multiplied with the texture. Its alpha p7 is stored, not drawn by the game."),
    { 4, 5, 6, 7 }, 0, PHASE_EVAL_BLEND_DIFFUSE_RGB, TRUE, FALSE },
  { MAT0_GROUP_SELF_LIGHT, N_("Self-light"),
    N_("Self-light, the ambient colour (p0–p2): added to the scene colour, shines without lights. Its alpha p3 is the opacity in per cent (100 = opaque)."),
    { 0, 1, 2, 3 }, 4, PHASE_EVAL_BLEND_AMBIENT_RGB, TRUE, TRUE },
  { MAT0_GROUP_SPECULAR, N_("Specular"),
    N_("Specular colour (p8–p10): the highlight, sharpened by the power p16. Its alpha p11 is stored, not drawn by the game."),
    { 8, 9, 10, 11 }, 8, PHASE_EVAL_BLEND_SPECULAR_RGB, TRUE, FALSE },
  { MAT0_GROUP_EMISSIVE, N_("Emissive"),
    N_("Emissive colour (p12–p15): stored, not drawn by the game (its renderer never reads these bytes); kept as they are."),
    { 12, 13, 14, 15 }, 12, PHASE_EVAL_BLEND_EMISSIVE_RGB, FALSE, FALSE },
};

const Mat0ParamField *
mat0_fields_param (guint byte)
{
  g_return_val_if_fail (byte < MAT0_N_PARAMS, NULL);

  return &params[byte];
}

const Mat0GroupField *
mat0_fields_group (Mat0ColourGroup group)
{
  g_return_val_if_fail (group >= 0 && group < MAT0_N_GROUPS, NULL);

  return &groups[group];
}

const Mat0ParamField *
mat0_fields_param_for_slot (guint slot)
{
  g_return_val_if_fail (slot < 16, NULL);

  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    if (params[i].slot == (gint) slot)
      return &params[i];
  g_return_val_if_reached (NULL);
}

const char *
mat0_fields_texture_label (void)
{
  return N_("Texture");
}

const char *
mat0_fields_texture_meaning (void)
{
  return N_("The texture name: at most 15 bytes in the game’s code page (CP1251) with a “.”; the letter and digit after the dot pick the palette of an indexed texture. Empty for an untextured phase (texture slot −1). The texture and the cell never blend: they step with the key.");
}

const char *
mat0_fields_not_drawn_note (void)
{
  return N_("stored, not drawn by the game");
}

const char *
mat0_fields_other_label (void)
{
  return N_("Power, cell and texture");
}

const char *
mat0_fields_param_unit (guint byte)
{
  g_return_val_if_fail (byte < MAT0_N_PARAMS, NULL);

  /* Translators: the unit of the opacity p3, typed in per cent */
  return params[byte].reading == MAT0_READING_PERCENT ? N_("%") : NULL;
}

char *
mat0_fields_dup_opacity_reading (guint8 p3)
{
  if (p3 > 100)
    /* Translators: the opacity p3 in per cent above 100, a lint; the
     * spaces before "%%" are no-break spaces */
    return g_strdup_printf (_("%u\u00a0%% (over 100\u00a0%%)"), p3);
  /* Translators: the opacity p3 in per cent; a no-break space before "%%" */
  return g_strdup_printf (_("%u\u00a0%%"), p3);
}

char *
mat0_fields_dup_cell_reading (guint8   byte,
                              gboolean textured)
{
  gint cell = (gint8) byte;

  if (!textured)
    return g_strdup (_("−1 untextured"));
  if (cell == -1)
    return g_strdup (_("−1 whole texture"));
  if (cell >= 0)
    /* Translators: a rectangle of the texture's Page table */
    return g_strdup_printf (_("cell %d"), cell);
  /* Translators: a negative cell other than -1; "−" is a minus sign */
  return g_strdup_printf (_("−%d unknown"), -cell);
}

static const Mat0ModeField modes[8] = {
  { 0, "loop", N_("Loop"),
    N_("Loop: plays the period over and over"), TRUE },
  { 1, "ping-pong", N_("Ping-pong"),
    N_("Ping-pong: plays the period forwards, then backwards"), TRUE },
  { 2, "once", N_("Once"),
    N_("Once: plays the period once, then holds the last key"), TRUE },
  { 3, "random", N_("Random"),
    N_("Random: the game jumps to a random point of the period at every frame"), TRUE },
  { 4, "unknown", N_("Unknown"), N_("Unknown mode: kept as stored, played as a loop"), FALSE },
  { 5, "unknown", N_("Unknown"), N_("Unknown mode: kept as stored, played as a loop"), FALSE },
  { 6, "unknown", N_("Unknown"), N_("Unknown mode: kept as stored, played as a loop"), FALSE },
  { 7, "unknown", N_("Unknown"), N_("Unknown mode: kept as stored, played as a loop"), FALSE },
};

const Mat0ModeField *
mat0_fields_mode (guint mode)
{
  return &modes[mode & 7u];
}

static const Mat0InterpField interp_bits[MAT0_N_INTERP_BITS] = {
  { PHASE_EVAL_BLEND_AMBIENT_RGB, N_("Self-light RGB"),
    N_("0x01: blends the self-light red, green and blue (p0–p2) between keys"),
    { 4, 5, 6 }, 3 },
  { PHASE_EVAL_BLEND_DIFFUSE_RGB, N_("Diffuse RGB"),
    N_("0x02: blends the diffuse red, green and blue (p4–p6) between keys"),
    { 0, 1, 2 }, 3 },
  { PHASE_EVAL_BLEND_SPECULAR_RGB, N_("Specular RGB"),
    N_("0x04: blends the specular red, green and blue (p8–p10) between keys"),
    { 8, 9, 10 }, 3 },
  { PHASE_EVAL_BLEND_EMISSIVE_RGB, N_("Emissive RGB"),
    N_("0x08: blends the emissive red, green and blue (p12–p14) between keys; stored, not drawn by the game"),
    { 12, 13, 14 }, 3 },
  { PHASE_EVAL_BLEND_AMBIENT_A, N_("Opacity"),
    N_("0x10: blends the opacity (the ambient alpha p3) between keys, as fades do"),
    { 7, 0, 0 }, 1 },
};

const Mat0InterpField *
mat0_fields_interp (guint index)
{
  g_return_val_if_fail (index < MAT0_N_INTERP_BITS, NULL);

  return &interp_bits[index];
}

static const Mat0BlendField blends[16] = {
  { 0, 0, N_("Opaque"),
    N_("Opaque: the texture's alpha is ignored (a gloss map)"),
    "ONE", "ZERO", FALSE },
  { 1, 4, N_("See-through"),
    N_("See-through: blended by alpha over what is behind (smoke, sky, foliage)"),
    "SRCALPHA", "INVSRCALPHA", TRUE },
  { 2, 2, N_("Additive"),
    N_("Additive: adds its light to what is behind (glows, jets, lasers)"),
    "SRCALPHA", "ONE", TRUE },
  { 3, 3, N_("Modulate"),
    N_("Modulate: multiplies what is behind by its colour (lightmaps)"),
    "ZERO", "SRCCOLOR", TRUE },
  { 4, 5, N_("Double modulate"),
    N_("Double modulate: destination colour times source plus source colour times destination"),
    "DESTCOLOR", "SRCCOLOR", TRUE },
#define UNKNOWN(i) { i, -1, N_("Unknown"), \
    N_("Unknown blend index: past the engine's table; drawn as opaque"), \
    "ONE", "ZERO", FALSE }
  UNKNOWN (5), UNKNOWN (6), UNKNOWN (7), UNKNOWN (8), UNKNOWN (9),
  UNKNOWN (10), UNKNOWN (11), UNKNOWN (12), UNKNOWN (13), UNKNOWN (14),
  UNKNOWN (15),
#undef UNKNOWN
};

const Mat0BlendField *
mat0_fields_blend (guint index)
{
  return &blends[index & 0xFu];
}

const Mat0BlendField *
mat0_fields_blend_of_attr1 (guint32 attr1)
{
  return mat0_fields_blend ((attr1 >> 2) & 0xFu);
}

char *
mat0_fields_blend_dup_reading (guint index)
{
  const Mat0BlendField *blend = mat0_fields_blend (index);

  if (blend->mode < 0)
    /* Translators: a blend index past the engine's table of five */
    return g_strdup_printf (_("Unknown (%u) — past the engine’s table, drawn as opaque"),
                            blend->index);
  /* Translators: a blend index's name, the render mode it maps to and
   * that mode's Direct3D source and destination blend factors:
   * "See-through — mode 4: SRCALPHA / INVSRCALPHA" */
  return g_strdup_printf (_("%s — mode %d: %s / %s"), _(blend->label), blend->mode,
                          blend->src_blend, blend->dst_blend);
}

static const Mat0FlagField flags[MAT0_N_FLAG_FIELDS] = {
  /* Translators: the short names are written under single cells of a
   * bit grid: keep them to three or four letters */
  { 0x01, N_("tex"), N_("Extended texture load"),
    N_("Bit 0 (0x01): the phase textures are loaded with extended load flags (0x200000 added); retail: only ENV_STARS") },
  { 0x02, N_("hw"), N_("Hardware profile"),
    N_("Bit 1 (0x02): stored into one field of the loaded material (a hardware-profile flag); set on the ordinary lit skins, whose textures the game loads opaque unless emboss bump is on") },
  { 0x40, N_("b6"), N_("Bit 6"),
    N_("Bit 6 (0x40): stored into another field of the loaded material; no retail material sets it") },
};

static const Mat0FlagField blend_index_field = {
  0x3C, N_("blend"), N_("Blend index"),
  N_("Bits 2–5 (0x3C): the blend index b = (attr1 >> 2) & 0xF; the engine maps 0–4 through its table [0, 4, 2, 3, 5] to the render mode that blends the material over what is behind it"),
};

static const Mat0FlagField unknown_bits_field = {
  0xFFFFFF80u, NULL, N_("Unknown bits"),
  N_("Bits 7–31 (0xFFFFFF80): no code is known to read them; kept exactly as stored"),
};

const Mat0FlagField *
mat0_fields_flag (guint index)
{
  g_return_val_if_fail (index < MAT0_N_FLAG_FIELDS, NULL);

  return &flags[index];
}

const Mat0FlagField *
mat0_fields_blend_index (void)
{
  return &blend_index_field;
}

const Mat0FlagField *
mat0_fields_unknown_bits (void)
{
  return &unknown_bits_field;
}

static const Mat0MetaField metas[MAT0_N_META] = {
  { MAT0_META_A, "a", N_("Ground class"),
    N_("metaA: the ground surface class a unit reads from the face it stands on: 0–4 ground, 5 object skins, 6 foliage, 7 water, 8–10 smaller families; 255 = not set"),
    2 },
  { MAT0_META_B, "b", N_("Unused"),
    N_("metaB: not read by the game (255 in every retail material)"),
    2 },
  { MAT0_META_C, "c", N_("Speed factor"),
    N_("metaC: the speed factor of units on this surface, a float (1.0 = normal speed)"),
    3 },
  { MAT0_META_D, "d", N_("Damage per second"),
    N_("metaD: hit points a unit loses per second on this surface (10000 on liquid beds, 0 for most)"),
    4 },
};

const Mat0MetaField *
mat0_fields_meta (Mat0MetaId id)
{
  g_return_val_if_fail (id >= 0 && id < MAT0_N_META, NULL);

  return &metas[id];
}

const char *
mat0_fields_ground_class (guint value)
{
  if (value <= 4)
    return N_("ground");
  if (value == 5)
    return N_("object skins");
  if (value == 6)
    return N_("foliage");
  if (value == 7)
    return N_("water");
  if (value <= 10)
    return N_("smaller families");
  if (value == 255)
    return N_("not set");
  return NULL;
}

char *
mat0_fields_dup_ground_reading (guint value)
{
  const char *ground = mat0_fields_ground_class (value);

  if (ground == NULL)
    /* Translators: a metaA value that names no known ground class */
    return g_strdup_printf (_("%u — no known class"), value);
  /* Translators: a metaA value and its ground class: "7 — water" */
  return g_strdup_printf (_("%u — %s"), value, _(ground));
}
