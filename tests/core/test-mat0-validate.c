/* test-mat0-validate.c - errors and lints (formats.md 2.6) */
#include "config.h"

#include <string.h>

#include "mat0-validate.h"
#include "nres.h"
#include "test-support.h"

/* ---- builders ---- */

static void
put_header (GByteArray *a, guint16 n_phases, guint16 n_blocks)
{
  test_put_u16 (a, n_phases);
  test_put_u16 (a, n_blocks);
  test_put_u8 (a, 255);
  test_put_u8 (a, 255);
  test_put_u32 (a, 0x3F800000u);
  test_put_u32 (a, 0);
}

static void
put_texture_phase (GByteArray *a, const guint8 texture[16])
{
  guint8 p[18] = { 0 };

  test_put_bytes (a, p, 18);
  test_put_bytes (a, texture, 16);
}

static void
put_named_phase (GByteArray *a, const char *name)
{
  guint8 field[16] = { 0 };

  memcpy (field, name, strlen (name));
  put_texture_phase (a, field);
}

static void
put_key (GByteArray *a, guint16 k0, guint16 k1, guint16 k2)
{
  test_put_u16 (a, k0);
  test_put_u16 (a, k1);
  test_put_u16 (a, k2);
}

/* A clean attr2-6 material: one phase "ROCK.0", one block (0, 500),
 * (0, 1000): key times increase, the period is 1000. */
static GBytes *
clean_payload (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();

  put_header (a, 1, 1);
  put_named_phase (a, "ROCK.0");
  test_put_u32 (a, 0x10);
  test_put_u16 (a, 2);
  put_key (a, 0, 500, 0);
  put_key (a, 0, 1000, 0);
  return g_byte_array_free_to_bytes (g_steal_pointer (&a));
}

static Mat0Material *
decode6 (GByteArray *a)
{
  g_autoptr(GError) error = NULL;
  Mat0Material *m = mat0_decode (a->data, a->len, 6, "ROCK", 0, &error);

  g_assert_no_error (error);
  return m;
}

static GPtrArray *
new_list (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) mat0_diagnostic_free);
}

static void
assert_diag (const Mat0Diagnostic *d,
             Mat0Severity          severity,
             Mat0Check             check,
             gint                  entry,
             const char           *entry_name,
             gint                  phase,
             gint                  block,
             gint                  key,
             gsize                 offset,
             const char           *message)
{
  g_assert_cmpint (d->severity, ==, severity);
  g_assert_cmpint (d->check, ==, check);
  g_assert_cmpint (d->entry, ==, entry);
  g_assert_cmpstr (d->entry_name, ==, entry_name);
  g_assert_cmpint (d->phase, ==, phase);
  g_assert_cmpint (d->block, ==, block);
  g_assert_cmpint (d->key, ==, key);
  g_assert_cmpuint (d->offset, ==, offset);
  if (message != NULL && severity == MAT0_SEVERITY_LINT)
    {
      /* a lint's line starts like an error's: "ENTRY: offset N: " */
      g_autofree char *line = g_strdup_printf ("%s: offset %" G_GSIZE_FORMAT ": %s",
                                               entry_name, offset, message);
      g_assert_cmpstr (d->message, ==, line);
    }
  else if (message != NULL)
    g_assert_cmpstr (d->message, ==, message);
}

/* ---- material lints ---- */

static void
test_lint_clean (void)
{
  g_autoptr(GBytes) bytes = clean_payload ();
  g_autoptr(GBytes) worked = test_worked_example_payload (0);
  g_autoptr(GError) error = NULL;
  g_autoptr(Mat0Material) m = mat0_decode (g_bytes_get_data (bytes, NULL),
                                           g_bytes_get_size (bytes), 6,
                                           "ROCK", 0, &error);
  g_autoptr(Mat0Material) w = mat0_decode (g_bytes_get_data (worked, NULL),
                                           g_bytes_get_size (worked), 6,
                                           "WORKED", 0, &error);
  g_autoptr(Mat0Material) canonical = mat0_material_new_canonical ();
  g_autoptr(GPtrArray) out = new_list ();

  g_assert_no_error (error);
  mat0_lint_material (m, 0, "ROCK", 16, out);
  mat0_lint_material (w, 1, "WORKED", 16, out);
  mat0_lint_material (canonical, 2, "NEW", 16, out);
  g_assert_cmpuint (out->len, ==, 0);
}

static void
test_lint_texture_no_nul (void)
{
  static const guint8 no_nul[16] = "ABCDEFGHIJKLMNOP";
  static const guint8 no_nul_dot[16] = "ABCDEFGHIJKLMN.Q";
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(Mat0Material) m = NULL;
  g_autoptr(GPtrArray) out = new_list ();

  put_header (a, 3, 0);
  put_named_phase (a, "ROCK.0");
  put_texture_phase (a, no_nul);
  put_texture_phase (a, no_nul_dot);
  m = decode6 (a);

  mat0_lint_material (m, 4, "ROCK", 1000, out);
  g_assert_cmpuint (out->len, ==, 3);
  /* phase 1's texture field: 1000 + 14 + 34 + 18 = 1066 */
  assert_diag (out->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_NUL,
               4, "ROCK", 1, -1, -1, 1066,
               "expected a NUL within the 16 bytes of the texture name of "
               "phase 1, found none");
  assert_diag (out->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_DOT,
               4, "ROCK", 1, -1, -1, 1066,
               "expected a '.' in the texture name \"ABCDEFGHIJKLMNOP\" of "
               "phase 1, found none (the game logs \"Bad texture name.\" and "
               "uses no texture)");
  /* phase 2: a dot, no NUL: 1000 + 14 + 68 + 18 = 1100 */
  assert_diag (out->pdata[2], MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_NUL,
               4, "ROCK", 2, -1, -1, 1100, NULL);
}

static void
test_lint_texture_no_dot (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(Mat0Material) m = NULL;
  g_autoptr(GPtrArray) out = new_list ();
  guint8 after_nul[16] = { 'R', 'O', 'C', 'K', 0, '.', 'A' };

  put_header (a, 4, 0);
  put_named_phase (a, "");          /* untextured: fine */
  put_named_phase (a, "ROCK");
  put_texture_phase (a, after_nul); /* the dot after the NUL does not count */
  put_named_phase (a, ".");         /* a dot alone: fine (no palette) */
  m = decode6 (a);

  mat0_lint_material (m, 0, "ROCK", 0, out);
  g_assert_cmpuint (out->len, ==, 2);
  assert_diag (out->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_DOT,
               0, "ROCK", 1, -1, -1, 14 + 34 + 18,
               "expected a '.' in the texture name \"ROCK\" of phase 1, found "
               "none (the game logs \"Bad texture name.\" and uses no "
               "texture)");
  assert_diag (out->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_DOT,
               0, "ROCK", 2, -1, -1, 14 + 68 + 18, NULL);
}

static void
test_lint_palette_index (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(Mat0Material) m = NULL;
  g_autoptr(GPtrArray) out = new_list ();

  put_header (a, 5, 0);
  put_named_phase (a, "W.Z9");      /* 285: the last valid */
  put_named_phase (a, "W.[");       /* 286 */
  put_named_phase (a, "ROCK.0");    /* negative: no palette */
  put_named_phase (a, "w.z9");      /* 285 */
  put_named_phase (a, "W.\xC0");    /* (0xC0 - 'A') * 11 = 1397 */
  m = decode6 (a);

  mat0_lint_material (m, 2, "PAL", 40, out);
  g_assert_cmpuint (out->len, ==, 2);
  assert_diag (out->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_PALETTE_INDEX,
               2, "PAL", 1, -1, -1, 40 + 14 + 34 + 18,
               "expected a palette index below 286 for the texture name "
               "\"W.[\" of phase 1, found 286 (the game reads past its "
               "palette bank)");
  assert_diag (out->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_PALETTE_INDEX,
               2, "PAL", 4, -1, -1, 40 + 14 + 4 * 34 + 18,
               "expected a palette index below 286 for the texture name "
               "\"W.А\" of phase 4, found 1397 (the game reads past its "
               "palette bank)");
}

static void
test_lint_blocks (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(Mat0Material) m = NULL;
  g_autoptr(GPtrArray) out = new_list ();

  put_header (a, 2, 4);
  put_named_phase (a, "");
  put_named_phase (a, "");
  /* block 0 at 14 + 68 = 82: fine */
  test_put_u32 (a, 0);
  test_put_u16 (a, 1);
  put_key (a, 1, 10, 0);
  /* block 1 at 94: key 1 points past the phases, key 2 too */
  test_put_u32 (a, 0);
  test_put_u16 (a, 3);
  put_key (a, 0, 10, 0);
  put_key (a, 2, 20, 0);
  put_key (a, 0xFFFF, 30, 0);
  /* block 2 at 118: no keys */
  test_put_u32 (a, 0x0A);
  test_put_u16 (a, 0);
  /* block 3 at 124: every time 0 (period 0: no time-order lint), one
   * bad k0 */
  test_put_u32 (a, 0x0F);
  test_put_u16 (a, 2);
  put_key (a, 0, 0, 5);
  put_key (a, 7, 0, 0);
  m = decode6 (a);
  g_assert_cmpuint (a->len, ==, 142);

  mat0_lint_material (m, 1, "ANIM", 200, out);
  g_assert_cmpuint (out->len, ==, 5);
  /* block 1's keys start at 200 + 94 + 6 = 300 */
  assert_diag (out->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_KEY_PHASE_RANGE,
               1, "ANIM", -1, 1, 1, 306,
               "expected a phase index below phaseCount 2 in key 1 of anim "
               "block 1, found 2 (the game would read past the phase table)");
  assert_diag (out->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_KEY_PHASE_RANGE,
               1, "ANIM", -1, 1, 2, 312,
               "expected a phase index below phaseCount 2 in key 2 of anim "
               "block 1, found 65535 (the game would read past the phase "
               "table)");
  /* block 2: keyCount at 200 + 118 + 4 */
  assert_diag (out->pdata[2], MAT0_SEVERITY_LINT, MAT0_LINT_BLOCK_NO_KEYS,
               1, "ANIM", -1, 2, -1, 322,
               "expected at least one key in anim block 2, found 0");
  /* block 3: keys at 200 + 124 + 6 = 330 */
  assert_diag (out->pdata[3], MAT0_SEVERITY_LINT, MAT0_LINT_KEY_PHASE_RANGE,
               1, "ANIM", -1, 3, 1, 336, NULL);
  /* period 0: the last key's k1, 336 + 2 */
  assert_diag (out->pdata[4], MAT0_SEVERITY_LINT, MAT0_LINT_ZERO_PERIOD,
               1, "ANIM", -1, 3, 1, 338,
               "expected a non-zero time for the last key of anim block 3 "
               "(the period), found 0 ms (the material never animates)");
}

/* Period 0 is the last key's time only: earlier times do not count */
static void
test_lint_zero_period (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(Mat0Material) m = NULL;
  g_autoptr(GPtrArray) out = new_list ();

  put_header (a, 1, 3);
  put_named_phase (a, "ROCK.0");
  /* block 0 at 48: one key at 0 */
  test_put_u32 (a, 0);
  test_put_u16 (a, 1);
  put_key (a, 0, 0, 0);
  /* block 1 at 60: times that fall, then a last key at 0: only the
   * period is reported */
  test_put_u32 (a, 0x08 | 1);
  test_put_u16 (a, 3);
  put_key (a, 0, 100, 0);
  put_key (a, 0, 50, 0);
  put_key (a, 0, 0, 9);
  /* block 2 at 84: a last key with a time: fine */
  test_put_u32 (a, 2);
  test_put_u16 (a, 2);
  put_key (a, 0, 1, 0);
  put_key (a, 0, 65535, 0);
  m = decode6 (a);
  g_assert_cmpuint (a->len, ==, 102);

  mat0_lint_material (m, 7, "STILL", 1000, out);
  g_assert_cmpuint (out->len, ==, 2);
  /* block 0's only key at 1000 + 48 + 6 = 1054, its k1 at 1056 */
  assert_diag (out->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_ZERO_PERIOD,
               7, "STILL", -1, 0, 0, 1056,
               "expected a non-zero time for the last key of anim block 0 "
               "(the period), found 0 ms (the material never animates)");
  /* block 1's keys at 1066; key 2's k1 at 1066 + 12 + 2 */
  assert_diag (out->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_ZERO_PERIOD,
               7, "STILL", -1, 1, 2, 1080,
               "expected a non-zero time for the last key of anim block 1 "
               "(the period), found 0 ms (the material never animates)");
  g_assert_cmpstr (mat0_check_name (MAT0_LINT_ZERO_PERIOD), ==, "zero-period");
}

static void
test_lint_key_time_order (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(Mat0Material) m = NULL;
  g_autoptr(GPtrArray) out = new_list ();

  put_header (a, 2, 2);
  put_named_phase (a, "ROCK.0");
  put_named_phase (a, "ROCK.0");
  /* block 0 at 82, keys at 88: fine, strictly increasing */
  test_put_u32 (a, 0x08);
  test_put_u16 (a, 3);
  put_key (a, 0, 1, 0);
  put_key (a, 1, 2, 0);
  put_key (a, 0, 3, 0);
  /* block 1 at 106, keys at 112: 0 before key 0, a repeat, a fall, then
   * a rise above the fallen time (compared with the key before it) */
  test_put_u32 (a, 0x08);
  test_put_u16 (a, 5);
  put_key (a, 0, 0, 0);
  put_key (a, 1, 100, 0);
  put_key (a, 0, 100, 0);
  put_key (a, 1, 50, 0);
  put_key (a, 5, 200, 0);
  m = decode6 (a);
  g_assert_cmpuint (a->len, ==, 142);

  mat0_lint_material (m, 3, "ORDER", 64, out);
  g_assert_cmpuint (out->len, ==, 4);
  /* key 0's k1 at 64 + 112 + 2 */
  assert_diag (out->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_KEY_TIME_ORDER,
               3, "ORDER", -1, 1, 0, 178,
               "expected the time of key 0 of anim block 1 to be greater "
               "than 0 ms (the previous key's time), found 0 ms (an empty "
               "interval: the game never shows this blend)");
  assert_diag (out->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_KEY_TIME_ORDER,
               3, "ORDER", -1, 1, 2, 178 + 12,
               "expected the time of key 2 of anim block 1 to be greater "
               "than 100 ms (the previous key's time), found 100 ms (an "
               "empty interval: the game never shows this blend)");
  assert_diag (out->pdata[2], MAT0_SEVERITY_LINT, MAT0_LINT_KEY_TIME_ORDER,
               3, "ORDER", -1, 1, 3, 178 + 18,
               "expected the time of key 3 of anim block 1 to be greater "
               "than 100 ms (the previous key's time), found 50 ms (an "
               "empty interval: the game never shows this blend)");
  /* key 4: 200 > 50, in time; its k0 is out of range, at the key */
  assert_diag (out->pdata[3], MAT0_SEVERITY_LINT, MAT0_LINT_KEY_PHASE_RANGE,
               3, "ORDER", -1, 1, 4, 64 + 112 + 24, NULL);
  g_assert_cmpstr (mat0_check_name (MAT0_LINT_KEY_TIME_ORDER), ==, "key-time-order");
}

static void
test_lint_ambient_alpha (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(Mat0Material) m = NULL;
  g_autoptr(GPtrArray) out = new_list ();
  static const guint8 alphas[] = { 100, 101, 0, 255 };

  put_header (a, 5, 0);
  for (guint i = 0; i < G_N_ELEMENTS (alphas); i++)
    {
      guint8 p[18] = { 0 };

      p[3] = alphas[i];
      test_put_phase (a, p, "ROCK.0");
    }
  /* phase 4: both lints, the ambient alpha's first */
  {
    guint8 p[18] = { 0 };

    p[3] = 200;
    test_put_phase (a, p, "NODOT");
  }
  m = decode6 (a);

  mat0_lint_material (m, 2, "GLOW", 500, out);
  g_assert_cmpuint (out->len, ==, 4);
  /* phase 1's p3 at 500 + 14 + 34 + 3 */
  assert_diag (out->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_AMBIENT_ALPHA,
               2, "GLOW", 1, -1, -1, 551,
               "expected an ambient alpha (p3, opacity in per cent) of at "
               "most 100 in phase 1, found 101 (over 100 % opacity)");
  assert_diag (out->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_AMBIENT_ALPHA,
               2, "GLOW", 3, -1, -1, 500 + 14 + 3 * 34 + 3,
               "expected an ambient alpha (p3, opacity in per cent) of at "
               "most 100 in phase 3, found 255 (over 100 % opacity)");
  assert_diag (out->pdata[2], MAT0_SEVERITY_LINT, MAT0_LINT_AMBIENT_ALPHA,
               2, "GLOW", 4, -1, -1, 500 + 14 + 4 * 34 + 3, NULL);
  assert_diag (out->pdata[3], MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_DOT,
               2, "GLOW", 4, -1, -1, 500 + 14 + 4 * 34 + 18, NULL);
  g_assert_cmpstr (mat0_check_name (MAT0_LINT_AMBIENT_ALPHA), ==, "ambient-alpha");
}

static void
test_check_names (void)
{
  static const struct {
    Mat0Check   check;
    const char *name;
  } names[] = {
    { MAT0_CHECK_DECODE_ERROR, "decode-error" },
    { MAT0_LINT_TEXTURE_NO_NUL, "texture-no-nul" },
    { MAT0_LINT_TEXTURE_NO_DOT, "texture-no-dot" },
    { MAT0_LINT_PALETTE_INDEX, "palette-index" },
    { MAT0_LINT_KEY_PHASE_RANGE, "key-phase-range" },
    { MAT0_LINT_BLOCK_NO_KEYS, "block-no-keys" },
    { MAT0_LINT_ZERO_PERIOD, "zero-period" },
    { MAT0_LINT_KEY_TIME_ORDER, "key-time-order" },
    { MAT0_LINT_AMBIENT_ALPHA, "ambient-alpha" },
    { MAT0_LINT_NO_DEFAULT, "no-default" },
    { MAT0_LINT_DUPLICATE_NAME, "duplicate-name" },
    { MAT0_LINT_SORT_INDEX, "sort-index" },
    { MAT0_LINT_UNALIGNED_PAYLOAD, "unaligned-payload" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpstr (mat0_check_name (names[i].check), ==, names[i].name);
  g_assert_cmpstr (mat0_check_name (MAT0_LINT_UNALIGNED_PAYLOAD + 1), ==, "unknown");
  g_assert_cmpstr (mat0_check_name ((Mat0Check) 1000), ==, "unknown");
}

static void
test_lint_versions (void)
{
  /* the metadata prefix moves every offset: attr2 0 has none */
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(Mat0Material) m = NULL;
  g_autoptr(GPtrArray) out = new_list ();

  test_put_u16 (a, 1);
  test_put_u16 (a, 1);
  put_named_phase (a, "ROCK");
  test_put_u32 (a, 0);
  test_put_u16 (a, 1);
  put_key (a, 3, 0, 0);
  m = mat0_decode (a->data, a->len, 0, "OLD", 0, &error);
  g_assert_no_error (error);

  mat0_lint_material (m, 0, "OLD", 100, out);
  g_assert_cmpuint (out->len, ==, 3);
  assert_diag (out->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_DOT,
               0, "OLD", 0, -1, -1, 100 + 4 + 18, NULL);
  assert_diag (out->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_KEY_PHASE_RANGE,
               0, "OLD", -1, 0, 0, 100 + 4 + 34 + 6, NULL);
  assert_diag (out->pdata[2], MAT0_SEVERITY_LINT, MAT0_LINT_ZERO_PERIOD,
               0, "OLD", -1, 0, 0, 100 + 4 + 34 + 6 + 2, NULL);
}

static void
test_severity_strings (void)
{
  g_assert_cmpstr (mat0_severity_to_string (MAT0_SEVERITY_ERROR), ==, "error");
  g_assert_cmpstr (mat0_severity_to_string (MAT0_SEVERITY_LINT), ==, "lint");
  mat0_diagnostic_free (NULL);
}

/* ---- archive ---- */

static NresArchive *
parse (GBytes *file)
{
  g_autoptr(GError) error = NULL;
  NresArchive *archive = nres_archive_parse (file, &error);

  g_assert_no_error (error);
  return archive;
}

static void
set_u32 (guint8 *data, guint32 v)
{
  data[0] = v & 0xFF;
  data[1] = (v >> 8) & 0xFF;
  data[2] = (v >> 16) & 0xFF;
  data[3] = v >> 24;
}

static void
test_archive_clean (void)
{
  g_autoptr(GBytes) payload = clean_payload ();
  TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0x41, 6, 0, "DEFAULT", g_bytes_get_data (payload, NULL), g_bytes_get_size (payload), 0 },
    { NRES_TYPE_MAT0, 0x41, 6, 0, "ROCK", g_bytes_get_data (payload, NULL), g_bytes_get_size (payload), 0 },
    { NRES_TYPE_TEXM, 0, 0, 0, "ROCK.0", (const guint8 *) "junk", 4, 0 },
  };
  g_autoptr(GBytes) file = test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
  g_autoptr(NresArchive) archive = parse (file);
  g_autoptr(GPtrArray) diags = mat0_validate_archive (archive);

  g_assert_cmpuint (diags->len, ==, 0);
}

static void
test_archive_empty (void)
{
  g_autoptr(GBytes) file = test_build_archive (NULL, 0, TRUE);
  g_autoptr(NresArchive) archive = parse (file);
  g_autoptr(GPtrArray) diags = mat0_validate_archive (archive);

  g_assert_cmpuint (diags->len, ==, 0);
}

static void
test_archive_decode_error (void)
{
  g_autoptr(GBytes) clean = clean_payload ();
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  g_autoptr(GByteArray) lint = g_byte_array_new ();
  TestEntrySpec specs[3];
  g_autoptr(GBytes) file = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autofree char *message = NULL;
  guint32 bad_offset;

  /* 25 blocks: an error at the payload's offset 2 */
  put_header (bad, 0, 25);
  put_header (lint, 1, 0);
  put_named_phase (lint, "ROCK");

  specs[0] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "DEFAULT", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 };
  specs[1] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "\xCA\xE0\xEC\xE5\xED\xFC", bad->data, bad->len, 0 };
  specs[2] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "LINTED", lint->data, lint->len, 0 };
  file = test_build_archive (specs, 3, TRUE);
  archive = parse (file);
  bad_offset = archive->entries[1].data_offset;
  g_assert_cmpuint (bad_offset, ==, 16 + 72);   /* 66 bytes, padded */

  diags = mat0_validate_archive (archive);
  g_assert_cmpuint (diags->len, ==, 2);
  message = g_strdup_printf ("Камень: offset %u: expected animBlockCount < 20, found 25",
                             bad_offset + 2);
  assert_diag (diags->pdata[0], MAT0_SEVERITY_ERROR, MAT0_CHECK_DECODE_ERROR,
               1, "Камень", -1, -1, -1, bad_offset + 2, message);
  assert_diag (diags->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_TEXTURE_NO_DOT,
               2, "LINTED", 0, -1, -1,
               archive->entries[2].data_offset + 14 + 18, NULL);
}

static void
test_archive_truncated_payload (void)
{
  g_autoptr(GBytes) clean = clean_payload ();
  TestEntrySpec specs[2];
  g_autoptr(GBytes) file = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autofree char *message = NULL;
  guint32 at;

  /* the clean payload cut in its first key (offset 48 + 6 + 4) */
  specs[0] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "DEFAULT", g_bytes_get_data (clean, NULL), 58, 0 };
  specs[1] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "ROCK", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 };
  file = test_build_archive (specs, 2, TRUE);
  archive = parse (file);

  diags = mat0_validate_archive (archive);
  g_assert_cmpuint (diags->len, ==, 1);
  at = 16 + 48 + 6;
  message = g_strdup_printf ("DEFAULT: offset %u: expected 6 bytes of key 0 of 2 "
                             "in anim block 0 of 1, found 4", at);
  assert_diag (diags->pdata[0], MAT0_SEVERITY_ERROR, MAT0_CHECK_DECODE_ERROR,
               0, "DEFAULT", -1, -1, -1, at, message);
}

static void
test_archive_no_default (void)
{
  g_autoptr(GBytes) clean = clean_payload ();
  TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "ROCK", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 },
    { NRES_TYPE_TEXM, 0, 0, 0, "DEFAULTX", (const guint8 *) "x", 1, 0 },
  };
  g_autoptr(GBytes) file = test_build_archive (specs, 2, TRUE);
  g_autoptr(NresArchive) archive = parse (file);
  g_autoptr(GPtrArray) diags = mat0_validate_archive (archive);

  g_assert_cmpuint (diags->len, ==, 1);
  assert_diag (diags->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_NO_DEFAULT,
               -1, "(archive)", -1, -1, -1, archive->directory_offset,
               "expected an entry named DEFAULT (the engine's fallback for a "
               "missing material), found none");
}

static void
test_archive_default_any_case (void)
{
  g_autoptr(GBytes) clean = clean_payload ();
  TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "ROCK", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "deFault", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 },
  };
  g_autoptr(GBytes) file = test_build_archive (specs, 2, TRUE);
  g_autoptr(NresArchive) archive = parse (file);
  g_autoptr(GPtrArray) diags = mat0_validate_archive (archive);

  g_assert_cmpuint (diags->len, ==, 0);
}

static void
test_archive_no_mat0 (void)
{
  /* no MAT0 entry: no DEFAULT needed */
  TestEntrySpec specs[] = {
    { NRES_TYPE_TEXM, 0, 0, 0, "A.0", (const guint8 *) "abcdefgh", 8, 0 },
    { NRES_TYPE_WEAR, 0, 0, 0, "B.WEA", (const guint8 *) "1\n", 2, 0 },
  };
  g_autoptr(GBytes) file = test_build_archive (specs, 2, TRUE);
  g_autoptr(NresArchive) archive = parse (file);
  g_autoptr(GPtrArray) diags = mat0_validate_archive (archive);

  g_assert_cmpuint (diags->len, ==, 0);
}

static void
test_archive_duplicate_name (void)
{
  g_autoptr(GBytes) clean = clean_payload ();
  TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "DEFAULT", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "Rock", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "GLASS", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "ROCK", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 },
    { NRES_TYPE_TEXM, 0, 0, 0, "rock", (const guint8 *) "x", 1, 0 },
  };
  g_autoptr(GBytes) file = test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
  g_autoptr(NresArchive) archive = parse (file);
  g_autoptr(GPtrArray) diags = mat0_validate_archive (archive);
  guint32 dir = archive->directory_offset;

  g_assert_cmpuint (diags->len, ==, 2);
  assert_diag (diags->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_DUPLICATE_NAME,
               3, "ROCK", -1, -1, -1, dir + 3 * 64 + 20,
               "expected a unique name (names compare ignoring case), found "
               "the name of entry 1 \"Rock\" again");
  assert_diag (diags->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_DUPLICATE_NAME,
               4, "rock", -1, -1, -1, dir + 4 * 64 + 20,
               "expected a unique name (names compare ignoring case), found "
               "the name of entry 1 \"Rock\" again");
}

static GBytes *
three_entry_file (void)
{
  static guint8 payload[48];
  TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "DEFAULT", payload, 48, 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "BRICK", payload, 48, 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "ALPHA", payload, 48, 0 },
  };
  g_autoptr(Mat0Material) m = mat0_material_new_canonical ();
  g_autoptr(GBytes) enc = mat0_encode (m);

  g_assert_cmpuint (g_bytes_get_size (enc), ==, 48);
  memcpy (payload, g_bytes_get_data (enc, NULL), 48);
  return test_build_archive (specs, 3, TRUE);
}

static void
test_archive_sort_index (void)
{
  g_autoptr(GBytes) file = three_entry_file ();
  gsize size = g_bytes_get_size (file);
  g_autofree guint8 *data = g_memdup2 (g_bytes_get_data (file, NULL), size);
  guint32 dir = (guint32) size - 3 * 64;

  /* canonical: ALPHA (2), BRICK (1), DEFAULT (0) */
  g_assert_cmpuint (test_get_u32 (data + dir + 60), ==, 2);
  g_assert_cmpuint (test_get_u32 (data + dir + 64 + 60), ==, 1);
  g_assert_cmpuint (test_get_u32 (data + dir + 128 + 60), ==, 0);

  {
    g_autoptr(NresArchive) archive = parse (file);
    g_autoptr(GPtrArray) diags = mat0_validate_archive (archive);

    g_assert_cmpuint (diags->len, ==, 0);
  }

  /* a permutation, but not the name order: 0, 1, 2 */
  set_u32 (data + dir + 60, 0);
  set_u32 (data + dir + 128 + 60, 2);
  {
    g_autoptr(GBytes) edited = g_bytes_new (data, size);
    g_autoptr(NresArchive) archive = parse (edited);
    g_autoptr(GPtrArray) diags = mat0_validate_archive (archive);

    g_assert_true (archive->sort_index_valid);
    g_assert_false (archive->sort_index_canonical);
    g_assert_cmpuint (diags->len, ==, 1);
    assert_diag (diags->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_SORT_INDEX,
                 0, "DEFAULT", -1, -1, -1, dir + 60,
                 "expected sort_index 2 (the entries in name order), found 0 "
                 "(the table is not canonical: the binary search by name can "
                 "miss entries)");
  }

  /* out of range */
  set_u32 (data + dir + 64 + 60, 99);
  {
    g_autoptr(GBytes) edited = g_bytes_new (data, size);
    g_autoptr(NresArchive) archive = parse (edited);
    g_autoptr(GPtrArray) diags = mat0_validate_archive (archive);

    g_assert_false (archive->sort_index_valid);
    g_assert_cmpuint (diags->len, ==, 1);
    assert_diag (diags->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_SORT_INDEX,
                 1, "BRICK", -1, -1, -1, dir + 64 + 60,
                 "expected a sort_index below the entry count 3, found 99 "
                 "(the table is invalid: name lookup falls back to a linear "
                 "scan)");
  }

  /* a repeated value */
  set_u32 (data + dir + 64 + 60, 2);
  {
    g_autoptr(GBytes) edited = g_bytes_new (data, size);
    g_autoptr(NresArchive) archive = parse (edited);
    g_autoptr(GPtrArray) diags = mat0_validate_archive (archive);

    g_assert_false (archive->sort_index_valid);
    g_assert_cmpuint (diags->len, ==, 1);
    assert_diag (diags->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_SORT_INDEX,
                 2, "ALPHA", -1, -1, -1, dir + 128 + 60,
                 "expected each sort_index value once, found 2 again (the "
                 "table is invalid: name lookup falls back to a linear scan)");
  }
}

static void
test_archive_unaligned (void)
{
  g_autoptr(GBytes) clean = clean_payload ();   /* 66 bytes */
  TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 0, 6, 0, "DEFAULT", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "ROCK", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 },
    { NRES_TYPE_TEXM, 0, 0, 0, "T.0", (const guint8 *) "abc", 3, 0 },
  };
  g_autoptr(GBytes) file = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  guint32 dir;

  g_assert_cmpuint (g_bytes_get_size (clean), ==, 66);
  file = test_build_archive (specs, 3, FALSE);
  archive = parse (file);
  dir = archive->directory_offset;
  g_assert_cmpuint (archive->entries[1].data_offset, ==, 82);
  g_assert_cmpuint (archive->entries[2].data_offset, ==, 148);

  diags = mat0_validate_archive (archive);
  g_assert_cmpuint (diags->len, ==, 2);
  assert_diag (diags->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_UNALIGNED_PAYLOAD,
               1, "ROCK", -1, -1, -1, dir + 64 + 56,
               "expected data_offset to be a multiple of 8 (as in retail "
               "archives), found 82");
  /* other entry types too: the archive's layout is checked */
  assert_diag (diags->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_UNALIGNED_PAYLOAD,
               2, "T.0", -1, -1, -1, dir + 128 + 56,
               "expected data_offset to be a multiple of 8 (as in retail "
               "archives), found 148");
}

static void
test_archive_order (void)
{
  /* entry lints in entry order, then archive lints: no DEFAULT, duplicates,
   * sort_index, alignment */
  g_autoptr(GByteArray) lint = g_byte_array_new ();
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  TestEntrySpec specs[3];
  g_autoptr(GBytes) file = NULL;
  gsize size;
  g_autofree guint8 *data = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  static const Mat0Check want[] = {
    MAT0_LINT_TEXTURE_NO_DOT,       /* entry 0 */
    MAT0_CHECK_DECODE_ERROR,        /* entry 1 */
    MAT0_LINT_TEXTURE_NO_DOT,       /* entry 2 */
    MAT0_LINT_NO_DEFAULT,
    MAT0_LINT_DUPLICATE_NAME,       /* entry 2 */
    MAT0_LINT_SORT_INDEX,
    MAT0_LINT_UNALIGNED_PAYLOAD,    /* entry 2 at 67; entry 1 at 64 is aligned */
  };

  put_header (lint, 1, 0);
  put_named_phase (lint, "NODOT");
  test_put_bytes (bad, "\x00\x00\x00", 3);

  specs[0] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "B", lint->data, lint->len, 0 };
  specs[1] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "A", bad->data, bad->len, 0 };
  specs[2] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "b", lint->data, lint->len, 0 };
  file = test_build_archive (specs, 3, FALSE);
  size = g_bytes_get_size (file);
  data = g_memdup2 (g_bytes_get_data (file, NULL), size);
  /* break sort_index: a valid but non-canonical permutation */
  set_u32 (data + size - 3 * 64 + 60, 0);
  set_u32 (data + size - 2 * 64 + 60, 1);
  set_u32 (data + size - 1 * 64 + 60, 2);
  edited = g_bytes_new (data, size);
  archive = parse (edited);

  diags = mat0_validate_archive (archive);
  g_assert_cmpuint (diags->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < diags->len; i++)
    {
      const Mat0Diagnostic *d = diags->pdata[i];

      g_assert_cmpint (d->check, ==, want[i]);
      g_assert_cmpint (d->severity, ==, want[i] == MAT0_CHECK_DECODE_ERROR ?
                                        MAT0_SEVERITY_ERROR : MAT0_SEVERITY_LINT);
    }
  g_assert_cmpstr (((Mat0Diagnostic *) diags->pdata[1])->message, ==,
                   "A: offset 64: expected 4 bytes of phaseCount and "
                   "animBlockCount, found 3");
  g_assert_cmpuint (((Mat0Diagnostic *) diags->pdata[1])->offset, ==, 64);
}

/* The new lints in an archive: offsets are absolute in the file */
static void
test_archive_animation_lints (void)
{
  g_autoptr(GBytes) clean = clean_payload ();
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  TestEntrySpec specs[2];
  g_autoptr(GBytes) file = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  guint32 at;
  guint8 p[18] = { 0 };

  p[3] = 120;
  put_header (bad, 1, 1);
  test_put_phase (bad, p, "ROCK.0");
  test_put_u32 (bad, 0);
  test_put_u16 (bad, 2);
  put_key (bad, 0, 300, 0);
  put_key (bad, 0, 300, 0);

  specs[0] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "DEFAULT", g_bytes_get_data (clean, NULL), g_bytes_get_size (clean), 0 };
  specs[1] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "FADE", bad->data, bad->len, 0 };
  file = test_build_archive (specs, 2, TRUE);
  archive = parse (file);
  at = archive->entries[1].data_offset;
  g_assert_cmpuint (at, ==, 16 + 72);

  diags = mat0_validate_archive (archive);
  g_assert_cmpuint (diags->len, ==, 2);
  assert_diag (diags->pdata[0], MAT0_SEVERITY_LINT, MAT0_LINT_AMBIENT_ALPHA,
               1, "FADE", 0, -1, -1, at + 14 + 3,
               "expected an ambient alpha (p3, opacity in per cent) of at "
               "most 100 in phase 0, found 120 (over 100 % opacity)");
  assert_diag (diags->pdata[1], MAT0_SEVERITY_LINT, MAT0_LINT_KEY_TIME_ORDER,
               1, "FADE", -1, 0, 1, at + 48 + 6 + 6 + 2,
               "expected the time of key 1 of anim block 0 to be greater "
               "than 300 ms (the previous key's time), found 300 ms (an "
               "empty interval: the game never shows this blend)");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/mat0-validate/lint/clean", test_lint_clean);
  g_test_add_func ("/core/mat0-validate/lint/texture-no-nul", test_lint_texture_no_nul);
  g_test_add_func ("/core/mat0-validate/lint/texture-no-dot", test_lint_texture_no_dot);
  g_test_add_func ("/core/mat0-validate/lint/palette-index", test_lint_palette_index);
  g_test_add_func ("/core/mat0-validate/lint/blocks", test_lint_blocks);
  g_test_add_func ("/core/mat0-validate/lint/zero-period", test_lint_zero_period);
  g_test_add_func ("/core/mat0-validate/lint/key-time-order", test_lint_key_time_order);
  g_test_add_func ("/core/mat0-validate/lint/ambient-alpha", test_lint_ambient_alpha);
  g_test_add_func ("/core/mat0-validate/lint/versions", test_lint_versions);
  g_test_add_func ("/core/mat0-validate/check-names", test_check_names);
  g_test_add_func ("/core/mat0-validate/severity-strings", test_severity_strings);
  g_test_add_func ("/core/mat0-validate/archive/clean", test_archive_clean);
  g_test_add_func ("/core/mat0-validate/archive/empty", test_archive_empty);
  g_test_add_func ("/core/mat0-validate/archive/decode-error", test_archive_decode_error);
  g_test_add_func ("/core/mat0-validate/archive/truncated-payload", test_archive_truncated_payload);
  g_test_add_func ("/core/mat0-validate/archive/no-default", test_archive_no_default);
  g_test_add_func ("/core/mat0-validate/archive/default-any-case", test_archive_default_any_case);
  g_test_add_func ("/core/mat0-validate/archive/no-mat0", test_archive_no_mat0);
  g_test_add_func ("/core/mat0-validate/archive/duplicate-name", test_archive_duplicate_name);
  g_test_add_func ("/core/mat0-validate/archive/sort-index", test_archive_sort_index);
  g_test_add_func ("/core/mat0-validate/archive/unaligned", test_archive_unaligned);
  g_test_add_func ("/core/mat0-validate/archive/order", test_archive_order);
  g_test_add_func ("/core/mat0-validate/archive/animation-lints", test_archive_animation_lints);

  return g_test_run ();
}
