#!/usr/bin/env bash
# The lead's closing calls of session 9 (carry $C as run-lead-s9b.sh's, plus sass_loops.py,
# cached_ptx.py and tests.tar.xz with stripped test binaries), from the repository root; clocks
# sampled as in run-lead-s9a.sh:
#   ab       the tree at 16M on every GPU, x1 and xP rows, default pieces: main then new, twice
#   pieces   the new build with 2 and 3 walk pieces
#   big      the new build at 67,108,864 bodies on every GPU
#   two      the new build on the first two GPUs
#   t31      issue 31's tree rows on the first GPU (1M and 16M, theta 0.5 and 0.55): main, new
#   sass     SASS of the new build's walk (from the t31 step's program cache)
#   tests    the carried test binaries on the first GPU
# Everything lands in $OUT/lead-s9c.tgz.
set -uo pipefail
C=${C:-.carry-lead9}
source "$C/gpu-env.sh" "$C"
results_dir lead-s9c
sample_clocks
for step in "$@"; do
    case $step in
    ab) for round in 1 2; do for b in main new; do row "ab-$b-r$round" "$C/$b/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m $SPLIT_TIMING; done; done ;;
    pieces) for k in 2 3; do row "pieces$k-new" "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m --tree-walk-pieces $k $SPLIT_TIMING; done ;;
    big) row big-new "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 64m $SPLIT_TIMING ;;
    two) row two-new "$C/new/clviz-bench" $TREE_OPTS --devices 1.0,1.1 --sizes 16m $SPLIT_TIMING ;;
    t31) for b in main new; do row "t31-$b" "$C/$b/clviz-bench" $TREE_OPTS --sizes 1m,16m --theta 0.5,0.55; done ;;
    sass) walk_sass /tmp/xdg-t31-new ;;
    tests) carried_tests "$C/tests.tar.xz" ;;
    esac
    date -u +"%T $step done" >>"$R/times.txt"
done
stop_clocks
