#!/usr/bin/env bash
# The longest time without a new frame during a cold start (empty clviz and PoCL caches) of each
# lab demo (spectral, linalg, image), its start inside the frame (app.off-frame=off: as before
# issue 27) and off it (app.off-frame=on), timed by the swap_gaps.c shim as in
# pocl-frame-gaps.sh.
# Usage: CLVIZ=path/to/clviz SECONDS_PER_RUN=15 MODES="off on" bench/startup/pocl-lab-frame-gaps.sh
#        [demo...]
clviz=$(realpath "${CLVIZ:-build/clviz}")
seconds=${SECONDS_PER_RUN:-15}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/swap-gaps-env.sh"  # $work, $work/swap_gaps.so, machine_state
machine_state
demos=("$@")
[ ${#demos[@]} -eq 0 ] && demos=(spectral linalg image)
for demo in "${demos[@]}"; do
    for mode in ${MODES:-off on}; do
        cold=$(mktemp -d -p "$work")
        mkdir -p "$cold/pocl"
        line=$(XDG_CACHE_HOME=$cold POCL_CACHE_DIR=$cold/pocl LD_PRELOAD=$work/swap_gaps.so \
            xvfb-run -a -s "-screen 0 1280x800x24" "$clviz" --demo "$demo" --width 800 \
            --height 600 --vsync off --seconds "$seconds" --set "app.off-frame=$mode" 2>&1 |
            grep "swap-gaps:")
        echo "$demo cold start, app.off-frame=$mode: $line"
    done
done
