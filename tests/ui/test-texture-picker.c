/* test-texture-picker.c - MatTexturePicker and the phase table's texture
 * button, driven through their real widgets
 *
 * Runs under Xvfb with the demo Material.lib (DEMO_LIB) and Textures.lib
 * (DEMO_TEXTURES): the picker lists the demo textures with their
 * captions, filters as you type, and choosing a texture (or
 * "Untextured") from the phase table writes one texture field as one
 * undo step. Names not in the library show the missing icon; without a
 * library the button offers to open one. Renders texture-picker.png (to
 * SCREENSHOT_DIR, else the build dir).
 */
#include "config.h"

#include <string.h>
#include <gtk/gtk.h>

#include "mat-library.h"
#include "mat-phase-table-private.h"
#include "mat-texture-library.h"
#include "mat-texture-picker-private.h"
#include "mat0.h"
#include "nres.h"
#include "test-support.h"
#include "ui-support.h"

/* The textures of the demo Textures.lib (data/samples/make-textures.c) */
#define N_DEMO_TEXTURES 10

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

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

/* The demo Textures.lib, loaded as the window would (with its file). */
static MatTextureLibrary *
load_demo_textures (void)
{
  const char *path = g_getenv ("DEMO_TEXTURES");
  g_autoptr(GFile) file = NULL;
  MatTextureLibrary *textures = NULL;

  g_assert_nonnull (path);
  file = g_file_new_for_path (path);
  mat_texture_library_load_async (file, NULL, loaded_cb, &textures);
  g_assert_true (ui_wait_for (pointer_set, &textures, 5));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (textures)), ==, N_DEMO_TEXTURES);
  return textures;
}

/* The tiles on screen. Returns: (transfer container) */
static GPtrArray *
shown_tiles (MatTexturePicker *picker)
{
  GPtrArray *tiles = g_ptr_array_new ();

  ui_collect_by_css_class (GTK_WIDGET (picker), "texture-tile", tiles);
  /* only those on screen count */
  for (guint i = tiles->len; i-- > 0;)
    if (!gtk_widget_get_mapped (tiles->pdata[i]))
      g_ptr_array_remove_index (tiles, i);
  return tiles;
}

static const char *
tile_text (GtkWidget  *tile,
           const char *css_class)
{
  GtkWidget *label = ui_find_by_css_class (tile, css_class);

  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

/* Returns: (transfer none) (nullable) */
static GtkWidget *
tile_named (MatTexturePicker *picker,
            const char       *name)
{
  g_autoptr(GPtrArray) tiles = shown_tiles (picker);

  for (guint i = 0; i < tiles->len; i++)
    if (g_strcmp0 (tile_text (tiles->pdata[i], "texture-name"), name) == 0)
      return tiles->pdata[i];
  return NULL;
}

typedef struct {
  MatTexturePicker *picker;
  guint             n;
} TileCount;

static gboolean
tiles_shown (gpointer data)
{
  TileCount *count = data;
  g_autoptr(GPtrArray) tiles = shown_tiles (count->picker);
  GtkGridView *grid = GTK_GRID_VIEW (ui_find_by_type (GTK_WIDGET (count->picker), GTK_TYPE_GRID_VIEW));

  return tiles->len == count->n &&
         g_list_model_get_n_items (G_LIST_MODEL (gtk_grid_view_get_model (grid))) == count->n;
}

static void
wait_tiles (MatTexturePicker *picker,
            guint             n)
{
  TileCount count = { picker, n };

  g_assert_true (ui_wait_for (tiles_shown, &count, 5));
}

/* ------------------------------------------------------------------ */
/* The picker on its own                                                */

static const struct {
  const char *name;
  const char *caption;
  guint       page;
} demo_textures[] = {
  { "ROCK.0",  "565 · 64×64",         0 },
  { "METAL.0", "8888 · 64×64",        0 },
  { "GLOW.0",  "4444 · 32×32",        0 },
  { "WATER.0", "556 · 64×64",         0 },
  { "LAVA.A",  "palette (0) · 64×64", 0 },
  { "GRASS.0", "888 · 64×64",         0 },
  { "SMOKE.0", "88 · 32×32",          0 },
  { "ATLAS.0", "8888 · 128×128",      4 },
  { "ATLAS4.0", "8888 · 64×64",       4 },
  { "LEAVES.0", "8888 · 64×64",       0 },
};

static MatTexturePicker *
picker_open (MatTextureLibrary *textures,
             const char        *current)
{
  MatTexturePicker *picker = mat_texture_picker_new (NULL, textures, current);

  gtk_window_present (GTK_WINDOW (picker));
  return picker;
}

static void
chosen_cb (MatTexturePicker *picker,
           const char       *name,
           char            **out)
{
  g_free (*out);
  *out = g_strdup (name);
}

static void
test_list (void)
{
  g_autoptr(MatTextureLibrary) textures = load_demo_textures ();
  MatTexturePicker *picker = picker_open (textures, "rock.0");
  g_autoptr(GPtrArray) tiles = NULL;
  GtkGridView *grid;
  GtkSelectionModel *selection;
  g_autofree char *chosen = NULL;

  wait_tiles (picker, G_N_ELEMENTS (demo_textures));
  tiles = shown_tiles (picker);
  for (guint i = 0; i < G_N_ELEMENTS (demo_textures); i++)
    {
      GtkWidget *tile = tile_named (picker, demo_textures[i].name);
      GtkWidget *badge, *error_icon;

      g_assert_nonnull (tile);
      g_assert_cmpstr (tile_text (tile, "texture-caption"), ==, demo_textures[i].caption);
      badge = ui_find_by_css_class (tile, "texture-page");
      g_assert_nonnull (badge);
      g_assert_cmpint (gtk_widget_get_visible (badge), ==, demo_textures[i].page > 0);
      if (demo_textures[i].page > 0)
        {
          g_autofree char *text = g_strdup_printf ("Page %u", demo_textures[i].page);

          g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (badge)), ==, text);
        }
      error_icon = ui_find_by_css_class (tile, "texture-error");
      g_assert_nonnull (error_icon);
      g_assert_false (gtk_widget_get_visible (error_icon));
    }

  /* The current texture (any case) is selected; Choose is enabled. */
  grid = GTK_GRID_VIEW (ui_find_by_type (GTK_WIDGET (picker), GTK_TYPE_GRID_VIEW));
  selection = gtk_grid_view_get_model (grid);
  g_assert_true (gtk_selection_model_is_selected (selection, 0));
  g_assert_true (gtk_widget_is_sensitive (ui_find_by_css_class (GTK_WIDGET (picker), "suggested-action")));

  ui_screenshot (GTK_WIDGET (picker), "texture-picker.png");

  /* Activating a tile (double-click, Enter) picks it. */
  g_signal_connect (picker, "chosen", G_CALLBACK (chosen_cb), &chosen);
  g_object_add_weak_pointer (G_OBJECT (picker), (gpointer *) &picker);
  g_signal_emit_by_name (grid, "activate", 3);
  g_assert_cmpstr (chosen, ==, "WATER.0");
  /* It closed itself and nothing keeps it alive. */
  ui_spin_ms (50);
  g_assert_null (picker);
}

static void
test_search (void)
{
  g_autoptr(MatTextureLibrary) textures = load_demo_textures ();
  MatTexturePicker *picker = picker_open (textures, NULL);
  GtkWidget *search = ui_find_by_type (GTK_WIDGET (picker), GTK_TYPE_SEARCH_ENTRY);
  GtkStack *stack = GTK_STACK (ui_find_by_type (GTK_WIDGET (picker), GTK_TYPE_STACK));
  g_autofree char *chosen = NULL;

  wait_tiles (picker, N_DEMO_TEXTURES);
  g_assert_nonnull (search);

  gtk_editable_set_text (GTK_EDITABLE (search), "la");
  wait_tiles (picker, 3);
  g_assert_nonnull (tile_named (picker, "LAVA.A"));
  g_assert_nonnull (tile_named (picker, "ATLAS.0"));
  g_assert_nonnull (tile_named (picker, "ATLAS4.0"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "grid");
  ui_screenshot (GTK_WIDGET (picker), "texture-picker-search.png");

  gtk_editable_set_text (GTK_EDITABLE (search), "LAVA");
  wait_tiles (picker, 1);
  g_assert_nonnull (tile_named (picker, "LAVA.A"));

  gtk_editable_set_text (GTK_EDITABLE (search), "nothing");
  wait_tiles (picker, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "no-match");
  g_assert_false (mat_texture_picker_choose_for_test (picker, "LAVA.A"));

  gtk_editable_set_text (GTK_EDITABLE (search), "");
  wait_tiles (picker, N_DEMO_TEXTURES);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "grid");

  /* Enter in the search entry picks the only match. */
  g_signal_connect (picker, "chosen", G_CALLBACK (chosen_cb), &chosen);
  gtk_editable_set_text (GTK_EDITABLE (search), "smo");
  wait_tiles (picker, 1);
  g_signal_emit_by_name (search, "activate");
  g_assert_cmpstr (chosen, ==, "SMOKE.0");
  ui_spin_ms (20);
}

static void
test_broken (void)
{
  static const guint8 garbage[] = "not a Texm payload";
  TestEntrySpec spec = { NRES_TYPE_TEXM, 0, 0, 0, "BROKEN.0", garbage, sizeof garbage, 0 };
  g_autoptr(GBytes) bytes = test_build_archive (&spec, 1, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(MatTextureLibrary) textures = mat_texture_library_new_from_bytes (bytes, &error);
  MatTexturePicker *picker;
  GtkWidget *tile, *error_icon;
  MatTexture *texture;

  g_assert_no_error (error);
  texture = mat_texture_library_lookup (textures, "BROKEN.0");
  g_assert_nonnull (texture);
  g_assert_nonnull (mat_texture_get_error (texture));

  picker = picker_open (textures, NULL);
  wait_tiles (picker, 1);
  tile = tile_named (picker, "BROKEN.0");
  g_assert_nonnull (tile);
  g_assert_cmpstr (tile_text (tile, "texture-caption"), ==, "Does not parse");
  error_icon = ui_find_by_css_class (tile, "texture-error");
  g_assert_true (gtk_widget_get_visible (error_icon));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (error_icon), ==, mat_texture_get_error (texture));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (tile), mat_texture_get_error (texture)));
  ui_screenshot (GTK_WIDGET (picker), "texture-picker-broken.png");
  gtk_window_destroy (GTK_WINDOW (picker));
  ui_spin_ms (20);
}

/* ------------------------------------------------------------------ */
/* The phase table's texture button                                     */

typedef struct {
  MatLibrary        *lib;
  GBytes            *original;
  MatMaterial       *material;
  GtkWindow         *window;
  MatPhaseTable     *table;
  MatTextureLibrary *textures;
} Fixture;

static gboolean
rows_ready (gpointer data)
{
  Fixture *f = data;

  return mat_phase_table_get_texture_button_for_test (f->table, 0) != NULL &&
         gtk_widget_get_mapped (GTK_WIDGET (f->table));
}

static void
fixture_open (Fixture    *f,
              const char *name,
              gboolean    with_textures)
{
  f->original = ui_demo_bytes ();
  f->lib = ui_library_new (f->original);
  f->material = ui_find_material (f->lib, name);
  f->textures = with_textures ? load_demo_textures () : NULL;

  f->table = MAT_PHASE_TABLE (mat_phase_table_new ());
  g_object_set (f->table, "margin-start", 12, "margin-end", 12,
                "margin-top", 12, "margin-bottom", 12, NULL);
  mat_phase_table_set_material (f->table, f->material);
  mat_phase_table_set_textures (f->table, f->textures);
  g_assert_true (mat_phase_table_get_textures (f->table) == f->textures);
  f->window = ui_show (GTK_WIDGET (f->table), NULL, 1000, 300);
  g_assert_true (ui_wait_for (rows_ready, f, 5));
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (f->window);
  ui_spin_ms (20);
  g_clear_object (&f->textures);
  g_clear_object (&f->lib);
  g_clear_pointer (&f->original, g_bytes_unref);
}

/* File offset of the texture field of phase @i of the shown material,
 * found by its record (params then the 16-byte name; unique here). */
static gsize
texture_field_offset (Fixture *f,
                      guint    i)
{
  MatPhase *phase = ui_phase_at (f->material, i);
  guint8 record[MAT0_PHASE_SIZE];
  gsize size;
  const guint8 *data = g_bytes_get_data (f->original, &size);
  const guint8 *hit = NULL;

  memcpy (record, mat_phase_get_params (phase), MAT0_PARAM_COUNT);
  memcpy (record + MAT0_PARAM_COUNT, mat_phase_get_texture_raw (phase), MAT0_TEXTURE_SIZE);
  for (gsize o = 0; o + sizeof record <= size; o++)
    if (memcmp (data + o, record, sizeof record) == 0)
      {
        g_assert_null (hit);
        hit = data + o;
      }
  g_assert_nonnull (hit);
  return (gsize) (hit - data) + MAT0_PARAM_COUNT;
}

/* Asserts that @bytes differ from the loaded file only inside the
 * 16 bytes at @field, and that the field holds @name zero-filled. */
static void
assert_only_field (Fixture    *f,
                   GBytes     *bytes,
                   gsize       field,
                   const char *name)
{
  gsize na, nb;
  const guint8 *a = g_bytes_get_data (f->original, &na);
  const guint8 *b = g_bytes_get_data (bytes, &nb);
  guint8 expected[MAT0_TEXTURE_SIZE] = { 0 };
  guint n = 0;

  g_assert_cmpuint (na, ==, nb);
  for (gsize i = 0; i < na; i++)
    if (a[i] != b[i])
      {
        g_assert_cmpuint (i, >=, field);
        g_assert_cmpuint (i, <, field + MAT0_TEXTURE_SIZE);
        n++;
      }
  g_assert_cmpuint (n, >, 0);
  memcpy (expected, name, strlen (name));
  g_assert_cmpmem (b + field, MAT0_TEXTURE_SIZE, expected, MAT0_TEXTURE_SIZE);
}

/* Returns: (transfer none) (nullable): the open picker, if any. */
static MatTexturePicker *
open_picker (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* (transfer none) */
  MatTexturePicker *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (MAT_IS_TEXTURE_PICKER (window))
        {
          g_assert_null (found);
          found = MAT_TEXTURE_PICKER (window);
        }
    }
  return found;
}

static gboolean
picker_open_and_mapped (gpointer data)
{
  MatTexturePicker *picker = open_picker ();

  return picker != NULL && gtk_widget_get_mapped (GTK_WIDGET (picker));
}

static gboolean
picker_gone (gpointer data)
{
  return open_picker () == NULL;
}

/* Clicks the texture button of @row and returns the picker it opened. */
static MatTexturePicker *
click_texture_button (Fixture *f,
                      guint    row)
{
  GtkButton *button = mat_phase_table_get_texture_button_for_test (f->table, row);
  MatTexturePicker *picker;

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (button)));
  g_assert_null (open_picker ());
  g_assert_true (gtk_widget_activate (GTK_WIDGET (button)));
  g_assert_true (ui_wait_for (picker_open_and_mapped, NULL, 5));
  picker = open_picker ();
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (picker)) == f->window);
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (picker)));
  g_assert_true (mat_texture_picker_get_textures (picker) == f->textures);
  return picker;
}

static void
test_choose (void)
{
  Fixture f = { 0 };
  MatHistory *history;
  MatPhase *phase;
  MatTexturePicker *picker;
  GtkEntry *entry;
  gsize field;
  guint undo0;

  fixture_open (&f, "ROCK_WALL", TRUE);
  history = mat_library_get_history (f.lib);
  phase = ui_phase_at (f.material, 0);
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "ROCK.0");
  field = texture_field_offset (&f, 0);
  undo0 = mat_history_get_n_undo (history);

  /* Cancel (Escape) changes nothing. */
  picker = click_texture_button (&f, 0);
  wait_tiles (picker, N_DEMO_TEXTURES);
  g_object_add_weak_pointer (G_OBJECT (picker), (gpointer *) &picker);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (picker), "window.close", NULL));
  g_assert_true (ui_wait_for (picker_gone, NULL, 5));
  ui_spin_ms (50);
  g_assert_null (picker);
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "ROCK.0");
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, undo0);

  /* Choosing writes the name: one field, one undo step. */
  picker = click_texture_button (&f, 0);
  wait_tiles (picker, N_DEMO_TEXTURES);
  g_assert_true (mat_texture_picker_choose_for_test (picker, "LAVA.A"));
  g_assert_true (ui_wait_for (picker_gone, NULL, 5));
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "LAVA.A");
  entry = mat_phase_table_get_texture_for_test (f.table, 0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "LAVA.A");
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, undo0 + 1);
  {
    g_autoptr(GBytes) saved = ui_library_save (f.lib);

    assert_only_field (&f, saved, field, "LAVA.A");
  }

  /* Choosing the same name again is no step. */
  picker = click_texture_button (&f, 0);
  wait_tiles (picker, N_DEMO_TEXTURES);
  g_assert_true (mat_texture_picker_choose_for_test (picker, "LAVA.A"));
  g_assert_true (ui_wait_for (picker_gone, NULL, 5));
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, undo0 + 1);

  g_assert_true (mat_history_undo (history));
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "ROCK.0");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "ROCK.0");
  {
    g_autoptr(GBytes) saved = ui_library_save (f.lib);

    g_assert_true (g_bytes_equal (saved, f.original));
  }
  g_assert_true (mat_history_redo (history));
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "LAVA.A");

  /* "Untextured" clears the name, one step. */
  picker = click_texture_button (&f, 0);
  wait_tiles (picker, N_DEMO_TEXTURES);
  g_assert_true (mat_texture_picker_choose_for_test (picker, ""));
  g_assert_true (ui_wait_for (picker_gone, NULL, 5));
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "");
  g_assert_false (mat_phase_get_textured (phase));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, undo0 + 2);
  {
    g_autoptr(GBytes) saved = ui_library_save (f.lib);

    assert_only_field (&f, saved, field, "");
  }
  g_assert_true (mat_history_undo (history));
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "LAVA.A");

  fixture_close (&f);
}

static void
test_missing (void)
{
  Fixture f = { 0 };
  MatPhase *phase;
  GtkEntry *entry;
  g_autoptr(GError) error = NULL;

  fixture_open (&f, "ROCK_WALL", TRUE);
  phase = ui_phase_at (f.material, 0);
  entry = mat_phase_table_get_texture_for_test (f.table, 0);
  g_assert_null (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY));

  /* Typed and applied: the name is not in the library. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "NOPE.0");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "NOPE.0");
  g_assert_cmpstr (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY), ==,
                   "dialog-warning-symbolic");
  g_assert_cmpstr (gtk_entry_get_icon_tooltip_text (entry, GTK_ENTRY_ICON_SECONDARY), ==,
                   "NOPE.0 is not in Textures.lib");
  g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (GTK_WIDGET (entry)),
                                   "NOPE.0 is not in Textures.lib"));
  ui_screenshot (GTK_WIDGET (f.window), "texture-missing.png");

  /* Names compare without case, as the engine does. */
  g_assert_true (mat_phase_set_texture (phase, "lava.a", &error));
  g_assert_no_error (error);
  g_assert_null (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY));

  /* A change from the model (undo) updates the mark. */
  g_assert_true (mat_history_undo (mat_library_get_history (f.lib)));
  g_assert_cmpstr (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY), ==,
                   "dialog-warning-symbolic");

  /* Without a library nothing is known to be missing. */
  mat_phase_table_set_textures (f.table, NULL);
  g_assert_null (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY));
  mat_phase_table_set_textures (f.table, f.textures);
  g_assert_nonnull (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY));

  /* An untextured phase is never missing. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_signal_emit_by_name (entry, "activate");
  g_assert_false (mat_phase_get_textured (phase));
  g_assert_null (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY));

  fixture_close (&f);
}

static void
test_no_library (void)
{
  Fixture f = { 0 };
  GtkButton *button;
  GtkEntry *entry;
  g_autoptr(MatTextureLibrary) textures = NULL;
  MatTexturePicker *picker;
  GtkStack *stack;

  fixture_open (&f, "ROCK_WALL", FALSE);
  button = mat_phase_table_get_texture_button_for_test (f.table, 0);
  g_assert_nonnull (button);
  /* still usable: the picker then offers to open a Textures.lib */
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (button)));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (button)), ==,
                   "No Textures.lib beside this library: choose one…");
  entry = mat_phase_table_get_texture_for_test (f.table, 0);
  g_assert_null (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY));

  /* A Textures.lib the user opens in the picker becomes the table's. */
  {
    g_autoptr(MatTextureLibrary) chosen = load_demo_textures ();
    MatTexturePicker *opened;

    g_signal_emit_by_name (button, "clicked");
    opened = ui_find_toplevel (MAT_TYPE_TEXTURE_PICKER);
    g_assert_nonnull (opened);
    mat_texture_picker_set_textures (opened, chosen);
    g_assert_true (mat_phase_table_get_textures (f.table) == chosen);
    g_assert_true (MAT_IS_PHASE_TABLE (f.table));
    gtk_window_close (GTK_WINDOW (opened));
    ui_spin_ms (10);
    g_assert_true (MAT_IS_PHASE_TABLE (f.table));
    mat_phase_table_set_textures (f.table, NULL);
  }

  /* A library arriving later (the window loads it) enables the button. */
  textures = load_demo_textures ();
  mat_phase_table_set_textures (f.table, textures);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (button)));
  mat_phase_table_set_textures (f.table, NULL);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (button)), ==,
                   "No Textures.lib beside this library: choose one…");
  fixture_close (&f);

  /* The picker itself, given no library, offers to open one. */
  picker = picker_open (NULL, "ROCK.0");
  stack = GTK_STACK (ui_find_by_type (GTK_WIDGET (picker), GTK_TYPE_STACK));
  ui_spin_ms (100);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "no-library");
  g_assert_false (gtk_widget_is_sensitive (ui_find_by_type (GTK_WIDGET (picker), GTK_TYPE_SEARCH_ENTRY)));
  ui_screenshot (GTK_WIDGET (picker), "texture-picker-no-library.png");
  /* "Choose a Textures.lib…" opens a file chooser; closing the picker
   * with it open takes it along. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (picker), "picker.open-textures", NULL));
  ui_spin_ms (100);
  mat_texture_picker_set_textures (picker, textures);
  wait_tiles (picker, N_DEMO_TEXTURES);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "grid");
  gtk_window_destroy (GTK_WINDOW (picker));
  ui_spin_ms (20);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GtkCssProvider) css = NULL;

  gtk_test_init (&argc, &argv, NULL);

  /* The application's style sheet, as MatApplication loads it. */
  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/io/github/parkan/MatEdit/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  g_test_add_func ("/ui/texture-picker/list", test_list);
  g_test_add_func ("/ui/texture-picker/search", test_search);
  g_test_add_func ("/ui/texture-picker/broken", test_broken);
  g_test_add_func ("/ui/texture-picker/choose", test_choose);
  g_test_add_func ("/ui/texture-picker/missing", test_missing);
  g_test_add_func ("/ui/texture-picker/no-library", test_no_library);

  return g_test_run ();
}
