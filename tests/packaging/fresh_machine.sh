#!/usr/bin/env bash
# Proves that packaging/deps.sh and the container image's runtime stage name every package that the
# build and the programs need, whatever this machine happens to have installed already.
#
#   fresh_machine.sh closure SOURCE_DIR BUILD_DIR
#       Seconds. Every CMake package configuration the build found under /usr, and every shared
#       library the built programs load (ldd, and the Qt plugins the window loads at start), must be
#       owned by a package of deps.sh's list or its dependencies. Every library of the programs as
#       the image builds them (no desktop libraries) must be owned by a package of the Dockerfile's
#       runtime list, its dependencies, or the base system. Needs dpkg and apt-cache.
#
#   fresh_machine.sh root SOURCE_DIR BUILD_DIR
#       A minute or two the first time, seconds after. debootstrap makes a fresh Debian 12 root; in it,
#       a copy of the tree runs `bash packaging/deps.sh` and the CI configure step (and the image's
#       configure step). In a second fresh root holding only the Dockerfile's runtime packages, the
#       GUI-less programs print their help and run a short sweep against kneepoint-sim. Needs root,
#       debootstrap and the Debian mirror; the host's apt cache is shared to keep it quick, and roots
#       installed from the same package list, minbase root and mirror indexes are kept as tarballs.
#
# Exits 77 (skipped) with the reason where what a mode needs is missing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

mode=${1:?usage: fresh_machine.sh closure|root SOURCE_DIR BUILD_DIR}
src=$(realpath "${2:?source dir}")
build=$(realpath "${3:?build dir}")

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

programs=("$build/app/gui/kneepoint" "$build/app/cli/kneepoint-cli" "$build/app/sim/kneepoint-sim")
headless=("$build/app/cli/kneepoint-cli-headless" "$build/app/sim/kneepoint-sim")
dockerfile=$src/packaging/container/Dockerfile

# The package list of deps.sh (the default set, as the README's commands install it).
deps_packages() {
    bash -c 'source /dev/stdin; printf "%s\n" "${packages[@]}"' < <(sed -n '/^packages=(/,/^)/p' "$src/packaging/deps.sh")
}

# The packages the Dockerfile's last stage installs.
runtime_packages() {
    awk '/^FROM /{stage=""} {stage = stage $0 " "} END{print stage}' "$dockerfile" | tr '\\' ' ' \
        | grep -o 'apt-get install [^&]*' | tr ' ' '\n' | grep -v -e '^-' -e '^$' -e '^apt-get$' -e '^install$'
}

# $@ and every package they depend on (Depends and Pre-Depends), among those installed here.
closure() {
    apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts --no-breaks \
        --no-replaces --no-enhances "$@" 2>/dev/null | grep -v '^ ' | tr -d '<>' | sed 's/:.*//' | sort -u
}

# The paths a file may be listed under in dpkg's database: itself, the alias a merged /usr gives it,
# and its real path, in that order.
aliases_of() {
    local f=$1
    echo "$f"
    case $f in
    /usr/lib/*) echo "${f#/usr}" ;;
    /lib/* | /lib64/*) echo "/usr$f" ;;
    esac
    realpath -m "$f"
}

# check_owned LABEL ALLOWED_FILE FILE...: each file belongs to a package listed in ALLOWED_FILE. A file's
# owners are those of its first alias that a package lists. One dpkg-query for all the files: each call
# reads the whole database, which for a few hundred files took most of this test's time.
check_owned() {
    local label=$1 allowed=$2 bad=0 f c line path pkgs ok
    shift 2
    declare -A owner_of=() allowed_set=() aliases=()
    while read -r line; do
        if [ -n "$line" ]; then allowed_set[$line]=1; fi
    done <"$allowed"
    for f in "$@"; do
        aliases[$f]=$(aliases_of "$f")
    done
    # "pkg1:amd64, pkg2: /path" per path found; paths not found go to stderr; diversions are no owners.
    while IFS= read -r line; do
        [[ $line == diversion* || $line != *': /'* ]] && continue
        path=/${line#*: /}
        pkgs=${line%%: /*}
        for c in ${pkgs//,/ }; do
            owner_of[$path]="${owner_of[$path]:+${owner_of[$path]} }${c%%:*}"
        done
    done < <(printf '%s\n' "${aliases[@]}" | sort -u | xargs -r -d '\n' dpkg-query -S 2>/dev/null || true)
    for f in "$@"; do
        pkgs=
        while read -r c; do
            if [ -n "${owner_of[$c]:-}" ]; then
                pkgs=${owner_of[$c]}
                break
            fi
        done <<<"${aliases[$f]}"
        if [ -z "$pkgs" ]; then
            echo "  $f: owned by no package" >&2
            bad=1
            continue
        fi
        ok=0
        for c in $pkgs; do
            if [ -n "${allowed_set[$c]:-}" ]; then ok=1; fi
        done
        if [ $ok -eq 0 ]; then
            echo "  $f: owned by $(echo $pkgs), which $label does not install" >&2
            bad=1
        fi
    done
    return $bad
}

# Shared libraries of the programs given: ldd's view, and "not found" is an error of its own.
libraries_of() {
    local p
    for p in "$@"; do
        [ -x "$p" ] || fail "$p is not built"
        if ldd "$p" | grep -q 'not found'; then
            ldd "$p" | grep 'not found' >&2
            fail "$p: a library is missing here"
        fi
        ldd "$p" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'
    done | sort -u
}

run_closure() {
    command -v dpkg-query >/dev/null && command -v apt-cache >/dev/null || skip "dpkg and apt-cache are needed"
    local work
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT

    mapfile -t deps < <(deps_packages)
    [ ${#deps[@]} -gt 5 ] || fail "could not read the package list of packaging/deps.sh"
    closure "${deps[@]}" >"$work/deps"
    echo "deps.sh names ${#deps[@]} packages; with their dependencies $(wc -l <"$work/deps")"

    step "CMake packages the configure step found under /usr belong to deps.sh's packages"
    local configs=() name dir cfg
    while IFS='=' read -r name dir; do
        name=${name%%_DIR:PATH}
        [ -d "$dir" ] || continue
        cfg=
        for cfg in "$dir/${name}Config.cmake" "$dir/$(tr 'A-Z' 'a-z' <<<"$name")-config.cmake"; do
            [ -f "$cfg" ] && break
            cfg=
        done
        # Find modules' include directories (OPENGL_EGL_INCLUDE_DIR=/usr/include) hold no config file.
        [ -n "$cfg" ] && configs+=("$cfg")
    done < <(grep -E '^[A-Za-z0-9_]+_DIR:PATH=/usr/' "$build/CMakeCache.txt")
    [ ${#configs[@]} -gt 10 ] || fail "only ${#configs[@]} CMake packages in $build/CMakeCache.txt"
    # Tools the build runs, found by path: the compiler, ninja, lupdate, rsvg-convert, ... (libraries found
    # by path are optional finds, such as FindOpenGL's EGL and GLU; what is linked, ldd shows below).
    mapfile -t found < <(sed -nE 's/^(KNEEPOINT_[A-Z_]+|CMAKE_CXX_COMPILER|CMAKE_MAKE_PROGRAM|PKG_CONFIG_EXECUTABLE):FILEPATH=(\/usr\/.*)$/\2/p' \
        "$build/CMakeCache.txt")
    check_owned "deps.sh" "$work/deps" "${configs[@]}" "${found[@]}" || fail "deps.sh misses a package of the build"
    echo "${#configs[@]} package configurations and ${#found[@]} tools and libraries, each from deps.sh's list"

    step "libraries of the programs belong to deps.sh's packages"
    mapfile -t libs < <(libraries_of "${programs[@]}")
    check_owned "deps.sh" "$work/deps" "${libs[@]}" || fail "deps.sh misses a library of the programs"
    echo "${#libs[@]} libraries, each from deps.sh's list"

    step "what the window loads at start on the offscreen platform belongs to deps.sh's packages"
    # Plugins are loaded at run time and so invisible to ldd: the dynamic loader names them. The unknown
    # option makes the program stop right after QApplication has loaded its platform.
    mkdir -p "$work/home"
    HOME="$work/home" XDG_CONFIG_HOME="$work/home" XDG_DATA_HOME="$work/home" XDG_RUNTIME_DIR="$work/home" \
        QT_QPA_PLATFORM=offscreen LD_DEBUG=files "${programs[0]}" --no-such-option >/dev/null 2>"$work/ld.log" || true
    mapfile -t loaded < <(grep -oE '(file=|calling init: )/[^ ]*' "$work/ld.log" | sed -E 's/^(file=|calling init: )//' | sort -u \
        | while read -r f; do [ -e "$f" ] && echo "$f"; done)
    printf '%s\n' "${loaded[@]}" | grep -q '/platforms/libqoffscreen\.so' \
        || fail "the window did not load the offscreen platform plugin (is qt6-qpa-plugins installed?)"
    check_owned "deps.sh" "$work/deps" "${loaded[@]}" || fail "deps.sh misses a library the window loads"
    echo "${#loaded[@]} files loaded by the window, each from deps.sh's list"

    step "libraries of the GUI-less programs belong to the Dockerfile's runtime packages"
    mapfile -t runtime < <(runtime_packages)
    [ ${#runtime[@]} -gt 0 ] || fail "no runtime packages found in $dockerfile"
    echo "runtime stage: ${runtime[*]}"
    # The base image (bookworm-slim, as debootstrap's minbase) holds the required packages and apt.
    {
        closure "${runtime[@]}" apt
        dpkg-query -W -f='${Package} ${Priority}\n' | awk '$2 == "required" {print $1}'
    } | sort -u >"$work/runtime"
    mapfile -t libs < <(libraries_of "${headless[@]}")
    check_owned "the Dockerfile's runtime stage" "$work/runtime" "${libs[@]}" \
        || fail "the Dockerfile's runtime stage misses a library of kneepoint-cli or kneepoint-sim"
    echo "${#libs[@]} libraries, each from the runtime stage or the base system"
    echo "PASS"
}

# ---- root mode ---------------------------------------------------------------------------------

work=
mounts=()
sim_pid=
cleanup_root() {
    # Nothing here may end the cleanup early (set -e): the mounts must go before anything is removed.
    if [ -n "$sim_pid" ]; then
        kill "$sim_pid" 2>/dev/null || true
    fi
    # Innermost first: the roots' mounts, then the memory file system that may hold the roots.
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount -l "${mounts[i]}" 2>/dev/null || true
    done
    mounts=()
    # The memory file system of a run that was killed before its cleanup: detached with what is
    # mounted in it (detaching deletes nothing).
    if [ -n "$work" ] && findmnt -rn -o SOURCE,TARGET | grep -qxF "kneepoint-fresh-root $work"; then
        umount -l "$work" 2>/dev/null || true
    fi
    # Never delete through a mount that is still there (the shared apt cache is the host's own).
    if [ -n "$work" ] && [ -d "$work" ]; then
        if findmnt -rn -o TARGET | grep -q "^$work/"; then
            echo "warning: mounts remain under $work; not removing it" >&2
        else
            rm -rf "$work"
        fi
    fi
}

# prepare_chroot DIR: /proc, the host's apt cache and name resolution inside DIR.
prepare_chroot() {
    local dir=$1
    mount -t proc proc "$dir/proc" && mounts+=("$dir/proc")
    mount --bind /var/cache/apt/archives "$dir/var/cache/apt/archives" && mounts+=("$dir/var/cache/apt/archives")
    cp -L /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
}

release_chroot() {
    local dir=$1 m kept=()
    for m in "${mounts[@]}"; do
        if [[ $m == "$dir/"* ]]; then
            umount "$m" || fail "could not unmount $m"
        else
            kept+=("$m")
        fi
    done
    mounts=("${kept[@]}")
}

# keep_root DIR TARBALL PREFIX: DIR, as installed, into TARBALL, without the tree, /proc and the shared
# apt cache (mounted there now); other tarballs of the same PREFIX go. Nothing fails if it cannot.
keep_root() {
    local dir=$1 tarball=$2 prefix=$3
    # A name of its own until complete: other build trees of this machine share the cache.
    local partial=$tarball.$$.tmp
    if tar -cpf "$partial" -C "$dir" --exclude=./src --exclude='./proc/*' --exclude='./var/cache/apt/archives/*' .; then
        mv "$partial" "$tarball"
        find "$(dirname "$tarball")" -maxdepth 1 -name "$prefix*.tar" ! -name "$(basename "$tarball")" -delete
    else
        rm -f "$partial"
    fi
}

in_root() {
    local dir=$1
    shift
    env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        chroot "$dir" /bin/bash -c "$*"
}

run_root() {
    [ "$(id -u)" -eq 0 ] || skip "needs root (debootstrap, chroot, mount)"
    local tool
    for tool in debootstrap chroot mount umount findmnt dpkg-query; do
        command -v "$tool" >/dev/null || skip "$tool not found"
    done
    [ -d /var/cache/apt/archives ] || skip "no apt cache at /var/cache/apt/archives"
    mirror=${KNEEPOINT_DEBIAN_MIRROR:-http://deb.debian.org/debian}

    work="$build/fresh-machine"
    trap cleanup_root EXIT
    cleanup_root
    mkdir -p "$work"
    # The roots live in memory where there is room (the root after deps.sh takes about 2 GB): dpkg
    # syncs every file it unpacks, and removing a root from disk took a minute on a busy machine.
    # What is installed, and where, is the same on either.
    local available_kb
    available_kb=$(awk '$1 == "MemAvailable:" {print $2}' /proc/meminfo)
    if [ "${available_kb:-0}" -ge $((8 * 1024 * 1024)) ] && mount -t tmpfs -o mode=0755 kneepoint-fresh-root "$work"; then
        mounts+=("$work")
        echo "roots in memory (tmpfs at $work)"
    fi

    # The untouched minbase root is kept as a tarball for a week (KNEEPOINT_FRESH_ROOT_CACHE, default
    # ~/.cache/kneepoint-tests): each run unpacks fresh copies, and deps.sh updates the package lists.
    local cache=${KNEEPOINT_FRESH_ROOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kneepoint-tests}
    local tarball=$cache/bookworm-minbase.tar
    if [ -s "$tarball" ] && [ -n "$(find "$tarball" -mtime -7 2>/dev/null)" ]; then
        step "a fresh minbase bookworm root (debootstrap's, from $tarball)"
        mkdir -p "$work/base"
        tar -xpf "$tarball" -C "$work/base" || fail "unpacking $tarball"
    else
        step "debootstrap --variant=minbase bookworm ($mirror)"
        if ! debootstrap --variant=minbase --cache-dir=/var/cache/apt/archives bookworm "$work/base" "$mirror" \
            >"$work/debootstrap.log" 2>&1; then
            tail -n 5 "$work/debootstrap.log"
            if grep -qiE "release file|couldn't download|temporary failure|could not resolve|connection" \
                "$work/debootstrap.log"; then
                skip "the Debian mirror $mirror cannot be reached"
            fi
            fail "debootstrap"
        fi
        if mkdir -p "$cache" && tar -cpf "$tarball.tmp" -C "$work/base" .; then
            mv "$tarball.tmp" "$tarball"
        else
            rm -f "$tarball.tmp"
        fi
    fi

    # A root that installed a list of packages depends on the list, the minbase root and the mirror's
    # package indexes, which apt-get update in the minbase root fetches (their signed Release files
    # name every index by its hash). A root installed from the same three is kept next to the minbase
    # tarball and unpacked instead of installing again; any change to one of them installs afresh.
    mapfile -t runtime < <(runtime_packages)
    local deps_cache= runtime_cache= indexes= base_id
    base_id=$(stat -c '%Y %s' "$tarball" 2>/dev/null || true)
    prepare_chroot "$work/base"
    if in_root "$work/base" 'apt-get update -qq' >"$work/update.log" 2>&1 && ! grep -q '^[WE]:' "$work/update.log"; then
        indexes=$(cat "$work/base"/var/lib/apt/lists/*Release 2>/dev/null | sha256sum | cut -c1-64)
    fi
    release_chroot "$work/base"
    if [ -n "$base_id" ] && [ -n "$indexes" ]; then
        deps_cache=$cache/bookworm-deps-$({ printf '%s\n' 1 "$base_id" "$indexes"; cat "$src/packaging/deps.sh"; } \
            | sha256sum | cut -c1-16).tar
        runtime_cache=$cache/bookworm-runtime-$(printf '%s\n' 1 "$base_id" "$indexes" "${runtime[@]}" | sha256sum | cut -c1-16).tar
    fi

    step "fresh root: bash packaging/deps.sh, then the CI and the image's configure steps"
    local root=$work/base
    local deps_kept=0
    if [ -n "$deps_cache" ] && [ -s "$deps_cache" ]; then
        rm -rf "$root"
        mkdir -p "$root"
        tar -xpf "$deps_cache" -C "$root" || fail "unpacking $deps_cache"
        deps_kept=1
        echo "deps.sh's packages as installed by an earlier run from the same deps.sh, minbase root and indexes ($deps_cache)"
    fi
    if [ -n "$runtime_cache" ] && [ -s "$runtime_cache" ]; then
        mkdir -p "$work/runtime"
        tar -xpf "$runtime_cache" -C "$work/runtime" || fail "unpacking $runtime_cache"
    elif [ $deps_kept -eq 1 ]; then
        mkdir -p "$work/runtime"
        tar -xpf "$tarball" -C "$work/runtime" || fail "unpacking $tarball"
    else
        cp -a "$root" "$work/runtime"
    fi
    mkdir -p "$root/src"
    if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
        # Tracked files plus new ones not yet committed, as a clone of this tree would hold them.
        (cd "$src" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - 2>/dev/null) \
            | tar -xf - -C "$root/src"
    else
        tar -C "$src" --exclude=./build -cf - . | tar -xf - -C "$root/src"
    fi
    prepare_chroot "$root"
    in_root "$root" 'cd /src && bash packaging/deps.sh' >"$work/deps.log" 2>&1 \
        || { tail -n 30 "$work/deps.log"; fail "packaging/deps.sh in a fresh root"; }
    if [ $deps_kept -eq 0 ] && [ -n "$deps_cache" ]; then
        keep_root "$root" "$deps_cache" bookworm-deps-
    fi
    in_root "$root" 'cd /src && cmake --preset ci' >"$work/configure.log" 2>&1 \
        || { tail -n 30 "$work/configure.log"; fail "cmake --preset ci in a fresh root after deps.sh"; }
    in_root "$root" 'cd /src && cmake --preset release -DKNEEPOINT_BUILD_GUI=OFF' >"$work/configure-image.log" 2>&1 \
        || { tail -n 30 "$work/configure-image.log"; fail "the image's configure step in a fresh root"; }
    echo "deps.sh and both configure steps succeeded"
    release_chroot "$root"
    rm -rf "$root"

    step "fresh root with the Dockerfile's runtime packages only: the GUI-less programs"
    root=$work/runtime
    prepare_chroot "$root"
    if [ -n "$runtime_cache" ] && [ -s "$runtime_cache" ]; then
        echo "the runtime packages as installed by an earlier run from the same list, minbase root and indexes ($runtime_cache)"
    else
        in_root "$root" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends ${runtime[*]}" >"$work/runtime.log" 2>&1 \
            || { tail -n 30 "$work/runtime.log"; fail "installing the runtime packages: ${runtime[*]}"; }
        if [ -n "$runtime_cache" ]; then
            keep_root "$root" "$runtime_cache" bookworm-runtime-
        fi
    fi
    install -m 0755 "${headless[0]}" "$root/usr/bin/kneepoint-cli"
    install -m 0755 "${headless[1]}" "$root/usr/bin/kneepoint-sim"
    mkdir -p "$root/results"
    chown 10001:10001 "$root/results"
    # As the image runs them: an unprivileged user, runs under /results, no XDG_RUNTIME_DIR.
    local as_user="env -i PATH=/usr/bin:/bin HOME=/results XDG_DATA_HOME=/results LANG=C.UTF-8"
    as_user="$as_user $(command -v chroot) --userspec=10001:10001 $root"
    $as_user kneepoint-cli --help >"$work/help.out" 2>"$work/help.err" || { cat "$work/help.err"; fail "kneepoint-cli --help"; }
    grep -q sweep "$work/help.out" || fail "kneepoint-cli --help does not list its commands"
    [ ! -s "$work/help.err" ] || { cat "$work/help.err"; fail "kneepoint-cli --help wrote to stderr"; }
    $as_user kneepoint-sim --help >/dev/null || fail "kneepoint-sim --help"

    $as_user kneepoint-sim --port 0 --time-scale 10 >"$work/sim.out" 2>"$work/sim.err" &
    sim_pid=$!
    local url
    url=$(sim_url "$sim_pid" "$work/sim.out" "$work/sim.err")
    $as_user kneepoint-cli sweep --base-url "$url" --request-rate 20,40 --num-prompts 10 --random-input-len 8 \
        --random-output-len 8 --quiet --out /results/run >"$work/sweep.out" 2>"$work/sweep.err" \
        || { cat "$work/sweep.err"; fail "a sweep against kneepoint-sim in the runtime root"; }
    [ -s "$root/results/run/run.json" ] && [ -s "$root/results/run/sweep.csv" ] || fail "the sweep wrote no run"
    [ ! -s "$work/sweep.err" ] || { cat "$work/sweep.err"; fail "the sweep wrote to stderr"; }
    kill "$sim_pid"
    wait "$sim_pid" 2>/dev/null || true
    sim_pid=
    echo "kneepoint-cli and kneepoint-sim ran with: ${runtime[*]}"
    echo "PASS"
}

case $mode in
closure) run_closure ;;
root) run_root ;;
*) fail "unknown mode $mode" ;;
esac
