#!/usr/bin/env bash
# The viewer's frame-time trace on the lent GPU (issue 31: no frame longer than twice the median
# over 1,000 frames with diagnostics on). Runs on the device machine from the repository root; builds
# nothing. Each run is clviz --device-type gpu --vsync off --frame-trace LABEL.csv under Xvfb with
# NVIDIA's GLX (run-h200.sh's start_x), and prints clviz's "frame trace:" and summary lines.
#
# Carry folder $C (default .carry-frame-trace), made on the Debian machine:
#   gl/xroot.tar.xz, gl/extra.tar.xz   bench/device/pack-carry.sh (icu72 is not needed on the H200's
#                                      Ubuntu 24.04, which has its own libxml2; mpi-runtime not
#                                      when libs.tar.xz holds Open MPI)
#   libs.tar.xz                        bench/device/pack-bench-libs.sh DEST build/clviz, renamed:
#                                      what clviz links that the host lacks (LAPACKE, OpenBLAS,
#                                      CLBlast, Open MPI, stb)
#   bin.tar.xz                         stripped binaries at its top: clviz, and any older build to
#                                      compare under another name (e.g. clviz-before)
# Usage: C=.carry-x bench/device/run-frame-trace-h200.sh "LABEL BINARY ARG..." ...
#   e.g. "tree-1m-after clviz --demo nbody --variant tree --n 1048576 --frames 1000"
# Results (CSV per run, log, GPU name) in $OUT/results.tgz.
# Not yet run on the GPU: on 2026-11-26 this carry (65 MB) with the session's checkout was over the
# device tool's 64 MiB; run-nbody-frame-trace-h200.sh measured the same frame loop without a window.
set -uo pipefail
carry=${C:-.carry-frame-trace}
runs=("$@")
bin=/tmp/frame-trace-bin
mkdir -p "$bin" /opt/clviz-libs
tar xJf "$carry/bin.tar.xz" -C "$bin"
tar xJf "$carry/libs.tar.xz" -C /opt/clviz-libs
ln -sfn "$carry/gl" .gl
set --  # run-h200.sh with no steps: its setup and start_x only
BIN=$bin source bench/device/run-h200.sh
start_x
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/opt/clviz-libs
ldd "$bin/clviz" | grep "not found" | sed "s|^|missing for clviz: |"
for run in "${runs[@]}"; do
    read -r label binary args <<<"$run"
    echo "== $label: $binary $args"
    # shellcheck disable=SC2086  # the run's arguments are words
    timeout 240 "$bin/$binary" --device-type gpu --vsync off $args \
        --frame-trace "$out/$label.csv" 2>&1 | grep -E "frame trace|summary|interop:|error"
done 2>&1 | tee "$out/frame-trace.txt"
