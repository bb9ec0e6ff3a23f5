/* mat0-flags.h - attr1 of a MAT0 entry (formats.md 2.4)
 *
 * Accessors change only the bits they name; every other bit, known or
 * not, is kept.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MAT0_FLAG_EXT_TEXTURE_LOAD  0x01u
#define MAT0_FLAG_HW_PROFILE        0x02u
#define MAT0_FLAG_NIBBLE_MASK       0x3Cu
#define MAT0_FLAG_NIBBLE_SHIFT      2
#define MAT0_FLAG_BEHAVIOUR         0x40u
#define MAT0_FLAG_KNOWN_MASK        0x7Fu
#define MAT0_FLAG_UNKNOWN_MASK      0xFFFFFF80u

gboolean mat0_flags_ext_texture_load (guint32 attr1);
gboolean mat0_flags_hw_profile       (guint32 attr1);
guint    mat0_flags_nibble_mode      (guint32 attr1);
gboolean mat0_flags_behaviour        (guint32 attr1);
guint32  mat0_flags_unknown_bits     (guint32 attr1);

guint32  mat0_flags_set_bit          (guint32 attr1,
                                      guint32 mask,
                                      gboolean value);
/* @mode is 0..15. */
guint32  mat0_flags_set_nibble_mode  (guint32 attr1,
                                      guint   mode);

G_END_DECLS
