/* test-renderer.c - the windows are drawn with cairo when OpenGL is software
 *
 * Run without GSK_RENDERER, under Xvfb, where OpenGL is Mesa's llvmpipe:
 * the editor's choice is then cairo, and a window shows it, the GL preview
 * included. (On a GPU the choice is GTK's, and the renderer is not cairo.)
 */
#include "config.h"

#include <epoxy/gl.h>

#include "mat-preview.h"
#include "mat-gsk-renderer-private.h"
#include "ui-support.h"

static void
test_names (void)
{
  g_assert_true (mat_gsk_renderer_is_software ("llvmpipe (LLVM 15.0.6, 256 bits)"));
  g_assert_true (mat_gsk_renderer_is_software ("softpipe"));
  g_assert_true (mat_gsk_renderer_is_software ("SWR (LLVM 12.0.0, 256 bits)"));
  g_assert_false (mat_gsk_renderer_is_software ("AMD Radeon RX 6600 (navi23, LLVM 15.0.6, DRM 3.49)"));
  g_assert_false (mat_gsk_renderer_is_software ("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
  g_assert_false (mat_gsk_renderer_is_software ("NVIDIA GeForce GTX 1060/PCIe/SSE2"));
  g_assert_false (mat_gsk_renderer_is_software (NULL));
}

static void
test_choice (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  g_autofree char *gl_name = mat_gsk_renderer_dup_gl_name (display);
  gboolean software;
  g_autoptr(GBytes) bytes = ui_demo_bytes ();
  g_autoptr(MatLibrary) library = ui_library_new (bytes);
  GtkWidget *preview;
  GtkWindow *window;
  GskRenderer *renderer;

  /* Xvfb with Mesa: there is OpenGL */
  g_assert_nonnull (gl_name);
  g_test_message ("OpenGL renderer: %s", gl_name);
  software = mat_gsk_renderer_is_software (gl_name);

  /* the name asked of GLX, without a context, is the one a context reads
   * (Xvfb's GLX is Mesa's, which answers) */
  {
    g_autoptr(GdkGLContext) context = gdk_display_create_gl_context (display, NULL);
    g_autofree char *glx_name = _mat_gsk_renderer_dup_glx_name (display);

    g_assert_cmpstr (glx_name, ==, gl_name);

    g_assert_nonnull (context);
    g_assert_true (gdk_gl_context_realize (context, NULL));
    gdk_gl_context_make_current (context);
    g_assert_cmpstr (gl_name, ==, (const char *) glGetString (GL_RENDERER));
    gdk_gl_context_clear_current ();
  }

  /* a renderer named by the user is left alone */
  g_setenv ("GSK_RENDERER", "ngl", TRUE);
  g_assert_null (mat_gsk_renderer_choose (display));
  g_assert_null (g_object_get_data (G_OBJECT (display), "gsk-renderer"));
  g_unsetenv ("GSK_RENDERER");

  if (software)
    g_assert_cmpstr (mat_gsk_renderer_choose (display), ==, "cairo");
  else
    g_assert_null (mat_gsk_renderer_choose (display));

  /* the window, and the GL preview in it, drawn through that renderer */
  preview = mat_preview_new ();
  mat_preview_set_material (MAT_PREVIEW (preview), ui_find_material (library, "LAVA_FLOW"));
  window = ui_show (preview, NULL, 480, 420);
  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  g_assert_nonnull (renderer);
  g_test_message ("window renderer: %s", G_OBJECT_TYPE_NAME (renderer));
  g_assert_cmpint (GSK_IS_CAIRO_RENDERER (renderer), ==, software);
  ui_screenshot (GTK_WIDGET (window), "renderer-window.png");
  g_assert_null (mat_preview_get_error (MAT_PREVIEW (preview)));
  g_assert_cmpuint (mat_preview_get_n_renders (MAT_PREVIEW (preview)), >, 0);
  gtk_window_destroy (window);
}

int
main (int   argc,
      char *argv[])
{
  g_unsetenv ("GSK_RENDERER");
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/renderer/names", test_names);
  g_test_add_func ("/ui/renderer/choice", test_choice);

  return g_test_run ();
}
