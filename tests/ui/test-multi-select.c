/* test-multi-select.c - several materials selected in the real window,
 * under Xvfb
 *
 * Shift and Ctrl clicks are real pointer clicks with the modifier held
 * through the X server (XTest); Ctrl+A and Escape real key presses in the
 * list. An edit in the pages goes to every material selected in one undo
 * step, checked on the bytes a save writes: undo gives the file back.
 * The cells where the selected materials differ carry "differs", exactly
 * where their bytes say so. Delete, copy, paste and export act on all of
 * them; the exported document is what `mat0tool build` reads and `dump`
 * gives back.
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gdk/x11/gdkx.h>
#include <X11/keysym.h>
#include <X11/extensions/XTest.h>

#include "mat0-flags.h"
#include "mat-application.h"
#include "mat-dialogs-private.h"
#include "mat-flags-inspector-private.h"
#include "mat-material-json.h"
#include "mat-material-row.h"
#include "mat-phase-table-private.h"
#include "mat-window.h"
#include "mat-window-clipboard.h"
#include "test-support.h"
#include "ui-support.h"

#define WAIT_SECONDS 20

static MatApplication *app;
static char *tmp_dir;

/* ---- helpers ------------------------------------------------------------ */

static GFile *
temp_file (const char *name,
           GBytes     *bytes)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  GFile *file = g_file_new_for_path (path);

  g_file_replace_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                           NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  return file;
}

static gboolean
not_busy (gpointer data)
{
  return !mat_window_get_busy (MAT_WINDOW (data));
}

static MatWindow *
open_bytes (GBytes     *bytes,
            const char *name,
            int         width,
            int         height)
{
  g_autoptr(GFile) file = temp_file (name, bytes);
  MatWindow *window = mat_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  g_assert_nonnull (mat_window_get_library (window));
  ui_spin_ms (100);
  return window;
}

static MatWindow *
open_demo (void)
{
  g_autoptr(GBytes) bytes = ui_demo_bytes ();

  return open_bytes (bytes, "Material.lib", 1100, 720);
}

static gpointer
child (MatWindow  *window,
       const char *name)
{
  return ui_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW, name);
}

static MatMaterial *
find (MatWindow  *window,
      const char *name)
{
  return ui_find_material (mat_window_get_library (window), name);
}

/* The names selected, in the list's order, joined by ",". */
static char *
selected_names (MatWindow *window)
{
  g_autoptr(GPtrArray) selected = mat_window_dup_selected_materials (window);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < selected->len; i++)
    {
      if (out->len > 0)
        g_string_append_c (out, ',');
      g_string_append (out, mat_material_get_name (g_ptr_array_index (selected, i)));
    }
  return g_string_free (out, FALSE);
}

#define assert_selected(window, expected) \
  G_STMT_START { \
    g_autofree char *got_ = selected_names (window); \
    g_assert_cmpstr (got_, ==, (expected)); \
  } G_STMT_END

static void
select_names (MatWindow          *window,
              const char * const *names)
{
  g_autoptr(GPtrArray) materials = g_ptr_array_new ();

  for (guint i = 0; names[i] != NULL; i++)
    g_ptr_array_add (materials, find (window, names[i]));
  mat_window_select_materials (window, (MatMaterial **) materials->pdata, materials->len);
  ui_spin_ms (50);
}

static GtkWidget *
row_of (MatWindow   *window,
        MatMaterial *material)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  ui_collect_by_type (GTK_WIDGET (child (window, "list_view")), MAT_TYPE_MATERIAL_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    if (mat_material_row_get_material (g_ptr_array_index (rows, i)) == material &&
        gtk_widget_get_mapped (g_ptr_array_index (rows, i)))
      return g_ptr_array_index (rows, i);
  return NULL;
}

/* A real click in the middle of @widget, with the key @modifier (an X
 * keysym, 0 for none) held down meanwhile. */
static void
click_with (GtkWidget *widget,
            guint      modifier)
{
  Display *display = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  KeyCode code = modifier != 0 ? XKeysymToKeycode (display, modifier) : 0;

  g_assert_true (ui_wait_for (ui_widget_is_shown, widget, WAIT_SECONDS));
  ui_spin_ms (30);
  ui_pointer_move (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0);
  if (code != 0)
    {
      XTestFakeKeyEvent (display, code, True, CurrentTime);
      XFlush (display);
      ui_spin_ms (30);
    }
  ui_pointer_button (widget, 1, TRUE);
  ui_pointer_button (widget, 1, FALSE);
  if (code != 0)
    {
      XTestFakeKeyEvent (display, code, False, CurrentTime);
      XFlush (display);
    }
  ui_spin_ms (80);
}

typedef struct {
  MatWindow   *window;
  MatMaterial *material;
} RowWait;

static gboolean
row_shown (gpointer data)
{
  RowWait *wait = data;
  GtkWidget *row = row_of (wait->window, wait->material);

  return row != NULL && gtk_widget_get_width (row) > 0;
}

static void
click_row (MatWindow  *window,
           const char *name,
           guint       modifier)
{
  RowWait wait = { window, find (window, name) };

  g_test_message ("click %s", name);
  g_assert_true (ui_wait_for (row_shown, &wait, WAIT_SECONDS));
  click_with (row_of (window, wait.material), modifier);
}

static GBytes *
saved (MatWindow *window)
{
  return ui_library_save (mat_window_get_library (window));
}

static void
assert_bytes_equal (GBytes *a,
                    GBytes *b)
{
  g_assert_cmpmem (g_bytes_get_data (a, NULL), g_bytes_get_size (a),
                   g_bytes_get_data (b, NULL), g_bytes_get_size (b));
}

static MatHistory *
history_of (MatWindow *window)
{
  return mat_library_get_history (mat_window_get_library (window));
}

static guint
param (MatWindow  *window,
       const char *name,
       guint       phase,
       guint       byte)
{
  return mat_phase_get_param (ui_phase_at (find (window, name), phase), byte);
}

/* Lets the pages read the differences (after the frame). */
static void
settle (void)
{
  ui_spin_ms (150);
}

static gboolean
dialog_shown (gpointer data)
{
  return _mat_dialogs_get_n_shown () > 0;
}

static const MatDialogRequest *
wait_dialog (MatDialogKind kind)
{
  const MatDialogRequest *request;

  g_assert_true (ui_wait_for (dialog_shown, NULL, WAIT_SECONDS));
  request = _mat_dialogs_get_shown ();
  g_assert_nonnull (request);
  g_assert_cmpint (request->kind, ==, kind);
  return request;
}

static void
answer_dialog (int choice)
{
  guint before = _mat_dialogs_get_n_shown ();

#if !GTK_CHECK_VERSION (4, 10, 0)
  {
    const MatDialogRequest *request = _mat_dialogs_get_shown ();

    if (request->window != NULL && request->kind == MAT_DIALOG_CHOICE)
      gtk_dialog_response (GTK_DIALOG (request->window), choice);
    else
      _mat_dialogs_answer (choice);
  }
#else
  _mat_dialogs_answer (choice);
#endif
  g_assert_cmpuint (_mat_dialogs_get_n_shown (), ==, before - 1);
  ui_pump ();
}

/* ---- selecting ---------------------------------------------------------- */

static void
test_clicks (void)
{
  MatWindow *window = open_demo ();
  GtkRevealer *bar = child (window, "batch_revealer");
  GtkLabel *label = child (window, "batch_label");
  guint total = g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_library (window)));
  g_autofree char *all = NULL;

  click_row (window, "ROCK_WALL", 0);
  assert_selected (window, "ROCK_WALL");
  g_assert_false (gtk_revealer_get_reveal_child (bar));

  /* Ctrl: one more; the first selected, in the list's order, is shown */
  click_row (window, "GLOW_PULSE", XK_Control_L);
  assert_selected (window, "ROCK_WALL,GLOW_PULSE");
  g_assert_true (mat_window_get_selected_material (window) == find (window, "ROCK_WALL"));
  g_assert_true (gtk_revealer_get_reveal_child (bar));
  g_assert_cmpstr (gtk_label_get_label (label), ==,
                   "2 materials selected: an edit goes to all; marked fields differ");
  g_assert_true (mat_phase_table_get_material (child (window, "phase_table")) == find (window, "ROCK_WALL"));

  click_row (window, "DEFAULT", XK_Control_L);
  assert_selected (window, "DEFAULT,ROCK_WALL,GLOW_PULSE");
  g_assert_true (mat_window_get_selected_material (window) == find (window, "DEFAULT"));

  /* Ctrl again: out of the selection */
  click_row (window, "GLOW_PULSE", XK_Control_L);
  assert_selected (window, "DEFAULT,ROCK_WALL");

  /* Shift: the rows from the last one clicked */
  click_row (window, "DEFAULT", 0);
  click_row (window, "GLOW_PULSE", XK_Shift_L);
  assert_selected (window, "DEFAULT,ROCK_WALL,METAL_PLATE,GLOW_PULSE");

  /* Ctrl+A in the list: every row */
  ui_key (row_of (window, find (window, "DEFAULT")), XK_a, GDK_CONTROL_MASK);
  ui_spin_ms (100);
  {
    g_autoptr(GPtrArray) selected = mat_window_dup_selected_materials (window);

    g_assert_cmpuint (selected->len, ==, total);
  }
  all = g_strdup_printf ("%u materials selected: an edit goes to all; marked fields differ",
                         total);
  g_assert_cmpstr (gtk_label_get_label (label), ==, all);

  /* Escape: back to the one shown */
  ui_key (row_of (window, find (window, "DEFAULT")), XK_Escape, 0);
  ui_spin_ms (100);
  assert_selected (window, "DEFAULT");
  g_assert_false (gtk_revealer_get_reveal_child (bar));

  /* and a plain click goes to one */
  ui_key (row_of (window, find (window, "DEFAULT")), XK_a, GDK_CONTROL_MASK);
  ui_spin_ms (100);
  click_row (window, "FADE_OUT", 0);
  assert_selected (window, "FADE_OUT");

  ui_close_window (GTK_WINDOW (window));
}

/* A search narrows the selection to what it still shows; the rows it
 * keeps stay selected. */
static void
test_search_keeps (void)
{
  MatWindow *window = open_demo ();
  static const char * const names[] = { "DEFAULT", "ROCK_WALL", "GLOW_PULSE", "FADE_OUT", NULL };
  GtkEditable *entry = child (window, "search_entry");

  select_names (window, names);
  assert_selected (window, "DEFAULT,ROCK_WALL,GLOW_PULSE,FADE_OUT");
  gtk_editable_set_text (entry, "o");
  g_signal_emit_by_name (entry, "search-changed");
  ui_spin_ms (100);
  assert_selected (window, "ROCK_WALL,GLOW_PULSE,FADE_OUT");
  g_assert_true (mat_window_get_selected_material (window) == find (window, "ROCK_WALL"));
  /* one of them left: the bar goes */
  gtk_editable_set_text (entry, "_wa");
  g_signal_emit_by_name (entry, "search-changed");
  ui_spin_ms (100);
  assert_selected (window, "ROCK_WALL");
  g_assert_false (gtk_revealer_get_reveal_child (child (window, "batch_revealer")));
  /* none of them: the first row shown is selected, as it always was */
  gtk_editable_set_text (entry, "metal");
  g_signal_emit_by_name (entry, "search-changed");
  ui_spin_ms (100);
  assert_selected (window, "METAL_PLATE");

  ui_close_window (GTK_WINDOW (window));
}

/* ---- editing many ------------------------------------------------------- */

static const char * const four[] = { "DEFAULT", "ROCK_WALL", "METAL_PLATE", "GLASS", NULL };

static void
test_edit_phase (void)
{
  MatWindow *window = open_demo ();
  MatPhaseTable *table = child (window, "phase_table");
  g_autoptr(GBytes) original = saved (window);
  MatHistory *history = history_of (window);
  g_autoptr(GError) error = NULL;
  GtkSpinButton *spin;
  GdkRGBA red = { 1.0, 0.0, 0.0, 1.0 };

  select_names (window, four);
  mat_phase_table_set_show_raw_bytes (table, TRUE);
  mat_phase_table_set_selected (table, 0);
  settle ();

  /* each raw byte is marked exactly where the four differ */
  for (guint j = 0; j < 18; j++)
    {
      gboolean differs = FALSE;

      for (guint m = 1; four[m] != NULL; m++)
        differs |= param (window, four[m], 0, j) != param (window, "DEFAULT", 0, j);
      spin = mat_phase_table_get_spin_for_test (table, 0, j);
      g_assert_nonnull (spin);
      g_test_message ("p%u differs: %d", j, differs);
      g_assert_cmpint (gtk_widget_has_css_class (GTK_WIDGET (spin), "differs"), ==, differs);
    }
  {
    gboolean texture_differs = FALSE;
    GtkEntry *texture = mat_phase_table_get_texture_for_test (table, 0);

    for (guint m = 1; four[m] != NULL; m++)
      texture_differs |= g_strcmp0 (mat_phase_get_texture (ui_phase_at (find (window, four[m]), 0)),
                                    mat_phase_get_texture (ui_phase_at (find (window, "DEFAULT"), 0))) != 0;
    g_assert_true (texture_differs);
    g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (texture), "differs"));
  }

  /* the opacity typed for the one shown: all four, one step */
  spin = mat_phase_table_get_spin_for_test (table, 0, 3);
  gtk_spin_button_set_value (spin, 42);
  g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (spin)), "activate");
  ui_pump ();
  for (guint m = 0; four[m] != NULL; m++)
    g_assert_cmpuint (param (window, four[m], 0, 3), ==, 42);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  settle ();
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (spin), "differs"));
  g_assert_true (mat_history_undo (history));
  {
    g_autoptr(GBytes) back = saved (window);

    assert_bytes_equal (back, original);
  }
  settle ();

  /* Enter on a byte they do not share, the value unchanged: theirs too */
  {
    guint j;
    GtkText *text;

    for (j = 0; j < 18; j++)
      if (gtk_widget_has_css_class (GTK_WIDGET (mat_phase_table_get_spin_for_test (table, 0, j)), "differs"))
        break;
    g_assert_cmpuint (j, <, 18);
    spin = mat_phase_table_get_spin_for_test (table, 0, j);
    text = GTK_TEXT (gtk_editable_get_delegate (GTK_EDITABLE (spin)));
    g_signal_emit_by_name (text, "activate");
    ui_pump ();
    for (guint m = 1; four[m] != NULL; m++)
      g_assert_cmpuint (param (window, four[m], 0, j), ==, param (window, "DEFAULT", 0, j));
    g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
    g_assert_true (mat_history_undo (history));
  }

  /* a colour from the picker: the whole group of all four */
  g_assert_true (mat_phase_table_apply_colour (table, 0, MAT_PHASE_COLOUR_SPECULAR, &red, &error));
  g_assert_no_error (error);
  for (guint m = 0; four[m] != NULL; m++)
    {
      g_assert_cmpuint (param (window, four[m], 0, 8), ==, 255);
      g_assert_cmpuint (param (window, four[m], 0, 9), ==, 0);
      g_assert_cmpuint (param (window, four[m], 0, 10), ==, 0);
    }
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);

  /* a texture typed: all four */
  {
    GtkEntry *texture = mat_phase_table_get_texture_for_test (table, 0);

    gtk_editable_set_text (GTK_EDITABLE (texture), "METAL.0");
    g_signal_emit_by_name (texture, "activate");
    ui_pump ();
    for (guint m = 0; four[m] != NULL; m++)
      g_assert_cmpstr (mat_phase_get_texture (ui_phase_at (find (window, four[m]), 0)), ==, "METAL.0");
    g_assert_cmpuint (mat_history_get_n_undo (history), ==, 2);
    settle ();
    g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (texture), "differs"));
  }
  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_history_undo (history));
  {
    g_autoptr(GBytes) back = saved (window);

    assert_bytes_equal (back, original);
  }
  g_assert_true (mat_history_redo (history));
  g_assert_cmpuint (param (window, "GLASS", 0, 8), ==, 255);

  ui_close_window (GTK_WINDOW (window));
}

static void
test_edit_flags (void)
{
  MatWindow *window = open_demo ();
  g_autoptr(GBytes) original = saved (window);
  MatHistory *history = history_of (window);
  MatFlagsInspector *flags;
  GtkCheckButton *behaviour;
  GtkDropDown *blend;
  guint32 before[4];

  select_names (window, four);
  gtk_stack_set_visible_child_name (child (window, "material_stack"), "flags");
  ui_spin_ms (100);
  flags = MAT_FLAGS_INSPECTOR (ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_FLAGS_INSPECTOR));
  g_assert_nonnull (flags);
  settle ();
  for (guint m = 0; four[m] != NULL; m++)
    before[m] = mat_material_get_attr1 (find (window, four[m]));
  /* DEFAULT 0x01, ROCK_WALL 0x01, METAL_PLATE 0x01, GLASS 0x02: bits 0
   * and 1 differ, the others not */
  g_assert_true (gtk_widget_has_css_class (mat_flags_inspector_get_test_widget (flags, "hw-row"), "differs"));
  g_assert_true (gtk_widget_has_css_class (mat_flags_inspector_get_test_widget (flags, "ext-row"), "differs"));
  g_assert_false (gtk_widget_has_css_class (mat_flags_inspector_get_test_widget (flags, "behaviour-row"),
                                            "differs"));
  g_assert_false (gtk_widget_has_css_class (mat_flags_inspector_get_test_widget (flags, "blend"),
                                            "differs"));

  /* bit 6 for all four, nothing else */
  behaviour = GTK_CHECK_BUTTON (mat_flags_inspector_get_test_widget (flags, "behaviour"));
  gtk_check_button_set_active (behaviour, TRUE);
  ui_pump ();
  for (guint m = 0; four[m] != NULL; m++)
    g_assert_cmphex (mat_material_get_attr1 (find (window, four[m])), ==, before[m] | MAT0_FLAG_BEHAVIOUR);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);

  /* a blend index for all four: bits 2..5 only */
  blend = GTK_DROP_DOWN (mat_flags_inspector_get_test_widget (flags, "blend"));
  gtk_drop_down_set_selected (blend, 2);
  ui_pump ();
  for (guint m = 0; four[m] != NULL; m++)
    g_assert_cmphex (mat_material_get_attr1 (find (window, four[m])), ==,
                     mat0_flags_set_nibble_mode (before[m] | MAT0_FLAG_BEHAVIOUR, 2));
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 2);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Change Flags");

  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_history_undo (history));
  {
    g_autoptr(GBytes) back = saved (window);

    assert_bytes_equal (back, original);
  }

  ui_close_window (GTK_WINDOW (window));
}

/* "Apply to All": a part of the one shown, whole, for the others. */
static void
test_apply_menu (void)
{
  MatWindow *window = open_demo ();
  static const char * const names[] = { "GLOW_PULSE", "WATER_SURFACE", "FADE_OUT", NULL };
  g_autoptr(GBytes) original = saved (window);
  MatHistory *history = history_of (window);
  MatPhaseTable *table = child (window, "phase_table");

  select_names (window, names);
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (child (window, "batch_apply_button"))));
  mat_phase_table_set_selected (table, 1);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.apply-phase", NULL);
  for (guint m = 1; names[m] != NULL; m++)
    {
      g_assert_cmpmem (mat_phase_get_params (ui_phase_at (find (window, names[m]), 1)), 18,
                       mat_phase_get_params (ui_phase_at (find (window, "GLOW_PULSE"), 1)), 18);
      g_assert_cmpmem (mat_phase_get_texture_raw (ui_phase_at (find (window, names[m]), 1)), 16,
                       mat_phase_get_texture_raw (ui_phase_at (find (window, "GLOW_PULSE"), 1)), 16);
    }
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Copy a Phase to the Selected Materials");
  g_assert_true (mat_history_undo (history));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.apply-group", "i", 1);
  for (guint m = 1; names[m] != NULL; m++)
    for (guint j = 0; j < 4; j++)
      g_assert_cmpuint (param (window, names[m], 1, j), ==, param (window, "GLOW_PULSE", 1, j));
  g_assert_true (mat_history_undo (history));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.apply-flags", NULL);
  for (guint m = 1; names[m] != NULL; m++)
    g_assert_cmphex (mat_material_get_attr1 (find (window, names[m])), ==,
                     mat_material_get_attr1 (find (window, "GLOW_PULSE")));
  g_assert_true (mat_history_undo (history));
  {
    g_autoptr(GBytes) back = saved (window);

    assert_bytes_equal (back, original);
  }

  /* with one material, nothing to apply */
  mat_window_select_material (window, find (window, "GLOW_PULSE"));
  ui_pump ();
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (window), "win.apply-phase", NULL) &&
                  mat_history_get_n_undo (history) > 0);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 0);

  ui_close_window (GTK_WINDOW (window));
}

/* ---- deleting, copying, exporting many ---------------------------------- */

static void
test_delete (void)
{
  MatWindow *window = open_demo ();
  static const char * const names[] = { "ROCK_WALL", "GLOW_PULSE", "FOLIAGE", NULL };
  g_autoptr(GBytes) original = saved (window);
  MatLibrary *library = mat_window_get_library (window);
  guint total = g_list_model_get_n_items (G_LIST_MODEL (library));
  const MatDialogRequest *request;

  select_names (window, names);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.delete", NULL);
  request = wait_dialog (MAT_DIALOG_CHOICE);
  g_assert_cmpstr (request->heading, ==, "Delete 3 Materials?");
  g_assert_cmpstr (request->body, ==,
                   "They leave the library with their phases and animation blocks. Undo brings them back.");
  answer_dialog (1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, total - 3);
  for (guint m = 0; names[m] != NULL; m++)
    g_assert_null (mat_library_find (library, names[m]));
  g_assert_cmpstr (gtk_label_get_label (child (window, "deleted_label")), ==, "Deleted 3 materials");
  g_assert_true (gtk_revealer_get_reveal_child (child (window, "deleted_revealer")));
  g_assert_cmpuint (mat_history_get_n_undo (history_of (window)), ==, 1);
  /* one of the rows is selected again */
  g_assert_nonnull (mat_window_get_selected_material (window));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo-delete", NULL);
  {
    g_autoptr(GBytes) back = saved (window);

    assert_bytes_equal (back, original);
  }

  ui_close_window (GTK_WINDOW (window));
}

typedef struct {
  gboolean done;
  char    *text;
} TextRead;

static void
text_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  TextRead *read = user_data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, NULL);
  read->done = TRUE;
}

static gboolean
text_read_done (gpointer data)
{
  return ((TextRead *) data)->done;
}

static char *
clipboard_text (GtkWidget *widget)
{
  TextRead read = { FALSE, NULL };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, text_read_cb, &read);
  g_assert_true (ui_wait_for (text_read_done, &read, WAIT_SECONDS));
  return read.text;
}

static gboolean
pasted (gpointer data)
{
  return !mat_window_get_pasting (MAT_WINDOW (data));
}

/* A library holding none of the demo's names. */
static GBytes *
other_library (void)
{
  g_autoptr(GBytes) worked = test_worked_example_payload (1);
  TestEntrySpec specs[] = {
    { 0x3054414D, 0x01, 6, 0, "ALPHA", NULL, 0, 0 },
  };

  specs[0].payload = g_bytes_get_data (worked, &specs[0].size);
  return test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
}

static void
test_copy_paste_export (void)
{
  MatWindow *window = open_demo ();
  static const char * const names[] = { "ROCK_WALL", "FADE_IN", "БРОНЯ_ЗЕЛЁНАЯ", NULL };
  g_autoptr(GBytes) other = other_library ();
  MatWindow *target;
  g_autoptr(GPtrArray) materials = g_ptr_array_new ();
  g_autofree char *expected = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  select_names (window, names);
  /* in the list's order */
  g_clear_pointer (&materials, g_ptr_array_unref);
  materials = mat_window_dup_selected_materials (window);
  g_assert_cmpuint (materials->len, ==, 3);
  expected = mat_materials_to_json_document ((MatMaterial * const *) materials->pdata, materials->len, &error);
  g_assert_no_error (error);

  /* copy: the one document of all three */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-material", NULL);
  text = clipboard_text (GTK_WIDGET (window));
  g_assert_cmpstr (text, ==, expected);

  /* paste into another library: all three, one step, selected there */
  target = open_bytes (other, "Other.lib", 1100, 720);
  mat_window_paste_text (target, text);
  g_assert_true (ui_wait_for (pasted, target, WAIT_SECONDS));
  ui_spin_ms (100);
  assert_selected (target, "ROCK_WALL,БРОНЯ_ЗЕЛЁНАЯ,FADE_IN");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (mat_window_get_library (target))), ==, 4);
  g_assert_cmpuint (mat_history_get_n_undo (history_of (target)), ==, 1);
  for (guint m = 0; names[m] != NULL; m++)
    {
      g_autoptr(GBytes) a = mat_material_dup_payload (find (window, names[m]));
      g_autoptr(GBytes) b = mat_material_dup_payload (find (target, names[m]));

      assert_bytes_equal (a, b);
    }
  ui_close_window (GTK_WINDOW (target));

  /* export: the same document in a file mat0tool builds a library of */
  {
    g_autofree char *path = g_build_filename (tmp_dir, "three.json", NULL);
    g_autofree char *lib = g_build_filename (tmp_dir, "three.lib", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autofree char *written = NULL;
    g_autofree char *dumped = NULL;
    const char *mat0tool = ui_need_env ("MAT0TOOL");
    const char *build[] = { mat0tool, "build", path, "-o", lib, NULL };
    const char *dump[] = { mat0tool, "dump", lib, "--json", NULL };
    int status;

    /* what win.export-material writes once the file is chosen */
    g_assert_true (mat_window_export_material_to (window, file, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
    g_assert_cmpstr (written, ==, expected);

    g_assert_true (g_spawn_sync (NULL, (char **) build, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 NULL, NULL, &status, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    g_assert_true (g_spawn_sync (NULL, (char **) dump, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 &dumped, NULL, &status, &error));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    g_assert_cmpstr (dumped, ==, expected);
  }

  ui_close_window (GTK_WINDOW (window));
}

/* ---- what the user sees ------------------------------------------------- */

static void
screenshots_at (int width,
                int height)
{
  g_autoptr(GBytes) bytes = ui_demo_bytes ();
  MatWindow *window = open_bytes (bytes, "Material.lib", width, height);
  static const char * const names[] = { "GLOW_PULSE", "WATER_SURFACE", "FADE_OUT", "SMOKE_PUFF", NULL };
  const char *language = g_getenv ("LANGUAGE") != NULL && g_str_has_prefix (g_getenv ("LANGUAGE"), "ru")
                         ? "ru" : "en";
  g_autofree char *phases = g_strdup_printf ("multi-select-phases-%s-%dx%d.png", language, width, height);
  g_autofree char *flags = g_strdup_printf ("multi-select-flags-%s-%dx%d.png", language, width, height);
  g_autofree char *animation = g_strdup_printf ("multi-select-animation-%s-%dx%d.png", language, width, height);
  GtkWidget *bar = GTK_WIDGET (child (window, "batch_revealer"));
  GtkWidget *label = GTK_WIDGET (child (window, "batch_label"));

  select_names (window, names);
  settle ();
  g_test_message ("window %d x %d", gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_height (GTK_WIDGET (window)));
  mat_phase_table_set_show_raw_bytes (child (window, "phase_table"), TRUE);
  settle ();
  g_test_message ("window with raw bytes %d x %d", gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_height (GTK_WIDGET (window)));
  ui_screenshot (GTK_WIDGET (window), phases);
  /* the bar and its buttons inside the window, the text whole */
  g_assert_cmpint (gtk_widget_get_width (bar), <=, width);
  {
    PangoLayout *layout = gtk_label_get_layout (GTK_LABEL (label));

    g_assert_false (pango_layout_is_ellipsized (layout));
  }
  /* the pages keep the window's height: one line of bar */
  g_assert_cmpint (gtk_widget_get_height (bar), <=, 44);
  gtk_stack_set_visible_child_name (child (window, "material_stack"), "flags");
  settle ();
  ui_screenshot (GTK_WIDGET (window), flags);
  gtk_stack_set_visible_child_name (child (window, "material_stack"), "animation");
  settle ();
  ui_screenshot (GTK_WIDGET (window), animation);

  ui_close_window (GTK_WINDOW (window));
}

static void
test_screenshots (void)
{
  screenshots_at (1100, 720);
  screenshots_at (1280, 800);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path_child = g_build_filename (path, name, NULL);

      if (g_file_test (path_child, G_FILE_TEST_IS_DIR) && !g_file_test (path_child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (path_child);
      else
        g_unlink (path_child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  tmp_dir = g_dir_make_tmp ("test-multi-select-XXXXXX", &error);
  g_assert_no_error (error);
  {
    const char *dirs[] = { "XDG_DATA_HOME", ".local/share", "XDG_CONFIG_HOME", ".config",
                           "XDG_CACHE_HOME", ".cache" };

    g_setenv ("HOME", tmp_dir, TRUE);
    for (guint i = 0; i < G_N_ELEMENTS (dirs); i += 2)
      {
        g_autofree char *path = g_build_filename (tmp_dir, dirs[i + 1], NULL);

        g_mkdir_with_parents (path, 0700);
        g_setenv (dirs[i], path, TRUE);
      }
  }

  /* LANGUAGE=ru (the test "multi-select-ru"): the screenshots in Russian */
  setlocale (LC_ALL, "");
  mat_application_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);

  app = mat_application_new ("io.github.parkan.MatEdit.TestMultiSelect", G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/multi-select/clicks", test_clicks);
  g_test_add_func ("/ui/multi-select/search-keeps", test_search_keeps);
  g_test_add_func ("/ui/multi-select/edit-phase", test_edit_phase);
  g_test_add_func ("/ui/multi-select/edit-flags", test_edit_flags);
  g_test_add_func ("/ui/multi-select/apply-menu", test_apply_menu);
  g_test_add_func ("/ui/multi-select/delete", test_delete);
  g_test_add_func ("/ui/multi-select/copy-paste-export", test_copy_paste_export);
  g_test_add_func ("/ui/multi-select/screenshots", test_screenshots);

  status = g_test_run ();

  g_clear_object (&app);
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
