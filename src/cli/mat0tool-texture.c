/* mat0tool-texture.c - texture-import and texture-export (cli.md)
 *
 *   mat0tool texture-import TEXLIB NAME PICTURE --format F [--dither]
 *            [--drop-alpha] [--mips N] [--cells x,w,y,h;...]
 *            [--resize scale|pad] -o OUT
 *   mat0tool texture-export TEXLIB NAME [--level K] -o OUT.png
 *
 * The picture is read by the model (mat-picture.h: PNG, JPEG, BMP or TGA
 * by their content, its size checked from its header before it is
 * decoded), brought to powers of two when --resize asks
 * (texm_fit_power_of_two: scaled bilinear, or padded with its last column
 * and row), encoded by the core (texm-convert.h) and written through the
 * preserving writer:
 * a new name becomes a new entry at the end of the directory (type Texm,
 * attr1..3 0, as the demo library's textures have), an existing Texm entry
 * of that name gets the new payload and keeps its name bytes, every
 * other directory field and its header's flags5 and unk6. Every name and
 * path printed goes through mt_escape (mt_printerr on stderr).
 */
#include "config.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

#include "cp1251.h"
#include "mat-file.h"
#include "mat-picture.h"
#include "mat0tool.h"
#include "texm-convert.h"

static char *opt_format;
static gboolean opt_dither;
static gboolean opt_drop_alpha;
static char *opt_mips;
static char *opt_cells;
static char *opt_level;
static char *opt_resize;

static const GOptionEntry texture_entries[] = {
  { "format", 0, 0, G_OPTION_ARG_STRING, &opt_format,
    "texture-import: Texm format 0, 565, 556, 4444, 88, 888, 8888, or auto", "F" },
  { "dither", 0, 0, G_OPTION_ARG_NONE, &opt_dither,
    "texture-import: Floyd-Steinberg dithering (565, 556, 4444, 0)", NULL },
  { "drop-alpha", 0, 0, G_OPTION_ARG_NONE, &opt_drop_alpha,
    "texture-import: accept losing alpha in 565, 556, 888 and 0", NULL },
  { "mips", 0, 0, G_OPTION_ARG_STRING, &opt_mips,
    "texture-import: mip levels (default: down to 1x1)", "N" },
  { "cells", 0, 0, G_OPTION_ARG_STRING, &opt_cells,
    "texture-import: a Page chunk with these cells", "x,w,y,h;..." },
  { "resize", 0, 0, G_OPTION_ARG_STRING, &opt_resize,
    "texture-import: a side that is no power of two grows to the next one: "
    "scale (bilinear) or pad (its last column and row repeated)", "scale|pad" },
  { "level", 0, 0, G_OPTION_ARG_STRING, &opt_level,
    "texture-export: the mip level to write (default 0)", "K" },
  G_OPTION_ENTRY_NULL
};

GOptionGroup *
mt_texture_option_group (void)
{
  GOptionGroup *group = g_option_group_new ("texture", "Texture options:",
                                            "Show the options of texture-import and texture-export",
                                            NULL, NULL);

  g_option_group_add_entries (group, texture_entries);
  return group;
}

static int
usage (const char *format, ...) G_GNUC_PRINTF (1, 2);

static int
usage (const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  mt_printerr ("mat0tool: %s", message);
  fprintf (stderr, "Try 'mat0tool --help-texture'.\n");
  return MT_EXIT_USAGE;
}

/* Reads and parses TEXLIB; on failure prints "FILE: message" and sets
 * *status (2: cannot be read, 1: not a valid archive). */
static NresArchive *
load_archive (const char *path, char **etag, int *status)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  NresArchive *archive;

  /* the model's reader: anything but a regular file is refused at once,
   * the header and directory are checked against the size first */
  bytes = mat_file_read_library (path, etag, NULL, NULL, &error);
  if (bytes == NULL)
    {
      mt_printerr ("%s: %s", path, error->message);
      *status = error->domain == NRES_ERROR ? MT_EXIT_INVALID : MT_EXIT_USAGE;
      return NULL;
    }
  archive = nres_archive_parse (bytes, &error);
  if (archive == NULL)
    {
      mt_printerr ("%s: %s", path, error->message);
      *status = MT_EXIT_INVALID;
    }
  return archive;
}

/* The first entry whose name matches @field (ASCII case-insensitively)
 * in index order, as cli.md has NAME arguments; -1 when none. */
static gint
find_first (const NresArchive *archive, const guint8 *field)
{
  for (guint i = 0; i < archive->n_entries; i++)
    {
      char name[NRES_NAME_SIZE + 1];

      memcpy (name, archive->entries[i].name, NRES_NAME_SIZE);
      name[NRES_NAME_SIZE] = 0;
      if (cp1251_name_compare (name, (const char *) field) == 0)
        return (gint) i;
    }
  return -1;
}

static gboolean
parse_uint (const char *text, guint max, guint *out)
{
  guint64 v;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 0, max, &v, NULL))
    return FALSE;
  *out = (guint) v;
  return TRUE;
}

static gboolean
parse_format (const char *text, guint32 *out, gboolean *automatic)
{
  guint v;

  *automatic = g_strcmp0 (text, "auto") == 0;
  if (*automatic)
    return TRUE;
  if (!parse_uint (text, G_MAXUINT, &v) || !texm_format_is_valid (v))
    return FALSE;
  *out = v;
  return TRUE;
}

/* "x,w,y,h;x,w,y,h..." into rects; an empty string is a Page chunk with
 * no cells. */
static gboolean
parse_cells (const char *text, GArray *rects, char **problem)
{
  g_auto(GStrv) cells = g_strsplit (text, ";", -1);

  for (guint i = 0; cells[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;
      gint64 v[4];
      TexmRect r;

      if (cells[i][0] == '\0' && cells[i + 1] == NULL)
        break;   /* a trailing ';' */
      parts = g_strsplit (cells[i], ",", -1);
      if (g_strv_length (parts) != 4)
        {
          *problem = g_strdup_printf ("cell %u: expected x,w,y,h, found '%s'", i, cells[i]);
          return FALSE;
        }
      for (guint k = 0; k < 4; k++)
        if (!g_ascii_string_to_signed (g_strstrip (parts[k]), 10, G_MININT16, G_MAXINT16,
                                       &v[k], NULL))
          {
            *problem = g_strdup_printf ("cell %u: expected whole numbers -32768..32767, "
                                        "found '%s'", i, parts[k]);
            return FALSE;
          }
      r.x = (gint16) v[0];
      r.w = (gint16) v[1];
      r.y = (gint16) v[2];
      r.h = (gint16) v[3];
      g_array_append_val (rects, r);
    }
  return TRUE;
}

/* The picture as RGBA8 rows (mat_picture_load_path); on failure prints
 * "PICTURE: message" and sets *status (1: refused as a picture, 2:
 * cannot be read). */
static GdkPixbuf *
load_picture (const char *path, int *status)
{
  g_autoptr(GError) error = NULL;
  GdkPixbuf *picture = mat_picture_load_path (path, &error);

  if (picture == NULL)
    {
      mt_printerr ("%s: %s", path, error->message);
      *status = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA) ?
                MT_EXIT_INVALID : MT_EXIT_USAGE;
    }
  return picture;
}

int
mt_cmd_texture_import (char **args)
{
  g_autofree char *etag = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GdkPixbuf) picture = NULL;
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (TexmRect));
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autofree char *problem = NULL;
  g_autofree char *label = NULL;
  guint8 field[TEXM_NAME_MAX_BYTES + 1];
  TexmEncodeOptions options;
  TexmEncodeResult result;
  NresOutEntry *out;
  guint n_out;
  gboolean automatic = FALSE;
  guint32 format = 0;
  TexmResize resize = TEXM_RESIZE_NONE;
  guint picture_w, picture_h;
  int status;
  gint index;

  if (g_strv_length (args) != 3)
    return usage ("texture-import takes TEXLIB NAME PICTURE");
  if (opt_output == NULL)
    return usage ("texture-import needs -o OUT");
  if (opt_format == NULL)
    return usage ("texture-import needs --format F (0, 565, 556, 4444, 88, 888, 8888 or auto)");
  if (!parse_format (opt_format, &format, &automatic))
    return usage ("--format: expected 0, 565, 556, 4444, 88, 888, 8888 or auto, found %s",
                  opt_format);
  texm_encode_options_init (&options, format);
  if (opt_mips != NULL && (!parse_uint (opt_mips, 32, &options.mip_count) ||
                           options.mip_count == 0))
    return usage ("--mips: expected a level count 1..32, found %s", opt_mips);
  if (opt_cells != NULL && !parse_cells (opt_cells, rects, &problem))
    return usage ("--cells: %s", problem);
  if (opt_resize != NULL)
    {
      if (g_strcmp0 (opt_resize, "scale") == 0)
        resize = TEXM_RESIZE_SCALE;
      else if (g_strcmp0 (opt_resize, "pad") == 0)
        resize = TEXM_RESIZE_PAD;
      else
        return usage ("--resize: expected scale or pad, found %s", opt_resize);
    }
  if (!texm_check_texture_name (args[1], field, &error))
    return usage ("%s", error->message);

  archive = load_archive (args[0], &etag, &status);
  if (archive == NULL)
    return status;
  picture = load_picture (args[2], &status);
  if (picture == NULL)
    return status;
  picture_w = (guint) gdk_pixbuf_get_width (picture);
  picture_h = (guint) gdk_pixbuf_get_height (picture);
  if (!texm_check_picture_size (picture_w, picture_h, resize != TEXM_RESIZE_NONE ? NULL : &error))
    {
      g_autoptr(GdkPixbuf) fitted = NULL;

      if (resize == TEXM_RESIZE_NONE)
        {
          /* the sizes --resize would make, when they fit */
          if (texm_next_power_of_two (picture_w) != 0 && texm_next_power_of_two (picture_h) != 0)
            mt_printerr ("%s: %s (--resize scale or --resize pad makes it %ux%u)", args[2],
                         error->message, texm_next_power_of_two (picture_w),
                         texm_next_power_of_two (picture_h));
          else
            mt_printerr ("%s: %s", args[2], error->message);
          return MT_EXIT_INVALID;
        }
      fitted = mat_picture_fit_power_of_two (picture, resize, &error);
      if (fitted == NULL)
        {
          mt_printerr ("%s: %s", args[2], error->message);
          return MT_EXIT_INVALID;
        }
      g_set_object (&picture, fitted);
    }

  if (automatic)
    options.format = texm_suggest_format (gdk_pixbuf_read_pixels (picture),
                                          (guint) gdk_pixbuf_get_width (picture),
                                          (guint) gdk_pixbuf_get_height (picture),
                                          (gsize) gdk_pixbuf_get_rowstride (picture));
  options.dither = opt_dither;
  options.drop_alpha = opt_drop_alpha;
  options.page = opt_cells != NULL;
  options.rects = (const TexmRect *) rects->data;
  options.n_rects = rects->len;

  /* the last row of a pixbuf may be shorter than the rowstride: the
   * encoder reads only 4 * width bytes of each row */
  payload = texm_encode (gdk_pixbuf_read_pixels (picture),
                         (guint) gdk_pixbuf_get_width (picture),
                         (guint) gdk_pixbuf_get_height (picture),
                         (gsize) gdk_pixbuf_get_rowstride (picture),
                         &options, &result, &error);
  if (payload == NULL)
    {
      if (g_error_matches (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_CELL))
        return usage ("--cells: %s", error->message);
      mt_printerr ("%s: %s", args[2], error->message);
      return MT_EXIT_INVALID;
    }

  index = find_first (archive, field);
  if (index >= 0 && archive->entries[index].type_id != NRES_TYPE_TEXM)
    {
      g_autofree char *type = mt_type_name (archive->entries[index].type_id);
      g_autofree char *name = cp1251_to_utf8 ((const guint8 *) archive->entries[index].name,
                                              NRES_NAME_SIZE);

      mt_printerr ("%s: %s: expected a Texm entry to replace, found entry %d of type %s",
                   args[0], name, index, type);
      return MT_EXIT_INVALID;
    }

  out = nres_out_entries_from_archive (archive, &n_out);
  if (index >= 0)
    {
      /* a replace keeps the header's flags5 and unk6 (formats.md 3) */
      g_autoptr(GBytes) old = nres_archive_payload_bytes (archive, (guint) index);

      out[index].payload = texm_keep_replaced_flags (payload, old);
    }
  else
    {
      NresOutEntry *e;

      out = g_renew (NresOutEntry, out, n_out + 1);
      e = &out[n_out++];
      memset (e, 0, sizeof *e);
      e->source = -1;
      e->entry.type_id = NRES_TYPE_TEXM;
      memcpy (e->entry.name, field, sizeof field);
      e->payload = g_bytes_ref (payload);
    }
  file = nres_write_preserving (archive, out, n_out, &error);
  nres_out_entries_free (out, n_out);
  if (file == NULL)
    {
      mt_printerr ("%s: %s", args[0], error->message);
      return MT_EXIT_INVALID;
    }
  if (!mt_write_output (args[0], etag, opt_output, file, &error))
    {
      mt_printerr ("%s: %s", opt_output, error->message);
      return MT_EXIT_USAGE;
    }

  label = mt_escape (args[1]);
  printf ("%s: %s entry %d: format %u, %ux%u, %u mips, %" G_GSIZE_FORMAT " bytes",
          label, index >= 0 ? "replaced" : "added", index >= 0 ? index : (gint) n_out - 1,
          options.format, result.width, result.height, result.mip_count, result.size);
  if (picture_w != result.width || picture_h != result.height)
    printf (", %s from %ux%u", resize == TEXM_RESIZE_SCALE ? "scaled (bilinear)" : "padded (edge pixels)",
            picture_w, picture_h);
  if (options.page)
    printf (", Page %u cells", options.n_rects);
  if (options.format == 0)
    printf (", %u colours%s", result.n_colours, result.quantized ? " (quantized)" : "");
  if (result.exact)
    printf (", exact\n");
  else
    printf (", largest channel error %u\n", result.max_error);
  return MT_EXIT_OK;
}

int
mt_cmd_texture_export (char **args)
{
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(TexmImage) image = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  g_autofree guint8 *rgba = NULL;
  guint8 field[NRES_NAME_SIZE];
  gchar *buffer = NULL;
  gsize buffer_size = 0;
  guint level = 0, w, h;
  int status;
  gint index;

  if (g_strv_length (args) != 2)
    return usage ("texture-export takes TEXLIB NAME");
  if (opt_output == NULL)
    return usage ("texture-export needs -o OUT.png");
  if (opt_level != NULL && !parse_uint (opt_level, 31, &level))
    return usage ("--level: expected a mip level 0..31, found %s", opt_level);

  archive = load_archive (args[0], NULL, &status);
  if (archive == NULL)
    return status;
  /* a name CP1251 cannot hold names no entry */
  index = cp1251_from_utf8 (args[1], field, sizeof field, NULL) ? find_first (archive, field) : -1;
  if (index < 0)
    {
      mt_printerr ("%s: %s: no such entry", args[0], args[1]);
      return MT_EXIT_INVALID;
    }
  name = cp1251_to_utf8 ((const guint8 *) archive->entries[index].name, NRES_NAME_SIZE);
  if (archive->entries[index].type_id != NRES_TYPE_TEXM)
    {
      g_autofree char *type = mt_type_name (archive->entries[index].type_id);

      mt_printerr ("%s: %s: expected a Texm entry, found type %s", args[0], name, type);
      return MT_EXIT_INVALID;
    }
  payload = nres_archive_payload_bytes (archive, (guint) index);
  image = texm_parse (payload, name, archive->entries[index].data_offset, &error);
  if (image == NULL)
    {
      mt_printerr ("%s: %s", args[0], error->message);
      return MT_EXIT_INVALID;
    }
  if (level >= image->header.mip_count)
    return usage ("--level: %s has mip levels 0..%u, found %u", name,
                  image->header.mip_count - 1, level);

  rgba = texm_decode_rgba (image, level, &w, &h);
  pixbuf = gdk_pixbuf_new_from_data (rgba, GDK_COLORSPACE_RGB, TRUE, 8, (int) w, (int) h,
                                     (int) w * 4, NULL, NULL);
  if (!gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &buffer_size, "png", &error, NULL))
    {
      mt_printerr ("%s: %s", opt_output, error->message);
      return MT_EXIT_USAGE;
    }
  png = g_bytes_new_take (buffer, buffer_size);
  if (!mt_write_output (args[0], NULL, opt_output, png, &error))
    {
      mt_printerr ("%s: %s", opt_output, error->message);
      return MT_EXIT_USAGE;
    }
  label = mt_escape (name);
  printf ("%s: level %u, %ux%u, format %u\n", label, level, w, h, image->header.format);
  return MT_EXIT_OK;
}
