#!/usr/bin/env bash
# bench/cfront/deadlock.sh: `ravel deadlock -p DB -q --json` on the databases
# run.sh built (fio lbzip2 xz-utils zstd rsyslog by default), niced, one at a
# time, each under `timeout ${TIMEOUT:-600}`. Prints per program: time, exit
# code, functions, threads, lock dependencies, findings by kind, and the
# number of error lines (units left out). Figures only.
#
#   bench/cfront/deadlock.sh [PROGRAM...]
#   RAVEL, RAVEL_BENCH_DIR, STATUS=FILE, JOBS as for run.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ravel=${RAVEL:-$here/../../build/ravel}
bench=${RAVEL_BENCH_DIR:-$HOME/.cache/ravel-bench}
programs=${*:-fio lbzip2 xz-utils zstd rsyslog}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows=()
log_row() { rows+=("$1"); printf '%s\n' "$1" >&2; } # progress on stderr as each one ends
printf 'ravel: %s built %s UTC\n' "$ravel" "$(date -u -r "$ravel" '+%F %H:%M')" >&2
for p in $programs; do
    db=$(find "$bench/src/$p" -mindepth 2 -maxdepth 2 -name compile_commands.json 2> /dev/null | head -n 1)
    [ -n "$db" ] || { log_row "$(printf '%-10s no compile_commands.json (run run.sh %s first)' "$p" "$p")"; continue; }
    dir=$(dirname "$db")
    start=$(date +%s.%N)
    timeout "${TIMEOUT:-600}" nice -n 19 "$ravel" deadlock -p "$dir" -q --json -j "${JOBS:-1}" \
        > "$tmp/out" 2> "$tmp/err"
    rc=$?
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    cp "$tmp/out" "$dir/ravel-deadlock.json"
    cp "$tmp/err" "$dir/ravel-deadlock.err"
    log_row "$(python3 - "$p" "$rc" "$secs" "$tmp/out" "$tmp/err" <<'PY'
import collections, json, sys
p, rc, secs, out, err = sys.argv[1:]
errs = sum(1 for l in open(err, errors="replace") if ": error: " in l)
try:
    j = json.load(open(out))
    kinds = collections.Counter(f["kind"] for f in j["findings"])
    k = ", ".join("%s %d" % kv for kv in sorted(kinds.items())) or "none"
    print("%-10s %7.1f %4s %9s %7s %6s %8s  %s" % (p, float(secs), rc, j.get("functions"), j.get("threads"),
          j.get("dependencies"), errs, k))
except (ValueError, KeyError, OSError):
    print("%-10s %7.1f %4s   (no JSON result) %d error lines" % (p, float(secs), rc, errs))
PY
)"
done
{
    printf '\n`ravel deadlock -p DB -q --json -j %s` (nice 19, timeout %s; load %s; %s built %s UTC)\n\n```\n' \
        "${JOBS:-1}" "${TIMEOUT:-600}" "$(cut -d' ' -f1-3 /proc/loadavg)" "$ravel" "$(date -u -r "$ravel" '+%F %H:%M')"
    printf '%-10s %7s %4s %9s %7s %6s %8s  %s\n' program secs exit functions threads deps errlines findings
    printf '%s\n' "${rows[@]}"
    printf '```\n'
} | tee -a "${STATUS:-/dev/null}"
