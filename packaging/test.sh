#!/usr/bin/env bash
# Installs what is needed, builds with warnings as errors, runs the whole test suite, then the engine's
# unit tests again under ASan+UBSan, then the short fuzzing smoke run (clang's libFuzzer: SSE parser,
# profile reader, result files; docs/TESTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."

bash packaging/deps.sh
cmake --preset ci >/dev/null
cmake --build --preset ci
# Four at a time: most tests wait on the simulator's clock, so two would leave the cores idle.
ctest --preset ci --parallel 4 "$@"
# Only the unit tests' targets (label unit): a few minutes without a compiler cache, not the whole tree.
cmake --preset asan >/dev/null
cmake --build --preset asan-unit
ctest --preset asan-unit --parallel 2
bash packaging/fuzz.sh
