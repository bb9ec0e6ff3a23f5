/* ui-support.c - what the UI tests share: the demo data, the main loop,
 * widget look-ups and screenshots */
#include "config.h"

#include <string.h>

#include <gdk/x11/gdkx.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

#include "test-support.h"
#include "ui-support.h"

/* How long ui_show() waits for its child to be shown. */
#define SHOW_SECONDS 10
/* Long enough for the theme's transitions (stacks, revealers) to end, so
 * a screenshot shows the state the test set up and not a blend. */
#define SETTLE_MS 600
/* A widget that draws anything at all has text and borders in many
 * shades; a blank or solid picture has a handful. */
#define MIN_COLOURS 50

/* The demo data */

const char *
ui_need_env (const char *name)
{
  const char *value = g_getenv (name);

  if (value == NULL || *value == '\0')
    g_error ("%s is not set: run the test through meson", name);
  return value;
}

GBytes *
ui_demo_bytes (void)
{
  return test_load_file (ui_need_env ("DEMO_LIB"));
}

MatLibrary *
ui_library_new (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  MatLibrary *library = mat_library_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (library);
  return library;
}

GBytes *
ui_library_save (MatLibrary *library)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = mat_library_save_to_bytes (library, &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return g_steal_pointer (&bytes);
}

MatMaterial *
ui_find_material (MatLibrary *library,
                  const char *name)
{
  MatMaterial *material = mat_library_find (library, name);

  g_assert_nonnull (material);
  return material;
}

MatPhase *
ui_phase_at (MatMaterial *material,
             guint        index)
{
  MatPhase *phase = g_list_model_get_item (mat_material_get_phases (material), index);

  g_assert_nonnull (phase);
  g_object_unref (phase);   /* the material holds it */
  return phase;
}

guint
ui_count_byte_differences (GBytes *a,
                           GBytes *b,
                           gsize  *first)
{
  gsize size_a, size_b;
  const guint8 *data_a = g_bytes_get_data (a, &size_a);
  const guint8 *data_b = g_bytes_get_data (b, &size_b);
  guint n = 0;

  g_assert_cmpuint (size_a, ==, size_b);
  if (first != NULL)
    *first = G_MAXSIZE;
  for (gsize i = 0; i < size_a; i++)
    if (data_a[i] != data_b[i] && n++ == 0 && first != NULL)
      *first = i;

  return n;
}

/* The main loop */

static gboolean
tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until @condition (when given) holds or the
 * monotonic clock passes @deadline. */
static gboolean
run_until (gint64      deadline,
           UiCondition condition,
           gpointer    data)
{
  /* The loop blocks for events; the tick wakes it to look at the clock
   * and the condition when nothing else happens. */
  guint tick = g_timeout_add (5, tick_cb, NULL);
  gboolean met;

  while (!(met = condition != NULL && condition (data)) &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);

  return met;
}

void
ui_pump (void)
{
  /* A dispatched source may queue more work (a relayout, a frame): a
   * few rounds let it through. */
  for (int i = 0; i < 5; i++)
    while (g_main_context_iteration (NULL, FALSE))
      ;
}

void
ui_spin_ms (guint ms)
{
  run_until (g_get_monotonic_time () + (gint64) ms * 1000, NULL, NULL);
}

gboolean
ui_wait_for (UiCondition condition,
             gpointer    data,
             guint       timeout_s)
{
  return run_until (g_get_monotonic_time () + (gint64) timeout_s * G_USEC_PER_SEC,
                    condition, data);
}

gboolean
ui_widget_is_shown (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0;
}

/* Windows and widgets */

GtkWindow *
ui_show (GtkWidget  *child,
         const char *title,
         int         width,
         int         height)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  gtk_window_set_title (window, title);
  gtk_window_set_default_size (window, width, height);
  gtk_window_set_child (window, child);
  gtk_window_present (window);
  g_assert_true (ui_wait_for (ui_widget_is_shown, child, SHOW_SECONDS));
  ui_pump ();

  return window;
}

gpointer
ui_find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      /* GTK keeps a reference as long as the window is a toplevel */
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type))
        return window;
    }

  return NULL;
}

GtkWidget *
ui_find_widget (GtkWidget     *root,
                UiWidgetMatch  match,
                gconstpointer  data)
{
  if (match (root, data))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = ui_find_widget (child, match, data);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* A GType travels in the gconstpointer of a UiWidgetMatch. */
static gboolean
is_type (GtkWidget     *widget,
         gconstpointer  type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, (GType) GPOINTER_TO_SIZE (type));
}

static gboolean
has_css_class (GtkWidget     *widget,
               gconstpointer  css_class)
{
  return gtk_widget_has_css_class (widget, css_class);
}

GtkWidget *
ui_find_by_type (GtkWidget *root,
                 GType      type)
{
  return ui_find_widget (root, is_type, GSIZE_TO_POINTER (type));
}

GtkWidget *
ui_find_by_css_class (GtkWidget  *root,
                      const char *css_class)
{
  return ui_find_widget (root, has_css_class, css_class);
}

static void
collect (GtkWidget     *root,
         UiWidgetMatch  match,
         gconstpointer  data,
         GPtrArray     *found)
{
  if (match (root, data))
    {
      g_ptr_array_add (found, root);
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, match, data, found);
}

void
ui_collect_by_type (GtkWidget *root,
                    GType      type,
                    GPtrArray *found)
{
  collect (root, is_type, GSIZE_TO_POINTER (type), found);
}

void
ui_collect_by_css_class (GtkWidget  *root,
                         const char *css_class,
                         GPtrArray  *found)
{
  collect (root, has_css_class, css_class, found);
}

/* Screenshots */

static char *
screenshot_path (const char *name)
{
  const char *dir = g_getenv ("SCREENSHOT_DIR");

  if (dir == NULL || *dir == '\0')
    return test_build_path (name);
  g_mkdir_with_parents (dir, 0755);

  return g_build_filename (dir, name, NULL);
}

/* The number of distinct colours in @texture, sampled every other pixel
 * of every other row. */
static guint
count_colours (GdkTexture *texture)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  gsize stride = (gsize) width * 4;
  g_autofree guchar *data = g_malloc (stride * (gsize) height);
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);

  gdk_texture_download (texture, data, stride);
  for (int y = 0; y < height; y += 2)
    for (int x = 0; x < width; x += 2)
      {
        guint32 pixel;

        memcpy (&pixel, data + (gsize) y * stride + (gsize) x * 4, 4);
        g_hash_table_add (colours, GUINT_TO_POINTER (pixel));
      }

  return g_hash_table_size (colours);
}

void
ui_save_texture (GdkTexture *texture,
                 const char *name)
{
  g_autofree char *path = screenshot_path (name);
  g_autoptr(GdkTexture) loaded = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (count_colours (texture), >, MIN_COLOURS);
  g_assert_true (gdk_texture_save_to_png (texture, path));

  /* What the README shows is the file: check it, not just the texture. */
  loaded = gdk_texture_new_from_filename (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (loaded), ==, gdk_texture_get_width (texture));
  g_assert_cmpint (gdk_texture_get_height (loaded), ==, gdk_texture_get_height (texture));
  g_assert_cmpuint (count_colours (loaded), >, MIN_COLOURS);
  g_test_message ("screenshot: %s", path);
}

/* Renders @widget as its window's renderer draws it. Returns: (transfer full) */
static GdkTexture *
render_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GskRenderNode) content = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GtkSnapshot *snapshot;

  /* The paintable shows what the widget last drew, and a GL area may
   * not have drawn yet: ask for frames until there is one. */
  for (guint i = 0; i < 40 && content == NULL; i++)
    {
      gtk_widget_queue_draw (widget);
      ui_spin_ms (25);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
      content = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (content);

  /* A window paints nothing outside its CSS box: put the theme's window
   * colour under it, as the compositor would show. */
  snapshot = gtk_snapshot_new ();
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 1, 1, 1, 1 },
                             &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_append_node (snapshot, content);
  node = gtk_snapshot_free_to_node (snapshot);

  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

void
ui_screenshot (GtkWidget  *widget,
               const char *name)
{
  g_autoptr(GdkTexture) texture = NULL;

  ui_spin_ms (SETTLE_MS);
  g_assert_cmpint (gtk_widget_get_width (widget), >, 100);
  g_assert_cmpint (gtk_widget_get_height (widget), >, 100);
  texture = render_widget (widget);
  g_assert_nonnull (texture);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, gtk_widget_get_width (widget));
  g_assert_cmpint (gdk_texture_get_height (texture), ==, gtk_widget_get_height (widget));
  ui_save_texture (texture, name);
}

/* Real pointer input */

/* The X display of @widget; these tests run under Xvfb. */
static Display *
x_display_of (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);

  g_assert_true (GDK_IS_X11_DISPLAY (display));
  return gdk_x11_display_get_xdisplay (display);
}

void
ui_pointer_move (GtkWidget *widget,
                 double     x,
                 double     y)
{
  GtkNative *native = gtk_widget_get_native (widget);
  Display *xdisplay = x_display_of (widget);
  graphene_point_t point;
  double surface_x, surface_y;
  int root_x, root_y;
  Window child;

  g_assert_nonnull (native);
  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native),
                                           &GRAPHENE_POINT_INIT ((float) x, (float) y), &point));
  gtk_native_get_surface_transform (native, &surface_x, &surface_y);
  XTranslateCoordinates (xdisplay, gdk_x11_surface_get_xid (gtk_native_get_surface (native)),
                         DefaultRootWindow (xdisplay),
                         (int) (point.x + surface_x + 0.5), (int) (point.y + surface_y + 0.5),
                         &root_x, &root_y, &child);
  XTestFakeMotionEvent (xdisplay, -1, root_x, root_y, CurrentTime);
  XSync (xdisplay, False);   /* the events are back before the loop runs */
  ui_spin_ms (30);
}

void
ui_pointer_button (GtkWidget *widget,
                   guint      button,
                   gboolean   press)
{
  Display *xdisplay = x_display_of (widget);

  XTestFakeButtonEvent (xdisplay, button, press, CurrentTime);
  XSync (xdisplay, False);
  ui_spin_ms (30);
}

void
ui_pointer_drag (GtkWidget *widget,
                 double     x,
                 double     y,
                 double     dx,
                 double     dy)
{
  const guint steps = 8;

  ui_pointer_move (widget, x, y);
  ui_pointer_button (widget, 1, TRUE);
  for (guint i = 1; i <= steps; i++)
    ui_pointer_move (widget, x + dx * i / steps, y + dy * i / steps);
  ui_pointer_button (widget, 1, FALSE);
}

/* Real key input */

static gboolean
window_is_active (gpointer window)
{
  return gtk_window_is_active (GTK_WINDOW (window));
}

void
ui_key (GtkWidget       *widget,
        guint            keysym,
        GdkModifierType  mods)
{
  static const struct {
    GdkModifierType mask;
    guint           keysym;
  } modifiers[] = {
    { GDK_SHIFT_MASK, XK_Shift_L },
    { GDK_CONTROL_MASK, XK_Control_L },
    { GDK_ALT_MASK, XK_Alt_L },
  };
  GtkNative *native = gtk_widget_get_native (widget);
  Display *xdisplay = x_display_of (widget);
  KeyCode code = XKeysymToKeycode (xdisplay, keysym);

  g_assert_nonnull (native);
  g_assert_cmpuint (code, !=, 0);

  /* No window manager under Xvfb: the keyboard goes where it is put
   * (a window shown with an old timestamp may not have it). */
  {
    Window xid = gdk_x11_surface_get_xid (gtk_native_get_surface (native));
    Window focus = None;
    int revert;

    XGetInputFocus (xdisplay, &focus, &revert);
    if (focus != xid)
      {
        XSetInputFocus (xdisplay, xid, RevertToParent, CurrentTime);
        XSync (xdisplay, False);
        ui_spin_ms (50);
      }
    if (GTK_IS_WINDOW (native))
      g_assert_true (ui_wait_for (window_is_active, native, SHOW_SECONDS));
  }

  for (guint i = 0; i < G_N_ELEMENTS (modifiers); i++)
    if (mods & modifiers[i].mask)
      XTestFakeKeyEvent (xdisplay, XKeysymToKeycode (xdisplay, modifiers[i].keysym), True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay, code, False, CurrentTime);
  for (guint i = G_N_ELEMENTS (modifiers); i > 0; i--)
    if (mods & modifiers[i - 1].mask)
      XTestFakeKeyEvent (xdisplay, XKeysymToKeycode (xdisplay, modifiers[i - 1].keysym), False,
                         CurrentTime);
  XSync (xdisplay, False);
  ui_spin_ms (40);
}

gboolean
ui_pointer_cleared (gpointer data)
{
  return *(gpointer *) data == NULL;
}

void
ui_close_window (GtkWindow *window)
{
  gpointer weak = window;

  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_destroy (window);
  g_assert_true (ui_wait_for (ui_pointer_cleared, &weak, 20));
}

gpointer
ui_template_child (GtkWidget  *widget,
                   GType       type,
                   const char *name)
{
  GObject *child = gtk_widget_get_template_child (widget, type, name);

  g_assert_nonnull (child);
  return child;
}
