/* phase-eval.c - placeholder */
#include "config.h"
typedef int mat_placeholder_phase_eval;
