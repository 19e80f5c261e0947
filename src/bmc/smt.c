/* smt: the dispatcher of smt.h over its two back ends (smt_backend.h). A
 * solver holds exactly one back end's solver; every operation that makes
 * terms or solves forwards to it, the queries read the shared term table
 * (smt_term.h) it keeps its terms in. */
#include "bmc/smt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bmc/smt_backend.h"

struct bmc_smt_solver {
    bmc_smt_z3 *z3;   /* exactly one of the two is set */
    bmc_smt_cad *cad;
    bmc_smt_terms *tt; /* its terms */
};

static bmc_smt_backend chosen = BMC_SMT_DEFAULT;

bool bmc_smt_parse_backend(const char *name, bmc_smt_backend *out)
{
    if (!strcmp(name, "z3"))
        *out = BMC_SMT_Z3;
    else if (!strcmp(name, "cadical"))
        *out = BMC_SMT_CADICAL;
    else if (!strcmp(name, "auto"))
        *out = BMC_SMT_AUTO;
    else
        return false;
    return true;
}

void bmc_smt_set_backend(bmc_smt_backend b)
{
    chosen = b;
}

bmc_smt_backend bmc_smt_current_backend(void)
{
    if (chosen != BMC_SMT_DEFAULT)
        return chosen;
    const char *env = getenv("RAVEL_SOLVER");
    bmc_smt_backend b;
    if (env && *env && bmc_smt_parse_backend(env, &b))
        return b;
    return BMC_SMT_AUTO;
}

bmc_smt_solver *bmc_smt_new_of(bmc_smt_backend b)
{
    bmc_smt_solver *s = base_xcalloc(1, sizeof *s);
    if (b == BMC_SMT_CADICAL) {
        s->cad = bmc_smt_cad_new();
        s->tt = bmc_smt_cad_terms(s->cad);
    } else {
        s->z3 = bmc_smt_z3_new();
        s->tt = bmc_smt_z3_terms(s->z3);
    }
    return s;
}

bmc_smt_solver *bmc_smt_new(void)
{
    return bmc_smt_new_of(bmc_smt_current_backend());
}

void bmc_smt_set_clause_cap(bmc_smt_solver *s, uint64_t cap)
{
    if (s->cad)
        bmc_smt_cad_set_clause_cap(s->cad, cap);
}

bool bmc_smt_over_cap(const bmc_smt_solver *s)
{
    return s->cad && bmc_smt_cad_over_cap(s->cad);
}

uint64_t bmc_smt_num_clauses(const bmc_smt_solver *s)
{
    return s->cad ? bmc_smt_cad_num_clauses(s->cad) : 0;
}

void bmc_smt_free(bmc_smt_solver *s)
{
    if (!s)
        return;
    if (s->cad)
        bmc_smt_cad_free(s->cad);
    else
        bmc_smt_z3_free(s->z3);
    free(s);
}

#define FWD0(f) (s->cad ? bmc_smt_cad_##f(s->cad) : bmc_smt_z3_##f(s->z3))
#define FWD(f, ...) (s->cad ? bmc_smt_cad_##f(s->cad, __VA_ARGS__) : bmc_smt_z3_##f(s->z3, __VA_ARGS__))

bmc_smt_term bmc_smt_true(bmc_smt_solver *s) { return s->tt->t_true; }
bmc_smt_term bmc_smt_false(bmc_smt_solver *s) { return s->tt->t_false; }
bmc_smt_term bmc_smt_bool_var(bmc_smt_solver *s, const char *name) { return FWD(bool_var, name); }
bmc_smt_term bmc_smt_not(bmc_smt_solver *s, bmc_smt_term a) { return FWD(not, a); }
bmc_smt_term bmc_smt_and(bmc_smt_solver *s, bmc_smt_term a, bmc_smt_term b) { return FWD(and, a, b); }
bmc_smt_term bmc_smt_or(bmc_smt_solver *s, bmc_smt_term a, bmc_smt_term b) { return FWD(or, a, b); }
bmc_smt_term bmc_smt_implies(bmc_smt_solver *s, bmc_smt_term a, bmc_smt_term b) { return FWD(implies, a, b); }
bmc_smt_term bmc_smt_ite(bmc_smt_solver *s, bmc_smt_term c, bmc_smt_term a, bmc_smt_term b) { return FWD(ite, c, a, b); }
bmc_smt_term bmc_smt_eq(bmc_smt_solver *s, bmc_smt_term a, bmc_smt_term b) { return FWD(eq, a, b); }
bool bmc_smt_is_true(bmc_smt_solver *s, bmc_smt_term a) { return a == s->tt->t_true; }
bool bmc_smt_is_false(bmc_smt_solver *s, bmc_smt_term a) { return a == s->tt->t_false; }
bmc_smt_term bmc_smt_bv_const(bmc_smt_solver *s, uint32_t width, uint64_t v) { return FWD(bv_const, width, v); }
bmc_smt_term bmc_smt_bv_var(bmc_smt_solver *s, uint32_t width, const char *name) { return FWD(bv_var, width, name); }
bmc_smt_term bmc_smt_bv_op(bmc_smt_solver *s, bmc_smt_bvop op, bmc_smt_term a, bmc_smt_term b) { return FWD(bv_op, op, a, b); }
bmc_smt_term bmc_smt_bv_not(bmc_smt_solver *s, bmc_smt_term a) { return FWD(bv_not, a); }
bmc_smt_term bmc_smt_bv_neg(bmc_smt_solver *s, bmc_smt_term a) { return FWD(bv_neg, a); }
bmc_smt_term bmc_smt_bv_cmp(bmc_smt_solver *s, bmc_smt_cmp op, bmc_smt_term a, bmc_smt_term b) { return FWD(bv_cmp, op, a, b); }
bmc_smt_term bmc_smt_extract(bmc_smt_solver *s, uint32_t hi, uint32_t lo, bmc_smt_term a) { return FWD(extract, hi, lo, a); }
bmc_smt_term bmc_smt_concat(bmc_smt_solver *s, bmc_smt_term hi, bmc_smt_term lo) { return FWD(concat, hi, lo); }
bmc_smt_term bmc_smt_zext(bmc_smt_solver *s, uint32_t extra, bmc_smt_term a) { return FWD(zext, extra, a); }
bmc_smt_term bmc_smt_sext(bmc_smt_solver *s, uint32_t extra, bmc_smt_term a) { return FWD(sext, extra, a); }
uint32_t bmc_smt_width(bmc_smt_solver *s, bmc_smt_term a) { return bmc_smt_terms_width(s->tt, a); }
bool bmc_smt_bv_value(bmc_smt_solver *s, bmc_smt_term a, uint64_t *v) { return bmc_smt_terms_bv_value(s->tt, a, v); }
size_t bmc_smt_bv_leaves(bmc_smt_solver *s, bmc_smt_term a, uint64_t *out, size_t max) { return bmc_smt_terms_bv_leaves(s->tt, a, out, max); }
bmc_smt_term bmc_smt_array_var(bmc_smt_solver *s, uint32_t idx_width, uint32_t elem_width, const char *name) { return FWD(array_var, idx_width, elem_width, name); }
bmc_smt_term bmc_smt_array_const(bmc_smt_solver *s, uint32_t idx_width, bmc_smt_term elem) { return FWD(array_const, idx_width, elem); }
bmc_smt_term bmc_smt_select(bmc_smt_solver *s, bmc_smt_term arr, bmc_smt_term idx) { return FWD(select, arr, idx); }
bmc_smt_term bmc_smt_store(bmc_smt_solver *s, bmc_smt_term arr, bmc_smt_term idx, bmc_smt_term val) { return FWD(store, arr, idx, val); }
void bmc_smt_assert(bmc_smt_solver *s, bmc_smt_term a) { FWD(assert, a); }
bmc_smt_result bmc_smt_check(bmc_smt_solver *s, const bmc_smt_term *assumptions, size_t n, unsigned timeout_ms) { return FWD(check, assumptions, n, timeout_ms); }
const char *bmc_smt_reason(bmc_smt_solver *s) { return FWD0(reason); }
void bmc_smt_push(bmc_smt_solver *s) { FWD0(push); }
void bmc_smt_pop(bmc_smt_solver *s) { FWD0(pop); }
bool bmc_smt_model_bool(bmc_smt_solver *s, bmc_smt_term a) { return FWD(model_bool, a); }
uint64_t bmc_smt_model_bv(bmc_smt_solver *s, bmc_smt_term a) { return FWD(model_bv, a); }
size_t bmc_smt_num_terms(const bmc_smt_solver *s) { return bmc_smt_terms_count(s->tt); }
size_t bmc_smt_num_asserts(const bmc_smt_solver *s) { return s->tt->nasserts; }
size_t bmc_smt_num_array_selects(const bmc_smt_solver *s) { return s->tt->nselects; }
