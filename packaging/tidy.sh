#!/usr/bin/env bash
# clang-tidy with the checked-in .clang-tidy (warnings are errors) over the compile database of the
# CI build, which it builds first when missing (the moc and uic outputs must exist).
#
#   bash packaging/tidy.sh [REGEX]      default: every .cpp under app/, engine/ and ui/
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/ci/compile_commands.json ]; then
    cmake --preset ci >/dev/null
    cmake --build --preset ci
fi
exec run-clang-tidy -p build/ci -quiet -j "$(nproc)" "${1:-$PWD/(app|engine|ui)/.*\.cpp\$}"
