/* mat-window-pages.c - the material pages of MatWindow and the preview
 * pane beside them
 *
 * The Phases page is in the template; the Animation and Flags pages are
 * made the first time they are shown, so that a window opens without
 * them. One MatPreview stays beside every page (win.toggle-preview shows
 * and hides it; the setting preview-visible keeps the choice). While the
 * phase table has the keyboard focus, the pane shows the phase selected
 * in it, unanimated; otherwise the block chosen in the block editor
 * plays.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat-timeline.h"
#include "mat-tooltip.h"
#include "mat-window-private.h"

enum {
  PROP_0,
  PROP_PREVIEW_VISIBLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
update_preview_source (MatWindow *self)
{
  if (self->preview == NULL)
    return;

  if (self->phase_focus != NULL
      && gtk_event_controller_focus_contains_focus (GTK_EVENT_CONTROLLER_FOCUS (self->phase_focus)))
    {
      guint selected = mat_phase_table_get_selected (self->phase_table);

      if (!self->showing_phase)
        self->track_block = mat_preview_get_block (self->preview);
      self->showing_phase = TRUE;
      mat_preview_set_block (self->preview, -1);
      mat_preview_set_phase (self->preview, selected != GTK_INVALID_LIST_POSITION ? selected : 0);
      return;
    }
  self->showing_phase = FALSE;
  if (self->block_editor != NULL)
    self->track_block = mat_block_editor_get_selected_block (self->block_editor);
  mat_preview_set_block (self->preview, self->track_block);
}

static void
timeline_scrubbed_cb (MatWindow *self,
                      guint      position)
{
  mat_preview_set_playing (self->preview, FALSE);
  mat_preview_set_time (self->preview, position);
}

MatBlockEditor *
_mat_window_ensure_animation_page (MatWindow *self)
{
  MatTimeline *timeline;

  if (self->block_editor != NULL)
    return self->block_editor;

  self->block_editor = MAT_BLOCK_EDITOR (mat_block_editor_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->block_editor), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->block_editor), TRUE);
  mat_block_editor_set_material (self->block_editor, mat_phase_table_get_material (self->phase_table));
  /* the block playing so far stays selected */
  if (!self->showing_phase && self->track_block >= 0)
    mat_block_editor_set_selected_block (self->block_editor, self->track_block);
  gtk_box_append (GTK_BOX (self->animation_page), GTK_WIDGET (self->block_editor));

  /* the block chosen in the editor plays in the preview, the timeline's
   * playhead follows it (its time and mode 3's R), and scrubbing the timeline moves the preview
   * (and pauses it) */
  timeline = mat_block_editor_get_timeline (self->block_editor);
  g_signal_connect_object (self->block_editor, "notify::selected-block",
                           G_CALLBACK (update_preview_source), self, G_CONNECT_SWAPPED);
  g_object_bind_property (self->preview, "time", timeline, "position", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->preview, "random-offset", timeline, "random-offset",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect_object (timeline, "scrubbed", G_CALLBACK (timeline_scrubbed_cb), self,
                           G_CONNECT_SWAPPED);
  update_preview_source (self);
  return self->block_editor;
}

static void
ensure_flags_page (MatWindow *self)
{
  MatMaterial *material = mat_phase_table_get_material (self->phase_table);

  if (self->flags_inspector != NULL)
    return;
  self->flags_inspector = MAT_FLAGS_INSPECTOR (mat_flags_inspector_new ());
  self->meta_editor = MAT_META_EDITOR (mat_meta_editor_new ());
  mat_flags_inspector_set_material (self->flags_inspector, material);
  mat_meta_editor_set_material (self->meta_editor, material);
  gtk_box_append (GTK_BOX (self->flags_page), GTK_WIDGET (self->flags_inspector));
  gtk_box_append (GTK_BOX (self->flags_page), GTK_WIDGET (self->meta_editor));
}

static void
material_page_shown_cb (MatWindow *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->material_stack);

  if (g_strcmp0 (name, "animation") == 0)
    _mat_window_ensure_animation_page (self);
  else if (g_strcmp0 (name, "flags") == 0)
    ensure_flags_page (self);
}

void
_mat_window_pages_set_material (MatWindow   *self,
                                MatMaterial *material)
{
  mat_phase_table_set_material (self->phase_table, material);
  if (self->block_editor != NULL)
    mat_block_editor_set_material (self->block_editor, material);
  /* the preview starts on the material's first block */
  mat_preview_set_material (self->preview, material);
  self->showing_phase = FALSE;
  self->track_block = mat_preview_get_block (self->preview);
  update_preview_source (self);
  if (self->flags_inspector != NULL)
    {
      mat_flags_inspector_set_material (self->flags_inspector, material);
      mat_meta_editor_set_material (self->meta_editor, material);
    }
}

gboolean
mat_window_get_preview_visible (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), FALSE);

  return self->preview_visible;
}

void
mat_window_set_preview_visible (MatWindow *self,
                                gboolean   visible)
{
  g_return_if_fail (MAT_IS_WINDOW (self));

  visible = !!visible;
  if (self->preview_visible == visible)
    return;
  self->preview_visible = visible;
  if (self->preview_pane != NULL)
    gtk_widget_set_visible (self->preview_pane, visible);
  if (self->preview_toggle != NULL)
    mat_tooltip_set_text (GTK_WIDGET (self->preview_toggle),
                          visible ? _("Hide the Preview (F9)") : _("Show the Preview (F9)"));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PREVIEW_VISIBLE]);
}

/* The window's one property is the pane's. */
static void
mat_window_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  MatWindow *self = MAT_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PREVIEW_VISIBLE:
      g_value_set_boolean (value, mat_window_get_preview_visible (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_window_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  MatWindow *self = MAT_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PREVIEW_VISIBLE:
      mat_window_set_preview_visible (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The pane's width beside the pages. */
#define PANE_WIDTH 280

static gboolean
apply_fit (gpointer data)
{
  MatWindow *self = data;
  gboolean beside = self->pane_beside;

  self->fit_source = 0;
  if (self->preview_paned == NULL
      || gtk_orientable_get_orientation (GTK_ORIENTABLE (self->preview_paned))
      == (beside ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL))
    return G_SOURCE_REMOVE;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->preview_paned),
                                  beside ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL);
  /* beside: a column as wide as the pane, scrolling down when short;
   * under: a strip as tall as the controls, the view beside them */
  gtk_widget_set_size_request (self->preview_pane, beside ? PANE_WIDTH : -1, -1);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->preview_pane), GTK_POLICY_NEVER,
                                  beside ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->preview),
                                  beside ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
  /* the pages get what the pane does not ask for */
  g_object_set (self->preview_paned, "position-set", FALSE, NULL);
  return G_SOURCE_REMOVE;
}

void
_mat_window_pages_fit (MatWindow *self,
                       int        width)
{
  int need;

  /* the sidebar, the phase table's columns with the page's margins, and
   * the pane, each with a paned's handle */
  need = (gtk_widget_get_visible (self->sidebar) ? gtk_paned_get_position (self->paned) + 1 : 0)
         + mat_phase_table_get_columns_width (self->phase_table)
         + gtk_widget_get_margin_start (GTK_WIDGET (self->phase_table))
         + gtk_widget_get_margin_end (GTK_WIDGET (self->phase_table))
         + 1 + PANE_WIDTH;
  self->pane_beside = width >= need;
  /* not while the window is being laid out: at once after it */
  if (self->fit_source == 0
      && gtk_orientable_get_orientation (GTK_ORIENTABLE (self->preview_paned))
         != (self->pane_beside ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL))
    self->fit_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, apply_fit, self, NULL);
}

void
_mat_window_class_pages_init (MatWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = mat_window_get_property;
  object_class->set_property = mat_window_set_property;
  properties[PROP_PREVIEW_VISIBLE] =
    g_param_spec_boolean ("preview-visible", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_bind_template_callback (widget_class, material_page_shown_cb);
  gtk_widget_class_install_property_action (widget_class, "win.toggle-preview", "preview-visible");
}

void
_mat_window_pages_init (MatWindow *self)
{
  g_object_bind_property (self->phase_table, "textures",
                          self->preview, "textures", G_BINDING_SYNC_CREATE);
  self->track_block = -1;

  self->phase_focus = gtk_event_controller_focus_new ();
  g_signal_connect_object (self->phase_focus, "notify::contains-focus",
                           G_CALLBACK (update_preview_source), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->phase_table), self->phase_focus);
  g_signal_connect_object (self->phase_table, "notify::selected",
                           G_CALLBACK (update_preview_source), self, G_CONNECT_SWAPPED);
  update_preview_source (self);
}

void
_mat_window_pages_dispose (MatWindow *self)
{
  /* they went with their pages */
  self->block_editor = NULL;
  self->flags_inspector = NULL;
  self->meta_editor = NULL;
  self->phase_focus = NULL;
  g_clear_handle_id (&self->fit_source, g_source_remove);
}
