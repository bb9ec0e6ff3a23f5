/* mat-drafts.h - unsaved edits kept as drafts beside the user's data
 *
 * Every archive open with unsaved edits (a MatDraftable: the material
 * library, a Textures.lib, a model archive) has a draft: the bytes a save would write now,
 * written a moment after the edits (MatDraftStore:delay, 2 s) through
 * the safe save (mat_file_replace) in a worker thread. A draft goes away
 * when its archive is saved, undone back to its saved state or discarded
 * (mat_draft_store_discard_archive: closed without saving, after the
 * question). What an editor killed, crashed or ended by a signal leaves
 * is offered at the next start (mat_draft_store_find_left_async).
 *
 * On disk, under the store's folder (by default
 * g_get_user_data_dir()/parkan-matedit/drafts, mode 0700):
 *
 *   SESSION/             one folder per editor that wrote a draft
 *     lock               locked (flock) while that editor runs
 *     index.json         what its drafts are
 *     ID.N.draft         the bytes of draft ID, version N
 *
 * index.json is {"format": 1, "drafts": [DRAFT, ...]}, each DRAFT an
 * object: "id" (string), "kind" (MAT_DRAFT_KIND_*), "file" (the URI of
 * the archive's file), "etag" (the version of the file the edits were
 * made from, or null), "time" (ISO 8601, when the draft was written),
 * "owner" (for a Textures.lib: the URI of the material library whose
 * window edited it, or null), "draft" (the name of the draft's file in
 * the folder), "size" and "sha256" (of the draft's bytes). The draft's
 * bytes are written first and the index after them, so the index always
 * names a whole draft; a folder whose lock nobody holds belongs to an
 * editor that ended.
 */
#pragma once

#include <gio/gio.h>

#include "mat-draftable.h"

G_BEGIN_DECLS

/* What the draft's file is now, against the version the edits were made
 * from. */
typedef enum {
  MAT_DRAFT_DISK_SAME,      /* as it was: restoring and saving is safe */
  MAT_DRAFT_DISK_CHANGED,   /* another program wrote it since */
  MAT_DRAFT_DISK_MISSING,   /* it is no longer there */
} MatDraftDisk;

#define MAT_TYPE_DRAFT_DISK (mat_draft_disk_get_type ())
GType mat_draft_disk_get_type (void) G_GNUC_CONST;

/* ---- MatDraft: one draft left by an editor that ended ---------------- */

#define MAT_TYPE_DRAFT (mat_draft_get_type ())

G_DECLARE_FINAL_TYPE (MatDraft, mat_draft, MAT, DRAFT, GObject)

/* Returns: (transfer none): the draft's id (unique, stable). */
const char   *mat_draft_get_id        (MatDraft      *self);
/* Returns: (transfer none): a MAT_DRAFT_KIND_* string. */
const char   *mat_draft_get_kind      (MatDraft      *self);
/* Returns: (transfer none): the archive's file. */
GFile        *mat_draft_get_file      (MatDraft      *self);
/* Returns: (transfer none) (nullable): the version it was made from. */
const char   *mat_draft_get_etag      (MatDraft      *self);
/* Returns: (transfer none): when it was written. */
GDateTime    *mat_draft_get_time      (MatDraft      *self);
/* Returns: (transfer none) (nullable): for a Textures.lib, the material
 * library it was edited with. */
GFile        *mat_draft_get_owner     (MatDraft      *self);
/* The size of its bytes. */
guint64       mat_draft_get_size      (MatDraft      *self);
/* The file on disk when the draft was found. */
MatDraftDisk  mat_draft_get_disk      (MatDraft      *self);

/* Reads the draft in a thread (its size and SHA-256 checked against the
 * index) and makes its archive again: a MatLibrary, a MatTextureLibrary
 * or a MatModelArchive (by its kind) holding the draft's bytes as
 * unsaved edits to the file, made from the draft's version
 * (mat_library_new_restored). */
void          mat_draft_restore_async (MatDraft            *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
/* @bytes: (out) (optional) (transfer full): the draft's bytes.
 * Returns: (transfer full): the archive, or %NULL with @error. */
MatDraftable *mat_draft_restore_finish (MatDraft           *self,
                                        GAsyncResult       *result,
                                        GBytes            **bytes,
                                        GError            **error);

/* ---- MatDraftStore ------------------------------------------------------ */

#define MAT_TYPE_DRAFT_STORE (mat_draft_store_get_type ())

G_DECLARE_FINAL_TYPE (MatDraftStore, mat_draft_store, MAT, DRAFT_STORE, GObject)

/* Returns: (transfer full): g_get_user_data_dir()/parkan-matedit/drafts. */
GFile         *mat_draft_store_get_default_folder (void);

/* A store keeping its drafts under @folder (a local folder, made when
 * the first draft is written). Properties:
 *   "folder"      GFile*    (construct-only)
 *   "delay"       guint     ms from an edit to its draft (2000)
 *   "busy"        boolean   (read-only) a draft waits or is being written
 *   "last-error"  string    (read-only, nullable) why the last write of a
 *                           draft failed; %NULL once one succeeds
 * Returns: (transfer full). */
MatDraftStore *mat_draft_store_new            (GFile          *folder);
/* Returns: (transfer none). */
GFile         *mat_draft_store_get_folder     (MatDraftStore  *self);
guint          mat_draft_store_get_delay      (MatDraftStore  *self);
void           mat_draft_store_set_delay      (MatDraftStore  *self,
                                               guint           delay_ms);
gboolean       mat_draft_store_get_busy       (MatDraftStore  *self);
/* Returns: (transfer none) (nullable). */
const char    *mat_draft_store_get_last_error (MatDraftStore  *self);

/* Keeps drafts of @archive from now on (again: only @owner changes);
 * one with unsaved edits has its draft written after the delay. The
 * store holds a weak reference: an archive that goes is discarded.
 * @owner: (nullable): the material library a Textures.lib is edited
 * with, kept in the index for restoring it there. */
void           mat_draft_store_track          (MatDraftStore  *self,
                                               MatDraftable   *archive,
                                               GFile          *owner);
/* @archive's edits are discarded (closed without saving): its draft is
 * removed and no other is kept. */
void           mat_draft_store_discard_archive (MatDraftStore *self,
                                                MatDraftable  *archive);
/* @archive was restored from @draft (left by an editor that ended): it
 * is tracked, its draft is written at once in this editor's folder, and
 * @draft is removed once that is on disk. */
void           mat_draft_store_adopt          (MatDraftStore  *self,
                                               MatDraft       *draft,
                                               MatDraftable   *archive);

/* Writes now, in the calling thread, the draft of every tracked archive
 * with unsaved edits (and removes the others'), after the writes and
 * removals already asked for; waits for a write running in the worker.
 * With @freeze, nothing is written or removed afterwards: the process is
 * about to end (a signal), and what is on disk stays for the next start.
 * Returns: %FALSE with the first failure (the others were still tried). */
gboolean       mat_draft_store_flush_sync     (MatDraftStore  *self,
                                               gboolean        freeze,
                                               GError        **error);
/* The editor ends normally: mat_draft_store_flush_sync (@self, TRUE),
 * then this editor's folder goes when no draft is left in it. */
void           mat_draft_store_close          (MatDraftStore  *self);

/* Looks in a thread for the drafts of editors that ended (their folder's
 * lock is free); this store locks those folders while it runs, so no
 * other editor offers the same drafts. Folders without drafts are
 * removed. */
void           mat_draft_store_find_left_async  (MatDraftStore       *self,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
/* Returns: (transfer full): MatDraft, newest first (possibly none), or
 * %NULL with @error. */
GListModel    *mat_draft_store_find_left_finish (MatDraftStore       *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);
/* Removes @draft (one found by mat_draft_store_find_left_async) from
 * disk, in the worker, after what was asked before. */
void           mat_draft_store_discard        (MatDraftStore  *self,
                                               MatDraft       *draft);

G_END_DECLS
