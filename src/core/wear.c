/* wear.c - WEAR: a model's material table, reader and preserving writer
 *
 * See models.md 3 and wear.h. The reader walks the member line by line
 * (a line ends at "\n", a "\r" just before it belongs to the line ending;
 * any other "\r" is a byte of its line) and
 * splits a line into fields at runs of spaces and tabs. It keeps where
 * every field is, so that the writer can replace exactly one name.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "wear.h"

G_DEFINE_QUARK (wear-error-quark, wear_error)

/* At most this many characters of a line are quoted in a message. */
#define QUOTE_MAX 40

typedef struct {
  gsize start;   /* first byte of the line */
  gsize end;     /* its end, before the line ending */
  gsize next;    /* the start of the next line */
} Line;

static gboolean
is_blank (guint8 c)
{
  return c == ' ' || c == '\t';
}

/* The line starting at @pos, or FALSE at the end of the member. */
static gboolean
next_line (const guint8 *data,
           gsize         size,
           gsize         pos,
           Line         *line)
{
  const guint8 *nl;

  if (pos >= size)
    return FALSE;

  line->start = pos;
  nl = memchr (data + pos, '\n', size - pos);
  if (nl != NULL)
    {
      line->end = (gsize) (nl - data);
      line->next = line->end + 1;
    }
  else
    line->end = line->next = size;
  if (nl != NULL && line->end > line->start && data[line->end - 1] == '\r')
    line->end--;

  return TRUE;
}

static gsize
skip_blanks (const guint8 *data,
             gsize         pos,
             gsize         end)
{
  while (pos < end && is_blank (data[pos]))
    pos++;

  return pos;
}

static gsize
skip_field (const guint8 *data,
            gsize         pos,
            gsize         end)
{
  while (pos < end && !is_blank (data[pos]))
    pos++;

  return pos;
}

static gboolean
line_is_blank (const guint8 *data,
               const Line   *line)
{
  return skip_blanks (data, line->start, line->end) == line->end;
}

/* The first field of @line: [*start, *end). */
static void
first_field (const guint8 *data,
             const Line   *line,
             gsize        *start,
             gsize        *end)
{
  *start = skip_blanks (data, line->start, line->end);
  *end = skip_field (data, *start, line->end);
}

/* Whether the line's only field is LIGHTMAPS, in any case. */
static gboolean
line_is_lightmaps (const guint8 *data,
                   const Line   *line)
{
  static const char word[] = "lightmaps";
  gsize start, end;

  first_field (data, line, &start, &end);
  if (end - start != sizeof word - 1 ||
      skip_blanks (data, end, line->end) != line->end)
    return FALSE;
  for (gsize i = 0; i < sizeof word - 1; i++)
    if (g_ascii_tolower ((char) data[start + i]) != word[i])
      return FALSE;

  return TRUE;
}

/* Decimal digits only; saturates. FALSE for an empty or other token. */
static gboolean
parse_number (const guint8 *data,
              gsize         start,
              gsize         end,
              guint64      *out)
{
  guint64 v = 0;

  if (start == end)
    return FALSE;
  for (gsize i = start; i < end; i++)
    {
      guint d;

      if (data[i] < '0' || data[i] > '9')
        return FALSE;
      d = data[i] - '0';
      v = v > (G_MAXUINT64 - d) / 10 ? G_MAXUINT64 : v * 10 + d;
    }
  *out = v;

  return TRUE;
}

/* UTF-8 of bytes [start, end), shortened for a message. */
static char *
quote (const guint8 *data,
       gsize         start,
       gsize         end)
{
  g_autofree char *text = cp1251_to_utf8 (data + start, end - start);

  if (g_utf8_strlen (text, -1) > QUOTE_MAX)
    {
      g_autofree char *cut = g_utf8_substring (text, 0, QUOTE_MAX);

      return g_strconcat (cut, "…", NULL);
    }

  return g_steal_pointer (&text);
}

static char *
bytes_to_cstring (const guint8 *data,
                  gsize         start,
                  gsize         end)
{
  char *out = g_malloc (end - start + 1);

  memcpy (out, data + start, end - start);
  out[end - start] = '\0';

  return out;
}

static void
row_clear (WearRow *row)
{
  g_free (row->id);
  g_free (row->name);
  g_free (row->raw_name);
}

static void
parse_row (WearTable    *table,
           const guint8 *data,
           const Line   *line,
           guint         position,
           gboolean      lightmap,
           WearRow      *row)
{
  g_autofree char *label = lightmap ? g_strdup_printf (_("lightmap row %u"), position)
                                    : g_strdup_printf (_("row %u"), position);
  guint64 id;

  memset (row, 0, sizeof *row);
  row->line_start = line->start;
  row->line_end = line->end;
  row->line_next = line->next;
  first_field (data, line, &row->id_start, &row->id_end);
  row->name_start = skip_blanks (data, row->id_end, line->end);
  if (row->name_start == line->end)
    row->name_start = row->name_end = row->id_end;
  else
    row->name_end = skip_field (data, row->name_start, line->end);

  row->id = cp1251_to_utf8 (data + row->id_start, row->id_end - row->id_start);
  row->name = cp1251_to_utf8 (data + row->name_start, row->name_end - row->name_start);
  row->raw_name = bytes_to_cstring (data, row->name_start, row->name_end);
  row->id_value = parse_number (data, row->id_start, row->id_end, &id)
                    ? (gint64) MIN (id, (guint64) G_MAXINT64) : -1;

  if (row->name_start == row->name_end)
    {
      g_autofree char *field = quote (data, row->id_start, row->id_end);

      msh_problem_add (table->problems, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_ONE_FIELD,
                       table->member, -1, (gint) position, table->base_offset + row->id_start,
                       _("%s: %s: offset %lu: expected an id and a name, found one field “%s”"),
                       table->member, label, (unsigned long) (table->base_offset + row->id_start),
                       field);
    }
  else if (row->id_value < 0)
    {
      g_autofree char *field = quote (data, row->id_start, row->id_end);

      msh_problem_add (table->problems, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_ID_TEXT,
                       table->member, -1, (gint) position, table->base_offset + row->id_start,
                       _("%s: %s: offset %lu: expected a numeric id, found “%s”"),
                       table->member, label, (unsigned long) (table->base_offset + row->id_start),
                       field);
    }
  else if ((guint64) row->id_value != position)
    {
      g_autofree char *field = quote (data, row->id_start, row->id_end);

      msh_problem_add (table->problems, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_ID,
                       table->member, -1, (gint) position, table->base_offset + row->id_start,
                       _("%s: %s: offset %lu: expected id %u (the row's position), found %s"),
                       table->member, label, (unsigned long) (table->base_offset + row->id_start),
                       position, field);
    }
}

/* The first non-blank line from @pos, or FALSE. */
static gboolean
next_filled_line (const guint8 *data,
                  gsize         size,
                  gsize         pos,
                  Line         *line)
{
  while (next_line (data, size, pos, line))
    {
      if (!line_is_blank (data, line))
        return TRUE;
      pos = line->next;
    }

  return FALSE;
}

/* Reads the rows of one section after its count line, from *@pos; stops
 * after @count rows, at the end, or (material rows) at a LIGHTMAPS line.
 * Advances *@pos past the last row taken. */
static WearRow *
read_rows (WearTable    *table,
           const guint8 *data,
           gsize         size,
           gsize        *pos,
           guint64       count,
           gboolean      lightmap,
           guint        *n_out)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (WearRow));
  Line line;

  while (rows->len < count && next_filled_line (data, size, *pos, &line))
    {
      WearRow row;

      if (!lightmap && line_is_lightmaps (data, &line))
        break;
      parse_row (table, data, &line, rows->len, lightmap, &row);
      g_array_append_val (rows, row);
      *pos = line.next;
    }

  *n_out = rows->len;
  if (rows->len == 0)
    return NULL;
  return (WearRow *) (void *) g_array_free (g_steal_pointer (&rows), FALSE);
}

/* Reads a count line at the next filled line from *@pos. */
static gboolean
read_count (WearTable    *table,
            const guint8 *data,
            gsize         size,
            gsize        *pos,
            gboolean      lightmap,
            guint64      *count,
            gsize        *start,
            gsize        *end,
            gsize        *line_next)
{
  Line line;

  *count = 0;
  if (!next_filled_line (data, size, *pos, &line))
    {
      if (lightmap)
        msh_problem_add (table->problems, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_COUNT,
                         table->member, -1, -1, table->base_offset + size,
                         _("%s: offset %lu: expected a lightmap count after LIGHTMAPS, found the end of the table"),
                         table->member, (unsigned long) (table->base_offset + size));
      else
        msh_problem_add (table->problems, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_COUNT,
                         table->member, -1, -1, table->base_offset + size,
                         _("%s: offset %lu: expected a row count, found the end of the table"),
                         table->member, (unsigned long) (table->base_offset + size));
      return FALSE;
    }

  first_field (data, &line, start, end);
  *line_next = line.next;
  *pos = line.next;
  if (!parse_number (data, *start, *end, count))
    {
      g_autofree char *field = quote (data, *start, *end);

      *count = 0;
      if (lightmap)
        msh_problem_add (table->problems, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_COUNT,
                         table->member, -1, -1, table->base_offset + *start,
                         _("%s: offset %lu: expected a lightmap count, found “%s”"),
                         table->member, (unsigned long) (table->base_offset + *start), field);
      else
        msh_problem_add (table->problems, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_COUNT,
                         table->member, -1, -1, table->base_offset + *start,
                         _("%s: offset %lu: expected a row count, found “%s”"),
                         table->member, (unsigned long) (table->base_offset + *start), field);
    }

  return TRUE;
}

WearTable *
wear_table_read (GBytes      *bytes,
                 guint64      base_offset,
                 const char  *member)
{
  WearTable *table;
  const guint8 *data;
  gsize size = 0, pos = 0;
  Line line;
  const guint8 *nl;

  g_return_val_if_fail (bytes != NULL, NULL);

  data = g_bytes_get_data (bytes, &size);
  table = g_new0 (WearTable, 1);
  table->bytes = g_bytes_ref (bytes);
  table->base_offset = base_offset;
  table->member = g_strdup (member != NULL ? member : "");
  table->problems = msh_problem_list_new ();

  nl = size > 0 ? memchr (data, '\n', size) : NULL;
  table->eol = nl != NULL && nl > data && nl[-1] == '\r' ? "\r\n" :
               nl != NULL ? "\n" : "\r\n";

  table->has_count = read_count (table, data, size, &pos, FALSE, &table->count,
                                 &table->count_start, &table->count_end,
                                 &table->count_line_next);
  if (!table->has_count)
    {
      table->end = size;
      return table;
    }
  table->count_numeric = parse_number (data, table->count_start, table->count_end,
                                       &(guint64) { 0 });
  table->end = pos;

  table->rows = read_rows (table, data, size, &pos, table->count, FALSE, &table->n_rows);
  if (table->n_rows < table->count)
    msh_problem_add (table->problems, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_FEW_ROWS,
                     table->member, -1, -1, base_offset + table->count_start,
                     _("%s: offset %lu: expected %lu rows (the count), found %u"),
                     table->member, (unsigned long) (base_offset + table->count_start),
                     (unsigned long) table->count, table->n_rows);
  table->end = pos;

  if (next_filled_line (data, size, pos, &line) && line_is_lightmaps (data, &line))
    {
      gsize start, end, line_next;

      table->has_lightmaps = TRUE;
      table->lightmaps_start = line.start;
      pos = table->end = line.next;
      if (read_count (table, data, size, &pos, TRUE, &table->lightmap_count,
                      &start, &end, &line_next))
        {
          table->end = pos;
          table->lightmaps = read_rows (table, data, size, &pos, table->lightmap_count,
                                        TRUE, &table->n_lightmaps);
          if (table->n_lightmaps < table->lightmap_count)
            msh_problem_add (table->problems, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_FEW_ROWS,
                             table->member, -1, -1, base_offset + start,
                             _("%s: offset %lu: expected %lu lightmap rows (the count), found %u"),
                             table->member, (unsigned long) (base_offset + start),
                             (unsigned long) table->lightmap_count, table->n_lightmaps);
          table->end = pos;
        }
    }

  if (next_filled_line (data, size, table->end, &line))
    {
      gsize start = skip_blanks (data, line.start, line.end);
      g_autofree char *text = quote (data, start, line.end);

      msh_problem_add (table->problems, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_TRAILING,
                       table->member, -1, -1, base_offset + start,
                       _("%s: offset %lu: expected nothing after the table, found “%s” (the game does not read it)"),
                       table->member, (unsigned long) (base_offset + start), text);
    }

  return table;
}

void
wear_table_free (WearTable *table)
{
  if (table == NULL)
    return;

  for (guint i = 0; i < table->n_rows; i++)
    row_clear (&table->rows[i]);
  for (guint i = 0; i < table->n_lightmaps; i++)
    row_clear (&table->lightmaps[i]);
  g_free (table->rows);
  g_free (table->lightmaps);
  g_clear_pointer (&table->problems, g_ptr_array_unref);
  g_bytes_unref (table->bytes);
  g_free (table->member);
  g_free (table);
}

gboolean
wear_check_name (const char  *name,
                 guint8       out[WEAR_NAME_MAX + 1],
                 gsize       *out_len,
                 GError     **error)
{
  g_autoptr(GError) local = NULL;
  guint8 buf[WEAR_NAME_MAX + 1];
  guint position = 0;

  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (name[0] == '\0')
    {
      g_set_error (error, WEAR_ERROR, WEAR_ERROR_BAD_NAME,
                   _("A material name must not be empty"));
      return FALSE;
    }
  if (!g_utf8_validate (name, -1, NULL))
    {
      g_set_error (error, WEAR_ERROR, WEAR_ERROR_BAD_NAME,
                   _("The name is not valid UTF-8"));
      return FALSE;
    }
  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      position++;
      if (c == 0xA0 || g_unichar_isspace (c) || g_unichar_iscntrl (c))
        {
          g_set_error (error, WEAR_ERROR, WEAR_ERROR_BAD_NAME,
                       _("A material name must not contain a space, a tab or a control character: character %u is U+%04X"),
                       position, (guint) c);
          return FALSE;
        }
    }
  if (!cp1251_from_utf8 (name, buf, sizeof buf, &local))
    {
      g_set_error_literal (error, WEAR_ERROR, WEAR_ERROR_BAD_NAME, local->message);
      return FALSE;
    }

  memcpy (out, buf, sizeof buf);
  if (out_len != NULL)
    *out_len = strlen ((const char *) buf);

  return TRUE;
}

static GBytes *
splice (const WearTable *table,
        gsize            start,
        gsize            end,
        const void      *text,
        gsize            len)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (table->bytes, &size);
  GByteArray *out = g_byte_array_sized_new ((guint) (size - (end - start) + len));

  g_byte_array_append (out, data, (guint) start);
  g_byte_array_append (out, text, (guint) len);
  g_byte_array_append (out, data + end, (guint) (size - end));

  return g_byte_array_free_to_bytes (out);
}

GBytes *
wear_table_set_name (const WearTable  *table,
                     guint             row,
                     const char       *name,
                     GError          **error)
{
  guint8 encoded[WEAR_NAME_MAX + 2];
  const WearRow *r;
  gsize len;

  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (row >= table->n_rows)
    {
      g_set_error (error, WEAR_ERROR, WEAR_ERROR_BAD_ROW,
                   _("%s: expected a row below %u, found %u"),
                   table->member, table->n_rows, row);
      return NULL;
    }
  /* one byte in front for the blank a row without a name needs */
  if (!wear_check_name (name, encoded + 1, &len, error))
    return NULL;

  r = &table->rows[row];
  if (r->name_start == r->name_end)
    {
      encoded[0] = ' ';
      return splice (table, r->id_end, r->id_end, encoded, len + 1);
    }

  return splice (table, r->name_start, r->name_end, encoded + 1, len);
}

GBytes *
wear_table_add_row (const WearTable  *table,
                    const char       *name,
                    GError          **error)
{
  guint8 encoded[WEAR_NAME_MAX + 1];
  g_autofree char *digits = NULL;
  g_autofree char *row_text = NULL;
  const guint8 *data;
  gsize size = 0, len, at;
  gboolean ended;
  const char *sep;
  GByteArray *out;

  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!table->has_count || !table->count_numeric)
    {
      g_set_error (error, WEAR_ERROR, WEAR_ERROR_NO_COUNT,
                   _("%s: expected a row count to increment, found none"),
                   table->member);
      return NULL;
    }
  if (!wear_check_name (name, encoded, &len, error))
    return NULL;

  /* after the last row's line and its ending: no line the table has is
   * split or joined; a last line without an ending gets one first */
  data = g_bytes_get_data (table->bytes, &size);
  at = table->n_rows > 0 ? table->rows[table->n_rows - 1].line_next : table->count_line_next;
  ended = at > 0 && data[at - 1] == '\n';
  /* a "\r" ending the last line is a byte of that line: a "\n" after it
   * would make it a line ending, "\r\n" keeps it */
  sep = ended ? "" : at > 0 && data[at - 1] == '\r' ? "\r\n" : table->eol;
  digits = g_strdup_printf ("%u", table->n_rows + 1);
  row_text = g_strdup_printf ("%s%u ", sep, table->n_rows);

  out = g_byte_array_sized_new ((guint) (size + strlen (digits) + strlen (row_text) + len + 2));
  g_byte_array_append (out, data, (guint) table->count_start);
  g_byte_array_append (out, (const guint8 *) digits, (guint) strlen (digits));
  g_byte_array_append (out, data + table->count_end, (guint) (at - table->count_end));
  g_byte_array_append (out, (const guint8 *) row_text, (guint) strlen (row_text));
  g_byte_array_append (out, encoded, (guint) len);
  if (ended)
    g_byte_array_append (out, (const guint8 *) table->eol, (guint) strlen (table->eol));
  g_byte_array_append (out, data + at, (guint) (size - at));

  return g_byte_array_free_to_bytes (out);
}

void
wear_table_lint_library (const WearTable   *table,
                         const NresArchive *library,
                         GPtrArray         *out)
{
  g_return_if_fail (table != NULL);
  g_return_if_fail (library != NULL);
  g_return_if_fail (out != NULL);

  for (guint i = 0; i < table->n_rows; i++)
    {
      const WearRow *row = &table->rows[i];
      g_autofree char *label = NULL;
      guint64 offset = table->base_offset + row->name_start;

      if (row->raw_name[0] == '\0' || nres_archive_find (library, row->raw_name) >= 0)
        continue;

      label = g_strdup_printf (_("row %u"), i);
      if (nres_archive_find (library, "DEFAULT") >= 0)
        msh_problem_add (out, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_MISSING,
                         table->member, -1, (gint) i, offset,
                         _("%s: %s: offset %lu: expected a material of the library, found “%s” (worn but missing: the game draws DEFAULT)"),
                         table->member, label, (unsigned long) offset, row->name);
      else if (library->n_entries > 0)
        {
          g_autofree char *first = cp1251_to_utf8 ((const guint8 *) library->entries[0].name,
                                                   NRES_NAME_SIZE);

          msh_problem_add (out, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_MISSING,
                           table->member, -1, (gint) i, offset,
                           _("%s: %s: offset %lu: expected a material of the library, found “%s” (worn but missing: the game draws the first entry, %s)"),
                           table->member, label, (unsigned long) offset, row->name, first);
        }
      else
        msh_problem_add (out, MSH_SEVERITY_LINT, MSH_CHECK_WEAR_MISSING,
                         table->member, -1, (gint) i, offset,
                         _("%s: %s: offset %lu: expected a material of the library, found “%s” (worn but missing: the library is empty)"),
                         table->member, label, (unsigned long) offset, row->name);
    }
}

char *
wear_member_for_mesh (const char *mesh_member)
{
  g_autofree char *stem = NULL;
  const char *dot;

  g_return_val_if_fail (mesh_member != NULL, NULL);

  dot = strrchr (mesh_member, '.');
  stem = dot != NULL ? g_strndup (mesh_member, (gsize) (dot - mesh_member)) : g_strdup (mesh_member);

  return g_strconcat (stem, ".wea", NULL);
}
