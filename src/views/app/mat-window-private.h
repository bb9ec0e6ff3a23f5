/* mat-window-private.h - what the parts of MatWindow share
 *
 * The window is one class in several files: mat-window.c (the template,
 * the state, opening and saving), mat-window-actions.c (the win.*
 * actions and when they are enabled), mat-window-sidebar.c (search, sort,
 * the material list), mat-window-problems.c (the problems panel) and
 * mat-window-dnd.c (files dropped on the window), mat-window-pages.c
 * (the Animation and Flags pages, made when first shown, and the preview
 * pane beside every page), mat-window-batch.c (several materials
 * selected: the bar over the pages, its actions). Only those files and
 * the tests include this header.
 */
#pragma once

#include "mat-batch.h"
#include "mat-block-editor.h"
#include "mat-document.h"
#include "mat-drafts.h"
#include "mat-drop-down.h"
#include "mat-flags-inspector.h"
#include "mat-meta-editor.h"
#include "mat-phase-table.h"
#include "mat-preview.h"
#include "mat-search-model.h"
#include "mat-unsaved-dialog.h"
#include "mat-window.h"

G_BEGIN_DECLS

struct _MatWindow
{
  GtkApplicationWindow  parent_instance;

  /* template */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkMenuButton        *primary_menu_button;
  GMenuModel           *primary_menu;
  GtkButton            *undo_button;
  GtkButton            *redo_button;
  GtkToggleButton      *lint_toggle;
  GtkImage             *lint_toggle_icon;
  GtkLabel             *lint_toggle_label;
  GtkRevealer          *changed_revealer;
  GtkLabel             *changed_label;
  GtkRevealer          *deleted_revealer;
  GtkLabel             *deleted_label;
  GtkPaned             *paned;
  GtkWidget            *sidebar;
  GtkSearchEntry       *search_entry;
  GtkMenuButton        *query_button;
  GtkLabel             *query_error_label;
  GtkLabel             *fallback_label;
  MatDropDown          *sort_dropdown;
  GtkStack             *list_stack;
  GtkListView          *list_view;
  GtkLabel             *count_label;
  GtkStack             *main_stack;
  GtkSpinner           *spinner;
  GtkLabel             *empty_title;
  GtkLabel             *empty_body;
  GtkLabel             *library_error_title;
  GtkLabel             *library_error_label;
  GtkLabel             *entry_error_title;
  GtkLabel             *entry_error_label;
  GtkLabel             *read_only_title;
  GtkLabel             *read_only_label;
  GtkLabel             *material_name_label;
  GtkLabel             *material_info_label;
  GtkRevealer          *batch_revealer;
  GtkLabel             *batch_label;
  GtkMenuButton        *batch_apply_button;
  GtkWidget            *batch_copy_button;
  GtkWidget            *batch_delete_button;
  GtkWidget            *batch_close_button;
  GMenuModel           *batch_menu;
  GtkStack             *material_stack;
  MatPhaseTable        *phase_table;
  GtkWidget            *animation_page;
  GtkWidget            *flags_page;
  GtkPaned             *preview_paned;
  GtkWidget            *preview_pane;
  GtkToggleButton      *preview_toggle;
  GtkMenuButton        *material_menu_button;
  GMenuModel           *material_menu;
  MatPreview           *preview;
  GtkRevealer          *lint_revealer;
  GtkLabel             *lint_summary_label;
  GtkStack             *lint_stack;
  GtkListView          *lint_list;
  GMenu                *file_section;

  /* the pages made the first time they are shown, %NULL until then
   * (mat-window-pages.c) */
  MatBlockEditor       *block_editor;
  MatFlagsInspector    *flags_inspector;
  MatMetaEditor        *meta_editor;

  /* the preview pane: the phase table's focus shows its phase there */
  GtkEventController   *phase_focus;
  gboolean              preview_visible;
  gboolean              showing_phase;  /* the phase table's phase */
  int                   track_block;    /* the block to play otherwise */
  gboolean              pane_beside;    /* room for the pane beside the pages */
  guint                 fit_source;     /* idle: lay the pane out for it */

  /* the list (mat-window-sidebar.c) */
  gboolean              filtering;      /* inside mat_search_model_set_text () */
  guint                 show_source;    /* idle: show the selected material */
  GdkFrameClock        *show_clock;     /* ... after its next frame (a ref) */
  gulong                show_paint_handler;
  MatSearchModel       *filter_model;
  GPtrArray            *spare_rows;     /* MatMaterialRow, for the list */
  GtkSortListModel     *sort_model;
  GtkMultiSelection    *selection;
  guint                 scroll_source;  /* again once the rows are laid out */
  guint                 last_position;  /* of the first row selected, for
                                           when the filter hides them all */
  MatGameFolder        *worn_folder;    /* (weak) what answers worn: words */

  /* several materials selected (mat-window-batch.c): the one shown and
   * the others, %NULL for one */
  MatBatch             *batch;

  /* the problems panel (mat-window-problems.c) */
  GtkStringList        *lint_strings;
  GPtrArray            *lint_diags;     /* Mat0Diagnostic, a ref of the library's */
  guint                 n_lints;
  guint                 n_errors;
  guint                 diagnostics_source;

  /* the banner of a deletion, while its undo step is the last one */
  guint                 deleted_source;       /* timeout: hide the banner */

  /* the document: the window only shows it */
  MatDocument          *document;
  GFile                *file;           /* shown, or being loaded */
  MatLibrary           *library;        /* the document's, while shown */
  char                 *load_error;
  char                 *reselect_name;
  GCancellable         *cancellable;    /* the running load */
  MatDocument          *loading_document;
  GSignalGroup         *document_signals;
  GSignalGroup         *library_signals;
  GSignalGroup         *history_signals;
  GSignalGroup         *material_signals;
  MatMaterial          *shown;
  MatUnsavedDialog     *unsaved_dialog;
  GCancellable         *dialogs;        /* closes the questions asked */

  /* drafts of the unsaved edits (the application's MatDraftStore) */
  MatTextureLibrary    *tracked_textures;  /* (weak) the phase table's, tracked */
  MatTextureLibrary    *pending_textures;  /* restored, waits for the library */
  MatDraft             *pending_draft;     /* what @pending_textures came from */

  guint                 present_source; /* timeout: show it though loading */
  gulong                icon_paint_handler; /* the first frame, then the icon */

  guint                 is_demo : 1;
  guint                 loading_demo : 1;
  guint                 loading : 1;
  guint                 saving : 1;
  guint                 close_confirmed : 1;
  guint                 links_noted : 1;
  guint                 app_applied : 1;
  guint                 deleting : 1;
  guint                 present_pending : 1; /* shown once loaded */
};

/* mat-window.c */

/* A menu's forty widgets are made when it first opens, not with the
 * window: gtk_menu_button_set_create_popup_func() with this gives the
 * button its model (@model) then. */
void         _mat_window_menu_button_create_popup (GtkMenuButton *button,
                                                   gpointer       model);

/* Returns: (transfer none) (nullable): the application's settings. */
GSettings   *_mat_window_get_settings            (MatWindow   *self);
/* Returns: (transfer full): the name of @file as the user sees it,
 * "Untitled" for %NULL. */
char        *_mat_window_dup_display_name        (GFile       *file);
/* Returns: (transfer full): the library's name among those of the
 * application's other windows: its file's name, with the folders that
 * tell it apart from theirs (mat-library-name.h); "Demo library" for the
 * demo. */
char        *_mat_window_dup_library_name        (MatWindow   *self);
/* Shows @material (nullable) in the pages, or why it cannot be. */
void         _mat_window_show_material           (MatWindow   *self,
                                                  MatMaterial *material);
void         _mat_window_show_error              (MatWindow   *self,
                                                  const char  *heading,
                                                  const char  *body);
/* Saves where the library came from (asks where for the demo). */
void         _mat_window_save                    (MatWindow   *self,
                                                  gboolean     close_after);
void         _mat_window_save_as                 (MatWindow   *self,
                                                  gboolean     close_after);
/* Reads the file again (and so its Textures.lib), keeping the selected
 * material's name; unsaved texture edits are asked about first. */
void         _mat_window_reload                  (MatWindow   *self);

/* mat-window-actions.c */

void         _mat_window_class_actions_init      (MatWindowClass *klass);
void         _mat_window_actions_init            (MatWindow   *self);
void         _mat_window_actions_dispose         (MatWindow   *self);
/* Enables the actions for what the window shows now. */
void         _mat_window_actions_update          (MatWindow   *self);
/* The history changed: the deletion banner goes once its undo step is
 * no longer the last one. */
void         _mat_window_actions_history_changed (MatWindow   *self);
/* Hides the deletion banner. */
void         _mat_window_actions_forget_deleted  (MatWindow   *self);
/* Shows the deletion banner saying @text, with its Undo, for a while. */
void         _mat_window_actions_show_deleted    (MatWindow   *self,
                                                  const char  *text);

/* mat-window-sidebar.c */

void         _mat_window_class_sidebar_init      (MatWindowClass *klass);
void         _mat_window_sidebar_init            (MatWindow   *self);
void         _mat_window_sidebar_dispose         (MatWindow   *self);
/* The library the list shows changed. */
void         _mat_window_sidebar_set_library     (MatWindow   *self,
                                                  MatLibrary  *library);
/* Names and phase counts may have changed under the filter and sorter. */
void         _mat_window_sidebar_history_changed (MatWindow   *self);
/* The sort order from the settings. */
void         _mat_window_sidebar_apply_settings  (MatWindow   *self,
                                                  GSettings   *settings);
/* The status line under the list. */
void         _mat_window_sidebar_update_counts   (MatWindow   *self);
/* Shows the selected material now (no show is pending after it). */
void         _mat_window_sidebar_sync_selection  (MatWindow   *self);
/* Forgets a show of the selection that was waiting for a frame. */
void         _mat_window_sidebar_cancel_show     (MatWindow   *self);
/* Returns: (transfer none) (nullable): the material shown: the first
 * of those selected, in the list's order. */
MatMaterial *_mat_window_sidebar_get_selected    (MatWindow   *self);
/* Returns: (transfer container) (element-type MatMaterial): the
 * materials selected, in the list's order. */
GPtrArray   *_mat_window_sidebar_dup_selected    (MatWindow   *self);
guint        _mat_window_sidebar_get_n_selected  (MatWindow   *self);
/* Selects the rows of @materials (@n) that the list shows, only them. */
void         _mat_window_sidebar_select_materials (MatWindow   *self,
                                                   MatMaterial **materials,
                                                   guint        n);
/* A list view that is one stop of Tab and Shift+Tab, not one a row:
 * the arrows move inside it. */
void         _mat_window_make_single_tab_stop    (GtkWidget   *list);

/* mat-window-problems.c */

void         _mat_window_class_problems_init     (MatWindowClass *klass);
void         _mat_window_problems_init           (MatWindow   *self);
void         _mat_window_problems_dispose        (MatWindow   *self);
/* Reads the library's diagnostics now / a moment after the last edit. */
void         _mat_window_problems_refresh        (MatWindow   *self);
void         _mat_window_problems_schedule       (MatWindow   *self);
/* "4 lints", "1 error, 4 lints". Returns: (transfer full). */
char        *_mat_window_problems_dup_summary    (MatWindow   *self);

/* mat-window-pages.c */

void         _mat_window_class_pages_init        (MatWindowClass *klass);
void         _mat_window_pages_init              (MatWindow   *self);
/* The pages made so far and the preview show @material (nullable). */
void         _mat_window_pages_set_material      (MatWindow   *self,
                                                  MatMaterial *material);
/* Their edits go to the materials of @batch too, and they mark where
 * those differ (nullable: one material). */
void         _mat_window_pages_set_batch         (MatWindow   *self,
                                                  MatBatch    *batch);
/* Makes the Animation page now if it is not made yet.
 * Returns: (transfer none): its block editor. */
MatBlockEditor *_mat_window_ensure_animation_page (MatWindow  *self);
/* Lays the preview out for a window @width wide: beside the pages when
 * the phase table's columns fit beside it, under them otherwise. */
void         _mat_window_pages_fit               (MatWindow   *self,
                                                  int          width);
/* The widgets of the pages went with the template. */
void         _mat_window_pages_dispose           (MatWindow   *self);

/* mat-window-batch.c: several materials selected */

void         _mat_window_class_batch_init        (MatWindowClass *klass);
void         _mat_window_batch_init              (MatWindow   *self);
void         _mat_window_batch_dispose           (MatWindow   *self);
/* The selection changed (@material shown, nullable): the batch of the
 * materials selected with it, the bar that says so, the pages. */
void         _mat_window_batch_update            (MatWindow   *self,
                                                  MatMaterial *material);
/* Asks, then deletes every material selected (win.delete with several). */
void         _mat_window_batch_delete            (MatWindow   *self);

/* mat-window-dnd.c */

void         _mat_window_dnd_init                (MatWindow   *self);

G_END_DECLS
