/* test-phase-table.c - MatPhaseTable driven through its real widgets
 *
 * Runs under Xvfb: a window shows the table for a material of the demo
 * library (DEMO_LIB); the test sets spin buttons, types texture names,
 * activates the phase.* actions and applies colours, then checks the
 * model and the bytes a save would write. The column heads, tooltips and
 * readings are checked against mat0-fields; the cell chooser against the
 * Page table of the demo Textures.lib (DEMO_TEXTURES).
 */
#include "config.h"

#include <string.h>
#include <gtk/gtk.h>

#include <glib/gi18n.h>

#include "mat-library.h"
#include "mat-phase-table-private.h"
#include "mat-texture-library.h"
#include "mat0.h"
#include "mat0-fields.h"
#include "nres.h"
#include "test-support.h"
#include "ui-support.h"

typedef struct {
  MatLibrary    *lib;
  GBytes        *original;
  MatMaterial   *material;
  GtkWindow     *window;
  MatPhaseTable *table;
} Fixture;

static gboolean
rows_ready (gpointer data)
{
  Fixture *f = data;

  return mat_phase_table_get_spin_for_test (f->table, 0, 4) != NULL &&
         gtk_widget_get_mapped (GTK_WIDGET (f->table));
}

static void
fixture_open (Fixture    *f,
              const char *name)
{
  f->original = ui_demo_bytes ();
  f->lib = ui_library_new (f->original);
  f->material = ui_find_material (f->lib, name);

  f->table = MAT_PHASE_TABLE (mat_phase_table_new ());
  g_object_set (f->table, "margin-start", 12, "margin-end", 12,
                "margin-top", 12, "margin-bottom", 12, NULL);
  mat_phase_table_set_material (f->table, f->material);
  g_assert_true (mat_phase_table_get_material (f->table) == f->material);
  f->window = ui_show (GTK_WIDGET (f->table), NULL, 1280, 360);
  g_assert_true (ui_wait_for (rows_ready, f, 5));
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (f->window);
  ui_spin_ms (20);
  g_clear_object (&f->lib);
  g_clear_pointer (&f->original, g_bytes_unref);
}

static MatHistory *
history_of (Fixture *f)
{
  return mat_library_get_history (f->lib);
}

static gboolean
group_closed (gpointer data)
{
  return !mat_history_in_group (data);
}

/* File offset of the phase records of the shown material: found by
 * their bytes (phases 0 and 1 together are unique in the demo). */
static gsize
phase_records_offset (Fixture *f)
{
  guint8 pattern[2 * MAT0_PHASE_SIZE];
  gsize size;
  const guint8 *data = g_bytes_get_data (f->original, &size);
  const guint8 *hit = NULL;

  for (guint i = 0; i < 2; i++)
    {
      MatPhase *phase = ui_phase_at (f->material, i);

      memcpy (pattern + i * MAT0_PHASE_SIZE, mat_phase_get_params (phase), MAT0_PARAM_COUNT);
      memcpy (pattern + i * MAT0_PHASE_SIZE + MAT0_PARAM_COUNT,
              mat_phase_get_texture_raw (phase), MAT0_TEXTURE_SIZE);
    }
  for (gsize i = 0; i + sizeof pattern <= size; i++)
    if (memcmp (data + i, pattern, sizeof pattern) == 0)
      {
        g_assert_null (hit);
        hit = data + i;
      }
  g_assert_nonnull (hit);
  return (gsize) (hit - data);
}

/* What Enter does: the inner GtkText of an entry or spin activates. */
static void
press_enter (gpointer widget)
{
  GtkWidget *text = ui_find_by_type (widget, GTK_TYPE_TEXT);

  g_assert_nonnull (text);
  g_signal_emit_by_name (text, "activate");
}

static void
test_spin (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) undone = NULL;
  GtkSpinButton *spin;
  MatPhase *phase;
  guint n_undo;
  gsize offset, first;

  fixture_open (&f, "COLOR_CYCLE");
  phase = ui_phase_at (f.material, 1);
  offset = phase_records_offset (&f) + MAT0_PHASE_SIZE + 5;
  g_assert_cmpuint (mat_phase_get_param (phase, 5), ==, 255);

  spin = mat_phase_table_get_spin_for_test (f.table, 1, 5);
  g_assert_nonnull (spin);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (spin)));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 255);

  /* A gesture (three steps of a held button) is one undo step. */
  n_undo = mat_history_get_n_undo (history_of (&f));
  gtk_spin_button_set_value (spin, 200);
  g_assert_cmpuint (mat_phase_get_param (phase, 5), ==, 200);
  gtk_spin_button_set_value (spin, 150);
  gtk_spin_button_set_value (spin, 79);
  g_assert_cmpuint (mat_phase_get_param (phase, 5), ==, 79);
  g_assert_true (ui_wait_for (group_closed, history_of (&f), 5));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 1);

  after = ui_library_save (f.lib);
  g_assert_cmpuint (ui_count_byte_differences (f.original, after, &first), ==, 1);
  g_assert_cmpuint (first, ==, offset);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (after, NULL))[offset], ==, 79);

  /* Undo restores the model, the spin follows it. */
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpuint (mat_phase_get_param (phase, 5), ==, 255);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 255);
  undone = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (undone, f.original));

  /* Keyboard: type a number, Enter. One step, the group closes at once. */
  n_undo = mat_history_get_n_undo (history_of (&f));
  gtk_widget_grab_focus (GTK_WIDGET (spin));
  gtk_editable_set_text (GTK_EDITABLE (spin), "42");
  press_enter (spin);
  g_assert_cmpuint (mat_phase_get_param (phase, 5), ==, 42);
  g_assert_false (mat_history_in_group (history_of (&f)));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 1);

  /* The model drives the cell: a change from elsewhere shows up. */
  g_assert_true (mat_phase_set_param (phase, 5, 7, NULL));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 7);

  /* p17 and its reading. */
  spin = mat_phase_table_get_spin_for_test (f.table, 0, 17);
  g_assert_nonnull (spin);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 255);

  fixture_close (&f);
}

static void
test_texture (void)
{
  static const char *const invalid[] = {
    "NODOT",                   /* the dot rule */
    "VERY_LONG_NAME.0",        /* 16 bytes: one too many */
    "漢.0",                    /* not in CP1251 */
  };
  Fixture f = { 0 };
  g_autoptr(GBytes) after = NULL;
  GtkEntry *entry;
  MatPhase *phase;
  guint n_undo;

  fixture_open (&f, "COLOR_CYCLE");
  phase = ui_phase_at (f.material, 0);
  entry = mat_phase_table_get_texture_for_test (f.table, 0);
  g_assert_nonnull (entry);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  n_undo = mat_history_get_n_undo (history_of (&f));

  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      gtk_widget_grab_focus (GTK_WIDGET (entry));
      gtk_editable_set_text (GTK_EDITABLE (entry), invalid[i]);
      g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
      g_assert_nonnull (gtk_widget_get_tooltip_text (GTK_WIDGET (entry)));
      g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (entry)), "Not written"));
      press_enter (entry);
      g_assert_cmpstr (mat_phase_get_texture (phase), ==, "");
      g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo);
    }
  /* 15 bytes fit; so do the Cyrillic letters of CP1251. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "VERY_LONG_NAM.0");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  gtk_editable_set_text (GTK_EDITABLE (entry), "БРОНЯ.0");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));

  /* A valid name is written on Enter, one step. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "LAVA.A");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "warning"));
  press_enter (entry);
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "LAVA.A");
  g_assert_true (mat_phase_get_textured (phase));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 1);

  /* p17 = 255 reads as -1, the whole texture, now that it is textured. */
  g_assert_cmpint ((gint8) mat_phase_get_param (phase, 17), ==, -1);

  /* A palette suffix past the bank is a lint: written, with a warning. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "BAD._9");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (entry), "warning"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  press_enter (entry);
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "BAD._9");

  /* Empty: untextured. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  press_enter (entry);
  g_assert_false (mat_phase_get_textured (phase));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 3);

  /* Undo brings the name back into the entry. */
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "BAD._9");
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
  after = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (after, f.original));

  /* Invalid text, then the model's name again: the error goes. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "NODOT");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  gtk_editable_set_text (GTK_EDITABLE (entry), mat_phase_get_texture (phase));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));

  fixture_close (&f);
}

static guint16
key_k0 (MatMaterial *material,
        guint        key)
{
  g_autoptr(MatAnimBlock) block = g_list_model_get_item (mat_material_get_blocks (material), 0);
  g_autoptr(MatKey) k = g_list_model_get_item (mat_anim_block_get_keys (block), key);

  return mat_key_get_k0 (k);
}

static void
assert_keys (MatMaterial *material,
             guint16      k0,
             guint16      k1,
             guint16      k2,
             guint16      k3)
{
  g_assert_cmpuint (key_k0 (material, 0), ==, k0);
  g_assert_cmpuint (key_k0 (material, 1), ==, k1);
  g_assert_cmpuint (key_k0 (material, 2), ==, k2);
  g_assert_cmpuint (key_k0 (material, 3), ==, k3);
}

static gboolean
is_action_button (GtkWidget     *widget,
                  gconstpointer  action)
{
  return GTK_IS_BUTTON (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0;
}

/* Whether the toolbar button of @action is sensitive (follows the
 * action's enabled state). */
static gboolean
action_enabled (Fixture    *f,
                const char *action)
{
  GtkWidget *button = ui_find_widget (GTK_WIDGET (f->table), is_action_button, action);

  g_assert_nonnull (button);
  return gtk_widget_get_sensitive (button);
}

static void
test_actions (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) after = NULL;
  GListModel *phases;
  MatPhase *a, *b, *c, *d;

  fixture_open (&f, "COLOR_CYCLE");
  phases = mat_material_get_phases (f.material);
  a = ui_phase_at (f.material, 0);
  b = ui_phase_at (f.material, 1);
  c = ui_phase_at (f.material, 2);
  d = ui_phase_at (f.material, 3);
  assert_keys (f.material, 0, 1, 2, 3);

  mat_phase_table_set_selected (f.table, 0);
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 0);
  g_assert_true (action_enabled (&f, "phase.add"));
  g_assert_true (action_enabled (&f, "phase.duplicate"));
  g_assert_true (action_enabled (&f, "phase.remove"));
  g_assert_false (action_enabled (&f, "phase.move-up"));
  g_assert_true (action_enabled (&f, "phase.move-down"));

  /* move-down: [b a c d], keys follow, the selection too. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.table), "phase.move-down", NULL));
  g_assert_true (ui_phase_at (f.material, 0) == b);
  g_assert_true (ui_phase_at (f.material, 1) == a);
  assert_keys (f.material, 1, 0, 2, 3);
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 1);
  g_assert_true (action_enabled (&f, "phase.move-up"));

  /* duplicate a: [b a a' c d] */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.table), "phase.duplicate", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (phases), ==, 5);
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 2);
  g_assert_true (ui_phase_at (f.material, 2) != a);
  g_assert_cmpmem (mat_phase_get_params (ui_phase_at (f.material, 2)), MAT0_PARAM_COUNT,
                   mat_phase_get_params (a), MAT0_PARAM_COUNT);
  g_assert_true (ui_phase_at (f.material, 3) == c);
  assert_keys (f.material, 1, 0, 3, 4);

  /* remove a': [b a c d], the selection stays at the row's place (c) */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.table), "phase.remove", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (phases), ==, 4);
  assert_keys (f.material, 1, 0, 2, 3);
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 2);
  g_assert_true (ui_phase_at (f.material, 2) == c);

  /* add after c: [b a c new d] */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.table), "phase.add", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (phases), ==, 5);
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 3);
  g_assert_true (ui_phase_at (f.material, 4) == d);
  assert_keys (f.material, 1, 0, 2, 4);

  /* move-up of the new phase: [b a new c d] */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.table), "phase.move-up", NULL));
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 2);
  g_assert_true (ui_phase_at (f.material, 3) == c);
  assert_keys (f.material, 1, 0, 3, 4);

  /* The last row cannot move down. */
  mat_phase_table_set_selected (f.table, 4);
  g_assert_false (action_enabled (&f, "phase.move-down"));
  g_assert_true (action_enabled (&f, "phase.move-up"));

  /* The table's rows follow: the index cells show the new order. */
  ui_spin_ms (50);
  g_assert_nonnull (mat_phase_table_get_spin_for_test (f.table, 4, 0));

  /* Undo everything: the bytes are the original ones. */
  while (mat_history_undo (history_of (&f)))
    ;
  assert_keys (f.material, 0, 1, 2, 3);
  g_assert_true (ui_phase_at (f.material, 0) == a);
  g_assert_true (ui_phase_at (f.material, 1) == b);
  after = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (after, f.original));

  /* Removing down to one phase disables remove. */
  for (guint i = 0; i < 3; i++)
    {
      mat_phase_table_set_selected (f.table, 0);
      g_assert_true (action_enabled (&f, "phase.remove"));
      gtk_widget_activate_action (GTK_WIDGET (f.table), "phase.remove", NULL);
    }
  g_assert_cmpuint (g_list_model_get_n_items (phases), ==, 1);
  g_assert_false (action_enabled (&f, "phase.remove"));
  g_assert_false (action_enabled (&f, "phase.move-up"));
  g_assert_false (action_enabled (&f, "phase.move-down"));
  g_assert_true (action_enabled (&f, "phase.duplicate"));
  gtk_widget_activate_action (GTK_WIDGET (f.table), "phase.remove", NULL);
  g_assert_cmpuint (g_list_model_get_n_items (phases), ==, 1);

  fixture_close (&f);
}

static void
test_colour (void)
{
  Fixture f = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) undone = NULL;
  const GdkRGBA diffuse = { 0.5f, 0.25f, 1.0f, 0.5f };
  const GdkRGBA ambient = { 1.0f, 0.0f, 0.2f, 0.37f };
  guint8 before[MAT0_PARAM_COUNT];
  const guint8 *p;
  const guint8 *data;
  MatPhase *phase;
  GdkRGBA shown;
  guint n_undo;
  gsize base, first, size;

  fixture_open (&f, "COLOR_CYCLE");
  phase = ui_phase_at (f.material, 0);
  base = phase_records_offset (&f);
  memcpy (before, mat_phase_get_params (phase), sizeof before);
  n_undo = mat_history_get_n_undo (history_of (&f));
  g_assert_nonnull (mat_phase_table_get_swatch_for_test (f.table, 0, MAT_PHASE_COLOUR_DIFFUSE));

  /* Diffuse p4..p7: 128, 64, 255, 128; one step. */
  g_assert_true (mat_phase_table_apply_colour (f.table, 0, MAT_PHASE_COLOUR_DIFFUSE, &diffuse, &error));
  g_assert_no_error (error);
  p = mat_phase_get_params (phase);
  g_assert_cmpuint (p[4], ==, 128);
  g_assert_cmpuint (p[5], ==, 64);
  g_assert_cmpuint (p[6], ==, 255);
  g_assert_cmpuint (p[7], ==, 128);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 1);
  after = ui_library_save (f.lib);
  data = g_bytes_get_data (after, &size);
  /* before: 255, 0, 0, 255 -> all four change */
  g_assert_cmpuint (ui_count_byte_differences (f.original, after, &first), ==, 4);
  g_assert_cmpuint (first, ==, base + 4);
  g_assert_cmpmem (data + base + 4, 4, ((const guint8[]) { 128, 64, 255, 128 }), 4);
  mat_phase_colour_to_rgba (p, MAT_PHASE_COLOUR_DIFFUSE, &shown);
  g_assert_cmpfloat_with_epsilon (shown.green, 64 / 255.f, 1e-6);

  /* One undo restores all four bytes. */
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpmem (mat_phase_get_params (phase), MAT0_PARAM_COUNT, before, MAT0_PARAM_COUNT);
  undone = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (undone, f.original));

  /* Ambient: p0..p2 / 255, p3 = alpha * 100 (before: 80, 0, 0, 100). */
  g_assert_true (mat_phase_table_apply_colour (f.table, 0, MAT_PHASE_COLOUR_AMBIENT, &ambient, &error));
  g_assert_no_error (error);
  p = mat_phase_get_params (phase);
  g_assert_cmpuint (p[0], ==, 255);
  g_assert_cmpuint (p[1], ==, 0);
  g_assert_cmpuint (p[2], ==, 51);
  g_assert_cmpuint (p[3], ==, 37);
  g_assert_cmpmem (p + 4, MAT0_PARAM_COUNT - 4, before + 4, MAT0_PARAM_COUNT - 4);
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpmem (mat_phase_get_params (phase), MAT0_PARAM_COUNT, before, MAT0_PARAM_COUNT);

  /* Ambient alpha above 1.0 (p3 = 200) survives a colour that keeps it. */
  g_assert_true (mat_phase_set_param (phase, 3, 200, NULL));
  mat_phase_colour_to_rgba (mat_phase_get_params (phase), MAT_PHASE_COLOUR_AMBIENT, &shown);
  g_assert_cmpfloat (shown.alpha, ==, 1.0f);
  shown.red = 0.0f;
  g_assert_true (mat_phase_table_apply_colour (f.table, 0, MAT_PHASE_COLOUR_AMBIENT, &shown, &error));
  g_assert_cmpuint (mat_phase_get_param (phase, 0), ==, 0);
  g_assert_cmpuint (mat_phase_get_param (phase, 3), ==, 200);

  fixture_close (&f);
}

static gboolean
has_css_name (GtkWidget     *widget,
              gconstpointer  name)
{
  return g_strcmp0 (gtk_widget_get_css_name (widget), name) == 0;
}

/* The column heads in order, from the table: index, the four colour
 * groups, the texture, p17 (its cell), p3 (opacity), p16, the other
 * colour bytes. */
static void
test_headers (void)
{
  Fixture f = { 0 };
  GtkColumnView *column_view;
  GListModel *columns;
  GtkWidget *header, *head;
  const char *legend;
  guint params[MAT0_N_PARAMS], n_params = 0, n;

  fixture_open (&f, "COLOR_CYCLE");
  column_view = GTK_COLUMN_VIEW (ui_find_by_type (GTK_WIDGET (f.table), GTK_TYPE_COLUMN_VIEW));
  g_assert_nonnull (column_view);
  columns = gtk_column_view_get_columns (column_view);
  header = ui_find_widget (GTK_WIDGET (f.table), has_css_name, "header");
  g_assert_nonnull (header);
  n = g_list_model_get_n_items (columns);
  /* index, 4 swatches, texture, cell, opacity, power, 15 colour bytes */
  g_assert_cmpuint (n, ==, 1 + 4 + 3 + 1 + 15);

  /* The table itself names the ambient colour the self-light and marks
   * what the game never draws. */
  g_assert_cmpstr (mat0_fields_group (MAT0_GROUP_SELF_LIGHT)->label, ==, "Self-light");
  g_assert_cmpstr (mat0_fields_param (3)->short_label, ==, "Opacity %");
  g_assert_cmpstr (mat0_fields_param (17)->short_label, ==, "Cell");
  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    g_assert_cmpint (mat0_fields_param (i)->drawn, ==,
                     !(i == 7 || i == 11 || (i >= 12 && i <= 15)));

  head = gtk_widget_get_first_child (header);
  for (guint c = 0; c < n; c++, head = gtk_widget_get_next_sibling (head))
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);
      const char *title = gtk_column_view_column_get_title (column);
      const char *tip;
      g_autofree char *expected = NULL;
      gboolean drawn = TRUE;

      g_assert_nonnull (head);
      tip = gtk_widget_get_tooltip_text (head);
      g_assert_nonnull (tip);
      if (c >= 1 && c <= 4)
        {
          const Mat0GroupField *group = mat0_fields_group ((Mat0ColourGroup) (c - 1));

          expected = g_strdup_printf ("%s\np%u–p%u", _(group->label), group->bytes[0], group->bytes[3]);
          g_assert_cmpstr (title, ==, expected);
          g_assert_true (g_str_has_prefix (tip, _(group->meaning)));
          drawn = group->drawn;
        }
      else if (c == 5)
        {
          g_assert_cmpstr (title, ==, _(mat0_fields_texture_label ()));
          g_assert_cmpstr (tip, ==, _(mat0_fields_texture_meaning ()));
        }
      else if (c > 4)
        {
          guint byte = c == 6 ? 17 : c == 7 ? 3 : c == 8 ? 16 : c - 9 < 3 ? c - 9 : c - 8;
          const Mat0ParamField *field = mat0_fields_param (byte);
          GtkSpinButton *spin = mat_phase_table_get_spin_for_test (f.table, 0, byte);

          expected = g_strdup_printf ("%s\np%u", _(field->short_label), byte);
          g_assert_cmpstr (title, ==, expected);
          g_assert_cmpstr (tip, ==, _(field->meaning));
          drawn = field->drawn;
          /* the cells are dimmed like their head */
          g_assert_nonnull (spin);
          g_assert_cmpint (gtk_widget_has_css_class (GTK_WIDGET (spin), "not-drawn"), ==, !drawn);
          g_assert_cmpuint (n_params, <, MAT0_N_PARAMS);
          params[n_params++] = byte;
        }
      g_assert_cmpint (gtk_widget_has_css_class (head, "not-drawn"), ==, !drawn);
    }
  g_assert_null (head);

  /* every byte has its column, once */
  g_assert_cmpuint (n_params, ==, MAT0_N_PARAMS);
  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    {
      guint seen = 0;

      for (guint k = 0; k < n_params; k++)
        seen += params[k] == i;
      g_assert_cmpuint (seen, ==, 1);
    }

  /* the emissive swatch is dimmed too */
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (mat_phase_table_get_swatch_for_test (f.table, 0, MAT_PHASE_COLOUR_EMISSIVE)),
                                           "not-drawn"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (mat_phase_table_get_swatch_for_test (f.table, 0, MAT_PHASE_COLOUR_AMBIENT)),
                                            "not-drawn"));

  /* the legend says what the dimming means */
  legend = gtk_label_get_text (mat_phase_table_get_legend_for_test (f.table));
  g_assert_nonnull (strstr (legend, _(mat0_fields_not_drawn_note ())));
  g_assert_nonnull (strstr (legend, "p7, p11–p15"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (mat_phase_table_get_legend_for_test (f.table))));

  fixture_close (&f);
}

/* p3 reads as the opacity in per cent, beside the byte; over 100 is a
 * lint. */
static void
test_opacity (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) undone = NULL;
  GtkSpinButton *spin;
  GtkLabel *opacity;
  MatPhase *phase;

  fixture_open (&f, "COLOR_CYCLE");
  phase = ui_phase_at (f.material, 0);
  g_assert_cmpuint (mat_phase_get_param (phase, 3), ==, 100);
  spin = mat_phase_table_get_spin_for_test (f.table, 0, 3);
  opacity = mat_phase_table_get_opacity_for_test (f.table, 0);
  g_assert_nonnull (spin);
  g_assert_nonnull (opacity);
  /* the raw byte and its reading side by side */
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 100);
  g_assert_cmpstr (gtk_label_get_text (opacity), ==, "100 %");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (opacity), "warning"));

  gtk_widget_grab_focus (GTK_WIDGET (spin));
  gtk_editable_set_text (GTK_EDITABLE (spin), "37");
  press_enter (spin);
  g_assert_cmpuint (mat_phase_get_param (phase, 3), ==, 37);
  g_assert_cmpstr (gtk_label_get_text (opacity), ==, "37 %");

  /* over 100: shown as stored, marked as the lint */
  g_assert_true (mat_phase_set_param (phase, 3, 150, NULL));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 150);
  g_assert_cmpstr (gtk_label_get_text (opacity), ==, "150 % (over 100 %)");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (opacity), "warning"));
  g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (GTK_WIDGET (opacity)), "Lint: p3 = 150"));

  /* the self-light swatch gives the opacity too */
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (mat_phase_table_get_swatch_for_test (f.table, 0, MAT_PHASE_COLOUR_AMBIENT))),
                            "Self-light: p0–p2 = 80, 0, 0 (red, green, blue); p3 = 150, opacity 150 % (over 100 %)"));

  while (mat_history_undo (history_of (&f)))
    ;
  g_assert_cmpstr (gtk_label_get_text (opacity), ==, "100 %");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (opacity), "warning"));
  undone = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (undone, f.original));

  fixture_close (&f);
}

static MatTextureLibrary *
demo_textures (void)
{
  g_autoptr(GBytes) bytes = test_load_file (ui_need_env ("DEMO_TEXTURES"));
  g_autoptr(GError) error = NULL;
  MatTextureLibrary *textures = mat_texture_library_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  return textures;
}

static const char *
chooser_text (GtkDropDown *chooser,
              guint        position)
{
  g_autoptr(GtkStringObject) item = g_list_model_get_item (gtk_drop_down_get_model (chooser), position);

  g_assert_nonnull (item);
  return gtk_string_object_get_string (item);
}

static gboolean
chooser_popped_up (gpointer data)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();
  GtkWidget *popover = ui_find_by_type (data, GTK_TYPE_POPOVER);

  if (popover == NULL || !gtk_widget_get_mapped (popover))
    return FALSE;
  ui_collect_by_css_class (data, "cell-thumbnail", found);
  return found->len > 0;
}

/* p17 as a cell chooser: the Page rectangles of the phase's texture in
 * the demo Textures.lib; choosing one writes exactly p17, one undo step. */
static void
test_cell_chooser (void)
{
  Fixture f = { 0 };
  g_autoptr(MatTextureLibrary) textures = demo_textures ();
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GPtrArray) thumbnails = g_ptr_array_new ();
  static const gint rects[4][4] = {   /* x, y, w, h of ATLAS.0 (make-textures.c) */
    { 0, 0, 64, 64 }, { 64, 0, 64, 64 }, { 0, 64, 64, 64 }, { 64, 64, 64, 64 },
  };
  MatTexture *atlas = mat_texture_library_lookup (textures, "ATLAS.0");
  const TexmImage *image;
  GtkDropDown *chooser;
  GtkSpinButton *spin;
  MatPhase *phase;
  guint n_undo;
  gsize offset, first;

  g_assert_nonnull (atlas);
  image = mat_texture_get_image (atlas);
  g_assert_nonnull (image);
  g_assert_true (image->has_page);
  g_assert_cmpuint (image->n_rects, ==, 4);

  fixture_open (&f, "ATLAS_SIGN");
  mat_phase_table_set_textures (f.table, textures);
  phase = ui_phase_at (f.material, 1);
  offset = phase_records_offset (&f) + MAT0_PHASE_SIZE + 17;
  g_assert_cmpuint (mat_phase_get_param (phase, 17), ==, 1);

  chooser = mat_phase_table_get_cell_chooser_for_test (f.table, 1);
  spin = mat_phase_table_get_spin_for_test (f.table, 1, 17);
  g_assert_nonnull (chooser);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (chooser)));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (chooser)), ==, 1 + 4);
  g_assert_cmpstr (chooser_text (chooser, 0), ==, "−1 whole texture");
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *expected = g_strdup_printf ("cell %u: %d,%d %d×%d", i, rects[i][0],
                                                   rects[i][1], rects[i][2], rects[i][3]);

      g_assert_cmpint (image->rects[i].x, ==, rects[i][0]);
      g_assert_cmpint (image->rects[i].y, ==, rects[i][1]);
      g_assert_cmpstr (chooser_text (chooser, i + 1), ==, expected);
    }
  /* the stored cell is the one shown, beside its raw byte */
  g_assert_cmpuint (gtk_drop_down_get_selected (chooser), ==, 2);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 1);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (chooser), "warning"));

  /* The list shows each rectangle cut from the texture. */
  g_signal_emit_by_name (chooser, "activate");
  g_assert_true (ui_wait_for (chooser_popped_up, chooser, 5));
  ui_collect_by_css_class (GTK_WIDGET (chooser), "cell-thumbnail", thumbnails);
  g_assert_cmpuint (thumbnails->len, ==, 5);
  {
    guint width, height;
    g_autoptr(GBytes) rgba = mat_texture_dup_rgba (atlas, 0, &width, &height);
    const guint8 *pixels = g_bytes_get_data (rgba, NULL);
    guint n_compared = 0;

    for (guint i = 0; i < thumbnails->len; i++)
      {
        GdkPaintable *paintable = gtk_image_get_paintable (thumbnails->pdata[i]);
        guint8 *shown;
        gint x = i == 0 ? 0 : rects[i - 1][0], y = i == 0 ? 0 : rects[i - 1][1];
        gint w = i == 0 ? (gint) width : rects[i - 1][2], h = i == 0 ? (gint) height : rects[i - 1][3];

        g_assert_true (GDK_IS_TEXTURE (paintable));
        g_assert_cmpint (gdk_texture_get_width (GDK_TEXTURE (paintable)), ==, w);
        g_assert_cmpint (gdk_texture_get_height (GDK_TEXTURE (paintable)), ==, h);
        shown = g_malloc ((gsize) w * h * 4);
        gdk_texture_download (GDK_TEXTURE (paintable), shown, (gsize) w * 4);
        /* GDK downloads premultiplied B, G, R, A: compare opaque texels */
        for (gint row = 0; row < h; row += 7)
          for (gint col = 0; col < w; col += 5)
            {
              const guint8 *src = pixels + (((gsize) (y + row) * width) + (gsize) (x + col)) * 4;
              const guint8 *dst = shown + ((gsize) row * w + (gsize) col) * 4;

              if (src[3] == 255)
                {
                  g_assert_cmpuint (dst[2], ==, src[0]);
                  g_assert_cmpuint (dst[1], ==, src[1]);
                  g_assert_cmpuint (dst[0], ==, src[2]);
                  n_compared++;
                }
            }
        g_free (shown);
      }
    g_assert_cmpuint (n_compared, >, 100);
  }
  gtk_popover_popdown (GTK_POPOVER (ui_find_by_type (GTK_WIDGET (chooser), GTK_TYPE_POPOVER)));
  ui_spin_ms (50);
  chooser = mat_phase_table_get_cell_chooser_for_test (f.table, 1);
  spin = mat_phase_table_get_spin_for_test (f.table, 1, 17);

  /* Choosing cell 3 writes p17 = 3 and nothing else, as one step. */
  n_undo = mat_history_get_n_undo (history_of (&f));
  gtk_drop_down_set_selected (chooser, 4);
  g_assert_cmpuint (mat_phase_get_param (phase, 17), ==, 3);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 1);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 3);
  after = ui_library_save (f.lib);
  g_assert_cmpuint (ui_count_byte_differences (f.original, after, &first), ==, 1);
  g_assert_cmpuint (first, ==, offset);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (after, NULL))[offset], ==, 3);
  g_clear_pointer (&after, g_bytes_unref);

  /* -1, the whole texture, is the byte 255 */
  gtk_drop_down_set_selected (chooser, 0);
  g_assert_cmpuint (mat_phase_get_param (phase, 17), ==, 255);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 2);

  /* Undo: back to the original bytes, the chooser follows. */
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpuint (mat_phase_get_param (phase, 17), ==, 1);
  g_assert_cmpuint (gtk_drop_down_get_selected (chooser), ==, 2);
  undone = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (undone, f.original));

  /* A cell past the Page table: shown as stored and marked as a lint;
   * choosing another cell writes that one. */
  gtk_spin_button_set_value (spin, 9);
  g_assert_cmpuint (mat_phase_get_param (phase, 17), ==, 9);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (chooser)), ==, 1 + 4 + 1);
  g_assert_cmpstr (chooser_text (chooser, 5), ==, "cell 9: past the Page table");
  g_assert_cmpuint (gtk_drop_down_get_selected (chooser), ==, 5);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (chooser), "warning"));
  g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (GTK_WIDGET (chooser)), "Lint: cell 9"));
  gtk_drop_down_set_selected (chooser, 1);
  g_assert_cmpuint (mat_phase_get_param (phase, 17), ==, 0);
  ui_pump ();   /* the entries change after the choice is done */
  g_assert_cmpuint (gtk_drop_down_get_selected (chooser), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (chooser)), ==, 1 + 4);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (chooser), "warning"));

  /* A negative cell other than -1 is kept and shown. */
  g_assert_true (mat_phase_set_param (phase, 17, 0xFB, NULL));
  g_assert_cmpstr (chooser_text (chooser, 5), ==, "−5 unknown");
  g_assert_cmpuint (gtk_drop_down_get_selected (chooser), ==, 5);
  g_assert_cmpuint (mat_phase_get_param (phase, 17), ==, 0xFB);

  /* Without the texture library the rectangles are unknown. */
  mat_phase_table_set_textures (f.table, NULL);
  g_assert_true (mat_phase_set_param (phase, 17, 2, NULL));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (chooser)), ==, 2);
  g_assert_cmpstr (chooser_text (chooser, 1), ==, "cell 2 (Page table unknown)");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (chooser), "warning"));
  mat_phase_table_set_textures (f.table, textures);
  g_assert_cmpuint (gtk_drop_down_get_selected (chooser), ==, 3);

  /* An untextured phase: -1, whatever the byte holds; nothing to choose. */
  g_assert_true (mat_phase_set_texture (phase, "", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (chooser)), ==, 1);
  g_assert_cmpstr (chooser_text (chooser, 0), ==, "−1 untextured");
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (chooser)));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 2);

  while (mat_history_undo (history_of (&f)))
    ;
  g_clear_pointer (&undone, g_bytes_unref);
  undone = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (undone, f.original));

  fixture_close (&f);
}

#if !GTK_CHECK_VERSION (4, 10, 0)
static gboolean
colour_dialog_shown (gpointer data)
{
  GtkWidget *dialog = ui_find_toplevel (GTK_TYPE_COLOR_CHOOSER_DIALOG);

  return dialog != NULL && gtk_widget_get_mapped (dialog);
}

/* The swatch button opens the chooser with the phase's colour; OK writes
 * the chosen one as one step, Cancel writes nothing. */
static void
test_picker (void)
{
  Fixture f = { 0 };
  const GdkRGBA green = { 0.0f, 1.0f, 0.0f, 1.0f };
  GtkButton *swatch;
  GtkWidget *dialog;
  MatPhase *phase;
  GdkRGBA rgba;
  guint n_undo;

  fixture_open (&f, "COLOR_CYCLE");
  phase = ui_phase_at (f.material, 2);   /* emissive 0, 0, 0, 0 */
  n_undo = mat_history_get_n_undo (history_of (&f));
  swatch = mat_phase_table_get_swatch_for_test (f.table, 2, MAT_PHASE_COLOUR_EMISSIVE);
  g_assert_nonnull (swatch);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (swatch)), "p12–p15 = 0, 0, 0, 0"));

  g_signal_emit_by_name (swatch, "clicked");
  g_assert_true (ui_wait_for (colour_dialog_shown, NULL, 5));
  dialog = ui_find_toplevel (GTK_TYPE_COLOR_CHOOSER_DIALOG);
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (dialog), &rgba);
  g_assert_cmpfloat (rgba.red, ==, 0.0f);
  g_assert_cmpfloat (rgba.alpha, ==, 0.0f);
  g_assert_true (gtk_color_chooser_get_use_alpha (GTK_COLOR_CHOOSER (dialog)));
  gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (dialog), &green);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  ui_spin_ms (30);
  g_assert_null (ui_find_toplevel (GTK_TYPE_COLOR_CHOOSER_DIALOG));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo);

  g_signal_emit_by_name (swatch, "clicked");
  g_assert_true (ui_wait_for (colour_dialog_shown, NULL, 5));
  dialog = ui_find_toplevel (GTK_TYPE_COLOR_CHOOSER_DIALOG);
  gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (dialog), &green);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_OK);
  ui_spin_ms (30);
  g_assert_null (ui_find_toplevel (GTK_TYPE_COLOR_CHOOSER_DIALOG));
  g_assert_cmpmem (mat_phase_get_params (phase) + 12, 4, ((const guint8[]) { 0, 255, 0, 255 }), 4);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 1);
  /* The swatch's tooltip follows the model. */
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (swatch)), "p12–p15 = 0, 255, 0, 255"));

  fixture_close (&f);
}
#endif

static void
test_read_only (void)
{
  static const guint8 texm[32] = { 'T', 'e', 'x', 'm' };
  static const guint8 broken[3] = { 1, 0, 0 };
  const TestEntrySpec specs[] = {
    { NRES_TYPE_TEXM, 0, 0, 0, "SOME_TEXTURE", texm, sizeof texm, 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "BROKEN", broken, sizeof broken, 0 },
  };
  g_autoptr(GBytes) bytes = test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(MatLibrary) lib = mat_library_new_from_bytes (bytes, &error);
  Fixture f = { 0 };

  g_assert_no_error (error);
  f.window = GTK_WINDOW (gtk_window_new ());
  f.table = MAT_PHASE_TABLE (mat_phase_table_new ());
  gtk_window_set_child (f.window, GTK_WIDGET (f.table));
  gtk_window_present (f.window);

  for (guint i = 0; i < 2; i++)
    {
      MatMaterial *m = mat_library_get_material (lib, i);

      g_assert_false (mat_material_get_editable (m));
      mat_phase_table_set_material (f.table, m);
      ui_spin_ms (30);
      g_assert_false (action_enabled (&f, "phase.add"));
      g_assert_false (action_enabled (&f, "phase.duplicate"));
      g_assert_false (action_enabled (&f, "phase.remove"));
      g_assert_false (action_enabled (&f, "phase.move-up"));
      g_assert_false (action_enabled (&f, "phase.move-down"));
      gtk_widget_activate_action (GTK_WIDGET (f.table), "phase.add", NULL);
      g_assert_cmpuint (mat_material_get_n_phases (m), ==, 0);
    }

  /* Back to nothing, then to an editable material of another library. */
  mat_phase_table_set_material (f.table, NULL);
  g_assert_false (action_enabled (&f, "phase.add"));
  gtk_window_destroy (f.window);
  ui_spin_ms (20);
}

static void
test_screenshot (void)
{
  Fixture f = { 0 };
  GtkEntry *entry;

  fixture_open (&f, "LAVA_FLOW");
  mat_phase_table_set_selected (f.table, 1);
  ui_spin_ms (300);
  ui_screenshot (GTK_WIDGET (f.window), "phase-table.png");

  /* The validation styles, for a look (not for the README). */
  entry = mat_phase_table_get_texture_for_test (f.table, 0);
  gtk_editable_set_text (GTK_EDITABLE (entry), "NODOT");
  entry = mat_phase_table_get_texture_for_test (f.table, 2);
  gtk_editable_set_text (GTK_EDITABLE (entry), "BAD._9");
  ui_spin_ms (200);
  ui_screenshot (GTK_WIDGET (f.window), "phase-table-validation.png");

  fixture_close (&f);
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/phase-table/spin", test_spin);
  g_test_add_func ("/ui/phase-table/texture", test_texture);
  g_test_add_func ("/ui/phase-table/actions", test_actions);
  g_test_add_func ("/ui/phase-table/colour", test_colour);
  g_test_add_func ("/ui/phase-table/headers", test_headers);
  g_test_add_func ("/ui/phase-table/opacity", test_opacity);
  g_test_add_func ("/ui/phase-table/cell-chooser", test_cell_chooser);
#if !GTK_CHECK_VERSION (4, 10, 0)
  g_test_add_func ("/ui/phase-table/picker", test_picker);
#endif
  g_test_add_func ("/ui/phase-table/read-only", test_read_only);
  g_test_add_func ("/ui/phase-table/screenshot", test_screenshot);

  return g_test_run ();
}
