/* test-mat0-diff.c - what differs between two materials and two libraries:
 * the exact field paths, the matching by name, the summary for people */
#include "config.h"

#include <string.h>

#include "mat0-diff.h"
#include "mat0-fields.h"
#include "mat0.h"
#include "nres.h"
#include "test-support.h"

/* ---- helpers ----------------------------------------------------------- */

/* The paths of @fields joined by ", ". Returns: (transfer full). */
static char *
paths_of (GArray *fields)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < fields->len; i++)
    {
      g_autofree char *path = mat0_diff_field_dup_path (&g_array_index (fields, Mat0DiffField, i));

      if (i > 0)
        g_string_append (text, ", ");
      g_string_append (text, path);
    }
  return g_string_free (text, FALSE);
}

static char *
summary_of (GArray *fields)
{
  return mat0_diff_dup_summary ((const Mat0DiffField *) (gpointer) fields->data, fields->len);
}

/* A material with two phases and one block of three keys. */
static Mat0Material *
sample_material (void)
{
  Mat0Material *m = mat0_material_new_canonical ();

  m->n_phases = 2;
  m->phases = g_renew (Mat0Phase, m->phases, 2);
  m->phases[1] = m->phases[0];
  memcpy (m->phases[1].texture, "ROCK.0\0\0\0\0\0\0\0\0\0", MAT0_TEXTURE_SIZE);
  m->phases[1].p[0] = 80;

  m->n_blocks = 1;
  m->blocks = g_new0 (Mat0Block, 1);
  m->blocks[0].header_raw = (0x03u << 3) | 1u;
  m->blocks[0].n_keys = 3;
  m->blocks[0].keys = g_new0 (Mat0Key, 3);
  m->blocks[0].keys[0] = (Mat0Key) { 0, 500, 0 };
  m->blocks[0].keys[1] = (Mat0Key) { 1, 1000, 0 };
  m->blocks[0].keys[2] = (Mat0Key) { 0, 1500, 7 };
  return m;
}

/* Appends a block of @n_keys keys (phase 0, every 100 ms) to @m. */
static void
add_block (Mat0Material *m,
           guint32       header_raw,
           guint         n_keys)
{
  Mat0Block *block;

  m->blocks = g_renew (Mat0Block, m->blocks, m->n_blocks + 1);
  block = &m->blocks[m->n_blocks++];
  block->header_raw = header_raw;
  block->n_keys = (guint16) n_keys;
  block->keys = g_new0 (Mat0Key, MAX (n_keys, 1));
  for (guint k = 0; k < n_keys; k++)
    block->keys[k] = (Mat0Key) { 0, (guint16) (100 * (k + 1)), 0 };
}

/* ---- two materials ----------------------------------------------------- */

static void
test_materials_equal (void)
{
  g_autoptr(Mat0Material) a = sample_material ();
  g_autoptr(Mat0Material) b = mat0_material_copy (a);
  g_autoptr(GArray) fields = mat0_diff_fields_new ();
  g_autofree char *summary = NULL;

  g_assert_false (mat0_diff_materials (a, 8, 0, b, 8, 0, fields));
  g_assert_cmpuint (fields->len, ==, 0);
  summary = summary_of (fields);
  g_assert_cmpstr (summary, ==, "");
}

static void
test_material_fields (void)
{
  g_autoptr(Mat0Material) a = sample_material ();
  g_autoptr(Mat0Material) b = mat0_material_copy (a);
  g_autoptr(GArray) fields = mat0_diff_fields_new ();
  g_autofree char *paths = NULL;
  g_autofree char *summary = NULL;

  /* in reverse payload order: the diff comes in payload order anyway */
  b->blocks[0].keys[2].k2 = 0;
  b->blocks[0].keys[1].k1 = 750;
  b->blocks[0].keys[0].k0 = 1;
  b->blocks[0].header_raw = (0x1Fu << 3) | 2u;   /* mode and interp */
  b->phases[1].texture[10] = 'x';                /* after the NUL only */
  b->phases[1].p[17] = 3;
  b->phases[1].p[5] = 128;
  b->phases[0].p[16] = 4;
  b->phases[0].p[3] = 60;
  b->meta_c = 0x40000000u;
  b->meta_a = 7;

  g_assert_true (mat0_diff_materials (a, 0x08, 0, b, 0x04, 5, fields));
  paths = paths_of (fields);
  g_assert_cmpstr (paths, ==,
                   "attr1, attr3, meta.a, meta.c, phase[0].p[3], phase[0].p[16], "
                   "phase[1].p[5], phase[1].p[17], phase[1].texture, block[0].mode, "
                   "block[0].interp, block[0].key[0].k0, block[0].key[1].k1, block[0].key[2].k2");
  g_assert_cmpint (g_array_index (fields, Mat0DiffField, 0).side, ==, MAT0_DIFF_BOTH);

  summary = summary_of (fields);
  g_assert_cmpstr (summary, ==,
                   "attr1, attr3, metadata (ground class, speed factor), "
                   "phase 0 (self-light, specular power), "
                   "phase 1 (diffuse, texture cell, texture), "
                   "block 0 (mode, interpolation, keys)");
}

/* A phase, a block or a key on one side only is one difference each. */
static void
test_material_counts (void)
{
  g_autoptr(Mat0Material) a = sample_material ();
  g_autoptr(Mat0Material) b = mat0_material_copy (a);
  g_autoptr(GArray) fields = mat0_diff_fields_new ();
  g_autofree char *paths = NULL;
  g_autofree char *summary = NULL;

  /* B: a third phase, block 0 with key 2 dropped, a second block */
  b->n_phases = 3;
  b->phases = g_renew (Mat0Phase, b->phases, 3);
  b->phases[2] = b->phases[0];
  b->blocks[0].n_keys = 2;
  add_block (b, 0, 2);
  /* A: attr2 3 (metaD absent: the default) against 6 */
  a->attr2 = 3;

  g_assert_true (mat0_diff_materials (a, 0, 0, b, 0, 0, fields));
  paths = paths_of (fields);
  g_assert_cmpstr (paths, ==, "attr2, phase[2], block[0].key[2], block[1]");
  g_assert_cmpint (g_array_index (fields, Mat0DiffField, 1).side, ==, MAT0_DIFF_ONLY_B);
  g_assert_cmpint (g_array_index (fields, Mat0DiffField, 2).side, ==, MAT0_DIFF_ONLY_A);
  g_assert_cmpuint (g_array_index (fields, Mat0DiffField, 2).key, ==, 2);
  g_assert_cmpint (g_array_index (fields, Mat0DiffField, 3).side, ==, MAT0_DIFF_ONLY_B);
  summary = summary_of (fields);
  g_assert_cmpstr (summary, ==, "version, phase 2 added, block 0 (keys), block 1 added");

  /* the other way round */
  g_array_set_size (fields, 0);
  g_assert_true (mat0_diff_materials (b, 0, 0, a, 0, 0, fields));
  g_clear_pointer (&summary, g_free);
  summary = summary_of (fields);
  g_assert_cmpstr (summary, ==, "version, phase 2 removed, block 0 (keys), block 1 removed");
}

/* ---- the two values of every kind ---------------------------------------- */

/* Field @i of @fields is @kind with A's value @from and B's @to, reads
 * as @label and its change as @change. */
static void
check_field (GArray       *fields,
             guint         i,
             Mat0DiffKind  kind,
             guint32       from,
             guint32       to,
             const char   *label,
             const char   *change)
{
  const Mat0DiffField *field;
  g_autofree char *text_label = NULL;
  g_autofree char *text_change = NULL;

  g_assert_cmpuint (i, <, fields->len);
  field = &g_array_index (fields, Mat0DiffField, i);
  g_assert_cmpint (field->kind, ==, kind);
  g_assert_cmpuint (field->from, ==, from);
  g_assert_cmpuint (field->to, ==, to);
  text_label = mat0_diff_field_dup_label (field);
  g_assert_cmpstr (text_label, ==, label);
  text_change = mat0_diff_field_dup_change (field);
  g_assert_cmpstr (text_change, ==, change);
  /* the two as one line */
  {
    g_autofree char *line = mat0_diff_field_dup_description (field);
    g_autofree char *expected = g_strdup_printf ("%s: %s", label, change);

    g_assert_cmpstr (line, ==, expected);
  }
}

/* How side @side of field @i reads, and its value for people. */
static void
check_reading (GArray     *fields,
               guint       i,
               guint       side,
               const char *reading,
               const char *value)
{
  const Mat0DiffField *field = &g_array_index (fields, Mat0DiffField, i);
  g_autofree char *text_reading = mat0_diff_field_dup_reading (field, side);
  g_autofree char *text_value = mat0_diff_field_dup_value (field, side);

  g_assert_cmpstr (text_reading, ==, reading);
  g_assert_cmpstr (text_value, ==, value);
}

/* The directory fields, the metadata, the bytes of a phase and its
 * texture: old and new values, the readings of the field table. */
static void
test_values_fields (void)
{
  g_autoptr(Mat0Material) a = sample_material ();
  g_autoptr(Mat0Material) b = NULL;
  g_autoptr(GArray) fields = mat0_diff_fields_new ();

  a->attr2 = 5;
  a->phases[0].p[3] = 100;
  a->phases[0].p[4] = 128;
  b = mat0_material_copy (a);
  b->attr2 = 6;
  b->meta_a = 7;
  b->meta_b = 3;
  b->meta_c = 0x3FC00000u;          /* 1.5f */
  b->meta_d = 10000;
  b->phases[0].p[3] = 60;
  b->phases[0].p[4] = 200;
  b->phases[0].p[16] = 4;
  b->phases[0].p[17] = 0;           /* untextured: both read as -1 */
  b->phases[1].p[17] = 3;
  memcpy (b->phases[1].texture, "ROCK.1\0\0\0\0\0\0\0\0\0", MAT0_TEXTURE_SIZE);

  g_assert_true (mat0_diff_materials (a, 0x08, 0, b, 0x04, 5, fields));
  g_assert_cmpuint (fields->len, ==, 13);
  check_field (fields, 0, MAT0_DIFF_ATTR1, 0x08, 0x04, "attr1", "0x8 (Additive) → 0x4 (See-through)");
  check_reading (fields, 0, 0, "Additive", "0x8 (Additive)");
  check_reading (fields, 0, 1, "See-through", "0x4 (See-through)");
  check_field (fields, 1, MAT0_DIFF_ATTR2, 5, 6, "version", "5 → 6");
  check_reading (fields, 1, 0, NULL, "5");
  check_field (fields, 2, MAT0_DIFF_ATTR3, 0, 5, "attr3", "0 → 5");
  check_field (fields, 3, MAT0_DIFF_META, 255, 7, "ground class", "255 (not set) → 7 (water)");
  check_reading (fields, 3, 1, "water", "7 (water)");
  check_field (fields, 4, MAT0_DIFF_META, 255, 3, "unused", "255 → 3");
  check_field (fields, 5, MAT0_DIFF_META, 0x3F800000u, 0x3FC00000u, "speed factor",
               "1 (0x3F800000) → 1.5 (0x3FC00000)");
  check_reading (fields, 5, 1, "1.5", "1.5 (0x3FC00000)");
  check_field (fields, 6, MAT0_DIFF_META, 0, 10000, "damage per second", "0 → 10000");
  /* the opacity in per cent, a no-break space before "%" */
  check_field (fields, 7, MAT0_DIFF_PARAM, 100, 60, "phase 0 opacity",
               "100\u00a0% → 60\u00a0%");
  check_reading (fields, 7, 1, "60\u00a0%", "60\u00a0%");
  check_field (fields, 8, MAT0_DIFF_PARAM, 128, 200, "phase 0 diffuse R", "128 → 200");
  check_reading (fields, 8, 0, NULL, "128");
  check_field (fields, 9, MAT0_DIFF_PARAM, 0, 4, "phase 0 specular power", "0 → 4");
  /* untextured, both cells read as -1: the bytes tell them apart */
  check_field (fields, 10, MAT0_DIFF_PARAM, 255, 0, "phase 0 texture cell",
               "255 (−1 untextured) → 0 (−1 untextured)");
  check_reading (fields, 10, 0, "−1 untextured", "−1 untextured");
  check_field (fields, 11, MAT0_DIFF_PARAM, 255, 3, "phase 1 texture cell",
               "−1 whole texture → cell 3");
  /* the texture by its name */
  check_field (fields, 12, MAT0_DIFF_TEXTURE, 0, 0, "phase 1 texture", "“ROCK.0” → “ROCK.1”");
  check_reading (fields, 12, 0, NULL, "“ROCK.0”");
  {
    const Mat0DiffField *field = &g_array_index (fields, Mat0DiffField, 12);
    g_autofree char *from = mat0_diff_field_dup_texture (field, 0);
    g_autofree char *to = mat0_diff_field_dup_texture (field, 1);

    g_assert_cmpstr (from, ==, "ROCK.0");
    g_assert_cmpstr (to, ==, "ROCK.1");
    g_assert_cmpmem (field->texture[0], MAT0_TEXTURE_SIZE, a->phases[1].texture, MAT0_TEXTURE_SIZE);
    g_assert_cmpmem (field->texture[1], MAT0_TEXTURE_SIZE, b->phases[1].texture, MAT0_TEXTURE_SIZE);
  }

  /* the first ones one a line, then how many more */
  {
    g_autofree char *two = mat0_diff_dup_changes ((const Mat0DiffField *) (gpointer) fields->data, 13, 2);
    g_autofree char *all = mat0_diff_dup_changes ((const Mat0DiffField *) (gpointer) fields->data, 2, 2);
    g_autofree char *one_more = mat0_diff_dup_changes ((const Mat0DiffField *) (gpointer) fields->data, 3, 2);
    g_autofree char *none = mat0_diff_dup_changes (NULL, 0, 2);

    g_assert_cmpstr (two, ==, "attr1: 0x8 (Additive) → 0x4 (See-through)\n"
                              "version: 5 → 6\n"
                              "… and 11 more changes");
    g_assert_cmpstr (all, ==, "attr1: 0x8 (Additive) → 0x4 (See-through)\n"
                              "version: 5 → 6");
    g_assert_cmpstr (one_more, ==, "attr1: 0x8 (Additive) → 0x4 (See-through)\n"
                                   "version: 5 → 6\n"
                                   "… and 1 more change");
    g_assert_cmpstr (none, ==, "");
  }

  /* a texture set, and one that differs after its NUL only: the bytes */
  g_array_set_size (fields, 0);
  g_clear_pointer (&b, mat0_material_free);
  b = mat0_material_copy (a);
  memcpy (b->phases[0].texture, "SKY.0\0\0\0\0\0\0\0\0\0\0", MAT0_TEXTURE_SIZE);
  b->phases[1].texture[10] = 'x';
  g_assert_true (mat0_diff_materials (a, 0, 0, b, 0, 0, fields));
  g_assert_cmpuint (fields->len, ==, 2);
  check_field (fields, 0, MAT0_DIFF_TEXTURE, 0, 0, "phase 0 texture", "untextured → “SKY.0”");
  check_field (fields, 1, MAT0_DIFF_TEXTURE, 0, 0, "phase 1 texture",
               "52 4F 43 4B 2E 30 00 00 00 00 00 00 00 00 00 00 → "
               "52 4F 43 4B 2E 30 00 00 00 00 78 00 00 00 00 00");
}

/* Phases, blocks and keys on one side only (the counts), modes, masks
 * and the three fields of a key. */
static void
test_values_animation (void)
{
  g_autoptr(Mat0Material) a = sample_material ();
  g_autoptr(Mat0Material) b = mat0_material_copy (a);
  g_autoptr(GArray) fields = mat0_diff_fields_new ();

  /* B: a third phase, block 0 played once with every bit blended and
   * key 2 dropped, key 0 on phase 1, key 1 ending earlier; a second block */
  b->n_phases = 3;
  b->phases = g_renew (Mat0Phase, b->phases, 3);
  b->phases[2] = b->phases[0];
  b->blocks[0].header_raw = (0x1Fu << 3) | 2u;
  b->blocks[0].keys[0].k0 = 1;
  b->blocks[0].keys[1].k1 = 750;
  b->blocks[0].n_keys = 2;
  add_block (b, 5, 1);

  g_assert_true (mat0_diff_materials (a, 0, 0, b, 0, 0, fields));
  g_assert_cmpuint (fields->len, ==, 7);
  check_field (fields, 0, MAT0_DIFF_PHASE, 2, 3, "phase 2 added", "2\u00a0phases → 3\u00a0phases");
  check_reading (fields, 0, 1, "3\u00a0phases", "3\u00a0phases");
  check_field (fields, 1, MAT0_DIFF_MODE, 1, 2, "block 0 mode", "Ping-pong → Once");
  check_field (fields, 2, MAT0_DIFF_INTERP, 0x03, 0x1F, "block 0 interpolation",
               "0x3 (Self-light RGB, Diffuse RGB) → "
               "0x1F (Self-light RGB, Diffuse RGB, Specular RGB, Emissive RGB, Opacity)");
  check_reading (fields, 2, 0, "Self-light RGB, Diffuse RGB", "0x3 (Self-light RGB, Diffuse RGB)");
  check_field (fields, 3, MAT0_DIFF_K0, 0, 1, "block 0 key 0 phase", "0 → 1");
  /* a time in ms, a no-break space before the unit */
  check_field (fields, 4, MAT0_DIFF_K1, 1000, 750, "block 0 key 1 time",
               "1000\u00a0ms → 750\u00a0ms");
  check_reading (fields, 4, 1, "750\u00a0ms", "750\u00a0ms");
  check_field (fields, 5, MAT0_DIFF_KEY, 3, 2, "block 0 key 2 removed", "3\u00a0keys → 2\u00a0keys");
  check_field (fields, 6, MAT0_DIFF_BLOCK, 1, 2, "block 1 added", "1\u00a0block → 2\u00a0blocks");

  /* k2, an unknown mode, an empty mask with an unknown bit, the other way round */
  g_array_set_size (fields, 0);
  g_clear_pointer (&b, mat0_material_free);
  b = mat0_material_copy (a);
  b->blocks[0].header_raw = (0x40u << 3) | 5u;
  b->blocks[0].keys[2].k2 = 0;
  g_assert_true (mat0_diff_materials (b, 0, 0, a, 0, 0, fields));
  g_assert_cmpuint (fields->len, ==, 3);
  check_field (fields, 0, MAT0_DIFF_MODE, 5, 1, "block 0 mode", "Unknown (5) → Ping-pong");
  check_field (fields, 1, MAT0_DIFF_INTERP, 0x40, 0x03, "block 0 interpolation",
               "0x40 (unknown bits 0x40) → 0x3 (Self-light RGB, Diffuse RGB)");
  check_field (fields, 2, MAT0_DIFF_K2, 0, 7, "block 0 key 2 k2", "0 → 7");

  /* a phase and a block removed */
  g_array_set_size (fields, 0);
  g_clear_pointer (&b, mat0_material_free);
  b = mat0_material_copy (a);
  b->n_phases = 1;
  b->n_blocks = 0;
  g_assert_true (mat0_diff_materials (a, 0, 0, b, 0, 0, fields));
  g_assert_cmpuint (fields->len, ==, 2);
  check_field (fields, 0, MAT0_DIFF_PHASE, 2, 1, "phase 1 removed", "2\u00a0phases → 1\u00a0phase");
  check_field (fields, 1, MAT0_DIFF_BLOCK, 1, 0, "block 0 removed", "1\u00a0block → 0\u00a0blocks");
  b->n_blocks = 1;   /* freed as it was made */
}

/* Entries that are not two materials: the type and the payload size. */
static void
test_values_entries (void)
{
  static const guint8 bytes_a[] = { 1, 2, 3, 4 };
  static const guint8 bytes_b[] = { 1, 2, 3 };
  g_autoptr(GArray) fields = mat0_diff_fields_new ();
  Mat0DiffEntry a = { "TEX", NRES_TYPE_TEXM, 1, 2, 3, NULL, bytes_a, 4 };
  Mat0DiffEntry b = { "TEX", 0x01020304u, 0x41, 6, 3, NULL, bytes_b, 3 };

  g_assert_true (mat0_diff_entries (&a, &b, fields));
  g_assert_cmpuint (fields->len, ==, 4);
  /* a type id as its four letters when they are printable */
  check_field (fields, 0, MAT0_DIFF_TYPE, NRES_TYPE_TEXM, 0x01020304u, "entry type", "Texm → 0x01020304");
  check_reading (fields, 0, 0, "Texm", "Texm");
  check_reading (fields, 0, 1, NULL, "0x01020304");
  check_field (fields, 1, MAT0_DIFF_ATTR1, 1, 0x41, "attr1", "0x1 (Opaque, extended texture load) → 0x41 (Opaque, extended texture load, bit 6)");
  check_field (fields, 2, MAT0_DIFF_ATTR2, 2, 6, "version", "2 → 6");
  check_field (fields, 3, MAT0_DIFF_PAYLOAD, 4, 3, "payload bytes", "4\u00a0bytes → 3\u00a0bytes");

  /* an unknown blend index */
  g_array_set_size (fields, 0);
  b = a;
  b.attr1 = 7u << 2;
  g_assert_true (mat0_diff_entries (&a, &b, fields));
  check_field (fields, 0, MAT0_DIFF_ATTR1, 1, 0x1C, "attr1", "0x1 (Opaque, extended texture load) → 0x1C (unknown blend 7)");

  /* the hardware-profile bit and bits no code reads */
  g_array_set_size (fields, 0);
  b.attr1 = 0x80000106u;
  g_assert_true (mat0_diff_entries (&a, &b, fields));
  check_field (fields, 0, MAT0_DIFF_ATTR1, 1, 0x80000106u, "attr1",
               "0x1 (Opaque, extended texture load) → "
               "0x80000106 (See-through, hardware profile, unknown bits 0x80000100)");
}

/* ---- entries that are not two materials ---------------------------------- */

static void
test_entries (void)
{
  static const guint8 bytes_a[] = { 1, 2, 3, 4 };
  static const guint8 bytes_b[] = { 1, 2, 3, 5 };
  g_autoptr(Mat0Material) m = sample_material ();
  g_autoptr(GArray) fields = mat0_diff_fields_new ();
  g_autofree char *paths = NULL;
  Mat0DiffEntry a = { "TEX", NRES_TYPE_TEXM, 1, 2, 3, NULL, bytes_a, 4 };
  Mat0DiffEntry b = a;

  g_assert_false (mat0_diff_entries (&a, &b, fields));
  b.payload = bytes_b;
  g_assert_true (mat0_diff_entries (&a, &b, fields));
  paths = paths_of (fields);
  g_assert_cmpstr (paths, ==, "payload");

  /* a material against raw bytes: the type, then the bytes */
  g_array_set_size (fields, 0);
  b = (Mat0DiffEntry) { "TEX", NRES_TYPE_MAT0, 1, 6, 3, m, bytes_b, 3 };
  g_assert_true (mat0_diff_entries (&a, &b, fields));
  g_clear_pointer (&paths, g_free);
  paths = paths_of (fields);
  g_assert_cmpstr (paths, ==, "type, attr2, payload");

  /* two MAT0 entries that do not decode: their bytes */
  g_array_set_size (fields, 0);
  a.type_id = NRES_TYPE_MAT0;
  b = a;
  g_assert_false (mat0_diff_entries (&a, &b, fields));
  b.size = 3;
  g_assert_true (mat0_diff_entries (&a, &b, fields));
  g_clear_pointer (&paths, g_free);
  paths = paths_of (fields);
  g_assert_cmpstr (paths, ==, "payload");
}

/* ---- libraries --------------------------------------------------------- */

static void
test_libraries (void)
{
  g_autoptr(Mat0Material) base = sample_material ();
  g_autoptr(Mat0Material) changed = mat0_material_copy (base);
  Mat0DiffEntry a[5], b[5];
  g_autoptr(Mat0LibraryDiff) diff = NULL;
  const Mat0DiffItem *item;
  g_autofree char *paths = NULL;

  changed->phases[0].p[5] = 1;
  /* A: DEFAULT, Rock, GONE, dup, dup ; B: dup, rock (changed), NEW, DEFAULT, DUP */
  a[0] = (Mat0DiffEntry) { "DEFAULT", NRES_TYPE_MAT0, 0, 6, 0, base, NULL, 0 };
  a[1] = (Mat0DiffEntry) { "Rock", NRES_TYPE_MAT0, 0, 6, 0, base, NULL, 0 };
  a[2] = (Mat0DiffEntry) { "GONE", NRES_TYPE_MAT0, 0, 6, 0, base, NULL, 0 };
  a[3] = (Mat0DiffEntry) { "dup", NRES_TYPE_MAT0, 0, 6, 0, base, NULL, 0 };
  a[4] = (Mat0DiffEntry) { "dup", NRES_TYPE_MAT0, 2, 6, 0, base, NULL, 0 };
  b[0] = (Mat0DiffEntry) { "dup", NRES_TYPE_MAT0, 0, 6, 0, base, NULL, 0 };
  b[1] = (Mat0DiffEntry) { "ROCK", NRES_TYPE_MAT0, 0, 6, 0, changed, NULL, 0 };
  b[2] = (Mat0DiffEntry) { "NEW", NRES_TYPE_MAT0, 0, 6, 0, base, NULL, 0 };
  b[3] = (Mat0DiffEntry) { "default", NRES_TYPE_MAT0, 0, 6, 0, base, NULL, 0 };
  b[4] = (Mat0DiffEntry) { "DUP", NRES_TYPE_MAT0, 0, 6, 0, base, NULL, 0 };

  diff = mat0_diff_libraries (a, 5, b, 5);
  g_assert_cmpuint (diff->items->len, ==, 6);
  g_assert_cmpuint (diff->n_same, ==, 2);
  g_assert_cmpuint (diff->n_changed, ==, 2);
  g_assert_cmpuint (diff->n_removed, ==, 1);
  g_assert_cmpuint (diff->n_added, ==, 1);
  g_assert_false (mat0_library_diff_is_equal (diff));

  /* A's order: DEFAULT = default (case-insensitive) */
  item = diff->items->pdata[0];
  g_assert_cmpint (item->status, ==, MAT0_DIFF_SAME);
  g_assert_cmpint (item->index_a, ==, 0);
  g_assert_cmpint (item->index_b, ==, 3);
  g_assert_cmpuint (item->fields->len, ==, 0);
  /* Rock = ROCK, with a changed byte */
  item = diff->items->pdata[1];
  g_assert_cmpint (item->status, ==, MAT0_DIFF_CHANGED);
  g_assert_cmpint (item->index_b, ==, 1);
  paths = paths_of (item->fields);
  g_assert_cmpstr (paths, ==, "phase[0].p[5]");
  /* GONE is only in A */
  item = diff->items->pdata[2];
  g_assert_cmpint (item->status, ==, MAT0_DIFF_REMOVED);
  g_assert_cmpint (item->index_a, ==, 2);
  g_assert_cmpint (item->index_b, ==, -1);
  /* the first "dup" of A is the first of B, the second the second */
  item = diff->items->pdata[3];
  g_assert_cmpint (item->status, ==, MAT0_DIFF_SAME);
  g_assert_cmpint (item->index_a, ==, 3);
  g_assert_cmpint (item->index_b, ==, 0);
  item = diff->items->pdata[4];
  g_assert_cmpint (item->status, ==, MAT0_DIFF_CHANGED);
  g_assert_cmpint (item->index_a, ==, 4);
  g_assert_cmpint (item->index_b, ==, 4);
  g_clear_pointer (&paths, g_free);
  paths = paths_of (item->fields);
  g_assert_cmpstr (paths, ==, "attr1");
  /* then the added ones in B's order */
  item = diff->items->pdata[5];
  g_assert_cmpint (item->status, ==, MAT0_DIFF_ADDED);
  g_assert_cmpint (item->index_a, ==, -1);
  g_assert_cmpint (item->index_b, ==, 2);

  /* a library against itself */
  g_clear_pointer (&diff, mat0_library_diff_free);
  diff = mat0_diff_libraries (a, 5, a, 5);
  g_assert_true (mat0_library_diff_is_equal (diff));
  g_assert_cmpuint (diff->n_same, ==, 5);

  /* against an empty one */
  g_clear_pointer (&diff, mat0_library_diff_free);
  diff = mat0_diff_libraries (a, 5, NULL, 0);
  g_assert_cmpuint (diff->n_removed, ==, 5);
  g_assert_cmpuint (diff->items->len, ==, 5);
}

/* Two archives: MAT0 entries decoded and compared field by field, the
 * other entries and a MAT0 entry that does not decode by their bytes. */
static void
test_archives (void)
{
  g_autoptr(GBytes) worked = test_worked_example_payload (0);
  g_autoptr(GBytes) worked_once = test_worked_example_payload (2);
  static const guint8 texm_a[] = { 'T', 'e', 'x', 'm', 9, 9 };
  static const guint8 texm_b[] = { 'T', 'e', 'x', 'm', 9, 8 };
  static const guint8 broken[] = { 1, 0 };   /* too short for a header */
  TestEntrySpec specs_a[4] = {
    { NRES_TYPE_MAT0, 0x08, 6, 0, "WORKED", NULL, 0, 0 },
    { NRES_TYPE_TEXM, 0, 0, 0, "SKY.0", texm_a, sizeof texm_a, 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "BROKEN", broken, sizeof broken, 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "ONLY_A", NULL, 0, 0 },
  };
  TestEntrySpec specs_b[3] = {
    { NRES_TYPE_MAT0, 0x08, 6, 0, "worked", NULL, 0, 0 },
    { NRES_TYPE_TEXM, 0, 0, 0, "SKY.0", texm_b, sizeof texm_b, 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "BROKEN", broken, sizeof broken, 0 },
  };
  g_autoptr(GBytes) bytes_a = NULL;
  g_autoptr(GBytes) bytes_b = NULL;
  g_autoptr(NresArchive) a = NULL;
  g_autoptr(NresArchive) b = NULL;
  g_autoptr(Mat0LibraryDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  const Mat0DiffItem *item;
  g_autofree char *paths = NULL;

  specs_a[0].payload = g_bytes_get_data (worked, &specs_a[0].size);
  specs_a[3].payload = g_bytes_get_data (worked, &specs_a[3].size);
  /* the same track played once: mode 2 */
  specs_b[0].payload = g_bytes_get_data (worked_once, &specs_b[0].size);
  bytes_a = test_build_archive (specs_a, 4, TRUE);
  bytes_b = test_build_archive (specs_b, 3, TRUE);
  a = nres_archive_parse (bytes_a, &error);
  g_assert_no_error (error);
  b = nres_archive_parse (bytes_b, &error);
  g_assert_no_error (error);

  diff = mat0_diff_archives (a, b);
  g_assert_cmpuint (diff->items->len, ==, 4);
  item = diff->items->pdata[0];
  g_assert_cmpint (item->status, ==, MAT0_DIFF_CHANGED);
  paths = paths_of (item->fields);
  g_assert_cmpstr (paths, ==, "block[0].mode");
  item = diff->items->pdata[1];
  g_assert_cmpint (item->status, ==, MAT0_DIFF_CHANGED);
  g_clear_pointer (&paths, g_free);
  paths = paths_of (item->fields);
  g_assert_cmpstr (paths, ==, "payload");
  item = diff->items->pdata[2];
  g_assert_cmpint (item->status, ==, MAT0_DIFF_SAME);
  item = diff->items->pdata[3];
  g_assert_cmpint (item->status, ==, MAT0_DIFF_REMOVED);
  g_assert_cmpint (item->index_a, ==, 3);

  g_clear_pointer (&diff, mat0_library_diff_free);
  diff = mat0_diff_archives (a, a);
  g_assert_true (mat0_library_diff_is_equal (diff));
  g_assert_cmpuint (diff->n_same, ==, 4);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/diff/materials/equal", test_materials_equal);
  g_test_add_func ("/core/diff/materials/fields", test_material_fields);
  g_test_add_func ("/core/diff/materials/counts", test_material_counts);
  g_test_add_func ("/core/diff/entries", test_entries);
  g_test_add_func ("/core/diff/values/fields", test_values_fields);
  g_test_add_func ("/core/diff/values/animation", test_values_animation);
  g_test_add_func ("/core/diff/values/entries", test_values_entries);
  g_test_add_func ("/core/diff/libraries", test_libraries);
  g_test_add_func ("/core/diff/archives", test_archives);

  return g_test_run ();
}
