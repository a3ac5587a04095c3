#!/usr/bin/env bash
# hostile_inputs.sh CLVIZ REGRESSIONS_DIR: the issue-10 reproductions through the real app. Each
# must end with its message and exit status 2 (a bad --set value), or load (status 0); none may
# hang (each run is killed after 30 s, which fails the case) or read more than its size limit.
# Runs under xvfb-run (the app opens a window).
set -uo pipefail
clviz=$1 regressions=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkfifo "$tmp/pipe.png"
truncate -s 3G "$tmp/sparse.png"  # 3 GiB of holes: refused from its size
fails=0

check() {  # check STATUS REGEX ARGS...
    local want=$1 regex=$2
    shift 2
    local out status
    out=$(timeout 30 "$clviz" --frames 1 "$@" 2>&1)
    status=$?
    if [ "$status" -ne "$want" ] || ! grep -Eq -- "$regex" <<<"$out"; then
        printf 'FAIL: %s: status %s (wanted %s), output:\n%s\n' "$*" "$status" "$want" "$out"
        fails=$((fails + 1))
    else
        echo "ok: $* -> $status: $(grep -Eo -- "$regex" <<<"$out" | head -1)"
    fi
}

check 2 "the Radiance HDR data ends in scanline 1 of 1" \
    --demo image --image "$regressions/hdr_rle_scanline_cut_loops_stb.hdr"
check 2 "it is a FIFO" --demo image --image "$tmp/pipe.png"
check 2 "it is a character device" --demo image --image /dev/zero
check 2 "the file is 3221225472 bytes; the limit is" --demo image --image "$tmp/sparse.png"
check 2 "its BMP pixel data needs" --demo image --image "$regressions/bmp_cut_rows_missing.bmp"
check 2 "without its end-of-image marker" --demo image --image "$regressions/jpeg_cut_in_scan.jpg"
check 0 "" --demo image --image "$regressions/bmp_top_down_valid.bmp"
check 2 "is corrupt: body 1 of 2 has a position or velocity of nan" \
    --demo nbody --set "load=$regressions/snapshot_nan_body.clviz"
check 2 "is the particle data little-endian" \
    --demo nbody --set "load=$regressions/tipsy_big_endian_header_little_endian_data.tipsy"
check 2 "it is a FIFO" --demo nbody --set "load=$tmp/pipe.png"
[ "$fails" -eq 0 ] || { echo "$fails case(s) failed"; exit 1; }
echo "all cases passed"
