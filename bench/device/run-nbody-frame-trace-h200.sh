#!/usr/bin/env bash
# The N-body frame loop's trace on the lent GPU without a window (clviz-nbody-frame-trace: the
# viewer's per-frame device work and diagnostics schedule, each frame waiting for what it asked of
# the device). For when the GL carry does not fit; run-frame-trace-h200.sh runs the viewer itself.
# Builds nothing. Carry folder $C holding clviz-nbody-frame-trace (links libOpenCL only) and, for
# the walk-cost comparison, old-kernels/ (an older kernels/, e.g. git archive <commit> kernels).
# Usage: C=.carry-x bench/device/run-nbody-frame-trace-h200.sh "LABEL [KERNELS=old] ARG..." ...
# Results (CSV per run, the log, the GPU) in $OUT/results.tgz.
set -uo pipefail
carry=${C:-.carry-frame-trace}
out=/tmp/clviz-results
final=${OUT:-/tmp/out}
mkdir -p "$out" "$final"
trap 'tar czf "$final/results.tgz" -C "$out" .' EXIT
echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv |
    tee "$out/gpu.txt"
for run in "$@"; do
    read -r label args <<<"$run"
    kernels=
    if [[ $args == KERNELS=old* ]]; then
        kernels=$carry/old-kernels
        args=${args#KERNELS=old}
    fi
    echo "== $label:${kernels:+ kernels from $kernels}$args"
    # shellcheck disable=SC2086  # the run's arguments are words
    CLVIZ_KERNEL_DIR=$kernels CLVIZ_PROGRAM_CACHE=off timeout 200 \
        "$carry/clviz-nbody-frame-trace" --device-type gpu $args --csv "$out/$label.csv" 2>&1
done 2>&1 | tee "$out/frame-trace.txt"
