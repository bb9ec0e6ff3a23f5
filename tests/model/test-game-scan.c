/* test-game-scan.c - finding a game folder's archives and reading them
 * bounded (models.md 6, mat-game-scan.h), on folders made in the test
 *
 * Every regular file that starts with "NRes" is an archive whatever its
 * name; others are skipped after sixteen bytes; one that fails
 * formats.md 1 is a failed archive; of an archive only the header, the
 * directory and the MESH and WEAR members are read (a texture archive
 * costs its directory, a 4 GiB file that claims a 4 GiB model its first
 * bytes and its directory, in milliseconds and without the memory);
 * folders are walked once each, links followed, loops cut.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "mat-game-scan.h"
#include "test-mesh.h"
#include "test-support.h"

#define MESH 0x4853454Du
#define WEAR 0x52414557u
#define TEXM 0x6D786554u
#define NOBODY 65534

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
  g_autofree char *template = g_build_filename (base_dir, "scan-XXXXXX", NULL);
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

/* One root node, one batch of one triangle wearing row 0. */
static GBytes *
small_mesh (void)
{
  TestMesh *m = test_mesh_new ();
  TestMeshNode node = test_mesh_node (0, TEST_NONE, TEST_NONE, TEST_NONE, 0);
  TestMeshSlot slot = { 0, 1, 0, 1 };
  TestMeshBatch batch = { 0, 0, 0xFF, TEST_NONE, 3, 0, 3, 0 };
  static const float xyz[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
  static const gint8 nrm[9] = { 0 };
  static const guint16 uv[6] = { 0 };
  static const guint16 abc[] = { 0, 1, 2 };
  GBytes *payload;

  test_mesh_nodes (m, &node, 1);
  test_mesh_slots (m, &slot, 1);
  test_mesh_positions (m, xyz, 3);
  test_mesh_normals (m, nrm, 3);
  test_mesh_uvs (m, 5, uv, 3);
  test_mesh_triangles (m, abc, 1);
  test_mesh_batches (m, &batch, 1);
  payload = test_mesh_build (m);
  test_mesh_free (m);

  return payload;
}

/* STEM.msh wearing NAME, and STEM.wea */
static GBytes *
model_archive (const char *stem,
               const char *name)
{
  g_autoptr(GBytes) mesh = small_mesh ();
  g_autofree char *wear = g_strdup_printf ("1\r\n0 %s\r\n", name);

  return test_model_archive (stem, mesh, wear);
}

static MatScanFile *
find_file (const MatScanWalk *walk,
           const char        *path)
{
  for (guint i = 0; i < walk->files->len; i++)
    {
      MatScanFile *file = walk->files->pdata[i];

      if (g_str_equal (file->path, path))
        return file;
    }
  g_error ("%s: not found", path);
}

/* ---- Walking and reading ----------------------------------------------------- */

static void
test_folder (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(MatScanWalk) walk = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) a = model_archive ("tree", "FOLIAGE");
  g_autoptr(GBytes) b = model_archive ("box", "CRATE");
  g_autoptr(GBytes) text = g_bytes_new_static ("NRe", 3);
  g_autoptr(GBytes) notes = g_bytes_new_static ("some notes, not an archive\n", 27);
  g_autofree char *link = g_build_filename (dir, "sub/loop", NULL);
  g_autofree char *dangling = g_build_filename (dir, "gone.rlb", NULL);
  static const char *const paths[] = {
    "a.rlb", "notes.txt", "short", "sub/b.rlb", "sub/deeper/weird.dat",
  };
  guint64 read = 0;
  MshIndexArchive *archive;

  write_file (dir, "a.rlb", a);
  write_file (dir, "sub/b.rlb", b);
  write_file (dir, "sub/deeper/weird.dat", a);   /* an archive by its bytes */
  write_file (dir, "notes.txt", notes);
  write_file (dir, "short", text);
  /* a save's temporary file (mat-file.h) is not a file of the folder */
  write_file (dir, "sub/.b.rlb.Q1W2E3.matedit-tmp", b);
  g_assert_true (mat_game_scan_is_temporary (".b.rlb.Q1W2E3.matedit-tmp"));
  g_assert_false (mat_game_scan_is_temporary ("b.rlb.matedit-tmp"));
  /* a loop back to the top, a link to nothing */
  g_assert_cmpint (symlink ("..", link), ==, 0);
  g_assert_cmpint (symlink ("nothing-here", dangling), ==, 0);

  walk = mat_game_scan_walk (dir, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (walk->files->len, ==, G_N_ELEMENTS (paths));
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    g_assert_cmpstr (((MatScanFile *) walk->files->pdata[i])->path, ==, paths[i]);
  /* the top, sub, sub/deeper: the loop walked no folder twice */
  g_assert_cmpuint (walk->folders->len, ==, 3);
  g_assert_cmpuint (walk->problems->len, ==, 0);
  g_assert_cmpuint (find_file (walk, "a.rlb")->size, ==, g_bytes_get_size (a));

  archive = mat_game_scan_read (find_file (walk, "a.rlb"), &read, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (archive);
  g_assert_false (archive->failed);
  g_assert_cmpstr (archive->path, ==, "a.rlb");
  g_assert_cmpuint (archive->models->len, ==, 1);
  /* everything of a model archive: header, directory, both members */
  g_assert_cmpuint (read, ==, g_bytes_get_size (a));
  msh_index_archive_unref (archive);

  archive = mat_game_scan_read (find_file (walk, "sub/deeper/weird.dat"), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (((MshIndexModel *) archive->models->pdata[0])->rows[0].material, ==, "FOLIAGE");
  msh_index_archive_unref (archive);

  /* not archives: sixteen bytes at most, no error */
  read = 0;
  g_assert_null (mat_game_scan_read (find_file (walk, "notes.txt"), &read, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (mat_game_scan_read (find_file (walk, "short"), &read, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (read, ==, 16 + 3);

  /* a walk from a folder inside, and of what is not a folder */
  g_clear_pointer (&walk, mat_scan_walk_free);
  walk = mat_game_scan_walk (dir, "sub/deeper", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (walk->files->len, ==, 1);
  g_assert_cmpstr (((MatScanFile *) walk->files->pdata[0])->path, ==, "sub/deeper/weird.dat");
  g_clear_pointer (&walk, mat_scan_walk_free);
  walk = mat_game_scan_walk (dir, "a.rlb", NULL, &error);
  g_assert_null (walk);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY);

  remove_tree (dir);
}

/* Only a texture archive's header and directory are read. */
static void
test_texture_archive (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree guint8 *texel = g_malloc0 (65536);
  TestEntrySpec specs[4];
  g_autoptr(GBytes) lib = NULL;
  g_autoptr(MatScanWalk) walk = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshIndexArchive) archive = NULL;
  guint64 read = 0;

  for (guint i = 0; i < 4; i++)
    specs[i] = (TestEntrySpec) { TEXM, 0, 0, 0, (const char *[]) { "A.0", "B.0", "C.0", "D.0" }[i],
                                 texel, 65536, 0 };
  lib = test_build_archive (specs, 4, TRUE);
  write_file (dir, "Textures.lib", lib);
  walk = mat_game_scan_walk (dir, NULL, NULL, &error);
  archive = mat_game_scan_read (walk->files->pdata[0], &read, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (archive->failed);
  g_assert_cmpuint (archive->n_entries, ==, 4);
  g_assert_cmpuint (archive->models->len + archive->tables->len, ==, 0);
  g_assert_cmpuint (read, ==, 16 + 4 * 64);

  remove_tree (dir);
}

/* Broken archives: reported with the reader's message, never read on. */
static void
test_broken (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(GBytes) good = model_archive ("x", "X");
  gsize size = g_bytes_get_size (good);
  g_autofree guint8 *cut = g_memdup2 (g_bytes_get_data (good, NULL), size);
  g_autofree guint8 *garbage = g_malloc (4096);
  g_autoptr(GBytes) cut_bytes = NULL;
  g_autoptr(GBytes) garbage_bytes = NULL;
  g_autoptr(MatScanWalk) walk = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (19);
  g_autofree char *expected = NULL;
  MshIndexArchive *archive;

  cut_bytes = g_bytes_new (cut, size - 10);
  write_file (dir, "cut.rlb", cut_bytes);
  memcpy (garbage, "NRes", 4);
  for (guint i = 4; i < 4096; i++)
    garbage[i] = (guint8) g_rand_int (rand);
  garbage_bytes = g_bytes_new (garbage, 4096);
  write_file (dir, "garbage.rlb", garbage_bytes);

  walk = mat_game_scan_walk (dir, NULL, NULL, &error);
  archive = mat_game_scan_read (find_file (walk, "cut.rlb"), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (archive->failed);
  expected = g_strdup_printf ("(header): offset 12: expected total size %" G_GSIZE_FORMAT
                              " (the file size), found %" G_GSIZE_FORMAT, size - 10, size);
  g_assert_cmpstr (archive->error, ==, expected);
  g_assert_cmpuint (archive->models->len, ==, 0);
  msh_index_archive_unref (archive);

  archive = mat_game_scan_read (find_file (walk, "garbage.rlb"), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (archive->failed);
  g_assert_true (g_str_has_prefix (archive->error, "(header): offset 4: expected version"));
  msh_index_archive_unref (archive);

  remove_tree (dir);
}

static guint64
peak_kb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, "VmHWM:");
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + 6, NULL, 10);
}

static void
put_u32 (guint8  *p,
         guint32  v)
{
  p[0] = v & 0xFF;
  p[1] = (v >> 8) & 0xFF;
  p[2] = (v >> 16) & 0xFF;
  p[3] = v >> 24;
}

/* 4 GiB files named .rlb: zeros, and an archive of 4 GiB - 1 bytes whose
 * directory names a model of nearly all of it and a small wear. Each
 * answers in well under a second with no memory to speak of. */
static void
test_four_gib (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *zeros = g_build_filename (dir, "zeros.rlb", NULL);
  g_autofree char *huge = g_build_filename (dir, "huge.rlb", NULL);
  static const char wear[] = "1\r\n0 HUGE_MAT\r\n";
  guint32 total = 0xFFFFFFFFu, directory = total - 128;
  guint8 header[16] = { 'N', 'R', 'e', 's', 0, 1, 0, 0 };
  guint8 entries[128] = { 0 };
  g_autoptr(MatScanWalk) walk = NULL;
  g_autoptr(GError) error = NULL;
  MshIndexArchive *archive;
  const MshIndexModel *model;
  guint64 peak, read = 0;
  gint64 t0;
  int fd;

  fd = g_open (zeros, O_WRONLY | O_CREAT, 0644);
  g_assert_cmpint (ftruncate (fd, G_GINT64_CONSTANT (4) << 30), ==, 0);
  close (fd);

  put_u32 (header + 8, 2);
  put_u32 (header + 12, total);
  /* entry 0: the WEAR at 16; entry 1: a MESH from 32 to the directory */
  put_u32 (entries, WEAR);
  put_u32 (entries + 12, sizeof wear - 1);
  strcpy ((char *) entries + 20, "huge.wea");
  put_u32 (entries + 56, 16);
  put_u32 (entries + 60, 1);
  put_u32 (entries + 64, MESH);
  put_u32 (entries + 64 + 12, directory - 32);
  strcpy ((char *) entries + 64 + 20, "huge.msh");
  put_u32 (entries + 64 + 56, 32);
  put_u32 (entries + 64 + 60, 0);
  fd = g_open (huge, O_WRONLY | O_CREAT, 0644);
  g_assert_cmpint (ftruncate (fd, total), ==, 0);
  g_assert_cmpint (pwrite (fd, header, 16, 0), ==, 16);
  g_assert_cmpint (pwrite (fd, wear, sizeof wear - 1, 16), ==, sizeof wear - 1);
  g_assert_cmpint (pwrite (fd, entries, 128, directory), ==, 128);
  close (fd);

  peak = peak_kb ();
  t0 = g_get_monotonic_time ();
  walk = mat_game_scan_walk (dir, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (mat_game_scan_read (find_file (walk, "zeros.rlb"), &read, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (read, ==, 16);

  archive = mat_game_scan_read (find_file (walk, "huge.rlb"), &read, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (archive->failed);
  g_assert_cmpuint (read, ==, 16 + 16 + 128 + sizeof wear - 1);
  model = archive->models->pdata[0];
  g_assert_false (model->valid);
  g_assert_cmpstr (((MshProblem *) model->problems->pdata[0])->message, ==,
                   "huge.msh: offset 4294967243: expected a MESH member of at most 67108864 bytes, found 4294967135 (not read)");
  g_assert_cmpstr (model->rows[0].material, ==, "HUGE_MAT");
  msh_index_archive_unref (archive);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, G_USEC_PER_SEC);
  g_assert_cmpuint (peak_kb () - peak, <, 8 * 1024);

  remove_tree (dir);
}

/* LightMap.lib (and Material.lib) found by name, any case: at the top,
 * else the least deep. */
static void
test_find (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
  g_autoptr(MatScanWalk) walk = NULL;
  const MatScanFile *found;

  write_file (dir, "maps/deep/LIGHTMAP.LIB", empty);
  write_file (dir, "maps/lightmap.lib", empty);
  write_file (dir, "zz/LightMap.lib", empty);
  write_file (dir, "Material.lib", empty);
  walk = mat_game_scan_walk (dir, NULL, NULL, NULL);
  found = mat_game_scan_find (walk, "LightMap.lib", FALSE);
  g_assert_cmpstr (found->path, ==, "maps/lightmap.lib");
  g_assert_null (mat_game_scan_find (walk, "LightMap.lib", TRUE));
  g_assert_cmpstr (mat_game_scan_find (walk, "material.LIB", TRUE)->path, ==, "Material.lib");

  write_file (dir, "Lightmap.lib", empty);
  g_clear_pointer (&walk, mat_scan_walk_free);
  walk = mat_game_scan_walk (dir, NULL, NULL, NULL);
  g_assert_cmpstr (mat_game_scan_find (walk, "LightMap.lib", FALSE)->path, ==, "Lightmap.lib");

  remove_tree (dir);
}

static void
test_read_member (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(GBytes) a = model_archive ("tree", "FOLIAGE");
  g_autofree char *path = g_build_filename (dir, "a.rlb", NULL);
  g_autoptr(GBytes) member = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) mesh = small_mesh ();

  write_file (dir, "a.rlb", a);
  /* test_model_archive puts the .msh at 16 */
  member = mat_game_scan_read_member (path, 16, (guint32) g_bytes_get_size (mesh), NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (member, mesh));
  g_assert_null (mat_game_scan_read_member (path, 16, (guint32) g_bytes_get_size (a), NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT);

  remove_tree (dir);
}

/* A folder that cannot be read is a problem of the walk, the rest is
 * walked. As root, walked by the user nobody in a child. */
static void
test_unreadable (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *locked = g_build_filename (dir, "locked", NULL);
  g_autoptr(GBytes) a = model_archive ("tree", "FOLIAGE");
  pid_t pid;
  int status;

  write_file (dir, "a.rlb", a);
  write_file (dir, "locked/b.rlb", a);
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  g_assert_cmpint (g_chmod (locked, 0), ==, 0);

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      g_autoptr(MatScanWalk) walk = NULL;

      if (getuid () == 0 && (setgid (NOBODY) != 0 || setuid (NOBODY) != 0))
        _exit (3);
      walk = mat_game_scan_walk (dir, NULL, NULL, NULL);
      if (walk == NULL || walk->files->len != 1 || walk->problems->len != 1 ||
          !g_str_equal (walk->problems->pdata[0], "locked: Could not read the folder: Permission denied"))
        _exit (1);
      _exit (0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);

  g_chmod (locked, 0755);
  remove_tree (dir);
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  /* reachable by the user nobody (test_unreadable) */
  base_dir = g_dir_make_tmp ("game-scan-XXXXXX", NULL);
  g_assert_nonnull (base_dir);
  g_chmod (base_dir, 0755);

  g_test_add_func ("/model/game-scan/folder", test_folder);
  g_test_add_func ("/model/game-scan/texture-archive", test_texture_archive);
  g_test_add_func ("/model/game-scan/broken", test_broken);
  g_test_add_func ("/model/game-scan/four-gib", test_four_gib);
  g_test_add_func ("/model/game-scan/find", test_find);
  g_test_add_func ("/model/game-scan/read-member", test_read_member);
  g_test_add_func ("/model/game-scan/unreadable", test_unreadable);

  status = g_test_run ();
  remove_tree (base_dir);
  g_free (base_dir);
  return status;
}
