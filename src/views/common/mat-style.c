/* mat-style.c - the editor's one style sheet */
#include "config.h"

#include "mat-style.h"

void
mat_style_ensure (void)
{
  static GtkCssProvider *provider;
  GdkDisplay *display = gdk_display_get_default ();

  if (provider != NULL || display == NULL)
    return;

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/io/github/parkan/MatEdit/style.css");
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}
