#!/usr/bin/env bash
# Installs what is needed, builds with warnings as errors, runs the whole test suite, then the short
# fuzzing smoke run (clang's libFuzzer: SSE parser, profile reader, result files; docs/TESTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."

bash packaging/deps.sh
cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci --parallel 2 "$@"
bash packaging/fuzz.sh
