#!/usr/bin/env bash
# Issue 31, round 3 (branch walk-31) on the lent NVIDIA GPU, from the repository root. The carried
# folder $C holds bench-libs.tar.xz (pack-bench-libs.sh), clviz-bench and tree-phases of this
# build, old/clviz-bench (the build the rows are compared with) and kv/NAME/, copies of kernels/
# that tree-phases times through CLVIZ_KERNEL_DIR against the build's own (embedded) kernels.
# Usage: C=.carry-walk-31 bench/device/run-walk31-h200.sh STEP...
#   probe  tree-phases for the embedded kernels ($PROBE_CONFIGS at $PROBE_SIZES, $TILE_CONFIGS at
#          $TILE_SIZES) and for each kv/NAME ($VARIANT_CONFIGS at $PROBE_SIZES), each with its
#          own program cache, whose walk PTX ptxas and cuobjdump turn into SASS (sass/NAME/)
#   ab     clviz-bench --variants tree at $AB_SIZES: old at $OLD_THETAS, new at $THETAS,
#          interleaved, $ROUNDS rounds
# Everything lands in $OUT/walk31.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-walk-31}
R=/tmp/walk31
rm -rf "$R" /tmp/xdg-*  # a warm machine keeps /tmp: start each call clean
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/walk31.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
print_card "$R/card.txt"
PROBE_SIZES=${PROBE_SIZES:-1048576 16777216}
PROBE_CONFIGS=${PROBE_CONFIGS:-128:1:4:512:0.5 128:1:4:512:0.55}
TILE_SIZES=${TILE_SIZES:-1048576 4194304}
TILE_CONFIGS=${TILE_CONFIGS:-128:1:4:512:0.5:2048 128:1:4:512:0.5:4096 128:1:4:512:0.5:8192}
VARIANT_CONFIGS=${VARIANT_CONFIGS:-128:1:4:512:0.5}
THETAS=${THETAS:-0.5,0.55}
OLD_THETAS=${OLD_THETAS:-0.5}
ROUNDS=${ROUNDS:-1}
AB_SIZES=${AB_SIZES:-1m,4m,16m}
cuda_tools

# The group walk's programs in cache $1 as PTX, then SASS, into $R/sass/$2/.
sass() { cached_sass "$1" "$R/sass/$2" '.entry walk(' walk; }

for step in "$@"; do
case $step in
probe)
    echo "ptxas: ${PTXAS:-none} cuobjdump: ${CUOBJDUMP:-none}" | tee "$R/sass-tools.txt"
    XDG_CACHE_HOME=/tmp/xdg-new TREE_LABEL=new TREE_CONFIGS="$PROBE_CONFIGS" timeout 200 \
        "$C/tree-phases" $PROBE_SIZES 2>&1 | grep -v '^$' | tee -a "$R/phases.txt"
    XDG_CACHE_HOME=/tmp/xdg-new TREE_LABEL=new-tiles TREE_CONFIGS="$TILE_CONFIGS" timeout 100 \
        "$C/tree-phases" $TILE_SIZES 2>&1 | grep -v '^$' | tee -a "$R/phases.txt"
    sass /tmp/xdg-new new
    for v in "$C"/kv/*/; do
        name=$(basename "$v")
        CLVIZ_KERNEL_DIR=$v XDG_CACHE_HOME=/tmp/xdg-$name TREE_LABEL=$name \
            TREE_CONFIGS="$VARIANT_CONFIGS" timeout 150 "$C/tree-phases" $PROBE_SIZES 2>&1 |
            grep -v '^$' | tee -a "$R/phases.txt"
        sass /tmp/xdg-$name "$name"
    done
    ;;
ab)
    for round in $ROUNDS; do
        for which in old new; do
            bin=$C/clviz-bench; [ $which = old ] && bin=$C/old/clviz-bench
            thetas=$OLD_THETAS; [ $which = new ] && thetas=$THETAS
            XDG_CACHE_HOME=/tmp/xdg-ab-$which timeout 240 "$bin" --suite nbody --device-type gpu \
                --no-cpu-baseline --variants tree --sizes "$AB_SIZES" --theta "$thetas" \
                --json "$R/ab-$which-$round.json" >"$R/ab-$which-$round.txt" 2>"$R/ab-$which-$round.err"
            echo "$which round $round rc=$?"; cat "$R/ab-$which-$round.txt"
        done
    done
    ;;
esac
done
