/* mat0-flags.c - placeholder */
#include "config.h"
typedef int mat_placeholder_mat0_flags;
