/* test-restart.c - the real editor killed and started again: nothing
 * unsaved is lost
 *
 * Starts the editor binary (MATEDIT, from the build folder) on a copy of
 * the demo library, with XDG_DATA_HOME in a scratch folder, the memory
 * settings backend and a private session bus (GTestDBus), and drives it
 * through its application actions on that bus: app.test-hook
 * (MATEDIT_TEST_HOOKS, mat-test-hook.h) for the edits and saves, and
 * app.restore-all-drafts, the drafts dialog's own action. An attr1 edit
 * of the library and a Page rectangle of its Textures.lib are made, the
 * editor is killed (SIGKILL once the drafts are on disk, SIGTERM right
 * after the edits), started again, the drafts it offers restored and
 * saved: both files must then hold exactly the bytes a save would have
 * written, computed here by the model. A file another program changed
 * meanwhile is not overwritten by the restored draft's save.
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "mat-library.h"
#include "mat-texture-library.h"

#define APP_PATH "/io/github/parkan/MatEdit"
#define WAIT_SECONDS 30

static GTestDBus       *bus;
static GDBusConnection *connection;
static char            *scratch;
static char            *display;   /* GTestDBus unsets DISPLAY */
static GdkDisplay      *keep_display;

typedef struct {
  char   *lib_path;
  char   *tex_path;
  char   *data_dir;
  GBytes *lib_original;
  GBytes *tex_original;
  GBytes *lib_expected;   /* the bytes a save writes after the edits */
  GBytes *tex_expected;
} Case;

static void
case_free (Case *c)
{
  g_free (c->lib_path);
  g_free (c->tex_path);
  g_free (c->data_dir);
  g_bytes_unref (c->lib_original);
  g_bytes_unref (c->tex_original);
  g_bytes_unref (c->lib_expected);
  g_bytes_unref (c->tex_expected);
  g_free (c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Case, case_free)

static GBytes *
read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (contents, length);
}

static void
write_bytes (const char *path,
             GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
}

static void
assert_bytes_equal (GBytes *a,
                    GBytes *b)
{
  g_assert_cmpmem (g_bytes_get_data (a, NULL), g_bytes_get_size (a),
                   g_bytes_get_data (b, NULL), g_bytes_get_size (b));
}

/* The edits the editor is asked for, made here by the model: what a
 * save writes after them. */
static void
expected_bytes (Case *c)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MatLibrary) library = mat_library_new_from_bytes (c->lib_original, &error);
  g_autoptr(MatTextureLibrary) textures = NULL;
  MatTexture *texture;
  const TexmRect rect = { 0, 8, 0, 8 };

  g_assert_no_error (error);
  g_assert_true (mat_material_set_attr1 (mat_library_find (library, "GLOW_PULSE"), 0x41, &error));
  g_assert_no_error (error);
  c->lib_expected = mat_library_save_to_bytes (library, &error);
  g_assert_no_error (error);
  g_assert_false (g_bytes_equal (c->lib_expected, c->lib_original));

  textures = mat_texture_library_new_from_bytes (c->tex_original, &error);
  g_assert_no_error (error);
  texture = mat_texture_library_lookup (textures, "ROCK.0");
  g_assert_nonnull (texture);
  g_assert_true (mat_texture_library_set_page_rects (textures, texture, &rect, 1, &error));
  g_assert_no_error (error);
  c->tex_expected = mat_texture_library_save_to_bytes (textures, &error);
  g_assert_no_error (error);
  g_assert_false (g_bytes_equal (c->tex_expected, c->tex_original));
}

/* A folder with Material.lib and Textures.lib (the demo's) and a data
 * folder of its own. */
static Case *
case_new (const char *name)
{
  Case *c = g_new0 (Case, 1);
  g_autofree char *dir = g_build_filename (scratch, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  c->lib_path = g_build_filename (dir, "Material.lib", NULL);
  c->tex_path = g_build_filename (dir, "Textures.lib", NULL);
  c->data_dir = g_build_filename (dir, "data", NULL);
  c->lib_original = read_bytes (g_getenv ("DEMO_LIB"));
  c->tex_original = read_bytes (g_getenv ("DEMO_TEXTURES"));
  write_bytes (c->lib_path, c->lib_original);
  write_bytes (c->tex_path, c->tex_original);
  expected_bytes (c);
  return c;
}

/* ---- the editor ------------------------------------------------------- */

static GSubprocess *
start_editor (Case *c)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  GSubprocess *editor;

  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", c->data_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "GSETTINGS_BACKEND", "memory", TRUE);
  g_subprocess_launcher_setenv (launcher, "MATEDIT_TEST_HOOKS", "1", TRUE);
  g_subprocess_launcher_setenv (launcher, "GSK_RENDERER", "cairo", TRUE);
  g_subprocess_launcher_setenv (launcher, "GTK_A11Y", "none", TRUE);
  g_subprocess_launcher_setenv (launcher, "NO_AT_BRIDGE", "1", TRUE);
  if (display != NULL)
    g_subprocess_launcher_setenv (launcher, "DISPLAY", display, TRUE);
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS",
                                g_test_dbus_get_bus_address (bus), TRUE);
  editor = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("MATEDIT"), c->lib_path, NULL);
  g_assert_no_error (error);
  return editor;
}

/* Activates the application action @name over the bus; %FALSE while the
 * editor has not taken its name yet. */
static gboolean
activate (const char *name,
          GVariant   *parameter)
{
  g_autoptr(GVariantBuilder) parameters = g_variant_builder_new (G_VARIANT_TYPE ("av"));
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  if (parameter != NULL)
    g_variant_builder_add (parameters, "v", parameter);
  reply = g_dbus_connection_call_sync (connection, APPLICATION_ID, APP_PATH, "org.gtk.Actions",
                                       "Activate",
                                       g_variant_new ("(sava{sv})", name, parameters, NULL),
                                       NULL, G_DBUS_CALL_FLAGS_NONE, 5000, NULL, &error);
  return reply != NULL;
}

/* Runs a test-hook command. Returns: (transfer full) (nullable): the
 * hook's state after it ("SERIAL ok STATUS", "SERIAL error ..."). */
static char *
hook (const char *command)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) state = NULL;
  g_autoptr(GVariant) value = NULL;
  g_autoptr(GError) error = NULL;

  if (!activate ("test-hook", g_variant_new_string (command)))
    return NULL;
  reply = g_dbus_connection_call_sync (connection, APPLICATION_ID, APP_PATH, "org.gtk.Actions",
                                       "Describe", g_variant_new ("(s)", "test-hook"),
                                       G_VARIANT_TYPE ("((bgav))"), G_DBUS_CALL_FLAGS_NONE, 5000,
                                       NULL, &error);
  g_assert_no_error (error);
  g_variant_get_child (reply, 0, "(bg@av)", NULL, NULL, &state);
  g_assert_cmpuint (g_variant_n_children (state), ==, 1);
  g_variant_get_child (state, 0, "v", &value);
  return g_variant_dup_string (value, NULL);
}

static void
spin_ms (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10 * 1000);
    }
}

/* Runs "status" until the state has every one of @words (space
 * separated, each "key=value"); fails the test after WAIT_SECONDS. */
static void
wait_status (const char *words)
{
  g_auto(GStrv) wanted = g_strsplit (words, " ", -1);
  gint64 end = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;
  g_autofree char *last = NULL;

  while (g_get_monotonic_time () < end)
    {
      g_autofree char *state = hook ("status");
      gboolean all = state != NULL && strstr (state, " ok ") != NULL;

      for (guint i = 0; all && wanted[i] != NULL; i++)
        {
          g_autofree char *word = g_strconcat (" ", wanted[i], NULL);
          const char *at = strstr (state, word);

          all = at != NULL && (at[strlen (word)] == ' ' || at[strlen (word)] == '\0');
        }
      if (all)
        return;
      g_free (last);
      last = g_steal_pointer (&state);
      spin_ms (100);
    }
  g_error ("waited for “%s”; the editor said “%s”", words, last != NULL ? last : "nothing");
}

static void
run_hook (const char *command)
{
  g_autofree char *state = hook (command);

  g_assert_nonnull (state);
  if (strstr (state, " ok ") == NULL)
    g_error ("%s: %s", command, state);
}

static void
edit (void)
{
  run_hook ("attr1 GLOW_PULSE 0x41");
  run_hook ("cells ROCK.0 0 8 0 8");
}

/* Waits until the editor has gone; returns its wait status. */
static int
wait_gone (GSubprocess *editor)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_subprocess_wait (editor, NULL, &error));
  g_assert_no_error (error);
  return g_subprocess_get_status (editor);
}

/* ---- the drafts on disk ------------------------------------------------- */

/* The draft files under @c's data folder whose bytes are @expected and
 * that their folder's index names (the store writes a draft's bytes
 * first, then the index: a draft the index does not name yet is not
 * offered after a kill). */
static guint
drafts_holding (Case   *c,
                GBytes *expected)
{
  g_autofree char *root = g_build_filename (c->data_dir, "parkan-matedit", "drafts", NULL);
  g_autoptr(GDir) sessions = g_dir_open (root, 0, NULL);
  const char *session;
  guint n = 0;

  while (sessions != NULL && (session = g_dir_read_name (sessions)) != NULL)
    {
      g_autofree char *folder = g_build_filename (root, session, NULL);
      g_autofree char *index_path = g_build_filename (folder, "index.json", NULL);
      g_autofree char *index = NULL;
      g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
      const char *name;

      if (!g_file_get_contents (index_path, &index, NULL, NULL))
        continue;
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        if (g_str_has_suffix (name, ".draft") && strstr (index, name) != NULL)
          {
            g_autofree char *path = g_build_filename (folder, name, NULL);
            g_autoptr(GBytes) bytes = read_bytes (path);

            n += g_bytes_equal (bytes, expected);
          }
    }
  return n;
}

static guint
count_drafts (Case *c)
{
  g_autofree char *command = NULL;
  g_autofree char *out = NULL;
  g_autofree char *root = g_build_filename (c->data_dir, "parkan-matedit", "drafts", NULL);

  command = g_strdup_printf ("sh -c \"find '%s' -name '*.draft' 2>/dev/null | wc -l\"", root);
  g_assert_true (g_spawn_command_line_sync (command, &out, NULL, NULL, NULL));
  return (guint) g_ascii_strtoull (out, NULL, 10);
}

static void
wait_drafts (Case *c)
{
  gint64 end = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  while (drafts_holding (c, c->lib_expected) != 1 || drafts_holding (c, c->tex_expected) != 1)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      spin_ms (100);
    }
}

/* Started again: both drafts offered, restored through the dialog's
 * action, saved; the files hold exactly the expected bytes and no draft
 * is left. */
static void
restore_and_save (Case *c)
{
  g_autoptr(GSubprocess) editor = start_editor (c);
  g_autoptr(GBytes) lib_now = NULL;
  g_autoptr(GBytes) tex_now = NULL;
  gint64 end;

  wait_status ("library=1 textures=1 offered=2");
  /* what is on disk is still the original */
  lib_now = read_bytes (c->lib_path);
  assert_bytes_equal (lib_now, c->lib_original);
  g_clear_pointer (&lib_now, g_bytes_unref);

  g_assert_true (activate ("restore-all-drafts", NULL));
  wait_status ("dirty=1 textures-dirty=1 offered=0 disk=same");
  run_hook ("save");
  run_hook ("save-textures");
  wait_status ("dirty=0 textures-dirty=0");

  lib_now = read_bytes (c->lib_path);
  tex_now = read_bytes (c->tex_path);
  assert_bytes_equal (lib_now, c->lib_expected);
  assert_bytes_equal (tex_now, c->tex_expected);

  /* saved: no draft stays */
  end = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;
  while (count_drafts (c) != 0)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      spin_ms (100);
    }

  g_subprocess_send_signal (editor, SIGTERM);
  wait_gone (editor);
  g_assert_cmpuint (count_drafts (c), ==, 0);
}

/* ---- the tests ---------------------------------------------------------- */

static void
test_sigkill (void)
{
  g_autoptr(Case) c = case_new ("sigkill");
  g_autoptr(GSubprocess) editor = start_editor (c);
  int status;

  wait_status ("library=1 textures=1");
  edit ();
  wait_status ("dirty=1 textures-dirty=1");
  /* the drafts follow within the delay, then the editor is killed */
  wait_drafts (c);
  g_subprocess_force_exit (editor);
  status = wait_gone (editor);
  g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);

  restore_and_save (c);
}

static void
test_sigterm (void)
{
  g_autoptr(Case) c = case_new ("sigterm");
  g_autoptr(GSubprocess) editor = start_editor (c);
  int status;

  wait_status ("library=1 textures=1");
  edit ();
  /* right after the edits, long before the delay */
  g_assert_cmpuint (count_drafts (c), ==, 0);
  g_subprocess_send_signal (editor, SIGTERM);
  status = wait_gone (editor);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpuint (drafts_holding (c, c->lib_expected), ==, 1);
  g_assert_cmpuint (drafts_holding (c, c->tex_expected), ==, 1);

  restore_and_save (c);
}

/* SIGHUP and SIGINT write the drafts too. */
static void
test_sighup_sigint (void)
{
  const int signals[] = { SIGHUP, SIGINT };

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      g_autofree char *name = g_strdup_printf ("signal-%d", signals[i]);
      g_autoptr(Case) c = case_new (name);
      g_autoptr(GSubprocess) editor = start_editor (c);
      int status;

      wait_status ("library=1 textures=1");
      edit ();
      g_subprocess_send_signal (editor, signals[i]);
      status = wait_gone (editor);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpuint (drafts_holding (c, c->lib_expected), ==, 1);
      g_assert_cmpuint (drafts_holding (c, c->tex_expected), ==, 1);
    }
}

/* Another program wrote the library after the editor was killed: the
 * draft is restored, but its save is refused and the other program's
 * file stays as it is. */
static void
test_changed_since (void)
{
  g_autoptr(Case) c = case_new ("changed");
  g_autoptr(GSubprocess) editor = start_editor (c);
  g_autoptr(GSubprocess) again = NULL;
  g_autoptr(MatLibrary) theirs = NULL;
  g_autoptr(GBytes) theirs_bytes = NULL;
  g_autoptr(GBytes) now = NULL;
  g_autoptr(GError) error = NULL;

  wait_status ("library=1 textures=1");
  edit ();
  g_subprocess_send_signal (editor, SIGTERM);
  wait_gone (editor);

  theirs = mat_library_new_from_bytes (c->lib_original, &error);
  g_assert_no_error (error);
  g_assert_true (mat_material_set_attr1 (mat_library_find (theirs, "ROCK_WALL"), 0x7, &error));
  theirs_bytes = mat_library_save_to_bytes (theirs, &error);
  g_assert_no_error (error);
  /* a new file in its place: another version, whatever its time */
  {
    g_autofree char *tmp = g_strconcat (c->lib_path, ".other", NULL);

    write_bytes (tmp, theirs_bytes);
    g_assert_cmpint (g_rename (tmp, c->lib_path), ==, 0);
  }

  again = start_editor (c);
  wait_status ("library=1 textures=1 offered=2");
  g_assert_true (activate ("restore-all-drafts", NULL));
  /* the window says the file changed since the draft's version */
  wait_status ("dirty=1 textures-dirty=1 offered=0 disk=changed");
  run_hook ("save");
  spin_ms (1000);
  wait_status ("dirty=1");
  now = read_bytes (c->lib_path);
  assert_bytes_equal (now, theirs_bytes);
  /* the edits are still kept as a draft */
  g_assert_cmpuint (drafts_holding (c, c->lib_expected), ==, 1);
  g_subprocess_force_exit (again);
  wait_gone (again);
}

static void
remove_tree (const char *path)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", path);

  g_assert_cmpint (system (command), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("MATEDIT") == NULL || g_getenv ("DEMO_LIB") == NULL)
    {
      g_printerr ("MATEDIT or DEMO_LIB is not set (run through meson test)\n");
      return 77;
    }

  scratch = g_dir_make_tmp ("test-restart-XXXXXX", &error);
  g_assert_no_error (error);
  display = g_strdup (g_getenv ("DISPLAY"));
  /* One connection to the X server for the whole run: between two
   * editors no client would be left, and Xvfb resets itself when its last
   * client goes; an editor started during the reset cannot open the
   * display. */
  if (display != NULL)
    keep_display = gdk_display_open (display);
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  connection = g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (bus),
                                                       G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                       G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                       NULL, NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/restart/sigkill", test_sigkill);
  g_test_add_func ("/restart/sigterm", test_sigterm);
  g_test_add_func ("/restart/sighup-sigint", test_sighup_sigint);
  g_test_add_func ("/restart/changed-since", test_changed_since);

  status = g_test_run ();

  g_clear_object (&connection);
  if (keep_display != NULL)
    gdk_display_close (keep_display);
  g_test_dbus_down (bus);
  g_clear_object (&bus);
  remove_tree (scratch);
  g_free (scratch);
  return status;
}
