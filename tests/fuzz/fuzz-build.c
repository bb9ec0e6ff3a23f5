/* fuzz-build.c - libFuzzer target: the dump document `mat0tool build` reads
 *
 * The input is handed to mt_json_build (src/cli/mat0tool-build.c, the
 * very code of `build`, reading the document piece by piece from a file
 * descriptor, each entry through the model's mat_json_entry_parse, as the
 * editor's paste reads it). Whatever the input, nothing may crash, leak
 * or raise a GLib critical or warning (both made fatal here); a refusal
 * is a GError of the document's kinds with a message. What is built must
 * parse as an archive, and each of its entries, dumped again
 * (mat_json_entry_new, written as text) and read back, must give the
 * same directory fields and payload bytes.
 */
#define _GNU_SOURCE 1   /* memfd_create */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cp1251.h"
#include "mat-material-json.h"
#include "mat0.h"
#include "mat0tool.h"
#include "nres.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  return 0;
}

/* Entry @i of @archive dumped as text and read back as build reads it. */
static void
check_entry_again (const NresArchive *archive, guint i)
{
  const NresEntry *entry = &archive->entries[i];
  g_autoptr(Mat0Material) material = NULL;
  g_autoptr(GError) decode_error = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GBytes) payload = NULL;
  g_autofree char *text = NULL;
  g_autofree char *name = cp1251_to_utf8 ((const guint8 *) entry->name, NRES_NAME_SIZE);
  NresEntry again;
  const guint8 *data;
  gsize size;

  data = nres_archive_payload (archive, i, &size);
  if (entry->type_id == NRES_TYPE_MAT0)
    material = mat0_decode (data, size, entry->attr2, name, entry->data_offset, &decode_error);
  node = mat_json_entry_new (i, entry, material, data, size,
                             decode_error != NULL ? decode_error->message : NULL);
  text = mat_json_to_string (node, TRUE);
  if (!mat_json_load_at (parser, text, -1, "again", &error) ||
      !mat_json_entry_parse (json_parser_get_root (parser), "again", &again, &payload, &error))
    {
      fprintf (stderr, "an entry built does not read back: %s\n%s\n", error->message, text);
      abort ();
    }
  if (memcmp (again.name, entry->name, NRES_NAME_SIZE) != 0 || again.type_id != entry->type_id ||
      again.attr1 != entry->attr1 || again.attr2 != entry->attr2 || again.attr3 != entry->attr3 ||
      g_bytes_get_size (payload) != size ||
      (size > 0 && memcmp (g_bytes_get_data (payload, NULL), data, size) != 0))
    {
      fprintf (stderr, "entry %u read back differs\n%s\n", i, text);
      abort ();
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) built = NULL;
  g_autoptr(NresArchive) archive = NULL;
  int fd = memfd_create ("document", MFD_CLOEXEC);
  size_t done = 0;

  if (fd < 0)
    abort ();
  while (done < size)
    {
      ssize_t n = write (fd, data + done, size - done);

      if (n <= 0)
        abort ();
      done += (size_t) n;
    }
  if (lseek (fd, 0, SEEK_SET) != 0)
    abort ();
  built = mt_json_build (fd, &error);
  close (fd);

  if (built == NULL)
    {
      /* a refusal of the document, said in words */
      if (error == NULL || error->message == NULL || error->message[0] == '\0' ||
          !(error->domain == JSON_PARSER_ERROR || error->domain == NRES_ERROR ||
            g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA)))
        abort ();
      return 0;
    }
  if (error != NULL)
    abort ();

  archive = nres_archive_parse (built, &error);
  if (archive == NULL)
    {
      fprintf (stderr, "the library built does not parse: %s\n", error->message);
      abort ();
    }
  for (guint i = 0; i < archive->n_entries; i++)
    check_entry_again (archive, i);
  return 0;
}
