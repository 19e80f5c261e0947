"""Starts `ravel serve` on a free loopback port for a test and always stops it.

    with Server(ravel, ["-j", "2"]) as s:
        status, headers, body = s.request("POST", "/api/litmus?model=sc", text)

The server gets --port 0 and the test reads the URL it prints on stderr. On
leaving the block (or at interpreter exit, or after `limit` seconds, by a
watchdog timer) the server gets SIGTERM, then SIGKILL if it lingers.
"""
import atexit
import http.client
import os
import re
import signal
import subprocess
import threading
import time


class Server:
    def __init__(self, ravel, args=(), limit=240):
        self.ravel, self.args, self.limit = ravel, list(args), limit
        self.proc = None
        self.stderr_lines = []

    def __enter__(self):
        env = dict(os.environ)
        for k in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"):
            env.pop(k, None)
        self.proc = subprocess.Popen([self.ravel, "serve", "--port", "0"] + self.args,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True, env=env)
        atexit.register(self.stop)
        self.watchdog = threading.Timer(self.limit, self.stop)
        self.watchdog.daemon = True
        self.watchdog.start()
        line = self.proc.stderr.readline()
        self.stderr_lines.append(line)
        m = re.search(r"listening on http://([0-9.]+):([0-9]+)/", line)
        if not m:
            self.stop()
            raise RuntimeError("ravel serve did not say where it listens: %r" % line)
        self.host, self.port = m.group(1), int(m.group(2))
        self.url = "http://%s:%d" % (self.host, self.port)
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()
        return self

    def _drain(self):
        for line in self.proc.stderr:
            self.stderr_lines.append(line)

    def request(self, method, path, body=None, headers=None, timeout=60):
        c = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            data = body.encode() if isinstance(body, str) else body
            c.request(method, path, body=data, headers=headers or {})
            r = c.getresponse()
            return r.status, dict(r.getheaders()), r.read().decode("utf-8", "replace")
        finally:
            c.close()

    def stop(self):
        """SIGTERM, wait up to 10 s, then SIGKILL; returns the exit status."""
        p = self.proc
        if p is None:
            return None
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        return p.returncode

    def __exit__(self, *exc):
        self.stop()
        self.watchdog.cancel()
        return False
