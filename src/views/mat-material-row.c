/* mat-material-row.c - one row of the material list: name, counts, badges */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat0-validate.h"
#include "nres.h"

#include "mat-material-row.h"

#define MAX_TOOLTIP_LINES 6

struct _MatMaterialRow
{
  GtkWidget     parent_instance;

  GtkLabel     *name_label;
  GtkLabel     *detail_label;
  GtkImage     *animated_badge;
  GtkImage     *textured_badge;
  GtkLabel     *flags_badge;
  GtkImage     *lint_badge;
  GtkImage     *error_badge;

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

static void
set_lint_tooltip (MatMaterialRow *self,
                  GPtrArray      *diags)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint n_lints = 0;

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

  gtk_widget_set_visible (GTK_WIDGET (self->lint_badge), n_lints > 0);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->lint_badge), n_lints > 0 ? text->str : NULL);
}

static void
update (MatMaterialRow *self)
{
  MatMaterial *material = self->material;
  gboolean is_mat0, editable;
  const char *error;

  if (material == NULL)
    {
      gtk_label_set_label (self->name_label, "");
      gtk_label_set_label (self->detail_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->animated_badge), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->textured_badge), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->flags_badge), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->lint_badge), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->error_badge), FALSE);
      return;
    }

  is_mat0 = mat_material_get_type_id (material) == NRES_TYPE_MAT0;
  editable = mat_material_get_editable (material);
  error = is_mat0 ? mat_material_get_error (material) : NULL;

  gtk_label_set_label (self->name_label, mat_material_get_name (material));

  if (!is_mat0)
    {
      g_autofree char *type = mat_material_row_dup_type_name (mat_material_get_type_id (material));
      g_autofree char *detail = NULL;

      /* Translators: an entry of another type in the list, e.g. "Texm · read-only" */
      detail = g_strdup_printf (_("%s · read-only"), type);
      gtk_label_set_label (self->detail_label, detail);
    }
  else if (error != NULL)
    gtk_label_set_label (self->detail_label, _("Does not decode · read-only"));
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
      gtk_label_set_label (self->detail_label, detail);
    }

  if (!is_mat0 || error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self), "read-only");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "read-only");

  gtk_widget_set_visible (GTK_WIDGET (self->error_badge), error != NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->error_badge), error);

  if (editable)
    {
      guint32 attr1 = mat_material_get_attr1 (material);
      g_autoptr(GPtrArray) diags = mat_material_dup_diagnostics (material);
      g_autofree char *flags = NULL;
      g_autofree char *flags_tip = NULL;

      gtk_widget_set_visible (GTK_WIDGET (self->animated_badge),
                              mat_material_get_animated (material));
      gtk_widget_set_visible (GTK_WIDGET (self->textured_badge),
                              mat_material_get_textured (material));

      flags = g_strdup_printf ("%02X", attr1);
      /* Translators: tooltip of the flags badge; %08X is attr1 in hex */
      flags_tip = g_strdup_printf (_("Runtime flags (attr1): 0x%08X"), attr1);
      gtk_label_set_label (self->flags_badge, flags);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->flags_badge), flags_tip);
      gtk_widget_set_visible (GTK_WIDGET (self->flags_badge), attr1 != 0);

      set_lint_tooltip (self, diags);
    }
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->animated_badge), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->textured_badge), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->flags_badge), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->lint_badge), FALSE);
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
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_MATERIAL_ROW);
  /* dispose_template only drops the bound children. */
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

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-material-row.ui");
  gtk_widget_class_bind_template_child (widget_class, MatMaterialRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, MatMaterialRow, detail_label);
  gtk_widget_class_bind_template_child (widget_class, MatMaterialRow, animated_badge);
  gtk_widget_class_bind_template_child (widget_class, MatMaterialRow, textured_badge);
  gtk_widget_class_bind_template_child (widget_class, MatMaterialRow, flags_badge);
  gtk_widget_class_bind_template_child (widget_class, MatMaterialRow, lint_badge);
  gtk_widget_class_bind_template_child (widget_class, MatMaterialRow, error_badge);
  gtk_widget_class_set_css_name (widget_class, "materialrow");
}

static void
mat_material_row_init (MatMaterialRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_swapped (self->signals, "changed", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (self->signals, "notify::name", G_CALLBACK (update), self);
}
