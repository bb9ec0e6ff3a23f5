#!/usr/bin/env bash
# Builds the project in _build (once) and runs every test suite: the UI
# tests get a virtual display (Xvfb, with Mesa's llvmpipe for OpenGL) and a
# session bus of their own.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -d _build ] || meson setup _build
meson compile -C _build
xvfb-run -a -s "-screen 0 1280x1024x24" \
  dbus-run-session -- meson test -C _build --print-errorlogs "$@"
