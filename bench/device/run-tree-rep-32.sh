#!/usr/bin/env bash
# The split tree's replicated integration (issue 32, branch tree-rep-32) on the GPUs of one lent
# machine, from the repository root: on identical devices every device kicks and drifts every
# body after the acceleration exchange, so the position all-gather leaves the step
# (NbodyMultiDevice::setTreeIntegration, compute/nbody/multi/tree_integration.hpp). Rows in order
# of priority, none started after STOP_AFTER seconds (default 200):
#   new   this build, --tree-integrate auto (replicated on identical GPUs), every GPU (x1, xP)
#   old   the baseline build (today's main: owners + the position all-gather), every GPU
#   own   this build, --tree-integrate owners (the fallback), every GPU
#   new2  old2: the same on 2 GPUs (-p nvidia --devices 0,1)
#   half  this build, replicated, --tree-walk-halving (pieces 1/2, 1/4, 1/8, 1/8), every GPU
#   p8    this build, replicated, --tree-walk-pieces 8, every GPU
#   big   this build at 67,108,864 bodies, every GPU;  bigold: the baseline there
# $C holds new/clviz-bench, old/clviz-bench and bench-libs.tar.xz (pack-bench-libs.sh), with
# gpu-env.sh beside this script. Without nvidia-smi (a dry run on PoCL) SIZE and BIG shrink the
# rows and --devices all replaces gpu. Everything lands in $OUT/tree-rep-32.tgz.
# Usage: C=.carry-tree-rep-32 bash .carry-tree-rep-32/run-tree-rep-32.sh
set -uo pipefail
C=${C:-.carry-tree-rep-32}
R=/tmp/tree-rep-32
mkdir -p "$R"
trap 'tar czf "${OUT:-/tmp}/tree-rep-32.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"
if command -v nvidia-smi >/dev/null; then
    print_card "$R/card.txt"
    nvidia-smi topo -m >"$R/topology.txt" 2>&1
    set=gpu
    pair="-p nvidia --devices 0,1"
    type=gpu
else
    set=all
    pair="--devices all"
    type=cpu
fi
size=${SIZE:-16m}
big=${BIG:-64m}
began=$SECONDS
# row NAME BINARY ARGS...: one clviz-bench run unless STOP_AFTER seconds have passed; its table
# to NAME.txt, JSON to NAME.json, progress to NAME-progress.txt, wall time to times.txt.
row() {
    local name=$1 bin=$2
    shift 2
    if [ $((SECONDS - began)) -ge "${STOP_AFTER:-200}" ]; then
        echo "not run (time): $name" | tee -a "$R/times.txt"
        return
    fi
    local t0=$SECONDS
    echo "== $name: $bin $*" | tee -a "$R/commands.txt"
    timeout 120 "$bin" --suite nbody --device-type $type --no-cpu-baseline --variants tree \
        --warmup 3 --repeats 5 --wide "$@" --json "$R/$name.json" 2>"$R/$name-progress.txt" |
        tee "$R/$name.txt"
    echo "$name $((SECONDS - t0)) s" >>"$R/times.txt"
}
row new "$C/new/clviz-bench" --devices $set --sizes "$size"
row old "$C/old/clviz-bench" --devices $set --sizes "$size"
row own "$C/new/clviz-bench" --devices $set --sizes "$size" --tree-integrate owners
# The pair rows only where "every GPU" is more than two.
if [ "$set" = all ] || [ "$(nvidia-smi -L | wc -l)" -gt 2 ]; then
    row new2 "$C/new/clviz-bench" $pair --sizes "$size"
    row old2 "$C/old/clviz-bench" $pair --sizes "$size"
fi
row half "$C/new/clviz-bench" --devices $set --sizes "$size" --tree-walk-halving
row p8 "$C/new/clviz-bench" --devices $set --sizes "$size" --tree-walk-pieces 8
row big "$C/new/clviz-bench" --devices $set --sizes "$big"
row bigold "$C/old/clviz-bench" --devices $set --sizes "$big"
