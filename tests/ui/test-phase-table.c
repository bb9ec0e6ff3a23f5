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

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include <glib/gi18n.h>

#include <gdk/x11/gdkx.h>
#include <X11/extensions/XTest.h>

#include "mat-application.h"
#include "mat-window.h"

#include "mat-library.h"
#include "mat-phase-table-private.h"
#include "mat-texture-library.h"
#include "mat0.h"
#include "mat0-fields.h"
#include "nres.h"
#include "texm.h"
#include "test-support.h"
#include "ui-screen.h"
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

  return mat_phase_table_get_spin_for_test (f->table, 0, 16) != NULL &&
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

static gboolean
raw_shown (gpointer data)
{
  GtkRevealer *revealer = GTK_REVEALER (ui_find_by_type (data, GTK_TYPE_REVEALER));

  return gtk_revealer_get_child_revealed (revealer) &&
         ui_widget_is_shown (gtk_revealer_get_child (revealer));
}

/* Opens the raw bytes of row @row as a user does: the row selected, then
 * the action of the "Raw Bytes" button. */
static void
show_raw_bytes (Fixture *f,
                guint    row)
{
  mat_phase_table_set_selected (f->table, row);
  g_assert_cmpuint (mat_phase_table_get_selected (f->table), ==, row);
  if (!mat_phase_table_get_show_raw_bytes (f->table))
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->table), "phase.show-raw-bytes", NULL));
  g_assert_true (mat_phase_table_get_show_raw_bytes (f->table));
  g_assert_true (ui_wait_for (raw_shown, f->table, 5));
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
  GObject *raw_grid;
  guint n_undo;
  gsize offset, first;

  fixture_open (&f, "COLOR_CYCLE");
  phase = ui_phase_at (f.material, 1);
  offset = phase_records_offset (&f) + MAT0_PHASE_SIZE + 5;
  g_assert_cmpuint (mat_phase_get_param (phase, 5), ==, 255);

  /* the raw bytes are a detail under the table, closed at first, and
   * not made until first shown */
  g_assert_false (mat_phase_table_get_show_raw_bytes (f.table));
  g_assert_null (mat_phase_table_get_spin_for_test (f.table, 1, 5));
  raw_grid = gtk_widget_get_template_child (GTK_WIDGET (f.table), MAT_TYPE_PHASE_TABLE, "raw_grid");
  g_assert_null (gtk_widget_get_first_child (GTK_WIDGET (raw_grid)));
  show_raw_bytes (&f, 1);
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
  show_raw_bytes (&f, 0);
  spin = mat_phase_table_get_spin_for_test (f.table, 0, 17);
  g_assert_nonnull (spin);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 255);

  fixture_close (&f);
}

static MatTextureLibrary *demo_textures (void);

static void
test_texture (void)
{
  static const char *const invalid[] = {
    "NODOT",                   /* the dot rule */
    "VERY_LONG_NAME.0",        /* 16 bytes: one too many */
    "漢.0",                    /* not in CP1251 */
  };
  static const char *const why[] = {
    "Phase 0: Not written: a texture name needs a “.”",
    "Phase 0: Not written: ",
    "Phase 0: Not written: ",
  };
  Fixture f = { 0 };
  g_autoptr(GBytes) after = NULL;
  GtkWidget *problem;
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
  /* the line under the table that says what is wrong: nothing yet */
  problem = ui_find_by_css_class (GTK_WIDGET (f.table), "texture-problem");
  g_assert_true (GTK_IS_LABEL (problem));
  g_assert_false (gtk_widget_get_visible (problem));

  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      gtk_widget_grab_focus (GTK_WIDGET (entry));
      gtk_editable_set_text (GTK_EDITABLE (entry), invalid[i]);
      g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
      g_assert_nonnull (gtk_widget_get_tooltip_text (GTK_WIDGET (entry)));
      g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (entry)), "Not written"));
      /* not only in the tooltip: in view, in the error style */
      ui_pump ();
      g_assert_true (gtk_widget_get_mapped (problem));
      g_assert_true (gtk_widget_has_css_class (problem, "error"));
      g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (problem)), why[i]));
      press_enter (entry);
      g_assert_cmpstr (mat_phase_get_texture (phase), ==, "");
      g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo);
      g_assert_true (gtk_widget_get_visible (problem));
    }
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (problem)), ==,
                   "Phase 0: Not written: Character 1 (“漢”, U+6F22) cannot be stored in CP1251. "
                   "A texture name holds at most 15 bytes in the game’s code page (CP1251).");
  /* 15 bytes fit; so do the Cyrillic letters of CP1251. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "VERY_LONG_NAM.0");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  g_assert_false (gtk_widget_get_visible (problem));
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
  g_assert_true (gtk_widget_get_visible (problem));
  g_assert_true (gtk_widget_has_css_class (problem, "warning"));
  g_assert_false (gtk_widget_has_css_class (problem, "error"));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (problem)),
                                   "Phase 0: Lint: the suffix after the “.” selects palette"));
  press_enter (entry);
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "BAD._9");
  g_assert_true (gtk_widget_get_visible (problem));

  /* Empty: untextured. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  g_assert_false (gtk_widget_get_visible (problem));
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
  g_assert_true (gtk_widget_get_visible (problem));
  gtk_editable_set_text (GTK_EDITABLE (entry), mat_phase_get_texture (phase));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  g_assert_false (gtk_widget_get_visible (problem));

  /* Another material: the line goes with the rows it spoke of. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "NODOT");
  g_assert_true (gtk_widget_get_visible (problem));
  mat_phase_table_set_material (f.table, ui_find_material (f.lib, "LAVA_FLOW"));
  g_assert_false (gtk_widget_get_visible (problem));

  /* A name the Textures.lib does not have: a warning, said in the line. */
  {
    g_autoptr(MatTextureLibrary) textures = demo_textures ();

    mat_phase_table_set_textures (f.table, textures);
    ui_spin_ms (50);
    entry = mat_phase_table_get_texture_for_test (f.table, 1);
    g_assert_nonnull (entry);
    gtk_editable_set_text (GTK_EDITABLE (entry), "NOPE.0");
    g_assert_true (gtk_widget_get_visible (problem));
    g_assert_true (gtk_widget_has_css_class (problem, "warning"));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (problem)), ==, "Phase 1: NOPE.0 is not in Textures.lib");
    mat_phase_table_set_textures (f.table, NULL);
  }

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
  g_assert_nonnull (mat_phase_table_get_spin_for_test (f.table, 4, 16));

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

static gboolean
has_label_text (GtkWidget     *widget,
                gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/* The column heads in order, from the table: index, the four colour
 * groups, the texture, the cell (p17), the power (p16). Every byte has
 * its spin button under the table, labelled from the table too. */
static void
test_headers (void)
{
  Fixture f = { 0 };
  g_autoptr(GPtrArray) spins = g_ptr_array_new ();
  GtkColumnView *column_view;
  GListModel *columns;
  GtkWidget *header, *head, *revealer;
  const char *legend;
  guint n;

  fixture_open (&f, "COLOR_CYCLE");
  column_view = GTK_COLUMN_VIEW (ui_find_by_type (GTK_WIDGET (f.table), GTK_TYPE_COLUMN_VIEW));
  g_assert_nonnull (column_view);
  columns = gtk_column_view_get_columns (column_view);
  header = ui_find_widget (GTK_WIDGET (f.table), has_css_name, "header");
  g_assert_nonnull (header);
  n = g_list_model_get_n_items (columns);
  /* index, 4 swatches, texture, cell, power: no raw byte by default */
  g_assert_cmpuint (n, ==, 1 + 4 + 1 + 1 + 1);

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
      if (c == 0)
        g_assert_cmpstr (title, ==, "#");
      else if (c <= 4)
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
      else
        {
          guint byte = c == 6 ? 17 : 16;
          const Mat0ParamField *field = mat0_fields_param (byte);

          expected = g_strdup_printf ("%s\np%u", _(field->short_label), byte);
          g_assert_cmpstr (title, ==, expected);
          g_assert_cmpstr (tip, ==, _(field->meaning));
        }
      g_assert_cmpint (gtk_widget_has_css_class (head, "not-drawn"), ==, !drawn);
    }
  g_assert_null (head);
  /* the power's cell is a spin button, the cell's a chooser */
  g_assert_nonnull (mat_phase_table_get_spin_for_test (f.table, 0, 16));
  g_assert_nonnull (mat_phase_table_get_cell_chooser_for_test (f.table, 0));
  g_assert_null (mat_phase_table_get_spin_for_test (f.table, 0, 17));

  /* the emissive swatch is dimmed too */
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (mat_phase_table_get_swatch_for_test (f.table, 0, MAT_PHASE_COLOUR_EMISSIVE)),
                                           "not-drawn"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (mat_phase_table_get_swatch_for_test (f.table, 0, MAT_PHASE_COLOUR_AMBIENT)),
                                            "not-drawn"));

  /* Under the table: every byte once, named and explained by the table
   * of meanings, dimmed when the game never draws it; a row per colour
   * group, headed by its name. */
  show_raw_bytes (&f, 0);
  revealer = ui_find_by_type (GTK_WIDGET (f.table), GTK_TYPE_REVEALER);
  for (guint g = 0; g < MAT0_N_GROUPS; g++)
    g_assert_nonnull (ui_find_widget (revealer, has_label_text, _(mat0_fields_group ((Mat0ColourGroup) g)->label)));
  ui_collect_by_type (revealer, GTK_TYPE_SPIN_BUTTON, spins);
  g_assert_cmpuint (spins->len, ==, MAT0_N_PARAMS);
  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    {
      const Mat0ParamField *field = mat0_fields_param (i);
      GtkSpinButton *spin = mat_phase_table_get_spin_for_test (f.table, 0, i);
      g_autofree char *tip = g_strdup_printf ("%s\n%s", _(field->label), _(field->meaning));
      g_autofree char *caption = g_strdup_printf ("p%u", i);
      guint seen = 0;

      g_assert_nonnull (spin);
      for (guint k = 0; k < spins->len; k++)
        seen += spins->pdata[k] == (gpointer) spin;
      g_assert_cmpuint (seen, ==, 1);
      g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (spin)), ==, tip);
      g_assert_cmpint (gtk_widget_has_css_class (GTK_WIDGET (spin), "not-drawn"), ==, !field->drawn);
      g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==,
                       mat_phase_get_param (ui_phase_at (f.material, 0), i));
      /* its caption, just before it */
      g_assert_true (has_label_text (gtk_widget_get_prev_sibling (GTK_WIDGET (spin)), caption));
    }

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
  show_raw_bytes (&f, 0);
  spin = mat_phase_table_get_spin_for_test (f.table, 0, 3);
  opacity = mat_phase_table_get_opacity_for_test (f.table, 0);
  g_assert_nonnull (spin);
  g_assert_nonnull (opacity);
  /* the raw byte and its reading side by side */
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 100);
  g_assert_cmpstr (gtk_label_get_text (opacity), ==, "100\u00a0%");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (opacity), "warning"));

  gtk_widget_grab_focus (GTK_WIDGET (spin));
  gtk_editable_set_text (GTK_EDITABLE (spin), "37");
  press_enter (spin);
  g_assert_cmpuint (mat_phase_get_param (phase, 3), ==, 37);
  g_assert_cmpstr (gtk_label_get_text (opacity), ==, "37\u00a0%");

  /* over 100: shown as stored, marked as the lint */
  g_assert_true (mat_phase_set_param (phase, 3, 150, NULL));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 150);
  g_assert_cmpstr (gtk_label_get_text (opacity), ==, "150\u00a0% (over 100\u00a0%)");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (opacity), "warning"));
  g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (GTK_WIDGET (opacity)), "Lint: p3 = 150"));

  /* the self-light swatch gives the opacity too */
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (mat_phase_table_get_swatch_for_test (f.table, 0, MAT_PHASE_COLOUR_AMBIENT))),
                            "Self-light: p0–p2 = 80, 0, 0 (red, green, blue); p3 = 150, opacity 150\u00a0% (over 100\u00a0%)"));

  while (mat_history_undo (history_of (&f)))
    ;
  g_assert_cmpstr (gtk_label_get_text (opacity), ==, "100\u00a0%");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (opacity), "warning"));
  undone = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (undone, f.original));

  fixture_close (&f);
}

static const char *
raw_title (Fixture *f)
{
  GtkWidget *title = ui_find_by_css_class (ui_find_by_type (GTK_WIDGET (f->table), GTK_TYPE_REVEALER),
                                           "heading");

  g_assert_true (GTK_IS_LABEL (title));
  return gtk_label_get_text (GTK_LABEL (title));
}

/* The raw bytes under the table: the "Raw Bytes" button shows them, they
 * follow the selected phase, an edit writes exactly its byte as one
 * step, the model drives them. */
static void
test_raw_bytes (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autofree char *title = NULL;
  GtkWidget *toggle, *revealer;
  GtkSpinButton *spin;
  MatPhase *phase;
  guint n_undo, row;
  gsize offset, first;

  fixture_open (&f, "COLOR_CYCLE");
  toggle = ui_find_widget (GTK_WIDGET (f.table), is_action_button, "phase.show-raw-bytes");
  g_assert_true (GTK_IS_TOGGLE_BUTTON (toggle));
  revealer = ui_find_by_type (GTK_WIDGET (f.table), GTK_TYPE_REVEALER);
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (revealer)));

  /* the button shows them, for the selected phase */
  mat_phase_table_set_selected (f.table, 1);
  g_signal_emit_by_name (toggle, "clicked");
  g_assert_true (mat_phase_table_get_show_raw_bytes (f.table));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  g_assert_true (ui_wait_for (raw_shown, f.table, 5));
  g_assert_cmpstr (raw_title (&f), ==, "Raw bytes of phase 1");
  for (row = 1; row <= 2; row++)
    {
      mat_phase_table_set_selected (f.table, row);
      phase = ui_phase_at (f.material, row);
      for (guint p = 0; p < MAT0_N_PARAMS; p++)
        {
          spin = mat_phase_table_get_spin_for_test (f.table, row, p);
          g_assert_nonnull (spin);
          g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (spin)));
          g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, mat_phase_get_param (phase, p));
        }
      /* the other rows' bytes are not shown */
      g_assert_null (mat_phase_table_get_spin_for_test (f.table, row == 1 ? 2 : 1, 5));
    }
  g_assert_cmpstr (raw_title (&f), ==, "Raw bytes of phase 2");

  /* A byte the game never draws (p7) is kept and edited all the same:
   * exactly that byte of phase 2 changes, as one step. */
  phase = ui_phase_at (f.material, 2);
  offset = phase_records_offset (&f) + 2 * MAT0_PHASE_SIZE + 7;
  spin = mat_phase_table_get_spin_for_test (f.table, 2, 7);
  n_undo = mat_history_get_n_undo (history_of (&f));
  gtk_spin_button_set_value (spin, 17);
  gtk_spin_button_set_value (spin, 18);
  g_assert_cmpuint (mat_phase_get_param (phase, 7), ==, 18);
  g_assert_true (ui_wait_for (group_closed, history_of (&f), 5));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 1);
  after = ui_library_save (f.lib);
  g_assert_cmpuint (ui_count_byte_differences (f.original, after, &first), ==, 1);
  g_assert_cmpuint (first, ==, offset);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (after, NULL))[offset], ==, 18);

  /* the model drives them: undo, and a change from elsewhere */
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, mat_phase_get_param (phase, 7));
  undone = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (undone, f.original));
  g_assert_true (mat_phase_set_param (phase, 16, 9, NULL));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (mat_phase_table_get_spin_for_test (f.table, 2, 16)), ==, 9);

  /* the phase moves up: the bytes go with it, the heading follows */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.table), "phase.move-up", NULL));
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 1);
  g_assert_cmpstr (raw_title (&f), ==, "Raw bytes of phase 1");
  g_assert_true (mat_phase_table_get_spin_for_test (f.table, 1, 7) == spin);
  /* undone: they show whichever phase the selected row holds now */
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_true (ui_phase_at (f.material, 2) == phase);
  row = mat_phase_table_get_selected (f.table);
  g_assert_cmpuint (row, <, 4);
  title = g_strdup_printf ("Raw bytes of phase %u", row);
  g_assert_cmpstr (raw_title (&f), ==, title);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==,
                   mat_phase_get_param (ui_phase_at (f.material, row), 7));

  /* the button hides them again */
  g_signal_emit_by_name (toggle, "clicked");
  g_assert_false (mat_phase_table_get_show_raw_bytes (f.table));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (revealer)));
  g_assert_null (mat_phase_table_get_spin_for_test (f.table, row, 7));
  /* the power keeps its column */
  g_assert_nonnull (mat_phase_table_get_spin_for_test (f.table, row, 16));

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

/* ---- where the game ignores a texture's alpha (render.md 2) ------------ */

/* A Textures.lib of three 8 x 8 textures, half their texels at alpha 0:
 * CUT.0 in 8888, GREY.0 in 88 (no alpha surface), FLAT.0 in 565 (no
 * alpha at all). */
static MatTextureLibrary *
alpha_textures (void)
{
  static const guint32 formats[3] = { 8888, 88, 565 };
  static const char *const names[3] = { "CUT.0", "GREY.0", "FLAT.0" };
  g_autoptr(GPtrArray) payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  TestEntrySpec specs[3] = { { 0 } };
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(GError) error = NULL;
  guint8 rgba[8 * 8 * 4];
  MatTextureLibrary *textures;

  for (guint i = 0; i < 8 * 8; i++)
    {
      rgba[i * 4 + 0] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = 200;
      rgba[i * 4 + 3] = i % 8 < 4 ? 0 : 255;
    }
  for (guint t = 0; t < 3; t++)
    {
      GBytes *payload = texm_encode_rgba (formats[t], 8, 8, 1, rgba, NULL, NULL, 0);

      g_ptr_array_add (payloads, payload);
      specs[t].type_id = 0x6D786554u;
      specs[t].name = names[t];
      specs[t].payload = g_bytes_get_data (payload, &specs[t].size);
    }
  archive = test_build_archive (specs, 3, TRUE);
  textures = mat_texture_library_new_from_bytes (archive, &error);
  g_assert_no_error (error);
  return textures;
}

/* The note of the texture cell of @row: the entry's information icon and
 * its tooltip, %NULL without one. */
static const char *
alpha_note (MatPhaseTable *table,
            guint          row)
{
  GtkEntry *entry = mat_phase_table_get_texture_for_test (table, row);

  g_assert_nonnull (entry);
  if (g_strcmp0 (gtk_entry_get_icon_name (entry, GTK_ENTRY_ICON_SECONDARY),
                 "dialog-information-symbolic") != 0)
    return NULL;
  return gtk_entry_get_icon_tooltip_text (entry, GTK_ENTRY_ICON_SECONDARY);
}

static void
test_alpha_notes (void)
{
  static const char *const skin_note =
    "Lit skin: the game draws this texture opaque (its alpha only with emboss bump on)";
  static const char *const format_note =
    "Format without alpha: the game draws this texture opaque";
  g_autoptr(MatTextureLibrary) textures = alpha_textures ();
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };
  MatPhase *phase;

  fixture_open (&f, "LAVA_FLOW");
  mat_phase_table_set_textures (f.table, textures);
  g_assert_false (mat_phase_table_get_emboss_bump (f.table));   /* off by default */
  phase = ui_phase_at (f.material, 0);
  g_assert_true (mat_material_set_attr1 (f.material, 1 << 2, &error));   /* see-through */

  /* 8888 on a plain material: drawn with its alpha, no note */
  g_assert_true (mat_phase_set_texture (phase, "CUT.0", &error));
  g_assert_no_error (error);
  ui_spin_ms (20);
  g_assert_null (alpha_note (f.table, 0));

  /* the same material made a lit skin (attr1 bit 1): the note, also in
   * the entry's tooltip */
  g_assert_true (mat_material_set_attr1 (f.material, 1 << 2 | 0x02, &error));
  ui_spin_ms (20);
  g_assert_cmpstr (alpha_note (f.table, 0), ==, skin_note);
  {
    const char *tip = gtk_widget_get_tooltip_text (GTK_WIDGET (mat_phase_table_get_texture_for_test (f.table, 0)));

    g_assert_nonnull (tip);
    g_assert_true (g_str_has_prefix (tip, skin_note));
  }
  /* emboss bump on: the game uses the alpha, the note goes; off again */
  mat_phase_table_set_emboss_bump (f.table, TRUE);
  g_assert_null (alpha_note (f.table, 0));
  mat_phase_table_set_emboss_bump (f.table, FALSE);
  g_assert_cmpstr (alpha_note (f.table, 0), ==, skin_note);

  /* 88 holds alpha but is no alpha surface: the format says so first,
   * whatever the material and the setting */
  g_assert_true (mat_phase_set_texture (phase, "GREY.0", &error));
  ui_spin_ms (20);
  g_assert_cmpstr (alpha_note (f.table, 0), ==, format_note);
  g_assert_true (mat_material_set_attr1 (f.material, 1 << 2, &error));
  ui_spin_ms (20);
  g_assert_cmpstr (alpha_note (f.table, 0), ==, format_note);
  mat_phase_table_set_emboss_bump (f.table, TRUE);
  g_assert_cmpstr (alpha_note (f.table, 0), ==, format_note);
  mat_phase_table_set_emboss_bump (f.table, FALSE);

  /* 565 stores no alpha: nothing is ignored, no note */
  g_assert_true (mat_phase_set_texture (phase, "FLAT.0", &error));
  g_assert_true (mat_material_set_attr1 (f.material, 0x02, &error));
  ui_spin_ms (20);
  g_assert_null (alpha_note (f.table, 0));

  /* a name missing from the library keeps its warning */
  g_assert_true (mat_phase_set_texture (phase, "NOPE.0", &error));
  ui_spin_ms (20);
  g_assert_cmpstr (gtk_entry_get_icon_name (mat_phase_table_get_texture_for_test (f.table, 0),
                                            GTK_ENTRY_ICON_SECONDARY), ==, "dialog-warning-symbolic");

  mat_phase_table_set_textures (f.table, NULL);
  fixture_close (&f);
}

static const char *
chooser_text (GtkDropDown *chooser,
              guint        position)
{
  g_autoptr(GtkStringObject) item = g_list_model_get_item (gtk_drop_down_get_model (chooser), position);

  g_assert_nonnull (item);
  return gtk_string_object_get_string (item);
}

/* What the chooser's button shows: the chosen cell's number. */
static const char *
chooser_button_text (GtkDropDown *chooser)
{
  GtkWidget *button = ui_find_by_type (GTK_WIDGET (chooser), GTK_TYPE_TOGGLE_BUTTON);
  GtkWidget *label;

  g_assert_nonnull (button);
  label = ui_find_by_css_class (button, "numeric");
  g_assert_true (GTK_IS_LABEL (label));
  return gtk_label_get_text (GTK_LABEL (label));
}

static gboolean
chooser_popped_up (gpointer data)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();
  GtkWidget *popover = ui_find_by_type (data, GTK_TYPE_POPOVER);

  if (popover == NULL || !gtk_widget_get_mapped (popover))
    return FALSE;
  ui_collect_by_css_class (popover, "cell-thumbnail", found);
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

  show_raw_bytes (&f, 1);
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
  /* the stored cell is the one shown: its number on the button, the
   * entry in the tooltip; the raw byte below */
  g_assert_cmpuint (gtk_drop_down_get_selected (chooser), ==, 2);
  g_assert_cmpstr (chooser_button_text (chooser), ==, "1");
  g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (GTK_WIDGET (chooser)),
                                   "cell 1: 64,0 64×64\n\n"));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 1);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (chooser), "warning"));

  /* The list shows each rectangle cut from the texture. */
  g_signal_emit_by_name (chooser, "activate");
  g_assert_true (ui_wait_for (chooser_popped_up, chooser, 5));
  /* (the list's: the button shows one too) */
  ui_collect_by_css_class (ui_find_by_type (GTK_WIDGET (chooser), GTK_TYPE_POPOVER),
                           "cell-thumbnail", thumbnails);
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
  g_assert_cmpstr (chooser_button_text (chooser), ==, "−1");
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
  g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (GTK_WIDGET (chooser)),
                                   "cell 9: past the Page table\n\nLint: cell 9 is past the Page table of ATLAS.0"));
  g_assert_cmpstr (chooser_button_text (chooser), ==, "9");
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

static gboolean
popover_shown (gpointer data)
{
  GtkPopover *popover = mat_phase_table_get_colour_popover_for_test (data);

  return popover != NULL && gtk_widget_get_mapped (GTK_WIDGET (popover));
}

#if !GTK_CHECK_VERSION (4, 10, 0)
static gboolean
colour_dialog_shown (gpointer data)
{
  GtkWidget *dialog = ui_find_toplevel (GTK_TYPE_COLOR_CHOOSER_DIALOG);

  return dialog != NULL && gtk_widget_get_mapped (dialog);
}

/* A click on @swatch opens its popover; its "Colour Chooser…" button
 * the chooser, the popover closing. */
static void
open_chooser (Fixture   *f,
              GtkButton *swatch)
{
  g_signal_emit_by_name (swatch, "clicked");
  g_assert_true (ui_wait_for (popover_shown, f->table, 5));
  g_signal_emit_by_name (mat_phase_table_get_popover_chooser_for_test (f->table), "clicked");
  g_assert_true (ui_wait_for (colour_dialog_shown, NULL, 5));
  g_assert_null (mat_phase_table_get_colour_popover_for_test (f->table));
}

/* The swatch's popover opens the chooser with the phase's colour; OK
 * writes the chosen one as one step, Cancel writes nothing. */
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

  open_chooser (&f, swatch);
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

  open_chooser (&f, swatch);
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

static gboolean
is_mapped_entry (GtkWidget     *widget,
                 gconstpointer  data)
{
  return GTK_IS_ENTRY (widget) && gtk_widget_get_mapped (widget);
}

/* The chooser opens on its custom editor, at the phase's colour: the
 * editor's own colour entry reads it. Choosing there writes one step. */
static void
test_picker_editor (void)
{
  static const guint8 blue[4] = { 51, 102, 204, 128 };
  Fixture f = { 0 };
  g_autoptr(GBytes) undone = NULL;
  guint8 params[MAT0_PARAM_COUNT];
  GtkButton *swatch;
  GtkWidget *dialog, *editor, *entry;
  gboolean show_editor = FALSE;
  MatPhase *phase;
  GdkRGBA rgba;
  guint n_undo;

  fixture_open (&f, "COLOR_CYCLE");
  phase = ui_phase_at (f.material, 1);
  memcpy (params, mat_phase_get_params (phase), sizeof params);
  memcpy (params + 8, blue, sizeof blue);       /* specular p8..p11 */
  g_assert_true (mat_phase_set_params (phase, params, NULL));
  n_undo = mat_history_get_n_undo (history_of (&f));

  swatch = mat_phase_table_get_swatch_for_test (f.table, 1, MAT_PHASE_COLOUR_SPECULAR);
  g_assert_nonnull (swatch);
  open_chooser (&f, swatch);
  dialog = ui_find_toplevel (GTK_TYPE_COLOR_CHOOSER_DIALOG);
  g_object_get (dialog, "show-editor", &show_editor, NULL);
  g_assert_true (show_editor);
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (dialog), &rgba);
  g_assert_cmpfloat_with_epsilon (rgba.red, 51 / 255.f, 1e-6);
  g_assert_cmpfloat_with_epsilon (rgba.green, 102 / 255.f, 1e-6);
  g_assert_cmpfloat_with_epsilon (rgba.blue, 204 / 255.f, 1e-6);
  g_assert_cmpfloat_with_epsilon (rgba.alpha, 128 / 255.f, 1e-6);
  /* the editor is what shows, and it shows this colour */
  editor = ui_find_by_type (dialog, g_type_from_name ("GtkColorEditor"));
  g_assert_nonnull (editor);
  g_assert_true (gtk_widget_get_mapped (editor));
  entry = ui_find_widget (editor, is_mapped_entry, NULL);
  g_assert_nonnull (entry);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "#3366CC");

  /* a colour typed in the editor, then OK: p8..p10 change, p11 stays */
  gtk_editable_set_text (GTK_EDITABLE (entry), "#CC6633");
  g_signal_emit_by_name (entry, "activate");
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (dialog), &rgba);
  g_assert_cmpfloat_with_epsilon (rgba.red, 204 / 255.f, 1e-6);
  g_assert_cmpfloat_with_epsilon (rgba.alpha, 128 / 255.f, 1e-6);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_OK);
  ui_spin_ms (30);
  g_assert_null (ui_find_toplevel (GTK_TYPE_COLOR_CHOOSER_DIALOG));
  g_assert_cmpmem (mat_phase_get_params (phase) + 8, 4, ((const guint8[]) { 204, 102, 51, 128 }), 4);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 1);

  /* one undo: the colour the editor opened at */
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpmem (mat_phase_get_params (phase) + 8, 4, blue, 4);
  g_assert_true (mat_history_undo (history_of (&f)));
  undone = ui_library_save (f.lib);
  g_assert_true (g_bytes_equal (undone, f.original));

  fixture_close (&f);
}
#endif

/* ---- exact numbers ------------------------------------------------- */

/* The offset of phase @index's byte @param in the file. */
static gsize
param_offset (Fixture *f,
              guint    index,
              guint    param)
{
  return phase_records_offset (f) + (gsize) index * MAT0_PHASE_SIZE + param;
}

/* Saves, checks that exactly the bytes @offsets[] changed, to @values[]. */
static void
assert_saved_bytes (Fixture      *f,
                    const gsize  *offsets,
                    const guint8 *values,
                    guint         n)
{
  g_autoptr(GBytes) now = ui_library_save (f->lib);
  const guint8 *data = g_bytes_get_data (now, NULL);
  gsize first;

  g_assert_cmpuint (ui_count_byte_differences (now, f->original, &first), ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (data[offsets[i]], ==, values[i]);
}

/* The opacity p3, typed: its reading beside the self-light's swatch
 * opens the swatch's popover at the opacity, in per cent: the byte is
 * what was typed (50 is 50, not the 47 a slider gave), one undo step;
 * over 100 it is kept and marked as the lint; its unit comes from the
 * core. */
static void
test_opacity_typed (void)
{
  Fixture f = { 0 };
  GtkButton *button;
  GtkSpinButton *spin;
  MatPhase *phase;
  gsize offset;
  guint n_undo;

  fixture_open (&f, "COLOR_CYCLE");
  phase = ui_phase_at (f.material, 2);
  offset = param_offset (&f, 2, 3);
  mat_phase_table_set_selected (f.table, 0);
  button = mat_phase_table_get_opacity_button_for_test (f.table, 2);
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_label_get_text (mat_phase_table_get_opacity_for_test (f.table, 2)), ==, "100\u00a0%");
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (ui_wait_for (popover_shown, f.table, 5));
  /* its row is the one shown, the focus on the opacity */
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 2);
  spin = mat_phase_table_get_popover_spin_for_test (f.table, 3);
  g_assert_nonnull (spin);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (spin)) ||
                 gtk_widget_is_ancestor (gtk_root_get_focus (gtk_widget_get_root (GTK_WIDGET (spin))),
                                         GTK_WIDGET (spin)));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 100);
  /* the unit beside it, from the field table */
  {
    GtkWidget *unit = gtk_widget_get_next_sibling (GTK_WIDGET (spin));

    g_assert_true (GTK_IS_LABEL (unit));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (unit)), ==, _(mat0_fields_param_unit (3)));
  }

  n_undo = mat_history_get_n_undo (history_of (&f));
  gtk_editable_set_text (GTK_EDITABLE (spin), "50");
  press_enter (spin);
  g_assert_true (ui_wait_for (group_closed, history_of (&f), 5));
  g_assert_cmpuint (mat_phase_get_param (phase, 3), ==, 50);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 1);
  assert_saved_bytes (&f, (const gsize[]) { offset }, (const guint8[]) { 50 }, 1);
  g_assert_cmpstr (gtk_label_get_text (mat_phase_table_get_opacity_for_test (f.table, 2)), ==, "50\u00a0%");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (spin), "warning"));

  /* over 100: kept as typed, marked */
  gtk_editable_set_text (GTK_EDITABLE (spin), "150");
  press_enter (spin);
  g_assert_true (ui_wait_for (group_closed, history_of (&f), 5));
  g_assert_cmpuint (mat_phase_get_param (phase, 3), ==, 150);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (spin), "warning"));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (spin)), "Lint: p3 = 150"));
  g_assert_cmpstr (gtk_label_get_text (mat_phase_table_get_opacity_for_test (f.table, 2)), ==,
                   "150\u00a0% (over 100\u00a0%)");

  /* the model drives it */
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 50);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (spin), "warning"));
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 100);
  gtk_popover_popdown (mat_phase_table_get_colour_popover_for_test (f.table));
  assert_saved_bytes (&f, NULL, NULL, 0);
  fixture_close (&f);
}

/* A swatch opens its group's four bytes, each typed 0..255 (the opacity
 * in per cent), labelled from the field table: each typed value exactly
 * its byte, one undo step each; the bytes follow the model. */
static void
test_colour_bytes (void)
{
  Fixture f = { 0 };
  GtkButton *swatch;
  GtkSpinButton *spin;
  gsize offsets[3];
  guint n_undo;

  fixture_open (&f, "COLOR_CYCLE");
  for (guint c = 0; c < 3; c++)
    offsets[c] = param_offset (&f, 1, 4 + c);
  swatch = mat_phase_table_get_swatch_for_test (f.table, 1, MAT_PHASE_COLOUR_DIFFUSE);
  g_signal_emit_by_name (swatch, "clicked");
  g_assert_true (ui_wait_for (popover_shown, f.table, 5));
  /* phase 1's diffuse: 0, 255, 0, 255 */
  for (guint c = 0; c < 4; c++)
    {
      spin = mat_phase_table_get_popover_spin_for_test (f.table, 4 + c);
      g_assert_nonnull (spin);
      g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, c == 0 || c == 2 ? 0 : 255);
      g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_spin_button_get_adjustment (spin)), ==, 255);
      /* p7 is stored, not drawn: dimmed, yet a field */
      g_assert_cmpint (gtk_widget_has_css_class (GTK_WIDGET (spin), "not-drawn"), ==, c == 3);
      g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (spin)));
    }
  g_assert_nonnull (mat_phase_table_get_popover_chooser_for_test (f.table));

  n_undo = mat_history_get_n_undo (history_of (&f));
  {
    static const char *const typed[3] = { "12", "34", "56" };

    for (guint c = 0; c < 3; c++)
      {
        spin = mat_phase_table_get_popover_spin_for_test (f.table, 4 + c);
        gtk_widget_grab_focus (GTK_WIDGET (spin));
        gtk_editable_set_text (GTK_EDITABLE (spin), typed[c]);
        press_enter (spin);
        g_assert_true (ui_wait_for (group_closed, history_of (&f), 5));
        g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + c + 1);
      }
  }
  assert_saved_bytes (&f, offsets, (const guint8[]) { 12, 34, 56 }, 3);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (swatch)), "p4–p7 = 12, 34, 56, 255"));

  /* undo: the popover's fields follow */
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (mat_phase_table_get_popover_spin_for_test (f.table, 6)), ==, 0);
  gtk_popover_popdown (mat_phase_table_get_colour_popover_for_test (f.table));
  ui_spin_ms (30);
  g_assert_null (mat_phase_table_get_colour_popover_for_test (f.table));

  /* the self-light's: the opacity in per cent, its unit beside it */
  swatch = mat_phase_table_get_swatch_for_test (f.table, 0, MAT_PHASE_COLOUR_AMBIENT);
  g_signal_emit_by_name (swatch, "clicked");
  g_assert_true (ui_wait_for (popover_shown, f.table, 5));
  spin = mat_phase_table_get_popover_spin_for_test (f.table, 3);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 100);
  {
    GtkWidget *unit = gtk_widget_get_next_sibling (GTK_WIDGET (spin));

    g_assert_true (GTK_IS_LABEL (unit));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (unit)), ==, _(mat0_fields_param_unit (3)));
  }
  gtk_widget_grab_focus (GTK_WIDGET (spin));
  gtk_editable_set_text (GTK_EDITABLE (spin), "50");
  press_enter (spin);
  g_assert_true (ui_wait_for (group_closed, history_of (&f), 5));
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (f.material, 0), 3), ==, 50);
  /* the table's own reading follows */
  g_assert_cmpstr (gtk_label_get_text (mat_phase_table_get_opacity_for_test (f.table, 0)), ==, "50\u00a0%");
  gtk_popover_popdown (mat_phase_table_get_colour_popover_for_test (f.table));

  while (mat_history_undo (history_of (&f)))
    ;
  assert_saved_bytes (&f, NULL, NULL, 0);
  fixture_close (&f);
}

/* Editing a control in another phase's row selects that phase first (the
 * preview shows the selected phase while the table has the focus): a
 * spin button focused or stepped, a swatch clicked, a texture typed. */
static void
test_edit_selects_row (void)
{
  Fixture f = { 0 };
  GtkSpinButton *spin;
  GtkEntry *entry;

  fixture_open (&f, "COLOR_CYCLE");
  mat_phase_table_set_selected (f.table, 0);

  /* the power of row 2: the keyboard's focus moved there selects
   * nothing; a value typed there does */
  spin = mat_phase_table_get_spin_for_test (f.table, 2, 16);
  gtk_widget_grab_focus (GTK_WIDGET (spin));
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 0);
  gtk_editable_set_text (GTK_EDITABLE (spin), "5");
  press_enter (spin);
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (f.material, 2), 16), ==, 5);
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 2);

  /* stepped without the focus: row 3 */
  gtk_spin_button_spin (mat_phase_table_get_spin_for_test (f.table, 3, 16), GTK_SPIN_STEP_FORWARD, 1);
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (f.material, 3), 16), ==, 1);
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 3);

  /* the opacity's reading of row 1: its popover, its row */
  g_signal_emit_by_name (mat_phase_table_get_opacity_button_for_test (f.table, 1), "clicked");
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 1);
  g_assert_true (ui_wait_for (popover_shown, f.table, 5));
  gtk_popover_popdown (mat_phase_table_get_colour_popover_for_test (f.table));
  ui_spin_ms (30);
  mat_phase_table_set_selected (f.table, 3);

  /* a swatch of row 1 */
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 3);
  g_signal_emit_by_name (mat_phase_table_get_swatch_for_test (f.table, 1, MAT_PHASE_COLOUR_SPECULAR), "clicked");
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 1);
  g_assert_true (ui_wait_for (popover_shown, f.table, 5));
  gtk_popover_popdown (mat_phase_table_get_colour_popover_for_test (f.table));

  /* a texture typed into row 0's field, applied with Enter */
  mat_phase_table_set_selected (f.table, 3);
  entry = mat_phase_table_get_texture_for_test (f.table, 0);
  gtk_editable_set_text (GTK_EDITABLE (entry), "ROCK.0");
  press_enter (entry);
  g_assert_cmpstr (mat_phase_get_texture (ui_phase_at (f.material, 0)), ==, "ROCK.0");
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 0);

  while (mat_history_undo (history_of (&f)))
    ;
  fixture_close (&f);
}

/* The middle of @widget's left (opaque) half as its window draws it. */
static void
swatch_pixel (GtkWidget *widget,
              guint8     rgba[4])
{
  g_autoptr(GdkTexture) shot = ui_screen_render_toplevel (widget);

  ui_texture_pixel (shot, gdk_texture_get_width (shot) / 4, gdk_texture_get_height (shot) / 2, rgba);
}

/* The emissive swatches (stored, not drawn) are dimmed by a veil they
 * draw themselves: the same colour in a selected row as in another, and
 * still dimmed. They were translucent buttons: a selected row's blue
 * showed through. */
static void
test_dimmed_swatch_colour (void)
{
  Fixture f = { 0 };
  guint8 params[MAT0_PARAM_COUNT];
  guint8 a[4], b[4];
  GtkWidget *swatch0, *swatch1;

  fixture_open (&f, "COLOR_CYCLE");
  /* rows 0 and 1: emissive 200, 40, 40, 255 */
  for (guint row = 0; row < 2; row++)
    {
      MatPhase *phase = ui_phase_at (f.material, row);

      memcpy (params, mat_phase_get_params (phase), sizeof params);
      params[12] = 200;
      params[13] = 40;
      params[14] = 40;
      params[15] = 255;
      g_assert_true (mat_phase_set_params (phase, params, NULL));
    }
  mat_phase_table_set_selected (f.table, 0);
  gtk_widget_grab_focus (GTK_WIDGET (mat_phase_table_get_spin_for_test (f.table, 0, 16)));
  ui_spin_ms (100);
  swatch0 = GTK_WIDGET (mat_phase_table_get_swatch_for_test (f.table, 0, MAT_PHASE_COLOUR_EMISSIVE));
  swatch1 = GTK_WIDGET (mat_phase_table_get_swatch_for_test (f.table, 1, MAT_PHASE_COLOUR_EMISSIVE));
  g_assert_true (gtk_widget_has_css_class (swatch0, "not-drawn"));
  swatch_pixel (swatch0, a);
  swatch_pixel (swatch1, b);
  g_test_message ("selected row %u %u %u, other %u %u %u", a[0], a[1], a[2], b[0], b[1], b[2]);
  g_assert_cmpmem (a, 3, b, 3);
  /* still dimmed: a veil of the view's background over 200, 40, 40 */
  g_assert_cmpuint (ABS ((int) a[0] - 200), >=, 10);
  g_assert_cmpuint (ABS ((int) a[1] - 40), >=, 10);
  /* and the other row selected: the same again */
  mat_phase_table_set_selected (f.table, 1);
  ui_spin_ms (100);
  swatch_pixel (swatch0, b);
  g_assert_cmpmem (a, 3, b, 3);

  while (mat_history_undo (history_of (&f)))
    ;
  fixture_close (&f);
}

/* Returns: the number of pixels where @a and @b (same size) differ in
 * the columns from @x0 (a share of the width) to the right edge. */
static guint
pixels_differing (GdkTexture *a,
                  GdkTexture *b,
                  double      x0)
{
  int w = gdk_texture_get_width (a), h = gdk_texture_get_height (a);
  guint n = 0;

  g_assert_cmpint (gdk_texture_get_width (b), ==, w);
  g_assert_cmpint (gdk_texture_get_height (b), ==, h);
  for (int y = 0; y < h; y++)
    for (int x = (int) (x0 * w); x < w; x++)
      {
        guint8 pa[4], pb[4];

        ui_texture_pixel (a, x, y, pa);
        ui_texture_pixel (b, x, y, pb);
        n += memcmp (pa, pb, 4) != 0;
      }
  return n;
}

/* The raw bytes the game never draws (p7) look like fields that take
 * typing, only their number dimmed: the frame and the step buttons as
 * p4's, not as a field that is off; and typing writes the byte. (They
 * were drawn at 0.55 opacity whole, as an insensitive field looks.) */
static void
test_dimmed_bytes_editable (void)
{
  Fixture f = { 0 };
  guint8 params[MAT0_PARAM_COUNT];
  MatPhase *phase;
  GtkSpinButton *drawn, *dimmed;
  g_autoptr(GdkTexture) shot_drawn = NULL;
  g_autoptr(GdkTexture) shot_dimmed = NULL;
  g_autoptr(GdkTexture) shot_off = NULL;
  guint buttons, text;

  fixture_open (&f, "COLOR_CYCLE");
  phase = ui_phase_at (f.material, 0);
  memcpy (params, mat_phase_get_params (phase), sizeof params);
  params[4] = 100;
  params[7] = 100;
  g_assert_true (mat_phase_set_params (phase, params, NULL));
  show_raw_bytes (&f, 0);
  drawn = mat_phase_table_get_spin_for_test (f.table, 0, 4);
  dimmed = mat_phase_table_get_spin_for_test (f.table, 0, 7);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (dimmed), "not-drawn"));
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (dimmed)));
  g_assert_true (gtk_editable_get_editable (GTK_EDITABLE (dimmed)));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (drawn)), ==, gtk_widget_get_width (GTK_WIDGET (dimmed)));
  ui_spin_ms (100);
  shot_drawn = ui_screen_render_toplevel (GTK_WIDGET (drawn));
  shot_dimmed = ui_screen_render_toplevel (GTK_WIDGET (dimmed));
  /* the step buttons: the right half; the number: the left */
  buttons = pixels_differing (shot_drawn, shot_dimmed, 0.5);
  text = pixels_differing (shot_drawn, shot_dimmed, 0.0) - buttons;
  g_test_message ("differing pixels: buttons %u, number %u", buttons, text);
  g_assert_cmpuint (buttons, ==, 0);
  g_assert_cmpuint (text, >, 0);
  /* a field that is off looks otherwise */
  gtk_widget_set_sensitive (GTK_WIDGET (drawn), FALSE);
  ui_spin_ms (100);
  shot_off = ui_screen_render_toplevel (GTK_WIDGET (drawn));
  g_assert_cmpuint (pixels_differing (shot_off, shot_dimmed, 0.5), >, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (drawn), TRUE);

  /* and it takes typing */
  gtk_widget_grab_focus (GTK_WIDGET (dimmed));
  gtk_editable_set_text (GTK_EDITABLE (dimmed), "42");
  press_enter (dimmed);
  g_assert_cmpuint (mat_phase_get_param (phase, 7), ==, 42);

  while (mat_history_undo (history_of (&f)))
    ;
  fixture_close (&f);
}

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

  /* No phase: the raw bytes say so and take nothing. */
  {
    g_autoptr(GPtrArray) spins = g_ptr_array_new ();

    mat_phase_table_set_show_raw_bytes (f.table, TRUE);
    g_assert_true (ui_wait_for (raw_shown, f.table, 5));
    g_assert_cmpstr (raw_title (&f), ==, "Raw bytes: no phase selected");
    ui_collect_by_type (ui_find_by_type (GTK_WIDGET (f.table), GTK_TYPE_REVEALER),
                        GTK_TYPE_SPIN_BUTTON, spins);
    g_assert_cmpuint (spins->len, ==, MAT0_N_PARAMS);
    for (guint i = 0; i < spins->len; i++)
      g_assert_false (gtk_widget_get_sensitive (spins->pdata[i]));
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
  /* the table as the Phases page shows it, the raw bytes of phase 1 open */
  gtk_window_set_default_size (f.window, 960, 560);
  show_raw_bytes (&f, 1);
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

/* ---- Keyboard focus on a selected row ------------------------------- */

/* Presses and releases the key @keysym through the X server (XTest), as
 * a user's keyboard would; the window under the pointer has the focus. */
static void
press_key (GtkWidget *widget,
           KeySym     keysym)
{
  Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  KeyCode code = XKeysymToKeycode (xdisplay, keysym);

  g_assert_cmpuint (code, !=, 0);
  XTestFakeKeyEvent (xdisplay, code, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, False, CurrentTime);
  XFlush (xdisplay);
  ui_spin_ms (100);
}

/* @widget as its window's renderer draws it. Returns: (transfer full) */
static GdkTexture *
render (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;

  gtk_widget_queue_draw (widget);
  ui_spin_ms (100);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* Pixel (@x, @y) of @pixels (@width wide, B G R A) as 0xRRGGBB. */
static guint32
pixel_at (const guint8 *pixels,
          int           width,
          int           x,
          int           y)
{
  const guint8 *p = pixels + ((gsize) y * (gsize) width + (gsize) x) * 4;

  return ((guint32) p[2] << 16) | ((guint32) p[1] << 8) | p[0];
}

static guint
brightness (guint32 rgb)
{
  return ((rgb >> 16) & 0xFF) + ((rgb >> 8) & 0xFF) + (rgb & 0xFF);
}

/* The row widget (css name "row") holding @cell. */
static GtkWidget *
row_of (GtkWidget *cell)
{
  GtkWidget *row = cell;

  while (row != NULL && g_strcmp0 (gtk_widget_get_css_name (row), "row") != 0)
    row = gtk_widget_get_parent (row);
  g_assert_nonnull (row);
  return row;
}

/* How many points @inset and @inset + 1 px inside the left and right
 * edges are much brighter in @a than in @b (two renders of a widget);
 * the points looked at go to @n. */
static guint
count_brighter_edge (GdkTexture *a,
                     GdkTexture *b,
                     int         inset,
                     guint      *n)
{
  int width = gdk_texture_get_width (a);
  int height = gdk_texture_get_height (a);
  g_autofree guint8 *pa = g_malloc ((gsize) width * height * 4);
  g_autofree guint8 *pb = g_malloc ((gsize) width * height * 4);
  guint brighter = 0;

  g_assert_cmpint (width, ==, gdk_texture_get_width (b));
  g_assert_cmpint (height, ==, gdk_texture_get_height (b));
  gdk_texture_download (a, pa, (gsize) width * 4);
  gdk_texture_download (b, pb, (gsize) width * 4);
  *n = 0;
  for (int y = 6; y < height - 6; y++)
    for (int side = 0; side < 4; side++)
      {
        int x = side < 2 ? inset + side : width - 1 - inset - (side - 2);

        (*n)++;
        if (brightness (pixel_at (pa, width, x, y)) > brightness (pixel_at (pb, width, x, y)) + 150)
          brighter++;
      }
  return brighter;
}

/* A row reached with the keyboard is selected and has the focus (on a
 * widget in it); the theme rings focus in the selection's colour, so
 * the row and the focused swatch carry a light ring on the selection,
 * which the same row without visible focus does not have. */
static void
test_focus_ring (void)
{
  Fixture f = { 0 };
  g_autoptr(GdkTexture) row_focused = NULL;
  g_autoptr(GdkTexture) row_plain = NULL;
  g_autoptr(GdkTexture) swatch_focused = NULL;
  g_autoptr(GdkTexture) swatch_plain = NULL;
  GtkWidget *swatch, *row;
  guint n, brighter;

  fixture_open (&f, "COLOR_CYCLE");
  /* row 0's swatch has the focus; the Down arrow: row 1's (the keys go
   * to the window under the pointer) */
  swatch = GTK_WIDGET (mat_phase_table_get_swatch_for_test (f.table, 0, MAT_PHASE_COLOUR_DIFFUSE));
  mat_phase_table_set_selected (f.table, 0);
  g_assert_true (gtk_widget_grab_focus (swatch));
  ui_pointer_move (GTK_WIDGET (mat_phase_table_get_legend_for_test (f.table)), 4, 4);
  press_key (swatch, XK_Down);
  g_assert_cmpuint (mat_phase_table_get_selected (f.table), ==, 1);
  swatch = GTK_WIDGET (mat_phase_table_get_swatch_for_test (f.table, 1, MAT_PHASE_COLOUR_DIFFUSE));
  row = row_of (swatch);
  g_assert_true (gtk_widget_has_focus (swatch));
  g_assert_true (gtk_window_get_focus_visible (f.window));
  g_assert_true (gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_SELECTED);
  g_assert_true (gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_FOCUS_VISIBLE);

  /* the theme's rings fade in */
  ui_spin_ms (500);
  row_focused = render (row);
  swatch_focused = render (swatch);
  ui_screenshot (GTK_WIDGET (f.window), "phase-table-focus.png");
  /* what a click leaves: the focus, without the ring */
  gtk_window_set_focus_visible (f.window, FALSE);
  g_assert_false (gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_FOCUS_VISIBLE);
  g_assert_true (gtk_widget_has_focus (swatch));
  ui_spin_ms (500);
  row_plain = render (row);
  swatch_plain = render (swatch);

  /* ours: 2 px wide, 4 px in; the theme's on a button: 2 px, 2 px in */
  brighter = count_brighter_edge (row_focused, row_plain, 2, &n);
  g_test_message ("row: %u of %u edge points ringed", brighter, n);
  g_assert_cmpuint (brighter, >=, n * 9 / 10);
  brighter = count_brighter_edge (swatch_focused, swatch_plain, 0, &n);
  g_test_message ("swatch: %u of %u edge points ringed", brighter, n);
  g_assert_cmpuint (brighter, >=, n * 9 / 10);

  fixture_close (&f);
}

/* Wheel notches (X buttons 4 up, 5 down) where the pointer is. */
static void
wheel (GtkWidget *widget,
       guint      button,
       guint      notches)
{
  for (guint i = 0; i < notches; i++)
    {
      ui_pointer_button (widget, button, TRUE);
      ui_pointer_button (widget, button, FALSE);
    }
  ui_spin_ms (100);
}

/* The wheel over the power's spin button scrolls the rows and leaves
 * the byte; once the spin button has the focus, the wheel steps it. */
static void
test_wheel (void)
{
  Fixture f = { 0 };
  GtkSpinButton *spin;
  GtkAdjustment *v;
  MatPhase *phase;
  guint n_undo;
  double top;

  fixture_open (&f, "COLOR_CYCLE");
  /* rows enough to scroll */
  mat_phase_table_set_selected (f.table, 3);
  for (guint i = 0; i < 8; i++)
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.table), "phase.add", NULL));
  mat_phase_table_set_selected (f.table, 0);
  ui_spin_ms (200);
  v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (ui_find_by_type (GTK_WIDGET (f.table),
                                                                                 GTK_TYPE_SCROLLED_WINDOW)));
  g_assert_cmpfloat (gtk_adjustment_get_upper (v), >, gtk_adjustment_get_page_size (v) + 100);
  gtk_adjustment_set_value (v, 0);
  ui_spin_ms (100);

  phase = ui_phase_at (f.material, 1);
  spin = mat_phase_table_get_spin_for_test (f.table, 1, 16);
  g_assert_nonnull (spin);
  n_undo = mat_history_get_n_undo (history_of (&f));
  top = gtk_adjustment_get_value (v);
  ui_pointer_move (GTK_WIDGET (spin), 12, 12);
  wheel (GTK_WIDGET (spin), 5, 2);
  g_assert_cmpfloat (gtk_adjustment_get_value (v), >, top + 20);
  g_assert_cmpuint (mat_phase_get_param (phase, 16), ==, 0);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo);

  /* focused: the wheel is the spin button's */
  gtk_adjustment_set_value (v, 0);
  ui_spin_ms (100);
  spin = mat_phase_table_get_spin_for_test (f.table, 1, 16);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (spin)));
  ui_pointer_move (GTK_WIDGET (spin), 12, 12);
  wheel (GTK_WIDGET (spin), 4, 3);
  g_assert_cmpfloat (gtk_adjustment_get_value (v), ==, 0.0);
  g_assert_cmpuint (mat_phase_get_param (phase, 16), ==, 3);
  /* one gesture, one step */
  g_assert_true (ui_wait_for (group_closed, history_of (&f), 5));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo + 1);

  fixture_close (&f);
}

/* A home of our own for the tests that open the editor's window: its
 * recent files and caches, and the folder named in its title bar
 * ("~/Parkan"), stay out of the real one. */
static char *home_dir;

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

static void
home_setup (void)
{
  static const char *const dirs[] = { "XDG_DATA_HOME", ".local/share", "XDG_CONFIG_HOME", ".config",
                                      "XDG_CACHE_HOME", ".cache" };
  g_autoptr(GError) error = NULL;

  home_dir = g_dir_make_tmp ("test-phase-table-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", home_dir, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i += 2)
    {
      g_autofree char *path = g_build_filename (home_dir, dirs[i + 1], NULL);

      g_mkdir_with_parents (path, 0700);
      g_setenv (dirs[i], path, TRUE);
    }
}

/* A copy of the file $@variable in ~/Parkan, named @name. Returns: (transfer full) */
static GFile *
home_copy (const char *variable,
           const char *name)
{
  g_autoptr(GBytes) bytes = test_load_file (ui_need_env (variable));
  g_autofree char *folder = g_build_filename (home_dir, "Parkan", NULL);
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (folder, 0700);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

/* ---- The Phases page of the window -------------------------------- */

static gboolean
window_idle (gpointer data)
{
  return !mat_window_get_busy (MAT_WINDOW (data)) && ui_widget_is_shown (data) &&
         mat_window_get_library (MAT_WINDOW (data)) != NULL;
}

/* Adds the mapped labels under @root whose text is cut short ("Textu…"). */
static void
collect_ellipsized (GtkWidget *root,
                    GPtrArray *found)
{
  if (!gtk_widget_get_mapped (root))
    return;
  if (GTK_IS_LABEL (root) &&
      pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (root))))
    g_ptr_array_add (found, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_ellipsized (child, found);
}

static void
assert_nothing_ellipsized (GtkWidget *root)
{
  g_autoptr(GPtrArray) cut = g_ptr_array_new ();

  collect_ellipsized (root, cut);
  for (guint i = 0; i < cut->len; i++)
    g_test_message ("cut short: “%s”", gtk_label_get_text (cut->pdata[i]));
  g_assert_cmpuint (cut->len, ==, 0);
}

/* @widget lies inside @area horizontally (and is not scrolled away). */
static void
assert_inside (GtkWidget *widget,
               GtkWidget *area)
{
  graphene_rect_t bounds;

  g_assert_nonnull (widget);
  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_true (gtk_widget_compute_bounds (widget, area, &bounds));
  g_assert_cmpfloat (bounds.origin.x, >=, 0.0);
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (area) + 0.5);
}

/* @widget lies inside @area from top to bottom. */
static void
assert_inside_vertically (GtkWidget *widget,
                          GtkWidget *area)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, area, &bounds));
  g_test_message ("row at %.0f..%.0f of %d", bounds.origin.y, bounds.origin.y + bounds.size.height,
                  gtk_widget_get_height (area));
  g_assert_cmpfloat (bounds.origin.y, >=, -0.5);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (area) + 0.5);
}

static MatApplication *layout_app;

/* The editor's window at @width x @height on the material with the most
 * phases: the Phases page shows every default column without a
 * horizontal scroll bar, the # column in view and no text cut short;
 * the raw bytes open under the table, all in view. Screenshots of both. */
static void
window_layout (int width,
               int height)
{
  g_autoptr(GFile) file = home_copy ("DEMO_LIB", "Material.lib");
  g_autoptr(GFile) textures = home_copy ("DEMO_TEXTURES", "Textures.lib");
  g_autoptr(GError) error = NULL;
  const char *lang = g_getenv ("PHASE_TABLE_TEST_RUSSIAN") != NULL ? "ru" : "en";
  g_autofree char *name = NULL;
  g_autofree char *raw_name = NULL;
  MatWindow *window;
  MatLibrary *library;
  MatMaterial *best = NULL;
  MatPhaseTable *table;
  GtkWidget *scroller, *column_view, *info, *header;
  GtkAdjustment *h;
  GtkRequisition min;
  guint n;

  if (layout_app == NULL)
    {
      layout_app = mat_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
      g_application_register (G_APPLICATION (layout_app), NULL, &error);
      g_assert_no_error (error);
    }
  window = mat_window_new (layout_app);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (window_idle, window, 20));
  library = mat_window_get_library (window);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (library)); i++)
    {
      MatMaterial *material = mat_library_get_material (library, i);

      if (mat_material_get_editable (material) &&
          (best == NULL || mat_material_get_n_phases (material) > mat_material_get_n_phases (best)))
        best = material;
    }
  g_assert_nonnull (best);
  n = mat_material_get_n_phases (best);
  g_assert_cmpuint (n, >=, 4);
  mat_window_select_material (window, best);
  table = MAT_PHASE_TABLE (gtk_widget_get_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW,
                                                          "phase_table"));
  g_assert_true (mat_phase_table_get_material (table) == best);
  g_assert_true (ui_wait_for (ui_widget_is_shown, table, 5));
  ui_spin_ms (300);

  /* the window is the size asked for (less the frame of its shadow) */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, width);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), >=, width - 20);

  /* No horizontal scrolling: the columns' least width fits. */
  scroller = ui_find_by_type (GTK_WIDGET (table), GTK_TYPE_SCROLLED_WINDOW);
  column_view = ui_find_by_type (GTK_WIDGET (table), GTK_TYPE_COLUMN_VIEW);
  gtk_widget_get_preferred_size (column_view, &min, NULL);
  g_test_message ("%s %dx%d: the columns need %d px of %d", lang, width, height,
                  min.width, gtk_widget_get_width (scroller));
  g_assert_cmpint (min.width, <=, gtk_widget_get_width (scroller));
  h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_upper (h), <=, gtk_adjustment_get_page_size (h));

  /* The # column and the last one in view, in the heads and the rows. */
  header = gtk_widget_get_first_child (column_view);
  g_assert_cmpstr (gtk_widget_get_css_name (header), ==, "header");
  assert_inside (gtk_widget_get_first_child (header), scroller);
  assert_inside (gtk_widget_get_last_child (header), scroller);
  /* every row in view (the window's height shows some of them; the
   * rest scroll up and down) has every column inside */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (mat_phase_table_get_texture_for_test (table, 0))));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (mat_phase_table_get_texture_for_test (table, 1))));
  for (guint row = 0; row < n; row++)
    {
      if (!gtk_widget_get_mapped (GTK_WIDGET (mat_phase_table_get_texture_for_test (table, row))))
        continue;
      assert_inside (GTK_WIDGET (mat_phase_table_get_swatch_for_test (table, row, MAT_PHASE_COLOUR_DIFFUSE)), scroller);
      assert_inside (GTK_WIDGET (mat_phase_table_get_texture_for_test (table, row)), scroller);
      assert_inside (GTK_WIDGET (mat_phase_table_get_cell_chooser_for_test (table, row)), scroller);
      assert_inside (GTK_WIDGET (mat_phase_table_get_spin_for_test (table, row, 16)), scroller);
    }
  assert_nothing_ellipsized (GTK_WIDGET (table));

  /* The page's heading is the window's: say when it is cut short. */
  info = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW,
                                                    "material_info_label"));
  if (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (info))))
    g_test_message ("the window's heading is cut short: “%s”", gtk_label_get_text (GTK_LABEL (info)));

  name = g_strdup_printf ("phases-%s-%dx%d.png", lang, width, height);
  ui_screenshot (GTK_WIDGET (window), name);

  /* The raw bytes of the selected phase, under the table. */
  mat_phase_table_set_selected (table, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (table), "phase.show-raw-bytes", NULL));
  g_assert_true (mat_phase_table_get_show_raw_bytes (table));
  g_assert_true (ui_wait_for (raw_shown, table, 5));
  ui_spin_ms (300);
  for (guint p = 0; p < MAT0_N_PARAMS; p++)
    {
      GtkSpinButton *spin = mat_phase_table_get_spin_for_test (table, 1, p);

      assert_inside (GTK_WIDGET (spin), GTK_WIDGET (table));
      g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==,
                       mat_phase_get_param (ui_phase_at (best, 1), p));
    }
  gtk_widget_get_preferred_size (column_view, &min, NULL);
  g_assert_cmpint (min.width, <=, gtk_widget_get_width (scroller));
  /* the table still shows the selected row above its bytes (more rows
   * once the window is taller, or the preview under it is hidden) */
  g_assert_cmpint (gtk_widget_get_height (scroller), >=, 60);
  /* the last row selected, then the bytes opened: its row stays in
   * sight above them, wherever the table had to scroll to */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (table), "phase.show-raw-bytes", NULL));
  g_assert_false (mat_phase_table_get_show_raw_bytes (table));
  ui_spin_ms (300);
  mat_phase_table_set_selected (table, n - 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (table), "phase.show-raw-bytes", NULL));
  g_assert_true (ui_wait_for (raw_shown, table, 5));
  ui_spin_ms (300);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (mat_phase_table_get_texture_for_test (table, n - 1))));
  assert_inside_vertically (GTK_WIDGET (mat_phase_table_get_texture_for_test (table, n - 1)), scroller);
  assert_nothing_ellipsized (GTK_WIDGET (table));
  raw_name = g_strdup_printf ("phases-raw-%s-%dx%d.png", lang, width, height);
  ui_screenshot (GTK_WIDGET (window), raw_name);

  /* a swatch's popover, the self-light's: its four bytes to type */
  {
    g_autofree char *popover_name = g_strdup_printf ("phases-popover-%s-%dx%d.png", lang, width, height);
    GtkPopover *popover;

    g_signal_emit_by_name (mat_phase_table_get_swatch_for_test (table, 1, MAT_PHASE_COLOUR_AMBIENT), "clicked");
    g_assert_true (ui_wait_for (popover_shown, table, 5));
    popover = mat_phase_table_get_colour_popover_for_test (table);
    assert_nothing_ellipsized (GTK_WIDGET (popover));
    ui_screenshot (GTK_WIDGET (popover), popover_name);
    gtk_popover_popdown (popover);
    ui_spin_ms (50);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  ui_spin_ms (50);
}

static void
test_window_layout (void)
{
  window_layout (1100, 720);
  window_layout (1280, 800);
}

/* The same in Russian: a fresh process, the catalogue of the build
 * folder (main() binds it when LANGUAGE is set). */
static void
test_window_layout_ru (void)
{
  if (g_test_subprocess ())
    {
      /* the catalogue is in use: the index column is headed "№" */
      g_assert_cmpstr (_("#"), ==, "№");
      window_layout (1100, 720);
      window_layout (1280, 800);
      return;
    }
  g_setenv ("PHASE_TABLE_TEST_RUSSIAN", "1", TRUE);
  g_setenv ("LANGUAGE", "ru", TRUE);
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDOUT | G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unsetenv ("PHASE_TABLE_TEST_RUSSIAN");
  g_unsetenv ("LANGUAGE");
  g_unsetenv ("LC_ALL");
  g_test_trap_assert_passed ();
}

int
main (int argc, char *argv[])
{
  int status;

  /* The Russian layout test runs this program again with LANGUAGE=ru:
   * the editor's catalogue then, bound as the editor binds it. */
  if (g_getenv ("PHASE_TABLE_TEST_RUSSIAN") != NULL)
    {
      setlocale (LC_ALL, "");
      mat_application_bind_text_domain ();
      textdomain (GETTEXT_PACKAGE);
    }
  home_setup ();
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/phase-table/spin", test_spin);
  g_test_add_func ("/ui/phase-table/texture", test_texture);
  g_test_add_func ("/ui/phase-table/alpha-notes", test_alpha_notes);
  g_test_add_func ("/ui/phase-table/actions", test_actions);
  g_test_add_func ("/ui/phase-table/colour", test_colour);
  g_test_add_func ("/ui/phase-table/headers", test_headers);
  g_test_add_func ("/ui/phase-table/raw-bytes", test_raw_bytes);
  g_test_add_func ("/ui/phase-table/focus-ring", test_focus_ring);
  g_test_add_func ("/ui/phase-table/wheel", test_wheel);
  g_test_add_func ("/ui/phase-table/opacity", test_opacity);
  g_test_add_func ("/ui/phase-table/cell-chooser", test_cell_chooser);
#if !GTK_CHECK_VERSION (4, 10, 0)
  g_test_add_func ("/ui/phase-table/picker", test_picker);
  g_test_add_func ("/ui/phase-table/picker-editor", test_picker_editor);
#endif
  g_test_add_func ("/ui/phase-table/read-only", test_read_only);
  g_test_add_func ("/ui/phase-table/opacity-typed", test_opacity_typed);
  g_test_add_func ("/ui/phase-table/colour-bytes", test_colour_bytes);
  g_test_add_func ("/ui/phase-table/edit-selects-row", test_edit_selects_row);
  g_test_add_func ("/ui/phase-table/dimmed-swatch-colour", test_dimmed_swatch_colour);
  g_test_add_func ("/ui/phase-table/dimmed-bytes-editable", test_dimmed_bytes_editable);
  g_test_add_func ("/ui/phase-table/screenshot", test_screenshot);
  g_test_add_func ("/ui/phase-table/window-layout", test_window_layout);
  g_test_add_func ("/ui/phase-table/window-layout-ru", test_window_layout_ru);

  status = g_test_run ();
  remove_tree (home_dir);
  g_free (home_dir);
  return status;
}
