/* mat-model-archive.h - an archive of models (a .rlb): its MESH and WEAR
 * members, and the WEAR edits that make a model wear another material
 *
 * A MatArchive (mat-archive.h): read bounded by its directory, saved
 * with the same atomic routine as a library (temporary file, sync,
 * rename, mode, owner, extended attributes, backups, the ETag check),
 * every edit one step of its MatHistory, "dirty" until saved, and its
 * unsaved edits kept as drafts (MAT_DRAFT_KIND_MODELS). Properties
 * "file", "etag", "dirty" and "history" are the archive's.
 *
 * A GListModel of MatModelEntry (models.md 1), in directory order: one
 * per MESH member, with the WEAR member of its stem when there is one,
 * and one per WEAR member that no MESH's stem names (a table without a
 * model). Members of other types are kept as they are and not listed.
 *
 * WEAR edits change only the bytes models.md 3 says (wear_table_set_name,
 * wear_table_add_row); a save writes the archive with the preserving
 * writer (formats.md 1): every other member, the padding, unindexed
 * bytes and every directory field stay as they were, but for a changed
 * member's size and, when its size changed, the offsets of the members
 * after it. Undo and redo give the very bytes back.
 *
 * Signal "wear-changed" (no arguments): after every WEAR edit, its undo
 * and its redo, once per step, after the entries it concerned emitted
 * their "changed". The bytes of the archive now are
 * mat_archive_save_to_bytes() (what the game folder's index re-reads).
 */
#pragma once

#include <gio/gio.h>

#include "mat-archive.h"
#include "mat-model-entry.h"

G_BEGIN_DECLS

#define MAT_TYPE_MODEL_ARCHIVE (mat_model_archive_get_type ())

G_DECLARE_FINAL_TYPE (MatModelArchive, mat_model_archive, MAT, MODEL_ARCHIVE, MatArchive)

/* Parses @bytes (no file).
 * Returns: (transfer full): the archive, or %NULL with the core's
 * NRES_ERROR (entry, offset, expected, found). */
MatModelArchive *mat_model_archive_new_from_bytes (GBytes               *bytes,
                                                   GError              **error);
/* @bytes (a draft) as unsaved edits to @file, made from its version
 * @etag (see mat_library_new_restored).
 * Returns: (transfer full): the archive, or %NULL with @error. */
MatModelArchive *mat_model_archive_new_restored   (GBytes               *bytes,
                                                   GFile                *file,
                                                   const char           *etag,
                                                   GError              **error);
/* Reads @file now (blocking: call it from a thread) as every archive is
 * read: mat_file_read_archive (a FIFO or device refused at once, the
 * header and directory checked against the file's size first, unindexed
 * regions read only when a save needs them), with its ETag; a file not on
 * a local disk is refused. The message of a failure says what is wrong
 * in plain words, then the exact detail, on two lines.
 * Returns: (transfer full): the archive, or %NULL with @error. */
MatModelArchive *mat_model_archive_load           (GFile                *file,
                                                   GCancellable         *cancellable,
                                                   GError              **error);
/* mat_model_archive_load in a thread. */
void             mat_model_archive_load_async     (GFile                *file,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
/* Returns: (transfer full): the archive, or %NULL with @error. */
MatModelArchive *mat_model_archive_load_finish    (GAsyncResult         *result,
                                                   GError              **error);

/* Returns: (transfer none) (nullable): entry @position. */
MatModelEntry   *mat_model_archive_get_model      (MatModelArchive      *self,
                                                   guint                 position);
/* The entry whose MESH member, WEAR member or stem is @name (UTF-8,
 * compared as the engine compares names: ASCII case-insensitively).
 * Returns: (transfer none) (nullable). */
MatModelEntry   *mat_model_archive_find_model     (MatModelArchive      *self,
                                                   const char           *name);

/* A row of a WEAR edit: @row of @model's wear, or MAT_WEAR_ROW_NEW for a
 * row added at the end of it. */
#define MAT_WEAR_ROW_NEW G_MAXUINT

typedef struct {
  MatModelEntry *model;
  guint          row;
} MatWearTarget;

/* Makes every target name the material @name (UTF-8): a row's name is
 * rewritten (wear_table_set_name), MAT_WEAR_ROW_NEW adds a row
 * (wear_table_add_row); the targets are taken in order (two on one wear
 * both apply). All of them are one undo step ("Wear on"); a target that
 * cannot be made fails the whole edit and nothing changes. Targets that
 * already name @name change nothing; when no target changes anything,
 * nothing is recorded.
 * Errors: WEAR_ERROR_BAD_NAME (the name: 1..35 CP1251 bytes, no blank),
 * WEAR_ERROR_BAD_ROW (a row past the table), WEAR_ERROR_NO_COUNT (a new
 * row on a table without a count), MAT_MODEL_ERROR_NOT_EDITABLE (a model
 * without a WEAR member, or not of this archive).
 * @rows: (out) (optional) (array length=n_targets): the row each target
 * made name @name (a new row's position).
 * Returns: %FALSE with @error, nothing changed. */
gboolean         mat_model_archive_wear_on        (MatModelArchive      *self,
                                                   const MatWearTarget  *targets,
                                                   guint                 n_targets,
                                                   const char           *name,
                                                   guint                *rows,
                                                   GError              **error);
/* Row @row of @model's wear names @name: one undo step (a single target
 * of mat_model_archive_wear_on). */
gboolean         mat_model_archive_set_wear       (MatModelArchive      *self,
                                                   MatModelEntry        *model,
                                                   guint                 row,
                                                   const char           *name,
                                                   GError              **error);
/* A new row of @model's wear names @name: one undo step.
 * @row: (out) (optional): its position. */
gboolean         mat_model_archive_add_wear_row   (MatModelArchive      *self,
                                                   MatModelEntry        *model,
                                                   const char           *name,
                                                   guint                *row,
                                                   GError              **error);

G_END_DECLS
