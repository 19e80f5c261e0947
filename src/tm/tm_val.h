/* tm_val: the abstract values of the thread-modular engine (tm).
 *
 * A value over-approximates the set of values an IR expression of a
 * scalar type may have: for an integer type an interval of int64_t
 * (values of a 64-bit unsigned type above INT64_MAX make it `top`); for a
 * pointer type a small set of target global variables (offset 0), whether
 * it may be NULL and whether it may point anywhere else (`unknown`).
 * Every arithmetic operation is evaluated at the IR type's width and
 * signedness: a result that leaves the type's range (an unsigned
 * wraparound, a signed overflow) becomes the whole range, which is sound
 * for both. */
#ifndef RAVEL_TM_TM_VAL_H
#define RAVEL_TM_TM_VAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

#define TM_VAL_TARGETS 4

typedef struct tm_val {
    bool bot;      /* no value (unreachable) */
    bool top;      /* integer: any value of the type */
    int64_t lo, hi; /* integer: when !top */
    bool ptr;      /* a pointer value: the fields below, not lo/hi */
    bool null;     /* pointer: may be NULL */
    bool unknown;  /* pointer: may point to something not in t */
    uint8_t nt;
    uint32_t t[TM_VAL_TARGETS]; /* pointer: global variable ids, sorted */
} tm_val;

tm_val tm_val_bot(void);
/* The whole range of type ty (unknown for a pointer). */
tm_val tm_val_top(const ir_type *ty);
tm_val tm_val_const(int64_t v);
tm_val tm_val_range(const ir_type *ty, int64_t lo, int64_t hi);
tm_val tm_val_null(void);
tm_val tm_val_addr(uint32_t global);
/* The value of an object of type ty that C's static initialisation zeroed. */
tm_val tm_val_zero(const ir_type *ty);

tm_val tm_val_join(tm_val a, tm_val b);
/* a widened by b (a's bounds that b exceeds go to ty's ends). */
tm_val tm_val_widen(const ir_type *ty, tm_val a, tm_val b);
bool tm_val_eq(tm_val a, tm_val b);
/* a included in b. */
bool tm_val_leq(tm_val a, tm_val b);

/* Whether an integer value may be 0 / may be nonzero (pointers: NULL). */
bool tm_val_may_zero(tm_val a);
bool tm_val_may_nonzero(tm_val a);

/* The range of an integer type (false: a 64-bit unsigned type, whose top
 * half int64_t does not hold). */
bool tm_type_range(const ir_type *ty, int64_t *lo, int64_t *hi);

tm_val tm_val_unary(ir_op op, const ir_type *ty, tm_val a);
tm_val tm_val_binary(ir_op op, const ir_type *ty, tm_val a, tm_val b);
tm_val tm_val_cast(const ir_type *to, tm_val a);
/* a restricted to the values for which `a OP b` may hold (integers;
 * anything else is returned as is). */
tm_val tm_val_refine(ir_op op, tm_val a, tm_val b);

#endif
