/* test-timeline.c - MatTimeline and MatBlockEditor driven through their
 * real gesture, key and action code paths
 *
 * Runs under Xvfb on the demo library (DEMO_LIB). The timeline's gestures
 * are synthesized with its test hooks, which call the very handlers the
 * GtkGestureDrag / GtkGestureClick / key controllers call; the block
 * editor through its actions and widgets. Assertions are on the model and
 * on the bytes a save would write. Screenshots go to SCREENSHOT_DIR (else
 * G_TEST_BUILDDIR).
 */
#include "config.h"

#include <string.h>
#include <gtk/gtk.h>

#include "mat0.h"
#include "mat-block-editor.h"
#include "mat-library.h"
#include "mat-resources.h"
#include "mat-timeline.h"
#include "test-support.h"
#include "ui-support.h"

typedef struct {
  GBytes         *original;
  MatLibrary     *lib;
  MatMaterial    *material;
  GtkWindow      *window;
  MatBlockEditor *editor;
  MatTimeline    *timeline;
} Fixture;

static void
fixture_open (Fixture    *f,
              const char *name,
              int         block)
{
  memset (f, 0, sizeof *f);
  f->original = ui_demo_bytes ();
  f->lib = ui_library_new (f->original);
  f->material = ui_find_material (f->lib, name);

  f->editor = MAT_BLOCK_EDITOR (mat_block_editor_new ());
  mat_block_editor_set_material (f->editor, f->material);
  g_assert_true (mat_block_editor_get_material (f->editor) == f->material);
  if (block >= 0)
    mat_block_editor_set_selected_block (f->editor, block);
  f->timeline = mat_block_editor_get_timeline (f->editor);
  f->window = ui_show (GTK_WIDGET (f->editor), NULL, 980, 720);
  g_assert_true (ui_wait_for (ui_widget_is_shown, f->timeline, 5));
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

static MatAnimBlock *
block_of (Fixture *f,
          guint    i)
{
  MatAnimBlock *block = g_list_model_get_item (mat_material_get_blocks (f->material), i);

  g_assert_nonnull (block);
  g_object_unref (block);
  return block;
}

static MatKey *
key_of (MatAnimBlock *block,
        guint         i)
{
  MatKey *key = g_list_model_get_item (mat_anim_block_get_keys (block), i);

  g_assert_nonnull (key);
  g_object_unref (key);
  return key;
}

/* Asserts the keys of @block: @n triples (k0, k1, k2). */
static void
assert_keys (MatAnimBlock  *block,
             const guint16 *expect,
             guint          n)
{
  g_assert_cmpuint (mat_anim_block_get_n_keys (block), ==, n);
  for (guint i = 0; i < n; i++)
    {
      MatKey *key = key_of (block, i);

      g_assert_cmpuint (mat_key_get_k0 (key), ==, expect[3 * i]);
      g_assert_cmpuint (mat_key_get_k1 (key), ==, expect[3 * i + 1]);
      g_assert_cmpuint (mat_key_get_k2 (key), ==, expect[3 * i + 2]);
    }
}

static guint32
start_of (MatAnimBlock *block,
          guint         k)
{
  guint32 t = 0;

  for (guint i = 0; i < k; i++)
    t += mat_key_get_k1 (key_of (block, i));
  return t;
}

static void
assert_original_bytes (Fixture *f)
{
  g_autoptr(GBytes) now = ui_library_save (f->lib);

  g_assert_true (g_bytes_equal (now, f->original));
}

static void
undo_all (Fixture *f)
{
  while (mat_history_undo (history_of (f)))
    ;
  assert_original_bytes (f);
}

static double
tx (Fixture *f,
    double   ms)
{
  return mat_timeline_time_to_x (f->timeline, ms);
}

static double
track_y (Fixture *f)
{
  return mat_timeline_get_track_y (f->timeline);
}

static gboolean
history_has_steps (gpointer data)
{
  return mat_history_get_can_undo (history_of (data));
}

/* ---- the timeline ------------------------------------------------------ */

static void
test_click_adds_key (void)
{
  Fixture f;
  MatAnimBlock *block;
  static const guint16 after[] = { 0, 800, 0,  1, 400, 0,  1, 400, 0,  2, 800, 0,  3, 800, 0 };

  fixture_open (&f, "COLOR_CYCLE", 0);
  block = block_of (&f, 0);
  g_assert_cmpuint (mat_timeline_get_grid (f.timeline), ==, 50);

  /* a click on the empty track between keys 1 and 2, at 1200 ms */
  mat_timeline_test_click (f.timeline, tx (&f, 1200), track_y (&f) + 8, 1, GDK_BUTTON_PRIMARY, 0);

  assert_keys (block, after, 5);
  g_assert_cmpuint (start_of (block, 1), ==, 800);
  g_assert_cmpuint (start_of (block, 2), ==, 1200);
  g_assert_cmpuint (start_of (block, 3), ==, 1600);
  g_assert_cmpuint (start_of (block, 4), ==, 2400);
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, 3200);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 2);
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "k2 = 0"));

  undo_all (&f);
  fixture_close (&f);
}

static void
test_drag_retime_snaps (void)
{
  Fixture f;
  MatAnimBlock *block;
  static const guint16 after[] = { 0, 800, 0,  1, 950, 0,  2, 650, 0,  3, 800, 0 };

  fixture_open (&f, "COLOR_CYCLE", 0);
  block = block_of (&f, 0);

  /* key 2 from 1600 to 1733 ms: snaps to the 50 ms grid, 1750 */
  mat_timeline_test_drag (f.timeline, tx (&f, 1600), track_y (&f),
                          tx (&f, 1733) - tx (&f, 1600), 0, 0);
  assert_keys (block, after, 4);
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, 3200);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  g_assert_false (mat_history_in_group (history_of (&f)));

  /* one step restores every key exactly */
  g_assert_true (mat_history_undo (history_of (&f)));
  assert_original_bytes (&f);
  g_assert_true (mat_history_redo (history_of (&f)));
  assert_keys (block, after, 4);

  /* a drag past the neighbour clamps at it: no negative duration */
  mat_timeline_test_drag (f.timeline, tx (&f, 1750), track_y (&f),
                          tx (&f, 3000) - tx (&f, 1750), 0, 0);
  {
    static const guint16 clamped[] = { 0, 800, 0,  1, 1600, 0,  2, 0, 0,  3, 800, 0 };

    assert_keys (block, clamped, 4);
  }
  undo_all (&f);
  fixture_close (&f);
}

/* The same gestures as above, as real pointer events through the X
 * server: GDK, the gesture controllers and the widget's handlers. */
static void
test_real_pointer (void)
{
  Fixture f;
  MatAnimBlock *block;
  GtkWidget *timeline;
  static const guint16 added[] = { 0, 800, 0,  1, 400, 0,  1, 400, 0,  2, 800, 0,  3, 800, 0 };
  static const guint16 retimed[] = { 0, 800, 0,  1, 950, 0,  2, 650, 0,  3, 800, 0 };

  fixture_open (&f, "COLOR_CYCLE", 0);
  block = block_of (&f, 0);
  timeline = GTK_WIDGET (f.timeline);

  /* a click on the empty track at 1200 ms adds a key there */
  ui_pointer_move (timeline, tx (&f, 1200), track_y (&f) + 8);
  ui_pointer_button (timeline, 1, TRUE);
  ui_pointer_button (timeline, 1, FALSE);
  g_assert_true (ui_wait_for (history_has_steps, &f, 5));
  assert_keys (block, added, 5);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  g_assert_true (mat_history_undo (history_of (&f)));
  assert_original_bytes (&f);

  /* key 2 dragged from 1600 to about 1733 ms snaps to 1750: one step */
  ui_pointer_drag (timeline, tx (&f, 1600), track_y (&f),
                   tx (&f, 1733) - tx (&f, 1600), 0);
  g_assert_true (ui_wait_for (history_has_steps, &f, 5));
  assert_keys (block, retimed, 4);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  g_assert_false (mat_history_in_group (history_of (&f)));

  undo_all (&f);
  fixture_close (&f);
}

static void
test_shift_drag_moves_later_keys (void)
{
  Fixture f;
  MatAnimBlock *block;
  static const guint16 after[] = { 0, 800, 0,  1, 1000, 0,  2, 800, 0,  3, 800, 0 };

  fixture_open (&f, "COLOR_CYCLE", 0);
  block = block_of (&f, 0);

  mat_timeline_test_drag (f.timeline, tx (&f, 1600), track_y (&f),
                          tx (&f, 1800) - tx (&f, 1600), 0, GDK_SHIFT_MASK);
  assert_keys (block, after, 4);
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, 3400);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);

  /* and back, shrinking the cycle */
  mat_timeline_test_drag (f.timeline, tx (&f, 1800), track_y (&f),
                          tx (&f, 1500) - tx (&f, 1800), 0, GDK_SHIFT_MASK);
  g_assert_cmpuint (mat_key_get_k1 (key_of (block, 1)), ==, 700);
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, 3100);

  /* the cycle end grip: only the last key's duration changes */
  mat_timeline_test_drag (f.timeline, tx (&f, 3100), mat_timeline_get_track_y (f.timeline) + 30,
                          tx (&f, 3300) - tx (&f, 3100), 0, 0);
  g_assert_cmpuint (mat_key_get_k1 (key_of (block, 3)), ==, 1000);
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, 3300);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 3);

  undo_all (&f);
  fixture_close (&f);
}

static void
test_snap_to_key (void)
{
  Fixture f;
  MatAnimBlock *block;
  g_autoptr(GError) error = NULL;

  fixture_open (&f, "COLOR_CYCLE", 0);
  block = block_of (&f, 0);
  /* starts off the grid: 0, 777, 1577, 2377 */
  g_assert_true (mat_key_set_k1 (key_of (block, 0), 777, &error));
  g_assert_no_error (error);

  /* 2360 ms is 17 ms (3.4 px) from key 3's start: the key wins over the grid */
  mat_timeline_test_drag (f.timeline, tx (&f, 1577), track_y (&f),
                          tx (&f, 2360) - tx (&f, 1577), 0, 0);
  g_assert_cmpuint (start_of (block, 2), ==, 2377);
  g_assert_cmpuint (mat_key_get_k1 (key_of (block, 2)), ==, 0);

  /* Alt: no snapping at all */
  mat_timeline_test_drag (f.timeline, tx (&f, 2377), track_y (&f),
                          tx (&f, 1234) - tx (&f, 2377), 0, GDK_ALT_MASK);
  g_assert_cmpuint (start_of (block, 2), ==, 1234);

  undo_all (&f);
  fixture_close (&f);
}

static void
test_delete_key (void)
{
  Fixture f;
  MatAnimBlock *block;
  static const guint16 after[] = { 0, 800, 0,  1, 1600, 0,  3, 800, 0 };

  fixture_open (&f, "COLOR_CYCLE", 0);
  block = block_of (&f, 0);

  mat_timeline_test_click (f.timeline, tx (&f, 1600), track_y (&f), 1, GDK_BUTTON_PRIMARY, 0);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 2);
  g_assert_true (mat_timeline_test_key (f.timeline, GDK_KEY_Delete, 0));
  assert_keys (block, after, 3);
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, 3200);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);

  /* two keys at once: still one step */
  mat_timeline_select_key (f.timeline, 1, FALSE);
  mat_timeline_select_key (f.timeline, 2, TRUE);
  g_assert_cmpuint (mat_timeline_get_n_selected (f.timeline), ==, 2);
  g_assert_true (mat_timeline_test_key (f.timeline, GDK_KEY_Delete, 0));
  {
    static const guint16 one[] = { 0, 3200, 0 };

    assert_keys (block, one, 1);
  }
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 2);
  undo_all (&f);
  fixture_close (&f);
}

static void
test_arrow_nudge_and_tab (void)
{
  Fixture f;
  MatAnimBlock *block;

  fixture_open (&f, "COLOR_CYCLE", 0);
  block = block_of (&f, 0);

  mat_timeline_select_key (f.timeline, 1, FALSE);
  g_assert_true (mat_timeline_test_key (f.timeline, GDK_KEY_Right, 0));
  g_assert_cmpuint (mat_key_get_k1 (key_of (block, 0)), ==, 850);
  g_assert_cmpuint (mat_key_get_k1 (key_of (block, 1)), ==, 750);
  g_assert_true (mat_timeline_test_key (f.timeline, GDK_KEY_Right, GDK_SHIFT_MASK));
  g_assert_cmpuint (mat_key_get_k1 (key_of (block, 0)), ==, 851);
  g_assert_true (mat_timeline_test_key (f.timeline, GDK_KEY_Left, 0));
  g_assert_cmpuint (mat_key_get_k1 (key_of (block, 0)), ==, 801);
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, 3200);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 3);

  /* Tab walks the keys; at the last one the focus may leave */
  g_assert_true (mat_timeline_test_key (f.timeline, GDK_KEY_Tab, 0));
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 2);
  g_assert_true (mat_timeline_test_key (f.timeline, GDK_KEY_Tab, 0));
  g_assert_false (mat_timeline_test_key (f.timeline, GDK_KEY_Tab, 0));
  g_assert_true (mat_timeline_test_key (f.timeline, GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK));
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 2);

  /* key 0 always starts at 0 */
  mat_timeline_select_key (f.timeline, 0, FALSE);
  g_assert_true (mat_timeline_test_key (f.timeline, GDK_KEY_Right, 0));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 3);

  undo_all (&f);
  fixture_close (&f);
}

static gboolean
is_phase_list (GtkWidget     *widget,
               gconstpointer  data)
{
  return GTK_IS_LIST_BOX (widget) && g_strcmp0 (gtk_widget_get_name (widget), "phase-list") == 0;
}

static void
test_phase_choice (void)
{
  Fixture f;
  MatAnimBlock *block;
  GtkPopover *popover;
  GtkListBox *list;

  fixture_open (&f, "COLOR_CYCLE", 0);
  block = block_of (&f, 0);

  /* dragging key 1 up by two steps: phase 1 -> 3, one undo step */
  mat_timeline_test_drag (f.timeline, tx (&f, 800), track_y (&f), 0, -36, 0);
  g_assert_cmpuint (mat_key_get_k0 (key_of (block, 1)), ==, 3);
  g_assert_cmpuint (mat_key_get_k1 (key_of (block, 0)), ==, 800);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);

  /* Down arrow: one phase down */
  g_assert_true (mat_timeline_test_key (f.timeline, GDK_KEY_Down, 0));
  g_assert_cmpuint (mat_key_get_k0 (key_of (block, 1)), ==, 2);

  /* a double-click opens the popover listing the phases */
  mat_timeline_test_click (f.timeline, tx (&f, 1600), track_y (&f), 2, GDK_BUTTON_PRIMARY, 0);
  popover = mat_timeline_get_phase_popover (f.timeline);
  g_assert_nonnull (popover);
  list = GTK_LIST_BOX (ui_find_widget (GTK_WIDGET (popover), is_phase_list, NULL));
  g_assert_nonnull (list);
  g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (list, 0));
  g_assert_cmpuint (mat_key_get_k0 (key_of (block, 2)), ==, 0);
  ui_spin_ms (50);
  g_assert_null (mat_timeline_get_phase_popover (f.timeline));

  /* the right button opens it too */
  mat_timeline_test_click (f.timeline, tx (&f, 2400), track_y (&f), 1, GDK_BUTTON_SECONDARY, 0);
  g_assert_nonnull (mat_timeline_get_phase_popover (f.timeline));
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 3);
  gtk_popover_popdown (mat_timeline_get_phase_popover (f.timeline));

  /* k2 and every k1 untouched */
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpuint (mat_key_get_k1 (key_of (block, i)), ==, 800);
      g_assert_cmpuint (mat_key_get_k2 (key_of (block, i)), ==, 0);
    }
  undo_all (&f);
  fixture_close (&f);
}

static void
test_multi_select_move (void)
{
  Fixture f;
  MatAnimBlock *block;
  static const guint16 after[] = { 0, 900, 0,  1, 800, 0,  2, 700, 0,  3, 800, 0 };

  fixture_open (&f, "COLOR_CYCLE", 0);
  block = block_of (&f, 0);

  /* Ctrl+click keys 1 and 2 */
  mat_timeline_test_click (f.timeline, tx (&f, 800), track_y (&f), 1, GDK_BUTTON_PRIMARY, GDK_CONTROL_MASK);
  mat_timeline_test_click (f.timeline, tx (&f, 1600), track_y (&f), 1, GDK_BUTTON_PRIMARY, GDK_CONTROL_MASK);
  g_assert_cmpuint (mat_timeline_get_n_selected (f.timeline), ==, 2);

  mat_timeline_test_drag (f.timeline, tx (&f, 800), track_y (&f), tx (&f, 900) - tx (&f, 800), 0, 0);
  assert_keys (block, after, 4);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  g_assert_cmpuint (mat_timeline_get_n_selected (f.timeline), ==, 2);

  /* a rubber band over keys 2 and 3 (from the caption lane) */
  mat_timeline_test_drag (f.timeline, tx (&f, 1500), track_y (&f) + 30,
                          tx (&f, 2500) - tx (&f, 1500), -40, 0);
  g_assert_cmpuint (mat_timeline_get_n_selected (f.timeline), ==, 2);
  g_assert_true (mat_timeline_is_key_selected (f.timeline, 2));
  g_assert_true (mat_timeline_is_key_selected (f.timeline, 3));
  g_assert_false (mat_timeline_is_key_selected (f.timeline, 1));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);

  undo_all (&f);
  fixture_close (&f);
}

static void
on_scrubbed (MatTimeline *timeline,
             guint        position,
             guint       *out)
{
  *out = position;
}

static void
test_scrub_and_zoom (void)
{
  Fixture f;
  guint scrubbed = G_MAXUINT;
  double zoom;

  fixture_open (&f, "COLOR_CYCLE", 0);
  g_signal_connect (f.timeline, "scrubbed", G_CALLBACK (on_scrubbed), &scrubbed);

  mat_timeline_test_click (f.timeline, tx (&f, 1000), mat_timeline_get_ruler_y (f.timeline),
                           1, GDK_BUTTON_PRIMARY, 0);
  g_assert_cmpuint (mat_timeline_get_position (f.timeline), ==, 1000);
  g_assert_cmpuint (scrubbed, ==, 1000);
  mat_timeline_test_drag (f.timeline, tx (&f, 1000), mat_timeline_get_ruler_y (f.timeline),
                          tx (&f, 1500) - tx (&f, 1000), 0, 0);
  g_assert_cmpuint (scrubbed, ==, 1500);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 0);

  /* a bound preview time past the cycle is shown modulo: no crash, kept */
  g_object_set (f.timeline, "position", 7000u, NULL);
  g_assert_cmpuint (mat_timeline_get_position (f.timeline), ==, 7000);
  ui_spin_ms (50);

  zoom = mat_timeline_get_zoom (f.timeline);
  mat_timeline_test_scroll (f.timeline, -1, GDK_CONTROL_MASK);
  g_assert_cmpfloat (mat_timeline_get_zoom (f.timeline), >, zoom);
  gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.zoom-out", NULL);
  g_assert_cmpfloat_with_epsilon (mat_timeline_get_zoom (f.timeline), zoom, 1e-9);
  for (guint i = 0; i < 5; i++)
    gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.zoom-in", NULL);
  g_assert_cmpuint (mat_timeline_get_grid (f.timeline), <, 50);
  ui_spin_ms (50);
  fixture_close (&f);
}

/* ---- the block editor -------------------------------------------------- */

static void
test_blocks_limit (void)
{
  Fixture f;
  GtkWidget *limit;
  guint n_undo;

  fixture_open (&f, "MULTI_BLOCK", 0);
  limit = mat_block_editor_get_test_widget (f.editor, "limit-label");
  g_assert_false (gtk_widget_get_visible (limit));
  g_assert_cmpuint (mat_material_get_n_blocks (f.material), ==, 3);

  while (mat_material_get_n_blocks (f.material) < MAT0_MAX_BLOCKS)
    {
      guint n = mat_material_get_n_blocks (f.material);

      gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.add", NULL);
      g_assert_cmpuint (mat_material_get_n_blocks (f.material), ==, n + 1);
      g_assert_cmpint (mat_block_editor_get_selected_block (f.editor), ==, (int) n);
    }
  g_assert_true (gtk_widget_get_visible (limit));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (limit)), "19"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (limit)), "Too many animations for material."));

  /* disabled: activating does nothing */
  n_undo = mat_history_get_n_undo (history_of (&f));
  gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.add", NULL);
  gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.duplicate", NULL);
  g_assert_cmpuint (mat_material_get_n_blocks (f.material), ==, MAT0_MAX_BLOCKS);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, n_undo);

  /* a delete enables it again */
  gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.remove", NULL);
  g_assert_cmpuint (mat_material_get_n_blocks (f.material), ==, MAT0_MAX_BLOCKS - 1);
  g_assert_false (gtk_widget_get_visible (limit));
  mat_history_undo (history_of (&f));
  g_assert_true (gtk_widget_get_visible (limit));

  undo_all (&f);
  g_assert_cmpuint (mat_material_get_n_blocks (f.material), ==, 3);
  g_assert_false (gtk_widget_get_visible (limit));
  fixture_close (&f);
}

static void
test_mode_keeps_unknown_bits (void)
{
  Fixture f;
  MatAnimBlock *block;
  GtkDropDown *mode;
  GtkStringList *names;
  guint loop = G_MAXUINT, unknown = G_MAXUINT;

  fixture_open (&f, "UNKNOWN_MODE", 0);
  block = block_of (&f, 0);
  g_assert_cmphex (mat_anim_block_get_header_raw (block), ==, 0x115);
  mode = GTK_DROP_DOWN (mat_block_editor_get_test_widget (f.editor, "mode"));
  names = GTK_STRING_LIST (gtk_drop_down_get_model (mode));
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (names)); i++)
    {
      const char *s = gtk_string_list_get_string (names, i);

      if (g_str_equal (s, "Loop"))
        loop = i;
      if (g_str_equal (s, "Unknown (5)"))
        unknown = i;
    }
  g_assert_cmpuint (loop, !=, G_MAXUINT);
  g_assert_cmpuint (unknown, !=, G_MAXUINT);
  g_assert_cmpuint (gtk_drop_down_get_selected (mode), ==, unknown);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (mat_block_editor_get_test_widget (f.editor, "header-raw"))),
                            "0x00000115"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (mat_block_editor_get_test_widget (f.editor, "unknown-bits"))),
                            "0x1"));

  gtk_drop_down_set_selected (mode, loop);
  g_assert_cmphex (mat_anim_block_get_header_raw (block), ==, 0x110);
  g_assert_cmphex (mat_anim_block_get_interp_mask (block), ==, 0x22);
  /* the unknown entry stays to choose it back */
  g_assert_cmpuint (gtk_drop_down_get_selected (mode), ==, loop);
  gtk_drop_down_set_selected (mode, unknown);
  g_assert_cmphex (mat_anim_block_get_header_raw (block), ==, 0x115);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 2);

  /* undo updates the widgets */
  mat_history_undo (history_of (&f));
  g_assert_cmpuint (gtk_drop_down_get_selected (mode), ==, loop);

  /* k2 = 7 of the second key is shown */
  mat_timeline_select_key (f.timeline, 1, FALSE);
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "k2 = 7"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (mat_block_editor_get_test_widget (f.editor, "details"))),
                            "k2 = 7"));
  undo_all (&f);
  fixture_close (&f);
}

static void
test_interp_toggle_one_bit (void)
{
  Fixture f;
  MatAnimBlock *block;
  GtkToggleButton *ambient, *diffuse;
  guint32 before;

  fixture_open (&f, "UNKNOWN_MODE", 0);
  block = block_of (&f, 0);
  before = mat_anim_block_get_header_raw (block);
  ambient = GTK_TOGGLE_BUTTON (mat_block_editor_get_test_widget (f.editor, "interp-0"));
  diffuse = GTK_TOGGLE_BUTTON (mat_block_editor_get_test_widget (f.editor, "interp-1"));
  g_assert_false (gtk_toggle_button_get_active (ambient));
  g_assert_true (gtk_toggle_button_get_active (diffuse));

  gtk_toggle_button_set_active (ambient, TRUE);
  g_assert_cmphex (mat_anim_block_get_header_raw (block) ^ before, ==, 0x01u << 3);
  gtk_toggle_button_set_active (diffuse, FALSE);
  g_assert_cmphex (mat_anim_block_get_header_raw (block) ^ before, ==, (0x01u | 0x02u) << 3);
  g_assert_cmphex (mat_anim_block_get_interp_mask (block), ==, 0x21);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 2);

  /* undo flips the toggle back */
  mat_history_undo (history_of (&f));
  g_assert_true (gtk_toggle_button_get_active (diffuse));
  undo_all (&f);
  g_assert_false (gtk_toggle_button_get_active (ambient));
  fixture_close (&f);
}

static void
test_duplicate_and_remove (void)
{
  Fixture f;
  static const guint16 keys[] = { 0, 500, 0,  1, 500, 7 };

  fixture_open (&f, "UNKNOWN_MODE", 0);
  gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.duplicate", NULL);
  g_assert_cmpuint (mat_material_get_n_blocks (f.material), ==, 2);
  g_assert_cmpint (mat_block_editor_get_selected_block (f.editor), ==, 1);
  g_assert_cmphex (mat_anim_block_get_header_raw (block_of (&f, 1)), ==, 0x115);
  assert_keys (block_of (&f, 1), keys, 2);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  g_assert_true (mat_timeline_get_block (f.timeline) == block_of (&f, 1));

  gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.remove", NULL);
  g_assert_cmpuint (mat_material_get_n_blocks (f.material), ==, 1);
  g_assert_cmpint (mat_block_editor_get_selected_block (f.editor), ==, 0);
  gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.remove", NULL);
  g_assert_cmpuint (mat_material_get_n_blocks (f.material), ==, 0);
  g_assert_cmpint (mat_block_editor_get_selected_block (f.editor), ==, -1);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (mat_block_editor_get_test_widget (f.editor, "block-stack"))),
                   ==, "none");
  g_assert_null (mat_timeline_get_block (f.timeline));

  mat_history_undo (history_of (&f));
  g_assert_cmpint (mat_block_editor_get_selected_block (f.editor), ==, 0);
  g_assert_nonnull (mat_timeline_get_block (f.timeline));
  undo_all (&f);
  fixture_close (&f);
}

/* ---- bad data and pictures --------------------------------------------- */

static void
test_bad_data (void)
{
  Fixture f;
  MatAnimBlock *block;

  fixture_open (&f, "LINT_EXAMPLE", 0);
  block = block_of (&f, 0);
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, 0);
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "zero-length"));
  ui_screenshot (GTK_WIDGET (f.window), "timeline-zero-cycle.png");

  /* zero-length: clicks do not add keys past the end; dragging a stacked
   * key clamps; the cycle-end grip grows the last key */
  mat_timeline_test_click (f.timeline, tx (&f, 500), track_y (&f), 1, GDK_BUTTON_PRIMARY, 0);
  mat_timeline_test_drag (f.timeline, tx (&f, 0), track_y (&f), 40, 0, 0);
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, 0);
  mat_timeline_test_drag (f.timeline, tx (&f, 0), track_y (&f) + 30, tx (&f, 600) - tx (&f, 0), 0, 0);
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, 600);
  g_assert_cmpuint (mat_key_get_k1 (key_of (block, 1)), ==, 600);
  mat_history_undo (history_of (&f));

  /* a key past the phase table */
  mat_block_editor_set_selected_block (f.editor, 1);
  g_assert_true (mat_timeline_get_block (f.timeline) == block_of (&f, 1));
  mat_timeline_select_key (f.timeline, 1, FALSE);
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "missing phase 5"));
  ui_screenshot (GTK_WIDGET (f.window), "timeline-missing-phase.png");
  /* Up on a missing phase moves into the table */
  g_assert_true (mat_timeline_test_key (f.timeline, GDK_KEY_Down, 0));
  g_assert_cmpuint (mat_key_get_k0 (key_of (block_of (&f, 1), 1)), ==, 0);
  mat_history_undo (history_of (&f));

  /* a block without keys */
  gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.add", NULL);
  block = block_of (&f, 2);
  g_assert_true (mat_anim_block_remove_key (block, 0, NULL));
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "No keys"));
  ui_screenshot (GTK_WIDGET (f.window), "timeline-no-keys.png");
  mat_timeline_test_click (f.timeline, tx (&f, 300), track_y (&f), 1, GDK_BUTTON_PRIMARY, 0);
  g_assert_cmpuint (mat_anim_block_get_n_keys (block), ==, 1);

  /* the block vanishing under the timeline */
  mat_history_undo (history_of (&f));
  mat_history_undo (history_of (&f));
  mat_history_undo (history_of (&f));
  ui_spin_ms (30);
  undo_all (&f);
  fixture_close (&f);
}

static void
test_screenshots (void)
{
  Fixture f;
  GtkWidget *window, *scroller, *timeline;

  fixture_open (&f, "COLOR_CYCLE", 0);
  mat_timeline_set_position (f.timeline, 1320);
  mat_timeline_select_key (f.timeline, 2, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (f.timeline));
  ui_screenshot (GTK_WIDGET (f.window), "block-editor.png");

  /* the timeline alone, mid-drag */
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 820, -1);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  timeline = mat_timeline_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), timeline);
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  mat_timeline_set_block (MAT_TIMELINE (timeline), block_of (&f, 0));
  mat_timeline_set_position (MAT_TIMELINE (timeline), 500);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (ui_widget_is_shown, timeline, 5));
  mat_timeline_test_drag_begin (MAT_TIMELINE (timeline), mat_timeline_time_to_x (MAT_TIMELINE (timeline), 1600),
                                mat_timeline_get_track_y (MAT_TIMELINE (timeline)), 0);
  mat_timeline_test_drag_update (MAT_TIMELINE (timeline), 30, 0);
  ui_screenshot (window, "timeline.png");
  mat_timeline_test_drag_end (MAT_TIMELINE (timeline), 30, 0);
  gtk_window_destroy (GTK_WINDOW (window));

  undo_all (&f);
  fixture_close (&f);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  g_assert_nonnull (mat_get_resource ());

  g_test_add_func ("/ui/timeline/click-adds-key", test_click_adds_key);
  g_test_add_func ("/ui/timeline/drag-retime-snaps", test_drag_retime_snaps);
  g_test_add_func ("/ui/timeline/real-pointer", test_real_pointer);
  g_test_add_func ("/ui/timeline/shift-drag", test_shift_drag_moves_later_keys);
  g_test_add_func ("/ui/timeline/snap-to-key", test_snap_to_key);
  g_test_add_func ("/ui/timeline/delete", test_delete_key);
  g_test_add_func ("/ui/timeline/nudge-and-tab", test_arrow_nudge_and_tab);
  g_test_add_func ("/ui/timeline/phase", test_phase_choice);
  g_test_add_func ("/ui/timeline/multi-select", test_multi_select_move);
  g_test_add_func ("/ui/timeline/scrub-and-zoom", test_scrub_and_zoom);
  g_test_add_func ("/ui/blocks/limit", test_blocks_limit);
  g_test_add_func ("/ui/blocks/mode-keeps-unknown-bits", test_mode_keeps_unknown_bits);
  g_test_add_func ("/ui/blocks/interp-one-bit", test_interp_toggle_one_bit);
  g_test_add_func ("/ui/blocks/duplicate-remove", test_duplicate_and_remove);
  g_test_add_func ("/ui/timeline/bad-data", test_bad_data);
  g_test_add_func ("/ui/timeline/screenshots", test_screenshots);

  return g_test_run ();
}
