/* bench-core.c - core speed against baselines measured in the same run
 *
 * Each figure is a ratio: the work divided by a baseline that touches the
 * same bytes in the plainest way. Timing is the best of several rounds.
 * Goals (README): decode + validate within 10x of memcpy; an unchanged
 * preserving save within 2x of memcpy; the evaluator within 3x of copying
 * one 76-byte phase.
 */
#include "config.h"

#include <string.h>

#include "mat0-validate.h"
#include "mat0.h"
#include "nres.h"
#include "phase-eval.h"
#include "test-support.h"

#define ROUNDS 15

static volatile guint64 sink;

typedef void (*BenchFunc) (gpointer data);

/* Best time of one call over ROUNDS rounds; each round repeats the call
 * for about 20 ms, so short calls are not lost in the clock's resolution. */
static double
best_of (BenchFunc func, gpointer data, guint min_repeat)
{
  double best = G_MAXDOUBLE;
  guint repeat = MAX (min_repeat, 1);
  gint64 t0 = g_get_monotonic_time ();

  func (data);   /* warm up, and size the rounds */
  repeat = MAX (repeat, (guint) (20000 / MAX (g_get_monotonic_time () - t0, 1)));

  for (guint r = 0; r < ROUNDS; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      for (guint i = 0; i < repeat; i++)
        func (data);
      best = MIN (best, (double) (g_get_monotonic_time () - t0) / repeat);
    }
  return best;   /* microseconds per call */
}

typedef struct {
  GBytes      *bytes;
  guint8      *scratch;
  NresArchive *archive;   /* parsed once, for the save */
} LibBench;

static void
copy_bytes (gpointer data)
{
  LibBench *b = data;
  gsize len;
  const guint8 *src = g_bytes_get_data (b->bytes, &len);

  memcpy (b->scratch, src, len);
  sink += b->scratch[len / 2];
}

static void
decode_and_validate (gpointer data)
{
  LibBench *b = data;
  g_autoptr(NresArchive) archive = nres_archive_parse (b->bytes, NULL);
  g_autoptr(GPtrArray) diags = NULL;

  g_assert (archive != NULL);
  /* mat0_validate_archive decodes every MAT0 entry and checks it */
  diags = mat0_validate_archive (archive);
  sink += diags->len;
}

static void
preserving_save (gpointer data)
{
  LibBench *b = data;
  g_autoptr(GBytes) out = NULL;
  NresOutEntry *entries;
  guint n;

  /* what a save of an unchanged library does: no entry is replaced */
  entries = nres_out_entries_from_archive (b->archive, &n);
  out = nres_write_preserving (b->archive, entries, n, NULL);
  nres_out_entries_free (entries, n);
  g_assert (out != NULL);
  sink += g_bytes_get_size (out);
}

/* The digest of an ETag, taken at every open and twice a save. */
static void
digest_sha1 (gpointer data)
{
  LibBench *b = data;
  g_autofree char *digest = g_compute_checksum_for_bytes (G_CHECKSUM_SHA1, b->bytes);

  sink += (guint64) digest[0];
}

static void
digest_sha256 (gpointer data)
{
  LibBench *b = data;
  g_autofree char *digest = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, b->bytes);

  sink += (guint64) digest[0];
}

static void
bench_library (const char *label, const char *path)
{
  LibBench b;
  double copy, decode, save, sha1, sha256;

  b.bytes = test_load_file (path);
  b.scratch = g_malloc (g_bytes_get_size (b.bytes));
  b.archive = nres_archive_parse (b.bytes, NULL);
  g_assert (b.archive != NULL);

  copy = best_of (copy_bytes, &b, 1);
  decode = best_of (decode_and_validate, &b, 1);
  save = best_of (preserving_save, &b, 1);
  sha1 = best_of (digest_sha1, &b, 1);
  sha256 = best_of (digest_sha256, &b, 1);

  g_print ("%-8s %9" G_GSIZE_FORMAT " bytes  memcpy %9.1f us\n", label,
           g_bytes_get_size (b.bytes), copy);
  g_print ("%-8s decode + validate %10.1f us  ratio %6.2fx  (goal <= 10x)\n",
           label, decode, decode / copy);
  g_print ("%-8s preserving save   %10.1f us  ratio %6.2fx  (goal <= 2x)\n",
           label, save, save / copy);
  g_print ("%-8s SHA-1 (the ETag)  %10.1f us  ratio %6.2fx  (SHA-256 %.1f us, %.2fx)\n",
           label, sha1, sha1 / copy, sha256, sha256 / copy);

  g_free (b.scratch);
  nres_archive_free (b.archive);
  g_bytes_unref (b.bytes);
}

typedef struct {
  PhaseEvalInput   input;
  PhaseRuntime    *phases;
  PhaseRuntime     copy;
  PhaseEvalResult  result;
  guint            n;
} EvalBench;

static void
eval_loop (gpointer data)
{
  EvalBench *b = data;

  for (guint i = 0; i < b->n; i++)
    {
      phase_eval_at_time (&b->input, i * 7u, 0, 0, &b->result);
      sink += (guint64) b->result.segment;
    }
}

static void
copy_loop (gpointer data)
{
  EvalBench *b = data;

  for (guint i = 0; i < b->n; i++)
    {
      /* the same amount of output: one 76-byte phase per call */
      memcpy (&b->copy, &b->phases[i & 1], sizeof (PhaseRuntime));
      __asm__ __volatile__ ("" : : "g" (&b->copy) : "memory");
      sink += (guint64) b->copy.i18;
    }
}

static void
run_evaluator (const char      *label,
               const Mat0Block *block,
               guint            n_phases,
               const Mat0Phase *phases)
{
  EvalBench b = { 0 };
  double eval, copy;

  b.phases = g_new0 (PhaseRuntime, n_phases);
  for (guint i = 0; i < n_phases; i++)
    phase_eval_expand (&phases[i], (gint32) i, &b.phases[i]);
  b.input.phases = b.phases;
  b.input.n_phases = n_phases;
  b.input.block = block;
  b.n = 1000000;

  /* the calls walk the period in 7 ms steps: every segment is visited */
  copy = best_of (copy_loop, &b, 1);
  eval = best_of (eval_loop, &b, 1);
  g_print ("evaluator %-22s %8.1f M calls/s  76-byte copy %8.1f M/s  ratio %6.2fx  (goal <= 3x)\n",
           label, b.n / eval, b.n / copy, eval / copy);
  g_free (b.phases);
}

static void
bench_evaluator (void)
{
  g_autoptr(GBytes) payload = test_worked_example_payload (0);
  gsize size;
  const guint8 *data = g_bytes_get_data (payload, &size);
  g_autoptr(Mat0Material) m = mat0_decode (data, size, 6, "bench", 0, NULL);
  Mat0Phase phases[29];
  Mat0Key keys[30];
  Mat0Block flip_book = { 0, G_N_ELEMENTS (keys), keys };

  /* the worked example with all five interpolation bits, so every
   * blendable field is blended: 2 keys, period 1000 ms */
  m->blocks[0].header_raw = (0x1Fu << 3);
  run_evaluator ("(2 keys, mask 0x1f)", &m->blocks[0], m->n_phases, m->phases);

  /* the largest retail material: 29 phases stepped by 30 keys, 100 ms
   * apart (mask 0: a flip-book); the segment search sees every key */
  memset (phases, 0, sizeof phases);
  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    {
      phases[i].p[4] = (guint8) (i * 8);
      phases[i].p[17] = (guint8) i;
      memcpy (phases[i].texture, "FLIP.0", 6);
    }
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      keys[k].k0 = (guint16) (k % G_N_ELEMENTS (phases));
      keys[k].k1 = (guint16) (100 * (k + 1));
      keys[k].k2 = 0;
    }
  run_evaluator ("(30 keys, mask 0)", &flip_book, G_N_ELEMENTS (phases), phases);
}

int
main (int argc, char *argv[])
{
  if (argc != 3)
    {
      g_printerr ("usage: bench-core RETAIL.lib STRESS.lib\n");
      return 2;
    }
  bench_library ("retail", argv[1]);
  bench_library ("stress", argv[2]);
  bench_evaluator ();
  return 0;
}
