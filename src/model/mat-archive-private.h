/* mat-archive-private.h - what the subclasses of MatArchive use of it
 *
 * Making an archive of a subclass (from bytes, from a file, from a
 * draft), its base, and the slots: a directory entry as an archive holds
 * it now, for subclasses whose entries are plain payloads (the textures
 * of a Textures.lib, the members of a model archive).
 */
#pragma once

#include "mat-archive.h"

G_BEGIN_DECLS

/* ---- making one ---------------------------------------------------------- */

/* An archive of @type (a subclass of MatArchive) holding @base (taken):
 * generation 1, then its load vfunc.
 * Returns: (transfer full): the archive, or %NULL with @error. */
MatArchive  *_mat_archive_new             (GType                type,
                                           NresArchive         *base,
                                           GError             **error);
/* Parses @bytes (nres_archive_parse: the core's message naming the
 * entry, the offset, what was expected and what was found on failure).
 * Returns: (transfer full): the archive, or %NULL with @error. */
MatArchive  *_mat_archive_new_from_bytes  (GType                type,
                                           GBytes              *bytes,
                                           GError             **error);
/* @bytes (a draft, see mat-drafts.h) as unsaved edits to @file, made from
 * its version @etag: "dirty" until it is saved, with nothing to undo; a
 * save to its own file passes @etag.
 * Returns: (transfer full): the archive, or %NULL with @error. */
MatArchive  *_mat_archive_new_restored    (GType                type,
                                           GBytes              *bytes,
                                           GFile               *file,
                                           const char          *etag,
                                           GError             **error);
/* Reads @file now (blocking: any thread) with mat_file_read_archive and
 * makes it, with the file's ETag; removes what killed saves left in its
 * folder. A file that is not on a local disk fails with
 * G_IO_ERROR_NOT_SUPPORTED. On failure the error's message is two lines
 * when the reader says what is wrong in plain words: that first ("The
 * file is cut short: 1,900 of 3,768 bytes."), then the exact detail.
 * Returns: (transfer full): the archive, or %NULL with @error. */
MatArchive  *_mat_archive_load            (GType                type,
                                           GFile               *file,
                                           GCancellable        *cancellable,
                                           GError             **error);
/* _mat_archive_load in a thread. */
void         _mat_archive_load_async      (GType                type,
                                           GFile               *file,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
/* Returns: (transfer full): the archive, or %NULL with @error. */
MatArchive  *_mat_archive_load_finish     (GAsyncResult        *result,
                                           GError             **error);

/* ---- the base ------------------------------------------------------------ */

/* Returns: (transfer none): the archive as loaded or last saved. */
const NresArchive *_mat_archive_get_base  (MatArchive          *self);
/* Bumped each time the base is replaced (1 for the first): an item made
 * from an older base refers to entries that are gone. */
guint        _mat_archive_get_generation  (MatArchive          *self);

/* ---- slots --------------------------------------------------------------- */

/* One directory entry as an archive holds it now. Shared (reference
 * counted) by the archive while it lists the slot and by the commands
 * that add it or change its payload. */
typedef struct {
  gint        source;      /* entry index in the base, -1: none */
  guint       generation;  /* of the base @source refers to */
  NresEntry   entry;       /* directory fields to write */
  GBytes     *payload;     /* the payload now */
  GBytes     *base;        /* the base's bytes of @source, or %NULL */
  GObject    *item;        /* what the subclass shows of it, or %NULL */
} MatArchiveSlot;

/* Returns: (transfer full): a slot of no entry (source -1). */
MatArchiveSlot *_mat_archive_slot_new     (void);
MatArchiveSlot *_mat_archive_slot_ref     (MatArchiveSlot      *slot);
void         _mat_archive_slot_unref      (gpointer             slot);
/* Whether @slot is the base's entry @slot->source (not a new entry, not
 * one of an older base). */
gboolean     _mat_archive_slot_in_base    (MatArchive          *self,
                                           const MatArchiveSlot *slot);
/* Where @slot's payload starts in the file of the base; 0 for a slot not
 * in the base (for the offsets of messages). */
gsize        _mat_archive_slot_offset     (MatArchive          *self,
                                           const MatArchiveSlot *slot);
/* One slot per entry of the base, in directory order: its fields, and
 * its payload the base's bytes.
 * Returns: (transfer full) (element-type MatArchiveSlot): the slots. */
GPtrArray   *_mat_archive_dup_base_slots  (MatArchive          *self);
/* A save plan writing @slots in order: each with its source in the base
 * and its payload (the base's own bytes need no copy).
 * Returns: (transfer full). */
MatSavePlan *_mat_archive_plan_slots      (MatArchive          *self,
                                           GPtrArray           *slots);
/* Returns: (transfer full): a new array referencing @slots, for the
 * snapshot vfunc. */
GPtrArray   *_mat_archive_snapshot_slots  (GPtrArray           *slots);
/* The rebase vfunc for slots: slot i of @snapshot is now entry i of
 * @archive, its fields and base bytes taken from it (and its payload too
 * when they are the same bytes). */
void         _mat_archive_rebase_slots    (MatArchive          *self,
                                           GPtrArray           *snapshot,
                                           const NresArchive   *archive);

G_END_DECLS
