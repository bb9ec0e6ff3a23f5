/* mat-timeline-private.h - test hooks
 *
 * The code paths of the gestures. Not part of the widget's interface: only
 * mat-timeline.c, the tests and the benchmarks include this header.
 */
#pragma once

#include "mat-timeline.h"

G_BEGIN_DECLS

/* For tests and the benchmark: run the code paths of the widget's own
 * gestures. A drag from (@x, @y) by (@dx, @dy) with @state held (begin,
 * one update per call of _update, end); a click (@n_press, @button). The
 * key handling goes through the actions and their shortcuts. */
void          mat_timeline_test_drag_begin    (MatTimeline    *self,
                                               double          x,
                                               double          y,
                                               GdkModifierType state);
void          mat_timeline_test_drag_update   (MatTimeline    *self,
                                               double          dx,
                                               double          dy);
void          mat_timeline_test_drag_end      (MatTimeline    *self,
                                               double          dx,
                                               double          dy);
void          mat_timeline_test_drag          (MatTimeline    *self,
                                               double          x,
                                               double          y,
                                               double          dx,
                                               double          dy,
                                               GdkModifierType state);
void          mat_timeline_test_click         (MatTimeline    *self,
                                               double          x,
                                               double          y,
                                               guint           n_press,
                                               guint           button,
                                               GdkModifierType state);
void          mat_timeline_test_scroll        (MatTimeline    *self,
                                               double          dy,
                                               GdkModifierType state);

G_END_DECLS
