#!/usr/bin/env python3
"""Checks ravel on LISA transcriptions of herd7's C litmus tests against
herd7's own answers for the C originals.

DIR holds hand transcriptions (DIR/<stem>.litmus of a C test
<group>/<stem>.litmus of ../shared/corpus/litmus): `volatile int` accesses
become `na`, atomic accesses carry their memory order, `if` becomes a
branch. They predate ravel's C front end (litmus/c_parse), which now reads
the C originals (litmus_corpus.py c11); they are kept as a check of the
LISA path, written by hand, against the same herd7 answers. A transcription whose registers had to be renamed (LISA
registers are rN) maps them back with a metadata line
`Herd-registers=0:r5=0:t` (ravel's name, then herd7's).

For every manifest row of HERD_MODEL whose test has a transcription, a
transcription is correct when ravel under RAVEL_MODEL gives herd7's
Observation, the same set of final states (not in --verdict-only) and the
same undefined-behaviour flag (herd7's `Undef`). Witness counts that differ
are printed as notes only: herd7 counts C executions, ravel LISA ones.
Exit 1 on any wrong answer, 77 when the corpus is absent.

Usage: litmus_transcribed.py RAVEL CORPUS_DIR DIR HERD_MODEL RAVEL_MODEL [--verdict-only]"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # tests never write into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from litmus_corpus import herd_states, herd_undef_and_counts  # noqa: E402


def renames(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for ln in f:
            if ln.startswith("Herd-registers="):
                for pair in ln.strip().split("=", 1)[1].split(","):
                    mine, _, herd = pair.partition("=")
                    out[mine.strip()] = herd.strip()
    return out


def ravel_states(obj, names):
    out = set()
    for st in obj.get("states", []):
        out.add(tuple(sorted(f"{names.get(k, k)}={v}" for k, v in st.items())))
    return out


def main():
    if len(sys.argv) < 6:
        print(__doc__)
        return 2
    ravel, corpus = sys.argv[1], os.path.join(sys.argv[2], "litmus")
    tdir, herd_model, model = sys.argv[3], sys.argv[4], sys.argv[5]
    verdict_only = "--verdict-only" in sys.argv[6:]
    manifest = os.path.join(corpus, "manifest.tsv")
    if not os.path.exists(manifest):
        print(f"corpus not found at {corpus}: skipped")
        return 77
    rows = []
    with open(manifest, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            stem = os.path.splitext(os.path.basename(r["test"]))[0]
            mine = os.path.join(tdir, stem + ".litmus")
            if r["model"] == herd_model and os.path.exists(mine):
                rows.append((r, mine))
    if not rows:
        print(f"no transcribed rows for {herd_model}: skipped")
        return 77
    cmd = [ravel, "litmus", "-q", "--json", "-m", model, "--timeout", "60"]
    if verdict_only:
        cmd.append("--verdict-only")
    p = subprocess.run(cmd + [m for _, m in rows], capture_output=True, text=True)
    if p.returncode not in (0, 3, 5):
        print(f"ravel exited {p.returncode}: {p.stderr.strip()[:2000]}")
        return 1
    results = {obj["file"]: obj for obj in json.loads(p.stdout)}
    correct = wrong = unknown = 0
    for r, mine in rows:
        obj = results.get(mine)
        problems, notes = [], []
        if obj is None or obj.get("verdict") == "error":
            problems.append("error: " + (obj or {}).get("error", "no result"))
        elif obj["verdict"] == "unknown":
            unknown += 1
            print(f"UNKNOWN {r['test']}: {obj.get('reason')}")
            continue
        else:
            out = os.path.join(corpus, r["herd_out"])
            hstates, _ = herd_states(out)
            hundef, hcounts = herd_undef_and_counts(out)
            if obj["observation"] != r["observation"]:
                problems.append(f"observation {obj['observation']}, herd7 says {r['observation']}")
            if obj.get("undefined", False) != hundef:
                problems.append(f"undefined {obj.get('undefined')}, herd7 says {hundef}")
            if not verdict_only:
                mine_states = ravel_states(obj, renames(mine))
                if mine_states != hstates:
                    problems.append(f"states differ: only ravel {sorted(mine_states - hstates)[:3]}, "
                                    f"only herd7 {sorted(hstates - mine_states)[:3]}")
                if hcounts and hcounts != (obj["positive"], obj["negative"]):
                    notes.append(f"witnesses {obj['positive']}/{obj['negative']}, "
                                 f"herd7 {hcounts[0]}/{hcounts[1]}")
        if problems:
            wrong += 1
            print(f"WRONG {r['test']}: " + "; ".join(problems + notes))
        else:
            correct += 1
            if notes:
                print(f"note {r['test']}: " + "; ".join(notes))
    mode = "verdict-only" if verdict_only else "full"
    print(f"transcribed C litmus, ravel {model} vs herd7 {herd_model}, {mode}: {correct} correct / "
          f"{wrong} wrong / {unknown} unknown of {len(rows)}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
