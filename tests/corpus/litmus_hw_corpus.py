#!/usr/bin/env python3
"""Runs ravel litmus on the rows of ../shared/corpus/litmus-hw/manifest.tsv
for MODEL, with the command line herd7 was run with (that corpus's README:
`-I models/MODEL -model MODEL.cat`, from the corpus folder), and compares
with herd7's answers: Observation and the set of final states (witness
counts that differ are notes). A wrong answer fails; an unknown one, or a
test in a format ravel does not read (listed by architecture), is counted
and does not.

Usage: litmus_hw_corpus.py RAVEL CORPUS_DIR MODEL [--verdict-only]
Exit 77 (skipped) when the corpus is absent."""
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from litmus_corpus import herd_states, herd_undef_and_counts, ravel_states  # noqa: E402

READ = {"X86", "RISCV", "AArch64"}


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    ravel, corpus, model = os.path.abspath(sys.argv[1]), os.path.join(sys.argv[2], "litmus-hw"), sys.argv[3]
    verdict_only = "--verdict-only" in sys.argv[4:]
    manifest = os.path.join(corpus, "manifest.tsv")
    if not os.path.exists(manifest):
        print(f"corpus not found at {corpus}: skipped")
        return 77
    rows, skipped = [], collections.Counter()
    with open(manifest, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            if r["model"] != model:
                continue
            with open(os.path.join(corpus, r["test"]), encoding="utf-8", errors="replace") as tf:
                first = tf.read().split(None, 1)
            arch = first[0] if first else ""
            if arch in READ:
                rows.append(r)
            else:
                skipped[arch] += 1
    cmd = [ravel, "litmus", "-q", "--json", "--timeout", "60", "-I", f"models/{model}",
           "-model", f"{model}.cat"] + (["--verdict-only"] if verdict_only else [])
    p = subprocess.run(cmd + [r["test"] for r in rows], capture_output=True, text=True, cwd=corpus)
    if p.returncode not in (0, 3, 5) or (rows and not p.stdout.strip()):
        print(f"ravel exited {p.returncode}: {p.stderr.strip()[:2000]}")
        return 1
    results = {o["file"]: o for o in json.loads(p.stdout)} if rows else {}
    correct = wrong = unknown = 0
    for r in rows:
        obj = results.get(r["test"])
        want_states, _ = herd_states(os.path.join(corpus, r["herd_out"]))
        _, counts = herd_undef_and_counts(os.path.join(corpus, r["herd_out"]))
        if obj is None or obj.get("verdict") in ("unknown", "error"):
            unknown += 1
            print(f"UNKNOWN {r['test']}: {(obj or {}).get('reason') or (obj or {}).get('error')}")
            continue
        problems, notes = [], []
        if obj["observation"] != r["observation"]:
            problems.append(f"observation {obj['observation']}, herd7 says {r['observation']}")
        if not verdict_only:
            mine = ravel_states(obj)
            if mine != want_states:
                problems.append(f"states differ: only ravel {sorted(mine - want_states)[:3]}, "
                                f"only herd7 {sorted(want_states - mine)[:3]}")
            if counts and counts != (obj["positive"], obj["negative"]):
                notes.append(f"witnesses {obj['positive']}/{obj['negative']}, herd7 {counts[0]}/{counts[1]}")
        if problems:
            wrong += 1
            print(f"WRONG {r['test']}: " + "; ".join(problems + notes))
        else:
            correct += 1
            if notes:
                print(f"note {r['test']}: " + "; ".join(notes))
    mode = "verdict-only" if verdict_only else "full"
    print(f"{model} ({mode}): {correct} correct, {wrong} wrong, {unknown} unknown of {len(rows)} rows read; "
          f"not read: " + (", ".join(f"{n} {a}" for a, n in sorted(skipped.items())) or "none"))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
