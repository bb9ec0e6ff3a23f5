/* mat-game-folder.c - the game folder: its models and who wears what
 *
 * One worker at a time reads the folder (a GTask in a thread): a "job"
 * takes a copy of what is known of each file (the version last read),
 * walks what it must (the whole folder, or the paths the monitors saw
 * change), reads each file whose version differs, indexes the bytes the
 * editor gave, and hands back what changed. The main thread then applies
 * it to the index and the list, adds or drops monitors, and starts the
 * next job if more waits. Nothing the worker uses is touched by the main
 * thread while it runs; the main thread never reads a file.
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "mat-document.h"
#include "mat-game-folder-private.h"
#include "mat-game-folder.h"
#include "mat-game-scan.h"

#define PROGRESS_INTERVAL_MS 50
#define SETTLE_MS            200

/* ---- Jobs (the worker's side) ------------------------------------------------ */

/* What a job found of one file */
typedef struct {
  MatScanFile     *file;       /* the version read */
  MshIndexArchive *archive;    /* (nullable) not an archive, or unreadable */
  GBytes          *override;   /* (nullable) indexed from these bytes */
  char            *problem;    /* (nullable) "PATH: message": not read */
} Update;

static void
update_free (gpointer data)
{
  Update *u = data;

  mat_scan_file_free (u->file);
  g_clear_pointer (&u->archive, msh_index_archive_unref);
  g_clear_pointer (&u->override, g_bytes_unref);
  g_free (u->problem);
  g_free (u);
}

typedef struct {
  char    *path;    /* relative on disk, '/' */
  GBytes  *bytes;   /* (nullable) NULL: back to the file on disk */
} Override;

static void
override_free (gpointer data)
{
  Override *o = data;

  g_free (o->path);
  g_clear_pointer (&o->bytes, g_bytes_unref);
  g_free (o);
}

typedef struct {
  /* given; read by the worker only */
  char         *root;         /* the folder on disk */
  gboolean      full;         /* walk all of it */
  GPtrArray    *dirty;        /* (element-type utf8) relative paths on disk
                                 the monitors saw change */
  GPtrArray    *overrides;    /* (element-type Override) after the scan */
  GHashTable   *known;        /* shown path -> MatScanFile: what was read */
  guint         delay_ms;     /* tests: a pause before each read */
  GCancellable *cancellable;

  /* while it runs (atomic) */
  gint          done;
  gint          total;
  gint          reads;

  /* found */
  GPtrArray    *updates;      /* (element-type Update) */
  GPtrArray    *removed;      /* (element-type utf8) shown paths gone */
  GPtrArray    *looked_at;    /* (element-type utf8) shown paths and
                                 folder prefixes whose problems are new */
  GPtrArray    *folders;      /* (element-type filename) walked: monitored */
  GPtrArray    *walk_problems;/* (element-type utf8) "PATH: message" */
  GError       *error;        /* the folder itself could not be read */
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_free (job->root);
  g_clear_pointer (&job->dirty, g_ptr_array_unref);
  g_clear_pointer (&job->overrides, g_ptr_array_unref);
  g_clear_pointer (&job->known, g_hash_table_unref);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->updates, g_ptr_array_unref);
  g_clear_pointer (&job->removed, g_ptr_array_unref);
  g_clear_pointer (&job->looked_at, g_ptr_array_unref);
  g_clear_pointer (&job->folders, g_ptr_array_unref);
  g_clear_pointer (&job->walk_problems, g_ptr_array_unref);
  g_clear_error (&job->error);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Job, job_free)

static Job *
job_new (const char *root)
{
  Job *job = g_new0 (Job, 1);

  job->root = g_strdup (root);
  job->dirty = g_ptr_array_new_with_free_func (g_free);
  job->overrides = g_ptr_array_new_with_free_func (override_free);
  job->known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) mat_scan_file_free);
  job->cancellable = g_cancellable_new ();
  job->updates = g_ptr_array_new_with_free_func (update_free);
  job->removed = g_ptr_array_new_with_free_func (g_free);
  job->looked_at = g_ptr_array_new_with_free_func (g_free);
  job->folders = g_ptr_array_new_with_free_func (g_free);
  job->walk_problems = g_ptr_array_new_with_free_func (g_free);

  return job;
}

/* Whether shown path @path is @prefix or under it ("" is everything). */
static gboolean
path_under (const char *path,
            const char *prefix)
{
  gsize n = strlen (prefix);

  if (n == 0)
    return TRUE;
  return strncmp (path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The known files under @prefix that @found (shown paths) lacks: gone. */
static void
job_remove_missing (Job        *job,
                    const char *prefix,
                    GHashTable *found)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, job->known);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (path_under (key, prefix) && !g_hash_table_contains (found, key))
      g_ptr_array_add (job->removed, g_strdup (key));
}

/* Reads @file (a version that differs from the one known). */
static void
job_read (Job         *job,
          MatScanFile *file)
{
  g_autoptr(GError) error = NULL;
  Update *u = g_new0 (Update, 1);

  if (job->delay_ms > 0)
    g_usleep (job->delay_ms * 1000);
  g_atomic_int_inc (&job->reads);
  u->archive = mat_game_scan_read (file, NULL, job->cancellable, &error);
  u->file = mat_scan_file_copy (file);
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      u->problem = g_strdup_printf ("%s: %s", file->path, error->message);
      /* no version known: read again next time */
      u->file->size = G_MAXUINT64;
    }
  g_ptr_array_add (job->updates, u);
}

/* The files found, read where their version differs. */
static void
job_check (Job       *job,
           GPtrArray *files)
{
  g_atomic_int_add (&job->total, (gint) files->len);
  for (guint i = 0; i < files->len; i++)
    {
      MatScanFile *file = files->pdata[i];
      const MatScanFile *known = g_hash_table_lookup (job->known, file->path);

      if (g_cancellable_is_cancelled (job->cancellable))
        return;
      g_ptr_array_add (job->looked_at, g_strdup (file->path));
      if (known == NULL || !mat_scan_file_same_version (known, file))
        job_read (job, file);
      g_atomic_int_inc (&job->done);
    }
}

/* Walks folder @rel (relative on disk; "" the top) and checks its files. */
static void
job_walk (Job        *job,
          const char *rel)
{
  g_autoptr(MatScanWalk) walk = NULL;
  g_autoptr(GHashTable) found = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *shown = g_filename_display_name (rel);
  g_autoptr(GError) error = NULL;

  walk = mat_game_scan_walk (job->root, rel, job->cancellable, &error);
  if (walk == NULL)
    {
      if (rel[0] == '\0' && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        job->error = g_steal_pointer (&error);
      return;
    }
  for (guint i = 0; i < walk->files->len; i++)
    g_hash_table_add (found, ((MatScanFile *) walk->files->pdata[i])->path);
  job_remove_missing (job, shown, found);
  g_ptr_array_add (job->looked_at, g_strdup (shown));
  for (guint i = 0; i < walk->folders->len; i++)
    g_ptr_array_add (job->folders, g_strdup (walk->folders->pdata[i]));
  for (guint i = 0; i < walk->problems->len; i++)
    g_ptr_array_add (job->walk_problems, g_strdup (walk->problems->pdata[i]));
  job_check (job, walk->files);
}

/* A path a monitor saw change: a file, a folder, or gone. */
static void
job_look_at (Job        *job,
             const char *rel)
{
  g_autofree char *path = g_build_filename (job->root, rel, NULL);
  g_autofree char *shown = g_filename_display_name (rel);
  g_autofree char *base = g_path_get_basename (rel);
  GStatBuf st;

  if (g_stat (path, &st) != 0 || (!S_ISDIR (st.st_mode) && !S_ISREG (st.st_mode)) ||
      mat_game_scan_is_temporary (base))
    {
      g_autoptr(GHashTable) none = g_hash_table_new (g_str_hash, g_str_equal);

      job_remove_missing (job, shown, none);
      g_ptr_array_add (job->looked_at, g_strdup (shown));
      return;
    }
  if (S_ISDIR (st.st_mode))
    {
      job_walk (job, rel);
      return;
    }
  {
    g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func ((GDestroyNotify) mat_scan_file_free);
    MatScanFile *file = g_new0 (MatScanFile, 1);

    file->path = g_steal_pointer (&shown);
    file->file = g_steal_pointer (&path);
    file->size = (guint64) st.st_size;
    file->mtime_ns = (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;
    file->inode = (guint64) st.st_ino;
    file->device = (guint64) st.st_dev;
    g_ptr_array_add (one, file);
    job_check (job, one);
  }
}

/* The editor's bytes for a file, or the file again. */
static void
job_override (Job      *job,
              Override *o)
{
  g_autofree char *path = g_build_filename (job->root, o->path, NULL);
  g_autofree char *shown = g_filename_display_name (o->path);
  MatScanFile file = { shown, path, 0, 0, 0, 0 };
  GStatBuf st;
  Update *u;

  if (o->bytes == NULL)
    {
      if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
        job_read (job, &file);
      else
        g_ptr_array_add (job->removed, g_strdup (shown));
      return;
    }
  /* the version on disk the bytes stand for: a later scan that finds
   * another one reads the file */
  if (g_stat (path, &st) == 0)
    {
      file.size = (guint64) st.st_size;
      file.mtime_ns = (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;
      file.inode = (guint64) st.st_ino;
      file.device = (guint64) st.st_dev;
    }
  u = g_new0 (Update, 1);
  u->file = mat_scan_file_copy (&file);
  u->archive = msh_index_archive_new_from_bytes (shown, o->bytes);
  u->override = g_bytes_ref (o->bytes);
  g_ptr_array_add (job->updates, u);
}

static char job_tag[] = "mat-game-folder-job";

static void
job_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Job *job = task_data;

  if (job->full)
    job_walk (job, "");
  else
    for (guint i = 0; i < job->dirty->len && !g_cancellable_is_cancelled (job->cancellable); i++)
      job_look_at (job, job->dirty->pdata[i]);
  for (guint i = 0; i < job->overrides->len && !g_cancellable_is_cancelled (job->cancellable); i++)
    job_override (job, job->overrides->pdata[i]);
  g_task_return_boolean (task, TRUE);
}

/* ---- The folder --------------------------------------------------------------- */

/* What is known of a file of the folder */
typedef struct {
  MatScanFile *file;         /* the version read */
  gboolean     archive;      /* it is in the index */
  GBytes      *override;     /* (nullable) indexed from the editor's bytes */
} Known;

static void
known_free (gpointer data)
{
  Known *k = data;

  mat_scan_file_free (k->file);
  g_clear_pointer (&k->override, g_bytes_unref);
  g_free (k);
}

struct _MatGameFolder {
  GObject       parent_instance;

  GFile        *folder;          /* (nullable) */
  char         *root;            /* its path on disk */
  GSettings    *settings;        /* (nullable) */

  MshIndex     *index;
  GPtrArray    *items;           /* (element-type MatGameModel) list order */
  GHashTable   *objects;         /* MshIndexModel* -> MatGameModel (items') */
  GHashTable   *known;           /* shown path -> Known */
  GHashTable   *io_problems;     /* shown path -> "PATH: message" */
  GHashTable   *monitors;        /* folder on disk -> GFileMonitor */
  GFile        *lightmap;        /* (nullable) */
  char         *error;

  Job          *running;         /* (nullable) not owned: the task's */
  gboolean      full_pending;
  GHashTable   *dirty;           /* relative paths on disk */
  GPtrArray    *overrides;       /* (element-type Override) waiting */
  guint         settle_id;
  guint         settle_ms;
  guint         progress_id;
  double        progress;
  guint         n_reads;
  guint         read_delay_ms;
};

static void mat_game_folder_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MatGameFolder, mat_game_folder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      mat_game_folder_list_model_init))

enum {
  PROP_0,
  PROP_FOLDER,
  PROP_SETTINGS,
  PROP_SCANNING,
  PROP_PROGRESS,
  PROP_N_ARCHIVES,
  PROP_N_MODELS,
  PROP_LIGHTMAP_LIBRARY,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void start_next (MatGameFolder *self);

/* ---- GListModel ------------------------------------------------------------- */

static GType
list_get_item_type (GListModel *list)
{
  return MAT_TYPE_GAME_MODEL;
}

static guint
list_get_n_items (GListModel *list)
{
  return MAT_GAME_FOLDER (list)->items->len;
}

static gpointer
list_get_item (GListModel *list,
               guint       position)
{
  MatGameFolder *self = MAT_GAME_FOLDER (list);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (self->items->pdata[position]);
}

static void
mat_game_folder_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = list_get_item_type;
  iface->get_n_items = list_get_n_items;
  iface->get_item = list_get_item;
}

/* ---- The index and the list ----------------------------------------------------- */

/* The first item of the archive at index position @position. */
static guint
items_before (MatGameFolder *self,
              guint          position)
{
  guint n = 0;

  for (guint a = 0; a < position; a++)
    n += msh_index_get_archive (self->index, a)->models->len;
  return n;
}

/* Puts @archive (taken; %NULL: none) in the index at @path, the list
 * following. */
static void
set_archive (MatGameFolder   *self,
             const char      *path,
             const char      *disk_path,
             MshIndexArchive *archive,
             GBytes          *source)
{
  MshIndexArchive *old = msh_index_lookup (self->index, path);
  guint start = 0, removed = 0, position;

  if (old == NULL && archive == NULL)
    return;
  if (old != NULL)
    {
      for (position = 0; msh_index_get_archive (self->index, position) != old; position++)
        ;
      start = items_before (self, position);
      removed = old->models->len;
      for (guint m = 0; m < removed; m++)
        g_hash_table_remove (self->objects, old->models->pdata[m]);
      g_ptr_array_remove_range (self->items, start, removed);
    }
  if (archive == NULL)
    {
      msh_index_remove (self->index, path);
      g_list_model_items_changed (G_LIST_MODEL (self), start, removed, 0);
      return;
    }

  position = msh_index_add (self->index, archive);
  if (old == NULL)
    start = items_before (self, position);
  {
    g_autoptr(GFile) file = g_file_new_for_path (disk_path);

    for (guint m = 0; m < archive->models->len; m++)
      {
        const MshIndexModel *model = archive->models->pdata[m];
        MatGameModel *item = _mat_game_model_new (archive, model, file, source);

        g_ptr_array_insert (self->items, (gint) (start + m), item);
        g_hash_table_insert (self->objects, (gpointer) model, item);
      }
  }
  g_list_model_items_changed (G_LIST_MODEL (self), start, removed, archive->models->len);
}

/* A copy of @table's keys (strings). Returns: (transfer full). */
static GPtrArray *
keys_of (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, g_strdup (key));
  return keys;
}

static void
forget_file (MatGameFolder *self,
             const char    *path)
{
  Known *k = g_hash_table_lookup (self->known, path);

  if (k == NULL)
    return;
  if (k->archive)
    set_archive (self, path, k->file->file, NULL, NULL);
  g_hash_table_remove (self->known, path);
}

static gint
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp ((*(const MatScanFile *const *) a)->path, (*(const MatScanFile *const *) b)->path);
}

/* LightMap.lib among the files known: at the top, else the least deep,
 * the first by path. */
static void
find_lightmap (MatGameFolder *self)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new ();
  g_autoptr(GFile) found = NULL;
  MatScanWalk walk = { files, NULL, NULL };
  GHashTableIter iter;
  gpointer value;
  const MatScanFile *file;

  g_hash_table_iter_init (&iter, self->known);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (files, ((Known *) value)->file);
  g_ptr_array_sort (files, compare_paths);
  file = mat_game_scan_find (&walk, "LightMap.lib", FALSE);
  if (file != NULL)
    found = g_file_new_for_path (file->file);
  if ((found == NULL) != (self->lightmap == NULL) ||
      (found != NULL && !g_file_equal (found, self->lightmap)))
    {
      g_set_object (&self->lightmap, found);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIGHTMAP_LIBRARY]);
    }
}

static void
set_error (MatGameFolder *self,
           const char    *error)
{
  if (g_strcmp0 (error, self->error) == 0)
    return;
  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

/* ---- Monitors -------------------------------------------------------------------- */

static void
schedule_settle (MatGameFolder *self);

static void
monitor_changed_cb (GFileMonitor      *monitor,
                    GFile             *file,
                    GFile             *other,
                    GFileMonitorEvent  event,
                    gpointer           data)
{
  MatGameFolder *self = data;
  g_autoptr(GFile) root = NULL;
  GFile *files[2] = { file, other };

  switch (event)
    {
    case G_FILE_MONITOR_EVENT_CHANGED:
    case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT:
    case G_FILE_MONITOR_EVENT_DELETED:
    case G_FILE_MONITOR_EVENT_CREATED:
    case G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED:
    case G_FILE_MONITOR_EVENT_MOVED:
    case G_FILE_MONITOR_EVENT_RENAMED:
    case G_FILE_MONITOR_EVENT_MOVED_IN:
    case G_FILE_MONITOR_EVENT_MOVED_OUT:
      break;
    default:
      return;
    }
  if (self->root == NULL)
    return;
  root = g_file_new_for_path (self->root);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      char *rel;

      if (files[i] == NULL)
        continue;
      if (g_file_equal (files[i], root))
        {
          /* the folder itself: all of it again */
          self->full_pending = TRUE;
          continue;
        }
      rel = g_file_get_relative_path (root, files[i]);
      if (rel != NULL)
        g_hash_table_add (self->dirty, rel);
    }
  schedule_settle (self);
}

static void
monitor_folder (MatGameFolder *self,
                const char    *path)
{
  g_autoptr(GFile) dir = NULL;
  g_autoptr(GError) error = NULL;
  GFileMonitor *monitor;

  if (g_hash_table_contains (self->monitors, path))
    return;
  dir = g_file_new_for_path (path);
  monitor = g_file_monitor_directory (dir, G_FILE_MONITOR_WATCH_MOVES, NULL, &error);
  if (monitor == NULL)
    {
      g_debug ("%s: not followed: %s", path, error->message);
      return;
    }
  g_signal_connect (monitor, "changed", G_CALLBACK (monitor_changed_cb), self);
  g_hash_table_insert (self->monitors, g_strdup (path), monitor);
}

static void
drop_monitor (gpointer data)
{
  GFileMonitor *monitor = data;

  g_file_monitor_cancel (monitor);
  g_object_unref (monitor);
}

/* Drops the monitors of @path's folder (on disk) and those under it;
 * all of them when @path is %NULL. */
static void
drop_monitors_under (MatGameFolder *self,
                     const char    *path)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->monitors);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (path == NULL || path_under (key, path))
      {
        g_signal_handlers_disconnect_by_data (value, self);
        g_hash_table_iter_remove (&iter);
      }
}

/* ---- Running jobs ----------------------------------------------------------------- */

static gboolean
progress_cb (gpointer data)
{
  MatGameFolder *self = data;
  gint total, done;
  double progress;

  if (self->running == NULL)
    return G_SOURCE_CONTINUE;
  total = g_atomic_int_get (&self->running->total);
  done = g_atomic_int_get (&self->running->done);
  progress = total > 0 ? (double) done / total : 0;
  if (progress != self->progress)
    {
      self->progress = progress;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
    }
  return G_SOURCE_CONTINUE;
}

static void
set_scanning (MatGameFolder *self,
              Job           *job)
{
  gboolean was = self->running != NULL;

  self->running = job;
  if (job != NULL && self->progress_id == 0)
    self->progress_id = g_timeout_add (PROGRESS_INTERVAL_MS, progress_cb, self);
  if (job == NULL)
    g_clear_handle_id (&self->progress_id, g_source_remove);
  if (was == (job != NULL))
    return;
  if (job != NULL)
    self->progress = 0;
  else
    self->progress = 1;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCANNING]);
}

/* What a finished job found, into the index, the list and the monitors. */
static void
apply_job (MatGameFolder *self,
           Job           *job)
{
  guint n_archives = msh_index_n_archives (self->index);
  guint n_models = self->items->len;

  self->n_reads += (guint) g_atomic_int_get (&job->reads);

  if (job->error != NULL)
    {
      /* the folder itself is gone or unreadable: nothing in it */
      g_autoptr(GPtrArray) paths = keys_of (self->known);

      for (guint i = 0; i < paths->len; i++)
        forget_file (self, paths->pdata[i]);
      g_hash_table_remove_all (self->io_problems);
      drop_monitors_under (self, NULL);
      set_error (self, job->error->message);
    }
  else if (job->full)
    set_error (self, NULL);

  /* problems of what was looked at are new */
  for (guint i = 0; i < job->looked_at->len; i++)
    {
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, self->io_problems);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (path_under (key, job->looked_at->pdata[i]))
          g_hash_table_iter_remove (&iter);
    }
  for (guint i = 0; i < job->walk_problems->len; i++)
    {
      const char *line = job->walk_problems->pdata[i];
      const char *colon = strstr (line, ": ");

      g_hash_table_insert (self->io_problems,
                           g_strndup (line, colon != NULL ? (gsize) (colon - line) : strlen (line)),
                           g_strdup (line));
    }

  for (guint i = 0; i < job->removed->len; i++)
    forget_file (self, job->removed->pdata[i]);
  for (guint i = 0; i < job->updates->len; i++)
    {
      Update *u = job->updates->pdata[i];
      Known *k = g_new0 (Known, 1);

      k->file = mat_scan_file_copy (u->file);
      k->archive = u->archive != NULL;
      k->override = u->override != NULL ? g_bytes_ref (u->override) : NULL;
      set_archive (self, u->file->path, u->file->file,
                   u->archive != NULL ? msh_index_archive_ref (u->archive) : NULL, u->override);
      g_hash_table_insert (self->known, g_strdup (u->file->path), k);
      if (u->problem != NULL)
        g_hash_table_insert (self->io_problems, g_strdup (u->file->path), g_strdup (u->problem));
    }

  /* the folders walked are followed; those gone are not */
  for (guint i = 0; i < job->removed->len; i++)
    {
      g_autofree char *disk = g_build_filename (self->root, job->removed->pdata[i], NULL);

      drop_monitors_under (self, disk);
    }
  for (guint i = 0; i < job->dirty->len; i++)
    {
      g_autofree char *disk = g_build_filename (self->root, job->dirty->pdata[i], NULL);

      if (!g_file_test (disk, G_FILE_TEST_IS_DIR))
        drop_monitors_under (self, disk);
    }
  if (job->error == NULL)
    {
      if (job->full)
        {
          g_autoptr(GHashTable) walked = g_hash_table_new (g_str_hash, g_str_equal);
          GHashTableIter iter;
          gpointer key, value;

          for (guint i = 0; i < job->folders->len; i++)
            g_hash_table_add (walked, job->folders->pdata[i]);
          g_hash_table_iter_init (&iter, self->monitors);
          while (g_hash_table_iter_next (&iter, &key, &value))
            if (!g_hash_table_contains (walked, key))
              {
                g_signal_handlers_disconnect_by_data (value, self);
                g_hash_table_iter_remove (&iter);
              }
        }
      for (guint i = 0; i < job->folders->len; i++)
        monitor_folder (self, job->folders->pdata[i]);
    }

  find_lightmap (self);
  if (msh_index_n_archives (self->index) != n_archives)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ARCHIVES]);
  if (self->items->len != n_models)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_MODELS]);
  /* a job that looked at a temporary file gone meanwhile changes nothing */
  if (job->full || job->error != NULL || job->removed->len > 0 || job->updates->len > 0)
    g_signal_emit (self, signals[CHANGED], 0);
}

static void
job_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  g_autoptr(MatGameFolder) self = g_weak_ref_get (data);
  Job *job = g_task_get_task_data (G_TASK (result));

  g_weak_ref_clear (data);
  g_free (data);
  if (self == NULL)
    return;
  if (self->running != job)
    return;   /* cancelled: what it found is dropped */
  /* applied before "scanning" goes: who looks then finds it */
  if (!g_cancellable_is_cancelled (job->cancellable))
    apply_job (self, job);
  set_scanning (self, NULL);
  start_next (self);
}

/* Starts a job for what waits, if none runs. */
static void
start_next (MatGameFolder *self)
{
  g_autoptr(GTask) task = NULL;
  GHashTableIter iter;
  gpointer key, value;
  GWeakRef *weak;
  Job *job;

  if (self->running != NULL || self->root == NULL)
    return;
  if (!self->full_pending && g_hash_table_size (self->dirty) == 0 && self->overrides->len == 0)
    return;

  job = job_new (self->root);
  job->full = self->full_pending;
  job->delay_ms = self->read_delay_ms;
  self->full_pending = FALSE;
  g_hash_table_iter_init (&iter, self->dirty);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (job->dirty, g_strdup (key));
  g_ptr_array_sort (job->dirty, (GCompareFunc) g_strcmp0);
  g_hash_table_remove_all (self->dirty);
  g_ptr_array_extend_and_steal (job->overrides, g_steal_pointer (&self->overrides));
  self->overrides = g_ptr_array_new_with_free_func (override_free);
  g_hash_table_iter_init (&iter, self->known);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (job->known, g_strdup (key), mat_scan_file_copy (((Known *) value)->file));

  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);
  task = g_task_new (NULL, job->cancellable, job_done_cb, weak);
  g_task_set_source_tag (task, job_tag);
  g_task_set_task_data (task, job, job_free);
  set_scanning (self, job);
  g_task_run_in_thread (task, job_thread);
}

static gboolean
settle_cb (gpointer data)
{
  MatGameFolder *self = data;

  self->settle_id = 0;
  start_next (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_settle (MatGameFolder *self)
{
  if (self->settle_id == 0)
    self->settle_id = g_timeout_add (self->settle_ms, settle_cb, self);
}

/* ---- GObject ----------------------------------------------------------------------- */

static void
stop (MatGameFolder *self)
{
  if (self->running != NULL)
    g_cancellable_cancel (self->running->cancellable);
  set_scanning (self, NULL);
  self->full_pending = FALSE;
  g_hash_table_remove_all (self->dirty);
  g_ptr_array_set_size (self->overrides, 0);
  g_clear_handle_id (&self->settle_id, g_source_remove);
}

static void
game_folder_changed_cb (MatGameFolder *self)
{
  g_autofree char *value = g_settings_get_string (self->settings, "game-folder");
  g_autoptr(GFile) folder = mat_document_file_from_setting (value);

  mat_game_folder_set_folder (self, folder);
}

static void
mat_game_folder_constructed (GObject *object)
{
  MatGameFolder *self = MAT_GAME_FOLDER (object);

  G_OBJECT_CLASS (mat_game_folder_parent_class)->constructed (object);

  if (self->settings != NULL)
    {
      g_signal_connect_object (self->settings, "changed::game-folder",
                               G_CALLBACK (game_folder_changed_cb), self, G_CONNECT_SWAPPED);
      game_folder_changed_cb (self);
    }
}

static void
mat_game_folder_dispose (GObject *object)
{
  MatGameFolder *self = MAT_GAME_FOLDER (object);

  stop (self);
  drop_monitors_under (self, NULL);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (mat_game_folder_parent_class)->dispose (object);
}

static void
mat_game_folder_finalize (GObject *object)
{
  MatGameFolder *self = MAT_GAME_FOLDER (object);

  g_clear_object (&self->folder);
  g_free (self->root);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->objects, g_hash_table_unref);
  g_clear_pointer (&self->index, msh_index_free);
  g_clear_pointer (&self->known, g_hash_table_unref);
  g_clear_pointer (&self->io_problems, g_hash_table_unref);
  g_clear_pointer (&self->monitors, g_hash_table_unref);
  g_clear_pointer (&self->dirty, g_hash_table_unref);
  g_clear_pointer (&self->overrides, g_ptr_array_unref);
  g_clear_object (&self->lightmap);
  g_free (self->error);

  G_OBJECT_CLASS (mat_game_folder_parent_class)->finalize (object);
}

static void
mat_game_folder_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  MatGameFolder *self = MAT_GAME_FOLDER (object);

  switch (prop_id)
    {
    case PROP_FOLDER:
      g_value_set_object (value, self->folder);
      break;
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    case PROP_SCANNING:
      g_value_set_boolean (value, mat_game_folder_get_scanning (self));
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    case PROP_N_ARCHIVES:
      g_value_set_uint (value, mat_game_folder_get_n_archives (self));
      break;
    case PROP_N_MODELS:
      g_value_set_uint (value, self->items->len);
      break;
    case PROP_LIGHTMAP_LIBRARY:
      g_value_set_object (value, self->lightmap);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_game_folder_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  MatGameFolder *self = MAT_GAME_FOLDER (object);

  switch (prop_id)
    {
    case PROP_FOLDER:
      mat_game_folder_set_folder (self, g_value_get_object (value));
      break;
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_game_folder_class_init (MatGameFolderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = mat_game_folder_constructed;
  object_class->dispose = mat_game_folder_dispose;
  object_class->finalize = mat_game_folder_finalize;
  object_class->get_property = mat_game_folder_get_property;
  object_class->set_property = mat_game_folder_set_property;

  properties[PROP_FOLDER] =
    g_param_spec_object ("folder", NULL, NULL, G_TYPE_FILE, flags | G_PARAM_WRITABLE);
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SCANNING] = g_param_spec_boolean ("scanning", NULL, NULL, FALSE, flags);
  properties[PROP_PROGRESS] = g_param_spec_double ("progress", NULL, NULL, 0, 1, 1, flags);
  properties[PROP_N_ARCHIVES] =
    g_param_spec_uint ("n-archives", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_N_MODELS] = g_param_spec_uint ("n-models", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_LIGHTMAP_LIBRARY] =
    g_param_spec_object ("lightmap-library", NULL, NULL, G_TYPE_FILE, flags);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MatGameFolder::changed:
   *
   * The index was updated: the models, the tables, who wears what or the
   * lightmap library may differ.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mat_game_folder_init (MatGameFolder *self)
{
  self->index = msh_index_new ();
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->objects = g_hash_table_new (NULL, NULL);
  self->known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, known_free);
  self->io_problems = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->monitors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, drop_monitor);
  self->dirty = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->overrides = g_ptr_array_new_with_free_func (override_free);
  self->settle_ms = SETTLE_MS;
  self->progress = 1;
}

/* ---- Public ------------------------------------------------------------------------ */

MatGameFolder *
mat_game_folder_new (GFile *folder)
{
  g_return_val_if_fail (folder == NULL || G_IS_FILE (folder), NULL);

  return g_object_new (MAT_TYPE_GAME_FOLDER, "folder", folder, NULL);
}

MatGameFolder *
mat_game_folder_new_for_settings (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (MAT_TYPE_GAME_FOLDER, "settings", settings, NULL);
}

GFile *
mat_game_folder_get_folder (MatGameFolder *self)
{
  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), NULL);

  return self->folder;
}

void
mat_game_folder_set_folder (MatGameFolder *self,
                            GFile         *folder)
{
  g_autoptr(GPtrArray) paths = NULL;
  guint n_archives;

  g_return_if_fail (MAT_IS_GAME_FOLDER (self));
  g_return_if_fail (folder == NULL || G_IS_FILE (folder));

  if (folder == self->folder || (folder != NULL && self->folder != NULL &&
                                 g_file_equal (folder, self->folder)))
    return;

  stop (self);
  drop_monitors_under (self, NULL);
  n_archives = msh_index_n_archives (self->index);
  paths = keys_of (self->known);
  for (guint i = 0; i < paths->len; i++)
    forget_file (self, paths->pdata[i]);
  /* failed archives are in the index too; files never seen are not */
  while (msh_index_n_archives (self->index) > 0)
    set_archive (self, msh_index_get_archive (self->index, 0)->path, "", NULL, NULL);
  g_hash_table_remove_all (self->io_problems);
  g_set_object (&self->folder, folder);
  g_clear_pointer (&self->root, g_free);
  set_error (self, NULL);
  if (folder != NULL)
    {
      self->root = g_file_get_path (folder);
      if (self->root == NULL)
        set_error (self, _("Only folders on a local disk can be read"));
    }
  find_lightmap (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDER]);
  if (n_archives > 0)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ARCHIVES]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_MODELS]);
      g_signal_emit (self, signals[CHANGED], 0);
    }
  if (self->root != NULL)
    {
      self->full_pending = TRUE;
      start_next (self);
    }
}

gboolean
mat_game_folder_get_scanning (MatGameFolder *self)
{
  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), FALSE);

  return self->running != NULL;
}

double
mat_game_folder_get_progress (MatGameFolder *self)
{
  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), 0);

  return self->progress;
}

guint
mat_game_folder_get_n_archives (MatGameFolder *self)
{
  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), 0);

  return msh_index_n_archives (self->index);
}

guint
mat_game_folder_get_n_models (MatGameFolder *self)
{
  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), 0);

  return self->items->len;
}

GFile *
mat_game_folder_get_lightmap_library (MatGameFolder *self)
{
  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), NULL);

  return self->lightmap;
}

const char *
mat_game_folder_get_error (MatGameFolder *self)
{
  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), NULL);

  return self->error;
}

GStrv
mat_game_folder_dup_problems (MatGameFolder *self)
{
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();
  g_autoptr(GPtrArray) io = NULL;

  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), NULL);

  for (guint a = 0; a < msh_index_n_archives (self->index); a++)
    {
      const MshIndexArchive *archive = msh_index_get_archive (self->index, a);

      if (archive->failed)
        {
          g_autofree char *line = g_strdup_printf ("%s: %s", archive->path, archive->error);

          g_strv_builder_add (lines, line);
        }
    }
  {
    GHashTableIter iter;
    gpointer value;

    io = g_ptr_array_new ();
    g_hash_table_iter_init (&iter, self->io_problems);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      g_ptr_array_add (io, value);
  }
  g_ptr_array_sort (io, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < io->len; i++)
    g_strv_builder_add (lines, io->pdata[i]);
  return g_strv_builder_end (lines);
}

void
mat_game_folder_rescan (MatGameFolder *self)
{
  g_return_if_fail (MAT_IS_GAME_FOLDER (self));

  if (self->root == NULL)
    return;
  self->full_pending = TRUE;
  start_next (self);
}

void
mat_game_folder_cancel (MatGameFolder *self)
{
  g_return_if_fail (MAT_IS_GAME_FOLDER (self));

  stop (self);
}

gboolean
mat_game_folder_set_library (MatGameFolder *self,
                             GBytes        *library)
{
  NresArchive *archive = NULL;

  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), FALSE);

  if (library != NULL)
    archive = nres_archive_parse (library, NULL);
  msh_index_set_library (self->index, archive);
  g_signal_emit (self, signals[CHANGED], 0);
  return library == NULL || archive != NULL;
}

MatGameModel *
mat_game_folder_find_model (MatGameFolder *self,
                            GFile         *archive,
                            const char    *name)
{
  g_autofree char *rel = NULL;
  g_autofree char *shown = NULL;
  g_autoptr(GFile) root = NULL;
  MshIndexArchive *found;
  MshIndexModel *model;

  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), NULL);
  g_return_val_if_fail (G_IS_FILE (archive), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (self->folder == NULL)
    return NULL;
  rel = g_file_get_relative_path (self->folder, archive);
  if (rel == NULL)
    return NULL;
  shown = g_filename_display_name (rel);
  found = msh_index_lookup (self->index, shown);
  if (found == NULL)
    return NULL;
  model = msh_index_archive_find_model (found, name);
  return model != NULL ? g_hash_table_lookup (self->objects, model) : NULL;
}

static MatGameTable *
table_new (MatGameFolder       *self,
           const MshIndexTable *t)
{
  MatGameTable *table = g_new0 (MatGameTable, 1);
  g_autoptr(GStrvBuilder) materials = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) problems = g_strv_builder_new ();
  Known *k = g_hash_table_lookup (self->known, t->archive->path);

  table->archive = g_strdup (t->archive->path);
  table->file = k != NULL ? g_file_new_for_path (k->file->file)
                          : g_file_get_child (self->folder, t->archive->path);
  table->wear = g_strdup (t->member);
  for (guint r = 0; r < t->n_rows; r++)
    g_strv_builder_add (materials, t->rows[r].material);
  for (guint i = 0; i < t->problems->len; i++)
    g_strv_builder_add (problems, ((const MshProblem *) t->problems->pdata[i])->message);
  for (guint i = 0; i < t->library_problems->len; i++)
    g_strv_builder_add (problems, ((const MshProblem *) t->library_problems->pdata[i])->message);
  table->materials = g_strv_builder_end (materials);
  table->problems = g_strv_builder_end (problems);

  return table;
}

void
mat_game_table_free (MatGameTable *table)
{
  if (table == NULL)
    return;

  g_free (table->archive);
  g_clear_object (&table->file);
  g_free (table->wear);
  g_strfreev (table->materials);
  g_strfreev (table->problems);
  g_free (table);
}

static void
wearer_free (gpointer data)
{
  MatGameWearer *wearer = data;

  g_object_unref (wearer->model);
  g_free (wearer);
}

void
mat_worn_by_free (MatWornBy *worn_by)
{
  if (worn_by == NULL)
    return;

  g_free (worn_by->name);
  g_ptr_array_unref (worn_by->models);
  g_ptr_array_unref (worn_by->named_not_drawn);
  g_ptr_array_unref (worn_by->tables);
  g_free (worn_by);
}

MatWornBy *
mat_game_folder_where_used (MatGameFolder *self,
                            const char    *material)
{
  g_autoptr(MshIndexWearers) wearers = NULL;
  MatWornBy *worn_by;

  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), NULL);
  g_return_val_if_fail (material != NULL, NULL);

  wearers = msh_index_where_used (self->index, material);
  worn_by = g_new0 (MatWornBy, 1);
  worn_by->name = g_strdup (wearers->name);
  worn_by->models = g_ptr_array_new_with_free_func (wearer_free);
  worn_by->named_not_drawn = g_ptr_array_new_with_free_func (g_object_unref);
  worn_by->tables = g_ptr_array_new_with_free_func ((GDestroyNotify) mat_game_table_free);
  for (guint i = 0; i < wearers->models->len; i++)
    {
      const MshIndexUse *use = &g_array_index (wearers->models, MshIndexUse, i);
      MatGameWearer *wearer = g_new0 (MatGameWearer, 1);

      wearer->model = g_object_ref (g_hash_table_lookup (self->objects, use->model));
      wearer->n_batches = use->n_batches;
      wearer->n_triangles = use->n_triangles;
      g_ptr_array_add (worn_by->models, wearer);
    }
  for (guint i = 0; i < wearers->named_not_drawn->len; i++)
    g_ptr_array_add (worn_by->named_not_drawn,
                     g_object_ref (g_hash_table_lookup (self->objects,
                                                        wearers->named_not_drawn->pdata[i])));
  for (guint i = 0; i < wearers->tables->len; i++)
    g_ptr_array_add (worn_by->tables, table_new (self, wearers->tables->pdata[i]));

  return worn_by;
}

GPtrArray *
mat_game_folder_dup_tables (MatGameFolder *self)
{
  GPtrArray *tables;

  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), NULL);

  tables = g_ptr_array_new_with_free_func ((GDestroyNotify) mat_game_table_free);
  for (guint a = 0; a < msh_index_n_archives (self->index); a++)
    {
      const MshIndexArchive *archive = msh_index_get_archive (self->index, a);

      for (guint t = 0; t < archive->tables->len; t++)
        g_ptr_array_add (tables, table_new (self, archive->tables->pdata[t]));
    }
  return tables;
}

gboolean
mat_game_folder_update_archive (MatGameFolder *self,
                                GFile         *file,
                                GBytes        *bytes)
{
  g_autofree char *rel = NULL;
  Override *o;

  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->folder == NULL || self->root == NULL)
    return FALSE;
  rel = g_file_get_relative_path (self->folder, file);
  if (rel == NULL)
    return FALSE;
  o = g_new0 (Override, 1);
  o->path = g_steal_pointer (&rel);
  o->bytes = bytes != NULL ? g_bytes_ref (bytes) : NULL;
  g_ptr_array_add (self->overrides, o);
  start_next (self);
  return TRUE;
}

/* ---- Tests --------------------------------------------------------------------------- */

guint
_mat_game_folder_get_n_reads (MatGameFolder *self)
{
  g_return_val_if_fail (MAT_IS_GAME_FOLDER (self), 0);

  return self->n_reads;
}

void
_mat_game_folder_set_read_delay (MatGameFolder *self,
                                 guint          ms)
{
  g_return_if_fail (MAT_IS_GAME_FOLDER (self));

  self->read_delay_ms = ms;
}

void
_mat_game_folder_set_settle_time (MatGameFolder *self,
                                  guint          ms)
{
  g_return_if_fail (MAT_IS_GAME_FOLDER (self));

  self->settle_ms = ms;
}
