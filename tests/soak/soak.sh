#!/usr/bin/env bash
# soak.sh CLVIZ OUT_DIR [NBODY_FRAMES] [IMAGE_FRAMES]
# CLVIZ_SOAK_PRELOAD=/usr/lib/x86_64-linux-gnu/liblsan.so.0 runs a normal build under
# LeakSanitizer (standalone LSan needs no instrumentation: it replaces malloc).
# Long runs with live switches, memory sampled once a second (RSS, from /proc): 10,000 N-body
# frames switching kernel variant, preset, N, integrator and steps per frame every 250 frames;
# 3,000 image-lab frames toggling the filter chain every 100 frames while spinning. Under an
# ASan build or the preload above, LeakSanitizer reports leaks at exit, with
# tests/soak/lsan.supp muting allocations that PoCL, LLVM and Mesa keep for the process's
# life. Writes OUT_DIR/{nbody,image}.{log,rss.csv}; prints start, peak and end RSS per run.
# Needs a display (run under xvfb-run).
set -uo pipefail
clviz=$1 out=$2 nbodyFrames=${3:-10000} imageFrames=${4:-3000}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=1:${LSAN_OPTIONS:-}"

# run NAME ARGS...: runs clviz in the background, samples VmRSS (KiB) every second.
run() {
    local name=$1
    shift
    local start=$SECONDS
    env ${CLVIZ_SOAK_PRELOAD:+LD_PRELOAD=$CLVIZ_SOAK_PRELOAD} "$clviz" "$@" >"$out/$name.log" 2>&1 &
    local pid=$!
    echo "seconds,rss_kib" >"$out/$name.rss.csv"
    while kill -0 "$pid" 2>/dev/null; do
        rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null) &&
            [ -n "$rss" ] && echo "$((SECONDS - start)),$rss" >>"$out/$name.rss.csv"
        sleep 1
    done
    wait "$pid"
    local status=$?
    awk -F, -v name="$name" -v status="$status" 'NR == 2 {first = $2} NR > 1 {last = $2;
        if ($2 > peak) peak = $2; n++} END {printf "%s: exit %d, %d samples, RSS start %.0f MiB, peak %.0f MiB, end %.0f MiB\n",
        name, status, n, first / 1024, peak / 1024, last / 1024}' "$out/$name.rss.csv"
    grep -E "ERROR: (Leak|Address)Sanitizer|SUMMARY: .*Sanitizer|runtime error" "$out/$name.log" | head -5
    return "$status"
}

switches=()
variants=(naive tiled unrolled vectorized async-copy small-n)
presets=(cube shell plummer disk collision)
for ((f = 250, i = 0; f < nbodyFrames; f += 250, i++)); do
    switches+=(--set-at "$f:variant=${variants[i % 6]}")
    ((i % 4 == 1)) && switches+=(--set-at "$f:preset=${presets[i % 5]}")
    ((i % 4 == 2)) && switches+=(--set-at "$f:n=$((512 + 256 * (i % 7)))")
    ((i % 4 == 3)) && switches+=(--set-at "$f:integrator=$([ $((i % 8)) = 3 ] && echo taylor || echo leapfrog)")
    ((i % 5 == 4)) && switches+=(--set-at "$f:steps=$((1 + i % 3))")
done
run nbody --demo nbody --n 1024 --vsync off --frames "$nbodyFrames" --width 800 --height 600 \
    --set diagnostics=60 "${switches[@]}"
nbodyStatus=$?

chains=("rotate" "rotate,mean3" "grayscale,equalize" "rotate,transpose,median3" "none"
        "median3,rotate,grayscale" "equalize" "rotate,mean3,median3,grayscale,equalize,transpose")
switches=()
for ((f = 100, i = 0; f < imageFrames; f += 100, i++)); do
    switches+=(--set-at "$f:filters=${chains[i % 8]}")
    ((i % 3 == 0)) && switches+=(--set-at "$f:rotate-variant=$([ $((i % 2)) = 0 ] && echo buffer || echo image)")
done
run image --demo image --vsync off --frames "$imageFrames" --width 800 --height 600 \
    --set spin=on --set continuous=on "${switches[@]}"
imageStatus=$?
[ "$nbodyStatus" = 0 ] && [ "$imageStatus" = 0 ]
