/* test-phase-eval.c - placeholder */
#include "config.h"
#include "test-support.h"

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  return g_test_run ();
}
