#!/usr/bin/env bash
# One device call for the MNF eigen step (docs/spectral.md, "On the GPU"): from the repository
# root of the lent machine, with a carried folder $C holding clviz-bench (this branch),
# before/clviz-bench (main's), clviz-mnf-eigen-probe, the spectral test binaries and
# bench-libs.tar.xz (pack-bench-libs.sh). Runs the mnf suite of both builds interleaved (this one
# restarts with a better OpenBLAS core where OpenBLAS fell back to Prescott; main's also with that
# core forced, to part the core's effect from the code's; PRESCOTT=1: this build on the fallback
# kernels; PROBE=1: the eigen probe), and the spectral tests on the GPU. Everything comes back
# as $OUT/results.tgz, rewritten after each step.
set -u
C=${C:-.carry-mnf-eigen}
R=${OUT:-/tmp/mnf-eigen-out}
mkdir -p "$R" /tmp/bench-libs
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
{ date -u; cat "$C/commit.txt" 2>/dev/null
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
  lscpu | grep -E "^CPU\(s\)|Model name|MHz"; uptime; } >"$R/card.txt" 2>&1
cat "$R/card.txt"
SIZES=145x145x200,614x512x224,614x1087x224
BIG=614x1087x224
bench() {  # LABEL BINARY SIZES [ENV...]
    local label=$1 bin=$2 sizes=$3; shift 3
    env "$@" timeout 120 "$bin" --suite mnf --device-type gpu --sizes "$sizes" --warmup 3 \
        --repeats 30 --csv "$R/$label.csv" >"$R/$label.txt" 2>"$R/$label.err"
    echo "== $label rc=$? $(grep -h 'OpenBLAS' "$R/$label.err")"
    grep -E "^(3,5-7 eigen|device steps|whole)" "$R/$label.txt" | grep "${BIG%x*}"
    tar czf "$R/results.tgz" -C "$R" --exclude results.tgz .
}
bench mnf-new-1 "$C/clviz-bench" "$SIZES"
bench mnf-old-1 "$C/before/clviz-bench" "$SIZES"
bench mnf-old-skylakex-1 "$C/before/clviz-bench" "$SIZES" OPENBLAS_CORETYPE=SkylakeX
bench mnf-new-2 "$C/clviz-bench" "$BIG"
bench mnf-old-2 "$C/before/clviz-bench" "$BIG"
bench mnf-old-skylakex-2 "$C/before/clviz-bench" "$BIG" OPENBLAS_CORETYPE=SkylakeX
if [ -n "${PRESCOTT:-}" ]; then  # the new build on the fallback kernels
    bench mnf-new-prescott "$C/clviz-bench" "$BIG" OPENBLAS_CORETYPE=Prescott
fi
if [ -n "${PROBE:-}" ]; then
    OPENBLAS_CORETYPE=SkylakeX timeout 60 "$C/clviz-mnf-eigen-probe" 224 100 >"$R/probe-skylakex.txt" 2>&1
    echo "== probe rc=$?"; cat "$R/probe-skylakex.txt"
fi
for t in "$C"/*_test; do
    timeout 200 "$t" >"$R/$(basename "$t").txt" 2>&1
    echo "== $(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$R/$(basename "$t").txt" | tr '\n' ' ')"
done
# The eigenvector groups' threads: the partial-route test many times (a race showed in some runs).
fails=0
for i in $(seq 1 ${REPEAT_TESTS:-30}); do
    "$C/compute_spectral_mnf_solve_test" --gtest_filter='*Partial*' >"$R/solve-repeat.txt" 2>&1 || fails=$((fails + 1))
done
echo "== mnf_solve_test partial-route tests, ${REPEAT_TESTS:-30} runs: $fails failed" | tee "$R/solve-repeats.txt"
tar czf "$R/results.tgz" -C "$R" --exclude results.tgz .
# Only results.tgz comes back (the device tool returns a few files).
find "$R" -type f ! -name results.tgz -delete
