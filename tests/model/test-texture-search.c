/* test-texture-search.c - where MatDocument finds the Textures.lib of a
 * library: beside it, in the game folder, or the file chosen for it */
#include "config.h"

#include <sys/stat.h>
#include <glib/gstdio.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "mat-document.h"
#include "test-support.h"

#define WAIT_SECONDS 20

static char *tmp_root;

/* ---- helpers ------------------------------------------------------------ */

/* A fresh folder under the test's temporary folder. Returns: (transfer full) */
static char *
make_folder (const char *name)
{
  char *path = g_build_filename (tmp_root, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
  return path;
}

static void
copy_to (const char *source,
         const char *folder,
         const char *name)
{
  g_autoptr(GBytes) bytes = test_load_file (source);
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
}

/* Returns: (transfer full) */
static GFile *
file_in (const char *folder,
         const char *name)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);

  return g_file_new_for_path (path);
}

static GSettings *
settings_new (GSettingsBackend *backend)
{
  return g_settings_new_with_backend (APPLICATION_ID, backend);
}

static void
async_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **slot)
{
  gint64 end = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  while (*slot == NULL && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_nonnull (*slot);
  return *slot;
}

/* Waits until no search runs, then for @source (the settings' "changed"
 * may arrive from an idle). */
static void
wait_source (MatDocument       *document,
             MatTexturesSource  source)
{
  gint64 end = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  while ((mat_document_get_finding_textures (document) ||
          mat_document_get_textures_source (document) != source) &&
         g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (mat_document_get_finding_textures (document));
  g_assert_cmpint (mat_document_get_textures_source (document), ==, source);
  g_assert_true ((mat_document_get_textures (document) != NULL) ==
                 (source != MAT_TEXTURES_SOURCE_NONE));
}

/* Lets pending idles and threads finish for @ms milliseconds. */
static void
settle (MatDocument *document,
        guint        ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end || mat_document_get_finding_textures (document))
    g_main_context_iteration (NULL, FALSE);
}

static MatDocument *
open_document (GSettings  *settings,
               GFile      *file)
{
  MatDocument *document = mat_document_new_with_settings (settings);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mat_document_load_async (document, file, NULL, async_cb, &result);
  g_assert_true (mat_document_load_finish (document, wait_result (&result), &error));
  g_assert_no_error (error);
  return document;
}

static void
save_as (MatDocument *document,
         GFile       *file)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mat_document_save_async (document, file, MAT_SAVE_NONE, NULL, async_cb, &result);
  g_assert_true (mat_document_save_finish (document, wait_result (&result), NULL, &error));
  g_assert_no_error (error);
}

/* The file the document's textures came from, as a path. */
static char *
textures_path (MatDocument *document)
{
  MatTextureLibrary *textures = mat_document_get_textures (document);

  g_assert_nonnull (textures);
  g_assert_nonnull (mat_texture_library_get_file (textures));
  return g_file_get_path (mat_texture_library_get_file (textures));
}

static MatTextureLibrary *
load_textures (const char *folder,
               const char *name)
{
  g_autoptr(GFile) file = file_in (folder, name);
  g_autoptr(GError) error = NULL;
  MatTextureLibrary *textures = mat_texture_library_load (file, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (textures);
  return textures;
}

static void
set_game_folder (GSettings  *settings,
                 const char *folder)
{
  g_assert_true (g_settings_set_string (settings, "game-folder", folder != NULL ? folder : ""));
}

/* The remembered choice for @library in the settings, as a path. */
static char *
remembered (GSettings *settings,
            GFile     *library)
{
  g_autoptr(GVariant) dict = g_settings_get_value (settings, "chosen-textures");
  g_autofree char *key = mat_document_file_to_setting (library);
  const char *value = NULL;
  g_autoptr(GFile) file = NULL;

  if (!g_variant_lookup (dict, key, "&s", &value))
    return NULL;
  file = mat_document_file_from_setting (value);
  g_assert_nonnull (file);
  return g_file_get_path (file);
}

static guint
count_notifies (MatDocument *document)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (document), "source-notifies"));
}

static void
source_notified (MatDocument *document)
{
  g_object_set_data (G_OBJECT (document), "source-notifies",
                     GUINT_TO_POINTER (count_notifies (document) + 1));
}

/* ---- the three places --------------------------------------------------- */

/* 1: a Textures.lib beside the library, whatever the case of its name. */
static void
test_beside (void)
{
  g_autofree char *folder = make_folder ("beside");
  g_autofree char *expected = g_build_filename (folder, "textures.LIB", NULL);
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettings) settings = settings_new (backend);
  g_autoptr(GFile) library = NULL;
  g_autoptr(MatDocument) document = NULL;
  g_autofree char *found = NULL;
  MatTexture *lava;

  copy_to (g_getenv ("DEMO_LIB"), folder, "Material.lib");
  copy_to (g_getenv ("DEMO_TEXTURES"), folder, "textures.LIB");
  library = file_in (folder, "Material.lib");

  document = open_document (settings, library);
  wait_source (document, MAT_TEXTURES_SOURCE_BESIDE);
  found = textures_path (document);
  g_assert_cmpstr (found, ==, expected);
  /* the demo's textures, read */
  lava = mat_texture_library_lookup (mat_document_get_textures (document), "LAVA.A");
  g_assert_nonnull (lava);
  g_assert_cmpuint (mat_texture_get_format (lava), ==, 0);
  /* nothing was remembered: it is found where it is */
  g_assert_null (remembered (settings, library));
}

/* 2: the game folder's Textures.lib when none is beside the library; the
 * search runs again when the setting changes. */
static void
test_game_folder (void)
{
  g_autofree char *folder = make_folder ("game/mods");
  g_autofree char *game = make_folder ("game/Parkan");
  g_autofree char *empty = make_folder ("game/empty");
  g_autofree char *expected = g_build_filename (game, "TEXTURES.LIB", NULL);
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettings) settings = settings_new (backend);
  g_autoptr(GFile) library = NULL;
  g_autoptr(MatDocument) document = NULL;
  g_autofree char *found = NULL;

  copy_to (g_getenv ("DEMO_LIB"), folder, "Material.lib");
  copy_to (g_getenv ("DEMO_TEXTURES"), game, "TEXTURES.LIB");
  library = file_in (folder, "Material.lib");

  /* no game folder yet: nothing */
  document = open_document (settings, library);
  g_signal_connect (document, "notify::textures-source", G_CALLBACK (source_notified), NULL);
  wait_source (document, MAT_TEXTURES_SOURCE_NONE);

  /* set while the library is open: found at once */
  set_game_folder (settings, game);
  wait_source (document, MAT_TEXTURES_SOURCE_GAME_FOLDER);
  found = textures_path (document);
  g_assert_cmpstr (found, ==, expected);
  g_assert_nonnull (mat_texture_library_lookup (mat_document_get_textures (document), "rock.0"));
  g_assert_cmpuint (count_notifies (document), ==, 1);

  /* a game folder without Textures.lib: none again */
  set_game_folder (settings, empty);
  wait_source (document, MAT_TEXTURES_SOURCE_NONE);
  g_assert_cmpuint (count_notifies (document), ==, 2);

  /* set back, then cleared */
  set_game_folder (settings, game);
  wait_source (document, MAT_TEXTURES_SOURCE_GAME_FOLDER);
  set_game_folder (settings, NULL);
  wait_source (document, MAT_TEXTURES_SOURCE_NONE);
  g_assert_cmpuint (count_notifies (document), ==, 4);

  /* a relative path is no folder (it would depend on where the editor
   * started): ignored */
  g_assert_true (g_chdir (tmp_root) == 0);
  set_game_folder (settings, "game/Parkan");
  settle (document, 100);
  g_assert_cmpint (mat_document_get_textures_source (document), ==, MAT_TEXTURES_SOURCE_NONE);

  /* a document opened when the folder is already set */
  set_game_folder (settings, game);
  g_clear_object (&document);
  document = open_document (settings, library);
  wait_source (document, MAT_TEXTURES_SOURCE_GAME_FOLDER);
}

/* 3: the file chosen for the library, remembered through the settings:
 * another document (the next time the editor runs) finds it. */
static void
test_chosen (void)
{
  g_autofree char *folder = make_folder ("chosen/mods");
  g_autofree char *elsewhere = make_folder ("chosen/textures");
  g_autofree char *expected = g_build_filename (elsewhere, "Textures.lib", NULL);
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettings) settings = settings_new (backend);
  g_autoptr(GSettings) next_run = NULL;
  g_autoptr(GFile) library = NULL;
  g_autoptr(MatDocument) document = NULL;
  g_autoptr(MatTextureLibrary) chosen = NULL;
  g_autofree char *stored = NULL;
  g_autofree char *found = NULL;

  copy_to (g_getenv ("DEMO_LIB"), folder, "Material.lib");
  copy_to (g_getenv ("DEMO_TEXTURES"), elsewhere, "Textures.lib");
  library = file_in (folder, "Material.lib");

  document = open_document (settings, library);
  wait_source (document, MAT_TEXTURES_SOURCE_NONE);

  /* the picker loaded it: the document takes that very library */
  chosen = load_textures (elsewhere, "Textures.lib");
  mat_document_choose_textures (document, chosen);
  wait_source (document, MAT_TEXTURES_SOURCE_CHOSEN);
  g_assert_true (mat_document_get_textures (document) == chosen);
  g_assert_true (g_file_equal (mat_document_get_chosen_textures (document),
                               mat_texture_library_get_file (chosen)));
  stored = remembered (settings, library);
  g_assert_cmpstr (stored, ==, expected);

  /* the next run: new settings on the same store, a new document */
  g_clear_object (&document);
  next_run = settings_new (backend);
  document = open_document (next_run, library);
  wait_source (document, MAT_TEXTURES_SOURCE_CHOSEN);
  found = textures_path (document);
  g_assert_cmpstr (found, ==, expected);
  g_assert_true (mat_document_get_textures (document) != chosen);

  /* forgetting every choice (the preferences' "Forget") drops it */
  g_settings_reset (next_run, "chosen-textures");
  wait_source (document, MAT_TEXTURES_SOURCE_NONE);
  g_assert_null (mat_document_get_chosen_textures (document));

  /* without settings a choice lasts as long as the document */
  g_clear_object (&document);
  document = open_document (NULL, library);
  wait_source (document, MAT_TEXTURES_SOURCE_NONE);
  mat_document_choose_textures (document, chosen);
  wait_source (document, MAT_TEXTURES_SOURCE_CHOSEN);
  g_assert_true (mat_document_get_textures (document) == chosen);
  g_assert_null (remembered (next_run, library));
}

/* Beside first, then the game folder, then the choice; one that does not
 * load gives way to the next. */
static void
test_precedence (void)
{
  g_autofree char *folder = make_folder ("order/library");
  g_autofree char *game = make_folder ("order/game");
  g_autofree char *mine = make_folder ("order/mine");
  g_autofree char *beside_path = g_build_filename (folder, "Textures.lib", NULL);
  g_autofree char *game_path = g_build_filename (game, "Textures.lib", NULL);
  g_autofree char *mine_path = g_build_filename (mine, "Textures.lib", NULL);
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettings) settings = settings_new (backend);
  g_autoptr(GFile) library = NULL;
  g_autoptr(MatDocument) document = NULL;
  g_autoptr(MatTextureLibrary) chosen = NULL;
  g_autoptr(GError) error = NULL;
  char *found;

  copy_to (g_getenv ("DEMO_LIB"), folder, "Material.lib");
  copy_to (g_getenv ("DEMO_TEXTURES"), folder, "Textures.lib");
  copy_to (g_getenv ("DEMO_TEXTURES"), game, "Textures.lib");
  copy_to (g_getenv ("DEMO_TEXTURES"), mine, "Textures.lib");
  library = file_in (folder, "Material.lib");
  set_game_folder (settings, game);

  /* all three: beside wins, even over a fresh choice */
  document = open_document (settings, library);
  wait_source (document, MAT_TEXTURES_SOURCE_BESIDE);
  chosen = load_textures (mine, "Textures.lib");
  mat_document_choose_textures (document, chosen);
  wait_source (document, MAT_TEXTURES_SOURCE_BESIDE);
  found = textures_path (document);
  g_assert_cmpstr (found, ==, beside_path);
  g_free (found);

  /* no Textures.lib beside: the game folder before the choice */
  g_assert_cmpint (g_remove (beside_path), ==, 0);
  g_clear_object (&document);
  document = open_document (settings, library);
  wait_source (document, MAT_TEXTURES_SOURCE_GAME_FOLDER);
  found = textures_path (document);
  g_assert_cmpstr (found, ==, game_path);
  g_free (found);

  /* no game folder: the choice */
  set_game_folder (settings, NULL);
  wait_source (document, MAT_TEXTURES_SOURCE_CHOSEN);
  found = textures_path (document);
  g_assert_cmpstr (found, ==, mine_path);
  g_free (found);

  /* a Textures.lib beside that is no archive, and a game folder whose
   * Textures.lib is a FIFO (never read, never waited on): the choice */
  g_file_set_contents (beside_path, "not an NRes archive", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_remove (game_path), ==, 0);
  g_assert_cmpint (mkfifo (game_path, 0600), ==, 0);
  set_game_folder (settings, game);
  g_clear_object (&document);
  document = open_document (settings, library);
  wait_source (document, MAT_TEXTURES_SOURCE_CHOSEN);
  found = textures_path (document);
  g_assert_cmpstr (found, ==, mine_path);
  g_free (found);

  /* a chosen file that is gone: nothing, and no crash */
  g_assert_cmpint (g_remove (mine_path), ==, 0);
  g_clear_object (&document);
  document = open_document (settings, library);
  wait_source (document, MAT_TEXTURES_SOURCE_NONE);
  g_assert_cmpint (g_remove (game_path), ==, 0);
  g_assert_cmpint (g_remove (beside_path), ==, 0);
}

/* ---- save as ------------------------------------------------------------ */

/* Saved to a folder without Textures.lib, the library keeps the textures
 * it showed: the same library, and the next time it opens too. */
static void
test_save_as_remembers (void)
{
  g_autofree char *folder = make_folder ("save-as/original");
  g_autofree char *other = make_folder ("save-as/copy");
  g_autofree char *expected = g_build_filename (folder, "Textures.lib", NULL);
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettings) settings = settings_new (backend);
  g_autoptr(GSettings) next_run = settings_new (backend);
  g_autoptr(GFile) library = NULL;
  g_autoptr(GFile) copy = NULL;
  g_autoptr(MatDocument) document = NULL;
  MatTextureLibrary *shown;
  g_autofree char *stored = NULL;
  g_autofree char *found = NULL;

  copy_to (g_getenv ("DEMO_LIB"), folder, "Material.lib");
  copy_to (g_getenv ("DEMO_TEXTURES"), folder, "Textures.lib");
  library = file_in (folder, "Material.lib");
  copy = file_in (other, "Material.lib");

  document = open_document (settings, library);
  wait_source (document, MAT_TEXTURES_SOURCE_BESIDE);
  shown = mat_document_get_textures (document);

  save_as (document, copy);
  g_assert_true (g_file_equal (mat_document_get_file (document), copy));
  wait_source (document, MAT_TEXTURES_SOURCE_CHOSEN);
  /* not read again */
  g_assert_true (mat_document_get_textures (document) == shown);
  stored = remembered (settings, copy);
  g_assert_cmpstr (stored, ==, expected);

  /* the copy opened later finds them */
  g_clear_object (&document);
  document = open_document (next_run, copy);
  g_assert_true (mat_document_get_settings (document) == next_run);
  wait_source (document, MAT_TEXTURES_SOURCE_CHOSEN);
  found = textures_path (document);
  g_assert_cmpstr (found, ==, expected);

  /* saved back beside its Textures.lib: found there again */
  save_as (document, library);
  wait_source (document, MAT_TEXTURES_SOURCE_BESIDE);
}

/* With a game folder, a library saved elsewhere shows the game's
 * textures, and nothing needs remembering. */
static void
test_save_as_game_folder (void)
{
  g_autofree char *folder = make_folder ("save-as-game/mods");
  g_autofree char *other = make_folder ("save-as-game/elsewhere");
  g_autofree char *game = make_folder ("save-as-game/Parkan");
  g_autofree char *expected = g_build_filename (game, "Textures.lib", NULL);
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettings) settings = settings_new (backend);
  g_autoptr(GFile) library = NULL;
  g_autoptr(GFile) copy = NULL;
  g_autoptr(MatDocument) document = NULL;
  g_autoptr(GVariant) dict = NULL;
  g_autofree char *found = NULL;

  copy_to (g_getenv ("DEMO_LIB"), folder, "Material.lib");
  copy_to (g_getenv ("DEMO_TEXTURES"), game, "Textures.lib");
  library = file_in (folder, "Material.lib");
  copy = file_in (other, "Material.lib");
  set_game_folder (settings, game);

  document = open_document (settings, library);
  wait_source (document, MAT_TEXTURES_SOURCE_GAME_FOLDER);
  save_as (document, copy);
  g_assert_true (g_file_equal (mat_document_get_file (document), copy));
  settle (document, 50);
  wait_source (document, MAT_TEXTURES_SOURCE_GAME_FOLDER);
  found = textures_path (document);
  g_assert_cmpstr (found, ==, expected);
  dict = g_settings_get_value (settings, "chosen-textures");
  g_assert_cmpuint (g_variant_n_children (dict), ==, 0);
}

/* ---- what the settings hold --------------------------------------------- */

static void
test_setting_values (void)
{
  static const char *not_files[] = { "", "relative/folder", "Parkan", "./x" };
  const char *home = g_get_home_dir ();
  g_autoptr(GFile) tilde = mat_document_file_from_setting ("~/Parkan");
  g_autoptr(GFile) uri = mat_document_file_from_setting ("file:///opt/Parkan%20Iron%20Strategy");
  g_autoptr(GFile) cyrillic = g_file_new_for_path ("/home/игрок/Паркан/Textures.lib");
  g_autoptr(GFile) bad_bytes = g_file_new_for_path ("/tmp/\xff\xfe/Textures.lib");
  g_autofree char *tilde_path = NULL;
  g_autofree char *uri_path = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GFile) back = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (not_files); i++)
    g_assert_null (mat_document_file_from_setting (not_files[i]));
  g_assert_null (mat_document_file_from_setting (NULL));

  tilde_path = g_file_get_path (tilde);
  g_assert_true (g_str_has_prefix (tilde_path, home));
  g_assert_true (g_str_has_suffix (tilde_path, "/Parkan"));
  uri_path = g_file_get_path (uri);
  g_assert_cmpstr (uri_path, ==, "/opt/Parkan Iron Strategy");

  /* a Russian folder stays readable */
  text = mat_document_file_to_setting (cyrillic);
  g_assert_cmpstr (text, ==, "/home/игрок/Паркан/Textures.lib");
  back = mat_document_file_from_setting (text);
  g_assert_true (g_file_equal (back, cyrillic));
  g_clear_pointer (&text, g_free);
  g_clear_object (&back);

  /* a name that is no UTF-8 still fits a settings string and reads back */
  text = mat_document_file_to_setting (bad_bytes);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  back = mat_document_file_from_setting (text);
  g_assert_nonnull (back);
  g_assert_true (g_file_equal (back, bad_bytes));
}

/* The choices kept are the newest MAX (100); choosing again moves one to
 * the end. */
static void
test_remembered_limit (void)
{
  g_autofree char *folder = make_folder ("limit/library");
  g_autofree char *elsewhere = make_folder ("limit/textures");
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettings) settings = settings_new (backend);
  g_autoptr(GFile) library = NULL;
  g_autoptr(MatDocument) document = NULL;
  g_autoptr(MatTextureLibrary) chosen = NULL;
  g_autoptr(GVariant) dict = NULL;
  g_autoptr(GVariant) last = NULL;
  g_autofree char *key = NULL;
  GVariantBuilder builder;
  const char *k = NULL, *v = NULL;

  copy_to (g_getenv ("DEMO_LIB"), folder, "Material.lib");
  copy_to (g_getenv ("DEMO_TEXTURES"), elsewhere, "Textures.lib");
  library = file_in (folder, "Material.lib");
  key = mat_document_file_to_setting (library);

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *name = g_strdup_printf ("/old/%03u/Material.lib", i);

      g_variant_builder_add (&builder, "{ss}", name, "/old/Textures.lib");
    }
  g_assert_true (g_settings_set_value (settings, "chosen-textures", g_variant_builder_end (&builder)));

  document = open_document (settings, library);
  wait_source (document, MAT_TEXTURES_SOURCE_NONE);
  chosen = load_textures (elsewhere, "Textures.lib");
  mat_document_choose_textures (document, chosen);
  wait_source (document, MAT_TEXTURES_SOURCE_CHOSEN);

  dict = g_settings_get_value (settings, "chosen-textures");
  g_assert_cmpuint (g_variant_n_children (dict), ==, 100);
  g_assert_false (g_variant_lookup (dict, "/old/000/Material.lib", "&s", NULL));
  g_assert_true (g_variant_lookup (dict, "/old/001/Material.lib", "&s", NULL));
  last = g_variant_get_child_value (dict, 99);
  g_variant_get (last, "{&s&s}", &k, &v);
  g_assert_cmpstr (k, ==, key);

  /* the same choice again changes nothing */
  mat_document_choose_textures (document, chosen);
  wait_source (document, MAT_TEXTURES_SOURCE_CHOSEN);
  {
    g_autoptr(GVariant) again = g_settings_get_value (settings, "chosen-textures");

    g_assert_true (g_variant_equal (again, dict));
  }

  /* a document without a file has nothing to remember it for */
  {
    g_autoptr(MatDocument) other = mat_document_new_with_settings (settings);
    g_autoptr(GVariant) after = NULL;

    mat_document_choose_textures (other, chosen);
    after = g_settings_get_value (settings, "chosen-textures");
    g_assert_true (g_variant_equal (after, dict));
    g_assert_null (mat_document_get_textures (other));
    g_assert_cmpint (mat_document_get_textures_source (other), ==, MAT_TEXTURES_SOURCE_NONE);
  }
}

static void
created_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  *(MatTextureLibrary **) user_data = mat_texture_library_create_finish (result, &error);
  g_assert_no_error (error);
}

/* An empty Textures.lib created as the texture window does. */
static MatTextureLibrary *
create_textures (const char *folder)
{
  g_autoptr(GFile) file = file_in (folder, "Textures.lib");
  MatTextureLibrary *textures = NULL;
  gint64 end = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  mat_texture_library_create_async (file, NULL, created_cb, &textures);
  while (textures == NULL && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_nonnull (textures);
  return textures;
}

static gboolean
has_texture (MatTextureLibrary *textures,
             const char        *name)
{
  return mat_texture_library_lookup (textures, name) != NULL;
}

/* A Textures.lib created for a library that had none is the document's
 * at once: the same object (edits and all) through later searches, and
 * saved to its own file. */
static void
test_adopt_created (void)
{
  g_autofree char *folder = make_folder ("adopt/mods");
  g_autofree char *game = make_folder ("adopt/game");
  g_autofree char *empty = make_folder ("adopt/empty");
  g_autofree char *elsewhere = make_folder ("adopt/elsewhere");
  g_autofree char *other_folder = make_folder ("adopt/other");
  g_autofree char *expected = g_build_filename (elsewhere, "Textures.lib", NULL);
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettings) settings = settings_new (backend);
  g_autoptr(GFile) library = NULL;
  g_autoptr(GFile) other_library = NULL;
  g_autoptr(MatDocument) document = NULL;
  g_autoptr(MatDocument) next = NULL;
  g_autoptr(MatTextureLibrary) created = NULL;
  g_autoptr(MatTextureLibrary) chosen = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *stored = NULL;

  copy_to (g_getenv ("DEMO_LIB"), folder, "Material.lib");
  copy_to (g_getenv ("DEMO_TEXTURES"), game, "Textures.lib");
  library = file_in (folder, "Material.lib");

  document = open_document (settings, library);
  wait_source (document, MAT_TEXTURES_SOURCE_NONE);
  g_signal_connect (document, "notify::textures-source", G_CALLBACK (source_notified), NULL);

  /* created beside the library while a search runs (one that started
   * before the file was there, or would read it again): the document
   * takes it at once and gives that search up */
  created = create_textures (folder);
  set_game_folder (settings, empty);
  {
    gint64 end = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

    while (!mat_document_get_finding_textures (document) && g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, FALSE);
    g_assert_true (mat_document_get_finding_textures (document));
  }
  mat_document_adopt_textures (document, created);
  g_assert_true (mat_document_get_textures (document) == created);
  g_assert_cmpint (mat_document_get_textures_source (document), ==, MAT_TEXTURES_SOURCE_BESIDE);
  g_assert_false (mat_document_get_finding_textures (document));
  g_assert_cmpuint (count_notifies (document), ==, 1);
  settle (document, 200);
  g_assert_true (mat_document_get_textures (document) == created);
  g_assert_cmpuint (count_notifies (document), ==, 1);
  /* it is where a search looks first: nothing to remember */
  g_assert_null (remembered (settings, library));
  g_assert_null (mat_document_get_chosen_textures (document));

  /* an unsaved edit, then a search again (the game folder set): the same
   * library, edit and all, not the file read again */
  {
    g_autoptr(MatTextureLibrary) demo = load_textures (game, "Textures.lib");

    payload = g_bytes_ref (mat_texture_get_payload (mat_texture_library_lookup (demo, "ROCK.0")));
  }
  g_assert_nonnull (mat_texture_library_import_payload (created, "ROCK.0", payload, &error));
  g_assert_no_error (error);
  set_game_folder (settings, game);
  settle (document, 100);
  wait_source (document, MAT_TEXTURES_SOURCE_BESIDE);
  g_assert_true (mat_document_get_textures (document) == created);
  g_assert_true (has_texture (created, "ROCK.0"));
  g_assert_true (mat_texture_library_get_dirty (created));

  /* saved: to the file beside the library, which the next document reads */
  mat_texture_library_save_async (created, NULL, MAT_SAVE_NONE, NULL, async_cb, &result);
  g_assert_true (mat_texture_library_save_finish (created, wait_result (&result), NULL, &error));
  g_assert_no_error (error);
  {
    g_autofree char *path = g_build_filename (folder, "Textures.lib", NULL);
    g_autoptr(GBytes) on_disk = test_load_file (path);
    g_autoptr(GBytes) saved = mat_texture_library_save_to_bytes (created, &error);

    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (on_disk, saved));
  }
  next = open_document (settings, library);
  wait_source (next, MAT_TEXTURES_SOURCE_BESIDE);
  g_assert_true (has_texture (mat_document_get_textures (next), "ROCK.0"));
  set_game_folder (settings, NULL);
  settle (document, 100);
  g_assert_true (mat_document_get_textures (document) == created);

  /* created anywhere else: the library's choice, remembered */
  copy_to (g_getenv ("DEMO_LIB"), other_folder, "Material.lib");
  other_library = file_in (other_folder, "Material.lib");
  g_clear_object (&next);
  next = open_document (settings, other_library);
  wait_source (next, MAT_TEXTURES_SOURCE_NONE);
  chosen = create_textures (elsewhere);
  mat_document_adopt_textures (next, chosen);
  g_assert_true (mat_document_get_textures (next) == chosen);
  g_assert_cmpint (mat_document_get_textures_source (next), ==, MAT_TEXTURES_SOURCE_CHOSEN);
  stored = remembered (settings, other_library);
  g_assert_cmpstr (stored, ==, expected);
  g_assert_true (g_file_equal (mat_document_get_chosen_textures (next), mat_texture_library_get_file (chosen)));
  settle (next, 100);
  g_assert_true (mat_document_get_textures (next) == chosen);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("DEMO_LIB") == NULL || g_getenv ("DEMO_TEXTURES") == NULL ||
      g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
    {
      g_printerr ("DEMO_LIB, DEMO_TEXTURES or GSETTINGS_SCHEMA_DIR is not set (run through meson test)\n");
      return 1;
    }
  tmp_root = g_dir_make_tmp ("test-texture-search-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/model/texture-search/beside", test_beside);
  g_test_add_func ("/model/texture-search/game-folder", test_game_folder);
  g_test_add_func ("/model/texture-search/chosen", test_chosen);
  g_test_add_func ("/model/texture-search/precedence", test_precedence);
  g_test_add_func ("/model/texture-search/save-as-remembers", test_save_as_remembers);
  g_test_add_func ("/model/texture-search/save-as-game-folder", test_save_as_game_folder);
  g_test_add_func ("/model/texture-search/setting-values", test_setting_values);
  g_test_add_func ("/model/texture-search/remembered-limit", test_remembered_limit);
  g_test_add_func ("/model/texture-search/adopt-created", test_adopt_created);

  status = g_test_run ();

  remove_tree (tmp_root);
  g_free (tmp_root);
  return status;
}
