#!/usr/bin/env bash
# Builds .gl/xroot.tar.xz and .gl/extra.tar.xz, the X server, GL/Vulkan loaders and client
# libraries that bench/device/run-h200.sh unpacks on the H200 (Ubuntu 24.04, which has NVIDIA's
# GL/Vulkan drivers but no X server, no glvnd loaders, no GLFW and no Vulkan loader).
#
# Reproducible from Debian 12 packages alone: `apt-get download` of a fixed list and its
# dependencies (resolved here, amd64), `dpkg -x` into a staging root, then tar + xz.
# xroot: X server, Mesa (Xvfb's own GLX needs swrast_dri.so), glvnd + Vulkan loaders, GLFW, the
#        X client libraries, stb (clviz links libstb.so.0).
# extra: general base libraries; run-h200.sh drops each one whose soname the host already has.
# icu72: ICU's two libraries, for Debian's libxml2 (Mesa's swrast_dri.so needs it) on hosts with
#        no libxml2 of their own; run-h200.sh puts them on the library path.
# mpi-runtime: the Open MPI libraries clviz links (the viewer never starts MPI without --mpi),
#        so viewer runs need not carry .carry-mpi.
# xz -3: nearly -9's size for this content at a fraction of the CPU time.
# Usage: bench/device/pack-carry.sh [DEST]   (default /work/main/.gl; git-excluded there)
set -euo pipefail
dest=${1:-/work/main/.gl}
roots=(xvfb x11-xkb-utils xkb-data libgl1-mesa-dri libglx-mesa0 libgl1 libglx0 libglvnd0 libegl1
    libopengl0 libgles2 libglfw3 libvulkan1 libxrandr2 libxinerama1 libxcursor1 libxi6 libstb0)
# Provided by every Linux host, or scripts that only matter to a booted Debian system; and ICU
# (31 MB of data), needed only by Debian's libxml2, which the H200's Ubuntu 24.04 has itself
# (libxml2.so.2 with ICU 74, checked 2026-11-23), so run-h200.sh drops the carried one anyway.
skip='^(libc6|libgcc-s1|libstdc\+\+6|gcc-12-base|lsb-base|sysvinit-utils|libelogind0|libaudit-common|debconf|dpkg|perl-base|tar|libicu72)$'
# Everything else that is not X/GL/Vulkan-specific goes to extra.
xgl='^(libx|libgl|libegl|libopengl|libvulkan|libdrm|libllvm|libgbm|libwayland|libpixman|libfontenc|libice|libsm6|libsensors|libpciaccess|x11-|xkb-|xserver-|xvfb|libz3|libedit|libunwind|libstb)'

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "pack-carry: staging in $work"
apt_opts=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64)

mapfile -t pkgs < <(apt-cache "${apt_opts[@]}" depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances "${roots[@]}" |
    grep -v '^ ' | grep -v '<' | sed 's/:amd64$//' | sort -u | grep -Ev "$skip")
echo "pack-carry: ${#pkgs[@]} packages"
mkdir -p "$work/debs" "$work/xroot" "$work/extra"
(cd "$work/debs" && apt-get "${apt_opts[@]}" download -qq "${pkgs[@]}")
for deb in "$work"/debs/*.deb; do
    name=$(dpkg-deb -f "$deb" Package)
    if [[ $name =~ $xgl ]]; then dpkg -x "$deb" "$work/xroot"; else dpkg -x "$deb" "$work/extra"; fi
done
# Documentation, manuals and locales are not needed to run anything.
for r in xroot extra; do
    rm -rf "$work/$r"/usr/share/{doc,man,locale,lintian,bug,info}
done
mkdir -p "$dest"
# Fixed order and timestamps so that the same packages give the same archive. Written beside and
# renamed, so that a run carrying .gl meanwhile never sees half an archive.
for r in xroot extra; do
    tar -C "$work/$r" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . |
        xz -3 -T2 >"$dest/$r.tar.xz.part"
    mv "$dest/$r.tar.xz.part" "$dest/$r.tar.xz"
done
# Named shared libraries from a few packages, flat under lib/ (icu72) or at the top
# (mpi-runtime). Usage: libs_archive NAME SUBDIR "LIB.so.N ..." PACKAGE...
libs_archive() {
    local name=$1 sub=$2 libs=$3
    shift 3
    mkdir -p "$work/$name/pkgs" "$work/$name/root/$sub"
    (cd "$work/$name/pkgs" && apt-get "${apt_opts[@]}" download -qq "$@")
    for deb in "$work/$name"/pkgs/*.deb; do dpkg -x "$deb" "$work/$name/x"; done
    for lib in $libs; do
        cp -L "$work/$name/x/usr/lib/x86_64-linux-gnu/$lib" "$work/$name/root/$sub/"
    done
    tar -C "$work/$name/root" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . |
        xz -3 -T2 >"$dest/$name.tar.xz.part"
    mv "$dest/$name.tar.xz.part" "$dest/$name.tar.xz"
}
libs_archive icu72 lib "libicuuc.so.72 libicudata.so.72" libicu72
libs_archive mpi-runtime . "libmpi.so.40 libopen-rte.so.40 libopen-pal.so.40 libhwloc.so.15
    libevent_core-2.1.so.7 libevent_pthreads-2.1.so.7" libopenmpi3 libhwloc15 libevent-core-2.1-7 \
    libevent-pthreads-2.1-7
ls -l "$dest"/*.tar.xz
du -ch "$dest"/*.tar.xz | tail -1
