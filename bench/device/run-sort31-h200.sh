#!/usr/bin/env bash
# Issue 31's radix sort (branch sort-31) on the lent NVIDIA GPU, from the repository root. The
# carried folder $C holds bench-libs.tar.xz (pack-bench-libs.sh), clviz-bench and tree-phases
# (bench/device/tree_phases.cpp) of this build and old/clviz-bench (main's build) for the
# before/after rows.
# Usage: C=.carry-sort-31 bench/device/run-sort31-h200.sh
#   1. tree-phases: every kernel's time at $PROBE_SIZES for $PROBE_CONFIGS (the last field is the
#      sort's digit bits: 4 is main's sort, 8 this branch's default)
#   2. clviz-bench --variants tree at $AB_SIZES: old, new, interleaved; a second round only while
#      the call has run less than $ROUND2_BEFORE_S seconds
# Everything lands in $OUT/sort31.tgz.
set -uo pipefail
C=${C:-.carry-sort-31}
R=/tmp/sort31
rm -rf "$R"
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/sort31.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
print_card "$R/card.txt"
PROBE_SIZES=${PROBE_SIZES:-1048576 16777216}
PROBE_CONFIGS=${PROBE_CONFIGS:-128:1:4:512:0.5:2048:4 128:1:4:512:0.5:2048:8}
AB_SIZES=${AB_SIZES:-1m,16m}
ROUND2_BEFORE_S=${ROUND2_BEFORE_S:-70}
TREE_CONFIGS="$PROBE_CONFIGS" timeout 90 "$C/tree-phases" $PROBE_SIZES 2>&1 | grep -v '^$' | tee "$R/phases.txt"
for round in 1 2; do
    [ $round = 2 ] && [ $SECONDS -ge "$ROUND2_BEFORE_S" ] && { echo "no round 2 (${SECONDS}s)"; break; }
    for which in old new; do
        bin=$C/clviz-bench; [ $which = old ] && bin=$C/old/clviz-bench
        timeout 60 "$bin" --suite nbody --device-type gpu --no-cpu-baseline --variants tree \
            --sizes "$AB_SIZES" --json "$R/ab-$which-$round.json" \
            >"$R/ab-$which-$round.txt" 2>"$R/ab-$which-$round.err"
        echo "$which round $round rc=$? at ${SECONDS}s"; cat "$R/ab-$which-$round.txt"
    done
done
