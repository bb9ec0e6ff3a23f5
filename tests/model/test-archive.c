/* test-archive.c - the one archive store under every editable archive
 *
 * The material library, the Textures.lib and the model archive are all
 * MatArchives: the same properties, the same load (its two-line message,
 * the temporaries of killed saves removed), the same save (every system
 * call made to fail in turn leaves the file byte for byte and the
 * archive dirty with its edits), the same rebase after a save (undo past
 * it writes the original again), the same ETag check (a file changed on
 * disk with its size and time kept is refused), the same drafts' kind
 * and restore.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "mat-archive.h"
#include "mat-drafts.h"
#include "mat-library.h"
#include "mat-model-archive.h"
#include "mat-texture-library.h"
#include "test-faults.h"
#include "test-mesh.h"
#include "test-support.h"

/* ---- the three kinds ---------------------------------------------------- */

typedef struct {
  const char *name;                      /* the file's name */
  const char *kind;                      /* MAT_DRAFT_KIND_* */
  GType     (*type) (void);
  GBytes   *(*original) (void);
  MatArchive *(*load) (GFile *file, GError **error);
  void      (*edit) (MatArchive *archive, guint step);
} Kind;

static GBytes *
env_bytes (const char *var)
{
  const char *path = g_getenv (var);

  g_assert_nonnull (path);   /* set by meson test */
  return test_load_file (path);
}

static GBytes *
library_original (void)
{
  return env_bytes ("DEMO_LIB");
}

static MatArchive *
library_load (GFile   *file,
              GError **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mat_library_load_async (file, NULL, test_result_cb, &result);
  return MAT_ARCHIVE (mat_library_load_finish (test_wait_result (&result), error));
}

/* attr1 of material @step flips its bit 0 */
static void
library_edit (MatArchive *archive,
              guint       step)
{
  MatMaterial *material = mat_library_get_material (MAT_LIBRARY (archive), step);
  g_autoptr(GError) error = NULL;

  g_assert_true (mat_material_set_attr1 (material, mat_material_get_attr1 (material) ^ 1, &error));
  g_assert_no_error (error);
}

static GBytes *
textures_original (void)
{
  return env_bytes ("DEMO_TEXTURES");
}

static MatArchive *
textures_load (GFile   *file,
               GError **error)
{
  return MAT_ARCHIVE (mat_texture_library_load (file, NULL, error));
}

/* texture @step gets one Page rectangle */
static void
textures_edit (MatArchive *archive,
               guint       step)
{
  MatTexture *texture = g_list_model_get_item (G_LIST_MODEL (archive), step);
  const TexmRect rect = { 0, 2, 0, 2 + (gint16) step };
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (texture);
  g_assert_true (mat_texture_library_set_page_rects (MAT_TEXTURE_LIBRARY (archive), texture,
                                                     &rect, 1, &error));
  g_assert_no_error (error);
  g_object_unref (texture);
}

/* Two small models with their wears, 8-byte aligned, 100 unindexed
 * bytes after box.wea. */
static GBytes *
models_original (void)
{
  TestMesh *mesh = test_mesh_new ();
  g_autoptr(GBytes) payload = NULL;
  GBytes *bytes;
  const char *box = "3\r\n0 RED\r\n1 GREEN\r\n2 BLUE\r\n";
  const char *crate = "1\r\n0 WOOD\r\n";

  test_mesh_stream (mesh, 10, 0, 0, "kept", 4);
  payload = test_mesh_build (mesh);
  test_mesh_free (mesh);
  {
    TestEntrySpec specs[] = {
      { 0x4853454Du, 1, 2, 3, "box.msh", g_bytes_get_data (payload, NULL), g_bytes_get_size (payload), 0 },
      { 0x52414557u, 4, 5, 6, "box.wea", (const guint8 *) box, strlen (box), 100 },
      { 0x52414557u, 7, 8, 9, "crate.wea", (const guint8 *) crate, strlen (crate), 0 },
    };

    bytes = test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
  }
  return bytes;
}

static MatArchive *
models_load (GFile   *file,
             GError **error)
{
  return MAT_ARCHIVE (mat_model_archive_load (file, NULL, error));
}

/* row @step of box.wea names another material */
static void
models_edit (MatArchive *archive,
             guint       step)
{
  MatModelArchive *models = MAT_MODEL_ARCHIVE (archive);
  g_autoptr(GError) error = NULL;

  g_assert_true (mat_model_archive_set_wear (models, mat_model_archive_find_model (models, "box"),
                                             step, step == 0 ? "LAVA" : "ROCK", &error));
  g_assert_no_error (error);
}

static const Kind kinds[] = {
  { "Material.lib", MAT_DRAFT_KIND_MATERIALS, mat_library_get_type, library_original,
    library_load, library_edit },
  { "Textures.lib", MAT_DRAFT_KIND_TEXTURES, mat_texture_library_get_type, textures_original,
    textures_load, textures_edit },
  { "static.rlb", MAT_DRAFT_KIND_MODELS, mat_model_archive_get_type, models_original,
    models_load, models_edit },
};

/* ---- helpers ------------------------------------------------------------ */

typedef struct {
  char   *dir;
  char   *path;
  GFile  *file;
  GBytes *original;
} Scene;

static void
scene_clear (Scene *scene)
{
  if (scene->dir != NULL)
    test_remove_tree (scene->dir);
  g_free (scene->dir);
  g_free (scene->path);
  g_clear_object (&scene->file);
  g_clear_pointer (&scene->original, g_bytes_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Scene, scene_clear)

static void
scene_init (Scene      *scene,
            const Kind *kind)
{
  scene->dir = test_scratch_dir ("archive");
  scene->path = g_build_filename (scene->dir, kind->name, NULL);
  scene->file = g_file_new_for_path (scene->path);
  scene->original = kind->original ();
  test_write_file (scene->path, scene->original, 0640);
}

static MatArchive *
load_ok (const Kind *kind,
         GFile      *file)
{
  g_autoptr(GError) error = NULL;
  MatArchive *archive = kind->load (file, &error);

  g_assert_no_error (error);
  g_assert_nonnull (archive);
  return archive;
}

static gboolean
save (MatArchive   *archive,
      MatSaveFlags  flags,
      GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mat_archive_save_async (archive, NULL, flags, NULL, test_result_cb, &result);
  return mat_archive_save_finish (archive, test_wait_result (&result), NULL, error);
}

static GBytes *
now_bytes (MatArchive *archive)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = mat_archive_save_to_bytes (archive, &error);

  g_assert_no_error (error);
  return bytes;
}

static void
assert_bytes_equal (GBytes *a,
                    GBytes *b)
{
  g_assert_cmpmem (g_bytes_get_data (a, NULL), g_bytes_get_size (a),
                   g_bytes_get_data (b, NULL), g_bytes_get_size (b));
}

/* ---- one store ----------------------------------------------------------- */

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  (*(guint *) user_data)++;
}

/* Each kind is a MatArchive with the store's properties, its draft kind,
 * and loads as every archive does: the ETag of the file, nothing dirty,
 * the loaded bytes back. */
static void
test_one_store (gconstpointer data)
{
  const Kind *kind = data;
  g_auto(Scene) scene = { 0 };
  g_autoptr(MatArchive) archive = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(MatHistory) history = NULL;
  g_autofree char *etag = NULL;
  g_autofree char *queried = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gboolean dirty = TRUE;
  guint dirty_notes = 0;

  scene_init (&scene, kind);
  archive = load_ok (kind, scene.file);
  g_assert_true (G_TYPE_CHECK_INSTANCE_TYPE (archive, kind->type ()));
  g_assert_true (MAT_IS_DRAFTABLE (archive));
  g_assert_cmpstr (mat_draftable_get_kind (MAT_DRAFTABLE (archive)), ==, kind->kind);

  g_object_get (archive, "file", &file, "etag", &etag, "dirty", &dirty, "history", &history, NULL);
  g_assert_true (g_file_equal (file, scene.file));
  queried = mat_file_query_etag (scene.path, NULL);
  g_assert_cmpstr (etag, ==, queried);
  g_assert_cmpstr (mat_archive_get_etag (archive), ==, queried);
  g_assert_false (dirty);
  g_assert_true (history == mat_archive_get_history (archive));
  bytes = now_bytes (archive);
  assert_bytes_equal (bytes, scene.original);

  /* "dirty" follows the history, notified once each way */
  g_signal_connect (archive, "notify::dirty", G_CALLBACK (count_notify), &dirty_notes);
  kind->edit (archive, 0);
  g_assert_true (mat_archive_get_dirty (archive));
  g_assert_true (mat_draftable_get_dirty (MAT_DRAFTABLE (archive)));
  g_assert_true (mat_history_undo (history));
  g_assert_false (mat_archive_get_dirty (archive));
  g_assert_cmpuint (dirty_notes, ==, 2);
}

/* ---- saves that fail ------------------------------------------------------ */

/* Every system call of a save fails in turn (ENOSPC, EIO): the file is
 * byte for byte the original, no temporary is left, the archive is
 * dirty, its ETag and its edits (the bytes a save writes) as they were;
 * a failure after the rename (syncing the folder) keeps the new file. A
 * save that works at last writes the edits. */
static void
test_save_faults (gconstpointer data)
{
  const Kind *kind = data;
  g_auto(Scene) scene = { 0 };
  g_autoptr(MatArchive) archive = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *etag = NULL;
  guint counted[TEST_N_OPS];
  static const int errors[] = { ENOSPC, EIO };
  guint points = 0, failed = 0;
  g_autoptr(GError) error = NULL;

  scene_init (&scene, kind);
  listing = test_list_dir (scene.dir);

  /* a save that works, counted, on a copy */
  {
    g_auto(Scene) copy = { 0 };
    g_autoptr(MatArchive) other = NULL;

    scene_init (&copy, kind);
    other = load_ok (kind, copy.file);
    kind->edit (other, 0);
    test_faults_arm (-1, 0, 0, copy.path);
    g_assert_true (save (other, MAT_SAVE_NONE, &error));
    test_faults_disarm ();
    g_assert_no_error (error);
    for (guint op = 0; op < TEST_N_OPS; op++)
      counted[op] = test_faults_count (op);
    g_assert_cmpuint (counted[TEST_OP_WRITE], >=, 1);
    g_assert_cmpuint (counted[TEST_OP_RENAME], >=, 1);
    g_assert_cmpuint (counted[TEST_OP_FSYNC], >=, 1);
  }

  for (guint op = 0; op < TEST_N_OPS; op++)
    for (guint at = 0; at < counted[op]; at++)
      for (guint e = 0; e < G_N_ELEMENTS (errors); e++)
        {
          g_autoptr(GBytes) kept = NULL;
          g_autofree char *after = NULL;
          gboolean ok;

          if (archive == NULL)
            {
              test_write_file (scene.path, scene.original, 0640);
              archive = load_ok (kind, scene.file);
              kind->edit (archive, 0);
              g_clear_pointer (&edited, g_bytes_unref);
              edited = now_bytes (archive);
              g_free (etag);
              etag = g_strdup (mat_archive_get_etag (archive));
            }

          test_faults_arm ((int) op, at, errors[e], scene.path);
          ok = save (archive, MAT_SAVE_NONE, &error);
          test_faults_disarm ();
          g_assert_true (test_faults_fired ());
          points++;

          if (test_faults_fired_after_commit ())
            {
              /* the new file is in place: the save stands */
              g_assert_true (ok);
              g_assert_no_error (error);
              test_assert_file_is (scene.path, edited);
              g_assert_false (mat_archive_get_dirty (archive));
              g_clear_object (&archive);
              continue;
            }

          g_test_message ("%s: %s call %u failing with %s", kind->name, test_op_name (op), at,
                          g_strerror (errors[e]));
          g_assert_false (ok);
          g_assert_nonnull (error);
          g_assert_true (error->domain == G_IO_ERROR);
          g_clear_error (&error);
          failed++;
          test_assert_file_is (scene.path, scene.original);
          g_assert_cmpint (test_file_mode (scene.path), ==, 0640);
          after = test_list_dir (scene.dir);
          g_assert_cmpstr (after, ==, listing);
          g_assert_true (mat_archive_get_dirty (archive));
          g_assert_cmpstr (mat_archive_get_etag (archive), ==, etag);
          kept = now_bytes (archive);
          assert_bytes_equal (kept, edited);
        }

  g_test_message ("%s: %u failure points, %u failed the save", kind->name, points, failed);
  g_assert_cmpuint (failed, >=, 10);

  if (archive == NULL)
    return;
  g_assert_true (save (archive, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  test_assert_file_is (scene.path, edited);
  g_assert_false (mat_archive_get_dirty (archive));
}

/* ---- the rebase ----------------------------------------------------------- */

/* After a save the written bytes are the base: an edit undone past the
 * save is a change again, written as the original's bytes; redone, the
 * first save's. A second save over the new base keeps the first's
 * change. */
static void
test_rebase (gconstpointer data)
{
  const Kind *kind = data;
  g_auto(Scene) scene = { 0 };
  g_autoptr(MatArchive) archive = NULL;
  g_autoptr(GBytes) first = NULL;
  g_autoptr(GBytes) second = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *etag = NULL;
  MatHistory *history;

  scene_init (&scene, kind);
  archive = load_ok (kind, scene.file);
  history = mat_archive_get_history (archive);
  etag = g_strdup (mat_archive_get_etag (archive));

  kind->edit (archive, 0);
  first = now_bytes (archive);
  g_assert_false (g_bytes_equal (first, scene.original));
  g_assert_true (save (archive, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  test_assert_file_is (scene.path, first);
  g_assert_false (mat_archive_get_dirty (archive));
  g_assert_cmpstr (mat_archive_get_etag (archive), !=, etag);

  /* undone past the save: dirty, and the original is what it writes */
  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_archive_get_dirty (archive));
  g_assert_true (save (archive, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  test_assert_file_is (scene.path, scene.original);

  /* redone: the first save's bytes again */
  g_assert_true (mat_history_redo (history));
  g_assert_true (save (archive, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  test_assert_file_is (scene.path, first);

  /* another edit over that base keeps the first */
  kind->edit (archive, 1);
  second = now_bytes (archive);
  g_assert_true (save (archive, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  test_assert_file_is (scene.path, second);
  g_assert_true (mat_history_undo (history));
  {
    g_autoptr(GBytes) back = now_bytes (archive);

    assert_bytes_equal (back, first);
  }
}

/* ---- the ETag -------------------------------------------------------------- */

/* The original with one byte after the NUL of the last name field
 * changed: the same size, still an archive, other bytes. */
static GBytes *
their_bytes (GBytes *original)
{
  gsize n = g_bytes_get_size (original);
  guint8 *other = g_memdup2 (g_bytes_get_data (original, NULL), n);

  other[n - 12] ^= 0x5A;
  return g_bytes_new_take (other, n);
}

typedef struct {
  const char *path;
  GBytes     *theirs;
} Change;

static void
rewrite_cb (gpointer data)
{
  Change *change = data;

  test_rewrite_in_place (change->path, change->theirs);
}

/* Another program wrote the file, keeping its size and time: before the
 * save and while it runs (the last look before the rename sees it). The
 * save is refused (WRONG_ETAG), the other program's bytes stay, the
 * archive stays dirty; "Overwrite" writes anyway. */
static void
test_changed_on_disk (gconstpointer data)
{
  const Kind *kind = data;
  g_auto(Scene) scene = { 0 };
  g_autoptr(MatArchive) archive = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) theirs = NULL;
  g_autoptr(GError) error = NULL;

  Change change;

  scene_init (&scene, kind);
  theirs = their_bytes (scene.original);
  change.path = scene.path;
  change.theirs = theirs;

  for (guint during = 0; during < 2; during++)
    {
      g_clear_object (&archive);
      g_clear_pointer (&edited, g_bytes_unref);
      test_write_file (scene.path, scene.original, 0640);
      archive = load_ok (kind, scene.file);
      kind->edit (archive, 0);
      edited = now_bytes (archive);
      if (during)
        {
          test_faults_arm (-1, 0, 0, scene.path);
          test_faults_on_first_write (rewrite_cb, &change);
        }
      else
        rewrite_cb (&change);
      g_assert_false (save (archive, MAT_SAVE_BACKUP, &error));
      test_faults_disarm ();
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);
      g_clear_error (&error);
      {
        g_autoptr(GBytes) now = test_load_file (scene.path);

        g_assert_false (g_bytes_equal (now, scene.original));
        assert_bytes_equal (now, theirs);
      }
      g_assert_true (mat_archive_get_dirty (archive));
    }

  g_assert_true (save (archive, MAT_SAVE_IGNORE_CHANGES, &error));
  g_assert_no_error (error);
  test_assert_file_is (scene.path, edited);
  g_assert_false (mat_archive_get_dirty (archive));
}

/* ---- loading ---------------------------------------------------------------- */

/* What a killed save left beside the file goes at the load, for every
 * kind; a file cut short says so in plain words, then the detail. */
static void
test_load (gconstpointer data)
{
  const Kind *kind = data;
  g_auto(Scene) scene = { 0 };
  g_autoptr(MatArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stale = NULL;
  g_autofree char *stale_name = NULL;
  gsize n;

  scene_init (&scene, kind);
  stale_name = g_strdup_printf (".%s.Ab12Cd.matedit-tmp", kind->name);
  stale = g_build_filename (scene.dir, stale_name, NULL);
  g_assert_true (g_file_set_contents (stale, "left by a killed save", -1, NULL));
  archive = load_ok (kind, scene.file);
  g_assert_cmpuint (mat_archive_get_removed_temporaries (archive), ==, 1);
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  g_clear_object (&archive);

  n = g_bytes_get_size (scene.original);
  {
    g_autoptr(GBytes) cut = g_bytes_new_from_bytes (scene.original, 0, n - 10);
    g_autofree char *expected = NULL;
    g_autofree char *shown = NULL;
    g_autofree char *whole = NULL;

    test_write_file (scene.path, cut, 0644);
    archive = kind->load (scene.file, &error);
    g_assert_null (archive);
    g_assert_nonnull (error);
    g_test_message ("%s", error->message);
    shown = mat_file_format_count (n - 10);
    whole = mat_file_format_count (n);
    expected = g_strdup_printf ("The file is cut short: %s of %s bytes.\n", shown, whole);
    g_assert_true (g_str_has_prefix (error->message, expected));
    g_assert_nonnull (strchr (error->message + strlen (expected), ':'));
  }
}

/* A draft's bytes as unsaved edits: dirty with nothing to undo, the
 * file and ETag given, the bytes back byte for byte, and a save over
 * the file passing that ETag. */
static void
test_restored (gconstpointer data)
{
  const Kind *kind = data;
  g_auto(Scene) scene = { 0 };
  g_autoptr(MatArchive) archive = NULL;
  g_autoptr(MatArchive) restored = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) back = NULL;
  g_autoptr(GError) error = NULL;

  scene_init (&scene, kind);
  archive = load_ok (kind, scene.file);
  kind->edit (archive, 0);
  edited = now_bytes (archive);

  if (kind->type () == MAT_TYPE_LIBRARY)
    restored = MAT_ARCHIVE (mat_library_new_restored (edited, scene.file,
                                                      mat_archive_get_etag (archive), &error));
  else if (kind->type () == MAT_TYPE_TEXTURE_LIBRARY)
    restored = MAT_ARCHIVE (mat_texture_library_new_restored (edited, scene.file,
                                                              mat_archive_get_etag (archive), &error));
  else
    restored = MAT_ARCHIVE (mat_model_archive_new_restored (edited, scene.file,
                                                            mat_archive_get_etag (archive), &error));
  g_assert_no_error (error);
  g_assert_true (mat_archive_get_dirty (restored));
  g_assert_false (mat_history_get_can_undo (mat_archive_get_history (restored)));
  g_assert_cmpstr (mat_archive_get_etag (restored), ==, mat_archive_get_etag (archive));
  back = now_bytes (restored);
  assert_bytes_equal (back, edited);
  g_assert_true (save (restored, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  test_assert_file_is (scene.path, edited);
  g_assert_false (mat_archive_get_dirty (restored));

  /* the first archive's ETag is the old version's now */
  g_assert_false (save (archive, MAT_SAVE_NONE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);
}

/* Without a file a save has nowhere to go. */
static void
test_no_file (gconstpointer data)
{
  const Kind *kind = data;
  g_autoptr(GBytes) original = kind->original ();
  g_autoptr(MatArchive) archive = NULL;
  g_autoptr(GError) error = NULL;

  if (kind->type () == MAT_TYPE_LIBRARY)
    archive = MAT_ARCHIVE (mat_library_new_from_bytes (original, &error));
  else if (kind->type () == MAT_TYPE_TEXTURE_LIBRARY)
    archive = MAT_ARCHIVE (mat_texture_library_new_from_bytes (original, &error));
  else
    archive = MAT_ARCHIVE (mat_model_archive_new_from_bytes (original, &error));
  g_assert_no_error (error);
  g_assert_null (mat_archive_get_file (archive));
  kind->edit (archive, 0);
  g_assert_false (save (archive, MAT_SAVE_NONE, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NO_FILE);
  g_assert_true (mat_archive_get_dirty (archive));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      static const struct {
        const char    *name;
        GTestDataFunc  func;
      } tests[] = {
        { "store", test_one_store },
        { "save-faults", test_save_faults },
        { "rebase", test_rebase },
        { "changed-on-disk", test_changed_on_disk },
        { "load", test_load },
        { "restored", test_restored },
        { "no-file", test_no_file },
      };

      for (guint t = 0; t < G_N_ELEMENTS (tests); t++)
        {
          g_autofree char *path = g_strdup_printf ("/archive/%s/%s", kinds[i].kind, tests[t].name);

          g_test_add_data_func (path, &kinds[i], tests[t].func);
        }
    }

  return g_test_run ();
}
