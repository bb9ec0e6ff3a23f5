/* gen-library.c - deterministic synthetic material libraries
 *
 *   gen-library retail OUT   905 MAT0 entries shaped like the retail
 *                            Material.lib (formats.md section 2)
 *   gen-library stress OUT   65,536 MAT0 entries
 *
 * The retail file is licensed and never shipped; tests and benchmarks use
 * these instead. The same seed always gives the same bytes.
 */
#include "config.h"

#include <string.h>

#include "mat0.h"
#include "nres.h"

static const char *const stems[] = {
  "ROCK", "WALL", "METAL", "GLASS", "TANK", "BASE", "TOWER", "ROAD", "SAND",
  "LAVA", "WATER", "ICE", "ARMOR", "HULL", "ENGINE", "LIGHT", "FIRE", "SMOKE",
  "PANEL", "DOOR", "FLOOR", "PIPE", "CABLE", "SCREEN", "ROBOT", "LEG", "GUN",
  "TRACK", "MINE", "CRATER", "TREE", "GRASS", "SKY", "CLOUD", "SHIELD", "BEAM",
};

static const char *const prefixes[] = {
  "", "", "", "MAT_", "UNIT_", "BLD_", "FX_", "TER_", "SHIP_",
};

static void
random_name (GRand *rand, guint index, char *out, gsize size)
{
  const char *prefix = prefixes[g_rand_int_range (rand, 0, G_N_ELEMENTS (prefixes))];
  const char *stem = stems[g_rand_int_range (rand, 0, G_N_ELEMENTS (stems))];

  /* The index keeps names unique, as in the retail library. */
  g_snprintf (out, size, "%s%s_%u", prefix, stem, index);
}

static void
random_phase (GRand *rand, Mat0Phase *phase, gboolean textured)
{
  for (guint i = 0; i < MAT0_PARAM_COUNT; i++)
    phase->p[i] = (guint8) g_rand_int_range (rand, 0, 256);
  phase->p[3] = (guint8) g_rand_int_range (rand, 0, 101);
  phase->p[16] = (guint8) g_rand_int_range (rand, 0, 100);
  phase->p[17] = g_rand_int_range (rand, 0, 8) == 0 ? (guint8) g_rand_int_range (rand, 0, 4) : 255;
  memset (phase->texture, 0, sizeof phase->texture);
  if (textured)
    {
      char name[16];
      const char *stem = stems[g_rand_int_range (rand, 0, G_N_ELEMENTS (stems))];
      static const char *const suffixes[] = { "0", "0", "0", "A", "B1", "C" };

      g_snprintf (name, sizeof name, "%.6s%u.%s", stem, g_rand_int_range (rand, 0, 10),
                  suffixes[g_rand_int_range (rand, 0, G_N_ELEMENTS (suffixes))]);
      memcpy (phase->texture, name, strlen (name));
    }
}

static void
random_block (GRand *rand, Mat0Block *block, guint n_phases)
{
  static const guint32 masks[] = { 0x02, 0x02, 0x0A, 0x08, 0x03, 0x1F, 0x00, 0x10 };
  guint mode = (guint) g_rand_int_range (rand, 0, 10);

  mode = mode < 7 ? 0 : mode - 6;   /* mostly loops, some 1..3 */
  block->header_raw = (masks[g_rand_int_range (rand, 0, G_N_ELEMENTS (masks))] << 3) | mode;
  gint n_keys = (gint) n_phases + g_rand_int_range (rand, -1, 2);

  block->n_keys = (guint16) MAX (1, n_keys);
  block->keys = g_new0 (Mat0Key, block->n_keys);
  for (guint k = 0; k < block->n_keys; k++)
    {
      block->keys[k].k0 = (guint16) (k % n_phases);
      block->keys[k].k1 = (guint16) (50 * g_rand_int_range (rand, 1, 41));
      block->keys[k].k2 = 0;
    }
}

static guint
retail_phase_count (GRand *rand, guint i)
{
  /* 531 of 905 have one phase; the rest 2..29 (one with 29). */
  if (i < 531)
    return 1;
  if (i == 531)
    return 29;
  return (guint) g_rand_int_range (rand, 2, 13);
}

static guint
retail_block_count (guint i)
{
  /* 860 have one block, 43 two, 2 eight. */
  if (i < 860)
    return 1;
  if (i < 903)
    return 2;
  return 8;
}

int
main (int argc, char *argv[])
{
  g_autoptr(GRand) rand = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree guint *order = NULL;
  NresOutEntry *out;
  gboolean retail;
  guint n;

  if (argc != 3 || (!g_str_equal (argv[1], "retail") && !g_str_equal (argv[1], "stress")))
    {
      g_printerr ("usage: gen-library retail|stress OUT\n");
      return 2;
    }
  retail = g_str_equal (argv[1], "retail");
  n = retail ? 905 : 65536;
  rand = g_rand_new_with_seed (retail ? 905 : 65536);

  /* Shuffle which directory slot gets which shape, so counts are exact
   * but not sorted. */
  order = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    order[i] = i;
  for (guint i = n - 1; i > 0; i--)
    {
      guint j = (guint) g_rand_int_range (rand, 0, (gint32) i + 1);
      guint t = order[i];
      order[i] = order[j];
      order[j] = t;
    }

  out = g_new0 (NresOutEntry, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(Mat0Material) m = mat0_material_new_canonical ();
      guint shape = order[i];
      char name[NRES_NAME_SIZE];
      guint n_phases, n_blocks;

      if (i == 0)
        g_strlcpy (name, "DEFAULT", sizeof name);
      else
        random_name (rand, i, name, sizeof name);

      n_phases = retail ? retail_phase_count (rand, shape) : (guint) g_rand_int_range (rand, 1, 9);
      n_blocks = retail ? retail_block_count (shape) : (guint) g_rand_int_range (rand, 0, 3);

      g_free (m->phases);
      m->n_phases = (guint16) n_phases;
      m->phases = g_new0 (Mat0Phase, n_phases);
      for (guint p = 0; p < n_phases; p++)
        random_phase (rand, &m->phases[p], g_rand_int_range (rand, 0, 5) != 0);
      m->n_blocks = (guint16) n_blocks;
      m->blocks = g_new0 (Mat0Block, n_blocks);
      for (guint b = 0; b < n_blocks; b++)
        random_block (rand, &m->blocks[b], n_phases);

      out[i].source = -1;
      out[i].entry.type_id = NRES_TYPE_MAT0;
      out[i].entry.attr1 = (guint32) g_rand_int_range (rand, 0, 4) == 0 ? 0x41 : 0x01;
      out[i].entry.attr2 = MAT0_CANONICAL_ATTR2;
      out[i].entry.attr3 = 0;
      if (!nres_entry_set_name (&out[i].entry, name, &error))
        g_error ("%s", error->message);
      out[i].payload = mat0_encode (m);
    }

  bytes = nres_write_repack (NULL, out, n, &error);
  nres_out_entries_free (out, n);
  if (bytes == NULL ||
      !g_file_set_contents (argv[2], g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error))
    {
      g_printerr ("gen-library: %s\n", error->message);
      return 1;
    }
  return 0;
}
