/* deadlock: compositional static deadlock detection on the IR (L2D2).
 *
 * Each function is summarised once, bottom-up over the call graph (strongly
 * connected components iterated to a fixpoint), by a forward dataflow over
 * its goto program: the locks held (may and must), the entry locks released,
 * the locks that must be held or free at entry, every acquisition, the lock
 * dependencies (A held while B acquired) with their guards (locks held on
 * every path at that point), call chains and source locations, the threads
 * started and not yet joined. At a call the callee's summary is applied with
 * its formal-rooted access paths renamed to the actual arguments.
 *
 * Then threads: the entry points (main, or every external function with
 * --entry all) and every function started by an ASYNC statement, reachable
 * from them, form a tree of thread instances; the dependencies of all
 * threads form the lock graph, whose cycles are reported when their edges
 * can come from threads that run at the same time and no gate lock guards
 * them all. Cycles inside one thread are lock-order inversions (reported
 * only with lock_order). Self-deadlocks (a non-recursive lock acquired while
 * held on every path) are their own kind.
 *
 * Lock identity is syntactic: an access path from a global, a formal or a
 * local (`d->lock`, `accounts[*].m`); pointers held in locals are followed
 * through assignments (a small may-set per local). An array element at a
 * non-constant index is one abstract lock per array (flagged in findings).
 *
 * The analysis is a pure function of the program and options: findings come
 * back as data (strings owned by the result); report/deadlock_out prints. */
#ifndef RAVEL_DEADLOCK_DEADLOCK_H
#define RAVEL_DEADLOCK_DEADLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

typedef enum deadlock_entry_mode {
    DEADLOCK_ENTRY_MAIN, /* main; without main, every function nothing calls or starts */
    DEADLOCK_ENTRY_ALL,  /* every function with external linkage (library mode) */
} deadlock_entry_mode;

typedef struct deadlock_opts {
    deadlock_entry_mode entry;
    bool lock_order;          /* also report inversions inside one thread */
    bool no_double_lock_reset;/* heuristic 1 off: double lock/unlock keeps the lockset */
    bool no_gate_locks;       /* heuristic 2 off: report cycles with a common guard */
    bool no_array_may;        /* keep dependencies from an array-wide lock held on some paths only */
    bool no_class_may;        /* keep a class waiting for itself from a lock held on some paths only */
    bool no_link_order;       /* report cycles ordered along one link field (n->lock, n->parent->lock) */
    bool no_recursive;        /* recursive mutexes treated as ordinary ones */
    bool no_trylock;          /* trylock treated as a blocking lock */
    bool no_rwlock;           /* read/read acquisitions treated as blocking */
    bool no_value_order;      /* ignore branch conditions that order the locks' owners */
    unsigned max_cycle_len;   /* 0: no limit */
    unsigned max_scc_iters;   /* 0: the default (16) */
    /* Not part of the analysis' meaning (never in a cache key): */
    const char *cache_dir;    /* summaries kept on disk here (NULL: no cache) */
    /* Budgets (0: none). Past the deadline (a base_now() time) or with a
     * resident set above max_bytes, the summaries still to do are left
     * empty and the result says it stopped; the thread tree and the cycle
     * search then get until deadline + grace_s. */
    double deadline, grace_s;
    size_t max_bytes;
    /* Called now and then: phase "summaries" (done/total functions) and
     * "cycles" (findings so far); may be NULL. */
    void (*progress)(void *ctx, const char *phase, size_t done, size_t total, size_t findings);
    void *progress_ctx;
} deadlock_opts;

void deadlock_opts_default(deadlock_opts *o);

typedef enum deadlock_kind {
    DEADLOCK_CYCLE,      /* threads that may run together wait for each other */
    DEADLOCK_SELF,       /* a thread acquires a non-recursive lock it holds */
    DEADLOCK_LOCK_ORDER, /* a cycle whose edges cannot run concurrently (lock_order) */
} deadlock_kind;

/* One frame of a chain: the statement in func at file:line. */
typedef struct deadlock_frame {
    char *func;
    char *file;
    uint32_t line, col;
    bool is_call; /* a call (or thread start) leading to the next frame */
    bool retake;  /* the lock statement takes a mutex back after pthread_cond_wait */
} deadlock_frame;

typedef struct deadlock_chain {
    deadlock_frame *frames;
    size_t nframes;
} deadlock_chain;

/* One edge of a cycle: thread `thread` holds `held` (taken along
 * held_chain) while it acquires `wanted` (along wanted_chain). */
typedef struct deadlock_edge {
    char *held, *wanted;       /* lock names as access paths */
    bool held_read, wanted_read;
    char *thread;              /* the thread's entry function */
    char *thread_start;        /* "file:line" where it is started, or NULL for an entry point */
    deadlock_chain start_chain;/* the calls that start it (empty for an entry point) */
    deadlock_chain held_chain, wanted_chain;
    char **guards;             /* locks held on every path at the acquisition */
    size_t nguards;
} deadlock_edge;

typedef struct deadlock_finding {
    deadlock_kind kind;
    deadlock_edge *edges;      /* a cycle: edge i's wanted is edge i+1's held; SELF: one edge */
    size_t nedges;
    bool abstract_lock;        /* some lock is an array element at an unknown index */
    /* must: the locks are definite objects, each held lock is held on every
     * path to the wait, and no wait needs more than the threads reaching
     * their statements; may: some of that is not known, and `why` (owned)
     * says what */
    bool may;
    char *why;
} deadlock_finding;

/* The lock graph, for --dot. */
typedef struct deadlock_graph_edge {
    uint32_t from, to;  /* indices into locks */
    bool in_finding;
} deadlock_graph_edge;

/* Cycles not reported because every dependency on them goes from a node's
 * lock to the lock of a node that node links to through one pointer field
 * of its own type (n->lock, then n->parent->lock), or every one the other
 * way round (n->parent->lock, then n->lock): an order along a tree or
 * list, which no cycle closes unless the links do. The assumption that they
 * do not is reported with them (--no-link-order reports the cycles). */
typedef struct deadlock_link_order {
    char *locks;   /* the cycle's locks, each once, ", " between them */
    char *link;    /* the field ("parent") */
    char *record;  /* its struct's tag ("node"), or "" */
    bool against;  /* the linked node's lock first (n->parent->lock, then n->lock) */
    size_t cycles; /* cycles of these locks along this field */
} deadlock_link_order;

typedef struct deadlock_result {
    deadlock_finding *findings;
    size_t nfindings;
    char **locks;
    size_t nlocks;
    deadlock_graph_edge *gedges;
    size_t ngedges;
    size_t nfuncs, nthreads, ndeps, unknown_locks;
    char **entries;     /* the entry points used */
    size_t nentries;
    /* the front end's part, set by the caller (not by deadlock_analyse):
     * translation units read, and those left out wholly or in part */
    size_t units, units_left_out, units_partial;
    /* of those, units parsed in this run and units read from the unit
     * cache or a capture (never parsed) */
    size_t units_parsed, units_cached;
    /* --cache: functions whose summary came from the cache, functions
     * analysed, and cache files that could not be read or written (each a
     * miss, never an error) */
    size_t cache_hits, cache_misses, cache_bad, cache_write_errors;
    /* a budget ran out: "time" or "memory" (static strings), or "round": a
     * recursive component still changed after max_scc_iters rounds; else NULL; the
     * functions whose summary was left empty or cut short, and whether the
     * cycle search was cut short */
    const char *stopped;
    size_t funcs_unsummarised;
    bool cycles_cut;
    /* functions without a body that receive a pointer to a held lock: the
     * analysis assumes they do not release it (names, owned) */
    char **assumed;
    size_t nassumed;
    deadlock_link_order *link_ordered;
    size_t nlink_ordered;
} deadlock_result;

/* Analyses p (which must pass ir_check). */
void deadlock_analyse(const ir_program *p, const deadlock_opts *o, deadlock_result *res);
void deadlock_result_free(deadlock_result *res);
const char *deadlock_kind_name(deadlock_kind k);

#endif
