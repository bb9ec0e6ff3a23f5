/* test-wear.c - WEAR: the reader (rows by position, lints) and the
 * preserving writer, byte for byte (models.md 3) */
#include "config.h"

#include <string.h>

#include "msh-problem.h"
#include "test-support.h"
#include "wear.h"

static WearTable *
read_text (const char *text,
           guint64     base)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));

  return wear_table_read (bytes, base, "tree.wea");
}

/* The problems' messages, one per line. */
static char *
messages (const GPtrArray *problems)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < problems->len; i++)
    {
      const MshProblem *p = g_ptr_array_index ((GPtrArray *) problems, i);

      g_assert_cmpint (p->severity, ==, MSH_SEVERITY_LINT);
      g_string_append_printf (out, "%s\n", p->message);
    }

  return g_string_free (out, FALSE);
}

static void
assert_bytes (GBytes     *bytes,
              const char *expected)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (bytes, &size);
  g_autofree char *text = g_strndup (data, size);

  g_assert_cmpstr (text, ==, expected);
  g_assert_cmpuint (size, ==, strlen (expected));
}

/* ---- Reading ------------------------------------------------------------ */

static const char crlf_text[] =
  "3\r\n"
  "0 ROCK_WALL\r\n"
  "  1   METAL_PLATE  \r\n"
  "2\tGLASS\r\n"
  "\r\n"
  "LIGHTMAPS\r\n"
  "1\r\n"
  "0 bunker_lm.0\r\n";

static void
test_read_crlf (void)
{
  g_autoptr(WearTable) t = read_text (crlf_text, 1000);

  g_assert_cmpuint (t->problems->len, ==, 0);
  g_assert_true (t->has_count);
  g_assert_true (t->count_numeric);
  g_assert_cmpuint (t->count, ==, 3);
  g_assert_cmpstr (t->eol, ==, "\r\n");
  g_assert_cmpuint (t->n_rows, ==, 3);
  g_assert_cmpstr (t->rows[0].id, ==, "0");
  g_assert_cmpstr (t->rows[0].name, ==, "ROCK_WALL");
  g_assert_cmpuint (t->rows[0].name_start, ==, 5);
  g_assert_cmpuint (t->rows[0].name_end, ==, 14);
  g_assert_cmpstr (t->rows[1].id, ==, "1");
  g_assert_cmpint (t->rows[1].id_value, ==, 1);
  g_assert_cmpstr (t->rows[1].name, ==, "METAL_PLATE");
  g_assert_cmpuint (t->rows[1].id_start, ==, 18);
  g_assert_cmpuint (t->rows[1].name_start, ==, 22);
  g_assert_cmpuint (t->rows[1].line_end, ==, 35);
  g_assert_cmpstr (t->rows[2].name, ==, "GLASS");
  g_assert_cmpstr (t->rows[2].raw_name, ==, "GLASS");
  g_assert_true (t->has_lightmaps);
  g_assert_cmpuint (t->lightmaps_start, ==, 48);
  g_assert_cmpuint (t->lightmap_count, ==, 1);
  g_assert_cmpuint (t->n_lightmaps, ==, 1);
  g_assert_cmpstr (t->lightmaps[0].name, ==, "bunker_lm.0");
  g_assert_cmpuint (t->end, ==, strlen (crlf_text));
}

static void
test_read_lf (void)
{
  g_autoptr(WearTable) t = read_text ("2\n0 A\n1 B", 0);

  g_assert_cmpstr (t->eol, ==, "\n");
  g_assert_cmpuint (t->n_rows, ==, 2);
  g_assert_cmpstr (t->rows[1].name, ==, "B");
  g_assert_false (t->has_lightmaps);
  g_assert_cmpuint (t->problems->len, ==, 0);
}

/* A batch's row is the position of the line, not its id: with the ids
 * written out of order, row 0 is the first line whatever its id says. */
static void
test_read_by_position (void)
{
  g_autoptr(WearTable) t = read_text ("3\n2 GLASS\n0 ROCK_WALL\n1 METAL_PLATE\n", 100);
  g_autofree char *text = messages (t->problems);

  g_assert_cmpuint (t->n_rows, ==, 3);
  g_assert_cmpstr (t->rows[0].name, ==, "GLASS");
  g_assert_cmpint (t->rows[0].id_value, ==, 2);
  g_assert_cmpstr (t->rows[1].name, ==, "ROCK_WALL");
  g_assert_cmpstr (t->rows[2].name, ==, "METAL_PLATE");
  g_assert_cmpstr (text, ==,
                   "tree.wea: row 0: offset 102: expected id 0 (the row's position), found 2\n"
                   "tree.wea: row 1: offset 110: expected id 1 (the row's position), found 0\n"
                   "tree.wea: row 2: offset 122: expected id 2 (the row's position), found 1\n");
}

static void
test_read_lints (void)
{
  /* a line with one field, a word for an id, fewer rows than the count,
   * blank lines between rows (not rows), junk after the table */
  g_autoptr(WearTable) t = read_text ("5\n\n0 A\nONLY\n\n  x B\n3 C\n\n\n7 D\n", 0);
  g_autofree char *text = messages (t->problems);

  g_assert_cmpuint (t->n_rows, ==, 5);
  g_assert_cmpstr (t->rows[1].id, ==, "ONLY");
  g_assert_cmpstr (t->rows[1].name, ==, "");
  g_assert_cmpuint (t->rows[1].name_start, ==, t->rows[1].id_end);
  g_assert_cmpstr (t->rows[2].id, ==, "x");
  g_assert_cmpint (t->rows[2].id_value, ==, -1);
  g_assert_cmpstr (t->rows[2].name, ==, "B");
  g_assert_cmpstr (t->rows[4].name, ==, "D");
  g_assert_cmpstr (text, ==,
                   "tree.wea: row 1: offset 7: expected an id and a name, found one field “ONLY”\n"
                   "tree.wea: row 2: offset 15: expected a numeric id, found “x”\n"
                   "tree.wea: row 4: offset 25: expected id 4 (the row's position), found 7\n");
}

static void
test_read_few_rows_and_junk (void)
{
  g_autoptr(WearTable) short_table = read_text ("4\r\n0 A\r\n1 B\r\n", 0);
  g_autoptr(WearTable) junk = read_text ("1\r\n0 A\r\n\r\n1 B\r\n\x1a", 0);
  g_autoptr(WearTable) words = read_text ("many\n0 A\n", 0);
  g_autoptr(WearTable) empty = read_text ("", 50);
  g_autoptr(WearTable) blank = read_text (" \r\n\t\r\n", 50);
  g_autofree char *a = messages (short_table->problems);
  g_autofree char *b = messages (junk->problems);
  g_autofree char *c = messages (words->problems);
  g_autofree char *d = messages (empty->problems);
  g_autofree char *e = messages (blank->problems);

  g_assert_cmpuint (short_table->n_rows, ==, 2);
  g_assert_cmpstr (a, ==, "tree.wea: offset 0: expected 4 rows (the count), found 2\n");
  /* the row after the table is not a row: the game reads one */
  g_assert_cmpuint (junk->n_rows, ==, 1);
  g_assert_cmpuint (junk->end, ==, 8);
  g_assert_cmpstr (b, ==, "tree.wea: offset 10: expected nothing after the table, found “1 B” (the game does not read it)\n");
  g_assert_true (words->has_count);
  g_assert_false (words->count_numeric);
  g_assert_cmpuint (words->n_rows, ==, 0);
  g_assert_cmpstr (c, ==,
                   "tree.wea: offset 0: expected a row count, found “many”\n"
                   "tree.wea: offset 5: expected nothing after the table, found “0 A” (the game does not read it)\n");
  g_assert_false (empty->has_count);
  g_assert_cmpstr (d, ==, "tree.wea: offset 50: expected a row count, found the end of the table\n");
  g_assert_cmpstr (e, ==, "tree.wea: offset 56: expected a row count, found the end of the table\n");
}

/* A count far past the file: the rows there are, no allocation by the
 * count, one lint. */
static void
test_read_huge_count (void)
{
  g_autoptr(WearTable) t = read_text ("99999999999999999999999\n0 A\n", 0);
  g_autofree char *text = messages (t->problems);

  g_assert_cmpuint (t->count, ==, G_MAXUINT64);
  g_assert_cmpuint (t->n_rows, ==, 1);
  g_assert_cmpstr (text, ==, "tree.wea: offset 0: expected 18446744073709551615 rows (the count), found 1\n");
}

static void
test_read_lightmaps (void)
{
  /* any case, after any number of blank lines; a short material table
   * ends at the LIGHTMAPS line */
  g_autoptr(WearTable) t = read_text ("3\n0 A\n1 B\n\n\n \nLightMaps\n2\n0 p.0\n1 q.0\n", 0);
  g_autoptr(WearTable) no_count = read_text ("1\n0 A\nLIGHTMAPS\n", 0);
  g_autoptr(WearTable) word_count = read_text ("1\n0 A\nLIGHTMAPS\nx\n", 0);
  g_autofree char *a = messages (t->problems);
  g_autofree char *b = messages (no_count->problems);
  g_autofree char *c = messages (word_count->problems);

  g_assert_cmpuint (t->n_rows, ==, 2);
  g_assert_true (t->has_lightmaps);
  g_assert_cmpuint (t->n_lightmaps, ==, 2);
  g_assert_cmpstr (t->lightmaps[1].name, ==, "q.0");
  g_assert_cmpstr (a, ==, "tree.wea: offset 0: expected 3 rows (the count), found 2\n");
  g_assert_true (no_count->has_lightmaps);
  g_assert_cmpuint (no_count->n_lightmaps, ==, 0);
  g_assert_cmpstr (b, ==, "tree.wea: offset 16: expected a lightmap count after LIGHTMAPS, found the end of the table\n");
  g_assert_cmpstr (c, ==, "tree.wea: offset 16: expected a lightmap count, found “x”\n");
}

/* "LIGHTMAPS 2" is not the section line; a lightmap row id is linted as
 * a lightmap row. */
static void
test_read_lightmap_rows (void)
{
  g_autoptr(WearTable) t = read_text ("1\n0 A\nLIGHTMAPS\n1\n3 p.0\n", 7);
  g_autoptr(WearTable) u = read_text ("1\n0 A\nLIGHTMAPS 2\n", 0);
  g_autofree char *a = messages (t->problems);
  g_autofree char *b = messages (u->problems);

  g_assert_cmpstr (a, ==, "tree.wea: lightmap row 0: offset 25: expected id 0 (the row's position), found 3\n");
  g_assert_false (u->has_lightmaps);
  g_assert_cmpstr (b, ==, "tree.wea: offset 6: expected nothing after the table, found “LIGHTMAPS 2” (the game does not read it)\n");
}

static void
test_read_cp1251 (void)
{
  /* БРОНЯ_ЗЕЛЁНАЯ in CP1251 */
  static const char text[] = "1\r\n0 \xc1\xd0\xce\xcd\xdf_\xc7\xc5\xcb\xa8\xcd\xc0\xdf\r\n";
  g_autoptr(WearTable) t = read_text (text, 0);

  g_assert_cmpuint (t->n_rows, ==, 1);
  g_assert_cmpstr (t->rows[0].name, ==, "БРОНЯ_ЗЕЛЁНАЯ");
  g_assert_cmpstr (t->rows[0].raw_name, ==, "\xc1\xd0\xce\xcd\xdf_\xc7\xc5\xcb\xa8\xcd\xc0\xdf");
}

/* ---- Writing ------------------------------------------------------------ */

/* Tabs, runs of blanks, ids out of order, the lightmap section and junk
 * after it: only the name's bytes change. */
static const char edit_text[] =
  "3   \r\n"
  "0\tROCK_WALL\r\n"
  "  2    METAL_PLATE   extra\r\n"
  "1 GLASS\r\n"
  "\r\n"
  "\r\n"
  "lightmaps\r\n"
  "1\r\n"
  "0 bunker_lm.0\r\n"
  "\x1a junk \xff\r\n";

static void
test_set_name_crlf (void)
{
  g_autoptr(WearTable) t = read_text (edit_text, 0);
  g_autoptr(WearTable) again = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (t->n_rows, ==, 3);
  out = wear_table_set_name (t, 1, "HALO_GLOW", &error);
  g_assert_no_error (error);
  assert_bytes (out,
                "3   \r\n"
                "0\tROCK_WALL\r\n"
                "  2    HALO_GLOW   extra\r\n"
                "1 GLASS\r\n"
                "\r\n"
                "\r\n"
                "lightmaps\r\n"
                "1\r\n"
                "0 bunker_lm.0\r\n"
                "\x1a junk \xff\r\n");

  again = wear_table_read (out, 0, "tree.wea");
  g_assert_cmpuint (again->n_rows, ==, 3);
  g_assert_cmpstr (again->rows[0].name, ==, "ROCK_WALL");
  g_assert_cmpstr (again->rows[1].name, ==, "HALO_GLOW");
  g_assert_cmpstr (again->rows[2].name, ==, "GLASS");
  g_assert_cmpuint (again->n_lightmaps, ==, 1);
  g_assert_cmpuint (again->problems->len, ==, t->problems->len);
}

static void
test_set_name_lf_cyrillic (void)
{
  g_autoptr(WearTable) t = read_text ("2\n0 A\n1 LONGER_NAME\n\n", 0);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) out2 = NULL;
  g_autoptr(GError) error = NULL;

  out = wear_table_set_name (t, 0, "БРОНЯ_ЗЕЛЁНАЯ", &error);
  g_assert_no_error (error);
  assert_bytes (out, "2\n0 \xc1\xd0\xce\xcd\xdf_\xc7\xc5\xcb\xa8\xcd\xc0\xdf\n1 LONGER_NAME\n\n");
  out2 = wear_table_set_name (t, 1, "B", &error);
  g_assert_no_error (error);
  assert_bytes (out2, "2\n0 A\n1 B\n\n");
}

/* A row with an id and no name gets " NAME" after its id. */
static void
test_set_name_one_field (void)
{
  g_autoptr(WearTable) t = read_text ("2\r\n0 A\r\n1   \r\n", 0);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;

  out = wear_table_set_name (t, 1, "GLASS", &error);
  g_assert_no_error (error);
  assert_bytes (out, "2\r\n0 A\r\n1 GLASS   \r\n");
}

static void
test_set_name_refused (void)
{
  g_autoptr(WearTable) t = read_text ("1\n0 A\n", 0);
  static const struct { const char *name; const char *message; } bad[] = {
    { "", "A material name must not be empty" },
    { "TWO WORDS", "A material name must not contain a space, a tab or a control character: character 4 is U+0020" },
    { "TAB\tBED", "A material name must not contain a space, a tab or a control character: character 4 is U+0009" },
    { "NB\xc2\xa0SP", "A material name must not contain a space, a tab or a control character: character 3 is U+00A0" },
    { "BELL\x07", "A material name must not contain a space, a tab or a control character: character 5 is U+0007" },
    { "LINE\r", "A material name must not contain a space, a tab or a control character: character 5 is U+000D" },
    { "日本", "Character 1 (“日”, U+65E5) cannot be stored in CP1251" },
    { "ABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEF", "The name is too long: at most 35 bytes fit, character 36 does not" },
    { "\xff", "The name is not valid UTF-8" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) error2 = NULL;
      g_autoptr(GBytes) out = wear_table_set_name (t, 0, bad[i].name, &error);
      g_autoptr(GBytes) out2 = wear_table_add_row (t, bad[i].name, &error2);

      g_assert_null (out);
      g_assert_error (error, WEAR_ERROR, WEAR_ERROR_BAD_NAME);
      g_assert_cmpstr (error->message, ==, bad[i].message);
      g_assert_null (out2);
      g_assert_error (error2, WEAR_ERROR, WEAR_ERROR_BAD_NAME);
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) out = wear_table_set_name (t, 1, "B", &error);

    g_assert_null (out);
    g_assert_error (error, WEAR_ERROR, WEAR_ERROR_BAD_ROW);
    g_assert_cmpstr (error->message, ==, "tree.wea: expected a row below 1, found 1");
  }
}

static void
test_name_check (void)
{
  guint8 out[WEAR_NAME_MAX + 1];
  g_autoptr(GError) error = NULL;
  gsize len = 0;

  /* 35 bytes fit; 17 Cyrillic letters are 17 bytes */
  g_assert_true (wear_check_name ("ABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDE", out, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (len, ==, 35);
  g_assert_cmpuint (out[35], ==, 0);
  g_assert_true (wear_check_name ("ЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖ", out, &len, &error));
  g_assert_cmpuint (len, ==, 17);
  g_assert_cmpuint (out[0], ==, 0xC6);
  g_assert_cmpuint (out[17], ==, 0);
}

/* The count's digits grow from 9 to 10; the rest of the count line, the
 * blank lines, the lightmap section and the junk stay. */
static void
test_add_row_crlf (void)
{
  static const char text[] =
    "9 \t\r\n"
    "0 A\r\n1 B\r\n2 C\r\n3 D\r\n4 E\r\n5 F\r\n6 G\r\n7 H\r\n8 I\r\n"
    "\r\n"
    "LIGHTMAPS\r\n"
    "1\r\n"
    "0 p.0\r\n"
    "junk";
  g_autoptr(WearTable) t = read_text (text, 0);
  g_autoptr(WearTable) again = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (t->n_rows, ==, 9);
  out = wear_table_add_row (t, "SMOKE_PUFF", &error);
  g_assert_no_error (error);
  assert_bytes (out,
                "10 \t\r\n"
                "0 A\r\n1 B\r\n2 C\r\n3 D\r\n4 E\r\n5 F\r\n6 G\r\n7 H\r\n8 I\r\n"
                "9 SMOKE_PUFF\r\n"
                "\r\n"
                "LIGHTMAPS\r\n"
                "1\r\n"
                "0 p.0\r\n"
                "junk");

  again = wear_table_read (out, 0, "tree.wea");
  g_assert_cmpuint (again->count, ==, 10);
  g_assert_cmpuint (again->n_rows, ==, 10);
  g_assert_cmpstr (again->rows[9].name, ==, "SMOKE_PUFF");
  g_assert_cmpint (again->rows[9].id_value, ==, 9);
  g_assert_cmpuint (again->n_lightmaps, ==, 1);
}

static void
test_add_row_lf (void)
{
  g_autoptr(WearTable) t = read_text ("1\n0 A", 0);
  g_autoptr(WearTable) zero = read_text ("0\n", 0);
  g_autoptr(WearTable) lone = read_text ("0", 0);
  g_autoptr(WearTable) short_table = read_text ("5\n0 A\n\nLIGHTMAPS\n1\n0 p\n", 0);
  g_autoptr(GBytes) a = wear_table_add_row (t, "ЁЖ", NULL);
  g_autoptr(GBytes) b = wear_table_add_row (zero, "X", NULL);
  g_autoptr(GBytes) c = wear_table_add_row (lone, "X", NULL);
  g_autoptr(GBytes) d = wear_table_add_row (short_table, "X", NULL);

  /* no line ending at the end: none after the new row either */
  assert_bytes (a, "2\n0 A\n1 \xa8\xc6");
  assert_bytes (b, "1\n0 X\n");
  /* no line ending anywhere: CR LF */
  assert_bytes (c, "1\r\n0 X");
  /* a count over the rows becomes the number of rows */
  assert_bytes (d, "2\n0 A\n1 X\n\nLIGHTMAPS\n1\n0 p\n");
}

/* A "\r" that is not before a "\n" is a byte of its line: adding a row
 * neither splits nor joins a line, so every old row reads back as it was
 * (found by fuzzing). */
static void
test_add_row_stray_cr (void)
{
  g_autoptr(WearTable) eof = read_text ("2\n0 A\n1 B\r", 0);
  g_autoptr(WearTable) inner = read_text ("1\n0 A\r\r\n", 0);
  g_autoptr(GBytes) a = wear_table_add_row (eof, "X", NULL);
  g_autoptr(GBytes) b = wear_table_add_row (inner, "X", NULL);
  g_autoptr(WearTable) again_a = wear_table_read (a, 0, "tree.wea");
  g_autoptr(WearTable) again_b = wear_table_read (b, 0, "tree.wea");

  g_assert_cmpstr (eof->rows[1].name, ==, "B\r");
  g_assert_cmpstr (inner->rows[0].name, ==, "A\r");
  assert_bytes (a, "3\n0 A\n1 B\r\r\n2 X");
  assert_bytes (b, "2\n0 A\r\r\n1 X\n");
  g_assert_cmpstr (again_a->rows[1].name, ==, "B\r");
  g_assert_cmpstr (again_a->rows[2].name, ==, "X");
  g_assert_cmpstr (again_b->rows[0].name, ==, "A\r");
  g_assert_cmpstr (again_b->rows[1].name, ==, "X");
}

static void
test_add_row_no_count (void)
{
  g_autoptr(WearTable) empty = read_text ("", 0);
  g_autoptr(WearTable) words = read_text ("x\n", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;
  g_autoptr(GBytes) a = wear_table_add_row (empty, "A", &error);
  g_autoptr(GBytes) b = wear_table_add_row (words, "A", &error2);

  g_assert_null (a);
  g_assert_error (error, WEAR_ERROR, WEAR_ERROR_NO_COUNT);
  g_assert_cmpstr (error->message, ==, "tree.wea: expected a row count to increment, found none");
  g_assert_null (b);
  g_assert_error (error2, WEAR_ERROR, WEAR_ERROR_NO_COUNT);
}

/* ---- The library -------------------------------------------------------- */

static void
test_lint_library (void)
{
  static const guint8 payload[4] = { 0 };
  const TestEntrySpec with_default[] = {
    { 0x3054414Du, 0, 6, 0, "DEFAULT", payload, 4, 0 },
    { 0x3054414Du, 0, 6, 0, "rock_wall", payload, 4, 0 },
  };
  const TestEntrySpec without[] = {
    { 0x3054414Du, 0, 6, 0, "ZETA", payload, 4, 0 },
  };
  g_autoptr(GBytes) a = test_build_archive (with_default, 2, FALSE);
  g_autoptr(GBytes) b = test_build_archive (without, 1, FALSE);
  g_autoptr(GBytes) c = test_build_archive (NULL, 0, FALSE);
  g_autoptr(NresArchive) lib_a = nres_archive_parse (a, NULL);
  g_autoptr(NresArchive) lib_b = nres_archive_parse (b, NULL);
  g_autoptr(NresArchive) lib_c = nres_archive_parse (c, NULL);
  g_autoptr(WearTable) t = read_text ("3\n0 ROCK_WALL\n1 MISSING\n2\n", 10);
  g_autoptr(GPtrArray) pa = msh_problem_list_new ();
  g_autoptr(GPtrArray) pb = msh_problem_list_new ();
  g_autoptr(GPtrArray) pc = msh_problem_list_new ();
  g_autofree char *ma = NULL;
  g_autofree char *mb = NULL;
  g_autofree char *mc = NULL;

  wear_table_lint_library (t, lib_a, pa);
  wear_table_lint_library (t, lib_b, pb);
  wear_table_lint_library (t, lib_c, pc);
  ma = messages (pa);
  mb = messages (pb);
  mc = messages (pc);
  /* case-insensitive; the row without a name has its own lint */
  g_assert_cmpstr (ma, ==, "tree.wea: row 1: offset 26: expected a material of the library, found “MISSING” (worn but missing: the game draws DEFAULT)\n");
  g_assert_cmpstr (mb, ==,
                   "tree.wea: row 0: offset 14: expected a material of the library, found “ROCK_WALL” (worn but missing: the game draws the first entry, ZETA)\n"
                   "tree.wea: row 1: offset 26: expected a material of the library, found “MISSING” (worn but missing: the game draws the first entry, ZETA)\n");
  g_assert_cmpuint (pc->len, ==, 2);
  g_assert_nonnull (strstr (mc, "(worn but missing: the library is empty)"));
  g_assert_cmpint (((MshProblem *) pa->pdata[0])->check, ==, MSH_CHECK_WEAR_MISSING);
  g_assert_cmpint (((MshProblem *) pa->pdata[0])->element, ==, 1);
}

static void
test_member_name (void)
{
  g_autofree char *a = wear_member_for_mesh ("tree.msh");
  g_autofree char *b = wear_member_for_mesh ("a.b.MSH");
  g_autofree char *c = wear_member_for_mesh ("noext");

  g_assert_cmpstr (a, ==, "tree.wea");
  g_assert_cmpstr (b, ==, "a.b.wea");
  g_assert_cmpstr (c, ==, "noext.wea");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/wear/read/crlf", test_read_crlf);
  g_test_add_func ("/core/wear/read/lf", test_read_lf);
  g_test_add_func ("/core/wear/read/by-position", test_read_by_position);
  g_test_add_func ("/core/wear/read/lints", test_read_lints);
  g_test_add_func ("/core/wear/read/few-rows-and-junk", test_read_few_rows_and_junk);
  g_test_add_func ("/core/wear/read/huge-count", test_read_huge_count);
  g_test_add_func ("/core/wear/read/lightmaps", test_read_lightmaps);
  g_test_add_func ("/core/wear/read/lightmap-rows", test_read_lightmap_rows);
  g_test_add_func ("/core/wear/read/cp1251", test_read_cp1251);
  g_test_add_func ("/core/wear/set-name/crlf", test_set_name_crlf);
  g_test_add_func ("/core/wear/set-name/lf-cyrillic", test_set_name_lf_cyrillic);
  g_test_add_func ("/core/wear/set-name/one-field", test_set_name_one_field);
  g_test_add_func ("/core/wear/set-name/refused", test_set_name_refused);
  g_test_add_func ("/core/wear/name-check", test_name_check);
  g_test_add_func ("/core/wear/add-row/crlf", test_add_row_crlf);
  g_test_add_func ("/core/wear/add-row/lf", test_add_row_lf);
  g_test_add_func ("/core/wear/add-row/stray-cr", test_add_row_stray_cr);
  g_test_add_func ("/core/wear/add-row/no-count", test_add_row_no_count);
  g_test_add_func ("/core/wear/lint-library", test_lint_library);
  g_test_add_func ("/core/wear/member-name", test_member_name);

  return g_test_run ();
}
