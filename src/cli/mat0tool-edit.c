#include "config.h"
typedef int mat_placeholder_mat0tool_edit;
