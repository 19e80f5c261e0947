#!/bin/sh
# Runs explore_driver (after KISS) on every unreach-call task of the SV-COMP
# corpus: prints task, expected verdict, found?, time, runs. Exits 1 when a
# task whose expected verdict is true gets a bug (a wrong answer).
#   corpus.sh DRIVER CORPUS_DIR [TIMEOUT_S] [extra driver args...]
drv=$1; dir=$2; to=${3:-10}; shift 3 2>/dev/null
[ -f "$dir/svcomp/manifest.tsv" ] || exit 77
log=$(mktemp)
trap 'rm -f "$log"' EXIT
{
printf '%-58s %-6s %-6s %8s %9s\n' task expect found time runs
awk -F'\t' '$2=="unreach-call" {print $1 "\t" $3}' "$dir/svcomp/manifest.tsv" |
while IFS="$(printf '\t')" read -r task exp; do
    yml="$dir/svcomp/$task"
    d=$(dirname "$yml")
    input=$(sed -n "s/^input_files: *'\{0,1\}\([^']*\)'\{0,1\}.*/\1/p" "$yml" | head -1)
    m32=
    grep -q 'ILP32' "$yml" && m32=--m32
    out=$("$drv" $m32 --timeout "$to" --max-threads 20000 "$@" "$d/$input" -- -w 2>/dev/null)
    rc=$?
    found=no; [ $rc = 1 ] && found=yes
    [ $rc = 5 ] && found=error
    line=$(echo "$out" | grep '^explore:' | head -1)
    runs=$(echo "$line" | sed -n 's/^explore: \([0-9]*\) runs.*/\1/p')
    secs=$(echo "$line" | sed -n 's/.*steps, \([0-9.]*\) s,.*/\1/p')
    printf '%-58s %-6s %-6s %8s %9s\n' "$task" "$exp" "$found" "$secs" "$runs"
    if [ "$exp" = true ] && [ $found = yes ]; then
        echo "WRONG: $task"; echo "$out" | head -5
    fi
done
} | tee "$log"
if grep -q '^WRONG' "$log"; then exit 1; fi
exit 0
