/* mat-window-batch.c - several materials selected in the list
 *
 * Shift and Ctrl click, Ctrl+A (win.select-all) select several rows;
 * Escape in the list (win.select-one) or a plain click goes back to one.
 * The first material selected, in the list's order, is the one the pages
 * show; with it the others make a MatBatch: an edit in the pages goes to
 * all of them in one undo step, and the fields where they hold something
 * else are marked. A bar over the pages says how many are selected and
 * offers the whole of a part of the one shown for all of them (win.apply-*),
 * copy, export and delete, which act on every material selected.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat0-flags.h"
#include "nres.h"

#include "mat-dialogs.h"
#include "mat-revealer.h"
#include "mat-tooltip.h"
#include "mat-window-private.h"

/* ---- the batch ---------------------------------------------------------- */

static gboolean
same_batch (MatBatch    *batch,
            MatMaterial *leader,
            GPtrArray   *selected)
{
  MatMaterial * const *others;
  guint n_others, k = 0;

  if (batch == NULL || mat_batch_get_leader (batch) != leader)
    return FALSE;
  others = mat_batch_get_others (batch, &n_others);
  if (n_others + 1 != selected->len)
    return FALSE;
  for (guint i = 0; i < selected->len; i++)
    {
      MatMaterial *material = g_ptr_array_index (selected, i);

      if (material == leader)
        continue;
      if (k >= n_others || others[k++] != material)
        return FALSE;
    }
  return TRUE;
}

static void
update_bar (MatWindow *self)
{
  g_autofree char *text = NULL;
  guint n;

  if (self->batch == NULL)
    {
      gtk_revealer_set_reveal_child (self->batch_revealer, FALSE);
      return;
    }
  n = mat_batch_get_n_materials (self->batch);
  /* Translators: the bar over the pages while several materials are
   * selected; %u is their number, always 2 or more */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u materials selected: an edit goes to all; marked fields differ",
                                       "%u materials selected: an edit goes to all; marked fields differ",
                                       n), n);
  gtk_label_set_label (self->batch_label, text);
  mat_tooltip_set_text (GTK_WIDGET (self->batch_label), text);
  gtk_revealer_set_reveal_child (self->batch_revealer, TRUE);
}

void
_mat_window_batch_update (MatWindow   *self,
                          MatMaterial *material)
{
  g_autoptr(GPtrArray) selected = NULL;
  g_autoptr(GPtrArray) others = NULL;

  if (material == NULL || !mat_material_get_editable (material) ||
      _mat_window_sidebar_get_n_selected (self) < 2)
    {
      if (self->batch != NULL)
        {
          g_clear_object (&self->batch);
          _mat_window_pages_set_batch (self, NULL);
        }
      update_bar (self);
      _mat_window_actions_update (self);
      return;
    }

  selected = _mat_window_sidebar_dup_selected (self);
  if (same_batch (self->batch, material, selected))
    return;

  others = g_ptr_array_sized_new (selected->len);
  for (guint i = 0; i < selected->len; i++)
    if (g_ptr_array_index (selected, i) != material)
      g_ptr_array_add (others, g_ptr_array_index (selected, i));
  g_clear_object (&self->batch);
  self->batch = mat_batch_new (material, (MatMaterial * const *) others->pdata, others->len);
  _mat_window_pages_set_batch (self, self->batch);
  update_bar (self);
  _mat_window_actions_update (self);
}

/* ---- selecting ---------------------------------------------------------- */

static void
select_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  if (self->library == NULL)
    return;
  gtk_selection_model_select_all (GTK_SELECTION_MODEL (self->selection));
}

static void
select_one_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  MatMaterial *shown = _mat_window_sidebar_get_selected (self);

  if (shown != NULL)
    mat_window_select_material (self, shown);
}

/* ---- the whole of a part, for all --------------------------------------- */

static void
apply (MatWindow      *self,
       const MatApply *what)
{
  g_autoptr(GError) error = NULL;

  if (self->batch == NULL)
    return;
  if (!mat_batch_apply (self->batch, what, &error))
    _mat_window_show_error (self, _("Could Not Change the Selected Materials"), error->message);
}

static guint
selected_phase (MatWindow *self)
{
  guint phase = mat_phase_table_get_selected (self->phase_table);

  return phase != GTK_INVALID_LIST_POSITION ? phase : 0;
}

static void
apply_flags_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  MatApply what = { .kind = MAT_APPLY_ATTR1_BITS, .mask = G_MAXUINT32 };

  apply (MAT_WINDOW (widget), &what);
}

static void
apply_blend_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  MatApply what = { .kind = MAT_APPLY_ATTR1_BITS, .mask = MAT0_FLAG_NIBBLE_MASK };

  apply (MAT_WINDOW (widget), &what);
}

static void
apply_phase_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  MatApply what = { .kind = MAT_APPLY_PHASE, .index = selected_phase (self) };

  apply (self, &what);
}

static void
apply_group_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  gint32 group = g_variant_get_int32 (parameter);
  MatApply what = { .kind = MAT_APPLY_GROUP, .index = selected_phase (self) };

  if (group < 0 || group >= MAT0_N_GROUPS)
    return;
  what.group = (Mat0ColourGroup) group;
  apply (self, &what);
}

static void
apply_texture_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  MatApply what = { .kind = MAT_APPLY_TEXTURE, .index = selected_phase (self) };

  apply (self, &what);
}

/* The four metadata values the shown material's version stores, one step. */
static void
apply_meta_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  MatMaterial *leader = self->batch != NULL ? mat_batch_get_leader (self->batch) : NULL;
  MatHistory *history;
  g_autoptr(GError) error = NULL;
  gboolean stored[MAT0_N_META];

  if (leader == NULL || self->library == NULL)
    return;
  stored[MAT0_META_A] = stored[MAT0_META_B] = mat_material_has_meta_ab (leader);
  stored[MAT0_META_C] = mat_material_has_meta_c (leader);
  stored[MAT0_META_D] = mat_material_has_meta_d (leader);

  history = mat_library_get_history (self->library);
  mat_history_begin_group (history, NULL);
  for (guint m = 0; m < MAT0_N_META && error == NULL; m++)
    {
      MatApply what = { .kind = MAT_APPLY_META, .meta = (Mat0MetaId) m };

      if (stored[m])
        mat_batch_apply (self->batch, &what, &error);
    }
  mat_history_end_group (history);
  if (error != NULL)
    _mat_window_show_error (self, _("Could Not Change the Selected Materials"), error->message);
}

/* ---- deleting ----------------------------------------------------------- */

typedef struct {
  MatWindow  *self;
  MatLibrary *library;
  GPtrArray  *materials;
  gboolean    from_list;
} DeleteMany;

static void
delete_many_free (DeleteMany *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->library);
  g_clear_pointer (&op->materials, g_ptr_array_unref);
  g_free (op);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DeleteMany, delete_many_free)

enum {
  DELETE_CANCEL,
  DELETE_CONFIRM,
};

static void
delete_chosen_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(DeleteMany) op = user_data;
  MatWindow *self = op->self;
  g_autofree char *text = NULL;
  guint n;

  if (mat_dialogs_choose_finish (result) != DELETE_CONFIRM || self->library != op->library)
    return;

  self->deleting = TRUE;
  n = mat_library_delete_materials (op->library, (MatMaterial * const *) op->materials->pdata,
                                    op->materials->len);
  self->deleting = FALSE;
  if (n == 0)
    return;
  if (op->from_list)
    gtk_widget_grab_focus (GTK_WIDGET (self->list_view));

  /* Translators: the banner after deleting several materials at once */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Deleted %u material", "Deleted %u materials", n), n);
  _mat_window_actions_show_deleted (self, text);
}

void
_mat_window_batch_delete (MatWindow *self)
{
  const char *buttons[] = { _("_Cancel"), _("_Delete"), NULL };
  g_autoptr(GPtrArray) selected = _mat_window_sidebar_dup_selected (self);
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  DeleteMany *op;
  guint n = 0, kept = 0;

  op = g_new0 (DeleteMany, 1);
  op->materials = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < selected->len; i++)
    {
      MatMaterial *material = g_ptr_array_index (selected, i);

      if (mat_material_get_type_id (material) == NRES_TYPE_MAT0)
        {
          g_ptr_array_add (op->materials, g_object_ref (material));
          n++;
        }
      else
        kept++;
    }
  if (n == 0)
    {
      delete_many_free (op);
      return;
    }
  op->self = g_object_ref (self);
  op->library = g_object_ref (self->library);
  op->from_list = focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->list_view));

  /* Translators: the question before deleting several materials */
  heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Delete %u Material?", "Delete %u Materials?", n), n);
  if (kept > 0)
    /* Translators: %u entries of other types (textures...) are selected too */
    body = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "They leave the library with their phases and animation blocks; %u entry of another type stays. Undo brings them back.",
                                         "They leave the library with their phases and animation blocks; %u entries of other types stay. Undo brings them back.",
                                         kept), kept);
  else
    body = g_strdup (_("They leave the library with their phases and animation blocks. Undo brings them back."));
  mat_dialogs_choose (GTK_WINDOW (self), heading, body, buttons, DELETE_CANCEL, DELETE_CANCEL,
                      DELETE_CONFIRM, self->dialogs, delete_chosen_cb, op);
}

/* ---- the window --------------------------------------------------------- */

void
_mat_window_class_batch_init (MatWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.select-all", NULL, select_all_action);
  gtk_widget_class_install_action (widget_class, "win.select-one", NULL, select_one_action);
  gtk_widget_class_install_action (widget_class, "win.apply-flags", NULL, apply_flags_action);
  gtk_widget_class_install_action (widget_class, "win.apply-blend", NULL, apply_blend_action);
  gtk_widget_class_install_action (widget_class, "win.apply-phase", NULL, apply_phase_action);
  gtk_widget_class_install_action (widget_class, "win.apply-group", "i", apply_group_action);
  gtk_widget_class_install_action (widget_class, "win.apply-texture", NULL, apply_texture_action);
  gtk_widget_class_install_action (widget_class, "win.apply-meta", NULL, apply_meta_action);
}

void
_mat_window_batch_init (MatWindow *self)
{
  mat_revealer_skip_concealed (self->batch_revealer);
  gtk_menu_button_set_create_popup_func (self->batch_apply_button, _mat_window_menu_button_create_popup,
                                         self->batch_menu, NULL);
}

void
_mat_window_batch_dispose (MatWindow *self)
{
  g_clear_object (&self->batch);
}
