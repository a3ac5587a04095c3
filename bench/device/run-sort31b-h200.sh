#!/usr/bin/env bash
# Issue 31's radix sort, round 5 (branch sort-31b: radix_scatter_chunks) on the lent NVIDIA GPU,
# from the repository root. The carried folder $C holds bench-libs.tar.xz (pack-bench-libs.sh),
# clviz-bench and tree-phases (bench/device/tree_phases.cpp) of this build, old/clviz-bench (the
# baseline build) and copies of kernels/ as variants, e.g. premerge-kernels/ (nbody_tree.cl as
# before main's ef3c43d: radix_scatter's own ranking instead of nibbleSlot).
# Usage: C=.carry-sort-31b bench/device/run-sort31b-h200.sh
#   Two rounds, each: tree-phases at $PROBE_SIZES for $PROBE_CONFIGS (embedded kernels; the last
#   two fields: the 4-bit scatter's keys per work-item, 1 for main's radix_scatter, and whether
#   it counts the next pass), tree-phases for each "dir=config,config" of $KERNEL_VARIANTS with
#   CLVIZ_KERNEL_DIR=$C/dir, then clviz-bench --variants tree at $AB_SIZES for the baseline and
#   this build. Round 2 only while the call has run less than $ROUND2_BEFORE_S s.
# Everything lands in $OUT/sort31b.tgz.
set -uo pipefail
C=${C:-.carry-sort-31b}
R=/tmp/sort31b
rm -rf "$R"
mkdir -p "$R"
trap 'tar czf "${OUT:-/tmp}/sort31b.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
print_card "$R/card.txt"
PROBE_SIZES=${PROBE_SIZES:-1048576 16777216}
PROBE_CONFIGS=${PROBE_CONFIGS:-128:1:4:512:0.5:2048:4:1:0 128:1:4:512:0.5:2048:4:16:1 128:1:4:512:0.5:2048:4:16:0 128:1:4:512:0.5:2048:4:12:1 128:1:4:512:0.5:2048:4:24:1 128:1:4:512:0.5:2048:8:16:1}
KERNEL_VARIANTS=${KERNEL_VARIANTS:-premerge-kernels=128:1:4:512:0.5:2048:4:1:0 count8-kernels=128:1:4:512:0.5:2048:4:1:0,128:1:4:512:0.5:2048:4:16:0}
AB_SIZES=${AB_SIZES:-1m,16m}
ROUND2_BEFORE_S=${ROUND2_BEFORE_S:-120}
PHASES_TIMEOUT=${PHASES_TIMEOUT:-90}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-60}
BENCH_DEVICE=${BENCH_DEVICE:-gpu}  # cpu for a dry run on PoCL
for round in 1 2; do
    [ $round = 2 ] && [ $SECONDS -ge "$ROUND2_BEFORE_S" ] && { echo "no round 2 (${SECONDS}s)"; break; }
    TREE_LABEL="round$round" TREE_CONFIGS="$PROBE_CONFIGS" timeout "$PHASES_TIMEOUT" \
        "$C/tree-phases" $PROBE_SIZES 2>&1 | grep -v '^$' | tee -a "$R/phases.txt"
    echo "phases round $round done at ${SECONDS}s"
    for v in $KERNEL_VARIANTS; do
        dir=${v%%=*}; configs=${v#*=}
        TREE_LABEL="round$round-$dir" TREE_CONFIGS="${configs//,/ }" \
            CLVIZ_KERNEL_DIR="$C/$dir" timeout "$PHASES_TIMEOUT" \
            "$C/tree-phases" $PROBE_SIZES 2>&1 | grep -v '^$' | tee -a "$R/phases.txt"
        echo "$dir round $round done at ${SECONDS}s"
    done
    for which in old new; do
        bin=$C/clviz-bench; [ $which = old ] && bin=$C/old/clviz-bench
        timeout "$BENCH_TIMEOUT" "$bin" --suite nbody --device-type "$BENCH_DEVICE" --no-cpu-baseline \
            --variants tree --sizes "$AB_SIZES" --json "$R/ab-$which-$round.json" \
            >"$R/ab-$which-$round.txt" 2>"$R/ab-$which-$round.err"
        echo "$which round $round rc=$? at ${SECONDS}s"; cat "$R/ab-$which-$round.txt"
    done
done
