#!/usr/bin/env bash
# The lead's calls of session 11 (carry $C: main/ and new/ clviz-bench, tests.tar.xz and what
# gpu-env.sh needs), from the repository root, on every GPU of the machine; every card's clocks
# sampled (gpu-env.sh). main is ba76039 (session 10's last commit), new this session's build:
#   split    16M on every GPU: new with the whole tree on every device, new with the split build
#            (--tree-build split), main; twice
#   big      67,108,864 bodies on every GPU: new whole and split
#   pieces   new split at 16M with 1 and 2 walk pieces
#   tests    the carried test binaries on the first GPU
# Everything lands in $OUT/lead-s11a.tgz.
set -uo pipefail
C=${C:-.carry-s11}
source "$C/gpu-env.sh" "$C"
results_dir lead-s11a
sample_clocks
for step in "$@"; do
    case $step in
    split)
        for round in $(seq 1 "${ROUNDS:-2}"); do
            row "whole-new-r$round" "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m $SPLIT_TIMING
            row "split-new-r$round" "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m --tree-build split $SPLIT_TIMING
            row "whole-main-r$round" "$C/main/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m $SPLIT_TIMING
        done
        ;;
    big)
        row big-whole "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 64m $SPLIT_TIMING
        row big-split "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 64m --tree-build split $SPLIT_TIMING
        ;;
    pieces) for k in 1 2; do row "pieces$k-split" "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m --tree-build split --tree-walk-pieces $k $SPLIT_TIMING; done ;;
    tests) carried_tests "$C/tests.tar.xz" ;;
    esac
    date -u +"%T $step done" >>"$R/times.txt"
done
stop_clocks
