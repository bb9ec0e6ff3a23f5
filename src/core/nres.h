/* nres.h - NRes archives: strict reader, lookup and the two writers
 *
 * See formats.md section 1. An NresArchive keeps a reference to the file's
 * bytes; entries point into them. An archive read from a file may leave out
 * its large unindexed regions (gaps, see nres_find_gaps): it then holds the
 * header, every payload with what lies near it, and the directory, and the
 * preserving writer asks a reader for the bytes of the gaps. Nothing here
 * allocates per lookup.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NRES_ERROR (nres_error_quark ())

typedef enum {
  NRES_ERROR_TRUNCATED,        /* shorter than the header */
  NRES_ERROR_BAD_MAGIC,
  NRES_ERROR_BAD_VERSION,
  NRES_ERROR_BAD_COUNT,        /* entry_count < 0 or the directory does not fit */
  NRES_ERROR_BAD_SIZE,         /* total_size differs from the file size */
  NRES_ERROR_BAD_ENTRY,        /* a payload range outside the data region */
  NRES_ERROR_BAD_NAME,         /* a name field without NUL, or an empty name */
  NRES_ERROR_OVERLAP,          /* the preserving writer cannot shift shared bytes */
  NRES_ERROR_INVALID_EDIT,     /* the caller asked for something impossible */
} NresError;

GQuark nres_error_quark (void);

#define NRES_MAGIC           0x7365524Eu   /* "NRes" read as u32 LE */
#define NRES_VERSION         0x00000100u
#define NRES_HEADER_SIZE     16
#define NRES_ENTRY_SIZE      64
#define NRES_NAME_SIZE       36            /* 35 bytes + NUL */

#define NRES_TYPE_MAT0       0x3054414Du   /* "MAT0" */
#define NRES_TYPE_TEXM       0x6D786554u   /* "Texm" */
#define NRES_TYPE_WEAR       0x52414557u   /* "WEAR" */
#define NRES_TYPE_MESH       0x4853454Du   /* "MESH" */

/* One directory entry, every field as stored. */
typedef struct {
  guint32 type_id;
  guint32 attr1;
  guint32 attr2;
  guint32 size;
  guint32 attr3;
  char    name[NRES_NAME_SIZE];   /* raw field: NUL-terminated, bytes after
                                     the NUL kept as they are */
  guint32 data_offset;
  guint32 sort_index;
} NresEntry;

/* An unindexed region an archive does not hold. */
typedef struct {
  guint32 offset;              /* in the file */
  guint32 length;
} NresGap;

/* One gap (or a part of it) the preserving writer needs: @length bytes of
 * the file at @offset, to be stored at @dest. */
typedef struct {
  guint8  *dest;
  guint32  offset;
  guint32  length;
} NresGapCopy;

/* Fills every copy from the file the archive was read from, or fails
 * with @error (and fills nothing that matters). */
typedef gboolean (*NresGapReader) (const NresGapCopy  *copies,
                                   guint               n_copies,
                                   gpointer            user_data,
                                   GError            **error);

/* The smallest unindexed region left out by nres_archive_parse_held. */
#define NRES_GAP_MIN         4096

typedef struct {
  GBytes    *bytes;            /* the file, less its gaps */
  guint32    version;
  guint32    total_size;
  guint      n_entries;
  NresEntry *entries;          /* n_entries, in directory order */
  guint32    directory_offset;
  gboolean   sort_index_valid;      /* a permutation of 0..n-1 */
  gboolean   sort_index_canonical;  /* equals the name order, formats.md 1 */
  gboolean   names_distinct;        /* proven while checking a canonical
                                       table: no two names compare equal;
                                       FALSE also means "not proven" */
  guint      n_gaps;           /* 0 unless made by nres_archive_parse_held */
  NresGap   *gaps;             /* in file order */
  guint64   *gap_before;       /* n_gaps: bytes left out before gap i */
  NresGapReader  gap_reader;   /* nres_archive_set_gap_reader */
  gpointer       gap_reader_data;
  GDestroyNotify gap_reader_destroy;
} NresArchive;

/* Parses @bytes with every strict check of formats.md section 1.
 * Returns: (transfer full): the archive (holding a reference to @bytes),
 * or %NULL with @error naming the entry, the byte offset, what was
 * expected and what was found. */
NresArchive  *nres_archive_parse        (GBytes             *bytes,
                                         GError            **error);
/* nres_archive_parse for an archive held inside another file (the payload
 * of a MESH member is one, models.md 2): @base_offset is where @bytes
 * starts in that file, and every offset @error names is absolute in it.
 * Returns: (transfer full): the archive, or %NULL with @error. */
NresArchive  *nres_archive_parse_nested (GBytes             *bytes,
                                         guint64             base_offset,
                                         GError            **error);
void          nres_archive_free         (NresArchive        *archive);

/* The checks a reader makes before it reads more than the header: the
 * 16-byte @header (the first min(@file_size, 16) bytes of the file) against
 * the file's size, @file_size: magic, version, entry count, total size
 * equal to the file size, a directory that fits. Pure: no I/O.
 * On success sets @n_entries and @directory_offset (both nullable). */
gboolean      nres_check_header         (const guint8       *header,
                                         gsize               header_len,
                                         guint64             file_size,
                                         guint32            *n_entries,
                                         guint32            *directory_offset,
                                         GError            **error);
/* The next check, before the payloads are read: the @n_entries * 64 bytes
 * of @directory, read at @directory_offset, name fields and payload ranges
 * (every range inside the data region). Same messages as
 * nres_archive_parse. Pure: no I/O. */
gboolean      nres_check_directory      (const guint8       *directory,
                                         guint32             n_entries,
                                         guint32             directory_offset,
                                         GError            **error);

/* The regions of a checked directory a reader need not hold: every run of
 * bytes that no entry names (between the header and the first payload,
 * between payloads, after the last one up to the directory), less its first
 * 8 bytes (a payload's padding), when what remains is NRES_GAP_MIN bytes or
 * more. Pure: the same answer for a file and for its bytes in memory.
 * @directory: n_entries * 64 bytes that passed nres_check_directory.
 * Returns: (transfer full) (nullable): the gaps in file order, @n_gaps of
 * them (%NULL when none). */
NresGap      *nres_find_gaps            (const guint8       *directory,
                                         guint32             n_entries,
                                         guint32             directory_offset,
                                         guint              *n_gaps);

/* Parses an archive of a file of @file_size bytes from @held: the file
 * less the gaps nres_find_gaps finds in its directory (the header first,
 * the directory last). Every check of nres_archive_parse, same messages.
 * A file without gaps is held whole: the same as nres_archive_parse.
 * Returns: (transfer full): the archive, or %NULL with @error. */
NresArchive  *nres_archive_parse_held   (GBytes             *held,
                                         guint64             file_size,
                                         GError            **error);

/* How the preserving writer gets the bytes of the gaps: @reader is called
 * once per write with every copy it needs. @destroy frees @user_data with
 * the archive. */
void          nres_archive_set_gap_reader (NresArchive      *archive,
                                           NresGapReader     reader,
                                           gpointer          user_data,
                                           GDestroyNotify    destroy);

/* Returns: (transfer none): the payload bytes of entry @index. */
const guint8 *nres_archive_payload      (const NresArchive  *archive,
                                         guint               index,
                                         gsize              *size);

/* Returns: (transfer full): a sub-GBytes of the payload of entry @index. */
GBytes       *nres_archive_payload_bytes (const NresArchive *archive,
                                          guint              index);

/* Case-insensitive lookup by name: binary search through sort_index, or a
 * linear scan when sort_index is not a valid permutation (the engine's
 * fallback). @name is the raw (CP1251) byte string, as stored. Returns the
 * entry index or -1. */
gint          nres_archive_find         (const NresArchive  *archive,
                                         const char         *name);

typedef enum {
  NRES_RESOLVE_EXACT,
  NRES_RESOLVE_DEFAULT,
  NRES_RESOLVE_FIRST,
  NRES_RESOLVE_NONE,            /* the archive has no entry at all */
} NresResolve;

/* Engine lookup with fallback (formats.md 2.5): exact, then DEFAULT, then
 * entry 0. Returns the entry index or -1 for an empty archive. */
gint          nres_archive_resolve      (const NresArchive  *archive,
                                         const char         *name,
                                         NresResolve        *how);

/* Canonical sort_index table for @n entries: out[i] = P[i], P being the
 * entry indices sorted by name (case-insensitive, ties by index). */
void          nres_canonical_sort_index (const NresEntry    *entries,
                                         guint               n_entries,
                                         guint32            *out);

/* Writes a NUL-terminated @name into a 36-byte name field, zero-filled.
 * @name is UTF-8 and is encoded to CP1251 (cp1251_from_utf8); the encoded
 * name must be 1..35 bytes. On failure (a CP1251_ERROR) @entry is
 * untouched. */
gboolean      nres_entry_set_name       (NresEntry          *entry,
                                         const char         *name,
                                         GError            **error);

/* The output of an edit, one per entry of the new directory, in order. */
typedef struct {
  gint       source;        /* index in the original archive, -1: new entry */
  NresEntry  entry;         /* directory fields to write; data_offset, size
                               (and sort_index when names changed) are set
                               by the writer */
  GBytes    *payload;       /* new payload, or %NULL: the source's bytes */
} NresOutEntry;

/* Initialises @out (n = archive->n_entries) as "no change". */
NresOutEntry *nres_out_entries_from_archive (const NresArchive *archive,
                                             guint             *n_out);
void          nres_out_entries_free         (NresOutEntry      *out,
                                             guint              n_out);

/* Preserving save (formats.md 1, writer 1). Every byte the edit did not
 * touch is kept; an unchanged edit returns bytes identical to the input.
 * The bytes of an archive's gaps come from its gap reader (an archive with
 * gaps and no reader fails with %NRES_ERROR_INVALID_EDIT when they are
 * needed).
 * A payload byte-equal to its source counts as unchanged. Payloads that
 * share bytes are copied as one span; changing or removing one of them
 * fails with %NRES_ERROR_OVERLAP (use repack). Each source may appear at
 * most once (%NRES_ERROR_INVALID_EDIT).
 * Returns: (transfer full): the new file, or %NULL with @error. */
GBytes       *nres_write_preserving     (const NresArchive  *archive,
                                         const NresOutEntry *out,
                                         guint               n_out,
                                         GError            **error);

/* Repack (formats.md 1, writer 2): canonical layout; unindexed regions are
 * dropped. @archive may be %NULL when every @out has a payload.
 * Returns: (transfer full): the new file. */
GBytes       *nres_write_repack         (const NresArchive  *archive,
                                         const NresOutEntry *out,
                                         guint               n_out,
                                         GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NresArchive, nres_archive_free)

G_END_DECLS
