/* cp1251.c - placeholder */
#include "config.h"
typedef int mat_placeholder_cp1251;
