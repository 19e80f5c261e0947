/* po_race: data races in the partial-order encoding (po.h), under SC.
 *
 * A data race (SV-COMP's no-data-race property, C11's definition under
 * SC) is a reachable state in which two different thread instances are
 * each about to make an access to a common byte, at least one of them a
 * write and at least one of them outside an atomic section (a
 * __VERIFIER_atomic_* function, an atomic block, a C11/GCC atomic
 * operation). Synchronisation orders accesses by making such a state
 * unreachable: a lock held by the other thread blocks it, a join waits for
 * the end, a creation comes before the thread's first step.
 *
 * The encoding. Every thread's events have strictly increasing clocks, so
 * the state "thread A is about to make access a, thread B access b" is a
 * cut k of an interleaving with every event of A before a and of B before
 * b below k, and a and b at or above it:
 *     clock(a-1) < k <= clock(a)  and  clock(b-1) < k <= clock(b)
 * (a-1: the event before a in A's program order, run or not); such a k
 * exists iff clock(a-1) < clock(b) and clock(b-1) < clock(a). With both
 * guards, the bytes overlapping and not both inside atomic sections, that
 * is the pair's race condition. Soundness: a model gives clocks whose
 * order, ties broken either way, is an interleaving (every axiom is a
 * strict `<`, po.h); the events below k are a prefix of it, after which A's
 * next event is a and B's is b. Completeness within the bounds: the prefix
 * of a real execution that reaches such a state, extended by any
 * execution of the threads (they end, block, or are cut by a bound), is a
 * model with clocks = positions and k = the prefix's length.
 *
 * Accesses are the program's own loads and stores. Not accesses: lock
 * operations (their lock word: synchronisation), the nondeterministic
 * contents of a fresh object (a local at its function's entry, a malloc'd
 * block), and what a call to a function without a body may write (an
 * approximation: a race through it is never reported, and its presence
 * makes a `no race` no proof).
 *
 * Each racing pair of source places (the statements of the two accesses,
 * in either order) is reported once: the places are excluded and the
 * solver asked again, up to max_races. */
#ifndef RAVEL_PO_PO_RACE_H
#define RAVEL_PO_PO_RACE_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace.h"
#include "ir/ir.h"
#include "po/po.h"

#define PO_RACE_MAX_LOCKS 8

typedef struct po_race_access {
    base_srcloc loc;
    bool write;
    uint32_t thread;            /* 0 is main */
    const ir_func *func;        /* the thread's function */
    base_srcloc started_at;     /* line 0: main */
    const char *locks[PO_RACE_MAX_LOCKS]; /* held at the access, as the program names them */
    uint32_t nlocks;
} po_race_access;

typedef struct po_race_found {
    const char *object;         /* the byte's object as the program names it */
    po_race_access first, second; /* first: the earlier in the trace */
} po_race_found;

typedef struct po_race_opts {
    uint32_t max_races;         /* stop after this many (>= 1) */
    void *ud;
    /* Called on each race, while r holds its trace (as a BUG's; steps carry
     * their thread). The strings live until the call returns. */
    void (*on_race)(void *ud, const po_race_found *f, const trace_result *r);
} po_race_opts;

typedef struct po_race_result {
    uint32_t found;             /* races reported */
    /* The last question's answer: SAFE_WITHIN_BOUNDS (no more races within
     * the bounds; r->unwinding_ok when no execution was cut), UNKNOWN (the
     * search stopped: r->reason), BUG (stopped at max_races). */
    trace_verdict verdict;
    bool exact;                 /* false: a SAFE answer is no proof (why) */
    const char *why;
} po_race_result;

/* Looks for data races in p from entry; r receives the last answer. */
void po_race(const ir_program *p, const ir_func *entry, const po_opts *o, const po_race_opts *ro,
             trace_result *r, po_stats *st, po_race_result *out);

#endif
