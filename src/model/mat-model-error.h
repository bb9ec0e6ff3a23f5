/* mat-model-error.h - the error domain of the model layer */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MAT_MODEL_ERROR (mat_model_error_quark ())

typedef enum {
  MAT_MODEL_ERROR_NAME_TAKEN,       /* another entry has the name (case-insensitively) */
  MAT_MODEL_ERROR_NAME_INVALID,     /* not 1..35 CP1251 bytes */
  MAT_MODEL_ERROR_TEXTURE_INVALID,  /* not at most 15 CP1251 bytes */
  MAT_MODEL_ERROR_TOO_MANY_BLOCKS,  /* more than MAT0_MAX_BLOCKS */
  MAT_MODEL_ERROR_TOO_MANY_ITEMS,   /* a u16 count would overflow */
  MAT_MODEL_ERROR_LAST_PHASE,       /* a material keeps at least one phase */
  MAT_MODEL_ERROR_NOT_EDITABLE,     /* another entry type, a material that
                                       does not decode, or a detached object */
  MAT_MODEL_ERROR_META_ABSENT,      /* the payload version lacks the field */
  MAT_MODEL_ERROR_NO_FILE,          /* save without a file */
  MAT_MODEL_ERROR_TIME_RANGE,       /* a key's time would leave 0..65535 ms */
  MAT_MODEL_ERROR_QUERY_INVALID,    /* a search term whose value cannot be read */
} MatModelError;

GQuark mat_model_error_quark (void);

G_END_DECLS
