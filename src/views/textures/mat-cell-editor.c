/* mat-cell-editor.c - the Page rectangles of a texture, drawn over it */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "mat-cell-editor.h"
#include "mat-texture-draw.h"

#define PAD          16     /* around the texture: room for handles */
#define MAX_ZOOM     32
#define HANDLE       7      /* handle squares, pixels */
#define HANDLE_SLOP  2      /* a handle grabs this many pixels around it */
#define EDGE_SLOP    5      /* an edge grabs this many pixels inside it */
#define CHECKER      8

typedef enum {
  DRAG_NONE,
  DRAG_PENDING,   /* pressed, not decided yet (a click or a drag) */
  DRAG_DRAW,
  DRAG_MOVE,
  DRAG_RESIZE,
} DragMode;

enum {
  EDGE_LEFT   = 1 << 0,
  EDGE_RIGHT  = 1 << 1,
  EDGE_TOP    = 1 << 2,
  EDGE_BOTTOM = 1 << 3,
};

struct _MatCellEditor
{
  GtkWidget          parent_instance;

  MatTextureLibrary *library;
  MatTexture        *texture;
  cairo_surface_t   *surface;    /* level 0, premultiplied, reduced to at most
                                    MAT_TEXTURE_MAX_SHOWN_SIDE a side; NULL: none */
  MatTextureFit      fit;        /* how the surface shows level 0 */
  guint              grid;
  gint               selected;

  /* layout, from the last allocation */
  double             zoom;
  double             origin_x;
  double             origin_y;

  /* the drag under way */
  DragMode           mode;
  DragMode           pending;    /* what a pending press becomes when it moves */
  guint              edges;
  gint               index;      /* the rectangle edited; n: a new one */
  double             press_x;    /* texels */
  double             press_y;
  TexmRect           before;
  TexmRect           shown;
};

G_DEFINE_FINAL_TYPE (MatCellEditor, mat_cell_editor, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TEXTURE,
  PROP_GRID,
  PROP_SELECTED,
  PROP_ZOOM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_ERROR,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- the texture ------------------------------------------------------ */

static guint
tex_width (MatCellEditor *self)
{
  return self->texture != NULL ? mat_texture_get_width (self->texture) : 0;
}

static guint
tex_height (MatCellEditor *self)
{
  return self->texture != NULL ? mat_texture_get_height (self->texture) : 0;
}

static const TexmRect *
rects (MatCellEditor *self,
       guint         *n)
{
  *n = 0;
  if (self->texture == NULL)
    return NULL;
  return mat_texture_get_rects (self->texture, n, NULL);
}

static void
surface_update (MatCellEditor *self)
{
  g_autoptr(GBytes) rgba = NULL;
  guint w = 0, h = 0;

  g_clear_pointer (&self->surface, cairo_surface_destroy);
  self->fit = MAT_TEXTURE_FIT_NONE;
  if (self->texture == NULL || mat_texture_get_error (self->texture) != NULL)
    return;
  /* a texture no surface holds: a smaller level or a reduction of it,
   * drawn at the texture's size */
  rgba = mat_texture_dup_rgba_fitted (self->texture, 0, MAT_TEXTURE_MAX_SHOWN_SIDE, &w, &h, &self->fit);
  if (rgba == NULL || w == 0 || h == 0)
    return;

  self->surface = mat_texture_draw_surface_new (g_bytes_get_data (rgba, NULL), w, h, 0);
}

static void
set_selected (MatCellEditor *self,
              gint           cell)
{
  if (self->selected == cell)
    return;
  self->selected = cell;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "cells.delete", cell >= 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

static void
texture_changed_cb (MatCellEditor *self)
{
  guint n;

  /* an undo (or another view) changed the texture under a drag */
  self->mode = DRAG_NONE;
  surface_update (self);
  rects (self, &n);
  if (self->selected >= (gint) n)
    set_selected (self, n > 0 ? (gint) n - 1 : -1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- geometry --------------------------------------------------------- */

static void
layout_update (MatCellEditor *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double tw = tex_width (self), th = tex_height (self);
  double avail_w = MAX (width - 2 * PAD, 1);
  double avail_h = MAX (height - 2 * PAD, 1);
  double zoom = 1;

  if (tw > 0 && th > 0)
    {
      if (tw <= avail_w && th <= avail_h)
        zoom = MIN (MAX_ZOOM, floor (MIN (avail_w / tw, avail_h / th)));
      else
        while (zoom > 1.0 / 64 && (tw * zoom > avail_w || th * zoom > avail_h))
          zoom /= 2;
    }
  self->origin_x = floor ((width - tw * zoom) / 2);
  self->origin_y = floor ((height - th * zoom) / 2);
  if (zoom != self->zoom)
    {
      self->zoom = zoom;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
}

static void
to_texels (MatCellEditor *self,
           double         wx,
           double         wy,
           double        *tx,
           double        *ty)
{
  *tx = (wx - self->origin_x) / self->zoom;
  *ty = (wy - self->origin_y) / self->zoom;
}

static gint
snap (MatCellEditor *self,
      double         v)
{
  double step = MAX (self->grid, 1);

  return (gint) (round (v / step) * step);
}

static void
rect_in_widget (MatCellEditor  *self,
                const TexmRect *r,
                graphene_rect_t *out)
{
  graphene_rect_init (out,
                      (float) (self->origin_x + r->x * self->zoom),
                      (float) (self->origin_y + r->y * self->zoom),
                      (float) (r->w * self->zoom),
                      (float) (r->h * self->zoom));
}

/* Which edges of @r (the selected rectangle, the only one with handles)
 * the point (@wx, @wy) grabs: one of the eight handles drawn on it, or a
 * band along an edge inside it. Just outside it, away from a handle, a
 * press grabs nothing, so that a new rectangle can be drawn beside it. */
static guint
hit_edges (MatCellEditor  *self,
           const TexmRect *r,
           double          wx,
           double          wy)
{
  static const guint xe[3] = { EDGE_LEFT, 0, EDGE_RIGHT };
  static const guint ye[3] = { EDGE_TOP, 0, EDGE_BOTTOM };
  const double grab = HANDLE / 2.0 + HANDLE_SLOP;
  graphene_rect_t b;
  double xs[3], ys[3], slop_x, slop_y;
  guint edges = 0;

  rect_in_widget (self, r, &b);
  xs[0] = b.origin.x;
  xs[1] = b.origin.x + b.size.width / 2;
  xs[2] = b.origin.x + b.size.width;
  ys[0] = b.origin.y;
  ys[1] = b.origin.y + b.size.height / 2;
  ys[2] = b.origin.y + b.size.height;
  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      if ((i != 1 || j != 1) && fabs (wx - xs[i]) <= grab && fabs (wy - ys[j]) <= grab)
        return xe[i] | ye[j];

  if (wx < xs[0] || wx > xs[2] || wy < ys[0] || wy > ys[2])
    return 0;
  /* a small rectangle keeps its middle half to move it by */
  slop_x = MIN (EDGE_SLOP, b.size.width / 4);
  slop_y = MIN (EDGE_SLOP, b.size.height / 4);
  if (wx - xs[0] <= slop_x)
    edges |= EDGE_LEFT;
  else if (xs[2] - wx <= slop_x)
    edges |= EDGE_RIGHT;
  if (wy - ys[0] <= slop_y)
    edges |= EDGE_TOP;
  else if (ys[2] - wy <= slop_y)
    edges |= EDGE_BOTTOM;
  return edges;
}

static gboolean
hit_inside (MatCellEditor  *self,
            const TexmRect *r,
            double          wx,
            double          wy)
{
  graphene_rect_t b;

  rect_in_widget (self, r, &b);
  return graphene_rect_contains_point (&b, &GRAPHENE_POINT_INIT ((float) wx, (float) wy));
}

/* ---- drawing ---------------------------------------------------------- */

static void
draw_texture (MatCellEditor *self,
              cairo_t       *cr)
{
  double w = tex_width (self) * self->zoom;
  double h = tex_height (self) * self->zoom;
  double sx, sy;

  cairo_rectangle (cr, self->origin_x, self->origin_y, w, h);
  cairo_clip (cr);
  /* the checkerboard, so alpha shows */
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0.8, 0.8, 0.8);
  for (int row = 0; row * CHECKER < h; row++)
    for (int col = row % 2; col * CHECKER < w; col += 2)
      cairo_rectangle (cr, self->origin_x + col * CHECKER, self->origin_y + row * CHECKER,
                       CHECKER, CHECKER);
  cairo_fill (cr);

  if (self->surface == NULL)
    return;
  sx = self->zoom * tex_width (self) / cairo_image_surface_get_width (self->surface);
  sy = self->zoom * tex_height (self) / cairo_image_surface_get_height (self->surface);
  cairo_translate (cr, self->origin_x, self->origin_y);
  cairo_scale (cr, sx, sy);
  cairo_set_source_surface (cr, self->surface, 0, 0);
  /* enlarged texels stay sharp squares: rectangles are placed on them */
  cairo_pattern_set_filter (cairo_get_source (cr),
                            sx >= 1 && sy >= 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_paint (cr);
}

static void
draw_grid (MatCellEditor *self,
           GtkSnapshot   *snapshot)
{
  const GdkRGBA line = { 0, 0, 0, 0.22f };
  double step;
  guint tw = tex_width (self), th = tex_height (self);

  if (self->grid <= 1)
    return;
  step = self->grid * self->zoom;
  if (step < 4)
    return;
  for (guint x = self->grid; x < tw; x += self->grid)
    gtk_snapshot_append_color (snapshot, &line,
                               &GRAPHENE_RECT_INIT ((float) (self->origin_x + x * self->zoom), (float) self->origin_y,
                                                    1, (float) (th * self->zoom)));
  for (guint y = self->grid; y < th; y += self->grid)
    gtk_snapshot_append_color (snapshot, &line,
                               &GRAPHENE_RECT_INIT ((float) self->origin_x, (float) (self->origin_y + y * self->zoom),
                                                    (float) (tw * self->zoom), 1));
}

static void
outline (GtkSnapshot           *snapshot,
         const graphene_rect_t *b,
         float                  width,
         const GdkRGBA         *color)
{
  GskRoundedRect rr;
  const float widths[4] = { width, width, width, width };
  const GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&rr, b, 0);
  gtk_snapshot_append_border (snapshot, &rr, widths, colors);
}

static void
draw_label (MatCellEditor         *self,
            GtkSnapshot           *snapshot,
            const graphene_rect_t *b,
            guint                  number,
            gboolean               selected)
{
  g_autofree char *text = g_strdup_printf ("%u", number);
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  const GdkRGBA white = { 1, 1, 1, 1 };
  const GdkRGBA back = selected ? (GdkRGBA) { 0.21f, 0.52f, 0.89f, 0.95f }
                                : (GdkRGBA) { 0, 0, 0, 0.7f };
  int lw, lh;

  pango_layout_get_pixel_size (layout, &lw, &lh);
  gtk_snapshot_append_color (snapshot, &back,
                             &GRAPHENE_RECT_INIT (b->origin.x, b->origin.y, (float) lw + 6, (float) lh + 2));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (b->origin.x + 3, b->origin.y + 1));
  gtk_snapshot_append_layout (snapshot, layout, &white);
  gtk_snapshot_restore (snapshot);
  g_object_unref (layout);
}

static void
draw_rect (MatCellEditor  *self,
           GtkSnapshot    *snapshot,
           const TexmRect *r,
           guint           number,
           gboolean        selected)
{
  const GdkRGBA dark = { 0, 0, 0, 0.75f };
  const GdkRGBA light = { 1, 1, 1, 0.95f };
  const GdkRGBA accent = { 0.21f, 0.52f, 0.89f, 1 };
  const GdkRGBA tint = { 0.21f, 0.52f, 0.89f, 0.18f };
  graphene_rect_t b, inner;

  rect_in_widget (self, r, &b);
  /* a dark and a light line: visible over any texture */
  graphene_rect_inset_r (&b, -1, -1, &inner);
  outline (snapshot, &inner, 1, &dark);
  if (selected)
    {
      gtk_snapshot_append_color (snapshot, &tint, &b);
      outline (snapshot, &b, 2, &accent);
    }
  else
    outline (snapshot, &b, 1, &light);
  draw_label (self, snapshot, &b, number, selected);

  if (selected)
    {
      float xs[3] = { b.origin.x, b.origin.x + b.size.width / 2, b.origin.x + b.size.width };
      float ys[3] = { b.origin.y, b.origin.y + b.size.height / 2, b.origin.y + b.size.height };

      for (guint i = 0; i < 3; i++)
        for (guint j = 0; j < 3; j++)
          {
            graphene_rect_t h;

            if (i == 1 && j == 1)
              continue;
            graphene_rect_init (&h, xs[i] - HANDLE / 2.0f, ys[j] - HANDLE / 2.0f, HANDLE, HANDLE);
            gtk_snapshot_append_color (snapshot, &light, &h);
            outline (snapshot, &h, 1, &accent);
          }
    }
}

static void
mat_cell_editor_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  MatCellEditor *self = MAT_CELL_EDITOR (widget);
  const TexmRect *list;
  gboolean editing;
  guint n;

  if (self->texture == NULL || tex_width (self) == 0)
    return;
  layout_update (self);

  {
    cairo_t *cr = gtk_snapshot_append_cairo (snapshot,
                                             &GRAPHENE_RECT_INIT (0, 0,
                                                                  (float) gtk_widget_get_width (widget),
                                                                  (float) gtk_widget_get_height (widget)));
    draw_texture (self, cr);
    cairo_destroy (cr);
  }
  draw_grid (self, snapshot);

  list = rects (self, &n);
  editing = self->mode == DRAG_DRAW || self->mode == DRAG_MOVE || self->mode == DRAG_RESIZE;
  for (guint i = 0; i < n; i++)
    {
      if ((gint) i == self->selected || (editing && (gint) i == self->index))
        continue;
      draw_rect (self, snapshot, &list[i], i, FALSE);
    }
  if (editing)
    draw_rect (self, snapshot, &self->shown, (guint) self->index, TRUE);
  else if (self->selected >= 0 && (guint) self->selected < n)
    draw_rect (self, snapshot, &list[self->selected], (guint) self->selected, TRUE);
}

static void
mat_cell_editor_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  MatCellEditor *self = MAT_CELL_EDITOR (widget);
  guint side = orientation == GTK_ORIENTATION_HORIZONTAL ? tex_width (self) : tex_height (self);

  *minimum = 160;
  *natural = MAX (*minimum, (int) MIN (side * 4, 640) + 2 * PAD);
}

static void
mat_cell_editor_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  layout_update (MAT_CELL_EDITOR (widget));
}

/* ---- editing ---------------------------------------------------------- */

/* Commits @r as rectangle @index (n: appended): one undo step. */
static void
commit (MatCellEditor  *self,
        gint            index,
        const TexmRect *r)
{
  g_autoptr(GError) error = NULL;
  g_autofree TexmRect *edited = NULL;
  const TexmRect *list;
  guint n, n_new;

  list = rects (self, &n);
  n_new = (guint) index >= n ? n + 1 : n;
  edited = g_new (TexmRect, n_new);
  if (n > 0)
    memcpy (edited, list, n * sizeof *edited);
  edited[index] = *r;
  if (!mat_texture_library_set_page_rects (self->library, self->texture, edited, n_new, &error))
    {
      g_signal_emit (self, signals[SIGNAL_ERROR], 0, error->message);
      return;
    }
  set_selected (self, index);
}

static void
clamp_into (MatCellEditor *self,
            gint          *lo,
            gint          *hi,
            gint           limit)
{
  *lo = CLAMP (*lo, 0, limit);
  *hi = CLAMP (*hi, 0, limit);
}

/* The rectangle of the drag under way, from the texel point (@tx, @ty). */
static void
drag_to (MatCellEditor *self,
         double         tx,
         double         ty)
{
  gint tw = (gint) tex_width (self), th = (gint) tex_height (self);
  gint step = (gint) MAX (self->grid, 1);
  double dx = tx - self->press_x, dy = ty - self->press_y;

  switch (self->mode)
    {
    case DRAG_DRAW:
      {
        gint x0 = snap (self, self->press_x), y0 = snap (self, self->press_y);
        gint x1 = snap (self, tx), y1 = snap (self, ty);

        clamp_into (self, &x0, &x1, tw);
        clamp_into (self, &y0, &y1, th);
        self->shown.x = (gint16) MIN (x0, x1);
        self->shown.y = (gint16) MIN (y0, y1);
        self->shown.w = (gint16) ABS (x1 - x0);
        self->shown.h = (gint16) ABS (y1 - y0);
      }
      break;

    case DRAG_MOVE:
      {
        gint x = snap (self, self->before.x + dx), y = snap (self, self->before.y + dy);

        self->shown = self->before;
        self->shown.x = (gint16) CLAMP (x, 0, MAX (tw - self->before.w, 0));
        self->shown.y = (gint16) CLAMP (y, 0, MAX (th - self->before.h, 0));
      }
      break;

    case DRAG_RESIZE:
      {
        gint left = self->before.x, right = self->before.x + self->before.w;
        gint top = self->before.y, bottom = self->before.y + self->before.h;
        gint min_w = MIN (step, MAX (right - left, 1));
        gint min_h = MIN (step, MAX (bottom - top, 1));

        if (self->edges & EDGE_LEFT)
          left = CLAMP (snap (self, left + dx), 0, right - min_w);
        if (self->edges & EDGE_RIGHT)
          right = CLAMP (snap (self, right + dx), left + min_w, tw);
        if (self->edges & EDGE_TOP)
          top = CLAMP (snap (self, top + dy), 0, bottom - min_h);
        if (self->edges & EDGE_BOTTOM)
          bottom = CLAMP (snap (self, bottom + dy), top + min_h, th);
        self->shown.x = (gint16) left;
        self->shown.w = (gint16) (right - left);
        self->shown.y = (gint16) top;
        self->shown.h = (gint16) (bottom - top);
      }
      break;

    case DRAG_NONE:
    case DRAG_PENDING:
    default:
      break;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               MatCellEditor  *self)
{
  const TexmRect *list;
  guint n;

  self->mode = DRAG_NONE;
  if (self->texture == NULL || self->library == NULL || mat_texture_get_image (self->texture) == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_widget_grab_focus (GTK_WIDGET (self));
  layout_update (self);
  list = rects (self, &n);
  to_texels (self, x, y, &self->press_x, &self->press_y);
  self->mode = DRAG_PENDING;
  self->edges = 0;
  self->index = -1;

  /* the selected rectangle's handles and edges first, then the
   * rectangles from the top (the last drawn) down */
  if (self->selected >= 0 && (guint) self->selected < n)
    {
      self->edges = hit_edges (self, &list[self->selected], x, y);
      if (self->edges != 0)
        self->index = self->selected;
      else if (hit_inside (self, &list[self->selected], x, y))
        self->index = self->selected;
    }
  for (gint i = (gint) n - 1; self->index < 0 && i >= 0; i--)
    if (hit_inside (self, &list[i], x, y))
      self->index = i;

  if (self->index >= 0)
    {
      self->before = list[self->index];
      self->shown = self->before;
      self->pending = self->edges != 0 ? DRAG_RESIZE : DRAG_MOVE;
      set_selected (self, self->index);
    }
  else
    {
      self->index = (gint) n;
      self->pending = DRAG_DRAW;
      memset (&self->before, 0, sizeof self->before);
      self->shown = self->before;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          offset_x,
                double          offset_y,
                MatCellEditor  *self)
{
  double sx, sy, tx, ty;

  if (self->mode == DRAG_NONE)
    return;
  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  if (self->mode == DRAG_PENDING)
    {
      /* a few pixels of motion make it a drag */
      if (hypot (offset_x, offset_y) < 3)
        return;
      self->mode = self->pending;
    }
  to_texels (self, sx + offset_x, sy + offset_y, &tx, &ty);
  drag_to (self, tx, ty);
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          offset_x,
             double          offset_y,
             MatCellEditor  *self)
{
  DragMode mode = self->mode;
  guint n;

  self->mode = DRAG_NONE;
  switch (mode)
    {
    case DRAG_PENDING:
      /* a click: on a rectangle it selected it, on empty space nothing */
      if (self->pending == DRAG_DRAW)
        set_selected (self, -1);
      break;
    case DRAG_DRAW:
      if (self->shown.w > 0 && self->shown.h > 0)
        commit (self, self->index, &self->shown);
      break;
    case DRAG_MOVE:
    case DRAG_RESIZE:
      rects (self, &n);
      if ((guint) self->index < n && memcmp (&self->shown, &self->before, sizeof self->shown) != 0)
        commit (self, self->index, &self->shown);
      break;
    case DRAG_NONE:
    default:
      break;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_cancel_cb (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                MatCellEditor    *self)
{
  self->mode = DRAG_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The pointer's shape tells what a press would do. */
static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           MatCellEditor            *self)
{
  static const char *const names[16] = {
    [EDGE_LEFT] = "w-resize", [EDGE_RIGHT] = "e-resize",
    [EDGE_TOP] = "n-resize", [EDGE_BOTTOM] = "s-resize",
    [EDGE_LEFT | EDGE_TOP] = "nw-resize", [EDGE_RIGHT | EDGE_TOP] = "ne-resize",
    [EDGE_LEFT | EDGE_BOTTOM] = "sw-resize", [EDGE_RIGHT | EDGE_BOTTOM] = "se-resize",
  };
  const char *cursor = "crosshair";
  const TexmRect *list;
  guint n;

  if (self->mode != DRAG_NONE || self->texture == NULL)
    return;
  list = rects (self, &n);
  if (self->selected >= 0 && (guint) self->selected < n)
    {
      guint edges = hit_edges (self, &list[self->selected], x, y);

      if (edges != 0 && names[edges] != NULL)
        cursor = names[edges];
      else if (hit_inside (self, &list[self->selected], x, y))
        cursor = "move";
    }
  if (g_str_equal (cursor, "crosshair"))
    for (guint i = 0; i < n; i++)
      if (hit_inside (self, &list[i], x, y))
        cursor = "move";
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), cursor);
}

gboolean
mat_cell_editor_delete_selected (MatCellEditor  *self,
                                 GError        **error)
{
  g_autofree TexmRect *edited = NULL;
  const TexmRect *list;
  guint n;
  gint cell;

  g_return_val_if_fail (MAT_IS_CELL_EDITOR (self), FALSE);

  list = rects (self, &n);
  cell = self->selected;
  if (cell < 0 || (guint) cell >= n || self->library == NULL)
    return FALSE;
  edited = g_new (TexmRect, MAX (n, 1));
  memcpy (edited, list, n * sizeof *edited);
  memmove (edited + cell, edited + cell + 1, (n - (guint) cell - 1) * sizeof *edited);
  if (!mat_texture_library_set_page_rects (self->library, self->texture, edited, n - 1, error))
    return FALSE;
  set_selected (self, n - 1 > 0 ? MIN (cell, (gint) n - 2) : -1);
  return TRUE;
}

gboolean
mat_cell_editor_set_selected_rect (MatCellEditor   *self,
                                   const TexmRect  *rect,
                                   GError         **error)
{
  g_autofree TexmRect *edited = NULL;
  const TexmRect *list;
  guint n;
  gint cell;

  g_return_val_if_fail (MAT_IS_CELL_EDITOR (self), FALSE);
  g_return_val_if_fail (rect != NULL, FALSE);

  list = rects (self, &n);
  cell = self->selected;
  if (cell < 0 || (guint) cell >= n || self->library == NULL)
    return FALSE;
  if (memcmp (&list[cell], rect, sizeof *rect) == 0)
    return TRUE;
  edited = g_memdup2 (list, n * sizeof *edited);
  edited[cell] = *rect;
  /* a drag under way gives way to the typed numbers */
  self->mode = DRAG_NONE;
  return mat_texture_library_set_page_rects (self->library, self->texture, edited, n, error);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatCellEditor *self = MAT_CELL_EDITOR (widget);
  g_autoptr(GError) error = NULL;

  if (!mat_cell_editor_delete_selected (self, &error) && error != NULL)
    g_signal_emit (self, signals[SIGNAL_ERROR], 0, error->message);
}

/* ---- GObject ---------------------------------------------------------- */

static void
mat_cell_editor_dispose (GObject *object)
{
  MatCellEditor *self = MAT_CELL_EDITOR (object);

  if (self->texture != NULL)
    g_signal_handlers_disconnect_by_data (self->texture, self);
  g_clear_object (&self->texture);
  g_clear_object (&self->library);
  g_clear_pointer (&self->surface, cairo_surface_destroy);

  G_OBJECT_CLASS (mat_cell_editor_parent_class)->dispose (object);
}

static void
mat_cell_editor_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  MatCellEditor *self = MAT_CELL_EDITOR (object);

  switch (prop_id)
    {
    case PROP_TEXTURE:
      g_value_set_object (value, self->texture);
      break;
    case PROP_GRID:
      g_value_set_uint (value, self->grid);
      break;
    case PROP_SELECTED:
      g_value_set_int (value, self->selected);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_cell_editor_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  MatCellEditor *self = MAT_CELL_EDITOR (object);

  switch (prop_id)
    {
    case PROP_GRID:
      mat_cell_editor_set_grid (self, g_value_get_uint (value));
      break;
    case PROP_SELECTED:
      mat_cell_editor_set_selected (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_cell_editor_class_init (MatCellEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_cell_editor_dispose;
  object_class->get_property = mat_cell_editor_get_property;
  object_class->set_property = mat_cell_editor_set_property;
  widget_class->snapshot = mat_cell_editor_snapshot;
  widget_class->measure = mat_cell_editor_measure;
  widget_class->size_allocate = mat_cell_editor_size_allocate;

  properties[PROP_TEXTURE] =
    g_param_spec_object ("texture", NULL, NULL, MAT_TYPE_TEXTURE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GRID] =
    g_param_spec_uint ("grid", NULL, NULL, 0, 1024, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED] =
    g_param_spec_int ("selected", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, 0, MAX_ZOOM, 1,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MatCellEditor::error:
   * @message: what the model refused
   */
  signals[SIGNAL_ERROR] =
    g_signal_new ("error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_install_action (widget_class, "cells.delete", NULL, delete_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "cells.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "cells.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "cells.delete", NULL);
  gtk_widget_class_set_css_name (widget_class, "celleditor");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
mat_cell_editor_init (MatCellEditor *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->selected = -1;
  self->zoom = 1;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "cells.delete", FALSE);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  g_signal_connect (drag, "cancel", G_CALLBACK (drag_cancel_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
}

GtkWidget *
mat_cell_editor_new (void)
{
  return g_object_new (MAT_TYPE_CELL_EDITOR, NULL);
}

void
mat_cell_editor_set_texture (MatCellEditor     *self,
                             MatTextureLibrary *library,
                             MatTexture        *texture)
{
  g_return_if_fail (MAT_IS_CELL_EDITOR (self));
  g_return_if_fail (library == NULL || MAT_IS_TEXTURE_LIBRARY (library));
  g_return_if_fail (texture == NULL || MAT_IS_TEXTURE (texture));

  g_set_object (&self->library, library);
  if (self->texture == texture)
    return;
  if (self->texture != NULL)
    g_signal_handlers_disconnect_by_data (self->texture, self);
  g_set_object (&self->texture, texture);
  if (texture != NULL)
    g_signal_connect_swapped (texture, "changed", G_CALLBACK (texture_changed_cb), self);
  self->mode = DRAG_NONE;
  surface_update (self);
  set_selected (self, -1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURE]);
}

MatTexture *
mat_cell_editor_get_texture (MatCellEditor *self)
{
  g_return_val_if_fail (MAT_IS_CELL_EDITOR (self), NULL);
  return self->texture;
}

guint
mat_cell_editor_get_grid (MatCellEditor *self)
{
  g_return_val_if_fail (MAT_IS_CELL_EDITOR (self), 0);
  return self->grid;
}

void
mat_cell_editor_set_grid (MatCellEditor *self,
                          guint          grid)
{
  g_return_if_fail (MAT_IS_CELL_EDITOR (self));

  if (self->grid == grid)
    return;
  self->grid = grid;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GRID]);
}

gint
mat_cell_editor_get_selected (MatCellEditor *self)
{
  g_return_val_if_fail (MAT_IS_CELL_EDITOR (self), -1);
  return self->selected;
}

void
mat_cell_editor_set_selected (MatCellEditor *self,
                              gint           cell)
{
  guint n;

  g_return_if_fail (MAT_IS_CELL_EDITOR (self));

  rects (self, &n);
  set_selected (self, cell >= 0 && (guint) cell < n ? cell : -1);
}

double
mat_cell_editor_get_zoom (MatCellEditor *self)
{
  g_return_val_if_fail (MAT_IS_CELL_EDITOR (self), 1);
  layout_update (self);
  return self->zoom;
}

void
mat_cell_editor_texel_to_widget (MatCellEditor *self,
                                 double         tx,
                                 double         ty,
                                 double        *wx,
                                 double        *wy)
{
  g_return_if_fail (MAT_IS_CELL_EDITOR (self));

  layout_update (self);
  *wx = self->origin_x + tx * self->zoom;
  *wy = self->origin_y + ty * self->zoom;
}
