/* mat-test-hook.c - what the tests that start the real editor drive */
#include "config.h"

#include <stdlib.h>

#include "mat-drafts-dialog.h"
#include "mat-phase-table.h"
#include "mat-test-hook.h"
#include "mat-texture-library.h"
#include "mat-window.h"

static guint serial;

static MatWindow *
first_window (MatApplication *app)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (MAT_IS_WINDOW (l->data) && mat_window_get_library (l->data) != NULL)
      return l->data;
  return NULL;
}

static MatTextureLibrary *
window_textures (MatWindow *window)
{
  MatPhaseTable *table;

  if (window == NULL)
    return NULL;
  table = MAT_PHASE_TABLE (gtk_widget_get_template_child (GTK_WIDGET (window), MAT_TYPE_WINDOW,
                                                          "phase_table"));
  return table != NULL ? mat_phase_table_get_textures (table) : NULL;
}

static char *
status (MatApplication *app)
{
  MatWindow *window = first_window (app);
  MatLibrary *library = window != NULL ? mat_window_get_library (window) : NULL;
  MatTextureLibrary *textures = window_textures (window);
  MatDocument *document = window != NULL ? mat_window_get_document (window) : NULL;
  GtkWindow *dialog = mat_application_get_drafts_dialog (app);
  guint offered = dialog != NULL
                  ? g_list_model_get_n_items (mat_drafts_dialog_get_drafts (MAT_DRAFTS_DIALOG (dialog)))
                  : 0;
  g_autoptr(GEnumClass) disks = g_type_class_ref (MAT_TYPE_DISK_STATE);
  MatDiskState disk = document != NULL ? mat_document_get_disk_state (document) : MAT_DISK_STATE_SAME;

  return g_strdup_printf ("library=%d dirty=%d textures=%d textures-dirty=%d disk=%s offered=%u windows=%u",
                          library != NULL, library != NULL && mat_library_get_dirty (library),
                          textures != NULL,
                          textures != NULL && mat_texture_library_get_dirty (textures),
                          g_enum_get_value (disks, (gint) disk)->value_nick, offered,
                          g_list_length (gtk_window_list_toplevels ()));
}

static void
textures_saved_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!mat_texture_library_save_finish (MAT_TEXTURE_LIBRARY (object), result, NULL, &error))
    g_message ("test hook: save-textures: %s", error->message);
}

static gboolean
run (MatApplication  *app,
     const char      *command,
     GError         **error)
{
  g_auto(GStrv) words = g_strsplit (command, " ", -1);
  guint n = g_strv_length (words);
  MatWindow *window = first_window (app);
  MatLibrary *library = window != NULL ? mat_window_get_library (window) : NULL;
  MatTextureLibrary *textures = window_textures (window);

  if (n == 1 && g_str_equal (words[0], "status"))
    return TRUE;
  if (library == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "no library shown yet");
      return FALSE;
    }
  if (n == 3 && g_str_equal (words[0], "attr1"))
    {
      MatMaterial *material = mat_library_find (library, words[1]);

      if (material == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no material %s", words[1]);
          return FALSE;
        }
      return mat_material_set_attr1 (material, (guint32) strtoul (words[2], NULL, 0), error);
    }
  if (n == 6 && g_str_equal (words[0], "cells"))
    {
      MatTexture *texture = textures != NULL ? mat_texture_library_lookup (textures, words[1]) : NULL;
      TexmRect rect;

      if (texture == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no texture %s", words[1]);
          return FALSE;
        }
      rect.x = (gint16) atoi (words[2]);
      rect.w = (gint16) atoi (words[3]);
      rect.y = (gint16) atoi (words[4]);
      rect.h = (gint16) atoi (words[5]);
      return mat_texture_library_set_page_rects (textures, texture, &rect, 1, error);
    }
  if (n == 1 && g_str_equal (words[0], "save"))
    return gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  if (n == 1 && g_str_equal (words[0], "save-textures") && textures != NULL)
    {
      mat_texture_library_save_async (textures, NULL, MAT_SAVE_NONE, NULL, textures_saved_cb, NULL);
      return TRUE;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "unknown command: %s", command);
  return FALSE;
}

static void
hook_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  MatApplication *app = MAT_APPLICATION (user_data);
  g_autoptr(GError) error = NULL;
  g_autofree char *state = NULL;

  serial++;
  if (run (app, g_variant_get_string (parameter, NULL), &error))
    {
      g_autofree char *now = status (app);

      state = g_strdup_printf ("%u ok %s", serial, now);
    }
  else
    state = g_strdup_printf ("%u error %s", serial, error->message);
  g_simple_action_set_state (action, g_variant_new_string (state));
}

void
mat_test_hook_install (MatApplication *application)
{
  g_autoptr(GSimpleAction) action =
    g_simple_action_new_stateful ("test-hook", G_VARIANT_TYPE_STRING, g_variant_new_string ("0 ok"));

  g_return_if_fail (MAT_IS_APPLICATION (application));

  g_signal_connect_object (action, "activate", G_CALLBACK (hook_activated), application, 0);
  g_action_map_add_action (G_ACTION_MAP (application), G_ACTION (action));
}
