/* mat-picture.c - pictures read for a texture import, checked before they are decoded */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "mat-file.h"
#include "mat-picture.h"

/* Bytes read from the file at a time. */
#define READ_PIECE (1u << 16)

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

/* ---- its header ------------------------------------------------------- */

/* What a picture's header says before any decoder sees it: its size
 * (unknown when the header does not say it where it should: the decoder
 * refuses that picture), and for PNG and JPEG whether the file runs to
 * its end marker. The decoder's size-prepared is checked
 * too: these are read first so that nothing before the size (a PNG's
 * text chunks, a JPEG's APP segments) is ever processed for a picture
 * refused. */
typedef struct {
  gboolean known;
  gint64   width;
  gint64   height;
  gboolean whole;
} Header;

static guint32
get_be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

static guint32
get_le32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

/* PNG: IHDR first; the chunks, each inside the file, up to IEND. */
static void
png_header (const guint8 *data,
            gsize         size,
            Header       *header)
{
  gsize at = 8;

  if (size >= 8 + 8 + 13 && get_be32 (data + 8) == 13 && memcmp (data + 12, "IHDR", 4) == 0)
    {
      header->known = TRUE;
      header->width = get_be32 (data + 16);
      header->height = get_be32 (data + 20);
    }
  while (size - at >= 12)
    {
      guint32 length = get_be32 (data + at);

      if (length > size - at - 12)
        return;
      if (memcmp (data + at + 4, "IEND", 4) == 0)
        {
          header->whole = TRUE;
          return;
        }
      at += 12 + (gsize) length;
    }
}

/* JPEG: the segments, each inside the file, the frame header's size,
 * and the entropy-coded data after each start of scan, up to the
 * end-of-image marker. */
static void
jpeg_header (const guint8 *data,
             gsize         size,
             Header       *header)
{
  gsize at = 2;   /* after SOI */

  for (;;)
    {
      guint8 marker;
      gsize length;

      if (at >= size || data[at] != 0xFF)
        return;
      while (at < size && data[at] == 0xFF)
        at++;   /* fill bytes */
      if (at >= size)
        return;
      marker = data[at++];
      if (marker == 0xD9)   /* EOI */
        {
          header->whole = TRUE;
          return;
        }
      if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7))
        continue;   /* TEM, RSTn: no length */
      if (marker == 0x00 || size - at < 2)
        return;
      length = ((gsize) data[at] << 8) | data[at + 1];
      if (length < 2 || length > size - at)
        return;
      /* SOF0..SOF15 but DHT, JPG and DAC: precision, height, width */
      if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
          marker != 0xCC && length >= 8 && !header->known)
        {
          header->known = TRUE;
          header->height = (data[at + 3] << 8) | data[at + 4];
          header->width = (data[at + 5] << 8) | data[at + 6];
        }
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
        return;
    }
}

/* BMP: the info header's size (OS/2's 12 bytes: 16-bit sides; Windows'
 * 40 and more: 32-bit, a negative height for rows top down). */
static void
bmp_header (const guint8 *data,
            gsize         size,
            Header       *header)
{
  guint32 info = get_le32 (data + 14);

  header->whole = TRUE;   /* every row must be decoded: see decode () */
  if (info == 12 && size >= 14 + 12)
    {
      header->known = TRUE;
      header->width = data[18] | (data[19] << 8);
      header->height = data[20] | (data[21] << 8);
    }
  else if (info >= 40 && size >= 14 + 40)
    {
      header->known = TRUE;
      header->width = (gint32) get_le32 (data + 18);
      header->height = ABS ((gint64) (gint32) get_le32 (data + 22));
    }
}

static Header
read_header (const guint8 *data,
             gsize         size,
             Format        format)
{
  Header header = { FALSE, 0, 0, FALSE };

  switch (format)
    {
    case FORMAT_PNG:
      png_header (data, size, &header);
      break;
    case FORMAT_JPEG:
      jpeg_header (data, size, &header);
      break;
    case FORMAT_BMP:
      bmp_header (data, size, &header);
      break;
    case FORMAT_TGA:
      /* 18 bytes at least (sniff); the loader says when it is cut short */
      header.known = TRUE;
      header.width = data[12] | (data[13] << 8);
      header.height = data[14] | (data[15] << 8);
      header.whole = TRUE;
      break;
    case FORMAT_OTHER:
    default:
      g_assert_not_reached ();
    }
  return header;
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
      /* a size of 0 makes the loaders stop before they allocate the
       * pixels, as gdk_pixbuf_get_file_info() has them do (the TGA one
       * with a warning: its header was checked before) */
      load->refused = TRUE;
      gdk_pixbuf_loader_set_size (loader, 0, 0);
      return;
    }
  g_free (load->rows);
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
set_too_large (gint64   width,
               gint64   height,
               GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("expected a picture of at most %u×%u pixels, found %lld×%lld"),
               MAT_PICTURE_MAX_SIDE, MAT_PICTURE_MAX_SIDE, (long long) width, (long long) height);
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

  /* in one piece: libpng copies what it holds over at every write */
  ok = gdk_pixbuf_loader_write (loader, data, size, &local);
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
  Header header;
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
  header = read_header (data, size, format);
  if (header.known && (header.width <= 0 || header.height <= 0 ||
                        header.width > MAT_PICTURE_MAX_SIDE || header.height > MAT_PICTURE_MAX_SIDE))
    {
      set_too_large (header.width, header.height, error);
      return NULL;
    }
  if (!header.whole)
    {
      g_autofree char *count = mat_file_format_count (size);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   /* Translators: %s is PNG or JPEG, then a byte count */
                   _("expected a complete %s picture up to its end marker, found the end of "
                     "the file after %s bytes"), format_names[format], count);
      return NULL;
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
      guint8 piece[READ_PIECE];
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

GdkPixbuf *
mat_picture_fit_power_of_two (GdkPixbuf  *picture,
                              TexmResize  how,
                              GError    **error)
{
  guint w, h, out_w = 0, out_h = 0;
  guint8 *rgba;
  GBytes *bytes;
  GdkPixbuf *fitted;

  g_return_val_if_fail (GDK_IS_PIXBUF (picture), NULL);
  g_return_val_if_fail (gdk_pixbuf_get_has_alpha (picture) &&
                        gdk_pixbuf_get_n_channels (picture) == 4 &&
                        gdk_pixbuf_get_bits_per_sample (picture) == 8, NULL);

  w = (guint) gdk_pixbuf_get_width (picture);
  h = (guint) gdk_pixbuf_get_height (picture);
  if (texm_next_power_of_two (w) == w && texm_next_power_of_two (h) == h)
    return g_object_ref (picture);
  rgba = texm_fit_power_of_two (gdk_pixbuf_read_pixels (picture), w, h,
                                (gsize) gdk_pixbuf_get_rowstride (picture), how,
                                &out_w, &out_h, error);
  if (rgba == NULL)
    return NULL;
  g_assert (out_w <= MAT_PICTURE_MAX_SIDE && out_h <= MAT_PICTURE_MAX_SIDE);
  bytes = g_bytes_new_take (rgba, (gsize) out_w * out_h * 4);
  fitted = gdk_pixbuf_new_from_bytes (bytes, GDK_COLORSPACE_RGB, TRUE, 8, (int) out_w, (int) out_h,
                                      (int) out_w * 4);
  g_bytes_unref (bytes);
  return fitted;
}
