#!/usr/bin/env python3
"""The cat path against the hand-written model: runs ravel litmus on every
test of ../shared/corpus/litmus that has a row for MODEL in manifest.tsv,
once with the built-in model (-m MODEL) and once with a cat file read
through the cat path (-model CAT, with any -I/-bell arguments after it),
and fails on any test where the two disagree: Observation, verdict, final
states, witness counts, or one answering where the other is unknown.
Prints the agreement and both total times (the cost of the cat path).

Usage: litmus_cat_builtin.py RAVEL CORPUS_DIR MODEL CAT [--verdict-only]
                             [ravel options...]
In CAT and the options, @CORPUS@ is CORPUS_DIR/litmus and @SHARED@ is
CORPUS_DIR.
Exit 77 (skipped) when the corpus is absent."""
import json
import os
import subprocess
import sys
import time


def run(cmd, files):
    results, elapsed = {}, 0.0
    batch = 200
    for i in range(0, len(files), batch):
        t0 = time.time()
        p = subprocess.run(cmd + files[i:i + batch], capture_output=True, text=True)
        elapsed += time.time() - t0
        if p.returncode not in (0, 3, 5):
            sys.exit(f"{' '.join(cmd[:8])} ... exited {p.returncode}: {p.stderr.strip()[:2000]}")
        for obj in json.loads(p.stdout):
            results[obj["file"]] = obj
    return results, elapsed


def key(obj, verdict_only):
    if obj is None:
        return ("missing",)
    v = obj.get("verdict")
    if v in ("unknown", "error"):
        return (v,)
    k = (v, obj.get("ok"), obj.get("observation"), obj.get("undefined"), tuple(obj.get("flags", [])))
    if not verdict_only:
        states = sorted(tuple(sorted(s.items())) for s in obj.get("states", []))
        k += (obj.get("positive"), obj.get("negative"), tuple(states))
    return k


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    ravel, corpus, model, cat = sys.argv[1], os.path.join(sys.argv[2], "litmus"), sys.argv[3], sys.argv[4]
    extra = sys.argv[5:]
    verdict_only = "--verdict-only" in extra
    manifest = os.path.join(corpus, "manifest.tsv")
    if not os.path.exists(manifest):
        print(f"corpus not found at {corpus}: skipped")
        return 77
    def subst(a):
        return a.replace("@CORPUS@", corpus).replace("@SHARED@", sys.argv[2])
    cat = subst(cat)
    extra = [subst(a) for a in extra]
    files = set()
    with open(manifest, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            if r["model"] == model:
                files.add(os.path.join(corpus, r["test"]))
    files = sorted(files)
    if not files:
        print(f"no rows for model {model}: skipped")
        return 77
    base = [ravel, "litmus", "-q", "--json", "--timeout", "60"] + extra
    builtin, t_builtin = run(base + ["-m", model], files)
    viacat, t_cat = run(base + ["-model", cat], files)
    agree = differ = unknown = 0
    for path in files:
        a, b = builtin.get(path), viacat.get(path)
        ka, kb = key(a, verdict_only), key(b, verdict_only)
        if ka == kb and ka[0] in ("unknown", "error"):
            unknown += 1
            print(f"BOTH {ka[0].upper()} {os.path.relpath(path, corpus)}")
        elif ka == kb:
            agree += 1
        else:
            differ += 1
            print(f"DIFFER {os.path.relpath(path, corpus)}: built-in {ka[:5]}, cat {kb[:5]}"
                  + ("" if verdict_only or ka[:5] != kb[:5] else " (states or witness counts)"))
    mode = "verdict-only" if verdict_only else "full"
    print(f"{model} ({mode}): cat {cat} against -m {model} on {len(files)} tests: "
          f"{agree} agree, {differ} differ, {unknown} unknown in both")
    print(f"time: built-in {t_builtin:.1f} s, cat {t_cat:.1f} s "
          f"(cat/built-in {t_cat / t_builtin if t_builtin else 0:.2f})")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
