/* test-timeline.c - MatTimeline and MatBlockEditor driven through their
 * real gesture, key and action code paths
 *
 * Runs under Xvfb on the demo library (DEMO_LIB). Each test first gives
 * the block it works on keys of its own (through the model, saved and
 * read back: that is the "original"), so the numbers below do not depend
 * on the demo's keys. A key's k1 is the time its interval ends (formats.md
 * 2.3). The timeline's gestures are synthesized with its test hooks, which
 * call the very handlers its GtkGestureDrag / GtkGestureClick call, or sent
 * as real pointer and key events through the X server (XTest), which
 * reach the gesture controllers and the shortcut bindings as a user's
 * would; the block editor through its actions and widgets. Assertions are
 * on the bytes a save writes: every key's k0, k1 and k2 after each
 * gesture, the original bytes after undo, the same bytes after redo.
 * Screenshots go to SCREENSHOT_DIR (else G_TEST_BUILDDIR).
 */
#include "config.h"

#include <string.h>
#include <gtk/gtk.h>
#include <gdk/x11/gdkx.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

#include "mat0.h"
#include "nres.h"
#include "mat-block-editor-private.h"
#include "mat-library.h"
#include "mat-resources.h"
#include "mat-timeline-private.h"
#include "test-support.h"
#include "ui-support.h"

typedef struct {
  GBytes         *original;
  MatLibrary     *lib;
  MatMaterial    *material;
  guint           block;
  GtkWindow      *window;
  MatBlockEditor *editor;
  MatTimeline    *timeline;
} Fixture;

/* Four keys at 800, 1600, 2400 and 3200 ms (period 3200) on COLOR_CYCLE's
 * four phases; k2 values that must survive every edit. */
static const guint16 cycle_keys[] = { 0, 800, 5,  1, 1600, 0,  2, 2400, 7,  3, 3200, 0 };

static MatAnimBlock *
block_of_material (MatMaterial *material,
                   guint        i)
{
  MatAnimBlock *block = g_list_model_get_item (mat_material_get_blocks (material), i);

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

/* The demo library with block @block of @name holding @keys (@n triples
 * k0, k1, k2; %NULL keeps the demo's keys), as saved bytes. */
static GBytes *
prepared_library (const char    *name,
                  guint          block,
                  const guint16 *keys,
                  guint          n)
{
  g_autoptr(GBytes) demo = ui_demo_bytes ();
  g_autoptr(MatLibrary) lib = ui_library_new (demo);
  g_autoptr(GError) error = NULL;
  MatAnimBlock *b;

  if (keys == NULL)
    return g_bytes_ref (demo);
  b = block_of_material (ui_find_material (lib, name), block);
  while (mat_anim_block_get_n_keys (b) > 0)
    g_assert_true (mat_anim_block_remove_key (b, 0, &error));
  for (guint i = 0; i < n; i++)
    {
      MatKey *key = mat_anim_block_insert_key (b, i, keys[3 * i], keys[3 * i + 1], &error);

      g_assert_no_error (error);
      g_assert_true (mat_key_set_k2 (key, keys[3 * i + 2], &error));
    }
  return ui_library_save (lib);
}

static void
fixture_open_keys (Fixture       *f,
                   const char    *name,
                   int            block,
                   const guint16 *keys,
                   guint          n)
{
  memset (f, 0, sizeof *f);
  f->block = block >= 0 ? (guint) block : 0;
  f->original = prepared_library (name, f->block, keys, n);
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
  /* a known scale: 200 px per second, the view at 0 ms */
  mat_timeline_set_zoom (f->timeline, 200.0);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (f->timeline)), 0);
  ui_spin_ms (20);
}

static void
fixture_open (Fixture    *f,
              const char *name,
              int         block)
{
  fixture_open_keys (f, name, block, NULL, 0);
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
  return block_of_material (f->material, i);
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

/* The byte offset of block @block's key count in a MAT0 payload. */
static gsize
key_list_offset (const guint8 *payload,
                 gsize         size,
                 guint32       attr2,
                 guint         block)
{
  gsize off = 4 + mat0_prefix_size (attr2) + (gsize) test_get_u16 (payload) * MAT0_PHASE_SIZE;

  for (guint b = 0; b < block; b++)
    {
      g_assert_cmpuint (off + MAT0_BLOCK_HEADER_SIZE, <=, size);
      off += MAT0_BLOCK_HEADER_SIZE + (gsize) test_get_u16 (payload + off + 4) * MAT0_KEY_SIZE;
    }
  g_assert_cmpuint (off + MAT0_BLOCK_HEADER_SIZE, <=, size);
  return off + 4;
}

/* The saved material is the original one with exactly @keys in the
 * fixture's block: every other byte as it was. */
static void
assert_bytes (Fixture       *f,
              const guint16 *keys,
              guint          n)
{
  g_autoptr(GBytes) saved = ui_library_save (f->lib);
  g_autoptr(NresArchive) before = nres_archive_parse (f->original, NULL);
  g_autoptr(NresArchive) after = nres_archive_parse (saved, NULL);
  g_autoptr(GByteArray) expected = g_byte_array_new ();
  gint index = mat_library_index_of (f->lib, f->material);
  const guint8 *old, *now;
  gsize old_size, now_size, at;
  guint old_n;

  g_assert_nonnull (before);
  g_assert_nonnull (after);
  g_assert_cmpint (index, >=, 0);
  old = nres_archive_payload (before, index, &old_size);
  now = nres_archive_payload (after, index, &now_size);
  at = key_list_offset (old, old_size, before->entries[index].attr2, f->block);
  old_n = test_get_u16 (old + at);

  test_put_bytes (expected, old, at);
  test_put_u16 (expected, (guint16) n);
  for (guint i = 0; i < 3 * n; i++)
    test_put_u16 (expected, keys[i]);
  at += 2 + (gsize) old_n * MAT0_KEY_SIZE;
  test_put_bytes (expected, old + at, old_size - at);
  g_assert_cmpmem (now, now_size, expected->data, expected->len);
  assert_keys (block_of (f, f->block), keys, n);
}

static void
assert_original_bytes (Fixture *f)
{
  g_autoptr(GBytes) now = ui_library_save (f->lib);

  g_assert_true (g_bytes_equal (now, f->original));
}

/* After a gesture: @keys now; undo gives the original bytes, redo @keys
 * again (one step). */
static void
assert_step (Fixture       *f,
             const guint16 *keys,
             guint          n)
{
  assert_bytes (f, keys, n);
  g_assert_false (mat_history_in_group (history_of (f)));
  g_assert_true (mat_history_undo (history_of (f)));
  assert_original_bytes (f);
  g_assert_true (mat_history_redo (history_of (f)));
  assert_bytes (f, keys, n);
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

/* Real key presses through the X server: @keysym with @mods held. */
static void
send_key (GtkWidget       *widget,
          guint            keysym,
          GdkModifierType  mods)
{
  Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  static const struct {
    GdkModifierType mask;
    guint           keysym;
  } modifiers[] = {
    { GDK_SHIFT_MASK, XK_Shift_L },
    { GDK_CONTROL_MASK, XK_Control_L },
    { GDK_ALT_MASK, XK_Alt_L },
  };
  KeyCode code = XKeysymToKeycode (xdisplay, keysym);

  g_assert_cmpuint (code, !=, 0);
  for (guint i = 0; i < G_N_ELEMENTS (modifiers); i++)
    if (mods & modifiers[i].mask)
      XTestFakeKeyEvent (xdisplay, XKeysymToKeycode (xdisplay, modifiers[i].keysym), True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, False, CurrentTime);
  for (guint i = G_N_ELEMENTS (modifiers); i > 0; i--)
    if (mods & modifiers[i - 1].mask)
      XTestFakeKeyEvent (xdisplay, XKeysymToKeycode (xdisplay, modifiers[i - 1].keysym), False,
                         CurrentTime);
  XFlush (xdisplay);
  ui_spin_ms (40);
}

static void
send_text (GtkWidget  *widget,
           const char *digits)
{
  for (const char *p = digits; *p != '\0'; p++)
    send_key (widget, XK_0 + (*p - '0'), 0);
}

static gboolean
is_named (GtkWidget     *widget,
          gconstpointer  data)
{
  return g_strcmp0 (gtk_widget_get_name (widget), data) == 0;
}

static gboolean
popover_open (gpointer data)
{
  return mat_timeline_get_key_popover (data) != NULL;
}

static gboolean
popover_closed (gpointer data)
{
  return mat_timeline_get_key_popover (data) == NULL;
}

/* ---- retiming ---------------------------------------------------------- */

static void
test_click_adds_key (void)
{
  Fixture f;
  static const guint16 split[] = { 0, 800, 5,  1, 1200, 0,  1, 1600, 0,  2, 2400, 7,  3, 3200, 0 };
  static const guint16 appended[] = { 0, 800, 5,  1, 1600, 0,  2, 2400, 7,  3, 3200, 0,  0, 3600, 0 };

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);
  g_assert_cmpuint (mat_timeline_get_grid (f.timeline), ==, 50);

  /* a click on the track at 1210 ms (snapped to 1200): inside key 1's
   * interval (800..1600), which it splits; every other time stays */
  mat_timeline_test_click (f.timeline, tx (&f, 1210), track_y (&f) + 8, 1, GDK_BUTTON_PRIMARY, 0);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  assert_step (&f, split, 5);
  g_assert_cmpuint (mat_anim_block_get_period (block_of (&f, 0)), ==, 3200);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 1);
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "time 1200 ms"));
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "k2 = 0"));
  g_assert_true (mat_history_undo (history_of (&f)));

  /* past the period: a new last key, a longer period */
  mat_timeline_test_click (f.timeline, tx (&f, 3600), track_y (&f), 1, GDK_BUTTON_PRIMARY, 0);
  assert_step (&f, appended, 5);
  g_assert_cmpuint (mat_anim_block_get_period (block_of (&f, 0)), ==, 3600);
  undo_all (&f);
  fixture_close (&f);
}

static void
test_drag_plain (void)
{
  Fixture f;
  static const guint16 moved[] = { 0, 800, 5,  1, 1600, 0,  2, 2150, 7,  3, 3200, 0 };
  static const guint16 clamped[] = { 0, 800, 5,  1, 1600, 0,  2, 3200, 7,  3, 3200, 0 };
  static const guint16 first[] = { 0, 500, 5,  1, 1600, 0,  2, 2400, 7,  3, 3200, 0 };
  static const guint16 last[] = { 0, 800, 5,  1, 1600, 0,  2, 2400, 7,  3, 3850, 0 };

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);

  /* key 2 from 2400 to about 2133 ms: snaps to the grid, 2150; only its
   * k1 changes, the period stays */
  mat_timeline_test_drag (f.timeline, tx (&f, 2400), track_y (&f),
                          tx (&f, 2133) - tx (&f, 2400), 0, 0);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  assert_step (&f, moved, 4);
  g_assert_cmpuint (mat_anim_block_get_period (block_of (&f, 0)), ==, 3200);
  g_assert_true (mat_history_undo (history_of (&f)));

  /* past the next key: it stops at that key's time */
  mat_timeline_test_drag (f.timeline, tx (&f, 2400), track_y (&f),
                          tx (&f, 3900) - tx (&f, 2400), 0, 0);
  assert_step (&f, clamped, 4);
  g_assert_true (mat_history_undo (history_of (&f)));

  /* key 0 towards 500 ms; the last key out to 3850 ms (the period) */
  mat_timeline_test_drag (f.timeline, tx (&f, 800), track_y (&f), tx (&f, 500) - tx (&f, 800), 0, 0);
  assert_step (&f, first, 4);
  g_assert_true (mat_history_undo (history_of (&f)));
  mat_timeline_test_drag (f.timeline, tx (&f, 3200), track_y (&f), tx (&f, 3850) - tx (&f, 3200), 0, 0);
  assert_step (&f, last, 4);
  g_assert_cmpuint (mat_anim_block_get_period (block_of (&f, 0)), ==, 3850);

  undo_all (&f);
  fixture_close (&f);
}

static void
test_drag_shift (void)
{
  Fixture f;
  static const guint16 later[] = { 0, 800, 5,  1, 1800, 0,  2, 2600, 7,  3, 3400, 0 };
  static const guint16 earlier[] = { 0, 800, 5,  1, 800, 0,  2, 1600, 7,  3, 2400, 0 };
  static const guint16 both[] = { 0, 800, 5,  1, 1700, 0,  2, 2500, 7,  3, 3200, 0 };

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);

  /* key 1 200 ms later with Shift: every later k1 by 200, the period too */
  mat_timeline_test_drag (f.timeline, tx (&f, 1600), track_y (&f),
                          tx (&f, 1800) - tx (&f, 1600), 0, GDK_SHIFT_MASK);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  assert_step (&f, later, 4);
  g_assert_cmpuint (mat_anim_block_get_period (block_of (&f, 0)), ==, 3400);
  g_assert_true (mat_history_undo (history_of (&f)));

  /* far earlier: stops at key 0's time, the later keys keep their gaps */
  mat_timeline_test_drag (f.timeline, tx (&f, 1600), track_y (&f),
                          tx (&f, 300) - tx (&f, 1600), 0, GDK_SHIFT_MASK);
  assert_step (&f, earlier, 4);
  g_assert_cmpuint (mat_anim_block_get_period (block_of (&f, 0)), ==, 2400);
  g_assert_true (mat_history_undo (history_of (&f)));

  /* two keys selected (Ctrl+click) move together */
  mat_timeline_test_click (f.timeline, tx (&f, 1600), track_y (&f), 1, GDK_BUTTON_PRIMARY, 0);
  mat_timeline_test_click (f.timeline, tx (&f, 2400), track_y (&f), 1, GDK_BUTTON_PRIMARY, GDK_CONTROL_MASK);
  g_assert_cmpuint (mat_timeline_get_n_selected (f.timeline), ==, 2);
  mat_timeline_test_drag (f.timeline, tx (&f, 1600), track_y (&f), tx (&f, 1700) - tx (&f, 1600), 0, 0);
  assert_step (&f, both, 4);
  g_assert_cmpuint (mat_timeline_get_n_selected (f.timeline), ==, 2);

  undo_all (&f);
  fixture_close (&f);
}

static void
test_snap_and_alt (void)
{
  Fixture f;
  static const guint16 exact[] = { 0, 800, 5,  1, 1600, 0,  2, 2234, 7,  3, 3200, 0 };
  static const guint16 onto[] = { 0, 800, 5,  1, 1600, 0,  2, 1600, 7,  3, 3200, 0 };

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);

  /* Alt: no snapping at all */
  mat_timeline_test_drag (f.timeline, tx (&f, 2400), track_y (&f),
                          tx (&f, 2234) - tx (&f, 2400), 0, GDK_ALT_MASK);
  assert_step (&f, exact, 4);
  g_assert_true (mat_history_undo (history_of (&f)));

  /* 1613 ms is 13 ms (2.6 px) from key 1's time: the key wins over the
   * grid, and the interval left empty is a lint the timeline shows */
  mat_timeline_test_drag (f.timeline, tx (&f, 2400), track_y (&f),
                          tx (&f, 1613) - tx (&f, 2400), 0, 0);
  assert_step (&f, onto, 4);
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "empty interval"));

  undo_all (&f);
  fixture_close (&f);
}

static void
test_typed_time (void)
{
  Fixture f;
  GtkPopover *popover;
  GtkSpinButton *spin;
  static const guint16 typed[] = { 0, 800, 5,  1, 1600, 0,  2, 2250, 7,  3, 3200, 0 };
  static const guint16 period[] = { 0, 800, 5,  1, 1600, 0,  2, 2400, 7,  3, 4000, 0 };

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);
  mat_timeline_select_key (f.timeline, 2, FALSE);
  gtk_widget_activate_action (GTK_WIDGET (f.timeline), "timeline.edit", NULL);
  popover = mat_timeline_get_key_popover (f.timeline);
  g_assert_nonnull (popover);
  spin = GTK_SPIN_BUTTON (ui_find_widget (GTK_WIDGET (popover), is_named, "key-time"));
  g_assert_nonnull (spin);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 2400);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 0);

  /* typed in ms: that key's k1, nothing else */
  gtk_editable_set_text (GTK_EDITABLE (spin), "2250");
  gtk_spin_button_update (spin);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  assert_step (&f, typed, 4);
  /* undo shows in the open field */
  g_assert_true (mat_history_undo (history_of (&f)));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, 2400);
  gtk_popover_popdown (popover);
  ui_spin_ms (30);

  /* the last key's time is the period */
  mat_timeline_select_key (f.timeline, 3, FALSE);
  gtk_widget_activate_action (GTK_WIDGET (f.timeline), "timeline.edit", NULL);
  popover = mat_timeline_get_key_popover (f.timeline);
  spin = GTK_SPIN_BUTTON (ui_find_widget (GTK_WIDGET (popover), is_named, "key-time"));
  gtk_spin_button_set_value (spin, 4000);
  assert_step (&f, period, 4);
  g_assert_cmpuint (mat_anim_block_get_period (block_of (&f, 0)), ==, 4000);
  gtk_popover_popdown (popover);

  undo_all (&f);
  fixture_close (&f);
}

static void
test_delete_keeps_times (void)
{
  Fixture f;
  static const guint16 one[] = { 0, 800, 5,  1, 1600, 0,  3, 3200, 0 };
  static const guint16 two[] = { 0, 800, 5,  3, 3200, 0 };

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);

  mat_timeline_test_click (f.timeline, tx (&f, 2400), track_y (&f), 1, GDK_BUTTON_PRIMARY, 0);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 2);
  gtk_widget_activate_action (GTK_WIDGET (f.timeline), "timeline.delete", NULL);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  assert_step (&f, one, 3);
  g_assert_cmpuint (mat_anim_block_get_period (block_of (&f, 0)), ==, 3200);
  g_assert_true (mat_history_undo (history_of (&f)));

  /* two keys at once: one step */
  mat_timeline_select_key (f.timeline, 1, FALSE);
  mat_timeline_select_key (f.timeline, 2, TRUE);
  g_assert_cmpuint (mat_timeline_get_n_selected (f.timeline), ==, 2);
  gtk_widget_activate_action (GTK_WIDGET (f.timeline), "timeline.delete", NULL);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  assert_step (&f, two, 2);

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
  GtkPopover *popover;
  GtkListBox *list;
  static const guint16 up[] = { 0, 800, 5,  3, 1600, 0,  2, 2400, 7,  3, 3200, 0 };
  static const guint16 chosen[] = { 0, 800, 5,  2, 1600, 0,  0, 2400, 7,  3, 3200, 0 };

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);

  /* dragging key 1 up by two steps: phase 1 -> 3, one undo step, no time */
  mat_timeline_test_drag (f.timeline, tx (&f, 1600), track_y (&f), 0, -36, 0);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  assert_step (&f, up, 4);

  /* timeline.step-phase: one down */
  gtk_widget_activate_action (GTK_WIDGET (f.timeline), "timeline.step-phase", "i", -1);
  g_assert_cmpuint (mat_key_get_k0 (key_of (block_of (&f, 0), 1)), ==, 2);

  /* a double-click opens the key's popover: a row sets k0 */
  mat_timeline_test_click (f.timeline, tx (&f, 2400), track_y (&f), 2, GDK_BUTTON_PRIMARY, 0);
  popover = mat_timeline_get_key_popover (f.timeline);
  g_assert_nonnull (popover);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 2);
  list = GTK_LIST_BOX (ui_find_widget (GTK_WIDGET (popover), is_phase_list, NULL));
  g_assert_nonnull (list);
  g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (list, 0));
  assert_bytes (&f, chosen, 4);
  g_assert_true (ui_wait_for (popover_closed, f.timeline, 5));

  /* the right button opens it too */
  mat_timeline_test_click (f.timeline, tx (&f, 3200), track_y (&f), 1, GDK_BUTTON_SECONDARY, 0);
  g_assert_nonnull (mat_timeline_get_key_popover (f.timeline));
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 3);
  gtk_popover_popdown (mat_timeline_get_key_popover (f.timeline));

  undo_all (&f);
  fixture_close (&f);
}

static void
test_rubber_band (void)
{
  Fixture f;

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);

  /* a rubber band over keys 2 and 3, from the caption lane */
  mat_timeline_test_drag (f.timeline, tx (&f, 2300), track_y (&f) + 30,
                          tx (&f, 3300) - tx (&f, 2300), -40, 0);
  g_assert_cmpuint (mat_timeline_get_n_selected (f.timeline), ==, 2);
  g_assert_true (mat_timeline_is_key_selected (f.timeline, 2));
  g_assert_true (mat_timeline_is_key_selected (f.timeline, 3));
  g_assert_false (mat_timeline_is_key_selected (f.timeline, 1));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 0);

  /* a click on one key of them selects only it */
  mat_timeline_test_click (f.timeline, tx (&f, 2400), track_y (&f), 1, GDK_BUTTON_PRIMARY, 0);
  g_assert_cmpuint (mat_timeline_get_n_selected (f.timeline), ==, 1);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 2);
  fixture_close (&f);
}

/* ---- the view ---------------------------------------------------------- */

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

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);
  g_signal_connect (f.timeline, "scrubbed", G_CALLBACK (on_scrubbed), &scrubbed);

  mat_timeline_test_click (f.timeline, tx (&f, 1000), mat_timeline_get_ruler_y (f.timeline),
                           1, GDK_BUTTON_PRIMARY, 0);
  g_assert_cmpuint (mat_timeline_get_position (f.timeline), ==, 1000);
  g_assert_cmpuint (scrubbed, ==, 1000);
  mat_timeline_test_drag (f.timeline, tx (&f, 1000), mat_timeline_get_ruler_y (f.timeline),
                          tx (&f, 1500) - tx (&f, 1000), 0, 0);
  g_assert_cmpuint (scrubbed, ==, 1500);
  /* past the period: held at its end */
  mat_timeline_test_drag (f.timeline, tx (&f, 1000), mat_timeline_get_ruler_y (f.timeline),
                          tx (&f, 5000) - tx (&f, 1000), 0, 0);
  g_assert_cmpuint (scrubbed, ==, 3200);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 0);

  /* a bound preview time past the period is kept; the playhead stands
   * where the evaluator is at that time, in every mode */
  g_object_set (f.timeline, "position", 7000u, NULL);
  g_assert_cmpuint (mat_timeline_get_position (f.timeline), ==, 7000);
  /* loop: 7000 = 2 * 3200 + 600 */
  g_assert_cmpuint (mat_timeline_get_playhead (f.timeline), ==, 600);
  ui_spin_ms (50);
  {
    MatAnimBlock *block = mat_timeline_get_block (f.timeline);
    g_autoptr(GError) error = NULL;
    static const struct {
      guint mode;
      guint position;
      guint random_offset;
      guint playhead;
    } modes[] = {
      /* ping-pong: forwards in even periods, back in odd ones */
      { 1, 7000, 0, 600 }, { 1, 4000, 0, 2400 }, { 1, 3200, 0, 3200 }, { 1, 6400, 0, 0 },
      /* once: held at the end after the first period */
      { 2, 3000, 0, 3000 }, { 2, 3200, 0, 3200 }, { 2, 7000, 0, 3200 },
      /* random: R % period whatever the time */
      { 3, 7000, 5000, 1800 }, { 3, 10, 5000, 1800 }, { 3, 10, 100, 100 },
      /* unknown: as loop */
      { 6, 7000, 5000, 600 },
      { 0, 3200, 5000, 0 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
      {
        g_assert_true (mat_anim_block_set_mode (block, modes[i].mode, &error));
        g_assert_no_error (error);
        g_object_set (f.timeline, "position", modes[i].position,
                      "random-offset", modes[i].random_offset, NULL);
        g_assert_cmpuint (mat_timeline_get_random_offset (f.timeline), ==, modes[i].random_offset);
        g_assert_cmpuint (mat_timeline_get_playhead (f.timeline), ==, modes[i].playhead);
      }
    ui_spin_ms (50);
  }

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

static void
test_zoom_to_fit (void)
{
  Fixture f;
  GtkAdjustment *adj;
  double width;

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);
  adj = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (f.timeline));
  width = gtk_widget_get_width (GTK_WIDGET (f.timeline));

  /* zoomed in and scrolled: the period does not fit */
  mat_timeline_set_zoom (f.timeline, 1000.0);
  ui_spin_ms (30);
  gtk_adjustment_set_value (adj, 900);
  g_assert_cmpfloat (mat_timeline_get_offset (f.timeline), ==, 900);
  g_assert_cmpfloat (tx (&f, 3200), >, width);

  gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.zoom-fit", NULL);
  g_assert_cmpfloat (mat_timeline_get_offset (f.timeline), ==, 0);
  g_assert_cmpfloat (tx (&f, 0), >=, 0);
  g_assert_cmpfloat (tx (&f, 3200), <=, width - 40);
  g_assert_cmpfloat (tx (&f, 3200), >=, width * 0.7);
  g_assert_cmpfloat_with_epsilon (mat_timeline_get_zoom (f.timeline),
                                  (width - 2 * 22.0 - 96.0) * 1000.0 / 3200.0, 1e-6);

  /* the timeline's own action does the same */
  mat_timeline_set_zoom (f.timeline, 30.0);
  gtk_widget_activate_action (GTK_WIDGET (f.timeline), "timeline.zoom-fit", NULL);
  g_assert_cmpfloat (tx (&f, 3200), >=, width * 0.7);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 0);
  fixture_close (&f);
}

typedef struct {
  double zoom;
  double offset;
} View;

static View
view_of (Fixture *f)
{
  View v = { mat_timeline_get_zoom (f->timeline), mat_timeline_get_offset (f->timeline) };

  return v;
}

static void
assert_same_view (Fixture *f,
                  View     before)
{
  View now = view_of (f);

  g_assert_cmpfloat (now.zoom, ==, before.zoom);
  g_assert_cmpfloat (now.offset, ==, before.offset);
}

/* Clicks on keys, as real pointer events, never move the view: the
 * timeline scrolls itself, so focusing it scrolls nothing, and a double
 * click lands on the key under the pointer. */
static void
test_click_keeps_view (void)
{
  Fixture f;
  GtkWidget *timeline;
  GtkAdjustment *adj;
  View before;

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);
  timeline = GTK_WIDGET (f.timeline);
  adj = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (f.timeline));
  mat_timeline_set_zoom (f.timeline, 400.0);
  ui_spin_ms (30);
  gtk_adjustment_set_value (adj, 300);
  ui_spin_ms (30);
  before = view_of (&f);
  g_assert_cmpfloat (before.offset, ==, 300);
  g_assert_cmpfloat (tx (&f, 2400), <, gtk_widget_get_width (timeline));

  /* the focus elsewhere first: the click takes it */
  gtk_widget_grab_focus (mat_block_editor_get_test_widget (f.editor, "blocks"));
  ui_spin_ms (30);
  ui_pointer_move (timeline, tx (&f, 1600), track_y (&f));
  ui_pointer_button (timeline, 1, TRUE);
  ui_pointer_button (timeline, 1, FALSE);
  ui_spin_ms (100);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 1);
  g_assert_true (gtk_widget_has_focus (timeline));
  assert_same_view (&f, before);

  /* a double click on another key: that key, its popover */
  ui_pointer_move (timeline, tx (&f, 2400), track_y (&f));
  ui_pointer_button (timeline, 1, TRUE);
  ui_pointer_button (timeline, 1, FALSE);
  ui_pointer_button (timeline, 1, TRUE);
  ui_pointer_button (timeline, 1, FALSE);
  g_assert_true (ui_wait_for (popover_open, f.timeline, 5));
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 2);
  assert_same_view (&f, before);
  gtk_popover_popdown (mat_timeline_get_key_popover (f.timeline));
  ui_spin_ms (50);
  assert_same_view (&f, before);

  /* and a double click on key 1 again, from the popover's focus */
  ui_pointer_move (timeline, tx (&f, 1600), track_y (&f));
  ui_pointer_button (timeline, 1, TRUE);
  ui_pointer_button (timeline, 1, FALSE);
  ui_pointer_button (timeline, 1, TRUE);
  ui_pointer_button (timeline, 1, FALSE);
  g_assert_true (ui_wait_for (popover_open, f.timeline, 5));
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 1);
  assert_same_view (&f, before);
  gtk_popover_popdown (mat_timeline_get_key_popover (f.timeline));
  ui_spin_ms (50);

  /* nothing was edited by clicking */
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 0);
  assert_original_bytes (&f);
  fixture_close (&f);
}

/* The same gestures as above, as real pointer events through the X
 * server: GDK, the gesture controllers and the widget's handlers. */
static void
test_real_pointer (void)
{
  Fixture f;
  GtkWidget *timeline;
  static const guint16 added[] = { 0, 800, 5,  1, 1200, 0,  1, 1600, 0,  2, 2400, 7,  3, 3200, 0 };
  static const guint16 retimed[] = { 0, 800, 5,  1, 1600, 0,  2, 2150, 7,  3, 3200, 0 };
  static const guint16 carried[] = { 0, 800, 5,  1, 1600, 0,  2, 2150, 7,  3, 2950, 0 };

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);
  timeline = GTK_WIDGET (f.timeline);

  /* a click on the empty track at 1200 ms adds a key there */
  ui_pointer_move (timeline, tx (&f, 1200), track_y (&f) + 8);
  ui_pointer_button (timeline, 1, TRUE);
  ui_pointer_button (timeline, 1, FALSE);
  g_assert_true (ui_wait_for (history_has_steps, &f, 5));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  assert_step (&f, added, 5);
  g_assert_true (mat_history_undo (history_of (&f)));
  assert_original_bytes (&f);

  /* key 2 dragged from 2400 to about 2133 ms snaps to 2150: one step */
  ui_pointer_drag (timeline, tx (&f, 2400), track_y (&f), tx (&f, 2133) - tx (&f, 2400), 0);
  g_assert_true (ui_wait_for (history_has_steps, &f, 5));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  assert_step (&f, retimed, 4);

  /* the same with Shift held: key 3 comes along, the period shrinks */
  g_assert_true (mat_history_undo (history_of (&f)));
  {
    Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (timeline));
    KeyCode shift = XKeysymToKeycode (xdisplay, XK_Shift_L);

    XTestFakeKeyEvent (xdisplay, shift, True, CurrentTime);
    XFlush (xdisplay);
    ui_pointer_drag (timeline, tx (&f, 2400), track_y (&f), tx (&f, 2133) - tx (&f, 2400), 0);
    XTestFakeKeyEvent (xdisplay, shift, False, CurrentTime);
    XFlush (xdisplay);
    ui_spin_ms (30);
  }
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  assert_step (&f, carried, 4);
  g_assert_cmpuint (mat_anim_block_get_period (block_of (&f, 0)), ==, 2950);

  undo_all (&f);
  fixture_close (&f);
}

/* The timeline's actions through their shortcuts: real key presses. */
static void
test_accelerators (void)
{
  Fixture f;
  GtkWidget *timeline;
  GtkWidget *spin;
  View before;
  static const guint16 nudged[] = { 0, 800, 5,  1, 1650, 0,  2, 2400, 7,  3, 3200, 0 };
  static const guint16 carried[] = { 0, 800, 5,  1, 1700, 0,  2, 2450, 7,  3, 3250, 0 };
  static const guint16 deleted[] = { 0, 800, 5,  1, 1600, 0,  3, 3200, 0 };
  static const guint16 inserted[] = { 0, 800, 5,  1, 1000, 0,  1, 1600, 0,  2, 2400, 7,  3, 3200, 0 };
  static const guint16 typed[] = { 0, 800, 5,  1, 1234, 0,  2, 2400, 7,  3, 3200, 0 };
  static const guint16 phase[] = { 0, 800, 5,  2, 1600, 0,  2, 2400, 7,  3, 3200, 0 };

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);
  timeline = GTK_WIDGET (f.timeline);
  /* the pointer in the window, the focus on the timeline */
  ui_pointer_move (timeline, tx (&f, 400), mat_timeline_get_track_y (f.timeline) + 40);
  gtk_widget_grab_focus (timeline);
  ui_spin_ms (50);
  g_assert_true (gtk_widget_has_focus (timeline));

  /* selection: Right, Left, End, Home */
  send_key (timeline, XK_Right, 0);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 0);
  send_key (timeline, XK_Right, 0);
  send_key (timeline, XK_Right, 0);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 2);
  send_key (timeline, XK_Left, 0);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 1);
  send_key (timeline, XK_End, 0);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 3);
  send_key (timeline, XK_Home, 0);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 0);
  send_key (timeline, XK_Right, 0);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 0);

  /* Alt+Right: key 1 one grid step (50 ms) later, alone */
  send_key (timeline, XK_Right, GDK_ALT_MASK);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  assert_step (&f, nudged, 4);
  /* Shift+Alt+Right: the later keys come along */
  g_assert_true (mat_history_undo (history_of (&f)));
  send_key (timeline, XK_Right, GDK_ALT_MASK);
  send_key (timeline, XK_Right, GDK_ALT_MASK | GDK_SHIFT_MASK);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 2);
  assert_bytes (&f, carried, 4);
  send_key (timeline, XK_Left, GDK_ALT_MASK | GDK_SHIFT_MASK);
  send_key (timeline, XK_Left, GDK_ALT_MASK);
  assert_bytes (&f, cycle_keys, 4);
  undo_all (&f);

  /* Up: the phase of the selected key */
  send_key (timeline, XK_Up, 0);
  assert_step (&f, phase, 4);
  undo_all (&f);

  /* Delete */
  mat_timeline_select_key (f.timeline, 2, FALSE);
  send_key (timeline, XK_Delete, 0);
  assert_step (&f, deleted, 3);
  undo_all (&f);

  /* Insert: a key at the playhead */
  mat_timeline_set_position (f.timeline, 1000);
  send_key (timeline, XK_Insert, 0);
  assert_step (&f, inserted, 5);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, 1);
  undo_all (&f);

  /* F2: the key's time typed */
  mat_timeline_select_key (f.timeline, 1, FALSE);
  send_key (timeline, XK_F2, 0);
  g_assert_true (ui_wait_for (popover_open, f.timeline, 5));
  spin = ui_find_widget (GTK_WIDGET (mat_timeline_get_key_popover (f.timeline)), is_named, "key-time");
  g_assert_nonnull (spin);
  /* the time field has the focus, its text selected */
  g_assert_true (gtk_widget_has_focus (ui_find_by_type (spin, GTK_TYPE_TEXT)));
  gtk_editable_select_region (GTK_EDITABLE (spin), 0, -1);
  send_text (timeline, "1234");
  send_key (timeline, XK_Return, 0);
  g_assert_true (ui_wait_for (popover_closed, f.timeline, 5));
  assert_step (&f, typed, 4);
  undo_all (&f);
  gtk_widget_grab_focus (timeline);
  ui_spin_ms (30);

  /* Escape: nothing selected */
  send_key (timeline, XK_Escape, 0);
  g_assert_cmpint (mat_timeline_get_selected_key (f.timeline), ==, -1);

  /* zoom: plus (=), minus, 0 fits */
  before = view_of (&f);
  send_key (timeline, XK_equal, 0);
  g_assert_cmpfloat (mat_timeline_get_zoom (f.timeline), >, before.zoom);
  send_key (timeline, XK_minus, 0);
  send_key (timeline, XK_minus, 0);
  g_assert_cmpfloat (mat_timeline_get_zoom (f.timeline), <, before.zoom);
  send_key (timeline, XK_0, 0);
  g_assert_cmpfloat (mat_timeline_get_offset (f.timeline), ==, 0);
  g_assert_cmpfloat (tx (&f, 3200), >=, gtk_widget_get_width (timeline) * 0.7);
  mat_timeline_set_zoom (f.timeline, 200.0);
  send_key (timeline, XK_0, GDK_CONTROL_MASK);
  g_assert_cmpfloat (tx (&f, 3200), >=, gtk_widget_get_width (timeline) * 0.7);

  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 0);
  assert_original_bytes (&f);
  fixture_close (&f);
}

/* ---- bad data ---------------------------------------------------------- */

static void
test_times_out_of_order (void)
{
  Fixture f;
  /* key 1 at key 0's time (empty), key 2 before key 1 (out of order) */
  static const guint16 bad[] = { 0, 800, 0,  1, 800, 0,  2, 600, 0,  3, 3200, 0 };
  static const guint16 fixed[] = { 0, 800, 0,  1, 1300, 0,  2, 600, 0,  3, 3200, 0 };
  g_autofree char *tip1 = NULL;
  g_autofree char *tip2 = NULL;
  g_autofree char *marker = NULL;

  fixture_open_keys (&f, "COLOR_CYCLE", 0, bad, 4);
  ui_screenshot (GTK_WIDGET (f.window), "timeline-out-of-order.png");

  /* the lint of each key in its tooltip */
  tip1 = mat_timeline_dup_tooltip_text (f.timeline, tx (&f, 800), track_y (&f));
  g_assert_nonnull (tip1);
  g_assert_nonnull (strstr (tip1, "Key 1"));
  g_assert_nonnull (strstr (tip1, "expected the time of key 1 of anim block 0 to be greater than 800 ms"));
  tip2 = mat_timeline_dup_tooltip_text (f.timeline, tx (&f, 600), track_y (&f));
  g_assert_nonnull (tip2);
  g_assert_nonnull (strstr (tip2, "key 2 of anim block 0 to be greater than 800 ms"));
  g_assert_nonnull (strstr (tip2, "found 600 ms"));
  /* the marker beside the handle says it too */
  marker = mat_timeline_dup_tooltip_text (f.timeline, tx (&f, 600) + 16, track_y (&f) - 15);
  g_assert_nonnull (marker);
  g_assert_nonnull (strstr (marker, "empty interval"));
  mat_timeline_select_key (f.timeline, 2, FALSE);
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "empty interval"));

  /* keys stacked at 800 ms split in the direction of a drag: right takes
   * the last of them (key 1); its next key is out of order, so nothing
   * but 0..65535 bounds it */
  mat_timeline_test_drag (f.timeline, tx (&f, 800), track_y (&f), tx (&f, 1300) - tx (&f, 800), 0, 0);
  assert_step (&f, fixed, 4);
  ui_screenshot (GTK_WIDGET (f.window), "timeline-out-of-order-dragged.png");
  undo_all (&f);
  fixture_close (&f);
}

static void
test_zero_period (void)
{
  Fixture f;
  static const guint16 zero[] = { 0, 0, 0,  1, 0, 0 };
  static const guint16 grown[] = { 0, 0, 0,  1, 600, 0 };
  g_autofree char *tip = NULL;

  fixture_open_keys (&f, "COLOR_CYCLE", 0, zero, 2);
  g_assert_cmpuint (mat_anim_block_get_period (block_of (&f, 0)), ==, 0);
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "period 0 ms"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (mat_block_editor_get_test_widget (f.editor, "period"))),
                            "period 0 ms"));
  ui_screenshot (GTK_WIDGET (f.window), "timeline-zero-period.png");

  /* the box on the track explains it, with the lint */
  tip = mat_timeline_dup_tooltip_text (f.timeline, tx (&f, 0) + 120, track_y (&f));
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "never animates"));
  g_assert_nonnull (strstr (tip, "expected a non-zero time for the last key of anim block 0"));

  /* the last key dragged out gives the track a period */
  mat_timeline_test_drag (f.timeline, tx (&f, 0), track_y (&f), tx (&f, 600) - tx (&f, 0), 0, 0);
  assert_step (&f, grown, 2);
  g_assert_cmpuint (mat_anim_block_get_period (block_of (&f, 0)), ==, 600);
  undo_all (&f);
  fixture_close (&f);
}

static void
test_missing_phase_and_empty_block (void)
{
  Fixture f;
  static const guint16 missing[] = { 0, 500, 0,  9, 1000, 0 };
  static const guint16 stepped[] = { 0, 500, 0,  3, 1000, 0 };
  MatAnimBlock *block;
  g_autofree char *tip = NULL;

  fixture_open_keys (&f, "COLOR_CYCLE", 0, missing, 2);
  mat_timeline_select_key (f.timeline, 1, FALSE);
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "missing phase 9"));
  tip = mat_timeline_dup_tooltip_text (f.timeline, tx (&f, 1000), track_y (&f));
  g_assert_nonnull (strstr (tip, "below phaseCount 4 in key 1 of anim block 0, found 9"));
  ui_screenshot (GTK_WIDGET (f.window), "timeline-missing-phase.png");
  /* Down on a missing phase moves into the table */
  gtk_widget_activate_action (GTK_WIDGET (f.timeline), "timeline.step-phase", "i", -1);
  assert_step (&f, stepped, 2);
  undo_all (&f);

  /* a block without keys: drawn, and a click adds the first key */
  block = block_of (&f, 0);
  g_assert_true (mat_anim_block_remove_key (block, 1, NULL));
  g_assert_true (mat_anim_block_remove_key (block, 0, NULL));
  g_assert_nonnull (strstr (mat_timeline_get_details (f.timeline), "No keys"));
  ui_screenshot (GTK_WIDGET (f.window), "timeline-no-keys.png");
  mat_timeline_test_click (f.timeline, tx (&f, 300), track_y (&f), 1, GDK_BUTTON_PRIMARY, 0);
  g_assert_cmpuint (mat_anim_block_get_n_keys (block), ==, 1);
  g_assert_cmpuint (mat_key_get_k1 (key_of (block, 0)), ==, 300);

  /* the block vanishing under the timeline */
  gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.remove", NULL);
  ui_spin_ms (30);
  undo_all (&f);
  fixture_close (&f);
}

/* Thousands of keys, times in and out of order, phases past the table:
 * drawn, hit, dragged and explained without a crash or a long wait. */
static void
test_many_keys (void)
{
  Fixture f;
  g_autofree guint16 *keys = g_new (guint16, 3 * 3000);
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  g_autofree char *tip = NULL;
  gint64 start;

  for (guint i = 0; i < 3000; i++)
    {
      keys[3 * i] = (guint16) g_rand_int_range (rand, 0, 8);
      keys[3 * i + 1] = (guint16) (i % 7 == 3 ? (guint) g_rand_int_range (rand, 0, 60000) : 20 * i);
      keys[3 * i + 2] = (guint16) i;
    }
  fixture_open_keys (&f, "COLOR_CYCLE", 0, keys, 3000);
  start = g_get_monotonic_time ();
  gtk_widget_activate_action (GTK_WIDGET (f.timeline), "timeline.zoom-fit", NULL);
  ui_screenshot (GTK_WIDGET (f.window), "timeline-many-keys.png");
  tip = mat_timeline_dup_tooltip_text (f.timeline, tx (&f, 20 * 1500), track_y (&f));
  g_assert_nonnull (tip);

  /* a Shift+Alt (no snapping) drag of key 12 (at 240 ms) by 50 ms: key
   * 12 and every later key move (selected, it is drawn on top of its
   * neighbours 20 ms away, so the press takes it) */
  mat_timeline_select_key (f.timeline, 12, FALSE);
  mat_timeline_set_zoom (f.timeline, 200.0);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (f.timeline)), 0);
  mat_timeline_test_drag (f.timeline, tx (&f, 240), track_y (&f), tx (&f, 290) - tx (&f, 240), 0,
                          GDK_SHIFT_MASK | GDK_ALT_MASK);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 1);
  g_assert_cmpuint (mat_key_get_k1 (key_of (block_of (&f, 0), 12)), ==, 290);
  g_assert_cmpuint (mat_key_get_k1 (key_of (block_of (&f, 0), 11)), ==, 220);
  g_assert_cmpuint (mat_key_get_k1 (key_of (block_of (&f, 0), 13)), ==, 310);
  g_assert_cmpuint (mat_key_get_k1 (key_of (block_of (&f, 0), 2999)), ==, (guint) keys[3 * 2999 + 1] + 50);
  ui_spin_ms (50);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);
  undo_all (&f);
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
  guint loop = G_MAXUINT, unknown = G_MAXUINT, once = G_MAXUINT;
  static const guint16 keys[] = { 0, 500, 0,  1, 1000, 7 };

  fixture_open_keys (&f, "UNKNOWN_MODE", 0, keys, 2);
  block = block_of (&f, 0);
  g_assert_cmphex (mat_anim_block_get_header_raw (block), ==, 0x115);
  mode = GTK_DROP_DOWN (mat_block_editor_get_test_widget (f.editor, "mode"));
  names = GTK_STRING_LIST (gtk_drop_down_get_model (mode));
  /* the labels of the one field table */
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (names)); i++)
    {
      const char *s = gtk_string_list_get_string (names, i);

      if (g_str_equal (s, "Loop"))
        loop = i;
      if (g_str_equal (s, "Once"))
        once = i;
      if (g_str_equal (s, "Unknown (5)"))
        unknown = i;
    }
  g_assert_cmpuint (loop, !=, G_MAXUINT);
  g_assert_cmpuint (once, !=, G_MAXUINT);
  g_assert_cmpuint (unknown, !=, G_MAXUINT);
  g_assert_cmpuint (gtk_drop_down_get_selected (mode), ==, unknown);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (mat_block_editor_get_test_widget (f.editor, "header-raw"))),
                            "0x00000115"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (mat_block_editor_get_test_widget (f.editor, "unknown-bits"))),
                            "0x1"));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (mat_block_editor_get_test_widget (f.editor, "period"))),
                   ==, "period 1000 ms · 2 keys");

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

static gboolean
has_label (GtkWidget     *widget,
           gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), data) == 0;
}

static void
test_interp_toggle_one_bit (void)
{
  Fixture f;
  MatAnimBlock *block;
  GtkToggleButton *self_light, *diffuse;
  guint32 before;

  fixture_open (&f, "UNKNOWN_MODE", 0);
  block = block_of (&f, 0);
  before = mat_anim_block_get_header_raw (block);
  self_light = GTK_TOGGLE_BUTTON (mat_block_editor_get_test_widget (f.editor, "interp-0"));
  diffuse = GTK_TOGGLE_BUTTON (mat_block_editor_get_test_widget (f.editor, "interp-1"));
  /* labelled from the field table */
  g_assert_nonnull (ui_find_widget (GTK_WIDGET (self_light), has_label, "Self-light RGB"));
  g_assert_nonnull (ui_find_widget (GTK_WIDGET (mat_block_editor_get_test_widget (f.editor, "interp-4")),
                                    has_label, "Opacity"));
  g_assert_false (gtk_toggle_button_get_active (self_light));
  g_assert_true (gtk_toggle_button_get_active (diffuse));

  gtk_toggle_button_set_active (self_light, TRUE);
  g_assert_cmphex (mat_anim_block_get_header_raw (block) ^ before, ==, 0x01u << 3);
  gtk_toggle_button_set_active (diffuse, FALSE);
  g_assert_cmphex (mat_anim_block_get_header_raw (block) ^ before, ==, (0x01u | 0x02u) << 3);
  g_assert_cmphex (mat_anim_block_get_interp_mask (block), ==, 0x21);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (&f)), ==, 2);

  /* undo flips the toggle back */
  mat_history_undo (history_of (&f));
  g_assert_true (gtk_toggle_button_get_active (diffuse));
  undo_all (&f);
  g_assert_false (gtk_toggle_button_get_active (self_light));
  fixture_close (&f);
}

static void
test_duplicate_and_remove (void)
{
  Fixture f;
  static const guint16 keys[] = { 0, 500, 3,  1, 1000, 7 };

  fixture_open_keys (&f, "UNKNOWN_MODE", 0, keys, 2);
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

/* Every shortcut of the timeline is listed in the shortcuts window, in
 * its "Animation timeline" section, and that section lists nothing else. */
static void
test_shortcuts_listed (void)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/parkan/MatEdit/mat-shortcuts.ui");
  GtkWidget *timeline = g_object_ref_sink (mat_timeline_new ());
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (timeline);
  g_autoptr(GArray) listed = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
  GSList *objects = gtk_builder_get_objects (builder);
  guint n_bindings = 0;

  for (GSList *l = objects; l != NULL; l = l->next)
    {
      GtkWidget *section;
      g_autofree char *name = NULL;
      g_autofree char *title = NULL;
      g_autofree char *accel = NULL;
      g_auto(GStrv) parts = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      section = gtk_widget_get_ancestor (l->data, GTK_TYPE_SHORTCUTS_SECTION);
      g_assert_nonnull (section);
      g_object_get (section, "section-name", &name, "title", &title, NULL);
      if (g_strcmp0 (name, "timeline") != 0)
        continue;
      g_assert_cmpstr (title, ==, "Animation timeline");
      g_object_get (l->data, "accelerator", &accel, NULL);
      parts = g_strsplit (accel, " ", -1);
      for (guint i = 0; parts[i] != NULL; i++)
        {
          guint pair[2];
          GdkModifierType mods;

          g_assert_true (gtk_accelerator_parse (parts[i], &pair[0], &mods));
          pair[1] = mods;
          g_array_append_val (listed, pair);
        }
    }
  g_slist_free (objects);
  g_assert_cmpuint (listed->len, >=, 20);

  for (guint c = 0; c < g_list_model_get_n_items (controllers); c++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, c);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (controller)); i++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), i);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          gboolean found = FALSE;

          if (!GTK_IS_NAMED_ACTION (action) ||
              !g_str_has_prefix (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)), "timeline."))
            continue;
          g_assert_true (GTK_IS_KEYVAL_TRIGGER (trigger));
          n_bindings++;
          for (guint j = 0; j < listed->len; j++)
            {
              const guint *pair = &g_array_index (listed, guint, 2 * j);

              found = found ||
                      (pair[0] == gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) &&
                       pair[1] == gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)));
            }
          if (!found)
            {
              g_autofree char *name = gtk_shortcut_trigger_to_string (trigger);

              g_test_message ("not in the shortcuts window: %s", name);
            }
          g_assert_true (found);
        }
    }
  /* one listing for each binding, none left over */
  g_assert_cmpuint (n_bindings, ==, listed->len);
  g_object_unref (timeline);

  /* and how the section looks */
  {
    GtkWindow *window = GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay"));

    g_object_set (window, "section-name", "timeline", NULL);
    gtk_window_present (window);
    g_assert_true (ui_wait_for (ui_widget_is_shown, window, 5));
    ui_screenshot (GTK_WIDGET (window), "shortcuts-timeline.png");
    gtk_window_destroy (window);
  }
}

/* ---- pictures ---------------------------------------------------------- */

static void
test_screenshots (void)
{
  Fixture f;
  GtkWidget *window, *scroller, *timeline;

  fixture_open_keys (&f, "COLOR_CYCLE", 0, cycle_keys, 4);
  gtk_widget_activate_action (GTK_WIDGET (f.editor), "block.zoom-fit", NULL);
  mat_timeline_set_position (f.timeline, 1320);
  mat_timeline_select_key (f.timeline, 2, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (f.timeline));
  ui_screenshot (GTK_WIDGET (f.window), "block-editor.png");

  /* the timeline alone, mid-drag with Shift */
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
  ui_spin_ms (50);
  /* shown: zoomed to fit the period */
  g_assert_cmpfloat (mat_timeline_time_to_x (MAT_TIMELINE (timeline), 3200), <=,
                     gtk_widget_get_width (timeline));
  mat_timeline_test_drag_begin (MAT_TIMELINE (timeline), mat_timeline_time_to_x (MAT_TIMELINE (timeline), 1600),
                                mat_timeline_get_track_y (MAT_TIMELINE (timeline)), GDK_SHIFT_MASK);
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
  g_test_add_func ("/ui/timeline/drag-plain", test_drag_plain);
  g_test_add_func ("/ui/timeline/drag-shift", test_drag_shift);
  g_test_add_func ("/ui/timeline/snap-and-alt", test_snap_and_alt);
  g_test_add_func ("/ui/timeline/typed-time", test_typed_time);
  g_test_add_func ("/ui/timeline/delete-keeps-times", test_delete_keeps_times);
  g_test_add_func ("/ui/timeline/phase", test_phase_choice);
  g_test_add_func ("/ui/timeline/rubber-band", test_rubber_band);
  g_test_add_func ("/ui/timeline/scrub-and-zoom", test_scrub_and_zoom);
  g_test_add_func ("/ui/timeline/zoom-to-fit", test_zoom_to_fit);
  g_test_add_func ("/ui/timeline/click-keeps-view", test_click_keeps_view);
  g_test_add_func ("/ui/timeline/real-pointer", test_real_pointer);
  g_test_add_func ("/ui/timeline/accelerators", test_accelerators);
  g_test_add_func ("/ui/timeline/times-out-of-order", test_times_out_of_order);
  g_test_add_func ("/ui/timeline/zero-period", test_zero_period);
  g_test_add_func ("/ui/timeline/missing-phase-and-empty-block", test_missing_phase_and_empty_block);
  g_test_add_func ("/ui/timeline/many-keys", test_many_keys);
  g_test_add_func ("/ui/blocks/limit", test_blocks_limit);
  g_test_add_func ("/ui/blocks/mode-keeps-unknown-bits", test_mode_keeps_unknown_bits);
  g_test_add_func ("/ui/blocks/interp-one-bit", test_interp_toggle_one_bit);
  g_test_add_func ("/ui/blocks/duplicate-remove", test_duplicate_and_remove);
  g_test_add_func ("/ui/timeline/shortcuts-listed", test_shortcuts_listed);
  g_test_add_func ("/ui/timeline/screenshots", test_screenshots);

  return g_test_run ();
}
