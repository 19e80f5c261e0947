#!/usr/bin/env bash
# The litmus benchmark. Builds nothing; prints tables, asserts nothing about timing.
#
#   bench/litmus/run.sh [--quick] [run.py options]
#
# RAVEL    the binary (default ../../build/ravel relative to this script)
# CORPUS   the corpus's litmus directory (default <repo>/../shared/corpus/litmus)
# GEN_DIR  where gen.py writes the scaling families (default: a fresh temporary
#          directory, removed afterwards)
#
# First issue 18's table (issue.py: whole corpus in one process against
# herd7, hard families, J+R per test with its QBF sizes); --issue stops there.
# --quick limits the scaling families to n = 2..8 (about a minute in all).
# Other options go to run.py: --cutoff S (stop a family after a run over S
# seconds, 30), --timeout S (ravel --timeout, 60), --skip-corpus,
# --corpus-models sc,tso,ra,c11 (the models of the corpus section; all four by default).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
RAVEL="${RAVEL:-$here/../../build/ravel}"
CORPUS="${CORPUS:-$repo/../shared/corpus/litmus}"

if [[ ! -x "$RAVEL" ]]; then
    echo "run.sh: no ravel binary at $RAVEL (build it, or set RAVEL=path)" >&2
    exit 2
fi
if [[ ! -f "$CORPUS/manifest.tsv" ]]; then
    echo "run.sh: no corpus at $CORPUS (set CORPUS=path to the corpus's litmus directory)" >&2
    exit 2
fi

quick=()
nmax=32
args=()
only_issue=""
for a in "$@"; do
    if [[ "$a" == "--issue" ]]; then
        only_issue=1
    elif [[ "$a" == "--quick" ]]; then
        quick=(--quick)
        nmax=8
    else
        args+=("$a")
    fi
done

python3 "$here/issue.py" --ravel "$RAVEL" --corpus "$CORPUS"
[[ -n "$only_issue" ]] && exit 0
echo

cleanup=""
if [[ -z "${GEN_DIR:-}" ]]; then
    GEN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/ravel-bench-litmus.XXXXXX")"
    cleanup="$GEN_DIR"
fi
trap '[[ -n "$cleanup" ]] && rm -rf -- "$cleanup"' EXIT

python3 "$here/gen.py" --nmax "$nmax" "$GEN_DIR"
python3 "$here/run.py" --ravel "$RAVEL" --gen "$GEN_DIR" --corpus "$CORPUS" \
    ${quick[@]+"${quick[@]}"} ${args[@]+"${args[@]}"}
