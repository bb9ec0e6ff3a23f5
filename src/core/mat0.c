/* mat0.c - placeholder */
#include "config.h"
typedef int mat_placeholder_mat0;
