/* mat-block-editor.c - the animation blocks of a material: list, header, keys
 *
 * A drop-down lists the blocks with add / duplicate / delete (at most
 * MAT0_MAX_BLOCKS, the engine's limit); for the selected block the mode,
 * the interpolation bits as labelled toggles, the unknown header bits
 * (kept), headerRaw in hex, the period (the last key's time) and the
 * block's MatTimeline. The names of modes and bits come from the one
 * field table (mat0-fields.h). Every change is one call of the model (one
 * undo step); the widget follows the model, so undo and redo show up here
 * as they happen.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat0.h"
#include "mat0-fields.h"
#include "mat-block-editor-private.h"
#include "mat-library.h"
#include "mat-model-error.h"
#include "mat-style.h"
#include "mat-tooltip.h"

#define N_INTERP_BITS MAT0_N_INTERP_BITS

struct _MatBlockEditor
{
  GtkWidget       parent_instance;

  MatMaterial    *material;
  MatBatch       *batch;   /* the others selected: edits go to them too */
  GSignalGroup   *material_signals;
  GSignalGroup   *blocks_signals;
  MatAnimBlock   *block;
  GSignalGroup   *block_signals;
  int             selected;
  gboolean        syncing;

  GtkStringList  *block_names;
  GtkStringList  *mode_names;
  guint           mode_values[8];
  guint           n_modes;
  guint           seen_unknown;   /* bit n: mode n (4..7) was shown */

  /* template */
  GtkStack       *stack;
  GtkLabel       *readonly_label;
  GtkBox         *block_bar;
  GtkDropDown    *block_dropdown;
  GtkButton      *add_button;
  GtkLabel       *limit_label;
  GtkLabel       *error_label;
  GtkStack       *block_stack;
  GtkListBox     *settings_list;
  GtkLabel       *mode_raw;
  GtkDropDown    *mode_dropdown;
  GtkLabel       *interp_raw;
  GtkFlowBox     *interp_box;
  GtkLabel       *unknown_bits;
  GtkLabel       *header_raw;
  GtkLabel       *period_label;
  GtkScrolledWindow *timeline_scroller;
  MatTimeline    *timeline;
  GtkLabel       *details_label;

  GtkToggleButton *interp[N_INTERP_BITS];
};

G_DEFINE_FINAL_TYPE (MatBlockEditor, mat_block_editor, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MATERIAL,
  PROP_SELECTED_BLOCK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];



static MatHistory *
history (MatBlockEditor *self)
{
  MatLibrary *library = self->material != NULL ? mat_material_get_library (self->material) : NULL;

  return library != NULL ? mat_library_get_history (library) : NULL;
}

static guint
n_blocks (MatBlockEditor *self)
{
  /* the list itself: it is current inside its own items-changed */
  return self->material != NULL
    ? g_list_model_get_n_items (mat_material_get_blocks (self->material)) : 0;
}

static MatAnimBlock *
block_at (MatBlockEditor *self,
          guint           i)
{
  MatAnimBlock *block;

  if (self->material == NULL || i >= n_blocks (self))
    return NULL;
  block = g_list_model_get_item (mat_material_get_blocks (self->material), i);
  if (block != NULL)
    g_object_unref (block);   /* the material holds it */
  return block;
}

static gboolean
editable (MatBlockEditor *self)
{
  return self->material != NULL && mat_material_get_editable (self->material);
}

static void
show_error (MatBlockEditor *self,
            const GError   *error)
{
  if (error == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
      return;
    }
  gtk_label_set_text (self->error_label, error->message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
}

/* Returns: (transfer full): the mode's name from the field table; an
 * unknown one with its number. */
static char *
mode_name (guint mode)
{
  const Mat0ModeField *field = mat0_fields_mode (mode);

  if (field->known)
    return g_strdup (_(field->label));
  /* TRANSLATORS: an unknown playback mode and its number, "Unknown (5)" */
  return g_strdup_printf (C_("mode with its number", "%s (%u)"), _(field->label), mode);
}

/* Returns: (transfer full): one line of the block list. */
static char *
block_title (MatAnimBlock *block,
             guint         index)
{
  g_autofree char *mode = mode_name (mat_anim_block_get_mode (block));
  guint n = mat_anim_block_get_n_keys (block);

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Block %u — %s · %u key · %u ms",
                                       "Block %u — %s · %u keys · %u ms", n),
                          index, mode, n, mat_anim_block_get_period (block));
}

/* ---- model -> widgets -------------------------------------------------- */

static void
sync_actions (MatBlockEditor *self)
{
  guint n = n_blocks (self);
  gboolean can_edit = editable (self);
  gboolean full = n >= MAT0_MAX_BLOCKS;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "block.add", can_edit && !full);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "block.duplicate",
                                 can_edit && !full && self->block != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "block.remove",
                                 can_edit && self->block != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->limit_label), full);
  gtk_widget_set_visible (GTK_WIDGET (self->readonly_label),
                          self->material != NULL && !can_edit);
}

static void
rebuild_mode_list (MatBlockEditor *self)
{
  const char *names[9] = { NULL };
  char *labels[8] = { NULL };
  guint mode = self->block != NULL ? mat_anim_block_get_mode (self->block) : 0;
  guint n = 0;
  guint selected = 0;

  if (mode >= 4)
    self->seen_unknown |= 1u << mode;
  for (guint m = 0; m < 8; m++)
    {
      if (m >= 4 && !(self->seen_unknown & (1u << m)))
        continue;
      labels[m] = mode_name (m);
      names[n] = labels[m];
      if (m == mode)
        selected = n;
      self->mode_values[n++] = m;
    }
  self->n_modes = n;

  self->syncing = TRUE;
  gtk_string_list_splice (self->mode_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->mode_names)), names);
  gtk_drop_down_set_selected (self->mode_dropdown, selected);
  self->syncing = FALSE;

  for (guint m = 0; m < 8; m++)
    g_free (labels[m]);
}

static void sync_differs (MatBlockEditor *self);

static void
sync_header (MatBlockEditor *self)
{
  guint32 raw, mask, high;
  guint mode;
  g_autofree char *hex = NULL;
  g_autofree char *mode_text = NULL;
  g_autofree char *interp_text = NULL;
  g_autofree char *high_text = NULL;

  if (self->block == NULL)
    return;
  raw = mat_anim_block_get_header_raw (self->block);
  mode = raw & 7u;
  mask = raw >> 3;
  high = raw >> 8;

  rebuild_mode_list (self);
  mode_text = g_strdup_printf (_("mode = header & 7 = %u. %s"), mode,
                               _(mat0_fields_mode (mode)->meaning));
  gtk_label_set_text (self->mode_raw, mode_text);

  interp_text = g_strdup_printf (_("Interpolation mask = header >> 3 = 0x%02X: from one key’s phase "
                                   "to the next the engine blends the fields switched on here; the "
                                   "others jump at each key."),
                                 mask);
  gtk_label_set_text (self->interp_raw, interp_text);

  self->syncing = TRUE;
  for (guint i = 0; i < N_INTERP_BITS; i++)
    gtk_toggle_button_set_active (self->interp[i], (mask & mat0_fields_interp (i)->mask) != 0);
  self->syncing = FALSE;

  hex = g_strdup_printf ("0x%08X", raw);
  gtk_label_set_text (self->header_raw, hex);
  high_text = high != 0
    ? g_strdup_printf (_("headerRaw as stored. Unknown bits (header >> 8): 0x%X, kept as stored"), high)
    : g_strdup (_("headerRaw as stored. Unknown bits (header >> 8): none"));
  gtk_label_set_text (self->unknown_bits, high_text);
  sync_differs (self);
}

static void
sync_period (MatBlockEditor *self)
{
  g_autofree char *text = NULL;
  guint n;

  if (self->block == NULL)
    return;
  n = mat_anim_block_get_n_keys (self->block);
  if (n > 0 && mat_anim_block_get_period (self->block) == 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "period 0 ms: never animates · %u key",
                                         "period 0 ms: never animates · %u keys", n), n);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "period %u ms · %u key",
                                         "period %u ms · %u keys", n),
                            mat_anim_block_get_period (self->block), n);
  gtk_label_set_text (self->period_label, text);
  gtk_widget_remove_css_class (GTK_WIDGET (self->period_label), "error");
  if (n > 0 && mat_anim_block_get_period (self->block) == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->period_label), "error");
}

static void
sync_block_names (MatBlockEditor *self)
{
  guint n = n_blocks (self);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint old = g_list_model_get_n_items (G_LIST_MODEL (self->block_names));

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (names, block_title (block_at (self, i), i));
  g_ptr_array_add (names, NULL);

  /* replace only what changed, so the open popup does not jump */
  self->syncing = TRUE;
  if (old != n)
    gtk_string_list_splice (self->block_names, 0, old, (const char *const *) names->pdata);
  else
    for (guint i = 0; i < n; i++)
      if (g_strcmp0 (gtk_string_list_get_string (self->block_names, i), names->pdata[i]) != 0)
        {
          const char *one[2] = { names->pdata[i], NULL };

          gtk_string_list_splice (self->block_names, i, 1, one);
        }
  gtk_drop_down_set_selected (self->block_dropdown,
                              self->selected >= 0 ? (guint) self->selected : GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;
}

/* Shows block @index (clamped; -1 when there is none). */
static void
show_block (MatBlockEditor *self,
            int             index)
{
  guint n = n_blocks (self);
  MatAnimBlock *block;
  int old = self->selected;

  if (n == 0)
    index = -1;
  else
    index = CLAMP (index, 0, (int) n - 1);
  block = index >= 0 ? block_at (self, index) : NULL;

  self->selected = index;
  if (block != self->block)
    {
      self->seen_unknown = 0;
      g_set_object (&self->block, block);
      g_signal_group_set_target (self->block_signals, block);
      mat_timeline_set_block (self->timeline, block);
    }

  sync_block_names (self);
  gtk_stack_set_visible_child_name (self->block_stack, block != NULL ? "block" : "none");
  sync_header (self);
  sync_period (self);
  sync_actions (self);

  if (old != self->selected)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_BLOCK]);
}

static void
sync_all (MatBlockEditor *self)
{
  gtk_stack_set_visible_child_name (self->stack, self->material != NULL ? "content" : "empty");
  gtk_widget_set_sensitive (GTK_WIDGET (self->block_stack), editable (self));
  show_block (self, self->selected < 0 ? 0 : self->selected);
}

static void
on_blocks_changed (GListModel     *model,
                   guint           position,
                   guint           removed,
                   guint           added,
                   MatBlockEditor *self)
{
  /* keep showing the same block object when it is still there */
  int index = self->selected;

  if (self->block != NULL)
    {
      guint n = g_list_model_get_n_items (model);

      for (guint i = 0; i < n; i++)
        if (block_at (self, i) == self->block)
          {
            index = i;
            break;
          }
    }
  show_block (self, index < 0 ? 0 : index);
}

static void
on_material_changed (MatBlockEditor *self)
{
  sync_block_names (self);
  sync_period (self);
}

/* ---- widgets -> model -------------------------------------------------- */

static void
on_block_selected (GtkDropDown    *dropdown,
                   GParamSpec     *pspec,
                   MatBlockEditor *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;
  show_block (self, selected);
}

/* Several materials selected: where their blocks differ from the one
 * shown (its mode, its interpolation bits, its keys, the blocks). */
static gboolean
batch_active (MatBlockEditor *self)
{
  return self->batch != NULL && self->block != NULL &&
         mat_batch_get_leader (self->batch) == self->material;
}

static void
mark (GtkWidget *widget,
      gboolean   differs)
{
  if (differs)
    gtk_widget_add_css_class (widget, "differs");
  else
    gtk_widget_remove_css_class (widget, "differs");
}

static void
sync_differs (MatBlockEditor *self)
{
  gboolean active = batch_active (self);
  guint index = self->block != NULL ? mat_anim_block_get_index (self->block) : 0;

  mark (GTK_WIDGET (self->mode_dropdown),
        active && mat_batch_differs (self->batch, &(MatApply) { .kind = MAT_APPLY_MODE, .index = index }));
  for (guint i = 0; i < N_INTERP_BITS; i++)
    mark (GTK_WIDGET (self->interp[i]),
          active && mat_batch_differs (self->batch,
                                       &(MatApply) { .kind = MAT_APPLY_INTERP, .index = index,
                                                     .mask = mat0_fields_interp (i)->mask }));
  mark (GTK_WIDGET (self->timeline_scroller), active && mat_batch_keys_differ (self->batch, index));
  mark (GTK_WIDGET (self->block_dropdown),
        self->batch != NULL && mat_batch_get_leader (self->batch) == self->material &&
        mat_batch_block_count_differs (self->batch));
}

/* The leader's edit (made by @ok) and the same for the others: one step. */
static void
batch_begin (MatBlockEditor *self)
{
  MatLibrary *library = self->material != NULL ? mat_material_get_library (self->material) : NULL;

  if (library != NULL)
    mat_history_begin_group (mat_library_get_history (library), NULL);
}

static gboolean
batch_end (MatBlockEditor  *self,
           gboolean         ok,
           const MatApply  *what,
           GError         **error)
{
  MatLibrary *library = self->material != NULL ? mat_material_get_library (self->material) : NULL;

  if (ok && batch_active (self))
    ok = mat_batch_apply (self->batch, what, error);
  if (library != NULL)
    mat_history_end_group (mat_library_get_history (library));
  return ok;
}

static void
on_mode_selected (GtkDropDown    *dropdown,
                  GParamSpec     *pspec,
                  MatBlockEditor *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);
  g_autoptr(GError) error = NULL;
  MatApply what = { .kind = MAT_APPLY_MODE };
  gboolean ok;

  if (self->syncing || self->block == NULL || selected >= self->n_modes)
    return;
  what.index = mat_anim_block_get_index (self->block);
  batch_begin (self);
  ok = mat_anim_block_set_mode (self->block, self->mode_values[selected], &error);
  ok = batch_end (self, ok, &what, &error);
  show_error (self, ok ? NULL : error);
}

static void
on_interp_toggled (GtkToggleButton *button,
                   MatBlockEditor  *self)
{
  g_autoptr(GError) error = NULL;
  guint32 mask, bit = 0;
  gboolean ok;

  if (self->syncing || self->block == NULL)
    return;
  for (guint i = 0; i < N_INTERP_BITS; i++)
    if (self->interp[i] == button)
      bit = mat0_fields_interp (i)->mask;
  mask = mat_anim_block_get_interp_mask (self->block);
  mask = gtk_toggle_button_get_active (button) ? (mask | bit) : (mask & ~bit);
  if (mask == mat_anim_block_get_interp_mask (self->block))
    return;
  batch_begin (self);
  ok = mat_anim_block_set_interp_mask (self->block, mask, &error);
  ok = batch_end (self, ok,
                  &(MatApply) { .kind = MAT_APPLY_INTERP, .index = mat_anim_block_get_index (self->block),
                                .mask = bit },
                  &error);
  if (!ok)
    {
      show_error (self, error);
      sync_header (self);
    }
  else
    show_error (self, NULL);
}

static void
build_interp_toggles (MatBlockEditor *self)
{
  for (guint i = 0; i < N_INTERP_BITS; i++)
    {
      const Mat0InterpField *field = mat0_fields_interp (i);
      GtkWidget *button = gtk_toggle_button_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      GtkWidget *name = gtk_label_new (_(field->label));
      g_autofree char *bit = g_strdup_printf (_("bit 0x%02X"), field->mask);
      GtkWidget *value = gtk_label_new (bit);
      const char *tip = _(field->meaning);

      gtk_widget_add_css_class (value, "bit-value");
      gtk_box_append (GTK_BOX (box), name);
      gtk_box_append (GTK_BOX (box), value);
      gtk_button_set_child (GTK_BUTTON (button), box);
      gtk_widget_add_css_class (button, "interp-bit");
      mat_tooltip_set_text (button, tip);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _(field->label),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, tip,
                                      -1);
      g_signal_connect_object (button, "toggled", G_CALLBACK (on_interp_toggled), self, 0);
      gtk_flow_box_append (self->interp_box, button);
      self->interp[i] = GTK_TOGGLE_BUTTON (button);
    }
}

/* ---- actions ----------------------------------------------------------- */

static void
block_add_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  MatBlockEditor *self = MAT_BLOCK_EDITOR (widget);
  g_autoptr(GError) error = NULL;
  guint position = n_blocks (self);

  if (mat_material_insert_block (self->material, position, &error) == NULL)
    {
      show_error (self, error);
      return;
    }
  show_error (self, NULL);
  show_block (self, position);
}

static gboolean
copy_block (MatAnimBlock  *from,
            MatAnimBlock  *to,
            GError       **error)
{
  GListModel *keys = mat_anim_block_get_keys (from);
  guint n = g_list_model_get_n_items (keys);

  if (!mat_anim_block_set_header_raw (to, mat_anim_block_get_header_raw (from), error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(MatKey) src = g_list_model_get_item (keys, i);
      MatKey *dst;

      if (i == 0)
        {
          dst = g_list_model_get_item (mat_anim_block_get_keys (to), 0);
          g_object_unref (dst);
          if (!mat_key_set_k0 (dst, mat_key_get_k0 (src), error) ||
              !mat_key_set_k1 (dst, mat_key_get_k1 (src), error))
            return FALSE;
        }
      else
        {
          dst = mat_anim_block_insert_key (to, i, mat_key_get_k0 (src), mat_key_get_k1 (src), error);
          if (dst == NULL)
            return FALSE;
        }
      /* k2 is opaque: the copy keeps it as stored */
      if (!mat_key_set_k2 (dst, mat_key_get_k2 (src), error))
        return FALSE;
    }
  if (n == 0)
    return mat_anim_block_remove_key (to, 0, error);
  return TRUE;
}

static void
block_duplicate_activated (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  MatBlockEditor *self = MAT_BLOCK_EDITOR (widget);
  g_autoptr(GError) error = NULL;
  MatHistory *h = history (self);
  MatAnimBlock *source = self->block;
  MatAnimBlock *copy;
  guint position;

  if (source == NULL || h == NULL)
    return;
  position = mat_anim_block_get_index (source) + 1;
  mat_history_begin_group (h, _("Duplicate Animation Block"));
  copy = mat_material_insert_block (self->material, position, &error);
  if (copy != NULL)
    copy_block (source, copy, &error);
  mat_history_end_group (h);

  if (error != NULL)
    {
      /* leave nothing half done */
      if (copy != NULL)
        mat_history_undo (h);
      show_error (self, error);
      return;
    }
  show_error (self, NULL);
  show_block (self, position);
}

static void
block_remove_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  MatBlockEditor *self = MAT_BLOCK_EDITOR (widget);
  g_autoptr(GError) error = NULL;
  int index = self->selected;

  if (self->block == NULL)
    return;
  if (!mat_material_remove_block (self->material, mat_anim_block_get_index (self->block), &error))
    {
      show_error (self, error);
      return;
    }
  show_error (self, NULL);
  show_block (self, MAX (index - 1, 0));
}

static void
zoom_in_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  mat_timeline_zoom_in (MAT_BLOCK_EDITOR (widget)->timeline);
}

static void
zoom_out_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  mat_timeline_zoom_out (MAT_BLOCK_EDITOR (widget)->timeline);
}

static void
zoom_fit_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  mat_timeline_zoom_to_fit (MAT_BLOCK_EDITOR (widget)->timeline);
}

/* ---- GObject ----------------------------------------------------------- */

static void
mat_block_editor_dispose (GObject *object)
{
  MatBlockEditor *self = MAT_BLOCK_EDITOR (object);

  if (self->material_signals != NULL)
    g_signal_group_set_target (self->material_signals, NULL);
  if (self->blocks_signals != NULL)
    g_signal_group_set_target (self->blocks_signals, NULL);
  if (self->block_signals != NULL)
    g_signal_group_set_target (self->block_signals, NULL);
  g_clear_object (&self->material_signals);
  g_clear_object (&self->blocks_signals);
  g_clear_object (&self->block_signals);
  g_clear_object (&self->block);
  g_clear_object (&self->material);
  if (self->batch != NULL)
    g_signal_handlers_disconnect_by_data (self->batch, self);
  g_clear_object (&self->batch);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_BLOCK_EDITOR);
  g_clear_object (&self->block_names);
  g_clear_object (&self->mode_names);

  G_OBJECT_CLASS (mat_block_editor_parent_class)->dispose (object);
}

static void
mat_block_editor_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  MatBlockEditor *self = MAT_BLOCK_EDITOR (object);

  switch (prop_id)
    {
    case PROP_MATERIAL:
      g_value_set_object (value, self->material);
      break;
    case PROP_SELECTED_BLOCK:
      g_value_set_int (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_block_editor_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  MatBlockEditor *self = MAT_BLOCK_EDITOR (object);

  switch (prop_id)
    {
    case PROP_MATERIAL:
      mat_block_editor_set_material (self, g_value_get_object (value));
      break;
    case PROP_SELECTED_BLOCK:
      mat_block_editor_set_selected_block (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_block_editor_class_init (MatBlockEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_block_editor_dispose;
  object_class->get_property = mat_block_editor_get_property;
  object_class->set_property = mat_block_editor_set_property;

  properties[PROP_MATERIAL] =
    g_param_spec_object ("material", NULL, NULL, MAT_TYPE_MATERIAL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_BLOCK] =
    g_param_spec_int ("selected-block", NULL, NULL, -1, MAT0_MAX_BLOCKS - 1, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (MAT_TYPE_TIMELINE);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "matblockeditor");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-block-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, stack);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, readonly_label);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, block_bar);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, block_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, add_button);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, limit_label);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, error_label);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, block_stack);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, settings_list);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, mode_raw);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, interp_raw);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, interp_box);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, unknown_bits);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, header_raw);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, period_label);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, timeline_scroller);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, timeline);
  gtk_widget_class_bind_template_child (widget_class, MatBlockEditor, details_label);
  gtk_widget_class_bind_template_callback (widget_class, on_block_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_mode_selected);

  gtk_widget_class_install_action (widget_class, "block.add", NULL, block_add_activated);
  gtk_widget_class_install_action (widget_class, "block.duplicate", NULL, block_duplicate_activated);
  gtk_widget_class_install_action (widget_class, "block.remove", NULL, block_remove_activated);
  gtk_widget_class_install_action (widget_class, "block.zoom-in", NULL, zoom_in_activated);
  gtk_widget_class_install_action (widget_class, "block.zoom-out", NULL, zoom_out_activated);
  gtk_widget_class_install_action (widget_class, "block.zoom-fit", NULL, zoom_fit_activated);
}

static void
mat_block_editor_init (MatBlockEditor *self)
{
  mat_style_ensure ();
  self->selected = -1;
  self->block_names = gtk_string_list_new (NULL);
  self->mode_names = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_drop_down_set_model (self->block_dropdown, G_LIST_MODEL (self->block_names));
  gtk_drop_down_set_model (self->mode_dropdown, G_LIST_MODEL (self->mode_names));
  build_interp_toggles (self);
  g_object_bind_property (self->timeline, "details", self->details_label, "label",
                          G_BINDING_SYNC_CREATE);

  self->material_signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_swapped (self->material_signals, "changed",
                                  G_CALLBACK (on_material_changed), self);
  g_signal_group_connect_swapped (self->material_signals, "notify::editable",
                                  G_CALLBACK (sync_all), self);

  self->blocks_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect (self->blocks_signals, "items-changed",
                          G_CALLBACK (on_blocks_changed), self);

  self->block_signals = g_signal_group_new (MAT_TYPE_ANIM_BLOCK);
  g_signal_group_connect_swapped (self->block_signals, "notify::header-raw",
                                  G_CALLBACK (sync_header), self);
  g_signal_group_connect_swapped (self->block_signals, "notify::period",
                                  G_CALLBACK (sync_period), self);
  g_signal_group_connect_swapped (self->block_signals, "notify::n-keys",
                                  G_CALLBACK (sync_period), self);

  sync_all (self);
}

/* ---- public API -------------------------------------------------------- */

GtkWidget *
mat_block_editor_new (void)
{
  return g_object_new (MAT_TYPE_BLOCK_EDITOR, NULL);
}

MatMaterial *
mat_block_editor_get_material (MatBlockEditor *self)
{
  g_return_val_if_fail (MAT_IS_BLOCK_EDITOR (self), NULL);

  return self->material;
}

void
mat_block_editor_set_material (MatBlockEditor *self,
                               MatMaterial    *material)
{
  g_return_if_fail (MAT_IS_BLOCK_EDITOR (self));
  g_return_if_fail (material == NULL || MAT_IS_MATERIAL (material));

  if (self->material == material)
    return;
  g_set_object (&self->material, material);
  g_signal_group_set_target (self->material_signals, material);
  g_signal_group_set_target (self->blocks_signals,
                             material != NULL ? mat_material_get_blocks (material) : NULL);
  show_error (self, NULL);
  self->selected = -1;
  sync_all (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATERIAL]);
}

int
mat_block_editor_get_selected_block (MatBlockEditor *self)
{
  g_return_val_if_fail (MAT_IS_BLOCK_EDITOR (self), -1);

  return self->selected;
}

void
mat_block_editor_set_selected_block (MatBlockEditor *self,
                                     int             block)
{
  g_return_if_fail (MAT_IS_BLOCK_EDITOR (self));

  show_block (self, block);
}

MatTimeline *
mat_block_editor_get_timeline (MatBlockEditor *self)
{
  g_return_val_if_fail (MAT_IS_BLOCK_EDITOR (self), NULL);

  return self->timeline;
}

GtkWidget *
mat_block_editor_get_test_widget (MatBlockEditor *self,
                                  const char     *name)
{
  static const struct {
    const char *name;
    gsize       offset;
  } named[] = {
    { "blocks", G_STRUCT_OFFSET (MatBlockEditor, block_dropdown) },
    { "mode", G_STRUCT_OFFSET (MatBlockEditor, mode_dropdown) },
    { "limit-label", G_STRUCT_OFFSET (MatBlockEditor, limit_label) },
    { "unknown-bits", G_STRUCT_OFFSET (MatBlockEditor, unknown_bits) },
    { "header-raw", G_STRUCT_OFFSET (MatBlockEditor, header_raw) },
    { "period", G_STRUCT_OFFSET (MatBlockEditor, period_label) },
    { "details", G_STRUCT_OFFSET (MatBlockEditor, details_label) },
    { "block-stack", G_STRUCT_OFFSET (MatBlockEditor, block_stack) },
    { "error", G_STRUCT_OFFSET (MatBlockEditor, error_label) },
  };

  g_return_val_if_fail (MAT_IS_BLOCK_EDITOR (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (named); i++)
    if (g_str_equal (name, named[i].name))
      return G_STRUCT_MEMBER (GtkWidget *, self, named[i].offset);
  if (g_str_has_prefix (name, "interp-"))
    {
      guint64 i = g_ascii_strtoull (name + 7, NULL, 10);

      if (i < N_INTERP_BITS)
        return GTK_WIDGET (self->interp[i]);
    }
  return NULL;
}

void
mat_block_editor_set_batch (MatBlockEditor *self,
                            MatBatch       *batch)
{
  g_return_if_fail (MAT_IS_BLOCK_EDITOR (self));
  g_return_if_fail (batch == NULL || MAT_IS_BATCH (batch));

  if (self->batch == batch)
    return;
  if (self->batch != NULL)
    g_signal_handlers_disconnect_by_data (self->batch, self);
  g_set_object (&self->batch, batch);
  if (batch != NULL)
    g_signal_connect_swapped (batch, "changed", G_CALLBACK (sync_differs), self);
  sync_differs (self);
}
