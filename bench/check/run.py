#!/usr/bin/env python3
"""bench/check: ravel check (or, with --property no-data-race, ravel race) on
every SV-COMP task of that property in ../shared/corpus/svcomp: per task the
SV-COMP answer, the engine that answered, wall time, peak memory (GNU
time's maximum resident set) and the formula size (SMT terms of the last
bounded check), then the totals. Figures, not a test: nothing here fails.

usage: bench/check/run.py [--ravel PATH] [--corpus DIR] [--property P]
                          [--timeout S] [--markdown]"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ravel", default=os.path.join(ROOT, "build", "ravel"))
    ap.add_argument("--corpus", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus")))
    ap.add_argument("--property", default="unreach-call", choices=["unreach-call", "no-data-race"])
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    root = os.path.join(a.corpus, "svcomp")
    if not os.path.isdir(root):
        print("no corpus at", a.corpus)
        return 0
    cmd = "check" if a.property == "unreach-call" else "race"
    with open(os.path.join(root, "manifest.tsv")) as f:
        lines = [l.rstrip("\n").split("\t") for l in f]
    head = lines[0]
    rows = [dict(zip(head, l)) for l in lines[1:]]
    rows = [r for r in rows if r["property"] == a.property]
    sep = " | " if a.markdown else "  "
    hdr = ["task", "expected", "answer", "engine", "time s", "peak MB", "terms"]
    if a.markdown:
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
    else:
        print("%-62s %-8s %-8s %-8s %8s %8s %9s" % tuple(hdr))
    tot_t = found = nfalse = 0
    peak_max = 0
    for r in rows:
        yml = os.path.join(root, r["task"])
        t0 = time.time()
        timer = ["/usr/bin/time", "-f", "@peak %M"] if os.path.exists("/usr/bin/time") else []
        p = subprocess.run(timer + [a.ravel, cmd, "-q", "--json", "--timeout", str(a.timeout), yml],
                           capture_output=True, text=True)
        secs = time.time() - t0
        peak_mb = None
        for line in p.stderr.splitlines():
            if line.startswith("@peak "):
                peak_mb = int(line.split()[1]) / 1024
        if peak_mb:
            peak_max = max(peak_max, peak_mb)
        out = p.stdout.split("\n", 1)
        answer = out[0].strip()
        engine = terms = "-"
        try:
            j = json.loads(out[1]) if len(out) > 1 else {}
            if cmd == "check":
                engine = j.get("engine", "-")
                terms = j.get("terms", "-")
            else:
                engine = "%d races" % len(j.get("races", []))
        except json.JSONDecodeError:
            pass
        tot_t += secs
        if r["expected_verdict"] == "false":
            nfalse += 1
            found += answer == "false"
        cells = [r["task"], r["expected_verdict"], answer, str(engine), "%.2f" % secs,
                 "%.0f" % peak_mb if peak_mb else "-", str(terms)]
        if a.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print("%-62s %-8s %-8s %-8s %8s %8s %9s" % tuple(cells))
        sys.stdout.flush()
    print("%s: %d tasks, found %d of %d false tasks, total %.1f s, peak memory %.0f MB "
          "(--timeout %g)" % (cmd, len(rows), found, nfalse, tot_t, peak_max, a.timeout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
