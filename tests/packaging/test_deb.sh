#!/usr/bin/env bash
# Builds the Debian package from a configured build tree, installs it with apt (which resolves and
# so checks its Depends), uses the installed programs, then removes the package again.
#
#   test_deb.sh BUILD_DIR
#
# Exits 77 (skipped) unless running as root with dpkg, apt-get and cpack, and when a kneepoint
# package is already installed (it is never replaced or removed by this test).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_dir=${1:?usage: test_deb.sh BUILD_DIR}
skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" -eq 0 ] || skip "needs root to install a package"
for tool in dpkg dpkg-deb apt-get cpack; do
    command -v "$tool" >/dev/null || skip "$tool not found"
done
if dpkg-query -W -f='${Status}' kneepoint 2>/dev/null | grep -q 'installed'; then
    skip "a kneepoint package is already installed; not touching it"
fi
for f in /usr/bin/kneepoint /usr/bin/kneepoint-cli /usr/bin/kneepoint-sim; do
    [ -e "$f" ] && skip "$f exists and belongs to no kneepoint package; not touching it"
done

# Packages unpacked but not configured, half installed, or with triggers pending or awaited.
unsettled() { dpkg-query -W -f='${db:Status-Abbrev} ${binary:Package}\n' | awk '$1 ~ /^.[UFHWT]/ { print $2 }' | sort; }
unsettled_before=$(unsettled)

work=$(mktemp -d)
# apt-get's own cache directory, and so its own lock: packaging_fresh_root's roots share the host's
# /var/cache/apt/archives and hold its lock while they install, and the two tests run side by side.
mkdir -p "$work/archives/partial"
# Another apt or dpkg (an unattended upgrade, a parallel job) may hold the dpkg lock for a while: apt-get
# waits for it up to lock_wait_s; dpkg has no such option, so dpkg_waiting tries again while the lock
# is what stops it.
lock_wait_s=300
apt_get=(apt-get -o "Dir::Cache::Archives=$work/archives" -o "DPkg::Lock::Timeout=$lock_wait_s")
dpkg_waiting() {
    local deadline=$((SECONDS + lock_wait_s)) out
    while :; do
        if out=$("$@" 2>&1); then
            printf '%s\n' "$out" >>"$work/apt.log"
            return 0
        fi
        printf '%s\n' "$out" >>"$work/apt.log"
        [[ $out == *"lock"* ]] && [ "$SECONDS" -lt "$deadline" ] || return 1
        echo "dpkg lock held by another process: trying again" >>"$work/apt.log"
        sleep 2
    done
}
sim_pid=
installed=0
cleanup() {
    # Never let a failing kill or wait end the cleanup before the package is removed.
    if [ -n "$sim_pid" ]; then
        kill "$sim_pid" 2>/dev/null || true
        wait "$sim_pid" 2>/dev/null || true
    fi
    if [ "$installed" -eq 1 ]; then
        DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" purge -y -qq kneepoint >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

step() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

step "cpack -G DEB"
(cd "$build_dir" && cpack -G DEB -B "$work/pkg") >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/pkg/kneepoint_*.deb)
dpkg-deb -I "$deb" | grep -E '^ (Package|Version|Depends):'
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6core6 libqt6network6 libqt6widgets6 libqt6charts6 libtomlplusplus3 libsimdjson14 qt6-qpa-plugins libc6; do
    [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done

step "apt-get install $deb"
installed=1
# apt resolves the Depends and unpacks; dpkg then configures what apt unpacked with the other packages'
# triggers (man-db's index, the desktop and icon caches: about 5 s, none of it checked here) left
# pending. The purge below runs them, once for both, so the machine ends as it began.
DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" -o DPkg::NoTriggers=true -o DPkg::ConfigurePending=false \
    install -y -qq --no-install-recommends "$deb" >"$work/apt.log" 2>&1 \
    || { cat "$work/apt.log"; fail "apt-get install"; }
mapfile -t unpacked < <(dpkg-query -W -f='${db:Status-Abbrev} ${binary:Package}\n' | awk '$1 == "iU" { print $2 }' \
    | grep -vxF -e "$unsettled_before" -e '')
[ "${#unpacked[@]}" -gt 0 ] || fail "apt-get install unpacked nothing"
DEBIAN_FRONTEND=noninteractive dpkg_waiting dpkg --configure --no-triggers "${unpacked[@]}" \
    || { cat "$work/apt.log"; fail "dpkg --configure ${unpacked[*]}"; }
dpkg-query -W -f='${Status}\n' kneepoint | grep -q 'install ok installed' || fail "not installed"

step "installed files"
for f in /usr/bin/kneepoint /usr/bin/kneepoint-cli /usr/bin/kneepoint-sim \
    /usr/share/applications/kneepoint.desktop \
    /usr/share/metainfo/io.kneepoint.Kneepoint.metainfo.xml \
    /usr/share/icons/hicolor/scalable/apps/kneepoint.svg \
    /usr/share/icons/hicolor/{16x16,32x32,48x48,64x64,128x128,256x256}/apps/kneepoint.png \
    /usr/share/kneepoint/profiles/demo.json /usr/share/kneepoint/datasets/demo.jsonl \
    /usr/share/man/man1/{kneepoint,kneepoint-cli,kneepoint-sim}.1.gz \
    /usr/share/bash-completion/completions/kneepoint-cli; do
    [ -s "$f" ] || fail "missing: $f"
done
bash -n /usr/share/bash-completion/completions/kneepoint-cli || fail "completion: syntax"
for page in kneepoint kneepoint-cli kneepoint-sim; do
    gzip -t "/usr/share/man/man1/$page.1.gz" || fail "man page $page: not gzip"
done

step "versions"
/usr/bin/kneepoint-cli --version
/usr/bin/kneepoint-sim --version
QT_QPA_PLATFORM=offscreen /usr/bin/kneepoint --version
/usr/bin/kneepoint-cli --version | grep -q '^kneepoint-cli [0-9]' || fail "kneepoint-cli --version"

step "validate the demo profile and dataset"
/usr/bin/kneepoint-cli validate --profile /usr/share/kneepoint/profiles/demo.json
sed 's#"dataset": "random"#"dataset": "jsonl", "dataset_path": "/usr/share/kneepoint/datasets/demo.jsonl"#' \
    /usr/share/kneepoint/profiles/demo.json >"$work/jsonl.json"
/usr/bin/kneepoint-cli validate --profile "$work/jsonl.json"

if command -v appstreamcli >/dev/null; then
    step "appstreamcli validate"
    appstreamcli validate --no-net /usr/share/metainfo/io.kneepoint.Kneepoint.metainfo.xml
fi
if command -v desktop-file-validate >/dev/null; then
    step "desktop-file-validate"
    desktop-file-validate /usr/share/applications/kneepoint.desktop
fi

step "kneepoint-sim and a short sweep with the installed CLI"
/usr/bin/kneepoint-sim --port 0 --time-scale 10 >"$work/sim.out" 2>"$work/sim.err" &
sim_pid=$!
url=$(sim_url "$sim_pid" "$work/sim.out" "$work/sim.err")
echo "simulator at $url"
/usr/bin/kneepoint-cli sweep --base-url "$url" --request-rate 20,40 --num-prompts 10 \
    --random-input-len 8 --random-output-len 8 --quiet --out "$work/run" || fail "sweep (exit $?)"
[ -s "$work/run/run.json" ] && [ -s "$work/run/sweep.csv" ] || fail "sweep wrote no run directory"
kill "$sim_pid"; wait "$sim_pid" 2>/dev/null || true; sim_pid=

step "apt-get purge kneepoint"
DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" purge -y -qq kneepoint >"$work/purge.log" 2>&1 \
    || { cat "$work/purge.log"; fail "apt-get purge"; }
installed=0
[ ! -e /usr/bin/kneepoint-cli ] || fail "/usr/bin/kneepoint-cli is still there"
[ ! -e /usr/share/kneepoint ] || fail "/usr/share/kneepoint is still there"
if dpkg-query -W -f='${Status}' kneepoint 2>/dev/null | grep -q 'installed'; then fail "still installed"; fi
[ "$(unsettled)" = "$unsettled_before" ] || fail "packages left unconfigured or with triggers pending: $(unsettled)"
echo "PASS"
