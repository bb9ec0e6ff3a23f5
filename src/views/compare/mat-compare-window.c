/* mat-compare-window.c - the Compare window: materials and libraries
 *
 * The window owns no state of its own but which library Undo and Redo
 * act on: the view and the library diff say which library each copy
 * changed ("edited"), and the buttons and shortcuts follow that
 * library's MatHistory (can-undo, can-redo, the step's label) through a
 * GSignalGroup. The library the library diff compares with is offered
 * to the view as a reference, never copied into. The view's textures
 * follow the main window's (a binding the window drops when it goes).
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat-compare-window-private.h"
#include "mat-style.h"
#include "mat-tooltip.h"

#define RESOURCE_PREFIX "/io/github/parkan/MatEdit/"

struct _MatCompareWindow
{
  GtkWindow       parent_instance;

  MatLibrary     *library;
  MatLibrary     *undo_library;
  MatLibrary     *reference;        /* the diff's other library, in the view */
  GSignalGroup   *history_signals;
  GBinding       *textures_binding; /* owner's "textures" -> the view's */

  /* template */
  GtkWidget      *undo_button;
  GtkWidget      *redo_button;
  GtkWidget      *switcher;
  GtkStack       *stack;
  MatCompareView *view;
  MatLibraryDiff *library_diff;
};

G_DEFINE_FINAL_TYPE (MatCompareWindow, mat_compare_window, GTK_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_LIBRARY,
  PROP_UNDO_LIBRARY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static MatHistory *
undo_history (MatCompareWindow *self)
{
  return self->undo_library != NULL ? mat_library_get_history (self->undo_library) : NULL;
}

static void
update_undo (MatCompareWindow *self)
{
  MatHistory *history = undo_history (self);
  const char *undo = history != NULL ? mat_history_get_undo_label (history) : NULL;
  const char *redo = history != NULL ? mat_history_get_redo_label (history) : NULL;
  g_autofree char *undo_tip = NULL;
  g_autofree char *redo_tip = NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo",
                                 history != NULL && mat_history_get_can_undo (history));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.redo",
                                 history != NULL && mat_history_get_can_redo (history));
  /* Translators: the Undo button's tooltip with the step it undoes */
  undo_tip = undo != NULL ? g_strdup_printf (_("Undo “%s” (Ctrl+Z)"), undo) : g_strdup (_("Undo (Ctrl+Z)"));
  /* Translators: the Redo button's tooltip with the step it repeats */
  redo_tip = redo != NULL ? g_strdup_printf (_("Redo “%s” (Ctrl+Shift+Z)"), redo)
                          : g_strdup (_("Redo (Ctrl+Shift+Z)"));
  mat_tooltip_set_text (self->undo_button, undo_tip);
  mat_tooltip_set_text (self->redo_button, redo_tip);
}

static void
set_undo_library (MatCompareWindow *self,
                  MatLibrary       *library)
{
  if (!g_set_object (&self->undo_library, library))
    return;
  g_signal_group_set_target (self->history_signals,
                             library != NULL ? mat_library_get_history (library) : NULL);
  update_undo (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNDO_LIBRARY]);
}

static void
on_edited (MatCompareWindow *self,
           MatLibrary       *library)
{
  set_undo_library (self, library);
}

/* The library diff opened another library: the view offers it too. */
static void
on_other_library (MatCompareWindow *self)
{
  MatLibrary *other = mat_library_diff_get_other (self->library_diff);

  if (self->reference != NULL && self->reference != other)
    mat_compare_view_remove_library (self->view, self->reference);
  g_set_object (&self->reference, other);
  /* named by its file among the view's libraries, as they are: one name
   * for it in the choosers and the same folders as the others' */
  if (other != NULL)
    mat_compare_view_add_reference_library (self->view, other,
                                            mat_library_get_file (other) != NULL
                                            ? NULL : mat_library_diff_get_other_title (self->library_diff));
}

/* "Compare" on a row of the library diff: the other library's material
 * in A, this one's in B, whole materials. */
static void
on_compare (MatCompareWindow *self,
            MatMaterial      *theirs,
            MatMaterial      *mine)
{
  mat_compare_view_set_slot (self->view, MAT_COMPARE_SLOT_A, theirs, -1, 0, 0);
  mat_compare_view_set_slot (self->view, MAT_COMPARE_SLOT_B, mine, -1, 0, 0);
  mat_compare_view_set_page (self->view, "material");
  gtk_stack_set_visible_child_name (self->stack, "materials");
}

static void
undo_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatHistory *history = undo_history (MAT_COMPARE_WINDOW (widget));

  if (history != NULL)
    mat_history_undo (history);
}

static void
redo_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatHistory *history = undo_history (MAT_COMPARE_WINDOW (widget));

  if (history != NULL)
    mat_history_redo (history);
}

static void
close_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
show_page_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  MatCompareWindow *self = MAT_COMPARE_WINDOW (widget);
  const char *page = g_variant_get_string (parameter, NULL);

  if (g_str_equal (page, "materials") || g_str_equal (page, "libraries"))
    gtk_stack_set_visible_child_name (self->stack, page);
}

static void
mat_compare_window_constructed (GObject *object)
{
  MatCompareWindow *self = MAT_COMPARE_WINDOW (object);

  G_OBJECT_CLASS (mat_compare_window_parent_class)->constructed (object);

  mat_library_diff_set_library (self->library_diff, self->library);
  set_undo_library (self, self->library);
  update_undo (self);
}

static void
unbind_textures (MatCompareWindow *self)
{
  if (self->textures_binding != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->textures_binding),
                                    (gpointer *) &self->textures_binding);
      g_binding_unbind (self->textures_binding);
      self->textures_binding = NULL;
    }
}

static void
mat_compare_window_dispose (GObject *object)
{
  MatCompareWindow *self = MAT_COMPARE_WINDOW (object);

  unbind_textures (self);
  if (self->history_signals != NULL)
    g_signal_group_set_target (self->history_signals, NULL);
  g_clear_object (&self->history_signals);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_COMPARE_WINDOW);
  g_clear_object (&self->reference);
  g_clear_object (&self->undo_library);
  g_clear_object (&self->library);

  G_OBJECT_CLASS (mat_compare_window_parent_class)->dispose (object);
}

static void
mat_compare_window_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  MatCompareWindow *self = MAT_COMPARE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_LIBRARY: g_value_set_object (value, self->library); break;
    case PROP_UNDO_LIBRARY: g_value_set_object (value, self->undo_library); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_compare_window_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  MatCompareWindow *self = MAT_COMPARE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_LIBRARY: g_set_object (&self->library, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_compare_window_class_init (MatCompareWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = mat_compare_window_constructed;
  object_class->dispose = mat_compare_window_dispose;
  object_class->get_property = mat_compare_window_get_property;
  object_class->set_property = mat_compare_window_set_property;

  properties[PROP_LIBRARY] =
    g_param_spec_object ("library", NULL, NULL, MAT_TYPE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNDO_LIBRARY] =
    g_param_spec_object ("undo-library", NULL, NULL, MAT_TYPE_LIBRARY,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (MAT_TYPE_COMPARE_VIEW);
  g_type_ensure (MAT_TYPE_LIBRARY_DIFF);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "mat-compare-window.ui");
  gtk_widget_class_bind_template_child (widget_class, MatCompareWindow, undo_button);
  gtk_widget_class_bind_template_child (widget_class, MatCompareWindow, redo_button);
  gtk_widget_class_bind_template_child (widget_class, MatCompareWindow, switcher);
  gtk_widget_class_bind_template_child (widget_class, MatCompareWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, MatCompareWindow, view);
  gtk_widget_class_bind_template_child (widget_class, MatCompareWindow, library_diff);

  /* the main window's names, so the application's accelerators reach
   * them too; the bindings make them work in any case */
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_activated);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, redo_activated);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_activated);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_activated);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "win.undo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Z, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_y, GDK_CONTROL_MASK, "win.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "win.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.close", NULL);
}

static void
mat_compare_window_init (MatCompareWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  mat_style_ensure ();

  self->history_signals = g_signal_group_new (MAT_TYPE_HISTORY);
  g_signal_group_connect_swapped (self->history_signals, "notify::can-undo",
                                  G_CALLBACK (update_undo), self);
  g_signal_group_connect_swapped (self->history_signals, "notify::can-redo",
                                  G_CALLBACK (update_undo), self);
  g_signal_group_connect_swapped (self->history_signals, "notify::undo-label",
                                  G_CALLBACK (update_undo), self);
  g_signal_group_connect_swapped (self->history_signals, "notify::redo-label",
                                  G_CALLBACK (update_undo), self);

  g_signal_connect_object (self->view, "edited", G_CALLBACK (on_edited), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->library_diff, "edited", G_CALLBACK (on_edited), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->library_diff, "notify::other", G_CALLBACK (on_other_library),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->library_diff, "compare", G_CALLBACK (on_compare), self,
                           G_CONNECT_SWAPPED);
}

MatCompareWindow *
mat_compare_window_new (GtkApplication *application,
                        MatLibrary     *library)
{
  g_return_val_if_fail (application == NULL || GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (library == NULL || MAT_IS_LIBRARY (library), NULL);

  return g_object_new (MAT_TYPE_COMPARE_WINDOW,
                       "application", application,
                       "library", library,
                       NULL);
}

MatLibrary *
mat_compare_window_get_library (MatCompareWindow *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_WINDOW (self), NULL);
  return self->library;
}

MatLibrary *
mat_compare_window_get_undo_library (MatCompareWindow *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_WINDOW (self), NULL);
  return self->undo_library;
}

MatCompareView *
mat_compare_window_get_view (MatCompareWindow *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_WINDOW (self), NULL);
  return self->view;
}

MatLibraryDiff *
mat_compare_window_get_library_diff (MatCompareWindow *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_WINDOW (self), NULL);
  return self->library_diff;
}

const char *
mat_compare_window_get_page (MatCompareWindow *self)
{
  g_return_val_if_fail (MAT_IS_COMPARE_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

void
mat_compare_window_follow_textures (MatCompareWindow *self,
                                    GObject          *owner)
{
  g_return_if_fail (MAT_IS_COMPARE_WINDOW (self));
  g_return_if_fail (owner == NULL || G_IS_OBJECT (owner));

  unbind_textures (self);
  if (owner == NULL)
    return;
  self->textures_binding = g_object_bind_property (owner, "textures", self->view, "textures",
                                                   G_BINDING_SYNC_CREATE);
  /* the binding also goes when the owner does */
  g_object_add_weak_pointer (G_OBJECT (self->textures_binding), (gpointer *) &self->textures_binding);
}

GtkWidget *
mat_compare_window_get_test_widget (MatCompareWindow *self,
                                    const char       *name)
{
  g_return_val_if_fail (MAT_IS_COMPARE_WINDOW (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (g_str_equal (name, "undo-button"))
    return self->undo_button;
  if (g_str_equal (name, "redo-button"))
    return self->redo_button;
  if (g_str_equal (name, "switcher"))
    return self->switcher;
  return NULL;
}
