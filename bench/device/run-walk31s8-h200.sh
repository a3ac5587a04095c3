#!/usr/bin/env bash
# Issue 31, session 8 (branch walk-31): where the group walk's time goes, on the lent NVIDIA GPU,
# from the repository root. The carried folder $C holds bench-libs.tar.xz (pack-bench-libs.sh),
# gpu-env.sh, cached_ptx.py and sass_loops.py (copies of this folder's), tree-phases and
# walk-ceiling built from this branch (tree_phases.cpp, walk_ceiling.cpp), kernels/ (this branch's,
# of which the probe makes copies with switches defined) and bin/NAME/clviz-bench builds.
# Usage: C=.carry-walk-31 bench/device/run-walk31s8-h200.sh STEP...
#   ceiling  walk-ceiling: the walk's list sums alone, full groups, synthetic lists (the walk's
#            options; then $CEILING_ALT, other walk options)
#   probe    tree-phases at $PROBE_SIZES for the build's kernels and each kernel copy (one process,
#            one Plummer sphere per N; $PROBE_CONFIGS), then $ALT_CONFIGS for the copy main;
#            the walk's SASS of each copy (sass/NAME/)
#   ab       clviz-bench --variants tree at $AB_SIZES and $THETAS: bin/old, then the candidates
#            (below), interleaved, until $STOP_AFTER seconds
# Kernel copies: kernels/ with nbody_tree.cl's switches defined at its top (kernels/nbody_tree.cl's
# header names them): main (none), count (the list's cells, the far cells), nosums, nofaracc, nofareval,
# traversal (none of the three). The first call also timed two candidates whose switches only
# commit 7b7adac's kernels hold (WALK_FAR_DEFER, WALK_EAGER_LOADS: copies defer, eager,
# defereager; both slower, docs/benchmarks.md), and bin/c1, this branch's defaults (stack 768,
# register cap 72) on f83603f.
# Everything lands in $OUT/walk31s8.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-walk-31}
R=/tmp/walk31s8
[ -n "${KEEP:-}" ] || rm -rf "$R" /tmp/xdg-* /tmp/walk31s8-kv  # a warm machine keeps /tmp
mkdir -p "$R" /tmp/walk31s8-kv
trap 'tar czf "${OUT:-/tmp}/walk31s8.tgz" -C "$R" .' EXIT
source "$C/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
print_card "$R/card.txt"
# Plummer, theta 0.55 and 0.5, the preset's theta_far 0.55, f83603f's walk defaults otherwise (stack
# 1024; register cap -1 was 80 with the far field there and in the first call's tree-phases)
# (tree_phases.cpp's fields: group:bpi:leaf:list:theta:tileKeys:digitBits:keysPerItem:
# countInScatter:regcap:stack:thetaFar:farOrder:kickInScatter).
base=128:1:4:512:0.55:2048:0:0:1:-1:1024:0.55:3:0
PROBE_SIZES=${PROBE_SIZES:-16777216}
ALT_SIZE=${ALT_SIZE:-16777216}  # the size of the alternative configs and of the bench set's choice
PROBE_CONFIGS=${PROBE_CONFIGS:-$base}
# The occupancy candidate (a 7th work-group per multiprocessor: stack 768 or 896, register cap 72 or
# 64; stack 640), and theta 0.5.
ALT_CONFIGS=${ALT_CONFIGS:-$base 128:1:4:512:0.55:2048:0:0:1:72:768:0.55:3:0 128:1:4:512:0.55:2048:0:0:1:72:896:0.55:3:0 128:1:4:512:0.55:2048:0:0:1:64:768:0.55:3:0 128:1:4:512:0.55:2048:0:0:1:72:640:0.55:3:0 128:1:4:512:0.5:2048:0:0:1:-1:1024:0.55:3:0 128:1:4:512:0.5:2048:0:0:1:72:768:0.55:3:0}
KV=${KV:-count nosums nofaracc nofareval traversal}
CEILING_ALT=${CEILING_ALT:--DSTACK=768 -DFAR_FIELD -DFAR_ORDER=3 -DWALK_REGISTER_CAP -cl-nv-maxrregcount=72 -DNV_INLINE_PTX}
THETAS=${THETAS:-0.5,0.55}
AB_SIZES=${AB_SIZES:-1m,16m}
# bin/old (the baseline) always; then bin/c1 if its walk config (stack 768, register cap 72) beat
# the base config by 2% in the probe, unless AB_SET names the builds (" c1"; a kernel copy's name
# runs bin/old with that copy).
AB_SET=${AB_SET:-}
ROUNDS=${ROUNDS:-1}
STOP_AFTER=${STOP_AFTER:-200}  # seconds into the script after which no further bench run starts

variant() {  # variant NAME DEFINE...: kernels/ with the defines at nbody_tree.cl's top
    local name=$1
    shift
    rm -rf "/tmp/walk31s8-kv/$name"
    cp -r "$C/kernels" "/tmp/walk31s8-kv/$name"
    for d in "$@"; do sed -i "1i #define $d" "/tmp/walk31s8-kv/$name/nbody_tree.cl"; done
}
variant main
variant count WALK_PROBE_COUNT
variant nosums WALK_PROBE_NO_SUMS
variant nofaracc WALK_PROBE_NO_FAR_ACC
variant nofareval WALK_PROBE_NO_FAR_EVAL
variant traversal WALK_PROBE_NO_SUMS WALK_PROBE_NO_FAR_ACC WALK_PROBE_NO_FAR_EVAL

# The walk's SASS from program cache $1 into $R/sass/$2/, with sass_loops.py's counts.
sass() {
    cached_sass "$1" "$R/sass/$2" '.entry walk(' walk
    for s in "$R/sass/$2"/*.sass; do
        [ -e "$s" ] && python3 "$C/sass_loops.py" "$s" >"$s.loops.txt" 2>&1 && xz -9 "$s"
    done
}

for step in "$@"; do
    echo "== $step $(date -u +%T)"
    case $step in
    ceiling)
        CLVIZ_KERNEL_DIR=/tmp/walk31s8-kv/main timeout 60 "$C/walk-ceiling" 2>&1 | tee "$R/ceiling.txt"
        CLVIZ_KERNEL_DIR=/tmp/walk31s8-kv/main CEILING_OPTIONS="$CEILING_ALT" timeout 60 "$C/walk-ceiling" \
            512:0 0:256 128:256 2>&1 | tee "$R/ceiling-alt.txt"
        ;;
    probe)
        dirs="main=/tmp/walk31s8-kv/main"
        for v in $KV; do dirs="$dirs $v=/tmp/walk31s8-kv/$v"; done
        TREE_KERNEL_DIRS="$dirs" TREE_CACHE_ROOT=/tmp/xdg-probe TREE_CONFIGS="$PROBE_CONFIGS" \
            timeout 150 "$C/tree-phases" $PROBE_SIZES 2>&1 | grep -v '^$' | tee "$R/phases.txt"
        TREE_KERNEL_DIRS="main=/tmp/walk31s8-kv/main" TREE_CACHE_ROOT=/tmp/xdg-alt \
            TREE_CONFIGS="$ALT_CONFIGS" timeout 120 "$C/tree-phases" "$ALT_SIZE" 2>&1 |
            grep -v '^$' | tee "$R/phases-alt.txt"
        for v in main $KV; do sass "/tmp/xdg-probe/$v" "$v"; done
        sass /tmp/xdg-alt/main alt
        ;;
    ab)
        set=$AB_SET
        if [ -z "$set" ]; then  # the probe's winners (walk ms at 16M, theta 0.55)
            walk() { grep -E "^$1 n=$ALT_SIZE .*theta=0.55 .*regcap=$2 stack=$3 " "$4" |
                head -1 | grep -oE 'walk.walk [0-9.]+' | cut -d' ' -f2; }
            ref2=$(walk main -1 1024 "$R/phases-alt.txt")
            t=$(walk main 72 768 "$R/phases-alt.txt")
            [ -n "$ref2" ] && [ -n "$t" ] && awk -v t="$t" -v r="$ref2" 'BEGIN{exit !(t < 0.98*r)}' &&
                set="$set c1"
        fi
        echo "bench set: old$set" | tee "$R/ab-set.txt"
        for round in $(seq 1 "$ROUNDS"); do
            for which in old $set; do
                if [ "$SECONDS" -gt "$STOP_AFTER" ]; then echo "stop: $SECONDS s"; break 2; fi
                bin=$which kv=
                if [ -d "/tmp/walk31s8-kv/$which" ]; then bin=old kv=/tmp/walk31s8-kv/$which; fi
                CLVIZ_KERNEL_DIR=$kv XDG_CACHE_HOME=/tmp/xdg-ab-$which timeout 90 \
                    "$C/bin/$bin/clviz-bench" --suite nbody --device-type gpu --no-cpu-baseline \
                    --variants tree --sizes "$AB_SIZES" --theta "$THETAS" --warmup 2 --repeats 7 \
                    --json "$R/ab-$which-$round.json" >"$R/ab-$which-$round.txt" \
                    2>"$R/ab-$which-$round.err"
                echo "$which round $round rc=$? ($SECONDS s)"
                grep -E "^tree " "$R/ab-$which-$round.txt"
            done
        done
        ;;
    esac
    tar czf "${OUT:-/tmp}/walk31s8.tgz" -C "$R" .  # each finished step kept, should the call be cut
done
echo "== done $(date -u +%T)"
