#!/usr/bin/env bash
# e2e: a cycle search cut short by its limits is reported as incomplete
# (exit 3, `"stopped": "search"`), never as "no finding". The limits are
# lowered through RAVEL_DL_SEARCH_BUDGET on a program with one deadlock;
# with the default limits the deadlock is found (exit 1).
#   search_budget.sh RAVEL PROGRAM WORK_DIR
set -u
ravel=$1 prog=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "search_budget: $*"; exit 1; }
"$ravel" deadlock --no-cache "$prog" > "$work/full.out"; full=$?
[ "$full" = 1 ] || fail "default limits: exit $full, expected 1"
RAVEL_DL_SEARCH_BUDGET=1 "$ravel" deadlock --no-cache "$prog" > "$work/cut.out"; cut=$?
[ "$cut" = 3 ] || fail "limit 1: exit $cut, expected 3: $(cat "$work/cut.out")"
grep -q '^incomplete: the cycle search reached its limit' "$work/cut.out" ||
    fail "limit 1: no incomplete line: $(cat "$work/cut.out")"
RAVEL_DL_SEARCH_BUDGET=1 "$ravel" deadlock --no-cache --json "$prog" > "$work/cut.json"; cj=$?
[ "$cj" = 3 ] || fail "limit 1, --json: exit $cj, expected 3"
grep -q '"stopped": *"search"' "$work/cut.json" || fail "limit 1, --json: no \"stopped\": \"search\""
echo "search_budget: ok"
