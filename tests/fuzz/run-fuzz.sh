#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for
# the given number of seconds (default 60) on all cores, seeded with the
# demo libraries and the demo game folder's models. Usage: tests/fuzz/run-fuzz.sh [SECONDS]
# FUZZ_TARGETS picks some of them, e.g. FUZZ_TARGETS=texm-encode.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-60}
jobs=${FUZZ_JOBS:-$(nproc)}
targets=${FUZZ_TARGETS:-archive texm texm-encode msh}

[ -d _build-fuzz ] || CC=clang meson setup _build-fuzz -Dfuzzing=true --buildtype=debugoptimized
ninja -C _build-fuzz tests/fuzz/fuzz-archive tests/fuzz/fuzz-texm tests/fuzz/fuzz-texm-encode \
  tests/fuzz/fuzz-msh data/Material.lib data/Textures.lib data/game/static.rlb

corpus=_build-fuzz/corpus
mkdir -p "$corpus/archive" "$corpus/texm" "$corpus/texm-encode" "$corpus/msh"
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
