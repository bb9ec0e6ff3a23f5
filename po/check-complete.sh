#!/bin/sh
# Checks that po/ru.po (and every other language in po/LINGUAS) translates
# every message of the current sources:
#   1. every file that holds translatable strings is listed in po/POTFILES.in
#      (C files under src/ using _(), N_(), C_()..., GtkBuilder files under ui/
#      with translatable="yes", the desktop, metainfo and GSettings schema
#      files under data/), and every listed file exists;
#   2. a fresh template extracted with xgettext from POTFILES.in, merged with
#      each .po file, has no untranslated and no fuzzy messages and passes
#      msgfmt --check (format specifiers must match).
# Usage: check-complete.sh [SOURCE_ROOT]   (run by `meson test --suite po`)
# Exit status 77 (skip) when the gettext tools are not installed.
set -eu

srcroot=${1:-"$(dirname "$0")/.."}
cd "$srcroot"

for tool in xgettext msgmerge msgfmt msgattrib; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool not found (install the Debian package 'gettext')"
        exit 77
    fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/po-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

status=0

# Keywords of meson's i18n 'glib' preset (see po/meson.build).
kw_re='(^|[^A-Za-z0-9_])(_|N_|C_|NC_|g_dcgettext|g_dngettext|g_dpgettext2|ngettext|dngettext)[[:space:]]*\('

grep -v '^[[:space:]]*#' po/POTFILES.in | sed '/^[[:space:]]*$/d' | sort -u >"$tmp/listed"
{
    grep -rlE --include='*.c' --include='*.h' "$kw_re" src || true
    if [ -d ui ]; then grep -rl --include='*.ui' 'translatable="yes"' ui || true; fi
    if [ -d data ]; then
        find data -name '*.desktop.in' -o -name '*.metainfo.xml.in'
        grep -rlE --include='*.gschema.xml' '<(summary|description)' data || true
    fi
} | sort -u >"$tmp/used"

missing=$(comm -13 "$tmp/listed" "$tmp/used")
if [ -n "$missing" ]; then
    echo "FAIL: files with translatable strings that are missing from po/POTFILES.in:"
    echo "$missing" | sed 's/^/    /'
    status=1
fi
while IFS= read -r f; do
    if [ ! -f "$f" ]; then
        echo "FAIL: po/POTFILES.in lists $f, which does not exist"
        status=1
    fi
done <"$tmp/listed"
[ "$status" -eq 0 ] || exit "$status"

# Same options as i18n.gettext(preset: 'glib').
xgettext --files-from=po/POTFILES.in --directory=. \
    --output="$tmp/template.pot" --package-name=parkan-matedit \
    --from-code=UTF-8 --add-comments \
    --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
    --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 \
    --keyword=g_dpgettext2:2c,3 \
    --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format \
    --flag=NC_:2:pass-c-format --flag=g_dngettext:2:pass-c-format \
    --flag=g_strdup_printf:1:c-format --flag=g_string_printf:2:c-format \
    --flag=g_string_append_printf:2:c-format --flag=g_error_new:3:c-format \
    --flag=g_set_error:4:c-format --flag=g_markup_printf_escaped:1:c-format \
    --flag=g_log:3:c-format --flag=g_print:1:c-format \
    --flag=g_printerr:1:c-format --flag=g_printf:1:c-format \
    --flag=g_fprintf:2:c-format --flag=g_sprintf:2:c-format \
    --flag=g_snprintf:3:c-format 2>"$tmp/xgettext.log"
cat "$tmp/xgettext.log" >&2

# A format macro inside _() (_("%" G_GSIZE_FORMAT " bytes")) cuts the msgid at
# the macro: the string can never be translated at runtime. Use %zu, %lu with
# a cast, or <inttypes.h> PRIu64 (which xgettext understands) instead.
# Reported as a warning; set PO_CHECK_STRICT=1 to make it fatal.
macro_re='(^|[^A-Za-z0-9_])N?_\(("([^"\\]|\\.)*"[[:space:]]*)+G_G?[A-Z0-9]+_(FORMAT|MODIFIER)'
if grep -nE "$macro_re" $(cat "$tmp/listed") >"$tmp/macros"; then
    echo "WARNING: msgids cut at a format macro such as G_GSIZE_FORMAT (untranslatable at runtime):"
    sed 's/^/    /' "$tmp/macros"
    if [ "${PO_CHECK_STRICT:-0}" = 1 ]; then
        status=1
    fi
fi

langs=$(grep -v '^[[:space:]]*#' po/LINGUAS | tr -s ' \t' '\n' | sed '/^$/d')
for lang in $langs; do
    po="po/$lang.po"
    if [ ! -f "$po" ]; then
        echo "FAIL: $po listed in po/LINGUAS does not exist"
        status=1
        continue
    fi
    merged="$tmp/$lang.po"
    msgmerge --quiet --no-wrap --output-file="$merged" "$po" "$tmp/template.pot"

    if ! msgfmt --check --statistics --output-file=/dev/null "$merged" 2>"$tmp/stats"; then
        echo "FAIL: msgfmt --check rejects $po merged with the current sources:"
        sed 's/^/    /' "$tmp/stats"
        status=1
        continue
    fi
    stats=$(cat "$tmp/stats")
    echo "$lang: $stats"

    case $stats in
        *untranslated*|*fuzzy*)
            echo "FAIL: $po is incomplete; untranslated and fuzzy messages follow"
            echo "(update it with: meson compile -C BUILDDIR parkan-matedit-update-po)"
            msgattrib --only-fuzzy --no-obsolete "$merged" \
                | awk 'BEGIN { RS = "" } NR > 1 { print "    [fuzzy]"; print; print "" }'
            msgattrib --untranslated --no-obsolete "$merged" \
                | awk 'BEGIN { RS = "" } NR > 1 { print "    [untranslated]"; print; print "" }'
            status=1 ;;
    esac
done

exit "$status"
