/* mat-playback.h - one playback clock: what plays, where it is, how fast
 *
 * A MatPlayback is the time of an animation being watched. Whoever shows
 * it gives it a widget whose frame clock advances it (a tick callback
 * that exists only while playing); every view that shows the same
 * animation follows the one clock through notify::time, so the preview
 * and both sides of a comparison stay in step frame by frame.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MAT_TYPE_PLAYBACK (mat_playback_get_type ())

G_DECLARE_FINAL_TYPE (MatPlayback, mat_playback, MAT, PLAYBACK, GObject)

/* Properties:
 *   "playing"  boolean   the frame clock advances "time"
 *   "time"     uint      milliseconds (the evaluator's now - start)
 *   "speed"    double    0.25 .. 4.0 (1.0 = real time)
 *   "loop"     boolean   default %TRUE; when off, playback stops at the
 *                        end of the period it is in
 *   "period"   uint      the length of one period in ms, 0: none (then
 *                        "loop" and "wrap" do nothing); who shows a block
 *                        sets its cycle (phase_eval_cycle (): a ping-pong
 *                        there and back)
 *   "wrap"     boolean   default %FALSE; when on, the time stays inside
 *                        one period: it goes back to 0 at its end
 * The time is the track's elapsed time, never a position in it: where
 * each block stands at that time is phase_eval_position ()'s answer.
 *   "widget"   GtkWidget* (weak) whose frame clock advances the time
 * Signals:
 *   "frame" (double elapsed_ms): a frame of playback, emitted before the
 *   time moves on; @elapsed_ms is real time since the last frame (not
 *   scaled by the speed). */
MatPlayback *mat_playback_new          (void);

gboolean     mat_playback_get_playing  (MatPlayback *self);
void         mat_playback_set_playing  (MatPlayback *self,
                                        gboolean     playing);
guint        mat_playback_get_time     (MatPlayback *self);
/* Sets the time; while playing with loop off, the stop point moves to
 * the end of the period that holds the new time. */
void         mat_playback_set_time     (MatPlayback *self,
                                        guint        time_ms);
double       mat_playback_get_speed    (MatPlayback *self);
/* Clamped to 0.25 .. 4.0. */
void         mat_playback_set_speed    (MatPlayback *self,
                                        double       speed);
gboolean     mat_playback_get_loop     (MatPlayback *self);
void         mat_playback_set_loop     (MatPlayback *self,
                                        gboolean     loop);
guint        mat_playback_get_period   (MatPlayback *self);
void         mat_playback_set_period   (MatPlayback *self,
                                        guint        period_ms);
gboolean     mat_playback_get_wrap     (MatPlayback *self);
void         mat_playback_set_wrap     (MatPlayback *self,
                                        gboolean     wrap);
/* Returns: (transfer none) (nullable). */
GtkWidget   *mat_playback_get_widget   (MatPlayback *self);
/* @widget (nullable): the clock ticks from its frame clock from now on;
 * the playback does not keep it alive. */
void         mat_playback_set_widget   (MatPlayback *self,
                                        GtkWidget   *widget);

/* Advances the clock by @elapsed_ms of real time as one frame would
 * (emits "frame", then moves the time by @elapsed_ms times the speed,
 * stopping or wrapping at the period). Does nothing when not playing.
 * The tick callback calls it; tests may too. */
void         mat_playback_advance      (MatPlayback *self,
                                        double       elapsed_ms);

G_END_DECLS
