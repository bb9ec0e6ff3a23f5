/* mat0tool-models.c - `models`, `where-used` and `wear` (cli.md "Models")
 *
 * models DIR [--json] [--library LIB]
 * where-used DIR NAME [--json] [--library LIB]
 *     The index of the game folder DIR (models.md 5 and 6, msh-index.h):
 *     every file under DIR whose first four bytes are "NRes", read bounded
 *     (header, directory, MESH and WEAR members: mat-game-scan.h). An
 *     archive that fails its checks is reported once (stderr, and the
 *     document's "problems") and contributes nothing. Paths in the output
 *     are relative to DIR, with '/'. The library for "worn but missing"
 *     lints is LIB, else DIR/Material.lib (any case), else none.
 * wear ARCHIVE MODEL [--json]
 *     The model's WEAR rows, and which a batch drawn at rest uses.
 * wear ARCHIVE MODEL ROW=NAME... -o OUT
 *     Row ROW names NAME: only the name's bytes change (wear.h), the
 *     archive is written with the preserving writer and the safe save.
 *
 * Exit codes: models 1 when a model or an archive has an error (lints
 * alone: 0); where-used 0 when a batch drawn at rest wears NAME, 1 when
 * none does; wear 1 for an unknown model or one without a wear, and with
 * assignments 2 for a bad row or name. Any of them 2 for usage and I/O
 * errors, a file or folder under DIR that cannot be read included (the
 * answer would be incomplete).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "cp1251.h"
#include "mat-file.h"
#include "mat-game-scan.h"
#include "mat0tool.h"
#include "msh-index.h"
#include "wear.h"

static char *opt_library;

static const GOptionEntry model_entries[] = {
  { "library", 0, 0, G_OPTION_ARG_FILENAME, &opt_library,
    "models, where-used: the Material.lib for \"worn but missing\" lints", "LIB" },
  G_OPTION_ENTRY_NULL
};

GOptionGroup *
mt_models_option_group (void)
{
  GOptionGroup *group = g_option_group_new ("models", "Options of models and where-used:",
                                            "Show the options of models and where-used",
                                            NULL, NULL);

  g_option_group_add_entries (group, model_entries);
  return group;
}

static int
usage (const char *format, ...) G_GNUC_PRINTF (1, 2);

static int
usage (const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  mt_printerr ("mat0tool: %s", message);
  fprintf (stderr, "Try 'mat0tool --help'.\n");
  return MT_EXIT_USAGE;
}

static void
print_json (JsonNode *node)
{
  g_autofree char *text = mt_json_to_string (node, TRUE);

  printf ("%s\n", text);
}

/* ---- The folder ------------------------------------------------------------ */

typedef struct {
  char     *dir;          /* as given */
  MshIndex *index;
  GPtrArray *problems;    /* (element-type utf8) "PATH: message" of the
                             archives that fail their checks and of what
                             could not be read, paths relative to DIR */
  gboolean  io_failed;
  gboolean  has_error;    /* an archive or a model with an error */
} Folder;

static void
folder_free (Folder *folder)
{
  g_free (folder->dir);
  g_clear_pointer (&folder->index, msh_index_free);
  g_clear_pointer (&folder->problems, g_ptr_array_unref);
  g_free (folder);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Folder, folder_free)

/* A problem of DIR: printed as "DIR/PATH: message", kept as
 * "PATH: message". */
static void
folder_problem (Folder     *folder,
                const char *problem)
{
  g_ptr_array_add (folder->problems, g_strdup (problem));
  mt_printerr ("%s/%s", folder->dir, problem);
}

/* Reads the library LIB (or DIR/Material.lib when LIB is %NULL and
 * there is one). An explicit LIB that cannot be read stops the command
 * (*status); the folder's own is an archive of the folder, reported
 * with the others. */
static gboolean
load_library (Folder            *folder,
              const MatScanWalk *walk,
              int               *status)
{
  const MatScanFile *own = NULL;
  g_autoptr(GError) error = NULL;
  NresArchive *library;
  const char *path = opt_library;

  if (path == NULL)
    {
      own = mat_game_scan_find (walk, "Material.lib", TRUE);
      if (own == NULL)
        return TRUE;
      path = own->file;
    }
  library = mat_file_read_archive (path, NULL, NULL, NULL, &error);
  if (library == NULL)
    {
      if (own != NULL)
        return TRUE;
      mt_printerr ("%s: %s", path, error->message);
      *status = error->domain == NRES_ERROR ? MT_EXIT_INVALID : MT_EXIT_USAGE;
      return FALSE;
    }
  msh_index_set_library (folder->index, library);
  return TRUE;
}

/* Indexes DIR. Returns: (transfer full): the folder, or %NULL with
 * *status set (DIR is not a folder, LIB cannot be read). */
static Folder *
folder_load (const char *dir,
             int        *status)
{
  g_autoptr(Folder) folder = g_new0 (Folder, 1);
  g_autoptr(MatScanWalk) walk = NULL;
  g_autoptr(GError) error = NULL;

  folder->dir = g_strdup (dir);
  folder->index = msh_index_new ();
  folder->problems = g_ptr_array_new_with_free_func (g_free);

  walk = mat_game_scan_walk (dir, NULL, NULL, &error);
  if (walk == NULL)
    {
      mt_printerr ("%s: %s", dir, error->message);
      *status = MT_EXIT_USAGE;
      return NULL;
    }
  for (guint i = 0; i < walk->problems->len; i++)
    {
      folder_problem (folder, walk->problems->pdata[i]);
      folder->io_failed = TRUE;
    }

  for (guint i = 0; i < walk->files->len; i++)
    {
      MatScanFile *file = walk->files->pdata[i];
      MshIndexArchive *archive;

      g_clear_error (&error);
      archive = mat_game_scan_read (file, NULL, NULL, &error);
      if (archive == NULL)
        {
          if (error != NULL)
            {
              g_autofree char *problem = g_strdup_printf ("%s: %s", file->path, error->message);

              folder_problem (folder, problem);
              folder->io_failed = TRUE;
            }
          continue;
        }
      if (archive->failed)
        {
          g_autofree char *problem = g_strdup_printf ("%s: %s", file->path, archive->error);

          folder_problem (folder, problem);
          folder->has_error = TRUE;
        }
      msh_index_add (folder->index, archive);
    }

  if (!load_library (folder, walk, status))
    return NULL;

  /* the models' errors, once each, on stderr */
  for (guint a = 0; a < msh_index_n_archives (folder->index); a++)
    {
      MshIndexArchive *archive = msh_index_get_archive (folder->index, a);

      for (guint m = 0; m < archive->models->len; m++)
        {
          const MshIndexModel *model = archive->models->pdata[m];

          for (guint p = 0; p < model->problems->len; p++)
            {
              const MshProblem *problem = model->problems->pdata[p];

              if (problem->severity == MSH_SEVERITY_ERROR)
                {
                  mt_printerr ("%s/%s: %s", dir, archive->path, problem->message);
                  folder->has_error = TRUE;
                }
            }
        }
    }

  return g_steal_pointer (&folder);
}

/* ---- JSON ------------------------------------------------------------------- */

static void
add_string_or_null (JsonBuilder *b,
                    const char  *member,
                    const char  *value)
{
  json_builder_set_member_name (b, member);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_id (JsonBuilder       *b,
        const MshIndexRow *row)
{
  json_builder_set_member_name (b, "id");
  /* a number when it is one, else the raw token (models.md 3) */
  if (row->id_value >= 0 && row->id_value < G_MAXINT64)
    json_builder_add_int_value (b, row->id_value);
  else
    json_builder_add_string_value (b, row->id);
}

static void
add_rows (JsonBuilder       *b,
          const MshIndexRow *rows,
          guint              n_rows)
{
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint r = 0; r < n_rows; r++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "row");
      json_builder_add_int_value (b, r);
      add_id (b, &rows[r]);
      json_builder_set_member_name (b, "material");
      json_builder_add_string_value (b, rows[r].material);
      json_builder_set_member_name (b, "drawn");
      json_builder_add_boolean_value (b, rows[r].n_batches > 0);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_strv (JsonBuilder        *b,
          const char         *member,
          const char * const *names)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    json_builder_add_string_value (b, names[i]);
  json_builder_end_array (b);
}

static void
add_problems (JsonBuilder     *b,
              const GPtrArray *problems,
              const GPtrArray *more)
{
  const GPtrArray *lists[] = { problems, more };

  json_builder_set_member_name (b, "problems");
  json_builder_begin_array (b);
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; lists[l] != NULL && i < lists[l]->len; i++)
      json_builder_add_string_value (b, ((const MshProblem *) lists[l]->pdata[i])->message);
  json_builder_end_array (b);
}

static void
add_count_or_null (JsonBuilder *b,
                   const char  *member,
                   gboolean     known,
                   guint        value)
{
  json_builder_set_member_name (b, member);
  if (known)
    json_builder_add_int_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_point (JsonBuilder *b,
           const float  p[3])
{
  json_builder_begin_array (b);
  for (guint k = 0; k < 3; k++)
    json_builder_add_double_value (b, p[k]);
  json_builder_end_array (b);
}

/* A batch's material as its row writes it; %NULL past the rows. */
static const char *
batch_material (const MshIndexModel *model,
                const MshIndexBatch *batch)
{
  return batch->row < model->n_rows ? model->rows[batch->row].material : NULL;
}

static void
add_model (JsonBuilder         *b,
           const MshIndexModel *model)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "archive");
  json_builder_add_string_value (b, model->archive->path);
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, model->member);
  add_string_or_null (b, "wear", model->wear);
  add_count_or_null (b, "nodes", model->nodes_readable, model->n_nodes);
  add_count_or_null (b, "drawn_nodes", model->valid, model->n_drawn_nodes);
  add_count_or_null (b, "drawn_triangles", model->valid, model->n_drawn_triangles);
  json_builder_set_member_name (b, "bounds");
  if (model->valid && model->has_bounds)
    {
      json_builder_begin_array (b);
      add_point (b, model->bounds_min);
      add_point (b, model->bounds_max);
      json_builder_end_array (b);
    }
  else
    json_builder_add_null_value (b);
  add_rows (b, model->rows, model->n_rows);
  add_strv (b, "lightmaps", (const char * const *) model->lightmaps);
  json_builder_set_member_name (b, "batches");
  json_builder_begin_array (b);
  for (guint i = 0; i < model->n_batches; i++)
    {
      const MshIndexBatch *batch = &model->batches[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "index");
      json_builder_add_int_value (b, i);
      json_builder_set_member_name (b, "row");
      json_builder_add_int_value (b, batch->row);
      add_string_or_null (b, "material", batch_material (model, batch));
      json_builder_set_member_name (b, "triangles");
      json_builder_add_int_value (b, batch->n_triangles);
      json_builder_set_member_name (b, "lightmap");
      json_builder_add_boolean_value (b, (batch->word & 0x2000u) != 0);
      json_builder_set_member_name (b, "word");
      json_builder_add_int_value (b, batch->word);
      json_builder_set_member_name (b, "drawn");
      json_builder_add_boolean_value (b, batch->draws > 0);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_problems (b, model->problems, model->library_problems);
  json_builder_end_object (b);
}

static void
add_use (JsonBuilder       *b,
         const MshIndexUse *use)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "archive");
  json_builder_add_string_value (b, use->model->archive->path);
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, use->model->member);
  json_builder_set_member_name (b, "batches");
  json_builder_add_int_value (b, use->n_batches);
  json_builder_set_member_name (b, "triangles");
  json_builder_add_int_value (b, use->n_triangles);
  json_builder_end_object (b);
}

static JsonNode *
models_json (Folder *folder)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  MshIndex *index = folder->index;
  GPtrArray *materials;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "models");
  json_builder_begin_array (b);
  for (guint a = 0; a < msh_index_n_archives (index); a++)
    {
      MshIndexArchive *archive = msh_index_get_archive (index, a);

      for (guint m = 0; m < archive->models->len; m++)
        add_model (b, archive->models->pdata[m]);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "materials");
  json_builder_begin_object (b);
  materials = msh_index_get_materials (index);
  for (guint i = 0; i < materials->len; i++)
    {
      const MshIndexMaterial *material = materials->pdata[i];

      json_builder_set_member_name (b, material->name);
      json_builder_begin_array (b);
      for (guint u = 0; u < material->uses->len; u++)
        add_use (b, &g_array_index (material->uses, MshIndexUse, u));
      json_builder_end_array (b);
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "tables");
  json_builder_begin_array (b);
  for (guint a = 0; a < msh_index_n_archives (index); a++)
    {
      MshIndexArchive *archive = msh_index_get_archive (index, a);

      for (guint t = 0; t < archive->tables->len; t++)
        {
          const MshIndexTable *table = archive->tables->pdata[t];

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "archive");
          json_builder_add_string_value (b, archive->path);
          json_builder_set_member_name (b, "wear");
          json_builder_add_string_value (b, table->member);
          json_builder_set_member_name (b, "materials");
          json_builder_begin_array (b);
          for (guint r = 0; r < table->n_rows; r++)
            json_builder_add_string_value (b, table->rows[r].material);
          json_builder_end_array (b);
          add_problems (b, table->problems, table->library_problems);
          json_builder_end_object (b);
        }
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "problems");
  json_builder_begin_array (b);
  for (guint i = 0; i < folder->problems->len; i++)
    json_builder_add_string_value (b, folder->problems->pdata[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);

  return json_builder_get_root (b);
}

/* ---- Text -------------------------------------------------------------------- */

/* "1 batch", "2 batches": the text is English, as scripts read it.
 * Returns: (transfer full). */
static char *
count_of (guint       n,
          const char *one,
          const char *many)
{
  return g_strdup_printf ("%u %s", n, n == 1 ? one : many);
}

static void
print_problems (const char      *indent,
                const GPtrArray *problems)
{
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const MshProblem *problem = problems->pdata[i];
      g_autofree char *message = mt_escape (problem->message);

      printf ("%s%s: %s\n", indent, msh_severity_to_string (problem->severity), message);
    }
}

static void
print_rows (const MshIndexRow *rows,
            guint              n_rows,
            gboolean           counts)
{
  for (guint r = 0; r < n_rows; r++)
    {
      g_autofree char *id = mt_escape (rows[r].id);
      g_autofree char *material = mt_escape (rows[r].material);

      if (!counts)
        printf ("  row %u (id %s): %s\n", r, id, material);
      else if (rows[r].n_batches > 0)
        {
          g_autofree char *batches = count_of (rows[r].n_batches, "batch", "batches");
          g_autofree char *triangles = count_of (rows[r].n_triangles, "triangle", "triangles");

          printf ("  row %u (id %s): %s: %s, %s\n", r, id, material, batches, triangles);
        }
      else
        printf ("  row %u (id %s): %s: named, not drawn\n", r, id, material);
    }
}

static void
print_lightmaps (char **lightmaps)
{
  for (guint i = 0; lightmaps != NULL && lightmaps[i] != NULL; i++)
    {
      g_autofree char *name = mt_escape (lightmaps[i]);

      printf ("  lightmap %u: %s\n", i, name);
    }
}

static void
print_models_text (Folder *folder)
{
  MshIndex *index = folder->index;

  for (guint a = 0; a < msh_index_n_archives (index); a++)
    {
      MshIndexArchive *archive = msh_index_get_archive (index, a);
      g_autofree char *path = mt_escape (archive->path);

      for (guint m = 0; m < archive->models->len; m++)
        {
          const MshIndexModel *model = archive->models->pdata[m];
          g_autofree char *member = mt_escape (model->member);
          g_autofree char *wear = model->wear != NULL ? mt_escape (model->wear)
                                                      : g_strdup ("none");

          g_autofree char *nodes = count_of (model->n_nodes, "node", "nodes");
          g_autofree char *batches = count_of (model->n_drawn_batches, "batch", "batches");
          g_autofree char *triangles = count_of (model->n_drawn_triangles, "triangle", "triangles");

          if (model->valid)
            printf ("%s: %s: wear %s, %s (%u drawn), %s and %s drawn\n",
                    path, member, wear, nodes, model->n_drawn_nodes, batches, triangles);
          else if (model->nodes_readable)
            printf ("%s: %s: wear %s, %s, not drawn (an error)\n", path, member, wear, nodes);
          else
            printf ("%s: %s: wear %s, not drawn (an error)\n", path, member, wear);
          print_rows (model->rows, model->n_rows, TRUE);
          print_lightmaps (model->lightmaps);
          print_problems ("  ", model->problems);
          print_problems ("  ", model->library_problems);
        }
      for (guint t = 0; t < archive->tables->len; t++)
        {
          const MshIndexTable *table = archive->tables->pdata[t];
          g_autofree char *member = mt_escape (table->member);

          printf ("%s: %s: a material table without a model\n", path, member);
          print_rows (table->rows, table->n_rows, FALSE);
          print_lightmaps (table->lightmaps);
          print_problems ("  ", table->problems);
          print_problems ("  ", table->library_problems);
        }
    }
}

/* ---- models, where-used ----------------------------------------------------- */

static int
folder_status (const Folder *folder,
               int           status)
{
  return folder->io_failed ? MT_EXIT_USAGE : status;
}

int
mt_cmd_models (char     **args,
               gboolean   json)
{
  g_autoptr(Folder) folder = NULL;
  int status = MT_EXIT_OK;

  if (g_strv_length (args) != 1)
    return usage ("models takes one DIR");
  folder = folder_load (args[0], &status);
  if (folder == NULL)
    return status;

  if (json)
    {
      g_autoptr(JsonNode) root = models_json (folder);

      print_json (root);
    }
  else
    print_models_text (folder);

  return folder_status (folder, folder->has_error ? MT_EXIT_INVALID : MT_EXIT_OK);
}

int
mt_cmd_where_used (char     **args,
                   gboolean   json)
{
  g_autoptr(Folder) folder = NULL;
  g_autoptr(MshIndexWearers) wearers = NULL;
  int status = MT_EXIT_OK;

  if (g_strv_length (args) != 2)
    return usage ("where-used takes DIR NAME");
  folder = folder_load (args[0], &status);
  if (folder == NULL)
    return status;
  wearers = msh_index_where_used (folder->index, args[1]);

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, wearers->name);
      json_builder_set_member_name (b, "models");
      json_builder_begin_array (b);
      for (guint i = 0; i < wearers->models->len; i++)
        add_use (b, &g_array_index (wearers->models, MshIndexUse, i));
      json_builder_end_array (b);
      json_builder_set_member_name (b, "named_not_drawn");
      json_builder_begin_array (b);
      for (guint i = 0; i < wearers->named_not_drawn->len; i++)
        {
          const MshIndexModel *model = wearers->named_not_drawn->pdata[i];

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "archive");
          json_builder_add_string_value (b, model->archive->path);
          json_builder_set_member_name (b, "model");
          json_builder_add_string_value (b, model->member);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "tables");
      json_builder_begin_array (b);
      for (guint i = 0; i < wearers->tables->len; i++)
        {
          const MshIndexTable *table = wearers->tables->pdata[i];

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "archive");
          json_builder_add_string_value (b, table->archive->path);
          json_builder_set_member_name (b, "wear");
          json_builder_add_string_value (b, table->member);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      print_json (root);
    }
  else
    {
      for (guint i = 0; i < wearers->models->len; i++)
        {
          const MshIndexUse *use = &g_array_index (wearers->models, MshIndexUse, i);
          g_autofree char *path = mt_escape (use->model->archive->path);
          g_autofree char *member = mt_escape (use->model->member);
          g_autofree char *batches = count_of (use->n_batches, "batch", "batches");
          g_autofree char *triangles = count_of (use->n_triangles, "triangle", "triangles");

          printf ("%s: %s: %s, %s\n", path, member, batches, triangles);
        }
      for (guint i = 0; i < wearers->named_not_drawn->len; i++)
        {
          const MshIndexModel *model = wearers->named_not_drawn->pdata[i];
          g_autofree char *path = mt_escape (model->archive->path);
          g_autofree char *member = mt_escape (model->member);

          printf ("%s: %s: named, not drawn\n", path, member);
        }
      for (guint i = 0; i < wearers->tables->len; i++)
        {
          const MshIndexTable *table = wearers->tables->pdata[i];
          g_autofree char *path = mt_escape (table->archive->path);
          g_autofree char *member = mt_escape (table->member);

          printf ("%s: %s: a material table\n", path, member);
        }
    }

  return folder_status (folder, wearers->models->len > 0 ? MT_EXIT_OK : MT_EXIT_INVALID);
}

/* ---- wear --------------------------------------------------------------------- */

static int
no_such_model (const char *label,
               const char *name)
{
  g_autofree char *shown = mt_escape (name);

  mt_printerr ("%s: %s: no such model (a MESH member of that name or stem)", label, shown);
  return MT_EXIT_INVALID;
}

static int
no_wear (const char *label,
         const char *member,
         guint32     offset)
{
  g_autofree char *wea = wear_member_for_mesh (member);

  mt_printerr ("%s: %s: offset %u: expected its material table %s in the same archive, found none",
               label, member, offset, wea);
  return MT_EXIT_INVALID;
}

/* ROW=NAME */
typedef struct {
  guint  row;
  char  *name;
} Assignment;

static int
wear_list (const char *path,
           const char *name,
           gboolean    json)
{
  g_autoptr(MshIndexArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *label = mt_escape (path);
  MatScanFile file = { (char *) path, (char *) path, 0, 0, 0, 0 };
  const MshIndexModel *model;

  archive = mat_game_scan_read (&file, NULL, NULL, &error);
  if (archive == NULL)
    {
      if (error == NULL)
        {
          mt_printerr ("%s: (header): offset 0: expected an NRes archive, found another file", label);
          return MT_EXIT_INVALID;
        }
      mt_printerr ("%s: %s", label, error->message);
      return MT_EXIT_USAGE;
    }
  if (archive->failed)
    {
      mt_printerr ("%s: %s", label, archive->error);
      return MT_EXIT_INVALID;
    }
  model = msh_index_archive_find_model (archive, name);
  if (model == NULL)
    return no_such_model (label, name);
  if (model->wear == NULL)
    return no_wear (label, model->member, model->offset);
  /* the wear's own problems (a wear too large to read among them) */
  for (guint i = 0; i < model->problems->len; i++)
    {
      const MshProblem *problem = model->problems->pdata[i];

      if (g_str_equal (problem->member, model->wear))
        mt_printerr ("%s: %s", label, problem->message);
    }
  if (model->wear_table == NULL)
    return MT_EXIT_INVALID;

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "archive");
      json_builder_add_string_value (b, path);
      json_builder_set_member_name (b, "model");
      json_builder_add_string_value (b, model->member);
      json_builder_set_member_name (b, "wear");
      json_builder_add_string_value (b, model->wear);
      add_rows (b, model->rows, model->n_rows);
      add_strv (b, "lightmaps", (const char * const *) model->lightmaps);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      print_json (root);
    }
  else
    {
      g_autofree char *member = mt_escape (model->member);
      g_autofree char *wear = mt_escape (model->wear);

      printf ("%s: %s: %s\n", label, member, wear);
      for (guint r = 0; r < model->n_rows; r++)
        {
          g_autofree char *id = mt_escape (model->rows[r].id);
          g_autofree char *material = mt_escape (model->rows[r].material);

          printf ("  row %u (id %s): %s%s\n", r, id, material,
                  model->rows[r].n_batches > 0 ? "" : " (not drawn)");
        }
      print_lightmaps (model->lightmaps);
    }
  return MT_EXIT_OK;
}

static int
wear_set (const char  *path,
          const char  *name,
          char       **assignments)
{
  g_autoptr(GArray) edits = g_array_new (FALSE, TRUE, sizeof (Assignment));
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) text = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(WearTable) table = NULL;
  g_autofree char *label = mt_escape (path);
  g_autofree char *etag = NULL;
  g_autofree char *member = NULL;
  g_autofree char *wea = NULL;
  NresOutEntry *out;
  guint n_out;
  gint mesh, wear;

  for (guint a = 0; assignments[a] != NULL; a++)
    {
      const char *eq = strchr (assignments[a], '=');
      g_autofree char *row_text = NULL;
      guint8 field[WEAR_NAME_MAX + 1];
      Assignment edit;
      guint64 row;

      if (eq == NULL)
        return usage ("%s: expected ROW=NAME", assignments[a]);
      row_text = g_strndup (assignments[a], (gsize) (eq - assignments[a]));
      if (!g_ascii_string_to_unsigned (row_text, 10, 0, G_MAXUINT, &row, NULL))
        return usage ("%s: expected a row number before '=', found \"%s\"", assignments[a],
                      row_text);
      if (!wear_check_name (eq + 1, field, NULL, &error))
        return usage ("%s: %s", assignments[a], error->message);
      edit.row = (guint) row;
      edit.name = (char *) eq + 1;
      g_array_append_val (edits, edit);
    }

  archive = mat_file_read_archive (path, &etag, NULL, NULL, &error);
  if (archive == NULL)
    {
      mt_printerr ("%s: %s", label, error->message);
      return error->domain == NRES_ERROR ? MT_EXIT_INVALID : MT_EXIT_USAGE;
    }
  mesh = msh_index_find_model (archive->entries, archive->n_entries, name);
  if (mesh < 0)
    return no_such_model (label, name);
  member = cp1251_to_utf8 ((const guint8 *) archive->entries[mesh].name, NRES_NAME_SIZE);
  wear = msh_index_find_wear (archive->entries, archive->n_entries, (guint) mesh);
  if (wear < 0)
    return no_wear (label, member, archive->entries[mesh].data_offset);
  wea = cp1251_to_utf8 ((const guint8 *) archive->entries[wear].name, NRES_NAME_SIZE);

  text = nres_archive_payload_bytes (archive, (guint) wear);
  table = wear_table_read (text, archive->entries[wear].data_offset, wea);
  for (guint i = 0; i < edits->len; i++)
    {
      const Assignment *edit = &g_array_index (edits, Assignment, i);
      g_autoptr(GBytes) next = NULL;

      if (edit->row >= table->n_rows)
        {
          /* at the count, or the member's first byte without one */
          guint64 offset = table->base_offset + (table->has_count ? table->count_start : 0);

          mt_printerr ("%s: %s: offset %" G_GUINT64_FORMAT ": expected a row below %u, found %u",
                       label, wea, offset, table->n_rows, edit->row);
          return MT_EXIT_USAGE;
        }
      next = wear_table_set_name (table, edit->row, edit->name, &error);
      if (next == NULL)
        {
          mt_printerr ("%s: %s: %s", label, wea, error->message);
          return MT_EXIT_USAGE;
        }
      g_clear_pointer (&table, wear_table_free);
      g_clear_pointer (&text, g_bytes_unref);
      text = g_steal_pointer (&next);
      table = wear_table_read (text, archive->entries[wear].data_offset, wea);
    }

  out = nres_out_entries_from_archive (archive, &n_out);
  out[wear].payload = g_bytes_ref (text);
  bytes = nres_write_preserving (archive, out, n_out, &error);
  nres_out_entries_free (out, n_out);
  if (bytes == NULL)
    {
      mt_printerr ("%s: %s", label, error->message);
      return MT_EXIT_INVALID;
    }
  if (!mt_write_output (path, etag, opt_output, bytes, &error))
    {
      g_autofree char *out_label = mt_escape (opt_output);

      mt_printerr ("%s: %s", out_label, error->message);
      return MT_EXIT_USAGE;
    }
  return MT_EXIT_OK;
}

int
mt_cmd_wear (char     **args,
             gboolean   json)
{
  guint n = g_strv_length (args);

  if (n < 2)
    return usage ("wear takes ARCHIVE MODEL [ROW=NAME... -o OUT]");
  if (n == 2)
    {
      if (opt_output != NULL)
        return usage ("wear ARCHIVE MODEL -o OUT needs ROW=NAME assignments");
      return wear_list (args[0], args[1], json);
    }
  if (opt_output == NULL)
    return usage ("wear ... ROW=NAME needs -o OUT");
  if (json)
    return usage ("wear ... ROW=NAME takes no --json");
  return wear_set (args[0], args[1], args + 2);
}
