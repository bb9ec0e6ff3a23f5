/* ui-screen.c - what is on the screen: a widget's pixels read back from
 * the composited window */
#include "config.h"

#include <string.h>

#include <gdk/x11/gdkx.h>
#include <X11/Xutil.h>

#include "ui-screen.h"
#include "ui-support.h"

typedef struct {
  guint painted;
} PaintCount;

static void
count_paint (GdkFrameClock *clock,
             PaintCount    *count)
{
  count->painted++;
}

void
ui_screen_wait_painted (GtkWidget *widget,
                        guint      n_frames)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GdkFrameClock *clock;
  PaintCount count = { 0 };
  gulong handler;

  g_assert_nonnull (native);
  clock = gdk_surface_get_frame_clock (gtk_native_get_surface (native));
  g_assert_nonnull (clock);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint), &count);
  for (guint i = 0; i < 200 && count.painted < n_frames; i++)
    {
      /* a frame is painted only when something asks for one */
      gtk_widget_queue_draw (GTK_WIDGET (native));
      ui_spin_ms (10);
    }
  g_signal_handler_disconnect (clock, handler);
  g_assert_cmpuint (count.painted, >=, n_frames);
  /* the drawing requests of those frames have reached the server */
  XSync (gdk_x11_display_get_xdisplay (gtk_widget_get_display (widget)), False);
}

/* The bits of @mask, as a shift and a width. */
static void
mask_shift (unsigned long  mask,
            guint         *shift,
            guint         *bits)
{
  *shift = 0;
  *bits = 0;
  while (mask != 0 && (mask & 1) == 0)
    {
      mask >>= 1;
      (*shift)++;
    }
  while (mask & 1)
    {
      mask >>= 1;
      (*bits)++;
    }
}

static guint8
channel_of (unsigned long pixel,
            guint         shift,
            guint         bits)
{
  unsigned long v = (pixel >> shift) & ((1ul << bits) - 1);

  return bits >= 8 ? (guint8) (v >> (bits - 8)) : (guint8) (v * 255 / ((1ul << bits) - 1));
}

GdkTexture *
ui_screen_grab (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  GtkNative *native = gtk_widget_get_native (widget);
  Display *xdisplay;
  Window root, child;
  graphene_point_t point;
  double surface_x, surface_y;
  int root_x, root_y, width, height;
  XImage *image;
  guint shift[3], bits[3];
  g_autoptr(GBytes) bytes = NULL;
  guint8 *pixels;

  g_assert_true (GDK_IS_X11_DISPLAY (display));
  g_assert_nonnull (native);
  xdisplay = gdk_x11_display_get_xdisplay (display);
  root = DefaultRootWindow (xdisplay);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  g_assert_cmpint (gtk_widget_get_scale_factor (widget), ==, 1);

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native),
                                           &GRAPHENE_POINT_INIT (0, 0), &point));
  gtk_native_get_surface_transform (native, &surface_x, &surface_y);
  XTranslateCoordinates (xdisplay, gdk_x11_surface_get_xid (gtk_native_get_surface (native)),
                         root, (int) (point.x + surface_x + 0.5), (int) (point.y + surface_y + 0.5),
                         &root_x, &root_y, &child);
  XSync (xdisplay, False);
  image = XGetImage (xdisplay, root, root_x, root_y, (unsigned) width, (unsigned) height,
                     AllPlanes, ZPixmap);
  g_assert_nonnull (image);
  mask_shift (image->red_mask, &shift[0], &bits[0]);
  mask_shift (image->green_mask, &shift[1], &bits[1]);
  mask_shift (image->blue_mask, &shift[2], &bits[2]);
  g_assert_cmpuint (bits[0], >, 0);

  pixels = g_malloc ((gsize) width * height * 4);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        unsigned long pixel = XGetPixel (image, x, y);
        guint8 *o = pixels + ((gsize) y * width + x) * 4;

        for (guint c = 0; c < 3; c++)
          o[c] = channel_of (pixel, shift[c], bits[c]);
        o[3] = 255;
      }
  XDestroyImage (image);
  bytes = g_bytes_new_take (pixels, (gsize) width * height * 4);
  return gdk_memory_texture_new (width, height, GDK_MEMORY_R8G8B8A8, bytes, (gsize) width * 4);
}

GdkTexture *
ui_screen_render_toplevel (GtkWidget *widget)
{
  GtkNative *native = gtk_widget_get_native (widget);
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;
  graphene_rect_t bounds;
  int width, height;

  g_assert_nonnull (native);
  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (native), &bounds));
  paintable = gtk_widget_paintable_new (GTK_WIDGET (native));
  width = gtk_widget_get_width (GTK_WIDGET (native));
  height = gtk_widget_get_height (GTK_WIDGET (native));
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  return gsk_renderer_render_texture (gtk_native_get_renderer (native), node, &bounds);
}

void
ui_texture_pixel (GdkTexture *texture,
                  int         x,
                  int         y,
                  guint8      rgba[4])
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint8 *data = NULL;
  guint8 bgra[4];

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, width);
  g_assert_cmpint (y, <, height);
  /* gdk_texture_download gives premultiplied B, G, R, A in memory */
  data = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, data, (gsize) width * 4);
  memcpy (bgra, data + ((gsize) y * width + x) * 4, 4);
  rgba[0] = bgra[2];
  rgba[1] = bgra[1];
  rgba[2] = bgra[0];
  rgba[3] = bgra[3];
}
