#!/usr/bin/env bash
# The N-body split across the GPUs of one device machine (issues 16 and 17), from the repository
# root. Usage: bench/device/run-scaling-h200.sh [inprocess] [mpi] ...
#   inprocess  clviz-bench --devices gpu: every GPU against the first alone
#   mpi        mpirun with 1 rank, one rank per GPU, and 2 ranks sharing GPU 0 (the exchange
#              alone); Open MPI from Debian's .debs carried in .carry-mpi (the host has none;
#              bench/device/pack-mpi-carry.sh fills it)
# SIZES (default 64k,256k,1m,4m) and VARIANT (default vectorized, wg 128) pick the rows.
set -uo pipefail
bin=${BIN:-.carry-lead}
final=${OUT:-/tmp/out}
out=/tmp/clviz-scaling
mkdir -p "$out" "$final"
trap 'tar czf "$final/results.tgz" -C "$out" .' EXIT  # $OUT returns at most 8 files
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,power.draw,pcie.link.gen.current,pcie.link.width.current --format=csv | tee "$out/gpu.txt"
nvidia-smi topo -m > "$out/topology.txt" 2>&1
sizes=${SIZES:-64k,256k,1m,4m}
variant=${VARIANT:-vectorized}
gpus=$(nvidia-smi -L | wc -l)

for what in "$@"; do
case $what in
inprocess)
    $bin/clviz-bench --suite nbody --devices gpu --variants "$variant" --wg 128 --sizes "$sizes" \
        --warmup 4 --repeats 7 --json "$out/inprocess.json" 2>"$out/inprocess-progress.txt" |
        tee "$out/inprocess.txt"
    ;;
mpi)
    # Debian's Open MPI unpacked next to the host's files, never over them (cp -n).
    for deb in .carry-mpi/*.deb; do dpkg -x "$deb" /opt/mpiroot; done
    cp -rn /opt/mpiroot/. / && ldconfig
    ldd $bin/clviz-bench | grep "not found" | sed 's/^/missing: /'
    # One host: the isolated launcher needs no ssh; shared memory between the ranks.
    mpirun="mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to none --mca plm isolated --mca btl self,vader"
    bench="$bin/clviz-bench --suite nbody --mpi --mpi-timeout 120 --variants $variant --wg 128"
    for ranks in 1 "$gpus"; do
        $mpirun -np "$ranks" $bench --device-type gpu --sizes "$sizes" --warmup 4 --repeats 7 \
            2>"$out/mpi-$ranks-progress.txt" | tee "$out/mpi-$ranks.txt"
    done
    # Two ranks on one GPU: what the exchange costs when there is nothing to gain.
    $mpirun -np 2 $bench -p nvidia -d 0 --sizes "${SHARED_SIZES:-64k,256k,1m}" --warmup 4 --repeats 7 \
        2>"$out/mpi-shared-progress.txt" | tee "$out/mpi-shared-gpu.txt"
    ;;
esac
done
