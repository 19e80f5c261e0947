#!/usr/bin/env python3
"""Corpus test (label corpus): `ravel seq` on every unreach-call task of
the SV-COMP corpus. Each sequential program must compile with gcc; it is
then run RUNS times with random nondeterministic choices (random_env.c).
Reaching reach_error() in a task whose expected verdict is `true` would mean
the translation invented a bug: that fails the test. Every `false` task
whose error random runs reach must also get `false` from `ravel check`
(issue 4's cross-check). Prints how many of the `false` tasks random runs
expose.

usage: seq_corpus.py RAVEL CORPUS_DIR [RUNS]"""
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ENV_C = os.path.join(HERE, "..", "kiss", "random_env.c")


def tasks(corpus):
    root = os.path.join(corpus, "svcomp")
    with open(os.path.join(root, "manifest.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    for row in rows:
        if row[1] != "unreach-call":
            continue
        yml = os.path.join(root, row[0])
        text = open(yml).read()
        m = re.search(r"input_files:\s*'?([^'\n]+)'?", text)
        src = os.path.join(os.path.dirname(yml), m.group(1).strip())
        yield row[0], src, row[2] == "true", "ILP32" in text


def main():
    ravel, corpus = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    if not os.path.isdir(os.path.join(corpus, "svcomp")):
        print("no corpus at", corpus)
        return 77
    tmp = tempfile.mkdtemp(prefix="ravel-seq-")
    env_o = os.path.join(tmp, "env.o")
    subprocess.run(["gcc", "-c", "-O1", ENV_C, "-o", env_o], check=True)
    bad = 0
    found = false_tasks = ok = 0
    start = time.time()
    for name, src, expect_true, m32 in tasks(corpus):
        seq_c = os.path.join(tmp, "seq.c")
        exe = os.path.join(tmp, "seq")
        r = subprocess.run([ravel, "seq", "-q"] + (["--m32"] if m32 else []) + [src, "-o", seq_c],
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            bad += 1
            print("FAIL %s: ravel seq exit %d: %s" % (name, r.returncode, r.stderr.strip()[:300]))
            continue
        c = subprocess.run(["gcc", "-w", "-O1", seq_c, env_o, "-o", exe], capture_output=True, text=True)
        if c.returncode != 0:
            bad += 1
            print("FAIL %s: the sequential program does not compile: %s" % (name, c.stderr.strip()[:400]))
            continue
        ok += 1
        reached = 0
        for i in range(runs):
            env = dict(os.environ, RAVEL_SEED=str(i + 1), RAVEL_BIAS=str((5, 20, 50)[i % 3]))
            try:
                p = subprocess.run([exe], capture_output=True, timeout=2, env=env)
            except subprocess.TimeoutExpired:
                continue  # a run that does not end (an unbounded loop): no verdict
            if p.returncode == 1 and b"reach_error" in p.stdout:
                reached += 1
                break
        if expect_true and reached:
            bad += 1
            print("WRONG %s: expected true, but a run of the sequential program reaches the error" % name)
        if reached and not expect_true:
            # the cross-check: a bug random runs of the sequential program
            # reach must be found by ravel check as well
            yml = os.path.join(corpus, "svcomp", name)
            chk = subprocess.run([ravel, "check", "-q", "--timeout", "60", yml],
                                 capture_output=True, text=True, timeout=200)
            answer = chk.stdout.split("\n", 1)[0]
            if answer != "false":
                bad += 1
                print("MISSED %s: random runs of ravel seq's program reach the error, ravel check "
                      "answers %r" % (name, answer))
        if not expect_true:
            false_tasks += 1
            found += 1 if reached else 0
            print("%-60s %s" % (name, "found by random runs" if reached else "not found by random runs"))
    print("seq corpus: %d translated and compiled, %d failed; random runs expose %d of %d false tasks "
          "(%.1f s)" % (ok, bad, found, false_tasks, time.time() - start))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
