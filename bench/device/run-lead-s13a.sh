#!/usr/bin/env bash
# The lead's calls of session 13 (carry $C: clviz-bench builds in folders named by AB, renumber-steps
# (bench/device/renumber_steps.cpp), tests.tar.xz and what gpu-env.sh needs), from the repository
# root, on every GPU of the machine; every card's clocks sampled. The builds are the commits named
# in docs/bench/lead-s13/README.md; LAST (default new) is the one the big, two and pieces rows run:
#   probe     renumber-steps 16M over 36 steps on the first GPU (renumbering and not)
#   ab        16M, each build of AB (default "new base") in turn, ROUNDS times (1), BUILDS
#             (whole split) each, with --timeline
#   pieces    16M, LAST with --tree-walk-pieces K for K in PIECES
#   two       16M on the first two GPUs (--devices 1.0,1.1: NVIDIA is the second platform
#             there, after PoCL), LAST, BUILDS each
#   big       67,108,864 bodies, LAST, whole and split, with --timeline
#   small     1M and 4M bodies, LAST, whole and split
#   tests     the carried test binaries on every GPU
# Everything lands in $OUT/lead-s13a.tgz.
set -uo pipefail
C=${C:-.carry-s13}
source "$C/gpu-env.sh" "$C"
results_dir lead-s13a
sample_clocks
last=${LAST:-new}
for step in "$@"; do
    case $step in
    probe) timeout 300 "$C/renumber-steps" 16777216 36 >"$R/renumber-steps.txt" 2>&1 ;;
    ab)
        for round in $(seq 1 "${ROUNDS:-1}"); do
            for b in ${AB:-new base}; do
                for build in ${BUILDS:-whole split}; do
                    row "$build-$b-r$round" "$C/$b/clviz-bench" $TREE_OPTS --devices gpu \
                        --sizes 16m --tree-build $build --timeline "$R/$build-$b-r$round-trace.json" \
                        $SPLIT_TIMING
                done
            done
        done
        ;;
    pieces)
        for k in ${PIECES:-}; do
            for build in ${BUILDS:-whole split}; do
                row "$build-$last-p$k" "$C/$last/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m \
                    --tree-build $build --tree-walk-pieces "$k" $SPLIT_TIMING
            done
        done
        ;;
    two)
        for build in ${BUILDS:-whole split}; do
            row "$build-$last-two" "$C/$last/clviz-bench" $TREE_OPTS --devices 1.0,1.1 \
                --sizes 16m --tree-build $build --timeline "$R/$build-$last-two-trace.json" \
                $SPLIT_TIMING
        done
        ;;
    big)
        for build in whole split; do
            row "$build-64m" "$C/$last/clviz-bench" $TREE_OPTS --devices gpu --sizes 64m \
                --tree-build $build --timeline "$R/$build-64m-trace.json" $SPLIT_TIMING
        done
        ;;
    small)
        for build in whole split; do
            row "$build-small" "$C/$last/clviz-bench" $TREE_OPTS --devices gpu --sizes 1m,4m \
                --tree-build $build $SPLIT_TIMING
        done
        ;;
    tests) carried_tests "$C/tests.tar.xz" ;;
    esac
    date -u +"%T $step done" >>"$R/times.txt"
done
stop_clocks
