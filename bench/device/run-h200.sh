#!/usr/bin/env bash
# Runs on the H200 device machine from the repository root (see README.md beside this file).
# Usage: bench/device/run-h200.sh [image] [nbody] [viewer]
set -uo pipefail
bin=${BIN:-.carry}  # folder holding the carried clviz-bench and clviz
final=${OUT:-/tmp/out}
out=/tmp/clviz-results
mkdir -p "$out" "$final"
# $OUT returns at most 8 files: everything goes into one archive at the end.
trap 'tar czf "$final/results.tgz" -C "$out" .' EXIT
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv | tee "$out/gpu.txt"

for what in "$@"; do
case $what in
image)
    $bin/clviz-bench --suite image --device-type gpu --json "$out/image-h200.json" \
        --csv "$out/image-h200.csv" 2>"$out/image-progress.txt" | tee "$out/image-table.txt"
    ;;
nbody)
    $bin/clviz-bench --suite nbody --device-type gpu --no-cpu-baseline \
        --variants vectorized,async-copy,small-n,unrolled,auto --sizes 16k,64k,256k,1m --wg 128,256 \
        --json "$out/nbody-h200.json" --csv "$out/nbody-h200.csv" 2>"$out/nbody-progress.txt" |
        tee "$out/nbody-table.txt"
    ;;
viewer)
    x=/opt/x
    mkdir -p $x /opt/x2 && tar xJf .gl/xroot.tar.xz -C $x && tar xJf .gl/extra.tar.xz -C /opt/x2
    # Base libraries (freetype, png, ...) only where the host lacks that soname.
    for f in /opt/x2/usr/lib/x86_64-linux-gnu/*.so.* /opt/x2/lib/x86_64-linux-gnu/*.so.*; do
        ldconfig -p | grep -q "^\s*$(basename "$f") " && rm -f "$f"
    done
    export LD_LIBRARY_PATH=$x/usr/lib/x86_64-linux-gnu:$x/lib/x86_64-linux-gnu:/opt/x2/usr/lib/x86_64-linux-gnu:/opt/x2/lib/x86_64-linux-gnu
    for f in $x/usr/bin/Xvfb $x/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so $bin/clviz; do
        ldd "$f" | grep "not found" | sed "s|^|missing for $(basename "$f"): |"
    done
    export LIBGL_DRIVERS_PATH=$x/usr/lib/x86_64-linux-gnu/dri
    ln -sf $x/usr/bin/xkbcomp /usr/bin/xkbcomp 2>/dev/null
    $x/usr/bin/Xvfb :7 -screen 0 1280x800x24 -xkbdir $x/usr/share/X11/xkb >"$out/xvfb.txt" 2>&1 &
    sleep 3
    export DISPLAY=:7 __GLX_VENDOR_LIBRARY_NAME=nvidia
    # N, colour, window size, GUI: the default view, then without the velocity copy, a small
    # window (less for Xvfb to read back on each swap), no ImGui, and a large N.
    for run in "65536 speed 1280x720 on" "65536 mass 1280x720 on" "65536 speed 640x360 on" \
        "65536 speed 1280x720 off" "262144 speed 1280x720 on"; do
        set -- $run
        echo "== N=$1 colour=$2 window=$3 gui=$4"
        timeout 120 $bin/clviz --device-type gpu --vsync off --frames 600 --set n=$1 \
            --set colour=$2 --set diagnostics=0 --width ${3%x*} --height ${3#*x} --set app.gui=$4 \
            --screenshot "$out/viewer-$1-$2-$3-$4.png" 2>&1 | grep "summary"
    done | tee "$out/viewer.txt"
    ;;
esac
done
