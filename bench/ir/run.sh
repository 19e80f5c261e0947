#!/usr/bin/env bash
# bench/ir: front-end throughput. Prints, for each input, lines, wall time,
# lines per second and peak memory of `ravel ir` (lowering plus printing to
# /dev/null). Inputs: generated single-file programs of growing size, and
# memcached's sources when a compilation database for them is found at
# $MEMCACHED_DIR (bear -- make). Figures only; nothing here is a test.
#   bench/ir/run.sh [RAVEL]   (default build/ravel)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ravel=${1:-$here/../../build/ravel}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-28s %9s %8s %12s %10s\n' input lines seconds lines/s peak-MB
measure() { # name file args...
    local name=$1 file=$2; shift 2
    local lines; lines=$(wc -l < "$file")
    /usr/bin/time -f '%e %M' -o "$tmp/time" "$ravel" ir -q "$@" > /dev/null
    read -r secs kb < "$tmp/time"
    awk -v n="$name" -v l="$lines" -v s="$secs" -v k="$kb" \
        'BEGIN { printf "%-28s %9d %8.2f %12.0f %10.1f\n", n, l, s, (s > 0 ? l / s : 0), k / 1024 }'
}
for n in 100 1000 5000; do
    python3 "$here/gen.py" "$n" > "$tmp/gen$n.c"
    measure "generated-$n-modules" "$tmp/gen$n.c" "$tmp/gen$n.c"
done
# The preprocessed size clang really parses (headers included).
clang-19 -E "$tmp/gen5000.c" -o "$tmp/gen5000.i"
measure "generated-5000 (.i)" "$tmp/gen5000.i" "$tmp/gen5000.i"
if [ -n "${MEMCACHED_DIR:-}" ] && [ -f "$MEMCACHED_DIR/compile_commands.json" ]; then
    lines=$(cat "$MEMCACHED_DIR"/*.c | wc -l)
    /usr/bin/time -f '%e %M' -o "$tmp/time" "$ravel" ir -q -p "$MEMCACHED_DIR" > /dev/null || true
    read -r secs kb < "$tmp/time"
    awk -v l="$lines" -v s="$secs" -v k="$kb" \
        'BEGIN { printf "%-28s %9d %8.2f %12.0f %10.1f\n", "memcached (-p)", l, s, l / s, k / 1024 }'
else
    echo "memcached: set MEMCACHED_DIR to a source tree with compile_commands.json (bear -- make)"
fi
