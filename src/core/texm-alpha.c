/* texm-alpha.c - which textures the game draws with their alpha
 * (render.md 2) */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "texm-alpha.h"

TexmDrawAlpha
texm_draw_alpha (guint32  format,
                 guint32  flags5,
                 guint32  attr1,
                 gboolean emboss_bump)
{
  gboolean surface = format == 4444 || format == 8888
                     || (flags5 & (TEXM_FLAGS5_ALPHA_SURFACE | TEXM_FLAGS5_ALPHA_FADE)) != 0;

  if (!surface)
    return TEXM_DRAW_OPAQUE_FORMAT;
  if ((attr1 & TEXM_ATTR1_LIT_SKIN) != 0 && !emboss_bump)
    return TEXM_DRAW_OPAQUE_LIT_SKIN;
  return format == 0 ? TEXM_DRAW_ALPHA_INDEX0 : TEXM_DRAW_ALPHA;
}

gboolean
texm_draw_alpha_is_opaque (TexmDrawAlpha how)
{
  return how == TEXM_DRAW_OPAQUE_FORMAT || how == TEXM_DRAW_OPAQUE_LIT_SKIN;
}

const char *
texm_draw_alpha_note (TexmDrawAlpha how)
{
  switch (how)
    {
    case TEXM_DRAW_OPAQUE_LIT_SKIN:
      return N_("Lit skin: the game draws this texture opaque (its alpha only with emboss bump on)");
    case TEXM_DRAW_OPAQUE_FORMAT:
      return N_("Format without alpha: the game draws this texture opaque");
    case TEXM_DRAW_ALPHA_INDEX0:
      return N_("Palettised on an alpha surface: index 0 is clear, the other indices opaque");
    case TEXM_DRAW_ALPHA:
    default:
      return N_("Drawn with its alpha");
    }
}

gboolean
texm_image_has_alpha (const TexmImage *image)
{
  const guint8 *data;
  gsize size, n;
  guint w, h;

  g_return_val_if_fail (image != NULL, FALSE);

  if (image->header.mip_count == 0 || image->mip_offsets == NULL)
    return FALSE;
  data = g_bytes_get_data (image->bytes, &size);
  texm_mip_size (image, 0, &w, &h);
  n = (gsize) w * h;
  /* texm_parse checked that level 0 lies inside the payload */
  g_return_val_if_fail (image->mip_offsets[0] <= size
                        && n <= (size - image->mip_offsets[0]) / MAX (image->bytes_per_pixel, 1),
                        FALSE);
  data += image->mip_offsets[0];

  switch (image->header.format)
    {
    case 0:
      for (gsize i = 0; i < n; i++)
        if (data[i] == 0)
          return TRUE;
      return FALSE;
    case 4444:
      for (gsize i = 0; i < n; i++)
        if ((data[i * 2 + 1] & 0xF0) != 0xF0)
          return TRUE;
      return FALSE;
    case 88:
      for (gsize i = 0; i < n; i++)
        if (data[i * 2] != 0xFF)
          return TRUE;
      return FALSE;
    case 8888:
      for (gsize i = 0; i < n; i++)
        if (data[i * 4 + 3] != 0xFF)
          return TRUE;
      return FALSE;
    default:
      /* 565, 556, 888: no alpha stored */
      return FALSE;
    }
}

void
texm_apply_draw_alpha (const TexmImage *image,
                       guint            level,
                       TexmDrawAlpha    how,
                       guint8          *rgba)
{
  const guint8 *indices;
  gsize size, n;
  guint w, h;

  g_return_if_fail (image != NULL);
  g_return_if_fail (level < image->header.mip_count);
  g_return_if_fail (rgba != NULL);

  texm_mip_size (image, level, &w, &h);
  n = (gsize) w * h;
  switch (how)
    {
    case TEXM_DRAW_OPAQUE_FORMAT:
    case TEXM_DRAW_OPAQUE_LIT_SKIN:
      for (gsize i = 0; i < n; i++)
        rgba[i * 4 + 3] = 255;
      break;
    case TEXM_DRAW_ALPHA_INDEX0:
      if (image->header.format != 0)
        break;
      indices = g_bytes_get_data (image->bytes, &size);
      g_return_if_fail (image->mip_offsets[level] <= size && n <= size - image->mip_offsets[level]);
      indices += image->mip_offsets[level];
      for (gsize i = 0; i < n; i++)
        rgba[i * 4 + 3] = indices[i] == 0 ? 0 : 255;
      break;
    case TEXM_DRAW_ALPHA:
    default:
      break;
    }
}
