/* test-game-folder.c - MatGameFolder: the game folder indexed in a worker
 * thread while the main loop runs, followed by its monitors re-reading
 * only what changed, cancelled, fed the editor's bytes, and asked who
 * wears what (the demo game folder, data/samples/make-models.c)
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "mat-file.h"
#include "mat-game-folder-private.h"
#include "mat-game-folder.h"
#include "test-mesh.h"
#include "test-support.h"

static char *base_dir;

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir == NULL)
    {
      g_unlink (path);
      return;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      GStatBuf st;

      if (g_lstat (child, &st) == 0 && S_ISDIR (st.st_mode))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static char *
make_dir (void)
{
  g_autofree char *template = g_build_filename (base_dir, "folder-XXXXXX", NULL);
  char *dir = g_mkdtemp (g_steal_pointer (&template));

  g_assert_nonnull (dir);
  return dir;
}

static void
write_file (const char *dir,
            const char *name,
            GBytes     *bytes)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                       &error);
  g_assert_no_error (error);
}

/* One root node, one batch of @n_triangles triangles wearing row 0. */
static GBytes *
small_mesh (guint n_triangles)
{
  TestMesh *m = test_mesh_new ();
  TestMeshNode node = test_mesh_node (0, TEST_NONE, TEST_NONE, TEST_NONE, 0);
  TestMeshSlot slot = { 0, (guint16) n_triangles, 0, 1 };
  TestMeshBatch batch = { 0, 0, 0xFF, TEST_NONE, (guint16) (3 * n_triangles), 0, 3, 0 };
  static const float xyz[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
  static const gint8 nrm[9] = { 0 };
  static const guint16 uv[6] = { 0 };
  g_autofree guint16 *abc = g_new0 (guint16, 3 * n_triangles);
  GBytes *payload;

  for (guint t = 0; t < n_triangles; t++)
    abc[3 * t + 1] = 1, abc[3 * t + 2] = 2;
  test_mesh_nodes (m, &node, 1);
  test_mesh_slots (m, &slot, 1);
  test_mesh_positions (m, xyz, 3);
  test_mesh_normals (m, nrm, 3);
  test_mesh_uvs (m, 5, uv, 3);
  test_mesh_triangles (m, abc, n_triangles);
  test_mesh_batches (m, &batch, 1);
  payload = test_mesh_build (m);
  test_mesh_free (m);

  return payload;
}

/* STEM.msh (@n_triangles triangles) wearing @name. */
static GBytes *
model_archive (const char *stem,
               const char *name,
               guint       n_triangles)
{
  g_autoptr(GBytes) mesh = small_mesh (n_triangles);
  g_autofree char *wear = g_strdup_printf ("1\r\n0 %s\r\n", name);

  return test_model_archive (stem, mesh, wear);
}

/* ---- Waiting on the main loop ----------------------------------------------- */

static gboolean
timed_out_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates the main loop until *@flag, failing after ten seconds. */
static void
wait_for (const gboolean *flag)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (10, timed_out_cb, &timed_out);

  while (!*flag && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);
}

static void
count_cb (gpointer data)
{
  (*(guint *) data)++;
}

typedef struct {
  guint    changes;
  gboolean changed;
} Changes;

static void
changed_cb (MatGameFolder *folder,
            Changes       *c)
{
  c->changes++;
  c->changed = TRUE;
}

/* Waits for the next "changed". */
static void
wait_changed (Changes *c)
{
  c->changed = FALSE;
  wait_for (&c->changed);
}

static void
scanning_cb (MatGameFolder *folder,
             GParamSpec    *pspec,
             gboolean      *done)
{
  if (!mat_game_folder_get_scanning (folder))
    *done = TRUE;
}

static void
wait_scanned (MatGameFolder *folder)
{
  gboolean done = !mat_game_folder_get_scanning (folder);
  gulong id = g_signal_connect (folder, "notify::scanning", G_CALLBACK (scanning_cb), &done);

  wait_for (&done);
  g_signal_handler_disconnect (folder, id);
}

typedef gboolean (*Predicate) (MatGameFolder *folder, gconstpointer data);

static void
until_cb (MatGameFolder *folder,
          gboolean      *changed)
{
  *changed = TRUE;
}

/* Iterates the main loop until @done holds of @folder (looked at after
 * each "changed"), failing after ten seconds. */
static void
wait_until (MatGameFolder *folder,
            Predicate      done,
            gconstpointer  data)
{
  gboolean timed_out = FALSE, changed = FALSE;
  guint id = g_timeout_add_seconds (10, timed_out_cb, &timed_out);
  gulong handler = g_signal_connect (folder, "changed", G_CALLBACK (until_cb), &changed);

  while (!done (folder, data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);
  g_signal_handler_disconnect (folder, handler);
  (void) changed;
}

static gboolean
has_n_models (MatGameFolder *folder,
              gconstpointer  data)
{
  return !mat_game_folder_get_scanning (folder) &&
         mat_game_folder_get_n_models (folder) == GPOINTER_TO_UINT (data);
}

static gboolean
has_n_reads (MatGameFolder *folder,
             gconstpointer  data)
{
  return !mat_game_folder_get_scanning (folder) &&
         _mat_game_folder_get_n_reads (folder) >= GPOINTER_TO_UINT (data);
}

static MatGameModel *
item (MatGameFolder *folder,
      guint          i)
{
  MatGameModel *model = g_list_model_get_item (G_LIST_MODEL (folder), i);

  g_object_unref (model);   /* the folder holds it */
  return model;
}

/* ---- A scan in a thread ---------------------------------------------------------- */

typedef struct {
  GArray *values;
} Progress;

static void
progress_cb (MatGameFolder *folder,
             GParamSpec    *pspec,
             Progress      *p)
{
  double value = mat_game_folder_get_progress (folder);

  g_array_append_val (p->values, value);
}

static gboolean
tick_cb (gpointer data)
{
  (*(guint *) data)++;
  return G_SOURCE_CONTINUE;
}

static void
test_scan_in_thread (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(MatGameFolder) folder = mat_game_folder_new (NULL);
  Progress progress = { g_array_new (FALSE, FALSE, sizeof (double)) };
  guint ticks = 0, items_changed = 0, between = 0, tick;
  Changes changes = { 0 };

  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *name = g_strdup_printf ("a%02u.rlb", i);
      g_autofree char *stem = g_strdup_printf ("m%02u", i);
      g_autoptr(GBytes) bytes = model_archive (stem, i % 2 ? "ODD" : "EVEN", i + 1);

      write_file (dir, name, bytes);
    }
  /* each read waits 15 ms: the scan lasts about half a second */
  _mat_game_folder_set_read_delay (folder, 15);
  g_signal_connect (folder, "notify::progress", G_CALLBACK (progress_cb), &progress);
  g_signal_connect (folder, "changed", G_CALLBACK (changed_cb), &changes);
  g_signal_connect_swapped (folder, "items-changed", G_CALLBACK (count_cb), &items_changed);
  tick = g_timeout_add (5, tick_cb, &ticks);

  mat_game_folder_set_folder (folder, file);
  g_assert_true (mat_game_folder_get_scanning (folder));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (folder)), ==, 0);
  wait_scanned (folder);
  g_source_remove (tick);

  /* the main loop ran all along: a 5 ms timeout fired many times */
  g_assert_cmpuint (ticks, >=, 20);
  /* progress went up in steps between 0 and 1, then 1 */
  for (guint i = 0; i < progress.values->len; i++)
    {
      double v = g_array_index (progress.values, double, i);

      if (i > 0 && v != 0)
        g_assert_cmpfloat (v, >=, g_array_index (progress.values, double, i - 1));
      between += v > 0 && v < 1;
    }
  g_assert_cmpuint (between, >=, 3);
  g_assert_cmpfloat (mat_game_folder_get_progress (folder), ==, 1);
  g_assert_cmpuint (changes.changes, ==, 1);
  g_assert_cmpuint (items_changed, ==, 30);
  g_assert_cmpuint (mat_game_folder_get_n_models (folder), ==, 30);
  g_assert_cmpuint (mat_game_folder_get_n_archives (folder), ==, 30);
  g_assert_cmpuint (_mat_game_folder_get_n_reads (folder), ==, 30);
  g_assert_cmpstr (mat_game_model_get_member (item (folder, 0)), ==, "m00.msh");
  g_assert_cmpuint (mat_game_model_get_n_drawn_triangles (item (folder, 29)), ==, 30);

  /* a rescan reads nothing that did not change */
  mat_game_folder_rescan (folder);
  wait_scanned (folder);
  g_assert_cmpuint (_mat_game_folder_get_n_reads (folder), ==, 30);

  g_array_unref (progress.values);
  g_object_unref (g_steal_pointer (&folder));
  remove_tree (dir);
}

/* Cancelled mid-scan: at once, the index as before, nothing applied later. */
static void
test_cancel (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(MatGameFolder) folder = mat_game_folder_new (NULL);
  Changes changes = { 0 };
  gboolean later = FALSE;

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("a%02u.rlb", i);
      g_autoptr(GBytes) bytes = model_archive ("m", "X", 1);

      write_file (dir, name, bytes);
    }
  _mat_game_folder_set_read_delay (folder, 20);
  g_signal_connect (folder, "changed", G_CALLBACK (changed_cb), &changes);
  mat_game_folder_set_folder (folder, file);
  g_assert_true (mat_game_folder_get_scanning (folder));
  g_timeout_add (60, timed_out_cb, &later);
  wait_for (&later);
  mat_game_folder_cancel (folder);
  g_assert_false (mat_game_folder_get_scanning (folder));
  /* the cancelled worker ends; nothing of it is applied */
  later = FALSE;
  g_timeout_add (300, timed_out_cb, &later);
  wait_for (&later);
  g_assert_cmpuint (changes.changes, ==, 0);
  g_assert_cmpuint (mat_game_folder_get_n_models (folder), ==, 0);

  _mat_game_folder_set_read_delay (folder, 0);
  mat_game_folder_rescan (folder);
  wait_scanned (folder);
  g_assert_cmpuint (mat_game_folder_get_n_models (folder), ==, 20);
  g_assert_cmpuint (changes.changes, ==, 1);

  g_object_unref (g_steal_pointer (&folder));
  remove_tree (dir);
}

/* ---- Following the folder --------------------------------------------------------- */

static void
test_monitor (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(MatGameFolder) folder = mat_game_folder_new (NULL);
  g_autoptr(GBytes) a = model_archive ("a", "FIRST", 1);
  g_autoptr(GBytes) b = model_archive ("b", "SECOND", 2);
  g_autoptr(GBytes) a2 = model_archive ("a", "FIRST_AGAIN", 3);
  g_autoptr(GBytes) c = model_archive ("c", "THIRD", 4);
  g_autoptr(GBytes) c2 = model_archive ("c", "THIRD_SAVED", 5);
  g_autofree char *a_path = g_build_filename (dir, "a.rlb", NULL);
  g_autofree char *c_path = g_build_filename (dir, "deep/er/c.rlb", NULL);
  g_autoptr(GError) error = NULL;
  Changes changes = { 0 };
  guint reads;

  g_autoptr(GBytes) notes = g_bytes_new_static ("not an archive\n", 15);

  write_file (dir, "a.rlb", a);
  write_file (dir, "notes.txt", notes);
  _mat_game_folder_set_settle_time (folder, 50);
  g_signal_connect (folder, "changed", G_CALLBACK (changed_cb), &changes);
  mat_game_folder_set_folder (folder, file);
  wait_scanned (folder);
  reads = _mat_game_folder_get_n_reads (folder);
  g_assert_cmpuint (reads, ==, 2);
  g_assert_cmpuint (mat_game_folder_get_n_models (folder), ==, 1);

  /* added: only it is read */
  write_file (dir, "b.rlb", b);
  wait_until (folder, has_n_reads, GUINT_TO_POINTER (reads + 1));
  g_assert_cmpuint (_mat_game_folder_get_n_reads (folder), ==, reads + 1);
  g_assert_cmpuint (mat_game_folder_get_n_models (folder), ==, 2);
  g_assert_cmpstr (mat_game_model_get_member (item (folder, 1)), ==, "b.msh");
  reads = _mat_game_folder_get_n_reads (folder);

  /* changed: only it */
  write_file (dir, "a.rlb", a2);
  wait_until (folder, has_n_reads, GUINT_TO_POINTER (reads + 1));
  g_assert_cmpuint (_mat_game_folder_get_n_reads (folder), ==, reads + 1);
  g_assert_cmpstr (mat_game_model_get_row (item (folder, 0), 0)->material, ==, "FIRST_AGAIN");
  reads = _mat_game_folder_get_n_reads (folder);

  /* in new folders: they are walked and followed */
  write_file (dir, "deep/er/c.rlb", c);
  wait_until (folder, has_n_models, GUINT_TO_POINTER (3));
  g_assert_cmpuint (_mat_game_folder_get_n_reads (folder), ==, reads + 1);
  g_assert_cmpstr (mat_game_model_get_archive_path (item (folder, 2)), ==, "deep/er/c.rlb");
  reads = _mat_game_folder_get_n_reads (folder);
  /* a save there, atomic (a temporary file renamed over it): one read */
  g_assert_true (mat_file_replace (c_path, c2, NULL, MAT_SAVE_NONE, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  wait_until (folder, has_n_reads, GUINT_TO_POINTER (reads + 1));
  g_assert_cmpuint (_mat_game_folder_get_n_reads (folder), ==, reads + 1);
  g_assert_cmpstr (mat_game_model_get_row (item (folder, 2), 0)->material, ==, "THIRD_SAVED");
  g_assert_cmpuint (mat_game_folder_get_n_models (folder), ==, 3);
  reads = _mat_game_folder_get_n_reads (folder);

  /* removed: nothing read */
  g_assert_cmpint (g_unlink (a_path), ==, 0);
  wait_until (folder, has_n_models, GUINT_TO_POINTER (2));
  g_assert_cmpuint (_mat_game_folder_get_n_reads (folder), ==, reads);
  g_assert_cmpstr (mat_game_model_get_member (item (folder, 0)), ==, "b.msh");
  /* a folder removed: its archives go */
  {
    g_autofree char *deep = g_build_filename (dir, "deep", NULL);

    remove_tree (deep);
  }
  wait_until (folder, has_n_models, GUINT_TO_POINTER (1));
  g_assert_cmpuint (mat_game_folder_get_n_archives (folder), ==, 1);
  g_assert_cmpuint (_mat_game_folder_get_n_reads (folder), ==, reads);

  g_object_unref (g_steal_pointer (&folder));
  remove_tree (dir);
}

/* ---- The editor's bytes ------------------------------------------------------------- */

static void
test_update_archive (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autofree char *path = g_build_filename (dir, "a.rlb", NULL);
  g_autoptr(GFile) archive = g_file_new_for_path (path);
  g_autoptr(GFile) elsewhere = g_file_new_for_path ("/nowhere/a.rlb");
  g_autoptr(MatGameFolder) folder = mat_game_folder_new (NULL);
  g_autoptr(GBytes) on_disk = model_archive ("a", "ON_DISK", 1);
  g_autoptr(GBytes) edited = model_archive ("a", "EDITED", 1);
  g_autoptr(GBytes) saved = model_archive ("a", "SAVED_ELSEWHERE", 2);
  g_autoptr(GBytes) mesh = small_mesh (1);
  g_autoptr(GBytes) read_back = NULL;
  g_autoptr(GError) error = NULL;
  Changes changes = { 0 };
  guint reads;
  guint32 offset = 0;

  write_file (dir, "a.rlb", on_disk);
  _mat_game_folder_set_settle_time (folder, 50);
  g_signal_connect (folder, "changed", G_CALLBACK (changed_cb), &changes);
  mat_game_folder_set_folder (folder, file);
  wait_scanned (folder);
  reads = _mat_game_folder_get_n_reads (folder);

  g_assert_false (mat_game_folder_update_archive (folder, elsewhere, edited));
  g_assert_true (mat_game_folder_update_archive (folder, archive, edited));
  wait_changed (&changes);
  g_assert_cmpstr (mat_game_model_get_row (item (folder, 0), 0)->material, ==, "EDITED");
  {
    g_autoptr(MatWornBy) worn = mat_game_folder_where_used (folder, "edited");

    g_assert_cmpuint (worn->models->len, ==, 1);
  }
  /* its geometry from the bytes given */
  read_back = mat_game_model_read_mesh (item (folder, 0), &offset, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (offset, ==, 16);
  g_assert_true (g_bytes_equal (read_back, mesh));

  /* a rescan keeps them: the file did not change */
  mat_game_folder_rescan (folder);
  wait_scanned (folder);
  g_assert_cmpuint (_mat_game_folder_get_n_reads (folder), ==, reads);
  g_assert_cmpstr (mat_game_model_get_row (item (folder, 0), 0)->material, ==, "EDITED");

  /* back to the file on disk */
  g_assert_true (mat_game_folder_update_archive (folder, archive, NULL));
  wait_changed (&changes);
  g_assert_cmpuint (_mat_game_folder_get_n_reads (folder), ==, reads + 1);
  g_assert_cmpstr (mat_game_model_get_row (item (folder, 0), 0)->material, ==, "ON_DISK");

  /* edited again, then the file changes on disk: the disk wins */
  g_assert_true (mat_game_folder_update_archive (folder, archive, edited));
  wait_changed (&changes);
  g_assert_cmpstr (mat_game_model_get_row (item (folder, 0), 0)->material, ==, "EDITED");
  write_file (dir, "a.rlb", saved);
  wait_changed (&changes);
  g_assert_cmpstr (mat_game_model_get_row (item (folder, 0), 0)->material, ==, "SAVED_ELSEWHERE");

  g_object_unref (g_steal_pointer (&folder));
  remove_tree (dir);
}

/* ---- Who wears what in the demo folder --------------------------------------------- */

static void
test_demo (void)
{
  const char *demo = g_getenv ("DEMO_GAME");
  g_autoptr(GFile) file = NULL;
  g_autoptr(MatGameFolder) folder = NULL;
  g_autoptr(MatWornBy) metal = NULL;
  g_autoptr(MatWornBy) lava = NULL;
  g_autoptr(GPtrArray) tables = NULL;
  g_autofree char *lib_path = NULL;
  g_autoptr(GBytes) lib = NULL;
  g_auto(GStrv) problems = NULL;
  g_autofree char *lightmap = NULL;
  MatGameModel *bunker, *turret;
  const MatGameRow *row;
  float min[3], max[3];
  gboolean has_error = TRUE;
  guint batches, triangles;
  static const char *const members[] = { "bunker.msh", "box.msh", "tree.msh", "turret.msh" };

  g_assert_nonnull (demo);
  file = g_file_new_for_path (demo);
  folder = mat_game_folder_new (file);
  wait_scanned (folder);
  g_assert_null (mat_game_folder_get_error (folder));
  /* seven archives: three libraries (no models), four of models */
  g_assert_cmpuint (mat_game_folder_get_n_archives (folder), ==, 7);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (folder)), ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpstr (mat_game_model_get_member (item (folder, i)), ==, members[i]);
  lightmap = g_file_get_basename (mat_game_folder_get_lightmap_library (folder));
  g_assert_cmpstr (lightmap, ==, "LightMap.lib");

  bunker = item (folder, 0);
  g_assert_cmpstr (mat_game_model_get_archive_path (bunker), ==, "fortif.rlb");
  g_assert_cmpstr (mat_game_model_get_wear (bunker), ==, "bunker.wea");
  g_assert_cmpint (mat_game_model_get_n_nodes (bunker), ==, 2);
  g_assert_cmpuint (mat_game_model_get_n_drawn_batches (bunker), ==, 5);
  g_assert_cmpuint (mat_game_model_get_n_drawn_triangles (bunker), ==, 22);
  g_assert_true (mat_game_model_get_bounds (bunker, min, max));
  g_assert_cmpfloat (min[0], ==, -3);
  g_assert_cmpfloat (max[2], ==, 2.5);
  g_assert_cmpstr (mat_game_model_get_lightmaps (bunker)[0], ==, "bunker_lm.0");
  g_assert_cmpuint (mat_game_model_get_n_rows (bunker), ==, 5);
  row = mat_game_model_get_row (bunker, 0);
  g_assert_cmpstr (row->material, ==, "ROCK_WALL");
  g_assert_cmpuint (row->n_batches, ==, 1);
  g_assert_cmpuint (row->n_triangles, ==, 14);
  problems = mat_game_model_dup_problems (bunker, &has_error);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
  g_assert_false (has_error);

  {
    g_autoptr(GFile) turrets = g_file_get_child (file, "turrets.rlb");

    turret = mat_game_folder_find_model (folder, turrets, "TURRET");
  }
  g_assert_true (turret == item (folder, 3));
  g_assert_true (mat_game_model_wears (turret, "metal_plate", &batches, &triangles));
  g_assert_cmpuint (batches, ==, 2);
  g_assert_cmpuint (triangles, ==, 34);
  g_assert_false (mat_game_model_wears (turret, "GLOW_PULSE", &batches, NULL));
  g_assert_cmpuint (mat_game_model_get_row (turret, 3)->n_batches, ==, 0);

  metal = mat_game_folder_where_used (folder, "Metal_Plate");
  g_assert_cmpstr (metal->name, ==, "METAL_PLATE");
  g_assert_cmpuint (metal->models->len, ==, 3);
  g_assert_true (((MatGameWearer *) metal->models->pdata[2])->model == turret);
  g_assert_cmpuint (((MatGameWearer *) metal->models->pdata[0])->n_triangles, ==, 2);
  lava = mat_game_folder_where_used (folder, "LAVA_FLOW");
  g_assert_cmpuint (lava->models->len, ==, 0);
  g_assert_cmpuint (lava->named_not_drawn->len, ==, 1);
  g_assert_cmpstr (mat_game_model_get_member (lava->named_not_drawn->pdata[0]), ==, "box.msh");
  g_assert_cmpuint (lava->tables->len, ==, 1);
  g_assert_cmpstr (((MatGameTable *) lava->tables->pdata[0])->wear, ==, "Land1.wea");

  tables = mat_game_folder_dup_tables (folder);
  g_assert_cmpuint (tables->len, ==, 1);
  g_assert_cmpstr (((MatGameTable *) tables->pdata[0])->archive, ==, "land.rlb");
  g_assert_cmpstr (((MatGameTable *) tables->pdata[0])->materials[3], ==, "LAVA_FLOW");

  /* a library without ROCK_WALL: the bunker's row 0 is worn but missing */
  lib_path = g_build_filename (demo, "LightMap.lib", NULL);
  lib = test_load_file (lib_path);
  g_assert_true (mat_game_folder_set_library (folder, lib));
  g_clear_pointer (&problems, g_strfreev);
  problems = mat_game_model_dup_problems (bunker, &has_error);
  g_assert_cmpuint (g_strv_length (problems), ==, 5);
  g_assert_nonnull (strstr (problems[0], "found “ROCK_WALL” (worn but missing: the game draws the first entry, bunker_lm.0)"));
  g_assert_false (has_error);
  g_assert_true (mat_game_folder_set_library (folder, NULL));
  g_clear_pointer (&problems, g_strfreev);
  problems = mat_game_model_dup_problems (bunker, NULL);
  g_assert_cmpuint (g_strv_length (problems), ==, 0);
}

/* A folder that does not exist, a broken archive, the settings. */
static void
test_problems_and_settings (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  g_autoptr(GFile) missing_file = g_file_new_for_path (missing);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.parkan.MatEdit");
  g_autoptr(MatGameFolder) folder = NULL;
  g_autoptr(GBytes) good = model_archive ("a", "GOOD", 1);
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (good, 0, 20);
  g_auto(GStrv) problems = NULL;
  g_autofree char *expected = NULL;

  write_file (dir, "good.rlb", good);
  write_file (dir, "cut.rlb", cut);

  folder = mat_game_folder_new (missing_file);
  wait_scanned (folder);
  g_assert_nonnull (mat_game_folder_get_error (folder));
  g_assert_cmpuint (mat_game_folder_get_n_archives (folder), ==, 0);
  g_clear_object (&folder);

  g_settings_set_string (settings, "game-folder", dir);
  folder = mat_game_folder_new_for_settings (settings);
  g_assert_true (mat_game_folder_get_scanning (folder));
  wait_scanned (folder);
  g_assert_null (mat_game_folder_get_error (folder));
  g_assert_cmpuint (mat_game_folder_get_n_archives (folder), ==, 2);
  g_assert_cmpuint (mat_game_folder_get_n_models (folder), ==, 1);
  problems = mat_game_folder_dup_problems (folder);
  g_assert_cmpuint (g_strv_length (problems), ==, 1);
  expected = g_strdup_printf ("cut.rlb: (header): offset 12: expected total size 20 (the file size), found %"
                              G_GSIZE_FORMAT, g_bytes_get_size (good));
  g_assert_cmpstr (problems[0], ==, expected);

  /* the setting changes: the folder follows */
  g_settings_set_string (settings, "game-folder", "");
  g_assert_null (mat_game_folder_get_folder (folder));
  g_assert_cmpuint (mat_game_folder_get_n_models (folder), ==, 0);
  g_assert_false (mat_game_folder_get_scanning (folder));

  g_object_unref (g_steal_pointer (&folder));
  remove_tree (dir);
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  base_dir = g_dir_make_tmp ("game-folder-XXXXXX", NULL);
  g_assert_nonnull (base_dir);

  g_test_add_func ("/model/game-folder/scan-in-thread", test_scan_in_thread);
  g_test_add_func ("/model/game-folder/cancel", test_cancel);
  g_test_add_func ("/model/game-folder/monitor", test_monitor);
  g_test_add_func ("/model/game-folder/update-archive", test_update_archive);
  g_test_add_func ("/model/game-folder/demo", test_demo);
  g_test_add_func ("/model/game-folder/problems-and-settings", test_problems_and_settings);

  status = g_test_run ();
  remove_tree (base_dir);
  g_free (base_dir);
  return status;
}
