#!/usr/bin/env bash
# Builds the fuzz targets with Debian's clang (gcc, the main compiler, has no libFuzzer) and runs
# one of them on a generated seed corpus, with a per-input time limit (a hang is a failure, like
# a crash) and an RSS limit. Exits 77 (CTest: skipped) when clang or its libFuzzer runtime is
# missing.
#   run_fuzz.sh build SOURCE_DIR WORK_DIR
#   run_fuzz.sh run SOURCE_DIR WORK_DIR TARGET SECONDS
# A crash, hang or memory blow-up exits 1 (libFuzzer's default, 77, is CTest's "skipped").
# Targets: one per decoder path clviz routes (png jpeg gif bmp tga psd hdr pnm), any (every
# format through one entry point), snapshot (the N-body snapshot parsers) and envi (the ENVI
# header parser and data decoder: header text, NUL, data bytes).
# CLVIZ_FUZZ_RUNS caps the iterations (default 100000; -1 for none), CLVIZ_FUZZ_SEED picks the
# seed (default 1, so a find fails every run; 0 for a random one).
set -euo pipefail
mode=$1 src=$2 work=$3
cxx=${CLVIZ_FUZZ_CXX:-clang++}
formats=(png:Png jpeg:Jpeg gif:Gif bmp:Bmp tga:Tga psd:Psd hdr:Hdr pnm:Pnm)

skip_if_no_fuzzer() {
    if ! command -v "$cxx" >/dev/null 2>&1; then
        echo "SKIP: $cxx not found; install Debian's clang (scripts/setup.sh does) to fuzz"
        exit 77
    fi
    mkdir -p "$work"
    echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$work/probe.cpp"
    if ! "$cxx" -fsanitize=fuzzer "$work/probe.cpp" -o "$work/probe" >/dev/null 2>&1; then
        echo "SKIP: $cxx cannot link libFuzzer (-fsanitize=fuzzer); is the clang runtime installed?"
        exit 77
    fi
}

build() {
    flags=(-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
           -fno-sanitize-recover=undefined -I"$src")
    # stb_image itself gets ASan and array-bounds checks (memory safety) but not the rest of
    # UBSan: it does benign undefined arithmetic (null + 0, shifts of negative values) that
    # cannot be fixed without patching the library, and would stop every run. clviz's own code
    # gets all of UBSan.
    # -DNDEBUG as Debian's libstb.so is built: its asserts are off in clviz (a malformed JPEG
    # Huffman code trips one, where libstb.so returns "bad huffman code"; docs/reliability.md).
    stb_flags=(-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,bounds
               -fno-sanitize-recover=bounds -DNDEBUG)
    lib=(compute/image/io/image_io compute/image/io/image_save compute/image/io/image_limits
         compute/image/io/decode_guards compute/image/io/format_checks compute/image/io/pnm
         compute/image/io/radiance_hdr compute/image/io/tone_map compute/image/io/png_inflate_budget
         compute/image/io/psd_rle16 common/bounded_file common/quoted_path compute/nbody/snapshot
         compute/spectral/io/envi_header compute/spectral/cube common/parse)
    # Rebuild only when an input changed (the sanitized stb build is the slow part).
    inputs=("$src"/tests/fuzz/*.cpp "$src/tests/fuzz/stb_instrumented.c" "$0"
            /usr/include/stb/stb_image.h "$src"/compute/image/io/*.hpp "$src"/compute/image/*.hpp
            "$src"/common/*.hpp "$src"/compute/spectral/*.hpp "$src"/compute/spectral/io/*.hpp)
    for f in "${lib[@]}"; do inputs+=("$src/$f.cpp"); done
    stale=0
    for f in "${inputs[@]}"; do
        [ "$work/built" -nt "$f" ] || stale=1
    done
    if [ $stale = 0 ]; then
        echo "fuzz targets are up to date"
        return
    fi
    echo "building the fuzz targets with $("$cxx" --version | head -1)"
    rm -f "$work/built"
    "$cxx" "${stb_flags[@]}" -x c -c "$src/tests/fuzz/stb_instrumented.c" -o "$work/stb.o"
    objs=()
    for f in "${lib[@]}"; do
        "$cxx" "${flags[@]}" -c "$src/$f.cpp" -o "$work/${f//\//_}.o"
        objs+=("$work/${f//\//_}.o")
    done
    "$cxx" "${flags[@]}" "$src/tests/fuzz/fuzz_image_load.cpp" "${objs[@]}" "$work/stb.o" \
        -o "$work/fuzz_any"
    for pair in "${formats[@]}"; do
        "$cxx" "${flags[@]}" -DCLVIZ_FUZZ_FORMAT="${pair#*:}" "$src/tests/fuzz/fuzz_image_load.cpp" \
            "${objs[@]}" "$work/stb.o" -o "$work/fuzz_${pair%%:*}"
    done
    "$cxx" "${flags[@]}" "$src/tests/fuzz/fuzz_snapshot_load.cpp" "${objs[@]}" "$work/stb.o" \
        -o "$work/fuzz_snapshot"
    "$cxx" "${flags[@]}" "$src/tests/fuzz/fuzz_envi_load.cpp" "${objs[@]}" "$work/stb.o" \
        -o "$work/fuzz_envi"
    "$cxx" -std=c++20 -O1 -I"$src" "$src/tests/fuzz/make_seed_corpus.cpp" \
        "$src/compute/nbody/snapshot.cpp" "$src/common/bounded_file.cpp" \
        "$src/common/quoted_path.cpp" -lstb \
        -o "$work/make_seed_corpus"
    rm -rf "$work/seeds" && mkdir -p "$work/seeds"
    "$work/make_seed_corpus" "$work/seeds"
    touch "$work/built"
}

run() {
    target=$1 seconds=$2
    [ -x "$work/fuzz_$target" ] || { echo "no fuzz target '$target' (run the build step)"; exit 1; }
    case $target in
        jpeg) globs=("*.jpg") ;;
        pnm) globs=("*.pgm" "*.ppm") ;;
        snapshot) globs=("*.clviz" "*.tipsy") ;;
        envi) globs=("*.envi") ;;
        any) globs=("*") ;;
        *) globs=("*.$target") ;;
    esac
    seeds="$work/seeds-$target" corpus="$work/corpus-$target" artifacts="$work/artifacts-$target"
    rm -rf "$seeds" "$corpus"
    mkdir -p "$seeds" "$corpus" "$artifacts"
    for g in "${globs[@]}"; do
        find "$work/seeds" -maxdepth 1 -name "$g" -exec cp {} "$seeds/" \;
    done
    echo "fuzz_$target: $(ls "$seeds" | wc -l) seed files; at most ${seconds}s"
    # New inputs go to corpus-TARGET/, crashes, hangs (-timeout, seconds per input) and memory
    # blow-ups (-rss_limit_mb) to artifacts-TARGET/. Inputs that once failed
    # (tests/fuzz/regressions) are replayed first as part of the corpus.
    "$work/fuzz_$target" "$corpus" "$seeds" "$src/tests/fuzz/regressions" \
        -seed="${CLVIZ_FUZZ_SEED:-1}" -runs="${CLVIZ_FUZZ_RUNS:-100000}" \
        -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
        -error_exitcode=1 -timeout_exitcode=1 \
        -artifact_prefix="$artifacts/"
}

skip_if_no_fuzzer
case $mode in
    build) build ;;
    run) run "$4" "$5" ;;
    *) echo "usage: run_fuzz.sh build|run SOURCE_DIR WORK_DIR [TARGET SECONDS]"; exit 2 ;;
esac
