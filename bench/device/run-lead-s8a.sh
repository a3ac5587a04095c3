#!/usr/bin/env bash
# The lead's 4-GPU call of session 8 (carry $C: base/clviz-bench and new/clviz-bench, stripped,
# bench-libs.tar.xz, mpi/*.deb from pack-mpi-carry.sh, gpu-env.sh), from the repository root:
# issue 32's tree rows, each build in turn so that both see the same machine state:
#   tree     the tree at 16M on every GPU in one process (x1 and xP rows), base then new, twice
#   tree2    the new build on the first two GPUs
#   pieces   the new build with 2 and 8 walk pieces
#   big      the tree at 67,108,864 bodies on every GPU, new build
#   pairs    pairs at 1M on every GPU in one process, new build
#   t31      issue 31's tree rows on the first GPU (1M and 16M, theta 0.5, 0.55), base and new
#   mpi      one rank per GPU over Open MPI (shared-memory window): the tree at 16M, new build
# Everything lands in $OUT/lead-s8a.tgz.
set -uo pipefail
C=${C:-.carry-lead8}
source "$C/gpu-env.sh" "$C"
results_dir lead-s8a
nvidia-smi topo -m >"$R/topology.txt" 2>&1
sample_clocks  # four busy cards may not hold the boost clock one alone does
gpus=$(nvidia-smi -L | wc -l)
opts="--suite nbody --device-type gpu --no-cpu-baseline"
ws="--warmup 3 --repeats 5 --wide"
tree() { local build=$1 name=$2; shift 2; row "$name" "$C/$build/clviz-bench" $opts --variants tree "$@"; }
for step in "$@"; do
    case $step in
    tree)
        for round in 1 2; do
            for build in base new; do tree $build "tree-$build-r$round" --devices gpu --sizes 16m $ws; done
        done
        ;;
    tree2) [ "$gpus" -gt 2 ] && tree new tree2-new --devices 1.0,1.1 --sizes 16m $ws ;;
    pieces) for k in 2 8; do tree new "pieces$k-new" --devices gpu --sizes 16m --tree-walk-pieces $k $ws; done ;;
    big) tree new big-new --devices gpu --sizes 64m $ws ;;
    pairs) row pairs-new "$C/new/clviz-bench" $opts --variants pairs --devices gpu --sizes 1m $ws ;;
    t31) for build in base new; do tree $build "t31-$build" --sizes 1m,16m --theta 0.5,0.55; done ;;
    mpi)
        for deb in "$C"/mpi/*.deb; do dpkg -x "$deb" /opt/mpiroot; done
        cp -rn /opt/mpiroot/. / && ldconfig
        shm_kb=$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)
        [ "${shm_kb:-0}" -lt 4194304 ] && export OMPI_MCA_osc_sm_backing_directory=/tmp
        row mpi-tree-new mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to none --mca plm isolated \
            --mca btl self,vader -np "$gpus" "$C/new/clviz-bench" $opts --variants tree --mpi \
            --mpi-timeout 120 --sizes 16m $ws
        ;;
    esac
done
stop_clocks
