/* po_mm: a memory model of the litmus library (logic/mm.h) over po's
 * events, for `ravel check --engine po --mm M`.
 *
 * po describes its events (po_mm_ev: guards, constant addresses, sizes,
 * the C11 order of the atomic operation around them, thread creations and
 * joins) and its reads-from choices (po_mm_rf: po's own Booleans). From
 * them po_mm builds the logic_structure every model reads (logic/vocab.h:
 * R, W, F, IW, RMW, po, loc, int, ext, rmw, the annotation sets a:rlx,
 * a:acq, a:rel, a:acq_rel, a:sc, a:mb) and three relations whose tuples are
 * literals: the execution X (an event's literal is its guard), rf (po's
 * choice, and both ends in X) and co (fresh, per pair of writes of one
 * location). The model's formula (the same function `ravel litmus -m`
 * calls), with co a strict total order of the writes of X per location and
 * every read of X reading some write, is grounded by logic/ground into
 * clauses, which are asserted into po's solver as Boolean constraints
 * (every SAT variable a Z3 Boolean or the po term it stands for).
 *
 * What becomes what:
 *   - a plain load or store: a read or write with no annotation (C's
 *     non-atomic access);
 *   - an atomic section that the front end made for a C11/GCC atomic
 *     operation (ir_stmt.mo): its accesses to the location accessed first
 *     are atomic with the operation's order (rlx, acq, rel, acq_rel, sc);
 *     a read and a later write of that location in one section are an rmw
 *     (both events carry the order; a compare-exchange's read is two
 *     events, one for success with the success order and one for failure
 *     with the failure order); other accesses in the section are plain;
 *     an atomic section without accesses is a fence; a seq_cst store is
 *     followed by a fence annotated mb (x86 compiles it with MFENCE or
 *     XCHG), a seq_cst fence carries mb too;
 *   - a lock operation (a read-modify-write of the lock word): an rmw with
 *     acq_rel (a blocked operation's write is not in X); a lock init: a
 *     relaxed write;
 *   - a thread creation: a fence annotated mb, program-order before every
 *     event of the new thread (po is a partial order across threads);
 *   - a thread's end: a release write to a location of its own; a join of
 *     it: an acquire read of that location that reads from the end (one
 *     read per thread the handle may name).
 * Not supported (po_mm_encode returns why): an atomic section that is no
 * C11 operation (__VERIFIER_atomic_*, atomic blocks) or whose order is not
 * a constant, and accesses whose address is not constant (the caller
 * checks that reads choose whole writes). */
#ifndef RAVEL_PO_PO_MM_H
#define RAVEL_PO_PO_MM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bmc/smt.h"
#include "logic/mm.h"

typedef enum po_mm_kind {
    PO_MM_MEM,
    PO_MM_START,
    PO_MM_END,
    PO_MM_ASYNC,
    PO_MM_JOIN,
    PO_MM_ABEGIN,
    PO_MM_AEND,
} po_mm_kind;

typedef struct po_mm_ev {
    po_mm_kind kind;
    uint32_t thread;
    bmc_smt_term guard;
    bmc_smt_term wguard;   /* MEM: the write's guard when it differs (a blocked lock), else 0 */
    uint32_t nrd, nwr;     /* MEM: bytes read, written */
    uint64_t raddr, waddr; /* MEM: their constant addresses */
    bool lock;             /* MEM: a lock operation */
    uint8_t mo;            /* ABEGIN: its statement's ir_mo (0: no C11 operation) */
    uint32_t child;        /* ASYNC: the thread */
    bmc_smt_term handle;   /* JOIN */
    bmc_smt_term joined;
} po_mm_ev;

typedef struct po_mm_thread {
    uint32_t end_ev;       /* UINT32_MAX: none */
    bmc_smt_term end_guard;
} po_mm_thread;

/* po's reads-from choice: event `read` reads `write` (UINT32_MAX: the
 * initial memory) when sv holds. */
typedef struct po_mm_rf {
    uint32_t read, write;
    bmc_smt_term sv;
} po_mm_rf;

typedef struct po_mm_stats {
    size_t events;  /* events of the structure, initial writes included */
    size_t vars;    /* SAT variables */
    size_t clauses; /* clauses asserted */
} po_mm_stats;

typedef struct po_mm po_mm; /* a lazy encoding, kept for refinement */

/* Asserts into s that the execution is consistent under mm. Returns NULL,
 * or why the program is outside what the encoding supports (the answer is
 * then unknown). deadline: base_now() seconds, 0: none.
 *
 * lazy NULL: eagerly, the whole formula (acyclicity by the fill graph's
 * triangles, transitive closures and coherence's transitivity by their
 * triangles). Else lazily: those are left out (logic_builder.lazy), and
 * *lazy receives the session (NULL when nothing was deferred) for
 * po_mm_refine, which must then see every model of s before it is
 * believed. */
const char *po_mm_encode(bmc_smt_solver *s, const logic_mm *mm, uint32_t ptr_bits,
                         const po_mm_ev *evs, uint32_t nevs, const po_mm_thread *thrs,
                         uint32_t nthrs, const po_mm_rf *rfs, size_t nrfs, double deadline,
                         po_mm_stats *st, po_mm **lazy);

/* With s's last satisfiable check's model: evaluates every deferred
 * constraint and asserts into s a clause for each cycle (the shortest
 * through each event, at most 64 a constraint) and each broken triangle
 * of a closure (at most 4096) the model has: the cycle's tuples not all
 * hold, r(a,b) and r(b,c) give r(a,c). Each clause holds in every
 * consistent execution, and a model with none to add satisfies the whole
 * formula, so the answers are the eager encoding's. Returns 1 when it
 * added any (then check again), 0 when none, -1 when the grounder failed
 * (no answer can be believed). */
int po_mm_refine(po_mm *m);
/* Refinement rounds that added clauses, and the clauses added. */
void po_mm_lazy_stats(const po_mm *m, size_t *rounds, size_t *clauses);
void po_mm_free(po_mm *m); /* NULL: nothing */

#endif
