/* mat-wheel.c - the mouse wheel scrolls the page, not the number under it
 *
 * A GtkSpinButton turns every wheel notch over it into a step of its
 * value: a page of spin buttons stops scrolling wherever one passes
 * under the pointer, and changes a value the user did not mean to. A
 * scroll controller in the capture phase, ahead of the spin button's
 * own, hands the wheel to the scrolled window around it unless the spin
 * button has the focus (then the wheel is meant for it).
 */
#include "config.h"

#include <math.h>

#include "mat-wheel.h"

static gboolean
wheel_scroll (GtkEventControllerScroll *controller,
              double                    dx,
              double                    dy,
              gpointer                  user_data)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkWidget *scroller;
  GtkAdjustment *adjustment;
  double delta = dy, step;

  /* focused: the wheel steps the value, as the user asked for it */
  if (gtk_widget_get_state_flags (widget) & GTK_STATE_FLAG_FOCUS_WITHIN)
    return FALSE;

  scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  if (scroller == NULL)
    return TRUE;   /* nothing to scroll, and no value to change by accident */

  if (delta == 0.0)
    {
      adjustment = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller));
      delta = dx;
    }
  else
    adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));

  /* as GtkScrolledWindow scrolls: wheel notches by page^(2/3), pixels as they are */
  if (gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_SURFACE)
    step = 1.0;
  else
    step = pow (gtk_adjustment_get_page_size (adjustment), 2.0 / 3.0);
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + delta * step);

  return TRUE;
}

void
mat_wheel_scrolls_page (GtkWidget *widget)
{
  GtkEventController *controller;

  g_return_if_fail (GTK_IS_WIDGET (widget));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (controller, "mat-wheel-scrolls-page");
  g_signal_connect (controller, "scroll", G_CALLBACK (wheel_scroll), NULL);
  gtk_widget_add_controller (widget, controller);
}
