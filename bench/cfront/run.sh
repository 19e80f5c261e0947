#!/usr/bin/env bash
# bench/cfront: how much of real Debian programs ravel's C front end lowers.
# For each program: fetch the Debian source package (apt-get source), install
# its build dependencies, configure it as Debian does where that is easy, build
# it with its own build system under `bear` (one job, nice 19) to get
# compile_commands.json, then run `ravel ir -p DIR -q` on it and print units,
# C units, units lowered, the errors (most frequent first) and the time.
# Figures only; nothing is asserted. See README.md.
#
#   bench/cfront/run.sh [PROGRAM...]     (default: all, coreutils last)
#
# Environment:
#   RAVEL            the ravel binary (default: build/ravel of this repo)
#   RAVEL_BENCH_DIR  cache of sources and builds (default ~/.cache/ravel-bench)
#   PER_UNIT=0       skip the one-run-per-unit count (then "lowered" is unknown)
#   DEPS=0           do not install build dependencies (default: as root, do)
#   STATUS=FILE      also append each program's summary (markdown) to FILE
#   JOBS=N           ravel's -j for the whole-db run (default 1)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ravel=${RAVEL:-$here/../../build/ravel}
ravel=$(cd "$(dirname "$ravel")" && pwd)/$(basename "$ravel")
bench=${RAVEL_BENCH_DIR:-$HOME/.cache/ravel-bench}
programs=${*:-fio lbzip2 xz-utils zstd rsyslog pixz memcached grep coreutils}
deps=${DEPS:-$([ "$(id -u)" = 0 ] && echo 1 || echo 0)}
export DEBIAN_FRONTEND=noninteractive

log() { printf '%s\n' "$*" >&2; }

# Build dependencies: apt-get build-dep, except where it pulls far more than
# the configuration below needs (fio: gtk, rdma, ceph, gluster, pmem, sphinx;
# rsyslog: systemd, mysql, postgres, mongo, kafka, zmq, snmp).
hand_deps() {
    case $1 in
    fio) echo libaio-dev zlib1g-dev libnuma-dev ;;
    rsyslog) echo pkg-config bison flex libestr-dev libfastjson-dev zlib1g-dev uuid-dev \
        libgnutls28-dev libssl-dev libzstd-dev ;;
    esac
}

install_deps() { # program
    [ "$deps" = 1 ] || return 0
    command -v bear > /dev/null || apt-get install -y -q bear > /dev/null
    local hand; hand=$(hand_deps "$1")
    if [ -n "$hand" ]; then
        # shellcheck disable=SC2086
        nice -n 19 apt-get install -y -q --no-install-recommends $hand > /dev/null
    else
        nice -n 19 apt-get build-dep -y -q "$1" > /dev/null
    fi
}

ensure_deb_src() {
    grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ /etc/apt/sources.list && return 0
    [ "$(id -u)" = 0 ] || { log "no deb-src entry in /etc/apt; add one (see README.md)"; return 1; }
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\nTypes: deb-src\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        > /etc/apt/sources.list.d/ravel-bench-src.sources
    apt-get update -qq > /dev/null
}

# srcdir PROGRAM: the unpacked source tree, fetched when missing. apt-get
# source may fail on a mirror that lacks the newest upload's files; then every
# version apt knows is tried, and last the upstream tarball alone (without
# Debian's patches) when only that could be fetched.
srcdir() {
    local p=$1 d=$bench/src/$1 dir
    dir=$(find "$d" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -n 1)
    if [ -z "$dir" ]; then
        ensure_deb_src || return 1
        mkdir -p "$d"
        (cd "$d" && apt-get source -q "$p" > fetch.log 2>&1)
        dir=$(find "$d" -mindepth 1 -maxdepth 1 -type d | head -n 1)
        if [ -z "$dir" ]; then
            local spkg; spkg=$(apt-cache showsrc "$p" | awk '/^Package:/ { print $2; exit }')
            for v in $(apt-cache showsrc "$p" | awk '/^Version:/ { print $2 }'); do
                (cd "$d" && apt-get source -q "$spkg=$v" >> fetch.log 2>&1)
                dir=$(find "$d" -mindepth 1 -maxdepth 1 -type d | head -n 1)
                [ -n "$dir" ] && break
            done
        fi
        if [ -z "$dir" ]; then
            local orig; orig=$(ls "$d"/*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -n 1)
            if [ -n "$orig" ]; then
                log "$p: only the upstream tarball could be fetched; building it without Debian's patches"
                (cd "$d" && tar xf "$orig")
                dir=$(find "$d" -mindepth 1 -maxdepth 1 -type d | head -n 1)
            fi
        fi
    fi
    [ -n "$dir" ] || { log "$p: apt-get source failed (see $d/fetch.log)"; return 1; }
    echo "$dir"
}

# Debian's patches can leave configure.ac newer than the generated files, and
# make would then rerun this machine's autotools: make the generated files
# newer, in the order make checks them.
touch_autotools() {
    [ -f configure ] || return 0
    touch aclocal.m4 2> /dev/null; sleep 1; touch configure; sleep 1
    find . -name Makefile.in -exec touch {} +
    find . -name 'config.h*in' -exec touch {} +
}

# fix_src PROGRAM: what the build needs beyond the fetched tree. lbzip2: the
# mirror lacks Debian's patches, and its gnulib fseterr.c predates glibc 2.28
# (gcc stops at its #error): test _IO_EOF_SEEN as later gnulib does.
fix_src() {
    case $1 in
    lbzip2) grep -q 'defined _IO_EOF_SEEN' lib/fseterr.c ||
        sed -i 's/^#if defined _IO_ftrylockfile || /#if defined _IO_EOF_SEEN || defined _IO_ftrylockfile || /' lib/fseterr.c ;;
    esac
}

# configure PROGRAM: as the Debian package does where that is easy
configure() {
    case $1 in
    fio) ./configure --disable-native --prefix=/usr ;; # Debian adds --enable-gfio --enable-libnbd
    lbzip2) ./configure --prefix=/usr ;;
    xz-utils) ./configure --prefix=/usr --enable-threads --disable-static \
        --disable-xzdec --disable-lzmadec ;; # Debian's normal-build flavour
    zstd | pigz) : ;;                            # plain Makefiles
    pixz) [ -x configure ] || autoreconf -fi # the upstream tarball (the mirror lacks Debian's)
        ./configure --prefix=/usr --without-manpage ;;
    rsyslog) ./configure --prefix=/usr --enable-imfile --enable-impstats --enable-klog \
        --enable-kmsg --enable-mail --enable-pmaixforwardedfrom --enable-pmciscoios \
        --enable-pmcisconames --enable-pmlastmsg --enable-pmsnare --enable-omstdout \
        --enable-omprog --enable-omuxsock --enable-mmanon --enable-mmjsonparse \
        --enable-mmutf8fix --enable-mmpstrucdata --enable-mmsequence --enable-mmfields \
        --enable-mmrm1stspace --enable-fmhash --enable-gnutls --enable-openssl \
        --enable-libzstd --disable-libgcrypt --disable-generate-man-pages --disable-fmhttp \
        --disable-liblogging-stdlog ;; # Debian's list without the modules of heavy libraries
    memcached) ./configure --prefix=/usr --enable-sasl --enable-tls ;;
    grep) ./configure --prefix=/usr --exec-prefix=/ ;;
    coreutils) FORCE_UNSAFE_CONFIGURE=1 ./configure --prefix=/usr --enable-install-program=arch ;;
    *) ./configure ;;
    esac
}

# build PROGRAM DIR: compile_commands.json in DIR (kept when it exists)
build() {
    local p=$1 dir=$2
    if [ -s "$dir/compile_commands.json" ]; then
        log "$p: $dir/compile_commands.json exists; not rebuilt"
        return 0
    fi
    install_deps "$p" || log "$p: installing the build dependencies failed; trying anyway"
    log "$p: configure and build in $dir (log: $dir/ravel-bench-build.log)"
    (
        cd "$dir" || exit 1
        # Debian's compiler flags (-O2 -g -fstack-protector-strong -Wformat ...)
        eval "$(dpkg-buildflags --export=sh 2> /dev/null)"
        fix_src "$p"
        if [ ! -f Makefile ] || [ "$p" = zstd ] || [ "$p" = pigz ]; then
            touch_autotools
            configure "$p"
        fi &&
            case $p in
            zstd) nice -n 19 bear -- make -j1 V=1 PREFIX=/usr ;;
            *) nice -n 19 bear -- make -j1 ;;
            esac
    ) > "$dir/ravel-bench-build.log" 2>&1
    local rc=$?
    [ -s "$dir/compile_commands.json" ] || { log "$p: no compile_commands.json (exit $rc)"; return 1; }
    [ $rc = 0 ] || log "$p: the build exited $rc; measuring the units it compiled"
}

[ -x "$ravel" ] || { log "no ravel binary at $ravel (build it, or set RAVEL)"; exit 2; }
log "ravel: $ravel; cache: $bench; load: $(cut -d' ' -f1-3 /proc/loadavg)"
rows=()
for p in $programs; do
    dir=$(srcdir "$p") || { rows+=("$(printf '%-10s %s' "$p" 'source not available')"); continue; }
    build "$p" "$dir" || { rows+=("$(printf '%-10s %s' "$p" 'build failed')"); continue; }
    margs=("$ravel" "$p" "$dir" --jobs "${JOBS:-1}")
    [ "${PER_UNIT:-1}" = 1 ] && margs+=(--per-unit)
    [ -n "${STATUS:-}" ] && margs+=(--md "$STATUS")
    python3 "$here/measure.py" "${margs[@]}"
    rows+=("$(python3 - "$dir/ravel-cfront-bench.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
low = "?" if s["lowered"] is None else "%d (%d%%)" % (s["lowered"], 100 * s["lowered"] // max(1, s["c_units"]))
print("%-10s %6d %6d %12s %8.1f %5d" % (s["name"], s["units"], s["c_units"], low, s["ir_seconds"], s["errors"]))
PY
)")
done
printf '\n%-10s %6s %6s %12s %8s %5s\n' program units C-units lowered ir-s errors
printf '%s\n' "${rows[@]}"
