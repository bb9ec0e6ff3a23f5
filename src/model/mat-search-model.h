/* mat-search-model.h - the entries of a library that match a search
 *
 * A GListModel of the MatMaterials of a MatLibrary, in library order,
 * that match the search text, a query (mat-query.h: plain words match
 * names ignoring case, KEY:VALUE words the content; all of them for an
 * empty text). It follows the library's insertions and removals; after
 * edits call mat_search_model_refilter().
 */
#pragma once

#include <gio/gio.h>

#include "mat-library.h"
#include "mat-query.h"

G_BEGIN_DECLS

#define MAT_TYPE_SEARCH_MODEL (mat_search_model_get_type ())

G_DECLARE_FINAL_TYPE (MatSearchModel, mat_search_model, MAT, SEARCH_MODEL, GObject)

MatSearchModel *mat_search_model_new         (MatLibrary     *library);

MatLibrary     *mat_search_model_get_library (MatSearchModel *self);
void            mat_search_model_set_library (MatSearchModel *self,
                                              MatLibrary     *library);

/* The case-folded search text, %NULL when everything is shown. */
const char     *mat_search_model_get_text    (MatSearchModel *self);
/* @text is UTF-8; %NULL or "" shows every entry. A text that does not
 * read as a query leaves the list as the last one that did, and says why
 * ("error" property). */
void            mat_search_model_set_text    (MatSearchModel *self,
                                              const char     *text);
/* Returns: (transfer none) (nullable): why the text does not read as a
 * query (MAT_MODEL_ERROR_QUERY_INVALID's message), %NULL when it does. */
const char     *mat_search_model_get_error   (MatSearchModel *self);
/* Returns: (transfer none) (nullable): the query the list shows, %NULL
 * when it shows everything. */
MatQuery       *mat_search_model_get_query   (MatSearchModel *self);
/* What answers the worn: words of every query from now on
 * (mat_query_set_worn_func); @destroy frees @user_data when another
 * comes or the model goes. */
void            mat_search_model_set_worn_func (MatSearchModel   *self,
                                                MatQueryWornFunc  func,
                                                gpointer          user_data,
                                                GDestroyNotify    destroy);

/* Matches every entry again: names and content may have changed. */
void            mat_search_model_refilter    (MatSearchModel *self);

/* Whether @material matches the search. */
gboolean        mat_search_model_matches     (MatSearchModel *self,
                                              MatMaterial    *material);

G_END_DECLS
