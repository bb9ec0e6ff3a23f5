/* nres.c - NRes archives: strict reader, lookup, names
 *
 * See formats.md section 1. Error messages read
 * "ENTRY: offset N: expected X, found Y", ENTRY being the entry name,
 * "(header)" or "(directory)", N the absolute file offset of the field.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "nres.h"

G_DEFINE_QUARK (nres-error-quark, nres_error)

#define ENTRY_OFF_TYPE         0
#define ENTRY_OFF_SIZE        12
#define ENTRY_OFF_NAME        20
#define ENTRY_OFF_DATA_OFFSET 56
#define ENTRY_OFF_SORT_INDEX  60

static guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) |
         ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

/* The name label of an error message: the UTF-8 name, or "entry #i" for
 * an empty one. */
static char *
entry_label (const char *raw_name,
             guint       index)
{
  char *name = cp1251_to_utf8 ((const guint8 *) raw_name, NRES_NAME_SIZE);

  if (name[0] == '\0')
    {
      g_free (name);
      return g_strdup_printf (_("entry #%u"), index);
    }

  return name;
}

/* ASCII case-insensitive comparison of two names, each ending at its NUL
 * or after its byte limit, whichever comes first. */
static int
compare_names_bounded (const char *a,
                       gsize       a_max,
                       const char *b,
                       gsize       b_max)
{
  for (gsize i = 0;; i++)
    {
      guint8 ca = i < a_max ? (guint8) a[i] : 0;
      guint8 cb = i < b_max ? (guint8) b[i] : 0;

      /* names that differ mostly differ late: equal bytes need no folding */
      if (ca == cb)
        {
          if (ca == 0)
            return 0;
          continue;
        }
      if (ca >= 'A' && ca <= 'Z')
        ca += 'a' - 'A';
      if (cb >= 'A' && cb <= 'Z')
        cb += 'a' - 'A';
      if (ca != cb || ca == 0)
        return (int) ca - (int) cb;
    }
}

/* @data holds the first min(@len, 16) bytes of a file of @len bytes. */
/* @base is added to every offset a message names: the archive's own
 * offset in the file that holds it (0 for a file of its own). */
static gboolean
check_header (const guint8  *data,
              guint64        len,
              guint64        base,
              guint32       *out_count,
              guint32       *out_directory_offset,
              GError       **error)
{
  guint32 version, total_size;
  gint32 count;
  guint64 directory_size;

  if (len < NRES_HEADER_SIZE)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_TRUNCATED,
                   _("(header): offset %lu: expected at least %u bytes, found %lu"),
                   (unsigned long) base, (guint) NRES_HEADER_SIZE, (unsigned long) len);
      return FALSE;
    }

  if (memcmp (data, "NRes", 4) != 0)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_MAGIC,
                   _("(header): offset %lu: expected magic \"NRes\", found %02X %02X %02X %02X"),
                   (unsigned long) base, data[0], data[1], data[2], data[3]);
      return FALSE;
    }

  version = get_u32 (data + 4);
  if (version != NRES_VERSION)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_VERSION,
                   _("(header): offset %lu: expected version 0x%08X, found 0x%08X"),
                   (unsigned long) (base + 4), NRES_VERSION, version);
      return FALSE;
    }

  count = (gint32) get_u32 (data + 8);
  if (count < 0)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_COUNT,
                   _("(header): offset %lu: expected entry count >= 0, found %d"),
                   (unsigned long) (base + 8), count);
      return FALSE;
    }

  total_size = get_u32 (data + 12);
  if ((guint64) total_size != len)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_SIZE,
                   _("(header): offset %lu: expected total size %lu (the file size), found %u"),
                   (unsigned long) (base + 12), (unsigned long) len, total_size);
      return FALSE;
    }

  /* count <= 2^31 - 1, so the product fits 64 bits with room to spare. */
  directory_size = (guint64) count * NRES_ENTRY_SIZE;
  if (directory_size > (guint64) total_size ||
      (guint64) total_size - directory_size < NRES_HEADER_SIZE)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_COUNT,
                   _("(directory): offset %lu: expected at most %u entries of %u bytes after the %u-byte header in a file of %u bytes, found %d"),
                   (unsigned long) (base + 8),
                   (guint) ((total_size - NRES_HEADER_SIZE) / NRES_ENTRY_SIZE),
                   (guint) NRES_ENTRY_SIZE, (guint) NRES_HEADER_SIZE,
                   total_size, count);
      return FALSE;
    }

  *out_count = (guint32) count;
  *out_directory_offset = (guint32) ((guint64) total_size - directory_size);

  return TRUE;
}

static gboolean
check_entry (const NresEntry  *entry,
             guint             index,
             guint64           entry_offset,
             guint32           directory_offset,
             GError          **error)
{
  g_autofree char *label = NULL;
  guint64 end = (guint64) entry->data_offset + entry->size;

  /* The common case first, without allocating: the error label is only
   * built on the way out. */
  if (G_LIKELY (entry->name[0] != '\0' &&
                memchr (entry->name, '\0', NRES_NAME_SIZE) != NULL &&
                entry->data_offset >= NRES_HEADER_SIZE &&
                entry->data_offset <= directory_offset &&
                end <= directory_offset))
    return TRUE;

  if (memchr (entry->name, '\0', NRES_NAME_SIZE) == NULL)
    {
      label = entry_label (entry->name, index);
      g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_NAME,
                   _("%s: offset %u: expected a NUL within the %u-byte name field, found none"),
                   label, (guint) (entry_offset + ENTRY_OFF_NAME), (guint) NRES_NAME_SIZE);
      return FALSE;
    }

  label = entry_label (entry->name, index);

  if (entry->name[0] == '\0')
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_NAME,
                   _("%s: offset %u: expected a non-empty name, found an empty one"),
                   label, (guint) (entry_offset + ENTRY_OFF_NAME));
      return FALSE;
    }

  if (entry->data_offset < NRES_HEADER_SIZE)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_ENTRY,
                   _("%s: offset %u: expected data offset >= %u, found %u"),
                   label, (guint) (entry_offset + ENTRY_OFF_DATA_OFFSET),
                   (guint) NRES_HEADER_SIZE, entry->data_offset);
      return FALSE;
    }

  if (entry->data_offset > directory_offset)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_ENTRY,
                   _("%s: offset %u: expected data offset <= %u (the directory offset), found %u"),
                   label, (guint) (entry_offset + ENTRY_OFF_DATA_OFFSET),
                   directory_offset, entry->data_offset);
      return FALSE;
    }

  if (end > directory_offset)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_ENTRY,
                   _("%s: offset %u: expected size <= %u (data offset %u up to the directory at %u), found %u"),
                   label, (guint) (entry_offset + ENTRY_OFF_SIZE),
                   directory_offset - entry->data_offset,
                   entry->data_offset, directory_offset, entry->size);
      return FALSE;
    }

  return TRUE;
}

/* Whether a directory that failed its checks is rather a count that is too
 * large: its last @fitting entries make a valid directory on their own, and
 * the entries before them lie wholly inside the payloads those name (with
 * at most 7 zero bytes of padding between or after them): with the count
 * one entry too many, the "first entry" is the end of the last payload. */
static gboolean
count_too_large (const guint8 *directory,
                 guint32       n_entries,
                 guint32       directory_offset,
                 guint32      *fitting)
{
  guint64 total = (guint64) directory_offset + (guint64) n_entries * NRES_ENTRY_SIZE;
  guint64 max_end = 0, max_start = 0;
  guint32 m = 0, region_end;
  g_autofree guint64 *ranges = NULL;
  guint n_ranges = 0;
  guint64 covered;

  for (guint32 j = n_entries; j-- > 0;)
    {
      const guint8 *p = directory + (gsize) j * NRES_ENTRY_SIZE;
      guint32 offset = get_u32 (p + ENTRY_OFF_DATA_OFFSET);
      guint64 end = (guint64) offset + get_u32 (p + ENTRY_OFF_SIZE);
      guint64 new_directory = total - (guint64) (n_entries - j) * NRES_ENTRY_SIZE;

      if (p[ENTRY_OFF_NAME] == '\0' || memchr (p + ENTRY_OFF_NAME, '\0', NRES_NAME_SIZE) == NULL ||
          offset < NRES_HEADER_SIZE)
        break;
      max_end = MAX (max_end, end);
      max_start = MAX (max_start, offset);
      if (max_end > new_directory || max_start > new_directory)
        break;
      m = n_entries - j;
    }
  if (m == 0 || m == n_entries)
    return FALSE;

  /* The entries left out: [directory_offset, region_end), inside payloads. */
  region_end = (guint32) (total - (guint64) m * NRES_ENTRY_SIZE);
  ranges = g_new (guint64, m);
  for (guint32 j = n_entries - m; j < n_entries; j++)
    {
      const guint8 *p = directory + (gsize) j * NRES_ENTRY_SIZE;
      guint32 offset = get_u32 (p + ENTRY_OFF_DATA_OFFSET);
      guint32 size = get_u32 (p + ENTRY_OFF_SIZE);

      if (size > 0 && (guint64) offset + size > directory_offset && offset < region_end)
        ranges[n_ranges++] = ((guint64) offset << 32) | ((guint64) offset + size - offset);
    }
  if (n_ranges == 0)
    return FALSE;
  for (guint i = 1; i < n_ranges; i++)   /* insertion sort: few ranges */
    for (guint k = i; k > 0 && ranges[k - 1] > ranges[k]; k--)
      {
        guint64 t = ranges[k];
        ranges[k] = ranges[k - 1];
        ranges[k - 1] = t;
      }

  covered = directory_offset;
  for (guint i = 0; i <= n_ranges && covered < region_end; i++)
    {
      guint64 start = i < n_ranges ? ranges[i] >> 32 : region_end;
      guint64 end = i < n_ranges ? start + (ranges[i] & G_MAXUINT32) : region_end;

      if (start > covered)
        {
          /* padding: at most 7 zero bytes */
          if (start - covered > 7)
            return FALSE;
          for (guint64 x = covered; x < start; x++)
            if (directory[x - directory_offset] != 0)
              return FALSE;
        }
      if (i == n_ranges)
        break;
      covered = MAX (covered, end);
    }

  *fitting = m;
  return TRUE;
}

/* After entry checks failed: blames the count instead when it is what is
 * wrong (count_too_large). */
static void
maybe_blame_count (const guint8  *directory,
                   guint32        n_entries,
                   guint32        directory_offset,
                   guint64        base,
                   GError       **error)
{
  guint32 fitting = 0;

  if (error == NULL || *error == NULL ||
      !count_too_large (directory, n_entries, directory_offset, &fitting))
    return;
  g_clear_error (error);
  g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_COUNT,
               _("(header): offset %lu: expected entry count %u (with %u the directory would begin at offset %lu, inside the payloads), found %u"),
               (unsigned long) (base + 8), fitting, n_entries,
               (unsigned long) (base + directory_offset), n_entries);
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

NresGap *
nres_find_gaps (const guint8 *directory,
                guint32       n_entries,
                guint32       directory_offset,
                guint        *n_gaps)
{
  g_autofree guint64 *ranges = NULL;
  GArray *gaps;
  gboolean sorted = TRUE;
  guint64 covered = NRES_HEADER_SIZE;

  g_return_val_if_fail (directory != NULL || n_entries == 0, NULL);
  g_return_val_if_fail (n_gaps != NULL, NULL);

  /* (start << 32 | end - start): sorting the words sorts by start */
  ranges = g_new (guint64, n_entries + 1);
  for (guint32 i = 0; i < n_entries; i++)
    {
      const guint8 *p = directory + (gsize) i * NRES_ENTRY_SIZE;

      ranges[i] = ((guint64) get_u32 (p + ENTRY_OFF_DATA_OFFSET) << 32) | get_u32 (p + ENTRY_OFF_SIZE);
      sorted = sorted && (i == 0 || ranges[i - 1] >> 32 <= ranges[i] >> 32);
    }
  if (!sorted)
    qsort (ranges, n_entries, sizeof (guint64), compare_u64);
  /* the directory ends the last region */
  ranges[n_entries] = (guint64) directory_offset << 32;

  gaps = g_array_new (FALSE, FALSE, sizeof (NresGap));
  for (guint32 i = 0; i <= n_entries; i++)
    {
      guint64 start = ranges[i] >> 32;
      guint64 end = start + (ranges[i] & G_MAXUINT32);

      if (start > covered && start - covered >= 8 + (guint64) NRES_GAP_MIN)
        {
          NresGap gap = { (guint32) (covered + 8), (guint32) (start - covered - 8) };

          g_array_append_val (gaps, gap);
        }
      covered = MAX (covered, end);
    }

  *n_gaps = gaps->len;
  if (gaps->len == 0)
    {
      g_array_free (gaps, TRUE);
      return NULL;
    }
  return (NresGap *) g_array_free (gaps, FALSE);
}

gboolean
nres_check_header (const guint8  *header,
                   gsize          header_len,
                   guint64        file_size,
                   guint32       *n_entries,
                   guint32       *directory_offset,
                   GError       **error)
{
  guint32 count = 0, offset = 0;

  g_return_val_if_fail (header != NULL || file_size == 0, FALSE);
  g_return_val_if_fail (header_len >= MIN (file_size, NRES_HEADER_SIZE), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_header (header, file_size, 0, &count, &offset, error))
    return FALSE;
  if (n_entries != NULL)
    *n_entries = count;
  if (directory_offset != NULL)
    *directory_offset = offset;

  return TRUE;
}

gboolean
nres_check_directory (const guint8  *directory,
                      guint32        n_entries,
                      guint32        directory_offset,
                      GError       **error)
{
  g_return_val_if_fail (directory != NULL || n_entries == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (guint i = 0; i < n_entries; i++)
    {
      guint32 entry_offset = directory_offset + i * NRES_ENTRY_SIZE;
      const guint8 *p = directory + (gsize) i * NRES_ENTRY_SIZE;
      NresEntry entry;

      entry.size = get_u32 (p + ENTRY_OFF_SIZE);
      memcpy (entry.name, p + ENTRY_OFF_NAME, NRES_NAME_SIZE);
      entry.data_offset = get_u32 (p + ENTRY_OFF_DATA_OFFSET);
      if (!check_entry (&entry, i, entry_offset, directory_offset, error))
        {
          maybe_blame_count (directory, n_entries, directory_offset, 0, error);
          return FALSE;
        }
    }

  return TRUE;
}

/* One bit per entry, on the stack for small directories. */
#define SEEN_STACK_WORDS 64

static gboolean
sort_index_is_permutation (const NresEntry *entries,
                           guint            n)
{
  guint64 stack_seen[SEEN_STACK_WORDS];
  g_autofree guint64 *heap_seen = NULL;
  guint64 *seen;
  gsize n_words = ((gsize) n + 63) / 64;

  if (n_words <= SEEN_STACK_WORDS)
    {
      seen = stack_seen;
      memset (seen, 0, n_words * sizeof (guint64));
    }
  else
    seen = heap_seen = g_new0 (guint64, n_words);

  for (guint i = 0; i < n; i++)
    {
      guint32 s = entries[i].sort_index;
      guint64 bit;

      if (s >= n)
        return FALSE;
      bit = G_GUINT64_CONSTANT (1) << (s % 64);
      if (seen[s / 64] & bit)
        return FALSE;
      seen[s / 64] |= bit;
    }

  return TRUE;
}

/* Whether the table, already known to be a permutation, is the canonical
 * one. Canonical order is by name (case-insensitive), ties by index: a
 * strict total order, so the only table listing the entries in that order
 * is the canonical one, and checking neighbours is enough. O(n). */
/* Also tells whether two neighbours in name order compared equal, which
 * in a canonical table is the same as "some names are duplicates". */
static gboolean
sort_index_is_canonical (const NresEntry *entries,
                         guint            n,
                         gboolean        *names_distinct)
{
  *names_distinct = TRUE;
  for (guint i = 1; i < n; i++)
    {
      guint32 a = entries[i - 1].sort_index;
      guint32 b = entries[i].sort_index;
      int c = compare_names_bounded (entries[a].name, NRES_NAME_SIZE,
                                     entries[b].name, NRES_NAME_SIZE);

      if (c > 0 || (c == 0 && a > b))
        {
          *names_distinct = FALSE;   /* unknown: not proven */
          return FALSE;
        }
      if (c == 0)
        *names_distinct = FALSE;
    }

  return TRUE;
}

/* @bytes: the file (@held FALSE), or the file less its gaps. @base_offset
 * is added to every offset a message names (the archive's own offset in
 * the file that holds it). */
static NresArchive *
parse_archive (GBytes   *bytes,
               guint64   file_size,
               gboolean  held,
               guint64   base_offset,
               GError  **error)
{
  g_autoptr(NresArchive) archive = NULL;
  const guint8 *data, *directory;
  gsize len = 0;
  guint32 count, directory_offset;

  data = g_bytes_get_data (bytes, &len);

  if (!check_header (data, held ? file_size : len, base_offset, &count, &directory_offset, error))
    return NULL;
  if (held && (len < NRES_HEADER_SIZE || len - NRES_HEADER_SIZE < (guint64) count * NRES_ENTRY_SIZE ||
               len > file_size))
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                   _("(directory): offset %u: expected the header and the directory among the bytes read, found %lu bytes"),
                   directory_offset, (unsigned long) len);
      return NULL;
    }
  directory = data + (held ? len - (gsize) count * NRES_ENTRY_SIZE : directory_offset);

  archive = g_new0 (NresArchive, 1);
  archive->bytes = g_bytes_ref (bytes);
  archive->version = get_u32 (data + 4);
  archive->total_size = get_u32 (data + 12);
  archive->directory_offset = directory_offset;
  archive->n_entries = count;
  archive->entries = g_new (NresEntry, count > 0 ? count : 1);   /* every field set below */

  for (guint i = 0; i < count; i++)
    {
      guint32 entry_offset = directory_offset + i * NRES_ENTRY_SIZE;
      const guint8 *p = directory + (gsize) i * NRES_ENTRY_SIZE;
      NresEntry *entry = &archive->entries[i];

      entry->type_id = get_u32 (p + ENTRY_OFF_TYPE);
      entry->attr1 = get_u32 (p + 4);
      entry->attr2 = get_u32 (p + 8);
      entry->size = get_u32 (p + ENTRY_OFF_SIZE);
      entry->attr3 = get_u32 (p + 16);
      memcpy (entry->name, p + ENTRY_OFF_NAME, NRES_NAME_SIZE);
      entry->data_offset = get_u32 (p + ENTRY_OFF_DATA_OFFSET);
      entry->sort_index = get_u32 (p + ENTRY_OFF_SORT_INDEX);

      if (!check_entry (entry, i, base_offset + entry_offset, directory_offset, error))
        {
          maybe_blame_count (directory, count, directory_offset, base_offset, error);
          return NULL;
        }
    }

  if (held)
    {
      guint64 left_out = 0;

      archive->gaps = nres_find_gaps (directory, count, directory_offset, &archive->n_gaps);
      archive->gap_before = g_new (guint64, archive->n_gaps + 1);
      for (guint i = 0; i < archive->n_gaps; i++)
        {
          archive->gap_before[i] = left_out;
          left_out += archive->gaps[i].length;
        }
      archive->gap_before[archive->n_gaps] = left_out;
      if ((guint64) len + left_out != file_size)
        {
          g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                       _("(directory): offset %u: expected %llu bytes read of a file of %llu, found %lu"),
                       directory_offset, (unsigned long long) (file_size - left_out),
                       (unsigned long long) file_size, (unsigned long) len);
          return NULL;
        }
    }

  archive->sort_index_valid = sort_index_is_permutation (archive->entries, count);
  archive->sort_index_canonical = archive->sort_index_valid &&
    sort_index_is_canonical (archive->entries, count, &archive->names_distinct);

  return g_steal_pointer (&archive);
}

NresArchive *
nres_archive_parse (GBytes  *bytes,
                    GError **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return parse_archive (bytes, g_bytes_get_size (bytes), FALSE, 0, error);
}

NresArchive *
nres_archive_parse_nested (GBytes  *bytes,
                           guint64  base_offset,
                           GError **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return parse_archive (bytes, g_bytes_get_size (bytes), FALSE, base_offset, error);
}

NresArchive *
nres_archive_parse_held (GBytes   *held,
                         guint64   file_size,
                         GError  **error)
{
  g_return_val_if_fail (held != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return parse_archive (held, file_size, TRUE, 0, error);
}

void
nres_archive_set_gap_reader (NresArchive    *archive,
                             NresGapReader   reader,
                             gpointer        user_data,
                             GDestroyNotify  destroy)
{
  g_return_if_fail (archive != NULL);

  if (archive->gap_reader_destroy != NULL)
    archive->gap_reader_destroy (archive->gap_reader_data);
  archive->gap_reader = reader;
  archive->gap_reader_data = user_data;
  archive->gap_reader_destroy = destroy;
}

/* Where file offset @offset (not inside a gap) is in archive->bytes. */
static gsize
held_offset (const NresArchive *archive,
             guint32            offset)
{
  guint lo = 0, hi = archive->n_gaps;

  if (G_LIKELY (hi == 0))
    return offset;
  /* the number of gaps before @offset */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (archive->gaps[mid].offset < offset)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (gsize) (offset - archive->gap_before[lo]);
}

void
nres_archive_free (NresArchive *archive)
{
  if (archive == NULL)
    return;

  if (archive->gap_reader_destroy != NULL)
    archive->gap_reader_destroy (archive->gap_reader_data);
  g_clear_pointer (&archive->bytes, g_bytes_unref);
  g_free (archive->entries);
  g_free (archive->gaps);
  g_free (archive->gap_before);
  g_free (archive);
}

const guint8 *
nres_archive_payload (const NresArchive *archive,
                      guint              index,
                      gsize             *size)
{
  const guint8 *data;

  g_return_val_if_fail (archive != NULL, NULL);
  g_return_val_if_fail (index < archive->n_entries, NULL);

  data = g_bytes_get_data (archive->bytes, NULL);
  if (size != NULL)
    *size = archive->entries[index].size;

  return data + held_offset (archive, archive->entries[index].data_offset);
}

GBytes *
nres_archive_payload_bytes (const NresArchive *archive,
                            guint              index)
{
  g_return_val_if_fail (archive != NULL, NULL);
  g_return_val_if_fail (index < archive->n_entries, NULL);

  return g_bytes_new_from_bytes (archive->bytes,
                                 held_offset (archive, archive->entries[index].data_offset),
                                 archive->entries[index].size);
}

gint
nres_archive_find (const NresArchive *archive,
                   const char        *name)
{
  const NresEntry *entries;
  guint n;

  g_return_val_if_fail (archive != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  entries = archive->entries;
  n = archive->n_entries;

  if (archive->sort_index_valid)
    {
      guint lo = 0, hi = n;

      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          guint32 target = entries[mid].sort_index;
          int c = compare_names_bounded (name, G_MAXSIZE,
                                         entries[target].name, NRES_NAME_SIZE);

          if (c == 0)
            return (gint) target;
          if (c < 0)
            hi = mid;
          else
            lo = mid + 1;
        }

      return -1;
    }

  for (guint i = 0; i < n; i++)
    {
      if (compare_names_bounded (name, G_MAXSIZE, entries[i].name, NRES_NAME_SIZE) == 0)
        return (gint) i;
    }

  return -1;
}

gint
nres_archive_resolve (const NresArchive *archive,
                      const char        *name,
                      NresResolve       *how)
{
  NresResolve result;
  gint index;

  g_return_val_if_fail (archive != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  if ((index = nres_archive_find (archive, name)) >= 0)
    result = NRES_RESOLVE_EXACT;
  else if ((index = nres_archive_find (archive, "DEFAULT")) >= 0)
    result = NRES_RESOLVE_DEFAULT;
  else if (archive->n_entries > 0)
    {
      index = 0;
      result = NRES_RESOLVE_FIRST;
    }
  else
    {
      index = -1;
      result = NRES_RESOLVE_NONE;
    }

  if (how != NULL)
    *how = result;

  return index;
}

static int
compare_sort_order (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  const NresEntry *entries = user_data;
  guint32 ia = *(const guint32 *) a;
  guint32 ib = *(const guint32 *) b;
  int c = compare_names_bounded (entries[ia].name, NRES_NAME_SIZE,
                                 entries[ib].name, NRES_NAME_SIZE);

  if (c != 0)
    return c;

  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

void
nres_canonical_sort_index (const NresEntry *entries,
                           guint            n_entries,
                           guint32         *out)
{
  g_return_if_fail (entries != NULL || n_entries == 0);
  g_return_if_fail (out != NULL || n_entries == 0);
  g_return_if_fail (n_entries <= G_MAXINT);

  for (guint i = 0; i < n_entries; i++)
    out[i] = i;

  if (n_entries > 1)
    g_qsort_with_data (out, (gint) n_entries, sizeof (guint32),
                       compare_sort_order, (gpointer) entries);
}

gboolean
nres_entry_set_name (NresEntry   *entry,
                     const char  *name,
                     GError     **error)
{
  g_return_val_if_fail (entry != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (name[0] == '\0')
    {
      g_set_error (error, CP1251_ERROR, CP1251_ERROR_EMPTY,
                   _("A name must not be empty"));
      return FALSE;
    }

  return cp1251_from_utf8 (name, (guint8 *) entry->name, NRES_NAME_SIZE, error);
}

NresOutEntry *
nres_out_entries_from_archive (const NresArchive *archive,
                               guint             *n_out)
{
  NresOutEntry *out;

  g_return_val_if_fail (archive != NULL, NULL);
  g_return_val_if_fail (n_out != NULL, NULL);

  out = g_new (NresOutEntry, archive->n_entries > 0 ? archive->n_entries : 1);
  for (guint i = 0; i < archive->n_entries; i++)
    {
      out[i].source = (gint) i;
      out[i].entry = archive->entries[i];
      out[i].payload = NULL;
    }
  *n_out = archive->n_entries;

  return out;
}

void
nres_out_entries_free (NresOutEntry *out,
                       guint         n_out)
{
  if (out == NULL)
    return;

  for (guint i = 0; i < n_out; i++)
    g_clear_pointer (&out[i].payload, g_bytes_unref);
  g_free (out);
}
