#!/usr/bin/env bash
# Issue 31 (branch build-31: the tree step beyond the walk) on the lent NVIDIA GPU, from the
# repository root. The carried folder $C holds bench-libs.tar.xz (pack-bench-libs.sh),
# gpu-env.sh, tree-phases-old and tree-phases-new (bench/device/tree_phases.cpp built against
# today's main and this branch) and bin/NAME/clviz-bench (old: today's main; new: this branch).
# Usage: C=.carry-build-31 bench/device/run-build-31.sh STEP...
#   probe  tree-phases at $PROBE_SIZES, θ 0.55 with the default far field: old as the bench's
#          rows time the tree (no kick), new with leapfrog's kick in the scatter and after it
#          (TREE_KICK=1), then new with the bodies handed over in Morton order (TREE_ORDER) and
#          after $PRESTEPS tree steps (TREE_PRESTEPS), as the bench's later rows see them
#   sort   tree-phases-new with the kick after the scatter, $REPS passes each (each pass's walk
#          printed: a sustained load as the bench's 18 steps): 4-bit digits (the default) and 5-bit
#          digits with 16 (the default), 12 and 24 keys per work-item
#   steps  tree-steps-NAME (bench/device/tree_steps.cpp) for NAME in $STEP_BUILDS: $STEPS tree steps
#          of the 16M sphere, θ 0.55, each step's list length, state aggregates and kernel time
#   ab     clviz-bench --variants tree at $AB_SIZES and $THETAS for every bin/NAME in $BINS,
#          interleaved, $ROUNDS rounds; nvidia-smi samples the SM clock, power, temperature and
#          throttle reasons every 250 ms meanwhile (smi.csv)
# Everything lands in $OUT/build31.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-build-31}
R=/tmp/build31
[ -n "${KEEP:-}" ] || rm -rf "$R" /tmp/xdg-*  # a warm machine keeps /tmp: start each call clean
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/build31.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
print_card "$R/card.txt"
PROBE_SIZES=${PROBE_SIZES:-1048576 16777216}
PRESTEPS=${PRESTEPS:-20}
THETAS=${THETAS:-0.55}
ROUNDS=${ROUNDS:-1 2}
AB_SIZES=${AB_SIZES:-1m,16m}
BINS=${BINS:-old new}
# group:bpi:leaf:list:theta:tileKeys:digitBits:keysPerItem:countInScatter:regcap:stack:thetaFar
# [:kickInScatter]; -1: the build's default (register cap 48, θ_far 0.4).
cfg() { printf '128:1:4:512:0.55:2048:0:0:1:-1:1024:-1:%s ' "$@"; }
sortcfg() { printf '128:1:4:512:0.55:2048:%s:1:-1:1024:-1:0 ' "$@"; }  # digitBits:keysPerItem
phases() {  # LABEL BINARY CONFIGS SIZES [ENV...]
    local label=$1 bin=$2 configs=$3 sizes=$4
    shift 4
    env "$@" XDG_CACHE_HOME=/tmp/xdg-$label TREE_LABEL=$label TREE_CONFIGS="$configs" \
        timeout ${PROBE_TIMEOUT:-120} "$C/$bin" $sizes 2>&1 | grep -v '^$' | tee -a "$R/phases.txt"
}

for step in "$@"; do
case $step in
probe)
    phases old tree-phases-old "$(cfg 0)" "$PROBE_SIZES"
    phases new-kick tree-phases-new "$(cfg 1 0)" "$PROBE_SIZES" TREE_KICK=1
    phases new-morton tree-phases-new "$(cfg 0)" "$PROBE_SIZES" TREE_KICK=1 TREE_ORDER=morton
    phases new-presteps tree-phases-new "$(cfg 1 0)" "${PROBE_SIZES##* }" TREE_KICK=1 \
        TREE_PRESTEPS=$PRESTEPS
    ;;
sort)
    phases new-sort tree-phases-new "$(sortcfg 0:0 5:16 5:12 5:24)" "$PROBE_SIZES" TREE_KICK=1 \
        TREE_REPS=${REPS:-20}
    ;;
steps)
    for v in ${STEP_BUILDS:-old new fused fusedbox}; do
        echo "== $v" | tee -a "$R/steps.txt"
        XDG_CACHE_HOME=/tmp/xdg-steps-$v timeout ${STEPS_TIMEOUT:-60} "$C/tree-steps-$v" \
            ${STEPS_N:-16777216} ${STEPS:-18} 2>&1 | grep -v '^$' | tee -a "$R/steps.txt"
    done
    ;;
ab)
    nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
        --format=csv -lms 250 >"$R/smi.csv" 2>&1 &
    smi=$!
    for round in $ROUNDS; do
        for which in $BINS; do
            XDG_CACHE_HOME=/tmp/xdg-ab-$which timeout ${AB_TIMEOUT:-150} "$C/bin/$which/clviz-bench" --suite nbody \
                --device-type gpu --no-cpu-baseline --variants tree --sizes "$AB_SIZES" \
                --theta "$THETAS" --json "$R/ab-$which-$round.json" \
                >"$R/ab-$which-$round.txt" 2>"$R/ab-$which-$round.err"
            echo "$which round $round rc=$?"; cat "$R/ab-$which-$round.txt"
            date -u +"%T $which $round done" >>"$R/ab-times.txt"
        done
    done
    kill $smi 2>/dev/null
    ;;
esac
tar czf "${OUT:-/tmp}/build31.tgz" -C "$R" .  # each finished step kept, should the call be cut
done
