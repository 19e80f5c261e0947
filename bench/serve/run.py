#!/usr/bin/env python3
"""bench/serve: latency of `ravel serve`'s API under concurrent clients.

Starts `ravel serve` on a free loopback port (-j WORKERS, default 2, the
machine's cores), then for each workload runs CLIENTS (default 8) threads
that each send REQUESTS requests one after another, and prints p50, p95 and
max latency, throughput, and the machine's load (uptime) before and after.
Workloads:
  SB        POST /api/litmus?model=tso   examples/litmus/SB.litmus (full
            enumeration: 4 final states)
  SB-graphs POST /api/litmus/graphs?model=tso   the same, 4 SVGs
  counter   POST /api/check              examples/c/counter.c (the locked
            counter: the default engine, the portfolio, proves it safe)
Figures only; nothing is asserted. Loopback only.

  bench/serve/run.py [RAVEL] [--clients 8] [--workers 2] [--requests-sb 25] [--requests-c 10]
"""
import argparse
import os
import sys
import threading
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..")
sys.path.insert(0, os.path.join(root, "tests", "serve"))
from server import Server  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("ravel", nargs="?", default=os.path.join(root, "build", "ravel"))
ap.add_argument("--clients", type=int, default=8)
ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
ap.add_argument("--requests-sb", type=int, default=25)
ap.add_argument("--requests-c", type=int, default=10)
a = ap.parse_args()


def read(p):
    with open(os.path.join(root, "examples", p)) as f:
        return f.read()


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


workloads = [
    ("SB", "/api/litmus?model=tso", read("litmus/SB.litmus"), a.requests_sb),
    ("SB-graphs", "/api/litmus/graphs?model=tso", read("litmus/SB.litmus"), a.requests_sb),
    ("counter", "/api/check", read("c/counter.c"), a.requests_c),
]
print("ravel serve -j %d, %d clients, %d cores, loopback" % (a.workers, a.clients, os.cpu_count() or 0))
print("%-10s %6s %8s %8s %8s %9s %6s  %s" % ("workload", "reqs", "p50 ms", "p95 ms", "max ms", "req/s", "fail", "load before -> after"))
with Server(a.ravel, ["-j", str(a.workers), "--queue", str(4 * a.clients), "-q"], limit=1800) as s:
    for name, path, body, n in workloads:
        lat, fails, mu = [], [0], threading.Lock()

        def client():
            for _ in range(n):
                t0 = time.monotonic()
                st, _, _ = s.request("POST", path, body, timeout=120)
                dt = time.monotonic() - t0
                with mu:
                    lat.append(dt)
                    if st != 200:
                        fails[0] += 1

        before = load()
        t0 = time.monotonic()
        ts = [threading.Thread(target=client) for _ in range(a.clients)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        wall = time.monotonic() - t0
        print("%-10s %6d %8.0f %8.0f %8.0f %9.1f %6d  %s -> %s" % (name, len(lat), 1000 * pct(lat, 50), 1000 * pct(lat, 95),
              1000 * max(lat), len(lat) / wall, fails[0], before, load()))
