/* mat-drop-down.c - a choice among a few short texts, its menu made when
 * first opened
 *
 * A toggle button showing the chosen text at its start and an arrow at
 * its end, as a GtkDropDown's; its menu is a GtkPopoverMenu of radio
 * items on the "dropdown.selected" property action, made when the button
 * first opens and kept in step with the model after.
 */
#include "config.h"

#include "mat-drop-down.h"
#include "mat-style.h"

struct _MatDropDown
{
  GtkWidget   parent_instance;

  GtkWidget  *button;
  GtkLabel   *label;
  GtkWidget  *popover;  /* made when the button first opens */
  GListModel *model;
  gulong      items_changed_id;
  guint       selected;
  GMenu      *menu;     /* made when the button first opens */
};

G_DEFINE_FINAL_TYPE (MatDropDown, mat_drop_down, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MODEL,
  PROP_SELECTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static guint
n_items (MatDropDown *self)
{
  return self->model != NULL ? g_list_model_get_n_items (self->model) : 0;
}

/* The text of the model's @position: a GtkStringObject's string */
static char *
dup_text (MatDropDown *self,
          guint        position)
{
  g_autoptr(GObject) item = NULL;

  if (position >= n_items (self))
    return NULL;
  item = g_list_model_get_item (self->model, position);
  if (GTK_IS_STRING_OBJECT (item))
    return g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (item)));
  return NULL;
}

static void
update_label (MatDropDown *self)
{
  g_autofree char *text = dup_text (self, self->selected);

  gtk_label_set_label (self->label, text != NULL ? text : "");
}

/* A menu label reads "_" as the mark of a mnemonic: doubled, it is one. */
static char *
escape_underlines (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, "_", -1);

  return g_strjoinv ("__", parts);
}

static void
fill_menu (MatDropDown *self)
{
  guint n = n_items (self);

  g_menu_remove_all (self->menu);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = dup_text (self, i);
      g_autofree char *label = escape_underlines (text != NULL ? text : "");
      g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "dropdown.selected",
                                               g_variant_new_uint32 (i));
      g_menu_append_item (self->menu, item);
    }
}

static void
popover_closed_cb (MatDropDown *self)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->button), FALSE);
}

static void
toggled_cb (MatDropDown *self)
{
  if (!gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->button)))
    {
      if (self->popover != NULL)
        gtk_popover_popdown (GTK_POPOVER (self->popover));
      return;
    }
  if (self->popover == NULL)
    {
      self->menu = g_menu_new ();
      fill_menu (self);
      self->popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (self->menu));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->popover), FALSE);
      gtk_widget_set_parent (self->popover, GTK_WIDGET (self));
      g_signal_connect_swapped (self->popover, "closed", G_CALLBACK (popover_closed_cb), self);
    }
  gtk_popover_popup (GTK_POPOVER (self->popover));
}

/* Sets the choice, or none (GTK_INVALID_LIST_POSITION) when @position is
 * outside the model, as GtkDropDown does. */
static void
set_selected (MatDropDown *self,
              guint        position)
{
  if (position >= n_items (self))
    position = GTK_INVALID_LIST_POSITION;
  if (self->selected == position)
    return;
  self->selected = position;
  update_label (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

static void
items_changed_cb (MatDropDown *self,
                  guint        position,
                  guint        removed,
                  guint        added)
{
  guint n = n_items (self);

  if (self->menu != NULL)
    fill_menu (self);
  if (self->selected != GTK_INVALID_LIST_POSITION && self->selected >= n)
    set_selected (self, n > 0 ? n - 1 : GTK_INVALID_LIST_POSITION);
  else
    update_label (self);
}

GtkWidget *
mat_drop_down_new (GListModel *model)
{
  g_return_val_if_fail (model == NULL || G_IS_LIST_MODEL (model), NULL);

  return g_object_new (MAT_TYPE_DROP_DOWN, "model", model, NULL);
}

GListModel *
mat_drop_down_get_model (MatDropDown *self)
{
  g_return_val_if_fail (MAT_IS_DROP_DOWN (self), NULL);

  return self->model;
}

/* A new model selects its first item, as GtkDropDown's does. */
void
mat_drop_down_set_model (MatDropDown *self,
                         GListModel  *model)
{
  g_return_if_fail (MAT_IS_DROP_DOWN (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (self->model == model)
    return;
  if (self->model != NULL)
    g_clear_signal_handler (&self->items_changed_id, self->model);
  g_set_object (&self->model, model);
  if (self->model != NULL)
    self->items_changed_id = g_signal_connect_swapped (self->model, "items-changed",
                                                       G_CALLBACK (items_changed_cb), self);
  if (self->menu != NULL)
    fill_menu (self);

  g_object_freeze_notify (G_OBJECT (self));
  self->selected = GTK_INVALID_LIST_POSITION;
  set_selected (self, 0);
  update_label (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
  g_object_thaw_notify (G_OBJECT (self));
}

guint
mat_drop_down_get_selected (MatDropDown *self)
{
  g_return_val_if_fail (MAT_IS_DROP_DOWN (self), GTK_INVALID_LIST_POSITION);

  return self->selected;
}

void
mat_drop_down_set_selected (MatDropDown *self,
                            guint        position)
{
  g_return_if_fail (MAT_IS_DROP_DOWN (self));

  set_selected (self, position);
}

static void
mat_drop_down_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  gtk_widget_measure (MAT_DROP_DOWN (widget)->button, orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
}

/* A popover is placed by its parent as it is allocated. */
static void
mat_drop_down_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  MatDropDown *self = MAT_DROP_DOWN (widget);

  gtk_widget_size_allocate (self->button, &(GtkAllocation) { 0, 0, width, height }, baseline);
  if (self->popover != NULL)
    {
      gtk_widget_set_size_request (self->popover, width, -1);
      gtk_popover_present (GTK_POPOVER (self->popover));
    }
}

static gboolean
mat_drop_down_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (MAT_DROP_DOWN (widget)->button);
}

static void
mat_drop_down_dispose (GObject *object)
{
  MatDropDown *self = MAT_DROP_DOWN (object);

  if (self->model != NULL)
    g_clear_signal_handler (&self->items_changed_id, self->model);
  g_clear_object (&self->model);
  g_clear_pointer (&self->popover, gtk_widget_unparent);
  g_clear_pointer (&self->button, gtk_widget_unparent);
  g_clear_object (&self->menu);

  G_OBJECT_CLASS (mat_drop_down_parent_class)->dispose (object);
}

static void
mat_drop_down_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  MatDropDown *self = MAT_DROP_DOWN (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_SELECTED:
      g_value_set_uint (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_drop_down_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  MatDropDown *self = MAT_DROP_DOWN (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      mat_drop_down_set_model (self, g_value_get_object (value));
      break;
    case PROP_SELECTED:
      mat_drop_down_set_selected (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_drop_down_class_init (MatDropDownClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_drop_down_dispose;
  object_class->get_property = mat_drop_down_get_property;
  object_class->set_property = mat_drop_down_set_property;
  widget_class->measure = mat_drop_down_measure;
  widget_class->size_allocate = mat_drop_down_size_allocate;
  widget_class->grab_focus = mat_drop_down_grab_focus;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED] =
    g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT, GTK_INVALID_LIST_POSITION,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* the menu's radio items */
  gtk_widget_class_install_property_action (widget_class, "dropdown.selected", "selected");

  gtk_widget_class_set_css_name (widget_class, "matdropdown");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_COMBO_BOX);
}

static void
mat_drop_down_init (MatDropDown *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  /* drawn by the style sheet: no GtkImage (mat-style.h) */
  GtkWidget *arrow = g_object_new (GTK_TYPE_BOX, "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                                   "valign", GTK_ALIGN_CENTER, NULL);

  mat_style_ensure ();
  gtk_widget_add_css_class (arrow, "mat-icon");
  gtk_widget_add_css_class (arrow, "arrow-icon");

  self->selected = GTK_INVALID_LIST_POSITION;

  /* like a GtkDropDown's button: the text at the start, the arrow at the end */
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->label, 0);
  gtk_label_set_ellipsize (self->label, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->label), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->label));
  gtk_box_append (GTK_BOX (box), arrow);

  self->button = gtk_toggle_button_new ();
  gtk_button_set_child (GTK_BUTTON (self->button), box);
  g_signal_connect_swapped (self->button, "toggled", G_CALLBACK (toggled_cb), self);
  gtk_widget_set_parent (self->button, GTK_WIDGET (self));
}
