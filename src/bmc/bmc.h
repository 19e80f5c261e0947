/* bmc: bounded model checking of a sequential IR program — does some
 * execution of `entry`, with loops and recursion unwound up to a bound,
 * make an ASSERT fail?
 *
 * The program must be sequential: ASYNC, JOIN, LOCK, UNLOCK, LOCK_INIT,
 * LOCK_DESTROY, COND_WAIT and COND_SIGNAL make the answer UNKNOWN (run the
 * KISS translation first); ATOMIC_BEGIN/END are no-ops. An execution
 * starts with every global zero, runs p->init (the initialisers), then
 * entry with nondeterministic arguments.
 *
 * Semantics (what a verdict is about):
 *  - Integers are bit-precise: C's widths and signedness, wraparound of
 *    unsigned arithmetic, truncating signed division, arithmetic right
 *    shift of negative values, shifts by >= the width give 0 (or -1).
 *    Undefined behaviour ends the path as a failed ASSUME does, so no
 *    verdict rests on it: signed overflow of + - * and unary -, INT_MIN / -1
 *    and INT_MIN % -1, division by zero (a program that relies on any of
 *    them is checked only on its executions that do not).
 *  - Memory is one byte-addressed array; every object (global, local whose
 *    address is taken or that is an aggregate, malloc/calloc block, string
 *    literal) gets its own concrete address, never reused, so a pointer is
 *    a plain address of the target's width and `(object, offset)` is
 *    recovered for traces. Scalars whose address is never taken live in
 *    registers (SSA values), not in memory. Out-of-bounds accesses, use
 *    after free and double free are not checked; malloc never fails.
 *  - A symbolic index into an array of at most 16 elements is a choice
 *    among its elements; an index out of bounds (undefined in C) then
 *    reaches the last element.
 *  - Fresh objects (locals, malloc blocks) hold nondeterministic bytes when
 *    at most 4096 bytes large; larger ones start zeroed (documented
 *    deviation: reading them before writing is unspecified in C anyway).
 *  - A call to a function without a body returns a nondeterministic value
 *    and does not modify memory (documented assumption), except that when
 *    it is passed a pointer (other than a string literal or NULL) it might
 *    write through, the objects that pointer may point to get arbitrary
 *    contents (not what they point to in turn) and the call is an
 *    approximation (see floating point below): C library functions known
 *    only to read (printf, strlen, strcmp, ...) are exempt. A call
 *    through a pointer runs whichever
 *    of the statement's candidate functions (cands) the pointer equals;
 *    with no candidate listed it is treated like a call without a body,
 *    and when the pointer equals none of them the path ends.
 *  - ASSUME(c) ends the paths where c is 0; after ASSERT(c) the paths where
 *    it failed end too (so a trace ends at the first failure).
 *  - Loops: a loop's back edge (a GOTO to an earlier statement) is taken at
 *    most unwind-1 times per entry into the loop, so the loop body runs at
 *    most `unwind` times (a `for (i = 0; i < 5; i++)` loop needs unwind 6:
 *    five iterations and the sixth test). Recursion: a call is cut when
 *    its callee already has `unwind` activations on the call stack. A cut
 *    ends the path; with unwinding_assertions the checker also asks
 *    whether a cut is reachable, and says so (unwinding_ok false).
 *  - Floating-point values are copied exactly but not computed: an
 *    operation on them gives a nondeterministic value. A counterexample
 *    that went through such an approximation (this one, and the calls
 *    above) is not claimed: the checker looks for another and answers
 *    UNKNOWN (naming the approximation) when there is none.
 *
 * Verdicts never overclaim: BUG comes with a trace of a real execution
 * (modulo the semantics above); SAFE_WITHIN_BOUNDS means no execution that
 * stays within the bounds fails an assertion, and unwinding_ok says
 * whether every execution stayed within them. */
#ifndef RAVEL_BMC_BMC_H
#define RAVEL_BMC_BMC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/srcloc.h"
#include "bmc/smt.h"
#include "ir/ir.h"
#include "trace/trace.h"

typedef struct bmc_opts {
    uint32_t unwind;           /* loop and recursion bound (>= 1) */
    double timeout_s;          /* encoding and solving together; 0: none */
    double budget_s;           /* the budget a timeout message names (a caller's whole
                                * budget, of which timeout_s is bmc's share); 0: timeout_s */
    bool unwinding_assertions; /* ask whether a bound cut an execution */
    size_t max_terms;          /* formula size limit (memory): beyond it the answer is
                                  UNKNOWN; 0: the default, 5 million */
    bmc_smt_backend solver;    /* the solver's back end (smt.h); DEFAULT: bmc_smt_new's */
    uint64_t clause_cap;       /* bmc_smt_set_clause_cap's cap (CaDiCaL); 0: none */
} bmc_opts;

/* unwind 3, no timeout, unwinding assertions on, at most 5 million terms
 * (also what NULL opts mean). */
void bmc_opts_init(bmc_opts *o);

/* Checks entry (a function of p with a body) of the sequential program p.
 * o NULL: bmc_opts_init's defaults. r is overwritten; free it with
 * trace_result_free. Returns r->verdict. */
trace_verdict bmc_check(const ir_program *p, const ir_func *entry, const bmc_opts *o,
                        trace_result *r);

#endif
