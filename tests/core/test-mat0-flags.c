/* test-mat0-flags.c - attr1 accessors keep every bit they do not name */
#include "config.h"

#include "mat0-flags.h"
#include "test-support.h"

#define UNKNOWN 0xDEADBE80u

static void
test_masks (void)
{
  g_assert_cmphex (MAT0_FLAG_KNOWN_MASK | MAT0_FLAG_UNKNOWN_MASK, ==, 0xFFFFFFFFu);
  g_assert_cmphex (MAT0_FLAG_KNOWN_MASK & MAT0_FLAG_UNKNOWN_MASK, ==, 0);
  g_assert_cmphex (MAT0_FLAG_EXT_TEXTURE_LOAD | MAT0_FLAG_HW_PROFILE |
                   MAT0_FLAG_NIBBLE_MASK | MAT0_FLAG_BEHAVIOUR, ==,
                   MAT0_FLAG_KNOWN_MASK);
}

static void
test_getters (void)
{
  g_assert_false (mat0_flags_ext_texture_load (0));
  g_assert_false (mat0_flags_hw_profile (0));
  g_assert_cmpuint (mat0_flags_nibble_mode (0), ==, 0);
  g_assert_false (mat0_flags_behaviour (0));
  g_assert_cmphex (mat0_flags_unknown_bits (0), ==, 0);

  g_assert_true (mat0_flags_ext_texture_load (0x01));
  g_assert_false (mat0_flags_ext_texture_load (0xFFFFFFFEu));
  g_assert_true (mat0_flags_hw_profile (0x02));
  g_assert_false (mat0_flags_hw_profile (0xFFFFFFFDu));
  g_assert_true (mat0_flags_behaviour (0x40));
  g_assert_false (mat0_flags_behaviour (0xFFFFFFBFu));

  for (guint mode = 0; mode < 16; mode++)
    {
      g_assert_cmpuint (mat0_flags_nibble_mode (mode << 2), ==, mode);
      g_assert_cmpuint (mat0_flags_nibble_mode (UNKNOWN | 0x43 | (mode << 2)), ==, mode);
    }

  /* retail 0x41: extended load + behaviour, nibble 0 */
  g_assert_true (mat0_flags_ext_texture_load (0x41));
  g_assert_false (mat0_flags_hw_profile (0x41));
  g_assert_cmpuint (mat0_flags_nibble_mode (0x41), ==, 0);
  g_assert_true (mat0_flags_behaviour (0x41));

  g_assert_cmphex (mat0_flags_unknown_bits (UNKNOWN | 0x7F), ==, UNKNOWN);
  g_assert_cmphex (mat0_flags_unknown_bits (0x7F), ==, 0);
  g_assert_cmphex (mat0_flags_unknown_bits (0x80), ==, 0x80);
}

static void
test_set_bit (void)
{
  static const guint32 bits[] = {
    MAT0_FLAG_EXT_TEXTURE_LOAD, MAT0_FLAG_HW_PROFILE, MAT0_FLAG_BEHAVIOUR,
  };

  for (guint i = 0; i < G_N_ELEMENTS (bits); i++)
    {
      for (guint other = 0; other < 0x80; other++)
        {
          guint32 x = UNKNOWN | other;
          guint32 on = mat0_flags_set_bit (x, bits[i], TRUE);
          guint32 off = mat0_flags_set_bit (x, bits[i], FALSE);

          g_assert_cmphex (on, ==, x | bits[i]);
          g_assert_cmphex (off, ==, x & ~bits[i]);
          g_assert_cmphex (on & ~bits[i], ==, x & ~bits[i]);
        }
    }

  g_assert_cmphex (mat0_flags_set_bit (UNKNOWN, MAT0_FLAG_EXT_TEXTURE_LOAD, TRUE), ==, 0xDEADBE81u);
  g_assert_cmphex (mat0_flags_set_bit (0xDEADBEC3u, MAT0_FLAG_HW_PROFILE, FALSE), ==, 0xDEADBEC1u);
  g_assert_cmphex (mat0_flags_set_bit (0xDEADBEC3u, MAT0_FLAG_BEHAVIOUR, FALSE), ==, 0xDEADBE83u);
  g_assert_cmphex (mat0_flags_set_bit (UNKNOWN, MAT0_FLAG_BEHAVIOUR, TRUE), ==, 0xDEADBEC0u);
  /* unknown bits can be set explicitly, by mask */
  g_assert_cmphex (mat0_flags_set_bit (0x41, 0x80000000u, TRUE), ==, 0x80000041u);
}

static void
test_set_nibble_mode (void)
{
  for (guint mode = 0; mode < 16; mode++)
    {
      for (guint other = 0; other < 0x80; other++)
        {
          guint32 x = UNKNOWN | other;
          guint32 y = mat0_flags_set_nibble_mode (x, mode);

          g_assert_cmpuint (mat0_flags_nibble_mode (y), ==, mode);
          g_assert_cmphex (y & ~MAT0_FLAG_NIBBLE_MASK, ==, x & ~MAT0_FLAG_NIBBLE_MASK);
        }
    }

  g_assert_cmphex (mat0_flags_set_nibble_mode (0xDEADBEC3u, 2), ==, 0xDEADBECBu);
  g_assert_cmphex (mat0_flags_set_nibble_mode (0xDEADBEFFu, 0), ==, 0xDEADBEC3u);
  g_assert_cmphex (mat0_flags_set_nibble_mode (UNKNOWN, 15), ==, 0xDEADBEBCu);
}

static void
test_set_nibble_mode_invalid (void)
{
  if (g_test_subprocess ())
    {
      g_assert_cmphex (mat0_flags_set_nibble_mode (0x41, 16), ==, 0x41);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*mode <= 15*");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/mat0-flags/masks", test_masks);
  g_test_add_func ("/core/mat0-flags/getters", test_getters);
  g_test_add_func ("/core/mat0-flags/set-bit", test_set_bit);
  g_test_add_func ("/core/mat0-flags/set-nibble-mode", test_set_nibble_mode);
  g_test_add_func ("/core/mat0-flags/set-nibble-mode-invalid", test_set_nibble_mode_invalid);

  return g_test_run ();
}
