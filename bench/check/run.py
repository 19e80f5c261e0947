#!/usr/bin/env python3
"""bench/check: ravel check (or, with --property no-data-race, ravel race) on
every SV-COMP task of that property in ../shared/corpus/svcomp: per task the
SV-COMP answer, the engine that answered, wall time, peak memory (GNU
time's maximum resident set), the formula size (SMT terms of the last
bounded check) and, for the partial-order engine, its rounds (unwinding
bounds tried while deepening), its refinement rounds (under --mm, the
lazy model's re-solves, summed over the unwinding rounds) and the events /
reads-from choices of the last round; then the totals: false tasks found,
true tasks proved, wrong answers. With --solver z3,cadical every task runs
once per SMT back end (a row each, the solver column says which) and the
totals are per back end. Figures, not a test: nothing here fails.

usage: bench/check/run.py [--ravel PATH] [--corpus DIR] [--property P]
                          [--timeout S] [--engine E] [--mm M] [--mm-eager]
                          [--solver z3|cadical|z3,cadical]
                          [--jobs N] [--only SUBSTR] [--markdown]"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
PO = re.compile(r"^po: unwind (\d+), (\d+) threads, (\d+) events, .*?, (\d+) rf choices, "
                r"(\d+) order clauses, .*?, (\d+) terms")
PO_RACE = re.compile(r"^po race: unwind (\d+), (\d+) threads, (\d+) events, (\d+) rf choices, "
                     r"(\d+) order clauses, (\d+) terms")
MODEL = re.compile(r"^po: model .*, (\d+) refinement rounds")


def run(a, cmd, yml, solver):
    t0 = time.time()
    timer = ["/usr/bin/time", "-f", "@peak %M"] if os.path.exists("/usr/bin/time") else []
    args = [a.ravel, cmd, "-q", "--json", yml]
    if a.timeout > 0:
        args += ["--timeout", str(a.timeout)]
    if a.engine:
        args += ["--engine", a.engine]
    if a.mm:
        args += ["--mm", a.mm]
    if a.mm_eager:
        args += ["--mm-eager"]
    if solver:
        args += ["--solver", solver]
    env = dict(os.environ, RAVEL_TIMES="1")
    p = subprocess.run(timer + args, capture_output=True, text=True, env=env)
    return p, time.time() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ravel", default=os.path.join(ROOT, "build", "ravel"))
    ap.add_argument("--corpus", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus")))
    ap.add_argument("--property", default="unreach-call", choices=["unreach-call", "no-data-race"])
    ap.add_argument("--timeout", type=float, default=60, help="0: none (the default budgets)")
    ap.add_argument("--engine", help="check --engine (default: ravel's default)")
    ap.add_argument("--mm", help="check --mm (a weak model: the engine is po)")
    ap.add_argument("--mm-eager", action="store_true", help="check --mm-eager")
    ap.add_argument("--solver", default="", help="check --solver; a comma list runs each")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", help="tasks whose name contains this")
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
    rows = [r for r in rows if r["property"] == a.property and (not a.only or a.only in r["task"])]
    sep = " | " if a.markdown else "  "
    hdr = ["task", "solver", "expected", "answer", "engine", "time s", "peak MB", "terms", "rounds",
           "refine", "events", "rf"]
    fmt = "%-55s %-7s %-8s %-8s %-8s %7s %7s %8s %6s %6s %7s %7s"
    if a.markdown:
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
    else:
        print(fmt % tuple(hdr))
    solvers = a.solver.split(",") if a.solver else [""]
    runs = [(r, sv) for r in rows for sv in solvers]
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(run, a, cmd, os.path.join(root, r["task"]), sv) for r, sv in runs]
        results = [f.result() for f in futs]
    tot = {sv: dict(t=0.0, found=0, nfalse=0, proved=0, ntrue=0, wrong=0, peak=0) for sv in solvers}
    for (r, sv), (p, secs) in zip(runs, results):
        t = tot[sv]
        peak_mb = None
        rounds, events, rf, refine, po_terms = 0, "-", "-", None, "-"
        for line in p.stderr.splitlines():
            if line.startswith("@peak "):
                peak_mb = int(line.split()[1]) / 1024
            m = PO.match(line) or PO_RACE.match(line)
            if m:
                rounds += 1
                events, rf, po_terms = m.group(3), m.group(4), m.group(6)
            m = MODEL.match(line)
            if m:
                refine = (refine or 0) + int(m.group(1))
        if peak_mb:
            t["peak"] = max(t["peak"], peak_mb)
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
                terms = po_terms
        except json.JSONDecodeError:
            pass
        t["t"] += secs
        exp = r["expected_verdict"]
        if exp == "false":
            t["nfalse"] += 1
            t["found"] += answer == "false"
        else:
            t["ntrue"] += 1
            t["proved"] += answer == "true"
        t["wrong"] += answer in ("true", "false") and answer != exp
        cells = [r["task"], sv or "default", exp, answer, str(engine), "%.2f" % secs,
                 "%.0f" % peak_mb if peak_mb else "-", str(terms), str(rounds or "-"),
                 "-" if refine is None else str(refine), events, rf]
        if a.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print(fmt % tuple(cells))
        sys.stdout.flush()
    for sv, t in tot.items():
        print("%s%s%s: %d tasks, found %d of %d false, proved %d of %d true, %d wrong, total %.1f s, "
              "peak memory %.0f MB (--timeout %g, %d jobs)"
              % (cmd, " --engine " + a.engine if a.engine else "", " --solver " + sv if sv else "",
                 len(rows), t["found"], t["nfalse"], t["proved"], t["ntrue"], t["wrong"], t["t"],
                 t["peak"], a.timeout, a.jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
