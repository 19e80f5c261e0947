/* cli_dlcapture: `ravel deadlock --capture DIR -- BUILD...` and the
 * compiler wrapper it puts in the build (`--capture-cc DIR -- CC ARGS...`).
 *
 * The capture is a compiler wrapper, not a compilation database read after
 * the build: each compilation runs `ravel deadlock --capture-cc DIR --
 * REAL-CC ARGS...`, which runs the real compiler and then, when it
 * succeeded, lowers each C source of the command and writes that unit's own
 * files into DIR (cfront_capture). Nothing is shared between compilations,
 * so a parallel, distributed (distcc, icecream) or remote build can run the
 * wrapper wherever it runs the compiler, and the directories merge by
 * copying. For make, CC=WRAPPER is added to the command line (it overrides
 * the CC a configured Makefile sets); every build also gets CC and
 * RAVEL_CC in its environment (for build systems configured inside it). */
#ifndef RAVEL_CLI_CLI_DLCAPTURE_H
#define RAVEL_CLI_CLI_DLCAPTURE_H

#include <stddef.h>

#include "cfront/cfront.h"

/* Runs the build cmd[0..n) with the wrapper on CC; returns the exit code. */
int cli_dl_capture_build(const char *dir, const char *const *cmd, size_t n, const cfront_opts *o,
                         bool quiet);
/* The wrapper: runs the compiler cmd[0..n), then captures its C sources;
 * returns the compiler's exit status. */
int cli_dl_capture_cc(const char *dir, const char *const *cmd, size_t n, const cfront_opts *o);

#endif
