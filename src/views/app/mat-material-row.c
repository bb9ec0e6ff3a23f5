/* mat-material-row.c - one row of the material list: name, counts, badges */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat0-validate.h"
#include "nres.h"

#include "mat-material-row.h"

#define MAX_TOOLTIP_LINES 6

/* The list keeps up to a few hundred rows and GTK 4.8 rebuilds them all
 * when the filter changes, so a row is built in code (no template), its
 * texts are inscriptions (sized by font metrics, shaped only when drawn)
 * and its tooltips are computed when asked for: setting a tooltip text
 * makes GTK query the pointer, a round trip to the display server. */
struct _MatMaterialRow
{
  GtkWidget     parent_instance;

  GtkInscription *name_label;
  GtkInscription *detail_label;
  GtkWidget    *animated_badge;
  GtkWidget    *textured_badge;
  GtkLabel     *flags_badge;
  GtkWidget    *lint_badge;
  GtkWidget    *error_badge;

  MatMaterial  *material;
  GSignalGroup *signals;
};

G_DEFINE_FINAL_TYPE (MatMaterialRow, mat_material_row, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MATERIAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

char *
mat_material_row_dup_type_name (guint32 type_id)
{
  char name[5];

  for (guint i = 0; i < 4; i++)
    {
      char c = (char) ((type_id >> (8 * i)) & 0xFF);

      name[i] = g_ascii_isprint (c) ? c : '?';
    }
  name[4] = '\0';

  return g_strdup (name);
}

static guint
count_lints (GPtrArray *diags)
{
  guint n_lints = 0;

  for (guint i = 0; i < diags->len; i++)
    if (((Mat0Diagnostic *) g_ptr_array_index (diags, i))->severity == MAT0_SEVERITY_LINT)
      n_lints++;

  return n_lints;
}

char *
mat_material_row_dup_lint_text (MatMaterial *material)
{
  g_autoptr(GPtrArray) diags = NULL;
  GString *text;
  guint n_lints = 0;

  g_return_val_if_fail (MAT_IS_MATERIAL (material), NULL);

  diags = mat_material_dup_diagnostics (material);
  text = g_string_new (NULL);
  for (guint i = 0; i < diags->len; i++)
    {
      Mat0Diagnostic *diag = g_ptr_array_index (diags, i);

      if (diag->severity != MAT0_SEVERITY_LINT)
        continue;
      if (n_lints < MAX_TOOLTIP_LINES)
        {
          if (text->len > 0)
            g_string_append_c (text, '\n');
          g_string_append (text, diag->message);
        }
      n_lints++;
    }

  if (n_lints > MAX_TOOLTIP_LINES)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text,
                              g_dngettext (GETTEXT_PACKAGE, "… and %u more lint",
                                           "… and %u more lints",
                                           n_lints - MAX_TOOLTIP_LINES),
                              n_lints - MAX_TOOLTIP_LINES);
    }

  if (n_lints == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

char *
mat_material_row_dup_badge_tooltip (MatMaterialRow *self,
                                    GtkWidget      *badge)
{
  MatMaterial *material = self->material;

  g_return_val_if_fail (MAT_IS_MATERIAL_ROW (self), NULL);

  if (badge == self->animated_badge)
    return g_strdup (_("Animated: a block with two or more keys"));
  if (badge == self->textured_badge)
    return g_strdup (_("Textured: a phase names a texture"));
  if (material == NULL)
    return NULL;
  if (badge == GTK_WIDGET (self->flags_badge))
    /* Translators: tooltip of the flags badge; %08X is attr1 in hex */
    return g_strdup_printf (_("Runtime flags (attr1): 0x%08X"), mat_material_get_attr1 (material));
  if (badge == self->lint_badge)
    return mat_material_row_dup_lint_text (material);
  if (badge == self->error_badge)
    return g_strdup (mat_material_get_error (material));

  return NULL;
}

static gboolean
query_badge_tooltip (GtkWidget      *badge,
                     int             x,
                     int             y,
                     gboolean        keyboard_mode,
                     GtkTooltip     *tooltip,
                     MatMaterialRow *self)
{
  g_autofree char *text = mat_material_row_dup_badge_tooltip (self, badge);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
update (MatMaterialRow *self)
{
  MatMaterial *material = self->material;
  gboolean is_mat0, editable;
  const char *error;

  if (material == NULL)
    {
      gtk_inscription_set_text (self->name_label, "");
      gtk_inscription_set_text (self->detail_label, "");
      gtk_widget_set_visible (self->animated_badge, FALSE);
      gtk_widget_set_visible (self->textured_badge, FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->flags_badge), FALSE);
      gtk_widget_set_visible (self->lint_badge, FALSE);
      gtk_widget_set_visible (self->error_badge, FALSE);
      return;
    }

  is_mat0 = mat_material_get_type_id (material) == NRES_TYPE_MAT0;
  editable = mat_material_get_editable (material);
  error = is_mat0 ? mat_material_get_error (material) : NULL;

  gtk_inscription_set_text (self->name_label, mat_material_get_name (material));

  if (!is_mat0)
    {
      g_autofree char *type = mat_material_row_dup_type_name (mat_material_get_type_id (material));
      g_autofree char *detail = NULL;

      /* Translators: an entry of another type in the list, e.g. "Texm · read-only" */
      detail = g_strdup_printf (_("%s · read-only"), type);
      gtk_inscription_set_text (self->detail_label, detail);
    }
  else if (error != NULL)
    gtk_inscription_set_text (self->detail_label, _("Does not decode · read-only"));
  else
    {
      guint n_phases = mat_material_get_n_phases (material);
      guint n_blocks = mat_material_get_n_blocks (material);
      g_autofree char *phases = NULL;
      g_autofree char *blocks = NULL;
      g_autofree char *detail = NULL;

      phases = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u phase", "%u phases", n_phases),
                                n_phases);
      blocks = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u block", "%u blocks", n_blocks),
                                n_blocks);
      /* Translators: the counts of a material in the list, "3 phases · 1 block" */
      detail = g_strdup_printf (_("%s · %s"), phases, blocks);
      gtk_inscription_set_text (self->detail_label, detail);
    }

  if (!is_mat0 || error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self), "read-only");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "read-only");

  gtk_widget_set_visible (self->error_badge, error != NULL);

  if (editable)
    {
      guint32 attr1 = mat_material_get_attr1 (material);
      g_autoptr(GPtrArray) diags = mat_material_dup_diagnostics (material);
      char flags[16];

      gtk_widget_set_visible (self->animated_badge, mat_material_get_animated (material));
      gtk_widget_set_visible (self->textured_badge, mat_material_get_textured (material));

      g_snprintf (flags, sizeof flags, "%02X", attr1);
      gtk_label_set_label (self->flags_badge, flags);
      gtk_widget_set_visible (GTK_WIDGET (self->flags_badge), attr1 != 0);
      gtk_widget_set_visible (self->lint_badge, count_lints (diags) > 0);
    }
  else
    {
      gtk_widget_set_visible (self->animated_badge, FALSE);
      gtk_widget_set_visible (self->textured_badge, FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->flags_badge), FALSE);
      gtk_widget_set_visible (self->lint_badge, FALSE);
    }
}

MatMaterial *
mat_material_row_get_material (MatMaterialRow *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_ROW (self), NULL);

  return self->material;
}

void
mat_material_row_set_material (MatMaterialRow *self,
                               MatMaterial    *material)
{
  g_return_if_fail (MAT_IS_MATERIAL_ROW (self));
  g_return_if_fail (material == NULL || MAT_IS_MATERIAL (material));

  if (!g_set_object (&self->material, material))
    return;

  g_signal_group_set_target (self->signals, material);
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATERIAL]);
}

GtkWidget *
mat_material_row_new (void)
{
  return g_object_new (MAT_TYPE_MATERIAL_ROW, NULL);
}

static void
mat_material_row_dispose (GObject *object)
{
  MatMaterialRow *self = MAT_MATERIAL_ROW (object);
  GtkWidget *child;

  if (self->signals != NULL)
    g_signal_group_set_target (self->signals, NULL);
  g_clear_object (&self->signals);
  g_clear_object (&self->material);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (mat_material_row_parent_class)->dispose (object);
}

static void
mat_material_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  MatMaterialRow *self = MAT_MATERIAL_ROW (object);

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
mat_material_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  MatMaterialRow *self = MAT_MATERIAL_ROW (object);

  switch (prop_id)
    {
    case PROP_MATERIAL:
      mat_material_row_set_material (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_material_row_class_init (MatMaterialRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_material_row_dispose;
  object_class->get_property = mat_material_row_get_property;
  object_class->set_property = mat_material_row_set_property;

  properties[PROP_MATERIAL] =
    g_param_spec_object ("material", NULL, NULL, MAT_TYPE_MATERIAL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "materialrow");
}

static GtkWidget *
add_text (GtkWidget  *parent,
          const char *css_class,
          const char *css_class2)
{
  GtkWidget *label = gtk_inscription_new (NULL);

  gtk_inscription_set_min_lines (GTK_INSCRIPTION (label), 1);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (label), 20);
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (label),
                                     GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_widget_add_css_class (label, css_class);
  if (css_class2 != NULL)
    gtk_widget_add_css_class (label, css_class2);
  gtk_box_append (GTK_BOX (parent), label);
  return label;
}

static GtkWidget *
add_badge (MatMaterialRow *self,
           GtkWidget      *badge,
           const char     *css_class)
{
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (badge, css_class);
  gtk_widget_set_has_tooltip (badge, TRUE);
  g_signal_connect (badge, "query-tooltip", G_CALLBACK (query_badge_tooltip), self);
  gtk_widget_set_parent (badge, GTK_WIDGET (self));
  return badge;
}

static void
mat_material_row_init (MatMaterialRow *self)
{
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 6);

  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_valign (text, GTK_ALIGN_CENTER);
  gtk_widget_set_parent (text, GTK_WIDGET (self));
  self->name_label = GTK_INSCRIPTION (add_text (text, "material-name", NULL));
  self->detail_label = GTK_INSCRIPTION (add_text (text, "dim-label", "caption"));

  self->animated_badge = add_badge (self, gtk_image_new_from_icon_name ("media-playlist-repeat-symbolic"),
                                    "badge-icon");
  self->textured_badge = add_badge (self, gtk_image_new_from_icon_name ("image-x-generic-symbolic"),
                                    "badge-icon");
  self->flags_badge = GTK_LABEL (add_badge (self, gtk_label_new (NULL), "badge"));
  gtk_widget_add_css_class (GTK_WIDGET (self->flags_badge), "monospace");
  self->lint_badge = add_badge (self, gtk_image_new_from_icon_name ("dialog-warning-symbolic"),
                                "warning");
  self->error_badge = add_badge (self, gtk_image_new_from_icon_name ("dialog-error-symbolic"),
                                 "error");

  self->signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_swapped (self->signals, "changed", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (self->signals, "notify::name", G_CALLBACK (update), self);
}
