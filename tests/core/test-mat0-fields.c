/* test-mat0-fields.c - the one table of field meanings agrees with the
 * binary contract (formats.md 2.2-2.4, render.md 3) and its readings say
 * what the engine does with a value */
#include "config.h"

#include <string.h>

#include "mat0.h"
#include "mat0-fields.h"
#include "mat0-flags.h"
#include "phase-eval.h"
#include "test-support.h"

/* formats.md 2.2: the loader's expansion of the 18 bytes */
static void
test_params (void)
{
  static const gint slot_of[MAT0_N_PARAMS] = {
    4, 5, 6, 7, 0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18,
  };
  gboolean seen[16] = { FALSE };

  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    {
      const Mat0ParamField *p = mat0_fields_param (i);

      g_assert_cmpuint (p->byte, ==, i);
      g_assert_cmpint (p->slot, ==, slot_of[i]);
      g_assert_cmpuint (p->runtime_offset, ==, (guint) slot_of[i] * 4);
      g_assert_nonnull (p->short_label);
      g_assert_nonnull (p->label);
      /* the tooltip names its byte */
      {
        g_autofree char *prefix = g_strdup_printf ("p%u: ", i);

        g_assert_true (g_str_has_prefix (p->meaning, prefix));
      }
      /* render.md 1: p7, p11 and p12..p15 never reach the screen, and
       * their meaning says so */
      g_assert_cmpint (p->drawn, ==, !(i == 7 || i == 11 || (i >= 12 && i <= 15)));
      g_assert_cmpint (strstr (p->meaning, mat0_fields_not_drawn_note ()) != NULL, ==, !p->drawn);
      if (p->slot < 16)
        {
          g_assert_false (seen[p->slot]);
          seen[p->slot] = TRUE;
          g_assert_true (mat0_fields_param_for_slot ((guint) p->slot) == p);
        }
    }
  g_assert_cmpint (mat0_fields_param (MAT0_AMBIENT_ALPHA_BYTE)->reading, ==, MAT0_READING_PERCENT);
  g_assert_cmpint (mat0_fields_param (16)->reading, ==, MAT0_READING_POWER);
  g_assert_cmpint (mat0_fields_param (MAT0_CELL_BYTE)->reading, ==, MAT0_READING_CELL);
}

static void
test_groups (void)
{
  for (guint g = 0; g < MAT0_N_GROUPS; g++)
    {
      const Mat0GroupField *group = mat0_fields_group ((Mat0ColourGroup) g);

      g_assert_cmpint (group->group, ==, (gint) g);
      for (guint c = 0; c < 4; c++)
        {
          const Mat0ParamField *p = mat0_fields_param (group->bytes[c]);

          g_assert_cmpint (p->group, ==, (gint) g);
          g_assert_cmpuint (p->channel, ==, c);
          g_assert_cmpint (p->slot, ==, (gint) (group->first_slot + c));
        }
      g_assert_cmpint (group->drawn, ==, mat0_fields_param (group->bytes[0])->drawn);
      g_assert_cmpint (group->alpha_drawn, ==, mat0_fields_param (group->bytes[3])->drawn);
    }
  g_assert_cmpstr (mat0_fields_group (MAT0_GROUP_SELF_LIGHT)->label, ==, "Self-light");
  g_assert_cmpuint (mat0_fields_group (MAT0_GROUP_SELF_LIGHT)->bytes[3], ==, MAT0_AMBIENT_ALPHA_BYTE);
}

/* evaluator.md: the slots each interpolation bit blends */
static void
test_interp (void)
{
  for (guint i = 0; i < MAT0_N_INTERP_BITS; i++)
    {
      const Mat0InterpField *bit = mat0_fields_interp (i);

      g_assert_cmphex (bit->mask, ==, 1u << i);
      for (guint k = 0; k < bit->n_slots; k++)
        g_assert_cmpint (mat0_fields_param_for_slot (bit->slots[k])->group, !=, MAT0_GROUP_NONE);
    }
  /* 0x10 is the opacity, p3 */
  g_assert_cmpuint (mat0_fields_interp (4)->n_slots, ==, 1);
  g_assert_cmpuint (mat0_fields_param_for_slot (mat0_fields_interp (4)->slots[0])->byte, ==, 3);
}

/* render.md 3: b -> mode through [0, 4, 2, 3, 5]; attr1 masks */
static void
test_blend (void)
{
  static const gint modes[MAT0_N_BLEND_INDICES] = { 0, 4, 2, 3, 5 };
  guint32 masks = 0;

  for (guint b = 0; b < 16; b++)
    {
      const Mat0BlendField *blend = mat0_fields_blend (b);

      g_assert_cmpuint (blend->index, ==, b);
      g_assert_cmpint (blend->mode, ==, b < MAT0_N_BLEND_INDICES ? modes[b] : -1);
      g_assert_true (mat0_fields_blend_of_attr1 (0xFFFFFFC3u | (b << 2)) == blend);
    }
  for (guint i = 0; i < MAT0_N_FLAG_FIELDS; i++)
    {
      g_assert_cmpuint (__builtin_popcount (mat0_fields_flag (i)->mask), ==, 1);
      masks |= mat0_fields_flag (i)->mask;
    }
  g_assert_cmphex (masks, ==, MAT0_FLAG_EXT_TEXTURE_LOAD | MAT0_FLAG_HW_PROFILE | MAT0_FLAG_BEHAVIOUR);
  g_assert_cmphex (mat0_fields_blend_index ()->mask, ==, MAT0_FLAG_NIBBLE_MASK);
  g_assert_cmphex (mat0_fields_unknown_bits ()->mask, ==, MAT0_FLAG_UNKNOWN_MASK);
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

    g_assert_cmpstr (full, ==, "100 %");
    g_assert_cmpstr (half, ==, "50 %");
    g_assert_cmpstr (over, ==, "101 % (over 100 %)");
  }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/mat0-fields/params", test_params);
  g_test_add_func ("/core/mat0-fields/groups", test_groups);
  g_test_add_func ("/core/mat0-fields/interp", test_interp);
  g_test_add_func ("/core/mat0-fields/blend", test_blend);
  g_test_add_func ("/core/mat0-fields/readings", test_readings);

  return g_test_run ();
}
