/* mat-window-clipboard.c - copy and paste of materials and phases */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "nres.h"

#include "mat-material-json.h"
#include "mat-material-row.h"
#include "mat-name-dialog.h"
#include "mat-phase-table.h"
#include "mat-window-clipboard.h"
#include "mat-window-private.h"

/* A text to paste (a file to import, read whole) larger than this is no
 * material: 19 blocks of 65,535 keys and 65,535 phases take about half
 * of it. */
#define MAX_IMPORT_SIZE (64u << 20)

/* GTask source tag (function pointers are not data pointers in ISO C). */
static char import_tag[] = "mat_window_import_file";

/* An imported file that holds no material and no phase. */
static G_DEFINE_QUARK (mat-window-nothing-to-paste, nothing_to_paste)

/* The drag type */

struct _MatMaterialDrag
{
  char *text;
};

MatMaterialDrag *
mat_material_drag_new (const char *text)
{
  MatMaterialDrag *drag = g_new0 (MatMaterialDrag, 1);

  drag->text = g_strdup (text != NULL ? text : "");
  return drag;
}

const char *
mat_material_drag_get_text (const MatMaterialDrag *drag)
{
  g_return_val_if_fail (drag != NULL, NULL);

  return drag->text;
}

MatMaterialDrag *
mat_material_drag_copy (const MatMaterialDrag *drag)
{
  g_return_val_if_fail (drag != NULL, NULL);

  return mat_material_drag_new (drag->text);
}

void
mat_material_drag_free (MatMaterialDrag *drag)
{
  if (drag == NULL)
    return;
  g_free (drag->text);
  g_free (drag);
}

static gpointer
boxed_copy (gpointer boxed)
{
  return mat_material_drag_copy (boxed);
}

static void
boxed_free (gpointer boxed)
{
  mat_material_drag_free (boxed);
}

GType
mat_material_drag_get_type (void)
{
  static gsize type = 0;

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_boxed_type_register_static (g_intern_static_string ("MatMaterialDrag"),
                                                            boxed_copy, boxed_free));
  return type;
}

/* Between processes (two instances of the editor) the drag goes as its
 * MIME type: written and read back as the bytes of the text. */

static void
serialize_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GdkContentSerializer *serializer = user_data;
  GError *error = NULL;

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, &error))
    gdk_content_serializer_return_error (serializer, error);
  else
    gdk_content_serializer_return_success (serializer);
}

static void
serialize_drag (GdkContentSerializer *serializer)
{
  const MatMaterialDrag *drag = g_value_get_boxed (gdk_content_serializer_get_value (serializer));
  const char *text = drag != NULL ? drag->text : "";

  g_output_stream_write_all_async (gdk_content_serializer_get_output_stream (serializer),
                                   text, strlen (text),
                                   gdk_content_serializer_get_priority (serializer),
                                   gdk_content_serializer_get_cancellable (serializer),
                                   serialize_done_cb, serializer);
}

static void
deserialize_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  GdkContentDeserializer *deserializer = user_data;
  GOutputStream *stream = G_OUTPUT_STREAM (object);
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;
  gsize size;
  const char *data;
  MatMaterialDrag *drag;

  if (g_output_stream_splice_finish (stream, result, &error) < 0)
    {
      gdk_content_deserializer_return_error (deserializer, error);
      return;
    }

  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (stream));
  data = g_bytes_get_data (bytes, &size);
  drag = g_new0 (MatMaterialDrag, 1);
  drag->text = g_strndup (data != NULL ? data : "", size);
  g_value_take_boxed (gdk_content_deserializer_get_value (deserializer), drag);
  gdk_content_deserializer_return_success (deserializer);
}

static void
deserialize_drag (GdkContentDeserializer *deserializer)
{
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();

  g_output_stream_splice_async (stream,
                                gdk_content_deserializer_get_input_stream (deserializer),
                                G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE |
                                G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                                gdk_content_deserializer_get_priority (deserializer),
                                gdk_content_deserializer_get_cancellable (deserializer),
                                deserialize_done_cb, deserializer);
}

/* Helpers */

static gpointer
template_child (MatWindow  *self,
                const char *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (self), MAT_TYPE_WINDOW, name);
}

static MatPhaseTable *
phase_table (MatWindow *self)
{
  return MAT_PHASE_TABLE (template_child (self, "phase_table"));
}

#if !GTK_CHECK_VERSION (4, 10, 0)
static void
message_response_cb (GtkDialog *dialog,
                     int        response,
                     gpointer   user_data)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
}
#endif

static void
show_error (MatWindow  *self,
            const char *heading,
            const char *body)
{
#if GTK_CHECK_VERSION (4, 10, 0)
  g_autoptr(GtkAlertDialog) dialog = gtk_alert_dialog_new ("%s", heading);

  gtk_alert_dialog_set_detail (dialog, body);
  gtk_alert_dialog_show (dialog, GTK_WINDOW (self));
#else
  GtkWidget *dialog;

  dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", heading);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", body);
  g_signal_connect (dialog, "response", G_CALLBACK (message_response_cb), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
#endif
}

/* The selected material when it is one that can be copied. */
static MatMaterial *
copyable_material (MatWindow *self)
{
  MatMaterial *material = mat_window_get_selected_material (self);

  if (material == NULL || mat_material_get_type_id (material) != NRES_TYPE_MAT0)
    return NULL;
  return material;
}

/* Every material selected that can be copied (several: they copy and
 * export as one dump document). Returns: (transfer container). */
static GPtrArray *
copyable_materials (MatWindow *self)
{
  g_autoptr(GPtrArray) selected = mat_window_dup_selected_materials (self);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < selected->len; i++)
    {
      MatMaterial *material = g_ptr_array_index (selected, i);

      if (mat_material_get_type_id (material) == NRES_TYPE_MAT0)
        g_ptr_array_add (out, g_object_ref (material));
    }
  return out;
}

/* The phase selected in the phase table. Returns: (transfer full) (nullable). */
static MatPhase *
selected_phase (MatWindow *self)
{
  MatPhaseTable *table = phase_table (self);
  MatMaterial *material = mat_phase_table_get_material (table);
  guint selected = mat_phase_table_get_selected (table);

  if (material == NULL || selected == GTK_INVALID_LIST_POSITION)
    return NULL;
  return g_list_model_get_item (mat_material_get_phases (material), selected);
}

static void
update_enabled (MatWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr(MatPhase) phase = selected_phase (self);
  gboolean material = copyable_material (self) != NULL;

  gtk_widget_action_set_enabled (widget, "win.copy-material", material);
  gtk_widget_action_set_enabled (widget, "win.export-material", material);
  gtk_widget_action_set_enabled (widget, "win.copy-phase", phase != NULL);
}

/* Pasting
 *
 * The text is decoded in a worker thread (mat_json_item_decode_async:
 * parsing, every value checked, the material made and decoded); only
 * the insertion runs here. While a text decodes, win.paste is off. */

static const char decoding_key[] = "mat-clipboard-decoding";

static gboolean
decoding (MatWindow *self)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (self), decoding_key)) > 0;
}

static void
set_decoding (MatWindow *self,
              gboolean   more)
{
  guint n = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (self), decoding_key));

  n = more ? n + 1 : (n > 0 ? n - 1 : 0);
  g_object_set_data (G_OBJECT (self), decoding_key, GUINT_TO_POINTER (n));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.paste", n == 0);
}

static void
name_dialog_done_cb (MatWindow   *self,
                     MatMaterial *material)
{
  mat_window_select_material (self, material);
}

static void
paste_material (MatWindow   *self,
                MatLibrary  *library,
                MatJsonItem *item)
{
  g_autoptr(GError) error = NULL;
  MatMaterial *material;

  material = mat_library_paste_item (library, item, NULL, &error);
  if (material != NULL)
    {
      mat_window_select_material (self, material);
      return;
    }

  if (g_error_matches (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN) ||
      g_error_matches (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_INVALID))
    {
      const char *name = mat_json_item_get_name (item);
      g_autofree char *library_name = _mat_window_dup_library_name (self);
      MatNameDialog *dialog;

      dialog = mat_name_dialog_present_paste (GTK_WINDOW (self), library, item,
                                              name != NULL && name[0] != '\0' ? name : "MATERIAL");
      /* which library, when two are called Material.lib */
      mat_name_dialog_set_library_name (dialog, library_name);
      g_signal_connect_object (dialog, "done", G_CALLBACK (name_dialog_done_cb), self,
                               G_CONNECT_SWAPPED);
      return;
    }

  show_error (self, _("Could Not Paste the Material"), error->message);
}

/* A document of several: all of them, under free names where theirs
 * are taken, one undo step; they are selected. */
static void
paste_materials (MatWindow   *self,
                 MatLibrary  *library,
                 MatJsonItem *item)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) pasted = mat_library_paste_all (library, item, NULL, &error);

  if (pasted == NULL)
    {
      show_error (self, _("Could Not Paste the Materials"), error->message);
      return;
    }
  mat_window_select_materials (self, (MatMaterial **) pasted->pdata, pasted->len);
}

static void
paste_phase (MatWindow   *self,
             MatJsonItem *item)
{
  MatPhaseTable *table = phase_table (self);
  MatMaterial *material = mat_phase_table_get_material (table);
  g_autoptr(GError) error = NULL;
  MatPhase *phase;
  guint selected, n;

  if (material == NULL || !mat_material_get_editable (material))
    {
      show_error (self, _("Could Not Paste the Phase"),
                  _("Select a material that can be edited: the phase replaces its selected phase."));
      return;
    }

  /* The selected phase is replaced; a material with none gets it. */
  n = mat_material_get_n_phases (material);
  selected = mat_phase_table_get_selected (table);
  if (selected < n)
    phase = mat_material_paste_phase_item (material, selected, TRUE, item, &error);
  else
    phase = mat_material_paste_phase_item (material, n, FALSE, item, &error);

  if (phase == NULL)
    {
      show_error (self, _("Could Not Paste the Phase"), error->message);
      return;
    }
  mat_phase_table_set_selected (table, mat_phase_get_index (phase));
}

/* The cheap part of a paste, in the main loop: @item (decoded) into the
 * library shown, when it is still @library. */
static void
paste_item (MatWindow   *self,
            MatLibrary  *library,
            MatJsonItem *item)
{
  if (library == NULL || mat_window_get_library (self) != library)
    return;   /* another file was opened meanwhile */

  if (mat_json_item_get_kind (item) == MAT_JSON_PHASE)
    paste_phase (self, item);
  else if (mat_json_item_get_kind (item) == MAT_JSON_MATERIALS)
    paste_materials (self, library, item);
  else
    paste_material (self, library, item);
}

typedef struct {
  MatWindow  *self;
  MatLibrary *library;
} Decoding;

static void
decoding_free (Decoding *d)
{
  g_clear_object (&d->self);
  g_clear_object (&d->library);
  g_free (d);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Decoding, decoding_free)

static void
decoded_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Decoding) d = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(MatJsonItem) item = mat_json_item_decode_finish (result, &error);

  set_decoding (d->self, FALSE);
  if (gtk_widget_in_destruction (GTK_WIDGET (d->self)))
    return;
  if (item == NULL)
    {
      show_error (d->self, _("Nothing to Paste"), error->message);
      return;
    }
  paste_item (d->self, d->library, item);
}

/* Pastes @text (taken) when it is not larger than a material can be. */
static void
paste_bytes (MatWindow *self,
             GBytes    *text)
{
  g_autoptr(GBytes) bytes = text;
  MatLibrary *library = mat_window_get_library (self);
  Decoding *d;

  if (library == NULL)
    return;
  if (g_bytes_get_size (bytes) > MAX_IMPORT_SIZE)
    {
      g_autofree char *size = g_format_size (g_bytes_get_size (bytes));
      g_autofree char *body =
        /* Translators: %s is a size such as "80.0 MB", %u a number of MiB */
        g_strdup_printf (_("The text holds %s; a material takes far less (at most %u MiB are read)"),
                         size, MAX_IMPORT_SIZE >> 20);

      show_error (self, _("Nothing to Paste"), body);
      return;
    }

  d = g_new0 (Decoding, 1);
  d->self = g_object_ref (self);
  d->library = g_object_ref (library);
  set_decoding (self, TRUE);
  mat_json_item_decode_async (bytes, NULL, decoded_cb, d);
}

void
mat_window_paste_text (MatWindow  *self,
                       const char *text)
{
  g_return_if_fail (MAT_IS_WINDOW (self));
  g_return_if_fail (text != NULL);

  paste_bytes (self, g_bytes_new (text, strlen (text)));
}

gboolean
mat_window_get_pasting (MatWindow *self)
{
  g_return_val_if_fail (MAT_IS_WINDOW (self), FALSE);

  return decoding (self);
}

/* Actions */

static void
copy_material_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  g_autoptr(GPtrArray) materials = copyable_materials (self);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (materials->len == 0)
    return;

  /* one: its entry object; several: the dump document of them all */
  text = materials->len == 1
         ? mat_material_to_json (g_ptr_array_index (materials, 0), &error)
         : mat_materials_to_json_document ((MatMaterial * const *) materials->pdata, materials->len, &error);
  if (text == NULL)
    {
      show_error (self, _("Could Not Copy the Material"), error->message);
      return;
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

static void
copy_phase_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  g_autoptr(MatPhase) phase = selected_phase (self);
  g_autofree char *text = NULL;

  if (phase == NULL)
    return;

  text = mat_phase_to_json (phase);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

static void
clipboard_read_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(MatWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);

  set_decoding (self, FALSE);
  if (text == NULL)
    {
      show_error (self, _("Nothing to Paste"),
                  _("The clipboard holds no text. Copy a material or a phase first."));
      return;
    }
  paste_bytes (self, g_bytes_new_take (text, strlen (text)));
}

static void
paste_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  if (mat_window_get_library (MAT_WINDOW (widget)) == NULL || decoding (MAT_WINDOW (widget)))
    return;

  /* off from the press on: a second Ctrl+V does not paste twice */
  set_decoding (MAT_WINDOW (widget), TRUE);

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL,
                                 clipboard_read_cb, g_object_ref (widget));
}

/* Export and import */

static GtkFileFilter *
json_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Materials as JSON"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_filter_add_mime_type (filter, "application/json");
  return filter;
}

/* The folder of the library's file: where its materials go and come
 * from. Returns: (transfer full) (nullable). */
static GFile *
library_folder (MatWindow *self)
{
  MatLibrary *library = mat_window_get_library (self);
  GFile *file = library != NULL ? mat_library_get_file (library) : NULL;

  return file != NULL ? g_file_get_parent (file) : NULL;
}

static gboolean
export_material (GPtrArray    *materials,
                 GFile        *file,
                 GError      **error)
{
  g_autofree char *text = mat_materials_to_json_document ((MatMaterial * const *) materials->pdata,
                                                          materials->len, error);

  if (text == NULL)
    return FALSE;
  return g_file_replace_contents (file, text, strlen (text), NULL, FALSE,
                                  G_FILE_CREATE_NONE, NULL, NULL, error);
}

gboolean
mat_window_export_material_to (MatWindow  *self,
                               GFile      *file,
                               GError    **error)
{
  g_autoptr(GPtrArray) materials = NULL;

  g_return_val_if_fail (MAT_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  materials = copyable_materials (self);
  if (materials->len == 0)
    {
      g_set_error_literal (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE,
                           _("No material is selected"));
      return FALSE;
    }
  return export_material (materials, file, error);
}

static void
export_chosen (MatWindow   *self,
               GPtrArray   *materials,
               GFile       *file)
{
  g_autoptr(GError) error = NULL;

  if (!export_material (materials, file, &error))
    {
      g_autofree char *name = g_file_get_basename (file);
      /* Translators: %s is a file name */
      g_autofree char *heading = g_strdup_printf (_("Could Not Export “%s”"), name);

      show_error (self, heading, error->message);
    }
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
export_dialog_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(MatWindow) self = user_data;
  g_autoptr(GPtrArray) materials = g_object_steal_data (object, "mat-materials");
  g_autoptr(GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (file != NULL && materials != NULL)
    export_chosen (self, materials, file);
}

static void
import_dialog_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(MatWindow) self = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (file != NULL)
    mat_window_import_file (self, file);
}

static GListModel *
dialog_filters (void)
{
  GListStore *filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) filter = json_filter ();

  g_list_store_append (filters, filter);
  return G_LIST_MODEL (filters);
}
#else
static void
export_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    gpointer         user_data)
{
  g_autoptr(MatWindow) self = user_data;
  g_autoptr(GPtrArray) materials = g_object_steal_data (G_OBJECT (dialog), "mat-materials");

  if (response == GTK_RESPONSE_ACCEPT && materials != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        export_chosen (self, materials, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
import_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    gpointer         user_data)
{
  g_autoptr(MatWindow) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        mat_window_import_file (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}
#endif

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  GPtrArray *materials = copyable_materials (self);
  g_autoptr(GFile) folder = NULL;
  g_autofree char *name = NULL;

  if (materials->len == 0)
    {
      g_ptr_array_unref (materials);
      return;
    }
  folder = library_folder (self);

  /* a name may hold what a file name cannot; several: "Materials.json" */
  if (materials->len == 1)
    name = g_strdup_printf ("%s.json", mat_material_get_name (g_ptr_array_index (materials, 0)));
  else
    /* Translators: the file name offered for several materials exported */
    name = g_strdup (_("Materials.json"));
  g_strdelimit (name, "/\\", '_');

#if GTK_CHECK_VERSION (4, 10, 0)
  {
    g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
    g_autoptr(GListModel) filters = dialog_filters ();

    gtk_file_dialog_set_title (dialog, materials->len == 1 ? _("Export Material") : _("Export Materials"));
    gtk_file_dialog_set_initial_name (dialog, name);
    if (folder != NULL)
      gtk_file_dialog_set_initial_folder (dialog, folder);
    gtk_file_dialog_set_filters (dialog, filters);
    g_object_set_data_full (G_OBJECT (dialog), "mat-materials", materials,
                            (GDestroyNotify) g_ptr_array_unref);
    gtk_file_dialog_save (dialog, GTK_WINDOW (self), NULL, export_dialog_cb, g_object_ref (self));
  }
#else
  {
    GtkFileChooserNative *dialog;

    dialog = gtk_file_chooser_native_new (materials->len == 1 ? _("Export Material") : _("Export Materials"),
                                          GTK_WINDOW (self),
                                          GTK_FILE_CHOOSER_ACTION_SAVE,
                                          _("_Export"), _("_Cancel"));
    gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
    g_autoptr(GtkFileFilter) filter = json_filter ();

    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
    if (folder != NULL)
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
    gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    g_object_set_data_full (G_OBJECT (dialog), "mat-materials", materials,
                            (GDestroyNotify) g_ptr_array_unref);
    g_signal_connect (dialog, "response", G_CALLBACK (export_response_cb), g_object_ref (self));
    gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
  }
#endif
}

static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MatWindow *self = MAT_WINDOW (widget);
  g_autoptr(GFile) folder = NULL;

  if (mat_window_get_library (self) == NULL)
    return;
  folder = library_folder (self);

#if GTK_CHECK_VERSION (4, 10, 0)
  {
    g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
    g_autoptr(GListModel) filters = dialog_filters ();

    gtk_file_dialog_set_title (dialog, _("Import Material"));
    if (folder != NULL)
      gtk_file_dialog_set_initial_folder (dialog, folder);
    gtk_file_dialog_set_filters (dialog, filters);
    gtk_file_dialog_open (dialog, GTK_WINDOW (self), NULL, import_dialog_cb, g_object_ref (self));
  }
#else
  {
    GtkFileChooserNative *dialog;

    dialog = gtk_file_chooser_native_new (_("Import Material"), GTK_WINDOW (self),
                                          GTK_FILE_CHOOSER_ACTION_OPEN,
                                          _("_Import"), _("_Cancel"));
    g_autoptr(GtkFileFilter) filter = json_filter ();

    gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
    if (folder != NULL)
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
    gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    g_signal_connect (dialog, "response", G_CALLBACK (import_response_cb), g_object_ref (self));
    gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
  }
#endif
}

/* In a thread: a regular file of at most MAX_IMPORT_SIZE bytes, read. */
static void
import_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GFile *file = task_data;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *name = g_file_get_parse_name (file);
  GError *error = NULL;
  char *contents = NULL;
  gsize length = 0;
  MatJsonItem *item;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NONE, cancellable, &error);
  if (info == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                               _("%s is not a regular file"), name);
      return;
    }
  if (g_file_info_get_size (info) > MAX_IMPORT_SIZE)
    {
      g_autofree char *size = g_format_size ((guint64) g_file_info_get_size (info));

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               /* Translators: %s is a size such as "80.0 MB", %u a number of MiB */
                               _("The file holds %s; a material takes far less (at most %u MiB are read)"),
                               size, MAX_IMPORT_SIZE >> 20);
      return;
    }
  if (!g_file_load_contents (file, cancellable, &contents, &length, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  /* decoded here too: only the insertion is left for the main loop */
  item = mat_json_item_decode (contents, (gssize) length, &error);
  g_free (contents);
  if (item == NULL)
    {
      /* said as a paste says it */
      error->domain = nothing_to_paste_quark ();
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, item, (GDestroyNotify) mat_json_item_unref);
}

static void
import_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  MatWindow *self = MAT_WINDOW (object);
  GFile *file = g_task_get_task_data (G_TASK (result));
  MatLibrary *library = g_object_get_data (G_OBJECT (result), "mat-library");
  g_autoptr(GError) error = NULL;
  g_autoptr(MatJsonItem) item = g_task_propagate_pointer (G_TASK (result), &error);

  set_decoding (self, FALSE);
  if (gtk_widget_in_destruction (GTK_WIDGET (self)))
    return;
  if (item == NULL && error->domain == nothing_to_paste_quark ())
    {
      show_error (self, _("Nothing to Paste"), error->message);
      return;
    }
  if (item == NULL)
    {
      g_autofree char *name = g_file_get_basename (file);
      /* Translators: %s is a file name */
      g_autofree char *heading = g_strdup_printf (_("Could Not Import “%s”"), name);

      show_error (self, heading, error->message);
      return;
    }
  paste_item (self, library, item);
}

void
mat_window_import_file (MatWindow *self,
                        GFile     *file)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MAT_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (mat_window_get_library (self) == NULL)
    return;
  task = g_task_new (self, NULL, import_done_cb, NULL);
  g_task_set_source_tag (task, import_tag);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  /* the library to paste into: the one shown now */
  g_object_set_data_full (G_OBJECT (task), "mat-library",
                          g_object_ref (mat_window_get_library (self)), g_object_unref);
  set_decoding (self, TRUE);
  g_task_run_in_thread (task, import_thread);
}

/* Drag and drop between the lists of windows */

static MatMaterialRow *
row_at (GtkWidget *list,
        double     x,
        double     y)
{
  GtkWidget *widget = gtk_widget_pick (list, x, y, GTK_PICK_DEFAULT);

  for (; widget != NULL && widget != list; widget = gtk_widget_get_parent (widget))
    if (MAT_IS_MATERIAL_ROW (widget))
      return MAT_MATERIAL_ROW (widget);
  return NULL;
}

static GdkContentProvider *
drag_prepare_cb (GtkDragSource *source,
                 double         x,
                 double         y,
                 MatWindow     *self)
{
  GtkWidget *list = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (source));
  MatMaterialRow *row = row_at (list, x, y);
  MatMaterial *material = row != NULL ? mat_material_row_get_material (row) : NULL;
  g_autoptr(MatMaterialDrag) drag = NULL;
  g_autoptr(GdkPaintable) icon = NULL;
  g_autofree char *text = NULL;
  GdkContentProvider *providers[2];
  graphene_point_t at = GRAPHENE_POINT_INIT (0, 0);

  if (material == NULL || mat_material_get_type_id (material) != NRES_TYPE_MAT0)
    return NULL;
  text = mat_material_to_json (material, NULL);
  if (text == NULL)
    return NULL;

  /* the row under the pointer as the icon, held where it was taken */
  if (!gtk_widget_compute_point (list, GTK_WIDGET (row), &GRAPHENE_POINT_INIT ((float) x, (float) y), &at))
    at = GRAPHENE_POINT_INIT (0, 0);
  icon = gtk_widget_paintable_new (GTK_WIDGET (row));
  gtk_drag_source_set_icon (source, icon, (int) at.x, (int) at.y);

  drag = mat_material_drag_new (text);
  providers[0] = gdk_content_provider_new_typed (MAT_TYPE_MATERIAL_DRAG, drag);
  providers[1] = gdk_content_provider_new_typed (G_TYPE_STRING, text);
  return gdk_content_provider_new_union (providers, G_N_ELEMENTS (providers));
}

typedef struct {
  MatWindow *self;
  char      *text;
} DropPaste;

static gboolean
drop_paste_idle (gpointer data)
{
  DropPaste *paste = data;

  mat_window_paste_text (paste->self, paste->text);
  g_object_unref (paste->self);
  g_free (paste->text);
  g_free (paste);
  return G_SOURCE_REMOVE;
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         MatWindow     *self)
{
  GtkDragSource *own = g_object_get_data (G_OBJECT (self), "mat-clipboard-drag-source");
  const MatMaterialDrag *drag;
  DropPaste *paste;

  if (!G_VALUE_HOLDS (value, MAT_TYPE_MATERIAL_DRAG) || mat_window_get_library (self) == NULL)
    return FALSE;
  /* a material dropped back on its own list stays where it was */
  if (own != NULL && gtk_drag_source_get_drag (own) != NULL)
    return FALSE;
  drag = g_value_get_boxed (value);
  if (drag == NULL)
    return FALSE;

  /* after the drop is over: pasting may ask for a name */
  paste = g_new0 (DropPaste, 1);
  paste->self = g_object_ref (self);
  paste->text = g_strdup (drag->text);
  g_idle_add (drop_paste_idle, paste);
  return TRUE;
}

/* Shortcuts: in the list and the phase table, never in a text field */

static gboolean
shortcut_cb (GtkWidget *widget,
             GVariant  *args,
             gpointer   user_data)
{
  const char *action = user_data;
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (focus != NULL && GTK_IS_EDITABLE (focus))
    return FALSE;
  return gtk_widget_activate_action (widget, action, NULL);
}

/* In the capture phase: before the search field's key capture on the
 * list, which would paste the text into the search. */
static void
add_shortcuts (GtkWidget  *widget,
               const char *copy_action)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  GtkShortcutController *shortcuts = GTK_SHORTCUT_CONTROLLER (controller);

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);

  gtk_shortcut_controller_add_shortcut (shortcuts,
    gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_c, GDK_CONTROL_MASK),
                      gtk_callback_action_new (shortcut_cb, (gpointer) copy_action, NULL)));
  gtk_shortcut_controller_add_shortcut (shortcuts,
    gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_v, GDK_CONTROL_MASK),
                      gtk_callback_action_new (shortcut_cb, (gpointer) "win.paste", NULL)));
  gtk_widget_add_controller (widget, controller);
}

/* Public */

void
mat_window_clipboard_class_init (GtkWidgetClass *widget_class)
{
  static gsize registered = 0;

  if (g_once_init_enter (&registered))
    {
      gdk_content_register_serializer (MAT_TYPE_MATERIAL_DRAG, MAT_MATERIAL_DRAG_MIME_TYPE,
                                       serialize_drag, NULL, NULL);
      gdk_content_register_deserializer (MAT_MATERIAL_DRAG_MIME_TYPE, MAT_TYPE_MATERIAL_DRAG,
                                         deserialize_drag, NULL, NULL);
      g_once_init_leave (&registered, 1);
    }

  gtk_widget_class_install_action (widget_class, "win.copy-material", NULL, copy_material_action);
  gtk_widget_class_install_action (widget_class, "win.copy-phase", NULL, copy_phase_action);
  gtk_widget_class_install_action (widget_class, "win.paste", NULL, paste_action);
  gtk_widget_class_install_action (widget_class, "win.export-material", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.import-material", NULL, import_action);
}

void
mat_window_clipboard_init (MatWindow *self)
{
  GtkWidget *list = template_child (self, "list_view");
  MatPhaseTable *table = phase_table (self);
  GtkDragSource *source;
  GtkDropTarget *target;

  g_return_if_fail (MAT_IS_WINDOW (self));
  g_return_if_fail (GTK_IS_LIST_VIEW (list));

  /* on the list's scrolled window: its capture runs before the list's */
  add_shortcuts (gtk_widget_get_parent (list), "win.copy-material");
  add_shortcuts (GTK_WIDGET (table), "win.copy-phase");

  source = gtk_drag_source_new ();
  gtk_drag_source_set_actions (source, GDK_ACTION_COPY);
  g_signal_connect_object (source, "prepare", G_CALLBACK (drag_prepare_cb), self, 0);
  gtk_widget_add_controller (list, GTK_EVENT_CONTROLLER (source));
  g_object_set_data (G_OBJECT (self), "mat-clipboard-drag-source", source);

  target = gtk_drop_target_new (MAT_TYPE_MATERIAL_DRAG, GDK_ACTION_COPY);
  g_signal_connect_object (target, "drop", G_CALLBACK (drop_cb), self, 0);
  gtk_widget_add_controller (list, GTK_EVENT_CONTROLLER (target));

  g_signal_connect_object (mat_window_get_selection (self), "selection-changed",
                           G_CALLBACK (update_enabled), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (mat_window_get_selection (self), "items-changed",
                           G_CALLBACK (update_enabled), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (table, "notify::material",
                           G_CALLBACK (update_enabled), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (table, "notify::selected",
                           G_CALLBACK (update_enabled), self, G_CONNECT_SWAPPED);
  update_enabled (self);
}
