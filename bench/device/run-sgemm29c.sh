#!/usr/bin/env bash
# Issue 29's FP32 SIMT GEMM, round sgemm-29c, on the lent NVIDIA machine (bench/device/README.md).
# Run from the repository root with a carried folder $C holding old/clviz-bench (main's build),
# bench-libs.tar.xz (pack-bench-libs.sh), clblast-cache/*.txt (CLBlast's parameters tuned on the
# card), gpu-env.sh, cached_ptx.py, sass_loops.py, sass_bank_conflicts.py and, per mode:
#   MODE=explore: kv/NAME/ copies of kernels/ (gemm_pipelined.cl with its options #defined on top),
#     each timed through CLVIZ_KERNEL_DIR by old/clviz-bench at the default tiling and the
#     --gemm-tuning keys of $KEYS (one per line), after a sustained 8192^3 run that shows the clock
#     the card holds under this load; then the SASS of the programs of $SASS_KV;
#   MODE=ab: clviz-bench (this build) and old/clviz-bench interleaved, two rounds, every square
#     size (between the rounds, this build's $EXPLORE_KEYS rows at 4096^3 and 8192^3), then this
#     build's compute_linalg_gemm*_test binaries and the SASS of its programs.
# The SM clock, power and throttle reasons are sampled every 100 ms throughout (clocks.csv), and
# steps.txt stamps each step with the UTC time so that the samples can be matched to it.
# Usage: C=.carry-sgemm-29c MODE=explore bash .carry-sgemm-29c/run-sgemm29c.sh
# Steps are skipped once the call has run LIMIT_S seconds; everything lands in $OUT/sgemm29c.tgz,
# rewritten after every step.
set -uo pipefail
C=${C:-.carry-sgemm-29c}
C=$(cd "$C" && pwd)
R=/tmp/sgemm29c
LIMIT_S=${LIMIT_S:-170}
MODE=${MODE:-ab}
mkdir -p "$R"
trap 'kill $CLOCKS 2>/dev/null' EXIT
source "$C/gpu-env.sh" "$C"
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } | tee "$R/card.txt"
q=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active
nvidia-smi --query-gpu=$q --format=csv -i 0 >/dev/null 2>&1 || q=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$q --format=csv -lms 100 >"$R/clocks.csv" 2>&1 &
CLOCKS=$!
read -r -a gpu <<<"${DEVICE_ARGS:---device-type gpu}"  # DEVICE_ARGS="--device-type cpu": a dry run
left() { [ "$SECONDS" -lt "$LIMIT_S" ]; }
pack() { tar czf "${OUT:-/tmp}/sgemm29c.tgz.part" -C "$R" . && mv "${OUT:-/tmp}/sgemm29c.tgz.part" "${OUT:-/tmp}/sgemm29c.tgz"; }
stamp() { echo "$(date -u +%H:%M:%S.%N | cut -c1-12) [$SECONDS s] $*" | tee -a "$R/steps.txt"; pack; }
bench() {  # bench NAME BINARY XDG ARGS...
    local name=$1 bin=$2 xdg=$3
    shift 3
    mkdir -p "$xdg/clviz/clblast" && cp "$C"/clblast-cache/*.txt "$xdg/clviz/clblast/"
    stamp "$name start"
    XDG_CACHE_HOME=$xdg timeout "${BENCH_S:-60}" "$bin" --suite gemm "${gpu[@]}" --wide "$@" \
        --json "$R/$name.json" >"$R/$name.txt" 2>"$R/$name.err"
    stamp "$name rc=$?"
}
# sass NAME XDG GLOB: PTX of the cached programs -> ptxas sm_90 (the program's register cap) ->
# cuobjdump; registers, spills, the k-tile loop's instruction mix, bank-conflicting FFMAs and how
# many of the FFMAs mark an operand for the reuse cache.
sass() {
    local name=$1 xdg=$2 glob=$3
    cuda_tools
    mkdir -p "$R/sass-$name"
    python3 "$C/cached_ptx.py" "$R/sass-$name" "$xdg/clviz/programs" --glob "$glob" --key-all=-DFULL_TILES
    for p in "$R/sass-$name"/*.ptx; do
        [ -e "$p" ] || continue
        local s=${p%.ptx} cap
        cap=$(grep -o 'maxrregcount=[0-9]*' "$s.key" | cut -d= -f2)
        "$PTXAS" -arch=sm_90 -v ${cap:+-maxrregcount $cap} "$p" -o "$s.cubin" >"$s.ptxas.txt" 2>&1 &&
            "$CUOBJDUMP" -sass "$s.cubin" >"$s.sass" 2>/dev/null
        rm -f "$s.cubin"
        xz -9 "$p"
        echo "== $name $(basename "$s"): $(grep -o 'options=.*' "$s.key")"
        grep -o 'Used [0-9]* registers\|[0-9]* bytes spill [a-z]*' "$s.ptxas.txt" | tr '\n' ' '
        echo "FFMA with a .reuse operand: $(grep -c 'FFMA.*\.reuse' "$s.sass") of $(grep -c ' FFMA ' "$s.sass")"
        python3 "$C/sass_bank_conflicts.py" "$s.sass" 2>&1 | tail -1
        python3 "$C/sass_loops.py" --op FFMA "$s.sass" | sed 1d
        xz -9 "$s.sass"
    done | tee -a "$R/sass_counts.txt"
    stamp "sass $name"
}

if [ "$MODE" = explore ]; then
    # 1. The clock the card holds: main's default gemm-pipelined row at 8192^3, 320 runs (about
    # 9 s of steady load), clocks sampled throughout.
    bench sustain "$C/old/clviz-bench" /tmp/xdg-sustain --variants gemm-pipelined \
        --sizes "${SUSTAIN_SIZES:-8192}" --warmup 20 --repeats ${SUSTAIN_REPEATS:-300}
    # 2. Kernel sources in turn (v0: the binary's own), default tiling plus the keys.
    targs=()
    while IFS= read -r k; do [ -n "$k" ] && targs+=(--gemm-tuning "$k"); done <<<"${KEYS:-}"
    for v in ${KV:-v0}; do
        left || break
        kdir=""
        [ "$v" = v0 ] || kdir="$C/kv/$v"
        extra=()
        [ "$v" = v0 ] && extra=(--variants gemm-pipelined,clblast) || extra=(--variants gemm-pipelined)
        [ -f "$C/kv/$v.keys" ] && while IFS= read -r k; do [ -n "$k" ] && extra+=(--gemm-tuning "$k"); done <"$C/kv/$v.keys"
        CLVIZ_KERNEL_DIR=$kdir bench "kv-$v" "$C/old/clviz-bench" "/tmp/xdg-$v" "${extra[@]}" \
            --sizes "${KV_SIZES:-4096,8192}" ${EXTRA_ARGS:-} "${targs[@]}"
    done
    for v in ${SASS_KV:-}; do
        [ "$SECONDS" -lt "$((LIMIT_S + 30))" ] || break
        sass "$v" "/tmp/xdg-$v" 'gemm_pipelined-*.clbin'
    done
else
    SIZES=${SIZES:-1024,2048,4096,8192}
    V=${VARIANTS:-gemm-pipelined,clblast}
    NEWARGS=()
    while IFS= read -r k; do [ -n "$k" ] && NEWARGS+=(--gemm-tuning "$k"); done <<<"${NEW_KEYS:-}"
    bench before1 "$C/old/clviz-bench" /tmp/xdg-old --variants "$V" --sizes "$SIZES" ${EXTRA_ARGS:-}
    bench after1 "$C/clviz-bench" /tmp/xdg-new --variants "$V" --sizes "$SIZES" ${EXTRA_ARGS:-} "${NEWARGS[@]}"
    # This build's tuning keys (one per line), beside its default, at 4096^3 and 8192^3.
    if [ -n "${EXPLORE_KEYS:-}" ] && left; then
        XARGS=()
        while IFS= read -r k; do [ -n "$k" ] && XARGS+=(--gemm-tuning "$k"); done <<<"$EXPLORE_KEYS"
        bench explore "$C/clviz-bench" /tmp/xdg-explore --variants gemm-pipelined --sizes 4096,8192 "${XARGS[@]}"
    fi
    left && bench before2 "$C/old/clviz-bench" /tmp/xdg-old --variants "$V" --sizes "$SIZES" ${EXTRA_ARGS:-}
    left && bench after2 "$C/clviz-bench" /tmp/xdg-new --variants "$V" --sizes "$SIZES" ${EXTRA_ARGS:-} "${NEWARGS[@]}"
    for t in gemm_pipelined gemm; do
        if [ -x "$C/compute_linalg_${t}_test" ] && left; then
            XDG_CACHE_HOME=/tmp/xdg-new timeout "${TEST_S:-40}" "$C/compute_linalg_${t}_test" >"$R/test_$t.txt" 2>&1
            stamp "test $t rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$R/test_$t.txt" | tr '\n' ' ')"
        fi
    done
    [ "$SECONDS" -lt "$((LIMIT_S + 30))" ] && sass new /tmp/xdg-new 'gemm_pipelined-*.clbin'
    [ -n "${EXPLORE_KEYS:-}" ] && [ "$SECONDS" -lt "$((LIMIT_S + 30))" ] && sass explore /tmp/xdg-explore 'gemm_pipelined-*.clbin'
fi
stamp done
for f in "$R"/*.txt; do
    case $f in *steps.txt | *card.txt | *sass_counts.txt | *test_*) continue ;; esac
    echo "== $(basename "$f")"
    grep -E 'probe|gemm-|clblast' "$f" | cut -c1-170
done
