/* test-copy.c - copying a field, a colour group, a phase, a block, a key
 * or a whole material across materials and libraries (mat-material-copy.h)
 *
 * Every copy is checked at the byte level: the bytes a save writes change
 * exactly where the copy says, each copy is one undo step, undo gives the
 * original file back byte for byte and redo the copied one. */
#include "config.h"

#include <string.h>

#include "mat-library.h"
#include "mat-material-copy.h"
#include "nres.h"
#include "test-support.h"

/* ---- helpers ------------------------------------------------------------ */

static MatLibrary *
library_from (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  MatLibrary *lib = mat_library_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (lib);
  return lib;
}

static GBytes *
demo_bytes (void)
{
  const char *path = g_getenv ("DEMO_LIB");

  g_assert_nonnull (path);
  return test_load_file (path);
}

static GBytes *
save_bytes (MatLibrary *lib)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = mat_library_save_to_bytes (lib, &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

static MatMaterial *
find (MatLibrary *lib,
      const char *name)
{
  MatMaterial *material = mat_library_find (lib, name);

  g_assert_nonnull (material);
  return material;
}

/* Returns: (transfer none). */
static MatPhase *
phase_of (MatMaterial *material,
          guint        index)
{
  g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (material), index);

  g_assert_nonnull (phase);
  return phase;   /* the material holds it */
}

static MatHistory *
history (MatLibrary *lib)
{
  return mat_library_get_history (lib);
}

/* The offsets where @a and @b (of one size) differ. */
static GArray *
byte_differences (GBytes *a,
                  GBytes *b)
{
  gsize la, lb;
  const guint8 *da = g_bytes_get_data (a, &la);
  const guint8 *db = g_bytes_get_data (b, &lb);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gsize));

  g_assert_cmpuint (la, ==, lb);
  for (gsize i = 0; i < la; i++)
    if (da[i] != db[i])
      g_array_append_val (out, i);
  return out;
}

static void
assert_bytes_equal (GBytes *a,
                    GBytes *b)
{
  g_assert_cmpmem (g_bytes_get_data (a, NULL), g_bytes_get_size (a),
                   g_bytes_get_data (b, NULL), g_bytes_get_size (b));
}

/* Entry @index's directory record in the saved file @bytes. */
static gsize
directory_offset (GBytes *bytes,
                  guint   index)
{
  const guint8 *data = g_bytes_get_data (bytes, NULL);
  guint32 count = test_get_u32 (data + 8), total = test_get_u32 (data + 12);

  return total - count * NRES_ENTRY_SIZE + index * NRES_ENTRY_SIZE;
}

/* Where entry @index's payload starts in the saved file @bytes. */
static gsize
payload_offset (GBytes *bytes,
                guint   index)
{
  return test_get_u32 ((const guint8 *) g_bytes_get_data (bytes, NULL) +
                       directory_offset (bytes, index) + 56);
}

/* One more undo step, labelled @label; undo gives @before back byte for
 * byte, redo @after. */
static void
assert_one_step (MatLibrary *lib,
                 guint       n_undo_before,
                 const char *label,
                 GBytes     *before,
                 GBytes     *after)
{
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;

  g_assert_cmpuint (mat_history_get_n_undo (history (lib)), ==, n_undo_before + 1);
  g_assert_cmpstr (mat_history_get_undo_label (history (lib)), ==, label);
  g_assert_true (mat_history_undo (history (lib)));
  undone = save_bytes (lib);
  assert_bytes_equal (undone, before);
  g_assert_true (mat_history_redo (history (lib)));
  redone = save_bytes (lib);
  assert_bytes_equal (redone, after);
}

/* ---- fields -------------------------------------------------------------- */

static void
test_copy_fields (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatLibrary) lib = library_from (original);
  MatMaterial *flags = find (lib, "HW_BUMP_FLAGS");   /* attr1 0x103, meta 1, 1, 1.0, 3 */
  MatMaterial *rock = find (lib, "ROCK_WALL");        /* attr1 0x01, meta 255, 255, 1.0, 0 */
  gint rock_index = mat_library_index_of (lib, rock);
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GArray) diffs = NULL;
  g_autoptr(GError) error = NULL;

  /* attr1: two bytes of ROCK_WALL's directory record */
  g_assert_true (mat_material_copy_field (rock, flags, MAT_COPY_ATTR1, &error));
  g_assert_no_error (error);
  g_assert_cmphex (mat_material_get_attr1 (rock), ==, 0x103);
  after = save_bytes (lib);
  diffs = byte_differences (original, after);
  g_assert_cmpuint (diffs->len, ==, 2);
  g_assert_cmpuint (g_array_index (diffs, gsize, 0), ==, directory_offset (after, rock_index) + 4);
  g_assert_cmpuint (g_array_index (diffs, gsize, 1), ==, directory_offset (after, rock_index) + 5);
  g_assert_cmphex (((const guint8 *) g_bytes_get_data (after, NULL))[g_array_index (diffs, gsize, 0)], ==, 0x03);
  assert_one_step (lib, 0, "Copy Field Across", original, after);
  /* the same again records nothing */
  g_assert_true (mat_material_copy_field (rock, flags, MAT_COPY_ATTR1, &error));
  g_assert_cmpuint (mat_history_get_n_undo (history (lib)), ==, 1);
  g_assert_true (mat_history_undo (history (lib)));

  /* metaD: byte 10 of the payload (counts 4, metaA, metaB, metaC 4) */
  g_assert_true (mat_material_copy_field (rock, flags, MAT_COPY_META_D, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mat_material_get_meta_d (rock), ==, 3);
  g_clear_pointer (&after, g_bytes_unref);
  g_clear_pointer (&diffs, g_array_unref);
  after = save_bytes (lib);
  diffs = byte_differences (original, after);
  g_assert_cmpuint (diffs->len, ==, 1);
  g_assert_cmpuint (g_array_index (diffs, gsize, 0), ==, payload_offset (after, rock_index) + 10);
  assert_one_step (lib, 0, "Copy Field Across", original, after);
  g_assert_true (mat_history_undo (history (lib)));

  /* a metadata field the target's version does not store: refused */
  g_assert_false (mat_material_copy_field (find (lib, "OLD_VERSION0"), flags, MAT_COPY_META_A, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_META_ABSENT);
  g_clear_error (&error);
  g_assert_cmpuint (mat_history_get_n_undo (history (lib)), ==, 0);

  /* the version: OLD_VERSION2 (2: metaA 5, metaB 6) becomes 6; metaC and
   * metaD appear at their defaults, 8 more payload bytes */
  {
    MatMaterial *old = find (lib, "OLD_VERSION2");
    g_autoptr(GBytes) payload = NULL;
    const guint8 *p;

    before = save_bytes (lib);
    g_assert_true (mat_material_copy_field (old, rock, MAT_COPY_ATTR2, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (mat_material_get_attr2 (old), ==, 6);
    payload = mat_material_dup_payload (old);
    g_assert_cmpuint (g_bytes_get_size (payload), ==, 4 + 10 + 34);
    p = g_bytes_get_data (payload, NULL);
    g_assert_cmpuint (p[4], ==, 5);
    g_assert_cmpuint (p[5], ==, 6);
    g_assert_cmphex (test_get_u32 (p + 6), ==, 0x3F800000);
    g_assert_cmphex (test_get_u32 (p + 10), ==, 0);
    g_clear_pointer (&after, g_bytes_unref);
    after = save_bytes (lib);
    g_assert_cmpuint (g_bytes_get_size (after), ==, g_bytes_get_size (before) + 8);
    assert_one_step (lib, 0, "Copy Field Across", before, after);
  }
}

/* ---- a colour group -------------------------------------------------------- */

static void
test_copy_group (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatLibrary) lib = library_from (original);
  MatMaterial *cycle = find (lib, "COLOR_CYCLE");
  MatMaterial *rock = find (lib, "ROCK_WALL");
  gint rock_index = mat_library_index_of (lib, rock);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GArray) diffs = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *source, *data;
  gsize phase0;

  /* COLOR_CYCLE's phase 1 self-light (p0..p3) into ROCK_WALL's phase 0 */
  source = mat_phase_get_params (phase_of (cycle, 1));
  g_assert_true (mat_material_copy_group (rock, 0, cycle, 1, MAT0_GROUP_SELF_LIGHT, &error));
  g_assert_no_error (error);

  after = save_bytes (lib);
  data = g_bytes_get_data (after, NULL);
  phase0 = payload_offset (after, rock_index) + 14;
  diffs = byte_differences (original, after);
  g_assert_cmpuint (diffs->len, >, 0);
  for (guint i = 0; i < diffs->len; i++)
    {
      gsize at = g_array_index (diffs, gsize, i);

      /* only p0..p3 of the phase changed */
      g_assert_cmpuint (at, >=, phase0);
      g_assert_cmpuint (at, <, phase0 + 4);
    }
  for (guint b = 0; b < 4; b++)
    g_assert_cmpuint (data[phase0 + b], ==, source[b]);
  assert_one_step (lib, 0, "Copy Colour Across", original, after);

  /* the group a phase already has records nothing */
  g_assert_true (mat_material_copy_group (rock, 0, cycle, 1, MAT0_GROUP_SELF_LIGHT, &error));
  g_assert_cmpuint (mat_history_get_n_undo (history (lib)), ==, 1);
}

/* ---- a phase, byte for byte ----------------------------------------------- */

/* Two materials: SOURCE with a texture field holding bytes after its NUL,
 * TARGET with one plain phase. */
static GBytes *
raw_texture_library (void)
{
  static const guint8 texture[16] = { 'R', 'O', 'C', 'K', '.', '0', 0, 'G', 'A', 'R', 'B', 'A', 'G', 'E', '!', 'X' };
  guint8 p_source[18], p_target[18];
  g_autoptr(GByteArray) source = g_byte_array_new ();
  g_autoptr(GByteArray) target = g_byte_array_new ();
  TestEntrySpec specs[2] = {
    { NRES_TYPE_MAT0, 0x08, 6, 0, "SOURCE", NULL, 0, 0 },
    { NRES_TYPE_MAT0, 0x01, 6, 0, "TARGET", NULL, 0, 0 },
  };

  for (guint i = 0; i < 18; i++)
    {
      p_source[i] = (guint8) (10 + i);
      p_target[i] = (guint8) (200 - i);
    }
  test_put_u16 (source, 1);
  test_put_u16 (source, 0);
  test_put_u8 (source, 255);
  test_put_u8 (source, 255);
  test_put_u32 (source, 0x3F800000);
  test_put_u32 (source, 0);
  test_put_bytes (source, p_source, 18);
  test_put_bytes (source, texture, 16);

  test_put_u16 (target, 1);
  test_put_u16 (target, 0);
  test_put_u8 (target, 255);
  test_put_u8 (target, 255);
  test_put_u32 (target, 0x3F800000);
  test_put_u32 (target, 0);
  test_put_phase (target, p_target, "SKY.0");

  specs[0].payload = source->data;
  specs[0].size = source->len;
  specs[1].payload = target->data;
  specs[1].size = target->len;
  return test_build_archive (specs, 2, TRUE);
}

static void
test_copy_phase (void)
{
  g_autoptr(GBytes) original = raw_texture_library ();
  g_autoptr(MatLibrary) lib = library_from (original);
  MatMaterial *source = find (lib, "SOURCE");
  MatMaterial *target = find (lib, "TARGET");
  g_autoptr(GBytes) source_payload = mat_material_dup_payload (source);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) appended = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *s = g_bytes_get_data (source_payload, NULL);

  /* the 34 bytes, the texture field with its bytes after the NUL */
  g_assert_true (mat_material_copy_phase (target, 0, source, 0, &error));
  g_assert_no_error (error);
  payload = mat_material_dup_payload (target);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (payload, NULL) + 14, 34, s + 14, 34);
  g_assert_cmpstr (mat_phase_get_texture (phase_of (target, 0)), ==, "ROCK.0");
  after = save_bytes (lib);
  assert_one_step (lib, 0, "Copy Phase Across", original, after);

  /* past the last phase: appended, keys untouched */
  g_assert_true (mat_material_copy_phase (target, 1, source, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mat_material_get_n_phases (target), ==, 2);
  g_clear_pointer (&payload, g_bytes_unref);
  payload = mat_material_dup_payload (target);
  g_assert_cmpuint (g_bytes_get_size (payload), ==, 14 + 2 * 34);
  g_assert_cmpuint (test_get_u16 (g_bytes_get_data (payload, NULL)), ==, 2);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (payload, NULL) + 14 + 34, 34, s + 14, 34);
  appended = save_bytes (lib);
  assert_one_step (lib, 1, "Copy Phase Across", after, appended);

  /* a phase onto itself records nothing */
  g_assert_true (mat_material_copy_phase (target, 1, target, 1, &error));
  g_assert_cmpuint (mat_history_get_n_undo (history (lib)), ==, 2);

  g_assert_true (mat_history_undo (history (lib)));
  g_assert_true (mat_history_undo (history (lib)));
  {
    g_autoptr(GBytes) back = save_bytes (lib);

    assert_bytes_equal (back, original);
  }
}

/* ---- blocks and keys -------------------------------------------------------- */

/* @material's payload with block @block replaced by @source's block
 * @source_block (or appended when @block is its count), as the core
 * encodes it. Returns: (transfer full). */
static GBytes *
expected_with_block (MatMaterial *material,
                     guint        block,
                     MatMaterial *source,
                     guint        source_block)
{
  g_autoptr(Mat0Material) core = mat_material_dup_core (material);
  g_autoptr(Mat0Material) from = mat_material_dup_core (source);
  Mat0Block *slot;

  if (block == core->n_blocks)
    {
      core->blocks = g_renew (Mat0Block, core->blocks, core->n_blocks + 1);
      core->n_blocks++;
    }
  else
    g_free (core->blocks[block].keys);
  slot = &core->blocks[block];
  *slot = from->blocks[source_block];
  slot->keys = g_memdup2 (from->blocks[source_block].keys,
                          MAX (slot->n_keys, 1) * sizeof (Mat0Key));
  return mat0_encode (core);
}

static void
test_copy_block (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatLibrary) lib = library_from (original);
  MatMaterial *lava = find (lib, "LAVA_FLOW");        /* block 0: 80, 3 keys */
  MatMaterial *cycle = find (lib, "COLOR_CYCLE");     /* block 0: 24, 4 keys */
  MatMaterial *multi = find (lib, "MULTI_BLOCK");
  MatMaterial *rock = find (lib, "ROCK_WALL");        /* no blocks */
  g_autoptr(GBytes) expected = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GError) error = NULL;

  /* replace: COLOR_CYCLE's block 0 becomes LAVA_FLOW's (one key fewer) */
  expected = expected_with_block (cycle, 0, lava, 0);
  g_assert_true (mat_material_copy_block (cycle, 0, lava, 0, &error));
  g_assert_no_error (error);
  payload = mat_material_dup_payload (cycle);
  assert_bytes_equal (payload, expected);
  g_assert_cmpuint (g_bytes_get_size (payload), ==, 180 - 6);
  after = save_bytes (lib);
  assert_one_step (lib, 0, "Copy Block Across", original, after);
  /* the same block again records nothing */
  g_assert_true (mat_material_copy_block (cycle, 0, lava, 0, &error));
  g_assert_cmpuint (mat_history_get_n_undo (history (lib)), ==, 1);
  g_assert_true (mat_history_undo (history (lib)));

  /* append: MULTI_BLOCK's block 2 becomes ROCK_WALL's first block */
  g_clear_pointer (&expected, g_bytes_unref);
  expected = expected_with_block (rock, 0, multi, 2);
  g_assert_true (mat_material_copy_block (rock, 0, multi, 2, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mat_material_get_n_blocks (rock), ==, 1);
  g_clear_pointer (&payload, g_bytes_unref);
  payload = mat_material_dup_payload (rock);
  assert_bytes_equal (payload, expected);
  g_clear_pointer (&after, g_bytes_unref);
  after = save_bytes (lib);
  assert_one_step (lib, 0, "Copy Block Across", original, after);

  /* up to MAT0_MAX_BLOCKS, then refused without a step */
  for (guint i = 1; i < MAT0_MAX_BLOCKS; i++)
    {
      g_assert_true (mat_material_copy_block (rock, i, multi, i % 3, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (mat_material_get_n_blocks (rock), ==, MAT0_MAX_BLOCKS);
  g_assert_false (mat_material_copy_block (rock, MAT0_MAX_BLOCKS, multi, 0, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TOO_MANY_BLOCKS);
  g_clear_error (&error);
  g_assert_cmpuint (mat_history_get_n_undo (history (lib)), ==, MAT0_MAX_BLOCKS);
  while (mat_history_undo (history (lib)))
    ;
  {
    g_autoptr(GBytes) back = save_bytes (lib);

    assert_bytes_equal (back, original);
  }
}

static guint32
header_of (MatMaterial *material,
           guint        block)
{
  g_autoptr(MatAnimBlock) b = g_list_model_get_item (mat_material_get_blocks (material), block);

  return mat_anim_block_get_header_raw (b);
}

static void
test_copy_key_mode_interp (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatLibrary) lib = library_from (original);
  MatMaterial *unknown = find (lib, "UNKNOWN_MODE");   /* header 277 (mode 5), key 1: 1, 1000, 7 */
  MatMaterial *exhaust = find (lib, "ENGINE_EXHAUST"); /* header 75 (mode 3), key 1: 1, 200, 0 */
  gint exhaust_index = mat_library_index_of (lib, exhaust);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GArray) diffs = NULL;
  g_autoptr(GError) error = NULL;
  gsize keys;

  /* key 1: k0, k1 and k2 in one step */
  g_assert_true (mat_material_copy_key (exhaust, 0, 1, unknown, 0, 1, &error));
  g_assert_no_error (error);
  after = save_bytes (lib);
  /* the block starts after 14 + 2 * 34 bytes; its keys after 6 more */
  keys = payload_offset (after, exhaust_index) + 14 + 2 * 34 + 6;
  diffs = byte_differences (original, after);
  g_assert_cmpuint (diffs->len, ==, 3);   /* k1: 200 -> 1000 (two bytes), k2: 0 -> 7 */
  g_assert_cmpuint (test_get_u16 ((const guint8 *) g_bytes_get_data (after, NULL) + keys + 6), ==, 1);
  g_assert_cmpuint (test_get_u16 ((const guint8 *) g_bytes_get_data (after, NULL) + keys + 8), ==, 1000);
  g_assert_cmpuint (test_get_u16 ((const guint8 *) g_bytes_get_data (after, NULL) + keys + 10), ==, 7);
  assert_one_step (lib, 0, "Copy Key Across", original, after);
  g_assert_true (mat_history_undo (history (lib)));

  /* the mode bits only, then the interpolation mask only */
  g_assert_true (mat_material_copy_mode (exhaust, 0, unknown, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (header_of (exhaust, 0), ==, (75u & ~7u) | 5u);
  g_clear_pointer (&after, g_bytes_unref);
  after = save_bytes (lib);
  assert_one_step (lib, 0, "Copy Field Across", original, after);
  g_assert_true (mat_history_undo (history (lib)));

  g_assert_true (mat_material_copy_interp (exhaust, 0, unknown, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (header_of (exhaust, 0), ==, (277u & ~7u) | 3u);
  g_clear_pointer (&after, g_bytes_unref);
  after = save_bytes (lib);
  assert_one_step (lib, 0, "Copy Field Across", original, after);
}

/* ---- whole materials across libraries -------------------------------------- */

static void
test_copy_all (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatLibrary) mine = library_from (original);
  g_autoptr(MatLibrary) theirs = library_from (original);
  MatMaterial *target = find (mine, "ROCK_WALL");
  static const char *const sources[] = { "MULTI_BLOCK", "OLD_VERSION3", "HW_BUMP_FLAGS", "FADE_IN" };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      MatMaterial *source = find (theirs, sources[i]);
      g_autoptr(GBytes) before = save_bytes (mine);
      g_autoptr(GBytes) after = NULL;
      g_autoptr(GBytes) payload = NULL;
      g_autoptr(GBytes) source_payload = mat_material_dup_payload (source);
      guint n_undo = mat_history_get_n_undo (history (mine));

      g_assert_true (mat_material_copy_all (target, source, &error));
      g_assert_no_error (error);
      /* the payload and the directory fields are the source's; the name stays */
      payload = mat_material_dup_payload (target);
      assert_bytes_equal (payload, source_payload);
      g_assert_cmphex (mat_material_get_attr1 (target), ==, mat_material_get_attr1 (source));
      g_assert_cmphex (mat_material_get_attr2 (target), ==, mat_material_get_attr2 (source));
      g_assert_cmphex (mat_material_get_attr3 (target), ==, mat_material_get_attr3 (source));
      g_assert_cmpuint (mat_material_get_n_phases (target), ==, mat_material_get_n_phases (source));
      g_assert_cmpuint (mat_material_get_n_blocks (target), ==, mat_material_get_n_blocks (source));
      g_assert_cmpstr (mat_material_get_name (target), ==, "ROCK_WALL");
      /* the other library is not touched */
      g_assert_cmpuint (mat_history_get_n_undo (history (theirs)), ==, 0);
      after = save_bytes (mine);
      assert_one_step (mine, n_undo, "Copy Material Across", before, after);
    }

  /* everything undone: the original file */
  while (mat_history_undo (history (mine)))
    ;
  {
    g_autoptr(GBytes) back = save_bytes (mine);

    assert_bytes_equal (back, original);
  }
}

/* ---- take from the other library ------------------------------------------ */

static void
test_take (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatLibrary) mine = library_from (original);
  g_autoptr(MatLibrary) theirs = library_from (original);
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GError) error = NULL;
  MatMaterial *taken;

  /* this library: GLOW_PULSE deleted, COLOR_CYCLE's p5 changed */
  g_assert_true (mat_library_delete_material (mine, find (mine, "GLOW_PULSE"), &error));
  g_assert_true (mat_phase_set_param (phase_of (find (mine, "COLOR_CYCLE"), 2), 5, 9, &error));
  g_assert_no_error (error);
  before = save_bytes (mine);

  /* missing here: added under its name, at the end */
  taken = mat_library_take_material (mine, NULL, find (theirs, "GLOW_PULSE"), &error);
  g_assert_no_error (error);
  g_assert_nonnull (taken);
  g_assert_cmpstr (mat_material_get_name (taken), ==, "GLOW_PULSE");
  g_assert_cmpint (mat_library_index_of (mine, taken), ==,
                   (gint) g_list_model_get_n_items (G_LIST_MODEL (mine)) - 1);
  {
    g_autoptr(GBytes) a = mat_material_dup_payload (taken);
    g_autoptr(GBytes) b = mat_material_dup_payload (find (theirs, "GLOW_PULSE"));

    assert_bytes_equal (a, b);
  }
  after = save_bytes (mine);
  assert_one_step (mine, 2, "Add Material from Another Library", before, after);

  /* changed here: its content replaced, one step */
  g_clear_pointer (&before, g_bytes_unref);
  before = g_bytes_ref (after);
  taken = mat_library_take_material (mine, find (mine, "COLOR_CYCLE"), find (theirs, "COLOR_CYCLE"), &error);
  g_assert_no_error (error);
  g_assert_true (taken == find (mine, "COLOR_CYCLE"));
  {
    g_autoptr(GBytes) a = mat_material_dup_payload (taken);
    g_autoptr(GBytes) b = mat_material_dup_payload (find (theirs, "COLOR_CYCLE"));

    assert_bytes_equal (a, b);
  }
  g_clear_pointer (&after, g_bytes_unref);
  after = save_bytes (mine);
  assert_one_step (mine, 3, "Take Material from Other Library", before, after);

  /* a name this library has: refused, nothing recorded */
  g_assert_null (mat_library_take_material (mine, NULL, find (theirs, "ROCK_WALL"), &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN);
  g_clear_error (&error);
  g_assert_cmpuint (mat_history_get_n_undo (history (mine)), ==, 4);

  /* back to the file as loaded */
  while (mat_history_undo (history (mine)))
    ;
  {
    g_autoptr(GBytes) back = save_bytes (mine);

    assert_bytes_equal (back, original);
  }
}

/* A source that does not decode cannot be copied from. */
static void
test_refused (void)
{
  static const guint8 broken[] = { 1, 0, 0 };
  TestEntrySpec specs[1] = { { NRES_TYPE_MAT0, 0, 6, 0, "BROKEN", broken, sizeof broken, 0 } };
  g_autoptr(GBytes) bytes = test_build_archive (specs, 1, TRUE);
  g_autoptr(MatLibrary) other = library_from (bytes);
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatLibrary) lib = library_from (original);
  MatMaterial *source = find (other, "BROKEN");
  MatMaterial *target = find (lib, "ROCK_WALL");
  g_autoptr(GError) error = NULL;

  g_assert_false (mat_material_get_editable (source));
  g_assert_false (mat_material_copy_all (target, source, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  g_clear_error (&error);
  g_assert_false (mat_material_copy_field (target, source, MAT_COPY_ATTR1, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  g_clear_error (&error);
  g_assert_null (mat_library_take_material (lib, NULL, source, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  g_clear_error (&error);
  /* and the broken entry cannot be a target */
  g_assert_false (mat_material_copy_all (source, target, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  g_assert_cmpuint (mat_history_get_n_undo (history (lib)), ==, 0);
  g_assert_cmpuint (mat_history_get_n_undo (history (other)), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/copy/fields", test_copy_fields);
  g_test_add_func ("/model/copy/group", test_copy_group);
  g_test_add_func ("/model/copy/phase", test_copy_phase);
  g_test_add_func ("/model/copy/block", test_copy_block);
  g_test_add_func ("/model/copy/key-mode-interp", test_copy_key_mode_interp);
  g_test_add_func ("/model/copy/all", test_copy_all);
  g_test_add_func ("/model/copy/take", test_take);
  g_test_add_func ("/model/copy/refused", test_refused);

  return g_test_run ();
}
