#!/usr/bin/env bash
# The lead's viewer call of session 7 on one GPU, from the viewer's carry $C
# (pack-viewer-carry.sh b56f6169=... new=..., plus bench-bin.tar.xz holding NAME/clviz-bench, and
# gpu-env.sh, cached_ptx.py, sass_loops.py, run-issue31-final.sh copied in):
#   viewer   issue 31's viewer before (56f6169) and after (new) at 1,048,576 bodies, tree,
#            collision, 1280x720, GUI on, diagnostics every 30 frames, 1,002 frames; new twice
#   linalg   the linear-algebra lab's roofline at 4096^3 with every GEMM variant timed, after
#            an N-body and an image-lab run in the same process (their points on the chart)
#   cov      the u8 covariance's default row (cov-tensor), three rounds, new build
#   tests    the GPU runs of the test binaries carried in tests.tar.xz
#   tree     clviz-bench's tree rows at 1M and 16M for both builds (run-issue31-final.sh tree)
#   sass     SASS of the new build's walk kernel from the bench's program cache
# Results: $OUT/viewer-runs.tgz, $OUT/final31.tgz, $OUT/sass31.tgz, $OUT/cov31.tgz.
set -uo pipefail
export C=${C:-.carry-viewer-s7}
here=$(cd "$(dirname "$0")" && pwd)
for step in "$@"; do
    case $step in
    viewer)
        KEEP_PNG=${KEEP_PNG:-d30$} bash "$here/run-viewer31-h200.sh" \
            "b56f6169-d30 b56f6169 1002 --set diagnostics=30" "new-d30 new 1002 --set diagnostics=30" \
            "new-d30b new 1002 --set diagnostics=30"
        ;;
    linalg)
        # On its own the step unpacks the builds; run-viewer-trace.sh starts X on its first call.
        [ -x /tmp/vbin/new/clviz ] || { mkdir -p /tmp/vbin && tar xJf "$C/bin.tar.xz" -C /tmp/vbin; }
        # With the reference BLAS (blas-reference) clviz must not ask OpenBLAS for its core.
        [ -f "$C/blas-reference" ] && export OPENBLAS_CORETYPE=Haswell
        bash "$here/run-viewer-trace.sh" linalg-4096 /tmp/vbin/new/clviz --width 1600 --height 900 \
            --set n=65536 --frames 700 --set-at 40:app.demo=image --set-at 80:app.demo=linalg \
            --set-at 82:size=4096 --set-at 82:all-variants=on
        tar czf "${OUT:-/tmp}/viewer-runs.tgz" -C /tmp/viewer-runs .
        ;;
    cov)  # the u8 covariance's default row, three rounds (new build)
        [ -f /tmp/viewer-env.sh ] && source /tmp/viewer-env.sh || source "$here/gpu-env.sh" "$C"
        [ -f "$C/blas-reference" ] && export OPENBLAS_CORETYPE=Haswell
        mkdir -p /tmp/bb /tmp/cov31 && tar xJf "$C/bench-bin.tar.xz" -C /tmp/bb
        for r in 1 2 3; do
            XDG_CACHE_HOME=/tmp/xdg-cov timeout 60 /tmp/bb/new/clviz-bench --suite gemm \
                --device-type gpu --variants cov-tensor --sizes 1024 --wide \
                >"/tmp/cov31/cov-r$r.txt" 2>&1
            grep -E "^cov-tensor" "/tmp/cov31/cov-r$r.txt" | cut -c1-160
        done
        tar czf "${OUT:-/tmp}/cov31.tgz" -C /tmp/cov31 .
        ;;
    tests)  # the GPU runs of the test binaries in tests.tar.xz (NAME, stripped), if carried
        [ -f "$C/tests.tar.xz" ] || { echo "no tests.tar.xz"; continue; }
        [ -f /tmp/viewer-env.sh ] && source /tmp/viewer-env.sh || source "$here/gpu-env.sh" "$C"
        [ -f "$C/blas-reference" ] && export OPENBLAS_CORETYPE=Haswell
        mkdir -p /tmp/gt /tmp/gputests && tar xJf "$C/tests.tar.xz" -C /tmp/gt
        for t in /tmp/gt/*; do
            XDG_CACHE_HOME=/tmp/xdg-tests timeout "${TEST_S:-240}" "$t" >"/tmp/gputests/$(basename "$t").txt" 2>&1
            echo "$(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "/tmp/gputests/$(basename "$t").txt" | tr '\n' ' ')"
        done
        tar czf "${OUT:-/tmp}/gputests.tgz" -C /tmp/gputests .
        ;;
    tree) VIEWER_BUILDS= BENCH_BUILDS="b56f6169 new" bash "$here/run-issue31-final.sh" tree ;;
    sass)
        source "$here/gpu-env.sh" "$C"
        cached_sass "$HOME/.cache" /tmp/sass31 '.entry walk(' walk
        for s in /tmp/sass31/*.sass; do
            [ -e "$s" ] && python3 "$here/sass_loops.py" "$s" | tee "$s.counts.txt" && xz -9 "$s"
        done
        tar czf "${OUT:-/tmp}/sass31.tgz" -C /tmp/sass31 .
        ;;
    esac
done
