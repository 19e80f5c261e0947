#!/usr/bin/env python3
"""Compares ravel under MODEL with the pass/fail that PrideMM's authors put
in the file names of the LISA tests of some corpus groups
(../shared/corpus/litmus/tests/GROUP/*-pass.lisa, *-fail.lisa).

`pass` means the final condition is reachable under PrideMM's model for
that group. ravel's answer counts as `pass` when the condition is reachable
(Observation not Never) or when some execution has undefined behaviour (a
data race under c11: catch-fire, anything may happen).

Prints one line per test and agree/disagree/unknown counts. With
--report-only the exit status is 0 whatever the agreement (for groups whose
model is not the one ravel implements, e.g. PrideMM's simplified RC11 against
ravel's c11); without it a disagreement exits 1. Exit 77 when the corpus is
absent.

Usage: litmus_pridemm.py RAVEL CORPUS_DIR MODEL GROUP... [--report-only] [--verdict-only]"""
import json
import os
import subprocess
import sys


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    if len(args) < 4:
        print(__doc__)
        return 2
    ravel, corpus, model, groups = args[0], os.path.join(args[1], "litmus"), args[2], args[3:]
    files = []
    for g in groups:
        d = os.path.join(corpus, "tests", g)
        if not os.path.isdir(d):
            print(f"group {g} not found at {d}: skipped")
            return 77
        files += sorted(os.path.join(d, f) for f in os.listdir(d)
                        if f.endswith("-pass.lisa") or f.endswith("-fail.lisa"))
    cmd = [ravel, "litmus", "-q", "--json", "-m", model, "--timeout", "60"]
    if "--verdict-only" in flags:
        cmd.append("--verdict-only")
    p = subprocess.run(cmd + files, capture_output=True, text=True)
    if p.returncode not in (0, 3, 5):
        print(f"ravel exited {p.returncode}: {p.stderr.strip()[:2000]}")
        return 1
    results = {obj["file"]: obj for obj in json.loads(p.stdout)}
    agree = disagree = unknown = 0
    for f in files:
        name = os.path.relpath(f, os.path.join(corpus, "tests"))
        expect = "pass" if f.endswith("-pass.lisa") else "fail"
        obj = results.get(f, {})
        if obj.get("verdict") not in ("allowed", "forbidden"):
            unknown += 1
            print(f"UNKNOWN {name}: {obj.get('reason') or obj.get('error')}")
            continue
        undef = obj.get("undefined", False)
        got = "pass" if obj["observation"] != "Never" or undef else "fail"
        what = obj["observation"] + (", undefined" if undef else "")
        if got == expect:
            agree += 1
            print(f"agree    {name}: {what}")
        else:
            disagree += 1
            print(f"DISAGREE {name}: ravel {model} says {got} ({what}), PrideMM {expect}")
    print(f"PrideMM's pass/fail ({', '.join(groups)}) vs ravel {model}: {agree} agree / "
          f"{disagree} disagree / {unknown} unknown of {len(files)}")
    if "--report-only" in flags:
        return 0
    return 1 if disagree or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
