/* mat-flags-inspector.c - attr1 bit by bit, the payload version, attr3
 *
 * attr1 is shown as hex and as a grid of its 32 bits; the known bits
 * (formats.md 2.4) are labelled from mat0-fields: bits 0, 1 and 6 are
 * toggles, bits 2..5 the blend index, a drop-down of the engine's five
 * blend indices with the render mode each maps to (render.md 3), plus the
 * stored index when it is past the table (shown, never normalised).
 * Unknown bits change only when the user clicks their cell. Every change
 * is one mat_material_set_attr1 (one undo step) that changes only the
 * bits it names. Changing attr2 is an explicit conversion through a small
 * dialog.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "mat0.h"
#include "mat0-fields.h"
#include "mat0-flags.h"
#include "mat-flags-inspector-private.h"
#include "mat-library.h"
#include "mat-model-error.h"
#include "mat-style.h"
#include "mat-tooltip.h"

struct _MatFlagsInspector
{
  GtkWidget       parent_instance;

  MatMaterial    *material;
  GSignalGroup   *signals;
  gboolean        syncing;
  MatBatch       *batch;   /* the others selected: edits go to them too */

  /* template */
  GtkStack       *stack;
  GtkLabel       *error_label;
  GtkLabel       *readonly_label;
  GtkLabel       *attr1_hex;
  GtkGrid        *bit_grid;
  GtkListBoxRow  *ext_row;
  GtkListBoxRow  *hw_row;
  GtkListBoxRow  *behaviour_row;
  GtkCheckButton *ext_check;
  GtkCheckButton *hw_check;
  GtkCheckButton *behaviour_check;
  GtkLabel       *ext_title;
  GtkLabel       *ext_caption;
  GtkLabel       *hw_title;
  GtkLabel       *hw_caption;
  GtkLabel       *behaviour_title;
  GtkLabel       *behaviour_caption;
  GtkLabel       *blend_title;
  GtkLabel       *blend_caption;
  GtkLabel       *blend_raw;
  GtkDropDown    *blend_dropdown;
  GtkStringList  *blend_list;     /* the known indices, then a stored unknown one */
  guint           blend_unknown;  /* the index of entry 5, 0 when there is none */
  GtkLabel       *unknown_title;
  GtkLabel       *unknown_caption;
  GtkLabel       *unknown_hex;
  GtkLabel       *attr2_title;
  GtkLabel       *attr2_stores;
  GtkLabel       *attr2_hex;
  GtkButton      *convert_button;
  GtkLabel       *attr3_hex;

  GtkWidget      *cells[32];

  /* the conversion dialog, while open */
  GtkWindow      *convert_dialog;
  GtkSpinButton  *convert_spin;
  GtkLabel       *convert_summary;
  GtkButton      *convert_apply;
};

G_DEFINE_FINAL_TYPE (MatFlagsInspector, mat_flags_inspector, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MATERIAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];



/* What the payload version stores, as a sentence. */
static const char *
version_stores (guint32 version)
{
  if (mat0_has_meta_d (version))
    return _("Stores metaA and metaB (from version 2), metaC (from 3) and metaD (from 4).");
  if (mat0_has_meta_c (version))
    return _("Stores metaA and metaB (from version 2) and metaC (from 3); metaD takes its default.");
  if (mat0_has_meta_ab (version))
    return _("Stores metaA and metaB (from version 2); metaC and metaD take their defaults.");
  return _("Stores no metadata: metaA to metaD take their defaults.");
}

static void
show_error (MatFlagsInspector *self,
            const GError      *error)
{
  if (error == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
      return;
    }
  gtk_label_set_text (self->error_label, error->message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
}

static gboolean
is_editable (MatFlagsInspector *self)
{
  return self->material != NULL && mat_material_get_editable (self->material);
}

/* Sync: model -> widgets. */

/* Returns: (transfer none) (nullable): what the table calls @bit. */
static const Mat0FlagField *
bit_field (guint bit)
{
  for (guint i = 0; i < MAT0_N_FLAG_FIELDS; i++)
    if (mat0_fields_flag (i)->mask == 1u << bit)
      return mat0_fields_flag (i);
  if (mat0_fields_blend_index ()->mask & (1u << bit))
    return mat0_fields_blend_index ();
  return NULL;
}

/* The blend drop-down: the engine's indices 0..4, and the stored index
 * when it is past the table (its entry stays while the file holds it). */
static void
sync_blend (MatFlagsInspector *self,
            guint32            attr1)
{
  guint b = mat0_flags_nibble_mode (attr1);
  guint unknown = b >= MAT0_N_BLEND_INDICES ? b : 0;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->blend_list));
  char bits[5];
  g_autofree char *raw = NULL;

  if (unknown != self->blend_unknown || (unknown != 0) != (n > MAT0_N_BLEND_INDICES))
    {
      g_autofree char *text = unknown != 0 ? mat0_fields_blend_dup_reading (unknown) : NULL;
      const char *strings[2] = { text, NULL };

      /* In place: the drop-down's selection may be at work right now. */
      gtk_string_list_splice (self->blend_list, MAT0_N_BLEND_INDICES,
                              n - MAT0_N_BLEND_INDICES, unknown != 0 ? strings : NULL);
      self->blend_unknown = unknown;
    }
  if (gtk_drop_down_get_selected (self->blend_dropdown) != MIN (b, MAT0_N_BLEND_INDICES))
    gtk_drop_down_set_selected (self->blend_dropdown, MIN (b, MAT0_N_BLEND_INDICES));

  for (guint i = 0; i < 4; i++)
    bits[i] = (b >> (3 - i)) & 1 ? '1' : '0';
  bits[4] = '\0';
  /* Translators: the raw bits of the blend index: "bits 2–5 = 0001 (b = 1)" */
  raw = g_strdup_printf (_("bits 2–5 = %s (b = %u)"), bits, b);
  gtk_label_set_text (self->blend_raw, raw);
  mat_tooltip_set_text (GTK_WIDGET (self->blend_dropdown), _(mat0_fields_blend (b)->meaning));
}

static void
sync_attr1 (MatFlagsInspector *self)
{
  guint32 attr1 = self->material != NULL ? mat_material_get_attr1 (self->material) : 0;
  g_autofree char *hex = g_strdup_printf ("0x%08X", attr1);
  g_autofree char *unknown = g_strdup_printf ("0x%08X", mat0_flags_unknown_bits (attr1));

  self->syncing = TRUE;

  gtk_label_set_text (self->attr1_hex, hex);
  gtk_label_set_text (self->unknown_hex, unknown);

  for (guint bit = 0; bit < 32; bit++)
    {
      GtkWidget *cell = self->cells[bit];
      gboolean set = (attr1 >> bit) & 1;

      gtk_button_set_label (GTK_BUTTON (cell), set ? "1" : "0");
      if (set)
        gtk_widget_add_css_class (cell, "set");
      else
        gtk_widget_remove_css_class (cell, "set");
    }

  gtk_check_button_set_active (self->ext_check, mat0_flags_ext_texture_load (attr1));
  gtk_check_button_set_active (self->hw_check, mat0_flags_hw_profile (attr1));
  gtk_check_button_set_active (self->behaviour_check, mat0_flags_behaviour (attr1));
  sync_blend (self, attr1);

  self->syncing = FALSE;
}

static void update_convert_summary (MatFlagsInspector *self);

char *
mat_flags_inspector_dup_bit_tooltip (MatFlagsInspector *self,
                                     guint              bit)
{
  guint32 attr1;
  gboolean set;
  const char *role;

  g_return_val_if_fail (MAT_IS_FLAGS_INSPECTOR (self), NULL);
  g_return_val_if_fail (bit < 32, NULL);

  attr1 = self->material != NULL ? mat_material_get_attr1 (self->material) : 0;
  set = (attr1 >> bit) & 1;
  role = bit_field (bit) != NULL ? _(bit_field (bit)->label) : NULL;
  if (role != NULL)
    /* Translators: bit number, its mask, its meaning, 0 or 1 */
    return g_strdup_printf (_("Bit %u (0x%08X): %s — now %u. Click to flip it."),
                            bit, 1u << bit, role, set);

  return g_strdup_printf (_("Bit %u (0x%08X): unknown — kept as is, now %u. "
                            "Click to flip it deliberately."),
                          bit, 1u << bit, set);
}

/* Made when asked for: setting 32 tooltip texts on every change made GTK
 * ask the display server where the pointer is, 32 times. */
static gboolean
query_bit_tooltip (GtkWidget         *cell,
                   int                x,
                   int                y,
                   gboolean           keyboard_mode,
                   GtkTooltip        *tooltip,
                   MatFlagsInspector *self)
{
  g_autofree char *text = NULL;

  for (guint bit = 0; bit < 32; bit++)
    if (self->cells[bit] == cell)
      {
        text = mat_flags_inspector_dup_bit_tooltip (self, bit);
        gtk_tooltip_set_text (tooltip, text);
        return TRUE;
      }

  return FALSE;
}

static void
sync_attr2 (MatFlagsInspector *self)
{
  guint32 attr2 = self->material != NULL ? mat_material_get_attr2 (self->material) : 0;
  g_autofree char *title = g_strdup_printf (_("Payload version %u"), attr2);
  g_autofree char *hex = g_strdup_printf ("attr2 = 0x%08X", attr2);

  gtk_label_set_text (self->attr2_title, title);
  gtk_label_set_text (self->attr2_stores, version_stores (attr2));
  gtk_label_set_text (self->attr2_hex, hex);
  update_convert_summary (self);
}

static void
sync_attr3 (MatFlagsInspector *self)
{
  guint32 attr3 = self->material != NULL ? mat_material_get_attr3 (self->material) : 0;
  g_autofree char *hex = g_strdup_printf ("0x%08X (%u)", attr3, attr3);

  gtk_label_set_text (self->attr3_hex, hex);
}

static void
sync_editable (MatFlagsInspector *self)
{
  gboolean editable = is_editable (self);

  gtk_widget_set_sensitive (GTK_WIDGET (self->ext_check), editable);
  gtk_widget_set_sensitive (GTK_WIDGET (self->hw_check), editable);
  gtk_widget_set_sensitive (GTK_WIDGET (self->behaviour_check), editable);
  gtk_list_box_row_set_activatable (self->ext_row, editable);
  gtk_list_box_row_set_activatable (self->hw_row, editable);
  gtk_list_box_row_set_activatable (self->behaviour_row, editable);
  gtk_widget_set_sensitive (GTK_WIDGET (self->blend_dropdown), editable);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flags.flip-bit", editable);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "flags.convert-version", editable);
  gtk_widget_set_visible (GTK_WIDGET (self->readonly_label),
                          self->material != NULL && !editable);
  if (!editable && self->convert_dialog != NULL)
    gtk_window_destroy (self->convert_dialog);
}

static void sync_differs (MatFlagsInspector *self);

static void
sync_all (MatFlagsInspector *self)
{
  gtk_stack_set_visible_child_name (self->stack, self->material != NULL ? "content" : "empty");
  sync_attr1 (self);
  sync_attr2 (self);
  sync_attr3 (self);
  sync_editable (self);
  sync_differs (self);
}

/* Several materials selected: where the others' attr1 differs. */
static void
sync_differs (MatFlagsInspector *self)
{
  guint32 differs = self->batch != NULL && mat_batch_get_leader (self->batch) == self->material
                    ? mat_batch_get_attr1_differs (self->batch) : 0;
  GtkWidget *rows[] = { GTK_WIDGET (self->ext_row), GTK_WIDGET (self->hw_row),
                        GTK_WIDGET (self->behaviour_row), GTK_WIDGET (self->blend_dropdown) };
  const guint32 masks[] = { MAT0_FLAG_EXT_TEXTURE_LOAD, MAT0_FLAG_HW_PROFILE,
                            MAT0_FLAG_BEHAVIOUR, MAT0_FLAG_NIBBLE_MASK };

  for (guint bit = 0; bit < 32; bit++)
    if (self->cells[bit] != NULL)
      {
        if ((differs >> bit) & 1)
          gtk_widget_add_css_class (self->cells[bit], "differs");
        else
          gtk_widget_remove_css_class (self->cells[bit], "differs");
      }
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      if ((differs & masks[i]) != 0)
        gtk_widget_add_css_class (rows[i], "differs");
      else
        gtk_widget_remove_css_class (rows[i], "differs");
    }
}

/* Edits: widgets -> model. @mask: the bits of the field edited (a flag,
 * the blend index), which go to the others selected too, one step. */
static void
apply_attr1 (MatFlagsInspector *self,
             guint32            attr1,
             guint32            mask)
{
  g_autoptr(GError) error = NULL;
  MatLibrary *library;
  gboolean batch;
  gboolean ok;

  if (self->material == NULL)
    return;
  batch = self->batch != NULL && mat_batch_get_leader (self->batch) == self->material;
  if (attr1 == mat_material_get_attr1 (self->material) &&
      !(batch && (mat_batch_get_attr1_differs (self->batch) & mask) != 0))
    return;

  library = mat_material_get_library (self->material);
  if (library != NULL)
    mat_history_begin_group (mat_library_get_history (library), NULL);
  ok = mat_material_set_attr1 (self->material, attr1, &error);
  if (ok && batch)
    ok = mat_batch_apply (self->batch, &(MatApply) { .kind = MAT_APPLY_ATTR1_BITS, .mask = mask }, &error);
  if (library != NULL)
    mat_history_end_group (mat_library_get_history (library));
  if (!ok)
    {
      show_error (self, error);
      sync_attr1 (self);   /* put the widgets back */
      return;
    }
  show_error (self, NULL);
}

static void
on_known_bit_toggled (MatFlagsInspector *self,
                      GtkCheckButton    *button)
{
  guint32 mask;

  if (self->syncing || self->material == NULL)
    return;
  if (button == self->ext_check)
    mask = MAT0_FLAG_EXT_TEXTURE_LOAD;
  else if (button == self->hw_check)
    mask = MAT0_FLAG_HW_PROFILE;
  else
    mask = MAT0_FLAG_BEHAVIOUR;
  apply_attr1 (self, mat0_flags_set_bit (mat_material_get_attr1 (self->material), mask,
                                         gtk_check_button_get_active (button)), mask);
}

/* A click anywhere on a flag's row toggles its check button. */
static void
on_row_activated (MatFlagsInspector *self,
                  GtkListBoxRow     *row)
{
  GtkCheckButton *check = NULL;

  if (row == self->ext_row)
    check = self->ext_check;
  else if (row == self->hw_row)
    check = self->hw_check;
  else if (row == self->behaviour_row)
    check = self->behaviour_check;
  if (check != NULL && gtk_widget_is_sensitive (GTK_WIDGET (check)))
    gtk_check_button_set_active (check, !gtk_check_button_get_active (check));
}

/* A blend index chosen: bits 2..5 change, no other bit. */
static void
on_blend_selected (MatFlagsInspector *self)
{
  guint position = gtk_drop_down_get_selected (self->blend_dropdown);
  guint b;

  if (self->syncing || self->material == NULL || position == GTK_INVALID_LIST_POSITION)
    return;
  b = position < MAT0_N_BLEND_INDICES ? position : self->blend_unknown;
  apply_attr1 (self, mat0_flags_set_nibble_mode (mat_material_get_attr1 (self->material), b),
               MAT0_FLAG_NIBBLE_MASK);
}

static void
flip_bit_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  MatFlagsInspector *self = MAT_FLAGS_INSPECTOR (widget);
  guint32 bit = g_variant_get_uint32 (parameter);

  if (self->material == NULL || bit >= 32)
    return;
  apply_attr1 (self, mat_material_get_attr1 (self->material) ^ (1u << bit), 1u << bit);
}

/* The conversion dialog */

static char *
meta_value_text (guint field,
                 guint32 value)
{
  if (field == 2)
    {
      union { guint32 u; float f; } bits = { .u = value };
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      for (int precision = 6; precision <= 9; precision++)
        {
          char format[8];

          g_snprintf (format, sizeof format, "%%.%dg", precision);
          g_ascii_formatd (buf, sizeof buf, format, bits.f);
          if ((float) g_ascii_strtod (buf, NULL) == bits.f)
            break;
        }
      return g_strdup_printf (strpbrk (buf, ".en") ? "%s (0x%08X)" : "%s.0 (0x%08X)", buf, value);
    }
  return g_strdup_printf ("%u", value);
}

/* Returns: (transfer full): what converting the shown material to
 * @version does, in one or two sentences. */
static char *
describe_conversion (MatFlagsInspector *self,
                     guint32            version)
{
  static const char *const names[4] = { "metaA", "metaB", "metaC", "metaD" };
  static const guint32 defaults[4] = {
    MAT0_DEFAULT_META_A, MAT0_DEFAULT_META_B, MAT0_DEFAULT_META_C, MAT0_DEFAULT_META_D,
  };
  guint32 old = mat_material_get_attr2 (self->material);
  guint32 current[4] = {
    mat_material_get_meta_a (self->material), mat_material_get_meta_b (self->material),
    mat_material_get_meta_c (self->material), mat_material_get_meta_d (self->material),
  };
  g_autoptr(GPtrArray) appear = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) vanish = g_ptr_array_new_with_free_func (g_free);
  GString *text = g_string_new (NULL);

  if (version == old)
    {
      g_string_append (text, _("This is the current version: nothing changes."));
      return g_string_free (text, FALSE);
    }

  for (guint i = 0; i < 4; i++)
    {
      gboolean was = i < 2 ? mat0_has_meta_ab (old) : i == 2 ? mat0_has_meta_c (old) : mat0_has_meta_d (old);
      gboolean is = i < 2 ? mat0_has_meta_ab (version) : i == 2 ? mat0_has_meta_c (version) : mat0_has_meta_d (version);

      if (!was && is)
        {
          g_autofree char *value = meta_value_text (i, defaults[i]);
          /* Translators: a field name and its value, "metaC = 1 (0x3F800000)" */
          g_ptr_array_add (appear, g_strdup_printf (_("%s = %s"), names[i], value));
        }
      else if (was && !is)
        {
          g_autofree char *value = meta_value_text (i, current[i]);
          /* Translators: a field name and the value it loses, "metaD (now 3)" */
          g_ptr_array_add (vanish, g_strdup_printf (_("%s (now %s)"), names[i], value));
        }
    }
  g_ptr_array_add (appear, NULL);
  g_ptr_array_add (vanish, NULL);

  if (appear->len > 1)
    {
      /* Translators: separates the items of a list */
      g_autofree char *list = g_strjoinv (_(", "), (char **) appear->pdata);
      g_string_append_printf (text, _("Fields that appear, with their default values: %s."), list);
    }
  if (vanish->len > 1)
    {
      g_autofree char *list = g_strjoinv (_(", "), (char **) vanish->pdata);
      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append_printf (text, _("Fields that disappear from the file (the engine then "
                                      "uses their defaults): %s."), list);
    }
  if (text->len == 0)
    g_string_append (text, _("No metadata field appears or disappears: only the version "
                             "number changes."));
  return g_string_free (text, FALSE);
}

static void
update_convert_summary (MatFlagsInspector *self)
{
  g_autofree char *summary = NULL;
  guint32 version;

  if (self->convert_dialog == NULL || self->material == NULL)
    return;
  version = (guint32) gtk_spin_button_get_value (self->convert_spin);
  summary = describe_conversion (self, version);
  gtk_label_set_text (self->convert_summary, summary);
  gtk_widget_remove_css_class (GTK_WIDGET (self->convert_summary), "error");
  gtk_widget_set_sensitive (GTK_WIDGET (self->convert_apply),
                            version != mat_material_get_attr2 (self->material));
}

static void
on_convert_apply (MatFlagsInspector *self)
{
  g_autoptr(GError) error = NULL;
  guint32 version;

  if (self->convert_dialog == NULL)
    return;
  version = (guint32) gtk_spin_button_get_value (self->convert_spin);
  if (!mat_flags_inspector_convert_version (self, version, &error))
    {
      gtk_label_set_text (self->convert_summary, error->message);
      gtk_widget_add_css_class (GTK_WIDGET (self->convert_summary), "error");
      return;
    }
  gtk_window_destroy (self->convert_dialog);
}

static void
on_convert_cancel (MatFlagsInspector *self)
{
  if (self->convert_dialog != NULL)
    gtk_window_destroy (self->convert_dialog);
}

static void
on_convert_dialog_destroy (MatFlagsInspector *self)
{
  self->convert_dialog = NULL;
  self->convert_spin = NULL;
  self->convert_summary = NULL;
  self->convert_apply = NULL;
}

static void
convert_version_activated (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  MatFlagsInspector *self = MAT_FLAGS_INSPECTOR (widget);
  GtkWidget *header, *cancel, *box, *row, *label, *spin, *current;
  GtkRoot *root;
  g_autofree char *current_text = NULL;

  if (!is_editable (self))
    return;
  if (self->convert_dialog != NULL)
    {
      gtk_window_present (self->convert_dialog);
      return;
    }

  self->convert_dialog = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_title (self->convert_dialog, _("Convert Payload Version"));
  gtk_window_set_modal (self->convert_dialog, TRUE);
  gtk_window_set_resizable (self->convert_dialog, FALSE);
  gtk_window_set_destroy_with_parent (self->convert_dialog, TRUE);
  gtk_window_set_default_size (self->convert_dialog, 440, -1);
  root = gtk_widget_get_root (widget);
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (self->convert_dialog, GTK_WINDOW (root));
  g_signal_connect_object (self->convert_dialog, "destroy",
                           G_CALLBACK (on_convert_dialog_destroy), self, G_CONNECT_SWAPPED);

  header = gtk_header_bar_new ();
  gtk_header_bar_set_show_title_buttons (GTK_HEADER_BAR (header), FALSE);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  g_signal_connect_object (cancel, "clicked", G_CALLBACK (on_convert_cancel), self, G_CONNECT_SWAPPED);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), cancel);
  self->convert_apply = GTK_BUTTON (gtk_button_new_with_mnemonic (_("C_onvert")));
  gtk_widget_add_css_class (GTK_WIDGET (self->convert_apply), "suggested-action");
  g_signal_connect_object (self->convert_apply, "clicked",
                           G_CALLBACK (on_convert_apply), self, G_CONNECT_SWAPPED);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), GTK_WIDGET (self->convert_apply));
  gtk_window_set_titlebar (self->convert_dialog, header);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);

  current_text = g_strdup_printf (_("Current version: %u. %s"),
                                  mat_material_get_attr2 (self->material),
                                  version_stores (mat_material_get_attr2 (self->material)));
  current = gtk_label_new (current_text);
  gtk_label_set_wrap (GTK_LABEL (current), TRUE);
  gtk_label_set_xalign (GTK_LABEL (current), 0);
  gtk_label_set_max_width_chars (GTK_LABEL (current), 48);
  gtk_widget_add_css_class (current, "dim-label");
  gtk_box_append (GTK_BOX (box), current);

  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  label = gtk_label_new_with_mnemonic (_("New _version"));
  gtk_widget_set_hexpand (label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  spin = gtk_spin_button_new_with_range (0, G_MAXUINT32, 1);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), mat_material_get_attr2 (self->material));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
  gtk_box_append (GTK_BOX (row), label);
  gtk_box_append (GTK_BOX (row), spin);
  gtk_box_append (GTK_BOX (box), row);
  self->convert_spin = GTK_SPIN_BUTTON (spin);
  g_signal_connect_object (spin, "value-changed",
                           G_CALLBACK (update_convert_summary), self, G_CONNECT_SWAPPED);

  label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 48);
  gtk_box_append (GTK_BOX (box), label);
  self->convert_summary = GTK_LABEL (label);

  label = gtk_label_new (_("Undo restores the previous version and metadata."));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (box), label);

  gtk_window_set_child (self->convert_dialog, box);
  update_convert_summary (self);
  gtk_window_present (self->convert_dialog);
}

/* The bit grid: bits 31..16 on the first line, 15..0 on the second,
 * a gap between bytes, the known bits named below their cells. */

static int
bit_column (guint bit)
{
  int pos = 15 - (int) (bit % 16);

  return pos + (pos >= 8 ? 1 : 0);
}

static void
add_role_label (MatFlagsInspector *self,
                const char        *text,
                guint              high_bit,
                int                width)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "bit-role");
  gtk_grid_attach (self->bit_grid, label, bit_column (high_bit), 5, width, 1);
}

static void
build_bit_grid (MatFlagsInspector *self)
{
  GtkWidget *gap = gtk_label_new (NULL);

  gtk_widget_set_size_request (gap, 10, -1);
  gtk_grid_attach (self->bit_grid, gap, 8, 0, 1, 1);
  gap = gtk_label_new (NULL);
  gtk_widget_set_size_request (gap, -1, 10);
  gtk_grid_attach (self->bit_grid, gap, 0, 2, 1, 1);

  for (guint bit = 0; bit < 32; bit++)
    {
      int top = bit >= 16 ? 0 : 3;
      g_autofree char *index = g_strdup_printf ("%u", bit);
      GtkWidget *label = gtk_label_new (index);
      GtkWidget *cell = gtk_button_new_with_label ("0");

      gtk_widget_add_css_class (label, "bit-index");
      gtk_grid_attach (self->bit_grid, label, bit_column (bit), top, 1, 1);

      gtk_widget_add_css_class (cell, "bit");
      gtk_widget_add_css_class (cell, (MAT0_FLAG_KNOWN_MASK >> bit) & 1 ? "known" : "unknown");
      gtk_widget_set_focus_on_click (cell, FALSE);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (cell), "flags.flip-bit");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (cell), "u", bit);
      gtk_widget_set_has_tooltip (cell, TRUE);
      g_signal_connect (cell, "query-tooltip", G_CALLBACK (query_bit_tooltip), self);
      gtk_grid_attach (self->bit_grid, cell, bit_column (bit), top + 1, 1, 1);
      self->cells[bit] = cell;
    }

  /* the known fields' short names under their cells */
  for (guint i = 0; i < MAT0_N_FLAG_FIELDS; i++)
    {
      const Mat0FlagField *flag = mat0_fields_flag (i);

      add_role_label (self, _(flag->short_label), (guint) g_bit_nth_lsf (flag->mask, -1), 1);
    }
  add_role_label (self, _(mat0_fields_blend_index ()->short_label),
                  (guint) g_bit_nth_msf (mat0_fields_blend_index ()->mask, -1), 4);
}

/* The rows' names and captions, from the table. */
static void
label_rows (MatFlagsInspector *self)
{
  GtkLabel *const titles[MAT0_N_FLAG_FIELDS] = { self->ext_title, self->hw_title, self->behaviour_title };
  GtkLabel *const captions[MAT0_N_FLAG_FIELDS] = { self->ext_caption, self->hw_caption, self->behaviour_caption };

  for (guint i = 0; i < MAT0_N_FLAG_FIELDS; i++)
    {
      gtk_label_set_text (titles[i], _(mat0_fields_flag (i)->label));
      gtk_label_set_text (captions[i], _(mat0_fields_flag (i)->meaning));
    }
  gtk_label_set_text (self->blend_title, _(mat0_fields_blend_index ()->label));
  gtk_label_set_text (self->blend_caption, _(mat0_fields_blend_index ()->meaning));
  gtk_label_set_text (self->unknown_title, _(mat0_fields_unknown_bits ()->label));
  gtk_label_set_text (self->unknown_caption, _(mat0_fields_unknown_bits ()->meaning));

  self->blend_list = gtk_string_list_new (NULL);
  for (guint b = 0; b < MAT0_N_BLEND_INDICES; b++)
    {
      g_autofree char *text = mat0_fields_blend_dup_reading (b);

      gtk_string_list_append (self->blend_list, text);
    }
  self->syncing = TRUE;
  gtk_drop_down_set_model (self->blend_dropdown, G_LIST_MODEL (self->blend_list));
  self->syncing = FALSE;
}

/* GObject */

static void
mat_flags_inspector_dispose (GObject *object)
{
  MatFlagsInspector *self = MAT_FLAGS_INSPECTOR (object);

  if (self->convert_dialog != NULL)
    gtk_window_destroy (self->convert_dialog);
  if (self->signals != NULL)
    g_signal_group_set_target (self->signals, NULL);
  g_clear_object (&self->signals);
  if (self->batch != NULL)
    g_signal_handlers_disconnect_by_data (self->batch, self);
  g_clear_object (&self->batch);
  g_clear_object (&self->material);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_FLAGS_INSPECTOR);
  g_clear_object (&self->blend_list);
  G_OBJECT_CLASS (mat_flags_inspector_parent_class)->dispose (object);
}

static void
mat_flags_inspector_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  MatFlagsInspector *self = MAT_FLAGS_INSPECTOR (object);

  switch (prop_id)
    {
    case PROP_MATERIAL:
      g_value_set_object (value, self->material);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_flags_inspector_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  MatFlagsInspector *self = MAT_FLAGS_INSPECTOR (object);

  switch (prop_id)
    {
    case PROP_MATERIAL:
      mat_flags_inspector_set_material (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_flags_inspector_class_init (MatFlagsInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_flags_inspector_dispose;
  object_class->get_property = mat_flags_inspector_get_property;
  object_class->set_property = mat_flags_inspector_set_property;

  properties[PROP_MATERIAL] =
    g_param_spec_object ("material", NULL, NULL, MAT_TYPE_MATERIAL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "matflagsinspector");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-flags-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, stack);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, error_label);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, readonly_label);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, attr1_hex);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, bit_grid);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, ext_row);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, hw_row);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, behaviour_row);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, ext_check);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, hw_check);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, behaviour_check);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, ext_title);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, ext_caption);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, hw_title);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, hw_caption);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, behaviour_title);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, behaviour_caption);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, blend_title);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, blend_caption);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, blend_raw);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, blend_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, unknown_title);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, unknown_caption);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, unknown_hex);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, attr2_title);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, attr2_stores);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, attr2_hex);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, convert_button);
  gtk_widget_class_bind_template_child (widget_class, MatFlagsInspector, attr3_hex);
  gtk_widget_class_bind_template_callback (widget_class, on_known_bit_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_blend_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);

  gtk_widget_class_install_action (widget_class, "flags.flip-bit", "u", flip_bit_activated);
  gtk_widget_class_install_action (widget_class, "flags.convert-version", NULL,
                                   convert_version_activated);
}

static void
mat_flags_inspector_init (MatFlagsInspector *self)
{
  mat_style_ensure ();
  gtk_widget_init_template (GTK_WIDGET (self));
  build_bit_grid (self);
  label_rows (self);

  self->signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_swapped (self->signals, "notify::attr1", G_CALLBACK (sync_attr1), self);
  g_signal_group_connect_swapped (self->signals, "notify::attr2", G_CALLBACK (sync_attr2), self);
  g_signal_group_connect_swapped (self->signals, "notify::attr3", G_CALLBACK (sync_attr3), self);
  g_signal_group_connect_swapped (self->signals, "notify::editable", G_CALLBACK (sync_editable), self);

  sync_all (self);
}

GtkWidget *
mat_flags_inspector_new (void)
{
  return g_object_new (MAT_TYPE_FLAGS_INSPECTOR, NULL);
}

MatMaterial *
mat_flags_inspector_get_material (MatFlagsInspector *self)
{
  g_return_val_if_fail (MAT_IS_FLAGS_INSPECTOR (self), NULL);
  return self->material;
}

void
mat_flags_inspector_set_material (MatFlagsInspector *self, MatMaterial *material)
{
  g_return_if_fail (MAT_IS_FLAGS_INSPECTOR (self));
  g_return_if_fail (material == NULL || MAT_IS_MATERIAL (material));

  if (self->material == material)
    return;
  if (self->convert_dialog != NULL)
    gtk_window_destroy (self->convert_dialog);
  g_set_object (&self->material, material);
  g_signal_group_set_target (self->signals, material);
  show_error (self, NULL);
  sync_all (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATERIAL]);
}

void
mat_flags_inspector_set_batch (MatFlagsInspector *self,
                               MatBatch          *batch)
{
  g_return_if_fail (MAT_IS_FLAGS_INSPECTOR (self));
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

gboolean
mat_flags_inspector_convert_version (MatFlagsInspector *self,
                                     guint32            version,
                                     GError           **error)
{
  g_return_val_if_fail (MAT_IS_FLAGS_INSPECTOR (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->material == NULL)
    {
      g_set_error_literal (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                           _("No material is shown"));
      return FALSE;
    }
  return mat_material_set_attr2 (self->material, version, error);
}

GtkWidget *
mat_flags_inspector_get_test_widget (MatFlagsInspector *self,
                                     const char        *name)
{
  static const struct { const char *name; goffset offset; } table[] = {
    { "ext-texture-load", G_STRUCT_OFFSET (MatFlagsInspector, ext_check) },
    { "hw-profile", G_STRUCT_OFFSET (MatFlagsInspector, hw_check) },
    { "behaviour", G_STRUCT_OFFSET (MatFlagsInspector, behaviour_check) },
    { "ext-row", G_STRUCT_OFFSET (MatFlagsInspector, ext_row) },
    { "hw-row", G_STRUCT_OFFSET (MatFlagsInspector, hw_row) },
    { "behaviour-row", G_STRUCT_OFFSET (MatFlagsInspector, behaviour_row) },
    { "blend", G_STRUCT_OFFSET (MatFlagsInspector, blend_dropdown) },
    { "blend-raw", G_STRUCT_OFFSET (MatFlagsInspector, blend_raw) },
    { "blend-caption", G_STRUCT_OFFSET (MatFlagsInspector, blend_caption) },
    { "ext-title", G_STRUCT_OFFSET (MatFlagsInspector, ext_title) },
    { "ext-caption", G_STRUCT_OFFSET (MatFlagsInspector, ext_caption) },
    { "hw-title", G_STRUCT_OFFSET (MatFlagsInspector, hw_title) },
    { "behaviour-title", G_STRUCT_OFFSET (MatFlagsInspector, behaviour_title) },
    { "unknown-title", G_STRUCT_OFFSET (MatFlagsInspector, unknown_title) },
    { "attr1", G_STRUCT_OFFSET (MatFlagsInspector, attr1_hex) },
    { "unknown-bits", G_STRUCT_OFFSET (MatFlagsInspector, unknown_hex) },
    { "attr2", G_STRUCT_OFFSET (MatFlagsInspector, attr2_title) },
    { "attr3", G_STRUCT_OFFSET (MatFlagsInspector, attr3_hex) },
    { "error", G_STRUCT_OFFSET (MatFlagsInspector, error_label) },
    { "convert-button", G_STRUCT_OFFSET (MatFlagsInspector, convert_button) },
    { "convert-dialog", G_STRUCT_OFFSET (MatFlagsInspector, convert_dialog) },
    { "convert-spin", G_STRUCT_OFFSET (MatFlagsInspector, convert_spin) },
    { "convert-summary", G_STRUCT_OFFSET (MatFlagsInspector, convert_summary) },
    { "convert-apply", G_STRUCT_OFFSET (MatFlagsInspector, convert_apply) },
  };

  g_return_val_if_fail (MAT_IS_FLAGS_INSPECTOR (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (g_str_has_prefix (name, "bit-"))
    {
      guint64 bit;

      if (!g_ascii_string_to_unsigned (name + 4, 10, 0, 31, &bit, NULL))
        return NULL;
      return self->cells[bit];
    }
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_str_equal (name, table[i].name))
      return G_STRUCT_MEMBER (GtkWidget *, self, table[i].offset);
  return NULL;
}
