/* test-pane.c - the preview pane beside every page, and the list's swatches
 *
 * The real window, driven through its stack switcher, its accelerator (F9
 * sent through the X server) and the real pointer (XTest): the one
 * preview stays visible on the Phases, Animation and Flags pages, hides
 * and shows again (and the setting remembers it), shows the selected
 * phase while the phase table has the focus and the playing track
 * otherwise, turns when dragged, zooms when scrolled and resets on a
 * double click. The list's swatches against render.md's formula computed
 * here from the phase bytes, their cache emptied by an edit. The pages
 * with the pane at 1100x720 and 1280x800 fit their window (run once in
 * English and once with LANGUAGE=ru), with screenshots.
 *
 * Environment: DEMO_LIB (the demo Material.lib, with its Textures.lib
 * beside it), DEMO_TEXTURES, SCREENSHOT_DIR (optional).
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <gdk/x11/gdkx.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

#include "mat-application.h"
#include "mat0-fields.h"
#include "mat-block-editor.h"
#include "mat-flags-inspector.h"
#include "mat-meta-editor.h"
#include "mat-material-row.h"
#include "mat-phase-table.h"
#include "mat-preview-private.h"
#include "mat-phase-table-private.h"
#include "mat-window.h"
#include "phase-light.h"
#include "test-support.h"
#include "ui-screen.h"
#include "ui-support.h"

#define WAIT_SECONDS 20
#define TYPE_MAT0    0x3054414Du

static MatApplication *app;

/* ---- helpers ----------------------------------------------------------- */

static gboolean
not_busy (gpointer data)
{
  return !mat_window_get_busy (MAT_WINDOW (data));
}

/* A home of the test's own, with a copy of the demo library and its
 * Textures.lib in ~/Parkan: the window's subtitle (in the screenshots)
 * reads "~/Parkan", not where the build folder happens to be. */
static char *home_dir;
static char *demo_path;

static void
copy_into (const char *variable,
           const char *folder,
           const char *name)
{
  g_autoptr(GBytes) bytes = test_load_file (ui_need_env (variable));
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
}

static void
make_home (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = NULL;

  home_dir = g_dir_make_tmp ("test-pane-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", home_dir, TRUE);
  folder = g_build_filename (home_dir, "Parkan", NULL);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  copy_into ("DEMO_LIB", folder, "Material.lib");
  copy_into ("DEMO_TEXTURES", folder, "Textures.lib");
  demo_path = g_build_filename (folder, "Material.lib", NULL);
}

static void
remove_home (void)
{
  /* what the test put there, and GTK's list of recent files */
  static const char *const names[] = {
    "Parkan/Material.lib", "Parkan/Textures.lib", "Parkan",
    ".local/share/recently-used.xbel", ".local/share", ".local",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (home_dir, names[i], NULL);

      g_remove (path);
    }
  g_rmdir (home_dir);
  g_clear_pointer (&home_dir, g_free);
  g_clear_pointer (&demo_path, g_free);
}

/* The demo library (Textures.lib beside it) in a new window of @width x
 * @height. */
static MatWindow *
open_demo (int width,
           int height)
{
  g_autoptr(GFile) file = g_file_new_for_path (demo_path);
  MatWindow *window = mat_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  mat_window_open (window, file, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ui_wait_for (not_busy, window, WAIT_SECONDS));
  g_assert_true (ui_wait_for (ui_widget_is_shown, window, WAIT_SECONDS));
  g_assert_nonnull (mat_window_get_library (window));
  return window;
}

static void
close_window (MatWindow *window)
{
  ui_close_window (GTK_WINDOW (window));
}

static gpointer
template_child (MatWindow  *window,
                const char *name)
{
  return ui_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW, name);
}

static MatMaterial *
select_by_name (MatWindow  *window,
                const char *name)
{
  MatMaterial *material = mat_library_find (mat_window_get_library (window), name);

  g_assert_nonnull (material);
  mat_window_select_material (window, material);
  g_assert_true (mat_window_get_selected_material (window) == material);
  ui_pump ();
  return material;
}

/* A real click (press and release of button 1) at the middle of @widget. */
static void
click (GtkWidget *widget)
{
  g_assert_true (gtk_widget_get_mapped (widget));
  ui_pointer_move (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0);
  ui_pointer_button (widget, 1, TRUE);
  ui_pointer_button (widget, 1, FALSE);
  ui_pump ();
}

/* A real key press through the X server, with the pointer over @widget's
 * window (no window manager: the keyboard follows the pointer). */
static void
send_key (GtkWidget *widget,
          guint      keysym)
{
  Display *xdisplay = gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget));
  KeyCode code = XKeysymToKeycode (xdisplay, keysym);

  g_assert_cmpuint (code, !=, 0);
  ui_pointer_move (widget, gtk_widget_get_width (widget) / 2.0, 10);
  XTestFakeKeyEvent (xdisplay, code, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, False, CurrentTime);
  XFlush (xdisplay);
  ui_spin_ms (100);
}

/* The button of the stack switcher for page @index (0 phases, 1
 * animation, 2 flags), as the user sees it. */
static GtkWidget *
switcher_button (MatWindow *window,
                 guint      index)
{
  GtkWidget *switcher = ui_find_by_type (GTK_WIDGET (window), GTK_TYPE_STACK_SWITCHER);
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  g_assert_nonnull (switcher);
  ui_collect_by_type (switcher, GTK_TYPE_TOGGLE_BUTTON, buttons);
  g_assert_cmpuint (buttons->len, ==, 3);
  return g_ptr_array_index (buttons, index);
}

static const char *const page_names[] = { "phases", "animation", "flags" };

static gboolean
transition_done (gpointer data)
{
  return !gtk_stack_get_transition_running (GTK_STACK (data));
}

/* Shows page @index by clicking its tab, and waits for the crossfade. */
static void
show_page (MatWindow *window,
           guint      index)
{
  GtkStack *stack = template_child (window, "material_stack");

  click (switcher_button (window, index));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, page_names[index]);
  g_assert_true (ui_wait_for (transition_done, stack, WAIT_SECONDS));
  ui_spin_ms (50);
}

/* @widget's bounds in @window's coordinates. */
static graphene_rect_t
bounds_in (GtkWidget *widget,
           MatWindow *window)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (window), &bounds));
  return bounds;
}

/* @inner lies inside @outer, to the pixel. */
static void
assert_inside (const graphene_rect_t *inner,
               const graphene_rect_t *outer,
               const char            *what)
{
  g_test_message ("%s: %.0f,%.0f %.0fx%.0f in %.0f,%.0f %.0fx%.0f", what,
                  inner->origin.x, inner->origin.y, inner->size.width, inner->size.height,
                  outer->origin.x, outer->origin.y, outer->size.width, outer->size.height);
  g_assert_cmpfloat (inner->origin.x, >=, outer->origin.x - 0.5f);
  g_assert_cmpfloat (inner->origin.y, >=, outer->origin.y - 0.5f);
  g_assert_cmpfloat (inner->origin.x + inner->size.width, <=,
                     outer->origin.x + outer->size.width + 0.5f);
  g_assert_cmpfloat (inner->origin.y + inner->size.height, <=,
                     outer->origin.y + outer->size.height + 0.5f);
}

/* @widget is given at least the width it asks for: nothing in it is cut. */
static void
assert_not_squeezed (GtkWidget  *widget,
                     const char *what)
{
  int min_width = 0, min_height = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (widget),
                      &min_height, NULL, NULL, NULL);
  g_test_message ("%s: %dx%d, needs %dx%d", what, gtk_widget_get_width (widget),
                  gtk_widget_get_height (widget), min_width, min_height);
  g_assert_cmpint (gtk_widget_get_width (widget), >=, min_width);
  g_assert_cmpint (gtk_widget_get_height (widget), >=, min_height);
}

/* No scrolled window in @root needs to scroll sideways: everything is in
 * view across. */
static void
assert_no_sideways_scroll (GtkWidget  *root,
                           const char *what)
{
  g_autoptr(GPtrArray) scrollers = g_ptr_array_new ();

  ui_collect_by_type (root, GTK_TYPE_SCROLLED_WINDOW, scrollers);
  if (GTK_IS_SCROLLED_WINDOW (root))
    g_ptr_array_insert (scrollers, 0, root);
  for (guint i = 0; i < scrollers->len; i++)
    {
      GtkAdjustment *h = gtk_scrolled_window_get_hadjustment (g_ptr_array_index (scrollers, i));

      if (!gtk_widget_get_mapped (g_ptr_array_index (scrollers, i)))
        continue;
      g_test_message ("%s: scroller %u: %.0f of %.0f across", what, i,
                      gtk_adjustment_get_page_size (h), gtk_adjustment_get_upper (h));
      g_assert_cmpfloat (gtk_adjustment_get_upper (h) - gtk_adjustment_get_lower (h), <=,
                         gtk_adjustment_get_page_size (h) + 0.5);
    }
}

/* No label shown in @root is cut short with an ellipsis: what a label
 * says is read in full. */
static void
assert_no_label_cut (GtkWidget  *root,
                     const char *what)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  ui_collect_by_type (root, GTK_TYPE_LABEL, labels);
  if (GTK_IS_LABEL (root))
    g_ptr_array_add (labels, root);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkLabel *label = g_ptr_array_index (labels, i);

      if (!gtk_widget_get_mapped (GTK_WIDGET (label)))
        continue;
      if (pango_layout_is_ellipsized (gtk_label_get_layout (label)))
        g_error ("%s: the label “%s” is cut short", what, gtk_label_get_text (label));
    }
}

static MatPreview *
window_preview (MatWindow *window)
{
  return template_child (window, "preview");
}

static GtkWidget *
preview_part (MatPreview *preview,
              const char *name)
{
  GtkWidget *widget = mat_preview_get_test_widget (preview, name);

  g_assert_nonnull (widget);
  return widget;
}

/* ---- one preview beside every page ------------------------------------- */

/* The preview sits beside the pages when the phase table's columns fit
 * beside it, under them otherwise (1100 px); the same one preview. */
static void
check_pane_on_every_page (int      width,
                          int      height,
                          gboolean beside)
{
  MatWindow *window = open_demo (width, height);
  MatPreview *preview = window_preview (window);
  GtkPaned *paned = template_child (window, "preview_paned");
  GtkWidget *pane = template_child (window, "preview_pane");
  g_autoptr(GPtrArray) previews = g_ptr_array_new ();
  graphene_rect_t window_bounds;

  /* one preview in the whole window, in the pane beside or under the
   * pages */
  ui_collect_by_type (GTK_WIDGET (window), MAT_TYPE_PREVIEW, previews);
  g_assert_cmpuint (previews->len, ==, 1);
  g_assert_true (g_ptr_array_index (previews, 0) == (gpointer) preview);
  g_assert_true (gtk_paned_get_end_child (paned) == pane);
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (preview), pane));
  g_assert_true (gtk_paned_get_start_child (paned) == template_child (window, "material_stack"));

  select_by_name (window, "COLOR_CYCLE");
  /* the Animation and Flags pages are made when first shown: a window
   * opens without them */
  g_assert_null (ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_BLOCK_EDITOR));
  g_assert_null (ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_FLAGS_INSPECTOR));
  g_assert_null (ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_META_EDITOR));
  graphene_rect_init (&window_bounds, 0, 0, gtk_widget_get_width (GTK_WIDGET (window)),
                      gtk_widget_get_height (GTK_WIDGET (window)));
  for (guint i = 0; i < G_N_ELEMENTS (page_names); i++)
    {
      GtkStack *stack = template_child (window, "material_stack");
      graphene_rect_t pane_bounds, page_bounds;

      show_page (window, i);
      g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (preview)));
      g_assert_true (mat_preview_get_material (preview) == mat_window_get_selected_material (window));
      g_assert_cmpint (gtk_orientable_get_orientation (GTK_ORIENTABLE (paned)), ==,
                       beside ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL);
      /* the view above its controls in a column, beside them in a strip */
      g_assert_cmpint (gtk_orientable_get_orientation (GTK_ORIENTABLE (preview)), ==,
                       beside ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (preview)), >=, 270);
      g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (preview)), >=, beside ? 300 : 200);
      pane_bounds = bounds_in (pane, window);
      page_bounds = bounds_in (gtk_stack_get_visible_child (stack), window);
      assert_inside (&pane_bounds, &window_bounds, page_names[i]);
      /* the page to the left of the pane or above it, never under it */
      if (beside)
        g_assert_cmpfloat (page_bounds.origin.x + page_bounds.size.width, <=, pane_bounds.origin.x);
      else
        g_assert_cmpfloat (page_bounds.origin.y + page_bounds.size.height, <=, pane_bounds.origin.y);
      /* the page's own widgets, for the material shown */
      if (i == 1)
        {
          MatBlockEditor *editor = MAT_BLOCK_EDITOR (ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_BLOCK_EDITOR));

          g_assert_nonnull (editor);
          g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (editor)));
          g_assert_true (mat_block_editor_get_material (editor) == mat_window_get_selected_material (window));
        }
      else if (i == 2)
        {
          GtkWidget *inspector = ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_FLAGS_INSPECTOR);
          GtkWidget *meta = ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_META_EDITOR);

          g_assert_nonnull (inspector);
          g_assert_nonnull (meta);
          g_assert_true (gtk_widget_get_mapped (inspector));
          g_assert_true (mat_flags_inspector_get_material (MAT_FLAGS_INSPECTOR (inspector))
                         == mat_window_get_selected_material (window));
          g_assert_true (mat_meta_editor_get_material (MAT_META_EDITOR (meta))
                         == mat_window_get_selected_material (window));
        }
      /* it draws (OpenGL starts after the window's first frames) */
      {
        g_autoptr(GdkTexture) frame = mat_preview_read_frame_for_test (preview);

        g_assert_nonnull (frame);
      }
    }
  close_window (window);
}

static void
test_pane_on_every_page (void)
{
  check_pane_on_every_page (1100, 720, FALSE);
  check_pane_on_every_page (1400, 800, TRUE);
}

/* ---- hiding and showing ------------------------------------------------ */

static gboolean
pane_hidden (gpointer data)
{
  return !gtk_widget_get_mapped (GTK_WIDGET (window_preview (data)));
}

static gboolean
pane_shown (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (window_preview (data)));
}

static void
test_pane_toggle (void)
{
  GSettings *settings = mat_application_get_settings (app);
  MatWindow *window;
  GtkToggleButton *toggle;
  GtkStack *stack;
  int page_width;

  g_assert_nonnull (settings);
  g_settings_set_boolean (settings, "preview-visible", TRUE);
  window = open_demo (1400, 800);
  toggle = template_child (window, "preview_toggle");
  stack = template_child (window, "material_stack");
  select_by_name (window, "LAVA_FLOW");
  show_page (window, 1);
  g_assert_true (mat_window_get_preview_visible (window));
  g_assert_true (gtk_toggle_button_get_active (toggle));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (toggle)), ==, "Hide the Preview (F9)");
  page_width = gtk_widget_get_width (GTK_WIDGET (stack));

  /* F9, as the user presses it */
  send_key (GTK_WIDGET (window), XK_F9);
  g_assert_true (ui_wait_for (pane_hidden, window, WAIT_SECONDS));
  g_assert_false (mat_window_get_preview_visible (window));
  g_assert_false (gtk_toggle_button_get_active (toggle));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (toggle)), ==, "Show the Preview (F9)");
  g_assert_false (g_settings_get_boolean (settings, "preview-visible"));
  ui_spin_ms (100);
  /* the pages take the room */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (stack)), >, page_width + 250);
  /* on the other pages too */
  show_page (window, 0);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (window_preview (window))));

  send_key (GTK_WIDGET (window), XK_F9);
  g_assert_true (ui_wait_for (pane_shown, window, WAIT_SECONDS));
  g_assert_true (g_settings_get_boolean (settings, "preview-visible"));
  g_assert_true (gtk_toggle_button_get_active (toggle));

  /* the button in the header does the same */
  click (GTK_WIDGET (toggle));
  g_assert_true (ui_wait_for (pane_hidden, window, WAIT_SECONDS));
  g_assert_false (g_settings_get_boolean (settings, "preview-visible"));
  close_window (window);

  /* a new window remembers it */
  window = open_demo (1100, 720);
  select_by_name (window, "LAVA_FLOW");
  ui_spin_ms (100);
  g_assert_false (mat_window_get_preview_visible (window));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (window_preview (window))));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-preview", NULL);
  g_assert_true (ui_wait_for (pane_shown, window, WAIT_SECONDS));
  g_assert_true (g_settings_get_boolean (settings, "preview-visible"));
  close_window (window);

  /* F9 is the application's accelerator, listed in the shortcuts window */
  {
    g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                  "win.toggle-preview");
    g_autoptr(GBytes) overlay = g_resources_lookup_data ("/io/github/parkan/MatEdit/mat-shortcuts.ui",
                                                         G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);

    g_assert_nonnull (accels[0]);
    g_assert_cmpstr (accels[0], ==, "F9");
    g_assert_nonnull (overlay);
    g_assert_nonnull (g_strstr_len (g_bytes_get_data (overlay, NULL), g_bytes_get_size (overlay),
                                    "win.toggle-preview"));
  }
}

/* ---- what the pane shows ----------------------------------------------- */

static void
test_pane_source (void)
{
  MatWindow *window = open_demo (1280, 800);
  MatPreview *preview = window_preview (window);
  MatPhaseTable *table = template_child (window, "phase_table");
  MatBlockEditor *editor;
  MatMaterial *material;
  PhaseEvalResult shown;
  GtkEntry *entry;

  /* COLOR_CYCLE: four phases, one block of four keys (3200 ms) */
  material = select_by_name (window, "COLOR_CYCLE");
  show_page (window, 1);
  editor = MAT_BLOCK_EDITOR (ui_find_by_type (GTK_WIDGET (window), MAT_TYPE_BLOCK_EDITOR));
  g_assert_nonnull (editor);
  show_page (window, 0);
  g_assert_cmpint (mat_block_editor_get_selected_block (editor), ==, 0);
  g_assert_cmpint (mat_preview_get_block (preview), ==, 0);

  /* the phase table takes the focus with a click into row 2 (its
   * texture field): that phase, unanimated */
  mat_phase_table_set_selected (table, 2);
  ui_pump ();
  entry = mat_phase_table_get_texture_for_test (table, 2);
  g_assert_nonnull (entry);
  click (GTK_WIDGET (entry));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), GTK_WIDGET (table)));
  g_assert_cmpuint (mat_phase_table_get_selected (table), ==, 2);
  g_assert_cmpint (mat_preview_get_block (preview), ==, -1);
  g_assert_cmpuint (mat_preview_get_phase (preview), ==, 2);
  g_assert_true (mat_preview_get_evaluation (preview, &shown));
  g_assert_cmpint (shown.phase_a, ==, 2);
  g_assert_cmpuint (shown.period, ==, 0);
  {
    /* the phase's own colour: p4..p6 of phase 2 */
    g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (material), 2);

    g_assert_cmpfloat (shown.value.f[0], ==, mat_phase_get_param (phase, 4) / 255.0f);
    g_assert_cmpfloat (shown.value.f[1], ==, mat_phase_get_param (phase, 5) / 255.0f);
    g_assert_cmpfloat (shown.value.f[2], ==, mat_phase_get_param (phase, 6) / 255.0f);
  }

  /* another row selected while the table keeps the focus */
  mat_phase_table_set_selected (table, 1);
  ui_pump ();
  g_assert_cmpuint (mat_preview_get_phase (preview), ==, 1);
  g_assert_true (mat_preview_get_evaluation (preview, &shown));
  g_assert_cmpint (shown.phase_a, ==, 1);

  /* the focus leaves the table (a click into the search field): the track */
  click (template_child (window, "search_entry"));
  g_assert_false (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), GTK_WIDGET (table)));
  g_assert_cmpint (mat_preview_get_block (preview), ==, 0);
  g_assert_true (mat_preview_get_evaluation (preview, &shown));
  g_assert_cmpuint (shown.period, ==, 3200);
  mat_preview_set_time (preview, 1200);
  g_assert_true (mat_preview_get_evaluation (preview, &shown));
  g_assert_cmpint (shown.segment, ==, 1);

  /* the block chosen on the Animation page plays there */
  show_page (window, 1);
  g_assert_cmpint (mat_preview_get_block (preview), ==, mat_block_editor_get_selected_block (editor));
  close_window (window);
}

/* Editing a control in another phase's row selects that phase, and the
 * preview (which shows the selected phase while the table has the
 * focus) shows the phase being edited: a real click into row 2's power
 * and a value typed there, a click on row 3's swatch (its popover), a
 * click on row 1's cell chooser. It showed the phase selected before. */
static void
test_pane_edit_selects_phase (void)
{
  MatWindow *window = open_demo (1280, 800);
  MatPreview *preview = window_preview (window);
  MatPhaseTable *table = template_child (window, "phase_table");
  MatMaterial *material;
  GtkSpinButton *power;
  GtkWidget *text;
  PhaseEvalResult shown;

  material = select_by_name (window, "COLOR_CYCLE");
  mat_phase_table_set_selected (table, 0);
  click (GTK_WIDGET (mat_phase_table_get_texture_for_test (table, 0)));
  g_assert_cmpuint (mat_preview_get_phase (preview), ==, 0);

  /* row 2's power: clicked into, typed, Enter */
  power = mat_phase_table_get_spin_for_test (table, 2, 16);
  text = ui_find_by_type (GTK_WIDGET (power), GTK_TYPE_TEXT);
  click (text);
  g_assert_cmpuint (mat_phase_table_get_selected (table), ==, 2);
  g_assert_cmpuint (mat_preview_get_phase (preview), ==, 2);
  gtk_editable_set_text (GTK_EDITABLE (power), "3");
  send_key (text, XK_Return);
  g_assert_cmpuint (mat_phase_get_param (ui_phase_at (material, 2), 16), ==, 3);
  g_assert_cmpuint (mat_preview_get_phase (preview), ==, 2);
  g_assert_true (mat_preview_get_evaluation (preview, &shown));
  g_assert_cmpint (shown.phase_a, ==, 2);

  /* row 3's diffuse swatch: its popover opens, on row 3, still shown */
  click (GTK_WIDGET (mat_phase_table_get_swatch_for_test (table, 3, MAT_PHASE_COLOUR_DIFFUSE)));
  g_assert_nonnull (mat_phase_table_get_colour_popover_for_test (table));
  g_assert_cmpuint (mat_phase_table_get_selected (table), ==, 3);
  g_assert_cmpuint (mat_preview_get_phase (preview), ==, 3);
  gtk_popover_popdown (mat_phase_table_get_colour_popover_for_test (table));
  ui_spin_ms (50);

  /* row 1's cell chooser, clicked */
  click (GTK_WIDGET (mat_phase_table_get_cell_chooser_for_test (table, 1)));
  g_assert_cmpuint (mat_phase_table_get_selected (table), ==, 1);
  g_assert_cmpuint (mat_preview_get_phase (preview), ==, 1);
  send_key (GTK_WIDGET (table), XK_Escape);

  while (mat_history_undo (mat_library_get_history (mat_window_get_library (window))))
    ;
  close_window (window);
}

/* ---- turning and zooming with the pointer ------------------------------ */

static gboolean
frames_differ (GdkTexture *a,
               GdkTexture *b)
{
  int w = gdk_texture_get_width (a), h = gdk_texture_get_height (a);
  g_autofree guint8 *pa = g_malloc ((gsize) w * h * 4);
  g_autofree guint8 *pb = g_malloc ((gsize) w * h * 4);

  g_assert_cmpint (gdk_texture_get_width (b), ==, w);
  g_assert_cmpint (gdk_texture_get_height (b), ==, h);
  gdk_texture_download (a, pa, (gsize) w * 4);
  gdk_texture_download (b, pb, (gsize) w * 4);
  return memcmp (pa, pb, (gsize) w * h * 4) != 0;
}

static void
test_pane_pointer (void)
{
  MatWindow *window = open_demo (1280, 800);
  MatPreview *preview = window_preview (window);
  GtkWidget *area;
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) turned = NULL;
  g_autoptr(GdkTexture) zoomed = NULL;
  double cx, cy;

  select_by_name (window, "LAVA_FLOW");
  mat_preview_set_playing (preview, FALSE);
  mat_preview_set_shape (preview, MAT_PREVIEW_SHAPE_CUBE);
  area = preview_part (preview, "gl_area");
  before = mat_preview_read_frame_for_test (preview);
  g_assert_nonnull (before);
  g_assert_cmpfloat (mat_preview_get_yaw (preview), ==, 0.0);
  g_assert_cmpfloat (mat_preview_get_pitch (preview), ==, 0.0);
  g_assert_cmpfloat (mat_preview_get_zoom (preview), ==, 1.0);
  cx = gtk_widget_get_width (area) / 2.0;
  cy = gtk_widget_get_height (area) / 2.0;

  /* a drag to the right turns the front to the right (yaw), down tilts
   * it down (pitch): half a degree per pixel */
  ui_pointer_drag (area, cx - 40, cy, 80, 0);
  g_test_message ("yaw after an 80 px drag: %.2f", mat_preview_get_yaw (preview));
  g_assert_cmpfloat (mat_preview_get_yaw (preview), >=, 35.0);
  g_assert_cmpfloat (mat_preview_get_yaw (preview), <=, 40.5);
  g_assert_cmpfloat (mat_preview_get_pitch (preview), ==, 0.0);
  ui_pointer_drag (area, cx, cy - 20, 0, 40);
  g_test_message ("pitch after a 40 px drag: %.2f", mat_preview_get_pitch (preview));
  g_assert_cmpfloat (mat_preview_get_pitch (preview), >=, 15.0);
  g_assert_cmpfloat (mat_preview_get_pitch (preview), <=, 20.5);
  turned = mat_preview_read_frame_for_test (preview);
  g_assert_nonnull (turned);
  g_assert_true (frames_differ (before, turned));

  /* the wheel: up zooms in a step, down twice zooms out past 1 */
  ui_pointer_move (area, cx, cy);
  ui_pointer_button (area, 4, TRUE);
  ui_pointer_button (area, 4, FALSE);
  ui_pump ();
  g_test_message ("zoom after one step up: %.3f", mat_preview_get_zoom (preview));
  g_assert_cmpfloat (mat_preview_get_zoom (preview), >, 1.05);
  zoomed = mat_preview_read_frame_for_test (preview);
  g_assert_true (frames_differ (turned, zoomed));
  for (guint i = 0; i < 2; i++)
    {
      ui_pointer_button (area, 5, TRUE);
      ui_pointer_button (area, 5, FALSE);
    }
  ui_pump ();
  g_assert_cmpfloat (mat_preview_get_zoom (preview), <, 1.0);
  /* and never out of its range */
  for (guint i = 0; i < 20; i++)
    {
      ui_pointer_button (area, 5, TRUE);
      ui_pointer_button (area, 5, FALSE);
    }
  ui_pump ();
  g_assert_cmpfloat (mat_preview_get_zoom (preview), ==, MAT_PREVIEW_ZOOM_MIN);

  /* a double click puts it back */
  ui_pointer_move (area, cx, cy);
  ui_pointer_button (area, 1, TRUE);
  ui_pointer_button (area, 1, FALSE);
  ui_pointer_button (area, 1, TRUE);
  ui_pointer_button (area, 1, FALSE);
  ui_pump ();
  g_assert_cmpfloat (mat_preview_get_yaw (preview), ==, 0.0);
  g_assert_cmpfloat (mat_preview_get_pitch (preview), ==, 0.0);
  g_assert_cmpfloat (mat_preview_get_zoom (preview), ==, 1.0);
  {
    g_autoptr(GdkTexture) reset = mat_preview_read_frame_for_test (preview);

    g_assert_false (frames_differ (before, reset));
  }
  close_window (window);
}

/* ---- swatches ---------------------------------------------------------- */

/* render.md 1-2 from the phase bytes, at the swatch's point (the point
 * of a sphere that faces the light, seen from the preview's camera):
 * N·L = 1, N·H = L·normalize (L + V), V = (0, 0, 1), over the scene
 * colour 40/255, untextured; alpha p3 × 0.01. */
static void
expected_swatch (const guint8 p[18],
                 guint8       rgba[4])
{
  float l[3] = { PHASE_LIGHT_DIR_X, PHASE_LIGHT_DIR_Y, PHASE_LIGHT_DIR_Z };
  float len = sqrtf (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
  float h[3], hlen, n_dot_h, exponent, spec, alpha;
  guint32 shift = p[16] & 31u;

  for (guint i = 0; i < 3; i++)
    l[i] /= len;
  h[0] = l[0];
  h[1] = l[1];
  h[2] = l[2] + 1.0f;
  hlen = sqrtf (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
  n_dot_h = (l[0] * h[0] + l[1] * h[1] + l[2] * h[2]) / hlen;
  /* 1 << (p16 & 31) on a 32-bit int: 1 << 31 is negative */
  exponent = (float) (gint32) (1u << shift);
  spec = powf (n_dot_h, exponent);
  spec = isinf (spec) || spec > 1.0f ? 1.0f : spec;
  for (guint c = 0; c < 3; c++)
    {
      float scene = 40.0f / 255.0f;
      float self_light = p[0 + c] / 255.0f;
      float diffuse = p[4 + c] / 255.0f;
      float specular = p[8 + c] / 255.0f;
      float v = scene + self_light + diffuse * 1.0f + specular * spec;

      rgba[c] = (guint8) lrintf (CLAMP (v, 0.0f, 1.0f) * 255.0f);
    }
  alpha = p[3] * 0.01f;
  rgba[3] = (guint8) lrintf (CLAMP (alpha, 0.0f, 1.0f) * 255.0f);
}

static void
assert_swatch (MatMaterial *material,
               const char  *what)
{
  g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (material), 0);
  guint8 expected[4], got[4];

  expected_swatch (mat_phase_get_params (phase), expected);
  g_assert_true (mat_material_get_swatch (material, got));
  g_test_message ("%s: swatch %u %u %u %u, expected %u %u %u %u", what, got[0], got[1], got[2],
                  got[3], expected[0], expected[1], expected[2], expected[3]);
  g_assert_cmpmem (got, 4, expected, 4);
}

/* Materials whose phase 0 exercises each term: specular at exponents 1,
 * 2, 2^31 (negative: saturated) and 2^8, light saturating, alpha. */
static MatLibrary *
swatch_library (void)
{
  static const guint8 phases[][18] = {
    { 10, 20, 30, 100, 100, 50, 0, 255, 80, 80, 80, 255, 0, 0, 0, 0, 0, 255 },
    { 0, 0, 0, 50, 20, 40, 60, 255, 200, 100, 50, 255, 9, 9, 9, 9, 1, 255 },
    { 0, 0, 0, 100, 10, 10, 10, 255, 30, 60, 90, 255, 0, 0, 0, 0, 31, 255 },
    { 0, 0, 0, 100, 10, 10, 10, 255, 255, 255, 255, 255, 0, 0, 0, 0, 8, 255 },
    { 200, 200, 200, 250, 200, 200, 200, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255 },
  };
  static const char *const names[] = {
    "SPEC_1", "SPEC_2", "SPEC_NEG", "SPEC_256", "BRIGHT", "NO_PHASES",
  };
  g_autoptr(GPtrArray) payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  TestEntrySpec specs[G_N_ELEMENTS (names)] = { { 0 } };
  g_autoptr(GBytes) archive = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GByteArray *a = g_byte_array_new ();
      gboolean has_phase = i < G_N_ELEMENTS (phases);
      GBytes *payload;

      test_put_u16 (a, has_phase ? 1 : 0);   /* one phase, or none */
      test_put_u16 (a, 0);                   /* no block */
      test_put_u8 (a, 255);                  /* attr2 6: metaA..D */
      test_put_u8 (a, 255);
      test_put_u32 (a, 0x3F800000u);
      test_put_u32 (a, 0);
      if (has_phase)
        test_put_phase (a, phases[i], "");
      payload = g_byte_array_free_to_bytes (a);
      g_ptr_array_add (payloads, payload);
      specs[i].type_id = TYPE_MAT0;
      specs[i].attr2 = 6;
      specs[i].name = names[i];
      specs[i].payload = g_bytes_get_data (payload, &specs[i].size);
    }
  archive = test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
  return ui_library_new (archive);
}

/* The list row that shows @material, %NULL when it is not drawn. */
static MatMaterialRow *
row_of (MatWindow   *window,
        MatMaterial *material)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  ui_collect_by_type (template_child (window, "list_view"), MAT_TYPE_MATERIAL_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    if (mat_material_row_get_material (g_ptr_array_index (rows, i)) == material)
      return g_ptr_array_index (rows, i);
  return NULL;
}

static void
test_swatches (void)
{
  g_autoptr(MatLibrary) built = swatch_library ();
  static const char *const demo_names[] = {
    "UNTEXTURED_RED", "COLOR_CYCLE", "GLOW_PULSE", "SPECULAR_SHINE", "GLASS", "ENGINE_EXHAUST",
  };
  static const char *const built_names[] = { "SPEC_1", "SPEC_2", "SPEC_NEG", "SPEC_256", "BRIGHT" };
  MatWindow *window;
  MatLibrary *library;

  /* the model: each term of the formula */
  for (guint i = 0; i < G_N_ELEMENTS (built_names); i++)
    assert_swatch (ui_find_material (built, built_names[i]), built_names[i]);
  /* kept until a change: an edit empties the cache, the next call
   * computes the new colour */
  {
    MatMaterial *material = ui_find_material (built, "SPEC_1");
    g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (material), 0);
    g_autoptr(GError) error = NULL;
    guint8 first[4], again[4];

    g_assert_true (mat_material_get_swatch_cached (material));
    g_assert_true (mat_material_get_swatch (material, first));
    g_assert_true (mat_material_get_swatch (material, again));
    g_assert_cmpmem (first, 4, again, 4);
    /* diffuse green 50 -> 0 */
    g_assert_true (mat_phase_set_param (phase, 5, 0, &error));
    g_assert_no_error (error);
    g_assert_false (mat_material_get_swatch_cached (material));
    assert_swatch (material, "SPEC_1 edited");
    g_assert_true (mat_material_get_swatch_cached (material));
    g_assert_true (mat_material_get_swatch (material, again));
    g_assert_cmpuint (again[1], <, first[1]);
    g_assert_true (mat_history_undo (mat_library_get_history (built)));
    g_assert_false (mat_material_get_swatch_cached (material));
    g_assert_true (mat_material_get_swatch (material, again));
    g_assert_cmpmem (first, 4, again, 4);
  }

  /* an entry without phases has none */
  {
    guint8 rgba[4] = { 1, 1, 1, 1 };

    g_assert_false (mat_material_get_swatch (ui_find_material (built, "NO_PHASES"), rgba));
    g_assert_cmpuint (rgba[0] | rgba[1] | rgba[2] | rgba[3], ==, 0);
  }

  /* the demo library in the window: the rows draw the model's swatch,
   * times the texture's average colour for a textured phase 0 */
  window = open_demo (1280, 800);
  library = mat_window_get_library (window);
  for (guint i = 0; i < G_N_ELEMENTS (demo_names); i++)
    {
      MatMaterial *material = ui_find_material (library, demo_names[i]);
      MatMaterialRow *row;
      guint8 model[4], drawn[4];

      assert_swatch (material, demo_names[i]);
      mat_window_select_material (window, material);
      ui_spin_ms (50);
      row = row_of (window, material);
      g_assert_nonnull (row);
      g_assert_true (mat_material_get_swatch (material, model));
      g_assert_true (mat_material_row_get_swatch (row, drawn));
      g_assert_cmpmem (drawn, 4, model, 4);   /* untextured */
    }

  /* textured: LAVA_FLOW's phase 0 names LAVA.A */
  {
    MatMaterial *material = ui_find_material (library, "LAVA_FLOW");
    MatTextureLibrary *textures = mat_phase_table_get_textures (template_child (window, "phase_table"));
    MatTexture *texture;
    g_autoptr(GBytes) pixels = NULL;
    guint level, width = 0, height = 0;
    guint64 sum[4] = { 0 };
    guint8 model[4], drawn[4];
    MatMaterialRow *row;
    const guint8 *p;

    g_assert_nonnull (textures);
    texture = mat_texture_library_lookup (textures, "LAVA.A");
    g_assert_nonnull (texture);
    /* the mean of the smallest mip level, computed here */
    level = mat_texture_get_mip_count (texture) - 1;
    pixels = mat_texture_dup_rgba (texture, level, &width, &height);
    g_assert_nonnull (pixels);
    p = g_bytes_get_data (pixels, NULL);
    for (guint i = 0; i < width * height; i++)
      for (guint c = 0; c < 4; c++)
        sum[c] += p[i * 4 + c];
    mat_window_select_material (window, material);
    ui_spin_ms (50);
    row = row_of (window, material);
    g_assert_nonnull (row);
    assert_swatch (material, "LAVA_FLOW");
    g_assert_true (mat_material_get_swatch (material, model));
    g_assert_true (mat_material_row_get_swatch (row, drawn));
    for (guint c = 0; c < 4; c++)
      {
        guint average = (guint) ((sum[c] + width * height / 2) / (width * height));

        g_assert_cmpuint (drawn[c], ==, (model[c] * average + 127) / 255);
      }
    {
      g_autofree char *tip = mat_material_row_dup_swatch_tooltip (row);
      g_autofree char *hex = g_strdup_printf ("#%02X%02X%02X", drawn[0], drawn[1], drawn[2]);

      g_assert_nonnull (tip);
      g_assert_nonnull (strstr (tip, hex));
      g_assert_nonnull (strstr (tip, "texture"));
    }
  }

  /* the cache: kept until the material changes; an edit of phase 0
   * empties it, the row follows, undo brings the colour back */
  {
    MatMaterial *material = ui_find_material (library, "UNTEXTURED_RED");
    g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (material), 0);
    g_autoptr(GError) error = NULL;
    MatMaterialRow *row;
    guint8 before[4], after[4], drawn[4];

    mat_window_select_material (window, material);
    ui_spin_ms (50);
    row = row_of (window, material);
    g_assert_nonnull (row);
    g_assert_true (mat_material_get_swatch (material, before));
    g_assert_true (mat_material_get_swatch_cached (material));
    /* the diffuse red down from 220 to 100: scene 40 + self-light 80 +
     * 100 = 220 (the row asks for the new swatch at once) */
    g_assert_true (mat_phase_set_param (phase, 4, 100, &error));
    g_assert_no_error (error);
    assert_swatch (material, "UNTEXTURED_RED edited");
    g_assert_true (mat_material_get_swatch (material, after));
    g_assert_cmpuint (after[0], ==, 220);
    g_assert_cmpuint (after[0], <, before[0]);
    g_assert_true (mat_material_row_get_swatch (row, drawn));
    g_assert_cmpmem (drawn, 4, after, 4);

    gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
    ui_pump ();
    g_assert_cmpuint (mat_phase_get_param (phase, 4), ==, 220);
    g_assert_true (mat_material_row_get_swatch (row, drawn));
    g_assert_cmpmem (drawn, 4, before, 4);
    g_assert_true (mat_material_get_swatch_cached (material));
  }
  close_window (window);
}

/* What a swatch shows, computed here (render.md 3): the colour at its
 * alpha over a square of grey @under, blended with blend mode @mode and
 * the alpha test of modes 1..5; opaque. */
static void
blended_swatch (guint        mode,
                const guint8 rgba[4],
                float        under,
                int          out[3])
{
  float alpha = rgba[3] / 255.0f;

  for (guint c = 0; c < 3; c++)
    {
      float s = rgba[c] / 255.0f, d = under, r;

      if (mode != 0 && alpha < 1.0f / 255.0f)
        r = d;
      else
        switch (mode)
          {
          case 2: r = s * alpha + d; break;                  /* SRCALPHA, ONE */
          case 3: r = d * s; break;                          /* ZERO, SRCCOLOR */
          case 4: r = s * alpha + d * (1 - alpha); break;    /* SRCALPHA, INVSRCALPHA */
          case 5: r = 2 * s * d; break;                      /* DESTCOLOR, SRCCOLOR */
          default: r = s; break;                             /* ONE, ZERO */
          }
      out[c] = (int) lrintf (CLAMP (r, 0.0f, 1.0f) * 255.0f);
    }
}

/* The swatches on screen: the list's rows as the X server shows them,
 * each half of a swatch the colour blended over its square (a dark and a
 * light grey) by the material's blend mode, opaque, whatever the
 * window's own colour; a lit skin counts its texture's alpha only with
 * emboss bump on. */
static void
test_swatches_on_screen (void)
{
  static const struct { const char *name; guint mode; } cases[] = {
    { "UNTEXTURED_RED", 0 },   /* opaque */
    { "SPECULAR_SHINE", 0 },   /* opacity 20 %, ONE/ZERO: opaque all the same */
    { "ENGINE_EXHAUST", 4 },   /* attr1 0x44: see-through, untextured */
    { "SMOKE_VEIL", 4 },       /* see-through over SMOKE.0 (88 on an alpha surface) */
    { "HALO_GLOW", 2 },        /* additive over GLOW.0 (4444) */
    { "FADE_IN", 2 },          /* additive at opacity 0: dropped by the alpha test */
  };
  static const float under[2] = { 0.28f, 0.75f };
  MatWindow *window = open_demo (1280, 800);
  MatLibrary *library = mat_window_get_library (window);

  for (guint i = 0; i <= G_N_ELEMENTS (cases); i++)
    {
      /* the last round: HALO_GLOW as a lit skin (attr1 | 0x02), its
       * texture then opaque, and with emboss bump its alpha again */
      gboolean skin = i == G_N_ELEMENTS (cases);
      const char *name = skin ? "HALO_GLOW" : cases[i].name;
      guint mode = skin ? 2 : cases[i].mode;
      MatMaterial *material = ui_find_material (library, name);
      MatMaterialRow *row;
      guint8 colour[4], drawn[2][3], average[4];

      if (skin)
        {
          g_autoptr(GError) error = NULL;

          g_assert_true (mat_material_set_attr1 (material, mat_material_get_attr1 (material) | 0x02,
                                                 &error));
          g_assert_no_error (error);
        }
      mat_window_select_material (window, material);
      ui_spin_ms (50);
      row = row_of (window, material);
      g_assert_nonnull (row);
      g_assert_cmpuint (mat0_fields_blend_of_attr1 (mat_material_get_attr1 (material))->mode, ==, mode);
      g_assert_true (mat_material_row_get_swatch (row, colour));
      g_assert_true (mat_material_row_get_swatch_drawn (row, drawn[0], drawn[1]));

      /* the alpha: phase 0's opacity, times the texture's average alpha
       * only where the game draws it */
      if (g_str_equal (name, "HALO_GLOW"))
        {
          MatTextureLibrary *textures = mat_phase_table_get_textures (template_child (window, "phase_table"));
          MatTexture *glow = mat_texture_library_lookup (textures, "GLOW.0");
          guint8 model[4];

          g_assert_true (mat_texture_get_average (glow, average));
          g_assert_cmpuint (average[3], <, 200);   /* a radial fade */
          g_assert_true (mat_material_get_swatch (material, model));
          g_assert_cmpuint (colour[3], ==, (model[3] * (skin ? 255 : average[3]) + 127) / 255);
          if (skin)
            {
              guint8 with_emboss[4];

              mat_material_row_set_emboss_bump (row, TRUE);
              g_assert_true (mat_material_row_get_swatch (row, with_emboss));
              g_assert_cmpuint (with_emboss[3], ==, (model[3] * average[3] + 127) / 255);
              mat_material_row_set_emboss_bump (row, FALSE);
            }
        }

      {
        g_autoptr(GdkTexture) shot = NULL;
        int middle = gtk_widget_get_height (GTK_WIDGET (row)) / 2;

        ui_screen_wait_painted (GTK_WIDGET (row), 2);
        shot = ui_screen_grab (GTK_WIDGET (row));
        for (guint side = 0; side < 2; side++)
          {
            int expected[3];
            guint8 pixel[4];

            blended_swatch (mode, colour, under[side], expected);
            ui_texture_pixel (shot, side == 0 ? 4 : 12, middle, pixel);
            g_test_message ("%s%s, over %.2f: drawn %u %u %u, on screen %u %u %u, render.md %d %d %d",
                            name, skin ? " (lit skin)" : "", under[side], drawn[side][0],
                            drawn[side][1], drawn[side][2], pixel[0], pixel[1], pixel[2],
                            expected[0], expected[1], expected[2]);
            for (guint c = 0; c < 3; c++)
              {
                g_assert_cmpint (ABS ((int) drawn[side][c] - expected[c]), <=, 1);
                g_assert_cmpint (ABS ((int) pixel[c] - expected[c]), <=, 2);
              }
          }
      }
    }
  close_window (window);
}

/* ---- a layout that does not move --------------------------------------- */

typedef struct {
  GtkWidget       *area;
  GtkWidget       *window;
  graphene_rect_t  first;
  guint            n_frames;
  guint            n_moved;
  graphene_rect_t  moved;
} AllocationWatch;

/* At every frame: where the GL view is in the window, and how big. */
static gboolean
watch_allocation (GtkWidget     *widget,
                  GdkFrameClock *clock,
                  gpointer       data)
{
  AllocationWatch *watch = data;
  graphene_rect_t bounds;

  if (!gtk_widget_compute_bounds (watch->area, watch->window, &bounds))
    return G_SOURCE_CONTINUE;
  if (watch->n_frames++ == 0)
    watch->first = bounds;
  else if (!graphene_rect_equal (&bounds, &watch->first))
    {
      if (watch->n_moved++ == 0)
        watch->moved = bounds;
    }
  return G_SOURCE_CONTINUE;
}

static void
assert_not_moved (AllocationWatch *watch,
                  const char      *what)
{
  g_test_message ("%s: %u frames, GL view %.0f×%.0f at (%.0f, %.0f)", what, watch->n_frames,
                  watch->first.size.width, watch->first.size.height,
                  watch->first.origin.x, watch->first.origin.y);
  g_assert_cmpuint (watch->n_frames, >, 10);
  if (watch->n_moved > 0)
    g_error ("%s: the GL view moved in %u of %u frames: %.0f×%.0f at (%.0f, %.0f), then %.0f×%.0f at (%.0f, %.0f)",
             what, watch->n_moved, watch->n_frames, watch->first.size.width, watch->first.size.height,
             watch->first.origin.x, watch->first.origin.y, watch->moved.size.width,
             watch->moved.size.height, watch->moved.origin.x, watch->moved.origin.y);
}

/* The readouts are shown, and say what they should. */
static void
assert_readouts_shown (MatPreview *preview)
{
  GtkWidget *time_label = preview_part (preview, "time_label");
  GtkWidget *blend_label = preview_part (preview, "blend_label");

  g_assert_true (gtk_widget_get_mapped (time_label));
  g_assert_true (gtk_widget_get_mapped (blend_label));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (time_label)), !=, "");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (blend_label)), !=, "");
}

/* A track with an opacity change plays (FADE_OUT: 100 % to 0 and back,
 * the readout gaining and losing its opacity line), then edits change
 * what the readouts say: the GL view keeps its place and size at every
 * frame, at both window sizes (run in English and in Russian). */
static void
test_layout_steady (void)
{
  static const struct { int width, height; } sizes[] = { { 1100, 720 }, { 1280, 800 } };
  const char *language = g_getenv ("LANGUAGE");
  const char *lang = language != NULL && g_str_has_prefix (language, "ru") ? "ru" : "en";

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      MatWindow *window = open_demo (sizes[s].width, sizes[s].height);
      MatPreview *preview = window_preview (window);
      AllocationWatch watch = { 0 };
      g_autoptr(GError) error = NULL;
      g_autofree char *what = NULL;
      MatMaterial *material;
      gboolean opacity_shown = FALSE, opacity_gone = FALSE;
      gint64 end;
      guint tick;

      material = select_by_name (window, "FADE_OUT");
      show_page (window, 1);
      watch.area = preview_part (preview, "gl_area");
      watch.window = GTK_WIDGET (window);
      g_assert_true (ui_wait_for (ui_widget_is_shown, watch.area, WAIT_SECONDS));
      g_assert_cmpint (mat_preview_get_block (preview), ==, 0);
      ui_spin_ms (300);

      /* at 0 the opacity is 100 %: the line without it */
      mat_preview_set_time (preview, 0);
      ui_spin_ms (50);
      opacity_gone = strchr (gtk_label_get_text (GTK_LABEL (preview_part (preview, "blend_label"))),
                             '%') == NULL;
      tick = gtk_widget_add_tick_callback (watch.area, watch_allocation, &watch, NULL);
      mat_preview_set_speed (preview, 2.0);
      mat_preview_set_playing (preview, TRUE);
      /* two periods and more at twice the speed: every opacity there is */
      end = g_get_monotonic_time () + 2500 * G_TIME_SPAN_MILLISECOND;
      while (g_get_monotonic_time () < end)
        {
          const char *blend;

          ui_spin_ms (20);
          assert_readouts_shown (preview);
          blend = gtk_label_get_text (GTK_LABEL (preview_part (preview, "blend_label")));
          /* the line does change: with its opacity, and without */
          if (strchr (blend, '%') != NULL)
            opacity_shown = TRUE;
        }
      mat_preview_set_playing (preview, FALSE);
      ui_spin_ms (100);
      what = g_strdup_printf ("%s, %dx%d, playing", lang, sizes[s].width, sizes[s].height);
      assert_not_moved (&watch, what);
      g_assert_true (opacity_shown);
      g_assert_true (opacity_gone);

      /* edits while paused: each readout at its longest and shortest */
      watch.n_frames = watch.n_moved = 0;
      mat_preview_set_time (preview, 1000);              /* halfway: opacity 50 % */
      ui_spin_ms (100);
      g_assert_true (mat_material_set_attr1 (material, 7 << 2, &error));   /* unknown blend index */
      ui_spin_ms (100);
      g_assert_true (mat_material_set_attr1 (material, 4 << 2, &error));   /* double modulate */
      ui_spin_ms (100);
      g_assert_true (mat_material_set_attr1 (material, 0, &error));        /* opaque */
      ui_spin_ms (100);
      g_assert_true (mat_phase_set_param (ui_phase_at (material, 0), 3, 37, &error));
      ui_spin_ms (100);
      mat_preview_set_time (preview, 0);                 /* opacity 37 % */
      ui_spin_ms (100);
      assert_readouts_shown (preview);
      while (mat_history_undo (mat_library_get_history (mat_window_get_library (window))))
        ui_spin_ms (50);
      mat_preview_set_time (preview, 2001);              /* opacity 0 */
      ui_spin_ms (200);
      /* frames are drawn only when something changed: a few more */
      for (guint i = 0; i < 10; i++)
        {
          gtk_widget_queue_draw (watch.area);
          ui_spin_ms (20);
        }
      g_clear_pointer (&what, g_free);
      what = g_strdup_printf ("%s, %dx%d, after edits", lang, sizes[s].width, sizes[s].height);
      assert_not_moved (&watch, what);
      assert_readouts_shown (preview);
      gtk_widget_remove_tick_callback (watch.area, tick);
      close_window (window);
    }
}

/* ---- the pages fit, in both languages; screenshots --------------------- */

static gboolean
preview_drew (gpointer data)
{
  return mat_preview_get_n_renders (MAT_PREVIEW (data)) > 0;
}

static void
test_pages_fit (void)
{
  static const struct { int width, height; } sizes[] = { { 1100, 720 }, { 1280, 800 } };
  const char *language = g_getenv ("LANGUAGE");
  const char *lang = language != NULL && g_str_has_prefix (language, "ru") ? "ru" : "en";
  GSettings *settings = mat_application_get_settings (app);

  g_settings_set_boolean (settings, "preview-visible", TRUE);
  g_test_message ("language %s", lang);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      MatWindow *window = open_demo (sizes[s].width, sizes[s].height);
      MatPreview *preview = window_preview (window);
      GtkWidget *pane = template_child (window, "preview_pane");

      g_test_message ("window %dx%d", gtk_widget_get_width (GTK_WIDGET (window)),
                      gtk_widget_get_height (GTK_WIDGET (window)));
      /* a looping track with textures, near the end of its cycle */
      select_by_name (window, "LAVA_FLOW");
      g_assert_true (ui_wait_for (preview_drew, preview, WAIT_SECONDS));
      mat_preview_set_time (preview, 7616);
      for (guint i = 0; i < G_N_ELEMENTS (page_names); i++)
        {
          g_autofree char *name = g_strdup_printf ("pane-%s-%s-%dx%d.png", page_names[i], lang,
                                                   sizes[s].width, sizes[s].height);
          GtkStack *stack = template_child (window, "material_stack");
          GtkPaned *paned = template_child (window, "preview_paned");
          graphene_rect_t pane_bounds, label_bounds;
          static const char *const readouts[] = { "time_label", "blend_label" };
          gboolean beside;

          show_page (window, i);
          ui_spin_ms (100);
          g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (preview)));
          beside = gtk_orientable_get_orientation (GTK_ORIENTABLE (paned)) == GTK_ORIENTATION_HORIZONTAL;
          /* nothing squeezed below what it needs, nothing out of view
           * across on any page (the phase table's columns all in view)
           * nor in the pane */
          assert_not_squeezed (gtk_stack_get_visible_child (stack), page_names[i]);
          assert_not_squeezed (pane, "pane");
          assert_no_sideways_scroll (pane, "pane");
          assert_no_sideways_scroll (gtk_stack_get_visible_child (stack), page_names[i]);
          /* every label read in full: the page, the pane, the material's
           * heading and the list's status line */
          assert_no_label_cut (gtk_stack_get_visible_child (stack), page_names[i]);
          assert_no_label_cut (pane, "pane");
          assert_no_label_cut (template_child (window, "material_name_label"), "heading");
          assert_no_label_cut (template_child (window, "material_info_label"), "heading");
          assert_no_label_cut (template_child (window, "count_label"), "list");
          /* beside the pages at 1280 px in English; under them at
           * 1100 px, and wherever the columns would not fit beside it */
          g_test_message ("pane %s", beside ? "beside" : "under");
          if (sizes[s].width == 1100)
            g_assert_false (beside);
          else if (g_str_equal (lang, "en"))
            g_assert_true (beside);
          /* the pane takes its own width (or height), the pages the rest */
          if (beside)
            g_assert_cmpint (gtk_widget_get_width (pane), <=, 290);
          else
            g_assert_cmpint (gtk_widget_get_height (pane), <=, 320);
          /* the readouts in full, inside the pane */
          pane_bounds = bounds_in (pane, window);
          for (guint r = 0; r < G_N_ELEMENTS (readouts); r++)
            {
              GtkWidget *label = preview_part (preview, readouts[r]);

              g_assert_true (gtk_widget_get_mapped (label));
              /* wrapped, its lines never all used: nothing cut */
              g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))));
              assert_not_squeezed (label, readouts[r]);
              label_bounds = bounds_in (label, window);
              assert_inside (&label_bounds, &pane_bounds, readouts[r]);
            }
          g_test_message ("%s: “%s” / “%s”", name,
                          gtk_label_get_text (GTK_LABEL (preview_part (preview, "time_label"))),
                          gtk_label_get_text (GTK_LABEL (preview_part (preview, "blend_label"))));
          ui_screenshot (GTK_WIDGET (window), name);
        }
      close_window (window);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  /* LANGUAGE=ru in the environment gives the Russian run */
  setlocale (LC_ALL, "");
  mat_application_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);
  make_home ();

  app = mat_application_new (APPLICATION_ID ".TestPane", G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/pane/every-page", test_pane_on_every_page);
  g_test_add_func ("/pane/toggle", test_pane_toggle);
  g_test_add_func ("/pane/source", test_pane_source);
  g_test_add_func ("/pane/edit-selects-phase", test_pane_edit_selects_phase);
  g_test_add_func ("/pane/pointer", test_pane_pointer);
  g_test_add_func ("/pane/swatches", test_swatches);
  g_test_add_func ("/pane/swatches-on-screen", test_swatches_on_screen);
  g_test_add_func ("/pane/pages-fit", test_pages_fit);
  g_test_add_func ("/pane/layout-steady", test_layout_steady);

  status = g_test_run ();
  g_clear_object (&app);
  remove_home ();
  return status;
}
