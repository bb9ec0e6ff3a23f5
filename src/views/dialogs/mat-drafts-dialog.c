/* mat-drafts-dialog.c - the unsaved changes an editor that ended left,
 * offered back at the start */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mat-compare-window.h"
#include "mat-dialogs.h"
#include "mat-drafts-dialog.h"
#include "mat-library-diff.h"
#include "mat-texture-library.h"
#include "mat-window.h"

typedef enum {
  WANT_RESTORE,
  WANT_COMPARE,
} Want;

typedef struct {
  MatDraft *draft;
  Want      want;
} Job;

struct _MatDraftsDialog
{
  GtkWindow       parent_instance;

  GtkLabel       *heading_label;
  GtkLabel       *body_label;
  GtkListBox     *list;

  MatApplication *application;
  GListStore     *drafts;      /* MatDraft, still offered */
  GHashTable     *restored;    /* id -> MatDraftable read for a comparison */
  GHashTable     *bytes;       /* id -> GBytes of the same */
  GQueue          jobs;        /* Job: one draft read at a time */
  gboolean        reading;
  GCancellable   *cancellable;
};

G_DEFINE_FINAL_TYPE (MatDraftsDialog, mat_drafts_dialog, GTK_TYPE_WINDOW)

static void
job_free (Job *job)
{
  g_clear_object (&job->draft);
  g_free (job);
}

/* ---- the rows --------------------------------------------------------- */

static char *
folder_display_name (GFile *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  g_autofree char *relative = NULL;

  if (parent == NULL)
    return g_strdup ("/");
  if (g_file_equal (parent, home))
    return g_strdup ("~");
  relative = g_file_get_relative_path (home, parent);
  if (relative != NULL)
    return g_build_filename ("~", relative, NULL);
  return g_file_get_parse_name (parent);
}

static char *
display_basename (GFile *file)
{
  g_autofree char *parse_name = g_file_get_parse_name (file);

  return g_path_get_basename (parse_name);
}

/* One line, shortened in the middle when it does not fit (a path), or
 * with @wrap a sentence wrapped at a width of its own, so that its
 * height is known before the row is laid out. */
static GtkWidget *
row_label (const char *text,
           const char *css_class,
           gboolean    wrap)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (wrap)
    {
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_width_chars (GTK_LABEL (label), 30);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 48);
    }
  else
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_width_chars (GTK_LABEL (label), 20);
    }
  gtk_widget_set_tooltip_text (label, text);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static GtkWidget *
row_button (const char *label,
            const char *tooltip,
            const char *action,
            const char *id,
            const char *css_class)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", id);
  if (css_class != NULL)
    gtk_widget_add_css_class (button, css_class);
  return button;
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  MatDraft *draft = item;
  GFile *file = mat_draft_get_file (draft);
  const char *kind = mat_draft_get_kind (draft);
  const char *id = mat_draft_get_id (draft);
  g_autofree char *name = display_basename (file);
  g_autofree char *folder = folder_display_name (file);
  g_autoptr(GDateTime) local = g_date_time_to_local (mat_draft_get_time (draft));
  g_autofree char *when = NULL;
  g_autofree char *what = NULL;
  const char *disk = NULL;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title;
  GtkWidget *folder_label;

  /* Translators: a date and time for g_date_time_format(), as in
   * “3 December 2025, 14:02” */
  when = g_date_time_format (local, _("%-d %B %Y, %H:%M"));
  if (g_str_equal (kind, MAT_DRAFT_KIND_MATERIALS))
    /* Translators: under a file name in the list of unsaved changes; %s
     * is a date and time */
    what = g_strdup_printf (_("Material library, changed on %s"), when);
  else if (g_str_equal (kind, MAT_DRAFT_KIND_TEXTURES) && mat_draft_get_owner (draft) != NULL)
    {
      g_autofree char *owner = display_basename (mat_draft_get_owner (draft));

      /* Translators: under “Textures.lib”: the material library whose
       * textures they are, then a date and time */
      what = g_strdup_printf (_("Textures of %s, changed on %s"), owner, when);
    }
  else
    /* Translators: a draft of a kind this version does not know: the
     * kind, then a date and time */
    what = g_strdup_printf (_("Changes of the kind “%s”, made on %s"), kind, when);

  switch (mat_draft_get_disk (draft))
    {
    case MAT_DRAFT_DISK_CHANGED:
      disk = _("The file changed on disk since. Saving asks before it overwrites the other version.");
      break;
    case MAT_DRAFT_DISK_MISSING:
      disk = _("The file is no longer on disk. Saving writes it again.");
      break;
    case MAT_DRAFT_DISK_SAME:
    default:
      break;
    }

  title = row_label (name, "heading", FALSE);
  gtk_box_append (GTK_BOX (text), title);
  gtk_box_append (GTK_BOX (text), row_label (what, "dim-label", TRUE));
  folder_label = row_label (folder, "dim-label", FALSE);
  gtk_label_set_ellipsize (GTK_LABEL (folder_label), PANGO_ELLIPSIZE_START);
  gtk_box_append (GTK_BOX (text), folder_label);
  if (disk != NULL)
    gtk_box_append (GTK_BOX (text), row_label (disk, "warning", TRUE));
  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_valign (text, GTK_ALIGN_CENTER);

  gtk_box_append (GTK_BOX (buttons),
                  row_button (_("_Compare"), _("The unsaved changes against the file on disk"),
                              "app.compare-draft", id, "flat"));
  gtk_box_append (GTK_BOX (buttons),
                  row_button (C_("draft", "_Discard"), _("Remove these unsaved changes for good"),
                              "app.discard-draft", id, "flat"));
  gtk_box_append (GTK_BOX (buttons),
                  row_button (_("Re_store"), _("Open the library with these changes, unsaved"),
                              "app.restore-draft", id, NULL));

  gtk_box_append (GTK_BOX (box), text);
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_name (row, id);
  return row;
}

static void
update_texts (MatDraftsDialog *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->drafts));

  gtk_label_set_label (self->heading_label, _("Restore Unsaved Changes?"));
  gtk_label_set_label (self->body_label,
                       g_dngettext (GETTEXT_PACKAGE,
                                    "The editor ended before these changes were saved. Restore them to go on where you left off, compare them with the file on disk, or discard them.",
                                    "The editor ended before these changes were saved. Restore them to go on where you left off, compare them with the files on disk, or discard them.",
                                    n));
}

/* ---- finding and opening windows -------------------------------------- */

static MatDraft *
find_draft (MatDraftsDialog *self,
            const char      *id,
            guint           *position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->drafts));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(MatDraft) draft = g_list_model_get_item (G_LIST_MODEL (self->drafts), i);

      if (g_str_equal (mat_draft_get_id (draft), id))
        {
          if (position != NULL)
            *position = i;
          return draft;   /* the store holds another reference */
        }
    }
  return NULL;
}

/* The draft is dealt with: no longer offered; the dialog goes with the
 * last one. */
static void
forget (MatDraftsDialog *self,
        MatDraft        *draft)
{
  guint position;

  g_hash_table_remove (self->restored, mat_draft_get_id (draft));
  g_hash_table_remove (self->bytes, mat_draft_get_id (draft));
  if (find_draft (self, mat_draft_get_id (draft), &position) == NULL)
    return;
  g_list_store_remove (self->drafts, position);
  update_texts (self);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->drafts)) == 0)
    gtk_window_destroy (GTK_WINDOW (self));
}

static gboolean
is_demo (GFile *file)
{
  g_autoptr(GFile) demo = mat_application_find_demo ();

  return demo != NULL && g_file_equal (demo, file);
}

/* The window to show @file in: the one showing it already (nothing
 * unsaved in it), the active window when it may be replaced, or a new
 * one. */
static MatWindow *
window_for (MatDraftsDialog *self,
            GFile           *file)
{
  GtkApplication *app = GTK_APPLICATION (self->application);
  GtkWindow *active = gtk_application_get_active_window (app);

  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    {
      MatWindow *window = MAT_IS_WINDOW (l->data) ? l->data : NULL;
      GFile *shown = window != NULL ? mat_window_get_file (window) : NULL;
      MatLibrary *library = window != NULL ? mat_window_get_library (window) : NULL;

      if (shown != NULL && g_file_equal (shown, file) &&
          (library == NULL || !mat_library_get_dirty (library)))
        return window;
    }
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (MAT_IS_WINDOW (l->data) && mat_window_get_replaceable (l->data) &&
        (active == NULL || !MAT_IS_WINDOW (active) || l->data == (gpointer) active))
      return l->data;
  return mat_window_new (self->application);
}

/* The window of the library a Textures.lib was edited with: the one
 * showing it, or one opening it now. */
static MatWindow *
window_of_library (MatDraftsDialog *self,
                   GFile           *file)
{
  GtkApplication *app = GTK_APPLICATION (self->application);

  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    {
      GFile *shown = MAT_IS_WINDOW (l->data) ? mat_window_get_file (l->data) : NULL;

      if (shown != NULL && g_file_equal (shown, file))
        return l->data;
    }
  {
    MatWindow *window = window_for (self, file);

    mat_window_open (window, file, is_demo (file));
    mat_window_present_when_loaded (window);
    return window;
  }
}

static void
show_error (MatDraftsDialog *self,
            MatDraft        *draft,
            const char      *message)
{
  g_autofree char *name = display_basename (mat_draft_get_file (draft));
  /* Translators: %s is a file name */
  g_autofree char *heading = g_strdup_printf (_("Could Not Restore the Changes to “%s”"), name);

  mat_dialogs_show_message (GTK_WINDOW (self), GTK_MESSAGE_ERROR, heading, message);
}

/* Hands @archive, restored from @draft, to its window. */
static void
deliver (MatDraftsDialog *self,
         MatDraft        *draft,
         MatDraftable    *archive)
{
  if (MAT_IS_LIBRARY (archive))
    {
      GFile *file = mat_draft_get_file (draft);
      MatWindow *window = window_for (self, file);

      mat_window_show_restored (window, MAT_LIBRARY (archive), draft, is_demo (file));
      gtk_window_present (GTK_WINDOW (window));
    }
  else if (MAT_IS_TEXTURE_LIBRARY (archive))
    {
      GFile *owner = mat_draft_get_owner (draft);

      if (owner == NULL)
        {
          show_error (self, draft, _("The draft does not say which material library these textures belong to."));
          return;
        }
      mat_window_restore_textures (window_of_library (self, owner), MAT_TEXTURE_LIBRARY (archive),
                                   draft);
    }
  else
    {
      /* no window shows this kind yet: the draft stays for a later version */
      show_error (self, draft, _("No window of this version of the editor shows this kind of archive. The draft is kept."));
      return;
    }
  forget (self, draft);
}

/* ---- comparing ------------------------------------------------------- */

static void
show_comparison (MatDraftsDialog *self,
                 MatDraft        *draft,
                 MatDraftable    *archive,
                 GBytes          *bytes)
{
  g_autoptr(MatLibrary) library = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = display_basename (mat_draft_get_file (draft));
  g_autofree char *title = NULL;
  GtkWidget *window;
  MatLibraryDiff *diff;

  /* a material library's own: what is taken from the file there is
   * restored with it; other archives are read as a library too (their
   * entries compare by their bytes) */
  if (MAT_IS_LIBRARY (archive))
    library = g_object_ref (MAT_LIBRARY (archive));
  else
    library = mat_library_new_from_bytes (bytes, &error);
  if (library == NULL)
    {
      show_error (self, draft, error->message);
      return;
    }

  /* the Compare window, on its Libraries page: "Compare" on a row shows
   * the two materials field by field, "Take from Other" (with its Undo)
   * edits the draft's library */
  window = GTK_WIDGET (mat_compare_window_new (GTK_APPLICATION (self->application), library));
  /* Translators: the title of the window comparing a draft with the
   * file on disk; %s is the file name */
  title = g_strdup_printf (_("Unsaved Changes to “%s” Against the File on Disk"), name);
  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (self));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (window), TRUE);
  diff = mat_compare_window_get_library_diff (MAT_COMPARE_WINDOW (window));
  mat_library_diff_set_changed_only (diff, TRUE);
  mat_library_diff_open_file (diff, mat_draft_get_file (draft));
  gtk_widget_activate_action (window, "win.show-page", "s", "libraries");
  gtk_widget_set_name (window, "draft-comparison");
  gtk_window_present (GTK_WINDOW (window));
}

/* ---- reading drafts, one at a time ------------------------------------- */

static void run_jobs (MatDraftsDialog *self);

static void
restored_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(MatDraftsDialog) self = user_data;
  MatDraft *draft = MAT_DRAFT (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MatDraftable) archive = mat_draft_restore_finish (draft, result, &bytes, &error);
  Job *job = g_queue_pop_head (&self->jobs);

  self->reading = FALSE;
  /* the dialog went meanwhile */
  if (job == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_pointer (&job, job_free);
      return;
    }
  if (archive == NULL)
    show_error (self, draft, error->message);
  else if (job->want == WANT_COMPARE)
    {
      g_hash_table_replace (self->restored, g_strdup (mat_draft_get_id (draft)), g_object_ref (archive));
      g_hash_table_replace (self->bytes, g_strdup (mat_draft_get_id (draft)), g_bytes_ref (bytes));
      show_comparison (self, draft, archive, bytes);
    }
  else
    deliver (self, draft, archive);
  job_free (job);
  run_jobs (self);
}

static void
run_jobs (MatDraftsDialog *self)
{
  Job *job;

  while (!self->reading && (job = g_queue_peek_head (&self->jobs)) != NULL)
    {
      const char *id = mat_draft_get_id (job->draft);
      MatDraftable *archive = g_hash_table_lookup (self->restored, id);

      if (find_draft (self, id, NULL) == NULL)
        {
          /* dealt with meanwhile */
          job_free (g_queue_pop_head (&self->jobs));
          continue;
        }
      if (archive != NULL)
        {
          g_autoptr(MatDraftable) held = g_object_ref (archive);
          g_autoptr(GBytes) bytes = g_bytes_ref (g_hash_table_lookup (self->bytes, id));
          g_autoptr(MatDraft) draft = g_object_ref (job->draft);
          Want want = job->want;

          /* read already for a comparison: the same one, edits and all */
          job_free (g_queue_pop_head (&self->jobs));
          if (want == WANT_COMPARE)
            show_comparison (self, draft, held, bytes);
          else
            deliver (self, draft, held);
          continue;
        }
      self->reading = TRUE;
      mat_draft_restore_async (job->draft, self->cancellable, restored_cb, g_object_ref (self));
    }
}

static void
add_job (MatDraftsDialog *self,
         MatDraft        *draft,
         Want             want)
{
  Job *job = g_new0 (Job, 1);

  job->draft = g_object_ref (draft);
  job->want = want;
  g_queue_push_tail (&self->jobs, job);
  run_jobs (self);
}

/* ---- public ---------------------------------------------------------- */

void
mat_drafts_dialog_restore (MatDraftsDialog *self,
                           const char      *id)
{
  MatDraft *draft;

  g_return_if_fail (MAT_IS_DRAFTS_DIALOG (self));
  g_return_if_fail (id != NULL);

  draft = find_draft (self, id, NULL);
  if (draft != NULL)
    add_job (self, draft, WANT_RESTORE);
}

void
mat_drafts_dialog_restore_all (MatDraftsDialog *self)
{
  g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func (g_object_unref);
  guint n;

  g_return_if_fail (MAT_IS_DRAFTS_DIALOG (self));

  /* the material libraries first: a Textures.lib goes into the window
   * of its library, restored or not */
  n = g_list_model_get_n_items (G_LIST_MODEL (self->drafts));
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        MatDraft *draft = g_list_model_get_item (G_LIST_MODEL (self->drafts), i);
        gboolean materials = g_str_equal (mat_draft_get_kind (draft), MAT_DRAFT_KIND_MATERIALS);

        if ((pass == 0) == materials)
          g_ptr_array_add (order, draft);
        else
          g_object_unref (draft);
      }
  for (guint i = 0; i < order->len; i++)
    add_job (self, g_ptr_array_index (order, i), WANT_RESTORE);
}

void
mat_drafts_dialog_compare (MatDraftsDialog *self,
                           const char      *id)
{
  MatDraft *draft;

  g_return_if_fail (MAT_IS_DRAFTS_DIALOG (self));
  g_return_if_fail (id != NULL);

  draft = find_draft (self, id, NULL);
  if (draft != NULL)
    add_job (self, draft, WANT_COMPARE);
}

void
mat_drafts_dialog_discard (MatDraftsDialog *self,
                           const char      *id)
{
  MatDraft *draft;
  MatDraftStore *store;

  g_return_if_fail (MAT_IS_DRAFTS_DIALOG (self));
  g_return_if_fail (id != NULL);

  draft = find_draft (self, id, NULL);
  if (draft == NULL)
    return;
  g_object_ref (draft);
  store = mat_application_get_drafts (self->application);
  if (store != NULL)
    mat_draft_store_discard (store, draft);
  forget (self, draft);
  g_object_unref (draft);
}

GListModel *
mat_drafts_dialog_get_drafts (MatDraftsDialog *self)
{
  g_return_val_if_fail (MAT_IS_DRAFTS_DIALOG (self), NULL);

  return G_LIST_MODEL (self->drafts);
}

MatDraftsDialog *
mat_drafts_dialog_present (MatApplication *application,
                           GtkWindow      *parent,
                           GListModel     *drafts)
{
  MatDraftsDialog *self;
  guint n;

  g_return_val_if_fail (MAT_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (drafts), NULL);

  self = g_object_new (MAT_TYPE_DRAFTS_DIALOG,
                       "application", application,
                       "transient-for", parent,
                       NULL);
  self->application = application;
  n = g_list_model_get_n_items (drafts);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (drafts, i);

      g_list_store_append (self->drafts, item);
    }
  update_texts (self);
  gtk_window_present (GTK_WINDOW (self));
  return self;
}

/* ---- GObject ----------------------------------------------------------- */

static void
mat_drafts_dialog_dispose (GObject *object)
{
  MatDraftsDialog *self = MAT_DRAFTS_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_queue_clear_full (&self->jobs, (GDestroyNotify) job_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), MAT_TYPE_DRAFTS_DIALOG);
  g_clear_pointer (&self->restored, g_hash_table_unref);
  g_clear_pointer (&self->bytes, g_hash_table_unref);

  G_OBJECT_CLASS (mat_drafts_dialog_parent_class)->dispose (object);
}

static void
mat_drafts_dialog_finalize (GObject *object)
{
  MatDraftsDialog *self = MAT_DRAFTS_DIALOG (object);

  g_clear_object (&self->drafts);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (mat_drafts_dialog_parent_class)->finalize (object);
}

static void
mat_drafts_dialog_class_init (MatDraftsDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mat_drafts_dialog_dispose;
  object_class->finalize = mat_drafts_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/parkan/MatEdit/mat-drafts-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, MatDraftsDialog, heading_label);
  gtk_widget_class_bind_template_child (widget_class, MatDraftsDialog, body_label);
  gtk_widget_class_bind_template_child (widget_class, MatDraftsDialog, list);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
mat_drafts_dialog_init (MatDraftsDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->drafts = g_list_store_new (MAT_TYPE_DRAFT);
  self->restored = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->bytes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_bytes_unref);
  self->cancellable = g_cancellable_new ();
  g_queue_init (&self->jobs);
  gtk_list_box_bind_model (self->list, G_LIST_MODEL (self->drafts), create_row, self, NULL);
}
