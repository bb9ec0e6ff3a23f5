/* test-query.c - the search's query language (mat-query.h) and the
 * search model that filters by it
 *
 * A library built byte by byte here (not by the writers under test) holds
 * materials that differ in one thing each; every query is checked against
 * the exact list of names it matches, and every word that cannot be read
 * against its exact message. */
#include "config.h"

#include <string.h>

#include "mat-library.h"
#include "mat-query.h"
#include "mat-search-model.h"
#include "mat-model-error.h"
#include "nres.h"
#include "test-support.h"

/* ---- the library -------------------------------------------------------- */

typedef struct {
  guint8      p3;
  const char *texture;
} PhaseSpec;

typedef struct {
  guint32 header;
  guint   n_keys;
  guint16 times[6];
} BlockSpec;

/* A MAT0 payload of version 6 (metadata 255, 255, 1.0f, 0). */
static GBytes *
payload (const PhaseSpec *phases,
         guint            n_phases,
         const BlockSpec *blocks,
         guint            n_blocks)
{
  GByteArray *out = g_byte_array_new ();

  test_put_u16 (out, (guint16) n_phases);
  test_put_u16 (out, (guint16) n_blocks);
  test_put_u8 (out, 255);
  test_put_u8 (out, 255);
  test_put_u32 (out, 0x3F800000u);
  test_put_u32 (out, 0);
  for (guint i = 0; i < n_phases; i++)
    {
      guint8 p[18] = { 0, };

      p[3] = phases[i].p3;
      p[4] = p[5] = p[6] = p[7] = 255;
      test_put_phase (out, p, phases[i].texture);
    }
  for (guint b = 0; b < n_blocks; b++)
    {
      test_put_u32 (out, blocks[b].header);
      test_put_u16 (out, (guint16) blocks[b].n_keys);
      for (guint k = 0; k < blocks[b].n_keys; k++)
        {
          test_put_u16 (out, (guint16) (k % n_phases));
          test_put_u16 (out, blocks[b].times[k]);
          test_put_u16 (out, 0);
        }
    }
  return g_byte_array_free_to_bytes (out);
}

static GPtrArray *payloads;

static const guint8 *
keep (GBytes *bytes, gsize *size)
{
  g_ptr_array_add (payloads, bytes);
  return g_bytes_get_data (bytes, size);
}

/* ROCK     opaque, ROCK.0 at 100 %, no block
 * GLOW     additive, GLOW.0 at 50 % and glow.1 at 100 %; a ping-pong block
 *          (interp 0x10) of 5 keys, period 500
 * FADE     see-through with bit 6, untextured at 0 %, 60 %; a once block
 *          (interp 0x01) whose second key ends where the first does (an
 *          empty interval), period 100; a loop block of 1 key, 40 ms
 * ЖЕЛЕЗО   attr1 0x1C (blend 7, unknown), ROCK.0 at 150 % (over 100)
 * ROCK.0   a Texm entry, not a material
 * BROKEN   a MAT0 entry cut short: it does not decode
 * MY ROCK  a name with a space, texture "MY ROCK.1" */
static GBytes *
library_bytes (void)
{
  static const PhaseSpec rock[] = { { 100, "ROCK.0" } };
  static const PhaseSpec glow[] = { { 50, "GLOW.0" }, { 100, "glow.1" } };
  static const BlockSpec glow_blocks[] = { { 1 | (0x10 << 3), 5, { 100, 200, 300, 400, 500 } } };
  static const PhaseSpec fade[] = { { 0, "" }, { 60, "" } };
  static const BlockSpec fade_blocks[] = {
    { 2 | (0x01 << 3), 2, { 100, 100 } },
    { 0, 1, { 40 } },
  };
  static const PhaseSpec iron[] = { { 150, "ROCK.0" } };
  static const PhaseSpec my_rock[] = { { 100, "MY ROCK.1" } };
  static const guint8 broken[] = { 1, 0, 0 };
  static const guint8 texm[] = { 'T', 'e', 'x', 'm', 0, 0, 0, 0 };
  guint8 iron_raw[NRES_NAME_SIZE] = { 0xC6, 0xC5, 0xCB, 0xC5, 0xC7, 0xCE, 0 };   /* in CP1251 */
  TestEntrySpec specs[7] = { 0, };
  gsize size;

  payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  specs[0] = (TestEntrySpec) { NRES_TYPE_MAT0, 0x00, 6, 0, "ROCK", NULL, 0, 0 };
  specs[0].payload = keep (payload (rock, 1, NULL, 0), &size);
  specs[0].size = size;
  specs[1] = (TestEntrySpec) { NRES_TYPE_MAT0, 2 << 2, 6, 0, "GLOW", NULL, 0, 0 };
  specs[1].payload = keep (payload (glow, 2, glow_blocks, 1), &size);
  specs[1].size = size;
  specs[2] = (TestEntrySpec) { NRES_TYPE_MAT0, (1 << 2) | 0x40, 6, 0, "FADE", NULL, 0, 0 };
  specs[2].payload = keep (payload (fade, 2, fade_blocks, 2), &size);
  specs[2].size = size;
  specs[3] = (TestEntrySpec) { NRES_TYPE_MAT0, 7 << 2, 6, 0, (const char *) iron_raw, NULL, 0, 0 };
  specs[3].payload = keep (payload (iron, 1, NULL, 0), &size);
  specs[3].size = size;
  specs[4] = (TestEntrySpec) { NRES_TYPE_TEXM, 0, 0, 0, "ROCK.0", texm, sizeof texm, 0 };
  specs[5] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "BROKEN", broken, sizeof broken, 0 };
  specs[6] = (TestEntrySpec) { NRES_TYPE_MAT0, 0, 6, 0, "MY ROCK", NULL, 0, 0 };
  specs[6].payload = keep (payload (my_rock, 1, NULL, 0), &size);
  specs[6].size = size;

  return test_build_archive (specs, G_N_ELEMENTS (specs), TRUE);
}

static MatLibrary *
library_new (void)
{
  g_autoptr(GBytes) bytes = library_bytes ();
  g_autoptr(GError) error = NULL;
  MatLibrary *lib = mat_library_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  g_clear_pointer (&payloads, g_ptr_array_unref);
  return lib;
}

/* The names @text matches, in library order, joined by ",". */
static char *
matches (MatLibrary *lib,
         const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MatQuery) query = mat_query_new (text, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (lib)); i++)
    {
      MatMaterial *material = mat_library_get_material (lib, i);

      if (mat_query_matches (query, material))
        {
          if (out->len > 0)
            g_string_append_c (out, ',');
          g_string_append (out, mat_material_get_name (material));
        }
    }
  return g_string_free (out, FALSE);
}

#define assert_matches(lib, text, expected) \
  G_STMT_START { \
    g_autofree char *got_ = matches ((lib), (text)); \
    g_assert_cmpstr (got_, ==, (expected)); \
  } G_STMT_END

/* ---- matching ----------------------------------------------------------- */

static void
test_names (void)
{
  g_autoptr(MatLibrary) lib = library_new ();

  /* plain words: names, case ignored, every word */
  assert_matches (lib, "", "ROCK,GLOW,FADE,ЖЕЛЕЗО,ROCK.0,BROKEN,MY ROCK");
  assert_matches (lib, "rock", "ROCK,ROCK.0,MY ROCK");
  assert_matches (lib, "ro ck", "ROCK,ROCK.0,MY ROCK");
  assert_matches (lib, "my rock", "MY ROCK");
  assert_matches (lib, "\"my rock\"", "MY ROCK");
  assert_matches (lib, "\"y r\"", "MY ROCK");
  assert_matches (lib, "желез", "ЖЕЛЕЗО");
  assert_matches (lib, "name:o", "ROCK,GLOW,ROCK.0,BROKEN,MY ROCK");
  assert_matches (lib, "-rock", "GLOW,FADE,ЖЕЛЕЗО,BROKEN");
  /* a colon with no key before it: a plain word */
  assert_matches (lib, "rock:0", "");
  assert_matches (lib, "nokey:x", "");
  /* "" as it is being typed */
  assert_matches (lib, "\"\"", "ROCK,GLOW,FADE,ЖЕЛЕЗО,ROCK.0,BROKEN,MY ROCK");
}

static void
test_content (void)
{
  g_autoptr(MatLibrary) lib = library_new ();

  assert_matches (lib, "texture:ROCK.0", "ROCK,ЖЕЛЕЗО");
  assert_matches (lib, "texture:rock.0", "ROCK,ЖЕЛЕЗО");
  assert_matches (lib, "texture:glow.0", "GLOW");
  assert_matches (lib, "texture:GLOW*", "GLOW");
  assert_matches (lib, "texture:*.1", "GLOW,MY ROCK");
  assert_matches (lib, "texture:\"MY ROCK.1\"", "MY ROCK");
  assert_matches (lib, "texture:*", "ROCK,GLOW,ЖЕЛЕЗО,MY ROCK");
  assert_matches (lib, "texture:none", "FADE");
  assert_matches (lib, "-texture:*", "FADE,ROCK.0,BROKEN");
  assert_matches (lib, "texture:ROCK", "");

  assert_matches (lib, "blend:opaque", "ROCK,BROKEN,MY ROCK");
  assert_matches (lib, "blend:additive", "GLOW");
  assert_matches (lib, "blend:see-through", "FADE");
  assert_matches (lib, "blend:unknown", "ЖЕЛЕЗО");
  assert_matches (lib, "blend:7", "ЖЕЛЕЗО");
  assert_matches (lib, "blend:2", "GLOW");
  assert_matches (lib, "bit:6", "FADE");
  assert_matches (lib, "-bit:6 -rock", "GLOW,ЖЕЛЕЗО,BROKEN");
  assert_matches (lib, "attr1:0x44", "FADE");
  assert_matches (lib, "attr1:>0x10", "FADE,ЖЕЛЕЗО");
  assert_matches (lib, "version:6", "ROCK,GLOW,FADE,ЖЕЛЕЗО,BROKEN,MY ROCK");

  assert_matches (lib, "opacity:<100", "GLOW,FADE");
  assert_matches (lib, "opacity:<100%", "GLOW,FADE");
  assert_matches (lib, "opacity:0", "FADE");
  assert_matches (lib, "opacity:>100", "ЖЕЛЕЗО");
  assert_matches (lib, "opacity:50..60", "GLOW,FADE");
  assert_matches (lib, "opacity:<=50", "GLOW,FADE");
  assert_matches (lib, "opacity:>=100", "ROCK,GLOW,ЖЕЛЕЗО,MY ROCK");
  assert_matches (lib, "opacity:<0", "");

  assert_matches (lib, "mode:ping-pong", "GLOW");
  assert_matches (lib, "mode:once", "FADE");
  assert_matches (lib, "mode:loop", "FADE");
  assert_matches (lib, "mode:1", "GLOW");
  assert_matches (lib, "mode:random", "");
  assert_matches (lib, "interp:opacity", "GLOW");
  assert_matches (lib, "interp:self-light", "FADE");
  assert_matches (lib, "interp:none", "FADE");
  assert_matches (lib, "interp:>0", "GLOW,FADE");
  assert_matches (lib, "interp:0x10", "GLOW");

  assert_matches (lib, "phases:2", "GLOW,FADE");
  assert_matches (lib, "phases:>1", "GLOW,FADE");
  assert_matches (lib, "blocks:0", "ROCK,ЖЕЛЕЗО,MY ROCK");
  assert_matches (lib, "keys:>4", "GLOW");
  assert_matches (lib, "keys:3", "FADE");
  assert_matches (lib, "keys:0", "ROCK,ЖЕЛЕЗО,MY ROCK");
  assert_matches (lib, "period:500", "GLOW");
  assert_matches (lib, "period:<100", "FADE");

  assert_matches (lib, "lint:key-time-order", "FADE");
  assert_matches (lib, "lint:empty-interval", "FADE");
  assert_matches (lib, "lint:ambient-alpha", "ЖЕЛЕЗО");
  assert_matches (lib, "lint:decode-error", "BROKEN");
  assert_matches (lib, "lint:any", "FADE,ЖЕЛЕЗО,BROKEN");
  assert_matches (lib, "-lint:any", "ROCK,GLOW,ROCK.0,MY ROCK");

  /* the example of the README: every word at once */
  assert_matches (lib, "texture:GLOW.0 blend:additive opacity:<100 mode:ping-pong keys:>4", "GLOW");
  assert_matches (lib, "Blend:Additive TEXTURE:glow.1", "GLOW");
  /* words and keys together */
  assert_matches (lib, "ro texture:ROCK.0", "ROCK");
}

static void
test_content_follows_edits (void)
{
  g_autoptr(MatLibrary) lib = library_new ();
  g_autoptr(GError) error = NULL;
  MatMaterial *rock = mat_library_find (lib, "ROCK");
  g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (rock), 0);

  assert_matches (lib, "texture:STONE.0", "");
  g_assert_true (mat_phase_set_texture (phase, "STONE.0", &error));
  g_assert_no_error (error);
  assert_matches (lib, "texture:STONE.0", "ROCK");
  assert_matches (lib, "texture:ROCK.0", "ЖЕЛЕЗО");
  g_assert_true (mat_history_undo (mat_library_get_history (lib)));
  assert_matches (lib, "texture:STONE.0", "");
  assert_matches (lib, "texture:ROCK.0", "ROCK,ЖЕЛЕЗО");

  g_assert_true (mat_phase_set_param (phase, 3, 40, &error));
  assert_matches (lib, "opacity:<100", "ROCK,GLOW,FADE");
  g_assert_true (mat_material_set_attr1 (rock, 3 << 2, &error));
  assert_matches (lib, "blend:modulate", "ROCK");
}

/* A search reads a material's content without making its phase objects;
 * the objects made afterwards hold what it read. */
static void
test_content_then_objects (void)
{
  g_autoptr(MatLibrary) lib = library_new ();
  MatMaterial *glow = mat_library_find (lib, "GLOW");
  g_autoptr(GError) error = NULL;
  g_autoptr(MatQuery) query = mat_query_new ("texture:GLOW.0 keys:5", &error);
  g_autoptr(MatPhase) phase = NULL;
  g_autoptr(MatAnimBlock) block = NULL;

  g_assert_true (mat_query_matches (query, glow));
  g_assert_cmpuint (mat_material_get_n_phases (glow), ==, 2);
  phase = g_list_model_get_item (mat_material_get_phases (glow), 1);
  g_assert_cmpstr (mat_phase_get_texture (phase), ==, "glow.1");
  g_assert_cmpuint (mat_phase_get_param (phase, 3), ==, 100);
  block = g_list_model_get_item (mat_material_get_blocks (glow), 0);
  g_assert_cmpuint (mat_anim_block_get_n_keys (block), ==, 5);
  g_assert_cmpuint (mat_anim_block_get_period (block), ==, 500);
  g_assert_true (mat_query_matches (query, glow));
}

/* ---- reading ------------------------------------------------------------ */

static void
assert_error (const char *text,
              const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MatQuery) query = mat_query_new (text, &error);

  g_assert_null (query);
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_QUERY_INVALID);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_errors (void)
{
  assert_error ("opacity:<x",
                "“opacity:<x”: expected a number, a comparison such as <100 or >=4, or a range such as 50..100");
  assert_error ("rock keys:",
                "“keys:”: expected a number, a comparison such as <100 or >=4, or a range such as 50..100");
  assert_error ("keys:1..", 
                "“keys:1..”: expected a number, a comparison such as <100 or >=4, or a range such as 50..100");
  assert_error ("phases:-1",
                "“phases:-1”: expected a number, a comparison such as <100 or >=4, or a range such as 50..100");
  assert_error ("period:99999999999",
                "“period:99999999999”: expected a number, a comparison such as <100 or >=4, or a range such as 50..100");
  assert_error ("blend:glow",
                "“blend:glow”: expected a blend mode: opaque, see-through, additive, modulate, double-modulate, unknown, or an index 0..15");
  assert_error ("blend:16",
                "“blend:16”: expected a blend mode: opaque, see-through, additive, modulate, double-modulate, unknown, or an index 0..15");
  assert_error ("mode:bounce",
                "“mode:bounce”: expected a mode: loop, ping-pong, once, random, unknown, or 0..7");
  assert_error ("bit:32", "“bit:32”: expected a bit of attr1, 0..31");
  assert_error ("interp:red",
                "“interp:red”: expected an interpolation bit (self-light, diffuse, specular, emissive, opacity), none, or a mask such as 0x11 or >0");
  assert_error ("texture:", "“texture:”: expected a texture name, * for any texture, or none");
  assert_error ("texture:中.0",
                "“texture:中.0”: expected a texture name in characters that CP1251 has, as the game stores names");
  assert_error ("-lint:bogus",
                "“-lint:bogus”: expected a kind of lint: decode-error, texture-no-nul, texture-no-dot, "
                "palette-index, key-phase-range, block-no-keys, zero-period, key-time-order, "
                "ambient-alpha, empty-interval, any");
  assert_error ("name:", "“name:”: expected a part of a name");
  assert_error ("worn:", "“worn:”: expected a part of a model's name");
}

static void
test_reading (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MatQuery) empty = mat_query_new ("  \t ", &error);
  g_autoptr(MatQuery) words = mat_query_new ("ro ck", &error);
  g_autoptr(MatQuery) longer = mat_query_new ("xrox cka", &error);
  g_autoptr(MatQuery) other = mat_query_new ("rock", &error);
  g_autoptr(MatQuery) content = mat_query_new ("ro texture:*", &error);
  g_autoptr(MatQuery) negated = mat_query_new ("-ro", &error);
  g_autoptr(MatQuery) worn = mat_query_new ("worn:crate", &error);
  g_autofree char *plain = mat_query_quote ("ROCK.0");
  g_autofree char *spaced = mat_query_quote ("MY \"ROCK\".1");
  g_autofree char *nothing = mat_query_quote ("");

  g_assert_no_error (error);
  g_assert_true (mat_query_is_empty (empty));
  g_assert_true (mat_query_is_names_only (words));
  g_assert_false (mat_query_is_names_only (content));
  g_assert_false (mat_query_is_names_only (negated));
  /* every word of "ro ck" is inside a word of "xrox cka" */
  g_assert_true (mat_query_narrows (longer, words));
  g_assert_false (mat_query_narrows (words, longer));
  g_assert_true (mat_query_narrows (other, words));
  g_assert_false (mat_query_narrows (content, words));
  g_assert_false (mat_query_narrows (negated, words));
  g_assert_true (mat_query_needs_worn (worn));
  g_assert_false (mat_query_needs_worn (content));

  g_assert_cmpstr (plain, ==, "ROCK.0");
  g_assert_cmpstr (spaced, ==, "\"MY \\\"ROCK\\\".1\"");
  g_assert_cmpstr (nothing, ==, "\"\"");
  g_assert_cmpstr (mat_query_blend_id (1), ==, "see-through");
  g_assert_null (mat_query_blend_id (5));
  g_assert_cmpstr (mat_query_mode_id (1), ==, "ping-pong");
  g_assert_cmpstr (mat_query_interp_id (4), ==, "opacity");
}

/* A quoted value reads back as it was quoted. */
static void
test_quote_round_trip (void)
{
  g_autoptr(MatLibrary) lib = library_new ();
  g_autofree char *value = mat_query_quote ("MY ROCK.1");
  g_autofree char *text = g_strconcat ("texture:", value, NULL);

  assert_matches (lib, text, "MY ROCK");
}

/* ---- worn: -------------------------------------------------------------- */

static gboolean
worn_by_crate (MatMaterial *material,
               const char  *model,
               gpointer     user_data)
{
  guint *calls = user_data;

  (*calls)++;
  return strstr ("crate.msh", model) != NULL && g_str_equal (mat_material_get_name (material), "GLOW");
}

static void
test_worn (void)
{
  g_autoptr(MatLibrary) lib = library_new ();
  g_autoptr(MatSearchModel) search = mat_search_model_new (lib);
  guint calls = 0;

  /* no index yet: the word reads, and nothing matches */
  assert_matches (lib, "worn:crate", "");
  mat_search_model_set_text (search, "worn:CRATE");
  g_assert_null (mat_search_model_get_error (search));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (search)), ==, 0);

  /* the index arrives: the list follows at once */
  mat_search_model_set_worn_func (search, worn_by_crate, &calls, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (search)), ==, 1);
  g_assert_cmpuint (calls, ==, 6);   /* the MAT0 entries */
  mat_search_model_set_text (search, "worn:box");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (search)), ==, 0);
}

/* ---- the search model --------------------------------------------------- */

static char *
listed (MatSearchModel *search)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (search)); i++)
    {
      g_autoptr(MatMaterial) material = g_list_model_get_item (G_LIST_MODEL (search), i);

      if (out->len > 0)
        g_string_append_c (out, ',');
      g_string_append (out, mat_material_get_name (material));
    }
  return g_string_free (out, FALSE);
}

#define assert_listed(search, expected) \
  G_STMT_START { \
    g_autofree char *got_ = listed (search); \
    g_assert_cmpstr (got_, ==, (expected)); \
  } G_STMT_END

static void
count_changes (GListModel *model,
               guint       position,
               guint       removed,
               guint       added,
               guint      *changes)
{
  (*changes)++;
}

static void
test_search_model (void)
{
  g_autoptr(MatLibrary) lib = library_new ();
  g_autoptr(MatSearchModel) search = mat_search_model_new (lib);
  g_autoptr(GError) error = NULL;
  guint changes = 0;

  g_signal_connect (search, "items-changed", G_CALLBACK (count_changes), &changes);

  mat_search_model_set_text (search, "blend:additive");
  assert_listed (search, "GLOW");
  g_assert_cmpuint (changes, ==, 1);

  /* typed on: "opacity:" does not read, the list stays and says why */
  mat_search_model_set_text (search, "opacity:");
  assert_listed (search, "GLOW");
  g_assert_cmpuint (changes, ==, 1);
  g_assert_cmpstr (mat_search_model_get_error (search), ==,
                   "“opacity:”: expected a number, a comparison such as <100 or >=4, or a range such as 50..100");
  g_assert_cmpstr (mat_search_model_get_text (search), ==, "opacity:");
  mat_search_model_set_text (search, "opacity:<1");
  g_assert_null (mat_search_model_get_error (search));
  assert_listed (search, "FADE");
  mat_search_model_set_text (search, "opacity:<100");
  assert_listed (search, "GLOW,FADE");

  /* an edit, then a refilter: the content is read again */
  {
    MatMaterial *rock = mat_library_find (lib, "ROCK");
    g_autoptr(MatPhase) phase = g_list_model_get_item (mat_material_get_phases (rock), 0);

    g_assert_true (mat_phase_set_param (phase, 3, 10, &error));
    g_assert_no_error (error);
    mat_search_model_refilter (search);
    assert_listed (search, "ROCK,GLOW,FADE");
  }

  /* a word that does not read after one that did */
  mat_search_model_set_text (search, "texture:ROCK.0");
  assert_listed (search, "ROCK,ЖЕЛЕЗО");
  mat_search_model_set_text (search, "texture:ROCK.0 opacity:<");
  assert_listed (search, "ROCK,ЖЕЛЕЗО");
  g_assert_nonnull (mat_search_model_get_error (search));

  mat_search_model_set_text (search, "");
  g_assert_null (mat_search_model_get_query (search));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (search)), ==, 7);
  mat_search_model_set_text (search, "rock");
  assert_listed (search, "ROCK,ROCK.0,MY ROCK");
  mat_search_model_set_text (search, "rock .");
  assert_listed (search, "ROCK.0");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/query/names", test_names);
  g_test_add_func ("/model/query/content", test_content);
  g_test_add_func ("/model/query/content-follows-edits", test_content_follows_edits);
  g_test_add_func ("/model/query/content-then-objects", test_content_then_objects);
  g_test_add_func ("/model/query/errors", test_errors);
  g_test_add_func ("/model/query/reading", test_reading);
  g_test_add_func ("/model/query/quote-round-trip", test_quote_round_trip);
  g_test_add_func ("/model/query/worn", test_worn);
  g_test_add_func ("/model/query/search-model", test_search_model);

  return g_test_run ();
}
