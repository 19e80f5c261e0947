/* smt: the solver interface of the bounded checker — quantifier-free
 * bit-vectors and arrays, small enough that a bit-blaster on CaDiCaL can
 * implement it as well as Z3 does (smt_z3.c is the only file that includes
 * z3.h).
 *
 * Terms are small integer handles owned by their smt_solver; handle 0 is
 * "no term". Sorts are Bool, bit-vectors of width 1..65535, and arrays from
 * bit-vectors to bit-vectors (the checker's memory: address -> byte).
 * Structurally equal terms get the same handle (hash-consing), and
 * operations on constants fold: smt_is_true/false and smt_bv_value see
 * through them, which the checker uses to skip dead code and to resolve
 * memory accesses at constant addresses without array reasoning.
 *
 * Solving: smt_assert adds a permanent constraint (until the smt_pop of
 * an enclosing smt_push),
 * smt_check decides the constraints under a list of Boolean assumptions
 * (each a term), and the model of the last satisfiable check answers
 * smt_model_* until the next check. Errors inside the solver (a bug of the
 * caller) abort with a message. */
#ifndef RAVEL_BMC_SMT_H
#define RAVEL_BMC_SMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct smt_solver smt_solver;
typedef uint32_t smt_term;

typedef enum smt_result { SMT_SAT, SMT_UNSAT, SMT_UNKNOWN } smt_result;

typedef enum smt_bvop {
    SMT_BV_ADD, SMT_BV_SUB, SMT_BV_MUL,
    SMT_BV_UDIV, SMT_BV_SDIV, SMT_BV_UREM, SMT_BV_SREM, /* SMT-LIB semantics for 0 divisors */
    SMT_BV_SHL, SMT_BV_LSHR, SMT_BV_ASHR,               /* both operands of one width */
    SMT_BV_AND, SMT_BV_OR, SMT_BV_XOR,
} smt_bvop;

typedef enum smt_cmp { SMT_ULT, SMT_ULE, SMT_SLT, SMT_SLE } smt_cmp;

smt_solver *smt_new(void);
void smt_free(smt_solver *s);

/* Booleans. */
smt_term smt_true(smt_solver *s);
smt_term smt_false(smt_solver *s);
smt_term smt_bool_var(smt_solver *s, const char *name);
smt_term smt_not(smt_solver *s, smt_term a);
smt_term smt_and(smt_solver *s, smt_term a, smt_term b);
smt_term smt_or(smt_solver *s, smt_term a, smt_term b);
smt_term smt_implies(smt_solver *s, smt_term a, smt_term b);
/* c ? a : b for a and b of one sort (Bool, bit-vector or array). */
smt_term smt_ite(smt_solver *s, smt_term c, smt_term a, smt_term b);
/* a = b for two terms of one sort. */
smt_term smt_eq(smt_solver *s, smt_term a, smt_term b);
bool smt_is_true(smt_solver *s, smt_term a);
bool smt_is_false(smt_solver *s, smt_term a);

/* Bit-vectors. Constants wider than 64 bits are the zero extension of v. */
smt_term smt_bv_const(smt_solver *s, uint32_t width, uint64_t v);
smt_term smt_bv_var(smt_solver *s, uint32_t width, const char *name);
smt_term smt_bv_op(smt_solver *s, smt_bvop op, smt_term a, smt_term b);
smt_term smt_bv_not(smt_solver *s, smt_term a);
smt_term smt_bv_neg(smt_solver *s, smt_term a);
smt_term smt_bv_cmp(smt_solver *s, smt_cmp op, smt_term a, smt_term b);
smt_term smt_extract(smt_solver *s, uint32_t hi, uint32_t lo, smt_term a);
smt_term smt_concat(smt_solver *s, smt_term hi, smt_term lo);
smt_term smt_zext(smt_solver *s, uint32_t extra, smt_term a);
smt_term smt_sext(smt_solver *s, uint32_t extra, smt_term a);
uint32_t smt_width(smt_solver *s, smt_term a);  /* 0 for Bool and arrays */
/* True and *v set when a is a bit-vector constant of at most 64 bits. */
bool smt_bv_value(smt_solver *s, smt_term a, uint64_t *v);
/* When a is a constant or an ite tree over at most max constants (of at
 * most 64 bits), stores them (in tree order, repeats possible) in out and
 * returns how many; else 0. */
size_t smt_bv_leaves(smt_solver *s, smt_term a, uint64_t *out, size_t max);

/* Arrays from idx_width bit-vectors to elem_width bit-vectors. */
smt_term smt_array_var(smt_solver *s, uint32_t idx_width, uint32_t elem_width, const char *name);
smt_term smt_array_const(smt_solver *s, uint32_t idx_width, smt_term elem); /* every index: elem */
smt_term smt_select(smt_solver *s, smt_term arr, smt_term idx);
smt_term smt_store(smt_solver *s, smt_term arr, smt_term idx, smt_term val);

/* Solving. timeout_ms 0: none. On SMT_UNKNOWN, smt_reason says why. */
void smt_assert(smt_solver *s, smt_term a);
smt_result smt_check(smt_solver *s, const smt_term *assumptions, size_t n, unsigned timeout_ms);
const char *smt_reason(smt_solver *s);
void smt_push(smt_solver *s);
void smt_pop(smt_solver *s);

/* The last satisfiable check's model (unconstrained inputs read as 0). */
bool smt_model_bool(smt_solver *s, smt_term a);
uint64_t smt_model_bv(smt_solver *s, smt_term a); /* width <= 64 */

/* Statistics: distinct terms made, constraints asserted. */
size_t smt_num_terms(const smt_solver *s);
size_t smt_num_asserts(const smt_solver *s);

#endif
