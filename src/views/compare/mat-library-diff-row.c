/* mat-library-diff-row.c - one material in the library diff's list */
#include "config.h"

#include <string.h>
#include "mat-library-diff-row.h"

struct _MatLibraryDiffRow
{
  GObject         parent_instance;

  Mat0DiffStatus  status;
  char           *name;
  char           *summary;
  GArray         *fields;    /* Mat0DiffField, or %NULL */
  char           *changes;   /* made when first asked for */
  char           *all_changes;
  MatMaterial    *mine;
  MatMaterial    *theirs;
};

G_DEFINE_FINAL_TYPE (MatLibraryDiffRow, mat_library_diff_row, G_TYPE_OBJECT)

static void
mat_library_diff_row_dispose (GObject *object)
{
  MatLibraryDiffRow *self = MAT_LIBRARY_DIFF_ROW (object);

  g_clear_object (&self->mine);
  g_clear_object (&self->theirs);

  G_OBJECT_CLASS (mat_library_diff_row_parent_class)->dispose (object);
}

static void
mat_library_diff_row_finalize (GObject *object)
{
  MatLibraryDiffRow *self = MAT_LIBRARY_DIFF_ROW (object);

  g_free (self->name);
  g_free (self->summary);
  g_free (self->changes);
  g_free (self->all_changes);
  g_clear_pointer (&self->fields, g_array_unref);

  G_OBJECT_CLASS (mat_library_diff_row_parent_class)->finalize (object);
}

static void
mat_library_diff_row_class_init (MatLibraryDiffRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mat_library_diff_row_dispose;
  object_class->finalize = mat_library_diff_row_finalize;
}

static void
mat_library_diff_row_init (MatLibraryDiffRow *self)
{
}

MatLibraryDiffRow *
mat_library_diff_row_new (Mat0DiffStatus  status,
                          const char     *name,
                          const char     *summary,
                          GArray         *fields,
                          MatMaterial    *mine,
                          MatMaterial    *theirs)
{
  MatLibraryDiffRow *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (mine == NULL || MAT_IS_MATERIAL (mine), NULL);
  g_return_val_if_fail (theirs == NULL || MAT_IS_MATERIAL (theirs), NULL);

  self = g_object_new (MAT_TYPE_LIBRARY_DIFF_ROW, NULL);
  self->status = status;
  self->name = g_strdup (name);
  self->summary = g_strdup (summary != NULL ? summary : "");
  self->fields = fields != NULL && fields->len > 0 ? g_array_ref (fields) : NULL;
  self->mine = mine != NULL ? g_object_ref (mine) : NULL;
  self->theirs = theirs != NULL ? g_object_ref (theirs) : NULL;
  return self;
}

Mat0DiffStatus
mat_library_diff_row_get_status (MatLibraryDiffRow *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF_ROW (self), MAT0_DIFF_SAME);
  return self->status;
}

const char *
mat_library_diff_row_get_name (MatLibraryDiffRow *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF_ROW (self), NULL);
  return self->name;
}

const char *
mat_library_diff_row_get_summary (MatLibraryDiffRow *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF_ROW (self), NULL);
  return self->summary;
}

static char *
list_changes (GArray *fields,
              guint   max)
{
  if (fields == NULL)
    return g_strdup ("");
  return mat0_diff_dup_changes ((const Mat0DiffField *) (gpointer) fields->data, fields->len, max);
}

const char *
mat_library_diff_row_get_changes (MatLibraryDiffRow *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF_ROW (self), NULL);

  if (self->changes == NULL)
    self->changes = list_changes (self->fields, MAT_LIBRARY_DIFF_ROW_MAX_CHANGES);
  return self->changes;
}

const char *
mat_library_diff_row_get_all_changes (MatLibraryDiffRow *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF_ROW (self), NULL);

  if (self->all_changes == NULL)
    self->all_changes = list_changes (self->fields, MAT_LIBRARY_DIFF_ROW_MAX_TOOLTIP);
  return self->all_changes;
}

MatMaterial *
mat_library_diff_row_get_mine (MatLibraryDiffRow *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF_ROW (self), NULL);
  return self->mine;
}

MatMaterial *
mat_library_diff_row_get_theirs (MatLibraryDiffRow *self)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF_ROW (self), NULL);
  return self->theirs;
}

gboolean
mat_library_diff_row_equal (MatLibraryDiffRow *a,
                            MatLibraryDiffRow *b)
{
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF_ROW (a), FALSE);
  g_return_val_if_fail (MAT_IS_LIBRARY_DIFF_ROW (b), FALSE);

  guint n_a = a->fields != NULL ? a->fields->len : 0, n_b = b->fields != NULL ? b->fields->len : 0;

  return a->status == b->status && a->mine == b->mine && a->theirs == b->theirs &&
         g_strcmp0 (a->name, b->name) == 0 && g_strcmp0 (a->summary, b->summary) == 0 &&
         n_a == n_b &&
         (n_a == 0 || memcmp (a->fields->data, b->fields->data, n_a * sizeof (Mat0DiffField)) == 0);
}
