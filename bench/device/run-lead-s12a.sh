#!/usr/bin/env bash
# The lead's calls of session 12 (carry $C: new/, base/ and probe/ clviz-bench, tests.tar.xz and
# what gpu-env.sh needs), from the repository root, on every GPU of the machine; every card's
# clocks sampled. new and base are the commits named in docs/bench/lead-s12/README.md, probe
# base's first build with two knobs for the split build (CLVIZ_SPLIT_CELLS=fine,super: the
# receiver's cells; CLVIZ_SPLIT_TRACE: each domain's sent records on stderr):
#   timeline  16M on every GPU, whole and split, each with --timeline (the last step's trace)
#   ab        16M, new and base in turn, ROUNDS times (2), BUILDS (split) each, with --timeline
#   tests     the carried test binaries on every GPU
#   cells     16M split with the probe at cells 256,16 (main's), 1024,32 and 4096,64
#   big       67,108,864 bodies, whole and split, with --timeline
# Everything lands in $OUT/lead-s12a.tgz.
set -uo pipefail
C=${C:-.carry-s12}
source "$C/gpu-env.sh" "$C"
results_dir lead-s12a
sample_clocks
for step in "$@"; do
    case $step in
    timeline)
        for build in whole split; do
            row "$build-16m" "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m \
                --tree-build $build --timeline "$R/$build-16m-trace.json" $SPLIT_TIMING
        done
        ;;
    ab)
        for round in $(seq 1 "${ROUNDS:-2}"); do
            for b in new base; do
                for build in ${BUILDS:-split}; do
                    row "$build-$b-r$round" "$C/$b/clviz-bench" $TREE_OPTS --devices gpu \
                        --sizes 16m --tree-build $build --timeline "$R/$build-$b-r$round-trace.json" \
                        $SPLIT_TIMING
                done
            done
        done
        ;;
    tests) carried_tests "$C/tests.tar.xz" ;;
    cells)
        for cells in 256,16 1024,32 4096,64; do
            CLVIZ_SPLIT_TRACE=1 CLVIZ_SPLIT_CELLS=$cells row "cells-${cells/,/-}" \
                "$C/probe/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m --tree-build split \
                $SPLIT_TIMING
        done
        ;;
    big)
        for build in whole split; do
            row "$build-64m" "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 64m \
                --tree-build $build --timeline "$R/$build-64m-trace.json" $SPLIT_TIMING
        done
        ;;
    esac
    date -u +"%T $step done" >>"$R/times.txt"
done
stop_clocks
