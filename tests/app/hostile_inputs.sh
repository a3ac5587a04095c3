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

# Issue 28: bombs, a socket, messages that named the wrong reason, values a snapshot smuggled in,
# output targets checked only after every frame, recording over an earlier burst.
check 2 "a decompression bomb; refused before decoding" \
    --demo image --image "$regressions/png_idat_inflates_past_header_bomb.png"
check 2 "the JPEG has more than 500 scans" \
    --demo image --image "$regressions/jpeg_progressive_501_scans.jpg"
check 0 "" --demo image --image "$regressions/psd_16bit_rle_valid.psd"
check 0 "" --demo image --image "$regressions/hdr_old_style_rle_valid.hdr"
python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$tmp/sock"
check 2 "it is a socket" --demo image --image "$tmp/sock"
# The path appears once, and a name's control characters reach the terminal escaped.
out=$(timeout 30 "$clviz" --frames 1 --demo image --image "$tmp/missing.png" 2>&1)
if [ "$(grep -o "missing.png" <<<"$out" | wc -l)" -ne 1 ]; then
    printf 'FAIL: --image missing.png names the path more than once:\n%s\n' "$out"
    fails=$((fails + 1))
fi
esc=$(printf '%s/a\033[31mred\nline.png' "$tmp")
cp "$regressions/png_cut_before_iend.png" "$esc"
check 2 "a.x1B.31mred.nline.png" --demo image --image "$esc"
if timeout 30 "$clviz" --frames 1 --demo image --image "$esc" 2>&1 | grep -q $'\033'; then
    echo "FAIL: an ESC in a file name reached the terminal raw"
    fails=$((fails + 1))
fi
check 2 "--n must be between 1 and 67108864, got -5" --demo nbody --n -5
check 2 "out of range" --device 99 --demo nbody
check 2 "no OpenCL platform matches" --platform no-such-platform --demo nbody
# Output targets fail before the first frame (--frames is huge; the 30 s limit would catch it).
check 2 "--layout '/proc/x': cannot write there: " --demo image --layout /proc/x --frames 100000000
check 2 "--screenshot '/proc/x/s.png': cannot write there: No such file or directory" \
    --demo image --screenshot /proc/x/s.png --frames 100000000
# A snapshot's dt is checked against the dt setting's row.
timeout 60 "$clviz" --frames 1 --demo nbody --n 8 --set "save=$tmp/good.clviz" >/dev/null 2>&1
cp "$tmp/good.clviz" "$tmp/dt.clviz"
printf '\xca\xf2\x49\x71' | dd of="$tmp/dt.clviz" bs=1 seek=32 conv=notrunc status=none  # 1e30
check 2 "its dt is 1e\+30; the dt setting accepts 0 < X <= 10" \
    --demo nbody --set "load=$tmp/dt.clviz"
# Two bursts into one folder: the second numbers on, nothing is overwritten.
check 0 "" --demo nbody --n 8 --record "$tmp/rec" --frames 2
check 0 "from frame_000002.png \(the frames already there are kept\)" \
    --demo nbody --n 8 --record "$tmp/rec" --frames 2
if [ "$(ls "$tmp/rec" | wc -l)" -ne 4 ]; then
    echo "FAIL: two recording bursts left $(ls "$tmp/rec" | tr '\n' ' ') (wanted 4 frames)"
    fails=$((fails + 1))
fi
[ "$fails" -eq 0 ] || { echo "$fails case(s) failed"; exit 1; }
echo "all cases passed"
