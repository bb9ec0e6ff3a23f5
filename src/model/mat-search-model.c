/* mat-search-model.c - the entries of a library that match a search
 *
 * The matches are kept as an array of library positions, so getting an
 * item is one lookup. (GtkFilterListModel keeps a bitset whose n-th member
 * costs a scan, and GTK 4.8's list view asks for every row after a
 * change: one typed character in a 65,536-entry library cost a third of a
 * second there.) A change is announced as one items-changed covering what
 * lies between the unchanged first and last matches.
 *
 * The text is a query (mat-query.h): plain words match names, KEY:VALUE
 * words the content. An ASCII word, nearly every one, compares the raw
 * CP1251 name bytes ignoring ASCII case, with no conversion and no
 * allocation. That agrees with comparing case-folded UTF-8 names, which
 * other searches do: no CP1251 character case-folds to ASCII.
 */
#include "config.h"

#include <string.h>

#include "mat-model-private.h"
#include "mat-query.h"
#include "mat-search-model.h"

struct _MatSearchModel
{
  GObject     parent_instance;

  MatLibrary *library;
  char       *text;        /* case-folded; %NULL: everything */
  MatQuery   *query;       /* of the last text that reads, or %NULL */
  char       *error;       /* why the text does not read, or %NULL */
  GArray     *matches;     /* guint library positions, ascending */

  MatQueryWornFunc worn_func;
  gpointer         worn_data;
  GDestroyNotify   worn_destroy;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MatSearchModel, mat_search_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  PROP_0,
  PROP_LIBRARY,
  PROP_TEXT,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* GListModel */

static GType
mat_search_model_get_item_type (GListModel *list)
{
  return MAT_TYPE_MATERIAL;
}

static guint
mat_search_model_get_n_items (GListModel *list)
{
  return MAT_SEARCH_MODEL (list)->matches->len;
}

static gpointer
mat_search_model_get_item (GListModel *list,
                           guint       position)
{
  MatSearchModel *self = MAT_SEARCH_MODEL (list);

  if (position >= self->matches->len)
    return NULL;

  return g_object_ref (mat_library_get_material (self->library,
                                                 g_array_index (self->matches, guint, position)));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = mat_search_model_get_item_type;
  iface->get_n_items = mat_search_model_get_n_items;
  iface->get_item = mat_search_model_get_item;
}

/* Matching */

gboolean
mat_search_model_matches (MatSearchModel *self,
                          MatMaterial    *material)
{
  g_return_val_if_fail (MAT_IS_SEARCH_MODEL (self), FALSE);
  g_return_val_if_fail (MAT_IS_MATERIAL (material), FALSE);

  if (self->query == NULL)
    return TRUE;
  return mat_query_matches (self->query, material);
}

/* Returns: (transfer full): the library positions that match, out of
 * @candidates (ascending), or of all of them when %NULL. */
static GArray *
find_matches (MatSearchModel *self,
              GArray         *candidates)
{
  guint n = self->library != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->library)) : 0;
  guint n_candidates = candidates != NULL ? candidates->len : n;
  GArray *matches = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_candidates);

  for (guint i = 0; i < n_candidates; i++)
    {
      guint position = candidates != NULL ? g_array_index (candidates, guint, i) : i;

      if (self->query == NULL ||
          mat_query_matches (self->query, mat_library_get_material (self->library, position)))
        g_array_append_val (matches, position);
    }

  return matches;
}

/* Replaces the matches with @matches, announcing the change. @before are
 * the old matches as positions in the library as it is now (G_MAXUINT for
 * entries it no longer has). */
static void
replace_matches (MatSearchModel *self,
                 GArray         *before,
                 GArray         *matches)
{
  const guint *a = (const guint *) (gpointer) before->data;
  const guint *b = (const guint *) (gpointer) matches->data;
  guint n_before = before->len, n_after = matches->len;
  guint prefix = 0, suffix = 0;

  while (prefix < n_before && prefix < n_after && a[prefix] == b[prefix])
    prefix++;
  while (suffix < n_before - prefix && suffix < n_after - prefix &&
         a[n_before - 1 - suffix] == b[n_after - 1 - suffix])
    suffix++;

  g_array_unref (self->matches);
  self->matches = g_array_ref (matches);

  if (prefix != n_before || n_before != n_after)
    g_list_model_items_changed (G_LIST_MODEL (self), prefix,
                                n_before - prefix - suffix, n_after - prefix - suffix);
}

static void
library_items_changed_cb (MatSearchModel *self,
                          guint           position,
                          guint           removed,
                          guint           added)
{
  g_autoptr(GArray) before = g_array_copy (self->matches);
  g_autoptr(GArray) matches = NULL;

  for (guint i = 0; i < before->len; i++)
    {
      guint *p = &g_array_index (before, guint, i);

      if (*p >= position + removed)
        *p = *p - removed + added;
      else if (*p >= position)
        *p = G_MAXUINT;
    }

  matches = find_matches (self, NULL);
  replace_matches (self, before, matches);
}

void
mat_search_model_refilter (MatSearchModel *self)
{
  g_autoptr(GArray) before = NULL;
  g_autoptr(GArray) matches = NULL;

  g_return_if_fail (MAT_IS_SEARCH_MODEL (self));

  before = g_array_ref (self->matches);
  matches = find_matches (self, NULL);
  replace_matches (self, before, matches);
}

/* Properties */

MatLibrary *
mat_search_model_get_library (MatSearchModel *self)
{
  g_return_val_if_fail (MAT_IS_SEARCH_MODEL (self), NULL);

  return self->library;
}

void
mat_search_model_set_library (MatSearchModel *self,
                              MatLibrary     *library)
{
  g_autoptr(GArray) before = NULL;
  g_autoptr(GArray) matches = NULL;

  g_return_if_fail (MAT_IS_SEARCH_MODEL (self));
  g_return_if_fail (library == NULL || MAT_IS_LIBRARY (library));

  if (self->library == library)
    return;

  if (self->library != NULL)
    g_signal_handlers_disconnect_by_data (self->library, self);
  g_set_object (&self->library, library);
  if (library != NULL)
    g_signal_connect_swapped (library, "items-changed",
                              G_CALLBACK (library_items_changed_cb), self);

  /* another library: nothing is kept */
  before = g_array_ref (self->matches);
  for (guint i = 0; i < before->len; i++)
    g_array_index (before, guint, i) = G_MAXUINT;
  matches = find_matches (self, NULL);
  replace_matches (self, before, matches);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIBRARY]);
}

const char *
mat_search_model_get_text (MatSearchModel *self)
{
  g_return_val_if_fail (MAT_IS_SEARCH_MODEL (self), NULL);

  return self->text;
}

static void
set_error (MatSearchModel *self,
           const char     *error)
{
  if (g_strcmp0 (error, self->error) == 0)
    return;
  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

void
mat_search_model_set_text (MatSearchModel *self,
                           const char     *text)
{
  g_autofree char *folded = NULL;
  g_autoptr(MatQuery) query = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) before = NULL;
  g_autoptr(GArray) matches = NULL;
  gboolean stricter;

  g_return_if_fail (MAT_IS_SEARCH_MODEL (self));

  folded = text != NULL && text[0] != '\0' ? g_utf8_casefold (text, -1) : NULL;
  if (g_strcmp0 (folded, self->text) == 0)
    return;

  g_free (self->text);
  self->text = g_steal_pointer (&folded);

  if (self->text != NULL)
    {
      query = mat_query_new (text, &error);
      if (query == NULL)
        {
          /* the list stays as the last text that reads had it */
          set_error (self, error->message);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
          return;
        }
      if (mat_query_is_empty (query))
        g_clear_pointer (&query, mat_query_unref);
    }
  set_error (self, NULL);
  if (query != NULL)
    mat_query_set_worn_func (query, self->worn_func, self->worn_data);

  /* a longer search only needs to look at what matched before */
  stricter = self->query == NULL || (query != NULL && mat_query_narrows (query, self->query));

  g_clear_pointer (&self->query, mat_query_unref);
  self->query = g_steal_pointer (&query);

  before = g_array_ref (self->matches);
  matches = find_matches (self, stricter ? before : NULL);
  replace_matches (self, before, matches);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

const char *
mat_search_model_get_error (MatSearchModel *self)
{
  g_return_val_if_fail (MAT_IS_SEARCH_MODEL (self), NULL);

  return self->error;
}

MatQuery *
mat_search_model_get_query (MatSearchModel *self)
{
  g_return_val_if_fail (MAT_IS_SEARCH_MODEL (self), NULL);

  return self->query;
}

void
mat_search_model_set_worn_func (MatSearchModel   *self,
                                MatQueryWornFunc  func,
                                gpointer          user_data,
                                GDestroyNotify    destroy)
{
  g_return_if_fail (MAT_IS_SEARCH_MODEL (self));

  if (self->worn_destroy != NULL)
    self->worn_destroy (self->worn_data);
  self->worn_func = func;
  self->worn_data = user_data;
  self->worn_destroy = destroy;
  if (self->query != NULL)
    {
      mat_query_set_worn_func (self->query, func, user_data);
      if (mat_query_needs_worn (self->query))
        mat_search_model_refilter (self);
    }
}

/* GObject */

MatSearchModel *
mat_search_model_new (MatLibrary *library)
{
  g_return_val_if_fail (library == NULL || MAT_IS_LIBRARY (library), NULL);

  return g_object_new (MAT_TYPE_SEARCH_MODEL, "library", library, NULL);
}

static void
mat_search_model_dispose (GObject *object)
{
  MatSearchModel *self = MAT_SEARCH_MODEL (object);

  if (self->library != NULL)
    g_signal_handlers_disconnect_by_data (self->library, self);
  g_clear_object (&self->library);
  if (self->worn_destroy != NULL)
    self->worn_destroy (self->worn_data);
  self->worn_func = NULL;
  self->worn_destroy = NULL;

  G_OBJECT_CLASS (mat_search_model_parent_class)->dispose (object);
}

static void
mat_search_model_finalize (GObject *object)
{
  MatSearchModel *self = MAT_SEARCH_MODEL (object);

  g_free (self->text);
  g_free (self->error);
  g_clear_pointer (&self->query, mat_query_unref);
  g_array_unref (self->matches);

  G_OBJECT_CLASS (mat_search_model_parent_class)->finalize (object);
}

static void
mat_search_model_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  MatSearchModel *self = MAT_SEARCH_MODEL (object);

  switch (prop_id)
    {
    case PROP_LIBRARY:
      g_value_set_object (value, self->library);
      break;
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_search_model_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  MatSearchModel *self = MAT_SEARCH_MODEL (object);

  switch (prop_id)
    {
    case PROP_LIBRARY:
      mat_search_model_set_library (self, g_value_get_object (value));
      break;
    case PROP_TEXT:
      mat_search_model_set_text (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mat_search_model_class_init (MatSearchModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mat_search_model_dispose;
  object_class->finalize = mat_search_model_finalize;
  object_class->get_property = mat_search_model_get_property;
  object_class->set_property = mat_search_model_set_property;

  properties[PROP_LIBRARY] =
    g_param_spec_object ("library", NULL, NULL, MAT_TYPE_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* written as typed, read back case-folded */
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* why the text does not read as a query (mat_query_new), or %NULL */
  properties[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mat_search_model_init (MatSearchModel *self)
{
  self->matches = g_array_new (FALSE, FALSE, sizeof (guint));
}
