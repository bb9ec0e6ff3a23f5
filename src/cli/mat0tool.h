/* mat0tool.h - shared pieces of the mat0tool command-line tool */
#pragma once

#include <stdio.h>
#include <json-glib/json-glib.h>

#include "mat0.h"
#include "nres.h"
#include "phase-eval.h"

G_BEGIN_DECLS

/* Exit codes of cli.md */
#define MT_EXIT_OK      0
#define MT_EXIT_INVALID 1
#define MT_EXIT_USAGE   2

/* An opened library: the archive and its MAT0 entries, decoded. */
typedef struct {
  char          *path;
  char          *label;       /* the path as printed (mt_escape) */
  char          *real_path;   /* the file at the end of its links, or NULL */
  char          *etag;        /* of the version read (mat_file_query_etag) */
  NresArchive   *archive;
  Mat0Material **materials;   /* n_entries; NULL for other types, for
                                 entries that did not decode, and for
                                 entries not decoded yet */
  GError       **errors;      /* n_entries; the decode error or NULL */
  char         **names;       /* n_entries; UTF-8 */
  char         **labels;      /* n_entries; the names as printed (mt_escape) */
} MtLibrary;

/* @decode: decode every MAT0 entry now; otherwise mt_library_decode
 * does it entry by entry. */
MtLibrary  *mt_library_new_from_bytes (const char  *path,
                                       GBytes      *bytes,
                                       gboolean     decode,
                                       GError     **error);
void        mt_library_decode         (MtLibrary   *library,
                                       guint        index);
/* Drops what mt_library_decode made of entry @index. */
void        mt_library_forget         (MtLibrary   *library,
                                       guint        index);
void        mt_library_free           (MtLibrary   *library);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MtLibrary, mt_library_free)

/* @text with control characters escaped ("\n", "\x1b", C1 ones as
 * "\u009b") and bytes that are not UTF-8 as "\xff", so that a name or a
 * path never breaks a message over lines or reaches the terminal as a
 * command. Every name and path mat0tool prints goes through it.
 * Returns: (transfer full). */
char       *mt_escape                 (const char  *text);
/* Prints one line on stderr, escaped as a whole with mt_escape. */
void        mt_printerr               (const char  *format,
                                       ...) G_GNUC_PRINTF (1, 2);

/* "MAT0", "Texm", ... or "0x%08X" when the id is not printable.
 * Returns: (transfer full). */
char       *mt_type_name              (guint32      type_id);

/* The dump document of cli.md, written to @out as it is made: entry by
 * entry, each decoded, written and dropped. Returns: FALSE when writing
 * failed (errno is set). */
gboolean    mt_json_dump              (MtLibrary       *library,
                                       const guint     *indices,
                                       guint            n_indices,
                                       FILE            *out);
JsonNode   *mt_json_eval              (const char            *material,
                                       gint                   block,
                                       const Mat0Material    *mat,
                                       const PhaseEvalResult *result);
/* Builds a library in canonical layout from a dump document read from
 * @fd, one entry at a time: the document is never held whole.
 * Returns: (transfer full): the library, or %NULL with @error. */
GBytes     *mt_json_build             (int          fd,
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

/* -o OUT, and its atomic write (cli.md), shared by the commands: the
 * model's save routine (mat_file_replace). When OUT is the input (after
 * links), @input_etag (may be %NULL) makes a change on disk since the
 * input was read a refusal instead of an overwrite. */
extern char *opt_output;
gboolean    mt_write_output           (const char   *input_path,
                                       const char   *input_etag,
                                       const char   *out,
                                       GBytes       *bytes,
                                       GError      **error);
/* Writes @bytes to @out with mat_file_replace (@etag may be %NULL); says
 * on stderr, in one line, when it removed what interrupted saves had left
 * in the folder. Every file the tool writes goes through here. */
gboolean    mt_replace                (const char   *out,
                                       GBytes       *bytes,
                                       const char   *etag,
                                       GError      **error);

/* texture-import and texture-export (mat0tool-texture.c) and their
 * options. */
GOptionGroup *mt_texture_option_group (void);
int         mt_cmd_texture_import     (char        **args);
int         mt_cmd_texture_export     (char        **args);

/* `diff A B [--json]` (mat0tool-diff.c): exit 0 equal, 1 different,
 * 2 usage or I/O error. */
int         mt_cmd_diff               (char        **args,
                                       gboolean      json);

/* models, where-used and wear (mat0tool-models.c, cli.md "Models") and
 * their option --library. */
GOptionGroup *mt_models_option_group  (void);
int         mt_cmd_models             (char        **args,
                                       gboolean      json);
int         mt_cmd_where_used         (char        **args,
                                       gboolean      json);
int         mt_cmd_wear               (char        **args,
                                       gboolean      json);

G_END_DECLS
