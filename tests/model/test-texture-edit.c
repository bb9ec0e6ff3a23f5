/* test-texture-edit.c - an editable Textures.lib: import (add and
 * replace), Page rectangles, undo/redo back to the exact bytes, and the
 * preserving save
 *
 * Every expectation is checked against the archive read back with the
 * core's reader and against payloads the test builds itself with the
 * core's encoder: the entries an edit did not touch keep every byte, the
 * entry it touched holds exactly the payload expected, and undo gives the
 * loaded bytes back.
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "mat-model-error.h"
#include "mat-texture-library.h"
#include "nres.h"
#include "texm-convert.h"
#include "test-support.h"

/* ---- helpers ---------------------------------------------------------- */

static GBytes *
demo_bytes (void)
{
  return test_load_file (g_getenv ("DEMO_TEXTURES"));
}

static MatTextureLibrary *
library_from (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  MatTextureLibrary *library = mat_texture_library_new_from_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (library);
  return library;
}

static GBytes *
save_bytes (MatTextureLibrary *library)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = mat_texture_library_save_to_bytes (library, &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

static void
assert_bytes_equal (GBytes *a,
                    GBytes *b)
{
  g_assert_cmpmem (g_bytes_get_data (a, NULL), g_bytes_get_size (a),
                   g_bytes_get_data (b, NULL), g_bytes_get_size (b));
}

static NresArchive *
parse (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  NresArchive *archive = nres_archive_parse (bytes, &error);

  g_assert_no_error (error);
  return archive;
}

/* The index of the entry named @name (exactly, as stored), or -1. */
static gint
entry_named (const NresArchive *archive,
             const char        *name)
{
  for (guint i = 0; i < archive->n_entries; i++)
    if (strcmp (archive->entries[i].name, name) == 0)
      return (gint) i;
  return -1;
}

static GBytes *
payload_named (const NresArchive *archive,
               const char        *name)
{
  gint index = entry_named (archive, name);

  g_assert_cmpint (index, >=, 0);
  return nres_archive_payload_bytes (archive, (guint) index);
}

/* Every entry of @before except @changed (a name, or %NULL) is in
 * @after at the same index with the same payload bytes and the same
 * directory fields but data_offset and sort_index. */
static void
assert_untouched (const NresArchive *before,
                  const NresArchive *after,
                  const char        *changed)
{
  g_assert_cmpuint (after->n_entries, >=, before->n_entries);
  for (guint i = 0; i < before->n_entries; i++)
    {
      const NresEntry *a = &before->entries[i];
      const NresEntry *b = &after->entries[i];
      g_autoptr(GBytes) pa = NULL;
      g_autoptr(GBytes) pb = NULL;

      g_assert_cmpmem (a->name, NRES_NAME_SIZE, b->name, NRES_NAME_SIZE);
      g_assert_cmpuint (a->type_id, ==, b->type_id);
      g_assert_cmpuint (a->attr1, ==, b->attr1);
      g_assert_cmpuint (a->attr2, ==, b->attr2);
      g_assert_cmpuint (a->attr3, ==, b->attr3);
      if (changed != NULL && strcmp (a->name, changed) == 0)
        continue;
      pa = nres_archive_payload_bytes (before, i);
      pb = nres_archive_payload_bytes (after, i);
      assert_bytes_equal (pa, pb);
    }
}

/* A flat picture: every pixel @r @g @b @a. */
static guint8 *
flat_picture (guint  width,
              guint  height,
              guint8 r,
              guint8 g,
              guint8 b,
              guint8 a)
{
  guint8 *rgba = g_malloc ((gsize) width * height * 4);

  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      rgba[i * 4 + 0] = r;
      rgba[i * 4 + 1] = g;
      rgba[i * 4 + 2] = b;
      rgba[i * 4 + 3] = a;
    }
  return rgba;
}

/* A picture with a gradient, so every texel differs. */
static guint8 *
gradient_picture (guint width,
                  guint height,
                  guint alpha_step)
{
  guint8 *rgba = g_malloc ((gsize) width * height * 4);

  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        guint8 *p = rgba + ((gsize) y * width + x) * 4;

        p[0] = (guint8) (x * 255 / MAX (width - 1, 1));
        p[1] = (guint8) (y * 255 / MAX (height - 1, 1));
        p[2] = (guint8) ((x + y) * 7);
        p[3] = (guint8) (255 - (alpha_step * (x + y)) % 256);
      }
  return rgba;
}

typedef struct {
  guint added;
  guint removed;
  guint position;
  guint calls;
} ItemsLog;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  ItemsLog   *log)
{
  log->position = position;
  log->removed = removed;
  log->added = added;
  log->calls++;
}

static void
count_cb (gpointer  instance,
          guint    *count)
{
  (*count)++;
}

static void
notify_count_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
changed_cb (MatTextureLibrary *library,
            MatTexture        *texture,
            MatTexture       **last)
{
  *last = texture;
}

/* ---- tests ------------------------------------------------------------ */

/* An unchanged library saves to the bytes it was read from. */
static void
test_unchanged_identical (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatTextureLibrary) library = library_from (original);
  g_autoptr(GBytes) saved = save_bytes (library);
  g_autoptr(MatTextureLibrary) empty = mat_texture_library_new_empty ();
  g_autoptr(GBytes) empty_bytes = save_bytes (empty);
  static const guint8 empty_archive[16] = { 'N', 'R', 'e', 's', 0, 1, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0 };

  assert_bytes_equal (saved, original);
  g_assert_false (mat_texture_library_get_dirty (library));
  g_assert_false (mat_history_get_can_undo (mat_texture_library_get_history (library)));
  g_assert_cmpmem (g_bytes_get_data (empty_bytes, NULL), g_bytes_get_size (empty_bytes),
                   empty_archive, sizeof empty_archive);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (empty)), ==, 0);
}

/* A new name adds a Texm entry at the end holding exactly the encoder's
 * payload; undo gives the loaded bytes back, redo the edited ones. */
static void
test_add_undo_redo (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatTextureLibrary) library = library_from (original);
  g_autoptr(NresArchive) before = parse (original);
  g_autofree guint8 *rgba = gradient_picture (16, 8, 0);
  MatHistory *history = mat_texture_library_get_history (library);
  g_autoptr(GBytes) expected_payload = NULL;
  g_autoptr(GBytes) added = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(NresArchive) after = NULL;
  g_autoptr(GBytes) stored = NULL;
  g_autoptr(GError) error = NULL;
  TexmEncodeOptions options;
  TexmEncodeResult result;
  MatTexture *texture;
  MatTexture *last_changed = NULL;
  ItemsLog log = { 0 };
  guint n = g_list_model_get_n_items (G_LIST_MODEL (library));
  guint dirty_notes = 0;
  gint index;

  g_signal_connect (library, "items-changed", G_CALLBACK (items_changed_cb), &log);
  g_signal_connect (library, "changed", G_CALLBACK (changed_cb), &last_changed);
  g_signal_connect (library, "notify::dirty", G_CALLBACK (notify_count_cb), &dirty_notes);

  texm_encode_options_init (&options, 565);
  options.dither = TRUE;
  expected_payload = texm_encode (rgba, 16, 8, 0, &options, NULL, &error);
  g_assert_no_error (error);

  texture = mat_texture_library_import (library, "Плита.0", rgba, 16, 8, 0, &options, &result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (texture);
  g_assert_cmpuint (result.size, ==, g_bytes_get_size (expected_payload));
  g_assert_cmpuint (result.mip_count, ==, 5);
  g_assert_cmpstr (mat_texture_get_name (texture), ==, "Плита.0");
  g_assert_cmpuint (mat_texture_get_format (texture), ==, 565);
  g_assert_cmpuint (mat_texture_get_width (texture), ==, 16);
  g_assert_true (mat_texture_library_lookup (library, "Плита.0") == texture);
  /* the engine folds ASCII letters only */
  g_assert_null (mat_texture_library_lookup (library, "ПЛИТА.0"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, n + 1);
  g_assert_cmpuint (log.calls, ==, 1);
  g_assert_cmpuint (log.position, ==, n);
  g_assert_cmpuint (log.removed, ==, 0);
  g_assert_cmpuint (log.added, ==, 1);
  g_assert_true (last_changed == texture);
  g_assert_true (mat_texture_library_get_dirty (library));
  g_assert_cmpuint (dirty_notes, ==, 1);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Import Texture");

  added = save_bytes (library);
  after = parse (added);
  g_assert_cmpuint (after->n_entries, ==, before->n_entries + 1);
  assert_untouched (before, after, NULL);
  index = entry_named (after, "\xCF\xEB\xE8\xF2\xE0.0");   /* CP1251 */
  g_assert_cmpint (index, ==, (gint) before->n_entries);
  g_assert_cmpuint (after->entries[index].type_id, ==, NRES_TYPE_TEXM);
  g_assert_cmpuint (after->entries[index].attr1, ==, 0);
  g_assert_cmpuint (after->entries[index].attr2, ==, 0);
  g_assert_cmpuint (after->entries[index].attr3, ==, 0);
  stored = nres_archive_payload_bytes (after, (guint) index);
  assert_bytes_equal (stored, expected_payload);
  /* a new name: the lookup table is made canonical again */
  g_assert_true (after->sort_index_canonical);

  g_assert_true (mat_history_undo (history));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, n);
  g_assert_cmpuint (log.position, ==, n);
  g_assert_cmpuint (log.removed, ==, 1);
  g_assert_cmpuint (log.added, ==, 0);
  g_assert_null (mat_texture_library_lookup (library, "Плита.0"));
  g_assert_false (mat_texture_library_get_dirty (library));
  undone = save_bytes (library);
  assert_bytes_equal (undone, original);

  g_assert_true (mat_history_redo (history));
  g_assert_true (mat_texture_library_lookup (library, "Плита.0") == texture);
  redone = save_bytes (library);
  assert_bytes_equal (redone, added);
}

/* A name that exists (in any case) replaces that entry's payload: its
 * name bytes and directory fields stay, every other entry keeps its
 * bytes. */
static void
test_replace_undo_redo (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatTextureLibrary) library = library_from (original);
  g_autoptr(NresArchive) before = parse (original);
  g_autofree guint8 *rgba = gradient_picture (32, 32, 3);
  MatHistory *history = mat_texture_library_get_history (library);
  MatTexture *rock = mat_texture_library_lookup (library, "ROCK.0");
  MatTexture *existing = NULL;
  g_autoptr(GBytes) expected_payload = NULL;
  g_autoptr(GBytes) replaced = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GBytes) stored = NULL;
  g_autoptr(GBytes) rgba0 = NULL;
  g_autoptr(NresArchive) after = NULL;
  g_autoptr(GError) error = NULL;
  TexmEncodeOptions options;
  ItemsLog log = { 0 };
  guint texture_changes = 0, width_notes = 0, format_notes = 0;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (library));
  guint w = 0, h = 0;

  g_assert_nonnull (rock);
  g_assert_cmpuint (mat_texture_get_format (rock), ==, 565);
  g_assert_cmpuint (mat_texture_get_width (rock), ==, 64);
  g_assert_true (mat_texture_library_check_import_name (library, "rock.0", &existing, &error));
  g_assert_no_error (error);
  g_assert_true (existing == rock);
  g_assert_true (mat_texture_library_check_import_name (library, "NEW.0", &existing, &error));
  g_assert_null (existing);

  g_signal_connect (library, "items-changed", G_CALLBACK (items_changed_cb), &log);
  g_signal_connect (rock, "changed", G_CALLBACK (count_cb), &texture_changes);
  g_signal_connect (rock, "notify::width", G_CALLBACK (notify_count_cb), &width_notes);
  g_signal_connect (rock, "notify::format", G_CALLBACK (notify_count_cb), &format_notes);
  /* level 0 decoded before: the cache must not survive the replace */
  rgba0 = mat_texture_dup_rgba (rock, 0, NULL, NULL);
  g_assert_nonnull (rgba0);

  texm_encode_options_init (&options, 4444);
  expected_payload = texm_encode (rgba, 32, 32, 0, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mat_texture_library_import (library, "rock.0", rgba, 32, 32, 0, &options, NULL,
                                             &error) == rock);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, n);
  g_assert_cmpuint (log.calls, ==, 1);
  g_assert_cmpuint (log.removed, ==, 1);
  g_assert_cmpuint (log.added, ==, 1);
  g_assert_cmpuint (texture_changes, ==, 1);
  g_assert_cmpuint (width_notes, ==, 1);
  g_assert_cmpuint (format_notes, ==, 1);
  g_assert_cmpstr (mat_texture_get_name (rock), ==, "ROCK.0");
  g_assert_cmpuint (mat_texture_get_format (rock), ==, 4444);
  g_assert_cmpuint (mat_texture_get_width (rock), ==, 32);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Replace Texture");
  {
    g_autoptr(GBytes) now = mat_texture_dup_rgba (rock, 0, &w, &h);
    g_autoptr(TexmImage) image = texm_parse (expected_payload, "x", 0, NULL);
    g_autofree guint8 *decoded = texm_decode_rgba (image, 0, NULL, NULL);

    g_assert_cmpuint (w, ==, 32);
    g_assert_cmpmem (g_bytes_get_data (now, NULL), g_bytes_get_size (now), decoded, 32 * 32 * 4);
  }

  replaced = save_bytes (library);
  after = parse (replaced);
  g_assert_cmpuint (after->n_entries, ==, before->n_entries);
  assert_untouched (before, after, "ROCK.0");
  stored = payload_named (after, "ROCK.0");
  assert_bytes_equal (stored, expected_payload);
  /* no name changed: the stored lookup table is kept as it was */
  for (guint i = 0; i < before->n_entries; i++)
    g_assert_cmpuint (after->entries[i].sort_index, ==, before->entries[i].sort_index);

  g_assert_true (mat_history_undo (history));
  g_assert_cmpuint (mat_texture_get_format (rock), ==, 565);
  g_assert_cmpuint (mat_texture_get_width (rock), ==, 64);
  g_assert_cmpuint (texture_changes, ==, 2);
  undone = save_bytes (library);
  assert_bytes_equal (undone, original);
  g_assert_true (mat_history_redo (history));
  redone = save_bytes (library);
  assert_bytes_equal (redone, replaced);

  /* the same payload again records nothing */
  g_assert_true (mat_texture_library_import_payload (library, "ROCK.0", expected_payload, &error) == rock);
  g_assert_no_error (error);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
}

/* Page rectangles: the pixels stay byte for byte, the chunk holds the
 * rectangles given; a texture without a Page chunk gets one; undo gives
 * the loaded bytes back. */
static void
test_rects_undo_redo (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatTextureLibrary) library = library_from (original);
  g_autoptr(NresArchive) before = parse (original);
  MatHistory *history = mat_texture_library_get_history (library);
  MatTexture *atlas = mat_texture_library_lookup (library, "ATLAS.0");
  MatTexture *metal = mat_texture_library_lookup (library, "METAL.0");
  g_autoptr(GBytes) atlas_before = payload_named (before, "ATLAS.0");
  g_autoptr(GBytes) metal_before = payload_named (before, "METAL.0");
  const TexmRect *now;
  TexmRect rects[5];
  guint n_rects = 0, page_notes = 0, changes = 0;
  gboolean has_page = FALSE;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (atlas);
  now = mat_texture_get_rects (atlas, &n_rects, &has_page);
  g_assert_true (has_page);
  g_assert_cmpuint (n_rects, ==, 4);
  memcpy (rects, now, 4 * sizeof *rects);
  g_signal_connect (atlas, "notify::page-rects", G_CALLBACK (notify_count_cb), &page_notes);
  g_signal_connect (atlas, "changed", G_CALLBACK (count_cb), &changes);

  /* move rectangle 1 and add a fifth */
  rects[1].x = 8;
  rects[1].y = 16;
  rects[4] = (TexmRect) { 96, 32, 0, 16 };
  g_assert_true (mat_texture_library_set_page_rects (library, atlas, rects, 5, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mat_texture_get_page_rects (atlas), ==, 5);
  g_assert_cmpuint (page_notes, ==, 1);
  g_assert_cmpuint (changes, ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Change Cells");
  {
    g_autoptr(GBytes) edited = save_bytes (library);
    g_autoptr(NresArchive) after = parse (edited);
    g_autoptr(GBytes) payload = payload_named (after, "ATLAS.0");
    const guint8 *p = g_bytes_get_data (payload, NULL);
    const guint8 *old = g_bytes_get_data (atlas_before, NULL);
    gsize old_size = g_bytes_get_size (atlas_before);
    gsize chunk = old_size - 8 - 4 * 8;   /* where the old Page chunk began */

    assert_untouched (before, after, "ATLAS.0");
    /* the header and the mip chain as they were, then the new chunk */
    g_assert_cmpuint (g_bytes_get_size (payload), ==, old_size + 8);
    g_assert_cmpmem (p, chunk, old, chunk);
    g_assert_cmpmem (p + chunk, 4, "Page", 4);
    g_assert_cmpuint (test_get_u32 (p + chunk + 4), ==, 5);
    for (guint i = 0; i < 5; i++)
      {
        const guint8 *r = p + chunk + 8 + i * 8;

        g_assert_cmpint ((gint16) test_get_u16 (r + 0), ==, rects[i].x);
        g_assert_cmpint ((gint16) test_get_u16 (r + 2), ==, rects[i].w);
        g_assert_cmpint ((gint16) test_get_u16 (r + 4), ==, rects[i].y);
        g_assert_cmpint ((gint16) test_get_u16 (r + 6), ==, rects[i].h);
      }
  }

  /* the same rectangles again: nothing recorded */
  g_assert_true (mat_texture_library_set_page_rects (library, atlas, rects, 5, &error));
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);

  /* a texture without a Page chunk gets one */
  g_assert_cmpuint (mat_texture_get_page_rects (metal), ==, 0);
  mat_texture_get_rects (metal, NULL, &has_page);
  g_assert_false (has_page);
  rects[0] = (TexmRect) { 0, 32, 32, 32 };
  g_assert_true (mat_texture_library_set_page_rects (library, metal, rects, 1, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GBytes) edited = save_bytes (library);
    g_autoptr(NresArchive) after = parse (edited);
    g_autoptr(GBytes) payload = payload_named (after, "METAL.0");
    const guint8 *p = g_bytes_get_data (payload, NULL);
    gsize old_size = g_bytes_get_size (metal_before);
    static const guint8 chunk[] = { 'P', 'a', 'g', 'e', 1, 0, 0, 0, 0, 0, 32, 0, 32, 0, 32, 0 };

    g_assert_cmpuint (g_bytes_get_size (payload), ==, old_size + sizeof chunk);
    g_assert_cmpmem (p, old_size, g_bytes_get_data (metal_before, NULL), old_size);
    g_assert_cmpmem (p + old_size, sizeof chunk, chunk, sizeof chunk);
  }

  /* every rectangle deleted: a Page chunk with no rectangles */
  g_assert_true (mat_texture_library_set_page_rects (library, metal, NULL, 0, &error));
  g_assert_cmpuint (mat_texture_get_page_rects (metal), ==, 0);
  mat_texture_get_rects (metal, NULL, &has_page);
  g_assert_true (has_page);
  g_assert_cmpuint (g_bytes_get_size (mat_texture_get_payload (metal)), ==,
                    g_bytes_get_size (metal_before) + 8);

  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_true (mat_history_undo (history));
  {
    g_autoptr(GBytes) undone = save_bytes (library);

    assert_bytes_equal (undone, original);
  }
  g_assert_cmpuint (mat_texture_get_page_rects (atlas), ==, 4);
  g_assert_false (mat_texture_library_get_dirty (library));
}

/* A drag: many steps in a history group are one undo step. */
static void
test_rects_group (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatTextureLibrary) library = library_from (original);
  MatHistory *history = mat_texture_library_get_history (library);
  MatTexture *atlas = mat_texture_library_lookup (library, "ATLAS.0");
  g_autoptr(GBytes) last = NULL;
  g_autoptr(GError) error = NULL;
  TexmRect rects[4];

  memcpy (rects, mat_texture_get_rects (atlas, NULL, NULL), sizeof rects);
  mat_history_begin_group (history, "Move Cell");
  for (gint16 dx = 1; dx <= 10; dx++)
    {
      rects[2].x = dx;
      g_assert_true (mat_texture_library_set_page_rects (library, atlas, rects, 4, &error));
      g_assert_no_error (error);
    }
  mat_history_end_group (history);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpint (mat_texture_get_rects (atlas, NULL, NULL)[2].x, ==, 10);
  last = save_bytes (library);

  g_assert_true (mat_history_undo (history));
  {
    g_autoptr(GBytes) undone = save_bytes (library);

    assert_bytes_equal (undone, original);
  }
  g_assert_true (mat_history_redo (history));
  {
    g_autoptr(GBytes) redone = save_bytes (library);

    assert_bytes_equal (redone, last);
  }
}

/* What is refused changes nothing and records nothing. */
static void
test_refusals (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatTextureLibrary) library = library_from (original);
  MatHistory *history = mat_texture_library_get_history (library);
  MatTexture *atlas = mat_texture_library_lookup (library, "ATLAS.0");
  g_autofree guint8 *graded = gradient_picture (8, 8, 5);
  g_autofree guint8 *opaque = flat_picture (12, 8, 1, 2, 3, 255);
  g_autofree guint8 *huge = flat_picture (2048, 1, 1, 2, 3, 255);
  TexmEncodeOptions options;
  TexmRect rects[4];
  /* formats.md 2.1: a '.', at most 15 CP1251 bytes, a palette suffix
   * index below 286 ((L - 'A') * 11 + digit + 1) */
  static const char *bad_names[] = {
    "", "NODOT", "SIXTEEN_BYTES.00", "漢字.0", "PAL.[9",
  };

  texm_encode_options_init (&options, 8888);
  for (guint i = 0; i < G_N_ELEMENTS (bad_names); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_null (mat_texture_library_import (library, bad_names[i], opaque, 8, 8, 48,
                                                 &options, NULL, &error));
      g_test_message ("%s: %s", bad_names[i], error->message);
      g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_NAME);
    }
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (mat_texture_library_check_import_name (library, "PAL.[9", NULL, &error));
    g_assert_nonnull (strstr (error->message, "286"));
    g_clear_error (&error);
    /* (25 * 11) + 9 + 1 = 285: the last palette of the bank */
    g_assert_true (mat_texture_library_check_import_name (library, "PAL.Z9", NULL, &error));
    g_assert_no_error (error);
  }

  /* graded alpha into a format without alpha, unless the alpha is dropped */
  {
    g_autoptr(GError) error = NULL;

    texm_encode_options_init (&options, 565);
    g_assert_null (mat_texture_library_import (library, "ALPHA.0", graded, 8, 8, 0, &options,
                                               NULL, &error));
    g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_ALPHA);
    g_clear_error (&error);
    options.drop_alpha = TRUE;
    g_assert_nonnull (mat_texture_library_import (library, "ALPHA.0", graded, 8, 8, 0, &options,
                                                  NULL, &error));
    g_assert_no_error (error);
    g_assert_true (mat_history_undo (history));
  }
  /* sides that are no power of two, or too large */
  {
    g_autoptr(GError) error = NULL;

    texm_encode_options_init (&options, 8888);
    g_assert_null (mat_texture_library_import (library, "ODD.0", opaque, 12, 8, 0, &options,
                                               NULL, &error));
    g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE);
    g_clear_error (&error);
    g_assert_null (mat_texture_library_import (library, "HUGE.0", huge, 2048, 1, 0, &options,
                                               NULL, &error));
    g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE);
  }
  /* a payload that is no Texm */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) junk = g_bytes_new_static ("Texm but not really", 19);

    g_assert_null (mat_texture_library_import_payload (library, "JUNK.0", junk, &error));
    g_assert_error (error, TEXM_ERROR, TEXM_ERROR_TRUNCATED);
  }
  /* rectangles outside the texture or of no size */
  memcpy (rects, mat_texture_get_rects (atlas, NULL, NULL), sizeof rects);
  {
    const TexmRect bad[] = {
      { 120, 16, 0, 16 },   /* past the right edge of 128 */
      { -1, 4, 0, 4 },
      { 0, 0, 0, 4 },
      { 0, 4, 126, 4 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr(GError) error = NULL;

        rects[3] = bad[i];
        g_assert_false (mat_texture_library_set_page_rects (library, atlas, rects, 4, &error));
        g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_CELL);
        g_assert_nonnull (strstr (error->message, "rectangle 3"));
      }
  }
  /* a texture of another library */
  {
    g_autoptr(MatTextureLibrary) other = library_from (original);
    g_autoptr(GError) error = NULL;

    g_assert_false (mat_texture_library_set_page_rects (library,
                                                        mat_texture_library_lookup (other, "ATLAS.0"),
                                                        NULL, 0, &error));
    g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  }

  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 0);
  {
    g_autoptr(GBytes) saved = save_bytes (library);

    assert_bytes_equal (saved, original);
  }
}

/* An entry of another type keeps its name: an import under it is refused;
 * a rectangle edit on a texture whose neighbour does not parse works. */
static void
test_other_entries (void)
{
  g_autoptr(GBytes) good = NULL;
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(MatTextureLibrary) library = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) before = NULL;
  guint8 rgba[4 * 4 * 4];
  static const guint8 other[] = "not a texture at all";
  TestEntrySpec specs[3] = {
    { 0x6D786554, 0, 0, 0, "GOOD.0", NULL, 0, 5 },
    { 0x3054414D, 7, 6, 9, "MAT.0", other, sizeof other, 3 },
    { 0x6D786554, 1, 2, 3, "BROKEN.0", other, sizeof other, 0 },
  };
  const TexmRect cell = { 1, 2, 1, 2 };
  MatTexture *texture;

  memset (rgba, 0x80, sizeof rgba);
  good = texm_encode_rgba (8888, 4, 4, 1, rgba, NULL, NULL, 0);
  specs[0].payload = g_bytes_get_data (good, &specs[0].size);
  /* unaligned, with unindexed gaps: the writer keeps them */
  archive = test_build_archive (specs, 3, FALSE);
  before = parse (archive);
  library = library_from (archive);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, 2);

  g_assert_false (mat_texture_library_check_import_name (library, "mat.0", NULL, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN);
  g_assert_nonnull (strstr (error->message, "MAT.0"));
  g_clear_error (&error);

  texture = mat_texture_library_lookup (library, "BROKEN.0");
  g_assert_false (mat_texture_library_set_page_rects (library, texture, &cell, 1, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  g_clear_error (&error);

  texture = mat_texture_library_lookup (library, "GOOD.0");
  g_assert_true (mat_texture_library_set_page_rects (library, texture, &cell, 1, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GBytes) saved = save_bytes (library);
    g_autoptr(NresArchive) after = parse (saved);
    const guint8 *a = g_bytes_get_data (archive, NULL);
    const guint8 *b = g_bytes_get_data (saved, NULL);
    gsize shift = 16;   /* the chunk: "Page", count, one rectangle */
    gsize end_good = NRES_HEADER_SIZE + specs[0].size;

    assert_untouched (before, after, "GOOD.0");
    g_assert_cmpuint (g_bytes_get_size (saved), ==, g_bytes_get_size (archive) + shift);
    /* the gap after GOOD.0 and everything up to the directory shifted
     * as they were */
    g_assert_cmpmem (b + end_good + shift, before->directory_offset - end_good,
                     a + end_good, before->directory_offset - end_good);
  }
  g_assert_true (mat_history_undo (mat_texture_library_get_history (library)));
  {
    g_autoptr(GBytes) saved = save_bytes (library);

    assert_bytes_equal (saved, archive);
  }
}

/* An empty library (a new Textures.lib) takes textures. */
static void
test_empty_library (void)
{
  g_autoptr(MatTextureLibrary) library = mat_texture_library_new_empty ();
  g_autofree guint8 *rgba = flat_picture (4, 4, 10, 20, 30, 255);
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(NresArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  TexmEncodeOptions options;

  texm_encode_options_init (&options, 888);
  g_assert_nonnull (mat_texture_library_import (library, "FLAT.0", rgba, 4, 4, 0, &options, NULL,
                                                &error));
  g_assert_no_error (error);
  saved = save_bytes (library);
  archive = parse (saved);
  g_assert_cmpuint (archive->n_entries, ==, 1);
  g_assert_cmpstr (archive->entries[0].name, ==, "FLAT.0");
  g_assert_cmpuint (archive->entries[0].data_offset, ==, 16);
  g_assert_true (mat_history_undo (mat_texture_library_get_history (library)));
  g_clear_pointer (&saved, g_bytes_unref);
  saved = save_bytes (library);
  g_assert_cmpuint (g_bytes_get_size (saved), ==, 16);
}

/* ---- files ------------------------------------------------------------ */

static char *tmp_dir;

static void
async_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static GBytes *
file_bytes (const char *path)
{
  return test_load_file (path);
}

static MatTextureLibrary *
load_file (GFile *file)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  MatTextureLibrary *library;

  mat_texture_library_load_async (file, NULL, async_cb, &result);
  library = mat_texture_library_load_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  return library;
}

static gboolean
save_file (MatTextureLibrary *library,
           GFile             *file,
           MatSaveFlags       flags,
           GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mat_texture_library_save_async (library, file, flags, NULL, async_cb, &result);
  return mat_texture_library_save_finish (library, wait_result (&result), NULL, error);
}

/* Save through mat_file_replace: with the ETag, the new base after it,
 * nothing written when the file changed on disk. */
static void
test_save_file (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autofree char *path = g_build_filename (tmp_dir, "Textures.lib", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(MatTextureLibrary) library = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *rgba = flat_picture (8, 8, 200, 100, 50, 255);
  g_autofree char *etag = NULL;
  TexmEncodeOptions options;
  TexmRect cell = { 0, 4, 0, 4 };

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (original, NULL),
                                      (gssize) g_bytes_get_size (original), &error));
  library = load_file (file);
  g_assert_nonnull (mat_texture_library_get_etag (library));

  /* unchanged: the file stays byte-identical */
  g_assert_true (save_file (library, NULL, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GBytes) now = file_bytes (path);

    assert_bytes_equal (now, original);
  }

  texm_encode_options_init (&options, 565);
  g_assert_nonnull (mat_texture_library_import (library, "NEW.0", rgba, 8, 8, 0, &options, NULL,
                                                &error));
  g_assert_true (mat_texture_library_get_dirty (library));
  etag = g_strdup (mat_texture_library_get_etag (library));
  g_assert_true (save_file (library, NULL, MAT_SAVE_NONE, &error));
  g_assert_no_error (error);
  g_assert_false (mat_texture_library_get_dirty (library));
  g_assert_cmpstr (mat_texture_library_get_etag (library), !=, etag);
  {
    g_autoptr(GBytes) now = file_bytes (path);
    g_autoptr(GBytes) expected = save_bytes (library);
    g_autoptr(MatTextureLibrary) again = library_from (now);

    assert_bytes_equal (now, expected);
    g_assert_nonnull (mat_texture_library_lookup (again, "NEW.0"));
  }

  /* after the save, edits build on the saved file; undo past the save
   * brings the original back */
  g_assert_true (mat_texture_library_set_page_rects (library,
                                                     mat_texture_library_lookup (library, "NEW.0"),
                                                     &cell, 1, &error));
  g_assert_true (mat_history_undo (mat_texture_library_get_history (library)));
  g_assert_false (mat_texture_library_get_dirty (library));
  g_assert_true (mat_history_undo (mat_texture_library_get_history (library)));
  g_assert_true (mat_texture_library_get_dirty (library));
  {
    g_autoptr(GBytes) undone = save_bytes (library);

    assert_bytes_equal (undone, original);
  }
  g_assert_true (mat_history_redo (mat_texture_library_get_history (library)));
  g_assert_false (mat_texture_library_get_dirty (library));
  {
    g_autoptr(GBytes) now = file_bytes (path);
    g_autoptr(GBytes) redone = save_bytes (library);

    assert_bytes_equal (redone, now);
  }

  /* another program writes the file: the save is refused, nothing
   * written, unless the user says overwrite */
  g_assert_true (mat_history_undo (mat_texture_library_get_history (library)));
  g_usleep (20000);
  g_assert_true (g_file_set_contents (path, "NRes-changed-elsewhere", -1, &error));
  g_assert_false (save_file (library, NULL, MAT_SAVE_NONE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);
  g_clear_error (&error);
  {
    g_autoptr(GBytes) now = file_bytes (path);

    g_assert_cmpmem (g_bytes_get_data (now, NULL), g_bytes_get_size (now), "NRes-changed-elsewhere", 22);
  }
  g_assert_true (mat_texture_library_get_dirty (library));
  g_assert_true (save_file (library, NULL, MAT_SAVE_IGNORE_CHANGES, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GBytes) now = file_bytes (path);

    assert_bytes_equal (now, original);
  }
  g_unlink (path);
}

/* The encoding in a thread: the same bytes as the direct import, one
 * undo step; a refused name or picture changes nothing. */
/* formats.md 3: a texture that replaces another keeps the other's flags5
 * and unk6 (the alpha-surface bits of flags5 are read by the game); a new
 * one has 0, 0; flags4 is 32 for a chain, else 0. Through the library's
 * import, the import in a thread (the texture window's) and a payload
 * made elsewhere; undo gives the loaded bytes back. */
static void
test_replace_keeps_flags (void)
{
  g_autoptr(GBytes) demo = demo_bytes ();
  g_autoptr(NresArchive) demo_archive = parse (demo);
  g_autoptr(GBytes) original = NULL;
  g_autoptr(MatTextureLibrary) library = NULL;
  MatHistory *history;
  g_autoptr(GError) error = NULL;
  static const guint8 old_flags[8] = { 0x00, 0x00, 0x00, 0x01,   0x2A, 0x00, 0x00, 0x80 };
  guint8 rgba[16 * 16 * 4];
  TexmEncodeOptions options;
  gint index;

  /* the demo with ROCK.0's flags5 = 0x01000000 (an alpha surface) and
   * unk6 = 0x8000002A */
  {
    GByteArray *copy = g_byte_array_new ();

    g_byte_array_append (copy, g_bytes_get_data (demo, NULL), (guint) g_bytes_get_size (demo));
    index = entry_named (demo_archive, "ROCK.0");
    g_assert_cmpint (index, >=, 0);
    memcpy (copy->data + demo_archive->entries[index].data_offset + 20, old_flags, 8);
    original = g_byte_array_free_to_bytes (copy);
  }
  library = library_from (original);
  history = mat_texture_library_get_history (library);
  for (guint i = 0; i < 16 * 16; i++)
    {
      rgba[i * 4 + 0] = (guint8) (i * 3);
      rgba[i * 4 + 1] = (guint8) (255 - i);
      rgba[i * 4 + 2] = (guint8) (i * 7);
      rgba[i * 4 + 3] = 255;
    }

  /* the replace: the new picture's flags4 (a chain: 32), the old flags5
   * and unk6, byte for byte; everything else as encoded */
  texm_encode_options_init (&options, 565);
  {
    g_autoptr(GBytes) encoded = texm_encode (rgba, 16, 16, 0, &options, NULL, &error);
    g_autoptr(GBytes) saved = NULL;
    g_autoptr(NresArchive) after = NULL;
    g_autoptr(GBytes) stored = NULL;
    g_autoptr(GBytes) undone = NULL;
    const guint8 *d;
    const guint8 *e;

    g_assert_no_error (error);
    g_assert_nonnull (mat_texture_library_import (library, "rock.0", rgba, 16, 16, 0, &options,
                                                  NULL, &error));
    g_assert_no_error (error);
    saved = save_bytes (library);
    after = parse (saved);
    stored = payload_named (after, "ROCK.0");
    g_assert_cmpuint (g_bytes_get_size (stored), ==, g_bytes_get_size (encoded));
    d = g_bytes_get_data (stored, NULL);
    e = g_bytes_get_data (encoded, NULL);
    g_assert_cmpuint (test_get_u32 (d + 16), ==, 32);
    g_assert_cmpmem (d + 20, 8, old_flags, 8);
    g_assert_cmpmem (d, 20, e, 20);
    g_assert_cmpmem (d + 28, g_bytes_get_size (stored) - 28, e + 28, g_bytes_get_size (encoded) - 28);
    g_assert_cmphex (mat_texture_get_image (mat_texture_library_lookup (library, "ROCK.0"))->header.flags5,
                     ==, 0x01000000u);

    g_assert_true (mat_history_undo (history));
    undone = save_bytes (library);
    assert_bytes_equal (undone, original);
  }

  /* one level over it, in a thread: flags4 0, flags5 and unk6 kept */
  {
    g_autoptr(GBytes) pixels = g_bytes_new (rgba, sizeof rgba);
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(MatTexture) texture = NULL;
    const TexmHeader *header;

    options.mip_count = 1;
    mat_texture_library_import_async (library, "ROCK.0", pixels, 16, 16, 0, &options, NULL,
                                      async_cb, &result);
    texture = mat_texture_library_import_finish (library, wait_result (&result), NULL, &error);
    g_assert_no_error (error);
    header = &mat_texture_get_image (texture)->header;
    g_assert_cmpuint (header->mip_count, ==, 1);
    g_assert_cmpuint (header->flags4, ==, 0);
    g_assert_cmphex (header->flags5, ==, 0x01000000u);
    g_assert_cmphex (header->unk6, ==, 0x8000002Au);
    g_assert_true (mat_history_undo (history));
  }

  /* a payload made elsewhere, with flags of its own, over it: the
   * replaced texture's flags5 and unk6 win */
  {
    g_autoptr(GBytes) made = texm_encode (rgba, 16, 16, 0, &options, NULL, &error);
    GByteArray *odd = g_byte_array_new ();
    g_autoptr(GBytes) odd_bytes = NULL;
    const TexmHeader *header;

    g_byte_array_append (odd, g_bytes_get_data (made, NULL), (guint) g_bytes_get_size (made));
    odd->data[20] = 0x55;
    odd->data[24] = 0x66;
    odd_bytes = g_byte_array_free_to_bytes (odd);
    g_assert_nonnull (mat_texture_library_import_payload (library, "ROCK.0", odd_bytes, &error));
    g_assert_no_error (error);
    header = &mat_texture_get_image (mat_texture_library_lookup (library, "ROCK.0"))->header;
    g_assert_cmphex (header->flags5, ==, 0x01000000u);
    g_assert_cmphex (header->unk6, ==, 0x8000002Au);
    g_assert_true (mat_history_undo (history));
  }

  /* a new texture: flags4 32 with a chain, flags5 and unk6 0 */
  {
    MatTexture *added;
    const TexmHeader *header;

    options.mip_count = 0;
    added = mat_texture_library_import (library, "FRESH.0", rgba, 16, 16, 0, &options, NULL, &error);
    g_assert_no_error (error);
    header = &mat_texture_get_image (added)->header;
    g_assert_cmpuint (header->flags4, ==, 32);
    g_assert_cmpuint (header->flags5, ==, 0);
    g_assert_cmpuint (header->unk6, ==, 0);
    g_assert_true (mat_history_undo (history));
  }
  {
    g_autoptr(GBytes) back = save_bytes (library);

    assert_bytes_equal (back, original);
  }
}

static void
test_import_async (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatTextureLibrary) direct = library_from (original);
  g_autoptr(MatTextureLibrary) library = library_from (original);
  gsize size = 32 * 16 * 4 + 8 * 16;   /* rows of 136 bytes: a stride */
  guint8 *pixels = g_malloc0 (size);
  g_autoptr(GBytes) rgba = NULL;
  g_autoptr(GError) error = NULL;
  TexmEncodeOptions options;
  TexmEncodeResult encoded = { 0 };
  const TexmRect cells[2] = { { 0, 16, 0, 16 }, { 16, 16, 0, 16 } };

  for (gsize y = 0; y < 16; y++)
    for (gsize x = 0; x < 32; x++)
      {
        guint8 *p = pixels + y * 136 + x * 4;

        p[0] = (guint8) (x * 8);
        p[1] = (guint8) (y * 16);
        p[2] = 77;
        p[3] = 255;
      }
  rgba = g_bytes_new_take (pixels, size);
  texm_encode_options_init (&options, 0);
  options.page = TRUE;
  options.rects = cells;
  options.n_rects = 2;
  g_assert_nonnull (mat_texture_library_import (direct, "ASYNC.0", g_bytes_get_data (rgba, NULL),
                                                32, 16, 136, &options, NULL, &error));
  g_assert_no_error (error);

  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(MatTexture) texture = NULL;
    TexmRect copy[2];

    /* the caller's options may go away at once */
    memcpy (copy, cells, sizeof copy);
    options.rects = copy;
    mat_texture_library_import_async (library, "ASYNC.0", rgba, 32, 16, 136, &options, NULL,
                                      async_cb, &result);
    memset (copy, 0x55, sizeof copy);
    texture = mat_texture_library_import_finish (library, wait_result (&result), &encoded, &error);
    g_assert_no_error (error);
    g_assert_nonnull (texture);
    g_assert_true (texture == mat_texture_library_lookup (library, "ASYNC.0"));
    g_assert_cmpuint (encoded.width, ==, 32);
    g_assert_cmpuint (encoded.mip_count, ==, 6);
    g_assert_cmpuint (mat_texture_get_page_rects (texture), ==, 2);
    g_assert_cmpuint (mat_history_get_n_undo (mat_texture_library_get_history (library)), ==, 1);
    options.rects = cells;
  }
  {
    g_autoptr(GBytes) a = save_bytes (direct);
    g_autoptr(GBytes) b = save_bytes (library);

    assert_bytes_equal (b, a);
  }

  /* refused at once (a name) and in the thread (the size) */
  {
    g_autoptr(GAsyncResult) result = NULL;

    mat_texture_library_import_async (library, "NODOT", rgba, 32, 16, 136, &options, NULL,
                                      async_cb, &result);
    g_assert_null (mat_texture_library_import_finish (library, wait_result (&result), NULL, &error));
    g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_NAME);
    g_clear_error (&error);
  }
  {
    g_autoptr(GAsyncResult) result = NULL;

    mat_texture_library_import_async (library, "ODD.0", rgba, 24, 16, 136, &options, NULL,
                                      async_cb, &result);
    g_assert_null (mat_texture_library_import_finish (library, wait_result (&result), NULL, &error));
    g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE);
    g_clear_error (&error);
  }
  {
    g_autoptr(GAsyncResult) result = NULL;

    /* fewer bytes than the rows need */
    mat_texture_library_import_async (library, "SHORT.0", rgba, 32, 32, 136, &options, NULL,
                                      async_cb, &result);
    g_assert_null (mat_texture_library_import_finish (library, wait_result (&result), NULL, &error));
    g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_SIZE);
  }
  g_assert_cmpuint (mat_history_get_n_undo (mat_texture_library_get_history (library)), ==, 1);
}

/* A new Textures.lib: an empty archive, never over a file that is there. */
static void
test_create (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "Created.lib", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) again = NULL;
  g_autoptr(MatTextureLibrary) library = NULL;
  g_autoptr(MatTextureLibrary) none = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  static const guint8 empty_archive[16] = { 'N', 'R', 'e', 's', 0, 1, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0 };

  mat_texture_library_create_async (file, NULL, async_cb, &result);
  library = mat_texture_library_create_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (library);
  g_assert_true (g_file_equal (mat_texture_library_get_file (library), file));
  g_assert_nonnull (mat_texture_library_get_etag (library));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, 0);
  bytes = file_bytes (path);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                   empty_archive, sizeof empty_archive);

  g_assert_true (g_file_set_contents (path, "someone else's", -1, &error));
  mat_texture_library_create_async (file, NULL, async_cb, &again);
  none = mat_texture_library_create_finish (wait_result (&again), &error);
  g_assert_null (none);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_pointer (&bytes, g_bytes_unref);
  bytes = file_bytes (path);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "someone else's", 14);
  g_unlink (path);
}

/* A rename changes the entry's name field only (zero-filled, CP1251),
 * the lookup follows it, and undo gives the loaded bytes back; names
 * another entry has, in any case, and names against the rules are
 * refused with nothing changed. */
static void
test_rename (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatTextureLibrary) library = library_from (original);
  MatHistory *history = mat_texture_library_get_history (library);
  g_autoptr(GBytes) renamed = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(NresArchive) before = parse (original);
  g_autoptr(NresArchive) after = NULL;
  g_autoptr(GError) error = NULL;
  MatTexture *rock = mat_texture_library_lookup (library, "ROCK.0");
  MatTexture *last = NULL;
  guint notified = 0, changed = 0;
  gint index = entry_named (before, "ROCK.0");
  char expected[NRES_NAME_SIZE] = { 0 };

  g_assert_nonnull (rock);
  g_signal_connect (rock, "notify::name", G_CALLBACK (notify_count_cb), &notified);
  g_signal_connect (rock, "changed", G_CALLBACK (count_cb), &changed);
  g_signal_connect (library, "changed", G_CALLBACK (changed_cb), &last);

  /* refused: another entry's name (any case), the rules, nothing changes */
  g_assert_false (mat_texture_library_rename (library, rock, "metal.0", &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NAME_TAKEN);
  g_assert_nonnull (strstr (error->message, "“METAL.0”"));
  g_clear_error (&error);
  g_assert_false (mat_texture_library_rename (library, rock, "NODOT", &error));
  g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_NAME);
  g_clear_error (&error);
  g_assert_false (mat_texture_library_rename (library, rock, "SIXTEEN_BYTES.00", &error));
  g_assert_error (error, TEXM_ENCODE_ERROR, TEXM_ENCODE_ERROR_NAME);
  g_clear_error (&error);
  g_assert_false (mat_texture_library_check_rename (library, rock, "", &error));
  g_clear_error (&error);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 0);
  /* its own name: nothing to do, nothing recorded */
  g_assert_true (mat_texture_library_rename (library, rock, "ROCK.0", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 0);
  g_assert_cmpuint (notified, ==, 0);

  /* Cyrillic, as CP1251 stores it: "КАМЕНЬ.0" is 8 bytes */
  g_assert_true (mat_texture_library_check_rename (library, rock, "КАМЕНЬ.0", NULL));
  g_assert_true (mat_texture_library_rename (library, rock, "КАМЕНЬ.0", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mat_history_get_n_undo (history), ==, 1);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Rename Texture");
  g_assert_cmpstr (mat_texture_get_name (rock), ==, "КАМЕНЬ.0");
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_true (last == rock);
  g_assert_true (mat_texture_library_lookup (library, "камень.0") == NULL);   /* not ASCII: case counts */
  g_assert_true (mat_texture_library_lookup (library, "КАМЕНЬ.0") == rock);
  g_assert_null (mat_texture_library_lookup (library, "ROCK.0"));
  /* the old name is free again, for an import too */
  g_assert_true (mat_texture_library_check_import_name (library, "ROCK.0", NULL, NULL));

  renamed = save_bytes (library);
  after = parse (renamed);
  g_assert_cmpuint (after->n_entries, ==, before->n_entries);
  memcpy (expected, "\xCA\xC0\xCC\xC5\xCD\xDC.0", 8);
  g_assert_cmpmem (after->entries[index].name, NRES_NAME_SIZE, expected, NRES_NAME_SIZE);
  {
    g_autoptr(GBytes) a = nres_archive_payload_bytes (before, (guint) index);
    g_autoptr(GBytes) b = nres_archive_payload_bytes (after, (guint) index);

    assert_bytes_equal (a, b);
    g_assert_cmpuint (after->entries[index].type_id, ==, before->entries[index].type_id);
    g_assert_cmpuint (after->entries[index].attr1, ==, before->entries[index].attr1);
  }
  for (guint i = 0; i < before->n_entries; i++)
    if ((gint) i != index)
      {
        g_autoptr(GBytes) a = nres_archive_payload_bytes (before, i);
        g_autoptr(GBytes) b = nres_archive_payload_bytes (after, i);

        g_assert_cmpmem (before->entries[i].name, NRES_NAME_SIZE, after->entries[i].name, NRES_NAME_SIZE);
        assert_bytes_equal (a, b);
      }
  /* the game finds it by the new name (the sort index was rebuilt) */
  g_assert_cmpint (nres_archive_find (after, "\xCA\xC0\xCC\xC5\xCD\xDC.0"), ==, index);
  g_assert_cmpint (nres_archive_find (after, "ROCK.0"), ==, -1);

  /* a letter case of its own name is a rename too */
  g_assert_true (mat_texture_library_rename (library, rock, "Камень.0", &error));
  g_assert_no_error (error);
  g_assert_true (mat_history_undo (history));

  g_assert_true (mat_history_undo (history));
  g_assert_cmpstr (mat_texture_get_name (rock), ==, "ROCK.0");
  g_assert_true (mat_texture_library_lookup (library, "rock.0") == rock);
  undone = save_bytes (library);
  assert_bytes_equal (undone, original);
  g_assert_true (mat_history_redo (history));
  redone = save_bytes (library);
  assert_bytes_equal (redone, renamed);
}

/* A removal drops the entry from the saved directory, every other entry
 * kept; undo puts the very texture back at its place, the loaded bytes
 * with it. */
static void
test_remove (void)
{
  g_autoptr(GBytes) original = demo_bytes ();
  g_autoptr(MatTextureLibrary) library = library_from (original);
  g_autoptr(MatTextureLibrary) other = library_from (original);
  MatHistory *history = mat_texture_library_get_history (library);
  g_autoptr(GBytes) removed = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(NresArchive) before = parse (original);
  g_autoptr(NresArchive) after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MatTexture) glow = NULL;
  ItemsLog log = { 0 };
  MatTexture *last = NULL;
  gint index = entry_named (before, "GLOW.0");
  guint n = g_list_model_get_n_items (G_LIST_MODEL (library));
  guint position;

  g_assert_cmpint (index, >=, 0);
  glow = g_object_ref (mat_texture_library_lookup (library, "GLOW.0"));
  for (position = 0; position < n; position++)
    {
      g_autoptr(MatTexture) item = g_list_model_get_item (G_LIST_MODEL (library), position);

      if (item == glow)
        break;
    }
  g_assert_cmpuint (position, <, n);
  g_signal_connect (library, "items-changed", G_CALLBACK (items_changed_cb), &log);
  g_signal_connect (library, "changed", G_CALLBACK (changed_cb), &last);

  /* another library's texture: refused */
  g_assert_false (mat_texture_library_remove (other, glow, &error));
  g_assert_error (error, MAT_MODEL_ERROR, MAT_MODEL_ERROR_NOT_EDITABLE);
  g_clear_error (&error);

  g_assert_true (mat_texture_library_remove (library, glow, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (mat_history_get_undo_label (history), ==, "Delete Texture");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, n - 1);
  g_assert_cmpuint (log.calls, ==, 1);
  g_assert_cmpuint (log.position, ==, position);
  g_assert_cmpuint (log.removed, ==, 1);
  g_assert_cmpuint (log.added, ==, 0);
  g_assert_true (last == glow);
  g_assert_null (mat_texture_library_lookup (library, "GLOW.0"));
  /* its name is free: an import adds a new texture of it */
  {
    MatTexture *existing = (MatTexture *) 0x1;

    g_assert_true (mat_texture_library_check_import_name (library, "GLOW.0", &existing, NULL));
    g_assert_null (existing);
  }

  removed = save_bytes (library);
  after = parse (removed);
  g_assert_cmpuint (after->n_entries, ==, before->n_entries - 1);
  g_assert_cmpint (entry_named (after, "GLOW.0"), ==, -1);
  for (guint i = 0, j = 0; i < before->n_entries; i++)
    {
      g_autoptr(GBytes) a = NULL;
      g_autoptr(GBytes) b = NULL;

      if ((gint) i == index)
        continue;
      a = nres_archive_payload_bytes (before, i);
      b = nres_archive_payload_bytes (after, j);
      g_assert_cmpmem (before->entries[i].name, NRES_NAME_SIZE, after->entries[j].name, NRES_NAME_SIZE);
      assert_bytes_equal (a, b);
      j++;
    }

  g_assert_true (mat_history_undo (history));
  g_assert_cmpuint (log.calls, ==, 2);
  g_assert_cmpuint (log.position, ==, position);
  g_assert_cmpuint (log.added, ==, 1);
  {
    g_autoptr(MatTexture) back = g_list_model_get_item (G_LIST_MODEL (library), position);

    g_assert_true (back == glow);
  }
  g_assert_true (mat_texture_library_lookup (library, "glow.0") == glow);
  undone = save_bytes (library);
  assert_bytes_equal (undone, original);

  /* remove, import over the name freed, then undo both */
  g_assert_true (mat_history_redo (history));
  {
    g_autofree guint8 *rgba = flat_picture (8, 8, 10, 20, 30, 255);
    TexmEncodeOptions options;
    MatTexture *fresh;
    g_autoptr(GBytes) back = NULL;

    texm_encode_options_init (&options, 565);
    fresh = mat_texture_library_import (library, "GLOW.0", rgba, 8, 8, 0, &options, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (fresh != glow);
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (library)), ==, n);
    g_assert_true (mat_history_undo (history));
    g_assert_true (mat_history_undo (history));
    back = save_bytes (library);
    assert_bytes_equal (back, original);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("texture-edit-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/model/texture-edit/unchanged-identical", test_unchanged_identical);
  g_test_add_func ("/model/texture-edit/add", test_add_undo_redo);
  g_test_add_func ("/model/texture-edit/replace", test_replace_undo_redo);
  g_test_add_func ("/model/texture-edit/replace-keeps-flags", test_replace_keeps_flags);
  g_test_add_func ("/model/texture-edit/rects", test_rects_undo_redo);
  g_test_add_func ("/model/texture-edit/rects-group", test_rects_group);
  g_test_add_func ("/model/texture-edit/refusals", test_refusals);
  g_test_add_func ("/model/texture-edit/other-entries", test_other_entries);
  g_test_add_func ("/model/texture-edit/empty", test_empty_library);
  g_test_add_func ("/model/texture-edit/save-file", test_save_file);
  g_test_add_func ("/model/texture-edit/create", test_create);
  g_test_add_func ("/model/texture-edit/import-async", test_import_async);
  g_test_add_func ("/model/texture-edit/rename", test_rename);
  g_test_add_func ("/model/texture-edit/remove", test_remove);

  status = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
