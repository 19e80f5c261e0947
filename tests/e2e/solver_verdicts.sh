#!/usr/bin/env bash
# solver_verdicts.sh: every `check` and `race` e2e case again with another
# SMT back end (RAVEL_SOLVER, smt.h), compared on its verdict: the exit
# status, the answer (the first line up to its first ':' or ' on ', the whole first
# line when the exit status is 0, the "verdict" of a JSON answer) and the
# last line (bounds and engine). Traces may differ: each back end's model
# is another counterexample.
#
#   solver_verdicts.sh RAVEL CASES_DIR EXAMPLES_DIR WORK_DIR SOLVER
set -euo pipefail
ravel=$1 cases=$(cd "$2" && pwd) ex=$3 work=$4 solver=$5
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
cp -r "$cases" "$work/cases"

key() { # key EXIT STDOUT_FILE
    local first last
    first=$(head -n 1 "$2" 2>/dev/null || true)
    last=$(tail -n 1 "$2" 2>/dev/null || true)
    if [[ $first == '{'* ]]; then
        first=$(grep -o '"verdict":"[^"]*"' <<< "$first" | head -n 1 || true)
        last=
    elif [ "$1" != 0 ]; then
        first=${first%%:*}
        first=${first%% on *} # which of several races comes first may differ
    fi
    printf '%s | %s | %s\n' "$1" "$first" "$last"
}

n=0 bad=0
for dir in "$work"/cases/check_* "$work"/cases/race_*; do
    [ -f "$dir/cmd" ] && [ -f "$dir/expected_exit" ] && [ -f "$dir/expected_stdout" ] || continue
    name=$(basename "$dir")
    # a case with a time limit tests the budget, and its answer depends on
    # how far each back end got in it: not a verdict to compare
    [ -f "$dir/time_limit" ] && continue
    want=$(key "$(cat "$dir/expected_exit")" "$dir/expected_stdout")
    RAVEL_SOLVER=$solver RAVEL_E2E_UPDATE=1 bash "$here/run_case.sh" "$ravel" "$dir" "$ex" \
        "$work/run/$name" > /dev/null 2>&1 || true
    got=$(key "$(cat "$dir/expected_exit")" "$dir/expected_stdout")
    n=$((n + 1))
    if [ "$want" != "$got" ]; then
        echo "$name: $solver answers differently"
        echo "  expected: $want"
        echo "  got:      $got"
        bad=$((bad + 1))
    fi
done
echo "$n cases with --solver $solver, $bad different"
[ "$n" -gt 50 ] && [ "$bad" = 0 ]
