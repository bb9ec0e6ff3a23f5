/* fuzz-archive.c - libFuzzer target: NRes archive + MAT0 payloads
 *
 * Whatever the input, nothing may crash or leak, and whatever decodes must
 * survive the round trip: encode (decode (x)) == x for every MAT0 payload,
 * the preserving writer reproduces an unchanged archive byte for byte, an
 * edited archive parses again, and the evaluator stays in bounds.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mat0-validate.h"
#include "mat0.h"
#include "nres.h"
#include "phase-eval.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* What every evaluation must satisfy (evaluator.md, k1 = the time an
 * interval ends): the period is the last key's time; r <= period; the
 * segment is a key whose interval [T[k-1], T[k]) holds r, or the last key
 * at alpha 1 when r == period; alpha in [0, 1]; the phases are in the
 * table. */
static void
check_result (const PhaseEvalInput  *input,
              const PhaseEvalResult *result)
{
  const Mat0Block *block = input->block;

  if (input->n_phases > 0 &&
      (result->phase_a < 0 || result->phase_a >= (gint) input->n_phases ||
       result->phase_b < 0 || result->phase_b >= (gint) input->n_phases))
    abort ();
  if (!(result->alpha >= 0.0f && result->alpha <= 1.0f))
    abort ();
  if (block == NULL || block->n_keys == 0)
    {
      if (result->period != 0 || result->segment != -1 || !result->hold)
        abort ();
      return;
    }
  if (result->period != mat0_block_period (block) ||
      result->period != block->keys[block->n_keys - 1].k1)
    abort ();
  if (result->r > result->period)
    abort ();
  if (result->period == 0 || input->n_phases == 0)
    {
      if (!result->hold || result->alpha != 0.0f)
        abort ();
      return;
    }
  if (result->segment < 0 || result->segment >= (gint) block->n_keys)
    abort ();
  if (result->hold)
    {
      /* once, after the first period: the last key, held */
      if (result->segment != (gint) block->n_keys - 1 || result->next != result->segment ||
          result->alpha != 0.0f || result->r != result->period)
        abort ();
      return;
    }
  if (result->next != (result->segment + 1) % (gint) block->n_keys)
    abort ();
  {
    guint k = (guint) result->segment;
    guint32 begin = k > 0 ? block->keys[k - 1].k1 : 0;
    guint32 end = block->keys[k].k1;

    if (begin <= result->r && result->r < end)
      {
        /* the largest such k: no later key's interval holds r */
        for (guint j = k + 1; j < block->n_keys; j++)
          if (block->keys[j - 1].k1 <= result->r && result->r < block->keys[j].k1)
            abort ();
      }
    else if (!(result->r == result->period && k == block->n_keys - 1u &&
               result->alpha == 1.0f))
      abort ();
  }
}

static void
check_material (const Mat0Material *m, const guint8 *payload, gsize size, guint32 seed)
{
  g_autoptr(GBytes) encoded = mat0_encode (m);
  g_autoptr(Mat0Material) again = NULL;
  g_autofree PhaseRuntime *phases = NULL;

  if (g_bytes_get_size (encoded) != size ||
      memcmp (g_bytes_get_data (encoded, NULL), payload, size) != 0)
    abort ();
  again = mat0_decode (g_bytes_get_data (encoded, NULL), size, m->attr2, "x", 0, NULL);
  if (again == NULL || !mat0_material_equal (m, again))
    abort ();

  phases = g_new0 (PhaseRuntime, MAX (m->n_phases, 1));
  phase_eval_expand_material (m, phases);
  for (guint b = 0; b <= m->n_blocks; b++)
    {
      PhaseEvalInput input = {
        .phases = phases,
        .n_phases = m->n_phases,
        .block = b < m->n_blocks ? &m->blocks[b] : NULL,
        .static_phase = seed % (m->n_phases + 2u),
      };
      PhaseEvalResult result;
      const guint32 times[] = { 0, 1, seed, seed * 7u, G_MAXUINT32, 250, 1000 };

      for (guint t = 0; t < G_N_ELEMENTS (times); t++)
        {
          PhaseEvalResult other;

          phase_eval_at_time (&input, times[t], seed, seed >> 3, &result);
          check_result (&input, &result);
          /* mode 3 sits at R % period whatever the time */
          if (result.mode == PHASE_EVAL_MODE_RANDOM && result.period > 0 && m->n_phases > 0)
            {
              phase_eval_at_time (&input, times[t] + 12345u, 0, seed >> 3, &other);
              if (other.r != result.r || other.r != (seed >> 3) % result.period)
                abort ();
            }
          phase_eval_at_t (&input, (float) t / 6.0f, &result);
          check_result (&input, &result);
        }
      /* t = 1 ends the last interval */
      phase_eval_at_t (&input, 1.0f, &result);
      check_result (&input, &result);
      if (result.period > 0 && m->n_phases > 0 && result.r != result.period)
        abort ();
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(NresArchive) archive = nres_archive_parse (bytes, NULL);
  g_autoptr(GPtrArray) diags = NULL;
  g_autoptr(GBytes) same = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GError) error = NULL;
  NresOutEntry *out;
  guint n_out;
  gint first_mat0 = -1;

  if (archive == NULL)
    return 0;

  for (guint i = 0; i < archive->n_entries; i++)
    {
      const NresEntry *e = &archive->entries[i];
      g_autoptr(Mat0Material) m = NULL;
      const guint8 *payload;
      gsize len;

      if (e->type_id != NRES_TYPE_MAT0)
        continue;
      payload = nres_archive_payload (archive, i, &len);
      m = mat0_decode (payload, len, e->attr2, "x", e->data_offset, NULL);
      if (m == NULL)
        continue;
      if (first_mat0 < 0)
        first_mat0 = (gint) i;
      check_material (m, payload, len, (guint32) size * 2654435761u);
    }

  diags = mat0_validate_archive (archive);
  (void) nres_archive_find (archive, "DEFAULT");

  /* an unchanged preserving save is the identity */
  out = nres_out_entries_from_archive (archive, &n_out);
  same = nres_write_preserving (archive, out, n_out, &error);
  if (same == NULL || !g_bytes_equal (same, bytes))
    abort ();

  /* a size-changing edit gives an archive that parses again */
  if (first_mat0 >= 0)
    {
      gsize len;
      const guint8 *payload = nres_archive_payload (archive, (guint) first_mat0, &len);
      g_autoptr(Mat0Material) m = mat0_decode (payload, len, archive->entries[first_mat0].attr2, "x", 0, NULL);
      g_autoptr(NresArchive) reparsed = NULL;

      m->phases = g_renew (Mat0Phase, m->phases, m->n_phases + 1u);
      memset (&m->phases[m->n_phases], 0, sizeof (Mat0Phase));
      if (m->n_phases < G_MAXUINT16)
        m->n_phases++;
      out[first_mat0].payload = mat0_encode (m);
      edited = nres_write_preserving (archive, out, n_out, &error);
      if (edited == NULL)
        {
          if (!g_error_matches (error, NRES_ERROR, NRES_ERROR_OVERLAP))
            abort ();
        }
      else
        {
          reparsed = nres_archive_parse (edited, NULL);
          if (reparsed == NULL)
            abort ();
        }
    }
  nres_out_entries_free (out, n_out);
  return 0;
}
