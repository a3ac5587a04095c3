#!/usr/bin/env bash
# One command: install dependencies, build, and launch the viewer on the default scene.
# With no $DISPLAY it runs five seconds under Xvfb and writes a screenshot instead.
# Arguments go to clviz (try --help).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
bin=${CLVIZ_BUILD_DIR:-$root/build}/clviz
if [ -n "${DISPLAY:-}" ]; then
    exec "$bin" "$@"
fi
shot=${CLVIZ_SCREENSHOT:-$root/clviz-screenshot.png}
echo "demo: no display found; running clviz for 5 seconds under Xvfb"
xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --seconds 5 --screenshot "$shot" "$@"
echo "demo: screenshot written to $shot"
