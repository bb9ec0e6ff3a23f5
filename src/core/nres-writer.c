/* nres-writer.c - the two NRes writers of formats.md section 1
 *
 * The preserving writer walks the original data region in data_offset
 * order. A segment is one payload, or the union of payloads that share
 * bytes. After a segment ending at e, the zero bytes from e up to the next
 * multiple of 8 are its padding when they all are zero and end before the
 * next segment (or the directory); every other byte between segments is an
 * unindexed region and is copied verbatim. An edit replaces payloads,
 * regrows padding after segments that had it, drops removed payloads with
 * their padding and appends new entries 8-aligned after the last segment.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "nres.h"

typedef struct {
  guint32  start;          /* original span of the segment */
  guint32  end;
  guint32  padding;        /* zero bytes after end, when aligned-padded */
  gboolean aligned_padded;
  guint32  unindexed_end;  /* bytes [end + padding, unindexed_end) follow */
  guint    first;          /* range in the sorted order */
  guint    n;
} Segment;

typedef struct {
  GBytes  *payload;        /* the bytes to write (new or original) */
  gboolean changed;        /* differs from the original payload */
  gint     out_index;      /* the out entry naming this source, or -1 */
} SourceState;

static void
put_u32 (GByteArray *array,
         guint32     v)
{
  guint8 b[4] = { v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, v >> 24 };

  g_byte_array_append (array, b, 4);
}

static void
set_u32 (guint8  *p,
         guint32  v)
{
  p[0] = v & 0xFF;
  p[1] = (v >> 8) & 0xFF;
  p[2] = (v >> 16) & 0xFF;
  p[3] = v >> 24;
}

static void
pad_to_8 (GByteArray *array)
{
  static const guint8 zeros[8] = { 0 };

  if (array->len % 8 != 0)
    g_byte_array_append (array, zeros, 8 - array->len % 8);
}

static char *
out_label (const NresEntry *entry,
           guint            index)
{
  char *name = cp1251_to_utf8 ((const guint8 *) entry->name, NRES_NAME_SIZE);

  if (name[0] == '\0')
    {
      g_free (name);
      return g_strdup_printf (_("entry #%u"), index);
    }

  return name;
}

static gboolean
check_out_names (const NresOutEntry  *out,
                 guint                n_out,
                 GError             **error)
{
  for (guint i = 0; i < n_out; i++)
    {
      const NresEntry *entry = &out[i].entry;

      if (memchr (entry->name, '\0', NRES_NAME_SIZE) == NULL)
        {
          g_autofree char *label = out_label (entry, i);

          g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_NAME,
                       _("%s: directory entry %u: expected a NUL within the %u-byte name field, found none"),
                       label, i, (guint) NRES_NAME_SIZE);
          return FALSE;
        }
      if (entry->name[0] == '\0')
        {
          g_set_error (error, NRES_ERROR, NRES_ERROR_BAD_NAME,
                       _("entry #%u: expected a non-empty name, found an empty one"), i);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
names_changed (const NresArchive  *archive,
               const NresOutEntry *out,
               guint               n_out)
{
  if (n_out != archive->n_entries)
    return TRUE;

  for (guint i = 0; i < n_out; i++)
    {
      if (out[i].source != (gint) i)
        return TRUE;
      if (strncmp (out[i].entry.name, archive->entries[i].name, NRES_NAME_SIZE) != 0)
        return TRUE;
    }

  return FALSE;
}

/* Appends the directory to @data and fills in the header. */
static gboolean
finish (GByteArray         *data,
        const NresOutEntry *out,
        guint               n_out,
        const guint32      *offsets,
        const guint32      *sizes,
        gboolean            recompute_sort_index,
        GError            **error)
{
  g_autofree NresEntry *entries = g_new0 (NresEntry, n_out > 0 ? n_out : 1);
  g_autofree guint32 *sort_index = g_new0 (guint32, n_out > 0 ? n_out : 1);
  guint64 total = (guint64) data->len + (guint64) n_out * NRES_ENTRY_SIZE;

  if (total > G_MAXUINT32 || n_out > G_MAXINT32)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                   _("(header): offset 12: expected a file of at most %u bytes, found %" G_GUINT64_FORMAT),
                   G_MAXUINT32, total);
      return FALSE;
    }

  for (guint i = 0; i < n_out; i++)
    {
      entries[i] = out[i].entry;
      entries[i].data_offset = offsets[i];
      entries[i].size = sizes[i];
      sort_index[i] = entries[i].sort_index;
    }

  if (recompute_sort_index)
    nres_canonical_sort_index (entries, n_out, sort_index);

  for (guint i = 0; i < n_out; i++)
    {
      put_u32 (data, entries[i].type_id);
      put_u32 (data, entries[i].attr1);
      put_u32 (data, entries[i].attr2);
      put_u32 (data, entries[i].size);
      put_u32 (data, entries[i].attr3);
      g_byte_array_append (data, (const guint8 *) entries[i].name, NRES_NAME_SIZE);
      put_u32 (data, entries[i].data_offset);
      put_u32 (data, sort_index[i]);
    }

  memcpy (data->data, "NRes", 4);
  set_u32 (data->data + 4, NRES_VERSION);
  set_u32 (data->data + 8, n_out);
  set_u32 (data->data + 12, data->len);

  return TRUE;
}

static gboolean
append_payload (GByteArray *data,
                GBytes     *payload,
                GError    **error)
{
  gsize size = g_bytes_get_size (payload);

  if ((guint64) data->len + size > G_MAXUINT32)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                   _("(header): offset 12: expected a file of at most %u bytes, found more"),
                   G_MAXUINT32);
      return FALSE;
    }

  g_byte_array_append (data, g_bytes_get_data (payload, NULL), size);
  return TRUE;
}

static int
compare_by_offset (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  const NresArchive *archive = user_data;
  guint ia = *(const guint *) a;
  guint ib = *(const guint *) b;
  const NresEntry *ea = &archive->entries[ia];
  const NresEntry *eb = &archive->entries[ib];

  if (ea->data_offset != eb->data_offset)
    return ea->data_offset < eb->data_offset ? -1 : 1;
  if (ea->size != eb->size)
    return ea->size < eb->size ? -1 : 1;
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

static guint *
sort_by_offset (const NresArchive *archive)
{
  guint n = archive->n_entries;
  guint *order = g_new (guint, n > 0 ? n : 1);

  for (guint i = 0; i < n; i++)
    order[i] = i;

  /* Ties are broken by index: the order is total, hence stable. The
   * parser bounds n by the file size / 64, far below G_MAXINT. */
  if (n > 1)
    g_qsort_with_data (order, (gint) n, sizeof (guint),
                       compare_by_offset, (gpointer) archive);

  return order;
}

static gboolean
source_in_use (const SourceState *state)
{
  return state->out_index >= 0;
}

GBytes *
nres_write_preserving (const NresArchive  *archive,
                       const NresOutEntry *out,
                       guint               n_out,
                       GError            **error)
{
  g_autoptr(GByteArray) data = NULL;
  g_autofree guint *order = NULL;
  g_autofree Segment *segments = NULL;
  g_autofree SourceState *state = NULL;
  g_autofree guint32 *offsets = NULL;
  g_autofree guint32 *sizes = NULL;
  const guint8 *file;
  guint n_orig, n_segments = 0;

  g_return_val_if_fail (archive != NULL, NULL);
  g_return_val_if_fail (out != NULL || n_out == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n_orig = archive->n_entries;
  file = g_bytes_get_data (archive->bytes, NULL);

  if (!check_out_names (out, n_out, error))
    return NULL;

  /* Which out entry names each original entry, and with which bytes. */
  state = g_new0 (SourceState, n_orig > 0 ? n_orig : 1);
  for (guint i = 0; i < n_orig; i++)
    state[i].out_index = -1;

  for (guint i = 0; i < n_out; i++)
    {
      gint source = out[i].source;

      if (source < -1 || source >= (gint) n_orig)
        {
          g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                       _("entry #%u: expected a source index from -1 to %d, found %d"),
                       i, (gint) n_orig - 1, source);
          return NULL;
        }
      if (source == -1)
        {
          if (out[i].payload == NULL)
            {
              g_autofree char *label = out_label (&out[i].entry, i);

              g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                           _("%s: expected a payload for a new entry, found none"),
                           label);
              return NULL;
            }
          continue;
        }
      if (state[source].out_index >= 0)
        {
          g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                       _("entry #%u: expected each source entry at most once, found source %d again (first in entry #%d)"),
                       i, source, state[source].out_index);
          return NULL;
        }

      state[source].out_index = (gint) i;
      if (out[i].payload != NULL)
        {
          gsize size = 0;
          const guint8 *orig = nres_archive_payload (archive, source, &size);
          gsize new_size = g_bytes_get_size (out[i].payload);

          state[source].payload = out[i].payload;
          state[source].changed = new_size != size ||
            (size > 0 && memcmp (orig, g_bytes_get_data (out[i].payload, NULL), size) != 0);
        }
    }

  /* Segments: payloads in offset order, payloads sharing bytes merged. */
  order = sort_by_offset (archive);
  segments = g_new0 (Segment, n_orig > 0 ? n_orig : 1);
  for (guint k = 0; k < n_orig; k++)
    {
      const NresEntry *e = &archive->entries[order[k]];
      guint32 end = e->data_offset + e->size;   /* checked by the parser */

      if (n_segments > 0 && e->data_offset < segments[n_segments - 1].end)
        {
          Segment *seg = &segments[n_segments - 1];

          seg->end = MAX (seg->end, end);
          seg->n++;
          continue;
        }

      segments[n_segments].start = e->data_offset;
      segments[n_segments].end = end;
      segments[n_segments].first = k;
      segments[n_segments].n = 1;
      n_segments++;
    }

  /* Overlapping payloads can only be copied as they are. */
  for (guint s = 0; s < n_segments; s++)
    {
      const Segment *seg = &segments[s];

      if (seg->n < 2)
        continue;

      for (guint k = seg->first; k < seg->first + seg->n; k++)
        {
          guint idx = order[k];

          if (state[idx].changed || !source_in_use (&state[idx]))
            {
              guint other = order[k == seg->first ? k + 1 : seg->first];
              g_autofree char *label = out_label (&archive->entries[idx], idx);
              g_autofree char *other_label = out_label (&archive->entries[other], other);

              g_set_error (error, NRES_ERROR, NRES_ERROR_OVERLAP,
                           _("%s: offset %u: expected a payload that shares no bytes with %s, found an overlap; "
                             "the preserving save cannot change or remove shared bytes, use repack"),
                           label, archive->entries[idx].data_offset, other_label);
              return NULL;
            }
        }
    }

  /* Padding and unindexed bytes after each segment. */
  for (guint s = 0; s < n_segments; s++)
    {
      Segment *seg = &segments[s];
      guint32 next = s + 1 < n_segments ? segments[s + 1].start : archive->directory_offset;
      guint64 pad_end = ((guint64) seg->end + 7) & ~(guint64) 7;

      seg->aligned_padded = FALSE;
      seg->padding = 0;
      if (pad_end <= next)
        {
          gboolean zeros = TRUE;

          for (guint64 p = seg->end; p < pad_end; p++)
            zeros = zeros && file[p] == 0;
          if (zeros)
            {
              seg->aligned_padded = TRUE;
              seg->padding = (guint32) (pad_end - seg->end);
            }
        }
      seg->unindexed_end = next;
    }

  data = g_byte_array_sized_new (archive->total_size);
  g_byte_array_append (data, file, NRES_HEADER_SIZE);   /* patched in finish () */

  offsets = g_new0 (guint32, n_out > 0 ? n_out : 1);
  sizes = g_new0 (guint32, n_out > 0 ? n_out : 1);

  /* Unindexed bytes before the first payload. */
  {
    guint32 lead_end = n_segments > 0 ? segments[0].start : archive->directory_offset;

    g_byte_array_append (data, file + NRES_HEADER_SIZE, lead_end - NRES_HEADER_SIZE);
  }

  for (guint s = 0; s < n_segments; s++)
    {
      const Segment *seg = &segments[s];
      guint32 tail_start = seg->end + seg->padding;

      if (seg->n > 1)
        {
          /* Shared bytes, none changed: the union span verbatim. */
          guint32 base = data->len;

          g_byte_array_append (data, file + seg->start, seg->end - seg->start);
          for (guint k = seg->first; k < seg->first + seg->n; k++)
            {
              guint idx = order[k];
              gint o = state[idx].out_index;

              offsets[o] = base + (archive->entries[idx].data_offset - seg->start);
              sizes[o] = archive->entries[idx].size;
            }
          if (seg->aligned_padded)
            pad_to_8 (data);
        }
      else
        {
          guint idx = order[seg->first];
          gint o = state[idx].out_index;

          if (o >= 0)
            {
              offsets[o] = data->len;
              if (state[idx].payload != NULL)
                {
                  if (!append_payload (data, state[idx].payload, error))
                    return NULL;
                  sizes[o] = (guint32) g_bytes_get_size (state[idx].payload);
                }
              else
                {
                  g_byte_array_append (data, file + seg->start, seg->end - seg->start);
                  sizes[o] = seg->end - seg->start;
                }
              if (seg->aligned_padded)
                pad_to_8 (data);
            }
        }

      if ((guint64) data->len + (seg->unindexed_end - tail_start) > G_MAXUINT32)
        {
          g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                       _("(header): offset 12: expected a file of at most %u bytes, found more"),
                       G_MAXUINT32);
          return NULL;
        }
      g_byte_array_append (data, file + tail_start, seg->unindexed_end - tail_start);
    }

  /* New entries, each 8-aligned and zero-padded. */
  for (guint i = 0; i < n_out; i++)
    {
      if (out[i].source != -1)
        continue;

      pad_to_8 (data);
      offsets[i] = data->len;
      if (!append_payload (data, out[i].payload, error))
        return NULL;
      sizes[i] = (guint32) g_bytes_get_size (out[i].payload);
      pad_to_8 (data);
    }

  if (!finish (data, out, n_out, offsets, sizes,
               names_changed (archive, out, n_out), error))
    return NULL;

  return g_byte_array_free_to_bytes (g_steal_pointer (&data));
}

GBytes *
nres_write_repack (const NresArchive  *archive,
                   const NresOutEntry *out,
                   guint               n_out,
                   GError            **error)
{
  g_autoptr(GByteArray) data = NULL;
  g_autofree guint32 *offsets = NULL;
  g_autofree guint32 *sizes = NULL;

  g_return_val_if_fail (out != NULL || n_out == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_out_names (out, n_out, error))
    return NULL;

  data = g_byte_array_new ();
  g_byte_array_set_size (data, NRES_HEADER_SIZE);   /* patched in finish () */
  offsets = g_new0 (guint32, n_out > 0 ? n_out : 1);
  sizes = g_new0 (guint32, n_out > 0 ? n_out : 1);

  for (guint i = 0; i < n_out; i++)
    {
      g_autoptr(GBytes) payload = NULL;

      if (out[i].payload != NULL)
        payload = g_bytes_ref (out[i].payload);
      else if (archive != NULL && out[i].source >= 0 &&
               (guint) out[i].source < archive->n_entries)
        payload = nres_archive_payload_bytes (archive, out[i].source);
      else
        {
          g_autofree char *label = out_label (&out[i].entry, i);

          g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                       _("%s: expected a payload or a source entry, found source %d and no payload"),
                       label, out[i].source);
          return NULL;
        }

      offsets[i] = data->len;
      if (!append_payload (data, payload, error))
        return NULL;
      sizes[i] = (guint32) g_bytes_get_size (payload);
      pad_to_8 (data);
    }

  if (!finish (data, out, n_out, offsets, sizes, TRUE, error))
    return NULL;

  return g_byte_array_free_to_bytes (g_steal_pointer (&data));
}
