#!/usr/bin/env python3
"""po's memory models against ravel litmus's (issue 13, part 3).

usage: mm_crosscheck.py RAVEL DIR [WORKDIR]

Every DIR/*.litmus (herd's C format, the subset written there: pointer
parameters, one declaration per `int rN`, an `exists` over registers and
locations) becomes a C program: each location a global of the parameter's
type with its initial value, each thread Pn a pthread that binds its
parameters to the globals' addresses, runs the body unchanged and stores its
registers into globals; main starts the threads, joins them and asserts that
the final state is not S. For every state S that `ravel litmus -m M` lists
under some model, and every model M (sc by po's clocks and by the shared
formula, tso, ra, c11; the four by the lazy refinement and by the eager
grounding, --mm-eager), `ravel check --engine po --mm M` must find the
assertion violated exactly when `ravel litmus -m M` lists S among the
reachable states. Exit 0 when they all agree, 1 otherwise.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

MODELS = [("sc", "sc", []), ("sc-formula", "sc", ["--mm-formula"]), ("tso", "tso", []),
          ("ra", "ra", []), ("c11", "c11", [])]
# the eager grounding (--mm-eager) beside the lazy refinement (the default)
EAGER = [(m + "-eager", lm, extra + ["--mm-eager"]) for m, lm, extra in MODELS if m != "sc"]


def parse(text):
    """(init {loc: value}, threads [(n, [(type, name)], body)]) of a C litmus test."""
    init = {}
    m = re.search(r"^\{(.*?)\}", text, re.S | re.M)
    for part in m.group(1).split(";"):
        a = re.match(r"\s*(?:[A-Za-z_][\w ]*\s)?\[?(\w+)\]?\s*(?:=\s*(-?\d+))?\s*$", part)
        if a and a.group(1):
            init[a.group(1)] = int(a.group(2) or 0)
    threads = []
    for t in re.finditer(r"^P(\d+)\s*\(([^)]*)\)\s*\{", text, re.M):
        depth, i = 1, t.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        params = []
        for p in t.group(2).split(","):
            ty, name = p.rsplit("*", 1)
            params.append((ty.strip(), name.strip()))
        threads.append((int(t.group(1)), params, text[t.end():i - 1]))
    return init, threads


def c_program(init, threads, state):
    types = {}
    for _, params, _ in threads:
        for ty, name in params:
            types.setdefault(name, ty)
    out = ["#include <assert.h>", "#include <pthread.h>", "#include <stdatomic.h>"]
    for name, ty in types.items():
        out.append(f"{ty} g_{name} = {init.get(name, 0)};")
    for n, params, body in threads:
        regs = re.findall(r"\bint\s+(r\w*)", body)
        out += [f"int out_{n}_{r};" for r in regs]
        binds = " ".join(f"{ty} *{name} = &g_{name};" for ty, name in params)
        stores = " ".join(f"out_{n}_{r} = {r};" for r in regs)
        out.append(f"void *P{n}(void *arg_) {{ (void)arg_; {binds}\n{body}\n{stores} return 0; }}")
    cond = []
    for k, v in sorted(state.items()):
        if ":" in k:
            t, r = k.split(":")
            cond.append(f"out_{t}_{r} == {v}")
        else:
            cond.append(f"g_{k} == {v}")
    ids = [n for n, _, _ in threads]
    out.append("int main(void) {")
    out.append("  pthread_t " + ", ".join(f"t{n}" for n in ids) + ";")
    out += [f"  pthread_create(&t{n}, 0, P{n}, 0);" for n in ids]
    out += [f"  pthread_join(t{n}, 0);" for n in ids]
    out.append(f"  assert(!({' && '.join(cond) or '1'}));")
    out.append("  return 0;\n}")
    return "\n".join(out) + "\n"


def litmus_states(ravel, path, model):
    r = subprocess.run([ravel, "litmus", "-m", model, "--json", path], capture_output=True,
                       text=True, timeout=120)
    return [tuple(sorted((k.strip("[]"), v) for k, v in s.items()))
            for s in json.loads(r.stdout)[0]["states"]]


def condition_state(text):
    """The state an `exists (a /\\ b ...)` of equalities names (None: another shape)."""
    m = re.search(r"exists\s*\((.*)\)", text, re.S)
    state = {}
    for atom in m.group(1).split("/\\") if m else []:
        a = re.match(r"\s*\[?([\w:]+)\]?\s*=\s*(-?\d+)\s*$", atom)
        if not a:
            return None
        state[a.group(1)] = int(a.group(2))
    return tuple(sorted(state.items())) if state else None


def main():
    ravel, d = sys.argv[1], sys.argv[2]
    work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="mm_xcheck")
    os.makedirs(work, exist_ok=True)
    bad = runs = 0
    for f in sorted(os.listdir(d)):
        if not f.endswith(".litmus"):
            continue
        path = os.path.join(d, f)
        text = open(path).read()
        init, threads = parse(text)
        states = {m: set(litmus_states(ravel, path, lm)) for m, lm, _ in MODELS}
        cands = set().union(*states.values())
        cond = condition_state(text)
        if cond:
            cands.add(cond)
        cands = sorted(cands)
        for k, s in enumerate(cands):
            prog = os.path.join(work, f"{f[:-7]}_{k}.c")
            with open(prog, "w") as out:
                out.write(c_program(init, threads, dict(s)))
            for m, lm, extra in MODELS + EAGER:
                cmd = [ravel, "check", prog, "--engine", "po", "--mm", lm, "--unwind", "2", "--timeout", "120"] + extra
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
                runs += 1
                want = 1 if s in states[m.replace("-eager", "")] else 0
                got = r.returncode
                proved = got == 0 and r.stdout.startswith("true:")
                if got != want or (want == 0 and not proved):
                    bad += 1
                    print(f"DISAGREE {f} {m} state {dict(s)}: litmus says "
                          f"{'reachable' if want else 'unreachable'}, check exit {got}: "
                          f"{r.stdout.splitlines()[0] if r.stdout else r.stderr.strip()}")
        print(f"{f}: {len(cands)} states x {len(MODELS + EAGER)} settings checked", flush=True)
    print(f"{runs} runs, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
