#!/usr/bin/env bash
# bench/deadlock: throughput of `ravel deadlock`. For each input prints the
# lines of C and the seconds of four runs: -j1 without a cache, -j2 with an
# empty cache (cold, which fills it: the lowered units and the summaries,
# --cache DIR), again (cached), and after a one-function edit of one file
# (change); lines per second (cold), peak memory (MB, of all runs), the
# findings, the units parsed by the cached and the changed run (0 and 1
# when the cache works), and for generated code bases whether every planted
# deadlock was reported. Figures only; nothing here is asserted.
#
# Inputs:
#  - code bases made by gen.py (about 22 lines per function; the last one
#    has more than a million lines) with planted deadlocks;
#  - memcached, GNU grep and coreutils' sort (restricted to the translation
#    units sort is built from: src/sort.c, src/version.c and lib/, i.e.
#    libver and libcoreutils; only they are built), from Debian source
#    packages under
#    $RAVEL_BENCH_SRC (default ~/.cache/ravel-bench). Run as root, the
#    script fetches them itself (deb-src enabled in its own sources file,
#    apt-get source, apt-get build-dep, ./configure, bear -- make); not
#    root, it uses what is there and says what is missing.
#    MEMCACHED_DIR / GREP_DIR / COREUTILS_DIR override the trees.
#
#   bench/deadlock/run.sh [RAVEL]          (default build/ravel)
#   SIZES="20x30 200x240" bench/deadlock/run.sh   (modules x functions)
#   ONLY="memcached grep sort generated" bench/deadlock/run.sh
#   ONLY="xz-utils zstd lbzip2 rsyslog fio" bench/deadlock/run.sh
#     (after bench/cfront/run.sh built them; every run keeps ravel's
#     default 600 s budget, so a run that does not finish shows ~600 s)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ravel=${1:-$here/../../build/ravel}
ravel=$(cd "$(dirname "$ravel")" && pwd)/$(basename "$ravel")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
only=${ONLY:-memcached grep sort generated}
src=${RAVEL_BENCH_SRC:-$HOME/.cache/ravel-bench}

printf '%-20s %8s %7s %7s %7s %7s %8s %7s %8s %7s %s\n' \
    input lines j1-s cold-s cached-s change-s lines/s peak-MB findings parsed planted

# run ARGS...: one ravel run; sets secs kb parsed (units parsed, RAVEL_TIMES)
run1() {
    RAVEL_TIMES=1 /usr/bin/time -f '%e %M' -o "$tmp/time" "$ravel" deadlock "$@" > "$tmp/out" 2> "$tmp/err"
    read -r secs kb < <(tail -n 1 "$tmp/time")
    parsed=$(sed -n 's/.*units: \([0-9]*\) parsed.*/\1/p' "$tmp/err")
}

# measure NAME LINES PLANTED EDIT-FILE ARGS...: -j1 without a cache, then
# -j2 with an empty cache (cold, which fills it), again (cached), and after
# a one-function edit of EDIT-FILE (a function appended; the file is put
# back afterwards): the time of the text run each, peak memory of all.
measure() {
    local name=$1 lines=$2 planted=$3 edit=$4; shift 4
    local cache=$tmp/cache-$name
    rm -rf "$cache"
    run1 -j1 --no-cache "$@";             local j1=$secs peak=$kb
    cp "$tmp/out" "$tmp/out.plain"
    run1 -j2 --cache "$cache" "$@";       local cold=$secs; peak=$(( kb > peak ? kb : peak ))
    cp "$tmp/out" "$tmp/out.cold"
    run1 -j2 --cache "$cache" "$@";       local warm=$secs warmparsed=$parsed; peak=$(( kb > peak ? kb : peak ))
    cmp -s "$tmp/out" "$tmp/out.cold" || echo "  ($name: the cached run printed something else than the cold run)"
    cmp -s "$tmp/out.plain" "$tmp/out.cold" || echo "  ($name: the run with a cache printed something else than the one without)"
    local change=- changeparsed=-
    if [ -n "$edit" ] && cp "$edit" "$tmp/edit.bak" 2> /dev/null; then
        printf '\nint ravel_bench_edit_%s(int x) { return x + 1; }\n' "$$" >> "$edit"
        run1 -j2 --cache "$cache" "$@";   change=$secs changeparsed=$parsed
        cp "$tmp/edit.bak" "$edit" && touch -r "$tmp/edit.bak" "$edit"
    fi
    local found; found=$(grep -c ': deadlock: \|: self-deadlock: ' "$tmp/out.cold" || true)
    local check=-
    if [ -n "$planted" ]; then
        local missing=0
        while read -r a b; do
            grep -q ": deadlock: lock cycle of 2 locks: $a -> $b -> $a" "$tmp/out.cold" || missing=$((missing + 1))
        done < "$planted"
        check="$(( $(wc -l < "$planted") - missing ))/$(wc -l < "$planted")"
    fi
    awk -v n="$name" -v l="$lines" -v j1="$j1" -v c="$cold" -v w="$warm" -v ch="$change" \
        -v k="$peak" -v f="$found" -v pa="${warmparsed:-?}/${changeparsed:-?}" -v p="$check" \
        'BEGIN { printf "%-20s %8d %7.2f %7.2f %7.2f %7s %8.0f %7.1f %8d %7s %s\n",
                 n, l, j1, c, w, ch, (c > 0 ? l / c : 0), k / 1024, f, pa, p }'
}

# lines of the translation units of a compilation database (optionally only
# those whose path matches a regex); prints the files, one a line
db_files() { # dir [regex]
    python3 - "$1" "${2:-.}" <<'PY'
import json, os, re, sys
d, rx = sys.argv[1], re.compile(sys.argv[2])
seen = set()
for e in json.load(open(os.path.join(d, "compile_commands.json"))):
    f = e["file"] if os.path.isabs(e["file"]) else os.path.join(e["directory"], e["file"])
    f = os.path.normpath(f)
    if f.endswith(".c") and rx.search(f) and f not in seen and os.path.exists(f):
        seen.add(f)
        print(f)
PY
}

# fetch PACKAGE: a Debian source tree with compile_commands.json under $src
# (as root: apt-get source / build-dep, configure, bear -- make); prints it
fetch() { # package [make targets]
    local pkg=$1 targets=${2:-} dir
    dir=$(ls -d "$src/$pkg"-[0-9]*/ 2>/dev/null | head -n 1)
    dir=${dir%/}
    if [ -n "$dir" ] && [ -f "$dir/compile_commands.json" ]; then echo "$dir"; return 0; fi
    if [ "$(id -u)" != 0 ] || ! command -v apt-get > /dev/null; then
        echo "$pkg: not root: fetch it yourself (apt-get source $pkg; apt-get build-dep $pkg; ./configure; bear -- make) into $src" >&2
        return 1
    fi
    mkdir -p "$src"
    if ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ /etc/apt/sources.list; then
        printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            > /etc/apt/sources.list.d/ravel-deb-src.sources
        apt-get update -qq > /dev/null
    fi
    command -v bear > /dev/null || apt-get install -y -qq bear > /dev/null
    if [ -z "$dir" ]; then
        (cd "$src" && apt-get source -qq "$pkg" > /dev/null 2>&1)
        dir=$(ls -d "$src/$pkg"-[0-9]*/ 2>/dev/null | head -n 1)
        dir=${dir%/}
    fi
    [ -n "$dir" ] || { echo "$pkg: apt-get source failed" >&2; return 1; }
    DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq "$pkg" > /dev/null 2>&1 || true
    # Debian's patches leave configure.ac newer than the generated files;
    # make would then run this machine's (other) automake and fail, so the
    # generated files are made newer first, in the order make checks them
    (cd "$dir" && if [ ! -f Makefile ]; then
        touch aclocal.m4; sleep 1; touch configure; sleep 1
        find . -name Makefile.in -exec touch {} +; find . -name 'config.h*in' -exec touch {} +
        FORCE_UNSAFE_CONFIGURE=1 ./configure -q > /dev/null 2>&1
    fi && if [ -z "$targets" ]; then nice -n 10 bear -- make -j2 > /dev/null 2>&1
    else # only some programs: the generated sources first (BUILT_SOURCES, as `make all` does)
        printf 'ravel-built: $(BUILT_SOURCES)\n' > "$tmp/built.mk"
        nice -n 10 make -f Makefile -f "$tmp/built.mk" -j2 ravel-built > /dev/null 2>&1 &&
            nice -n 10 bear -- make -j2 $targets > /dev/null 2>&1
    fi)
    [ -f "$dir/compile_commands.json" ] || { echo "$pkg: no compile_commands.json after bear -- make" >&2; return 1; }
    echo "$dir"
}

lines_of() { xargs cat < "$1" | wc -l; }

for what in $only; do
    case $what in
    generated)
        for size in ${SIZES:-20x30 60x80 200x240}; do
            mods=${size%x*} funcs=${size#*x}
            dir=$tmp/gen$size
            python3 "$here/gen.py" "$dir" "$mods" "$funcs" 10 > /dev/null
            lines=$(cat "$dir"/*.c "$dir"/*.h | wc -l)
            measure "generated-$size" "$lines" "$dir/planted.txt" "$(ls "$dir"/*.c | head -n 1)" "$dir"/*.c
            rm -rf "$dir"
        done ;;
    memcached)
        dir=${MEMCACHED_DIR:-$(fetch memcached)} || continue
        db_files "$dir" > "$tmp/files"
        measure memcached "$(lines_of "$tmp/files")" "" "$dir/thread.c" -p "$dir" ;;
    grep)
        dir=${GREP_DIR:-$(fetch grep)} || continue
        db_files "$dir" > "$tmp/files"
        measure grep "$(lines_of "$tmp/files")" "" "$dir/src/grep.c" -p "$dir" ;;
    xz-utils|zstd|lbzip2|rsyslog|fio|pigz)
        # built by bench/cfront/run.sh (apt-get source, the program's own
        # build system under bear); the edit goes into its first C unit
        db=$(find "$src/src/$what" -mindepth 2 -maxdepth 2 -name compile_commands.json 2> /dev/null | head -n 1)
        [ -n "$db" ] || { echo "$what: no database (run bench/cfront/run.sh $what first)" >&2; continue; }
        dir=$(dirname "$db")
        db_files "$dir" > "$tmp/files"
        measure "$what" "$(lines_of "$tmp/files")" "" "$(head -n 1 "$tmp/files")" -p "$dir" ;;
    sort)
        dir=${COREUTILS_DIR:-$(fetch coreutils src/sort)} || continue
        db_files "$dir" '/(src/sort\.c|src/version\.c|lib/[^/]*\.c)$' > "$tmp/files"
        # shellcheck disable=SC2046
        measure sort "$(lines_of "$tmp/files")" "" "$dir/src/sort.c" -p "$dir" $(cat "$tmp/files") ;;
    esac
done
