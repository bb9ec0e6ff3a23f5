/* cli-support.h - what the mat0tool tests share: running the tool */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* One run of mat0tool: its exit status and what it printed. */
typedef struct {
  int   status;
  char *out;   /* "" when stdout went to a file */
  char *err;
} Run;

void run_clear (Run *run);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs $MAT0TOOL with @argv (no program name); stdout to @stdout_path
 * when given. A run that takes more than a minute is killed (and fails
 * its test). */
void run_tool_argv (Run                *run,
                    const char         *stdout_path,
                    const char * const *argv);
/* The same with a NULL-terminated argument list. */
void run_tool      (Run                *run,
                    ...) G_GNUC_NULL_TERMINATED;

G_END_DECLS
