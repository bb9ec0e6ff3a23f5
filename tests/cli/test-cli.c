/* test-cli.c - mat0tool commands, exit codes and JSON (cli.md) */
#define _GNU_SOURCE 1   /* unshare, CLONE_NEWNS */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mat0.h"
#include "nres.h"
#include "phase-eval.h"
#include "cli-support.h"
#include "test-support.h"
#include "texm.h"
#include "texm-alpha.h"

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  if (tmp_dir == NULL)
    {
      g_autoptr(GError) error = NULL;
      tmp_dir = g_dir_make_tmp ("mat0tool-test-XXXXXX", &error);
      g_assert_no_error (error);
    }
  return g_build_filename (tmp_dir, name, NULL);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static char *
write_tmp (const char *name, GBytes *bytes)
{
  char *path = tmp_path (name);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return path;
}

static JsonNode *
parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* An archive holding the worked example of evaluator.md as "WORKED" and a
 * plain material "DEFAULT". */
static char *
worked_library (void)
{
  g_autoptr(GBytes) worked = test_worked_example_payload (0);
  g_autoptr(GByteArray) plain = g_byte_array_new ();
  g_autoptr(GBytes) archive = NULL;
  guint8 p[18] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 255 };
  TestEntrySpec specs[2] = {
    { 0x3054414D, 0x41, 6, 0, "WORKED", NULL, 0, 0 },
    { 0x3054414D, 0x01, 6, 0, "DEFAULT", NULL, 0, 5 },
  };

  test_put_u16 (plain, 1);
  test_put_u16 (plain, 0);
  test_put_u8 (plain, 255);
  test_put_u8 (plain, 255);
  test_put_u32 (plain, 0x3F800000);
  test_put_u32 (plain, 0);
  test_put_phase (plain, p, "ROCK.0");

  specs[0].payload = g_bytes_get_data (worked, &specs[0].size);
  specs[1].payload = plain->data;
  specs[1].size = plain->len;
  archive = test_build_archive (specs, 2, TRUE);
  return write_tmp ("worked.lib", archive);
}

static void
test_usage (void)
{
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 };

  run_tool (&r1, NULL);
  g_assert_cmpint (r1.status, ==, 2);
  run_tool (&r2, "frobnicate", "x", NULL);
  g_assert_cmpint (r2.status, ==, 2);
  g_assert_nonnull (strstr (r2.err, "unknown command 'frobnicate'"));
  run_tool (&r3, "info", "/nonexistent/Material.lib", NULL);
  g_assert_cmpint (r3.status, ==, 2);
  g_assert_true (g_str_has_prefix (r3.err, "/nonexistent/Material.lib: "));
  run_tool (&r4, "dump", g_getenv ("DEMO_LIB"), NULL);   /* no --json */
  g_assert_cmpint (r4.status, ==, 2);
}

static void
test_eval_worked_example (void)
{
  g_autofree char *lib = worked_library ();
  g_auto(Run) r = { 0 }, r2 = { 0 }, r3 = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o;
  JsonArray *f;

  run_tool (&r, "eval", lib, "worked", "--block", "0", "--time", "250", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  root = parse_json (r.out);
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "material"), ==, "WORKED");
  g_assert_cmpint (json_object_get_int_member (o, "cycle"), ==, 1000);
  g_assert_cmpint (json_object_get_int_member (o, "r"), ==, 250);
  g_assert_cmpint (json_object_get_int_member (o, "segment"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "next"), ==, 1);
  g_assert_cmpfloat (json_object_get_double_member (o, "alpha"), ==, 0.5);
  g_assert_cmpint (json_object_get_int_member (o, "phase_a"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "phase_b"), ==, 1);
  g_assert_false (json_object_get_boolean_member (o, "hold"));
  f = json_object_get_array_member (o, "f");
  g_assert_cmpuint (json_array_get_length (f), ==, 16);
  g_assert_cmpfloat (json_array_get_double_element (f, 0), ==, 0.5);
  g_assert_cmpfloat (json_array_get_double_element (f, 2), ==, 0.5);
  g_assert_cmpfloat (json_array_get_double_element (f, 3), ==, 0.0);
  g_assert_cmpint (json_object_get_int_member (o, "i18"), ==, -1);
  /* %.9g floats, as cli.md says */
  g_assert_nonnull (strstr (r.out, "\"alpha\": 0.5,"));

  /* mode 2 would hold; the same library at 1250 in loop mode = 250 */
  run_tool (&r2, "eval", lib, "WORKED", "--block", "0", "--time", "1300", "--start", "50", "--json", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_nonnull (strstr (r2.out, "\"r\": 250,"));

  run_tool (&r3, "eval", lib, "WORKED", "--t", "0.75", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  g_assert_true (g_str_has_prefix (r3.out, "WORKED block 0 (loop): period 1000 ms, r 750, "
                                   "key 1 -> 0, alpha 0.5, phase 1 -> 0\n"
                                   "  blends: Diffuse RGB\n"
                                   "  Diffuse    RGBA 0.5 0.5 0.5 1\n"
                                   "  Self-light RGBA 0 0 0 0\n"));
  g_assert_nonnull (strstr (r3.out, "  Specular power 0  Texture slot -1  Texture cell (+72) -1\n"));
}

/* t = 1 and the ping-pong turnaround: r = period ends the last interval */
static void
test_eval_period_end (void)
{
  g_autofree char *lib = worked_library ();
  g_auto(Run) r1 = { 0 }, r2 = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o;
  JsonArray *f;

  run_tool (&r1, "eval", lib, "WORKED", "--t", "1", "--json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  root = parse_json (r1.out);
  o = json_node_get_object (root);
  g_assert_cmpint (json_object_get_int_member (o, "cycle"), ==, 1000);
  g_assert_cmpint (json_object_get_int_member (o, "r"), ==, 1000);
  g_assert_cmpint (json_object_get_int_member (o, "segment"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o, "next"), ==, 0);
  g_assert_cmpfloat (json_object_get_double_member (o, "alpha"), ==, 1.0);
  f = json_object_get_array_member (o, "f");
  /* phase 0 reached in RGB; diffuse A copied from phase 1 */
  g_assert_cmpfloat (json_array_get_double_element (f, 0), ==, 0.0);
  g_assert_cmpfloat (json_array_get_double_element (f, 3), ==, 1.0);

  /* --t out of range: evaluated at 0.5 with a note */
  run_tool (&r2, "eval", lib, "WORKED", "--t", "nan", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_nonnull (strstr (r2.out, "period 1000 ms, r 500, key 1 -> 0, alpha 0, phase 1 -> 0"));
  g_assert_cmpstr (r2.err, ==, "mat0tool: note: --t nan is outside [0, 1]: evaluated at 0.5, as the game does\n");

  /* inf and -1 too; a word is a usage error */
  {
    g_auto(Run) r3 = { 0 }, r4 = { 0 }, r5 = { 0 };

    run_tool (&r3, "eval", lib, "WORKED", "--t", "inf", NULL);
    g_assert_cmpint (r3.status, ==, 0);
    g_assert_nonnull (strstr (r3.out, ", r 500, "));
    run_tool (&r4, "eval", lib, "WORKED", "--t", "-1", NULL);
    g_assert_cmpint (r4.status, ==, 0);
    g_assert_nonnull (strstr (r4.out, ", r 500, "));
    g_assert_nonnull (strstr (r4.err, "note: --t -1 is outside [0, 1]"));
    run_tool (&r5, "eval", lib, "WORKED", "--t", "half", NULL);
    g_assert_cmpint (r5.status, ==, 2);
    g_assert_nonnull (strstr (r5.err, "--t: expected a number, found half"));
  }
}

/* A mode-3 track at six times, each with its own --offset R: mat0tool
 * gives what the core evaluator gives, field by field, and the position
 * is R % period whatever the time. */
static void
test_eval_random_agrees (void)
{
  static const struct {
    guint32 time;
    guint32 start;
    guint32 offset;
  } calls[] = {
    { 0, 0, 0 },
    { 1, 0, 700 },
    { 999, 0, 1234567 },
    { 5000, 4000, 1234567 },
    { 123456, 77, 1220 + 200 },
    { 4294967295u, 1, 4294967295u },
  };
  static const Mat0Key keys[] = { { 0, 90, 0 }, { 1, 130, 0 }, { 2, 290, 0 }, { 1, 320, 0 }, { 0, 610, 3 } };
  g_autoptr(GByteArray) payload = g_byte_array_new ();
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(Mat0Material) m = NULL;
  g_autofree char *lib = NULL;
  PhaseRuntime rt[3];
  PhaseEvalInput input = { 0 };
  TestEntrySpec spec = { NRES_TYPE_MAT0, 0, 6, 0, "FLICKER", NULL, 0, 0 };
  g_autoptr(GError) error = NULL;
  guint n_textured = 0, n_untextured = 0;

  test_put_u16 (payload, 3);
  test_put_u16 (payload, 1);
  test_put_u8 (payload, 255);
  test_put_u8 (payload, 255);
  test_put_u32 (payload, 0x3F800000);
  test_put_u32 (payload, 0);
  for (guint i = 0; i < 3; i++)
    {
      guint8 p[18];

      for (guint j = 0; j < 18; j++)
        p[j] = (guint8) (7 + 83 * i + 13 * j);
      p[3] = (guint8) (40 + 30 * i);
      p[17] = (guint8) i;
      test_put_phase (payload, p, i == 2 ? "" : "LAMP.0");
    }
  test_put_u32 (payload, (0x1Fu << 3) | 3);
  test_put_u16 (payload, G_N_ELEMENTS (keys));
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      test_put_u16 (payload, keys[k].k0);
      test_put_u16 (payload, keys[k].k1);
      test_put_u16 (payload, keys[k].k2);
    }
  spec.payload = payload->data;
  spec.size = payload->len;
  archive = test_build_archive (&spec, 1, TRUE);
  lib = write_tmp ("random.lib", archive);

  m = mat0_decode (payload->data, payload->len, 6, "FLICKER", 0, &error);
  g_assert_no_error (error);
  phase_eval_expand_material (m, rt);
  input.phases = rt;
  input.n_phases = m->n_phases;
  input.block = &m->blocks[0];

  for (guint c = 0; c < G_N_ELEMENTS (calls); c++)
    {
      g_autofree char *time = g_strdup_printf ("%u", calls[c].time);
      g_autofree char *start = g_strdup_printf ("%u", calls[c].start);
      g_autofree char *offset = g_strdup_printf ("%u", calls[c].offset);
      g_auto(Run) r = { 0 };
      g_autoptr(JsonNode) root = NULL;
      PhaseEvalResult want;
      JsonObject *o;
      JsonArray *f;

      phase_eval_at_time (&input, calls[c].time, calls[c].start, calls[c].offset, &want);
      g_assert_cmpuint (want.mode, ==, 3);
      g_assert_cmpuint (want.r, ==, calls[c].offset % 610);

      run_tool (&r, "eval", lib, "FLICKER", "--block", "0", "--time", time,
                "--start", start, "--offset", offset, "--json", NULL);
      g_assert_cmpstr (r.err, ==, "");
      g_assert_cmpint (r.status, ==, 0);
      root = parse_json (r.out);
      o = json_node_get_object (root);
      g_assert_cmpstr (json_object_get_string_member (o, "material"), ==, "FLICKER");
      g_assert_cmpint (json_object_get_int_member (o, "block"), ==, 0);
      g_assert_cmpint (json_object_get_int_member (o, "mode"), ==, want.mode);
      g_assert_cmpint (json_object_get_int_member (o, "cycle"), ==, want.period);
      g_assert_cmpint (json_object_get_int_member (o, "r"), ==, want.r);
      g_assert_cmpint (json_object_get_int_member (o, "segment"), ==, want.segment);
      g_assert_cmpint (json_object_get_int_member (o, "next"), ==, want.next);
      g_assert_cmpfloat ((float) json_object_get_double_member (o, "alpha"), ==, want.alpha);
      g_assert_cmpint (json_object_get_int_member (o, "phase_a"), ==, want.phase_a);
      g_assert_cmpint (json_object_get_int_member (o, "phase_b"), ==, want.phase_b);
      g_assert_cmpint (json_object_get_boolean_member (o, "hold"), ==, want.hold);
      g_assert_cmpint (json_object_get_boolean_member (o, "unknown_mode"), ==, want.unknown_mode);
      g_assert_cmpint (json_object_get_boolean_member (o, "bad_key"), ==, want.bad_key);
      f = json_object_get_array_member (o, "f");
      g_assert_cmpuint (json_array_get_length (f), ==, 16);
      for (guint i = 0; i < 16; i++)
        g_assert_cmpfloat ((float) json_array_get_double_element (f, i), ==, want.value.f[i]);
      g_assert_cmpfloat ((float) json_object_get_double_member (o, "power"), ==, want.value.power);
      g_assert_cmpint (json_object_get_int_member (o, "tex_slot"), ==, want.value.tex_slot);
      g_assert_cmpint (json_object_get_int_member (o, "i18"), ==, want.value.i18);
      /* phases 0 and 1 are textured, phase 2 is not: "texture" is null */
      if (want.value.tex_slot >= 0)
        g_assert_cmpstr (json_object_get_string_member (o, "texture"), ==, "LAMP.0");
      else
        g_assert_true (json_object_get_null_member (o, "texture"));
      n_untextured += want.value.tex_slot < 0;
      n_textured += want.value.tex_slot >= 0;
    }
  /* the six offsets land on both kinds of phase */
  g_assert_cmpuint (n_textured, >, 0);
  g_assert_cmpuint (n_untextured, >, 0);
}

/* The demo's tracks as the spec describes them, through the CLI */
static JsonObject *
eval_demo (Run        *run,
           JsonNode  **root,
           const char *name,
           const char *block,
           const char *time)
{
  run_tool (run, "eval", g_getenv ("DEMO_LIB"), name, "--block", block, "--time", time,
            "--json", NULL);
  g_assert_cmpint (run->status, ==, 0);
  *root = parse_json (run->out);
  return json_node_get_object (*root);
}

static void
test_eval_demo (void)
{
  static const char *const flip_times[] = { "0", "249", "250", "500", "999", "1000" };
  static const gint flip_cells[] = { 0, 0, 1, 2, 3, 0 };
  static const char *const fade_times[] = { "0", "75", "150", "740", "751", "100000" };
  /* f7 = p3 * 0.01f, blended as A + (B - A) * alpha in float32 */
  const float fade_alpha[] = {
    0.0f,
    0.0f + (60 * 0.01f - 0.0f) * 0.5f,
    60 * 0.01f,
    95 * 0.01f + (100 * 0.01f - 95 * 0.01f) * (140.0f / 150.0f),
    1.0f,
    1.0f,
  };

  /* HELPER_RAY: the HLP_RAY_R shape (0, 50) (1, 100) (2, 150) (1, 200) */
  {
    g_auto(Run) r = { 0 }, r2 = { 0 };
    g_autoptr(JsonNode) root = NULL;
    g_autoptr(JsonNode) root2 = NULL;
    JsonObject *o = eval_demo (&r, &root, "HELPER_RAY", "0", "25");
    JsonArray *f = json_object_get_array_member (o, "f");

    g_assert_cmpint (json_object_get_int_member (o, "cycle"), ==, 200);
    g_assert_cmpint (json_object_get_int_member (o, "segment"), ==, 0);
    g_assert_cmpfloat (json_object_get_double_member (o, "alpha"), ==, 0.5);
    /* the self-light halfway from phase 0 (0, 40, 200) to 1 (255, 120, 100) */
    g_assert_cmpfloat ((float) json_array_get_double_element (f, 4), ==, 0.5f);
    g_assert_cmpfloat ((float) json_array_get_double_element (f, 5), ==, 0.313725471f);
    g_assert_cmpfloat ((float) json_array_get_double_element (f, 6), ==, 0.588235319f);
    g_assert_cmpint (json_object_get_int_member (o, "i18"), ==, 0);
    g_assert_cmpstr (json_object_get_string_member (o, "texture"), ==, "ATLAS4.0");

    o = eval_demo (&r2, &root2, "HELPER_RAY", "0", "175");
    g_assert_cmpint (json_object_get_int_member (o, "segment"), ==, 3);
    g_assert_cmpint (json_object_get_int_member (o, "phase_a"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (o, "phase_b"), ==, 0);
    g_assert_cmpint (json_object_get_int_member (o, "i18"), ==, 1);
  }

  /* FLIPBOOK: cells 0, 1, 2, 3 every 250 ms, nothing blends */
  for (guint i = 0; i < G_N_ELEMENTS (flip_times); i++)
    {
      g_auto(Run) r = { 0 };
      g_autoptr(JsonNode) root = NULL;
      JsonObject *o = eval_demo (&r, &root, "FLIPBOOK", "0", flip_times[i]);

      g_assert_cmpint (json_object_get_int_member (o, "cycle"), ==, 1000);
      g_assert_cmpint (json_object_get_int_member (o, "i18"), ==, flip_cells[i]);
      g_assert_cmpfloat (json_array_get_double_element (json_object_get_array_member (o, "f"), 0), ==, 1.0);
    }

  /* FADE_IN: the ambient alpha 0, 60, 80, 90, 95, 100 blended, then held */
  for (guint i = 0; i < G_N_ELEMENTS (fade_times); i++)
    {
      g_auto(Run) r = { 0 };
      g_autoptr(JsonNode) root = NULL;
      JsonObject *o = eval_demo (&r, &root, "FADE_IN", "0", fade_times[i]);
      JsonArray *f = json_object_get_array_member (o, "f");

      g_assert_cmpint (json_object_get_int_member (o, "cycle"), ==, 751);
      g_assert_cmpfloat ((float) json_array_get_double_element (f, 7), ==, fade_alpha[i]);
      g_assert_cmpint (json_object_get_boolean_member (o, "hold"), ==, i >= 4);
    }

  /* INSIGNIA_TRACKS: two alternative tracks on one material */
  {
    g_auto(Run) r0 = { 0 }, r1 = { 0 };
    g_autoptr(JsonNode) root0 = NULL;
    g_autoptr(JsonNode) root1 = NULL;
    JsonObject *o0 = eval_demo (&r0, &root0, "INSIGNIA_TRACKS", "0", "600");
    JsonObject *o1 = eval_demo (&r1, &root1, "INSIGNIA_TRACKS", "1", "600");

    g_assert_cmpint (json_object_get_int_member (o0, "i18"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (o1, "i18"), ==, 3);
  }

  /* the text output takes its names from the table of meanings */
  {
    g_auto(Run) r = { 0 };

    run_tool (&r, "eval", g_getenv ("DEMO_LIB"), "UNKNOWN_MODE", "--time", "250", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_str_has_prefix (r.out, "UNKNOWN_MODE block 0 (unknown (5)): period 1000 ms, "
                                     "r 250, key 0 -> 1, alpha 0.5, phase 0 -> 1, unknown mode "
                                     "evaluated as loop\n"
                                     "  blends: Diffuse RGB, unknown bits 0x20\n"));
  }
}

/* The position r that eval reports is the game's: the demo's
 * WATER_SURFACE (ping-pong over 3000 ms) runs back in odd periods, a once
 * track holds its end, and the start wraps as a uint32. */
static void
test_eval_positions (void)
{
  static const struct {
    const char *name;
    const char *time;
    const char *start;
    gint64      r;
    gint        segment;
    gboolean    hold;
  } cases[] = {
    { "WATER_SURFACE", "0", "0", 0, 0, FALSE },
    { "WATER_SURFACE", "1633", "0", 1633, 1, FALSE },
    { "WATER_SURFACE", "2999", "0", 2999, 1, FALSE },
    /* the turnaround: the end of the last interval */
    { "WATER_SURFACE", "3000", "0", 3000, 1, FALSE },
    { "WATER_SURFACE", "3001", "0", 2999, 1, FALSE },
    /* 4.633 s in: 1633 ms into the way back */
    { "WATER_SURFACE", "4633", "0", 1367, 0, FALSE },
    { "WATER_SURFACE", "6000", "0", 0, 0, FALSE },
    { "WATER_SURFACE", "6001", "0", 1, 0, FALSE },
    { "WATER_SURFACE", "10633", "6000", 1367, 0, FALSE },
    /* a start after now: delta = 4633 + 1 */
    { "WATER_SURFACE", "4633", "4294967295", 1366, 0, FALSE },
    /* 4294967295 = 1431655 * 3000 + 2295, an odd period */
    { "WATER_SURFACE", "4294967295", "0", 705, 0, FALSE },
    /* FADE_IN, once over 751 ms: held at the end from 751 on */
    { "FADE_IN", "750", "0", 750, 5, FALSE },
    { "FADE_IN", "751", "0", 751, 5, TRUE },
    { "FADE_IN", "1502", "0", 751, 5, TRUE },
    { "FADE_IN", "4294967295", "0", 751, 5, TRUE },
    /* FLIPBOOK, a loop of 1000 ms */
    { "FLIPBOOK", "1000", "0", 0, 0, FALSE },
    { "FLIPBOOK", "2250", "0", 250, 1, FALSE },
    { "FLIPBOOK", "4294967295", "0", 295, 1, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) r = { 0 };
      g_auto(Run) text = { 0 };
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *line = NULL;
      JsonObject *o;

      run_tool (&r, "eval", g_getenv ("DEMO_LIB"), cases[i].name, "--block", "0", "--time",
                cases[i].time, "--start", cases[i].start, "--json", NULL);
      g_assert_cmpint (r.status, ==, 0);
      root = parse_json (r.out);
      o = json_node_get_object (root);
      g_assert_cmpint (json_object_get_int_member (o, "r"), ==, cases[i].r);
      g_assert_cmpint (json_object_get_int_member (o, "segment"), ==, cases[i].segment);
      g_assert_cmpint (json_object_get_boolean_member (o, "hold"), ==, cases[i].hold);
      /* the very function the views show positions from */
      {
        guint64 now = g_ascii_strtoull (cases[i].time, NULL, 10);
        guint64 start = g_ascii_strtoull (cases[i].start, NULL, 10);

        g_assert_cmpint (json_object_get_int_member (o, "r"), ==,
                         phase_eval_position ((guint) json_object_get_int_member (o, "mode"),
                                              (guint32) json_object_get_int_member (o, "cycle"),
                                              (guint32) (now - start), 0, NULL));
      }

      run_tool (&text, "eval", g_getenv ("DEMO_LIB"), cases[i].name, "--block", "0", "--time",
                cases[i].time, "--start", cases[i].start, NULL);
      g_assert_cmpint (text.status, ==, 0);
      line = g_strdup_printf (", r %" G_GINT64_FORMAT ", ", cases[i].r);
      g_assert_nonnull (strstr (text.out, line));
    }
}

static void
test_eval_errors (void)
{
  g_autofree char *lib = worked_library ();
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 };

  run_tool (&r1, "eval", lib, "WORKED", "--block", "3", "--time", "0", NULL);
  g_assert_cmpint (r1.status, ==, 2);
  run_tool (&r2, "eval", lib, "NOPE", "--time", "0", NULL);
  g_assert_cmpint (r2.status, ==, 1);
  run_tool (&r3, "eval", lib, "WORKED", "--time", "0", "--t", "0.5", NULL);
  g_assert_cmpint (r3.status, ==, 2);
}

static void
test_resolve (void)
{
  g_autofree char *lib = worked_library ();
  g_auto(Run) r1 = { 0 }, r2 = { 0 };

  run_tool (&r1, "resolve", lib, "Worked", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_cmpstr (r1.out, ==, "exact WORKED\n");
  run_tool (&r2, "resolve", lib, "MISSING", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_cmpstr (r2.out, ==, "default DEFAULT\n");
}

static void
test_set_changes_only_the_edited_bytes (void)
{
  g_autofree char *lib = worked_library ();
  g_autofree char *out = tmp_path ("set.lib");
  g_autoptr(GBytes) before = test_load_file (lib);
  g_autoptr(GBytes) after = NULL;
  g_auto(Run) r = { 0 };
  const guint8 *a, *b;
  gsize len;

  /* phase[1].p[5] of WORKED: payload at 16, prefix 4 + 10, phase 1 at +34 */
  run_tool (&r, "set", lib, "WORKED", "phase[1].p[5]=128", "block[0].key[1].k1=750",
            "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 0);
  after = test_load_file (out);
  a = g_bytes_get_data (before, &len);
  b = g_bytes_get_data (after, NULL);
  g_assert_cmpuint (g_bytes_get_size (after), ==, len);
  for (gsize i = 0; i < len; i++)
    {
      if (i == 16 + 14 + 34 + 5)
        g_assert_cmpuint (b[i], ==, 128);
      else if (i == 16 + 14 + 68 + 4 + 2 + 6 + 2)
        g_assert_cmpuint (test_get_u16 (b + i), ==, 750);
      else if (i == 16 + 14 + 68 + 4 + 2 + 6 + 3)
        continue;
      else
        g_assert_cmpuint (a[i], ==, b[i]);
    }
}

static void
test_set_in_place_is_atomic (void)
{
  g_autofree char *lib = worked_library ();
  g_autoptr(GBytes) before = test_load_file (lib);
  g_autoptr(GBytes) after = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 };
  g_autofree char *dir = g_path_get_dirname (lib);
  g_autoptr(GDir) d = NULL;
  const char *name;

  /* an invalid assignment leaves the file alone */
  run_tool (&r1, "set", lib, "WORKED", "phase[9].p[0]=1", "-o", lib, NULL);
  g_assert_cmpint (r1.status, ==, 2);
  g_assert_nonnull (strstr (r1.err, "expected a phase index below 2, found 9"));
  after = test_load_file (lib);
  g_assert_true (g_bytes_equal (before, after));
  g_clear_pointer (&after, g_bytes_unref);

  run_tool (&r2, "set", lib, "WORKED", "attr1=0x40", "-o", lib, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  after = test_load_file (lib);
  g_assert_cmpuint (test_get_u32 ((const guint8 *) g_bytes_get_data (after, NULL) +
                                  g_bytes_get_size (after) - 2 * 64 + 4), ==, 0x40);
  /* no temporary file is left behind */
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL)
    g_assert_false (name[0] == '.');
}

static void
test_bad_input (void)
{
  g_autofree char *lib = worked_library ();
  g_autoptr(GBytes) good = test_load_file (lib);
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  g_autofree char *bad_path = NULL;
  g_autoptr(GBytes) bad_bytes = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autofree char *out = tmp_path ("never.lib");
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 };

  /* WORKED's animBlockCount (payload offset 2, file offset 18) set to 25 */
  g_byte_array_append (bad, g_bytes_get_data (good, NULL), g_bytes_get_size (good));
  bad->data[18] = 25;
  bad_bytes = g_bytes_new (bad->data, bad->len);
  bad_path = write_tmp ("bad.lib", bad_bytes);

  run_tool (&r1, "check", bad_path, NULL);
  g_assert_cmpint (r1.status, ==, 1);
  g_assert_nonnull (strstr (r1.out, "error: "));
  g_assert_nonnull (strstr (r1.out, ": WORKED: offset 18: expected animBlockCount < 20"));
  run_tool (&r2, "list", bad_path, NULL);
  g_assert_cmpint (r2.status, ==, 1);
  g_assert_nonnull (strstr (r2.err, "WORKED: offset 18:"));
  run_tool (&r3, "roundtrip", bad_path, "-o", out, NULL);
  g_assert_cmpint (r3.status, ==, 1);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  after = test_load_file (bad_path);
  g_assert_true (g_bytes_equal (after, bad_bytes));

  /* a truncated archive */
  g_byte_array_set_size (bad, 20);
  g_clear_pointer (&bad_bytes, g_bytes_unref);
  bad_bytes = g_bytes_new (bad->data, bad->len);
  g_free (bad_path);
  bad_path = write_tmp ("short.lib", bad_bytes);
  run_tool (&r4, "info", bad_path, NULL);
  g_assert_cmpint (r4.status, ==, 1);
  g_assert_true (g_str_has_prefix (r4.err, bad_path));
  g_assert_nonnull (strstr (r4.err, "offset "));
}

static void
roundtrip_file (const char *lib)
{
  g_autofree char *base = g_path_get_basename (lib);
  g_autofree char *out = tmp_path (base);
  g_autoptr(GBytes) a = test_load_file (lib);
  g_autoptr(GBytes) b = NULL;
  g_auto(Run) r = { 0 };

  run_tool (&r, "roundtrip", lib, "-o", out, NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  b = test_load_file (out);
  g_assert_true (g_bytes_equal (a, b));
}

static void
test_roundtrip_demo (void)
{
  roundtrip_file (g_getenv ("DEMO_LIB"));
}

static void
test_roundtrip_retail (void)
{
  roundtrip_file (g_getenv ("RETAIL_LIB"));
}

static void
test_roundtrip_stress (void)
{
  roundtrip_file (g_getenv ("STRESS_LIB"));
}

static void
test_dump_build_identity (void)
{
  const char *lib = g_getenv ("DEMO_LIB");
  g_autofree char *json = tmp_path ("demo.json");
  g_autofree char *out = tmp_path ("rebuilt.lib");
  g_autoptr(GBytes) a = test_load_file (lib);
  g_autoptr(GBytes) b = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 };

  run_tool (&r1, "dump", lib, "--json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_file_set_contents (json, r1.out, -1, &error);
  g_assert_no_error (error);
  /* the demo is built in canonical layout, so dump + build reproduces it */
  run_tool (&r2, "build", json, "-o", out, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  b = test_load_file (out);
  g_assert_true (g_bytes_equal (a, b));
}

static void
test_dump_demo_values (void)
{
  g_auto(Run) r = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *e, *meta, *flags;
  JsonArray *entries, *keys;

  run_tool (&r, "dump", g_getenv ("DEMO_LIB"), "OLD_VERSION3", "fade_out", "БРОНЯ_ЗЕЛЁНАЯ", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  root = parse_json (r.out);
  entries = json_object_get_array_member (json_node_get_object (root), "entries");
  g_assert_cmpuint (json_array_get_length (entries), ==, 3);

  e = json_array_get_object_element (entries, 0);
  g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, "OLD_VERSION3");
  g_assert_cmpint (json_object_get_int_member (e, "attr2"), ==, 3);
  meta = json_object_get_object_member (e, "meta");
  g_assert_cmpint (json_object_get_int_member (meta, "a"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (meta, "c_raw"), ==, 0x3F000000);
  g_assert_cmpfloat (json_object_get_double_member (meta, "c"), ==, 0.5);
  g_assert_cmpint (json_object_get_int_member (meta, "d"), ==, 0);
  g_assert_false (json_object_get_boolean_member (meta, "from_file"));

  e = json_array_get_object_element (entries, 1);
  g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, "FADE_OUT");
  keys = json_object_get_array_member (json_array_get_object_element (json_object_get_array_member (e, "blocks"), 0), "keys");
  g_assert_cmpint (json_array_get_int_element (json_array_get_array_element (keys, 0), 1), ==, 2000);
  /* once: the last key's interval is 1 ms, then the hold */
  g_assert_cmpint (json_array_get_int_element (json_array_get_array_element (keys, 1), 1), ==, 2001);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (json_object_get_array_member (e, "blocks"), 0), "header_raw"), ==, (0x11 << 3) | 2);

  e = json_array_get_object_element (entries, 2);
  g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, "БРОНЯ_ЗЕЛЁНАЯ");
  flags = json_object_get_object_member (e, "flags");
  g_assert_true (json_object_get_boolean_member (flags, "ext_texture_load"));
  g_assert_false (json_object_get_boolean_member (flags, "behaviour"));
}

static void
test_check_demo (void)
{
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o;
  JsonArray *diags;
  /* LINT_EXAMPLE shows every lint of a material on purpose; nothing else
   * in the demo has one */
  static const char *const want[] = {
    "texture-no-dot", "ambient-alpha", "palette-index", "zero-period",
    "key-phase-range", "key-time-order",
  };

  run_tool (&r1, "check", g_getenv ("DEMO_LIB"), NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_null (strstr (r1.out, "error:"));
  g_assert_nonnull (strstr (r1.out, "lint: "));
  g_assert_nonnull (strstr (r1.out, "LINT_EXAMPLE: offset "));
  g_assert_nonnull (strstr (r1.out, "expected the time of key 2 of anim block 1 to be greater "
                            "than 1000 ms (the previous key's time), found 1000 ms"));
  g_assert_nonnull (strstr (r1.err, ": 0 errors, 6 lints\n"));
  run_tool (&r2, "check", g_getenv ("DEMO_LIB"), "--strict", NULL);
  g_assert_cmpint (r2.status, ==, 1);
  run_tool (&r3, "check", g_getenv ("DEMO_LIB"), "--json", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  root = parse_json (r3.out);
  o = json_node_get_object (root);
  g_assert_cmpint (json_object_get_int_member (o, "errors"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "lints"), ==, G_N_ELEMENTS (want));
  diags = json_object_get_array_member (o, "diagnostics");
  g_assert_cmpuint (json_array_get_length (diags), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      JsonObject *d = json_array_get_object_element (diags, i);

      g_assert_cmpstr (json_object_get_string_member (d, "name"), ==, "LINT_EXAMPLE");
      g_assert_cmpstr (json_object_get_string_member (d, "check"), ==, want[i]);
    }
}

static void
test_info_and_list (void)
{
  g_auto(Run) r1 = { 0 }, r2 = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonArray *list;

  run_tool (&r1, "info", g_getenv ("RETAIL_LIB"), NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_nonnull (strstr (r1.out, "entries: 905\n  MAT0: 905\n"));
  g_assert_nonnull (strstr (r1.out, "material versions (attr2): 6: 905\n"));
  g_assert_nonnull (strstr (r1.out, "(at most 29 in one material)"));
  g_assert_nonnull (strstr (r1.out, "(at most 8;"));
  g_assert_nonnull (strstr (r1.out, "sort index: canonical\n"));
  /* the retail mix of tracks and blend modes (formats.md 2.3, 2.4) */
  g_assert_nonnull (strstr (r1.out, "animation blocks: 962 (at most 8; 905 animated materials)\n"));
  g_assert_nonnull (strstr (r1.out, "track modes: loop 821, ping-pong 96, once 44, random 1\n"));
  g_assert_nonnull (strstr (r1.out, "blend (attr1 bits 2..5): Opaque 471, See-through 220, Additive 214\n"));

  run_tool (&r2, "list", g_getenv ("DEMO_LIB"), "--json", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  root = parse_json (r2.out);
  list = json_node_get_array (root);
  g_assert_cmpuint (json_array_get_length (list), >=, 20);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (list, 0), "name"), ==, "DEFAULT");

  /* the text list reads attr1's blend index */
  {
    g_auto(Run) r3 = { 0 };
    g_auto(GStrv) lines = NULL;
    guint seen = 0;

    run_tool (&r3, "list", g_getenv ("DEMO_LIB"), NULL);
    g_assert_cmpint (r3.status, ==, 0);
    lines = g_strsplit (r3.out, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      {
        if (strstr (lines[i], " HALO_GLOW ") != NULL)
          {
            g_assert_true (g_str_has_suffix (lines[i], "attr1=0x00000008 attr2=6 attr3=0  size=100  "
                                             "phases=2 blocks=1  blend: Additive"));
            seen++;
          }
        if (strstr (lines[i], " SMOKE_VEIL ") != NULL)
          {
            g_assert_true (g_str_has_suffix (lines[i], "blend: See-through"));
            seen++;
          }
        if (strstr (lines[i], " DEFAULT ") != NULL)
          {
            g_assert_true (g_str_has_suffix (lines[i], "blend: Opaque"));
            seen++;
          }
      }
    g_assert_cmpuint (seen, ==, 3);
  }

  /* the names are padded by characters, not bytes: the type column lines
   * up under a Cyrillic name too (each of its letters is two bytes) */
  {
    g_auto(Run) r4 = { 0 };
    g_auto(GStrv) lines = NULL;
    glong column = -1;
    gboolean cyrillic = FALSE;

    run_tool (&r4, "list", g_getenv ("DEMO_LIB"), NULL);
    g_assert_cmpint (r4.status, ==, 0);
    lines = g_strsplit (r4.out, "\n", -1);
    for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
      {
        const char *type = strstr (lines[i], "  MAT0  ");
        glong here;

        g_assert_nonnull (type);
        g_assert_true (g_utf8_validate (lines[i], -1, NULL));
        here = g_utf8_pointer_to_offset (lines[i], type);
        if (column < 0)
          column = here;
        g_assert_cmpint (here, ==, column);
        if (strstr (lines[i], "  БРОНЯ_ЗЕЛЁНАЯ ") != NULL)
          {
            /* 13 letters, 24 bytes, padded to 35 columns */
            g_assert_nonnull (strstr (lines[i], "  БРОНЯ_ЗЕЛЁНАЯ                        MAT0  "));
            cyrillic = TRUE;
          }
      }
    g_assert_true (cyrillic);
    g_assert_cmpint (column, ==, 5 + 2 + 35);
  }
}

static void
test_repack_canonical (void)
{
  g_autofree char *lib = worked_library ();
  g_autofree char *out = tmp_path ("repacked.lib");
  g_autoptr(GBytes) a = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 };
  const guint8 *d;

  /* the worked library has 5 unindexed bytes after DEFAULT's payload */
  run_tool (&r1, "repack", lib, "-o", out, NULL);
  g_assert_cmpint (r1.status, ==, 0);
  a = test_load_file (out);
  d = g_bytes_get_data (a, NULL);
  /* WORKED: 100 bytes at 16, padded to 120; DEFAULT: 48 bytes at 120;
   * the 5 unindexed bytes are dropped -> directory at 168 */
  g_assert_cmpuint (g_bytes_get_size (a), ==, 168 + 2 * 64);
  g_assert_cmpuint (test_get_u32 (d + 168 + 56), ==, 16);
  g_assert_cmpuint (test_get_u32 (d + 168 + 64 + 56), ==, 120);
  g_assert_cmpuint (test_get_u32 (d + 12), ==, 168 + 2 * 64);
  run_tool (&r2, "check", out, NULL);
  g_assert_cmpint (r2.status, ==, 0);
}

static void
test_build_rejects_bad_json (void)
{
  g_autofree char *json = tmp_path ("bad.json");
  g_autofree char *out = tmp_path ("bad-build.lib");
  g_autoptr(GError) error = NULL;
  g_auto(Run) r = { 0 };

  g_file_set_contents (json,
                       "{\"entries\": [{\"name\": \"X\", \"type\": \"MAT0\", \"attr2\": 6,"
                       " \"phases\": [{\"params\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,300]}],"
                       " \"blocks\": []}]}", -1, &error);
  g_assert_no_error (error);
  run_tool (&r, "build", json, "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "entries[0] (X).phases[0].params[17]: expected an integer 0..255"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

static void
test_textures (void)
{
  g_autofree char *dir = tmp_path ("png");
  g_autofree char *png = g_build_filename (dir, "ATLAS.0.png", NULL);
  g_autofree char *png4 = g_build_filename (dir, "ATLAS4.0.png", NULL);
  g_auto(Run) r = { 0 };

  run_tool (&r, "textures", g_getenv ("DEMO_TEXTURES"), "--png", dir, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "ATLAS.0"));
  g_assert_nonnull (strstr (r.out, "page 4 rects"));
  g_assert_nonnull (strstr (r.out, "    8  ATLAS4.0          format 8888  64x64  mips 7  page 4 rects\n"));
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (png4, G_FILE_TEST_IS_REGULAR));
}

/* The demo's test atlas: four flat cells, red, green, blue, yellow, in
 * Page order; and a texture with graded alpha for the see-through demo. */
static void
test_demo_textures (void)
{
  g_autoptr(GBytes) file = test_load_file (g_getenv ("DEMO_TEXTURES"));
  g_autoptr(GError) error = NULL;
  g_autoptr(NresArchive) archive = nres_archive_parse (file, &error);
  static const guint8 colours[4][4] = {
    { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 }, { 255, 255, 0, 255 },
  };
  static const TexmRect rects[4] = {
    { 0, 32, 0, 32 }, { 32, 32, 0, 32 }, { 0, 32, 32, 32 }, { 32, 32, 32, 32 },
  };

  g_assert_no_error (error);

  {
    gint index = nres_archive_find (archive, "ATLAS4.0");
    g_autoptr(GBytes) payload = NULL;
    g_autoptr(TexmImage) image = NULL;
    g_autofree guint8 *rgba = NULL;
    guint w = 0, h = 0;

    g_assert_cmpint (index, >=, 0);
    payload = nres_archive_payload_bytes (archive, (guint) index);
    image = texm_parse (payload, "ATLAS4.0", 0, &error);
    g_assert_no_error (error);
    g_assert_true (image->has_page);
    g_assert_cmpuint (image->n_rects, ==, 4);
    rgba = texm_decode_rgba (image, 0, &w, &h);
    g_assert_cmpuint (w, ==, 64);
    g_assert_cmpuint (h, ==, 64);
    for (guint c = 0; c < 4; c++)
      {
        g_assert_cmpint (image->rects[c].x, ==, rects[c].x);
        g_assert_cmpint (image->rects[c].w, ==, rects[c].w);
        g_assert_cmpint (image->rects[c].y, ==, rects[c].y);
        g_assert_cmpint (image->rects[c].h, ==, rects[c].h);
        /* every texel of the cell has the cell's colour */
        for (guint y = 0; y < (guint) rects[c].h; y++)
          for (guint x = 0; x < (guint) rects[c].w; x++)
            g_assert_cmpmem (rgba + ((gsize) (rects[c].y + y) * w + rects[c].x + x) * 4, 4,
                             colours[c], 4);
      }
  }

  /* SMOKE.0 (under SMOKE_VEIL): alpha 0 at the corner, more inside */
  {
    gint index = nres_archive_find (archive, "SMOKE.0");
    g_autoptr(GBytes) payload = NULL;
    g_autoptr(TexmImage) image = NULL;
    g_autofree guint8 *rgba = NULL;
    guint w = 0, h = 0;
    guint8 lo = 255, hi = 0;
    gboolean levels[256] = { FALSE };
    guint n_levels = 0;

    g_assert_cmpint (index, >=, 0);
    payload = nres_archive_payload_bytes (archive, (guint) index);
    image = texm_parse (payload, "SMOKE.0", 0, &error);
    g_assert_no_error (error);
    /* 88 on an alpha surface: the game draws its alpha (render.md 2) */
    g_assert_cmpuint (image->header.format, ==, 88);
    g_assert_cmpuint (image->header.flags5, ==, TEXM_FLAGS5_ALPHA_SURFACE);
    g_assert_cmpint (texm_draw_alpha (88, image->header.flags5, 4, FALSE), ==, TEXM_DRAW_ALPHA);
    rgba = texm_decode_rgba (image, 0, &w, &h);
    g_assert_cmpuint (rgba[3], ==, 0);
    for (gsize i = 0; i < (gsize) w * h; i++)
      {
        lo = MIN (lo, rgba[i * 4 + 3]);
        hi = MAX (hi, rgba[i * 4 + 3]);
        n_levels += !levels[rgba[i * 4 + 3]];
        levels[rgba[i * 4 + 3]] = TRUE;
      }
    /* graded: from 0 (dropped by the alpha test) through many levels */
    g_assert_cmpuint (lo, ==, 0);
    g_assert_cmpuint (hi, >=, 100);
    g_assert_cmpuint (n_levels, >=, 64);
  }
}

/* ---- input that never hangs -------------------------------------------- */

static void
test_input_not_regular (void)
{
  g_autofree char *fifo = tmp_path ("pipe.lib");
  g_autofree char *dir = tmp_path ("a-folder.lib");
  g_autofree char *out = tmp_path ("never-built.lib");
  const char *commands[] = { "check", "info", "list", "roundtrip" };

  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *targets[] = { fifo, "/dev/zero", dir };

      for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
        {
          g_auto(Run) r = { 0 };
          gint64 start = g_get_monotonic_time ();
          const char *argv[] = { commands[i], targets[t], "-o", out, NULL };

          if (!g_str_equal (commands[i], "roundtrip"))
            argv[2] = NULL;
          run_tool_argv (&r, NULL, argv);
          /* refused at once, before anything is read */
          g_assert_cmpint (r.status, ==, 2);
          g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
          g_assert_true (g_str_has_prefix (r.err, targets[t]));
          g_assert_nonnull (strstr (r.err, t == 2 ? "a folder" : "not a regular file"));
          g_assert_cmpstr (r.out, ==, "");
        }
    }
  {
    g_auto(Run) r = { 0 };

    run_tool (&r, "build", fifo, "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "named pipe"));
  }
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

/* A 4 GiB file that is not a library: answered from its header. */
static void
test_input_huge (void)
{
  g_autofree char *big = tmp_path ("big.lib");
  g_auto(Run) r = { 0 };
  gint64 start;
  int fd;

  fd = g_open (big, O_WRONLY | O_CREAT, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, G_GINT64_CONSTANT (4) << 30), ==, 0);
  close (fd);
  start = g_get_monotonic_time ();
  run_tool (&r, "check", big, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_assert_nonnull (strstr (r.out, "(header): offset 0: expected magic \"NRes\", found 00 00 00 00"));
  g_unlink (big);
}

/* ---- writing ------------------------------------------------------------- */

/* `roundtrip X -o X` on a full disk: exit 2, X exactly as it was. A tmpfs
 * of 320 KiB in a mount namespace of its own (root only; CI is root). */
static void
test_write_full_disk (void)
{
  g_autoptr(GBytes) retail = test_load_file (g_getenv ("RETAIL_LIB"));
  g_autofree char *dir = tmp_path ("full-disk");
  pid_t pid;
  int status = 0;

  if (getuid () != 0)
    {
      g_test_skip ("mounting a small tmpfs needs root (CI runs as root)");
      return;
    }
  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      g_autofree char *lib = g_build_filename (dir, "Material.lib", NULL);
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *contents = NULL;
      g_autoptr(GDir) d = NULL;
      const char *argv[] = { g_getenv ("MAT0TOOL"), "roundtrip", lib, "-o", lib, NULL };
      gsize len = 0;
      int exit_status = 0;

      if (unshare (CLONE_NEWNS) != 0 || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
          mount ("tmpfs", dir, "tmpfs", 0, "size=320k") != 0)
        _exit (10);
      if (!g_file_set_contents (lib, g_bytes_get_data (retail, NULL),
                                (gssize) g_bytes_get_size (retail), NULL))
        _exit (11);
      if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                         &out, &err, &exit_status, NULL))
        _exit (12);
      if (!WIFEXITED (exit_status) || WEXITSTATUS (exit_status) != 2)
        _exit (20);
      if (strstr (err, g_strerror (ENOSPC)) == NULL || !g_str_has_prefix (err, lib))
        _exit (21);
      if (!g_file_get_contents (lib, &contents, &len, NULL) || len != g_bytes_get_size (retail) ||
          memcmp (contents, g_bytes_get_data (retail, NULL), len) != 0)
        _exit (22);
      d = g_dir_open (dir, 0, NULL);
      if (g_strcmp0 (g_dir_read_name (d), "Material.lib") != 0 || g_dir_read_name (d) != NULL)
        _exit (23);
      umount (dir);
      _exit (0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  if (WEXITSTATUS (status) == 10)
    {
      /* root without CAP_SYS_ADMIN (a locked-down container) */
      g_test_skip ("no mount namespace with a tmpfs here");
      return;
    }
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

/* -o through a symbolic link: the link stays, its target is replaced
 * atomically (a new file renamed over it, not rewritten in place); a
 * second hard link keeps the old content. */
static void
test_write_symlink (void)
{
  g_autofree char *lib = worked_library ();
  g_autofree char *link_path = tmp_path ("link_path-to-worked.lib");
  g_autofree char *hard = tmp_path ("hard-link_path-to-worked.lib");
  g_autoptr(GBytes) before = test_load_file (lib);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) other = NULL;
  g_autofree char *target = NULL;
  g_auto(Run) r = { 0 };
  GStatBuf st_before, st_after;

  g_assert_cmpint (symlink (lib, link_path), ==, 0);
  g_assert_cmpint (link (lib, hard), ==, 0);
  g_assert_cmpint (g_stat (lib, &st_before), ==, 0);
  run_tool (&r, "set", link_path, "WORKED", "attr3=7", "-o", link_path, NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  target = g_file_read_link (link_path, NULL);
  g_assert_cmpstr (target, ==, lib);
  g_assert_cmpint (g_stat (lib, &st_after), ==, 0);
  g_assert_cmpuint (st_after.st_ino, !=, st_before.st_ino);
  g_assert_cmpuint (st_after.st_mode, ==, st_before.st_mode);
  other = test_load_file (hard);
  g_assert_true (g_bytes_equal (other, before));
  after = test_load_file (lib);
  g_assert_cmpuint (g_bytes_get_size (after), ==, g_bytes_get_size (before));
  g_assert_cmpuint (test_get_u32 ((const guint8 *) g_bytes_get_data (after, NULL) +
                                  g_bytes_get_size (after) - 2 * 64 + 16), ==, 7);
}

/* Another program writes LIB while `roundtrip LIB -o LIB` works: the
 * change is noticed and kept, nothing is written. The tool is stopped
 * right after it read the file (inotify), the file changed, the tool
 * resumed. */
/* Another program changes a byte while the tool works: with a later time,
 * or (@same_time) with the time put back, the same size and inode: only
 * the bytes tell. */
static void
changed_meanwhile (gboolean same_time)
{
  g_autofree char *lib = tmp_path ("changed-meanwhile.lib");
  g_autoptr(GBytes) stress = test_load_file (g_getenv ("STRESS_LIB"));
  g_autoptr(GBytes) after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { g_getenv ("MAT0TOOL"), "roundtrip", lib, "-o", lib, NULL };
  guint8 changed_byte;
  gboolean tested = FALSE;

  for (guint attempt = 0; attempt < 5 && !tested; attempt++)
    {
      g_autoptr(GError) error = NULL;
      struct pollfd pfd;
      char events[4096];
      GStatBuf before_st, now_st;
      GPid pid;
      int err_fd, status = 0, ifd;
      gsize len = g_bytes_get_size (stress);

      g_file_set_contents (lib, g_bytes_get_data (stress, NULL), (gssize) len, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g_stat (lib, &before_st), ==, 0);
      ifd = inotify_init1 (IN_CLOEXEC);
      g_assert_cmpint (ifd, >=, 0);
      g_assert_cmpint (inotify_add_watch (ifd, lib, IN_CLOSE_NOWRITE), >=, 0);

      g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                               G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                               NULL, NULL, &pid, NULL, NULL, &err_fd, &error));
      g_assert_no_error (error);
      pfd.fd = ifd;
      pfd.events = POLLIN;
      g_assert_cmpint (poll (&pfd, 1, 60000), ==, 1);
      /* it has read the file: hold it there */
      kill (pid, SIGSTOP);
      g_assert_cmpint (read (ifd, events, sizeof events), >, 0);
      close (ifd);
      g_assert_cmpint (g_stat (lib, &now_st), ==, 0);
      if (now_st.st_ino == before_st.st_ino)
        {
          /* another program changes one byte in place */
          int fd = g_open (lib, O_WRONLY, 0);

          g_assert_cmpint (fd, >=, 0);
          changed_byte = ((const guint8 *) g_bytes_get_data (stress, NULL))[100] ^ 0xff;
          g_usleep (10 * 1000);   /* a later modification time */
          g_assert_cmpint (pwrite (fd, &changed_byte, 1, 100), ==, 1);
          if (same_time)
            {
              struct timespec times[2] = { now_st.st_atim, now_st.st_mtim };

              g_assert_cmpint (futimens (fd, times), ==, 0);
            }
          close (fd);
          tested = TRUE;
        }
      kill (pid, SIGCONT);
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      g_spawn_close_pid (pid);
      {
        g_autoptr(GIOChannel) channel = g_io_channel_unix_new (err_fd);

        g_io_channel_set_close_on_unref (channel, TRUE);
        g_free (err);
        g_io_channel_read_to_end (channel, &err, NULL, NULL);
      }
      if (!tested)
        {
          g_test_message ("the tool wrote before it could be stopped; again");
          continue;
        }
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 2);
      g_assert_true (g_str_has_prefix (err, lib));
      g_assert_nonnull (strstr (err, "changed on disk"));
      after = test_load_file (lib);
      g_assert_cmpuint (g_bytes_get_size (after), ==, g_bytes_get_size (stress));
      g_assert_cmpuint (((const guint8 *) g_bytes_get_data (after, NULL))[100], ==, changed_byte);
    }
  g_assert_true (tested);
  g_unlink (lib);
}

static void
test_write_changed_meanwhile (void)
{
  changed_meanwhile (FALSE);
}

static void
test_write_changed_same_time (void)
{
  changed_meanwhile (TRUE);
}

/* Runs mat0tool with @argv, returning its exit status, its peak resident
 * memory in KiB and its time; stdout and stderr to @err_path. @fsize_limit:
 * 0, or the largest file it may write (RLIMIT_FSIZE: a disk full there). */
static int
run_measured (const char * const *argv,
              const char         *err_path,
              rlim_t              fsize_limit,
              long               *max_rss_kb,
              double             *seconds)
{
  struct rusage usage;
  gint64 start = g_get_monotonic_time ();
  int status = 0;
  pid_t pid = fork ();

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      int fd = open (err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

      if (fd < 0 || dup2 (fd, 1) < 0 || dup2 (fd, 2) < 0)
        _exit (90);
      if (fsize_limit > 0)
        {
          struct rlimit limit = { fsize_limit, fsize_limit };

          signal (SIGXFSZ, SIG_IGN);   /* a write past it fails with EFBIG */
          if (setrlimit (RLIMIT_FSIZE, &limit) != 0)
            _exit (91);
        }
      execv (g_getenv ("MAT0TOOL"), (char **) argv);
      _exit (92);
    }
  g_assert_cmpint (wait4 (pid, &status, 0, &usage), ==, pid);
  if (seconds != NULL)
    *seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  if (max_rss_kb != NULL)
    *max_rss_kb = usage.ru_maxrss;
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* A library of 4 GiB - 1 bytes (sparse): one small material at 16, a
 * directory at the end, gigabytes of unindexed zeros between. */
static char *
make_huge_library (const char *name, guint n_entries)
{
  g_autofree char *path = tmp_path (name);
  g_autoptr(GBytes) demo = test_load_file (g_getenv ("DEMO_LIB"));
  g_autoptr(NresArchive) archive = nres_archive_parse (demo, NULL);
  const guint32 total = 0xFFFFFFFFu;
  guint8 header[16] = { 'N', 'R', 'e', 's', 0, 1, 0, 0 };
  gsize size = 0;
  const guint8 *payload;
  int fd;

  g_assert_nonnull (archive);
  payload = nres_archive_payload (archive, 0, &size);
  header[8] = (guint8) n_entries;
  memcpy (header + 12, &total, 4);   /* little-endian machines */
  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, total), ==, 0);
  g_assert_cmpint (pwrite (fd, header, 16, 0), ==, 16);
  if (n_entries > 0)
    {
      NresEntry entry = archive->entries[0];

      entry.data_offset = 16;
      entry.sort_index = 0;
      g_assert_cmpint (pwrite (fd, payload, size, 16), ==, (gssize) size);
      g_assert_cmpint (pwrite (fd, &entry, 64, total - 64), ==, 64);
    }
  close (fd);
  return g_steal_pointer (&path);
}

/* check, info and list of a 4 GiB library with a tiny directory: what the
 * directory names is read, not the gigabytes between. Baseline: the same
 * commands on the demo library. */
static void
test_huge_library_bounded (void)
{
  g_autofree char *err_path = tmp_path ("huge.err");
  const char *demo = g_getenv ("DEMO_LIB");
  static const char *commands[][2] = { { "check", NULL }, { "info", NULL }, { "list", NULL } };

  for (guint n = 0; n < 2; n++)
    {
      g_autofree char *huge = make_huge_library ("huge.lib", n);

      for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
        {
          const char *argv_huge[] = { "mat0tool", commands[c][0], huge, NULL };
          const char *argv_demo[] = { "mat0tool", commands[c][0], demo, NULL };
          g_autofree char *output = NULL;
          long rss = 0, base_rss = 0;
          double seconds = 0, base_seconds = 0;
          int status;

          run_measured (argv_demo, err_path, 0, &base_rss, &base_seconds);
          status = run_measured (argv_huge, err_path, 0, &rss, &seconds);
          g_file_get_contents (err_path, &output, NULL, NULL);
          g_test_message ("%s of a 4 GiB library with %u entries: %.3f s, %ld KiB "
                          "(the demo library: %.3f s, %ld KiB)",
                          commands[c][0], n, seconds, rss, base_seconds, base_rss);
          g_assert_cmpint (status, ==, 0);
          g_assert_cmpfloat (seconds, <, 1.0);
          /* beyond what the tool takes for a small library (under a
           * sanitizer that is itself over 100 MB) */
          g_assert_cmpint (rss - base_rss, <, 50 * 1024);
          if (base_rss < 20 * 1024)
            g_assert_cmpint (rss, <, 50 * 1024);
          if (c == 1)
            g_assert_nonnull (strstr (output, "size: 4294967295 bytes"));
        }
      g_unlink (huge);
    }
}

/* `roundtrip X -o X` of a library with a large unindexed region: the
 * region is read from the file when written, and the copy is exact. */
static void
test_roundtrip_unindexed (void)
{
  g_autofree char *lib = tmp_path ("unindexed.lib");
  g_autoptr(GBytes) demo = test_load_file (g_getenv ("DEMO_LIB"));
  g_autoptr(GByteArray) array = g_byte_array_new ();
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_auto(Run) r = { 0 };
  const guint8 *data = g_bytes_get_data (demo, NULL);
  guint32 count, directory, total;
  const guint32 extra = 300000;

  /* the demo with 300,000 bytes of a pattern before its directory */
  memcpy (&count, data + 8, 4);
  directory = (guint32) g_bytes_get_size (demo) - count * 64;
  g_byte_array_append (array, data, directory);
  for (guint32 i = 0; i < extra; i++)
    {
      guint8 b = (guint8) (i * 31 + 7);

      g_byte_array_append (array, &b, 1);
    }
  g_byte_array_append (array, data + directory, count * 64);
  total = array->len;
  memcpy (array->data + 12, &total, 4);
  before = g_byte_array_free_to_bytes (g_steal_pointer (&array));
  g_file_set_contents (lib, g_bytes_get_data (before, NULL), (gssize) g_bytes_get_size (before), NULL);

  run_tool (&r, "roundtrip", lib, "-o", lib, NULL);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpint (r.status, ==, 0);
  after = test_load_file (lib);
  g_assert_true (g_bytes_equal (before, after));
  g_unlink (lib);
}

/* textures --png over PNGs already there, on a disk that fills up: every
 * old PNG stays byte for byte (it was truncated and left half-written). */
static void
test_png_full_disk (void)
{
  g_autofree char *dir = tmp_path ("png-full");
  g_autofree char *err_path = tmp_path ("png-full.err");
  g_autofree char *rock = NULL;
  g_autofree char *output = NULL;
  g_autoptr(GBytes) old = NULL;
  g_autoptr(GBytes) now = NULL;
  const char *argv[] = { "mat0tool", "textures", g_getenv ("DEMO_TEXTURES"), "--png", dir, NULL };
  g_autoptr(GDir) folder = NULL;
  const char *name;
  int status;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  rock = g_build_filename (dir, "ROCK.0.png", NULL);
  old = g_bytes_new_static ("an older ROCK.0.png", 19);
  g_assert_true (g_file_set_contents (rock, g_bytes_get_data (old, NULL), 19, NULL));

  /* ROCK.0, the first texture, makes a PNG of 8 KiB: past the limit */
  status = run_measured (argv, err_path, 4096, NULL, NULL);
  g_file_get_contents (err_path, &output, NULL, NULL);
  g_test_message ("%s", output);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (output, g_strerror (EFBIG)));
  now = test_load_file (rock);
  g_assert_true (g_bytes_equal (old, now));
  /* nothing else left behind */
  folder = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (folder)) != NULL)
    g_assert_cmpstr (name, ==, "ROCK.0.png");
}

/* A temporary file a killed save left is removed by the next write into
 * its folder, which says so in one line, once. */
static void
test_stale_temporary_removed (void)
{
  g_autofree char *dir = tmp_path ("stale");
  g_autofree char *lib = NULL;
  g_autofree char *stale = NULL;
  g_autoptr(GBytes) demo = test_load_file (g_getenv ("DEMO_LIB"));
  g_auto(Run) r = { 0 };
  g_auto(Run) again = { 0 };
  g_autofree char *expected = NULL;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  lib = g_build_filename (dir, "Material.lib", NULL);
  stale = g_build_filename (dir, ".Material.lib.Ab12Cd.matedit-tmp", NULL);
  g_assert_true (g_file_set_contents (lib, g_bytes_get_data (demo, NULL), (gssize) g_bytes_get_size (demo), NULL));
  g_assert_true (g_file_set_contents (stale, "half a library", -1, NULL));

  run_tool (&r, "roundtrip", lib, "-o", lib, NULL);
  g_assert_cmpint (r.status, ==, 0);
  expected = g_strdup_printf ("%s: removed the temporary files that interrupted saves had left in its folder\n", lib);
  g_assert_cmpstr (r.err, ==, expected);
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  run_tool (&again, "roundtrip", lib, "-o", lib, NULL);
  g_assert_cmpint (again.status, ==, 0);
  g_assert_cmpstr (again.err, ==, "");
}

/* A write to stdout that fails is an I/O error. */
static void
test_stdout_full (void)
{
  g_auto(Run) r = { 0 };
  const char *argv[] = { "dump", g_getenv ("DEMO_LIB"), "--json", NULL };

  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/full");
      return;
    }
  run_tool_argv (&r, "/dev/full", argv);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "stdout: "));
  g_assert_nonnull (strstr (r.err, g_strerror (ENOSPC)));
}

/* ---- the corrections of the command handling ----------------------------- */

/* The worked library with WORKED's payload cut to its first two bytes
 * (phaseCount only): WORKED does not decode. */
static char *
library_with_bad_entry (const char *name)
{
  g_autofree char *lib = worked_library ();
  g_autoptr(GBytes) good = test_load_file (lib);
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  gsize n = g_bytes_get_size (good);

  g_byte_array_append (bad, g_bytes_get_data (good, NULL), n);
  bad->data[18] = 25;   /* WORKED's animBlockCount: more than 19 */
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&bad));
  return write_tmp (name, bytes);
}

static void
test_repack_refuses_bad_entry (void)
{
  g_autofree char *lib = library_with_bad_entry ("bad-repack.lib");
  g_autofree char *out = tmp_path ("bad-repacked.lib");
  g_auto(Run) r = { 0 };

  run_tool (&r, "repack", lib, "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.err, lib));
  g_assert_nonnull (strstr (r.err, "WORKED: offset 18:"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

static void
test_set_refuses_bad_entry (void)
{
  g_autofree char *lib = library_with_bad_entry ("bad-set.lib");
  g_autofree char *out = tmp_path ("bad-set-out.lib");
  g_auto(Run) r = { 0 };

  /* DEFAULT decodes; WORKED, another entry, does not */
  run_tool (&r, "set", lib, "DEFAULT", "attr3=1", "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "WORKED: offset 18:"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

static void
test_set_refuses_duplicate_name (void)
{
  g_autofree char *lib = worked_library ();
  g_autofree char *out = tmp_path ("dup-name.lib");
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 };

  run_tool (&r1, "set", lib, "WORKED", "name=DEFAULT", "-o", out, NULL);
  g_assert_cmpint (r1.status, ==, 2);
  g_assert_nonnull (strstr (r1.err, "name=DEFAULT: expected a name no other entry has, found it at entry 1 (DEFAULT)"));
  run_tool (&r2, "set", lib, "WORKED", "name=default", "-o", out, NULL);
  g_assert_cmpint (r2.status, ==, 2);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  /* a new case of its own name is fine */
  run_tool (&r3, "set", lib, "WORKED", "name=Worked", "-o", out, NULL);
  g_assert_cmpint (r3.status, ==, 0);
}

static void
test_build_rejects_bad_base64 (void)
{
  g_autofree char *json = tmp_path ("bad-base64.json");
  g_autofree char *out = tmp_path ("bad-base64.lib");
  g_autoptr(GError) error = NULL;
  const char *payloads[] = { "AAA", "AA!A", "A=AA", "QUJD\\nRA==" };

  for (guint i = 0; i < G_N_ELEMENTS (payloads); i++)
    {
      g_auto(Run) r = { 0 };
      g_autofree char *doc = g_strdup_printf ("{\"entries\": [{\"name\": \"X\", \"type\": \"WEAR\","
                                              " \"payload_base64\": \"%s\"}]}", payloads[i]);

      g_file_set_contents (json, doc, -1, &error);
      g_assert_no_error (error);
      run_tool (&r, "build", json, "-o", out, NULL);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, "entries[0] (X).payload_base64: expected base64 text"));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  {
    g_auto(Run) r = { 0 };
    g_autoptr(GBytes) built = NULL;

    g_file_set_contents (json, "{\"entries\": [{\"name\": \"X\", \"type\": \"WEAR\","
                               " \"payload_base64\": \"QUJD\"}]}", -1, &error);
    run_tool (&r, "build", json, "-o", out, NULL);
    g_assert_cmpint (r.status, ==, 0);
    built = test_load_file (out);
    g_assert_cmpmem ((const guint8 *) g_bytes_get_data (built, NULL) + 16, 3, "ABC", 3);
  }
}

/* Broken JSON: refused with the line, whatever part of the document. */
static void
test_build_rejects_broken_json (void)
{
  g_autofree char *json = tmp_path ("broken.json");
  g_autofree char *out = tmp_path ("broken.lib");
  g_autoptr(GError) error = NULL;
  const struct { const char *doc; const char *message; } cases[] = {
    { "{\"entries\": [{\"name\": \"X\", \"type\": \"WEAR\"},\n {\"name\": }]}", "line 2:" },
    { "{\"archive\": {\"version\": 256,}, \"entries\": []}", "line 1:" },
    { "{\"entries\": []} trailing", "expected the end of the document" },
    { "{\"archive\": {}}", "expected an array \"entries\", found none" },
    { "{\"entries\": [{\"name\": \"X\", \"type\": \"WEAR\"}", "found the end of the file" },
    { "[]", "expected '{'" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) r = { 0 };

      g_file_set_contents (json, cases[i].doc, -1, &error);
      g_assert_no_error (error);
      run_tool (&r, "build", json, "-o", out, NULL);
      g_test_message ("%s -> %s", cases[i].doc, r.err);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, cases[i].message));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
}

/* A refusal of the writer is about the input: it names the input. */
static void
test_refusal_names_input (void)
{
  g_autofree char *lib = worked_library ();
  g_autofree char *out = tmp_path ("overlap-out.lib");
  g_autoptr(GBytes) good = test_load_file (lib);
  g_autoptr(GByteArray) shared = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *shared_path = NULL;
  g_auto(Run) r = { 0 };
  gsize n = g_bytes_get_size (good);
  guint8 *dir;

  /* DEFAULT (entry 1) points at WORKED's bytes: 100 at offset 16 */
  g_byte_array_append (shared, g_bytes_get_data (good, NULL), n);
  dir = shared->data + n - 64;
  dir[12] = 100; dir[13] = dir[14] = dir[15] = 0;
  dir[56] = 16; dir[57] = dir[58] = dir[59] = 0;
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&shared));
  shared_path = write_tmp ("overlap.lib", bytes);

  run_tool (&r, "set", shared_path, "DEFAULT", "phase[0].p[0]=9", "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_true (g_str_has_prefix (r.err, shared_path));
  g_assert_nonnull (strstr (r.err, "found an overlap"));
  g_assert_null (strstr (r.err, out));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

/* Control characters in names never reach the terminal as they are. */
static void
test_control_characters_escaped (void)
{
  static const guint8 broken[] = { 1, 0 };
  TestEntrySpec specs[2] = {
    { 0x3054414D, 0x01, 6, 0, "EVIL\n\x1b[2J", broken, sizeof broken, 0 },
    { 0x52414557, 0, 0, 0, "TAB\tBEL\a", broken, sizeof broken, 0 },
  };
  g_autoptr(GBytes) archive = test_build_archive (specs, 2, TRUE);
  g_autofree char *lib = write_tmp ("evil.lib", archive);
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 };
  g_auto(GStrv) lines = NULL;

  run_tool (&r1, "list", lib, NULL);
  g_assert_cmpint (r1.status, ==, 1);
  lines = g_strsplit (r1.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);   /* two entries and the end */
  g_assert_nonnull (strstr (lines[0], "EVIL\\n\\x1b[2J"));
  g_assert_nonnull (strstr (lines[1], "TAB\\tBEL\\x07"));
  g_assert_null (strchr (r1.out, '\x1b'));
  /* the decode error: one line */
  g_assert_null (strchr (r1.err, '\x1b'));
  g_assert_nonnull (strstr (r1.err, "EVIL\\n\\x1b[2J: offset 16:"));
  g_assert_cmpuint (strlen (r1.err) - 1, ==, (gsize) (strchr (r1.err, '\n') - r1.err));

  run_tool (&r2, "check", lib, NULL);
  g_assert_cmpint (r2.status, ==, 1);
  g_assert_null (strchr (r2.out, '\x1b'));
  g_assert_nonnull (strstr (r2.out, "EVIL\\n\\x1b[2J"));

  run_tool (&r3, "eval", lib, "EVIL\n\x1b[2J", "--time", "0", NULL);
  g_assert_cmpint (r3.status, ==, 1);
  g_assert_null (strchr (r3.err, '\x1b'));
}

/* A texture field of 16 bytes with no NUL: the dump carries it raw, so
 * build gives the same library back (its name alone would not fit). */
static void
test_dump_full_texture_field (void)
{
  g_autoptr(GByteArray) payload = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(GBytes) rebuilt = NULL;
  g_autofree char *lib = NULL;
  g_autofree char *json = tmp_path ("full-texture.json");
  g_autofree char *out = tmp_path ("full-texture-rebuilt.lib");
  g_autoptr(GError) error = NULL;
  g_auto(Run) r1 = { 0 }, r2 = { 0 };
  guint8 p[18] = { 0 };
  TestEntrySpec spec = { 0x3054414D, 0x01, 6, 0, "FULL", NULL, 0, 0 };

  test_put_u16 (payload, 1);
  test_put_u16 (payload, 0);
  test_put_u8 (payload, 255);
  test_put_u8 (payload, 255);
  test_put_u32 (payload, 0x3F800000);
  test_put_u32 (payload, 0);
  test_put_bytes (payload, p, sizeof p);
  test_put_bytes (payload, "ABCDEFGH.JKLMNOP", 16);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&payload));
  spec.payload = g_bytes_get_data (bytes, &spec.size);
  archive = test_build_archive (&spec, 1, TRUE);
  lib = write_tmp ("full-texture.lib", archive);

  run_tool (&r1, "dump", lib, "--json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_nonnull (strstr (r1.out, "\"texture_raw\": \"QUJDREVGR0guSktMTU5PUA==\""));
  g_file_set_contents (json, r1.out, -1, &error);
  g_assert_no_error (error);
  run_tool (&r2, "build", json, "-o", out, NULL);
  g_assert_cmpstr (r2.err, ==, "");
  g_assert_cmpint (r2.status, ==, 0);
  rebuilt = test_load_file (out);
  g_assert_true (g_bytes_equal (rebuilt, archive));
}

/* Arrays nested past what the parser's recursion can take: refused, no
 * crash, wherever they are. */
static void
test_build_rejects_deep_nesting (void)
{
  g_autofree char *json = tmp_path ("deep.json");
  g_autofree char *out = tmp_path ("deep.lib");
  const struct { const char *before, *after; } places[] = {
    { "{\"entries\": [", "]}" },
    { "{\"archive\": ", ", \"entries\": []}" },
    { "{\"entries\": [{\"name\": \"X\", \"type\": \"MAT0\", \"phases\": ", "}]}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (places); i++)
    {
      g_autoptr(GString) nested = g_string_new (NULL);
      g_autofree char *doc = NULL;
      g_autoptr(GError) error = NULL;
      g_auto(Run) r = { 0 };

      for (guint d = 0; d < 200000; d++)
        g_string_append_c (nested, '[');
      for (guint d = 0; d < 200000; d++)
        g_string_append_c (nested, ']');
      doc = g_strconcat (places[i].before, nested->str, places[i].after, NULL);
      g_file_set_contents (json, doc, -1, &error);
      g_assert_no_error (error);
      run_tool (&r, "build", json, "-o", out, NULL);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_nonnull (strstr (r.err, "line 1: expected at most 64 levels of nested arrays and objects, found more"));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
}

/* NAME is found in index order whatever the lookup table says (cli.md). */
static void
test_unsorted_lookup_table (void)
{
  g_autofree char *lib = worked_library ();
  g_autoptr(GBytes) good = test_load_file (lib);
  g_autoptr(GByteArray) unsorted = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autofree char *out = tmp_path ("unsorted-out.lib");
  g_auto(Run) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 };
  gsize n = g_bytes_get_size (good);

  /* sort_index (0, 1): a permutation, not in name order (DEFAULT < WORKED) */
  g_byte_array_append (unsorted, g_bytes_get_data (good, NULL), n);
  unsorted->data[n - 128 + 60] = 0;
  unsorted->data[n - 64 + 60] = 1;
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&unsorted));
  path = write_tmp ("unsorted.lib", bytes);

  run_tool (&r1, "set", path, "WORKED", "attr3=3", "-o", out, NULL);
  g_assert_cmpstr (r1.err, ==, "");
  g_assert_cmpint (r1.status, ==, 0);
  run_tool (&r2, "dump", path, "worked", "--json", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_nonnull (strstr (r2.out, "\"name\": \"WORKED\""));
  run_tool (&r3, "eval", path, "WORKED", "--time", "250", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  /* resolve answers as the engine's binary search would: not found */
  run_tool (&r4, "resolve", path, "WORKED", NULL);
  g_assert_cmpint (r4.status, ==, 0);
  g_assert_cmpstr (r4.out, ==, "default DEFAULT\n");
}

/* --t takes any float the C library parses; outside [0, 1] it is 0.5. */
static void
test_eval_t_any_float (void)
{
  g_autofree char *lib = worked_library ();
  g_auto(Run) half = { 0 };
  const char *values[] = { "nan", "inf", "-inf", "2", "-0.25", "NAN" };

  run_tool (&half, "eval", lib, "WORKED", "--t", "0.5", "--json", NULL);
  g_assert_cmpint (half.status, ==, 0);
  g_assert_cmpstr (half.err, ==, "");
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_auto(Run) r = { 0 };
      g_autofree char *note = g_strdup_printf ("--t %s is outside [0, 1]", values[i]);

      run_tool (&r, "eval", lib, "WORKED", "--t", values[i], "--json", NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_cmpstr (r.out, ==, half.out);
      g_assert_nonnull (strstr (r.err, note));
    }
  {
    g_auto(Run) r = { 0 };

    run_tool (&r, "eval", lib, "WORKED", "--t", "half", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--t: expected a number, found half"));
  }
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/usage", test_usage);
  g_test_add_func ("/cli/eval/worked-example", test_eval_worked_example);
  g_test_add_func ("/cli/eval/period-end", test_eval_period_end);
  g_test_add_func ("/cli/eval/random-agrees", test_eval_random_agrees);
  g_test_add_func ("/cli/eval/demo", test_eval_demo);
  g_test_add_func ("/cli/eval/positions", test_eval_positions);
  g_test_add_func ("/cli/eval/errors", test_eval_errors);
  g_test_add_func ("/cli/resolve", test_resolve);
  g_test_add_func ("/cli/set/only-edited-bytes", test_set_changes_only_the_edited_bytes);
  g_test_add_func ("/cli/set/atomic-in-place", test_set_in_place_is_atomic);
  g_test_add_func ("/cli/bad-input", test_bad_input);
  g_test_add_func ("/cli/roundtrip/demo", test_roundtrip_demo);
  g_test_add_func ("/cli/roundtrip/retail", test_roundtrip_retail);
  g_test_add_func ("/cli/roundtrip/stress", test_roundtrip_stress);
  g_test_add_func ("/cli/dump/build-identity", test_dump_build_identity);
  g_test_add_func ("/cli/dump/values", test_dump_demo_values);
  g_test_add_func ("/cli/check/demo", test_check_demo);
  g_test_add_func ("/cli/info-list", test_info_and_list);
  g_test_add_func ("/cli/repack", test_repack_canonical);
  g_test_add_func ("/cli/build/bad-json", test_build_rejects_bad_json);
  g_test_add_func ("/cli/textures", test_textures);
  g_test_add_func ("/cli/textures/demo", test_demo_textures);
  g_test_add_func ("/cli/input/not-regular", test_input_not_regular);
  g_test_add_func ("/cli/input/huge", test_input_huge);
  g_test_add_func ("/cli/write/full-disk", test_write_full_disk);
  g_test_add_func ("/cli/write/symlink", test_write_symlink);
  g_test_add_func ("/cli/write/changed-meanwhile", test_write_changed_meanwhile);
  g_test_add_func ("/cli/write/stdout-full", test_stdout_full);
  g_test_add_func ("/cli/repack/refuses-bad-entry", test_repack_refuses_bad_entry);
  g_test_add_func ("/cli/set/refuses-bad-entry", test_set_refuses_bad_entry);
  g_test_add_func ("/cli/set/refuses-duplicate-name", test_set_refuses_duplicate_name);
  g_test_add_func ("/cli/set/unsorted-lookup-table", test_unsorted_lookup_table);
  g_test_add_func ("/cli/build/bad-base64", test_build_rejects_bad_base64);
  g_test_add_func ("/cli/build/broken-json", test_build_rejects_broken_json);
  g_test_add_func ("/cli/build/deep-nesting", test_build_rejects_deep_nesting);
  g_test_add_func ("/cli/dump/full-texture-field", test_dump_full_texture_field);
  g_test_add_func ("/cli/refusal-names-input", test_refusal_names_input);
  g_test_add_func ("/cli/names-escaped", test_control_characters_escaped);
  g_test_add_func ("/cli/eval/t-any-float", test_eval_t_any_float);
  g_test_add_func ("/cli/write/changed-same-time", test_write_changed_same_time);
  g_test_add_func ("/cli/read/huge-library-bounded", test_huge_library_bounded);
  g_test_add_func ("/cli/write/roundtrip-unindexed", test_roundtrip_unindexed);
  g_test_add_func ("/cli/write/png-full-disk", test_png_full_disk);
  g_test_add_func ("/cli/write/stale-temporary-removed", test_stale_temporary_removed);

  status = g_test_run ();
  if (tmp_dir != NULL)
    remove_tree (tmp_dir);
  return status;
}
