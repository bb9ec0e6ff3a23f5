/* fuzz-texm.c - libFuzzer target: Texm payloads
 *
 * parse -> write must give the input back; every mip level decodes inside
 * its bounds; nothing crashes or leaks.
 */
#include "config.h"

#include <stdlib.h>

#include "texm.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(TexmImage) image = texm_parse (bytes, "x", 0, NULL);
  g_autoptr(GBytes) written = NULL;
  g_autoptr(TexmImage) again = NULL;

  if (image == NULL)
    return 0;
  written = texm_write (image);
  if (!g_bytes_equal (written, bytes))
    abort ();
  again = texm_parse (written, "x", 0, NULL);
  if (again == NULL)
    abort ();

  /* Decoding is bounded by the payload; skip absurdly large images so a
   * run spends its time on parsing, not on memset. */
  for (guint level = 0; level < image->header.mip_count; level++)
    {
      guint w, h;
      g_autofree guint8 *rgba = NULL;

      texm_mip_size (image, level, &w, &h);
      if ((guint64) w * h > (1u << 20))
        continue;
      rgba = texm_decode_rgba (image, level, &w, &h);
      if (rgba == NULL)
        abort ();
    }
  return 0;
}
