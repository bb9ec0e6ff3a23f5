/* test-mat0.c - MAT0 decode/encode, metadata by version, errors, helpers */
#include "config.h"

#include <string.h>

#include "cp1251.h"
#include "mat0.h"
#include "test-support.h"

#define META_A 0x11
#define META_B 0x22
#define META_C 0x40490FDBu   /* pi */
#define META_D 0xCAFEBABEu

/* Texture of phase 0: "ROCK.0", a NUL, then bytes that must survive. */
static const guint8 tex0[16] = { 'R', 'O', 'C', 'K', '.', '0', 0, 'X', 'Y', 0, 0, 7, 0, 0, 0, 0x99 };
/* Texture of phase 2: 16 bytes, no NUL. */
static const guint8 tex2[16] = { 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P' };

static void
put_prefix (GByteArray *a, guint32 attr2)
{
  if (attr2 >= 2)
    {
      test_put_u8 (a, META_A);
      test_put_u8 (a, META_B);
    }
  if (attr2 >= 3)
    test_put_u32 (a, META_C);
  if (attr2 >= 4)
    test_put_u32 (a, META_D);
}

/* A payload with every kind of byte: 3 phases (textured with bytes after
 * the NUL, untextured, no NUL), block 0 with unknown header bits and
 * non-zero k2, block 1 with no keys. Body size: 4 + prefix + 102 + 18 + 6. */
static GBytes *
rich_payload (guint32 attr2)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  guint8 p[18];

  test_put_u16 (a, 3);
  test_put_u16 (a, 2);
  put_prefix (a, attr2);

  for (guint i = 0; i < 18; i++)
    p[i] = i + 1;
  test_put_bytes (a, p, 18);
  test_put_bytes (a, tex0, 16);

  memset (p, 0xFF, 18);
  test_put_phase (a, p, "");

  for (guint i = 0; i < 18; i++)
    p[i] = 200 + i;
  test_put_bytes (a, p, 18);
  test_put_bytes (a, tex2, 16);

  test_put_u32 (a, 0xDEADBEEFu);
  test_put_u16 (a, 2);
  test_put_u16 (a, 0); test_put_u16 (a, 500); test_put_u16 (a, 0x1234);
  test_put_u16 (a, 2); test_put_u16 (a, 0); test_put_u16 (a, 0xFFFF);

  test_put_u32 (a, 0x10);
  test_put_u16 (a, 0);

  return g_byte_array_free_to_bytes (g_steal_pointer (&a));
}

/* Decodes from an exactly sized heap copy so ASan sees any over-read. */
static Mat0Material *
decode_exact (const guint8  *data,
              gsize          size,
              guint32        attr2,
              gsize          base,
              gsize         *error_offset,
              GError       **error)
{
  g_autofree guint8 *copy = g_memdup2 (data, size);

  return mat0_decode_full (copy, size, attr2, "ROCK", base, error_offset, error);
}

static void
test_prefix_size (void)
{
  g_assert_cmpuint (mat0_prefix_size (0), ==, 0);
  g_assert_cmpuint (mat0_prefix_size (1), ==, 0);
  g_assert_cmpuint (mat0_prefix_size (2), ==, 2);
  g_assert_cmpuint (mat0_prefix_size (3), ==, 6);
  g_assert_cmpuint (mat0_prefix_size (4), ==, 10);
  g_assert_cmpuint (mat0_prefix_size (6), ==, 10);
  g_assert_cmpuint (mat0_prefix_size (0x1234), ==, 10);
  g_assert_cmpuint (mat0_prefix_size (G_MAXUINT32), ==, 10);

  g_assert_false (mat0_has_meta_ab (1));
  g_assert_true (mat0_has_meta_ab (2));
  g_assert_false (mat0_has_meta_c (2));
  g_assert_true (mat0_has_meta_c (3));
  g_assert_false (mat0_has_meta_d (3));
  g_assert_true (mat0_has_meta_d (4));
  g_assert_true (mat0_has_meta_d (0x1234));
}

static void
check_rich_body (const Mat0Material *m)
{
  g_assert_cmpuint (m->n_phases, ==, 3);
  for (guint i = 0; i < 18; i++)
    {
      g_assert_cmpuint (m->phases[0].p[i], ==, i + 1);
      g_assert_cmpuint (m->phases[1].p[i], ==, 0xFF);
      g_assert_cmpuint (m->phases[2].p[i], ==, 200 + i);
    }
  g_assert_cmpmem (m->phases[0].texture, 16, tex0, 16);
  for (guint i = 0; i < 16; i++)
    g_assert_cmpuint (m->phases[1].texture[i], ==, 0);
  g_assert_cmpmem (m->phases[2].texture, 16, tex2, 16);

  g_assert_cmpuint (m->n_blocks, ==, 2);
  g_assert_cmphex (m->blocks[0].header_raw, ==, 0xDEADBEEFu);
  g_assert_cmpuint (mat0_block_mode (&m->blocks[0]), ==, 7);
  g_assert_cmphex (mat0_block_interp_mask (&m->blocks[0]), ==, 0xDEADBEEFu >> 3);
  g_assert_cmpuint (m->blocks[0].n_keys, ==, 2);
  g_assert_cmpuint (m->blocks[0].keys[0].k0, ==, 0);
  g_assert_cmpuint (m->blocks[0].keys[0].k1, ==, 500);
  g_assert_cmphex (m->blocks[0].keys[0].k2, ==, 0x1234);
  g_assert_cmpuint (m->blocks[0].keys[1].k0, ==, 2);
  g_assert_cmpuint (m->blocks[0].keys[1].k1, ==, 0);
  g_assert_cmphex (m->blocks[0].keys[1].k2, ==, 0xFFFF);
  g_assert_cmphex (m->blocks[1].header_raw, ==, 0x10);
  g_assert_cmpuint (mat0_block_mode (&m->blocks[1]), ==, 0);
  g_assert_cmphex (mat0_block_interp_mask (&m->blocks[1]), ==, 0x02);
  g_assert_cmpuint (m->blocks[1].n_keys, ==, 0);
}

static void
check_version (gconstpointer data)
{
  guint32 attr2 = GPOINTER_TO_UINT (data);
  g_autoptr(GBytes) bytes = rich_payload (attr2);
  g_autoptr(GError) error = NULL;
  g_autoptr(Mat0Material) m = NULL;
  g_autoptr(GBytes) again = NULL;
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);

  g_assert_cmpuint (size, ==, 4 + mat0_prefix_size (attr2) + 102 + 18 + 6);

  m = mat0_decode (d, size, attr2, "ROCK", 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  g_assert_cmphex (m->attr2, ==, attr2);

  /* file values where the version has the field, defaults otherwise */
  g_assert_cmphex (m->meta_a, ==, attr2 >= 2 ? META_A : 255);
  g_assert_cmphex (m->meta_b, ==, attr2 >= 2 ? META_B : 255);
  g_assert_cmphex (m->meta_c, ==, attr2 >= 3 ? META_C : 0x3F800000u);
  g_assert_cmphex (m->meta_d, ==, attr2 >= 4 ? META_D : 0u);
  g_assert_true (mat0_has_meta_ab (m->attr2) == (attr2 >= 2));
  g_assert_true (mat0_has_meta_c (m->attr2) == (attr2 >= 3));
  g_assert_true (mat0_has_meta_d (m->attr2) == (attr2 >= 4));

  check_rich_body (m);

  g_assert_cmpuint (mat0_encoded_size (m), ==, size);
  again = mat0_encode (m);
  g_assert_true (g_bytes_equal (again, bytes));
}

static void
test_decode_exact_bytes (void)
{
  /* attr2 3: counts, metaA, metaB, metaC; one phase; one block with one key */
  static const guint8 payload[] = {
    0x01, 0x00, 0x01, 0x00,
    0x0A, 0x0B, 0x00, 0x00, 0x00, 0x40,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 0xFE,
    'W', '.', 'B', '2', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x0B, 0x00, 0x00, 0x80,   /* mode 3, interp 0x10000001 */
    0x01, 0x00,
    0x00, 0x00, 0xE8, 0x03, 0x07, 0x00,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(Mat0Material) m = decode_exact (payload, sizeof payload, 3, 0,
                                            NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (m->n_phases, ==, 1);
  g_assert_cmpuint (m->meta_a, ==, 0x0A);
  g_assert_cmpuint (m->meta_b, ==, 0x0B);
  g_assert_cmphex (m->meta_c, ==, 0x40000000u);
  g_assert_cmphex (m->meta_d, ==, 0);
  g_assert_cmpuint (m->phases[0].p[0], ==, 1);
  g_assert_cmpuint (m->phases[0].p[16], ==, 17);
  g_assert_cmpuint (m->phases[0].p[17], ==, 0xFE);
  g_assert_cmpstr ((const char *) m->phases[0].texture, ==, "W.B2");
  g_assert_cmpuint (m->n_blocks, ==, 1);
  g_assert_cmphex (m->blocks[0].header_raw, ==, 0x8000000Bu);
  g_assert_cmpuint (mat0_block_mode (&m->blocks[0]), ==, 3);
  g_assert_cmphex (mat0_block_interp_mask (&m->blocks[0]), ==, 0x10000001u);
  g_assert_cmpuint (m->blocks[0].keys[0].k0, ==, 0);
  g_assert_cmpuint (m->blocks[0].keys[0].k1, ==, 1000);
  g_assert_cmpuint (m->blocks[0].keys[0].k2, ==, 7);
}

static void
test_decode_empty (void)
{
  static const guint8 v0[] = { 0, 0, 0, 0 };
  static const guint8 v6[] = { 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  g_autoptr(GError) error = NULL;
  g_autoptr(Mat0Material) m0 = decode_exact (v0, sizeof v0, 0, 0, NULL, &error);
  g_autoptr(Mat0Material) m6 = NULL;
  g_autoptr(GBytes) enc = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (m0->n_phases, ==, 0);
  g_assert_cmpuint (m0->n_blocks, ==, 0);
  g_assert_cmpuint (m0->meta_a, ==, 255);
  enc = mat0_encode (m0);
  g_assert_cmpmem (g_bytes_get_data (enc, NULL), g_bytes_get_size (enc), v0, sizeof v0);

  m6 = decode_exact (v6, sizeof v6, 6, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m6->meta_a, ==, 1);
  g_assert_cmpuint (m6->meta_b, ==, 2);
  g_assert_cmphex (m6->meta_c, ==, 0x06050403u);
  g_assert_cmphex (m6->meta_d, ==, 0x0A090807u);
  g_clear_pointer (&enc, g_bytes_unref);
  enc = mat0_encode (m6);
  g_assert_cmpmem (g_bytes_get_data (enc, NULL), g_bytes_get_size (enc), v6, sizeof v6);
}

static void
test_decode_max_blocks (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(Mat0Material) m = NULL;

  test_put_u16 (a, 0);
  test_put_u16 (a, 19);
  for (guint b = 0; b < 19; b++)
    {
      test_put_u32 (a, b);
      test_put_u16 (a, 0);
    }
  m = decode_exact (a->data, a->len, 0, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_blocks, ==, 19);
  g_assert_cmpuint (m->blocks[18].header_raw, ==, 18);
}

static void
expect_error (const guint8 *data,
              gsize         size,
              guint32       attr2,
              gsize         base,
              gint          code,
              gsize         offset,
              const char   *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(Mat0Material) m = NULL;
  gsize error_offset = 0;

  m = decode_exact (data, size, attr2, base, &error_offset, &error);
  g_assert_null (m);
  g_assert_error (error, MAT0_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
  g_assert_cmpuint (error_offset, ==, offset);

  /* mat0_decode gives the same error */
  g_clear_error (&error);
  {
    g_autofree guint8 *copy = g_memdup2 (data, size);

    m = mat0_decode (copy, size, attr2, "ROCK", base, &error);
  }
  g_assert_null (m);
  g_assert_error (error, MAT0_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_decode_truncated_header (void)
{
  static const guint8 d[14] = { 1, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 };

  expect_error (d, 0, 6, 100, MAT0_ERROR_TRUNCATED_HEADER, 100,
                "ROCK: offset 100: expected 4 bytes of phaseCount and "
                "animBlockCount, found 0");
  expect_error (d, 3, 0, 100, MAT0_ERROR_TRUNCATED_HEADER, 100,
                "ROCK: offset 100: expected 4 bytes of phaseCount and "
                "animBlockCount, found 3");
  expect_error (d, 5, 2, 100, MAT0_ERROR_TRUNCATED_HEADER, 104,
                "ROCK: offset 104: expected 2 bytes of metadata for attr2 2, "
                "found 1");
  expect_error (d, 9, 3, 100, MAT0_ERROR_TRUNCATED_HEADER, 104,
                "ROCK: offset 104: expected 6 bytes of metadata for attr2 3, "
                "found 5");
  expect_error (d, 13, 6, 100, MAT0_ERROR_TRUNCATED_HEADER, 104,
                "ROCK: offset 104: expected 10 bytes of metadata for attr2 6, "
                "found 9");
  expect_error (d, 4, 0x1234, 0, MAT0_ERROR_TRUNCATED_HEADER, 4,
                "ROCK: offset 4: expected 10 bytes of metadata for attr2 4660, "
                "found 0");
}

static void
test_decode_too_many_blocks (void)
{
  static const guint8 d20[] = { 0, 0, 20, 0 };
  static const guint8 d25[] = { 0, 0, 25, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  static const guint8 dmax[] = { 0, 0, 0xFF, 0xFF };

  expect_error (d20, sizeof d20, 0, 0, MAT0_ERROR_TOO_MANY_BLOCKS, 2,
                "ROCK: offset 2: expected animBlockCount < 20, found 20");
  expect_error (d25, sizeof d25, 6, 54, MAT0_ERROR_TOO_MANY_BLOCKS, 56,
                "ROCK: offset 56: expected animBlockCount < 20, found 25");
  expect_error (dmax, sizeof dmax, 1, 16, MAT0_ERROR_TOO_MANY_BLOCKS, 18,
                "ROCK: offset 18: expected animBlockCount < 20, found 65535");
}

static void
test_decode_truncated_phases (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  guint8 p[18] = { 0 };

  test_put_u16 (a, 4);
  test_put_u16 (a, 0);
  put_prefix (a, 6);
  for (guint i = 0; i < 3; i++)
    test_put_phase (a, p, "A.B");
  test_put_bytes (a, p, 12);

  /* phase 3 (of 0..3) starts at 20 + 14 + 3 * 34 = 136 */
  expect_error (a->data, a->len, 6, 20, MAT0_ERROR_TRUNCATED_PHASES, 136,
                "ROCK: offset 136: expected 34 bytes of phase 3 of 4, found 12");
  /* no phase bytes at all */
  expect_error (a->data, 14, 6, 20, MAT0_ERROR_TRUNCATED_PHASES, 34,
                "ROCK: offset 34: expected 34 bytes of phase 0 of 4, found 0");
  /* a phaseCount far beyond the payload */
  a->data[0] = 0xFF;
  a->data[1] = 0xFF;
  expect_error (a->data, a->len, 6, 20, MAT0_ERROR_TRUNCATED_PHASES, 136,
                "ROCK: offset 136: expected 34 bytes of phase 3 of 65535, found 12");
}

static GByteArray *
one_phase_prefix (guint16 n_blocks)
{
  GByteArray *a = g_byte_array_new ();
  guint8 p[18] = { 0 };

  test_put_u16 (a, 1);
  test_put_u16 (a, n_blocks);
  put_prefix (a, 6);
  test_put_phase (a, p, "");
  return a;
}

static void
test_decode_truncated_block (void)
{
  g_autoptr(GByteArray) a = one_phase_prefix (1);
  g_autoptr(GByteArray) b = NULL;
  g_autoptr(GByteArray) c = NULL;

  /* 3 bytes of a block header: block 0 starts at 100 + 14 + 34 = 148 */
  test_put_bytes (a, "\x01\x02\x03", 3);
  expect_error (a->data, a->len, 6, 100, MAT0_ERROR_TRUNCATED_BLOCK, 148,
                "ROCK: offset 148: expected 6 bytes of the header of anim "
                "block 0 of 1, found 3");
  /* no block bytes at all */
  expect_error (a->data, 48, 6, 100, MAT0_ERROR_TRUNCATED_BLOCK, 148,
                "ROCK: offset 148: expected 6 bytes of the header of anim "
                "block 0 of 1, found 0");

  /* 3 keys announced, 2 keys and 2 bytes present: key 2 at 148 + 6 + 12 */
  b = one_phase_prefix (1);
  test_put_u32 (b, 0);
  test_put_u16 (b, 3);
  for (guint i = 0; i < 2; i++)
    {
      test_put_u16 (b, 0); test_put_u16 (b, 100); test_put_u16 (b, 0);
    }
  test_put_u16 (b, 0);
  expect_error (b->data, b->len, 6, 100, MAT0_ERROR_TRUNCATED_BLOCK, 166,
                "ROCK: offset 166: expected 6 bytes of key 2 of 3 in anim "
                "block 0 of 1, found 2");

  /* the second block runs past the payload; keyCount 65535 */
  c = one_phase_prefix (2);
  test_put_u32 (c, 0);
  test_put_u16 (c, 1);
  test_put_u16 (c, 0); test_put_u16 (c, 100); test_put_u16 (c, 0);
  test_put_u32 (c, 0);
  test_put_u16 (c, 0xFFFF);
  test_put_u16 (c, 0); test_put_u16 (c, 100);
  /* block 1 at 148 + 12 = 160, keys from 166 */
  expect_error (c->data, c->len, 6, 100, MAT0_ERROR_TRUNCATED_BLOCK, 166,
                "ROCK: offset 166: expected 6 bytes of key 0 of 65535 in anim "
                "block 1 of 2, found 4");
}

static void
test_decode_trailing_bytes (void)
{
  g_autoptr(GByteArray) a = one_phase_prefix (1);
  g_autoptr(GByteArray) b = one_phase_prefix (0);
  static const guint8 empty[] = { 0, 0, 0, 0, 0xAA };

  test_put_u32 (a, 0x10);
  test_put_u16 (a, 1);
  test_put_u16 (a, 0); test_put_u16 (a, 100); test_put_u16 (a, 0);
  test_put_bytes (a, "\0\0\0", 3);
  /* end of the block: 200 + 14 + 34 + 12 = 260 */
  expect_error (a->data, a->len, 6, 200, MAT0_ERROR_TRAILING_BYTES, 260,
                "ROCK: offset 260: expected end of payload after the last "
                "block, found 3 more bytes");

  test_put_u8 (b, 0);
  expect_error (b->data, b->len, 6, 0, MAT0_ERROR_TRAILING_BYTES, 48,
                "ROCK: offset 48: expected end of payload after the last "
                "phase (no blocks), found 1 more bytes");

  expect_error (empty, sizeof empty, 0, 8, MAT0_ERROR_TRAILING_BYTES, 12,
                "ROCK: offset 12: expected end of payload after the header "
                "(no phases, no blocks), found 1 more bytes");
}

static void
test_decode_every_truncation (void)
{
  static const guint32 versions[] = { 0, 2, 3, 6 };

  for (guint v = 0; v < G_N_ELEMENTS (versions); v++)
    {
      g_autoptr(GBytes) bytes = rich_payload (versions[v]);
      gsize size;
      const guint8 *d = g_bytes_get_data (bytes, &size);
      gsize header = 4 + mat0_prefix_size (versions[v]);
      gsize phases_end = header + 3 * 34;
      g_autofree guint8 *longer = g_malloc (size + 1);

      for (gsize len = 0; len < size; len++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(Mat0Material) m = NULL;
          gsize off = G_MAXSIZE;
          gint code;

          m = decode_exact (d, len, versions[v], 1000, &off, &error);
          g_assert_null (m);
          code = len < header ? MAT0_ERROR_TRUNCATED_HEADER :
                 len < phases_end ? MAT0_ERROR_TRUNCATED_PHASES :
                 MAT0_ERROR_TRUNCATED_BLOCK;
          g_assert_error (error, MAT0_ERROR, code);
          g_assert_cmpuint (off, >=, 1000);
          g_assert_cmpuint (off, <=, 1000 + len);
          g_assert_true (g_str_has_prefix (error->message, "ROCK: offset "));
        }

      /* and one byte too many */
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(Mat0Material) m = NULL;
        gsize off = 0;

        memcpy (longer, d, size);
        longer[size] = 0;
        m = decode_exact (longer, size + 1, versions[v], 1000, &off, &error);
        g_assert_null (m);
        g_assert_error (error, MAT0_ERROR, MAT0_ERROR_TRAILING_BYTES);
        g_assert_cmpuint (off, ==, 1000 + size);
      }
    }
}

/* Random bytes: decode never crashes, and whatever decodes encodes back
 * to the same bytes. Half of the inputs start from a valid payload. */
static void
test_decode_random (void)
{
  static const guint32 versions[] = { 0, 1, 2, 3, 4, 6, 0x1234 };
  guint decoded = 0;

  for (guint iter = 0; iter < 20000; iter++)
    {
      guint32 attr2 = versions[g_test_rand_int_range (0, G_N_ELEMENTS (versions))];
      g_autoptr(GBytes) base = rich_payload (attr2);
      gsize size = (gsize) g_test_rand_int_range (0, 200);
      g_autofree guint8 *buf = g_malloc (size + 1);
      g_autoptr(GError) error = NULL;
      g_autoptr(Mat0Material) m = NULL;

      if (iter % 2 == 0)
        {
          gsize bsize;
          const guint8 *b = g_bytes_get_data (base, &bsize);

          size = bsize + (gsize) g_test_rand_int_range (-3, 3);
          g_free (buf);
          buf = g_malloc (size + 1);
          memcpy (buf, b, MIN (size, bsize));
          for (gsize i = bsize; i < size; i++)
            buf[i] = 0;
          /* flip a few bytes, sparing the counts half of the time */
          for (guint f = 0; f < 3; f++)
            {
              gsize at = (gsize) g_test_rand_int_range (iter % 4 == 0 ? 0 : 4, (gint) MAX (size, 5));
              if (at < size)
                buf[at] = (guint8) g_test_rand_int_range (0, 256);
            }
        }
      else
        {
          for (gsize i = 0; i < size; i++)
            buf[i] = (guint8) g_test_rand_int_range (0, 256);
          if (size >= 4)
            {
              buf[0] = (guint8) g_test_rand_int_range (0, 4);
              buf[1] = 0;
              buf[2] = (guint8) g_test_rand_int_range (0, 3);
              buf[3] = 0;
            }
        }

      m = decode_exact (buf, size, attr2, 0, NULL, &error);
      if (m != NULL)
        {
          g_autoptr(GBytes) enc = mat0_encode (m);

          g_assert_no_error (error);
          g_assert_cmpmem (g_bytes_get_data (enc, NULL), g_bytes_get_size (enc), buf, size);
          decoded++;
        }
      else
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == MAT0_ERROR);
        }
    }

  g_assert_cmpuint (decoded, >, 0);
}

static void
test_encode_exact (void)
{
  /* A material built by hand, attr2 4: every field at a known place. */
  Mat0Key keys[2] = { { 1, 0x0102, 0xA1A2 }, { 0, 0x0304, 0 } };
  Mat0Phase phases[2] = { 0 };
  Mat0Block block = { 0x80000019u, 2, keys };
  Mat0Material m = {
    .attr2 = 4, .meta_a = 0x01, .meta_b = 0x02,
    .meta_c = 0x03040506u, .meta_d = 0x0708090Au,
    .n_phases = 2, .phases = phases, .n_blocks = 1, .blocks = &block,
  };
  g_autoptr(GByteArray) want = g_byte_array_new ();
  g_autoptr(GBytes) got = NULL;

  for (guint i = 0; i < 18; i++)
    {
      phases[0].p[i] = 0x40 + i;
      phases[1].p[i] = 0x80 + i;
    }
  memcpy (phases[0].texture, "T.A\0junk\0\0\0\0\0\0\0\0", 16);

  test_put_bytes (want, "\x02\x00\x01\x00", 4);
  test_put_bytes (want, "\x01\x02\x06\x05\x04\x03\x0A\x09\x08\x07", 10);
  test_put_bytes (want, phases[0].p, 18);
  test_put_bytes (want, "T.A\0junk\0\0\0\0\0\0\0\0", 16);
  test_put_bytes (want, phases[1].p, 18);
  test_put_bytes (want, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
  test_put_bytes (want, "\x19\x00\x00\x80\x02\x00", 6);
  test_put_bytes (want, "\x01\x00\x02\x01\xA2\xA1", 6);
  test_put_bytes (want, "\x00\x00\x04\x03\x00\x00", 6);

  g_assert_cmpuint (mat0_encoded_size (&m), ==, want->len);
  got = mat0_encode (&m);
  g_assert_cmpmem (g_bytes_get_data (got, NULL), g_bytes_get_size (got),
                   want->data, want->len);
}

static void
test_encode_absent_meta (void)
{
  /* Metadata a version lacks is never written, whatever the struct holds. */
  Mat0Material m = { .attr2 = 2, .meta_a = 7, .meta_b = 8,
                     .meta_c = 0xFFFFFFFFu, .meta_d = 0xFFFFFFFFu };
  static const guint8 want2[] = { 0, 0, 0, 0, 7, 8 };
  static const guint8 want3[] = { 0, 0, 0, 0, 7, 8, 0xFF, 0xFF, 0xFF, 0xFF };
  static const guint8 want1[] = { 0, 0, 0, 0 };
  g_autoptr(GBytes) b2 = mat0_encode (&m);
  g_autoptr(GBytes) b3 = NULL;
  g_autoptr(GBytes) b1 = NULL;

  g_assert_cmpmem (g_bytes_get_data (b2, NULL), g_bytes_get_size (b2), want2, sizeof want2);
  m.attr2 = 3;
  b3 = mat0_encode (&m);
  g_assert_cmpmem (g_bytes_get_data (b3, NULL), g_bytes_get_size (b3), want3, sizeof want3);
  m.attr2 = 1;
  b1 = mat0_encode (&m);
  g_assert_cmpmem (g_bytes_get_data (b1, NULL), g_bytes_get_size (b1), want1, sizeof want1);
}

static void
test_canonical (void)
{
  g_autoptr(Mat0Material) m = mat0_material_new_canonical ();
  g_autoptr(GBytes) enc = NULL;
  static const guint8 want[48] = {
    0x01, 0x00, 0x00, 0x00,
    0xFF, 0xFF, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x00,
    0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  };

  g_assert_cmpuint (m->attr2, ==, 6);
  g_assert_cmpuint (m->meta_a, ==, 255);
  g_assert_cmpuint (m->meta_b, ==, 255);
  g_assert_cmphex (m->meta_c, ==, 0x3F800000u);
  g_assert_cmphex (m->meta_d, ==, 0);
  g_assert_cmpuint (m->n_phases, ==, 1);
  g_assert_cmpuint (m->n_blocks, ==, 0);
  g_assert_false (mat0_phase_is_textured (&m->phases[0]));

  enc = mat0_encode (m);
  g_assert_cmpmem (g_bytes_get_data (enc, NULL), g_bytes_get_size (enc), want, sizeof want);
}

static void
test_copy_equal (void)
{
  g_autoptr(GBytes) bytes = rich_payload (6);
  g_autoptr(GError) error = NULL;
  g_autoptr(Mat0Material) m = mat0_decode (g_bytes_get_data (bytes, NULL),
                                           g_bytes_get_size (bytes), 6,
                                           "ROCK", 0, &error);
  g_autoptr(Mat0Material) c = mat0_material_copy (m);
  g_autoptr(Mat0Material) empty = mat0_material_copy (&(Mat0Material) { .attr2 = 0 });

  g_assert_no_error (error);
  g_assert_true (mat0_material_equal (m, c));
  g_assert_true (m->phases != c->phases);
  g_assert_true (m->blocks[0].keys != c->blocks[0].keys);
  g_assert_true (mat0_material_equal (NULL, NULL));
  g_assert_false (mat0_material_equal (m, NULL));
  g_assert_false (mat0_material_equal (m, empty));
  g_assert_cmpuint (empty->n_phases, ==, 0);

#define FLIP(field, value)                                   \
  G_STMT_START {                                             \
    __typeof__ (c->field) saved = c->field;                  \
    c->field = (value);                                      \
    g_assert_false (mat0_material_equal (m, c));             \
    c->field = saved;                                        \
    g_assert_true (mat0_material_equal (m, c));              \
  } G_STMT_END

  FLIP (attr2, 7);
  FLIP (meta_a, 0);
  FLIP (meta_b, 0);
  FLIP (meta_c, 0);
  FLIP (meta_d, 0);
  FLIP (phases[1].p[17], 0);
  FLIP (phases[0].texture[15], 0);   /* a byte after the NUL counts */
  FLIP (blocks[0].header_raw, 0);
  FLIP (blocks[0].keys[1].k0, 9);
  FLIP (blocks[0].keys[1].k1, 9);
  FLIP (blocks[0].keys[1].k2, 9);
#undef FLIP

  mat0_material_free (NULL);
}

static void
test_texture_helpers (void)
{
  Mat0Phase phase = { 0 };
  g_autofree char *s = NULL;

  g_assert_cmpuint (mat0_phase_texture_len (&phase), ==, 0);
  g_assert_false (mat0_phase_is_textured (&phase));
  s = mat0_phase_dup_texture (&phase);
  g_assert_cmpstr (s, ==, "");
  g_clear_pointer (&s, g_free);

  memcpy (phase.texture, tex0, 16);
  g_assert_cmpuint (mat0_phase_texture_len (&phase), ==, 6);
  g_assert_true (mat0_phase_is_textured (&phase));
  s = mat0_phase_dup_texture (&phase);
  g_assert_cmpstr (s, ==, "ROCK.0");
  g_clear_pointer (&s, g_free);

  memcpy (phase.texture, tex2, 16);
  g_assert_cmpuint (mat0_phase_texture_len (&phase), ==, 16);
  s = mat0_phase_dup_texture (&phase);
  g_assert_cmpstr (s, ==, "ABCDEFGHIJKLMNOP");
  g_clear_pointer (&s, g_free);

  /* CP1251: 0xCA 0xE0 is "Ка" */
  memcpy (phase.texture, "\xCA\xE0.0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
  s = mat0_phase_dup_texture (&phase);
  g_assert_cmpstr (s, ==, "Ка.0");
  g_clear_pointer (&s, g_free);
}

static void
test_texture_set (void)
{
  Mat0Phase phase;
  Mat0Phase before;
  g_autoptr(GError) error = NULL;

  memset (&phase, 0x5A, sizeof phase);
  g_assert_true (mat0_phase_set_texture (&phase, "ROCK.0", &error));
  g_assert_no_error (error);
  g_assert_cmpmem (phase.texture, 16, "ROCK.0\0\0\0\0\0\0\0\0\0\0", 16);
  for (guint i = 0; i < 18; i++)
    g_assert_cmpuint (phase.p[i], ==, 0x5A);   /* p untouched */

  g_assert_true (mat0_phase_set_texture (&phase, "Камень.A1", &error));
  g_assert_no_error (error);
  g_assert_cmpmem (phase.texture, 16, "\xCA\xE0\xEC\xE5\xED\xFC.A1\0\0\0\0\0\0\0", 16);

  g_assert_true (mat0_phase_set_texture (&phase, "ABCDEFGHIJKLM.O", &error));
  g_assert_no_error (error);
  g_assert_cmpmem (phase.texture, 16, "ABCDEFGHIJKLM.O\0", 16);

  memset (phase.texture, 0x5A, 16);
  g_assert_true (mat0_phase_set_texture (&phase, "", &error));
  g_assert_no_error (error);
  g_assert_cmpmem (phase.texture, 16, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
  g_assert_false (mat0_phase_is_textured (&phase));

  /* too long (16 bytes) and unrepresentable: refused, phase untouched */
  memcpy (phase.texture, tex0, 16);
  before = phase;
  g_assert_false (mat0_phase_set_texture (&phase, "ABCDEFGHIJKLMN.P", &error));
  g_assert_error (error, CP1251_ERROR, CP1251_ERROR_TOO_LONG);
  g_clear_error (&error);
  g_assert_cmpmem (&phase, sizeof phase, &before, sizeof before);
  g_assert_false (mat0_phase_set_texture (&phase, "石.0", &error));
  g_assert_error (error, CP1251_ERROR, CP1251_ERROR_UNREPRESENTABLE);
  g_assert_cmpmem (&phase, sizeof phase, &before, sizeof before);
}

static gint
palette_of (const char *name)
{
  guint8 field[16] = { 0 };

  memcpy (field, name, MIN (strlen (name), 16));
  return mat0_texture_palette_index (field, 16);
}

static void
test_palette_index (void)
{
  guint8 field[16];

  g_assert_cmpint (palette_of (""), ==, -1);
  g_assert_cmpint (palette_of ("ROCK"), ==, -1);
  g_assert_cmpint (palette_of ("ROCK.0"), ==, -1);     /* ('0' - 'A') * 11 < 0 */
  g_assert_cmpint (palette_of ("ROCK."), ==, -1);      /* L is the NUL */
  g_assert_cmpint (palette_of ("X.A"), ==, 0);
  g_assert_cmpint (palette_of ("X.a"), ==, 0);         /* toupper */
  g_assert_cmpint (palette_of ("X.A0"), ==, 1);
  g_assert_cmpint (palette_of ("X.A9"), ==, 10);
  g_assert_cmpint (palette_of ("X.B"), ==, 11);
  g_assert_cmpint (palette_of ("X.b3"), ==, 15);
  g_assert_cmpint (palette_of ("X.Z9"), ==, 285);
  g_assert_cmpint (palette_of ("X.["), ==, 286);
  g_assert_cmpint (palette_of ("X.A "), ==, -1);       /* 0 * 11 + ' ' - '0' + 1 < 0 */
  g_assert_cmpint (palette_of ("A.B.C"), ==, 10);      /* first dot; D = '.' */
  g_assert_cmpint (palette_of ("X.BMP"), ==, 11 + 'M' - '0' + 1);

  /* D is 0 past the NUL, even with bytes after it */
  memcpy (field, "X.B\0" "7zzzzzzzzzzz", 16);
  g_assert_cmpint (mat0_texture_palette_index (field, 16), ==, 11);
  /* no NUL: L at 15, D past the field */
  memcpy (field, "ABCDEFGHIJKLMN.Q", 16);
  g_assert_cmpint (mat0_texture_palette_index (field, 16), ==, 16 * 11);
  /* the dot is the last byte of the field: no L */
  memcpy (field, "ABCDEFGHIJKLMNO.", 16);
  g_assert_cmpint (mat0_texture_palette_index (field, 16), ==, -1);
  /* @len bounds the name too */
  memcpy (field, "X.B3\0\0\0\0\0\0\0\0\0\0\0\0", 16);
  g_assert_cmpint (mat0_texture_palette_index (field, 3), ==, 11);
  g_assert_cmpint (mat0_texture_palette_index (field, 4), ==, 15);
  g_assert_cmpint (mat0_texture_palette_index (field, 1), ==, -1);
  /* a high CP1251 letter: ('\xC0' - 'A') * 11 */
  memcpy (field, "X.\xC0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
  g_assert_cmpint (mat0_texture_palette_index (field, 16), ==, (0xC0 - 'A') * 11);
}

/* The period is the last key's time (formats.md 2.3), not a sum */
static void
test_block_period (void)
{
  Mat0Key keys[3] = { { 0, 50, 0 }, { 1, 100, 0 }, { 2, 200, 0 } };
  Mat0Key falling[3] = { { 0, 65535, 0 }, { 1, 65535, 0 }, { 0, 7, 0 } };
  Mat0Key last_zero[2] = { { 0, 500, 0 }, { 1, 0, 0 } };
  Mat0Block block = { 0, 3, keys };
  Mat0Block none = { 0, 0, NULL };
  Mat0Block fall = { 0, 3, falling };
  Mat0Block zero = { 0x1F, 2, last_zero };
  g_autofree Mat0Key *many = g_new0 (Mat0Key, 65535);
  Mat0Block big = { 0, 65535, many };

  g_assert_cmpuint (mat0_block_period (&block), ==, 200);
  g_assert_cmpuint (mat0_block_period (&none), ==, 0);
  g_assert_cmpuint (mat0_block_period (&fall), ==, 7);
  g_assert_cmpuint (mat0_block_period (&zero), ==, 0);
  block.n_keys = 1;
  g_assert_cmpuint (mat0_block_period (&block), ==, 50);
  for (guint i = 0; i < 65535; i++)
    many[i].k1 = (guint16) (i + 1);
  g_assert_cmpuint (mat0_block_period (&big), ==, 65535);
  many[65534].k1 = 3;
  g_assert_cmpuint (mat0_block_period (&big), ==, 3);
}

int
main (int argc, char *argv[])
{
  static const guint32 versions[] = { 0, 1, 2, 3, 4, 5, 6, 0x1234, G_MAXUINT32 };

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/mat0/prefix-size", test_prefix_size);
  for (guint i = 0; i < G_N_ELEMENTS (versions); i++)
    {
      g_autofree char *path = g_strdup_printf ("/core/mat0/decode/version-%u",
                                               versions[i]);

      g_test_add_data_func (path, GUINT_TO_POINTER (versions[i]), check_version);
    }
  g_test_add_func ("/core/mat0/decode/exact-bytes", test_decode_exact_bytes);
  g_test_add_func ("/core/mat0/decode/empty", test_decode_empty);
  g_test_add_func ("/core/mat0/decode/max-blocks", test_decode_max_blocks);
  g_test_add_func ("/core/mat0/decode/truncated-header", test_decode_truncated_header);
  g_test_add_func ("/core/mat0/decode/too-many-blocks", test_decode_too_many_blocks);
  g_test_add_func ("/core/mat0/decode/truncated-phases", test_decode_truncated_phases);
  g_test_add_func ("/core/mat0/decode/truncated-block", test_decode_truncated_block);
  g_test_add_func ("/core/mat0/decode/trailing-bytes", test_decode_trailing_bytes);
  g_test_add_func ("/core/mat0/decode/every-truncation", test_decode_every_truncation);
  g_test_add_func ("/core/mat0/decode/random", test_decode_random);
  g_test_add_func ("/core/mat0/encode/exact", test_encode_exact);
  g_test_add_func ("/core/mat0/encode/absent-meta", test_encode_absent_meta);
  g_test_add_func ("/core/mat0/canonical", test_canonical);
  g_test_add_func ("/core/mat0/copy-equal", test_copy_equal);
  g_test_add_func ("/core/mat0/texture/helpers", test_texture_helpers);
  g_test_add_func ("/core/mat0/texture/set", test_texture_set);
  g_test_add_func ("/core/mat0/texture/palette-index", test_palette_index);
  g_test_add_func ("/core/mat0/block-period", test_block_period);

  return g_test_run ();
}
