/* mat-library-name.h - names that tell open libraries apart
 *
 * Every library of the game is called Material.lib: a window title, a
 * drop-down or a message that says only "Material.lib" cannot tell the
 * game's library from a mod's. A library is named by its file's name,
 * and when another library open beside it has the same name (ASCII and
 * Unicode case aside), by the nearest of its folders that tell the two
 * apart, as editors name their tabs: "Material.lib — Parkan/DATA" and
 * "Material.lib — mod/DATA". Nothing is read from the disk.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* One open library: where it is, and whether it is the bundled demo. */
typedef struct {
  GFile    *file;     /* (nullable): a library never saved */
  gboolean  is_demo;  /* the demo library: named as the demo */
} MatLibraryPlace;

/* The name of @place among @others (which may hold @place itself, or
 * other places of the same file: they are no rivals). The file's name
 * alone when no other place's file has the same name; else the name and
 * its folders, nearest last, as few as tell it apart from every one of
 * those ("Material.lib — Parkan/DATA", "Material.lib — ~", "Material.lib
 * — /DATA" at the top of the file system). The demo reads "Demo library"
 * and is no rival of a file of the same name; a place without a file
 * reads "Untitled". Translated.
 * @others: (array length=n_others) (nullable)
 * Returns: (transfer full). */
char *mat_library_dup_display_name (const MatLibraryPlace *place,
                                    const MatLibraryPlace *others,
                                    guint                  n_others);

/* The folder of @file as a subtitle shows it: "~" for the home folder,
 * "~/Parkan/DATA" below it, else the folder's full name ("/mnt/game").
 * Returns: (transfer full) (nullable): %NULL when @file has no parent. */
char *mat_library_dup_folder_name  (GFile                 *file);

G_END_DECLS
