#!/usr/bin/env bash
# One viewer run on the lent NVIDIA machine, headless (Xvfb + NVIDIA GLX), with a per-frame
# trace and a screenshot. Any clviz arguments pass through, so the same script serves a draw
# comparison, a 1,000-frame trace with diagnostics on, or an older build without the trace.
# Usage (from the repository root there; call it as often as needed in one device command):
#   C=.carry-x bench/device/run-viewer-trace.sh LABEL BINARY [CLVIZ ARGS...]
#   e.g. ... run-viewer-trace.sh new-1m "$C/clviz" --frames 1000 --set preset=collision \
#        --set n=1048576 --set variant=tree --width 1280 --height 720
# $C holds gl/xroot.tar.xz and gl/extra.tar.xz (pack-carry.sh DEST) and bench-libs.tar.xz
# (pack-bench-libs.sh); both are unpacked and X started on the first call only.
# Writes into /tmp/viewer-runs, packed into $OUT/viewer-runs.tgz after every run (a call cut off
# keeps the finished runs): LABEL.txt (the run's output: summary line, interop, errors),
# LABEL-frames.csv (--frame-trace: every frame's times; only where the binary has that flag)
# and LABEL.png (the last frame, GUI included). --device-type gpu --vsync off are added.
set -uo pipefail
label=${1:?usage: run-viewer-trace.sh LABEL BINARY [CLVIZ ARGS...]}
binary=${2:?usage: run-viewer-trace.sh LABEL BINARY [CLVIZ ARGS...]}
shift 2
C=${C:?set C to the carried folder}
out=/tmp/viewer-runs
mkdir -p "$out"
if [ ! -e /tmp/.X11-unix/X7 ]; then
    if command -v nvidia-smi >/dev/null; then
        echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
        nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total \
            --format=csv | tee "$out/card.txt"
    fi
    mkdir -p /tmp/bench-libs && tar xJf "$C/bench-libs.tar.xz" -C /tmp/bench-libs
    export LD_LIBRARY_PATH=/tmp/bench-libs
    bin=$(dirname "$binary")
    GL_DIR=$C/gl
    source "$(dirname "$0")/start-x.sh"
    start_x
    # What later calls need to reach the same X and libraries.
    declare -p LD_LIBRARY_PATH LIBGL_DRIVERS_PATH DISPLAY __GLX_VENDOR_LIBRARY_NAME \
        VK_DRIVER_FILES 2>/dev/null | sed 's/^declare -x /export /' >/tmp/viewer-env.sh
fi
source /tmp/viewer-env.sh
trace=()
# The flag's name in the binary itself (builds before it lack it; asking --help missed it there).
grep -aq -- '--frame-trace' "$binary" && trace=(--frame-trace "$out/$label-frames.csv")
echo "frame trace: ${trace[*]:-none (this clviz has no --frame-trace)}" >"$out/$label.txt"
echo "== $label: $(basename "$binary") $*"
timeout "${RUN_TIMEOUT:-240}" "$binary" --device-type gpu --vsync off "$@" "${trace[@]}" \
    --screenshot "$out/$label.png" >>"$out/$label.txt" 2>&1
echo "exit status $?" >>"$out/$label.txt"
grep -E "summary|interop|error|exit status|frame trace" "$out/$label.txt" | sed 's/interactions_per_s.*//'
tar czf "${OUT:-/tmp}/viewer-runs.tgz" -C "$out" .
