#!/usr/bin/env bash
# The dependency list stays whole: every Debian package the configure step checks for is one that
# scripts/setup.sh installs, and a configure that finds no headers or libraries stops with one
# line per missing package that names it.
#   dependencies_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1
work=$2
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# setup.sh's package array, comments and all, as one word per line.
installed=$(sed -n '/^packages=(/,/^)/p' "$src/scripts/setup.sh" | sed 's/#.*//; s/packages=(//; s/)//' |
    tr -s ' \t' '\n' | sed '/^$/d' | sort -u)
checked=$(grep -oE '^\s*clviz_need\([a-z]+ [^ ]+ [^ )]+\)' "$src/cmake/Dependencies.cmake" |
    sed -E 's/.* ([^ )]+)\)$/\1/' | sort -u)
[ -n "$checked" ] || fail "found no clviz_need() lines in cmake/Dependencies.cmake"
for p in $checked; do
    grep -qx -- "$p" <<<"$installed" || fail "cmake/Dependencies.cmake checks for $p, which scripts/setup.sh does not install"
done
echo "all $(wc -w <<<"$checked") checked packages are installed by scripts/setup.sh"

# A configure that can see no headers and no libraries (as on a machine without the -dev packages).
rm -rf "$work"
status=0
cmake -S "$src" -B "$work" -DCMAKE_FIND_ROOT_PATH=/nonexistent \
    -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY \
    >"$work.out" 2>&1 || status=$?
cat "$work.out"
rm -rf "$work"
[ "$status" -ne 0 ] || fail "configure succeeded without any headers"
for line in "missing header X11/extensions/Xrandr.h: install the Debian package libxrandr-dev" \
    "missing header CL/opencl.hpp: install the Debian package opencl-clhpp-headers" \
    "missing library OpenCL: install the Debian package ocl-icd-opencl-dev"; do
    grep -qF -- "clviz: $line" "$work.out" || fail "configure output lacks '$line'"
done
echo "ok"
