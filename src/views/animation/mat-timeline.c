/* mat-timeline.c - the keys of one animation block on a time ruler
 *
 * A custom widget drawn with GtkSnapshot: a time ruler that runs to the
 * period, each key's interval shaded by what the block blends, the keys as
 * handles in their phase's diffuse colour, the period's end and a
 * playhead.
 *
 * Times as the game reads them (formats.md 2.3): key k's k1 is the time
 * T[k] at which its interval ends; the interval runs from T[k-1] (0 for
 * key 0) to T[k], so the handle of key k sits at T[k] and the period is
 * the last key's time. An interval with T[k] <= T[k-1] is empty (the game
 * never shows it; times out of order make one): it is drawn as a red
 * hatched marker with the lint in the tooltip.
 *
 * Retiming changes exactly the k1 values the user moves: a plain drag the
 * dragged key's, Shift also every later key's by the same amount (the
 * period changes). The widget only works out the times (snapping, the
 * neighbours); the model's MatAnimBlock retiming functions write them, one
 * undo step per gesture. k2 is shown and kept.
 *
 * The widget is a GtkScrollable and scrolls itself: the view moves only
 * when the user scrolls or zooms, never because a key was clicked. Only
 * what is in view is drawn, and at most one interval and one key per
 * pixel column: a block of 65,535 keys draws as fast as one of a few
 * hundred.
 * Keys are actions with shortcuts (class binding actions). Input comes
 * from event controllers only; the test hooks at the end call the same
 * handlers the controllers call.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "mat0-fields.h"
#include "mat0-validate.h"
#include "phase-eval.h"
#include "mat-library.h"
#include "mat-timeline-private.h"
#include "mat-style.h"

#define PAD_X          22.0
#define END_ROOM       96.0   /* px after the period: its label */
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

/* What is drawn of a key reaches this far either side of its time: its
 * handle, the selection's glow, the pill counting stacked keys. */
#define KEY_REACH      (KEY_HALF + 48.0)
/* Handles closer than this are a smear: with more keys in view than one
 * per DENSE_SPACING pixels, the track is drawn dense (one tick per pixel
 * column, handles only for the keys that need one). */
#define DENSE_SPACING  4.0

#define ZOOM_MIN       5.0     /* 65535 ms in 330 px: any period fits */
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

/* What is wrong with a key, for drawing */
enum {
  KEY_EMPTY     = 1 << 0,   /* T[k] <= T[k-1] with a period: never shown */
  KEY_BACKWARDS = 1 << 1,   /* T[k] < T[k-1]: out of order */
  KEY_MISSING   = 1 << 2,   /* k0 past the phase table */
};

struct _MatTimeline
{
  GtkWidget     parent_instance;

  MatAnimBlock *block;
  GSignalGroup *material_signals;

  guint         position;
  guint32       random_offset; /* R of mode 3 */
  double        zoom;
  GtkAdjustment *hadjustment;
  GtkAdjustment *vadjustment;
  guint         hscroll_policy : 1;
  guint         vscroll_policy : 1;
  gboolean      fit_pending;   /* zoom to fit once there is a width */
  double        content_floor; /* ms: the content does not shrink in a drag */

  /* the block as last read from the model */
  guint         n_keys;
  guint16      *k0;
  guint16      *k1;            /* the key times */
  guint16      *k2;
  guint8       *flags;
  guint16      *stacked;       /* how many keys share each key's time */
  guint32       period;
  guint32       max_time;
  GPtrArray    *lints;         /* Mat0Diagnostic of this block; NULL: stale */

  /* selection: one flag per key; focus is the key the details describe */
  gboolean     *selected;
  int           focus;

  /* the current gesture */
  DragMode      drag_mode;
  int           drag_key;
  double        drag_x;
  double        drag_y;
  double        drag_dx;
  double        drag_dy;
  GdkModifierType drag_state;
  gboolean      drag_grouped;
  gboolean      drag_was_selected;
  guint16      *drag_t0;       /* the times when the move began */
  guint16       drag_k0;
  gboolean     *rubber_base;   /* selection before a Ctrl rubber band */
  gboolean      drag_double;   /* the second press of a double click */

  /* the last press on a key, for double clicks */
  int           press_key;
  guint32       press_time;
  double        press_x;
  double        press_y;

  GtkPopover   *popover;
  int           popover_key;
  GtkSpinButton *time_spin;
  gboolean      popover_syncing;

  char         *details;
};

static void mat_timeline_scrollable_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MatTimeline, mat_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE,
                                                      mat_timeline_scrollable_init))

enum {
  PROP_0,
  PROP_BLOCK,
  PROP_POSITION,
  PROP_RANDOM_OFFSET,
  PROP_ZOOM,
  PROP_SELECTED_KEY,
  PROP_DETAILS,
  N_PROPS,
  /* GtkScrollable */
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

enum {
  SCRUBBED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void   update_actions (MatTimeline *self);
static void   sync_popover   (MatTimeline *self);
static guint *draw_order     (MatTimeline *self);

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
  if (error == NULL)
    return;
  /* the model refuses (a time out of range, a read-only entry): say no */
  gtk_widget_error_bell (GTK_WIDGET (self));
  g_debug ("Timeline edit refused: %s", error->message);
}

/* The previous key's time: where key @k's interval starts. */
static guint32
start_of (MatTimeline *self,
          guint        k)
{
  return k > 0 && k <= self->n_keys ? self->k1[k - 1] : 0;
}

/* ---- lints ------------------------------------------------------------- */

/* Returns: (transfer none): the lints of the shown block (time order,
 * period, phase range, keys), computed when first asked after a change. */
static GPtrArray *
block_lints (MatTimeline *self)
{
  MatMaterial *material = shown_material (self);

  if (self->lints != NULL)
    return self->lints;

  self->lints = g_ptr_array_new_with_free_func ((GDestroyNotify) mat0_diagnostic_free);
  if (material != NULL && self->block != NULL)
    {
      g_autoptr(GPtrArray) all = mat_material_dup_diagnostics (material);
      gint index = (gint) mat_anim_block_get_index (self->block);

      for (guint i = 0; i < all->len; i++)
        {
          Mat0Diagnostic *diag = g_ptr_array_index (all, i);

          if (diag->block == index)
            g_ptr_array_add (self->lints, g_ptr_array_steal_index (all, i--));
        }
    }
  return self->lints;
}

/* Returns: (transfer full) (nullable): the lints about key @k (or, with
 * @check set, only that check), one per line. */
static char *
key_lint_text (MatTimeline *self,
               guint        k,
               int          check)
{
  GPtrArray *lints = block_lints (self);
  GString *s = NULL;

  for (guint i = 0; i < lints->len; i++)
    {
      Mat0Diagnostic *diag = g_ptr_array_index (lints, i);

      if (diag->key != (gint) k || (check >= 0 && diag->check != (Mat0Check) check))
        continue;
      if (s == NULL)
        s = g_string_new (NULL);
      else
        g_string_append_c (s, '\n');
      g_string_append (s, diag->message);
    }
  return s != NULL ? g_string_free (s, FALSE) : NULL;
}

/* ---- text -------------------------------------------------------------- */

/* Returns: (transfer full): the blended fields, comma separated. */
static char *
blend_list (guint32 mask)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < MAT0_N_INTERP_BITS; i++)
    {
      const Mat0InterpField *field = mat0_fields_interp (i);

      if (!(mask & field->mask))
        continue;
      if (s->len > 0)
        g_string_append (s, ", ");
      g_string_append (s, _(field->label));
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
  guint32 from = start_of (self, k);
  g_autofree char *phase = self->k0[k] >= np
    ? g_strdup_printf (_("missing phase %u (the material has %u phases)"), self->k0[k], np)
    : g_strdup_printf (_("phase %u"), self->k0[k]);

  if (self->flags[k] & KEY_EMPTY)
    return g_strdup_printf (_("Key %u: %s, time %u ms, not after the previous key’s %u ms: "
                              "an empty interval; k2 = %u (kept as stored)"),
                            k, phase, self->k1[k], from, self->k2[k]);
  return g_strdup_printf (_("Key %u: %s, time %u ms (its interval runs from %u to %u ms); "
                            "k2 = %u (kept as stored)"),
                          k, phase, self->k1[k], from, self->k1[k], self->k2[k]);
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
  else if (self->period == 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u key, period 0 ms: the last key’s time is 0, the material never animates",
                                         "%u keys, period 0 ms: the last key’s time is 0, the material never animates",
                                         self->n_keys),
                            self->n_keys);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u key, period %u ms. Click the track to add a key, drag a key to retime it.",
                                         "%u keys, period %u ms. Click the track to add a key, drag a key to retime it.",
                                         self->n_keys),
                            self->n_keys, self->period);

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

static double
offset (MatTimeline *self)
{
  return self->hadjustment != NULL ? gtk_adjustment_get_value (self->hadjustment) : 0.0;
}

double
mat_timeline_time_to_x (MatTimeline *self,
                        double       ms)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), 0.0);

  return PAD_X + ms * self->zoom / 1000.0 - offset (self);
}

double
mat_timeline_x_to_time (MatTimeline *self,
                        double       x)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), 0.0);

  return (x + offset (self) - PAD_X) * 1000.0 / self->zoom;
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

/* The times the content must show, ms. */
static double
content_ms (MatTimeline *self)
{
  return MAX (MAX ((double) self->period, (double) self->max_time), self->content_floor);
}

static double
content_width (MatTimeline *self)
{
  return PAD_X + content_ms (self) * self->zoom / 1000.0 + END_ROOM;
}

/* The adjustments after a change of the size, the zoom or the content;
 * the value stays unless the content got too short for it. */
static void
configure_adjustments (MatTimeline *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double upper = MAX (width, content_width (self));

  if (self->hadjustment != NULL)
    gtk_adjustment_configure (self->hadjustment,
                              CLAMP (gtk_adjustment_get_value (self->hadjustment), 0.0,
                                     MAX (upper - width, 0.0)),
                              0.0, upper, MAX (width * 0.1, 1.0), MAX (width * 0.9, 1.0), width);
  if (self->vadjustment != NULL)
    gtk_adjustment_configure (self->vadjustment, 0.0, 0.0, height, 1.0, height, height);
}

/* Zooms keeping the time under widget x @x where it is. */
static void
zoom_at (MatTimeline *self,
         double       zoom,
         double       x)
{
  double t;

  zoom = CLAMP (zoom, ZOOM_MIN, ZOOM_MAX);
  self->fit_pending = FALSE;
  if (zoom == self->zoom)
    return;
  t = mat_timeline_x_to_time (self, x);
  self->zoom = zoom;
  configure_adjustments (self);
  if (self->hadjustment != NULL)
    gtk_adjustment_set_value (self->hadjustment, PAD_X + t * zoom / 1000.0 - x);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

/* Where the track stands at "position": the evaluator's own position in
 * the period (a ping-pong runs back, once holds at the end, random sits
 * at R % period), so the playhead is in the interval the preview blends. */
static guint32
playhead_time (MatTimeline *self)
{
  guint mode = self->block != NULL ? mat_anim_block_get_mode (self->block) : 0;

  return phase_eval_position (mode, self->period, self->position, self->random_offset, NULL);
}

static double
playhead_ms (MatTimeline *self)
{
  return (double) playhead_time (self);
}

/* Where a keyboard or button zoom is centred: the playhead when it is in
 * view, else the middle of the view. */
static double
zoom_centre (MatTimeline *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double x = mat_timeline_time_to_x (self, playhead_ms (self));

  return x >= 0 && x <= width ? x : width / 2.0;
}

static double
key_x (MatTimeline *self,
       guint        k)
{
  return mat_timeline_time_to_x (self, self->k1[k]);
}

/* The key under (x, y): the topmost hit (see draw_order()), or -1. */
static int
hit_key (MatTimeline *self,
         double       x,
         double       y)
{
  double cy = mat_timeline_get_track_y (self);

  g_autofree guint *order = NULL;

  if (self->block == NULL || self->n_keys == 0)
    return -1;
  /* the topmost as drawn */
  order = draw_order (self);
  for (guint i = self->n_keys; i > 0; i--)
    {
      guint k = order[i - 1];

      if (fabs (x - key_x (self, k)) + fabs (y - cy) <= KEY_HALF + 2.0)
        return k;
    }
  return -1;
}

/* The key whose interval holds time @t on the track (as the evaluator
 * picks it), -1 for none. */
static int
interval_at (MatTimeline *self,
             double       t)
{
  int found = -1;

  for (guint k = 0; k < self->n_keys; k++)
    if (start_of (self, k) <= t && t < self->k1[k])
      found = k;
  return found;
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
  GdkRGBA error;
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
  lookup_color (widget, "error_color", "destructive_color", "#e01b24", &p->error);
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

/* The colour an interval shows for a phase: the first field group the
 * mask blends (diffuse first), else diffuse. */
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
  self->content_floor = 0.0;
  g_clear_pointer (&self->drag_t0, g_free);
  g_clear_pointer (&self->rubber_base, g_free);
}

static void
resync (MatTimeline *self)
{
  guint n = self->block != NULL && shown_material (self) != NULL
    ? mat_anim_block_get_n_keys (self->block) : 0;
  double old_content = content_ms (self);
  gboolean same_count = self->k1 != NULL && n == self->n_keys;
  guint np = n_phases (self);

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
      self->flags = g_renew (guint8, self->flags, n + 1);
      self->stacked = g_renew (guint16, self->stacked, n + 1);
    }
  self->n_keys = n;
  self->max_time = 0;
  for (guint i = 0; i < n; i++)
    {
      MatKey *key = key_at (self, i);

      self->k0[i] = mat_key_get_k0 (key);
      self->k1[i] = mat_key_get_k1 (key);
      self->k2[i] = mat_key_get_k2 (key);
      self->max_time = MAX (self->max_time, self->k1[i]);
    }
  self->period = n > 0 ? self->k1[n - 1] : 0;
  for (guint i = 0; i < n; i++)
    {
      guint32 from = start_of (self, i);

      self->flags[i] = 0;
      if (self->period != 0 && self->k1[i] <= from)
        self->flags[i] |= KEY_EMPTY;
      if (self->k1[i] < from)
        self->flags[i] |= KEY_BACKWARDS;
      if (self->k0[i] >= np)
        self->flags[i] |= KEY_MISSING;
    }
  {
    /* keys sharing a time, counted once here, not per frame */
    g_autoptr(GHashTable) count = g_hash_table_new (NULL, NULL);

    for (guint i = 0; i < n; i++)
      {
        gpointer key = GUINT_TO_POINTER (self->k1[i]);

        g_hash_table_insert (count, key,
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (count, key)) + 1));
      }
    for (guint i = 0; i < n; i++)
      self->stacked[i] = (guint16) MIN (GPOINTER_TO_UINT (g_hash_table_lookup (count, GUINT_TO_POINTER (self->k1[i]))),
                                        G_MAXUINT16);
  }
  g_clear_pointer (&self->lints, g_ptr_array_unref);

  if (content_ms (self) != old_content || !same_count)
    {
      configure_adjustments (self);
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_details (self);
  update_actions (self);
  sync_popover (self);
}

static void
on_material_changed (MatTimeline *self)
{
  /* a removed block shows nothing until it comes back (undo) */
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
selection_changed (MatTimeline *self)
{
  update_details (self);
  update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
select_only (MatTimeline *self,
             int          key)
{
  for (guint i = 0; i < self->n_keys; i++)
    self->selected[i] = (int) i == key;
  set_focus_key (self, key >= 0 && (guint) key < self->n_keys ? key : -1);
  selection_changed (self);
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
  selection_changed (self);
}

/* ---- edits ------------------------------------------------------------- */

/* The keys a move of @key takes: the selection when @key is part of a
 * multi-selection, else @key; with @carry every key after the first of
 * them too. Returns: (transfer full): n_keys flags. */
static gboolean *
moved_flags (MatTimeline *self,
             guint        key,
             gboolean     carry)
{
  guint n = self->n_keys;
  gboolean *moved = g_new0 (gboolean, n + 1);

  if (key < n && self->selected[key] && count_selected (self) > 1)
    memcpy (moved, self->selected, sizeof (gboolean) * n);
  else if (key < n)
    moved[key] = TRUE;

  if (carry)
    {
      gboolean on = FALSE;

      for (guint i = 0; i < n; i++)
        {
          on = on || moved[i];
          moved[i] = on;
        }
    }
  return moved;
}

/* The range of dt the moved keys may take, from @t (the times before the
 * move): a moved key stops at a neighbour that stays (where the two were
 * in order), and every time stays within 0..65535. */
static void
move_bounds (MatTimeline    *self,
             const guint16  *t,
             const gboolean *moved,
             gint64         *lo,
             gint64         *hi)
{
  guint n = self->n_keys;

  *lo = -G_MAXINT32;
  *hi = G_MAXINT32;
  for (guint i = 0; i < n; i++)
    {
      if (!moved[i])
        continue;
      *lo = MAX (*lo, -(gint64) t[i]);
      *hi = MIN (*hi, (gint64) G_MAXUINT16 - t[i]);
      if (i > 0 && !moved[i - 1] && t[i] >= t[i - 1])
        *lo = MAX (*lo, (gint64) t[i - 1] - t[i]);
      if (i + 1 < n && !moved[i + 1] && t[i] <= t[i + 1])
        *hi = MIN (*hi, (gint64) t[i + 1] - t[i]);
    }
}

/* Snaps a time: to the times of the keys that stay (and 0) within
 * SNAP_PX, else to the grid. */
static gint64
snap_time (MatTimeline    *self,
           double          t,
           const guint16  *times,
           const gboolean *moved,
           gboolean        grid)
{
  double best = -1.0;
  double best_d = SNAP_PX * 1000.0 / self->zoom;
  guint g;

  for (guint i = 0; i <= self->n_keys; i++)
    {
      double at = i < self->n_keys ? times[i] : 0.0;
      double d;

      if (i < self->n_keys && moved != NULL && moved[i])
        continue;
      d = fabs (t - at);
      if (d <= best_d)
        {
          best_d = d;
          best = at;
        }
    }
  if (best >= 0.0)
    return (gint64) best;
  if (!grid)
    return (gint64) floor (t + 0.5);
  g = mat_timeline_get_grid (self);
  return (gint64) floor (t / g + 0.5) * g;
}

/* Writes the times of a move by @dt from @t (the times before it): the
 * moved keys at t + dt, every other key back at t. One model call. */
static void
apply_times (MatTimeline    *self,
             const guint16  *t,
             const gboolean *moved,
             gint64          dt)
{
  g_autofree guint *positions = g_new (guint, self->n_keys + 1);
  g_autofree guint16 *times = g_new (guint16, self->n_keys + 1);
  guint n = 0;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < self->n_keys; i++)
    {
      gint64 want = moved[i] ? (gint64) t[i] + dt : t[i];

      want = CLAMP (want, 0, G_MAXUINT16);
      if (want == self->k1[i])
        continue;
      positions[n] = i;
      times[n] = (guint16) want;
      n++;
    }
  if (n > 0 && !mat_anim_block_set_key_times (self->block, positions, times, n, &error))
    report_error (self, error);
}

static void
move_begin (MatTimeline *self)
{
  g_free (self->drag_t0);
  self->drag_t0 = g_memdup2 (self->k1, sizeof (guint16) * (self->n_keys + 1));
  /* the view keeps its width until the drag ends */
  self->content_floor = content_ms (self);
}

/* One step of a retiming drag: the dragged key towards time @t. */
static void
move_update (MatTimeline    *self,
             double          t,
             GdkModifierType state)
{
  g_autofree gboolean *moved = NULL;
  gboolean carry = (state & GDK_SHIFT_MASK) != 0;
  gboolean no_snap = (state & GDK_ALT_MASK) != 0;
  gint64 target, lo, hi, dt;
  guint key = self->drag_key;

  if (self->drag_t0 == NULL || key >= self->n_keys)
    return;
  moved = moved_flags (self, key, carry);
  target = snap_time (self, MAX (t, 0.0), self->drag_t0, moved, !no_snap);
  move_bounds (self, self->drag_t0, moved, &lo, &hi);
  dt = lo <= hi ? CLAMP (target - (gint64) self->drag_t0[key], lo, hi) : 0;
  apply_times (self, self->drag_t0, moved, dt);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Moves the selected keys by @direction grid steps (with @carry the
 * later keys too): one undo step through the model. */
static void
nudge (MatTimeline *self,
       int          direction,
       gboolean     carry)
{
  g_autofree gboolean *moved = NULL;
  g_autoptr(GArray) positions = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GError) error = NULL;
  gint64 lo, hi, dt;

  if (self->focus < 0 || !editable (self))
    return;
  moved = moved_flags (self, self->focus, carry);
  move_bounds (self, self->k1, moved, &lo, &hi);
  dt = (gint64) direction * mat_timeline_get_grid (self);
  dt = lo <= hi ? CLAMP (dt, lo, hi) : 0;
  if (dt == 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  if (count_selected (self) <= 1)
    {
      /* one key, with or without the keys after it */
      if (!mat_anim_block_move_key_time (self->block, self->focus, (gint) dt, carry, NULL, &error))
        report_error (self, error);
      return;
    }
  for (guint i = 0; i < self->n_keys; i++)
    if (moved[i])
      g_array_append_val (positions, i);
  if (!mat_anim_block_move_key_times (self->block, (const guint *) (gpointer) positions->data,
                                      positions->len, (gint) dt, NULL, &error))
    report_error (self, error);
}

/* Adds a key at time @t: it splits the interval holding that time and
 * takes its phase (so the start of that interval looks the same); past
 * the period it becomes the new last key with key 0's phase (so the end
 * of the loop looks the same). No other key's time changes. One undo
 * step; the new key is selected. */
static void
insert_key (MatTimeline *self,
            gint64       t)
{
  g_autoptr(GError) error = NULL;
  guint position;
  guint16 k0;
  MatKey *key;

  if (!editable (self))
    return;
  if (t < 0 || t > G_MAXUINT16)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  position = mat_anim_block_position_for_time (self->block, (guint32) t);
  k0 = self->n_keys == 0 ? 0 : position < self->n_keys ? self->k0[position] : self->k0[0];
  key = mat_anim_block_insert_key_at_time (self->block, (guint16) t, k0, &error);
  if (key == NULL)
    report_error (self, error);
  else
    select_only (self, mat_key_get_index (key));
}

/* A click on the track: a key at the snapped time, unless a key is
 * there already. */
static void
add_key_at (MatTimeline *self,
            double       t_raw)
{
  gint64 t;

  if (!editable (self))
    return;

  t = snap_time (self, MAX (t_raw, 0.0), self->k1, NULL, TRUE);
  for (guint i = 0; i < self->n_keys; i++)
    if (self->k1[i] == t)
      t = (gint64) floor (MAX (t_raw, 0.0) + 0.5);
  for (guint i = 0; i < self->n_keys; i++)
    if (self->k1[i] == t)
      {
        gtk_widget_error_bell (GTK_WIDGET (self));
        return;
      }
  if (t > G_MAXUINT16 || (t == 0 && self->n_keys > 0))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  if (self->n_keys == 0 && t == 0)
    t = 1000;
  insert_key (self, t);
}

/* Removes the selected keys; every other key keeps its time. One undo
 * step. */
static void
delete_selected (MatTimeline *self)
{
  g_autofree gboolean *sel = NULL;
  guint n = self->n_keys;
  int first = -1;
  guint count = count_selected (self);

  if (!editable (self) || count == 0)
    return;
  sel = g_memdup2 (self->selected, sizeof (gboolean) * (n + 1));

  begin_group (self, g_dngettext (GETTEXT_PACKAGE, "Delete Key", "Delete Keys", count));
  for (guint i = n; i > 0; i--)
    {
      guint k = i - 1;
      g_autoptr(GError) error = NULL;

      if (!sel[k])
        continue;
      first = k;
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
        /* a missing phase steps into the table: its last phase */
        int value = self->k0[i] >= np ? (int) np - 1 : (int) self->k0[i] + delta;

        set_phase (self, i, (guint16) CLAMP (value, 0, (int) np - 1));
      }
  end_group (self);
}

static void
scrub_to (MatTimeline *self,
          double       x)
{
  double t = mat_timeline_x_to_time (self, x);
  guint pos;

  t = self->period > 0 ? CLAMP (t, 0.0, (double) self->period) : 0.0;
  pos = (guint) floor (t + 0.5);
  mat_timeline_set_position (self, pos);
  g_signal_emit (self, signals[SCRUBBED], 0, pos);
}

/* ---- the key popover: time and phase ------------------------------------ */

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
on_time_changed (GtkSpinButton *spin,
                 MatTimeline   *self)
{
  g_autoptr(GError) error = NULL;
  int key = self->popover_key;
  double value = gtk_spin_button_get_value (spin);

  if (self->popover_syncing || key < 0 || (guint) key >= self->n_keys || !editable (self))
    return;
  if (!mat_anim_block_set_key_time (self->block, key, (guint16) CLAMP (value, 0, G_MAXUINT16),
                                    &error))
    report_error (self, error);
}

static void
on_popover_done (GtkButton   *button,
                 MatTimeline *self)
{
  if (self->popover != NULL)
    gtk_popover_popdown (self->popover);
}

/* Enter in the time field: the value is in (the spin button took it
 * first), the popover goes. */
static void
on_time_activate (GtkText     *text,
                  MatTimeline *self)
{
  if (self->popover != NULL)
    gtk_popover_popdown (self->popover);
}

static void
on_popover_closed (GtkPopover  *popover,
                   MatTimeline *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  self->popover_key = -1;
  self->time_spin = NULL;
  /* the keys again, unless the user went elsewhere */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)) &&
      (focus == NULL || gtk_widget_is_ancestor (focus, GTK_WIDGET (popover))))
    gtk_widget_grab_focus (GTK_WIDGET (self));
}

/* The open popover follows the model: its key's time, or it closes. */
static void
sync_popover (MatTimeline *self)
{
  if (self->popover == NULL || self->popover_key < 0)
    return;
  if ((guint) self->popover_key >= self->n_keys)
    {
      gtk_popover_popdown (self->popover);
      return;
    }
  if (self->time_spin != NULL &&
      gtk_spin_button_get_value_as_int (self->time_spin) != self->k1[self->popover_key])
    {
      self->popover_syncing = TRUE;
      gtk_spin_button_set_value (self->time_spin, self->k1[self->popover_key]);
      self->popover_syncing = FALSE;
    }
}

static GtkWidget *
phase_row (MatTimeline *self,
           guint        i,
           gboolean     current)
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
  if (current)
    gtk_box_append (GTK_BOX (row), gtk_image_new_from_icon_name ("object-select-symbolic"));
  return row;
}

/* Opens the popover of key @key: its time (focused with @focus_time) and
 * its phase. */
static void
open_key_popover (MatTimeline *self,
                  guint        key,
                  gboolean     focus_time)
{
  GtkWidget *box, *list, *title, *time_box, *time_label, *unit, *spin, *hint, *done;
  guint np = n_phases (self);
  double x;
  GdkRectangle rect;
  g_autofree char *heading = NULL;
  g_autofree char *range = NULL;
  g_autofree char *lint = NULL;

  if (key >= self->n_keys || !editable (self))
    return;
  if (self->popover == NULL)
    {
      self->popover = GTK_POPOVER (gtk_popover_new ());
      gtk_widget_set_parent (GTK_WIDGET (self->popover), GTK_WIDGET (self));
      g_signal_connect_object (self->popover, "closed", G_CALLBACK (on_popover_closed), self, 0);
    }

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  heading = g_strdup_printf (_("Key %u"), key);
  title = gtk_label_new (heading);
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0.0);
  gtk_widget_set_margin_start (title, 6);
  gtk_box_append (GTK_BOX (box), title);

  /* the time */
  time_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_margin_start (time_box, 6);
  gtk_widget_set_margin_end (time_box, 6);
  time_label = gtk_label_new_with_mnemonic (_("_Time"));
  gtk_widget_set_hexpand (time_label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (time_label), 0.0);
  spin = gtk_spin_button_new_with_range (0, G_MAXUINT16, 1);
  gtk_widget_set_name (spin, "key-time");
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_spin_button_set_increments (GTK_SPIN_BUTTON (spin), mat_timeline_get_grid (self),
                                  10.0 * mat_timeline_get_grid (self));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), self->k1[key]);
  gtk_label_set_mnemonic_widget (GTK_LABEL (time_label), spin);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Key time in milliseconds"),
                                  -1);
  unit = gtk_label_new (_("ms"));
  gtk_widget_add_css_class (unit, "dim-label");
  done = gtk_button_new_with_label (_("Done"));
  g_signal_connect_object (done, "clicked", G_CALLBACK (on_popover_done), self, 0);
  gtk_box_append (GTK_BOX (time_box), time_label);
  gtk_box_append (GTK_BOX (time_box), spin);
  gtk_box_append (GTK_BOX (time_box), unit);
  gtk_box_append (GTK_BOX (time_box), done);
  gtk_box_append (GTK_BOX (box), time_box);

  range = g_strdup_printf (_("When this key’s interval ends; it starts at the previous key’s "
                             "time, %u ms."), start_of (self, key));
  hint = gtk_label_new (range);
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 40);
  gtk_label_set_xalign (GTK_LABEL (hint), 0.0);
  gtk_widget_set_margin_start (hint, 6);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_widget_add_css_class (hint, "caption");
  gtk_box_append (GTK_BOX (box), hint);

  lint = key_lint_text (self, key, -1);
  if (lint != NULL)
    {
      GtkWidget *warn = gtk_label_new (lint);

      gtk_label_set_wrap (GTK_LABEL (warn), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (warn), 40);
      gtk_label_set_xalign (GTK_LABEL (warn), 0.0);
      gtk_widget_add_css_class (warn, "error");
      gtk_widget_add_css_class (warn, "caption");
      gtk_box_append (GTK_BOX (box), warn);
    }

  /* the phase */
  {
    GtkWidget *phase_title = gtk_label_new (_("Phase"));

    gtk_label_set_xalign (GTK_LABEL (phase_title), 0.0);
    gtk_widget_set_margin_start (phase_title, 6);
    gtk_widget_set_margin_top (phase_title, 6);
    gtk_box_append (GTK_BOX (box), phase_title);
  }
  list = gtk_list_box_new ();
  gtk_widget_set_name (list, "phase-list");
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (list), TRUE);
  gtk_widget_add_css_class (list, "boxed-list");
  for (guint i = 0; i < np; i++)
    gtk_list_box_append (GTK_LIST_BOX (list), phase_row (self, i, self->k0[key] == i));
  g_signal_connect_object (list, "row-activated", G_CALLBACK (on_phase_row_activated), self, 0);
  if (np > 12)
    {
      GtkWidget *scroller = gtk_scrolled_window_new ();

      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                      GTK_POLICY_AUTOMATIC);
      gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 360);
      gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), list);
      gtk_box_append (GTK_BOX (box), scroller);
    }
  else
    gtk_box_append (GTK_BOX (box), list);
  if (self->k0[key] >= np)
    {
      g_autofree char *missing = g_strdup_printf (_("Now: missing phase %u"), self->k0[key]);
      GtkWidget *warn = gtk_label_new (missing);

      gtk_widget_add_css_class (warn, "warning");
      gtk_box_append (GTK_BOX (box), warn);
    }
  gtk_popover_set_child (self->popover, box);
  gtk_popover_set_default_widget (self->popover, done);

  x = key_x (self, key);
  rect.x = (int) floor (x - KEY_HALF);
  rect.y = (int) floor (mat_timeline_get_track_y (self) - KEY_HALF);
  rect.width = (int) (2 * KEY_HALF);
  rect.height = (int) (2 * KEY_HALF);
  gtk_popover_set_pointing_to (self->popover, &rect);
  self->popover_key = key;
  self->time_spin = GTK_SPIN_BUTTON (spin);
  /* connected last: setting it up is not an edit */
  g_signal_connect_object (spin, "value-changed", G_CALLBACK (on_time_changed), self, 0);
  for (GtkWidget *child = gtk_widget_get_first_child (spin); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TEXT (child))
      g_signal_connect_object (child, "activate", G_CALLBACK (on_time_activate), self,
                               G_CONNECT_AFTER);
  gtk_popover_popup (self->popover);
  if (focus_time)
    gtk_widget_grab_focus (spin);
}

/* ---- actions ----------------------------------------------------------- */

static void
update_actions (MatTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean can_edit = self->block != NULL && editable (self);
  gboolean has_keys = self->n_keys > 0;
  gboolean has_sel = count_selected (self) > 0;

  gtk_widget_action_set_enabled (widget, "timeline.select-previous", has_keys);
  gtk_widget_action_set_enabled (widget, "timeline.select-next", has_keys);
  gtk_widget_action_set_enabled (widget, "timeline.select-first", has_keys);
  gtk_widget_action_set_enabled (widget, "timeline.select-last", has_keys);
  gtk_widget_action_set_enabled (widget, "timeline.select-none", has_sel);
  gtk_widget_action_set_enabled (widget, "timeline.nudge", can_edit && self->focus >= 0);
  gtk_widget_action_set_enabled (widget, "timeline.step-phase", can_edit && has_sel);
  gtk_widget_action_set_enabled (widget, "timeline.delete", can_edit && has_sel);
  gtk_widget_action_set_enabled (widget, "timeline.insert", can_edit);
  gtk_widget_action_set_enabled (widget, "timeline.edit", can_edit && self->focus >= 0);
}

static void
select_step_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  MatTimeline *self = MAT_TIMELINE (widget);
  int n = (int) self->n_keys;
  int next;

  if (n == 0)
    return;
  if (g_str_equal (action_name, "timeline.select-first"))
    next = 0;
  else if (g_str_equal (action_name, "timeline.select-last"))
    next = n - 1;
  else if (g_str_equal (action_name, "timeline.select-previous"))
    next = self->focus < 0 ? n - 1 : MAX (self->focus - 1, 0);
  else
    next = self->focus < 0 ? 0 : MIN (self->focus + 1, n - 1);
  select_only (self, next);
}

static void
select_none_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  select_only (MAT_TIMELINE (widget), -1);
}

static void
nudge_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  int direction;
  gboolean carry;

  g_variant_get (parameter, "(ib)", &direction, &carry);
  nudge (MAT_TIMELINE (widget), direction < 0 ? -1 : 1, carry);
}

static void
step_phase_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  step_phase (MAT_TIMELINE (widget), g_variant_get_int32 (parameter) < 0 ? -1 : 1);
}

static void
delete_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  delete_selected (MAT_TIMELINE (widget));
}

/* Insert: at the playhead when it is inside the period and not on a
 * key, else in the middle of the focused key's interval, else one grid
 * step after the last key. */
static void
insert_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  MatTimeline *self = MAT_TIMELINE (widget);
  double t = playhead_ms (self);
  gboolean on_key = t <= 0.0;

  for (guint i = 0; i < self->n_keys; i++)
    on_key = on_key || self->k1[i] == (guint16) t;
  if (on_key && self->focus >= 0 &&
      self->k1[self->focus] > start_of (self, self->focus) + 1)
    t = floor ((start_of (self, self->focus) + self->k1[self->focus]) / 2.0);
  else if (on_key)
    t = (double) self->max_time + mat_timeline_get_grid (self);

  /* the time chosen here is exact: no snapping */
  insert_key (self, (gint64) t);
}

static void
edit_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatTimeline *self = MAT_TIMELINE (widget);

  if (self->focus >= 0)
    open_key_popover (self, self->focus, TRUE);
}

static void
zoom_fit_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  mat_timeline_zoom_to_fit (MAT_TIMELINE (widget));
}

static void
zoom_in_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  mat_timeline_zoom_in (MAT_TIMELINE (widget));
}

static void
zoom_out_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  mat_timeline_zoom_out (MAT_TIMELINE (widget));
}

/* ---- gestures ---------------------------------------------------------- */

/* Whether a press on @key at (@x, @y), @time (ms), is the second of a
 * double click: the same key, near the first press, in time. Counted
 * here rather than by a GtkGestureClick, whose count never starts over
 * when a click follows one elsewhere within the double-click time. */
static gboolean
second_press (MatTimeline *self,
              int          key,
              double       x,
              double       y,
              guint32      time)
{
  GtkSettings *settings = gtk_widget_get_settings (GTK_WIDGET (self));
  int double_time = 400, distance = 5;
  gboolean twice;

  if (settings != NULL)
    g_object_get (settings, "gtk-double-click-time", &double_time,
                  "gtk-double-click-distance", &distance, NULL);
  twice = key >= 0 && key == self->press_key &&
          (guint32) (time - self->press_time) <= (guint32) double_time &&
          fabs (x - self->press_x) <= distance && fabs (y - self->press_y) <= distance;
  /* a third press starts over */
  self->press_key = twice ? -1 : key;
  self->press_time = time;
  self->press_x = x;
  self->press_y = y;
  return twice;
}

static void
drag_begin (MatTimeline    *self,
            double          x,
            double          y,
            GdkModifierType state,
            guint32         time)
{
  int key;

  cancel_drag (self);
  self->drag_double = FALSE;
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
  self->drag_double = second_press (self, key, x, y, time);
  if (key >= 0)
    {
      self->drag_key = key;
      self->drag_mode = DRAG_PENDING_KEY;
      self->drag_was_selected = self->selected[key];
      if (state & GDK_CONTROL_MASK)
        toggle_selected (self, key);
      else if (!self->selected[key])
        select_only (self, key);
      else
        {
          set_focus_key (self, key);
          selection_changed (self);
        }
      return;
    }

  if (self->period > 0 && y <= CAPTION_TOP &&
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
      if (!editable (self) || (guint) self->drag_key >= self->n_keys)
        {
          self->drag_mode = DRAG_NONE;
          break;
        }
      if (fabs (dy) > fabs (dx) * 1.5)
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

          if (count_selected (self) <= 1)
            {
              guint16 at = self->k1[k];
              guint pick = k;

              if (dx < 0)
                while (pick > 0 && self->k1[pick - 1] == at)
                  pick--;
              else
                while (pick + 1 < self->n_keys && self->k1[pick + 1] == at)
                  pick++;
              if (pick != k)
                {
                  self->drag_key = pick;
                  select_only (self, pick);
                }
            }
          self->drag_mode = DRAG_MOVE;
          move_begin (self);
          begin_group (self, (state & GDK_SHIFT_MASK) || count_selected (self) > 1
                             ? _("Retime Keys") : _("Retime Key"));
          self->drag_grouped = TRUE;
        }
      drag_update (self, dx, dy, state);
      break;

    case DRAG_MOVE:
      move_update (self, self->drag_t0[self->drag_key] + dx * 1000.0 / self->zoom, state);
      break;

    case DRAG_PHASE:
      {
        guint np = n_phases (self);
        int base = MIN ((int) self->drag_k0, (int) np - 1);
        int steps = (int) floor (-dy / PHASE_STEP_PX + 0.5);
        int value;

        if (np == 0 || (guint) self->drag_key >= self->n_keys)
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
        selection_changed (self);
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
      if ((guint) self->drag_key >= self->n_keys)
        break;
      /* a click on a key of a multi-selection selects only it */
      if (!(self->drag_state & GDK_CONTROL_MASK) &&
          (self->drag_double || (self->drag_was_selected && count_selected (self) > 1)))
        select_only (self, self->drag_key);
      /* a double click: the key under the pointer, its time to type */
      if (self->drag_double)
        {
          int key = self->drag_key;

          cancel_drag (self);
          open_key_popover (self, key, TRUE);
          return;
        }
      break;

    case DRAG_PENDING_EMPTY:
      if (self->drag_y >= TRACK_TOP - 6.0 && self->drag_y <= TRACK_TOP + TRACK_H + 6.0)
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
  /* the content may shrink now that the drag is over */
  configure_adjustments (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
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
  /* the timeline scrolls itself: taking the focus moves no view */
  if (!gtk_widget_has_focus (GTK_WIDGET (self)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
  drag_begin (self, x, y, controller_state (GTK_GESTURE (gesture)),
              gtk_event_controller_get_current_event_time (GTK_EVENT_CONTROLLER (gesture)));
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

/* The secondary button: the popover of the key under the pointer. */
static void
context_click (MatTimeline *self,
               double       x,
               double       y)
{
  int key = hit_key (self, x, y);

  if (key < 0 || (guint) key >= self->n_keys)
    return;
  if (!self->selected[key])
    select_only (self, key);
  open_key_popover (self, key, FALSE);
}

static void
on_context_pressed (GtkGestureClick *gesture,
                    int              n_press,
                    double           x,
                    double           y,
                    MatTimeline     *self)
{
  context_click (self, x, y);
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
  double x = zoom_centre (self);
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

/* ---- tooltip ----------------------------------------------------------- */

/* Returns: (transfer full) (nullable). */
static char *
tooltip_text_at (MatTimeline *self,
                 double       x,
                 double       y)
{
  int key;

  if (self->block == NULL || shown_material (self) == NULL)
    return NULL;
  if (y < RULER_H)
    return g_strdup (_("Click or drag to move the playhead"));
  if (self->n_keys == 0)
    return g_strdup (_("No keys — click to add one"));

  key = hit_key (self, x, y);
  if (key >= 0)
    {
      g_autofree char *desc = describe_key (self, key);
      g_autofree char *lint = key_lint_text (self, key, -1);
      const char *hint = _("Drag to retime (Shift: the later keys move too), drag up or down "
                           "for the phase, double-click to type the time");

      return lint != NULL ? g_strjoin ("\n", desc, lint, hint, NULL)
                          : g_strjoin ("\n", desc, hint, NULL);
    }

  if (y >= TRACK_TOP && y <= TRACK_TOP + TRACK_H)
    {
      double t = mat_timeline_x_to_time (self, x);
      int k;

      /* the period of 0: the box that explains it */
      if (self->period == 0)
        {
          g_autofree char *lint = key_lint_text (self, self->n_keys - 1, MAT0_LINT_ZERO_PERIOD);
          const char *why = _("Period 0 ms: the last key’s time is 0, so the material never "
                              "animates and shows key 0’s phase.");

          return lint != NULL ? g_strjoin ("\n", why, lint, NULL) : g_strdup (why);
        }

      /* an empty interval's marker */
      for (guint i = 0; i < self->n_keys; i++)
        if ((self->flags[i] & KEY_EMPTY) &&
            fabs (x - key_x (self, i)) <= KEY_HALF + 6.0)
          return key_lint_text (self, i, MAT0_LINT_KEY_TIME_ORDER);

      k = interval_at (self, t);
      if (k >= 0)
        {
          guint next = (guint) k + 1 < self->n_keys ? (guint) k + 1 : 0;
          g_autofree char *blends = blend_list (mat_anim_block_get_interp_mask (self->block));

          return g_strdup_printf (_("Key %u’s interval, %u to %u ms: phase %u → phase %u\n"
                                    "Blends: %s\nClick to add a key here"),
                                  k, start_of (self, k), self->k1[k], self->k0[k], self->k0[next],
                                  blends);
        }
      if (t >= self->period)
        return g_strdup (_("After the period: click to add a key here, which makes the period longer"));
    }
  return NULL;
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

  if (self->block == NULL || self->drag_mode != DRAG_NONE)
    return FALSE;
  if (keyboard)
    {
      g_autofree char *lint = self->focus >= 0 ? key_lint_text (self, self->focus, -1) : NULL;

      text = lint != NULL ? g_strdup_printf ("%s\n%s", self->details, lint) : g_strdup (self->details);
    }
  else
    text = tooltip_text_at (self, x, y);
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

/* A pill with text centred at (cx, cy); returns its width (0: too wide
 * for @max_width, not drawn). */
static double
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
    return 0.0;
  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (cx - w / 2 - 6, cy - h / 2 - 1,
                                                             w + 12, h + 2),
                                   (h + 2) / 2);
  gtk_snapshot_push_rounded_clip (snapshot, &rr);
  gtk_snapshot_append_color (snapshot, bg, &rr.bounds);
  gtk_snapshot_pop (snapshot);
  draw_text (snapshot, layout, cx - w / 2, cy - h / 2, fg);
  return w + 12.0;
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
  double start_ms = MAX (mat_timeline_x_to_time (self, 0), 0.0);
  double end_ms = mat_timeline_x_to_time (self, width);

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

  /* the period on the ruler */
  if (self->period > 0)
    {
      GdkRGBA span = with_alpha (&pal->accent, 0.14f);
      double x0 = mat_timeline_time_to_x (self, 0);
      double x1 = mat_timeline_time_to_x (self, self->period);

      gtk_snapshot_append_color (snapshot, &span, &GRAPHENE_RECT_INIT (x0, 0, x1 - x0, RULER_H - 1));
      gtk_snapshot_append_color (snapshot, &pal->accent, &GRAPHENE_RECT_INIT (x0, RULER_H - 4, x1 - x0, 3));
    }

  for (guint64 t = (guint64) (start_ms / minor) * minor; t <= end_ms; t += minor)
    {
      double x = floor (mat_timeline_time_to_x (self, t)) + 0.5;
      gboolean is_major = t % major == 0;
      gboolean past = self->n_keys > 0 && t > self->period;
      double h = is_major ? 9.0 : 4.0;
      GdkRGBA tc = with_alpha (is_major ? &tick : &line, past ? 0.5f : 1.0f);

      gtk_snapshot_append_color (snapshot, &tc, &GRAPHENE_RECT_INIT (x - 0.5, RULER_H - 1 - h, 1, h));
      if (is_major)
        {
          g_autofree char *text = format_time (t);
          g_autoptr(PangoLayout) layout = make_layout (self, text, PANGO_SCALE_SMALL, FALSE);
          GdkRGBA lc = with_alpha (&label, past ? 0.5f : 1.0f);

          draw_text (snapshot, layout, x + 4, 3, &lc);
        }
    }
}

/* The period of 0: a box saying so, where the track would be. */
static void
draw_zero_period (MatTimeline   *self,
                  GtkSnapshot   *snapshot,
                  const Palette *pal)
{
  double x0 = mat_timeline_time_to_x (self, 0);
  double w = 240.0;
  GskRoundedRect rr;
  GdkRGBA fill = with_alpha (&pal->error, 0.10f);
  GdkRGBA border = with_alpha (&pal->error, 0.6f);
  GdkRGBA hatch = with_alpha (&pal->error, 0.2f);
  float widths[4] = { 1, 1, 1, 1 };
  GdkRGBA borders[4] = { border, border, border, border };
  g_autoptr(PangoLayout) layout = make_layout (self, _("Period 0 ms: never animates"), 1.0, TRUE);
  double tw, th;

  text_size (layout, &tw, &th);
  w = MAX (w, tw + 40);
  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (x0 + KEY_HALF + 8, TRACK_TOP, w, TRACK_H), 6);
  gtk_snapshot_push_rounded_clip (snapshot, &rr);
  gtk_snapshot_append_color (snapshot, &fill, &rr.bounds);
  draw_hatch (snapshot, rr.bounds.origin.x, TRACK_TOP, w, TRACK_H, &hatch);
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_append_border (snapshot, &rr, widths, borders);
  draw_text (snapshot, layout, x0 + KEY_HALF + 8 + (w - tw) / 2,
             TRACK_TOP + (TRACK_H - th) / 2, &pal->error);
}

static void
draw_intervals (MatTimeline   *self,
                GtkSnapshot   *snapshot,
                const Palette *pal,
                double         width)
{
  guint32 mask = mat_anim_block_get_interp_mask (self->block);
  gboolean blends = (mask & PHASE_EVAL_BLEND_KNOWN) != 0;
  double x0 = mat_timeline_time_to_x (self, 0);
  double x1 = mat_timeline_time_to_x (self, MAX (self->period, self->max_time));
  double xp = mat_timeline_time_to_x (self, self->period);
  GskRoundedRect track;
  GdkRGBA outline = with_alpha (&pal->fg, 0.22f);
  GdkRGBA gap = pal->view_bg;
  GdkRGBA pill_bg = { 0, 0, 0, 0.45f };
  GdkRGBA pill_fg = { 1, 1, 1, 1 };
  double cy = mat_timeline_get_track_y (self);
  double last_column = -G_MAXDOUBLE;

  /* after the period: a faint dashed continuation (a click there adds a
   * key and makes the period longer) */
  {
    GdkRGBA faint = with_alpha (&pal->fg, 0.12f);

    for (double x = MAX (x1 + 8, 0); x < width - 4; x += 8)
      gtk_snapshot_append_color (snapshot, &faint, &GRAPHENE_RECT_INIT (x, cy - 0.5, 4, 1));
  }

  if (self->period == 0)
    {
      draw_zero_period (self, snapshot, pal);
      return;
    }

  gsk_rounded_rect_init_from_rect (&track, &GRAPHENE_RECT_INIT (x0, TRACK_TOP, x1 - x0, TRACK_H), 7);
  gtk_snapshot_push_rounded_clip (snapshot, &track);
  for (guint k = 0; k < self->n_keys; k++)
    {
      double sx0 = mat_timeline_time_to_x (self, start_of (self, k));
      double sx1 = key_x (self, k);
      guint next = k + 1 < self->n_keys ? k + 1 : 0;
      GdkRGBA a, b;
      gboolean have_a, have_b;
      graphene_rect_t r;

      if (self->flags[k] & KEY_EMPTY || sx1 < 0 || sx0 > width)
        continue;
      have_a = blend_color (self, self->k0[k], mask, &a);
      if (!have_a)
        a = pal->warning;

      /* narrower than a pixel: its colour, when the column has none yet */
      if (sx1 - sx0 < 1.0)
        {
          double column = floor (sx1);

          if (column <= last_column)
            continue;
          last_column = column;
          gtk_snapshot_append_color (snapshot, &a, &GRAPHENE_RECT_INIT (column, TRACK_TOP, 1, TRACK_H));
          continue;
        }
      last_column = floor (sx1);
      r = GRAPHENE_RECT_INIT (sx0, TRACK_TOP, sx1 - sx0, TRACK_H);
      have_b = blend_color (self, self->k0[next], mask, &b);
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

      /* a thin separator where each interval starts, when it shows */
      if (k > 0 && sx1 - sx0 >= 4.0)
        gtk_snapshot_append_color (snapshot, &gap, &GRAPHENE_RECT_INIT (sx0 - 1, TRACK_TOP, 2, TRACK_H));

      if (sx1 - sx0 - 2 * KEY_HALF - 8 > 0)
        {
          g_autofree char *text = format_time (self->k1[k] - start_of (self, k));

          draw_pill (self, snapshot, text, (sx0 + sx1) / 2, cy, &pill_bg, &pill_fg,
                     sx1 - sx0 - 2 * KEY_HALF - 8);
        }
    }

  /* a key past the period: the game never reaches that part */
  if (x1 > xp)
    {
      GdkRGBA veil = with_alpha (&pal->view_bg, 0.6f);

      gtk_snapshot_append_color (snapshot, &veil, &GRAPHENE_RECT_INIT (xp, TRACK_TOP, x1 - xp, TRACK_H));
    }
  gtk_snapshot_pop (snapshot);

  {
    float widths[4] = { 1, 1, 1, 1 };
    GdkRGBA borders[4] = { outline, outline, outline, outline };

    gtk_snapshot_append_border (snapshot, &track, widths, borders);
  }

  /* times out of order: the span a key runs backwards over, hatched red;
   * an empty interval: a red hatched marker at the key (one a column) */
  last_column = -G_MAXDOUBLE;
  for (guint k = 0; k < self->n_keys; k++)
    {
      GdkRGBA fill = with_alpha (&pal->error, 0.16f);
      GdkRGBA hatch = with_alpha (&pal->error, 0.75f);
      double kx = key_x (self, k);

      if (!(self->flags[k] & KEY_EMPTY))
        continue;
      {
        /* what it covers: the marker, and the span run backwards over */
        double bx = (self->flags[k] & KEY_BACKWARDS) ? mat_timeline_time_to_x (self, start_of (self, k)) : kx;

        if (MAX (kx, bx) < -KEY_REACH || MIN (kx, bx) > width + KEY_REACH || floor (kx) == last_column)
          continue;
      }
      last_column = floor (kx);
      if (self->flags[k] & KEY_BACKWARDS)
        {
          double bx = mat_timeline_time_to_x (self, start_of (self, k));

          gtk_snapshot_append_color (snapshot, &fill,
                                     &GRAPHENE_RECT_INIT (kx, TRACK_TOP + TRACK_H - 8, bx - kx, 8));
          draw_hatch (snapshot, kx, TRACK_TOP + TRACK_H - 8, bx - kx, 8, &hatch);
        }
      gtk_snapshot_append_color (snapshot, &fill,
                                 &GRAPHENE_RECT_INIT (kx - KEY_HALF - 4, TRACK_TOP - 4,
                                                      2 * KEY_HALF + 8, TRACK_H + 8));
      draw_hatch (snapshot, kx - KEY_HALF - 4, TRACK_TOP - 4, 2 * KEY_HALF + 8, TRACK_H + 8, &hatch);
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

/* The period's end: a line through the track and its label below, which
 * spans @label_x0 .. @label_x1. */
static void
draw_period_end (MatTimeline   *self,
                 GtkSnapshot   *snapshot,
                 const Palette *pal,
                 double        *label_x0,
                 double        *label_x1)
{
  double ex = mat_timeline_time_to_x (self, self->period);
  g_autofree char *time = format_time (self->period);
  g_autofree char *text = g_strdup_printf (_("period %s"), time);
  g_autoptr(PangoLayout) layout = make_layout (self, text, PANGO_SCALE_X_SMALL, FALSE);
  GdkRGBA grip = with_alpha (&pal->fg, 0.45f);
  GskRoundedRect rr;
  GdkRGBA tab = self->period == 0 ? with_alpha (&pal->error, 0.15f) : with_alpha (&pal->fg, 0.08f);
  GdkRGBA tc = self->period == 0 ? pal->error : with_alpha (&pal->fg, 0.75f);
  double tw, th, lx;

  gtk_snapshot_append_color (snapshot, &grip,
                             &GRAPHENE_RECT_INIT (ex - 1, TRACK_TOP - 4, 2, CAPTION_TOP + CAPTION_H - TRACK_TOP + 4));
  text_size (layout, &tw, &th);
  lx = ex + 6;
  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (lx - 5, CAPTION_TOP, tw + 10, CAPTION_H), 4);
  gtk_snapshot_push_rounded_clip (snapshot, &rr);
  gtk_snapshot_append_color (snapshot, &tab, &rr.bounds);
  gtk_snapshot_pop (snapshot);
  draw_text (snapshot, layout, lx, CAPTION_TOP + (CAPTION_H - th) / 2, &tc);
  *label_x0 = lx - 5;
  *label_x1 = lx + tw + 5;
}

/* The keys that always get a handle: selected, focused, with a problem. */
static gboolean
key_stands_out (MatTimeline *self,
                guint        k)
{
  return self->selected[k] || self->focus == (int) k ||
         (self->flags[k] & (KEY_EMPTY | KEY_MISSING)) != 0;
}

/* A key of a dense track: a tick in its phase's colour, the width of a
 * pixel column. */
static void
draw_key_tick (MatTimeline   *self,
               GtkSnapshot   *snapshot,
               const Palette *pal,
               guint          k,
               double         column)
{
  double cy = mat_timeline_get_track_y (self);
  GdkRGBA fill;

  if (!key_color (self, k, &fill))
    fill = pal->warning;
  gtk_snapshot_append_color (snapshot, &fill,
                             &GRAPHENE_RECT_INIT (column, cy - KEY_HALF * 0.7, 1, KEY_HALF * 1.4));
}

/* One key's handle: its phase's colour and number; red edged when its
 * interval is empty; a count when keys are stacked at its time. */
static void
draw_key (MatTimeline   *self,
          GtkSnapshot   *snapshot,
          const Palette *pal,
          guint          k)
{
  double cy = mat_timeline_get_track_y (self);
  GdkRGBA dark_border = { 0, 0, 0, 0.55f };
  GdkRGBA white = { 1, 1, 1, 1 };
  GdkRGBA black = { 0, 0, 0, 0.87f };
  double x = key_x (self, k);
  gboolean missing = (self->flags[k] & KEY_MISSING) != 0;
  gboolean bad = (self->flags[k] & KEY_EMPTY) != 0;
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
                bad ? &pal->error : sel ? &white : &dark_border,
                bad ? 3.0f : sel ? 2.0f : 1.0f);
  if (self->focus == (int) k && gtk_widget_has_visible_focus (GTK_WIDGET (self)))
    draw_diamond (snapshot, x, cy, KEY_HALF + 6, NULL, &pal->accent, 1.0f);

  text_size (layout, &tw, &th);
  draw_text (snapshot, layout, x - tw / 2, cy - th / 2, is_dark (&fill) ? &white : &black);

  /* keys stacked at one time: how many */
  if (self->stacked[k] > 1)
    {
      g_autofree char *count = g_strdup_printf (_("×%u"), self->stacked[k]);

      draw_pill (self, snapshot, count, x + KEY_HALF + 2, cy - KEY_HALF + 1,
                 &pal->error, &white, 0);
    }
}

static int
compare_ints (const void *a,
              const void *b)
{
  gint x = *(const gint *) a, y = *(const gint *) b;

  return (x > y) - (x < y);
}

/* The order keys are drawn in, bottom first: the others by index, then
 * the selected ones, the focused key last (on top); hit_key() looks in
 * the opposite order. Returns: (transfer full): n_keys indices. */
static guint *
draw_order (MatTimeline *self)
{
  guint *order = g_new (guint, self->n_keys + 1);
  guint n = 0;

  for (guint pass = 0; pass < 3; pass++)
    for (guint k = 0; k < self->n_keys; k++)
      {
        gboolean focus = self->focus == (int) k;
        gboolean sel = self->selected[k] && !focus;

        if ((pass == 0 && !sel && !focus) || (pass == 1 && sel) || (pass == 2 && focus))
          order[n++] = k;
      }
  return order;
}

static void
draw_keys (MatTimeline   *self,
           GtkSnapshot   *snapshot,
           const Palette *pal,
           double         width,
           double         label_x0,
           double         label_x1)
{
  g_autofree guint *order = draw_order (self);
  g_autofree gint *column_key = NULL;
  double last_caption_x = -G_MAXDOUBLE;
  guint n_columns = (guint) (width + 2 * KEY_REACH) + 1;
  guint in_view = 0;

  /* where time 0 is: the start of key 0's interval */
  {
    double sx = mat_timeline_time_to_x (self, 0);
    GdkRGBA start = with_alpha (&pal->fg, 0.35f);

    gtk_snapshot_append_color (snapshot, &start, &GRAPHENE_RECT_INIT (sx - 1, TRACK_TOP - 4, 2, TRACK_H + 8));
  }

  for (guint k = 0; k < self->n_keys; k++)
    {
      double x = key_x (self, k);

      in_view += x >= -KEY_REACH && x <= width + KEY_REACH;
    }

  /* Each pixel column shows the key drawn last there: the one on top.
   * Sparse, every key in view gets its handle; dense, plain keys get a
   * tick per column and the others their handle, one a column. */
  column_key = g_new (gint, n_columns);
  for (guint c = 0; c < n_columns; c++)
    column_key[c] = -1;
  if (in_view > MAX (width / DENSE_SPACING, 1.0))
    {
      for (guint i = 0; i < self->n_keys; i++)
        {
          double x = key_x (self, order[i]);

          if (x >= -KEY_REACH && x < width + KEY_REACH && !key_stands_out (self, order[i]))
            column_key[(guint) (x + KEY_REACH)] = (gint) order[i];
        }
      for (guint c = 0; c < n_columns; c++)
        if (column_key[c] >= 0)
          draw_key_tick (self, snapshot, pal, (guint) column_key[c], c - KEY_REACH);
      for (guint c = 0; c < n_columns; c++)
        column_key[c] = -1;
      for (guint i = 0; i < self->n_keys; i++)
        {
          double x = key_x (self, order[i]);

          if (x >= -KEY_REACH && x < width + KEY_REACH && key_stands_out (self, order[i]))
            column_key[(guint) (x + KEY_REACH)] = (gint) i;
        }
      /* in drawing order: the focused key last */
      {
        g_autofree gint *shown = g_new (gint, n_columns);
        guint n_shown = 0;

        for (guint c = 0; c < n_columns; c++)
          if (column_key[c] >= 0)
            shown[n_shown++] = column_key[c];
        qsort (shown, n_shown, sizeof (gint), compare_ints);
        for (guint i = 0; i < n_shown; i++)
          draw_key (self, snapshot, pal, order[shown[i]]);
      }
    }
  else
    for (guint i = 0; i < self->n_keys; i++)
      {
        double x = key_x (self, order[i]);

        if (x >= -KEY_REACH && x <= width + KEY_REACH)
          draw_key (self, snapshot, pal, order[i]);
      }

  /* captions: missing phases, and the selected key */
  for (guint k = 0; k < self->n_keys; k++)
    {
      double x = key_x (self, k);
      gboolean missing = (self->flags[k] & KEY_MISSING) != 0;
      g_autofree char *caption = NULL;
      g_autoptr(PangoLayout) cl = NULL;
      double cw, ch, lx;
      GdkRGBA color;

      if (!missing && !(self->selected[k] && self->focus == (int) k))
        continue;
      /* out of view, or too close to the last caption for any */
      if (x < -width || x > 2 * width || x - KEY_HALF <= last_caption_x + 4)
        continue;
      caption = missing
        ? g_strdup_printf (_("missing phase %u"), self->k0[k])
        : g_strdup_printf (_("key %u · phase %u · %u ms"), k, self->k0[k], self->k1[k]);
      cl = make_layout (self, caption, PANGO_SCALE_X_SMALL, missing);
      color = missing ? pal->warning : with_alpha (&pal->fg, 0.75f);
      text_size (cl, &cw, &ch);
      if (x - cw / 2 <= last_caption_x + 4)
        continue;   /* no room: the details and the tooltip still say it */
      lx = MAX (x - cw / 2, 8.0);
      /* clear of the period label: to its left, else its right, else none */
      if (lx + cw + 4 > label_x0 && lx < label_x1 + 4)
        lx = label_x0 - cw - 10 >= 8.0 ? label_x0 - cw - 10 : label_x1 + 8;
      if (lx <= last_caption_x + 4)
        continue;
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

static void
draw_playhead (MatTimeline   *self,
               GtkSnapshot   *snapshot,
               const Palette *pal)
{
  double x = floor (mat_timeline_time_to_x (self, playhead_ms (self)));
  GskRoundedRect rr;
  g_autofree char *text = NULL;

  if (self->period == 0)
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
  double height = gtk_widget_get_height (widget);
  double label_x0, label_x1;
  Palette pal;

  palette_get (widget, &pal);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw_ruler (self, snapshot, &pal, width);

  if (self->block == NULL || shown_material (self) == NULL)
    {
      gtk_snapshot_pop (snapshot);
      return;
    }

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
      gtk_snapshot_pop (snapshot);
      return;
    }

  draw_intervals (self, snapshot, &pal, width);
  draw_playhead (self, snapshot, &pal);
  draw_period_end (self, snapshot, &pal, &label_x0, &label_x1);
  draw_keys (self, snapshot, &pal, width, label_x0, label_x1);

  if (self->drag_mode == DRAG_MOVE && self->drag_key >= 0 && (guint) self->drag_key < self->n_keys)
    {
      g_autofree char *t = format_time (self->k1[self->drag_key]);
      g_autofree char *text = NULL;
      double x = key_x (self, self->drag_key);

      if (self->drag_state & GDK_SHIFT_MASK)
        text = g_strdup_printf (_("%s · period %u ms"), t, self->period);
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
  gtk_snapshot_pop (snapshot);
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
      *minimum = 200;
      *natural = MAX ((int) ceil (content_width (self)), 200);
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

  if (self->fit_pending && width > 0)
    mat_timeline_zoom_to_fit (self);
  else
    configure_adjustments (self);

  if (self->popover != NULL)
    gtk_popover_present (self->popover);
}

/* ---- GtkScrollable ----------------------------------------------------- */

static void
on_adjustment_value_changed (MatTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (MatTimeline    *self,
                GtkAdjustment **slot,
                GtkAdjustment  *adjustment,
                const char     *name)
{
  if (adjustment != NULL && *slot == adjustment)
    return;
  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_data (*slot, self);
      g_object_unref (*slot);
    }
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_swapped (adjustment, "value-changed",
                            G_CALLBACK (on_adjustment_value_changed), self);
  configure_adjustments (self);
  g_object_notify (G_OBJECT (self), name);
}

static void
mat_timeline_scrollable_init (GtkScrollableInterface *iface)
{
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
      self->time_spin = NULL;
    }
  if (self->material_signals != NULL)
    g_signal_group_set_target (self->material_signals, NULL);
  g_clear_object (&self->material_signals);
  g_clear_object (&self->block);
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  g_clear_pointer (&self->lints, g_ptr_array_unref);

  G_OBJECT_CLASS (mat_timeline_parent_class)->dispose (object);
}

static void
mat_timeline_finalize (GObject *object)
{
  MatTimeline *self = MAT_TIMELINE (object);

  g_free (self->k0);
  g_free (self->k1);
  g_free (self->k2);
  g_free (self->flags);
  g_free (self->stacked);
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
    case PROP_RANDOM_OFFSET:
      g_value_set_uint (value, self->random_offset);
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
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
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
    case PROP_RANDOM_OFFSET:
      mat_timeline_set_random_offset (self, g_value_get_uint (value));
      break;
    case PROP_ZOOM:
      mat_timeline_set_zoom (self, g_value_get_double (value));
      break;
    case PROP_SELECTED_KEY:
      mat_timeline_select_key (self, g_value_get_int (value), FALSE);
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value), "hadjustment");
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value), "vadjustment");
      break;
    case PROP_HSCROLL_POLICY:
      if (self->hscroll_policy != (guint) g_value_get_enum (value))
        {
          self->hscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_VSCROLL_POLICY:
      if (self->vscroll_policy != (guint) g_value_get_enum (value))
        {
          self->vscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_binding (GtkWidgetClass  *widget_class,
             guint            keyval,
             GdkModifierType  mods,
             const char      *action)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, mods, action, NULL);
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
  properties[PROP_RANDOM_OFFSET] =
    g_param_spec_uint ("random-offset", NULL, NULL, 0, G_MAXUINT32, 0,
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
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  signals[SCRUBBED] =
    g_signal_new ("scrubbed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "timeline.select-previous", NULL, select_step_activated);
  gtk_widget_class_install_action (widget_class, "timeline.select-next", NULL, select_step_activated);
  gtk_widget_class_install_action (widget_class, "timeline.select-first", NULL, select_step_activated);
  gtk_widget_class_install_action (widget_class, "timeline.select-last", NULL, select_step_activated);
  gtk_widget_class_install_action (widget_class, "timeline.select-none", NULL, select_none_activated);
  gtk_widget_class_install_action (widget_class, "timeline.nudge", "(ib)", nudge_activated);
  gtk_widget_class_install_action (widget_class, "timeline.step-phase", "i", step_phase_activated);
  gtk_widget_class_install_action (widget_class, "timeline.delete", NULL, delete_activated);
  gtk_widget_class_install_action (widget_class, "timeline.insert", NULL, insert_activated);
  gtk_widget_class_install_action (widget_class, "timeline.edit", NULL, edit_activated);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_fit_activated);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_in_activated);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_out_activated);

  /* every one of these is listed in the shortcuts window (help-overlay.ui) */
  add_binding (widget_class, GDK_KEY_Left, 0, "timeline.select-previous");
  add_binding (widget_class, GDK_KEY_Right, 0, "timeline.select-next");
  add_binding (widget_class, GDK_KEY_Home, 0, "timeline.select-first");
  add_binding (widget_class, GDK_KEY_End, 0, "timeline.select-last");
  add_binding (widget_class, GDK_KEY_Escape, 0, "timeline.select-none");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK,
                                       "timeline.nudge", "(ib)", -1, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK,
                                       "timeline.nudge", "(ib)", 1, FALSE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK | GDK_SHIFT_MASK,
                                       "timeline.nudge", "(ib)", -1, TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK | GDK_SHIFT_MASK,
                                       "timeline.nudge", "(ib)", 1, TRUE);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.step-phase", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.step-phase", "i", -1);
  add_binding (widget_class, GDK_KEY_Delete, 0, "timeline.delete");
  add_binding (widget_class, GDK_KEY_BackSpace, 0, "timeline.delete");
  add_binding (widget_class, GDK_KEY_Insert, 0, "timeline.insert");
  add_binding (widget_class, GDK_KEY_Return, 0, "timeline.edit");
  add_binding (widget_class, GDK_KEY_KP_Enter, 0, "timeline.edit");
  add_binding (widget_class, GDK_KEY_F2, 0, "timeline.edit");
  add_binding (widget_class, GDK_KEY_0, 0, "timeline.zoom-fit");
  add_binding (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "timeline.zoom-fit");
  add_binding (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out");

  gtk_widget_class_set_css_name (widget_class, "mattimeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
mat_timeline_init (MatTimeline *self)
{
  GtkGesture *drag, *click;
  GtkEventController *scroll_controller;

  mat_style_ensure ();
  self->zoom = ZOOM_DEFAULT;
  self->focus = -1;
  self->popover_key = -1;
  self->press_key = -1;
  self->selected = g_new0 (gboolean, 1);
  self->k0 = g_new0 (guint16, 1);
  self->k1 = g_new0 (guint16, 1);
  self->k2 = g_new0 (guint16, 1);
  self->flags = g_new0 (guint8, 1);
  self->stacked = g_new0 (guint16, 1);
  set_adjustment (self, &self->hadjustment, NULL, "hadjustment");
  set_adjustment (self, &self->vadjustment, NULL, "vadjustment");

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), self);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_context_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

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
  update_actions (self);
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

  /* a new block: no selection, the whole period in view */
  g_clear_pointer (&self->k1, g_free);
  self->focus = -1;
  resync (self);
  mat_timeline_zoom_to_fit (self);
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

guint
mat_timeline_get_random_offset (MatTimeline *self)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), 0);

  return self->random_offset;
}

void
mat_timeline_set_random_offset (MatTimeline *self,
                                guint        random_offset)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  if (self->random_offset == random_offset)
    return;
  self->random_offset = random_offset;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANDOM_OFFSET]);
}

guint
mat_timeline_get_playhead (MatTimeline *self)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), 0);

  return playhead_time (self);
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

  zoom_at (self, zoom, 0.0);
}

void
mat_timeline_zoom_in (MatTimeline *self)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  zoom_at (self, self->zoom * ZOOM_STEP, zoom_centre (self));
}

void
mat_timeline_zoom_out (MatTimeline *self)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  zoom_at (self, self->zoom / ZOOM_STEP, zoom_centre (self));
}

void
mat_timeline_zoom_to_fit (MatTimeline *self)
{
  double width, span, zoom;

  g_return_if_fail (MAT_IS_TIMELINE (self));

  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (width <= 0)
    {
      /* not shown yet: when it gets its size */
      self->fit_pending = TRUE;
      return;
    }
  self->fit_pending = FALSE;
  span = MAX (self->period, self->max_time);
  if (span <= 0)
    span = 1000.0;
  zoom = CLAMP ((width - 2 * PAD_X - END_ROOM) * 1000.0 / span, ZOOM_MIN, ZOOM_MAX);
  if (zoom != self->zoom)
    {
      self->zoom = zoom;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
  configure_adjustments (self);
  if (self->hadjustment != NULL)
    gtk_adjustment_set_value (self->hadjustment, 0.0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
mat_timeline_get_offset (MatTimeline *self)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), 0.0);

  return offset (self);
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
mat_timeline_get_key_popover (MatTimeline *self)
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

char *
mat_timeline_dup_tooltip_text (MatTimeline *self,
                               double       x,
                               double       y)
{
  g_return_val_if_fail (MAT_IS_TIMELINE (self), NULL);

  return tooltip_text_at (self, x, y);
}

/* ---- test hooks: the gesture handlers themselves ------------------------ */

/* Event times for the hooks: separate gestures far apart, the presses of
 * one multiple click 1 ms apart. */
static guint32 test_clock;

void
mat_timeline_test_drag_begin (MatTimeline    *self,
                              double          x,
                              double          y,
                              GdkModifierType state)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  test_clock += 10000;
  drag_begin (self, x, y, state, test_clock);
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

  test_clock += 10000;
  drag_begin (self, x, y, state, test_clock);
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

  test_clock += 10000;
  if (button == GDK_BUTTON_PRIMARY)
    for (guint i = 0; i < n_press; i++)
      {
        drag_begin (self, x, y, state, test_clock + i);
        drag_end (self, 0, 0);
      }
  else if (button == GDK_BUTTON_SECONDARY)
    context_click (self, x, y);
}

void
mat_timeline_test_scroll (MatTimeline    *self,
                          double          dy,
                          GdkModifierType state)
{
  g_return_if_fail (MAT_IS_TIMELINE (self));

  scroll (self, dy, state, zoom_centre (self));
}
