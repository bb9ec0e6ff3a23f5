/* test-texture-rename.c - a texture renamed or deleted in the texture
 * window, with the materials that name it
 *
 * Runs under Xvfb over copies of the demo libraries (DEMO_LIB,
 * DEMO_TEXTURES) in one folder, as the editor opens them: the main
 * window on Material.lib, its texture window on the Textures.lib beside
 * it. Before a rename or a deletion the window says which materials use
 * the texture ("3 materials use METAL.0: ..."); a rename can take the
 * materials' texture fields along (one undo step of Material.lib) or
 * leave them; the texture's own step is the Textures.lib's. Undo in each
 * window gives each file's bytes back. F2 and Delete (in the list) reach
 * the same actions. Screenshots of the rename dialog (the "-ru" run: in
 * Russian).
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "mat-application.h"
#include "mat-dialogs-private.h"
#include "mat-phase-table-private.h"
#include "mat-texture-rename-dialog.h"
#include "mat-texture-window.h"
#include "mat-window.h"
#include "test-support.h"
#include "ui-support.h"

#define WAIT_SECONDS 20

static MatApplication *app;
static char *tmp_dir;
static gboolean russian;

typedef struct {
  GBytes            *materials_bytes;
  GBytes            *textures_bytes;
  MatWindow         *window;
  MatLibrary        *library;
  MatTextureWindow  *textures_window;
  MatTextureLibrary *textures;
} Fixture;

static gboolean
window_ready (gpointer data)
{
  MatWindow *window = data;
  MatPhaseTable *table = MAT_PHASE_TABLE (gtk_widget_get_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW,
                                                                          "phase_table"));

  return !mat_window_get_busy (window) && mat_window_get_library (window) != NULL &&
         mat_phase_table_get_textures (table) != NULL && gtk_widget_get_mapped (GTK_WIDGET (window));
}

static void
fixture_open (Fixture    *f,
              const char *name)
{
  g_autofree char *folder = g_build_filename (tmp_dir, name, NULL);
  g_autofree char *lib = g_build_filename (folder, "Material.lib", NULL);
  g_autofree char *tex = g_build_filename (folder, "Textures.lib", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (lib);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  f->materials_bytes = ui_demo_bytes ();
  f->textures_bytes = test_load_file (ui_need_env ("DEMO_TEXTURES"));
  g_file_set_contents (lib, g_bytes_get_data (f->materials_bytes, NULL),
                       (gssize) g_bytes_get_size (f->materials_bytes), &error);
  g_assert_no_error (error);
  g_file_set_contents (tex, g_bytes_get_data (f->textures_bytes, NULL),
                       (gssize) g_bytes_get_size (f->textures_bytes), &error);
  g_assert_no_error (error);

  f->window = mat_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 720);
  mat_window_open (f->window, file, FALSE);
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (ui_wait_for (window_ready, f->window, WAIT_SECONDS));
  f->library = mat_window_get_library (f->window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.textures", NULL));
  f->textures_window = ui_find_toplevel (MAT_TYPE_TEXTURE_WINDOW);
  g_assert_nonnull (f->textures_window);
  g_assert_true (ui_wait_for (ui_widget_is_shown, f->textures_window, WAIT_SECONDS));
  f->textures = mat_texture_window_get_textures (f->textures_window);
  g_assert_nonnull (f->textures);
}

static void
undo_all (MatHistory *history)
{
  while (mat_history_undo (history))
    ;
}

static void
fixture_close (Fixture *f)
{
  g_autoptr(GBytes) materials = NULL;
  g_autoptr(GBytes) textures = NULL;
  g_autoptr(GError) error = NULL;

  /* everything undone: both files as they were, nothing asked */
  undo_all (mat_texture_library_get_history (f->textures));
  undo_all (mat_library_get_history (f->library));
  materials = mat_library_save_to_bytes (f->library, &error);
  g_assert_no_error (error);
  textures = mat_texture_library_save_to_bytes (f->textures, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (materials, f->materials_bytes));
  g_assert_true (g_bytes_equal (textures, f->textures_bytes));
  ui_close_window (GTK_WINDOW (f->textures_window));
  ui_close_window (GTK_WINDOW (f->window));
  g_clear_pointer (&f->materials_bytes, g_bytes_unref);
  g_clear_pointer (&f->textures_bytes, g_bytes_unref);
}

static MatTextureRenameDialog *
open_rename (Fixture    *f,
             const char *texture)
{
  MatTextureRenameDialog *dialog;

  g_assert_true (mat_texture_window_select (f->textures_window,
                                            mat_texture_library_lookup (f->textures, texture)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->textures_window), "textures.rename", NULL));
  dialog = ui_find_toplevel (MAT_TYPE_TEXTURE_RENAME_DIALOG);
  g_assert_nonnull (dialog);
  g_assert_true (ui_wait_for (ui_widget_is_shown, dialog, WAIT_SECONDS));
  return dialog;
}

static gboolean
is_rename_button (GtkWidget     *widget,
                  gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "rename.rename") == 0;
}

/* Whether the Rename button takes a click. */
static gboolean
rename_enabled (MatTextureRenameDialog *dialog)
{
  GtkWidget *button = ui_find_widget (gtk_window_get_titlebar (GTK_WINDOW (dialog)), is_rename_button, NULL);

  g_assert_nonnull (button);
  return gtk_widget_is_sensitive (button);
}

static guint
phases_naming (MatLibrary *library,
               const char *texture)
{
  g_autoptr(GPtrArray) users = mat_library_dup_texture_users (library, texture);
  guint n = 0;

  for (guint i = 0; i < users->len; i++)
    {
      GListModel *phases = mat_material_get_phases (g_ptr_array_index (users, i));

      for (guint k = 0; k < g_list_model_get_n_items (phases); k++)
        {
          g_autoptr(MatPhase) phase = g_list_model_get_item (phases, k);

          if (g_ascii_strcasecmp (mat_phase_get_texture (phase), texture) == 0)
            n++;
        }
    }
  return n;
}

/* The dialog says which materials use the texture; the name is checked
 * as typed; Rename renames the texture (a step of Textures.lib) and the
 * five phases of three materials (one step of Material.lib). */
static void
test_rename_with_materials (void)
{
  Fixture f = { 0 };
  MatTextureRenameDialog *dialog;
  MatHistory *texture_history, *material_history;
  MatTexture *metal;
  gpointer weak;

  fixture_open (&f, "with");
  texture_history = mat_texture_library_get_history (f.textures);
  material_history = mat_library_get_history (f.library);
  metal = mat_texture_library_lookup (f.textures, "METAL.0");
  g_assert_cmpuint (phases_naming (f.library, "METAL.0"), ==, 5);

  dialog = open_rename (&f, "METAL.0");
  g_assert_cmpstr (gtk_label_get_text (mat_texture_rename_dialog_get_users_for_test (dialog)), ==,
                   russian ? "3 материала используют METAL.0: METAL_PLATE, MULTI_BLOCK, БРОНЯ_ЗЕЛЁНАЯ."
                           : "3 materials use METAL.0: METAL_PLATE, MULTI_BLOCK, БРОНЯ_ЗЕЛЁНАЯ.");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (mat_texture_rename_dialog_get_check_for_test (dialog))));
  g_assert_true (gtk_check_button_get_active (mat_texture_rename_dialog_get_check_for_test (dialog)));
  if (!russian)
    g_assert_cmpstr (gtk_check_button_get_label (mat_texture_rename_dialog_get_check_for_test (dialog)), ==,
                     "Also rename it in _these 3 materials (one undo step of Material.lib)");
  /* its own name: nothing to do yet */
  g_assert_cmpstr (gtk_editable_get_text (mat_texture_rename_dialog_get_entry_for_test (dialog)), ==, "METAL.0");
  g_assert_false (rename_enabled (dialog));

  /* another texture's name, in other letters: refused as typed */
  gtk_editable_set_text (mat_texture_rename_dialog_get_entry_for_test (dialog), "rock.0");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (mat_texture_rename_dialog_get_message_for_test (dialog)),
                                           "error"));
  g_assert_nonnull (strstr (gtk_label_get_text (mat_texture_rename_dialog_get_message_for_test (dialog)),
                            "ROCK.0"));
  g_assert_false (rename_enabled (dialog));
  g_assert_cmpuint (mat_history_get_n_undo (texture_history), ==, 0);

  /* a free name: renamed, the materials along */
  gtk_editable_set_text (mat_texture_rename_dialog_get_entry_for_test (dialog), "ЖЕЛЕЗО.0");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (mat_texture_rename_dialog_get_message_for_test (dialog)),
                                            "error"));
  weak = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), &weak);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "rename.rename", NULL));
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));

  g_assert_cmpstr (mat_texture_get_name (metal), ==, "ЖЕЛЕЗО.0");
  g_assert_true (mat_texture_window_get_selected (f.textures_window) == metal);
  g_assert_cmpuint (mat_history_get_n_undo (texture_history), ==, 1);
  g_assert_cmpuint (mat_history_get_n_undo (material_history), ==, 1);
  g_assert_cmpuint (phases_naming (f.library, "ЖЕЛЕЗО.0"), ==, 5);
  g_assert_cmpuint (phases_naming (f.library, "METAL.0"), ==, 0);
  /* the phase table finds the texture under its new name */
  g_assert_true (mat_texture_library_lookup (f.textures, "ЖЕЛЕЗО.0") == metal);

  /* each window undoes its own library's step */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.undo", NULL));
  g_assert_cmpuint (phases_naming (f.library, "METAL.0"), ==, 5);
  g_assert_cmpstr (mat_texture_get_name (metal), ==, "ЖЕЛЕЗО.0");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.textures_window), "win.undo", NULL));
  g_assert_cmpstr (mat_texture_get_name (metal), ==, "METAL.0");

  fixture_close (&f);
}

/* The check off: only the texture is renamed; the materials keep the old
 * name. A texture no material uses says so, and offers nothing. */
static void
test_rename_alone (void)
{
  Fixture f = { 0 };
  MatTextureRenameDialog *dialog;
  MatTexture *metal;
  gpointer weak;

  fixture_open (&f, "alone");
  metal = mat_texture_library_lookup (f.textures, "METAL.0");
  dialog = open_rename (&f, "METAL.0");
  gtk_check_button_set_active (mat_texture_rename_dialog_get_check_for_test (dialog), FALSE);
  gtk_editable_set_text (mat_texture_rename_dialog_get_entry_for_test (dialog), "STEEL.0");
  weak = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), &weak);
  /* Enter in the entry renames */
  ui_key (GTK_WIDGET (mat_texture_rename_dialog_get_entry_for_test (dialog)), GDK_KEY_Return, 0);
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));
  g_assert_cmpstr (mat_texture_get_name (metal), ==, "STEEL.0");
  g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (f.library)), ==, 0);
  g_assert_cmpuint (phases_naming (f.library, "METAL.0"), ==, 5);

  /* LEAVES.0 is worn by FOLIAGE; SMOKE.0 by two; a texture of none:
   * imported under a fresh name */
  {
    static const guint8 grey[4 * 4 * 4] = { 0 };
    TexmEncodeOptions options;
    g_autoptr(GError) error = NULL;
    MatTexture *fresh;

    texm_encode_options_init (&options, 8888);
    fresh = mat_texture_library_import (f.textures, "UNUSED.0", grey, 4, 4, 0, &options, NULL, &error);
    g_assert_no_error (error);
    g_assert_nonnull (fresh);
    dialog = open_rename (&f, "UNUSED.0");
    g_assert_cmpstr (gtk_label_get_text (mat_texture_rename_dialog_get_users_for_test (dialog)), ==,
                     russian ? "Ни один материал Material.lib не использует UNUSED.0."
                             : "No material of Material.lib uses UNUSED.0.");
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (mat_texture_rename_dialog_get_check_for_test (dialog))));
    ui_close_window (GTK_WINDOW (dialog));
  }
  fixture_close (&f);
}

/* Delete asks first, naming the materials that use the texture; Cancel
 * keeps it, Delete removes it (one step), undo puts it back. The Delete
 * key in the list and F2 reach the same questions. */
static void
test_delete (void)
{
  Fixture f = { 0 };
  const MatDialogRequest *request;
  MatTexture *glow;
  GtkWidget *list;
  guint n;

  fixture_open (&f, "delete");
  glow = mat_texture_library_lookup (f.textures, "GLOW.0");
  n = g_list_model_get_n_items (G_LIST_MODEL (f.textures));
  g_assert_true (mat_texture_window_select (f.textures_window, glow));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.textures_window), "textures.delete", NULL));
  request = _mat_dialogs_get_shown ();
  g_assert_nonnull (request);
  g_assert_cmpint (request->kind, ==, MAT_DIALOG_CHOICE);
  g_test_message ("%s / %s", request->heading, request->body);
  g_assert_cmpstr (request->heading, ==, russian ? "Удалить GLOW.0?" : "Delete GLOW.0?");
  g_assert_true (g_str_has_prefix (request->body, russian ? "2 материала используют GLOW.0: HALO_GLOW, FADE_IN."
                                                          : "2 materials use GLOW.0: HALO_GLOW, FADE_IN."));
  g_assert_cmpint (request->destructive_button, ==, 1);
  _mat_dialogs_answer (0);
  ui_pump ();
  g_assert_true (mat_texture_library_lookup (f.textures, "GLOW.0") == glow);
  g_assert_cmpuint (mat_history_get_n_undo (mat_texture_library_get_history (f.textures)), ==, 0);

  /* the Delete key in the list asks the same */
  list = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (f.textures_window), MAT_TYPE_TEXTURE_WINDOW,
                                                   "list_view"));
  g_assert_nonnull (list);
  gtk_widget_grab_focus (list);
  ui_key (list, GDK_KEY_Delete, 0);
  g_assert_cmpuint (_mat_dialogs_get_n_shown (), ==, 1);
  _mat_dialogs_answer (1);
  ui_pump ();
  g_assert_null (mat_texture_library_lookup (f.textures, "GLOW.0"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (f.textures)), ==, n - 1);
  g_assert_cmpstr (mat_history_get_undo_label (mat_texture_library_get_history (f.textures)), ==,
                   russian ? "Удаление текстуры" : "Delete Texture");
  /* the materials still name it: the phase table says it is missing */
  g_assert_cmpuint (phases_naming (f.library, "GLOW.0"), ==, 8);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.textures_window), "win.undo", NULL));
  g_assert_true (mat_texture_library_lookup (f.textures, "GLOW.0") == glow);

  /* F2 opens the rename dialog */
  g_assert_true (mat_texture_window_select (f.textures_window, glow));
  ui_key (list, GDK_KEY_F2, 0);
  {
    MatTextureRenameDialog *dialog = ui_find_toplevel (MAT_TYPE_TEXTURE_RENAME_DIALOG);

    g_assert_nonnull (dialog);
    ui_close_window (GTK_WINDOW (dialog));
  }
  fixture_close (&f);
}

/* The dialog as it looks, over each window size. */
static void
test_screenshots (void)
{
  static const int sizes[][2] = { { 1100, 720 }, { 1280, 800 } };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      Fixture f = { 0 };
      MatTextureRenameDialog *dialog;
      g_autofree char *name = NULL;
      g_autofree char *folder = g_strdup_printf ("shots-%u", s);

      fixture_open (&f, folder);
      gtk_window_set_default_size (GTK_WINDOW (f.textures_window), sizes[s][0], sizes[s][1]);
      dialog = open_rename (&f, "ATLAS4.0");
      gtk_editable_set_text (mat_texture_rename_dialog_get_entry_for_test (dialog), "ATLAS_FOUR");
      ui_spin_ms (100);
      name = g_strdup_printf ("texture-rename-%s-%dx%d.png", russian ? "ru" : "en", sizes[s][0], sizes[s][1]);
      ui_screenshot (GTK_WIDGET (dialog), name);
      ui_close_window (GTK_WINDOW (dialog));
      g_free (name);
      name = g_strdup_printf ("texture-window-menu-%s-%dx%d.png", russian ? "ru" : "en", sizes[s][0], sizes[s][1]);
      ui_screenshot (GTK_WIDGET (f.textures_window), name);
      fixture_close (&f);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  russian = g_strcmp0 (g_getenv ("LANGUAGE"), "ru") == 0;
  if (russian)
    {
      g_setenv ("LC_ALL", "C.UTF-8", TRUE);
      setlocale (LC_ALL, "");
      mat_application_bind_text_domain ();
      textdomain (GETTEXT_PACKAGE);
    }
  tmp_dir = g_dir_make_tmp ("test-texture-rename-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", tmp_dir, TRUE);
  g_test_init (&argc, &argv, NULL);

  app = mat_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/texture-rename/with-materials", test_rename_with_materials);
  g_test_add_func ("/ui/texture-rename/alone", test_rename_alone);
  g_test_add_func ("/ui/texture-rename/delete", test_delete);
  g_test_add_func ("/ui/texture-rename/screenshots", test_screenshots);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
