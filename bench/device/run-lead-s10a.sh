#!/usr/bin/env bash
# The lead's calls of session 10 (carry $C: main/ and new/ clviz-bench, tests.tar.xz, .carry-mpi/
# and what gpu-env.sh needs), from the repository root, on every GPU of the machine; every card's
# clocks sampled (gpu-env.sh). main is 6274d11 (its split rows run the tree at far 0.4), new the
# split rows at the one-device rows' angles (theta 0.5, far 0.55, the Plummer preset's):
#   ab       16M on every GPU: new as it runs now, then main and new at far 0.4; twice
#   t31      issue 31's rows on the first GPU (1M, 16M; theta 0.5, 0.55): main, new
#   two      new at 16M on the first two GPUs
#   big      new at 67,108,864 bodies on every GPU
#   mpi      new at 16M over Open MPI (carried .debs): one rank per GPU, then two ranks
#   pieces   new at 16M with 2 and 4 walk pieces
#   tests    the carried test binaries on the first GPU
# Everything lands in $OUT/lead-s10a.tgz.
set -uo pipefail
C=${C:-.carry-lead10}
source "$C/gpu-env.sh" "$C"
results_dir lead-s10a
sample_clocks
for step in "$@"; do
    case $step in
    ab)
        for round in 1 2; do
            row "ab-new-r$round" "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m $SPLIT_TIMING
            row "far04-main-r$round" "$C/main/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m $SPLIT_TIMING
            row "far04-new-r$round" "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m --theta-far 0.4 $SPLIT_TIMING
        done
        ;;
    t31) for b in main new; do row "t31-$b" "$C/$b/clviz-bench" $TREE_OPTS --sizes 1m,16m --theta 0.5,0.55; done ;;
    two) row two-new "$C/new/clviz-bench" $TREE_OPTS --devices 1.0,1.1 --sizes 16m $SPLIT_TIMING ;;
    big) row big-new "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 64m $SPLIT_TIMING ;;
    mpi)
        mkdir -p /opt/mpiroot
        for deb in "$C"/.carry-mpi/*.deb; do dpkg -x "$deb" /opt/mpiroot; done
        cp -rn /opt/mpiroot/. / && ldconfig
        gpus=$(nvidia-smi -L | wc -l)
        mpirun="mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to none --mca plm isolated --mca btl self,vader"
        for ranks in "$gpus" 2; do
            row "mpi$ranks-new" $mpirun -np "$ranks" "$C/new/clviz-bench" $TREE_OPTS --mpi --mpi-timeout 120 --sizes 16m $SPLIT_TIMING
        done
        ;;
    pieces) for k in 2 4; do row "pieces$k-new" "$C/new/clviz-bench" $TREE_OPTS --devices gpu --sizes 16m --tree-walk-pieces $k $SPLIT_TIMING; done ;;
    tests) carried_tests "$C/tests.tar.xz" ;;
    esac
    date -u +"%T $step done" >>"$R/times.txt"
done
stop_clocks
