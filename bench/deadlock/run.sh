#!/usr/bin/env bash
# bench/deadlock: throughput of `ravel deadlock`. For each input prints lines,
# wall time, the front end's and the analysis's share (RAVEL_TIMES), lines per
# second, peak memory, the findings, and for generated code bases whether
# every planted deadlock was reported (and nothing else).
# Inputs: code bases made by gen.py (about 22 lines per function; the last
# one has at least a million lines) and memcached: $MEMCACHED_DIR (a source
# tree with compile_commands.json), else fetched and built when run as root.
# Figures only; nothing here is a test.
#   bench/deadlock/run.sh [RAVEL]   (default build/ravel)
#   SIZES="20x30 200x240" bench/deadlock/run.sh   (modules x functions)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ravel=${1:-$here/../../build/ravel}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-22s %9s %8s %8s %8s %10s %8s %9s %s\n' input lines total-s front-s anal-s lines/s peak-MB findings planted
measure() { # name lines planted-file args...
    local name=$1 lines=$2 planted=$3; shift 3
    RAVEL_TIMES=1 /usr/bin/time -f '%e %M' -o "$tmp/time" "$ravel" deadlock "$@" \
        > "$tmp/out" 2> "$tmp/err" || true
    read -r secs kb < <(tail -n 1 "$tmp/time")
    local fe an
    fe=$(sed -n 's/.*front end \([0-9.]*\) s.*/\1/p' "$tmp/err")
    an=$(sed -n 's/.*analysis \([0-9.]*\) s.*/\1/p' "$tmp/err")
    local found; found=$(grep -c ': deadlock: ' "$tmp/out" || true)
    local check=-
    if [ -n "$planted" ]; then
        local missing=0
        while read -r a b; do
            grep -q ": deadlock: lock cycle of 2 locks: $a -> $b -> $a" "$tmp/out" || missing=$((missing + 1))
        done < "$planted"
        check="$(( $(wc -l < "$planted") - missing ))/$(wc -l < "$planted") found"
    fi
    awk -v n="$name" -v l="$lines" -v s="$secs" -v k="$kb" -v fe="${fe:-0}" -v an="${an:-0}" \
        -v f="$found" -v c="$check" \
        'BEGIN { printf "%-22s %9d %8.2f %8.2f %8.2f %10.0f %8.1f %9d %s\n", n, l, s, fe, an, (s > 0 ? l / s : 0), k / 1024, f, c }'
}
for size in ${SIZES:-20x30 60x80 200x240}; do
    mods=${size%x*}
    funcs=${size#*x}
    dir=$tmp/gen$size
    python3 "$here/gen.py" "$dir" "$mods" "$funcs" 10 > /dev/null
    lines=$(cat "$dir"/*.c "$dir"/*.h | wc -l)
    measure "generated-$size" "$lines" "$dir/planted.txt" "$dir"/*.c
done
corpus=$here/../../../shared/corpus/deadlock
if [ -d "$corpus" ]; then
    lines=$(cat "$corpus"/*.c | wc -l)
    start=$(date +%s.%N)
    for f in "$corpus"/*.c; do
        "$ravel" deadlock -q "$f" -- -I"$corpus" -include stdlib.h > /dev/null 2>&1 || true
    done
    end=$(date +%s.%N)
    awk -v l="$lines" -v s="$start" -v e="$end" \
        'BEGIN { printf "%-22s %9d %8.2f %8s %8s %10.0f (58 runs, one per file)\n", "deadlock corpus", l, e - s, "-", "-", l / (e - s) }'
fi
# memcached (the paper measured 1.6.10): fetched and built once when run as
# root without MEMCACHED_DIR (deb-src enabled in its own sources file,
# apt-get source, the build dependencies, bear -- make).
src=${RAVEL_BENCH_SRC:-$HOME/.cache/ravel-bench}
if [ -z "${MEMCACHED_DIR:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
    mc=$(ls -d "$src"/memcached-*/ 2>/dev/null | head -n 1 || true)
    if [ -z "$mc" ]; then
        mkdir -p "$src"
        if ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ /etc/apt/sources.list; then
            printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
                > /etc/apt/sources.list.d/ravel-deb-src.sources
        fi
        apt-get update -qq > /dev/null
        (cd "$src" && apt-get source -qq memcached > /dev/null 2>&1)
        apt-get build-dep -y -qq memcached > /dev/null 2>&1 || apt-get install -y -qq libevent-dev bear > /dev/null
        mc=$(ls -d "$src"/memcached-*/ | head -n 1)
    fi
    if [ ! -f "$mc/compile_commands.json" ]; then
        (cd "$mc" && ./configure > /dev/null && bear -- make -j2 memcached > /dev/null)
    fi
    MEMCACHED_DIR=${mc%/}
fi
if [ -n "${MEMCACHED_DIR:-}" ] && [ -f "$MEMCACHED_DIR/compile_commands.json" ]; then
    lines=$(cat "$MEMCACHED_DIR"/*.c | wc -l)
    measure "memcached (-p)" "$lines" "" -p "$MEMCACHED_DIR"
else
    echo "memcached: set MEMCACHED_DIR to a source tree with compile_commands.json (bear -- make)"
fi
