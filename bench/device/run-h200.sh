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
        --variants vectorized,async-copy,small-n,unrolled --sizes 16k,64k,256k,1m --wg 128,256 \
        --json "$out/nbody-h200.json" --csv "$out/nbody-h200.csv" 2>"$out/nbody-progress.txt" |
        tee "$out/nbody-table.txt"
    ;;
viewer)
    x=/opt/x
    mkdir -p $x && tar xJf .gl/xroot.tar.xz -C $x
    export LD_LIBRARY_PATH=$x/usr/lib/x86_64-linux-gnu:$x/lib/x86_64-linux-gnu
    export LIBGL_DRIVERS_PATH=$x/usr/lib/x86_64-linux-gnu/dri
    ln -sf $x/usr/bin/xkbcomp /usr/bin/xkbcomp 2>/dev/null
    $x/usr/bin/Xvfb :7 -screen 0 1280x800x24 -xkbdir $x/usr/share/X11/xkb >"$out/xvfb.txt" 2>&1 &
    sleep 3
    export DISPLAY=:7 __GLX_VENDOR_LIBRARY_NAME=nvidia
    for n in 65536 262144; do
        for interop in auto host-copy; do
            echo "== N=$n interop=$interop"
            timeout 120 $bin/clviz --device-type gpu --vsync off --n $n --interop $interop \
                --frames 400 --screenshot "$out/viewer-$n-$interop.png" 2>&1 | tail -6
        done
    done | tee "$out/viewer.txt"
    ;;
esac
done
