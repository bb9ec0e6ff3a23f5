/* mat-window-clipboard.h - copy and paste of materials and phases
 *
 * The window actions that move materials and phases between libraries,
 * as the text of `mat0tool dump --json` (mat-material-json.h): a material
 * is the entry object of a one-material dump document, a phase is
 * {"phase": PHASE}. The text goes to the clipboard as plain text, so it
 * can be pasted into a forum post or a file and back.
 *
 *   win.copy-material    the selected material to the clipboard
 *   win.copy-phase       the selected phase of the phase table
 *   win.paste            the clipboard's material or phase
 *   win.export-material  the selected material as a .json file (the whole
 *                        one-material dump document: `mat0tool build`
 *                        makes a library of it)
 *   win.import-material  a .json file, as paste does
 *
 * Pasting, dropping and importing take one path, decoded in a worker
 * thread (only the insertion runs in the main loop): a material is appended
 * to the library under its own name (its name field byte for byte); when
 * another entry has that name, a dialog proposes a free one the user can
 * edit. A phase replaces the phase selected in the phase table, or is
 * appended when the material has none. Each is one undoable step.
 *
 * Ctrl+C and Ctrl+V act in the material list (copy the material) and the
 * phase table (copy the phase); a text field inside keeps its own copy and
 * paste. A material dragged from one window's list and dropped on
 * another's is pasted there.
 */
#pragma once

#include <gtk/gtk.h>

#include "mat-window.h"

G_BEGIN_DECLS

/* What a material dragged between the lists of windows carries: its
 * JSON text. A type of its own, so the list takes these drags only and
 * files dragged from a file manager (offered as text too) still reach the
 * window. Also offered as plain text. */
#define MAT_TYPE_MATERIAL_DRAG (mat_material_drag_get_type ())
#define MAT_MATERIAL_DRAG_MIME_TYPE "application/x-parkan-matedit-material+json"

typedef struct _MatMaterialDrag MatMaterialDrag;

GType        mat_material_drag_get_type      (void) G_GNUC_CONST;
/* Returns: (transfer full). */
MatMaterialDrag *mat_material_drag_new       (const char      *text);
/* Returns: (transfer none): the JSON text. */
const char  *mat_material_drag_get_text      (const MatMaterialDrag *drag);
MatMaterialDrag *mat_material_drag_copy      (const MatMaterialDrag *drag);
void         mat_material_drag_free          (MatMaterialDrag *drag);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MatMaterialDrag, mat_material_drag_free)

/* From mat_window_class_init: installs the actions above. */
void         mat_window_clipboard_class_init (GtkWidgetClass  *widget_class);
/* From mat_window_init, after the template: the shortcuts, the drag
 * source and drop target of the list, the actions' enabled state. */
void         mat_window_clipboard_init       (MatWindow       *self);

/* The paste path (what paste, drop and import call): @text holds a
 * material or a phase; failures are shown in a dialog. The text is
 * decoded in a worker thread (a text over 64 MiB is refused): the paste
 * happens later, in the main loop, into the library shown now. */
void         mat_window_paste_text           (MatWindow       *self,
                                              const char      *text);
/* TRUE while a paste, a drop or an import is read or decoded (win.paste
 * is off meanwhile). */
gboolean     mat_window_get_pasting          (MatWindow       *self);
/* What export writes to @file once the user chose it. */
gboolean     mat_window_export_material_to   (MatWindow       *self,
                                              GFile           *file,
                                              GError         **error);
/* Reads and decodes @file (a regular file of at most 64 MiB) in a
 * worker thread and pastes its material or phase; what import does once
 * the user chose it. */
void         mat_window_import_file          (MatWindow       *self,
                                              GFile           *file);

G_END_DECLS
