/* mat0-flags.c - attr1 of a MAT0 entry (formats.md 2.4) */
#include "config.h"

#include "mat0-flags.h"

gboolean
mat0_flags_ext_texture_load (guint32 attr1)
{
  return (attr1 & MAT0_FLAG_EXT_TEXTURE_LOAD) != 0;
}

gboolean
mat0_flags_hw_profile (guint32 attr1)
{
  return (attr1 & MAT0_FLAG_HW_PROFILE) != 0;
}

guint
mat0_flags_nibble_mode (guint32 attr1)
{
  return (attr1 & MAT0_FLAG_NIBBLE_MASK) >> MAT0_FLAG_NIBBLE_SHIFT;
}

gboolean
mat0_flags_behaviour (guint32 attr1)
{
  return (attr1 & MAT0_FLAG_BEHAVIOUR) != 0;
}

guint32
mat0_flags_unknown_bits (guint32 attr1)
{
  return attr1 & MAT0_FLAG_UNKNOWN_MASK;
}

guint32
mat0_flags_set_bit (guint32  attr1,
                    guint32  mask,
                    gboolean value)
{
  return value ? (attr1 | mask) : (attr1 & ~mask);
}

guint32
mat0_flags_set_nibble_mode (guint32 attr1,
                            guint   mode)
{
  g_return_val_if_fail (mode <= 15, attr1);

  return (attr1 & ~MAT0_FLAG_NIBBLE_MASK) |
         (((guint32) mode << MAT0_FLAG_NIBBLE_SHIFT) & MAT0_FLAG_NIBBLE_MASK);
}
