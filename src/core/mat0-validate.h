/* mat0-validate.h - errors and lints of a material library (formats.md 2.6)
 *
 * Errors: the entry cannot be decoded as stated. Lints: it decodes, but the
 * game may misbehave. Nothing else is reported: unknown modes, bits and
 * versions are legitimate data.
 */
#pragma once

#include <glib.h>

#include "mat0.h"
#include "nres.h"

G_BEGIN_DECLS

typedef enum {
  MAT0_SEVERITY_ERROR,
  MAT0_SEVERITY_LINT,
} Mat0Severity;

typedef enum {
  /* errors: the codes of Mat0Error, then */
  MAT0_CHECK_DECODE_ERROR,
  /* lints of one material */
  MAT0_LINT_TEXTURE_NO_NUL,
  MAT0_LINT_TEXTURE_NO_DOT,
  MAT0_LINT_PALETTE_INDEX,
  MAT0_LINT_KEY_PHASE_RANGE,
  MAT0_LINT_BLOCK_NO_KEYS,
  MAT0_LINT_ZERO_PERIOD,
  MAT0_LINT_KEY_TIME_ORDER,
  MAT0_LINT_AMBIENT_ALPHA,
  /* lints of the archive */
  MAT0_LINT_NO_DEFAULT,
  MAT0_LINT_DUPLICATE_NAME,
  MAT0_LINT_SORT_INDEX,
  MAT0_LINT_UNALIGNED_PAYLOAD,
} Mat0Check;

typedef struct {
  Mat0Severity severity;
  Mat0Check    check;
  gint         entry;      /* entry index, -1 for the whole archive */
  gint         phase;      /* -1 when not about a phase */
  gint         block;      /* -1 when not about a block */
  gint         key;        /* -1 when not about a key */
  gsize        offset;     /* absolute byte offset in the file */
  char        *entry_name; /* UTF-8, or "(archive)" */
  char        *message;    /* the whole line for people:
                              "ENTRY: offset N: expected ..., found ..." */
} Mat0Diagnostic;

void       mat0_diagnostic_free     (Mat0Diagnostic *diag);

/* Lints of one decoded material; appends Mat0Diagnostic to @out.
 * @entry, @entry_name and @base_offset locate it in the file. */
void       mat0_lint_material       (const Mat0Material *material,
                                     gint                entry,
                                     const char         *entry_name,
                                     gsize               base_offset,
                                     GPtrArray          *out);

/* Decodes every MAT0 entry of @archive and collects every error and lint
 * in file order of the entries, archive lints last.
 * Returns: (transfer full) (element-type Mat0Diagnostic): the list. */
GPtrArray *mat0_validate_archive    (const NresArchive  *archive);

/* A stable machine name: "zero-period", "key-time-order", ... */
const char *mat0_check_name         (Mat0Check check);

/* "error" or "lint". */
const char *mat0_severity_to_string (Mat0Severity severity);

G_END_DECLS
