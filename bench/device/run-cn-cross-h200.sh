#!/usr/bin/env bash
# One device call for issue 30's C_N by the cross product (docs/spectral.md, "C_N without the
# stacked windows"): from the repository root of the lent machine, with a carried folder $C holding
# clviz-bench (this branch), before/clviz-bench (main's), the covariance and spectral test binaries
# and bench-libs.tar.xz (pack-bench-libs.sh). Runs the mnf suite of both builds interleaved twice
# (all three sizes, then the AVIRIS cube alone), then the tests on the GPU. Everything comes back
# as $OUT/results.tgz, rewritten after each step.
set -u
C=${C:-.carry-cn-cross}
R=${OUT:-/tmp/cn-cross-out}
mkdir -p "$R" /tmp/bench-libs
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
{ date -u; cat "$C/commit.txt" 2>/dev/null
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
  lscpu | grep -E "^CPU\(s\)|Model name|MHz"; uptime; } >"$R/card.txt" 2>&1
cat "$R/card.txt"
SIZES=145x145x200,614x512x224,614x1087x224
BIG=614x1087x224
pack() { tar czf "$R/results.tgz" -C "$R" --exclude results.tgz .; }
bench() {  # LABEL BINARY SIZES
    local label=$1 bin=$2 sizes=$3
    timeout 90 "$bin" --suite mnf --device-type gpu --sizes "$sizes" --warmup 3 --repeats 30 \
        --csv "$R/$label.csv" >"$R/$label.txt" 2>"$R/$label.err"
    echo "== $label rc=$?"
    grep -E "^(1 filter|2 C_N|4 C_D|   C_N Gram|  host: 1,2,4|3,5-7 eigen|device steps|whole)" \
        "$R/$label.txt" | grep "${BIG%x*}"
    pack
}
bench mnf-new-1 "$C/clviz-bench" "$SIZES"
bench mnf-old-1 "$C/before/clviz-bench" "$SIZES"
bench mnf-new-2 "$C/clviz-bench" "$BIG"
bench mnf-old-2 "$C/before/clviz-bench" "$BIG"
for t in "$C"/*_test; do
    timeout 120 "$t" >"$R/$(basename "$t").txt" 2>&1
    echo "== $(basename "$t") rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$R/$(basename "$t").txt" | tr '\n' ' ')"
    pack
done
pack
find "$R" -type f ! -name results.tgz -delete
