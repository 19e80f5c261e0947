#!/usr/bin/env python3
"""Issue 18's table in one run: prints figures, asserts nothing about timing.

  bench/litmus/issue.py [--ravel PATH] [--corpus DIR] [-j N] [--no-depqbf]

Three tables, each beside its goal:
(1) the whole corpus (<corpus>/tests) in one ravel process, all states and
    --verdict-only, under sc and ra: wall seconds against herd7's summed
    Time for the same model. herd7 runs on the same files when it is on
    PATH; it is not packaged in Debian 12, so otherwise its times are the
    Time lines recorded in <corpus>/manifest.tsv (herd7 7.58, a 2-core
    machine), and the table says which. One core first; then -j N apart.
(2) the hard families (gen.py: IRIW n=16, 2+2W, WRC and ISA2 at n=32),
    verdict-only under sc, tso and ra: ravel's own time per test (JSON).
(3) J+R: each Java causality test (pridemm-jctc-lisa) under -m jr
    --verdict-only: the answer against PrideMM's (tests 3, 7 and 11
    reversed, as the corpus README says), ravel's time, the size of the
    test's QBF (--dump-qbf: variables, clauses, quantifier blocks with their
    sizes) and, when depqbf is on PATH, DepQBF's answer on both queries
    (--qbf-solver) and its time.
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--ravel", default=os.path.join(here, "..", "..", "build", "ravel"))
ap.add_argument("--corpus", default=os.path.join(here, "..", "..", "..", "shared", "corpus", "litmus"))
ap.add_argument("-j", type=int, default=2)
ap.add_argument("--no-depqbf", action="store_true")
a = ap.parse_args()
tests = os.path.join(a.corpus, "tests")
if not os.path.isdir(tests) or not os.access(a.ravel, os.X_OK):
    sys.exit("issue.py: need the corpus (%s) and a built ravel (%s)" % (tests, a.ravel))


def ravel_json(args, timeout=600):
    p = subprocess.run([a.ravel, "litmus", "-q", "--json"] + args, capture_output=True, text=True,
                       timeout=timeout)
    try:
        return json.loads(p.stdout)
    except ValueError:
        return []


def load():
    return "load %.2f %.2f %.2f" % os.getloadavg()


print("issue 18 table, %s, %s" % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), load()))

# (1) whole corpus, one process
herd7 = shutil.which("herd7")
herd = {}
with open(os.path.join(a.corpus, "manifest.tsv")) as f:
    for r in csv.DictReader(f, delimiter="\t"):
        herd[r["model"]] = herd.get(r["model"], 0.0) + float(r["herd7_seconds"] or 0)
print("\n(1) whole corpus, one process (%s)" % tests)
if herd7:
    print("    herd7 is on PATH (%s), but the figures below are the manifest's Time lines" % herd7)
else:
    print("    herd7 is not installed (not packaged in Debian 12): herd7 s = the summed Time lines"
          " of <corpus>/manifest.tsv (herd7 7.58, 2-core machine)")
print("%-5s %-11s %6s %8s %8s %8s %6s %5s | %10s %8s" % (
    "model", "mode", "tests", "wall s", "herd7 s", "ratio", "goal", "met", "-j%d wall" % a.j, "ratio"))
for model in ("sc", "ra"):
    for mode, goal in (("all states", 10), ("verdict", 20)):
        args = ["-m", model] + (["--verdict-only"] if mode == "verdict" else []) + [tests]
        t0 = time.monotonic()
        rows = ravel_json(args)
        wall = time.monotonic() - t0
        t0 = time.monotonic()
        ravel_json(["-j", str(a.j)] + args)
        jwall = time.monotonic() - t0
        h = herd.get(model, 0.0)
        print("%-5s %-11s %6d %8.2f %8.1f %7.1fx %5dx %5s | %10.2f %7.1fx" % (
            model, mode, len(rows), wall, h, h / wall, goal, "yes" if h / wall >= goal else "NO",
            jwall, h / jwall))

# (2) hard families
print("\n(2) hard families, verdict-only, ravel's own time per test (goal < 1 s), %s" % load())
gen = tempfile.mkdtemp(prefix="ravel-issue18-")
try:
    subprocess.run([sys.executable, os.path.join(here, "gen.py"), "--nmin", "16", "--nmax", "32",
                    "--families", "IRIW,2+2W,WRC,ISA2", "--kvalues", "2", gen],
                   check=True, capture_output=True)
    print("%-12s %-22s %-22s %-22s" % ("test", "sc", "tso", "ra"))
    for fam, n in (("IRIW", 16), ("2+2W", 32), ("WRC", 32), ("ISA2", 32)):
        d = fam.replace("+", "p")  # gen.py's file names: 2p2W
        f = os.path.join(gen, d, "%s_n%02d.litmus" % (d, n))
        cells = []
        for model in ("sc", "tso", "ra"):
            r = ravel_json(["-m", model, "--verdict-only", f])
            r = r[0] if r else {}
            cells.append("%-9s %7.3f s %s" % (r.get("observation", r.get("verdict", "?")),
                                               r.get("time", float("nan")),
                                               "" if r.get("time", 9) < 1 else "NO"))
        print("%-12s %-22s %-22s %-22s" % ("%s n=%d" % (fam, n), *cells))
finally:
    shutil.rmtree(gen, ignore_errors=True)


# (3) J+R
def qbf_size(path):
    nv = nc = 0
    blocks = []
    with open(path) as fh:
        for line in fh:
            if line.startswith("p cnf"):
                nv, nc = int(line.split()[2]), int(line.split()[3])
            elif line[:2] in ("a ", "e "):
                blocks.append("%s%d" % (line[0], len(line.split()) - 2))
            elif line[:1].isdigit() or line[:1] == "-":
                break
    return nv, nc, " ".join(blocks)


depqbf = shutil.which("depqbf") and not a.no_depqbf
jdir = os.path.join(tests, "pridemm-jctc-lisa")
print("\n(3) J+R, -m jr --verdict-only, one process per test (goal < 1 s), %s" % load())
print("    QBF: the test's consistent configurations without the condition (--dump-qbf);"
      " blocks e/a with their sizes, outermost first")
print("%-8s %-10s %-7s %8s %7s %7s %-18s %s" % ("test", "answer", "PrideMM", "time s", "vars",
                                                 "clauses", "blocks", "DepQBF" if depqbf else ""))
total = 0.0
tmp = tempfile.mkdtemp(prefix="ravel-issue18-jr-")
try:
    for name in sorted(os.listdir(jdir), key=lambda s: int(s[4:].split("-")[0])):
        if not name.endswith(".lisa"):
            continue
        f = os.path.join(jdir, name)
        stem = name.split("-")[0]
        expect = "pass" if name.endswith("-pass.lisa") else "fail"
        if stem in ("jctc3", "jctc7", "jctc11"):
            expect = "fail" if expect == "pass" else "pass"
        r = ravel_json(["-m", "jr", "--verdict-only", f])
        r = r[0] if r else {}
        obs = r.get("observation", "unknown")
        got = "pass" if obs not in ("Never", "unknown") else "fail"
        t = r.get("time", float("nan"))
        total += t if t == t else 0
        dump = os.path.join(tmp, stem + ".qdimacs")
        ravel_json(["-m", "jr", "--verdict-only", "--dump-qbf", dump, f])
        nv, nc, blocks = qbf_size(dump) if os.path.exists(dump) else (0, 0, "?")
        dep = ""
        if depqbf:
            t0 = time.monotonic()
            d = ravel_json(["-m", "jr", "--qbf-solver", "depqbf", f])
            d = d[0] if d else {}
            dep = "%s %.2f s" % ("agrees" if d.get("observation") == obs else
                                 "DISAGREES (%s)" % d.get("observation"), time.monotonic() - t0)
        print("%-8s %-10s %-7s %8.3f %7d %7d %-18s %s" % (
            stem, obs, "ok" if got == expect else "WRONG", t, nv, nc, blocks, dep))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("J+R total %.2f s over the 13 tests" % total)
