#!/usr/bin/env bash
# e2e: `ravel deadlock --cache DIR` after an edit that changes only which
# function is stored in which object (a.c, then b.c at the same path). A call
# resolved by the object it reads its pointer from depends on stores anywhere
# in the program, which no component's key covers: the second run must print
# what a run without the cache prints (b.c has a deadlock, a.c none).
#   cache_stores.sh RAVEL CASE_DIR WORK_DIR
set -u
ravel=$1 case=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "cache_stores: $*"; exit 1; }
cp "$case/a.c" "$work/prog.c"
"$ravel" deadlock --cache "$work/cache" "$work/prog.c" > "$work/1.out"; one=$?
cp "$case/b.c" "$work/prog.c"
"$ravel" deadlock --cache "$work/cache" "$work/prog.c" > "$work/2.out"; two=$?
"$ravel" deadlock --no-cache "$work/prog.c" > "$work/plain.out"; plain=$?
[ "$one" = 0 ] && [ "$two" = 1 ] && [ "$plain" = 1 ] || fail "exit codes $one $two $plain, expected 0 1 1"
grep -q '^1 deadlock,' "$work/plain.out" || fail "no deadlock without the cache: $(tail -1 "$work/plain.out")"
cmp -s "$work/plain.out" "$work/2.out" || fail "the cached run after the edit differs from a run without cache"
echo "cache_stores: ok"
