/* msh-index.h - who wears what: the index of a game folder's models
 *
 * See models.md 5 and 6. The index is built archive by archive: for each
 * NRes archive, every MESH member (a model) with its WEAR (the member
 * named STEM.wea, of type WEAR, in the same archive), what each of its
 * batches draws at rest and with which row, and the WEAR members that no
 * MESH has (material tables: terrain, sky). Over all archives it answers
 * "who wears this material": the models whose batches drawn at rest use a
 * row naming it (with batch and triangle counts), the models that only
 * name it in a row no drawn batch uses ("named, not drawn"), and the
 * tables that name it.
 *
 * No I/O: an archive is given as its checked directory and the payloads
 * of the members msh_index_wants_entry () asks for (a scanner reads only
 * those), or as the whole file in memory. A member larger than the caps
 * below is not read: it is listed with a problem saying so. Nothing read
 * is kept but what the index answers with (counts, rows, names, problems,
 * and the WEAR members, which are small).
 *
 * Names compare ASCII case-insensitively (as the engine's lookups do);
 * CP1251 names are shown as UTF-8. Archives are kept sorted by their path
 * (byte order), members in directory order: the order of every answer.
 */
#pragma once

#include <glib.h>

#include "msh-problem.h"
#include "nres.h"
#include "wear.h"

G_BEGIN_DECLS

/* The largest members the index reads: about 20 times the largest retail
 * model, and a WEAR of thousands of rows. */
#define MSH_INDEX_MAX_MESH_SIZE   (64u << 20)
#define MSH_INDEX_MAX_WEAR_SIZE   (1u << 20)
/* The most the index reads of one archive's members. */
#define MSH_INDEX_MAX_READ        (256u << 20)
/* The largest directory the index reads (64 MiB of entries). */
#define MSH_INDEX_MAX_ENTRIES     (1u << 20)

typedef struct _MshIndexArchive MshIndexArchive;

/* A batch of stream 13 of a model that has no error */
typedef struct {
  guint32 word;          /* its batch word */
  guint8  row;           /* byte +4: its WEAR row */
  guint   n_triangles;   /* index_count / 3 */
  guint   draws;         /* how often it is drawn at rest (0: not drawn;
                            2 for a slot two drawn nodes share) */
} MshIndexBatch;

/* A material row of a WEAR, by position */
typedef struct {
  char  *id;             /* the first field as written, UTF-8 */
  gint64 id_value;       /* the id as a number, -1 when it is not one */
  char  *material;       /* the name as written, UTF-8; "" when the row
                            has none (it names no material) */
  char  *raw_material;   /* the same, CP1251 */
  guint  n_batches;      /* batches drawn at rest that use the row */
  guint  n_triangles;    /* and their triangles */
} MshIndexRow;

/* A MESH member */
typedef struct {
  MshIndexArchive *archive;      /* (not owned) the archive holding it */
  guint            entry;        /* its index in the directory */
  guint32          offset;       /* where its payload starts */
  guint32          size;
  char            *member;       /* its name, UTF-8 ("tree.msh") */
  char            *stem;         /* without its last dot and what
                                    follows ("tree") */
  gint             wear_entry;   /* the .wea member's index, -1: none */
  char            *wear;         /* its name, UTF-8; NULL: none */
  WearTable       *wear_table;   /* (nullable) read, or NULL without a
                                    wear or for one too large to read */

  gboolean         valid;        /* no error: drawn at rest */
  gboolean         nodes_readable;
  guint            n_nodes;      /* when nodes_readable */
  guint            n_drawn_nodes;      /* the rest: when valid */
  guint            n_drawn_batches;
  guint            n_drawn_triangles;
  gboolean         has_bounds;   /* something is drawn */
  float            bounds_min[3];
  float            bounds_max[3];

  guint            n_batches;    /* every batch of stream 13; 0 when not valid */
  MshIndexBatch   *batches;
  guint            n_rows;       /* the wear's material rows */
  MshIndexRow     *rows;
  char           **lightmaps;    /* the wear's LIGHTMAPS names, UTF-8,
                                    NULL-terminated (empty without) */

  GPtrArray       *problems;     /* (element-type MshProblem) the MESH's
                                    errors and lints, its wear's lints, and
                                    those that need both (msh_model_lint_wear) */
  GPtrArray       *library_problems;  /* (element-type MshProblem) its rows
                                    missing from the library
                                    (msh_index_set_library) */
} MshIndexModel;

/* A WEAR member no MESH of its stem has */
typedef struct {
  MshIndexArchive *archive;      /* (not owned) */
  guint            entry;
  guint32          offset;
  guint32          size;
  char            *member;       /* UTF-8 ("Land1.wea") */
  WearTable       *wear_table;   /* (nullable) NULL when too large to read */
  guint            n_rows;
  MshIndexRow     *rows;         /* n_batches and n_triangles are 0 */
  char           **lightmaps;
  GPtrArray       *problems;     /* (element-type MshProblem) its lints */
  GPtrArray       *library_problems;
} MshIndexTable;

struct _MshIndexArchive {
  char       *path;        /* as given: relative to the folder, '/' */
  gboolean    failed;      /* fails formats.md 1: contributes nothing */
  char       *error;       /* (nullable) then why, "ENTRY: offset N: ..." */
  guint       n_entries;
  GPtrArray  *models;      /* (element-type MshIndexModel) directory order */
  GPtrArray  *tables;      /* (element-type MshIndexTable) directory order */
  guint       n_errors;    /* models with an error */
};

/* Whether the index reads the payload of @entry: a MESH or a WEAR member
 * within its cap (MSH_INDEX_MAX_MESH_SIZE, MSH_INDEX_MAX_WEAR_SIZE). */
gboolean          msh_index_wants_entry      (const NresEntry   *entry);

/* The MESH member that @name (UTF-8) names in a directory: the first
 * whose name is @name, else the first whose stem is (ASCII
 * case-insensitively). Returns: its index, or -1. */
gint              msh_index_find_model       (const NresEntry   *entries,
                                              guint              n_entries,
                                              const char        *name);
/* The WEAR of MESH member @mesh: the first WEAR member named as its stem
 * with ".wea" (ASCII case-insensitively). Returns: its index, or -1. */
gint              msh_index_find_wear        (const NresEntry   *entries,
                                              guint              n_entries,
                                              guint              mesh);

/* Reads the payload of directory entry @entry (one msh_index_wants_entry
 * () wants) for msh_index_archive_read ().
 * Returns: (transfer full): the payload, or %NULL with @error. */
typedef GBytes *(*MshIndexReader) (const NresEntry  *entry,
                                   guint             index,
                                   gpointer          user_data,
                                   GError          **error);

/* An archive from its directory: @directory, the @n_entries * 64 bytes
 * at @directory_offset, already checked (nres_check_directory). @read
 * is called once for each member msh_index_wants_entry () wants, and
 * what it returns is dropped as soon as it is indexed (only the WEAR
 * members are kept), so that one model at a time is held. At most
 * MSH_INDEX_MAX_READ bytes are read of one archive: members beyond are
 * listed with a problem saying they were not read.
 * @path: where the archive is, relative to the folder scanned (for
 * messages and sorting), UTF-8.
 * Returns: (transfer full): the archive, or %NULL with the error of @read. */
MshIndexArchive  *msh_index_archive_read     (const char        *path,
                                              const guint8      *directory,
                                              guint              n_entries,
                                              guint32            directory_offset,
                                              MshIndexReader     read,
                                              gpointer           user_data,
                                              GError           **error);
/* An archive from the whole file in memory (after an edit in the
 * editor, say): parsed with every check of formats.md 1; one that fails
 * is a failed archive.
 * Returns: (transfer full): the archive. */
MshIndexArchive  *msh_index_archive_new_from_bytes (const char  *path,
                                                    GBytes      *bytes);
/* A file that fails formats.md 1: @message is the reader's ("(header):
 * offset 0: expected ..."). Returns: (transfer full). */
MshIndexArchive  *msh_index_archive_new_failed (const char      *path,
                                                const char      *message);
MshIndexArchive  *msh_index_archive_ref      (MshIndexArchive   *archive);
void              msh_index_archive_unref    (MshIndexArchive   *archive);

/* The model @name names in @archive, as msh_index_find_model () does.
 * Returns: (transfer none) (nullable). */
MshIndexModel    *msh_index_archive_find_model (MshIndexArchive *archive,
                                                const char      *name);
/* Whether @model's problems (library ones aside) hold an error. */
gboolean          msh_index_model_has_error  (const MshIndexModel *model);
/* The model's row @row's material when a batch names it: %NULL past the
 * rows (or without a wear) and for a row with no name.
 * Returns: (transfer none) (nullable). */
const char       *msh_index_model_row_material (const MshIndexModel *model,
                                                guint                row);

/* ---- The index over archives ------------------------------------------- */

typedef struct _MshIndex MshIndex;

/* A model's use of one material: its drawn batches naming it, counted
 * as often as they are drawn, and their triangles. */
typedef struct {
  const MshIndexModel *model;
  guint                n_batches;
  guint                n_triangles;
} MshIndexUse;

/* A material name worn by a batch drawn at rest */
typedef struct {
  char   *name;        /* the first spelling met (archives by path,
                          members in directory order, batches in order) */
  GArray *uses;        /* (element-type MshIndexUse) in that order */
} MshIndexMaterial;

/* Who wears one material name */
typedef struct {
  char      *name;             /* as the archives spell it: the worn
                                  spelling, else the first row naming it,
                                  else the name asked */
  GArray    *models;           /* (element-type MshIndexUse) drawn */
  GPtrArray *named_not_drawn;  /* (element-type MshIndexModel) a row
                                  names it, no drawn batch uses such a row */
  GPtrArray *tables;           /* (element-type MshIndexTable) */
} MshIndexWearers;

MshIndex         *msh_index_new              (void);
void              msh_index_free             (MshIndex          *index);

/* The material library for "worn but missing" lints (models.md 6):
 * @library is taken; %NULL for none. Every model and table is linted
 * again. */
void              msh_index_set_library      (MshIndex          *index,
                                              NresArchive       *library);

/* Adds @archive (taken), replacing the one of the same path.
 * Returns: its position among the archives. */
guint             msh_index_add              (MshIndex          *index,
                                              MshIndexArchive   *archive);
/* Removes the archive at @path. Returns: whether there was one. */
gboolean          msh_index_remove           (MshIndex          *index,
                                              const char        *path);
/* Returns: (transfer none) (nullable): the archive at @path. */
MshIndexArchive  *msh_index_lookup           (MshIndex          *index,
                                              const char        *path);
/* The archives, sorted by path: Returns: (transfer none). */
guint             msh_index_n_archives       (MshIndex          *index);
MshIndexArchive  *msh_index_get_archive      (MshIndex          *index,
                                              guint              position);
guint             msh_index_n_models         (MshIndex          *index);
guint             msh_index_n_tables         (MshIndex          *index);

/* Every material name worn by a batch drawn at rest, in the order of
 * first use. Valid until the index changes.
 * Returns: (transfer none) (element-type MshIndexMaterial). */
GPtrArray        *msh_index_get_materials    (MshIndex          *index);

/* Who wears @name (UTF-8), ASCII case-insensitively.
 * Returns: (transfer full): the answer; its pointers are valid until the
 * index changes. */
MshIndexWearers  *msh_index_where_used       (MshIndex          *index,
                                              const char        *name);
void              msh_index_wearers_free     (MshIndexWearers   *wearers);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshIndexArchive, msh_index_archive_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshIndex, msh_index_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshIndexWearers, msh_index_wearers_free)

G_END_DECLS
