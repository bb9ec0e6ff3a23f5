/* mat-library-diff.c - this library against another one, material by
 * material
 *
 * Both libraries become lists of Mat0DiffEntry (the decoded state of each
 * editable material, the bytes of any other entry) and go through
 * mat0_diff_libraries with the other library as A and this one as B, the
 * one comparison `mat0tool diff OTHER THIS` makes. The other library is
 * only read, so its entries are built once; this one's again after each
 * of its edits, when idle. The list is a GListStore of MatLibraryDiffRow,
 * spliced where the rows changed so the view keeps its place.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "mat-library-diff-private.h"
#include "mat-library-name.h"
#include "mat-material-copy.h"
#include "mat-style.h"
#include "mat-tooltip.h"

#define RESOURCE_PREFIX "/io/github/parkan/MatEdit/"

/* One library as the core compares it. */
typedef struct {
  Mat0DiffEntry *entries;
  guint          n;
  GPtrArray     *materials;   /* MatMaterial, parallel to entries */
  GPtrArray     *cores;       /* Mat0Material the entries point at */
  GPtrArray     *payloads;    /* GBytes the entries point at */
} Side;

struct _MatLibraryDiff
{
  GtkWidget           parent_instance;

  MatLibrary         *library;
  MatLibrary         *other;
  char               *other_title;     /* given, or %NULL: by its file */
  char               *other_name;      /* shown */
  Side                theirs;
  gboolean            changed_only;
  gboolean            loading;
  GCancellable       *cancellable;
  guint               refresh_id;
  guint               counts[4];       /* by Mat0DiffStatus */

  GListStore         *rows;            /* MatLibraryDiffRow */
  GtkCustomFilter    *filter;
  GtkFilterListModel *shown;

  /* template */
  GtkWidget          *open_button;
  GtkWidget          *changed_only_check;
  GtkLabel           *other_label;
  GtkLabel           *summary_label;
  GtkLabel           *error_label;
  GtkStack           *content_stack;
  GtkListView        *list;
};

G_DEFINE_FINAL_TYPE (MatLibraryDiff, mat_library_diff, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_LIBRARY,
  PROP_OTHER,
  PROP_CHANGED_ONLY,
  PROP_LOADING,
  N_PROPS
};

enum {
  EDITED,
  COMPARE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* Entries                                                              */

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->entries, g_free);
  side->n = 0;
  g_clear_pointer (&side->materials, g_ptr_array_unref);
  g_clear_pointer (&side->cores, g_ptr_array_unref);
  g_clear_pointer (&side->payloads, g_ptr_array_unref);
}

static void
side_fill (Side       *side,
           MatLibrary *library)
{
  side_clear (side);
  side->materials = g_ptr_array_new_with_free_func (g_object_unref);
  side->cores = g_ptr_array_new_with_free_func ((GDestroyNotify) mat0_material_free);
  side->payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  if (library == NULL)
    return;

  side->n = g_list_model_get_n_items (G_LIST_MODEL (library));
  side->entries = g_new0 (Mat0DiffEntry, MAX (side->n, 1));
  for (guint i = 0; i < side->n; i++)
    {
      MatMaterial *material = mat_library_get_material (library, i);
      Mat0DiffEntry *entry = &side->entries[i];

      g_ptr_array_add (side->materials, g_object_ref (material));
      entry->name = mat_material_get_name (material);
      entry->type_id = mat_material_get_type_id (material);
      entry->attr1 = mat_material_get_attr1 (material);
      entry->attr2 = mat_material_get_attr2 (material);
      entry->attr3 = mat_material_get_attr3 (material);
      if (mat_material_get_editable (material))
        {
          Mat0Material *core = mat_material_dup_core (material);

          g_ptr_array_add (side->cores, core);
          entry->material = core;
        }
      else
        {
          GBytes *payload = mat_material_dup_payload (material);

          g_ptr_array_add (side->payloads, payload);
          entry->payload = g_bytes_get_data (payload, &entry->size);
        }
    }
}

/* ------------------------------------------------------------------ */
/* The list                                                             */

static const char *
status_label (Mat0DiffStatus status)
{
  switch (status)
    {
    /* Translators: a material only this library has */
    case MAT0_DIFF_ADDED: return C_("library diff", "Added");
    /* Translators: a material only the other library has */
    case MAT0_DIFF_REMOVED: return C_("library diff", "Removed");
    case MAT0_DIFF_CHANGED: return C_("library diff", "Changed");
    default: return C_("library diff", "Same");
    }
}

static const char *
status_class (Mat0DiffStatus status)
{
  switch (status)
    {
    case MAT0_DIFF_ADDED: return "added";
    case MAT0_DIFF_REMOVED: return "removed";
    case MAT0_DIFF_CHANGED: return "changed";
    default: return "same";
    }
}

/* The other library's name: the title given, or its file's name told
 * apart from this library's ("Material.lib — Parkan/DATA"). */
static void
update_other_name (MatLibraryDiff *self)
{
  g_clear_pointer (&self->other_name, g_free);
  if (self->other == NULL)
    return;
  if (self->other_title != NULL)
    self->other_name = g_strdup (self->other_title);
  else if (mat_library_get_file (self->other) == NULL)
    self->other_name = g_strdup (_("Other library"));
  else
    {
      MatLibraryPlace places[2] = {
        { mat_library_get_file (self->other), FALSE },
        { self->library != NULL ? mat_library_get_file (self->library) : NULL, FALSE },
      };

      self->other_name = mat_library_dup_display_name (&places[0], places, 2);
    }
}

static void update_summary (MatLibraryDiff *self);

static void
library_file_changed (MatLibraryDiff *self)
{
  update_other_name (self);
  update_summary (self);
}

static void
update_summary (MatLibraryDiff *self)
{
  g_autofree char *other = NULL;
  g_autofree char *counts = NULL;

  if (self->other == NULL)
    {
      gtk_label_set_text (self->other_label, _("No other library open"));
      gtk_label_set_text (self->summary_label, "");
      gtk_stack_set_visible_child_name (self->content_stack, "empty");
      return;
    }

  /* Translators: the library this one is compared with */
  other = g_strdup_printf (_("Compared with “%s”"), self->other_name);
  gtk_label_set_text (self->other_label, other);
  mat_tooltip_set_text (GTK_WIDGET (self->other_label), other);
  /* Translators: how many materials this library added, removed, changed
   * and kept as they are in the other library */
  counts = g_strdup_printf (_("Added: %u · removed: %u · changed: %u · the same: %u"),
                            self->counts[MAT0_DIFF_ADDED], self->counts[MAT0_DIFF_REMOVED],
                            self->counts[MAT0_DIFF_CHANGED], self->counts[MAT0_DIFF_SAME]);
  gtk_label_set_text (self->summary_label, counts);
  gtk_stack_set_visible_child_name (self->content_stack, "list");
}

/* Replaces the rows that changed, so the list keeps its place. */
static void
splice_rows (MatLibraryDiff *self,
             GPtrArray      *rows)
{
  GListModel *model = G_LIST_MODEL (self->rows);
  guint n_old = g_list_model_get_n_items (model), n_new = rows->len;
  guint prefix = 0, suffix = 0;

  while (prefix < n_old && prefix < n_new)
    {
      g_autoptr(MatLibraryDiffRow) old = g_list_model_get_item (model, prefix);

      if (!mat_library_diff_row_equal (old, rows->pdata[prefix]))
        break;
      prefix++;
    }
  while (suffix < n_old - prefix && suffix < n_new - prefix)
    {
      g_autoptr(MatLibraryDiffRow) old = g_list_model_get_item (model, n_old - 1 - suffix);

      if (!mat_library_diff_row_equal (old, rows->pdata[n_new - 1 - suffix]))
        break;
      suffix++;
    }
  if (prefix == n_old && prefix == n_new)
    return;
  g_list_store_splice (self->rows, prefix, n_old - prefix - suffix,
                       rows->pdata + prefix, n_new - prefix - suffix);
}

void
mat_library_diff_refresh (MatLibraryDiff *self)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(Mat0LibraryDiff) diff = NULL;
  Side mine = { 0 };

  g_return_if_fail (MAT_IS_LIBRARY_DIFF (self));

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  memset (self->counts, 0, sizeof self->counts);
  if (self->other != NULL && self->library != NULL)
    {
      side_fill (&mine, self->library);
      /* the other library is A, this one B: "added" is what this one added */
      diff = mat0_diff_libraries (self->theirs.entries, self->theirs.n, mine.entries, mine.n);
      for (guint i = 0; i < diff->items->len; i++)
        {
          const Mat0DiffItem *item = diff->items->pdata[i];
          MatMaterial *theirs = item->index_a >= 0 ? self->theirs.materials->pdata[item->index_a] : NULL;
          MatMaterial *material = item->index_b >= 0 ? mine.materials->pdata[item->index_b] : NULL;
          g_autofree char *summary = NULL;

          switch (item->status)
            {
            case MAT0_DIFF_CHANGED:
              summary = mat0_diff_dup_summary ((const Mat0DiffField *) (gpointer) item->fields->data,
                                               item->fields->len);
              break;
            case MAT0_DIFF_ADDED:
              summary = g_strdup (_("only in this library"));
              break;
            case MAT0_DIFF_REMOVED:
              summary = g_strdup (_("only in the other library"));
              break;
            default:
              summary = g_strdup ("");
              break;
            }
          g_ptr_array_add (rows, mat_library_diff_row_new (item->status,
                                                           mat_material_get_name (material != NULL ? material : theirs),
                                                           summary, item->fields, material, theirs));
          self->counts[item->status]++;
        }
      side_clear (&mine);
    }
  splice_rows (self, rows);
  update_summary (self);
}

static gboolean
refresh_idle (gpointer data)
{
  MatLibraryDiff *self = data;

  self->refresh_id = 0;
  mat_library_diff_refresh (self);
  return G_SOURCE_REMOVE;
}

static void
queue_refresh (MatLibraryDiff *self)
{
  if (self->refresh_id == 0 && self->other != NULL)
    self->refresh_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, refresh_idle, self, NULL);
}

static gboolean
shown_filter (gpointer item,
              gpointer user_data)
{
  MatLibraryDiff *self = user_data;

  return !self->changed_only || mat_library_diff_row_get_status (item) != MAT0_DIFF_SAME;
}

/* ------------------------------------------------------------------ */
/* Rows of the list view                                                */

static void
row_button_clicked (GtkButton   *button,
                    GtkListItem *list_item)
{
  MatLibraryDiff *self = MAT_LIBRARY_DIFF (gtk_widget_get_ancestor (GTK_WIDGET (button),
                                                                    MAT_TYPE_LIBRARY_DIFF));
  gpointer item = gtk_list_item_get_item (list_item);
  guint position;

  if (self == NULL || item == NULL || !g_list_store_find (self->rows, item, &position))
    return;
  gtk_widget_activate_action (GTK_WIDGET (self),
                              g_object_get_data (G_OBJECT (button), "row-action"),
                              "u", position);
}

/* The four statuses, in Mat0DiffStatus order. */
static const Mat0DiffStatus statuses[] = { MAT0_DIFF_SAME, MAT0_DIFF_CHANGED, MAT0_DIFF_REMOVED,
                                           MAT0_DIFF_ADDED };

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           MatLibraryDiff           *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *badge = gtk_stack_new ();
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *details = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *summary = gtk_label_new (NULL);
  GtkWidget *changes = gtk_label_new (NULL);
  /* Translators: a button on a row of the library diff: compare the two materials */
  GtkWidget *compare = gtk_button_new_with_label (C_("library diff", "Compare"));
  GtkWidget *take = gtk_button_new_with_label (_("Take from Other"));

  gtk_widget_add_css_class (box, "library-diff-row");
  /* one badge a status, all as wide as the widest in every row, so the
   * names after them line up whatever the language's words */
  gtk_stack_set_hhomogeneous (GTK_STACK (badge), TRUE);
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      GtkWidget *label = gtk_label_new (status_label (statuses[i]));

      gtk_widget_add_css_class (label, "diff-badge");
      gtk_widget_add_css_class (label, status_class (statuses[i]));
      gtk_stack_add_named (GTK_STACK (badge), label, status_class (statuses[i]));
    }
  gtk_label_set_xalign (GTK_LABEL (name), 0.f);
  /* names and summaries wrap rather than being cut off */
  gtk_label_set_width_chars (GTK_LABEL (name), 22);
  gtk_label_set_max_width_chars (GTK_LABEL (name), 22);
  gtk_label_set_wrap (GTK_LABEL (name), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (name), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (name, "diff-name");
  gtk_label_set_xalign (GTK_LABEL (summary), 0.f);
  gtk_label_set_wrap (GTK_LABEL (summary), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (summary), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_width_chars (GTK_LABEL (summary), 20);
  gtk_widget_add_css_class (summary, "dim-label");
  /* each change, old → new, one a line */
  gtk_label_set_xalign (GTK_LABEL (changes), 0.f);
  gtk_label_set_wrap (GTK_LABEL (changes), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (changes), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_width_chars (GTK_LABEL (changes), 20);
  gtk_widget_add_css_class (changes, "diff-changes");
  gtk_widget_set_hexpand (details, TRUE);
  gtk_widget_set_valign (details, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (details), summary);
  gtk_box_append (GTK_BOX (details), changes);
  mat_tooltip_set_text (compare, _("Show the two materials side by side, field by field"));
  mat_tooltip_set_text (take, _("Copy this material from the other library into this one: added when it is missing, its content replaced when it changed (one undo step)"));
  gtk_widget_add_css_class (compare, "flat");
  gtk_widget_add_css_class (take, "flat");
  gtk_widget_set_valign (compare, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (take, GTK_ALIGN_CENTER);
  g_object_set_data (G_OBJECT (compare), "row-action", (gpointer) "library-diff.compare");
  g_object_set_data (G_OBJECT (take), "row-action", (gpointer) "library-diff.take");
  g_signal_connect (compare, "clicked", G_CALLBACK (row_button_clicked), list_item);
  g_signal_connect (take, "clicked", G_CALLBACK (row_button_clicked), list_item);

  gtk_box_append (GTK_BOX (box), badge);
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), details);
  gtk_box_append (GTK_BOX (box), compare);
  gtk_box_append (GTK_BOX (box), take);
  gtk_list_item_set_child (list_item, box);
  gtk_list_item_set_activatable (list_item, FALSE);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          MatLibraryDiff           *self)
{
  MatLibraryDiffRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *badge = gtk_widget_get_first_child (box);
  GtkWidget *name = gtk_widget_get_next_sibling (badge);
  GtkWidget *details = gtk_widget_get_next_sibling (name);
  GtkWidget *summary = gtk_widget_get_first_child (details);
  GtkWidget *changes = gtk_widget_get_next_sibling (summary);
  GtkWidget *compare = gtk_widget_get_next_sibling (details);
  GtkWidget *take = gtk_widget_get_next_sibling (compare);
  Mat0DiffStatus status = mat_library_diff_row_get_status (row);
  MatMaterial *mine = mat_library_diff_row_get_mine (row);
  MatMaterial *theirs = mat_library_diff_row_get_theirs (row);
  const char *text = mat_library_diff_row_get_changes (row);

  gtk_stack_set_visible_child_name (GTK_STACK (badge), status_class (status));
  gtk_label_set_text (GTK_LABEL (name), mat_library_diff_row_get_name (row));
  mat_tooltip_set_text (name, mat_library_diff_row_get_name (row));
  gtk_label_set_text (GTK_LABEL (summary), mat_library_diff_row_get_summary (row));
  mat_tooltip_set_text (summary, mat_library_diff_row_get_summary (row)[0] != '\0'
                                 ? mat_library_diff_row_get_summary (row) : NULL);
  gtk_label_set_text (GTK_LABEL (changes), text);
  gtk_widget_set_visible (changes, text[0] != '\0');
  mat_tooltip_set_text (changes, text[0] != '\0' ? mat_library_diff_row_get_all_changes (row) : NULL);
  gtk_widget_set_sensitive (compare, mine != NULL && theirs != NULL &&
                                     mat_material_get_editable (mine) &&
                                     mat_material_get_editable (theirs));
  gtk_widget_set_visible (take, (status == MAT0_DIFF_REMOVED || status == MAT0_DIFF_CHANGED));
  gtk_widget_set_sensitive (take, theirs != NULL && mat_material_get_editable (theirs) &&
                                  (mine == NULL || mat_material_get_editable (mine)));
}

/* ------------------------------------------------------------------ */
/* Opening the other library                                            */

typedef struct {
  MatLibraryDiff *self;
  GFile          *file;
} OpenOp;

static void
open_op_free (OpenOp *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->file);
  g_free (op);
}

static void
set_loading (MatLibraryDiff *self,
             gboolean        loading)
{
  if (self->loading == loading)
    return;
  self->loading = loading;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "library-diff.open", !loading);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
show_error (MatLibraryDiff *self,
            const char     *message)
{
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
load_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  OpenOp *op = user_data;
  MatLibraryDiff *self = op->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(MatLibrary) library = mat_library_load_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      open_op_free (op);
      return;
    }
  g_clear_object (&self->cancellable);
  set_loading (self, FALSE);
  if (library == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (op->file);
      /* Translators: a file that could not be opened for the library diff, then why */
      g_autofree char *message = g_strdup_printf (_("Could not open “%s”: %s"), name, error->message);

      show_error (self, message);
    }
  else
    {
      show_error (self, NULL);
      /* named by its file, told apart from this library */
      mat_library_diff_set_other (self, library, NULL);
    }
  open_op_free (op);
}

void
mat_library_diff_open_file (MatLibraryDiff *self,
                            GFile          *file)
{
  OpenOp *op;

  g_return_if_fail (MAT_IS_LIBRARY_DIFF (self));
  g_return_if_fail (G_IS_FILE (file));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  op = g_new0 (OpenOp, 1);
  op->self = g_object_ref (self);
  op->file = g_object_ref (file);
  set_loading (self, TRUE);
  mat_library_load_async (file, self->cancellable, load_cb, op);
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
open_dialog_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(MatLibraryDiff) self = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (file != NULL)
    mat_library_diff_open_file (self, file);
}
#else
static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         user_data)
{
  MatLibraryDiff *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        mat_library_diff_open_file (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}
#endif

static GtkFileFilter *
library_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Material libraries"));
  gtk_file_filter_add_suffix (filter, "lib");
  gtk_file_filter_add_suffix (filter, "LIB");
  return filter;
}

static void
open_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatLibraryDiff *self = MAT_LIBRARY_DIFF (widget);
  GtkWindow *parent = GTK_WINDOW (gtk_widget_get_root (widget));
  g_autoptr(GtkFileFilter) filter = library_filter ();
  GFile *current = self->library != NULL ? mat_library_get_file (self->library) : NULL;
  g_autoptr(GFile) folder = current != NULL ? g_file_get_parent (current) : NULL;

#if GTK_CHECK_VERSION (4, 10, 0)
  {
    g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
    g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);

    g_list_store_append (filters, filter);
    gtk_file_dialog_set_title (dialog, _("Open a Library to Compare With"));
    gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
    gtk_file_dialog_set_default_filter (dialog, filter);
    if (folder != NULL)
      gtk_file_dialog_set_initial_folder (dialog, folder);
    gtk_file_dialog_open (dialog, parent, NULL, open_dialog_cb, g_object_ref (self));
  }
#else
  {
    GtkFileChooserNative *dialog;

    dialog = gtk_file_chooser_native_new (_("Open a Library to Compare With"), parent,
                                          GTK_FILE_CHOOSER_ACTION_OPEN,
                                          _("_Open"), _("_Cancel"));
    gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
    gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    if (folder != NULL)
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
    g_signal_connect (dialog, "response", G_CALLBACK (open_response_cb), g_object_ref (self));
    gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
  }
#endif
}

/* ------------------------------------------------------------------ */
/* Take and compare                                                     */

static MatLibraryDiffRow *
row_at (MatLibraryDiff *self,
        GVariant       *parameter)
{
  guint position = g_variant_get_uint32 (parameter);
  MatLibraryDiffRow *row = g_list_model_get_item (G_LIST_MODEL (self->rows), position);

  return row;
}

static void
take_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  MatLibraryDiff *self = MAT_LIBRARY_DIFF (widget);
  g_autoptr(MatLibraryDiffRow) row = row_at (self, parameter);
  g_autoptr(GError) error = NULL;
  MatMaterial *theirs;

  if (row == NULL || self->library == NULL)
    return;
  theirs = mat_library_diff_row_get_theirs (row);
  if (theirs == NULL || mat_library_diff_row_get_status (row) == MAT0_DIFF_SAME)
    return;

  if (mat_library_take_material (self->library, mat_library_diff_row_get_mine (row), theirs,
                                 &error) == NULL)
    {
      show_error (self, error->message);
      return;
    }
  show_error (self, NULL);
  g_signal_emit (self, signals[EDITED], 0, self->library);
  /* what was taken reads "the same" at once */
  mat_library_diff_refresh (self);
}

static void
compare_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  MatLibraryDiff *self = MAT_LIBRARY_DIFF (widget);
  g_autoptr(MatLibraryDiffRow) row = row_at (self, parameter);

  if (row == NULL || mat_library_diff_row_get_mine (row) == NULL ||
      mat_library_diff_row_get_theirs (row) == NULL)
    return;
  g_signal_emit (self, signals[COMPARE], 0, mat_library_diff_row_get_theirs (row),
                 mat_library_diff_row_get_mine (row));
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
mat_library_diff_dispose (GObject *object)
{
  MatLibraryDiff *self = MAT_LIBRARY_DIFF (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_LIBRARY_DIFF);
  /* the children the template gave no name */
  {
    GtkWidget *child;

    while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
      gtk_widget_unparent (child);
  }
  g_clear_object (&self->shown);
  g_clear_object (&self->filter);
  g_clear_object (&self->rows);
  side_clear (&self->theirs);
  g_clear_object (&self->library);
  g_clear_object (&self->other);

  G_OBJECT_CLASS (mat_library_diff_parent_class)->dispose (object);
}

static void
mat_library_diff_finalize (GObject *object)
{
  MatLibraryDiff *self = MAT_LIBRARY_DIFF (object);

  g_free (self->other_title);
  g_free (self->other_name);

  G_OBJECT_CLASS (mat_library_diff_parent_class)->finalize (object);
}

static void
mat_library_diff_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  MatLibraryDiff *self = MAT_LIBRARY_DIFF (object);

  switch (prop_id)
    {
    case PROP_LIBRARY: g_value_set_object (value, self->library); break;
    case PROP_OTHER: g_value_set_object (value, self->other); break;
    case PROP_CHANGED_ONLY: g_value_set_boolean (value, self->changed_only); break;
    case PROP_LOADING: g_value_set_boolean (value, self->loading); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_library_diff_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  MatLibraryDiff *self = MAT_LIBRARY_DIFF (object);

  switch (prop_id)
    {
    case PROP_LIBRARY: mat_library_diff_set_library (self, g_value_get_object (value)); break;
    case PROP_CHANGED_ONLY: mat_library_diff_set_changed_only (self, g_value_get_boolean (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_library_diff_class_init (MatLibraryDiffClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_library_diff_dispose;
  object_class->finalize = mat_library_diff_finalize;
  object_class->get_property = mat_library_diff_get_property;
  object_class->set_property = mat_library_diff_set_property;

  properties[PROP_LIBRARY] =
    g_param_spec_object ("library", NULL, NULL, MAT_TYPE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_OTHER] =
    g_param_spec_object ("other", NULL, NULL, MAT_TYPE_LIBRARY,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CHANGED_ONLY] =
    g_param_spec_boolean ("changed-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MatLibraryDiff::edited:
   * @library: the library "take" changed
   */
  signals[EDITED] =
    g_signal_new ("edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, MAT_TYPE_LIBRARY);
  /**
   * MatLibraryDiff::compare:
   * @theirs: the material in the other library
   * @mine: the material in this library
   */
  signals[COMPARE] =
    g_signal_new ("compare", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, MAT_TYPE_MATERIAL, MAT_TYPE_MATERIAL);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "mat-library-diff.ui");
  gtk_widget_class_set_css_name (widget_class, "matlibrarydiff");
  gtk_widget_class_bind_template_child (widget_class, MatLibraryDiff, open_button);
  gtk_widget_class_bind_template_child (widget_class, MatLibraryDiff, changed_only_check);
  gtk_widget_class_bind_template_child (widget_class, MatLibraryDiff, other_label);
  gtk_widget_class_bind_template_child (widget_class, MatLibraryDiff, summary_label);
  gtk_widget_class_bind_template_child (widget_class, MatLibraryDiff, error_label);
  gtk_widget_class_bind_template_child (widget_class, MatLibraryDiff, content_stack);
  gtk_widget_class_bind_template_child (widget_class, MatLibraryDiff, list);

  gtk_widget_class_install_action (widget_class, "library-diff.open", NULL, open_activated);
  gtk_widget_class_install_action (widget_class, "library-diff.take", "u", take_activated);
  gtk_widget_class_install_action (widget_class, "library-diff.compare", "u", compare_activated);
  gtk_widget_class_install_property_action (widget_class, "library-diff.changed-only", "changed-only");
}

static void
mat_library_diff_init (MatLibraryDiff *self)
{
  GtkListItemFactory *factory;
  GtkNoSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));
  mat_style_ensure ();

  self->rows = g_list_store_new (MAT_TYPE_LIBRARY_DIFF_ROW);
  self->filter = gtk_custom_filter_new (shown_filter, self, NULL);
  self->shown = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->rows)),
                                           g_object_ref (GTK_FILTER (self->filter)));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), self);
  gtk_list_view_set_factory (self->list, factory);
  g_object_unref (factory);
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->shown)));
  gtk_list_view_set_model (self->list, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);

  show_error (self, NULL);
  update_summary (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

GtkWidget *
mat_library_diff_new (void)
{
  return g_object_new (MAT_TYPE_LIBRARY_DIFF, NULL);
}

MatLibrary *
mat_library_diff_get_library (MatLibraryDiff *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF (self), NULL);
  return self->library;
}

void
mat_library_diff_set_library (MatLibraryDiff *self,
                              MatLibrary     *library)
{
  g_return_if_fail (MAT_IS_LIBRARY_DIFF (self));
  g_return_if_fail (library == NULL || MAT_IS_LIBRARY (library));

  if (self->library != NULL)
    {
      g_signal_handlers_disconnect_by_data (mat_library_get_history (self->library), self);
      g_signal_handlers_disconnect_by_data (self->library, self);
    }
  if (!g_set_object (&self->library, library))
    return;
  /* every edit, undo and redo of this library goes through its history */
  if (library != NULL)
    {
      g_signal_connect_object (mat_library_get_history (library), "changed",
                               G_CALLBACK (queue_refresh), self, G_CONNECT_SWAPPED);
      /* saved elsewhere: the other one may need its folders, or no more */
      g_signal_connect_object (library, "notify::file", G_CALLBACK (library_file_changed), self,
                               G_CONNECT_SWAPPED);
    }
  update_other_name (self);
  mat_library_diff_refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIBRARY]);
}

MatLibrary *
mat_library_diff_get_other (MatLibraryDiff *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF (self), NULL);
  return self->other;
}

const char *
mat_library_diff_get_other_title (MatLibraryDiff *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF (self), NULL);
  return self->other_name;
}

void
mat_library_diff_set_other (MatLibraryDiff *self,
                            MatLibrary     *other,
                            const char     *title)
{
  g_return_if_fail (MAT_IS_LIBRARY_DIFF (self));
  g_return_if_fail (other == NULL || MAT_IS_LIBRARY (other));

  g_free (self->other_title);
  self->other_title = other != NULL ? g_strdup (title) : NULL;
  if (g_set_object (&self->other, other))
    {
      update_other_name (self);
      side_fill (&self->theirs, other);
      mat_library_diff_refresh (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OTHER]);
    }
  else
    {
      update_other_name (self);
      update_summary (self);
    }
}

gboolean
mat_library_diff_get_loading (MatLibraryDiff *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF (self), FALSE);
  return self->loading;
}

gboolean
mat_library_diff_get_changed_only (MatLibraryDiff *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF (self), FALSE);
  return self->changed_only;
}

void
mat_library_diff_set_changed_only (MatLibraryDiff *self,
                                   gboolean        changed_only)
{
  g_return_if_fail (MAT_IS_LIBRARY_DIFF (self));

  changed_only = !!changed_only;
  if (self->changed_only == changed_only)
    return;
  self->changed_only = changed_only;
  gtk_filter_changed (GTK_FILTER (self->filter),
                      changed_only ? GTK_FILTER_CHANGE_MORE_STRICT : GTK_FILTER_CHANGE_LESS_STRICT);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHANGED_ONLY]);
}

GListModel *
mat_library_diff_get_rows (MatLibraryDiff *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF (self), NULL);
  return G_LIST_MODEL (self->rows);
}

GListModel *
mat_library_diff_get_shown_rows (MatLibraryDiff *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF (self), NULL);
  return G_LIST_MODEL (self->shown);
}

guint
mat_library_diff_get_n_status (MatLibraryDiff *self,
                               Mat0DiffStatus  status)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF (self), 0);
  g_return_val_if_fail (status <= MAT0_DIFF_ADDED, 0);
  return self->counts[status];
}

int
mat_library_diff_find_row (MatLibraryDiff *self,
                           const char     *name)
{
  GListModel *model;
  guint n;

  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF (self), -1);
  g_return_val_if_fail (name != NULL, -1);

  model = G_LIST_MODEL (self->rows);
  n = g_list_model_get_n_items (model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(MatLibraryDiffRow) row = g_list_model_get_item (model, i);

      if (g_ascii_strcasecmp (mat_library_diff_row_get_name (row), name) == 0)
        return (int) i;
    }
  return -1;
}

GtkWidget *
mat_library_diff_get_test_widget (MatLibraryDiff *self,
                                  const char     *name)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (g_str_equal (name, "open-button"))
    return self->open_button;
  if (g_str_equal (name, "changed-only"))
    return self->changed_only_check;
  if (g_str_equal (name, "list"))
    return GTK_WIDGET (self->list);
  if (g_str_equal (name, "summary-label"))
    return GTK_WIDGET (self->summary_label);
  if (g_str_equal (name, "other-label"))
    return GTK_WIDGET (self->other_label);
  if (g_str_equal (name, "error-label"))
    return GTK_WIDGET (self->error_label);
  return NULL;
}
