/* mat-document.h - one library file as the editor has it open
 *
 * The document owns the file, the library loaded from it (with its ETag),
 * the monitor that notices another program writing the file, and the
 * Textures.lib found for it. Loading and saving go through here, with
 * flags such as "write even though the file changed on disk"; a window
 * only shows what the document holds.
 *
 * Textures.lib is looked for, in this order:
 *  1. beside the library (any case of the name);
 *  2. in the game folder (settings key "game-folder");
 *  3. the file chosen for this library (settings key "chosen-textures",
 *     a dictionary from the library's file to its Textures.lib, both as
 *     g_file_get_parse_name() strings): the user's choice in the texture
 *     picker, or the Textures.lib the library showed before a save-as to
 *     another folder found nothing closer.
 * The first that loads wins; the search runs again (in a thread) when the
 * file changes, the game folder changes or the choice changes, and
 * "textures" / "textures-source" tell what it found.
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

/* Where the Textures.lib of a document was found. */
typedef enum {
  MAT_TEXTURES_SOURCE_NONE,         /* nowhere (yet) */
  MAT_TEXTURES_SOURCE_BESIDE,       /* in the library's folder */
  MAT_TEXTURES_SOURCE_GAME_FOLDER,  /* in the game folder */
  MAT_TEXTURES_SOURCE_CHOSEN,       /* the file chosen for this library */
} MatTexturesSource;

#define MAT_TYPE_TEXTURES_SOURCE (mat_textures_source_get_type ())
GType mat_textures_source_get_type (void) G_GNUC_CONST;

#define MAT_TYPE_DOCUMENT (mat_document_get_type ())

G_DECLARE_FINAL_TYPE (MatDocument, mat_document, MAT, DOCUMENT, GObject)

/* Returns: (transfer full): an empty document (no file, no library)
 * without settings: Textures.lib is only looked for beside the library
 * (and a choice lasts as long as the document). */
MatDocument       *mat_document_new               (void);
/* @settings: (nullable) settings of the schema io.github.parkan.MatEdit
 * (keys "game-folder" and "chosen-textures"; a schema without them is
 * the same as none). Returns: (transfer full): an empty document. */
MatDocument       *mat_document_new_with_settings (GSettings            *settings);

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

/* Holds @library, restored from a draft (mat_library_new_restored: its
 * unsaved changes to its file), as if it had been loaded: the document
 * watches the file, looks for Textures.lib, and looks at the file at
 * once ("disk-state" CHANGED when another program wrote it since the
 * version the draft was made from). A load running is given up. */
void               mat_document_restore           (MatDocument          *self,
                                                   MatLibrary           *library);

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
/* Returns: (transfer none) (nullable): the Textures.lib found for the
 * library's file (see the search order above) and loaded, once it is. */
MatTextureLibrary *mat_document_get_textures      (MatDocument          *self);
/* Where "textures" came from; MAT_TEXTURES_SOURCE_NONE without them. */
MatTexturesSource  mat_document_get_textures_source (MatDocument        *self);
/* TRUE while Textures.lib is being looked for ("finding-textures"). */
gboolean           mat_document_get_finding_textures (MatDocument       *self);
/* Returns: (transfer none) (nullable): the settings given at creation. */
GSettings         *mat_document_get_settings      (MatDocument          *self);
/* Returns: (transfer none) (nullable): the Textures.lib chosen for this
 * library (the third place looked at), whether or not it is used. */
GFile             *mat_document_get_chosen_textures (MatDocument        *self);
/* The user chose @textures (loaded from a file) for this library: it is
 * remembered for the library's file (in "chosen-textures" with settings)
 * and used unless a Textures.lib is found beside the library or in the
 * game folder. @textures itself becomes "textures" then, without being
 * read again. */
void               mat_document_choose_textures   (MatDocument          *self,
                                                   MatTextureLibrary    *textures);
/* @textures (with a file) was made for this library, where none was
 * found (the texture window creates an empty Textures.lib beside it): it
 * becomes "textures" at once, without a search and without being read
 * again, so its edits and saves are the document's. Beside the library it
 * is what a search finds there ("textures-source" BESIDE); anywhere else
 * it is remembered as the choice for this library, as
 * mat_document_choose_textures() does (CHOSEN). A search still running is
 * given up. */
void               mat_document_adopt_textures    (MatDocument          *self,
                                                   MatTextureLibrary    *textures);

/* @textures, restored from a draft of this library's Textures.lib,
 * becomes "textures" at once: where the search found that file already,
 * with the same "textures-source" (a search running is given up), else
 * as mat_document_adopt_textures() takes it. Call it once a search has
 * ended ("finding-textures" FALSE). */
void               mat_document_restore_textures  (MatDocument          *self,
                                                   MatTextureLibrary    *textures);

/* A file as the settings keep it: g_file_get_parse_name() (a path for a
 * local file, else a URI; valid UTF-8). Returns: (transfer full) */
char              *mat_document_file_to_setting   (GFile                *file);
/* The file of a settings value: an absolute path, "~/..." or a URI;
 * %NULL for "" and for anything else (a relative path).
 * Returns: (transfer full) (nullable) */
GFile             *mat_document_file_from_setting (const char           *value);

G_END_DECLS
