/* mat-picture.c - pictures read for a texture import, checked before they are decoded */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "mat-file.h"
#include "mat-picture.h"

/* Bytes handed to the loader at a time: the size is known after the
 * first piece, and a picture refused then is never read further. */
#define WRITE_PIECE (1u << 16)

typedef enum {
  FORMAT_PNG,
  FORMAT_JPEG,
  FORMAT_BMP,
  FORMAT_TGA,
  FORMAT_OTHER,
} Format;

/* The gdk-pixbuf loaders, by Format. */
static const char * const loader_names[] = { "png", "jpeg", "bmp", "tga" };
static const char * const format_names[] = { "PNG", "JPEG", "BMP", "TGA" };

/* ---- what the file is ------------------------------------------------- */

static gboolean
starts_with (const guint8 *data,
             gsize         size,
             const char   *magic,
             gsize         length)
{
  return size >= length && memcmp (data, magic, length) == 0;
}

/* TGA has no signature: its header is recognised as gdk-pixbuf's TGA
 * loader recognises it (a colour map type 1 with a colour-mapped image,
 * or 0 with a true-colour or grey one, plain or RLE), 18 bytes at least. */
static gboolean
looks_like_tga (const guint8 *data,
                gsize         size)
{
  if (size < 18)
    return FALSE;
  if (data[1] == 1)
    return data[2] == 1 || data[2] == 9;
  if (data[1] == 0)
    return data[2] == 2 || data[2] == 3 || data[2] == 10 || data[2] == 11;
  return FALSE;
}

static Format
sniff (const guint8 *data,
       gsize         size)
{
  if (starts_with (data, size, "\x89PNG\r\n\x1a\n", 8))
    return FORMAT_PNG;
  if (starts_with (data, size, "\xff\xd8\xff", 3))
    return FORMAT_JPEG;
  if (starts_with (data, size, "BM", 2) && size >= 26)
    return FORMAT_BMP;
  if (looks_like_tga (data, size))
    return FORMAT_TGA;
  return FORMAT_OTHER;
}

/* The message for a file of none of the four formats, saying what it is
 * when that is plain from its first bytes. */
static void
set_not_a_picture (const guint8  *data,
                   gsize          size,
                   GError       **error)
{
  gsize i = 0;
  const char *message;

  if (starts_with (data, size, "\xef\xbb\xbf", 3))
    i = 3;   /* a UTF-8 byte order mark */
  while (i < size && g_ascii_isspace (data[i]))
    i++;

  if (size == 0)
    message = _("expected a PNG, JPEG, BMP or TGA picture, found an empty file");
  else if (i < size && data[i] == '<')
    message = _("expected a PNG, JPEG, BMP or TGA picture, found an SVG drawing or "
                "another XML or HTML document");
  else if (starts_with (data, size, "\x1f\x8b", 2))
    message = _("expected a PNG, JPEG, BMP or TGA picture, found gzip-compressed data "
                "(an SVGZ drawing, for one)");
  else if (starts_with (data, size, "GIF8", 4))
    message = _("expected a PNG, JPEG, BMP or TGA picture, found a GIF picture");
  else if (starts_with (data, size, "II*\0", 4) || starts_with (data, size, "MM\0*", 4))
    message = _("expected a PNG, JPEG, BMP or TGA picture, found a TIFF picture");
  else if (size >= 12 && memcmp (data, "RIFF", 4) == 0 && memcmp (data + 8, "WEBP", 4) == 0)
    message = _("expected a PNG, JPEG, BMP or TGA picture, found a WebP picture");
  else
    message = _("expected a PNG, JPEG, BMP or TGA picture, found a file of another kind");
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, message);
}

/* ---- whether it is whole ---------------------------------------------- */

static guint32
get_be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

/* PNG: the chunks, each inside the file, up to IEND. */
static gboolean
png_is_whole (const guint8 *data,
              gsize         size)
{
  gsize at = 8;

  while (size - at >= 12)
    {
      guint32 length = get_be32 (data + at);

      if (length > size - at - 12)
        return FALSE;
      if (memcmp (data + at + 4, "IEND", 4) == 0)
        return TRUE;
      at += 12 + (gsize) length;
    }
  return FALSE;
}

/* JPEG: the segments, each inside the file, and the entropy-coded data
 * after each start of scan, up to the end-of-image marker. */
static gboolean
jpeg_is_whole (const guint8 *data,
               gsize         size)
{
  gsize at = 2;   /* after SOI */

  for (;;)
    {
      guint8 marker;
      gsize length;

      if (at >= size || data[at] != 0xFF)
        return FALSE;
      while (at < size && data[at] == 0xFF)
        at++;   /* fill bytes */
      if (at >= size)
        return FALSE;
      marker = data[at++];
      if (marker == 0xD9)   /* EOI */
        return TRUE;
      if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7))
        continue;   /* TEM, RSTn: no length */
      if (marker == 0x00 || size - at < 2)
        return FALSE;
      length = ((gsize) data[at] << 8) | data[at + 1];
      if (length < 2 || length > size - at)
        return FALSE;
      at += length;
      if (marker != 0xDA)   /* SOS */
        continue;
      /* the scan's data runs to the next marker that is not a stuffed
       * 0xFF00, a restart marker or a fill byte */
      while (size - at >= 2 &&
             !(data[at] == 0xFF && data[at + 1] != 0x00 && data[at + 1] != 0xFF &&
               !(data[at + 1] >= 0xD0 && data[at + 1] <= 0xD7)))
        at++;
      if (size - at < 2)
        return FALSE;
    }
}

/* ---- decoding ----------------------------------------------------------- */

typedef struct {
  int      width;
  int      height;
  gboolean sized;
  gboolean refused;
  guint8  *rows;     /* height flags: the row was decoded */
} Load;

static void
size_prepared_cb (GdkPixbufLoader *loader,
                  int              width,
                  int              height,
                  gpointer         user_data)
{
  Load *load = user_data;

  load->width = width;
  load->height = height;
  load->sized = TRUE;
  if (width <= 0 || height <= 0 || width > MAT_PICTURE_MAX_SIDE || height > MAT_PICTURE_MAX_SIDE)
    {
      /* a size of 0 makes every loader stop before it allocates the
       * pixels (as gdk_pixbuf_get_file_info() does) */
      load->refused = TRUE;
      gdk_pixbuf_loader_set_size (loader, 0, 0);
      return;
    }
  load->rows = g_malloc0 ((gsize) height);
}

static void
area_updated_cb (GdkPixbufLoader *loader,
                 int              x,
                 int              y,
                 int              width,
                 int              height,
                 gpointer         user_data)
{
  Load *load = user_data;

  if (load->rows == NULL || y < 0 || height <= 0 || y >= load->height)
    return;
  memset (load->rows + y, 1, (gsize) MIN (height, load->height - y));
}

static void
set_too_large (int      width,
               int      height,
               GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("expected a picture of at most %u×%u pixels, found %d×%d"),
               MAT_PICTURE_MAX_SIDE, MAT_PICTURE_MAX_SIDE, width, height);
}

static GdkPixbuf *
decode (GBytes    *bytes,
        Format     format,
        GError   **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  g_autoptr(GdkPixbufLoader) loader = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree guint8 *rows = NULL;
  Load load = { 0 };
  gboolean ok = TRUE;
  GdkPixbuf *pixbuf;
  guint decoded = 0;

  loader = gdk_pixbuf_loader_new_with_type (loader_names[format], &local);
  if (loader == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   /* Translators: %s is PNG, JPEG, BMP or TGA, then gdk-pixbuf's words */
                   _("could not read %s pictures here: %s"), format_names[format], local->message);
      return NULL;
    }
  g_signal_connect (loader, "size-prepared", G_CALLBACK (size_prepared_cb), &load);
  g_signal_connect (loader, "area-updated", G_CALLBACK (area_updated_cb), &load);

  for (gsize at = 0; ok && at < size && !load.refused; at += WRITE_PIECE)
    ok = gdk_pixbuf_loader_write (loader, data + at, MIN (WRITE_PIECE, size - at), &local);
  /* always closed: a loader dropped open complains */
  if (!gdk_pixbuf_loader_close (loader, ok ? &local : NULL))
    ok = FALSE;
  rows = g_steal_pointer (&load.rows);

  if (load.refused)
    {
      set_too_large (load.width, load.height, error);
      return NULL;
    }
  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (!ok || pixbuf == NULL || !load.sized)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   /* Translators: %s is PNG, JPEG, BMP or TGA, then gdk-pixbuf's words */
                   _("expected a %s picture that decodes, found: %s"), format_names[format],
                   local != NULL ? local->message : _("no picture"));
      return NULL;
    }
  for (int y = 0; y < load.height; y++)
    decoded += rows[y];
  if (decoded < (guint) load.height)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   /* Translators: %s is PNG, JPEG, BMP or TGA */
                   _("expected a complete %s picture, found %u of its %d rows"),
                   format_names[format], decoded, load.height);
      return NULL;
    }
  return g_object_ref (pixbuf);
}

GdkPixbuf *
mat_picture_load_bytes (GBytes  *bytes,
                        GError **error)
{
  gsize size;
  const guint8 *data;
  g_autoptr(GdkPixbuf) loaded = NULL;
  g_autoptr(GdkPixbuf) oriented = NULL;
  Format format;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = g_bytes_get_data (bytes, &size);
  if (size > MAT_PICTURE_MAX_FILE_SIZE)
    {
      g_autofree char *limit = mat_file_format_count (MAT_PICTURE_MAX_FILE_SIZE);
      g_autofree char *found = mat_file_format_count (size);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("expected a picture file of at most %s bytes, found %s"), limit, found);
      return NULL;
    }
  format = sniff (data, size);
  if (format == FORMAT_OTHER)
    {
      set_not_a_picture (data, size, error);
      return NULL;
    }
  if ((format == FORMAT_PNG && !png_is_whole (data, size)) ||
      (format == FORMAT_JPEG && !jpeg_is_whole (data, size)))
    {
      g_autofree char *count = mat_file_format_count (size);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   /* Translators: %s is PNG or JPEG, then a byte count */
                   _("expected a complete %s picture up to its end marker, found the end of "
                     "the file after %s bytes"), format_names[format], count);
      return NULL;
    }

  if (format == FORMAT_TGA)
    {
      /* gdk-pixbuf's TGA loader stops at a size of 0 without saying why
       * (and warns of it): its 18-byte header is read here */
      int width = data[12] | (data[13] << 8);
      int height = data[14] | (data[15] << 8);

      if (width == 0 || height == 0 || width > MAT_PICTURE_MAX_SIDE || height > MAT_PICTURE_MAX_SIDE)
        {
          set_too_large (width, height, error);
          return NULL;
        }
    }

  loaded = decode (bytes, format, error);
  if (loaded == NULL)
    return NULL;
  oriented = gdk_pixbuf_apply_embedded_orientation (loaded);
  if (oriented == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("expected a picture that can be turned as it says, found one that cannot"));
      return NULL;
    }
  if (gdk_pixbuf_get_colorspace (oriented) != GDK_COLORSPACE_RGB ||
      gdk_pixbuf_get_bits_per_sample (oriented) != 8)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("expected 8-bit RGB or RGBA pixels, found %d bits a sample"),
                   gdk_pixbuf_get_bits_per_sample (oriented));
      return NULL;
    }
  /* an opaque picture gets alpha 255 */
  return gdk_pixbuf_add_alpha (oriented, FALSE, 0, 0, 0);
}

GdkPixbuf *
mat_picture_load_path (const char  *path,
                       GError     **error)
{
  g_autoptr(GByteArray) data = NULL;
  GStatBuf st;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  fd = mat_file_open_regular (path, &st, error);
  if (fd < 0)
    return NULL;
  if ((guint64) st.st_size > MAT_PICTURE_MAX_FILE_SIZE)
    {
      g_autofree char *limit = mat_file_format_count (MAT_PICTURE_MAX_FILE_SIZE);
      g_autofree char *found = mat_file_format_count ((guint64) st.st_size);

      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("expected a picture file of at most %s bytes, found %s"), limit, found);
      return NULL;
    }

  /* one byte past the limit at most, should the file grow meanwhile */
  data = g_byte_array_sized_new ((guint) st.st_size + 1);
  for (;;)
    {
      guint8 piece[WRITE_PIECE];
      gssize n = read (fd, piece, sizeof piece);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          close (fd);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("Could not read the file: %s"), g_strerror (saved));
          return NULL;
        }
      if (n == 0)
        break;
      g_byte_array_append (data, piece, (guint) n);
      if (data->len > MAT_PICTURE_MAX_FILE_SIZE)
        break;
    }
  close (fd);

  {
    g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (g_steal_pointer (&data));

    return mat_picture_load_bytes (bytes, error);
  }
}
