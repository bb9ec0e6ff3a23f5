/* mat-search-model.h - the entries of a library whose names contain a text
 *
 * A GListModel of the MatMaterials of a MatLibrary, in library order,
 * whose names contain the search text ignoring case (all of them for an
 * empty text). It follows the library's insertions and removals; after
 * renames call mat_search_model_refilter().
 */
#pragma once

#include <gio/gio.h>

#include "mat-library.h"

G_BEGIN_DECLS

#define MAT_TYPE_SEARCH_MODEL (mat_search_model_get_type ())

G_DECLARE_FINAL_TYPE (MatSearchModel, mat_search_model, MAT, SEARCH_MODEL, GObject)

MatSearchModel *mat_search_model_new         (MatLibrary     *library);

MatLibrary     *mat_search_model_get_library (MatSearchModel *self);
void            mat_search_model_set_library (MatSearchModel *self,
                                              MatLibrary     *library);

/* The case-folded search text, %NULL when everything is shown. */
const char     *mat_search_model_get_text    (MatSearchModel *self);
/* @text is UTF-8; %NULL or "" shows every entry. */
void            mat_search_model_set_text    (MatSearchModel *self,
                                              const char     *text);

/* Matches every entry again: names may have changed. */
void            mat_search_model_refilter    (MatSearchModel *self);

/* Whether the name of @material contains the search text. */
gboolean        mat_search_model_matches     (MatSearchModel *self,
                                              MatMaterial    *material);

G_END_DECLS
