/* mat-texture-library.h - the Texm textures of a Textures.lib */
#pragma once

#include <gio/gio.h>

#include "mat-archive.h"
#include "mat-draftable.h"
#include "mat-file.h"
#include "mat-history.h"
#include "mat-texture.h"
#include "texm-convert.h"

G_BEGIN_DECLS

#define MAT_TYPE_TEXTURE_LIBRARY (mat_texture_library_get_type ())

/* A GListModel of MatTexture, one per Texm entry in directory order.
 *
 * The library is editable: a picture imported as a new texture or over an
 * existing one, the Page rectangles of a texture set, a texture renamed
 * or removed. Each edit is one
 * step of the library's own MatHistory ("history"); "dirty" says whether
 * the state differs from the last load or save. A save writes the archive
 * through the preserving writer (an unchanged library gives the loaded
 * bytes back; untouched entries keep every byte) with mat_file_replace.
 *
 * What follows the edits: "items-changed" when a texture is added or
 * removed (or that is undone), "items-changed" (the same item removed and
 * added) and the texture's own "changed" signal and property
 * notifications when its payload is replaced or it is renamed, and the
 * library's "changed" signal (MatTexture *texture) after any of these.
 *
 * It is a MatArchive (mat-archive.h): the store holds the file, its ETag,
 * the history, "dirty" and the save, and the draft store keeps its
 * unsaved edits (MatDraftable). Properties "file", "etag", "dirty" and
 * "history" (the archive's, read-only, notified when they change). */
G_DECLARE_FINAL_TYPE (MatTextureLibrary, mat_texture_library, MAT, TEXTURE_LIBRARY, MatArchive)

/* Returns: (transfer full): the library, or %NULL with the core's error
 * (entry, offset, expected, found) when the archive does not parse. A
 * texture whose payload does not parse is listed with its error. */
MatTextureLibrary *mat_texture_library_new_from_bytes (GBytes        *bytes,
                                                       GError       **error);
/* Reads @file now (blocking: call it from a thread) as every archive is
 * read (mat_file_read_archive: a FIFO, a device or a file that is no
 * archive is refused at once, unindexed gigabytes are not read; a file
 * not on a local disk is refused), with its ETag; removes what killed
 * saves left in its folder. On failure the message says what is wrong
 * in plain words, then the exact detail, on two lines.
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

/* A library holding @bytes (a draft, see mat-drafts.h) as unsaved edits
 * to @file, made from its version @etag: "dirty" until it is saved, with
 * nothing to undo; a save to its own file passes @etag (a file changed on
 * disk since fails with G_IO_ERROR_WRONG_ETAG).
 * Returns: (transfer full): the library, or %NULL with @error. */
MatTextureLibrary *mat_texture_library_new_restored   (GBytes        *bytes,
                                                       GFile         *file,
                                                       const char    *etag,
                                                       GError       **error);

/* Returns: (transfer full): a library holding no entry (the 16-byte
 * header of an empty NRes archive), without a file. */
MatTextureLibrary *mat_texture_library_new_empty      (void);

/* Creates @file holding an empty NRes archive and loads it; an existing
 * file is never replaced (G_IO_ERROR_EXISTS). */
void               mat_texture_library_create_async   (GFile         *file,
                                                       GCancellable  *cancellable,
                                                       GAsyncReadyCallback callback,
                                                       gpointer       user_data);
/* Returns: (transfer full) */
MatTextureLibrary *mat_texture_library_create_finish  (GAsyncResult  *result,
                                                       GError       **error);

/* Returns: (transfer none) (nullable): the file it was loaded from. */
GFile             *mat_texture_library_get_file       (MatTextureLibrary *self);
/* Returns: (transfer none) (nullable): the ETag of the version loaded or
 * last saved. */
const char        *mat_texture_library_get_etag       (MatTextureLibrary *self);
/* Returns: (transfer none): the undo history of the library's edits. */
MatHistory        *mat_texture_library_get_history    (MatTextureLibrary *self);
/* TRUE iff the state differs from the last load or save. */
gboolean           mat_texture_library_get_dirty      (MatTextureLibrary *self);

/* Whether an import may use @name: the rules of formats.md 2.1
 * (texm_check_texture_name: TEXM_ENCODE_ERROR_NAME) and no entry of
 * another type of that name (MAT_MODEL_ERROR_NAME_TAKEN).
 * @existing: (out) (optional) (transfer none): the texture an import of
 * that name replaces, %NULL when it adds a new one. */
gboolean           mat_texture_library_check_import_name (MatTextureLibrary *self,
                                                          const char        *name,
                                                          MatTexture       **existing,
                                                          GError           **error);

/* Encodes the picture (@width x @height RGBA8, @stride bytes a row, see
 * texm_encode) with @options and stores it under @name: over the Texm
 * entry of that name (its name bytes and every other directory field
 * kept, and its header's flags5 and unk6: texm_keep_replaced_flags) or as
 * a new Texm entry at the end of the directory (attr1..3 0).
 * One undo step. @result: (out) (optional): what the encoder made.
 * Returns: (transfer none): the texture, or %NULL with the name's or the
 * encoder's error and nothing changed. */
MatTexture        *mat_texture_library_import         (MatTextureLibrary       *self,
                                                       const char              *name,
                                                       const guint8            *rgba,
                                                       guint                    width,
                                                       guint                    height,
                                                       gsize                    stride,
                                                       const TexmEncodeOptions *options,
                                                       TexmEncodeResult        *result,
                                                       GError                 **error);
/* mat_texture_library_import with the encoding in a thread: @rgba is
 * kept until it finishes, @options copied (its palette and rectangles
 * too). The name is checked at once and again when the payload is
 * stored, which happens before @callback runs. */
void               mat_texture_library_import_async   (MatTextureLibrary       *self,
                                                       const char              *name,
                                                       GBytes                  *rgba,
                                                       guint                    width,
                                                       guint                    height,
                                                       gsize                    stride,
                                                       const TexmEncodeOptions *options,
                                                       GCancellable            *cancellable,
                                                       GAsyncReadyCallback      callback,
                                                       gpointer                 user_data);
/* @encoded: (out) (optional). Returns: (transfer full): the texture, or
 * %NULL with the error and nothing changed. */
MatTexture        *mat_texture_library_import_finish  (MatTextureLibrary       *self,
                                                       GAsyncResult            *result,
                                                       TexmEncodeResult        *encoded,
                                                       GError                 **error);
/* The same with a Texm payload made elsewhere; it must parse
 * (TEXM_ERROR). Over an existing texture it, too, takes that texture's
 * flags5 and unk6. Returns: (transfer none) */
MatTexture        *mat_texture_library_import_payload (MatTextureLibrary *self,
                                                       const char        *name,
                                                       GBytes            *payload,
                                                       GError           **error);

/* Replaces the Page rectangles of @texture with @rects (a Page chunk is
 * written, also with @n_rects 0; the pixels stay byte for byte). Each
 * rectangle that differs from the one at its index now must lie inside
 * the texture with a positive size (TEXM_ENCODE_ERROR_CELL); a texture
 * whose payload does not parse is refused (MAT_MODEL_ERROR_NOT_EDITABLE).
 * One undo step; within a history group, steps on one texture merge.
 * Setting the rectangles it has changes nothing and records nothing. */
gboolean           mat_texture_library_set_page_rects (MatTextureLibrary *self,
                                                       MatTexture        *texture,
                                                       const TexmRect    *rects,
                                                       guint              n_rects,
                                                       GError           **error);

/* Whether @texture (of this library) may be called @name: the name rules
 * of an import (texm_check_texture_name: TEXM_ENCODE_ERROR_NAME) and no
 * other entry of that name, whatever its type and case
 * (MAT_MODEL_ERROR_NAME_TAKEN); its own name in other letter cases is
 * free. */
gboolean           mat_texture_library_check_rename   (MatTextureLibrary *self,
                                                       MatTexture        *texture,
                                                       const char        *name,
                                                       GError           **error);
/* Renames @texture: its entry's 36-byte name field becomes @name in
 * CP1251, zero-filled (every other directory field and the payload
 * stay). One undo step; the texture notifies "name" and emits "changed",
 * and so does the library. The same name changes nothing and records
 * nothing. Refused as mat_texture_library_check_rename says, and for a
 * texture of another library (MAT_MODEL_ERROR_NOT_EDITABLE). Materials
 * that name the old texture are not touched here (see
 * mat_library_rename_texture_uses). */
gboolean           mat_texture_library_rename         (MatTextureLibrary *self,
                                                       MatTexture        *texture,
                                                       const char        *name,
                                                       GError           **error);
/* Removes @texture's entry from the directory (a save no longer writes
 * it; the other entries keep their bytes). One undo step, which puts the
 * very texture back where it was. "items-changed" and "changed"
 * (@texture) follow. A texture of another library is refused
 * (MAT_MODEL_ERROR_NOT_EDITABLE). */
gboolean           mat_texture_library_remove         (MatTextureLibrary *self,
                                                       MatTexture        *texture,
                                                       GError           **error);

/* The bytes a save would write (preserving writer). Returns: (transfer
 * full): the archive, or %NULL with the writer's error. */
GBytes            *mat_texture_library_save_to_bytes  (MatTextureLibrary *self,
                                                       GError           **error);
/* Saves to @file, or to its own file when %NULL, with mat_file_replace:
 * over its own file with the ETag of the version loaded or last saved (a
 * file changed on disk fails with G_IO_ERROR_WRONG_ETAG unless @flags has
 * MAT_SAVE_IGNORE_CHANGES). A failed save changes nothing. */
void               mat_texture_library_save_async     (MatTextureLibrary   *self,
                                                       GFile               *file,
                                                       MatSaveFlags         flags,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean           mat_texture_library_save_finish    (MatTextureLibrary   *self,
                                                       GAsyncResult        *result,
                                                       MatSaveNotes        *notes,
                                                       GError             **error);

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
