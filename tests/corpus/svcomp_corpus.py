#!/usr/bin/env python3
"""Corpus test (label corpus): `ravel check` on every unreach-call task and
`ravel race` on every no-data-race task of the SV-COMP corpus, as SV-COMP
runs a verifier: the task file in, the answer on the first line out.

The answers are `false` (exit 1), `true` (exit 0: a proof) or `unknown`
(exit 0 or 3). A `false` on a task whose expected verdict is `true`, or a
`true` on one whose verdict is `false`, is a wrong answer and fails the
test; a run that crashes or prints no answer fails it too. Prints one line
per task (answer, exit status, seconds), then the score: correct / wrong /
unknown, found / missed among the `false` tasks and proved among the
`true` ones.

usage: svcomp_corpus.py RAVEL CORPUS_DIR PROPERTY [--timeout S] [--jobs N]
                        [--json FILE]
PROPERTY: unreach-call (ravel check) or no-data-race (ravel race)."""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time


def rows(corpus, prop):
    root = os.path.join(corpus, "svcomp")
    with open(os.path.join(root, "manifest.tsv")) as f:
        lines = [line.rstrip("\n").split("\t") for line in f]
    head = lines[0]
    for r in lines[1:]:
        row = dict(zip(head, r))
        if row["property"] == prop:
            yield row["task"], os.path.join(root, row["task"]), row["expected_verdict"]


def run(ravel, cmd, yml, timeout):
    args = [ravel, cmd, "-q", "--timeout", str(timeout), yml]
    start = time.time()
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout * 1.5 + 30)
        out, status = p.stdout, p.returncode
    except subprocess.TimeoutExpired:
        out, status = "", "hang"
    secs = time.time() - start
    first = out.split("\n", 1)[0].strip() if out else ""
    return first, status, secs, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ravel")
    ap.add_argument("corpus")
    ap.add_argument("property", choices=["unreach-call", "no-data-race"])
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write the per-task results here")
    a = ap.parse_args()
    if not os.path.isdir(os.path.join(a.corpus, "svcomp")):
        print("no corpus at", a.corpus)
        return 77
    cmd = "check" if a.property == "unreach-call" else "race"
    tasks = list(rows(a.corpus, a.property))
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {ex.submit(run, a.ravel, cmd, yml, a.timeout): (name, expected)
                for name, yml, expected in tasks}
        for f in concurrent.futures.as_completed(futs):
            results[futs[f]] = f.result()
    correct = wrong = unknown = found = missed = proved = 0
    failures = []
    table = []
    for name, yml, expected in tasks:
        first, status, secs, out = results[(name, expected)]
        # unknown: 3, or 0 when no bug was found within the bounds
        ok_status = {"false": (1,), "true": (0,), "unknown": (0, 3)}
        if first not in ok_status or status not in ok_status[first]:
            verdict = "ERROR"
            failures.append("%s: answer %r with exit status %s" % (name, first, status))
            if status not in (1, 3):
                failures.append("   output: %s" % out[-500:].replace("\n", "\n   "))
            wrong += 1
        elif first == "false" and expected == "true":
            verdict = "WRONG"
            wrong += 1
            failures.append("%s: false on a task whose expected verdict is true" % name)
        elif first == "true" and expected == "false":
            verdict = "WRONG"
            wrong += 1
            failures.append("%s: true on a task whose expected verdict is false" % name)
        elif first == "true":
            verdict = "proved"
            correct += 1
            proved += 1
        elif first == "false":
            verdict = "found"
            correct += 1
            found += 1
        else:
            verdict = "unknown"
            unknown += 1
            if expected == "false":
                missed += 1
        table.append({"task": name, "expected": expected, "answer": first, "status": status,
                      "seconds": round(secs, 2), "verdict": verdict})
        print("%-70s expected %-5s answer %-7s %-7s %6.1f s" % (name, expected, first or "-",
                                                              verdict, secs))
    nfalse = sum(1 for _, _, e in tasks if e == "false")
    print("ravel %s on %d %s tasks (--timeout %g): %d correct / %d wrong / %d unknown; "
          "found %d of %d false tasks (%.0f%%), missed %d; proved %d of %d true tasks"
          % (cmd, len(tasks), a.property, a.timeout, correct, wrong, unknown, found, nfalse,
             100.0 * found / nfalse if nfalse else 0, missed, proved, len(tasks) - nfalse))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(table, f, indent=1)
    for line in failures:
        print("FAIL", line)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
