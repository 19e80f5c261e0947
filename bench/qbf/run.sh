#!/usr/bin/env bash
# The QBF benchmark: solve times of ravel's built-in QBF solver (sat/qbf)
# against DepQBF, run as a separate program. Builds nothing; prints tables,
# asserts nothing about timing.
#
#   bench/qbf/run.sh [--scale K]
#
# BUILD   the build directory (default <repo>/build): needs
#         BUILD/tests/sat_qbf_bench and BUILD/ravel
#
# Two tables: random QBF families (qbf_bench; --scale K multiplies the
# instance counts), and the QBFs of the example litmus tests under the
# model sc-so (acyclicity as a universal second-order quantifier), written
# with `ravel litmus --dump-qbf` — the consistent-execution queries.
# Columns: instances, true/false/unknown (built-in), disagreements, total
# seconds of each solver, the slowest instance of each, and the built-in
# solver's iterations per instance. DepQBF's times include starting the
# process (tens of milliseconds); the built-in solver runs in this process.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
BUILD="${BUILD:-$repo/build}"
bench="$BUILD/tests/sat_qbf_bench"
ravel="$BUILD/ravel"

for f in "$bench" "$ravel"; do
    if [[ ! -x "$f" ]]; then
        echo "run.sh: no $f (build first: cmake --build build)" >&2
        exit 2
    fi
done
if ! command -v depqbf > /dev/null; then
    echo "run.sh: depqbf is not on PATH (apt-get install depqbf)" >&2
    exit 2
fi

echo "== random families"
"$bench" "$@"

echo
echo "== litmus examples, model sc-so (QBF of the consistent executions)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
files=()
for t in "$repo"/examples/litmus/*.litmus; do
    name="$(basename "$t" .litmus)"
    "$ravel" litmus -q -m sc-so --verdict-only --dump-qbf "$tmp/$name.qdimacs" "$t" > /dev/null
    files+=("$tmp/$name.qdimacs")
done
"$bench" "${files[@]}"
