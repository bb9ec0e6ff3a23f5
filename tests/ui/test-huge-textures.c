/* test-huge-textures.c - textures no GdkTexture, cairo surface or OpenGL
 * texture can hold, shown in every view, under Xvfb
 *
 * A Textures.lib beside a copy of the demo Material.lib holds:
 *   ROCK.0   65536 x 1 with its 17 mip levels (shown from level 3),
 *   METAL.0  1 x 65536, one level (box-filtered to 1 x 8192),
 *   GRASS.0  1,048,576 x 1, one level (box-filtered to 8192 x 1),
 *   WATER.0  8192 x 8193, one level: more pixels than a view reads,
 *            refused with "Too large to show: 8192 × 8193",
 *   SMALL.0  64 x 64, shown as it is.
 * The window shows each material that wears them (the list's swatches,
 * the phase table's cell chooser, the GL preview), the texture picker and
 * the texture window list every texture and show each one; every
 * thumbnail must exist and be small, each note must be shown, and no
 * critical or warning may come from GDK, GSK or GTK (the test runs with
 * G_DEBUG=fatal-criticals, and counts warnings itself).
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "mat-application.h"
#include "mat-cell-editor.h"
#include "mat-phase-table-private.h"
#include "mat-preview-private.h"
#include "mat-texture-picker.h"
#include "mat-texture-window.h"
#include "mat-window.h"
#include "nres.h"
#include "test-support.h"
#include "ui-support.h"

#define WAIT_SECONDS 60

static MatApplication *app;
static char *tmp_dir;
static guint n_bad_logs;

/* ---- the log ---------------------------------------------------------- */

/* Counts every warning or critical of GDK, GSK and GTK (the drawing
 * failures of a texture too large are warnings of Gsk and Gdk), then
 * writes it as GLib would, which aborts on a critical with
 * G_DEBUG=fatal-criticals. */
static GLogWriterOutput
log_writer (GLogLevelFlags   level,
            const GLogField *fields,
            gsize            n_fields,
            gpointer         user_data)
{
  const char *domain = NULL;

  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].key, "GLIB_DOMAIN") == 0)
      domain = fields[i].value;
  if ((level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR)) != 0 &&
      domain != NULL &&
      (g_str_equal (domain, "Gdk") || g_str_equal (domain, "Gsk") || g_str_equal (domain, "Gtk")))
    {
      const char *message = NULL;

      for (gsize i = 0; i < n_fields; i++)
        if (g_strcmp0 (fields[i].key, "MESSAGE") == 0)
          message = fields[i].value;
      /* Xvfb's GLX and a test without a session bus say these, always */
      if (message == NULL ||
          (strstr (message, "fb setup not supported") == NULL &&
           strstr (message, "session bus") == NULL))
        n_bad_logs++;
    }
  return g_log_writer_default (level, fields, n_fields, user_data);
}

/* ---- the library ------------------------------------------------------ */

static guint32
ramp (guint64 i,
      guint   level)
{
  return 0xFF000000u | (guint32) (i % 251) << 16 | (guint32) ((i / 7) % 256) << 8 | level * 10;
}

/* A Texm payload; @rects (nullable) writes a Page chunk. */
static GBytes *
texm_payload (guint32         width,
              guint32         height,
              guint32         mips,
              guint32         format,
              const TexmRect *rects,
              guint           n_rects)
{
  guint bpp = format == 0 ? 1 : format == 8888 ? 4 : 2;
  GByteArray *a = g_byte_array_new ();
  guint32 head[8] = { 0x6D786554, width, height, mips, 0, 0, 0, format };

  for (guint i = 0; i < 8; i++)
    test_put_u32 (a, head[i]);
  if (format == 0)
    for (guint i = 0; i < 256; i++)
      test_put_u32 (a, 0xFF000000u | i * 0x010101u);
  for (guint l = 0; l < mips; l++)
    {
      guint64 n = (guint64) MAX (width >> l, 1u) * MAX (height >> l, 1u);
      guint start = a->len;

      g_byte_array_set_size (a, start + (guint) (n * bpp));
      if (format == 0)
        memset (a->data + start, 0x80, (gsize) n);
      else
        for (guint64 i = 0; i < n; i++)
          {
            guint32 v = ramp (i, l);

            for (guint b = 0; b < bpp; b++)
              a->data[start + i * bpp + b] = (guint8) (v >> (8 * b));
          }
    }
  if (rects != NULL)
    {
      test_put_u32 (a, 0x65676150);
      test_put_u32 (a, n_rects);
      for (guint r = 0; r < n_rects; r++)
        {
          test_put_u16 (a, (guint16) rects[r].x);
          test_put_u16 (a, (guint16) rects[r].w);
          test_put_u16 (a, (guint16) rects[r].y);
          test_put_u16 (a, (guint16) rects[r].h);
        }
    }
  return g_byte_array_free_to_bytes (a);
}

typedef struct {
  const char *name;
  guint32     width, height, mips, format;
  const char *material;   /* a demo material that wears it */
} Shape;

static const Shape shapes[] = {
  { "ROCK.0",  65536,   1,     17, 8888, "ROCK_WALL" },
  { "METAL.0", 1,       65536, 1,  565,  "METAL_PLATE" },
  { "GRASS.0", 1048576, 1,     1,  8888, "GRASS_FIELD" },
  { "WATER.0", 8192,    8193,  1,  0,    "WATER_SURFACE" },
  { "SMALL.0", 64,      64,    1,  8888, NULL },
};

/* The demo Material.lib with this Textures.lib beside it, in a folder
 * of its own. Returns: (transfer full): the library's file. */
static GFile *
make_library (void)
{
  static const TexmRect rock_cells[] = { { 0, 16384, 0, 1 }, { 20000, 8000, 0, 1 } };
  g_autofree char *folder = g_build_filename (tmp_dir, "huge", NULL);
  g_autofree char *lib_path = g_build_filename (folder, "Material.lib", NULL);
  g_autofree char *tex_path = g_build_filename (folder, "Textures.lib", NULL);
  g_autoptr(GBytes) demo = ui_demo_bytes ();
  g_autoptr(GPtrArray) payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  TestEntrySpec specs[G_N_ELEMENTS (shapes)];
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (folder, 0700);
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      const Shape *s = &shapes[i];
      GBytes *payload = texm_payload (s->width, s->height, s->mips, s->format,
                                      i == 0 ? rock_cells : NULL, i == 0 ? 2 : 0);

      g_ptr_array_add (payloads, payload);
      specs[i] = (TestEntrySpec) { NRES_TYPE_TEXM, 0, 0, 0, s->name, NULL, 0, 0 };
      specs[i].payload = g_bytes_get_data (payload, &specs[i].size);
    }
  archive = test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
  g_file_set_contents (tex_path, g_bytes_get_data (archive, NULL), (gssize) g_bytes_get_size (archive), &error);
  g_assert_no_error (error);
  g_file_set_contents (lib_path, g_bytes_get_data (demo, NULL), (gssize) g_bytes_get_size (demo), &error);
  g_assert_no_error (error);
  return g_file_new_for_path (lib_path);
}

/* ---- helpers ---------------------------------------------------------- */

/* "-ru" for screenshots taken in Russian */
static const char *
shot_suffix (void)
{
  const char *language = g_getenv ("LANGUAGE");

  return language != NULL && g_str_has_prefix (language, "ru") ? "-ru" : "";
}

static gboolean
window_ready (gpointer data)
{
  MatWindow *window = data;
  MatPhaseTable *table = MAT_PHASE_TABLE (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                         MAT_TYPE_WINDOW, "phase_table"));

  return !mat_window_get_busy (window) && gtk_widget_get_mapped (GTK_WIDGET (window)) &&
         mat_phase_table_get_textures (table) != NULL;
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

static const Shape *
shape_named (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    if (g_str_equal (shapes[i].name, name))
      return &shapes[i];
  g_assert_not_reached ();
}

/* What a view may show of @shape: its size, or what a picture holds. */
static gboolean
too_large (const Shape *shape)
{
  return (guint64) shape->width * shape->height > 8192u * 8192u;
}

static gboolean
preview_says (gpointer data)
{
  GtkLabel *label = data;

  return gtk_widget_get_visible (GTK_WIDGET (label)) && gtk_label_get_text (label)[0] != '\0';
}

/* ---- the main window -------------------------------------------------- */

/* Each material wearing a huge texture: its row's swatch, its cell
 * chooser's thumbnail, the preview drawing it (or saying why not). */
static void
test_window (void)
{
  g_autoptr(GFile) file = make_library ();
  MatWindow *window = mat_window_new (app);
  MatPhaseTable *table;
  MatPreview *preview;
  GtkLabel *texture_label;

  n_bad_logs = 0;
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (window_ready, window, WAIT_SECONDS));
  table = window_child (window, MAT_TYPE_WINDOW, "phase_table");
  preview = window_child (window, MAT_TYPE_WINDOW, "preview");
  texture_label = GTK_LABEL (mat_preview_get_test_widget (preview, "texture_label"));
  /* the list's rows and their swatches drawn, the GL view started */
  ui_spin_ms (1500);

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      const Shape *shape = &shapes[i];
      MatMaterial *material;
      GtkDropDown *chooser;
      GtkWidget *image;
      GdkPaintable *thumbnail;
      g_autofree char *expect = NULL;
      g_autoptr(GdkTexture) frame = NULL;

      if (shape->material == NULL)
        continue;
      material = mat_library_find (mat_window_get_library (window), shape->material);
      g_assert_nonnull (material);
      mat_window_select_material (window, material);
      ui_spin_ms (300);

      /* the preview: drawn (reduced) or refused, and saying which */
      frame = mat_preview_read_frame_for_test (preview);
      g_assert_nonnull (frame);
      if (shape->width <= 8192 && shape->height <= 8192 && !too_large (shape))
        g_assert_false (gtk_widget_get_visible (GTK_WIDGET (texture_label)));
      else
        {
          g_assert_true (ui_wait_for (preview_says, texture_label, WAIT_SECONDS));
          if (too_large (shape))
            expect = g_strdup_printf (_("Texture %s is too large to show (%u × %u): drawn untextured"),
                                      shape->name, shape->width, shape->height);
          else
            expect = g_strdup_printf (_("Texture %s is too large to draw as it is (%u × %u): drawn at %u × %u"),
                                      shape->name, shape->width, shape->height,
                                      MIN (shape->width, 8192), MIN (shape->height, 8192));
          g_assert_cmpstr (gtk_label_get_text (texture_label), ==, expect);
        }

      /* the cell chooser's thumbnail: small, or none when refused */
      chooser = mat_phase_table_get_cell_chooser_for_test (table, 0);
      g_assert_nonnull (chooser);
      g_test_message ("%s: %s", shape->name, gtk_label_get_text (texture_label));
      image = ui_find_by_css_class (GTK_WIDGET (chooser), "cell-thumbnail");
      g_assert_nonnull (image);
      thumbnail = gtk_image_get_paintable (GTK_IMAGE (image));
      if (too_large (shape))
        g_assert_null (thumbnail);
      else
        {
          g_assert_nonnull (thumbnail);
          g_assert_cmpint (gdk_paintable_get_intrinsic_width (thumbnail), >=, 1);
          g_assert_cmpint (gdk_paintable_get_intrinsic_width (thumbnail), <=, 8192);
          g_assert_cmpint (gdk_paintable_get_intrinsic_height (thumbnail), >=, 1);
          g_assert_cmpint (gdk_paintable_get_intrinsic_height (thumbnail), <=, 8192);
        }
      {
        g_autofree char *shot = g_strdup_printf ("huge-textures-%s%s.png", shape->material, shot_suffix ());

        ui_screenshot (GTK_WIDGET (window), shot);
      }
    }

  /* ROCK.0's second cell, texels 20000 to 28000 of 65536: 2500 to 3500
   * of level 3's 8192 */
  {
    MatMaterial *rock = mat_library_find (mat_window_get_library (window), "ROCK_WALL");
    g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (rock), 0);
    GtkDropDown *chooser;
    GtkWidget *image;
    GdkPaintable *thumbnail;

    mat_window_select_material (window, rock);
    g_assert_true (mat_phase_set_param (phase, 17, 1, NULL));
    ui_spin_ms (300);
    chooser = mat_phase_table_get_cell_chooser_for_test (table, 0);
    image = ui_find_by_css_class (GTK_WIDGET (chooser), "cell-thumbnail");
    thumbnail = gtk_image_get_paintable (GTK_IMAGE (image));
    g_assert_nonnull (thumbnail);
    g_assert_cmpint (gdk_paintable_get_intrinsic_width (thumbnail), ==, 1000);
    g_assert_cmpint (gdk_paintable_get_intrinsic_height (thumbnail), ==, 1);
  }

  g_assert_cmpuint (n_bad_logs, ==, 0);
  ui_close_window (GTK_WINDOW (window));
}

/* ---- the texture picker ----------------------------------------------- */

static GPtrArray *
shown_tiles (GtkWidget *picker)
{
  GPtrArray *tiles = g_ptr_array_new ();

  ui_collect_by_css_class (picker, "texture-tile", tiles);
  for (guint i = tiles->len; i-- > 0;)
    if (!gtk_widget_get_mapped (tiles->pdata[i]))
      g_ptr_array_remove_index (tiles, i);
  return tiles;
}

static gboolean
all_tiles_shown (gpointer data)
{
  g_autoptr(GPtrArray) tiles = shown_tiles (data);

  return tiles->len == G_N_ELEMENTS (shapes);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  MatTextureLibrary **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = mat_texture_library_load_finish (result, &error);
  g_assert_no_error (error);
}

static gboolean
pointer_set (gpointer data)
{
  return *(gpointer *) data != NULL;
}

static MatTextureLibrary *
load_textures (void)
{
  g_autoptr(GFile) lib = make_library ();
  g_autoptr(GFile) folder = g_file_get_parent (lib);
  g_autoptr(GFile) file = g_file_get_child (folder, "Textures.lib");
  MatTextureLibrary *textures = NULL;

  mat_texture_library_load_async (file, NULL, loaded_cb, &textures);
  g_assert_true (ui_wait_for (pointer_set, &textures, WAIT_SECONDS));
  return textures;
}

static void
test_picker (void)
{
  g_autoptr(MatTextureLibrary) textures = load_textures ();
  MatTexturePicker *picker = mat_texture_picker_new (NULL, textures, NULL);
  g_autoptr(GPtrArray) tiles = NULL;

  n_bad_logs = 0;
  gtk_window_set_default_size (GTK_WINDOW (picker), 900, 700);
  gtk_window_present (GTK_WINDOW (picker));
  g_assert_true (ui_wait_for (all_tiles_shown, picker, WAIT_SECONDS));
  ui_spin_ms (300);

  tiles = shown_tiles (GTK_WIDGET (picker));
  for (guint i = 0; i < tiles->len; i++)
    {
      GtkWidget *tile = tiles->pdata[i];
      GtkWidget *name = ui_find_by_css_class (tile, "texture-name");
      const Shape *shape = shape_named (gtk_label_get_text (GTK_LABEL (name)));
      GtkWidget *area = ui_find_by_type (tile, GTK_TYPE_DRAWING_AREA);
      GtkWidget *large = ui_find_by_css_class (tile, "texture-too-large");
      GdkTexture *thumbnail = g_object_get_data (G_OBJECT (area), "mat-thumbnail");

      g_assert_nonnull (large);
      if (too_large (shape))
        {
          g_autofree char *note = g_strdup_printf (_("Too large to show: %u × %u"), shape->width, shape->height);

          g_assert_null (thumbnail);
          g_assert_true (gtk_widget_get_visible (large));
          g_assert_cmpstr (gtk_widget_get_tooltip_text (large), ==, note);
          g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (tile), note));
          continue;
        }
      g_assert_false (gtk_widget_get_visible (large));
      g_assert_nonnull (thumbnail);
      g_assert_cmpint (gdk_texture_get_width (thumbnail), >=, 1);
      g_assert_cmpint (gdk_texture_get_width (thumbnail), <=, 256);
      g_assert_cmpint (gdk_texture_get_height (thumbnail), >=, 1);
      g_assert_cmpint (gdk_texture_get_height (thumbnail), <=, 256);
    }
  {
    g_autofree char *shot = g_strdup_printf ("huge-textures-picker%s.png", shot_suffix ());

    ui_screenshot (GTK_WIDGET (picker), shot);
  }
  g_assert_cmpuint (n_bad_logs, ==, 0);
  ui_close_window (GTK_WINDOW (picker));
}

/* ---- the texture window ----------------------------------------------- */

static void
test_texture_window (void)
{
  g_autoptr(MatTextureLibrary) textures = load_textures ();
  MatTextureWindow *window = mat_texture_window_present (NULL, NULL, NULL);
  GtkLabel *note_label = window_child (window, MAT_TYPE_TEXTURE_WINDOW, "size_note_label");
  MatCellEditor *editor = window_child (window, MAT_TYPE_TEXTURE_WINDOW, "cell_editor");
  GtkWidget *list = window_child (window, MAT_TYPE_TEXTURE_WINDOW, "list_view");
  g_autoptr(GPtrArray) areas = g_ptr_array_new ();

  n_bad_logs = 0;
  mat_texture_window_set_textures (window, textures);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  ui_spin_ms (300);

  /* the list's thumbnails: small ones, none for WATER.0 */
  ui_collect_by_type (list, GTK_TYPE_DRAWING_AREA, areas);
  g_assert_cmpuint (areas->len, ==, G_N_ELEMENTS (shapes));
  for (guint i = 0; i < areas->len; i++)
    {
      cairo_surface_t *surface = g_object_get_data (areas->pdata[i], "mat-surface");
      const char *tip = gtk_widget_get_tooltip_text (areas->pdata[i]);

      if (surface == NULL)
        {
          g_assert_nonnull (tip);
          g_autofree char *note = g_strdup_printf (_("Too large to show: %u × %u"), 8192, 8193);

          g_assert_cmpstr (tip, ==, note);
          continue;
        }
      g_assert_null (tip);
      g_assert_cmpint (cairo_image_surface_get_width (surface), <=, 256);
      g_assert_cmpint (cairo_image_surface_get_height (surface), <=, 256);
    }

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      const Shape *shape = &shapes[i];
      g_autofree char *expect = NULL;

      g_assert_true (mat_texture_window_select (window, mat_texture_library_lookup (textures, shape->name)));
      ui_spin_ms (200);
      g_assert_true (mat_cell_editor_get_texture (editor) ==
                     mat_texture_library_lookup (textures, shape->name));
      if (too_large (shape))
        expect = g_strdup_printf (_("Too large to show: %u × %u"), shape->width, shape->height);
      else if (shape->width > 8192 || shape->height > 8192)
        expect = g_strdup_printf (_("Too large to show as it is: %u × %u, shown at %u × %u"),
                                  shape->width, shape->height,
                                  MIN (shape->width, 8192), MIN (shape->height, 8192));
      if (expect == NULL)
        g_assert_false (gtk_widget_get_visible (GTK_WIDGET (note_label)));
      else
        {
          g_assert_true (gtk_widget_get_visible (GTK_WIDGET (note_label)));
          g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (note_label)));
          g_assert_cmpstr (gtk_label_get_text (note_label), ==, expect);
        }
      {
        g_autofree char *shot = g_strdup_printf ("huge-textures-%s%s.png", shape->name, shot_suffix ());

        ui_screenshot (GTK_WIDGET (window), shot);
      }
    }

  g_assert_cmpuint (n_bad_logs, ==, 0);
  ui_close_window (GTK_WINDOW (window));
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

  g_log_set_writer_func (log_writer, NULL, NULL);
  /* a critical ends the test, whatever G_DEBUG says */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

  tmp_dir = g_dir_make_tmp ("test-huge-textures-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", tmp_dir, TRUE);
  g_setenv ("XDG_DATA_HOME", tmp_dir, TRUE);
  g_setenv ("XDG_CONFIG_HOME", tmp_dir, TRUE);
  g_setenv ("XDG_CACHE_HOME", tmp_dir, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  /* LANGUAGE=ru (the test "huge-textures-ru"): the notes in Russian */
  setlocale (LC_ALL, "");
  mat_application_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);
  g_test_init (&argc, &argv, NULL);

  app = mat_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/huge-textures/window", test_window);
  g_test_add_func ("/ui/huge-textures/picker", test_picker);
  g_test_add_func ("/ui/huge-textures/texture-window", test_texture_window);

  status = g_test_run ();

  g_clear_object (&app);
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
