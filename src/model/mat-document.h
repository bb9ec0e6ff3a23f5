/* mat-document.h - one library file as the editor has it open
 *
 * The document owns the file, the library loaded from it (with its ETag),
 * the monitor that notices another program writing the file, and the
 * Textures.lib found beside it. Loading and saving go through here, with
 * flags such as "write even though the file changed on disk"; a window
 * only shows what the document holds.
 */
#pragma once

#include <gio/gio.h>

#include "mat-file.h"
#include "mat-library.h"
#include "mat-texture-library.h"

G_BEGIN_DECLS

typedef enum {
  MAT_DISK_STATE_SAME,      /* the file is as loaded or last saved */
  MAT_DISK_STATE_CHANGED,   /* another program wrote it */
  MAT_DISK_STATE_DELETED,   /* it was deleted or moved away */
} MatDiskState;

#define MAT_TYPE_DISK_STATE (mat_disk_state_get_type ())
GType mat_disk_state_get_type (void) G_GNUC_CONST;

#define MAT_TYPE_DOCUMENT (mat_document_get_type ())

G_DECLARE_FINAL_TYPE (MatDocument, mat_document, MAT, DOCUMENT, GObject)

/* Returns: (transfer full): an empty document (no file, no library). */
MatDocument       *mat_document_new               (void);

/* Loads @file (mat_library_load_async). On success the document holds
 * the new library, @file and its ETag, watches the file and looks for
 * Textures.lib beside it; on failure it keeps what it held before. A
 * load started while another runs cancels that one. */
void               mat_document_load_async        (MatDocument          *self,
                                                   GFile                *file,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean           mat_document_load_finish       (MatDocument          *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);

/* Saves the library to @file, or to its own file when %NULL
 * (mat_library_save_async: one atomic replace; a failed save leaves the
 * file, the edits and the unsaved state as they were). "Overwrite" after
 * a change on disk is one save with MAT_SAVE_IGNORE_CHANGES. */
void               mat_document_save_async        (MatDocument          *self,
                                                   GFile                *file,
                                                   MatSaveFlags          flags,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean           mat_document_save_finish       (MatDocument          *self,
                                                   GAsyncResult         *result,
                                                   MatSaveNotes         *notes,
                                                   GError              **error);

/* Returns: (transfer none) (nullable): the library, %NULL before the
 * first successful load. */
MatLibrary        *mat_document_get_library       (MatDocument          *self);
/* Returns: (transfer none) (nullable): the library's file. */
GFile             *mat_document_get_file          (MatDocument          *self);
/* Returns: (transfer none) (nullable): the ETag of the version loaded or
 * last saved. */
const char        *mat_document_get_etag          (MatDocument          *self);
/* TRUE while a load or a save runs. */
gboolean           mat_document_get_busy          (MatDocument          *self);
gboolean           mat_document_get_loading       (MatDocument          *self);
gboolean           mat_document_get_saving        (MatDocument          *self);
/* What the monitor saw of the file since the last load or save. */
MatDiskState       mat_document_get_disk_state    (MatDocument          *self);
/* Looks at the file now instead of waiting for the monitor; the answer
 * arrives as a change of "disk-state". */
void               mat_document_check_disk        (MatDocument          *self);
/* Returns: (transfer none) (nullable): the Textures.lib found beside the
 * library's file and loaded, once it is. */
MatTextureLibrary *mat_document_get_textures      (MatDocument          *self);

G_END_DECLS
