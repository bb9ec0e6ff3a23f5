#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for
# the given number of seconds (default 60) on all cores, seeded with the
# demo libraries. Usage: tests/fuzz/run-fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-60}
jobs=${FUZZ_JOBS:-$(nproc)}

[ -d _build-fuzz ] || CC=clang meson setup _build-fuzz -Dfuzzing=true --buildtype=debugoptimized
ninja -C _build-fuzz tests/fuzz/fuzz-archive tests/fuzz/fuzz-texm data/Material.lib data/Textures.lib

corpus=_build-fuzz/corpus
mkdir -p "$corpus/archive" "$corpus/texm"
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

for target in archive texm; do
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
