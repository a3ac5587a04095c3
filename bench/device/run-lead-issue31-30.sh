#!/usr/bin/env bash
# The lead's one call for issues 31 and 30 on the lent GPU, from the viewer's carry $C
# (pack-viewer-carry.sh with main= and new= builds, plus lead-bin.tar.xz: new/ and old/
# clviz-bench and new/clviz-make-cube):
#   1. the viewer at 1M bodies (tree, collision, 1280x720, GUI on, diagnostics every 30 frames),
#      1,002 frames, main then new (run-viewer31-h200.sh: traces, stats, screenshots);
#   2. clviz-bench's tree rows at 1M and 16M for theta 0.5, 0.55 and 0.6, old then new;
#   3. the spectral lab on a generated 614 x 1087 x 224 u8 cube, off the frame as in the viewer,
#      the noise estimate changed six times, 200 frames apart (the first mean3 and median3 build
#      their kernels; the next three find them built): its change-to-shown line and frame trace.
# Results in $OUT/viewer-runs.tgz (step 1 and 3) and $OUT/lead.tgz (step 2 and the cube's log).
# Usage, from the checkout's root there: C=... bash $C/run-lead-issue31-30.sh [viewer] [tree]
#        [spectral]   (default: all three)
set -uo pipefail
export C=${C:-.carry-viewer-31}
here=$(cd "$(dirname "$0")" && pwd)
# A warm machine keeps earlier commands' files, not their processes: start clean.
pgrep -x Xvfb >/dev/null ||
    rm -rf /tmp/viewer-env.sh /tmp/bench-libs /tmp/vbin /tmp/viewer-runs /tmp/.X11-unix/X7 /tmp/.X7-lock
R=/tmp/lead; rm -rf "$R"; mkdir -p "$R" /tmp/lb
trap 'tar czf "${OUT:-/tmp}/lead.tgz" -C "$R" .' EXIT
tar xJf "$C/lead-bin.tar.xz" -C /tmp/lb
steps=" ${*:-viewer tree spectral} "
if [[ $steps == *" viewer "* ]]; then
    bash "$here/run-viewer31-h200.sh" "main-d30 main 1002 --set diagnostics=30" \
        "new-d30 new 1002 --set diagnostics=30"
fi
if [ -f /tmp/viewer-env.sh ]; then
    source /tmp/viewer-env.sh
else  # no viewer step: the carried libraries and NVIDIA's ICD for clviz-bench
    source bench/device/gpu-env.sh "$C"  # the checkout's: this script is run from $C
fi
# The carry's BLAS may be the reference one (blas-reference): then clviz must not ask OpenBLAS.
[ -f "$C/blas-reference" ] && export OPENBLAS_CORETYPE=Haswell
[[ $steps == *" tree "* ]] && for which in old new; do
    timeout 200 /tmp/lb/$which/clviz-bench --suite nbody --device-type gpu --no-cpu-baseline \
        --variants tree --sizes 1m,16m --theta 0.5,0.55,0.6 --warmup 2 --repeats 7 \
        --csv "$R/tree-$which.csv" >"$R/tree-$which.txt" 2>&1
    echo "tree bench $which rc=$?"; grep -E "^tree " "$R/tree-$which.txt"
done
[[ $steps == *" spectral "* ]] || exit 0
/tmp/lb/new/clviz-make-cube /tmp/aviris.hdr --size 614x1087x224 >"$R/make-cube.txt" 2>&1
echo "make-cube rc=$?"
# run-viewer-trace.sh starts X on its first use (a warm machine's is reused); the spectral
# lab's MNF needs the carry's OpenBLAS (clviz links it).
mkdir -p /tmp/vbin && tar xJf "$C/bin.tar.xz" -C /tmp/vbin
RUN_TIMEOUT=200 bash "$here/run-viewer-trace.sh" spectral-new /tmp/vbin/new/clviz --demo spectral \
    --cube /tmp/aviris.hdr --width 1280 --height 720 --frames 1300 --set app.off-frame=on \
    --set-at 150:noise=mean3 --set-at 350:noise=median3 --set-at 550:noise=diff \
    --set-at 750:noise=mean3 --set-at 950:noise=median3 --set-at 1150:noise=diff
grep -E "^spectral:|frame trace:" /tmp/viewer-runs/spectral-new.txt
(cd /tmp/viewer-runs && python3 "$here/frame_trace_stats.py" --drop-last spectral-new-frames.csv) |
    tee /tmp/viewer-runs/spectral-stats.txt
tar czf "${OUT:-/tmp}/viewer-runs.tgz" -C /tmp/viewer-runs .
