#!/usr/bin/env bash
# Rewrites README.md's settings tables (between the settings:begin and settings:end markers) from
# `clviz --help-settings=markdown`. Usage: scripts/update-readme-settings.sh [path/to/clviz]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clviz=${1:-$root/build/clviz}
tables=$(mktemp)
trap 'rm -f "$tables"' EXIT
"$clviz" --help-settings=markdown >"$tables"
awk -v tables="$tables" '
    /<!-- settings:begin/ { print; while ((getline line < tables) > 0) print line; skip = 1; next }
    /<!-- settings:end/ { skip = 0 }
    !skip { print }
' "$root/README.md" >"$root/README.md.new"
mv "$root/README.md.new" "$root/README.md"
