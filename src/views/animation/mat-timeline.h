/* mat-timeline.h - the keys of one animation block on a time ruler */
#pragma once

#include <gtk/gtk.h>

#include "mat-anim-block.h"

G_BEGIN_DECLS

#define MAT_TYPE_TIMELINE (mat_timeline_get_type ())

G_DECLARE_FINAL_TYPE (MatTimeline, mat_timeline, MAT, TIMELINE, GtkWidget)

/* Properties:
 *   "block"     MatAnimBlock*  the block shown (%NULL: nothing)
 *   "position"  uint           the time the track has played, ms (bind
 *                              it to a preview's "time"); the playhead
 *                              stands where the evaluator is at that
 *                              time (phase_eval_position (): a ping-pong
 *                              runs back, once holds at the end)
 *   "random-offset" uint       R of mode 3 (bind it to a preview's): a
 *                              random track's playhead is at R % period
 *   "zoom"      double         pixels per second (5 .. 5000)
 *   "selected-key" int         the focused key, -1 for none
 *   "details"   string         one line about the selection (read-only)
 * It is a GtkScrollable: put it straight into a GtkScrolledWindow; it
 * scrolls itself, so nothing but the user and the zoom moves the view.
 * Signals:
 *   "scrubbed" (guint position): the user moved the playhead (a click
 *   on the ruler or a drag of the playhead); "position" is already set.
 * Actions (with their keys while the timeline has the focus):
 *   timeline.select-previous / -next (Left / Right), -first / -last
 *   (Home / End), -none (Escape); timeline.nudge "(ib)": (direction,
 *   carry the later keys) by the snapping grid (Alt+Left / Alt+Right,
 *   with Shift the later keys move too); timeline.step-phase "i" (Up /
 *   Down); timeline.delete (Delete); timeline.insert (Insert, at the
 *   playhead); timeline.edit (Return, F2: the key popover, its time
 *   field focused); timeline.zoom-fit (0, Ctrl+0); timeline.zoom-in /
 *   zoom-out (plus / minus).
 *
 * Keys sit at their times as the game reads them (formats.md 2.3): key
 * k's k1 is the time its interval ends; its interval is drawn from the
 * previous key's time (0 for key 0) to its own, and the period is the
 * last key's time. Every edit goes through the model; a gesture is one
 * undo step and changes exactly the k1 values the user sees move. k2 is
 * shown and never changed. */
GtkWidget    *mat_timeline_new                (void);
MatAnimBlock *mat_timeline_get_block          (MatTimeline  *self);
void          mat_timeline_set_block          (MatTimeline  *self,
                                               MatAnimBlock *block);
guint         mat_timeline_get_position       (MatTimeline  *self);
void          mat_timeline_set_position       (MatTimeline  *self,
                                               guint         position);
guint         mat_timeline_get_random_offset  (MatTimeline  *self);
void          mat_timeline_set_random_offset  (MatTimeline  *self,
                                               guint         random_offset);
/* Where the playhead stands, ms from the period's start (0 .. period):
 * the position of "position" in the block's period. */
guint         mat_timeline_get_playhead       (MatTimeline  *self);
double        mat_timeline_get_zoom           (MatTimeline  *self);
void          mat_timeline_set_zoom           (MatTimeline  *self,
                                               double        zoom);
void          mat_timeline_zoom_in            (MatTimeline  *self);
void          mat_timeline_zoom_out           (MatTimeline  *self);
/* The whole period (and any key past it) in view, from 0 ms. */
void          mat_timeline_zoom_to_fit        (MatTimeline  *self);
/* How far the view is scrolled, in pixels (the hadjustment's value). */
double        mat_timeline_get_offset         (MatTimeline  *self);
/* The snapping grid at the current zoom, ms (50 at 200 px/s). */
guint         mat_timeline_get_grid           (MatTimeline  *self);

/* The selection: @key -1 clears it; with @extend the key is toggled in a
 * multi-selection (as Ctrl+click does). */
int           mat_timeline_get_selected_key   (MatTimeline  *self);
void          mat_timeline_select_key         (MatTimeline  *self,
                                               int           key,
                                               gboolean      extend);
gboolean      mat_timeline_is_key_selected    (MatTimeline  *self,
                                               guint         key);
guint         mat_timeline_get_n_selected     (MatTimeline  *self);

/* Widget coordinates of a time (ms) on the track, and back (the scroll
 * offset included). */
double        mat_timeline_time_to_x          (MatTimeline  *self,
                                               double        ms);
double        mat_timeline_x_to_time          (MatTimeline  *self,
                                               double        x);
/* The vertical centre of the key track and of the ruler (for tests and
 * the benchmark). */
double        mat_timeline_get_track_y        (MatTimeline  *self);
double        mat_timeline_get_ruler_y        (MatTimeline  *self);

/* The text the tooltip shows at (@x, @y), %NULL for none.
 * Returns: (transfer full) (nullable). */
char         *mat_timeline_dup_tooltip_text   (MatTimeline    *self,
                                               double          x,
                                               double          y);
/* The key popover while open, else %NULL; its spin button (named
 * "key-time") types the key's time, choosing a row of its list (named
 * "phase-list") sets k0. Returns: (transfer none) (nullable). */
GtkPopover   *mat_timeline_get_key_popover    (MatTimeline    *self);
/* The text of the details row (the selected key, with k2).
 * Returns: (transfer none). */
const char   *mat_timeline_get_details        (MatTimeline    *self);

G_END_DECLS
