/* mat-compare-cells.c - the cells of the compare tables */
#include "config.h"

#include "mat-compare-cells.h"
#include "mat-tooltip.h"

GtkWidget *
mat_compare_cell_label (const char *text,
                        float       xalign,
                        const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_widget_add_css_class (label, "cell");
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

GtkWidget *
mat_compare_copy_button (const char *arrow,
                         const char *action,
                         guint       row,
                         const char *tooltip)
{
  GtkWidget *button = gtk_button_new_with_label (arrow);

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "copy-button");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button),
                                          g_variant_new_int32 ((gint32) row));
  mat_tooltip_set_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  return button;
}
