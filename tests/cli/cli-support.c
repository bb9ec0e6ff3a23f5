/* cli-support.c - running mat0tool from the tests */
#include "config.h"

#include "cli-support.h"

void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

static gboolean
watchdog_cb (gpointer data)
{
  g_subprocess_force_exit (G_SUBPROCESS (data));
  g_test_message ("mat0tool did not finish in time: killed");
  return G_SOURCE_REMOVE;
}

static void
communicate_cb (GObject *object, GAsyncResult *result, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

void
run_tool_argv (Run *run, const char *stdout_path, const char * const *argv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  GSubprocessFlags flags = G_SUBPROCESS_FLAGS_STDERR_PIPE;
  guint watchdog;

  g_ptr_array_add (args, (gpointer) g_getenv ("MAT0TOOL"));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) argv[i]);
  g_ptr_array_add (args, NULL);

  if (stdout_path == NULL)
    flags |= G_SUBPROCESS_FLAGS_STDOUT_PIPE;
  launcher = g_subprocess_launcher_new (flags);
  if (stdout_path != NULL)
    g_subprocess_launcher_set_stdout_file_path (launcher, stdout_path);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  watchdog = g_timeout_add_seconds (60, watchdog_cb, proc);
  g_subprocess_communicate_utf8_async (proc, NULL, NULL, communicate_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (watchdog);
  g_subprocess_communicate_utf8_finish (proc, result, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  run->status = g_subprocess_get_exit_status (proc);
  if (run->out == NULL)
    run->out = g_strdup ("");
}

void
run_tool (Run *run, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *arg;
  va_list args;

  va_start (args, run);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  run_tool_argv (run, NULL, (const char * const *) argv->pdata);
}
