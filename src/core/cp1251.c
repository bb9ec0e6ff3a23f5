/* cp1251.c - NRes names and texture names: CP1251 bytes <-> UTF-8
 *
 * Bytes 0x00..0x7F are ASCII; 0x80..0xFF map through the table below
 * (Windows-1251 as Microsoft defines it). 0x98 has no character.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"

G_DEFINE_QUARK (cp1251-error-quark, cp1251_error)

#define CP1251_UNDEFINED 0x0000

static const gunichar2 cp1251_high[128] = {
  0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, /* 80 */
  0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F, /* 88 */
  0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, /* 90 */
  CP1251_UNDEFINED,
          0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, /* 98 */
  0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7, /* A0 */
  0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407, /* A8 */
  0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7, /* B0 */
  0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457, /* B8 */
  0x0410, 0x0411, 0x0412, 0x0413, 0x0414, 0x0415, 0x0416, 0x0417, /* C0 */
  0x0418, 0x0419, 0x041A, 0x041B, 0x041C, 0x041D, 0x041E, 0x041F, /* C8 */
  0x0420, 0x0421, 0x0422, 0x0423, 0x0424, 0x0425, 0x0426, 0x0427, /* D0 */
  0x0428, 0x0429, 0x042A, 0x042B, 0x042C, 0x042D, 0x042E, 0x042F, /* D8 */
  0x0430, 0x0431, 0x0432, 0x0433, 0x0434, 0x0435, 0x0436, 0x0437, /* E0 */
  0x0438, 0x0439, 0x043A, 0x043B, 0x043C, 0x043D, 0x043E, 0x043F, /* E8 */
  0x0440, 0x0441, 0x0442, 0x0443, 0x0444, 0x0445, 0x0446, 0x0447, /* F0 */
  0x0448, 0x0449, 0x044A, 0x044B, 0x044C, 0x044D, 0x044E, 0x044F, /* F8 */
};

char *
cp1251_to_utf8 (const guint8 *raw,
                gsize         len)
{
  gsize n = 0, size = 1;
  char *out, *p;

  g_return_val_if_fail (raw != NULL || len == 0, NULL);

  /* measured first: a library holds tens of thousands of these */
  for (; n < len && raw[n] != 0; n++)
    size += raw[n] < 0x80 ? 1 : 3;   /* U+0400..U+FFFD: 2 or 3 bytes */

  out = p = g_malloc (size);
  for (gsize i = 0; i < n; i++)
    {
      guint8 b = raw[i];

      if (b < 0x80)
        *p++ = (char) b;
      else if (cp1251_high[b - 0x80] == CP1251_UNDEFINED)
        p += g_unichar_to_utf8 (0xFFFD, p);
      else
        p += g_unichar_to_utf8 (cp1251_high[b - 0x80], p);
    }
  *p = '\0';

  return out;
}

/* Returns the CP1251 byte for @c, or 0 when CP1251 has none (NUL itself
 * never reaches here: it ends the C string). */
static guint8
encode_char (gunichar c)
{
  if (c < 0x80)
    return (guint8) c;

  for (guint i = 0; i < G_N_ELEMENTS (cp1251_high); i++)
    {
      if (cp1251_high[i] != CP1251_UNDEFINED && cp1251_high[i] == c)
        return (guint8) (0x80 + i);
    }

  return 0;
}

gboolean
cp1251_from_utf8 (const char  *utf8,
                  guint8      *out,
                  gsize        field_size,
                  GError     **error)
{
  g_autofree guint8 *buf = NULL;
  gsize n = 0;
  guint position = 0;

  g_return_val_if_fail (utf8 != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (field_size > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!g_utf8_validate (utf8, -1, NULL))
    {
      g_set_error (error, CP1251_ERROR, CP1251_ERROR_INVALID_UTF8,
                   _("The name is not valid UTF-8"));
      return FALSE;
    }

  buf = g_malloc0 (field_size);

  for (const char *p = utf8; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      guint8 b = encode_char (c);

      position++;

      if (b == 0)
        {
          char ch[8] = { 0 };

          g_unichar_to_utf8 (c, ch);
          g_set_error (error, CP1251_ERROR, CP1251_ERROR_UNREPRESENTABLE,
                       _("Character %u (“%s”, U+%04X) cannot be stored in CP1251"),
                       position, ch, (guint) c);
          return FALSE;
        }

      if (n + 1 >= field_size)
        {
          g_set_error (error, CP1251_ERROR, CP1251_ERROR_TOO_LONG,
                       _("The name is too long: at most %u bytes fit, character %u does not"),
                       (guint) (field_size - 1), position);
          return FALSE;
        }

      buf[n++] = b;
    }

  memcpy (out, buf, field_size);

  return TRUE;
}

int
cp1251_name_compare (const char *a,
                     const char *b)
{
  g_return_val_if_fail (a != NULL, 0);
  g_return_val_if_fail (b != NULL, 0);

  for (;; a++, b++)
    {
      guint8 ca = (guint8) *a;
      guint8 cb = (guint8) *b;

      if (ca >= 'A' && ca <= 'Z')
        ca += 'a' - 'A';
      if (cb >= 'A' && cb <= 'Z')
        cb += 'a' - 'A';
      if (ca != cb || ca == 0)
        return (int) ca - (int) cb;
    }
}
