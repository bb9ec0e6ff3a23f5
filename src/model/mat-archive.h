/* mat-archive.h - an NRes archive open for editing: the store every
 * editable archive is built on
 *
 * What every archive the editor edits has, whatever its entries mean,
 * lives here once:
 *
 *  - the base: the archive as loaded or last saved, read from a local
 *    file bounded by its directory (mat_file_read_archive: a FIFO or a
 *    device is refused at once, unindexed gigabytes are read only when a
 *    save needs them), and a generation number bumped whenever the base
 *    is replaced;
 *  - the file, its ETag and the temporaries of killed saves the load
 *    removed from its folder;
 *  - the MatHistory every edit goes through, and "dirty": whether the
 *    history's state differs from the one of the last load or save;
 *  - the save: the bytes the preserving writer makes of the state now
 *    over the base, written with mat_file_replace (atomic, the ETag of
 *    the version loaded so a file changed on disk is refused, backups);
 *    after a save the written bytes become the new base and the items
 *    are re-pointed at them;
 *  - the MatDraftable interface, so the draft store keeps its unsaved
 *    edits.
 *
 * Subclasses (MatLibrary, MatTextureLibrary, MatModelArchive) say what
 * the entries are: they make their items from the base, say what a save
 * writes and follow a save. Their own load and save functions are these
 * with their type; the functions here work on any of them.
 *
 * Properties (read-only, notified when they change): "file" (GFile),
 * "etag" (string), "dirty" (boolean), "history" (MatHistory).
 */
#pragma once

#include <gio/gio.h>

#include "nres.h"

#include "mat-draftable.h"
#include "mat-file.h"
#include "mat-history.h"

G_BEGIN_DECLS

#define MAT_TYPE_ARCHIVE (mat_archive_get_type ())

G_DECLARE_DERIVABLE_TYPE (MatArchive, mat_archive, MAT, ARCHIVE, GObject)

/* For the model's own subclasses (no padding: not a public ABI). */
struct _MatArchiveClass
{
  GObjectClass parent_class;

  /* The draft index's name of the kind (MAT_DRAFT_KIND_*). */
  const char  *draft_kind;

  /* Makes the items from the base (_mat_archive_get_base), once, when
   * the archive is made (not a file's load: that is done by then); any
   * thread. %FALSE with @error: the archive is not made. */
  gboolean     (*load)            (MatArchive         *self,
                                   GError            **error);
  /* What a save writes now (_mat_save_plan_new over the base); main
   * thread, quick. */
  MatSavePlan *(*plan_save)       (MatArchive         *self);
  /* The items the plan now holds, entry by entry (a new array holding
   * references): a save hands them back to rebase once it is written. */
  GPtrArray   *(*snapshot)        (MatArchive         *self);
  /* A save wrote the items of @snapshot as @archive (item i is entry i),
   * which is the base now, of the generation _mat_archive_get_generation
   * () tells: the items take their entries and payloads from it. */
  void         (*rebase)          (MatArchive         *self,
                                   GPtrArray          *snapshot,
                                   const NresArchive  *archive);
  /* Optional: after every edit, undo and redo, before "dirty" follows
   * (for caches of the state). */
  void         (*history_changed) (MatArchive         *self);
};

/* Saves to @file, or to the archive's own file when %NULL, through
 * mat_file_replace (atomic; a failed save leaves the file as it was).
 * Writing over the file it was loaded from passes the ETag from the load
 * (or the last save): a file changed on disk fails with
 * G_IO_ERROR_WRONG_ETAG and is left as it is, unless @flags has
 * MAT_SAVE_IGNORE_CHANGES. MAT_SAVE_BACKUP keeps the previous file as
 * FILE.bak. Without a file it fails with MAT_MODEL_ERROR_NO_FILE. On
 * success the archive is clean, remembers @file and its new ETag, and
 * the written bytes become its new base; on failure nothing changes
 * (edits, unsaved state, file, ETag). */
void         mat_archive_save_async       (MatArchive           *self,
                                           GFile                *file,
                                           MatSaveFlags          flags,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
/* @notes: (out) (optional): what the user may want to know of a save
 * that succeeded (MAT_SAVE_NOTE_LINKS_DETACHED). */
gboolean     mat_archive_save_finish      (MatArchive           *self,
                                           GAsyncResult         *result,
                                           MatSaveNotes         *notes,
                                           GError              **error);
/* The bytes a save would write now (the preserving writer over the
 * base): an unchanged archive gives the loaded bytes back. Does not mark
 * the archive saved.
 * Returns: (transfer full): the file, or %NULL with the writer's error
 * (an unindexed region of the file that is no longer the version read:
 * G_IO_ERROR_WRONG_ETAG). */
GBytes      *mat_archive_save_to_bytes    (MatArchive           *self,
                                           GError              **error);

/* Returns: (transfer none) (nullable): the file it was loaded from or
 * last saved to. */
GFile       *mat_archive_get_file         (MatArchive           *self);
/* Returns: (transfer none) (nullable): the ETag of the version loaded or
 * last saved. */
const char  *mat_archive_get_etag         (MatArchive           *self);
/* TRUE iff the state differs from the last load or save (an archive
 * restored from a draft is dirty until it is saved). */
gboolean     mat_archive_get_dirty        (MatArchive           *self);
/* Returns: (transfer none): the undo history of its edits. */
MatHistory  *mat_archive_get_history      (MatArchive           *self);
/* How many temporary files of killed saves the load removed from the
 * archive's folder (mat_file_remove_stale_temporaries): a note to show
 * once. */
guint        mat_archive_get_removed_temporaries (MatArchive    *self);

G_END_DECLS
