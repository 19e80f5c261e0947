/* forkpool: independent work items run in forked worker processes, their
 * results handed back in item order.
 *
 * base_forkpool_run runs work(ctx, i, out, err) for every i in [0, n) in
 * `workers` child processes. Items are handed out one at a time through a
 * counter in shared memory, so a slow item holds up one worker only. Each
 * result (work's return code and the text it put in out and err) travels
 * back through the worker's pipe; the parent calls emit(ctx, i, ...) for
 * i = 0, 1, ... in order, buffering results that arrive early. So a
 * command's output is the same as a sequential run's, whatever the timing.
 *
 * Processes, not threads: every item runs in an address space of its own
 * (copied from the parent at fork), so work may use anything the parent set
 * up before the call, and nothing it does (a crash, an exhausted memory
 * limit) can damage another item. A worker that dies loses the item it was
 * running: emit gets rc BASE_FORKPOOL_DIED for it, with a message in err;
 * the other workers take the remaining items.
 *
 * The parent must flush its stdio streams before the call (children leave
 * with _exit and never flush what they inherited). Returns false, with
 * nothing run, when the processes or pipes cannot be made; the caller then
 * runs the items itself. */
#ifndef RAVEL_BASE_FORKPOOL_H
#define RAVEL_BASE_FORKPOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"

#define BASE_FORKPOOL_DIED (-1000)

typedef int (*base_forkpool_work)(void *ctx, size_t i, base_strbuf *out, base_strbuf *err);
typedef void (*base_forkpool_emit)(void *ctx, size_t i, int rc, const char *out, size_t outlen,
                                   const char *err, size_t errlen);

bool base_forkpool_run(size_t n, unsigned workers, base_forkpool_work work, base_forkpool_emit emit,
                       void *ctx);

#endif
