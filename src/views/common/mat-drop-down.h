/* mat-drop-down.h - a choice among a few short texts, its menu made when
 * first opened */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A button showing the chosen text, opening a menu of all of them: the
 * "model" and "selected" of a GtkDropDown over a GtkStringList, for a
 * handful of choices (a sort order, a shape, an animation block).
 *
 * GTK 4.8's GtkDropDown builds its popover, list, search entry and item
 * factory with every instance (0.4 ms each, and three round trips to
 * the X server for the entry's tooltip) though most are never opened;
 * this one makes its menu the first time it opens. A long or searchable
 * list, or one with pictures, stays a GtkDropDown. */
#define MAT_TYPE_DROP_DOWN (mat_drop_down_get_type ())
G_DECLARE_FINAL_TYPE (MatDropDown, mat_drop_down, MAT, DROP_DOWN, GtkWidget)

GtkWidget  *mat_drop_down_new          (GListModel  *model);
GListModel *mat_drop_down_get_model    (MatDropDown *self);
void        mat_drop_down_set_model    (MatDropDown *self,
                                        GListModel  *model);
guint       mat_drop_down_get_selected (MatDropDown *self);
void        mat_drop_down_set_selected (MatDropDown *self,
                                        guint        position);

G_END_DECLS
