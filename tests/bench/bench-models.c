/* bench-models.c - indexing a game folder against reading its bytes
 *
 *   bench-models FOLDER [FOLDER-WITH-TEXTURES]
 *
 * FOLDER: the retail-sized folder of tests/gen/gen-models (435 models,
 * 240,000 triangles, 15,000 batches, 439 wears). Figures, each the best of
 * ROUNDS warm rounds, beside baselines measured in the same run:
 *
 *   cat        every byte of every file of FOLDER read (open, read in
 *              128 KiB pieces, close), as cat(1) does, in this process;
 *              and cat(1) itself, spawned on the same files
 *   index      what mat0tool and the editor do: walk FOLDER, read each
 *              archive bounded (header, directory, MESH and WEAR members)
 *              and index it (msh-index.h)
 *
 * Goals (README): index <= 3x cat, and < 300 ms. With TEXTURES.lib (a
 * large texture archive), the same folder with one: the index
 * reads its header and directory only, so its time barely moves while
 * cat's grows with the file (FOLDER-WITH-TEXTURES: gen-models OUT 64). Then the resident memory of this process
 * with the folder indexed.
 */
#include "config.h"

#include <fcntl.h>
#include <time.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "mat-game-scan.h"
#include "msh-index.h"

#define ROUNDS 9

typedef double (*BenchFunc) (gpointer data);

static volatile guint64 sink;

/* This thread's processor time (user and system), in ms: what the work
 * costs, without the time other programs of a shared machine take. */
static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double
wall_ms (void)
{
  return (double) g_get_monotonic_time () / 1000.0;
}

static double
best_of (BenchFunc func,
         gpointer  data)
{
  double best = G_MAXDOUBLE;

  func (data);   /* warm */
  for (guint r = 0; r < ROUNDS; r++)
    best = MIN (best, func (data));
  return best;
}

typedef struct {
  const char *folder;
  GPtrArray  *paths;     /* every file */
  guint64     bytes;
  guint64     read;      /* what the index read */
  MshIndex   *kept;      /* the last index, for the memory figure */
} Bench;

static double
cat_in_process (gpointer data)
{
  Bench *b = data;
  static guint8 buf[128 * 1024];
  double t0 = now_ms ();

  for (guint i = 0; i < b->paths->len; i++)
    {
      int fd = g_open (b->paths->pdata[i], O_RDONLY | O_CLOEXEC, 0);
      gssize n;

      g_assert (fd >= 0);
      while ((n = read (fd, buf, sizeof buf)) > 0)
        sink += buf[0];
      close (fd);
    }
  return now_ms () - t0;
}

static double
cat_spawned (gpointer data)
{
  Bench *b = data;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  double t0;
  int status;

  g_ptr_array_add (argv, (gpointer) "cat");
  for (guint i = 0; i < b->paths->len; i++)
    g_ptr_array_add (argv, b->paths->pdata[i]);
  g_ptr_array_add (argv, NULL);
  t0 = wall_ms ();
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                     NULL, NULL, &status, &error))
    g_error ("cat: %s", error->message);
  return wall_ms () - t0;
}

static double
index_folder (gpointer data)
{
  Bench *b = data;
  g_autoptr(MatScanWalk) walk = NULL;
  g_autoptr(GError) error = NULL;
  MshIndex *index = msh_index_new ();
  double t0 = now_ms ();

  b->read = 0;
  walk = mat_game_scan_walk (b->folder, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < walk->files->len; i++)
    {
      MshIndexArchive *archive = mat_game_scan_read (walk->files->pdata[i], &b->read, NULL, &error);

      g_assert_no_error (error);
      if (archive != NULL)
        msh_index_add (index, archive);
    }
  sink += msh_index_get_materials (index)->len;
  t0 = now_ms () - t0;
  g_clear_pointer (&b->kept, msh_index_free);
  b->kept = index;
  return t0;
}

static void
list_files (Bench *b)
{
  g_autoptr(MatScanWalk) walk = mat_game_scan_walk (b->folder, NULL, NULL, NULL);

  g_assert_nonnull (walk);
  g_clear_pointer (&b->paths, g_ptr_array_unref);
  b->paths = g_ptr_array_new_with_free_func (g_free);
  b->bytes = 0;
  for (guint i = 0; i < walk->files->len; i++)
    {
      const MatScanFile *file = walk->files->pdata[i];

      g_ptr_array_add (b->paths, g_strdup (file->file));
      b->bytes += file->size;
    }
}

/* kB of a line of /proc/self/status */
static guint64
status_kb (const char *key)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, key);
  return line != NULL ? g_ascii_strtoull (line + strlen (key), NULL, 10) : 0;
}

static void
run (Bench      *b,
     const char *label)
{
  double cat, spawned, index;
  guint n_models, n_batches = 0, n_triangles = 0, n_wears = 0;

  list_files (b);
  cat = best_of (cat_in_process, b);
  spawned = best_of (cat_spawned, b);
  index = best_of (index_folder, b);
  n_models = msh_index_n_models (b->kept);
  for (guint a = 0; a < msh_index_n_archives (b->kept); a++)
    {
      MshIndexArchive *archive = msh_index_get_archive (b->kept, a);

      for (guint m = 0; m < archive->models->len; m++)
        {
          const MshIndexModel *model = archive->models->pdata[m];

          n_batches += model->n_batches;
          n_triangles += model->n_drawn_triangles;
          n_wears += model->wear != NULL;
        }
    }
  n_wears += msh_index_n_tables (b->kept);

  printf ("%s: %u files, %.1f MB; %u models, %u triangles, %u batches, %u wears\n", label,
          b->paths->len, (double) b->bytes / 1e6, n_models, n_triangles, n_batches, n_wears);
  printf ("  cat in this process        %8.2f ms\n", cat);
  printf ("  cat(1) spawned             %8.2f ms\n", spawned);
  printf ("  index (read %.1f MB)        %8.2f ms   %.2fx cat, %.2fx cat(1)  (goal <= 3x, < 300 ms)\n",
          (double) b->read / 1e6, index, index / cat, index / spawned);
}

int
main (int argc, char *argv[])
{
  Bench b = { 0 };
  guint64 rss_before, rss_after;

  if (argc != 2 && argc != 3)
    {
      fprintf (stderr, "Usage: %s FOLDER [FOLDER-WITH-TEXTURES]\n", argv[0]);
      return 2;
    }

  rss_before = status_kb ("VmRSS:");
  b.folder = argv[1];
  run (&b, "retail-sized folder");
  rss_after = status_kb ("VmRSS:");
  printf ("  resident memory: %.1f MB before, %.1f MB with the folder indexed (peak %.1f MB)\n",
          rss_before / 1024.0, rss_after / 1024.0, status_kb ("VmHWM:") / 1024.0);

  if (argc == 3)
    {
      b.folder = argv[2];
      run (&b, "the same with a 64 MiB texture archive");
    }

  g_clear_pointer (&b.kept, msh_index_free);
  g_clear_pointer (&b.paths, g_ptr_array_unref);
  return 0;
}
