#!/usr/bin/env bash
# Issue 29's FP32 rows in one device call (bench/device/README.md): this build against an older one
# (today's main), interleaved, CLBlast's own tuner on the GPU, then CLBlast tuned beside our rows,
# and the SASS counts of the FP32 kernels. Run from the repository root on the lent machine with a
# carried folder $C holding clviz-bench (this build), old/clviz-bench, bench-libs.tar.xz
# (pack-bench-libs.sh), clblast_tuner_xgemm and, optionally, compute_linalg_*_test binaries.
# Usage: C=.carry-simt-29 bench/device/run-simt29.sh
# Steps are ordered by importance; each is skipped once the call has run for too long
# (LIMIT_S, default 150 s). Everything lands in $OUT/simt29.tgz.
set -uo pipefail
C=${C:-.carry-simt-29}
C=$(cd "$C" && pwd)
R=/tmp/simt29
LIMIT_S=${LIMIT_S:-150}
mkdir -p "$R" /tmp/bench-libs /tmp/xdg-new /tmp/xdg-old
trap 'kill $CLOCKS 2>/dev/null' EXIT
source "$(dirname "$0")/gpu-env.sh" "$C"  # the carried libraries, NVIDIA's ICD
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } | tee "$R/card.txt"
# The SM clock and power through the whole call (is a GEMM row clocked below the FMA probe?).
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 200 >"$R/clocks.csv" 2>&1 &
CLOCKS=$!
read -r -a gpu <<<"${DEVICE_ARGS:---device-type gpu}"  # DEVICE_ARGS="--device-type cpu": a dry run
AB_SIZES=${AB_SIZES:-4096,8192}
ALL_SIZES=${ALL_SIZES:-1024,2048,4096,8192}
V=${VARIANTS:-gemm-regblock,gemm-double-buffer,clblast,cov-tiled}
left() { [ "$SECONDS" -lt "$LIMIT_S" ]; }
# The archive is rewritten after every step, so a call cut off at its time limit keeps the
# finished ones (on 2026-11-26 a cut mid-way through the final archive lost its tail).
pack() { tar czf "${OUT:-/tmp}/simt29.tgz.part" -C "$R" . && mv "${OUT:-/tmp}/simt29.tgz.part" "${OUT:-/tmp}/simt29.tgz"; }
stamp() { echo "[$SECONDS s] $*" | tee -a "$R/steps.txt"; pack; }

bench() {  # bench NAME BINARY XDG ARGS...
    local name=$1 bin=$2 xdg=$3
    shift 3
    XDG_CACHE_HOME=$xdg timeout 75 "$bin" --suite gemm "${gpu[@]}" --wide ${EXTRA_ARGS:-} "$@" --json "$R/$name.json" \
        >"$R/$name.txt" 2>"$R/$name.err"
    stamp "$name rc=$?"
}

# CLBlast parameters from an earlier call ($C/clblast-cache/*.txt, the file clviz keeps beside its
# program cache), if carried: then every CLBlast row of this call is tuned from the start.
if ls "$C"/clblast-cache/*.txt >/dev/null 2>&1; then
    mkdir -p /tmp/xdg-new/clviz/clblast /tmp/xdg-old/clviz/clblast
    cp "$C"/clblast-cache/*.txt /tmp/xdg-new/clviz/clblast/
    cp "$C"/clblast-cache/*.txt /tmp/xdg-old/clviz/clblast/
    stamp "carried CLBlast parameters: $(cat "$C"/clblast-cache/*.txt | tail -1)"
fi

# 1. The FP32 rows and the covariance, old and new build in turn (CLBlast's default database, or
# the carried parameters).
bench before1 "$C/old/clviz-bench" /tmp/xdg-old --variants $V --sizes "$AB_SIZES" --tune
bench after1 "$C/clviz-bench" /tmp/xdg-new --variants $V --sizes "$AB_SIZES" --tune

# 2. CLBlast's tuner on the GPU's platform (the tuners take platform 0 unless told, and PoCL may be
# listed first). Its first search space (578 small-tile configurations) is skipped by the
# fraction, so the time goes to a random 1/FRACTION of the second (120,800 configurations, tiles
# up to 128 x 128), at 2048^3; stopped once that space's JSON is written.
NV_PLATFORM=$(clinfo -l 2>/dev/null | sed -n 's/^Platform #\([0-9]*\):.*NVIDIA.*/\1/p' | head -1)
stamp "NVIDIA platform index: ${NV_PLATFORM:-not found}"
if [ -n "$NV_PLATFORM" ] && [ -x "$C/clblast_tuner_xgemm" ]; then
    (cd "$R" && exec "$C/clblast_tuner_xgemm" -platform "$NV_PLATFORM" -precision 32 -m 2048 -n 2048 \
        -k 2048 -fraction "${FRACTION:-600}" >"$R/clblast_tuner.txt" 2>&1) &
    tuner=$!
    t0=$SECONDS
    while kill -0 $tuner 2>/dev/null && [ ! -s "$R/clblast_xgemm_2_32.json" ] && [ $((SECONDS - t0)) -lt "${TUNER_S:-110}" ]; do
        sleep 1
    done
    sleep 1
    kill $tuner 2>/dev/null
    wait $tuner 2>/dev/null
    stamp "tuner done after $((SECONDS - t0)) s; $(ls "$R"/clblast_xgemm_*.json 2>/dev/null | tr '\n' ' ')"
    grep -E '"device"|best_parameters|best_time' "$R"/clblast_xgemm_2_32.json 2>/dev/null
fi

# 3. CLBlast tuned (imported into the new build's cache) beside our rows on every square >= 1024.
if { [ -s "$R/clblast_xgemm_2_32.json" ] || [ -n "${DEVICE_ARGS:-}" ]; } && left; then
    bench after2 "$C/clviz-bench" /tmp/xdg-new --variants ${VARIANTS2:-gemm-regblock,gemm-double-buffer,clblast} \
        --sizes "$ALL_SIZES" --tune ${NV_PLATFORM:+--clblast-tuning "$R/clblast_xgemm_2_32.json"}
    cp -r /tmp/xdg-new/clviz/clblast "$R/clblast-cache" 2>/dev/null
fi
# 4. SASS of both builds' GEMM and covariance programs: the cached binaries are PTX; ptxas
# assembles them. Counts per program, and the FFMAs whose register reads collide in a bank.
cuda_tools
for build in new old; do
    mkdir -p "$R/sass-$build"
    python3 "$(dirname "$0")/cached_ptx.py" "$R/sass-$build" "/tmp/xdg-$build/clviz/programs" --key-any=-DTM= --key-any=GRAM_F32 --key-any=-DTILE=
    for p in "$R/sass-$build"/*.ptx; do
        [ -e "$p" ] || continue
        [ "$SECONDS" -lt "${SASS_LIMIT_S:-$((LIMIT_S + 30))}" ] || { rm -f "$p"; continue; }
        s=${p%.ptx}
        "$PTXAS" -arch=sm_90 -v "$p" -o "$s.cubin" >"$s.ptxas.txt" 2>&1 && "$CUOBJDUMP" -sass "$s.cubin" >"$s.sass" 2>/dev/null
        rm -f "$s.cubin" "$p"
    done
    for s in "$R/sass-$build"/*.sass; do
        [ -s "$s" ] || continue
        k=$(grep -o 'gemm_regblock\|cov_gram_[a-z0-9_]*' "$s" | head -1)
        printf '%s %s %s total=%s FFMA=%s LDS=%s LDS.128=%s STS=%s LDG=%s BAR=%s BRA=%s %s | %s | %s\n' "$build" \
            "$(basename "${s%.sass}")" "$k" "$(grep -cE '^\s+/\*[0-9a-f]{4}\*/' "$s")" "$(grep -c FFMA "$s")" \
            "$(grep -c 'LDS' "$s")" "$(grep -c 'LDS.128' "$s")" "$(grep -c 'STS' "$s")" "$(grep -c 'LDG' "$s")" \
            "$(grep -c 'BAR' "$s")" "$(grep -c 'BRA' "$s")" \
            "$(python3 "$C/sass_bank_conflicts.py" "$s" "$k" 2>&1)" \
            "$(grep -o 'Used [0-9]* registers[^,]*, [^,]*, [0-9]* bytes smem' "${s%.sass}.ptxas.txt" | tr '\n' ' ')" \
            "$(tr '\n' ' ' <"${s%.sass}.key" | sed 's/.*options=//; s/ source=.*//')"
    done
done | tee "$R/sass_counts.txt"
stamp "SASS counted"
# 5. Both builds once more (CLBlast as tuned in step 2): a second before/after pair.
if left; then
    mkdir -p /tmp/xdg-old/clviz && cp -r /tmp/xdg-new/clviz/clblast /tmp/xdg-old/clviz/ 2>/dev/null
    bench before2 "$C/old/clviz-bench" /tmp/xdg-old --variants $V --sizes "$AB_SIZES" --tune
fi
if left; then
    bench after3 "$C/clviz-bench" /tmp/xdg-new --variants $V --sizes "$AB_SIZES" --tune
fi
# 6. The covariance tests on the GPU (the FP32 kernel is new).
for t in covariance gemm clblast_row; do
    if [ -x "$C/compute_linalg_${t}_test" ] && left; then
        XDG_CACHE_HOME=/tmp/xdg-new timeout 40 "$C/compute_linalg_${t}_test" >"$R/test_$t.txt" 2>&1
        stamp "test $t rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$R/test_$t.txt" | tr '\n' ' ')"
    fi
done

stamp "done"
for f in before1 after1 after2 before2 after3; do
    [ -f "$R/$f.txt" ] && { echo "== $f"; grep -E 'probe|gemm-|clblast|cov' "$R/$f.txt" | cut -c1-130; }
done
