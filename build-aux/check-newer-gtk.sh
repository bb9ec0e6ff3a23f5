#!/usr/bin/env bash
# Compiles every file that uses GTK against the GTK and GLib headers of a
# newer Debian release (syntax and warnings only, every warning an error).
# The machines build with GTK 4.8 (Debian 12); the flatpak builds with a
# current GNOME runtime. This is where the GTK_CHECK_VERSION branches for
# newer GTK get compiled, and where a newer GTK's headers would show what
# breaks there.
#
# The packages are downloaded, checked against the Debian archive keyring,
# and unpacked into a temporary folder: nothing is installed.
#
# Usage: check-newer-gtk.sh [BUILD_DIR]
#   BUILD_DIR   a configured build folder, for config.h (default _build)
#   NEWER_GTK_SUITE=...   the Debian suite to take the headers from
#                         (default trixie)
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-_build}
suite=${NEWER_GTK_SUITE:-trixie}
[ -f "$build/config.h" ] || { echo "check-newer-gtk: no $build/config.h (run meson setup $build)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/newer-gtk.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/state/lists/partial" "$work/cache/archives/partial" "$work/debs" "$work/root"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
  > "$work/sources.list"
apt_options=(
  -qq
  -o Dir::Etc::SourceList="$work/sources.list"
  -o Dir::Etc::SourceParts=/dev/null
  -o Dir::State="$work/state"
  -o Dir::Cache="$work/cache"
  -o Debug::NoLocking=1
  -o APT::Sandbox::User=root
)
apt-get "${apt_options[@]}" update
(cd "$work/debs" && apt-get "${apt_options[@]}" download \
  libgtk-4-dev libgio-2.0-dev libpango1.0-dev libharfbuzz-dev libcairo2-dev \
  libgdk-pixbuf-2.0-dev libgraphene-1.0-dev)
for deb in "$work"/debs/*.deb; do
  dpkg-deb -x "$deb" "$work/root"
done

root="$work/root/usr"
version=$(sed -n 's/^#define GTK_\(MAJOR\|MINOR\|MICRO\)_VERSION (\([0-9]*\))$/\2/p' \
            "$root/include/gtk-4.0/gtk/gtkversion.h" | paste -sd.)
echo "check-newer-gtk: GTK $version headers from Debian $suite"

# The project's own flags (meson.build), the newer headers as system ones.
flags=(
  -fsyntax-only -std=gnu11 -Wall -Wextra -Wpedantic -Werror
  -Wno-unused-parameter -Wno-overlength-strings -ffp-contract=off
  -D_FILE_OFFSET_BITS=64 -DG_LOG_USE_STRUCTURED
  -DGLIB_VERSION_MIN_REQUIRED=GLIB_VERSION_2_74
  -DGLIB_VERSION_MAX_ALLOWED=GLIB_VERSION_2_74
  -DGDK_VERSION_MIN_REQUIRED=GDK_VERSION_4_8
  -isystem "$root/include/gtk-4.0"
  -isystem "$root/include/glib-2.0"
  -isystem "$root/lib/x86_64-linux-gnu/glib-2.0/include"
  -isystem "$root/include/gio-unix-2.0"
  -isystem "$root/include/pango-1.0"
  -isystem "$root/include/harfbuzz"
  -isystem "$root/include/cairo"
  -isystem "$root/include/gdk-pixbuf-2.0"
  -isystem "$root/include/graphene-1.0"
  -isystem "$root/lib/x86_64-linux-gnu/graphene-1.0/include"
  $(pkg-config --cflags-only-I freetype2 fribidi pixman-1 libpng json-glib-1.0 epoxy x11 | sed 's/-I/-isystem /g')
  -I "$build" -I "$build/src/views"
  -I src/core -I src/model -I tests/support -I tests/ui
)
for dir in src/views/*/; do
  flags+=(-I "$dir")
done

status=0
for file in src/main.c src/views/*/*.c tests/ui/*.c tests/bench/bench-ui.c tests/bench/bench-preview.c; do
  if ! gcc "${flags[@]}" "$file"; then
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "check-newer-gtk: every file compiles against GTK $version without a warning"
exit "$status"
