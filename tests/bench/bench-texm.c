/* bench-texm.c - texture import and decode against baselines of the same run
 *
 * Import: a 1024x1024 picture encoded to each format with the whole mip
 * chain, beside a plain memcpy of its 4 MiB of pixels; for format 0 also
 * beside libimagequant's own quantize + remap of the same picture (the
 * part of the work that is not ours). Decode: every Texm entry of a
 * library parsed and every mip level decoded to RGBA8, beside a memcpy of
 * the file. Ratios only; nothing is asserted about time.
 */
#include "config.h"

#include <libimagequant.h>
#include <string.h>

#include "nres.h"
#include "test-support.h"
#include "texm-convert.h"

static volatile guint64 sink;

typedef void (*BenchFunc) (gpointer data);

/* Best time of one call over @rounds rounds; short calls are repeated for
 * about 20 ms per round so the clock's resolution does not matter. */
static double
best_of (BenchFunc func, gpointer data, guint rounds)
{
  double best = G_MAXDOUBLE;
  gint64 t0 = g_get_monotonic_time ();
  guint repeat;

  func (data);   /* warm up, and size the rounds */
  repeat = MAX (1u, (guint) (20000 / MAX (g_get_monotonic_time () - t0, 1)));

  for (guint r = 0; r < rounds; r++)
    {
      gint64 start = g_get_monotonic_time ();

      for (guint i = 0; i < repeat; i++)
        func (data);
      best = MIN (best, (double) (g_get_monotonic_time () - start) / repeat);
    }
  return best;   /* microseconds per call */
}

#define SIDE 1024

typedef struct {
  guint8            *pixels;
  guint8            *scratch;
  TexmEncodeOptions  options;
} ImportBench;

static void
copy_pixels (gpointer data)
{
  ImportBench *b = data;

  memcpy (b->scratch, b->pixels, (gsize) SIDE * SIDE * 4);
  sink += b->scratch[SIDE * 2 + 1];
}

static void
encode (gpointer data)
{
  ImportBench *b = data;
  g_autoptr(GBytes) bytes = texm_encode (b->pixels, SIDE, SIDE, 0, &b->options, NULL, NULL);

  g_assert (bytes != NULL);
  sink += g_bytes_get_size (bytes);
}

/* libimagequant alone: what texm_encode asks of it for format 0 */
static void
quantize_only (gpointer data)
{
  ImportBench *b = data;
  liq_attr *attr = liq_attr_create ();
  liq_image *image;
  liq_result *result = NULL;

  liq_set_max_colors (attr, 255);
  image = liq_image_create_rgba (attr, b->pixels, SIDE, SIDE, 0);
  g_assert (liq_image_quantize (image, attr, &result) == LIQ_OK);
  liq_set_dithering_level (result, b->options.dither ? 1.0f : 0.0f);
  g_assert (liq_write_remapped_image (result, image, b->scratch, (gsize) SIDE * SIDE) == LIQ_OK);
  sink += liq_get_palette (result)->count;
  liq_result_destroy (result);
  liq_image_destroy (image);
  liq_attr_destroy (attr);
}

/* A photograph-like picture: smooth shading, hard edges, some noise, all
 * opaque (formats without alpha take it as it is); many thousand colours. */
static guint8 *
make_picture (void)
{
  guint8 *rgba = g_malloc ((gsize) SIDE * SIDE * 4);
  guint32 seed = 12345;

  for (guint y = 0; y < SIDE; y++)
    for (guint x = 0; x < SIDE; x++)
      {
        guint8 *p = rgba + ((gsize) y * SIDE + x) * 4;
        int n;

        seed = seed * 1664525u + 1013904223u;
        n = (int) (seed >> 28) - 8;
        p[0] = (guint8) CLAMP ((int) (x / 4) + n, 0, 255);
        p[1] = (guint8) CLAMP ((int) (y / 4) + n, 0, 255);
        p[2] = (guint8) CLAMP (((x / 64 + y / 64) % 2 ? 200 : 40) + n, 0, 255);
        p[3] = 255;
      }
  return rgba;
}

static void
bench_import (void)
{
  static const struct { guint32 format; gboolean dither; } runs[] = {
    { 8888, FALSE }, { 888, FALSE }, { 88, FALSE },
    { 565, FALSE }, { 565, TRUE }, { 556, FALSE }, { 4444, FALSE }, { 4444, TRUE },
    { 0, FALSE }, { 0, TRUE },
  };
  ImportBench b;
  double copy;

  b.pixels = make_picture ();
  b.scratch = g_malloc ((gsize) SIDE * SIDE * 4);
  copy = best_of (copy_pixels, &b, 15);
  g_print ("import %dx%d: memcpy of the pixels %10.1f us\n", SIDE, SIDE, copy);

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      double t;

      texm_encode_options_init (&b.options, runs[i].format);
      b.options.dither = runs[i].dither;
      t = best_of (encode, &b, runs[i].format == 0 ? 3 : 5);
      g_print ("import to %-4u%-9s %10.1f us  %7.1fx memcpy", runs[i].format,
               runs[i].dither ? " dithered" : "", t, t / copy);
      if (runs[i].format == 0)
        {
          double liq = best_of (quantize_only, &b, 3);

          g_print ("  libimagequant alone %10.1f us  ratio %5.2fx", liq, t / liq);
        }
      g_print ("\n");
    }

  g_free (b.pixels);
  g_free (b.scratch);
}

typedef struct {
  GBytes *bytes;
  guint8 *scratch;
} LibBench;

static void
copy_file (gpointer data)
{
  LibBench *b = data;
  gsize len;
  const guint8 *src = g_bytes_get_data (b->bytes, &len);

  memcpy (b->scratch, src, len);
  sink += b->scratch[len / 2];
}

static void
decode_library (gpointer data)
{
  LibBench *b = data;
  g_autoptr(NresArchive) archive = nres_archive_parse (b->bytes, NULL);

  g_assert (archive != NULL);
  for (guint i = 0; i < archive->n_entries; i++)
    {
      g_autoptr(GBytes) payload = NULL;
      g_autoptr(TexmImage) image = NULL;

      if (archive->entries[i].type_id != NRES_TYPE_TEXM)
        continue;
      payload = nres_archive_payload_bytes (archive, i);
      image = texm_parse (payload, "bench", 0, NULL);
      g_assert (image != NULL);
      for (guint level = 0; level < image->header.mip_count; level++)
        {
          g_autofree guint8 *rgba = texm_decode_rgba (image, level, NULL, NULL);

          sink += rgba[0];
        }
    }
}

static void
bench_decode (const char *path)
{
  LibBench b;
  double copy, decode;

  b.bytes = test_load_file (path);
  b.scratch = g_malloc (g_bytes_get_size (b.bytes));
  copy = best_of (copy_file, &b, 15);
  decode = best_of (decode_library, &b, 15);
  g_print ("decode Textures.lib (%" G_GSIZE_FORMAT " bytes, every level): %10.1f us  "
           "memcpy %8.1f us  ratio %6.2fx\n", g_bytes_get_size (b.bytes), decode, copy,
           decode / copy);
  g_free (b.scratch);
  g_bytes_unref (b.bytes);
}

int
main (int argc, char *argv[])
{
  if (argc != 2)
    {
      g_printerr ("usage: bench-texm Textures.lib\n");
      return 2;
    }
  bench_decode (argv[1]);
  bench_import ();
  return 0;
}
