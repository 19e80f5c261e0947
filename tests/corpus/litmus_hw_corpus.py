#!/usr/bin/env python3
"""Runs ravel litmus on the rows of ../shared/corpus/litmus-hw/manifest.tsv
for MODEL, with the command line herd7 was run with (that corpus's README:
`-I models/MODEL -model MODEL.cat`, and for lkmm `-I models/lkmm -bell
linux-kernel.bell -macros linux-kernel.def -model linux-kernel.cat`, from
the corpus folder), and compares with herd7's answers: Observation, the set
of final states and the `Flag` lines (witness counts that differ are
notes). A wrong answer fails; an unknown one (an unsupported construct, a
timeout), or a test in a format ravel does not read (listed by
architecture), is counted and does not. Prints ravel's summed per-test
time against herd7's (the manifest's herd7_seconds).

Usage: litmus_hw_corpus.py RAVEL CORPUS_DIR MODEL [--verdict-only] [-j N] [--timeout S]
                           [--every N]
(S: ravel's budget per test, default $RAVEL_HW_TIMEOUT or 60; --every N: only
every Nth row, a deterministic subset for slow builds.) States are
compared up to a renaming of herd7's symbolic values (S23: a value out of
thin air): one bijection of herd7's symbol names onto ravel's per test.
Exit 77 (skipped) when the corpus is absent."""
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from litmus_corpus import herd_states, herd_undef_and_counts, ravel_states, same_states  # noqa: E402

# the architectures ravel reads, per model column
READ = {"x86tso": {"X86"}, "x86tso-mixed": {"X86_64"}, "riscv": {"RISCV"}, "aarch64": {"AArch64"}, "lkmm": {"C"}}
# herd7's command line per model column (the corpus README's table)
MODEL_ARGS = {
    "lkmm": ["-bell", "linux-kernel.bell", "-macros", "linux-kernel.def", "-model", "linux-kernel.cat"],
}


def herd_flags(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return sorted(ln.split(None, 1)[1].strip() for ln in f.read().splitlines()
                      if ln.startswith("Flag "))


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
            if arch in READ.get(model, set()):
                rows.append(r)
            else:
                skipped[arch] += 1
    if "--every" in sys.argv[4:]:  # a deterministic subset: every Nth row
        rows = rows[::int(sys.argv[sys.argv.index("--every") + 1])]
    jobs = sys.argv[sys.argv.index("-j") + 1] if "-j" in sys.argv[4:] else "1"
    budget = sys.argv[sys.argv.index("--timeout") + 1] if "--timeout" in sys.argv[4:] else \
        os.environ.get("RAVEL_HW_TIMEOUT", "60")
    cmd = [ravel, "litmus", "-q", "--json", "--timeout", budget, "-j", jobs, "-I", f"models/{model}"] + \
        MODEL_ARGS.get(model, ["-model", f"{model}.cat"]) + (["--verdict-only"] if verdict_only else [])
    p = subprocess.run(cmd + [r["test"] for r in rows], capture_output=True, text=True, cwd=corpus)
    if p.returncode not in (0, 3, 5) or (rows and not p.stdout.strip()):
        print(f"ravel exited {p.returncode}: {p.stderr.strip()[:2000]}")
        return 1
    results = {o["file"]: o for o in json.loads(p.stdout)} if rows else {}
    correct = wrong = unknown = 0
    t_ravel = t_herd = 0.0
    slow = []
    for r in rows:
        obj = results.get(r["test"])
        want_states, _ = herd_states(os.path.join(corpus, r["herd_out"]))
        _, counts = herd_undef_and_counts(os.path.join(corpus, r["herd_out"]))
        if obj is None or obj.get("verdict") in ("unknown", "error"):
            unknown += 1
            print(f"UNKNOWN {r['test']}: {(obj or {}).get('reason') or (obj or {}).get('error')}")
            continue
        problems, notes = [], []
        t_ravel += obj.get("time", 0) + obj.get("time_parse", 0)
        t_herd += float(r["herd7_seconds"] or 0)
        slow.append((obj.get("time", 0), r["test"], float(r["herd7_seconds"] or 0)))
        want_flags, mine_flags = herd_flags(os.path.join(corpus, r["herd_out"])), sorted(obj.get("flags", []))
        if want_flags != mine_flags:
            problems.append(f"flags {mine_flags}, herd7 {want_flags}")
        if obj["observation"] != r["observation"]:
            problems.append(f"observation {obj['observation']}, herd7 says {r['observation']}")
        if not verdict_only:
            mine = ravel_states(obj)
            if not same_states(mine, want_states):
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
    slow.sort(reverse=True)
    for t, name, h in slow[:5]:
        print(f"slowest: {t:.2f} s {name} (herd7 {h:.2f} s)")
    print(f"time: ravel {t_ravel:.1f} s, herd7 {t_herd:.1f} s summed over the {correct + wrong} answered rows")
    print(f"{model} ({mode}): {correct} correct, {wrong} wrong, {unknown} unknown of {len(rows)} rows read; "
          f"not read: " + (", ".join(f"{n} {a}" for a, n in sorted(skipped.items())) or "none"))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
