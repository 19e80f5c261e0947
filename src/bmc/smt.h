/* smt: the solver interface of the bounded checker — quantifier-free
 * bit-vectors and arrays, small enough that a bit-blaster on CaDiCaL can
 * implement it as well as Z3 does: smt.c dispatches to smt_z3.c (the only
 * file that includes z3.h) or smt_cadical.c (bit-blasting on sat/solver).
 *
 * Terms are small integer handles owned by their bmc_smt_solver; handle 0 is
 * "no term". Sorts are Bool, bit-vectors of width 1..65535, and arrays from
 * bit-vectors to bit-vectors (the checker's memory: address -> byte).
 * Structurally equal terms get the same handle (hash-consing), and
 * operations on constants fold: bmc_smt_is_true/false and bmc_smt_bv_value see
 * through them, which the checker uses to skip dead code and to resolve
 * memory accesses at constant addresses without array reasoning.
 *
 * Solving: bmc_smt_assert adds a permanent constraint (until the bmc_smt_pop of
 * an enclosing bmc_smt_push),
 * bmc_smt_check decides the constraints under a list of Boolean assumptions
 * (each a term), and the model of the last satisfiable check answers
 * bmc_smt_model_* until the next check. Errors inside the solver (a bug of the
 * caller) abort with a message. */
#ifndef RAVEL_BMC_SMT_H
#define RAVEL_BMC_SMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bmc_smt_solver bmc_smt_solver;
typedef uint32_t bmc_smt_term;

typedef enum bmc_smt_result { BMC_SMT_SAT, BMC_SMT_UNSAT, BMC_SMT_UNKNOWN } bmc_smt_result;

typedef enum bmc_smt_bvop {
    BMC_SMT_BV_ADD, BMC_SMT_BV_SUB, BMC_SMT_BV_MUL,
    BMC_SMT_BV_UDIV, BMC_SMT_BV_SDIV, BMC_SMT_BV_UREM, BMC_SMT_BV_SREM, /* SMT-LIB semantics for 0 divisors */
    BMC_SMT_BV_SHL, BMC_SMT_BV_LSHR, BMC_SMT_BV_ASHR,               /* both operands of one width */
    BMC_SMT_BV_AND, BMC_SMT_BV_OR, BMC_SMT_BV_XOR,
} bmc_smt_bvop;

typedef enum bmc_smt_cmp { BMC_SMT_ULT, BMC_SMT_ULE, BMC_SMT_SLT, BMC_SMT_SLE } bmc_smt_cmp;

/* The back ends: Z3's bit-vectors and arrays (smt_z3.c), or bit-blasting to
 * CaDiCaL (smt_cadical.c). The choice is the one set by bmc_smt_set_backend,
 * else the one the environment variable RAVEL_SOLVER names ("z3", "cadical"
 * or "auto"), else auto. Auto is a choice for the caller to make (the po
 * engine: CaDiCaL under a clause cap, Z3 beyond it); bmc_smt_new makes a Z3
 * solver for it. */
typedef enum bmc_smt_backend { BMC_SMT_DEFAULT, BMC_SMT_Z3, BMC_SMT_CADICAL, BMC_SMT_AUTO } bmc_smt_backend;
/* False for a name that is none of "z3", "cadical", "auto". */
bool bmc_smt_parse_backend(const char *name, bmc_smt_backend *out);
void bmc_smt_set_backend(bmc_smt_backend b);
bmc_smt_backend bmc_smt_current_backend(void);

bmc_smt_solver *bmc_smt_new(void);
/* A solver of back end b (Z3 for DEFAULT and AUTO). */
bmc_smt_solver *bmc_smt_new_of(bmc_smt_backend b);
/* CaDiCaL only (a no-op for Z3): once more than cap clauses (0: no cap) have
 * been made, further clauses are dropped and every check answers UNKNOWN
 * with the reason BMC_SMT_TOO_LARGE; bmc_smt_over_cap then says so. */
#define BMC_SMT_TOO_LARGE "formula beyond the bit-blaster's clause cap"
void bmc_smt_set_clause_cap(bmc_smt_solver *s, uint64_t cap);
bool bmc_smt_over_cap(const bmc_smt_solver *s);
/* The clauses the bit-blaster made (0 for Z3). */
uint64_t bmc_smt_num_clauses(const bmc_smt_solver *s);
void bmc_smt_free(bmc_smt_solver *s);

/* Booleans. */
bmc_smt_term bmc_smt_true(bmc_smt_solver *s);
bmc_smt_term bmc_smt_false(bmc_smt_solver *s);
bmc_smt_term bmc_smt_bool_var(bmc_smt_solver *s, const char *name);
bmc_smt_term bmc_smt_not(bmc_smt_solver *s, bmc_smt_term a);
bmc_smt_term bmc_smt_and(bmc_smt_solver *s, bmc_smt_term a, bmc_smt_term b);
bmc_smt_term bmc_smt_or(bmc_smt_solver *s, bmc_smt_term a, bmc_smt_term b);
bmc_smt_term bmc_smt_implies(bmc_smt_solver *s, bmc_smt_term a, bmc_smt_term b);
/* c ? a : b for a and b of one sort (Bool, bit-vector or array). */
bmc_smt_term bmc_smt_ite(bmc_smt_solver *s, bmc_smt_term c, bmc_smt_term a, bmc_smt_term b);
/* a = b for two terms of one sort. */
bmc_smt_term bmc_smt_eq(bmc_smt_solver *s, bmc_smt_term a, bmc_smt_term b);
bool bmc_smt_is_true(bmc_smt_solver *s, bmc_smt_term a);
bool bmc_smt_is_false(bmc_smt_solver *s, bmc_smt_term a);

/* Bit-vectors. Constants wider than 64 bits are the zero extension of v. */
bmc_smt_term bmc_smt_bv_const(bmc_smt_solver *s, uint32_t width, uint64_t v);
bmc_smt_term bmc_smt_bv_var(bmc_smt_solver *s, uint32_t width, const char *name);
bmc_smt_term bmc_smt_bv_op(bmc_smt_solver *s, bmc_smt_bvop op, bmc_smt_term a, bmc_smt_term b);
bmc_smt_term bmc_smt_bv_not(bmc_smt_solver *s, bmc_smt_term a);
bmc_smt_term bmc_smt_bv_neg(bmc_smt_solver *s, bmc_smt_term a);
bmc_smt_term bmc_smt_bv_cmp(bmc_smt_solver *s, bmc_smt_cmp op, bmc_smt_term a, bmc_smt_term b);
bmc_smt_term bmc_smt_extract(bmc_smt_solver *s, uint32_t hi, uint32_t lo, bmc_smt_term a);
bmc_smt_term bmc_smt_concat(bmc_smt_solver *s, bmc_smt_term hi, bmc_smt_term lo);
bmc_smt_term bmc_smt_zext(bmc_smt_solver *s, uint32_t extra, bmc_smt_term a);
bmc_smt_term bmc_smt_sext(bmc_smt_solver *s, uint32_t extra, bmc_smt_term a);
uint32_t bmc_smt_width(bmc_smt_solver *s, bmc_smt_term a);  /* 0 for Bool and arrays */
/* True and *v set when a is a bit-vector constant of at most 64 bits. */
bool bmc_smt_bv_value(bmc_smt_solver *s, bmc_smt_term a, uint64_t *v);
/* When a is a constant or an ite tree over at most max constants (of at
 * most 64 bits), stores them (in tree order, repeats possible) in out and
 * returns how many; else 0. */
size_t bmc_smt_bv_leaves(bmc_smt_solver *s, bmc_smt_term a, uint64_t *out, size_t max);

/* Arrays from idx_width bit-vectors to elem_width bit-vectors. */
bmc_smt_term bmc_smt_array_var(bmc_smt_solver *s, uint32_t idx_width, uint32_t elem_width, const char *name);
bmc_smt_term bmc_smt_array_const(bmc_smt_solver *s, uint32_t idx_width, bmc_smt_term elem); /* every index: elem */
bmc_smt_term bmc_smt_select(bmc_smt_solver *s, bmc_smt_term arr, bmc_smt_term idx);
bmc_smt_term bmc_smt_store(bmc_smt_solver *s, bmc_smt_term arr, bmc_smt_term idx, bmc_smt_term val);

/* Solving. timeout_ms 0: none. On BMC_SMT_UNKNOWN, bmc_smt_reason says why. */
void bmc_smt_assert(bmc_smt_solver *s, bmc_smt_term a);
bmc_smt_result bmc_smt_check(bmc_smt_solver *s, const bmc_smt_term *assumptions, size_t n, unsigned timeout_ms);
const char *bmc_smt_reason(bmc_smt_solver *s);
void bmc_smt_push(bmc_smt_solver *s);
void bmc_smt_pop(bmc_smt_solver *s);

/* The last satisfiable check's model (unconstrained inputs read as 0). */
bool bmc_smt_model_bool(bmc_smt_solver *s, bmc_smt_term a);
uint64_t bmc_smt_model_bv(bmc_smt_solver *s, bmc_smt_term a); /* width <= 64 */

/* Statistics: distinct terms made, constraints asserted. */
size_t bmc_smt_num_terms(const bmc_smt_solver *s);
size_t bmc_smt_num_asserts(const bmc_smt_solver *s);
/* Selects that folding could not resolve (left to the array theory). */
size_t bmc_smt_num_array_selects(const bmc_smt_solver *s);

#endif
