/* hostile-json.h - entries of a dump document that `build` and the
 * editor's paste must refuse, each with the start of its message
 *
 * Each is the entry object of {"entries": [ENTRY]}; the message names
 * the path of the value at fault. Used by tests/cli/test-build-cli.c
 * (mat0tool build) and tests/model/test-json-types.c (the paste).
 */
#pragma once

#include <glib.h>

typedef struct {
  const char *entry;
  const char *message;
} HostileJson;

/* A material around @members and one phase around @phase_members. */
#define HOSTILE_MATERIAL(members) \
  "{\"name\": \"X\", \"type\": \"MAT0\", \"attr2\": 6, " members "\"phases\": [], \"blocks\": []}"
#define HOSTILE_PHASE(phase_members) \
  "{\"name\": \"X\", \"type\": \"MAT0\", \"attr2\": 6, \"phases\": [{\"params\": " \
  "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]" phase_members "}], \"blocks\": []}"
/* 36 bytes of 'A' (no NUL) and 36 NUL bytes (an empty name) */
#define HOSTILE_NO_NUL "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB"
#define HOSTILE_EMPTY  "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

static const HostileJson hostile_json[] = {
  /* meta.c of every other kind, and past what a float holds */
  { HOSTILE_MATERIAL ("\"meta\": {\"c\": \"1.5\"}, "),
    "entries[0] (X).meta.c: expected a number, found a string" },
  { HOSTILE_MATERIAL ("\"meta\": {\"c\": {}}, "),
    "entries[0] (X).meta.c: expected a number, found an object" },
  { HOSTILE_MATERIAL ("\"meta\": {\"c\": [1.5]}, "),
    "entries[0] (X).meta.c: expected a number, found an array" },
  { HOSTILE_MATERIAL ("\"meta\": {\"c\": true}, "),
    "entries[0] (X).meta.c: expected a number, found true" },
  { HOSTILE_MATERIAL ("\"meta\": {\"c\": null}, "),
    "entries[0] (X).meta.c: expected a number, found null" },
  { HOSTILE_MATERIAL ("\"meta\": {\"c\": 1e39}, "),
    "entries[0] (X).meta.c: expected a number a 32-bit float holds" },
  { HOSTILE_MATERIAL ("\"meta\": {\"c\": -1e39}, "),
    "entries[0] (X).meta.c: expected a number a 32-bit float holds" },
  { HOSTILE_MATERIAL ("\"meta\": {\"c_raw\": 0, \"c\": \"0\"}, "),
    "entries[0] (X).meta.c: expected a number, found a string" },
  /* meta that is not an object */
  { HOSTILE_MATERIAL ("\"meta\": \"a=1\", "),
    "entries[0] (X).meta: expected an object, found a string" },
  { HOSTILE_MATERIAL ("\"meta\": [1, 2], "),
    "entries[0] (X).meta: expected an object, found an array" },
  { HOSTILE_MATERIAL ("\"meta\": 7, "),
    "entries[0] (X).meta: expected an object, found a number" },
  { HOSTILE_MATERIAL ("\"meta\": null, "),
    "entries[0] (X).meta: expected an object, found null" },
  /* the other members of meta */
  { HOSTILE_MATERIAL ("\"meta\": {\"a\": \"1\"}, "),
    "entries[0] (X).meta.a: expected an integer 0..255, found a string" },
  { HOSTILE_MATERIAL ("\"meta\": {\"d\": 1.5}, "),
    "entries[0] (X).meta.d: expected an integer 0..4294967295, found 1.5" },
  { HOSTILE_MATERIAL ("\"meta\": {\"from_file\": 1}, "),
    "entries[0] (X).meta.from_file: expected true or false, found a number" },
  { HOSTILE_MATERIAL ("\"meta\": {\"fields\": \"abcd\"}, "),
    "entries[0] (X).meta.fields: expected an array, found a string" },
  { HOSTILE_MATERIAL ("\"meta\": {\"fields\": [\"a\", 2]}, "),
    "entries[0] (X).meta.fields[1]: expected a string, found a number" },
  /* attr1..3 that are not integers 0..2^32-1 */
  { HOSTILE_MATERIAL ("\"attr1\": \"65\", "),
    "entries[0] (X).attr1: expected an integer 0..4294967295, found a string" },
  { HOSTILE_MATERIAL ("\"attr1\": 65.5, "),
    "entries[0] (X).attr1: expected an integer 0..4294967295, found 65.5" },
  { HOSTILE_MATERIAL ("\"attr3\": -1, "),
    "entries[0] (X).attr3: expected an integer 0..4294967295, found -1" },
  { HOSTILE_MATERIAL ("\"attr1\": 4294967296, "),
    "entries[0] (X).attr1: expected an integer 0..4294967295, found 4294967296" },
  /* past 64 bits: json-glib reads the first as -1, the second as 1 (attr3 1) */
  { HOSTILE_MATERIAL ("\"attr1\": 18446744073709551681, "),
    "entries[0].attr1: expected an integer of at most 64 bits, found 18446744073709551681" },
  { HOSTILE_MATERIAL ("\"attr3\": -18446744073709551681, "),
    "entries[0].attr3: expected an integer of at most 64 bits, found -18446744073709551681" },
  /* a NUL inside a name or a texture name (json-glib would cut it there) */
  { "{\"name\": \"ROCK\\u0000WALL\", \"type\": \"MAT0\", \"phases\": [], \"blocks\": []}",
    "entries[0].name: expected text without NUL characters (\\u0000), found one" },
  { HOSTILE_PHASE (", \"texture\": \"ROCK\\u0000.0\""),
    "entries[0].phases[0].texture: expected text without NUL characters (\\u0000), found one" },
  /* names and textures that are not strings */
  { "{\"name\": 5, \"type\": \"MAT0\", \"phases\": [], \"blocks\": []}",
    "entries[0].name: expected a string, found a number" },
  { HOSTILE_PHASE (", \"texture\": 5"),
    "entries[0] (X).phases[0].texture: expected a string or null, found a number" },
  { HOSTILE_PHASE (", \"texture_raw\": []"),
    "entries[0] (X).phases[0].texture_raw: expected a string, found an array" },
  { HOSTILE_MATERIAL ("\"name_raw\": 12, "),
    "entries[0] (X).name_raw: expected a string, found a number" },
  { "{\"name\": \"X\", \"type\": 5, \"phases\": [], \"blocks\": []}",
    "entries[0] (X).type: expected a string, found a number" },
  /* name_raw without a NUL, or empty */
  { HOSTILE_MATERIAL ("\"name_raw\": \"" HOSTILE_NO_NUL "\", "),
    "entries[0] (X).name_raw: expected a NUL within the 36 bytes of the name field, found none" },
  { HOSTILE_MATERIAL ("\"name_raw\": \"" HOSTILE_EMPTY "\", "),
    "entries[0] (X).name_raw: expected a name, found an empty one" },
  /* a MAT0 payload that does not decode, with no "error" saying so */
  { "{\"name\": \"X\", \"type\": \"MAT0\", \"attr2\": 6, \"payload_base64\": \"AQA=\"}",
    "entries[0] (X).payload_base64: expected a MAT0 payload that decodes" },
  { "{\"name\": \"X\", \"type\": \"MAT0\", \"attr2\": 6, \"payload_base64\": \"AQAAAAAA\"}",
    "entries[0] (X).payload_base64: expected a MAT0 payload that decodes" },
  { "{\"name\": \"X\", \"type\": \"MAT0\", \"payload_base64\": \"AQA=\", \"error\": false}",
    "entries[0] (X).error: expected a string, found false" },
  /* the members the writer does not read are checked too */
  { HOSTILE_MATERIAL ("\"index\": \"0\", "),
    "entries[0] (X).index: expected an integer 0..4294967295, found a string" },
  { HOSTILE_MATERIAL ("\"data_offset\": true, "),
    "entries[0] (X).data_offset: expected an integer 0..4294967295, found true" },
  { HOSTILE_MATERIAL ("\"size\": [], "),
    "entries[0] (X).size: expected an integer 0..4294967295, found an array" },
  { HOSTILE_MATERIAL ("\"sort_index\": null, "),
    "entries[0] (X).sort_index: expected an integer 0..4294967295, found null" },
  { HOSTILE_MATERIAL ("\"flags\": \"behaviour\", "),
    "entries[0] (X).flags: expected an object, found a string" },
  { HOSTILE_MATERIAL ("\"flags\": {\"hw_profile\": 1}, "),
    "entries[0] (X).flags.hw_profile: expected true or false, found a number" },
  { HOSTILE_MATERIAL ("\"flags\": {\"nibble_mode\": \"2\"}, "),
    "entries[0] (X).flags.nibble_mode: expected an integer 0..4294967295, found a string" },
  /* phases and blocks */
  { "{\"name\": \"X\", \"type\": \"MAT0\", \"phases\": {}, \"blocks\": []}",
    "entries[0] (X).phases: expected an array, found an object" },
  { "{\"name\": \"X\", \"type\": \"MAT0\", \"phases\": [7], \"blocks\": []}",
    "entries[0] (X).phases[0]: expected an object, found a number" },
  { HOSTILE_PHASE (", \"params\": \"0\""),
    "entries[0] (X).phases[0].params: expected an array, found a string" },
  { "{\"name\": \"X\", \"type\": \"MAT0\", \"phases\": [], \"blocks\": [{\"header_raw\": \"0\", \"keys\": []}]}",
    "entries[0] (X).blocks[0].header_raw: expected an integer 0..4294967295, found a string" },
  { "{\"name\": \"X\", \"type\": \"MAT0\", \"phases\": [], \"blocks\": [{\"keys\": [[0, \"500\"]]}]}",
    "entries[0] (X).blocks[0].keys[0][1]: expected an integer 0..65535, found a string" },
  { "{\"name\": \"X\", \"type\": \"MAT0\", \"phases\": [], \"blocks\": [{\"keys\": {}}]}",
    "entries[0] (X).blocks[0].keys: expected an array, found an object" },
  /* beside a payload, and in an entry of another type, the material's
   * members are not used, but they are checked */
  { "{\"name\": \"T\", \"type\": \"Texm\", \"payload_base64\": \"AAAA\", \"meta\": {\"c\": \"x\"}}",
    "entries[0] (T).meta.c: expected a number, found a string" },
  { "{\"name\": \"X\", \"type\": \"MAT0\", \"payload_base64\": \"AQA=\", \"error\": \"cut\", \"phases\": 1}",
    "entries[0] (X).phases: expected an array, found a number" },
  /* the entry itself */
  { "[1]", "entries[0]: expected an object, found an array" },
};
