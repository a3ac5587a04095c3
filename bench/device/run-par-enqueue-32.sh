#!/usr/bin/env bash
# Branch par-enqueue-32's call (issue 32, the split tree's staircase), from the repository root,
# carry $C: old/clviz-bench (the baseline), new/clviz-bench (this branch), bench-libs.tar.xz,
# gpu-env.sh. The tree at 16M on every GPU in one process, the baseline and the new build
# interleaved (even walk pieces, then halving ones), two rounds; then, while the call has time
# left (STOP_AFTER seconds), the same on the first two GPUs (platform 1: NVIDIA's, where PoCL is
# platform 0) once. One program cache for every row: the kernels are the same in both builds, so
# only the first row compiles them. Everything lands in $OUT/par-enqueue-32.tgz.
set -uo pipefail
C=${C:-.carry-par-enqueue-32}
STOP_AFTER=${STOP_AFTER:-170}
R=/tmp/par-enqueue-32
rm -rf "$R" /tmp/xdg-par32
mkdir -p "$R"
trap 'tar czf "${OUT:-/tmp}/par-enqueue-32.tgz" -C "$R" .' EXIT
source "$C/gpu-env.sh" "$C"
print_card "$R/card.txt"
nvidia-smi topo -m >"$R/topology.txt" 2>&1
nproc >"$R/cpus.txt"
ws="--suite nbody --device-type gpu --no-cpu-baseline --variants tree --sizes 16m --warmup 3 --repeats 5 --wide"
row() {  # NAME BUILD ARGS...: one run of C/BUILD/clviz-bench, its table to NAME.txt
    local name=$1 build=$2 t0=$SECONDS
    shift 2
    if [ "$SECONDS" -gt "$STOP_AFTER" ]; then
        echo "$name skipped: $SECONDS s into the call" >>"$R/times.txt"
        return
    fi
    echo "== $name: $build/clviz-bench $*" | tee -a "$R/commands.txt"
    XDG_CACHE_HOME=/tmp/xdg-par32 timeout 120 "$C/$build/clviz-bench" "$@" --json "$R/$name.json" \
        2>"$R/$name-progress.txt" | tee "$R/$name.txt"
    echo "$name $((SECONDS - t0)) s" >>"$R/times.txt"
    tar czf "${OUT:-/tmp}/par-enqueue-32.tgz" -C "$R" .
}
for round in 1 2; do
    row "old-r$round" old $ws --devices gpu
    row "new-r$round" new $ws --devices gpu
    row "old-halving-r$round" old $ws --devices gpu --tree-walk-halving
    row "new-halving-r$round" new $ws --devices gpu --tree-walk-halving
done
row old-2gpu old $ws --devices 1.0,1.1
row new-2gpu new $ws --devices 1.0,1.1
