/* bmc_conc: bmc's symbolic execution opened to an engine over concurrent
 * programs (po, the partial-order engine).
 *
 * The caller runs one thread function at a time (bmc_conc_run) in one
 * shared session: one solver, one address space (every object keeps its
 * own concrete address across threads), one list of trace events. The
 * semantics of bmc.h hold within a thread, with three differences:
 *  - every global lives in memory (none in a register: they are shared);
 *  - every memory access (load, store, the nondeterministic contents of a
 *    fresh object, a zeroing) goes to the caller's hooks instead of bmc's
 *    memory array: the caller decides what a load returns;
 *  - ASYNC, JOIN, LOCK, UNLOCK, LOCK_INIT, LOCK_DESTROY, COND_WAIT,
 *    COND_SIGNAL, THREAD_EXIT, ATOMIC_BEGIN/END and calls of
 *    __VERIFIER_atomic_* functions go to the sync hook, with their operands
 *    evaluated.
 * Loops and recursion are cut as in bmc (the cuts are unwinding
 * assertions); the caller may add cuts of its own (a thread-creation
 * bound). One reduction: a loop whose body only tests (GOTOs and SKIPs:
 * `while (flag) ;`, a spin lock's wait) takes no back edge at all — the
 * paths that would iterate end, without a cut. This is sound and complete
 * for assertions because a failed test changes nothing: an execution that
 * spins k times and leaves is the one whose other threads' steps during
 * the spinning come before the first test, which then succeeds; one that
 * spins for ever is a prefix in which the thread stopped before the loop.
 * Its extension to loops with a body (Dekker's waiting loop, which lowers
 * its flag, waits for its turn and raises it again): when the loops inside
 * are such pure spins and the loop is entered only at its head, an
 * iteration that only tested (no statement but GOTOs and SKIPs ran since
 * the head, decided path by path) takes no back edge, again without a
 * cut; the iterations that did more are unwound and counted as usual.
 * Deleting a test-only iteration from an execution deletes reads only and
 * leaves the thread's locals as they were, so the rest is still an
 * execution with the same failures (docs/manual.md). After the caller
 * asserted its constraints (reads-from, order),
 * bmc_conc_decide answers as bmc_check does, with the trace ordered by the
 * caller's step_key. */
#ifndef RAVEL_BMC_BMC_CONC_H
#define RAVEL_BMC_BMC_CONC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "bmc/bmc.h"
#include "bmc/smt.h"
#include "ir/ir.h"

/* A synchronisation statement reaching the sync hook. */
typedef struct bmc_conc_op {
    const ir_stmt *s;        /* the statement (for ATOMIC_BEGIN/END of an atomic
                                function's call: the CALL) */
    const ir_func *func;     /* the function s belongs to */
    ir_stmt_kind kind;       /* s->kind, or ATOMIC_BEGIN/END around an atomic call */
    bmc_smt_term guard;      /* the path condition before it */
    bmc_smt_term rhs;        /* s->rhs evaluated (0: none) */
    const ir_type *rhs_type;
    bmc_smt_term arg0;       /* s->args[0] evaluated (0: none) */
    bmc_smt_term callee;     /* ASYNC through a pointer: its value (0: a named callee) */
    /* out: */
    bmc_smt_term lhs_value;  /* stored into s->lhs when it has one (0: nothing) */
    bmc_smt_term guard_out;  /* the path condition after it (0: unchanged) */
} bmc_conc_op;

typedef struct bmc_conc_hooks {
    void *ud;
    /* A load of n bytes at addr on the paths guard: the value (n * 8 bits,
     * byte i at bits 8i+7..8i). */
    bmc_smt_term (*load)(void *ud, bmc_smt_term guard, bmc_smt_term addr, uint32_t n);
    /* A store of n bytes of v (n * 8 bits) at addr on the paths guard. */
    void (*store)(void *ud, bmc_smt_term guard, bmc_smt_term addr, bmc_smt_term v, uint32_t n);
    void (*sync)(void *ud, bmc_conc_op *op);
    /* The place of trace event ev in the model's interleaving: a key
     * (smaller runs earlier; ties broken by thread, then by ev) and the
     * thread that ran it. */
    uint64_t (*step_key)(void *ud, size_t ev, uint32_t *thread);
} bmc_conc_hooks;

typedef struct bmc_conc bmc_conc;

/* A session over p; r receives the result (as bmc_check's). */
bmc_conc *bmc_conc_new(const ir_program *p, const bmc_opts *o, const bmc_conc_hooks *h,
                       trace_result *r);
void bmc_conc_free(bmc_conc *b);
bmc_smt_solver *bmc_conc_solver(bmc_conc *b);
/* A lazy theory over the solver's constraints: after every satisfiable
 * check, refine(ud) reads the model (bmc_smt_model_*) and asserts what it
 * breaks (permanently: the session never pops); the check is repeated,
 * with the same assumptions, until refine returns 0 (nothing added), so
 * every model the session acts on satisfies the theory. A negative
 * return: the theory failed, and the check's answer is unknown. */
void bmc_conc_set_refine(bmc_conc *b, int (*refine)(void *ud), void *ud);
uint32_t bmc_conc_ptr_bits(const bmc_conc *b);
/* The memory before any thread runs: every global zero, string literals. */
bmc_smt_term bmc_conc_init_mem(const bmc_conc *b);
bmc_smt_term bmc_conc_func_addr(bmc_conc *b, const ir_func *f);
/* Trace events recorded so far (a run's events are consecutive). */
size_t bmc_conc_nevents(const bmc_conc *b);

/* Runs f from the paths guard with the given arguments (nargs 0: free
 * parameters); *exit_guard: the paths that return, *ret the result (0 for
 * void). */
void bmc_conc_run(bmc_conc *b, const ir_func *f, bmc_smt_term guard, const bmc_smt_term *args,
                  const ir_type *const *types, uint32_t nargs, bmc_smt_term *exit_guard,
                  bmc_smt_term *ret);
/* Whether the session stopped (timeout, size limit, unsupported construct). */
bool bmc_conc_stopped(const bmc_conc *b);
/* Stops the session with a reason (unsupported construct of the caller). */
void bmc_conc_stop(bmc_conc *b, base_srcloc loc, const char *reason);
/* A bound of the caller cut the paths guard at statement stmt of f. */
void bmc_conc_add_cut(bmc_conc *b, bmc_smt_term guard, const ir_func *f, uint32_t stmt,
                      base_srcloc loc);
/* A Boolean variable equal to t (cheap to read from models). */
bmc_smt_term bmc_conc_name(bmc_conc *b, bmc_smt_term t);
/* Decides (after the caller's constraints are asserted); fills r.
 * A stopped session answers UNKNOWN with its reason. */
trace_verdict bmc_conc_decide(bmc_conc *b);

/* What a store reaching the store hook is: a program's access, the
 * nondeterministic contents of a fresh object (a local's or malloc's: no
 * access), or what a call to a function without a body may write. */
typedef enum bmc_conc_access {
    BMC_CONC_PROGRAM,
    BMC_CONC_FRESH,
    BMC_CONC_EXTERNAL,
} bmc_conc_access;

/* For a hook: what the access in progress is, and *loc its statement. */
bmc_conc_access bmc_conc_access_now(const bmc_conc *b, base_srcloc *loc);

/* The object at addr as the program names it (a variable, its field or
 * element; malloc@LINE#N for an allocated block). */
void bmc_conc_describe(bmc_conc *b, uint64_t addr, base_strbuf *out);

/* When the n bytes at addr lie inside one object (a variable, a string
 * literal, an allocated block; not a function). */
bmc_smt_term bmc_conc_in_object(bmc_conc *b, bmc_smt_term addr, uint32_t n);

/* Another goal than a failing assertion (po_race: a data race). */
typedef struct bmc_conc_goal {
    bmc_smt_term goal;  /* what to find */
    const char *what;   /* for an UNKNOWN that only an approximation reaches:
                           "a data race may exist" */
    bool cuts;          /* when none is found, check the unwinding assertions */
    void *ud;
    /* Called on the model of a goal: the trace's last key (as step_key's,
     * with its thread: the trace holds the events up to it), the BUG's
     * message and location. */
    uint64_t (*found)(void *ud, uint32_t *thread, const char **message, base_srcloc *loc);
} bmc_conc_goal;

/* Decides whether goal g holds in some model (BUG, with the trace up to
 * g->found's key; a model that needs an approximation is not taken) or not
 * (SAFE_WITHIN_BOUNDS, with the unwinding assertions when g->cuts). May be
 * called again with other goals: each answer replaces r's last one. */
trace_verdict bmc_conc_decide_goal(bmc_conc *b, const bmc_conc_goal *g);

#endif
