/* mat-material-row.c - one row of the material list: swatch, name, counts,
 * badges
 *
 * The swatch is the material's phase 0 as the game lights it, from the
 * model's cache (mat_material_get_swatch): drawn by the row itself in
 * the margin before the name, as one or two coloured rectangles, so it
 * costs no widget of its own.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat0-fields.h"
#include "phase-light.h"
#include "mat0-validate.h"
#include "nres.h"

#include "mat-material-row.h"

#define MAX_TOOLTIP_LINES 6
#define SWATCH_SIZE       16

/* The list keeps up to a few hundred rows and GTK 4.8 rebuilds them all
 * when the filter changes, so a row is built in code (no template), its
 * texts are inscriptions (sized by font metrics, shaped only when drawn)
 * its tooltips are computed when asked for (setting a tooltip text
 * makes GTK query the pointer, a round trip to the display server), and
 * a badge is made the first time its row shows it. */
/* The badges after the name, in this order */
typedef enum {
  BADGE_ANIMATED,
  BADGE_TEXTURED,
  BADGE_FLAGS,   /* a label: attr1 in hex */
  BADGE_LINT,
  BADGE_ERROR,
  N_BADGES
} Badge;

struct _MatMaterialRow
{
  GtkWidget     parent_instance;

  gboolean      has_swatch;
  gboolean      swatch_textured; /* times its texture's average colour */
  guint8        swatch_rgba[4];
  /* what the swatch shows: the colour blended over a dark and a light
   * square, as the game's opaque back buffer holds it */
  guint8        swatch_drawn[2][3];
  gboolean      emboss_bump;
  MatTextureLibrary *textures;
  GtkInscription *name_label;
  GtkInscription *detail_label;
  GtkWidget    *badges[N_BADGES];   /* made when first shown */

  MatMaterial  *material;
  GSignalGroup *signals;
};

G_DEFINE_FINAL_TYPE (MatMaterialRow, mat_material_row, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MATERIAL,
  PROP_TEXTURES,
  PROP_EMBOSS_BUMP,
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

  if (badge == NULL)
    return NULL;
  if (badge == self->badges[BADGE_ANIMATED])
    return g_strdup (_("Animated: a block with two or more keys"));
  if (badge == self->badges[BADGE_TEXTURED])
    return g_strdup (_("Textured: a phase names a texture"));
  if (material == NULL)
    return NULL;
  if (badge == self->badges[BADGE_FLAGS])
    /* Translators: tooltip of the flags badge; %08X is attr1 in hex */
    return g_strdup_printf (_("Runtime flags (attr1): 0x%08X"), mat_material_get_attr1 (material));
  if (badge == self->badges[BADGE_LINT])
    return mat_material_row_dup_lint_text (material);
  if (badge == self->badges[BADGE_ERROR])
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

/* The two squares under the swatch. */
static const float swatch_under[2] = { 0.28f, 0.75f };

/* The model's swatch (untextured), times the average colour of phase
 * 0's texture when the texture library has it (render.md 2: texture ×
 * the clamped light; its alpha only when the game draws it), then
 * blended with the material's blend mode over a dark and a light square
 * (render.md 3). */
static void
update_swatch (MatMaterialRow *self)
{
  MatMaterial *material = self->material;

  self->has_swatch = material != NULL && mat_material_get_editable (material)
                     && mat_material_get_swatch (material, self->swatch_rgba);
  self->swatch_textured = FALSE;
  if (self->has_swatch)
    {
      g_autoptr(MatPhase) phase0 = g_list_model_get_item (mat_material_get_phases (material), 0);
      guint32 attr1 = mat_material_get_attr1 (material);
      const Mat0BlendField *blend = mat0_fields_blend_of_attr1 (attr1);
      MatTexture *texture = NULL;
      guint8 average[4];
      float colour[3];

      if (self->textures != NULL && phase0 != NULL && mat_phase_get_textured (phase0))
        texture = mat_texture_library_lookup (self->textures, mat_phase_get_texture (phase0));
      if (texture != NULL
          && mat_texture_get_drawn_average (texture,
                                            mat_texture_draw_alpha (texture, attr1, self->emboss_bump),
                                            average))
        {
          for (guint c = 0; c < 4; c++)
            self->swatch_rgba[c] = (guint8) ((self->swatch_rgba[c] * average[c] + 127) / 255);
          self->swatch_textured = TRUE;
        }
      for (guint c = 0; c < 3; c++)
        colour[c] = self->swatch_rgba[c] / 255.0f;
      for (guint side = 0; side < 2; side++)
        {
          const float under[3] = { swatch_under[side], swatch_under[side], swatch_under[side] };
          float drawn[3];

          /* an unknown blend index draws as mode 0 */
          phase_light_blend (blend->mode >= 0 ? (guint) blend->mode : 0, colour,
                             self->swatch_rgba[3] / 255.0f, under, drawn);
          for (guint c = 0; c < 3; c++)
            self->swatch_drawn[side][c] = (guint8) lrintf (drawn[c] * 255.0f);
        }
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static GtkWidget *
badge_new (MatMaterialRow *self,
           Badge           which)
{
  static const struct {
    const char *name;        /* the widget's name */
    const char *icon;        /* its style class in style.css; %NULL: the flags' label */
    const char *css_class;
  } kinds[N_BADGES] = {
    [BADGE_ANIMATED] = { "animated-badge", "animated-icon", "badge-icon" },
    [BADGE_TEXTURED] = { "textured-badge", "textured-icon", "badge-icon" },
    [BADGE_FLAGS] = { "flags-badge", NULL, "badge" },
    [BADGE_LINT] = { "lint-badge", "warning-icon", "warning" },
    [BADGE_ERROR] = { "error-badge", "error-icon", "error" },
  };
  GtkWidget *badge, *before = NULL;

  if (kinds[which].icon != NULL)
    {
      /* drawn by the style sheet: no GtkImage (mat-style.h) */
      badge = g_object_new (GTK_TYPE_BOX, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, NULL);
      gtk_widget_add_css_class (badge, "mat-icon");
      gtk_widget_add_css_class (badge, kinds[which].icon);
    }
  else
    {
      badge = gtk_label_new (NULL);
      gtk_widget_add_css_class (badge, "monospace");
    }
  gtk_widget_set_name (badge, kinds[which].name);
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (badge, kinds[which].css_class);
  gtk_widget_set_has_tooltip (badge, TRUE);
  g_signal_connect (badge, "query-tooltip", G_CALLBACK (query_badge_tooltip), self);

  /* in its place: after the name and the badges before it */
  for (guint b = 0; b < which; b++)
    if (self->badges[b] != NULL)
      before = self->badges[b];
  if (before == NULL)
    before = gtk_widget_get_first_child (GTK_WIDGET (self));   /* the texts */
  gtk_widget_insert_after (badge, GTK_WIDGET (self), before);
  return badge;
}

/* Shows or hides a badge, making it the first time it shows.
 * Returns: whether it shows. */
static gboolean
badge_show (MatMaterialRow *self,
            Badge           which,
            gboolean        show)
{
  if (show && self->badges[which] == NULL)
    self->badges[which] = badge_new (self, which);
  if (self->badges[which] != NULL)
    gtk_widget_set_visible (self->badges[which], show);
  return show;
}

static void
update (MatMaterialRow *self)
{
  MatMaterial *material = self->material;
  gboolean is_mat0, editable;
  const char *error;

  update_swatch (self);

  if (material == NULL)
    {
      gtk_inscription_set_text (self->name_label, "");
      gtk_inscription_set_text (self->detail_label, "");
      for (guint b = 0; b < N_BADGES; b++)
        badge_show (self, b, FALSE);
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

  badge_show (self, BADGE_ERROR, error != NULL);

  if (editable)
    {
      guint32 attr1 = mat_material_get_attr1 (material);
      g_autoptr(GPtrArray) diags = mat_material_dup_diagnostics (material);

      badge_show (self, BADGE_ANIMATED, mat_material_get_animated (material));
      badge_show (self, BADGE_TEXTURED, mat_material_get_textured (material));
      if (badge_show (self, BADGE_FLAGS, attr1 != 0))
        {
          char flags[16];

          g_snprintf (flags, sizeof flags, "%02X", attr1);
          gtk_label_set_label (GTK_LABEL (self->badges[BADGE_FLAGS]), flags);
        }
      badge_show (self, BADGE_LINT, count_lints (diags) > 0);
    }
  else
    {
      badge_show (self, BADGE_ANIMATED, FALSE);
      badge_show (self, BADGE_TEXTURED, FALSE);
      badge_show (self, BADGE_FLAGS, FALSE);
      badge_show (self, BADGE_LINT, FALSE);
    }
}

MatTextureLibrary *
mat_material_row_get_textures (MatMaterialRow *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_ROW (self), NULL);

  return self->textures;
}

void
mat_material_row_set_textures (MatMaterialRow    *self,
                               MatTextureLibrary *textures)
{
  g_return_if_fail (MAT_IS_MATERIAL_ROW (self));
  g_return_if_fail (textures == NULL || MAT_IS_TEXTURE_LIBRARY (textures));

  if (!g_set_object (&self->textures, textures))
    return;
  update_swatch (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXTURES]);
}

char *
mat_material_row_dup_swatch_tooltip (MatMaterialRow *self)
{
  int opacity;

  g_return_val_if_fail (MAT_IS_MATERIAL_ROW (self), NULL);

  if (!self->has_swatch)
    return NULL;
  opacity = (self->swatch_rgba[3] * 100 + 127) / 255;
  if (self->swatch_textured)
    /* Translators: the swatch in the material list; %02X%02X%02X is
     * the colour, %d the opacity in per cent */
    return g_strdup_printf (_("Phase 0 as the game lights it, times its texture’s average "
                              "colour: #%02X%02X%02X, opacity %d %%"),
                            self->swatch_rgba[0], self->swatch_rgba[1], self->swatch_rgba[2],
                            opacity);
  /* Translators: the swatch in the material list; %02X%02X%02X is the
   * colour, %d the opacity in per cent */
  return g_strdup_printf (_("Phase 0 as the game lights it, untextured: "
                            "#%02X%02X%02X, opacity %d %%"),
                          self->swatch_rgba[0], self->swatch_rgba[1], self->swatch_rgba[2],
                          opacity);
}

/* The swatch's place: the start margin of the text, vertically centred. */
static void
swatch_bounds (MatMaterialRow  *self,
               graphene_rect_t *bounds)
{
  graphene_rect_init (bounds, 0, (gtk_widget_get_height (GTK_WIDGET (self)) - SWATCH_SIZE) / 2.0f,
                      SWATCH_SIZE, SWATCH_SIZE);
}

static gboolean
query_swatch_tooltip (GtkWidget  *widget,
                      int         x,
                      int         y,
                      gboolean    keyboard_mode,
                      GtkTooltip *tooltip)
{
  MatMaterialRow *self = MAT_MATERIAL_ROW (widget);
  g_autofree char *text = NULL;
  graphene_rect_t bounds;

  swatch_bounds (self, &bounds);
  if (keyboard_mode || !graphene_rect_contains_point (&bounds, &GRAPHENE_POINT_INIT (x, y)))
    return FALSE;
  text = mat_material_row_dup_swatch_tooltip (self);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { (int) bounds.origin.x, (int) bounds.origin.y,
                                                        SWATCH_SIZE, SWATCH_SIZE });
  return TRUE;
}

gboolean
mat_material_row_get_swatch (MatMaterialRow *self,
                             guint8          rgba[4])
{
  g_return_val_if_fail (MAT_IS_MATERIAL_ROW (self), FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);

  memcpy (rgba, self->swatch_rgba, 4);
  return self->has_swatch;
}

gboolean
mat_material_row_get_swatch_drawn (MatMaterialRow *self,
                                   guint8          over_dark[3],
                                   guint8          over_light[3])
{
  g_return_val_if_fail (MAT_IS_MATERIAL_ROW (self), FALSE);

  if (over_dark != NULL)
    memcpy (over_dark, self->swatch_drawn[0], 3);
  if (over_light != NULL)
    memcpy (over_light, self->swatch_drawn[1], 3);
  return self->has_swatch;
}

gboolean
mat_material_row_get_emboss_bump (MatMaterialRow *self)
{
  g_return_val_if_fail (MAT_IS_MATERIAL_ROW (self), FALSE);

  return self->emboss_bump;
}

void
mat_material_row_set_emboss_bump (MatMaterialRow *self,
                                  gboolean        emboss_bump)
{
  g_return_if_fail (MAT_IS_MATERIAL_ROW (self));

  emboss_bump = !!emboss_bump;
  if (self->emboss_bump == emboss_bump)
    return;
  self->emboss_bump = emboss_bump;
  update_swatch (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMBOSS_BUMP]);
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
  g_clear_object (&self->textures);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  memset (self->badges, 0, sizeof self->badges);

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
    case PROP_TEXTURES:
      g_value_set_object (value, self->textures);
      break;
    case PROP_EMBOSS_BUMP:
      g_value_set_boolean (value, self->emboss_bump);
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
    case PROP_TEXTURES:
      mat_material_row_set_textures (self, g_value_get_object (value));
      break;
    case PROP_EMBOSS_BUMP:
      mat_material_row_set_emboss_bump (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The swatch: the lit colour as the game's blend mode leaves it over a
 * dark square (left) and a light one (right), each opaque: a translucent,
 * additive or modulating material shows two colours, an opaque one
 * one. */
static void
mat_material_row_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  MatMaterialRow *self = MAT_MATERIAL_ROW (widget);
  graphene_rect_t bounds, half;
  GskRoundedRect outline;
  GdkRGBA border = { 0, 0, 0, 0.35f };
  float widths[4] = { 1, 1, 1, 1 };
  GdkRGBA borders[4];

  GTK_WIDGET_CLASS (mat_material_row_parent_class)->snapshot (widget, snapshot);

  if (!self->has_swatch)
    return;
  swatch_bounds (self, &bounds);
  for (guint side = 0; side < 2; side++)
    {
      GdkRGBA colour = { self->swatch_drawn[side][0] / 255.0f, self->swatch_drawn[side][1] / 255.0f,
                         self->swatch_drawn[side][2] / 255.0f, 1 };

      graphene_rect_init (&half, bounds.origin.x + side * bounds.size.width / 2, bounds.origin.y,
                          bounds.size.width / 2, bounds.size.height);
      gtk_snapshot_append_color (snapshot, &colour, &half);
    }
  for (guint i = 0; i < 4; i++)
    borders[i] = border;
  gsk_rounded_rect_init_from_rect (&outline, &bounds, 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, borders);
}

static void
mat_material_row_class_init (MatMaterialRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_material_row_dispose;
  object_class->get_property = mat_material_row_get_property;
  object_class->set_property = mat_material_row_set_property;
  widget_class->snapshot = mat_material_row_snapshot;

  properties[PROP_MATERIAL] =
    g_param_spec_object ("material", NULL, NULL, MAT_TYPE_MATERIAL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXTURES] =
    g_param_spec_object ("textures", NULL, NULL, MAT_TYPE_TEXTURE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EMBOSS_BUMP] =
    g_param_spec_boolean ("emboss-bump", NULL, NULL, FALSE,
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

static void
mat_material_row_init (MatMaterialRow *self)
{
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 6);

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_swatch_tooltip), NULL);

  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_valign (text, GTK_ALIGN_CENTER);
  /* room for the swatch */
  gtk_widget_set_margin_start (text, SWATCH_SIZE + 6);
  gtk_widget_set_parent (text, GTK_WIDGET (self));
  self->name_label = GTK_INSCRIPTION (add_text (text, "material-name", NULL));
  self->detail_label = GTK_INSCRIPTION (add_text (text, "dim-label", "caption"));


  self->signals = g_signal_group_new (MAT_TYPE_MATERIAL);
  g_signal_group_connect_swapped (self->signals, "changed", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (self->signals, "notify::name", G_CALLBACK (update), self);
}
