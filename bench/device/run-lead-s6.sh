#!/usr/bin/env bash
# The lead's closing call of session 6 on the lent GPU, from the repository root, carry $C:
#   fence   the tree's moments climb with and without device-scope fences (kv/old: the kernels of
#           a9fdfa4, before kernels/common/device_fence.clh): compute_nbody_tree_test's rebuild
#           test with each, then tree-steps (STEPS steps of the 16M Plummer sphere: list length,
#           iterations per group, walk time per step) with each
#   tests   the GPU runs of the tree, covariance, GEMM and reduction tests (the new defaults)
#   tree    clviz-bench's tree rows at 1M and 16M, theta 0.5 / 0.55 / 0.6, for every build in
#           TREE_BUILDS (bin/NAME/clviz-bench), ROUNDS rounds in turn; then the new build at 16M,
#           theta 0.55, with --theta-far 0.6
#   linalg  gemm-tf32 at 4096 and 8192 and cov-tensor at the covariance shape, old and new, in turn
# Everything lands in $OUT/lead-s6.tgz, rewritten after each step.
set -uo pipefail
C=${C:-.carry-lead6}
source "$C/gpu-env.sh" "$C"
results_dir lead-s6
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 500 >"$R/smi.csv" 2>&1 &
smi=$!
for step in "$@"; do
    t0=$SECONDS
    case $step in
    fence)
        for k in old new; do
            kd=(); [ "$k" = old ] && kd=(CLVIZ_KERNEL_DIR="$C/kv/old")
            echo "== rebuild test, $k kernels" | tee -a "$R/fence.txt"
            env "${kd[@]}" XDG_CACHE_HOME=/tmp/xdg-t-$k timeout 120 "$C/tests/compute_nbody_tree_test" \
                --gtest_filter='*Rebuild*' --gtest_repeat=${REPEAT:-5} 2>&1 | grep -E "OK|FAILED|Failure|PASSED|Expected|Which|actual" |
                head -40 | tee -a "$R/fence.txt"
            echo "== tree-steps, $k kernels" | tee -a "$R/fence.txt"
            env "${kd[@]}" XDG_CACHE_HOME=/tmp/xdg-s-$k timeout 90 "$C/tree-steps" ${STEPS_N:-16777216} \
                ${STEPS:-18} 2>&1 | grep -v '^$' | tee -a "$R/fence.txt"
        done
        ;;
    tests)
        for t in compute_nbody_tree_test compute_linalg_covariance_test compute_linalg_gemm_test \
            compute_linalg_reduction_test; do
            XDG_CACHE_HOME=/tmp/xdg-tests timeout ${TEST_S:-150} "$C/tests/$t" >"$R/test-$t.txt" 2>&1
            echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED)|tests ran' "$R/test-$t.txt" | tr '\n' ' ')" |
                tee -a "$R/tests.txt"
        done
        ;;
    tree)
        for round in ${ROUNDS:-1 2}; do
            for b in ${TREE_BUILDS:-old new}; do
                [ "$b" = b56 ] && [ "$round" != 1 ] && continue  # the build once
                XDG_CACHE_HOME=/tmp/xdg-ab-$b timeout 200 "$C/bin/$b/clviz-bench" --suite nbody \
                    --device-type gpu --no-cpu-baseline --variants tree --sizes 1m,16m \
                    --theta 0.5,0.55,0.6 --json "$R/tree-$b-$round.json" >"$R/tree-$b-$round.txt" \
                    2>"$R/tree-$b-$round.err"
                echo "$b round $round rc=$?"; cat "$R/tree-$b-$round.txt"
            done
        done
        XDG_CACHE_HOME=/tmp/xdg-ab-new timeout 120 "$C/bin/new/clviz-bench" --suite nbody \
            --device-type gpu --no-cpu-baseline --variants tree --sizes 16m --theta 0.55 \
            --theta-far 0.6 --json "$R/tree-new-far60.json" >"$R/tree-new-far60.txt" 2>&1
        cat "$R/tree-new-far60.txt"
        ;;
    linalg)
        for round in 1 2; do
            for b in old new; do
                XDG_CACHE_HOME=/tmp/xdg-la-$b timeout 150 "$C/bin/$b/clviz-bench" --suite gemm \
                    --device-type gpu --variants gemm-tf32,cov-tensor --sizes 1024,4096,8192 \
                    --json "$R/linalg-$b-$round.json" >"$R/linalg-$b-$round.txt" 2>"$R/linalg-$b-$round.err"
                echo "$b round $round rc=$?"; grep -E "tf32|cov|probe" "$R/linalg-$b-$round.txt"
            done
        done
        ;;
    esac
    echo "$step $((SECONDS - t0)) s" | tee -a "$R/times.txt"
    tar czf "${OUT:-/tmp}/lead-s6.tgz" -C "$R" .
done
kill $smi 2>/dev/null
