/* mat0-validate.c - placeholder */
#include "config.h"
typedef int mat_placeholder_mat0_validate;
