#!/usr/bin/env bash
# The lead's last call of session 9 (carry $C as run-lead-s9c.sh's), from the repository root, on
# every GPU of the machine; clocks sampled as in run-lead-s9a.sh:
#   ab       16M on every GPU, main then new, then 3 walk pieces (new), twice
#   t31      issue 31's rows on the first GPU: main then new
#   big      67,108,864 bodies on every GPU, new, twice
#   tests    the carried test binaries on the first GPU
# Everything lands in $OUT/lead-s9d.tgz.
set -uo pipefail
C=${C:-.carry-lead9}
source "$C/gpu-env.sh" "$C"
results_dir lead-s9d
sample_clocks
for step in "$@"; do
    case $step in
    ab)
        for round in 1 2; do
            for b in main new; do row "ab-$b-r$round" "$C/$b/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m $SPLIT_TIMING; done
            row "pieces3-new-r$round" "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m --tree-walk-pieces 3 $SPLIT_TIMING
        done
        ;;
    t31) for b in main new; do row "t31-$b" "$C/$b/clviz-bench" $TREE_OPTS --sizes 1m,16m --theta 0.5,0.55; done ;;
    big) for round in 1 2; do row "big-new-r$round" "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 64m $SPLIT_TIMING; done ;;
    tests) carried_tests "$C/tests.tar.xz" ;;
    esac
    date -u +"%T $step done" >>"$R/times.txt"
done
stop_clocks
