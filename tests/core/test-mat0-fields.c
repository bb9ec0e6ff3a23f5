/* test-mat0-fields.c - the table of meanings agrees with the code that
 * reads the bytes (formats.md 2.2-2.4, render.md 3, evaluator.md) */
#include "config.h"

#include <string.h>

#include "mat0-fields.h"
#include "mat0-flags.h"
#include "mat0.h"
#include "phase-eval.h"

static guint32
float_bits (float f)
{
  guint32 u;

  memcpy (&u, &f, 4);
  return u;
}

#define assert_float_eq(a, b) g_assert_cmphex (float_bits (a), ==, float_bits (b))

/* A textured phase whose 18 bytes all differ: p[j] = 3 + 11 * j (p[17] =
 * 190, cell -66 as a signed byte). */
static void
distinct_phase (Mat0Phase *phase,
                guint      shift)
{
  memset (phase, 0, sizeof *phase);
  for (guint j = 0; j < MAT0_N_PARAMS; j++)
    phase->p[j] = (guint8) (3 + 11 * j + shift);
  memcpy (phase->texture, "CELLS.0", 7);
}

static float
runtime_float (const PhaseRuntime *rt,
               guint               offset)
{
  float f;

  memcpy (&f, (const guint8 *) rt + offset, 4);
  return f;
}

/* Each byte's slot and runtime offset are where phase_eval_expand puts
 * it, read as the table says. */
static void
test_param_slots (void)
{
  Mat0Phase phase;
  PhaseRuntime rt;
  guint seen_slots = 0;

  distinct_phase (&phase, 0);
  phase_eval_expand (&phase, 4, &rt);

  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    {
      const Mat0ParamField *f = mat0_fields_param (i);
      guint8 v = phase.p[i];

      g_assert_nonnull (f);
      g_assert_cmpuint (f->byte, ==, i);
      g_assert_nonnull (f->short_label);
      g_assert_nonnull (f->label);
      g_assert_nonnull (f->meaning);
      g_assert_cmpuint (strlen (f->short_label), >, 0);
      g_assert_cmpuint (strlen (f->label), >, 0);
      g_assert_cmpuint (strlen (f->meaning), >, 0);
      g_assert_cmpuint (f->runtime_offset % 4, ==, 0);
      g_assert_cmpuint (f->runtime_offset, <, sizeof (PhaseRuntime));

      switch (f->reading)
        {
        case MAT0_READING_UNIT:
          g_assert_cmpint (f->slot, <, 16);
          g_assert_cmpuint (f->runtime_offset, ==, (guint) f->slot * 4);
          assert_float_eq (rt.f[f->slot], (float) v / 255.0f);
          assert_float_eq (runtime_float (&rt, f->runtime_offset), (float) v / 255.0f);
          break;
        case MAT0_READING_PERCENT:
          g_assert_cmpuint (i, ==, MAT0_AMBIENT_ALPHA_BYTE);
          g_assert_cmpint (f->slot, ==, 7);
          g_assert_cmpuint (f->runtime_offset, ==, 28);
          assert_float_eq (rt.f[f->slot], (float) v * 0.01f);
          assert_float_eq (runtime_float (&rt, f->runtime_offset), (float) v * 0.01f);
          break;
        case MAT0_READING_POWER:
          g_assert_cmpuint (i, ==, 16);
          g_assert_cmpint (f->slot, ==, 16);
          g_assert_cmpuint (f->runtime_offset, ==, 64);
          assert_float_eq (rt.power, (float) v);
          assert_float_eq (runtime_float (&rt, f->runtime_offset), (float) v);
          break;
        case MAT0_READING_CELL:
          {
            gint32 cell;

            g_assert_cmpuint (i, ==, MAT0_CELL_BYTE);
            g_assert_cmpint (f->slot, ==, 18);
            g_assert_cmpuint (f->runtime_offset, ==, 72);
            memcpy (&cell, (const guint8 *) &rt + f->runtime_offset, 4);
            g_assert_cmpint (cell, ==, (gint8) v);
            g_assert_cmpint (rt.i18, ==, -66);
          }
          break;
        default:
          g_assert_not_reached ();
        }

      if (f->slot < 16)
        {
          g_assert_false (seen_slots & (1u << f->slot));
          seen_slots |= 1u << f->slot;
          g_assert_true (mat0_fields_param_for_slot ((guint) f->slot) == f);
        }
    }
  /* the 16 bytes p0..p15 fill the 16 float slots once each */
  g_assert_cmphex (seen_slots, ==, 0xFFFF);

  /* each reading changes exactly its slot: a phase with one byte moved */
  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    {
      const Mat0ParamField *f = mat0_fields_param (i);
      Mat0Phase moved = phase;
      PhaseRuntime rt2;

      moved.p[i] ^= 0x40;
      phase_eval_expand (&moved, 4, &rt2);
      for (guint off = 0; off < sizeof (PhaseRuntime); off += 4)
        {
          gboolean differs = memcmp ((const guint8 *) &rt + off,
                                     (const guint8 *) &rt2 + off, 4) != 0;

          g_assert_cmpint (differs, ==, off == f->runtime_offset);
        }
    }
}

/* Colour groups: bytes, slots and the channel of each byte agree */
static void
test_groups (void)
{
  static const struct {
    Mat0ColourGroup group;
    guint           bytes[4];
    guint           first_slot;
    guint32         interp_bit;
    gboolean        drawn;
    gboolean        alpha_drawn;
  } want[] = {
    { MAT0_GROUP_DIFFUSE, { 4, 5, 6, 7 }, 0, 0x02, TRUE, FALSE },
    { MAT0_GROUP_SELF_LIGHT, { 0, 1, 2, 3 }, 4, 0x01, TRUE, TRUE },
    { MAT0_GROUP_SPECULAR, { 8, 9, 10, 11 }, 8, 0x04, TRUE, FALSE },
    { MAT0_GROUP_EMISSIVE, { 12, 13, 14, 15 }, 12, 0x08, FALSE, FALSE },
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (want) == MAT0_N_GROUPS);
  for (guint g = 0; g < MAT0_N_GROUPS; g++)
    {
      const Mat0GroupField *gf = mat0_fields_group (want[g].group);

      g_assert_cmpint (gf->group, ==, want[g].group);
      g_assert_cmpuint (gf->first_slot, ==, want[g].first_slot);
      g_assert_cmphex (gf->interp_bit, ==, want[g].interp_bit);
      g_assert_cmpint (gf->drawn, ==, want[g].drawn);
      g_assert_cmpint (gf->alpha_drawn, ==, want[g].alpha_drawn);
      g_assert_cmpuint (strlen (gf->label), >, 0);
      g_assert_cmpuint (strlen (gf->meaning), >, 0);
      for (guint c = 0; c < 4; c++)
        {
          const Mat0ParamField *f = mat0_fields_param (gf->bytes[c]);

          g_assert_cmpuint (gf->bytes[c], ==, want[g].bytes[c]);
          g_assert_cmpint (f->group, ==, gf->group);
          g_assert_cmpuint (f->channel, ==, c);
          g_assert_cmpint (f->slot, ==, (gint) (gf->first_slot + c));
          /* render.md 1: the colour reaches the screen when the group is
           * drawn; the alpha only for the self-light (the opacity) */
          g_assert_cmpint (f->drawn, ==, c < 3 ? gf->drawn : gf->alpha_drawn);
        }
    }

  /* p16, p17 belong to no group and are drawn */
  g_assert_cmpint (mat0_fields_param (16)->group, ==, MAT0_GROUP_NONE);
  g_assert_cmpint (mat0_fields_param (17)->group, ==, MAT0_GROUP_NONE);
  g_assert_true (mat0_fields_param (16)->drawn);
  g_assert_true (mat0_fields_param (17)->drawn);
  g_assert_cmpuint (strlen (mat0_fields_texture_label ()), >, 0);
  g_assert_cmpuint (strlen (mat0_fields_texture_meaning ()), >, 0);
}

/* Each interpMask bit blends exactly the slots the table lists: two
 * phases that differ in every byte, one bit set, halfway through. */
static void
test_interp_slots (void)
{
  Mat0Phase phases[2];
  PhaseRuntime rt[2];
  Mat0Key keys[2] = { { 0, 100, 0 }, { 1, 200, 0 } };
  Mat0Block block = { 0, 2, keys };
  PhaseEvalInput input = { rt, 2, &block, 0 };
  guint32 all = 0;

  distinct_phase (&phases[0], 0);
  distinct_phase (&phases[1], 5);
  phase_eval_expand (&phases[0], 0, &rt[0]);
  phase_eval_expand (&phases[1], 1, &rt[1]);

  for (guint index = 0; index < MAT0_N_INTERP_BITS; index++)
    {
      const Mat0InterpField *bit = mat0_fields_interp (index);
      PhaseEvalResult res;
      guint listed = 0;
      guint changed = 0;

      g_assert_cmphex (bit->mask, ==, 1u << index);
      g_assert_cmpuint (strlen (bit->label), >, 0);
      g_assert_cmpuint (strlen (bit->meaning), >, 0);
      g_assert_cmpuint (bit->n_slots, >=, 1);
      g_assert_cmpuint (bit->n_slots, <=, 3);
      for (guint s = 0; s < bit->n_slots; s++)
        {
          g_assert_cmpuint (bit->slots[s], <, 16);
          listed |= 1u << bit->slots[s];
        }
      g_assert_false (all & bit->mask);
      all |= bit->mask;

      block.header_raw = bit->mask << 3;
      phase_eval_at_time (&input, 50, 0, 0, &res);
      g_assert_cmpint (res.segment, ==, 0);
      g_assert_cmpuint (float_bits (res.alpha), ==, float_bits (0.5f));
      for (guint f = 0; f < 16; f++)
        if (float_bits (res.value.f[f]) != float_bits (rt[0].f[f]))
          {
            changed |= 1u << f;
            assert_float_eq (res.value.f[f],
                             rt[0].f[f] + (rt[1].f[f] - rt[0].f[f]) * 0.5f);
          }
      g_assert_cmphex (changed, ==, listed);
      assert_float_eq (res.value.power, rt[0].power);
      g_assert_cmpint (res.value.i18, ==, rt[0].i18);
      g_assert_cmpint (res.value.tex_slot, ==, 0);

      /* the group whose colour this bit blends says so too */
      for (guint g = 0; g < MAT0_N_GROUPS; g++)
        {
          const Mat0GroupField *gf = mat0_fields_group ((Mat0ColourGroup) g);

          if (gf->interp_bit == bit->mask)
            g_assert_cmphex (listed, ==, 7u << gf->first_slot);
        }
    }
  g_assert_cmphex (all, ==, PHASE_EVAL_BLEND_KNOWN);
  /* 0x10 is the opacity: slot 7 alone */
  g_assert_cmpuint (mat0_fields_interp (4)->n_slots, ==, 1);
  g_assert_cmpuint (mat0_fields_interp (4)->slots[0], ==, 7);
}

static void
test_modes (void)
{
  static const char *const ids[8] = {
    "loop", "ping-pong", "once", "random", "unknown", "unknown", "unknown", "unknown",
  };

  for (guint m = 0; m < 8; m++)
    {
      const Mat0ModeField *mf = mat0_fields_mode (m);

      g_assert_cmpuint (mf->mode, ==, m);
      g_assert_cmpstr (mf->id, ==, ids[m]);
      g_assert_cmpint (mf->known, ==, m < 4);
      g_assert_cmpuint (strlen (mf->label), >, 0);
      g_assert_cmpuint (strlen (mf->meaning), >, 0);
      g_assert_cmpstr (phase_eval_mode_name (m), ==, ids[m]);
      /* headerRaw & 7 */
      g_assert_true (mat0_fields_mode (m + 8) == mf);
      g_assert_true (mat0_fields_mode (m | 0xFFFFFFF8u) == mf);
    }
  g_assert_cmpint (PHASE_EVAL_MODE_LOOP, ==, 0);
  g_assert_cmpint (PHASE_EVAL_MODE_PING_PONG, ==, 1);
  g_assert_cmpint (PHASE_EVAL_MODE_ONE_SHOT, ==, 2);
  g_assert_cmpint (PHASE_EVAL_MODE_RANDOM, ==, 3);
}

/* render.md 3: b = (attr1 >> 2) & 0xF through [0, 4, 2, 3, 5] */
static void
test_blend (void)
{
  static const struct {
    gint        mode;
    const char *src;
    const char *dst;
    gboolean    alpha_test;
  } table[MAT0_N_BLEND_INDICES] = {
    { 0, "ONE", "ZERO", FALSE },
    { 4, "SRCALPHA", "INVSRCALPHA", TRUE },
    { 2, "SRCALPHA", "ONE", TRUE },
    { 3, "ZERO", "SRCCOLOR", TRUE },
    { 5, "DESTCOLOR", "SRCCOLOR", TRUE },
  };
  /* retail attr1 values and what they draw as */
  static const struct {
    guint32 attr1;
    guint   index;
    gint    mode;
  } retail[] = {
    { 0, 0, 0 }, { 2, 0, 0 }, { 4, 1, 4 }, { 5, 1, 4 }, { 8, 2, 2 },
    { 0x0C, 3, 3 }, { 0x10, 4, 5 }, { 0x14, 5, -1 }, { 0x3C, 15, -1 },
    { 0x43, 0, 0 }, { 0xFFFFFF88u, 2, 2 },
  };

  for (guint b = 0; b < 16; b++)
    {
      const Mat0BlendField *bf = mat0_fields_blend (b);

      g_assert_cmpuint (bf->index, ==, b);
      g_assert_cmpuint (strlen (bf->label), >, 0);
      g_assert_cmpuint (strlen (bf->meaning), >, 0);
      if (b < MAT0_N_BLEND_INDICES)
        {
          g_assert_cmpint (bf->mode, ==, table[b].mode);
          g_assert_cmpstr (bf->src_blend, ==, table[b].src);
          g_assert_cmpstr (bf->dst_blend, ==, table[b].dst);
          g_assert_cmpint (bf->alpha_test, ==, table[b].alpha_test);
        }
      else
        {
          /* past the engine's table: unknown, drawn as opaque */
          g_assert_cmpint (bf->mode, ==, -1);
          g_assert_cmpstr (bf->src_blend, ==, "ONE");
          g_assert_cmpstr (bf->dst_blend, ==, "ZERO");
          g_assert_false (bf->alpha_test);
        }
      g_assert_true (mat0_fields_blend (b + 16) == bf);
    }

  for (guint i = 0; i < G_N_ELEMENTS (retail); i++)
    {
      const Mat0BlendField *bf = mat0_fields_blend_of_attr1 (retail[i].attr1);

      g_assert_cmpuint (bf->index, ==, retail[i].index);
      g_assert_cmpint (bf->mode, ==, retail[i].mode);
    }
}

static void
test_flags (void)
{
  static const guint32 masks[MAT0_N_FLAG_FIELDS] = { 0x01, 0x02, 0x40 };
  guint32 all = 0;

  for (guint i = 0; i < MAT0_N_FLAG_FIELDS; i++)
    {
      const Mat0FlagField *ff = mat0_fields_flag (i);

      g_assert_cmphex (ff->mask, ==, masks[i]);
      g_assert_cmpuint (strlen (ff->label), >, 0);
      g_assert_cmpuint (strlen (ff->meaning), >, 0);
      all |= ff->mask;
    }
  /* the single bits and the blend index never overlap */
  g_assert_cmphex (all & 0x3C, ==, 0);
}

static void
test_meta (void)
{
  static const struct {
    const char *key;
    guint       min_attr2;
  } want[MAT0_N_META] = { { "a", 2 }, { "b", 2 }, { "c", 3 }, { "d", 4 } };

  for (guint i = 0; i < MAT0_N_META; i++)
    {
      const Mat0MetaField *mf = mat0_fields_meta ((Mat0MetaId) i);

      g_assert_cmpint (mf->id, ==, (Mat0MetaId) i);
      g_assert_cmpstr (mf->key, ==, want[i].key);
      g_assert_cmpuint (mf->min_attr2, ==, want[i].min_attr2);
      g_assert_cmpuint (strlen (mf->label), >, 0);
      g_assert_cmpuint (strlen (mf->meaning), >, 0);
    }

  /* min_attr2 is where the decoder starts storing the field */
  for (guint32 v = 0; v < 8; v++)
    {
      g_assert_cmpint (mat0_has_meta_ab (v), ==, v >= mat0_fields_meta (MAT0_META_A)->min_attr2);
      g_assert_cmpint (mat0_has_meta_ab (v), ==, v >= mat0_fields_meta (MAT0_META_B)->min_attr2);
      g_assert_cmpint (mat0_has_meta_c (v), ==, v >= mat0_fields_meta (MAT0_META_C)->min_attr2);
      g_assert_cmpint (mat0_has_meta_d (v), ==, v >= mat0_fields_meta (MAT0_META_D)->min_attr2);
    }

  for (guint v = 0; v <= 4; v++)
    g_assert_cmpstr (mat0_fields_ground_class (v), ==, "ground");
  g_assert_cmpstr (mat0_fields_ground_class (5), ==, "object skins");
  g_assert_cmpstr (mat0_fields_ground_class (6), ==, "foliage");
  g_assert_cmpstr (mat0_fields_ground_class (7), ==, "water");
  for (guint v = 8; v <= 10; v++)
    g_assert_cmpstr (mat0_fields_ground_class (v), ==, "smaller families");
  for (guint v = 11; v < 255; v++)
    g_assert_null (mat0_fields_ground_class (v));
  g_assert_cmpstr (mat0_fields_ground_class (255), ==, "not set");
  g_assert_null (mat0_fields_ground_class (256));
}

/* The readings, untranslated (the test runs in the C locale). */
static void
test_readings (void)
{
  static const struct { guint8 byte; gboolean textured; const char *text; } cells[] = {
    { 255, TRUE, "−1 whole texture" }, { 0, TRUE, "cell 0" }, { 3, TRUE, "cell 3" },
    { 127, TRUE, "cell 127" }, { 0xFB, TRUE, "−5 unknown" }, { 128, TRUE, "−128 unknown" },
    { 2, FALSE, "−1 untextured" }, { 255, FALSE, "−1 untextured" },
  };
  static const struct { guint value; const char *text; } grounds[] = {
    { 0, "0 — ground" }, { 4, "4 — ground" }, { 5, "5 — object skins" },
    { 6, "6 — foliage" }, { 7, "7 — water" }, { 8, "8 — smaller families" },
    { 10, "10 — smaller families" }, { 11, "11 — no known class" }, { 254, "254 — no known class" },
    { 255, "255 — not set" },
  };
  static const char *const blends[] = {
    "Opaque — mode 0: ONE / ZERO",
    "See-through — mode 4: SRCALPHA / INVSRCALPHA",
    "Additive — mode 2: SRCALPHA / ONE",
    "Modulate — mode 3: ZERO / SRCCOLOR",
    "Double modulate — mode 5: DESTCOLOR / SRCCOLOR",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      g_autofree char *text = mat0_fields_dup_cell_reading (cells[i].byte, cells[i].textured);

      g_assert_cmpstr (text, ==, cells[i].text);
    }
  for (guint i = 0; i < G_N_ELEMENTS (grounds); i++)
    {
      g_autofree char *text = mat0_fields_dup_ground_reading (grounds[i].value);

      g_assert_cmpstr (text, ==, grounds[i].text);
    }
  for (guint b = 0; b < 16; b++)
    {
      g_autofree char *text = mat0_fields_blend_dup_reading (b);
      g_autofree char *unknown = g_strdup_printf ("Unknown (%u) — past the engine’s table, drawn as opaque", b);

      g_assert_cmpstr (text, ==, b < G_N_ELEMENTS (blends) ? blends[b] : unknown);
    }
  {
    g_autofree char *full = mat0_fields_dup_opacity_reading (100);
    g_autofree char *half = mat0_fields_dup_opacity_reading (50);
    g_autofree char *over = mat0_fields_dup_opacity_reading (101);

    /* a no-break space between the number and "%" */
    g_assert_cmpstr (full, ==, "100\u00a0%");
    g_assert_cmpstr (half, ==, "50\u00a0%");
    g_assert_cmpstr (over, ==, "101\u00a0% (over 100\u00a0%)");
  }
  /* the unit a byte is typed in: only the opacity's byte is a per cent */
  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    g_assert_cmpstr (mat0_fields_param_unit (i), ==, i == 3 ? "%" : NULL);
}

/* the masks of the single-bit flags and the two multi-bit fields */
static void
test_flag_masks (void)
{
  guint32 masks = 0;

  for (guint i = 0; i < MAT0_N_FLAG_FIELDS; i++)
    {
      g_assert_cmpuint (__builtin_popcount (mat0_fields_flag (i)->mask), ==, 1);
      masks |= mat0_fields_flag (i)->mask;
    }
  g_assert_cmphex (masks, ==, MAT0_FLAG_EXT_TEXTURE_LOAD | MAT0_FLAG_HW_PROFILE | MAT0_FLAG_BEHAVIOUR);
  g_assert_cmphex (mat0_fields_blend_index ()->mask, ==, MAT0_FLAG_NIBBLE_MASK);
  g_assert_cmphex (mat0_fields_unknown_bits ()->mask, ==, MAT0_FLAG_UNKNOWN_MASK);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/mat0-fields/param-slots", test_param_slots);
  g_test_add_func ("/core/mat0-fields/groups", test_groups);
  g_test_add_func ("/core/mat0-fields/interp-slots", test_interp_slots);
  g_test_add_func ("/core/mat0-fields/modes", test_modes);
  g_test_add_func ("/core/mat0-fields/blend", test_blend);
  g_test_add_func ("/core/mat0-fields/flags", test_flags);
  g_test_add_func ("/core/mat0-fields/meta", test_meta);
  g_test_add_func ("/core/mat0-fields/readings", test_readings);
  g_test_add_func ("/core/mat0-fields/flag-masks", test_flag_masks);

  return g_test_run ();
}
