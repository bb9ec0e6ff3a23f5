/* test-model.c - the GObject model: load, edit through the history, save */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "mat0-validate.h"
#include "mat-library.h"
#include "mat-search-model.h"
#include "nres.h"
#include "test-support.h"

/* Helpers */

static GBytes *
env_file (const char *var)
{
  const char *path = g_getenv (var);

  if (path == NULL)
    {
      g_test_skip_printf ("%s is not set (run through meson test)", var);
      return NULL;
    }

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
assert_same_bytes (GBytes *a,
                   GBytes *b)
{
  gsize la, lb;
  const guint8 *da = g_bytes_get_data (a, &la);
  const guint8 *db = g_bytes_get_data (b, &lb);

  if (la == lb && (la == 0 || memcmp (da, db, la) == 0))
    return;

  for (gsize i = 0; i < MIN (la, lb); i++)
    if (da[i] != db[i])
      {
        g_test_message ("first difference at offset %" G_GSIZE_FORMAT ": %02x vs %02x",
                        i, da[i], db[i]);
        break;
      }
  g_test_message ("sizes %" G_GSIZE_FORMAT " and %" G_GSIZE_FORMAT, la, lb);
  g_assert_not_reached ();
}

static MatLibrary *
library_from (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  MatLibrary *lib = mat_library_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (lib);

  return lib;
}

static MatMaterial *
material_at (MatLibrary *lib,
             guint       i)
{
  MatMaterial *m = mat_library_get_material (lib, i);

  g_assert_nonnull (m);
  return m;
}

static gpointer
model_at (GListModel *model,
          guint       i)
{
  gpointer item = g_list_model_get_item (model, i);

  g_assert_nonnull (item);
  g_object_unref (item);   /* held by the model */
  return item;
}

static void
async_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  *slot = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);

  return *slot;
}

static MatLibrary *
load_file (GFile   *file,
           GError **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mat_library_load_async (file, NULL, async_cb, &result);
  return mat_library_load_finish (wait_for (&result), error);
}

static gboolean
save_file (MatLibrary *lib,
           GFile      *file,
           gboolean    backup,
           GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mat_library_save_async (lib, file, backup ? MAT_SAVE_BACKUP : MAT_SAVE_NONE, NULL,
                          async_cb, &result);
  return mat_library_save_finish (lib, wait_for (&result), NULL, error);
}

/* The demo and retail-shaped libraries */

static void
check_library_file (const char *var)
{
  g_autoptr(GBytes) bytes = env_file (var);
  g_autoptr(MatLibrary) lib = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(NresArchive) archive = NULL;
  guint n_editable = 0;

  if (bytes == NULL)
    return;

  lib = library_from (bytes);
  archive = nres_archive_parse (bytes, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (lib)), ==, archive->n_entries);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (lib)) == MAT_TYPE_MATERIAL);
  g_assert_false (mat_library_get_dirty (lib));
  g_assert_false (mat_history_get_can_undo (mat_library_get_history (lib)));

  /* Unchanged, even after decoding everything: byte-identical. */
  for (guint i = 0; i < archive->n_entries; i++)
    {
      MatMaterial *m = material_at (lib, i);
      g_autoptr(Mat0Material) core = NULL;

      if (!mat_material_get_editable (m))
        continue;
      n_editable++;
      core = mat_material_dup_core (m);
      g_assert_cmpuint (core->n_phases, ==, mat_material_get_n_phases (m));
      g_assert_cmpuint (core->n_blocks, ==, mat_material_get_n_blocks (m));
      g_assert_cmpuint (g_list_model_get_n_items (mat_material_get_phases (m)), ==, core->n_phases);
    }
  g_assert_cmpuint (n_editable, >, 0);

  again = save_bytes (lib);
  assert_same_bytes (bytes, again);
  g_assert_nonnull (mat_library_get_diagnostics (lib));
}

static void
test_load_demo (void)
{
  check_library_file ("DEMO_LIB");
}

static void
test_load_retail (void)
{
  check_library_file ("RETAIL_LIB");
}

static void
test_load_stress_lazy (void)
{
  g_autoptr(GBytes) bytes = env_file ("STRESS_LIB");
  g_autoptr(MatLibrary) lib = NULL;
  g_autoptr(GBytes) again = NULL;
  double seconds;

  if (bytes == NULL)
    return;

  g_test_timer_start ();
  lib = library_from (bytes);
  seconds = g_test_timer_elapsed ();
  g_test_message ("opened %u entries in %.3f s",
                  g_list_model_get_n_items (G_LIST_MODEL (lib)), seconds);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (lib)), ==, 65536);
  /* The budget is "well under a second"; sanitizers get slack. */
  g_assert_cmpfloat (seconds, <, 2.0);

  /* Nothing decoded yet: a save copies every payload. */
  again = save_bytes (lib);
  assert_same_bytes (bytes, again);
}

static void
test_load_refuses_garbage (void)
{
  static const guint8 junk[] = { 'N', 'R', 'e', 's', 0, 1, 0, 0, 5, 0, 0, 0, 16, 0, 0, 0 };
  g_autoptr(GBytes) bytes = g_bytes_new_static (junk, sizeof junk);
  g_autoptr(GError) error = NULL;
  g_autoptr(MatLibrary) lib = mat_library_new_from_bytes (bytes, &error);

  g_assert_null (lib);
  g_assert_error (error, NRES_ERROR, NRES_ERROR_BAD_COUNT);
  g_assert_nonnull (strstr (error->message, "expected"));
}

/* Random edits */

typedef struct {
  MatLibrary *lib;
  GRand      *rand;
  guint       counter;
  guint       depth;
} Fuzz;

static MatMaterial *
random_material (Fuzz *f)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (f->lib));

  if (n == 0)
    return NULL;
  return material_at (f->lib, g_rand_int_range (f->rand, 0, n));
}

static MatMaterial *
random_editable (Fuzz *f)
{
  for (guint tries = 0; tries < 50; tries++)
    {
      MatMaterial *m = random_material (f);

      if (m == NULL)
        return NULL;
      if (mat_material_get_editable (m))
        return m;

      /* A read-only entry refuses edits. */
      {
        g_autoptr(GError) error = NULL;

        g_assert_false (mat_material_set_attr1 (m, 12345, &error));
        g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
      }
    }

  return NULL;
}

static MatPhase *
random_phase (Fuzz        *f,
              MatMaterial *m)
{
  GListModel *phases = mat_material_get_phases (m);
  guint n = g_list_model_get_n_items (phases);

  return n > 0 ? model_at (phases, g_rand_int_range (f->rand, 0, n)) : NULL;
}

static MatAnimBlock *
random_block (Fuzz        *f,
              MatMaterial *m)
{
  GListModel *blocks = mat_material_get_blocks (m);
  guint n = g_list_model_get_n_items (blocks);

  return n > 0 ? model_at (blocks, g_rand_int_range (f->rand, 0, n)) : NULL;
}

static MatKey *
random_key (Fuzz         *f,
            MatAnimBlock *b)
{
  GListModel *keys = mat_anim_block_get_keys (b);
  guint n = g_list_model_get_n_items (keys);

  return n > 0 ? model_at (keys, g_rand_int_range (f->rand, 0, n)) : NULL;
}

static char *
fresh_name (Fuzz *f)
{
  return g_strdup_printf ("RND_%u_%u", f->counter++, g_rand_int_range (f->rand, 0, 1000));
}

static void
random_edit (Fuzz *f)
{
  g_autoptr(GError) error = NULL;
  MatMaterial *m = random_editable (f);
  MatPhase *phase;
  MatAnimBlock *block;
  MatKey *key;
  guint n;

  if (m == NULL)
    {
      g_autofree char *name = fresh_name (f);

      g_assert_nonnull (mat_library_add_material (f->lib, name, &error));
      return;
    }

  phase = random_phase (f, m);
  block = random_block (f, m);
  n = mat_material_get_n_phases (m);

  switch (g_rand_int_range (f->rand, 0, 24))
    {
    case 0:
      if (phase != NULL)
        mat_phase_set_param (phase, g_rand_int_range (f->rand, 0, 18),
                             g_rand_int_range (f->rand, 0, 256), &error);
      break;
    case 1:
      if (phase != NULL)
        {
          guint8 p[MAT_PHASE_N_PARAMS];

          for (guint i = 0; i < MAT_PHASE_N_PARAMS; i++)
            p[i] = g_rand_int_range (f->rand, 0, 256);
          mat_phase_set_params (phase, p, &error);
        }
      break;
    case 2:
      if (phase != NULL)
        {
          g_autofree char *tex = g_rand_boolean (f->rand) ?
            g_strdup_printf ("TEX%u.%c", g_rand_int_range (f->rand, 0, 99),
                             'A' + g_rand_int_range (f->rand, 0, 26)) : g_strdup ("");
          mat_phase_set_texture (phase, tex, &error);
        }
      break;
    case 3:
      mat_material_set_attr1 (m, g_rand_int (f->rand), &error);
      break;
    case 4:
      mat_material_set_attr2 (m, g_rand_int_range (f->rand, 0, 8), &error);
      break;
    case 5:
      mat_material_set_attr3 (m, g_rand_int (f->rand), &error);
      break;
    case 6:
      switch (g_rand_int_range (f->rand, 0, 4))
        {
        case 0: mat_material_set_meta_a (m, g_rand_int_range (f->rand, 0, 256), &error); break;
        case 1: mat_material_set_meta_b (m, g_rand_int_range (f->rand, 0, 256), &error); break;
        case 2: mat_material_set_meta_c (m, g_rand_int (f->rand), &error); break;
        default: mat_material_set_meta_d (m, g_rand_int (f->rand), &error); break;
        }
      if (error != NULL)
        {
          g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_META_ABSENT);
          g_clear_error (&error);
        }
      break;
    case 7:
      {
        MatMaterial *other = random_material (f);
        g_autofree char *name = NULL;

        if (other != m && g_rand_int_range (f->rand, 0, 4) == 0)
          {
            /* Another entry's name in another case is taken. */
            name = g_utf8_strdown (mat_material_get_name (other), -1);
            if (g_ascii_strcasecmp (name, mat_material_get_name (other)) == 0)
              {
                g_assert_false (mat_material_set_name (m, name, &error));
                g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN);
                return;
              }
          }
        g_clear_pointer (&name, g_free);
        name = fresh_name (f);
        g_assert_true (mat_material_set_name (m, name, &error));
      }
      break;
    case 8:
      {
        g_autofree char *name = fresh_name (f);
        g_assert_nonnull (mat_library_add_material (f->lib, name, &error));
      }
      break;
    case 9:
      {
        g_autofree char *name = fresh_name (f);
        g_assert_nonnull (mat_library_duplicate_material (f->lib, m, name, &error));
      }
      break;
    case 10:
      {
        MatMaterial *victim = random_material (f);

        if (mat_material_get_type_id (victim) == NRES_TYPE_MAT0)
          g_assert_true (mat_library_delete_material (f->lib, victim, &error));
      }
      break;
    case 11:
      mat_material_insert_phase (m, g_rand_int_range (f->rand, 0, n + 1), &error);
      break;
    case 12:
      if (n > 0)
        mat_material_duplicate_phase (m, g_rand_int_range (f->rand, 0, n), &error);
      break;
    case 13:
      if (n > 0)
        mat_material_move_phase (m, g_rand_int_range (f->rand, 0, n),
                                 g_rand_int_range (f->rand, 0, n), &error);
      break;
    case 14:
      if (n > 0 && !mat_material_remove_phase (m, g_rand_int_range (f->rand, 0, n), &error))
        {
          g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_LAST_PHASE);
          g_clear_error (&error);
        }
      break;
    case 15:
      if (mat_material_insert_block (m, g_rand_int_range (f->rand, 0, mat_material_get_n_blocks (m) + 1),
                                     &error) == NULL)
        {
          g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TOO_MANY_BLOCKS);
          g_clear_error (&error);
        }
      break;
    case 16:
      if (block != NULL)
        mat_material_remove_block (m, mat_anim_block_get_index (block), &error);
      break;
    case 17:
      if (block != NULL)
        mat_anim_block_insert_key (block, g_rand_int_range (f->rand, 0, mat_anim_block_get_n_keys (block) + 1),
                                   g_rand_int_range (f->rand, 0, MAX (n, 1)),
                                   g_rand_int_range (f->rand, 0, 5000), &error);
      break;
    case 18:
      if (block != NULL && mat_anim_block_get_n_keys (block) > 0)
        mat_anim_block_remove_key (block, g_rand_int_range (f->rand, 0, mat_anim_block_get_n_keys (block)),
                                   &error);
      break;
    case 19:
      if (block != NULL && mat_anim_block_get_n_keys (block) > 0)
        mat_anim_block_move_key (block, g_rand_int_range (f->rand, 0, mat_anim_block_get_n_keys (block)),
                                 g_rand_int_range (f->rand, 0, mat_anim_block_get_n_keys (block)), &error);
      break;
    case 20:
      if (block != NULL && (key = random_key (f, block)) != NULL)
        {
          guint index = mat_key_get_index (key);

          switch (g_rand_int_range (f->rand, 0, 6))
            {
            case 0: mat_key_set_k0 (key, g_rand_int_range (f->rand, 0, MAX (n, 1)), &error); break;
            case 1: mat_key_set_k1 (key, g_rand_int_range (f->rand, 0, 65536), &error); break;
            case 2:
              mat_anim_block_set_key_time (block, index, g_rand_int_range (f->rand, 0, 65536), &error);
              break;
            case 3:
              if (!mat_anim_block_move_key_time (block, index, g_rand_int_range (f->rand, -3000, 3000),
                                                 g_rand_boolean (f->rand), NULL, &error) &&
                  g_error_matches (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TIME_RANGE))
                g_clear_error (&error);
              break;
            case 4:
              mat_anim_block_insert_key_at_time (block, g_rand_int_range (f->rand, 0, 65536),
                                                 g_rand_int_range (f->rand, 0, MAX (n, 1)), &error);
              break;
            default: mat_key_set_k2 (key, g_rand_int_range (f->rand, 0, 65536), &error); break;
            }
        }
      break;
    case 21:
      if (block != NULL)
        {
          if (g_rand_boolean (f->rand))
            mat_anim_block_set_mode (block, g_rand_int_range (f->rand, 0, 8), &error);
          else
            mat_anim_block_set_interp_mask (block, g_rand_int_range (f->rand, 0, 64), &error);
        }
      break;
    case 22:
      /* A drag: one undoable step. */
      if (block != NULL && (key = random_key (f, block)) != NULL)
        {
          MatHistory *history = mat_library_get_history (f->lib);

          g_autoptr(MatKey) held = g_object_ref (key);
          g_autoptr(MatPhase) held_phase = phase != NULL ? g_object_ref (phase) : NULL;

          mat_history_begin_group (history, "Drag");
          for (guint i = 0; i < 6; i++)
            {
              /* Merged value edits with other edits in between. */
              if (!mat_key_set_k1 (held, g_rand_int_range (f->rand, 0, 3000), &error))
                {
                  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
                  g_clear_error (&error);
                }
              if (held_phase != NULL &&
                  !mat_phase_set_param (held_phase, 5, g_rand_int_range (f->rand, 0, 256), &error))
                {
                  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
                  g_clear_error (&error);
                }
              if (f->depth == 0 && g_rand_boolean (f->rand))
                {
                  f->depth++;
                  random_edit (f);
                  f->depth--;
                }
            }
          mat_history_end_group (history);
        }
      break;
    default:
      if (g_rand_boolean (f->rand))
        mat_history_undo (mat_library_get_history (f->lib));
      else
        mat_history_redo (mat_library_get_history (f->lib));
      break;
    }

  g_assert_no_error (error);
}

static void
random_undo_redo (const char *var,
                  guint32     seed)
{
  g_autoptr(GBytes) original = env_file (var);
  g_autoptr(MatLibrary) lib = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GRand) rand = NULL;
  MatHistory *history;
  Fuzz f;
  guint edits = 0, guard = 0;

  if (original == NULL)
    return;

  /* TEST_MODEL_SEED reruns with another seed. */
  if (g_getenv ("TEST_MODEL_SEED") != NULL)
    seed = (guint32) g_ascii_strtoull (g_getenv ("TEST_MODEL_SEED"), NULL, 10);
  g_test_message ("seed %u", seed);
  rand = g_rand_new_with_seed (seed);
  lib = library_from (original);
  history = mat_library_get_history (lib);
  f.lib = lib;
  f.rand = rand;
  f.counter = 0;
  f.depth = 0;

  while (edits < 1000)
    {
      guint before = mat_history_get_n_undo (history);

      g_assert_cmpuint (++guard, <, 100000);
      random_edit (&f);
      if (mat_history_get_n_undo (history) > before)
        edits++;
      g_assert_true (mat_library_get_dirty (lib) ||
                     mat_history_get_n_undo (history) == 0);
    }
  while (mat_history_redo (history))
    ;

  after = save_bytes (lib);
  g_assert_false (g_bytes_equal (original, after));
  archive = nres_archive_parse (after, NULL);
  g_assert_nonnull (archive);
  g_assert_cmpuint (archive->n_entries, ==, g_list_model_get_n_items (G_LIST_MODEL (lib)));

  while (mat_history_undo (history))
    ;
  g_assert_false (mat_library_get_dirty (lib));
  undone = save_bytes (lib);
  assert_same_bytes (original, undone);

  while (mat_history_redo (history))
    ;
  g_assert_true (mat_library_get_dirty (lib));
  redone = save_bytes (lib);
  assert_same_bytes (after, redone);
}

static void
test_random_undo_redo_retail (void)
{
  random_undo_redo ("RETAIL_LIB", 20240601);
}

static void
test_random_undo_redo_demo (void)
{
  random_undo_redo ("DEMO_LIB", 7);
}

/* Saving */

static gint
first_editable_with_phases (MatLibrary *lib)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (lib));

  for (guint i = 0; i < n; i++)
    if (mat_material_get_editable (material_at (lib, i)) &&
        mat_material_get_n_phases (material_at (lib, i)) > 0)
      return (gint) i;

  return -1;
}

static void
test_save_same_size_edit (void)
{
  g_autoptr(GBytes) original = env_file ("RETAIL_LIB");
  g_autoptr(MatLibrary) lib = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  MatMaterial *m;
  MatPhase *phase;
  gsize size, expected_offset;
  const guint8 *a, *b;
  guint8 old;
  guint n_diff = 0;
  gint index;

  if (original == NULL)
    return;

  lib = library_from (original);
  archive = nres_archive_parse (original, NULL);
  index = first_editable_with_phases (lib);
  g_assert_cmpint (index, >=, 0);
  m = material_at (lib, index);
  phase = model_at (mat_material_get_phases (m), 0);
  old = mat_phase_get_param (phase, 9);
  g_assert_true (mat_phase_set_param (phase, 9, old ^ 0x5A, &error));
  g_assert_no_error (error);

  edited = save_bytes (lib);
  g_assert_cmpuint (g_bytes_get_size (edited), ==, g_bytes_get_size (original));
  expected_offset = archive->entries[index].data_offset + 4 +
                    mat0_prefix_size (archive->entries[index].attr2) + 9;
  a = g_bytes_get_data (original, &size);
  b = g_bytes_get_data (edited, NULL);
  for (gsize i = 0; i < size; i++)
    if (a[i] != b[i])
      {
        g_assert_cmpuint (i, ==, expected_offset);
        n_diff++;
      }
  g_assert_cmpuint (n_diff, ==, 1);
}

static char *
make_temp_copy (GBytes  *bytes,
                char   **dir_out)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-model-XXXXXX", &error);
  char *path;

  g_assert_no_error (error);
  path = g_build_filename (dir, "Material.lib", NULL);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  *dir_out = dir;

  return path;
}

static void
remove_temp (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_remove (path);
    }
  g_rmdir (dir);
}

static void
test_save_async_reload (void)
{
  g_autoptr(GBytes) original = env_file ("DEMO_LIB");
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *other_path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) other = NULL;
  g_autoptr(MatLibrary) lib = NULL;
  g_autoptr(MatLibrary) reloaded = NULL;
  g_autoptr(GBytes) expected = NULL;
  g_autoptr(GBytes) on_disk = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first_etag = NULL;
  MatHistory *history;
  MatMaterial *m;

  if (original == NULL)
    return;

  path = make_temp_copy (original, &dir);
  file = g_file_new_for_path (path);
  lib = load_file (file, &error);
  g_assert_no_error (error);
  g_assert_nonnull (mat_library_get_etag (lib));
  g_assert_true (g_file_equal (mat_library_get_file (lib), file));
  first_etag = g_strdup (mat_library_get_etag (lib));
  history = mat_library_get_history (lib);

  m = mat_library_add_material (lib, "SAVED_NEW", &error);
  g_assert_no_error (error);
  g_assert_true (mat_material_set_attr1 (m, 0x41, &error));
  g_assert_true (mat_library_get_dirty (lib));
  expected = save_bytes (lib);

  g_assert_true (save_file (lib, NULL, TRUE, &error));
  g_assert_no_error (error);
  g_assert_false (mat_library_get_dirty (lib));
  on_disk = test_load_file (path);
  assert_same_bytes (expected, on_disk);

  /* The saved bytes are the new base: still identical, still undoable. */
  again = save_bytes (lib);
  assert_same_bytes (expected, again);
  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_library_get_dirty (lib));
  g_assert_true (mat_history_redo (history));
  g_assert_false (mat_library_get_dirty (lib));

  /* Undo to before the add: the deleted entry is gone from the file... */
  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_history_undo (history));
  g_clear_pointer (&again, g_bytes_unref);
  again = save_bytes (lib);
  assert_same_bytes (original, again);
  /* ...and redo brings it back as a new entry. */
  g_assert_true (mat_history_redo (history));
  g_assert_true (mat_history_redo (history));
  g_clear_pointer (&again, g_bytes_unref);
  again = save_bytes (lib);
  assert_same_bytes (expected, again);

  reloaded = load_file (file, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (reloaded)), ==,
                    g_list_model_get_n_items (G_LIST_MODEL (lib)));
  m = mat_library_find (reloaded, "saved_new");
  g_assert_nonnull (m);
  g_assert_cmpuint (mat_material_get_attr1 (m), ==, 0x41);
  g_clear_pointer (&again, g_bytes_unref);
  again = save_bytes (reloaded);
  assert_same_bytes (expected, again);

  /* Save as: another file; the library follows it. */
  other_path = g_build_filename (dir, "Other.lib", NULL);
  other = g_file_new_for_path (other_path);
  g_assert_true (save_file (lib, other, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_equal (mat_library_get_file (lib), other));

  remove_temp (dir);
}

static void
test_save_etag_conflict (void)
{
  g_autoptr(GBytes) original = env_file ("DEMO_LIB");
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(MatLibrary) lib = NULL;
  g_autoptr(GBytes) on_disk = NULL;
  g_autoptr(GError) error = NULL;
  static const char changed[] = "changed on disk by someone else";
  MatMaterial *m;

  if (original == NULL)
    return;

  path = make_temp_copy (original, &dir);
  file = g_file_new_for_path (path);
  lib = load_file (file, &error);
  g_assert_no_error (error);

  m = material_at (lib, first_editable_with_phases (lib));
  g_assert_true (mat_material_set_attr3 (m, 99, &error));

  g_usleep (50 * 1000);   /* past the file system's timestamp granularity */
  g_file_set_contents (path, changed, sizeof changed, &error);
  g_assert_no_error (error);

  g_assert_false (save_file (lib, NULL, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);
  g_assert_true (mat_library_get_dirty (lib));
  on_disk = test_load_file (path);
  g_assert_cmpuint (g_bytes_get_size (on_disk), ==, sizeof changed);
  g_assert_cmpmem (g_bytes_get_data (on_disk, NULL), sizeof changed, changed, sizeof changed);

  remove_temp (dir);
}

static void
test_save_no_file (void)
{
  g_autoptr(GBytes) original = env_file ("DEMO_LIB");
  g_autoptr(MatLibrary) lib = NULL;
  g_autoptr(GError) error = NULL;

  if (original == NULL)
    return;

  lib = library_from (original);
  g_assert_false (save_file (lib, NULL, FALSE, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NO_FILE);
}

/* A library with a MAT0 entry that does not decode and a Texm entry */

static GBytes *
odd_library (void)
{
  static const guint8 broken[] = { 1, 0 };                 /* truncated counts */
  static const guint8 texm[] = { 'T', 'e', 'x', 'm', 1, 2, 3, 4, 5 };
  g_autoptr(GBytes) good = test_worked_example_payload (0);
  g_autoptr(GBytes) good2 = test_worked_example_payload (1);
  TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 1, 6, 0, "DEFAULT", g_bytes_get_data (good, NULL), g_bytes_get_size (good), 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "BROKEN", broken, sizeof broken, 3 },
    { NRES_TYPE_TEXM, 0, 0, 0, "ROCK.0", texm, sizeof texm, 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "PULSE", g_bytes_get_data (good2, NULL), g_bytes_get_size (good2), 0 },
  };

  return test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
}

static void
test_broken_entry (void)
{
  g_autoptr(GBytes) original = odd_library ();
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  MatMaterial *broken = material_at (lib, 1);
  MatMaterial *texm = material_at (lib, 2);
  MatMaterial *good = material_at (lib, 3);
  const guint8 *payload;
  gsize size;

  g_assert_false (mat_material_get_editable (broken));
  g_assert_nonnull (mat_material_get_error (broken));
  g_assert_nonnull (strstr (mat_material_get_error (broken), "BROKEN"));
  g_test_message ("decode error: %s", mat_material_get_error (broken));
  g_assert_cmpuint (mat_material_get_n_phases (broken), ==, 0);
  g_assert_null (mat_material_dup_core (broken));
  g_assert_false (mat_material_set_attr1 (broken, 7, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  g_clear_error (&error);
  g_assert_false (mat_material_set_name (broken, "FIXED", &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  g_clear_error (&error);
  {
    g_autoptr(GPtrArray) diags = mat_material_dup_diagnostics (broken);
    g_assert_cmpuint (diags->len, ==, 1);
  }

  g_assert_false (mat_material_get_editable (texm));
  g_assert_null (mat_material_get_error (texm));
  g_assert_cmpuint (mat_material_get_type_id (texm), ==, NRES_TYPE_TEXM);
  g_assert_cmpuint (g_list_model_get_n_items (mat_material_get_phases (texm)), ==, 0);
  g_assert_false (mat_library_delete_material (lib, texm, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  g_clear_error (&error);

  again = save_bytes (lib);
  assert_same_bytes (original, again);

  /* Edit the entry after it (its payload grows): the broken and Texm
   * payloads are kept byte for byte. */
  g_assert_nonnull (mat_material_insert_phase (good, 0, &error));
  g_assert_no_error (error);
  edited = save_bytes (lib);
  archive = nres_archive_parse (edited, &error);
  g_assert_no_error (error);
  payload = nres_archive_payload (archive, 1, &size);
  g_assert_cmpmem (payload, size, "\1\0", 2);
  payload = nres_archive_payload (archive, 2, &size);
  g_assert_cmpmem (payload, size, "Texm\1\2\3\4\5", 9);

  /* A broken MAT0 may be deleted; undo puts it back unchanged. */
  g_assert_true (mat_library_delete_material (lib, broken, &error));
  g_assert_true (mat_history_undo (mat_library_get_history (lib)));
  g_assert_true (mat_history_undo (mat_library_get_history (lib)));
  g_clear_pointer (&again, g_bytes_unref);
  again = save_bytes (lib);
  assert_same_bytes (original, again);
}

/* Phases and keys */

static void
test_phase_keys_follow (void)
{
  g_autoptr(GBytes) original = odd_library ();
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(GError) error = NULL;
  MatHistory *history = mat_library_get_history (lib);
  MatMaterial *m = material_at (lib, 0);
  GListModel *phases = mat_material_get_phases (m);
  MatAnimBlock *block;
  MatPhase *p[4];
  MatKey *k[4];
  guint n_steps;

  /* Phases A B C D (p0 = 0, 1, 2, 3), a block with keys -> A, B, C, D. */
  while (mat_material_get_n_phases (m) < 4)
    g_assert_nonnull (mat_material_insert_phase (m, mat_material_get_n_phases (m), &error));
  for (guint i = 0; i < 4; i++)
    {
      p[i] = model_at (phases, i);
      g_assert_cmpuint (mat_phase_get_index (p[i]), ==, i);
      g_assert_true (mat_phase_set_param (p[i], 0, i, &error));
    }
  block = mat_material_insert_block (m, 0, &error);
  g_assert_nonnull (block);
  g_assert_true (mat_anim_block_remove_key (block, 0, &error));
  for (guint i = 0; i < 4; i++)
    k[i] = mat_anim_block_insert_key (block, i, i, 100 * (i + 1), &error);
  g_assert_no_error (error);
  n_steps = mat_history_get_n_undo (history);

#define ASSERT_KEY_AT(key, phase) \
  g_assert_true (model_at (phases, mat_key_get_k0 (key)) == (gpointer) (phase))

  /* Insert before B: keys still point at A B C D. */
  g_assert_nonnull (mat_material_insert_phase (m, 1, &error));
  for (guint i = 0; i < 4; i++)
    ASSERT_KEY_AT (k[i], p[i]);
  g_assert_cmpuint (mat_key_get_k0 (k[1]), ==, 2);

  /* Duplicate C. */
  g_assert_nonnull (mat_material_duplicate_phase (m, mat_phase_get_index (p[2]), &error));
  for (guint i = 0; i < 4; i++)
    ASSERT_KEY_AT (k[i], p[i]);

  /* Move A to the end and D to the front. */
  g_assert_true (mat_material_move_phase (m, mat_phase_get_index (p[0]), mat_material_get_n_phases (m) - 1, &error));
  g_assert_true (mat_material_move_phase (m, mat_phase_get_index (p[3]), 0, &error));
  for (guint i = 0; i < 4; i++)
    ASSERT_KEY_AT (k[i], p[i]);
  g_assert_cmpuint (mat_phase_get_index (p[3]), ==, 0);

  /* Remove B: its key points at the phase that takes its place. */
  {
    guint b_index = mat_phase_get_index (p[1]);
    MatPhase *next = model_at (phases, b_index + 1);

    g_assert_true (mat_material_remove_phase (m, b_index, &error));
    g_assert_null (mat_phase_get_material (p[1]));
    ASSERT_KEY_AT (k[1], next);
    ASSERT_KEY_AT (k[0], p[0]);
    ASSERT_KEY_AT (k[2], p[2]);
    ASSERT_KEY_AT (k[3], p[3]);
  }
  /* Remove the last phase (A): its key points at the one before. */
  g_assert_true (mat_material_remove_phase (m, mat_phase_get_index (p[0]), &error));
  g_assert_cmpuint (mat_key_get_k0 (k[0]), ==, mat_material_get_n_phases (m) - 1);
  g_assert_no_error (error);

  /* Undo everything back to the setup: every k0 exactly as it was. */
  while (mat_history_get_n_undo (history) > n_steps)
    g_assert_true (mat_history_undo (history));
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpuint (mat_key_get_k0 (k[i]), ==, i);
      g_assert_true (model_at (phases, i) == (gpointer) p[i]);
      g_assert_cmpuint (mat_phase_get_index (p[i]), ==, i);
      g_assert_true (mat_phase_get_material (p[i]) == m);
    }
  g_assert_cmpuint (mat_material_get_n_phases (m), ==, 4);
#undef ASSERT_KEY_AT
}

static void
test_phase_last_and_blocks_limit (void)
{
  g_autoptr(GBytes) original = odd_library ();
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(GError) error = NULL;
  MatMaterial *m = mat_library_add_material (lib, "FRESH", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (mat_material_get_n_phases (m), ==, 1);
  g_assert_false (mat_material_remove_phase (m, 0, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_LAST_PHASE);
  g_clear_error (&error);

  for (guint i = 0; i < MAT0_MAX_BLOCKS; i++)
    {
      g_assert_nonnull (mat_material_insert_block (m, i, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (mat_material_get_n_blocks (m), ==, 19);
  g_assert_null (mat_material_insert_block (m, 0, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TOO_MANY_BLOCKS);
}

/* Names */

static void
test_rename (void)
{
  g_autoptr(GBytes) original = odd_library ();
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) again = NULL;
  MatMaterial *m = material_at (lib, 3);
  MatHistory *history = mat_library_get_history (lib);

  g_assert_cmpstr (mat_material_get_name (m), ==, "PULSE");

  /* Case-insensitive uniqueness, against any entry type. */
  g_assert_false (mat_material_set_name (m, "default", &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN);
  g_clear_error (&error);
  g_assert_false (mat_material_set_name (m, "rock.0", &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN);
  g_clear_error (&error);
  g_assert_null (mat_library_add_material (lib, "Broken", &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN);
  g_clear_error (&error);

  /* CP1251 refusal, length and emptiness. */
  g_assert_false (mat_material_set_name (m, "日本", &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_INVALID);
  g_clear_error (&error);
  g_assert_false (mat_material_set_name (m, "123456789012345678901234567890123456", &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_INVALID);
  g_clear_error (&error);
  g_assert_false (mat_material_set_name (m, "", &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_INVALID);
  g_clear_error (&error);
  g_assert_false (mat_history_get_can_undo (history));

  /* Its own name in another case, 35 bytes, Cyrillic: fine. */
  g_assert_true (mat_material_set_name (m, "pulse", &error));
  g_assert_cmpstr (mat_material_get_name (m), ==, "pulse");
  g_assert_true (mat_material_set_name (m, "12345678901234567890123456789012345", &error));
  g_assert_true (mat_material_set_name (m, "БРОНЯ_ЗЕЛЁНАЯ", &error));
  g_assert_no_error (error);
  g_assert_true (mat_library_find (lib, "броня_зелёная") == NULL ||
                 mat_library_find (lib, "БРОНЯ_ЗЕЛЁНАЯ") == m);
  g_assert_true (mat_library_find (lib, "БРОНЯ_ЗЕЛЁНАЯ") == m);
  g_assert_cmpstr (mat_history_get_undo_label (history), !=, NULL);

  while (mat_history_undo (history))
    ;
  g_assert_cmpstr (mat_material_get_name (m), ==, "PULSE");
  again = save_bytes (lib);
  assert_same_bytes (original, again);
}

/* History */

static void
test_group_is_one_step (void)
{
  g_autoptr(GBytes) original = odd_library ();
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(GError) error = NULL;
  MatHistory *history = mat_library_get_history (lib);
  MatMaterial *m = material_at (lib, 3);
  MatPhase *phase = model_at (mat_material_get_phases (m), 0);
  MatAnimBlock *block = model_at (mat_material_get_blocks (m), 0);
  MatKey *k0 = model_at (mat_anim_block_get_keys (block), 0);
  MatKey *k1 = model_at (mat_anim_block_get_keys (block), 1);
  guint8 start = mat_phase_get_param (phase, 4);
  guint16 d0 = mat_key_get_k1 (k0), d1 = mat_key_get_k1 (k1);

  /* A drag changing the times of keys 0 and 1. */
  mat_history_begin_group (history, "Retime Key");
  for (guint i = 1; i <= 100; i++)
    {
      g_assert_true (mat_key_set_k1 (k0, d0 + i, &error));
      g_assert_true (mat_key_set_k1 (k1, d1 - i, &error));
    }
  mat_history_end_group (history);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Retime Key");
  /* the period is the last key's time */
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, (guint) d1 - 100);

  /* A spin on one field, nested groups. */
  mat_history_begin_group (history, NULL);
  mat_history_begin_group (history, "inner");
  for (guint i = 0; i < 50; i++)
    g_assert_true (mat_phase_set_param (phase, 4, (guint8) (start + i + 1), &error));
  mat_history_end_group (history);
  g_assert_true (mat_history_in_group (history));
  mat_history_end_group (history);
  g_assert_false (mat_history_in_group (history));
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 2);
  g_assert_cmpstr (mat_history_get_undo_label (history), !=, NULL);

  g_assert_true (mat_history_undo (history));
  g_assert_cmpuint (mat_phase_get_param (phase, 4), ==, start);
  g_assert_true (mat_history_undo (history));
  g_assert_cmpuint (mat_key_get_k1 (k0), ==, d0);
  g_assert_cmpuint (mat_key_get_k1 (k1), ==, d1);
  g_assert_false (mat_history_get_can_undo (history));
  g_assert_true (mat_history_redo (history));
  g_assert_cmpuint (mat_key_get_k1 (k0), ==, d0 + 100);
  g_assert_cmpuint (mat_key_get_k1 (k1), ==, d1 - 100);
  g_assert_true (mat_history_redo (history));
  g_assert_cmpuint (mat_phase_get_param (phase, 4), ==, (guint8) (start + 50));

  /* An empty group adds nothing. */
  mat_history_begin_group (history, "nothing");
  mat_history_end_group (history);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 2);
}

static void
count_cb (GObject    *object,
          GParamSpec *pspec,
          gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
param_changed_cb (MatPhase *phase,
                  guint     index,
                  gpointer  user_data)
{
  g_assert_cmpuint (index, <, MAT_PHASE_N_PARAMS);
  (*(guint *) user_data)++;
}

/* Retiming: a key's k1 is the time its interval ends (formats.md 2.3) */

/* A material TRACK (attr2 6, three phases) with one block (loop, interp
 * 0x01) holding @n keys (k0, k1, k2). Built byte by byte, independent of
 * the encoder under test. Returns: (transfer full). */
static GBytes *
track_payload (const guint16 *keys,
               guint          n)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();

  test_put_u16 (out, 3);             /* phaseCount */
  test_put_u16 (out, 1);             /* animBlockCount */
  test_put_u8 (out, 255);
  test_put_u8 (out, 255);
  test_put_u32 (out, 0x3F800000u);
  test_put_u32 (out, 0);
  for (guint i = 0; i < 3; i++)
    {
      guint8 p[18] = { 0 };

      p[0] = p[1] = p[2] = (guint8) (i * 100);
      p[3] = 100;
      test_put_phase (out, p, "");
    }
  test_put_u32 (out, (0x01u << 3) | 0);
  test_put_u16 (out, (guint16) n);
  for (guint i = 0; i < n; i++)
    {
      test_put_u16 (out, keys[3 * i]);
      test_put_u16 (out, keys[3 * i + 1]);
      test_put_u16 (out, keys[3 * i + 2]);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* The retail HLP_RAY_R track, with k2 values that must survive. */
static const guint16 track_keys[] = { 0, 50, 3,  1, 100, 7,  2, 150, 0,  1, 200, 9 };

static GBytes *
track_library (void)
{
  g_autoptr(GBytes) def = test_worked_example_payload (0);
  g_autoptr(GBytes) track = track_payload (track_keys, 4);
  TestEntrySpec specs[] = {
    { NRES_TYPE_MAT0, 1, 6, 0, "DEFAULT", g_bytes_get_data (def, NULL), g_bytes_get_size (def), 0 },
    { NRES_TYPE_MAT0, 0, 6, 0, "TRACK", g_bytes_get_data (track, NULL), g_bytes_get_size (track), 0 },
  };

  return test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
}

/* The payload of TRACK as a save writes it is exactly @keys. */
static void
assert_track (MatLibrary    *lib,
              const guint16 *keys,
              guint          n)
{
  g_autoptr(GBytes) saved = save_bytes (lib);
  g_autoptr(GBytes) expected = track_payload (keys, n);
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *payload;
  gsize size;

  archive = nres_archive_parse (saved, &error);
  g_assert_no_error (error);
  payload = nres_archive_payload (archive, 1, &size);
  g_assert_cmpmem (payload, size, g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));
}

/* After one step: @keys now, the original archive after undo, @keys
 * again after redo. */
static void
assert_step (MatLibrary    *lib,
             GBytes        *original,
             const guint16 *keys,
             guint          n)
{
  MatHistory *history = mat_library_get_history (lib);
  g_autoptr(GBytes) undone = NULL;

  assert_track (lib, keys, n);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_true (mat_history_undo (history));
  undone = save_bytes (lib);
  assert_same_bytes (original, undone);
  g_assert_true (mat_history_redo (history));
  assert_track (lib, keys, n);
  /* back to the start for the next case */
  g_assert_true (mat_history_undo (history));
  g_assert_false (mat_history_get_can_undo (history));
}

typedef struct {
  GBytes       *original;
  MatLibrary   *lib;
  MatAnimBlock *block;
} Track;

static void
track_open (Track *t)
{
  t->original = track_library ();
  t->lib = library_from (t->original);
  t->block = model_at (mat_material_get_blocks (material_at (t->lib, 1)), 0);
  assert_track (t->lib, track_keys, 4);
  g_assert_cmpuint (mat_anim_block_get_period (t->block), ==, 200);
}

static void
track_close (Track *t)
{
  g_clear_object (&t->lib);
  g_clear_pointer (&t->original, g_bytes_unref);
}

static void
test_retime_set_time (void)
{
  static const guint16 after[] = { 0, 50, 3,  1, 120, 7,  2, 150, 0,  1, 200, 9 };
  static const guint16 last[] = { 0, 50, 3,  1, 100, 7,  2, 150, 0,  1, 340, 9 };
  g_autoptr(GError) error = NULL;
  Track t;
  guint n_period = 0;

  track_open (&t);
  g_signal_connect (t.block, "notify::period", G_CALLBACK (count_cb), &n_period);

  /* one k1, nothing else; the period stays */
  g_assert_true (mat_anim_block_set_key_time (t.block, 1, 120, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mat_anim_block_get_period (t.block), ==, 200);
  g_assert_cmpuint (n_period, ==, 0);
  g_assert_cmpstr (mat_history_get_undo_label (mat_library_get_history (t.lib)), ==, "Change Key Time");
  assert_step (t.lib, t.original, after, 4);

  /* the last key's time is the period */
  g_assert_true (mat_anim_block_set_key_time (t.block, 3, 340, &error));
  g_assert_cmpuint (mat_anim_block_get_period (t.block), ==, 340);
  g_assert_cmpuint (n_period, ==, 1);
  assert_step (t.lib, t.original, last, 4);
  g_assert_cmpuint (mat_anim_block_get_period (t.block), ==, 200);

  /* several keys at once: one step, only their k1 */
  {
    static const guint positions[] = { 3, 1 };
    static const guint16 times[] = { 260, 110 };
    static const guint16 two[] = { 0, 50, 3,  1, 110, 7,  2, 150, 0,  1, 260, 9 };

    g_assert_true (mat_anim_block_set_key_times (t.block, positions, times, 2, &error));
    g_assert_cmpstr (mat_history_get_undo_label (mat_library_get_history (t.lib)), ==, "Retime Keys");
    assert_step (t.lib, t.original, two, 4);
  }

  /* the same time: no step */
  g_assert_true (mat_anim_block_set_key_time (t.block, 2, 150, &error));
  g_assert_false (mat_history_get_can_undo (mat_library_get_history (t.lib)));
  g_assert_no_error (error);
  track_close (&t);
}

static void
test_retime_move (void)
{
  static const guint16 one[] = { 0, 50, 3,  1, 100, 7,  2, 180, 0,  1, 200, 9 };
  static const guint16 carried[] = { 0, 50, 3,  1, 125, 7,  2, 175, 0,  1, 225, 9 };
  static const guint16 earlier[] = { 0, 20, 3,  1, 70, 7,  2, 120, 0,  1, 170, 9 };
  static const guint16 set[] = { 0, 60, 3,  1, 100, 7,  2, 160, 0,  1, 200, 9 };
  static const guint positions[] = { 2, 0, 2 };
  g_autoptr(GError) error = NULL;
  Track t;
  gint applied = 12345;

  track_open (&t);

  /* without the later keys: only that key's k1 */
  g_assert_true (mat_anim_block_move_key_time (t.block, 2, 30, FALSE, &applied, &error));
  g_assert_no_error (error);
  g_assert_cmpint (applied, ==, 30);
  g_assert_cmpuint (mat_anim_block_get_period (t.block), ==, 200);
  assert_step (t.lib, t.original, one, 4);

  /* with them: every later k1 by the same dt, the period too */
  g_assert_true (mat_anim_block_move_key_time (t.block, 1, 25, TRUE, &applied, &error));
  g_assert_cmpint (applied, ==, 25);
  g_assert_cmpuint (mat_anim_block_get_period (t.block), ==, 225);
  g_assert_cmpstr (mat_history_get_undo_label (mat_library_get_history (t.lib)), ==, "Retime Keys");
  assert_step (t.lib, t.original, carried, 4);

  /* from key 0 with everything after it, earlier */
  g_assert_true (mat_anim_block_move_key_time (t.block, 0, -30, TRUE, NULL, &error));
  assert_step (t.lib, t.original, earlier, 4);

  /* a set of keys (duplicates ignored) */
  g_assert_true (mat_anim_block_move_key_times (t.block, positions, 3, 10, &applied, &error));
  g_assert_cmpint (applied, ==, 10);
  assert_step (t.lib, t.original, set, 4);
  g_assert_no_error (error);
  track_close (&t);
}

static void
test_retime_clamp (void)
{
  static const guint16 at_zero[] = { 0, 0, 3,  1, 100, 7,  2, 150, 0,  1, 200, 9 };
  static const guint16 at_top[] = { 0, 50, 3,  1, 100, 7,  2, 65485, 0,  1, 65535, 9 };
  g_autoptr(GError) error = NULL;
  MatHistory *history;
  Track t;
  gint applied = 0;

  track_open (&t);
  history = mat_library_get_history (t.lib);

  /* 80 ms earlier from 50 ms: clamped at 0 */
  g_assert_true (mat_anim_block_move_key_time (t.block, 0, -80, FALSE, &applied, &error));
  g_assert_no_error (error);
  g_assert_cmpint (applied, ==, -50);
  assert_track (t.lib, at_zero, 4);

  /* at 0 already: an error, nothing changes, no step */
  g_assert_false (mat_anim_block_move_key_time (t.block, 0, -10, FALSE, &applied, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TIME_RANGE);
  g_assert_nonnull (strstr (error->message, "TRACK"));
  g_assert_nonnull (strstr (error->message, "65535"));
  g_assert_cmpint (applied, ==, 0);
  g_clear_error (&error);
  assert_track (t.lib, at_zero, 4);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_true (mat_history_undo (history));

  /* later keys carried up to 65535: clamped by the last key */
  g_assert_true (mat_anim_block_move_key_time (t.block, 2, 70000, TRUE, &applied, &error));
  g_assert_cmpint (applied, ==, 65335);
  g_assert_cmpuint (mat_anim_block_get_period (t.block), ==, 65535);
  assert_step (t.lib, t.original, at_top, 4);
  g_assert_true (mat_history_redo (history));
  g_assert_false (mat_anim_block_move_key_time (t.block, 2, 1, TRUE, &applied, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_TIME_RANGE);
  g_clear_error (&error);
  /* without carrying, key 2 still has room */
  g_assert_true (mat_anim_block_move_key_time (t.block, 2, 1, FALSE, &applied, &error));
  g_assert_cmpint (applied, ==, 1);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 2);
  g_assert_no_error (error);
  track_close (&t);
}

static void
test_retime_insert_remove (void)
{
  static const guint16 inserted[] = { 0, 50, 3,  1, 100, 7,  2, 120, 0,  2, 150, 0,  1, 200, 9 };
  static const guint16 appended[] = { 0, 50, 3,  1, 100, 7,  2, 150, 0,  1, 200, 9,  0, 260, 0 };
  static const guint16 first[] = { 1, 20, 0,  0, 50, 3,  1, 100, 7,  2, 150, 0,  1, 200, 9 };
  static const guint16 removed[] = { 0, 50, 3,  2, 150, 0,  1, 200, 9 };
  static const guint16 removed_last[] = { 0, 50, 3,  1, 100, 7,  2, 150, 0 };
  g_autoptr(GError) error = NULL;
  Track t;
  MatKey *key;

  track_open (&t);

  /* where a time falls: the interval that holds it */
  g_assert_cmpuint (mat_anim_block_position_for_time (t.block, 0), ==, 0);
  g_assert_cmpuint (mat_anim_block_position_for_time (t.block, 49), ==, 0);
  g_assert_cmpuint (mat_anim_block_position_for_time (t.block, 50), ==, 1);
  g_assert_cmpuint (mat_anim_block_position_for_time (t.block, 120), ==, 2);
  g_assert_cmpuint (mat_anim_block_position_for_time (t.block, 199), ==, 3);
  g_assert_cmpuint (mat_anim_block_position_for_time (t.block, 200), ==, 4);
  g_assert_cmpuint (mat_anim_block_position_for_time (t.block, 90000), ==, 4);

  /* inserting at 120 ms splits key 2's interval; no other time moves */
  key = mat_anim_block_insert_key_at_time (t.block, 120, 2, &error);
  g_assert_no_error (error);
  g_assert_nonnull (key);
  g_assert_cmpuint (mat_key_get_index (key), ==, 2);
  g_assert_cmpuint (mat_anim_block_get_period (t.block), ==, 200);
  assert_step (t.lib, t.original, inserted, 5);

  /* past the period: a new last key, a longer period */
  g_assert_nonnull (mat_anim_block_insert_key_at_time (t.block, 260, 0, &error));
  g_assert_cmpuint (mat_anim_block_get_period (t.block), ==, 260);
  assert_step (t.lib, t.original, appended, 5);
  g_assert_cmpuint (mat_anim_block_get_period (t.block), ==, 200);

  /* before key 0 */
  g_assert_nonnull (mat_anim_block_insert_key_at_time (t.block, 20, 1, &error));
  assert_step (t.lib, t.original, first, 5);

  /* removing a key: the others keep their times */
  g_assert_true (mat_anim_block_remove_key (t.block, 1, &error));
  g_assert_cmpuint (mat_anim_block_get_period (t.block), ==, 200);
  assert_step (t.lib, t.original, removed, 3);
  g_assert_true (mat_anim_block_remove_key (t.block, 3, &error));
  g_assert_cmpuint (mat_anim_block_get_period (t.block), ==, 150);
  assert_step (t.lib, t.original, removed_last, 3);
  g_assert_no_error (error);
  track_close (&t);
}

/* A drag: many moves inside a group, one step holding the start. */
static void
test_retime_drag_is_one_step (void)
{
  static const guint16 carried[] = { 0, 50, 3,  1, 140, 7,  2, 190, 0,  1, 240, 9 };
  g_autoptr(GError) error = NULL;
  MatHistory *history;
  Track t;
  gint total = 0;

  track_open (&t);
  history = mat_library_get_history (t.lib);

  mat_history_begin_group (history, "Retime Keys");
  for (guint i = 0; i < 10; i++)
    {
      gint applied = 0;

      g_assert_true (mat_anim_block_move_key_time (t.block, 1, i % 3 == 2 ? -3 : 7, TRUE,
                                                   &applied, &error));
      total += applied;
    }
  mat_history_end_group (history);
  g_assert_cmpint (total, ==, 40);
  g_assert_no_error (error);
  assert_step (t.lib, t.original, carried, 4);
  track_close (&t);
}

static void
test_dirty (void)
{
  g_autoptr(GBytes) original = odd_library ();
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  MatHistory *history = mat_library_get_history (lib);
  MatMaterial *m = material_at (lib, 0);
  guint n_dirty = 0, n_can_undo = 0;

  g_signal_connect (lib, "notify::dirty", G_CALLBACK (count_cb), &n_dirty);
  g_signal_connect (history, "notify::can-undo", G_CALLBACK (count_cb), &n_can_undo);
  g_assert_false (mat_library_get_dirty (lib));

  g_assert_true (mat_material_set_attr1 (m, 0x43, &error));
  g_assert_true (mat_library_get_dirty (lib));
  g_assert_cmpuint (n_dirty, ==, 1);
  g_assert_cmpuint (n_can_undo, ==, 1);
  g_assert_true (mat_material_set_attr1 (m, 0x47, &error));
  g_assert_cmpuint (n_dirty, ==, 1);
  g_assert_cmpuint (n_can_undo, ==, 1);

  bytes = save_bytes (lib);   /* not a save: still dirty */
  g_assert_true (mat_library_get_dirty (lib));

  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_library_get_dirty (lib));
  g_assert_true (mat_history_undo (history));
  g_assert_false (mat_library_get_dirty (lib));
  g_assert_cmpuint (n_dirty, ==, 2);
  g_assert_cmpuint (n_can_undo, ==, 2);
  g_assert_true (mat_history_redo (history));
  g_assert_true (mat_library_get_dirty (lib));

  /* Undo, then a new edit: the old redo branch is gone. */
  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_material_set_attr3 (m, 5, &error));
  g_assert_false (mat_history_get_can_redo (history));
  g_assert_true (mat_library_get_dirty (lib));
  g_assert_true (mat_history_undo (history));
  g_assert_false (mat_library_get_dirty (lib));
}

static void
test_notify_real_changes_only (void)
{
  g_autoptr(GBytes) original = odd_library ();
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(GError) error = NULL;
  MatHistory *history = mat_library_get_history (lib);
  MatMaterial *m = material_at (lib, 3);
  MatPhase *phase = model_at (mat_material_get_phases (m), 1);
  MatAnimBlock *block = model_at (mat_material_get_blocks (m), 0);
  guint n_p3 = 0, n_p4 = 0, n_texture = 0, n_textured = 0, n_mode = 0, n_interp = 0;
  guint n_attr1 = 0, n_name = 0, n_phases = 0, n_meta_c = 0, n_param_changed = 0;
  guint8 p3 = mat_phase_get_param (phase, 3);

  g_signal_connect (phase, "notify::p3", G_CALLBACK (count_cb), &n_p3);
  g_signal_connect (phase, "notify::p4", G_CALLBACK (count_cb), &n_p4);
  g_signal_connect (phase, "notify::texture", G_CALLBACK (count_cb), &n_texture);
  g_signal_connect (phase, "notify::textured", G_CALLBACK (count_cb), &n_textured);
  g_signal_connect (phase, "param-changed", G_CALLBACK (param_changed_cb), &n_param_changed);
  g_signal_connect (block, "notify::mode", G_CALLBACK (count_cb), &n_mode);
  g_signal_connect (block, "notify::interp-mask", G_CALLBACK (count_cb), &n_interp);
  g_signal_connect (m, "notify::attr1", G_CALLBACK (count_cb), &n_attr1);
  g_signal_connect (m, "notify::name", G_CALLBACK (count_cb), &n_name);
  g_signal_connect (m, "notify::n-phases", G_CALLBACK (count_cb), &n_phases);
  g_signal_connect (m, "notify::meta-c", G_CALLBACK (count_cb), &n_meta_c);

  /* Same values: nothing. */
  g_assert_true (mat_phase_set_param (phase, 3, p3, &error));
  g_assert_true (mat_phase_set_texture (phase, mat_phase_get_texture (phase), &error));
  g_assert_true (mat_material_set_attr1 (m, mat_material_get_attr1 (m), &error));
  g_assert_true (mat_material_set_name (m, mat_material_get_name (m), &error));
  g_assert_true (mat_anim_block_set_mode (block, mat_anim_block_get_mode (block), &error));
  g_assert_false (mat_history_get_can_undo (history));
  g_assert_cmpuint (n_p3 + n_texture + n_attr1 + n_name + n_mode + n_param_changed, ==, 0);

  /* Real changes: exactly the properties that changed. */
  g_assert_true (mat_phase_set_param (phase, 3, p3 + 1, &error));
  g_assert_cmpuint (n_p3, ==, 1);
  g_assert_cmpuint (n_p4, ==, 0);
  g_assert_cmpuint (n_param_changed, ==, 1);
  g_assert_true (mat_phase_set_texture (phase, "LAVA.0", &error));
  g_assert_cmpuint (n_texture, ==, 1);
  g_assert_cmpuint (n_textured, ==, mat_phase_get_textured (phase) ? 1 : 0);
  g_assert_true (mat_anim_block_set_mode (block, (mat_anim_block_get_mode (block) + 1) % 8, &error));
  g_assert_cmpuint (n_mode, ==, 1);
  g_assert_cmpuint (n_interp, ==, 0);
  g_assert_true (mat_material_set_name (m, "PULSE2", &error));
  g_assert_cmpuint (n_name, ==, 1);
  g_assert_nonnull (mat_material_insert_phase (m, 0, &error));
  g_assert_cmpuint (n_phases, ==, 1);
  g_assert_cmpuint (mat_phase_get_index (phase), ==, 2);

  /* A group returning to the start value notifies on undo only if the
   * value differs. */
  mat_history_begin_group (history, NULL);
  g_assert_true (mat_phase_set_param (phase, 4, mat_phase_get_param (phase, 4) ^ 1, &error));
  g_assert_true (mat_phase_set_param (phase, 4, mat_phase_get_param (phase, 4) ^ 1, &error));
  mat_history_end_group (history);
  g_assert_cmpuint (n_p4, ==, 2);
  g_assert_true (mat_history_undo (history));
  g_assert_cmpuint (n_p4, ==, 2);

  /* attr2 6 -> 2: metaC leaves for its default; undo brings it back. */
  {
    MatMaterial *d = material_at (lib, 0);
    guint n_c = 0;

    g_signal_connect (d, "notify::meta-c", G_CALLBACK (count_cb), &n_c);
    g_assert_true (mat_material_set_meta_c (d, 0x40000000u, &error));
    g_assert_cmpuint (n_c, ==, 1);
    g_assert_true (mat_material_set_attr2 (d, 2, &error));
    g_assert_cmpuint (mat_material_get_meta_c (d), ==, MAT0_DEFAULT_META_C);
    g_assert_false (mat_material_has_meta_c (d));
    g_assert_cmpuint (n_c, ==, 2);
    g_assert_false (mat_material_set_meta_c (d, 1, &error));
    g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_META_ABSENT);
    g_clear_error (&error);
    g_assert_true (mat_history_undo (history));
    g_assert_cmpuint (mat_material_get_meta_c (d), ==, 0x40000000u);
    g_assert_cmpuint (mat_material_get_attr2 (d), ==, 6);
    g_assert_cmpuint (n_c, ==, 3);
  }
  g_assert_no_error (error);
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  GArray *log = user_data;
  guint entry[3] = { position, removed, added };

  g_array_append_vals (log, entry, 3);
}

static void
test_items_changed (void)
{
  g_autoptr(GBytes) original = odd_library ();
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) log = g_array_new (FALSE, FALSE, sizeof (guint));
  MatHistory *history = mat_library_get_history (lib);
  MatMaterial *added, *copy, *pulse = material_at (lib, 3);

  g_signal_connect (lib, "items-changed", G_CALLBACK (items_changed_cb), log);

  added = mat_library_add_material (lib, "NEW_ONE", &error);
  g_assert_no_error (error);
  g_assert_true (material_at (lib, 4) == added);
  g_assert_true (mat_material_get_library (added) == lib);
  g_assert_cmpuint (log->len, ==, 3);
  g_assert_cmpuint (g_array_index (log, guint, 0), ==, 4);
  g_assert_cmpuint (g_array_index (log, guint, 1), ==, 0);
  g_assert_cmpuint (g_array_index (log, guint, 2), ==, 1);

  copy = mat_library_duplicate_material (lib, pulse, "PULSE_COPY", &error);
  g_assert_no_error (error);
  g_assert_true (material_at (lib, 4) == copy);
  g_assert_cmpuint (mat_material_get_n_blocks (copy), ==, mat_material_get_n_blocks (pulse));
  g_assert_cmpuint (g_array_index (log, guint, 3), ==, 4);

  g_assert_true (mat_library_delete_material (lib, pulse, &error));
  g_assert_null (mat_material_get_library (pulse));
  g_assert_cmpuint (g_array_index (log, guint, 6), ==, 3);
  g_assert_cmpuint (g_array_index (log, guint, 7), ==, 1);
  g_assert_cmpuint (g_array_index (log, guint, 8), ==, 0);
  /* A deleted material refuses edits. */
  g_assert_false (mat_material_set_attr1 (pulse, 3, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  g_clear_error (&error);

  g_assert_true (mat_history_undo (history));
  g_assert_true (material_at (lib, 3) == pulse);
  g_assert_true (mat_material_get_library (pulse) == lib);
  g_assert_cmpuint (g_array_index (log, guint, 9), ==, 3);
  g_assert_cmpuint (g_array_index (log, guint, 10), ==, 0);
  g_assert_cmpuint (g_array_index (log, guint, 11), ==, 1);
  g_assert_cmpuint (log->len, ==, 12);
}

static void
test_diagnostics (void)
{
  g_autoptr(GBytes) original = odd_library ();
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(GError) error = NULL;
  MatMaterial *m = material_at (lib, 3);
  MatPhase *phase = model_at (mat_material_get_phases (m), 0);
  GPtrArray *diags;
  guint n_before, n_no_dot = 0;

  diags = mat_library_get_diagnostics (lib);
  g_assert_true (diags == mat_library_get_diagnostics (lib));   /* cached */
  n_before = diags->len;
  g_assert_cmpuint (n_before, >=, 1);   /* BROKEN does not decode */

  g_assert_true (mat_phase_set_texture (phase, "NODOT", &error));
  diags = mat_library_get_diagnostics (lib);
  for (guint i = 0; i < diags->len; i++)
    {
      Mat0Diagnostic *d = g_ptr_array_index (diags, i);

      if (d->check == MAT0_LINT_TEXTURE_NO_DOT && d->entry == 3)
        n_no_dot++;
    }
  g_assert_cmpuint (n_no_dot, ==, 1);
  {
    g_autoptr(GPtrArray) own = mat_material_dup_diagnostics (m);
    g_assert_cmpuint (own->len, >=, 1);
  }

  g_assert_true (mat_history_undo (mat_library_get_history (lib)));
  g_assert_cmpuint (mat_library_get_diagnostics (lib)->len, ==, n_before);
}

static void
assert_matches (MatSearchModel *search,
                const char     *names)
{
  g_auto(GStrv) expected = g_strsplit (names, ",", -1);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (search));

  g_assert_cmpuint (n, ==, names[0] != '\0' ? g_strv_length (expected) : 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(MatMaterial) m = g_list_model_get_item (G_LIST_MODEL (search), i);

      g_assert_cmpstr (mat_material_get_name (m), ==, expected[i]);
    }
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (search), n));
}

static void
assert_changes (GArray      *log,
                const guint *expected,
                guint        n_expected)
{
  g_assert_cmpuint (log->len, ==, n_expected);
  for (guint i = 0; i < n_expected; i++)
    g_assert_cmpuint (g_array_index (log, guint, i), ==, expected[i]);
  g_array_set_size (log, 0);
}

static void
test_search_model (void)
{
  g_autoptr(GBytes) original = odd_library ();
  g_autoptr(MatLibrary) lib = library_from (original);
  g_autoptr(MatSearchModel) search = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) log = g_array_new (FALSE, FALSE, sizeof (guint));
  MatHistory *history = mat_library_get_history (lib);

  g_assert_nonnull (mat_library_add_material (lib, "Броня_ЗЕЛЁНАЯ", &error));
  g_assert_nonnull (mat_library_add_material (lib, "rock_wall", &error));
  g_assert_nonnull (mat_library_add_material (lib, "FLOOR", &error));
  g_assert_no_error (error);

  search = mat_search_model_new (lib);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (search)) == MAT_TYPE_MATERIAL);
  g_signal_connect (search, "items-changed", G_CALLBACK (items_changed_cb), log);
  assert_matches (search, "DEFAULT,BROKEN,ROCK.0,PULSE,Броня_ЗЕЛЁНАЯ,rock_wall,FLOOR");
  g_assert_null (mat_search_model_get_text (search));

  /* ASCII: any case, and the Cyrillic "о" is not an "o"; one change
   * between the unchanged ends */
  mat_search_model_set_text (search, "O");
  g_assert_cmpstr (mat_search_model_get_text (search), ==, "o");
  assert_matches (search, "BROKEN,ROCK.0,rock_wall,FLOOR");
  assert_changes (log, (const guint[]) { 0, 5, 2 }, 3);

  /* stricter */
  mat_search_model_set_text (search, "rO");
  assert_matches (search, "BROKEN,ROCK.0,rock_wall");
  assert_changes (log, (const guint[]) { 3, 1, 0 }, 3);
  mat_search_model_set_text (search, "Ro");
  assert_changes (log, NULL, 0);
  mat_search_model_set_text (search, "k.0");
  assert_matches (search, "ROCK.0");

  /* not ASCII: case-folded UTF-8 */
  mat_search_model_set_text (search, "зелёная");
  assert_matches (search, "Броня_ЗЕЛЁНАЯ");
  g_assert_true (mat_search_model_matches (search, material_at (lib, 4)));
  g_assert_false (mat_search_model_matches (search, material_at (lib, 5)));
  mat_search_model_set_text (search, "NOTHING");
  assert_matches (search, "");
  mat_search_model_set_text (search, "");
  assert_matches (search, "DEFAULT,BROKEN,ROCK.0,PULSE,Броня_ЗЕЛЁНАЯ,rock_wall,FLOOR");
  g_array_set_size (log, 0);

  /* the library changes under it: only what the search shows is said */
  mat_search_model_set_text (search, "rock");
  assert_matches (search, "ROCK.0,rock_wall");
  g_array_set_size (log, 0);
  g_assert_true (mat_library_delete_material (lib, material_at (lib, 3), &error));   /* PULSE */
  g_assert_no_error (error);
  assert_matches (search, "ROCK.0,rock_wall");
  assert_changes (log, NULL, 0);
  g_assert_true (mat_library_delete_material (lib, material_at (lib, 4), &error));   /* rock_wall */
  assert_matches (search, "ROCK.0");
  assert_changes (log, (const guint[]) { 1, 1, 0 }, 3);
  g_assert_true (mat_history_undo (history));
  g_assert_true (mat_history_undo (history));
  assert_matches (search, "ROCK.0,rock_wall");
  assert_changes (log, (const guint[]) { 1, 0, 1 }, 3);
  g_assert_nonnull (mat_library_add_material (lib, "ROCKY", &error));
  assert_matches (search, "ROCK.0,rock_wall,ROCKY");
  assert_changes (log, (const guint[]) { 2, 0, 1 }, 3);

  /* a rename is seen on refilter */
  g_assert_true (mat_material_set_name (material_at (lib, 3), "PUMICE_ROCK", &error));
  g_assert_no_error (error);
  assert_changes (log, NULL, 0);
  mat_search_model_refilter (search);
  assert_matches (search, "ROCK.0,PUMICE_ROCK,rock_wall,ROCKY");
  assert_changes (log, (const guint[]) { 1, 0, 1 }, 3);

  /* another library: everything changes */
  mat_search_model_set_library (search, NULL);
  assert_matches (search, "");
  assert_changes (log, (const guint[]) { 0, 4, 0 }, 3);
}

/* What dup_core() and dup_diagnostics() keep between calls follows every
 * kind of edit, and its undo: each result is what the objects hold. */
static void
test_caches_follow_edits (void)
{
  g_autoptr(GBytes) bytes = env_file ("DEMO_LIB");
  g_autoptr(MatLibrary) lib = NULL;
  g_autoptr(Mat0Material) before = NULL;
  g_autoptr(Mat0Material) now = NULL;
  g_autoptr(GPtrArray) lints = NULL;
  MatHistory *history;
  MatMaterial *m;
  MatAnimBlock *block;
  guint n_lints;

  if (bytes == NULL)
    return;
  lib = library_from (bytes);
  history = mat_library_get_history (lib);
  m = mat_library_find (lib, "MULTI_BLOCK");
  g_assert_nonnull (m);
  before = mat_material_dup_core (m);
  g_assert_cmpuint (before->n_blocks, ==, 3);
  block = model_at (mat_material_get_blocks (m), 0);

  /* a copy: what the caller does with it stays its own */
  before->blocks[0].keys[0].k2 ^= 1;
  now = mat_material_dup_core (m);
  g_assert_cmpuint (now->blocks[0].keys[0].k2, !=, before->blocks[0].keys[0].k2);
  before->blocks[0].keys[0].k2 ^= 1;
  g_clear_pointer (&now, mat0_material_free);

#define CORE_NOW() G_STMT_START { g_clear_pointer (&now, mat0_material_free); now = mat_material_dup_core (m); } G_STMT_END
  g_assert_true (mat_key_set_k2 (model_at (mat_anim_block_get_keys (block), 0), 4321, NULL));
  CORE_NOW ();
  g_assert_cmpuint (now->blocks[0].keys[0].k2, ==, 4321);
  g_assert_true (mat_anim_block_set_key_time (block, 0, 7, NULL));
  CORE_NOW ();
  g_assert_cmpuint (now->blocks[0].keys[0].k1, ==, 7);
  g_assert_nonnull (mat_anim_block_insert_key (block, 1, 0, 9, NULL));
  CORE_NOW ();
  g_assert_cmpuint (now->blocks[0].n_keys, ==, before->blocks[0].n_keys + 1);
  g_assert_cmpuint (now->blocks[0].keys[1].k1, ==, 9);
  g_assert_true (mat_anim_block_set_header_raw (block, 0x13, NULL));
  CORE_NOW ();
  g_assert_cmpuint (now->blocks[0].header_raw, ==, 0x13);
  g_assert_true (mat_phase_set_param (model_at (mat_material_get_phases (m), 0), 5, 77, NULL));
  CORE_NOW ();
  g_assert_cmpuint (now->phases[0].p[5], ==, 77);
  g_assert_nonnull (mat_material_insert_phase (m, 0, NULL));
  CORE_NOW ();
  g_assert_cmpuint (now->n_phases, ==, before->n_phases + 1);
  g_assert_true (mat_material_remove_block (m, 2, NULL));
  CORE_NOW ();
  g_assert_cmpuint (now->n_blocks, ==, 2);
  if (mat_material_has_meta_c (m))
    {
      g_assert_true (mat_material_set_meta_c (m, 0x40000000, NULL));
      CORE_NOW ();
      g_assert_cmpuint (now->meta_c, ==, 0x40000000);
    }
  g_assert_true (mat_material_set_attr2 (m, 2, NULL));
  CORE_NOW ();
  g_assert_cmpuint (now->attr2, ==, 2);

  while (mat_history_undo (history))
    ;
  CORE_NOW ();
  g_assert_true (mat0_material_equal (now, before));
  while (mat_history_redo (history))
    ;
  CORE_NOW ();
  g_assert_cmpuint (now->attr2, ==, 2);
  g_assert_cmpuint (now->n_blocks, ==, 2);
#undef CORE_NOW

  /* the lints: a new one after an edit, the new name after a rename */
  while (mat_history_undo (history))
    ;
  lints = mat_material_dup_diagnostics (m);
  n_lints = lints->len;
  g_clear_pointer (&lints, g_ptr_array_unref);
  /* key 1 at the time of key 0: an empty interval */
  g_assert_true (mat_anim_block_set_key_time (block, 1, mat_key_get_k1 (model_at (mat_anim_block_get_keys (block), 0)),
                                              NULL));
  lints = mat_material_dup_diagnostics (m);
  g_assert_cmpuint (lints->len, ==, n_lints + 1);
  g_clear_pointer (&lints, g_ptr_array_unref);
  g_assert_true (mat_material_set_name (m, "RENAMED", NULL));
  lints = mat_material_dup_diagnostics (m);
  g_assert_cmpuint (lints->len, ==, n_lints + 1);
  for (guint i = 0; i < lints->len; i++)
    {
      Mat0Diagnostic *diag = lints->pdata[i];

      g_assert_cmpstr (diag->entry_name, ==, "RENAMED");
      g_assert_true (g_str_has_prefix (diag->message, "RENAMED: offset "));
      g_assert_cmpint (diag->entry, ==, (gint) mat_library_index_of (lib, m));
    }
  g_clear_pointer (&lints, g_ptr_array_unref);
  mat_history_undo (history);
  mat_history_undo (history);
  lints = mat_material_dup_diagnostics (m);
  g_assert_cmpuint (lints->len, ==, n_lints);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/load/demo", test_load_demo);
  g_test_add_func ("/model/load/retail", test_load_retail);
  g_test_add_func ("/model/load/stress-lazy", test_load_stress_lazy);
  g_test_add_func ("/model/load/refuses-garbage", test_load_refuses_garbage);
  g_test_add_func ("/model/history/random-undo-redo/retail", test_random_undo_redo_retail);
  g_test_add_func ("/model/history/random-undo-redo/demo", test_random_undo_redo_demo);
  g_test_add_func ("/model/history/group-is-one-step", test_group_is_one_step);
  g_test_add_func ("/model/history/dirty", test_dirty);
  g_test_add_func ("/model/save/same-size-edit", test_save_same_size_edit);
  g_test_add_func ("/model/save/async-reload", test_save_async_reload);
  g_test_add_func ("/model/save/etag-conflict", test_save_etag_conflict);
  g_test_add_func ("/model/save/no-file", test_save_no_file);
  g_test_add_func ("/model/library/broken-entry", test_broken_entry);
  g_test_add_func ("/model/library/items-changed", test_items_changed);
  g_test_add_func ("/model/library/diagnostics", test_diagnostics);
  g_test_add_func ("/model/library/search", test_search_model);
  g_test_add_func ("/model/material/rename", test_rename);
  g_test_add_func ("/model/material/caches-follow-edits", test_caches_follow_edits);
  g_test_add_func ("/model/material/phase-keys-follow", test_phase_keys_follow);
  g_test_add_func ("/model/material/limits", test_phase_last_and_blocks_limit);
  g_test_add_func ("/model/notify/real-changes-only", test_notify_real_changes_only);
  g_test_add_func ("/model/retime/set-time", test_retime_set_time);
  g_test_add_func ("/model/retime/move", test_retime_move);
  g_test_add_func ("/model/retime/clamp", test_retime_clamp);
  g_test_add_func ("/model/retime/insert-remove", test_retime_insert_remove);
  g_test_add_func ("/model/retime/drag-is-one-step", test_retime_drag_is_one_step);

  return g_test_run ();
}
