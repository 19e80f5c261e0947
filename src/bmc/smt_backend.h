/* smt_backend: what the dispatcher (smt.c) needs of smt.h's two back ends,
 * Z3 (smt_z3.c) and bit-blasting to CaDiCaL (smt_cadical.c). Each back end
 * implements every smt.h operation that makes terms or solves under its own
 * prefix, on its own solver type, and keeps its terms in the shared term
 * table (smt_term.h), which answers the queries (constants, widths, leaves,
 * statistics) for both; smt.c's public bmc_smt_* forward to the one a solver
 * was made with. Only smt.c and the two back ends include this header. */
#ifndef RAVEL_BMC_SMT_BACKEND_H
#define RAVEL_BMC_SMT_BACKEND_H

#include "bmc/smt.h"
#include "bmc/smt_term.h"

/* Declares back end B's operations on solver type S (smt.h's signatures). */
#define BMC_SMT_BACKEND_DECLS(B, S)                                                                \
    S *bmc_smt_##B##_new(void);                                                                    \
    void bmc_smt_##B##_free(S *s);                                                                 \
    bmc_smt_terms *bmc_smt_##B##_terms(S *s);                                                      \
    bmc_smt_term bmc_smt_##B##_bool_var(S *s, const char *name);                                   \
    bmc_smt_term bmc_smt_##B##_not(S *s, bmc_smt_term a);                                          \
    bmc_smt_term bmc_smt_##B##_and(S *s, bmc_smt_term a, bmc_smt_term b);                          \
    bmc_smt_term bmc_smt_##B##_or(S *s, bmc_smt_term a, bmc_smt_term b);                           \
    bmc_smt_term bmc_smt_##B##_implies(S *s, bmc_smt_term a, bmc_smt_term b);                      \
    bmc_smt_term bmc_smt_##B##_ite(S *s, bmc_smt_term c, bmc_smt_term a, bmc_smt_term b);          \
    bmc_smt_term bmc_smt_##B##_eq(S *s, bmc_smt_term a, bmc_smt_term b);                           \
    bmc_smt_term bmc_smt_##B##_bv_const(S *s, uint32_t width, uint64_t v);                         \
    bmc_smt_term bmc_smt_##B##_bv_var(S *s, uint32_t width, const char *name);                     \
    bmc_smt_term bmc_smt_##B##_bv_op(S *s, bmc_smt_bvop op, bmc_smt_term a, bmc_smt_term b);       \
    bmc_smt_term bmc_smt_##B##_bv_not(S *s, bmc_smt_term a);                                       \
    bmc_smt_term bmc_smt_##B##_bv_neg(S *s, bmc_smt_term a);                                       \
    bmc_smt_term bmc_smt_##B##_bv_cmp(S *s, bmc_smt_cmp op, bmc_smt_term a, bmc_smt_term b);       \
    bmc_smt_term bmc_smt_##B##_extract(S *s, uint32_t hi, uint32_t lo, bmc_smt_term a);            \
    bmc_smt_term bmc_smt_##B##_concat(S *s, bmc_smt_term hi, bmc_smt_term lo);                     \
    bmc_smt_term bmc_smt_##B##_zext(S *s, uint32_t extra, bmc_smt_term a);                         \
    bmc_smt_term bmc_smt_##B##_sext(S *s, uint32_t extra, bmc_smt_term a);                         \
    bmc_smt_term bmc_smt_##B##_array_var(S *s, uint32_t idx_width, uint32_t elem_width,            \
                                         const char *name);                                        \
    bmc_smt_term bmc_smt_##B##_array_const(S *s, uint32_t idx_width, bmc_smt_term elem);           \
    bmc_smt_term bmc_smt_##B##_select(S *s, bmc_smt_term arr, bmc_smt_term idx);                   \
    bmc_smt_term bmc_smt_##B##_store(S *s, bmc_smt_term arr, bmc_smt_term idx, bmc_smt_term val);  \
    void bmc_smt_##B##_assert(S *s, bmc_smt_term a);                                               \
    bmc_smt_result bmc_smt_##B##_check(S *s, const bmc_smt_term *assumptions, size_t n,            \
                                       unsigned timeout_ms);                                       \
    const char *bmc_smt_##B##_reason(S *s);                                                        \
    void bmc_smt_##B##_push(S *s);                                                                 \
    void bmc_smt_##B##_pop(S *s);                                                                  \
    bool bmc_smt_##B##_model_bool(S *s, bmc_smt_term a);                                           \
    uint64_t bmc_smt_##B##_model_bv(S *s, bmc_smt_term a);

typedef struct bmc_smt_z3 bmc_smt_z3;
typedef struct bmc_smt_cad bmc_smt_cad;
BMC_SMT_BACKEND_DECLS(z3, bmc_smt_z3)
BMC_SMT_BACKEND_DECLS(cad, bmc_smt_cad)
void bmc_smt_cad_set_clause_cap(bmc_smt_cad *s, uint64_t cap);
bool bmc_smt_cad_over_cap(const bmc_smt_cad *s);
uint64_t bmc_smt_cad_num_clauses(const bmc_smt_cad *s);

#endif
