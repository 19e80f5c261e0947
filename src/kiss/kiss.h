/* kiss: the KISS translation (Qadeer and Wu, PLDI 2004) of a concurrent IR
 * program into a sequential one that simulates it under a nondeterministic
 * scheduler.
 *
 * The program gets globals `kiss.raise` (the running thread stops for
 * good: the simulated exception), a bounded multiset of started but not yet
 * scheduled threads (`kiss.ts_*`, pending slots, each with its function,
 * argument and thread id), `kiss.cur` (the id of the thread whose code
 * runs; main is 0), `kiss.done[id]` (the thread ran to its end) and
 * `kiss.in_atomic`. Every function f is rewritten in place into [[f]]:
 *
 *   before each visible statement   kiss.schedule(); choice { skip [] raise = 1; return }
 *   after each call                 if (kiss.raise) return
 *   async f(a)                      a free slot: put (f, a, id) in ts; none: run
 *                                   f(a) now, then raise = 0
 *   join(h)                         assume(kiss.done[h])
 *   atomic_begin/end, atomic funcs  kiss.in_atomic++ / --; no scheduling or
 *                                   raising while it is nonzero
 *   lock/unlock/trylock/init        the lock object becomes struct ravel_sync
 *                                   {owner, count, kind}: lock is
 *                                   atomic { assume(owner == 0); owner = cur + 1 },
 *                                   with POSIX's recursive, errorcheck, rwlock and
 *                                   trylock behaviour
 *   thread_exit                     kiss.exited = 1; raise = 1; return
 *   return                          kiss.schedule(); return
 *
 * A visible statement is one that may touch memory another thread can see
 * (a global, a dereference, a local whose address is taken) or that
 * synchronises or calls; a context switch before a purely local statement
 * shows nothing a switch after it does not, so only visible statements get
 * a scheduling point. kiss.schedule() runs, up to `pending` times, a
 * nondeterministically chosen pending thread to its end or its raise. The
 * entry, kiss.main, is Check(main): kiss.cur = 0; [[main]](); raise = 0;
 * kiss.schedule().
 *
 * Every statement of a rewritten function carries `origin` (ir.h): 1 + the
 * index of the original statement it implements, 0 for scheduling code,
 * so a trace maps back to the program the user wrote. The simulation
 * covers a subset of the schedules (theorem 1 of the paper needs an
 * unbounded ts): a bug it finds is real; finding none proves nothing
 * beyond the bounds. */
#ifndef RAVEL_KISS_KISS_H
#define RAVEL_KISS_KISS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "ir/ir.h"

/* A pair of race sites (kiss_result.sites indices) whose race is already
 * known: the access at `second` does not report a conflict with a pending
 * access recorded at `first`. Site numbers depend only on the program, so
 * they carry over to a fresh translation of the same program. */
typedef struct kiss_site_pair {
    uint32_t first, second;
} kiss_site_pair;

typedef struct kiss_opts {
    uint32_t pending;     /* size of ts (--pending, default 2) */
    uint32_t max_threads; /* threads with ids from this on are created but never run
                             (default 16); joining one blocks */
    bool races;           /* race instrumentation instead of the program's assertions */
    const char *location; /* races: only accesses to this variable (its name) are recorded */
    const kiss_site_pair *exclude; /* races: pairs not to report again */
    uint32_t nexclude;
} kiss_opts;

/* Race instrumentation (the slides' checkr/checkw, with the thread that
 * made the access recorded). Before each access to shared memory the
 * running thread may *record* it (kiss.race_access = 1 read / 2 write,
 * race_addr = its address, race_tid, race_site) and stop for good (raise),
 * which leaves that access pending while the other threads run; every
 * later access checks whether it conflicts with the pending one (same
 * address, at least one write, another thread, not both inside atomic
 * sections) and then fails an assertion: the two accesses are adjacent in
 * an interleaving, so no common lock can be held (the stopped thread still
 * holds its locks, and nobody else can take them). Inside an atomic section
 * (atomic blocks, __VERIFIER_atomic_* functions, C11 atomics) the recording
 * thread cannot stop, so kiss.race_atomic is set and the thread stops when
 * the section ends; nothing else runs in between. Lock, unlock and the
 * other synchronisation statements make no accesses. The program's own
 * assertions become assumptions. */
typedef struct kiss_race_site {
    const ir_func *func;  /* the original function */
    uint32_t stmt;        /* the original statement's index */
    base_srcloc loc;
    bool write;
    const ir_expr *path;  /* the accessed object, as the program names it */
} kiss_race_site;

typedef struct kiss_result {
    kiss_race_site *sites; /* indexed by the value of kiss.race_site (malloc'd) */
    uint32_t nsites;
} kiss_result;

void kiss_result_free(kiss_result *r);

/* Names of the globals the translation adds (for traces). */
#define KISS_CUR "kiss.cur"
#define KISS_RAISE "kiss.raise"
#define KISS_RACE_SITE "kiss.race_site"
#define KISS_RACE_TID "kiss.race_tid"

/* Rewrites p in place and returns the entry (kiss.main), or NULL with a
 * diagnostic when p has no main. r (may be NULL) receives the race sites. */
ir_func *kiss_translate(ir_program *p, const kiss_opts *o, kiss_result *r, base_diag *d);

#endif
