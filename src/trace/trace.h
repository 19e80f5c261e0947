/* trace: what every engine over C programs answers — the verdict, the
 * bounds it holds within, the reason of an unknown, and the trace of a
 * bug: the executed statements in order, each with its thread. bmc, po
 * and explore produce it; report prints it. It belongs to none of them.
 *
 * What a verdict means about the program (the semantics of values,
 * memory, bounds) is the producing engine's: bmc/bmc.h states it, and the
 * other engines follow it. */
#ifndef RAVEL_TRACE_TRACE_H
#define RAVEL_TRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/srcloc.h"
#include "base/strbuf.h"
#include "ir/ir.h"

typedef enum trace_verdict {
    TRACE_BUG,                /* an ASSERT can fail: steps hold the execution */
    TRACE_SAFE_WITHIN_BOUNDS, /* no ASSERT fails within the bounds */
    TRACE_UNKNOWN,            /* reason, at reason_loc when it has a line */
} trace_verdict;

/* A value of the trace: `bits` are its low 64 bits as stored (a pointer's
 * address, an integer's two's complement bits zero-extended from its
 * width); `text` is how C would write it: 42, -1, 'A' is 65, NULL, &x,
 * &a[2], &node@12#1->next for a malloc'd object (+offset in bytes when the
 * address is inside an object but not at a field), {0x01, 0x00, ...} for
 * aggregates. */
typedef struct trace_value {
    const ir_type *type;
    uint64_t bits;
    const char *text;
} trace_value;

typedef enum trace_step_kind {
    TRACE_STEP_ASSIGN,   /* lhs = value (also a call's result, after its RETURN) */
    TRACE_STEP_NONDET,   /* lhs = a nondeterministic value (nondet_T(), or the result
                          of a call without a body) */
    TRACE_STEP_ALLOC,    /* lhs = the new block's address (size in alloc_size) */
    TRACE_STEP_CALL,     /* callee(args) starts (external: it has no body) */
    TRACE_STEP_RETURN,   /* callee returns value (type void: none) */
    TRACE_STEP_GOTO,     /* a jump was taken to statement target */
    TRACE_STEP_ASSUME,   /* an assume that held */
    TRACE_STEP_ASSERT,   /* an assertion that held (failed: the last step, BUG) */
    TRACE_STEP_SYNC,     /* a synchronisation statement that ran (engines over
                          concurrent programs: thread start and join, lock, ...) */
} trace_step_kind;

/* One executed statement. func/stmt/loc name the statement (for RETURN:
 * the callee's RETURN statement, or stmt == nstmts when it fell off the
 * end); depth is the call depth (0 for __ravel_init and entry). */
typedef struct trace_step {
    trace_step_kind kind;
    const ir_func *func;
    uint32_t stmt;
    base_srcloc loc;
    uint32_t depth;
    uint32_t thread;          /* engines over concurrent programs: the thread instance
                                 that ran it (0: main); 0 otherwise */
    const char *lhs;          /* ASSIGN, NONDET, ALLOC: the lvalue as C (s->m.v, a[2]) */
    const ir_var *var;        /* when lhs is exactly a variable: that variable (a global,
                                 or a local or parameter of func), else NULL */
    trace_value value;          /* ASSIGN, NONDET, ALLOC, RETURN */
    const ir_func *callee;    /* CALL, RETURN */
    const trace_value *args;    /* CALL */
    uint32_t nargs;
    bool external;            /* CALL: a function without a body */
    uint64_t alloc_size;      /* ALLOC */
    uint32_t target;          /* GOTO */
    const char *message;      /* ASSERT, ASSUME: the statement's message */
} trace_step;

typedef struct trace_stats {
    size_t terms;         /* distinct SMT terms built */
    size_t smt_asserts;   /* constraints asserted to the solver */
    size_t array_selects; /* memory reads left to the solver's array theory (the rest
                             were resolved while encoding) */
    size_t assertions;    /* ASSERT instances encoded (after unwinding and inlining) */
    size_t steps;         /* statements executed symbolically */
    size_t cuts;          /* places where a bound cut paths */
    size_t solver_calls;
    size_t refinements;   /* checks repeated after a lazy theory added clauses (po --mm) */
    double encode_s, solve_s;
} trace_stats;

typedef struct trace_result {
    trace_verdict verdict;
    uint32_t unwind;            /* the bound used */

    /* BUG: the failed assertion and the execution that reaches it, in
     * order, from the first statement of __ravel_init to the failing
     * ASSERT (the last step). */
    const char *message;
    const ir_func *func;
    uint32_t stmt;
    base_srcloc loc;
    trace_step *steps;
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

    trace_stats stats;
    base_arena arena; /* owns every string and array above */
} trace_result;

void trace_result_free(trace_result *r);

const char *trace_verdict_name(trace_verdict v); /* "bug", "safe within bounds", "unknown" */
const char *trace_step_kind_name(trace_step_kind k);
/* A plain text rendering of the result (verdict line, bounds, trace one
 * step a line), for tests and debugging; the user-facing formats belong
 * to report. */
void trace_format_result(base_strbuf *out, const ir_program *p, const trace_result *r);

#endif
