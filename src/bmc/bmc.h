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
#include "base/strbuf.h"
#include "ir/ir.h"

typedef struct bmc_opts {
    uint32_t unwind;           /* loop and recursion bound (>= 1) */
    double timeout_s;          /* encoding and solving together; 0: none */
    double budget_s;           /* the budget a timeout message names (a caller's whole
                                * budget, of which timeout_s is bmc's share); 0: timeout_s */
    bool unwinding_assertions; /* ask whether a bound cut an execution */
    size_t max_terms;          /* formula size limit (memory): beyond it the answer is
                                  UNKNOWN; 0: the default, 5 million */
} bmc_opts;

/* unwind 3, no timeout, unwinding assertions on, at most 5 million terms
 * (also what NULL opts mean). */
void bmc_opts_init(bmc_opts *o);

typedef enum bmc_verdict {
    BMC_BUG,                /* an ASSERT can fail: steps hold the execution */
    BMC_SAFE_WITHIN_BOUNDS, /* no ASSERT fails within the bounds */
    BMC_UNKNOWN,            /* reason, at reason_loc when it has a line */
} bmc_verdict;

/* A value of the trace: `bits` are its low 64 bits as stored (a pointer's
 * address, an integer's two's complement bits zero-extended from its
 * width); `text` is how C would write it: 42, -1, 'A' is 65, NULL, &x,
 * &a[2], &node@12#1->next for a malloc'd object (+offset in bytes when the
 * address is inside an object but not at a field), {0x01, 0x00, ...} for
 * aggregates. */
typedef struct bmc_value {
    const ir_type *type;
    uint64_t bits;
    const char *text;
} bmc_value;

typedef enum bmc_step_kind {
    BMC_STEP_ASSIGN,   /* lhs = value (also a call's result, after its RETURN) */
    BMC_STEP_NONDET,   /* lhs = a nondeterministic value (nondet_T(), or the result
                          of a call without a body) */
    BMC_STEP_ALLOC,    /* lhs = the new block's address (size in alloc_size) */
    BMC_STEP_CALL,     /* callee(args) starts (external: it has no body) */
    BMC_STEP_RETURN,   /* callee returns value (type void: none) */
    BMC_STEP_GOTO,     /* a jump was taken to statement target */
    BMC_STEP_ASSUME,   /* an assume that held */
    BMC_STEP_ASSERT,   /* an assertion that held (failed: the last step, BUG) */
    BMC_STEP_SYNC,     /* a synchronisation statement that ran (engines over
                          concurrent programs: thread start and join, lock, ...) */
} bmc_step_kind;

/* One executed statement. func/stmt/loc name the statement (for RETURN:
 * the callee's RETURN statement, or stmt == nstmts when it fell off the
 * end); depth is the call depth (0 for __ravel_init and entry). */
typedef struct bmc_step {
    bmc_step_kind kind;
    const ir_func *func;
    uint32_t stmt;
    base_srcloc loc;
    uint32_t depth;
    uint32_t thread;          /* engines over concurrent programs: the thread instance
                                 that ran it (0: main); 0 otherwise */
    const char *lhs;          /* ASSIGN, NONDET, ALLOC: the lvalue as C (s->m.v, a[2]) */
    const ir_var *var;        /* when lhs is exactly a variable: that variable (a global,
                                 or a local or parameter of func), else NULL */
    bmc_value value;          /* ASSIGN, NONDET, ALLOC, RETURN */
    const ir_func *callee;    /* CALL, RETURN */
    const bmc_value *args;    /* CALL */
    uint32_t nargs;
    bool external;            /* CALL: a function without a body */
    uint64_t alloc_size;      /* ALLOC */
    uint32_t target;          /* GOTO */
    const char *message;      /* ASSERT, ASSUME: the statement's message */
} bmc_step;

typedef struct bmc_stats {
    size_t terms;         /* distinct SMT terms built */
    size_t smt_asserts;   /* constraints asserted to the solver */
    size_t array_selects; /* memory reads left to the solver's array theory (the rest
                             were resolved while encoding) */
    size_t assertions;    /* ASSERT instances encoded (after unwinding and inlining) */
    size_t steps;         /* statements executed symbolically */
    size_t cuts;          /* places where a bound cut paths */
    size_t solver_calls;
    double encode_s, solve_s;
} bmc_stats;

typedef struct bmc_result {
    bmc_verdict verdict;
    uint32_t unwind;            /* the bound used */

    /* BUG: the failed assertion and the execution that reaches it, in
     * order, from the first statement of __ravel_init to the failing
     * ASSERT (the last step). */
    const char *message;
    const ir_func *func;
    uint32_t stmt;
    base_srcloc loc;
    bmc_step *steps;
    size_t nsteps;

    /* SAFE_WITHIN_BOUNDS: whether the unwinding assertions were checked
     * and held (then no execution was cut: the program is safe for every
     * input); when one failed, where a bound was hit (a loop's back edge
     * or a recursive call). */
    bool unwinding_checked;
    bool unwinding_ok;
    bool cut_is_recursion;
    const ir_func *cut_func;
    uint32_t cut_stmt;
    base_srcloc cut_loc;

    /* UNKNOWN: why; reason_loc.line is 0 when no source place applies. */
    const char *reason;
    base_srcloc reason_loc;

    bmc_stats stats;
    base_arena arena; /* owns every string and array above */
} bmc_result;

/* Checks entry (a function of p with a body) of the sequential program p.
 * o NULL: bmc_opts_init's defaults. r is overwritten; free it with
 * bmc_result_free. Returns r->verdict. */
bmc_verdict bmc_check(const ir_program *p, const ir_func *entry, const bmc_opts *o,
                      bmc_result *r);
void bmc_result_free(bmc_result *r);

const char *bmc_verdict_name(bmc_verdict v); /* "bug", "safe within bounds", "unknown" */
const char *bmc_step_kind_name(bmc_step_kind k);
/* A plain text rendering of the result (verdict line, bounds, trace one
 * step a line), for tests and debugging; the user-facing formats belong
 * to report. */
void bmc_format_result(base_strbuf *out, const ir_program *p, const bmc_result *r);

#endif
