/* mat-game-folder.h - the game folder: its models and who wears what
 *
 * The folder set in Preferences ("game-folder") or any folder given,
 * indexed as models.md 5 and 6 say (msh-index.h, mat-game-scan.h): every
 * file under it that starts with "NRes", read bounded, in a worker thread
 * that never holds up the main loop ("scanning", "progress"). It then
 * follows the folder with a file monitor on each of its folders, and
 * re-reads only the files that changed (size, time or inode), were added
 * or removed. An archive the editor holds edited (a WEAR edit not saved
 * yet) is indexed from the bytes it gives (mat_game_folder_update_archive
 * ()) until the file on disk changes or the editor drops them.
 *
 * A GListModel of MatGameModel: every model, archives by path, members in
 * directory order. "changed" is emitted after each update of the index
 * (the list, tables, who wears what, the lightmap library may differ).
 */
#pragma once

#include <gio/gio.h>

#include "mat-game-model.h"

G_BEGIN_DECLS

#define MAT_TYPE_GAME_FOLDER (mat_game_folder_get_type ())

G_DECLARE_FINAL_TYPE (MatGameFolder, mat_game_folder, MAT, GAME_FOLDER, GObject)

/* A material table without a model (terrain, sky: models.md 1) */
typedef struct {
  char   *archive;      /* its archive's path relative to the folder */
  GFile  *file;         /* the archive */
  char   *wear;         /* the member ("Land1.wea") */
  GStrv   materials;    /* its rows' names as written, in order */
  GStrv   problems;     /* its lints, the library's last */
} MatGameTable;

void          mat_game_table_free            (MatGameTable *table);

/* One model wearing a material */
typedef struct {
  MatGameModel *model;        /* a reference */
  guint         n_batches;    /* its batches drawn at rest naming it */
  guint         n_triangles;
} MatGameWearer;

/* Who wears a material (models.md 5) */
typedef struct {
  char      *name;             /* as the archives spell it (the name asked
                                  when none does) */
  GPtrArray *models;           /* (element-type MatGameWearer) drawn */
  GPtrArray *named_not_drawn;  /* (element-type MatGameModel) a row names
                                  it, no batch drawn at rest uses the row */
  GPtrArray *tables;           /* (element-type MatGameTable) */
} MatWornBy;

void          mat_worn_by_free               (MatWornBy    *worn_by);

/* A folder to index, or %NULL for none (yet). */
MatGameFolder *mat_game_folder_new           (GFile        *folder);
/* The folder of @settings' "game-folder", followed when it changes. */
MatGameFolder *mat_game_folder_new_for_settings (GSettings *settings);

/* Property "folder": setting another stops what runs and indexes it
 * from the start. Returns: (transfer none) (nullable). */
GFile        *mat_game_folder_get_folder     (MatGameFolder *self);
void          mat_game_folder_set_folder     (MatGameFolder *self,
                                              GFile         *folder);

/* Properties "scanning" (a worker reads the folder), "progress" (0..1 of
 * the files it looks at), "n-archives", "n-models", "lightmap-library"
 * (the folder's LightMap.lib, any case: at its top, else the least deep
 * one; %NULL without), "error" (why the folder cannot be read, %NULL
 * when it can). */
gboolean      mat_game_folder_get_scanning   (MatGameFolder *self);
double        mat_game_folder_get_progress   (MatGameFolder *self);
guint         mat_game_folder_get_n_archives (MatGameFolder *self);
guint         mat_game_folder_get_n_models   (MatGameFolder *self);
/* Returns: (transfer none) (nullable). */
GFile        *mat_game_folder_get_lightmap_library (MatGameFolder *self);
/* Returns: (nullable). */
const char   *mat_game_folder_get_error      (MatGameFolder *self);

/* What concerns whole files, one line each: archives that fail
 * formats.md 1 ("fortif.rlb: (header): offset 12: expected ..."), files
 * and folders that could not be read. Returns: (transfer full). */
GStrv         mat_game_folder_dup_problems   (MatGameFolder *self);

/* Looks at the whole folder again (re-reading only what changed). */
void          mat_game_folder_rescan         (MatGameFolder *self);
/* Stops the worker and forgets what was waiting; the index stays as it
 * was before the interrupted scan ("scanning" becomes %FALSE). */
void          mat_game_folder_cancel         (MatGameFolder *self);

/* The library for "worn but missing" lints (models.md 6): the bytes of
 * an NRes file (the open Material.lib as it would be saved), %NULL for
 * none. Returns: %FALSE (and none) when @library is not an archive. */
gboolean      mat_game_folder_set_library    (MatGameFolder *self,
                                              GBytes        *library);

/* The model @name names (its member name, else its stem) in @archive.
 * Returns: (transfer none) (nullable). */
MatGameModel *mat_game_folder_find_model     (MatGameFolder *self,
                                              GFile         *archive,
                                              const char    *name);
/* Who wears @material, ASCII case-insensitively.
 * Returns: (transfer full). */
MatWornBy    *mat_game_folder_where_used     (MatGameFolder *self,
                                              const char    *material);
/* Every material table without a model, archives by path.
 * Returns: (transfer full) (element-type MatGameTable). */
GPtrArray    *mat_game_folder_dup_tables     (MatGameFolder *self);

/* The editor holds @file (an archive of the folder) as @bytes: index it
 * from them, in the worker, after what is waiting ("changed" follows);
 * they stay its index until the file on disk changes (a save, another
 * program) or this is called again. @bytes %NULL: back to the file on
 * disk. Returns: %FALSE when @file is not in the folder. */
gboolean      mat_game_folder_update_archive (MatGameFolder *self,
                                              GFile         *file,
                                              GBytes        *bytes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MatGameTable, mat_game_table_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MatWornBy, mat_worn_by_free)

G_END_DECLS
