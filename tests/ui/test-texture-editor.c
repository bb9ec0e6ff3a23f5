/* test-texture-editor.c - the texture window, its import dialog and its
 * cell editor, driven as a user would under Xvfb
 *
 * - A picture made here, saved as PNG in a temporary folder, goes through
 *   the import dialog's own code path (its file, name and format set,
 *   Import pressed), is given to a phase through the model, and the GL
 *   preview's pixel (the unlit view of a plane) is the texel the core
 *   decodes from the stored texture. The saved Textures.lib keeps every
 *   untouched byte.
 * - The dialog's refusals: a name against formats.md 2.1, alpha a format
 *   cannot hold (until it is dropped); a side that is no power of two is
 *   offered scaled or padded to the next one, and the texture imported
 *   holds the picture so made, texel for texel; before a picture is
 *   chosen the dialog shows a neutral placeholder, not an error.
 * - The cell editor with real pointer drags (XTest): a rectangle drawn,
 *   moved, resized, snapped to a grid, deleted with the Delete key, drawn
 *   beside the selected one (only the selected one has handles); its
 *   numbers typed in the window; each one undo step that gives the exact
 *   bytes of the Textures.lib back.
 * - Export of a mip level to PNG, compared with texm_decode_rgba.
 * - The compare window's previews follow texture edits (pixels, and after
 *   undo) and the main window's Textures.lib when it changes.
 * - No Textures.lib beside the library: the window creates one, which the
 *   library's document takes, so the phase table (and so the preview) use
 *   it at once and keep it, edits and all, when the document looks again;
 *   the window's save writes that file.
 * - Reloading the library with unsaved texture edits asks first: Cancel
 *   keeps them, Discard reads both files again, Save writes them first (a
 *   refused save is shown and nothing is reloaded); the demo window with
 *   texture edits is not replaced by the next file opened.
 * - Screenshots of the window, the dialog and the cell editor at 1100x720
 *   and 1280x800 (in Russian when LANGUAGE=ru, the "-ru" run).
 *
 * Environment: DEMO_TEXTURES (the demo Textures.lib); SCREENSHOT_DIR.
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <sys/stat.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gdk/x11/gdkx.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

#include "mat-application.h"
#include "mat-cell-editor.h"
#include "mat-compare-view.h"
#include "mat-compare-window.h"
#include "mat-dialogs-private.h"
#include "mat-document.h"
#include "mat-file.h"
#include "mat-file-private.h"
#include "mat-phase-table-private.h"
#include "mat-preview-private.h"
#include "mat-preview-renderer.h"
#include "mat-texture-import-dialog.h"
#include "mat-texture-window.h"
#include "mat-unsaved-dialog.h"
#include "mat-window.h"
#include "nres.h"
#include "texm-convert.h"
#include "test-pictures.h"
#include "test-support.h"
#include "ui-screen.h"
#include "ui-support.h"

#define WAIT_SECONDS 20
#define TYPE_MAT0    0x3054414Du

static MatApplication *app;
static char *tmp_dir;
static gboolean russian;

/* ---- files ------------------------------------------------------------ */

static char *
make_folder (const char *name)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
  return g_steal_pointer (&path);
}

static void
write_bytes (const char *path,
             GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
}

static GBytes *
read_bytes (const char *path)
{
  return test_load_file (path);
}

static void
assert_bytes_equal (GBytes *a,
                    GBytes *b)
{
  g_assert_cmpmem (g_bytes_get_data (a, NULL), g_bytes_get_size (a),
                   g_bytes_get_data (b, NULL), g_bytes_get_size (b));
}

/* A Material.lib of one material TEST with one untextured phase:
 * diffuse white, opaque (ambient alpha 100 %), no animation. */
static GBytes *
material_library (void)
{
  g_autoptr(GByteArray) payload = g_byte_array_new ();
  static const guint8 p[18] = { 0, 0, 0, 100, 255, 255, 255, 100, 0, 0, 0, 100,
                                0, 0, 0, 0, 0, 255 };
  TestEntrySpec spec = { TYPE_MAT0, 0, 6, 0, "TEST", NULL, 0, 0 };

  test_put_u16 (payload, 1);
  test_put_u16 (payload, 0);
  test_put_u8 (payload, 255);
  test_put_u8 (payload, 255);
  test_put_u32 (payload, 0x3F800000u);
  test_put_u32 (payload, 0);
  test_put_phase (payload, p, "");
  spec.payload = payload->data;
  spec.size = payload->len;
  return test_build_archive (&spec, 1, TRUE);
}

/* A folder @name holding Material.lib and, when @with_textures, a copy
 * of the demo Textures.lib. Returns: (transfer full): Material.lib. */
static GFile *
make_library_folder (const char *name,
                     gboolean    with_textures)
{
  g_autofree char *folder = make_folder (name);
  g_autofree char *lib = g_build_filename (folder, "Material.lib", NULL);
  g_autoptr(GBytes) materials = material_library ();

  write_bytes (lib, materials);
  if (with_textures)
    {
      g_autofree char *tex = g_build_filename (folder, "Textures.lib", NULL);
      g_autoptr(GBytes) textures = read_bytes (ui_need_env ("DEMO_TEXTURES"));

      write_bytes (tex, textures);
    }
  return g_file_new_for_path (lib);
}

/* A @width x @height picture, every pixel @rgba, saved as PNG @name in
 * the temporary folder. Returns: (transfer full): the file. */
static GFile *
flat_png (const char   *name,
          guint         width,
          guint         height,
          const guint8  rgba[4])
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, TRUE, 8, (int) width, (int) height);
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  guint8 *pixels = gdk_pixbuf_get_pixels (pixbuf);
  int stride = gdk_pixbuf_get_rowstride (pixbuf);

  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      memcpy (pixels + (gsize) y * (gsize) stride + x * 4, rgba, 4);
  gdk_pixbuf_save (pixbuf, path, "png", &error, NULL);
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

/* ---- waiting ---------------------------------------------------------- */

static gboolean
window_not_busy (gpointer data)
{
  return !mat_window_get_busy (MAT_WINDOW (data));
}

static gboolean
table_has_textures (gpointer data)
{
  return mat_phase_table_get_textures (MAT_PHASE_TABLE (data)) != NULL;
}

static gboolean
dialog_idle (gpointer data)
{
  return !mat_texture_import_dialog_get_busy (MAT_TEXTURE_IMPORT_DIALOG (data));
}

static gboolean
library_clean (gpointer data)
{
  return !mat_texture_library_get_dirty (MAT_TEXTURE_LIBRARY (data));
}

static gboolean
window_has_textures (gpointer data)
{
  return mat_texture_window_get_textures (MAT_TEXTURE_WINDOW (data)) != NULL;
}

static gboolean
document_settled (gpointer data)
{
  return !mat_document_get_finding_textures (MAT_DOCUMENT (data));
}

static void
destroy_and_wait (GtkWindow *window)
{
  ui_close_window (window);
}

static MatWindow *
open_window (GFile *file)
{
  MatWindow *window = mat_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (window_not_busy, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  return window;
}

static gpointer
window_child (gpointer    window,
              GType       type,
              const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (window), type, name);

  g_assert_nonnull (child);
  return child;
}

static MatTextureWindow *
find_texture_window (void)
{
  MatTextureWindow *window = ui_find_toplevel (MAT_TYPE_TEXTURE_WINDOW);

  g_assert_nonnull (window);
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  return window;
}

static MatTextureImportDialog *
find_import_dialog (void)
{
  MatTextureImportDialog *dialog = ui_find_toplevel (MAT_TYPE_TEXTURE_IMPORT_DIALOG);

  g_assert_nonnull (dialog);
  g_assert_true (ui_wait_for (ui_widget_is_shown, dialog, WAIT_SECONDS));
  return dialog;
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      data)
{
  MatTextureLibrary **out = data;
  g_autoptr(GError) error = NULL;

  *out = mat_texture_library_load_finish (result, &error);
  g_assert_no_error (error);
}

static gboolean
pointer_set (gpointer data)
{
  return *(gpointer *) data != NULL;
}

/* A texture window of its own over the Textures.lib at @path, loaded as
 * the document loads it (with its file and ETag). */
static MatTextureWindow *
texture_window_for (const char *path,
                    int         width,
                    int         height)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(MatTextureLibrary) textures = NULL;
  MatTextureWindow *window;

  mat_texture_library_load_async (file, NULL, loaded_cb, &textures);
  g_assert_true (ui_wait_for (pointer_set, &textures, WAIT_SECONDS));
  window = mat_texture_window_present (NULL, NULL, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  mat_texture_window_set_textures (window, textures);
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  return window;
}

/* ---- import into the preview ------------------------------------------ */

static guint
format_index (guint32 format)
{
  const guint32 *formats;
  guint n = mat_texture_import_formats (&formats);

  for (guint i = 0; i < n; i++)
    if (formats[i] == format)
      return i;
  g_assert_not_reached ();
  return 0;
}

static void
dialog_set_name (MatTextureImportDialog *dialog,
                 const char             *name)
{
  GtkEditable *entry = window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "name_entry");

  gtk_editable_set_text (entry, name);
  ui_pump ();
}

static gboolean
import_enabled (MatTextureImportDialog *dialog)
{
  GtkWidget *button = window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "import_button");

  return gtk_widget_is_sensitive (button);
}

static const char *
dialog_label (MatTextureImportDialog *dialog,
              const char             *name)
{
  return gtk_label_get_text (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, name));
}

static const char *
shown_result_page (MatTextureImportDialog *dialog)
{
  return gtk_stack_get_visible_child_name (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG,
                                                         "result_stack"));
}

static void
dialog_load (MatTextureImportDialog *dialog,
             GFile                  *file)
{
  mat_texture_import_dialog_set_file (dialog, file);
  g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
  ui_pump ();
}

static void
imported_cb (MatTextureImportDialog *dialog,
             MatTexture             *texture,
             MatTexture            **out)
{
  *out = texture;
}

/* ---- alpha the game ignores (render.md 2) ------------------------------ */

static const char *
shown_note (gpointer    window,
            GType       type,
            const char *name)
{
  GtkWidget *label = window_child (window, type, name);

  return gtk_widget_get_visible (label) ? gtk_label_get_text (GTK_LABEL (label)) : NULL;
}

/* Whether the dialog's "in the game" picture shows @colour opaque (the
 * 4444 grid keeps 10, 200, 30 within a step) at its middle, as the
 * window draws it. */
static gboolean
result_is_opaque (MatTextureImportDialog *dialog,
                  const guint8            colour[4])
{
  GtkWidget *area = window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "result_area");
  g_autoptr(GdkTexture) shot = NULL;
  guint8 pixel[4];
  gboolean opaque = TRUE;

  gtk_widget_queue_draw (area);
  ui_screen_wait_painted (area, 2);
  shot = ui_screen_grab (area);
  ui_texture_pixel (shot, gtk_widget_get_width (area) / 2, gtk_widget_get_height (area) / 2, pixel);
  g_test_message ("in the game: %u %u %u", pixel[0], pixel[1], pixel[2]);
  for (guint c = 0; c < 3; c++)
    opaque = opaque && ABS ((int) pixel[c] - (int) colour[c]) <= 9;
  return opaque;
}

static void
set_attr1 (MatMaterial *material,
           guint32      attr1)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mat_material_set_attr1 (material, attr1, &error));
  g_assert_no_error (error);
  ui_pump ();
}

/* The texture window says where the game ignores the selected texture's
 * alpha, for the material being edited (bound from the phase table) and
 * the emboss bump setting; the import dialog warns before a picture's
 * alpha is imported where the game will not draw it. */
static void
test_alpha_notes (void)
{
  static const char *const skin_note =
    "Lit skin: the game draws this texture opaque (its alpha only with emboss bump on)";
  static const char *const format_note =
    "Format without alpha: the game draws this texture opaque";
  static const guint8 see_through[4] = { 10, 200, 30, 128 };
  g_autoptr(GFile) lib = make_library_folder ("alpha", TRUE);
  g_autoptr(GFile) glass = flat_png ("alpha-glass.png", 16, 16, see_through);
  MatTextureImportDialog *dialog;
  MatTextureWindow *tw;
  MatTextureLibrary *textures;
  MatTexture *imported = NULL;
  MatMaterial *material;
  MatPhaseTable *table;
  MatWindow *window;

  window = open_window (lib);
  table = window_child (window, MAT_TYPE_WINDOW, "phase_table");
  g_assert_true (ui_wait_for (table_has_textures, table, WAIT_SECONDS));
  textures = mat_phase_table_get_textures (table);
  material = mat_window_get_selected_material (window);
  g_assert_nonnull (material);
  set_attr1 (material, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.textures", NULL));
  tw = find_texture_window ();
  g_assert_true (mat_texture_window_get_material (tw) == material);
  g_assert_false (mat_texture_window_get_emboss_bump (tw));

  /* GLOW.0, 4444 with a radial alpha: drawn with it on a plain material */
  g_assert_true (mat_texture_window_select (tw, mat_texture_library_lookup (textures, "GLOW.0")));
  ui_pump ();
  g_assert_null (shown_note (tw, MAT_TYPE_TEXTURE_WINDOW, "alpha_label"));
  /* the material made a lit skin: the note; emboss bump on: gone */
  set_attr1 (material, 0x02);
  g_assert_cmpstr (shown_note (tw, MAT_TYPE_TEXTURE_WINDOW, "alpha_label"), ==, skin_note);
  mat_phase_table_set_emboss_bump (table, TRUE);
  g_assert_true (mat_texture_window_get_emboss_bump (tw));
  g_assert_null (shown_note (tw, MAT_TYPE_TEXTURE_WINDOW, "alpha_label"));
  mat_phase_table_set_emboss_bump (table, FALSE);
  g_assert_cmpstr (shown_note (tw, MAT_TYPE_TEXTURE_WINDOW, "alpha_label"), ==, skin_note);
  /* METAL.0, 8888 without any alpha: nothing to ignore */
  g_assert_true (mat_texture_window_select (tw, mat_texture_library_lookup (textures, "METAL.0")));
  ui_pump ();
  g_assert_null (shown_note (tw, MAT_TYPE_TEXTURE_WINDOW, "alpha_label"));
  /* SMOKE.0, 88 on an alpha surface (flags5): drawn with its alpha */
  set_attr1 (material, 0);
  g_assert_true (mat_texture_window_select (tw, mat_texture_library_lookup (textures, "SMOKE.0")));
  ui_pump ();
  g_assert_null (shown_note (tw, MAT_TYPE_TEXTURE_WINDOW, "alpha_label"));

  /* the import dialog: a picture with alpha as 88 (a new texture, no
   * alpha surface) warns; as 8888 not, until the material is a lit skin */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tw), "textures.import", NULL));
  dialog = find_import_dialog ();
  g_signal_connect (dialog, "imported", G_CALLBACK (imported_cb), &imported);
  dialog_load (dialog, glass);
  dialog_set_name (dialog, "GREY.0");
  g_assert_cmpuint (mat_texture_import_dialog_get_format (dialog), ==, 4444);
  g_assert_null (shown_note (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "alpha_warning"));
  /* "in the game": the half-clear green over the checkerboard */
  g_assert_false (result_is_opaque (dialog, see_through));
  mat_texture_import_dialog_set_format (dialog, 88);
  g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
  g_assert_cmpstr (shown_note (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "alpha_warning"), ==,
                   "The game draws 88 textures opaque: the picture’s alpha will not show (4444 and 8888 keep it).");
  mat_texture_import_dialog_set_format (dialog, 8888);
  g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
  g_assert_null (shown_note (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "alpha_warning"));
  /* dropping the alpha (565) is a choice made: no warning */
  mat_texture_import_dialog_set_format (dialog, 565);
  g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
  g_assert_nonnull (shown_note (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "alpha_warning"));
  gtk_check_button_set_active (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "drop_alpha_check"),
                               TRUE);
  g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
  g_assert_null (shown_note (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "alpha_warning"));
  gtk_check_button_set_active (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "drop_alpha_check"),
                               FALSE);
  destroy_and_wait (GTK_WINDOW (dialog));

  set_attr1 (material, 0x02 | 1 << 2);   /* a see-through lit skin */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tw), "textures.import", NULL));
  dialog = find_import_dialog ();
  g_signal_connect (dialog, "imported", G_CALLBACK (imported_cb), &imported);
  dialog_load (dialog, glass);
  dialog_set_name (dialog, "GREY.0");
  {
    g_autofree char *expected = g_strdup_printf ("%s is a lit skin (attr1 bit 1): the game draws its textures opaque, so the picture’s alpha will not show on it unless emboss bump is on.",
                                                 mat_material_get_name (material));

    g_assert_cmpuint (mat_texture_import_dialog_get_format (dialog), ==, 4444);
    g_assert_cmpstr (shown_note (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "alpha_warning"), ==, expected);
    /* "in the game" on a lit skin: the green, opaque */
    g_assert_true (result_is_opaque (dialog, see_through));
  }
  /* imported as 88 all the same: the texture window says why it shows
   * opaque in the game */
  mat_texture_import_dialog_set_format (dialog, 88);
  g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
  g_assert_nonnull (strstr (shown_note (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "alpha_warning"),
                            "88 textures opaque"));
  {
    gpointer weak = dialog;

    g_object_add_weak_pointer (G_OBJECT (dialog), &weak);
    gtk_widget_activate (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "import_button"));
    g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));
  }
  g_assert_nonnull (imported);
  g_assert_true (mat_texture_window_get_selected (tw) == imported);
  g_assert_cmpuint (mat_texture_get_format (imported), ==, 88);
  g_assert_true (mat_texture_has_alpha (imported));
  g_assert_cmpstr (shown_note (tw, MAT_TYPE_TEXTURE_WINDOW, "alpha_label"), ==, format_note);

  g_assert_true (mat_history_undo (mat_texture_library_get_history (textures)));
  destroy_and_wait (GTK_WINDOW (tw));
  /* nothing to save in the material library but the attr1 edits */
  while (mat_history_undo (mat_library_get_history (mat_window_get_library (window))))
    ;
  destroy_and_wait (GTK_WINDOW (window));
}

static void
test_import_to_preview (void)
{
  g_autoptr(GFile) lib = make_library_folder ("import", TRUE);
  g_autoptr(GFile) folder = g_file_get_parent (lib);
  g_autofree char *tex_path = g_build_filename (g_file_peek_path (folder), "Textures.lib", NULL);
  g_autoptr(GBytes) original = read_bytes (tex_path);
  /* a colour the 565 grid holds: 165 = (20 << 3) | (20 >> 2), 162 =
   * (40 << 2) | (40 >> 4), 82 = (10 << 3) | (10 >> 2) */
  static const guint8 colour[4] = { 165, 162, 82, 255 };
  static const guint8 see_through[4] = { 10, 200, 30, 128 };
  g_autoptr(GFile) picture = flat_png ("flat.png", 32, 16, colour);
  g_autoptr(GFile) odd = flat_png ("odd.png", 24, 16, colour);
  g_autoptr(GFile) glass = flat_png ("glass.png", 16, 16, see_through);
  MatTextureImportDialog *dialog;
  MatTextureWindow *textures_window;
  MatTextureLibrary *textures;
  MatTexture *imported = NULL;
  MatWindow *window;
  MatPhaseTable *table;
  MatPreview *preview;
  MatMaterial *material;
  GtkWidget *area;
  g_autoptr(GError) error = NULL;
  guint n_before;

  window = open_window (lib);
  table = window_child (window, MAT_TYPE_WINDOW, "phase_table");
  g_assert_true (ui_wait_for (table_has_textures, table, WAIT_SECONDS));
  textures = mat_phase_table_get_textures (table);
  n_before = g_list_model_get_n_items (G_LIST_MODEL (textures));

  /* win.textures: the window over the library's own Textures.lib */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.textures", NULL));
  textures_window = find_texture_window ();
  g_assert_true (mat_texture_window_get_textures (textures_window) == textures);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (textures_window)) == GTK_WINDOW (window));
  /* a second activation raises the same window */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.textures", NULL));
  g_assert_true (find_texture_window () == textures_window);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (textures_window), "textures.import", NULL));
  dialog = find_import_dialog ();
  g_signal_connect (dialog, "imported", G_CALLBACK (imported_cb), &imported);
  g_assert_false (import_enabled (dialog));

  /* a side that is no power of two: offered scaled to 32×16 */
  dialog_load (dialog, odd);
  g_assert_true (gtk_widget_get_visible (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "size_box")));
  g_assert_cmpstr (shown_result_page (dialog), ==, "result");
  g_assert_nonnull (strstr (dialog_label (dialog, "result_info"), "32×16"));
  g_assert_nonnull (strstr (dialog_label (dialog, "size_note"), "24×16"));
  g_assert_true (import_enabled (dialog));

  /* refused: alpha 565 cannot hold, until the alpha is dropped */
  dialog_load (dialog, glass);
  g_assert_cmpuint (mat_texture_import_dialog_get_format (dialog), ==, 4444);   /* suggested */
  g_assert_cmpstr (shown_result_page (dialog), ==, "result");
  g_assert_true (import_enabled (dialog));
  mat_texture_import_dialog_set_format (dialog, 565);
  g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
  g_assert_cmpstr (shown_result_page (dialog), ==, "refused");
  g_assert_false (import_enabled (dialog));
  {
    GtkCheckButton *drop = window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "drop_alpha_check");

    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (drop)));
    gtk_check_button_set_active (drop, TRUE);
    g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
    g_assert_cmpstr (shown_result_page (dialog), ==, "result");
    g_assert_true (import_enabled (dialog));
    gtk_check_button_set_active (drop, FALSE);
    g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
  }

  /* the picture to import; the format chosen stays chosen; its sides
   * are powers of two: no size to choose */
  dialog_load (dialog, picture);
  g_assert_cmpuint (mat_texture_import_dialog_get_format (dialog), ==, 565);
  g_assert_false (gtk_widget_get_visible (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "size_box")));
  /* the name as typed: checked at once */
  dialog_set_name (dialog, "NODOT");
  g_assert_false (import_enabled (dialog));
  g_assert_true (gtk_widget_has_css_class (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG,
                                                         "name_message"), "error"));
  g_assert_nonnull (strstr (dialog_label (dialog, "name_message"), "'.'"));
  dialog_set_name (dialog, "rock.0");
  g_assert_nonnull (strstr (dialog_label (dialog, "name_message"), "ROCK.0"));
  g_assert_cmpstr (gtk_button_get_label (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG,
                                                       "import_button")), ==, "_Replace");
  dialog_set_name (dialog, "FLAT.0");
  g_assert_false (gtk_widget_has_css_class (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG,
                                                          "name_message"), "error"));
  gtk_drop_down_set_selected (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "format_dropdown"),
                              format_index (565));
  g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
  g_assert_cmpstr (shown_result_page (dialog), ==, "result");
  {
    g_autofree char *count = mat_file_format_count (texm_encoded_size (565, 32, 16, 0, FALSE, 0));
    g_autofree char *size = g_strdup_printf ("%s bytes", count);

    g_test_message ("result: %s", dialog_label (dialog, "result_info"));
    g_assert_nonnull (strstr (dialog_label (dialog, "result_info"), size));
    g_assert_nonnull (strstr (dialog_label (dialog, "result_info"), "exact"));
  }
  g_assert_true (import_enabled (dialog));
  {
    gpointer weak = dialog;

    /* the import runs in a thread, then the dialog closes itself */
    g_object_add_weak_pointer (G_OBJECT (dialog), &weak);
    gtk_widget_activate (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "import_button"));
    g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));
  }
  g_assert_nonnull (imported);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (textures)), ==, n_before + 1);
  g_assert_true (mat_texture_library_lookup (textures, "FLAT.0") == imported);
  g_assert_true (mat_texture_window_get_selected (textures_window) == imported);
  g_assert_cmpuint (mat_texture_get_format (imported), ==, 565);

  /* the phase takes it; the preview draws it (unlit, a plane: the texel) */
  material = mat_window_get_selected_material (window);
  g_assert_nonnull (material);
  g_assert_true (mat_phase_set_texture (ui_phase_at (material, 0), "FLAT.0", &error));
  g_assert_no_error (error);
  gtk_stack_set_visible_child_name (window_child (window, MAT_TYPE_WINDOW, "material_stack"), "animation");
  preview = window_child (window, MAT_TYPE_WINDOW, "preview");
  mat_preview_set_shape (preview, MAT_PREVIEW_SHAPE_PLANE);
  mat_preview_set_unlit (preview, TRUE);
  area = mat_preview_get_test_widget (preview, "gl_area");
  g_assert_true (ui_wait_for (ui_widget_is_shown, area, WAIT_SECONDS));
  {
    g_autoptr(TexmImage) image = texm_parse (mat_texture_get_payload (imported), "FLAT.0", 0, NULL);
    g_autofree guint8 *texels = texm_decode_rgba (image, 0, NULL, NULL);
    const guint8 *expected = texels + ((8 * 32) + 16) * 4;   /* the centre texel */
    guint8 pixel[4];

    g_assert_cmpmem (expected, 3, colour, 3);
    g_assert_true (mat_preview_read_pixel_for_test (preview, gtk_widget_get_width (area) / 2,
                                                    gtk_widget_get_height (area) / 2, pixel));
    g_test_message ("preview pixel %u %u %u, texel %u %u %u", pixel[0], pixel[1], pixel[2],
                    expected[0], expected[1], expected[2]);
    for (guint c = 0; c < 3; c++)
      g_assert_cmpint (ABS ((int) pixel[c] - (int) expected[c]), <=, 1);
  }

  /* replaced by another colour, then given cells: the preview and the
   * phase table follow at once, without being handed the library again;
   * undone, both are back */
  {
    static const guint8 green[4] = { 0x10, 0xE0, 0x30, 0xFF };
    static const TexmRect halves[2] = { { 0, 16, 0, 16 }, { 16, 16, 0, 16 } };
    g_autofree guint8 *flat = g_malloc (32 * 16 * 4);
    TexmEncodeOptions options;
    MatPhaseTable *table = window_child (window, MAT_TYPE_WINDOW, "phase_table");
    GtkDropDown *chooser;
    guint8 pixel[4];

    for (guint i = 0; i < 32 * 16; i++)
      memcpy (flat + 4 * i, green, 4);
    texm_encode_options_init (&options, 8888);
    g_assert_nonnull (mat_texture_library_import (textures, "FLAT.0", flat, 32, 16, 32 * 4,
                                                  &options, NULL, &error));
    g_assert_no_error (error);
    ui_spin_ms (100);
    g_assert_true (mat_preview_read_pixel_for_test (preview, gtk_widget_get_width (area) / 2,
                                                    gtk_widget_get_height (area) / 2, pixel));
    for (guint c = 0; c < 3; c++)
      g_assert_cmpint (ABS ((int) pixel[c] - (int) green[c]), <=, 1);

    gtk_stack_set_visible_child_name (window_child (window, MAT_TYPE_WINDOW, "material_stack"), "phases");
    ui_spin_ms (100);
    chooser = mat_phase_table_get_cell_chooser_for_test (table, 0);
    g_assert_nonnull (chooser);
    g_assert_true (mat_texture_library_set_page_rects (textures, mat_texture_library_lookup (textures, "FLAT.0"),
                                                       halves, G_N_ELEMENTS (halves), &error));
    g_assert_no_error (error);
    ui_spin_ms (100);
    chooser = mat_phase_table_get_cell_chooser_for_test (table, 0);
    /* "−1 whole texture" and the two halves */
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (chooser)), ==, 3);

    g_assert_true (mat_history_undo (mat_texture_library_get_history (textures)));
    g_assert_true (mat_history_undo (mat_texture_library_get_history (textures)));
    ui_spin_ms (100);
    chooser = mat_phase_table_get_cell_chooser_for_test (table, 0);
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (chooser)), ==, 1);
    gtk_stack_set_visible_child_name (window_child (window, MAT_TYPE_WINDOW, "material_stack"), "animation");
    ui_spin_ms (100);
    g_assert_true (mat_preview_read_pixel_for_test (preview, gtk_widget_get_width (area) / 2,
                                                    gtk_widget_get_height (area) / 2, pixel));
    for (guint c = 0; c < 3; c++)
      g_assert_cmpint (ABS ((int) pixel[c] - (int) colour[c]), <=, 1);
  }

  /* saved: the new entry holds exactly the core's encoding of the
   * picture; every other entry keeps its bytes */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (textures_window), "win.save", NULL));
  g_assert_true (ui_wait_for (library_clean, textures, WAIT_SECONDS));
  {
    g_autoptr(GBytes) saved = read_bytes (tex_path);
    g_autoptr(NresArchive) before = nres_archive_parse (original, NULL);
    g_autoptr(NresArchive) after = nres_archive_parse (saved, &error);
    g_autoptr(GdkPixbuf) loaded = gdk_pixbuf_new_from_file (g_file_peek_path (picture), NULL);
    g_autoptr(GdkPixbuf) rgba = gdk_pixbuf_add_alpha (loaded, FALSE, 0, 0, 0);
    g_autoptr(GBytes) expected = NULL;
    g_autoptr(GBytes) stored = NULL;
    TexmEncodeOptions options;

    g_assert_no_error (error);
    g_assert_cmpuint (after->n_entries, ==, before->n_entries + 1);
    for (guint i = 0; i < before->n_entries; i++)
      {
        g_autoptr(GBytes) a = nres_archive_payload_bytes (before, i);
        g_autoptr(GBytes) b = nres_archive_payload_bytes (after, i);

        g_assert_cmpmem (before->entries[i].name, NRES_NAME_SIZE, after->entries[i].name, NRES_NAME_SIZE);
        assert_bytes_equal (a, b);
      }
    g_assert_cmpstr (after->entries[before->n_entries].name, ==, "FLAT.0");
    texm_encode_options_init (&options, 565);
    expected = texm_encode (gdk_pixbuf_read_pixels (rgba), 32, 16,
                            (gsize) gdk_pixbuf_get_rowstride (rgba), &options, NULL, &error);
    g_assert_no_error (error);
    stored = nres_archive_payload_bytes (after, before->n_entries);
    assert_bytes_equal (stored, expected);
  }

  destroy_and_wait (GTK_WINDOW (textures_window));
  destroy_and_wait (GTK_WINDOW (window));
}

/* ---- the cell editor -------------------------------------------------- */

typedef struct {
  MatTextureWindow  *window;
  MatTextureLibrary *textures;
  MatCellEditor     *editor;
  MatTexture        *texture;
  GBytes            *original;   /* the Textures.lib as on disk */
} Cells;

static void
cells_open (Cells      *f,
            const char *texture)
{
  g_autofree char *folder = make_folder ("cells");
  g_autofree char *path = g_build_filename (folder, "Textures.lib", NULL);

  f->original = read_bytes (ui_need_env ("DEMO_TEXTURES"));
  write_bytes (path, f->original);
  f->window = texture_window_for (path, 1100, 720);
  f->textures = mat_texture_window_get_textures (f->window);
  f->texture = mat_texture_library_lookup (f->textures, texture);
  g_assert_nonnull (f->texture);
  g_assert_true (mat_texture_window_select (f->window, f->texture));
  f->editor = window_child (f->window, MAT_TYPE_TEXTURE_WINDOW, "cell_editor");
  g_assert_true (mat_cell_editor_get_texture (f->editor) == f->texture);
  g_assert_true (ui_wait_for (ui_widget_is_shown, f->editor, WAIT_SECONDS));
  ui_spin_ms (100);
}

static void
cells_close (Cells *f)
{
  /* nothing left unsaved: the window closes without asking */
  g_assert_false (mat_texture_library_get_dirty (f->textures));
  destroy_and_wait (GTK_WINDOW (f->window));
  g_clear_pointer (&f->original, g_bytes_unref);
}

static void
set_grid (Cells *f,
          guint  step)
{
  static const guint steps[] = { 1, 2, 4, 8, 16, 32 };
  GtkDropDown *grid = window_child (f->window, MAT_TYPE_TEXTURE_WINDOW, "grid_dropdown");

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] == step)
      gtk_drop_down_set_selected (grid, i);
  g_assert_cmpuint (mat_cell_editor_get_grid (f->editor), ==, step);
}

/* Widget coordinates of the texel point (@tx, @ty). */
static void
at (Cells  *f,
    double  tx,
    double  ty,
    double *x,
    double *y)
{
  mat_cell_editor_texel_to_widget (f->editor, tx, ty, x, y);
}

/* A real drag from texel point (@tx0, @ty0) to (@tx1, @ty1). */
static void
drag (Cells  *f,
      double  tx0,
      double  ty0,
      double  tx1,
      double  ty1)
{
  double x0, y0, x1, y1;

  at (f, tx0, ty0, &x0, &y0);
  at (f, tx1, ty1, &x1, &y1);
  ui_pointer_drag (GTK_WIDGET (f->editor), x0, y0, x1 - x0, y1 - y0);
  ui_spin_ms (50);
}

static void
assert_rect (Cells *f,
             guint  index,
             gint   x,
             gint   w,
             gint   y,
             gint   h)
{
  guint n = 0;
  const TexmRect *rects = mat_texture_get_rects (f->texture, &n, NULL);

  g_assert_cmpuint (index, <, n);
  g_test_message ("rect %u: x %d w %d y %d h %d", index, rects[index].x, rects[index].w,
                  rects[index].y, rects[index].h);
  g_assert_cmpint (rects[index].x, ==, x);
  g_assert_cmpint (rects[index].w, ==, w);
  g_assert_cmpint (rects[index].y, ==, y);
  g_assert_cmpint (rects[index].h, ==, h);
}

static guint
n_undo (Cells *f)
{
  return mat_history_get_n_undo (mat_texture_library_get_history (f->textures));
}

/* Undo through the window's own action: the exact bytes come back. */
static void
undo_to_original (Cells *f,
                  guint  steps)
{
  g_autoptr(GBytes) now = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < steps; i++)
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL));
  g_assert_cmpuint (n_undo (f), ==, 0);
  now = mat_texture_library_save_to_bytes (f->textures, &error);
  g_assert_no_error (error);
  assert_bytes_equal (now, f->original);
  g_assert_false (mat_texture_library_get_dirty (f->textures));
}

static void
press_key (GtkWidget *widget,
           guint      keysym)
{
  Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  KeyCode code = XKeysymToKeycode (xdisplay, keysym);

  XTestFakeKeyEvent (xdisplay, code, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, False, CurrentTime);
  XFlush (xdisplay);
  ui_spin_ms (60);
}

/* The bytes a save would write now. */
static GBytes *
saved_now (Cells *f)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = mat_texture_library_save_to_bytes (f->textures, &error);

  g_assert_no_error (error);
  return bytes;
}

static void
test_cells_draw_move_resize (void)
{
  Cells f = { 0 };
  g_autoptr(GPtrArray) states = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  guint n = 0;
  double zoom;

  cells_open (&f, "METAL.0");   /* 64x64, no Page chunk */
  zoom = mat_cell_editor_get_zoom (f.editor);
  g_test_message ("zoom %g", zoom);
  /* a whole number of pixels a texel: points land on texels exactly */
  g_assert_cmpfloat (zoom, >=, 2);
  g_assert_cmpfloat (zoom, ==, (double) (int) zoom);
  set_grid (&f, 1);
  g_ptr_array_add (states, g_bytes_ref (f.original));

  /* draw: from texel corner (4, 6) to (20, 14), a quarter texel inside */
  drag (&f, 4.25, 6.25, 20.25, 14.25);
  g_ptr_array_add (states, saved_now (&f));
  g_assert_cmpuint (n_undo (&f), ==, 1);
  mat_texture_get_rects (f.texture, &n, NULL);
  g_assert_cmpuint (n, ==, 1);
  assert_rect (&f, 0, 4, 16, 6, 8);
  g_assert_cmpint (mat_cell_editor_get_selected (f.editor), ==, 0);
  {
    GtkLabel *label = window_child (f.window, MAT_TYPE_TEXTURE_WINDOW, "cell_label");

    if (!russian)
      g_assert_cmpstr (gtk_label_get_text (label), ==, "Cell 0: x 4, y 6, 16×8");
  }

  /* move: grab the middle, 10 texels right and 3 down */
  drag (&f, 12.25, 10.25, 22.25, 13.25);
  g_ptr_array_add (states, saved_now (&f));
  g_assert_cmpuint (n_undo (&f), ==, 2);
  assert_rect (&f, 0, 14, 16, 9, 8);

  /* resize: the bottom-right corner handle, 6 right and 5 down */
  drag (&f, 30, 17, 36, 22);
  g_ptr_array_add (states, saved_now (&f));
  g_assert_cmpuint (n_undo (&f), ==, 3);
  assert_rect (&f, 0, 14, 22, 9, 13);

  /* the left edge, 2 texels left */
  drag (&f, 14, 15.25, 12, 15.25);
  g_ptr_array_add (states, saved_now (&f));
  g_assert_cmpuint (n_undo (&f), ==, 4);
  assert_rect (&f, 0, 12, 24, 9, 13);

  /* a drag that moves it past the edge stops at the edge */
  drag (&f, 20.25, 12.25, 70.25, 12.25);
  assert_rect (&f, 0, 40, 24, 9, 13);

  /* each step undoes to exactly the bytes from before it, down to the
   * file's; each redo to the bytes after it */
  {
    static const TexmRect after_undo[] = {
      { 12, 24, 9, 13 }, { 14, 22, 9, 13 }, { 14, 16, 9, 8 }, { 4, 16, 6, 8 },
    };
    g_autoptr(GBytes) last = saved_now (&f);

    for (guint k = 0; k < G_N_ELEMENTS (after_undo); k++)
      {
        g_autoptr(GBytes) now = NULL;

        g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.undo", NULL));
        assert_rect (&f, 0, after_undo[k].x, after_undo[k].w, after_undo[k].y, after_undo[k].h);
        now = saved_now (&f);
        assert_bytes_equal (now, g_ptr_array_index (states, states->len - 1 - k));
      }
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.undo", NULL));
    {
      g_autoptr(GBytes) now = saved_now (&f);

      assert_bytes_equal (now, f.original);
    }
    for (guint k = 1; k < states->len; k++)
      {
        g_autoptr(GBytes) now = NULL;

        g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.redo", NULL));
        now = saved_now (&f);
        assert_bytes_equal (now, g_ptr_array_index (states, k));
      }
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.redo", NULL));
    {
      g_autoptr(GBytes) now = saved_now (&f);

      assert_bytes_equal (now, last);
    }
  }
  undo_to_original (&f, 5);
  g_assert_cmpuint (mat_texture_get_page_rects (f.texture), ==, 0);

  cells_close (&f);
}

static gboolean
group_open (gpointer data)
{
  return mat_history_in_group (data);
}

static gboolean
group_closed (gpointer data)
{
  return !mat_history_in_group (data);
}

/* Types @text into the spin button @spin and presses Enter, as a user
 * does (the key through the X server). */
static void
type_number (GtkSpinButton *spin,
             const char    *text)
{
  gtk_widget_grab_focus (GTK_WIDGET (spin));
  gtk_editable_set_text (GTK_EDITABLE (spin), text);
  ui_key (GTK_WIDGET (spin), GDK_KEY_Return, 0);
  ui_spin_ms (30);
}

/* The selected cell's x, y, w, h typed in the window: each typed value
 * one undo step giving the cell exactly that number; a held step button
 * one step however many texels it moved; a cell outside the texture
 * refused with the model's message and the fields back; without a
 * selection the fields take nothing. */
static void
test_cells_typed (void)
{
  Cells f = { 0 };
  GtkSpinButton *x, *y, *w, *h;
  MatHistory *history;
  GtkLabel *banner;
  guint n = 0;

  cells_open (&f, "ATLAS4.0");   /* 64x64, four 32x32 quadrants */
  history = mat_texture_library_get_history (f.textures);
  x = window_child (f.window, MAT_TYPE_TEXTURE_WINDOW, "cell_x_spin");
  y = window_child (f.window, MAT_TYPE_TEXTURE_WINDOW, "cell_y_spin");
  w = window_child (f.window, MAT_TYPE_TEXTURE_WINDOW, "cell_w_spin");
  h = window_child (f.window, MAT_TYPE_TEXTURE_WINDOW, "cell_h_spin");
  banner = window_child (f.window, MAT_TYPE_TEXTURE_WINDOW, "banner_label");

  /* nothing selected: nothing to type into */
  mat_cell_editor_set_selected (f.editor, -1);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (x)));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (h)));

  mat_cell_editor_set_selected (f.editor, 1);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (x)));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (x), ==, 32);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (y), ==, 0);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (w), ==, 32);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (h), ==, 32);

  /* typed: x 21, then the width 11: two steps, exact */
  type_number (x, "21");
  g_assert_true (ui_wait_for (group_closed, history, WAIT_SECONDS));
  g_assert_cmpuint (n_undo (&f), ==, 1);
  assert_rect (&f, 1, 21, 32, 0, 32);
  type_number (w, "11");
  g_assert_true (ui_wait_for (group_closed, history, WAIT_SECONDS));
  g_assert_cmpuint (n_undo (&f), ==, 2);
  assert_rect (&f, 1, 21, 11, 0, 32);
  /* the other cells keep theirs */
  assert_rect (&f, 0, 0, 32, 0, 32);
  mat_texture_get_rects (f.texture, &n, NULL);
  g_assert_cmpuint (n, ==, 4);

  /* a held button: three steps of one texel, one undo step */
  gtk_widget_grab_focus (GTK_WIDGET (y));
  gtk_spin_button_spin (y, GTK_SPIN_STEP_FORWARD, 1);
  g_assert_true (group_open (history));
  gtk_spin_button_spin (y, GTK_SPIN_STEP_FORWARD, 1);
  gtk_spin_button_spin (y, GTK_SPIN_STEP_FORWARD, 1);
  assert_rect (&f, 1, 21, 11, 3, 32);
  g_assert_true (ui_wait_for (group_closed, history, WAIT_SECONDS));
  g_assert_cmpuint (n_undo (&f), ==, 3);

  /* outside the texture (3 + 32 of 64 fits; 40 + 32 does not): refused,
   * said, the field back at the cell's number, no step */
  type_number (y, "40");
  g_assert_true (ui_wait_for (group_closed, history, WAIT_SECONDS));
  g_assert_cmpuint (n_undo (&f), ==, 3);
  assert_rect (&f, 1, 21, 11, 3, 32);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (y), ==, 3);
  g_test_message ("banner: %s", gtk_label_get_text (banner));
  if (!russian)
    g_assert_nonnull (strstr (gtk_label_get_text (banner), "rectangle 1 (x 21, w 11, y 40, h 32)"));

  /* the fields follow undo, and undo gives the file's bytes back */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.undo", NULL));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (y), ==, 0);
  undo_to_original (&f, 2);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (x), ==, 32);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (w), ==, 32);
  cells_close (&f);
}

/* Only the selected cell has handles, and only where they are drawn or
 * inside it along its edges: a drag that starts just outside its edge,
 * away from a handle, draws a new cell beside it instead of resizing it
 * (it did resize it: the edges grabbed 5 pixels either side). */
static void
test_cells_draw_beside (void)
{
  Cells f = { 0 };
  double zoom, gap;
  guint n = 0;

  cells_open (&f, "METAL.0");   /* 64x64, no Page chunk */
  set_grid (&f, 1);
  zoom = mat_cell_editor_get_zoom (f.editor);
  g_assert_cmpfloat (zoom, >=, 4);
  drag (&f, 4.25, 6.25, 20.25, 14.25);
  assert_rect (&f, 0, 4, 16, 6, 8);
  g_assert_cmpint (mat_cell_editor_get_selected (f.editor), ==, 0);

  /* 3 pixels right of its right edge (x 20), at y 8: 10 pixels and more
   * from the handles at y 6 and y 10 */
  gap = 3.0 / zoom;
  drag (&f, 20 + gap, 8.25, 30.25, 12.25);
  mat_texture_get_rects (f.texture, &n, NULL);
  g_assert_cmpuint (n, ==, 2);
  assert_rect (&f, 0, 4, 16, 6, 8);
  assert_rect (&f, 1, 21, 9, 8, 4);
  g_assert_cmpint (mat_cell_editor_get_selected (f.editor), ==, 1);

  /* the handle itself still resizes: cell 1's bottom-right corner */
  drag (&f, 30, 12, 32, 16);
  assert_rect (&f, 1, 21, 11, 8, 8);
  /* and a band inside the edge: cell 1's left edge, 1 pixel in */
  drag (&f, 21 + 1.0 / zoom, 11, 23, 11);
  assert_rect (&f, 1, 23, 9, 8, 8);
  /* cell 0 is not selected: a drag just inside its right edge moves it */
  drag (&f, 20 - 1.0 / zoom, 10.25, 18 - 1.0 / zoom, 10.25);
  assert_rect (&f, 0, 2, 16, 6, 8);
  g_assert_cmpint (mat_cell_editor_get_selected (f.editor), ==, 0);

  undo_to_original (&f, 5);
  cells_close (&f);
}

static void
test_cells_snap_and_delete (void)
{
  Cells f = { 0 };
  guint n = 0;
  const TexmRect *before;
  TexmRect kept[4];

  cells_open (&f, "ATLAS4.0");   /* 64x64 with four quadrant cells */
  before = mat_texture_get_rects (f.texture, &n, NULL);
  g_assert_cmpuint (n, ==, 4);
  memcpy (kept, before, sizeof kept);

  /* the four quadrants are all cells: cell 3 goes first, with the
   * Delete key; the cells before it keep their numbers and bytes */
  mat_cell_editor_set_selected (f.editor, 3);
  gtk_widget_grab_focus (GTK_WIDGET (f.editor));
  {
    double x, y;

    at (&f, 48, 48, &x, &y);
    ui_pointer_move (GTK_WIDGET (f.editor), x, y);
  }
  press_key (GTK_WIDGET (f.editor), XK_Delete);
  g_assert_cmpuint (n_undo (&f), ==, 1);
  mat_texture_get_rects (f.texture, &n, NULL);
  g_assert_cmpuint (n, ==, 3);
  for (guint i = 0; i < 3; i++)
    assert_rect (&f, i, kept[i].x, kept[i].w, kept[i].y, kept[i].h);

  /* an 8-texel grid: a cell drawn in the freed quadrant from +(3.4, 5.2)
   * to +(17.6, 22.9) snaps to the nearest lines: x 0..16, y 8..24 */
  set_grid (&f, 8);
  /* the freed quadrant is (kept[3]): draw there with the grid */
  {
    double x0 = kept[3].x + 3.4, y0 = kept[3].y + 5.2;
    double x1 = kept[3].x + 17.6, y1 = kept[3].y + 22.9;

    drag (&f, x0, y0, x1, y1);
  }
  g_assert_cmpuint (n_undo (&f), ==, 2);
  /* the quadrant starts on a grid line (32) */
  assert_rect (&f, 3, kept[3].x, 16, kept[3].y + 8, 16);

  /* moved by about 11 texels right: the position snaps to 8 */
  drag (&f, kept[3].x + 8.5, kept[3].y + 16.5, kept[3].x + 19.7, kept[3].y + 16.5);
  g_assert_cmpuint (n_undo (&f), ==, 3);
  assert_rect (&f, 3, kept[3].x + 8, 16, kept[3].y + 8, 16);

  /* a 16-texel grid: the bottom edge (at 56) dragged 3 up would snap
   * to 48, leaving less than a grid step: it stays, and no step is
   * recorded */
  set_grid (&f, 16);
  drag (&f, kept[3].x + 16, kept[3].y + 24, kept[3].x + 16, kept[3].y + 21);
  g_assert_cmpuint (n_undo (&f), ==, 3);
  assert_rect (&f, 3, kept[3].x + 8, 16, kept[3].y + 8, 16);
  /* ... and 9 down (65) snaps to the line at 64 */
  drag (&f, kept[3].x + 16, kept[3].y + 24, kept[3].x + 16, kept[3].y + 33);
  g_assert_cmpuint (n_undo (&f), ==, 4);
  assert_rect (&f, 3, kept[3].x + 8, 16, kept[3].y + 8, 24);

  /* the Page chunk in the payload: the three cells kept byte for byte */
  {
    GBytes *payload = mat_texture_get_payload (f.texture);
    gsize size = g_bytes_get_size (payload);
    const guint8 *p = g_bytes_get_data (payload, NULL);
    const guint8 *chunk = p + size - 8 - 4 * 8;

    g_assert_cmpmem (chunk, 4, "Page", 4);
    g_assert_cmpuint (test_get_u32 (chunk + 4), ==, 4);
    for (guint i = 0; i < 3; i++)
      {
        g_assert_cmpint ((gint16) test_get_u16 (chunk + 8 + i * 8 + 0), ==, kept[i].x);
        g_assert_cmpint ((gint16) test_get_u16 (chunk + 8 + i * 8 + 2), ==, kept[i].w);
        g_assert_cmpint ((gint16) test_get_u16 (chunk + 8 + i * 8 + 4), ==, kept[i].y);
        g_assert_cmpint ((gint16) test_get_u16 (chunk + 8 + i * 8 + 6), ==, kept[i].h);
      }
  }

  undo_to_original (&f, 4);
  mat_texture_get_rects (f.texture, &n, NULL);
  g_assert_cmpuint (n, ==, 4);
  cells_close (&f);
}

/* ---- export ------------------------------------------------------------ */

/* A full disk for every write after the first 100 bytes of a file. */
static ssize_t
full_disk_write (int fd, const void *buf, size_t count)
{
  struct stat st;

  if (fstat (fd, &st) == 0 && st.st_size >= 100)
    {
      errno = ENOSPC;
      return -1;
    }
  return _mat_file_get_system_io ()->write (fd, buf, MIN (count, 100));
}

static void
exported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      data)
{
  GError **error = data;

  if (!mat_texture_window_export_finish (MAT_TEXTURE_WINDOW (object), result, error) && *error == NULL)
    g_assert_not_reached ();
  g_object_set_data (object, "exported", GINT_TO_POINTER (1));
}

static gboolean
export_done (gpointer data)
{
  return g_object_get_data (G_OBJECT (data), "exported") != NULL;
}

static void
test_export (void)
{
  g_autofree char *folder = make_folder ("export");
  g_autofree char *path = g_build_filename (folder, "Textures.lib", NULL);
  g_autoptr(GBytes) bytes = read_bytes (ui_need_env ("DEMO_TEXTURES"));
  g_autoptr(NresArchive) archive = NULL;
  MatTextureWindow *window;
  static const struct {
    const char *name;
    guint       level;
  } cases[] = {
    { "GLOW.0", 0 },     /* 4444: alpha */
    { "GLOW.0", 2 },
    { "ROCK.0", 3 },     /* 565 */
    { "LAVA.A", 1 },     /* a palette */
    { "ATLAS.0", 6 },    /* 8888, 2x2 */
  };

  write_bytes (path, bytes);
  archive = nres_archive_parse (bytes, NULL);
  window = texture_window_for (path, 1100, 720);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      MatTexture *texture = mat_texture_library_lookup (mat_texture_window_get_textures (window),
                                                        cases[i].name);
      g_autofree char *png = g_strdup_printf ("%s/%s-%u.png", folder, cases[i].name, cases[i].level);
      g_autoptr(GFile) file = g_file_new_for_path (png);
      g_autoptr(GError) error = NULL;
      g_autoptr(GdkPixbuf) pixbuf = NULL;
      g_autoptr(GBytes) payload = NULL;
      g_autoptr(TexmImage) image = NULL;
      g_autofree guint8 *expected = NULL;
      guint w = 0, h = 0;
      gint index;

      g_assert_nonnull (texture);
      g_object_set_data (G_OBJECT (window), "exported", NULL);
      mat_texture_window_export_async (window, texture, cases[i].level, file, NULL, exported_cb, &error);
      g_assert_true (ui_wait_for (export_done, window, WAIT_SECONDS));
      g_assert_no_error (error);

      /* the texture read from the file's bytes, decoded by the core */
      index = nres_archive_find (archive, cases[i].name);
      g_assert_cmpint (index, >=, 0);
      payload = nres_archive_payload_bytes (archive, (guint) index);
      image = texm_parse (payload, cases[i].name, 0, &error);
      g_assert_no_error (error);
      expected = texm_decode_rgba (image, cases[i].level, &w, &h);

      pixbuf = gdk_pixbuf_new_from_file (png, &error);
      g_assert_no_error (error);
      g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, (int) w);
      g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, (int) h);
      g_assert_true (gdk_pixbuf_get_has_alpha (pixbuf));
      for (guint y = 0; y < h; y++)
        g_assert_cmpmem (gdk_pixbuf_read_pixels (pixbuf) + (gsize) y * (gsize) gdk_pixbuf_get_rowstride (pixbuf),
                         w * 4, expected + (gsize) y * w * 4, w * 4);
    }

  /* a full disk: the PNG exported before stays as it was */
  {
    g_autofree char *png = g_strdup_printf ("%s/%s-%u.png", folder, cases[0].name, cases[0].level);
    g_autoptr(GFile) file = g_file_new_for_path (png);
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) before = read_bytes (png);
    g_autoptr(GBytes) after = NULL;
    MatTexture *texture = mat_texture_library_lookup (mat_texture_window_get_textures (window), "ROCK.0");
    MatFileIO full = *_mat_file_get_system_io ();

    g_assert_cmpuint (g_bytes_get_size (before), >, 100);
    full.write = full_disk_write;
    _mat_file_set_io (&full);
    g_object_set_data (G_OBJECT (window), "exported", NULL);
    mat_texture_window_export_async (window, texture, 0, file, NULL, exported_cb, &error);
    g_assert_true (ui_wait_for (export_done, window, WAIT_SECONDS));
    _mat_file_set_io (NULL);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
    after = read_bytes (png);
    g_assert_true (g_bytes_equal (before, after));
  }

  /* a level past the chain is an error, not a file */
  {
    g_autofree char *png = g_build_filename (folder, "none.png", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (png);
    g_autoptr(GError) error = NULL;
    MatTexture *texture = mat_texture_library_lookup (mat_texture_window_get_textures (window), "GLOW.0");

    g_object_set_data (G_OBJECT (window), "exported", NULL);
    mat_texture_window_export_async (window, texture, 9, file, NULL, exported_cb, &error);
    g_assert_true (ui_wait_for (export_done, window, WAIT_SECONDS));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
  }
  destroy_and_wait (GTK_WINDOW (window));
}

/* ---- creating a Textures.lib ------------------------------------------ */

static void
test_create (void)
{
  g_autoptr(GFile) lib = make_library_folder ("create", FALSE);
  g_autoptr(GFile) folder = g_file_get_parent (lib);
  g_autofree char *tex_path = g_build_filename (g_file_peek_path (folder), "Textures.lib", NULL);
  static const guint8 empty_lib[16] = { 'N', 'R', 'e', 's', 0, 1, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0 };
  g_autofree char *empty = make_folder ("create-game");
  GSettings *settings = mat_application_get_settings (app);
  MatTextureWindow *textures_window;
  MatTextureLibrary *created;
  MatDocument *document;
  MatWindow *window;
  MatPhaseTable *table;
  MatPreview *preview;

  window = open_window (lib);
  table = window_child (window, MAT_TYPE_WINDOW, "phase_table");
  preview = window_child (window, MAT_TYPE_WINDOW, "preview");
  ui_spin_ms (200);
  g_assert_null (mat_phase_table_get_textures (table));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.textures", NULL));
  textures_window = find_texture_window ();
  g_assert_null (mat_texture_window_get_textures (textures_window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window_child (textures_window, MAT_TYPE_TEXTURE_WINDOW,
                                                                   "main_stack")), ==, "none");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (textures_window), "textures.create", NULL));
  g_assert_true (ui_wait_for (window_has_textures, textures_window, WAIT_SECONDS));
  {
    g_autoptr(GBytes) bytes = read_bytes (tex_path);

    g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), empty_lib, sizeof empty_lib);
  }
  /* the phase table, and so the preview, use it at once */
  g_assert_true (mat_phase_table_get_textures (table) == mat_texture_window_get_textures (textures_window));
  g_assert_true (mat_preview_get_textures (preview) == mat_texture_window_get_textures (textures_window));
  /* there it is now: creating again is not offered */
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (textures_window), "textures.create", NULL) &&
                  mat_texture_window_get_textures (textures_window) == NULL);

  /* the library's document took it, as if found beside the library */
  created = mat_texture_window_get_textures (textures_window);
  document = mat_window_get_document (window);
  g_assert_true (mat_document_get_textures (document) == created);
  g_assert_cmpint (mat_document_get_textures_source (document), ==, MAT_TEXTURES_SOURCE_BESIDE);

  /* an unsaved import, then the document looks again (a game folder
   * set): the same library, the edit kept, in every view */
  {
    g_autofree guint8 *flat = g_malloc (16 * 16 * 4);
    g_autoptr(GError) error = NULL;
    TexmEncodeOptions options;

    memset (flat, 0x80, 16 * 16 * 4);
    texm_encode_options_init (&options, 8888);
    g_assert_nonnull (mat_texture_library_import (created, "FLAT.0", flat, 16, 16, 16 * 4, &options,
                                                  NULL, &error));
    g_assert_no_error (error);
  }
  g_assert_true (g_settings_set_string (settings, "game-folder", empty));
  ui_spin_ms (100);
  g_assert_true (ui_wait_for (document_settled, document, WAIT_SECONDS));
  g_assert_true (mat_document_get_textures (document) == created);
  g_assert_true (mat_phase_table_get_textures (table) == created);
  g_assert_true (mat_texture_window_get_textures (textures_window) == created);
  g_assert_true (mat_texture_library_get_dirty (created));

  /* saved from the texture window: into the file it created */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (textures_window), "win.save", NULL));
  g_assert_true (ui_wait_for (library_clean, created, WAIT_SECONDS));
  {
    g_autoptr(GBytes) bytes = read_bytes (tex_path);
    g_autoptr(GBytes) saved = mat_texture_library_save_to_bytes (created, NULL);
    g_autoptr(NresArchive) archive = nres_archive_parse (bytes, NULL);

    assert_bytes_equal (bytes, saved);
    g_assert_nonnull (archive);
    g_assert_cmpint (nres_archive_find (archive, "FLAT.0"), ==, 0);
  }
  g_settings_reset (settings, "game-folder");

  destroy_and_wait (GTK_WINDOW (textures_window));
  destroy_and_wait (GTK_WINDOW (window));
}

/* ---- the compare window follows the textures -------------------------- */

/* A 32x16 texture @name, @left in x < 8 and @right from x = 8 (8888). */
static void
import_two_colours (MatTextureLibrary *textures,
                    const char        *name,
                    const guint8       left[4],
                    const guint8       right[4])
{
  g_autofree guint8 *rgba = g_malloc (32 * 16 * 4);
  g_autoptr(GError) error = NULL;
  TexmEncodeOptions options;

  for (guint y = 0; y < 16; y++)
    for (guint x = 0; x < 32; x++)
      memcpy (rgba + (y * 32 + x) * 4, x < 8 ? left : right, 4);
  texm_encode_options_init (&options, 8888);
  g_assert_nonnull (mat_texture_library_import (textures, name, rgba, 32, 16, 32 * 4, &options, NULL, &error));
  g_assert_no_error (error);
}

static void
assert_centre (MatPreview   *preview,
               const guint8  expected[4])
{
  GtkWidget *area = mat_preview_get_test_widget (preview, "gl_area");
  guint8 pixel[4];

  ui_spin_ms (100);
  g_assert_true (mat_preview_read_pixel_for_test (preview, gtk_widget_get_width (area) / 2,
                                                  gtk_widget_get_height (area) / 2, pixel));
  g_test_message ("compare preview pixel %u %u %u, expected %u %u %u", pixel[0], pixel[1], pixel[2],
                  expected[0], expected[1], expected[2]);
  for (guint c = 0; c < 3; c++)
    g_assert_cmpint (ABS ((int) pixel[c] - (int) expected[c]), <=, 1);
}

/* The number of @library's handlers that call back into @instance. */
static guint
handlers_for (gpointer library,
              gpointer instance)
{
  guint n = g_signal_handlers_block_matched (library, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, instance);

  g_signal_handlers_unblock_matched (library, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, instance);
  return n;
}

static void
test_compare_follows (void)
{
  static const guint8 red[4] = { 0xE0, 0x20, 0x10, 0xFF };
  static const guint8 blue[4] = { 0x10, 0x30, 0xD0, 0xFF };
  static const guint8 green[4] = { 0x10, 0xE0, 0x30, 0xFF };
  static const TexmRect left_cell = { 0, 8, 0, 16 };
  g_autoptr(GFile) lib = make_library_folder ("compare", TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(MatTextureLibrary) other = NULL;
  MatTextureLibrary *textures;
  MatCompareWindow *compare;
  MatCompareView *view;
  MatPhaseTable *table;
  MatMaterial *material;
  MatWindow *window;
  MatPreview *preview;
  MatHistory *history;

  window = open_window (lib);
  table = window_child (window, MAT_TYPE_WINDOW, "phase_table");
  g_assert_true (ui_wait_for (table_has_textures, table, WAIT_SECONDS));
  textures = mat_phase_table_get_textures (table);
  history = mat_texture_library_get_history (textures);

  /* phase 0 names TWO.0, cell 0 */
  import_two_colours (textures, "TWO.0", red, blue);
  material = mat_window_get_selected_material (window);
  g_assert_nonnull (material);
  g_assert_true (mat_phase_set_texture (ui_phase_at (material, 0), "TWO.0", &error));
  g_assert_no_error (error);
  g_assert_true (mat_phase_set_param (ui_phase_at (material, 0), MAT0_CELL_BYTE, 0, &error));
  g_assert_no_error (error);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.compare", NULL));
  compare = ui_find_toplevel (MAT_TYPE_COMPARE_WINDOW);
  g_assert_nonnull (compare);
  gtk_window_set_default_size (GTK_WINDOW (compare), 1100, 720);
  view = mat_compare_window_get_view (compare);
  g_assert_true (mat_compare_view_get_textures (view) == textures);
  preview = mat_compare_view_get_preview (view, MAT_COMPARE_SLOT_A);
  g_assert_true (mat_compare_view_get_slot_material (view, MAT_COMPARE_SLOT_A) == material);
  mat_preview_set_shape (preview, MAT_PREVIEW_SHAPE_PLANE);
  mat_preview_set_unlit (preview, TRUE);
  g_assert_true (ui_wait_for (ui_widget_is_shown, mat_preview_get_test_widget (preview, "gl_area"),
                              WAIT_SECONDS));

  /* no Page table: cell 0 is the whole texture, blue in its middle */
  assert_centre (preview, blue);
  /* given a cell, the left stripe: red */
  g_assert_true (mat_texture_library_set_page_rects (textures, mat_texture_library_lookup (textures, "TWO.0"),
                                                     &left_cell, 1, &error));
  g_assert_no_error (error);
  assert_centre (preview, red);
  /* replaced by a green picture (without a Page table: the whole
   * texture again) */
  import_two_colours (textures, "TWO.0", green, green);
  assert_centre (preview, green);
  /* undone, step by step */
  g_assert_true (mat_history_undo (history));
  assert_centre (preview, red);
  g_assert_true (mat_history_undo (history));
  assert_centre (preview, blue);
  g_assert_true (mat_history_redo (history));
  assert_centre (preview, red);

  /* the window's textures change (another Textures.lib chosen): the
   * compare view follows, and lets go of the old one */
  g_assert_cmpuint (handlers_for (textures, preview), >, 0);
  other = mat_texture_library_new_empty ();
  import_two_colours (other, "TWO.0", blue, green);
  mat_phase_table_set_textures (table, other);
  g_assert_true (mat_compare_view_get_textures (view) == other);
  g_assert_cmpuint (handlers_for (textures, preview), ==, 0);
  /* no Page table in this one: the whole texture, green in its middle */
  assert_centre (preview, green);
  g_assert_true (mat_texture_library_set_page_rects (other, mat_texture_library_lookup (other, "TWO.0"),
                                                     &left_cell, 1, &error));
  assert_centre (preview, blue);

  /* disposed with its window while something still holds it: the
   * preview lets go of the library, and an edit reaches nothing of it */
  g_object_ref (preview);
  destroy_and_wait (GTK_WINDOW (compare));
  g_object_run_dispose (G_OBJECT (preview));
  g_assert_null (mat_preview_get_textures (preview));
  g_assert_cmpuint (handlers_for (other, preview), ==, 0);
  g_assert_true (mat_history_undo (mat_texture_library_get_history (other)));
  g_object_unref (preview);
  /* the material's edits are not to be saved */
  while (mat_history_undo (mat_library_get_history (mat_window_get_library (window))))
    ;
  mat_phase_table_set_textures (table, textures);
  while (mat_history_undo (history))
    ;
  destroy_and_wait (GTK_WINDOW (window));
}

/* ---- unsaved edits ---------------------------------------------------- */

static void
unsaved_respond (const char *response)
{
  GtkWindow *dialog = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < 50 && dialog == NULL; i++)
    {
      for (guint k = 0; k < g_list_model_get_n_items (toplevels) && dialog == NULL; k++)
        {
          g_autoptr(GObject) window = g_list_model_get_item (toplevels, k);

          if (g_strcmp0 (G_OBJECT_TYPE_NAME (window), "MatUnsavedDialog") == 0)
            dialog = GTK_WINDOW (window);
        }
      if (dialog == NULL)
        ui_spin_ms (50);
    }
  g_assert_nonnull (dialog);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "dialog.response", "s", response));
  ui_pump ();
}

static void
test_unsaved_close (void)
{
  Cells f = { 0 };
  const TexmRect cell = { 0, 8, 0, 8 };
  gpointer weak;

  cells_open (&f, "ROCK.0");
  g_assert_true (mat_texture_library_set_page_rects (f.textures, f.texture, &cell, 1, NULL));
  g_assert_true (mat_texture_library_get_dirty (f.textures));

  /* closing asks; Cancel keeps the window and the edit */
  gtk_window_close (GTK_WINDOW (f.window));
  unsaved_respond ("cancel");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f.window)));
  g_assert_true (mat_texture_library_get_dirty (f.textures));

  /* Discard undoes it: the library is the file again, the window goes */
  g_object_ref (f.textures);
  weak = f.window;
  g_object_add_weak_pointer (G_OBJECT (f.window), &weak);
  gtk_window_close (GTK_WINDOW (f.window));
  unsaved_respond ("discard");
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));
  g_assert_false (mat_texture_library_get_dirty (f.textures));
  {
    g_autoptr(GBytes) now = mat_texture_library_save_to_bytes (f.textures, NULL);

    assert_bytes_equal (now, f.original);
  }
  g_object_unref (f.textures);
  g_clear_pointer (&f.original, g_bytes_unref);
}

/* The main window closing takes the texture window along: its unsaved
 * edits are asked about first, and the main window closes after. */
static void
test_parent_close_asks (void)
{
  g_autoptr(GFile) lib = make_library_folder ("parent", TRUE);
  const TexmRect cell = { 0, 16, 0, 16 };
  MatTextureWindow *textures_window;
  MatTextureLibrary *textures;
  MatWindow *window;
  gpointer weak_main, weak_textures;

  window = open_window (lib);
  g_assert_true (ui_wait_for (table_has_textures, window_child (window, MAT_TYPE_WINDOW, "phase_table"),
                              WAIT_SECONDS));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.textures", NULL));
  textures_window = find_texture_window ();
  textures = g_object_ref (mat_texture_window_get_textures (textures_window));
  g_assert_true (mat_texture_library_set_page_rects (textures, mat_texture_library_lookup (textures, "GRASS.0"),
                                                     &cell, 1, NULL));
  weak_main = window;
  weak_textures = textures_window;
  g_object_add_weak_pointer (G_OBJECT (window), &weak_main);
  g_object_add_weak_pointer (G_OBJECT (textures_window), &weak_textures);

  /* Cancel: both stay, the edit too */
  gtk_window_close (GTK_WINDOW (window));
  unsaved_respond ("cancel");
  ui_spin_ms (100);
  g_assert_nonnull (weak_main);
  g_assert_nonnull (weak_textures);
  g_assert_true (mat_texture_library_get_dirty (textures));

  /* Discard: the edit is undone, then both windows close */
  gtk_window_close (GTK_WINDOW (window));
  unsaved_respond ("discard");
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak_textures, WAIT_SECONDS));
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak_main, WAIT_SECONDS));
  g_assert_false (mat_texture_library_get_dirty (textures));
  g_assert_cmpuint (mat_texture_get_page_rects (mat_texture_library_lookup (textures, "GRASS.0")), ==, 0);
  g_object_unref (textures);
}

/* ---- reloading the library -------------------------------------------- */

static gboolean
banner_shown (gpointer data)
{
  return gtk_revealer_get_reveal_child (window_child (data, MAT_TYPE_WINDOW, "changed_revealer"));
}

typedef struct {
  MatPhaseTable     *table;
  MatTextureLibrary *old;
} NewTextures;

/* The table shows textures read again: another library than @old. */
static gboolean
table_has_new_textures (gpointer data)
{
  NewTextures *wait = data;
  MatTextureLibrary *now = mat_phase_table_get_textures (wait->table);

  return now != NULL && now != wait->old;
}

static guint
grass_cells (MatTextureLibrary *textures)
{
  MatTexture *grass = mat_texture_library_lookup (textures, "GRASS.0");

  g_assert_nonnull (grass);
  return mat_texture_get_page_rects (grass);
}

/* Reloading the material library reads Textures.lib again: unsaved
 * texture edits are asked about first. Cancel keeps everything, Discard
 * reloads without them, Save writes them and reloads. */
static void
test_reload_asks (void)
{
  g_autoptr(GFile) lib = make_library_folder ("reload", TRUE);
  g_autoptr(GFile) folder = g_file_get_parent (lib);
  g_autofree char *tex_path = g_build_filename (g_file_peek_path (folder), "Textures.lib", NULL);
  g_autoptr(GBytes) original = read_bytes (tex_path);
  g_autoptr(MatTextureLibrary) textures = NULL;
  g_autoptr(MatLibrary) library = NULL;
  const TexmRect cell = { 0, 16, 0, 16 };
  MatTextureWindow *textures_window;
  MatTextureLibrary *reread;
  MatPhaseTable *table;
  MatWindow *window;
  NewTextures wait;

  window = open_window (lib);
  table = window_child (window, MAT_TYPE_WINDOW, "phase_table");
  g_assert_true (ui_wait_for (table_has_textures, table, WAIT_SECONDS));
  textures = g_object_ref (mat_phase_table_get_textures (table));
  library = g_object_ref (mat_window_get_library (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.textures", NULL));
  textures_window = find_texture_window ();
  g_assert_true (mat_texture_library_set_page_rects (textures, mat_texture_library_lookup (textures, "GRASS.0"),
                                                     &cell, 1, NULL));
  g_assert_true (mat_texture_library_get_dirty (textures));

  /* another program writes Material.lib (p0 of the phase): the banner
   * offers to reload */
  {
    g_autoptr(GBytes) bytes = material_library ();
    g_autofree char *path = g_file_get_path (lib);
    GByteArray *array = g_byte_array_new ();
    g_autoptr(GBytes) changed = NULL;

    g_byte_array_append (array, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    g_assert_cmpuint (array->data[30], ==, 0);
    array->data[30] = 10;
    changed = g_byte_array_free_to_bytes (array);
    ui_spin_ms (50);
    write_bytes (path, changed);
  }
  g_assert_true (ui_wait_for (banner_shown, window, WAIT_SECONDS));

  /* Cancel: nothing is read again, the edit stays */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL));
  unsaved_respond ("cancel");
  ui_spin_ms (200);
  g_assert_true (mat_window_get_library (window) == library);
  g_assert_true (mat_phase_table_get_textures (table) == textures);
  g_assert_true (mat_texture_window_get_textures (textures_window) == textures);
  g_assert_true (mat_texture_library_get_dirty (textures));
  g_assert_cmpuint (grass_cells (textures), ==, 1);
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (ui_find_material (library, "TEST"), 0), 0), ==, 0);

  /* Save, refused (another program wrote Textures.lib meanwhile): the
   * failure is shown, and nothing is read again */
  {
    static const guint8 empty_lib[16] = { 'N', 'R', 'e', 's', 0, 1, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0 };
    g_autoptr(GBytes) other = g_bytes_new_static (empty_lib, sizeof empty_lib);
    const MatDialogRequest *request = NULL;

    ui_spin_ms (50);
    write_bytes (tex_path, other);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL));
    unsaved_respond ("save");
    for (guint i = 0; i < 100 && (request = _mat_dialogs_get_shown ()) == NULL; i++)
      ui_spin_ms (50);
    g_assert_nonnull (request);
    g_assert_cmpint (request->kind, ==, MAT_DIALOG_MESSAGE);
    g_assert_cmpstr (request->heading, ==, "Could Not Save “Textures.lib”");
    g_assert_true (request->parent == GTK_WINDOW (window));
    _mat_dialogs_answer (0);
    ui_spin_ms (200);
    g_assert_true (mat_window_get_library (window) == library);
    g_assert_true (mat_phase_table_get_textures (table) == textures);
    g_assert_true (mat_texture_library_get_dirty (textures));
    {
      g_autoptr(GBytes) on_disk = read_bytes (tex_path);

      assert_bytes_equal (on_disk, other);
    }
    write_bytes (tex_path, original);
  }

  /* Discard: both files are read again; the edit is gone, the file kept */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL));
  unsaved_respond ("discard");
  wait.table = table;
  wait.old = textures;
  g_assert_true (ui_wait_for (window_not_busy, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (table_has_new_textures, &wait, WAIT_SECONDS));
  g_assert_true (mat_window_get_library (window) != library);
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (ui_find_material (mat_window_get_library (window), "TEST"),
                                                      0), 0), ==, 10);
  reread = mat_phase_table_get_textures (table);
  g_assert_true (mat_texture_window_get_textures (textures_window) == reread);
  g_assert_false (mat_texture_library_get_dirty (reread));
  g_assert_cmpuint (grass_cells (reread), ==, 0);
  {
    g_autoptr(GBytes) on_disk = read_bytes (tex_path);

    assert_bytes_equal (on_disk, original);
  }

  /* Save: written first, then read again with the edit */
  g_assert_true (mat_texture_library_set_page_rects (reread, mat_texture_library_lookup (reread, "GRASS.0"),
                                                     &cell, 1, NULL));
  g_set_object (&textures, reread);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL));
  unsaved_respond ("save");
  wait.old = textures;
  g_assert_true (ui_wait_for (table_has_new_textures, &wait, WAIT_SECONDS));
  g_assert_true (ui_wait_for (window_not_busy, window, WAIT_SECONDS));
  g_assert_false (mat_texture_library_get_dirty (textures));
  reread = mat_phase_table_get_textures (table);
  g_assert_false (mat_texture_library_get_dirty (reread));
  g_assert_cmpuint (grass_cells (reread), ==, 1);
  {
    g_autoptr(GBytes) on_disk = read_bytes (tex_path);
    g_autoptr(GBytes) saved = mat_texture_library_save_to_bytes (textures, NULL);

    assert_bytes_equal (on_disk, saved);
  }

  /* nothing unsaved: a reload asks nothing */
  wait.old = reread;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL));
  g_assert_null (ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG));
  g_assert_true (ui_wait_for (window_not_busy, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (table_has_new_textures, &wait, WAIT_SECONDS));
  g_assert_null (ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG));

  /* the window going while it asks takes the question along */
  reread = mat_phase_table_get_textures (table);
  g_assert_true (mat_texture_library_set_page_rects (reread, mat_texture_library_lookup (reread, "GRASS.0"),
                                                     NULL, 0, NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL));
  g_assert_true (ui_wait_for (ui_widget_is_shown, ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG), WAIT_SECONDS));
  destroy_and_wait (GTK_WINDOW (window));
  ui_spin_ms (100);
  g_assert_null (ui_find_toplevel (MAT_TYPE_UNSAVED_DIALOG));
  g_assert_null (ui_find_toplevel (MAT_TYPE_TEXTURE_WINDOW));
}

/* The demo's window is replaced by the next file opened, unless that
 * would drop edits: the textures' count too. */
static void
test_demo_textures_kept (void)
{
  g_autoptr(GFile) demo = g_file_new_for_path (ui_need_env ("DEMO_LIB"));
  const TexmRect cell = { 0, 16, 0, 16 };
  MatTextureLibrary *textures;
  MatPhaseTable *table;
  MatWindow *window;

  window = mat_window_new (app);
  mat_window_open (window, demo, TRUE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (window_not_busy, window, WAIT_SECONDS));
  table = window_child (window, MAT_TYPE_WINDOW, "phase_table");
  g_assert_true (ui_wait_for (table_has_textures, table, WAIT_SECONDS));
  textures = mat_phase_table_get_textures (table);
  g_assert_true (mat_window_get_replaceable (window));

  g_assert_true (mat_texture_library_set_page_rects (textures, mat_texture_library_lookup (textures, "GRASS.0"),
                                                     &cell, 1, NULL));
  g_assert_false (mat_window_get_replaceable (window));
  g_assert_true (mat_history_undo (mat_texture_library_get_history (textures)));
  g_assert_true (mat_window_get_replaceable (window));
  destroy_and_wait (GTK_WINDOW (window));
}

/* ---- screenshots ------------------------------------------------------ */

/* ---- the import dialog: sizes, and before a picture ------------------- */

/* A 24×10 picture with a gradient and graded alpha, saved as PNG @name;
 * @pixels receives its RGBA rows (24 * 4 bytes each). */
static GFile *
gradient_png (const char  *name,
              guint8     **pixels)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, TRUE, 8, 24, 10);
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  guint8 *rows = g_malloc (24 * 10 * 4);

  for (guint y = 0; y < 10; y++)
    for (guint x = 0; x < 24; x++)
      {
        guint8 *p = rows + (y * 24 + x) * 4;

        p[0] = (guint8) (x * 10);
        p[1] = (guint8) (y * 25);
        p[2] = (guint8) ((x * y) % 256);
        p[3] = (guint8) (255 - x * 5 - y);
        memcpy (gdk_pixbuf_get_pixels (pixbuf) + y * gdk_pixbuf_get_rowstride (pixbuf) + x * 4, p, 4);
      }
  gdk_pixbuf_save (pixbuf, path, "png", &error, NULL);
  g_assert_no_error (error);
  *pixels = rows;
  return g_file_new_for_path (path);
}

/* Imports the picture of @dialog as it stands; returns the texture. */
static MatTexture *
dialog_import (MatTextureImportDialog *dialog)
{
  MatTexture *imported = NULL;
  gpointer weak = dialog;

  g_signal_connect (dialog, "imported", G_CALLBACK (imported_cb), &imported);
  g_object_add_weak_pointer (G_OBJECT (dialog), &weak);
  g_assert_true (import_enabled (dialog));
  gtk_widget_activate (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "import_button"));
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, WAIT_SECONDS));
  g_assert_nonnull (imported);
  return imported;
}

/* A 24×10 picture: the dialog offers it scaled (bilinear, first) or
 * padded to 32×16, and the texture imported (8888, exact) holds level 0
 * exactly as texm_fit_power_of_two makes it, for either choice; each
 * import one undo step back to the loaded bytes. */
static void
test_import_resize (void)
{
  g_autofree char *folder = make_folder ("resize");
  g_autofree char *path = g_build_filename (folder, "Textures.lib", NULL);
  g_autoptr(GBytes) original = read_bytes (ui_need_env ("DEMO_TEXTURES"));
  g_autofree guint8 *pixels = NULL;
  g_autoptr(GFile) png = gradient_png ("gradient.png", &pixels);
  MatTextureWindow *window;
  MatTextureLibrary *textures;

  write_bytes (path, original);
  window = texture_window_for (path, 1100, 720);
  textures = mat_texture_window_get_textures (window);

  for (guint pass = 0; pass < 2; pass++)
    {
      TexmResize how = pass == 0 ? TEXM_RESIZE_SCALE : TEXM_RESIZE_PAD;
      MatTextureImportDialog *dialog;
      GtkDropDown *resize;
      MatTexture *texture;
      g_autofree guint8 *expected = NULL;
      g_autoptr(GBytes) level0 = NULL;
      g_autoptr(GBytes) undone = NULL;
      guint w = 0, h = 0;

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "textures.import", NULL));
      dialog = find_import_dialog ();
      dialog_load (dialog, png);
      resize = window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "resize_dropdown");
      g_assert_true (gtk_widget_get_visible (window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "size_box")));
      g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (resize)), ==, 2);
      g_assert_cmpstr (gtk_string_object_get_string (g_list_model_get_item (gtk_drop_down_get_model (resize), 0)),
                       ==, russian ? "Растянуть до 32×16 (билинейно)" : "Scale to 32×16 (bilinear)");
      g_assert_cmpuint (gtk_drop_down_get_selected (resize), ==, 0);
      gtk_drop_down_set_selected (resize, pass);
      mat_texture_import_dialog_set_format (dialog, 8888);
      g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
      g_assert_cmpstr (shown_result_page (dialog), ==, "result");
      g_assert_nonnull (strstr (dialog_label (dialog, "result_info"), "32×16"));
      dialog_set_name (dialog, "GRADIENT.0");
      texture = dialog_import (dialog);

      g_assert_cmpuint (mat_texture_get_width (texture), ==, 32);
      g_assert_cmpuint (mat_texture_get_height (texture), ==, 16);
      expected = texm_fit_power_of_two (pixels, 24, 10, 0, how, &w, &h, NULL);
      g_assert_nonnull (expected);
      level0 = mat_texture_dup_rgba (texture, 0, &w, &h);
      g_assert_cmpmem (g_bytes_get_data (level0, NULL), g_bytes_get_size (level0), expected, 32 * 16 * 4);
      if (how == TEXM_RESIZE_PAD)
        /* the last column repeated: x 31 is x 23 of the picture */
        g_assert_cmpmem (expected + (9 * 32 + 31) * 4, 4, pixels + (9 * 24 + 23) * 4, 4);

      g_assert_true (mat_history_undo (mat_texture_library_get_history (textures)));
      undone = mat_texture_library_save_to_bytes (textures, NULL);
      assert_bytes_equal (undone, original);
    }
  destroy_and_wait (GTK_WINDOW (window));
}

/* Before a picture is chosen the result side is a neutral placeholder:
 * no error icon, no error text, the Import button off. */
static void
test_import_empty_state (void)
{
  g_autofree char *folder = make_folder ("empty-state");
  g_autofree char *path = g_build_filename (folder, "Textures.lib", NULL);
  g_autoptr(GBytes) original = read_bytes (ui_need_env ("DEMO_TEXTURES"));
  g_autoptr(GPtrArray) errors = g_ptr_array_new ();
  MatTextureImportDialog *dialog;
  MatTextureWindow *window;
  GtkStack *stack;
  GtkWidget *page;

  write_bytes (path, original);
  window = texture_window_for (path, 1100, 720);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "textures.import", NULL));
  dialog = find_import_dialog ();
  stack = window_child (dialog, MAT_TYPE_TEXTURE_IMPORT_DIALOG, "result_stack");
  g_assert_cmpstr (shown_result_page (dialog), ==, "empty");
  page = gtk_stack_get_visible_child (stack);
  g_assert_true (gtk_widget_get_mapped (page));
  ui_collect_by_css_class (page, "error", errors);
  g_assert_cmpuint (errors->len, ==, 0);
  ui_collect_by_css_class (page, "mat-error-text", errors);
  g_assert_cmpuint (errors->len, ==, 0);
  {
    GtkWidget *image = ui_find_by_type (page, GTK_TYPE_IMAGE);
    GtkWidget *label = ui_find_by_type (page, GTK_TYPE_LABEL);

    g_assert_nonnull (image);
    g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (image)), !=, "dialog-error-symbolic");
    g_assert_true (gtk_widget_has_css_class (image, "dim-label"));
    g_assert_true (gtk_widget_has_css_class (label, "dim-label"));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==,
                     russian ? "Выберите картинку, чтобы увидеть её так, как покажет игра."
                             : "Choose a picture to see it as the game will.");
  }
  g_assert_false (import_enabled (dialog));
  destroy_and_wait (GTK_WINDOW (dialog));
  destroy_and_wait (GTK_WINDOW (window));
}

static char *
shot_name (const char *what,
           int         width,
           int         height)
{
  return g_strdup_printf ("%s-%s-%dx%d.png", what, russian ? "ru" : "en", width, height);
}

static void
test_screenshots (void)
{
  static const int sizes[][2] = { { 1100, 720 }, { 1280, 800 } };
  static const guint8 colour[4] = { 200, 120, 40, 255 };
  g_autoptr(GFile) picture = NULL;
  g_autoptr(GFile) odd = NULL;
  g_autofree char *folder = make_folder ("shots");
  g_autofree char *path = g_build_filename (folder, "Textures.lib", NULL);
  g_autoptr(GBytes) bytes = read_bytes (ui_need_env ("DEMO_TEXTURES"));

  write_bytes (path, bytes);
  {
    /* a picture with a gradient and alpha, so both sides show something:
     * the size of ATLAS.0, whose cells it keeps */
    g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, TRUE, 8, 128, 128);
    g_autofree char *png = g_build_filename (tmp_dir, "shot.png", NULL);
    g_autoptr(GError) error = NULL;
    guint8 *pixels = gdk_pixbuf_get_pixels (pixbuf);

    for (int y = 0; y < 128; y++)
      for (int x = 0; x < 128; x++)
        {
          guint8 *p = pixels + y * gdk_pixbuf_get_rowstride (pixbuf) + x * 4;

          p[0] = (guint8) (colour[0] * x / 127);
          p[1] = (guint8) (colour[1] + y / 2);
          p[2] = (guint8) (x * 2);
          p[3] = (guint8) (255 - y);
        }
    gdk_pixbuf_save (pixbuf, png, "png", &error, NULL);
    g_assert_no_error (error);
    picture = g_file_new_for_path (png);
  }
  /* 128×128 once scaled: the cells of ATLAS.0, which it replaces, fit */
  odd = flat_png ("shot-odd.png", 120, 100, colour);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      int width = sizes[s][0], height = sizes[s][1];
      MatTextureWindow *window = texture_window_for (path, width, height);
      MatTextureLibrary *textures = mat_texture_window_get_textures (window);
      MatCellEditor *editor = window_child (window, MAT_TYPE_TEXTURE_WINDOW, "cell_editor");
      MatTextureImportDialog *dialog;
      g_autofree char *name = NULL;

      g_assert_true (mat_texture_window_select (window, mat_texture_library_lookup (textures, "ATLAS.0")));
      gtk_drop_down_set_selected (window_child (window, MAT_TYPE_TEXTURE_WINDOW, "grid_dropdown"), 3);
      mat_cell_editor_set_selected (editor, 1);
      ui_spin_ms (200);
      {
        int w = 0, h = 0;

        gtk_window_get_default_size (GTK_WINDOW (window), &w, &h);
        g_assert_cmpint (w, ==, width);
        g_assert_cmpint (h, ==, height);
      }
      name = shot_name ("texture-window", width, height);
      ui_screenshot (GTK_WIDGET (window), name);
      g_free (name);
      name = shot_name ("cell-editor", width, height);
      ui_screenshot (GTK_WIDGET (editor), name);

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "textures.replace", NULL));
      dialog = find_import_dialog ();
      /* nothing chosen yet: the placeholder */
      g_assert_cmpstr (shown_result_page (dialog), ==, "empty");
      g_free (name);
      name = shot_name ("import-dialog-empty", width, height);
      ui_screenshot (GTK_WIDGET (dialog), name);
      dialog_load (dialog, picture);
      g_assert_cmpstr (shown_result_page (dialog), ==, "result");
      g_free (name);
      name = shot_name ("import-dialog", width, height);
      ui_screenshot (GTK_WIDGET (dialog), name);
      /* what is refused is said in place of the result: alpha 565 cannot
       * hold */
      mat_texture_import_dialog_set_format (dialog, 565);
      g_assert_true (ui_wait_for (dialog_idle, dialog, WAIT_SECONDS));
      g_assert_cmpstr (shown_result_page (dialog), ==, "refused");
      g_free (name);
      name = shot_name ("import-dialog-refused", width, height);
      ui_screenshot (GTK_WIDGET (dialog), name);
      /* a size no power of two: the offer to scale or pad it */
      dialog_load (dialog, odd);
      g_assert_cmpstr (shown_result_page (dialog), ==, "result");
      g_free (name);
      name = shot_name ("import-dialog-resize", width, height);
      ui_screenshot (GTK_WIDGET (dialog), name);
      destroy_and_wait (GTK_WINDOW (dialog));

      /* the page without a Textures.lib */
      if (s == 0)
        {
          g_autoptr(GFile) lib = g_file_new_for_path ("/nowhere/Material.lib");

          mat_texture_window_set_textures (window, NULL);
          mat_texture_window_set_library_file (window, lib);
          g_free (name);
          name = shot_name ("texture-window-none", width, height);
          ui_screenshot (GTK_WIDGET (window), name);
        }
      destroy_and_wait (GTK_WINDOW (window));
    }
}

/* The dialog reads pictures through the model's reader: a hostile one
 * is refused in place of the result, with its reason, and the import
 * is off; the refusal of each is seen (screenshots). */
static void
test_import_refuses_hostile (void)
{
  static const guint8 colour[4] = { 165, 162, 82, 255 };
  static const struct {
    const char *name;
    const char *message;
  } cases[] = {
    { "claims.png", "expected a picture of at most 1024×1024 pixels, found 65535×65535" },
    { "drawing.png", "expected a PNG, JPEG, BMP or TGA picture, found an SVG drawing" },
    { "cut.png", "expected a complete PNG picture up to its end marker" },
  };
  g_autoptr(GBytes) whole = test_png_new (64, 64, 8, 6, TRUE);
  GBytes *files[] = {
    test_png_new (65535, 65535, 8, 6, FALSE),
    test_svg_new (30000, 30000),
    test_bytes_cut (whole, g_bytes_get_size (whole) / 2),
  };
  g_autofree char *folder = make_folder ("hostile");
  g_autofree char *path = g_build_filename (folder, "Textures.lib", NULL);
  g_autoptr(GBytes) bytes = read_bytes (ui_need_env ("DEMO_TEXTURES"));
  g_autoptr(GFile) good = flat_png ("good.png", 32, 16, colour);
  MatTextureWindow *window;
  MatTextureImportDialog *dialog;

  G_STATIC_ASSERT (G_N_ELEMENTS (files) == G_N_ELEMENTS (cases));
  write_bytes (path, bytes);
  window = texture_window_for (path, 1100, 720);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "textures.import", NULL));
  dialog = find_import_dialog ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *file_path = g_build_filename (folder, cases[i].name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (file_path);
      g_autofree char *shot = g_strdup_printf ("import-dialog-hostile-%u-%s.png", i,
                                               g_strcmp0 (g_getenv ("LANGUAGE"), "ru") == 0 ? "ru" : "en");

      write_bytes (file_path, files[i]);
      g_bytes_unref (files[i]);
      dialog_load (dialog, good);
      g_assert_cmpstr (shown_result_page (dialog), ==, "result");
      g_assert_true (import_enabled (dialog));

      dialog_load (dialog, file);
      g_test_message ("%s: %s", cases[i].name, dialog_label (dialog, "refusal_label"));
      g_assert_cmpstr (shown_result_page (dialog), ==, "refused");
      g_assert_nonnull (strstr (dialog_label (dialog, "refusal_label"), cases[i].name));
      if (g_strcmp0 (g_getenv ("LANGUAGE"), "ru") != 0)
        g_assert_nonnull (strstr (dialog_label (dialog, "refusal_label"), cases[i].message));
      g_assert_false (import_enabled (dialog));
      ui_screenshot (GTK_WIDGET (dialog), shot);
    }
  destroy_and_wait (GTK_WINDOW (dialog));
  destroy_and_wait (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  /* the "-ru" run: the editor as a Russian user sees it */
  russian = g_strcmp0 (g_getenv ("LANGUAGE"), "ru") == 0;
  if (russian)
    {
      g_setenv ("LC_ALL", "C.UTF-8", TRUE);
      setlocale (LC_ALL, "");
      mat_application_bind_text_domain ();
      textdomain (GETTEXT_PACKAGE);
    }

  tmp_dir = g_dir_make_tmp ("test-texture-editor-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", tmp_dir, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);

  app = mat_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/texture-editor/import-to-preview", test_import_to_preview);
  g_test_add_func ("/ui/texture-editor/alpha-notes", test_alpha_notes);
  g_test_add_func ("/ui/texture-editor/cells-draw-move-resize", test_cells_draw_move_resize);
  g_test_add_func ("/ui/texture-editor/cells-snap-delete", test_cells_snap_and_delete);
  g_test_add_func ("/ui/texture-editor/cells-typed", test_cells_typed);
  g_test_add_func ("/ui/texture-editor/cells-draw-beside", test_cells_draw_beside);
  g_test_add_func ("/ui/texture-editor/export", test_export);
  g_test_add_func ("/ui/texture-editor/create", test_create);
  g_test_add_func ("/ui/texture-editor/compare-follows", test_compare_follows);
  g_test_add_func ("/ui/texture-editor/unsaved-close", test_unsaved_close);
  g_test_add_func ("/ui/texture-editor/parent-close-asks", test_parent_close_asks);
  g_test_add_func ("/ui/texture-editor/reload-asks", test_reload_asks);
  g_test_add_func ("/ui/texture-editor/demo-textures-kept", test_demo_textures_kept);
  g_test_add_func ("/ui/texture-editor/screenshots", test_screenshots);
  g_test_add_func ("/ui/texture-editor/import-refuses-hostile", test_import_refuses_hostile);
  g_test_add_func ("/ui/texture-editor/import-resize", test_import_resize);
  g_test_add_func ("/ui/texture-editor/import-empty-state", test_import_empty_state);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
