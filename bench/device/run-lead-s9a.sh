#!/usr/bin/env bash
# The lead's first call of session 9 (carry $C: main/clviz-bench stripped, queue-overlap,
# bench-libs.tar.xz, gpu-env.sh), from the repository root, on every GPU of the machine:
#   overlap  queue-overlap on the first GPU: do two in-order queues run kernels at once?
#   tree     the tree at 16M, x1 and xP rows, the default walk pieces (4, halving), twice
#   pieces   the same with 1, 2 and 8 pieces: what a piece's launch costs a device's walk
# Every card's SM clock, power, temperature and throttle reasons are sampled every 250 ms
# (sample_clocks in gpu-env.sh).
# Everything lands in $OUT/lead-s9a.tgz.
set -uo pipefail
C=${C:-.carry-lead9}
source "$C/gpu-env.sh" "$C"
results_dir lead-s9a
nvidia-smi topo -m >"$R/topology.txt" 2>&1
sample_clocks
opts="--suite nbody --device-type gpu --no-cpu-baseline --variants tree --devices gpu --sizes 16m"
ws="--warmup 3 --repeats 5 --wide"
for step in "$@"; do
    case $step in
    overlap) "$C/queue-overlap" 0 200000 | tee "$R/overlap.txt"; "$C/queue-overlap" 0 20000 | tee -a "$R/overlap.txt" ;;
    tree) for round in 1 2; do row "tree-r$round" "$C/main/clviz-bench" $opts $ws; done ;;
    pieces) for k in 1 2 8; do row "pieces$k" "$C/main/clviz-bench" $opts --tree-walk-pieces $k $ws; done ;;
    esac
    date -u +"%T $step done" >>"$R/times.txt"
done
stop_clocks
