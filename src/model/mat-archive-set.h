/* mat-archive-set.h - the archives open for editing, one per file
 *
 * What opens archives for editing that no one window owns (the .rlb
 * model archives of the game folder, which every window's "Wear on…"
 * edits) keeps them here:
 *
 *  - one archive per file: mat_archive_set_lookup() finds the one open
 *    for a file, so every view edits that one and its history;
 *  - "dirty" and "n-dirty": whether any of them has unsaved edits, and
 *    how many, notified when that changes;
 *  - mat_archive_set_dup_dirty(): those archives, for the unsaved-changes
 *    prompt (closing the last window, quitting), each then saved with
 *    mat_archive_save_async() or its edits discarded.
 *
 * A GListModel of MatArchive in the order they were added; the set
 * holds a reference to each until it is removed.
 */
#pragma once

#include <gio/gio.h>

#include "mat-archive.h"

G_BEGIN_DECLS

#define MAT_TYPE_ARCHIVE_SET (mat_archive_set_get_type ())

G_DECLARE_FINAL_TYPE (MatArchiveSet, mat_archive_set, MAT, ARCHIVE_SET, GObject)

/* Returns: (transfer full): an empty set. */
MatArchiveSet *mat_archive_set_new        (void);
/* Adds @archive at the end (once: one in the set already stays where it
 * is). Look up its file first: two archives of one file would edit it
 * against each other. */
void           mat_archive_set_add        (MatArchiveSet *self,
                                           MatArchive    *archive);
/* Returns: whether @archive was in the set (and is no longer). */
gboolean       mat_archive_set_remove     (MatArchiveSet *self,
                                           MatArchive    *archive);
/* Returns: (transfer none) (nullable): the archive of @file (compared
 * with g_file_equal), the first added when a save-as made two. */
MatArchive    *mat_archive_set_lookup     (MatArchiveSet *self,
                                           GFile         *file);
/* TRUE iff an archive of the set has unsaved edits. */
gboolean       mat_archive_set_get_dirty  (MatArchiveSet *self);
guint          mat_archive_set_get_n_dirty (MatArchiveSet *self);
/* Returns: (transfer full) (element-type MatArchive): the archives with
 * unsaved edits, in the set's order (possibly none). */
GPtrArray     *mat_archive_set_dup_dirty  (MatArchiveSet *self);

G_END_DECLS
