/* mat-window-actions.c - the window's actions (win.*) and when they
 * are enabled; menus, buttons and shortcuts all go through them */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "nres.h"

#include "mat-compare-view.h"
#include "mat-compare-window.h"
#include "mat-texture-window.h"
#include "mat-dialogs.h"
#include "mat-name-dialog.h"
#include "mat-window-private.h"

/* Enabled or not */

void
_mat_window_actions_update (MatWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  MatHistory *history = self->library != NULL ? mat_library_get_history (self->library) : NULL;
  MatMaterial *material = self->shown;
  gboolean have = self->library != NULL;
  gboolean is_mat0 = material != NULL && mat_material_get_type_id (material) == NRES_TYPE_MAT0;

  gtk_widget_action_set_enabled (widget, "win.save", have && !self->saving);
  gtk_widget_action_set_enabled (widget, "win.save-as", have && !self->saving);
  gtk_widget_action_set_enabled (widget, "win.undo", history != NULL && mat_history_get_can_undo (history));
  gtk_widget_action_set_enabled (widget, "win.redo", history != NULL && mat_history_get_can_redo (history));
  gtk_widget_action_set_enabled (widget, "win.find", have);
  gtk_widget_action_set_enabled (widget, "win.new-material", have);
  gtk_widget_action_set_enabled (widget, "win.duplicate",
                                 have && material != NULL && mat_material_get_editable (material));
  gtk_widget_action_set_enabled (widget, "win.rename", have && is_mat0);
  gtk_widget_action_set_enabled (widget, "win.compare", have);
  gtk_widget_action_set_enabled (widget, "win.delete", have && is_mat0);
  gtk_widget_action_set_enabled (widget, "win.show-lints", have);
  gtk_widget_action_set_enabled (widget, "win.textures", have);
  gtk_widget_action_set_enabled (widget, "win.undo-delete",
                                 have && gtk_revealer_get_reveal_child (self->deleted_revealer));
  /* several selected (mat-window-batch.c) */
  gtk_widget_action_set_enabled (widget, "win.select-all",
                                 have && g_list_model_get_n_items (G_LIST_MODEL (self->selection)) > 0);
  gtk_widget_action_set_enabled (widget, "win.select-one", self->batch != NULL);
  gtk_widget_action_set_enabled (widget, "win.apply-flags", self->batch != NULL);
  gtk_widget_action_set_enabled (widget, "win.apply-blend", self->batch != NULL);
  gtk_widget_action_set_enabled (widget, "win.apply-phase", self->batch != NULL);
  gtk_widget_action_set_enabled (widget, "win.apply-group", self->batch != NULL);
  gtk_widget_action_set_enabled (widget, "win.apply-texture", self->batch != NULL);
  gtk_widget_action_set_enabled (widget, "win.apply-meta", self->batch != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->lint_toggle), have);
  gtk_widget_set_visible (self->sidebar, have);
  if (!have)
    gtk_toggle_button_set_active (self->lint_toggle, FALSE);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  _mat_window_save (self, FALSE);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  _mat_window_save_as (MAT_WINDOW (widget), FALSE);
}

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  if (self->library != NULL)
    mat_history_undo (mat_library_get_history (self->library));
}

static void
redo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  if (self->library != NULL)
    mat_history_redo (mat_library_get_history (self->library));
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

static void
name_dialog_done_cb (MatWindow   *self,
                     MatMaterial *material)
{
  mat_window_select_material (self, material);
}

static void
open_name_dialog (MatWindow         *self,
                  MatNameDialogMode  mode)
{
  MatNameDialog *dialog;

  if (self->library == NULL)
    return;

  dialog = mat_name_dialog_present (GTK_WINDOW (self), self->library, mode,
                                    mode == MAT_NAME_DIALOG_NEW ? NULL : self->shown);
  g_signal_connect_object (dialog, "done", G_CALLBACK (name_dialog_done_cb), self, G_CONNECT_SWAPPED);
}

static void
new_material_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  open_name_dialog (MAT_WINDOW (widget), MAT_NAME_DIALOG_NEW);
}

static void
duplicate_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  if (self->shown != NULL)
    open_name_dialog (self, MAT_NAME_DIALOG_DUPLICATE);
}

/* A window comparing two phases, blocks or whole materials (of this
 * library or of the libraries of two windows), and this library with
 * another file. */
static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GtkWindow *window;
  MatCompareView *view;
  g_autofree char *title = NULL;

  if (self->library == NULL)
    return;

  window = GTK_WINDOW (mat_compare_window_new (app, self->library));
  view = mat_compare_window_get_view (MAT_COMPARE_WINDOW (window));
  /* this window's library first, then every other open one */
  for (int pass = 0; pass < 2; pass++)
    for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
      {
        MatWindow *other = MAT_IS_WINDOW (l->data) ? l->data : NULL;
        MatLibrary *library = other != NULL ? mat_window_get_library (other) : NULL;
        g_autofree char *name = NULL;

        if (library == NULL || (pass == 0) != (other == self))
          continue;
        /* the view names the others by their files, told apart from
         * each other; the demo by the name its window gives it */
        if (other->is_demo || mat_library_get_file (library) == NULL)
          name = _mat_window_dup_library_name (other);
        mat_compare_view_add_library (view, library, name);
      }
  mat_compare_window_follow_textures (MAT_COMPARE_WINDOW (window), G_OBJECT (self->phase_table));
  if (self->shown != NULL && mat_material_get_editable (self->shown))
    mat_compare_view_set_material (view, self->shown);

  gtk_window_set_transient_for (window, GTK_WINDOW (self));
  gtk_window_set_destroy_with_parent (window, TRUE);
  /* Translators: the title of the comparison window; %s is a material */
  title = self->shown != NULL ? g_strdup_printf (_("Compare — %s"), mat_material_get_name (self->shown))
                              : g_strdup (_("Compare"));
  gtk_window_set_title (window, title);
  gtk_window_present (window);
}

/* The textures of this library's Textures.lib (the phase table's, which
 * the preview shows), in a window of their own. */
static void
textures_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  mat_texture_window_present (GTK_WINDOW (self), G_OBJECT (self->phase_table), self->file);
}

static void
rename_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  if (self->shown != NULL)
    open_name_dialog (self, MAT_NAME_DIALOG_RENAME);
}

/* Deleting: a question naming the material first, then a banner that
 * undoes it while it is the last step. */

#define DELETED_BANNER_SECONDS 10

typedef struct {
  MatWindow   *self;
  MatLibrary  *library;
  MatMaterial *material;
  gboolean     from_list;   /* asked with the focus in the list */
} DeleteOp;

static void
delete_op_free (DeleteOp *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->library);
  g_clear_object (&op->material);
  g_free (op);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DeleteOp, delete_op_free)

void
_mat_window_actions_forget_deleted (MatWindow *self)
{
  g_clear_handle_id (&self->deleted_source, g_source_remove);
  if (self->deleted_revealer == NULL)
    return;
  gtk_revealer_set_reveal_child (self->deleted_revealer, FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo-delete", FALSE);
}

void
_mat_window_actions_history_changed (MatWindow *self)
{
  /* another step than the deletion: Undo would no longer undo it */
  if (!self->deleting)
    _mat_window_actions_forget_deleted (self);
}

static gboolean
deleted_timeout_cb (gpointer user_data)
{
  MatWindow *self = user_data;

  self->deleted_source = 0;
  _mat_window_actions_forget_deleted (self);
  return G_SOURCE_REMOVE;
}

void
_mat_window_actions_show_deleted (MatWindow  *self,
                                  const char *text)
{
  gtk_label_set_label (self->deleted_label, text);
  gtk_revealer_set_reveal_child (self->deleted_revealer, TRUE);
  g_clear_handle_id (&self->deleted_source, g_source_remove);
  self->deleted_source = g_timeout_add_seconds (DELETED_BANNER_SECONDS, deleted_timeout_cb, self);
  _mat_window_actions_update (self);
}

static void
delete_now (MatWindow   *self,
            MatMaterial *material,
            gboolean     from_list)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GtkBitset) rows = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  guint position;
  gboolean selected = _mat_window_sidebar_get_selected (self) == material;
  gboolean ok;

  position = gtk_bitset_is_empty (rows) ? GTK_INVALID_LIST_POSITION : gtk_bitset_get_minimum (rows);
  self->deleting = TRUE;
  ok = mat_library_delete_material (self->library, material, &error);
  self->deleting = FALSE;
  if (!ok)
    {
      /* Translators: %s is a material name */
      g_autofree char *heading = g_strdup_printf (_("Could Not Delete “%s”"),
                                                  mat_material_get_name (material));

      _mat_window_show_error (self, heading, error->message);
      return;
    }

  /* Keep the selection where it was: the next row, or the last one. */
  if (selected && position != GTK_INVALID_LIST_POSITION)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

      if (n > 0)
        gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), MIN (position, n - 1), TRUE);
    }
  /* the row that had the focus is gone: the list keeps it, on the row
   * now in its place, so Delete and the arrows go on from there */
  if (from_list)
    gtk_widget_grab_focus (GTK_WIDGET (self->list_view));

  /* Translators: the banner after a deletion; %s is a material name */
  text = g_strdup_printf (_("Deleted “%s”"), mat_material_get_name (material));
  _mat_window_actions_show_deleted (self, text);
}

enum {
  DELETE_CANCEL,
  DELETE_CONFIRM,
};

static void
delete_chosen_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(DeleteOp) op = user_data;
  MatWindow *self = op->self;

  if (mat_dialogs_choose_finish (result) != DELETE_CONFIRM)
    return;
  /* the library may have been reloaded meanwhile */
  if (self->library != op->library || mat_library_index_of (op->library, op->material) < 0)
    return;
  delete_now (self, op->material, op->from_list);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  const char *buttons[] = { _("_Cancel"), _("_Delete"), NULL };
  g_autofree char *heading = NULL;
  DeleteOp *op;

  if (self->library == NULL || self->shown == NULL)
    return;
  if (_mat_window_sidebar_get_n_selected (self) > 1)
    {
      _mat_window_batch_delete (self);
      return;
    }

  op = g_new0 (DeleteOp, 1);
  op->self = g_object_ref (self);
  op->library = g_object_ref (self->library);
  op->material = g_object_ref (self->shown);
  op->from_list = gtk_root_get_focus (GTK_ROOT (self)) != NULL &&
                  gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (self)),
                                          GTK_WIDGET (self->list_view));
  /* Translators: the question before deleting; %s is a material name */
  heading = g_strdup_printf (_("Delete “%s”?"), mat_material_get_name (op->material));
  mat_dialogs_choose (GTK_WINDOW (self), heading,
                      mat_material_get_editable (op->material)
                      ? _("The material leaves the library with its phases and animation blocks. Undo brings it back.")
                      : _("The entry leaves the library. Undo brings it back."),
                      buttons, DELETE_CANCEL, DELETE_CANCEL, DELETE_CONFIRM,
                      self->dialogs, delete_chosen_cb, op);
}

static void
undo_delete_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  if (self->library == NULL || !gtk_revealer_get_reveal_child (self->deleted_revealer))
    return;
  _mat_window_actions_forget_deleted (self);
  mat_history_undo (mat_library_get_history (self->library));
}

static void
dismiss_deleted_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  _mat_window_actions_forget_deleted (MAT_WINDOW (widget));
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
reload_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  _mat_window_reload (MAT_WINDOW (widget));
}

static void
dismiss_banner_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  gtk_revealer_set_reveal_child (MAT_WINDOW (widget)->changed_revealer, FALSE);
}

static void
show_lints_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);

  gtk_toggle_button_set_active (self->lint_toggle, !gtk_toggle_button_get_active (self->lint_toggle));
}

void
_mat_window_class_actions_init (MatWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, redo_action);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.new-material", NULL, new_material_action);
  gtk_widget_class_install_action (widget_class, "win.duplicate", NULL, duplicate_action);
  gtk_widget_class_install_action (widget_class, "win.rename", NULL, rename_action);
  gtk_widget_class_install_action (widget_class, "win.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "win.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "win.undo-delete", NULL, undo_delete_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-deleted", NULL, dismiss_deleted_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.reload", NULL, reload_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-banner", NULL, dismiss_banner_action);
  gtk_widget_class_install_action (widget_class, "win.show-lints", NULL, show_lints_action);
  gtk_widget_class_install_action (widget_class, "win.textures", NULL, textures_action);
}

void
_mat_window_actions_init (MatWindow *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo-delete", FALSE);
}

void
_mat_window_actions_dispose (MatWindow *self)
{
  g_clear_handle_id (&self->deleted_source, g_source_remove);
}
