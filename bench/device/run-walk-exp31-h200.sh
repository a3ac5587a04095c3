#!/usr/bin/env bash
# Issue 31, round 7 (branch walk-exp-31: the group walk's far field) on the lent NVIDIA GPU, from
# the repository root. The carried folder $C holds bench-libs.tar.xz (pack-bench-libs.sh),
# tree-phases of this build, bin/NAME/clviz-bench builds (old: today's main; farXX: this branch
# with TreeForceOptions::thetaFar's default set to 0.XX), and kv/NAME/, copies of kernels/ that
# tree-phases times through CLVIZ_KERNEL_DIR.
# Usage: C=.carry-walk-exp-31 bench/device/run-walk-exp31-h200.sh STEP...
#   probe  tree-phases at $PROBE_SIZES for each of $PROBE_CONFIGS (field 12: thetaFar), then for
#          each kv/NAME with $VARIANT_CONFIGS
#   ab     clviz-bench --variants tree at $AB_SIZES and $THETAS for every bin/NAME in $BINS,
#          interleaved, $ROUNDS rounds
# Everything lands in $OUT/walk-exp31.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-walk-exp-31}
R=/tmp/walk-exp31
[ -n "${KEEP:-}" ] || rm -rf "$R" /tmp/xdg-*  # a warm machine keeps /tmp: start each call clean
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/walk-exp31.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
print_card "$R/card.txt"
PROBE_SIZES=${PROBE_SIZES:-1048576 16777216}
base=128:1:4:512
far() { local t=$1; shift; for f in "$@"; do printf '%s:%s:2048:0:0:1:-1:1024:%s ' "$base" "$t" "$f"; done; }
PROBE_CONFIGS=${PROBE_CONFIGS:-$(far 0.5 0 0.6 0.7 0.8)$(far 0.55 0 0.5 0.6 0.7 0.8)$(far 0.6 0 0.6 0.7)}
VARIANT_CONFIGS=${VARIANT_CONFIGS:-$(far 0.55 0 0.6 0.7)}
THETAS=${THETAS:-0.5,0.55,0.6}
ROUNDS=${ROUNDS:-1}
AB_SIZES=${AB_SIZES:-1m,16m}
BINS=${BINS:-old far60 far70}

for step in "$@"; do
case $step in
probe)
    echo "configs: $PROBE_CONFIGS" >"$R/phases.txt"
    XDG_CACHE_HOME=/tmp/xdg-new TREE_LABEL=new TREE_CONFIGS="$PROBE_CONFIGS" timeout ${PROBE_TIMEOUT:-300} \
        "$C/tree-phases" $PROBE_SIZES 2>&1 | grep -v '^$' | tee -a "$R/phases.txt"
    for v in "$C"/kv/*/; do
        [ -d "$v" ] || continue
        name=$(basename "$v")
        CLVIZ_KERNEL_DIR=$v XDG_CACHE_HOME=/tmp/xdg-$name TREE_LABEL=$name \
            TREE_CONFIGS="$VARIANT_CONFIGS" timeout ${PROBE_TIMEOUT:-300} "$C/tree-phases" $PROBE_SIZES 2>&1 |
            grep -v '^$' | tee -a "$R/phases.txt"
    done
    ;;
ab)
    for round in $ROUNDS; do
        for which in $BINS; do
            XDG_CACHE_HOME=/tmp/xdg-ab-$which timeout ${AB_TIMEOUT:-200} "$C/bin/$which/clviz-bench" --suite nbody \
                --device-type gpu --no-cpu-baseline --variants tree --sizes "$AB_SIZES" \
                --theta "$THETAS" --json "$R/ab-$which-$round.json" \
                >"$R/ab-$which-$round.txt" 2>"$R/ab-$which-$round.err"
            echo "$which round $round rc=$?"; cat "$R/ab-$which-$round.txt"
        done
    done
    ;;
esac
tar czf "${OUT:-/tmp}/walk-exp31.tgz" -C "$R" .  # each finished step kept, should the call be cut
done
