#!/usr/bin/env bash
# One command: install dependencies, build, and launch the viewer on the default scene.
# With no $DISPLAY it runs a few seconds under Xvfb and writes a screenshot instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
bin=${CLVIZ_BUILD_DIR:-$root/build}/clviz
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec "$bin" "$@"
fi
shot=${CLVIZ_SCREENSHOT:-$root/clviz-screenshot.png}
echo "demo: no display found; running 180 frames under Xvfb"
xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --frames 180 --screenshot "$shot" "$@"
echo "demo: screenshot written to $shot"
