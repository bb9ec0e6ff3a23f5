/* mat-material-json.h - materials and phases as the JSON of `mat0tool dump --json`
 *
 * One schema (cli.md) for the command line and the editor: the CLI's dump
 * writes each entry with mat_json_entry_new and its build reads each one
 * with mat_json_entry_parse; the editor's clipboard, drag and drop and
 * .json files use the same two functions.
 *
 * What the editor exchanges:
 *
 * - a material: the entry object of the dump document of a library that
 *   holds this one material (index 0, data_offset 16, sort_index 0, size
 *   the payload's), as mat_material_to_json() writes it. An exported file
 *   is that whole document (mat_material_to_json_document()), so
 *   `mat0tool build FILE -o LIB` makes a library of it and `mat0tool dump
 *   LIB --json` gives the file back byte for byte.
 * - a phase: {"phase": PHASE} with PHASE the phase object of the dump,
 *   {"params": [18 bytes], "texture": "..."} ("texture_raw" too when the
 *   name field holds bytes the UTF-8 name cannot give back).
 *
 * Everything the payload and the directory entry hold is carried exactly
 * (params, texture fields with the bytes after the NUL, keys with k2,
 * metadata as raw values, attr1 with its unknown bits, attr2, attr3, the
 * name field): a material copied from one library and pasted into another
 * has the very same payload bytes.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "mat0.h"
#include "nres.h"
#include "mat-library.h"

G_BEGIN_DECLS

/* ---- The schema: used by the CLI and the editor ---------------------- */

/* "MAT0", "Texm", ... or "0x%08X" when the id is not four printable
 * characters. Returns: (transfer full). */
char        *mat_json_type_name           (guint32             type_id);

/* The entry object of the dump document for entry @index with directory
 * fields @entry. A decoded MAT0 entry (@material not %NULL) gets flags,
 * meta, phases and blocks; any other entry its payload as base64 and,
 * when it is a MAT0 entry that did not decode, @error_message. A name or
 * texture field whose UTF-8 form does not encode back to the same bytes
 * is carried raw too ("name_raw", "texture_raw").
 * Returns: (transfer full). */
JsonNode    *mat_json_entry_new           (guint               index,
                                           const NresEntry    *entry,
                                           const Mat0Material *material,
                                           const guint8       *payload,
                                           gsize               payload_size,
                                           const char         *error_message);
/* Reads an entry object: type, attr1..attr3 and the name field into
 * @entry (other directory fields zero) and the payload into @payload
 * ("payload_base64", or the material of "meta", "phases" and "blocks"
 * encoded; nothing for another type without it). "index", "data_offset",
 * "size", "sort_index", "flags" and "error" are not used (attr1 holds the
 * flags), but every member the dump writes has its JSON type checked
 * wherever it is; members it does not write are ignored. A name field
 * ("name_raw" too) must hold a NUL and must not be empty. The
 * "payload_base64" of a MAT0 entry must decode, unless the entry says it
 * does not with "error" (as the dump writes for such an entry): then the
 * bytes are kept as they are. @where names the entry in messages
 * ("entries[3]"); the name is added when there is one: "entries[3]
 * (ROCK).meta.c: expected a number, found a string" (G_IO_ERROR,
 * G_IO_ERROR_INVALID_DATA). */
gboolean     mat_json_entry_parse         (JsonNode           *node,
                                           const char         *where,
                                           NresEntry          *entry,
                                           GBytes            **payload,
                                           GError            **error);

/* Checks the "archive" object of a dump document (@where names it in
 * messages): an object whose known members have their types (version,
 * entry_count, total_size integers 0..4294967295; sort_index_valid and
 * sort_index_canonical true or false). Nothing of it is used: the
 * library built gets its own header. */
gboolean     mat_json_archive_check       (JsonNode           *node,
                                           const char         *where,
                                           GError            **error);

/* The phase object of the dump. Returns: (transfer full). */
JsonNode    *mat_json_phase_new           (const Mat0Phase    *phase);
gboolean     mat_json_phase_parse         (JsonNode           *node,
                                           const char         *where,
                                           Mat0Phase          *phase,
                                           GError            **error);

/* Arrays and objects nest at most this deep in what is read: json-glib
 * parses by recursion, and a deeper text would exhaust the stack. The
 * dump document nests 7 levels deep. */
#define MAT_JSON_MAX_DEPTH 64

/* json_parser_load_from_data() of @text (@length bytes, -1:
 * NUL-terminated) after checking what json-glib would lose without a
 * word: nesting deeper than MAT_JSON_MAX_DEPTH, a string holding a NUL
 * (\u0000: json-glib ends the string there) and an integer past 64 bits
 * (json-glib wraps it around) fail with G_IO_ERROR_INVALID_DATA, the
 * message naming the value's path ("entries[3].name: ..."). */
gboolean     mat_json_load                (JsonParser         *parser,
                                           const char         *text,
                                           gssize              length,
                                           GError            **error);
/* The same, @text being the value at @where (nullable: the document)
 * in messages: "entries[3]" makes "entries[3].phases[0].texture". */
gboolean     mat_json_load_at             (JsonParser         *parser,
                                           const char         *text,
                                           gssize              length,
                                           const char         *where,
                                           GError            **error);

/* Appends @node as the dump writes it: with @pretty, members on lines of
 * their own indented by two spaces per level (@depth: the level @node is
 * at), arrays without objects on one line; floats with %.9g, non-finite
 * ones as null. */
void         mat_json_write               (GString            *out,
                                           JsonNode           *node,
                                           gboolean            pretty,
                                           guint               depth);
/* Returns: (transfer full). */
char        *mat_json_to_string           (JsonNode           *node,
                                           gboolean            pretty);

/* ---- The editor: clipboard, drag and drop, files ----------------------- */

typedef enum {
  MAT_JSON_MATERIAL,
  MAT_JSON_PHASE,
} MatJsonKind;

/* The entry object of @material (a MAT0 entry, one that does not decode
 * included: its payload goes as base64), pretty, ending in a newline.
 * Returns: (transfer full) (nullable): the text, %NULL with @error for an
 * entry of another type (MAT_MODEL_ERROR_NOT_EDITABLE). */
char        *mat_material_to_json          (MatMaterial  *material,
                                            GError      **error);
/* The dump document of a library holding only @material.
 * Returns: (transfer full) (nullable): as mat_material_to_json(). */
char        *mat_material_to_json_document (MatMaterial  *material,
                                            GError      **error);
/* {"phase": PHASE}, pretty, ending in a newline. Returns: (transfer full). */
char        *mat_phase_to_json             (MatPhase     *phase);

/* What @text (@length bytes, -1: NUL-terminated) holds: a material (an
 * entry object, or a dump document with exactly one entry) or a phase
 * ({"phase": PHASE}). @name: (out) (optional) (transfer full): the
 * material's name. Only the shape is checked here; the paste functions
 * check every value. Fails with G_IO_ERROR_INVALID_DATA. */
gboolean     mat_json_identify             (const char   *text,
                                            gssize        length,
                                            MatJsonKind  *kind,
                                            char        **name,
                                            GError      **error);

/* ---- Decoding off the main thread ------------------------------------- */

/* What a text to paste holds, decoded: the kind and the material's name
 * (mat_json_identify), and every value checked: a material's directory
 * fields and payload and the material made of them, decoded (its content
 * and lints computed once), or a phase. A text that holds a material or
 * a phase whose values are wrong still gives an item, holding the error
 * its paste fails with. Reference counted; may be made in any thread and
 * used in another. */
typedef struct _MatJsonItem MatJsonItem;

#define MAT_TYPE_JSON_ITEM (mat_json_item_get_type ())
GType        mat_json_item_get_type        (void) G_GNUC_CONST;
MatJsonItem *mat_json_item_ref             (MatJsonItem  *item);
void         mat_json_item_unref           (MatJsonItem  *item);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MatJsonItem, mat_json_item_unref)

/* Decodes @text (@length bytes, -1: NUL-terminated); all the work of a
 * paste but the insertion. Returns: (transfer full) (nullable): the item,
 * or %NULL with @error (G_IO_ERROR_INVALID_DATA) when @text is neither a
 * material nor a phase (the errors of mat_json_identify). */
MatJsonItem *mat_json_item_decode          (const char   *text,
                                            gssize        length,
                                            GError      **error);
/* mat_json_item_decode() of @text in a worker thread: only the cheap
 * insertion (mat_library_paste_item) is left for the main thread. */
void         mat_json_item_decode_async    (GBytes              *text,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
/* Returns: (transfer full) (nullable): as mat_json_item_decode(). */
MatJsonItem *mat_json_item_decode_finish   (GAsyncResult        *result,
                                            GError             **error);
MatJsonKind  mat_json_item_get_kind        (MatJsonItem  *item);
/* Returns: (transfer none) (nullable): the material's name as the text
 * gives it, %NULL for a phase or a material without one. */
const char  *mat_json_item_get_name        (MatJsonItem  *item);
/* Returns: (transfer none) (nullable): why pasting @item fails, %NULL
 * when its values are right (a name may still be taken). */
const GError *mat_json_item_get_error      (MatJsonItem  *item);

/* ---- Pasting: each one undoable step ------------------------------------ */

/* @name, or @name with "_2", "_3", ... appended (shortened to fit the 35
 * bytes of a name), that no entry of @self has (case-insensitively).
 * Returns: (transfer full). */
char        *mat_library_dup_free_name     (MatLibrary   *self,
                                            const char   *name);

/* Appends the material of @text (mat_json_identify) to @self. With @name
 * %NULL it keeps its own name field byte for byte, and fails with
 * MAT_MODEL_ERROR_NAME_TAKEN when another entry has that name; otherwise
 * it is named @name. Only MAT0 entries are pasted
 * (MAT_MODEL_ERROR_NOT_EDITABLE for others).
 * Returns: (transfer none): the new material, or %NULL with @error. */
MatMaterial *mat_library_paste_material    (MatLibrary   *self,
                                            const char   *text,
                                            gssize        length,
                                            const char   *name,
                                            GError      **error);

/* mat_library_paste_material() of a decoded @item: the material made
 * in the decode is inserted (a second paste of the same item decodes
 * its payload again). Fails with the item's error, or when it holds a
 * phase. Returns: (transfer none): the new material, or %NULL with @error. */
MatMaterial *mat_library_paste_item        (MatLibrary   *self,
                                            MatJsonItem  *item,
                                            const char   *name,
                                            GError      **error);

/* The phase of @text (a phase, see mat_json_identify) into @material:
 * with @replace it takes the place of phase @index (all 34 bytes; the
 * keys stay as they are), otherwise it is inserted at @index (0..n;
 * keys follow the phases they point at).
 * Returns: (transfer none): the phase written, or %NULL with @error. */
MatPhase    *mat_material_paste_phase      (MatMaterial  *material,
                                            guint         index,
                                            gboolean      replace,
                                            const char   *text,
                                            gssize        length,
                                            GError      **error);
/* mat_material_paste_phase() of a decoded @item. */
MatPhase    *mat_material_paste_phase_item (MatMaterial  *material,
                                            guint         index,
                                            gboolean      replace,
                                            MatJsonItem  *item,
                                            GError      **error);

G_END_DECLS
