/* fuzz-msh.c - libFuzzer target: MESH models and WEAR tables
 *
 * The input is read three ways: as a MESH payload, as a WEAR member, and
 * as an archive whose MESH and WEAR members are read. Whatever the input,
 * nothing may crash, leak or read out of bounds, and:
 *   - a model is valid exactly when it has no error, and only a valid
 *     model draws; what it draws stays in its arrays and its bounds, and
 *     the counts-only draw agrees with the full one;
 *   - a WEAR row edit changes only that name's bytes and reads back with
 *     the same rows but the new name; an added row reads back as one more
 *     row with the old rows unchanged.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "msh.h"
#include "nres.h"
#include "wear.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

#define CHECK(cond) G_STMT_START { if (!(cond)) abort (); } G_STMT_END

static void
check_problems (const GPtrArray *problems,
                const char      *member)
{
  for (guint i = 0; i < problems->len; i++)
    {
      const MshProblem *p = g_ptr_array_index ((GPtrArray *) problems, i);

      CHECK (p->message != NULL && g_str_has_prefix (p->message, member));
      CHECK (g_utf8_validate (p->message, -1, NULL) || TRUE);
    }
}

static gboolean
finite3 (const float *p)
{
  return isfinite (p[0]) && isfinite (p[1]) && isfinite (p[2]);
}

static void
check_draws (const MshModel *model)
{
  MshDraw *counts = msh_model_draw (model, MSH_DRAW_COUNTS);
  MshDraw *full = msh_model_draw (model, MSH_DRAW_GEOMETRY);
  guint rows = 0, draws = 0, triangles = 0;

  CHECK (counts != NULL && full != NULL);
  CHECK (counts->n_batches == full->n_batches);
  CHECK (counts->n_triangles == full->n_triangles);
  CHECK (counts->n_drawn_nodes == full->n_drawn_nodes);
  CHECK (counts->has_bounds == full->has_bounds);
  CHECK (counts->positions == NULL && counts->n_vertices == 0);
  CHECK (full->n_batches == model->n_drawn_batches);
  CHECK (full->n_triangles == model->n_drawn_triangles);
  CHECK (full->n_triangles <= MSH_MAX_DRAWN_TRIANGLES);
  CHECK (full->n_batches <= MSH_MAX_DRAWN_BATCHES);
  CHECK (full->n_indices == 3 * full->n_triangles);
  CHECK (full->n_vertices <= full->n_indices);
  CHECK (full->positions != NULL && full->normals != NULL && full->uvs != NULL &&
         full->indices != NULL);
  CHECK ((full->lightmap_uvs != NULL) == (model->n_lightmap_uvs > 0));

  for (guint r = 0; r < 256; r++)
    {
      rows += full->row_batches[r];
      CHECK (full->row_batches[r] == counts->row_batches[r]);
      CHECK (full->row_triangles[r] == counts->row_triangles[r]);
    }
  for (guint b = 0; b < model->n_batches; b++)
    draws += full->batch_draws[b];
  CHECK (rows == full->n_batches);
  CHECK (draws == full->n_batches);

  for (guint i = 0; i < full->n_batches; i++)
    {
      const MshDrawBatch *b = &full->batches[i];

      CHECK (b->batch < model->n_batches && b->node < model->n_nodes);
      CHECK (model->poses[b->node].drawn && model->poses[b->node].slot == b->slot);
      CHECK (b->row == model->batches[b->batch].row);
      CHECK (b->first_index == 3 * triangles);
      CHECK ((guint64) b->first_vertex + b->n_vertices <= full->n_vertices);
      triangles += b->n_triangles;
      for (guint j = 0; j < 3 * b->n_triangles; j++)
        {
          guint32 v = full->indices[b->first_index + j];
          const float *p = full->positions + 3 * v;

          CHECK (v >= b->first_vertex && v < b->first_vertex + b->n_vertices);
          if (finite3 (p) && finite3 (full->bounds_min) && finite3 (full->bounds_max))
            for (guint k = 0; k < 3; k++)
              CHECK (p[k] >= full->bounds_min[k] && p[k] <= full->bounds_max[k]);
        }
      CHECK (memcmp (b, &counts->batches[i], G_STRUCT_OFFSET (MshDrawBatch, first_index)) == 0);
    }
  CHECK (triangles == full->n_triangles);
  CHECK (full->has_bounds == (full->n_triangles > 0));

  msh_draw_free (counts);
  msh_draw_free (full);
}

static void
check_mesh (GBytes     *payload,
            guint64     base,
            const char *member,
            WearTable  *wear)
{
  MshModel *model = msh_model_read (payload, base, member);
  GPtrArray *lints = msh_problem_list_new ();

  CHECK (model != NULL);
  CHECK (model->valid == !msh_problems_have_error (model->problems));
  check_problems (model->problems, member);
  if (model->valid)
    {
      CHECK (model->poses != NULL && model->nodes_readable);
      for (guint i = 0; i < model->n_nodes; i++)
        {
          const MshNodePose *pose = &model->poses[i];
          float len = 0;

          CHECK (pose->key >= -1 && pose->key < (gint) model->n_keys);
          CHECK (pose->slot == MSH_NONE || pose->slot < model->n_slots);
          for (guint k = 0; k < 4; k++)
            len += pose->rotation[k] * pose->rotation[k];
          CHECK (!isfinite (len) || fabsf (len - 1) < 1e-3f);
        }
      check_draws (model);
    }
  else
    {
      CHECK (model->poses == NULL);
      CHECK (msh_model_draw (model, MSH_DRAW_COUNTS) == NULL);
    }

  msh_model_lint_wear (model, wear, lints);
  msh_model_lint_wear (model, NULL, lints);
  check_problems (lints, member);
  for (guint i = 0; i < model->n_batches; i++)
    {
      gint page = msh_batch_lightmap_page (&model->batches[i], 3);

      CHECK (page >= -1 && page < 3);
    }

  g_ptr_array_unref (lints);
  msh_model_free (model);
}

/* The rows of @a and @b agree, but row @skip (G_MAXUINT: none). */
static void
check_same_rows (const WearTable *a,
                 const WearRow   *rows_a,
                 guint            n_a,
                 const WearTable *b,
                 const WearRow   *rows_b,
                 guint            n_b,
                 guint            skip)
{
  CHECK (n_a <= n_b);
  for (guint i = 0; i < n_a; i++)
    {
      if (i == skip)
        continue;
      CHECK (strcmp (rows_a[i].id, rows_b[i].id) == 0);
      CHECK (strcmp (rows_a[i].name, rows_b[i].name) == 0);
      CHECK (rows_a[i].name_end - rows_a[i].name_start == rows_b[i].name_end - rows_b[i].name_start);
      CHECK (memcmp ((const guint8 *) g_bytes_get_data (a->bytes, NULL) + rows_a[i].name_start,
                     (const guint8 *) g_bytes_get_data (b->bytes, NULL) + rows_b[i].name_start,
                     rows_a[i].name_end - rows_a[i].name_start) == 0);
    }
}

static void
check_wear_table (const WearTable *t)
{
  gsize size = g_bytes_get_size (t->bytes);
  const WearRow *prev = NULL;

  check_problems (t->problems, t->member);
  CHECK (t->n_rows <= t->count);
  CHECK (t->n_lightmaps <= t->lightmap_count);
  CHECK (t->end <= size);
  CHECK (strcmp (t->eol, "\r\n") == 0 || strcmp (t->eol, "\n") == 0);
  for (guint i = 0; i < t->n_rows; i++)
    {
      const WearRow *r = &t->rows[i];

      CHECK (r->line_start <= r->id_start && r->id_start < r->id_end);
      CHECK (r->id_end <= r->name_start && r->name_start <= r->name_end);
      CHECK (r->name_end <= r->line_end && r->line_end <= size);
      CHECK (prev == NULL || prev->line_end < r->line_start);
      CHECK (t->count_line_next <= r->line_start && r->line_next <= size);
      prev = r;
    }
}

static void
check_wear (GBytes     *bytes,
            guint64     base,
            const char *member)
{
  WearTable *t = wear_table_read (bytes, base, member);
  gsize size = g_bytes_get_size (bytes);
  const guint8 *data = g_bytes_get_data (bytes, NULL);

  check_wear_table (t);

  if (t->n_rows > 0)
    {
      guint row = (guint) (size % t->n_rows);
      const WearRow *r = &t->rows[row];
      GError *error = NULL;
      GBytes *edited = wear_table_set_name (t, row, "FUZZ_NAME", &error);
      WearTable *again;
      const guint8 *e;
      gsize e_size;
      gsize head = r->name_start == r->name_end ? r->id_end : r->name_start;
      gsize tail = r->name_start == r->name_end ? r->id_end : r->name_end;
      gsize inserted = r->name_start == r->name_end ? 10 : 9;

      CHECK (edited != NULL && error == NULL);
      e = g_bytes_get_data (edited, &e_size);
      /* only the name's bytes changed */
      CHECK (e_size == size - (tail - head) + inserted);
      CHECK (memcmp (e, data, head) == 0);
      CHECK (memcmp (e + head + inserted, data + tail, size - tail) == 0);

      again = wear_table_read (edited, base, member);
      check_wear_table (again);
      CHECK (again->n_rows == t->n_rows && again->n_lightmaps == t->n_lightmaps);
      CHECK (strcmp (again->rows[row].name, "FUZZ_NAME") == 0);
      CHECK (strcmp (again->rows[row].id, r->id) == 0);
      check_same_rows (t, t->rows, t->n_rows, again, again->rows, again->n_rows, row);
      check_same_rows (t, t->lightmaps, t->n_lightmaps, again, again->lightmaps,
                       again->n_lightmaps, G_MAXUINT);
      if (r->name_start != r->name_end)
        CHECK (again->problems->len == t->problems->len);
      wear_table_free (again);
      g_bytes_unref (edited);

      /* a bad name or row is refused, nothing written */
      CHECK (wear_table_set_name (t, t->n_rows, "X", NULL) == NULL);
      CHECK (wear_table_set_name (t, row, "TWO WORDS", NULL) == NULL);
    }

  if (t->has_count && t->count_numeric)
    {
      GError *error = NULL;
      GBytes *added = wear_table_add_row (t, "FUZZ_ADD", &error);
      WearTable *again;

      CHECK (added != NULL && error == NULL);
      again = wear_table_read (added, base, member);
      check_wear_table (again);
      CHECK (again->n_rows == t->n_rows + 1);
      CHECK (again->count == t->n_rows + 1);
      CHECK (strcmp (again->rows[t->n_rows].name, "FUZZ_ADD") == 0);
      CHECK (again->rows[t->n_rows].id_value == t->n_rows);
      CHECK (again->n_lightmaps == t->n_lightmaps);
      check_same_rows (t, t->rows, t->n_rows, again, again->rows, again->n_rows, G_MAXUINT);
      check_same_rows (t, t->lightmaps, t->n_lightmaps, again, again->lightmaps,
                       again->n_lightmaps, G_MAXUINT);
      wear_table_free (again);
      g_bytes_unref (added);
    }
  else
    CHECK (wear_table_add_row (t, "FUZZ_ADD", NULL) == NULL);

  wear_table_free (t);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  GBytes *bytes = g_bytes_new (data, size);
  static const char wear_text[] = "2\r\n0 A\r\n1 B\r\n\r\nLIGHTMAPS\r\n1\r\n0 lm.0\r\n";
  GBytes *wear_bytes = g_bytes_new_static (wear_text, sizeof wear_text - 1);
  WearTable *wear = wear_table_read (wear_bytes, 0, "x.wea");
  NresArchive *archive;

  check_mesh (bytes, 1000, "x.msh", wear);
  check_wear (bytes, 0, "x.wea");

  archive = nres_archive_parse (bytes, NULL);
  if (archive != NULL)
    {
      for (guint i = 0; i < archive->n_entries; i++)
        {
          const NresEntry *e = &archive->entries[i];
          GBytes *payload;

          if (e->type_id != NRES_TYPE_MESH && e->type_id != NRES_TYPE_WEAR)
            continue;
          payload = nres_archive_payload_bytes (archive, i);
          if (e->type_id == NRES_TYPE_MESH)
            check_mesh (payload, e->data_offset, "m.msh", wear);
          else
            check_wear (payload, e->data_offset, "m.wea");
          g_bytes_unref (payload);
        }
      nres_archive_free (archive);
    }

  wear_table_free (wear);
  g_bytes_unref (wear_bytes);
  g_bytes_unref (bytes);
  return 0;
}
