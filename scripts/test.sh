#!/usr/bin/env bash
# One command: install dependencies, build, and run the whole test suite with CTest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "${CLVIZ_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j"$(nproc)" "$@"
