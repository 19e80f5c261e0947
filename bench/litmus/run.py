#!/usr/bin/env python3
"""The litmus benchmark: prints tables, asserts nothing about timing.

Called by run.sh (which says where ravel and the generated tests are):

  run.py --ravel PATH --gen DIR --corpus DIR [--quick] [--cutoff S] [--timeout S]

(a) the corpus (<corpus>/tests/<group>/...), for each model of
    --corpus-models (default sc,tso,ra,c11): one `ravel litmus -q --json -m
    MODEL` run per group, full and --verdict-only, over the groups that have
    manifest rows for the model's herd7 oracle (sc: sc, ra: ra, c11: rc11 --
    herd's C tests; tso has no oracle and runs on every LISA group); total,
    mean and largest per-test time, the time split between grounding and
    solving, SAT sizes from the JSON; herd7's time beside it: when herd7 is
    on PATH it runs in the same process on the same files (with sc.cat, the
    corpus's models/ra.cat and herdtools7's rc11.cat), else its own `Time`
    line as recorded in <corpus>/manifest.tsv (herd7_seconds, measured on a
    2-core machine), and the table says which; the 5 slowest tests.
(b) the scaling families made by gen.py: one ravel run per file, sc full,
    sc --verdict-only, tso --verdict-only and ra --verdict-only; a family
    stops in a mode once a run takes more than --cutoff seconds (or fails);
    then the corpus's pridemm-store_buffer/sb_<n>threads under each model
    (full and --verdict-only, grounding/solving split, SAT size) next to
    herd7's time (live, or the manifest's); then SB_n written in herd's C
    format (seq_cst and relaxed) under c11.
    The hard families' goals (IRIW n=16, 2+2W, WRC and ISA2 at n=32,
    verdict-only under sc, tso and ra, each under 1 s) are then a table of
    their own, read off the same runs.
(c) herd7 itself on the generated files, if herd7 is on PATH.

Times: "wall" is the whole process (fork, parse, everything); "t" is the sum
of the JSON "time" fields (ravel's own per-test time), the figure comparable
to herd7's "Time" line. Ratios are herd7 / ravel: above 1 means ravel is faster.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TIME_BIN = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def fmt_t(x):
    if x is None:
        return "-"
    if x < 10:
        return "%.3f" % x
    return "%.1f" % x


def fmt_ratio(a, b):
    if a is None or b is None or b <= 0:
        return "-"
    r = a / b
    return "%.1f" % r if r >= 10 else "%.2f" % r


def fmt_int(x):
    return "-" if x is None else str(x)


def table(headers, rows, right=None):
    """Plain text table; columns right-aligned except the first."""
    cols = len(headers)
    rows = [[("" if c is None else str(c)) for c in r] for r in rows]
    w = [max([len(headers[i])] + [len(r[i]) for r in rows]) for i in range(cols)]
    def line(r):
        return "  ".join((r[i].ljust(w[i]) if i == 0 else r[i].rjust(w[i])) for i in range(cols)).rstrip()
    out = [line(headers), "  ".join("-" * w[i] for i in range(cols))]
    out += [line(r) for r in rows]
    print("\n".join(out))


class Run:
    def __init__(self):
        self.wall = None
        self.peak_kb = None
        self.rc = None
        self.results = []
        self.timed_out = False
        self.stderr = ""


def run_ravel(ravel, args, cwd=None, hard_timeout=None):
    r = Run()
    cmd = [ravel, "litmus", "-q", "--json"] + args
    memf = None
    if TIME_BIN:
        fd, memf = tempfile.mkstemp(prefix="ravel-bench-mem.")
        os.close(fd)
        cmd = [TIME_BIN, "-f", "%M", "-o", memf] + cmd
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=hard_timeout, text=True)
        r.wall = time.perf_counter() - t0
        r.rc = p.returncode
        r.stderr = p.stderr
        try:
            r.results = json.loads(p.stdout) if p.stdout.strip() else []
        except json.JSONDecodeError:
            r.results = []
    except subprocess.TimeoutExpired:
        r.wall = time.perf_counter() - t0
        r.timed_out = True
    if memf:
        try:
            with open(memf) as fh:
                m = re.findall(r"^\d+$", fh.read(), re.M)
                r.peak_kb = int(m[-1]) if m else None
        finally:
            os.unlink(memf)
    return r


def load_manifest(corpus, model="sc"):
    """test path -> (observation, herd7_seconds) for the rows of model."""
    rows = {}
    with open(os.path.join(corpus, "manifest.tsv")) as fh:
        head = fh.readline().rstrip("\n").split("\t")
        ix = {h: i for i, h in enumerate(head)}
        for line in fh:
            f = line.rstrip("\n").split("\t")
            if len(f) < len(head) or f[ix["model"]] != model:
                continue
            try:
                secs = float(f[ix["herd7_seconds"]])
            except ValueError:
                secs = None
            rows[f[ix["test"]]] = (f[ix["observation"]], secs)
    return rows


# ravel's model -> the manifest model (herd7's oracle) its tests are compared
# with, and the cat file herd7 runs for it when it is on PATH.
ORACLE = {"sc": "sc", "ra": "ra", "c11": "rc11", "tso": None}


def herd_cat(a, model):
    if model == "ra":
        return os.path.join(a.corpus, "models", "ra.cat")
    return {"sc": "sc.cat", "c11": "rc11.cat"}.get(model)


def run_herd7(a, model, path):
    """herd7's own Time for one test (seconds) and its Observation, or (None, why)."""
    herd = shutil.which("herd7")
    cat = herd_cat(a, model)
    if not herd or not cat:
        return None, "no herd7"
    try:
        p = subprocess.run([herd, "-model", cat, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    m = re.search(r"^Time \S+ ([0-9.]+)", p.stdout, re.M)
    o = re.search(r"^Observation \S+ (\w+)", p.stdout, re.M)
    return (float(m.group(1)) if m else None), (o.group(1) if o else "fail")


def herd_source(a):
    if shutil.which("herd7"):
        return "herd7 run now (%s) on the same files, its own Time lines" % shutil.which("herd7")
    return ("herd7 is not on PATH: herd7's own Time lines as recorded in the manifest "
            "(herd7_seconds, a 2-core machine)")


def decided(x):
    return x.get("observation") in ("Never", "Sometimes", "Always")


def mb(kb):
    return "-" if kb is None else "%.1f" % (kb / 1024.0)


# ---------------------------------------------------------------- (a) corpus

def corpus_groups(a, model):
    """The groups a model runs on: those with manifest rows for its oracle;
    every group holding LISA tests when it has none (tso)."""
    tests_dir = os.path.join(a.corpus, "tests")
    groups = sorted(d for d in os.listdir(tests_dir) if os.path.isdir(os.path.join(tests_dir, d)))
    oracle = ORACLE.get(model)
    if oracle:
        man = load_manifest(a.corpus, oracle)
        return [g for g in groups if any(k.startswith("tests/%s/" % g) for k in man)]
    out = []
    for g in groups:
        d = os.path.join(tests_dir, g)
        for f in sorted(os.listdir(d))[:1]:
            with open(os.path.join(d, f), errors="replace") as fh:
                if fh.readline().split()[:1] in (["LISA"], ["Bell"]):
                    out.append(g)
    return out


def corpus_section(a, problems, model):
    groups = corpus_groups(a, model)
    oracle = ORACLE.get(model)
    man = load_manifest(a.corpus, oracle) if oracle else {}
    live = bool(shutil.which("herd7")) and oracle is not None
    print("== (a) corpus %s: ravel litmus -q --json -m %s [--verdict-only] --timeout %g, one run per group"
          % (a.corpus, model, a.timeout))
    if oracle:
        print("   herd7 oracle: its %s rows; herd7 s: %s" % (oracle, herd_source(a)))
    else:
        print("   no herd7 rows for %s in the manifest: no herd7 column" % model)
    print("   t = sum of ravel's per-test JSON time (ground = grounding, solve = SAT calls, both within t);")
    print("   mean/max = per-test t; ratio = herd7 / ravel t. Peak memory is per ravel process.")
    print()
    rows = []
    tot = collections.defaultdict(float)
    totmax = collections.defaultdict(float)
    alltests = []
    for g in groups:
        full = run_ravel(a.ravel, ["-m", model, "--timeout", str(a.timeout), "tests/" + g], cwd=a.corpus)
        vo = run_ravel(a.ravel, ["-m", model, "--verdict-only", "--timeout", str(a.timeout), "tests/" + g],
                       cwd=a.corpus)
        fres = full.results
        vmap = {x.get("file"): x for x in vo.results}
        dec = [x for x in fres if decided(x)]
        ndec = len(dec)
        nerr = sum(1 for x in fres if x.get("verdict") == "error")
        nunk = len(fres) - ndec - nerr
        t_full = sum(x.get("time", 0.0) for x in dec)
        t_ground = sum(x.get("time_ground", 0.0) for x in dec)
        t_solve = sum(x.get("time_solve", 0.0) for x in dec)
        t_max = max([x.get("time", 0.0) for x in dec] or [0.0])
        t_vo = sum(x.get("time", 0.0) for x in vo.results if decided(x))
        vars_ = [x.get("sat_vars", 0) for x in dec]
        cls = [x.get("sat_clauses", 0) for x in dec]
        herd = 0.0
        nherd = 0
        mism = 0
        for x in fres:
            f = x.get("file")
            m = man.get(f)
            v = vmap.get(f)
            if decided(x):
                secs = None
                if live:
                    # the live herd7's answer and time, not the manifest's
                    secs, hobs = run_herd7(a, model, os.path.join(a.corpus, f))
                    m = (hobs, secs)
                elif m is not None:
                    secs = m[1]
                alltests.append((x.get("time", 0.0), f, x, v, m))
                if secs is not None:
                    herd += secs
                    nherd += 1
                if m is not None and m[0] != x.get("observation"):
                    mism += 1
                    problems.append("corpus %s: ravel %s full says %s, herd7 (%s) says %s"
                                    % (f, model, x.get("observation"), oracle, m[0]))
            if v is not None and decided(x) and decided(v) and v.get("observation") != x.get("observation"):
                problems.append("corpus %s: %s full says %s, --verdict-only says %s"
                                % (f, model, x.get("observation"), v.get("observation")))
        if nerr:
            errs = collections.Counter(re.sub(r"^.*?error: ", "", x.get("error", "")) for x in fres
                                       if x.get("verdict") == "error")
            for e, c in errs.most_common(3):
                problems.append("corpus group %s: %d test(s) not run: %s" % (g, c, e))
        if nunk:
            problems.append("corpus group %s: %d test(s) unknown (timeout?)" % (g, nunk))
        rows.append([g, len(fres), ndec, nerr + nunk, fmt_t(full.wall), fmt_t(t_full), fmt_t(t_ground),
                     fmt_t(t_solve), fmt_t(t_full / ndec if ndec else None), fmt_t(t_max), mb(full.peak_kb),
                     fmt_t(vo.wall), fmt_t(t_vo), mb(vo.peak_kb),
                     sum(vars_), max(vars_ or [0]), sum(cls), max(cls or [0]),
                     nherd, fmt_t(herd) if nherd else "-", fmt_ratio(herd, t_full) if nherd else "-",
                     fmt_ratio(herd, t_vo) if nherd else "-", mism if nherd else "-"])
        for k, v in (("n", len(fres)), ("dec", ndec), ("bad", nerr + nunk), ("fw", full.wall), ("ft", t_full),
                     ("fg", t_ground), ("fs", t_solve),
                     ("vw", vo.wall), ("vt", t_vo), ("sv", sum(vars_)), ("sc", sum(cls)), ("herd", herd),
                     ("nherd", nherd), ("mism", mism)):
            tot[k] += v
        totmax["mv"] = max(totmax["mv"], max(vars_ or [0]))
        totmax["mc"] = max(totmax["mc"], max(cls or [0]))
        totmax["fm"] = max(totmax["fm"], full.peak_kb or 0)
        totmax["vm"] = max(totmax["vm"], vo.peak_kb or 0)
        totmax["tmax"] = max(totmax["tmax"], t_max)
    rows.append(["TOTAL", int(tot["n"]), int(tot["dec"]), int(tot["bad"]), fmt_t(tot["fw"]), fmt_t(tot["ft"]),
                 fmt_t(tot["fg"]), fmt_t(tot["fs"]), fmt_t(tot["ft"] / tot["dec"] if tot["dec"] else None),
                 fmt_t(totmax["tmax"]),
                 mb(totmax["fm"] or None), fmt_t(tot["vw"]), fmt_t(tot["vt"]), mb(totmax["vm"] or None),
                 int(tot["sv"]), int(totmax["mv"]), int(tot["sc"]), int(totmax["mc"]), int(tot["nherd"]),
                 fmt_t(tot["herd"]) if tot["nherd"] else "-", fmt_ratio(tot["herd"], tot["ft"]) if tot["nherd"] else "-",
                 fmt_ratio(tot["herd"], tot["vt"]) if tot["nherd"] else "-", int(tot["mism"]) if tot["nherd"] else "-"])
    hdr = ["group", "tests", "ok", "err", "full wall", "full t", "ground", "solve", "mean t", "max t", "MB",
           "vo wall", "vo t", "MB", "vars sum", "max", "clauses sum", "max", "herd n", "herd7 s", "ratio full",
           "ratio vo", "obs≠herd"]
    if not TIME_BIN:
        hdr = [h for i, h in enumerate(hdr) if i not in (10, 13)]
        rows = [[c for i, c in enumerate(r) if i not in (10, 13)] for r in rows]
    table(hdr, rows)
    if oracle and not live:
        all_herd = sum(s for (_, s) in man.values() if s is not None)
        print()
        print("herd7 total over all %d %s rows of the manifest: %s s (ravel %s full t over the %d tests it decided: %s s)"
              % (len(man), oracle, fmt_t(all_herd), model, int(tot["dec"]), fmt_t(tot["ft"])))
    print()
    print("5 slowest tests (%s full, by ravel's JSON time):" % model)
    alltests.sort(key=lambda z: -z[0])
    rows = []
    for t, f, x, v, m in alltests[:5]:
        rows.append([f, fmt_t(t), fmt_t(x.get("time_ground")), fmt_t(x.get("time_solve")),
                     fmt_t(v.get("time") if v else None), x.get("observation"),
                     len(x.get("states", [])), x.get("events"), x.get("sat_vars"), x.get("sat_clauses"),
                     x.get("sat_calls"), fmt_t(m[1]) if m and m[1] is not None else "-",
                     fmt_ratio(m[1], t) if m and m[1] is not None else "-"])
    table(["test", "full t", "ground", "solve", "vo t", "obs", "states", "events", "vars", "clauses", "sat calls",
           "herd7 s", "ratio"], rows)
    print()


# -------------------------------------------------------------- (b) families

MODES = [("sc", False, "sc full"), ("sc", True, "sc vo"), ("tso", True, "tso vo"), ("ra", True, "ra vo")]


def load_index(gen):
    fams = collections.OrderedDict()
    with open(os.path.join(gen, "index.tsv")) as fh:
        head = fh.readline().rstrip("\n").split("\t")
        for line in fh:
            row = dict(zip(head, line.rstrip("\n").split("\t")))
            row["value"] = int(row["value"])
            fams.setdefault(row["family"], []).append(row)
    for f in fams:
        fams[f].sort(key=lambda r: r["value"])
    return fams


def run_family(a, fam, rows, problems):
    """results[(mode label, value)] = (Run, json object or None, status)"""
    res = {}
    for model, vo, label in MODES:
        stopped = None
        for r in rows:
            if stopped:
                res[(label, r["value"])] = (None, None, stopped)
                continue
            args = ["-m", model, "--timeout", str(a.timeout)] + (["--verdict-only"] if vo else [])
            run = run_ravel(a.ravel, args + [os.path.join(a.gen, r["file"])],
                            hard_timeout=a.timeout + 30)
            x = run.results[0] if run.results else None
            if run.timed_out:
                status = "killed"
            elif x is None:
                status = "no json (rc %s)" % run.rc
            elif x.get("verdict") == "error":
                status = "error"
            elif not decided(x):
                status = x.get("verdict", "unknown")
            else:
                status = "ok"
            res[(label, r["value"])] = (run, x, status)
            want = r.get("expect_" + model)
            if status == "ok" and want and x.get("observation") != want:
                problems.append("%s %s=%d under %s: %s, expected %s"
                                % (fam, r["param"], r["value"], label, x.get("observation"), want))
            if status != "ok":
                why = x.get("error") if x and x.get("error") else status
                problems.append("%s %s=%d under %s: %s (family stops in this mode)"
                                % (fam, r["param"], r["value"], label, why))
                stopped = "stop"
            elif run.wall > a.cutoff:
                stopped = ">%gs" % a.cutoff
    # full vs verdict-only agreement
    for r in rows:
        f = res.get(("sc full", r["value"]))
        v = res.get(("sc vo", r["value"]))
        if f and v and f[2] == "ok" and v[2] == "ok" and f[1]["observation"] != v[1]["observation"]:
            problems.append("%s %s=%d: sc full says %s, sc --verdict-only says %s"
                            % (fam, r["param"], r["value"], f[1]["observation"], v[1]["observation"]))
    return res


def cell_time(res, label, value):
    run, x, status = res.get((label, value), (None, None, "-"))
    if status == "ok":
        return fmt_t(run.wall)
    if run is None:
        return "-"
    return status if status in ("error", "killed") else status + " " + fmt_t(run.wall)


def families_section(a, problems):
    fams = load_index(a.gen)
    print("== (b) scaling families (gen.py), one ravel run per file, --timeout %g; a family stops in a mode"
          % a.timeout)
    print("   after a run over %g s or a failed run. Times are wall seconds of the ravel process."
          % a.cutoff)
    print("   states = final states in full mode; events, vars, clauses from the JSON (vo = --verdict-only);")
    print("   MB = peak RSS. Expected: Never under sc everywhere; under tso SB is Sometimes, the rest Never;")
    print("   under ra SB, IRIW and 2+2W are Sometimes, MP, LB, WRC and ISA2 Never.")
    print()
    allres = {}
    for fam, rows in fams.items():
        res = run_family(a, fam, rows, problems)
        allres[fam] = (rows, res)
        p = rows[0]["param"]
        print("-- %s%s" % (fam, "" if p == "n" else "  (%s threads, k private writes per thread)" % rows[0]["threads"]))
        trows = []
        for r in rows:
            v = r["value"]
            f = res[("sc full", v)]
            o = res[("sc vo", v)]
            t = res[("tso vo", v)]
            q = res[("ra vo", v)]
            src = o[1] if o[2] == "ok" else (f[1] if f[2] == "ok" else None)
            if all(z[0] is None for z in (f, o, t, q)):
                continue
            row = [v,
                   cell_time(res, "sc full", v), f[1]["observation"] if f[2] == "ok" else "-",
                   len(f[1].get("states", [])) if f[2] == "ok" else "-",
                   mb(f[0].peak_kb) if f[0] else "-",
                   cell_time(res, "sc vo", v), o[1]["observation"] if o[2] == "ok" else "-",
                   mb(o[0].peak_kb) if o[0] else "-",
                   fmt_ratio(f[0].wall, o[0].wall) if f[2] == "ok" and o[2] == "ok" else "-",
                   src.get("events") if src else "-",
                   f[1].get("sat_vars") if f[2] == "ok" else "-", f[1].get("sat_clauses") if f[2] == "ok" else "-",
                   o[1].get("sat_vars") if o[2] == "ok" else "-", o[1].get("sat_clauses") if o[2] == "ok" else "-",
                   cell_time(res, "tso vo", v), t[1]["observation"] if t[2] == "ok" else "-",
                   cell_time(res, "ra vo", v), q[1]["observation"] if q[2] == "ok" else "-"]
            trows.append(row)
        hdr = [p, "sc full s", "obs", "states", "MB", "sc vo s", "obs", "MB", "full/vo", "events",
               "vars full", "clauses full", "vars vo", "clauses vo", "tso vo s", "tso obs", "ra vo s", "ra obs"]
        if not TIME_BIN:
            drop = {4, 7}
            hdr = [h for i, h in enumerate(hdr) if i not in drop]
            trows = [[c for i, c in enumerate(r) if i not in drop] for r in trows]
        table(hdr, trows)
        print()
    # largest parameter reached per family and mode
    print("Largest n (or k) decided per family and mode, with its wall time:")
    rows = []
    for fam, (frows, res) in allres.items():
        row = [fam]
        for _, _, label in MODES:
            best = None
            for r in frows:
                z = res[(label, r["value"])]
                if z[2] == "ok":
                    best = (r["value"], z[0].wall)
            row.append("%d (%s s)" % (best[0], fmt_t(best[1])) if best else "-")
        rows.append(row)
    table(["family"] + [m[2] for m in MODES], rows)
    print()
    return allres


# Issue 18's hard families: the instance and the goal (verdict-only, seconds).
HARD = (("IRIW", 16), ("2+2W", 32), ("WRC", 32), ("ISA2", 32))
HARD_GOAL = 1.0


def hard_section(allres, problems):
    """The hard-family goals, read off the family runs: IRIW n=16 and 2+2W, WRC
    and ISA2 at n=32, verdict-only under sc, tso and ra, each under HARD_GOAL s."""
    print("== hard families: verdict-only wall seconds of the ravel process (goal < %g s each)" % HARD_GOAL)
    rows = []
    for fam, n in HARD:
        row = ["%s n=%d" % (fam, n)]
        frows, res = allres.get(fam, ([], {}))
        for label in ("sc vo", "tso vo", "ra vo"):
            run, x, status = res.get((label, n), (None, None, "not run"))
            if status != "ok":
                row += [status, "-", "-"]
                continue
            met = run.wall < HARD_GOAL
            row += [fmt_t(run.wall), x.get("observation"), "yes" if met else "NO"]
            if not met:
                problems.append("hard family %s n=%d under %s: %.3f s, goal < %g s"
                                % (fam, n, label, run.wall, HARD_GOAL))
        ev = [res.get((l, n), (None, None, None))[1] for l in ("sc vo",)]
        row.append(ev[0].get("events") if ev[0] else "-")
        rows.append(row)
    table(["test", "sc s", "sc obs", "met", "tso s", "tso obs", "met", "ra s", "ra obs", "met", "events"], rows)
    print()


SB_MODELS = ("sc", "tso", "ra", "c11")


def write_sb_c(d, n, order):
    """SB_n in herd's C format: thread i stores 1 to x_i, then loads x_{i+1}
    (ring), both with memory_order_<order>; exists every load saw 0."""
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "SB-C-%s_n%02d.litmus" % (order, n))
    with open(path, "w") as fh:
        fh.write("C SB-C-%s_n%02d\n{ %s }\n" % (order, n, " ".join("x%d = 0;" % i for i in range(n))))
        for i in range(n):
            j = (i + 1) % n
            fh.write("P%d (atomic_int* x%d, atomic_int* x%d) {\n" % (i, i, j))
            fh.write("  atomic_store_explicit(x%d, 1, memory_order_%s);\n" % (i, order))
            fh.write("  int r0 = atomic_load_explicit(x%d, memory_order_%s);\n}\n" % (j, order))
        fh.write("exists (%s)\n" % " /\\ ".join("%d:r0=0" % i for i in range(n)))
    return path


def sb_c_section(a, problems):
    """c11 on SB_n written in C (the corpus's sb_n are unannotated LISA, which
    c11 reads as non-atomic and racy): seq_cst (Never) and relaxed (Sometimes)."""
    print("-- generated SB_n in herd's C format under c11 (RC11): seq_cst accesses (expected Never) and")
    print("   relaxed ones (expected Sometimes); t = ravel's JSON time, split into ground and solve. herd7 has")
    print("   no rows for these; %s" % ("herd7 runs now with rc11.cat" if shutil.which("herd7")
                                      else "herd7 is not on PATH, so no herd7 column"))
    nmax = a.nmax if a.quick else 16
    for order, want in (("seq_cst", "Never"), ("relaxed", "Sometimes")):
        rows = []
        stop_full = stop_vo = False
        for n in range(2, nmax + 1):
            path = write_sb_c(os.path.join(a.gen, "SB-C"), n, order)
            full = None if stop_full else run_ravel(a.ravel, ["-m", "c11", "--timeout", str(a.timeout), path],
                                                    hard_timeout=a.timeout + 30)
            vo = None if stop_vo else run_ravel(a.ravel, ["-m", "c11", "--verdict-only", "--timeout",
                                                          str(a.timeout), path], hard_timeout=a.timeout + 30)
            if full is None and vo is None:
                break
            fx = full.results[0] if full and full.results else None
            vx = vo.results[0] if vo and vo.results else None
            fok = fx is not None and decided(fx)
            vok = vx is not None and decided(vx)
            stop_full = stop_full or (full is not None and (not fok or full.wall > a.cutoff))
            stop_vo = stop_vo or (vo is not None and (not vok or vo.wall > a.cutoff))
            for lab, x, ok in (("full", fx, fok), ("vo", vx, vok)):
                if ok and (x.get("observation") != want or x.get("undefined")):
                    problems.append("SB-C-%s n=%d c11 %s: %s%s, expected %s"
                                    % (order, n, lab, x.get("observation"), " Undef" if x.get("undefined") else "",
                                       want))
            herd = run_herd7(a, "c11", path)[0] if shutil.which("herd7") else None
            rows.append([n, fmt_t(fx.get("time")) if fok else ("-" if full is None else "fail"),
                         fmt_t(fx.get("time_ground")) if fok else "-", fmt_t(fx.get("time_solve")) if fok else "-",
                         fx.get("observation") if fok else "-", len(fx.get("states", [])) if fok else "-",
                         fx.get("sat_vars") if fok else "-", fx.get("sat_clauses") if fok else "-",
                         fmt_t(vx.get("time")) if vok else ("-" if vo is None else "fail"),
                         fmt_t(vx.get("time_ground")) if vok else "-", fmt_t(vx.get("time_solve")) if vok else "-",
                         vx.get("observation") if vok else "-", vx.get("sat_vars") if vok else "-",
                         vx.get("sat_clauses") if vok else "-", fmt_t(herd) if herd is not None else "-"])
        print()
        print("   memory_order_%s" % order)
        table(["n", "full t", "ground", "solve", "obs", "states", "vars", "clauses", "vo t", "ground", "solve",
               "obs", "vars vo", "clauses vo", "herd7 s"], rows)
    print()
SB_EXPECT = {"sc": "Never", "tso": "Sometimes", "ra": "Sometimes", "c11": "Sometimes"}


def store_buffer_section(a, allres, problems):
    d = os.path.join(a.corpus, "tests", "pridemm-store_buffer")
    files = []
    for f in os.listdir(d):
        m = re.match(r"sb_(\d+)threads", f)
        if m:
            files.append((int(m.group(1)), f))
    files.sort()
    if a.quick:
        files = [z for z in files if z[0] <= a.nmax]
    gen_sb = {}
    if "SB" in allres:
        rows, res = allres["SB"]
        for r in rows:
            gen_sb[r["value"]] = (res[("sc full", r["value"])], res[("sc vo", r["value"])])
    print("-- corpus pridemm-store_buffer/sb_<n>threads under each model (full and --verdict-only; a mode stops")
    print("   after a run over %g s). t = ravel's JSON time, split into ground and solve; vars/clauses of the" % a.cutoff)
    print("   full run; herd7 s: %s (sc and ra rows; none for tso;" % herd_source(a))
    print("   c11 reads these unannotated LISA accesses as non-atomic, so every execution races: Undef).")
    print("   herd7 has no rows for 15 and 16 threads (over 60 s); ratio = herd7 s / ravel t.")
    for model in SB_MODELS:
        oracle = ORACLE.get(model)
        man = load_manifest(a.corpus, oracle) if oracle else {}
        live = bool(shutil.which("herd7")) and oracle is not None
        rows = []
        stop_full = stop_vo = False
        for n, f in files:
            path = os.path.join("tests", "pridemm-store_buffer", f)
            herd = man.get(path, (None, None))
            if live:
                herd = run_herd7(a, model, os.path.join(a.corpus, path))[::-1]
            full = None if stop_full else run_ravel(a.ravel, ["-m", model, "--timeout", str(a.timeout), path],
                                                    cwd=a.corpus, hard_timeout=a.timeout + 30)
            vo = None if stop_vo else run_ravel(a.ravel, ["-m", model, "--verdict-only", "--timeout",
                                                          str(a.timeout), path], cwd=a.corpus,
                                                hard_timeout=a.timeout + 30)
            fx = full.results[0] if full and full.results else None
            vx = vo.results[0] if vo and vo.results else None
            fok = fx is not None and decided(fx)
            vok = vx is not None and decided(vx)
            if full and (not fok or full.wall > a.cutoff):
                stop_full = True
            if vo and (not vok or vo.wall > a.cutoff):
                stop_vo = True
            if full is None and vo is None:
                break
            for lab, x, ok in (("full", fx, fok), ("vo", vx, vok)):
                if ok and x.get("observation") != SB_EXPECT[model]:
                    problems.append("corpus %s %s %s: %s, expected %s"
                                    % (path, model, lab, x.get("observation"), SB_EXPECT[model]))
            row = [n,
                   fmt_t(fx.get("time")) if fok else ("-" if full is None else "fail"),
                   fmt_t(fx.get("time_ground")) if fok else "-", fmt_t(fx.get("time_solve")) if fok else "-",
                   fx.get("observation") if fok else "-", len(fx.get("states", [])) if fok else "-",
                   fx.get("sat_vars") if fok else "-", fx.get("sat_clauses") if fok else "-",
                   fmt_t(vx.get("time")) if vok else ("-" if vo is None else "fail"),
                   fmt_t(vx.get("time_ground")) if vok else "-", fmt_t(vx.get("time_solve")) if vok else "-",
                   vx.get("observation") if vok else "-",
                   fmt_t(herd[1]) if oracle else "n/a",
                   fmt_ratio(herd[1], fx.get("time")) if fok and herd[1] else "-",
                   fmt_ratio(herd[1], vx.get("time")) if vok and herd[1] else "-"]
            if model == "sc":
                g = gen_sb.get(n)
                row += [fmt_t(g[0][0].wall) if g and g[0][2] == "ok" else "-",
                        fmt_t(g[1][0].wall) if g and g[1][2] == "ok" else "-"]
            rows.append(row)
        print()
        print("   model %s%s" % (model, "" if not oracle else " (herd7 oracle %s)" % oracle))
        hdr = ["threads", "full t", "ground", "solve", "obs", "states", "vars", "clauses", "vo t", "ground",
               "solve", "obs", "herd7 s", "ratio full", "ratio vo"]
        if model == "sc":
            hdr += ["gen SB full wall", "gen SB vo wall"]
        table(hdr, rows)
    print()


# ----------------------------------------------------------------- (c) herd7

def herd7_section(a, allres, problems):
    herd = shutil.which("herd7")
    print("== (c) herd7 on the generated families")
    if not herd:
        print("herd7 not on PATH: ratios against the corpus manifest only")
        print()
        return
    print("   %s -model sc.cat FILE, wall seconds, stop a family after a run over %g s; ratio = herd7 / ravel sc full"
          % (herd, a.cutoff))
    for fam, (rows, res) in allres.items():
        trows = []
        stopped = False
        for r in rows:
            if stopped:
                break
            path = os.path.join(a.gen, r["file"])
            t0 = time.perf_counter()
            try:
                p = subprocess.run([herd, "-model", "sc.cat", path], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, timeout=a.timeout)
                wall = time.perf_counter() - t0
                m = re.search(r"^Observation \S+ (\w+)", p.stdout, re.M)
                obs = m.group(1) if m else "fail"
            except subprocess.TimeoutExpired:
                wall, obs = time.perf_counter() - t0, "timeout"
            if obs not in ("Never", "Sometimes", "Always") or wall > a.cutoff:
                stopped = True
            f = res[("sc full", r["value"])]
            o = res[("sc vo", r["value"])]
            trows.append([r["value"], fmt_t(wall), obs,
                          fmt_t(f[0].wall) if f[2] == "ok" else "-", fmt_ratio(wall, f[0].wall) if f[2] == "ok" else "-",
                          fmt_t(o[0].wall) if o[2] == "ok" else "-", fmt_ratio(wall, o[0].wall) if o[2] == "ok" else "-"])
        print("-- %s" % fam)
        table([rows[0]["param"], "herd7 s", "obs", "ravel full s", "ratio", "ravel vo s", "ratio vo"], trows)
        print()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ravel", required=True)
    ap.add_argument("--gen", required=True, help="directory written by gen.py")
    ap.add_argument("--corpus", required=True, help="the corpus's litmus directory (manifest.tsv, tests/)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--nmax", type=int, default=8, help="largest n with --quick (default 8)")
    ap.add_argument("--cutoff", type=float, default=30.0)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--skip-corpus", action="store_true")
    ap.add_argument("--corpus-models", default="sc,tso,ra,c11",
                    help="models for the corpus section (default sc,tso,ra,c11)")
    a = ap.parse_args(argv)
    a.timeout = int(a.timeout) if a.timeout == int(a.timeout) else a.timeout
    t0 = time.perf_counter()
    ver = subprocess.run([a.ravel, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print("ravel litmus benchmark: %s (%s)%s" % (a.ravel, ver.stdout.strip().splitlines()[0] if ver.stdout.strip()
                                                  else "no --version", ", --quick" if a.quick else ""))
    print("host: %s, %d CPUs; peak memory: %s; load average at start: %s"
          % (os.uname().nodename, os.cpu_count() or 0,
             "/usr/bin/time -f %M" if TIME_BIN else "not measured", " ".join("%.2f" % x for x in os.getloadavg())))
    print()
    problems = []
    if not a.skip_corpus:
        for model in a.corpus_models.split(","):
            corpus_section(a, problems, model)
    allres = families_section(a, problems)
    hard_section(allres, problems)
    store_buffer_section(a, allres, problems)
    sb_c_section(a, problems)
    herd7_section(a, allres, problems)
    print("== things that look wrong (%d)" % len(problems))
    for p in problems:
        print("  " + p)
    if not problems:
        print("  none")
    print()
    print("total benchmark wall time: %.0f s" % (time.perf_counter() - t0))


if __name__ == "__main__":
    main(sys.argv[1:])
