#!/usr/bin/env bash
# Issue 31, round 8 (branch far4-31: the far field's fourth order) on the lent NVIDIA GPU, from the
# repository root. The carried folder $C holds bench-libs.tar.xz (pack-bench-libs.sh), gpu-env.sh,
# tree-phases and far-sweep of this build, and bin/NAME/clviz-bench builds (old: today's main,
# 9fe7928; new: this branch).
# Usage: C=.carry-far4-31 bench/device/run-far4-31.sh STEP...
#   sweep  far-sweep (force error on the colliding galaxies and the Plummer sphere) at $SWEEP_SIZES
#          for $SWEEP_THETAS x $SWEEP_ORDERS x $SWEEP_FARS
#   probe  tree-phases at $PROBE_SIZES for each of $PROBE_CONFIGS (field 12: thetaFar, 13: order)
#   ab     clviz-bench --variants tree at $AB_SIZES and $THETAS for every RUN in $RUNS
#          (NAME or NAME@THETA_FAR: bin/NAME/clviz-bench, with --theta-far THETA_FAR if given),
#          interleaved, $ROUNDS rounds
# Everything lands in $OUT/far4-31.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-far4-31}
R=/tmp/far4-31
[ -n "${KEEP:-}" ] || rm -rf "$R" /tmp/xdg-*  # a warm machine keeps /tmp: start each call clean
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/far4-31.tgz" -C "$R" .' EXIT
source "$C/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
print_card "$R/card.txt"
PROBE_SIZES=${PROBE_SIZES:-1048576 16777216}
base=128:1:4:512
# far THETA ORDER THETA_FAR...: tree-phases configs
far() {
    local t=$1 o=$2; shift 2
    for f in "$@"; do printf '%s:%s:2048:0:0:1:-1:1024:%s:%s ' "$base" "$t" "$f" "$o"; done
}
PROBE_CONFIGS=${PROBE_CONFIGS:-$(far 0.5 4 0 0.4 0.5 0.6 0.7 0.8)$(far 0.5 3 0.4)$(far 0.55 4 0 0.4 0.5 0.6 0.7 0.8)$(far 0.55 3 0.4 0.6)$(far 0.6 4 0 0.4 0.5 0.6 0.7 0.8)}
SWEEP_SIZES=${SWEEP_SIZES:-20000 1048576}
SWEEP_THETAS=${SWEEP_THETAS:-0.5 0.55 0.6}
SWEEP_ORDERS=${SWEEP_ORDERS:-3 4}
SWEEP_FARS=${SWEEP_FARS:-0 0.4 0.45 0.5 0.55 0.6 0.65 0.7}
THETAS=${THETAS:-0.5,0.55,0.6}
ROUNDS=${ROUNDS:-1 2}
AB_SIZES=${AB_SIZES:-1m,16m}
RUNS=${RUNS:-old new new@0.6}

for step in "$@"; do
case $step in
sweep)
    for n in $SWEEP_SIZES; do
        XDG_CACHE_HOME=/tmp/xdg-new FAR_THETAS="$SWEEP_THETAS" FAR_ORDERS="$SWEEP_ORDERS" \
            timeout ${SWEEP_TIMEOUT:-150} "$C/far-sweep" "$n" $SWEEP_FARS 2>&1 | tee -a "$R/sweep.txt"
    done
    ;;
probe)
    echo "configs: $PROBE_CONFIGS" >"$R/phases.txt"
    XDG_CACHE_HOME=/tmp/xdg-new TREE_LABEL=new TREE_CONFIGS="$PROBE_CONFIGS" timeout ${PROBE_TIMEOUT:-300} \
        "$C/tree-phases" $PROBE_SIZES 2>&1 | grep -v '^$' | tee -a "$R/phases.txt"
    ;;
ab)
    for round in $ROUNDS; do
        for run in $RUNS; do
            which=${run%@*}
            flags=()
            [ "$run" = "$which" ] || flags=(--theta-far "${run#*@}")
            tag=${run/@/-}
            XDG_CACHE_HOME=/tmp/xdg-ab-$which timeout ${AB_TIMEOUT:-200} "$C/bin/$which/clviz-bench" --suite nbody \
                --device-type gpu --no-cpu-baseline --variants tree --sizes "$AB_SIZES" \
                --theta "$THETAS" "${flags[@]}" --json "$R/ab-$tag-$round.json" \
                >"$R/ab-$tag-$round.txt" 2>"$R/ab-$tag-$round.err"
            echo "$run round $round rc=$?"; cat "$R/ab-$tag-$round.txt"
        done
    done
    ;;
esac
tar czf "${OUT:-/tmp}/far4-31.tgz" -C "$R" .  # each finished step kept, should the call be cut
done
