#!/usr/bin/env bash
# The N-body split across the GPUs of one device machine (issues 16 and 17), from the repository
# root. Usage: bench/device/run-scaling-h200.sh [inprocess] [mpi] ...
#   inprocess  clviz-bench --devices gpu: every GPU against the first alone
#   mpi        mpirun with 1 rank, then one rank per GPU (needs the carried Open MPI, .carry-mpi)
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
    export OPAL_PREFIX=$PWD/.carry-mpi/usr PATH=$PWD/.carry-mpi/usr/bin:$PATH
    export LD_LIBRARY_PATH=$PWD/.carry-mpi/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    for ranks in 1 "$gpus"; do
        mpirun --allow-run-as-root --oversubscribe -np "$ranks" $bin/clviz-bench --suite nbody --mpi \
            --device-type gpu --variants "$variant" --wg 128 --sizes "$sizes" --warmup 4 --repeats 7 \
            2>"$out/mpi-$ranks-progress.txt" | tee "$out/mpi-$ranks.txt"
    done
    ;;
esac
done
