#!/usr/bin/env bash
# e2e: a compile command's dependency-file options (-MD, -MMD, -MF x, -MT x,
# -Wp,-MD,x) are not handed to libclang. libclang would write that file
# relative to ravel's own working directory: `ravel ir -p` would litter the
# user's directory, and `ravel deadlock --capture` would race the real
# compiler for the build's own .d file. Both paths are checked: a compile
# database, and a captured compiler command.
#   depfile.sh RAVEL WORK_DIR
set -u
ravel=$1 work=$2
fail() { echo "depfile: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/proj" "$work/elsewhere" "$work/cap"
cat > "$work/proj/a.c" <<'C'
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g;
int main(void) { pthread_mutex_lock(&m); g++; pthread_mutex_unlock(&m); return g; }
C
printf '[{"directory": "%s", "file": "a.c", "arguments": ["cc", "-c", "-MD", "-MF", "a.d", "-MT", "a.o", "-Wp,-MMD,w.d", "-MFjoined.d", "a.c", "-o", "a.o"]}]\n' \
    "$work/proj" > "$work/proj/compile_commands.json"
(cd "$work/elsewhere" && "$ravel" ir -p "$work/proj" >/dev/null 2>"$work/ir.err") ||
    fail "ravel ir -p failed: $(cat "$work/ir.err")"
left=$(find "$work" -name '*.d' | sort)
[ -z "$left" ] || fail "dependency files written by ravel ir -p: $left"
# the capture wrapper (--capture-cc runs the build's own command, then
# captures it): the "compiler" here writes no dependency file, so any .d is
# ravel's
printf '#!/bin/sh\nexit 0\n' > "$work/fakecc" && chmod +x "$work/fakecc"
(cd "$work/proj" && "$ravel" deadlock --capture-cc "$work/cap" -- "$work/fakecc" -c -MD -MF cap.d \
    -Wp,-MD,capw.d a.c -o a.o >/dev/null 2>"$work/cap.err") || fail "capture failed: $(cat "$work/cap.err")"
ls "$work/cap"/* >/dev/null 2>&1 || fail "the capture wrote no unit"
left=$(find "$work" -name '*.d' | sort)
[ -z "$left" ] || fail "dependency files written by the capture: $left"
echo "depfile: ok"
