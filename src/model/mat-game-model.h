/* mat-game-model.h - one model of a game folder, as the index reads it
 *
 * An item of MatGameFolder's list: a MESH member of an archive of the
 * folder, with its wear, what it draws at rest (counts and bounds), the
 * rows of its wear with how many drawn batches use each, and its
 * problems (models.md 2 and 3; the library's "worn but missing" lints
 * follow MatGameFolder's library). Immutable: when its archive changes,
 * the folder replaces the item with a new one.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define MAT_TYPE_GAME_MODEL (mat_game_model_get_type ())

G_DECLARE_FINAL_TYPE (MatGameModel, mat_game_model, MAT, GAME_MODEL, GObject)

/* A row of the model's wear, by position */
typedef struct {
  guint       row;
  const char *id;           /* the id as written */
  const char *material;     /* the name as written; "" when the row has none */
  guint       n_batches;    /* batches drawn at rest that use the row (0:
                               "named, not drawn") */
  guint       n_triangles;
} MatGameRow;

/* Properties (read-only): "archive" (the archive's path relative to the
 * folder, '/' between folders), "file" (the archive's GFile), "member"
 * ("tree.msh"), "stem" ("tree"), "wear" ("tree.wea", %NULL without),
 * "n-nodes", "n-drawn-nodes", "n-drawn-batches", "n-drawn-triangles",
 * "valid" (no error: drawn at rest; the counts but n-nodes are 0 otherwise). */
const char   *mat_game_model_get_archive_path      (MatGameModel *self);
/* Returns: (transfer none). */
GFile        *mat_game_model_get_file              (MatGameModel *self);
const char   *mat_game_model_get_member            (MatGameModel *self);
const char   *mat_game_model_get_stem              (MatGameModel *self);
/* Returns: (nullable). */
const char   *mat_game_model_get_wear              (MatGameModel *self);
/* -1 when stream 1 could not be read. */
gint          mat_game_model_get_n_nodes           (MatGameModel *self);
guint         mat_game_model_get_n_drawn_nodes     (MatGameModel *self);
guint         mat_game_model_get_n_drawn_batches   (MatGameModel *self);
guint         mat_game_model_get_n_drawn_triangles (MatGameModel *self);
gboolean      mat_game_model_get_valid             (MatGameModel *self);
/* The box of what is drawn at rest, model space (Z up). Returns %FALSE
 * (and zeros) when nothing is drawn. */
gboolean      mat_game_model_get_bounds            (MatGameModel *self,
                                                    float         min[3],
                                                    float         max[3]);

guint         mat_game_model_get_n_rows            (MatGameModel *self);
/* Returns: (transfer none): row @row (below mat_game_model_get_n_rows ()),
 * valid as long as the model. */
const MatGameRow *mat_game_model_get_row           (MatGameModel *self,
                                                    guint         row);
/* The drawn batches and triangles whose row names @material (ASCII
 * case-insensitively). Returns: whether any does. */
gboolean      mat_game_model_wears                 (MatGameModel *self,
                                                    const char   *material,
                                                    guint        *n_batches,
                                                    guint        *n_triangles);
/* The names of the wear's LIGHTMAPS pages. Returns: (transfer none). */
const char * const *mat_game_model_get_lightmaps   (MatGameModel *self);

/* Every problem, one line each ("tree.msh: stream 13: offset 84:
 * expected ..."): the model's, its wear's, then the library's.
 * @has_error: (out) (optional): whether one is an error (nothing drawn).
 * Returns: (transfer full). */
GStrv         mat_game_model_dup_problems          (MatGameModel *self,
                                                    gboolean     *has_error);

/* The model's MESH payload, for drawing it (msh_model_read () with
 * @offset as its base offset): read from the archive on disk, bounded,
 * or taken from the bytes the editor gave MatGameFolder for it.
 * @offset: (out) (optional): where the payload starts in the archive.
 * Returns: (transfer full): the payload, or %NULL with @error. */
GBytes       *mat_game_model_read_mesh             (MatGameModel  *self,
                                                    guint32       *offset,
                                                    GCancellable  *cancellable,
                                                    GError       **error);

G_END_DECLS
