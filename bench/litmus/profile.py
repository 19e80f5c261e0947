#!/usr/bin/env python3
"""Per-phase profile of `ravel litmus` on the litmus corpus (issue 18, part 1).
Prints figures; asserts nothing.

  bench/litmus/profile.py [--ravel PATH] [--corpus DIR] [--models sc,ra,tso] [-j N]

For each model and mode (all states, --verdict-only) it runs ravel once over
every test of <corpus>/tests in one process with --json, and splits the
wall-clock time into the phases the JSON reports per test: parse (reading
and parsing the file), es (event structure), build (logic structure and the
model's formula), ground, solve (SAT calls: enumeration or the verdict's
two), and "rest" (process start, loading the model, printing: wall minus
the phases). Beside it: herd7's summed Time lines from <corpus>/manifest.tsv
for the same model (herd7 7.58 on a 2-core machine) and the ratio herd7 /
ravel; with -j N also the wall time of `-j N` and its ratio. Then the five
slowest tests of each run with their largest phase.
"""
import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--ravel", default=os.path.join(here, "..", "..", "build", "ravel"))
ap.add_argument("--corpus", default=os.path.join(here, "..", "..", "..", "shared", "corpus", "litmus"))
ap.add_argument("--models", default="sc,ra,tso")
ap.add_argument("-j", type=int, default=2)
a = ap.parse_args()
tests = os.path.join(a.corpus, "tests")
if not os.path.isdir(tests):
    sys.exit("profile.py: no corpus at %s (give --corpus)" % a.corpus)

herd = {}
with open(os.path.join(a.corpus, "manifest.tsv")) as f:
    for r in csv.DictReader(f, delimiter="\t"):
        herd[r["model"]] = herd.get(r["model"], 0.0) + float(r["herd7_seconds"] or 0)


def run(args):
    t0 = time.monotonic()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([a.ravel, "litmus", "-q", "--json"] + args + [tests], capture_output=True, text=True)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    try:
        rows = json.loads(p.stdout)
    except ValueError:
        sys.exit("profile.py: ravel printed no JSON (exit %d): %s" % (p.returncode, p.stderr[-400:]))
    return wall, cpu, rows


phases = ["parse", "es", "build", "ground", "solve"]
print("load average when started: %.2f %.2f %.2f" % os.getloadavg())
print("%-6s %-7s %6s %8s %8s | %s | %7s %9s %7s %s" % (
    "model", "mode", "tests", "wall s", "cpu s", " ".join("%7s" % p for p in phases + ["rest"]),
    "herd7 s", "herd/rav", "-j wall", "herd/-j"))
slow = []
for model in a.models.split(","):
    for mode in ("all", "verdict"):
        args = ["-m", model] + (["--verdict-only"] if mode == "verdict" else [])
        wall, cpu, rows = run(args)
        sums = {p: sum(r.get("time_" + p, 0.0) for r in rows) for p in phases}
        rest = wall - sum(sums.values())
        jwall = run(args + ["-j", str(a.j)])[0] if a.j > 1 else None
        h = herd.get(model)
        print("%-6s %-7s %6d %8.2f %8.2f | %s | %7s %9s %7s %s" % (
            model, mode, len(rows), wall, cpu,
            " ".join("%7.2f" % v for v in [sums[p] for p in phases] + [rest]),
            "%.1f" % h if h else "-", "%.1fx" % (h / wall) if h else "-",
            "%.2f" % jwall if jwall else "-", "%.1fx" % (h / jwall) if h and jwall else "-"))
        top = sorted(rows, key=lambda r: -r.get("time", 0))[:5]
        for r in top:
            big = max(phases, key=lambda p: r.get("time_" + p, 0))
            slow.append((model, mode, r.get("time", 0), os.path.relpath(r["file"], tests), big,
                         r.get("sat_calls"), r.get("events")))
print("\nslowest tests (model, mode, seconds, test, largest phase, SAT calls, events):")
for s in slow:
    print("  %-4s %-7s %7.3f  %-58s %-6s %6s %5s" % s)
