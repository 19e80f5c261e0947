#!/usr/bin/env bash
# run_case.sh: run one end-to-end case and compare with its expectations.
#
#   run_case.sh RAVEL CASE_DIR EXAMPLES_DIR [WORK_DIR]
#
# CASE_DIR holds:
#   cmd              one line: the arguments to ravel (may be empty). Split at whitespace (no
#                    quoting); then @DIR@ becomes CASE_DIR, @EX@ EXAMPLES_DIR and
#                    @TMP@ a fresh scratch folder (also the working directory);
#                    a word with * ? or [ is expanded as a file pattern when it
#                    matches (sorted).
#   expected_exit    the exit status, a number
#   expected_stdout  optional: exact stdout
#   expected_stderr  optional: exact stderr
#   ignore           optional: extended regexes, one a line; matching lines are
#                    deleted from the output (and the expectations) first
# Before comparing, the paths CASE_DIR, EXAMPLES_DIR and the scratch folder in
# the output are replaced by @DIR@, @EX@ and @TMP@. A mismatch prints a
# unified diff and exits 1.
#
# The cases run with RAVEL_SOLVER=z3 unless the environment sets it.
#
# With RAVEL_E2E_UPDATE=1 in the environment the actual results are written
# into expected_exit and the expected_stdout/expected_stderr files that exist
# instead of being compared; a new case (none of the three files yet) gets
# all three.
set -euo pipefail

if [ $# -lt 3 ]; then
    echo "usage: run_case.sh RAVEL CASE_DIR EXAMPLES_DIR [WORK_DIR]" >&2
    exit 2
fi
ravel=$1
case_dir=$(cd "$2" && pwd)
ex_dir=$(cd "$3" && pwd)
name=$(basename "$case_dir")
work=${4:-}
if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/ravel-e2e-$name.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi
rm -rf "$work"
mkdir -p "$work/tmp"
work=$(cd "$work" && pwd)
scratch=$work/tmp

die() { echo "e2e $name: $*" >&2; exit 1; }

[ -x "$ravel" ] || die "ravel binary not found or not executable: $ravel"
[ -f "$case_dir/cmd" ] || die "missing $case_dir/cmd"

# --- the command line ---
line=
IFS= read -r line < "$case_dir/cmd" || true # an empty cmd means no arguments
read -r -a words <<< "$line"
args=()
shopt -s nullglob
for w in "${words[@]}"; do
    w=${w//@DIR@/$case_dir}
    w=${w//@EX@/$ex_dir}
    w=${w//@TMP@/$scratch}
    if [[ $w == *[*?[]* ]]; then
        # Globbing without word splitting, so paths with spaces still work.
        old_ifs=$IFS
        IFS=
        # shellcheck disable=SC2206
        matches=( $w )
        IFS=$old_ifs
        if [ ${#matches[@]} -gt 0 ]; then
            args+=("${matches[@]}")
            continue
        fi
    fi
    args+=("$w")
done
shopt -u nullglob

# --- run ---
set +e
# The expected traces are Z3's models (another back end finds another
# counterexample): the cases run on Z3 unless RAVEL_SOLVER says otherwise;
# solver_verdicts.sh compares their verdicts under cadical and auto (the
# default).
export RAVEL_SOLVER=${RAVEL_SOLVER:-z3}
(cd "$scratch" && exec "$ravel" "${args[@]}") < /dev/null > "$work/stdout.raw" 2> "$work/stderr.raw"
status=$?
set -e

# normalise FILE: replace the folders by their tokens, delete ignored lines.
normalise() {
    local in=$1 out=$2 text
    text=$(cat "$in"; printf x)
    text=${text%x}
    text=${text//"$case_dir"/@DIR@}
    text=${text//"$ex_dir"/@EX@}
    text=${text//"$scratch"/@TMP@}
    if [ -s "$case_dir/ignore" ]; then
        printf '%s' "$text" | { grep -E -v -f "$case_dir/ignore" || true; } > "$out"
    else
        printf '%s' "$text" > "$out"
    fi
}
normalise "$work/stdout.raw" "$work/stdout"
normalise "$work/stderr.raw" "$work/stderr"

# --- update mode ---
if [ "${RAVEL_E2E_UPDATE:-0}" = 1 ]; then
    new_case=1 # a case without any expectation yet gets all three
    for f in expected_exit expected_stdout expected_stderr; do
        if [ -e "$case_dir/$f" ]; then
            new_case=0
        fi
    done
    echo "$status" > "$case_dir/expected_exit"
    for s in stdout stderr; do
        if [ -e "$case_dir/expected_$s" ] || [ $new_case = 1 ]; then
            cp "$work/$s" "$case_dir/expected_$s"
        fi
    done
    echo "e2e $name: expectations updated (exit $status)"
    exit 0
fi

# --- compare ---
fail=0
[ -f "$case_dir/expected_exit" ] || die "missing $case_dir/expected_exit (run with RAVEL_E2E_UPDATE=1 to create it)"
want_status=$(tr -d ' \t\r\n' < "$case_dir/expected_exit")
[[ $want_status =~ ^[0-9]+$ ]] || die "expected_exit is not a number: '$want_status'"
echo "e2e $name: ravel ${args[*]}"
if [ "$status" != "$want_status" ]; then
    echo "e2e $name: exit status $status, expected $want_status"
    fail=1
fi
for s in stdout stderr; do
    exp=$case_dir/expected_$s
    [ -e "$exp" ] || continue
    normalise "$exp" "$work/expected_$s"
    if ! cmp -s "$work/expected_$s" "$work/$s"; then
        echo "e2e $name: $s differs from expected_$s:"
        diff -u --label "expected_$s" --label "actual $s" "$work/expected_$s" "$work/$s" || true
        fail=1
    fi
done
if [ $fail = 0 ]; then
    echo "e2e $name: ok"
else
    if [ ! -e "$case_dir/expected_stderr" ] && [ -s "$work/stderr" ]; then
        echo "--- stderr (not compared) ---"
        cat "$work/stderr"
    fi
    echo "e2e $name: FAILED (to accept the new output: RAVEL_E2E_UPDATE=1 ctest -R '^e2e_$name\$')"
fi
exit $fail
