/* mat0tool-diff.c - `mat0tool diff A B [--json]`: what differs between two
 * libraries, as the editor's library diff sees it (mat0-diff.h)
 *
 * Entries are matched by name, ASCII case-insensitively. Text output, one
 * line per entry that differs, in A's order and then the added ones in
 * B's order; under a changed entry one indented line per change with its
 * old (A's) and new (B's) value, as the field table reads them:
 *   removed NAME
 *   changed NAME: attr1, phase[2].p[5], block[0].key[1].k1
 *     NAME: attr1: 0x8 (Additive) → 0x41 (Opaque)
 *     NAME: phase 2 diffuse G: 0 → 128
 *     NAME: block 0 key 1 time: 1000 ms → 750 ms
 *   added NAME
 * The JSON document gives each change as {"field", "from", "to"} with
 * the raw values and their readings (doc/cli.md).
 * Exit codes follow diff(1) and cmp(1), as scripts expect of a
 * comparison: 0 the libraries are equal, 1 they differ, 2 usage or I/O
 * error — and a file that is not an NRes archive is trouble too (2), not
 * a difference, since cli.md's 1 ("invalid input") is taken by "differ".
 */
#include "config.h"

#include <gio/gio.h>
#include <stdio.h>

#include "cp1251.h"
#include "mat0-diff.h"
#include "mat-file.h"
#include "mat0tool.h"

/* Reads and parses @path with the model's bounded reader (anything but a
 * regular file is refused before it is read); on failure prints
 * "FILE: message" and returns %NULL (exit 2). */
static NresArchive *
load_archive (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *label = mt_escape (path);
  NresArchive *archive;

  bytes = mat_file_read_library (path, NULL, NULL, NULL, &error);
  if (bytes == NULL)
    {
      mt_printerr ("%s: %s", label, error->message);
      return NULL;
    }
  archive = nres_archive_parse (bytes, &error);
  if (archive == NULL)
    mt_printerr ("%s: %s", label, error->message);
  return archive;
}

static char *
entry_name (const NresArchive *archive,
            gint               index)
{
  return cp1251_to_utf8 ((const guint8 *) archive->entries[index].name, NRES_NAME_SIZE);
}

static void
print_text (const NresArchive     *a,
            const NresArchive     *b,
            const Mat0LibraryDiff *diff)
{
  for (guint i = 0; i < diff->items->len; i++)
    {
      const Mat0DiffItem *item = diff->items->pdata[i];
      g_autofree char *name = NULL;
      g_autofree char *label = NULL;

      if (item->status == MAT0_DIFF_SAME)
        continue;
      name = item->index_a >= 0 ? entry_name (a, item->index_a) : entry_name (b, item->index_b);
      label = mt_escape (name);
      switch (item->status)
        {
        case MAT0_DIFF_REMOVED:
          printf ("removed %s\n", label);
          break;
        case MAT0_DIFF_ADDED:
          printf ("added %s\n", label);
          break;
        default:
          printf ("changed %s:", label);
          for (guint f = 0; f < item->fields->len; f++)
            {
              g_autofree char *path = mat0_diff_field_dup_path (&g_array_index (item->fields, Mat0DiffField, f));

              printf ("%s %s", f > 0 ? "," : "", path);
            }
          printf ("\n");
          for (guint f = 0; f < item->fields->len; f++)
            {
              const Mat0DiffField *field = &g_array_index (item->fields, Mat0DiffField, f);
              g_autofree char *change = mat0_diff_field_dup_description (field);
              /* texture names come from the file: escaped as names are */
              g_autofree char *safe = mt_escape (change);

              printf ("  %s: %s\n", label, safe);
            }
          break;
        }
    }
}

/* One side of a change: "from" or "to" with the raw value, and its
 * reading where the field table has one. */
static void
add_value (JsonBuilder         *builder,
           const Mat0DiffField *field,
           guint                side)
{
  static const char *const names[2] = { "from", "to" };
  g_autofree char *reading = NULL;

  json_builder_set_member_name (builder, names[side]);
  if (field->kind == MAT0_DIFF_TEXTURE)
    {
      g_autofree char *name = mat0_diff_field_dup_texture (field, side);
      g_autofree char *raw = g_base64_encode (field->texture[side], MAT0_TEXTURE_SIZE);
      g_autofree char *member = g_strconcat (names[side], "_raw", NULL);

      json_builder_add_string_value (builder, name);
      /* the whole field, as dump's texture_raw: bytes after the NUL too */
      json_builder_set_member_name (builder, member);
      json_builder_add_string_value (builder, raw);
      return;
    }
  json_builder_add_int_value (builder, side == 0 ? field->from : field->to);
  reading = mat0_diff_field_dup_reading (field, side);
  if (reading != NULL)
    {
      g_autofree char *member = g_strconcat (names[side], "_reading", NULL);

      json_builder_set_member_name (builder, member);
      json_builder_add_string_value (builder, reading);
    }
}

static void
add_changes (JsonBuilder *builder,
             GArray      *fields)
{
  json_builder_begin_array (builder);
  for (guint f = 0; f < fields->len; f++)
    {
      const Mat0DiffField *field = &g_array_index (fields, Mat0DiffField, f);
      g_autofree char *path = mat0_diff_field_dup_path (field);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "field");
      json_builder_add_string_value (builder, path);
      add_value (builder, field, 0);
      add_value (builder, field, 1);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_entry (JsonBuilder *builder,
           const char  *name,
           gint         index)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, name);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, index);
  json_builder_end_object (builder);
}

static void
print_json (const char            *path_a,
            const char            *path_b,
            const NresArchive     *a,
            const NresArchive     *b,
            const Mat0LibraryDiff *diff)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  static const Mat0DiffStatus order[] = { MAT0_DIFF_ADDED, MAT0_DIFF_REMOVED, MAT0_DIFF_CHANGED };
  static const char *const members[] = { "added", "removed", "changed" };

  g_autofree char *display_a = g_filename_display_name (path_a);
  g_autofree char *display_b = g_filename_display_name (path_b);

  /* JSON strings are UTF-8 whatever bytes the file names hold */
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "a");
  json_builder_add_string_value (builder, display_a);
  json_builder_set_member_name (builder, "b");
  json_builder_add_string_value (builder, display_b);
  json_builder_set_member_name (builder, "equal");
  json_builder_add_boolean_value (builder, mat0_library_diff_is_equal (diff));
  json_builder_set_member_name (builder, "same");
  json_builder_add_int_value (builder, diff->n_same);

  for (guint o = 0; o < G_N_ELEMENTS (order); o++)
    {
      json_builder_set_member_name (builder, members[o]);
      json_builder_begin_array (builder);
      for (guint i = 0; i < diff->items->len; i++)
        {
          const Mat0DiffItem *item = diff->items->pdata[i];
          g_autofree char *name = NULL;

          if (item->status != order[o])
            continue;
          if (item->status == MAT0_DIFF_ADDED)
            {
              name = entry_name (b, item->index_b);
              add_entry (builder, name, item->index_b);
              continue;
            }
          name = entry_name (a, item->index_a);
          if (item->status == MAT0_DIFF_REMOVED)
            {
              add_entry (builder, name, item->index_a);
              continue;
            }

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, name);
          {
            g_autofree char *name_b = entry_name (b, item->index_b);

            /* the same name to the game, spelt another way in B */
            if (g_strcmp0 (name, name_b) != 0)
              {
                json_builder_set_member_name (builder, "name_b");
                json_builder_add_string_value (builder, name_b);
              }
          }
          json_builder_set_member_name (builder, "index_a");
          json_builder_add_int_value (builder, item->index_a);
          json_builder_set_member_name (builder, "index_b");
          json_builder_add_int_value (builder, item->index_b);
          json_builder_set_member_name (builder, "fields");
          json_builder_begin_array (builder);
          for (guint f = 0; f < item->fields->len; f++)
            {
              g_autofree char *path = mat0_diff_field_dup_path (&g_array_index (item->fields, Mat0DiffField, f));

              json_builder_add_string_value (builder, path);
            }
          json_builder_end_array (builder);
          json_builder_set_member_name (builder, "changes");
          add_changes (builder, item->fields);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = mt_json_to_string (root, TRUE);
  printf ("%s\n", text);
}

int
mt_cmd_diff (char     **args,
             gboolean   json)
{
  g_autoptr(NresArchive) a = NULL;
  g_autoptr(NresArchive) b = NULL;
  g_autoptr(Mat0LibraryDiff) diff = NULL;

  if (g_strv_length (args) != 2)
    {
      fprintf (stderr, "mat0tool: diff takes two libraries, A and B\n"
                       "Try 'mat0tool --help'.\n");
      return MT_EXIT_USAGE;
    }
  a = load_archive (args[0]);
  if (a == NULL)
    return MT_EXIT_USAGE;
  b = load_archive (args[1]);
  if (b == NULL)
    return MT_EXIT_USAGE;

  diff = mat0_diff_archives (a, b);
  if (json)
    print_json (args[0], args[1], a, b, diff);
  else
    print_text (a, b, diff);
  return mat0_library_diff_is_equal (diff) ? MT_EXIT_OK : MT_EXIT_INVALID;
}
