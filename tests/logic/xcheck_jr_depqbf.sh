#!/bin/sh
# xcheck_jr_depqbf.sh RAVEL DIR: every jr query of the test suite's jr
# tests (the .lisa files below DIR/litmus_jr_*), decided by the built-in QBF
# solver and by DepQBF (--qbf-solver depqbf: both QBFs of each verdict);
# the Observations must be the same. Exit 77 when depqbf is not installed.
ravel=$1
dir=$2
command -v depqbf >/dev/null 2>&1 || { echo "depqbf not installed: skipped"; exit 77; }
n=0
bad=0
for f in "$dir"/litmus_jr_*/*.lisa; do
    case "$f" in *2+2W*) continue ;; esac # memory condition: unknown, no query
    own=$("$ravel" litmus -q -m jr --verdict-only "$f" | grep '^Observation')
    dep=$("$ravel" litmus -q -m jr --verdict-only --qbf-solver depqbf "$f" | grep '^Observation')
    n=$((n + 1))
    if [ "$own" = "$dep" ] && [ -n "$own" ]; then
        echo "agree     $own"
    else
        echo "DISAGREE  built-in: $own / depqbf: $dep ($f)"
        bad=$((bad + 1))
    fi
done
echo "jr: built-in QBF solver vs DepQBF on $n tests (two queries each): $bad disagreements"
[ "$bad" -eq 0 ] && [ "$n" -gt 0 ]
