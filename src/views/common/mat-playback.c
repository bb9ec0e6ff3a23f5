/* mat-playback.c - one playback clock
 *
 * The time is whole milliseconds; the fraction a frame leaves over is
 * kept for the next one, so a slow speed still advances. The tick
 * callback exists only while playing (and while there is a widget to
 * tick from).
 */
#include "config.h"

#include <math.h>

#include "mat-playback.h"

#define SPEED_MIN 0.25
#define SPEED_MAX 4.0

struct _MatPlayback
{
  GObject    parent_instance;

  gboolean   playing;
  guint32    time;
  double     speed;
  gboolean   loop;
  guint32    period;
  gboolean   wrap;

  GtkWidget *widget;        /* weak */
  guint      tick_id;
  gint64     last_frame_time;
  double     fraction;      /* ms not yet added to "time" */
  guint64    stop_at;       /* loop off: where playback ends, 0: nowhere */
};

G_DEFINE_FINAL_TYPE (MatPlayback, mat_playback, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PLAYING,
  PROP_TIME,
  PROP_SPEED,
  PROP_LOOP,
  PROP_PERIOD,
  PROP_WRAP,
  PROP_WIDGET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_FRAME,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
update_stop_point (MatPlayback *self)
{
  if (self->loop || self->period == 0)
    self->stop_at = 0;
  else
    self->stop_at = ((guint64) self->time / self->period + 1) * self->period;
}

static void
set_time_internal (MatPlayback *self,
                   guint32      time_ms)
{
  if (self->time == time_ms)
    return;
  self->time = time_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME]);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  MatPlayback *self = MAT_PLAYBACK (data);
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  double elapsed;

  if (self->last_frame_time == 0 || now < self->last_frame_time)
    {
      self->last_frame_time = now;
      return G_SOURCE_CONTINUE;
    }
  elapsed = (double) (now - self->last_frame_time) / 1000.0;
  self->last_frame_time = now;

  g_object_ref (self);
  mat_playback_advance (self, elapsed);
  g_object_unref (self);
  return G_SOURCE_CONTINUE;
}

static void
remove_tick (MatPlayback *self)
{
  if (self->tick_id != 0 && self->widget != NULL)
    gtk_widget_remove_tick_callback (self->widget, self->tick_id);
  self->tick_id = 0;
}

/* A tick callback exactly while playing with a widget. */
static void
update_tick (MatPlayback *self)
{
  if (self->playing && self->widget != NULL)
    {
      if (self->tick_id == 0)
        {
          self->last_frame_time = 0;
          self->tick_id = gtk_widget_add_tick_callback (self->widget, on_tick, self, NULL);
        }
    }
  else
    remove_tick (self);
}

static void
widget_gone (gpointer  data,
             GObject  *where_the_object_was)
{
  MatPlayback *self = data;

  /* its tick callbacks went with it */
  self->widget = NULL;
  self->tick_id = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WIDGET]);
}

void
mat_playback_advance (MatPlayback *self,
                      double       elapsed_ms)
{
  guint64 next, step;
  gboolean stop = FALSE;

  g_return_if_fail (MAT_IS_PLAYBACK (self));

  if (!self->playing)
    return;
  if (!(elapsed_ms >= 0))
    elapsed_ms = 0;

  g_signal_emit (self, signals[SIGNAL_FRAME], 0, elapsed_ms);
  if (!self->playing)
    return;   /* a "frame" handler paused it */

  self->fraction += elapsed_ms * self->speed;
  step = (guint64) floor (self->fraction);
  self->fraction -= (double) step;
  next = (guint64) self->time + step;
  if (self->stop_at > 0 && next >= self->stop_at)
    {
      next = self->stop_at;
      stop = TRUE;
    }
  else if (self->wrap && self->period > 0)
    next %= self->period;

  set_time_internal (self, (guint32) (next & G_MAXUINT32));
  if (stop)
    mat_playback_set_playing (self, FALSE);
}

/* ---- GObject ---------------------------------------------------------- */

static void
mat_playback_dispose (GObject *object)
{
  mat_playback_set_widget (MAT_PLAYBACK (object), NULL);

  G_OBJECT_CLASS (mat_playback_parent_class)->dispose (object);
}

static void
mat_playback_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  MatPlayback *self = MAT_PLAYBACK (object);

  switch (prop_id)
    {
    case PROP_PLAYING: g_value_set_boolean (value, self->playing); break;
    case PROP_TIME: g_value_set_uint (value, self->time); break;
    case PROP_SPEED: g_value_set_double (value, self->speed); break;
    case PROP_LOOP: g_value_set_boolean (value, self->loop); break;
    case PROP_PERIOD: g_value_set_uint (value, self->period); break;
    case PROP_WRAP: g_value_set_boolean (value, self->wrap); break;
    case PROP_WIDGET: g_value_set_object (value, self->widget); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_playback_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  MatPlayback *self = MAT_PLAYBACK (object);

  switch (prop_id)
    {
    case PROP_PLAYING: mat_playback_set_playing (self, g_value_get_boolean (value)); break;
    case PROP_TIME: mat_playback_set_time (self, g_value_get_uint (value)); break;
    case PROP_SPEED: mat_playback_set_speed (self, g_value_get_double (value)); break;
    case PROP_LOOP: mat_playback_set_loop (self, g_value_get_boolean (value)); break;
    case PROP_PERIOD: mat_playback_set_period (self, g_value_get_uint (value)); break;
    case PROP_WRAP: mat_playback_set_wrap (self, g_value_get_boolean (value)); break;
    case PROP_WIDGET: mat_playback_set_widget (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_playback_class_init (MatPlaybackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mat_playback_dispose;
  object_class->get_property = mat_playback_get_property;
  object_class->set_property = mat_playback_set_property;

  properties[PROP_PLAYING] =
    g_param_spec_boolean ("playing", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME] =
    g_param_spec_uint ("time", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, SPEED_MIN, SPEED_MAX, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOOP] =
    g_param_spec_boolean ("loop", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PERIOD] =
    g_param_spec_uint ("period", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WRAP] =
    g_param_spec_boolean ("wrap", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WIDGET] =
    g_param_spec_object ("widget", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_FRAME] =
    g_signal_new ("frame", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_DOUBLE);
}

static void
mat_playback_init (MatPlayback *self)
{
  self->speed = 1.0;
  self->loop = TRUE;
}

/* ---- public API ------------------------------------------------------- */

MatPlayback *
mat_playback_new (void)
{
  return g_object_new (MAT_TYPE_PLAYBACK, NULL);
}

gboolean
mat_playback_get_playing (MatPlayback *self)
{
  g_return_val_if_fail (MAT_IS_PLAYBACK (self), FALSE);
  return self->playing;
}

void
mat_playback_set_playing (MatPlayback *self,
                          gboolean     playing)
{
  g_return_if_fail (MAT_IS_PLAYBACK (self));

  playing = !!playing;
  if (self->playing == playing)
    return;
  self->playing = playing;
  self->fraction = 0;
  update_stop_point (self);
  update_tick (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

guint
mat_playback_get_time (MatPlayback *self)
{
  g_return_val_if_fail (MAT_IS_PLAYBACK (self), 0);
  return self->time;
}

void
mat_playback_set_time (MatPlayback *self,
                       guint        time_ms)
{
  g_return_if_fail (MAT_IS_PLAYBACK (self));

  self->fraction = 0;
  set_time_internal (self, time_ms);
  update_stop_point (self);
}

double
mat_playback_get_speed (MatPlayback *self)
{
  g_return_val_if_fail (MAT_IS_PLAYBACK (self), 1.0);
  return self->speed;
}

void
mat_playback_set_speed (MatPlayback *self,
                        double       speed)
{
  g_return_if_fail (MAT_IS_PLAYBACK (self));

  speed = isnan (speed) ? 1.0 : CLAMP (speed, SPEED_MIN, SPEED_MAX);
  if (self->speed == speed)
    return;
  self->speed = speed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

gboolean
mat_playback_get_loop (MatPlayback *self)
{
  g_return_val_if_fail (MAT_IS_PLAYBACK (self), TRUE);
  return self->loop;
}

void
mat_playback_set_loop (MatPlayback *self,
                       gboolean     loop)
{
  g_return_if_fail (MAT_IS_PLAYBACK (self));

  loop = !!loop;
  if (self->loop == loop)
    return;
  self->loop = loop;
  update_stop_point (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOOP]);
}

guint
mat_playback_get_period (MatPlayback *self)
{
  g_return_val_if_fail (MAT_IS_PLAYBACK (self), 0);
  return self->period;
}

void
mat_playback_set_period (MatPlayback *self,
                         guint        period_ms)
{
  g_return_if_fail (MAT_IS_PLAYBACK (self));

  if (self->period == period_ms)
    return;
  self->period = period_ms;
  update_stop_point (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PERIOD]);
}

gboolean
mat_playback_get_wrap (MatPlayback *self)
{
  g_return_val_if_fail (MAT_IS_PLAYBACK (self), FALSE);
  return self->wrap;
}

void
mat_playback_set_wrap (MatPlayback *self,
                       gboolean     wrap)
{
  g_return_if_fail (MAT_IS_PLAYBACK (self));

  wrap = !!wrap;
  if (self->wrap == wrap)
    return;
  self->wrap = wrap;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WRAP]);
}

GtkWidget *
mat_playback_get_widget (MatPlayback *self)
{
  g_return_val_if_fail (MAT_IS_PLAYBACK (self), NULL);
  return self->widget;
}

void
mat_playback_set_widget (MatPlayback *self,
                         GtkWidget   *widget)
{
  g_return_if_fail (MAT_IS_PLAYBACK (self));
  g_return_if_fail (widget == NULL || GTK_IS_WIDGET (widget));

  if (self->widget == widget)
    return;
  remove_tick (self);
  if (self->widget != NULL)
    g_object_weak_unref (G_OBJECT (self->widget), widget_gone, self);
  self->widget = widget;
  if (widget != NULL)
    g_object_weak_ref (G_OBJECT (widget), widget_gone, self);
  update_tick (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WIDGET]);
}
