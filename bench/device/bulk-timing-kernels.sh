#!/usr/bin/env bash
# Timing-only kernel folders for tf32-bulk-29's first device call: kernels/gemm_tf32_bulk.cl
# built in place of gemm_tf32_staged.cl, so that a binary without the bulk path (main's) times it
# through CLVIZ_KERNEL_DIR. It reads A and B as if they were packed (the same number of floats),
# so its results are wrong and only its time means anything. Stages: as many as 48 KiB holds
# beside the barriers, 2 to 6 (the host's STAGES is for the padded staged kernel).
# Usage: bench/device/bulk-timing-kernels.sh DEST   (writes DEST/kernels-bulk, -bnomma)
#   bulk    the bulk pipeline as committed (work-group barrier before each refill)
#   (call 1's bempty, a per-stage barrier of warp arrivals instead, was -DEMPTY_BARRIERS of the
#   kernel at commit 1cb155d, since removed: slower)
#   bnomma  bulk with the MMAs replaced by a few integer ops on the fragments: copies, barriers
#           and fragment loads only (the copy side's own rate, as tc-29b's "no MMA")
set -euo pipefail
dest=${1:?usage: bulk-timing-kernels.sh DEST}
root=$(cd "$(dirname "$0")/../.." && pwd)
head='// TIMING ONLY (bench/device/bulk-timing-kernels.sh): the bulk kernel under the staged name.
#undef STAGES
#define SB_ (((BM) + (BN)) * (BK) * 4)
#if 6 * SB_ + 128 <= 49152
#define STAGES 6
#elif 5 * SB_ + 128 <= 49152
#define STAGES 5
#elif 4 * SB_ + 128 <= 49152
#define STAGES 4
#elif 3 * SB_ + 128 <= 49152
#define STAGES 3
#else
#define STAGES 2
#endif
#define gemm_tf32_bulk gemm_tf32_staged'
nomma='inline void consume(float acc[MT][NTL][4], uint af[MT][4], uint bf[NTL][2]) {
    for (int a = 0; a < MT; ++a) acc[a][0][0] += as_float((af[a][0] ^ af[a][1] ^ af[a][2] ^ af[a][3]) & 0x3fffffffu);
    for (int b = 0; b < NTL; ++b) acc[0][b][1] += as_float((bf[b][0] ^ bf[b][1]) & 0x3fffffffu);
}'
for kv in bulk bnomma; do
    d=$dest/kernels-$kv
    rm -rf "$d"
    cp -r "$root/kernels" "$d"
    {
        echo "$head"
        if [ $kv = bnomma ]; then
            awk -v c="$nomma" '/^__kernel/ && !done {print c; done=1} {print}' "$root/kernels/gemm_tf32_bulk.cl" |
                sed 's/multiply(acc, af, bf);/consume(acc, af, bf);/'
        else
            cat "$root/kernels/gemm_tf32_bulk.cl"
        fi
    } >"$d/gemm_tf32_staged.cl"
done
