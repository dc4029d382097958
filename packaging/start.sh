#!/usr/bin/env bash
# Installs what is needed, builds, and starts Kneepoint on its built-in simulator.
# With a display the desktop application opens; without one, the headless demo sweep runs.
set -euo pipefail
cd "$(dirname "$0")/.."

bash packaging/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release

bin=build/release/app
if [ -x "$bin/gui/kneepoint" ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec "$bin/gui/kneepoint" "$@"
fi
if [ -x "$bin/gui/kneepoint" ]; then
    echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset): running the headless demo sweep instead." >&2
fi
exec "$bin/cli/kneepoint-cli" demo "$@"
