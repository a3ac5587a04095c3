#!/usr/bin/env bash
# Issue 31, round 6 (branch walk-31c) on the lent NVIDIA GPU, from the repository root. The carried
# folder $C holds bench-libs.tar.xz (pack-bench-libs.sh), tree-phases of this build, bin/NAME/
# clviz-bench builds (old: the baseline; the others this branch with one default changed each),
# and kv/NAME/, copies of kernels/ that tree-phases times through CLVIZ_KERNEL_DIR.
# Usage: C=.carry-walk-31c bench/device/run-walk31c-h200.sh STEP...
#   probe  tree-phases for the embedded kernels ($PROBE_CONFIGS at $PROBE_SIZES) and for each
#          kv/NAME ($VARIANT_CONFIGS), each with its own program cache, whose walk PTX ptxas and
#          cuobjdump turn into SASS (sass/NAME/)
#   ab     clviz-bench --variants tree at $AB_SIZES and $THETAS for every bin/NAME in $BINS,
#          interleaved, $ROUNDS rounds
# Everything lands in $OUT/walk31c.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-walk-31c}
R=/tmp/walk31c
[ -n "${KEEP:-}" ] || rm -rf "$R" /tmp/xdg-*  # a warm machine keeps /tmp: start each call clean (KEEP=1: add to it)
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/walk31c.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
print_card "$R/card.txt"
PROBE_SIZES=${PROBE_SIZES:-1048576 16777216}
PROBE_CONFIGS=${PROBE_CONFIGS:-128:1:4:512:0.5}
VARIANT_CONFIGS=${VARIANT_CONFIGS:-128:1:4:512:0.5}
THETAS=${THETAS:-0.5,0.55,0.6}
ROUNDS=${ROUNDS:-1}
AB_SIZES=${AB_SIZES:-1m,16m}
BINS=${BINS:-old new}
cuda_tools

# The group walk's programs in cache $1 as PTX, then SASS, into $R/sass/$2/.
sass() { cached_sass "$1" "$R/sass/$2" '.entry walk(' walk; }

for step in "$@"; do
case $step in
probe)
    echo "ptxas: ${PTXAS:-none} cuobjdump: ${CUOBJDUMP:-none}" | tee "$R/sass-tools.txt"
    XDG_CACHE_HOME=/tmp/xdg-new TREE_LABEL=new TREE_CONFIGS="$PROBE_CONFIGS" timeout 240 \
        "$C/tree-phases" $PROBE_SIZES 2>&1 | grep -v '^$' | tee -a "$R/phases.txt"
    sass /tmp/xdg-new new
    for v in "$C"/kv/*/; do
        [ -d "$v" ] || continue
        name=$(basename "$v")
        CLVIZ_KERNEL_DIR=$v XDG_CACHE_HOME=/tmp/xdg-$name TREE_LABEL=$name \
            TREE_CONFIGS="$VARIANT_CONFIGS" timeout 150 "$C/tree-phases" $PROBE_SIZES 2>&1 |
            grep -v '^$' | tee -a "$R/phases.txt"
        sass /tmp/xdg-$name "$name"
    done
    ;;
ab)
    for round in $ROUNDS; do
        for which in $BINS; do
            XDG_CACHE_HOME=/tmp/xdg-ab-$which timeout 240 "$C/bin/$which/clviz-bench" --suite nbody \
                --device-type gpu --no-cpu-baseline --variants tree --sizes "$AB_SIZES" \
                --theta "$THETAS" --json "$R/ab-$which-$round.json" \
                >"$R/ab-$which-$round.txt" 2>"$R/ab-$which-$round.err"
            echo "$which round $round rc=$?"; cat "$R/ab-$which-$round.txt"
        done
    done
    ;;
esac
tar czf "${OUT:-/tmp}/walk31c.tgz" -C "$R" .  # each finished step kept, should the call be cut
done
