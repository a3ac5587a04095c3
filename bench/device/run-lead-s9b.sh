#!/usr/bin/env bash
# The lead's A/B call of session 9 (carry $C: main/ and new/clviz-bench stripped, bench-libs.tar.xz,
# gpu-env.sh), from the repository root, on every GPU of the machine; clocks sampled as in
# run-lead-s9a.sh:
#   ab       the tree at 16M, x1 and xP rows with the default walk pieces: main then new, twice
#   pieces   the new build with 1, 2 and 8 pieces
#   big      the new build at 67,108,864 bodies
# Everything lands in $OUT/lead-s9b.tgz.
set -uo pipefail
C=${C:-.carry-lead9}
source "$C/gpu-env.sh" "$C"
results_dir lead-s9b
sample_clocks
opts="$TREE_OPTS --devices gpu"
for step in "$@"; do
    case $step in
    ab) for round in 1 2; do for b in main new; do row "ab-$b-r$round" "$C/$b/clviz-bench" $opts --sizes 16m $SPLIT_TIMING; done; done ;;
    pieces) for k in 1 2 8; do row "pieces$k-new" "$C/new/clviz-bench" $opts --sizes 16m --tree-walk-pieces $k $SPLIT_TIMING; done ;;
    big) row big-new "$C/new/clviz-bench" $opts --sizes 64m $SPLIT_TIMING ;;
    esac
    date -u +"%T $step done" >>"$R/times.txt"
done
stop_clocks
