#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for
# the given number of seconds (default 60) on all cores, seeded with the
# demo libraries and the demo game folder's models (build: with documents
# cut from the demo's dumps). Usage: tests/fuzz/run-fuzz.sh [SECONDS]
# FUZZ_TARGETS picks some of them, e.g. FUZZ_TARGETS=texm-encode.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-60}
jobs=${FUZZ_JOBS:-$(nproc)}
targets=${FUZZ_TARGETS:-archive texm texm-encode msh build}

[ -d _build-fuzz ] || CC=clang meson setup _build-fuzz -Dfuzzing=true --buildtype=debugoptimized
ninja -C _build-fuzz tests/fuzz/fuzz-archive tests/fuzz/fuzz-texm tests/fuzz/fuzz-texm-encode \
  tests/fuzz/fuzz-msh tests/fuzz/fuzz-build src/mat0tool data/Material.lib data/Textures.lib \
  data/game/static.rlb

corpus=_build-fuzz/corpus
mkdir -p "$corpus/archive" "$corpus/texm" "$corpus/texm-encode" "$corpus/msh" "$corpus/build"
cp _build-fuzz/data/Material.lib "$corpus/archive/demo-materials.lib"
# Texm seeds: every payload of the demo Textures.lib, cut out by offset.
python3 - "$corpus/texm" _build-fuzz/data/Textures.lib <<'PY'
import struct, sys
out, path = sys.argv[1], sys.argv[2]
d = open(path, 'rb').read()
n = struct.unpack_from('<i', d, 8)[0]
base = len(d) - 64 * n
for i in range(n):
    size, = struct.unpack_from('<I', d, base + 64 * i + 12)
    off, = struct.unpack_from('<I', d, base + 64 * i + 56)
    open(f'{out}/seed-{i}.texm', 'wb').write(d[off:off + size])
PY
# Encoder seeds: each format with and without dithering, a Page chunk and a
# fixed palette, over a few pixels (the target repeats them).
python3 - "$corpus/texm-encode" <<'PY'
import sys
out = sys.argv[1]
for fmt in range(8):
    for flags in (0x00, 0x08, 0x10, 0x38, 0x50):
        # sizes, flags, extra, mode (1: noise pixels, 2: opaque), cells
        head = bytes([0x1B, fmt | flags, 0xC4, 3 if flags & 8 else 0, 3, 9, 1, 5, 60, 30, 20, 10])
        pixels = bytes((i * 37 + fmt) & 255 for i in range(64))
        open(f'{out}/seed-{fmt}-{flags:02x}.bin', 'wb').write(head + pixels)
PY

# MESH + WEAR seeds: the demo game's archives whole, and each of their
# MESH and WEAR members on its own.
cp _build-fuzz/data/game/*.rlb "$corpus/msh/"
python3 - "$corpus/msh" _build-fuzz/data/game/*.rlb <<'PY'
import struct, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    d = open(path, 'rb').read()
    n = struct.unpack_from('<i', d, 8)[0]
    base = len(d) - 64 * n
    for i in range(n):
        size, = struct.unpack_from('<I', d, base + 64 * i + 12)
        name = d[base + 64 * i + 20:base + 64 * i + 56].split(b'\0')[0].decode('ascii')
        off, = struct.unpack_from('<I', d, base + 64 * i + 56)
        open(f'{out}/member-{name}', 'wb').write(d[off:off + size])
PY

# build seeds: the demo's dump cut into documents of a few entries each
# (the whole one is past -max_len), the smallest Texm entry, and a few
# documents that must be refused or kept as they say.
_build-fuzz/src/mat0tool dump _build-fuzz/data/Material.lib --json > "$corpus/demo.json"
_build-fuzz/src/mat0tool dump _build-fuzz/data/Textures.lib --json > "$corpus/textures.json"
python3 - "$corpus/build" "$corpus/demo.json" "$corpus/textures.json" <<'PY'
import json, sys
out, materials, textures = sys.argv[1:4]
demo = json.load(open(materials))
entries = demo['entries']
for i in range(0, len(entries), 3):
    doc = {'archive': demo['archive'], 'entries': entries[i:i + 3]}
    open(f'{out}/demo-{i:02d}.json', 'w').write(json.dumps(doc, indent=2))
smallest = min(json.load(open(textures))['entries'], key=lambda e: len(e.get('payload_base64', '')))
open(f'{out}/texm.json', 'w').write(json.dumps({'entries': [smallest]}))
hostile = [
    '{"entries": [{"name": "X", "type": "MAT0", "attr2": 6, "meta": {"c": "1.5"}, "phases": [], "blocks": []}]}',
    '{"entries": [{"name": "A\\u0000B", "type": "MAT0", "phases": [], "blocks": []}]}',
    '{"entries": [{"name": "X", "type": "MAT0", "attr2": 6, "payload_base64": "AQA=", "error": "cut"}]}',
    '{"entries": [{"name": "X", "type": "MAT0", "name_raw": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}]}',
]
for i, text in enumerate(hostile):
    open(f'{out}/hostile-{i}.json', 'w').write(text)
PY
rm "$corpus/demo.json" "$corpus/textures.json"

for target in $targets; do
  run=_build-fuzz/run-$target
  rm -rf "$run" && mkdir -p "$run"
  echo "== fuzz-$target: $seconds s on $jobs jobs"
  (cd "$run" && ASAN_OPTIONS=detect_leaks=1 \
    ../tests/fuzz/fuzz-$target -max_total_time="$seconds" -jobs="$jobs" -workers="$jobs" \
      -max_len=65536 -print_final_stats=1 "../corpus/$target" > main.log 2>&1) || {
    echo "fuzz-$target found a problem: see $run/*.log"; exit 1; }
  grep -h "stat::number_of_executed_units" "$run"/fuzz-*.log |
    awk -v t="$target" '{s += $2} END {print "fuzz-" t ": " s " executions, no crash, no leak"}'
done
