#!/usr/bin/env bash
# e2e: the per-unit cache of `ravel deadlock -p`, --capture, --capture-cc
# (one unit per process and directory, then merged) and --from. A unit
# parsed again where its key did not change is a failure: every run's
# units_parsed / units_from_cache (--json) is checked.
#   capture.sh RAVEL CASE_DIR WORK_DIR
set -u
ravel=$1 case=$2 work=$3
cc=${CC:-cc}
command -v "$cc" > /dev/null || { echo "capture: no C compiler ($cc)"; exit 77; }
rm -rf "$work" && mkdir -p "$work/src"
cp "$case"/a.c "$case"/b.c "$case"/locks.h "$case"/Makefile "$work/src/"
src=$work/src
fail() { echo "capture: $*"; exit 1; }
printf '[{"directory":"%s","file":"a.c","arguments":["cc","-c","a.c"]},{"directory":"%s","file":"b.c","arguments":["cc","-c","b.c"]}]\n' \
    "$src" "$src" > "$src/compile_commands.json"
counts() { sed -n 's/.*"units_parsed":\([0-9]*\),"units_from_cache":\([0-9]*\).*/\1 \2/p' "$1"; }
expect() { # json-file "parsed cached" what
    [ "$(counts "$1")" = "$2" ] || fail "$3: units parsed/from cache '$(counts "$1")', expected '$2'"
}
"$ravel" deadlock -q --no-cache -p "$src" > "$work/plain.out"; st=$?
[ "$st" = 1 ] || fail "-p without cache: exit $st, expected 1 (a deadlock)"
grep -q 'deadlock: lock cycle of 2 locks' "$work/plain.out" || fail "no deadlock found: $(cat "$work/plain.out")"
"$ravel" deadlock -q --json -p "$src" > "$work/1.json"; expect "$work/1.json" "2 0" "cold -p"
"$ravel" deadlock -q --json -p "$src" > "$work/2.json"; expect "$work/2.json" "0 2" "second -p"
cmp -s <(sed 's/"units_parsed.*//' "$work/1.json") <(sed 's/"units_parsed.*//' "$work/2.json") ||
    fail "the cached run reports something else"
"$ravel" deadlock -q -p "$src" > "$work/2.out"
cmp -s "$work/plain.out" "$work/2.out" || fail "cached text output differs from the uncached one"
ls "$src/.ravel-cache"/*.rtu > /dev/null 2>&1 || fail "no unit files in BUILD_DIR/.ravel-cache"
ls -a "$src/.ravel-cache" | grep -q '\.tmp\.' && fail "temporary files left behind"
# one function of b.c changed: b.c parsed again, a.c not
sed -i 's/counter--;/counter -= 2;/' "$src/b.c"
"$ravel" deadlock -q --json -p "$src" > "$work/3.json"; expect "$work/3.json" "1 1" "b.c edited"
"$ravel" deadlock -q --json -p "$src" > "$work/4.json"; expect "$work/4.json" "0 2" "after the edit"
# the header both include changed: both parsed again
printf '/* a comment */\n' >> "$src/locks.h"
"$ravel" deadlock -q --json -p "$src" > "$work/5.json"; expect "$work/5.json" "2 0" "header edited"
# other flags: another key
printf '[{"directory":"%s","file":"a.c","arguments":["cc","-DX=1","-c","a.c"]},{"directory":"%s","file":"b.c","arguments":["cc","-c","b.c"]}]\n' \
    "$src" "$src" > "$src/compile_commands.json"
"$ravel" deadlock -q --json -p "$src" > "$work/6.json"; expect "$work/6.json" "1 1" "a.c's flags changed"
# a corrupt unit file is a miss: parsed again, same findings
for f in "$src/.ravel-cache"/*.rtu; do printf 'RVTU\001garbage' > "$f"; done
"$ravel" deadlock -q --json -p "$src" > "$work/7.json"; st=$?
[ "$st" = 1 ] || fail "corrupt unit files: exit $st"
expect "$work/7.json" "2 0" "corrupt unit files"
"$ravel" deadlock -q -p "$src" > "$work/7.out"
cmp -s "$work/plain.out" "$work/7.out" || fail "findings changed after corrupt unit files"

# capture of each unit in a process and a directory of its own, then merged
(cd "$src" && "$ravel" deadlock --capture-cc "$work/cap1" -- "$cc" -c a.c -o a.o) || fail "capture of a.c failed"
(cd "$src" && "$ravel" deadlock --capture-cc "$work/cap2" -- "$cc" -c b.c -o b.o) || fail "capture of b.c failed"
[ -f "$src/a.o" ] && [ -f "$src/b.o" ] || fail "the wrapper did not run the compiler"
[ "$(ls "$work/cap1" | wc -l)" = 2 ] && [ "$(ls "$work/cap2" | wc -l)" = 2 ] ||
    fail "a unit's capture wrote other than its own two files: $(ls "$work/cap1" "$work/cap2")"
mkdir -p "$work/merged" && cp "$work/cap1"/* "$work/cap2"/* "$work/merged/"
"$ravel" deadlock -q --from "$work/merged" > "$work/from.out"; st=$?
[ "$st" = 1 ] || fail "--from: exit $st, expected 1"
cmp -s "$work/plain.out" "$work/from.out" || fail "--from differs from -p: $(diff "$work/plain.out" "$work/from.out")"
"$ravel" deadlock -q --json --from "$work/merged" > "$work/from.json"; expect "$work/from.json" "0 2" "--from"
# a failing compilation: the compiler's status, nothing captured
(cd "$src" && "$ravel" deadlock --capture-cc "$work/cap3" -- "$cc" -c missing.c -o m.o 2> /dev/null); st=$?
[ "$st" != 0 ] || fail "a failing compiler gave status 0"
[ -z "$(ls "$work/cap3" 2> /dev/null)" ] || fail "a failed compilation was captured"
# the whole build under --capture (make: CC= on its command line)
if command -v make > /dev/null; then
    rm -f "$src"/*.o "$src/prog"
    (cd "$src" && CC=$cc "$ravel" deadlock -q --capture "$work/capmake" -- make -s) > /dev/null 2>&1 ||
        fail "--capture -- make failed"
    [ -x "$src/prog" ] || fail "the build under --capture did not link"
    "$ravel" deadlock -q --from "$work/capmake" > "$work/make.out"
    cmp -s "$work/plain.out" "$work/make.out" || fail "--from after --capture -- make differs from -p"
    # make again with nothing to do, then one file touched: the capture holds both units
    sleep 1; touch "$src/b.c"
    (cd "$src" && CC=$cc "$ravel" deadlock -q --capture "$work/capmake" -- make -s) > /dev/null 2>&1 ||
        fail "the second --capture -- make failed"
    "$ravel" deadlock -q --json --from "$work/capmake" > "$work/make.json"; expect "$work/make.json" "0 2" "--from after a rebuild"
fi
# no units, a missing directory: errors
mkdir -p "$work/empty"
"$ravel" deadlock -q --from "$work/empty" > /dev/null 2> "$work/empty.err"; st=$?
[ "$st" = 5 ] || fail "--from an empty directory: exit $st, expected 5"
grep -q 'no captured unit' "$work/empty.err" || fail "empty: $(cat "$work/empty.err")"
"$ravel" deadlock -q --from "$work/nowhere" > /dev/null 2>&1; st=$?
[ "$st" = 5 ] || fail "--from a missing directory: exit $st, expected 5"
# a captured unit file that is not one: an error naming it
for f in "$work/merged"/*.rtu; do printf 'nonsense' > "$f"; done
"$ravel" deadlock -q --from "$work/merged" > /dev/null 2> "$work/bad.err"; st=$?
[ "$st" = 5 ] || fail "--from with broken unit files: exit $st, expected 5"
grep -q 'error: the captured unit of .* is missing or not one' "$work/bad.err" || fail "broken: $(cat "$work/bad.err")"
# a unit with a C error: cached with its error, which every run reports
mkdir -p "$work/bad"
printf 'int f(void) { return undeclared_name; }\nint main(void) { return f(); }\n' > "$work/bad/e.c"
printf '[{"directory":"%s","file":"e.c","arguments":["cc","-c","e.c"]}]\n' "$work/bad" > "$work/bad/compile_commands.json"
"$ravel" deadlock -q --json -p "$work/bad" > "$work/bad1.json" 2> "$work/bad1.err"; st1=$?
"$ravel" deadlock -q --json -p "$work/bad" > "$work/bad2.json" 2> "$work/bad2.err"; st2=$?
[ "$st1" = 5 ] && [ "$st2" = 5 ] || fail "a unit with an error: exit $st1 $st2, expected 5 5"
grep -q "e.c:1:22: error: use of undeclared identifier 'undeclared_name'" "$work/bad2.err" ||
    fail "the cached unit's error is not reported: $(cat "$work/bad2.err")"
cmp -s "$work/bad1.err" "$work/bad2.err" || fail "the cached run reports other diagnostics"
expect "$work/bad2.json" "0 1" "a cached unit with an error"
# gcc compiles what clang cannot (a nested function): captured with clang's error, reported by --from
if "$cc" --version 2> /dev/null | grep -qi 'gcc\|free software'; then
    printf 'int main(void) { int g(int x) { return x; } return g(0); }\n' > "$work/bad/n.c"
    (cd "$work/bad" && "$ravel" deadlock --capture-cc "$work/capn" -- "$cc" -c n.c -o n.o) || fail "capture of n.c failed"
    "$ravel" deadlock -q --from "$work/capn" > /dev/null 2> "$work/n.err"; st=$?
    [ "$st" = 5 ] || fail "--from a unit clang could not lower: exit $st, expected 5"
    grep -q 'n.c:1:.*error: .*nested function' "$work/n.err" || fail "nested: $(cat "$work/n.err")"
fi
echo "capture: ok"
