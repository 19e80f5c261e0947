#!/usr/bin/env python3
"""A stand-in for the ravel binary in serve's job tests (RAVEL_SERVE_JOB_EXE):
reads its input file (the last argument, in the working directory) and acts
on its first word: sleep, segv, flood, silent, args."""
import json
import os
import signal
import sys
import time

word = open(sys.argv[-1]).read().split()[0]
if word == "sleep":
    time.sleep(60)
elif word == "segv":
    os.kill(os.getpid(), signal.SIGSEGV)
elif word == "flood":
    chunk = "x" * (1 << 20)
    for _ in range(40):
        sys.stdout.write(chunk)
elif word == "silent":
    sys.exit(70)
elif word == "args":
    import resource
    print(json.dumps({"args": sys.argv[1:], "cwd": os.getcwd(),
                      "cpu": resource.getrlimit(resource.RLIMIT_CPU)[0],
                      "stdin": sys.stdin.read()}))
