/* mat-tooltip.c - tooltips set without asking where the pointer is */
#include "config.h"

#include "mat-tooltip.h"

/* whether @widget holds the keyboard focus of its window, or contains
 * the widget that does: hiding it would move the focus away */
static gboolean
holds_focus (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

void
mat_tooltip_set_text (GtkWidget  *widget,
                      const char *text)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (text != NULL && text[0] == '\0')
    text = NULL;   /* GTK's reading of an empty tooltip */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), text) == 0)
    return;
  if (gtk_widget_get_mapped (widget) || !gtk_widget_get_visible (widget) || holds_focus (widget))
    {
      gtk_widget_set_tooltip_text (widget, text);
      return;
    }
  gtk_widget_set_visible (widget, FALSE);
  gtk_widget_set_tooltip_text (widget, text);
  gtk_widget_set_visible (widget, TRUE);
}

/* In init, after gtk_widget_init_template(): the children are not on
 * screen yet, so mat_tooltip_set_text() asks the display nothing. */
void
mat_tooltip_init_template (GtkWidget             *widget,
                           GType                  widget_type,
                           const MatTooltipEntry *entries,
                           gsize                  n_entries)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  for (gsize i = 0; i < n_entries; i++)
    {
      GObject *child = gtk_widget_get_template_child (widget, widget_type, entries[i].child);

      if (!GTK_IS_WIDGET (child))
        {
          g_critical ("%s: %s has no template child “%s”", G_STRFUNC, g_type_name (widget_type),
                      entries[i].child);
          continue;
        }
      mat_tooltip_set_text (GTK_WIDGET (child), g_dgettext (GETTEXT_PACKAGE, entries[i].text));
    }
}
