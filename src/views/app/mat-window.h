/* mat-window.h - a window showing one material library */
#pragma once

#include <gtk/gtk.h>

#include "mat-application.h"
#include "mat-document.h"
#include "mat-drafts.h"
#include "mat-library.h"

G_BEGIN_DECLS

#define MAT_TYPE_WINDOW (mat_window_get_type ())

G_DECLARE_FINAL_TYPE (MatWindow, mat_window, MAT, WINDOW, GtkApplicationWindow)

/* Returns: (transfer none): a new window of @application. */
MatWindow   *mat_window_new                   (MatApplication *application);

/* Loads @file into a new MatDocument and shows it. A file that does not
 * open leaves the window showing what it showed before, with a message;
 * a window that showed nothing closes when another window can show the
 * message, else it shows the message itself (first in plain words what
 * is wrong, then the exact detail). @is_demo: the bundled demo library
 * (the window may be reused for the next file opened). */
void         mat_window_open                  (MatWindow      *self,
                                               GFile          *file,
                                               gboolean        is_demo);
/* Shows @library, restored from @draft (mat_draft_restore_async), as
 * the window's document: its unsaved changes to its file, whose version
 * is looked at at once (the banner says when it changed since). A load
 * running is given up; the window's unsaved texture edits stay. From now
 * on its draft is this editor's (mat_draft_store_adopt). @is_demo: the
 * file is the bundled demo library. */
void         mat_window_show_restored         (MatWindow      *self,
                                               MatLibrary     *library,
                                               MatDraft       *draft,
                                               gboolean        is_demo);
/* @textures, restored from @draft (a draft of this library's
 * Textures.lib), becomes the library's Textures.lib (in the phase table,
 * the texture window and the preview) once the library shown has loaded
 * and its own search for Textures.lib ended; its draft is this editor's
 * from then on. */
void         mat_window_restore_textures      (MatWindow         *self,
                                               MatTextureLibrary *textures,
                                               MatDraft          *draft);

/* Presents a window that is loading once its file has loaded (or failed
 * to), or after a moment when that takes longer; at once otherwise. */
void         mat_window_present_when_loaded   (MatWindow      *self);

/* Returns: (transfer none) (nullable): the file shown or being loaded. */
GFile       *mat_window_get_file              (MatWindow      *self);
/* Returns: (transfer none) (nullable): the library, %NULL while loading
 * or when the file did not decode. */
MatLibrary  *mat_window_get_library           (MatWindow      *self);
/* Returns: (transfer none) (nullable): the document shown (its file,
 * library and Textures.lib), %NULL before the first file has loaded. */
MatDocument *mat_window_get_document          (MatWindow      *self);
/* Returns: (transfer none) (nullable): why the file could not be opened. */
const char  *mat_window_get_load_error        (MatWindow      *self);
/* TRUE while a load or save is running. */
gboolean     mat_window_get_busy              (MatWindow      *self);
/* TRUE when opening another file may replace what the window shows:
 * nothing, a load error, or the demo library without changes (its
 * Textures.lib's included). */
gboolean     mat_window_get_replaceable       (MatWindow      *self);

/* Returns: (transfer none): the rows of the material list (filtered,
 * sorted) with their selection. */
GtkSingleSelection *mat_window_get_selection  (MatWindow      *self);
/* Returns: (transfer none) (nullable): the selected material. */
MatMaterial *mat_window_get_selected_material (MatWindow      *self);
/* The preview pane beside the material pages ("preview-visible",
 * toggled by the action win.toggle-preview; kept in the setting
 * preview-visible). */
gboolean     mat_window_get_preview_visible   (MatWindow      *self);
void         mat_window_set_preview_visible   (MatWindow      *self,
                                               gboolean        visible);
/* Shows the shortcuts window, made the first time it is asked for (not
 * with every window, as GTK makes a gtk/help-overlay.ui).
 * Returns: (transfer none): the shortcuts window. */
GtkShortcutsWindow *mat_window_show_shortcuts (MatWindow      *self);
/* Selects @material, clearing the search when it hides it. */
void         mat_window_select_material       (MatWindow      *self,
                                               MatMaterial    *material);

G_END_DECLS
