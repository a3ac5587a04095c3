#!/usr/bin/env bash
# Packs the shared libraries clviz-bench and clviz link that the lent GPU machine (Ubuntu 24.04,
# NVIDIA's driver, no Debian -dev packages) lacks: CLBlast, LAPACKE/OpenBLAS and their Fortran
# runtime, Open MPI, stb. glibc, the C++ runtime, the OpenCL ICD loader and the GL/X stack are
# left out (the host has the first three; .gl/ carries the last, see pack-carry.sh).
# Usage: bench/device/pack-bench-libs.sh DEST [BINARY...]   (default: build/clviz-bench build/clviz)
# Writes DEST/bench-libs.tar.xz; unpack it anywhere and point LD_LIBRARY_PATH at that folder.
set -euo pipefail
dest=${1:?usage: pack-bench-libs.sh DEST [BINARY...]}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=("$root/build/clviz-bench" "$root/build/clviz")
skip='libc\.so|libm\.so|ld-linux|libpthread|libdl\.so|librt\.so|libOpenCL|libstdc\+\+|libgcc_s|libGL|libX|libxcb|libEGL|libGLX|libGLdispatch|libglfw|libvulkan|libOpenGL'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ldd "${bins[@]}" | awk '/=> \//{print $1, $3}' | sort -u | grep -Ev "$skip" |
    while read -r soname path; do cp -L "$path" "$work/$soname"; done
mkdir -p "$dest"
tar -C "$work" --sort=name --mtime=@0 --owner=0 --group=0 -cf - . | xz -3 -T2 >"$dest/bench-libs.tar.xz"
echo "pack-bench-libs: $(ls "$work" | wc -l) libraries, $(du -h "$dest/bench-libs.tar.xz" | cut -f1)"
