#!/usr/bin/env bash
# Issue 13's H200 figures for the Barnes-Hut tree, from the repository root on the device machine.
# Needs .carry-tree/clviz-bench and .carry-tree/tree-probe (bench/device/tree_probe.cpp) built
# here. Results go to $OUT (at most 8 files).
set -uo pipefail
b=${BIN:-.carry-tree}
out=${OUT:-/tmp/out}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv | tee "$out/gpu.txt"
date -u | tee -a "$out/gpu.txt"
# Tree against the best all-pairs kernel (vectorized, fixed wg=128 and auto-tuned) in one run.
$b/clviz-bench --suite nbody --device-type gpu --no-cpu-baseline --variants tree,vectorized \
    --wg 128 --sizes 4k,16k,64k,256k,1m --theta 0.5,0.7 --json "$out/tree-h200.json" \
    2>"$out/progress.txt" | tee "$out/tree-table.txt"
# Sizes where all-pairs would take minutes per step: the tree alone.
$b/clviz-bench --suite nbody --device-type gpu --no-cpu-baseline --variants tree \
    --sizes 4m,16m --theta 0.5 --json "$out/tree-h200-large.json" 2>>"$out/progress.txt" |
    tee "$out/tree-large.txt"
# Energy drift: leapfrog, Plummer, N = 65,536, 1,000 steps, tree at theta 0.5 and all-pairs.
ENERGY=65536:1000 NO_BOOST=1 $b/tree-probe 2>&1 | tee "$out/energy.txt"
date -u | tee -a "$out/gpu.txt"
