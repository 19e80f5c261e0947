#!/usr/bin/env bash
# bench/cfront/pch_probe.sh DB-DIR [REGEX]: builds pch_probe.c and runs it on
# the C units of DB-DIR/compile_commands.json (those whose path matches
# REGEX), without and with PCHs shared by units that begin with the same
# #include (mode 1) or the same run of #include lines (mode 2). Figures
# only; see pch_probe.c.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
llvm=$(llvm-config-19 --prefix 2> /dev/null || echo /usr/lib/llvm-19)
cc -O2 -Wall -Wextra -o "$tmp/probe" "$here/pch_probe.c" -I"$llvm/include" -L"$llvm/lib" -lclang -Wl,-rpath,"$llvm/lib"
python3 - "$1" "${2:-.}" > "$tmp/args" <<'PY'
import json, os, re, sys
d, rx = sys.argv[1], re.compile(sys.argv[2])
seen = set()
for e in json.load(open(os.path.join(d, "compile_commands.json"))):
    f = os.path.normpath(e["file"] if os.path.isabs(e["file"]) else os.path.join(e["directory"], e["file"]))
    if not f.endswith(".c") or not rx.search(f):
        continue
    a = e.get("arguments") or e["command"].split()
    a = [x for x in a[1:] if x != "-c"]
    if "-o" in a:
        i = a.index("-o"); del a[i:i + 2]
    a = [x for x in a if x != e["file"] and os.path.normpath(os.path.join(e["directory"], x)) != f]
    if (f, tuple(a)) in seen:
        continue
    seen.add((f, tuple(a)))
    print("\t".join([e["directory"], f] + a))
PY
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
PCH_DIR=$tmp "$tmp/probe" "$tmp/args" 0 2> /dev/null
PCH_DIR=$tmp "$tmp/probe" "$tmp/args" 1 2> /dev/null
PCH_DIR=$tmp "$tmp/probe" "$tmp/args" 2 2> /dev/null
