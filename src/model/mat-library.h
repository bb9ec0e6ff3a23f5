/* mat-library.h - a material library (an NRes archive) as a GListModel
 *
 * One MatMaterial per directory entry, in directory order. A MatArchive
 * (mat-archive.h): the store holds the archive bytes, the file and its
 * ETag, the MatHistory that every edit goes through, "dirty" and the
 * save; the draft store keeps its unsaved changes (MatDraftable).
 * Properties "file", "etag", "dirty", "history" (the archive's) and
 * "n-items" (read-only, notified when they change); the functions
 * below that read or save them are the archive's for a library.
 */
#pragma once

#include <gio/gio.h>

#include "mat-archive.h"
#include "mat-draftable.h"
#include "mat-file.h"
#include "mat-history.h"
#include "mat-material.h"
#include "mat-model-error.h"

G_BEGIN_DECLS

#define MAT_TYPE_LIBRARY (mat_library_get_type ())

G_DECLARE_FINAL_TYPE (MatLibrary, mat_library, MAT, LIBRARY, MatArchive)

/* Parses @bytes (no file). A file that does not parse fails with the
 * core's NRES_ERROR message (entry, offset, expected, found).
 * Returns: (transfer full): the library, or %NULL with @error. */
MatLibrary  *mat_library_new_from_bytes   (GBytes               *bytes,
                                           GError              **error);

/* A library holding @bytes (a draft of unsaved changes, see
 * mat-drafts.h) as unsaved changes to @file, made from its version
 * @etag: "dirty" until it is saved, with nothing to undo. A save to its
 * own file passes @etag, so a file changed on disk since that version
 * fails with G_IO_ERROR_WRONG_ETAG and is left as it is.
 * Returns: (transfer full): the library, or %NULL with @error. */
MatLibrary  *mat_library_new_restored     (GBytes               *bytes,
                                           GFile                *file,
                                           const char           *etag,
                                           GError              **error);

/* Reads and parses @file in a thread (mat_file_read_archive: a FIFO or
 * a device is refused at once, the header and directory are checked
 * against the file's size before the payloads are read, and large
 * unindexed regions are read only when a save needs them); remembers its
 * ETag. Removes what killed saves left in its folder
 * (mat_library_get_removed_temporaries). On failure the error's message
 * is two lines: first what is wrong in plain words ("The file is cut
 * short: 1,900 of 3,768 bytes."), then the exact detail. */
void         mat_library_load_async       (GFile                *file,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
/* Returns: (transfer full): the library, or %NULL with @error. */
MatLibrary  *mat_library_load_finish      (GAsyncResult         *result,
                                           GError              **error);

/* Saves to @file, or to the library's own file when %NULL, through
 * mat_file_replace (atomic; a failed save leaves the file as it was).
 * Writing over the file it was loaded from passes the ETag from the load
 * (or the last save): a file changed on disk fails with
 * G_IO_ERROR_WRONG_ETAG and is left as it is, unless @flags has
 * MAT_SAVE_IGNORE_CHANGES. MAT_SAVE_BACKUP keeps the previous file as
 * FILE.bak. On success the library is clean, remembers @file and its new
 * ETag, and the written bytes become its new base; on failure nothing
 * changes (edits, unsaved state, file). */
void         mat_library_save_async       (MatLibrary           *self,
                                           GFile                *file,
                                           MatSaveFlags          flags,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
/* @notes: (out) (optional): what the user may want to know of a save
 * that succeeded (MAT_SAVE_NOTE_LINKS_DETACHED). */
gboolean     mat_library_save_finish      (MatLibrary           *self,
                                           GAsyncResult         *result,
                                           MatSaveNotes         *notes,
                                           GError              **error);
/* The bytes a save would write (preserving writer): an unchanged library
 * gives the loaded bytes back. Does not mark the library saved.
 * Returns: (transfer full): the file, or %NULL with @error. */
GBytes      *mat_library_save_to_bytes    (MatLibrary           *self,
                                           GError              **error);

/* Returns: (transfer none) (nullable). */
GFile       *mat_library_get_file         (MatLibrary           *self);
/* Returns: (transfer none) (nullable). */
const char  *mat_library_get_etag         (MatLibrary           *self);
/* How many temporary files of killed saves the load removed from the
 * library's folder (mat_file_remove_stale_temporaries): a note to show
 * once. */
guint        mat_library_get_removed_temporaries (MatLibrary     *self);
/* TRUE iff the state differs from the last load or save. */
gboolean     mat_library_get_dirty        (MatLibrary           *self);
/* Returns: (transfer none). */
MatHistory  *mat_library_get_history      (MatLibrary           *self);

/* Returns: (transfer none) (nullable): item @position. */
MatMaterial *mat_library_get_material     (MatLibrary           *self,
                                           guint                 position);
/* Case-insensitive lookup by UTF-8 name.
 * Returns: (transfer none) (nullable). */
MatMaterial *mat_library_find             (MatLibrary           *self,
                                           const char           *name);
/* Returns: the position of @material, or -1. */
gint         mat_library_index_of         (MatLibrary           *self,
                                           MatMaterial          *material);

/* A canonical new material (mat0_material_new_canonical), appended.
 * Returns: (transfer none): the material, or %NULL with @error. */
MatMaterial *mat_library_add_material     (MatLibrary           *self,
                                           const char           *name,
                                           GError              **error);
/* A copy of @material named @name, inserted after it.
 * Returns: (transfer none): the copy, or %NULL with @error. */
MatMaterial *mat_library_duplicate_material (MatLibrary         *self,
                                             MatMaterial        *material,
                                             const char         *name,
                                             GError            **error);
/* A copy of @source, a material of any library, under its own name
 * (which must be free here) with its attr1..attr3, appended: one undo
 * step. MAT_MODEL_ERROR_NOT_EDITABLE when @source does not decode.
 * Returns: (transfer none): the copy, or %NULL with @error. */
MatMaterial *mat_library_add_copy         (MatLibrary           *self,
                                           MatMaterial          *source,
                                           GError              **error);
/* Deletes a MAT0 entry (one that does not decode included); entries of
 * other types are read-only (MAT_MODEL_ERROR_NOT_EDITABLE). */
gboolean     mat_library_delete_material  (MatLibrary           *self,
                                           MatMaterial          *material,
                                           GError              **error);

/* Deletes the MAT0 entries among @materials (those of other types stay,
 * as mat_library_delete_material keeps them) as ONE undo step, however
 * many they are. Returns: how many were deleted (0: nothing recorded). */
guint        mat_library_delete_materials (MatLibrary          *self,
                                           MatMaterial * const *materials,
                                           guint                n_materials);

/* Every error and lint of the current state (mat0_validate_archive of
 * what a save would write), cached until the next edit.
 * Returns: (transfer none) (element-type Mat0Diagnostic). */
GPtrArray   *mat_library_get_diagnostics  (MatLibrary           *self);

/* The materials of @self with a phase whose texture field names
 * @texture as the engine looks textures up (ASCII case-insensitively), in
 * library order; materials that do not decode are not looked into.
 * Returns: (transfer container) (element-type MatMaterial). */
GPtrArray   *mat_library_dup_texture_users (MatLibrary          *self,
                                            const char          *texture);
/* Every phase whose texture field names @old_name (as above) is given
 * @new_name (at most 15 CP1251 bytes, zero-filled: mat_phase_set_texture),
 * as one undo step ("Rename Texture in Materials"). Returns: the number
 * of phases renamed, 0 when none named it or with @error (then nothing
 * changed). */
guint        mat_library_rename_texture_uses (MatLibrary        *self,
                                              const char        *old_name,
                                              const char        *new_name,
                                              GError           **error);

G_END_DECLS
