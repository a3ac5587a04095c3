#!/bin/bash
# The linear-algebra lab on the lent NVIDIA GPU (bench/device/README.md): its tests, the gemm and
# reduce suites (with tuned rows), CLBlast's own tuner and its tuned rows, and SASS instruction
# counts of the kernels the runs built. Run from a carry folder holding clviz-bench, the
# compute_linalg_*_test binaries, clblast_tuner_xgemm and lib/ (libclblast.so.1 and the Open MPI
# libraries clviz-bench links); everything lands in $OUT/linalg-raw.tar.gz (+ the two tables).
set -u
C=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$C/lib
R=/tmp/linalg-raw
mkdir -p $R /tmp/xdg
export XDG_CACHE_HOME=/tmp/xdg  # the program binaries (NVIDIA: PTX) for the SASS counts
echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv; } | tee $R/card.txt
step="${1:-all}"
# CLBlast's tuners take platform 0 unless told: PoCL may be listed before NVIDIA there.
NV_PLATFORM=$(clinfo -l 2>/dev/null | sed -n 's/^Platform #\([0-9]*\):.*NVIDIA.*/\1/p' | head -1)
NV_PLATFORM=${NV_PLATFORM:-0}
echo "NVIDIA platform index: $NV_PLATFORM"
if [ "$step" = all ] || [ "$step" = tests ]; then
    for t in gemm covariance reduction clblast_row; do
        CLVIZ_PROGRAM_CACHE=off timeout 150 $C/compute_linalg_${t}_test >$R/test_$t.txt 2>&1
        echo "test $t: rc=$? $(grep -E 'PASSED|FAILED' $R/test_$t.txt | tr '\n' ' ')"
    done
fi
if [ "$step" = all ] || [ "$step" = bench ]; then
    timeout 240 $C/clviz-bench --suite gemm --tune --json $R/gemm.json --csv $R/gemm.csv >$R/gemm.txt 2>$R/gemm.err
    echo "gemm rc=$?"
    timeout 100 $C/clviz-bench --suite reduce --json $R/reduce.json --csv $R/reduce.csv >$R/reduce.txt 2>$R/reduce.err
    echo "reduce rc=$?"
fi
if [ "$step" = all ] || [ "$step" = clblast ]; then
    (cd $R && timeout ${TUNER_S:-120} $C/clblast_tuner_xgemm -platform $NV_PLATFORM -precision 32 >$R/clblast_tuner.txt 2>&1)
    echo "tuner rc=$?"; ls $R/*.json
    if [ -f $R/clblast_xgemm_1_32.json ]; then
        timeout 60 $C/clviz-bench --suite gemm --variants clblast --sizes 1024,2048,4096,8192 \
            --clblast-tuning $R/clblast_xgemm_1_32.json --json $R/gemm_clblast_tuned.json \
            >$R/gemm_clblast_tuned.txt 2>&1
        echo "clblast tuned rc=$?"
    fi
fi
if [ "$step" = clblast2 ]; then
    # CLBlast tuned on the GPU (a quarter of the tuner's space) beside the default rows.
    (cd $R && timeout ${TUNER_S:-100} $C/clblast_tuner_xgemm -platform $NV_PLATFORM -precision 32 -fraction 4 >$R/clblast_tuner.txt 2>&1)
    echo "tuner rc=$?"; grep -E 'device"|best_parameters' $R/clblast_xgemm_1_32.json
    timeout 40 $C/clviz-bench --suite gemm --variants clblast,cov-tiled,cov-tensor --sizes 1024,4096,8192 \
        --json $R/clblast_default.json >$R/clblast_default.txt 2>&1
    timeout 60 $C/clviz-bench --suite gemm --variants clblast --sizes 1024,4096,8192 \
        --clblast-tuning $R/clblast_xgemm_1_32.json --json $R/clblast_tuned.json >$R/clblast_tuned.txt 2>&1
    echo "bench rc=$?"
    cat $R/clblast_default.txt $R/clblast_tuned.txt | cut -c1-200
    cd /tmp && tar czf $OUT/linalg-raw.tar.gz linalg-raw
    exit 0
fi
if [ "$step" = round2 ]; then
    # The covariance rows, then CLBlast's tuner on a quarter of its space (-fraction 4), then
    # CLBlast tuned beside our default and tuned rows on the square sizes >= 1024, one run.
    timeout 60 $C/clviz-bench --suite gemm --variants cov-tiled,cov-tensor --json $R/cov.json >$R/cov.txt 2>&1
    echo "cov rc=$?"
    (cd $R && timeout ${TUNER_S:-150} $C/clblast_tuner_xgemm -platform $NV_PLATFORM -precision 32 -fraction 4 >$R/clblast_tuner.txt 2>&1)
    echo "tuner rc=$?"; ls $R/*.json
    tuning=""
    [ -f $R/clblast_xgemm_1_32.json ] && tuning="--clblast-tuning $R/clblast_xgemm_1_32.json"
    timeout 200 $C/clviz-bench --suite gemm --variants gemm-regblock,gemm-double-buffer,gemm-tf32,clblast \
        --sizes 1024,2048,4096,8192 --tune $tuning --json $R/gemm_vs_clblast_tuned.json \
        >$R/gemm_vs_clblast_tuned.txt 2>$R/gemm_vs_clblast_tuned.err
    echo "vs tuned rc=$?"
    cp $R/cov.txt $R/gemm_vs_clblast_tuned.txt $OUT/
fi
if [ "$step" = tune29 ]; then
    # Kernel tuning A/B in one session: the new kernels' tests on the GPU, then the FP32/TF32 GEMM
    # rows (4096, 8192, with --tune) and the covariance rows with the old kernels ($C/kernels-before,
    # e.g. `git archive <commit> kernels | tar x -C kernels-before --strip-components=1`) and with
    # the build's own, twice in turn so a drift of the card shows.
    for t in gemm covariance; do
        CLVIZ_PROGRAM_CACHE=off timeout 90 $C/compute_linalg_${t}_test >$R/test_$t.txt 2>&1
        echo "test $t: rc=$? $(grep -E 'PASSED|FAILED' $R/test_$t.txt | tr '\n' ' ')"
    done
    V=gemm-regblock,gemm-double-buffer,gemm-tf32,cov-tiled,cov-tensor
    for round in 1 2; do
        [ $round = 2 ] && [ $SECONDS -gt ${ROUND2_BEFORE_S:-280} ] && { echo "round 2 skipped (time)"; break; }
        for k in before after; do
            if [ $k = before ]; then export CLVIZ_KERNEL_DIR=$C/kernels-before; else unset CLVIZ_KERNEL_DIR; fi
            timeout 120 $C/clviz-bench --suite gemm --variants $V --sizes 4096,8192 \
                --tune --json $R/$k$round.json >$R/$k$round.txt 2>$R/$k$round.err
            echo "$k round $round rc=$?"
            [ $round = 1 ] && cp $R/$k$round.txt $OUT/
        done
    done
    unset CLVIZ_KERNEL_DIR
fi
# SASS counts: the cached program binaries are PTX; ptxas assembles them for this GPU.
PTXAS=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1)
CUOBJDUMP=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
mkdir -p $R/sass
python3 "$(dirname "$0")/cached_ptx.py" "$R/sass" /tmp/xdg/clviz/programs
SM=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
for p in $R/sass/*.ptx; do
    s=${p%.ptx}
    $PTXAS -arch=sm_${SM:-90} -v $p -o $s.cubin >$s.ptxas.txt 2>&1 && $CUOBJDUMP -sass $s.cubin >$s.sass 2>/dev/null
    rm -f $s.cubin
done
for s in $R/sass/*.sass; do
    [ -s "$s" ] || continue
    k=$(grep -o 'gemm_[a-z0-9]*\|cov_[a-z0-9_]*\|reduce_[a-z]*' ${s%.sass}.key | head -1)
    printf '%s %s total=%s HMMA=%s IMMA=%s FFMA=%s LDS=%s LDG=%s BAR=%s STL=%s | %s\n' "$(basename ${s%.sass})" "$k" \
        "$(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $s)" "$(grep -c HMMA $s)" "$(grep -c IMMA $s)" "$(grep -c FFMA $s)" \
        "$(grep -c 'LDS' $s)" "$(grep -c 'LDG' $s)" "$(grep -c 'BAR' $s)" "$(grep -c 'STL' $s)" \
        "$(tr '\n' ' ' <${s%.sass}.key | cut -c1-160)"
done | tee $R/sass_counts.txt
rm -f $R/sass/*.ptx
cd /tmp && tar czf $OUT/linalg-raw.tar.gz linalg-raw
cp $R/gemm.txt $R/reduce.txt $OUT/ 2>/dev/null
cat $R/gemm.txt $R/reduce.txt $R/gemm_clblast_tuned.txt $R/cov.txt $R/gemm_vs_clblast_tuned.txt \
    $R/before?.txt $R/after?.txt 2>/dev/null | cut -c1-230
