#!/usr/bin/env python3
"""The playground in a real browser (ctest serve_browser, label browser):
headless Chromium driven by chromedriver (W3C WebDriver over HTTP, spoken
here with urllib) against a running `ravel serve`. For each view it checks by
DOM that results, graphs and trace stepping appear, and saves a screenshot.

usage: browser_test.py RAVEL SCREENSHOT_DIR
Exits 77 (skipped) with a message when chromium or chromedriver is missing.
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server import Server  # noqa: E402

RAVEL, SHOTS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
CHROME = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not CHROME or not DRIVER:
    print("skipped: headless Chromium is not installed (Debian packages chromium and chromium-driver; make setup)")
    sys.exit(77)
os.makedirs(SHOTS, exist_ok=True)
for k in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"):
    os.environ.pop(k, None)
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
failures = []


def check(cond, what, detail=""):
    print(("ok: " if cond else "FAIL: ") + what + ("" if cond else " " + str(detail)[:500]))
    if not cond:
        failures.append(what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Driver:
    def __init__(self):
        self.port = free_port()
        self.proc = subprocess.Popen([DRIVER, "--port=%d" % self.port], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        self.base = "http://127.0.0.1:%d" % self.port
        for _ in range(100):
            try:
                if self.call("GET", "/status")["ready"]:
                    break
            except (OSError, urllib.error.URLError):
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": CHROME,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1480,940", "--no-proxy-server", "--hide-scrollbars"]}}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with opener.open(req, timeout=60) as r:
            return json.loads(r.read())["value"]

    def s(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.sid, path), body)

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def click(self, css):
        eid = self.s("POST", "/element", {"using": "css selector", "value": css})
        self.s("POST", "/element/%s/click" % list(eid.values())[0], {})

    def wait(self, script, what, limit=60):
        end = time.time() + limit
        while time.time() < end:
            v = self.js(script)
            if v:
                return v
            time.sleep(0.1)
        check(False, "waiting for " + what)
        return None

    def shot(self, name):
        path = os.path.join(SHOTS, name)
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.s("GET", "/screenshot")))
        print("screenshot: " + path)

    def quit(self):
        try:
            self.call("DELETE", "/session/" + self.sid)
        except Exception:  # noqa: BLE001 - best effort, the driver is killed next
            pass
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def choose(d, select, value):
    """Selects the option whose text or value is value, as a user would."""
    ok = d.js("""const s = document.getElementById(arguments[0]);
        const o = [...s.options].find((o) => o.value === arguments[1] || o.text === arguments[1]);
        if (!o) return false; s.value = o.value; s.dispatchEvent(new Event('change')); return true;""", select, value)
    check(ok, "option %s in #%s" % (value, select))


HERE = os.path.dirname(os.path.abspath(__file__))
with Server(RAVEL, ["-j", "2", "-q", "--models", os.path.join(HERE, "models"),
                    "--samples", os.path.join(HERE, "samples")]) as srv:
    d = Driver()
    try:
        d.s("POST", "/url", {"url": srv.url + "/"})
        d.wait("return document.querySelectorAll('#litmus-sample option').length > 1 && "
               "document.querySelectorAll('#litmus-model option').length > 1", "samples and models")
        check(d.js("return document.getElementById('litmus-editor').value.startsWith('LISA SB')"),
              "the litmus editor holds the SB sample")

        # --- litmus: SB under TSO, four final states, four graphs ---
        choose(d, "litmus-model", "tso")
        d.click("#litmus-run")
        n = d.wait("const g = document.querySelectorAll('#litmus-graphs figure.graph svg'); "
                   "return g.length >= 4 && document.getElementById('litmus-herd').textContent ? g.length : 0",
                   "litmus graphs")
        check(n == 4, "SB under tso: 4 execution graphs", n)
        herd = d.js("return document.getElementById('litmus-herd').textContent")
        check("Observation SB Sometimes 1 3" in herd, "herd-format result shown", herd)
        check("Sometimes" in d.js("return document.getElementById('litmus-status').textContent"), "verdict in the status")
        caps = d.js("return [...document.querySelectorAll('#litmus-graphs figcaption span:first-child')].map((c) => c.textContent)")
        check(caps[0] == "0:r0=0; 1:r0=0;", "graph captions are the final states", caps)
        sat = d.js("return [...document.querySelectorAll('#litmus-graphs figure')].map((f) => f.classList.contains('satisfies'))")
        check(sat == [True, False, False, False], "the state meeting the condition is marked", sat)
        check(d.js("return [...document.querySelectorAll('#litmus-graphs svg text')].some((t) => t.textContent === 'rf')"),
              "graphs draw rf edges")
        d.shot("serve-litmus.png")

        # --- litmus: verdict only, MP under SC ---
        choose(d, "litmus-sample", "MP.litmus")
        choose(d, "litmus-model", "sc")
        d.js("document.getElementById('litmus-verdict-only').checked = true")
        d.click("#litmus-run")
        herd = d.wait("const h = document.getElementById('litmus-herd').textContent; "
                      "return h.startsWith('Test MP') ? h : ''", "verdict-only result")
        check(herd and "States" not in herd and "Never" in herd, "verdict only: no states, Never", herd)
        check(d.js("return document.querySelectorAll('#litmus-graphs svg').length") == 0, "verdict only: no graphs")

        # --- litmus: why is MP's outcome forbidden under a cat model (--models) ---
        choose(d, "litmus-model", "sc-split.cat")
        d.click("#litmus-run")
        d.wait("return document.getElementById('litmus-why-run')", "the why button")
        d.click("#litmus-why-run")
        names = d.wait("const s = document.querySelector('#litmus-why .check-names'); "
                       "return s && document.querySelector('#litmus-why svg') ? s.textContent : ''", "the explanation")
        check(names == "order", "why: MP is forbidden by the check named order", names)
        check(d.js("return [...document.querySelectorAll('#litmus-why svg text')].some((t) => t.textContent === 'fr')"),
              "why: the violating execution draws fr")
        d.shot("serve-litmus-why.png")

        # --- a sample from --samples, fetched when picked ---
        choose(d, "litmus-sample", "LB+po.litmus")
        d.wait("return document.getElementById('litmus-editor').value.startsWith('LISA LB+po')", "the --samples file's text")

        # --- C: check, the lost update, stepping through the interleaving ---
        d.click("#tab-c")
        choose(d, "c-sample", "counter_race.c")
        choose(d, "c-cmd", "check")
        d.click("#c-run")
        n = d.wait("return document.querySelectorAll('#c-trace tr.step').length", "the check trace")
        check(n and n > 3, "check: an interleaving with steps", n)
        heads = d.js("return [...document.querySelectorAll('#c-trace th')].map((h) => h.textContent)")
        check(heads[1:] == ["T0 main", "T1 worker", "T2 worker"], "one column per thread", heads)
        check("Bug: assertion count == N" in d.js("return document.getElementById('c-status').textContent"), "check: the bug")
        for _ in range(3):
            d.click("#c-next")
        label = d.js("return document.getElementById('c-step-label').textContent")
        check(label.startswith("step 4 of %d" % n), "stepping: step 4", label)
        line = d.js("return Number(document.querySelector('#c-trace tr.current td.cell .at').textContent.split(' ')[1])")
        cur = d.js("return [...document.querySelectorAll('#c-source .line.current')].map((l) => Number(l.dataset.line))")
        check(cur == [line], "the source line of the step is highlighted", (cur, line))
        # step to the first step of a worker thread: its line is in worker()
        d.js("""const rows = [...document.querySelectorAll('#c-trace tr.step')];
               const i = rows.findIndex((r) => r.children[2].classList.contains('cell'));
               rows[i].click();""")
        cur = d.js("return [...document.querySelectorAll('#c-source .line.current')].map((l) => Number(l.dataset.line))")
        check(cur == [17], "a worker's step highlights line 17 (count = count + 1)", cur)
        d.shot("serve-c-check.png")

        # --- C: check, the locked counter: a proof, said as one ---
        choose(d, "c-sample", "counter.c")
        choose(d, "c-cmd", "check")
        d.click("#c-run")
        msg = d.wait("const s = document.getElementById('c-status'); "
                     "return s.classList.contains('ok') ? s.textContent : ''", "the proof")
        check(msg and msg.startswith("true: no execution fails an assertion") and "a proof:" in msg
              and "not a proof" not in msg, "check: the locked counter is proved, and the page says so", msg)
        d.shot("serve-c-proof.png")
        choose(d, "c-cmd", "race")
        d.click("#c-run")
        msg = d.wait("const s = document.getElementById('c-status'); "
                     "return s.classList.contains('ok') ? s.textContent : ''", "the race proof")
        check(msg and msg.startswith("true: no data race") and "a proof:" in msg,
              "race: the locked counter has no race, and the page says it is a proof", msg)

        # --- C: race, the two accesses marked ---
        choose(d, "c-sample", "counter_race.c")
        choose(d, "c-cmd", "race")
        d.click("#c-run")
        d.wait("return document.querySelectorAll('#c-findings .race').length", "the race")
        a = d.js("return [...document.querySelectorAll('#c-source .line.race-a')].map((l) => Number(l.dataset.line))")
        b = d.js("return [...document.querySelectorAll('#c-source .line.race-b')].map((l) => Number(l.dataset.line))")
        check(a == [17] and b == [17], "race: both accesses marked at line 17", (a, b))
        check(d.js("return document.querySelectorAll('#c-trace tr.step').length") > 0, "race: its interleaving")
        d.shot("serve-c-race.png")

        # --- C: deadlock, the cycle as a graph with lock sites linked ---
        choose(d, "c-sample", "abba.c")
        choose(d, "c-cmd", "deadlock")
        d.click("#c-run")
        d.wait("return document.querySelector('#c-cycle svg.cycle')", "the lock cycle")
        locks = d.js("return [...document.querySelectorAll('#c-cycle .lname')].map((t) => t.textContent).sort()")
        check(locks == ["a", "b"], "deadlock: the cycle's locks a and b", locks)
        check(d.js("return document.querySelectorAll('#c-cycle .edge').length") == 2, "deadlock: two edges")
        site = d.js("return Number(document.querySelector('#c-cycle-edges a.site').dataset.line)")
        d.click("#c-cycle-edges a.site")
        focus = d.js("return [...document.querySelectorAll('#c-source .line.focus')].map((l) => Number(l.dataset.line))")
        check(focus == [site], "deadlock: a lock site links to its line", (focus, site))
        d.shot("serve-c-deadlock.png")

        # --- an error shows the CLI's file:line:col message ---
        choose(d, "c-sample", "bad.c")
        choose(d, "c-cmd", "check")
        d.click("#c-run")
        msg = d.wait("const s = document.getElementById('c-status'); "
                     "return s.classList.contains('error') ? s.textContent : ''", "the error")
        check(msg and "bad.c:3:12: error:" in msg, "error: file:line:col message", msg)
    finally:
        d.quit()

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
