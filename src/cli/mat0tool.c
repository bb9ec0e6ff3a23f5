/* mat0tool.c - the command-line face of the core (cli.md) */
#include "config.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gio/gio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cp1251.h"
#include "mat0-fields.h"
#include "mat0-validate.h"
#include "mat0tool.h"
#include "texm.h"

static gboolean opt_json;
static gboolean opt_strict;
static char *opt_output;
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
  "  diff A B [--json]               entries added, removed and changed\n"
  "                                  (exit 0 equal, 1 different, 2 error)";

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
  fprintf (stderr, "mat0tool: %s\nTry 'mat0tool --help'.\n", message);
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
  char s[5];

  for (guint i = 0; i < 4; i++)
    {
      s[i] = (char) ((type_id >> (8 * i)) & 0xFF);
      if (!g_ascii_isprint (s[i]))
        return g_strdup_printf ("0x%08X", type_id);
    }
  s[4] = 0;
  return g_strdup (s);
}

MtLibrary *
mt_library_new_from_bytes (const char *path, GBytes *bytes, GError **error)
{
  g_autoptr(MtLibrary) library = g_new0 (MtLibrary, 1);
  NresArchive *archive;

  library->path = g_strdup (path);
  archive = library->archive = nres_archive_parse (bytes, error);
  if (archive == NULL)
    return NULL;

  library->materials = g_new0 (Mat0Material *, archive->n_entries);
  library->errors = g_new0 (GError *, archive->n_entries);
  library->names = g_new0 (char *, archive->n_entries + 1);
  for (guint i = 0; i < archive->n_entries; i++)
    {
      const NresEntry *entry = &archive->entries[i];

      library->names[i] = cp1251_to_utf8 ((const guint8 *) entry->name, NRES_NAME_SIZE);
      if (entry->type_id == NRES_TYPE_MAT0)
        {
          gsize size;
          const guint8 *data = nres_archive_payload (archive, i, &size);

          library->materials[i] = mat0_decode (data, size, entry->attr2, library->names[i],
                                               entry->data_offset, &library->errors[i]);
        }
    }
  return g_steal_pointer (&library);
}

void
mt_library_free (MtLibrary *library)
{
  if (library == NULL)
    return;
  if (library->archive != NULL)
    for (guint i = 0; i < library->archive->n_entries; i++)
      {
        g_clear_pointer (&library->materials[i], mat0_material_free);
        g_clear_error (&library->errors[i]);
      }
  g_free (library->materials);
  g_free (library->errors);
  g_strfreev (library->names);
  g_clear_pointer (&library->archive, nres_archive_free);
  g_free (library->path);
  g_free (library);
}

/* Loads LIB; on failure prints "FILE: message" and sets *status. */
static MtLibrary *
load_library (const char *path, int *status)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_file_load_bytes (file, NULL, NULL, &error);
  MtLibrary *library;

  if (bytes == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      *status = MT_EXIT_USAGE;
      return NULL;
    }
  library = mt_library_new_from_bytes (path, bytes, &error);
  if (library == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      *status = MT_EXIT_INVALID;
    }
  return library;
}

/* Prints every decode error; returns whether there was one. */
static gboolean
report_decode_errors (const MtLibrary *library)
{
  gboolean any = FALSE;

  for (guint i = 0; i < library->archive->n_entries; i++)
    if (library->errors[i] != NULL)
      {
        fprintf (stderr, "%s: %s\n", library->path, library->errors[i]->message);
        any = TRUE;
      }
  return any;
}

static gboolean
write_atomically (const char *path, GBytes *bytes, GError **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  /* GIO writes a temporary file in the same folder, syncs it when it
   * replaces an existing file, and renames it over the target. */
  return g_file_replace_contents (file, data, len, NULL, FALSE,
                                  G_FILE_CREATE_NONE, NULL, NULL, error);
}

static int
finish_write (const char *path, GBytes *bytes, GError *error)
{
  g_autoptr(GError) write_error = NULL;

  if (bytes == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return MT_EXIT_INVALID;
    }
  if (!write_atomically (path, bytes, &write_error))
    {
      fprintf (stderr, "%s: %s\n", path, write_error->message);
      return MT_EXIT_USAGE;
    }
  return MT_EXIT_OK;
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

  printf ("file: %s\n", lib->path);
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

          printf ("%5u  %-35s  %s  attr1=0x%08X attr2=%u attr3=%u  size=%u  phases=%u blocks=%u  blend: %s\n",
                  i, lib->names[i], type, e->attr1, e->attr2, e->attr3, e->size,
                  m->n_phases, m->n_blocks, blend);
        }
      else
        printf ("%5u  %-35s  %s  attr1=0x%08X attr2=%u attr3=%u  size=%u%s\n",
                 i, lib->names[i], type, e->attr1, e->attr2, e->attr3, e->size,
                 lib->errors[i] != NULL ? "  (does not decode)" : "");
    }
  json_builder_end_array (b);
  if (opt_json)
    {
      g_autoptr(JsonNode) root = json_builder_get_root (b);
      print_json (root);
    }
  return report_decode_errors (lib) ? MT_EXIT_INVALID : MT_EXIT_OK;
}

static int
cmd_dump (char **args)
{
  g_autoptr(MtLibrary) lib = NULL;
  g_autoptr(GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(JsonNode) root = NULL;
  int status = MT_EXIT_OK;
  guint n_args = g_strv_length (args);

  if (n_args < 1)
    return usage_error ("dump takes LIB [NAME...]");
  if (!opt_json)
    return usage_error ("dump prints JSON only: add --json");
  lib = load_library (args[0], &status);
  if (lib == NULL)
    return status;

  if (n_args == 1)
    for (guint i = 0; i < lib->archive->n_entries; i++)
      g_array_append_val (indices, i);
  for (guint a = 1; a < n_args; a++)
    {
      guint8 field[NRES_NAME_SIZE];
      g_autoptr(GError) error = NULL;
      gint index = -1;

      if (cp1251_from_utf8 (args[a], field, sizeof field, &error))
        index = nres_archive_find (lib->archive, (const char *) field);
      if (index < 0)
        {
          fprintf (stderr, "%s: %s: no such entry\n", lib->path, args[a]);
          return MT_EXIT_INVALID;
        }
      g_array_append_val (indices, index);
    }

  root = mt_json_dump (lib, (const guint *) indices->data, indices->len);
  print_json (root);
  return report_decode_errors (lib) ? MT_EXIT_INVALID : MT_EXIT_OK;
}

static int
cmd_check (char **args)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint n_errors = 0, n_lints = 0;

  if (g_strv_length (args) != 1)
    return usage_error ("check takes one LIB");
  file = g_file_new_for_commandline_arg (args[0]);
  bytes = g_file_load_bytes (file, NULL, NULL, &error);
  if (bytes == NULL)
    {
      fprintf (stderr, "%s: %s\n", args[0], error->message);
      return MT_EXIT_USAGE;
    }
  archive = nres_archive_parse (bytes, &error);
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
        printf ("error: %s: %s\n", args[0], error->message);
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
          printf ("%s: %s: %s\n", severity, args[0], d->message);
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
      fflush (stdout);
      fprintf (stderr, "%s: %u errors, %u lints\n", args[0], n_errors, n_lints);
    }

  if (n_errors > 0 || (opt_strict && n_lints > 0))
    return MT_EXIT_INVALID;
  return MT_EXIT_OK;
}

/* Finds NAME (UTF-8) exactly (case-insensitively); -1 if absent. */
static gint
find_entry (const MtLibrary *lib, const char *name)
{
  guint8 field[NRES_NAME_SIZE];

  if (!cp1251_from_utf8 (name, field, sizeof field, NULL))
    return -1;
  return nres_archive_find (lib->archive, (const char *) field);
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
      fprintf (stderr, "%s: the archive has no entry to fall back to\n", lib->path);
      return MT_EXIT_INVALID;
    }
  printf ("%s %s\n", how_names[how], lib->names[index]);
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
  float t = 0.0f;
  int status = MT_EXIT_OK;
  gint index;

  if (g_strv_length (args) != 2)
    return usage_error ("eval takes LIB NAME");
  if (normalized == (opt_time != NULL))
    return usage_error ("eval takes either --time MS or --t T");
  if (opt_block != NULL && !parse_u32 (opt_block, &block))
    return usage_error ("--block: expected a block index, found %s", opt_block);
  if (normalized)
    {
      /* any float the C library parses, nan and inf included */
      char *end = NULL;
      double value = g_ascii_strtod (opt_t, &end);

      if (end == opt_t || *end != '\0')
        return usage_error ("--t: expected a number, found %s", opt_t);
      t = (float) value;
    }
  if (opt_time != NULL && !parse_u32 (opt_time, &now))
    return usage_error ("--time: expected milliseconds 0..4294967295, found %s", opt_time);
  if (opt_start != NULL && !parse_u32 (opt_start, &start))
    return usage_error ("--start: expected milliseconds 0..4294967295, found %s", opt_start);
  if (opt_offset != NULL && !parse_u32 (opt_offset, &offset))
    return usage_error ("--offset: expected 0..4294967295, found %s", opt_offset);

  lib = load_library (args[0], &status);
  if (lib == NULL)
    return status;
  index = find_entry (lib, args[1]);
  if (index < 0)
    {
      fprintf (stderr, "%s: %s: no such entry\n", lib->path, args[1]);
      return MT_EXIT_INVALID;
    }
  if (lib->errors[index] != NULL)
    {
      fprintf (stderr, "%s: %s\n", lib->path, lib->errors[index]->message);
      return MT_EXIT_INVALID;
    }
  m = lib->materials[index];
  if (m == NULL)
    {
      fprintf (stderr, "%s: %s: not a MAT0 entry\n", lib->path, args[1]);
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
    {
      if (isnan (t) || t < 0.0f || t > 1.0f)
        fprintf (stderr, "mat0tool: note: --t %s is outside [0, 1]: evaluated at 0.5, as the game does\n",
                 opt_t);
      phase_eval_at_t (&input, t, &result);
    }
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
               lib->names[index], block, mode, result.period,
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
    {
      fprintf (stderr, "%s: %s: no such entry\n", lib->path, args[1]);
      return MT_EXIT_INVALID;
    }
  if (lib->materials[index] == NULL)
    {
      if (lib->errors[index] != NULL)
        fprintf (stderr, "%s: %s\n", lib->path, lib->errors[index]->message);
      else
        fprintf (stderr, "%s: %s: not a MAT0 entry\n", lib->path, args[1]);
      return MT_EXIT_INVALID;
    }

  m = mat0_material_copy (lib->materials[index]);
  out = nres_out_entries_from_archive (lib->archive, &n_out);
  for (guint a = 2; args[a] != NULL; a++)
    if (!mt_apply_assignment (&out[index].entry, m, args[a], &error))
      {
        nres_out_entries_free (out, n_out);
        return usage_error ("%s", error->message);
      }
  out[index].payload = mat0_encode (m);
  bytes = nres_write_preserving (lib->archive, out, n_out, &error);
  nres_out_entries_free (out, n_out);
  return finish_write (opt_output, bytes, error);
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
  if (bytes != NULL && !g_bytes_equal (bytes, lib->archive->bytes))
    {
      fprintf (stderr, "%s: the preserving writer did not reproduce the input\n", lib->path);
      return MT_EXIT_INVALID;
    }
  return finish_write (opt_output, bytes, error);
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
  out = nres_out_entries_from_archive (lib->archive, &n_out);
  bytes = nres_write_repack (lib->archive, out, n_out, &error);
  nres_out_entries_free (out, n_out);
  return finish_write (opt_output, bytes, error);
}

static int
cmd_build (char **args)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  if (g_strv_length (args) != 1 || opt_output == NULL)
    return usage_error ("build takes JSON -o LIB");
  if (!json_parser_load_from_file (parser, args[0], &error))
    {
      fprintf (stderr, "%s: %s\n", args[0], error->message);
      return g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT) ? MT_EXIT_USAGE : MT_EXIT_INVALID;
    }
  bytes = mt_json_build (json_parser_get_root (parser), &error);
  if (bytes == NULL)
    {
      fprintf (stderr, "%s: %s\n", args[0], error->message);
      return MT_EXIT_INVALID;
    }
  return finish_write (opt_output, bytes, NULL);
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
      fprintf (stderr, "%s: cannot create the folder\n", opt_png);
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
          fprintf (stderr, "%s: %s\n", lib->path, error->message);
          bad = TRUE;
          continue;
        }
      printf ("%5u  %-16s  format %-4u  %ux%u  mips %u", i, lib->names[i],
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

          g_strdelimit (base, "/\\", '_');
          path = g_build_filename (opt_png, base, NULL);
          if (!gdk_pixbuf_save (pixbuf, path, "png", &error, NULL))
            {
              fprintf (stderr, "%s: %s\n", path, error->message);
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
  { "diff", cmd_diff },
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
  if (!g_option_context_parse_strv (context, &args, &error))
    return usage_error ("%s", error->message);
  if (g_strv_length (args) < 2)
    return usage_error ("a command is needed");

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (args[1], commands[i].name))
      return commands[i].run (args + 2);

  return usage_error ("unknown command '%s'", args[1]);
}
