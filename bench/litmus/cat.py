#!/usr/bin/env python3
"""What the cat path costs against the hand-written models: prints tables,
asserts nothing about timing.

  bench/litmus/cat.py [--ravel PATH] [--corpus DIR] [--nmax N] [--cutoff S]

(a) the litmus corpus (CORPUS/tests), every file with an sc (ra) row, under
    -m sc against -model sc.cat (ravel's library) and -m ra against
    -model CORPUS/models/ra.cat, full and --verdict-only: the sum of the
    JSON "time" fields (ravel's per-test time) and the ratio cat/built-in;
(b) the SB, MP and LB families of gen.py, n = 2..NMAX threads, one run per
    file, --verdict-only, sc and ra, built-in against cat; a family stops
    after a run over --cutoff seconds. The answers must agree (a row that
    differs is marked DIFFER).
Defaults: build/ravel, <repo>/../shared/corpus/litmus, NMAX 32, cutoff 20 s.
Quote the machine's load (uptime) with the figures."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))


def run(ravel, model_args, files, verdict_only):
    cmd = [ravel, "litmus", "-q", "--json", "--timeout", "120"] + model_args
    if verdict_only:
        cmd.append("--verdict-only")
    out, total = [], 0.0
    for i in range(0, len(files), 200):
        p = subprocess.run(cmd + files[i:i + 200], capture_output=True, text=True)
        if p.returncode not in (0, 3, 5):
            sys.exit(f"ravel exited {p.returncode}: {p.stderr[:500]}")
        for obj in json.loads(p.stdout):
            out.append(obj)
            total += obj.get("time", 0.0)
    return out, total


def answers(objs):
    return [(o.get("verdict"), o.get("observation"), o.get("positive"), o.get("negative")) for o in objs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ravel", default=os.path.join(repo, "build", "ravel"))
    ap.add_argument("--corpus", default=os.path.join(repo, "..", "shared", "corpus", "litmus"))
    ap.add_argument("--nmax", type=int, default=32)
    ap.add_argument("--cutoff", type=float, default=20.0)
    a = ap.parse_args()
    with open("/proc/loadavg") as f:
        print(f"load average: {f.read().split()[0]}")
    models = {"sc": ["-model", "sc.cat"], "ra": ["-model", os.path.join(a.corpus, "models", "ra.cat")]}
    manifest = os.path.join(a.corpus, "manifest.tsv")
    if os.path.exists(manifest):
        print("\n(a) corpus: sum of per-test times, seconds")
        print(f"{'model':6} {'mode':13} {'tests':>6} {'built-in':>9} {'cat':>9} {'cat/built-in':>13}")
        for m, catargs in models.items():
            files = set()
            with open(manifest) as f:
                for line in f:
                    w = line.split("\t")
                    if len(w) > 1 and w[1] == m:
                        files.add(os.path.join(a.corpus, w[0]))
            files = sorted(files)
            for vo in (False, True):
                b, tb = run(a.ravel, ["-m", m], files, vo)
                c, tc = run(a.ravel, catargs, files, vo)
                flag = "" if answers(b) == answers(c) else "  DIFFER"
                print(f"{m:6} {'verdict-only' if vo else 'full':13} {len(files):6} {tb:9.2f} {tc:9.2f} "
                      f"{tc / tb if tb else 0:13.2f}{flag}")
    with tempfile.TemporaryDirectory() as gen:
        subprocess.run([sys.executable, os.path.join(here, "gen.py"), "--nmax", str(a.nmax),
                        "--families", "SB,MP,LB", gen], check=True, capture_output=True)
        print("\n(b) scaling families, --verdict-only, per-test time in seconds")
        print(f"{'family':7} {'n':>3} {'sc':>8} {'sc.cat':>8} {'ra':>8} {'ra.cat':>8}")
        for fam in ("SB", "MP", "LB"):
            stopped = set()
            for n in range(2, a.nmax + 1):
                path = os.path.join(gen, fam, f"{fam}_n{n:02d}.litmus")
                if not os.path.exists(path):
                    continue
                row, ans = [], []
                for m, catargs in models.items():
                    for args in (["-m", m], catargs):
                        key = (m, args[0])
                        if key in stopped:
                            row.append("-")
                            continue
                        objs, t = run(a.ravel, args, [path], True)
                        ans.append((m, answers(objs)))
                        row.append(f"{t:.2f}" if objs[0].get("verdict") != "unknown" else "unknown")
                        if t > a.cutoff or objs[0].get("verdict") == "unknown":
                            stopped.add(key)
                differ = any(x[1] != y[1] for x, y in zip(ans, ans[1:]) if x[0] == y[0])
                print(f"{fam:7} {n:3} " + " ".join(f"{c:>8}" for c in row) + ("  DIFFER" if differ else ""))
                if len(stopped) == 4:
                    break


if __name__ == "__main__":
    main()
