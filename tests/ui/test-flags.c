/* test-flags.c - MatFlagsInspector and MatMetaEditor driven through their
 * real widgets, checked on the model and on the saved bytes.
 *
 * Environment: DEMO_LIB (the demo Material.lib); optional
 * SCREENSHOT_DIR, where the screenshots go (else the build directory).
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include <gtk/gtk.h>
#include <glib/gi18n.h>

#include "mat0-fields.h"
#include "mat-application.h"
#include "mat-flags-inspector-private.h"
#include "mat-library.h"
#include "mat-meta-editor-private.h"
#include "mat-resources.h"
#include "mat-window.h"
#include "nres.h"
#include "test-support.h"
#include "ui-support.h"

/* Helpers */

static GtkWidget *
flags_widget (GtkWidget  *inspector,
              const char *name)
{
  GtkWidget *widget = mat_flags_inspector_get_test_widget (MAT_FLAGS_INSPECTOR (inspector), name);

  g_assert_nonnull (widget);
  return widget;
}

static GtkWidget *
meta_widget (GtkWidget  *editor,
             const char *name)
{
  GtkWidget *widget = mat_meta_editor_get_test_widget (MAT_META_EDITOR (editor), name);

  g_assert_nonnull (widget);
  return widget;
}

/* A click as GtkButton delivers it (gtk_widget_activate would emit
 * "clicked" only after the pressed-state timeout). */
static void
click (GtkWidget *button)
{
  g_assert_true (GTK_IS_BUTTON (button));
  g_signal_emit_by_name (button, "clicked");
  ui_pump ();
}

static const char *
label_text (GtkWidget *label)
{
  return gtk_label_get_text (GTK_LABEL (label));
}

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("\"%s\" does not contain \"%s\"", haystack, needle);
}

/* Saved bytes equal @original except for the attr1 field (offset 4 of
 * the 64-byte directory entry, formats.md 1) of entry @index, which was
 * @before and is now @after. */
static void
assert_only_attr1_changed (GBytes  *original,
                           GBytes  *saved,
                           guint    index,
                           guint32  before,
                           guint32  after)
{
  gsize n, m;
  const guint8 *a = g_bytes_get_data (original, &n);
  const guint8 *b = g_bytes_get_data (saved, &m);
  gsize field = test_get_u32 (a + 12) - (gsize) test_get_u32 (a + 8) * 64 + (gsize) index * 64 + 4;

  g_assert_cmpuint (n, ==, m);
  g_assert_cmpuint (test_get_u32 (a + 12), ==, n);
  g_assert_cmpuint (field + 4, <=, n);
  g_assert_cmphex (test_get_u32 (a + field), ==, before);
  g_assert_cmphex (test_get_u32 (b + field), ==, after);
  for (gsize i = 0; i < n; i++)
    if (i < field || i >= field + 4)
      g_assert_cmpuint (a[i], ==, b[i]);
}

/* MatFlagsInspector */

static void
test_flags_known_bits (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(MatLibrary) lib = ui_library_new (original);
  MatMaterial *m = ui_find_material (lib, "HW_BUMP_FLAGS");
  MatHistory *history = mat_library_get_history (lib);
  GtkWidget *insp = mat_flags_inspector_new ();
  GtkWindow *window;
  GtkWidget *ext, *hw, *behaviour;

  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x103);
  mat_flags_inspector_set_material (MAT_FLAGS_INSPECTOR (insp), m);
  g_assert_true (mat_flags_inspector_get_material (MAT_FLAGS_INSPECTOR (insp)) == m);
  window = ui_show (insp, "flags", 640, 900);

  ext = flags_widget (insp, "ext-texture-load");
  hw = flags_widget (insp, "hw-profile");
  behaviour = flags_widget (insp, "behaviour");
  g_assert_true (GTK_IS_CHECK_BUTTON (ext));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (ext)));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (hw)));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (behaviour)));
  g_assert_cmpstr (label_text (flags_widget (insp, "attr1")), ==, "0x00000103");
  g_assert_cmpstr (label_text (flags_widget (insp, "unknown-bits")), ==, "0x00000100");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (flags_widget (insp, "bit-8"))), ==, "1");
  g_assert_true (gtk_widget_is_sensitive (hw));

  /* One known bit at a time; bit 8 stays */
  gtk_check_button_set_active (GTK_CHECK_BUTTON (behaviour), TRUE);
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x143);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (hw), FALSE);
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x141);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (ext), FALSE);
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x140);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 3);
  g_assert_cmpstr (label_text (flags_widget (insp, "attr1")), ==, "0x00000140");

  /* The view follows the model (undo) */
  g_assert_true (mat_history_undo (history));
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x141);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (ext)));
  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_history_undo (history));
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x103);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (hw)));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (behaviour)));
  g_assert_cmpstr (label_text (flags_widget (insp, "attr1")), ==, "0x00000103");
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 0);

  gtk_window_destroy (window);
}

static const char *
dropdown_text (GtkWidget *dropdown,
               guint      position)
{
  g_autoptr(GtkStringObject) item = g_list_model_get_item (gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown)), position);

  g_assert_nonnull (item);
  return gtk_string_object_get_string (item);
}

/* The rows are named from the table. */
static void
test_flags_labels (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(MatLibrary) lib = ui_library_new (original);
  GtkWidget *insp = mat_flags_inspector_new ();
  g_autofree char *tip = NULL;
  GtkWindow *window;
  static const char *const titles[MAT0_N_FLAG_FIELDS] = { "ext-title", "hw-title", "behaviour-title" };

  mat_flags_inspector_set_material (MAT_FLAGS_INSPECTOR (insp), ui_find_material (lib, "HW_BUMP_FLAGS"));
  window = ui_show (insp, "flags", 640, 900);

  for (guint i = 0; i < MAT0_N_FLAG_FIELDS; i++)
    g_assert_cmpstr (label_text (flags_widget (insp, titles[i])), ==, _(mat0_fields_flag (i)->label));
  g_assert_cmpstr (label_text (flags_widget (insp, "ext-caption")), ==, _(mat0_fields_flag (0)->meaning));
  g_assert_cmpstr (label_text (flags_widget (insp, "blend-caption")), ==, _(mat0_fields_blend_index ()->meaning));
  g_assert_cmpstr (label_text (flags_widget (insp, "unknown-title")), ==, _(mat0_fields_unknown_bits ()->label));
  g_assert_cmpstr (mat0_fields_flag (0)->label, ==, "Extended texture load");

  /* the cells name their field too */
  tip = mat_flags_inspector_dup_bit_tooltip (MAT_FLAGS_INSPECTOR (insp), 0);
  g_assert_cmpstr (tip, ==, "Bit 0 (0x00000001): Extended texture load — now 1. Click to flip it.");
  g_clear_pointer (&tip, g_free);
  tip = mat_flags_inspector_dup_bit_tooltip (MAT_FLAGS_INSPECTOR (insp), 3);
  g_assert_cmpstr (tip, ==, "Bit 3 (0x00000008): Blend index — now 0. Click to flip it.");

  gtk_window_destroy (window);
}

/* Bits 2..5 as the blend index: a drop-down of the engine's five indices
 * with their render modes; a choice changes those four bits only. */
static void
test_flags_blend (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(MatLibrary) lib = ui_library_new (original);
  MatMaterial *m = ui_find_material (lib, "HW_BUMP_FLAGS");
  MatHistory *history = mat_library_get_history (lib);
  GtkWidget *insp = mat_flags_inspector_new ();
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) restored = NULL;
  g_autoptr(GError) error = NULL;
  GtkWindow *window;
  GtkWidget *blend, *raw;

  mat_flags_inspector_set_material (MAT_FLAGS_INSPECTOR (insp), m);
  window = ui_show (insp, "flags", 640, 900);
  blend = flags_widget (insp, "blend");
  raw = flags_widget (insp, "blend-raw");
  g_assert_true (GTK_IS_DROP_DOWN (blend));
  g_assert_true (gtk_widget_is_sensitive (blend));

  /* the five indices of the engine's table, each with its render mode */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (blend))), ==, 5);
  for (guint b = 0; b < MAT0_N_BLEND_INDICES; b++)
    {
      g_autofree char *expected = mat0_fields_blend_dup_reading (b);

      g_assert_cmpstr (dropdown_text (blend, b), ==, expected);
    }
  g_assert_cmpstr (dropdown_text (blend, 0), ==, "Opaque — mode 0: ONE / ZERO");
  g_assert_cmpstr (dropdown_text (blend, 1), ==, "See-through — mode 4: SRCALPHA / INVSRCALPHA");
  g_assert_cmpstr (dropdown_text (blend, 2), ==, "Additive — mode 2: SRCALPHA / ONE");
  g_assert_cmpstr (dropdown_text (blend, 3), ==, "Modulate — mode 3: ZERO / SRCCOLOR");
  g_assert_cmpstr (dropdown_text (blend, 4), ==, "Double modulate — mode 5: DESTCOLOR / SRCCOLOR");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (blend)), ==, 0);
  g_assert_cmpstr (label_text (raw), ==, "bits 2–5 = 0000 (b = 0)");

  /* each choice: one step, bits 2..5 only; bits 0, 1 and 8 stay */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (blend), 1);
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x107);
  g_assert_cmpstr (label_text (raw), ==, "bits 2–5 = 0001 (b = 1)");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (blend), 4);
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x113);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (blend), 2);
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x10B);
  g_assert_cmpstr (label_text (raw), ==, "bits 2–5 = 0010 (b = 2)");
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 3);
  g_assert_cmpstr (label_text (flags_widget (insp, "attr1")), ==, "0x0000010B");
  saved = mat_library_save_to_bytes (lib, &error);
  g_assert_no_error (error);
  assert_only_attr1_changed (original, saved, (guint) mat_library_index_of (lib, m), 0x103, 0x10B);

  /* the view follows undo */
  g_assert_true (mat_history_undo (history));
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x113);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (blend)), ==, 4);

  /* An index past the engine's table: shown as stored, kept */
  g_assert_true (mat_material_set_attr1 (m, 0x103 | (7u << 2), NULL));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (blend))), ==, 6);
  g_assert_cmpstr (dropdown_text (blend, 5), ==, "Unknown (7) — past the engine’s table, drawn as opaque");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (blend)), ==, 5);
  g_assert_cmpstr (label_text (raw), ==, "bits 2–5 = 0111 (b = 7)");
  /* another unknown index replaces the entry */
  g_assert_true (mat_material_set_attr1 (m, 0xF0000000u | 0x103 | (15u << 2), NULL));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (blend))), ==, 6);
  g_assert_cmpstr (dropdown_text (blend, 5), ==, "Unknown (15) — past the engine’s table, drawn as opaque");
  g_assert_cmpstr (label_text (raw), ==, "bits 2–5 = 1111 (b = 15)");
  /* choosing a known index: bits 2..5 only, the unknown high bits stay */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (blend), 3);
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0xF0000000u | 0x103 | (3u << 2));
  ui_pump ();
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (blend))), ==, 5);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (blend)), ==, 3);
  g_assert_true (mat_history_undo (history));
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0xF0000000u | 0x103 | (15u << 2));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (blend)), ==, 5);
  g_assert_cmpstr (dropdown_text (blend, 5), ==, "Unknown (15) — past the engine’s table, drawn as opaque");

  /* the model drives the drop-down */
  g_assert_true (mat_material_set_attr1 (m, 0x103 | (1u << 2), NULL));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (blend)), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (blend))), ==, 5);

  while (mat_history_undo (history))
    ;
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x103);
  restored = mat_library_save_to_bytes (lib, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (restored, original));

  gtk_window_destroy (window);
}

static void
test_flags_unknown_cell_and_bytes (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(MatLibrary) lib = ui_library_new (original);
  MatMaterial *m = ui_find_material (lib, "HW_BUMP_FLAGS");
  MatHistory *history = mat_library_get_history (lib);
  GtkWidget *insp = mat_flags_inspector_new ();
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) restored = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tip = NULL;
  GtkWindow *window;
  GtkWidget *cell8, *cell20;

  mat_flags_inspector_set_material (MAT_FLAGS_INSPECTOR (insp), m);
  window = ui_show (insp, "flags", 640, 900);
  cell8 = flags_widget (insp, "bit-8");
  cell20 = flags_widget (insp, "bit-20");
  g_assert_true (gtk_widget_is_sensitive (cell8));

  /* Each cell says what it is when the pointer rests on it, as it is now */
  g_assert_true (gtk_widget_get_has_tooltip (cell8));
  tip = mat_flags_inspector_dup_bit_tooltip (MAT_FLAGS_INSPECTOR (insp), 8);
  g_assert_cmpstr (tip, ==, "Bit 8 (0x00000100): unknown — kept as is, now 1. "
                            "Click to flip it deliberately.");
  g_clear_pointer (&tip, g_free);
  tip = mat_flags_inspector_dup_bit_tooltip (MAT_FLAGS_INSPECTOR (insp), 0);
  assert_contains (tip, "Bit 0 (0x00000001): ");
  assert_contains (tip, " — now 1. Click to flip it.");
  g_clear_pointer (&tip, g_free);

  /* A deliberate click on an unknown bit's cell flips it */
  click (cell8);
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x003);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (cell8)), ==, "0");
  tip = mat_flags_inspector_dup_bit_tooltip (MAT_FLAGS_INSPECTOR (insp), 8);
  assert_contains (tip, "now 0.");
  g_clear_pointer (&tip, g_free);
  click (cell20);
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x003 | (1u << 20));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (cell20)), ==, "1");

  /* Only attr1's four directory bytes differ */
  saved = mat_library_save_to_bytes (lib, &error);
  g_assert_no_error (error);
  assert_only_attr1_changed (original, saved, (guint) mat_library_index_of (lib, m),
                             0x103, 0x003 | (1u << 20));

  /* A known bit through the grid too; then undo all of it exactly */
  click (flags_widget (insp, "bit-6"));
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x043 | (1u << 20));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (flags_widget (insp, "behaviour"))));
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 3);
  while (mat_history_undo (history))
    ;
  g_assert_cmphex (mat_material_get_attr1 (m), ==, 0x103);
  restored = mat_library_save_to_bytes (lib, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (restored, original));

  gtk_window_destroy (window);
}

static void
test_flags_convert_version (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(MatLibrary) lib = ui_library_new (original);
  MatMaterial *m = ui_find_material (lib, "OLD_VERSION2");
  MatHistory *history = mat_library_get_history (lib);
  GtkWidget *insp = mat_flags_inspector_new ();
  g_autoptr(GBytes) converted = NULL;
  g_autoptr(GBytes) restored = NULL;
  g_autoptr(GError) error = NULL;
  GtkWindow *window;
  GtkWidget *spin, *summary;

  g_assert_cmpuint (mat_material_get_attr2 (m), ==, 2);
  g_assert_false (mat_material_has_meta_c (m));
  mat_flags_inspector_set_material (MAT_FLAGS_INSPECTOR (insp), m);
  window = ui_show (insp, "flags", 640, 900);
  assert_contains (label_text (flags_widget (insp, "attr2")), "2");

  /* The dialog: a spin and a sentence naming the fields and defaults */
  g_assert_null (mat_flags_inspector_get_test_widget (MAT_FLAGS_INSPECTOR (insp), "convert-dialog"));
  g_assert_true (gtk_widget_activate_action (insp, "flags.convert-version", NULL));
  ui_pump ();
  g_assert_nonnull (mat_flags_inspector_get_test_widget (MAT_FLAGS_INSPECTOR (insp), "convert-dialog"));
  spin = flags_widget (insp, "convert-spin");
  summary = flags_widget (insp, "convert-summary");
  g_assert_false (gtk_widget_get_sensitive (flags_widget (insp, "convert-apply")));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 4);
  assert_contains (label_text (summary), "metaC = 1.0 (0x3F800000)");
  assert_contains (label_text (summary), "metaD = 0");
  g_assert_null (strstr (label_text (summary), "metaA"));
  g_assert_true (gtk_widget_get_sensitive (flags_widget (insp, "convert-apply")));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 1);
  assert_contains (label_text (summary), "metaA (now 5)");
  assert_contains (label_text (summary), "metaB (now 6)");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 4);

  /* Apply */
  click (flags_widget (insp, "convert-apply"));
  ui_pump ();
  g_assert_null (mat_flags_inspector_get_test_widget (MAT_FLAGS_INSPECTOR (insp), "convert-dialog"));
  g_assert_cmpuint (mat_material_get_attr2 (m), ==, 4);
  g_assert_true (mat_material_has_meta_c (m));
  g_assert_true (mat_material_has_meta_d (m));
  g_assert_cmphex (mat_material_get_meta_c (m), ==, 0x3F800000);
  g_assert_cmpuint (mat_material_get_meta_d (m), ==, 0);
  g_assert_cmpuint (mat_material_get_meta_a (m), ==, 5);
  g_assert_cmpuint (mat_material_get_meta_b (m), ==, 6);
  assert_contains (label_text (flags_widget (insp, "attr2")), "4");
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  converted = mat_library_save_to_bytes (lib, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (converted), >, g_bytes_get_size (original));

  /* Undo restores the version and the payload bytes */
  g_assert_true (mat_history_undo (history));
  g_assert_cmpuint (mat_material_get_attr2 (m), ==, 2);
  g_assert_false (mat_material_has_meta_c (m));
  assert_contains (label_text (flags_widget (insp, "attr2")), "2");
  restored = mat_library_save_to_bytes (lib, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (restored, original));

  /* The apply function alone */
  g_assert_true (mat_flags_inspector_convert_version (MAT_FLAGS_INSPECTOR (insp), 3, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mat_material_get_attr2 (m), ==, 3);
  g_assert_true (mat_history_undo (history));

  gtk_window_destroy (window);
}

static void
test_flags_rebind_and_null (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(MatLibrary) lib = ui_library_new (original);
  MatMaterial *a = ui_find_material (lib, "HW_BUMP_FLAGS");
  MatMaterial *b = ui_find_material (lib, "SMOKE_PUFF");
  GtkWidget *insp = mat_flags_inspector_new ();
  GtkWindow *window;

  mat_flags_inspector_set_material (MAT_FLAGS_INSPECTOR (insp), a);
  window = ui_show (insp, "flags", 640, 900);
  g_assert_true (gtk_widget_activate_action (insp, "flags.convert-version", NULL));
  g_assert_nonnull (mat_flags_inspector_get_test_widget (MAT_FLAGS_INSPECTOR (insp), "convert-dialog"));

  /* Another material: the dialog goes, the view shows the new one and
   * the old one's changes no longer reach it */
  g_object_set (insp, "material", b, NULL);
  g_assert_null (mat_flags_inspector_get_test_widget (MAT_FLAGS_INSPECTOR (insp), "convert-dialog"));
  g_assert_cmpstr (label_text (flags_widget (insp, "attr1")), ==, "0x00000048");
  g_assert_true (mat_material_set_attr1 (a, 0x7, NULL));
  g_assert_cmpstr (label_text (flags_widget (insp, "attr1")), ==, "0x00000048");
  g_assert_true (mat_material_set_attr1 (b, 0x49, NULL));
  g_assert_cmpstr (label_text (flags_widget (insp, "attr1")), ==, "0x00000049");

  mat_flags_inspector_set_material (MAT_FLAGS_INSPECTOR (insp), NULL);
  g_assert_null (mat_flags_inspector_get_material (MAT_FLAGS_INSPECTOR (insp)));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (gtk_widget_get_first_child (insp))),
                   ==, "empty");
  gtk_widget_activate_action (insp, "flags.flip-bit", "u", 3);
  g_assert_cmphex (mat_material_get_attr1 (b), ==, 0x49);

  gtk_window_destroy (window);
}

/* A library with a Texm entry: listed, read-only */
static GBytes *
odd_library (void)
{
  static const guint8 texm[] = { 'T', 'e', 'x', 'm', 1, 2, 3, 4, 5 };
  g_autoptr(GBytes) good = test_worked_example_payload (0);
  TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 1, 6, 0, "DEFAULT", g_bytes_get_data (good, NULL), g_bytes_get_size (good), 0 },
    { NRES_TYPE_TEXM, 0x80000001u, 3, 0, "ROCK.0", texm, sizeof texm, 0 },
  };

  return test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
}

static void
test_read_only (void)
{
  g_autoptr(GBytes) original = odd_library ();
  g_autoptr(MatLibrary) lib = ui_library_new (original);
  MatMaterial *texm = ui_find_material (lib, "ROCK.0");
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *insp = mat_flags_inspector_new ();
  GtkWidget *editor = mat_meta_editor_new ();
  GtkWindow *window;

  g_assert_false (mat_material_get_editable (texm));
  gtk_box_append (GTK_BOX (box), insp);
  gtk_box_append (GTK_BOX (box), editor);
  mat_flags_inspector_set_material (MAT_FLAGS_INSPECTOR (insp), texm);
  mat_meta_editor_set_material (MAT_META_EDITOR (editor), texm);
  window = ui_show (box, "read-only", 1200, 900);

  g_assert_cmpstr (label_text (flags_widget (insp, "attr1")), ==, "0x80000001");
  g_assert_false (gtk_widget_is_sensitive (flags_widget (insp, "ext-texture-load")));
  g_assert_false (gtk_widget_is_sensitive (flags_widget (insp, "blend")));
  g_assert_false (gtk_widget_is_sensitive (flags_widget (insp, "bit-31")));
  g_assert_false (gtk_widget_is_sensitive (flags_widget (insp, "convert-button")));
  click (flags_widget (insp, "bit-31"));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (flags_widget (insp, "hw-profile")), TRUE);
  g_assert_cmphex (mat_material_get_attr1 (texm), ==, 0x80000001u);
  g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (lib)), ==, 0);

  g_assert_false (gtk_widget_is_sensitive (meta_widget (editor, "unlock")));
  mat_meta_editor_set_unlocked (MAT_META_EDITOR (editor), TRUE);
  g_assert_false (mat_meta_editor_get_unlocked (MAT_META_EDITOR (editor)));
  g_assert_false (gtk_widget_is_sensitive (meta_widget (editor, "meta-a")));

  gtk_window_destroy (window);
}

/* MatMetaEditor */

static void
test_meta_lock_and_edit (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(MatLibrary) lib = ui_library_new (original);
  MatMaterial *m = ui_find_material (lib, "HW_BUMP_FLAGS");
  MatMaterial *other = ui_find_material (lib, "DEFAULT");
  MatHistory *history = mat_library_get_history (lib);
  GtkWidget *editor = mat_meta_editor_new ();
  GtkWindow *window;
  GtkWidget *unlock, *spin_a, *spin_d, *fl, *raw;

  g_assert_cmpuint (mat_material_get_meta_a (m), ==, 1);
  mat_meta_editor_set_material (MAT_META_EDITOR (editor), m);
  window = ui_show (editor, "meta", 640, 600);
  unlock = meta_widget (editor, "unlock");
  spin_a = meta_widget (editor, "meta-a");
  spin_d = meta_widget (editor, "meta-d");
  fl = meta_widget (editor, "meta-c-float");
  raw = meta_widget (editor, "meta-c-raw");

  /* Locked at first */
  g_assert_false (mat_meta_editor_get_unlocked (MAT_META_EDITOR (editor)));
  g_assert_true (gtk_widget_is_sensitive (unlock));
  g_assert_false (gtk_widget_is_sensitive (spin_a));
  g_assert_false (gtk_widget_is_sensitive (spin_d));
  g_assert_false (gtk_widget_is_sensitive (fl));
  g_assert_false (gtk_widget_is_sensitive (raw));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin_a)), ==, 1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fl)), ==, "1.0");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (raw)), ==, "0x3F800000");
  g_assert_cmpstr (label_text (meta_widget (editor, "status-a")), ==, "1 — ground");
  g_assert_cmpstr (label_text (meta_widget (editor, "status-c")), ==, "units move at 1.0 × their normal speed");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin_a), 9);   /* locked: ignored */
  g_assert_cmpuint (mat_material_get_meta_a (m), ==, 1);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin_a)), ==, 1);

  /* Unlock through the toggle */
  click (unlock);
  ui_pump ();
  g_assert_true (mat_meta_editor_get_unlocked (MAT_META_EDITOR (editor)));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (unlock)));
  g_assert_true (gtk_widget_is_sensitive (spin_a));
  g_assert_true (gtk_widget_is_sensitive (fl));

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin_a), 5);
  g_assert_cmpuint (mat_material_get_meta_a (m), ==, 5);
  g_assert_cmpstr (label_text (meta_widget (editor, "status-a")), ==, "5 — object skins");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin_d), 70000);
  g_assert_cmpuint (mat_material_get_meta_d (m), ==, 70000);
  g_assert_cmpstr (label_text (meta_widget (editor, "status-d")), ==, "70000 hit points lost per second");
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 2);

  /* metaC as float and as raw hex, in sync */
  gtk_editable_set_text (GTK_EDITABLE (fl), "0.5");
  g_signal_emit_by_name (fl, "activate");
  g_assert_cmphex (mat_material_get_meta_c (m), ==, 0x3F000000);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (raw)), ==, "0x3F000000");
  g_assert_cmpstr (label_text (meta_widget (editor, "status-c")), ==, "units move at 0.5 × their normal speed");
  gtk_editable_set_text (GTK_EDITABLE (raw), "40000000");
  g_signal_emit_by_name (raw, "activate");
  g_assert_cmphex (mat_material_get_meta_c (m), ==, 0x40000000);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fl)), ==, "2.0");
  gtk_editable_set_text (GTK_EDITABLE (fl), "0,25");
  g_signal_emit_by_name (fl, "activate");
  g_assert_cmphex (mat_material_get_meta_c (m), ==, 0x3E800000);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 5);

  /* Text that does not parse: error style, nothing written */
  gtk_editable_set_text (GTK_EDITABLE (fl), "half");
  g_signal_emit_by_name (fl, "activate");
  g_assert_true (gtk_widget_has_css_class (fl, "error"));
  g_assert_cmphex (mat_material_get_meta_c (m), ==, 0x3E800000);
  gtk_editable_set_text (GTK_EDITABLE (raw), "0x1234567890");
  g_signal_emit_by_name (raw, "activate");
  g_assert_true (gtk_widget_has_css_class (raw, "error"));
  gtk_editable_set_text (GTK_EDITABLE (fl), "1e60");
  g_signal_emit_by_name (fl, "activate");
  g_assert_true (gtk_widget_has_css_class (fl, "error"));
  g_assert_cmphex (mat_material_get_meta_c (m), ==, 0x3E800000);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 5);

  /* The view follows the model */
  g_assert_true (mat_history_undo (history));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fl)), ==, "2.0");
  g_assert_false (gtk_widget_has_css_class (fl, "error"));

  /* Another material locks again */
  mat_meta_editor_set_material (MAT_META_EDITOR (editor), other);
  g_assert_false (mat_meta_editor_get_unlocked (MAT_META_EDITOR (editor)));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (unlock)));
  g_assert_false (gtk_widget_is_sensitive (spin_a));
  mat_meta_editor_set_material (MAT_META_EDITOR (editor), m);
  g_assert_false (mat_meta_editor_get_unlocked (MAT_META_EDITOR (editor)));

  gtk_window_destroy (window);
}

static gboolean
names_d3dblend (GtkWidget     *widget,
                gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), "D3DBLEND") != NULL;
}

/* The engine's readings of formats.md 2.4, named from the table. */
static void
test_meta_readings (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(MatLibrary) lib = ui_library_new (original);
  MatMaterial *m = ui_find_material (lib, "HW_BUMP_FLAGS");
  GtkWidget *editor = mat_meta_editor_new ();
  GtkWindow *window;
  static const struct { guint8 value; const char *reading; } classes[] = {
    { 0, "0 — ground" }, { 4, "4 — ground" }, { 5, "5 — object skins" }, { 6, "6 — foliage" },
    { 7, "7 — water" }, { 9, "9 — smaller families" }, { 12, "12 — no known class" },
    { 255, "255 — not set" },
  };
  static const char *const names[MAT0_N_META] = { "name-a", "name-b", "name-c", "name-d" };
  static const char *const captions[MAT0_N_META] = { "caption-a", "caption-b", "caption-c", "caption-d" };

  mat_meta_editor_set_material (MAT_META_EDITOR (editor), m);
  window = ui_show (editor, "meta", 640, 600);

  for (guint i = 0; i < MAT0_N_META; i++)
    {
      g_assert_cmpstr (label_text (meta_widget (editor, names[i])), ==, _(mat0_fields_meta (i)->label));
      g_assert_cmpstr (label_text (meta_widget (editor, captions[i])), ==, _(mat0_fields_meta (i)->meaning));
    }
  g_assert_cmpstr (label_text (meta_widget (editor, "name-a")), ==, "Ground class");
  g_assert_cmpstr (label_text (meta_widget (editor, "name-b")), ==, "Unused");
  g_assert_cmpstr (label_text (meta_widget (editor, "name-c")), ==, "Speed factor");
  g_assert_cmpstr (label_text (meta_widget (editor, "name-d")), ==, "Damage per second");
  /* the old Direct3D reading is gone */
  g_assert_null (ui_find_widget (editor, names_d3dblend, NULL));
  assert_contains (label_text (meta_widget (editor, "lock-note")), "ground class, speed and damage");

  /* metaA: the ground class, for each family */
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      g_assert_true (mat_material_set_meta_a (m, classes[i].value, NULL));
      g_assert_cmpstr (label_text (meta_widget (editor, "status-a")), ==, classes[i].reading);
    }
  /* metaC: the speed factor from its raw bits, which stay as they are */
  g_assert_true (mat_material_set_meta_c (m, 0x3F400000, NULL));
  g_assert_cmpstr (label_text (meta_widget (editor, "status-c")), ==, "units move at 0.75 × their normal speed");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (meta_widget (editor, "meta-c-raw"))), ==, "0x3F400000");
  g_assert_true (mat_material_set_meta_c (m, 0x7FC00001, NULL));   /* a NaN with payload */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (meta_widget (editor, "meta-c-raw"))), ==, "0x7FC00001");
  g_assert_cmphex (mat_material_get_meta_c (m), ==, 0x7FC00001);
  /* metaD: hit points per second */
  g_assert_true (mat_material_set_meta_d (m, 10000, NULL));
  g_assert_cmpstr (label_text (meta_widget (editor, "status-d")), ==, "10000 hit points lost per second");
  g_assert_true (mat_material_set_meta_d (m, 1, NULL));
  g_assert_cmpstr (label_text (meta_widget (editor, "status-d")), ==, "1 hit point lost per second");
  /* metaB has no reading of its own */
  g_assert_false (gtk_widget_get_visible (meta_widget (editor, "status-b")));

  gtk_window_destroy (window);
}

static void
test_meta_absent_fields (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(MatLibrary) lib = ui_library_new (original);
  MatMaterial *m = ui_find_material (lib, "OLD_VERSION2");
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *insp = mat_flags_inspector_new ();
  GtkWidget *editor = mat_meta_editor_new ();
  GtkWindow *window;

  gtk_box_append (GTK_BOX (box), insp);
  gtk_box_append (GTK_BOX (box), editor);
  mat_flags_inspector_set_material (MAT_FLAGS_INSPECTOR (insp), m);
  mat_meta_editor_set_material (MAT_META_EDITOR (editor), m);
  window = ui_show (box, "absent", 1200, 900);

  mat_meta_editor_set_unlocked (MAT_META_EDITOR (editor), TRUE);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (meta_widget (editor, "unlock"))));
  g_assert_true (gtk_widget_is_sensitive (meta_widget (editor, "meta-a")));
  g_assert_true (gtk_widget_is_sensitive (meta_widget (editor, "meta-b")));
  g_assert_false (gtk_widget_is_sensitive (meta_widget (editor, "meta-c-float")));
  g_assert_false (gtk_widget_is_sensitive (meta_widget (editor, "meta-c-raw")));
  g_assert_false (gtk_widget_is_sensitive (meta_widget (editor, "meta-d")));
  assert_contains (label_text (meta_widget (editor, "status-c")), "not in file");
  assert_contains (label_text (meta_widget (editor, "status-c")), "0x3F800000");
  g_assert_cmpstr (label_text (meta_widget (editor, "status-d")), ==, "default 0 (not in file)");
  g_assert_null (strstr (label_text (meta_widget (editor, "status-a")), "not in file"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (meta_widget (editor, "meta-c-raw"))), ==,
                   "0x3F800000");

  /* Conversion in the inspector: metaC/metaD appear in the editor */
  g_assert_true (mat_flags_inspector_convert_version (MAT_FLAGS_INSPECTOR (insp), 4, NULL));
  g_assert_true (gtk_widget_is_sensitive (meta_widget (editor, "meta-c-float")));
  g_assert_true (gtk_widget_is_sensitive (meta_widget (editor, "meta-d")));
  g_assert_null (strstr (label_text (meta_widget (editor, "status-d")), "not in file"));
  g_assert_true (mat_history_undo (mat_library_get_history (lib)));
  g_assert_false (gtk_widget_is_sensitive (meta_widget (editor, "meta-d")));
  assert_contains (label_text (meta_widget (editor, "status-d")), "not in file");

  /* A version without metaA/metaB */
  m = ui_find_material (lib, "OLD_VERSION0");
  mat_meta_editor_set_material (MAT_META_EDITOR (editor), m);
  mat_meta_editor_set_unlocked (MAT_META_EDITOR (editor), TRUE);
  g_assert_false (gtk_widget_is_sensitive (meta_widget (editor, "meta-a")));
  g_assert_cmpstr (label_text (meta_widget (editor, "status-a")), ==, "default 255 (not in file)");
  g_assert_cmpstr (label_text (meta_widget (editor, "status-b")), ==, "default 255 (not in file)");

  gtk_window_destroy (window);
}

/* Screenshots for the README */

static void
test_screenshots (void)
{
  g_autoptr(GBytes) original = ui_demo_bytes ();
  g_autoptr(MatLibrary) lib = ui_library_new (original);
  GtkWidget *insp = mat_flags_inspector_new ();
  GtkWidget *editor = mat_meta_editor_new ();
  GtkWindow *window;

  mat_flags_inspector_set_material (MAT_FLAGS_INSPECTOR (insp), ui_find_material (lib, "HW_BUMP_FLAGS"));
  window = ui_show (insp, "Runtime Flags — HW_BUMP_FLAGS", 720, 850);
  ui_screenshot (GTK_WIDGET (window), "flags-inspector.png");
  gtk_window_destroy (window);

  mat_meta_editor_set_material (MAT_META_EDITOR (editor), ui_find_material (lib, "OLD_VERSION3"));
  window = ui_show (editor, "Metadata — OLD_VERSION3", 720, 430);
  ui_screenshot (GTK_WIDGET (window), "meta-editor-locked.png");
  mat_meta_editor_set_unlocked (MAT_META_EDITOR (editor), TRUE);
  ui_screenshot (GTK_WIDGET (window), "meta-editor.png");
  gtk_window_destroy (window);

  insp = mat_flags_inspector_new ();
  mat_flags_inspector_set_material (MAT_FLAGS_INSPECTOR (insp), ui_find_material (lib, "OLD_VERSION2"));
  window = ui_show (insp, "Runtime Flags — OLD_VERSION2", 720, 600);
  g_assert_true (gtk_widget_activate_action (insp, "flags.convert-version", NULL));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (flags_widget (insp, "convert-spin")), 4);
  ui_pump ();
  ui_screenshot (flags_widget (insp, "convert-dialog"), "convert-dialog.png");
  gtk_window_destroy (window);
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

  home_dir = g_dir_make_tmp ("test-flags-XXXXXX", &error);
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

/* The wheel over the Flags & Metadata page of the window */

static gboolean
window_ready (gpointer data)
{
  return !mat_window_get_busy (MAT_WINDOW (data)) && ui_widget_is_shown (data) &&
         mat_window_get_library (MAT_WINDOW (data)) != NULL;
}

static gboolean
page_scrollable (gpointer data)
{
  GtkAdjustment *v = data;

  return gtk_adjustment_get_upper (v) > gtk_adjustment_get_page_size (v) + 100;
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

/* The page is one scroller: the wheel over the inspector and over the
 * metadata editor moves it, down and back up. */
static void
test_page_wheel (void)
{
  g_autoptr(MatApplication) app = mat_application_new (APPLICATION_ID, G_APPLICATION_NON_UNIQUE);
  g_autoptr(GFile) file = home_copy ("DEMO_LIB", "Material.lib");
  g_autoptr(GError) error = NULL;
  MatWindow *window;
  GtkStack *stack;
  GtkWidget *page, *inspector, *editor, *spin;
  MatMaterial *material;
  GtkAdjustment *v;
  graphene_rect_t bounds;
  double top, after, value;
  guint meta_a;

  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  window = mat_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 720);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (window_ready, window, 20));
  material = ui_find_material (mat_window_get_library (window), "HW_BUMP_FLAGS");
  mat_window_select_material (window, material);
  stack = GTK_STACK (gtk_widget_get_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW, "material_stack"));
  gtk_stack_set_visible_child_name (stack, "flags");
  /* the page is made when first shown */
  inspector = ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_FLAGS_INSPECTOR);
  editor = ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_META_EDITOR);
  g_assert_nonnull (inspector);
  g_assert_nonnull (editor);
  page = gtk_stack_get_visible_child (stack);
  g_assert_true (GTK_IS_SCROLLED_WINDOW (page));
  g_assert_true (ui_wait_for (ui_widget_is_shown, inspector, 5));
  v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (page));
  /* at 1100 x 720 the page is taller than the window */
  g_assert_true (ui_wait_for (page_scrollable, v, 5));
  ui_spin_ms (300);

  /* over the inspector's heading, near its top left */
  top = gtk_adjustment_get_value (v);
  g_assert_cmpfloat (top, ==, 0.0);
  ui_pointer_move (inspector, 8, 8);
  wheel (inspector, 5, 3);
  after = gtk_adjustment_get_value (v);
  g_assert_cmpfloat (after, >, top + 20);
  wheel (inspector, 4, 3);
  g_assert_cmpfloat (gtk_adjustment_get_value (v), <, after);

  /* over the metadata editor, once the page shows it */
  gtk_adjustment_set_value (v, gtk_adjustment_get_upper (v) - gtk_adjustment_get_page_size (v));
  ui_spin_ms (100);
  after = gtk_adjustment_get_value (v);
  g_assert_cmpfloat (after, >, 0.0);
  g_assert_true (gtk_widget_compute_bounds (editor, page, &bounds));
  g_assert_cmpfloat (bounds.origin.y + 8, <, gtk_widget_get_height (page));
  ui_pointer_move (editor, 8, MAX (8.0, 8.0 - bounds.origin.y));
  wheel (editor, 4, 2);
  g_assert_cmpfloat (gtk_adjustment_get_value (v), <, after - 20);

  /* Over a number field of the unlocked editor: the page scrolls, the
   * number stays; once the field has the focus, the wheel is its. */
  mat_meta_editor_set_unlocked (MAT_META_EDITOR (editor), TRUE);
  spin = mat_meta_editor_get_test_widget (MAT_META_EDITOR (editor), "meta-a");
  g_assert_true (GTK_IS_SPIN_BUTTON (spin));
  g_assert_true (gtk_widget_is_sensitive (spin));
  /* the field in view, a little below the page's top, with the page
   * still able to scroll up */
  g_assert_true (gtk_widget_compute_bounds (spin, page, &bounds));
  gtk_adjustment_set_value (v, gtk_adjustment_get_value (v) + bounds.origin.y - 40);
  ui_spin_ms (100);
  g_assert_true (gtk_widget_compute_bounds (spin, page, &bounds));
  g_assert_cmpfloat (bounds.origin.y, >=, 0.0);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (page));
  value = gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin));
  meta_a = mat_material_get_meta_a (material);
  after = gtk_adjustment_get_value (v);
  ui_pointer_move (spin, 10, bounds.size.height / 2);
  wheel (spin, 4, 2);
  g_assert_cmpfloat (gtk_adjustment_get_value (v), <, after - 20);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, value);
  g_assert_cmpuint (mat_material_get_meta_a (material), ==, meta_a);

  gtk_adjustment_set_value (v, after);
  ui_spin_ms (100);
  g_assert_true (gtk_widget_grab_focus (spin));
  ui_pointer_move (spin, 10, bounds.size.height / 2);
  wheel (spin, 4, 1);
  g_assert_cmpfloat (gtk_adjustment_get_value (v), ==, after);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, value + 1);

  gtk_window_destroy (GTK_WINDOW (window));
  ui_spin_ms (50);
}

int
main (int argc, char *argv[])
{
  int status;

  home_setup ();
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  /* Pulls the views' resources out of the static library (their
   * constructor registers them). */
  g_assert_nonnull (mat_get_resource ());

  g_test_add_func ("/ui/flags/known-bits", test_flags_known_bits);
  g_test_add_func ("/ui/flags/labels", test_flags_labels);
  g_test_add_func ("/ui/flags/blend", test_flags_blend);
  g_test_add_func ("/ui/flags/unknown-cell-and-bytes", test_flags_unknown_cell_and_bytes);
  g_test_add_func ("/ui/flags/convert-version", test_flags_convert_version);
  g_test_add_func ("/ui/flags/rebind", test_flags_rebind_and_null);
  g_test_add_func ("/ui/flags/read-only", test_read_only);
  g_test_add_func ("/ui/meta/lock-and-edit", test_meta_lock_and_edit);
  g_test_add_func ("/ui/meta/readings", test_meta_readings);
  g_test_add_func ("/ui/meta/absent-fields", test_meta_absent_fields);
  g_test_add_func ("/ui/flags/screenshots", test_screenshots);
  g_test_add_func ("/ui/flags/page-wheel", test_page_wheel);

  status = g_test_run ();
  remove_tree (home_dir);
  g_free (home_dir);
  return status;
}
