#!/usr/bin/env bash
# e2e: the shared precompiled header (src/cfront/cpch.c) changes nothing
# of what is lowered. On a small multi-unit project (pch/: four units that
# begin with #include "proj.h", one with a macro before it) `ravel ir` and
# `ravel deadlock` print the same with and without --no-pch, at -j1 and
# -j2; the fallbacks trigger (a cleanup function of the PCH's header: the
# unit is parsed again without it; a header that says __BASE_FILE__ and a
# header with an error: no PCH); the unit cache keys a unit parsed with a
# PCH on the PCH's headers (a change to a header only the PCH reads
# re-parses the units). Two groups (the same units under two sets of
# flags, as memcached's two programs) have their PCHs built in parallel
# before any unit: the same output as without. A unit the cache has causes
# no PCH: a group with fewer units to parse than the minimum (default 3)
# builds none. Under the capture (--capture-cc, one process and directory
# per unit, RAVEL_PCH_CACHE as --capture sets it) the wrappers share a PCH
# through a cache directory: the third unit of a group builds it, later
# ones read it, a wrapper that finds the build's lock held parses as
# usual without waiting, each capture directory holds only its unit's two
# files, and --from on the merged units prints what -p does.
#   pch.sh RAVEL SRC_DIR WORK_DIR
set -u
ravel=$1 src=$2 work=$3
fail() { echo "pch: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cp -r "$src"/. "$work/"
# compile_commands.json with relative file names, per-unit outputs and
# dependency files (not part of a group's flags; libclang writes the
# dependency file, relative to its own working directory: absolute here)
db() { # dir unit...
    local d=$1; shift
    { echo '['; local sep=''
      for u in "$@"; do
          printf '%s{"directory": "%s", "file": "%s.c", "arguments": ["cc", "-c", "-O2", "-I.", "-MD", "-MF", "%s/.%s.d", "%s.c", "-o", "%s.o"]}\n' \
              "$sep" "$d" "$u" "$d" "$u" "$u" "$u"
          sep=','
      done
      echo ']'; } > "$d/compile_commands.json"
}
db "$work" a b c d e
db "$work/basefile" x y
db "$work/broken" p q
export RAVEL_PCH_MIN_BYTES=0 # the project's headers are small: share them anyway
export RAVEL_PCH_MIN_UNITS=2 # and a group of two builds one (basefile, broken)
same() { # what args...: stdout and stderr equal with and without --no-pch; sets rc
    local what=$1; shift
    "$ravel" "$@" > "$work/with.out" 2> "$work/with.err"; local e1=$?
    "$ravel" "$@" --no-pch > "$work/without.out" 2> "$work/without.err"; local e2=$?
    [ "$e1" = "$e2" ] || fail "$what: exit $e1 with the PCH, $e2 without"
    cmp -s "$work/with.out" "$work/without.out" || fail "$what: the output differs: $(diff "$work/with.out" "$work/without.out" | head -5)"
    cmp -s "$work/with.err" "$work/without.err" || fail "$what: the messages differ: $(diff "$work/with.err" "$work/without.err" | head -5)"
    rc=$e1
}
for j in 1 2; do
    same "ir -j$j" ir -q -j$j -p "$work"; [ "$rc" = 0 ] || fail "ir -j$j: exit $rc"
    same "deadlock -j$j" deadlock -q --no-cache -j$j -p "$work"; [ "$rc" = 1 ] || fail "deadlock -j$j: exit $rc"
    grep -q 'deadlock: lock cycle of 2 locks: m1 -> m2 -> m1' "$work/with.out" || fail "deadlock -j$j: the cycle is missing: $(cat "$work/with.out")"
    RAVEL_TIMES=1 "$ravel" deadlock --no-cache -j$j -p "$work" > /dev/null 2> "$work/times"
    # a, b, c, d share one PCH (e has a macro first); d is parsed again without it
    grep -q 'shared PCHs: 1 built, 3 units parsed with one, 1 parsed again without' "$work/times" ||
        fail "deadlock -j$j: $(grep 'shared PCHs' "$work/times")"
done
# __FILE__ in a unit parsed with the PCH is the unit's name as its command spells it
"$ravel" ir -q -p "$work" 2> /dev/null | grep -q '"a.c")' || fail "__FILE__ is not \"a.c\""
# __BASE_FILE__ in the header: no PCH, the same program
same "basefile" ir -q -j2 -p "$work/basefile"; [ "$rc" = 0 ] || fail "basefile: exit $rc"
grep -q 'unit_name\[0\] = 120' "$work/with.out" || fail "basefile: __BASE_FILE__ is not x.c"
RAVEL_TIMES=1 "$ravel" deadlock --no-cache -p "$work/basefile" > /dev/null 2> "$work/times"
grep -q 'shared PCHs: 0 built, 0 units parsed with one, 0 parsed again without' "$work/times" ||
    fail "basefile: $(grep 'shared PCHs' "$work/times")"
# an error in the shared header: the same error, no PCH
same "broken" ir -q -j2 -p "$work/broken"; [ "$rc" != 0 ] || fail "broken: exit 0"
grep -q "expected ';' after struct" "$work/with.err" || fail "broken: $(cat "$work/with.err")"
# the unit cache: the second run parses nothing, a change to inner.h (read
# only through the PCH) parses the five units again
for run in 1 2 3; do
    [ $run = 3 ] && printf '/* changed */\n' >> "$work/inner.h"
    RAVEL_TIMES=1 "$ravel" deadlock --cache "$work/dl" -j2 -p "$work" > "$work/c$run.out" 2> "$work/c$run.err"
done
grep -q 'units: 5 parsed, 0 from the cache' "$work/c1.err" || fail "cache run 1: $(grep 'units:' "$work/c1.err")"
grep -q 'units: 0 parsed, 5 from the cache' "$work/c2.err" || fail "cache run 2: $(grep 'units:' "$work/c2.err")"
grep -q 'units: 5 parsed, 0 from the cache' "$work/c3.err" || fail "after inner.h changed: $(grep 'units:' "$work/c3.err")"
grep -l "inner.h" "$work"/dl/units/*.rtm > /dev/null 2>&1 || fail "no manifest lists inner.h"
grep -l "ravel-pch" "$work"/dl/units/*.rtm > /dev/null 2>&1 && fail "a manifest lists the PCH's in-memory header"
cmp -s "$work/c1.out" "$work/c2.out" || fail "the cached run printed something else"
pchs() { sed -n 's/.*shared PCHs: //p' "$1"; }
# a unit the cache has is never parsed and causes no PCH: one unit changed
# (a group of one to parse) builds none, two build one (minimum 2 here),
# and with the default minimum (3) two build none
cp "$work/a.c" "$work/a.c.orig"; cp "$work/b.c" "$work/b.c.orig"; cp "$work/c.c" "$work/c.c.orig"
edit() { printf '\nint ravel_pch_edit_%s(void) { return %s; }\n' "$2" "$2" >> "$work/$1.c"; }
cached() { # n expected-units expected-pchs [env...]
    local n=$1 units=$2 want=$3; shift 3
    env "$@" RAVEL_TIMES=1 "$ravel" deadlock --cache "$work/dl" -j2 -p "$work" > "$work/c$n.out" 2> "$work/c$n.err"
    grep -q "units: $units" "$work/c$n.err" || fail "cache run $n: $(grep 'units:' "$work/c$n.err")"
    [ "$(pchs "$work/c$n.err")" = "$want" ] || fail "cache run $n: shared PCHs: $(pchs "$work/c$n.err"), expected $want"
    "$ravel" deadlock -q --no-cache --no-pch -j2 -p "$work" > "$work/c$n.plain" 2> /dev/null
    cmp -s "$work/c$n.out" "$work/c$n.plain" || fail "cache run $n: not what a run without cache and PCH prints"
}
edit a 1
cached 4 '1 parsed, 4 from the cache' '0 built, 0 units parsed with one, 0 parsed again without'
edit b 2; edit c 3
cached 5 '2 parsed, 3 from the cache' '1 built, 2 units parsed with one, 0 parsed again without'
edit b 4; edit c 5
cached 6 '2 parsed, 3 from the cache' '0 built, 0 units parsed with one, 0 parsed again without' -u RAVEL_PCH_MIN_UNITS
for f in a b c; do cp "$work/$f.c.orig" "$work/$f.c"; done
# two groups (the units under two sets of flags): both PCHs built before
# any unit, in parallel at -j2; the same as without, at -j1 and -j2
mkdir -p "$work/two"
{ echo '['; sep=''
  for v in 1 2; do for u in a b c d e; do
      printf '%s{"directory": "%s", "file": "%s.c", "arguments": ["cc", "-c", "-O2", "-I.", "-DVARIANT=%s", "%s.c", "-o", "%s-%s.o"]}\n' \
          "$sep" "$work" "$u" "$v" "$u" "$u" "$v"
      sep=','
  done; done
  echo ']'; } > "$work/two/compile_commands.json"
for j in 1 2; do
    same "two groups ir -j$j" ir -q -j$j -p "$work/two"; [ "$rc" = 0 ] || fail "two groups ir -j$j: exit $rc"
    same "two groups deadlock -j$j" deadlock -q --no-cache -j$j -p "$work/two"; [ "$rc" = 1 ] || fail "two groups deadlock -j$j: exit $rc"
    grep -q 'deadlock: lock cycle of 2 locks: m1 -> m2 -> m1' "$work/with.out" || fail "two groups -j$j: the cycle is missing"
    RAVEL_TIMES=1 "$ravel" deadlock --no-cache -j$j -p "$work/two" > /dev/null 2> "$work/times"
    [ "$(pchs "$work/times")" = '2 built, 6 units parsed with one, 2 parsed again without' ] ||
        fail "two groups -j$j: shared PCHs: $(pchs "$work/times")"
done
# the capture: one process and one directory per unit, a shared PCH cache
if command -v cc > /dev/null; then
    pc=$work/pchcache
    capture() { # unit capture-dir [env...]: sets what (the wrapper's PCH line)
        local u=$1 d=$2; shift 2
        (cd "$work" && env "$@" RAVEL_PCH_CACHE="$pc" RAVEL_TIMES=1 RAVEL_PCH_MIN_UNITS=3 \
            "$ravel" deadlock --capture-cc "$d" -- cc -c -O2 -I. "$u.c" -o "$u.o") 2> "$work/cap.err" ||
            fail "capture of $u.c failed: $(cat "$work/cap.err")"
        what=$(sed -n 's/.*capture: 1 unit, //p' "$work/cap.err")
        [ "$(ls -A "$d" | wc -l)" = 2 ] || fail "the capture of $u.c wrote other than its two files: $(ls -A "$d")"
    }
    want() { [ "$what" = "$1" ] || fail "capture of $2: '$what', expected '$1'"; }
    capture a "$work/cap/a"; want '0 parsed with a shared PCH (0 built)' a.c
    capture b "$work/cap/b"; want '0 parsed with a shared PCH (0 built)' b.c
    # the build's lock held by another process: c parses as usual, at once
    lock=$(ls "$pc"/*.seen | sed 's/\.seen$/.lock/')
    flock "$lock" bash -c "$(declare -f capture fail); ravel='$ravel' work='$work' pc='$pc'; capture c '$work/cap/c0'; echo \"\$what\" > '$work/locked'"
    [ "$(cat "$work/locked")" = '0 parsed with a shared PCH (0 built)' ] || fail "capture with the lock held: $(cat "$work/locked")"
    ls "$pc"/*.pch > /dev/null 2>&1 && fail "a PCH was built while its lock was held"
    capture c "$work/cap/c"; want '1 parsed with a shared PCH (1 built)' c.c
    [ "$(ls "$pc"/*.pch | wc -l)" = 1 ] || fail "not one PCH in the cache: $(ls "$pc")"
    capture d "$work/cap/d"; want '0 parsed with a shared PCH (0 built)' d.c # the cleanup: parsed again without
    capture e "$work/cap/e"; want '0 parsed with a shared PCH (0 built)' e.c # in no group
    capture a "$work/cap/a2"; want '1 parsed with a shared PCH (0 built)' "a.c again"
    ls -A "$pc" | grep -q '\.tmp\.' && fail "temporary files left in the PCH cache"
    mkdir -p "$work/merged" && cp "$work"/cap/[a-e]/* "$work/merged/"
    "$ravel" deadlock -q --from "$work/merged" > "$work/from.out" 2> /dev/null
    "$ravel" deadlock -q --no-cache --no-pch -p "$work" > "$work/p.out" 2> /dev/null
    cmp -s "$work/from.out" "$work/p.out" || fail "--from on the units captured with the PCH differs from -p: $(diff "$work/from.out" "$work/p.out" | head -5)"
    # a header touched since (its content the same): clang rejects the PCH,
    # the unit is parsed as usual, the next one builds the PCH again
    sleep 1; touch "$work/proj.h"
    capture b "$work/cap/b2"; want '0 parsed with a shared PCH (0 built)' "b.c after touch"
    capture c "$work/cap/c2"; want '1 parsed with a shared PCH (1 built)' "c.c after touch"
    # a corrupt manifest is none
    for m in "$pc"/*.pcm; do printf 'garbage\n' > "$m"; done
    capture b "$work/cap/b3"; want '1 parsed with a shared PCH (1 built)' "b.c after a corrupt manifest"
fi
echo "pch: ok"
