/* test-texture-cli.c - mat0tool texture-import and texture-export */
#include "config.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "nres.h"
#include "cli-support.h"
#include "test-support.h"
#include "texm-convert.h"


static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static char *
write_tmp (const char *name, const void *data, gsize len)
{
  char *path = tmp_path (name);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, data, (gssize) len, &error);
  g_assert_no_error (error);
  return path;
}

/* A private copy of the demo Textures.lib. */
static char *
demo_copy (const char *name)
{
  g_autoptr(GBytes) demo = test_load_file (g_getenv ("DEMO_TEXTURES"));

  return write_tmp (name, g_bytes_get_data (demo, NULL), g_bytes_get_size (demo));
}

/* A w x h picture: R = 4 x, G = 8 y, B = x ^ y, A from @alpha. */
static guint8 *
make_pixels (guint w, guint h, guint8 (*alpha) (guint x, guint y))
{
  guint8 *rgba = g_malloc ((gsize) w * h * 4);

  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        guint8 *p = rgba + ((gsize) y * w + x) * 4;

        p[0] = (guint8) (x * 4);
        p[1] = (guint8) (y * 8);
        p[2] = (guint8) ((x ^ y) * 5);
        p[3] = alpha != NULL ? alpha (x, y) : 255;
      }
  return rgba;
}

static guint8
graded_alpha (guint x, guint y)
{
  return (guint8) (x * 4 + y);
}

static guint8
binary_alpha (guint x, guint y)
{
  return (x + y) % 2 ? 0 : 255;
}

static char *
save_png (const char *name, const guint8 *rgba, guint w, guint h)
{
  char *path = tmp_path (name);
  g_autoptr(GdkPixbuf) pixbuf =
    gdk_pixbuf_new_from_data (rgba, GDK_COLORSPACE_RGB, TRUE, 8, (int) w, (int) h,
                              (int) w * 4, NULL, NULL);
  g_autoptr(GError) error = NULL;

  gdk_pixbuf_save (pixbuf, path, "png", &error, NULL);
  g_assert_no_error (error);
  return path;
}

/* The pixels of a PNG as RGBA rows without padding. */
static guint8 *
load_png (const char *path, guint *w, guint *h)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new_from_file (path, &error);
  guint8 *rgba;

  g_assert_no_error (error);
  g_assert_true (gdk_pixbuf_get_has_alpha (pixbuf));
  *w = (guint) gdk_pixbuf_get_width (pixbuf);
  *h = (guint) gdk_pixbuf_get_height (pixbuf);
  rgba = g_malloc ((gsize) *w * *h * 4);
  for (guint y = 0; y < *h; y++)
    memcpy (rgba + (gsize) y * *w * 4,
            gdk_pixbuf_read_pixels (pixbuf) + (gsize) y * gdk_pixbuf_get_rowstride (pixbuf),
            (gsize) *w * 4);
  return rgba;
}

static NresArchive *
parse_archive (const char *path)
{
  g_autoptr(GBytes) bytes = test_load_file (path);
  g_autoptr(GError) error = NULL;
  NresArchive *archive = nres_archive_parse (bytes, &error);

  g_assert_no_error (error);
  return archive;
}

static GBytes *
encode (const guint8 *rgba, guint w, guint h, guint32 format)
{
  TexmEncodeOptions options;
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  texm_encode_options_init (&options, format);
  bytes = texm_encode (rgba, w, h, 0, &options, NULL, &error);
  g_assert_no_error (error);
  return bytes;
}

/* Every entry of @before is in @after at the same index with the same
 * payload bytes and directory fields, except @changed. */
static void
assert_others_kept (const NresArchive *before,
                    const NresArchive *after,
                    gint               changed)
{
  for (guint i = 0; i < before->n_entries; i++)
    {
      const NresEntry *a = &before->entries[i];
      const NresEntry *b = &after->entries[i];
      gsize la, lb;
      const guint8 *pa, *pb;

      g_assert_cmpmem (a->name, NRES_NAME_SIZE, b->name, NRES_NAME_SIZE);
      g_assert_cmphex (a->type_id, ==, b->type_id);
      g_assert_cmpuint (a->attr1, ==, b->attr1);
      g_assert_cmpuint (a->attr2, ==, b->attr2);
      g_assert_cmpuint (a->attr3, ==, b->attr3);
      if ((gint) i == changed)
        continue;
      pa = nres_archive_payload (before, i, &la);
      pb = nres_archive_payload (after, i, &lb);
      g_assert_cmpmem (pa, la, pb, lb);
    }
}

/* ---- tests ------------------------------------------------------------- */

static void
test_import_new (void)
{
  g_autofree char *lib = demo_copy ("new.lib");
  g_autofree char *out = tmp_path ("new-out.lib");
  g_autofree char *png_out = tmp_path ("new-level0.png");
  g_autofree guint8 *rgba = make_pixels (64, 32, graded_alpha);
  g_autofree char *png = save_png ("new.png", rgba, 64, 32);
  g_autoptr(NresArchive) before = NULL, after = NULL;
  g_autoptr(GBytes) expect = NULL, payload = NULL;
  g_autofree guint8 *back = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 };
  NresEntry *e;
  guint w, h;

  guint n;
  g_autofree char *added = NULL;
  g_autofree char *listed = NULL;

  before = parse_archive (lib);
  n = before->n_entries;
  added = g_strdup_printf ("NEW.0: added entry %u: format 8888, 64x32, 7 mips, 10956 bytes, exact\n", n);
  listed = g_strdup_printf ("%5u  NEW.0             format 8888  64x32  mips 7\n", n);
  run_tool (&r1, "texture-import", lib, "NEW.0", png, "--format", "8888", "-o", out, NULL);
  g_assert_cmpstr (r1.err, ==, "");
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_cmpstr (r1.out, ==, added);

  /* the listing shows it after the demo's textures */
  run_tool (&r2, "textures", out, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_nonnull (strstr (r2.out, listed));

  /* the entry: a Texm payload equal to the core's encode, and nothing
   * else of the library changed */
  after = parse_archive (out);
  g_assert_cmpuint (after->n_entries, ==, before->n_entries + 1);
  assert_others_kept (before, after, -1);
  e = &after->entries[n];
  g_assert_cmpstr (e->name, ==, "NEW.0");
  g_assert_cmphex (e->type_id, ==, NRES_TYPE_TEXM);
  g_assert_cmpuint (e->attr1, ==, 0);
  g_assert_cmpuint (e->attr2, ==, 0);
  g_assert_cmpuint (e->attr3, ==, 0);
  g_assert_cmpuint (e->data_offset % 8, ==, 0);
  g_assert_true (after->sort_index_canonical);
  expect = encode (rgba, 64, 32, 8888);
  payload = nres_archive_payload_bytes (after, n);
  g_assert_true (g_bytes_equal (payload, expect));

  /* export gives the same pixels back */
  run_tool (&r3, "texture-export", out, "new.0", "-o", png_out, NULL);
  g_assert_cmpstr (r3.err, ==, "");
  g_assert_cmpint (r3.status, ==, 0);
  g_assert_cmpstr (r3.out, ==, "NEW.0: level 0, 64x32, format 8888\n");
  back = load_png (png_out, &w, &h);
  g_assert_cmpuint (w, ==, 64);
  g_assert_cmpuint (h, ==, 32);
  g_assert_cmpmem (back, 64 * 32 * 4, rgba, 64 * 32 * 4);

  /* the library passes the archive checks */
  run_tool (&r4, "check", out, NULL);
  g_assert_cmpint (r4.status, ==, 0);
}

static void
test_import_replace (void)
{
  g_autofree char *lib = demo_copy ("replace.lib");
  g_autofree char *out = tmp_path ("replace-out.lib");
  g_autofree guint8 *rgba = make_pixels (32, 32, NULL);
  g_autofree char *png = save_png ("replace.png", rgba, 32, 32);
  g_autoptr(NresArchive) before = NULL, after = NULL;
  g_autoptr(GBytes) expect = NULL, payload = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 };

  /* "rock.0" names ROCK.0, entry 0 (565 64x64 in the demo) */
  run_tool (&r1, "texture-import", lib, "rock.0", png, "--format", "565", "--dither",
            "-o", out, NULL);
  g_assert_cmpstr (r1.err, ==, "");
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_true (g_str_has_prefix (r1.out, "rock.0: replaced entry 0: format 565, 32x32, 6 mips, "));

  before = parse_archive (lib);
  after = parse_archive (out);
  g_assert_cmpuint (after->n_entries, ==, before->n_entries);
  /* name bytes, type and attributes kept; the other payloads untouched */
  assert_others_kept (before, after, 0);
  g_assert_cmpuint (after->entries[0].sort_index, ==, before->entries[0].sort_index);
  {
    TexmEncodeOptions options;
    g_autoptr(GError) error = NULL;

    texm_encode_options_init (&options, 565);
    options.dither = TRUE;
    expect = texm_encode (rgba, 32, 32, 0, &options, NULL, &error);
    g_assert_no_error (error);
  }
  payload = nres_archive_payload_bytes (after, 0);
  g_assert_true (g_bytes_equal (payload, expect));

  run_tool (&r2, "textures", out, NULL);
  g_assert_nonnull (strstr (r2.out, "    0  ROCK.0            format 565   32x32  mips 6\n"));
}

/* Palettes are B, G, R, X (formats.md 3): an import writes red as
 * (0, 0, 255, 0), texture-export and textures --png give red back; a
 * replace keeps the replaced texture's flags5 and unk6, a new texture has
 * 0, 0; flags4 is 32 for a chain. */
static void
test_import_palette_and_flags (void)
{
  g_autoptr(GBytes) demo = test_load_file (g_getenv ("DEMO_TEXTURES"));
  g_autoptr(NresArchive) demo_archive = parse_archive (g_getenv ("DEMO_TEXTURES"));
  g_autofree char *lib = NULL;
  g_autofree char *out = tmp_path ("palette-out.lib");
  g_autofree char *out2 = tmp_path ("palette-out2.lib");
  g_autofree char *exported = tmp_path ("palette-export.png");
  g_autofree char *dir = tmp_path ("palette-png");
  g_autofree char *listed = g_build_filename (dir, "ROCK.0.png", NULL);
  g_autofree char *lava = g_build_filename (dir, "LAVA.A.png", NULL);
  static const guint8 old_flags[8] = { 0x00, 0x00, 0x00, 0x02,   0x10, 0x20, 0x30, 0x40 };
  /* red, green, blue, red on 2x2 */
  static const guint8 rgba[] = {
    255, 0, 0, 255,   0, 255, 0, 255,   0, 0, 255, 255,   255, 0, 0, 255,
  };
  g_autofree char *png = save_png ("palette.png", rgba, 2, 2);
  g_autoptr(NresArchive) after = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 };
  const guint8 *d;
  gint rock = nres_archive_find (demo_archive, "ROCK.0");

  /* the demo with ROCK.0's flags5 0x02000000 (an alpha surface) and unk6
   * 0x40302010 */
  g_assert_cmpint (rock, >=, 0);
  {
    g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (demo, NULL), g_bytes_get_size (demo));

    memcpy (copy + demo_archive->entries[rock].data_offset + 20, old_flags, 8);
    lib = write_tmp ("palette.lib", copy, g_bytes_get_size (demo));
  }

  run_tool (&r1, "texture-import", lib, "ROCK.0", png, "--format", "0", "-o", out, NULL);
  g_assert_cmpstr (r1.err, ==, "");
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_nonnull (strstr (r1.out, "replaced entry"));
  after = parse_archive (out);
  payload = nres_archive_payload_bytes (after, (guint) rock);
  d = g_bytes_get_data (payload, NULL);
  /* 2 levels: flags4 32; flags5 and unk6 as they were */
  g_assert_cmpuint (test_get_u32 (d + 12), ==, 2);
  g_assert_cmpuint (test_get_u32 (d + 16), ==, 32);
  g_assert_cmpmem (d + 20, 8, old_flags, 8);
  g_assert_cmpuint (test_get_u32 (d + 28), ==, 0);
  /* sorted by 0xRRGGBB: blue, green, red, each written B, G, R, 0 */
  g_assert_cmpmem (d + 32, 16, ((const guint8[]) { 0, 0, 0, 0,   255, 0, 0, 0,   0, 255, 0, 0,   0, 0, 255, 0 }), 16);
  for (guint e = 4; e < 256; e++)
    g_assert_cmpmem (d + 32 + e * 4, 4, ((const guint8[]) { 0, 0, 255, 0 }), 4);
  /* level 0: red 3, green 2, blue 1, red 3 */
  g_assert_cmpmem (d + 32 + 1024, 4, ((const guint8[]) { 3, 2, 1, 3 }), 4);

  /* what the export and the listing decode is the picture */
  run_tool (&r2, "texture-export", out, "ROCK.0", "-o", exported, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  run_tool (&r3, "textures", out, "--png", dir, NULL);
  g_assert_cmpint (r3.status, ==, 0);
  {
    guint w = 0, h = 0;
    g_autofree guint8 *back = load_png (exported, &w, &h);
    g_autofree guint8 *back2 = load_png (listed, &w, &h);
    g_autofree guint8 *hot = load_png (lava, &w, &h);
    guint reds = 0;

    g_assert_cmpmem (back, sizeof rgba, rgba, sizeof rgba);
    g_assert_cmpmem (back2, sizeof rgba, rgba, sizeof rgba);
    /* the demo's palettised LAVA.A is lava: black, red, orange, yellow,
     * white (red >= green >= blue everywhere), never blue */
    for (gsize i = 0; i < (gsize) w * h; i++)
      {
        const guint8 *p = hot + i * 4;

        g_assert_cmpuint (p[0], >=, p[1]);
        g_assert_cmpuint (p[1], >=, p[2]);
        reds += p[0] > p[2] + 100;
      }
    g_assert_cmpuint (reds, >, w * h / 8);
  }

  /* a new texture: flags5 and unk6 0; one level: flags4 0 */
  run_tool (&r4, "texture-import", out, "NEWPAL.0", png, "--format", "0", "--mips", "1",
            "-o", out2, NULL);
  g_assert_cmpint (r4.status, ==, 0);
  {
    g_autoptr(NresArchive) added = parse_archive (out2);
    g_autoptr(GBytes) fresh = nres_archive_payload_bytes (added, added->n_entries - 1);
    const guint8 *f = g_bytes_get_data (fresh, NULL);

    g_assert_cmpuint (test_get_u32 (f + 16), ==, 0);
    g_assert_cmpuint (test_get_u32 (f + 20), ==, 0);
    g_assert_cmpuint (test_get_u32 (f + 24), ==, 0);
    g_assert_cmpmem (f + 32 + 12, 4, ((const guint8[]) { 0, 0, 255, 0 }), 4);
  }
}

static void
test_export_level (void)
{
  const char *lib = g_getenv ("DEMO_TEXTURES");
  g_autofree char *png = tmp_path ("metal-2.png");
  g_autoptr(NresArchive) archive = parse_archive (lib);
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(TexmImage) image = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *expect = NULL, *back = NULL;
  g_auto(Run) r = { 0 };
  guint w, h;

  run_tool (&r, "texture-export", lib, "METAL.0", "--level", "2", "-o", png, NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "METAL.0: level 2, 16x16, format 8888\n");
  payload = nres_archive_payload_bytes (archive, 1);
  image = texm_parse (payload, "METAL.0", 0, &error);
  g_assert_no_error (error);
  expect = texm_decode_rgba (image, 2, NULL, NULL);
  back = load_png (png, &w, &h);
  g_assert_cmpuint (w, ==, 16);
  g_assert_cmpuint (h, ==, 16);
  g_assert_cmpmem (back, 16 * 16 * 4, expect, 16 * 16 * 4);
}

static gboolean
has_temp_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, ".goutputstream"))
      return TRUE;
  return FALSE;
}

static void
test_in_place_atomic (void)
{
  g_autofree char *lib = demo_copy ("inplace.lib");
  g_autofree guint8 *alpha = make_pixels (16, 16, graded_alpha);
  g_autofree char *alpha_png = save_png ("inplace-alpha.png", alpha, 16, 16);
  g_autoptr(GBytes) before = test_load_file (lib);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(NresArchive) a = NULL, b = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 };

  /* a refused import leaves the library alone */
  run_tool (&r1, "texture-import", lib, "ALPHA.0", alpha_png, "--format", "565", "-o", lib, NULL);
  g_assert_cmpint (r1.status, ==, 1);
  g_assert_true (g_str_has_suffix (r1.err, "inplace-alpha.png: format 565 has no alpha: expected an "
                                   "opaque picture (alpha 255), found alpha 0 at x 0, y 0; "
                                   "choose 4444, 88 or 8888, or drop the alpha\n"));
  after = test_load_file (lib);
  g_assert_true (g_bytes_equal (before, after));
  g_clear_pointer (&after, g_bytes_unref);

  /* -o equal to the input: replaced through a temporary file */
  run_tool (&r2, "texture-import", lib, "ALPHA.0", alpha_png, "--format", "565",
            "--drop-alpha", "-o", lib, NULL);
  g_assert_cmpstr (r2.err, ==, "");
  g_assert_cmpint (r2.status, ==, 0);
  a = nres_archive_parse (before, NULL);
  b = parse_archive (lib);
  g_assert_cmpuint (b->n_entries, ==, a->n_entries + 1);
  assert_others_kept (a, b, -1);
  g_assert_false (has_temp_files (tmp_dir));
}

static void
test_formats_and_options (void)
{
  g_autofree char *lib = demo_copy ("formats.lib");
  g_autofree char *out = tmp_path ("formats-out.lib");
  g_autofree guint8 *binary = make_pixels (32, 32, binary_alpha);
  g_autofree char *binary_png = save_png ("binary.png", binary, 32, 32);
  g_autofree guint8 *opaque = make_pixels (64, 64, NULL);
  g_autofree char *opaque_png = save_png ("opaque.png", opaque, 64, 64);
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(TexmImage) image = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 };
  const guint8 *d;
  guint first = 0;

  /* auto: binary alpha, few colours -> 4444 */
  run_tool (&r1, "texture-import", lib, "AUTO.0", binary_png, "--format", "auto", "-o", out, NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_true (g_str_has_prefix (r1.out, "AUTO.0: added entry "));
  g_assert_nonnull (strstr (r1.out, ": format 4444, 32x32, 6 mips"));

  /* a palette with a Page chunk: 4096 colours, quantized */
  run_tool (&r2, "texture-import", out, "PAL.B3", opaque_png, "--format", "0",
            "--cells", "0,32,0,32;32,32,0,32;0,64,32,32", "-o", out, NULL);
  g_assert_cmpstr (r2.err, ==, "");
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_nonnull (strstr (r2.out, ", Page 3 cells, 255 colours (quantized), largest channel error "));

  /* one level: flags4 0 */
  run_tool (&r3, "texture-import", out, "FLAT.0", opaque_png, "--format", "888", "--mips", "1",
            "-o", out, NULL);
  g_assert_cmpint (r3.status, ==, 0);
  {
    /* the three come after the demo's own textures */
    g_autoptr(NresArchive) demo = parse_archive (lib);
    guint n = demo->n_entries;
    g_autofree char *flat = g_strdup_printf ("FLAT.0: added entry %u: format 888, 64x64, 1 mips, 16416 bytes, exact\n", n + 2);
    g_autofree char *line0 = g_strdup_printf ("%5u  AUTO.0            format 4444  32x32  mips 6\n", n);
    g_autofree char *line1 = g_strdup_printf ("%5u  PAL.B3            format 0     64x64  mips 7  page 3 rects\n", n + 1);
    g_autofree char *line2 = g_strdup_printf ("%5u  FLAT.0            format 888   64x64  mips 1\n", n + 2);

    g_assert_cmpstr (r3.out, ==, flat);
    run_tool (&r4, "textures", out, NULL);
    g_assert_nonnull (strstr (r4.out, line0));
    g_assert_nonnull (strstr (r4.out, line1));
    g_assert_nonnull (strstr (r4.out, line2));
    first = n;
  }

  archive = parse_archive (out);
  payload = nres_archive_payload_bytes (archive, first + 1);
  image = texm_parse (payload, "PAL.B3", 0, NULL);
  g_assert_nonnull (image);
  g_assert_cmpuint (image->header.flags4, ==, 32);
  g_assert_cmpuint (image->n_rects, ==, 3);
  g_assert_cmpint (image->rects[2].w, ==, 64);
  g_assert_cmpint (image->rects[2].y, ==, 32);
  /* index 0 never used */
  d = g_bytes_get_data (payload, NULL);
  for (gsize i = image->mip_offsets[0]; i < g_bytes_get_size (payload) - 8 - 3 * 8; i++)
    g_assert_cmpuint (d[i], !=, 0);
  g_clear_pointer (&payload, g_bytes_unref);
  payload = nres_archive_payload_bytes (archive, first + 2);
  g_assert_cmpuint (test_get_u32 ((const guint8 *) g_bytes_get_data (payload, NULL) + 16), ==, 0);
}

/* A 2x2 24-bit BMP, written by hand: rows bottom-up, B G R, padded to 4. */
static GBytes *
bmp_2x2 (const guint8 rgb[4][3])
{
  GByteArray *a = g_byte_array_new ();
  static const guint order[4] = { 2, 3, 0, 1 };   /* bottom row first */

  test_put_bytes (a, "BM", 2);
  test_put_u32 (a, 14 + 40 + 16);
  test_put_u32 (a, 0);
  test_put_u32 (a, 14 + 40);
  test_put_u32 (a, 40);
  test_put_u32 (a, 2);
  test_put_u32 (a, 2);
  test_put_u16 (a, 1);
  test_put_u16 (a, 24);
  for (guint i = 0; i < 6; i++)
    test_put_u32 (a, 0);
  for (guint i = 0; i < 4; i++)
    {
      const guint8 *p = rgb[order[i]];

      test_put_u8 (a, p[2]);
      test_put_u8 (a, p[1]);
      test_put_u8 (a, p[0]);
      if (i % 2 == 1)
        test_put_u16 (a, 0);
    }
  return g_byte_array_free_to_bytes (a);
}

/* A 2x2 32-bit uncompressed TGA, top-left origin, B G R A. */
static GBytes *
tga_2x2 (const guint8 rgba[16])
{
  GByteArray *a = g_byte_array_new ();
  static const guint8 head[18] = { 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 32, 0x28 };

  test_put_bytes (a, head, sizeof head);
  for (guint i = 0; i < 4; i++)
    {
      test_put_u8 (a, rgba[i * 4 + 2]);
      test_put_u8 (a, rgba[i * 4 + 1]);
      test_put_u8 (a, rgba[i * 4 + 0]);
      test_put_u8 (a, rgba[i * 4 + 3]);
    }
  return g_byte_array_free_to_bytes (a);
}

static void
import_export (const char   *lib,
               const char   *picture,
               const char   *name,
               const char   *format,
               const guint8 *expect)
{
  g_autofree char *png = tmp_path ("picture-back.png");
  g_autofree guint8 *back = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 };
  guint w, h;

  run_tool (&r1, "texture-import", lib, name, picture, "--format", format, "-o", lib, NULL);
  g_assert_cmpstr (r1.err, ==, "");
  g_assert_cmpint (r1.status, ==, 0);
  run_tool (&r2, "texture-export", lib, name, "-o", png, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  back = load_png (png, &w, &h);
  g_assert_cmpuint (w, ==, 2);
  g_assert_cmpuint (h, ==, 2);
  g_assert_cmpmem (back, 16, expect, 16);
}

static void
test_picture_types (void)
{
  static const guint8 rgb[4][3] = { { 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 }, { 10, 20, 30 } };
  static const guint8 opaque[16] = {
    255, 0, 0, 255,   0, 255, 0, 255,   0, 0, 255, 255,   10, 20, 30, 255,
  };
  static const guint8 translucent[16] = {
    255, 0, 0, 255,   0, 255, 0, 128,   0, 0, 255, 0,   10, 20, 30, 77,
  };
  g_autofree char *lib = demo_copy ("types.lib");
  g_autoptr(GBytes) bmp = bmp_2x2 (rgb);
  g_autoptr(GBytes) tga = tga_2x2 (translucent);
  g_autofree char *bmp_path = write_tmp ("two.bmp", g_bytes_get_data (bmp, NULL), g_bytes_get_size (bmp));
  g_autofree char *tga_path = write_tmp ("two.tga", g_bytes_get_data (tga, NULL), g_bytes_get_size (tga));
  g_autofree char *jpeg_path = tmp_path ("two.jpg");
  g_autoptr(GdkPixbuf) flat = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 8, 8);
  g_autoptr(GError) error = NULL;
  g_auto(Run) r = { 0 };

  import_export (lib, bmp_path, "BMP.0", "888", opaque);
  import_export (lib, tga_path, "TGA.0", "8888", translucent);

  /* JPEG: lossy, so only that it imports */
  gdk_pixbuf_fill (flat, 0x808080FFu);
  gdk_pixbuf_save (flat, jpeg_path, "jpeg", &error, NULL);
  g_assert_no_error (error);
  run_tool (&r, "texture-import", lib, "JPEG.0", jpeg_path, "--format", "565", "-o", lib, NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "JPEG.0: added entry "));
  g_assert_nonnull (strstr (r.out, ": format 565, 8x8, 4 mips"));
}

static void
test_errors (void)
{
  const char *demo = g_getenv ("DEMO_TEXTURES");
  g_autofree char *out = tmp_path ("never.lib");
  g_autofree guint8 *odd = make_pixels (48, 32, NULL);
  g_autofree char *odd_png = save_png ("odd.png", odd, 48, 32);
  g_autofree guint8 *ok = make_pixels (8, 8, NULL);
  g_autofree char *ok_png = save_png ("ok.png", ok, 8, 8);
  g_autofree char *not_png = write_tmp ("not.png", "not a picture", 13);
  g_autofree char *mat_lib = NULL;
  g_autoptr(GBytes) mat_bytes = NULL;
  static const guint8 mat_payload[4] = { 0, 0, 0, 0 };
  TestEntrySpec spec = { NRES_TYPE_MAT0, 0, 1, 0, "STONE.0", mat_payload, 4, 0 };
  Run r[16] = { { 0 } };
  guint i = 0;

  /* usage: exit 2 */
  run_tool (&r[i], "texture-import", demo, "ROCK", ok_png, "--format", "565", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 2);
  g_assert_nonnull (strstr (r[i++].err, "texture name “ROCK”: expected a '.'"));
  run_tool (&r[i], "texture-import", demo, "ROCK.[", ok_png, "--format", "565", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 2);
  g_assert_nonnull (strstr (r[i++].err, "with an index below 286, found 286"));
  run_tool (&r[i], "texture-import", demo, "VERYLONGNAME123.0", ok_png, "--format", "565", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 2);
  g_assert_nonnull (strstr (r[i++].err, "The name is too long: at most 15 bytes fit"));
  run_tool (&r[i], "texture-import", demo, "A.0", ok_png, "--format", "555", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 2);
  g_assert_nonnull (strstr (r[i++].err, "--format: expected 0, 565, 556, 4444, 88, 888, 8888 or auto, found 555"));
  run_tool (&r[i], "texture-import", demo, "A.0", ok_png, "--format", "565", NULL);
  g_assert_cmpint (r[i].status, ==, 2);
  g_assert_nonnull (strstr (r[i++].err, "texture-import needs -o OUT"));
  run_tool (&r[i], "texture-import", demo, "A.0", ok_png, "--format", "565", "--cells", "0,4,0", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 2);
  g_assert_nonnull (strstr (r[i++].err, "--cells: cell 0: expected x,w,y,h, found '0,4,0'"));
  run_tool (&r[i], "texture-import", demo, "A.0", ok_png, "--format", "565", "--cells", "0,4,0,4;4,8,0,4", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 2);
  g_assert_nonnull (strstr (r[i++].err, "--cells: cell 1 (x 4, w 8, y 0, h 4): expected a rectangle "
                                      "of positive size inside the 8x8 picture"));
  run_tool (&r[i], "texture-import", demo, "A.0", "/nonexistent.png", "--format", "565", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 2);
  g_assert_true (g_str_has_prefix (r[i++].err, "/nonexistent.png: "));
  run_tool (&r[i], "texture-import", demo, "A.0", tmp_dir, "--format", "565", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 2);
  g_assert_nonnull (strstr (r[i++].err, ": This is a folder, not a file"));
  run_tool (&r[i], "texture-export", demo, "ROCK.0", "--level", "7", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 2);
  g_assert_nonnull (strstr (r[i++].err, "--level: ROCK.0 has mip levels 0..6, found 7"));

  /* invalid input: exit 1 */
  run_tool (&r[i], "texture-import", demo, "A.0", odd_png, "--format", "565", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 1);
  g_assert_true (g_str_has_suffix (r[i++].err, "odd.png: the picture is 48x32: expected each side a power "
                                            "of two from 1 to 1024, found a width of 48 "
                                            "(--resize scale or --resize pad makes it 64x32)\n"));
  run_tool (&r[i], "texture-import", demo, "A.0", not_png, "--format", "565", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 1);
  g_assert_true (g_str_has_prefix (r[i++].err, not_png));
  run_tool (&r[i], "texture-export", demo, "NOPE.0", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 1);
  g_assert_nonnull (strstr (r[i++].err, "NOPE.0: no such entry"));

  /* a name that is not a Texm entry is neither replaced nor exported */
  mat_bytes = test_build_archive (&spec, 1, TRUE);
  mat_lib = write_tmp ("mat.lib", g_bytes_get_data (mat_bytes, NULL), g_bytes_get_size (mat_bytes));
  run_tool (&r[i], "texture-import", mat_lib, "stone.0", ok_png, "--format", "565", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 1);
  g_assert_nonnull (strstr (r[i++].err, "STONE.0: expected a Texm entry to replace, found entry 0 of type MAT0"));
  run_tool (&r[i], "texture-export", mat_lib, "STONE.0", "-o", out, NULL);
  g_assert_cmpint (r[i].status, ==, 1);
  g_assert_nonnull (strstr (r[i++].err, "STONE.0: expected a Texm entry, found type MAT0"));

  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (i, <=, G_N_ELEMENTS (r));
  for (guint k = 0; k < i; k++)
    run_clear (&r[k]);
}

/* A 48x20 picture: refused as it is (test_errors), made 64x32 by
 * --resize: scaled bilinear or padded with its last column and row, the
 * texture's level 0 the fitted picture exactly (8888 stores it as it
 * is), the same bytes texm_fit_power_of_two gives. */
static void
test_import_resize (void)
{
  g_autofree char *lib = demo_copy ("resize.lib");
  g_autofree char *scaled = tmp_path ("resize-scaled.lib");
  g_autofree char *padded = tmp_path ("resize-padded.lib");
  g_autofree char *level0 = tmp_path ("resize-level0.png");
  g_autofree guint8 *rgba = make_pixels (48, 20, NULL);
  g_autofree char *png = save_png ("resize.png", rgba, 48, 20);
  g_autofree guint8 *expect_scaled = NULL;
  g_autofree guint8 *expect_padded = NULL;
  g_autofree guint8 *back = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) before = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, r5 = { 0 };
  g_autofree char *line = NULL;
  guint w = 0, h = 0;

  expect_scaled = texm_fit_power_of_two (rgba, 48, 20, 0, TEXM_RESIZE_SCALE, &w, &h, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w, ==, 64);
  g_assert_cmpuint (h, ==, 32);
  expect_padded = texm_fit_power_of_two (rgba, 48, 20, 0, TEXM_RESIZE_PAD, &w, &h, &error);
  g_assert_no_error (error);
  /* padding: the last column's texel at x 63, the last row's at y 31 */
  g_assert_cmpmem (expect_padded + (31 * 64 + 63) * 4, 4, rgba + (19 * 48 + 47) * 4, 4);

  before = parse_archive (lib);
  line = g_strdup_printf ("ODD.0: added entry %u: format 8888, 64x32, 7 mips, 10956 bytes, "
                          "scaled (bilinear) from 48x20, exact\n", before->n_entries);
  run_tool (&r1, "texture-import", lib, "ODD.0", png, "--format", "8888", "--resize", "scale",
            "-o", scaled, NULL);
  g_assert_cmpstr (r1.err, ==, "");
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_cmpstr (r1.out, ==, line);
  run_tool (&r2, "texture-export", scaled, "ODD.0", "-o", level0, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  back = load_png (level0, &w, &h);
  g_assert_cmpuint (w, ==, 64);
  g_assert_cmpuint (h, ==, 32);
  g_assert_cmpmem (back, 64 * 32 * 4, expect_scaled, 64 * 32 * 4);
  g_clear_pointer (&back, g_free);

  run_tool (&r3, "texture-import", lib, "ODD.0", png, "--format", "8888", "--resize", "pad",
            "-o", padded, NULL);
  g_assert_cmpint (r3.status, ==, 0);
  g_assert_nonnull (strstr (r3.out, ", padded (edge pixels) from 48x20, "));
  run_tool (&r4, "texture-export", padded, "ODD.0", "-o", level0, NULL);
  g_assert_cmpint (r4.status, ==, 0);
  back = load_png (level0, &w, &h);
  g_assert_cmpmem (back, 64 * 32 * 4, expect_padded, 64 * 32 * 4);

  /* an unknown way: a usage error, nothing written */
  g_unlink (scaled);
  run_tool (&r5, "texture-import", lib, "ODD.0", png, "--format", "8888", "--resize", "crop",
            "-o", scaled, NULL);
  g_assert_cmpint (r5.status, ==, 2);
  g_assert_nonnull (strstr (r5.err, "--resize: expected scale or pad, found crop"));
  g_assert_false (g_file_test (scaled, G_FILE_TEST_EXISTS));
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("mat0tool-texture-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/texture/import-new", test_import_new);
  g_test_add_func ("/cli/texture/import-replace", test_import_replace);
  g_test_add_func ("/cli/texture/palette-and-flags", test_import_palette_and_flags);
  g_test_add_func ("/cli/texture/export-level", test_export_level);
  g_test_add_func ("/cli/texture/in-place-atomic", test_in_place_atomic);
  g_test_add_func ("/cli/texture/formats-and-options", test_formats_and_options);
  g_test_add_func ("/cli/texture/picture-types", test_picture_types);
  g_test_add_func ("/cli/texture/errors", test_errors);
  g_test_add_func ("/cli/texture/import-resize", test_import_resize);

  status = g_test_run ();
  g_free (tmp_dir);
  return status;
}
