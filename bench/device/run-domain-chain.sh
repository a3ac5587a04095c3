#!/usr/bin/env bash
# Issue 32, session 22: one device's part of the split build on one GPU (domain_chain.cpp), for
# several builds of the probe in one call, and optionally the one-device tree's stages
# (tree_phases.cpp). Runs on the lent NVIDIA machine from the repository root; the probes link
# only libOpenCL, so the carried folder $C holds nothing but them: chain-LABEL (and phases-LABEL),
# each built against one commit's libraries (see domain_chain.cpp's header) and stripped.
# Usage: C=.carry-s22 [CHAINS="prev new new prev"] [SIZES=16777216] [SHIFTS="0 0.01"]
#        [ORDER=morton] [REPS=11] [PHASES="new new2 new2 new"] bash bench/device/run-domain-chain.sh
# Writes $OUT/r/card.txt, chain.txt (and phases.txt).
set -u
C=${C:?C: the carried folder with the probe builds}
echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
mkdir -p "$OUT/r"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } |
    tee "$OUT/r/card.txt"
export XDG_CACHE_HOME=/tmp/xdg-chain
for n in ${SIZES:-16777216}; do
    for b in ${CHAINS:-prev new new prev}; do
        CHAIN_SHIFTS=${SHIFTS:-0} CHAIN_ORDER=${ORDER:-morton} CHAIN_LABEL="$b " \
            CHAIN_REPS=${REPS:-11} timeout 250 "$C/chain-$b" "$n" >>"$OUT/r/chain.txt" 2>&1
    done
done
grep -o '^.*chain [0-9.]* ms' "$OUT/r/chain.txt"
for b in ${PHASES:-}; do
    TREE_ORDER=morton TREE_KICK=1 TREE_LABEL=$b TREE_REPS=9 timeout 200 "$C/phases-$b" 16777216 \
        >>"$OUT/r/phases.txt" 2>&1
done
[ -z "${PHASES:-}" ] || grep -o '^.*total [0-9.]* ms' "$OUT/r/phases.txt"
