/* cp1251.h - NRes names and texture names: CP1251 bytes <-> UTF-8
 *
 * The game stores names as CP1251 byte strings. The editor shows them as
 * UTF-8 and encodes edits back, refusing characters CP1251 cannot hold.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CP1251_ERROR (cp1251_error_quark ())

typedef enum {
  CP1251_ERROR_UNREPRESENTABLE,  /* a character CP1251 has no byte for */
  CP1251_ERROR_TOO_LONG,         /* does not fit the field with its NUL */
  CP1251_ERROR_EMPTY,            /* an empty name where one is required */
  CP1251_ERROR_INVALID_UTF8,
} Cp1251Error;

GQuark cp1251_error_quark (void);

/* Decodes @len bytes of @raw up to the first NUL (or @len) to UTF-8.
 * Bytes CP1251 leaves undefined (0x98) become U+FFFD for display only.
 * Returns: (transfer full): a NUL-terminated UTF-8 string. */
char    *cp1251_to_utf8     (const guint8 *raw,
                             gsize         len);

/* Encodes @utf8 to CP1251 into @out (a field of @field_size bytes): the
 * name, a NUL, zero-fill to the end of the field. At most @field_size - 1
 * encoded bytes. On failure @out is untouched and @error says which
 * character (and where) could not be encoded. */
gboolean cp1251_from_utf8   (const char   *utf8,
                             guint8       *out,
                             gsize         field_size,
                             GError      **error);

/* ASCII case-insensitive comparison of two NUL-terminated byte strings as
 * the engine does it (A..Z -> a..z, every other byte as it is, unsigned). */
int      cp1251_name_compare (const char *a,
                              const char *b);

G_END_DECLS
