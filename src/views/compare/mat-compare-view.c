/* mat-compare-view.c - two phases or animations side by side, with a diff
 *
 * Each slot keeps its own choice (library, material, static phase or
 * block, time offset) and a copy of the material's current state
 * (mat_material_dup_core, refreshed on the material's "changed" signal)
 * from which the table's values come: phase_eval_expand for a static
 * phase, phase_eval_at_time at the shared time plus the offset for a
 * block, with the preview's own random offset, so the table shows exactly
 * what the preview draws. One MatPlayback is the clock of both sides:
 * the view ticks it and both previews follow it (each adding its slot's
 * offset), so they stay in step frame by frame; the view refreshes the
 * table after the previews have seen each new time.
 *
 * The table is a GtkGrid: a header row, then per colour group a title
 * row with the two colours as swatches and one row per byte, named from
 * mat0-fields (the self-light, the opacity in per cent, the cell; the
 * fields the game never draws say so), and a first row for the whole
 * phase. Every cell of a row that differs gets the "differs" style class.
 * Copying a field, a colour group or the whole phase across is one call
 * into mat-material-copy.h: one undo step in the target's library, never
 * into a reference library (one opened only to compare with).
 *
 * A second page, a MatMaterialDiff, compares the two slots' whole
 * materials; the view keeps it pointed at them.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat0.h"
#include "mat0-fields.h"
#include "nres.h"
#include "mat-compare-cells.h"
#include "mat-compare-view-private.h"
#include "mat-library-name.h"
#include "mat-material-copy.h"
#include "mat-material-diff.h"
#include "mat-playback.h"
#include "mat-style.h"
#include "mat-tooltip.h"

#define RESOURCE_PREFIX "/io/github/parkan/MatEdit/"
#define N_SLOTS         2
#define N_GROUPS        5
#define N_COLOUR_GROUPS 4

/* Columns of the table. */
enum {
  COL_FIELD,
  COL_SOURCE,
  COL_RAW_A,
  COL_VALUE_A,
  COL_COPY,
  COL_RAW_B,
  COL_VALUE_B,
  N_COLUMNS
};

/* The runtime float slot of row @row, -1 for p16, p17 and the texture. */
static int
row_slot (guint row)
{
  if (row < MAT0_N_PARAMS && mat0_fields_param (row)->slot < 16)
    return mat0_fields_param (row)->slot;
  return -1;
}

/* The offset of row @row in the 76-byte runtime phase (formats.md 2.2). */
static guint
row_offset (guint row)
{
  return row < MAT0_N_PARAMS ? mat0_fields_param (row)->runtime_offset : 68;
}

/* The fifth group: p16, p17 and the texture. */
static const guint other_rows[] = { 16, MAT0_CELL_BYTE, MAT_COMPARE_ROW_TEXTURE };

typedef struct _Slot Slot;

typedef struct {
  MatCompareView *view;
  guint           slot;
  guint           group;
} SwatchInfo;

struct _Slot
{
  MatCompareView     *view;
  guint               id;

  /* the choice */
  MatLibrary         *library;
  MatMaterial        *material;
  int                 block;      /* -1: the static phase */
  guint               phase;
  guint               offset;

  GSignalGroup       *material_signals;
  GSignalGroup       *library_signals;
  GtkCustomFilter    *filter;
  GtkFilterListModel *materials;   /* MAT0 entries of the library */
  GtkStringList      *source_names;

  /* the material's current state and what the table shows */
  Mat0Material       *core;
  PhaseRuntime       *runtime;
  gboolean            has_value;
  PhaseRuntime        value;
  PhaseEvalResult     eval;
  char               *texture;     /* UTF-8 name of the shown texture, or NULL */

  /* template */
  GtkDropDown        *library_dropdown;
  GtkDropDown        *material_dropdown;
  GtkDropDown        *source_dropdown;
  GtkSpinButton      *offset_spin;
  GtkAdjustment      *offset_adjustment;
  GtkWidget          *offset_title;
  GtkWidget          *offset_unit;
  MatPreview         *preview;
  GtkLabel           *status_label;

  /* table cells */
  GtkLabel           *raw[MAT_COMPARE_N_ROWS];
  GtkLabel           *values[MAT_COMPARE_N_ROWS];
  GtkWidget          *swatches[N_COLOUR_GROUPS];
  SwatchInfo          swatch_info[N_COLOUR_GROUPS];
};

struct _MatCompareView
{
  GtkWidget          parent_instance;

  GPtrArray         *libraries;       /* MatLibrary, parallel to library_names */
  GArray            *library_editable; /* gboolean, parallel: FALSE for a reference */
  GPtrArray         *library_titles;  /* char *, parallel: the title given, or
                                         %NULL to be named by the file */
  GtkStringList     *library_names;
  MatTextureLibrary *textures;

  Slot               slots[N_SLOTS];

  MatPlayback       *playback;        /* the shared time of both sides */
  guint              n_differences;
  gboolean           differs[MAT_COMPARE_N_ROWS];
  gboolean           syncing;
  char              *error;           /* the last failed copy */

  /* template */
  GtkPaned          *paned;
  GtkWidget         *play_button;
  GtkScale          *time_scale;
  GtkAdjustment     *time_adjustment;
  GtkLabel          *time_label;
  GtkWidget         *swap_button;
  GtkLabel          *summary_label;
  GtkGrid           *table;
  GtkStack          *details_stack;
  GtkWidget         *details_switcher;
  MatMaterialDiff   *material_diff;

  /* table */
  GtkWidget         *cells[MAT_COMPARE_N_ROWS][N_COLUMNS];
  GtkStack          *copy_stacks[MAT_COMPARE_N_ROWS];
  GtkWidget         *copy_buttons[MAT_COMPARE_N_ROWS][N_SLOTS];   /* into A, into B */
  GtkWidget         *group_copy[N_COLOUR_GROUPS][N_SLOTS];
  GtkWidget         *phase_copy[N_SLOTS];
  GtkWidget         *phase_cells[N_COLUMNS];
  GtkLabel          *phase_labels[N_SLOTS];
};

G_DEFINE_FINAL_TYPE (MatCompareView, mat_compare_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MATERIAL,
  PROP_TIME,
  PROP_PLAYING,
  PROP_TEXTURES,
  PROP_N_DIFFERENCES,
  N_PROPS
};

enum {
  EDITED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void update_all       (MatCompareView *self);
static void slot_sync_widgets (MatCompareView *self,
                               Slot           *slot);
static void slot_reload      (MatCompareView *self,
                              Slot           *slot);

/* ------------------------------------------------------------------ */
/* Style                                                                */



/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static void
label_set (GtkLabel   *label,
           const char *text)
{
  if (g_strcmp0 (gtk_label_get_text (label), text) != 0)
    gtk_label_set_text (label, text);
}

/* A tooltip change costs a round trip to the display server: only when
 * the text changes. */
static void
tooltip_set (GtkWidget  *widget,
             const char *text)
{
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), text) != 0)
    mat_tooltip_set_text (widget, text);
}

static void
widget_set_class (GtkWidget  *widget,
                  const char *css_class,
                  gboolean    set)
{
  if (set)
    gtk_widget_add_css_class (widget, css_class);
  else
    gtk_widget_remove_css_class (widget, css_class);
}

static gboolean
is_mat0 (gpointer item,
         gpointer user_data)
{
  return MAT_IS_MATERIAL (item) && mat_material_get_type_id (item) == NRES_TYPE_MAT0;
}

/* Returns: (transfer none) (nullable): the first MAT0 entry of @library. */
static MatMaterial *
first_material (MatLibrary *library)
{
  guint n;

  if (library == NULL)
    return NULL;
  n = g_list_model_get_n_items (G_LIST_MODEL (library));
  for (guint i = 0; i < n; i++)
    {
      MatMaterial *material = mat_library_get_material (library, i);

      if (material != NULL && is_mat0 (material, NULL))
        return material;
    }
  return NULL;
}

static int
library_index (MatCompareView *self,
               MatLibrary     *library)
{
  guint index;

  if (library != NULL && g_ptr_array_find (self->libraries, library, &index))
    return (int) index;
  return -1;
}

/* The names in the libraries' choosers: the title given, or the file's
 * name told apart from the other libraries named by theirs ("Material.lib
 * — Parkan/DATA"). Only the names that changed are replaced. */
static void
update_library_names (MatCompareView *self)
{
  guint n = self->libraries->len;
  g_autofree MatLibraryPlace *places = g_new0 (MatLibraryPlace, MAX (n, 1));
  guint n_places = 0;
  gboolean syncing = self->syncing;

  for (guint i = 0; i < n; i++)
    if (self->library_titles->pdata[i] == NULL)
      places[n_places++].file = mat_library_get_file (self->libraries->pdata[i]);

  self->syncing = TRUE;
  for (guint i = 0; i < n; i++)
    {
      const char *title = self->library_titles->pdata[i];
      g_autofree char *name = NULL;
      const char *strings[2] = { NULL, NULL };

      if (title == NULL)
        {
          MatLibraryPlace place = { mat_library_get_file (self->libraries->pdata[i]), FALSE };

          name = mat_library_dup_display_name (&place, places, n_places);
          title = name;
        }
      if (g_strcmp0 (gtk_string_list_get_string (self->library_names, i), title) == 0)
        continue;
      strings[0] = title;
      gtk_string_list_splice (self->library_names, i, 1, strings);
    }
  self->syncing = syncing;
}

static void
library_file_changed (MatCompareView *self)
{
  update_library_names (self);
  /* the choosers keep their libraries */
  for (guint s = 0; s < N_SLOTS; s++)
    slot_sync_widgets (self, &self->slots[s]);
}

static void
library_add (MatCompareView *self,
             MatLibrary     *library,
             const char     *title,
             gboolean        editable)
{
  int index = library_index (self, library);

  self->syncing = TRUE;
  if (index >= 0)
    {
      g_free (self->library_titles->pdata[index]);
      self->library_titles->pdata[index] = g_strdup (title);
      g_array_index (self->library_editable, gboolean, index) = editable;
    }
  else
    {
      g_ptr_array_add (self->libraries, g_object_ref (library));
      g_array_append_val (self->library_editable, editable);
      g_ptr_array_add (self->library_titles, g_strdup (title));
      /* named below, with the others */
      gtk_string_list_append (self->library_names, "");
      /* a save under another name names it anew */
      g_signal_connect_object (library, "notify::file", G_CALLBACK (library_file_changed), self,
                               G_CONNECT_SWAPPED);
    }
  update_library_names (self);
  self->syncing = FALSE;
}

/* Whether copies may go into what @slot shows: an editable material of a
 * library that is not a reference. */
static gboolean
slot_editable (MatCompareView *self,
               Slot           *slot)
{
  int index = library_index (self, slot->library);

  return index >= 0 && g_array_index (self->library_editable, gboolean, index) &&
         slot->core != NULL && slot->material != NULL &&
         mat_material_get_library (slot->material) != NULL;
}

/* The source list: the phases, then the blocks. */
static char *
block_title (const Mat0Block *block,
             guint            index)
{
  guint mode = block->header_raw & 7;
  guint32 cycle = mat0_block_period (block);
  g_autofree char *mode_name = NULL;

  if (mat0_fields_mode (mode)->known)
    mode_name = g_strdup (_(mat0_fields_mode (mode)->label));
  else
    /* Translators: "Unknown", then the stored mode number */
    mode_name = g_strdup_printf (_("%s (%u)"), _(mat0_fields_mode (mode)->label), mode);
  /* TRANSLATORS: an animation block in the compare view's chooser:
   * "Block 0: loop, 3200 ms"; a no-break space before "ms" */
  return g_strdup_printf (_("Block %u: %s, %u\u00a0ms"), index, mode_name, (guint) cycle);
}

static char *
phase_title (const Mat0Phase *phase,
             guint            index)
{
  if (mat0_phase_is_textured (phase))
    {
      g_autofree char *texture = mat0_phase_dup_texture (phase);

      /* TRANSLATORS: a static phase and its texture: "Phase 2: ROCK.0" */
      return g_strdup_printf (_("Phase %u: %s"), index, texture);
    }
  /* TRANSLATORS: a static, untextured phase */
  return g_strdup_printf (_("Phase %u"), index);
}

static guint32
slot_period (Slot *slot)
{
  if (slot->core == NULL || slot->block < 0 || (guint) slot->block >= slot->core->n_blocks)
    return 0;
  return mat0_block_period (&slot->core->blocks[slot->block]);
}

/* How far the shared scale reaches for @slot: one cycle of its block
 * (the core's: two periods for ping-pong, which runs there and back). */
static guint32
slot_span (Slot *slot)
{
  guint32 period = slot_period (slot);

  if (period == 0)
    return 0;
  return phase_eval_cycle (mat0_block_mode (&slot->core->blocks[slot->block]), period);
}

static guint32
shared_span (MatCompareView *self)
{
  return MAX (slot_span (&self->slots[0]), slot_span (&self->slots[1]));
}

static gboolean
slot_is_static (Slot *slot)
{
  return slot->has_value && slot->block < 0;
}

static gboolean
slots_show_same_phase (MatCompareView *self)
{
  Slot *a = &self->slots[0], *b = &self->slots[1];

  return slot_is_static (a) && slot_is_static (b) &&
         a->material == b->material && a->phase == b->phase;
}

/* ------------------------------------------------------------------ */
/* Evaluation                                                           */

static guint32
slot_time (MatCompareView *self,
           Slot           *slot)
{
  return (guint32) mat_playback_get_time (self->playback) + (guint32) slot->offset;
}

static void
slot_evaluate (MatCompareView *self,
               Slot           *slot)
{
  const Mat0Phase *shown = NULL;

  slot->has_value = FALSE;
  g_clear_pointer (&slot->texture, g_free);
  memset (&slot->eval, 0, sizeof slot->eval);
  if (slot->core == NULL || slot->core->n_phases == 0)
    return;

  if (slot->block < 0)
    {
      shown = &slot->core->phases[slot->phase];
      phase_eval_expand (shown, (gint32) slot->phase, &slot->value);
    }
  else
    {
      PhaseEvalInput input = { 0 };

      input.phases = slot->runtime;
      input.n_phases = slot->core->n_phases;
      input.block = &slot->core->blocks[slot->block];
      input.static_phase = slot->phase;
      phase_eval_at_time (&input, slot_time (self, slot), 0,
                          mat_preview_get_random_offset (slot->preview), &slot->eval);
      slot->value = slot->eval.value;
      if (slot->value.tex_slot >= 0 && (guint) slot->value.tex_slot < slot->core->n_phases)
        shown = &slot->core->phases[slot->value.tex_slot];
    }

  if (shown != NULL && slot->value.tex_slot >= 0 && mat0_phase_is_textured (shown))
    slot->texture = mat0_phase_dup_texture (shown);
  slot->has_value = TRUE;
}

/* ------------------------------------------------------------------ */
/* The table                                                            */

static char *
format_raw (Slot  *slot,
            guint  row)
{
  const Mat0Phase *phase;

  if (!slot->has_value)
    return g_strdup ("");
  if (slot->block >= 0)
    return g_strdup ("–");
  phase = &slot->core->phases[slot->phase];
  if (row == MAT_COMPARE_ROW_TEXTURE)
    return slot->texture != NULL ? g_strdup_printf ("“%s”", slot->texture) : g_strdup ("“”");
  return g_strdup_printf ("%u", phase->p[row]);
}

static char *
format_value (Slot  *slot,
              guint  row)
{
  const PhaseRuntime *v = &slot->value;
  int f = row_slot (row);

  if (!slot->has_value)
    return g_strdup ("");
  if (f >= 0 && row == MAT0_AMBIENT_ALPHA_BYTE)
    /* Translators: the runtime opacity (the ambient alpha) in per cent;
     * a no-break space before "%%" */
    return g_strdup_printf (_("%.1f\u00a0%%"), (double) v->f[f] * 100.0);
  if (f >= 0)
    return g_strdup_printf ("%.3f", (double) v->f[f]);
  switch (row)
    {
    case 16:
      return g_strdup_printf ("%.1f", (double) v->power);
    case MAT0_CELL_BYTE:
      return mat0_fields_dup_cell_reading ((guint8) (gint8) v->i18, v->tex_slot >= 0);
    case MAT_COMPARE_ROW_TEXTURE:
      if (slot->texture == NULL)
        return g_strdup (_("none"));
      return g_strdup (slot->texture);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
row_differs (MatCompareView *self,
             guint           row)
{
  Slot *a = &self->slots[0], *b = &self->slots[1];
  int slot;

  if (!a->has_value || !b->has_value)
    return FALSE;
  if (row == MAT_COMPARE_ROW_TEXTURE)
    return g_strcmp0 (a->texture, b->texture) != 0;
  /* Two stored phases: the bytes (p17 differs even when both are
   * untextured and the runtime value is -1 for both). */
  if (a->block < 0 && b->block < 0)
    return a->core->phases[a->phase].p[row] != b->core->phases[b->phase].p[row];
  slot = row_slot (row);
  if (slot >= 0)
    return a->value.f[slot] != b->value.f[slot];
  if (row == 16)
    return a->value.power != b->value.power;
  return a->value.i18 != b->value.i18;
}

static void
update_table (MatCompareView *self)
{
  gboolean copyable = slot_is_static (&self->slots[0]) && slot_is_static (&self->slots[1]) &&
                      !slots_show_same_phase (self);
  gboolean into[N_SLOTS];
  gboolean group_differs[N_COLOUR_GROUPS] = { FALSE };
  guint n_differences = 0;

  for (guint s = 0; s < N_SLOTS; s++)
    into[s] = copyable && slot_editable (self, &self->slots[s]);

  for (guint row = 0; row < MAT_COMPARE_N_ROWS; row++)
    {
      gboolean differs = row_differs (self, row);

      for (guint s = 0; s < N_SLOTS; s++)
        {
          Slot *slot = &self->slots[s];
          g_autofree char *raw = format_raw (slot, row);
          g_autofree char *value = format_value (slot, row);

          label_set (slot->raw[row], raw);
          label_set (slot->values[row], value);
          /* an opacity over 100 % is a lint */
          if (row == MAT0_AMBIENT_ALPHA_BYTE)
            widget_set_class (GTK_WIDGET (slot->values[row]), "warning",
                              slot->has_value &&
                              slot->value.f[mat0_fields_param (row)->slot] > 1.0f);
        }

      self->differs[row] = differs;
      if (differs)
        {
          n_differences++;
          if (row < MAT0_N_PARAMS && mat0_fields_param (row)->group != MAT0_GROUP_NONE)
            group_differs[mat0_fields_param (row)->group] = TRUE;
        }
      for (guint c = 0; c < N_COLUMNS; c++)
        widget_set_class (self->cells[row][c], "differs", differs);
      for (guint s = 0; s < N_SLOTS; s++)
        gtk_widget_set_visible (self->copy_buttons[row][s], differs && into[s]);
      gtk_stack_set_visible_child_name (self->copy_stacks[row],
                                        differs && (into[0] || into[1]) ? "copy" : "none");
    }

  /* a colour group and the whole phase */
  for (guint g = 0; g < N_COLOUR_GROUPS; g++)
    for (guint s = 0; s < N_SLOTS; s++)
      gtk_widget_set_visible (self->group_copy[g][s], group_differs[g] && into[s]);
  for (guint s = 0; s < N_SLOTS; s++)
    {
      Slot *slot = &self->slots[s];
      g_autofree char *title = NULL;

      if (!slot->has_value)
        title = g_strdup ("");
      else if (slot->block >= 0)
        title = block_title (&slot->core->blocks[slot->block], (guint) slot->block);
      else
        title = phase_title (&slot->core->phases[slot->phase], slot->phase);
      label_set (self->phase_labels[s], title);
      tooltip_set (GTK_WIDGET (self->phase_labels[s]), title);
      gtk_widget_set_visible (self->phase_copy[s], n_differences > 0 && into[s]);
    }
  for (guint c = 0; c < N_COLUMNS; c++)
    widget_set_class (self->phase_cells[c], "differs", copyable && n_differences > 0);

  for (guint s = 0; s < N_SLOTS; s++)
    for (guint g = 0; g < N_COLOUR_GROUPS; g++)
      gtk_widget_queue_draw (self->slots[s].swatches[g]);

  if (n_differences != self->n_differences)
    {
      self->n_differences = n_differences;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_DIFFERENCES]);
    }
}

static void
update_summary (MatCompareView *self)
{
  Slot *a = &self->slots[0], *b = &self->slots[1];
  g_autofree char *text = NULL;
  gboolean has_differences = FALSE;

  if (self->error != NULL)
    text = g_strdup (self->error);
  else if (!a->has_value || !b->has_value)
    text = g_strdup (_("Choose a material in both slots to compare them."));
  else if (slots_show_same_phase (self))
    text = g_strdup (_("Both slots show the same phase."));
  else if (self->n_differences == 0)
    text = g_strdup (a->block < 0 && b->block < 0
                     ? _("No differences: every byte and the texture name are the same.")
                     : _("No differences at this moment."));
  else
    {
      GString *fields = g_string_new (NULL);

      for (guint row = 0; row < MAT_COMPARE_N_ROWS; row++)
        if (self->differs[row])
          {
            if (fields->len > 0)
              g_string_append (fields, ", ");
            if (row == MAT_COMPARE_ROW_TEXTURE)
              g_string_append (fields, _("texture"));
            else
              g_string_append_printf (fields, "p%u", row);
          }
      if (a->block < 0 && b->block < 0)
        /* TRANSLATORS: %u fields, then their list ("p0, p4, texture") */
        text = g_strdup_printf (ngettext ("%u field differs: %s. Copy it across with ← and →; each copy is one undo step.",
                                          "%u fields differ: %s. Copy them across with ← and →; each copy is one undo step.",
                                          self->n_differences),
                                self->n_differences, fields->str);
      else
        text = g_strdup_printf (ngettext ("%u field differs at this moment: %s. Copying is offered between static phases.",
                                          "%u fields differ at this moment: %s. Copying is offered between static phases.",
                                          self->n_differences),
                                self->n_differences, fields->str);
      g_string_free (fields, TRUE);
      has_differences = TRUE;
    }

  label_set (self->summary_label, text);
  widget_set_class (GTK_WIDGET (self->summary_label), "has-differences", has_differences);
  widget_set_class (GTK_WIDGET (self->summary_label), "error", self->error != NULL);
}

static void
update_slot_status (MatCompareView *self,
                    Slot           *slot)
{
  g_autofree char *text = NULL;

  if (slot->material == NULL)
    text = g_strdup (_("No material"));
  else if (slot->core == NULL)
    {
      const char *reason = mat_material_get_error (slot->material);

      text = reason != NULL ? g_strdup_printf (_("Cannot be shown: %s"), reason)
                            : g_strdup (_("Not an editable material"));
    }
  else if (!slot->has_value)
    text = g_strdup (_("The material has no phases"));
  else if (slot->block < 0)
    text = g_strdup_printf (_("Phase %u as stored"), slot->phase);
  else if (slot->eval.segment < 0)
    text = g_strdup_printf (_("Block %u has no keys: phase %d, static"),
                            (guint) slot->block, slot->eval.phase_a);
  else if (slot->eval.hold)
    /* TRANSLATORS: where the track stands in its cycle and the cycle's
     * length, in ms (a once track held at its end); a no-break space
     * before "ms" */
    text = g_strdup_printf (_("At %u of the %u\u00a0ms cycle: holding phase %d"),
                            (guint) slot->eval.r, (guint) slot->eval.period, slot->eval.phase_a);
  else
    /* TRANSLATORS: where the track stands in its cycle and the cycle's
     * length, in ms; there phase A blends into phase B with weight alpha;
     * a no-break space before "ms" */
    text = g_strdup_printf (_("At %u of the %u\u00a0ms cycle: phase %d → phase %d, α %.3f"),
                            (guint) slot->eval.r, (guint) slot->eval.period, slot->eval.phase_a,
                            slot->eval.phase_b, (double) slot->eval.alpha);

  label_set (slot->status_label, text);
  tooltip_set (GTK_WIDGET (slot->status_label), text);
}

static void
update_time_controls (MatCompareView *self)
{
  guint32 span = shared_span (self);
  guint time = mat_playback_get_time (self->playback);
  g_autofree char *text = NULL;

  /* the clock goes round the longest period; nothing to play without one */
  mat_playback_set_period (self->playback, span);
  if (span == 0)
    mat_playback_set_playing (self->playback, FALSE);

  self->syncing = TRUE;
  gtk_adjustment_set_upper (self->time_adjustment, span > 0 ? span : 1000);
  gtk_adjustment_set_value (self->time_adjustment, MIN (time, span > 0 ? span : 0));
  self->syncing = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->time_scale), span > 0);

  if (span > 0)
    /* TRANSLATORS: shared time / the scale's length, in seconds; no-break
     * spaces before "s" */
    text = g_strdup_printf (_("%.3f\u00a0s / %.3f\u00a0s"), time / 1000.0, span / 1000.0);
  else
    text = g_strdup (_("static phases"));
  label_set (self->time_label, text);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.play", span > 0);
}

static void
update_actions (MatCompareView *self)
{
  gboolean copyable = slot_is_static (&self->slots[0]) && slot_is_static (&self->slots[1]);

  static const char *const into_a[] = { "compare.copy-to-a", "compare.copy-group-to-a", "compare.copy-phase-to-a" };
  static const char *const into_b[] = { "compare.copy-to-b", "compare.copy-group-to-b", "compare.copy-phase-to-b" };

  for (guint i = 0; i < G_N_ELEMENTS (into_a); i++)
    {
      gtk_widget_action_set_enabled (GTK_WIDGET (self), into_a[i],
                                     copyable && slot_editable (self, &self->slots[0]));
      gtk_widget_action_set_enabled (GTK_WIDGET (self), into_b[i],
                                     copyable && slot_editable (self, &self->slots[1]));
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.swap",
                                 self->slots[0].material != NULL || self->slots[1].material != NULL);
}

/* After a change of the time: the blocks, the previews, the table. */
static void
update_time (MatCompareView *self)
{
  for (guint s = 0; s < N_SLOTS; s++)
    {
      Slot *slot = &self->slots[s];

      mat_preview_set_time_offset (slot->preview, slot->offset);
      if (slot->block >= 0)
        slot_evaluate (self, slot);
      update_slot_status (self, slot);
    }
  update_table (self);
  update_summary (self);
  update_time_controls (self);
}

/* The whole-material table compares the slots' materials. */
static void
update_material_diff (MatCompareView *self)
{
  Slot *a = &self->slots[0], *b = &self->slots[1];

  mat_material_diff_set_materials (self->material_diff,
                                   a->material, slot_editable (self, a),
                                   b->material, slot_editable (self, b));
}

static void
update_all (MatCompareView *self)
{
  for (guint s = 0; s < N_SLOTS; s++)
    {
      Slot *slot = &self->slots[s];

      mat_preview_set_time_offset (slot->preview, slot->offset);
      slot_evaluate (self, slot);
      update_slot_status (self, slot);
    }
  update_table (self);
  update_summary (self);
  update_time_controls (self);
  update_actions (self);
  update_material_diff (self);
}

/* ------------------------------------------------------------------ */
/* Swatches                                                             */

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  SwatchInfo *info = user_data;
  Slot *slot = &info->view->slots[info->slot];
  const float *f;
  double alpha, split, r = 4.0;
  const double cell = 5.0;

  if (!slot->has_value || width < 8 || height < 4)
    return;

  f = &slot->value.f[mat0_fields_group ((Mat0ColourGroup) info->group)->first_slot];
  alpha = CLAMP ((double) f[3], 0.0, 1.0);
  split = (double) (int) (width * 0.75);

  cairo_new_sub_path (cr);
  cairo_arc (cr, width - r, r, r, -G_PI / 2, 0);
  cairo_arc (cr, width - r, height - r, r, 0, G_PI / 2);
  cairo_arc (cr, r, height - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, r, r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
  cairo_save (cr);
  cairo_clip_preserve (cr);
  cairo_new_path (cr);

  /* the colour, opaque; on the right its alpha over a checkerboard */
  cairo_set_source_rgb (cr, CLAMP (f[0], 0.f, 1.f), CLAMP (f[1], 0.f, 1.f), CLAMP (f[2], 0.f, 1.f));
  cairo_paint (cr);
  cairo_rectangle (cr, split, 0, width - split, height);
  cairo_clip (cr);
  cairo_set_source_rgb (cr, 0.93, 0.93, 0.93);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0.68, 0.68, 0.68);
  for (int y = 0; y * cell < height; y++)
    for (int x = 0; split + x * cell < width; x++)
      if ((x + y) % 2 == 0)
        cairo_rectangle (cr, split + x * cell, y * cell, cell, cell);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, CLAMP (f[0], 0.f, 1.f), CLAMP (f[1], 0.f, 1.f), CLAMP (f[2], 0.f, 1.f), alpha);
  cairo_paint (cr);
  cairo_restore (cr);

  cairo_set_source_rgba (cr, 0, 0, 0, 0.3);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
}

/* ------------------------------------------------------------------ */
/* Building the table                                                   */



static void
build_table (MatCompareView *self)
{
  static const char *const titles[N_COLUMNS] = {
    N_("Field"), N_("Byte → runtime"),
    N_("A byte"), N_("A runtime value"), N_("Copy"),
    N_("B byte"), N_("B runtime value"),
  };
  int y = 0;

  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkWidget *title = mat_compare_cell_label (titles[c][0] != '\0' ? _(titles[c]) : "",
                                     c == COL_RAW_A || c == COL_RAW_B ? 1.f : c == COL_COPY ? 0.5f : 0.f,
                                     "column-title");

      if (c == COL_RAW_A)
        gtk_widget_add_css_class (title, "side-a");
      else if (c == COL_RAW_B)
        gtk_widget_add_css_class (title, "side-b");
      if (c == COL_COPY)
        mat_tooltip_set_text (title, _("Copy a field across: → from A to B, ← from B to A"));
      gtk_grid_attach (self->table, title, (int) c, y, 1, 1);
    }
  y++;

  /* the whole phase */
  {
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);

    self->phase_cells[COL_FIELD] = mat_compare_cell_label (_("Whole phase"), 0.f, "phase-title");
    mat_tooltip_set_text (self->phase_cells[COL_FIELD],
                          _("The 34\u00a0bytes of the phase: 18\u00a0parameters and the texture name"));
    self->phase_cells[COL_SOURCE] = mat_compare_cell_label (_("34\u00a0bytes"), 0.f, "source-hint");
    gtk_widget_add_css_class (self->phase_cells[COL_SOURCE], "phase-title");
    for (guint s = 0; s < N_SLOTS; s++)
      {
        guint col = s == 0 ? COL_RAW_A : COL_RAW_B;
        GtkWidget *label = mat_compare_cell_label ("", 0.f, "phase-title");

        gtk_widget_add_css_class (label, s == 0 ? "side-a" : "side-b");
        gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
        gtk_label_set_width_chars (GTK_LABEL (label), 8);
        self->phase_labels[s] = GTK_LABEL (label);
        self->phase_cells[col] = label;
        self->phase_cells[col + 1] = NULL;
      }
    self->phase_copy[0] = mat_compare_copy_button ("←", "compare.copy-phase-to-a", 0,
                                       _("Copy B’s whole phase to A (one undo step)"));
    self->phase_copy[1] = mat_compare_copy_button ("→", "compare.copy-phase-to-b", 0,
                                       _("Copy A’s whole phase to B (one undo step)"));
    for (guint s = 0; s < N_SLOTS; s++)
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->phase_copy[s]), NULL);
    {
      GtkWidget *inner = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);

      gtk_widget_set_hexpand (inner, TRUE);
      gtk_widget_set_halign (inner, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (inner), self->phase_copy[0]);
      gtk_box_append (GTK_BOX (inner), self->phase_copy[1]);
      gtk_box_append (GTK_BOX (box), inner);
    }
    gtk_widget_add_css_class (box, "cell");
    gtk_widget_add_css_class (box, "copy-cell");
    gtk_widget_add_css_class (box, "phase-title");
    self->phase_cells[COL_COPY] = box;
    for (guint c = 0; c < N_COLUMNS; c++)
      if (self->phase_cells[c] != NULL)
        gtk_grid_attach (self->table, self->phase_cells[c], (int) c, y, c == COL_RAW_A || c == COL_RAW_B ? 2 : 1, 1);
    /* the value columns are spanned: mark them through the labels */
    self->phase_cells[COL_VALUE_A] = self->phase_cells[COL_RAW_A];
    self->phase_cells[COL_VALUE_B] = self->phase_cells[COL_RAW_B];
  }
  y++;

  for (guint g = 0; g < N_GROUPS; g++)
    {
      const Mat0GroupField *group = g < N_COLOUR_GROUPS ? mat0_fields_group ((Mat0ColourGroup) g) : NULL;
      g_autofree char *heading = NULL;
      GtkWidget *title;

      if (group == NULL)
        heading = g_strdup (_(mat0_fields_other_label ()));
      else if (!group->drawn)
        /* Translators: a colour group, then "stored, not drawn by the game" */
        heading = g_strdup_printf (_("%s — %s"), _(group->label), _(mat0_fields_not_drawn_note ()));
      else
        heading = g_strdup (_(group->label));
      title = mat_compare_cell_label (heading, 0.f, "group-title");
      if (group != NULL)
        mat_tooltip_set_text (title, _(group->meaning));
      gtk_grid_attach (self->table, title, COL_FIELD, y, 2, 1);
      for (guint s = 0; s < N_SLOTS; s++)
        {
          Slot *slot = &self->slots[s];
          GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

          gtk_widget_add_css_class (box, "cell");
          gtk_widget_add_css_class (box, "group-title");
          gtk_widget_add_css_class (box, s == 0 ? "side-a" : "side-b");
          if (group != NULL)
            {
              GtkWidget *area = gtk_drawing_area_new ();

              slot->swatch_info[g].view = self;
              slot->swatch_info[g].slot = s;
              slot->swatch_info[g].group = g;
              gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), 16);
              gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), 96);
              gtk_widget_set_hexpand (area, TRUE);
              gtk_widget_set_valign (area, GTK_ALIGN_CENTER);
              gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_swatch,
                                              &slot->swatch_info[g], NULL);
              mat_tooltip_set_text (area, _("The colour (left) and its alpha over a checkerboard (right)"));
              gtk_box_append (GTK_BOX (box), area);
              slot->swatches[g] = area;
            }
          gtk_grid_attach (self->table, box, s == 0 ? COL_RAW_A : COL_RAW_B, y, 2, 1);
        }
      {
        GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);

        gtk_widget_add_css_class (box, "cell");
        gtk_widget_add_css_class (box, "copy-cell");
        gtk_widget_add_css_class (box, "group-title");
        gtk_widget_set_halign (box, GTK_ALIGN_FILL);
        if (group != NULL)
          {
            GtkWidget *inner = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);

            self->group_copy[g][0] = mat_compare_copy_button ("←", "compare.copy-group-to-a", g,
                                                  _("Copy B’s colour (all four bytes) to A (one undo step)"));
            self->group_copy[g][1] = mat_compare_copy_button ("→", "compare.copy-group-to-b", g,
                                                  _("Copy A’s colour (all four bytes) to B (one undo step)"));
            gtk_widget_set_hexpand (inner, TRUE);
            gtk_widget_set_halign (inner, GTK_ALIGN_CENTER);
            gtk_box_append (GTK_BOX (inner), self->group_copy[g][0]);
            gtk_box_append (GTK_BOX (inner), self->group_copy[g][1]);
            gtk_box_append (GTK_BOX (box), inner);
          }
        gtk_grid_attach (self->table, box, COL_COPY, y, 1, 1);
      }
      y++;

      for (guint i = 0; i < (group != NULL ? 4 : G_N_ELEMENTS (other_rows)); i++)
        {
          guint row = group != NULL ? group->bytes[i] : other_rows[i];
          const Mat0ParamField *field = row < MAT0_N_PARAMS ? mat0_fields_param (row) : NULL;
          g_autofree char *source = NULL;
          g_autofree char *name = NULL;
          const char *tooltip;
          GtkWidget *stack, *box, *none;

          if (field == NULL)
            {
              name = g_strdup (_(mat0_fields_texture_label ()));
              tooltip = _(mat0_fields_texture_meaning ());
            }
          else
            {
              if (field->drawn)
                name = g_strdup (_(field->label));
              else
                /* Translators: a field the game stores but never draws */
                name = g_strdup_printf (_("%s (not drawn)"), _(field->label));
              tooltip = _(field->meaning);
            }
          self->cells[row][COL_FIELD] = mat_compare_cell_label (name, 0.f, field != NULL && !field->drawn ? "not-drawn" : NULL);
          if (row == MAT_COMPARE_ROW_TEXTURE)
            /* TRANSLATORS: where the texture name is stored and its runtime slot */
            source = g_strdup_printf (_("name → +%u"), row_offset (row));
          else
            source = g_strdup_printf ("p%u → +%u", row, row_offset (row));
          self->cells[row][COL_SOURCE] = mat_compare_cell_label (source, 0.f, "source-hint");

          for (guint s = 0; s < N_SLOTS; s++)
            {
              Slot *slot = &self->slots[s];
              guint raw_col = s == 0 ? COL_RAW_A : COL_RAW_B;

              slot->raw[row] = GTK_LABEL (mat_compare_cell_label ("", 1.f, s == 0 ? "side-a" : "side-b"));
              slot->values[row] = GTK_LABEL (mat_compare_cell_label ("", 0.f, "value-cell"));
              gtk_label_set_width_chars (slot->raw[row], 4);
              gtk_label_set_width_chars (slot->values[row], row == MAT_COMPARE_ROW_TEXTURE ? 12 : 8);
              gtk_label_set_ellipsize (slot->values[row], PANGO_ELLIPSIZE_END);
              gtk_widget_set_hexpand (GTK_WIDGET (slot->values[row]), TRUE);
              self->cells[row][raw_col] = GTK_WIDGET (slot->raw[row]);
              self->cells[row][raw_col + 1] = GTK_WIDGET (slot->values[row]);
            }

          stack = gtk_stack_new ();
          box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
          gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
          self->copy_buttons[row][0] = mat_compare_copy_button ("←", "compare.copy-to-a", row,
                                                    _("Copy B’s value to A (one undo step)"));
          self->copy_buttons[row][1] = mat_compare_copy_button ("→", "compare.copy-to-b", row,
                                                    _("Copy A’s value to B (one undo step)"));
          gtk_box_append (GTK_BOX (box), self->copy_buttons[row][0]);
          gtk_box_append (GTK_BOX (box), self->copy_buttons[row][1]);
          none = gtk_label_new ("");
          gtk_stack_add_named (GTK_STACK (stack), none, "none");
          gtk_stack_add_named (GTK_STACK (stack), box, "copy");
          gtk_stack_set_visible_child_name (GTK_STACK (stack), "none");
          gtk_widget_add_css_class (stack, "cell");
          gtk_widget_add_css_class (stack, "copy-cell");
          self->copy_stacks[row] = GTK_STACK (stack);
          self->cells[row][COL_COPY] = stack;

          for (guint c = 0; c < N_COLUMNS; c++)
            {
              mat_tooltip_set_text (self->cells[row][c], tooltip);
              gtk_grid_attach (self->table, self->cells[row][c], (int) c, y, 1, 1);
            }
          y++;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Slots                                                                */

static void
slot_rebuild_sources (Slot *slot)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GListModel *model = G_LIST_MODEL (slot->source_names);
  guint n_old = g_list_model_get_n_items (model);
  gboolean same;

  if (slot->core != NULL)
    {
      for (guint i = 0; i < slot->core->n_phases; i++)
        g_ptr_array_add (names, phase_title (&slot->core->phases[i], i));
      for (guint i = 0; i < slot->core->n_blocks; i++)
        g_ptr_array_add (names, block_title (&slot->core->blocks[i], i));
    }

  same = n_old == names->len;
  for (guint i = 0; same && i < n_old; i++)
    same = g_strcmp0 (gtk_string_list_get_string (slot->source_names, i),
                      g_ptr_array_index (names, i)) == 0;
  if (!same)
    {
      g_ptr_array_add (names, NULL);
      gtk_string_list_splice (slot->source_names, 0, n_old,
                              (const char *const *) names->pdata);
    }
  g_ptr_array_unref (names);
}

/* The material's state again: the copy, the runtime phases, the choices
 * clamped to what the material has now. */
static void
slot_reload (MatCompareView *self,
             Slot           *slot)
{
  g_clear_pointer (&slot->core, mat0_material_free);
  g_clear_pointer (&slot->runtime, g_free);

  if (slot->material != NULL)
    slot->core = mat_material_dup_core (slot->material);
  if (slot->core != NULL)
    {
      slot->runtime = g_new0 (PhaseRuntime, MAX (slot->core->n_phases, 1));
      phase_eval_expand_material (slot->core, slot->runtime);
      if (slot->block >= (int) slot->core->n_blocks)
        slot->block = (int) slot->core->n_blocks - 1;
      if (slot->core->n_phases == 0)
        slot->phase = 0;
      else if (slot->phase >= slot->core->n_phases)
        slot->phase = slot->core->n_phases - 1u;
    }

  self->syncing = TRUE;
  slot_rebuild_sources (slot);
  self->syncing = FALSE;
}

/* Shows the slot's choice in its controls and its preview. */
static void
slot_sync_widgets (MatCompareView *self,
                   Slot           *slot)
{
  GListModel *materials = G_LIST_MODEL (slot->materials);
  guint position = GTK_INVALID_LIST_POSITION;
  int lib = library_index (self, slot->library);
  gboolean animated = slot->block >= 0;

  self->syncing = TRUE;

  gtk_drop_down_set_selected (slot->library_dropdown,
                              lib >= 0 ? (guint) lib : GTK_INVALID_LIST_POSITION);

  if (gtk_filter_list_model_get_model (slot->materials) != G_LIST_MODEL (slot->library))
    gtk_filter_list_model_set_model (slot->materials,
                                     slot->library != NULL ? G_LIST_MODEL (slot->library) : NULL);
  if (slot->material != NULL)
    {
      guint n = g_list_model_get_n_items (materials);

      for (guint i = 0; i < n && position == GTK_INVALID_LIST_POSITION; i++)
        {
          g_autoptr(MatMaterial) item = g_list_model_get_item (materials, i);

          if (item == slot->material)
            position = i;
        }
    }
  gtk_drop_down_set_selected (slot->material_dropdown, position);

  if (slot->core != NULL && slot->core->n_phases > 0)
    gtk_drop_down_set_selected (slot->source_dropdown,
                                animated ? slot->core->n_phases + (guint) slot->block : slot->phase);
  else
    gtk_drop_down_set_selected (slot->source_dropdown, GTK_INVALID_LIST_POSITION);
  gtk_widget_set_sensitive (GTK_WIDGET (slot->source_dropdown), slot->core != NULL);

  gtk_adjustment_set_value (slot->offset_adjustment, slot->offset);
  gtk_widget_set_sensitive (GTK_WIDGET (slot->offset_spin), animated);
  gtk_widget_set_sensitive (slot->offset_title, animated);
  gtk_widget_set_sensitive (slot->offset_unit, animated);

  self->syncing = FALSE;

  mat_preview_set_material (slot->preview, slot->material);
  mat_preview_set_block (slot->preview, slot->block);
  mat_preview_set_phase (slot->preview, slot->phase);
  mat_preview_set_time_offset (slot->preview, slot->offset);
}

static void
slot_configure (MatCompareView *self,
                Slot           *slot,
                MatLibrary     *library,
                MatMaterial    *material,
                int             block,
                guint           phase,
                guint           offset)
{
  MatMaterial *old_material = slot->material;

  if (material != NULL)
    {
      library = mat_material_get_library (material);
      if (library == NULL)
        material = NULL;   /* deleted */
    }
  if (library != NULL && library_index (self, library) < 0)
    library_add (self, library, NULL, TRUE);
  if (library != NULL && material == NULL)
    material = first_material (library);

  if (old_material != NULL)
    g_object_ref (old_material);
  g_set_object (&slot->library, library);
  g_set_object (&slot->material, material);
  g_signal_group_set_target (slot->library_signals, library);
  g_signal_group_set_target (slot->material_signals, material);
  slot->block = MAX (block, -1);
  slot->phase = phase;
  slot->offset = offset;

  slot_reload (self, slot);
  slot_sync_widgets (self, slot);

  if (slot->id == MAT_COMPARE_SLOT_A && old_material != slot->material)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATERIAL]);
  g_clear_object (&old_material);
}

static void
slot_material_changed (Slot *slot)
{
  MatCompareView *self = slot->view;

  g_clear_pointer (&self->error, g_free);
  slot_reload (self, slot);
  slot_sync_widgets (self, slot);
  update_all (self);
}

static void
slot_library_items_changed (Slot *slot)
{
  MatCompareView *self = slot->view;

  if (slot->material != NULL && mat_material_get_library (slot->material) == slot->library)
    {
      /* still there; its position in the chooser may have moved */
      slot_sync_widgets (self, slot);
      return;
    }
  slot_configure (self, slot, slot->library, NULL, slot->block, 0, slot->offset);
  update_all (self);
}

static Slot *
slot_for_widget (MatCompareView *self,
                 gpointer        widget)
{
  for (guint s = 0; s < N_SLOTS; s++)
    {
      Slot *slot = &self->slots[s];

      if (widget == slot->library_dropdown || widget == slot->material_dropdown ||
          widget == slot->source_dropdown || widget == slot->offset_adjustment)
        return slot;
    }
  g_return_val_if_reached (NULL);
}

static void
on_library_selected (GtkDropDown    *dropdown,
                     GParamSpec     *pspec,
                     MatCompareView *self)
{
  Slot *slot = slot_for_widget (self, dropdown);
  guint selected = gtk_drop_down_get_selected (dropdown);
  MatLibrary *library;

  if (self->syncing || slot == NULL || selected >= self->libraries->len)
    return;
  library = g_ptr_array_index (self->libraries, selected);
  if (library == slot->library)
    return;
  g_clear_pointer (&self->error, g_free);
  slot_configure (self, slot, library, NULL, slot->block >= 0 ? 0 : -1, 0, slot->offset);
  update_all (self);
}

static void
on_material_selected (GtkDropDown    *dropdown,
                      GParamSpec     *pspec,
                      MatCompareView *self)
{
  Slot *slot = slot_for_widget (self, dropdown);
  MatMaterial *material;

  if (self->syncing || slot == NULL)
    return;
  material = gtk_drop_down_get_selected_item (dropdown);
  if (material == NULL || material == slot->material)
    return;
  g_clear_pointer (&self->error, g_free);
  /* keep the kind of choice: a block stays a block when there is one */
  slot_configure (self, slot, slot->library, material, slot->block, slot->phase, slot->offset);
  update_all (self);
}

static void
on_source_selected (GtkDropDown    *dropdown,
                    GParamSpec     *pspec,
                    MatCompareView *self)
{
  Slot *slot = slot_for_widget (self, dropdown);
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->syncing || slot == NULL || slot->core == NULL ||
      selected == GTK_INVALID_LIST_POSITION)
    return;
  g_clear_pointer (&self->error, g_free);
  if (selected < slot->core->n_phases)
    slot_configure (self, slot, slot->library, slot->material, -1, selected, slot->offset);
  else
    slot_configure (self, slot, slot->library, slot->material,
                    (int) (selected - slot->core->n_phases), slot->phase, slot->offset);
  update_all (self);
}

static void
on_offset_changed (GtkAdjustment  *adjustment,
                   MatCompareView *self)
{
  Slot *slot = slot_for_widget (self, adjustment);

  if (self->syncing || slot == NULL)
    return;
  slot->offset = (guint) gtk_adjustment_get_value (adjustment);
  update_all (self);
}

/* ------------------------------------------------------------------ */
/* Time                                                                 */

static void
set_time_internal (MatCompareView *self,
                   guint           time_ms)
{
  if (mat_playback_get_time (self->playback) == time_ms)
    update_time (self);
  else
    mat_playback_set_time (self->playback, time_ms);   /* on_playback_time updates */
}

static void
on_time_scale_changed (GtkAdjustment  *adjustment,
                       MatCompareView *self)
{
  if (self->syncing)
    return;
  set_time_internal (self, (guint) (gtk_adjustment_get_value (adjustment) + 0.5));
}

/* Runs after the previews' own handlers: they have drawn their random
 * offsets for this frame when the table is evaluated. */
static void
on_playback_time (MatCompareView *self)
{
  update_time (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME]);
}

static void
sync_play_button (MatCompareView *self)
{
  gboolean playing = mat_playback_get_playing (self->playback);

  gtk_button_set_icon_name (GTK_BUTTON (self->play_button),
                            playing ? "media-playback-pause-symbolic"
                                    : "media-playback-start-symbolic");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->play_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  playing ? _("Pause") : _("Play"), -1);
}

static void
on_playback_playing (MatCompareView *self)
{
  sync_play_button (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

/* ------------------------------------------------------------------ */
/* Actions                                                              */

static void
swap_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatCompareView *self = MAT_COMPARE_VIEW (widget);
  Slot *a = &self->slots[0], *b = &self->slots[1];
  g_autoptr(MatLibrary) lib_a = a->library ? g_object_ref (a->library) : NULL;
  g_autoptr(MatMaterial) mat_a = a->material ? g_object_ref (a->material) : NULL;
  int block_a = a->block;
  guint phase_a = a->phase, offset_a = a->offset;

  g_clear_pointer (&self->error, g_free);
  slot_configure (self, a, b->library, b->material, b->block, b->phase, b->offset);
  slot_configure (self, b, lib_a, mat_a, block_a, phase_a, offset_a);
  update_all (self);
}

/* The part of a copy between two static phases: the target is
 * editable and the phases are not one and the same. */
static gboolean
can_copy (MatCompareView *self,
          Slot           *from,
          Slot           *to)
{
  return slot_is_static (from) && slot_is_static (to) && !slots_show_same_phase (self) &&
         slot_editable (self, to) && mat_material_get_editable (from->material);
}

static void
copy_done (MatCompareView *self,
           Slot           *to,
           gboolean        ok,
           GError         *error)
{
  MatLibrary *library = to->material != NULL ? mat_material_get_library (to->material) : NULL;

  if (!ok)
    {
      g_free (self->error);
      self->error = g_strdup (error->message);
      update_summary (self);
      return;
    }
  if (library != NULL)
    g_signal_emit (self, signals[EDITED], 0, library);
}

static void
copy_field (MatCompareView *self,
            Slot           *from,
            Slot           *to,
            guint           row)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MatMaterial) target = NULL;
  gboolean ok;

  g_return_if_fail (row < MAT_COMPARE_N_ROWS);

  if (!can_copy (self, from, to) || !self->differs[row])
    return;

  g_clear_pointer (&self->error, g_free);
  target = g_object_ref (to->material);
  if (row == MAT_COMPARE_ROW_TEXTURE)
    ok = mat_material_copy_texture (target, to->phase, from->material, from->phase, &error);
  else
    ok = mat_material_copy_param (target, to->phase, from->material, from->phase, row, &error);
  copy_done (self, to, ok, error);
}

static void
copy_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatCompareView *self = MAT_COMPARE_VIEW (widget);
  gint32 row = g_variant_get_int32 (parameter);
  gboolean to_b = g_str_equal (action_name, "compare.copy-to-b");

  if (row < 0 || row >= MAT_COMPARE_N_ROWS)
    return;
  if (to_b)
    copy_field (self, &self->slots[0], &self->slots[1], (guint) row);
  else
    copy_field (self, &self->slots[1], &self->slots[0], (guint) row);
}

/* A colour group (all four bytes) between the two static phases. */
static void
copy_group_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  MatCompareView *self = MAT_COMPARE_VIEW (widget);
  gint32 group = g_variant_get_int32 (parameter);
  gboolean to_b = g_str_equal (action_name, "compare.copy-group-to-b");
  Slot *from = &self->slots[to_b ? 0 : 1], *to = &self->slots[to_b ? 1 : 0];
  g_autoptr(GError) error = NULL;
  g_autoptr(MatMaterial) target = NULL;
  gboolean ok;

  if (group < 0 || group >= N_COLOUR_GROUPS || !can_copy (self, from, to))
    return;
  g_clear_pointer (&self->error, g_free);
  target = g_object_ref (to->material);
  ok = mat_material_copy_group (target, to->phase, from->material, from->phase,
                                (Mat0ColourGroup) group, &error);
  copy_done (self, to, ok, error);
}

/* The whole phase (the 34 bytes) between the two static phases. */
static void
copy_phase_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  MatCompareView *self = MAT_COMPARE_VIEW (widget);
  gboolean to_b = g_str_equal (action_name, "compare.copy-phase-to-b");
  Slot *from = &self->slots[to_b ? 0 : 1], *to = &self->slots[to_b ? 1 : 0];
  g_autoptr(GError) error = NULL;
  g_autoptr(MatMaterial) target = NULL;
  gboolean ok;

  if (!can_copy (self, from, to))
    return;
  g_clear_pointer (&self->error, g_free);
  target = g_object_ref (to->material);
  ok = mat_material_copy_phase (target, to->phase, from->material, from->phase, &error);
  copy_done (self, to, ok, error);
}

static void
play_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatCompareView *self = MAT_COMPARE_VIEW (widget);

  mat_compare_view_set_playing (self, !mat_playback_get_playing (self->playback));
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
mat_compare_view_dispose (GObject *object)
{
  MatCompareView *self = MAT_COMPARE_VIEW (object);

  /* the choosers notify as they go: ignore them from here on */
  self->syncing = TRUE;
  if (self->playback != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->playback, self);
      mat_playback_set_playing (self->playback, FALSE);
      mat_playback_set_widget (self->playback, NULL);
    }
  for (guint s = 0; s < N_SLOTS; s++)
    {
      Slot *slot = &self->slots[s];

      if (slot->material_signals != NULL)
        g_signal_group_set_target (slot->material_signals, NULL);
      if (slot->library_signals != NULL)
        g_signal_group_set_target (slot->library_signals, NULL);
      g_clear_object (&slot->material_signals);
      g_clear_object (&slot->library_signals);
    }

  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_COMPARE_VIEW);

  for (guint s = 0; s < N_SLOTS; s++)
    {
      Slot *slot = &self->slots[s];

      g_clear_object (&slot->materials);
      g_clear_object (&slot->filter);
      g_clear_object (&slot->source_names);
      g_clear_object (&slot->material);
      g_clear_object (&slot->library);
    }
  g_clear_pointer (&self->libraries, g_ptr_array_unref);
  g_clear_pointer (&self->library_editable, g_array_unref);
  g_clear_pointer (&self->library_titles, g_ptr_array_unref);
  g_clear_object (&self->library_names);
  g_clear_object (&self->textures);

  G_OBJECT_CLASS (mat_compare_view_parent_class)->dispose (object);
}

static void
mat_compare_view_finalize (GObject *object)
{
  MatCompareView *self = MAT_COMPARE_VIEW (object);

  for (guint s = 0; s < N_SLOTS; s++)
    {
      g_clear_pointer (&self->slots[s].core, mat0_material_free);
      g_clear_pointer (&self->slots[s].runtime, g_free);
      g_clear_pointer (&self->slots[s].texture, g_free);
    }
  g_clear_pointer (&self->error, g_free);
  g_clear_object (&self->playback);

  G_OBJECT_CLASS (mat_compare_view_parent_class)->finalize (object);
}

static void
mat_compare_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  MatCompareView *self = MAT_COMPARE_VIEW (object);

  switch (prop_id)
    {
    case PROP_MATERIAL: g_value_set_object (value, self->slots[0].material); break;
    case PROP_TIME: g_value_set_uint (value, mat_playback_get_time (self->playback)); break;
    case PROP_PLAYING: g_value_set_boolean (value, mat_playback_get_playing (self->playback)); break;
    case PROP_TEXTURES: g_value_set_object (value, self->textures); break;
    case PROP_N_DIFFERENCES: g_value_set_uint (value, self->n_differences); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_compare_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  MatCompareView *self = MAT_COMPARE_VIEW (object);

  switch (prop_id)
    {
    case PROP_MATERIAL: mat_compare_view_set_material (self, g_value_get_object (value)); break;
    case PROP_TIME: mat_compare_view_set_time (self, g_value_get_uint (value)); break;
    case PROP_PLAYING: mat_compare_view_set_playing (self, g_value_get_boolean (value)); break;
    case PROP_TEXTURES: mat_compare_view_set_textures (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

#define BIND_SLOT(name, s, field) \
  gtk_widget_class_bind_template_child_full (widget_class, name, FALSE, \
                                             G_STRUCT_OFFSET (MatCompareView, slots) + \
                                             (s) * (gssize) sizeof (Slot) + \
                                             G_STRUCT_OFFSET (Slot, field))

static void
mat_compare_view_class_init (MatCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char *const suffix[N_SLOTS] = { "a", "b" };

  object_class->dispose = mat_compare_view_dispose;
  object_class->finalize = mat_compare_view_finalize;
  object_class->get_property = mat_compare_view_get_property;
  object_class->set_property = mat_compare_view_set_property;

  properties[PROP_MATERIAL] =
    g_param_spec_object ("material", NULL, NULL, MAT_TYPE_MATERIAL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME] =
    g_param_spec_uint ("time", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PLAYING] =
    g_param_spec_boolean ("playing", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXTURES] =
    g_param_spec_object ("textures", NULL, NULL, MAT_TYPE_TEXTURE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_DIFFERENCES] =
    g_param_spec_uint ("n-differences", NULL, NULL, 0, MAT_COMPARE_N_ROWS, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (MAT_TYPE_PREVIEW);
  g_type_ensure (MAT_TYPE_MATERIAL_DIFF);

  /**
   * MatCompareView::edited:
   * @library: the library a copy changed
   */
  signals[EDITED] =
    g_signal_new ("edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, MAT_TYPE_LIBRARY);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "mat-compare-view.ui");
  gtk_widget_class_set_css_name (widget_class, "matcompareview");

  gtk_widget_class_bind_template_child (widget_class, MatCompareView, paned);
  gtk_widget_class_bind_template_child (widget_class, MatCompareView, play_button);
  gtk_widget_class_bind_template_child (widget_class, MatCompareView, time_scale);
  gtk_widget_class_bind_template_child (widget_class, MatCompareView, time_adjustment);
  gtk_widget_class_bind_template_child (widget_class, MatCompareView, time_label);
  gtk_widget_class_bind_template_child (widget_class, MatCompareView, swap_button);
  gtk_widget_class_bind_template_child (widget_class, MatCompareView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, MatCompareView, table);
  gtk_widget_class_bind_template_child (widget_class, MatCompareView, details_stack);
  gtk_widget_class_bind_template_child (widget_class, MatCompareView, details_switcher);
  gtk_widget_class_bind_template_child (widget_class, MatCompareView, material_diff);

  for (guint s = 0; s < N_SLOTS; s++)
    {
      g_autofree char *library = g_strconcat ("library_", suffix[s], NULL);
      g_autofree char *material = g_strconcat ("material_", suffix[s], NULL);
      g_autofree char *source = g_strconcat ("source_", suffix[s], NULL);
      g_autofree char *offset = g_strconcat ("offset_", suffix[s], NULL);
      g_autofree char *adjustment = g_strconcat ("offset_adjustment_", suffix[s], NULL);
      g_autofree char *title = g_strconcat ("offset_title_", suffix[s], NULL);
      g_autofree char *unit = g_strconcat ("offset_unit_", suffix[s], NULL);
      g_autofree char *preview = g_strconcat ("preview_", suffix[s], NULL);
      g_autofree char *status = g_strconcat ("status_", suffix[s], NULL);

      BIND_SLOT (library, s, library_dropdown);
      BIND_SLOT (material, s, material_dropdown);
      BIND_SLOT (source, s, source_dropdown);
      BIND_SLOT (offset, s, offset_spin);
      BIND_SLOT (adjustment, s, offset_adjustment);
      BIND_SLOT (title, s, offset_title);
      BIND_SLOT (unit, s, offset_unit);
      BIND_SLOT (preview, s, preview);
      BIND_SLOT (status, s, status_label);
    }

  gtk_widget_class_install_action (widget_class, "compare.swap", NULL, swap_activated);
  gtk_widget_class_install_action (widget_class, "compare.copy-to-b", "i", copy_activated);
  gtk_widget_class_install_action (widget_class, "compare.copy-to-a", "i", copy_activated);
  gtk_widget_class_install_action (widget_class, "compare.copy-group-to-b", "i", copy_group_activated);
  gtk_widget_class_install_action (widget_class, "compare.copy-group-to-a", "i", copy_group_activated);
  gtk_widget_class_install_action (widget_class, "compare.copy-phase-to-b", NULL, copy_phase_activated);
  gtk_widget_class_install_action (widget_class, "compare.copy-phase-to-a", NULL, copy_phase_activated);
  gtk_widget_class_install_action (widget_class, "compare.play", NULL, play_activated);
}

static void
on_material_diff_edited (MatCompareView *self,
                         MatLibrary     *library)
{
  g_signal_emit (self, signals[EDITED], 0, library);
}

static void
mat_compare_view_init (MatCompareView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  mat_style_ensure ();

  /* one clock for both sides, going round the longest period; the table
   * follows it after the previews (G_CONNECT_AFTER) */
  self->playback = mat_playback_new ();
  mat_playback_set_wrap (self->playback, TRUE);
  mat_playback_set_widget (self->playback, GTK_WIDGET (self));
  g_signal_connect_object (self->playback, "notify::time", G_CALLBACK (on_playback_time), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (self->playback, "notify::playing", G_CALLBACK (on_playback_playing),
                           self, G_CONNECT_SWAPPED);

  self->libraries = g_ptr_array_new_with_free_func (g_object_unref);
  self->library_editable = g_array_new (FALSE, FALSE, sizeof (gboolean));
  self->library_titles = g_ptr_array_new_with_free_func (g_free);
  self->library_names = gtk_string_list_new (NULL);
  g_signal_connect_object (self->material_diff, "edited", G_CALLBACK (on_material_diff_edited),
                           self, G_CONNECT_SWAPPED);

  for (guint s = 0; s < N_SLOTS; s++)
    {
      Slot *slot = &self->slots[s];
      GtkExpression *expression;

      slot->view = self;
      slot->id = s;
      slot->block = -1;

      slot->filter = gtk_custom_filter_new (is_mat0, NULL, NULL);
      slot->materials = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (slot->filter)));
      slot->source_names = gtk_string_list_new (NULL);

      gtk_drop_down_set_model (slot->library_dropdown, G_LIST_MODEL (self->library_names));
      gtk_drop_down_set_model (slot->material_dropdown, G_LIST_MODEL (slot->materials));
      expression = gtk_property_expression_new (MAT_TYPE_MATERIAL, NULL, "name");
      gtk_drop_down_set_expression (slot->material_dropdown, expression);
      gtk_expression_unref (expression);
      gtk_drop_down_set_model (slot->source_dropdown, G_LIST_MODEL (slot->source_names));

      g_signal_connect (slot->library_dropdown, "notify::selected",
                        G_CALLBACK (on_library_selected), self);
      g_signal_connect (slot->material_dropdown, "notify::selected",
                        G_CALLBACK (on_material_selected), self);
      g_signal_connect (slot->source_dropdown, "notify::selected",
                        G_CALLBACK (on_source_selected), self);
      g_signal_connect (slot->offset_adjustment, "value-changed",
                        G_CALLBACK (on_offset_changed), self);

      slot->material_signals = g_signal_group_new (MAT_TYPE_MATERIAL);
      g_signal_group_connect_swapped (slot->material_signals, "changed",
                                      G_CALLBACK (slot_material_changed), slot);
      slot->library_signals = g_signal_group_new (MAT_TYPE_LIBRARY);
      g_signal_group_connect_swapped (slot->library_signals, "items-changed",
                                      G_CALLBACK (slot_library_items_changed), slot);

      mat_preview_set_show_controls (slot->preview, FALSE);
      mat_preview_set_playback (slot->preview, self->playback);
    }

  g_signal_connect (self->time_adjustment, "value-changed",
                    G_CALLBACK (on_time_scale_changed), self);

  build_table (self);
  gtk_paned_set_position (self->paned, 300);
  sync_play_button (self);
  update_all (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

GtkWidget *
mat_compare_view_new (void)
{
  return g_object_new (MAT_TYPE_COMPARE_VIEW, NULL);
}

void
mat_compare_view_add_library (MatCompareView *self,
                              MatLibrary     *library,
                              const char     *title)
{
  g_return_if_fail (MAT_IS_COMPARE_VIEW (self));
  g_return_if_fail (MAT_IS_LIBRARY (library));

  library_add (self, library, title, TRUE);
  /* the selection in the choosers may have moved with the list */
  for (guint s = 0; s < N_SLOTS; s++)
    slot_sync_widgets (self, &self->slots[s]);
  update_all (self);
}

void
mat_compare_view_add_reference_library (MatCompareView *self,
                                        MatLibrary     *library,
                                        const char     *title)
{
  g_return_if_fail (MAT_IS_COMPARE_VIEW (self));
  g_return_if_fail (MAT_IS_LIBRARY (library));

  library_add (self, library, title, FALSE);
  for (guint s = 0; s < N_SLOTS; s++)
    slot_sync_widgets (self, &self->slots[s]);
  update_all (self);
}

gboolean
mat_compare_view_get_library_editable (MatCompareView *self,
                                       MatLibrary     *library)
{
  int index;

  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), FALSE);
  g_return_val_if_fail (MAT_IS_LIBRARY (library), FALSE);

  index = library_index (self, library);
  return index >= 0 && g_array_index (self->library_editable, gboolean, index);
}

MatMaterialDiff *
mat_compare_view_get_material_diff (MatCompareView *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), NULL);
  return self->material_diff;
}

const char *
mat_compare_view_get_page (MatCompareView *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), NULL);
  return gtk_stack_get_visible_child_name (self->details_stack);
}

void
mat_compare_view_set_page (MatCompareView *self,
                           const char     *page)
{
  g_return_if_fail (MAT_IS_COMPARE_VIEW (self));
  g_return_if_fail (g_strcmp0 (page, "fields") == 0 || g_strcmp0 (page, "material") == 0);

  gtk_stack_set_visible_child_name (self->details_stack, page);
}

void
mat_compare_view_remove_library (MatCompareView *self,
                                 MatLibrary     *library)
{
  int index;
  MatLibrary *fallback;

  g_return_if_fail (MAT_IS_COMPARE_VIEW (self));
  g_return_if_fail (MAT_IS_LIBRARY (library));

  index = library_index (self, library);
  if (index < 0)
    return;

  self->syncing = TRUE;
  g_signal_handlers_disconnect_by_data (library, self);
  g_ptr_array_remove_index (self->libraries, (guint) index);
  g_array_remove_index (self->library_editable, (guint) index);
  g_free (g_ptr_array_steal_index (self->library_titles, (guint) index));
  gtk_string_list_remove (self->library_names, (guint) index);
  /* a library that was told apart from it may need its folders no more */
  update_library_names (self);
  self->syncing = FALSE;

  fallback = self->libraries->len > 0 ? g_ptr_array_index (self->libraries, 0) : NULL;
  for (guint s = 0; s < N_SLOTS; s++)
    {
      Slot *slot = &self->slots[s];

      if (slot->library == library)
        slot_configure (self, slot, fallback, NULL, -1, 0, slot->offset);
      else
        slot_sync_widgets (self, slot);
    }
  update_all (self);
}

guint
mat_compare_view_get_n_libraries (MatCompareView *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), 0);
  return self->libraries->len;
}

MatMaterial *
mat_compare_view_get_material (MatCompareView *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), NULL);
  return self->slots[0].material;
}

void
mat_compare_view_set_material (MatCompareView *self,
                               MatMaterial    *material)
{
  MatLibrary *library;
  guint n_phases;

  g_return_if_fail (MAT_IS_COMPARE_VIEW (self));
  g_return_if_fail (material == NULL || MAT_IS_MATERIAL (material));

  g_clear_pointer (&self->error, g_free);
  if (material == NULL)
    {
      slot_configure (self, &self->slots[0], NULL, NULL, -1, 0, 0);
      slot_configure (self, &self->slots[1], NULL, NULL, -1, 0, 0);
      update_all (self);
      return;
    }

  library = mat_material_get_library (material);
  n_phases = mat_material_get_n_phases (material);
  slot_configure (self, &self->slots[0], library, material, -1, 0, 0);
  slot_configure (self, &self->slots[1], library, material, -1, n_phases > 1 ? 1 : 0, 0);
  update_all (self);
}

void
mat_compare_view_set_slot (MatCompareView *self,
                           MatCompareSlot  slot,
                           MatMaterial    *material,
                           int             block,
                           guint           phase,
                           guint           offset_ms)
{
  g_return_if_fail (MAT_IS_COMPARE_VIEW (self));
  g_return_if_fail (slot <= MAT_COMPARE_SLOT_B);
  g_return_if_fail (material == NULL || MAT_IS_MATERIAL (material));

  g_clear_pointer (&self->error, g_free);
  slot_configure (self, &self->slots[slot],
                  material != NULL ? mat_material_get_library (material) : self->slots[slot].library,
                  material, block, phase, offset_ms);
  update_all (self);
}

MatLibrary *
mat_compare_view_get_slot_library (MatCompareView *self,
                                   MatCompareSlot  slot)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), NULL);
  g_return_val_if_fail (slot <= MAT_COMPARE_SLOT_B, NULL);
  return self->slots[slot].library;
}

MatMaterial *
mat_compare_view_get_slot_material (MatCompareView *self,
                                    MatCompareSlot  slot)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), NULL);
  g_return_val_if_fail (slot <= MAT_COMPARE_SLOT_B, NULL);
  return self->slots[slot].material;
}

int
mat_compare_view_get_slot_block (MatCompareView *self,
                                 MatCompareSlot  slot)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), -1);
  g_return_val_if_fail (slot <= MAT_COMPARE_SLOT_B, -1);
  return self->slots[slot].block;
}

guint
mat_compare_view_get_slot_phase (MatCompareView *self,
                                 MatCompareSlot  slot)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), 0);
  g_return_val_if_fail (slot <= MAT_COMPARE_SLOT_B, 0);
  return self->slots[slot].phase;
}

guint
mat_compare_view_get_slot_offset (MatCompareView *self,
                                  MatCompareSlot  slot)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), 0);
  g_return_val_if_fail (slot <= MAT_COMPARE_SLOT_B, 0);
  return self->slots[slot].offset;
}

gboolean
mat_compare_view_get_slot_value (MatCompareView *self,
                                 MatCompareSlot  slot,
                                 PhaseRuntime   *value)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), FALSE);
  g_return_val_if_fail (slot <= MAT_COMPARE_SLOT_B, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (!self->slots[slot].has_value)
    return FALSE;
  *value = self->slots[slot].value;
  return TRUE;
}

MatPreview *
mat_compare_view_get_preview (MatCompareView *self,
                              MatCompareSlot  slot)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), NULL);
  g_return_val_if_fail (slot <= MAT_COMPARE_SLOT_B, NULL);
  return self->slots[slot].preview;
}

guint
mat_compare_view_get_time (MatCompareView *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), 0);
  return mat_playback_get_time (self->playback);
}

void
mat_compare_view_set_time (MatCompareView *self,
                           guint           time_ms)
{
  g_return_if_fail (MAT_IS_COMPARE_VIEW (self));

  set_time_internal (self, time_ms);
}

gboolean
mat_compare_view_get_playing (MatCompareView *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), FALSE);
  return mat_playback_get_playing (self->playback);
}

void
mat_compare_view_set_playing (MatCompareView *self,
                              gboolean        playing)
{
  g_return_if_fail (MAT_IS_COMPARE_VIEW (self));

  mat_playback_set_playing (self->playback, playing && shared_span (self) > 0);
}

MatTextureLibrary *
mat_compare_view_get_textures (MatCompareView *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), NULL);
  return self->textures;
}

void
mat_compare_view_set_textures (MatCompareView    *self,
                               MatTextureLibrary *textures)
{
  g_return_if_fail (MAT_IS_COMPARE_VIEW (self));
  g_return_if_fail (textures == NULL || MAT_IS_TEXTURE_LIBRARY (textures));

  if (!g_set_object (&self->textures, textures))
    return;
  /* each preview follows the library's edits itself and lets go of the
   * one it showed before (a disposed view has no previews left) */
  for (guint s = 0; s < N_SLOTS; s++)
    if (self->slots[s].preview != NULL)
      mat_preview_set_textures (self->slots[s].preview, textures);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURES]);
}

gboolean
mat_compare_view_get_row_differs (MatCompareView *self,
                                  guint           row)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), FALSE);
  g_return_val_if_fail (row < MAT_COMPARE_N_ROWS, FALSE);
  return self->differs[row];
}

guint
mat_compare_view_get_n_differences (MatCompareView *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), 0);
  return self->n_differences;
}

const char *
mat_compare_view_get_cell_text (MatCompareView *self,
                                MatCompareSlot  slot,
                                guint           row,
                                const char     *column)
{
  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), "");
  g_return_val_if_fail (slot <= MAT_COMPARE_SLOT_B, "");
  g_return_val_if_fail (row < MAT_COMPARE_N_ROWS, "");
  g_return_val_if_fail (column != NULL, "");

  if (g_str_equal (column, "raw"))
    return gtk_label_get_text (self->slots[slot].raw[row]);
  return gtk_label_get_text (self->slots[slot].values[row]);
}

GtkWidget *
mat_compare_view_get_test_widget (MatCompareView *self,
                                  const char     *name)
{
  static const char *const suffix[N_SLOTS] = { "-a", "-b" };

  g_return_val_if_fail (MAT_IS_COMPARE_VIEW (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint s = 0; s < N_SLOTS; s++)
    {
      Slot *slot = &self->slots[s];

      if (!g_str_has_suffix (name, suffix[s]))
        continue;
      if (g_str_has_prefix (name, "library-"))
        return GTK_WIDGET (slot->library_dropdown);
      if (g_str_has_prefix (name, "material-"))
        return GTK_WIDGET (slot->material_dropdown);
      if (g_str_has_prefix (name, "source-"))
        return GTK_WIDGET (slot->source_dropdown);
      if (g_str_has_prefix (name, "offset-"))
        return GTK_WIDGET (slot->offset_spin);
      if (g_str_has_prefix (name, "status-"))
        return GTK_WIDGET (slot->status_label);
    }
  if (g_str_equal (name, "play-button"))
    return self->play_button;
  if (g_str_equal (name, "time-scale"))
    return GTK_WIDGET (self->time_scale);
  if (g_str_equal (name, "time-label"))
    return GTK_WIDGET (self->time_label);
  if (g_str_equal (name, "swap-button"))
    return self->swap_button;
  if (g_str_equal (name, "summary-label"))
    return GTK_WIDGET (self->summary_label);
  if (g_str_equal (name, "table"))
    return GTK_WIDGET (self->table);
  if (g_str_equal (name, "details-switcher"))
    return self->details_switcher;
  if (g_str_equal (name, "phase-copy-a"))
    return self->phase_copy[0];
  if (g_str_equal (name, "phase-copy-b"))
    return self->phase_copy[1];
  if (g_str_has_prefix (name, "row-"))
    {
      guint64 row;

      if (g_ascii_string_to_unsigned (name + 4, 10, 0, MAT_COMPARE_N_ROWS - 1, &row, NULL))
        return self->cells[row][COL_FIELD];
    }
  return NULL;
}
