#!/usr/bin/env bash
# Runs on the H200 device machine from the repository root (see README.md beside this file).
# Usage: bench/device/run-h200.sh [image] [nbody] [viewer] [interop] [interop-quick]
# interop-quick: the interop tests and clviz-interop-bench only (no viewer runs).
# viewer and interop need .gl/xroot.tar.xz and .gl/extra.tar.xz (bench/device/pack-carry.sh).
set -uo pipefail
bin=${BIN:-.carry}  # folder holding the carried clviz-bench and clviz
final=${OUT:-/tmp/out}
out=/tmp/clviz-results
mkdir -p "$out" "$final"
# $OUT returns at most 8 files: everything goes into one archive at the end.
trap 'tar czf "$final/results.tgz" -C "$out" .' EXIT
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv | tee "$out/gpu.txt"

# Debian Xvfb, glvnd and Vulkan loaders, GLFW from .gl/ in a private prefix; GLX reaches the GPU
# through NVIDIA's vendor library.
start_x() {
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
    # NVIDIA's Vulkan ICD for the loader carried in xroot (external-memory path).
    for icd in /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json \
        /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; do
        [ -f "$icd" ] && export VK_DRIVER_FILES=$icd && break
    done
}

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
viewer | interop | interop-quick)
    start_x
    if [ "$what" = viewer ]; then
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
    else
    # external-memory: the full CL <-> GL path's tests (byte-exact, across switches), the
    # hand-over cost of each path alone, then the viewer with each path side by side.
    timeout 120 $bin/app_interop_external_memory_gl_test 2>&1 | tee "$out/interop-tests.txt"
    timeout 180 $bin/app_nbody_demo_gl_test 2>&1 | tail -n 30 | tee -a "$out/interop-tests.txt"
    timeout 120 $bin/clviz-interop-bench 1048576 8192 20 2>&1 | tee "$out/interop-bench.txt"
    [ "$what" = interop-quick ] && continue
    for run in "65536 external-memory 600 on" "65536 host-copy 600 on" \
        "65536 external-memory 600 off" "65536 host-copy 600 off" \
        "1048576 external-memory 40 off" "1048576 host-copy 40 off"; do
        set -- $run
        echo "== N=$1 interop=$2 frames=$3 gui=$4 window=640x360"
        timeout 120 $bin/clviz --device-type gpu --vsync off --frames $3 --set n=$1 \
            --interop $2 --set diagnostics=0 --width 640 --height 360 --set app.gui=$4 \
            --screenshot "$out/interop-$1-$2-$4.png" 2>&1 | grep -E "summary|interop"
    done 2>&1 | tee "$out/interop-viewer.txt"
    # The screenshot for the docs: Interop panel expanded, external memory active.
    timeout 120 $bin/clviz --device-type gpu --vsync off --frames 300 --set n=65536 \
        --interop external-memory --set interop-panel=open --width 1280 --height 720 \
        --screenshot "$out/interop-panel-h200.png" 2>&1 | grep -E "summary|interop" |
        tee -a "$out/interop-viewer.txt"
    # Live switches and N changes while running: the last frame must still be external memory.
    echo "== live switches" | tee -a "$out/interop-viewer.txt"
    timeout 120 $bin/clviz --device-type gpu --vsync off --frames 400 --set n=65536 \
        --interop external-memory --set diagnostics=0 --width 640 --height 360 \
        --set-at 100:interop=host-copy --set-at 150:interop=external-memory --set-at 200:n=70001 \
        --set-at 250:interop=auto --set-at 300:n=65536 --set-at 350:interop=external-memory \
        --screenshot "$out/interop-switches.png" 2>&1 | grep -E "summary|interop|error" |
        tee -a "$out/interop-viewer.txt"
    fi
    ;;
esac
done
