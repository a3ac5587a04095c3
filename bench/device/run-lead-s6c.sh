#!/usr/bin/env bash
# The lead's multi-GPU call of session 6 (carry $C: new/clviz-bench, bench-libs.tar.xz, mpi/*.deb
# from pack-mpi-carry.sh), from the repository root, rows in order of priority:
#   t31       issue 31's tree rows on one GPU with the defaults (1M and 16M, theta 0.5-0.6)
#   inproc    the tree split over every GPU in one process, 16M (x1 and xP rows)
#   big       the same at 67,108,864 bodies
#   mpi       one rank per GPU over Open MPI, 16M
# Everything lands in $OUT/lead-s6c.tgz.
set -uo pipefail
C=${C:-.carry-final32}
source "$C/gpu-env.sh" "$C"
results_dir lead-s6c
ROW_TIMEOUT=200
nvidia-smi topo -m >"$R/topology.txt" 2>&1
gpus=$(nvidia-smi -L | wc -l)
nb="$C/new/clviz-bench --suite nbody --device-type gpu --no-cpu-baseline --variants tree"
for step in "$@"; do
    case $step in
    t31) row t31 $nb --sizes 1m,16m --theta 0.5,0.55,0.6 ;;
    inproc) row inproc $nb --devices gpu --sizes 16m --warmup 3 --repeats 5 --wide ;;
    big) row big $nb --devices gpu --sizes 64m --warmup 3 --repeats 5 --wide ;;
    mpi)
        for deb in "$C"/mpi/*.deb; do dpkg -x "$deb" /opt/mpiroot; done
        cp -rn /opt/mpiroot/. / && ldconfig
        shm_kb=$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)
        [ "${shm_kb:-0}" -lt 4194304 ] && export OMPI_MCA_osc_sm_backing_directory=/tmp
        row mpi mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to none --mca plm isolated \
            --mca btl self,vader -np "$gpus" $nb --mpi --mpi-timeout 120 --sizes 16m --warmup 3 \
            --repeats 5 --wide
        ;;
    esac
done
