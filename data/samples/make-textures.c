/* make-textures.c - writes the demo Textures.lib: procedural textures, one
 * in each of the seven Texm formats, under the names the demo materials
 * use. Two carry a Page chunk of four cells: ATLAS.0 (framed, for people)
 * and ATLAS4.0 (four flat colours, for tests); GLOW.0 and SMOKE.0 have
 * graded alpha; LEAVES.0 (for the demo tree) is a cut-out: alpha 0 or 255.
 * The game draws the alpha of 4444 and 8888 only, and of textures whose
 * flags5 puts them on an alpha surface (render.md 2): SMOKE.0, in 88,
 * carries that bit (0x1000000) so that its smoke is see-through in the
 * game too.
 *
 * Usage: make-textures OUTPUT.lib
 *
 * Deterministic: integer hashing and integer arithmetic only (no rand (),
 * no libm), so every build writes the same bytes.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "nres.h"
#include "texm.h"

/* A small integer hash of a lattice point. */
static guint32
hash3 (guint32 x,
       guint32 y,
       guint32 seed)
{
  guint32 h = x * 0x8DA6B343u ^ y * 0xD8163841u ^ seed * 0xCB1AB31Fu;

  h ^= h >> 13;
  h *= 0x5BD1E995u;
  h ^= h >> 15;
  h *= 0x27D4EB2Du;
  h ^= h >> 16;

  return h;
}

/* Smoothstep weight of @f in 0..@cell as 0..256. */
static guint
smooth (guint f,
        guint cell)
{
  guint t = f * 256 / cell;

  return t * t * (3 * 256 - 2 * t) / 65536;
}

/* Value noise, 0..255, tileable over @size pixels: lattice cells of
 * @cx x @cy pixels (both dividing @size), bilinear with smoothstep. */
static guint
noise (guint   x,
       guint   y,
       guint   cx,
       guint   cy,
       guint   size,
       guint32 seed)
{
  guint px = size / cx, py = size / cy;
  guint gx = x / cx, gy = y / cy;
  guint gx1 = (gx + 1) % px, gy1 = (gy + 1) % py;
  guint sx = smooth (x % cx, cx), sy = smooth (y % cy, cy);
  guint a = hash3 (gx, gy, seed) & 0xFF;
  guint b = hash3 (gx1, gy, seed) & 0xFF;
  guint c = hash3 (gx, gy1, seed) & 0xFF;
  guint d = hash3 (gx1, gy1, seed) & 0xFF;
  guint top = (a * (256 - sx) + b * sx) / 256;
  guint bottom = (c * (256 - sx) + d * sx) / 256;

  return (top * (256 - sy) + bottom * sy) / 256;
}

/* Four octaves of square value noise, 0..255. */
static guint
fbm (guint   x,
     guint   y,
     guint   size,
     guint32 seed)
{
  guint sum = 8 * noise (x, y, 16, 16, size, seed) +
              4 * noise (x, y, 8, 8, size, seed + 1) +
              2 * noise (x, y, 4, 4, size, seed + 2) +
              1 * noise (x, y, 2, 2, size, seed + 3);

  return sum / 15;
}

static guint8
clamp8 (int v)
{
  return (guint8) CLAMP (v, 0, 255);
}

/* A triangle wave of period @period, 0..255. */
static guint
triangle (guint t,
          guint period)
{
  guint p = t % period;
  guint half = period / 2;

  return (p < half ? p : period - p) * 255 / half;
}

static void
put_px (guint8 *rgba,
        guint   size,
        guint   x,
        guint   y,
        int     r,
        int     g,
        int     b,
        int     a)
{
  guint8 *p = rgba + ((gsize) y * size + x) * 4;

  p[0] = clamp8 (r);
  p[1] = clamp8 (g);
  p[2] = clamp8 (b);
  p[3] = clamp8 (a);
}

static guint8 *
draw_rock (guint size)
{
  guint8 *rgba = g_malloc ((gsize) size * size * 4);

  for (guint y = 0; y < size; y++)
    for (guint x = 0; x < size; x++)
      {
        int n = (int) fbm (x, y, size, 11);
        int grain = (int) (hash3 (x, y, 12) & 0x1F) - 16;
        int v = 40 + n * 3 / 4 + grain;

        /* darker cracks where the coarse noise crosses the middle */
        if (ABS ((int) noise (x, y, 16, 16, size, 13) - 128) < 6)
          v -= 50;
        put_px (rgba, size, x, y, v + 8, v, v - 10, 255);
      }

  return rgba;
}

static guint8 *
draw_metal (guint size)
{
  guint8 *rgba = g_malloc ((gsize) size * size * 4);

  for (guint y = 0; y < size; y++)
    for (guint x = 0; x < size; x++)
      {
        /* long horizontal streaks: noise stretched along x */
        int streak = (int) noise (x, y, 32, 1, size, 21);
        int fine = (int) noise (x, y, 8, 1, size, 22);
        int v = 120 + streak / 3 + fine / 6;

        put_px (rgba, size, x, y, v, v + 4, v + 12, 255);
      }

  return rgba;
}

static guint8 *
draw_glow (guint size)
{
  guint8 *rgba = g_malloc ((gsize) size * size * 4);
  int c = (int) size - 1;            /* centre at (size - 1) / 2, doubled */
  int r2 = (int) (size * size);      /* radius size / 2, doubled, squared */

  for (guint y = 0; y < size; y++)
    for (guint x = 0; x < size; x++)
      {
        int dx = 2 * (int) x - c, dy = 2 * (int) y - c;
        int d2 = dx * dx + dy * dy;
        int t = d2 >= r2 ? 0 : 255 - d2 * 255 / r2;   /* 255 at the centre */
        int core = t * t / 255;

        put_px (rgba, size, x, y, 255, 140 + core * 115 / 255, 40 + core * 200 / 255,
                t * t / 255);
      }

  return rgba;
}

static guint8 *
draw_water (guint size)
{
  guint8 *rgba = g_malloc ((gsize) size * size * 4);

  for (guint y = 0; y < size; y++)
    for (guint x = 0; x < size; x++)
      {
        int n = (int) noise (x, y, 16, 16, size, 31);
        /* diagonal waves, bent by the noise */
        int w = (int) triangle (x + 2 * y + (guint) n / 16, 16);
        int crest = w > 220 ? (w - 220) * 3 : 0;

        put_px (rgba, size, x, y, 10 + crest, 60 + w / 5 + crest, 140 + w / 3 + crest / 2, 255);
      }

  return rgba;
}

/* Lava palette: black, red, orange, yellow, white over indices 0..255,
 * as the payload stores it: B, G, R, 0 (formats.md 3). */
static void
lava_palette (guint8 *palette)
{
  for (guint i = 0; i < 256; i++)
    {
      int v = (int) i;

      palette[i * 4 + 0] = clamp8 ((v - 170) * 3);
      palette[i * 4 + 1] = clamp8 ((v - 85) * 3);
      palette[i * 4 + 2] = clamp8 (v * 3);
      palette[i * 4 + 3] = 0;
    }
}

static guint8 *
draw_lava (guint         size,
           const guint8 *palette)
{
  guint8 *rgba = g_malloc ((gsize) size * size * 4);

  for (guint y = 0; y < size; y++)
    for (guint x = 0; x < size; x++)
      {
        int n = (int) fbm (x, y, size, 41);
        /* bright rivers where the noise is near its middle */
        int heat = 255 - ABS (n - 128) * 6;
        const guint8 *e = palette + (gsize) clamp8 (heat) * 4;

        put_px (rgba, size, x, y, e[2], e[1], e[0], 255);
      }

  return rgba;
}

static guint8 *
draw_grass (guint size)
{
  guint8 *rgba = g_malloc ((gsize) size * size * 4);

  for (guint y = 0; y < size; y++)
    for (guint x = 0; x < size; x++)
      {
        int n = (int) fbm (x, y, size, 51);
        /* blades: vertical streaks */
        int blade = (int) noise (x, y, 1, 8, size, 52);
        int v = n / 2 + blade / 2;

        put_px (rgba, size, x, y, 30 + v / 5, 70 + v * 2 / 3, 20 + v / 8, 255);
      }

  return rgba;
}

static guint8 *
draw_smoke (guint size)
{
  guint8 *rgba = g_malloc ((gsize) size * size * 4);
  int c = (int) size - 1;
  int r2 = (int) (size * size);

  for (guint y = 0; y < size; y++)
    for (guint x = 0; x < size; x++)
      {
        int dx = 2 * (int) x - c, dy = 2 * (int) y - c;
        int d2 = dx * dx + dy * dy;
        int fall = d2 >= r2 ? 0 : 255 - d2 * 255 / r2;
        int n = (int) fbm (x, y, size, 61);
        int l = 150 + n / 3;

        put_px (rgba, size, x, y, l, l, l, fall * n / 255);
      }

  return rgba;
}

static guint8 *
draw_atlas (guint size)
{
  static const int colours[4][3] = {
    { 200, 40, 40 }, { 40, 180, 60 }, { 50, 80, 210 }, { 230, 200, 40 },
  };
  guint8 *rgba = g_malloc ((gsize) size * size * 4);
  guint half = size / 2;

  for (guint y = 0; y < size; y++)
    for (guint x = 0; x < size; x++)
      {
        const int *col = colours[(y >= half ? 2 : 0) + (x >= half ? 1 : 0)];
        guint qx = x % half, qy = y % half;
        /* a light frame and a checker inside each quadrant */
        gboolean frame = qx < 2 || qy < 2 || qx >= half - 2 || qy >= half - 2;
        int shade = frame ? 60 : ((qx / 8 + qy / 8) % 2 ? 0 : -30);

        put_px (rgba, size, x, y, col[0] + shade, col[1] + shade, col[2] + shade, 255);
      }

  return rgba;
}

/* Four cells of one flat colour each, for tests that read a cell back:
 * 0 red, 1 green, 2 blue, 3 yellow (the Page rects of ATLAS4.0). */
static guint8 *
draw_atlas4 (guint size)
{
  static const int colours[4][3] = {
    { 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 }, { 255, 255, 0 },
  };
  guint8 *rgba = g_malloc ((gsize) size * size * 4);
  guint half = size / 2;

  for (guint y = 0; y < size; y++)
    for (guint x = 0; x < size; x++)
      {
        const int *col = colours[(y >= half ? 2 : 0) + (x >= half ? 1 : 0)];

        put_px (rgba, size, x, y, col[0], col[1], col[2], 255);
      }

  return rgba;
}

/* A small tree for crossed planes: a trunk and a crown of round clumps
 * with holes, alpha 255 on the leaves and the trunk and 0 everywhere
 * else (dark green there, so that filtering does not bleed a light
 * rim). Texture v runs down: the crown at the top, the trunk below. */
static guint8 *
draw_leaves (guint size)
{
  static const int clumps[][3] = {   /* centre x, y and radius on 64 px */
    { 32, 20, 18 }, { 19, 29, 12 }, { 45, 29, 12 }, { 32, 36, 11 }, { 23, 11, 9 }, { 41, 11, 9 },
  };
  guint8 *rgba = g_malloc ((gsize) size * size * 4);

  for (guint y = 0; y < size; y++)
    for (guint x = 0; x < size; x++)
      {
        int px = (int) (x * 64 / size), py = (int) (y * 64 / size);
        gboolean leaf = FALSE, rim = FALSE;
        int n = (int) fbm (x, y, size, 71);

        for (guint c = 0; c < G_N_ELEMENTS (clumps); c++)
          {
            int dx = px - clumps[c][0], dy = py - clumps[c][1];
            int d2 = dx * dx + dy * dy, r2 = clumps[c][2] * clumps[c][2];

            if (d2 < r2)
              {
                leaf = TRUE;
                rim = rim || d2 * 10 > r2 * 7;
              }
          }
        /* holes between the leaves, more of them at the rim */
        if (leaf && ((hash3 (x / 2, y / 2, 72) & 7) == 0 ||
                     (rim && (hash3 (x, y, 73) & 3) == 0)))
          leaf = FALSE;

        if (leaf)
          put_px (rgba, size, x, y, 30 + n / 5 - py / 3, 80 + n / 2 - py / 2, 20 + n / 8, 255);
        else if (px >= 29 && px < 35 && py >= 40)
          {
            int grain = (int) (hash3 (x, y / 3, 74) & 0x1F);

            put_px (rgba, size, x, y, 85 + grain, 58 + grain / 2, 34, 255);
          }
        else
          put_px (rgba, size, x, y, 40, 70, 30, 0);
      }

  return rgba;
}

/* Full mip chain: 1 + floor (log2 (size)). */
static guint
full_chain (guint size)
{
  guint n = 1;

  while (size > 1)
    {
      size >>= 1;
      n++;
    }

  return n;
}

static GBytes *
make_texture (const char     *name,
              guint32         format,
              guint           size,
              guint8         *rgba,
              const guint8   *palette,
              const TexmRect *rects,
              guint           n_rects)
{
  g_autofree guint8 *pixels = rgba;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(TexmImage) check = NULL;
  g_autoptr(GError) error = NULL;

  payload = texm_encode_rgba (format, size, size, full_chain (size), pixels,
                              palette, rects, n_rects);
  check = texm_parse (payload, name, 0, &error);
  if (check == NULL)
    g_error ("%s: the encoded texture does not parse: %s", name, error->message);

  return g_steal_pointer (&payload);
}

/* @payload with flags5 (+0x14) set to @flags5. Returns: (transfer full) */
static GBytes *
with_flags5 (GBytes  *payload,
             guint32  flags5)
{
  gsize size;
  guint8 *data = g_bytes_unref_to_data (payload, &size);

  g_assert (size >= TEXM_HEADER_SIZE);
  for (guint i = 0; i < 4; i++)
    data[20 + i] = (guint8) (flags5 >> (8 * i));
  return g_bytes_new_take (data, size);
}

int
main (int argc, char *argv[])
{
  static const TexmRect atlas_rects[4] = {
    { 0, 64, 0, 64 }, { 64, 64, 0, 64 }, { 0, 64, 64, 64 }, { 64, 64, 64, 64 },
  };
  /* {x, w, y, h}: cell 0 top left, 1 top right, 2 bottom left, 3 bottom right */
  static const TexmRect atlas4_rects[4] = {
    { 0, 32, 0, 32 }, { 32, 32, 0, 32 }, { 0, 32, 32, 32 }, { 32, 32, 32, 32 },
  };
  guint8 palette[TEXM_PALETTE_SIZE];
  g_autoptr(GBytes) file = NULL;
  g_autoptr(GError) error = NULL;
  NresOutEntry *out;
  struct { const char *name; GBytes *payload; } tex[10];
  guint n = 0;

  if (argc != 2)
    {
      fprintf (stderr, "Usage: %s OUTPUT.lib\n", argv[0]);
      return 2;
    }

  lava_palette (palette);

#define ADD(NAME, EXPR) G_STMT_START { tex[n].name = NAME; tex[n].payload = EXPR; n++; } G_STMT_END
  ADD ("ROCK.0", make_texture ("ROCK.0", 565, 64, draw_rock (64), NULL, NULL, 0));
  ADD ("METAL.0", make_texture ("METAL.0", 8888, 64, draw_metal (64), NULL, NULL, 0));
  ADD ("GLOW.0", make_texture ("GLOW.0", 4444, 32, draw_glow (32), NULL, NULL, 0));
  ADD ("WATER.0", make_texture ("WATER.0", 556, 64, draw_water (64), NULL, NULL, 0));
  ADD ("LAVA.A", make_texture ("LAVA.A", 0, 64, draw_lava (64, palette), palette, NULL, 0));
  ADD ("GRASS.0", make_texture ("GRASS.0", 888, 64, draw_grass (64), NULL, NULL, 0));
  ADD ("SMOKE.0", with_flags5 (make_texture ("SMOKE.0", 88, 32, draw_smoke (32), NULL, NULL, 0),
                               0x1000000u));
  ADD ("ATLAS.0", make_texture ("ATLAS.0", 8888, 128, draw_atlas (128), NULL,
                                atlas_rects, G_N_ELEMENTS (atlas_rects)));
  ADD ("ATLAS4.0", make_texture ("ATLAS4.0", 8888, 64, draw_atlas4 (64), NULL,
                                 atlas4_rects, G_N_ELEMENTS (atlas4_rects)));
  ADD ("LEAVES.0", make_texture ("LEAVES.0", 8888, 64, draw_leaves (64), NULL, NULL, 0));
#undef ADD
  g_assert (n == G_N_ELEMENTS (tex));

  out = g_new0 (NresOutEntry, n);
  for (guint i = 0; i < n; i++)
    {
      out[i].source = -1;
      out[i].entry.type_id = NRES_TYPE_TEXM;
      out[i].entry.attr1 = 0;
      out[i].entry.attr2 = 0;
      out[i].entry.attr3 = 0;
      if (!nres_entry_set_name (&out[i].entry, tex[i].name, &error))
        g_error ("%s: %s", tex[i].name, error->message);
      out[i].payload = tex[i].payload;   /* owned by @out from here */
    }

  file = nres_write_repack (NULL, out, n, &error);
  nres_out_entries_free (out, n);
  if (file == NULL)
    {
      fprintf (stderr, "%s: %s\n", argv[0], error->message);
      return 1;
    }

  if (!g_file_set_contents (argv[1], g_bytes_get_data (file, NULL),
                            (gssize) g_bytes_get_size (file), &error))
    {
      fprintf (stderr, "%s: %s\n", argv[0], error->message);
      return 1;
    }

  return 0;
}
