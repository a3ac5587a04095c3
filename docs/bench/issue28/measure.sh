#!/usr/bin/env bash
# Runs every issue-28 case through one clviz binary and prints a markdown row per case: exit
# status, the message, peak resident memory (GNU time's %M) and wall time.
#   python3 make_cases.py /tmp/issue28 && bash measure.sh /tmp/issue28 path/to/clviz > rows.md
set -u
dir=$1 bin=$2
limit=${LIMIT:-600}
python3 - "$dir/sock" <<'PY'
import os, socket, sys
if not os.path.exists(sys.argv[1]):
    socket.socket(socket.AF_UNIX).bind(sys.argv[1])
PY
# A 64-body snapshot whose dt is 1e30 (the header's dt is not under the checksum).
if [ ! -f "$dir/dt_1e30.clviz" ]; then
    xvfb-run -a "$bin" --demo nbody --n 64 --set "save=$dir/good.clviz" --frames 1 >/dev/null 2>&1
    python3 - "$dir/good.clviz" "$dir/dt_1e30.clviz" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
d[32:36] = struct.pack("<f", 1e30)
open(sys.argv[2], "wb").write(d)
PY
fi
run() {  # case name, then clviz arguments (ONLY=REGEX: only the cases whose name matches)
    local name=$1
    shift
    if [ -n "${ONLY:-}" ] && ! grep -Eq -- "$ONLY" <<<"$name"; then return; fi
    local log
    log=$(mktemp)
    timeout "$limit" xvfb-run -a /usr/bin/time -f "TIME %e %M" "$bin" "$@" >"$log.out" 2>"$log"
    local rc=$?
    # clviz's own status, from GNU time (xvfb-run's can be 5 when its cleanup fails).
    if [ $rc != 124 ] && grep -q '^TIME' "$log"; then
        rc=$(grep -o 'Command exited with non-zero status [0-9]*' "$log" | grep -o '[0-9]*$')
        rc=${rc:-0}
    fi
    local t m msg
    read -r _ t m < <(grep '^TIME' "$log" | tail -1)
    msg=$(grep -v '^TIME\|^Command exited\|OpenGL 4\|OpenCL device\|^clviz: frame\|^xvfb-run' "$log" |
          grep -i 'error\|cannot\|warning\|refus\|corrupt\|NaN\|not' | tail -1 | cut -c1-300 |
          sed 's/|/\\|/g' | cat -v)
    [ -z "$msg" ] && msg=$(tail -1 "$log.out" | cut -c1-200 | sed 's/|/\\|/g' | cat -v)
    [ $rc = 124 ] && msg="(killed after ${limit} s) $msg"
    echo "| $name | $rc | $msg | $(( ${m:-0} / 1024 )) MiB | ${t:-?} s |"
    rm -f "$log" "$log.out"
}
img() { run "$1" --demo image --image "$dir/$2" --frames 1; }
img "PNG 64x64, IDAT inflates to 3 GiB" png_bomb_3gib.png
img "PNG 64x64, IDAT inflates to 1 GiB" png_bomb_1gib.png
img "progressive JPEG 16384x8192, 60,000 AC scans" jpeg_scan_bomb.jpg
img "progressive JPEG 16384x8192, 499 AC scans (at the cap)" jpeg_499_scans.jpg
img "PSD 16-bit RLE 451x300" psd16_rle.psd
img "PSD 16-bit raw 451x300" psd16_raw.psd
img "HDR with a 5,002-character header line" hdr_long_header_line.hdr
img "HDR with old-style RLE" hdr_old_rle.hdr
img "BMP with negative width" bmp_negative_width.bmp
img "PNG missing its last byte" png_missing_last_byte.png
img "Unix socket as --image" sock
img "GIF with LZW code size 13" gif_lzw_code_size_13.gif
img "PNM P1" pnm_p1.pbm
img "PNM P2" pnm_p2.pgm
img "PNM P3" pnm_p3.ppm
img "PNM P4" pnm_p4.pbm
img "PNM P7" pnm_p7.pam
img "--image missing file" no_such_file.png
img "file name with ESC and newline" "$(printf 'name_\033[31mred\033[0m_\nnewline.png')"
run "snapshot with dt = 1e30" --demo nbody --set "load=$dir/dt_1e30.clviz" --frames 3
run "--n -5" --demo nbody --n -5
run "--device 99" --device 99 --demo nbody --frames 1
run "--platform nosuch" --platform nosuch --demo nbody --frames 1
run "--layout /proc/x (60 frames)" --demo image --layout /proc/x --frames 60
run "--screenshot /proc/x/s.png (60 frames)" --demo image --screenshot /proc/x/s.png --frames 60
rm -rf "$dir/rec"
run "--record: first burst (3 frames)" --demo nbody --n 64 --record "$dir/rec" --frames 3
run "--record: second burst, same folder" --demo nbody --n 64 --record "$dir/rec" --frames 3
[ -d "$dir/rec" ] && echo "| frames in the record folder after both bursts | $(ls "$dir/rec" | wc -l) files: $(ls "$dir/rec" | tr '\n' ' ') | | | |"
