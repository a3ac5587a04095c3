#!/usr/bin/env bash
# The longest time without a new frame while the N-body viewer builds or auto-tunes (issue 27):
# a cold start (empty clviz and PoCL caches), a warm start, then with warm caches a new N (4096,
# the CPU default, to 8192: auto re-tunes), the first switch to tree, and the Auto-tune setting,
# each applied at frame AT.
# Usage: CLVIZ=path/to/clviz AT=600 bench/startup/pocl-frame-gaps.sh [clviz settings...]
# (e.g. --set app.off-frame=on: --seconds runs keep the work inside the frame by default). With
# work off the frame, the frames of the start's work come hundreds per second (nothing drawn):
# use an AT after it (3000 here), or the setting waits for that work as --set-at does.
clviz=$(realpath "${CLVIZ:-build/clviz}")
at=${AT:-600}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/swap-gaps-env.sh"  # $work, $work/swap_gaps.so, machine_state
run() { # label seconds settings...
    local label=$1 seconds=$2
    shift 2
    local line
    line=$(LD_PRELOAD=$work/swap_gaps.so xvfb-run -a -s "-screen 0 1280x800x24" "$clviz" \
        --demo nbody --width 800 --height 600 --vsync off --seconds "$seconds" "$@" 2>&1 |
        grep "swap-gaps:")
    echo "$label: $line"
}
date -u; nproc; uptime
export XDG_CACHE_HOME=$work/cold POCL_CACHE_DIR=$work/cold/pocl
mkdir -p "$POCL_CACHE_DIR"
run "cold start" 25 "$@"
export XDG_CACHE_HOME=$work/warm POCL_CACHE_DIR=$work/warm/pocl
mkdir -p "$POCL_CACHE_DIR"
run "(warming the caches)" 15 --set diagnostics=0 >/dev/null
run "warm start" 8 --set diagnostics=0 "$@"
run "x2 on N at frame $at" 30 --set diagnostics=0 --set-at "$at:n=8192" "$@"
run "tree at frame $at" 30 --set diagnostics=0 --set-at "$at:variant=tree" "$@"
run "autotune=3 at frame $at" 30 --set diagnostics=0 --set-at "$at:autotune=3" "$@"
