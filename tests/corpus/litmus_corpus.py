#!/usr/bin/env python3
"""Runs ravel litmus on the tests of ../shared/corpus/litmus that have a row
for MODEL's oracle in manifest.tsv and compares with herd7's answers.

A test is correct when ravel's Observation (Never/Sometimes/Always), its
set of final states (up to a renaming of herd7's symbolic values S<n>)
and its undefined-behaviour flag (herd7's `Undef`) equal herd7's, and, for the groups PrideMM checks under that model, when
allowed/forbidden matches PrideMM's pass/fail. Witness counts that differ
are printed as notes only. A wrong answer fails the run; an unknown answer
(timeout, or a test rejected as `unsupported`) is counted, listed, but does
not.

LISA and C tests are both read. The oracle of ravel's model is the manifest
rows of the same name, except for c11: ravel's c11 is RC11, so every `rc11`
row (herdtools7's rc11.cat) is checked, and every `c11` row (herdtools7's
older C11 model) too, except that where herd7's two models disagree on a
test (Observation, states or Undef) the c11 row is judged against the rc11
answer and listed as such: that is a difference between the models (see
docs/manual.md), not between ravel and herd7.

Usage: litmus_corpus.py RAVEL CORPUS_DIR MODEL [--verdict-only]
Exit 77 (skipped) when the corpus is absent."""
import itertools
import json
import os
import re
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


def herd_undef_and_counts(path):
    undef, counts = False, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for ln in f.read().splitlines():
            if ln.strip() == "Undef":
                undef = True
            elif ln.startswith("Observation ") and len(ln.split()) >= 5:
                # the outcome's own counts (the Witnesses line swaps them
                # under ~exists); ravel's JSON gives these
                w = ln.split()
                counts = (int(w[-2]), int(w[-1]))
    return undef, counts


class Answer:
    """herd7's answer for one manifest row."""

    def __init__(self, corpus, row):
        out = os.path.join(corpus, row["herd_out"])
        self.row = row
        self.obs = row["observation"]
        self.states, _ = herd_states(out)
        self.undef, self.counts = herd_undef_and_counts(out)

    def same(self, other):
        return (self.obs, self.states, self.undef) == (other.obs, other.states, other.undef)


# ravel's model -> the manifest models it is checked against; the first is
# the reference when herd7's models disagree.
ORACLES = {"c11": ("rc11", "c11")}


def squeeze(atom):
    """An atom `x = 1` as `x=1`: blanks dropped but inside quotes (AArch64's
    instr:"B .+8" keeps its space, on both sides)."""
    pieces = atom.split('"')
    return '"'.join(p if k % 2 else p.replace(" ", "") for k, p in enumerate(pieces))


def normalise(state_line):
    parts = [p.strip() for p in state_line.strip().split(";") if p.strip()]
    return tuple(sorted(squeeze(p) for p in parts))


SYMBOL = re.compile(r"S\d+")


def symbols(states):
    """The symbolic values (herd7's S23: a value out of thin air) in a set of
    states, in a fixed order."""
    return sorted({kv.split("=", 1)[1] for st in states for kv in st
                   if "=" in kv and SYMBOL.fullmatch(kv.split("=", 1)[1])})


def same_states(mine, want):
    """Equal sets of states up to a renaming of symbols: one bijection of
    herd7's symbol names onto ravel's for the whole list (a symbol stays one
    symbol in every state; different symbols stay different). Tries every
    bijection up to 7 symbols; more are never equal."""
    if mine == want:
        return True
    ours, theirs = symbols(mine), symbols(want)
    if not theirs or len(ours) != len(theirs) or len(theirs) > 7:
        return False

    def rename(st, m):
        out = []
        for kv in st:
            k, _, v = kv.partition("=")
            out.append(f"{k}={m.get(v, v)}" if SYMBOL.fullmatch(v) else kv)
        return tuple(sorted(out))
    for perm in itertools.permutations(ours):
        m = dict(zip(theirs, perm))
        if {rename(st, m) for st in want} == mine:
            return True
    return False


def ravel_states(obj):
    out = set()
    for st in obj.get("states", []):
        out.add(tuple(sorted(squeeze(f"{k}={v}") for k, v in st.items())))
    return out


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    ravel, corpus, model = sys.argv[1], os.path.join(sys.argv[2], "litmus"), sys.argv[3]
    verdict_only = "--verdict-only" in sys.argv[4:]
    oracles = ORACLES.get(model, (model,))
    manifest = os.path.join(corpus, "manifest.tsv")
    if not os.path.exists(manifest):
        print(f"corpus not found at {corpus}: skipped")
        return 77
    rows = []
    with open(manifest, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            if r["model"] not in oracles:
                continue
            test = os.path.join(corpus, r["test"])
            with open(test, encoding="utf-8", errors="replace") as tf:
                first = tf.readline().split()
            if not first or first[0] not in ("LISA", "Bell", "C"):
                continue
            rows.append(r)
    if not rows:
        print(f"no rows for model {model}: skipped")
        return 77
    # herd7's answers per test and oracle model, to spot where they disagree
    answers = {}
    for r in rows:
        answers[(r["test"], r["model"])] = Answer(corpus, r)
    files = sorted({os.path.join(corpus, r["test"]) for r in rows})
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
    unsupported, differ = [], []
    pridemm = {"agree": 0, "disagree": 0, "unknown": 0}
    herd_time = 0.0
    for r in rows:
        path = os.path.join(corpus, r["test"])
        herd_time += float(r.get("herd7_seconds") or 0)
        obj = results.get(path)
        group = r["test"].split("/")[1]
        label = r["test"] if len(oracles) == 1 else f"{r['test']} [{r['model']}]"
        problems, notes = [], []
        checks_pridemm = bool(r.get("pridemm_expect")) and group in PRIDEMM_GROUPS.get(model, ())
        if obj is not None and obj.get("verdict") == "error" and ": error: unsupported" in obj.get("error", ""):
            unknown += 1
            unsupported.append(r["test"])
            print(f"UNSUPPORTED {label}: {obj.get('error')}")
            continue
        if obj is None or obj.get("verdict") == "error":
            problems.append("error: " + (obj or {}).get("error", "no result"))
        elif obj["verdict"] == "unknown":
            unknown += 1
            if checks_pridemm:
                pridemm["unknown"] += 1
            print(f"UNKNOWN {label}: {obj.get('reason')}")
            continue
        else:
            want = answers[(r["test"], r["model"])]
            ref = answers.get((r["test"], oracles[0]))
            if ref is not None and ref is not want and not ref.same(want):
                differ.append(r["test"])
                notes.append(f"herd7's {r['model']} says {want.obs}{' Undef' if want.undef else ''}, "
                             f"its {oracles[0]} {ref.obs}{' Undef' if ref.undef else ''}: "
                             f"judged against {oracles[0]}")
                want = ref
            if obj["observation"] != want.obs:
                problems.append(f"observation {obj['observation']}, herd7 says {want.obs}")
            if obj.get("undefined", False) != want.undef:
                problems.append(f"undefined {obj.get('undefined', False)}, herd7 says {want.undef}")
            if not verdict_only:
                mine = ravel_states(obj)
                if not same_states(mine, want.states):
                    problems.append(f"states differ: only ravel {sorted(mine - want.states)[:3]}, "
                                    f"only herd7 {sorted(want.states - mine)[:3]}")
                if want.counts and want.counts != (obj["positive"], obj["negative"]):
                    notes.append(f"witnesses {obj['positive']}/{obj['negative']}, "
                                 f"herd7 {want.counts[0]}/{want.counts[1]}")
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
            print(f"WRONG {label}: " + "; ".join(problems + notes))
        else:
            correct += 1
            if notes and len(oracles) > 1:
                print(f"note {label}: " + "; ".join(notes))
    mode = "verdict-only" if verdict_only else "full"
    groups = sorted(PRIDEMM_GROUPS.get(model, ()))
    if groups:
        print(f"PrideMM's pass/fail ({', '.join(groups)}) under {model}: {pridemm['agree']} agree / "
              f"{pridemm['disagree']} disagree / {pridemm['unknown']} unknown")
    if len(oracles) > 1:
        print(f"rows where herd7's {oracles[1]} and {oracles[0]} disagree (judged against {oracles[0]}): "
              f"{len(differ)}: {' '.join(sorted(os.path.basename(d) for d in differ)) or '-'}")
    if unsupported:
        print(f"rejected as unsupported: {' '.join(sorted(set(unsupported)))}")
    print(f"litmus corpus, model {model} (oracle {'/'.join(oracles)}), {mode}: {correct} correct / "
          f"{wrong} wrong / {unknown} unknown of {len(rows)}; ravel {elapsed:.1f} s, herd7 {herd_time:.1f} s")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
