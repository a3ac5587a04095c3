#!/usr/bin/env bash
# Issue 31's tree figures on the lent NVIDIA GPU (bench/device/README.md), from the repository root.
# The carried folder $C holds bench-libs.tar.xz (pack-bench-libs.sh), clviz-bench and tree-phases
# (bench/device/tree_phases.cpp) of this build, and old/clviz-bench, main/clviz-bench (earlier
# builds) for the before/after rows.
# Usage: C=.carry-tree-31 bench/device/run-tree31-h200.sh STEP...
#   probe  tree-phases: kernel-by-kernel times and walk shape of each $TREE_CONFIGS at $PROBE_SIZES,
#          then SASS counts of the walk programs it built (ptxas + cuobjdump where the host has them)
#   ab     clviz-bench --variants tree at $AB_SIZES: old and main at theta $OLD_THETAS, new at
#          $THETAS, interleaved, $ROUNDS rounds
# Everything lands in $OUT/tree31.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-tree-31}
R=/tmp/tree31
mkdir -p "$R" /tmp/bench-libs /tmp/xdg
trap 'tar czf "${OUT:-/tmp}/tree31.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
export XDG_CACHE_HOME=/tmp/xdg  # program binaries (NVIDIA: PTX) for the SASS counts
print_card "$R/card.txt"
PROBE_SIZES=${PROBE_SIZES:-1048576 16777216}
TREE_CONFIGS=${TREE_CONFIGS:-128:1:8:1024:0.5 128:2:8:1024:0.5 256:2:8:1024:0.5 256:2:8:512:0.5}
THETAS=${THETAS:-0.5}
OLD_THETAS=${OLD_THETAS:-$THETAS}
ROUNDS=${ROUNDS:-1 2}
AB_SIZES=${AB_SIZES:-1m,4m,16m}
for step in "$@"; do
case $step in
probe)
    TREE_CONFIGS="$TREE_CONFIGS" timeout 300 "$C/tree-phases" $PROBE_SIZES 2>&1 | grep -v '^$' | tee "$R/phases.txt"
    # The cached program binaries are PTX; ptxas assembles them for this GPU.
    cuda_tools
    echo "ptxas: ${PTXAS:-none} cuobjdump: ${CUOBJDUMP:-none}" | tee "$R/sass-tools.txt"
    mkdir -p "$R/sass"
    python3 "$(dirname "$0")/cached_ptx.py" "$R/sass" /tmp/xdg/clviz/programs --text-any='.entry walk('
    SM=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
    for p in "$R"/sass/*.ptx; do
        [ -e "$p" ] || continue
        s=${p%.ptx}
        if [ -n "$PTXAS" ] && [ -n "$CUOBJDUMP" ]; then
            "$PTXAS" -arch=sm_${SM:-90} -v "$p" -o "$s.cubin" >"$s.ptxas.txt" 2>&1 &&
                "$CUOBJDUMP" -sass -fun walk "$s.cubin" >"$s.sass" 2>/dev/null
            rm -f "$s.cubin"
        fi
    done
    ls -la "$R/sass" | head -40
    ;;
ab)
    for round in $ROUNDS; do
        for which in old main new; do
            bin=$C/clviz-bench; [ $which != new ] && bin=$C/$which/clviz-bench
            [ -x "$bin" ] || continue
            thetas=$OLD_THETAS; [ $which = new ] && thetas=$THETAS
            timeout 240 "$bin" --suite nbody --device-type gpu --no-cpu-baseline --variants tree \
                --sizes "$AB_SIZES" --theta "$thetas" --json "$R/ab-$which-$round.json" \
                >"$R/ab-$which-$round.txt" 2>"$R/ab-$which-$round.err"
            echo "$which round $round rc=$?"; cat "$R/ab-$which-$round.txt"
        done
    done
    ;;
esac
done
