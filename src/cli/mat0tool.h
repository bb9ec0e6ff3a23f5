/* mat0tool.h - shared pieces of the mat0tool command-line tool */
#pragma once

#include <json-glib/json-glib.h>

#include "mat0.h"
#include "nres.h"
#include "phase-eval.h"

G_BEGIN_DECLS

/* Exit codes of cli.md */
#define MT_EXIT_OK      0
#define MT_EXIT_INVALID 1
#define MT_EXIT_USAGE   2

/* An opened library: the archive and every MAT0 entry decoded. */
typedef struct {
  char          *path;
  NresArchive   *archive;
  Mat0Material **materials;   /* n_entries; NULL for other types and for
                                 entries that did not decode */
  GError       **errors;      /* n_entries; the decode error or NULL */
  char         **names;       /* n_entries; UTF-8 */
} MtLibrary;

MtLibrary  *mt_library_new_from_bytes (const char  *path,
                                       GBytes      *bytes,
                                       GError     **error);
void        mt_library_free           (MtLibrary   *library);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MtLibrary, mt_library_free)

/* "MAT0", "Texm", ... or "0x%08X" when the id is not printable.
 * Returns: (transfer full). */
char       *mt_type_name              (guint32      type_id);

/* JSON documents of cli.md */
JsonNode   *mt_json_dump              (const MtLibrary *library,
                                       const guint     *indices,
                                       guint            n_indices);
JsonNode   *mt_json_eval              (const char            *material,
                                       gint                   block,
                                       const Mat0Material    *mat,
                                       const PhaseEvalResult *result);
/* Builds a library in canonical layout from a dump document.
 * Returns: (transfer full). */
GBytes     *mt_json_build             (JsonNode    *root,
                                       GError     **error);
/* Serialises @node; floats are printed with %.9g as cli.md asks.
 * Returns: (transfer full). */
char       *mt_json_to_string         (JsonNode    *node,
                                       gboolean     pretty);

/* Applies one "path=value" assignment of `mat0tool set` to an entry. */
gboolean    mt_apply_assignment       (NresEntry    *entry,
                                       Mat0Material *material,
                                       const char   *assignment,
                                       GError      **error);

/* `diff A B [--json]` (mat0tool-diff.c): exit 0 equal, 1 different,
 * 2 usage or I/O error. */
int         mt_cmd_diff               (char        **args,
                                       gboolean      json);

G_END_DECLS
