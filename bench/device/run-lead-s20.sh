#!/usr/bin/env bash
# The lead's closing call for issue 32 (session 20; carry $C: new/clviz-bench, bench-libs.tar.xz,
# mpi/*.deb from pack-mpi-carry.sh, gpu-env.sh), from the repository root: the scaling tables with
# the final code, every GPU of the machine and its first two, each row against its own one-device
# step:
#   tree   the tree at 16M in one process, whole and split build, on every GPU and on 1.0,1.1
#   pairs  pairs at 1M in one process, on every GPU and on 1.0,1.1
#   mpi    one rank per GPU over Open MPI (shared-memory window): pairs 1M and the tree 16M, on
#          every GPU and on two ranks
#   big    the tree at 67,108,864 bodies, split build, on every GPU
# Everything lands in $OUT/${RESULTS:-lead-s20}.tgz.
set -uo pipefail
C=${C:-.carry-s20}
source "$C/gpu-env.sh" "$C"
results_dir "${RESULTS:-lead-s20}"
nvidia-smi topo -m >"$R/topology.txt" 2>&1
sample_clocks
gpus=$(nvidia-smi -L | wc -l)
bench=$C/new/clviz-bench
b="$bench --suite nbody --device-type gpu --no-cpu-baseline"
mpirun=$MPIRUN
for step in "$@"; do
    case $step in
    tree)
        for build in whole split; do
            row tree-$build $bench $TREE_OPTS --devices gpu --sizes 16m --tree-build $build $SPLIT_TIMING
            row tree2-$build $bench $TREE_OPTS --devices 1.0,1.1 --sizes 16m --tree-build $build $SPLIT_TIMING
        done
        ;;
    pairs)
        row pairs $b --variants pairs --devices gpu --sizes 1m $SPLIT_TIMING
        row pairs2 $b --variants pairs --devices 1.0,1.1 --sizes 1m $SPLIT_TIMING
        ;;
    mpi)
        unpack_mpi "$C/mpi"
        # The one-device steps these rows are divided by: the in-process rows' x1 (the ranks' own
        # one-rank row was within 0.3 % of it, session 7).
        row mpi-pairs $mpirun -np "$gpus" $b --variants pairs --mpi --mpi-timeout 120 --sizes 1m $SPLIT_TIMING
        row mpi-pairs2 $mpirun -np 2 $b --variants pairs --mpi --mpi-timeout 120 --sizes 1m $SPLIT_TIMING
        row mpi-tree $mpirun -np "$gpus" $b --variants tree --mpi --mpi-timeout 120 --sizes 16m $SPLIT_TIMING
        row mpi-tree2 $mpirun -np 2 $b --variants tree --mpi --mpi-timeout 120 --sizes 16m $SPLIT_TIMING
        ;;
    big) row big-split $bench $TREE_OPTS --devices gpu --sizes 64m --tree-build split $SPLIT_TIMING ;;
    esac
    date -u +"%T $step done" >>"$R/times.txt"
done
stop_clocks
