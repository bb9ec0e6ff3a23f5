/* mat-timeline.c - the keys of one animation block on a time ruler
 *
 * A custom widget drawn with GtkSnapshot: a time ruler, the segments
 * between consecutive key starts shaded by what the block blends, the
 * keys as handles in their phase's diffuse colour, the cycle end (where
 * the blend closes back to the first key) and a playhead.
 *
 * Keys sit at their cumulative start times: start[0] = 0 and
 * start[k + 1] = start[k] + k1[k]. Moving the start of key k changes the
 * durations of keys k - 1 and k (their sum stays); with Shift everything
 * after it moves along and only key k - 1's duration changes. A move of
 * any set of keys is the same computation: every key carries a "moved"
 * flag, the duration of key i changes by (moved[i + 1] - moved[i]) * dt,
 * and dt is clamped so that no duration leaves 0..65535. Only k1 (and,
 * when asked, k0) is ever written; k2 is shown and kept.
 *
 * Input comes from event controllers only; the test hooks at the end call
 * the same handlers the controllers call.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "phase-eval.h"
#include "mat-library.h"
#include "mat-timeline.h"
#include "mat-style.h"

#define PAD_X          22.0
#define RULER_H        28.0
#define TRACK_TOP      44.0
#define TRACK_H        34.0
#define CAPTION_TOP    (TRACK_TOP + TRACK_H + 10.0)
#define CAPTION_H      16.0
#define WIDGET_H       (CAPTION_TOP + CAPTION_H + 8.0)
#define KEY_HALF       13.0   /* half the diagonal of a key handle */
#define SNAP_PX        6.0
#define DRAG_THRESHOLD 4.0
#define PHASE_STEP_PX  18.0

#define ZOOM_MIN       20.0
#define ZOOM_MAX       5000.0
#define ZOOM_DEFAULT   200.0
#define ZOOM_STEP      1.25

typedef enum {
  DRAG_NONE,
  DRAG_SCRUB,
  DRAG_PENDING_KEY,    /* pressed on a key, direction not decided */
  DRAG_MOVE,           /* retiming */
  DRAG_PHASE,          /* vertical: choosing k0 */
  DRAG_PENDING_EMPTY,  /* pressed on the empty track: click or rubber band */
  DRAG_RUBBER,
} DragMode;

struct _MatTimeline
{
  GtkWidget     parent_instance;

  MatAnimBlock *block;
  GSignalGroup *material_signals;

  guint         position;
  double        zoom;

  /* the block as last read from the model */
  guint         n_keys;
  guint16      *k0;
  guint16      *k1;
  guint16      *k2;
  guint32      *starts;       /* n_keys + 1: starts[n_keys] is the cycle */

  /* selection: one flag per key; focus is the key the details describe */
  gboolean     *selected;
  int           focus;

  /* the current gesture */
  DragMode      drag_mode;
  int           drag_key;     /* 0..n_keys (n_keys: the cycle end) */
  double        drag_x;
  double        drag_y;
  double        drag_dx;
  double        drag_dy;
  GdkModifierType drag_state;
  gboolean      drag_grouped;
  gboolean      drag_was_selected;
  guint16      *drag_k1;      /* durations when the move began */
  guint32      *drag_starts;
  guint16       drag_k0;
  gboolean     *rubber_base;  /* selection before a Ctrl rubber band */
  gint64        drag_time;    /* the dragged key's start now, for the label */

  GtkPopover   *popover;
  int           popover_key;

  char         *details;

  /* zoom around a point: applied after the next allocation */
  gboolean      anchor_pending;
  double        anchor_time;
  double        anchor_x;     /* in the scrolled window's viewport */
};

G_DEFINE_FINAL_TYPE (MatTimeline, mat_timeline, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_BLOCK,
  PROP_POSITION,
  PROP_ZOOM,
  PROP_SELECTED_KEY,
  PROP_DETAILS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SCRUBBED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];



/* ---- model access ------------------------------------------------------ */

static MatMaterial *
shown_material (MatTimeline *self)
{
  return self->block != NULL ? mat_anim_block_get_material (self->block) : NULL;
}

static MatHistory *
history (MatTimeline *self)
{
  MatMaterial *material = shown_material (self);
  MatLibrary *library = material != NULL ? mat_material_get_library (material) : NULL;

  return library != NULL ? mat_library_get_history (library) : NULL;
}

static MatKey *
key_at (MatTimeline *self,
        guint        i)
{
  GListModel *keys = mat_anim_block_get_keys (self->block);
  MatKey *key = g_list_model_get_item (keys, i);

  if (key != NULL)
    g_object_unref (key);   /* the block holds it */
  return key;
}

static guint
n_phases (MatTimeline *self)
{
  MatMaterial *material = shown_material (self);

  return material != NULL ? g_list_model_get_n_items (mat_material_get_phases (material)) : 0;
}

static MatPhase *
phase_at (MatTimeline *self,
          guint        i)
{
  MatMaterial *material = shown_material (self);
  MatPhase *phase;

  if (material == NULL || i >= g_list_model_get_n_items (mat_material_get_phases (material)))
    return NULL;
  phase = g_list_model_get_item (mat_material_get_phases (material), i);
  if (phase != NULL)
    g_object_unref (phase);
  return phase;
}

static gboolean
editable (MatTimeline *self)
{
  MatMaterial *material = shown_material (self);

  return material != NULL && mat_material_get_editable (material) && history (self) != NULL;
}

static guint32
cycle (MatTimeline *self)
{
  return self->starts != NULL ? self->starts[self->n_keys] : 0;
}

static void
begin_group (MatTimeline *self,
             const char  *label)
{
  MatHistory *h = history (self);

  if (h != NULL)
    mat_history_begin_group (h, label);
}

static void
end_group (MatTimeline *self)
{
  MatHistory *h = history (self);

  if (h != NULL)
    mat_history_end_group (h);
}

static void
report_error (MatTimeline  *self,
              const GError *error)
{
  if (error != NULL)
    g_warning ("Timeline edit failed: %s", error->message);
}

/* ---- text -------------------------------------------------------------- */

static const struct {
  guint32     bit;
  const char *name;
} blend_names[] = {
  { PHASE_EVAL_BLEND_AMBIENT_RGB,  N_("Ambient RGB") },
  { PHASE_EVAL_BLEND_DIFFUSE_RGB,  N_("Diffuse RGB") },
  { PHASE_EVAL_BLEND_SPECULAR_RGB, N_("Specular RGB") },
  { PHASE_EVAL_BLEND_EMISSIVE_RGB, N_("Emissive RGB") },
  { PHASE_EVAL_BLEND_AMBIENT_A,    N_("Ambient alpha") },
};

/* Returns: (transfer full): the blended fields, comma separated. */
static char *
blend_list (guint32 mask)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (blend_names); i++)
    if (mask & blend_names[i].bit)
      {
        if (s->len > 0)
          g_string_append (s, ", ");
        g_string_append (s, _(blend_names[i].name));
      }
  if (s->len == 0)
    g_string_append (s, _("nothing (each key's phase is held)"));
  return g_string_free (s, FALSE);
}

/* Returns: (transfer full). */
static char *
format_time (gint64 ms)
{
  guint v = (guint) CLAMP (ms, 0, G_MAXUINT);

  if (v != 0 && v % 1000 == 0)
    return g_strdup_printf (_("%u s"), v / 1000);
  if (v >= 1000)
    return g_strdup_printf (_("%g s"), v / 1000.0);
  return g_strdup_printf (_("%u ms"), v);
}

/* Returns: (transfer full): one key described, k2 included. */
static char *
describe_key (MatTimeline *self,
              guint        k)
{
  guint np = n_phases (self);

  if (self->k0[k] >= np)
    return g_strdup_printf (_("Key %u: missing phase %u (the material has %u phases), "
                              "starts %u ms, lasts %u ms, k2 = %u (kept as stored)"),
                            k, self->k0[k], np, self->starts[k], self->k1[k], self->k2[k]);
  return g_strdup_printf (_("Key %u: phase %u, starts %u ms, lasts %u ms, k2 = %u (kept as stored)"),
                          k, self->k0[k], self->starts[k], self->k1[k], self->k2[k]);
}

static guint
count_selected (MatTimeline *self)
{
  guint n = 0;

  for (guint i = 0; i < self->n_keys; i++)
    n += self->selected[i] ? 1 : 0;
  return n;
}

static void
update_details (MatTimeline *self)
{
  g_autofree char *text = NULL;
  guint n_sel = count_selected (self);

  if (self->block == NULL)
    text = g_strdup (_("No animation block"));
  else if (self->n_keys == 0)
    text = g_strdup (_("No keys — click to add one"));
  else if (self->focus >= 0 && (guint) self->focus < self->n_keys)
    {
      g_autofree char *key = describe_key (self, self->focus);

      if (n_sel > 1)
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u key selected; %s",
                                             "%u keys selected; %s", n_sel),
                                n_sel, key);
      else
        text = g_steal_pointer (&key);
    }
  else if (cycle (self) == 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u key, zero-length cycle: every key lasts 0 ms",
                                         "%u keys, zero-length cycle: every key lasts 0 ms",
                                         self->n_keys),
                            self->n_keys);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u key, cycle %u ms. Click the track to add a key, drag a key to retime it.",
                                         "%u keys, cycle %u ms. Click the track to add a key, drag a key to retime it.",
                                         self->n_keys),
                            self->n_keys, cycle (self));

  if (g_strcmp0 (text, self->details) != 0)
    {
      g_free (self->details);
      self->details = g_steal_pointer (&text);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->details,
                                      -1);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DETAILS]);
    }
}

/* ---- geometry ---------------------------------------------------------- */

double
mat_timeline_time_to_x (MatTimeline *self,
                        double       ms)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), 0.0);

  return PAD_X + ms * self->zoom / 1000.0;
}

double
mat_timeline_x_to_time (MatTimeline *self,
                        double       x)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), 0.0);

  return (x - PAD_X) * 1000.0 / self->zoom;
}

double
mat_timeline_get_track_y (MatTimeline *self)
{
  return TRACK_TOP + TRACK_H / 2.0;
}

double
mat_timeline_get_ruler_y (MatTimeline *self)
{
  return RULER_H / 2.0;
}

guint
mat_timeline_get_grid (MatTimeline *self)
{
  static const guint steps[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000 };

  g_return_val_if_fail (MAT_IS_TIMELINE (self), 50);

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] * self->zoom / 1000.0 >= 10.0 - 1e-9)
      return steps[i];
  return 10000;
}

/* The extent drawn: the cycle and some room after it, ms. */
static double
content_ms (MatTimeline *self)
{
  double c = cycle (self);

  return MAX (MAX (c + MAX (c * 0.15, 400.0), 2000.0), 0.0);
}

static double
key_x (MatTimeline *self,
       guint        k)
{
  return mat_timeline_time_to_x (self, self->starts[k]);
}

/* The key under (x, y): the topmost (highest index) hit, or -1. The cycle
 * end is n_keys, hit on its grip in the caption lane. */
static int
hit_key (MatTimeline *self,
         double       x,
         double       y)
{
  double cy = mat_timeline_get_track_y (self);

  if (self->block == NULL || self->n_keys == 0)
    return -1;
  for (guint i = self->n_keys; i > 0; i--)
    {
      guint k = i - 1;

      if (fabs (x - key_x (self, k)) + fabs (y - cy) <= KEY_HALF + 2.0)
        return k;
    }
  if (y >= TRACK_TOP && y <= CAPTION_TOP + CAPTION_H &&
      fabs (x - key_x (self, self->n_keys)) <= 7.0 &&
      (y > TRACK_TOP + TRACK_H || cycle (self) > 0))
    return self->n_keys;
  return -1;
}

static double
playhead_ms (MatTimeline *self)
{
  guint32 c = cycle (self);

  return c > 0 ? (double) (self->position % c) : 0.0;
}

/* ---- colours ----------------------------------------------------------- */

static void
lookup_color (GtkWidget  *widget,
              const char *name,
              const char *fallback_name,
              const char *fallback,
              GdkRGBA    *out)
{
  gboolean found;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GtkStyleContext *context = gtk_widget_get_style_context (widget);

  found = gtk_style_context_lookup_color (context, name, out) ||
          (fallback_name != NULL && gtk_style_context_lookup_color (context, fallback_name, out));
  G_GNUC_END_IGNORE_DEPRECATIONS

  if (!found)
    gdk_rgba_parse (out, fallback);
}

static void
foreground (GtkWidget *widget,
            GdkRGBA   *out)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), out);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static GdkRGBA
with_alpha (const GdkRGBA *c,
            float          alpha)
{
  GdkRGBA out = *c;

  out.alpha *= alpha;
  return out;
}

typedef struct {
  GdkRGBA fg;
  GdkRGBA accent;
  GdkRGBA accent_fg;
  GdkRGBA warning;
  GdkRGBA view_bg;
} Palette;

static void
palette_get (GtkWidget *widget,
             Palette   *p)
{
  foreground (widget, &p->fg);
  lookup_color (widget, "accent_bg_color", "theme_selected_bg_color", "#3584e4", &p->accent);
  lookup_color (widget, "accent_fg_color", "theme_selected_fg_color", "#ffffff", &p->accent_fg);
  lookup_color (widget, "warning_color", NULL, "#c88800", &p->warning);
  lookup_color (widget, "view_bg_color", "theme_base_color", "#ffffff", &p->view_bg);
}

static GdkRGBA
rgb8 (const guint8 *p)
{
  GdkRGBA c = { p[0] / 255.0f, p[1] / 255.0f, p[2] / 255.0f, 1.0f };

  return c;
}

/* The diffuse colour of a key's phase (p4..p6); FALSE when missing. */
static gboolean
key_color (MatTimeline *self,
           guint        k,
           GdkRGBA     *out)
{
  MatPhase *phase = phase_at (self, self->k0[k]);

  if (phase == NULL)
    return FALSE;
  *out = rgb8 (mat_phase_get_params (phase) + 4);
  return TRUE;
}

/* The colour a segment shows for a phase: the first field group the mask
 * blends (diffuse first), else diffuse. */
static gboolean
blend_color (MatTimeline *self,
             guint16      phase_index,
             guint32      mask,
             GdkRGBA     *out)
{
  MatPhase *phase = phase_at (self, phase_index);
  const guint8 *p;

  if (phase == NULL)
    return FALSE;
  p = mat_phase_get_params (phase);
  if (mask & PHASE_EVAL_BLEND_DIFFUSE_RGB)
    *out = rgb8 (p + 4);
  else if (mask & PHASE_EVAL_BLEND_AMBIENT_RGB)
    *out = rgb8 (p + 0);
  else if (mask & PHASE_EVAL_BLEND_SPECULAR_RGB)
    *out = rgb8 (p + 8);
  else if (mask & PHASE_EVAL_BLEND_EMISSIVE_RGB)
    *out = rgb8 (p + 12);
  else if (mask & PHASE_EVAL_BLEND_AMBIENT_A)
    {
      float v = CLAMP (p[3] * 0.01f, 0.0f, 1.0f);
      GdkRGBA grey = { v, v, v, 1.0f };

      *out = grey;
    }
  else
    *out = rgb8 (p + 4);
  return TRUE;
}

static gboolean
is_dark (const GdkRGBA *c)
{
  return 0.2126 * c->red + 0.7152 * c->green + 0.0722 * c->blue < 0.55;
}

/* ---- model -> widget --------------------------------------------------- */

static void
cancel_drag (MatTimeline *self)
{
  if (self->drag_grouped)
    end_group (self);
  self->drag_grouped = FALSE;
  self->drag_mode = DRAG_NONE;
  g_clear_pointer (&self->drag_k1, g_free);
  g_clear_pointer (&self->drag_starts, g_free);
  g_clear_pointer (&self->rubber_base, g_free);
}

static void
resync (MatTimeline *self)
{
  guint n = self->block != NULL ? mat_anim_block_get_n_keys (self->block) : 0;
  guint32 old_cycle = cycle (self);
  gboolean same_count = self->starts != NULL && n == self->n_keys;

  if (!same_count)
    {
      if (self->drag_mode == DRAG_MOVE || self->drag_mode == DRAG_PHASE ||
          self->drag_mode == DRAG_PENDING_KEY || self->drag_mode == DRAG_RUBBER)
        cancel_drag (self);
      g_free (self->selected);
      self->selected = g_new0 (gboolean, n + 1);
      if (self->focus >= (int) n)
        self->focus = n > 0 ? (int) n - 1 : -1;
      if (self->focus >= 0)
        self->selected[self->focus] = TRUE;
      self->k0 = g_renew (guint16, self->k0, n + 1);
      self->k1 = g_renew (guint16, self->k1, n + 1);
      self->k2 = g_renew (guint16, self->k2, n + 1);
      self->starts = g_renew (guint32, self->starts, n + 1);
    }
  self->n_keys = n;
  self->starts[0] = 0;
  for (guint i = 0; i < n; i++)
    {
      MatKey *key = key_at (self, i);

      self->k0[i] = mat_key_get_k0 (key);
      self->k1[i] = mat_key_get_k1 (key);
      self->k2[i] = mat_key_get_k2 (key);
      self->starts[i + 1] = self->starts[i] + self->k1[i];
    }

  if (cycle (self) != old_cycle || !same_count)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_details (self);
}

static void
on_material_changed (MatTimeline *self)
{
  if (self->block != NULL && mat_anim_block_get_material (self->block) == NULL)
    {
      /* The block was removed: show nothing until it comes back (undo). */
      resync (self);
      return;
    }
  resync (self);
}

/* ---- selection --------------------------------------------------------- */

static void
set_focus_key (MatTimeline *self,
               int          key)
{
  if (self->focus == key)
    return;
  self->focus = key;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_KEY]);
}

static void
select_only (MatTimeline *self,
             int          key)
{
  for (guint i = 0; i < self->n_keys; i++)
    self->selected[i] = (int) i == key;
  set_focus_key (self, key >= 0 && (guint) key < self->n_keys ? key : -1);
  update_details (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
toggle_selected (MatTimeline *self,
                 guint        key)
{
  if (key >= self->n_keys)
    return;
  self->selected[key] = !self->selected[key];
  if (self->selected[key])
    set_focus_key (self, key);
  else if (self->focus == (int) key)
    {
      int next = -1;

      for (guint i = 0; i < self->n_keys; i++)
        if (self->selected[i])
          next = i;
      set_focus_key (self, next);
    }
  update_details (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- edits ------------------------------------------------------------- */

/* The dt that keeps every duration within 0..65535 when the keys flagged
 * in @moved (n + 1 flags, the last one the cycle end) move by @dt. */
static gint64
clamp_move (const guint16  *k1,
            const gboolean *moved,
            guint           n,
            gint64          dt)
{
  gint64 lo = -G_MAXINT32;
  gint64 hi = G_MAXINT32;

  for (guint i = 0; i < n; i++)
    {
      int diff = (moved[i + 1] ? 1 : 0) - (moved[i] ? 1 : 0);

      if (diff > 0)
        {
          lo = MAX (lo, -(gint64) k1[i]);
          hi = MIN (hi, (gint64) G_MAXUINT16 - k1[i]);
        }
      else if (diff < 0)
        {
          hi = MIN (hi, (gint64) k1[i]);
          lo = MAX (lo, (gint64) k1[i] - G_MAXUINT16);
        }
    }
  if (lo > hi)
    return 0;
  return CLAMP (dt, lo, hi);
}

/* Writes the durations of the move (from @k1, the durations before it);
 * only changed k1 values are set. */
static void
apply_move (MatTimeline    *self,
            const guint16  *k1,
            const gboolean *moved,
            guint           n,
            gint64          dt)
{
  for (guint i = 0; i < n; i++)
    {
      int diff = (moved[i + 1] ? 1 : 0) - (moved[i] ? 1 : 0);
      gint64 value = (gint64) k1[i] + diff * dt;
      MatKey *key;
      g_autoptr(GError) error = NULL;

      if (i >= self->n_keys)
        break;
      key = key_at (self, i);
      if (key == NULL || value < 0 || value > G_MAXUINT16 || mat_key_get_k1 (key) == value)
        continue;
      if (!mat_key_set_k1 (key, (guint16) value, &error))
        report_error (self, error);
    }
}

/* The moved flags of a drag of @key: the selection when @key is part of a
 * multi-selection, else @key; with @shift everything after the first moved
 * key too. Key 0 always starts at 0. Returns: (transfer full). */
static gboolean *
moved_flags (MatTimeline *self,
             guint        key,
             gboolean     shift)
{
  guint n = self->n_keys;
  gboolean *moved = g_new0 (gboolean, n + 1);
  guint first = n + 1;

  if (key < n && self->selected[key] && count_selected (self) > 1)
    {
      for (guint i = 1; i < n; i++)
        moved[i] = self->selected[i];
    }
  else if (key <= n && key > 0)
    moved[key] = TRUE;

  for (guint i = 1; i <= n; i++)
    if (moved[i])
      {
        first = i;
        break;
      }
  if (shift && first <= n)
    for (guint i = first; i <= n; i++)
      moved[i] = TRUE;
  return moved;
}

static gboolean
any_moved (const gboolean *moved,
           guint           n)
{
  for (guint i = 0; i <= n; i++)
    if (moved[i])
      return TRUE;
  return FALSE;
}

/* Snaps a time: to the starts of the keys that stay (the cycle end too)
 * within SNAP_PX, else to the grid. */
static gint64
snap_time (MatTimeline    *self,
           double          t,
           const guint32  *starts,
           const gboolean *moved,
           gboolean        grid)
{
  double best = -1.0;
  double best_d = SNAP_PX * 1000.0 / self->zoom;
  guint g;

  for (guint i = 0; i <= self->n_keys; i++)
    {
      double d;

      if (moved != NULL && moved[i])
        continue;
      d = fabs (t - starts[i]);
      if (d <= best_d)
        {
          best_d = d;
          best = starts[i];
        }
    }
  if (best >= 0.0)
    return (gint64) best;
  if (!grid)
    return (gint64) floor (t + 0.5);
  g = mat_timeline_get_grid (self);
  return (gint64) floor (t / g + 0.5) * g;
}

static void
move_begin (MatTimeline *self)
{
  g_free (self->drag_k1);
  g_free (self->drag_starts);
  self->drag_k1 = g_memdup2 (self->k1, sizeof (guint16) * (self->n_keys + 1));
  self->drag_starts = g_memdup2 (self->starts, sizeof (guint32) * (self->n_keys + 1));
}

/* One step of a retiming drag: the dragged key to time @t. */
static void
move_update (MatTimeline    *self,
             double          t,
             GdkModifierType state)
{
  g_autofree gboolean *moved = NULL;
  gboolean shift = (state & GDK_SHIFT_MASK) != 0;
  gboolean no_snap = (state & GDK_ALT_MASK) != 0;
  gint64 target, dt;
  guint key = self->drag_key;

  if (self->drag_k1 == NULL || key > self->n_keys)
    return;
  moved = moved_flags (self, key, shift);
  if (!any_moved (moved, self->n_keys))
    return;

  target = snap_time (self, MAX (t, 0.0), self->drag_starts, moved, !no_snap);
  dt = clamp_move (self->drag_k1, moved, self->n_keys, target - (gint64) self->drag_starts[key]);
  self->drag_time = (gint64) self->drag_starts[key] + dt;
  apply_move (self, self->drag_k1, moved, self->n_keys, dt);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Moves the selection by @dt ms (arrow keys): one undo step. */
static void
nudge (MatTimeline *self,
       gint64       dt,
       gboolean     shift_rest)
{
  g_autofree gboolean *moved = NULL;
  g_autofree guint16 *k1 = NULL;
  gint64 clamped;

  if (self->focus < 0 || !editable (self))
    return;
  moved = moved_flags (self, self->focus, shift_rest);
  if (!any_moved (moved, self->n_keys))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  k1 = g_memdup2 (self->k1, sizeof (guint16) * (self->n_keys + 1));
  clamped = clamp_move (k1, moved, self->n_keys, dt);
  if (clamped == 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  begin_group (self, _("Move Keys"));
  apply_move (self, k1, moved, self->n_keys, clamped);
  end_group (self);
}

/* Adds a key at time @t: the segment containing it is split, the new key
 * takes the phase of the key before it and every other key keeps its
 * start. An empty block gets its first key. One undo step. */
static void
add_key_at (MatTimeline *self,
            double       t_raw)
{
  g_autoptr(GError) error = NULL;
  gint64 t;
  guint seg = 0;
  guint32 seg_end;
  MatKey *key;
  guint16 left;

  if (!editable (self))
    return;

  if (self->n_keys == 0)
    {
      if (mat_anim_block_insert_key (self->block, 0, 0, 1000, &error) == NULL)
        report_error (self, error);
      else
        select_only (self, 0);
      return;
    }

  t = snap_time (self, MAX (t_raw, 0.0), self->starts, NULL, TRUE);
  if (t <= 0 || t >= cycle (self))
    t = (gint64) floor (t_raw + 0.5);
  if (t <= 0 || t >= cycle (self))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  for (guint i = 0; i < self->n_keys; i++)
    if (self->starts[i] <= t && t < self->starts[i + 1])
      seg = i;
  if (self->starts[seg] == t)
    return;
  seg_end = self->starts[seg + 1];
  left = (guint16) (t - self->starts[seg]);

  begin_group (self, _("Add Key"));
  key = mat_anim_block_insert_key (self->block, seg + 1, self->k0[seg],
                                   (guint16) (seg_end - t), &error);
  if (key != NULL)
    mat_key_set_k1 (key_at (self, seg), left, &error);
  end_group (self);
  if (error != NULL)
    report_error (self, error);
  else
    select_only (self, seg + 1);
}

/* Removes the selected keys: the duration of a removed key goes to the
 * key before it, so the others keep their starts. One undo step. */
static void
delete_selected (MatTimeline *self)
{
  g_autofree gboolean *sel = NULL;
  guint n = self->n_keys;
  int first = -1;

  if (!editable (self) || count_selected (self) == 0)
    return;
  sel = g_memdup2 (self->selected, sizeof (gboolean) * (n + 1));

  begin_group (self, g_dngettext (GETTEXT_PACKAGE, "Delete Key", "Delete Keys",
                                  count_selected (self)));
  for (guint i = n; i > 0; i--)
    {
      guint k = i - 1;
      g_autoptr(GError) error = NULL;

      if (!sel[k])
        continue;
      first = k;
      if (k > 0 && k < self->n_keys)
        {
          /* (when the key before goes too, it passes the sum further down) */
          guint32 sum = (guint32) self->k1[k - 1] + self->k1[k];

          if (!mat_key_set_k1 (key_at (self, k - 1), (guint16) MIN (sum, G_MAXUINT16), &error))
            report_error (self, error);
          g_clear_error (&error);
        }
      if (k < self->n_keys && !mat_anim_block_remove_key (self->block, k, &error))
        report_error (self, error);
    }
  end_group (self);

  if (self->n_keys > 0 && first >= 0)
    select_only (self, MIN ((guint) MAX (first - 1, 0), self->n_keys - 1));
  else
    select_only (self, -1);
}

static void
set_phase (MatTimeline *self,
           guint        k,
           guint16      phase)
{
  g_autoptr(GError) error = NULL;
  MatKey *key;

  if (!editable (self) || k >= self->n_keys)
    return;
  key = key_at (self, k);
  if (key != NULL && !mat_key_set_k0 (key, phase, &error))
    report_error (self, error);
}

/* Up/Down: the phase of every selected key one up or down. */
static void
step_phase (MatTimeline *self,
            int          delta)
{
  guint np = n_phases (self);

  if (!editable (self) || np == 0 || count_selected (self) == 0)
    return;
  begin_group (self, _("Change Key Phase"));
  for (guint i = 0; i < self->n_keys; i++)
    if (self->selected[i])
      {
        int value = MIN ((int) self->k0[i], (int) np - 1) + delta;

        set_phase (self, i, (guint16) CLAMP (value, 0, (int) np - 1));
      }
  end_group (self);
}

static void
scrub_to (MatTimeline *self,
          double       x)
{
  double t = mat_timeline_x_to_time (self, x);
  guint32 c = cycle (self);
  guint pos;

  t = MAX (t, 0.0);
  if (c > 0)
    t = MIN (t, (double) c);
  else
    t = 0.0;
  pos = (guint) floor (t + 0.5);
  mat_timeline_set_position (self, pos);
  g_signal_emit (self, signals[SCRUBBED], 0, pos);
}

/* ---- the phase popover ------------------------------------------------- */

static void
swatch_draw (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        data)
{
  const GdkRGBA *c = data;
  double r = 4.0;

  cairo_new_sub_path (cr);
  cairo_arc (cr, width - r - 0.5, r + 0.5, r, -G_PI / 2, 0);
  cairo_arc (cr, width - r - 0.5, height - r - 0.5, r, 0, G_PI / 2);
  cairo_arc (cr, r + 0.5, height - r - 0.5, r, G_PI / 2, G_PI);
  cairo_arc (cr, r + 0.5, r + 0.5, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
  gdk_cairo_set_source_rgba (cr, c);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.35);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
}

static void
on_phase_row_activated (GtkListBox    *box,
                        GtkListBoxRow *row,
                        MatTimeline   *self)
{
  int phase = gtk_list_box_row_get_index (row);
  int key = self->popover_key;

  if (self->popover != NULL)
    gtk_popover_popdown (self->popover);
  if (key < 0 || (guint) key >= self->n_keys || phase < 0 || (guint) phase >= n_phases (self))
    return;
  begin_group (self, _("Change Key Phase"));
  set_phase (self, key, (guint16) phase);
  end_group (self);
}

static void
on_popover_closed (GtkPopover  *popover,
                   MatTimeline *self)
{
  self->popover_key = -1;
}

static void
open_phase_popover (MatTimeline *self,
                    guint        key)
{
  GtkWidget *box, *list, *title;
  guint np = n_phases (self);
  double x;
  GdkRectangle rect;
  g_autofree char *heading = NULL;

  if (key >= self->n_keys || !editable (self))
    return;
  if (self->popover == NULL)
    {
      self->popover = GTK_POPOVER (gtk_popover_new ());
      gtk_widget_set_parent (GTK_WIDGET (self->popover), GTK_WIDGET (self));
      g_signal_connect_object (self->popover, "closed", G_CALLBACK (on_popover_closed), self, 0);
    }

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  heading = g_strdup_printf (_("Phase of key %u"), key);
  title = gtk_label_new (heading);
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0.0);
  gtk_widget_set_margin_start (title, 6);
  gtk_box_append (GTK_BOX (box), title);

  list = gtk_list_box_new ();
  gtk_widget_set_name (list, "phase-list");
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (list), TRUE);
  gtk_widget_add_css_class (list, "boxed-list");
  for (guint i = 0; i < np; i++)
    {
      MatPhase *phase = phase_at (self, i);
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
      GtkWidget *swatch = gtk_drawing_area_new ();
      GtkWidget *label, *hex;
      GdkRGBA *c = g_new (GdkRGBA, 1);
      const guint8 *p = mat_phase_get_params (phase);
      g_autofree char *text = g_strdup_printf (_("Phase %u"), i);
      g_autofree char *rgb = g_strdup_printf (_("diffuse #%02X%02X%02X"), p[4], p[5], p[6]);

      *c = rgb8 (p + 4);
      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 28);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 18);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), swatch_draw, c, g_free);
      gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
      label = gtk_label_new (text);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_widget_set_hexpand (label, TRUE);
      hex = gtk_label_new (rgb);
      gtk_widget_add_css_class (hex, "dim-label");
      gtk_widget_add_css_class (hex, "caption");
      gtk_box_append (GTK_BOX (row), swatch);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (GTK_BOX (row), hex);
      if (self->k0[key] == i)
        gtk_box_append (GTK_BOX (row), gtk_image_new_from_icon_name ("object-select-symbolic"));
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }
  g_signal_connect_object (list, "row-activated", G_CALLBACK (on_phase_row_activated), self, 0);
  gtk_box_append (GTK_BOX (box), list);
  if (self->k0[key] >= np)
    {
      g_autofree char *missing = g_strdup_printf (_("Now: missing phase %u"), self->k0[key]);
      GtkWidget *warn = gtk_label_new (missing);

      gtk_widget_add_css_class (warn, "warning");
      gtk_box_append (GTK_BOX (box), warn);
    }
  gtk_popover_set_child (self->popover, box);

  x = key_x (self, key);
  rect.x = (int) floor (x - KEY_HALF);
  rect.y = (int) floor (mat_timeline_get_track_y (self) - KEY_HALF);
  rect.width = (int) (2 * KEY_HALF);
  rect.height = (int) (2 * KEY_HALF);
  gtk_popover_set_pointing_to (self->popover, &rect);
  self->popover_key = key;
  gtk_popover_popup (self->popover);
}

/* ---- gestures ---------------------------------------------------------- */

static void
drag_begin (MatTimeline    *self,
            double          x,
            double          y,
            GdkModifierType state)
{
  int key;

  cancel_drag (self);
  self->drag_x = x;
  self->drag_y = y;
  self->drag_dx = 0;
  self->drag_dy = 0;
  self->drag_state = state;
  self->drag_key = -1;

  if (self->block == NULL)
    return;
  if (y < RULER_H)
    {
      self->drag_mode = DRAG_SCRUB;
      scrub_to (self, x);
      return;
    }

  key = hit_key (self, x, y);
  if (key >= 0)
    {
      self->drag_key = key;
      self->drag_mode = DRAG_PENDING_KEY;
      if ((guint) key < self->n_keys)
        {
          self->drag_was_selected = self->selected[key];
          if (state & GDK_CONTROL_MASK)
            toggle_selected (self, key);
          else if (!self->selected[key])
            select_only (self, key);
          else
            {
              set_focus_key (self, key);
              update_details (self);
            }
        }
      return;
    }

  if (cycle (self) > 0 && y <= CAPTION_TOP &&
      fabs (x - mat_timeline_time_to_x (self, playhead_ms (self))) <= 4.0)
    {
      self->drag_mode = DRAG_SCRUB;
      scrub_to (self, x);
      return;
    }

  self->drag_mode = DRAG_PENDING_EMPTY;
}

static void
drag_update (MatTimeline    *self,
             double          dx,
             double          dy,
             GdkModifierType state)
{
  self->drag_dx = dx;
  self->drag_dy = dy;
  self->drag_state = state;

  switch (self->drag_mode)
    {
    case DRAG_SCRUB:
      scrub_to (self, self->drag_x + dx);
      break;

    case DRAG_PENDING_KEY:
      if (fabs (dx) < DRAG_THRESHOLD && fabs (dy) < DRAG_THRESHOLD)
        break;
      if (!editable (self))
        {
          self->drag_mode = DRAG_NONE;
          break;
        }
      if (fabs (dy) > fabs (dx) * 1.5 && (guint) self->drag_key < self->n_keys)
        {
          self->drag_mode = DRAG_PHASE;
          self->drag_k0 = self->k0[self->drag_key];
          begin_group (self, _("Change Key Phase"));
          self->drag_grouped = TRUE;
        }
      else
        {
          /* keys stacked at one time split in the direction of the drag:
           * left takes the first of them, right the last */
          guint k = self->drag_key;

          if (k < self->n_keys && count_selected (self) <= 1)
            {
              guint32 at = self->starts[k];
              guint pick = k;

              if (dx < 0)
                while (pick > 1 && self->starts[pick - 1] == at)
                  pick--;
              else
                while (pick + 1 < self->n_keys && self->starts[pick + 1] == at)
                  pick++;
              if (pick != k)
                {
                  self->drag_key = pick;
                  select_only (self, pick);
                }
            }
          self->drag_mode = DRAG_MOVE;
          move_begin (self);
          self->drag_time = self->starts[self->drag_key];
          begin_group (self, _("Retime Keys"));
          self->drag_grouped = TRUE;
        }
      drag_update (self, dx, dy, state);
      break;

    case DRAG_MOVE:
      move_update (self,
                   self->drag_starts[self->drag_key] + dx * 1000.0 / self->zoom,
                   state);
      break;

    case DRAG_PHASE:
      {
        guint np = n_phases (self);
        int base = MIN ((int) self->drag_k0, (int) np - 1);
        int steps = (int) floor (-dy / PHASE_STEP_PX + 0.5);
        int value;

        if (np == 0)
          break;
        value = steps == 0 ? self->drag_k0 : CLAMP (base + steps, 0, (int) np - 1);
        if (value != self->k0[self->drag_key])
          set_phase (self, self->drag_key, (guint16) value);
        gtk_widget_queue_draw (GTK_WIDGET (self));
      }
      break;

    case DRAG_PENDING_EMPTY:
      if (fabs (dx) < DRAG_THRESHOLD && fabs (dy) < DRAG_THRESHOLD)
        break;
      self->drag_mode = DRAG_RUBBER;
      self->rubber_base = g_new0 (gboolean, self->n_keys + 1);
      if (self->drag_state & GDK_CONTROL_MASK)
        memcpy (self->rubber_base, self->selected, sizeof (gboolean) * self->n_keys);
      G_GNUC_FALLTHROUGH;

    case DRAG_RUBBER:
      {
        double x0 = MIN (self->drag_x, self->drag_x + dx);
        double x1 = MAX (self->drag_x, self->drag_x + dx);
        int last = -1;

        for (guint i = 0; i < self->n_keys; i++)
          {
            double kx = key_x (self, i);
            gboolean inside = kx >= x0 - 2.0 && kx <= x1 + 2.0;

            self->selected[i] = self->rubber_base[i] || inside;
            if (inside)
              last = i;
          }
        if (last >= 0)
          set_focus_key (self, last);
        else if (self->focus >= 0 && !self->selected[self->focus])
          set_focus_key (self, -1);
        update_details (self);
        gtk_widget_queue_draw (GTK_WIDGET (self));
      }
      break;

    case DRAG_NONE:
    default:
      break;
    }
}

static void
drag_end (MatTimeline *self,
          double       dx,
          double       dy)
{
  DragMode mode = self->drag_mode;

  if (mode == DRAG_SCRUB || mode == DRAG_MOVE || mode == DRAG_PHASE || mode == DRAG_RUBBER)
    drag_update (self, dx, dy, self->drag_state);

  switch (mode)
    {
    case DRAG_PENDING_KEY:
      /* a click on a key of a multi-selection selects only it */
      if (!(self->drag_state & GDK_CONTROL_MASK) && (guint) self->drag_key < self->n_keys &&
          self->drag_was_selected && count_selected (self) > 1)
        select_only (self, self->drag_key);
      break;

    case DRAG_PENDING_EMPTY:
      if (self->drag_y >= TRACK_TOP - 6.0 && self->drag_y <= CAPTION_TOP + CAPTION_H)
        {
          if (!(self->drag_state & GDK_CONTROL_MASK))
            add_key_at (self, mat_timeline_x_to_time (self, self->drag_x));
        }
      else if (!(self->drag_state & GDK_CONTROL_MASK))
        select_only (self, -1);
      break;

    default:
      break;
    }

  cancel_drag (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static GdkModifierType
controller_state (GtkGesture *gesture)
{
  return gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               MatTimeline    *self)
{
  if (!gtk_widget_has_focus (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
  drag_begin (self, x, y, controller_state (GTK_GESTURE (gesture)));
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                MatTimeline    *self)
{
  drag_update (self, dx, dy, controller_state (GTK_GESTURE (gesture)));
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             MatTimeline    *self)
{
  drag_end (self, dx, dy);
}

static void
click_pressed (MatTimeline    *self,
               int             n_press,
               guint           button,
               double          x,
               double          y)
{
  int key = hit_key (self, x, y);

  if (key < 0 || (guint) key >= self->n_keys)
    return;
  if (button == GDK_BUTTON_SECONDARY)
    {
      if (!self->selected[key])
        select_only (self, key);
      open_phase_popover (self, key);
    }
  else if (button == GDK_BUTTON_PRIMARY && n_press == 2)
    open_phase_popover (self, key);
}

static void
on_click_pressed (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  MatTimeline     *self)
{
  click_pressed (self, n_press,
                 gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)), x, y);
}

static void
zoom_at (MatTimeline *self,
         double       zoom,
         double       x)
{
  GtkWidget *sw = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);

  zoom = CLAMP (zoom, ZOOM_MIN, ZOOM_MAX);
  if (zoom == self->zoom)
    return;
  if (sw != NULL)
    {
      GtkAdjustment *adj = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (sw));

      self->anchor_pending = TRUE;
      self->anchor_time = mat_timeline_x_to_time (self, x);
      self->anchor_x = x - gtk_adjustment_get_value (adj);
    }
  mat_timeline_set_zoom (self, zoom);
}

static gboolean
scroll (MatTimeline    *self,
        double          dy,
        GdkModifierType state,
        double          x)
{
  if (!(state & GDK_CONTROL_MASK) || dy == 0)
    return FALSE;
  zoom_at (self, dy < 0 ? self->zoom * ZOOM_STEP : self->zoom / ZOOM_STEP, x);
  return TRUE;
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           MatTimeline              *self)
{
  GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (controller));
  double x = mat_timeline_time_to_x (self, playhead_ms (self));
  double ex, ey;

  if (event != NULL && gdk_event_get_position (event, &ex, &ey))
    {
      graphene_point_t in, out;
      GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
      double nx, ny;

      gtk_native_get_surface_transform (native, &nx, &ny);
      in = GRAPHENE_POINT_INIT (ex - nx, ey - ny);
      if (gtk_widget_compute_point (GTK_WIDGET (native), GTK_WIDGET (self), &in, &out))
        x = out.x;
    }
  return scroll (self, dy,
                 gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller)),
                 x);
}

static gboolean
key_pressed (MatTimeline    *self,
             guint           keyval,
             GdkModifierType state)
{
  gboolean shift = (state & GDK_SHIFT_MASK) != 0;

  switch (keyval)
    {
    case GDK_KEY_Delete:
    case GDK_KEY_KP_Delete:
    case GDK_KEY_BackSpace:
      if (count_selected (self) == 0)
        return FALSE;
      delete_selected (self);
      return TRUE;

    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      {
        gint64 step = shift ? 1 : mat_timeline_get_grid (self);

        if (self->focus < 0)
          return FALSE;
        if (keyval == GDK_KEY_Left || keyval == GDK_KEY_KP_Left)
          step = -step;
        nudge (self, step, (state & GDK_CONTROL_MASK) != 0);
        return TRUE;
      }

    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      if (count_selected (self) == 0)
        return FALSE;
      step_phase (self, keyval == GDK_KEY_Up || keyval == GDK_KEY_KP_Up ? 1 : -1);
      return TRUE;

    case GDK_KEY_Tab:
    case GDK_KEY_KP_Tab:
    case GDK_KEY_ISO_Left_Tab:
      {
        gboolean back = keyval == GDK_KEY_ISO_Left_Tab || shift;
        int next = self->focus < 0 ? (back ? (int) self->n_keys - 1 : 0)
                                   : self->focus + (back ? -1 : 1);

        if (self->n_keys == 0 || next < 0 || next >= (int) self->n_keys)
          return FALSE;   /* let the focus leave the timeline */
        select_only (self, next);
        return TRUE;
      }

    case GDK_KEY_Home:
      if (self->n_keys == 0)
        return FALSE;
      select_only (self, 0);
      return TRUE;

    case GDK_KEY_End:
      if (self->n_keys == 0)
        return FALSE;
      select_only (self, self->n_keys - 1);
      return TRUE;

    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_space:
    case GDK_KEY_Menu:
      if (self->focus < 0)
        return FALSE;
      open_phase_popover (self, self->focus);
      return TRUE;

    case GDK_KEY_Insert:
    case GDK_KEY_KP_Insert:
      add_key_at (self, playhead_ms (self));
      return TRUE;

    case GDK_KEY_Escape:
      if (count_selected (self) == 0)
        return FALSE;
      select_only (self, -1);
      return TRUE;

    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      mat_timeline_zoom_in (self);
      return TRUE;

    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      mat_timeline_zoom_out (self);
      return TRUE;

    default:
      return FALSE;
    }
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                MatTimeline           *self)
{
  return key_pressed (self, keyval, state);
}

static gboolean
on_query_tooltip (GtkWidget   *widget,
                  int          x,
                  int          y,
                  gboolean     keyboard,
                  GtkTooltip  *tooltip,
                  MatTimeline *self)
{
  g_autofree char *text = NULL;
  int key;

  if (self->block == NULL || self->drag_mode != DRAG_NONE)
    return FALSE;
  if (keyboard)
    {
      gtk_tooltip_set_text (tooltip, self->details);
      return TRUE;
    }
  if (y < RULER_H)
    {
      gtk_tooltip_set_text (tooltip, _("Click or drag to move the playhead"));
      return TRUE;
    }
  key = hit_key (self, x, y);
  if (key >= 0 && (guint) key < self->n_keys)
    {
      g_autofree char *desc = describe_key (self, key);

      text = g_strdup_printf (_("%s\nDrag to retime (Shift: move the later keys too), "
                                "drag up or down or double-click to choose the phase"),
                              desc);
    }
  else if (key >= 0)
    text = g_strdup_printf (_("Cycle end, %u ms: the blend closes back to key 0.\n"
                              "Drag to change the last key's duration"),
                            cycle (self));
  else if (self->n_keys > 0 && y >= TRACK_TOP && y <= TRACK_TOP + TRACK_H && cycle (self) > 0)
    {
      double t = mat_timeline_x_to_time (self, x);
      g_autofree char *blends = blend_list (mat_anim_block_get_interp_mask (self->block));

      for (guint i = 0; i < self->n_keys; i++)
        if (self->starts[i] <= t && t < self->starts[i + 1])
          {
            guint next = i + 1 < self->n_keys ? i + 1 : 0;

            text = g_strdup_printf (_("Segment %u: phase %u → phase %u over %u ms\n"
                                      "Blends: %s\nClick to add a key here"),
                                    i, self->k0[i], self->k0[next], self->k1[i], blends);
          }
    }
  else if (self->n_keys == 0)
    text = g_strdup (_("No keys — click to add one"));

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* ---- drawing ----------------------------------------------------------- */

static PangoLayout *
make_layout (MatTimeline *self,
             const char  *text,
             double       scale,
             gboolean     bold)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  PangoAttrList *attrs = pango_attr_list_new ();

  if (scale != 1.0)
    pango_attr_list_insert (attrs, pango_attr_scale_new (scale));
  if (bold)
    pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  return layout;
}

static void
draw_text (GtkSnapshot   *snapshot,
           PangoLayout   *layout,
           double         x,
           double         y,
           const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
text_size (PangoLayout *layout,
           double      *w,
           double      *h)
{
  int pw, ph;

  pango_layout_get_pixel_size (layout, &pw, &ph);
  *w = pw;
  *h = ph;
}

/* A pill with text centred at (cx, cy). */
static void
draw_pill (MatTimeline   *self,
           GtkSnapshot   *snapshot,
           const char    *text,
           double         cx,
           double         cy,
           const GdkRGBA *bg,
           const GdkRGBA *fg,
           double         max_width)
{
  g_autoptr(PangoLayout) layout = make_layout (self, text, PANGO_SCALE_SMALL, TRUE);
  double w, h;
  GskRoundedRect rr;

  text_size (layout, &w, &h);
  if (max_width > 0 && w + 12.0 > max_width)
    return;
  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (cx - w / 2 - 6, cy - h / 2 - 1,
                                                             w + 12, h + 2),
                                   (h + 2) / 2);
  gtk_snapshot_push_rounded_clip (snapshot, &rr);
  gtk_snapshot_append_color (snapshot, bg, &rr.bounds);
  gtk_snapshot_pop (snapshot);
  draw_text (snapshot, layout, cx - w / 2, cy - h / 2, fg);
}

static void
draw_ruler (MatTimeline   *self,
            GtkSnapshot   *snapshot,
            const Palette *pal,
            double         width)
{
  static const guint steps[] = {
    1, 2, 5, 10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000, 20000, 30000, 60000,
  };
  GdkRGBA bg = with_alpha (&pal->fg, 0.045f);
  GdkRGBA line = with_alpha (&pal->fg, 0.18f);
  GdkRGBA tick = with_alpha (&pal->fg, 0.35f);
  GdkRGBA label = with_alpha (&pal->fg, 0.7f);
  guint major = steps[G_N_ELEMENTS (steps) - 1];
  guint minor;
  double end_ms = mat_timeline_x_to_time (self, width);
  guint32 c = cycle (self);

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] * self->zoom / 1000.0 >= 72.0)
      {
        major = steps[i];
        break;
      }
  minor = major % 5 == 0 ? major / 5 : major / 2;
  if (minor == 0)
    minor = 1;

  gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (0, 0, width, RULER_H));
  gtk_snapshot_append_color (snapshot, &line, &GRAPHENE_RECT_INIT (0, RULER_H - 1, width, 1));

  /* the cycle on the ruler */
  if (c > 0)
    {
      GdkRGBA span = with_alpha (&pal->accent, 0.12f);
      double x0 = mat_timeline_time_to_x (self, 0);
      double x1 = mat_timeline_time_to_x (self, c);

      gtk_snapshot_append_color (snapshot, &span, &GRAPHENE_RECT_INIT (x0, RULER_H - 4, x1 - x0, 3));
    }

  for (guint64 t = 0; t <= end_ms; t += minor)
    {
      double x = floor (mat_timeline_time_to_x (self, t)) + 0.5;
      gboolean is_major = t % major == 0;
      double h = is_major ? 9.0 : 4.0;

      gtk_snapshot_append_color (snapshot, is_major ? &tick : &line,
                                 &GRAPHENE_RECT_INIT (x - 0.5, RULER_H - 1 - h, 1, h));
      if (is_major)
        {
          g_autofree char *text = format_time (t);
          g_autoptr(PangoLayout) layout = make_layout (self, text, PANGO_SCALE_SMALL, FALSE);

          draw_text (snapshot, layout, x + 4, 3, &label);
        }
    }
}

static void
draw_hatch (GtkSnapshot   *snapshot,
            double         x,
            double         y,
            double         w,
            double         h,
            const GdkRGBA *color)
{
  cairo_t *cr;

  if (w <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x, y, w, h));
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  gdk_cairo_set_source_rgba (cr, color);
  cairo_set_line_width (cr, 1.5);
  for (double sx = x - h; sx < x + w; sx += 7.0)
    {
      cairo_move_to (cr, sx, y + h);
      cairo_line_to (cr, sx + h, y);
    }
  cairo_stroke (cr);
  cairo_destroy (cr);
}

static void
draw_segments (MatTimeline   *self,
               GtkSnapshot   *snapshot,
               const Palette *pal,
               double         width)
{
  guint32 mask = mat_anim_block_get_interp_mask (self->block);
  gboolean blends = (mask & PHASE_EVAL_BLEND_KNOWN) != 0;
  guint32 c = cycle (self);
  double x0 = mat_timeline_time_to_x (self, 0);
  double x1 = mat_timeline_time_to_x (self, c);
  GskRoundedRect track;
  GdkRGBA outline = with_alpha (&pal->fg, 0.22f);
  GdkRGBA gap = pal->view_bg;
  GdkRGBA pill_bg = { 0, 0, 0, 0.45f };
  GdkRGBA pill_fg = { 1, 1, 1, 1 };

  /* after the cycle: a faint dashed continuation */
  {
    GdkRGBA faint = with_alpha (&pal->fg, 0.12f);
    double y = mat_timeline_get_track_y (self);

    for (double x = x1 + 8; x < width - 4; x += 8)
      gtk_snapshot_append_color (snapshot, &faint, &GRAPHENE_RECT_INIT (x, y - 0.5, 4, 1));
  }

  if (c == 0)
    {
      double w = 220.0;
      GskRoundedRect rr;
      GdkRGBA fill = with_alpha (&pal->warning, 0.10f);
      GdkRGBA border = with_alpha (&pal->warning, 0.6f);
      float widths[4] = { 1, 1, 1, 1 };
      GdkRGBA borders[4] = { border, border, border, border };
      g_autoptr(PangoLayout) layout = make_layout (self, _("Zero-length cycle"), 1.0, TRUE);
      double tw, th;

      text_size (layout, &tw, &th);
      w = MAX (w, tw + 40);
      gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (x0 + KEY_HALF + 8, TRACK_TOP, w, TRACK_H), 6);
      gtk_snapshot_push_rounded_clip (snapshot, &rr);
      gtk_snapshot_append_color (snapshot, &fill, &rr.bounds);
      draw_hatch (snapshot, rr.bounds.origin.x, TRACK_TOP, w, TRACK_H, &(GdkRGBA) { pal->warning.red, pal->warning.green, pal->warning.blue, 0.18f });
      gtk_snapshot_pop (snapshot);
      gtk_snapshot_append_border (snapshot, &rr, widths, borders);
      draw_text (snapshot, layout, x0 + KEY_HALF + 8 + (w - tw) / 2,
                 TRACK_TOP + (TRACK_H - th) / 2, &pal->warning);
      return;
    }

  gsk_rounded_rect_init_from_rect (&track, &GRAPHENE_RECT_INIT (x0, TRACK_TOP, x1 - x0, TRACK_H), 7);
  gtk_snapshot_push_rounded_clip (snapshot, &track);
  for (guint k = 0; k < self->n_keys; k++)
    {
      double sx0 = mat_timeline_time_to_x (self, self->starts[k]);
      double sx1 = mat_timeline_time_to_x (self, self->starts[k + 1]);
      guint next = k + 1 < self->n_keys ? k + 1 : 0;
      GdkRGBA a, b;
      gboolean have_a, have_b;
      graphene_rect_t r;

      if (self->k1[k] == 0)
        continue;
      r = GRAPHENE_RECT_INIT (sx0, TRACK_TOP, sx1 - sx0, TRACK_H);
      have_a = blend_color (self, self->k0[k], mask, &a);
      have_b = blend_color (self, self->k0[next], mask, &b);
      if (!have_a)
        a = pal->warning;
      if (!have_b)
        b = pal->warning;

      if (blends)
        {
          GskColorStop stops[2] = { { 0.0f, a }, { 1.0f, b } };

          gtk_snapshot_append_linear_gradient (snapshot, &r,
                                               &GRAPHENE_POINT_INIT (sx0, 0),
                                               &GRAPHENE_POINT_INIT (sx1, 0),
                                               stops, 2);
        }
      else
        {
          GdkRGBA hatch = is_dark (&a) ? (GdkRGBA) { 1, 1, 1, 0.25f } : (GdkRGBA) { 0, 0, 0, 0.22f };

          gtk_snapshot_append_color (snapshot, &a, &r);
          draw_hatch (snapshot, sx0, TRACK_TOP, sx1 - sx0, TRACK_H, &hatch);
        }
      if (!have_a || !have_b)
        draw_hatch (snapshot, sx0, TRACK_TOP, sx1 - sx0, TRACK_H,
                    &(GdkRGBA) { 0, 0, 0, 0.2f });

      /* the closing segment: a faint veil tells it apart */
      if (k + 1 == self->n_keys && self->n_keys > 1)
        {
          GdkRGBA veil = with_alpha (&pal->view_bg, 0.18f);

          gtk_snapshot_append_color (snapshot, &veil, &r);
        }

      /* a thin separator at each key start */
      if (k > 0)
        gtk_snapshot_append_color (snapshot, &gap, &GRAPHENE_RECT_INIT (sx0 - 1, TRACK_TOP, 2, TRACK_H));

      {
        g_autofree char *text = format_time (self->k1[k]);
        double room = sx1 - sx0 - 2 * KEY_HALF - 8;

        if (room > 0)
          draw_pill (self, snapshot, text, (sx0 + sx1) / 2, mat_timeline_get_track_y (self),
                     &pill_bg, &pill_fg, room);
      }
    }
  gtk_snapshot_pop (snapshot);

  {
    float widths[4] = { 1, 1, 1, 1 };
    GdkRGBA borders[4] = { outline, outline, outline, outline };

    gtk_snapshot_append_border (snapshot, &track, widths, borders);
  }
}

/* A diamond handle at (x, y). */
static void
draw_diamond (GtkSnapshot   *snapshot,
              double         x,
              double         y,
              double         half,
              const GdkRGBA *fill,
              const GdkRGBA *border,
              float          border_width)
{
  double side = half * G_SQRT2;
  GskRoundedRect rr;
  float widths[4] = { border_width, border_width, border_width, border_width };
  GdkRGBA borders[4] = { *border, *border, *border, *border };

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_rotate (snapshot, 45.0f);
  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (-side / 2, -side / 2, side, side), 3.5f);
  if (fill != NULL)
    {
      gtk_snapshot_push_rounded_clip (snapshot, &rr);
      gtk_snapshot_append_color (snapshot, fill, &rr.bounds);
      gtk_snapshot_pop (snapshot);
    }
  if (border_width > 0)
    gtk_snapshot_append_border (snapshot, &rr, widths, borders);
  gtk_snapshot_restore (snapshot);
}

static void
draw_keys (MatTimeline   *self,
           GtkSnapshot   *snapshot,
           const Palette *pal)
{
  double cy = mat_timeline_get_track_y (self);
  guint np = n_phases (self);
  GdkRGBA dark_border = { 0, 0, 0, 0.55f };
  GdkRGBA white = { 1, 1, 1, 1 };
  GdkRGBA black = { 0, 0, 0, 0.87f };
  double last_caption_x = -G_MAXDOUBLE;

  /* the cycle end: a ghost of key 0, where the blend closes */
  if (self->n_keys > 0)
    {
      double ex = key_x (self, self->n_keys);
      GdkRGBA ghost, ghost_border = with_alpha (&pal->fg, 0.55f);
      GdkRGBA grip = with_alpha (&pal->fg, self->drag_key == (int) self->n_keys &&
                                 self->drag_mode == DRAG_MOVE ? 0.8f : 0.35f);
      g_autoptr(PangoLayout) end_label = make_layout (self, _("end"), PANGO_SCALE_X_SMALL, FALSE);
      double tw, th;

      if (!key_color (self, 0, &ghost))
        ghost = pal->warning;
      ghost = with_alpha (&ghost, 0.45f);
      gtk_snapshot_append_color (snapshot, &grip,
                                 &GRAPHENE_RECT_INIT (ex - 1, TRACK_TOP - 4, 2, CAPTION_TOP + CAPTION_H - TRACK_TOP + 4));
      draw_diamond (snapshot, ex, cy, KEY_HALF - 3, &ghost, &ghost_border, 1.0f);
      text_size (end_label, &tw, &th);
      if (cycle (self) > 0)
        {
          GskRoundedRect rr;
          GdkRGBA tab = with_alpha (&pal->fg, 0.08f);

          gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (ex - tw / 2 - 5, CAPTION_TOP, tw + 10, CAPTION_H), 4);
          gtk_snapshot_push_rounded_clip (snapshot, &rr);
          gtk_snapshot_append_color (snapshot, &tab, &rr.bounds);
          gtk_snapshot_pop (snapshot);
          draw_text (snapshot, end_label, ex - tw / 2, CAPTION_TOP + (CAPTION_H - th) / 2,
                     &(GdkRGBA) { pal->fg.red, pal->fg.green, pal->fg.blue, 0.7f });
        }
    }

  for (guint k = 0; k < self->n_keys; k++)
    {
      double x = key_x (self, k);
      gboolean missing = self->k0[k] >= np;
      gboolean sel = self->selected[k];
      GdkRGBA fill;
      g_autofree char *num = g_strdup_printf ("%u", self->k0[k]);
      g_autoptr(PangoLayout) layout = make_layout (self, missing ? "!" : num,
                                                   self->k0[k] >= 10 ? PANGO_SCALE_X_SMALL : PANGO_SCALE_SMALL,
                                                   TRUE);
      double tw, th;

      if (missing || !key_color (self, k, &fill))
        fill = pal->warning;

      if (sel)
        {
          GdkRGBA glow = with_alpha (&pal->accent, 0.25f);

          draw_diamond (snapshot, x, cy, KEY_HALF + 6, &glow, &pal->accent, 2.0f);
        }
      draw_diamond (snapshot, x, cy, KEY_HALF, &fill,
                    sel ? &white : &dark_border, sel ? 2.0f : 1.0f);
      if (self->focus == (int) k && gtk_widget_has_visible_focus (GTK_WIDGET (self)))
        draw_diamond (snapshot, x, cy, KEY_HALF + 6, NULL, &pal->accent, 1.0f);

      text_size (layout, &tw, &th);
      draw_text (snapshot, layout, x - tw / 2, cy - th / 2, is_dark (&fill) ? &white : &black);

      /* keys stacked at one time (zero durations): a count on the top one */
      if (k > 0 && self->starts[k - 1] == self->starts[k] &&
          (k + 1 == self->n_keys || self->starts[k + 1] != self->starts[k]))
        {
          guint stacked = 1;
          g_autofree char *count = NULL;

          while (stacked <= k && self->starts[k - stacked] == self->starts[k])
            stacked++;
          count = g_strdup_printf (_("×%u"), stacked);
          draw_pill (self, snapshot, count, x + KEY_HALF + 2, cy - KEY_HALF + 1,
                     &pal->warning, &white, 0);
        }

      /* captions: missing phases, and the selected key's phase */
      if (missing || (sel && self->focus == (int) k))
        {
          g_autofree char *caption = missing
            ? g_strdup_printf (_("missing phase %u"), self->k0[k])
            : g_strdup_printf (_("key %u · phase %u"), k, self->k0[k]);
          g_autoptr(PangoLayout) cl = make_layout (self, caption, PANGO_SCALE_X_SMALL, missing);
          double cw, ch;
          GdkRGBA color = missing ? pal->warning : with_alpha (&pal->fg, 0.75f);

          text_size (cl, &cw, &ch);
          if (x - cw / 2 > last_caption_x + 4 || missing)
            {
              double lx = MAX (x - cw / 2, 8.0);

              if (self->n_keys > 0 && fabs (x - key_x (self, self->n_keys)) < cw / 2 + 16)
                lx = x - cw - 14;   /* keep clear of the "end" tab */
              lx = MAX (lx, 8.0);
              if (!missing)
                {
                  GskRoundedRect rr;

                  /* the selected key's caption: an accent tab */
                  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (lx - 6, CAPTION_TOP, cw + 12, CAPTION_H),
                                                   CAPTION_H / 2);
                  gtk_snapshot_push_rounded_clip (snapshot, &rr);
                  gtk_snapshot_append_color (snapshot, &pal->accent, &rr.bounds);
                  gtk_snapshot_pop (snapshot);
                  color = pal->accent_fg;
                }
              draw_text (snapshot, cl, lx, CAPTION_TOP + (CAPTION_H - ch) / 2, &color);
              last_caption_x = lx + cw;
            }
        }
    }
}

static void
draw_playhead (MatTimeline   *self,
               GtkSnapshot   *snapshot,
               const Palette *pal)
{
  double x = floor (mat_timeline_time_to_x (self, playhead_ms (self)));
  GskRoundedRect rr;
  g_autofree char *text = NULL;

  if (cycle (self) == 0)
    return;
  gtk_snapshot_append_color (snapshot, &pal->accent,
                             &GRAPHENE_RECT_INIT (x - 0.75, RULER_H - 10, 1.5, CAPTION_TOP - RULER_H + 10));
  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (x - 5, RULER_H - 12, 10, 10), 3);
  gtk_snapshot_push_rounded_clip (snapshot, &rr);
  gtk_snapshot_append_color (snapshot, &pal->accent, &rr.bounds);
  gtk_snapshot_pop (snapshot);

  if (self->drag_mode == DRAG_SCRUB)
    {
      text = format_time ((gint64) playhead_ms (self));
      draw_pill (self, snapshot, text, x, RULER_H / 2 - 2, &pal->accent, &pal->accent_fg, 0);
    }
}

static void
mat_timeline_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  MatTimeline *self = MAT_TIMELINE (widget);
  double width = gtk_widget_get_width (widget);
  Palette pal;

  palette_get (widget, &pal);
  draw_ruler (self, snapshot, &pal, width);

  if (self->block == NULL || shown_material (self) == NULL)
    return;

  if (self->n_keys == 0)
    {
      GskRoundedRect rr;
      GdkRGBA border = with_alpha (&pal.fg, 0.3f);
      GdkRGBA fill = with_alpha (&pal.fg, 0.03f);
      float widths[4] = { 1, 1, 1, 1 };
      GdkRGBA borders[4] = { border, border, border, border };
      g_autoptr(PangoLayout) layout = make_layout (self, _("No keys — click to add one"), 1.0, FALSE);
      double tw, th, w = MAX (width - 2 * PAD_X, 260.0);

      text_size (layout, &tw, &th);
      gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (PAD_X, TRACK_TOP, w, TRACK_H), 7);
      gtk_snapshot_push_rounded_clip (snapshot, &rr);
      gtk_snapshot_append_color (snapshot, &fill, &rr.bounds);
      gtk_snapshot_pop (snapshot);
      gtk_snapshot_append_border (snapshot, &rr, widths, borders);
      draw_text (snapshot, layout, PAD_X + (w - tw) / 2, TRACK_TOP + (TRACK_H - th) / 2,
                 &(GdkRGBA) { pal.fg.red, pal.fg.green, pal.fg.blue, 0.6f });
      return;
    }

  draw_segments (self, snapshot, &pal, width);
  draw_playhead (self, snapshot, &pal);
  draw_keys (self, snapshot, &pal);

  if (self->drag_mode == DRAG_MOVE && self->drag_key >= 0)
    {
      g_autofree char *t = format_time (self->drag_time);
      g_autofree char *text = NULL;
      double x = mat_timeline_time_to_x (self, self->drag_time);

      if ((self->drag_state & GDK_SHIFT_MASK) || (guint) self->drag_key == self->n_keys)
        text = g_strdup_printf (_("%s · cycle %u ms"), t, cycle (self));
      else
        text = g_steal_pointer (&t);
      draw_pill (self, snapshot, text, MAX (x, PAD_X + 30), RULER_H / 2 - 1,
                 &pal.accent, &pal.accent_fg, 0);
    }
  else if (self->drag_mode == DRAG_PHASE && self->drag_key >= 0 && (guint) self->drag_key < self->n_keys)
    {
      g_autofree char *text = g_strdup_printf (_("phase %u"), self->k0[self->drag_key]);

      draw_pill (self, snapshot, text, key_x (self, self->drag_key), TRACK_TOP - 8,
                 &pal.accent, &pal.accent_fg, 0);
    }
  else if (self->drag_mode == DRAG_RUBBER)
    {
      double x0 = MIN (self->drag_x, self->drag_x + self->drag_dx);
      double y0 = MIN (self->drag_y, self->drag_y + self->drag_dy);
      graphene_rect_t r = GRAPHENE_RECT_INIT (x0, y0, fabs (self->drag_dx), fabs (self->drag_dy));
      GdkRGBA fill = with_alpha (&pal.accent, 0.15f);
      GdkRGBA border = with_alpha (&pal.accent, 0.8f);
      GskRoundedRect rr;
      float widths[4] = { 1, 1, 1, 1 };
      GdkRGBA borders[4] = { border, border, border, border };

      gsk_rounded_rect_init_from_rect (&rr, &r, 2);
      gtk_snapshot_append_color (snapshot, &fill, &r);
      gtk_snapshot_append_border (snapshot, &rr, widths, borders);
    }
}

static void
mat_timeline_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  MatTimeline *self = MAT_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int w = (int) ceil (mat_timeline_time_to_x (self, content_ms (self)) + PAD_X);

      *minimum = *natural = MAX (w, 320);
    }
  else
    *minimum = *natural = (int) WIDGET_H;
}

static void
mat_timeline_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  MatTimeline *self = MAT_TIMELINE (widget);

  if (self->popover != NULL)
    gtk_popover_present (self->popover);

  if (self->anchor_pending)
    {
      GtkWidget *sw = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);

      self->anchor_pending = FALSE;
      if (sw != NULL)
        {
          GtkAdjustment *adj = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (sw));

          gtk_adjustment_set_value (adj, mat_timeline_time_to_x (self, self->anchor_time) - self->anchor_x);
        }
    }
}

/* ---- GObject ----------------------------------------------------------- */

static void
mat_timeline_dispose (GObject *object)
{
  MatTimeline *self = MAT_TIMELINE (object);

  cancel_drag (self);
  if (self->popover != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->popover));
      self->popover = NULL;
    }
  if (self->material_signals != NULL)
    g_signal_group_set_target (self->material_signals, NULL);
  g_clear_object (&self->material_signals);
  g_clear_object (&self->block);

  G_OBJECT_CLASS (mat_timeline_parent_class)->dispose (object);
}

static void
mat_timeline_finalize (GObject *object)
{
  MatTimeline *self = MAT_TIMELINE (object);

  g_free (self->k0);
  g_free (self->k1);
  g_free (self->k2);
  g_free (self->starts);
  g_free (self->selected);
  g_free (self->details);

  G_OBJECT_CLASS (mat_timeline_parent_class)->finalize (object);
}

static void
mat_timeline_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  MatTimeline *self = MAT_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_BLOCK:
      g_value_set_object (value, self->block);
      break;
    case PROP_POSITION:
      g_value_set_uint (value, self->position);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    case PROP_SELECTED_KEY:
      g_value_set_int (value, self->focus);
      break;
    case PROP_DETAILS:
      g_value_set_string (value, self->details);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_timeline_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  MatTimeline *self = MAT_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_BLOCK:
      mat_timeline_set_block (self, g_value_get_object (value));
      break;
    case PROP_POSITION:
      mat_timeline_set_position (self, g_value_get_uint (value));
      break;
    case PROP_ZOOM:
      mat_timeline_set_zoom (self, g_value_get_double (value));
      break;
    case PROP_SELECTED_KEY:
      mat_timeline_select_key (self, g_value_get_int (value), FALSE);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_timeline_class_init (MatTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_timeline_dispose;
  object_class->finalize = mat_timeline_finalize;
  object_class->get_property = mat_timeline_get_property;
  object_class->set_property = mat_timeline_set_property;

  widget_class->snapshot = mat_timeline_snapshot;
  widget_class->measure = mat_timeline_measure;
  widget_class->size_allocate = mat_timeline_size_allocate;

  properties[PROP_BLOCK] =
    g_param_spec_object ("block", NULL, NULL, MAT_TYPE_ANIM_BLOCK,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_POSITION] =
    g_param_spec_uint ("position", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, ZOOM_MIN, ZOOM_MAX, ZOOM_DEFAULT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_KEY] =
    g_param_spec_int ("selected-key", NULL, NULL, -1, G_MAXUINT16, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DETAILS] =
    g_param_spec_string ("details", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SCRUBBED] =
    g_signal_new ("scrubbed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_css_name (widget_class, "mattimeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
mat_timeline_init (MatTimeline *self)
{
  GtkGesture *drag, *click;
  GtkEventController *key, *scroll_controller;

  mat_style_ensure ();
  self->zoom = ZOOM_DEFAULT;
  self->focus = -1;
  self->popover_key = -1;
  self->starts = g_new0 (guint32, 1);
  self->selected = g_new0 (gboolean, 1);
  self->k0 = g_new0 (guint16, 1);
  self->k1 = g_new0 (guint16, 1);
  self->k2 = g_new0 (guint16, 1);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), self);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  g_signal_connect (click, "pressed", G_CALLBACK (on_click_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);

  scroll_controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (scroll_controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll_controller);

  self->material_signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_swapped (self->material_signals, "changed",
                                  G_CALLBACK (on_material_changed), self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Animation timeline"),
                                  -1);
  update_details (self);
}

/* ---- public API -------------------------------------------------------- */

GtkWidget *
mat_timeline_new (void)
{
  return g_object_new (MAT_TYPE_TIMELINE, NULL);
}

MatAnimBlock *
mat_timeline_get_block (MatTimeline *self)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), NULL);

  return self->block;
}

void
mat_timeline_set_block (MatTimeline  *self,
                        MatAnimBlock *block)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));
  g_return_if_fail (block == NULL || MAT_IS_ANIM_BLOCK (block));

  if (self->block == block)
    return;
  cancel_drag (self);
  if (self->popover != NULL)
    gtk_popover_popdown (self->popover);
  g_set_object (&self->block, block);
  g_signal_group_set_target (self->material_signals,
                             block != NULL ? mat_anim_block_get_material (block) : NULL);

  /* a new block: no selection */
  g_clear_pointer (&self->starts, g_free);
  self->focus = -1;
  resync (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_KEY]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BLOCK]);
}

guint
mat_timeline_get_position (MatTimeline *self)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), 0);

  return self->position;
}

void
mat_timeline_set_position (MatTimeline *self,
                           guint        position)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  if (self->position == position)
    return;
  self->position = position;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}

double
mat_timeline_get_zoom (MatTimeline *self)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), ZOOM_DEFAULT);

  return self->zoom;
}

void
mat_timeline_set_zoom (MatTimeline *self,
                       double       zoom)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  zoom = CLAMP (zoom, ZOOM_MIN, ZOOM_MAX);
  if (self->zoom == zoom)
    return;
  self->zoom = zoom;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

void
mat_timeline_zoom_in (MatTimeline *self)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  zoom_at (self, self->zoom * ZOOM_STEP, mat_timeline_time_to_x (self, playhead_ms (self)));
}

void
mat_timeline_zoom_out (MatTimeline *self)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  zoom_at (self, self->zoom / ZOOM_STEP, mat_timeline_time_to_x (self, playhead_ms (self)));
}

int
mat_timeline_get_selected_key (MatTimeline *self)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), -1);

  return self->focus;
}

void
mat_timeline_select_key (MatTimeline *self,
                         int          key,
                         gboolean     extend)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  if (key >= (int) self->n_keys)
    key = -1;
  if (extend && key >= 0)
    toggle_selected (self, key);
  else
    select_only (self, key);
}

gboolean
mat_timeline_is_key_selected (MatTimeline *self,
                              guint        key)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), FALSE);

  return key < self->n_keys && self->selected[key];
}

guint
mat_timeline_get_n_selected (MatTimeline *self)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), 0);

  return count_selected (self);
}

GtkPopover *
mat_timeline_get_phase_popover (MatTimeline *self)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), NULL);

  if (self->popover == NULL || !gtk_widget_get_visible (GTK_WIDGET (self->popover)))
    return NULL;
  return self->popover;
}

const char *
mat_timeline_get_details (MatTimeline *self)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), "");

  return self->details;
}

/* ---- test hooks: the gesture handlers themselves ------------------------ */

void
mat_timeline_test_drag_begin (MatTimeline    *self,
                              double          x,
                              double          y,
                              GdkModifierType state)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  drag_begin (self, x, y, state);
}

void
mat_timeline_test_drag_update (MatTimeline *self,
                               double       dx,
                               double       dy)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  drag_update (self, dx, dy, self->drag_state);
}

void
mat_timeline_test_drag_end (MatTimeline *self,
                            double       dx,
                            double       dy)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  drag_end (self, dx, dy);
}

void
mat_timeline_test_drag (MatTimeline    *self,
                        double          x,
                        double          y,
                        double          dx,
                        double          dy,
                        GdkModifierType state)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  drag_begin (self, x, y, state);
  /* several updates, as a pointer would send them */
  for (int i = 1; i <= 4; i++)
    drag_update (self, dx * i / 4.0, dy * i / 4.0, state);
  drag_end (self, dx, dy);
}

void
mat_timeline_test_click (MatTimeline    *self,
                         double          x,
                         double          y,
                         guint           n_press,
                         guint           button,
                         GdkModifierType state)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  if (button == GDK_BUTTON_PRIMARY)
    {
      drag_begin (self, x, y, state);
      drag_end (self, 0, 0);
    }
  click_pressed (self, n_press, button, x, y);
}

gboolean
mat_timeline_test_key (MatTimeline    *self,
                       guint           keyval,
                       GdkModifierType state)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), FALSE);

  return key_pressed (self, keyval, state);
}

void
mat_timeline_test_scroll (MatTimeline    *self,
                          double          dy,
                          GdkModifierType state)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  scroll (self, dy, state, mat_timeline_time_to_x (self, playhead_ms (self)));
}
