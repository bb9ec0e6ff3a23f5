#!/usr/bin/env bash
# Builds the project in _build (once) and runs every test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -d _build ] || meson setup _build
meson compile -C _build
meson test -C _build --print-errorlogs "$@"
