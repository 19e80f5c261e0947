#!/usr/bin/env python3
"""The litmus benchmark: prints tables, asserts nothing about timing.

Called by run.sh (which says where ravel and the generated tests are):

  run.py --ravel PATH --gen DIR --corpus DIR [--quick] [--cutoff S] [--timeout S]

(a) the corpus (<corpus>/tests/<group>/...), for each model of
    --corpus-models (default sc,ra): one `ravel litmus -q --json -m MODEL`
    run per group, full and --verdict-only; SAT sizes from the JSON; herd7's
    time from <corpus>/manifest.tsv (that model's rows); the 5 slowest tests.
(b) the scaling families made by gen.py: one ravel run per file, sc full,
    sc --verdict-only, tso --verdict-only and ra --verdict-only; a family
    stops in a mode once a run takes more than --cutoff seconds (or fails);
    the corpus's pridemm-store_buffer/sb_<n>threads next to herd7's manifest
    time.
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


def decided(x):
    return x.get("observation") in ("Never", "Sometimes", "Always")


def mb(kb):
    return "-" if kb is None else "%.1f" % (kb / 1024.0)


# ---------------------------------------------------------------- (a) corpus

def corpus_section(a, problems, model):
    tests_dir = os.path.join(a.corpus, "tests")
    groups = sorted(d for d in os.listdir(tests_dir) if os.path.isdir(os.path.join(tests_dir, d)))
    man = load_manifest(a.corpus, model)
    print("== (a) corpus %s: ravel litmus -q --json -m %s [--verdict-only] --timeout %g, one run per group"
          % (a.corpus, model, a.timeout))
    print("   t = sum of ravel's per-test JSON time; herd7 = sum of herd7_seconds of the %s rows of the tests"
          % model)
    print("   ravel decided (herd7 prints Time with 0.01 s resolution, so most tests count 0.01 or 0.00);")
    print("   ratio = herd7 / ravel t. Peak memory is per ravel process (all tests of the group).")
    print()
    rows = []
    tot = collections.defaultdict(float)
    totmax = collections.defaultdict(int)
    alltests = []
    for g in groups:
        full = run_ravel(a.ravel, ["-m", model, "--timeout", str(a.timeout), "tests/" + g], cwd=a.corpus)
        vo = run_ravel(a.ravel, ["-m", model, "--verdict-only", "--timeout", str(a.timeout), "tests/" + g],
                       cwd=a.corpus)
        fres = full.results
        vmap = {x.get("file"): x for x in vo.results}
        ndec = sum(1 for x in fres if decided(x))
        nerr = sum(1 for x in fres if x.get("verdict") == "error")
        nunk = len(fres) - ndec - nerr
        t_full = sum(x.get("time", 0.0) for x in fres if decided(x))
        t_vo = sum(x.get("time", 0.0) for x in vo.results if decided(x))
        vars_ = [x.get("sat_vars", 0) for x in fres if decided(x)]
        cls = [x.get("sat_clauses", 0) for x in fres if decided(x)]
        herd = 0.0
        nherd = 0
        mism = 0
        for x in fres:
            f = x.get("file")
            m = man.get(f)
            v = vmap.get(f)
            if decided(x):
                alltests.append((x.get("time", 0.0), f, x, v, m))
                if m is not None and m[1] is not None:
                    herd += m[1]
                    nherd += 1
                if m is not None and m[0] != x.get("observation"):
                    mism += 1
                    problems.append("corpus %s: ravel %s full says %s, herd7 (manifest) says %s"
                                    % (f, model, x.get("observation"), m[0]))
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
        rows.append([g, len(fres), ndec, nerr + nunk, fmt_t(full.wall), fmt_t(t_full), mb(full.peak_kb),
                     fmt_t(vo.wall), fmt_t(t_vo), mb(vo.peak_kb),
                     sum(vars_), max(vars_ or [0]), sum(cls), max(cls or [0]),
                     nherd, fmt_t(herd) if nherd else "-", fmt_ratio(herd, t_full) if nherd else "-",
                     fmt_ratio(herd, t_vo) if nherd else "-", mism if nherd else "-"])
        for k, v in (("n", len(fres)), ("dec", ndec), ("bad", nerr + nunk), ("fw", full.wall), ("ft", t_full),
                     ("vw", vo.wall), ("vt", t_vo), ("sv", sum(vars_)), ("sc", sum(cls)), ("herd", herd),
                     ("nherd", nherd), ("mism", mism)):
            tot[k] += v
        totmax["mv"] = max(totmax["mv"], max(vars_ or [0]))
        totmax["mc"] = max(totmax["mc"], max(cls or [0]))
        totmax["fm"] = max(totmax["fm"], full.peak_kb or 0)
        totmax["vm"] = max(totmax["vm"], vo.peak_kb or 0)
    rows.append(["TOTAL", int(tot["n"]), int(tot["dec"]), int(tot["bad"]), fmt_t(tot["fw"]), fmt_t(tot["ft"]),
                 mb(totmax["fm"] or None), fmt_t(tot["vw"]), fmt_t(tot["vt"]), mb(totmax["vm"] or None),
                 int(tot["sv"]), totmax["mv"], int(tot["sc"]), totmax["mc"], int(tot["nherd"]),
                 fmt_t(tot["herd"]), fmt_ratio(tot["herd"], tot["ft"]), fmt_ratio(tot["herd"], tot["vt"]),
                 int(tot["mism"])])
    hdr = ["group", "tests", "ok", "err", "full wall", "full t", "MB", "vo wall", "vo t", "MB",
           "vars sum", "max", "clauses sum", "max", "herd n", "herd7 s", "ratio full", "ratio vo", "obs≠herd"]
    if not TIME_BIN:
        hdr = [h for h in hdr if h != "MB"]
        rows = [[c for i, c in enumerate(r) if i not in (6, 9)] for r in rows]
    table(hdr, rows)
    # herd7's total over every row of the model, whatever ravel did with the test
    all_herd = sum(s for (_, s) in man.values() if s is not None)
    print()
    print("herd7 total over all %d %s rows of the manifest: %s s (ravel %s full t over the %d tests it decided: %s s)"
          % (len(man), model, fmt_t(all_herd), model, int(tot["dec"]), fmt_t(tot["ft"])))
    print()
    print("5 slowest tests (%s full, by ravel's JSON time):" % model)
    alltests.sort(key=lambda z: -z[0])
    rows = []
    for t, f, x, v, m in alltests[:5]:
        rows.append([f, fmt_t(t), fmt_t(v.get("time") if v else None), x.get("observation"),
                     len(x.get("states", [])), x.get("events"), x.get("sat_vars"), x.get("sat_clauses"),
                     x.get("sat_calls"), fmt_t(m[1]) if m and m[1] is not None else "-",
                     fmt_ratio(m[1], t) if m and m[1] is not None else "-"])
    table(["test", "full t", "vo t", "obs", "states", "events", "vars", "clauses", "sat calls", "herd7 s",
           "ratio"], rows)
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
    print("   under ra SB, IRIW and 2+2W are Sometimes, MP and LB Never.")
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


def store_buffer_section(a, allres, problems):
    man = load_manifest(a.corpus)
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
    print("-- corpus pridemm-store_buffer/sb_<n>threads (sc; herd7 s from the manifest; ratio = herd7 / ravel full wall)")
    print("   herd7 has no rows for 15 and 16 threads (over 60 s); the generated SB_n (same shape, ring) next to it")
    rows = []
    stop_full = False
    for n, f in files:
        path = os.path.join("tests", "pridemm-store_buffer", f)
        herd = man.get(path, (None, None))
        if stop_full:
            full = None
        else:
            full = run_ravel(a.ravel, ["-m", "sc", "--timeout", str(a.timeout), path], cwd=a.corpus,
                             hard_timeout=a.timeout + 30)
        vo = run_ravel(a.ravel, ["-m", "sc", "--verdict-only", "--timeout", str(a.timeout), path], cwd=a.corpus,
                       hard_timeout=a.timeout + 30)
        fx = full.results[0] if full and full.results else None
        vx = vo.results[0] if vo.results else None
        fok = fx is not None and decided(fx)
        vok = vx is not None and decided(vx)
        if full and (not fok or full.wall > a.cutoff):
            stop_full = True
        for lab, x, ok in (("full", fx, fok), ("vo", vx, vok)):
            if ok and x.get("observation") != "Never":
                problems.append("corpus %s sc %s: %s, expected Never" % (path, lab, x.get("observation")))
        g = gen_sb.get(n)
        gf = fmt_t(g[0][0].wall) if g and g[0][2] == "ok" else "-"
        gv = fmt_t(g[1][0].wall) if g and g[1][2] == "ok" else "-"
        rows.append([n, fmt_t(full.wall) if fok else ("-" if full is None else "fail"),
                     fx.get("observation") if fok else "-", len(fx.get("states", [])) if fok else "-",
                     fmt_t(vo.wall) if vok else "fail", vx.get("observation") if vok else "-",
                     fmt_t(herd[1]), fmt_ratio(herd[1], full.wall) if fok else "-",
                     fmt_ratio(herd[1], vo.wall) if vok else "-", gf, gv])
    table(["threads", "ravel full s", "obs", "states", "ravel vo s", "obs", "herd7 s", "ratio full", "ratio vo",
           "gen SB full s", "gen SB vo s"], rows)
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
    ap.add_argument("--corpus-models", default="sc,ra", help="models for the corpus section (default sc,ra)")
    a = ap.parse_args(argv)
    a.timeout = int(a.timeout) if a.timeout == int(a.timeout) else a.timeout
    t0 = time.perf_counter()
    ver = subprocess.run([a.ravel, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print("ravel litmus benchmark: %s (%s)%s" % (a.ravel, ver.stdout.strip().splitlines()[0] if ver.stdout.strip()
                                                  else "no --version", ", --quick" if a.quick else ""))
    print("host: %s, %d CPUs; peak memory: %s" % (os.uname().nodename, os.cpu_count() or 0,
                                                   "/usr/bin/time -f %M" if TIME_BIN else "not measured"))
    print()
    problems = []
    if not a.skip_corpus:
        for model in a.corpus_models.split(","):
            corpus_section(a, problems, model)
    allres = families_section(a, problems)
    store_buffer_section(a, allres, problems)
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
