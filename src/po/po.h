/* po: bounded model checking of a concurrent IR program as a partial
 * order (Alglave, Kroening, Tautschnig, CAV 2013), under sequential
 * consistency.
 *
 * Every thread instance — main (after __ravel_init), and every thread an
 * ASYNC starts, also in loops, up to max_threads instances — is unwound
 * into guarded SSA by bmc's symbolic execution (bmc/bmc_conc.h). Every
 * memory access becomes an event: a guard, a clock (a bit-vector), and
 * bytes with symbolic addresses and values. Reads-from is a Boolean choice
 * per (read byte, write byte or the initial memory); the clocks order the
 * events, and SC's axioms are clauses over them:
 *   - program order: each thread's events have increasing clocks; a
 *     thread's first event comes after the ASYNC that started it;
 *   - a read byte whose event runs reads some write of its address (or the
 *     initial memory) with a smaller clock, and the value it wrote;
 *   - no write to that address runs between them (from-read and coherence
 *     in one: with every constraint a strict `<`, any total order that
 *     breaks the clocks' ties is an interleaving with the same reads);
 *   - an atomic section (ATOMIC_BEGIN..END, a __VERIFIER_atomic_* call)
 *     has no other thread's memory event between its two ends.
 * Synchronisation is memory: a lock is one read-modify-write event on a
 * 4-byte lock word at the lock object's address (owner thread + 1 in bits
 * 0-15, a count in bits 16-23 — recursion or readers —, the kind set by
 * LOCK_INIT in bits 24-31); a blocked operation stops its thread (its
 * later events do not run), which is an execution prefix. JOIN stops its
 * thread unless the joined thread ended at a smaller clock. COND_WAIT
 * returns at any time (POSIX allows spurious wake-ups) and COND_SIGNAL
 * does nothing, so every POSIX behaviour is included.
 *
 * Answers: BUG with a trace (steps carry their thread, in the order of
 * the model's clocks); SAFE_WITHIN_BOUNDS with unwinding_ok when no
 * execution was cut by a loop, recursion or thread-creation bound — then
 * no interleaving of any input fails an assertion (see `exact`);
 * UNKNOWN with a reason. */
#ifndef RAVEL_PO_PO_H
#define RAVEL_PO_PO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bmc/bmc.h"
#include "bmc/bmc_conc.h"
#include "ir/ir.h"

struct logic_mm;

typedef struct po_opts {
    bmc_opts bo;           /* unwind, timeout, formula size */
    uint32_t max_threads;  /* thread instances besides main (>= 1); more is a cut */
    /* NULL: SC by clocks (above). A model of logic/mm.h: its formula over
     * the events decides consistency instead (po_mm.h); the clocks then
     * order only program order, creation, join and reads-from (acyclic
     * under sc, tso, ra and c11 alike), which places the trace. */
    const struct logic_mm *mm;
    /* mm: the model's acyclicity, closures and coherence order checked
     * lazily (po_mm_refine: solve, add what the model breaks, solve
     * again) instead of grounded as triangles; the answers are the same. */
    bool mm_lazy;
    /* the auto solver's clause cap (po_solver_choice); 0: PO_AUTO_CLAUSE_CAP */
    uint64_t auto_clause_cap;
} po_opts;

void po_opts_init(po_opts *o); /* bmc's defaults, 64 threads, mm_lazy */

typedef struct po_stats {
    size_t threads;     /* thread instances, main included */
    size_t events;      /* memory and synchronisation events */
    size_t read_bytes, write_bytes;
    size_t whole_reads; /* reads that choose whole writes (the rest: byte by byte) */
    size_t rf_choices;  /* reads-from variables */
    size_t order_clauses; /* from-read / coherence clauses */
    uint32_t clock_bits;
    size_t mm_events, mm_vars, mm_clauses; /* the model's structure and clauses (opts.mm) */
    size_t mm_rounds, mm_refined;          /* mm_lazy: refinement rounds, clauses they added */
    uint64_t clauses;   /* CaDiCaL: the clauses bit-blasting made (0 with Z3) */
    bool redone;        /* the auto solver: CaDiCaL's cap was hit, Z3 decided */
} po_stats;

/* The auto solver (smt.h's BMC_SMT_AUTO, the default): po bit-blasts to
 * CaDiCaL while the formula has at most this many clauses, and decides it
 * again with Z3 beyond (docs/manual.md, "SMT back ends"). */
#define PO_AUTO_CLAUSE_CAP 1000000

/* The back end po uses when asked for b (DEFAULT: bmc_smt_current_backend);
 * *cap is the clause cap it runs under (0: none). AUTO is CaDiCaL under
 * auto_cap when the check can be redone with Z3 once the cap is hit
 * (redoable: not an engine over the encoding, which keeps state across its
 * checks) and auto_cap is not 0; else Z3. */
bmc_smt_backend po_solver_choice(bmc_smt_backend b, bool redoable, uint64_t auto_cap,
                                 uint64_t *cap);

/* Checks p from entry (main). r as bmc_check's; *exact (when not NULL) is
 * false when a construct the model over-approximates or does not model is
 * present (a call to a function without a body that might change memory):
 * then a SAFE answer is not a proof. Returns r->verdict. */
trace_verdict po_check(const ir_program *p, const ir_func *entry, const po_opts *o,
                       trace_result *r, po_stats *st, bool *exact, const char **inexact_why);

/* --- an engine over the encoding (po_race) --- */

typedef struct po po_session; /* a session: the threads run, the SC axioms asserted */

/* What the engine decides instead of the assertions: called after the
 * encoding (not when the session stopped); returns the verdict it left in
 * the session's result (bmc_conc_decide_goal). */
typedef struct po_ext {
    void *ud;
    trace_verdict (*decide)(void *ud, po_session *c);
} po_ext;

/* po_check, with x deciding (NULL: the assertions). */
trace_verdict po_check_ext(const ir_program *p, const ir_func *entry, const po_opts *o,
                           trace_result *r, po_stats *st, bool *exact, const char **inexact_why,
                           const po_ext *x);

/* An event: a memory access (mem; a read of nrd bytes at raddr and/or a
 * write of nwr bytes of wval at waddr, from the statement at loc) or a
 * thread's start, end, creation, join or atomic section end. The events of
 * one thread are consecutive, in program order, and their clocks increase
 * strictly (whether they run or not: guard). */
typedef struct po_event_info {
    uint32_t thread;
    bmc_smt_term guard, clock;
    bmc_smt_term raddr, waddr, wval;
    uint32_t nrd, nwr;
    bool mem;
    const ir_stmt *s;     /* a lock operation (LOCK, UNLOCK, LOCK_INIT: its lock word), else NULL */
    bmc_conc_access acc;  /* mem: what kind of store */
    base_srcloc loc;
    size_t bev;           /* the trace events made before it (its statement's step: bev) */
} po_event_info;

size_t po_nevents(const po_session *c);
void po_event_get(const po_session *c, uint32_t e, po_event_info *out);
/* When event e runs inside one of its thread's atomic sections. */
bmc_smt_term po_event_in_atomic(po_session *c, uint32_t e);
size_t po_nthreads(const po_session *c);             /* thread instances, main (0) included */
const ir_func *po_thread_func(const po_session *c, uint32_t t);
base_srcloc po_thread_started_at(const po_session *c, uint32_t t); /* line 0: main */
bmc_conc *po_bmc(po_session *c);

#endif
