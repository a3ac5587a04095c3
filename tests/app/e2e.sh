#!/usr/bin/env bash
# End-to-end cases of the real app, run by CTest under xvfb-run (llvmpipe + PoCL here).
#   e2e.sh CASE   with CLVIZ, CLVIZ_PROBE, PNG_CHECK and E2E_DIR set by tests/app/CMakeLists.txt.
set -euo pipefail
case_name=$1
dir=$E2E_DIR/$case_name
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
export CLVIZ_PROBE_TRACE=$dir/trace.txt

fail() {
    echo "e2e $case_name: FAIL: $*" >&2
    if [ -f trace.txt ]; then
        echo "--- trace ---" >&2
        cat trace.txt >&2
    fi
    exit 1
}
# expect STATUS REGEX COMMAND...: the exit status and a match in the combined output.
expect() {
    local want=$1 regex=$2
    shift 2
    local got=0
    "$@" >out.txt 2>&1 || got=$?
    cat out.txt
    [ "$got" -eq "$want" ] || fail "exit status $got, wanted $want: $*"
    grep -Eq -- "$regex" out.txt || fail "output does not match /$regex/"
}
# in_order PATTERN...: the trace has lines matching the patterns in this order.
in_order() {
    local line=0 n
    for p in "$@"; do
        n=$(tail -n +$((line + 1)) trace.txt | grep -nEm1 -- "$p" | cut -d: -f1) ||
            fail "trace lacks /$p/ after line $line"
        line=$((line + n))
    done
}

# Where the app drew its GUI windows (--layout / app.layout): the checks below find panels there,
# not at coordinates that depend on the machine (a long device name once moved the overlay).
# window FILE NAME: "x y w h" of that window, or fail.
window() {
    awk -F'\t' -v n="$2" '$1 == n { print $2, $3, $4, $5; found = 1 } END { exit !found }' "$1" ||
        fail "$1 has no window '$2'"
}
# region FILE NAME: the same as png_check's x,y,w,h.
region() { window "$1" "$2" | tr ' ' ','; }
# overlap FILE A B: succeeds when windows A and B share pixels.
overlap() {
    read -r ax ay aw ah < <(window "$1" "$2")
    read -r bx by bw bh < <(window "$1" "$3")
    [ $((ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah)) -eq 1 ]
}
# compact_overlay FILE FRAMEBUFFER_WIDTH: the overlay hugs the top-right corner and keeps the
# width of its frame-time plot (about 290 px at 100%), whatever the device is called.
compact_overlay() {
    read -r x y w h < <(window "$1" "##overlay")
    [ "$w" -le 320 ] || fail "the overlay is $w px wide (a compact one is at most 320)"
    [ $((x + w)) -ge $(($2 - 20)) ] && [ "$y" -le 40 ] ||
        fail "the overlay is not at the top right: x=$x y=$y w=$w"
    ! overlap "$1" "##overlay" Timings || fail "the overlay covers the Timings panel"
}

# panels_apart FILE WIDTH HEIGHT [EXTRA...]: every window lies inside the WIDTHxHEIGHT framebuffer
# and no two of the open panels, the overlay, the status lines and the EXTRA windows (the notices)
# share a pixel; the menu bar spans the top and is left out (the work area starts below it), as
# are the items named inside panels (they may lie scrolled out of view).
panels_apart() {
    local file=$1 width=$2 height=$3
    shift 3
    local names=() name x y w h state i j
    while IFS=$'\t' read -r name x y w h state; do
        [ "$state" = item ] && continue
        [ $((x >= 0 && y >= 0 && x + w <= width && y + h <= height)) -eq 1 ] ||
            fail "'$name' ($x,$y ${w}x$h) is not inside the ${width}x$height window"
        [ "$name" = "##MainMenuBar" ] && continue
        names+=("$name")
    done <"$file"
    for extra in "$@"; do window "$file" "$extra" >/dev/null; done
    for ((i = 0; i < ${#names[@]}; ++i)); do
        for ((j = i + 1; j < ${#names[@]}; ++j)); do
            ! overlap "$file" "${names[i]}" "${names[j]}" ||
                fail "'${names[i]}' and '${names[j]}' overlap in ${width}x$height: $(cat "$file")"
        done
    done
}

case $case_name in
devices_split)
    # --devices all on two PoCL devices: the bodies split over both, every body drawn from the
    # first device's buffer (the screenshot has particles), one timing line per device whose
    # slices cover all N bodies; pairs and the tree split as well, and pairs runs on one device.
    export POCL_DEVICES="pthread pthread"
    expect 0 "also split onto OpenCL device 0.1" "$CLVIZ" --devices all --n 2053 --frames 40 \
        --set variant=tiled --screenshot shot.png --layout layout.txt \
        --set-at 30:app.check-reference=on
    # The reference check reads every slice from its owner (device 0 alone has stale ones).
    grep -q "N-body vs CPU reference: OK" out.txt || fail "the split failed the reference check"
    [ "$(grep -c '^split: ' out.txt)" -eq 2 ] || fail "not two split lines"
    total=$(sed -nE 's/^split: .*bodies [0-9]+ \+ ([0-9]+),.*/\1/p' out.txt | awk '{s += $1} END {print s}')
    [ "$total" -eq 2053 ] || fail "the slices cover $total bodies, not 2053"
    "$PNG_CHECK" shot.png --width 1280 --height 720 --min-nonbackground-fraction 0.01 ||
        fail "screenshot check"
    grep -q "^Timings" layout.txt || fail "no Timings panel"
    # The per-device table keeps every panel inside the 1280x720 window.
    awk -F'\t' '$2 + $4 > 1280 || $3 + $5 > 720 {print "outside: " $0; bad = 1} END {exit bad}' \
        layout.txt || fail "a panel lies outside the window"
    # The OpenCL panel's choice (the N-body setting devices) restarts the system on the new set.
    expect 0 "now split over 2 device" "$CLVIZ" --n 1031 --frames 20 --set app.devices=on \
        --set-at 5:devices=0.0,0.1
    [ "$(grep -c '^split: ' out.txt)" -eq 2 ] || fail "no split after devices"
    # The restart keeps the other settings: the slices still cover --n's 1031 bodies.
    total=$(sed -nE 's/^split: .*bodies [0-9]+ \+ ([0-9]+),.*/\1/p' out.txt | awk '{s += $1} END {print s}')
    [ "$total" -eq 1031 ] || fail "after the switch the slices cover $total bodies, not 1031"
    # A set with a missing device is refused mid-run with the reason (a refused --set-at: exit 2).
    expect 2 "cannot split the bodies over 0.0,0.7: .*no device 0.7" "$CLVIZ" --n 1031 \
        --frames 20 --set-at 5:devices=0.0,0.7
    # Pairs and the tree split too (each device adds its share's part to every acceleration),
    # chosen at start or mid-run; the split pairs pass the reference check.
    expect 0 "N-body vs CPU reference: OK" "$CLVIZ" --devices all --n 1031 --frames 20 \
        --set variant=pairs --set-at 10:app.check-reference=on
    [ "$(grep -c '^split: ' out.txt)" -eq 2 ] || fail "pairs: not two split lines"
    expect 0 "also split onto OpenCL device 0.1" "$CLVIZ" --devices all --n 512 --frames 10 \
        --set-at 2:variant=tree --layout layout.txt
    [ "$(grep -c '^split: ' out.txt)" -eq 2 ] || fail "tree: not two split lines"
    # Two identical PoCL devices: each moves every body (the choice in the exit log).
    grep -q '^tree integration: replicated: 2 identical devices' out.txt ||
        fail "tree: the integration was not replicated on two identical devices"
    grep -qx 'tree build: whole' out.txt || fail "tree: the build was not the whole tree's by default"
    # The table's note on the summed parts wraps inside the panel.
    awk -F'\t' '$2 + $4 > 1280 || $3 + $5 > 720 {print "outside: " $0; bad = 1} END {exit bad}' \
        layout.txt || fail "tree: a panel lies outside the window"
    # The split build (the setting tree-build, mid-run): each device builds its own domain (the
    # forces one device's: compute.nbody.tree_split_build_test and multi_device_test), and the
    # tree passes the reference check (exact at theta 0 on the sample).
    expect 0 "N-body vs CPU reference: OK; the tree at theta 0" "$CLVIZ" --devices all --n 1031 \
        --frames 20 --set variant=tree --set-at 5:tree-build=split \
        --set-at 10:app.check-reference=on
    grep -qx 'tree build: split' out.txt || fail "tree-build=split: the build was not split"
    # On one device the pairs variant runs, and matches the CPU reference.
    expect 0 "N-body vs CPU reference: OK" "$CLVIZ" --n 1031 --frames 20 --set variant=pairs \
        --set-at 10:app.check-reference=on
    expect 2 "no device 0.7" "$CLVIZ" --devices 0.0,0.7 --frames 1  # as a bad --device
    ;;
window_title)
    # The title carries the frame rate and the demo's main figure (issue 27), brought up to date
    # twice a second: read back from the X server while the N-body demo runs.
    "$CLVIZ" --n 256 --seconds 8 --vsync off >out.txt 2>&1 &
    pid=$!
    title=""
    while kill -0 "$pid" 2>/dev/null; do
        sleep 0.1
        title=$(xwininfo -root -tree | grep -o '"clviz - N-body | [^"]*"' | head -n 1) || true
        [[ "$title" == *GFLOP/s* ]] && break
    done
    wait "$pid" || fail "clviz exited with status $?"
    echo "title: $title"
    [[ "$title" =~ ^\"clviz\ -\ N-body\ \|\ [0-9]+\.[0-9]\ FPS\ \|\ N\ =\ 256,\ [0-9.]+\ ?[kMG]?\ interactions/s,\ [0-9.]+\ GFLOP/s\ fp32\"$ ]] ||
        fail "the title does not name the frame rate and the rate: $title"
    ;;
default_screenshot)
    # The default scene (N-body; 2048 bodies keep PoCL at a few seconds) for 60 frames: a
    # 1280x720 PNG that is not blank, with the menu bar and the frame-time overlay drawn where
    # the app says they are.
    start=$(date +%s%N)
    expect 0 "screenshot written" "$CLVIZ" --frames 60 --n 2048 --screenshot shot.png \
        --layout layout.txt
    echo "60 frames (with start-up) in $((($(date +%s%N) - start) / 1000000)) ms"
    cat layout.txt
    "$PNG_CHECK" shot.png --width 1280 --height 720 \
        --min-nonbackground-fraction 0.01 \
        --region "$(region layout.txt "##MainMenuBar")" --min-nonbackground-fraction 0.05 \
        --region "$(region layout.txt "##overlay")" --min-nonbackground-fraction 0.10 ||
        fail "screenshot check"
    compact_overlay layout.txt 1280
    ;;
long_device_name)
    # A device name as long as PoCL makes on some CPUs, and a very long one: the overlay keeps
    # its size and place, and the Timings panel stays clear of it.
    for name in "pthread-skylake-avx512-Intel(R) Xeon(R) Processor @ 2.80GHz" \
        "$(printf 'very-long-device-name-%.0s' 1 2 3 4 5 6 7 8)end"; do
        expect 0 "screenshot written" "$CLVIZ" --frames 3 --n 256 --screenshot shot.png \
            --layout layout.txt --set "app.device-name=$name"
        cat layout.txt
        compact_overlay layout.txt 1280
        "$PNG_CHECK" shot.png --region "$(region layout.txt "##overlay")" \
            --min-nonbackground-fraction 0.10 || fail "overlay check"
    done
    # A short name changes nothing either.
    expect 0 "screenshot written" "$CLVIZ" --frames 3 --n 256 --screenshot shot.png \
        --layout layout.txt --set app.device-name=cpu
    compact_overlay layout.txt 1280
    ;;
panel_layout)
    # Issue 10: at 800x500 the panels piled on top of each other, the image lab's status line
    # covered the collapsed Timings header, and the save notice covered Timings, cut off at the
    # window's edge. Both demos at a small and the default size: every window inside the
    # framebuffer, no two panels (overlay, status line and notice included) overlapping, also
    # while the notice after a save shows (N-body with all four of its panels).
    for size in 800x500 1280x720; do
        w=${size%x*} h=${size#*x}
        expect 0 "screenshot written" "$CLVIZ" --width "$w" --height "$h" --frames 12 --n 1024 \
            --set diagnostics-panel=on --set-at 8:save=snap-$size.clviz --screenshot nbody-$size.png --layout nbody-$size.txt
        cat nbody-$size.txt
        panels_apart nbody-$size.txt "$w" "$h" "##notices" Simulation Timings "##nbody-status"
        expect 0 "screenshot written" "$CLVIZ" --demo image --width "$w" --height "$h" \
            --frames 12 --set-at 8:save=lab-$size.png --screenshot image-$size.png \
            --layout image-$size.txt
        cat image-$size.txt
        panels_apart image-$size.txt "$w" "$h" "##notices" Image Filters Timings \
            "##image timing overlay"
        "$PNG_CHECK" image-$size.png --width "$w" --height "$h" \
            --region "$(region image-$size.txt "##notices")" --min-nonbackground-fraction 0.05 ||
            fail "the notice is not drawn where the layout says"
    done
    ;;
spectral_lab)
    # Issue 30: the spectral lab headless and on screen. A generated cube (big-endian BIL i16)
    # through --cube; --save writes the m components as an ENVI float32 cube and the eigenvalues
    # (every band, descending); the lab's images are drawn; bad cubes exit 2 with the reason.
    "$MAKE_CUBE" c.hdr --size 61x47x23 --type i16 --interleave bil --byte-order 1 --seed 3 ||
        fail "clviz-make-cube failed"
    expect 0 "saved 5 MNF components" "$CLVIZ" --demo spectral --cube c.hdr --set noise=diff \
        --set components=5 --save out.hdr --frames 1
    grep -qx 'bands = 5' out.hdr || fail "out.hdr does not hold 5 bands"
    grep -qx 'data type = 4' out.hdr || fail "out.hdr is not float32"
    [ "$(stat -c %s out.img)" -eq $((61 * 47 * 5 * 4)) ] || fail "out.img has the wrong size"
    [ "$(head -1 out.eigenvalues.csv)" = "index,eigenvalue" ] || fail "no CSV header"
    [ "$(($(wc -l <out.eigenvalues.csv) - 1))" -eq 23 ] || fail "the CSV lacks eigenvalues"
    tail -n +2 out.eigenvalues.csv | cut -d, -f2 | sort -g -r -c || fail "eigenvalues not descending"
    expect 0 "screenshot written" "$CLVIZ" --demo spectral --cube c.hdr --set view=mnf \
        --set keep=3 --set noise-rect=5,5,40,30 --frames 8 --screenshot shot.png --layout layout.txt
    cat layout.txt
    for panel in Spectral Images Eigenvalues Spectrum; do
        grep -q "^$panel"$'\t' layout.txt || fail "no '$panel' window"
    done
    "$PNG_CHECK" shot.png --region "$(region layout.txt Images)" --min-nonbackground-fraction 0.2 ||
        fail "the images are not drawn"
    # The plot makes the window tall (without an MNF it holds one line) and puts lines in it.
    read -r _ _ _ eigen_h < <(window layout.txt Eigenvalues)
    [ "$eigen_h" -ge 170 ] || fail "the Eigenvalues window has no plot (height $eigen_h)"
    "$PNG_CHECK" shot.png --region "$(region layout.txt Eigenvalues)" --min-nonbackground-fraction 0.05 ||
        fail "the eigenvalue plot is not drawn"
    # The Kernels menu's reference check: MNF of a crop on the device against the double reference.
    expect 0 "spectral lab vs CPU reference \(61 x 47 x 23 crop, noise=median3\): OK" "$CLVIZ" \
        --demo spectral --cube c.hdr --set noise=median3 --frames 4 --set-at 2:app.check-reference=on
    expect 2 "missing.hdr': No such file" "$CLVIZ" --demo spectral --cube missing.hdr --frames 1
    cp c.hdr orphan.hdr
    expect 2 "no data file beside it" "$CLVIZ" --demo spectral --cube orphan.hdr --frames 1
    head -c 1000 c.img >cut.img && cp c.hdr cut.hdr
    expect 2 "data is truncated" "$CLVIZ" --demo spectral --cube cut.hdr --frames 1
    expect 2 "the rectangle is 2 x 2" "$CLVIZ" --demo spectral --cube c.hdr \
        --set noise-rect=0,0,2,2 --set noise=mean3 --save bad.hdr --frames 1
    ;;
panel_layout_scaled)
    # Issue 27: at GUI scale 200-300% Simulation covered the overlay, Timings covered Simulation
    # and ran past the right edge; the status line's text was cut ("1.95 G/"). Both demos at
    # 200% (1280x720) and 300% (1920x1080): every window inside, none overlapping, and the status
    # line's text inside its box. Then with the app's own Kernels and OpenCL devices windows open,
    # which opened on top of the demos' panels: every window still apart.
    for setup in "2 1280 720" "3 1920 1080" "1 800 500"; do
        read -r scale w h <<<"$setup"
        expect 0 "screenshot written" "$CLVIZ" --width "$w" --height "$h" --frames 12 --n 1024 \
            --set app.gui-scale="$scale" --screenshot nbody-$scale.png --layout nbody-$scale.txt
        cat nbody-$scale.txt
        panels_apart nbody-$scale.txt "$w" "$h" Simulation "##nbody-status"
        read -r _ sx sy sw sh _ < <(grep -P '^##nbody-status\t' nbody-$scale.txt)
        read -r _ tx ty tw th _ < <(grep -P '^##nbody-status/text\t' nbody-$scale.txt) ||
            fail "the status line's text is not in the layout"
        [ $((tx >= sx && ty >= sy && tx + tw <= sx + sw && ty + th <= sy + sh)) -eq 1 ] ||
            fail "status text ($tx,$ty ${tw}x$th) is cut by its box ($sx,$sy ${sw}x$sh) at scale $scale"
        expect 0 "screenshot written" "$CLVIZ" --demo image --width "$w" --height "$h" --frames 12 \
            --set app.gui-scale="$scale" --screenshot image-$scale.png --layout image-$scale.txt
        cat image-$scale.txt
        panels_apart image-$scale.txt "$w" "$h" Image Filters
        for demo in nbody image; do
            sized=()
            [ $demo = nbody ] && sized=(--n 1024)
            expect 0 "screenshot written" "$CLVIZ" --demo $demo "${sized[@]}" --width "$w" \
                --height "$h" --frames 12 --set app.gui-scale="$scale" --set app.kernels=on \
                --set app.devices=on --screenshot app-$demo-$scale.png --layout app-$demo-$scale.txt
            cat app-$demo-$scale.txt
            panels_apart app-$demo-$scale.txt "$w" "$h" Kernels "OpenCL devices"
        done
    done
    ;;
histogram_caption)
    # Issue 10: in log scale the histogram captions were drawn over the bars (ImGui's overlay
    # text), white on light-grey luma bars, and could not be read. Each channel's caption, found
    # where the app says it drew it, must stand out from what lies right behind it: every glyph
    # at least 3:1 (WCAG's minimum for large text and UI parts; the old luma caption had 1.3:1).
    expect 0 "screenshot written" "$CLVIZ" --demo image --frames 12 --set histogram-scale=log \
        --screenshot shot.png --layout layout.txt
    cat layout.txt
    checks=()
    for channel in R G B Luma; do
        checks+=(--region "$(region layout.txt "Histogram/$channel caption")" --min-text-contrast 3)
    done
    "$PNG_CHECK" shot.png --width 1280 --height 720 "${checks[@]}" ||
        fail "a histogram caption cannot be read"
    ;;
linalg_lab)
    # The linear-algebra lab at its default 512^3 (what the CI box runs): the ceilings measured at
    # start-up with their units, the variant switched mid-run (--set-at, as the panel does), the
    # new variant's C matching the CPU reference, and a screenshot whose roofline chart (where the
    # layout says it is) holds the ceiling lines and the GEMM points, with the matrices drawn
    # between the panels.
    expect 0 "screenshot written" "$CLVIZ" --demo linalg --frames 14 --set-at 6:variant=gemm-tile \
        --set-at 10:app.check-reference=on --screenshot shot.png --layout layout.txt
    grep -Eq "^linalg lab: ceilings on .*: memory [0-9.]+ [GMT]B/s \(copy, read \+ write\), FP32 [0-9.]+ [GMT]FLOP/s \(FMA loop\)" out.txt ||
        fail "no ceilings line with units"
    grep -Eq "TF32 [0-9.]+ [GMT]FLOP/s \(mma.sync loop\)|no tensor ceiling: " out.txt ||
        fail "the tensor ceiling is neither measured nor said to be absent"
    grep -q "GEMM gemm-tile vs CPU reference: OK" out.txt || fail "the switched variant failed the check"
    grep -q "^linalg lab: variant=gemm-tile 512x512x512 " out.txt || fail "the variant did not switch"
    ! grep -Ev "rel-error=|Frobenius error" out.txt | grep -qi "error" || fail "an error was reported"
    cat layout.txt
    read -r gx gy gw gh < <(window layout.txt GEMM)
    read -r rx ry rw rh < <(window layout.txt Roofline)
    "$PNG_CHECK" shot.png --width 1280 --height 720 \
        --region "$(region layout.txt Roofline/chart)" --min-color-fraction 240,80,80,0.002 \
        --min-color-fraction 90,170,255,0.0005 \
        --region "$((gx + gw + 4)),$((gy + 30)),$((rx - gx - gw - 8)),200" \
        --min-nonbackground-fraction 0.5 ||
        fail "screenshot check"
    # The N-body force pass and the image filters, run before in the same process, are on the
    # roofline from their last runs.
    expect 0 "roofline runs from other demos: .*N-body: N-body tiled.*image lab: " "$CLVIZ" \
        --n 1024 --set variant=tiled --frames 12 --set-at 3:app.demo=image \
        --set-at 6:app.demo=linalg --set-at 6:size=64
    # A bad variant from the command line is refused with the list of variants.
    expect 2 "unknown GEMM variant 'strassen'.*gemm-naive" "$CLVIZ" --demo linalg --frames 2 \
        --set variant=strassen
    ;;
real_demo_switch)
    # The registered demos swap live through the command interface (as the Demo menu does):
    # N-body shuts down, the image lab starts, nothing fails.
    expect 0 "screenshot written" "$CLVIZ" --frames 30 --n 1024 --set-at 15:app.demo=image \
        --screenshot shot.png
    ! grep -q "error" out.txt || fail "an error was reported"
    "$PNG_CHECK" shot.png --width 1280 --height 720 --min-nonbackground-fraction 0.2 ||
        fail "screenshot check"
    ;;
probe_settings)
    # --set before the first step, --set-at before its frame, minimized frames step without
    # drawing, --save after the last frame, the screenshot shows the demo's last colour.
    expect 0 "screenshot written" "$CLVIZ_PROBE" --demo probe --frames 8 --vsync off \
        --set color=1,0,0 --set-at 3:color=0,0,1 \
        --set-at 4:app.minimized=on --set-at 6:app.minimized=off \
        --set-at 2:notify=hello-from-probe --screenshot shot.png --save saved.txt
    in_order "^probe init gl=[34]\.[0-9]+ device=." "^probe set color=1,0,0" \
        "^probe step 0 1280x720 dt_ok=1" "^probe draw 0" "^probe before-present 0" \
        "^probe frame-end 0" "^probe step 1 " \
        "^probe set notify=hello" "^probe step 2 " "^probe set color=0,0,1" "^probe step 3 " \
        "^probe step 4 0x0 dt_ok=1" "^probe step 5 0x0" "^probe step 6 1280x720" \
        "^probe draw 6" "^probe step 7 " "^probe draw 7" "^probe set save=saved.txt" \
        "^probe shutdown"
    ! grep -Eq "^probe draw [45]$" trace.txt || fail "drew while minimized"
    ! grep -Eq "^probe (before-present|frame-end) [45]$" trace.txt || fail "presented while minimized"
    ! grep -q "draw-at-0x0" trace.txt || fail "draw saw a 0x0 framebuffer"
    [ "$(grep -c '^probe step' trace.txt)" -eq 8 ] || fail "not exactly 8 steps"
    grep -q "probe saved" saved.txt || fail "--save did not reach the demo"
    grep -q "hello-from-probe" out.txt || fail "notice not shown on stderr"
    # Blue scene (the --set-at colour) under the GUI.
    "$PNG_CHECK" shot.png --width 1280 --height 720 --region 200,300,400,200 \
        --min-color-fraction 0,0,255,0.9 || fail "screenshot check"
    ;;
probe_switch)
    # A live demo switch through the command interface: the new one started, settings after the
    # switch reach it; the old one is kept as it was (issue 27: switching threw its state away),
    # runs no frames while away, and is shut down when the app ends.
    expect 0 "" "$CLVIZ_PROBE" --demo probe --frames 6 \
        --set-at 3:app.demo=probe2 --set-at 4:color=0,1,0 --screenshot shot.png
    in_order "^probe init" "^probe step 2 " "^probe2 init" \
        "^probe2 step 3 " "^probe2 set color=0,1,0" "^probe2 step 4 " "^probe2 shutdown"
    ! grep -q "^probe step 3 " trace.txt || fail "the demo switched away from kept stepping"
    grep -q "^probe shutdown" trace.txt || fail "the kept demo was not shut down at the end"
    "$PNG_CHECK" shot.png --region 200,300,400,200 --min-color-fraction 0,255,0,0.9 ||
        fail "screenshot check"
    # Back to the first: the same instance (no second init), where it was left.
    rm -f trace.txt
    expect 0 "" "$CLVIZ_PROBE" --demo probe --frames 7 --set-at 3:app.demo=probe2 \
        --set-at 5:app.demo=probe
    [ "$(grep -c '^probe init' trace.txt)" -eq 1 ] || fail "the first demo was started again"
    in_order "^probe step 2 " "^probe2 step 3 " "^probe step 5 "
    ;;
probe_window)
    # Fullscreen on and off, vsync off and the GUI hidden through the command interface: the
    # demo sees the monitor's size while fullscreen, the window's after; without the GUI the
    # screenshot is the demo's picture alone.
    expect 0 "screenshot written to /.*/windowed.png" "$CLVIZ_PROBE" --demo probe --frames 8 \
        --set color=1,1,0 --set-at 2:app.fullscreen=on --set-at 3:app.gui-scale=2 \
        --set-at 1:app.layout=normal.txt --set-at 4:app.layout=full.txt \
        --set-at 4:app.screenshot=full.png --set-at 5:app.gui-scale=auto \
        --set-at 5:app.fullscreen=off --set-at 6:app.vsync=off --set-at 6:app.gui=off \
        --screenshot windowed.png
    in_order "^probe step 1 1280x720" "^probe step 2 1280x800" "^probe step 4 1280x800" \
        "^probe step 5 1280x720"
    # At 200% the overlay is twice as wide as at 100%, and drawn where the app says.
    read -r _ _ w1 _ < <(window normal.txt "##overlay")
    read -r _ _ w2 _ < <(window full.txt "##overlay")
    [ $((w2 * 10)) -ge $((w1 * 19)) ] && [ $((w2 * 10)) -le $((w1 * 21)) ] ||
        fail "overlay $w1 px wide at 100% but $w2 px at 200%"
    "$PNG_CHECK" full.png --width 1280 --height 800 \
        --region "$(region full.txt "##overlay")" --min-nonbackground-fraction 0.3 ||
        fail "fullscreen at 200%"
    "$PNG_CHECK" windowed.png --width 1280 --height 720 --min-color-fraction 255,255,0,1.0 ||
        fail "GUI still visible with app.gui=off"
    ;;
probe_set_error)
    expect 2 "--set bogus=1: probe: unknown setting 'bogus'" \
        "$CLVIZ_PROBE" --demo probe --frames 3 --set bogus=1
    expect 2 "--set-at 1:color=red: .*color expects R,G,B" \
        "$CLVIZ_PROBE" --demo probe --frames 3 --set-at 1:color=red
    expect 2 "unknown app setting 'app.nope'" "$CLVIZ_PROBE" --demo probe --frames 3 \
        --set app.nope=1
    expect 2 "unknown demo 'nope'" "$CLVIZ_PROBE" --demo probe --frames 3 --set app.demo=nope
    expect 2 "unknown --demo 'nope' \(available: .*probe" "$CLVIZ_PROBE" --demo nope --frames 3
    ;;
probe_failures)
    # A demo that throws stops; the app keeps running, shows why, and exits 1 under --frames.
    expect 1 "Probe stopped \(step\): probe step failure requested" \
        "$CLVIZ_PROBE" --demo probe --frames 5 --set fail-step-at=2
    in_order "^probe step 2 " "^probe shutdown"
    ! grep -q "^probe step 3" trace.txt || fail "stepped a stopped demo"
    rm -f trace.txt
    expect 1 "Probe stopped \(gui\): probe gui failure requested" \
        "$CLVIZ_PROBE" --demo probe --frames 4 --set-at 1:fail-gui=on --screenshot shot.png
    [ -s shot.png ] || fail "no screenshot after a GUI failure"
    # An output target that cannot be written is a bad command line, refused before any frame
    # (issue 28: it was refused only after every frame had run).
    rm -f trace.txt
    expect 2 "--screenshot 'no-such-dir/shot.png': cannot write there: No such file or directory" \
        "$CLVIZ_PROBE" --demo probe --frames 2 --screenshot no-such-dir/shot.png
    ! grep -q "^probe step" trace.txt 2>/dev/null || fail "ran frames before refusing --screenshot"
    expect 1 "cannot start Broken probe: probe init failure requested" \
        "$CLVIZ_PROBE" --demo probe-broken --frames 3
    # Asked for by a setting, the same failure is a refused setting (status 2), said once.
    expect 2 "--set-at 1:app.demo=probe-broken: cannot start Broken probe: probe init failure" \
        "$CLVIZ_PROBE" --demo probe --frames 3 --set-at 1:app.demo=probe-broken
    [ "$(grep -c "cannot start Broken probe" out.txt)" -eq 1 ] || fail "the failure said twice"
    ;;
gl_fallback_33)
    # Mesa limited to GL 3.3: the app falls back and says so.
    expect 0 "OpenGL 3\.3 core .*fell back to 3\.3" \
        env MESA_GL_VERSION_OVERRIDE=3.3 "$CLVIZ" --frames 3 --screenshot shot.png
    "$PNG_CHECK" shot.png --region 0,0,1280,16 --min-nonbackground-fraction 0.05 ||
        fail "screenshot check"
    ;;
gl_context_failure)
    expect 1 "cannot create an OpenGL context: clviz needs OpenGL 3\.3" \
        env MESA_GL_VERSION_OVERRIDE=2.1 "$CLVIZ" --frames 3
    ;;
live_reload_edit)
    # Live kernel reload: the image lab runs grayscale from a copy of kernels/; at frame 3 the copy
    # is saved with an edit (every pixel magenta), the app rebuilds it in the background and the
    # result changes. Without the edit the result has no magenta at all.
    cp -r "$KERNELS" k
    sed 's/return (p \& 0xff000000u) | (y \* 0x010101u);/return 0xffff00ffu;/' \
        k/grayscale.cl >magenta.cl
    ! cmp -s magenta.cl k/grayscale.cl || fail "the edit did not apply to grayscale.cl"
    common=(--demo image --set filters=grayscale --kernel-dir k --vsync off)
    expect 0 "" "$CLVIZ" "${common[@]}" --frames 8 --save before.png
    expect 0 "kernels/grayscale\.cl rebuilt" "$CLVIZ" "${common[@]}" --frames 8 \
        --set-at 3:app.test-save-file=magenta.cl,k/grayscale.cl --set-at 3:app.reload-wait=60 \
        --set-at 5:app.kernels=on --screenshot panel.png --save after.png
    "$PNG_CHECK" after.png --tolerance 0 --min-color-fraction 255,0,255,0.999 ||
        fail "the edited kernel did not change the result"
    st=0
    "$PNG_CHECK" before.png --tolerance 0 --min-color-fraction 255,0,255,0.001 || st=$?
    [ "$st" -eq 1 ] || fail "the unedited run already had magenta pixels (png_check: $st)"
    # The correctness guard notices the broken filter.
    cp "$KERNELS/grayscale.cl" k/grayscale.cl
    expect 2 "image lab vs CPU reference: MISMATCH: grayscale" "$CLVIZ" "${common[@]}" \
        --frames 4 --set-at 1:app.test-save-file=magenta.cl,k/grayscale.cl \
        --set-at 1:app.reload-wait=60 --set-at 2:app.check-reference=on
    ;;
live_reload_nbody)
    # N-body keeps its state across a reload: at frame 4 the leapfrog drift is edited out of a
    # copy of nbody_integrate.cl. Before, consecutive frames differ (the bodies move); after, the
    # frame equals the one before the reload (same bodies, same camera: nothing was reset) and
    # stays frozen while the new kernel runs.
    cp -r "$KERNELS" k
    sed 's/p.xyz = mad(v.xyz, (real3)(dt), p.xyz);/p.xyz = p.xyz;/' k/nbody_integrate.cl >frozen.cl
    ! cmp -s frozen.cl k/nbody_integrate.cl || fail "the edit did not apply to nbody_integrate.cl"
    expect 0 "kernels/nbody_integrate\.cl rebuilt" "$CLVIZ" --n 1024 --kernel-dir k --vsync off \
        --frames 8 --set app.gui=off --set colour=mass --set diagnostics=0 --set latency=0 \
        --set steps=20 \
        --set-at 2:app.screenshot=f2.png --set-at 3:app.screenshot=f3.png \
        --set-at 4:app.test-save-file=frozen.cl,k/nbody_integrate.cl \
        --set-at 4:app.reload-wait=60 --set-at 4:app.screenshot=f4.png \
        --set-at 7:app.screenshot=f7.png
    ! cmp -s f2.png f3.png || fail "the bodies did not move before the edit"
    cmp -s f3.png f4.png || fail "the reload changed the scene (state or camera reset?)"
    cmp -s f4.png f7.png || fail "the bodies still move: the old kernel runs"
    # A bad directory at run time is refused and the sources in use stay.
    expect 2 "cannot watch /nonexistent-kernels: not a directory" "$CLVIZ" --n 64 --frames 3 \
        --kernel-dir k --set-at 1:app.kernel-dir=/nonexistent-kernels
    ;;
live_reload_syntax_error)
    # A syntax error in an edited kernel: the app keeps running on the last good build (the
    # magenta edit), reports the build log with the file's line, and exits 0.
    cp -r "$KERNELS" k
    sed 's/return (p \& 0xff000000u) | (y \* 0x010101u);/return 0xffff00ffu;/' \
        k/grayscale.cl >magenta.cl
    sed 's/const uint4 q = ((const __global uint4\*)src)\[i\];/const uint4 q = src[i] +;/' \
        k/grayscale.cl >broken.cl
    ! cmp -s broken.cl k/grayscale.cl || fail "the syntax error did not go into grayscale.cl"
    line=$(grep -n 'src\[i\] +;' broken.cl | cut -d: -f1)
    expect 0 "last good build of kernels/grayscale\.cl keeps running" "$CLVIZ" --demo image \
        --set filters=grayscale --kernel-dir k --vsync off --frames 10 \
        --set-at 2:app.test-save-file=magenta.cl,k/grayscale.cl --set-at 2:app.reload-wait=60 \
        --set-at 4:app.test-save-file=broken.cl,k/grayscale.cl --set-at 4:app.reload-wait=60 \
        --set-at 5:app.kernels=on --screenshot panel.png --save after.png
    grep -Eq "build of kernels/grayscale\.cl failed" out.txt || fail "no build failure reported"
    grep -Eq "kernels/grayscale\.cl:$line:[0-9]+:" out.txt ||
        fail "the build log does not point at grayscale.cl line $line"
    "$PNG_CHECK" after.png --tolerance 0 --min-color-fraction 255,0,255,0.999 ||
        fail "the result is not the last good build's"
    ;;
shader_reload)
    # GLSL too: an edited image.frag paints the picture green; a broken one keeps the green.
    cp -r "$SHADERS" s
    sed 's/fragColor = vec4(rgb, 1.0);/fragColor = vec4(0.0, 1.0, 0.0, 1.0);/' s/image.frag >green.frag
    sed 's/fragColor = vec4(rgb, 1.0);/fragColor = vec4(rgb 1.0);/' s/image.frag >broken.frag
    expect 0 "shaders rebuilt" "$CLVIZ" --demo image --shader-dir s --vsync off --frames 8 \
        --set app.gui=off \
        --set-at 2:app.test-save-file=green.frag,s/image.frag --set-at 2:app.reload-wait=30 \
        --set-at 4:app.test-save-file=broken.frag,s/image.frag --set-at 4:app.reload-wait=30 \
        --screenshot shot.png
    grep -q "last good shaders keep running" out.txt || fail "the broken shader was not reported"
    "$PNG_CHECK" shot.png --tolerance 8 --min-color-fraction 0,255,0,0.2 ||
        fail "the edited shader did not draw"
    ;;
program_cache)
    # The on-disk binary cache in a private directory: a cold start builds from source and
    # stores; a warm start loads every program (and still matches the CPU reference); corrupt
    # and truncated entries are ignored, rebuilt silently (said with --verbose) and rewritten.
    export CLVIZ_PROGRAM_CACHE=$dir/cache
    # A fixed variant: `auto` (the default) tunes by timing, so two runs can build different sets.
    run=(--n 1000 --variant vectorized --vsync off --frames 3 --set-at 1:app.check-reference=on)
    ms() { echo $((($(date +%s%N) - $1) / 1000000)); }
    t=$(date +%s%N)
    expect 0 "built from source" "$CLVIZ" --verbose "${run[@]}"
    echo "cold start, 3 frames: $(ms "$t") ms"
    ! grep -q "loaded from the binary cache" out.txt || fail "cold start loaded from the cache"
    n=$(ls cache/*.clbin | wc -l)
    [ "$n" -ge 3 ] || fail "only $n binaries stored"
    t=$(date +%s%N)
    expect 0 "loaded from the binary cache" "$CLVIZ" --verbose "${run[@]}"
    echo "warm start, 3 frames: $(ms "$t") ms"
    ! grep -q "built from source" out.txt || fail "warm start built from source"
    grep -q "N-body vs CPU reference: OK" out.txt || fail "no reference check on cached binaries"
    files=(cache/*.clbin)
    damage() {
        head -c 100 "${files[0]}" >cut && mv cut "${files[0]}"
        printf 'garbage' >"${files[1]}"
        printf '\x01' | dd of="${files[2]}" bs=1 seek=$(($(stat -c %s "${files[2]}") - 5)) \
            conv=notrunc status=none
    }
    damage
    expect 0 "cache: (truncated|not a clviz)" "$CLVIZ" --verbose "${run[@]}"
    [ "$(grep -c "built from source" out.txt)" -eq 3 ] || fail "not exactly the 3 bad entries rebuilt"
    damage
    expect 0 "" "$CLVIZ" "${run[@]}"
    ! grep -Eq "binary cache|cache:" out.txt || fail "without --verbose the rebuild is not silent"
    expect 0 "loaded from the binary cache" "$CLVIZ" --verbose "${run[@]}"
    ! grep -q "built from source" out.txt || fail "the rebuilt entries were not stored again"
    ! ls cache | grep -q tmp || fail "temporary files left in the cache"
    ;;
*)
    fail "unknown case"
    ;;
esac
echo "e2e $case_name: ok"
