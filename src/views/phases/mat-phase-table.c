/* mat-phase-table.c - the phases of a material as an editable table
 *
 * Column heads, tooltips and readings come from mat0-fields (formats.md
 * 2.2): the ambient colour is the self-light, p3 its opacity in per cent
 * beside its swatch, the bytes the game stores but never draws are
 * dimmed, and p17 is a cell chooser listing the Page rectangles of the
 * phase's texture. The table shows what a modder reads (the colours, the
 * texture, the cell, the power) and fits a 1100 px window; the 18 raw
 * bytes of the selected phase are a detail under it ("Raw Bytes", the
 * phase.show-raw-bytes action), each an editable spin button.
 *
 * The opacity p3 is a spin button beside the self-light's swatch, in per
 * cent (the byte is the per cent); a swatch opens a popover with each of
 * its four bytes as a 0-255 spin button (the opacity in per cent) and a
 * button to the colour chooser. A press on any control of a row, and an
 * edit made in one, selects that row's phase, so the preview shows the
 * phase being edited.
 * The dimmed swatches draw their own veil, the same over any row; the
 * dimmed spin buttons keep the look of an editable field, their number
 * dimmed.
 *
 * Each cell is a plain widget (label, button with a drawn swatch, entry,
 * drop-down, spin button) made by a GtkSignalListItemFactory; on bind it
 * follows its MatPhase with g_signal_connect_object (data = the cell
 * widget) and on unbind it lets go with
 * g_signal_handlers_disconnect_by_data. The raw bytes follow the selected
 * phase the same way (data = the table). Edits go through the model only;
 * a spin gesture (held button, scroll, typed value) is one undo step: a
 * history group opened by the first change and closed by focus-out,
 * Enter, a change of another field or a short pause. What is wrong with a
 * texture name being typed shows in a line under the table.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "cp1251.h"
#include "mat0.h"
#include "mat0-fields.h"
#include "mat-batch.h"
#include "mat-library.h"
#include "mat-phase-table-private.h"
#include "mat-revealer.h"
#include "mat-style.h"
#include "mat-texture-picker.h"
#include "mat-tooltip.h"
#include "mat-wheel.h"

/* A spin gesture closes after this long without a change. */
#define GROUP_IDLE_MS 800

/* How much of the view's background veils a swatch the game never draws
 * (the opacity the dimmed cells had: 0.55 of the colour shows). */
#define SWATCH_VEIL 0.45

/* formats.md 2.1: palette indexes >= 286 read past the palette bank. */
#define PALETTE_BANK_SIZE 286

typedef enum {
  CELL_INDEX,
  CELL_SWATCH,
  CELL_TEXTURE,
  CELL_CHOOSER,   /* p17 as a cell chooser */
  CELL_PARAM,     /* a byte as a spin button */
} CellKind;

typedef struct {
  MatPhaseTable *table;
  CellKind       kind;
  guint          arg;     /* the colour group or the parameter */
} ColumnInfo;

struct _MatPhaseTable
{
  GtkWidget           parent_instance;

  GtkWidget          *toolbar;
  GtkWidget          *scroller;
  GtkColumnView      *column_view;
  GtkSingleSelection *selection;
  GtkLabel           *status_label;
  GtkLabel           *problem_label;
  GtkLabel           *legend_label;
  GtkRevealer        *raw_revealer;
  GtkLabel           *raw_title;
  GtkGrid            *raw_grid;

  /* The raw bytes of the selected phase. */
  GtkWidget          *raw_spins[MAT0_N_PARAMS];
  GtkLabel           *raw_opacity;
  GtkLabel           *raw_cell;
  MatPhase           *raw_phase;
  gboolean            show_raw_bytes;

  /* The texture entry the user last typed in: its problem is shown. */
  GtkWidget          *problem_entry;

  /* The colour popover open on a swatch, if any (its parent). */
  GtkWidget          *popover;
  GtkWidget          *popover_swatch;
  gulong              popover_swatch_id;

  MatMaterial        *material;
  GSignalGroup       *material_signals;
  gboolean            emboss_bump;   /* the game's setting (render.md 2) */
  MatTextureLibrary  *textures;
  gboolean            editable;
  gboolean            status_is_error;

  /* The other materials selected with this one: edits go to them too;
   * the cells bound now, marked where they differ. */
  MatBatch           *batch;
  GHashTable         *bound_cells;
  guint               differs_source;

  /* The open spin gesture (a history group), if any. */
  MatHistory         *group_history;
  MatPhase           *group_phase;
  guint               group_param;
  gulong              group_changed_id;
  guint               group_timeout;
};

G_DEFINE_FINAL_TYPE (MatPhaseTable, mat_phase_table, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MATERIAL,
  PROP_SELECTED,
  PROP_TEXTURES,
  PROP_SHOW_RAW_BYTES,
  PROP_EMBOSS_BUMP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The view's colour groups are the table's, in the same order. */
G_STATIC_ASSERT ((int) MAT_PHASE_COLOUR_DIFFUSE == (int) MAT0_GROUP_DIFFUSE);
G_STATIC_ASSERT ((int) MAT_PHASE_COLOUR_AMBIENT == (int) MAT0_GROUP_SELF_LIGHT);
G_STATIC_ASSERT ((int) MAT_PHASE_COLOUR_SPECULAR == (int) MAT0_GROUP_SPECULAR);
G_STATIC_ASSERT ((int) MAT_PHASE_COLOUR_EMISSIVE == (int) MAT0_GROUP_EMISSIVE);
G_STATIC_ASSERT ((int) MAT_PHASE_N_COLOURS == (int) MAT0_N_GROUPS);

/* First parameter of each colour group; alpha is first + 3. */
static guint
colour_first (MatPhaseColour group)
{
  return mat0_fields_group ((Mat0ColourGroup) group)->bytes[0];
}

/* ------------------------------------------------------------------ */
/* Colours                                                              */

void
mat_phase_colour_to_rgba (const guint8   *params,
                          MatPhaseColour  group,
                          GdkRGBA        *rgba)
{
  guint first;

  g_return_if_fail (params != NULL);
  g_return_if_fail (group < MAT_PHASE_N_COLOURS);
  g_return_if_fail (rgba != NULL);

  first = colour_first (group);
  rgba->red = params[first] / 255.f;
  rgba->green = params[first + 1] / 255.f;
  rgba->blue = params[first + 2] / 255.f;
  if (group == MAT_PHASE_COLOUR_AMBIENT)
    rgba->alpha = MIN (params[first + 3], 100) * 0.01f;
  else
    rgba->alpha = params[first + 3] / 255.f;
}

static guint8
unit_to_byte (float  value,
              double scale)
{
  double v = CLAMP ((double) value, 0.0, 1.0) * scale + 0.5;

  return (guint8) CLAMP (v, 0.0, 255.0);
}

/* Writes @rgba into @params; bytes the colour does not change stay. */
static void
colour_write (guint8         *params,
              MatPhaseColour  group,
              const GdkRGBA  *rgba)
{
  guint first = colour_first (group);
  GdkRGBA old;

  mat_phase_colour_to_rgba (params, group, &old);
  params[first] = unit_to_byte (rgba->red, 255.0);
  params[first + 1] = unit_to_byte (rgba->green, 255.0);
  params[first + 2] = unit_to_byte (rgba->blue, 255.0);
  if (group == MAT_PHASE_COLOUR_AMBIENT)
    {
      /* p3 > 100 (alpha above 1.0) shows as 1.0: keep it unless the
       * alpha was really changed. */
      if (unit_to_byte (rgba->alpha, 100.0) != unit_to_byte (old.alpha, 100.0))
        params[first + 3] = unit_to_byte (rgba->alpha, 100.0);
    }
  else
    params[first + 3] = unit_to_byte (rgba->alpha, 255.0);
}

/* ------------------------------------------------------------------ */
/* Cells                                                                */

static void
cell_mark (GtkWidget   *widget,
           GtkListItem *item,
           CellKind     kind,
           guint        arg)
{
  g_object_set_data (G_OBJECT (widget), "mat-list-item", item);
  g_object_set_data (G_OBJECT (widget), "mat-cell-kind", GUINT_TO_POINTER (kind + 1));
  g_object_set_data (G_OBJECT (widget), "mat-cell-arg", GUINT_TO_POINTER (arg + 1));
  g_object_set_data (G_OBJECT (item), "mat-cell", widget);
}

static guint
cell_get_arg (GtkWidget *widget)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "mat-cell-arg")) - 1;
}

/* Returns: (transfer none) (nullable): the phase shown by the cell: its
 * row's, or for a raw byte the selected one. */
static MatPhase *
cell_get_phase (GtkWidget *widget)
{
  GtkListItem *item = g_object_get_data (G_OBJECT (widget), "mat-list-item");
  MatPhaseTable *raw_table = g_object_get_data (G_OBJECT (widget), "mat-raw-table");
  MatPhase *phase = g_object_get_data (G_OBJECT (widget), "mat-phase");

  if (item != NULL)
    return gtk_list_item_get_item (item);
  if (raw_table != NULL)
    return raw_table->raw_phase;
  return phase;
}

/* Selects the row of @phase: a control edited in another row makes its
 * phase the selected one (the raw bytes and the preview follow). On GTK
 * 4.8 a selection change binds the rows again (their cells show the
 * model's values again): call it when nothing typed is pending, after
 * an edit is written. */
static void
select_phase (MatPhaseTable *self,
              MatPhase      *phase)
{
  guint index;

  if (phase == NULL || self->material == NULL || mat_phase_get_material (phase) != self->material)
    return;
  index = mat_phase_get_index (phase);
  if (gtk_single_selection_get_selected (self->selection) != index)
    gtk_single_selection_set_selected (self->selection, index);
}

typedef struct {
  MatPhaseTable *table;
  MatPhase      *phase;
} SelectLater;

static void
select_later_free (gpointer data)
{
  SelectLater *later = data;

  g_clear_object (&later->table);
  g_clear_object (&later->phase);
  g_free (later);
}

static gboolean
select_phase_idle (gpointer data)
{
  SelectLater *later = data;

  select_phase (later->table, later->phase);
  return G_SOURCE_REMOVE;
}

/* select_phase() once the signal being handled is over (a drop-down's
 * own selection change must not see its row bound again). */
static void
select_phase_later (MatPhaseTable *self,
                    MatPhase      *phase)
{
  SelectLater *later = g_new0 (SelectLater, 1);

  later->table = g_object_ref (self);
  later->phase = g_object_ref (phase);
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, select_phase_idle, later, select_later_free);
}

/* A press on a control of a row (seen before the control takes it):
 * its phase is the one about to be edited. Moving the keyboard's focus
 * through the rows selects nothing; an edit made with the keys selects
 * its row when it is written. */
static void
cell_pressed (GtkGestureClick *gesture,
              int              n_press,
              double           x,
              double           y,
              MatPhaseTable   *self)
{
  select_phase (self, cell_get_phase (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture))));
}

/* Returns: (transfer none) (nullable). */
static MatHistory *
table_history (MatPhaseTable *self)
{
  MatLibrary *library;

  if (self->material == NULL)
    return NULL;
  library = mat_material_get_library (self->material);
  return library != NULL ? mat_library_get_history (library) : NULL;
}

static void
update_status (MatPhaseTable *self)
{
  g_autofree char *text = NULL;

  if (self->material == NULL)
    text = g_strdup ("");
  else if (!self->editable)
    {
      const char *reason = mat_material_get_error (self->material);

      if (reason != NULL)
        text = g_strdup_printf (_("Read-only: %s"), reason);
      else
        text = g_strdup (_("Read-only: this entry is not a MAT0 material"));
    }
  else
    {
      guint n = g_list_model_get_n_items (mat_material_get_phases (self->material));

      text = g_strdup_printf (ngettext ("%u phase", "%u phases", n), n);
    }

  gtk_label_set_text (self->status_label, text);
  mat_tooltip_set_text (GTK_WIDGET (self->status_label), text);
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");
  self->status_is_error = FALSE;
}

static void
show_error (MatPhaseTable *self,
            const GError  *error)
{
  gtk_label_set_text (self->status_label, error->message);
  mat_tooltip_set_text (GTK_WIDGET (self->status_label), error->message);
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
  self->status_is_error = TRUE;
}

static void
edit_succeeded (MatPhaseTable *self)
{
  if (self->status_is_error)
    update_status (self);
}

/* ------------------------------------------------------------------ */
/* Several materials selected                                           */

/* The place @cell edits, as the batch names it. */
static gboolean
cell_what (GtkWidget *cell,
           MatApply  *what)
{
  guint kind = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (cell), "mat-cell-kind")) - 1;
  MatPhase *phase = cell_get_phase (cell);

  if (phase == NULL)
    return FALSE;
  memset (what, 0, sizeof *what);
  what->index = mat_phase_get_index (phase);
  switch (kind)
    {
    case CELL_SWATCH:
      what->kind = MAT_APPLY_GROUP;
      what->group = (Mat0ColourGroup) cell_get_arg (cell);
      return TRUE;
    case CELL_TEXTURE:
      what->kind = MAT_APPLY_TEXTURE;
      return TRUE;
    case CELL_CHOOSER:
      what->kind = MAT_APPLY_PARAM;
      what->byte = MAT0_CELL_BYTE;
      return TRUE;
    case CELL_PARAM:
      what->kind = MAT_APPLY_PARAM;
      what->byte = cell_get_arg (cell);
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
cell_differs (MatPhaseTable *self,
              GtkWidget     *cell)
{
  MatApply what;

  return self->batch != NULL && mat_batch_get_leader (self->batch) == self->material &&
         cell_what (cell, &what) && mat_batch_differs (self->batch, &what);
}

static void
differs_update_cell (MatPhaseTable *self,
                     GtkWidget     *cell)
{
  if (cell_differs (self, cell))
    gtk_widget_add_css_class (cell, "differs");
  else
    gtk_widget_remove_css_class (cell, "differs");
}

static gboolean
differs_update_idle (gpointer data)
{
  MatPhaseTable *self = data;
  GHashTableIter iter;
  gpointer cell;

  self->differs_source = 0;
  g_hash_table_iter_init (&iter, self->bound_cells);
  while (g_hash_table_iter_next (&iter, &cell, NULL))
    differs_update_cell (self, cell);
  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    if (self->raw_spins[i] != NULL)
      differs_update_cell (self, self->raw_spins[i]);
  return G_SOURCE_REMOVE;
}

/* After the frame: a selection of 65,536 is read once it is drawn. */
static void
differs_update_later (MatPhaseTable *self)
{
  if (self->differs_source == 0)
    self->differs_source = g_idle_add_full (G_PRIORITY_LOW, differs_update_idle, self, NULL);
}

/* After an edit of @phase's place @what (kind and where; the phase
 * index is filled in here): the same place of the others selected. The
 * caller holds the history group that makes both one undo step. */
static gboolean
batch_follow (MatPhaseTable *self,
              MatPhase      *phase,
              MatApply       what,
              GError       **error)
{
  if (self->batch == NULL || mat_batch_get_leader (self->batch) != mat_phase_get_material (phase))
    return TRUE;
  what.index = mat_phase_get_index (phase);
  return mat_batch_apply (self->batch, &what, error);
}

static gboolean
batch_differs_at (MatPhaseTable *self,
                  MatPhase      *phase,
                  MatApply       what)
{
  if (self->batch == NULL || mat_batch_get_leader (self->batch) != mat_phase_get_material (phase))
    return FALSE;
  what.index = mat_phase_get_index (phase);
  return mat_batch_differs (self->batch, &what);
}

/* ------------------------------------------------------------------ */
/* Spin gestures as one undo step                                       */

static void
edit_group_forget (MatPhaseTable *self)
{
  g_clear_handle_id (&self->group_timeout, g_source_remove);
  if (self->group_history != NULL)
    g_clear_signal_handler (&self->group_changed_id, self->group_history);
  g_clear_object (&self->group_history);
  g_clear_object (&self->group_phase);
}

static void
edit_group_end (MatPhaseTable *self)
{
  g_autoptr(MatHistory) history = NULL;

  if (self->group_history == NULL)
    return;

  history = g_object_ref (self->group_history);
  edit_group_forget (self);
  if (mat_history_in_group (history))
    mat_history_end_group (history);
}

static void
group_history_changed (MatPhaseTable *self,
                       MatHistory    *history)
{
  /* Undo and redo close open groups: ours is gone, do not end another. */
  if (!mat_history_in_group (history))
    edit_group_forget (self);
}

static gboolean
group_timeout_cb (gpointer user_data)
{
  MatPhaseTable *self = user_data;

  self->group_timeout = 0;
  edit_group_end (self);
  return G_SOURCE_REMOVE;
}

static void
edit_group_begin (MatPhaseTable *self,
                  MatPhase      *phase,
                  guint          param)
{
  MatHistory *history = table_history (self);

  if (history == NULL)
    return;

  if (self->group_history != NULL &&
      (self->group_history != history || self->group_phase != phase ||
       self->group_param != param))
    edit_group_end (self);

  if (self->group_history == NULL)
    {
      mat_history_begin_group (history, NULL);
      self->group_history = g_object_ref (history);
      self->group_phase = g_object_ref (phase);
      self->group_param = param;
      self->group_changed_id =
        g_signal_connect_object (history, "changed",
                                 G_CALLBACK (group_history_changed), self,
                                 G_CONNECT_SWAPPED);
    }

  g_clear_handle_id (&self->group_timeout, g_source_remove);
  self->group_timeout = g_timeout_add (GROUP_IDLE_MS, group_timeout_cb, self);
}

/* ------------------------------------------------------------------ */
/* Index cells                                                          */

static void
index_update (MatPhase   *phase,
              GParamSpec *pspec,
              GtkLabel   *label)
{
  char text[16];

  g_snprintf (text, sizeof text, "%u", mat_phase_get_index (phase));
  gtk_label_set_text (label, text);
}

/* ------------------------------------------------------------------ */
/* Swatch cells                                                         */

/* p3: the opacity in per cent; over 100 is a lint. */
static void
opacity_reading_update (MatPhase *phase,
                        GtkLabel *label)
{
  guint8 p3 = mat_phase_get_param (phase, MAT0_AMBIENT_ALPHA_BYTE);
  g_autofree char *text = mat0_fields_dup_opacity_reading (p3);

  gtk_label_set_text (label, text);
  if (p3 > 100)
    {
      g_autofree char *tip =
        /* Translators: the lint of an opacity byte p3 above 100 */
        g_strdup_printf (_("Lint: p3 = %u, an opacity over 100 %%. The game reads p3 × 0.01 as the opacity; retail materials stay at 100 or below."),
                         p3);

      gtk_widget_add_css_class (GTK_WIDGET (label), "warning");
      mat_tooltip_set_text (GTK_WIDGET (label), tip);
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (label), "warning");
      mat_tooltip_set_text (GTK_WIDGET (label),
                            _(mat0_fields_param (MAT0_AMBIENT_ALPHA_BYTE)->meaning));
    }
}

/* The opacity spin button beside the self-light's swatch: p3, in per
 * cent; over 100 it is marked as the lint. */
static void
opacity_spin_update (MatPhase  *phase,
                     GtkWidget *spin)
{
  guint8 p3 = mat_phase_get_param (phase, MAT0_AMBIENT_ALPHA_BYTE);
  const Mat0ParamField *field = mat0_fields_param (MAT0_AMBIENT_ALPHA_BYTE);
  g_autofree char *tip = NULL;

  if (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)) != p3)
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), p3);
  if (p3 > 100)
    {
      g_autofree char *reading = mat0_fields_dup_opacity_reading (p3);

      /* Translators: an opacity p3 over 100 typed in a colour popover: its
       * reading ("150 % (over 100 %)"), then the lint */
      tip = g_strdup_printf (_("%s\n\nLint: p3 = %u, an opacity over 100 %%. The game reads p3 × 0.01 as the opacity; retail materials stay at 100 or below."),
                             reading, p3);
      gtk_widget_add_css_class (spin, "warning");
    }
  else
    {
      tip = g_strdup_printf ("%s\n%s", _(field->label), _(field->meaning));
      gtk_widget_remove_css_class (spin, "warning");
    }
  mat_tooltip_set_text (spin, tip);
}

static void
opacity_param_changed (MatPhase  *phase,
                       guint      param,
                       GtkWidget *spin)
{
  if (param == MAT0_AMBIENT_ALPHA_BYTE)
    opacity_spin_update (phase, spin);
}

static void
rounded_rect (cairo_t *cr,
              double   x,
              double   y,
              double   w,
              double   h,
              double   r)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  GtkWidget *button = user_data;
  MatPhase *phase = cell_get_phase (button);
  GdkRGBA rgba;
  const double cell = 5.0;

  if (phase == NULL || width < 4 || height < 4)
    return;

  mat_phase_colour_to_rgba (mat_phase_get_params (phase), cell_get_arg (button), &rgba);

  cairo_save (cr);
  rounded_rect (cr, 0.5, 0.5, width - 1.0, height - 1.0, 5.0);
  cairo_clip (cr);

  /* Checkerboard under the right half, where the alpha shows. */
  cairo_set_source_rgb (cr, 0.93, 0.93, 0.93);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0.70, 0.70, 0.70);
  for (int y = 0; y * cell < height; y++)
    for (int x = 0; x * cell < width; x++)
      if ((x + y) % 2 == 0)
        cairo_rectangle (cr, x * cell, y * cell, cell, cell);
  cairo_fill (cr);

  /* Left half: the colour opaque; right half: with its alpha. */
  cairo_set_source_rgb (cr, rgba.red, rgba.green, rgba.blue);
  cairo_rectangle (cr, 0, 0, width / 2.0, height);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, rgba.red, rgba.green, rgba.blue, rgba.alpha);
  cairo_rectangle (cr, width / 2.0, 0, width - width / 2.0, height);
  cairo_fill (cr);
  /* A colour the game never draws is dimmed by a veil of the view's own
   * background drawn here, over an opaque swatch: the same whatever is
   * behind it (a selected row's colour showed through a translucent
   * button). */
  if (!mat0_fields_group ((Mat0ColourGroup) cell_get_arg (button))->drawn)
    {
      GdkRGBA veil = { 1.0f, 1.0f, 1.0f, 1.0f };

      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      gtk_style_context_lookup_color (gtk_widget_get_style_context (GTK_WIDGET (area)),
                                      "theme_base_color", &veil);
      G_GNUC_END_IGNORE_DEPRECATIONS
      cairo_set_source_rgba (cr, veil.red, veil.green, veil.blue, SWATCH_VEIL);
      cairo_paint (cr);
    }
  cairo_restore (cr);

  rounded_rect (cr, 0.5, 0.5, width - 1.0, height - 1.0, 5.0);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.35);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
}

static void
swatch_update (MatPhase  *phase,
               GtkWidget *button)
{
  MatPhaseColour group = cell_get_arg (button);
  const Mat0GroupField *field = mat0_fields_group ((Mat0ColourGroup) group);
  const guint8 *p = mat_phase_get_params (phase);
  const guint *b = field->bytes;
  g_autofree char *values = NULL;
  g_autofree char *tip = NULL;

  if (field->alpha_drawn)
    {
      g_autofree char *opacity = mat0_fields_dup_opacity_reading (p[b[3]]);

      /* Translators: the self-light's bytes: "Self-light: p0–p2 = 80, 0, 0
       * (red, green, blue); p3 = 100, opacity 100 %" */
      values = g_strdup_printf (_("%s: p%u–p%u = %u, %u, %u (red, green, blue); p%u = %u, opacity %s"),
                                _(field->label), b[0], b[2], p[b[0]], p[b[1]], p[b[2]],
                                b[3], p[b[3]], opacity);
    }
  else
    /* Translators: a colour group's bytes: "Diffuse: p4–p7 = 255, 0, 0, 255
     * (red, green, blue, alpha)" */
    values = g_strdup_printf (_("%s: p%u–p%u = %u, %u, %u, %u (red, green, blue, alpha)"),
                              _(field->label), b[0], b[3], p[b[0]], p[b[1]], p[b[2]], p[b[3]]);
  tip = g_strdup_printf ("%s\n\n%s\n%s", values, _(field->meaning),
                         _("Click to type its bytes or pick a colour."));
  mat_tooltip_set_text (button, tip);
  gtk_widget_queue_draw (gtk_button_get_child (GTK_BUTTON (button)));

  /* the self-light's opacity, beside its swatch */
  if (g_object_get_data (G_OBJECT (button), "mat-reading") != NULL)
    {
      GtkWidget *opacity = g_object_get_data (G_OBJECT (button), "mat-opacity");
      g_autofree char *reading = mat0_fields_dup_opacity_reading (p[b[3]]);
      g_autofree char *name = NULL;

      opacity_reading_update (phase, g_object_get_data (G_OBJECT (button), "mat-reading"));
      /* the button says what it is and what it does */
      mat_tooltip_set_text (opacity, _("Click to type the opacity p3 in per cent"));
      /* Translators: the accessible name of the opacity's button: the
       * field's name, then its reading ("Opacity 100 %") */
      name = g_strdup_printf (_("%s %s"), _(mat0_fields_param (MAT0_AMBIENT_ALPHA_BYTE)->label), reading);
      gtk_accessible_update_property (GTK_ACCESSIBLE (opacity), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
    }
}

static void
swatch_param_changed (MatPhase  *phase,
                      guint      param,
                      GtkWidget *button)
{
  guint first = colour_first (cell_get_arg (button));

  if (param >= first && param < first + 4)
    swatch_update (phase, button);
}

typedef struct {
  MatPhaseTable  *table;
  MatPhase       *phase;
  MatPhaseColour  group;
} PickerData;

static void
picker_data_free (gpointer data)
{
  PickerData *picker = data;

  g_clear_object (&picker->table);
  g_clear_object (&picker->phase);
  g_free (picker);
}

static gboolean
apply_colour_to_phase (MatPhaseTable   *self,
                       MatPhase        *phase,
                       MatPhaseColour   group,
                       const GdkRGBA   *rgba,
                       GError         **error)
{
  guint8 params[MAT0_PARAM_COUNT];

  MatHistory *history = table_history (self);
  MatApply what = { .kind = MAT_APPLY_GROUP, .group = (Mat0ColourGroup) group };
  gboolean ok;

  memcpy (params, mat_phase_get_params (phase), sizeof params);
  colour_write (params, group, rgba);
  edit_group_end (self);
  /* with the others selected: one step */
  if (history != NULL)
    mat_history_begin_group (history, NULL);
  ok = mat_phase_set_params (phase, params, error) && batch_follow (self, phase, what, error);
  if (history != NULL)
    mat_history_end_group (history);
  if (!ok)
    return FALSE;
  edit_succeeded (self);
  return TRUE;
}

static void
picker_apply (PickerData    *picker,
              const GdkRGBA *rgba)
{
  g_autoptr(GError) error = NULL;

  /* The phase may have left the material while the dialog was open. */
  if (mat_phase_get_material (picker->phase) == NULL ||
      mat_phase_get_material (picker->phase) != picker->table->material)
    return;
  if (!apply_colour_to_phase (picker->table, picker->phase, picker->group, rgba, &error))
    show_error (picker->table, error);
}

#if GTK_CHECK_VERSION (4, 10, 0)
/* GDK_VERSION_MAX_ALLOWED pins 4.8: this branch is only compiled with a
 * newer GTK, where GtkColorDialog replaces the deprecated chooser. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static void
colour_dialog_done (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  PickerData *picker = user_data;
  g_autoptr(GError) error = NULL;
  GdkRGBA *rgba;

  rgba = gtk_color_dialog_choose_rgba_finish (GTK_COLOR_DIALOG (source), result, &error);
  if (rgba != NULL)
    {
      picker_apply (picker, rgba);
      gdk_rgba_free (rgba);
    }
  picker_data_free (picker);
}

static void
open_colour_picker (MatPhaseTable  *self,
                    MatPhase       *phase,
                    MatPhaseColour  group,
                    const char     *title)
{
  g_autoptr(GtkColorDialog) dialog = gtk_color_dialog_new ();
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  PickerData *picker = g_new0 (PickerData, 1);
  GdkRGBA rgba;

  picker->table = g_object_ref (self);
  picker->phase = g_object_ref (phase);
  picker->group = group;
  mat_phase_colour_to_rgba (mat_phase_get_params (phase), group, &rgba);

  gtk_color_dialog_set_title (dialog, title);
  gtk_color_dialog_set_modal (dialog, TRUE);
  gtk_color_dialog_set_with_alpha (dialog, TRUE);
  gtk_color_dialog_choose_rgba (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                &rgba, NULL, colour_dialog_done, picker);
}
G_GNUC_END_IGNORE_DEPRECATIONS
#else
static void
colour_dialog_response (GtkDialog *dialog,
                        int        response,
                        gpointer   user_data)
{
  PickerData *picker = user_data;

  if (response == GTK_RESPONSE_OK)
    {
      GdkRGBA rgba;

      gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (dialog), &rgba);
      picker_apply (picker, &rgba);
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
open_colour_picker (MatPhaseTable  *self,
                    MatPhase       *phase,
                    MatPhaseColour  group,
                    const char     *title)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  PickerData *picker = g_new0 (PickerData, 1);
  GtkWidget *dialog;
  GdkRGBA rgba;

  picker->table = g_object_ref (self);
  picker->phase = g_object_ref (phase);
  picker->group = group;
  mat_phase_colour_to_rgba (mat_phase_get_params (phase), group, &rgba);

  dialog = gtk_color_chooser_dialog_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL);
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_color_chooser_set_use_alpha (GTK_COLOR_CHOOSER (dialog), TRUE);
  gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (dialog), &rgba);
  /* The custom editor, at the phase's colour: the palette would only
   * offer other colours. (Set after the colour: showing the editor
   * copies the current colour into it.) */
  g_object_set (dialog, "show-editor", TRUE, NULL);
  g_signal_connect_data (dialog, "response", G_CALLBACK (colour_dialog_response),
                         picker, (GClosureNotify) (void (*) (void)) picker_data_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}
#endif

static GtkWidget *spin_new (MatPhaseTable *self,
                            guint          byte);
static void spin_param_changed (MatPhase      *phase,
                                guint          param,
                                GtkSpinButton *spin);

/* Returns: (transfer full): "Self-light Colour of Phase 2". */
static char *
colour_title (MatPhase       *phase,
              MatPhaseColour  group)
{
  /* Translators: the colour dialog's title: a colour group, a phase index */
  return g_strdup_printf (_("%s Colour of Phase %u"),
                          _(mat0_fields_group ((Mat0ColourGroup) group)->label),
                          mat_phase_get_index (phase));
}

/* ---- the colour popover: a group's four bytes, typed ------------------ */

static void popover_swatch_destroyed (GtkWidget     *swatch,
                                      MatPhaseTable *self);

/* Lets go of the popover now (it is unparented). */
static void
popover_forget (MatPhaseTable *self)
{
  GtkWidget *popover = g_steal_pointer (&self->popover);

  if (self->popover_swatch != NULL)
    g_clear_signal_handler (&self->popover_swatch_id, self->popover_swatch);
  self->popover_swatch_id = 0;
  g_clear_weak_pointer (&self->popover_swatch);
  if (popover == NULL)
    return;
  g_signal_handlers_disconnect_by_data (popover, self);
  gtk_widget_unparent (popover);
}

/* Its swatch goes (the row is recycled or the table goes): so does it,
 * before its parent is finalized. */
static void
popover_swatch_destroyed (GtkWidget     *swatch,
                          MatPhaseTable *self)
{
  edit_group_end (self);
  popover_forget (self);
}

static gboolean
popover_closed_idle (gpointer data)
{
  MatPhaseTable *self = data;

  /* a new one may be up meanwhile */
  if (self->popover != NULL && !gtk_widget_get_visible (self->popover))
    popover_forget (self);
  return G_SOURCE_REMOVE;
}

static void
popover_closed_cb (GtkPopover    *popover,
                   MatPhaseTable *self)
{
  /* the gesture typed in it is one step */
  edit_group_end (self);
  /* not from inside its own signal */
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, popover_closed_idle, g_object_ref (self), g_object_unref);
}

static void
popover_chooser_clicked (GtkButton     *button,
                         MatPhaseTable *self)
{
  MatPhase *phase = cell_get_phase (GTK_WIDGET (button));
  MatPhaseColour group = cell_get_arg (GTK_WIDGET (button));
  g_autofree char *title = NULL;

  if (phase == NULL || self->popover == NULL)
    return;
  g_object_ref (phase);
  gtk_popover_popdown (GTK_POPOVER (self->popover));
  edit_group_end (self);
  title = colour_title (phase, group);
  open_colour_picker (self, phase, group, title);
  g_object_unref (phase);
}

/* A popover on @swatch with the four bytes of its group as spin buttons
 * (0..255 each; the opacity p3 in per cent), labelled from mat0-fields,
 * following the model; and a button to the colour chooser. */
static GtkWidget *
colour_popover_new (MatPhaseTable  *self,
                    GtkWidget      *swatch,
                    MatPhase       *phase,
                    MatPhaseColour  group)
{
  const Mat0GroupField *field = mat0_fields_group ((Mat0ColourGroup) group);
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *heading = gtk_label_new (NULL);
  GtkWidget *chooser = gtk_button_new_with_mnemonic (_("_Colour Chooser…"));
  g_autofree char *title = colour_title (phase, group);

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  gtk_widget_add_css_class (grid, "colour-bytes");
  gtk_label_set_text (GTK_LABEL (heading), title);
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  gtk_grid_attach (GTK_GRID (grid), heading, 0, 0, 4, 1);

  for (guint c = 0; c < 4; c++)
    {
      const Mat0ParamField *param = mat0_fields_param (field->bytes[c]);
      const char *unit = mat0_fields_param_unit (param->byte);
      g_autofree char *caption = g_strdup_printf ("p%u", param->byte);
      GtkWidget *label = gtk_label_new (_(param->label));
      GtkWidget *spin = spin_new (self, param->byte);
      GtkWidget *byte = gtk_label_new (caption);

      g_object_set_data_full (G_OBJECT (spin), "mat-phase", g_object_ref (phase), g_object_unref);
      g_object_set_data (G_OBJECT (spin), "mat-cell-arg", GUINT_TO_POINTER (param->byte + 1));
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), mat_phase_get_param (phase, param->byte));
      gtk_widget_set_sensitive (spin, self->editable);
      g_signal_connect_object (phase, "param-changed", G_CALLBACK (spin_param_changed), spin, 0);
      if (param->byte == MAT0_AMBIENT_ALPHA_BYTE)
        {
          opacity_spin_update (phase, spin);
          g_signal_connect_object (phase, "param-changed", G_CALLBACK (opacity_param_changed), spin, 0);
        }

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
      mat_tooltip_set_text (label, _(param->meaning));
      gtk_label_set_xalign (GTK_LABEL (byte), 0);
      gtk_widget_add_css_class (byte, "dim-label");
      gtk_widget_add_css_class (byte, "byte-caption");
      if (!param->drawn)
        gtk_widget_add_css_class (label, "not-drawn");
      gtk_grid_attach (GTK_GRID (grid), label, 0, 1 + (int) c, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), spin, 1, 1 + (int) c, 1, 1);
      if (unit != NULL)
        gtk_grid_attach (GTK_GRID (grid), gtk_label_new (_(unit)), 2, 1 + (int) c, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), byte, 3, 1 + (int) c, 1, 1);
    }

  g_object_set_data_full (G_OBJECT (chooser), "mat-phase", g_object_ref (phase), g_object_unref);
  g_object_set_data (G_OBJECT (chooser), "mat-cell-arg", GUINT_TO_POINTER (group + 1));
  mat_tooltip_set_text (chooser, _("Pick the colour in GTK’s colour chooser"));
  gtk_widget_set_halign (chooser, GTK_ALIGN_END);
  gtk_widget_set_margin_top (chooser, 6);
  gtk_widget_set_sensitive (chooser, self->editable);
  g_signal_connect (chooser, "clicked", G_CALLBACK (popover_chooser_clicked), self);
  gtk_grid_attach (GTK_GRID (grid), chooser, 0, 5, 4, 1);

  gtk_popover_set_child (GTK_POPOVER (popover), grid);
  gtk_widget_set_parent (popover, swatch);
  return popover;
}

/* Opens the popover of @swatch, the focus on the field of byte @focus
 * (G_MAXUINT: the first). */
static void
colour_popover_open (MatPhaseTable *self,
                     GtkWidget     *swatch,
                     guint          focus)
{
  MatPhase *phase = cell_get_phase (swatch);
  MatPhaseColour group = cell_get_arg (swatch);

  if (phase == NULL || !self->editable)
    return;

  /* the row edited is the one shown (its cells bound again first) */
  select_phase (self, phase);
  edit_group_end (self);
  popover_forget (self);
  self->popover = colour_popover_new (self, swatch, phase, group);
  g_set_weak_pointer (&self->popover_swatch, swatch);
  self->popover_swatch_id = g_signal_connect (swatch, "destroy", G_CALLBACK (popover_swatch_destroyed), self);
  g_signal_connect (self->popover, "closed", G_CALLBACK (popover_closed_cb), self);
  gtk_popover_popup (GTK_POPOVER (self->popover));
  if (focus != G_MAXUINT)
    {
      GtkSpinButton *spin = mat_phase_table_get_popover_spin_for_test (self, focus);

      if (spin != NULL)
        gtk_widget_grab_focus (GTK_WIDGET (spin));
    }
}

static void
swatch_clicked (GtkButton     *button,
                MatPhaseTable *self)
{
  colour_popover_open (self, GTK_WIDGET (button), G_MAXUINT);
}

/* The opacity's reading beside the self-light's swatch: its popover, at
 * the opacity. */
static void
opacity_clicked (GtkButton     *button,
                 MatPhaseTable *self)
{
  colour_popover_open (self, g_object_get_data (G_OBJECT (button), "mat-swatch"),
                       MAT0_AMBIENT_ALPHA_BYTE);
}

/* ------------------------------------------------------------------ */
/* Texture cells                                                        */

typedef enum {
  TEXTURE_VALID,
  TEXTURE_LINT,      /* written, but the game may misbehave */
  TEXTURE_INVALID,   /* not written */
} TextureVerdict;

/* Checks a texture name as typed (formats.md 2.1). */
static TextureVerdict
texture_check (const char  *text,
               char       **message)
{
  g_autoptr(GError) error = NULL;
  guint8 field[MAT0_TEXTURE_SIZE];
  gint palette;

  if (text[0] == '\0')
    {
      *message = g_strdup (_("Untextured phase: an empty name gives texture slot −1"));
      return TEXTURE_VALID;
    }
  if (!cp1251_from_utf8 (text, field, sizeof field, &error))
    {
      /* Translators: %s says why, e.g. which character does not fit */
      *message = g_strdup_printf (_("Not written: %s. A texture name holds at most 15 bytes in the game’s code page (CP1251)."),
                                  error->message);
      return TEXTURE_INVALID;
    }
  if (memchr (field, '.', sizeof field) == NULL)
    {
      *message = g_strdup (_("Not written: a texture name needs a “.” (without one the game logs “Bad texture name.” and uses no texture)"));
      return TEXTURE_INVALID;
    }
  palette = mat0_texture_palette_index (field, sizeof field);
  if (palette >= PALETTE_BANK_SIZE)
    {
      *message = g_strdup_printf (_("Lint: the suffix after the “.” selects palette %d, past the game’s %d palettes; an indexed texture would read garbage"),
                                  palette, PALETTE_BANK_SIZE);
      return TEXTURE_LINT;
    }
  *message = g_strdup (_("Texture name: at most 15 CP1251 bytes with a “.”; the letter and digit after the dot pick the palette of an indexed texture. Empty for an untextured phase. Enter applies, Escape reverts."));
  return TEXTURE_VALID;
}

/* The "missing" look: a warning icon in the entry when a texture library
 * is known and @text is not in it. Returns: (transfer full) (nullable):
 * the message, %NULL when the name is there (or nothing to check). */
static char *
texture_missing_message (MatPhaseTable *self,
                         const char    *text)
{
  GFile *file;
  g_autofree char *base = NULL;

  if (self == NULL || self->textures == NULL || text[0] == '\0' ||
      mat_texture_library_lookup (self->textures, text) != NULL)
    return NULL;

  file = mat_texture_library_get_file (self->textures);
  base = file != NULL ? g_file_get_basename (file) : g_strdup ("Textures.lib");
  /* Translators: a texture name, then the texture library's file name */
  return g_strdup_printf (_("%s is not in %s"), text, base);
}

/* Where the game ignores the alpha that texture @text holds (render.md
 * 2: a format without alpha, or a lit skin without emboss bump).
 * Returns: (transfer none) (nullable): the note, translated; %NULL when
 * the texture is not found, holds no alpha or draws it. */
static const char *
texture_alpha_note (MatPhaseTable *self,
                    const char    *text)
{
  MatTexture *texture;
  TexmDrawAlpha how;

  if (self == NULL || self->textures == NULL || self->material == NULL || text[0] == '\0')
    return NULL;
  texture = mat_texture_library_lookup (self->textures, text);
  if (texture == NULL || mat_texture_get_error (texture) != NULL || !mat_texture_has_alpha (texture))
    return NULL;
  how = mat_texture_draw_alpha (texture, mat_material_get_attr1 (self->material), self->emboss_bump);
  return texm_draw_alpha_is_opaque (how) ? _(texm_draw_alpha_note (how)) : NULL;
}

static void
texture_button_update (MatPhaseTable *self,
                       GtkWidget     *button)
{
  /* Without a library the picker offers to open one. */
  if (self->textures == NULL)
    mat_tooltip_set_text (button, _("No Textures.lib beside this library: choose one…"));
  else
    mat_tooltip_set_text (button, _("Choose a texture from Textures.lib…"));
  gtk_widget_set_sensitive (button, self->editable);
}

/* The line under the table: what is wrong with the texture name the
 * user last typed (an error: not written; a warning: a lint or a name
 * missing from Textures.lib), hidden for %NULL. */
static void
problem_show (MatPhaseTable *self,
              const char    *message,
              gboolean       is_error)
{
  GtkWidget *label = GTK_WIDGET (self->problem_label);

  gtk_label_set_text (self->problem_label, message != NULL ? message : "");
  gtk_widget_set_visible (label, message != NULL);
  if (message != NULL && is_error)
    {
      gtk_widget_remove_css_class (label, "warning");
      gtk_widget_add_css_class (label, "error");
    }
  else
    {
      gtk_widget_remove_css_class (label, "error");
      if (message != NULL)
        gtk_widget_add_css_class (label, "warning");
      else
        gtk_widget_remove_css_class (label, "warning");
    }
}

/* Lets go of the texture entry whose problem the line shows. */
static void
problem_forget (MatPhaseTable *self)
{
  g_clear_weak_pointer (&self->problem_entry);
  problem_show (self, NULL, FALSE);
}

static TextureVerdict
texture_entry_validate (GtkWidget *entry)
{
  MatPhaseTable *self = g_object_get_data (G_OBJECT (entry), "mat-table");
  g_autofree char *message = NULL;
  g_autofree char *missing = NULL;
  const char *note = NULL;
  TextureVerdict verdict;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  verdict = texture_check (text, &message);
  if (verdict != TEXTURE_INVALID)
    missing = texture_missing_message (self, text);
  if (missing != NULL)
    {
      char *both = g_strconcat (missing, "\n\n", message, NULL);

      gtk_entry_set_icon_from_icon_name (GTK_ENTRY (entry), GTK_ENTRY_ICON_SECONDARY,
                                         "dialog-warning-symbolic");
      gtk_entry_set_icon_tooltip_text (GTK_ENTRY (entry), GTK_ENTRY_ICON_SECONDARY, missing);
      g_free (message);
      message = both;
    }
  else if (verdict != TEXTURE_INVALID && (note = texture_alpha_note (self, text)) != NULL)
    {
      /* found, but the game draws it without the alpha it holds */
      char *both = g_strconcat (note, "\n\n", message, NULL);

      gtk_entry_set_icon_from_icon_name (GTK_ENTRY (entry), GTK_ENTRY_ICON_SECONDARY,
                                         "dialog-information-symbolic");
      gtk_entry_set_icon_tooltip_text (GTK_ENTRY (entry), GTK_ENTRY_ICON_SECONDARY, note);
      g_free (message);
      message = both;
    }
  else
    gtk_entry_set_icon_from_icon_name (GTK_ENTRY (entry), GTK_ENTRY_ICON_SECONDARY, NULL);
  if (verdict == TEXTURE_INVALID)
    gtk_widget_add_css_class (entry, "error");
  else
    gtk_widget_remove_css_class (entry, "error");
  if (verdict == TEXTURE_LINT)
    gtk_widget_add_css_class (entry, "warning");
  else
    gtk_widget_remove_css_class (entry, "warning");
  mat_tooltip_set_text (entry, message);

  if (self != NULL && entry == self->problem_entry)
    {
      MatPhase *phase = cell_get_phase (entry);
      const char *problem = NULL;
      g_autofree char *line = NULL;

      if (verdict != TEXTURE_VALID)
        {
          /* the first paragraph: the verdict without the general help */
          problem = message;
          if (missing != NULL)
            problem = message + strlen (missing) + 2;
        }
      else if (missing != NULL)
        problem = missing;
      if (problem != NULL && phase != NULL)
        /* Translators: a phase index, then what is wrong with its texture name */
        line = g_strdup_printf (_("Phase %u: %s"), mat_phase_get_index (phase), problem);
      problem_show (self, line, verdict == TEXTURE_INVALID);
    }

  return verdict;
}

static void
texture_update (MatPhase   *phase,
                GParamSpec *pspec,
                GtkWidget  *entry)
{
  const char *texture = mat_phase_get_texture (phase);

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (entry)), texture) != 0)
    gtk_editable_set_text (GTK_EDITABLE (entry), texture);
  else
    texture_entry_validate (entry);
}

static void
texture_changed (GtkEditable   *entry,
                 MatPhaseTable *self)
{
  MatPhase *phase = cell_get_phase (GTK_WIDGET (entry));

  /* Typed (not the stored name shown): this entry's problems are shown
   * under the table until another entry is typed in. */
  if (phase != NULL && g_strcmp0 (gtk_editable_get_text (entry), mat_phase_get_texture (phase)) != 0 &&
      self->problem_entry != GTK_WIDGET (entry))
    {
      problem_forget (self);
      g_set_weak_pointer (&self->problem_entry, GTK_WIDGET (entry));
    }
  texture_entry_validate (GTK_WIDGET (entry));
}

static void
texture_commit (GtkWidget     *entry,
                MatPhaseTable *self)
{
  g_autoptr(GError) error = NULL;
  MatPhase *phase = cell_get_phase (entry);
  g_autofree char *text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry)));

  MatApply what = { .kind = MAT_APPLY_TEXTURE };
  MatHistory *history = table_history (self);
  gboolean ok;

  if (phase == NULL || !self->editable)
    return;
  /* the same name: still for the others selected when theirs differ */
  if (g_strcmp0 (text, mat_phase_get_texture (phase)) == 0 && !batch_differs_at (self, phase, what))
    return;
  if (texture_entry_validate (entry) == TEXTURE_INVALID)
    return;

  edit_group_end (self);
  if (history != NULL)
    mat_history_begin_group (history, NULL);
  ok = (g_strcmp0 (text, mat_phase_get_texture (phase)) == 0 ||
        mat_phase_set_texture (phase, text, &error)) &&
       batch_follow (self, phase, what, &error);
  if (history != NULL)
    mat_history_end_group (history);
  if (!ok)
    {
      show_error (self, error);
      return;
    }
  edit_succeeded (self);
  /* the row edited is the one shown */
  select_phase (self, phase);
}

static void
texture_activate (GtkEntry      *entry,
                  MatPhaseTable *self)
{
  texture_commit (GTK_WIDGET (entry), self);
}

static void
texture_focus_leave (GtkEventControllerFocus *controller,
                     MatPhaseTable           *self)
{
  texture_commit (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller)), self);
}

static gboolean
texture_key_pressed (GtkEventControllerKey *controller,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     MatPhaseTable         *self)
{
  GtkWidget *entry = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  MatPhase *phase = cell_get_phase (entry);

  if (keyval != GDK_KEY_Escape || phase == NULL)
    return FALSE;
  gtk_editable_set_text (GTK_EDITABLE (entry), mat_phase_get_texture (phase));
  return TRUE;
}

typedef struct {
  MatPhaseTable *table;
  MatPhase      *phase;
} TexturePick;

static void
texture_pick_free (gpointer data)
{
  TexturePick *pick = data;

  g_clear_object (&pick->table);
  g_clear_object (&pick->phase);
  g_free (pick);
}

static void
texture_chosen (MatTexturePicker *picker,
                const char       *name,
                TexturePick      *pick)
{
  MatPhaseTable *self = pick->table;
  g_autoptr(GError) error = NULL;

  /* The phase may have left the material while the picker was open. */
  if (self->material == NULL || !self->editable ||
      mat_phase_get_material (pick->phase) != self->material)
    return;
  {
    MatApply what = { .kind = MAT_APPLY_TEXTURE };
    MatHistory *history = table_history (self);
    gboolean same = g_strcmp0 (name, mat_phase_get_texture (pick->phase)) == 0;
    gboolean ok;

    if (same && !batch_differs_at (self, pick->phase, what))
      return;

    edit_group_end (self);
    if (history != NULL)
      mat_history_begin_group (history, NULL);
    ok = (same || mat_phase_set_texture (pick->phase, name, &error)) &&
         batch_follow (self, pick->phase, what, &error);
    if (history != NULL)
      mat_history_end_group (history);
    if (!ok)
      {
        show_error (self, error);
        return;
      }
  }
  edit_succeeded (self);
}

static void
picker_textures_changed (MatTexturePicker *picker,
                         GParamSpec       *pspec,
                         MatPhaseTable    *self)
{
  MatTextureLibrary *textures = mat_texture_picker_get_textures (picker);

  if (textures != NULL)
    mat_phase_table_set_textures (self, textures);
}

static void
texture_pick_clicked (GtkButton     *button,
                      MatPhaseTable *self)
{
  GtkWidget *entry = g_object_get_data (G_OBJECT (button), "mat-entry");
  MatPhase *phase = cell_get_phase (entry);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  MatTexturePicker *picker;
  TexturePick *pick;

  if (phase == NULL || !self->editable)
    return;

  /* A name typed but not yet applied is applied first. */
  texture_commit (entry, self);
  select_phase (self, phase);
  edit_group_end (self);

  pick = g_new0 (TexturePick, 1);
  pick->table = g_object_ref (self);
  pick->phase = g_object_ref (phase);
  picker = mat_texture_picker_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   self->textures, mat_phase_get_texture (phase));
  g_signal_connect_data (picker, "chosen", G_CALLBACK (texture_chosen), pick,
                         (GClosureNotify) (void (*) (void)) texture_pick_free, 0);
  /* a Textures.lib the user opens in the picker becomes the table's */
  g_signal_connect_object (picker, "notify::textures", G_CALLBACK (picker_textures_changed),
                           self, 0);
  gtk_window_present (GTK_WINDOW (picker));
}

/* ------------------------------------------------------------------ */
/* Parameter cells                                                      */

/* ---- p17: the cell chooser ------------------------------------------- */

/* Each entry of a chooser is a GtkStringObject carrying its cell value
 * (offset so that -1 is not NULL) and, for a thumbnail, its texture. */
#define CELL_KEY "mat-cell-value"
#define CELL_OFFSET 1000

static gint
chooser_item_cell (gpointer item)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (item), CELL_KEY)) - CELL_OFFSET;
}

static void
chooser_append (GtkStringList *list,
                const char    *text,
                gint           cell,
                MatTexture    *texture)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));
  g_autoptr(GObject) item = NULL;

  gtk_string_list_append (list, text);
  item = g_list_model_get_item (G_LIST_MODEL (list), n);
  g_object_set_data (item, CELL_KEY, GINT_TO_POINTER (cell + CELL_OFFSET));
  if (texture != NULL)
    g_object_set_data_full (item, "mat-texture", g_object_ref (texture), g_object_unref);
}

/* Returns: (transfer none) (nullable): the texture @phase names, from the
 * table's texture library, if it is there and parses. */
static MatTexture *
phase_texture (MatPhaseTable *self,
               MatPhase      *phase)
{
  MatTexture *texture;

  if (self->textures == NULL || !mat_phase_get_textured (phase))
    return NULL;
  texture = mat_texture_library_lookup (self->textures, mat_phase_get_texture (phase));
  return texture != NULL && mat_texture_get_image (texture) != NULL ? texture : NULL;
}

/* A crop of @texture's top level: rectangle @cell of its Page table, or
 * the whole texture for -1. A texture larger than a picture may be is
 * cropped from its reduction (mat_texture_dup_rgba_fitted), the
 * rectangle scaled to it; one too large to show has no thumbnail.
 * Returns: (transfer full) (nullable). */
static GdkTexture *
cell_thumbnail (MatTexture *texture,
                gint        cell)
{
  const TexmImage *image = mat_texture_get_image (texture);
  g_autoptr(GBytes) rgba = NULL;
  g_autoptr(GBytes) crop = NULL;
  guint width, height, tex_w, tex_h;
  gint64 x = 0, y = 0, w, h;
  const guint8 *pixels;

  rgba = mat_texture_dup_rgba_fitted (texture, 0, MAT_TEXTURE_MAX_SHOWN_SIDE, &width, &height, NULL);
  if (rgba == NULL || image == NULL)
    return NULL;
  tex_w = mat_texture_get_width (texture);
  tex_h = mat_texture_get_height (texture);
  w = tex_w;
  h = tex_h;
  if (cell >= 0)
    {
      const TexmRect *rect;

      if (!image->has_page || (guint) cell >= image->n_rects)
        return NULL;
      rect = &image->rects[cell];
      x = rect->x;
      y = rect->y;
      w = rect->w;
      h = rect->h;
    }
  /* Only what lies inside the texture. */
  if (x < 0)
    {
      w += x;
      x = 0;
    }
  if (y < 0)
    {
      h += y;
      y = 0;
    }
  w = MIN (w, (gint64) tex_w - x);
  h = MIN (h, (gint64) tex_h - y);
  if (w <= 0 || h <= 0)
    return NULL;
  /* in the pixels shown: a reduction keeps at least one of them */
  if (width != tex_w || height != tex_h)
    {
      gint64 x1 = (x + w) * width / tex_w;
      gint64 y1 = (y + h) * height / tex_h;

      x = x * width / tex_w;
      y = y * height / tex_h;
      w = MAX (x1 - x, 1);
      h = MAX (y1 - y, 1);
      w = MIN (w, (gint64) width - x);
      h = MIN (h, (gint64) height - y);
    }

  pixels = g_bytes_get_data (rgba, NULL);
  if (x == 0 && y == 0 && (guint) w == width && (guint) h == height)
    crop = g_bytes_ref (rgba);
  else
    {
      guint8 *copy = g_malloc ((gsize) w * (gsize) h * 4);

      for (gint64 row = 0; row < h; row++)
        memcpy (copy + (gsize) row * (gsize) w * 4,
                pixels + ((gsize) (y + row) * width + (gsize) x) * 4, (gsize) w * 4);
      crop = g_bytes_new_take (copy, (gsize) w * (gsize) h * 4);
    }
  return gdk_memory_texture_new ((int) w, (int) h, GDK_MEMORY_R8G8B8A8, crop, (gsize) w * 4);
}

static void
chooser_list_setup (GtkSignalListItemFactory *factory,
                    GtkListItem              *item,
                    gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *image = gtk_image_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_image_set_pixel_size (GTK_IMAGE (image), 24);
  gtk_widget_add_css_class (image, "cell-thumbnail");
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_box_append (GTK_BOX (box), image);
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_item_set_child (item, box);
}

static void
chooser_list_bind (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  user_data)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *image = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_next_sibling (image);
  gpointer object = gtk_list_item_get_item (item);
  MatTexture *texture = g_object_get_data (G_OBJECT (object), "mat-texture");
  g_autoptr(GdkTexture) thumbnail = NULL;

  gtk_label_set_text (GTK_LABEL (label), gtk_string_object_get_string (object));
  if (texture != NULL)
    thumbnail = cell_thumbnail (texture, chooser_item_cell (object));
  gtk_image_set_from_paintable (GTK_IMAGE (image), GDK_PAINTABLE (thumbnail));
  gtk_widget_set_visible (image, thumbnail != NULL);
}

/* The chooser's button: the chosen cell as a number ("−1", "2") after
 * its thumbnail, so the column stays narrow; the list and the tooltip
 * say what it means. */
static void
chooser_button_setup (GtkSignalListItemFactory *factory,
                      GtkListItem              *item,
                      gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *image = gtk_image_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_image_set_pixel_size (GTK_IMAGE (image), 20);
  gtk_widget_add_css_class (image, "cell-thumbnail");
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_width_chars (GTK_LABEL (label), 2);
  gtk_widget_add_css_class (label, "numeric");
  gtk_box_append (GTK_BOX (box), image);
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_item_set_child (item, box);
}

static void
chooser_button_bind (GtkSignalListItemFactory *factory,
                     GtkListItem              *item,
                     gpointer                  user_data)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *image = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_next_sibling (image);
  gpointer object = gtk_list_item_get_item (item);
  MatTexture *texture = g_object_get_data (G_OBJECT (object), "mat-texture");
  gint cell = chooser_item_cell (object);
  g_autoptr(GdkTexture) thumbnail = NULL;
  g_autofree char *number = NULL;

  /* a minus sign, as the readings write it */
  number = cell < 0 ? g_strdup_printf ("−%d", -cell) : g_strdup_printf ("%d", cell);
  gtk_label_set_text (GTK_LABEL (label), number);
  if (texture != NULL)
    thumbnail = cell_thumbnail (texture, cell);
  gtk_image_set_from_paintable (GTK_IMAGE (image), GDK_PAINTABLE (thumbnail));
  gtk_widget_set_visible (image, thumbnail != NULL);
}

/* Whether two chooser models offer the same entries. */
static gboolean
chooser_same_entries (GListModel *a,
                      GListModel *b)
{
  guint n;

  if (a == NULL || b == NULL)
    return a == b;
  n = g_list_model_get_n_items (a);
  if (n != g_list_model_get_n_items (b))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkStringObject) x = g_list_model_get_item (a, i);
      g_autoptr(GtkStringObject) y = g_list_model_get_item (b, i);

      if (chooser_item_cell (x) != chooser_item_cell (y) ||
          g_object_get_data (G_OBJECT (x), "mat-texture") != g_object_get_data (G_OBJECT (y), "mat-texture") ||
          g_strcmp0 (gtk_string_object_get_string (x), gtk_string_object_get_string (y)) != 0)
        return FALSE;
    }
  return TRUE;
}

static void cell_chooser_update (MatPhaseTable *self,
                                 GtkDropDown   *chooser,
                                 MatPhase      *phase);

static gboolean
chooser_update_later (gpointer data)
{
  GtkDropDown *chooser = data;
  GtkWidget *table = gtk_widget_get_ancestor (GTK_WIDGET (chooser), MAT_TYPE_PHASE_TABLE);
  MatPhase *phase;

  /* The table may be gone meanwhile, the row unbound or bound again. */
  if (table == NULL)
    return G_SOURCE_REMOVE;
  phase = cell_get_phase (GTK_WIDGET (chooser));
  if (phase != NULL)
    cell_chooser_update (MAT_PHASE_TABLE (table), chooser, phase);
  return G_SOURCE_REMOVE;
}

/* Fills the chooser of @phase: "-1 whole texture", one entry per Page
 * rectangle, and the stored value when it is none of these (a cell past
 * the table, a negative cell other than -1): shown, never normalised. */
static void
cell_chooser_update (MatPhaseTable *self,
                     GtkDropDown   *chooser,
                     MatPhase      *phase)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  gint cell = (gint8) mat_phase_get_param (phase, MAT0_CELL_BYTE);
  gboolean textured = mat_phase_get_textured (phase);
  MatTexture *texture = phase_texture (self, phase);
  const TexmImage *image = texture != NULL ? mat_texture_get_image (texture) : NULL;
  guint n_rects = image != NULL && image->has_page ? image->n_rects : 0;
  g_autofree char *tip = NULL;
  gboolean lint = FALSE;
  guint selected = 0;

  if (!textured)
    {
      g_autofree char *text = mat0_fields_dup_cell_reading ((guint8) cell, FALSE);

      chooser_append (list, text, -1, NULL);
      tip = g_strdup (_("Untextured phase: the game uses cell −1 whatever p17 holds; the byte is kept as stored"));
    }
  else
    {
      g_autofree char *whole = mat0_fields_dup_cell_reading (0xFF, TRUE);

      chooser_append (list, whole, -1, texture);
      for (guint i = 0; i < n_rects; i++)
        {
          const TexmRect *r = &image->rects[i];
          /* Translators: a Page rectangle: "cell 2: 0,64 64×64" (x,y width×height) */
          g_autofree char *text = g_strdup_printf (_("cell %u: %d,%d %d×%d"), i, r->x, r->y, r->w, r->h);

          chooser_append (list, text, (gint) i, texture);
        }

      if (cell == -1)
        selected = 0;
      else if (cell >= 0 && (guint) cell < n_rects)
        selected = (guint) cell + 1;
      else
        {
          g_autofree char *text = NULL;

          if (cell < -1)
            text = mat0_fields_dup_cell_reading ((guint8) cell, TRUE);
          else if (texture == NULL)
            /* Translators: a cell of a texture that is not in the Textures.lib */
            text = g_strdup_printf (_("cell %d (Page table unknown)"), cell);
          else
            {
              /* Translators: a cell past the texture's Page table, a lint */
              text = g_strdup_printf (_("cell %d: past the Page table"), cell);
              lint = TRUE;
            }
          selected = n_rects + 1;
          chooser_append (list, text, cell, NULL);
        }

      if (lint)
        tip = g_strdup_printf (ngettext ("Lint: cell %d is past the Page table of %s, which has %u rectangle; the preview draws the whole texture",
                                         "Lint: cell %d is past the Page table of %s, which has %u rectangles; the preview draws the whole texture",
                                         n_rects),
                               cell, mat_phase_get_texture (phase), n_rects);
      else if (texture == NULL)
        tip = g_strdup (_("The texture is not in the Textures.lib: its Page rectangles are unknown. Choose −1 for the whole texture, or type the byte p17 under Raw Bytes."));
      else
        tip = g_strdup (_(mat0_fields_param (MAT0_CELL_BYTE)->meaning));
    }

  g_object_set_data (G_OBJECT (chooser), "mat-syncing", GINT_TO_POINTER (TRUE));
  if (!chooser_same_entries (gtk_drop_down_get_model (chooser), G_LIST_MODEL (list)))
    {
      if (g_object_get_data (G_OBJECT (chooser), "mat-choosing") != NULL)
        {
          /* Inside the chooser's own selection change: a new model now
           * would free the selection that is still at work. */
          g_idle_add_full (G_PRIORITY_HIGH_IDLE, chooser_update_later,
                           g_object_ref (chooser), g_object_unref);
          g_object_set_data (G_OBJECT (chooser), "mat-syncing", NULL);
          return;
        }
      gtk_drop_down_set_model (chooser, G_LIST_MODEL (list));
    }
  if (gtk_drop_down_get_selected (chooser) != selected)
    gtk_drop_down_set_selected (chooser, selected);
  g_object_set_data (G_OBJECT (chooser), "mat-syncing", NULL);

  gtk_widget_set_sensitive (GTK_WIDGET (chooser), self->editable && textured);
  {
    /* the button shows a number: the tooltip says the chosen entry */
    g_autoptr(GtkStringObject) chosen = g_list_model_get_item (G_LIST_MODEL (list), selected);
    g_autofree char *both = g_strdup_printf ("%s\n\n%s", gtk_string_object_get_string (chosen), tip);

    mat_tooltip_set_text (GTK_WIDGET (chooser), both);
  }
  if (lint)
    gtk_widget_add_css_class (GTK_WIDGET (chooser), "warning");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (chooser), "warning");
}

static void
cell_chooser_phase_changed (MatPhase    *phase,
                            GParamSpec  *pspec,
                            GtkDropDown *chooser)
{
  MatPhaseTable *self = g_object_get_data (G_OBJECT (chooser), "mat-table");

  cell_chooser_update (self, chooser, phase);
}

static void
cell_chooser_param_changed (MatPhase    *phase,
                            guint        param,
                            GtkDropDown *chooser)
{
  if (param == MAT0_CELL_BYTE)
    cell_chooser_phase_changed (phase, NULL, chooser);
}

/* Choosing an entry writes p17 = (int8) cell: one undo step. */
static void
cell_chooser_selected (GtkDropDown   *chooser,
                       GParamSpec    *pspec,
                       MatPhaseTable *self)
{
  g_autoptr(GError) error = NULL;
  MatPhase *phase = cell_get_phase (GTK_WIDGET (chooser));
  gpointer item = gtk_drop_down_get_selected_item (chooser);
  gint cell;

  if (g_object_get_data (G_OBJECT (chooser), "mat-syncing") != NULL ||
      phase == NULL || item == NULL || !self->editable || !mat_phase_get_textured (phase))
    return;
  cell = chooser_item_cell (item);
  if ((guint8) (gint8) cell == mat_phase_get_param (phase, MAT0_CELL_BYTE))
    return;

  /* the row edited is the one shown, once the drop-down is done */
  select_phase_later (self, phase);
  edit_group_end (self);
  g_object_set_data (G_OBJECT (chooser), "mat-choosing", GINT_TO_POINTER (TRUE));
  {
    MatApply what = { .kind = MAT_APPLY_PARAM, .byte = MAT0_CELL_BYTE };
    MatHistory *history = table_history (self);

    if (history != NULL)
      mat_history_begin_group (history, NULL);
    if (mat_phase_set_param (phase, MAT0_CELL_BYTE, (guint8) (gint8) cell, &error))
      batch_follow (self, phase, what, &error);
    if (history != NULL)
      mat_history_end_group (history);
  }
  if (error != NULL)
    {
      show_error (self, error);
      cell_chooser_update (self, chooser, phase);
    }
  else
    edit_succeeded (self);
  g_object_set_data (G_OBJECT (chooser), "mat-choosing", NULL);
}

/* ---- spin buttons: a byte each ---------------------------------------- */

static void
spin_param_changed (MatPhase      *phase,
                    guint          param,
                    GtkSpinButton *spin)
{
  if (param == cell_get_arg (GTK_WIDGET (spin)))
    gtk_spin_button_set_value (spin, mat_phase_get_param (phase, param));
}

static void
spin_value_changed (GtkSpinButton *spin,
                    MatPhaseTable *self)
{
  g_autoptr(GError) error = NULL;
  MatPhase *phase = cell_get_phase (GTK_WIDGET (spin));
  guint param = cell_get_arg (GTK_WIDGET (spin));
  int value = gtk_spin_button_get_value_as_int (spin);

  if (phase == NULL || value < 0 || value > 255)
    return;
  if (mat_phase_get_param (phase, param) == value)
    return;

  if (!self->editable)
    {
      gtk_spin_button_set_value (spin, mat_phase_get_param (phase, param));
      return;
    }

  edit_group_begin (self, phase, param);
  if (!mat_phase_set_param (phase, param, (guint8) value, &error) ||
      !batch_follow (self, phase, (MatApply) { .kind = MAT_APPLY_PARAM, .byte = param }, &error))
    {
      show_error (self, error);
      gtk_spin_button_set_value (spin, mat_phase_get_param (phase, param));
      return;
    }
  edit_succeeded (self);
  /* the row edited is the one shown */
  select_phase (self, phase);
}

static void
spin_focus_leave (GtkEventControllerFocus *controller,
                  MatPhaseTable           *self)
{
  edit_group_end (self);
}

static void
spin_text_activate (GtkText       *text,
                    MatPhaseTable *self)
{
  GtkWidget *spin = gtk_widget_get_ancestor (GTK_WIDGET (text), GTK_TYPE_SPIN_BUTTON);
  MatPhase *phase = spin != NULL ? cell_get_phase (spin) : NULL;

  /* Runs after the spin button's own handler applied the typed value. */
  edit_group_end (self);
  /* Enter on a value the others selected do not share: theirs too */
  if (phase != NULL && self->editable && cell_differs (self, spin))
    {
      g_autoptr(GError) error = NULL;
      MatApply what;

      if (cell_what (spin, &what) && !mat_batch_apply (self->batch, &what, &error))
        show_error (self, error);
    }
}

/* A spin button for byte @byte: 0..255, labelled from mat0-fields,
 * dimmed when the game never draws the byte. */
static GtkWidget *
spin_new (MatPhaseTable *self,
          guint          byte)
{
  const Mat0ParamField *field = mat0_fields_param (byte);
  GtkWidget *spin = gtk_spin_button_new_with_range (0, 255, 1);
  GtkEventController *controller;
  g_autofree char *tip = g_strdup_printf ("%s\n%s", _(field->label), _(field->meaning));

  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 3);
  gtk_widget_add_css_class (spin, "numeric");
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  mat_tooltip_set_text (spin, tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _(field->label), -1);
  g_signal_connect (spin, "value-changed", G_CALLBACK (spin_value_changed), self);
  controller = gtk_event_controller_focus_new ();
  g_signal_connect (controller, "leave", G_CALLBACK (spin_focus_leave), self);
  gtk_widget_add_controller (spin, controller);
  for (GtkWidget *c = gtk_widget_get_first_child (spin); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_TEXT (c))
      g_signal_connect_after (c, "activate", G_CALLBACK (spin_text_activate), self);
  if (!field->drawn)
    gtk_widget_add_css_class (spin, "not-drawn");
  /* the wheel scrolls the rows, and steps a byte only once it is focused */
  mat_wheel_scrolls_page (spin);

  return spin;
}

/* ------------------------------------------------------------------ */
/* The raw bytes of the selected phase                                 */

static void
raw_title_update (MatPhaseTable *self)
{
  g_autofree char *title = NULL;

  if (self->raw_phase != NULL)
    /* Translators: the heading of the raw bytes under the phase table */
    title = g_strdup_printf (_("Raw bytes of phase %u"), mat_phase_get_index (self->raw_phase));
  else
    title = g_strdup (_("Raw bytes: no phase selected"));
  gtk_label_set_text (self->raw_title, title);
}

static void
raw_cell_update (MatPhaseTable *self)
{
  g_autofree char *reading = NULL;

  if (self->raw_cell == NULL)
    return;   /* the bytes were never shown */
  if (self->raw_phase != NULL)
    reading = mat0_fields_dup_cell_reading (mat_phase_get_param (self->raw_phase, MAT0_CELL_BYTE),
                                            mat_phase_get_textured (self->raw_phase));
  gtk_label_set_text (self->raw_cell, reading != NULL ? reading : "");
}

static void
raw_param_changed (MatPhaseTable *self,
                   guint          param)
{
  if (param >= MAT0_N_PARAMS || self->raw_phase == NULL || self->raw_spins[param] == NULL)
    return;
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->raw_spins[param]),
                             mat_phase_get_param (self->raw_phase, param));
  if (param == MAT0_AMBIENT_ALPHA_BYTE)
    opacity_reading_update (self->raw_phase, self->raw_opacity);
  if (param == MAT0_CELL_BYTE)
    raw_cell_update (self);
}

static void
raw_phase_param_changed (MatPhase      *phase,
                         guint          param,
                         MatPhaseTable *self)
{
  raw_param_changed (self, param);
}

/* Shows the bytes of the selected phase (none: zeros, insensitive). */
static void
raw_follow_selection (MatPhaseTable *self)
{
  g_autoptr(MatPhase) phase = NULL;
  guint selected = gtk_single_selection_get_selected (self->selection);
  gboolean sensitive;

  if (selected < g_list_model_get_n_items (G_LIST_MODEL (self->selection)))
    phase = g_list_model_get_item (G_LIST_MODEL (self->selection), selected);

  if (phase != self->raw_phase)
    {
      if (self->raw_phase != NULL)
        g_signal_handlers_disconnect_by_data (self->raw_phase, self);
      g_set_object (&self->raw_phase, phase);
      if (phase != NULL)
        {
          g_signal_connect_object (phase, "param-changed", G_CALLBACK (raw_phase_param_changed),
                                   self, 0);
          g_signal_connect_object (phase, "notify::index", G_CALLBACK (raw_title_update),
                                   self, G_CONNECT_SWAPPED);
          g_signal_connect_object (phase, "notify::textured", G_CALLBACK (raw_cell_update),
                                   self, G_CONNECT_SWAPPED);
        }
    }

  raw_title_update (self);
  if (self->raw_opacity == NULL)
    return;   /* the bytes were never shown: built when first shown */

  sensitive = self->raw_phase != NULL && self->editable;
  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    {
      if (self->raw_phase != NULL)
        raw_param_changed (self, i);
      else
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->raw_spins[i]), 0);
      gtk_widget_set_sensitive (self->raw_spins[i], sensitive);
    }
  if (self->raw_phase == NULL)
    {
      gtk_label_set_text (self->raw_opacity, "");
      raw_cell_update (self);
    }
  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    differs_update_cell (self, self->raw_spins[i]);
}

/* A small "p5" (or "Power p16") before a raw byte's spin button. */
static GtkWidget *
raw_cell_new (MatPhaseTable *self,
              guint          byte,
              const char    *caption)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *label = gtk_label_new (caption);
  GtkWidget *spin = spin_new (self, byte);

  gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  gtk_label_set_width_chars (GTK_LABEL (label), 3);
  gtk_widget_add_css_class (label, "byte-caption");
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
  if (!mat0_fields_param (byte)->drawn)
    gtk_widget_add_css_class (label, "not-drawn");
  g_object_set_data (G_OBJECT (spin), "mat-raw-table", self);
  g_object_set_data (G_OBJECT (spin), "mat-cell-kind", GUINT_TO_POINTER (CELL_PARAM + 1));
  g_object_set_data (G_OBJECT (spin), "mat-cell-arg", GUINT_TO_POINTER (byte + 1));
  self->raw_spins[byte] = spin;

  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), spin);
  return box;
}

/* The grid of raw bytes: a row per colour group in byte order (the
 * self-light p0..p3 first), its four bytes, the opacity beside p3; the
 * power and the cell last, the cell's reading beside it. Its 150 widgets
 * are made the first time the bytes are shown, not with the window. */
static void
raw_bytes_ensure (MatPhaseTable *self)
{
  static const Mat0ColourGroup rows[] = {
    MAT0_GROUP_SELF_LIGHT, MAT0_GROUP_DIFFUSE, MAT0_GROUP_SPECULAR, MAT0_GROUP_EMISSIVE,
  };
  const guint others[] = { 16, MAT0_CELL_BYTE };
  GtkWidget *label;

  if (self->raw_opacity != NULL)
    return;

  for (guint r = 0; r < G_N_ELEMENTS (rows); r++)
    {
      const Mat0GroupField *group = mat0_fields_group (rows[r]);

      label = gtk_label_new (_(group->label));
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      mat_tooltip_set_text (label, _(group->meaning));
      if (!group->drawn)
        gtk_widget_add_css_class (label, "not-drawn");
      gtk_grid_attach (self->raw_grid, label, 0, (int) r, 1, 1);
      for (guint c = 0; c < 4; c++)
        {
          g_autofree char *caption = g_strdup_printf ("p%u", group->bytes[c]);

          gtk_grid_attach (self->raw_grid, raw_cell_new (self, group->bytes[c], caption),
                           1 + (int) c, (int) r, 1, 1);
        }
    }

  /* the opacity p3 reads as, beside it */
  self->raw_opacity = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->raw_opacity, 0.0);
  gtk_widget_add_css_class (GTK_WIDGET (self->raw_opacity), "param-reading");
  gtk_widget_add_css_class (GTK_WIDGET (self->raw_opacity), "numeric");
  gtk_grid_attach (self->raw_grid, GTK_WIDGET (self->raw_opacity), 5, 0, 1, 1);

  /* the power and the cell, each named, the cell's reading beside it */
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      const Mat0ParamField *field = mat0_fields_param (others[i]);
      g_autofree char *caption = g_strdup_printf ("p%u", others[i]);

      label = gtk_label_new (_(field->short_label));
      gtk_label_set_xalign (GTK_LABEL (label), i == 0 ? 0.0f : 1.0f);
      mat_tooltip_set_text (label, _(field->meaning));
      gtk_grid_attach (self->raw_grid, label, 2 * (int) i, (int) G_N_ELEMENTS (rows), 1, 1);
      gtk_grid_attach (self->raw_grid, raw_cell_new (self, others[i], caption),
                       2 * (int) i + 1, (int) G_N_ELEMENTS (rows), 1, 1);
    }
  self->raw_cell = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->raw_cell, 0.0);
  gtk_widget_add_css_class (GTK_WIDGET (self->raw_cell), "param-reading");
  gtk_grid_attach (self->raw_grid, GTK_WIDGET (self->raw_cell), 4, (int) G_N_ELEMENTS (rows), 2, 1);

  raw_follow_selection (self);
}

/* ------------------------------------------------------------------ */
/* Factories                                                            */

static void
factory_setup (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               ColumnInfo               *info)
{
  MatPhaseTable *self = info->table;
  GtkEventController *controller;
  GtkWidget *child = NULL;
  GtkWidget *cell = NULL;

  switch (info->kind)
    {
    case CELL_INDEX:
      cell = child = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (cell), 1.0);
      gtk_widget_add_css_class (cell, "numeric");
      gtk_widget_set_margin_start (cell, 6);
      gtk_widget_set_margin_end (cell, 6);
      break;

    case CELL_SWATCH:
      {
        GtkWidget *area = gtk_drawing_area_new ();

        gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), 36);
        gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), 22);
        cell = child = gtk_button_new ();
        gtk_button_set_child (GTK_BUTTON (cell), area);
        gtk_widget_add_css_class (cell, "flat");
        gtk_widget_add_css_class (cell, "swatch");
        gtk_widget_set_halign (cell, GTK_ALIGN_CENTER);
        gtk_widget_set_valign (cell, GTK_ALIGN_CENTER);
        gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_swatch, cell, NULL);
        if (!mat0_fields_group ((Mat0ColourGroup) info->arg)->drawn)
          gtk_widget_add_css_class (cell, "not-drawn");
        g_signal_connect (cell, "clicked", G_CALLBACK (swatch_clicked), self);

        if (info->arg == MAT_PHASE_COLOUR_AMBIENT)
          {
            /* the swatch, then the opacity p3 reads as: a button that
             * opens the swatch's popover at the opacity, to type it (a
             * spin button here would widen the table past 1100 px) */
            GtkWidget *reading = gtk_label_new (NULL);
            GtkWidget *opacity = gtk_button_new ();

            gtk_label_set_xalign (GTK_LABEL (reading), 0.0);
            gtk_label_set_width_chars (GTK_LABEL (reading), 6);
            /* a lint reading ("150 % (over 100 %)") wraps, never widens */
            gtk_label_set_max_width_chars (GTK_LABEL (reading), 8);
            gtk_label_set_wrap (GTK_LABEL (reading), TRUE);
            gtk_widget_add_css_class (reading, "param-reading");
            gtk_widget_add_css_class (reading, "numeric");
            gtk_button_set_child (GTK_BUTTON (opacity), reading);
            gtk_widget_add_css_class (opacity, "flat");
            gtk_widget_add_css_class (opacity, "opacity-button");
            gtk_widget_set_valign (opacity, GTK_ALIGN_CENTER);
            g_object_set_data (G_OBJECT (opacity), "mat-swatch", cell);
            g_signal_connect (opacity, "clicked", G_CALLBACK (opacity_clicked), self);
            g_object_set_data (G_OBJECT (cell), "mat-reading", reading);
            g_object_set_data (G_OBJECT (cell), "mat-opacity", opacity);
            child = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
            gtk_widget_set_halign (child, GTK_ALIGN_CENTER);
            gtk_box_append (GTK_BOX (child), cell);
            gtk_box_append (GTK_BOX (child), opacity);
          }
      }
      break;

    case CELL_TEXTURE:
      {
        GtkWidget *button = gtk_button_new_from_icon_name ("image-x-generic-symbolic");

        cell = gtk_entry_new ();
        gtk_editable_set_width_chars (GTK_EDITABLE (cell), 9);
        gtk_entry_set_placeholder_text (GTK_ENTRY (cell), _("untextured"));
        gtk_widget_set_hexpand (cell, TRUE);
        g_object_set_data (G_OBJECT (cell), "mat-table", self);
        g_object_set_data (G_OBJECT (cell), "mat-picker-button", button);

        gtk_widget_add_css_class (button, "flat");
        gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
        gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                        GTK_ACCESSIBLE_PROPERTY_LABEL, _("Choose Texture"),
                                        -1);
        g_object_set_data (G_OBJECT (button), "mat-entry", cell);
        g_signal_connect (button, "clicked", G_CALLBACK (texture_pick_clicked), self);

        child = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
        gtk_widget_set_valign (child, GTK_ALIGN_CENTER);
        gtk_box_append (GTK_BOX (child), cell);
        gtk_box_append (GTK_BOX (child), button);
      }
      g_signal_connect (cell, "changed", G_CALLBACK (texture_changed), self);
      g_signal_connect (cell, "activate", G_CALLBACK (texture_activate), self);
      controller = gtk_event_controller_focus_new ();
      g_signal_connect (controller, "leave", G_CALLBACK (texture_focus_leave), self);
      gtk_widget_add_controller (cell, controller);
      controller = gtk_event_controller_key_new ();
      g_signal_connect (controller, "key-pressed", G_CALLBACK (texture_key_pressed), self);
      gtk_widget_add_controller (cell, controller);
      break;

    case CELL_CHOOSER:
      {
        GtkListItemFactory *list_factory = gtk_signal_list_item_factory_new ();

        cell = child = gtk_drop_down_new (NULL, gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
        g_signal_connect (list_factory, "setup", G_CALLBACK (chooser_list_setup), NULL);
        g_signal_connect (list_factory, "bind", G_CALLBACK (chooser_list_bind), NULL);
        gtk_drop_down_set_list_factory (GTK_DROP_DOWN (cell), list_factory);
        g_object_unref (list_factory);
        list_factory = gtk_signal_list_item_factory_new ();
        g_signal_connect (list_factory, "setup", G_CALLBACK (chooser_button_setup), NULL);
        g_signal_connect (list_factory, "bind", G_CALLBACK (chooser_button_bind), NULL);
        gtk_drop_down_set_factory (GTK_DROP_DOWN (cell), list_factory);
        g_object_unref (list_factory);
        gtk_widget_set_valign (cell, GTK_ALIGN_CENTER);
        /* as wide as the widest row's, so the column lines up */
        gtk_widget_set_hexpand (cell, TRUE);
        gtk_widget_add_css_class (cell, "cell-chooser");
        gtk_accessible_update_property (GTK_ACCESSIBLE (cell),
                                        GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        _(mat0_fields_param (MAT0_CELL_BYTE)->label), -1);
        g_object_set_data (G_OBJECT (cell), "mat-table", self);
        g_signal_connect (cell, "notify::selected", G_CALLBACK (cell_chooser_selected), self);
      }
      break;

    case CELL_PARAM:
    default:
      cell = child = spin_new (self, info->arg);
      break;
    }

  cell_mark (cell, item, info->kind, info->arg);
  if (child != cell)
    g_object_set_data (G_OBJECT (child), "mat-list-item", item);
  /* a press on a control of the row selects its phase */
  if (info->kind != CELL_INDEX)
    {
      GtkGesture *press = gtk_gesture_click_new ();

      gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (press), 0);
      gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (press), GTK_PHASE_CAPTURE);
      g_signal_connect (press, "pressed", G_CALLBACK (cell_pressed), self);
      gtk_widget_add_controller (child, GTK_EVENT_CONTROLLER (press));
    }
  gtk_list_item_set_child (item, child);
}

static void
factory_bind (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              ColumnInfo               *info)
{
  MatPhaseTable *self = info->table;
  MatPhase *phase = gtk_list_item_get_item (item);
  GtkWidget *cell = g_object_get_data (G_OBJECT (item), "mat-cell");

  if (cell != NULL && info->kind != CELL_INDEX)
    {
      g_hash_table_add (self->bound_cells, cell);
      differs_update_cell (self, cell);
    }

  switch (info->kind)
    {
    case CELL_INDEX:
      index_update (phase, NULL, GTK_LABEL (cell));
      g_signal_connect_object (phase, "notify::index", G_CALLBACK (index_update), cell, 0);
      break;

    case CELL_SWATCH:
      gtk_widget_set_sensitive (cell, self->editable);
      if (g_object_get_data (G_OBJECT (cell), "mat-opacity") != NULL)
        gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (cell), "mat-opacity"), self->editable);
      swatch_update (phase, cell);
      g_signal_connect_object (phase, "param-changed", G_CALLBACK (swatch_param_changed), cell, 0);
      break;

    case CELL_TEXTURE:
      if (cell == self->problem_entry)
        problem_forget (self);
      gtk_editable_set_editable (GTK_EDITABLE (cell), self->editable);
      gtk_editable_set_text (GTK_EDITABLE (cell), mat_phase_get_texture (phase));
      texture_entry_validate (cell);
      texture_button_update (self, g_object_get_data (G_OBJECT (cell), "mat-picker-button"));
      g_signal_connect_object (phase, "notify::texture", G_CALLBACK (texture_update), cell, 0);
      break;

    case CELL_CHOOSER:
      cell_chooser_update (self, GTK_DROP_DOWN (cell), phase);
      /* the texture's name decides the rectangles on offer */
      g_signal_connect_object (phase, "param-changed",
                               G_CALLBACK (cell_chooser_param_changed), cell, 0);
      g_signal_connect_object (phase, "notify::texture",
                               G_CALLBACK (cell_chooser_phase_changed), cell, 0);
      g_signal_connect_object (phase, "notify::textured",
                               G_CALLBACK (cell_chooser_phase_changed), cell, 0);
      break;

    case CELL_PARAM:
    default:
      gtk_widget_set_sensitive (cell, self->editable);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (cell), mat_phase_get_param (phase, info->arg));
      g_signal_connect_object (phase, "param-changed", G_CALLBACK (spin_param_changed), cell, 0);
      break;
    }
}

static void
factory_unbind (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                ColumnInfo               *info)
{
  MatPhase *phase = gtk_list_item_get_item (item);
  GtkWidget *cell = g_object_get_data (G_OBJECT (item), "mat-cell");

  if (cell != NULL && cell == info->table->problem_entry)
    problem_forget (info->table);
  if (cell != NULL)
    g_hash_table_remove (info->table->bound_cells, cell);
  if (cell != NULL && cell == info->table->popover_swatch)
    {
      edit_group_end (info->table);
      popover_forget (info->table);
    }
  if (phase == NULL || cell == NULL)
    return;

  g_signal_handlers_disconnect_by_data (phase, cell);
}

static GtkWidget *
find_header (GtkColumnView *column_view)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (column_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_widget_get_css_name (child), "header") == 0)
      return child;
  return NULL;
}

static void
add_column (MatPhaseTable *self,
            CellKind       kind,
            guint          arg,
            const char    *title,
            const char    *tooltip,
            gboolean       drawn)
{
  g_autoptr(GtkColumnViewColumn) column = NULL;
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  ColumnInfo *info = g_new0 (ColumnInfo, 1);
  GtkWidget *header;

  info->table = self;
  info->kind = kind;
  info->arg = arg;
  g_signal_connect_data (factory, "setup", G_CALLBACK (factory_setup), info,
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  g_signal_connect (factory, "bind", G_CALLBACK (factory_bind), info);
  g_signal_connect (factory, "unbind", G_CALLBACK (factory_unbind), info);

  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (column, TRUE);
  if (kind == CELL_TEXTURE)
    gtk_column_view_column_set_expand (column, TRUE);
  gtk_column_view_append_column (self->column_view, column);

  /* GTK 4.8 has no API for header tooltips: the header row holds one
   * title widget per column, the new one last. */
  header = find_header (self->column_view);
  if (header != NULL)
    {
      GtkWidget *head = gtk_widget_get_last_child (header);

      mat_tooltip_set_text (head, tooltip);
      /* stored, not drawn by the game: dimmed, as its cells are */
      if (!drawn)
        gtk_widget_add_css_class (head, "not-drawn");
    }
}

static void
add_param_column (MatPhaseTable *self,
                  guint          byte)
{
  const Mat0ParamField *field = mat0_fields_param (byte);
  /* the head: what the byte is, then which byte */
  g_autofree char *title = g_strdup_printf ("%s\np%u", _(field->short_label), byte);

  add_column (self, CELL_PARAM, byte, title, _(field->meaning), field->drawn);
}

/* "p7, p11, p12–p15": the bytes the game never draws, for the legend. */
static char *
not_drawn_bytes (void)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < MAT0_N_PARAMS; i++)
    {
      guint last = i;

      if (mat0_fields_param (i)->drawn)
        continue;
      while (last + 1 < MAT0_N_PARAMS && !mat0_fields_param (last + 1)->drawn)
        last++;
      if (text->len > 0)
        /* Translators: separates the items of a list */
        g_string_append (text, _(", "));
      if (last > i)
        g_string_append_printf (text, "p%u–p%u", i, last);
      else
        g_string_append_printf (text, "p%u", i);
      i = last;
    }
  return g_string_free (text, FALSE);
}

/* ------------------------------------------------------------------ */
/* Actions                                                              */

static guint
selected_row (MatPhaseTable *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  guint selected = gtk_single_selection_get_selected (self->selection);

  return selected < n ? selected : GTK_INVALID_LIST_POSITION;
}

static void
update_actions (MatPhaseTable *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  guint selected = selected_row (self);
  gboolean has_selection = self->editable && selected != GTK_INVALID_LIST_POSITION;

  gtk_widget_action_set_enabled (widget, "phase.add", self->editable);
  gtk_widget_action_set_enabled (widget, "phase.duplicate", has_selection);
  gtk_widget_action_set_enabled (widget, "phase.remove", has_selection && n > 1);
  gtk_widget_action_set_enabled (widget, "phase.move-up", has_selection && selected > 0);
  gtk_widget_action_set_enabled (widget, "phase.move-down", has_selection && selected + 1 < n);
}

static void
phase_add (GtkWidget  *widget,
           const char *action_name,
           GVariant   *parameter)
{
  MatPhaseTable *self = MAT_PHASE_TABLE (widget);
  g_autoptr(GError) error = NULL;
  guint selected = selected_row (self);
  guint position;

  if (self->material == NULL)
    return;
  position = selected != GTK_INVALID_LIST_POSITION
           ? selected + 1
           : g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  edit_group_end (self);
  if (mat_material_insert_phase (self->material, position, &error) == NULL)
    {
      show_error (self, error);
      return;
    }
  gtk_single_selection_set_selected (self->selection, position);
  update_status (self);
}

static void
phase_duplicate (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  MatPhaseTable *self = MAT_PHASE_TABLE (widget);
  g_autoptr(GError) error = NULL;
  guint selected = selected_row (self);
  MatPhase *copy;

  if (self->material == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;

  edit_group_end (self);
  copy = mat_material_duplicate_phase (self->material, selected, &error);
  if (copy == NULL)
    {
      show_error (self, error);
      return;
    }
  gtk_single_selection_set_selected (self->selection, mat_phase_get_index (copy));
  update_status (self);
}

static void
phase_remove (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  MatPhaseTable *self = MAT_PHASE_TABLE (widget);
  g_autoptr(GError) error = NULL;
  guint selected = selected_row (self);
  guint n;

  if (self->material == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;

  edit_group_end (self);
  if (!mat_material_remove_phase (self->material, selected, &error))
    {
      show_error (self, error);
      return;
    }
  n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  if (n > 0)
    gtk_single_selection_set_selected (self->selection, MIN (selected, n - 1));
  update_status (self);
}

static void
phase_move (MatPhaseTable *self,
            int            delta)
{
  g_autoptr(GError) error = NULL;
  guint selected = selected_row (self);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  guint target;

  if (self->material == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;
  if ((delta < 0 && selected == 0) || (delta > 0 && selected + 1 >= n))
    return;
  target = delta < 0 ? selected - 1 : selected + 1;

  edit_group_end (self);
  if (!mat_material_move_phase (self->material, selected, target, &error))
    {
      show_error (self, error);
      return;
    }
  gtk_single_selection_set_selected (self->selection, target);
  edit_succeeded (self);
}

static void
phase_move_up (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  phase_move (MAT_PHASE_TABLE (widget), -1);
}

static void
phase_move_down (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  phase_move (MAT_PHASE_TABLE (widget), 1);
}

/* ------------------------------------------------------------------ */
/* Following the model                                                  */

static void
selection_changed (MatPhaseTable *self)
{
  update_actions (self);
  raw_follow_selection (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

static void
selection_items_changed (MatPhaseTable *self)
{
  update_actions (self);
  raw_follow_selection (self);
  if (!self->status_is_error)
    update_status (self);
}

static void
material_editable_changed (MatPhaseTable *self)
{
  gboolean editable = self->material != NULL && mat_material_get_editable (self->material);
  GListModel *model;

  if (editable == self->editable)
    return;

  self->editable = editable;
  /* Rebind every cell so that it takes the new state. */
  model = gtk_single_selection_get_model (self->selection);
  if (model != NULL)
    {
      g_object_ref (model);
      gtk_single_selection_set_model (self->selection, NULL);
      gtk_single_selection_set_model (self->selection, model);
      g_object_unref (model);
    }
  update_actions (self);
  raw_follow_selection (self);
  update_status (self);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
mat_phase_table_dispose (GObject *object)
{
  MatPhaseTable *self = MAT_PHASE_TABLE (object);

  edit_group_end (self);
  popover_forget (self);
  g_clear_weak_pointer (&self->problem_entry);
  g_clear_handle_id (&self->differs_source, g_source_remove);
  if (self->batch != NULL)
    g_signal_handlers_disconnect_by_data (self->batch, self);
  g_clear_object (&self->batch);
  if (self->raw_phase != NULL)
    g_signal_handlers_disconnect_by_data (self->raw_phase, self);
  g_clear_object (&self->raw_phase);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_PHASE_TABLE);
  g_hash_table_remove_all (self->bound_cells);
  if (self->material_signals != NULL)
    g_signal_group_set_target (self->material_signals, NULL);
  g_clear_object (&self->material_signals);
  g_clear_object (&self->material);
  g_clear_object (&self->textures);

  G_OBJECT_CLASS (mat_phase_table_parent_class)->dispose (object);
}

static void
mat_phase_table_finalize (GObject *object)
{
  MatPhaseTable *self = MAT_PHASE_TABLE (object);

  g_hash_table_unref (self->bound_cells);

  G_OBJECT_CLASS (mat_phase_table_parent_class)->finalize (object);
}

static void
mat_phase_table_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  MatPhaseTable *self = MAT_PHASE_TABLE (object);

  switch (prop_id)
    {
    case PROP_MATERIAL:
      g_value_set_object (value, self->material);
      break;
    case PROP_SELECTED:
      g_value_set_uint (value, mat_phase_table_get_selected (self));
      break;
    case PROP_TEXTURES:
      g_value_set_object (value, self->textures);
      break;
    case PROP_SHOW_RAW_BYTES:
      g_value_set_boolean (value, self->show_raw_bytes);
      break;
    case PROP_EMBOSS_BUMP:
      g_value_set_boolean (value, self->emboss_bump);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_phase_table_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  MatPhaseTable *self = MAT_PHASE_TABLE (object);

  switch (prop_id)
    {
    case PROP_MATERIAL:
      mat_phase_table_set_material (self, g_value_get_object (value));
      break;
    case PROP_SELECTED:
      mat_phase_table_set_selected (self, g_value_get_uint (value));
      break;
    case PROP_TEXTURES:
      mat_phase_table_set_textures (self, g_value_get_object (value));
      break;
    case PROP_SHOW_RAW_BYTES:
      mat_phase_table_set_show_raw_bytes (self, g_value_get_boolean (value));
      break;
    case PROP_EMBOSS_BUMP:
      mat_phase_table_set_emboss_bump (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_phase_table_class_init (MatPhaseTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_phase_table_dispose;
  object_class->finalize = mat_phase_table_finalize;
  object_class->get_property = mat_phase_table_get_property;
  object_class->set_property = mat_phase_table_set_property;

  properties[PROP_MATERIAL] =
    g_param_spec_object ("material", NULL, NULL, MAT_TYPE_MATERIAL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED] =
    g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT, GTK_INVALID_LIST_POSITION,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXTURES] =
    g_param_spec_object ("textures", NULL, NULL, MAT_TYPE_TEXTURE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_RAW_BYTES] =
    g_param_spec_boolean ("show-raw-bytes", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EMBOSS_BUMP] =
    g_param_spec_boolean ("emboss-bump", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-phase-table.ui");
  gtk_widget_class_bind_template_child (widget_class, MatPhaseTable, toolbar);
  gtk_widget_class_bind_template_child (widget_class, MatPhaseTable, scroller);
  gtk_widget_class_bind_template_child (widget_class, MatPhaseTable, column_view);
  gtk_widget_class_bind_template_child (widget_class, MatPhaseTable, selection);
  gtk_widget_class_bind_template_child (widget_class, MatPhaseTable, status_label);
  gtk_widget_class_bind_template_child (widget_class, MatPhaseTable, problem_label);
  gtk_widget_class_bind_template_child (widget_class, MatPhaseTable, legend_label);
  gtk_widget_class_bind_template_child (widget_class, MatPhaseTable, raw_revealer);
  gtk_widget_class_bind_template_child (widget_class, MatPhaseTable, raw_title);
  gtk_widget_class_bind_template_child (widget_class, MatPhaseTable, raw_grid);
  /* reached only for their tooltips */
  gtk_widget_class_bind_template_child_full (widget_class, "add_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "duplicate_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "remove_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "move_up_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "move_down_button", FALSE, 0);
  gtk_widget_class_bind_template_child_full (widget_class, "raw_toggle", FALSE, 0);
  gtk_widget_class_set_css_name (widget_class, "matphasetable");

  gtk_widget_class_install_action (widget_class, "phase.add", NULL, phase_add);
  gtk_widget_class_install_action (widget_class, "phase.duplicate", NULL, phase_duplicate);
  gtk_widget_class_install_action (widget_class, "phase.remove", NULL, phase_remove);
  gtk_widget_class_install_action (widget_class, "phase.move-up", NULL, phase_move_up);
  gtk_widget_class_install_action (widget_class, "phase.move-down", NULL, phase_move_down);
  gtk_widget_class_install_property_action (widget_class, "phase.show-raw-bytes", "show-raw-bytes");

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Insert, GDK_ALT_MASK, "phase.add", NULL);
  /* Ctrl+D duplicates the material (win.duplicate): the phase has its own */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "phase.duplicate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, GDK_ALT_MASK, "phase.remove", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK, "phase.move-up", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_ALT_MASK, "phase.move-down", NULL);
}

/* Brings the selected row into view: the raw bytes opening under the
 * table, or a phase chosen from elsewhere (the problems panel), leave it
 * in sight. */
static void
scroll_to_selected (MatPhaseTable *self)
{
  guint selected = gtk_single_selection_get_selected (self->selection);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  if (selected == GTK_INVALID_LIST_POSITION || selected >= n)
    return;
#if GTK_CHECK_VERSION (4, 12, 0)
  gtk_column_view_scroll_to (self->column_view, selected, NULL, GTK_LIST_SCROLL_NONE, NULL);
#else
  {
    GtkAdjustment *v = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));
    /* the rows are all as tall, the heads are not scrolled */
    double row = gtk_adjustment_get_upper (v) / n;
    double top = row * selected;
    double value = gtk_adjustment_get_value (v);
    double page = gtk_adjustment_get_page_size (v);

    if (top < value)
      gtk_adjustment_set_value (v, top);
    else if (top + row > value + page)
      gtk_adjustment_set_value (v, top + row - page);
  }
#endif
}

static void
raw_revealed_cb (MatPhaseTable *self)
{
  if (gtk_revealer_get_child_revealed (self->raw_revealer))
    scroll_to_selected (self);
}

/* The toolbar's tooltips, set here, not in the .ui file: see mat-tooltip.h */
static const MatTooltipEntry tooltips[] = {
  { "add_button", N_("Add a phase after the selected one (Alt+Insert)") },
  { "duplicate_button", N_("Duplicate the selected phase (Shift+Ctrl+D)") },
  { "remove_button", N_("Remove the selected phase; keys that pointed at it follow the phase "
                        "that takes its place (Alt+Delete)") },
  { "move_up_button", N_("Move the selected phase up; keys follow it (Alt+Up)") },
  { "move_down_button", N_("Move the selected phase down; keys follow it (Alt+Down)") },
  { "raw_toggle", N_("Show the 18 bytes p0–p17 of the selected phase, each as a number to edit") },
};

static void textures_changed_cb (MatPhaseTable *self);

static void
mat_phase_table_init (MatPhaseTable *self)
{
  mat_style_ensure ();
  self->bound_cells = g_hash_table_new (NULL, NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
  mat_tooltip_init_template (GTK_WIDGET (self), MAT_TYPE_PHASE_TABLE, tooltips,
                             G_N_ELEMENTS (tooltips));

  self->material_signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_object (self->material_signals, "notify::editable",
                                 G_CALLBACK (material_editable_changed), self,
                                 G_CONNECT_SWAPPED);
  /* a lit skin (attr1 bit 1) draws its textures opaque */
  g_signal_group_connect_object (self->material_signals, "notify::attr1",
                                 G_CALLBACK (textures_changed_cb), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (self->selection, "notify::selected",
                           G_CALLBACK (selection_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->selection, "items-changed",
                           G_CALLBACK (selection_items_changed), self, G_CONNECT_SWAPPED);

  /* What a modder reads: the index, the colours (the self-light with its
   * opacity), the texture and its cell, the power. The raw bytes are
   * under the table. */
  add_column (self, CELL_INDEX, 0, _("#"),
              _("Phase index: what animation keys (k0) point at"), TRUE);
  for (guint g = 0; g < MAT_PHASE_N_COLOURS; g++)
    {
      const Mat0GroupField *group = mat0_fields_group ((Mat0ColourGroup) g);
      /* the head: the group's name, then its bytes */
      g_autofree char *title = g_strdup_printf ("%s\np%u–p%u", _(group->label),
                                                group->bytes[0], group->bytes[3]);
      g_autofree char *tip = g_strdup_printf ("%s\n%s", _(group->meaning),
                                              _("Click a swatch to type its bytes or pick a colour."));

      add_column (self, CELL_SWATCH, g, title, tip, group->drawn);
    }
  add_column (self, CELL_TEXTURE, 0, _(mat0_fields_texture_label ()),
              _(mat0_fields_texture_meaning ()), TRUE);
  {
    const Mat0ParamField *cell = mat0_fields_param (MAT0_CELL_BYTE);
    g_autofree char *title = g_strdup_printf ("%s\np%u", _(cell->short_label), cell->byte);

    add_column (self, CELL_CHOOSER, MAT0_CELL_BYTE, title, _(cell->meaning), cell->drawn);
  }
  add_param_column (self, 16);

  g_object_bind_property (self, "show-raw-bytes", self->raw_revealer, "reveal-child",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->raw_revealer, "notify::child-revealed",
                           G_CALLBACK (raw_revealed_cb), self, G_CONNECT_SWAPPED);
  mat_revealer_skip_concealed (self->raw_revealer);
  raw_follow_selection (self);

  {
    g_autofree char *bytes = not_drawn_bytes ();
    /* Translators: the legend under the phase table: the dimmed bytes,
     * then "stored, not drawn by the game" */
    g_autofree char *legend = g_strdup_printf (_("Dimmed (%s): %s."), bytes,
                                               _(mat0_fields_not_drawn_note ()));

    gtk_label_set_text (self->legend_label, legend);
  }

  update_actions (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

GtkWidget *
mat_phase_table_new (void)
{
  return g_object_new (MAT_TYPE_PHASE_TABLE, NULL);
}

MatMaterial *
mat_phase_table_get_material (MatPhaseTable *self)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  return self->material;
}

void
mat_phase_table_set_material (MatPhaseTable *self,
                              MatMaterial   *material)
{
  g_return_if_fail (MAT_IS_PHASE_TABLE (self));
  g_return_if_fail (material == NULL || MAT_IS_MATERIAL (material));

  if (self->material == material)
    return;

  edit_group_end (self);
  problem_forget (self);
  g_set_object (&self->material, material);
  g_signal_group_set_target (self->material_signals, material);
  self->editable = material != NULL && mat_material_get_editable (material);
  gtk_single_selection_set_model (self->selection,
                                  material != NULL ? mat_material_get_phases (material) : NULL);
  update_actions (self);
  raw_follow_selection (self);
  update_status (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATERIAL]);
}

MatBatch *
mat_phase_table_get_batch (MatPhaseTable *self)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  return self->batch;
}

void
mat_phase_table_set_batch (MatPhaseTable *self,
                           MatBatch      *batch)
{
  g_return_if_fail (MAT_IS_PHASE_TABLE (self));
  g_return_if_fail (batch == NULL || MAT_IS_BATCH (batch));

  if (self->batch == batch)
    return;
  if (self->batch != NULL)
    g_signal_handlers_disconnect_by_data (self->batch, self);
  g_set_object (&self->batch, batch);
  if (batch != NULL)
    g_signal_connect_swapped (batch, "changed", G_CALLBACK (differs_update_later), self);
  if (batch == NULL)
    {
      /* nothing to read: at once */
      g_clear_handle_id (&self->differs_source, g_source_remove);
      differs_update_idle (self);
    }
  else
    differs_update_later (self);
}

MatTextureLibrary *
mat_phase_table_get_textures (MatPhaseTable *self)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  return self->textures;
}

/* Revalidates the texture cells under @widget against the library. */
static void
refresh_texture_cells (MatPhaseTable *self,
                       GtkWidget     *widget)
{
  GtkListItem *item = g_object_get_data (G_OBJECT (widget), "mat-list-item");

  if (item != NULL &&
      GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "mat-cell-kind")) == CELL_TEXTURE + 1)
    {
      texture_button_update (self, g_object_get_data (G_OBJECT (widget), "mat-picker-button"));
      if (gtk_list_item_get_item (item) != NULL)
        texture_entry_validate (widget);
      return;
    }
  /* the cell chooser lists the rectangles of the library's texture */
  if (item != NULL &&
      GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "mat-cell-kind")) == CELL_CHOOSER + 1)
    {
      if (gtk_list_item_get_item (item) != NULL)
        cell_chooser_update (self, GTK_DROP_DOWN (widget), gtk_list_item_get_item (item));
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    refresh_texture_cells (self, child);
}

/* A texture imported, replaced or given other cells: the texture cells
 * and the cell choosers follow at once. */
static void
textures_changed_cb (MatPhaseTable *self)
{
  refresh_texture_cells (self, GTK_WIDGET (self->column_view));
}

void
mat_phase_table_set_textures (MatPhaseTable     *self,
                              MatTextureLibrary *textures)
{
  g_return_if_fail (MAT_IS_PHASE_TABLE (self));
  g_return_if_fail (textures == NULL || MAT_IS_TEXTURE_LIBRARY (textures));

  if (self->textures == textures)
    return;
  if (self->textures != NULL)
    g_signal_handlers_disconnect_by_data (self->textures, self);
  g_set_object (&self->textures, textures);
  if (textures != NULL)
    {
      g_signal_connect_object (textures, "changed", G_CALLBACK (textures_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (textures, "items-changed", G_CALLBACK (textures_changed_cb),
                               self, G_CONNECT_SWAPPED);
    }

  refresh_texture_cells (self, GTK_WIDGET (self->column_view));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURES]);
}

int
mat_phase_table_get_columns_width (MatPhaseTable *self)
{
  int columns, frame = 2;

  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), 0);

  gtk_widget_measure (GTK_WIDGET (self->column_view), GTK_ORIENTATION_HORIZONTAL, -1,
                      &columns, NULL, NULL, NULL);
  /* the scroller's frame around the columns, once it is laid out */
  if (gtk_widget_get_width (self->scroller) > 0)
    frame = gtk_widget_get_width (self->scroller) - gtk_widget_get_width (GTK_WIDGET (self->column_view));
  return columns + MAX (frame, 0);
}

gboolean
mat_phase_table_get_show_raw_bytes (MatPhaseTable *self)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), FALSE);

  return self->show_raw_bytes;
}

void
mat_phase_table_set_show_raw_bytes (MatPhaseTable *self,
                                    gboolean       show)
{
  g_return_if_fail (MAT_IS_PHASE_TABLE (self));

  show = !!show;
  if (self->show_raw_bytes == show)
    return;

  self->show_raw_bytes = show;
  if (show)
    raw_bytes_ensure (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_RAW_BYTES]);
}

gboolean
mat_phase_table_get_emboss_bump (MatPhaseTable *self)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), FALSE);

  return self->emboss_bump;
}

void
mat_phase_table_set_emboss_bump (MatPhaseTable *self,
                                 gboolean       emboss_bump)
{
  g_return_if_fail (MAT_IS_PHASE_TABLE (self));

  emboss_bump = !!emboss_bump;
  if (self->emboss_bump == emboss_bump)
    return;
  self->emboss_bump = emboss_bump;
  refresh_texture_cells (self, GTK_WIDGET (self->column_view));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMBOSS_BUMP]);
}

guint
mat_phase_table_get_selected (MatPhaseTable *self)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), GTK_INVALID_LIST_POSITION);

  return selected_row (self);
}

void
mat_phase_table_set_selected (MatPhaseTable *self,
                              guint          position)
{
  g_return_if_fail (MAT_IS_PHASE_TABLE (self));

  gtk_single_selection_set_selected (self->selection, position);
  scroll_to_selected (self);
}

gboolean
mat_phase_table_apply_colour (MatPhaseTable   *self,
                              guint            row,
                              MatPhaseColour   group,
                              const GdkRGBA   *rgba,
                              GError         **error)
{
  g_autoptr(MatPhase) phase = NULL;

  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), FALSE);
  g_return_val_if_fail (group < MAT_PHASE_N_COLOURS, FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  g_return_val_if_fail (self->material != NULL, FALSE);

  phase = g_list_model_get_item (mat_material_get_phases (self->material), row);
  g_return_val_if_fail (phase != NULL, FALSE);

  return apply_colour_to_phase (self, phase, group, rgba, error);
}

/* Returns: (transfer none) (nullable): the cell of @kind/@arg for @row. */
static GtkWidget *
find_cell (GtkWidget *widget,
           CellKind   kind,
           guint      arg,
           guint      row)
{
  GtkListItem *item = g_object_get_data (G_OBJECT (widget), "mat-list-item");

  if (item != NULL &&
      GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "mat-cell-kind")) == kind + 1 &&
      cell_get_arg (widget) == arg &&
      gtk_list_item_get_item (item) != NULL &&
      gtk_list_item_get_position (item) == row)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_cell (child, kind, arg, row);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkSpinButton *
mat_phase_table_get_spin_for_test (MatPhaseTable *self,
                                   guint          row,
                                   guint          param)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);
  g_return_val_if_fail (param < MAT0_PARAM_COUNT, NULL);

  if (self->show_raw_bytes && self->raw_phase != NULL && row == selected_row (self))
    return GTK_SPIN_BUTTON (self->raw_spins[param]);
  return (GtkSpinButton *) find_cell (GTK_WIDGET (self->column_view), CELL_PARAM, param, row);
}

GtkEntry *
mat_phase_table_get_texture_for_test (MatPhaseTable *self,
                                      guint          row)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  return (GtkEntry *) find_cell (GTK_WIDGET (self->column_view), CELL_TEXTURE, 0, row);
}

GtkButton *
mat_phase_table_get_texture_button_for_test (MatPhaseTable *self,
                                             guint          row)
{
  GtkWidget *entry;

  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  entry = find_cell (GTK_WIDGET (self->column_view), CELL_TEXTURE, 0, row);
  return entry != NULL ? g_object_get_data (G_OBJECT (entry), "mat-picker-button") : NULL;
}

GtkButton *
mat_phase_table_get_swatch_for_test (MatPhaseTable  *self,
                                     guint           row,
                                     MatPhaseColour  group)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);
  g_return_val_if_fail (group < MAT_PHASE_N_COLOURS, NULL);

  return (GtkButton *) find_cell (GTK_WIDGET (self->column_view), CELL_SWATCH, group, row);
}

GtkDropDown *
mat_phase_table_get_cell_chooser_for_test (MatPhaseTable *self,
                                           guint          row)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  return (GtkDropDown *) find_cell (GTK_WIDGET (self->column_view), CELL_CHOOSER, MAT0_CELL_BYTE, row);
}

GtkLabel *
mat_phase_table_get_opacity_for_test (MatPhaseTable *self,
                                      guint          row)
{
  GtkWidget *swatch;

  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  swatch = find_cell (GTK_WIDGET (self->column_view), CELL_SWATCH, MAT_PHASE_COLOUR_AMBIENT, row);
  return swatch != NULL ? g_object_get_data (G_OBJECT (swatch), "mat-reading") : NULL;
}

GtkButton *
mat_phase_table_get_opacity_button_for_test (MatPhaseTable *self,
                                             guint          row)
{
  GtkWidget *swatch;

  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  swatch = find_cell (GTK_WIDGET (self->column_view), CELL_SWATCH, MAT_PHASE_COLOUR_AMBIENT, row);
  return swatch != NULL ? g_object_get_data (G_OBJECT (swatch), "mat-opacity") : NULL;
}

GtkPopover *
mat_phase_table_get_colour_popover_for_test (MatPhaseTable *self)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  return self->popover != NULL && gtk_widget_get_visible (self->popover) ? GTK_POPOVER (self->popover) : NULL;
}

/* The spin button of byte @param in the grid of @popover. */
static gboolean
is_spin_of (GtkWidget     *widget,
            gconstpointer  data)
{
  return GTK_IS_SPIN_BUTTON (widget) && cell_get_arg (widget) == GPOINTER_TO_UINT (data);
}

static GtkWidget *
find_widget (GtkWidget     *root,
             gboolean     (*match) (GtkWidget *, gconstpointer),
             gconstpointer  data)
{
  if (match (root, data))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, match, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkSpinButton *
mat_phase_table_get_popover_spin_for_test (MatPhaseTable *self,
                                           guint          param)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  if (self->popover == NULL)
    return NULL;
  return (GtkSpinButton *) find_widget (self->popover, is_spin_of, GUINT_TO_POINTER (param));
}

static gboolean
is_chooser_button (GtkWidget     *widget,
                   gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && g_object_get_data (G_OBJECT (widget), "mat-phase") != NULL;
}

GtkButton *
mat_phase_table_get_popover_chooser_for_test (MatPhaseTable *self)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  if (self->popover == NULL)
    return NULL;
  return (GtkButton *) find_widget (self->popover, is_chooser_button, NULL);
}

GtkLabel *
mat_phase_table_get_legend_for_test (MatPhaseTable *self)
{
  g_return_val_if_fail (MAT_IS_PHASE_TABLE (self), NULL);

  return self->legend_label;
}
