#!/usr/bin/env python3
"""bench/check/mm.py: po's memory models, eager grounding against lazy
refinement (issue 13, part 2), on litmus-shaped C programs: the e2e
programs of tests/e2e/cases/check_po_mm_* and bench/check/mm/*.c. Per
program and setting (sc by clocks; sc by the formula, tso, ra and c11,
each eager and lazy): the answer, wall time, the clauses the model
grounds to at first and, for lazy, the refinement rounds and the clauses
they added (RAVEL_TIMES). Figures, not a test: nothing here fails, except
that eager and lazy must answer alike (exit 1 when they do not).

usage: bench/check/mm.py [--ravel PATH] [--unwind N] [--markdown]"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
E2E = os.path.join(ROOT, "tests", "e2e", "cases")
PROGRAMS = [
    ("SB (e2e)", os.path.join(E2E, "check_po_mm_sb_tso_bug", "prog.c")),
    ("MP rel/acq (e2e)", os.path.join(E2E, "check_po_mm_mp_c11_relacq_true", "prog.c")),
    ("locked counter (e2e)", os.path.join(E2E, "check_po_mm_locked_c11_true", "prog.c")),
    ("IRIW", os.path.join(HERE, "mm", "iriw.c")),
    ("CAS spin lock", os.path.join(HERE, "mm", "caslock.c")),
]
MODEL = re.compile(r"^po: model \w+: (\d+) events, \d+ SAT variables, (\d+) clauses, "
                   r"(\d+) refinement rounds adding (\d+) clauses")


def run(a, prog, args):
    t0 = time.time()
    p = subprocess.run([a.ravel, "check", prog, "--engine", "po", "--unwind", str(a.unwind)] + args,
                       capture_output=True, text=True, env=dict(os.environ, RAVEL_TIMES="1"))
    secs = time.time() - t0
    first = p.stdout.split("\n", 1)[0]
    answer = ("true" if first.startswith("true") else "bug" if first.startswith("bug")
              else "bounded" if first.startswith("no ") else "unknown")
    ev = clauses = rounds = added = None
    for line in p.stderr.splitlines():
        m = MODEL.match(line)
        if m:
            ev, clauses, rounds, added = (int(x) for x in m.groups())
    return answer, secs, ev, clauses, rounds, added


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ravel", default=os.path.join(ROOT, "build", "ravel"))
    ap.add_argument("--unwind", type=int, default=2)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    settings = [("sc clocks", ["--mm", "sc"])]
    for m in ["sc", "tso", "ra", "c11"]:
        extra = ["--mm-formula"] if m == "sc" else []
        settings.append((m + " eager", ["--mm", m, "--mm-eager"] + extra))
        settings.append((m + " lazy", ["--mm", m] + extra))
    if a.markdown:
        print("| program | events | " + " | ".join(s for s, _ in settings) + " |")
        print("|---|--:|" + "---|" * len(settings))
    bad = 0
    for name, prog in PROGRAMS:
        cells, events, answers = [], "-", {}
        for s, args in settings:
            ans, secs, ev, cl, rounds, added = run(a, prog, args)
            answers[s] = ans
            if ev:
                events = str(ev)
            c = "%s %.2f s" % (ans, secs)
            if cl is not None:
                c += ", %d cl" % cl
                if s.endswith("lazy"):
                    c += " + %d in %d rounds" % (added, rounds)
            cells.append(c)
        for m in ["sc", "tso", "ra", "c11"]:
            if answers[m + " eager"] != answers[m + " lazy"]:
                bad += 1
                print("DISAGREE %s %s: eager %s, lazy %s" % (name, m, answers[m + " eager"],
                                                            answers[m + " lazy"]))
        if a.markdown:
            print("| %s | %s | %s |" % (name, events, " | ".join(cells)))
        else:
            print("%s (%s events)" % (name, events))
            for (s, _), c in zip(settings, cells):
                print("  %-10s %s" % (s, c))
        sys.stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
