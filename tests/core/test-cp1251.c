/* test-cp1251.c - CP1251 <-> UTF-8 for NRes and texture names */
#include "config.h"

#include <string.h>

#include "cp1251.h"
#include "test-support.h"

/* "Броня" (armour) in CP1251 and in UTF-8. */
static const guint8 bronya_cp1251[] = { 0xC1, 0xF0, 0xEE, 0xED, 0xFF };
#define BRONYA_UTF8 "\xD0\x91\xD1\x80\xD0\xBE\xD0\xBD\xD1\x8F"

/* Bytes 0x80..0xFF without 0x98, decoded by an independent CP1251 codec
 * (Python's cp1251), as UTF-8. */
static const char high_utf8[] =
  "\xD0\x82\xD0\x83\xE2\x80\x9A\xD1\x93\xE2\x80\x9E\xE2\x80\xA6\xE2"
  "\x80\xA0\xE2\x80\xA1\xE2\x82\xAC\xE2\x80\xB0\xD0\x89\xE2\x80\xB9"
  "\xD0\x8A\xD0\x8C\xD0\x8B\xD0\x8F\xD1\x92\xE2\x80\x98\xE2\x80\x99"
  "\xE2\x80\x9C\xE2\x80\x9D\xE2\x80\xA2\xE2\x80\x93\xE2\x80\x94\xE2"
  "\x84\xA2\xD1\x99\xE2\x80\xBA\xD1\x9A\xD1\x9C\xD1\x9B\xD1\x9F\xC2"
  "\xA0\xD0\x8E\xD1\x9E\xD0\x88\xC2\xA4\xD2\x90\xC2\xA6\xC2\xA7\xD0"
  "\x81\xC2\xA9\xD0\x84\xC2\xAB\xC2\xAC\xC2\xAD\xC2\xAE\xD0\x87\xC2"
  "\xB0\xC2\xB1\xD0\x86\xD1\x96\xD2\x91\xC2\xB5\xC2\xB6\xC2\xB7\xD1"
  "\x91\xE2\x84\x96\xD1\x94\xC2\xBB\xD1\x98\xD0\x85\xD1\x95\xD1\x97"
  "\xD0\x90\xD0\x91\xD0\x92\xD0\x93\xD0\x94\xD0\x95\xD0\x96\xD0\x97"
  "\xD0\x98\xD0\x99\xD0\x9A\xD0\x9B\xD0\x9C\xD0\x9D\xD0\x9E\xD0\x9F"
  "\xD0\xA0\xD0\xA1\xD0\xA2\xD0\xA3\xD0\xA4\xD0\xA5\xD0\xA6\xD0\xA7"
  "\xD0\xA8\xD0\xA9\xD0\xAA\xD0\xAB\xD0\xAC\xD0\xAD\xD0\xAE\xD0\xAF"
  "\xD0\xB0\xD0\xB1\xD0\xB2\xD0\xB3\xD0\xB4\xD0\xB5\xD0\xB6\xD0\xB7"
  "\xD0\xB8\xD0\xB9\xD0\xBA\xD0\xBB\xD0\xBC\xD0\xBD\xD0\xBE\xD0\xBF"
  "\xD1\x80\xD1\x81\xD1\x82\xD1\x83\xD1\x84\xD1\x85\xD1\x86\xD1\x87"
  "\xD1\x88\xD1\x89\xD1\x8A\xD1\x8B\xD1\x8C\xD1\x8D\xD1\x8E\xD1\x8F";

static void
test_decode_ascii (void)
{
  const guint8 raw[] = "Metal_01.TEX";
  g_autofree char *s = cp1251_to_utf8 (raw, sizeof raw);

  g_assert_cmpstr (s, ==, "Metal_01.TEX");
}

static void
test_decode_cyrillic (void)
{
  g_autofree char *s = cp1251_to_utf8 (bronya_cp1251, sizeof bronya_cp1251);

  g_assert_cmpstr (s, ==, BRONYA_UTF8);
}

static void
test_decode_all_high (void)
{
  guint8 raw[127];
  guint n = 0;
  g_autofree char *s = NULL;

  for (guint b = 0x80; b <= 0xFF; b++)
    if (b != 0x98)
      raw[n++] = (guint8) b;
  g_assert_cmpuint (n, ==, sizeof raw);

  s = cp1251_to_utf8 (raw, sizeof raw);
  g_assert_cmpstr (s, ==, high_utf8);
}

static void
test_decode_undefined (void)
{
  const guint8 raw[] = { 'a', 0x98, 'b' };
  g_autofree char *s = cp1251_to_utf8 (raw, sizeof raw);

  g_assert_cmpstr (s, ==, "a\xEF\xBF\xBD" "b");
}

static void
test_decode_bounds (void)
{
  const guint8 raw[] = { 'a', 'b', 0, 'c', 'd' };
  const guint8 no_nul[] = { 'x', 'y', 'z' };
  g_autofree char *s1 = cp1251_to_utf8 (raw, sizeof raw);
  g_autofree char *s2 = cp1251_to_utf8 (no_nul, 2);
  g_autofree char *s3 = cp1251_to_utf8 (no_nul, 0);

  g_assert_cmpstr (s1, ==, "ab");
  g_assert_cmpstr (s2, ==, "xy");
  g_assert_cmpstr (s3, ==, "");
}

static void
test_encode_cyrillic (void)
{
  g_autoptr(GError) error = NULL;
  guint8 field[36];
  guint8 expected[36] = { 0 };

  memset (field, 0x55, sizeof field);
  memcpy (expected, bronya_cp1251, sizeof bronya_cp1251);

  g_assert_true (cp1251_from_utf8 (BRONYA_UTF8, field, sizeof field, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (field, sizeof field, expected, sizeof expected);
}

static void
test_encode_all_high (void)
{
  g_autoptr(GError) error = NULL;
  guint8 field[128];
  guint8 expected[128] = { 0 };
  guint n = 0;

  for (guint b = 0x80; b <= 0xFF; b++)
    if (b != 0x98)
      expected[n++] = (guint8) b;

  g_assert_true (cp1251_from_utf8 (high_utf8, field, sizeof field, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (field, sizeof field, expected, sizeof expected);
}

static void
test_encode_roundtrip (void)
{
  /* Every defined byte survives decode then encode. */
  for (guint b = 1; b <= 0xFF; b++)
    {
      g_autoptr(GError) error = NULL;
      guint8 raw[1] = { (guint8) b };
      guint8 field[4] = { 0x55, 0x55, 0x55, 0x55 };
      g_autofree char *s = NULL;

      if (b == 0x98)
        continue;
      s = cp1251_to_utf8 (raw, 1);
      g_assert_true (cp1251_from_utf8 (s, field, sizeof field, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (field[0], ==, b);
      g_assert_cmpuint (field[1], ==, 0);
      g_assert_cmpuint (field[3], ==, 0);
    }
}

static void
check_refused (const char *utf8,
               const char *character,
               const char *position,
               const char *codepoint)
{
  g_autoptr(GError) error = NULL;
  guint8 field[36];
  guint8 before[36];

  memset (field, 0x55, sizeof field);
  memcpy (before, field, sizeof field);

  g_assert_false (cp1251_from_utf8 (utf8, field, sizeof field, &error));
  g_assert_error (error, CP1251_ERROR, CP1251_ERROR_UNREPRESENTABLE);
  g_assert_nonnull (strstr (error->message, character));
  g_assert_nonnull (strstr (error->message, position));
  g_assert_nonnull (strstr (error->message, codepoint));
  g_assert_cmpmem (field, sizeof field, before, sizeof before);
}

static void
test_encode_unrepresentable (void)
{
  check_refused ("ab\xE6\xBC\xA2", "\xE6\xBC\xA2", "Character 3", "U+6F22");    /* 漢 */
  check_refused ("\xE2\x9C\x93", "\xE2\x9C\x93", "Character 1", "U+2713");     /* ✓ */
  check_refused (BRONYA_UTF8 "\xEF\xBF\xBD", "\xEF\xBF\xBD", "Character 6", "U+FFFD");
  check_refused ("\xC3\xA9t\xC3\xA9", "\xC3\xA9", "Character 1", "U+00E9");   /* é */
}

static void
test_encode_euro (void)
{
  g_autoptr(GError) error = NULL;
  guint8 field[4];
  const guint8 expected[4] = { 0x88, '1', 0, 0 };

  g_assert_true (cp1251_from_utf8 ("\xE2\x82\xAC" "1", field, sizeof field, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (field, sizeof field, expected, sizeof expected);
}

static void
test_encode_too_long (void)
{
  g_autoptr(GError) error = NULL;
  guint8 field[36];
  guint8 before[36];
  char name35[36], name36[37];
  GString *cyr = g_string_new (NULL);

  memset (name35, 'a', 35);
  name35[35] = 0;
  memset (name36, 'a', 36);
  name36[36] = 0;

  g_assert_true (cp1251_from_utf8 (name35, field, sizeof field, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (field, 35, name35, 35);
  g_assert_cmpuint (field[35], ==, 0);

  memset (field, 0x55, sizeof field);
  memcpy (before, field, sizeof field);
  g_assert_false (cp1251_from_utf8 (name36, field, sizeof field, &error));
  g_assert_error (error, CP1251_ERROR, CP1251_ERROR_TOO_LONG);
  g_assert_cmpmem (field, sizeof field, before, sizeof before);
  g_clear_error (&error);

  /* 35 Cyrillic letters are 70 UTF-8 bytes but 35 CP1251 bytes: fits. */
  for (guint i = 0; i < 35; i++)
    g_string_append (cyr, "\xD0\xAF");   /* Я = 0xDF */
  g_assert_true (cp1251_from_utf8 (cyr->str, field, sizeof field, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 35; i++)
    g_assert_cmpuint (field[i], ==, 0xDF);
  g_assert_cmpuint (field[35], ==, 0);

  g_string_append (cyr, "\xD0\xAF");
  g_assert_false (cp1251_from_utf8 (cyr->str, field, sizeof field, &error));
  g_assert_error (error, CP1251_ERROR, CP1251_ERROR_TOO_LONG);
  g_string_free (cyr, TRUE);
}

static void
test_encode_invalid_utf8 (void)
{
  g_autoptr(GError) error = NULL;
  guint8 field[8];

  g_assert_false (cp1251_from_utf8 ("a\xC1" "b", field, sizeof field, &error));
  g_assert_error (error, CP1251_ERROR, CP1251_ERROR_INVALID_UTF8);
}

static void
test_encode_empty (void)
{
  g_autoptr(GError) error = NULL;
  guint8 field[16];
  const guint8 zeros[16] = { 0 };

  memset (field, 0x55, sizeof field);
  g_assert_true (cp1251_from_utf8 ("", field, sizeof field, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (field, sizeof field, zeros, sizeof zeros);
}

static void
test_compare (void)
{
  g_assert_cmpint (cp1251_name_compare ("Default", "DEFAULT"), ==, 0);
  g_assert_cmpint (cp1251_name_compare ("abc", "ABD"), <, 0);
  g_assert_cmpint (cp1251_name_compare ("ABD", "abc"), >, 0);
  g_assert_cmpint (cp1251_name_compare ("ab", "abc"), <, 0);
  g_assert_cmpint (cp1251_name_compare ("", ""), ==, 0);
  /* '_' (0x5F) sorts after 'Z' (0x5A) raw, but before every letter once
   * A..Z fold to a..z. */
  g_assert_cmpint (cp1251_name_compare ("_", "Z"), <, 0);
  g_assert_cmpint (cp1251_name_compare ("_", "z"), <, 0);
  g_assert_cmpint (cp1251_name_compare ("[", "a"), <, 0);
  /* Bytes compare unsigned; Cyrillic is not folded (Б 0xC1, б 0xE1). */
  g_assert_cmpint (cp1251_name_compare ("\x80", "z"), >, 0);
  g_assert_cmpint (cp1251_name_compare ("\xC1", "\xE1"), <, 0);
  g_assert_cmpint (cp1251_name_compare ("\xE1", "\xE1"), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/cp1251/decode/ascii", test_decode_ascii);
  g_test_add_func ("/core/cp1251/decode/cyrillic", test_decode_cyrillic);
  g_test_add_func ("/core/cp1251/decode/all-high", test_decode_all_high);
  g_test_add_func ("/core/cp1251/decode/undefined-0x98", test_decode_undefined);
  g_test_add_func ("/core/cp1251/decode/bounds", test_decode_bounds);
  g_test_add_func ("/core/cp1251/encode/cyrillic", test_encode_cyrillic);
  g_test_add_func ("/core/cp1251/encode/all-high", test_encode_all_high);
  g_test_add_func ("/core/cp1251/encode/roundtrip", test_encode_roundtrip);
  g_test_add_func ("/core/cp1251/encode/euro", test_encode_euro);
  g_test_add_func ("/core/cp1251/encode/unrepresentable", test_encode_unrepresentable);
  g_test_add_func ("/core/cp1251/encode/too-long", test_encode_too_long);
  g_test_add_func ("/core/cp1251/encode/invalid-utf8", test_encode_invalid_utf8);
  g_test_add_func ("/core/cp1251/encode/empty", test_encode_empty);
  g_test_add_func ("/core/cp1251/compare", test_compare);

  return g_test_run ();
}
