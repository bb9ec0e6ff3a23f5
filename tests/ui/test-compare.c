/* test-compare.c - MatCompareView driven through its actions and choosers
 *
 * Two phases of the demo's COLOR_CYCLE (the differing fields computed from
 * data/samples/materials.json), swap, copying a field across as one undo
 * step (the bytes a save would write come back after undo), two libraries
 * (a copy changes only the target), the shared clock against
 * phase_eval_at_time, and screenshots.
 *
 * The previews draw with GL: run under xvfb-run without
 * GSK_RENDERER=cairo. Environment: DEMO_LIB, DEMO_TEXTURES (optional),
 * DEMO_JSON (optional, else found from G_TEST_SRCDIR), SCREENSHOT_DIR
 * (optional, default: the build directory).
 */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include <glib/gi18n.h>

#include "mat-compare-view-private.h"
#include "mat-library.h"
#include "mat-preview.h"
#include "mat-texture-library.h"
#include "mat0-fields.h"
#include "phase-eval.h"
#include "test-support.h"
#include "ui-support.h"

typedef struct {
  GBytes         *original;
  MatLibrary     *lib;
  MatLibrary     *lib2;
  GtkWindow      *window;
  MatCompareView *view;
} Fixture;

/* ---- helpers ---------------------------------------------------------- */

static void
assert_unchanged (MatLibrary *lib,
                  GBytes     *original)
{
  g_autoptr(GBytes) now = ui_library_save (lib);

  g_assert_true (g_bytes_equal (now, original));
}

static void
fixture_open (Fixture *f,
              int      width,
              int      height)
{
  f->original = ui_demo_bytes ();
  f->lib = ui_library_new (f->original);

  f->view = MAT_COMPARE_VIEW (mat_compare_view_new ());
  mat_compare_view_add_library (f->view, f->lib, "Material.lib");
  /* ui_show() asserts that the view gets mapped */
  f->window = ui_show (GTK_WIDGET (f->view), "MatCompareView", width, height);
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (f->window);
  ui_spin_ms (20);
  g_clear_object (&f->lib);
  g_clear_object (&f->lib2);
  g_clear_pointer (&f->original, g_bytes_unref);
}

static void
activate_row (Fixture    *f,
              const char *action,
              guint       row)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), action, "i", (gint32) row));
}

/* The params of phase @index of material @name in the demo JSON. */
static void
json_params (const char *name,
             guint       index,
             guint8      params[18])
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  const char *env = g_getenv ("DEMO_JSON");
  JsonArray *entries;

  if (env != NULL && *env != '\0')
    path = g_strdup (env);
  else
    path = g_test_build_filename (G_TEST_DIST, "..", "..", "data", "samples", "materials.json", NULL);
  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);

  entries = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                          "entries");
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);
      JsonArray *p;

      if (g_strcmp0 (json_object_get_string_member (entry, "name"), name) != 0)
        continue;
      p = json_object_get_array_member (json_array_get_object_element (json_object_get_array_member (entry, "phases"), index),
                                        "params");
      g_assert_cmpuint (json_array_get_length (p), ==, 18);
      for (guint k = 0; k < 18; k++)
        params[k] = (guint8) json_array_get_int_element (p, k);
      return;
    }
  g_error ("%s is not in %s", name, path);
}

/* ---- two phases of one material ---------------------------------------- */

static void
test_phases_diff (void)
{
  Fixture f = { 0 };
  guint8 p0[18], p1[18];
  MatMaterial *cycle;
  guint n_expected = 0;

  fixture_open (&f, 1100, 760);
  cycle = ui_find_material (f.lib, "COLOR_CYCLE");
  mat_compare_view_set_material (f.view, cycle);
  g_assert_true (mat_compare_view_get_material (f.view) == cycle);
  g_assert_true (mat_compare_view_get_slot_material (f.view, MAT_COMPARE_SLOT_B) == cycle);
  g_assert_cmpint (mat_compare_view_get_slot_block (f.view, MAT_COMPARE_SLOT_A), ==, -1);
  g_assert_cmpuint (mat_compare_view_get_slot_phase (f.view, MAT_COMPARE_SLOT_A), ==, 0);
  g_assert_cmpuint (mat_compare_view_get_slot_phase (f.view, MAT_COMPARE_SLOT_B), ==, 1);

  json_params ("COLOR_CYCLE", 0, p0);
  json_params ("COLOR_CYCLE", 1, p1);
  for (guint row = 0; row < 18; row++)
    {
      gboolean expected = p0[row] != p1[row];
      char name[16], raw[8];
      GtkWidget *label;

      g_snprintf (name, sizeof name, "row-%u", row);
      label = mat_compare_view_get_test_widget (f.view, name);

      g_assert_cmpint (mat_compare_view_get_row_differs (f.view, row), ==, expected);
      g_assert_nonnull (label);
      g_assert_cmpint (gtk_widget_has_css_class (label, "differs"), ==, expected);
      g_snprintf (raw, sizeof raw, "%u", p0[row]);
      g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, row, "raw"), ==, raw);
      g_snprintf (raw, sizeof raw, "%u", p1[row]);
      g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_B, row, "raw"), ==, raw);
      n_expected += expected;
    }
  g_assert_false (mat_compare_view_get_row_differs (f.view, MAT_COMPARE_ROW_TEXTURE));
  /* phase 0 red, phase 1 green: p0, p1, p4, p5 */
  g_assert_cmpuint (n_expected, ==, 4);
  g_assert_true (mat_compare_view_get_row_differs (f.view, 0));
  g_assert_true (mat_compare_view_get_row_differs (f.view, 1));
  g_assert_true (mat_compare_view_get_row_differs (f.view, 4));
  g_assert_true (mat_compare_view_get_row_differs (f.view, 5));
  g_assert_cmpuint (mat_compare_view_get_n_differences (f.view), ==, 4);

  /* runtime values as phase_eval_expand gives them */
  {
    g_autofree char *diffuse_r = g_strdup_printf ("%.3f", 255 / 255.0);
    g_autofree char *ambient_r = g_strdup_printf ("%.3f", (double) (80 / 255.0f));
    /* the opacity in per cent */
    g_autofree char *ambient_a = g_strdup_printf ("%.1f %%", (double) (100 * 0.01f) * 100.0);
    g_autofree char *zero = g_strdup_printf ("%.3f", 0.0);

    g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 4, "value"), ==, diffuse_r);
    g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_B, 4, "value"), ==, zero);
    g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 0, "value"), ==, ambient_r);
    g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 3, "value"), ==, ambient_a);
  }

  /* the static phases: nothing to play */
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.play", NULL) &&
                  mat_compare_view_get_playing (f.view));
  fixture_close (&f);
}

static void
test_phases_swap (void)
{
  Fixture f = { 0 };
  MatMaterial *cycle;

  fixture_open (&f, 1100, 760);
  cycle = ui_find_material (f.lib, "COLOR_CYCLE");
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_A, cycle, -1, 0, 0);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, cycle, -1, 1, 0);
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 4, "raw"), ==, "255");
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_B, 4, "raw"), ==, "0");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.swap", NULL));
  g_assert_cmpuint (mat_compare_view_get_slot_phase (f.view, MAT_COMPARE_SLOT_A), ==, 1);
  g_assert_cmpuint (mat_compare_view_get_slot_phase (f.view, MAT_COMPARE_SLOT_B), ==, 0);
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 4, "raw"), ==, "0");
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_B, 4, "raw"), ==, "255");
  g_assert_cmpuint (mat_compare_view_get_n_differences (f.view), ==, 4);
  /* the choosers follow */
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (mat_compare_view_get_test_widget (f.view, "source-a"))), ==, 1);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (mat_compare_view_get_test_widget (f.view, "source-b"))), ==, 0);

  /* swap of a block and a phase of two materials */
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_A, ui_find_material (f.lib, "LAVA_FLOW"), 0, 0, 250);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, ui_find_material (f.lib, "ROCK_WALL"), -1, 0, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.swap", NULL));
  g_assert_true (mat_compare_view_get_slot_material (f.view, MAT_COMPARE_SLOT_A) == ui_find_material (f.lib, "ROCK_WALL"));
  g_assert_true (mat_compare_view_get_slot_material (f.view, MAT_COMPARE_SLOT_B) == ui_find_material (f.lib, "LAVA_FLOW"));
  g_assert_cmpint (mat_compare_view_get_slot_block (f.view, MAT_COMPARE_SLOT_A), ==, -1);
  g_assert_cmpint (mat_compare_view_get_slot_block (f.view, MAT_COMPARE_SLOT_B), ==, 0);
  g_assert_cmpuint (mat_compare_view_get_slot_offset (f.view, MAT_COMPARE_SLOT_B), ==, 250);
  g_assert_true (mat_preview_get_material (mat_compare_view_get_preview (f.view, MAT_COMPARE_SLOT_A)) ==
                 ui_find_material (f.lib, "ROCK_WALL"));
  g_assert_cmpint (mat_preview_get_block (mat_compare_view_get_preview (f.view, MAT_COMPARE_SLOT_B)), ==, 0);
  fixture_close (&f);
}

static void
test_phases_copy (void)
{
  Fixture f = { 0 };
  MatMaterial *cycle;
  MatHistory *history;

  fixture_open (&f, 1100, 760);
  history = mat_library_get_history (f.lib);
  cycle = ui_find_material (f.lib, "COLOR_CYCLE");
  mat_compare_view_set_material (f.view, cycle);
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (cycle, 1), 4), ==, 0);

  /* A's p4 into B: through the model, one undo step */
  activate_row (&f, "compare.copy-to-b", 4);
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (cycle, 1), 4), ==, 255);
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (cycle, 0), 4), ==, 255);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_false (mat_compare_view_get_row_differs (f.view, 4));
  g_assert_cmpuint (mat_compare_view_get_n_differences (f.view), ==, 3);
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_B, 4, "raw"), ==, "255");
  /* the same value again: no step */
  activate_row (&f, "compare.copy-to-b", 4);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);

  g_assert_true (mat_history_undo (history));
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (cycle, 1), 4), ==, 0);
  g_assert_true (mat_compare_view_get_row_differs (f.view, 4));
  assert_unchanged (f.lib, f.original);

  /* B's p1 into A */
  activate_row (&f, "compare.copy-to-a", 1);
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (cycle, 0), 1), ==, 80);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_true (mat_history_undo (history));
  assert_unchanged (f.lib, f.original);

  /* the same phase in both slots: copying is a no-op */
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, cycle, -1, 0, 0);
  g_assert_cmpuint (mat_compare_view_get_n_differences (f.view), ==, 0);
  gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.copy-to-b", "i", 4);
  gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.copy-to-a", "i", MAT_COMPARE_ROW_TEXTURE);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 0);
  assert_unchanged (f.lib, f.original);

  /* the texture name: ROCK_WALL's into UNTEXTURED_RED */
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_A, ui_find_material (f.lib, "ROCK_WALL"), -1, 0, 0);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, ui_find_material (f.lib, "UNTEXTURED_RED"), -1, 0, 0);
  g_assert_true (mat_compare_view_get_row_differs (f.view, MAT_COMPARE_ROW_TEXTURE));
  activate_row (&f, "compare.copy-to-b", MAT_COMPARE_ROW_TEXTURE);
  g_assert_cmpstr (mat_phase_get_texture (ui_phase_at (ui_find_material (f.lib, "UNTEXTURED_RED"), 0)), ==, "ROCK.0");
  g_assert_false (mat_compare_view_get_row_differs (f.view, MAT_COMPARE_ROW_TEXTURE));
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_true (mat_history_undo (history));
  g_assert_cmpstr (mat_phase_get_texture (ui_phase_at (ui_find_material (f.lib, "UNTEXTURED_RED"), 0)), ==, "");
  assert_unchanged (f.lib, f.original);

  /* a block: its evaluated rows are not copied */
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, cycle, 0, 0, 0);
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.copy-to-b", "i", 4) &&
                  mat_history_get_n_undo (history) > 0);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 0);
  assert_unchanged (f.lib, f.original);
  fixture_close (&f);
}

/* ---- labels from the table ---------------------------------------------- */

static void
test_labels (void)
{
  Fixture f = { 0 };
  g_autoptr(GPtrArray) titles = g_ptr_array_new ();
  g_autoptr(GPtrArray) groups = g_ptr_array_new ();
  GtkWidget *table;
  MatMaterial *atlas, *untextured;
  GListModel *sources;
  gboolean seen_block = FALSE;
  const char *expected_groups[5];
  guint n_groups = 0;

  fixture_open (&f, 1100, 760);
  atlas = ui_find_material (f.lib, "ATLAS_SIGN");
  untextured = ui_find_material (f.lib, "UNTEXTURED_RED");
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_A, atlas, -1, 1, 0);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, untextured, -1, 0, 0);

  /* every field row is named and explained by the table */
  for (guint row = 0; row < MAT_COMPARE_N_ROWS; row++)
    {
      char name[16];
      GtkWidget *label;
      g_autofree char *expected = NULL;
      const char *meaning;
      gboolean drawn = TRUE;

      g_snprintf (name, sizeof name, "row-%u", row);
      label = mat_compare_view_get_test_widget (f.view, name);
      g_assert_nonnull (label);
      if (row < MAT0_N_PARAMS)
        {
          const Mat0ParamField *field = mat0_fields_param (row);

          drawn = field->drawn;
          expected = drawn ? g_strdup (_(field->label))
                           : g_strdup_printf (_("%s (not drawn)"), _(field->label));
          meaning = _(field->meaning);
        }
      else
        {
          expected = g_strdup (_(mat0_fields_texture_label ()));
          meaning = _(mat0_fields_texture_meaning ());
        }
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, expected);
      g_assert_cmpstr (gtk_widget_get_tooltip_text (label), ==, meaning);
      g_assert_cmpint (gtk_widget_has_css_class (label, "not-drawn"), ==, !drawn);
    }
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (mat_compare_view_get_test_widget (f.view, "row-0"))),
                   ==, "Self-light red");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (mat_compare_view_get_test_widget (f.view, "row-12"))),
                   ==, "Emissive red (not drawn)");

  /* the column and group titles */
  table = mat_compare_view_get_test_widget (f.view, "table");
  ui_collect_by_css_class (table, "column-title", titles);
  g_assert_cmpuint (titles->len, >, 0);
  g_assert_cmpstr (gtk_label_get_text (titles->pdata[0]), ==, _("Field"));
  ui_collect_by_css_class (table, "group-title", groups);
  expected_groups[0] = _(mat0_fields_group (MAT0_GROUP_DIFFUSE)->label);
  expected_groups[1] = _(mat0_fields_group (MAT0_GROUP_SELF_LIGHT)->label);
  expected_groups[2] = _(mat0_fields_group (MAT0_GROUP_SPECULAR)->label);
  expected_groups[3] = "Emissive — stored, not drawn by the game";
  expected_groups[4] = _(mat0_fields_other_label ());
  for (guint i = 0; i < groups->len; i++)
    if (GTK_IS_LABEL (groups->pdata[i]) && *gtk_label_get_text (groups->pdata[i]) != '\0')
      {
        g_assert_cmpuint (n_groups, <, 5);
        g_assert_cmpstr (gtk_label_get_text (groups->pdata[i]), ==, expected_groups[n_groups]);
        n_groups++;
      }
  g_assert_cmpuint (n_groups, ==, 5);

  /* readings: the opacity in per cent, the cell */
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 3, "raw"), ==, "100");
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 3, "value"), ==, "100.0 %");
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 17, "raw"), ==, "1");
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 17, "value"), ==, "cell 1");
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_B, 17, "value"), ==, "−1 untextured");
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, ui_find_material (f.lib, "ROCK_WALL"), -1, 0, 0);
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_B, 17, "raw"), ==, "255");
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_B, 17, "value"), ==, "−1 whole texture");

  /* an opacity over 100 % is marked */
  {
    GtkWidget *value;

    g_assert_true (mat_phase_set_param (ui_phase_at (atlas, 1), 3, 150, NULL));
    g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 3, "value"), ==, "150.0 %");
    g_ptr_array_set_size (groups, 0);
    ui_collect_by_css_class (table, "warning", groups);
    g_assert_cmpuint (groups->len, ==, 1);
    value = groups->pdata[0];
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (value)), ==, "150.0 %");
    g_assert_true (mat_history_undo (mat_library_get_history (f.lib)));
    g_assert_false (gtk_widget_has_css_class (value, "warning"));
  }

  /* the blocks in the source chooser are named by their mode */
  sources = gtk_drop_down_get_model (GTK_DROP_DOWN (mat_compare_view_get_test_widget (f.view, "source-a")));
  for (guint i = 0; i < g_list_model_get_n_items (sources); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (sources, i);
      const char *text = gtk_string_object_get_string (item);

      if (g_str_has_prefix (text, "Block 0: "))
        {
          g_autofree char *mode = g_strdup_printf (": %s, ", _(mat0_fields_mode (0)->label));

          g_assert_nonnull (strstr (text, mode));
          seen_block = TRUE;
        }
    }
  g_assert_true (seen_block);
  assert_unchanged (f.lib, f.original);
  fixture_close (&f);
}

/* ---- two libraries ------------------------------------------------------ */

static void
test_two_libraries (void)
{
  Fixture f = { 0 };
  GtkDropDown *library_b, *material_b;
  GListModel *materials;
  guint position = GTK_INVALID_LIST_POSITION;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GError) error = NULL;

  fixture_open (&f, 1100, 760);
  f.lib2 = ui_library_new (f.original);
  mat_compare_view_add_library (f.view, f.lib2, "Material.lib (2)");
  g_assert_cmpuint (mat_compare_view_get_n_libraries (f.view), ==, 2);

  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_A, ui_find_material (f.lib, "COLOR_CYCLE"), -1, 0, 0);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, ui_find_material (f.lib, "COLOR_CYCLE"), -1, 0, 0);

  /* pick library 2 and its COLOR_CYCLE through the choosers */
  library_b = GTK_DROP_DOWN (mat_compare_view_get_test_widget (f.view, "library-b"));
  material_b = GTK_DROP_DOWN (mat_compare_view_get_test_widget (f.view, "material-b"));
  gtk_drop_down_set_selected (library_b, 1);
  g_assert_true (mat_compare_view_get_slot_library (f.view, MAT_COMPARE_SLOT_B) == f.lib2);
  materials = gtk_drop_down_get_model (material_b);
  for (guint i = 0; i < g_list_model_get_n_items (materials); i++)
    {
      g_autoptr(MatMaterial) item = g_list_model_get_item (materials, i);

      g_assert_cmpuint (mat_material_get_type_id (item), ==, 0x3054414Du);
      if (g_strcmp0 (mat_material_get_name (item), "COLOR_CYCLE") == 0)
        position = i;
    }
  g_assert_cmpuint (position, !=, GTK_INVALID_LIST_POSITION);
  gtk_drop_down_set_selected (material_b, position);
  g_assert_true (mat_compare_view_get_slot_material (f.view, MAT_COMPARE_SLOT_B) == ui_find_material (f.lib2, "COLOR_CYCLE"));
  /* and phase 1 through the source chooser */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (mat_compare_view_get_test_widget (f.view, "source-b")), 1);
  g_assert_cmpint (mat_compare_view_get_slot_block (f.view, MAT_COMPARE_SLOT_B), ==, -1);
  g_assert_cmpuint (mat_compare_view_get_slot_phase (f.view, MAT_COMPARE_SLOT_B), ==, 1);
  g_assert_cmpuint (mat_compare_view_get_n_differences (f.view), ==, 4);

  activate_row (&f, "compare.copy-to-b", 4);
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (ui_find_material (f.lib2, "COLOR_CYCLE"), 1), 4), ==, 255);
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (ui_find_material (f.lib, "COLOR_CYCLE"), 1), 4), ==, 0);
  g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (f.lib)), ==, 0);
  g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (f.lib2)), ==, 1);
  assert_unchanged (f.lib, f.original);
  saved = mat_library_save_to_bytes (f.lib2, &error);
  g_assert_no_error (error);
  g_assert_false (g_bytes_equal (saved, f.original));
  g_assert_true (mat_library_get_dirty (f.lib2));
  g_assert_false (mat_library_get_dirty (f.lib));

  g_assert_true (mat_history_undo (mat_library_get_history (f.lib2)));
  assert_unchanged (f.lib2, f.original);

  /* closing library 2 moves slot B to the remaining library */
  mat_compare_view_remove_library (f.view, f.lib2);
  g_assert_cmpuint (mat_compare_view_get_n_libraries (f.view), ==, 1);
  g_assert_true (mat_compare_view_get_slot_library (f.view, MAT_COMPARE_SLOT_B) == f.lib);
  fixture_close (&f);
}

/* ---- the shared clock --------------------------------------------------- */

static void
expected_at (MatMaterial  *material,
             guint         block,
             guint32       now,
             guint32       random_offset,
             PhaseRuntime *out)
{
  Mat0Material *core = mat_material_dup_core (material);
  g_autofree PhaseRuntime *phases = g_new0 (PhaseRuntime, core->n_phases);
  PhaseEvalInput input = { 0 };
  PhaseEvalResult result;

  phase_eval_expand_material (core, phases);
  input.phases = phases;
  input.n_phases = core->n_phases;
  input.block = &core->blocks[block];
  phase_eval_at_time (&input, now, 0, random_offset, &result);
  *out = result.value;
  mat0_material_free (core);
}

static void
assert_rows_equal (Fixture            *f,
                   MatCompareSlot      slot,
                   const PhaseRuntime *expected)
{
  static const int f_of_row[16] = { 4, 5, 6, 7, 0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15 };
  PhaseRuntime shown;

  g_assert_true (mat_compare_view_get_slot_value (f->view, slot, &shown));
  for (guint i = 0; i < 16; i++)
    g_assert_true (shown.f[i] == expected->f[i]);
  g_assert_true (shown.power == expected->power);
  g_assert_cmpint (shown.i18, ==, expected->i18);
  g_assert_cmpint (shown.tex_slot, ==, expected->tex_slot);
  for (guint row = 0; row < 16; row++)
    {
      /* p3, the opacity, reads in per cent */
      g_autofree char *text = row == 3
                              ? g_strdup_printf ("%.1f %%", (double) expected->f[f_of_row[row]] * 100.0)
                              : g_strdup_printf ("%.3f", (double) expected->f[f_of_row[row]]);

      g_assert_cmpstr (mat_compare_view_get_cell_text (f->view, slot, row, "value"), ==, text);
      g_assert_cmpstr (mat_compare_view_get_cell_text (f->view, slot, row, "raw"), ==, "–");
    }
}

static void
test_time_sync (void)
{
  Fixture f = { 0 };
  MatMaterial *cycle, *lava;
  MatPreview *preview_a, *preview_b;
  GtkRange *scale;
  PhaseRuntime expected;
  static const guint times[] = { 0, 400, 1200, 1999, 2800, 3150 };
  guint before;

  fixture_open (&f, 1100, 760);
  cycle = ui_find_material (f.lib, "COLOR_CYCLE");
  lava = ui_find_material (f.lib, "LAVA_FLOW");
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_A, cycle, 0, 0, 0);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, lava, 0, 0, 400);
  preview_a = mat_compare_view_get_preview (f.view, MAT_COMPARE_SLOT_A);
  preview_b = mat_compare_view_get_preview (f.view, MAT_COMPARE_SLOT_B);
  g_assert_false (mat_preview_get_show_controls (preview_a));
  g_assert_false (mat_preview_get_show_controls (preview_b));
  g_assert_cmpint (mat_preview_get_block (preview_a), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      mat_compare_view_set_time (f.view, times[i]);
      g_assert_cmpuint (mat_compare_view_get_time (f.view), ==, times[i]);
      g_assert_cmpuint (mat_preview_get_time (preview_a), ==, times[i]);
      g_assert_cmpuint (mat_preview_get_time (preview_b), ==, times[i] + 400);

      expected_at (cycle, 0, times[i], mat_preview_get_random_offset (preview_a), &expected);
      assert_rows_equal (&f, MAT_COMPARE_SLOT_A, &expected);
      expected_at (lava, 0, times[i] + 400, mat_preview_get_random_offset (preview_b), &expected);
      assert_rows_equal (&f, MAT_COMPARE_SLOT_B, &expected);

      /* the preview evaluates the same */
      {
        PhaseEvalResult eval;

        g_assert_true (mat_preview_get_evaluation (preview_a, &eval));
        expected_at (cycle, 0, times[i], mat_preview_get_random_offset (preview_a), &expected);
        g_assert_true (memcmp (eval.value.f, expected.f, sizeof expected.f) == 0);
      }
    }

  /* mid-blend at 400 ms: phase 0 -> 1, alpha 0.5, blended ambient and
   * diffuse RGB (interp 0x03) */
  mat_compare_view_set_time (f.view, 400);
  {
    g_autofree char *half = g_strdup_printf ("%.3f", 0.5);

    g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 4, "value"), ==, half);
  }

  /* the time scale drives both */
  scale = GTK_RANGE (mat_compare_view_get_test_widget (f.view, "time-scale"));
  gtk_range_set_value (scale, 1000);
  g_assert_cmpuint (mat_compare_view_get_time (f.view), ==, 1000);
  g_assert_cmpuint (mat_preview_get_time (preview_a), ==, 1000);
  g_assert_cmpuint (mat_preview_get_time (preview_b), ==, 1400);

  /* the offset follows the spin button */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (mat_compare_view_get_test_widget (f.view, "offset-b")), 100);
  g_assert_cmpuint (mat_compare_view_get_slot_offset (f.view, MAT_COMPARE_SLOT_B), ==, 100);
  g_assert_cmpuint (mat_preview_get_time (preview_b), ==, 1100);

  /* play: one clock for both previews */
  before = mat_compare_view_get_time (f.view);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.play", NULL));
  g_assert_true (mat_compare_view_get_playing (f.view));
  g_assert_true (mat_preview_get_playback (preview_a) == mat_preview_get_playback (preview_b));
  g_assert_true (mat_preview_get_playing (preview_a));
  g_assert_true (mat_preview_get_playing (preview_b));
  /* a software rasteriser (and sanitizers) can be slow: wait for frames */
  for (guint i = 0; i < 100 && mat_compare_view_get_time (f.view) == before; i++)
    ui_spin_ms (50);
  g_test_message ("playing: %u ms -> %u ms, %" G_GUINT64_FORMAT " frames in A",
                  before, mat_compare_view_get_time (f.view),
                  mat_preview_get_n_renders (preview_a));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.play", NULL));
  g_assert_false (mat_compare_view_get_playing (f.view));
  g_assert_cmpuint (mat_compare_view_get_time (f.view), !=, before);
  g_assert_cmpuint (mat_preview_get_time (preview_a), ==, mat_compare_view_get_time (f.view));
  g_assert_cmpuint (mat_preview_get_time (preview_b), ==, mat_compare_view_get_time (f.view) + 100);
  expected_at (cycle, 0, mat_compare_view_get_time (f.view),
               mat_preview_get_random_offset (preview_a), &expected);
  assert_rows_equal (&f, MAT_COMPARE_SLOT_A, &expected);
  fixture_close (&f);
}

/* ---- model changes ------------------------------------------------------ */

static void
test_follows_model (void)
{
  Fixture f = { 0 };
  MatMaterial *cycle;
  g_autoptr(GError) error = NULL;

  fixture_open (&f, 1100, 760);
  cycle = ui_find_material (f.lib, "COLOR_CYCLE");
  mat_compare_view_set_material (f.view, cycle);
  g_assert_cmpuint (mat_compare_view_get_n_differences (f.view), ==, 4);

  /* an edit elsewhere shows up at once, and so does its undo */
  g_assert_true (mat_phase_set_param (ui_phase_at (cycle, 1), 16, 40, &error));
  g_assert_no_error (error);
  g_assert_true (mat_compare_view_get_row_differs (f.view, 16));
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_B, 16, "raw"), ==, "40");
  g_assert_true (mat_history_undo (mat_library_get_history (f.lib)));
  g_assert_false (mat_compare_view_get_row_differs (f.view, 16));

  /* removing the shown phase clamps the slot */
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, cycle, -1, 3, 0);
  g_assert_true (mat_material_remove_phase (cycle, 3, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mat_compare_view_get_slot_phase (f.view, MAT_COMPARE_SLOT_B), ==, 2);
  g_assert_true (mat_history_undo (mat_library_get_history (f.lib)));
  assert_unchanged (f.lib, f.original);

  /* deleting the shown material moves the slot to another one */
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_A, ui_find_material (f.lib, "FADE_OUT"), 0, 0, 0);
  g_assert_true (mat_library_delete_material (f.lib, ui_find_material (f.lib, "FADE_OUT"), &error));
  g_assert_no_error (error);
  g_assert_nonnull (mat_compare_view_get_slot_material (f.view, MAT_COMPARE_SLOT_A));
  g_assert_true (mat_material_get_library (mat_compare_view_get_slot_material (f.view, MAT_COMPARE_SLOT_A)) == f.lib);
  g_assert_true (mat_compare_view_get_material (f.view) != NULL);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (mat_compare_view_get_test_widget (f.view, "status-a"))), !=, "");
  g_assert_true (mat_history_undo (mat_library_get_history (f.lib)));
  assert_unchanged (f.lib, f.original);
  fixture_close (&f);
}

/* ---- screenshots -------------------------------------------------------- */

static gboolean
previews_drawn (gpointer data)
{
  Fixture *f = data;

  return mat_preview_get_n_renders (mat_compare_view_get_preview (f->view, MAT_COMPARE_SLOT_A)) > 0 &&
         mat_preview_get_n_renders (mat_compare_view_get_preview (f->view, MAT_COMPARE_SLOT_B)) > 0;
}

static void
shoot (Fixture    *f,
       const char *name)
{
  ui_spin_ms (300);
  g_assert_true (ui_wait_for (previews_drawn, f, 10));
  ui_spin_ms (200);
  g_test_message ("window %dx%d, mapped %d", gtk_widget_get_width (GTK_WIDGET (f->window)),
                  gtk_widget_get_height (GTK_WIDGET (f->window)),
                  gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  ui_screenshot (GTK_WIDGET (f->window), name);
}

static void
test_screenshot (void)
{
  Fixture f = { 0 };
  const char *textures_path = g_getenv ("DEMO_TEXTURES");

  fixture_open (&f, 1180, 980);
  if (textures_path != NULL && *textures_path != '\0')
    {
      g_autoptr(GBytes) bytes = test_load_file (textures_path);
      g_autoptr(GError) error = NULL;
      g_autoptr(MatTextureLibrary) textures = mat_texture_library_new_from_bytes (bytes, &error);

      g_assert_no_error (error);
      mat_compare_view_set_textures (f.view, textures);
    }

  /* two phases of one material: copy buttons on the differing rows */
  mat_compare_view_set_material (f.view, ui_find_material (f.lib, "COLOR_CYCLE"));
  shoot (&f, "compare.png");
  if (mat_preview_get_error (mat_compare_view_get_preview (f.view, MAT_COMPARE_SLOT_A)) != NULL)
    g_test_message ("preview error: %s",
                    mat_preview_get_error (mat_compare_view_get_preview (f.view, MAT_COMPARE_SLOT_A)));

  /* two animated, textured materials at one moment */
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_A, ui_find_material (f.lib, "LAVA_FLOW"), 0, 0, 0);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, ui_find_material (f.lib, "WATER_SURFACE"), 0, 0, 300);
  mat_compare_view_set_time (f.view, 700);
  shoot (&f, "compare-animated.png");
  fixture_close (&f);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/compare/phases/diff", test_phases_diff);
  g_test_add_func ("/compare/phases/swap", test_phases_swap);
  g_test_add_func ("/compare/phases/copy", test_phases_copy);
  g_test_add_func ("/compare/labels", test_labels);
  g_test_add_func ("/compare/libraries", test_two_libraries);
  g_test_add_func ("/compare/time-sync", test_time_sync);
  g_test_add_func ("/compare/follows-model", test_follows_model);
  g_test_add_func ("/compare/screenshot", test_screenshot);

  return g_test_run ();
}
