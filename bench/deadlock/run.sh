#!/usr/bin/env bash
# bench/deadlock: throughput of `ravel deadlock`. Figures only; nothing here
# is asserted.
#
# Generated code bases (gen.py: about 22 lines per function; the last one
# has more than a million lines, with planted deadlocks): the lines of C and
# the seconds of four runs: -j1 without a cache, -j2 with an empty cache
# (cold, which fills it: the lowered units and the summaries, --cache DIR),
# again (cached), and after a one-function edit of one file (change); lines
# per second (cold), peak memory (MB, of all runs), the findings, the units
# parsed by the cached and the changed run (0 and 1 when the cache works),
# and whether every planted deadlock was reported.
#
# Real Debian programs, each built by its own build system under
# `ravel deadlock --capture DIR -- make ...` (as Debian builds it; the tree
# configured by bench/cfront/run.sh, which fetches it with apt-get source,
# is copied and `make clean`ed first; configure is not run under the
# capture). Per program: the lines of the captured C sources, the units
# captured, the seconds of the build under the capture (compiler and
# lowering), of `--from DIR` with an empty --cache (cold) and again
# (cached), of the incremental build under the capture after a function
# appended to one file and of the --from that follows (change); then
# `-p` on the program's compilation database with no cache at -j2 (ravel's
# own cold time, every unit parsed) and its lines per second; the peak
# memory of the ravel runs (--from and -p; the capture's peak is the
# compiler's); the findings of the cold --from.
#
#   bench/deadlock/run.sh [RAVEL]          (default build/ravel)
#   SIZES="20x30 200x240" bench/deadlock/run.sh   (modules x functions)
#   ONLY="memcached grep sort generated" bench/deadlock/run.sh
#   ONLY="xz-utils zstd lbzip2 rsyslog fio pixz" bench/deadlock/run.sh
#     (default: every program and the generated code bases; run
#     bench/cfront/run.sh PROGRAM first for a program not yet fetched: sort
#     is coreutils' src/sort, pixz replaces pigz, whose source the mirror
#     lacks)
#   TIMEOUT=60    the budget of each ravel run on a real program (--timeout;
#                 rsyslog needs it). All programs and the generated code
#                 bases take about 25 minutes on 2 busy cores.
#   J1=1          also a -j1 -p run of each real program
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ravel=${1:-$here/../../build/ravel}
ravel=$(cd "$(dirname "$ravel")" && pwd)/$(basename "$ravel")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
only=${ONLY:-memcached grep sort xz-utils zstd lbzip2 fio rsyslog pixz generated}
src=${RAVEL_BENCH_SRC:-$HOME/.cache/ravel-bench}/src
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"

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

# the C files of a compilation database (optionally only those whose path
# matches a regex), one a line
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

# the configured tree of PROGRAM (bench/cfront/run.sh made it), or nothing
tree_of() {
    local db; db=$(find "$src/$1" -mindepth 2 -maxdepth 2 -name compile_commands.json 2> /dev/null | head -n 1)
    [ -n "$db" ] && dirname "$db"
}

# timed DIR LOG CMD...: runs CMD in DIR (stdout and stderr to LOG); sets secs kb
timed() {
    local dir=$1 log=$2; shift 2
    (cd "$dir" && /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" > "$log" 2>&1)
    read -r secs kb < <(tail -n 1 "$tmp/time")
}

# capture_measure NAME TREE EDIT-FILE(relative) [DBREGEX] -- MAKE-ARGS...:
# the build under --capture in a copy of TREE, --from cold/cached, the
# one-function change, and -p on TREE's database (see the head)
capture_measure() {
    local name=$1 tree=$2 edit=$3 rx=$4; shift 5
    local w=$tmp/cap-$name; rm -rf "$w"; mkdir -p "$w"
    cp -a "$tree" "$w/tree"; rm -rf "$w/tree/.ravel-cache"
    local budget=(--timeout "${TIMEOUT:-60}")
    (cd "$w/tree" && make clean > /dev/null 2>&1
     # generated sources first when only some programs are built
     if [ "$rx" != . ]; then
         printf 'ravel-built: $(BUILT_SOURCES)\n' > "$w/built.mk"
         make -f Makefile -f "$w/built.mk" -j2 ravel-built > /dev/null 2>&1
     fi)
    timed "$w/tree" "$w/capture.log" "$ravel" deadlock --capture "$w/units" -- make -j2 "$@"
    local capsecs=$secs
    local units; units=$(ls "$w/units"/*.rtm 2> /dev/null | wc -l)
    local lines; lines=$(sed -n 's/^path //p' "$w/units"/*.rtm 2> /dev/null | sort -u | xargs cat 2> /dev/null | wc -l)
    run1 -j2 "${budget[@]}" --from "$w/units" --cache "$w/cache"; local cold=$secs peak=$kb
    cp "$tmp/out" "$tmp/out.cold"
    local found; found=$(grep -c ': deadlock: \|: self-deadlock: ' "$tmp/out.cold" || true)
    grep -q '^incomplete' "$tmp/out.cold" && found="$found (budget)"
    run1 -j2 "${budget[@]}" --from "$w/units" --cache "$w/cache"; local warm=$secs; peak=$(( kb > peak ? kb : peak ))
    cmp -s "$tmp/out" "$tmp/out.cold" || echo "  ($name: the cached run printed something else than the cold run)"
    printf '\nint ravel_bench_edit_%s(int x) { return x + 1; }\n' "$$" >> "$w/tree/$edit"
    timed "$w/tree" "$w/change.log" "$ravel" deadlock --capture "$w/units" -- make -j2 "$@"
    local chcap=$secs
    run1 -j2 "${budget[@]}" --from "$w/units" --cache "$w/cache"; local chfrom=$secs; peak=$(( kb > peak ? kb : peak ))
    local files=()
    [ "$rx" != . ] && mapfile -t files < <(db_files "$tree" "$rx")
    local j1=-
    if [ "${J1:-0}" = 1 ]; then run1 -j1 "${budget[@]}" --no-cache -p "$tree" "${files[@]}"; j1=$secs; fi
    run1 -j2 "${budget[@]}" --no-cache -p "$tree" "${files[@]}"; local pcold=$secs; peak=$(( kb > peak ? kb : peak ))
    awk -v n="$name" -v l="$lines" -v u="$units" -v c="$capsecs" -v fc="$cold" -v fw="$warm" \
        -v cc="$chcap" -v cf="$chfrom" -v j1="$j1" -v p="$pcold" -v k="$peak" -v f="$found" \
        'BEGIN { printf "%-12s %8d %5d %8.1f %7.2f %7.2f %7.1f %7.2f %6s %7.2f %8.0f %7.0f  %s\n",
                 n, l, u, c, fc, fw, cc, cf, j1, p, (p > 0 ? l / p : 0), k / 1024, f }'
    rm -rf "$w"
}

printed_gen=0 printed_real=0
for what in $only; do
    case $what in
    generated)
        [ $printed_gen = 1 ] || printf '%-20s %8s %7s %7s %7s %7s %8s %7s %8s %7s %s\n' \
            input lines j1-s cold-s cached-s change-s lines/s peak-MB findings parsed planted
        printed_gen=1
        for size in ${SIZES:-20x30 60x80 200x240}; do
            mods=${size%x*} funcs=${size#*x}
            dir=$tmp/gen$size
            python3 "$here/gen.py" "$dir" "$mods" "$funcs" 10 > /dev/null
            lines=$(cat "$dir"/*.c "$dir"/*.h | wc -l)
            measure "generated-$size" "$lines" "$dir/planted.txt" "$(ls "$dir"/*.c | head -n 1)" "$dir"/*.c
            rm -rf "$dir"
        done ;;
    memcached | grep | sort | xz-utils | zstd | lbzip2 | fio | rsyslog | pixz)
        pkg=$what; [ "$what" = sort ] && pkg=coreutils
        tree=$(tree_of "$pkg") || { echo "$what: no configured tree under $src/$pkg (run bench/cfront/run.sh $pkg first)" >&2; continue; }
        [ $printed_real = 1 ] || printf '%-12s %8s %5s %8s %7s %7s %7s %7s %6s %7s %8s %7s  %s\n' \
            program lines units build-s from-s cached-s chg-b-s chg-f-s p-j1-s p-j2-s lines/s peak-MB findings
        printed_real=1
        case $what in
        memcached) capture_measure memcached "$tree" thread.c . -- ;;
        grep) capture_measure grep "$tree" src/grep.c . -- ;;
        sort) capture_measure sort "$tree" src/sort.c '/(src/sort\.c|src/version\.c|lib/[^/]*\.c)$' -- src/sort ;;
        xz-utils) capture_measure xz-utils "$tree" src/liblzma/common/stream_encoder_mt.c . -- ;;
        zstd) capture_measure zstd "$tree" lib/compress/zstdmt_compress.c . -- V=1 PREFIX=/usr ;;
        lbzip2) capture_measure lbzip2 "$tree" src/main.c . -- ;;
        fio) capture_measure fio "$tree" backend.c . -- ;;
        rsyslog) capture_measure rsyslog "$tree" runtime/queue.c . -- ;;
        pixz) capture_measure pixz "$tree" src/pixz.c . -- ;;
        esac ;;
    *) echo "$what: unknown input" >&2 ;;
    esac
done
