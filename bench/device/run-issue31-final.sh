#!/usr/bin/env bash
# Issue 31's before/after in one call on the lent GPU, from the viewer's carry $C
# (pack-viewer-carry.sh with NAME=clviz for every build, plus bench-bin.tar.xz holding
# NAME/clviz-bench for the bench's builds):
#   1. the viewer at 1,048,576 bodies (tree, collision, 1280x720, GUI on, diagnostics every 30
#      frames, 1,002 frames) with every build in VIEWER_BUILDS, through run-viewer31-h200.sh
#      (traces, screenshots, frame_trace_stats.py);
#   2. clviz-bench's tree rows at 1M and 16M, theta 0.5 / 0.55 / 0.6, with every build in
#      BENCH_BUILDS, ROUNDS times in turn.
# Results: $OUT/viewer-runs.tgz (step 1) and $OUT/final31.tgz (step 2, card and timings).
# Usage, from the checkout's root there: C=... bash bench/device/run-issue31-final.sh [viewer] [tree]
set -uo pipefail
export C=${C:-.carry-viewer-31}
here=$(cd "$(dirname "$0")" && pwd)
VIEWER_BUILDS=${VIEWER_BUILDS:-b56f6169 befb932 new}
BENCH_BUILDS=${BENCH_BUILDS:-b56f6169 new}
ROUNDS=${ROUNDS:-1}
R=/tmp/final31
rm -rf "$R" /tmp/bb
mkdir -p "$R" /tmp/bb
trap 'tar czf "${OUT:-/tmp}/final31.tgz" -C "$R" .' EXIT
steps=" ${*:-viewer tree} "
if [[ $steps == *" viewer "* ]]; then
    runs=()
    for b in $VIEWER_BUILDS; do
        runs+=("$b-d30 $b 1002 --set diagnostics=30")
    done
    bash "$here/run-viewer31-h200.sh" "${runs[@]}"
fi
if [ -f /tmp/viewer-env.sh ]; then
    source /tmp/viewer-env.sh
else  # no viewer step: the carried libraries and NVIDIA's ICD for clviz-bench
    source "$here/gpu-env.sh" "$C"
fi
[ -f "$C/blas-reference" ] && export OPENBLAS_CORETYPE=Haswell
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } >"$R/card.txt"
[[ $steps == *" tree "* ]] || exit 0
tar xJf "$C/bench-bin.tar.xz" -C /tmp/bb
for round in $(seq 1 "$ROUNDS"); do
    for b in $BENCH_BUILDS; do
        timeout 240 /tmp/bb/$b/clviz-bench --suite nbody --device-type gpu --no-cpu-baseline \
            --variants tree --sizes 1m,16m --theta 0.5,0.55,0.6 --warmup 2 --repeats 7 \
            --csv "$R/tree-$b-r$round.csv" >"$R/tree-$b-r$round.txt" 2>&1
        echo "tree bench $b round $round rc=$?"
        grep -E "^tree " "$R/tree-$b-r$round.txt"
    done
done
