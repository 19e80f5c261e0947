#!/bin/sh
# bench/race/run.sh: ravel race on every SV-COMP no-data-race task: per task
# the answer, the races found, time and peak memory, then the totals (the
# same script as bench/check, for the race property). Arguments are passed on
# (--timeout S, --markdown, --ravel PATH, --corpus DIR).
here=$(dirname "$0")
exec python3 "$here/../check/run.py" --property no-data-race "$@"
