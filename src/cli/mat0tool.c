/* mat0tool.c - the command-line face of the core (cli.md) */
#include "config.h"

#include <errno.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gio/gio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cp1251.h"
#include "mat0-fields.h"
#include "mat0-validate.h"
#include "mat-file.h"
#include "mat-material-json.h"
#include "mat0tool.h"
#include "texm.h"

static gboolean opt_json;
static gboolean opt_strict;
char *opt_output;
static char *opt_block;
static char *opt_time;
static char *opt_start;
static char *opt_t;
static char *opt_offset;
static char *opt_png;

static const GOptionEntry option_entries[] = {
  { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, "Print JSON", NULL },
  { "strict", 0, 0, G_OPTION_ARG_NONE, &opt_strict, "check: lints fail too", NULL },
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output, "Output file", "OUT" },
  { "block", 0, 0, G_OPTION_ARG_STRING, &opt_block, "eval: animation block", "B" },
  { "time", 0, 0, G_OPTION_ARG_STRING, &opt_time, "eval: game time in ms", "MS" },
  { "start", 0, 0, G_OPTION_ARG_STRING, &opt_start, "eval: instance start time in ms", "MS" },
  { "t", 0, 0, G_OPTION_ARG_STRING, &opt_t, "eval: normalized position 0..1", "T" },
  { "offset", 0, 0, G_OPTION_ARG_STRING, &opt_offset, "eval: random offset R (mode 3)", "R" },
  { "png", 0, 0, G_OPTION_ARG_FILENAME, &opt_png, "textures: write each top mip as PNG", "DIR" },
  G_OPTION_ENTRY_NULL
};

static const char summary[] =
  "Commands:\n"
  "  info LIB                        archive summary\n"
  "  list LIB [--json]               one line per entry\n"
  "  dump LIB [NAME...] --json       full decoded content\n"
  "  check LIB [--strict] [--json]   errors and lints\n"
  "  resolve LIB NAME                the entry the engine would use\n"
  "  eval LIB NAME --block B (--time MS [--start MS] | --t T) [--offset R] [--json]\n"
  "  set LIB NAME ASSIGN... -o OUT   edit through the preserving writer\n"
  "  roundtrip LIB -o OUT            decode all, write back (byte-identical)\n"
  "  repack LIB -o OUT               canonical layout\n"
  "  build JSON -o LIB               library from a dump document\n"
  "  textures TEXLIB [--png DIR]     list Texm entries\n"
  "  texture-import TEXLIB NAME PICTURE --format F [--dither] [--drop-alpha]\n"
  "                 [--mips N] [--cells x,w,y,h;...] [--resize scale|pad] -o OUT\n"
  "                                  add or replace a texture\n"
  "  texture-export TEXLIB NAME [--level K] -o OUT.png        a mip level as PNG\n"
  "  diff A B [--json]               entries added, removed and changed\n"
  "                                  (exit 0 equal, 1 different, 2 error)\n"
  "  models DIR [--json] [--library LIB]          every model under DIR and what it wears\n"
  "  where-used DIR NAME [--json] [--library LIB] the models and tables that name NAME\n"
  "  wear ARCHIVE MODEL [--json]                  a model's material rows\n"
  "  wear ARCHIVE MODEL ROW=NAME... -o OUT        make rows name other materials";

static int
usage_error (const char *format, ...) G_GNUC_PRINTF (1, 2);

static int
usage_error (const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  mt_printerr ("mat0tool: %s", message);
  fprintf (stderr, "Try 'mat0tool --help'.\n");
  return MT_EXIT_USAGE;
}

static gboolean
parse_u32 (const char *text, guint32 *out)
{
  guint64 v;
  guint base = 10;

  if (text == NULL)
    return FALSE;
  if (g_str_has_prefix (text, "0x"))
    {
      text += 2;
      base = 16;
    }
  if (!g_ascii_string_to_unsigned (text, base, 0, G_MAXUINT32, &v, NULL))
    return FALSE;
  *out = (guint32) v;
  return TRUE;
}

char *
mt_type_name (guint32 type_id)
{
  return mat_json_type_name (type_id);
}

/* A code point that a terminal takes as a command: C0, DEL, C1. */
static gboolean
is_control (gunichar c)
{
  return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

char *
mt_escape (const char *text)
{
  GString *out;

  if (text == NULL)
    return g_strdup ("(null)");
  if (g_utf8_validate (text, -1, NULL))
    {
      const char *p;

      for (p = text; *p != 0; p = g_utf8_next_char (p))
        if (is_control (g_utf8_get_char (p)))
          break;
      if (*p == 0)
        return g_strdup (text);
    }

  /* Byte by byte: a byte that does not start a valid UTF-8 character is
   * shown as \xNN (a terminal in a legacy charset would take 0x9B as a
   * command), a control character as \n, \t, \r, \xNN or \u0080. */
  out = g_string_new (NULL);
  for (const char *p = text; *p != 0;)
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      switch (c)
        {
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x80 && is_control (c))
            g_string_append_printf (out, "\\x%02x", c);
          else if (is_control (c))
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_len (out, p, g_utf8_next_char (p) - p);
        }
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

void
mt_printerr (const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;
  g_autofree char *line = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* one line per problem, whatever the names hold */
  line = mt_escape (message);
  fflush (stdout);
  fprintf (stderr, "%s\n", line);
}

/* Takes @archive. */
static MtLibrary *
library_new_from_archive (const char *path, NresArchive *archive, gboolean decode)
{
  g_autoptr(MtLibrary) library = g_new0 (MtLibrary, 1);

  library->path = g_strdup (path);
  library->label = mt_escape (path);
  library->archive = archive;

  library->materials = g_new0 (Mat0Material *, archive->n_entries);
  library->errors = g_new0 (GError *, archive->n_entries);
  library->names = g_new0 (char *, archive->n_entries + 1);
  library->labels = g_new0 (char *, archive->n_entries + 1);
  for (guint i = 0; i < archive->n_entries; i++)
    {
      library->names[i] = cp1251_to_utf8 ((const guint8 *) archive->entries[i].name, NRES_NAME_SIZE);
      library->labels[i] = mt_escape (library->names[i]);
      if (decode)
        mt_library_decode (library, i);
    }
  return g_steal_pointer (&library);
}

MtLibrary *
mt_library_new_from_bytes (const char *path, GBytes *bytes, gboolean decode, GError **error)
{
  NresArchive *archive = nres_archive_parse (bytes, error);

  if (archive == NULL)
    return NULL;
  return library_new_from_archive (path, archive, decode);
}

void
mt_library_decode (MtLibrary *library, guint i)
{
  const NresEntry *entry = &library->archive->entries[i];
  gsize size;
  const guint8 *data;

  if (entry->type_id != NRES_TYPE_MAT0 || library->materials[i] != NULL || library->errors[i] != NULL)
    return;
  data = nres_archive_payload (library->archive, i, &size);
  library->materials[i] = mat0_decode (data, size, entry->attr2, library->names[i],
                                       entry->data_offset, &library->errors[i]);
}

void
mt_library_forget (MtLibrary *library, guint i)
{
  g_clear_pointer (&library->materials[i], mat0_material_free);
  g_clear_error (&library->errors[i]);
}

void
mt_library_free (MtLibrary *library)
{
  if (library == NULL)
    return;
  if (library->archive != NULL)
    for (guint i = 0; i < library->archive->n_entries; i++)
      mt_library_forget (library, i);
  g_free (library->materials);
  g_free (library->errors);
  g_strfreev (library->names);
  g_strfreev (library->labels);
  g_clear_pointer (&library->archive, nres_archive_free);
  g_free (library->path);
  g_free (library->label);
  free (library->real_path);   /* from realpath () */
  g_free (library->etag);
  g_free (library);
}

/* Reads LIB (mat_file_read_archive: anything but a regular file is
 * refused at once; the header and directory are checked against the
 * file's size first; what the directory does not name is read only when
 * a write needs it). On failure prints "FILE: message" and sets *status:
 * 2 for I/O, 1 for a file that is not a valid library. */
static MtLibrary *
load_library_full (const char *path, gboolean decode, int *status)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *etag = NULL;
  NresArchive *archive = mat_file_read_archive (path, &etag, NULL, NULL, &error);
  MtLibrary *library;

  if (archive == NULL)
    {
      mt_printerr ("%s: %s", path, error->message);
      *status = error->domain == NRES_ERROR ? MT_EXIT_INVALID : MT_EXIT_USAGE;
      return NULL;
    }
  library = library_new_from_archive (path, archive, decode);
  library->etag = g_steal_pointer (&etag);
  library->real_path = realpath (path, NULL);
  return library;
}

static MtLibrary *
load_library (const char *path, int *status)
{
  return load_library_full (path, TRUE, status);
}

/* Prints every decode error; returns whether there was one. */
static gboolean
report_decode_errors (const MtLibrary *library)
{
  gboolean any = FALSE;

  for (guint i = 0; i < library->archive->n_entries; i++)
    if (library->errors[i] != NULL)
      {
        mt_printerr ("%s: %s", library->path, library->errors[i]->message);
        any = TRUE;
      }
  return any;
}

/* Where OUT would be written: the file at the end of its links, or, when
 * it does not exist yet, its folder's real path with its name. */
static char *
resolve_output (const char *path)
{
  char *real = realpath (path, NULL);
  g_autofree char *dir = NULL;
  g_autofree char *real_dir = NULL;
  g_autofree char *base = NULL;

  if (real != NULL)
    {
      char *copy = g_strdup (real);
      free (real);
      return copy;
    }
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  real = realpath (dir, NULL);
  if (real == NULL)
    return g_strdup (path);
  real_dir = g_strdup (real);
  free (real);
  return g_build_filename (real_dir, base, NULL);
}

gboolean
mt_replace (const char  *out,
            GBytes      *bytes,
            const char  *etag,
            GError     **error)
{
  MatSaveNotes notes = MAT_SAVE_NOTE_NONE;

  if (!mat_file_replace (out, bytes, etag, MAT_SAVE_NONE, NULL, &notes, NULL, error))
    return FALSE;
  if (notes & MAT_SAVE_NOTE_STALE_REMOVED)
    mt_printerr ("%s: removed the temporary files that interrupted saves had left in its folder", out);
  return TRUE;
}

/* Writes the result of an edit. @bytes %NULL: the writer refused the
 * input (@error says why): the message names the input. Writing over the
 * input passes the ETag read with it, so a file another program changed
 * meanwhile is left alone. Every failure leaves OUT as it was. */
static int
finish_write (const MtLibrary *input, const char *input_path, const char *out,
              GBytes *bytes, GError *error)
{
  g_autoptr(GError) write_error = NULL;
  const char *etag = NULL;

  if (bytes == NULL)
    {
      mt_printerr ("%s: %s", input_path, error->message);
      return MT_EXIT_INVALID;
    }
  if (input != NULL && input->real_path != NULL)
    {
      g_autofree char *target = resolve_output (out);

      if (g_str_equal (target, input->real_path))
        etag = input->etag;
    }
  if (!mt_replace (out, bytes, etag, &write_error))
    {
      mt_printerr ("%s: %s", out, write_error->message);
      return MT_EXIT_USAGE;
    }
  return MT_EXIT_OK;
}

gboolean
mt_write_output (const char *input_path,
                 const char *input_etag,
                 const char *out,
                 GBytes     *bytes,
                 GError    **error)
{
  const char *etag = NULL;

  if (input_etag != NULL)
    {
      g_autofree char *target = resolve_output (out);
      g_autofree char *input = resolve_output (input_path);

      if (g_str_equal (target, input))
        etag = input_etag;
    }
  return mt_replace (out, bytes, etag, error);
}

static void
print_json (JsonNode *node)
{
  g_autofree char *text = mt_json_to_string (node, TRUE);

  printf ("%s\n", text);
}

/* ---- labels ----------------------------------------------------------- */

/* Every name printed for a field comes from the table of meanings
 * (mat0-fields.h); the CLI prints them untranslated, as scripts read them. */

/* "loop", "ping-pong", "once", "random", or "unknown (n)" for 4..7.
 * Returns: (transfer full). */
static char *
mode_text (guint mode)
{
  const Mat0ModeField *field = mat0_fields_mode (mode);

  if (field->known)
    return g_strdup (field->id);
  return g_strdup_printf ("%s (%u)", field->id, field->mode);
}

/* The blend reading of attr1: "Additive", or "Unknown (index 7)".
 * Returns: (transfer full). */
static char *
blend_text (guint32 attr1)
{
  const Mat0BlendField *field = mat0_fields_blend_of_attr1 (attr1);

  if (field->mode >= 0)
    return g_strdup (field->label);
  return g_strdup_printf ("%s (index %u)", field->label, field->index);
}

/* The labels of the set interpMask bits, "Self-light RGB, Opacity", with
 * unknown bits as hex; "none" for 0. Returns: (transfer full). */
static char *
interp_text (guint32 mask)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < MAT0_N_INTERP_BITS; i++)
    {
      const Mat0InterpField *field = mat0_fields_interp (i);

      if (mask & field->mask)
        {
          if (text->len > 0)
            g_string_append (text, ", ");
          g_string_append (text, field->label);
          mask &= ~field->mask;
        }
    }
  if (mask != 0)
    g_string_append_printf (text, "%sunknown bits 0x%X", text->len > 0 ? ", " : "", mask);
  if (text->len == 0)
    g_string_append (text, "none");
  return g_string_free (text, FALSE);
}

/* ---- commands --------------------------------------------------------- */

static int
compare_uint_keys (gconstpointer a, gconstpointer b)
{
  guint ua = GPOINTER_TO_UINT (a), ub = GPOINTER_TO_UINT (b);

  return ua < ub ? -1 : ua > ub;
}

/* Names and JSON are UTF-8 whatever the locale: stdout gets the bytes as
 * they are (g_print would turn them into '?' in the C locale). */
static int
cmd_info (char **args)
{
  g_autoptr(MtLibrary) lib = NULL;
  g_autoptr(GHashTable) types = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) versions = g_hash_table_new (NULL, NULL);
  g_autoptr(GList) keys = NULL;
  guint64 payload_bytes = 0, phases = 0, blocks = 0, key_count = 0;
  guint max_phases = 0, max_blocks = 0, animated = 0;
  guint blend_count[16] = { 0 };
  guint mode_count[8] = { 0 };
  int status = MT_EXIT_OK;
  gboolean errors;

  if (g_strv_length (args) != 1)
    return usage_error ("info takes one LIB");
  lib = load_library (args[0], &status);
  if (lib == NULL)
    return status;

  for (guint i = 0; i < lib->archive->n_entries; i++)
    {
      const NresEntry *e = &lib->archive->entries[i];
      const Mat0Material *m = lib->materials[i];
      gpointer type = GUINT_TO_POINTER (e->type_id);

      g_hash_table_insert (types, type,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (types, type)) + 1));
      payload_bytes += e->size;
      if (m == NULL)
        continue;
      g_hash_table_insert (versions, GUINT_TO_POINTER (m->attr2 + 1),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (versions, GUINT_TO_POINTER (m->attr2 + 1))) + 1));
      phases += m->n_phases;
      blocks += m->n_blocks;
      max_phases = MAX (max_phases, m->n_phases);
      max_blocks = MAX (max_blocks, m->n_blocks);
      if (m->n_blocks > 0)
        animated++;
      blend_count[mat0_fields_blend_of_attr1 (e->attr1)->index]++;
      for (guint b = 0; b < m->n_blocks; b++)
        {
          key_count += m->blocks[b].n_keys;
          mode_count[mat0_block_mode (&m->blocks[b])]++;
        }
    }

  printf ("file: %s\n", lib->label);
  printf ("size: %u bytes (payloads %" G_GUINT64_FORMAT ", directory %u)\n",
           lib->archive->total_size, payload_bytes, lib->archive->n_entries * NRES_ENTRY_SIZE);
  printf ("version: 0x%X\n", lib->archive->version);
  printf ("entries: %u\n", lib->archive->n_entries);
  keys = g_list_sort (g_hash_table_get_keys (types), compare_uint_keys);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      g_autofree char *name = mt_type_name (GPOINTER_TO_UINT (l->data));
      printf ("  %s: %u\n", name, GPOINTER_TO_UINT (g_hash_table_lookup (types, l->data)));
    }
  g_clear_pointer (&keys, g_list_free);
  printf ("material versions (attr2):");
  keys = g_hash_table_get_keys (versions);
  keys = g_list_sort (keys, compare_uint_keys);
  for (GList *l = keys; l != NULL; l = l->next)
    printf (" %u: %u", GPOINTER_TO_UINT (l->data) - 1,
             GPOINTER_TO_UINT (g_hash_table_lookup (versions, l->data)));
  printf ("\n");
  printf ("phases: %" G_GUINT64_FORMAT " (at most %u in one material)\n", phases, max_phases);
  printf ("animation blocks: %" G_GUINT64_FORMAT " (at most %u; %u animated materials)\n",
           blocks, max_blocks, animated);
  printf ("keys: %" G_GUINT64_FORMAT "\n", key_count);
  {
    g_autoptr(GString) modes = g_string_new (NULL);
    g_autoptr(GString) blends = g_string_new (NULL);

    for (guint i = 0; i < G_N_ELEMENTS (mode_count); i++)
      if (mode_count[i] > 0)
        {
          g_autofree char *mode = mode_text (i);

          g_string_append_printf (modes, "%s%s %u", modes->len > 0 ? ", " : " ",
                                  mode, mode_count[i]);
        }
    for (guint i = 0; i < G_N_ELEMENTS (blend_count); i++)
      if (blend_count[i] > 0)
        {
          g_autofree char *blend = blend_text (i << 2);

          g_string_append_printf (blends, "%s%s %u", blends->len > 0 ? ", " : " ",
                                  blend, blend_count[i]);
        }
    printf ("track modes:%s\n", modes->str);
    printf ("blend (attr1 bits 2..5):%s\n", blends->str);
  }
  printf ("sort index: %s\n",
           lib->archive->sort_index_canonical ? "canonical"
           : lib->archive->sort_index_valid ? "valid, not canonical"
           : "invalid (lookup falls back to a linear scan)");

  errors = report_decode_errors (lib);
  return errors ? MT_EXIT_INVALID : MT_EXIT_OK;
}

/* @text padded with spaces to @width terminal columns. Names are UTF-8
 * (Cyrillic from CP1251): a column is a character, not a byte; a wide
 * character takes two, a combining mark none.
 * Returns: (transfer full). */
static char *
pad_columns (const char *text,
             guint       width)
{
  GString *out = g_string_new (text);
  guint columns = 0;

  if (g_utf8_validate (text, -1, NULL))
    for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
      {
        gunichar c = g_utf8_get_char (p);

        columns += g_unichar_iszerowidth (c) ? 0 : g_unichar_iswide (c) ? 2 : 1;
      }
  else
    columns = (guint) strlen (text);

  while (columns++ < width)
    g_string_append_c (out, ' ');
  return g_string_free (out, FALSE);
}

static int
cmd_list (char **args)
{
  g_autoptr(MtLibrary) lib = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  int status = MT_EXIT_OK;

  if (g_strv_length (args) != 1)
    return usage_error ("list takes one LIB");
  lib = load_library (args[0], &status);
  if (lib == NULL)
    return status;

  json_builder_begin_array (b);
  for (guint i = 0; i < lib->archive->n_entries; i++)
    {
      const NresEntry *e = &lib->archive->entries[i];
      const Mat0Material *m = lib->materials[i];
      g_autofree char *type = mt_type_name (e->type_id);

      if (opt_json)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "index");
          json_builder_add_int_value (b, i);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, lib->names[i]);
          json_builder_set_member_name (b, "type");
          json_builder_add_string_value (b, type);
          json_builder_set_member_name (b, "attr1");
          json_builder_add_int_value (b, e->attr1);
          json_builder_set_member_name (b, "attr2");
          json_builder_add_int_value (b, e->attr2);
          json_builder_set_member_name (b, "attr3");
          json_builder_add_int_value (b, e->attr3);
          json_builder_set_member_name (b, "size");
          json_builder_add_int_value (b, e->size);
          json_builder_set_member_name (b, "phases");
          if (m != NULL)
            json_builder_add_int_value (b, m->n_phases);
          else
            json_builder_add_null_value (b);
          json_builder_set_member_name (b, "blocks");
          if (m != NULL)
            json_builder_add_int_value (b, m->n_blocks);
          else
            json_builder_add_null_value (b);
          json_builder_end_object (b);
        }
      else if (m != NULL)
        {
          g_autofree char *blend = blend_text (e->attr1);
          g_autofree char *label = pad_columns (lib->labels[i], 35);

          printf ("%5u  %s  %s  attr1=0x%08X attr2=%u attr3=%u  size=%u  phases=%u blocks=%u  blend: %s\n",
                  i, label, type, e->attr1, e->attr2, e->attr3, e->size,
                  m->n_phases, m->n_blocks, blend);
        }
      else
        {
          g_autofree char *label = pad_columns (lib->labels[i], 35);

          printf ("%5u  %s  %s  attr1=0x%08X attr2=%u attr3=%u  size=%u%s\n",
                  i, label, type, e->attr1, e->attr2, e->attr3, e->size,
                  lib->errors[i] != NULL ? "  (does not decode)" : "");
        }
    }
  json_builder_end_array (b);
  if (opt_json)
    {
      g_autoptr(JsonNode) root = json_builder_get_root (b);
      print_json (root);
    }
  return report_decode_errors (lib) ? MT_EXIT_INVALID : MT_EXIT_OK;
}

/* Finds NAME (UTF-8): the first entry whose name matches exactly (ASCII
 * case-insensitively) in index order, whatever the lookup table says
 * (cli.md); -1 if absent. */
static gint
find_entry (const MtLibrary *lib, const char *name)
{
  guint8 field[NRES_NAME_SIZE];

  if (!cp1251_from_utf8 (name, field, sizeof field, NULL))
    return -1;
  for (guint i = 0; i < lib->archive->n_entries; i++)
    if (cp1251_name_compare ((const char *) field, lib->archive->entries[i].name) == 0)
      return (gint) i;
  return -1;
}

static int
no_such_entry (const MtLibrary *lib, const char *name)
{
  mt_printerr ("%s: %s: no such entry", lib->path, name);
  return MT_EXIT_INVALID;
}

static int
cmd_dump (char **args)
{
  g_autoptr(MtLibrary) lib = NULL;
  g_autoptr(GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint));
  int status = MT_EXIT_OK;
  guint n_args = g_strv_length (args);

  if (n_args < 1)
    return usage_error ("dump takes LIB [NAME...]");
  if (!opt_json)
    return usage_error ("dump prints JSON only: add --json");
  /* Entries are decoded one at a time as the document is written. */
  lib = load_library_full (args[0], FALSE, &status);
  if (lib == NULL)
    return status;

  if (n_args == 1)
    for (guint i = 0; i < lib->archive->n_entries; i++)
      g_array_append_val (indices, i);
  for (guint a = 1; a < n_args; a++)
    {
      gint index = find_entry (lib, args[a]);

      if (index < 0)
        return no_such_entry (lib, args[a]);
      g_array_append_val (indices, index);
    }

  if (!mt_json_dump (lib, (const guint *) indices->data, indices->len, stdout))
    return MT_EXIT_USAGE;   /* main() reports the write error */
  return report_decode_errors (lib) ? MT_EXIT_INVALID : MT_EXIT_OK;
}

static int
cmd_check (char **args)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint n_errors = 0, n_lints = 0;

  if (g_strv_length (args) != 1)
    return usage_error ("check takes one LIB");
  /* A FIFO or a device is refused at once; a file that is not a library
   * is answered from its header, whatever its size; of a library, only
   * what the directory names is read. */
  archive = mat_file_read_archive (args[0], NULL, NULL, NULL, &error);
  if (archive == NULL && error->domain != NRES_ERROR)
    {
      mt_printerr ("%s: %s", args[0], error->message);
      return MT_EXIT_USAGE;
    }
  if (archive == NULL)
    {
      if (opt_json)
        {
          g_autoptr(JsonNode) root = NULL;

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "errors");
          json_builder_add_int_value (b, 1);
          json_builder_set_member_name (b, "lints");
          json_builder_add_int_value (b, 0);
          json_builder_set_member_name (b, "diagnostics");
          json_builder_begin_array (b);
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "severity");
          json_builder_add_string_value (b, "error");
          json_builder_set_member_name (b, "check");
          json_builder_add_string_value (b, "archive");
          json_builder_set_member_name (b, "message");
          json_builder_add_string_value (b, error->message);
          json_builder_end_object (b);
          json_builder_end_array (b);
          json_builder_end_object (b);
          root = json_builder_get_root (b);
          print_json (root);
        }
      else
        {
          g_autofree char *line = g_strdup_printf ("error: %s: %s", args[0], error->message);
          g_autofree char *shown = mt_escape (line);

          printf ("%s\n", shown);
        }
      return MT_EXIT_INVALID;
    }

  diags = mat0_validate_archive (archive);
  if (opt_json)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "diagnostics");
      json_builder_begin_array (b);
    }
  for (guint i = 0; i < diags->len; i++)
    {
      const Mat0Diagnostic *d = g_ptr_array_index (diags, i);
      const char *severity = mat0_severity_to_string (d->severity);

      if (d->severity == MAT0_SEVERITY_ERROR)
        n_errors++;
      else
        n_lints++;
      if (!opt_json)
        {
          g_autofree char *line = g_strdup_printf ("%s: %s: %s", severity, args[0], d->message);
          g_autofree char *shown = mt_escape (line);

          printf ("%s\n", shown);
          continue;
        }
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "severity");
      json_builder_add_string_value (b, severity);
      json_builder_set_member_name (b, "check");
      json_builder_add_string_value (b, mat0_check_name (d->check));
      json_builder_set_member_name (b, "entry");
      json_builder_add_int_value (b, d->entry);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, d->entry_name);
      json_builder_set_member_name (b, "phase");
      json_builder_add_int_value (b, d->phase);
      json_builder_set_member_name (b, "block");
      json_builder_add_int_value (b, d->block);
      json_builder_set_member_name (b, "key");
      json_builder_add_int_value (b, d->key);
      json_builder_set_member_name (b, "offset");
      json_builder_add_int_value (b, d->offset);
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, d->message);
      json_builder_end_object (b);
    }
  if (opt_json)
    {
      g_autoptr(JsonNode) root = NULL;

      json_builder_end_array (b);
      json_builder_set_member_name (b, "errors");
      json_builder_add_int_value (b, n_errors);
      json_builder_set_member_name (b, "lints");
      json_builder_add_int_value (b, n_lints);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      print_json (root);
    }
  else
    {
      mt_printerr ("%s: %u errors, %u lints", args[0], n_errors, n_lints);
    }

  if (n_errors > 0 || (opt_strict && n_lints > 0))
    return MT_EXIT_INVALID;
  return MT_EXIT_OK;
}

static int
cmd_resolve (char **args)
{
  g_autoptr(MtLibrary) lib = NULL;
  guint8 field[NRES_NAME_SIZE] = { 0 };
  g_autoptr(GError) error = NULL;
  NresResolve how;
  gint index;
  int status = MT_EXIT_OK;
  static const char *how_names[] = { "exact", "default", "first", "none" };

  if (g_strv_length (args) != 2)
    return usage_error ("resolve takes LIB NAME");
  lib = load_library (args[0], &status);
  if (lib == NULL)
    return status;
  if (!cp1251_from_utf8 (args[1], field, sizeof field, &error))
    /* A name CP1251 cannot hold matches nothing: the engine falls back. */
    field[0] = 0;
  index = nres_archive_resolve (lib->archive, (const char *) field, &how);
  if (index < 0)
    {
      mt_printerr ("%s: the archive has no entry to fall back to", lib->path);
      return MT_EXIT_INVALID;
    }
  printf ("%s %s\n", how_names[how], lib->labels[index]);
  return MT_EXIT_OK;
}

static int
cmd_eval (char **args)
{
  g_autoptr(MtLibrary) lib = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree PhaseRuntime *phases = NULL;
  PhaseEvalInput input = { 0 };
  PhaseEvalResult result;
  const Mat0Material *m;
  guint32 block = 0, now = 0, start = 0, offset = 0;
  gboolean normalized = opt_t != NULL;
  double t = 0.5;
  int status = MT_EXIT_OK;
  gint index;

  if (g_strv_length (args) != 2)
    return usage_error ("eval takes LIB NAME");
  if (normalized == (opt_time != NULL))
    return usage_error ("eval takes either --time MS or --t T");
  if (opt_block != NULL && !parse_u32 (opt_block, &block))
    return usage_error ("--block: expected a block index, found %s", opt_block);
  if (opt_time != NULL && !parse_u32 (opt_time, &now))
    return usage_error ("--time: expected milliseconds 0..4294967295, found %s", opt_time);
  if (opt_start != NULL && !parse_u32 (opt_start, &start))
    return usage_error ("--start: expected milliseconds 0..4294967295, found %s", opt_start);
  if (opt_offset != NULL && !parse_u32 (opt_offset, &offset))
    return usage_error ("--offset: expected 0..4294967295, found %s", opt_offset);
  if (normalized)
    {
      char *end = NULL;

      /* Any float the C library parses, nan and inf included (cli.md). */
      errno = 0;
      t = g_ascii_strtod (opt_t, &end);
      if (opt_t[0] == '\0' || end == NULL || *end != '\0')
        return usage_error ("--t: expected a number, found %s", opt_t);
      if (isnan (t) || t < 0.0 || t > 1.0)
        mt_printerr ("mat0tool: note: --t %s is outside [0, 1]: evaluated at 0.5, as the game does",
                     opt_t);
    }

  lib = load_library (args[0], &status);
  if (lib == NULL)
    return status;
  index = find_entry (lib, args[1]);
  if (index < 0)
    return no_such_entry (lib, args[1]);
  if (lib->errors[index] != NULL)
    {
      mt_printerr ("%s: %s", lib->path, lib->errors[index]->message);
      return MT_EXIT_INVALID;
    }
  m = lib->materials[index];
  if (m == NULL)
    {
      mt_printerr ("%s: %s: not a MAT0 entry", lib->path, args[1]);
      return MT_EXIT_INVALID;
    }
  if (block >= m->n_blocks && !(block == 0 && m->n_blocks == 0))
    return usage_error ("--block: %s has %u animation blocks, found %u",
                        args[1], m->n_blocks, block);

  phases = g_new0 (PhaseRuntime, MAX (m->n_phases, 1));
  phase_eval_expand_material (m, phases);
  input.phases = phases;
  input.n_phases = m->n_phases;
  input.block = m->n_blocks > 0 ? &m->blocks[block] : NULL;
  if (normalized)
    phase_eval_at_t (&input, (float) t, &result);
  else
    phase_eval_at_time (&input, now, start, offset, &result);

  if (opt_json)
    {
      root = mt_json_eval (lib->names[index], (gint) block, m, &result);
      print_json (root);
    }
  else
    {
      g_autofree char *mode = mode_text (result.mode);
      g_autofree char *interp = interp_text (input.block != NULL ?
                                             mat0_block_interp_mask (input.block) : 0);

      printf ("%s block %u (%s): period %u ms, r %u, key %d -> %d, alpha %.9g, phase %d -> %d%s%s%s\n",
               lib->labels[index], block, mode, result.period,
               result.r, result.segment, result.next, result.alpha, result.phase_a,
               result.phase_b, result.hold ? ", hold" : "",
               result.unknown_mode ? ", unknown mode evaluated as loop" : "",
               result.bad_key ? ", a key points past the phase table" : "");
      printf ("  blends: %s\n", interp);
      /* the four colour groups in runtime order: f0..f3, f4..f7, ... */
      for (guint g = 0; g < 4; g++)
        printf ("  %-10s RGBA %.9g %.9g %.9g %.9g\n",
                mat0_fields_group (mat0_fields_param_for_slot (g * 4)->group)->label,
                result.value.f[g * 4], result.value.f[g * 4 + 1],
                result.value.f[g * 4 + 2], result.value.f[g * 4 + 3]);
      printf ("  %s %.9g  %s slot %d  %s (+72) %d\n",
              mat0_fields_param (16)->label, result.value.power,
              mat0_fields_texture_label (), result.value.tex_slot,
              mat0_fields_param (MAT0_CELL_BYTE)->label, result.value.i18);
    }
  return MT_EXIT_OK;
}

static int
cmd_set (char **args)
{
  g_autoptr(MtLibrary) lib = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(Mat0Material) m = NULL;
  NresOutEntry *out;
  guint n_out;
  int status = MT_EXIT_OK;
  gint index;

  if (g_strv_length (args) < 3)
    return usage_error ("set takes LIB NAME ASSIGN...");
  if (opt_output == NULL)
    return usage_error ("set needs -o OUT");
  lib = load_library (args[0], &status);
  if (lib == NULL)
    return status;
  index = find_entry (lib, args[1]);
  if (index < 0)
    return no_such_entry (lib, args[1]);
  if (lib->materials[index] == NULL && lib->errors[index] == NULL)
    {
      mt_printerr ("%s: %s: not a MAT0 entry", lib->path, args[1]);
      return MT_EXIT_INVALID;
    }
  /* The output would fail `check` as the input does: refuse, write nothing. */
  if (report_decode_errors (lib))
    return MT_EXIT_INVALID;

  m = mat0_material_copy (lib->materials[index]);
  out = nres_out_entries_from_archive (lib->archive, &n_out);
  for (guint a = 2; args[a] != NULL; a++)
    if (!mt_apply_assignment (&out[index].entry, m, args[a], &error))
      {
        nres_out_entries_free (out, n_out);
        return usage_error ("%s", error->message);
      }

  /* A new name no other entry has (names compare case-insensitively). */
  for (guint i = 0; i < n_out; i++)
    if (i != (guint) index &&
        cp1251_name_compare (out[index].entry.name, out[i].entry.name) == 0 &&
        cp1251_name_compare (out[index].entry.name, lib->archive->entries[index].name) != 0)
      {
        g_autofree char *name = cp1251_to_utf8 ((const guint8 *) out[index].entry.name,
                                                NRES_NAME_SIZE);

        nres_out_entries_free (out, n_out);
        return usage_error ("name=%s: expected a name no other entry has, found it at entry %u (%s)",
                            name, i, lib->labels[i]);
      }

  out[index].payload = mat0_encode (m);
  bytes = nres_write_preserving (lib->archive, out, n_out, &error);
  nres_out_entries_free (out, n_out);
  return finish_write (lib, args[0], opt_output, bytes, error);
}

/* Whether @bytes are the file @archive was read from, as far as the
 * archive holds it (its gaps were copied from the file). */
static gboolean
same_as_read (const NresArchive *archive, GBytes *bytes)
{
  const guint8 *held = g_bytes_get_data (archive->bytes, NULL);
  const guint8 *data = g_bytes_get_data (bytes, NULL);
  guint64 pos = 0, at = 0;

  if (archive->n_gaps == 0)
    return g_bytes_equal (bytes, archive->bytes);
  if (g_bytes_get_size (bytes) != archive->total_size)
    return FALSE;
  for (guint i = 0; i <= archive->n_gaps; i++)
    {
      guint64 end = i < archive->n_gaps ? archive->gaps[i].offset : archive->total_size;

      if (memcmp (data + pos, held + at, end - pos) != 0)
        return FALSE;
      at += end - pos;
      if (i < archive->n_gaps)
        pos = (guint64) archive->gaps[i].offset + archive->gaps[i].length;
    }
  return TRUE;
}

static int
cmd_roundtrip (char **args)
{
  g_autoptr(MtLibrary) lib = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  NresOutEntry *out;
  guint n_out;
  int status = MT_EXIT_OK;

  if (g_strv_length (args) != 1 || opt_output == NULL)
    return usage_error ("roundtrip takes LIB -o OUT");
  lib = load_library (args[0], &status);
  if (lib == NULL)
    return status;
  if (report_decode_errors (lib))
    return MT_EXIT_INVALID;

  out = nres_out_entries_from_archive (lib->archive, &n_out);
  for (guint i = 0; i < n_out; i++)
    if (lib->materials[i] != NULL)
      out[i].payload = mat0_encode (lib->materials[i]);
  bytes = nres_write_preserving (lib->archive, out, n_out, &error);
  nres_out_entries_free (out, n_out);
  if (bytes != NULL && !same_as_read (lib->archive, bytes))
    {
      mt_printerr ("%s: the preserving writer did not reproduce the input", lib->path);
      return MT_EXIT_INVALID;
    }
  return finish_write (lib, args[0], opt_output, bytes, error);
}

static int
cmd_repack (char **args)
{
  g_autoptr(MtLibrary) lib = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  NresOutEntry *out;
  guint n_out;
  int status = MT_EXIT_OK;

  if (g_strv_length (args) != 1 || opt_output == NULL)
    return usage_error ("repack takes LIB -o OUT");
  lib = load_library (args[0], &status);
  if (lib == NULL)
    return status;
  /* An entry that does not decode would make a file that fails `check`. */
  if (report_decode_errors (lib))
    return MT_EXIT_INVALID;
  out = nres_out_entries_from_archive (lib->archive, &n_out);
  bytes = nres_write_repack (lib->archive, out, n_out, &error);
  nres_out_entries_free (out, n_out);
  return finish_write (lib, args[0], opt_output, bytes, error);
}

static int
cmd_build (char **args)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  GStatBuf st;
  int fd;

  if (g_strv_length (args) != 1 || opt_output == NULL)
    return usage_error ("build takes JSON -o LIB");
  fd = mat_file_open_regular (args[0], &st, &error);
  if (fd < 0)
    {
      mt_printerr ("%s: %s", args[0], error->message);
      return MT_EXIT_USAGE;
    }
  /* Read and built entry by entry: the document is never held whole. */
  bytes = mt_json_build (fd, &error);
  close (fd);
  if (bytes == NULL)
    {
      /* what the document says is wrong (the writer refuses a name or a
       * size too), not what reading it met */
      gboolean invalid = error->domain == JSON_PARSER_ERROR || error->domain == NRES_ERROR ||
                         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);

      mt_printerr ("%s: %s", args[0], error->message);
      return invalid ? MT_EXIT_INVALID : MT_EXIT_USAGE;
    }
  return finish_write (NULL, args[0], opt_output, bytes, NULL);
}

static void
free_pixels (guchar *pixels, gpointer data)
{
  g_free (pixels);
}

static int
cmd_textures (char **args)
{
  g_autoptr(MtLibrary) lib = NULL;
  int status = MT_EXIT_OK;
  gboolean bad = FALSE;

  if (g_strv_length (args) != 1)
    return usage_error ("textures takes TEXLIB");
  lib = load_library (args[0], &status);
  if (lib == NULL)
    return status;
  if (opt_png != NULL && g_mkdir_with_parents (opt_png, 0755) != 0)
    {
      mt_printerr ("%s: cannot create the folder", opt_png);
      return MT_EXIT_USAGE;
    }

  for (guint i = 0; i < lib->archive->n_entries; i++)
    {
      const NresEntry *e = &lib->archive->entries[i];
      g_autoptr(GBytes) payload = NULL;
      g_autoptr(TexmImage) image = NULL;
      g_autoptr(GError) error = NULL;

      if (e->type_id != NRES_TYPE_TEXM)
        continue;
      payload = nres_archive_payload_bytes (lib->archive, i);
      image = texm_parse (payload, lib->names[i], e->data_offset, &error);
      if (image == NULL)
        {
          mt_printerr ("%s: %s", lib->path, error->message);
          bad = TRUE;
          continue;
        }
      g_autofree char *label = pad_columns (lib->labels[i], 16);

      printf ("%5u  %s  format %-4u  %ux%u  mips %u", i, label,
               image->header.format, image->header.width, image->header.height,
               image->header.mip_count);
      if (image->has_page)
        printf ("  page %u rects", image->n_rects);
      printf ("\n");
      if (opt_png != NULL)
        {
          guint w, h;
          guint8 *rgba = texm_decode_rgba (image, 0, &w, &h);
          g_autoptr(GdkPixbuf) pixbuf =
            gdk_pixbuf_new_from_data (rgba, GDK_COLORSPACE_RGB, TRUE, 8, (int) w, (int) h,
                                      (int) w * 4, free_pixels, NULL);
          g_autofree char *base = g_strdup_printf ("%s.png", lib->names[i]);
          g_autofree char *path = NULL;
          g_autoptr(GBytes) png = NULL;
          gchar *buffer = NULL;
          gsize buffer_size = 0;

          g_strdelimit (base, "/\\", '_');
          path = g_build_filename (opt_png, base, NULL);
          /* through the safe save: a failed write leaves an older PNG */
          if (gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &buffer_size, "png", &error, NULL))
            png = g_bytes_new_take (buffer, buffer_size);
          if (png == NULL || !mt_replace (path, png, NULL, &error))
            {
              mt_printerr ("%s: %s", path, error->message);
              return MT_EXIT_USAGE;
            }
        }
    }
  return bad ? MT_EXIT_INVALID : MT_EXIT_OK;
}

static int
cmd_diff (char **args)
{
  return mt_cmd_diff (args, opt_json);
}

static int
cmd_models (char **args)
{
  return mt_cmd_models (args, opt_json);
}

static int
cmd_where_used (char **args)
{
  return mt_cmd_where_used (args, opt_json);
}

static int
cmd_wear (char **args)
{
  return mt_cmd_wear (args, opt_json);
}

static const struct {
  const char *name;
  int (*run) (char **args);
} commands[] = {
  { "info", cmd_info },
  { "list", cmd_list },
  { "dump", cmd_dump },
  { "check", cmd_check },
  { "resolve", cmd_resolve },
  { "eval", cmd_eval },
  { "set", cmd_set },
  { "roundtrip", cmd_roundtrip },
  { "repack", cmd_repack },
  { "build", cmd_build },
  { "textures", cmd_textures },
  { "texture-import", mt_cmd_texture_import },
  { "texture-export", mt_cmd_texture_export },
  { "diff", cmd_diff },
  { "models", cmd_models },
  { "where-used", cmd_where_used },
  { "wear", cmd_wear },
};

int
main (int argc, char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new ("COMMAND ARGS...");
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = g_strdupv (argv);

  g_option_context_set_summary (context,
                                "Reads, checks, evaluates and edits the MAT0 materials "
                                "of Parkan: Iron Strategy's NRes libraries.");
  g_option_context_set_description (context, summary);
  g_option_context_add_main_entries (context, option_entries, NULL);
  g_option_context_add_group (context, mt_texture_option_group ());
  g_option_context_add_group (context, mt_models_option_group ());
  if (!g_option_context_parse_strv (context, &args, &error))
    return usage_error ("%s", error->message);
  if (g_strv_length (args) < 2)
    return usage_error ("a command is needed");

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (args[1], commands[i].name))
      {
        int status;

        setvbuf (stdout, NULL, _IOFBF, 1 << 16);
        status = commands[i].run (args + 2);
        /* Every write to stdout is checked: a full disk behind a
         * redirection is an I/O error, not a success. */
        if (fflush (stdout) != 0 || ferror (stdout))
          {
            int saved = errno;

            fprintf (stderr, "mat0tool: stdout: %s\n", g_strerror (saved != 0 ? saved : EIO));
            return MT_EXIT_USAGE;
          }
        return status;
      }

  return usage_error ("unknown command '%s'", args[1]);
}
