#!/usr/bin/env bash
# selftest.sh: checks run_case.sh itself with a fake ravel, so that an e2e
# test is known to fail when it should (exit status, stdout, stderr), and that
# the @DIR@/@EX@/@TMP@ tokens, globs, `ignore` and RAVEL_E2E_UPDATE work.
#   selftest.sh RUN_CASE_SH WORK_DIR
set -euo pipefail
run_case=$1
work=$2
rm -rf "$work"
mkdir -p "$work/ex/litmus" "$work/cases"
work=$(cd "$work" && pwd)
ex=$work/ex
touch "$ex/litmus/b.litmus" "$ex/litmus/a.litmus"

# The fake ravel prints its arguments and working directory, a Time line,
# something on stderr, and exits with $FAKE_EXIT (default 3).
fake=$work/fake-ravel
cat > "$fake" <<'FAKE'
#!/usr/bin/env bash
for a in "$@"; do echo "arg: $a"; done
echo "cwd: $PWD"
echo "Time 0.0$RANDOM"
echo "warning: from stderr" >&2
exit "${FAKE_EXIT:-3}"
FAKE
chmod +x "$fake"

fails=0
newcase() { # name cmd-line
    mkdir -p "$work/cases/$1"
    printf '%s\n' "$2" > "$work/cases/$1/cmd"
}
expect() { # want(pass|fail) name [env...]
    local want=$1 name=$2
    shift 2
    local got=pass
    env "$@" bash "$run_case" "$fake" "$work/cases/$name" "$ex" "$work/run/$name" \
        > "$work/$name.log" 2>&1 || got=fail
    if [ "$got" != "$want" ]; then
        echo "selftest: case $name: wanted $want, got $got"
        cat "$work/$name.log"
        fails=$((fails + 1))
    else
        echo "selftest: case $name: $got as wanted"
    fi
}

# A new case: the update mode creates every expectation, then it passes.
newcase good 'litmus @EX@/litmus/*.litmus @DIR@/x.litmus -o @TMP@/out'
printf '^Time \n' > "$work/cases/good/ignore"
expect pass good RAVEL_E2E_UPDATE=1
expect pass good
grep -qx 'arg: @EX@/litmus/a.litmus' "$work/cases/good/expected_stdout" || {
    echo "selftest: glob or @EX@ not applied"; fails=$((fails + 1)); }
grep -qx 'arg: @EX@/litmus/b.litmus' "$work/cases/good/expected_stdout" || {
    echo "selftest: glob not expanded"; fails=$((fails + 1)); }
grep -qx 'arg: @DIR@/x.litmus' "$work/cases/good/expected_stdout" || {
    echo "selftest: @DIR@ not replaced back"; fails=$((fails + 1)); }
grep -qx 'cwd: @TMP@' "$work/cases/good/expected_stdout" || {
    echo "selftest: not run in @TMP@"; fails=$((fails + 1)); }
if grep -q '^Time' "$work/cases/good/expected_stdout"; then
    echo "selftest: ignore file not applied"; fails=$((fails + 1))
fi
[ "$(cat "$work/cases/good/expected_exit")" = 3 ] || {
    echo "selftest: expected_exit not written"; fails=$((fails + 1)); }

# Each kind of mismatch fails.
expect fail good FAKE_EXIT=0
cp -r "$work/cases/good" "$work/cases/bad_stdout"
echo "one more line" >> "$work/cases/bad_stdout/expected_stdout"
expect fail bad_stdout
grep -q '^-one more line' "$work/bad_stdout.log" || {
    echo "selftest: no unified diff printed"; fails=$((fails + 1)); }
cp -r "$work/cases/good" "$work/cases/bad_stderr"
echo "warning: something else" > "$work/cases/bad_stderr/expected_stderr"
expect fail bad_stderr
cp -r "$work/cases/good" "$work/cases/no_ignore"
rm "$work/cases/no_ignore/ignore"
expect fail no_ignore

# Only the expectations that exist are compared (and updated).
newcase exit_only 'anything'
echo 3 > "$work/cases/exit_only/expected_exit"
expect pass exit_only
expect pass exit_only RAVEL_E2E_UPDATE=1
[ ! -e "$work/cases/exit_only/expected_stdout" ] || {
    echo "selftest: update created an expectation the case did not have"; fails=$((fails + 1)); }

# Broken cases fail rather than pass.
newcase no_expected_exit 'x'
expect fail no_expected_exit
newcase bad_number 'x'
echo three > "$work/cases/bad_number/expected_exit"
expect fail bad_number

if [ $fails != 0 ]; then
    echo "selftest: $fails check(s) failed"
    exit 1
fi
echo "selftest: all checks passed"
