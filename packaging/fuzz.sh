#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a few seconds (docs/TESTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."

bash packaging/deps.sh
bash packaging/deps.sh --fuzz

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
ctest --test-dir build/fuzz -L fuzz --output-on-failure "$@"
