/* test-query.c - the search by content in the real window, under Xvfb
 *
 * Words typed into the search entry, the menu beside it that adds them,
 * what a word that does not read says, and the texture window's list of
 * the materials using a texture that selects them in the main window.
 * What each search must show is worked out here from the materials'
 * phases, blocks and flags as the model gives them, not by the query
 * code.
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "mat0-flags.h"
#include "mat-application.h"
#include "mat-texture-window.h"
#include "mat-window.h"
#include "ui-support.h"

#define WAIT_SECONDS 20

static MatApplication *app;
static char *tmp_dir;

/* ---- helpers ------------------------------------------------------------ */

static void
write_bytes (const char *path,
             GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
}

static gboolean
not_busy (gpointer data)
{
  return !mat_window_get_busy (MAT_WINDOW (data));
}

static gboolean
has_textures (gpointer data)
{
  MatWindow *window = data;
  GObject *table = ui_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW, "phase_table");
  g_autoptr(GObject) textures = NULL;

  g_object_get (table, "textures", &textures, NULL);
  return textures != NULL;
}

/* The demo library with the demo Textures.lib beside it. */
static MatWindow *
open_demo (int width,
           int height)
{
  g_autofree char *lib = g_build_filename (tmp_dir, "Material.lib", NULL);
  g_autofree char *tex = g_build_filename (tmp_dir, "Textures.lib", NULL);
  g_autoptr(GBytes) materials = ui_demo_bytes ();
  g_autoptr(GFile) file = NULL;
  g_autoptr(GMappedFile) textures = g_mapped_file_new (ui_need_env ("DEMO_TEXTURES"), FALSE, NULL);
  g_autoptr(GBytes) texture_bytes = NULL;
  MatWindow *window;

  g_assert_nonnull (textures);
  texture_bytes = g_mapped_file_get_bytes (textures);
  write_bytes (lib, materials);
  write_bytes (tex, texture_bytes);
  file = g_file_new_for_path (lib);

  window = mat_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (has_textures, window, WAIT_SECONDS));
  ui_spin_ms (100);
  return window;
}

static gpointer
child (MatWindow  *window,
       const char *name)
{
  return ui_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW, name);
}

static char *listed (MatWindow *window);

static void
type_search (MatWindow  *window,
             const char *text)
{
  GtkEditable *entry = child (window, "search_entry");
  const char *now = gtk_editable_get_text (entry);

  /* typed on when it goes on from what is there (a text set anew is
   * first emptied, which the entry reports at once) */
  if (now[0] != '\0' && g_str_has_prefix (text, now))
    {
      int position = (int) g_utf8_strlen (now, -1);

      gtk_editable_insert_text (entry, text + strlen (now), -1, &position);
    }
  else
    gtk_editable_set_text (entry, text);
  g_signal_emit_by_name (entry, "search-changed");
  ui_spin_ms (60);
}

/* The names the list shows, joined by ",". */
static char *
listed (MatWindow *window)
{
  GListModel *rows = G_LIST_MODEL (mat_window_get_selection (window));
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(MatMaterial) material = g_list_model_get_item (rows, i);

      if (out->len > 0)
        g_string_append_c (out, ',');
      g_string_append (out, mat_material_get_name (material));
    }
  return g_string_free (out, FALSE);
}

typedef gboolean (*Wanted) (MatMaterial *material);

/* The names of the library's materials that @wanted picks, in order. */
static char *
expected (MatWindow *window,
          Wanted     wanted)
{
  MatLibrary *library = mat_window_get_library (window);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (library)); i++)
    {
      MatMaterial *material = mat_library_get_material (library, i);

      if (!wanted (material))
        continue;
      if (out->len > 0)
        g_string_append_c (out, ',');
      g_string_append (out, mat_material_get_name (material));
    }
  return g_string_free (out, FALSE);
}

static gboolean
uses_rock (MatMaterial *material)
{
  for (guint i = 0; i < mat_material_get_n_phases (material); i++)
    if (g_ascii_strcasecmp (mat_phase_get_texture (ui_phase_at (material, i)), "ROCK.0") == 0)
      return TRUE;
  return FALSE;
}

static gboolean
translucent (MatMaterial *material)
{
  for (guint i = 0; i < mat_material_get_n_phases (material); i++)
    if (mat_phase_get_param (ui_phase_at (material, i), 3) < 100)
      return TRUE;
  return FALSE;
}

static gboolean
additive (MatMaterial *material)
{
  return mat_material_get_type_id (material) == 0x3054414D &&
         mat0_flags_nibble_mode (mat_material_get_attr1 (material)) == 2;
}

static gboolean
additive_translucent_untextured (MatMaterial *material)
{
  return additive (material) && translucent (material) && !mat_material_get_textured (material);
}

static gboolean
additive_translucent (MatMaterial *material)
{
  return additive (material) && translucent (material);
}

static gboolean
ping_pong_many_keys (MatMaterial *material)
{
  guint keys = 0;
  gboolean ping_pong = FALSE;

  for (guint b = 0; b < mat_material_get_n_blocks (material); b++)
    {
      g_autoptr(MatAnimBlock) block = g_list_model_get_item (mat_material_get_blocks (material), b);

      keys += mat_anim_block_get_n_keys (block);
      ping_pong |= mat_anim_block_get_mode (block) == 1;
    }
  return ping_pong && keys > 2;
}

#define assert_listed(window, wanted) \
  G_STMT_START { \
    g_autofree char *got_ = listed (window); \
    g_autofree char *want_ = expected ((window), (wanted)); \
    g_test_message ("listed: %s", got_); \
    g_assert_cmpstr (got_, !=, ""); \
    g_assert_cmpstr (got_, ==, want_); \
  } G_STMT_END

/* ---- typing ------------------------------------------------------------- */

static void
test_typed (void)
{
  MatWindow *window = open_demo (1100, 720);
  GtkWidget *error = child (window, "query_error_label");
  GtkWidget *fallback = child (window, "fallback_label");

  type_search (window, "texture:ROCK.0");
  assert_listed (window, uses_rock);
  /* the game looks names up: no name, no lookup line */
  g_assert_false (gtk_widget_get_visible (fallback));
  g_assert_false (gtk_widget_get_visible (error));

  type_search (window, "opacity:<100");
  assert_listed (window, translucent);
  type_search (window, "BLEND:additive opacity:<100");
  assert_listed (window, additive_translucent);
  type_search (window, "mode:ping-pong keys:>2");
  assert_listed (window, ping_pong_many_keys);

  /* a word that does not read: the list stays, and says why */
  type_search (window, "texture:ROCK.0");
  type_search (window, "texture:ROCK.0 opacity:<");
  g_assert_true (gtk_widget_get_visible (error));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (error)), ==,
                   "“opacity:<”: expected a number, a comparison such as <100 or >=4, or a range such as 50..100");
  assert_listed (window, uses_rock);
  ui_screenshot (GTK_WIDGET (window),
                 g_str_has_prefix (g_getenv ("LANGUAGE") != NULL ? g_getenv ("LANGUAGE") : "", "ru")
                 ? "query-error-ru-1100x720.png" : "query-error-en-1100x720.png");
  type_search (window, "texture:ROCK.0 opacity:<50");
  g_assert_false (gtk_widget_get_visible (error));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_selection (window))), ==, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (child (window, "list_stack")), ==, "no-results");

  /* plain words: names, and the game's lookup */
  type_search (window, "rock");
  g_assert_true (gtk_widget_get_visible (fallback));
  {
    g_autofree char *got = listed (window);

    g_assert_cmpstr (got, ==, "ROCK_WALL");
  }

  /* an edit: the search by content follows it */
  type_search (window, "texture:ROCK.0");
  {
    MatMaterial *glass = ui_find_material (mat_window_get_library (window), "GLASS");
    g_autoptr(GError) err = NULL;

    g_assert_false (uses_rock (glass));
    g_assert_true (mat_phase_set_texture (ui_phase_at (glass, 0), "ROCK.0", &err));
    g_assert_no_error (err);
    ui_spin_ms (60);
    assert_listed (window, uses_rock);
    g_assert_true (mat_history_undo (mat_library_get_history (mat_window_get_library (window))));
    ui_spin_ms (60);
    assert_listed (window, uses_rock);
  }

  ui_close_window (GTK_WINDOW (window));
}

/* ---- the menu ----------------------------------------------------------- */

static gboolean
is_item (GtkWidget     *widget,
         gconstpointer  data)
{
  g_autofree char *text = NULL;

  if (!g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkModelButton"))
    return FALSE;
  g_object_get (widget, "text", &text, NULL);
  return text != NULL && g_str_has_suffix (text, data);
}

static void
choose (GtkWidget  *popover,
        const char *word)
{
  GtkWidget *item = ui_find_widget (popover, is_item, word);

  g_assert_nonnull (item);
  g_signal_emit_by_name (item, "clicked");
  ui_spin_ms (60);
}

static void
test_menu (void)
{
  MatWindow *window = open_demo (1100, 720);
  GtkMenuButton *button = child (window, "query_button");
  GtkEditable *entry = child (window, "search_entry");
  GtkWidget *popover;

  /* made when first opened */
  g_assert_null (gtk_menu_button_get_popover (button));
  gtk_menu_button_popup (button);
  popover = GTK_WIDGET (gtk_menu_button_get_popover (button));
  g_assert_nonnull (popover);
  g_assert_true (ui_wait_for (ui_widget_is_shown, popover, WAIT_SECONDS));
  {
    gboolean ru = g_str_has_prefix (g_getenv ("LANGUAGE") != NULL ? g_getenv ("LANGUAGE") : "", "ru");
    GtkWidget *blend = ui_find_widget (popover, is_item, ru ? "Режим смешивания" : "Blend Mode");

    ui_screenshot (popover, ru ? "query-menu-ru.png" : "query-menu-en.png");
    /* a submenu: the words of one key */
    g_assert_nonnull (blend);
    g_signal_emit_by_name (blend, "clicked");
    ui_spin_ms (300);
    ui_screenshot (popover, ru ? "query-menu-blend-ru.png" : "query-menu-blend-en.png");
  }

  choose (popover, "blend:additive");
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "blend:additive");
  choose (popover, "opacity:<100");
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "blend:additive opacity:<100");
  assert_listed (window, additive_translucent);
  /* "not" waits for its word: no space between */
  choose (popover, "   -");
  choose (popover, "texture:*");
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "blend:additive opacity:<100 -texture:*");
  {
    g_autofree char *got = listed (window);
    g_autofree char *want = expected (window, additive_translucent_untextured);

    g_assert_cmpstr (got, ==, want);
  }

  /* every word of the menu reads */
  {
    g_autoptr(GPtrArray) items = g_ptr_array_new ();
    guint words = 0;

    ui_collect_by_type (popover, G_TYPE_FROM_INSTANCE (ui_find_widget (popover, is_item, "texture:*")), items);
    for (guint i = 0; i < items->len; i++)
      {
        g_autofree char *text = NULL;
        const char *word;

        g_object_get (items->pdata[i], "text", &text, NULL);
        word = text != NULL ? strstr (text, "   ") : NULL;
        if (word == NULL)
          continue;   /* a submenu */
        word += 3;
        words++;
        if (g_str_has_suffix (word, ":") || g_str_equal (word, "-"))
          continue;   /* waits for its value */
        type_search (window, word);
        g_test_message ("%s", word);
        g_assert_false (gtk_widget_get_visible (child (window, "query_error_label")));
      }
    g_assert_cmpuint (words, >=, 40);
  }

  ui_close_window (GTK_WINDOW (window));
}

/* worn: answered by the game folder of the Preferences, read when a
 * search first asks: the demo game folder's bunker and box. */
typedef struct {
  MatWindow  *window;
  const char *names;
} Listed;

static gboolean
lists (gpointer data)
{
  Listed *want = data;
  g_autofree char *got = listed (want->window);

  return g_str_equal (got, want->names);
}

static void
test_worn_index (void)
{
  MatWindow *window = open_demo (1100, 720);
  GtkWidget *note = child (window, "query_error_label");
  GSettings *settings = mat_application_get_settings (app);
  Listed bunker = { window, "DEFAULT,ROCK_WALL,METAL_PLATE,ATLAS_SIGN,GLASS" };
  Listed box = { window, "METAL_PLATE,БРОНЯ_ЗЕЛЁНАЯ" };

  g_assert_nonnull (settings);
  /* no game folder: the word reads, nothing is listed, and it says why */
  g_settings_set_string (settings, "game-folder", "");
  type_search (window, "worn:bunker");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_selection (window))), ==, 0);
  g_assert_true (gtk_widget_get_visible (note));
  g_assert_false (gtk_widget_has_css_class (note, "error"));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (note)), ==,
                   _("worn: looks at the models of the game folder, and Preferences names none"));

  /* the demo game folder: once read, its models answer */
  g_settings_set_string (settings, "game-folder", ui_need_env ("DEMO_GAME"));
  g_assert_true (ui_wait_for (lists, &bunker, WAIT_SECONDS));
  ui_spin_ms (100);
  g_assert_false (gtk_widget_get_visible (note));
  type_search (window, "worn:box");
  g_assert_true (ui_wait_for (lists, &box, WAIT_SECONDS));
  /* with other words: GLASS's one phase has no texture */
  type_search (window, "worn:bunker blend:opaque -texture:none");
  {
    g_autofree char *got = listed (window);

    g_assert_cmpstr (got, ==, "DEFAULT,ROCK_WALL,METAL_PLATE,ATLAS_SIGN");
  }
  g_settings_set_string (settings, "game-folder", "");
  ui_close_window (GTK_WINDOW (window));
}

/* ---- the texture window ------------------------------------------------- */

static gboolean
texture_window_ready (gpointer data)
{
  MatTextureWindow *textures = ui_find_toplevel (MAT_TYPE_TEXTURE_WINDOW);

  return textures != NULL && mat_texture_window_get_textures (textures) != NULL &&
         gtk_widget_get_mapped (GTK_WIDGET (textures));
}

static void
test_texture_users (void)
{
  MatWindow *window = open_demo (1280, 800);
  MatTextureWindow *textures;
  GtkLabel *users;
  g_autofree char *want = NULL;
  g_autofree char *label = NULL;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.textures", NULL);
  g_assert_true (ui_wait_for (texture_window_ready, NULL, WAIT_SECONDS));
  textures = ui_find_toplevel (MAT_TYPE_TEXTURE_WINDOW);
  g_assert_true (mat_texture_window_select (textures,
                                            mat_texture_library_lookup (mat_texture_window_get_textures (textures),
                                                                        "ROCK.0")));
  ui_spin_ms (60);
  users = ui_template_child (GTK_WIDGET (textures), MAT_TYPE_TEXTURE_WINDOW, "users_label");
  want = expected (window, uses_rock);
  {
    g_auto(GStrv) names = g_strsplit (want, ",", -1);
    g_autofree char *list = g_strjoinv (_(", "), names);
    guint n = g_strv_length (names);

    /* as the user reads it, in the language of the test */
    label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Used by %u material: %s",
                                          "Used by %u materials: %s", n), n, list);
  }
  g_assert_cmpstr (gtk_label_get_label (users), ==, label);
  ui_screenshot (GTK_WIDGET (textures),
                 g_str_has_prefix (g_getenv ("LANGUAGE") != NULL ? g_getenv ("LANGUAGE") : "", "ru")
                 ? "texture-users-ru.png" : "texture-users-en.png");

  /* "Select Them": the search texture:ROCK.0 and all of them selected */
  gtk_widget_activate_action (GTK_WIDGET (textures), "textures.select-users", NULL);
  ui_spin_ms (100);
  g_assert_cmpstr (gtk_editable_get_text (child (window, "search_entry")), ==, "texture:ROCK.0");
  {
    g_autoptr(GPtrArray) selected = mat_window_dup_selected_materials (window);
    GString *names = g_string_new (NULL);
    g_autofree char *joined = NULL;

    for (guint i = 0; i < selected->len; i++)
      {
        if (names->len > 0)
          g_string_append_c (names, ',');
        g_string_append (names, mat_material_get_name (selected->pdata[i]));
      }
    joined = g_string_free (names, FALSE);
    g_assert_cmpstr (joined, ==, want);
  }
  g_assert_true (gtk_revealer_get_reveal_child (child (window, "batch_revealer")));

  /* an edit in the main window: counted again */
  {
    MatMaterial *glass = ui_find_material (mat_window_get_library (window), "GLASS");
    g_autoptr(GError) error = NULL;

    g_assert_true (mat_phase_set_texture (ui_phase_at (glass, 0), "ROCK.0", &error));
    g_assert_no_error (error);
    ui_spin_ms (400);
    g_assert_nonnull (strstr (gtk_label_get_label (users), "GLASS"));
  }

  /* a texture one material uses */
  g_assert_true (mat_texture_window_select (textures,
                                            mat_texture_library_lookup (mat_texture_window_get_textures (textures),
                                                                        "LEAVES.0")));
  ui_spin_ms (60);
  {
    g_autofree char *one = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Used by %u material: %s",
                                                         "Used by %u materials: %s", 1), 1, "FOLIAGE");

    g_assert_cmpstr (gtk_label_get_label (users), ==, one);
  }
  ui_close_window (GTK_WINDOW (textures));
  ui_close_window (GTK_WINDOW (window));
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path_child = g_build_filename (path, name, NULL);

      if (g_file_test (path_child, G_FILE_TEST_IS_DIR) && !g_file_test (path_child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (path_child);
      else
        g_unlink (path_child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  tmp_dir = g_dir_make_tmp ("test-query-XXXXXX", &error);
  g_assert_no_error (error);
  {
    const char *dirs[] = { "XDG_DATA_HOME", ".local/share", "XDG_CONFIG_HOME", ".config",
                           "XDG_CACHE_HOME", ".cache" };

    g_setenv ("HOME", tmp_dir, TRUE);
    for (guint i = 0; i < G_N_ELEMENTS (dirs); i += 2)
      {
        g_autofree char *path = g_build_filename (tmp_dir, dirs[i + 1], NULL);

        g_mkdir_with_parents (path, 0700);
        g_setenv (dirs[i], path, TRUE);
      }
  }

  setlocale (LC_ALL, "");
  mat_application_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);

  app = mat_application_new ("io.github.parkan.MatEdit.TestQuery", G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/query/typed", test_typed);
  g_test_add_func ("/ui/query/shown/menu", test_menu);
  g_test_add_func ("/ui/query/worn-index", test_worn_index);
  g_test_add_func ("/ui/query/shown/texture-users", test_texture_users);

  status = g_test_run ();

  g_clear_object (&app);
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
