/* wear.h - WEAR: a model's material table (text), reader and preserving
 * writer
 *
 * See models.md 3. A WEAR member is CP1251 text:
 *
 *   <count>
 *   <id> <materialName>        (count rows)
 *   <blank lines>
 *   LIGHTMAPS                  (optional, any case)
 *   <count>
 *   <id> <lightmapName>
 *
 * Lines end at "\n"; a "\r" just before it belongs to the line ending,
 * any other "\r" to its line. Fields are runs of bytes other than spaces
 * and tabs.
 *
 * A batch's byte +4 picks row r of the material rows BY POSITION: the
 * id is kept as its raw token and only linted. The reader never fails:
 * whatever it cannot read becomes a lint (msh-problem.h) and the rows it
 * could read. The writer changes only the bytes an edit concerns (a row's
 * name, or a new row and the count's digits); every other byte of the
 * member is kept as it was.
 *
 * Offsets in the structures are relative to the member's payload; those
 * in messages are absolute (the payload's base offset added).
 */
#pragma once

#include <glib.h>

#include "msh-problem.h"
#include "nres.h"

G_BEGIN_DECLS

#define WEAR_ERROR (wear_error_quark ())

typedef enum {
  WEAR_ERROR_BAD_NAME,     /* empty, over 35 bytes, a blank or control
                              character, or not CP1251 */
  WEAR_ERROR_BAD_ROW,      /* a row past the table */
  WEAR_ERROR_NO_COUNT,     /* the table has no count line to increment */
} WearError;

GQuark wear_error_quark (void);

/* A material name in a WEAR: 1..35 CP1251 bytes. */
#define WEAR_NAME_MAX 35

typedef struct {
  gsize    line_start;   /* the line, without its line ending */
  gsize    line_end;
  gsize    line_next;    /* after its line ending: where the next line
                            starts (the member's size for a last line
                            without one) */
  gsize    id_start;     /* the first field, as written */
  gsize    id_end;
  gsize    name_start;   /* the second field; both equal id_end when the
                            line has one field */
  gsize    name_end;
  char    *id;           /* the first field, UTF-8 (raw token) */
  gint64   id_value;     /* the id as a number, -1 when it is not one
                            (decimal digits only; saturates at G_MAXINT64) */
  char    *name;         /* the second field, UTF-8; "" when missing */
  char    *raw_name;     /* the second field's bytes (CP1251), NUL-ended:
                            what a library lookup compares */
} WearRow;

typedef struct {
  GBytes  *bytes;             /* the whole member (a reference) */
  guint64  base_offset;       /* where it starts in its archive */
  char    *member;            /* its name, UTF-8 (for messages) */

  gboolean has_count;         /* a count line was found ... */
  gboolean count_numeric;     /* ... and its first field is a number */
  guint64  count;             /* that number (0 when not one; saturates) */
  gsize    count_start;       /* the count's first field */
  gsize    count_end;
  gsize    count_line_next;   /* where the line after the count's starts */
  WearRow *rows;              /* the material rows found, by position */
  guint    n_rows;

  gboolean has_lightmaps;     /* a LIGHTMAPS line follows the rows */
  gsize    lightmaps_start;   /* where that line starts */
  guint64  lightmap_count;
  WearRow *lightmaps;         /* its rows: LightMap.lib pages */
  guint    n_lightmaps;

  gsize    end;               /* where what the reader took ends: the
                                 bytes from here on are kept, unread */
  const char *eol;            /* the file's own line ending: that of its
                                 first line, "\r\n" when it has none */
  GPtrArray  *problems;       /* (element-type MshProblem): its lints */
} WearTable;

/* Reads a WEAR member. Never fails: an empty or garbage member gives a
 * table with no rows and lints saying why.
 * @base_offset: where @bytes starts in the archive; @member: its name
 * (UTF-8, for messages).
 * Returns: (transfer full): the table, holding a reference to @bytes. */
WearTable  *wear_table_read        (GBytes          *bytes,
                                    guint64          base_offset,
                                    const char      *member);
void        wear_table_free        (WearTable       *table);

/* Checks a material name for a WEAR row: non-empty, no space, tab or
 * other blank (U+00A0 included), no control character, CP1251, at most
 * 35 bytes. On success writes the CP1251 bytes and a NUL into @out
 * (zero-filled to the end) and their count into @out_len (nullable).
 * Returns: %FALSE with a %WEAR_ERROR_BAD_NAME saying why. */
gboolean    wear_check_name        (const char      *name,
                                    guint8           out[WEAR_NAME_MAX + 1],
                                    gsize           *out_len,
                                    GError         **error);

/* Makes material row @row name @name (UTF-8): only the bytes of that
 * row's name change (a row with an id and no name gets " NAME" after its
 * id). Counts, ids, blanks, line endings, the LIGHTMAPS section and
 * whatever follows are kept byte for byte.
 * Returns: (transfer full): the new member, or %NULL with a
 * %WEAR_ERROR_BAD_ROW or %WEAR_ERROR_BAD_NAME. */
GBytes     *wear_table_set_name    (const WearTable *table,
                                    guint            row,
                                    const char      *name,
                                    GError         **error);

/* Adds material row number n_rows naming @name: the line "<n> <name>"
 * with the file's own line ending after the last row's line (after the
 * count line when there is none; a last line without a line ending gets
 * one before the new line, and the new line none), and the count's digits
 * rewritten to n_rows + 1 (the rest of the count line kept). When the
 * count said more rows than the table had, it now says how many there
 * are.
 * Returns: (transfer full): the new member, or %NULL with a
 * %WEAR_ERROR_NO_COUNT or %WEAR_ERROR_BAD_NAME. */
GBytes     *wear_table_add_row     (const WearTable *table,
                                    const char      *name,
                                    GError         **error);

/* Lints a row whose material is not in @library (formats.md 2.5: exact,
 * case-insensitive): "worn but missing", with what the game draws
 * instead (DEFAULT, or the first entry). Appends MshProblem to @out. */
void        wear_table_lint_library (const WearTable   *table,
                                     const NresArchive *library,
                                     GPtrArray         *out);

/* The .wea member name of a .msh member: its stem and ".wea" ("tree.msh"
 * -> "tree.wea"; a name without a dot gets ".wea" appended).
 * Returns: (transfer full). */
char       *wear_member_for_mesh   (const char      *mesh_member);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WearTable, wear_table_free)

G_END_DECLS
