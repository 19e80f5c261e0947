#!/usr/bin/env bash
# e2e: `ravel deadlock --cache DIR` run twice on the same program. The second
# run must reuse every summary (RAVEL_TIMES reports "0 analysed") and print
# exactly what the first run and a run without the cache print; then one
# function is edited and only it (and what uses its summary) is analysed.
#   cache_twice.sh RAVEL CASE_DIR WORK_DIR
set -u
ravel=$1 case=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cp "$case/prog.c" "$work/prog.c"
fail() { echo "cache_twice: $*"; exit 1; }
"$ravel" deadlock -q "$work/prog.c" > "$work/plain.out"; plain=$?
RAVEL_TIMES=1 "$ravel" deadlock --cache "$work/cache" "$work/prog.c" > "$work/1.out" 2> "$work/1.err"; one=$?
RAVEL_TIMES=1 "$ravel" deadlock --cache "$work/cache" "$work/prog.c" > "$work/2.out" 2> "$work/2.err"; two=$?
[ "$plain" = 1 ] && [ "$one" = 1 ] && [ "$two" = 1 ] || fail "exit codes $plain $one $two, expected 1 1 1"
cmp -s "$work/plain.out" "$work/1.out" || fail "the first cached run differs from a run without cache"
cmp -s "$work/1.out" "$work/2.out" || fail "the second run differs from the first"
grep -q 'cache: 0 functions reused, [1-9][0-9]* analysed, 0 bad files' "$work/1.err" || fail "first run: $(cat "$work/1.err")"
grep -q 'cache: [1-9][0-9]* functions reused, 0 analysed, 0 bad files' "$work/2.err" || fail "second run: $(cat "$work/2.err")"
ls "$work/cache"/*.dls > /dev/null 2>&1 || fail "no cache files"
ls -a "$work/cache" | grep -q '^\.tmp' && fail "temporary files left behind"
# an edit at the end of the file, in a function nothing calls: one analysed
printf 'int unused_helper(int x) { return x + 1; }\n' >> "$work/prog.c"
RAVEL_TIMES=1 "$ravel" deadlock --cache "$work/cache" "$work/prog.c" > "$work/3.out" 2> "$work/3.err"
grep -q 'cache: [1-9][0-9]* functions reused, 1 analysed, 0 bad files' "$work/3.err" || fail "after the edit: $(cat "$work/3.err")"
# the findings are the same (the last line counts one more function)
cmp -s <(sed '$d' "$work/1.out") <(sed '$d' "$work/3.out") || fail "the edit changed the findings"
# a corrupt file is a miss, never an error
for f in "$work/cache"/*.dls; do printf 'garbage' > "$f"; done
RAVEL_TIMES=1 "$ravel" deadlock --cache "$work/cache" "$work/prog.c" > "$work/4.out" 2> "$work/4.err"; four=$?
[ "$four" = 1 ] || fail "exit $four with corrupt cache files"
cmp -s "$work/3.out" "$work/4.out" || fail "corrupt cache files changed the findings"
grep -q 'cache: 0 functions reused, [1-9][0-9]* analysed, [1-9][0-9]* bad files' "$work/4.err" || fail "corrupt: $(cat "$work/4.err")"
echo "cache_twice: ok"
