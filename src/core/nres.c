/* nres.c - placeholder */
#include "config.h"
typedef int mat_placeholder_nres;
