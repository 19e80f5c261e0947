#!/usr/bin/env python3
"""bench/race/compare.py: the data-race comparison of issue 5.

For every SV-COMP task with property no-data-race in the corpus manifest:

  TSan      gcc -fsanitize=thread -g -O0, the program run --runs times;
            "race" when any run printed "WARNING: ThreadSanitizer: data race"
  helgrind  gcc -g -O0, run --runs times under valgrind --tool=helgrind;
            "race" when any run printed "Possible data race"
  ravel     ravel race --json TASK.yml, once ("n/a" while the command does
            not exist)

The programs are linked with svcomp_env.c (the SV-COMP functions they declare
but do not define).  Lines are shown as pairs of the two accesses,
"13w-30r" = a write at line 13 and a read at line 30 of the task's input
file (for a dynamic tool, the innermost stack frame in that file).

Prints one table and the totals per tool; --markdown prints them as Markdown,
--json as one JSON object.  Figures only; nothing here is a test.

  bench/race/compare.py [--runs 5] [--timeout 10] [--ravel build/ravel]
                        [--corpus DIR] [--only SUBSTRING] [--markdown|--json]
  bench/race/compare.py --load results.json --markdown   (print an earlier run)
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
ENV_C = os.path.join(HERE, "svcomp_env.c")

# Debian packages: required, and wanted for ILP32 tasks (-m32).
REQUIRED = {"gcc": "gcc", "valgrind": "valgrind"}
MULTILIB = "gcc-multilib"

STATUS_RACE = "race"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- set-up

def dpkg_installed(pkg):
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg],
                             capture_output=True, text=True).stdout
    except FileNotFoundError:
        return None  # not Debian: cannot tell
    return out.strip().endswith("installed") and "not-installed" not in out


def ensure_tools():
    """gcc and valgrind must be on PATH: installed when root, else the
    apt-get line is printed and we stop.  gcc-multilib is optional (without
    it ILP32 tasks are compiled 64-bit)."""
    missing = [pkg for cmd, pkg in REQUIRED.items() if shutil.which(cmd) is None]
    want_multilib = dpkg_installed(MULTILIB) is False
    if not missing and not want_multilib:
        return
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    if root and shutil.which("apt-get"):
        pkgs = missing + ([MULTILIB] if want_multilib else [])
        log("compare.py: installing " + " ".join(pkgs))
        if subprocess.run(["apt-get", "install", "-y", "-qq"] + pkgs,
                          stdout=subprocess.DEVNULL).returncode != 0:
            subprocess.run(["apt-get", "update", "-qq"], stdout=subprocess.DEVNULL)
            subprocess.run(["apt-get", "install", "-y", "-qq"] + pkgs,
                           stdout=subprocess.DEVNULL)
        missing = [pkg for cmd, pkg in REQUIRED.items() if shutil.which(cmd) is None]
    if missing:
        log("compare.py: missing Debian packages; run as root:  apt-get install "
            + " ".join(missing))
        sys.exit(2)
    if dpkg_installed(MULTILIB) is False:
        log("compare.py: no %s (apt-get install %s); ILP32 tasks are compiled 64-bit"
            % (MULTILIB, MULTILIB))


PROBE_C = r"""
#include <pthread.h>
static int x;
static void *t(void *a) { x = 1; return a; }
int main(void) { pthread_t id; pthread_create(&id, 0, t, 0); pthread_join(id, 0); return x - 1; }
"""


def probe_m32(tmp, tsan):
    """Can we build *and run* a 32-bit pthread program (with TSan when tsan)?
    Returns (ok, reason)."""
    src = os.path.join(tmp, "probe.c")
    exe = os.path.join(tmp, "probe32" + ("t" if tsan else "h"))
    with open(src, "w") as f:
        f.write(PROBE_C)
    cmd = ["gcc", "-m32", "-g", "-O0", "-pthread", src, "-o", exe]
    if tsan:
        cmd.insert(1, "-fsanitize=thread")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        if tsan and "ltsan" in r.stderr:
            return False, "gcc has no 32-bit ThreadSanitizer runtime (libtsan is x86-64 only)"
        return False, "gcc -m32 cannot link (" + last_line(r.stderr) + ")"
    if not tsan:
        try:
            subprocess.run([exe], capture_output=True, timeout=60)
        except OSError as e:
            return False, "32-bit programs do not run on this machine (%s: no IA-32 emulation in the kernel?)" % e.strerror
        except subprocess.TimeoutExpired:
            return False, "32-bit probe timed out"
    run = [exe] if tsan else ["valgrind", "-q", "--tool=helgrind", exe]
    try:
        r = subprocess.run(run, capture_output=True, text=True, timeout=60)
    except OSError as e:
        return False, "32-bit programs do not run on this machine (%s)" % e.strerror
    except subprocess.TimeoutExpired:
        return False, "32-bit probe timed out"
    if r.returncode != 0:
        return False, "32-bit program fails here (%s)" % last_line(r.stderr or "exit %d" % r.returncode)
    return True, ""


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


# ---------------------------------------------------------------- tasks

def parse_yml(path):
    """The few fields of an SV-COMP task file we need (no YAML library)."""
    inputs, model, verdict = [], "ILP32", None
    prop = None
    with open(path) as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].split("#", 1)[0].rstrip() if not lines[i].lstrip().startswith("- ") else lines[i].rstrip()
        m = re.match(r"input_files:\s*(.*)$", line)
        if m:
            val = m.group(1).strip()
            if val.startswith("["):
                inputs = [v.strip().strip("'\"") for v in val.strip("[]").split(",") if v.strip()]
            elif val:
                inputs = [val.strip("'\"")]
            else:
                while i + 1 < len(lines) and lines[i + 1].lstrip().startswith("- "):
                    i += 1
                    inputs.append(lines[i].lstrip()[2:].strip().strip("'\""))
        m = re.match(r"\s*-?\s*property_file:\s*(\S+)", line)
        if m:
            prop = os.path.basename(m.group(1).strip("'\""))
        m = re.match(r"\s*expected_verdict:\s*(\S+)", line)
        if m and prop and prop.startswith("no-data-race"):
            verdict = m.group(1).strip("'\"")
        m = re.match(r"\s*data_model:\s*(\S+)", line)
        if m:
            model = m.group(1).strip("'\"")
        i += 1
    return inputs, model, verdict


def load_tasks(corpus, only):
    manifest = os.path.join(corpus, "manifest.tsv")
    tasks = []
    with open(manifest) as f:
        header = f.readline().rstrip("\n").split("\t")
        col = {name: i for i, name in enumerate(header)}
        for line in f:
            row = line.rstrip("\n").split("\t")
            if len(row) <= col["property"] or row[col["property"]] != "no-data-race":
                continue
            name = row[col["task"]]
            if only and not any(o in name for o in only):
                continue
            yml = os.path.join(corpus, name)
            inputs, model, verdict = parse_yml(yml)
            tasks.append({
                "task": name,
                "yml": yml,
                "inputs": [os.path.join(os.path.dirname(yml), p) for p in inputs],
                "data_model": model,
                "expected": row[col["expected_verdict"]] or verdict,
            })
    return tasks


# ---------------------------------------------------------------- running

def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    p.wait()


def run_limited(cmd, timeout, env=None, stderr_path=None, stdin_path=None):
    """Run cmd in its own process group; kill the group after timeout seconds.
    stdin is stdin_path (or empty), stdout is discarded (some programs print
    forever), stderr goes to a file of which the first 4 MB are returned.
    Returns (rc, timed_out, secs, stderr)."""
    start = time.monotonic()
    with open(stderr_path, "wb") as err, open(stdin_path or os.devnull, "rb") as inp:
        try:
            p = subprocess.Popen(cmd, stdin=inp, stdout=subprocess.DEVNULL,
                                 stderr=err, env=env, start_new_session=True)
        except OSError as e:
            return 127, False, 0.0, str(e)
        timed_out = False
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        except BaseException:   # ^C or SIGTERM: leave no looping program behind
            kill_group(p)
            raise
        kill_group(p)   # also threads or children left by a program that exited
    secs = time.monotonic() - start
    with open(stderr_path, "rb") as f:
        text = f.read(4 << 20).decode("utf-8", "replace")
    return p.returncode, timed_out, secs, text


def build(task, tmp, tsan, m32, random_locals):
    exe = os.path.join(tmp, "tsan" if tsan else "plain")
    cmd = ["gcc", "-g", "-O0", "-w", "-pthread"]
    if random_locals:   # see svcomp_env.c: locals of main and of thread functions
        cmd += ["-Wl,--wrap=main", "-Wl,--wrap=pthread_create"]
    if tsan:
        cmd.append("-fsanitize=thread")
    if m32:
        cmd.append("-m32")
    # Task files may name headers of their own directory.
    cmd += ["-I", os.path.dirname(task["yml"])]
    cmd += task["inputs"] + [ENV_C, "-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    stubbed = []
    if r.returncode != 0:
        # Functions the program declares but nobody defines (06-symbeq_17's
        # get_s): SV-COMP lets them return any value; a stub returns a fresh
        # zeroed block, which serves as a pointer and (truncated) as a number.
        stubbed = sorted(set(re.findall(r"undefined reference to `([A-Za-z_][A-Za-z0-9_]*)'", r.stderr)))
        if stubbed:
            stub = os.path.join(tmp, "stubs.c")
            with open(stub, "w") as f:
                f.write("#include <stdlib.h>\n")
                for name in stubbed:
                    f.write("void *%s() { return calloc(1, 256); }\n" % name)
            r = subprocess.run(cmd[:-2] + [stub] + cmd[-2:], capture_output=True, text=True)
    if r.returncode != 0:
        errs = [l for l in r.stderr.splitlines() if "error" in l]
        return None, (errs[0] if errs else last_line(r.stderr))
    return exe, ("stub for undefined " + ", ".join(stubbed) if stubbed else "")


FRAME_TSAN = re.compile(r"^\s*#\d+\s+(\S+)\s+(\S+?):(\d+)(?::\d+)?\s")
FRAME_VG = re.compile(r"^==\d+==\s+(?:at|by) 0x[0-9A-Fa-f]+: (.+?) \((\S+?):(\d+)\)")


def first_frame(frames, inputs):
    """The innermost frame in one of the task's input files: its line."""
    names = {os.path.basename(p) for p in inputs}
    for _func, path, line in frames:
        if os.path.basename(path) in names:
            return int(line)
    return None


def pair_str(a, b):
    """'13w-30r': two accesses (line, 'w'|'r'), ordered by line; '?' for a
    line not in the input file or an access the tool did not name."""
    acc = sorted([a, b], key=lambda x: (x[0] if x[0] is not None else 1 << 30, x[1]))
    return "-".join("%s%s" % (l if l is not None else "?", k) for l, k in acc)


def parse_tsan(text, inputs):
    """Pairs of racing accesses in a ThreadSanitizer log."""
    pairs = []
    for block in text.split("WARNING: ThreadSanitizer: data race")[1:]:
        block = block.split("==================")[0]
        accesses = []   # [(kind, frames)]
        for line in block.splitlines():
            m = re.match(r"\s*(?:Previous |Previous atomic |Atomic )?(read|write|Read|Write)\b.* of size", line)
            if m and (line.lstrip().startswith(("Read", "Write", "Previous", "Atomic"))):
                accesses.append(["w" if m.group(1).lower() == "write" else "r", []])
                continue
            if re.match(r"\s*(Location is|Mutex|Thread T|SUMMARY)", line):
                if len(accesses) >= 2:
                    break
                continue
            f = FRAME_TSAN.match(line)
            if f and accesses:
                accesses[-1][1].append(f.groups())
        if len(accesses) >= 2:
            a = (first_frame(accesses[0][1], inputs), accesses[0][0])
            b = (first_frame(accesses[1][1], inputs), accesses[1][0])
            pairs.append(pair_str(a, b))
    return pairs


def parse_helgrind(text, inputs):
    """Pairs of racing accesses in a helgrind log."""
    pairs = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.search(r"Possible data race during (read|write) of size", lines[i])
        if not m:
            i += 1
            continue
        first_kind = "w" if m.group(1) == "write" else "r"
        first, second, second_kind = [], [], None
        cur = first
        i += 1
        while i < len(lines):
            line = lines[i]
            if "Possible data race during" in line:
                break
            c = re.search(r"conflicts with a previous (read|write) of size", line)
            if c:
                second_kind = "w" if c.group(1) == "write" else "r"
                cur = second
            elif re.match(r"^==\d+==\s*$", line) and cur is second and second:
                i += 1
                break
            elif re.match(r"^==\d+== (Address|-{5})", line):
                if cur is second:
                    i += 1
                    break
            f = FRAME_VG.match(line)
            if f:
                cur.append(f.groups())
            i += 1
        a = (first_frame(first, inputs), first_kind)
        if second_kind is None:   # helgrind did not find the earlier access
            pairs.append(pair_str(a, (None, "")))
        else:
            pairs.append(pair_str(a, (first_frame(second, inputs), second_kind)))
    return pairs


def dynamic_tool(task, tmp, tool, args, m32_ok):
    """Build and run one task under TSan or helgrind.  Returns a result dict."""
    res = {"status": "none", "pairs": [], "runs": 0, "races_in_runs": 0,
           "timeouts": 0, "crashes": 0, "secs": 0.0, "build": "", "note": ""}
    tsan = tool == "tsan"
    m32 = task["data_model"] == "ILP32" and m32_ok
    exe, err = build(task, tmp, tsan, m32, not args.no_random_locals)
    if exe is None:
        res["status"] = "build error"
        res["note"] = err
        return res
    res["build"] = "-m32" if m32 else "64-bit"
    res["note"] = err
    env = dict(os.environ)
    env["TSAN_OPTIONS"] = ("report_thread_leaks=0 halt_on_error=0 report_signal_unsafe=0 "
                           + env.get("TSAN_OPTIONS", ""))
    # Programs that read input (scanf) get numbers: SV-COMP treats input as
    # nondeterministic, and an empty stdin would leave the variable unwritten.
    stdin_path = os.path.join(tmp, "stdin.txt")
    if not os.path.exists(stdin_path):
        with open(stdin_path, "w") as f:
            f.write("1\n" * 4096)
    pairs = set()
    notes = set()
    for run in range(args.runs):
        env["SVCOMP_SEED"] = str(run + 1)
        if tsan:
            cmd = [exe]
        else:
            cmd = ["valgrind", "-q", "--tool=helgrind", "--max-threads=%d" % args.max_threads, exe]
        rc, timed_out, secs, text = run_limited(cmd, args.timeout, env,
                                                os.path.join(tmp, tool + ".err"), stdin_path)
        res["runs"] += 1
        res["secs"] += secs
        found = parse_tsan(text, task["inputs"]) if tsan else parse_helgrind(text, task["inputs"])
        if found:
            res["races_in_runs"] += 1
            pairs.update(found)
        if timed_out:
            res["timeouts"] += 1
        elif rc < 0 and rc != -signal.SIGABRT:
            res["crashes"] += 1
        if not tsan and "Use --max-threads" in text:
            notes.add("valgrind's thread limit (%d) reached" % args.max_threads)
        if tsan and "ThreadSanitizer: Thread limit" in text:
            notes.add("TSan's thread limit reached")
        elif tsan and "ThreadSanitizer: CHECK failed" in text:
            notes.add("TSan failed a CHECK")
        if rc == -signal.SIGSEGV:
            notes.add("segmentation fault")
    res["pairs"] = sorted(pairs)
    if res["races_in_runs"]:
        res["status"] = STATUS_RACE
    elif res["timeouts"] == res["runs"]:
        res["status"] = "timeout"
    if res["timeouts"] and (res["timeouts"] < res["runs"] or res["races_in_runs"]):
        notes.add("%d/%d runs timed out (killed)" % (res["timeouts"], res["runs"]))
    res["note"] = "; ".join(([res["note"]] if res["note"] else []) + sorted(notes))
    return res


class RavelState:
    available = None   # None: not yet known
    binary = None      # a copy of --ravel taken at the start


def snapshot_ravel(args, tmp, state):
    """Copy the ravel binary once, so that a rebuild during the run (the
    default is the shared /work/main/build/ravel) neither removes it under us
    nor mixes two versions in one table.  Waits up to a minute for a binary
    that is being relinked."""
    for _ in range(60):
        if os.access(args.ravel, os.X_OK):
            try:
                state.binary = os.path.join(tmp, "ravel")
                shutil.copy2(args.ravel, state.binary)
                return
            except OSError:
                pass
        time.sleep(1)
    state.binary = args.ravel


def ravel_tool(task, args, state):
    res = {"status": "n/a", "pairs": [], "secs": 0.0, "note": ""}
    if state.available is False:
        return res
    if not os.access(state.binary, os.X_OK):
        state.available = False
        res["note"] = "no binary at " + args.ravel
        return res
    start = time.monotonic()
    try:
        # ravel's own --timeout answers unknown; the hard limit is a backstop.
        r = subprocess.run([state.binary, "race", "--json", "--timeout", "%g" % args.ravel_timeout,
                            task["yml"]], capture_output=True, text=True,
                           timeout=args.ravel_timeout + 30, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        res["status"] = "timeout"
        res["secs"] = time.monotonic() - start
        state.available = True
        return res
    res["secs"] = time.monotonic() - start
    if r.returncode == 2 and re.search(r"unknown (sub)?command|not implemented", r.stderr):
        state.available = False
        return res
    state.available = True
    # For a task file ravel prints the SV-COMP answer (false/unknown) on a
    # line of its own before the JSON object.
    obj = None
    start_obj = r.stdout.find("{")
    if start_obj >= 0:
        try:
            obj, _ = json.JSONDecoder().raw_decode(r.stdout[start_obj:])
        except ValueError:
            obj = None
    if not isinstance(obj, dict):
        # No JSON (a watchdog's unknown, say): the exit code answers.
        res["status"] = {0: "no race", 1: "race", 3: "unknown"}.get(r.returncode, "error")
        res["note"] = "exit %d, no JSON%s" % (r.returncode,
                                             (": " + last_line(r.stderr)) if last_line(r.stderr) else "")
        return res
    verdict = obj.get("verdict")
    res["status"] = {"race": "race", "no race": "no race", "unknown": "unknown"}.get(verdict, "error")
    if res["status"] == "error":
        res["note"] = "exit %d, verdict %r" % (r.returncode, verdict)
    expected_rc = {"race": 1, "no race": 0, "unknown": 3}.get(verdict)
    if expected_rc is not None and r.returncode != expected_rc:
        res["note"] = "exit %d for verdict %r" % (r.returncode, verdict)
    pairs = set()
    for race in obj.get("races") or []:
        acc = []
        for key in ("first", "second"):
            a = race.get(key) or {}
            kind = {"write": "w", "read": "r"}.get(a.get("access"), "?")
            acc.append((a.get("line"), kind))
        pairs.add(pair_str(acc[0], acc[1]))
    res["pairs"] = sorted(pairs)
    return res


# ---------------------------------------------------------------- output

def cell(res, with_lines=True):
    s = res["status"]
    if with_lines and res.get("pairs"):
        shown = res["pairs"][:4]
        s += " " + ",".join(shown) + (",..." if len(res["pairs"]) > 4 else "")
    return s


def short_task(name):
    return name[:-4] if name.endswith(".yml") else name


def totals(rows):
    out = {}
    for tool in ("tsan", "helgrind", "ravel"):
        t = {"false_found": 0, "false_missed": 0, "true_false_alarms": 0, "true_quiet": 0,
             "no_answer": 0, "other": 0, "secs": 0.0}
        for row in rows:
            r = row[tool]
            t["secs"] += r["secs"]
            if r["status"] in ("n/a", "skipped"):
                t["other"] += 1
                continue
            if r["status"] not in (STATUS_RACE, "none", "no race"):
                t["no_answer"] += 1   # timeout, unknown, build error, error
            raced = r["status"] == STATUS_RACE
            if row["expected"] == "false":
                t["false_found" if raced else "false_missed"] += 1
            elif row["expected"] == "true":
                t["true_false_alarms" if raced else "true_quiet"] += 1
        out[tool] = t
    return out


TOOLS = [("tsan", "TSan"), ("helgrind", "helgrind"), ("ravel", "ravel")]


def print_text(rows, tot, notes, args):
    head = ["task", "exp"] + [name for _, name in TOOLS] + ["TSan s", "hg s", "ravel s"]
    table = [head]
    for row in rows:
        table.append([short_task(row["task"]), row["expected"]]
                     + [cell(row[t]) for t, _ in TOOLS]
                     + ["%.1f" % row[t]["secs"] for t, _ in TOOLS])
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    for r in table:
        print("  ".join(c.ljust(widths[i]) if i < 5 else c.rjust(widths[i])
                        for i, c in enumerate(r)).rstrip())
    print()
    nf = sum(1 for r in rows if r["expected"] == "false")
    nt = sum(1 for r in rows if r["expected"] == "true")
    for t, name in TOOLS:
        x = tot[t]
        if x["other"] == len(rows):
            print("%-9s n/a" % name)
            continue
        print("%-9s false tasks: %d/%d found, %d missed; true tasks: %d/%d false alarms; "
              "%d without an answer; %.0f s"
              % (name, x["false_found"], nf, x["false_missed"], x["true_false_alarms"], nt,
                 x["no_answer"], x["secs"]))
    if notes:
        print()
        for n in notes:
            print("note: " + n)


def md_escape(s):
    return s.replace("|", "\\|")


def print_markdown(rows, tot, notes, args):
    print("| task | expected | TSan | helgrind | ravel | TSan s | helgrind s | ravel s |")
    print("|---|---|---|---|---|--:|--:|--:|")
    for row in rows:
        print("| %s | %s | %s | %s | %s | %.1f | %.1f | %.1f |" % (
            md_escape(short_task(row["task"])), row["expected"],
            md_escape(cell(row["tsan"])), md_escape(cell(row["helgrind"])),
            md_escape(cell(row["ravel"])),
            row["tsan"]["secs"], row["helgrind"]["secs"], row["ravel"]["secs"]))
    nf = sum(1 for r in rows if r["expected"] == "false")
    nt = sum(1 for r in rows if r["expected"] == "true")
    print()
    print("| tool | `false` tasks: found | missed | `true` tasks: false alarms "
          "| no answer (timeout, unknown, error) | total s |")
    print("|---|--:|--:|--:|--:|--:|")
    for t, name in TOOLS:
        x = tot[t]
        if x["other"] == len(rows):
            print("| %s | n/a | n/a | n/a | n/a | |" % name)
            continue
        print("| %s | %d/%d | %d | %d/%d | %d | %.0f |" % (
            name, x["false_found"], nf, x["false_missed"], x["true_false_alarms"], nt,
            x["no_answer"], x["secs"]))
    if notes:
        print()
        for n in notes:
            print("- " + n)


def load_results(paths):
    """Rows of one or more --json files, merged task by task."""
    rows, notes, runs, timeout = [], [], None, None
    index = {}
    for path in paths:
        with open(path) as f:
            saved = json.load(f)
        runs = runs or saved.get("runs")
        timeout = timeout or saved.get("timeout")
        for n in saved.get("notes", []):
            if n not in notes:
                notes.append(n)
        for row in saved["tasks"]:
            if row["task"] not in index:
                index[row["task"]] = row
                rows.append(row)
                continue
            have = index[row["task"]]
            for t, _ in TOOLS:
                if have[t]["status"] in ("skipped", "n/a") and row[t]["status"] not in ("skipped", "n/a"):
                    have[t] = row[t]
    if any(r["ravel"]["status"] not in ("skipped", "n/a") for r in rows):
        notes = [n for n in notes if not n.startswith("ravel: `ravel race` is not available")]
    return rows, notes, runs, timeout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs per task and dynamic tool (5)")
    ap.add_argument("--timeout", type=float, default=10.0,
                    help="seconds per run before the program is killed (10)")
    ap.add_argument("--ravel", default=os.path.join(REPO, "build", "ravel") if os.path.exists(
        os.path.join(REPO, "build", "ravel")) else "/work/main/build/ravel",
                    help="the ravel binary (default: build/ravel of this checkout, else /work/main/build/ravel)")
    ap.add_argument("--ravel-timeout", type=float, default=60.0,
                    help="ravel race --timeout, seconds per task (60; killed 30 s later)")
    ap.add_argument("--corpus", default=os.path.normpath(os.path.join(REPO, "..", "shared", "corpus", "svcomp")),
                    help="the SV-COMP corpus directory (with manifest.tsv)")
    ap.add_argument("--max-threads", type=int, default=5000,
                    help="valgrind --max-threads (5000)")
    ap.add_argument("--only", action="append", default=[],
                    help="only tasks whose name contains this (repeatable)")
    ap.add_argument("--no-random-locals", action="store_true",
                    help="leave uninitialised locals of main and thread functions as the "
                         "stack has them (usually 0) instead of small random values")
    ap.add_argument("--no-tsan", action="store_true")
    ap.add_argument("--no-helgrind", action="store_true")
    ap.add_argument("--no-ravel", action="store_true")
    ap.add_argument("--load", metavar="FILE", nargs="+",
                    help="run nothing: print the results of earlier --json runs; with "
                         "several files (say one with --no-ravel, one with only ravel) a "
                         "tool's result comes from the first file that ran it")
    fmt = ap.add_mutually_exclusive_group()
    fmt.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    fmt.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be at least 1")

    if args.load:
        rows, notes, runs, timeout = load_results(args.load)
        output(rows, notes, args, runs, timeout)
        return 0
    if not os.path.isfile(os.path.join(args.corpus, "manifest.tsv")):
        log("compare.py: no manifest.tsv in %s (use --corpus DIR)" % args.corpus)
        return 2
    ensure_tools()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    tasks = load_tasks(args.corpus, args.only)
    if not tasks:
        log("compare.py: no no-data-race tasks selected")
        return 2

    notes = []
    state = RavelState()
    rows = []
    with tempfile.TemporaryDirectory(prefix="ravel-race-bench.") as tmp:
        m32 = {}
        for tool in ("tsan", "helgrind"):
            ok, why = probe_m32(tmp, tool == "tsan")
            m32[tool] = ok
            if not ok and any(t["data_model"] == "ILP32" for t in tasks):
                notes.append("%s: ILP32 tasks compiled 64-bit, not -m32: %s"
                             % ("TSan" if tool == "tsan" else "helgrind", why))
        if not args.no_ravel:
            snapshot_ravel(args, tmp, state)
        for n, task in enumerate(tasks, 1):
            log("[%d/%d] %s" % (n, len(tasks), task["task"]))
            row = {"task": task["task"], "expected": task["expected"],
                   "data_model": task["data_model"]}
            skipped = {"status": "skipped", "pairs": [], "secs": 0.0, "note": ""}
            row["tsan"] = skipped if args.no_tsan else dynamic_tool(task, tmp, "tsan", args, m32["tsan"])
            row["helgrind"] = (skipped if args.no_helgrind
                               else dynamic_tool(task, tmp, "helgrind", args, m32["helgrind"]))
            row["ravel"] = skipped if args.no_ravel else ravel_tool(task, args, state)
            rows.append(row)
    if state.available is False and not args.no_ravel:
        notes.append("ravel: `ravel race` is not available in %s (n/a)" % args.ravel)
    notes.append("TSan and helgrind: %d runs per task, %g s timeout per run; a tool reports `race` "
                 "when any run reported one; `timeout` when every run was killed; time = all runs "
                 "(build excluded)." % (args.runs, args.timeout))
    notes.append("Lines: `13w-30r` is a write at line 13 and a read at line 30 of the task's input "
                 "file (for TSan and helgrind the innermost stack frame in that file; `?` when "
                 "none is).")
    notes.append("Uninitialised locals (nondeterministic in SV-COMP): "
                 + ("left as the stack has them, usually 0 (--no-random-locals)."
                    if args.no_random_locals else
                    "main and thread start functions begin with small random values "
                    "(0..4) in theirs (svcomp_env.c); deeper functions as the stack has them."))
    notes.append("Functions named `__VERIFIER_atomic_*` are atomic by SV-COMP's convention; "
                 "TSan and helgrind do not know it and run them unprotected. "
                 "`__VERIFIER_atomic_begin/end` are one global mutex (svcomp_env.c).")
    for row in rows:
        for t, name in TOOLS:
            if row[t].get("note"):
                notes.append("%s, %s: %s" % (short_task(row["task"]), name, row[t]["note"]))
    output(rows, notes, args, args.runs, args.timeout)
    return 0


def output(rows, notes, args, runs, timeout):
    tot = totals(rows)
    if args.json:
        json.dump({"runs": runs, "timeout": timeout, "tasks": rows,
                   "totals": tot, "notes": notes}, sys.stdout, indent=1)
        print()
    elif args.markdown:
        print_markdown(rows, tot, notes, args)
    else:
        print_text(rows, tot, notes, args)


if __name__ == "__main__":
    sys.exit(main())
