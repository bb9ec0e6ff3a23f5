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
 *
 * An archive read without its gaps (large unindexed regions, nres.h) has
 * them filled in by its gap reader, called once at the end with every
 * copy the output needs.
 *
 * Speed: an unchanged save must cost about a memcpy of the file. The
 * writer walks the data region twice (sizes, then bytes) without a
 * per-entry table, sorts only when the directory is not already in offset
 * order, and a segment still at its original offset and unchanged is
 * copied with its padding and unindexed bytes as one span; adjacent spans
 * from adjacent source bytes become one memcpy into a buffer of the final
 * size.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "nres.h"

typedef struct {
  guint32 start;           /* original span of the segment */
  guint32 end;
  guint32 unindexed_end;   /* the next segment's start, or the directory */
  guint   first;           /* range in the offset order */
  guint   n;
} Segment;

/* Per source entry: which out entry names it and whether with new bytes.
 * SOURCE_UNUSED: none; o >= 0: out entry o, original bytes; v <= -2: out
 * entry -2 - v, changed bytes. */
#define SOURCE_UNUSED (-1)
#define SOURCE_CHANGED(o) (-2 - (o))

static inline gint
source_out_index (gint v)
{
  return v >= 0 ? v : -2 - v;
}

static inline void
set_u32 (guint8  *p,
         guint32  v)
{
  guint32 le = GUINT32_TO_LE (v);

  memcpy (p, &le, 4);
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

/* Checks that a file of @total bytes with @n_out entries can be written. */
static gboolean
check_total (guint64   total,
             guint     n_out,
             GError  **error)
{
  if (total > G_MAXUINT32 || n_out > G_MAXINT32)
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                   _("(header): offset 12: expected a file of at most %u bytes, found %llu"),
                   G_MAXUINT32, (unsigned long long) total);
      return FALSE;
    }

  return TRUE;
}

static void
set_too_large (GError **error)
{
  g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
               _("(header): offset 12: expected a file of at most %u bytes, found more"),
               G_MAXUINT32);
}

/* One directory entry, data_offset and size as given. */
static inline void
write_entry (guint8          *p,
             const NresEntry *e,
             guint32          offset,
             guint32          size)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  /* NresEntry is the stored layout: one copy, then the two placed fields. */
  G_STATIC_ASSERT (sizeof (NresEntry) == NRES_ENTRY_SIZE);
  G_STATIC_ASSERT (G_STRUCT_OFFSET (NresEntry, size) == 12);
  G_STATIC_ASSERT (G_STRUCT_OFFSET (NresEntry, name) == 20);
  G_STATIC_ASSERT (G_STRUCT_OFFSET (NresEntry, data_offset) == 56);
  G_STATIC_ASSERT (G_STRUCT_OFFSET (NresEntry, sort_index) == 60);

  memcpy (p, e, NRES_ENTRY_SIZE);
  set_u32 (p + 12, size);
  set_u32 (p + 56, offset);
#else
  set_u32 (p + 0, e->type_id);
  set_u32 (p + 4, e->attr1);
  set_u32 (p + 8, e->attr2);
  set_u32 (p + 12, size);
  set_u32 (p + 16, e->attr3);
  memcpy (p + 20, e->name, NRES_NAME_SIZE);
  set_u32 (p + 56, offset);
  set_u32 (p + 60, e->sort_index);
#endif
}

static void
write_header (guint8  *file,
              guint32  n_entries,
              guint32  total)
{
  memcpy (file, "NRes", 4);
  set_u32 (file + 4, NRES_VERSION);
  set_u32 (file + 8, n_entries);
  set_u32 (file + 12, total);
}

/* Replaces the sort_index fields of the written directory @dir with the
 * canonical table of the out names. */
static void
write_canonical_sort_index (guint8             *dir,
                            const NresOutEntry *out,
                            guint               n_out)
{
  g_autofree NresEntry *entries = g_new (NresEntry, n_out > 0 ? n_out : 1);
  g_autofree guint32 *sort_index = g_new (guint32, n_out > 0 ? n_out : 1);

  /* Only the names take part. */
  for (guint i = 0; i < n_out; i++)
    entries[i] = out[i].entry;
  nres_canonical_sort_index (entries, n_out, sort_index);
  for (guint i = 0; i < n_out; i++)
    set_u32 (dir + (gsize) i * NRES_ENTRY_SIZE + 60, sort_index[i]);
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
  guint64 total = (guint64) data->len + (guint64) n_out * NRES_ENTRY_SIZE;
  guint32 dir = data->len;

  if (!check_total (total, n_out, error))
    return FALSE;

  g_byte_array_set_size (data, (guint) total);
  for (guint i = 0; i < n_out; i++)
    write_entry (data->data + dir + (gsize) i * NRES_ENTRY_SIZE, &out[i].entry,
                 offsets[i], sizes[i]);
  if (recompute_sort_index)
    write_canonical_sort_index (data->data + dir, out, n_out);
  write_header (data->data, n_out, (guint32) total);

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
      set_too_large (error);
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

/* Whether @b comes before @a in (data_offset, size) order. */
static inline gboolean
offset_order_broken (const NresEntry *a,
                     const NresEntry *b)
{
  return a->data_offset > b->data_offset ||
         (a->data_offset == b->data_offset && a->size > b->size);
}

/* The entries by (data_offset, size, index). Only needed when the
 * directory is not already in that order. */
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

#define ORDER(order, k) ((order) != NULL ? (order)[k] : (k))
#define ALIGN8(x)       (((x) + 7) & ~(guint64) 7)

/* The archive's bytes at file offset @offset (not in a gap). */
static const guint8 *
archive_at (const NresArchive *archive,
            guint32            offset)
{
  const guint8 *data = g_bytes_get_data (archive->bytes, NULL);
  guint i = 0;

  while (i < archive->n_gaps && archive->gaps[i].offset < offset)
    i++;
  return data + (offset - (i > 0 ? archive->gap_before[i] : 0));
}

/* The segment starting at position @k of the offset order (%NULL: the
 * directory order): payloads sharing bytes are merged. Returns the
 * position after it. */
static inline guint
segment_at (const NresArchive *archive,
            const guint       *order,
            guint              k,
            Segment           *seg)
{
  const NresEntry *entries = archive->entries;
  guint n = archive->n_entries;
  const NresEntry *e = &entries[ORDER (order, k)];

  seg->start = e->data_offset;
  seg->end = e->data_offset + e->size;   /* checked by the parser */
  seg->first = k;
  seg->n = 1;

  for (k++; k < n; k++)
    {
      e = &entries[ORDER (order, k)];
      if (e->data_offset >= seg->end)
        break;
      seg->end = MAX (seg->end, e->data_offset + e->size);
      seg->n++;
    }

  seg->unindexed_end = k < n ? e->data_offset : archive->directory_offset;

  return k;
}

/* After a segment ending at e, the zero bytes up to the next multiple of
 * 8 are its padding when they all are zero and end before what follows.
 * Returns the padding length, or -1 when the segment is not padded. */
static gint
segment_padding (const NresArchive *archive,
                 const Segment     *seg)
{
  guint64 pad_end = ALIGN8 ((guint64) seg->end);
  const guint8 *file;

  if (pad_end > seg->unindexed_end)
    return -1;
  /* held: a gap begins 8 bytes after a payload at the earliest */
  file = archive_at (archive, seg->end);
  for (guint64 p = 0; p < pad_end - seg->end; p++)   /* at most 7 bytes */
    {
      if (file[p] != 0)
        return -1;
    }

  return (gint) (pad_end - seg->end);
}

/* The output is written by copying runs of bytes; a copy whose source
 * follows the pending run's source extends it, so an unchanged layout is
 * one memcpy. A run comes from memory (new payloads) or from the file (at
 * file offsets: the archive's bytes, less its gaps). */
typedef struct {
  const NresArchive *archive;
  guint8       *dst;       /* the output file */
  guint64       pos;       /* bytes written or pending */
  const guint8 *run_src;   /* pending: run_len bytes to dst + pos - run_len, */
  guint64       run_file;  /* from memory, or from this file offset */
  gboolean      run_is_file;
  gsize         run_len;
  GArray       *gap_copies; /* NresGapCopy: what the gap reader fills */
} Writer;

/* Copies @len bytes of the file at @offset to @dst: from the archive's
 * bytes, gaps left to the gap reader. */
static void
copy_from_file (Writer  *w,
                guint8  *dst,
                guint64  offset,
                gsize    len)
{
  const NresArchive *archive = w->archive;

  if (G_LIKELY (archive->n_gaps == 0))
    {
      memcpy (dst, (const guint8 *) g_bytes_get_data (archive->bytes, NULL) + offset, len);
      return;
    }
  while (len > 0)
    {
      guint64 end = offset + len;
      gsize n = len;

      /* the first gap that ends after @offset */
      for (guint i = 0; i < archive->n_gaps; i++)
        {
          const NresGap *gap = &archive->gaps[i];
          guint64 gap_end = (guint64) gap->offset + gap->length;

          if (gap_end <= offset)
            continue;
          if (gap->offset <= offset)
            {
              NresGapCopy copy;

              n = (gsize) (MIN (end, gap_end) - offset);
              copy.dest = dst;
              copy.offset = (guint32) offset;
              copy.length = (guint32) n;
              if (w->gap_copies == NULL)
                w->gap_copies = g_array_new (FALSE, FALSE, sizeof (NresGapCopy));
              g_array_append_val (w->gap_copies, copy);
              goto next;
            }
          n = (gsize) (MIN (end, (guint64) gap->offset) - offset);
          break;
        }
      memcpy (dst, archive_at (archive, (guint32) offset), n);
    next:
      dst += n;
      offset += n;
      len -= n;
    }
}

static void
writer_flush (Writer *w)
{
  if (w->run_len > 0)
    {
      guint8 *dst = w->dst + w->pos - w->run_len;

      if (w->run_is_file)
        copy_from_file (w, dst, w->run_file, w->run_len);
      else
        memcpy (dst, w->run_src, w->run_len);
    }
  w->run_len = 0;
}

/* @len bytes from memory. */
static inline void
writer_copy (Writer       *w,
             const guint8 *src,
             gsize         len)
{
  if (len == 0)
    return;
  if (w->run_len > 0 && !w->run_is_file && w->run_src + w->run_len == src)
    w->run_len += len;
  else
    {
      writer_flush (w);
      w->run_src = src;
      w->run_is_file = FALSE;
      w->run_len = len;
    }
  w->pos += len;
}

/* @len bytes of the original file at @offset. */
static inline void
writer_copy_file (Writer  *w,
                  guint64  offset,
                  gsize    len)
{
  if (len == 0)
    return;
  if (w->run_len > 0 && w->run_is_file && w->run_file + w->run_len == offset)
    w->run_len += len;
  else
    {
      writer_flush (w);
      w->run_file = offset;
      w->run_is_file = TRUE;
      w->run_len = len;
    }
  w->pos += len;
}

/* Zero padding up to the next multiple of 8. The original file holds
 * @n_zeros zero bytes at @zeros that can be copied instead, so the pending
 * run goes on. */
static inline void
writer_pad (Writer       *w,
            guint64       zeros,
            guint         n_zeros)
{
  guint n = (guint) (ALIGN8 (w->pos) - w->pos);

  if (n == 0)
    return;
  if (n <= n_zeros)
    writer_copy_file (w, zeros, n);
  else
    {
      writer_flush (w);
      for (guint i = 0; i < n; i++)   /* at most 7 bytes */
        w->dst[w->pos + i] = 0;
      w->pos += n;
    }
}

/* @n zero bytes (at most 7). */
static inline void
writer_zeros (Writer *w,
              guint   n)
{
  if (n == 0)
    return;
  writer_flush (w);
  memset (w->dst + w->pos, 0, n);
  w->pos += n;
}

/* A removed payload that was padded takes its bytes and padding with it,
 * but only a multiple of 8 of them: the rest stays as zeros, so what
 * follows keeps its alignment (the padding realigned it in the file). */
static inline guint
removed_keeps (const Segment *seg,
               gint           padding)
{
  return padding < 0 ? 0 : (guint) ((seg->end + (guint32) padding - seg->start) & 7);
}

/* The source checks of nres_write_preserving for out entry @i, updating
 * @state. Returns %FALSE with @error on a bad entry. */
static inline gboolean
take_source (const NresArchive  *archive,
             const NresOutEntry *out,
             guint               i,
             gint               *state,
             GError            **error)
{
  gint source = out[i].source;

  if (G_UNLIKELY (source < -1 || source >= (gint) archive->n_entries))
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                   _("entry #%u: expected a source index from -1 to %d, found %d"),
                   i, (gint) archive->n_entries - 1, source);
      return FALSE;
    }
  if (source == -1)
    {
      if (out[i].payload == NULL)
        {
          g_autofree char *label = out_label (&out[i].entry, i);

          g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                       _("%s: expected a payload for a new entry, found none"),
                       label);
          return FALSE;
        }
      return TRUE;
    }
  if (G_UNLIKELY (state[source] != SOURCE_UNUSED))
    {
      g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                   _("entry #%u: expected each source entry at most once, found source %d again (first in entry #%d)"),
                   i, source, source_out_index (state[source]));
      return FALSE;
    }

  state[source] = (gint) i;
  if (out[i].payload != NULL)
    {
      gsize size = 0;
      const guint8 *orig = nres_archive_payload (archive, source, &size);
      gsize new_size = g_bytes_get_size (out[i].payload);

      /* A payload byte-equal to its source is no change. */
      if (new_size != size ||
          (size > 0 && memcmp (orig, g_bytes_get_data (out[i].payload, NULL), size) != 0))
        state[source] = SOURCE_CHANGED ((gint) i);
    }

  return TRUE;
}

/* A name field that nres_write_preserving accepts: non-empty, with a NUL. */
static inline gboolean
name_valid (const char *name)
{
  return name[0] != '\0' &&
         (name[NRES_NAME_SIZE - 1] == '\0' || memchr (name, '\0', NRES_NAME_SIZE) != NULL);
}

/* Whether two name fields name the same: identical fields are the common
 * case; otherwise only the bytes up to the NUL count. */
static inline gboolean
same_name (const char *a,
           const char *b)
{
  return memcmp (a, b, NRES_NAME_SIZE) == 0 || strncmp (a, b, NRES_NAME_SIZE) == 0;
}

/* The overlap check of a segment of shared payloads: they can only be
 * copied as they are. */
static gboolean
check_shared (const NresArchive *archive,
              const guint       *order,
              const gint        *state,
              const Segment     *seg,
              GError           **error)
{
  for (guint k = seg->first; k < seg->first + seg->n; k++)
    {
      guint idx = ORDER (order, k);

      if (state[idx] < 0)   /* changed or unused */
        {
          guint other = ORDER (order, k == seg->first ? k + 1 : seg->first);
          g_autofree char *label = out_label (&archive->entries[idx], idx);
          g_autofree char *other_label = out_label (&archive->entries[other], other);

          g_set_error (error, NRES_ERROR, NRES_ERROR_OVERLAP,
                       _("%s: offset %u: expected a payload that shares no bytes with %s, found an overlap; "
                         "the preserving save cannot change or remove shared bytes, use repack"),
                       label, archive->entries[idx].data_offset, other_label);
          return FALSE;
        }
    }

  return TRUE;
}

/* Whether a segment is kept as it is: every payload named, none changed.
 * (A shared segment that is not fails check_shared.) */
static inline gboolean
segment_kept (const guint   *order,
              const gint    *state,
              const Segment *seg)
{
  return seg->n > 1 || state[ORDER (order, seg->first)] >= 0;
}

GBytes *
nres_write_preserving (const NresArchive  *archive,
                       const NresOutEntry *out,
                       guint               n_out,
                       GError            **error)
{
  g_autofree gint *state = NULL;
  g_autofree guint *order = NULL;
  const NresEntry *entries;
  guint n_orig;
  gboolean names_same, any_new = FALSE, any_changed = FALSE;
  gboolean too_large = FALSE, in_place;
  guint n_used = 0;
  guint32 lead_end;
  guint64 pos, total;
  guint8 *dir;
  Writer w = { archive, NULL, 0, NULL, 0, FALSE, 0, NULL };

  g_return_val_if_fail (archive != NULL, NULL);
  g_return_val_if_fail (out != NULL || n_out == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n_orig = archive->n_entries;
  entries = archive->entries;

  /* One walk over the out entries: the names, which out entry names each
   * original entry (and whether with new bytes), whether the directory
   * names stay as they are. Errors come as from separate walks: a bad
   * name anywhere first, then the first bad source. */
  state = g_new (gint, n_orig > 0 ? n_orig : 1);
  for (guint i = 0; i < n_orig; i++)
    state[i] = SOURCE_UNUSED;

  names_same = n_out == n_orig;
  for (guint i = 0; i < n_out; i++)
    {
      const NresEntry *entry = &out[i].entry;
      GError *source_error = NULL;

      if (G_UNLIKELY (!name_valid (entry->name)))
        {
          gboolean ok = check_out_names (out, n_out, error);

          g_assert (!ok);
          return NULL;
        }

      if (G_UNLIKELY (!take_source (archive, out, i, state, &source_error)))
        {
          if (!check_out_names (out, n_out, error))
            {
              g_error_free (source_error);
              return NULL;
            }
          g_propagate_error (error, source_error);
          return NULL;
        }

      if (out[i].source >= 0)
        {
          n_used++;
          any_changed |= state[out[i].source] < 0;
        }
      else
        any_new = TRUE;
      names_same = names_same && out[i].source == (gint) i &&
        same_name (entry->name, entries[i].name);
    }

  /* Every payload named and none changed: every segment is kept at its
   * offset, with its padding and the unindexed bytes after it, so the
   * walks below would copy the data region as it is. */
  in_place = n_used == n_orig && !any_changed;

  /* The walks go in offset order: the directory's, when it is sorted. */
  for (guint i = 1; !in_place && i < n_orig; i++)
    {
      if (offset_order_broken (&entries[i - 1], &entries[i]))
        {
          order = sort_by_offset (archive);
          break;
        }
    }

  /* Sizes: the walk of the writing below, counting. The header, then the
   * unindexed bytes before the first payload. */
  lead_end = n_orig > 0 ? entries[ORDER (order, 0)].data_offset : archive->directory_offset;
  pos = in_place ? archive->directory_offset : lead_end;

  for (guint k = 0; !in_place && k < n_orig;)
    {
      Segment seg;
      gint padding;
      guint32 tail_start;

      k = segment_at (archive, order, k, &seg);
      if (seg.n > 1 && !check_shared (archive, order, state, &seg, error))
        return NULL;

      /* Kept, at its original offset: the payloads, their padding (the
       * same length here) and the unindexed bytes after them. */
      if (pos == seg.start && segment_kept (order, state, &seg))
        {
          pos = seg.unindexed_end;
          continue;
        }

      padding = segment_padding (archive, &seg);
      tail_start = seg.end + MAX (padding, 0);

      if (seg.n > 1 || state[ORDER (order, seg.first)] != SOURCE_UNUSED)
        {
          gint v = state[ORDER (order, seg.first)];

          if (seg.n == 1 && v < 0)   /* changed */
            pos += g_bytes_get_size (out[source_out_index (v)].payload);
          else
            pos += seg.end - seg.start;
          too_large |= pos > G_MAXUINT32;
          if (padding >= 0)
            pos = ALIGN8 (pos);
        }
      else
        pos += removed_keeps (&seg, padding);

      pos += seg.unindexed_end - tail_start;
      too_large |= pos > G_MAXUINT32;
    }

  /* (The overlap checks above come before any size error.) */
  if (too_large)
    {
      set_too_large (error);
      return NULL;
    }

  /* New entries, each 8-aligned and zero-padded. */
  for (guint i = 0; any_new && i < n_out; i++)
    {
      if (out[i].source != -1)
        continue;

      pos = ALIGN8 (pos) + g_bytes_get_size (out[i].payload);
      if (pos > G_MAXUINT32)
        {
          set_too_large (error);
          return NULL;
        }
      pos = ALIGN8 (pos);
    }

  total = pos + (guint64) n_out * NRES_ENTRY_SIZE;
  if (!check_total (total, n_out, error))
    return NULL;

  /* Writing, into one buffer of the final size: the data, each directory
   * entry as its payload is placed, then the header. */
  w.dst = g_malloc (total);
  dir = w.dst + pos;
  w.pos = NRES_HEADER_SIZE;

  if (in_place)
    {
      /* The walk below with every segment kept in place. */
      writer_copy_file (&w, NRES_HEADER_SIZE, archive->directory_offset - NRES_HEADER_SIZE);
      for (guint i = 0; i < n_out; i++)
        {
          gint source = out[i].source;

          if (source >= 0)
            write_entry (dir + (gsize) i * NRES_ENTRY_SIZE, &out[i].entry,
                         entries[source].data_offset, entries[source].size);
        }
    }
  else
    writer_copy_file (&w, NRES_HEADER_SIZE, lead_end - NRES_HEADER_SIZE);

  for (guint k = 0; !in_place && k < n_orig;)
    {
      Segment seg;
      gint padding, v;
      guint32 tail_start;
      guint64 base;

      k = segment_at (archive, order, k, &seg);
      v = state[ORDER (order, seg.first)];
      base = w.pos;

      if (seg.n > 1 || v >= 0)
        {
          /* Kept: the original bytes, shared ones as one span. */
          for (guint j = seg.first; j < seg.first + seg.n; j++)
            {
              guint idx = ORDER (order, j);
              gint o = state[idx];

              write_entry (dir + (gsize) o * NRES_ENTRY_SIZE, &out[o].entry,
                           (guint32) (base + (entries[idx].data_offset - seg.start)),
                           entries[idx].size);
            }

          if (base == seg.start)
            {
              writer_copy_file (&w, seg.start, seg.unindexed_end - seg.start);
              continue;
            }
          writer_copy_file (&w, seg.start, seg.end - seg.start);
        }
      else if (v != SOURCE_UNUSED)   /* changed */
        {
          gint o = source_out_index (v);
          GBytes *payload = out[o].payload;
          gsize size = g_bytes_get_size (payload);

          write_entry (dir + (gsize) o * NRES_ENTRY_SIZE, &out[o].entry,
                       (guint32) base, (guint32) size);
          writer_copy (&w, g_bytes_get_data (payload, NULL), size);
        }

      padding = segment_padding (archive, &seg);
      tail_start = seg.end + MAX (padding, 0);
      /* The original padding bytes are zeros: copying them keeps the run. */
      if (padding >= 0 && v != SOURCE_UNUSED)
        writer_pad (&w, seg.end, (guint) padding);
      else if (seg.n == 1 && v == SOURCE_UNUSED)
        writer_zeros (&w, removed_keeps (&seg, padding));
      writer_copy_file (&w, tail_start, seg.unindexed_end - tail_start);
    }

  for (guint i = 0; any_new && i < n_out; i++)
    {
      gsize size;

      if (out[i].source != -1)
        continue;

      writer_pad (&w, 0, 0);
      size = g_bytes_get_size (out[i].payload);
      write_entry (dir + (gsize) i * NRES_ENTRY_SIZE, &out[i].entry,
                   (guint32) w.pos, (guint32) size);
      writer_copy (&w, g_bytes_get_data (out[i].payload, NULL), size);
      writer_pad (&w, 0, 0);
    }
  writer_flush (&w);
  g_assert (w.pos == pos);

  /* The bytes of the gaps, from the file the archive was read from. */
  if (w.gap_copies != NULL)
    {
      g_autoptr(GArray) copies = g_steal_pointer (&w.gap_copies);

      if (archive->gap_reader == NULL)
        {
          g_set_error (error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                       _("(archive): offset %u: expected the unindexed bytes there to be at hand, found them not read and no file to read them from"),
                       g_array_index (copies, NresGapCopy, 0).offset);
          g_free (w.dst);
          return NULL;
        }
      if (!archive->gap_reader ((const NresGapCopy *) (gpointer) copies->data, copies->len,
                                archive->gap_reader_data, error))
        {
          g_free (w.dst);
          return NULL;
        }
    }

  if (!names_same)
    write_canonical_sort_index (dir, out, n_out);
  write_header (w.dst, n_out, (guint32) total);

  return g_bytes_new_take (w.dst, total);
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
