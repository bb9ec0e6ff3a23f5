/* mat-gsk-renderer.c - how the windows are drawn when OpenGL is software
 *
 * When GSK makes a window's renderer it reads the display's "gsk-renderer"
 * data first, then GSK_RENDERER, then makes its own choice. Only GTK
 * before 4.14 is told anything: later versions leave GL out on llvmpipe
 * themselves and have other renderers to weigh.
 */
#include "config.h"

#include <string.h>

#include <epoxy/gl.h>
#include <gtk/gtk.h>

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#if __has_include (<epoxy/glx.h>)
#include <epoxy/glx.h>
#define HAVE_GLX_QUERY 1
#endif
#endif

#include "mat-gsk-renderer-private.h"

/* A GL context costs a few milliseconds of start-up; GLX answers
 * without one. */
char *
_mat_gsk_renderer_dup_glx_name (GdkDisplay *display)
{
#ifdef HAVE_GLX_QUERY
  Display *xdisplay;
  int screen;
  const char *name;

  if (!GDK_IS_X11_DISPLAY (display))
    return NULL;
  xdisplay = gdk_x11_display_get_xdisplay (display);
  screen = DefaultScreen (xdisplay);
  if (!epoxy_has_glx_extension (xdisplay, screen, "GLX_MESA_query_renderer"))
    return NULL;
  name = glXQueryRendererStringMESA (xdisplay, screen, 0, GLX_RENDERER_DEVICE_ID_MESA);
  return name != NULL && name[0] != '\0' ? g_strdup (name) : NULL;
#else
  return NULL;
#endif
}

char *
mat_gsk_renderer_dup_gl_name (GdkDisplay *display)
{
  g_autoptr(GdkGLContext) context = NULL;
  const char *name;
  char *copy;

  g_return_val_if_fail (GDK_IS_DISPLAY (display), NULL);

  copy = _mat_gsk_renderer_dup_glx_name (display);
  if (copy != NULL)
    return copy;

  context = gdk_display_create_gl_context (display, NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    return NULL;

  gdk_gl_context_make_current (context);
  name = (const char *) glGetString (GL_RENDERER);
  copy = g_strdup (name);
  gdk_gl_context_clear_current ();

  return copy;
}

gboolean
mat_gsk_renderer_is_software (const char *gl_name)
{
  static const char * const software[] = { "llvmpipe", "softpipe", "SWR" };

  if (gl_name == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (software); i++)
    if (strstr (gl_name, software[i]) != NULL)
      return TRUE;

  return FALSE;
}

const char *
mat_gsk_renderer_choose (GdkDisplay *display)
{
  g_autofree char *gl_name = NULL;
  const char *wanted = g_getenv ("GSK_RENDERER");

  g_return_val_if_fail (GDK_IS_DISPLAY (display), NULL);

  if (wanted != NULL && wanted[0] != '\0')
    return NULL;   /* the user's choice */
  if (gtk_get_major_version () > 4 || gtk_get_minor_version () >= 14)
    return NULL;   /* GTK makes this choice itself */

  gl_name = mat_gsk_renderer_dup_gl_name (display);
  if (!mat_gsk_renderer_is_software (gl_name))
    return NULL;   /* a GPU, or no OpenGL (GTK falls back to cairo then) */

  g_object_set_data (G_OBJECT (display), "gsk-renderer", (gpointer) "cairo");
  g_debug ("OpenGL is %s, in software: windows are drawn with cairo", gl_name);
  return "cairo";
}
