/* gen-library.c - deterministic synthetic material libraries
 *
 *   gen-library retail OUT   905 MAT0 entries shaped like the retail
 *                            Material.lib (formats.md section 2)
 *   gen-library stress OUT   65,536 MAT0 entries
 *
 * The retail file is licensed and never shipped; tests and benchmarks use
 * these instead. The same seed always gives the same bytes.
 *
 * The retail shape (formats.md 2.2-2.4): tracks whose key times end the
 * intervals (strictly increasing; the period is the last key's time);
 * of 962 tracks 821 loop, 96 ping-pong, 44 once and 1 random; 848 with
 * interp mask 0 (flip-books), 106 with mask 1, 8 with other masks (three
 * of them fades of the ambient alpha, like FIRESTORM); attr1 0 on 54
 * materials, 2 on 417, 4 on 219, 5 on 1 and 8 on 214; every alpha byte
 * 100 except the ambient alpha of the fades.
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
  /* every alpha byte is 100 in retail (the fades change p3) */
  phase->p[3] = 100;
  phase->p[7] = 100;
  phase->p[11] = 100;
  phase->p[15] = 100;
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

/* A track of @n_keys keys over the phases; each key's time ends its
 * interval, 50..2000 ms after the previous one. */
static void
random_block (GRand *rand, Mat0Block *block, guint n_phases, guint mode, guint32 mask)
{
  gint n_keys = (gint) n_phases + g_rand_int_range (rand, -1, 2);
  guint32 time = 0;

  block->header_raw = (mask << 3) | mode;
  block->n_keys = (guint16) MAX (1, n_keys);
  block->keys = g_new0 (Mat0Key, block->n_keys);
  for (guint k = 0; k < block->n_keys; k++)
    {
      time += 50 * (guint32) g_rand_int_range (rand, 1, 41);
      block->keys[k].k0 = (guint16) (k % n_phases);
      block->keys[k].k1 = (guint16) time;
      block->keys[k].k2 = 0;
    }
}

/* A fade-in like FIRESTORM: the ambient alpha steps 0, 60, 80, 90, 95, 100
 * over six phases, mask 0x10 blends it, mode once holds the last phase.
 * The last interval is 1 ms, so nothing blends back to key 0. */
static void
fade_block (Mat0Material *m, Mat0Block *block)
{
  static const guint8 alpha[6] = { 0, 60, 80, 90, 95, 100 };

  g_assert (m->n_phases == G_N_ELEMENTS (alpha));
  for (guint p = 0; p < m->n_phases; p++)
    m->phases[p].p[3] = alpha[p];
  block->header_raw = (0x10u << 3) | 2;
  block->n_keys = 6;
  block->keys = g_new0 (Mat0Key, 6);
  for (guint k = 0; k < 6; k++)
    {
      block->keys[k].k0 = (guint16) k;
      block->keys[k].k1 = (guint16) (k < 5 ? 150 * (k + 1) : 751);
    }
}

/* Shuffles @n values in place (Fisher-Yates). */
static void
shuffle (GRand *rand, guint32 *values, guint n)
{
  for (guint i = n; i-- > 1;)
    {
      guint j = (guint) g_rand_int_range (rand, 0, (gint32) i + 1);
      guint32 t = values[i];

      values[i] = values[j];
      values[j] = t;
    }
}

/* Fills @out with @count copies of @value from *@at on. */
static void
fill (guint32 *out, guint *at, guint count, guint32 value)
{
  for (guint i = 0; i < count; i++)
    out[(*at)++] = value;
}

#define RETAIL_TRACKS 962
#define RETAIL_FADES  3
#define TRACK(mode, mask) (((guint32) (mask) << 3) | (mode))

/* The (mode, mask) of the 959 tracks that are not fades, shuffled:
 * with the fades, 821 loop, 96 ping-pong, 44 once, 1 random; 848 mask 0,
 * 106 mask 1, 8 other. */
static guint32 *
retail_tracks (GRand *rand)
{
  guint32 *tracks = g_new (guint32, RETAIL_TRACKS - RETAIL_FADES);
  guint n = 0;

  fill (tracks, &n, 738, TRACK (0, 0));
  fill (tracks, &n, 68, TRACK (1, 0));
  fill (tracks, &n, 41, TRACK (2, 0));
  fill (tracks, &n, 1, TRACK (3, 0));
  fill (tracks, &n, 80, TRACK (0, 0x01));
  fill (tracks, &n, 26, TRACK (1, 0x01));
  fill (tracks, &n, 1, TRACK (0, 0x02));
  fill (tracks, &n, 1, TRACK (0, 0x03));
  fill (tracks, &n, 1, TRACK (0, 0x08));
  fill (tracks, &n, 1, TRACK (1, 0x0A));
  fill (tracks, &n, 1, TRACK (1, 0x1F));
  g_assert (n == RETAIL_TRACKS - RETAIL_FADES);
  shuffle (rand, tracks, n);
  return tracks;
}

/* attr1 of the 905 materials, shuffled: 0 x54, 2 x417, 4 x219, 5 x1, 8 x214 */
static guint32 *
retail_attr1 (GRand *rand, guint n_materials)
{
  guint32 *attr1 = g_new (guint32, n_materials);
  guint n = 0;

  fill (attr1, &n, 54, 0);
  fill (attr1, &n, 417, 2);
  fill (attr1, &n, 219, 4);
  fill (attr1, &n, 1, 5);
  fill (attr1, &n, 214, 8);
  g_assert (n == n_materials);
  shuffle (rand, attr1, n);
  return attr1;
}

/* Shapes 532..534: one block each, a fade */
static gboolean
retail_is_fade (guint shape)
{
  return shape >= 532 && shape < 532 + RETAIL_FADES;
}

static guint
retail_phase_count (GRand *rand, guint i)
{
  /* 531 of 905 have one phase; the rest 2..29 (one with 29); the fades
   * have six. */
  if (i < 531)
    return 1;
  if (i == 531)
    return 29;
  if (retail_is_fade (i))
    return 6;
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
  g_autofree guint32 *tracks = NULL;
  g_autofree guint32 *attr1 = NULL;
  guint next_track = 0;
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

  if (retail)
    {
      tracks = retail_tracks (rand);
      attr1 = retail_attr1 (rand, n);
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
        {
          if (retail && retail_is_fade (shape))
            fade_block (m, &m->blocks[b]);
          else if (retail)
            {
              guint32 track = tracks[next_track++];

              random_block (rand, &m->blocks[b], n_phases, track & 7, track >> 3);
            }
          else
            random_block (rand, &m->blocks[b], n_phases,
                          (guint) g_rand_int_range (rand, 0, 4),
                          (guint32) g_rand_int_range (rand, 0, 32));
        }

      out[i].source = -1;
      out[i].entry.type_id = NRES_TYPE_MAT0;
      out[i].entry.attr1 = retail ? attr1[i]
                           : (guint32) g_rand_int_range (rand, 0, 4) == 0 ? 0x41 : 0x01;
      out[i].entry.attr2 = MAT0_CANONICAL_ATTR2;
      out[i].entry.attr3 = 0;
      if (!nres_entry_set_name (&out[i].entry, name, &error))
        g_error ("%s", error->message);
      out[i].payload = mat0_encode (m);
    }

  if (retail)
    g_assert (next_track == RETAIL_TRACKS - RETAIL_FADES);

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
