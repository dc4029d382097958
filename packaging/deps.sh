#!/usr/bin/env bash
# Installs the Debian 12 packages Kneepoint builds and runs with. Idempotent; quiet when all are present.
set -euo pipefail

packages=(
    cmake ninja-build g++ ccache pkg-config
    # qt6-base-dev pulls in libqt6network6: Qt's OpenSSL TLS plugin and libssl3 (https targets, the
    # TLS tests of tst_transport).
    qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev qt6-l10n-tools libqt6svg6
    nlohmann-json3-dev libtomlplusplus-dev qtkeychain-qt6-dev libsimdjson-dev
    xvfb xauth python3-yaml
    fonts-noto-cjk qt6-translations-l10n
    dpkg-dev librsvg2-bin appstream desktop-file-utils
    debootstrap # tests/packaging/fresh_machine.sh: a fresh Debian 12 root
)
# bench/run_all.sh only, never CI: "deps.sh --bench" adds the reference client's aiohttp, wrk and curl.
if [ "${1:-}" = "--bench" ]; then
    packages+=(python3-aiohttp wrk curl)
fi
# packaging/fuzz.sh: "deps.sh --fuzz" adds clang and its libFuzzer runtime.
if [ "${1:-}" = "--fuzz" ]; then
    packages+=(clang libclang-rt-dev)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "deps.sh: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
fi
echo "Installing: ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
# Another apt (an unattended upgrade) may hold the dpkg lock: wait for it rather than fail at once.
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
