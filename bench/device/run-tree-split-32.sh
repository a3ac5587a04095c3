#!/usr/bin/env bash
# The tree split of issue 32 with its domains walked in pieces (branch tree-split-32) on the GPUs
# of one lent machine, from the repository root: each piece's accelerations travel to the other
# devices while the next piece is walked (NbodyMultiDevice::setTreeWalkPieces). Rows in order of
# priority, none started after STOP_AFTER seconds (default 140):
#   new   this build, the default pieces, every GPU (x1 and xP rows)
#   old   an earlier build (the baseline), every GPU
#   p8    this build, --tree-walk-pieces 8;   p1: 1 piece (the walk, then the exchange)
#   new2  old2: 2 GPUs (-p nvidia --devices 0,1)
#   big   this build at 67,108,864 bodies, every GPU
# $C holds new/clviz-bench, old/clviz-bench and bench-libs.tar.xz (pack-bench-libs.sh), with
# gpu-env.sh beside this script. Without nvidia-smi (a dry run on PoCL) SIZE and BIG shrink the
# rows and --devices all replaces gpu. Everything lands in $OUT/tree-split-32.tgz.
# Usage: C=.carry-tree-split-32 bash bench/device/run-tree-split-32.sh
set -uo pipefail
C=${C:-.carry-tree-split-32}
R=/tmp/tree-split-32
mkdir -p "$R"
trap 'tar czf "${OUT:-/tmp}/tree-split-32.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"
if command -v nvidia-smi >/dev/null; then
    print_card "$R/card.txt"
    nvidia-smi topo -m >"$R/topology.txt" 2>&1
    set=gpu
    pair="-p nvidia --devices 0,1"
else
    set=all
    pair="--devices all"
fi
size=${SIZE:-16m}
big=${BIG:-64m}
began=$SECONDS
# row NAME BINARY ARGS...: one clviz-bench run unless STOP_AFTER seconds have passed; its table
# to NAME.txt, JSON to NAME.json, progress to NAME-progress.txt, wall time to times.txt.
row() {
    local name=$1 bin=$2
    shift 2
    if [ $((SECONDS - began)) -ge "${STOP_AFTER:-140}" ]; then
        echo "not run (time): $name" | tee -a "$R/times.txt"
        return
    fi
    local t0=$SECONDS
    echo "== $name: $bin $*" | tee -a "$R/commands.txt"
    timeout 120 "$bin" --suite nbody --no-cpu-baseline --variants tree --warmup 3 --repeats 5 \
        --wide "$@" --json "$R/$name.json" 2>"$R/$name-progress.txt" | tee "$R/$name.txt"
    echo "$name $((SECONDS - t0)) s" >>"$R/times.txt"
}
row new "$C/new/clviz-bench" --devices $set --sizes "$size"
row old "$C/old/clviz-bench" --devices $set --sizes "$size"
row p8 "$C/new/clviz-bench" --devices $set --sizes "$size" --tree-walk-pieces 8
row p1 "$C/new/clviz-bench" --devices $set --sizes "$size" --tree-walk-pieces 1
row new2 "$C/new/clviz-bench" $pair --sizes "$size"
row old2 "$C/old/clviz-bench" $pair --sizes "$size"
row big "$C/new/clviz-bench" --devices $set --sizes "$big"
