/* mat-game-folder-private.h - inside the game folder's index: the items'
 * constructor, and what tests look at */
#pragma once

#include "mat-game-folder.h"
#include "msh-index.h"

G_BEGIN_DECLS

/* An item for @model of @archive (a reference is taken), whose file is
 * @file; @source: the archive's bytes when it was indexed from them. */
MatGameModel        *_mat_game_model_new             (MshIndexArchive     *archive,
                                                      const MshIndexModel *model,
                                                      GFile               *file,
                                                      GBytes              *source);
const MshIndexModel *_mat_game_model_get_index_model (MatGameModel        *self);

/* For tests: how many files the worker has read (opened past their
 * signature check) since the folder was made. */
guint                _mat_game_folder_get_n_reads    (MatGameFolder       *self);
/* For tests: the worker sleeps @ms before reading each file, so that a
 * scan lasts. */
void                 _mat_game_folder_set_read_delay (MatGameFolder       *self,
                                                      guint                ms);
/* For tests: how long changes seen by the monitors wait before they are
 * looked at (200 ms by default). */
void                 _mat_game_folder_set_settle_time (MatGameFolder      *self,
                                                       guint               ms);

G_END_DECLS
