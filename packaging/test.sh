#!/usr/bin/env bash
# Installs what is needed, builds with warnings as errors, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

bash packaging/deps.sh
cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci --parallel 2 "$@"
