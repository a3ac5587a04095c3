#!/usr/bin/env bash
# The lead's calls of session 14 (carry $C: clviz-bench builds in folders named by AB, tree-phases
# (bench/device/tree_phases.cpp), tests.tar.xz and what gpu-env.sh needs), from the repository
# root, on every GPU of the machine; every card's clocks sampled. The builds are the commits named
# in docs/bench/lead-s14/README.md; LAST (default new) is the one the pieces and two rows run:
#   ab        16M, each build of AB (default "new base") in turn, ROUNDS times (1), BUILDS
#             (whole split) each, with --timeline
#   pieces    16M, LAST with --tree-walk-pieces K --tree-walk-split HOW for each K:HOW in PIECES
#             (HOW even or halving, the default), BUILDS each, with --timeline when
#             PIECES_TIMELINE is set
#   two       16M on the first two GPUs (--devices 1.0,1.1), LAST, BUILDS each, with
#             --tree-walk-pieces K for K in TWO_PIECES (3)
#   big       67,108,864 bodies, LAST, split (BIG_BUILDS), with --timeline
#   sort      tree-phases on the first GPU at SORT_N (4M): the radix sort with 4- and 8-bit
#             digits, keys in random and in Morton order
#   tests     the carried test binaries on every GPU
# Everything lands in $OUT/${RESULTS:-lead-s14a}.tgz: give each invocation of one call its own
# RESULTS (session 15 ran it so, with C=.carry-s15; a second run under one name empties the first's
# folder).
set -uo pipefail
C=${C:-.carry-s14}
source "$C/gpu-env.sh" "$C"
results_dir "${RESULTS:-lead-s14a}"
sample_clocks
last=${LAST:-new}
for step in "$@"; do
    case $step in
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
        for kind in ${PIECES:-}; do
            k=${kind%%:*} how=${kind#*:}
            [ "$how" = "$kind" ] && how=halving
            for build in ${BUILDS:-whole split}; do
                row "$build-$last-p$k-$how" "$C/$last/clviz-bench" $TREE_OPTS --devices gpu \
                    --sizes 16m --tree-build $build --tree-walk-pieces "$k" --tree-walk-split "$how" \
                    ${PIECES_TIMELINE:+--timeline "$R/$build-$last-p$k-$how-trace.json"} $SPLIT_TIMING
            done
        done
        ;;
    two)
        for k in ${TWO_PIECES:-3}; do
            for build in ${BUILDS:-whole split}; do
                row "$build-$last-two-p$k" "$C/$last/clviz-bench" $TREE_OPTS --devices 1.0,1.1 \
                    --sizes 16m --tree-build $build --tree-walk-pieces "$k" $SPLIT_TIMING
            done
        done
        ;;
    big)
        for build in ${BIG_BUILDS:-split}; do
            row "$build-$last-64m" "$C/$last/clviz-bench" $TREE_OPTS --devices gpu --sizes 64m \
                --tree-build $build --timeline "$R/$build-$last-64m-trace.json" $SPLIT_TIMING
        done
        ;;
    sort)
        for order in random morton; do
            env XDG_CACHE_HOME=/tmp/xdg-sort TREE_ORDER=$order TREE_LABEL=$order \
                TREE_CONFIGS="128:1:8:1024:0.5:2048:4 128:1:8:1024:0.5:2048:8" \
                timeout 300 "$C/tree-phases" "${SORT_N:-4194304}" >"$R/sort-$order.txt" 2>&1
        done
        ;;
    tests) carried_tests "$C/tests.tar.xz" ;;
    esac
    date -u +"%T $step done" >>"$R/times.txt"
done
stop_clocks
