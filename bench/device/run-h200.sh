#!/usr/bin/env bash
# Runs on the H200 device machine from the repository root (see README.md beside this file).
# Usage: bench/device/run-h200.sh [image] [nbody] [viewer] [interop] [interop-quick] [sync] [gap]
#        [kernels-ab]
# interop-quick: the interop tests and clviz-interop-bench only (no viewer runs).
# sync: external memory with exported semaphores: its tests, the hand-over bench, the viewer and
#       the image lab at 8192^2 with each path side by side (issue 12).
# turns: GL and CL taking turns on the GPU against overlapping, with clviz-bench alongside.
# ab: the viewer with an older clviz ($OLD) and this one, interleaved.
# latency: the viewer at N = 65,536 with latency 1 and 0, presented and not (issue 14).
# gap:  the force kernel in the viewer against clviz-bench at N = 65,536 and 262,144, with the
#       frame presented and not (app.present=off: no Xvfb copy) (issue 14).
# kernels-ab: image rows with older kernel sources ($OLD_KERNELS, a copy of kernels/ from an
#       earlier commit, read through CLVIZ_KERNEL_DIR) and this build's, interleaved three times,
#       after the image filter and rotate tests on the GPU alone ($VARIANTS: the rows, default
#       copy,mean3,median3,rotate-buffer-bilinear,rotate-image-bilinear). Needs
#       compute_image_filters_test and compute_image_rotate_test beside clviz-bench.
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

# start_x: Debian Xvfb and NVIDIA GLX on display :7 (start-x.sh, shared with run-viewer-trace.sh).
source "$(dirname "$0")/start-x.sh"

# One viewer run: prints its summary lines. Arguments: a label, then clviz options.
viewer_run() {
    local label=$1
    shift
    echo "== $label"
    timeout 150 $bin/clviz --device-type gpu --vsync off "$@" 2>&1 |
        grep -E "summary|interop|error|sync"
}

for what in "$@"; do
case $what in
sync)
    start_x
    {
        timeout 150 $bin/compute_interop_external_memory_gl_test
        timeout 60 $bin/compute_interop_semaphore_schedule_test | tail -n 3
        timeout 150 $bin/compute_interop_texture_gl_test | tail -n 3
        for t in app_nbody_demo_gl_test app_image_demo_gl_test; do
            timeout 240 $bin/$t | grep -E -A3 "Failure|^\[  (PASSED|FAILED|SKIPPED)"
        done
    } 2>&1 | tee "$out/sync-tests.txt"
    timeout 150 $bin/clviz-interop-bench 1048576 8192 20 2>&1 | tee "$out/sync-bench.txt"
    # Viewer, N = 65,536 in 640x360 (the issue's frame/kernel target), paths alternated twice.
    for round in 1 2; do
        for path in external-memory host-copy; do
            viewer_run "N=65536 $path 640x360 gui=on round $round" --frames 1000 --set n=65536 \
                --interop $path --set diagnostics=0 --width 640 --height 360
        done
    done 2>&1 | tee "$out/sync-viewer.txt"
    for path in external-memory host-copy; do
        viewer_run "N=1048576 $path 640x360 gui=off" --frames 40 --set n=1048576 \
            --interop $path --set diagnostics=0 --width 640 --height 360 --set app.gui=off
    done 2>&1 | tee -a "$out/sync-viewer.txt"
    # The image lab at 8192^2 (noise, as a PPM), the chain run every frame.
    { printf 'P6\n8192 8192\n255\n'; head -c $((8192 * 8192 * 3)) /dev/urandom; } >/tmp/noise8192.ppm
    for filters in grayscale median3; do
        for path in external-memory host-copy; do
            viewer_run "image 8192^2 $filters $path 1280x720" --demo image \
                --image /tmp/noise8192.ppm --set continuous=on --set filters=$filters \
                --interop $path --frames 60 --width 1280 --height 720
        done
    done 2>&1 | tee "$out/sync-image.txt"
    viewer_run "panel screenshot" --frames 300 --set n=65536 --interop external-memory \
        --set interop-panel=open --width 1280 --height 720 \
        --screenshot "$out/interop-semaphores-h200.png" | tee -a "$out/sync-viewer.txt"
    ;;
turns)
    # GL and CL taking turns on the GPU (exported semaphores order the next steps after the
    # frame's drawing) against overlapping (the GPU time-slices), with clviz-bench's force time
    # for the same configuration in the same run (issue 14), then the tests of the path.
    $bin/clviz-bench --suite nbody --device-type gpu --no-cpu-baseline --variants auto \
        --sizes 64k,256k 2>"$out/turns-bench-progress.txt" | tee "$out/turns-bench.txt"
    start_x
    for n in 65536 262144; do
        frames=$((n == 65536 ? 800 : 150))
        for size in 640x360 1280x720; do
            for present in on off; do
                for turns in on off; do
                    viewer_run "N=$n take-turns=$turns present=$present $size" --frames $frames \
                        --set n=$n --set diagnostics=0 --width ${size%x*} --height ${size#*x} \
                        --set app.present=$present --set take-turns=$turns
                done
            done
        done
    done 2>&1 | tee "$out/turns-viewer.txt"
    {
        timeout 150 $bin/compute_interop_external_memory_gl_test | grep -E -A3 "Failure|^\[  (PASSED|FAILED|SKIPPED)"
        for t in app_nbody_demo_gl_test app_image_demo_gl_test; do
            timeout 240 $bin/$t | grep -E -A3 "Failure|^\[  (PASSED|FAILED|SKIPPED)"
        done
    } 2>&1 | tee "$out/turns-tests.txt"
    viewer_run "panel screenshot" --frames 300 --set n=65536 --interop external-memory \
        --set interop-panel=open --width 1280 --height 720 \
        --screenshot "$out/interop-semaphores-h200.png" | tee -a "$out/turns-viewer.txt"
    ;;
ab)
    # The same viewer runs with an older clviz ($OLD, e.g. before take-turns) and this one,
    # interleaved, so machine-to-machine differences cannot pass for the change.
    start_x
    for round in 1 2; do
        for which in "$OLD" "$bin/clviz"; do
            for present in on off; do
                echo "== $which round $round present=$present"
                timeout 150 "$which" --device-type gpu --vsync off --frames 800 --set n=65536 \
                    --set diagnostics=0 --width 640 --height 360 --set app.present=$present \
                    2>&1 | grep -E "summary"
            done
        done
    done 2>&1 | tee "$out/ab-viewer.txt"
    ;;
latency)
    # The viewer at N = 65,536 with the drawing one frame behind (1, the default: GL's draw of
    # frame k-1 overlaps step k) and in step (0: each frame waits for its own step, then draws).
    start_x
    for size in 640x360 1280x720; do
        for present in on off; do
            for latency in 1 0; do
                viewer_run "N=65536 latency=$latency present=$present $size" --frames 800 \
                    --set n=65536 --set diagnostics=0 --width ${size%x*} --height ${size#*x} \
                    --set app.present=$present --set latency=$latency
            done
        done
    done 2>&1 | tee "$out/latency-viewer.txt"
    ;;
gap)
    $bin/clviz-bench --suite nbody --device-type gpu --no-cpu-baseline --variants auto \
        --sizes 64k,256k 2>"$out/gap-bench-progress.txt" | tee "$out/gap-bench.txt"
    start_x
    for n in 65536 262144; do
        frames=$((n == 65536 ? 600 : 150))
        for present in on off; do
            for size in 1280x720 640x360; do
                viewer_run "N=$n present=$present $size gui=on" --frames $frames --set n=$n \
                    --set diagnostics=0 --width ${size%x*} --height ${size#*x} \
                    --set app.present=$present
            done
            viewer_run "N=$n present=$present 1280x720 gui=off" --frames $frames --set n=$n \
                --set diagnostics=0 --set app.gui=off --set app.present=$present
        done
    done 2>&1 | tee "$out/gap-viewer.txt"
    ;;
image)
    $bin/clviz-bench --suite image --device-type gpu --json "$out/image-h200.json" \
        --csv "$out/image-h200.csv" 2>"$out/image-progress.txt" | tee "$out/image-table.txt"
    ;;
kernels-ab)
    for t in compute_image_filters_test compute_image_rotate_test; do
        OCL_ICD_VENDORS=/etc/OpenCL/vendors/nvidia.icd CLVIZ_PROGRAM_CACHE=off timeout 300 \
            $bin/$t 2>&1 | grep -E '^\[  (PASSED|FAILED)|Failure'
    done 2>&1 | tee "$out/kernels-ab-tests.txt"
    for round in 1 2 3; do
        for k in "$OLD_KERNELS" ""; do
            echo "== round $round: ${k:-this build}"
            CLVIZ_KERNEL_DIR=$k CLVIZ_PROGRAM_CACHE=off $bin/clviz-bench --suite image \
                --device-type gpu --no-cpu-baseline --sizes 1024,4096,8192 --variants \
                "${VARIANTS:-copy,mean3,median3,rotate-buffer-bilinear,rotate-image-bilinear}" \
                2>/dev/null | grep -E '^image|WRONG'
        done
    done 2>&1 | tee "$out/kernels-ab.txt"
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
