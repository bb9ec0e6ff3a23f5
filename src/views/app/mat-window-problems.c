/* mat-window-problems.c - the window's problems panel: every error and
 * lint of the library; choosing one shows where it is */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat0-validate.h"

#include "mat-timeline.h"

#include "mat-tooltip.h"
#include "mat-window-private.h"

#define DIAGNOSTICS_DELAY_MS 250

char *
_mat_window_problems_dup_summary (MatWindow *self)
{
  g_autofree char *errors = NULL;
  g_autofree char *lints = NULL;

  lints = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u lint", "%u lints", self->n_lints),
                           self->n_lints);
  if (self->n_errors == 0)
    return g_steal_pointer (&lints);

  errors = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u error", "%u errors", self->n_errors),
                            self->n_errors);
  if (self->n_lints == 0)
    return g_steal_pointer (&errors);

  /* Translators: a list of two counts, "1 error, 4 lints" */
  return g_strdup_printf (_("%s, %s"), errors, lints);
}

void
_mat_window_problems_refresh (MatWindow *self)
{
  GPtrArray *diags = NULL;
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->lint_strings));
  g_autofree char *summary = NULL;
  g_autofree char *count = NULL;

  g_clear_handle_id (&self->diagnostics_source, g_source_remove);

  if (self->library != NULL)
    diags = mat_library_get_diagnostics (self->library);

  g_clear_pointer (&self->lint_diags, g_ptr_array_unref);
  self->n_lints = self->n_errors = 0;
  if (diags != NULL)
    {
      self->lint_diags = g_ptr_array_ref (diags);
      for (guint i = 0; i < diags->len; i++)
        {
          Mat0Diagnostic *diag = g_ptr_array_index (diags, i);

          if (diag->severity == MAT0_SEVERITY_ERROR)
            self->n_errors++;
          else
            self->n_lints++;
          g_ptr_array_add (strings, g_strdup (diag->message));
        }
    }
  g_ptr_array_add (strings, NULL);
  gtk_string_list_splice (self->lint_strings, 0, n_old, (const char * const *) strings->pdata);

  count = g_strdup_printf ("%u", self->n_lints + self->n_errors);
  gtk_label_set_label (self->lint_toggle_label, count);
  gtk_image_set_from_icon_name (self->lint_toggle_icon,
                                self->n_errors > 0 ? "dialog-error-symbolic"
                                : self->n_lints > 0 ? "dialog-warning-symbolic"
                                : "object-select-symbolic");
  if (self->n_errors + self->n_lints > 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->lint_toggle), "has-problems");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->lint_toggle), "has-problems");

  summary = _mat_window_problems_dup_summary (self);
  gtk_label_set_label (self->lint_summary_label, summary);
  gtk_stack_set_visible_child_name (self->lint_stack,
                                    self->n_lints + self->n_errors > 0 ? "list" : "none");
  _mat_window_sidebar_update_counts (self);
}

static gboolean
diagnostics_timeout_cb (gpointer user_data)
{
  MatWindow *self = user_data;

  self->diagnostics_source = 0;
  _mat_window_problems_refresh (self);

  return G_SOURCE_REMOVE;
}

void
_mat_window_problems_schedule (MatWindow *self)
{
  g_clear_handle_id (&self->diagnostics_source, g_source_remove);
  self->diagnostics_source = g_timeout_add (DIAGNOSTICS_DELAY_MS, diagnostics_timeout_cb, self);
}

static void
lint_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *entry = gtk_label_new (NULL);
  GtkWidget *message = gtk_label_new (NULL);

  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (entry), 0);
  gtk_label_set_yalign (GTK_LABEL (entry), 0);
  gtk_label_set_width_chars (GTK_LABEL (entry), 18);
  gtk_label_set_max_width_chars (GTK_LABEL (entry), 18);
  gtk_label_set_ellipsize (GTK_LABEL (entry), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (entry, "heading");
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (message), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (message, TRUE);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), message);
  gtk_list_item_set_child (item, box);
}

static void
lint_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  MatWindow *self = user_data;
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *icon = gtk_widget_get_first_child (box);
  GtkWidget *entry = gtk_widget_get_next_sibling (icon);
  GtkWidget *message = gtk_widget_get_next_sibling (entry);
  guint position = gtk_list_item_get_position (item);
  Mat0Diagnostic *diag;
  const char *text_after;

  if (self->lint_diags == NULL || position >= self->lint_diags->len)
    return;

  diag = g_ptr_array_index (self->lint_diags, position);
  gtk_image_set_from_icon_name (GTK_IMAGE (icon),
                                diag->severity == MAT0_SEVERITY_ERROR ? "dialog-error-symbolic"
                                : "dialog-warning-symbolic");
  gtk_widget_set_css_classes (icon, (const char *[]) {
                                diag->severity == MAT0_SEVERITY_ERROR ? "error" : "warning", NULL
                              });
  gtk_label_set_label (GTK_LABEL (entry), diag->entry_name);

  /* The message starts with the entry name; show the rest under it. */
  text_after = diag->message;
  if (g_str_has_prefix (text_after, diag->entry_name) &&
      g_str_has_prefix (text_after + strlen (diag->entry_name), ": "))
    text_after += strlen (diag->entry_name) + 2;
  gtk_label_set_label (GTK_LABEL (message), text_after);
  mat_tooltip_set_text (box, diag->message);
}

static void
lint_activate_cb (MatWindow *self,
                  guint      position)
{
  Mat0Diagnostic *diag;
  MatMaterial *material;

  if (self->library == NULL || self->lint_diags == NULL || position >= self->lint_diags->len)
    return;

  diag = g_ptr_array_index (self->lint_diags, position);
  if (diag->entry < 0)
    return;

  /* Diagnostics index the entries as a save would write them: the
   * library's order. */
  material = mat_library_get_material (self->library, (guint) diag->entry);
  if (material == NULL)
    return;
  mat_window_select_material (self, material);
  _mat_window_sidebar_sync_selection (self);
  if (self->shown != material || !mat_material_get_editable (material))
    return;

  /* Then the page where the problem is: a block (and its key) on the
   * Animation page, a phase on the Phases page. */
  if (diag->block >= 0 && (guint) diag->block < mat_material_get_n_blocks (material))
    {
      MatBlockEditor *editor;

      gtk_stack_set_visible_child_name (self->material_stack, "animation");
      editor = _mat_window_ensure_animation_page (self);
      mat_block_editor_set_selected_block (editor, diag->block);
      if (diag->key >= 0)
        mat_timeline_select_key (mat_block_editor_get_timeline (editor), diag->key, FALSE);
    }
  else if (diag->phase >= 0 && (guint) diag->phase < mat_material_get_n_phases (material))
    {
      gtk_stack_set_visible_child_name (self->material_stack, "phases");
      mat_phase_table_set_selected (self->phase_table, (guint) diag->phase);
    }
}

void
_mat_window_class_problems_init (MatWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_bind_template_callback (widget_class, lint_activate_cb);
}

/* The panel's rows are filled when it first opens: with hundreds of
 * problems the list would otherwise build up to 200 rows (GTK 4.8's
 * most) with a tooltip each before the window's first frame. Until
 * then it has no factory, and its items stay empty. */
static void
lint_revealed_cb (MatWindow *self)
{
  GtkListItemFactory *factory;

  if (!gtk_revealer_get_reveal_child (self->lint_revealer) ||
      gtk_list_view_get_factory (self->lint_list) != NULL)
    return;

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (lint_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (lint_bind_cb), self);
  gtk_list_view_set_factory (self->lint_list, factory);
  g_object_unref (factory);
}

void
_mat_window_problems_init (MatWindow *self)
{
  GtkSingleSelection *lint_selection;

  self->lint_strings = gtk_string_list_new (NULL);
  lint_selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->lint_strings)));
  gtk_single_selection_set_autoselect (lint_selection, FALSE);
  gtk_single_selection_set_can_unselect (lint_selection, TRUE);
  gtk_list_view_set_model (self->lint_list, GTK_SELECTION_MODEL (lint_selection));
  g_object_unref (lint_selection);
  g_signal_connect_object (self->lint_revealer, "notify::reveal-child",
                           G_CALLBACK (lint_revealed_cb), self, G_CONNECT_SWAPPED);
  lint_revealed_cb (self);
  _mat_window_make_single_tab_stop (GTK_WIDGET (self->lint_list));
}

void
_mat_window_problems_dispose (MatWindow *self)
{
  g_clear_handle_id (&self->diagnostics_source, g_source_remove);
  g_clear_object (&self->lint_strings);
  g_clear_pointer (&self->lint_diags, g_ptr_array_unref);
}
