#!/usr/bin/env python3
"""Corpus test (label corpus): runs `ravel deadlock` on every case of
../shared/corpus/deadlock and compares with the expected verdict of its
manifest (deadlock / no-deadlock).

usage: deadlock_corpus.py RAVEL CORPUS_DIR

Prints found / missed / false alarms and each wrong case. Fails on any
missed deadlock, on more than one false alarm per ten no-deadlock cases, or
on an unexpected front-end error. Cases get what the corpus README says
they need: an include directory with an empty config.h (drd tests include
"../../config.h") and -include stdlib.h; the one case the README names as
not compiling is expected to fail with a C error (exit 5). No case is
treated specially otherwise."""
import os
import subprocess
import sys
import tempfile
import time

EXPECTED_C_ERROR = {"tdacik__misc__01-auto_find_lock_types.c"}


def main():
    ravel, corpus = sys.argv[1], os.path.join(sys.argv[2], "deadlock")
    manifest = os.path.join(corpus, "manifest.tsv")
    if not os.path.exists(manifest):
        print("no deadlock corpus at", corpus)
        return 77
    tmp = tempfile.mkdtemp(prefix="ravel-deadlock-")
    os.makedirs(os.path.join(tmp, "a", "b"))
    open(os.path.join(tmp, "config.h"), "w").close()
    with open(manifest) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    found = missed = false_alarms = quiet_ok = errors = 0
    n_dl = n_ok = 0
    wrong = []
    start = time.time()
    for row in rows:
        name, expected = row[0], row[2]
        src = os.path.join(corpus, name)
        cmd = [ravel, "deadlock", "-q", src, "--", "-I", tmp, "-I", os.path.join(tmp, "a", "b"),
               "-I", corpus, "-include", "stdlib.h"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if expected == "deadlock":
            n_dl += 1
        else:
            n_ok += 1
        if r.returncode not in (0, 1):
            if name in EXPECTED_C_ERROR and r.returncode == 5:
                continue
            errors += 1
            err = (r.stderr.strip().splitlines() or ["?"])[0]
            wrong.append(f"  error (exit {r.returncode}) {name}: {err}")
            if expected == "deadlock":
                missed += 1
            continue
        said = "deadlock" if r.returncode == 1 else "no-deadlock"
        if expected == "deadlock":
            if said == "deadlock":
                found += 1
            else:
                missed += 1
                wrong.append(f"  missed {name}")
        else:
            if said == "deadlock":
                false_alarms += 1
                first = (r.stdout.strip().splitlines() or ["?"])[0]
                wrong.append(f"  false alarm {name}: {first}")
            else:
                quiet_ok += 1
    took = time.time() - start
    print(f"deadlock corpus: {len(rows)} cases ({n_dl} deadlock, {n_ok} no-deadlock) in {took:.1f} s")
    print(f"found {found}/{n_dl}, missed {missed}, false alarms {false_alarms}/{n_ok}, "
          f"errors {errors}")
    for w in wrong:
        print(w)
    budget = n_ok // 10
    ok = missed == 0 and false_alarms <= budget and errors == 0
    if not ok:
        print(f"FAILED (allowed: no miss, at most {budget} false alarms, no error)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
