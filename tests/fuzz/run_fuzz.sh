#!/usr/bin/env bash
# Builds the image-loading fuzzer with Debian's clang (gcc, the main compiler, has no libFuzzer)
# and runs it for a bounded time on a generated seed corpus. Exits 77 (CTest: skipped) when clang
# or its libFuzzer runtime is missing.
#   run_fuzz.sh SOURCE_DIR WORK_DIR SECONDS
set -euo pipefail
src=$1
work=$2
seconds=${3:-30}
cxx=${CLVIZ_FUZZ_CXX:-clang++}

if ! command -v "$cxx" >/dev/null 2>&1; then
    echo "SKIP: $cxx not found; install Debian's clang (scripts/setup.sh does) to fuzz the image loader"
    exit 77
fi
mkdir -p "$work"
probe="$work/probe.cpp"
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe"
if ! "$cxx" -fsanitize=fuzzer "$probe" -o "$work/probe" >/dev/null 2>&1; then
    echo "SKIP: $cxx cannot link libFuzzer (-fsanitize=fuzzer); is the clang runtime installed?"
    exit 77
fi

flags=(-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -I"$src")
# stb_image itself gets ASan and array-bounds checks (memory safety) but not the rest of UBSan:
# it does benign undefined arithmetic (null + 0, shifts of negative values) that cannot be fixed
# without patching the library, and would stop every run. clviz's own code gets all of UBSan.
stb_flags=(-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,bounds
           -fno-sanitize-recover=bounds)
# Rebuild only when an input changed (the sanitized stb build is the slow part).
inputs=("$src/compute/image_io.cpp" "$src/compute/image_io.hpp" "$src/compute/error.hpp"
        "$src/compute/device_info.hpp"
        "$src/tests/fuzz/fuzz_image_load.cpp" "$src/tests/fuzz/stb_instrumented.c"
        "$src/tests/fuzz/make_seed_corpus.cpp" "$0" /usr/include/stb/stb_image.h)
stale=0
for f in "${inputs[@]}"; do
    [ "$work/make_seed_corpus" -nt "$f" ] || stale=1
done
if [ $stale = 1 ]; then
    echo "building the fuzzer with $("$cxx" --version | head -1)"
    "$cxx" "${stb_flags[@]}" -x c -c "$src/tests/fuzz/stb_instrumented.c" -o "$work/stb.o"
    "$cxx" "${flags[@]}" -c "$src/compute/image_io.cpp" -o "$work/image_io.o"
    "$cxx" "${flags[@]}" "$src/tests/fuzz/fuzz_image_load.cpp" "$work/image_io.o" "$work/stb.o" \
        -o "$work/fuzz_image_load"
    "$cxx" -std=c++20 -O1 "$src/tests/fuzz/make_seed_corpus.cpp" -lstb -o "$work/make_seed_corpus"
else
    echo "fuzzer is up to date"
fi

rm -rf "$work/seeds" "$work/corpus"
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
"$work/make_seed_corpus" "$work/seeds"
echo "seed corpus: $(ls "$work/seeds" | wc -l) files; fuzzing for ${seconds}s"
# New inputs go to corpus/, seeds stay as generated; crashes are written to artifacts/.
# Inputs that once crashed (tests/fuzz/regressions) are replayed first as part of the corpus.
# A fixed seed and run count keep CTest reproducible (a find fails every run, not one in three);
# CLVIZ_FUZZ_SEED=0 picks a random seed for exploratory runs, CLVIZ_FUZZ_RUNS=-1 removes the cap.
"$work/fuzz_image_load" "$work/corpus" "$work/seeds" "$src/tests/fuzz/regressions" \
    -seed="${CLVIZ_FUZZ_SEED:-1}" -runs="${CLVIZ_FUZZ_RUNS:-100000}" \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/"
