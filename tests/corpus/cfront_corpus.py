#!/usr/bin/env python3
"""Corpus test (label corpus): lowers every C file of the SV-COMP and
deadlock corpora with `ravel ir` and fails on any error.

usage: cfront_corpus.py RAVEL CORPUS_DIR

SV-COMP inputs are lowered for the task's data model (ILP32 -> --m32), as
the task's .yml says. Deadlock cases get an include directory with an empty
config.h (drd tests include "../../config.h") and -include stdlib.h (a few
cprover tests call malloc undeclared), which is what the corpus README says
they need. A case the README names as not compiling with gcc is expected to
fail with a clang error (exit 5) and counts as correct when it does."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

EXPECTED_CLANG_ERROR = {"tdacik__misc__01-auto_find_lock_types.c"}


def svcomp_inputs(corpus):
    root = os.path.join(corpus, "svcomp")
    seen = set()
    with open(os.path.join(root, "manifest.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    for row in rows:
        yml = os.path.join(root, row[0])
        text = open(yml).read()
        m = re.search(r"input_files:\s*'?([^'\n]+)'?", text)
        if not m:
            continue
        src = os.path.join(os.path.dirname(yml), m.group(1).strip())
        m32 = "ILP32" in text
        if (src, m32) in seen:
            continue
        seen.add((src, m32))
        yield src, (["--m32"] if m32 else []), []


def deadlock_inputs(corpus, incdir):
    root = os.path.join(corpus, "deadlock")
    with open(os.path.join(root, "manifest.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    for row in rows:
        yield os.path.join(root, row[0]), [], ["-I", incdir, "-I", os.path.join(incdir, "a", "b"),
                                               "-include", "stdlib.h"]


def json_ok(cmd):
    r = subprocess.run(cmd[:3] + ["--json"] + cmd[3:], capture_output=True, text=True, timeout=120)
    try:
        prog = json.loads(r.stdout)
        return r.returncode == 0 and "functions" in prog
    except ValueError:
        return False


def main():
    ravel, corpus = sys.argv[1], sys.argv[2]
    if not os.path.isdir(os.path.join(corpus, "svcomp")):
        print("no corpus at", corpus)
        return 77
    tmp = tempfile.mkdtemp(prefix="ravel-cfront-")
    os.makedirs(os.path.join(tmp, "a", "b"))
    open(os.path.join(tmp, "config.h"), "w").close()
    ok = bad = 0
    lines = 0
    start = time.time()
    inputs = list(svcomp_inputs(corpus)) + list(deadlock_inputs(corpus, tmp))
    for src, opts, clang in inputs:
        cmd = [ravel, "ir", "-q"] + opts + [src] + (["--"] + clang if clang else [])
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        name = os.path.basename(src)
        expect_fail = name in EXPECTED_CLANG_ERROR
        if (r.returncode == 0) != (not expect_fail) or (expect_fail and r.returncode != 5):
            bad += 1
            err = r.stderr.strip().splitlines()
            print("FAIL %s (exit %d): %s" % (src, r.returncode, err[0] if err else ""))
        elif not expect_fail and not json_ok(cmd):
            bad += 1
            print("FAIL %s: --json output is not valid JSON" % src)
        else:
            ok += 1
            lines += sum(1 for _ in open(src, errors="replace"))
    took = time.time() - start
    print("cfront corpus: %d lowered / %d failed of %d files (%d lines, %.1f s)"
          % (ok, bad, ok + bad, lines, took))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
