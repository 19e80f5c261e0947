#!/usr/bin/env python3
"""bench/cfront/measure.py: how much of a compilation database ravel lowers.

    measure.py RAVEL NAME BUILD-DIR [--per-unit] [--jobs N] [--md FILE]

Runs `ravel ir -p BUILD-DIR -q` once over the whole database (timed), and
with --per-unit once per C entry of the database (each entry alone in a
one-entry compile_commands.json in a scratch directory), because ravel's
output does not say which unit an error belongs to: an error's location may
be a header, one unit may print many errors, and a unit that fails still
prints nothing when it fails. An entry counts as lowered when that one-unit
run exits 0.

Prints a summary; with --md appends it (markdown) to FILE. Figures only,
nothing is asserted. Messages are grouped after dropping their
`file:line:col: error: ` prefix; the "classes" histogram also replaces every
quoted name ('...') by '_'.
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

C_EXT = (".c", ".i")
LOC = re.compile(r"^(.*?):(\d+):(\d+): error: ")
QUOTED = re.compile(r"'[^']*'")


def entry_file(e):
    f = e["file"]
    if not os.path.isabs(f):
        f = os.path.join(e["directory"], f)
    return os.path.normpath(f)


def errors_of(stderr):
    """The error messages of a ravel run, without their locations."""
    out = []
    for line in stderr.splitlines():
        m = LOC.match(line)
        if m:
            out.append(line[m.end():].strip())
        elif ": error: " in line:
            out.append(line.split(": error: ", 1)[1].strip())
    return out


def run(cmd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, errors="replace")
    return p.returncode, p.stderr, time.monotonic() - t0


def ravel_id(ravel):
    """The binary's mtime and, when it sits in a git checkout's build/, the commit."""
    st = os.stat(ravel)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(st.st_mtime))
    repo = os.path.dirname(os.path.dirname(os.path.abspath(ravel)))
    p = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%h"], capture_output=True, text=True)
    if p.returncode != 0:
        return "%s built %s" % (ravel, stamp)
    dirty = subprocess.run(["git", "-C", repo, "status", "--porcelain", "--untracked-files=no", "src"],
                           capture_output=True, text=True).stdout.strip()
    return "%s built %s (HEAD %s%s)" % (ravel, stamp, p.stdout.strip(),
                                       " + uncommitted changes in src/" if dirty else "")


def hist(msgs, n=25):
    return collections.Counter(msgs).most_common(n)


def main():
    args = sys.argv[1:]
    per_unit = "--per-unit" in args
    md = None
    jobs = "1"
    if "--md" in args:
        i = args.index("--md")
        md = args[i + 1]
        del args[i:i + 2]
    if "--jobs" in args:
        i = args.index("--jobs")
        jobs = args[i + 1]
        del args[i:i + 2]
    args = [a for a in args if a != "--per-unit"]
    ravel, name, bdir = args[0], args[1], os.path.abspath(args[2])
    ident = ravel_id(ravel)
    # one binary for every run of this program, though the original be rebuilt meanwhile
    snap_dir = tempfile.TemporaryDirectory()
    snap = os.path.join(snap_dir.name, "ravel")
    shutil.copy2(ravel, snap)
    ravel = snap
    db_path = os.path.join(bdir, "compile_commands.json")
    db = json.load(open(db_path))
    c_entries = [e for e in db if entry_file(e).endswith(C_EXT)]
    other = collections.Counter(os.path.splitext(entry_file(e))[1] or "(none)"
                                for e in db if not entry_file(e).endswith(C_EXT))
    nice = ["nice", "-n", "19"]

    rc, err, secs = run(nice + [ravel, "ir", "-p", bdir, "-q", "-j", jobs])
    whole = errors_of(err)
    warns = collections.Counter(l.split("warning: ", 1)[1].strip()
                                for l in err.splitlines() if "warning: " in l)

    lowered = None
    first = []
    failed_units = []
    unit_secs = 0.0
    if per_unit:
        lowered = 0
        with tempfile.TemporaryDirectory() as tmp:
            one = os.path.join(tmp, "compile_commands.json")
            for e in c_entries:
                with open(one, "w") as f:
                    json.dump([e], f)
                urc, uerr, us = run(nice + [ravel, "ir", "-p", tmp, "-q", "-j", "1"])
                unit_secs += us
                if urc == 0:
                    lowered += 1
                    continue
                msgs = errors_of(uerr)
                msg = msgs[0] if msgs else "(exit %d, no error line)" % urc
                first.append(msg)
                failed_units.append((os.path.relpath(entry_file(e), bdir), msg))

    L = []
    L.append("### %s" % name)
    L.append("")
    L.append("- db: `%s`" % db_path)
    L.append("- units in db: %d; C units: %d; other: %s" % (
        len(db), len(c_entries),
        ", ".join("%s %d" % kv for kv in sorted(other.items())) or "none"))
    if lowered is not None:
        pct = 100 * lowered // len(c_entries) if c_entries else 0  # floor: 100% only when all lower
        L.append("- C units lowered (one ravel run per unit): %d/%d (%d%%); "
                 "per-unit runs took %.0f s" % (lowered, len(c_entries), pct, unit_secs))
    L.append("- `ravel ir -p DIR -q -j %s` (whole db): exit %d, %.1f s, %d error lines"
             % (jobs, rc, secs, len(whole)))
    if warns:
        L.append("- whole-db run's stderr also has %d warning lines (%d distinct), most frequent: %s"
                 % (sum(warns.values()), len(warns), "; ".join("%d× %s" % (n, m) for m, n in warns.most_common(3))))
    try:
        L.append("- load after: %s; ravel: %s" % (" ".join(open("/proc/loadavg").read().split()[0:3]), ident))
    except OSError:
        pass
    def block(title, msgs, n):
        L.append(title)
        L.append("```")
        L.extend("%5d  %s" % (c, m) for m, c in hist(msgs, n))
        L.append("```")

    if first:
        L.append("")
        block("first error of each failing C unit (count  message):", first, 40)
    if whole:
        L.append("")
        block("all error lines of the whole-db run (count  message):", whole, 40)
        block("classes (quoted names as '_'):", [QUOTED.sub("'_'", m) for m in whole], 25)
    if failed_units:
        L.append("")
        L.append("<details><summary>failing units</summary>")
        L.append("")
        L.append("```")
        for f, m in failed_units:
            L.append("%s: %s" % (f, m))
        L.append("```")
        L.append("</details>")
    L.append("")
    text = "\n".join(L) + "\n"
    sys.stdout.write(text)
    if md:
        with open(md, "a") as f:
            f.write(text)
    summary = {"name": name, "db": db_path, "units": len(db), "c_units": len(c_entries),
               "lowered": lowered, "ir_exit": rc, "ir_seconds": round(secs, 2),
               "errors": len(whole), "first_errors": hist(first, 1000),
               "all_errors": hist(whole, 1000), "failed_units": failed_units}
    with open(os.path.join(bdir, "ravel-cfront-bench.json"), "w") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
