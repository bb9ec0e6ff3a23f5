/* mat-test-hook.h - what the tests that start the real editor drive
 *
 * With MATEDIT_TEST_HOOKS set in the environment, the application has
 * one more action, app.test-hook (a string parameter, a string state),
 * exported on D-Bus like every application action: a test starts the
 * editor binary and edits, saves and looks at it through that action.
 * Without the variable it does not exist.
 *
 * Commands (the parameter), run in the first editor window with a
 * library:
 *   "attr1 NAME VALUE"          set attr1 of the material NAME
 *   "cells TEXTURE X W Y H"     one Page rectangle for TEXTURE of the
 *                               window's Textures.lib
 *   "save"                      win.save
 *   "save-textures"             save the window's Textures.lib
 *   "status"                    nothing: only the state is updated
 * The state after each: "SERIAL ok STATUS" or "SERIAL error MESSAGE",
 * STATUS being "library=0|1 dirty=0|1 textures=0|1 textures-dirty=0|1
 * disk=same|changed|deleted offered=N windows=N" (N drafts offered, N
 * toplevel windows).
 */
#pragma once

#include "mat-application.h"

G_BEGIN_DECLS

void mat_test_hook_install (MatApplication *application);

G_END_DECLS
