#!/usr/bin/env bash
# The longest time without a new frame after the spectral lab's noise estimate changes (issue 30):
# `--set-at FRAME:noise=ESTIMATE` long after the start, only the swaps from a few frames before it
# counted (swap_gaps.c with SWAP_GAPS_FROM), the recompute inside the frame (app.off-frame=off,
# as before issue 30 whatever the setting) and off it (app.off-frame=on). noise=diff is the control:
# no change, the frames' own jitter. Warm caches: unmeasured runs first fill private clviz and
# PoCL caches with every estimate's kernels, so the gap is the MNF's, not a build's.
# CUBE=FILE.hdr runs it on that cube (--cube) instead of the generated one.
# Usage: CLVIZ=path/to/clviz [CLVIZ_BEFORE=path/to/older/clviz] SECONDS_PER_RUN=20 FRAME=3000 \
#        NOISES="diff mean3 median3" MODES="off on" bench/startup/pocl-spectral-recompute-gaps.sh
clviz=$(realpath "${CLVIZ:-build/clviz}")
seconds=${SECONDS_PER_RUN:-20}
frame=${FRAME:-3000}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/swap-gaps-env.sh"  # $work, $work/swap_gaps.so, machine_state
machine_state
mkdir -p "$work/cache/pocl"
run() {  # binary, mode, noise: one line of swap_gaps output
    XDG_CACHE_HOME=$work/cache POCL_CACHE_DIR=$work/cache/pocl LD_PRELOAD=$work/swap_gaps.so \
        SWAP_GAPS_FROM=$((frame - 5)) xvfb-run -a -s "-screen 0 1280x800x24" "$1" --demo spectral \
        --width 800 --height 600 --vsync off --seconds "$seconds" --set "app.off-frame=$2" \
        --set-at "$frame:noise=$3" ${CUBE:+--cube "$CUBE"} 2>&1 | grep "swap-gaps:"
}
for noise in mean3 median3; do run "$clviz" on $noise >/dev/null; done  # fills the caches
binaries=("$clviz")
[ -n "$CLVIZ_BEFORE" ] && binaries=("$(realpath "$CLVIZ_BEFORE")" "$clviz")
for binary in "${binaries[@]}"; do
    for noise in ${NOISES:-diff mean3 median3}; do
        for mode in ${MODES:-off on}; do
            echo "$binary noise=diff -> $noise at frame $frame, app.off-frame=$mode: $(run "$binary" "$mode" "$noise")"
        done
    done
done
