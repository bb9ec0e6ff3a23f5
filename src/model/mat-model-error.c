/* mat-model-error.c - the error domain of the model layer */
#include "config.h"

#include "mat-model-error.h"

G_DEFINE_QUARK (mat-model-error-quark, mat_model_error)
