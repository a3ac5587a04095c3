#!/usr/bin/env bash
# Packs the windowed viewer's carry for the lent GPU small enough to travel with the session's
# checkout (the device tool's 64 MiB covers both; the checkout was 18.2 MB on 2026-11-26).
# From pack-carry.sh's archives (GL_DIR, default /work/main/.gl) and this machine's libraries:
#   gl/xroot.tar.xz   Xvfb, xkbcomp and xkb data, glvnd, GLFW, the Vulkan loader, the X client
#                     libraries and Mesa's swrast_dri.so with libLLVM-15 and libz3. Mesa stays:
#                     Xvfb registers its GLX extension only when a GL provider (swrast) loads,
#                     and NVIDIA's libGLX needs that extension to make a context on any X server.
#                     Left out: the other DRI drivers, Mesa's own GLX/EGL vendor libraries, GBM
#                     and Wayland (only those two use them), libxml2 (start-x.sh uses the host's),
#                     xkbprint and its Athena libraries, GLES and libOpenGL (GLFW makes GLX
#                     contexts), libunwind's ptrace and core-dump parts, X locales but C and
#                     en_US.UTF-8.
#   gl/extra.tar.xz   the base libraries Xvfb and Mesa need, less those every Ubuntu 24.04 host
#                     has (systemd, gcrypt, zstd, pcre2, lzma, selinux, ...: start-x.sh would
#                     drop them there anyway).
#   bench-libs.tar.xz what the binaries link that the host lacks (ldd), with OpenBLAS as its one
#                     library: libblas.so.3 and liblapack.so.3 (LAPACKE's) are links to
#                     libopenblas.so.0, which exports both interfaces. BLAS=reference carries
#                     Debian's reference BLAS and LAPACK instead (2.4 against 4.4 MB) with
#                     libopenblas.so.0 a link to libblas.so.3: for viewer runs only, which call no
#                     BLAS; the run must set OPENBLAS_CORETYPE, so that clviz's start never asks
#                     OpenBLAS for its core (run-viewer31-h200.sh does, where $C/blas-reference is).
#   bin.tar.xz        the binaries, stripped, each as NAME/clviz (run-viewer-trace.sh's start
#                     checks the folder's clviz).
#   the scripts the run needs (run-viewer-trace.sh, start-x.sh, run-viewer31-h200.sh,
#   frame_trace_stats.py), copied: the device gets the session's checkout, not this branch.
# Everything is xz -9e with the x86 filter (most of it is machine code): gl/ takes minutes, so it
# is packed again only when missing, older than pack-carry.sh's archives, or with FORCE=1.
# Usage: bench/device/pack-viewer-carry.sh DEST NAME=BINARY...
#   e.g. pack-viewer-carry.sh /work/main/.carry-viewer-31 main=/work/before-bin/befb932/clviz \
#        new=build/clviz
set -euo pipefail
dest=${1:?usage: pack-viewer-carry.sh DEST NAME=BINARY...}
shift
[ $# -gt 0 ] || { echo "pack-viewer-carry: name at least one NAME=BINARY" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
gl=${GL_DIR:-/work/main/.gl}
for a in xroot extra; do
    [ -f "$gl/$a.tar.xz" ] || { echo "pack-viewer-carry: no $gl/$a.tar.xz (run pack-carry.sh)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pack() {  # pack FOLDER ARCHIVE: fixed order and times, written beside and renamed
    tar -C "$1" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . |
        xz -9e --x86 --lzma2=preset=9e -T1 >"$2.part"
    mv "$2.part" "$2"
}
mkdir -p "$dest/gl" "$work/xroot" "$work/extra" "$work/libs" "$work/bin"

fresh() {  # fresh ARCHIVE SOURCE: ARCHIVE exists, newer than SOURCE, and FORCE is not set
    [ -z "${FORCE:-}" ] && [ -f "$1" ] && [ "$1" -nt "$2" ]
}
if ! fresh "$dest/gl/xroot.tar.xz" "$gl/xroot.tar.xz"; then
tar xJf "$gl/xroot.tar.xz" -C "$work/xroot"
lib=$work/xroot/usr/lib/x86_64-linux-gnu
find "$lib/dri" -mindepth 1 ! -name swrast_dri.so -delete
rm -f "$lib"/libGLX_mesa.* "$lib"/libEGL_mesa.* "$lib"/libgbm.* "$lib"/libwayland-* \
    "$lib"/libxml2.* "$lib"/libXaw* "$lib"/libXmu* "$lib"/libXpm.* "$lib"/libXt.* \
    "$lib"/libGLESv2.* "$lib"/libOpenGL.* "$lib"/libunwind-ptrace.* "$lib"/libunwind-coredump.* \
    "$work/xroot/usr/bin/xkbprint"
# X locales: C and en_US.UTF-8 (the viewer sets no other).
find "$work/xroot/usr/share/X11/locale" -mindepth 1 -maxdepth 1 -type d ! -name C ! -name en_US.UTF-8 \
    -exec rm -rf {} +
rm -rf "$work/xroot/usr/share/glvnd/egl_vendor.d" "$work/xroot/usr/lib/x86_64-linux-gnu/gbm"
# The three largest files each in an archive of its own (together the same size as one archive,
# 38.0 MB, 2026-11-26), so each one's share of the carry shows: libLLVM-15 21.7 MB, swrast 6.8,
# libz3 6.3, the rest 3.1. start-x.sh unpacks every gl/xroot*.tar.xz.
for big in libLLVM-15.so.1 libz3.so.4 dri/swrast_dri.so; do
    part=$work/xroot-$(basename "${big%%.so*}")
    mkdir -p "$part/usr/lib/x86_64-linux-gnu/dri"
    mv "$lib/$big" "$part/usr/lib/x86_64-linux-gnu/$big"
    rmdir "$part/usr/lib/x86_64-linux-gnu/dri" 2>/dev/null || true
    pack "$part" "$dest/gl/$(basename "$part").tar.xz"
done
pack "$work/xroot" "$dest/gl/xroot.tar.xz"
fi

if ! fresh "$dest/gl/extra.tar.xz" "$gl/extra.tar.xz"; then
tar xJf "$gl/extra.tar.xz" -C "$work/extra"
for l in libgcrypt libsystemd libzstd libpcre2-8 liblzma libselinux libgpg-error liblz4 libaudit \
    libz.so libbz2 libcap libpsx libdrop_ambient libuuid libbrotlienc libexpatw libtic; do
    rm -f "$work/extra"/{usr/,}lib/x86_64-linux-gnu/"$l"*
done
rm -rf "$work/extra/usr/share"
pack "$work/extra" "$dest/gl/extra.tar.xz"
fi

# The libraries: as pack-bench-libs.sh, OpenBLAS once; stb is in xroot (libstb0), zlib,
# libmd and libbsd are on the host or in extra. Both builds go in one archive: xz's window holds
# the first when the second comes, so a second build of the same code adds little.
skip='libc\.so|libm\.so|ld-linux|libpthread|libdl\.so|librt\.so|libOpenCL|libstdc\+\+|libgcc_s|libGL|libX|libxcb|libEGL|libGLX|libGLdispatch|libglfw|libvulkan|libOpenGL|libstb|libblas\.so|liblapack\.so|libz\.so|libmd\.so|libbsd'
bins=()
for nb in "$@"; do
    name=${nb%%=*} binary=${nb#*=}
    mkdir -p "$work/bin/$name"
    strip -o "$work/bin/$name/clviz" "$binary"
    bins+=("$binary")
done
ldd "${bins[@]}" | awk '/=> \//{print $1, $3}' | sort -u | grep -Ev "$skip" |
    while read -r soname path; do cp -L "$path" "$work/libs/$soname"; done
rm -f "$dest/blas-reference"
if [ "${BLAS:-openblas}" = reference ]; then
    rm -f "$work/libs/libopenblas.so.0"
    cp -L /usr/lib/x86_64-linux-gnu/blas/libblas.so.3 /usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3 \
        "$work/libs/"
    ln -s libblas.so.3 "$work/libs/libopenblas.so.0"
    echo "Debian's reference BLAS and LAPACK; libopenblas.so.0 -> libblas.so.3" >"$dest/blas-reference"
elif [ -f "$work/libs/libopenblas.so.0" ]; then
    ln -s libopenblas.so.0 "$work/libs/libblas.so.3" && ln -s libopenblas.so.0 "$work/libs/liblapack.so.3"
fi
pack "$work/libs" "$dest/bench-libs.tar.xz"
pack "$work/bin" "$dest/bin.tar.xz"
cp "$here/run-viewer-trace.sh" "$here/start-x.sh" "$here/run-viewer31-h200.sh" \
    "$here/frame_trace_stats.py" "$dest/"
ls -l "$dest" "$dest/gl"
du -cb "$dest"/* "$dest"/gl/* | tail -1
