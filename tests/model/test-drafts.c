/* test-drafts.c - the draft store: drafts written a moment after an edit
 * (exactly the bytes a save would write), updated, removed on save, on
 * undo to the saved state and on discard; the index; a failure to write
 * a draft that leaves the library's file alone; the flush of a signal;
 * the drafts an editor that ended leaves, found by the next one,
 * restored byte for byte (the ETag check still protecting a file changed
 * since), adopted or discarded.
 *
 * Every test works in a scratch folder of its own: the library copied
 * there, the drafts under it.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "mat-drafts.h"
#include "mat-library.h"
#include "mat-texture-library.h"
#include "test-support.h"

/* ---- helpers ---------------------------------------------------------- */

typedef struct {
  char  *dir;        /* the scratch folder */
  char  *lib_path;   /* a copy of the demo library in it */
  GFile *lib_file;
  GFile *drafts;     /* DIR/drafts */
} Scratch;

static void
scratch_free (Scratch *scratch)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", scratch->dir);

  g_assert_cmpint (system (command), ==, 0);
  g_free (scratch->dir);
  g_free (scratch->lib_path);
  g_clear_object (&scratch->lib_file);
  g_clear_object (&scratch->drafts);
  g_free (scratch);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Scratch, scratch_free)

static Scratch *
scratch_new (const char *env)
{
  Scratch *scratch = g_new0 (Scratch, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = test_load_file (g_getenv (env));

  scratch->dir = g_dir_make_tmp ("test-drafts-XXXXXX", &error);
  g_assert_no_error (error);
  scratch->lib_path = g_build_filename (scratch->dir, "Material.lib", NULL);
  g_assert_true (g_file_set_contents (scratch->lib_path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  scratch->lib_file = g_file_new_for_path (scratch->lib_path);
  scratch->drafts = g_file_new_build_filename (scratch->dir, "drafts", NULL);
  return scratch;
}

/* Runs the main loop until the store has nothing waiting or running. */
static void
wait_idle (MatDraftStore *store)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (mat_draft_store_get_busy (store))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      g_main_context_iteration (NULL, TRUE);
    }
}

static void
spin_ms (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static MatLibrary *
load (GFile *file)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  MatLibrary *library;

  mat_library_load_async (file, NULL, result_cb, &result);
  library = mat_library_load_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  return library;
}

static gboolean
save (MatLibrary  *library,
      GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mat_library_save_async (library, NULL, MAT_SAVE_NONE, NULL, result_cb, &result);
  return mat_library_save_finish (library, wait_result (&result), NULL, error);
}

static GBytes *
save_bytes (MatDraftable *archive)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MatSavePlan) plan = mat_draftable_plan_save (archive, &error);
  GBytes *bytes;

  g_assert_no_error (error);
  bytes = mat_save_plan_write (plan, &error);
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

static void
edit_attr1 (MatLibrary *library,
            guint       index,
            guint32     attr1)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mat_material_set_attr1 (mat_library_get_material (library, index), attr1, &error));
  g_assert_no_error (error);
}

/* The session folders under the drafts folder. */
static GPtrArray *
sessions (Scratch *scratch)
{
  g_autofree char *root = g_file_get_path (scratch->drafts);
  g_autoptr(GDir) dir = g_dir_open (root, 0, NULL);
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (found, g_build_filename (root, name, NULL));
  return found;
}

/* The files of @folder ending in @suffix. */
static guint
count_files (const char *folder,
             const char *suffix)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, suffix))
      n++;
  return n;
}

/* The index of the one session folder (asserted), or %NULL when it has
 * none. */
static JsonNode *
read_index (Scratch  *scratch,
            char    **folder)
{
  g_autoptr(GPtrArray) found = sessions (scratch);
  g_autofree char *path = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (found->len, ==, 1);
  if (folder != NULL)
    *folder = g_strdup (g_ptr_array_index (found, 0));
  path = g_build_filename (g_ptr_array_index (found, 0), "index.json", NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* The one draft in the index, with its bytes checked against @expected
 * (size, sha256 and the draft file itself). Returns: (transfer none). */
static JsonObject *
only_draft (JsonNode   *index,
            const char *folder,
            GBytes     *expected)
{
  JsonObject *root = json_node_get_object (index);
  JsonArray *drafts = json_object_get_array_member (root, "drafts");
  JsonObject *draft;
  g_autofree char *path = NULL;
  g_autofree char *sha = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, expected);
  g_autoptr(GBytes) bytes = NULL;

  g_assert_cmpint (json_object_get_int_member (root, "format"), ==, 1);
  g_assert_cmpuint (json_array_get_length (drafts), ==, 1);
  draft = json_array_get_object_element (drafts, 0);
  g_assert_cmpint (json_object_get_int_member (draft, "size"), ==, (gint64) g_bytes_get_size (expected));
  g_assert_cmpstr (json_object_get_string_member (draft, "sha256"), ==, sha);
  path = g_build_filename (folder, json_object_get_string_member (draft, "draft"), NULL);
  bytes = test_load_file (path);
  assert_bytes_equal (bytes, expected);
  return draft;
}

static MatDraftStore *
store_new (Scratch *scratch,
           guint    delay_ms)
{
  MatDraftStore *store = mat_draft_store_new (scratch->drafts);

  mat_draft_store_set_delay (store, delay_ms);
  return store;
}

/* The editor of @store ends as a killed one does: its lock is free once
 * the store is gone (a worker thread may hold it a moment longer). */
static void
end_store (MatDraftStore **store)
{
  gpointer weak = *store;
  gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  g_object_add_weak_pointer (G_OBJECT (weak), &weak);
  g_clear_object (store);
  while (weak != NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static GListModel *
find_left (MatDraftStore *store)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *left;

  mat_draft_store_find_left_async (store, NULL, result_cb, &result);
  left = mat_draft_store_find_left_finish (store, wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (left);
  return left;
}

static MatDraftable *
restore (MatDraft  *draft,
         GBytes   **bytes,
         GError   **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mat_draft_restore_async (draft, NULL, result_cb, &result);
  return mat_draft_restore_finish (draft, wait_result (&result), bytes, error);
}

/* ---- written, updated, removed on save ---------------------------------- */

static void
test_written_updated_saved (void)
{
  g_autoptr(Scratch) scratch = scratch_new ("DEMO_LIB");
  g_autoptr(MatDraftStore) store = store_new (scratch, 50);
  g_autoptr(MatLibrary) library = load (scratch->lib_file);
  g_autoptr(GBytes) original = test_load_file (scratch->lib_path);
  g_autoptr(GBytes) first = NULL;
  g_autoptr(GBytes) second = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(JsonNode) index = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) time = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *uri = g_file_get_uri (scratch->lib_file);
  JsonObject *draft;

  mat_draft_store_track (store, MAT_DRAFTABLE (library), NULL);
  wait_idle (store);
  /* nothing unsaved, nothing on disk: not even a folder */
  g_assert_false (g_file_query_exists (scratch->drafts, NULL));

  edit_attr1 (library, 0, 0x41);
  g_assert_true (mat_draft_store_get_busy (store));
  wait_idle (store);
  first = save_bytes (MAT_DRAFTABLE (library));
  g_assert_false (g_bytes_equal (first, original));

  index = read_index (scratch, &folder);
  g_assert_nonnull (index);
  draft = only_draft (index, folder, first);
  g_assert_cmpstr (json_object_get_string_member (draft, "kind"), ==, MAT_DRAFT_KIND_MATERIALS);
  g_assert_cmpstr (json_object_get_string_member (draft, "file"), ==, uri);
  g_assert_cmpstr (json_object_get_string_member (draft, "etag"), ==, mat_library_get_etag (library));
  g_assert_true (json_object_get_null_member (draft, "owner"));
  time = g_date_time_new_from_iso8601 (json_object_get_string_member (draft, "time"), NULL);
  g_assert_nonnull (time);
  g_assert_cmpint (ABS (g_date_time_difference (now, time)), <, 60 * G_TIME_SPAN_SECOND);
  g_assert_true (g_str_has_suffix (json_object_get_string_member (draft, "draft"), ".1.draft"));
  /* folders of drafts are private */
  {
    GStatBuf st;

    g_assert_cmpint (g_stat (folder, &st), ==, 0);
    g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  }
  g_clear_pointer (&index, json_node_unref);

  /* another edit: the draft follows, its old version goes */
  edit_attr1 (library, 1, 0x42);
  wait_idle (store);
  second = save_bytes (MAT_DRAFTABLE (library));
  index = read_index (scratch, NULL);
  draft = only_draft (index, folder, second);
  g_assert_true (g_str_has_suffix (json_object_get_string_member (draft, "draft"), ".2.draft"));
  g_assert_cmpuint (count_files (folder, ".draft"), ==, 1);
  g_clear_pointer (&index, json_node_unref);

  /* the library's file was never touched by the drafts */
  saved = test_load_file (scratch->lib_path);
  assert_bytes_equal (saved, original);
  g_clear_pointer (&saved, g_bytes_unref);

  /* saved: the draft goes */
  g_assert_true (save (library, &error));
  g_assert_no_error (error);
  wait_idle (store);
  g_assert_null (read_index (scratch, NULL));
  g_assert_cmpuint (count_files (folder, ".draft"), ==, 0);
  saved = test_load_file (scratch->lib_path);
  assert_bytes_equal (saved, second);

  /* closing the store: no draft is left, so its folder goes */
  mat_draft_store_close (store);
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
}

/* Undone back to the saved state: the draft goes at once; redone, it
 * is written again. */
static void
test_undo_to_saved (void)
{
  g_autoptr(Scratch) scratch = scratch_new ("DEMO_LIB");
  g_autoptr(MatDraftStore) store = store_new (scratch, 50);
  g_autoptr(MatLibrary) library = load (scratch->lib_file);
  g_autoptr(JsonNode) index = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autofree char *folder = NULL;

  mat_draft_store_track (store, MAT_DRAFTABLE (library), NULL);
  edit_attr1 (library, 2, 0x41);
  wait_idle (store);
  index = read_index (scratch, &folder);
  g_assert_nonnull (index);
  g_clear_pointer (&index, json_node_unref);

  g_assert_true (mat_history_undo (mat_library_get_history (library)));
  g_assert_false (mat_library_get_dirty (library));
  wait_idle (store);
  g_assert_null (read_index (scratch, NULL));
  g_assert_cmpuint (count_files (folder, ".draft"), ==, 0);

  g_assert_true (mat_history_redo (mat_library_get_history (library)));
  wait_idle (store);
  edited = save_bytes (MAT_DRAFTABLE (library));
  index = read_index (scratch, NULL);
  only_draft (index, folder, edited);
}

/* Discarded (closed without saving), or the library dropped: the draft
 * goes. */
static void
test_discard (void)
{
  g_autoptr(Scratch) scratch = scratch_new ("DEMO_LIB");
  g_autoptr(MatDraftStore) store = store_new (scratch, 50);
  g_autoptr(MatLibrary) library = load (scratch->lib_file);
  g_autoptr(MatLibrary) other = load (scratch->lib_file);
  g_autoptr(JsonNode) index = NULL;
  g_autofree char *folder = NULL;
  JsonArray *drafts;

  mat_draft_store_track (store, MAT_DRAFTABLE (library), NULL);
  mat_draft_store_track (store, MAT_DRAFTABLE (other), NULL);
  edit_attr1 (library, 0, 0x41);
  edit_attr1 (other, 1, 0x42);
  wait_idle (store);
  index = read_index (scratch, &folder);
  drafts = json_object_get_array_member (json_node_get_object (index), "drafts");
  g_assert_cmpuint (json_array_get_length (drafts), ==, 2);
  g_assert_cmpuint (count_files (folder, ".draft"), ==, 2);
  g_clear_pointer (&index, json_node_unref);

  mat_draft_store_discard_archive (store, MAT_DRAFTABLE (library));
  wait_idle (store);
  index = read_index (scratch, NULL);
  {
    g_autoptr(GBytes) bytes = save_bytes (MAT_DRAFTABLE (other));

    only_draft (index, folder, bytes);
  }
  g_clear_pointer (&index, json_node_unref);
  /* no longer followed: another edit writes nothing */
  edit_attr1 (library, 3, 0x43);
  wait_idle (store);

  /* a library that goes is discarded too */
  g_clear_object (&other);
  wait_idle (store);
  g_assert_null (read_index (scratch, NULL));
  g_assert_cmpuint (count_files (folder, ".draft"), ==, 0);
}

/* The draft follows the first edit by the delay, and later edits do not
 * put it off. */
static void
test_delay (void)
{
  g_autoptr(Scratch) scratch = scratch_new ("DEMO_LIB");
  g_autoptr(MatDraftStore) store = store_new (scratch, 400);
  g_autoptr(MatLibrary) library = load (scratch->lib_file);
  g_autoptr(GPtrArray) found = NULL;
  gint64 start;
  gboolean seen = FALSE;

  mat_draft_store_track (store, MAT_DRAFTABLE (library), NULL);
  start = g_get_monotonic_time ();
  edit_attr1 (library, 0, 1);
  spin_ms (150);
  /* not yet */
  found = sessions (scratch);
  g_assert_cmpuint (found->len, ==, 0);
  g_clear_pointer (&found, g_ptr_array_unref);

  /* an edit every 50 ms for 1.5 s: a draft still appears within about
   * the delay of the first */
  for (guint i = 2; i < 32; i++)
    {
      edit_attr1 (library, 0, i);
      spin_ms (50);
      found = sessions (scratch);
      if (found->len == 1)
        {
          g_autofree char *index = g_build_filename (g_ptr_array_index (found, 0), "index.json", NULL);

          if (!seen && g_file_test (index, G_FILE_TEST_EXISTS))
            {
              seen = TRUE;
              g_assert_cmpint (g_get_monotonic_time () - start, <, 1300 * 1000);
            }
        }
      g_clear_pointer (&found, g_ptr_array_unref);
    }
  g_assert_true (seen);
  wait_idle (store);
}

/* A draft that cannot be written: said (last-error), and the library's
 * file, its version and the unsaved state stay exactly as they were. */
static void
test_write_failure (void)
{
  g_autoptr(Scratch) scratch = scratch_new ("DEMO_LIB");
  g_autofree char *blocker = g_build_filename (scratch->dir, "not-a-folder", NULL);
  g_autoptr(GFile) folder = NULL;
  g_autoptr(MatDraftStore) store = NULL;
  g_autoptr(MatLibrary) library = load (scratch->lib_file);
  g_autoptr(GBytes) original = test_load_file (scratch->lib_path);
  g_autoptr(GBytes) now = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *etag = mat_file_query_etag (scratch->lib_path, NULL);
  g_autofree char *etag_after = NULL;

  /* the drafts would go under a regular file: every mkdir fails, as
   * root too */
  g_assert_true (g_file_set_contents (blocker, "x", 1, NULL));
  folder = g_file_new_build_filename (blocker, "drafts", NULL);
  store = mat_draft_store_new (folder);
  mat_draft_store_set_delay (store, 20);

  mat_draft_store_track (store, MAT_DRAFTABLE (library), NULL);
  edit_attr1 (library, 0, 0x41);
  wait_idle (store);
  g_assert_nonnull (mat_draft_store_get_last_error (store));
  g_assert_nonnull (strstr (mat_draft_store_get_last_error (store), "not-a-folder"));

  now = test_load_file (scratch->lib_path);
  assert_bytes_equal (now, original);
  etag_after = mat_file_query_etag (scratch->lib_path, NULL);
  g_assert_cmpstr (etag_after, ==, etag);
  g_assert_cmpstr (mat_library_get_etag (library), ==, etag);
  g_assert_true (mat_library_get_dirty (library));

  /* the signal's flush fails the same way, and says so */
  g_assert_false (mat_draft_store_flush_sync (store, TRUE, &error));
  g_assert_nonnull (error);
  g_clear_pointer (&now, g_bytes_unref);
  now = test_load_file (scratch->lib_path);
  assert_bytes_equal (now, original);

  /* and saving the library still works */
  g_clear_error (&error);
  g_assert_true (save (library, &error));
  g_assert_no_error (error);
}

/* A signal: the draft is written at once, without the delay, and after
 * the freeze nothing is removed any more. */
static void
test_flush_freeze (void)
{
  g_autoptr(Scratch) scratch = scratch_new ("DEMO_LIB");
  g_autoptr(MatDraftStore) store = store_new (scratch, 60000);
  g_autoptr(MatLibrary) library = load (scratch->lib_file);
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(JsonNode) index = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = NULL;

  mat_draft_store_track (store, MAT_DRAFTABLE (library), NULL);
  edit_attr1 (library, 4, 0x41);
  g_assert_true (mat_draft_store_flush_sync (store, TRUE, &error));
  g_assert_no_error (error);
  g_assert_false (mat_draft_store_get_busy (store));
  edited = save_bytes (MAT_DRAFTABLE (library));
  index = read_index (scratch, &folder);
  only_draft (index, folder, edited);
  g_clear_pointer (&index, json_node_unref);

  /* the process ends: the windows going discard nothing */
  mat_draft_store_discard_archive (store, MAT_DRAFTABLE (library));
  g_clear_object (&library);
  mat_draft_store_close (store);
  index = read_index (scratch, NULL);
  only_draft (index, folder, edited);
}

/* What an editor that ended left: found by the next one (not while it
 * runs), restored byte for byte as unsaved changes, saved to the file,
 * and adopted (kept in the new editor's folder, the old one gone). */
static void
test_left_restore (void)
{
  g_autoptr(Scratch) scratch = scratch_new ("DEMO_LIB");
  g_autoptr(MatDraftStore) first = store_new (scratch, 20);
  g_autoptr(MatDraftStore) second = NULL;
  g_autoptr(MatLibrary) library = load (scratch->lib_file);
  g_autoptr(GListModel) left = NULL;
  g_autoptr(MatDraft) draft = NULL;
  g_autoptr(MatDraftable) restored = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) on_disk = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) folders = NULL;
  g_autofree char *old_folder = NULL;
  g_autofree char *etag = NULL;

  mat_draft_store_track (first, MAT_DRAFTABLE (library), NULL);
  edit_attr1 (library, 0, 0x41);
  edit_attr1 (library, 5, 0x10);
  wait_idle (first);
  edited = save_bytes (MAT_DRAFTABLE (library));
  etag = g_strdup (mat_library_get_etag (library));

  /* while the first editor runs, the second finds nothing */
  second = store_new (scratch, 20);
  left = find_left (second);
  g_assert_cmpuint (g_list_model_get_n_items (left), ==, 0);
  g_clear_object (&left);

  /* killed: its lock goes with the process (here: the store, before
   * the library, which would be discarded otherwise) */
  end_store (&first);
  g_clear_object (&library);
  folders = sessions (scratch);
  g_assert_cmpuint (folders->len, ==, 1);
  old_folder = g_strdup (g_ptr_array_index (folders, 0));

  left = find_left (second);
  g_assert_cmpuint (g_list_model_get_n_items (left), ==, 1);
  draft = g_list_model_get_item (left, 0);
  g_assert_cmpstr (mat_draft_get_kind (draft), ==, MAT_DRAFT_KIND_MATERIALS);
  g_assert_true (g_file_equal (mat_draft_get_file (draft), scratch->lib_file));
  g_assert_cmpstr (mat_draft_get_etag (draft), ==, etag);
  g_assert_null (mat_draft_get_owner (draft));
  g_assert_cmpuint (mat_draft_get_size (draft), ==, g_bytes_get_size (edited));
  g_assert_cmpint (mat_draft_get_disk (draft), ==, MAT_DRAFT_DISK_SAME);
  g_assert_nonnull (mat_draft_get_time (draft));

  restored = restore (draft, &bytes, &error);
  g_assert_no_error (error);
  g_assert_true (MAT_IS_LIBRARY (restored));
  assert_bytes_equal (bytes, edited);
  g_assert_true (mat_library_get_dirty (MAT_LIBRARY (restored)));
  g_assert_false (mat_history_get_can_undo (mat_library_get_history (MAT_LIBRARY (restored))));
  g_assert_true (g_file_equal (mat_library_get_file (MAT_LIBRARY (restored)), scratch->lib_file));
  g_assert_cmpstr (mat_library_get_etag (MAT_LIBRARY (restored)), ==, etag);
  {
    g_autoptr(GBytes) again = save_bytes (restored);

    assert_bytes_equal (again, edited);
  }

  /* adopted: written in the second editor's folder, the first one's gone */
  mat_draft_store_track (second, restored, NULL);
  mat_draft_store_adopt (second, draft, restored);
  wait_idle (second);
  g_assert_false (g_file_test (old_folder, G_FILE_TEST_EXISTS));
  {
    g_autoptr(JsonNode) index = NULL;
    g_autofree char *folder = NULL;

    index = read_index (scratch, &folder);
    g_assert_cmpstr (folder, !=, old_folder);
    only_draft (index, folder, edited);
  }

  /* a save writes exactly those bytes to the file, and the draft goes */
  g_assert_true (save (MAT_LIBRARY (restored), &error));
  g_assert_no_error (error);
  on_disk = test_load_file (scratch->lib_path);
  assert_bytes_equal (on_disk, edited);
  wait_idle (second);
  g_assert_null (read_index (scratch, NULL));
}

/* The file changed on disk since the draft: the draft says so, and a
 * save of the restored library is refused with the file untouched. */
static void
test_left_changed_on_disk (void)
{
  g_autoptr(Scratch) scratch = scratch_new ("DEMO_LIB");
  g_autoptr(MatDraftStore) first = store_new (scratch, 20);
  g_autoptr(MatDraftStore) second = NULL;
  g_autoptr(MatLibrary) library = load (scratch->lib_file);
  g_autoptr(MatLibrary) theirs = NULL;
  g_autoptr(GListModel) left = NULL;
  g_autoptr(MatDraft) draft = NULL;
  g_autoptr(MatDraftable) restored = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GBytes) on_disk = NULL;
  g_autoptr(GError) error = NULL;

  mat_draft_store_track (first, MAT_DRAFTABLE (library), NULL);
  edit_attr1 (library, 0, 0x41);
  wait_idle (first);
  end_store (&first);
  g_clear_object (&library);

  /* another program writes the file meanwhile */
  spin_ms (20);
  theirs = load (scratch->lib_file);
  edit_attr1 (theirs, 6, 0x77);
  g_assert_true (save (theirs, &error));
  g_assert_no_error (error);
  written = test_load_file (scratch->lib_path);

  second = store_new (scratch, 20);
  left = find_left (second);
  g_assert_cmpuint (g_list_model_get_n_items (left), ==, 1);
  draft = g_list_model_get_item (left, 0);
  g_assert_cmpint (mat_draft_get_disk (draft), ==, MAT_DRAFT_DISK_CHANGED);

  restored = restore (draft, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (save (MAT_LIBRARY (restored), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);
  on_disk = test_load_file (scratch->lib_path);
  assert_bytes_equal (on_disk, written);
  g_assert_true (mat_library_get_dirty (MAT_LIBRARY (restored)));

  /* deleted: MISSING */
  g_clear_object (&left);
  g_clear_object (&draft);
  g_assert_cmpint (g_unlink (scratch->lib_path), ==, 0);
  end_store (&second);
  second = store_new (scratch, 20);
  left = find_left (second);
  draft = g_list_model_get_item (left, 0);
  g_assert_cmpint (mat_draft_get_disk (draft), ==, MAT_DRAFT_DISK_MISSING);
}

/* Discarding a draft left by an editor that ended removes it, and the
 * folder once it is empty; one that is damaged is not restored. */
static void
test_left_discard_damaged (void)
{
  g_autoptr(Scratch) scratch = scratch_new ("DEMO_LIB");
  g_autoptr(MatDraftStore) first = store_new (scratch, 20);
  g_autoptr(MatDraftStore) second = NULL;
  g_autoptr(MatLibrary) a = load (scratch->lib_file);
  g_autoptr(MatLibrary) b = load (scratch->lib_file);
  g_autoptr(GListModel) left = NULL;
  g_autoptr(GPtrArray) folders = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;
  MatDraftable *none;

  /* an empty folder of an editor killed before its first draft */
  folder = g_file_get_path (scratch->drafts);
  g_free (path);
  path = g_build_filename (folder, "0000-empty", NULL);
  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
  g_clear_pointer (&folder, g_free);
  folder = g_strdup (path);
  g_clear_pointer (&path, g_free);

  /* killed right after its flush: both drafts stay */
  mat_draft_store_track (first, MAT_DRAFTABLE (a), NULL);
  mat_draft_store_track (first, MAT_DRAFTABLE (b), NULL);
  edit_attr1 (a, 0, 0x41);
  edit_attr1 (b, 1, 0x41);
  g_assert_true (mat_draft_store_flush_sync (first, TRUE, &error));
  g_assert_no_error (error);
  g_clear_object (&a);
  g_clear_object (&b);
  end_store (&first);

  second = store_new (scratch, 20);
  left = find_left (second);
  /* the empty folder went */
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (g_list_model_get_n_items (left), ==, 2);

  /* damage one draft's bytes */
  {
    g_autoptr(MatDraft) draft = g_list_model_get_item (left, 0);

    folders = sessions (scratch);
    g_free (folder);
    folder = g_strdup (g_ptr_array_index (folders, 0));
    dir = g_dir_open (folder, 0, NULL);
    while ((name = g_dir_read_name (dir)) != NULL)
      if (g_str_has_prefix (name, mat_draft_get_id (draft)))
        path = g_build_filename (folder, name, NULL);
    g_assert_nonnull (path);
    {
      g_autoptr(GBytes) bytes = test_load_file (path);
      g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

      copy[g_bytes_get_size (bytes) - 1] ^= 0x01;
      g_assert_true (g_file_set_contents (path, (char *) copy, (gssize) g_bytes_get_size (bytes), NULL));
    }
    none = restore (draft, NULL, &error);
    g_assert_null (none);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_nonnull (strstr (error->message, "damaged"));
    g_clear_error (&error);

    mat_draft_store_discard (second, draft);
    wait_idle (second);
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_test (folder, G_FILE_TEST_IS_DIR));
  }
  {
    g_autoptr(MatDraft) draft = g_list_model_get_item (left, 1);

    mat_draft_store_discard (second, draft);
    wait_idle (second);
    /* the last one: the folder goes */
    g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
  }
  g_clear_object (&left);
  end_store (&second);
  second = store_new (scratch, 20);
  left = find_left (second);
  g_assert_cmpuint (g_list_model_get_n_items (left), ==, 0);
}

/* A Textures.lib: its draft names the library it was edited with, and
 * restores to a texture library of the same bytes. */
static void
test_textures (void)
{
  g_autoptr(Scratch) scratch = scratch_new ("DEMO_LIB");
  g_autoptr(GBytes) demo = test_load_file (g_getenv ("DEMO_TEXTURES"));
  g_autofree char *path = g_build_filename (scratch->dir, "Textures.lib", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(MatDraftStore) first = store_new (scratch, 20);
  g_autoptr(MatDraftStore) second = NULL;
  g_autoptr(MatTextureLibrary) textures = NULL;
  g_autoptr(MatTexture) texture = NULL;
  g_autoptr(GListModel) left = NULL;
  g_autoptr(MatDraft) draft = NULL;
  g_autoptr(MatDraftable) restored = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) index = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *owner = g_file_get_uri (scratch->lib_file);
  const TexmRect rect = { 0, 1, 0, 1 };
  JsonObject *object;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (demo, NULL),
                                      (gssize) g_bytes_get_size (demo), NULL));
  textures = mat_texture_library_load (file, NULL, &error);
  g_assert_no_error (error);
  texture = g_list_model_get_item (G_LIST_MODEL (textures), 0);
  mat_draft_store_track (first, MAT_DRAFTABLE (textures), scratch->lib_file);
  g_assert_true (mat_texture_library_set_page_rects (textures, texture, &rect, 1, &error));
  g_assert_no_error (error);
  wait_idle (first);
  edited = save_bytes (MAT_DRAFTABLE (textures));
  g_assert_false (g_bytes_equal (edited, demo));

  index = read_index (scratch, &folder);
  object = only_draft (index, folder, edited);
  g_assert_cmpstr (json_object_get_string_member (object, "kind"), ==, MAT_DRAFT_KIND_TEXTURES);
  g_assert_cmpstr (json_object_get_string_member (object, "owner"), ==, owner);

  g_assert_true (mat_draft_store_flush_sync (first, TRUE, &error));
  g_clear_object (&textures);
  end_store (&first);
  second = store_new (scratch, 20);
  left = find_left (second);
  g_assert_cmpuint (g_list_model_get_n_items (left), ==, 1);
  draft = g_list_model_get_item (left, 0);
  g_assert_true (g_file_equal (mat_draft_get_owner (draft), scratch->lib_file));
  restored = restore (draft, &bytes, &error);
  g_assert_no_error (error);
  g_assert_true (MAT_IS_TEXTURE_LIBRARY (restored));
  g_assert_true (mat_texture_library_get_dirty (MAT_TEXTURE_LIBRARY (restored)));
  assert_bytes_equal (bytes, edited);
  {
    g_autoptr(GBytes) again = save_bytes (restored);

    assert_bytes_equal (again, edited);
  }
}

/* The plan a draft is made from is taken on the main thread and written
 * in the worker: on the 65,536-material library the part on the main
 * thread is a few milliseconds (figures in the log; the check is
 * lenient, the machine may be shared); the SHA-256 and the safe write
 * that follow are the worker's. The plan also stays right when the
 * library is saved and edited after it was taken. */
static void
test_plan_main_thread (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) stress = test_load_file (g_getenv ("STRESS_LIB"));
  g_autoptr(MatLibrary) library = mat_library_new_from_bytes (stress, &error);
  g_autoptr(GBytes) expected = NULL;
  g_autoptr(GBytes) written = NULL;
  double plan_ms = G_MAXDOUBLE, write_ms = G_MAXDOUBLE;

  g_assert_no_error (error);
  edit_attr1 (library, 100, 0x41);
  expected = mat_library_save_to_bytes (library, &error);
  g_assert_no_error (error);

  for (guint run = 0; run < 5; run++)
    {
      g_autoptr(MatSavePlan) plan = NULL;
      gint64 t0, t1, t2;

      g_clear_pointer (&written, g_bytes_unref);
      t0 = g_get_monotonic_time ();
      plan = mat_draftable_plan_save (MAT_DRAFTABLE (library), &error);
      t1 = g_get_monotonic_time ();
      written = mat_save_plan_write (plan, &error);
      t2 = g_get_monotonic_time ();
      g_assert_no_error (error);
      plan_ms = MIN (plan_ms, (t1 - t0) / 1000.0);
      write_ms = MIN (write_ms, (t2 - t1) / 1000.0);
    }
  assert_bytes_equal (written, expected);
  g_test_message ("65,536 materials: plan on the main thread %.1f ms, bytes in the worker %.1f ms (best of 5)",
                  plan_ms, write_ms);
  /* a frame of the main loop at most, even on a busy machine */
  g_assert_cmpfloat (plan_ms, <, 50.0);

  /* taken, then the library edited: the plan still writes the old state */
  {
    g_autoptr(MatSavePlan) plan = mat_draftable_plan_save (MAT_DRAFTABLE (library), &error);
    g_autoptr(GBytes) later = NULL;

    edit_attr1 (library, 200, 0x42);
    later = mat_save_plan_write (plan, &error);
    g_assert_no_error (error);
    assert_bytes_equal (later, expected);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/drafts/written-updated-saved", test_written_updated_saved);
  g_test_add_func ("/drafts/undo-to-saved", test_undo_to_saved);
  g_test_add_func ("/drafts/discard", test_discard);
  g_test_add_func ("/drafts/delay", test_delay);
  g_test_add_func ("/drafts/write-failure", test_write_failure);
  g_test_add_func ("/drafts/flush-freeze", test_flush_freeze);
  g_test_add_func ("/drafts/left-restore", test_left_restore);
  g_test_add_func ("/drafts/left-changed-on-disk", test_left_changed_on_disk);
  g_test_add_func ("/drafts/left-discard-damaged", test_left_discard_damaged);
  g_test_add_func ("/drafts/textures", test_textures);
  g_test_add_func ("/drafts/plan-main-thread", test_plan_main_thread);

  return g_test_run ();
}
