#!/usr/bin/env bash
# Issue 29's FP32 GEMM rows after the local tiles' 16-byte alignment, on the lent NVIDIA machine:
# an earlier build ($C/bench-bin.tar.xz's OLD/clviz-bench) and this one (NEW/clviz-bench) in turn,
# ROUNDS times, gemm-regblock, gemm-double-buffer, gemm-pipelined and CLBlast (tuned with the
# parameters in $C/clblast-cache/*.txt) over 1024-8192, then the GEMM test binaries carried in
# $C (compute_linalg_gemm*_test) on the GPU.
# Usage, from the checkout's root there: C=... OLD=c979841f NEW=new bash bench/device/run-gemm-align.sh
# Results: $OUT/gemm-align.tgz.
set -uo pipefail
C=${C:?set C to the carried folder}
here=$(cd "$(dirname "$0")" && pwd)
OLD=${OLD:-old} NEW=${NEW:-new} ROUNDS=${ROUNDS:-2}
R=/tmp/gemm-align
rm -rf "$R" /tmp/gb
mkdir -p "$R" /tmp/gb
trap 'tar czf "${OUT:-/tmp}/gemm-align.tgz" -C "$R" .' EXIT
if [ -f /tmp/viewer-env.sh ]; then source /tmp/viewer-env.sh; else source "$here/gpu-env.sh" "$C"; fi
[ -f "$C/blas-reference" ] && export OPENBLAS_CORETYPE=Haswell
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } >"$R/card.txt"
tar xJf "$C/bench-bin.tar.xz" -C /tmp/gb
for round in $(seq 1 "$ROUNDS"); do
    for b in "$OLD" "$NEW"; do
        mkdir -p "/tmp/xdg-$b/clviz/clblast" && cp "$C"/clblast-cache/*.txt "/tmp/xdg-$b/clviz/clblast/"
        XDG_CACHE_HOME=/tmp/xdg-$b timeout 120 /tmp/gb/$b/clviz-bench --suite gemm --device-type gpu \
            --wide --variants gemm-regblock,gemm-double-buffer,gemm-pipelined,clblast \
            --sizes 1024,2048,4096,8192 --json "$R/gemm-$b-r$round.json" >"$R/gemm-$b-r$round.txt" 2>&1
        echo "gemm $b round $round rc=$?"
        grep -E "^(gemm-|clblast-sgemm)" "$R/gemm-$b-r$round.txt" | cut -c1-120
    done
done
for t in gemm gemm_pipelined; do
    [ -x "$C/compute_linalg_${t}_test" ] || continue
    XDG_CACHE_HOME=/tmp/xdg-$NEW timeout 90 "$C/compute_linalg_${t}_test" >"$R/test_$t.txt" 2>&1
    echo "test $t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$R/test_$t.txt" | tr '\n' ' ')"
done
