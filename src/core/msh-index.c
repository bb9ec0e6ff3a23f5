/* msh-index.c - who wears what: the index of a game folder's models */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cp1251.h"
#include "msh.h"
#include "msh-index.h"

/* Where the size field of directory entry @i is. */
#define ENTRY_SIZE_FIELD 12

/* ---- Problems ------------------------------------------------------------ */

static void
copy_problems (GPtrArray       *out,
               const GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    {
      const MshProblem *p = g_ptr_array_index ((GPtrArray *) problems, i);

      msh_problem_add (out, p->severity, p->check, p->member, p->stream, p->element,
                       p->offset, "%s", p->message);
    }
}

/* ---- Names ----------------------------------------------------------------- */

/* The raw (CP1251) name of @entry up to its NUL. */
static const char *
raw_name (const NresEntry *entry)
{
  return entry->name;
}

/* The key names compare by: ASCII letters folded, every other byte kept.
 * Returns: (transfer full). */
static char *
fold_raw (const char *raw)
{
  return g_ascii_strdown (raw, -1);
}

/* The .wea name of a .msh member's raw name, folded: its stem and ".wea".
 * Returns: (transfer full). */
static char *
wear_key_for_mesh (const char *raw)
{
  const char *dot = strrchr (raw, '.');
  gsize stem = dot != NULL ? (gsize) (dot - raw) : strlen (raw);
  g_autofree char *name = g_strndup (raw, stem);
  g_autofree char *wea = g_strconcat (name, ".wea", NULL);

  return fold_raw (wea);
}

static char *
stem_of (const char *member)
{
  const char *dot = strrchr (member, '.');

  return dot != NULL ? g_strndup (member, (gsize) (dot - member)) : g_strdup (member);
}

static char *
entry_name_utf8 (const NresEntry *entry)
{
  return cp1251_to_utf8 ((const guint8 *) entry->name, NRES_NAME_SIZE);
}

/* ---- Building an archive -------------------------------------------------- */

/* Whether the UTF-8 member name @member is @name, or (@stem) its stem is. */
static gboolean
names_model (const char *member,
             const char *name,
             gboolean    stem)
{
  g_autofree char *own = NULL;

  if (!stem)
    return g_ascii_strcasecmp (member, name) == 0;
  own = stem_of (member);
  return g_ascii_strcasecmp (own, name) == 0;
}

gint
msh_index_find_model (const NresEntry *entries,
                      guint            n_entries,
                      const char      *name)
{
  g_return_val_if_fail (entries != NULL || n_entries == 0, -1);
  g_return_val_if_fail (name != NULL, -1);

  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n_entries; i++)
      {
        g_autofree char *member = NULL;

        if (entries[i].type_id != NRES_TYPE_MESH)
          continue;
        member = entry_name_utf8 (&entries[i]);
        if (names_model (member, name, pass == 1))
          return (gint) i;
      }
  return -1;
}

gint
msh_index_find_wear (const NresEntry *entries,
                     guint            n_entries,
                     guint            mesh)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (entries != NULL, -1);
  g_return_val_if_fail (mesh < n_entries, -1);

  key = wear_key_for_mesh (raw_name (&entries[mesh]));
  for (guint i = 0; i < n_entries; i++)
    {
      g_autofree char *folded = NULL;

      if (entries[i].type_id != NRES_TYPE_WEAR)
        continue;
      folded = fold_raw (raw_name (&entries[i]));
      if (strcmp (folded, key) == 0)
        return (gint) i;
    }
  return -1;
}

MshIndexModel *
msh_index_archive_find_model (MshIndexArchive *archive,
                              const char      *name)
{
  g_return_val_if_fail (archive != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < archive->models->len; i++)
      {
        MshIndexModel *model = archive->models->pdata[i];

        if (names_model (model->member, name, pass == 1))
          return model;
      }
  return NULL;
}



gboolean
msh_index_wants_entry (const NresEntry *entry)
{
  g_return_val_if_fail (entry != NULL, FALSE);

  if (entry->type_id == NRES_TYPE_MESH)
    return entry->size <= MSH_INDEX_MAX_MESH_SIZE;
  if (entry->type_id == NRES_TYPE_WEAR)
    return entry->size <= MSH_INDEX_MAX_WEAR_SIZE;
  return FALSE;
}

static void
rows_free (MshIndexRow *rows,
           guint        n)
{
  for (guint i = 0; i < n; i++)
    {
      g_free (rows[i].id);
      g_free (rows[i].material);
      g_free (rows[i].raw_material);
    }
  g_free (rows);
}

static void
model_free (gpointer data)
{
  MshIndexModel *model = data;

  g_free (model->member);
  g_free (model->stem);
  g_free (model->wear);
  g_clear_pointer (&model->wear_table, wear_table_free);
  g_free (model->batches);
  rows_free (model->rows, model->n_rows);
  g_strfreev (model->lightmaps);
  g_ptr_array_unref (model->problems);
  g_ptr_array_unref (model->library_problems);
  g_free (model);
}

static void
table_free (gpointer data)
{
  MshIndexTable *table = data;

  g_free (table->member);
  g_clear_pointer (&table->wear_table, wear_table_free);
  rows_free (table->rows, table->n_rows);
  g_strfreev (table->lightmaps);
  g_ptr_array_unref (table->problems);
  g_ptr_array_unref (table->library_problems);
  g_free (table);
}

static MshIndexArchive *
archive_alloc (const char *path)
{
  MshIndexArchive *archive = g_atomic_rc_box_new0 (MshIndexArchive);

  archive->path = g_strdup (path);
  archive->models = g_ptr_array_new_with_free_func (model_free);
  archive->tables = g_ptr_array_new_with_free_func (table_free);

  return archive;
}

static void
archive_clear (gpointer data)
{
  MshIndexArchive *archive = data;

  g_free (archive->path);
  g_free (archive->error);
  g_ptr_array_unref (archive->models);
  g_ptr_array_unref (archive->tables);
}

MshIndexArchive *
msh_index_archive_ref (MshIndexArchive *archive)
{
  g_return_val_if_fail (archive != NULL, NULL);

  return g_atomic_rc_box_acquire (archive);
}

void
msh_index_archive_unref (MshIndexArchive *archive)
{
  if (archive != NULL)
    g_atomic_rc_box_release_full (archive, archive_clear);
}

MshIndexArchive *
msh_index_archive_new_failed (const char *path,
                              const char *message)
{
  MshIndexArchive *archive;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (message != NULL, NULL);

  archive = archive_alloc (path);
  archive->failed = TRUE;
  archive->error = g_strdup (message);

  return archive;
}

/* The rows and lightmaps of @table (nullable). */
static void
take_rows (const WearTable  *table,
           MshIndexRow     **rows,
           guint            *n_rows,
           char           ***lightmaps)
{
  GStrvBuilder *names = g_strv_builder_new ();

  *n_rows = table != NULL ? table->n_rows : 0;
  *rows = g_new0 (MshIndexRow, MAX (*n_rows, 1));
  for (guint r = 0; r < *n_rows; r++)
    {
      (*rows)[r].id = g_strdup (table->rows[r].id);
      (*rows)[r].id_value = table->rows[r].id_value;
      (*rows)[r].material = g_strdup (table->rows[r].name);
      (*rows)[r].raw_material = g_strdup (table->rows[r].raw_name);
    }
  for (guint i = 0; table != NULL && i < table->n_lightmaps; i++)
    g_strv_builder_add (names, table->lightmaps[i].name);
  *lightmaps = g_strv_builder_end (names);
  g_strv_builder_unref (names);
}

/* Why a member was not read */
typedef enum {
  READ_DONE,
  READ_TOO_LARGE,     /* past its cap */
  READ_OVER_BUDGET,   /* past MSH_INDEX_MAX_READ for the archive */
} ReadState;

/* "NAME: offset N: expected a MESH member of at most M bytes, found S" */
static void
add_not_read (GPtrArray       *out,
              MshSeverity      severity,
              ReadState        state,
              const char      *member,
              const NresEntry *entry,
              guint            index,
              guint32          directory_offset)
{
  guint64 offset = (guint64) directory_offset + (guint64) index * NRES_ENTRY_SIZE + ENTRY_SIZE_FIELD;

  if (state == READ_OVER_BUDGET)
    msh_problem_add (out, severity, MSH_CHECK_TOO_LARGE, member, -1, -1, offset,
                     _("%s: offset %lu: expected at most %u bytes of MESH and WEAR members in one archive, found more with its %u (not read)"),
                     member, (unsigned long) offset, MSH_INDEX_MAX_READ, entry->size);
  else if (entry->type_id == NRES_TYPE_MESH)
    msh_problem_add (out, severity, MSH_CHECK_TOO_LARGE, member, -1, -1, offset,
                     _("%s: offset %lu: expected a MESH member of at most %u bytes, found %u (not read)"),
                     member, (unsigned long) offset, MSH_INDEX_MAX_MESH_SIZE, entry->size);
  else
    msh_problem_add (out, severity, MSH_CHECK_TOO_LARGE, member, -1, -1, offset,
                     _("%s: offset %lu: expected a WEAR member of at most %u bytes, found %u (not read)"),
                     member, (unsigned long) offset, MSH_INDEX_MAX_WEAR_SIZE, entry->size);
}

/* Reading an archive's members, once each, within the budget. */
typedef struct {
  const NresEntry *entries;
  guint            n_entries;
  guint32          directory_offset;
  MshIndexReader   read;
  gpointer         user_data;
  guint64          budget;       /* bytes left to read */
  GBytes         **wears;        /* n_entries: WEAR payloads read */
  ReadState       *wear_state;   /* n_entries */
  gboolean        *wear_tried;   /* n_entries */
  GError          *error;        /* the first I/O error: stops everything */
} Reading;

/* The payload of entry @i, or %NULL with *state saying why (or
 * r->error set). */
static GBytes *
read_member (Reading   *r,
             guint      i,
             ReadState *state)
{
  const NresEntry *entry = &r->entries[i];
  GBytes *bytes;

  *state = READ_DONE;
  if (!msh_index_wants_entry (entry))
    {
      *state = READ_TOO_LARGE;
      return NULL;
    }
  if (entry->size > r->budget)
    {
      *state = READ_OVER_BUDGET;
      return NULL;
    }
  bytes = r->read (entry, i, r->user_data, &r->error);
  if (bytes == NULL)
    return NULL;
  if (g_bytes_get_size (bytes) != entry->size)
    {
      g_bytes_unref (bytes);
      g_set_error (&r->error, NRES_ERROR, NRES_ERROR_INVALID_EDIT,
                   "the reader gave %" G_GSIZE_FORMAT " bytes for an entry of %u",
                   g_bytes_get_size (bytes), entry->size);
      return NULL;
    }
  r->budget -= entry->size;
  return bytes;
}

/* The WEAR payload of entry @i, read once. Returns: (transfer none). */
static GBytes *
read_wear (Reading   *r,
           guint      i,
           ReadState *state)
{
  if (!r->wear_tried[i])
    {
      r->wear_tried[i] = TRUE;
      r->wears[i] = read_member (r, i, &r->wear_state[i]);
    }
  *state = r->wear_state[i];
  return r->wears[i];
}

/* What @archive's MESH member @i draws, with its wear (@wear_index: the
 * WEAR member of its stem, -1 for none). */
static MshIndexModel *
model_new (MshIndexArchive  *archive,
           Reading          *r,
           guint             i,
           gint              wear_index)
{
  const NresEntry *entry = &r->entries[i];
  MshIndexModel *m = g_new0 (MshIndexModel, 1);
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(MshModel) model = NULL;
  g_autoptr(MshDraw) draw = NULL;
  ReadState state;

  m->archive = archive;
  m->entry = i;
  m->offset = entry->data_offset;
  m->size = entry->size;
  m->member = entry_name_utf8 (entry);
  m->stem = stem_of (m->member);
  m->wear_entry = wear_index;
  m->problems = msh_problem_list_new ();
  m->library_problems = msh_problem_list_new ();
  m->batches = g_new0 (MshIndexBatch, 1);
  take_rows (NULL, &m->rows, &m->n_rows, &m->lightmaps);

  payload = read_member (r, i, &state);
  if (r->error != NULL)
    return m;
  if (payload != NULL)
    {
      model = msh_model_read (payload, entry->data_offset, m->member);
      copy_problems (m->problems, model->problems);
      m->valid = model->valid;
      m->nodes_readable = model->nodes_readable;
      m->n_nodes = model->nodes_readable ? model->n_nodes : 0;
    }
  else
    add_not_read (m->problems, MSH_SEVERITY_ERROR, state, m->member, entry, i,
                  r->directory_offset);

  if (wear_index >= 0)
    {
      const NresEntry *wea = &r->entries[wear_index];
      GBytes *text;

      m->wear = entry_name_utf8 (wea);
      text = read_wear (r, (guint) wear_index, &state);
      if (r->error != NULL)
        return m;
      if (text != NULL)
        {
          m->wear_table = wear_table_read (text, wea->data_offset, m->wear);
          copy_problems (m->problems, m->wear_table->problems);
        }
      else
        add_not_read (m->problems, MSH_SEVERITY_LINT, state, m->wear, wea, (guint) wear_index,
                      r->directory_offset);
    }
  /* the lints that need both: rows past the table, lightmap pages, no
   * .wea (not said of a wear that was not read) */
  if (model != NULL && (wear_index < 0 || m->wear_table != NULL))
    msh_model_lint_wear (model, m->wear_table, m->problems);

  rows_free (m->rows, m->n_rows);
  g_strfreev (m->lightmaps);
  take_rows (m->wear_table, &m->rows, &m->n_rows, &m->lightmaps);

  if (model != NULL && model->valid)
    draw = msh_model_draw (model, MSH_DRAW_COUNTS);
  if (draw != NULL)
    {
      m->n_drawn_nodes = draw->n_drawn_nodes;
      m->n_drawn_batches = draw->n_batches;
      m->n_drawn_triangles = draw->n_triangles;
      m->has_bounds = draw->has_bounds;
      memcpy (m->bounds_min, draw->bounds_min, sizeof m->bounds_min);
      memcpy (m->bounds_max, draw->bounds_max, sizeof m->bounds_max);
      m->n_batches = model->n_batches;
      g_free (m->batches);
      m->batches = g_new0 (MshIndexBatch, MAX (m->n_batches, 1));
      for (guint b = 0; b < model->n_batches; b++)
        {
          m->batches[b].word = model->batches[b].word;
          m->batches[b].row = model->batches[b].row;
          m->batches[b].n_triangles = model->batches[b].index_count / 3;
          m->batches[b].draws = draw->batch_draws[b];
        }
      for (guint row = 0; row < m->n_rows && row < G_N_ELEMENTS (draw->row_batches); row++)
        {
          m->rows[row].n_batches = draw->row_batches[row];
          m->rows[row].n_triangles = draw->row_triangles[row];
        }
    }

  return m;
}

static MshIndexTable *
table_new (MshIndexArchive  *archive,
           Reading          *r,
           guint             i)
{
  const NresEntry *entry = &r->entries[i];
  MshIndexTable *t = g_new0 (MshIndexTable, 1);
  ReadState state;
  GBytes *text;

  t->archive = archive;
  t->entry = i;
  t->offset = entry->data_offset;
  t->size = entry->size;
  t->member = entry_name_utf8 (entry);
  t->problems = msh_problem_list_new ();
  t->library_problems = msh_problem_list_new ();
  text = read_wear (r, i, &state);
  if (text != NULL)
    {
      t->wear_table = wear_table_read (text, entry->data_offset, t->member);
      copy_problems (t->problems, t->wear_table->problems);
    }
  else if (r->error == NULL)
    add_not_read (t->problems, MSH_SEVERITY_LINT, state, t->member, entry, i,
                  r->directory_offset);
  take_rows (t->wear_table, &t->rows, &t->n_rows, &t->lightmaps);

  return t;
}

/* The index of the archive whose directory is @entries. */
static MshIndexArchive *
archive_build (const char      *path,
               const NresEntry *entries,
               guint            n_entries,
               guint32          directory_offset,
               MshIndexReader   read,
               gpointer         user_data,
               GError         **error)
{
  g_autoptr(GHashTable) wears = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree gboolean *has_mesh = g_new0 (gboolean, MAX (n_entries, 1));
  g_autoptr(MshIndexArchive) archive = archive_alloc (path);
  Reading r = { entries, n_entries, directory_offset, read, user_data, MSH_INDEX_MAX_READ,
                g_new0 (GBytes *, MAX (n_entries, 1)), g_new0 (ReadState, MAX (n_entries, 1)),
                g_new0 (gboolean, MAX (n_entries, 1)), NULL };

  archive->n_entries = n_entries;

  /* the WEAR members by folded name: the first of each name counts */
  for (guint i = 0; i < n_entries; i++)
    if (entries[i].type_id == NRES_TYPE_WEAR)
      {
        char *key = fold_raw (raw_name (&entries[i]));

        if (g_hash_table_contains (wears, key))
          g_free (key);
        else
          g_hash_table_insert (wears, key, GUINT_TO_POINTER (i + 1));
      }

  for (guint i = 0; i < n_entries && r.error == NULL; i++)
    {
      g_autofree char *key = NULL;
      gint wear_index;
      MshIndexModel *model;

      if (entries[i].type_id != NRES_TYPE_MESH)
        continue;
      key = wear_key_for_mesh (raw_name (&entries[i]));
      wear_index = (gint) GPOINTER_TO_UINT (g_hash_table_lookup (wears, key)) - 1;
      model = model_new (archive, &r, i, wear_index);
      if (msh_index_model_has_error (model))
        archive->n_errors++;
      g_ptr_array_add (archive->models, model);
      if (wear_index >= 0)
        has_mesh[wear_index] = TRUE;
    }

  /* A WEAR member is a table when no MESH has its name as its .wea: not
   * only the first of a name, every member of that name. */
  for (guint i = 0; i < n_entries && r.error == NULL; i++)
    {
      g_autofree char *key = NULL;
      guint first;

      if (entries[i].type_id != NRES_TYPE_WEAR)
        continue;
      key = fold_raw (raw_name (&entries[i]));
      first = GPOINTER_TO_UINT (g_hash_table_lookup (wears, key)) - 1;
      if (!has_mesh[first])
        g_ptr_array_add (archive->tables, table_new (archive, &r, i));
    }

  for (guint i = 0; i < n_entries; i++)
    g_clear_pointer (&r.wears[i], g_bytes_unref);
  g_free (r.wears);
  g_free (r.wear_state);
  g_free (r.wear_tried);
  if (r.error != NULL)
    {
      g_propagate_error (error, r.error);
      return NULL;
    }

  return g_steal_pointer (&archive);
}

static guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

MshIndexArchive *
msh_index_archive_read (const char      *path,
                        const guint8    *directory,
                        guint            n_entries,
                        guint32          directory_offset,
                        MshIndexReader   read,
                        gpointer         user_data,
                        GError         **error)
{
  g_autofree NresEntry *entries = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (directory != NULL || n_entries == 0, NULL);
  g_return_val_if_fail (read != NULL, NULL);

  /* formats.md 1: type, attr1, attr2, size, attr3, name[36], offset, sort */
  entries = g_new0 (NresEntry, MAX (n_entries, 1));
  for (guint i = 0; i < n_entries; i++)
    {
      const guint8 *p = directory + (gsize) i * NRES_ENTRY_SIZE;
      NresEntry *e = &entries[i];

      e->type_id = get_u32 (p);
      e->attr1 = get_u32 (p + 4);
      e->attr2 = get_u32 (p + 8);
      e->size = get_u32 (p + 12);
      e->attr3 = get_u32 (p + 16);
      memcpy (e->name, p + 20, NRES_NAME_SIZE);
      e->data_offset = get_u32 (p + 56);
      e->sort_index = get_u32 (p + 60);
    }

  return archive_build (path, entries, n_entries, directory_offset, read, user_data, error);
}

static GBytes *
read_from_archive (const NresEntry  *entry,
                   guint             index,
                   gpointer          user_data,
                   GError          **error)
{
  return nres_archive_payload_bytes (user_data, index);
}

MshIndexArchive *
msh_index_archive_new_from_bytes (const char *path,
                                  GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) nres = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (bytes != NULL, NULL);

  nres = nres_archive_parse (bytes, &error);
  if (nres == NULL)
    return msh_index_archive_new_failed (path, error->message);

  return archive_build (path, nres->entries, nres->n_entries, nres->directory_offset,
                        read_from_archive, nres, NULL);
}

gboolean
msh_index_model_has_error (const MshIndexModel *model)
{
  g_return_val_if_fail (model != NULL, FALSE);

  return msh_problems_have_error (model->problems);
}

const char *
msh_index_model_row_material (const MshIndexModel *model,
                              guint                row)
{
  g_return_val_if_fail (model != NULL, NULL);

  if (row >= model->n_rows || model->rows[row].material[0] == '\0')
    return NULL;
  return model->rows[row].material;
}

/* ---- The index ----------------------------------------------------------- */

struct _MshIndex {
  GPtrArray   *archives;     /* (element-type MshIndexArchive) by path */
  NresArchive *library;      /* (nullable) */
  guint        n_models;
  guint        n_tables;

  gboolean     materials_valid;
  GPtrArray   *materials;    /* (element-type MshIndexMaterial) */
  GHashTable  *by_name;      /* folded name -> MshIndexMaterial */
};

static void
material_free (gpointer data)
{
  MshIndexMaterial *material = data;

  g_free (material->name);
  g_array_unref (material->uses);
  g_free (material);
}

MshIndex *
msh_index_new (void)
{
  MshIndex *index = g_new0 (MshIndex, 1);

  index->archives = g_ptr_array_new_with_free_func ((GDestroyNotify) msh_index_archive_unref);
  index->materials = g_ptr_array_new_with_free_func (material_free);
  index->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  return index;
}

void
msh_index_free (MshIndex *index)
{
  if (index == NULL)
    return;

  g_ptr_array_unref (index->archives);
  g_clear_pointer (&index->library, nres_archive_free);
  g_ptr_array_unref (index->materials);
  g_hash_table_unref (index->by_name);
  g_free (index);
}

static void
lint_wear (const MshIndex  *index,
           const WearTable *table,
           GPtrArray       *out)
{
  g_ptr_array_set_size (out, 0);
  if (index->library != NULL && table != NULL)
    wear_table_lint_library (table, index->library, out);
}

static void
lint_archive (const MshIndex  *index,
              MshIndexArchive *archive)
{
  for (guint i = 0; i < archive->models->len; i++)
    {
      MshIndexModel *model = archive->models->pdata[i];

      lint_wear (index, model->wear_table, model->library_problems);
    }
  for (guint i = 0; i < archive->tables->len; i++)
    {
      MshIndexTable *table = archive->tables->pdata[i];

      lint_wear (index, table->wear_table, table->library_problems);
    }
}

void
msh_index_set_library (MshIndex    *index,
                       NresArchive *library)
{
  g_return_if_fail (index != NULL);

  g_clear_pointer (&index->library, nres_archive_free);
  index->library = library;
  for (guint i = 0; i < index->archives->len; i++)
    lint_archive (index, index->archives->pdata[i]);
}

/* The position of @path, or where it would go (*found FALSE). */
static guint
find_position (const MshIndex *index,
               const char     *path,
               gboolean       *found)
{
  guint lo = 0, hi = index->archives->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const MshIndexArchive *a = index->archives->pdata[mid];
      int c = strcmp (a->path, path);

      if (c == 0)
        {
          *found = TRUE;
          return mid;
        }
      if (c < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  *found = FALSE;
  return lo;
}

static void
count_out (MshIndex              *index,
           const MshIndexArchive *archive)
{
  index->n_models -= archive->models->len;
  index->n_tables -= archive->tables->len;
}

guint
msh_index_add (MshIndex        *index,
               MshIndexArchive *archive)
{
  gboolean found;
  guint position;

  g_return_val_if_fail (index != NULL, 0);
  g_return_val_if_fail (archive != NULL, 0);

  lint_archive (index, archive);
  position = find_position (index, archive->path, &found);
  if (found)
    {
      count_out (index, index->archives->pdata[position]);
      msh_index_archive_unref (index->archives->pdata[position]);
      index->archives->pdata[position] = archive;
    }
  else
    g_ptr_array_insert (index->archives, (gint) position, archive);
  index->n_models += archive->models->len;
  index->n_tables += archive->tables->len;
  index->materials_valid = FALSE;

  return position;
}

gboolean
msh_index_remove (MshIndex   *index,
                  const char *path)
{
  gboolean found;
  guint position;

  g_return_val_if_fail (index != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  position = find_position (index, path, &found);
  if (!found)
    return FALSE;
  count_out (index, index->archives->pdata[position]);
  g_ptr_array_remove_index (index->archives, position);
  index->materials_valid = FALSE;

  return TRUE;
}

MshIndexArchive *
msh_index_lookup (MshIndex   *index,
                  const char *path)
{
  gboolean found;
  guint position;

  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  position = find_position (index, path, &found);
  return found ? index->archives->pdata[position] : NULL;
}

guint
msh_index_n_archives (MshIndex *index)
{
  g_return_val_if_fail (index != NULL, 0);

  return index->archives->len;
}

MshIndexArchive *
msh_index_get_archive (MshIndex *index,
                       guint     position)
{
  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (position < index->archives->len, NULL);

  return index->archives->pdata[position];
}

guint
msh_index_n_models (MshIndex *index)
{
  g_return_val_if_fail (index != NULL, 0);

  return index->n_models;
}

guint
msh_index_n_tables (MshIndex *index)
{
  g_return_val_if_fail (index != NULL, 0);

  return index->n_tables;
}

/* The materials worn: archives by path, members in directory order,
 * batches in stream order; each name's first spelling. */
static void
ensure_materials (MshIndex *index)
{
  if (index->materials_valid)
    return;

  g_ptr_array_set_size (index->materials, 0);
  g_hash_table_remove_all (index->by_name);
  for (guint a = 0; a < index->archives->len; a++)
    {
      const MshIndexArchive *archive = index->archives->pdata[a];

      for (guint m = 0; m < archive->models->len; m++)
        {
          const MshIndexModel *model = archive->models->pdata[m];
          g_autofree MshIndexMaterial **of_row = g_new0 (MshIndexMaterial *, MAX (model->n_rows, 1));

          for (guint b = 0; b < model->n_batches; b++)
            {
              const MshIndexBatch *batch = &model->batches[b];
              const char *name = msh_index_model_row_material (model, batch->row);
              MshIndexMaterial *material;
              MshIndexUse *use;

              if (batch->draws == 0 || name == NULL)
                continue;
              material = of_row[batch->row];
              if (material == NULL)
                {
                  g_autofree char *key = g_ascii_strdown (name, -1);

                  material = g_hash_table_lookup (index->by_name, key);
                  if (material == NULL)
                    {
                      material = g_new0 (MshIndexMaterial, 1);
                      material->name = g_strdup (name);
                      material->uses = g_array_new (FALSE, TRUE, sizeof (MshIndexUse));
                      g_ptr_array_add (index->materials, material);
                      g_hash_table_insert (index->by_name, g_steal_pointer (&key), material);
                    }
                  of_row[batch->row] = material;
                }
              if (material->uses->len == 0 ||
                  g_array_index (material->uses, MshIndexUse, material->uses->len - 1).model != model)
                {
                  MshIndexUse fresh = { model, 0, 0 };

                  g_array_append_val (material->uses, fresh);
                }
              use = &g_array_index (material->uses, MshIndexUse, material->uses->len - 1);
              use->n_batches += batch->draws;
              use->n_triangles += batch->draws * batch->n_triangles;
            }
        }
    }
  index->materials_valid = TRUE;
}

GPtrArray *
msh_index_get_materials (MshIndex *index)
{
  g_return_val_if_fail (index != NULL, NULL);

  ensure_materials (index);
  return index->materials;
}

/* The first row of @rows naming @name, or -1. */
static gint
find_row (const MshIndexRow *rows,
          guint              n_rows,
          const char        *name)
{
  for (guint r = 0; r < n_rows; r++)
    if (rows[r].material[0] != '\0' && g_ascii_strcasecmp (rows[r].material, name) == 0)
      return (gint) r;
  return -1;
}

MshIndexWearers *
msh_index_where_used (MshIndex   *index,
                      const char *name)
{
  g_autofree char *key = NULL;
  g_autoptr(GHashTable) wearing = g_hash_table_new (NULL, NULL);
  const MshIndexMaterial *material;
  MshIndexWearers *wearers;
  const char *spelling = NULL;

  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  ensure_materials (index);
  key = g_ascii_strdown (name, -1);
  material = g_hash_table_lookup (index->by_name, key);

  wearers = g_new0 (MshIndexWearers, 1);
  wearers->models = g_array_new (FALSE, TRUE, sizeof (MshIndexUse));
  wearers->named_not_drawn = g_ptr_array_new ();
  wearers->tables = g_ptr_array_new ();
  if (material != NULL)
    {
      g_array_append_vals (wearers->models, material->uses->data, material->uses->len);
      for (guint i = 0; i < material->uses->len; i++)
        g_hash_table_add (wearing, (gpointer) g_array_index (material->uses, MshIndexUse, i).model);
      spelling = material->name;
    }

  /* models and tables in directory order within each archive */
  for (guint a = 0; a < index->archives->len; a++)
    {
      const MshIndexArchive *archive = index->archives->pdata[a];
      guint m = 0, t = 0;

      while (m < archive->models->len || t < archive->tables->len)
        {
          const MshIndexModel *model = m < archive->models->len ? archive->models->pdata[m] : NULL;
          const MshIndexTable *table = t < archive->tables->len ? archive->tables->pdata[t] : NULL;
          gint row;

          if (model != NULL && (table == NULL || model->entry < table->entry))
            {
              m++;
              row = find_row (model->rows, model->n_rows, name);
              if (row < 0)
                continue;
              if (spelling == NULL)
                spelling = model->rows[row].material;
              if (!g_hash_table_contains (wearing, model))
                g_ptr_array_add (wearers->named_not_drawn, (gpointer) model);
            }
          else
            {
              t++;
              row = find_row (table->rows, table->n_rows, name);
              if (row < 0)
                continue;
              if (spelling == NULL)
                spelling = table->rows[row].material;
              g_ptr_array_add (wearers->tables, (gpointer) table);
            }
        }
    }
  wearers->name = g_strdup (spelling != NULL ? spelling : name);

  return wearers;
}

void
msh_index_wearers_free (MshIndexWearers *wearers)
{
  if (wearers == NULL)
    return;

  g_free (wearers->name);
  g_array_unref (wearers->models);
  g_ptr_array_unref (wearers->named_not_drawn);
  g_ptr_array_unref (wearers->tables);
  g_free (wearers);
}
