/* mat-game-model.c - one model of a game folder, as the index reads it */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat-game-folder-private.h"
#include "mat-game-model.h"
#include "mat-game-scan.h"

struct _MatGameModel {
  GObject          parent_instance;

  MshIndexArchive *archive;   /* a reference: holds the model */
  const MshIndexModel *model;
  GFile           *file;
  GBytes          *source;    /* (nullable) the archive's bytes, when it
                                 was indexed from them */
  MatGameRow      *rows;
};

G_DEFINE_FINAL_TYPE (MatGameModel, mat_game_model, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ARCHIVE,
  PROP_FILE,
  PROP_MEMBER,
  PROP_STEM,
  PROP_WEAR,
  PROP_N_NODES,
  PROP_N_DRAWN_NODES,
  PROP_N_DRAWN_BATCHES,
  PROP_N_DRAWN_TRIANGLES,
  PROP_VALID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
mat_game_model_finalize (GObject *object)
{
  MatGameModel *self = MAT_GAME_MODEL (object);

  g_free (self->rows);
  g_clear_object (&self->file);
  g_clear_pointer (&self->source, g_bytes_unref);
  g_clear_pointer (&self->archive, msh_index_archive_unref);

  G_OBJECT_CLASS (mat_game_model_parent_class)->finalize (object);
}

static void
mat_game_model_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  MatGameModel *self = MAT_GAME_MODEL (object);

  switch (prop_id)
    {
    case PROP_ARCHIVE:
      g_value_set_string (value, mat_game_model_get_archive_path (self));
      break;
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_MEMBER:
      g_value_set_string (value, self->model->member);
      break;
    case PROP_STEM:
      g_value_set_string (value, self->model->stem);
      break;
    case PROP_WEAR:
      g_value_set_string (value, self->model->wear);
      break;
    case PROP_N_NODES:
      g_value_set_int (value, mat_game_model_get_n_nodes (self));
      break;
    case PROP_N_DRAWN_NODES:
      g_value_set_uint (value, self->model->n_drawn_nodes);
      break;
    case PROP_N_DRAWN_BATCHES:
      g_value_set_uint (value, self->model->n_drawn_batches);
      break;
    case PROP_N_DRAWN_TRIANGLES:
      g_value_set_uint (value, self->model->n_drawn_triangles);
      break;
    case PROP_VALID:
      g_value_set_boolean (value, self->model->valid);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_game_model_class_init (MatGameModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = mat_game_model_finalize;
  object_class->get_property = mat_game_model_get_property;

  properties[PROP_ARCHIVE] = g_param_spec_string ("archive", NULL, NULL, NULL, flags);
  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, flags);
  properties[PROP_MEMBER] = g_param_spec_string ("member", NULL, NULL, NULL, flags);
  properties[PROP_STEM] = g_param_spec_string ("stem", NULL, NULL, NULL, flags);
  properties[PROP_WEAR] = g_param_spec_string ("wear", NULL, NULL, NULL, flags);
  properties[PROP_N_NODES] = g_param_spec_int ("n-nodes", NULL, NULL, -1, G_MAXINT, -1, flags);
  properties[PROP_N_DRAWN_NODES] =
    g_param_spec_uint ("n-drawn-nodes", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_N_DRAWN_BATCHES] =
    g_param_spec_uint ("n-drawn-batches", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_N_DRAWN_TRIANGLES] =
    g_param_spec_uint ("n-drawn-triangles", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_VALID] = g_param_spec_boolean ("valid", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mat_game_model_init (MatGameModel *self)
{
}

MatGameModel *
_mat_game_model_new (MshIndexArchive     *archive,
                     const MshIndexModel *model,
                     GFile               *file,
                     GBytes              *source)
{
  MatGameModel *self;

  g_return_val_if_fail (archive != NULL, NULL);
  g_return_val_if_fail (model != NULL && model->archive == archive, NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = g_object_new (MAT_TYPE_GAME_MODEL, NULL);
  self->archive = msh_index_archive_ref (archive);
  self->model = model;
  self->file = g_object_ref (file);
  self->source = source != NULL ? g_bytes_ref (source) : NULL;
  self->rows = g_new0 (MatGameRow, MAX (model->n_rows, 1));
  for (guint r = 0; r < model->n_rows; r++)
    self->rows[r] = (MatGameRow) { r, model->rows[r].id, model->rows[r].material,
                                   model->rows[r].n_batches, model->rows[r].n_triangles };

  return self;
}

const MshIndexModel *
_mat_game_model_get_index_model (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), NULL);

  return self->model;
}

const char *
mat_game_model_get_archive_path (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), NULL);

  return self->archive->path;
}

GFile *
mat_game_model_get_file (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), NULL);

  return self->file;
}

const char *
mat_game_model_get_member (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), NULL);

  return self->model->member;
}

const char *
mat_game_model_get_stem (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), NULL);

  return self->model->stem;
}

const char *
mat_game_model_get_wear (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), NULL);

  return self->model->wear;
}

gint
mat_game_model_get_n_nodes (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), -1);

  return self->model->nodes_readable ? (gint) self->model->n_nodes : -1;
}

guint
mat_game_model_get_n_drawn_nodes (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), 0);

  return self->model->n_drawn_nodes;
}

guint
mat_game_model_get_n_drawn_batches (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), 0);

  return self->model->n_drawn_batches;
}

guint
mat_game_model_get_n_drawn_triangles (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), 0);

  return self->model->n_drawn_triangles;
}

gboolean
mat_game_model_get_valid (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), FALSE);

  return self->model->valid;
}

gboolean
mat_game_model_get_bounds (MatGameModel *self,
                           float         min[3],
                           float         max[3])
{
  gboolean has = FALSE;

  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), FALSE);

  has = self->model->valid && self->model->has_bounds;
  for (guint k = 0; k < 3; k++)
    {
      min[k] = has ? self->model->bounds_min[k] : 0;
      max[k] = has ? self->model->bounds_max[k] : 0;
    }
  return has;
}

guint
mat_game_model_get_n_rows (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), 0);

  return self->model->n_rows;
}

const MatGameRow *
mat_game_model_get_row (MatGameModel *self,
                        guint         row)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), NULL);
  g_return_val_if_fail (row < self->model->n_rows, NULL);

  return &self->rows[row];
}

gboolean
mat_game_model_wears (MatGameModel *self,
                      const char   *material,
                      guint        *n_batches,
                      guint        *n_triangles)
{
  guint batches = 0, triangles = 0;

  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), FALSE);
  g_return_val_if_fail (material != NULL, FALSE);

  for (guint r = 0; r < self->model->n_rows; r++)
    if (self->rows[r].material[0] != '\0' &&
        g_ascii_strcasecmp (self->rows[r].material, material) == 0)
      {
        batches += self->rows[r].n_batches;
        triangles += self->rows[r].n_triangles;
      }
  if (n_batches != NULL)
    *n_batches = batches;
  if (n_triangles != NULL)
    *n_triangles = triangles;
  return batches > 0;
}

const char * const *
mat_game_model_get_lightmaps (MatGameModel *self)
{
  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), NULL);

  return (const char * const *) self->model->lightmaps;
}

GStrv
mat_game_model_dup_problems (MatGameModel *self,
                             gboolean     *has_error)
{
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();
  const GPtrArray *lists[2];

  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), NULL);

  lists[0] = self->model->problems;
  lists[1] = self->model->library_problems;
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; i < lists[l]->len; i++)
      g_strv_builder_add (lines, ((const MshProblem *) lists[l]->pdata[i])->message);
  if (has_error != NULL)
    *has_error = msh_index_model_has_error (self->model);
  return g_strv_builder_end (lines);
}

GBytes *
mat_game_model_read_mesh (MatGameModel  *self,
                          guint32       *offset,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (MAT_IS_GAME_MODEL (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (offset != NULL)
    *offset = self->model->offset;
  if (self->source != NULL)
    return g_bytes_new_from_bytes (self->source, self->model->offset, self->model->size);
  path = g_file_get_path (self->file);
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("Only files on a local disk can be read"));
      return NULL;
    }
  return mat_game_scan_read_member (path, self->model->offset, self->model->size,
                                    cancellable, error);
}
