/* test-msh-demo.c - the demo game folder (data/samples/make-models.c):
 * every model read by the core with no problem and exactly what it is
 * meant to show */
#include "config.h"

#include <string.h>

#include "mat0.h"
#include "msh.h"
#include "nres.h"
#include "test-support.h"
#include "texm.h"
#include "wear.h"

static char *
game_path (const char *name)
{
  const char *dir = g_getenv ("DEMO_GAME");

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

static NresArchive *
load_archive (const char *name)
{
  g_autofree char *path = game_path (name);
  g_autoptr(GBytes) bytes = test_load_file (path);
  g_autoptr(GError) error = NULL;
  NresArchive *archive = nres_archive_parse (bytes, &error);

  g_assert_no_error (error);
  return archive;
}

typedef struct {
  NresArchive *archive;
  MshModel    *model;
  WearTable   *wear;
  MshDraw     *draw;
  GPtrArray   *lints;   /* msh_model_lint_wear + the library's */
} Loaded;

static void
loaded_clear (Loaded *l)
{
  g_clear_pointer (&l->draw, msh_draw_free);
  g_clear_pointer (&l->wear, wear_table_free);
  g_clear_pointer (&l->model, msh_model_free);
  g_clear_pointer (&l->archive, nres_archive_free);
  g_clear_pointer (&l->lints, g_ptr_array_unref);
}

static void
print_problems (const GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    g_test_message ("%s", ((const MshProblem *) problems->pdata[i])->message);
}

/* Reads @member of @archive_name with its wear; asserts no problem at
 * all (errors, lints of the MESH, of the WEAR, of its rows against the
 * game folder's Material.lib). */
static void
load_model (const char *archive_name,
            const char *member,
            Loaded     *out)
{
  g_autoptr(NresArchive) library = load_archive ("Material.lib");
  g_autofree char *wea = wear_member_for_mesh (member);
  g_autoptr(GBytes) mesh_bytes = NULL;
  g_autoptr(GBytes) wear_bytes = NULL;
  gint m, w;

  out->archive = load_archive (archive_name);
  m = nres_archive_find (out->archive, member);
  w = nres_archive_find (out->archive, wea);
  g_assert_cmpint (m, >=, 0);
  g_assert_cmpint (w, >=, 0);
  g_assert_cmpuint (out->archive->entries[m].type_id, ==, NRES_TYPE_MESH);
  g_assert_cmpuint (out->archive->entries[w].type_id, ==, NRES_TYPE_WEAR);
  mesh_bytes = nres_archive_payload_bytes (out->archive, (guint) m);
  wear_bytes = nres_archive_payload_bytes (out->archive, (guint) w);
  out->model = msh_model_read (mesh_bytes, out->archive->entries[m].data_offset, member);
  out->wear = wear_table_read (wear_bytes, out->archive->entries[w].data_offset, wea);
  out->lints = msh_problem_list_new ();
  msh_model_lint_wear (out->model, out->wear, out->lints);
  wear_table_lint_library (out->wear, library, out->lints);
  print_problems (out->model->problems);
  print_problems (out->wear->problems);
  print_problems (out->lints);
  g_assert_cmpuint (out->model->problems->len, ==, 0);
  g_assert_cmpuint (out->wear->problems->len, ==, 0);
  g_assert_cmpuint (out->lints->len, ==, 0);
  g_assert_true (out->model->valid);
  out->draw = msh_model_draw (out->model, MSH_DRAW_GEOMETRY);
  g_assert_nonnull (out->draw);
}

static void
assert_rows (const Loaded      *l,
             const char *const *names,
             const gboolean    *drawn)
{
  guint n = g_strv_length ((char **) names);

  g_assert_cmpuint (l->wear->n_rows, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpstr (l->wear->rows[i].name, ==, names[i]);
      g_assert_cmpint (l->draw->row_batches[i] > 0, ==, drawn[i]);
    }
}

static void
assert_box3 (const float *min,
             const float *max,
             double x0, double y0, double z0,
             double x1, double y1, double z1)
{
  g_assert_cmpfloat_with_epsilon (min[0], x0, 1e-5);
  g_assert_cmpfloat_with_epsilon (min[1], y0, 1e-5);
  g_assert_cmpfloat_with_epsilon (min[2], z0, 1e-5);
  g_assert_cmpfloat_with_epsilon (max[0], x1, 1e-5);
  g_assert_cmpfloat_with_epsilon (max[1], y1, 1e-5);
  g_assert_cmpfloat_with_epsilon (max[2], z1, 1e-5);
}

static void
test_box (void)
{
  Loaded l = { 0 };
  static const char *const names[] = { "БРОНЯ_ЗЕЛЁНАЯ", "METAL_PLATE", "LAVA_FLOW", NULL };
  static const gboolean drawn[] = { TRUE, TRUE, FALSE };

  load_model ("static.rlb", "box.msh", &l);
  g_assert_cmpuint (l.model->n_nodes, ==, 1);
  g_assert_cmpuint (l.draw->n_batches, ==, 2);
  g_assert_cmpuint (l.draw->n_triangles, ==, 12);
  g_assert_cmpuint (l.draw->batches[0].n_triangles, ==, 8);
  g_assert_cmpuint (l.draw->batches[1].n_triangles, ==, 4);
  g_assert_cmpuint (l.draw->n_vertices, ==, 24);
  assert_rows (&l, names, drawn);
  assert_box3 (l.draw->bounds_min, l.draw->bounds_max, -1, -1, 0, 1, 1, 2);
  loaded_clear (&l);
}

static void
test_tree (void)
{
  Loaded l = { 0 };
  static const char *const names[] = { "FOLIAGE", NULL };
  static const gboolean drawn[] = { TRUE };
  g_autoptr(NresArchive) library = load_archive ("Material.lib");
  g_autoptr(NresArchive) textures = load_archive ("Textures.lib");
  g_autoptr(Mat0Material) foliage = NULL;
  g_autoptr(TexmImage) leaves = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(GBytes) tex = NULL;
  g_autofree guint8 *rgba = NULL;
  gint index;
  guint w, h, clear = 0, opaque = 0;

  load_model ("static.rlb", "tree.msh", &l);
  g_assert_cmpuint (l.draw->n_batches, ==, 1);
  g_assert_cmpuint (l.draw->n_triangles, ==, 4);
  assert_rows (&l, names, drawn);
  assert_box3 (l.draw->bounds_min, l.draw->bounds_max, -1.5, -1.5, 0, 1.5, 1.5, 4);

  /* FOLIAGE is see-through (blend index 1) over LEAVES.0, an 8888
   * texture whose texels are cut out (alpha 0) or opaque */
  index = nres_archive_find (library, "FOLIAGE");
  g_assert_cmpint (index, >=, 0);
  g_assert_cmpuint ((library->entries[index].attr1 >> 2) & 0xF, ==, 1);
  payload = nres_archive_payload_bytes (library, (guint) index);
  foliage = mat0_decode (g_bytes_get_data (payload, NULL), g_bytes_get_size (payload),
                         library->entries[index].attr2, "FOLIAGE", 0, NULL);
  g_assert_nonnull (foliage);
  g_assert_cmpstr ((const char *) foliage->phases[0].texture, ==, "LEAVES.0");
  index = nres_archive_find (textures, "LEAVES.0");
  g_assert_cmpint (index, >=, 0);
  tex = nres_archive_payload_bytes (textures, (guint) index);
  leaves = texm_parse (tex, "LEAVES.0", 0, NULL);
  g_assert_cmpuint (leaves->header.format, ==, 8888);
  rgba = texm_decode_rgba (leaves, 0, &w, &h);
  for (guint i = 0; i < w * h; i++)
    {
      g_assert_true (rgba[4 * i + 3] == 0 || rgba[4 * i + 3] == 255);
      clear += rgba[4 * i + 3] == 0;
      opaque += rgba[4 * i + 3] == 255;
    }
  g_assert_cmpuint (clear, >, w * h / 4);
  g_assert_cmpuint (opaque, >, w * h / 4);
  loaded_clear (&l);
}

/* Base, head, barrel, muzzle drawn; the cockpit and the head's damage
 * slot not; the root's key moves it (4, -3, 0) but it stays at the
 * origin; the barrel rests on frame 0 of its run, not its fallback. */
static void
test_turret (void)
{
  Loaded l = { 0 };
  static const char *const names[] = { "METAL_PLATE", "БРОНЯ_ЗЕЛЁНАЯ", "HALO_GLOW", "GLOW_PULSE", NULL };
  static const gboolean drawn[] = { TRUE, TRUE, TRUE, FALSE };
  const MshModel *m;

  load_model ("turrets.rlb", "turret.msh", &l);
  m = l.model;
  g_assert_cmpuint (m->n_nodes, ==, 5);
  g_assert_cmpstr (m->nodes[2].name, ==, "barrel");
  g_assert_cmpuint (m->n_slots, ==, 6);
  g_assert_cmpuint (m->n_batches, ==, 6);
  g_assert_cmpuint (l.draw->n_drawn_nodes, ==, 4);
  g_assert_cmpuint (l.draw->n_batches, ==, 4);
  g_assert_cmpuint (l.draw->n_triangles, ==, 50);
  g_assert_cmpuint (l.draw->batches[0].n_triangles, ==, 22);
  g_assert_cmpuint (l.draw->batches[1].n_triangles, ==, 12);
  g_assert_cmpuint (l.draw->batches[2].n_triangles, ==, 12);
  g_assert_cmpuint (l.draw->batches[3].n_triangles, ==, 4);
  g_assert_cmpuint (l.draw->batches[3].word, ==, MSH_BATCH_TRANSLUCENT);
  g_assert_cmpuint (l.draw->batch_draws[4], ==, 0);   /* the cockpit */
  g_assert_cmpuint (l.draw->batch_draws[5], ==, 0);   /* the damaged head */
  g_assert_cmpuint (m->nodes[1].slot[5], ==, 5);
  g_assert_true (m->nodes[4].flags & MSH_NODE_COCKPIT);
  g_assert_false (m->poses[4].drawn);
  assert_rows (&l, names, drawn);

  g_assert_cmpuint (m->n_frames, ==, 4);
  g_assert_cmpint (m->poses[2].key, ==, 3);
  g_assert_cmpuint (m->nodes[2].fallback_key, ==, 2);
  g_assert_cmpfloat_with_epsilon (m->poses[0].translation[0], 0, 1e-6);
  g_assert_cmpfloat_with_epsilon (m->poses[0].translation[1], 0, 1e-6);
  /* the head is 0.6 above the base, whatever the base's rotation */
  g_assert_cmpfloat_with_epsilon (m->poses[1].translation[2], 0.6, 1e-6);
  /* the base's rotation is kept: drawn +45° about Z, w = cos 22.5° */
  g_assert_cmpfloat_with_epsilon (m->poses[0].rotation[0], 0.9238795, 1e-4);
  g_assert_cmpfloat_with_epsilon (m->poses[0].rotation[3], 0.3826834, 1e-4);
  /* the barrel points up by 10° (its tip above its root), not 80° */
  g_assert_cmpfloat (l.draw->batches[2].box_max[2] - l.draw->batches[2].box_min[2], <, 0.6);
  g_assert_cmpfloat (l.draw->batches[2].box_max[2], >, 1.2);
  loaded_clear (&l);
}

/* Walls and roof lightmapped from the wear's only page, a see-through
 * window, an interior part behind it. */
static void
test_bunker (void)
{
  Loaded l = { 0 };
  static const char *const names[] = { "ROCK_WALL", "METAL_PLATE", "GLASS", "DEFAULT", "ATLAS_SIGN", NULL };
  static const gboolean drawn[] = { TRUE, TRUE, TRUE, TRUE, TRUE };
  g_autoptr(NresArchive) lightmaps = load_archive ("LightMap.lib");
  g_autoptr(TexmImage) page = NULL;
  g_autoptr(GBytes) payload = NULL;
  gint index;

  load_model ("fortif.rlb", "bunker.msh", &l);
  g_assert_cmpuint (l.model->n_nodes, ==, 2);
  g_assert_true (l.model->nodes[1].flags & MSH_NODE_INTERIOR);
  g_assert_cmpuint (l.draw->n_drawn_nodes, ==, 2);
  g_assert_cmpuint (l.draw->n_batches, ==, 5);
  g_assert_cmpuint (l.draw->n_triangles, ==, 22);
  g_assert_cmpuint (l.draw->batches[0].n_triangles, ==, 14);
  g_assert_cmpuint (l.draw->batches[0].word, ==, MSH_BATCH_LIGHTMAPPED);
  g_assert_cmpuint (l.draw->batches[1].word, ==, MSH_BATCH_LIGHTMAPPED);
  g_assert_cmpuint (l.draw->batches[2].word, ==, MSH_BATCH_TRANSLUCENT);
  g_assert_cmpuint (l.draw->batches[3].node, ==, 1);
  g_assert_cmpuint (l.draw->batches[4].node, ==, 1);
  g_assert_cmpint (msh_batch_lightmap_page (&l.model->batches[0], l.wear->n_lightmaps), ==, 0);
  g_assert_cmpint (msh_batch_lightmap_page (&l.model->batches[2], l.wear->n_lightmaps), ==, -1);
  g_assert_nonnull (l.draw->lightmap_uvs);
  assert_rows (&l, names, drawn);
  assert_box3 (l.draw->bounds_min, l.draw->bounds_max, -3, -2, 0, 3, 2, 2.5);

  g_assert_true (l.wear->has_lightmaps);
  g_assert_cmpuint (l.wear->n_lightmaps, ==, 1);
  g_assert_cmpstr (l.wear->lightmaps[0].name, ==, "bunker_lm.0");
  index = nres_archive_find (lightmaps, "bunker_lm.0");
  g_assert_cmpint (index, >=, 0);
  payload = nres_archive_payload_bytes (lightmaps, (guint) index);
  page = texm_parse (payload, "bunker_lm.0", 0, NULL);
  g_assert_nonnull (page);
  g_assert_cmpuint (page->header.format, ==, 565);
  g_assert_cmpuint (page->header.width, ==, 128);
  loaded_clear (&l);
}

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Every .rlb of the folder, every member: the models above and one table
 * without a model. */
static void
test_folder (void)
{
  g_autofree char *dir_path = game_path ("");
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) seen = g_string_new (NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".rlb"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autoptr(NresArchive) archive = load_archive (names->pdata[i]);

      for (guint e = 0; e < archive->n_entries; e++)
        {
          const NresEntry *entry = &archive->entries[e];

          g_string_append_printf (seen, "%s:%s:%s ", (char *) names->pdata[i], entry->name,
                                  entry->type_id == NRES_TYPE_MESH ? "MESH" :
                                  entry->type_id == NRES_TYPE_WEAR ? "WEAR" : "?");
          if (entry->type_id == NRES_TYPE_MESH)
            {
              g_autoptr(GBytes) bytes = nres_archive_payload_bytes (archive, e);
              g_autoptr(MshModel) model = msh_model_read (bytes, entry->data_offset, entry->name);

              print_problems (model->problems);
              g_assert_true (model->valid);
              g_assert_cmpuint (model->problems->len, ==, 0);
            }
          else if (entry->type_id == NRES_TYPE_WEAR)
            {
              g_autoptr(GBytes) bytes = nres_archive_payload_bytes (archive, e);
              g_autoptr(WearTable) wear = wear_table_read (bytes, entry->data_offset, entry->name);

              print_problems (wear->problems);
              g_assert_cmpuint (wear->problems->len, ==, 0);
              g_assert_cmpuint (wear->n_rows, >, 0);
            }
        }
    }
  g_assert_cmpstr (seen->str, ==,
                   "fortif.rlb:bunker.msh:MESH fortif.rlb:bunker.wea:WEAR "
                   "land.rlb:Land1.wea:WEAR "
                   "static.rlb:box.msh:MESH static.rlb:box.wea:WEAR "
                   "static.rlb:tree.msh:MESH static.rlb:tree.wea:WEAR "
                   "turrets.rlb:turret.msh:MESH turrets.rlb:turret.wea:WEAR ");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/msh-demo/box", test_box);
  g_test_add_func ("/core/msh-demo/tree", test_tree);
  g_test_add_func ("/core/msh-demo/turret", test_turret);
  g_test_add_func ("/core/msh-demo/bunker", test_bunker);
  g_test_add_func ("/core/msh-demo/folder", test_folder);

  return g_test_run ();
}
