/* ui-screen.h - what is on the screen: a widget's pixels read back from
 * the composited window, never from a GL framebuffer */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Lets the window of @widget paint @n_frames more frames (its frame
 * clock's "after-paint"), then waits for the X server to have drawn
 * them. */
void         ui_screen_wait_painted    (GtkWidget     *widget,
                                        guint          n_frames);

/* The pixels of @widget's rectangle as the X server shows them: read
 * from the root window of the (Xvfb) screen, as `import -window root`
 * reads it, so whatever GTK composited there (a GL area's alpha over
 * the window included) is what comes back. Call ui_screen_wait_painted
 * first. Returns: (transfer full): @widget's width x height, opaque. */
GdkTexture  *ui_screen_grab            (GtkWidget     *widget);

/* @widget's rectangle of its toplevel as the toplevel's own renderer
 * draws the toplevel's snapshot: what the window presents.
 * Returns: (transfer full). */
GdkTexture  *ui_screen_render_toplevel (GtkWidget     *widget);

/* The pixel (@x, @y) of @texture (from the top left), RGBA8. */
void         ui_texture_pixel          (GdkTexture    *texture,
                                        int            x,
                                        int            y,
                                        guint8         rgba[4]);

G_END_DECLS
