/* mat0.c - MAT0 material payloads (formats.md section 2) */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "mat0.h"

G_DEFINE_QUARK (mat0-error-quark, mat0_error)

gsize
mat0_prefix_size (guint32 attr2)
{
  if (attr2 < 2)
    return 0;
  if (attr2 == 2)
    return 2;
  if (attr2 == 3)
    return 6;
  return 10;
}

gboolean
mat0_has_meta_ab (guint32 attr2)
{
  return attr2 >= 2;
}

gboolean
mat0_has_meta_c (guint32 attr2)
{
  return attr2 >= 3;
}

gboolean
mat0_has_meta_d (guint32 attr2)
{
  return attr2 >= 4;
}

static guint16
get_u16 (const guint8 *d)
{
  return (guint16) (d[0] | (d[1] << 8));
}

static guint32
get_u32 (const guint8 *d)
{
  return (guint32) d[0] | ((guint32) d[1] << 8) |
         ((guint32) d[2] << 16) | ((guint32) d[3] << 24);
}

static guint8 *
put_u16 (guint8 *d, guint16 v)
{
  d[0] = v & 0xFF;
  d[1] = v >> 8;
  return d + 2;
}

static guint8 *
put_u32 (guint8 *d, guint32 v)
{
  d[0] = v & 0xFF;
  d[1] = (v >> 8) & 0xFF;
  d[2] = (v >> 16) & 0xFF;
  d[3] = v >> 24;
  return d + 4;
}

/* @format is the whole translatable sentence, starting with the entry
 * name and the offset ("%s: offset %lu: expected ..., found ..."). */
static void
set_decode_error (GError     **error,
                  gsize       *error_offset,
                  Mat0Error    code,
                  gsize        offset,
                  const char  *format,
                  ...) G_GNUC_PRINTF (5, 6);

static void
set_decode_error (GError     **error,
                  gsize       *error_offset,
                  Mat0Error    code,
                  gsize        offset,
                  const char  *format,
                  ...)
{
  va_list args;

  if (error_offset != NULL)
    *error_offset = offset;

  va_start (args, format);
  if (error != NULL)
    *error = g_error_new_valist (MAT0_ERROR, code, format, args);
  va_end (args);
}

gboolean
mat0_check (const guint8  *data,
            gsize          size,
            guint32        attr2,
            const char    *entry_name,
            gsize          base_offset,
            gsize         *error_offset,
            GError       **error)
{
  gsize prefix;
  gsize off;
  guint16 n_phases;
  guint16 n_blocks;

  g_return_val_if_fail (data != NULL || size == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (entry_name == NULL)
    entry_name = "(material)";

  if (size < 4)
    {
      set_decode_error (error, error_offset, MAT0_ERROR_TRUNCATED_HEADER,
                        base_offset,
                        _("%s: offset %lu: expected 4 bytes of phaseCount and "
                          "animBlockCount, found %lu"),
                        entry_name, (unsigned long) base_offset,
                        (unsigned long) size);
      return FALSE;
    }

  prefix = mat0_prefix_size (attr2);
  if (size - 4 < prefix)
    {
      set_decode_error (error, error_offset, MAT0_ERROR_TRUNCATED_HEADER,
                        base_offset + 4,
                        _("%s: offset %lu: expected %lu bytes of metadata for "
                          "attr2 %lu, found %lu"),
                        entry_name, (unsigned long) (base_offset + 4),
                        (unsigned long) prefix, (unsigned long) attr2,
                        (unsigned long) (size - 4));
      return FALSE;
    }

  n_phases = get_u16 (data);
  n_blocks = get_u16 (data + 2);

  if (n_blocks > MAT0_MAX_BLOCKS)
    {
      set_decode_error (error, error_offset, MAT0_ERROR_TOO_MANY_BLOCKS,
                        base_offset + 2,
                        _("%s: offset %lu: expected animBlockCount < %d, "
                          "found %u"),
                        entry_name, (unsigned long) (base_offset + 2),
                        MAT0_MAX_BLOCKS + 1, n_blocks);
      return FALSE;
    }

  off = 4 + prefix;

  /* The whole phase table */
  if ((size - off) / MAT0_PHASE_SIZE < n_phases)
    {
      gsize whole = (size - off) / MAT0_PHASE_SIZE;
      gsize at = base_offset + off + whole * MAT0_PHASE_SIZE;

      set_decode_error (error, error_offset, MAT0_ERROR_TRUNCATED_PHASES, at,
                        _("%s: offset %lu: expected %d bytes of phase %lu of "
                          "%u, found %lu"),
                        entry_name, (unsigned long) at, MAT0_PHASE_SIZE,
                        (unsigned long) whole, n_phases,
                        (unsigned long) ((size - off) % MAT0_PHASE_SIZE));
      return FALSE;
    }
  off += (gsize) n_phases * MAT0_PHASE_SIZE;

  for (guint b = 0; b < n_blocks; b++)
    {
      guint16 n_keys;
      gsize left;

      if (size - off < MAT0_BLOCK_HEADER_SIZE)
        {
          gsize at = base_offset + off;

          set_decode_error (error, error_offset, MAT0_ERROR_TRUNCATED_BLOCK, at,
                            _("%s: offset %lu: expected %d bytes of the header "
                              "of anim block %u of %u, found %lu"),
                            entry_name, (unsigned long) at,
                            MAT0_BLOCK_HEADER_SIZE, b, n_blocks,
                            (unsigned long) (size - off));
          return FALSE;
        }

      n_keys = get_u16 (data + off + 4);
      left = size - off - MAT0_BLOCK_HEADER_SIZE;
      if (left / MAT0_KEY_SIZE < n_keys)
        {
          gsize whole = left / MAT0_KEY_SIZE;
          gsize at = base_offset + off + MAT0_BLOCK_HEADER_SIZE +
                     whole * MAT0_KEY_SIZE;

          set_decode_error (error, error_offset, MAT0_ERROR_TRUNCATED_BLOCK, at,
                            _("%s: offset %lu: expected %d bytes of key %lu of "
                              "%u in anim block %u of %u, found %lu"),
                            entry_name, (unsigned long) at, MAT0_KEY_SIZE,
                            (unsigned long) whole, n_keys, b, n_blocks,
                            (unsigned long) (left % MAT0_KEY_SIZE));
          return FALSE;
        }

      off += MAT0_BLOCK_HEADER_SIZE + (gsize) n_keys * MAT0_KEY_SIZE;
    }

  if (off != size)
    {
      gsize at = base_offset + off;
      unsigned long more = (unsigned long) (size - off);

      if (n_blocks > 0)
        set_decode_error (error, error_offset, MAT0_ERROR_TRAILING_BYTES, at,
                          _("%s: offset %lu: expected end of payload after "
                            "the last block, found %lu more bytes"),
                          entry_name, (unsigned long) at, more);
      else if (n_phases > 0)
        set_decode_error (error, error_offset, MAT0_ERROR_TRAILING_BYTES, at,
                          _("%s: offset %lu: expected end of payload after "
                            "the last phase (no blocks), found %lu more "
                            "bytes"),
                          entry_name, (unsigned long) at, more);
      else
        set_decode_error (error, error_offset, MAT0_ERROR_TRAILING_BYTES, at,
                          _("%s: offset %lu: expected end of payload after "
                            "the header (no phases, no blocks), found %lu "
                            "more bytes"),
                          entry_name, (unsigned long) at, more);
      return FALSE;
    }

  return TRUE;
}

Mat0Material *
mat0_decode_full (const guint8  *data,
                  gsize          size,
                  guint32        attr2,
                  const char    *entry_name,
                  gsize          base_offset,
                  gsize         *error_offset,
                  GError       **error)
{
  g_autoptr(Mat0Material) material = NULL;
  gsize off;
  guint16 n_phases;
  guint16 n_blocks;

  /* Every error is found before anything is allocated. */
  if (!mat0_check (data, size, attr2, entry_name, base_offset, error_offset, error))
    return NULL;

  n_phases = get_u16 (data);
  n_blocks = get_u16 (data + 2);

  material = g_new0 (Mat0Material, 1);
  material->attr2 = attr2;
  material->meta_a = MAT0_DEFAULT_META_A;
  material->meta_b = MAT0_DEFAULT_META_B;
  material->meta_c = MAT0_DEFAULT_META_C;
  material->meta_d = MAT0_DEFAULT_META_D;

  off = 4;
  if (mat0_has_meta_ab (attr2))
    {
      material->meta_a = data[off];
      material->meta_b = data[off + 1];
      off += 2;
    }
  if (mat0_has_meta_c (attr2))
    {
      material->meta_c = get_u32 (data + off);
      off += 4;
    }
  if (mat0_has_meta_d (attr2))
    {
      material->meta_d = get_u32 (data + off);
      off += 4;
    }
  g_assert (off == 4 + mat0_prefix_size (attr2));

  material->n_phases = n_phases;
  material->phases = g_new0 (Mat0Phase, n_phases);
  for (guint i = 0; i < n_phases; i++)
    {
      memcpy (material->phases[i].p, data + off, MAT0_PARAM_COUNT);
      memcpy (material->phases[i].texture, data + off + MAT0_PARAM_COUNT,
              MAT0_TEXTURE_SIZE);
      off += MAT0_PHASE_SIZE;
    }

  material->n_blocks = n_blocks;
  material->blocks = g_new0 (Mat0Block, n_blocks);
  for (guint b = 0; b < n_blocks; b++)
    {
      Mat0Block *block = &material->blocks[b];
      guint16 n_keys = get_u16 (data + off + 4);

      block->header_raw = get_u32 (data + off);
      block->n_keys = n_keys;
      block->keys = g_new0 (Mat0Key, n_keys);
      off += MAT0_BLOCK_HEADER_SIZE;
      for (guint k = 0; k < n_keys; k++)
        {
          block->keys[k].k0 = get_u16 (data + off);
          block->keys[k].k1 = get_u16 (data + off + 2);
          block->keys[k].k2 = get_u16 (data + off + 4);
          off += MAT0_KEY_SIZE;
        }
    }

  g_assert (off == size);
  return g_steal_pointer (&material);
}

Mat0Material *
mat0_decode (const guint8  *data,
             gsize          size,
             guint32        attr2,
             const char    *entry_name,
             gsize          base_offset,
             GError       **error)
{
  return mat0_decode_full (data, size, attr2, entry_name, base_offset,
                           NULL, error);
}

gsize
mat0_encoded_size (const Mat0Material *material)
{
  gsize size;

  g_return_val_if_fail (material != NULL, 0);

  size = 4 + mat0_prefix_size (material->attr2) +
         (gsize) material->n_phases * MAT0_PHASE_SIZE;
  for (guint b = 0; b < material->n_blocks; b++)
    size += MAT0_BLOCK_HEADER_SIZE +
            (gsize) material->blocks[b].n_keys * MAT0_KEY_SIZE;

  return size;
}

GBytes *
mat0_encode (const Mat0Material *material)
{
  gsize size;
  guint8 *buf;
  guint8 *d;

  g_return_val_if_fail (material != NULL, NULL);

  size = mat0_encoded_size (material);
  buf = g_malloc (size);
  d = buf;

  d = put_u16 (d, material->n_phases);
  d = put_u16 (d, material->n_blocks);
  if (mat0_has_meta_ab (material->attr2))
    {
      *d++ = material->meta_a;
      *d++ = material->meta_b;
    }
  if (mat0_has_meta_c (material->attr2))
    d = put_u32 (d, material->meta_c);
  if (mat0_has_meta_d (material->attr2))
    d = put_u32 (d, material->meta_d);

  for (guint i = 0; i < material->n_phases; i++)
    {
      memcpy (d, material->phases[i].p, MAT0_PARAM_COUNT);
      memcpy (d + MAT0_PARAM_COUNT, material->phases[i].texture,
              MAT0_TEXTURE_SIZE);
      d += MAT0_PHASE_SIZE;
    }

  for (guint b = 0; b < material->n_blocks; b++)
    {
      const Mat0Block *block = &material->blocks[b];

      d = put_u32 (d, block->header_raw);
      d = put_u16 (d, block->n_keys);
      for (guint k = 0; k < block->n_keys; k++)
        {
          d = put_u16 (d, block->keys[k].k0);
          d = put_u16 (d, block->keys[k].k1);
          d = put_u16 (d, block->keys[k].k2);
        }
    }

  g_assert ((gsize) (d - buf) == size);

  return g_bytes_new_take (buf, size);
}

Mat0Material *
mat0_material_new_canonical (void)
{
  Mat0Material *material = g_new0 (Mat0Material, 1);
  Mat0Phase *phase;

  material->attr2 = MAT0_CANONICAL_ATTR2;
  material->meta_a = MAT0_DEFAULT_META_A;
  material->meta_b = MAT0_DEFAULT_META_B;
  material->meta_c = MAT0_DEFAULT_META_C;
  material->meta_d = MAT0_DEFAULT_META_D;
  material->n_phases = 1;
  material->phases = g_new0 (Mat0Phase, 1);
  phase = &material->phases[0];
  phase->p[4] = phase->p[5] = phase->p[6] = phase->p[7] = 255;
  phase->p[17] = 255;

  return material;
}

Mat0Material *
mat0_material_copy (const Mat0Material *material)
{
  Mat0Material *copy;

  g_return_val_if_fail (material != NULL, NULL);

  copy = g_new0 (Mat0Material, 1);
  *copy = *material;
  copy->phases = g_memdup2 (material->phases,
                            (gsize) material->n_phases * sizeof (Mat0Phase));
  copy->blocks = g_new0 (Mat0Block, material->n_blocks);
  for (guint b = 0; b < material->n_blocks; b++)
    {
      copy->blocks[b] = material->blocks[b];
      copy->blocks[b].keys = g_memdup2 (material->blocks[b].keys,
                                        (gsize) material->blocks[b].n_keys *
                                        sizeof (Mat0Key));
    }

  return copy;
}

void
mat0_material_free (Mat0Material *material)
{
  if (material == NULL)
    return;

  for (guint b = 0; b < material->n_blocks; b++)
    g_free (material->blocks[b].keys);
  g_free (material->blocks);
  g_free (material->phases);
  g_free (material);
}

gboolean
mat0_material_equal (const Mat0Material *a,
                     const Mat0Material *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;

  if (a->attr2 != b->attr2 ||
      a->meta_a != b->meta_a ||
      a->meta_b != b->meta_b ||
      a->meta_c != b->meta_c ||
      a->meta_d != b->meta_d ||
      a->n_phases != b->n_phases ||
      a->n_blocks != b->n_blocks)
    return FALSE;

  for (guint i = 0; i < a->n_phases; i++)
    {
      if (memcmp (a->phases[i].p, b->phases[i].p, MAT0_PARAM_COUNT) != 0 ||
          memcmp (a->phases[i].texture, b->phases[i].texture,
                  MAT0_TEXTURE_SIZE) != 0)
        return FALSE;
    }

  for (guint i = 0; i < a->n_blocks; i++)
    {
      const Mat0Block *ba = &a->blocks[i];
      const Mat0Block *bb = &b->blocks[i];

      if (ba->header_raw != bb->header_raw || ba->n_keys != bb->n_keys)
        return FALSE;
      for (guint k = 0; k < ba->n_keys; k++)
        {
          if (ba->keys[k].k0 != bb->keys[k].k0 ||
              ba->keys[k].k1 != bb->keys[k].k1 ||
              ba->keys[k].k2 != bb->keys[k].k2)
            return FALSE;
        }
    }

  return TRUE;
}

gsize
mat0_phase_texture_len (const Mat0Phase *phase)
{
  const guint8 *nul;

  g_return_val_if_fail (phase != NULL, 0);

  nul = memchr (phase->texture, 0, MAT0_TEXTURE_SIZE);

  return nul != NULL ? (gsize) (nul - phase->texture) : MAT0_TEXTURE_SIZE;
}

gboolean
mat0_phase_is_textured (const Mat0Phase *phase)
{
  g_return_val_if_fail (phase != NULL, FALSE);

  return phase->texture[0] != 0;
}

char *
mat0_phase_dup_texture (const Mat0Phase *phase)
{
  g_return_val_if_fail (phase != NULL, NULL);

  return cp1251_to_utf8 (phase->texture, MAT0_TEXTURE_SIZE);
}

gboolean
mat0_phase_set_texture (Mat0Phase   *phase,
                        const char  *utf8,
                        GError     **error)
{
  g_return_val_if_fail (phase != NULL, FALSE);
  g_return_val_if_fail (utf8 != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (utf8[0] == '\0')
    {
      memset (phase->texture, 0, MAT0_TEXTURE_SIZE);
      return TRUE;
    }

  return cp1251_from_utf8 (utf8, phase->texture, MAT0_TEXTURE_SIZE, error);
}

gint
mat0_texture_palette_index (const guint8 *texture,
                            gsize         len)
{
  const guint8 *nul;
  const guint8 *dot_at;
  gsize end;
  gsize dot;

  g_return_val_if_fail (texture != NULL || len == 0, -1);

  /* The name ends at its NUL, at @len, or at the 16-byte field's end. */
  len = MIN (len, (gsize) MAT0_TEXTURE_SIZE);
  nul = memchr (texture, 0, len);
  end = nul != NULL ? (gsize) (nul - texture) : len;
  dot_at = memchr (texture, '.', end);
  if (dot_at == NULL)
    return -1;
  dot = (gsize) (dot_at - texture);

  return mat0_palette_index_at (texture, end, dot);
}

gint
mat0_palette_index_at (const guint8 *texture,
                       gsize         end,
                       gsize         dot)
{
  guint8 letter;
  guint8 digit;
  gint idx;

  /* toupper of the C locale, inline: this runs for every phase of a
   * library when it is validated */
  letter = dot + 1 < end ? texture[dot + 1] : 0;
  if (letter >= 'a' && letter <= 'z')
    letter -= 'a' - 'A';
  digit = dot + 2 < end ? texture[dot + 2] : 0;

  idx = ((gint) letter - 'A') * 11 + (digit != 0 ? (gint) digit - '0' + 1 : 0);

  return idx < 0 ? -1 : idx;
}

guint32
mat0_block_period (const Mat0Block *block)
{
  g_return_val_if_fail (block != NULL, 0);

  return block->n_keys > 0 ? block->keys[block->n_keys - 1].k1 : 0;
}
