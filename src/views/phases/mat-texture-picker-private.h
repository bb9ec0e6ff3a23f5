/* mat-texture-picker-private.h - test hooks
 *
 * Choosing a texture as a user would. Not part of the widget's interface: only
 * mat-texture-picker.c, the tests and the benchmarks include this header.
 */
#pragma once

#include "mat-texture-picker.h"

G_BEGIN_DECLS

/* Test hook: selects @name in the grid and activates "picker.choose"
 * ("" activates "picker.untextured"), as a user would. Returns: %FALSE
 * when @name is not shown (filtered out or not in the library). */
gboolean           mat_texture_picker_choose_for_test (MatTexturePicker *self,
                                                       const char       *name);

G_END_DECLS
