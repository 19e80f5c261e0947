#!/usr/bin/env python3
"""Compares ravel under MODEL with the pass/fail that PrideMM's authors put
in the file names of the LISA tests of some corpus groups
(../shared/corpus/litmus/tests/GROUP/*-pass.lisa, *-fail.lisa).

`pass` means the final condition is reachable under PrideMM's model for
that group. ravel's answer counts as `pass` when the condition is reachable
(Observation not Never) or when some execution has undefined behaviour (a
data race under c11: catch-fire, anything may happen).

--reversed=STEM,... names tests whose file name records another model's
answer and whose expectation is therefore the opposite one: the corpus
README says that for the Java causality tests the names record Java's
intended answer, and that Jeffrey-Riely differs from it on tests 3, 7 and
11 (stems jctc3, jctc7, jctc11; a stem matches the file name up to its
first '-').

Each test runs in its own ravel process. Prints one line per test (correct /
WRONG / UNKNOWN, the time, ravel's grounding and solving time; for a model
decided by QBF also the QBF's variables, clauses and quantifier levels) and
the counts. --qbf-size dumps each test's QBF (--dump-qbf, the consistent
executions without the condition) to read its size. --depqbf decides every
QBF a second time with DepQBF (--qbf-solver depqbf; the two QBFs of a
verdict, condition reachable and condition failing) and counts the tests on
which the built-in solver and DepQBF agree; any disagreement fails.

With --report-only the exit status is 0 whatever the agreement (for groups
whose model is not the one ravel implements, e.g. PrideMM's simplified RC11
against ravel's c11); without it a wrong or unknown answer exits 1. Exit 77
when the corpus is absent.

Usage: litmus_pridemm.py RAVEL CORPUS_DIR MODEL GROUP... [--report-only] [--verdict-only]
       [--reversed=STEM,...] [--timeout=S] [--qbf-size] [--depqbf]"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def run_ravel(ravel, model, f, timeout, verdict_only, extra=()):
    cmd = [ravel, "litmus", "-q", "--json", "-m", model, "--timeout", str(timeout)]
    if verdict_only:
        cmd.append("--verdict-only")
    p = subprocess.run(cmd + list(extra) + [f], capture_output=True, text=True)
    if p.returncode not in (0, 3, 5):
        return None, f"ravel exited {p.returncode}: {p.stderr.strip()[:500]}"
    try:
        objs = json.loads(p.stdout)
    except json.JSONDecodeError:
        return None, f"no JSON from ravel: {p.stderr.strip()[:500]}"
    return (objs[0] if objs else None), None


def qdimacs_size(path):
    """Variables, clauses and quantifier levels (adjacent blocks of one kind
    count once) of a QDIMACS file."""
    nv = nc = 0
    kinds = []
    with open(path) as fh:
        for line in fh:
            if line.startswith("p cnf"):
                _, _, v, c = line.split()
                nv, nc = int(v), int(c)
            elif line[:2] in ("a ", "e ") and len(line.split()) > 2:
                if not kinds or kinds[-1] != line[0]:
                    kinds.append(line[0])
            elif line and (line[0].isdigit() or line[0] == "-"):
                break
    return nv, nc, len(kinds)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = {a for a in sys.argv[1:] if a.startswith("--") and "=" not in a}
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
    if len(args) < 4:
        print(__doc__)
        return 2
    ravel, corpus, model, groups = args[0], os.path.join(args[1], "litmus"), args[2], args[3:]
    reversed_stems = set(filter(None, opts.get("reversed", "").split(",")))
    timeout = int(opts.get("timeout", "60"))
    verdict_only = "--verdict-only" in flags
    files = []
    for g in groups:
        d = os.path.join(corpus, "tests", g)
        if not os.path.isdir(d):
            print(f"group {g} not found at {d}: skipped")
            return 77
        files += sorted(os.path.join(d, f) for f in os.listdir(d)
                        if f.endswith("-pass.lisa") or f.endswith("-fail.lisa"))
    depqbf = "--depqbf" in flags
    if depqbf and not shutil.which("depqbf"):
        print("depqbf is not on PATH: the DepQBF cross-check is skipped")
        depqbf = False
    tmp = tempfile.mkdtemp(prefix="ravel-pridemm-")
    correct = wrong = unknown = 0
    dep_agree = dep_disagree = dep_unknown = 0
    total_time = 0.0
    try:
        for f in files:
            name = os.path.relpath(f, os.path.join(corpus, "tests"))
            stem = os.path.basename(f).split("-")[0]
            expect = "pass" if f.endswith("-pass.lisa") else "fail"
            if stem in reversed_stems:
                expect = "fail" if expect == "pass" else "pass"
            extra, size = [], ""
            if "--qbf-size" in flags:
                dump = os.path.join(tmp, re.sub(r"[^\w.+-]", "_", stem) + ".qdimacs")
                extra = ["--dump-qbf", dump]
            obj, err = run_ravel(ravel, model, f, timeout, verdict_only or bool(extra), extra)
            if obj is None:
                unknown += 1
                print(f"UNKNOWN  {name}: {err}")
                continue
            t = obj.get("time", 0.0)
            total_time += t
            timing = (f"{t:7.2f}s (ground {obj.get('time_ground', 0):.2f}s, "
                      f"solve {obj.get('time_solve', 0):.2f}s)")
            if extra and os.path.exists(extra[1]):
                nv, nc, nl = qdimacs_size(extra[1])
                size = f" QBF {nv} vars {nc} clauses {nl} levels"
            if obj.get("verdict") not in ("allowed", "forbidden"):
                unknown += 1
                print(f"UNKNOWN  {name}: {timing}{size}: {obj.get('reason') or obj.get('error')}")
                continue
            undef = obj.get("undefined", False)
            got = "pass" if obj["observation"] != "Never" or undef else "fail"
            what = obj["observation"] + (", undefined" if undef else "")
            if got == expect:
                correct += 1
                print(f"correct  {name}: {what}; {timing}{size}")
            else:
                wrong += 1
                print(f"WRONG    {name}: ravel {model} says {got} ({what}), expected {expect}; "
                      f"{timing}{size}")
            if depqbf:
                dobj, derr = run_ravel(ravel, model, f, timeout, True,
                                       ["--qbf-solver", "depqbf --max-secs=%d" % timeout])
                if dobj is None or dobj.get("verdict") not in ("allowed", "forbidden"):
                    dep_unknown += 1
                    print(f"  depqbf: no answer ({derr or dobj.get('reason')})")
                elif dobj["observation"] == obj["observation"]:
                    dep_agree += 1
                    print(f"  depqbf: agrees ({dobj['observation']}, {dobj.get('time', 0):.2f}s)")
                else:
                    dep_disagree += 1
                    print(f"  DEPQBF DISAGREES: {dobj['observation']} vs built-in "
                          f"{obj['observation']}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"PrideMM's pass/fail ({', '.join(groups)}) vs ravel {model}: {correct} correct / "
          f"{wrong} wrong / {unknown} unknown of {len(files)}, {total_time:.2f}s in ravel")
    if depqbf:
        print(f"built-in QBF solver vs DepQBF on every query: {dep_agree} tests agree / "
              f"{dep_disagree} disagree / {dep_unknown} without a DepQBF answer")
    if "--report-only" in flags:
        return 0
    return 1 if wrong or unknown or dep_disagree else 0


if __name__ == "__main__":
    sys.exit(main())
