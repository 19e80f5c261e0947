#!/usr/bin/env python3
"""Runs ravel litmus on the LISA tests of ../shared/corpus/litmus that have
a row for MODEL in manifest.tsv and compares with herd7's answers.

A test is correct when ravel's Observation (Never/Sometimes/Always) and its
set of final states equal herd7's, and, for the groups PrideMM checks under
that model, when allowed/forbidden matches PrideMM's pass/fail. A wrong
answer fails the run; an unknown answer (timeout, unsupported) is counted
but does not. Usage: litmus_corpus.py RAVEL CORPUS_DIR MODEL [--verdict-only]
Exit 77 (skipped) when the corpus is absent."""
import json
import os
import subprocess
import sys
import time

PRIDEMM_GROUPS = {"sc": {"pridemm-sc", "pridemm-store_buffer"}, "ra": {"pridemm-ra"}}


def herd_states(path):
    states, obs = set(), None
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("States "):
            n = int(ln.split()[1])
            for k in range(n):
                states.add(normalise(lines[i + 1 + k]))
            i += n
        elif ln.startswith("Observation "):
            obs = ln.split()[-3]
        i += 1
    return states, obs


def normalise(state_line):
    parts = [p.strip() for p in state_line.strip().split(";") if p.strip()]
    return tuple(sorted(p.replace(" ", "") for p in parts))


def ravel_states(obj):
    out = set()
    for st in obj.get("states", []):
        out.add(tuple(sorted(f"{k}={v}" for k, v in st.items())))
    return out


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    ravel, corpus, model = sys.argv[1], os.path.join(sys.argv[2], "litmus"), sys.argv[3]
    verdict_only = "--verdict-only" in sys.argv[4:]
    manifest = os.path.join(corpus, "manifest.tsv")
    if not os.path.exists(manifest):
        print(f"corpus not found at {corpus}: skipped")
        return 77
    rows = []
    with open(manifest, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            if r["model"] != model:
                continue
            test = os.path.join(corpus, r["test"])
            with open(test, encoding="utf-8", errors="replace") as tf:
                first = tf.readline().split()
            if not first or first[0] not in ("LISA", "Bell"):
                continue
            rows.append(r)
    if not rows:
        print(f"no LISA rows for model {model}: skipped")
        return 77
    files = [os.path.join(corpus, r["test"]) for r in rows]
    cmd = [ravel, "litmus", "-q", "--json", "-m", model, "--timeout", "60"]
    if verdict_only:
        cmd.append("--verdict-only")
    t0 = time.time()
    results = {}
    batch = 200
    for i in range(0, len(files), batch):
        p = subprocess.run(cmd + files[i:i + batch], capture_output=True, text=True)
        if p.returncode not in (0, 3, 5):
            print(f"ravel exited {p.returncode}: {p.stderr.strip()[:2000]}")
            return 1
        for obj in json.loads(p.stdout):
            results[obj["file"]] = obj
    elapsed = time.time() - t0
    correct = wrong = unknown = 0
    pridemm = {"agree": 0, "disagree": 0, "unknown": 0}
    herd_time = 0.0
    for r, path in zip(rows, files):
        herd_time += float(r.get("herd7_seconds") or 0)
        obj = results.get(path)
        group = r["test"].split("/")[1]
        problems = []
        checks_pridemm = bool(r.get("pridemm_expect")) and group in PRIDEMM_GROUPS.get(model, ())
        if obj is None or obj.get("verdict") == "error":
            problems.append("error: " + (obj or {}).get("error", "no result"))
        elif obj["verdict"] == "unknown":
            unknown += 1
            if checks_pridemm:
                pridemm["unknown"] += 1
            print(f"UNKNOWN {r['test']}: {obj.get('reason')}")
            continue
        else:
            hstates, hobs = herd_states(os.path.join(corpus, r["herd_out"]))
            if obj["observation"] != r["observation"]:
                problems.append(f"observation {obj['observation']}, herd7 says {r['observation']}")
            if not verdict_only and ravel_states(obj) != hstates:
                mine = ravel_states(obj)
                problems.append(f"states differ: only ravel {sorted(mine - hstates)[:3]}, "
                                f"only herd7 {sorted(hstates - mine)[:3]}")
            if checks_pridemm:
                expect = r["pridemm_expect"]
                allowed = obj["observation"] != "Never"
                if allowed != (expect == "pass"):
                    pridemm["disagree"] += 1
                    problems.append(f"PrideMM expects {expect}")
                else:
                    pridemm["agree"] += 1
        if problems:
            wrong += 1
            print(f"WRONG {r['test']}: " + "; ".join(problems))
        else:
            correct += 1
    mode = "verdict-only" if verdict_only else "full"
    groups = sorted(PRIDEMM_GROUPS.get(model, ()))
    if groups:
        print(f"PrideMM's pass/fail ({', '.join(groups)}) under {model}: {pridemm['agree']} agree / "
              f"{pridemm['disagree']} disagree / {pridemm['unknown']} unknown")
    print(f"litmus corpus, model {model}, {mode}: {correct} correct / {wrong} wrong / "
          f"{unknown} unknown of {len(rows)}; ravel {elapsed:.1f} s, herd7 {herd_time:.1f} s")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
