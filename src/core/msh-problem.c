/* msh-problem.c - errors and lints of models and material tables */
#include "config.h"

#include <stdarg.h>

#include "msh-problem.h"

void
msh_problem_free (MshProblem *problem)
{
  if (problem == NULL)
    return;

  g_free (problem->member);
  g_free (problem->message);
  g_free (problem);
}

GPtrArray *
msh_problem_list_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) msh_problem_free);
}

void
msh_problem_add (GPtrArray   *out,
                 MshSeverity  severity,
                 MshCheck     check,
                 const char  *member,
                 gint         stream,
                 gint         element,
                 guint64      offset,
                 const char  *format,
                 ...)
{
  MshProblem *problem;
  va_list args;

  g_return_if_fail (out != NULL);
  g_return_if_fail (format != NULL);

  problem = g_new0 (MshProblem, 1);
  problem->severity = severity;
  problem->check = check;
  problem->stream = stream;
  problem->element = element;
  problem->offset = offset;
  problem->member = g_strdup (member != NULL ? member : "");
  va_start (args, format);
  problem->message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (out, problem);
}

gboolean
msh_problems_have_error (const GPtrArray *problems)
{
  if (problems == NULL)
    return FALSE;

  for (guint i = 0; i < problems->len; i++)
    {
      const MshProblem *problem = g_ptr_array_index ((GPtrArray *) problems, i);

      if (problem->severity == MSH_SEVERITY_ERROR)
        return TRUE;
    }

  return FALSE;
}

const char *
msh_check_name (MshCheck check)
{
  switch (check)
    {
    case MSH_CHECK_ARCHIVE:         return "archive";
    case MSH_CHECK_STREAM_SIZE:     return "stream-size";
    case MSH_CHECK_SLOT_INDEX:      return "slot-index";
    case MSH_CHECK_SLOT_TRIANGLES:  return "slot-triangles";
    case MSH_CHECK_SLOT_BATCHES:    return "slot-batches";
    case MSH_CHECK_BATCH_INDICES:   return "batch-indices";
    case MSH_CHECK_CORNER:          return "corner";
    case MSH_CHECK_TOO_LARGE:       return "too-large";
    case MSH_CHECK_PARENT_RANGE:    return "parent-range";
    case MSH_CHECK_PARENT_LOOP:     return "parent-loop";
    case MSH_CHECK_WEAR_ROW:        return "wear-row";
    case MSH_CHECK_NO_WEAR:         return "no-wear";
    case MSH_CHECK_LIGHTMAP_PAGE:   return "lightmap-page";
    case MSH_CHECK_NO_LIGHTMAP:     return "no-lightmap";
    case MSH_CHECK_WEAR_COUNT:      return "wear-count";
    case MSH_CHECK_WEAR_FEW_ROWS:   return "wear-few-rows";
    case MSH_CHECK_WEAR_ONE_FIELD:  return "wear-one-field";
    case MSH_CHECK_WEAR_ID_TEXT:    return "wear-id-text";
    case MSH_CHECK_WEAR_ID:         return "wear-id";
    case MSH_CHECK_WEAR_TRAILING:   return "wear-trailing";
    case MSH_CHECK_WEAR_MISSING:    return "wear-missing";
    default:                        return "unknown";
    }
}

const char *
msh_severity_to_string (MshSeverity severity)
{
  return severity == MSH_SEVERITY_ERROR ? "error" : "lint";
}
