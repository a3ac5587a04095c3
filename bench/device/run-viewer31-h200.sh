#!/usr/bin/env bash
# Issue 31's viewer figures on the lent GPU in one call: runs of carried builds at 1,048,576
# bodies, tree, collision, 1280x720, GUI on (run-viewer-trace.sh each: Xvfb with NVIDIA's GLX,
# --frame-trace, a screenshot), then frame_trace_stats.py over every trace, and optionally a
# check whether Xvfb without Mesa still serves NVIDIA's GLX (nomesa).
# Carry folder $C made by pack-viewer-carry.sh (which copies this script into it).
# Usage, from the checkout's root there: C=.carry-viewer-31 bash $C/run-viewer31-h200.sh RUN...
#   RUN: "LABEL NAME FRAMES [VAR=VALUE...] [CLVIZ ARGS...]"  (NAME: a build in bin.tar.xz)
#        or "nomesa NAME"
# Results: $OUT/viewer-runs.tgz (LABEL.txt, LABEL-frames.csv, LABEL.png, card.txt, xvfb.txt,
# stats.txt, nomesa.txt). RUN_TIMEOUT (seconds a run, default 240) and KEEP_PNG pass through.
set -uo pipefail
export C=${C:-.carry-viewer-31}
here=$(cd "$(dirname "$0")" && pwd)
# A machine kept warm between calls keeps the files of earlier commands, not their processes: an
# X socket left there would make run-viewer-trace.sh skip its set-up.
pgrep -x Xvfb >/dev/null || rm -f /tmp/.X11-unix/X7 /tmp/.X11-unix/X8 /tmp/.X7-lock /tmp/.X8-lock
rm -rf /tmp/viewer-runs /tmp/viewer-env.sh /tmp/vbin /tmp/bench-libs
mkdir -p /tmp/vbin /tmp/viewer-runs
tar xJf "$C/bin.tar.xz" -C /tmp/vbin
# A carry with the reference BLAS in place of OpenBLAS (pack-viewer-carry.sh BLAS=reference): clviz
# asks OpenBLAS for its core at start unless OPENBLAS_CORETYPE is set; the viewer calls no BLAS.
[ -f "$C/blas-reference" ] && export OPENBLAS_CORETYPE=Haswell
scene=(--set preset=collision --set n=1048576 --set variant=tree --width 1280 --height 720)
for run in "$@"; do
    read -r -a words <<<"$run"
    label=${words[0]} name=${words[1]}
    if [ "$label" = nomesa ]; then
        # Xvfb on :8 with no DRI driver to load: does its GLX extension come up, and does
        # NVIDIA's libGLX make a context there? (Decides whether later carries need Mesa.)
        source /tmp/viewer-env.sh
        LIBGL_DRIVERS_PATH=/nonexistent /opt/x/usr/bin/Xvfb :8 -screen 0 1280x800x24 -xkbdir /opt/x/usr/share/X11/xkb \
            >/tmp/viewer-runs/nomesa-xvfb.txt 2>&1 &
        sleep 3
        { echo "== Xvfb :8 with LIBGL_DRIVERS_PATH=/nonexistent; host DRI drivers:" \
              $(ls /usr/lib/x86_64-linux-gnu/dri 2>&1)
          DISPLAY=:8 LIBGL_DRIVERS_PATH=/nonexistent timeout 120 /tmp/vbin/$name/clviz \
            --device-type gpu --vsync off --frames 30 --set preset=collision --set n=65536 \
            --set variant=tree --width 640 --height 360 2>&1 | grep -v "^nbody summary"
          echo "exit status ${PIPESTATUS[0]}"; } >/tmp/viewer-runs/nomesa.txt 2>&1
        cat /tmp/viewer-runs/nomesa.txt
        continue
    fi
    frames=${words[2]}
    envs=()
    rest=("${words[@]:3}")
    while [ ${#rest[@]} -gt 0 ] && [[ ${rest[0]} == [A-Z_]*=* ]]; do
        envs+=("${rest[0]}")
        rest=("${rest[@]:1}")
    done
    env "${envs[@]}" bash "$here/run-viewer-trace.sh" "$label" "/tmp/vbin/$name/clviz" \
        --frames "$frames" "${scene[@]}" "${rest[@]}"
    grep -E "draw profile|frame trace:" "/tmp/viewer-runs/$label.txt"
    # Screenshots of the runs named in KEEP_PNG only (a regular expression; default: all): the
    # device tool returns at most 16 MiB a file.
    [[ $label =~ ${KEEP_PNG:-.} ]] || rm -f "/tmp/viewer-runs/$label.png"
done
# Every run writes a screenshot in its last frame: left out of the figures.
(cd /tmp/viewer-runs && python3 "$here/frame_trace_stats.py" --drop-last *-frames.csv) |
    tee /tmp/viewer-runs/stats.txt
tar czf "${OUT:-/tmp}/viewer-runs.tgz" -C /tmp/viewer-runs .
