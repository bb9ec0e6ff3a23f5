/* test-support.c - byte builders for tests */
#include "config.h"

#include <string.h>

#include "test-support.h"

void
test_put_u8 (GByteArray *array, guint8 v)
{
  g_byte_array_append (array, &v, 1);
}

void
test_put_u16 (GByteArray *array, guint16 v)
{
  guint8 b[2] = { v & 0xFF, v >> 8 };
  g_byte_array_append (array, b, 2);
}

void
test_put_u32 (GByteArray *array, guint32 v)
{
  guint8 b[4] = { v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, v >> 24 };
  g_byte_array_append (array, b, 4);
}

void
test_put_bytes (GByteArray *array, const void *data, gsize len)
{
  g_byte_array_append (array, data, len);
}

void
test_put_phase (GByteArray *array, const guint8 p[18], const char *texture)
{
  guint8 tex[16] = { 0 };

  g_assert_cmpuint (strlen (texture), <=, 16);
  memcpy (tex, texture, strlen (texture));
  test_put_bytes (array, p, 18);
  test_put_bytes (array, tex, 16);
}

guint32
test_get_u32 (const guint8 *d)
{
  return (guint32) d[0] | ((guint32) d[1] << 8) | ((guint32) d[2] << 16) | ((guint32) d[3] << 24);
}

guint16
test_get_u16 (const guint8 *d)
{
  return (guint16) (d[0] | (d[1] << 8));
}

static int
compare_names (const char *a, const char *b)
{
  for (;; a++, b++)
    {
      guchar ca = (guchar) *a, cb = (guchar) *b;
      if (ca >= 'A' && ca <= 'Z')
        ca += 32;
      if (cb >= 'A' && cb <= 'Z')
        cb += 32;
      if (ca != cb || ca == 0)
        return (int) ca - (int) cb;
    }
}

static const TestEntrySpec *sort_specs;

static int
compare_indices (gconstpointer a, gconstpointer b)
{
  guint ia = *(const guint *) a, ib = *(const guint *) b;
  int c = compare_names (sort_specs[ia].name, sort_specs[ib].name);

  return c != 0 ? c : (int) ia - (int) ib;
}

GBytes *
test_build_archive (const TestEntrySpec *specs, guint n_specs, gboolean align8)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree guint32 *offsets = g_new0 (guint32, n_specs + 1);
  g_autofree guint *order = g_new0 (guint, n_specs + 1);

  test_put_bytes (out, "NRes", 4);
  test_put_u32 (out, 0x100);
  test_put_u32 (out, n_specs);
  test_put_u32 (out, 0);   /* total_size, patched below */

  for (guint i = 0; i < n_specs; i++)
    {
      offsets[i] = out->len;
      test_put_bytes (out, specs[i].payload, specs[i].size);
      while (align8 && out->len % 8 != 0)
        test_put_u8 (out, 0);
      for (gsize g = 0; g < specs[i].gap_after; g++)
        test_put_u8 (out, 0xA0 + i);
    }

  for (guint i = 0; i < n_specs; i++)
    order[i] = i;
  sort_specs = specs;
  qsort (order, n_specs, sizeof (guint), (int (*) (const void *, const void *)) compare_indices);

  for (guint i = 0; i < n_specs; i++)
    {
      char name[36] = { 0 };

      g_assert_cmpuint (strlen (specs[i].name), <, 36);
      memcpy (name, specs[i].name, strlen (specs[i].name));
      test_put_u32 (out, specs[i].type_id);
      test_put_u32 (out, specs[i].attr1);
      test_put_u32 (out, specs[i].attr2);
      test_put_u32 (out, specs[i].size);
      test_put_u32 (out, specs[i].attr3);
      test_put_bytes (out, name, 36);
      test_put_u32 (out, offsets[i]);
      test_put_u32 (out, order[i]);
    }

  out->data[12] = out->len & 0xFF;
  out->data[13] = (out->len >> 8) & 0xFF;
  out->data[14] = (out->len >> 16) & 0xFF;
  out->data[15] = out->len >> 24;

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

GBytes *
test_worked_example_payload (guint mode)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint8 p0[18] = { 0 };
  guint8 p1[18] = { 0 };

  p1[4] = p1[5] = p1[6] = p1[7] = 255;
  test_put_u16 (out, 2);             /* phaseCount */
  test_put_u16 (out, 1);             /* animBlockCount */
  test_put_u8 (out, 255);            /* metaA */
  test_put_u8 (out, 255);            /* metaB */
  test_put_u32 (out, 0x3F800000u);   /* metaC */
  test_put_u32 (out, 0);             /* metaD */
  test_put_phase (out, p0, "");
  test_put_phase (out, p1, "");
  test_put_u32 (out, (0x02u << 3) | mode);
  test_put_u16 (out, 2);
  test_put_u16 (out, 0); test_put_u16 (out, 500); test_put_u16 (out, 0);
  test_put_u16 (out, 1); test_put_u16 (out, 1000); test_put_u16 (out, 0);

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

char *
test_build_path (const char *name)
{
  const char *dir = g_getenv ("G_TEST_BUILDDIR");

  return g_build_filename (dir != NULL ? dir : ".", name, NULL);
}

GBytes *
test_load_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);

  return g_bytes_new_take (contents, len);
}
