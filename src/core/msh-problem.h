/* msh-problem.h - errors and lints of models and material tables
 *
 * One list type for what the MESH reader (msh.h) and the WEAR reader
 * (wear.h) find, so that a model layer or the CLI can show a model's
 * problems in one list. See models.md 2 "Validation" and 3.
 *
 * Errors: the model cannot be drawn (nothing is drawn, its node count is
 * still given when stream 1 is readable). Lints: it is drawn, but the game
 * may not show what the modder expects. Nothing else is reported: unknown
 * bits of a batch word, unknown streams and unusual values are data.
 *
 * Every message is one line for people, in the project's style:
 * "MEMBER: stream N: offset O: expected X, found Y" for a MESH (stream
 * left out where no stream is concerned) and "MEMBER: row R: offset O:
 * expected X, found Y" for a WEAR. O is the absolute byte offset in the
 * file that holds the member (the archive), not in the member.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  MSH_SEVERITY_ERROR,
  MSH_SEVERITY_LINT,
} MshSeverity;

typedef enum {
  /* errors of a MESH (models.md 2) */
  MSH_CHECK_ARCHIVE,           /* the inner NRes archive fails formats.md 1 */
  MSH_CHECK_STREAM_SIZE,       /* a stream's size is not attr1 x its element */
  MSH_CHECK_SLOT_INDEX,        /* a node's slot index past stream 2's count */
  MSH_CHECK_SLOT_TRIANGLES,    /* a slot's triangle range past stream 6 */
  MSH_CHECK_SLOT_BATCHES,      /* a slot's batch range past stream 13 */
  MSH_CHECK_BATCH_INDICES,     /* a batch's index range past stream 6 */
  MSH_CHECK_CORNER,            /* first_vertex + index past a vertex stream */
  MSH_CHECK_TOO_LARGE,         /* more drawn at rest than MSH_MAX_DRAWN_* */
  /* lints of a MESH */
  MSH_CHECK_PARENT_RANGE,      /* a parent index past the node count */
  MSH_CHECK_PARENT_LOOP,       /* a parent chain that loops */
  MSH_CHECK_WEAR_ROW,          /* a batch's WEAR row past the wear's rows */
  MSH_CHECK_NO_WEAR,           /* a MESH without the .wea of its stem */
  MSH_CHECK_LIGHTMAP_PAGE,     /* a lightmapped batch's page 0xFF or past the list */
  MSH_CHECK_NO_LIGHTMAP,       /* a lightmapped batch, a wear without pages */
  /* lints of a WEAR (models.md 3) */
  MSH_CHECK_WEAR_COUNT,        /* no count line, or a count that is not a number */
  MSH_CHECK_WEAR_FEW_ROWS,     /* fewer rows than the count says */
  MSH_CHECK_WEAR_ONE_FIELD,    /* a row with an id and no name */
  MSH_CHECK_WEAR_ID_TEXT,      /* an id that is not a number */
  MSH_CHECK_WEAR_ID,           /* an id that differs from the row's position */
  MSH_CHECK_WEAR_TRAILING,     /* a line after the table the game does not read */
  MSH_CHECK_WEAR_MISSING,      /* a row's material not in the library */
} MshCheck;

typedef struct {
  MshSeverity severity;
  MshCheck    check;
  gint        stream;     /* the MESH stream concerned, -1 for none */
  gint        element;    /* the element of that stream (node, slot,
                             triangle, batch...), or the WEAR row; -1 */
  guint64     offset;     /* absolute byte offset in the archive */
  char       *member;     /* the member's name, UTF-8 */
  char       *message;    /* the whole line for people, UTF-8 */
} MshProblem;

void        msh_problem_free        (MshProblem *problem);

/* A new problem list: Returns: (transfer full) (element-type MshProblem). */
GPtrArray  *msh_problem_list_new    (void);

/* Appends a problem whose message is @format (already translated) with
 * its arguments. */
void        msh_problem_add         (GPtrArray   *out,
                                     MshSeverity  severity,
                                     MshCheck     check,
                                     const char  *member,
                                     gint         stream,
                                     gint         element,
                                     guint64      offset,
                                     const char  *format,
                                     ...) G_GNUC_PRINTF (8, 9);

/* Whether @problems (element-type MshProblem, nullable) holds an error. */
gboolean    msh_problems_have_error (const GPtrArray *problems);

/* A stable machine name: "stream-size", "wear-row", ... */
const char *msh_check_name          (MshCheck check);

/* "error" or "lint". */
const char *msh_severity_to_string  (MshSeverity severity);

G_END_DECLS
