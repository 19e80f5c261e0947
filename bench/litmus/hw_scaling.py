#!/usr/bin/env python3
"""The SB, MP and LB scaling families as X86 and AArch64 tests, under herd's
x86tso.cat and aarch64.cat (the litmus-hw corpus's models), verdict-only:
prints ravel's time and answer per test; asserts nothing about timing.

  bench/litmus/hw_scaling.py [--ravel PATH] [--corpus DIR] [--nmax N] [--cutoff S]

SB: a ring, thread i writes x_i=1 then reads x_{i+1}, exists every read 0
(x86tso and aarch64: Sometimes). MP: P0 writes data then flag, n-1 readers
read flag then data, exists every reader saw flag=1 and data=0 (x86tso:
Never; aarch64 without fences: Sometimes). LB: a ring, thread i reads x_i
then writes x_{i+1}=1, exists every read 1 (x86tso: Never; aarch64:
Sometimes). n = 2..NMAX threads (default 32); a family stops after a run over
--cutoff seconds (default 60). Defaults: build/ravel,
<repo>/../shared/corpus. Quote the machine's load (uptime) with the figures."""
import argparse
import json
import os
import subprocess
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))


def table(threads):
    width = max(len(ins) for t in threads for ins in t + ["P00"]) + 1
    rows = [" | ".join(f"P{i}".ljust(width) for i in range(len(threads))) + " ;"]
    for k in range(max(len(t) for t in threads)):
        rows.append(" | ".join((t[k] if k < len(t) else "").ljust(width) for t in threads) + " ;")
    return "\n".join(rows)


def x86(fam, n):
    if fam == "SB":
        th = [[f"MOV [x{i}],$1", f"MOV EAX,[x{(i + 1) % n}]"] for i in range(n)]
        cond = " /\\ ".join(f"{i}:EAX=0" for i in range(n))
    elif fam == "LB":
        th = [[f"MOV EAX,[x{i}]", f"MOV [x{(i + 1) % n}],$1"] for i in range(n)]
        cond = " /\\ ".join(f"{i}:EAX=1" for i in range(n))
    else:
        th = [["MOV [d],$1", "MOV [f],$1"]] + [["MOV EAX,[f]", "MOV EBX,[d]"] for _ in range(1, n)]
        cond = " /\\ ".join(f"{i}:EAX=1 /\\ {i}:EBX=0" for i in range(1, n))
    return f"X86 {fam}{n}\n{{\n}}\n{table(th)}\nexists ({cond})\n"


def aarch64(fam, n):
    init, th = [], []
    for i in range(n):
        if fam == "SB":
            init.append(f"{i}:X1=x{i}; {i}:X3=x{(i + 1) % n};")
            th.append(["MOV W0,#1", "STR W0,[X1]", "LDR W2,[X3]"])
        elif fam == "LB":
            init.append(f"{i}:X1=x{i}; {i}:X3=x{(i + 1) % n};")
            th.append(["LDR W0,[X1]", "MOV W2,#1", "STR W2,[X3]"])
        elif i == 0:
            init.append("0:X1=d; 0:X3=f;")
            th.append(["MOV W0,#1", "STR W0,[X1]", "MOV W2,#1", "STR W2,[X3]"])
        else:
            init.append(f"{i}:X1=f; {i}:X3=d;")
            th.append(["LDR W0,[X1]", "LDR W2,[X3]"])
    if fam == "SB":
        cond = " /\\ ".join(f"{i}:X2=0" for i in range(n))
    elif fam == "LB":
        cond = " /\\ ".join(f"{i}:X0=1" for i in range(n))
    else:
        cond = " /\\ ".join(f"{i}:X0=1 /\\ {i}:X2=0" for i in range(1, n))
    return f"AArch64 {fam}{n}\n{{\n" + "\n".join(init) + f"\n}}\n{table(th)}\nexists ({cond})\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ravel", default=os.path.join(repo, "build", "ravel"))
    ap.add_argument("--corpus", default=os.path.join(repo, "..", "shared", "corpus"))
    ap.add_argument("--nmax", type=int, default=32)
    ap.add_argument("--cutoff", type=float, default=60)
    a = ap.parse_args()
    models = os.path.join(a.corpus, "litmus-hw", "models")
    print(f"{'model':8} {'family':6} {'n':>3} {'answer':10} {'time s':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for model, gen in (("x86tso", x86), ("aarch64", aarch64)):
            for fam in ("SB", "MP", "LB"):
                for n in range(2, a.nmax + 1):
                    path = os.path.join(tmp, f"{model}-{fam}{n}.litmus")
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(gen(fam, n))
                    cmd = [a.ravel, "litmus", "-q", "--json", "--verdict-only", "--timeout",
                           str(int(a.cutoff * 2)), "-I", os.path.join(models, model),
                           "-model", f"{model}.cat", path]
                    p = subprocess.run(cmd, capture_output=True, text=True)
                    try:
                        o = json.loads(p.stdout)[0]
                        ans, t = o.get("observation", o.get("verdict", "?")), o.get("time", 0.0)
                    except (ValueError, IndexError):
                        ans, t = f"exit {p.returncode}", 0.0
                    print(f"{model:8} {fam:6} {n:3} {ans:10} {t:8.2f}", flush=True)
                    if t > a.cutoff:
                        break


if __name__ == "__main__":
    main()
