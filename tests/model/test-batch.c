/* test-batch.c - one edit for many materials (mat-batch.h), deleting and
 * pasting many at once, the document several materials copy as
 *
 * Every apply is checked on the payloads: each target's is the one it
 * had with exactly the applied place taken from the source, the others
 * are untouched, it is one undo step, undo gives the library's original
 * bytes back and redo the applied ones. */
#include "config.h"

#include <string.h>

#include "mat0-flags.h"
#include "mat-batch.h"
#include "mat-library.h"
#include "mat-material-json.h"
#include "mat-search-model.h"
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
file_bytes (const char *variable)
{
  const char *path = g_getenv (variable);

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

static void
assert_bytes_equal (GBytes *a,
                    GBytes *b)
{
  g_assert_true (g_bytes_equal (a, b));
}

static MatMaterial *
find (MatLibrary *lib,
      const char *name)
{
  MatMaterial *material = mat_library_find (lib, name);

  g_assert_nonnull (material);
  return material;
}

static Mat0Material *
core_of (MatLibrary *lib,
         const char *name)
{
  Mat0Material *core = mat_material_dup_core (find (lib, name));

  g_assert_nonnull (core);
  return core;
}

static void
assert_core (MatLibrary         *lib,
             const char         *name,
             const Mat0Material *expected)
{
  g_autoptr(Mat0Material) core = core_of (lib, name);

  g_assert_true (mat0_material_equal (core, expected));
}

/* One step more, undo to @original, redo to what it was. */
static void
assert_one_step (MatLibrary *lib,
                 guint       n_undo_before,
                 GBytes     *original)
{
  MatHistory *history = mat_library_get_history (lib);
  g_autoptr(GBytes) applied = save_bytes (lib);
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;

  g_assert_cmpuint (mat_history_get_n_undo (history), ==, n_undo_before + 1);
  g_assert_false (g_bytes_equal (applied, original));
  g_assert_true (mat_history_undo (history));
  undone = save_bytes (lib);
  assert_bytes_equal (undone, original);
  g_assert_true (mat_history_redo (history));
  redone = save_bytes (lib);
  assert_bytes_equal (redone, applied);
}

static MatMaterial **
materials_named (MatLibrary         *lib,
                 const char * const *names,
                 guint              *n)
{
  guint count = g_strv_length ((char **) names);
  MatMaterial **out = g_new0 (MatMaterial *, count + 1);

  for (guint i = 0; i < count; i++)
    out[i] = find (lib, names[i]);
  *n = count;
  return out;
}

/* ---- applying ----------------------------------------------------------- */

static void
test_apply_group (void)
{
  g_autoptr(GBytes) original = file_bytes ("DEMO_LIB");
  g_autoptr(MatLibrary) lib = library_from (original);
  static const char * const names[] = { "COLOR_CYCLE", "FLICKER_LAMP", "ROCK_WALL", "GLOW_PULSE", NULL };
  g_autofree MatMaterial **targets = NULL;
  g_autoptr(Mat0Material) source = core_of (lib, "GLOW_PULSE");
  g_autoptr(Mat0Material) cycle = core_of (lib, "COLOR_CYCLE");
  g_autoptr(Mat0Material) lamp = core_of (lib, "FLICKER_LAMP");
  g_autoptr(Mat0Material) rock = core_of (lib, "ROCK_WALL");
  g_autoptr(GError) error = NULL;
  const Mat0GroupField *diffuse = mat0_fields_group (MAT0_GROUP_DIFFUSE);
  MatApply what = { .kind = MAT_APPLY_GROUP, .index = 1, .group = MAT0_GROUP_DIFFUSE };
  guint n, changed = 99;

  targets = materials_named (lib, names, &n);
  g_assert_true (mat_library_apply_to_many (lib, find (lib, "GLOW_PULSE"), targets, n, &what,
                                            &changed, &error));
  g_assert_no_error (error);
  /* ROCK_WALL has one phase, GLOW_PULSE is the source */
  g_assert_cmpuint (changed, ==, 2);

  for (guint c = 0; c < 4; c++)
    {
      cycle->phases[1].p[diffuse->bytes[c]] = source->phases[1].p[diffuse->bytes[c]];
      lamp->phases[1].p[diffuse->bytes[c]] = source->phases[1].p[diffuse->bytes[c]];
    }
  assert_core (lib, "COLOR_CYCLE", cycle);
  assert_core (lib, "FLICKER_LAMP", lamp);
  assert_core (lib, "ROCK_WALL", rock);
  assert_core (lib, "GLOW_PULSE", source);
  assert_one_step (lib, 0, original);
  g_assert_cmpstr (mat_history_get_undo_label (mat_library_get_history (lib)), ==,
                   "Change a Colour of the Selected Materials");
}

static void
test_apply_kinds (void)
{
  g_autoptr(GBytes) original = file_bytes ("DEMO_LIB");
  static const char * const names[] = { "DEFAULT", "ROCK_WALL", "SMOKE_PUFF", "OLD_VERSION0",
                                        "OLD_VERSION2", "MULTI_BLOCK", "HW_BUMP_FLAGS", NULL };
  static const MatApply kinds[] = {
    { .kind = MAT_APPLY_PARAM, .index = 0, .byte = 3 },
    { .kind = MAT_APPLY_TEXTURE, .index = 0 },
    { .kind = MAT_APPLY_PHASE, .index = 0 },
    { .kind = MAT_APPLY_ATTR1_BITS, .mask = MAT0_FLAG_NIBBLE_MASK },
    { .kind = MAT_APPLY_ATTR1_BITS, .mask = MAT0_FLAG_BEHAVIOUR },
    { .kind = MAT_APPLY_ATTR3 },
    { .kind = MAT_APPLY_META, .meta = MAT0_META_C },
    { .kind = MAT_APPLY_MODE, .index = 0 },
    { .kind = MAT_APPLY_INTERP, .index = 0 },
  };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr(MatLibrary) lib = library_from (original);
      g_autofree MatMaterial **targets = NULL;
      MatMaterial *smoke = find (lib, "SMOKE_PUFF");
      const MatApply *what = &kinds[k];
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) before = g_ptr_array_new_with_free_func ((GDestroyNotify) mat0_material_free);
      g_autoptr(GPtrArray) attr1 = g_ptr_array_new ();
      g_autoptr(Mat0Material) source = NULL;
      g_autoptr(GHashTable) untouched = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_bytes_unref);
      g_autoptr(GHashTable) untouched_attr1 = g_hash_table_new (NULL, NULL);
      guint n, changed = 0;

      g_test_message ("kind %u", what->kind);
      /* the source gets values none of the targets has */
      {
        g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (smoke), 0);
        g_autoptr(MatAnimBlock) block = g_list_model_get_item (mat_material_get_blocks (smoke), 0);

        g_assert_true (mat_phase_set_param (phase, 3, 77, &error));
        g_assert_true (mat_phase_set_texture (phase, "BATCH.7", &error));
        g_assert_true (mat_material_set_attr3 (smoke, 0x5A5A, &error));
        g_assert_true (mat_material_set_meta_c (smoke, 0x40490FDBu, &error));
        g_assert_true (mat_anim_block_set_header_raw (block, 3 | (0x1A << 3), &error));
        g_assert_true (mat_material_set_attr1 (smoke, 0x0000004C, &error));   /* b6 | modulate */
        g_assert_no_error (error);
      }
      {
        g_autoptr(GBytes) edited = save_bytes (lib);

        g_clear_object (&lib);
        lib = library_from (edited);
        smoke = find (lib, "SMOKE_PUFF");
      }
      targets = materials_named (lib, names, &n);
      for (guint i = 0; i < n; i++)
        {
          g_ptr_array_add (before, mat_material_dup_core (targets[i]));
          g_ptr_array_add (attr1, GUINT_TO_POINTER (mat_material_get_attr1 (targets[i])));
        }
      source = mat_material_dup_core (smoke);
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (lib)); i++)
        {
          MatMaterial *m = mat_library_get_material (lib, i);
          gboolean target = FALSE;

          for (guint t = 0; t < n; t++)
            target |= targets[t] == m && m != smoke;
          if (target)
            continue;
          g_hash_table_insert (untouched, m, mat_material_dup_payload (m));
          g_hash_table_insert (untouched_attr1, m, GUINT_TO_POINTER (mat_material_get_attr1 (m)));
        }
      {
        g_autoptr(GBytes) start = save_bytes (lib);

        g_assert_true (mat_library_apply_to_many (lib, smoke, targets, n, what, &changed, &error));
        g_assert_no_error (error);

        for (guint i = 0; i < n; i++)
          {
            Mat0Material *expect = g_ptr_array_index (before, i);
            guint32 want_attr1 = GPOINTER_TO_UINT (g_ptr_array_index (attr1, i));
            g_autoptr(Mat0Material) now = mat_material_dup_core (targets[i]);

            if (targets[i] == smoke)
              continue;
            switch (what->kind)
              {
              case MAT_APPLY_PARAM:
                expect->phases[0].p[3] = source->phases[0].p[3];
                break;
              case MAT_APPLY_TEXTURE:
                memcpy (expect->phases[0].texture, source->phases[0].texture, MAT0_TEXTURE_SIZE);
                break;
              case MAT_APPLY_PHASE:
                expect->phases[0] = source->phases[0];
                break;
              case MAT_APPLY_ATTR1_BITS:
                want_attr1 = (want_attr1 & ~what->mask) | (mat_material_get_attr1 (smoke) & what->mask);
                break;
              case MAT_APPLY_META:
                /* versions 0 and 2 store no metaC: kept */
                if (expect->attr2 >= 3)
                  expect->meta_c = source->meta_c;
                break;
              case MAT_APPLY_MODE:
                if (expect->n_blocks > 0)
                  expect->blocks[0].header_raw = (expect->blocks[0].header_raw & ~7u) |
                                                 (source->blocks[0].header_raw & 7u);
                break;
              case MAT_APPLY_INTERP:
                if (expect->n_blocks > 0)
                  expect->blocks[0].header_raw = (expect->blocks[0].header_raw & 7u) |
                                                 (source->blocks[0].header_raw & ~7u);
                break;
              default:
                break;
              }
            g_assert_true (mat0_material_equal (now, expect));
            g_assert_cmpuint (mat_material_get_attr1 (targets[i]), ==, want_attr1);
            if (what->kind == MAT_APPLY_ATTR3)
              g_assert_cmpuint (mat_material_get_attr3 (targets[i]), ==, 0x5A5A);
            else
              g_assert_cmpuint (mat_material_get_attr3 (targets[i]), ==, 0);
          }
        g_assert_cmpuint (changed, >, 0);
        /* the materials that were no target are as they were */
        for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (lib)); i++)
          {
            MatMaterial *m = mat_library_get_material (lib, i);
            GBytes *was = g_hash_table_lookup (untouched, m);
            g_autoptr(GBytes) now = NULL;

            if (was == NULL)
              continue;
            now = mat_material_dup_payload (m);
            assert_bytes_equal (now, was);
            g_assert_cmpuint (mat_material_get_attr1 (m), ==,
                              GPOINTER_TO_UINT (g_hash_table_lookup (untouched_attr1, m)));
          }
        assert_one_step (lib, 0, start);
      }
    }
}

/* Targets that cannot take it are left; a source without the place fails. */
static void
test_apply_refused (void)
{
  g_autoptr(GBytes) original = file_bytes ("DEMO_LIB");
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(MatLibrary) other = library_from (original);
  MatMaterial *rock = find (lib, "ROCK_WALL");
  MatMaterial *targets[] = { find (lib, "GLOW_PULSE"), find (other, "GLOW_PULSE"), rock };
  MatApply phase1 = { .kind = MAT_APPLY_PHASE, .index = 1 };
  MatApply meta = { .kind = MAT_APPLY_META, .meta = MAT0_META_A };
  MatApply same = { .kind = MAT_APPLY_PARAM, .index = 0, .byte = 16 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) saved = NULL;
  guint changed = 99;

  g_assert_false (mat_library_apply_to_many (lib, rock, targets, 3, &phase1, NULL, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  g_assert_cmpstr (error->message, ==, "“ROCK_WALL” has no phase 1");
  g_clear_error (&error);

  g_assert_false (mat_library_apply_to_many (lib, find (lib, "OLD_VERSION0"), targets, 3, &meta,
                                             NULL, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_META_ABSENT);
  g_clear_error (&error);

  /* the other library's material and the source itself are not touched;
   * an equal value records nothing */
  {
    g_autoptr(MatPhase) a = g_list_model_get_item (mat_material_get_phases (rock), 0);
    g_autoptr(MatPhase) b = g_list_model_get_item (mat_material_get_phases (targets[0]), 0);

    g_assert_true (mat_phase_set_param (a, 16, mat_phase_get_param (b, 16), &error));
    g_assert_no_error (error);
  }
  saved = save_bytes (lib);
  {
    guint n_undo = mat_history_get_n_undo (mat_library_get_history (lib));

    g_assert_true (mat_library_apply_to_many (lib, rock, targets, 3, &same, &changed, &error));
    g_assert_cmpuint (changed, ==, 0);
    g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (lib)), ==, n_undo);
  }
  g_assert_false (mat_library_get_dirty (other));
}

/* In a group (a colour dragged over many materials), every apply of the
 * same place is one step, and undo gives back the values from before. */
static void
test_apply_in_group (void)
{
  g_autoptr(GBytes) original = file_bytes ("DEMO_LIB");
  g_autoptr(MatLibrary) lib = library_from (original);
  MatHistory *history = mat_library_get_history (lib);
  MatMaterial *leader = find (lib, "DEFAULT");
  MatMaterial *others[] = { find (lib, "ROCK_WALL"), find (lib, "METAL_PLATE"), find (lib, "GLASS") };
  g_autoptr(MatBatch) batch = mat_batch_new (leader, others, G_N_ELEMENTS (others));
  g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (leader), 0);
  MatApply what = { .kind = MAT_APPLY_PARAM, .index = 0, .byte = 0 };
  g_autoptr(GError) error = NULL;

  mat_history_begin_group (history, NULL);
  for (guint value = 10; value <= 200; value += 10)
    {
      g_assert_true (mat_phase_set_param (phase, 0, (guint8) value, &error));
      g_assert_true (mat_batch_apply (batch, &what, &error));
      g_assert_no_error (error);
    }
  mat_history_end_group (history);

  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      g_autoptr(MatPhase) p = g_list_model_get_item (mat_material_get_phases (others[i]), 0);

      g_assert_cmpuint (mat_phase_get_param (p, 0), ==, 200);
    }
  assert_one_step (lib, 0, original);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Change Phase Parameter");
}

/* ---- the differences ---------------------------------------------------- */

static void
count_changed (MatBatch *batch,
               guint    *count)
{
  (*count)++;
}

static void
test_differs (void)
{
  g_autoptr(GBytes) original = file_bytes ("DEMO_LIB");
  g_autoptr(MatLibrary) lib = library_from (original);
  MatMaterial *leader = find (lib, "GLOW_PULSE");
  /* WATER_SURFACE: 2 phases and a block too; ROCK_WALL: 1 phase, no block */
  MatMaterial *others[] = { find (lib, "WATER_SURFACE"), find (lib, "ROCK_WALL") };
  g_autoptr(MatBatch) batch = mat_batch_new (leader, others, G_N_ELEMENTS (others));
  g_autoptr(Mat0Material) a = core_of (lib, "GLOW_PULSE");
  g_autoptr(Mat0Material) b = core_of (lib, "WATER_SURFACE");
  g_autoptr(Mat0Material) c = core_of (lib, "ROCK_WALL");
  MatApply what = { 0, };
  g_autoptr(GError) error = NULL;
  guint changes = 0;

  g_signal_connect (batch, "changed", G_CALLBACK (count_changed), &changes);
  g_assert_cmpuint (mat_batch_get_n_materials (batch), ==, 3);
  g_assert_true (mat_batch_get_leader (batch) == leader);

  /* every byte of phase 0, exactly where a value differs */
  for (guint j = 0; j < MAT0_PARAM_COUNT; j++)
    {
      gboolean expected = a->phases[0].p[j] != b->phases[0].p[j] || a->phases[0].p[j] != c->phases[0].p[j];

      what = (MatApply) { .kind = MAT_APPLY_PARAM, .index = 0, .byte = j };
      g_assert_cmpint (mat_batch_differs (batch, &what), ==, expected);
    }
  /* phase 1: ROCK_WALL has none, so all of it differs */
  what = (MatApply) { .kind = MAT_APPLY_PARAM, .index = 1, .byte = 0 };
  g_assert_true (mat_batch_differs (batch, &what));
  what = (MatApply) { .kind = MAT_APPLY_TEXTURE, .index = 1 };
  g_assert_true (mat_batch_differs (batch, &what));
  g_assert_true (mat_batch_phase_count_differs (batch));
  g_assert_true (mat_batch_block_count_differs (batch));
  g_assert_cmphex (mat_batch_get_attr1_differs (batch), ==,
                   (mat_material_get_attr1 (leader) ^ mat_material_get_attr1 (others[0])) |
                   (mat_material_get_attr1 (leader) ^ mat_material_get_attr1 (others[1])));
  what = (MatApply) { .kind = MAT_APPLY_ATTR3 };
  g_assert_false (mat_batch_differs (batch, &what));
  what = (MatApply) { .kind = MAT_APPLY_META, .meta = MAT0_META_D };
  g_assert_false (mat_batch_differs (batch, &what));
  g_assert_true (mat_batch_keys_differ (batch, 0));
  what = (MatApply) { .kind = MAT_APPLY_MODE, .index = 0 };
  g_assert_true (mat_batch_differs (batch, &what));   /* ROCK_WALL has no block */

  /* apply the texture of phase 0 to all: it no longer differs */
  what = (MatApply) { .kind = MAT_APPLY_TEXTURE, .index = 0 };
  g_assert_true (mat_batch_differs (batch, &what));
  g_assert_true (mat_batch_apply (batch, &what, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changes, ==, 1);
  g_assert_false (mat_batch_differs (batch, &what));
  g_assert_true (mat_history_undo (mat_library_get_history (lib)));
  g_assert_cmpuint (changes, ==, 2);
  g_assert_true (mat_batch_differs (batch, &what));

  /* the others alike: nothing differs */
  {
    MatMaterial *same[] = { find (lib, "ROCK_WALL") };
    g_autoptr(MatBatch) alike = mat_batch_new (find (lib, "METAL_PLATE"), same, 1);
    g_autoptr(Mat0Material) metal = core_of (lib, "METAL_PLATE");

    for (guint j = 0; j < MAT0_PARAM_COUNT; j++)
      {
        what = (MatApply) { .kind = MAT_APPLY_PARAM, .index = 0, .byte = j };
        g_assert_cmpint (mat_batch_differs (alike, &what), ==, metal->phases[0].p[j] != c->phases[0].p[j]);
      }
    g_assert_false (mat_batch_phase_count_differs (alike));
  }
}

/* ---- deleting and pasting many ------------------------------------------ */

static void
count_items_changed (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     guint      *count)
{
  g_assert_cmpuint (position, ==, 0);       /* DEFAULT */
  g_assert_cmpuint (removed - added, ==, 4);
  (*count)++;
}

static void
test_delete_many (void)
{
  g_autoptr(GBytes) original = file_bytes ("DEMO_LIB");
  g_autoptr(MatLibrary) lib = library_from (original);
  static const char * const names[] = { "FOLIAGE", "DEFAULT", "LAVA_FLOW", "GLASS", NULL };
  g_autofree MatMaterial **doomed = NULL;
  g_autoptr(MatSearchModel) search = mat_search_model_new (lib);
  guint n, changes = 0;
  gulong handler;

  handler = g_signal_connect (lib, "items-changed", G_CALLBACK (count_items_changed), &changes);
  mat_search_model_set_text (search, "a");
  doomed = materials_named (lib, names, &n);
  g_assert_cmpuint (mat_library_delete_materials (lib, doomed, n), ==, 4);
  /* one change of the list */
  g_assert_cmpuint (changes, ==, 1);
  g_signal_handler_disconnect (lib, handler);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (lib)), ==, 27);
  for (guint i = 0; i < n; i++)
    {
      g_assert_null (mat_library_find (lib, names[i]));
      g_assert_null (mat_material_get_library (doomed[i]));
    }
  g_assert_true (mat_library_find (lib, "ROCK_WALL") == mat_library_get_material (lib, 0));
  g_assert_cmpstr (mat_history_get_undo_label (mat_library_get_history (lib)), ==, "Delete Materials");
  /* the search follows: LAVA_FLOW, GLASS and FOLIAGE went from its list */
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (search)); i++)
    {
      g_autoptr(MatMaterial) m = g_list_model_get_item (G_LIST_MODEL (search), i);

      g_assert_nonnull (mat_material_get_library (m));
    }
  assert_one_step (lib, 0, original);
  g_assert_true (mat_library_get_material (lib, 0) == mat_library_find (lib, "ROCK_WALL"));
  g_assert_true (mat_history_undo (mat_library_get_history (lib)));
  for (guint i = 0; i < n; i++)
    g_assert_true (mat_library_find (lib, names[i]) == doomed[i]);
  g_assert_true (mat_library_get_material (lib, 0) == doomed[1]);

  /* nothing of it: nothing recorded */
  g_assert_cmpuint (mat_library_delete_materials (lib, NULL, 0), ==, 0);
  g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (lib)), ==, 0);
}

static void
test_copy_paste_many (void)
{
  g_autoptr(GBytes) original = file_bytes ("DEMO_LIB");
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(MatLibrary) target = library_from (original);
  static const char * const names[] = { "FADE_IN", "ROCK_WALL", "БРОНЯ_ЗЕЛЁНАЯ", NULL };
  g_autofree MatMaterial **copied = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr(MatJsonItem) item = NULL;
  g_autoptr(GPtrArray) pasted = NULL;
  MatJsonKind kind;
  guint n, renamed = 99;

  copied = materials_named (lib, names, &n);
  text = mat_materials_to_json_document (copied, n, &error);
  g_assert_no_error (error);
  /* a dump document, laid out as the canonical writer lays it */
  g_assert_nonnull (strstr (text, "\"entry_count\": 3"));
  g_assert_true (g_str_has_prefix (text, "{\n  \"archive\": {\n    \"version\": 256,"));
  g_assert_true (mat_json_identify (text, -1, &kind, NULL, &error));
  g_assert_cmpint (kind, ==, MAT_JSON_MATERIALS);

  item = mat_json_item_decode (text, -1, &error);
  g_assert_no_error (error);
  g_assert_null (mat_json_item_get_error (item));
  g_assert_cmpuint (mat_json_item_get_n_materials (item), ==, 3);

  /* every name is taken in the same library: each gets a free one */
  pasted = mat_library_paste_all (target, item, &renamed, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pasted->len, ==, 3);
  g_assert_cmpuint (renamed, ==, 3);
  g_assert_cmpstr (mat_material_get_name (g_ptr_array_index (pasted, 0)), ==, "FADE_IN_2");
  g_assert_cmpstr (mat_material_get_name (g_ptr_array_index (pasted, 1)), ==, "ROCK_WALL_2");
  g_assert_cmpstr (mat_material_get_name (g_ptr_array_index (pasted, 2)), ==, "БРОНЯ_ЗЕЛЁНАЯ_2");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (target)), ==, 34);
  g_assert_cmpstr (mat_history_get_undo_label (mat_library_get_history (target)), ==, "Paste Materials");
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GBytes) a = mat_material_dup_payload (copied[i]);
      g_autoptr(GBytes) b = mat_material_dup_payload (g_ptr_array_index (pasted, i));

      assert_bytes_equal (a, b);
      g_assert_cmpuint (mat_material_get_attr1 (copied[i]), ==,
                        mat_material_get_attr1 (g_ptr_array_index (pasted, i)));
    }
  assert_one_step (target, 0, original);

  /* a second paste of the same document: _3 */
  g_clear_pointer (&pasted, g_ptr_array_unref);
  pasted = mat_library_paste_all (target, item, &renamed, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mat_material_get_name (g_ptr_array_index (pasted, 1)), ==, "ROCK_WALL_3");

  /* into a library without them: the names stay */
  {
    g_autoptr(MatLibrary) fresh = library_from (original);
    g_autoptr(GPtrArray) again = NULL;

    g_assert_cmpuint (mat_library_delete_materials (fresh, (MatMaterial * const *) (gpointer) copied, 0), ==, 0);
    for (guint i = 0; i < n; i++)
      {
        MatMaterial *m = find (fresh, names[i]);

        g_assert_cmpuint (mat_library_delete_materials (fresh, &m, 1), ==, 1);
      }
    again = mat_library_paste_all (fresh, item, &renamed, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (renamed, ==, 0);
    g_assert_cmpstr (mat_material_get_name (g_ptr_array_index (again, 2)), ==, "БРОНЯ_ЗЕЛЁНАЯ");
  }

  /* one material pasted alone asks for its name on a clash, as before */
  {
    g_autoptr(GError) clash = NULL;

    g_assert_null (mat_library_paste_item (target, item, NULL, &clash));
    g_assert_error (clash, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_cmpstr (clash->message, ==, "The document holds 3 materials; they are pasted together");
  }
}

/* A document whose third entry is wrong pastes nothing, and says which. */
static void
test_paste_many_refused (void)
{
  g_autoptr(GBytes) original = file_bytes ("DEMO_LIB");
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(GError) error = NULL;
  const char *text =
    "{\"entries\": ["
    "{\"name\": \"A\", \"type\": \"MAT0\", \"attr2\": 6, \"phases\": [], \"blocks\": []},"
    "{\"name\": \"B\", \"type\": \"MAT0\", \"attr2\": 6, \"phases\": [], \"blocks\": []},"
    "{\"name\": \"C\", \"type\": \"MAT0\", \"attr2\": 6, \"phases\": [{\"params\": "
    "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,300]}], \"blocks\": []}]}";
  g_autoptr(MatJsonItem) item = mat_json_item_decode (text, -1, &error);

  g_assert_no_error (error);
  g_assert_null (mat_library_paste_all (lib, item, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==,
                   "entries[2] (C).phases[0].params[17]: expected an integer 0..255, found 300");
  g_assert_cmpuint (mat_history_get_n_undo (mat_library_get_history (lib)), ==, 0);
  g_assert_false (mat_library_get_dirty (lib));
}

/* ---- 65,536 materials --------------------------------------------------- */

static void
test_apply_stress (void)
{
  g_autoptr(GBytes) original = file_bytes ("STRESS_LIB");
  g_autoptr(MatLibrary) lib = library_from (original);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (lib));
  g_autofree MatMaterial **all = g_new0 (MatMaterial *, n);
  MatApply what = { .kind = MAT_APPLY_GROUP, .index = 0, .group = MAT0_GROUP_SELF_LIGHT };
  g_autoptr(GError) error = NULL;
  guint changed = 0;
  gint64 t0;

  g_assert_cmpuint (n, ==, 65536);
  for (guint i = 0; i < n; i++)
    all[i] = mat_library_get_material (lib, i);
  {
    g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (all[0]), 0);
    guint8 params[MAT0_PARAM_COUNT];

    memcpy (params, mat_phase_get_params (phase), sizeof params);
    params[0] = 1; params[1] = 2; params[2] = 3; params[3] = 99;
    g_assert_true (mat_phase_set_params (phase, params, &error));
    g_assert_no_error (error);
  }
  {
    g_autoptr(GBytes) start = save_bytes (lib);

    t0 = g_get_monotonic_time ();
    g_assert_true (mat_library_apply_to_many (lib, all[0], all, n, &what, &changed, &error));
    g_test_message ("apply to 65,536: %.0f ms", (g_get_monotonic_time () - t0) / 1000.0);
    g_assert_no_error (error);
    g_assert_cmpuint (changed, >, 60000);
    for (guint i = 0; i < n; i += 4099)
      {
        g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (all[i]), 0);

        g_assert_cmpuint (mat_phase_get_param (phase, 0), ==, 1);
        g_assert_cmpuint (mat_phase_get_param (phase, 3), ==, 99);
      }
    assert_one_step (lib, 1, start);
    g_assert_true (mat_history_undo (mat_library_get_history (lib)));
    g_assert_true (mat_history_undo (mat_library_get_history (lib)));
    {
      g_autoptr(GBytes) back = save_bytes (lib);

      assert_bytes_equal (back, original);
    }
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/batch/apply-group", test_apply_group);
  g_test_add_func ("/model/batch/apply-kinds", test_apply_kinds);
  g_test_add_func ("/model/batch/apply-refused", test_apply_refused);
  g_test_add_func ("/model/batch/apply-in-group", test_apply_in_group);
  g_test_add_func ("/model/batch/differs", test_differs);
  g_test_add_func ("/model/batch/delete-many", test_delete_many);
  g_test_add_func ("/model/batch/copy-paste-many", test_copy_paste_many);
  g_test_add_func ("/model/batch/paste-many-refused", test_paste_many_refused);
  g_test_add_func ("/model/batch/apply-65536", test_apply_stress);

  return g_test_run ();
}
