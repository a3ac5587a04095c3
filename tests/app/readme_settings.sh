#!/usr/bin/env bash
# README.md's settings tables must be exactly `clviz --help-settings=markdown` (written from the
# settings tables in the code), between the settings:begin and settings:end markers.
# Usage: readme_settings.sh CLVIZ README
set -euo pipefail
clviz=$1
readme=$2
want=$("$clviz" --help-settings=markdown)
have=$(sed -n '/<!-- settings:begin/,/<!-- settings:end/{//!p}' "$readme")
if [[ "$want" != "$have" ]]; then
    diff <(printf '%s\n' "$have") <(printf '%s\n' "$want") || true
    echo "README.md's settings tables differ from clviz --help-settings=markdown (above: < README," \
         "> the code); scripts/update-readme-settings.sh rewrites them" >&2
    exit 1
fi
echo "README.md's settings tables match the code"
