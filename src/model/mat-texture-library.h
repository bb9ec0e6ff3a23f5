/* mat-texture-library.h - the Texm textures of a Textures.lib */
#pragma once

#include <gio/gio.h>

#include "mat-texture.h"

G_BEGIN_DECLS

#define MAT_TYPE_TEXTURE_LIBRARY (mat_texture_library_get_type ())

/* A GListModel of MatTexture, one per Texm entry in directory order. */
G_DECLARE_FINAL_TYPE (MatTextureLibrary, mat_texture_library, MAT, TEXTURE_LIBRARY, GObject)

/* Returns: (transfer full): the library, or %NULL with the core's error
 * (entry, offset, expected, found) when the archive does not parse. A
 * texture whose payload does not parse is listed with its error. */
MatTextureLibrary *mat_texture_library_new_from_bytes (GBytes        *bytes,
                                                       GError       **error);
/* Reads @file now (blocking: call it from a thread). A local file is
 * read as mat_file_read_library() reads one: a FIFO, a device or a file
 * that is no archive is refused at once.
 * Returns: (transfer full): the library, or %NULL with @error. */
MatTextureLibrary *mat_texture_library_load           (GFile         *file,
                                                       GCancellable  *cancellable,
                                                       GError       **error);
void               mat_texture_library_load_async     (GFile         *file,
                                                       GCancellable  *cancellable,
                                                       GAsyncReadyCallback callback,
                                                       gpointer       user_data);
/* Returns: (transfer full) */
MatTextureLibrary *mat_texture_library_load_finish    (GAsyncResult  *result,
                                                       GError       **error);

/* Returns: (transfer none) (nullable): the file it was loaded from. */
GFile             *mat_texture_library_get_file       (MatTextureLibrary *self);

/* Case-insensitive lookup, as the engine compares names.
 * Returns: (transfer none) (nullable) */
MatTexture        *mat_texture_library_lookup         (MatTextureLibrary *self,
                                                       const char        *name);

/* The Textures.lib in @folder, whatever the case of its name (not a
 * folder of that name). Blocking (one directory listing): call it from a
 * thread or accept the short wait. Returns: (transfer full) (nullable) */
GFile             *mat_texture_library_find_in_folder (GFile         *folder,
                                                       GCancellable  *cancellable);
/* The Textures.lib in the folder of @library_file, whatever the case of
 * its name. Blocking (one directory listing): call it from a thread or
 * accept the short wait. Returns: (transfer full) (nullable) */
GFile             *mat_texture_library_find_beside    (GFile         *library_file,
                                                       GCancellable  *cancellable);

G_END_DECLS
