#!/usr/bin/env bash
# Issue 29's u8 covariance, one device call of a round (ROUND: 29c, 29d, 29e, ...; these rounds ran
# it as run-covu8-ROUND.sh, the same steps under the round's name)
# (bench/device/README.md): run from the repository root with a carried folder $C holding
# clviz-bench (this build), old/clviz-bench (main's), compute_linalg_covariance_test and
# compute_spectral_noise_diff_gram_test, bench-libs.tar.xz (pack-bench-libs.sh), this script's
# gpu-env.sh, cached_ptx.py and sass_hmma_loop.py beside it, and for each name in KV a
# kernels-NAME/ (a kernels/ copy read through CLVIZ_KERNEL_DIR: timing-only builds such as
# "neither MMAs nor copies", wrong results).
# Usage: ROUND=29e C=.carry-cov-u8-$ROUND [KV="nomma nocopy"] bash $C/run-covu8-round.sh STEP...
#   tests  the covariance and noise-diff Gram test binaries (PTX paths on)
#   ab     cov-tensor 224 x 667,418 u8 with --tune: old, new, then new with each kernels-NAME (first
#          $KV_ROUNDS rounds only), in turn, $ROUNDS times; the SM clock sampled meanwhile
#   plant  (PLANT="NAME...") the covariance test again with each kernels-NAME/ (a planted fault:
#          it must fail) through CLVIZ_KERNEL_DIR, on the tests named by PLANT_FILTER
#   sass   ptxas -v and cuobjdump of the staged kernels the new runs built; loop counts, and
#          per listing the device-wide barrier's spin loop (clock reads, acquire loads) and spills
# Everything lands in $OUT/covu8-$ROUND.tgz, rewritten after each step.
set -uo pipefail
ROUND=${ROUND:-29e}
C=${C:-.carry-cov-u8-$ROUND}
R=/tmp/covu8-$ROUND
rm -rf "$R" /tmp/xdg-*  # a machine kept warm from an earlier call still holds its files
mkdir -p "$R" /tmp/bench-libs
trap 'tar czf "${OUT:-/tmp}/covu8-$ROUND.tgz" -C "$R" .' EXIT
here=$(dirname "$0")
source "$here/gpu-env.sh" "$C"
DEV=${DEV:-gpu}
KV=${KV:-}
command -v nvidia-smi >/dev/null && print_card "$R/card.txt"
for step in "$@"; do
case $step in
tests)
    for t in compute_linalg_covariance_test compute_spectral_noise_diff_gram_test; do
        gtest_run "$R/$t.txt" "$t" env CLVIZ_PROGRAM_CACHE=off timeout ${TEST_S:-120} "$C/$t"
        grep -E '^\[  FAILED|Failure' "$R/$t.txt" | head -5
    done
    ;;
plant)
    for name in ${PLANT:-}; do
        gtest_run "$R/plant-$name.txt" "plant $name (non-zero expected)" env \
            CLVIZ_KERNEL_DIR=$C/kernels-$name CLVIZ_PROGRAM_CACHE=off timeout ${TEST_S:-120} \
            "$C/compute_linalg_covariance_test" --gtest_filter="${PLANT_FILTER:-*}"
        grep -E '^\[  FAILED ' "$R/plant-$name.txt" | head -8
    done
    ;;
ab)
    nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 500 >"$R/clocks.csv" 2>&1 &
    smi=$!
    for round in $(seq 1 ${ROUNDS:-2}); do
        kv=$KV; [ $round -gt ${KV_ROUNDS:-1} ] && kv=
        for which in old new $kv; do
            bin=$C/clviz-bench; [ $which = old ] && bin=$C/old/clviz-bench
            kdir=""; [ $which != old ] && [ $which != new ] && kdir=$C/kernels-$which
            CLVIZ_KERNEL_DIR=$kdir XDG_CACHE_HOME=/tmp/xdg-$which timeout ${AB_S:-60} "$bin" --suite gemm \
                --device-type $DEV --variants cov-tensor --sizes 1024 --tune ${QUICK:-} \
                --json "$R/$which$round.json" >"$R/$which$round.txt" 2>"$R/$which$round.err"
            echo "$which round $round rc=$?"
            python3 - "$R/$which$round.json" <<'PY'
import json, sys
try:
    rows = json.load(open(sys.argv[1]))["results"]
except Exception as e:
    sys.exit(f"  no JSON: {e}")
for r in rows:
    if r["variant"] == "copy-probe":
        print(f'  copy probe {r.get("metrics", {}).get("GB/s", 0):.0f} GB/s')
    if r["variant"] == "cov-tensor":
        notes = r["note"].split("; ")
        keep = [n for n in notes if "exact" in n or "WRONG" in n or "failed" in n or "alone" in n or "fused" in n]
        print(f'  {r.get("median_ms", 0):.4f} ms (min {r.get("min_ms", 0):.4f}) {r["config"]} | {"; ".join(keep)}')
PY
        done
    done
    kill $smi
    ;;
sass)
    # The staged kernels' SASS (gpu-env.sh's cached_sass: ptxas and cuobjdump of the cached PTX).
    cached_sass /tmp/xdg-new "$R/sass" '.entry cov_gram_u8_staged('
    for s in "$R"/sass/*.sass; do
        [ -f "$s" ] || continue
        b=${s%.sass}
        printf '%s | %s | %s | %s\n' "$(basename "$b")" "$(python3 "$here/sass_hmma_loop.py" "$s")" \
            "$(grep -oE 'Used [0-9]+ registers.*' "$b.ptxas.txt" | head -1)" \
            "$(grep -oE '\-D[A-Z_0-9]+(=[0-9]+)?' "$b.key" | grep -v NV_INLINE | tr '\n' ' ')"
    done | tee "$R/sass_counts.txt"
    for s in "$R"/sass/*.sass; do
        [ -f "$s" ] || continue
        printf '%s: CLOCK reads %s, LDG.E.STRONG.GPU %s, ATOM/RED %s, spill stores %s\n' "$(basename "$s")" \
            "$(grep -c 'SR_CLOCK' "$s")" "$(grep -c 'LDG.E.STRONG.GPU' "$s")" "$(grep -cE 'ATOMG|RED\.' "$s")" \
            "$(grep -oE '[0-9]+ bytes spill stores' "${s%.sass}.ptxas.txt" | tr '\n' ' ')"
    done | tee "$R/sass_barrier.txt"
    xz -3 "$R"/sass/*.sass 2>/dev/null
    ;;
*) echo "unknown step $step" >&2 ;;
esac
tar czf "${OUT:-/tmp}/covu8-$ROUND.tgz" -C "$R" .
done
