/* explore/interp: concrete execution of a sequential IR program, one run
 * at a time, with every nondeterministic choice asked of a chooser.
 *
 * The semantics are bmc.h's (bit-precise integers with wraparound, memory
 * as bytes with a concrete address per object, calls through pointers by
 * their candidates, ...) with these differences, all of which make a run
 * *stop* rather than guess: an operation whose behaviour C leaves
 * undefined or that the interpreter cannot be sure of (NULL, dangling or
 * out-of-object accesses, an array index out of its bounds, pointer
 * arithmetic leaving its object, relational comparison or subtraction of
 * pointers into different objects, division by zero, a call to a function
 * without a body that may write through a pointer, the value of a function
 * that fell off its end, long double and integers wider than 64 bits, a
 * floating-point conversion out of range) abandons the run. Floating point
 * is computed exactly with the host's IEEE float and double (C17's
 * FLT_EVAL_METHOD 0 on x86-64). A failed ASSUME abandons the run; a failed
 * ASSERT ends it as a bug.
 *
 * explore_prog holds what does not change between runs: per function, which
 * variables live in memory (as bmc decides: aggregates and address-taken
 * scalars) and the kind of each nondeterministic choice; the memory image
 * with globals zeroed and string literals written. */
#ifndef RAVEL_EXPLORE_INTERP_H
#define RAVEL_EXPLORE_INTERP_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace.h"
#include "explore/mem.h"
#include "ir/ir.h"

typedef enum explore_choice_kind {
    EXPLORE_CH_DATA,   /* an IR_E_NONDET value, a result of a function without a body,
                          a parameter of the entry */
    EXPLORE_CH_UNINIT, /* once per run, t NULL: the seed of the generator that gives
                          uninitialised scalar locals their values */
    EXPLORE_CH_RAISE,  /* hint: the ASSIGN writes a variable named kiss.choice */
    EXPLORE_CH_PICK,   /* hint: the ASSIGN writes a variable named kiss.pick */
    EXPLORE_CH_BRANCH, /* which target of a GOTO with several */
} explore_choice_kind;

/* Where and in which thread a choice is made (hints for a strategy). */
typedef struct explore_site {
    uint64_t key;  /* the choice's statement and its caller's CALL, hashed */
    uint64_t tid;  /* the value of the global kiss.cur, 0 without one */
    uint32_t depth; /* the call depth (frames on the stack) */
    bool idle;      /* a pick with no thread pending (kiss.ts_used all 0): it
                     * runs nothing whatever is chosen */
} explore_site;

typedef struct explore_chooser {
    /* A value of type t (canonical form, see interp.c) or, for BRANCH, an
     * index below n. */
    uint64_t (*choose)(void *ctx, explore_choice_kind k, const ir_type *t, uint32_t n,
                       const explore_site *where);
    /* Fills the bytes of a fresh malloc block or memory local. */
    void (*fill)(void *ctx, uint8_t *bytes, uint64_t n);
    void *ctx;
} explore_chooser;

typedef enum explore_outcome {
    EXPLORE_RUN_DONE,        /* the entry returned */
    EXPLORE_RUN_BUG,         /* an ASSERT failed */
    EXPLORE_RUN_ASSUME,      /* an ASSUME failed: abandoned */
    EXPLORE_RUN_UNDEFINED,   /* abandoned: undefined or unmodelled behaviour (why) */
    EXPLORE_RUN_LIMIT,       /* abandoned: max_steps, memory or the deadline */
    EXPLORE_RUN_UNSUPPORTED, /* a concurrency statement: no run can answer (why, loc) */
} explore_outcome;

typedef struct explore_prog explore_prog;

explore_prog *explore_prog_new(const ir_program *p);
void explore_prog_free(explore_prog *ep);

typedef struct explore_run_stats {
    uint64_t steps;        /* statements executed */
    uint64_t raise_points; /* RAISE choices asked */
    uint64_t pick_points;  /* PICK choices asked */
    uint64_t max_tid;      /* the largest kiss.cur seen */
} explore_run_stats;

typedef struct explore_run {
    explore_outcome outcome;
    const char *why;        /* UNDEFINED, LIMIT, UNSUPPORTED: a static text */
    base_srcloc loc;        /* where the run stopped */
    const ir_func *func;    /* BUG: the failed ASSERT */
    uint32_t stmt;
    explore_run_stats stats;
} explore_run;

/* Runs entry once (globals zero, p->init, then entry). With trace non-NULL
 * the executed steps are appended to trace->steps (strings in
 * trace->arena), as bmc_check records them. deadline: base_now() value
 * after which the run is abandoned (0: none). */
void explore_run_once(explore_prog *ep, const ir_func *entry, const explore_chooser *ch,
                      uint64_t max_steps, double deadline, trace_result *trace, explore_run *out);

#endif
