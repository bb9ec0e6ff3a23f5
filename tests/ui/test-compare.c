/* test-compare.c - MatCompareView, MatMaterialDiff, MatLibraryDiff and the
 * Compare window driven through their actions, choosers and real keys
 *
 * Two phases of the demo's COLOR_CYCLE (the differing fields computed from
 * data/samples/materials.json), swap, copying a field across as one undo
 * step (the bytes a save would write come back after undo), two libraries
 * (a copy changes only the target), the shared clock against
 * phase_eval_at_time; whole materials field by field with copies of a
 * block, a colour and the whole material; the library diff against a
 * file opened through the file chooser's code path (changed only, take
 * from the other library, compare); the Compare window's undo and redo
 * through Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y sent to the X server, Escape and
 * Ctrl+W closing it; and screenshots (in Russian when LANGUAGE=ru).
 *
 * The previews draw with GL: run under xvfb-run without
 * GSK_RENDERER=cairo. Environment: DEMO_LIB, DEMO_TEXTURES (optional),
 * DEMO_JSON (optional, else found from G_TEST_SRCDIR), SCREENSHOT_DIR
 * (optional, default: the build directory).
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include <gtk/gtk.h>
#include <gdk/x11/gdkx.h>
#include <json-glib/json-glib.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mat0-diff.h"
#include "mat-application.h"
#include "mat-compare-view-private.h"
#include "mat-compare-window-private.h"
#include "mat-library-diff-private.h"
#include "mat-material-diff.h"
#include "mat-anim-block.h"
#include "mat-key.h"
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
    g_autofree char *ambient_a = g_strdup_printf ("%.1f\u00a0%%", (double) (100 * 0.01f) * 100.0);
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
  g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 3, "value"), ==, "100.0\u00a0%");
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
    g_assert_cmpstr (mat_compare_view_get_cell_text (f.view, MAT_COMPARE_SLOT_A, 3, "value"), ==, "150.0\u00a0%");
    g_ptr_array_set_size (groups, 0);
    ui_collect_by_css_class (table, "warning", groups);
    g_assert_cmpuint (groups->len, ==, 1);
    value = groups->pdata[0];
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (value)), ==, "150.0\u00a0%");
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
                              ? g_strdup_printf ("%.1f\u00a0%%", (double) expected->f[f_of_row[row]] * 100.0)
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

/* ---- helpers for whole materials ---------------------------------------- */

static GBytes *
payload_of (MatMaterial *material)
{
  return mat_material_dup_payload (material);
}

static void
assert_same_payload (MatMaterial *a,
                     MatMaterial *b)
{
  g_autoptr(GBytes) pa = payload_of (a);
  g_autoptr(GBytes) pb = payload_of (b);

  g_assert_cmpmem (g_bytes_get_data (pa, NULL), g_bytes_get_size (pa),
                   g_bytes_get_data (pb, NULL), g_bytes_get_size (pb));
}

/* What the core says of two materials, for people. */
static char *
expected_summary (MatMaterial *a,
                  MatMaterial *b)
{
  g_autoptr(Mat0Material) ca = mat_material_dup_core (a);
  g_autoptr(Mat0Material) cb = mat_material_dup_core (b);
  g_autoptr(GArray) fields = mat0_diff_fields_new ();
  g_autofree char *list = NULL;

  mat0_diff_materials (ca, mat_material_get_attr1 (a), mat_material_get_attr3 (a),
                       cb, mat_material_get_attr1 (b), mat_material_get_attr3 (b), fields);
  list = mat0_diff_dup_summary ((const Mat0DiffField *) (gpointer) fields->data, fields->len);
  return g_strdup_printf (ngettext ("%u difference: %s", "%u differences: %s", fields->len),
                          fields->len, list);
}

static int
find_row (MatMaterialDiff        *diff,
          MatMaterialDiffRowKind  kind,
          guint                   item,
          guint                   index)
{
  int row = mat_material_diff_find_row (diff, kind, item, index);

  g_assert_cmpint (row, >=, 0);
  return row;
}

static void
activate_diff_row (MatMaterialDiff *diff,
                   const char      *action,
                   int              row)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (diff), action, "i", (gint32) row));
}

/* ---- whole materials ------------------------------------------------------ */

static void
test_material_diff (void)
{
  Fixture f = { 0 };
  MatMaterial *rock, *multi;
  MatMaterialDiff *diff;
  MatHistory *history;
  g_autofree char *summary = NULL;
  g_autoptr(Mat0Material) multi_core = NULL;
  int row;

  fixture_open (&f, 1100, 760);
  history = mat_library_get_history (f.lib);
  rock = ui_find_material (f.lib, "ROCK_WALL");      /* 1 phase, no blocks */
  multi = ui_find_material (f.lib, "MULTI_BLOCK");   /* 3 phases, 3 blocks */
  multi_core = mat_material_dup_core (multi);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_A, rock, -1, 0, 0);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, multi, -1, 0, 0);
  mat_compare_view_set_page (f.view, "material");
  g_assert_cmpstr (mat_compare_view_get_page (f.view), ==, "material");
  diff = mat_compare_view_get_material_diff (f.view);
  g_assert_true (mat_material_diff_get_material (diff, 0) == rock);
  g_assert_true (mat_material_diff_get_material (diff, 1) == multi);

  /* the summary is the core's comparison */
  summary = expected_summary (rock, multi);
  g_assert_cmpstr (mat_material_diff_get_summary (diff), ==, summary);
  g_assert_cmpuint (mat_material_diff_get_n_differences (diff), >, 0);

  /* attr1 (0x1 on both) with its blend reading, the same */
  row = find_row (diff, MAT_MATERIAL_DIFF_ROW_ATTR1, 0, 0);
  {
    g_autofree char *blend = mat0_fields_blend_dup_reading (0);
    g_autofree char *text = g_strdup_printf ("0x1 · %s", blend);

    g_assert_cmpstr (mat_material_diff_get_cell_text (diff, row, 0), ==, text);
    g_assert_cmpstr (mat_material_diff_get_cell_text (diff, row, 1), ==, text);
    g_assert_false (mat_material_diff_get_row_differs (diff, row));
  }
  /* metaA with its reading */
  row = find_row (diff, MAT_MATERIAL_DIFF_ROW_META, 0, MAT0_META_A);
  {
    g_autofree char *reading = mat0_fields_dup_ground_reading (255);

    g_assert_cmpstr (mat_material_diff_get_cell_text (diff, row, 0), ==, reading);
  }

  /* block 0: only B has it; its keys as k0, end time k1, k2 */
  row = find_row (diff, MAT_MATERIAL_DIFF_ROW_BLOCK, 0, 0);
  g_assert_true (mat_material_diff_get_row_differs (diff, row));
  g_assert_cmpstr (mat_material_diff_get_cell_text (diff, row, 0), ==, "—");
  g_assert_true (mat_material_diff_get_row_copyable (diff, row, 0));
  g_assert_false (mat_material_diff_get_row_copyable (diff, row, 1));
  {
    int key = find_row (diff, MAT_MATERIAL_DIFF_ROW_KEY, 0, 1);
    g_autofree char *text = g_strdup_printf ("phase %u · ends at %u\u00a0ms · k2 %u",
                                             multi_core->blocks[0].keys[1].k0,
                                             multi_core->blocks[0].keys[1].k1,
                                             multi_core->blocks[0].keys[1].k2);

    g_assert_cmpstr (mat_material_diff_get_cell_text (diff, key, 1), ==, text);
    g_assert_cmpstr (mat_material_diff_get_cell_text (diff, key, 0), ==, "—");
  }
  /* the mode of block 1 reads from the table */
  row = find_row (diff, MAT_MATERIAL_DIFF_ROW_MODE, 1, 0);
  g_assert_cmpstr (mat_material_diff_get_cell_text (diff, row, 1), ==,
                   mat0_fields_mode (multi_core->blocks[1].header_raw & 7)->label);

  /* copy block 0 into A: appended, one undo step, the core's block */
  row = find_row (diff, MAT_MATERIAL_DIFF_ROW_BLOCK, 0, 0);
  activate_diff_row (diff, "material-diff.copy-to-a", row);
  g_assert_cmpuint (mat_material_get_n_blocks (rock), ==, 1);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Copy Block Across");
  {
    g_autoptr(Mat0Material) now = mat_material_dup_core (rock);

    g_assert_cmpuint (now->blocks[0].header_raw, ==, multi_core->blocks[0].header_raw);
    g_assert_cmpuint (now->blocks[0].n_keys, ==, multi_core->blocks[0].n_keys);
    g_assert_cmpmem (now->blocks[0].keys, now->blocks[0].n_keys * sizeof (Mat0Key),
                     multi_core->blocks[0].keys, multi_core->blocks[0].n_keys * sizeof (Mat0Key));
  }
  row = find_row (diff, MAT_MATERIAL_DIFF_ROW_BLOCK, 0, 0);
  g_assert_false (mat_material_diff_get_row_differs (diff, row));
  g_assert_true (mat_history_undo (history));
  assert_unchanged (f.lib, f.original);
  g_assert_cmpuint (mat_material_get_n_blocks (rock), ==, 0);

  /* a colour group: A's diffuse into B's phase 0 */
  row = find_row (diff, MAT_MATERIAL_DIFF_ROW_GROUP, 0, MAT0_GROUP_DIFFUSE);
  if (mat_material_diff_get_row_differs (diff, row))
    {
      const guint8 *from = mat_phase_get_params (ui_phase_at (rock, 0));

      activate_diff_row (diff, "material-diff.copy-to-b", row);
      for (guint i = 4; i < 8; i++)
        g_assert_cmpuint (mat_phase_get_param (ui_phase_at (multi, 0), i), ==, from[i]);
      g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
      g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Copy Colour Across");
      g_assert_true (mat_history_undo (history));
      assert_unchanged (f.lib, f.original);
    }
  /* the texture: METAL.0 against ROCK.0 */
  row = find_row (diff, MAT_MATERIAL_DIFF_ROW_TEXTURE, 0, 0);
  g_assert_true (mat_material_diff_get_row_differs (diff, row));
  g_assert_cmpstr (mat_material_diff_get_cell_text (diff, row, 0), ==, "“ROCK.0”");
  g_assert_cmpstr (mat_material_diff_get_cell_text (diff, row, 1), ==, "“METAL.0”");

  /* differences only: the same rows hide, the others stay */
  mat_material_diff_set_differences_only (diff, TRUE);
  g_assert_false (mat_material_diff_get_row_visible (diff, find_row (diff, MAT_MATERIAL_DIFF_ROW_ATTR1, 0, 0)));
  g_assert_true (mat_material_diff_get_row_visible (diff, row));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (diff), "material-diff.differences-only", NULL));
  g_assert_false (mat_material_diff_get_differences_only (diff));
  g_assert_true (mat_material_diff_get_row_visible (diff, find_row (diff, MAT_MATERIAL_DIFF_ROW_ATTR1, 0, 0)));

  /* the whole material, B into A: one step, A's payload is B's */
  activate_diff_row (diff, "material-diff.copy-to-a", 0);
  assert_same_payload (rock, multi);
  g_assert_cmpstr (mat_material_get_name (rock), ==, "ROCK_WALL");
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Copy Material Across");
  g_assert_cmpuint (mat_material_diff_get_n_differences (diff), ==, 0);
  g_assert_cmpstr (mat_material_diff_get_summary (diff), ==,
                   "The materials are the same: every byte but the name.");
  g_assert_false (mat_material_diff_get_row_copyable (diff, 0, 0));
  g_assert_true (mat_history_undo (history));
  assert_unchanged (f.lib, f.original);
  g_assert_true (mat_history_redo (history));
  assert_same_payload (rock, multi);
  g_assert_true (mat_history_undo (history));
  assert_unchanged (f.lib, f.original);

  /* a reference library is never copied into */
  f.lib2 = ui_library_new (f.original);
  mat_compare_view_add_reference_library (f.view, f.lib2, "original");
  g_assert_false (mat_compare_view_get_library_editable (f.view, f.lib2));
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, ui_find_material (f.lib2, "MULTI_BLOCK"), -1, 0, 0);
  g_assert_true (mat_material_diff_get_row_copyable (diff, 0, 0));
  g_assert_false (mat_material_diff_get_row_copyable (diff, 0, 1));
  activate_diff_row (diff, "material-diff.copy-to-b", 0);
  g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (f.lib2)), ==, 0);
  /* nor in the table of the shown phases */
  mat_compare_view_set_page (f.view, "fields");
  gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.copy-phase-to-b", NULL);
  g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (f.lib2)), ==, 0);
  fixture_close (&f);
}

/* A block of many keys: the table lists the first ones and says how
 * many more there are; the comparison and the copy take them all. */
static void
test_material_diff_many_keys (void)
{
  Fixture f = { 0 };
  MatMaterial *rock, *glow;
  MatMaterialDiff *diff;
  MatHistory *history;
  g_autoptr(MatAnimBlock) block = NULL;
  guint n_rows;
  int row;

  fixture_open (&f, 1100, 760);
  history = mat_library_get_history (f.lib);
  rock = ui_find_material (f.lib, "ROCK_WALL");
  glow = ui_find_material (f.lib, "GLOW_PULSE");   /* block 0: two keys */
  block = g_list_model_get_item (mat_material_get_blocks (glow), 0);
  mat_history_begin_group (history, "many keys");
  for (guint k = 0; k < 150; k++)
    g_assert_nonnull (mat_anim_block_insert_key (block, mat_anim_block_get_n_keys (block), k % 2,
                                                 (guint16) (1300 + 10 * k), NULL));
  mat_history_end_group (history);
  g_assert_cmpuint (mat_anim_block_get_n_keys (block), ==, 152);

  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_A, rock, -1, 0, 0);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, glow, -1, 0, 0);
  diff = mat_compare_view_get_material_diff (f.view);
  g_assert_cmpint (mat_material_diff_find_row (diff, MAT_MATERIAL_DIFF_ROW_KEY, 0, MAT_MATERIAL_DIFF_MAX_ROWS - 1), >=, 0);
  g_assert_cmpint (mat_material_diff_find_row (diff, MAT_MATERIAL_DIFF_ROW_KEY, 0, MAT_MATERIAL_DIFF_MAX_ROWS), ==, -1);
  n_rows = mat_material_diff_get_n_rows (diff);
  /* material 8, two phases of 8, block 0: 3 + 100 keys + the note */
  g_assert_cmpuint (n_rows, ==, 8 + 2 * 8 + 3 + MAT_MATERIAL_DIFF_MAX_ROWS + 1);
  g_assert_cmpstr (mat_material_diff_get_cell_text (diff, n_rows - 1, 1), ==, "… and 52 more");
  g_assert_cmpstr (mat_material_diff_get_cell_text (diff, n_rows - 1, 0), ==, "");

  /* the whole block, all 152 keys, into A: one step */
  row = find_row (diff, MAT_MATERIAL_DIFF_ROW_BLOCK, 0, 0);
  activate_diff_row (diff, "material-diff.copy-to-a", row);
  g_assert_cmpuint (mat_material_get_n_blocks (rock), ==, 1);
  {
    g_autoptr(MatAnimBlock) copied = g_list_model_get_item (mat_material_get_blocks (rock), 0);

    g_assert_cmpuint (mat_anim_block_get_n_keys (copied), ==, 152);
  }
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 2);
  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_history_undo (history));
  assert_unchanged (f.lib, f.original);
  fixture_close (&f);
}

/* The shown phases: a colour group and the whole phase across. */
static void
test_phase_and_group_copy (void)
{
  Fixture f = { 0 };
  MatMaterial *cycle;
  MatHistory *history;
  g_autoptr(GBytes) after = NULL;
  guint8 p0[18];

  fixture_open (&f, 1100, 760);
  history = mat_library_get_history (f.lib);
  cycle = ui_find_material (f.lib, "COLOR_CYCLE");
  mat_compare_view_set_material (f.view, cycle);   /* A phase 0, B phase 1 */
  memcpy (p0, mat_phase_get_params (ui_phase_at (cycle, 0)), 18);

  /* the whole-phase buttons show when the phases differ */
  g_assert_true (gtk_widget_get_visible (mat_compare_view_get_test_widget (f.view, "phase-copy-b")));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.copy-phase-to-b", NULL));
  g_assert_cmpmem (mat_phase_get_params (ui_phase_at (cycle, 1)), 18, p0, 18);
  g_assert_cmpmem (mat_phase_get_texture_raw (ui_phase_at (cycle, 1)), 16,
                   mat_phase_get_texture_raw (ui_phase_at (cycle, 0)), 16);
  g_assert_cmpuint (mat_compare_view_get_n_differences (f.view), ==, 0);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Copy Phase Across");
  g_assert_false (gtk_widget_get_visible (mat_compare_view_get_test_widget (f.view, "phase-copy-b")));
  after = ui_library_save (f.lib);
  g_assert_true (mat_history_undo (history));
  assert_unchanged (f.lib, f.original);
  g_assert_true (mat_history_redo (history));
  {
    g_autoptr(GBytes) again = ui_library_save (f.lib);

    g_assert_true (g_bytes_equal (again, after));
  }
  g_assert_true (mat_history_undo (history));

  /* B's self-light (p0..p3) into A: four bytes, one step */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.copy-group-to-a", "i",
                                             (gint32) MAT0_GROUP_SELF_LIGHT));
  for (guint i = 0; i < 4; i++)
    g_assert_cmpuint (mat_phase_get_param (ui_phase_at (cycle, 0), i), ==,
                      mat_phase_get_param (ui_phase_at (cycle, 1), i));
  for (guint i = 4; i < 18; i++)
    g_assert_cmpuint (mat_phase_get_param (ui_phase_at (cycle, 0), i), ==, p0[i]);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Copy Colour Across");
  g_assert_true (mat_history_undo (history));
  assert_unchanged (f.lib, f.original);
  fixture_close (&f);
}

/* ---- the Compare window and real keys -------------------------------------- */

static Display *
x_display (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);

  g_assert_true (GDK_IS_X11_DISPLAY (display));
  return gdk_x11_display_get_xdisplay (display);
}

static gboolean
window_active (gpointer data)
{
  return gtk_window_is_active (GTK_WINDOW (data));
}

/* Presses and releases @keyval with @mods through the X server (XTest):
 * the event reaches @window as a user's would. */
static void
send_key (GtkWindow       *window,
          guint            keyval,
          GdkModifierType  mods)
{
  Display *xdisplay = x_display (GTK_WIDGET (window));
  KeyCode key = XKeysymToKeycode (xdisplay, keyval);
  KeyCode control = XKeysymToKeycode (xdisplay, XK_Control_L);
  KeyCode shift = XKeysymToKeycode (xdisplay, XK_Shift_L);

  g_assert_cmpuint (key, !=, 0);
  /* the keyboard goes where the focus is: the window itself */
  gtk_window_present (window);
  ui_pointer_move (GTK_WIDGET (window), gtk_widget_get_width (GTK_WIDGET (window)) / 2.0, 20);
  ui_wait_for (window_active, window, 5);

  if (mods & GDK_CONTROL_MASK)
    XTestFakeKeyEvent (xdisplay, control, True, CurrentTime);
  if (mods & GDK_SHIFT_MASK)
    XTestFakeKeyEvent (xdisplay, shift, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, key, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, key, False, CurrentTime);
  if (mods & GDK_SHIFT_MASK)
    XTestFakeKeyEvent (xdisplay, shift, False, CurrentTime);
  if (mods & GDK_CONTROL_MASK)
    XTestFakeKeyEvent (xdisplay, control, False, CurrentTime);
  XFlush (xdisplay);
  ui_spin_ms (80);
}

typedef struct {
  MatHistory *history;
  guint       n_undo;
} UndoWanted;

static gboolean
has_n_undo (gpointer data)
{
  UndoWanted *wanted = data;

  return mat_history_get_n_undo (wanted->history) == wanted->n_undo;
}

/* The key's effect may take a moment to arrive on a busy machine: waits
 * until @history has @n_undo steps to undo (or a few seconds passed). */
static void
assert_n_undo (MatHistory *history,
               guint       n_undo)
{
  UndoWanted wanted = { history, n_undo };

  ui_wait_for (has_n_undo, &wanted, 5);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, n_undo);
}

typedef struct {
  GBytes           *original;
  MatLibrary       *lib;
  MatLibrary       *lib2;
  MatCompareWindow *window;
  MatCompareView   *view;
} WinFixture;

static gboolean
is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static void
win_open (WinFixture *f,
          int         width,
          int         height)
{
  if (f->original == NULL)
    f->original = ui_demo_bytes ();
  if (f->lib == NULL)
    f->lib = ui_library_new (f->original);
  f->window = mat_compare_window_new (NULL, f->lib);
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *) &f->window);
  gtk_window_set_title (GTK_WINDOW (f->window), "MatCompareWindow");
  gtk_window_set_default_size (GTK_WINDOW (f->window), width, height);
  f->view = mat_compare_window_get_view (f->window);
  mat_compare_view_add_library (f->view, f->lib, "Material.lib");
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (ui_wait_for (ui_widget_is_shown, f->view, 20));
  ui_pump ();
}

static void
win_close (WinFixture *f)
{
  if (f->window != NULL)
    gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_true (ui_wait_for (is_null, &f->window, 10));
  ui_spin_ms (20);
  g_clear_object (&f->lib);
  g_clear_object (&f->lib2);
  g_clear_pointer (&f->original, g_bytes_unref);
}

static void
test_window_keys (void)
{
  WinFixture f = { 0 };
  MatMaterial *cycle;
  MatHistory *history;
  GtkWidget *undo_button, *redo_button;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) now = NULL;

  win_open (&f, 1100, 720);
  history = mat_library_get_history (f.lib);
  undo_button = mat_compare_window_get_test_widget (f.window, "undo-button");
  redo_button = mat_compare_window_get_test_widget (f.window, "redo-button");
  g_assert_true (mat_compare_window_get_library (f.window) == f.lib);
  g_assert_true (mat_compare_window_get_undo_library (f.window) == f.lib);
  g_assert_false (gtk_widget_get_sensitive (undo_button));
  g_assert_false (gtk_widget_get_sensitive (redo_button));

  /* copy phase 0 of COLOR_CYCLE over phase 1 */
  cycle = ui_find_material (f.lib, "COLOR_CYCLE");
  mat_compare_view_set_material (f.view, cycle);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.copy-phase-to-b", NULL));
  after = ui_library_save (f.lib);
  g_assert_false (g_bytes_equal (after, f.original));
  g_assert_true (gtk_widget_get_sensitive (undo_button));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (undo_button), "Copy Phase Across"));

  /* Ctrl+Z sent to the window undoes it, Ctrl+Shift+Z and Ctrl+Y redo */
  send_key (GTK_WINDOW (f.window), GDK_KEY_z, GDK_CONTROL_MASK);
  assert_n_undo (history, 0);
  now = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (now, f.original));
  g_assert_true (gtk_widget_get_sensitive (redo_button));
  g_assert_false (gtk_widget_get_sensitive (undo_button));

  send_key (GTK_WINDOW (f.window), GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  assert_n_undo (history, 1);
  g_clear_pointer (&now, g_bytes_unref);
  now = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (now, after));

  send_key (GTK_WINDOW (f.window), GDK_KEY_z, GDK_CONTROL_MASK);
  assert_n_undo (history, 0);
  send_key (GTK_WINDOW (f.window), GDK_KEY_y, GDK_CONTROL_MASK);
  assert_n_undo (history, 1);

  /* the header bar's Undo button does the same */
  g_signal_emit_by_name (undo_button, "clicked");
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 0);
  g_clear_pointer (&now, g_bytes_unref);
  now = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (now, f.original));

  /* a copy into another window's library: Undo follows it there */
  f.lib2 = ui_library_new (f.original);
  mat_compare_view_add_library (f.view, f.lib2, "Material.lib (2)");
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, ui_find_material (f.lib2, "COLOR_CYCLE"), -1, 1, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "compare.copy-to-b", "i", 4));
  g_assert_true (mat_compare_window_get_undo_library (f.window) == f.lib2);
  g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (f.lib2)), ==, 1);
  send_key (GTK_WINDOW (f.window), GDK_KEY_z, GDK_CONTROL_MASK);
  assert_n_undo (mat_library_get_history (f.lib2), 0);
  g_assert_cmpuint (mat_history_get_n_redo (history), ==, 1);   /* this one untouched */
  assert_unchanged (f.lib2, f.original);

  /* Escape closes the window */
  send_key (GTK_WINDOW (f.window), GDK_KEY_Escape, 0);
  g_assert_true (ui_wait_for (is_null, &f.window, 10));

  /* and so does Ctrl+W */
  win_open (&f, 1100, 720);
  send_key (GTK_WINDOW (f.window), GDK_KEY_w, GDK_CONTROL_MASK);
  g_assert_true (ui_wait_for (is_null, &f.window, 10));
  win_close (&f);
}

/* ---- the library diff -------------------------------------------------------- */

static gboolean
other_loaded (gpointer data)
{
  MatLibraryDiff *diff = data;

  return !mat_library_diff_get_loading (diff);
}

/* The original demo library as a file, as the user would pick it. */
static GFile *
demo_file_copy (GBytes *bytes,
                char  **dir)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  *dir = g_dir_make_tmp ("compare-test-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (*dir, "Original.lib", NULL);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

static void
remove_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_remove (path);
    }
  g_rmdir (dir);
}

/* This library: GLOW_PULSE deleted, phase 2 of COLOR_CYCLE changed,
 * NEW_ONE added; three steps in its history. */
static void
edit_library (MatLibrary *lib)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mat_library_delete_material (lib, ui_find_material (lib, "GLOW_PULSE"), &error));
  g_assert_true (mat_phase_set_param (ui_phase_at (ui_find_material (lib, "COLOR_CYCLE"), 2), 5, 9, &error));
  g_assert_nonnull (mat_library_add_material (lib, "NEW_ONE", &error));
  g_assert_no_error (error);
}

static MatLibraryDiffRow *
row_named (MatLibraryDiff *diff,
           const char     *name,
           guint          *position)
{
  int index = mat_library_diff_find_row (diff, name);
  MatLibraryDiffRow *row;

  g_assert_cmpint (index, >=, 0);
  row = g_list_model_get_item (mat_library_diff_get_rows (diff), (guint) index);
  g_object_unref (row);   /* the list keeps it */
  if (position != NULL)
    *position = (guint) index;
  return row;
}

static void
open_other (WinFixture      *f,
            MatLibraryDiff  *diff,
            char           **dir)
{
  g_autoptr(GFile) file = demo_file_copy (f->original, dir);

  /* what the file chooser's answer does */
  mat_library_diff_open_file (diff, file);
  g_assert_true (mat_library_diff_get_loading (diff));
  g_assert_true (ui_wait_for (other_loaded, diff, 20));
  g_assert_nonnull (mat_library_diff_get_other (diff));
  g_assert_cmpstr (mat_library_diff_get_other_title (diff), ==, "Original.lib");
}

/* The row of the library diff's list on screen that shows @name: its
 * box (badge, name, details, buttons), or %NULL. */
static GtkWidget *
shown_row (MatLibraryDiff *diff,
           const char     *name)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  ui_collect_by_css_class (mat_library_diff_get_test_widget (diff, "list"), "diff-name", names);
  for (guint i = 0; i < names->len; i++)
    if (gtk_widget_get_mapped (names->pdata[i]) &&
        g_strcmp0 (gtk_label_get_text (names->pdata[i]), name) == 0)
      return gtk_widget_get_parent (names->pdata[i]);
  return NULL;
}

static gboolean
row_is_shown (gpointer data)
{
  gpointer *args = data;

  return shown_row (args[0], args[1]) != NULL;
}

/* The text of @row's list of changes, as drawn. */
static const char *
shown_changes (GtkWidget *row)
{
  GtkWidget *label = ui_find_by_css_class (row, "diff-changes");

  g_assert_nonnull (label);
  if (!gtk_widget_get_visible (label))
    return "";
  return gtk_label_get_text (GTK_LABEL (label));
}

static void
test_library_diff (void)
{
  WinFixture f = { 0 };
  g_autofree char *dir = NULL;
  MatLibraryDiff *diff;
  MatLibraryDiffRow *row;
  MatHistory *history;
  guint position;
  g_autoptr(GBytes) before = NULL;

  f.original = ui_demo_bytes ();
  f.lib = ui_library_new (f.original);
  edit_library (f.lib);
  history = mat_library_get_history (f.lib);
  before = ui_library_save (f.lib);
  win_open (&f, 1100, 720);
  diff = mat_compare_window_get_library_diff (f.window);
  g_assert_true (mat_library_diff_get_library (diff) == f.lib);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.show-page", "s", "libraries"));
  g_assert_cmpstr (mat_compare_window_get_page (f.window), ==, "libraries");
  g_assert_null (mat_library_diff_get_other (diff));
  g_assert_cmpuint (g_list_model_get_n_items (mat_library_diff_get_rows (diff)), ==, 0);

  /* a file that is not a library: an error, nothing compared */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *bad_dir = g_dir_make_tmp ("compare-test-XXXXXX", &error);
    g_autofree char *bad = g_build_filename (bad_dir, "bad.lib", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (bad);
    GtkWidget *error_label = mat_library_diff_get_test_widget (diff, "error-label");

    g_file_set_contents (bad, "not a library", -1, &error);
    g_assert_no_error (error);
    mat_library_diff_open_file (diff, file);
    g_assert_true (ui_wait_for (other_loaded, diff, 20));
    g_assert_null (mat_library_diff_get_other (diff));
    g_assert_true (gtk_widget_get_visible (error_label));
    g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (error_label)), "Could not open"));
    remove_tree (bad_dir);
  }

  open_other (&f, diff, &dir);
  g_assert_false (gtk_widget_get_visible (mat_library_diff_get_test_widget (diff, "error-label")));
  /* the other library is offered in the view, as a reference */
  g_assert_cmpuint (mat_compare_view_get_n_libraries (f.view), ==, 2);
  g_assert_false (mat_compare_view_get_library_editable (f.view, mat_library_diff_get_other (diff)));

  /* the same answer as mat0tool diff OTHER THIS */
  g_assert_cmpuint (mat_library_diff_get_n_status (diff, MAT0_DIFF_ADDED), ==, 1);
  g_assert_cmpuint (mat_library_diff_get_n_status (diff, MAT0_DIFF_REMOVED), ==, 1);
  g_assert_cmpuint (mat_library_diff_get_n_status (diff, MAT0_DIFF_CHANGED), ==, 1);
  g_assert_cmpuint (mat_library_diff_get_n_status (diff, MAT0_DIFF_SAME), ==, 29);
  g_assert_cmpuint (g_list_model_get_n_items (mat_library_diff_get_rows (diff)), ==, 32);
  row = row_named (diff, "NEW_ONE", NULL);
  g_assert_cmpint (mat_library_diff_row_get_status (row), ==, MAT0_DIFF_ADDED);
  g_assert_null (mat_library_diff_row_get_theirs (row));
  row = row_named (diff, "GLOW_PULSE", NULL);
  g_assert_cmpint (mat_library_diff_row_get_status (row), ==, MAT0_DIFF_REMOVED);
  g_assert_null (mat_library_diff_row_get_mine (row));
  row = row_named (diff, "COLOR_CYCLE", &position);
  g_assert_cmpint (mat_library_diff_row_get_status (row), ==, MAT0_DIFF_CHANGED);
  {
    g_autofree char *summary = expected_summary (mat_library_diff_row_get_theirs (row),
                                                 mat_library_diff_row_get_mine (row));

    /* "1 difference: phase 2 (diffuse)": the row gives the list part */
    g_assert_cmpstr (mat_library_diff_row_get_summary (row), ==, "phase 2 (diffuse)");
    g_assert_true (g_str_has_suffix (summary, mat_library_diff_row_get_summary (row)));
    /* each change with the other library's value, then this one's */
    g_assert_cmpstr (mat_library_diff_row_get_changes (row), ==, "phase 2 diffuse G: 0 → 9");
    g_assert_cmpstr (mat_library_diff_row_get_all_changes (row), ==, "phase 2 diffuse G: 0 → 9");
  }

  /* changed only: the three that differ */
  g_assert_cmpuint (g_list_model_get_n_items (mat_library_diff_get_shown_rows (diff)), ==, 32);
  g_assert_true (gtk_widget_activate (mat_library_diff_get_test_widget (diff, "changed-only")));
  g_assert_true (mat_library_diff_get_changed_only (diff));
  g_assert_cmpuint (g_list_model_get_n_items (mat_library_diff_get_shown_rows (diff)), ==, 3);
  ui_pump ();

  /* the rows on screen: the changed one gives its change, old → new */
  {
    gpointer args[2] = { diff, (gpointer) "COLOR_CYCLE" };

    g_assert_true (ui_wait_for (row_is_shown, args, 10));
    g_assert_cmpstr (shown_changes (shown_row (diff, "COLOR_CYCLE")), ==, "phase 2 diffuse G: 0 → 9");
    g_assert_cmpstr (shown_changes (shown_row (diff, "GLOW_PULSE")), ==, "");
  }

  /* take the changed one: its content back, one step */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (diff), "library-diff.take", "u", position));
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 4);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Take Material from Other Library");
  assert_same_payload (ui_find_material (f.lib, "COLOR_CYCLE"),
                       ui_find_material (mat_library_diff_get_other (diff), "COLOR_CYCLE"));
  g_assert_cmpuint (mat_library_diff_get_n_status (diff, MAT0_DIFF_CHANGED), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (mat_library_diff_get_shown_rows (diff)), ==, 2);

  /* take the removed one: added back under its name */
  row = row_named (diff, "GLOW_PULSE", &position);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (diff), "library-diff.take", "u", position));
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 5);
  assert_same_payload (ui_find_material (f.lib, "GLOW_PULSE"),
                       ui_find_material (mat_library_diff_get_other (diff), "GLOW_PULSE"));
  g_assert_cmpuint (mat_library_diff_get_n_status (diff, MAT0_DIFF_REMOVED), ==, 0);
  g_assert_true (mat_compare_window_get_undo_library (f.window) == f.lib);

  /* Ctrl+Z twice: both takes undone, the list follows */
  send_key (GTK_WINDOW (f.window), GDK_KEY_z, GDK_CONTROL_MASK);
  assert_n_undo (history, 4);
  send_key (GTK_WINDOW (f.window), GDK_KEY_z, GDK_CONTROL_MASK);
  assert_n_undo (history, 3);
  {
    g_autoptr(GBytes) now = ui_library_save (f.lib);

    g_assert_true (g_bytes_equal (now, before));
  }
  ui_pump ();
  g_assert_cmpuint (mat_library_diff_get_n_status (diff, MAT0_DIFF_REMOVED), ==, 1);
  g_assert_cmpuint (mat_library_diff_get_n_status (diff, MAT0_DIFF_CHANGED), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (mat_library_diff_get_shown_rows (diff)), ==, 3);

  /* compare: both materials, side by side, whole */
  row = row_named (diff, "COLOR_CYCLE", &position);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (diff), "library-diff.compare", "u", position));
  g_assert_cmpstr (mat_compare_window_get_page (f.window), ==, "materials");
  g_assert_cmpstr (mat_compare_view_get_page (f.view), ==, "material");
  g_assert_true (mat_compare_view_get_slot_material (f.view, MAT_COMPARE_SLOT_A) == mat_library_diff_row_get_theirs (row));
  g_assert_true (mat_compare_view_get_slot_material (f.view, MAT_COMPARE_SLOT_B) == mat_library_diff_row_get_mine (row));
  /* the two whole materials say what changed, old → new, under the summary */
  {
    MatMaterialDiff *material_diff = mat_compare_view_get_material_diff (f.view);
    GtkWidget *changes = ui_find_by_css_class (GTK_WIDGET (material_diff), "compare-changes");

    g_assert_cmpstr (mat_material_diff_get_changes (material_diff), ==, "phase 2 diffuse G: 0 → 9");
    g_assert_nonnull (changes);
    g_assert_true (gtk_widget_get_visible (changes));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (changes)), ==, "phase 2 diffuse G: 0 → 9");
  }
  {
    MatMaterialDiff *material_diff = mat_compare_view_get_material_diff (f.view);
    int group = find_row (material_diff, MAT_MATERIAL_DIFF_ROW_GROUP, 2, MAT0_GROUP_DIFFUSE);

    g_assert_true (mat_material_diff_get_row_differs (material_diff, group));
    /* into this library only: the other one is a reference */
    g_assert_true (mat_material_diff_get_row_copyable (material_diff, group, 1));
    g_assert_false (mat_material_diff_get_row_copyable (material_diff, group, 0));
  }

  win_close (&f);
  remove_tree (dir);
}

/* ---- screenshots of the window -------------------------------------------- */

static void
shoot_window (WinFixture *f,
              const char *name)
{
  g_autofree char *file = NULL;
  const char *language = g_getenv ("LANGUAGE");

  file = g_strdup_printf ("%s-%s-%dx%d.png", name,
                          language != NULL && *language != '\0' ? language : "en",
                          gtk_widget_get_width (GTK_WIDGET (f->window)),
                          gtk_widget_get_height (GTK_WIDGET (f->window)));
  ui_spin_ms (300);
  ui_screenshot (GTK_WIDGET (f->window), file);
}

typedef struct {
  GtkWidget *widget;
  int        width;
  int        height;
} SizeWanted;

static gboolean
has_size (gpointer data)
{
  SizeWanted *wanted = data;

  return gtk_widget_get_width (wanted->widget) == wanted->width &&
         gtk_widget_get_height (wanted->widget) == wanted->height;
}

static void
test_window_screenshots (void)
{
  static const int sizes[][2] = { { 1100, 720 }, { 1280, 800 } };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      WinFixture f = { 0 };
      g_autofree char *dir = NULL;
      MatLibraryDiff *diff;
      guint position;
      const char *textures_path = g_getenv ("DEMO_TEXTURES");

      f.original = ui_demo_bytes ();
      f.lib = ui_library_new (f.original);
      edit_library (f.lib);
      g_assert_true (mat_material_set_attr1 (ui_find_material (f.lib, "COLOR_CYCLE"), 0x08, NULL));
      win_open (&f, sizes[i][0], sizes[i][1]);
      if (textures_path != NULL && *textures_path != '\0')
        {
          g_autoptr(GBytes) bytes = test_load_file (textures_path);
          g_autoptr(MatTextureLibrary) textures = mat_texture_library_new_from_bytes (bytes, NULL);

          mat_compare_view_set_textures (f.view, textures);
        }
      /* the default size counts the frame the window draws itself: make
       * the window's own size the one asked for */
      {
        SizeWanted wanted = { GTK_WIDGET (f.window), sizes[i][0], sizes[i][1] };
        int frame_w = sizes[i][0] - gtk_widget_get_width (GTK_WIDGET (f.window));
        int frame_h = sizes[i][1] - gtk_widget_get_height (GTK_WIDGET (f.window));
        GdkRectangle screen;

        gdk_monitor_get_geometry (gdk_display_get_monitor_at_surface (gtk_widget_get_display (GTK_WIDGET (f.window)),
                                                                      gtk_native_get_surface (GTK_NATIVE (f.window))),
                                  &screen);
        gtk_window_set_default_size (GTK_WINDOW (f.window), sizes[i][0] + frame_w, sizes[i][1] + frame_h);
        ui_wait_for (has_size, &wanted, 10);
        /* a screen too small for the window and its frame gets what fits */
        if (screen.width >= sizes[i][0] + 2 * frame_w && screen.height >= sizes[i][1] + 2 * frame_h)
          g_assert_true (has_size (&wanted));
        else
          g_test_message ("the screen (%dx%d) holds %dx%d of %dx%d", screen.width, screen.height,
                          gtk_widget_get_width (GTK_WIDGET (f.window)),
                          gtk_widget_get_height (GTK_WIDGET (f.window)), sizes[i][0], sizes[i][1]);
      }

      diff = mat_compare_window_get_library_diff (f.window);
      open_other (&f, diff, &dir);

      /* the library diff, every row, then changed only */
      gtk_widget_activate_action (GTK_WIDGET (f.window), "win.show-page", "s", "libraries");
      shoot_window (&f, "compare-libraries");
      mat_library_diff_set_changed_only (diff, TRUE);
      shoot_window (&f, "compare-libraries-changed");

      /* whole materials: the original COLOR_CYCLE against this one */
      row_named (diff, "COLOR_CYCLE", &position);
      gtk_widget_activate_action (GTK_WIDGET (diff), "library-diff.compare", "u", position);
      shoot_window (&f, "compare-materials");
      mat_material_diff_set_differences_only (mat_compare_view_get_material_diff (f.view), TRUE);
      shoot_window (&f, "compare-materials-differences");

      /* the shown phases */
      mat_compare_view_set_material (f.view, ui_find_material (f.lib, "COLOR_CYCLE"));
      mat_compare_view_set_page (f.view, "fields");
      shoot_window (&f, "compare-fields");

      win_close (&f);
      remove_tree (dir);
    }
}

/* ---- layout: the library diff's columns, numbers and their units ------------ */

/* The x of every name on screen in the library diff's list, in the
 * list's coordinates, is @x (the first one's when @x < 0); returns it. */
static double
assert_names_line_up (MatLibraryDiff *diff,
                      double          x,
                      guint          *n_rows)
{
  GtkWidget *list = mat_library_diff_get_test_widget (diff, "list");
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  ui_collect_by_css_class (list, "diff-name", names);
  *n_rows = 0;
  for (guint i = 0; i < names->len; i++)
    {
      GtkWidget *name = names->pdata[i];
      graphene_point_t at;

      if (!gtk_widget_get_mapped (name))
        continue;
      g_assert_true (gtk_widget_compute_point (name, list, &GRAPHENE_POINT_INIT (0, 0), &at));
      g_test_message ("%s at x %.1f", gtk_label_get_text (GTK_LABEL (name)), (double) at.x);
      if (x < 0)
        x = at.x;
      g_assert_cmpfloat_with_epsilon (at.x, x, 0.5);
      (*n_rows)++;
    }
  return x;
}

static gboolean
rows_laid_out (gpointer data)
{
  MatLibraryDiff *diff = data;
  GtkWidget *row = shown_row (diff, "COLOR_CYCLE");

  return row != NULL && gtk_widget_get_width (row) > 0;
}

/* Whatever the language's words for "Same", "Removed", "Changed" and
 * "Added", the names after the badges start at one x in every row. */
static void
test_library_diff_columns (void)
{
  WinFixture f = { 0 };
  g_autofree char *dir = NULL;
  MatLibraryDiff *diff;
  double x;
  guint n_rows;

  f.original = ui_demo_bytes ();
  f.lib = ui_library_new (f.original);
  edit_library (f.lib);
  win_open (&f, 1100, 720);
  diff = mat_compare_window_get_library_diff (f.window);
  open_other (&f, diff, &dir);
  gtk_widget_activate_action (GTK_WIDGET (f.window), "win.show-page", "s", "libraries");
  g_assert_true (ui_wait_for (rows_laid_out, diff, 10));
  ui_spin_ms (50);

  /* every row: the same ones, then removed and changed among them */
  x = assert_names_line_up (diff, -1, &n_rows);
  g_assert_cmpuint (n_rows, >=, 6);
  g_assert_nonnull (shown_row (diff, "GLOW_PULSE"));
  /* changed only: removed, changed and added */
  mat_library_diff_set_changed_only (diff, TRUE);
  g_assert_true (ui_wait_for (rows_laid_out, diff, 10));
  ui_spin_ms (50);
  assert_names_line_up (diff, x, &n_rows);
  g_assert_cmpuint (n_rows, ==, 3);
  g_assert_nonnull (shown_row (diff, "NEW_ONE"));

  win_close (&f);
  remove_tree (dir);
}

/* Adds the text of every label under @widget to @texts, but for the
 * previews' own read-outs. */
static void
collect_texts (GtkWidget *widget,
               GPtrArray *texts)
{
  if (MAT_IS_PREVIEW (widget))
    return;
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (texts, (gpointer) gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_texts (child, texts);
}

/* A number and its unit stay together: every text of the Compare window
 * that puts a unit after a number has a no-break space (U+00A0 or
 * U+202F) between them, on both pages, with blocks playing and a change
 * in ms listed. (The previews' read-outs are the previews' own.) */
static void
test_window_units (void)
{
  WinFixture f = { 0 };
  g_autofree char *dir = NULL;
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  g_autoptr(GRegex) plain = NULL;
  g_autoptr(GRegex) joined = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MatKey) key = NULL;
  g_autoptr(MatAnimBlock) block = NULL;
  MatLibraryDiff *diff;
  MatLibraryDiffRow *row;
  guint position, n_joined = 0, n_ms = 0, n_percent = 0, n_seconds = 0;
  /* a count's noun, but not a name and its number ("block 0 key 1") */
  const char *units = "(ms|s|%|мс|с|(?:keys?|phases?|blocks?|bytes?|ключ[а-яё]*|фаз[а-яё]*|блок[а-яё]*|байт[а-яё]*)(?! ?[0-9]))(?![\\p{L}])";
  g_autofree char *plain_re = g_strconcat ("[0-9] ", units, NULL);
  g_autofree char *joined_re = g_strconcat ("[0-9][\\x{00A0}\\x{202F}]", units, NULL);

  plain = g_regex_new (plain_re, 0, 0, &error);
  g_assert_no_error (error);
  joined = g_regex_new (joined_re, 0, 0, &error);
  g_assert_no_error (error);

  f.original = ui_demo_bytes ();
  f.lib = ui_library_new (f.original);
  edit_library (f.lib);
  /* COLOR_CYCLE's key 1 ends 100 ms later: a change in ms */
  block = g_list_model_get_item (mat_material_get_blocks (ui_find_material (f.lib, "COLOR_CYCLE")), 0);
  key = g_list_model_get_item (mat_anim_block_get_keys (block), 1);
  g_assert_true (mat_key_set_k1 (key, mat_key_get_k1 (key) + 100, &error));
  g_assert_no_error (error);
  win_open (&f, 1100, 720);
  diff = mat_compare_window_get_library_diff (f.window);
  open_other (&f, diff, &dir);
  gtk_widget_activate_action (GTK_WIDGET (f.window), "win.show-page", "s", "libraries");
  mat_library_diff_set_changed_only (diff, TRUE);
  g_assert_true (ui_wait_for (rows_laid_out, diff, 10));

  /* whole materials (blocks and keys), then block 0 of each playing */
  row = row_named (diff, "COLOR_CYCLE", &position);
  g_test_message ("COLOR_CYCLE: %s", mat_library_diff_row_get_changes (row));
  g_assert_true (g_regex_match (joined, mat_library_diff_row_get_changes (row), 0, NULL));
  gtk_widget_activate_action (GTK_WIDGET (diff), "library-diff.compare", "u", position);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_A, mat_library_diff_row_get_theirs (row), 0, 0, 0);
  mat_compare_view_set_slot (f.view, MAT_COMPARE_SLOT_B, mat_library_diff_row_get_mine (row), 0, 0, 250);
  mat_compare_view_set_time (f.view, 400);
  ui_spin_ms (100);

  collect_texts (GTK_WIDGET (f.window), texts);
  g_assert_cmpuint (texts->len, >, 50);
  for (guint i = 0; i < texts->len; i++)
    {
      const char *text = texts->pdata[i];
      g_autoptr(GMatchInfo) match = NULL;

      if (g_regex_match (plain, text, 0, &match))
        g_error ("a plain space between a number and its unit: \"%s\"", text);
      g_clear_pointer (&match, g_match_info_unref);
      for (g_regex_match (joined, text, 0, &match); g_match_info_matches (match);
           g_match_info_next (match, NULL))
        {
          g_autofree char *unit = g_match_info_fetch (match, 1);

          n_joined++;
          if (g_str_equal (unit, "ms") || g_str_equal (unit, "мс"))
            n_ms++;
          else if (g_str_equal (unit, "%"))
            n_percent++;
          else if (g_str_equal (unit, "s") || g_str_equal (unit, "с"))
            n_seconds++;
        }
    }
  g_test_message ("%u numbers with their units, %u in ms, %u in %%, %u in s",
                  n_joined, n_ms, n_percent, n_seconds);
  /* the time scale, the blocks' cycles, the keys, the changed time, the opacity */
  g_assert_cmpuint (n_ms, >=, 5);
  g_assert_cmpuint (n_percent, >=, 2);
  g_assert_cmpuint (n_seconds, >=, 2);

  win_close (&f);
  remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  const char *language = g_getenv ("LANGUAGE");

  /* LANGUAGE=ru: the screenshots in Russian, from the catalogues built here */
  if (language != NULL && *language != '\0')
    {
      setlocale (LC_ALL, "");
      mat_application_bind_text_domain ();
      textdomain (GETTEXT_PACKAGE);
    }
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/compare/phases/diff", test_phases_diff);
  g_test_add_func ("/compare/phases/swap", test_phases_swap);
  g_test_add_func ("/compare/phases/copy", test_phases_copy);
  g_test_add_func ("/compare/labels", test_labels);
  g_test_add_func ("/compare/libraries", test_two_libraries);
  g_test_add_func ("/compare/time-sync", test_time_sync);
  g_test_add_func ("/compare/follows-model", test_follows_model);
  g_test_add_func ("/compare/screenshot", test_screenshot);
  g_test_add_func ("/compare/material-diff", test_material_diff);
  g_test_add_func ("/compare/material-diff/many-keys", test_material_diff_many_keys);
  g_test_add_func ("/compare/phases/copy-group-phase", test_phase_and_group_copy);
  g_test_add_func ("/compare/window/keys", test_window_keys);
  g_test_add_func ("/compare/window/library-diff", test_library_diff);
  /* what the user sees, run again in Russian (compare-ru) */
  g_test_add_func ("/compare/window/shown/screenshots", test_window_screenshots);
  g_test_add_func ("/compare/window/shown/library-diff-columns", test_library_diff_columns);
  g_test_add_func ("/compare/window/shown/units", test_window_units);

  return g_test_run ();
}
