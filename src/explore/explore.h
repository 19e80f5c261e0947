/* explore: a second engine beside bmc for sequential IR programs (in
 * particular KISS translations): concrete execution, many times, with
 * randomised choices, looking for an ASSERT that fails.
 *
 * Every run is a real execution of the sequential program under bmc.h's
 * semantics (explore/interp.h lists where a run stops instead: undefined
 * or unmodelled behaviour abandons the run, it is never reported), so a
 * BUG is always real; the engine never claims safety: when no run fails,
 * the answer is UNKNOWN.
 *
 * The search (explore.c) draws, per run, probabilities at several scales
 * in the spirit of PCT (probabilistic concurrency testing): how often the
 * running thread raises (kiss.choice), how often a pending thread is run
 * at a scheduling point (kiss.pick), whether only a few threads (by
 * kiss.cur) or a few scheduling sites may do so, or (change points) only
 * one to three chosen scheduling sites, the thread picked there raising
 * at a drawn point; data values are 0 with a per-run probability, else
 * come from a pool of interesting values (1, -1, small numbers, the
 * type's limits, the program's constants and their neighbours) mixed with
 * uniform bits. A pick with no thread pending is no choice at all. The
 * first two runs are quiet (no pick, no raise until the final schedule),
 * so the census of scheduling sites sees every one at which threads wait.
 * Runs that never end are cut at a limit drawn from the lengths of the
 * runs that did.
 * The kiss.* names are only hints for probabilities: any program runs.
 * Runs are reproducible from the seed; a failing run is replayed once with
 * the trace recorded, so ordinary runs pay nothing for traces. */
#ifndef RAVEL_EXPLORE_EXPLORE_H
#define RAVEL_EXPLORE_EXPLORE_H

#include <stdint.h>

#include "trace/trace.h"

typedef struct explore_opts {
    uint64_t seed;        /* runs are reproducible from the seed */
    double timeout_s;     /* wall-clock budget for all runs; 0: none */
    uint64_t max_runs;    /* 0: until the timeout (then at least one run) */
    uint64_t max_steps;   /* statements per run before it is abandoned (default 10 million) */
} explore_opts;

/* seed 1, no timeout, max_runs 0, max_steps 10 million. With neither a
 * timeout nor max_runs, explore_check makes 100000 runs. */
void explore_opts_init(explore_opts *o);

/* Runs entry of the sequential program p (globals zero, then p->init, as bmc does)
 * many times with different choices. TRACE_BUG: r->steps holds the failing run, in the
 * same form bmc_check gives (see bmc.h), r->message/func/stmt/loc the failed ASSERT;
 * else TRACE_UNKNOWN with r->reason like "no assertion failure in 12345 random runs".
 * Never TRACE_SAFE_WITHIN_BOUNDS. r->stats.steps etc. filled where meaningful. */
trace_verdict explore_check(const ir_program *p, const ir_func *entry, const explore_opts *o,
                            trace_result *r);

/* What the runs did (for drivers and benchmarks). */
typedef struct explore_stats {
    uint64_t runs;      /* runs made (the replay not counted) */
    uint64_t done;      /* ran to the end of entry */
    uint64_t assumes;   /* stopped at a failed ASSUME */
    uint64_t undefined; /* abandoned at undefined or unmodelled behaviour */
    uint64_t limits;    /* abandoned at max_steps, the address space limit or the deadline */
    uint64_t steps;     /* statements executed in all runs */
    uint64_t bug_run;   /* BUG: the index of the failing run */
    double seconds;
} explore_stats;

/* explore_check that also fills st (may be NULL). */
trace_verdict explore_check_stats(const ir_program *p, const ir_func *entry, const explore_opts *o,
                                  trace_result *r, explore_stats *st);

#endif
