#!/usr/bin/env bash
# Issue 29's TF32 GEMM, round tc-29b (packed XOR-swizzled stages, bigger blocks), one device call
# (bench/device/README.md). Run from the repository root with a carried folder $C holding
# clviz-bench (this build), old/clviz-bench (main's), compute_linalg_gemm_test, bench-libs.tar.xz
# (pack-bench-libs.sh) and, for each name in KV, kernels-NAME/ (a kernels/ copy for an A/B).
# Usage: C=.carry-tc-29b [KV="pf"] bench/device/run-tc29b.sh STEP...
#   tests  the GEMM test binary's TF32 tests (PTX paths on); the staged ones with each kernels-NAME
#   ab     gemm-tf32 at $SIZES: old, new (default row and every $TUNINGS row), new with each
#          kernels-NAME (in the first $KV_ROUNDS rounds only); in turn, $ROUNDS times
#   sass   ptxas + cuobjdump of the staged programs the new runs built; counts in the k-tile loop
# Everything lands in $OUT/tc29b.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-tc-29b}
R=/tmp/tc29b
rm -rf "$R" /tmp/xdg-*  # a machine kept warm from an earlier call still holds its files
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/tc29b.tgz" -C "$R" .' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"
print_card "$R/card.txt"
SIZES=${SIZES:-4096,8192}
ROUNDS=${ROUNDS:-2}
KV=${KV:-}
DEV=${DEV:-gpu}
# One --gemm-tuning row each (new binaries only; main's takes no tensor-core keys).
TUNINGS=${TUNINGS:-"BM=256 BN=128 BK=16 WM=64 WN=64;BM=128 BN=256 BK=16 WM=64 WN=64;BM=128 BN=128 BK=16 WM=64 WN=32;BM=128 BN=128 BK=8 WM=64 WN=64"}
targs=()
IFS=';' read -ra tl <<<"$TUNINGS"
for t in "${tl[@]}"; do targs+=(--gemm-tuning "$t"); done
for step in "$@"; do
case $step in
tests)
    for which in new ${TEST_KV-$KV}; do
        kdir=""; [ $which != new ] && kdir=$C/kernels-$which
        filter='*Tf32*:*tf32*:*Smaller*:*WholeTiles*'; [ $which != new ] && filter='*Staged*'
        CLVIZ_KERNEL_DIR=$kdir CLVIZ_PROGRAM_CACHE=off timeout ${TEST_S:-90} "$C/compute_linalg_gemm_test" \
            --gtest_filter="$filter" >"$R/test_$which.txt" 2>&1
        echo "test $which: rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$R/test_$which.txt" | tr '\n' ' ')"
        grep -E '^\[  FAILED|Failure' "$R/test_$which.txt" | head -5
    done
    ;;
ab)
    nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 500 >"$R/clocks.csv" 2>&1 &
    smi=$!
    for round in $(seq 1 $ROUNDS); do
        kv=$KV; [ $round -gt ${KV_ROUNDS:-$ROUNDS} ] && kv=
        for which in old new $kv; do
            bin=$C/clviz-bench; extra=("${targs[@]}")
            [ $which = old ] && bin=$C/old/clviz-bench && extra=()
            kdir=""; [ $which != old ] && [ $which != new ] && kdir=$C/kernels-$which
            CLVIZ_KERNEL_DIR=$kdir XDG_CACHE_HOME=/tmp/xdg-$which timeout ${AB_S:-60} "$bin" --suite gemm \
                --device-type $DEV --variants gemm-tf32 --sizes "$SIZES" "${extra[@]}" ${EXTRA_ARGS:-} \
                --json "$R/$which$round.json" >"$R/$which$round.txt" 2>"$R/$which$round.err"
            echo "$which round $round rc=$?"
            python3 - "$R/$which$round.json" <<'PY'
import json, sys
try:
    rows = json.load(open(sys.argv[1]))["results"]
except Exception as e:
    sys.exit(f"  no JSON: {e}")
for r in rows:
    m = r.get("metrics", {})
    if r["variant"] == "mma-tf32-probe":
        print(f"  probe {m.get('GFLOP/s', 0) / 1e3:.0f} TFLOP/s")
    elif r["variant"] == "gemm-tf32":
        print(f"  {r['size']:>7} {r.get('median_ms', 0):8.3f} ms {m.get('GFLOP/s', 0) / 1e3:6.1f} TFLOP/s"
              f" err {m.get('rel.err', 0):.1e} {r['config']}" + ("" if "checked" in r["note"] else " !! " + r["note"][:120]))
PY
        done
    done
    kill $smi
    ;;
sass)
    cuda_tools
    mkdir -p "$R/sass"
    python3 "$(dirname "$0")/cached_ptx.py" "$R/sass" /tmp/xdg-new/clviz/programs $(for k in ${SASS_KV-$KV}; do echo /tmp/xdg-$k/clviz/programs; done) --tag --text-any=gemm_tf32_staged
    SM=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
    for p in "$R"/sass/*.ptx; do
        [ -f "$p" ] || continue
        s=${p%.ptx}
        "$PTXAS" -arch=sm_${SM:-90} -v "$p" -o "$s.cubin" >"$s.ptxas.txt" 2>&1 && "$CUOBJDUMP" -sass "$s.cubin" >"$s.sass" 2>/dev/null
        rm -f "$s.cubin"
        printf '%s | %s | %s | %s\n' "$(basename "$s")" "$(python3 "$(dirname "$0")/sass_hmma_loop.py" "$s.sass")" \
            "$(grep -oE 'Used [0-9]+ registers.*' "$s.ptxas.txt" | head -1)" "$(grep -oE '\-D[A-Z_]+(=[0-9]+)?' "$s.key" | tr '\n' ' ')"
    done | tee "$R/sass_counts.txt"
    ;;
*) echo "unknown step $step" >&2 ;;
esac
tar czf "${OUT:-/tmp}/tc29b.tgz" -C "$R" .
done
