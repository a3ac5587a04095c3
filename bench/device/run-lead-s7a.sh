#!/usr/bin/env bash
# The lead's 4-GPU call of session 7 (carry $C: new/clviz-bench, bench-libs.tar.xz, mpi/*.deb
# from pack-mpi-carry.sh, gpu-env.sh), from the repository root: issue 32's scaling rows with
# today's defaults, in order of priority:
#   t31        issue 31's tree rows on the first GPU (1M and 16M, theta 0.5-0.6)
#   tree       the tree at 16M on every GPU in one process (x1 and xP rows), then on GPUs 0,1
#   pieces8    the same on every GPU with 8 walk pieces
#   pairs      pairs at 1M on every GPU in one process (x1 and xP), then on GPUs 0,1
#   big        the tree at 67,108,864 bodies on every GPU
#   mpi        one rank per GPU over Open MPI (shared-memory window): pairs 1M, tree 16M;
#              2 ranks of the tree
# Everything lands in $OUT/lead-s7a.tgz.
set -uo pipefail
C=${C:-.carry-lead7}
source "$C/gpu-env.sh" "$C"
results_dir lead-s7a
nvidia-smi topo -m >"$R/topology.txt" 2>&1
gpus=$(nvidia-smi -L | wc -l)
b="$C/new/clviz-bench --suite nbody --device-type gpu --no-cpu-baseline"
nb="$b --variants tree"
mpirun=$MPIRUN
ws="--warmup 3 --repeats 5 --wide"
for step in "$@"; do
    case $step in
    t31) row t31 $nb --sizes 1m,16m --theta 0.5,0.55,0.6 ;;
    tree)
        row tree $nb --devices gpu --sizes 16m $ws
        [ "$gpus" -gt 2 ] && row tree2 $nb -p nvidia --devices 0,1 --sizes 16m $ws
        ;;
    pieces8) row pieces8 $nb --devices gpu --sizes 16m --tree-walk-pieces 8 $ws ;;
    pairs)
        row pairs $b --variants pairs --devices gpu --sizes 1m $ws
        [ "$gpus" -gt 2 ] && row pairs2 $b -p nvidia --variants pairs --devices 0,1 --sizes 1m $ws
        ;;
    big) row big $nb --devices gpu --sizes 64m $ws ;;
    mpi)
        unpack_mpi "$C/mpi"
        row mpi-pairs $mpirun -np "$gpus" $b --variants pairs --mpi --mpi-timeout 120 --sizes 1m $ws
        row mpi-tree $mpirun -np "$gpus" $nb --mpi --mpi-timeout 120 --sizes 16m $ws
        [ "$gpus" -gt 2 ] && row mpi-tree2 $mpirun -np 2 $nb --mpi --mpi-timeout 120 --sizes 16m $ws
        ;;
    esac
done
