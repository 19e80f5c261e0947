/* bmc_smt_z3: smt.h on Z3's C API (Debian libz3-dev 4.8.12) — the only file
 * that includes z3.h.
 *
 * Invariants: every term handle is a node of the shared term table
 * (smt_term.h) keyed by its Z3_ast (hash-consed by Z3), so equal terms have
 * equal handles; each ast has one reference taken (dropped in
 * bmc_smt_free). Terms fold before they reach Z3: Booleans over true and
 * false, bit-vector operations on constants and with units
 * (smt_term.h's word-level folding), and operations distributed over ite
 * trees over constants. Folding never changes a term's meaning: it only
 * returns an equal, simpler term. */
#include "bmc/smt_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "base/clock.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "bmc/smt_term.h"

/* Expansions one select may do while resolving through stores at
 * symbolic indices and through ite-merged memories. */
#define SELECT_BUDGET 2048

typedef bmc_smt_node term;
enum { K_BOOL = BMC_SMT_K_BOOL, K_BV = BMC_SMT_K_BV, K_ARRAY = BMC_SMT_K_ARRAY };
enum { OP_NONE = BMC_SMT_OP_NONE, OP_STORE = BMC_SMT_OP_STORE, OP_CONSTARR = BMC_SMT_OP_CONSTARR,
       OP_ITE = BMC_SMT_OP_ITE };
#define KEY_INTS (sizeof(Z3_ast) / sizeof(int)) /* a key: the ast's bits */

struct bmc_smt_z3 {
    Z3_context ctx;
    Z3_solver solver;      /* the solver of the last check (its model) */
    BASE_VEC(bmc_smt_term) asserted; /* permanent constraints, in order */
    BASE_VEC(size_t) scopes;     /* asserted.len at each push */
    Z3_model model;
    bmc_smt_terms tt;
    char reason[256];
};

static void on_error(Z3_context c, Z3_error_code e)
{
    fprintf(stderr, "ravel: internal error in Z3: %s\n", Z3_get_error_msg(c, e));
    abort();
}

static term *T(bmc_smt_z3 *s, bmc_smt_term t)
{
    return bmc_smt_terms_node(&s->tt, t);
}

static Z3_ast AST(bmc_smt_z3 *s, bmc_smt_term t)
{
    Z3_ast a;
    memcpy(&a, bmc_smt_terms_key(&s->tt, t), sizeof a);
    return a;
}

/* Registers ast (a new reference is taken) and returns its handle. */
static bmc_smt_term reg(bmc_smt_z3 *s, Z3_ast ast, uint8_t kind, uint32_t width)
{
    int key[KEY_INTS];
    memcpy(key, &ast, sizeof ast);
    bool fresh;
    bmc_smt_term id = bmc_smt_terms_intern(&s->tt, key, KEY_INTS, NULL, 0, &fresh);
    if (fresh) {
        Z3_inc_ref(s->ctx, ast);
        T(s, id)->kind = kind;
        T(s, id)->width = width;
    }
    return id;
}

static bmc_smt_term reg_bv_const(bmc_smt_z3 *s, Z3_ast ast, uint32_t w, uint64_t v)
{
    bmc_smt_term id = reg(s, ast, K_BV, w);
    T(s, id)->is_const = true;
    T(s, id)->val = v;
    T(s, id)->leaves = 1;
    return id;
}

static Z3_sort bv_sort(bmc_smt_z3 *s, uint32_t w)
{
    return Z3_mk_bv_sort(s->ctx, w);
}

bmc_smt_z3 *bmc_smt_z3_new(void)
{
    bmc_smt_z3 *s = base_xcalloc(1, sizeof *s);
    Z3_config cfg = Z3_mk_config();
    Z3_set_param_value(cfg, "model", "true");
    s->ctx = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(s->ctx, on_error);
    bmc_smt_terms_init(&s->tt);
    s->tt.t_true = reg(s, Z3_mk_true(s->ctx), K_BOOL, 0);
    T(s, s->tt.t_true)->is_const = true;
    T(s, s->tt.t_true)->val = 1;
    s->tt.t_false = reg(s, Z3_mk_false(s->ctx), K_BOOL, 0);
    T(s, s->tt.t_false)->is_const = true;
    return s;
}

void bmc_smt_z3_free(bmc_smt_z3 *s)
{
    if (!s)
        return;
    if (s->model)
        Z3_model_dec_ref(s->ctx, s->model);
    for (bmc_smt_term i = 1; i < s->tt.nodes.len; i++)
        Z3_dec_ref(s->ctx, AST(s, i));
    bmc_smt_terms_free(&s->tt);
    if (s->solver)
        Z3_solver_dec_ref(s->ctx, s->solver);
    base_vec_free(&s->asserted);
    base_vec_free(&s->scopes);
    Z3_del_context(s->ctx);
    free(s);
}

/* --- Booleans --- */

bmc_smt_terms *bmc_smt_z3_terms(bmc_smt_z3 *s) { return &s->tt; }

bmc_smt_term bmc_smt_z3_bool_var(bmc_smt_z3 *s, const char *name)
{
    return reg(s, Z3_mk_fresh_const(s->ctx, name, Z3_mk_bool_sort(s->ctx)), K_BOOL, 0);
}

bmc_smt_term bmc_smt_z3_not(bmc_smt_z3 *s, bmc_smt_term a)
{
    if (a == s->tt.t_true)
        return s->tt.t_false;
    if (a == s->tt.t_false)
        return s->tt.t_true;
    return reg(s, Z3_mk_not(s->ctx, AST(s, a)), K_BOOL, 0);
}

bmc_smt_term bmc_smt_z3_and(bmc_smt_z3 *s, bmc_smt_term a, bmc_smt_term b)
{
    if (a == s->tt.t_false || b == s->tt.t_false)
        return s->tt.t_false;
    if (a == s->tt.t_true || a == b)
        return b;
    if (b == s->tt.t_true)
        return a;
    Z3_ast args[2] = { AST(s, a), AST(s, b) };
    return reg(s, Z3_mk_and(s->ctx, 2, args), K_BOOL, 0);
}

bmc_smt_term bmc_smt_z3_or(bmc_smt_z3 *s, bmc_smt_term a, bmc_smt_term b)
{
    if (a == s->tt.t_true || b == s->tt.t_true)
        return s->tt.t_true;
    if (a == s->tt.t_false || a == b)
        return b;
    if (b == s->tt.t_false)
        return a;
    Z3_ast args[2] = { AST(s, a), AST(s, b) };
    return reg(s, Z3_mk_or(s->ctx, 2, args), K_BOOL, 0);
}

bmc_smt_term bmc_smt_z3_implies(bmc_smt_z3 *s, bmc_smt_term a, bmc_smt_term b)
{
    return bmc_smt_z3_or(s, bmc_smt_z3_not(s, a), b);
}

bmc_smt_term bmc_smt_z3_ite(bmc_smt_z3 *s, bmc_smt_term c, bmc_smt_term a, bmc_smt_term b)
{
    if (c == s->tt.t_true || a == b)
        return a;
    if (c == s->tt.t_false)
        return b;
    term *ta = T(s, a);
    if (ta->kind == K_BOOL) {
        if (a == s->tt.t_true)
            return bmc_smt_z3_or(s, c, b);
        if (a == s->tt.t_false)
            return bmc_smt_z3_and(s, bmc_smt_z3_not(s, c), b);
        if (b == s->tt.t_true)
            return bmc_smt_z3_or(s, bmc_smt_z3_not(s, c), a);
        if (b == s->tt.t_false)
            return bmc_smt_z3_and(s, c, a);
    }
    uint8_t kind = ta->kind;
    uint32_t w = ta->width, iw = ta->idx_width;
    uint32_t leaves = bmc_smt_terms_ite_leaves(&s->tt, a, b);
    bmc_smt_term r = reg(s, Z3_mk_ite(s->ctx, AST(s, c), AST(s, a), AST(s, b)), kind, w);
    term *t = T(s, r);
    if (t->op == OP_NONE) {
        t->idx_width = iw;
        t->op = OP_ITE;
        t->a = c;
        t->b = a;
        t->c = b;
        t->leaves = leaves;
    }
    return r;
}

bmc_smt_term bmc_smt_z3_eq(bmc_smt_z3 *s, bmc_smt_term a, bmc_smt_term b)
{
    bmc_smt_term c, a1, a2, b1, b2;
    if (bmc_smt_terms_split2(&s->tt, a, b, &c, &a1, &a2, &b1, &b2))
        return bmc_smt_z3_ite(s, c, bmc_smt_z3_eq(s, a1, b1), bmc_smt_z3_eq(s, a2, b2));
    if (a == b)
        return s->tt.t_true;
    term *ta = T(s, a), *tb = T(s, b);
    if (ta->is_const && tb->is_const && ta->kind == K_BV && ta->width <= 64)
        return ta->val == tb->val ? s->tt.t_true : s->tt.t_false;
    if (ta->kind == K_BOOL) {
        if (a == s->tt.t_true)
            return b;
        if (b == s->tt.t_true)
            return a;
        if (a == s->tt.t_false)
            return bmc_smt_z3_not(s, b);
        if (b == s->tt.t_false)
            return bmc_smt_z3_not(s, a);
    }
    return reg(s, Z3_mk_eq(s->ctx, AST(s, a), AST(s, b)), K_BOOL, 0);
}

/* --- bit-vectors --- */

bmc_smt_term bmc_smt_z3_bv_const(bmc_smt_z3 *s, uint32_t width, uint64_t v)
{
    v &= bmc_smt_mask(width);
    return reg_bv_const(s, Z3_mk_unsigned_int64(s->ctx, v, bv_sort(s, width)), width, v);
}

bmc_smt_term bmc_smt_z3_bv_var(bmc_smt_z3 *s, uint32_t width, const char *name)
{
    return reg(s, Z3_mk_fresh_const(s->ctx, name, bv_sort(s, width)), K_BV, width);
}

bmc_smt_term bmc_smt_z3_bv_op(bmc_smt_z3 *s, bmc_smt_bvop op, bmc_smt_term a, bmc_smt_term b)
{
    {
        bmc_smt_term c, a1, a2, b1, b2;
        if (bmc_smt_terms_split2(&s->tt, a, b, &c, &a1, &a2, &b1, &b2))
            return bmc_smt_z3_ite(s, c, bmc_smt_z3_bv_op(s, op, a1, b1), bmc_smt_z3_bv_op(s, op, a2, b2));
    }
    term *ta = T(s, a), *tb = T(s, b);
    uint32_t w = ta->width;
    if (ta->is_const && tb->is_const && w <= 64) {
        uint64_t r;
        if (bmc_smt_fold_bvop(op, w, ta->val, tb->val, &r))
            return bmc_smt_z3_bv_const(s, w, r);
    }
    bmc_smt_term unit = bmc_smt_terms_fold_unit(&s->tt, op, a, b);
    if (unit)
        return unit;
    Z3_context c = s->ctx;
    Z3_ast x = AST(s, a), y = AST(s, b), r;
    switch (op) {
    case BMC_SMT_BV_ADD: r = Z3_mk_bvadd(c, x, y); break;
    case BMC_SMT_BV_SUB: r = Z3_mk_bvsub(c, x, y); break;
    case BMC_SMT_BV_MUL: r = Z3_mk_bvmul(c, x, y); break;
    case BMC_SMT_BV_UDIV: r = Z3_mk_bvudiv(c, x, y); break;
    case BMC_SMT_BV_SDIV: r = Z3_mk_bvsdiv(c, x, y); break;
    case BMC_SMT_BV_UREM: r = Z3_mk_bvurem(c, x, y); break;
    case BMC_SMT_BV_SREM: r = Z3_mk_bvsrem(c, x, y); break;
    case BMC_SMT_BV_SHL: r = Z3_mk_bvshl(c, x, y); break;
    case BMC_SMT_BV_LSHR: r = Z3_mk_bvlshr(c, x, y); break;
    case BMC_SMT_BV_ASHR: r = Z3_mk_bvashr(c, x, y); break;
    case BMC_SMT_BV_AND: r = Z3_mk_bvand(c, x, y); break;
    case BMC_SMT_BV_OR: r = Z3_mk_bvor(c, x, y); break;
    default: r = Z3_mk_bvxor(c, x, y); break;
    }
    return reg(s, r, K_BV, w);
}

bmc_smt_term bmc_smt_z3_bv_not(bmc_smt_z3 *s, bmc_smt_term a)
{
    {
        bmc_smt_term c, a1, a2;
        if (bmc_smt_terms_split1(&s->tt, a, &c, &a1, &a2))
            return bmc_smt_z3_ite(s, c, bmc_smt_z3_bv_not(s, a1), bmc_smt_z3_bv_not(s, a2));
    }
    term *t = T(s, a);
    if (t->is_const && t->width <= 64)
        return bmc_smt_z3_bv_const(s, t->width, ~t->val);
    return reg(s, Z3_mk_bvnot(s->ctx, AST(s, a)), K_BV, t->width);
}

bmc_smt_term bmc_smt_z3_bv_neg(bmc_smt_z3 *s, bmc_smt_term a)
{
    {
        bmc_smt_term c, a1, a2;
        if (bmc_smt_terms_split1(&s->tt, a, &c, &a1, &a2))
            return bmc_smt_z3_ite(s, c, bmc_smt_z3_bv_neg(s, a1), bmc_smt_z3_bv_neg(s, a2));
    }
    term *t = T(s, a);
    if (t->is_const && t->width <= 64)
        return bmc_smt_z3_bv_const(s, t->width, (uint64_t)0 - t->val);
    return reg(s, Z3_mk_bvneg(s->ctx, AST(s, a)), K_BV, t->width);
}

bmc_smt_term bmc_smt_z3_bv_cmp(bmc_smt_z3 *s, bmc_smt_cmp op, bmc_smt_term a, bmc_smt_term b)
{
    {
        bmc_smt_term c, a1, a2, b1, b2;
        if (bmc_smt_terms_split2(&s->tt, a, b, &c, &a1, &a2, &b1, &b2))
            return bmc_smt_z3_ite(s, c, bmc_smt_z3_bv_cmp(s, op, a1, b1), bmc_smt_z3_bv_cmp(s, op, a2, b2));
    }
    term *ta = T(s, a), *tb = T(s, b);
    uint32_t w = ta->width;
    if (ta->is_const && tb->is_const && w <= 64)
        return bmc_smt_fold_cmp(op, w, ta->val, tb->val) ? s->tt.t_true : s->tt.t_false;
    if (a == b)
        return op == BMC_SMT_ULE || op == BMC_SMT_SLE ? s->tt.t_true : s->tt.t_false;
    Z3_ast r;
    switch (op) {
    case BMC_SMT_ULT: r = Z3_mk_bvult(s->ctx, AST(s, a), AST(s, b)); break;
    case BMC_SMT_ULE: r = Z3_mk_bvule(s->ctx, AST(s, a), AST(s, b)); break;
    case BMC_SMT_SLT: r = Z3_mk_bvslt(s->ctx, AST(s, a), AST(s, b)); break;
    default: r = Z3_mk_bvsle(s->ctx, AST(s, a), AST(s, b)); break;
    }
    return reg(s, r, K_BOOL, 0);
}

bmc_smt_term bmc_smt_z3_extract(bmc_smt_z3 *s, uint32_t hi, uint32_t lo, bmc_smt_term a)
{
    {
        bmc_smt_term c, a1, a2;
        if (bmc_smt_terms_split1(&s->tt, a, &c, &a1, &a2))
            return bmc_smt_z3_ite(s, c, bmc_smt_z3_extract(s, hi, lo, a1), bmc_smt_z3_extract(s, hi, lo, a2));
    }
    term *t = T(s, a);
    if (lo == 0 && hi + 1 == t->width)
        return a;
    if (t->is_const && t->width <= 64)
        return bmc_smt_z3_bv_const(s, hi - lo + 1, t->val >> lo);
    return reg(s, Z3_mk_extract(s->ctx, hi, lo, AST(s, a)), K_BV, hi - lo + 1);
}

bmc_smt_term bmc_smt_z3_concat(bmc_smt_z3 *s, bmc_smt_term hi, bmc_smt_term lo)
{
    {
        bmc_smt_term c, a1, a2, b1, b2;
        if (bmc_smt_terms_split2(&s->tt, hi, lo, &c, &a1, &a2, &b1, &b2))
            return bmc_smt_z3_ite(s, c, bmc_smt_z3_concat(s, a1, b1), bmc_smt_z3_concat(s, a2, b2));
    }
    term *th = T(s, hi), *tl = T(s, lo);
    uint32_t w = th->width + tl->width;
    if (th->is_const && tl->is_const && w <= 64)
        return bmc_smt_z3_bv_const(s, w, th->val << tl->width | tl->val);
    return reg(s, Z3_mk_concat(s->ctx, AST(s, hi), AST(s, lo)), K_BV, w);
}

bmc_smt_term bmc_smt_z3_zext(bmc_smt_z3 *s, uint32_t extra, bmc_smt_term a)
{
    {
        bmc_smt_term c, a1, a2;
        if (bmc_smt_terms_split1(&s->tt, a, &c, &a1, &a2))
            return bmc_smt_z3_ite(s, c, bmc_smt_z3_zext(s, extra, a1), bmc_smt_z3_zext(s, extra, a2));
    }
    term *t = T(s, a);
    if (extra == 0)
        return a;
    if (t->is_const && t->width <= 64)
        return bmc_smt_z3_bv_const(s, t->width + extra, t->val);
    return reg(s, Z3_mk_zero_ext(s->ctx, extra, AST(s, a)), K_BV, t->width + extra);
}

bmc_smt_term bmc_smt_z3_sext(bmc_smt_z3 *s, uint32_t extra, bmc_smt_term a)
{
    {
        bmc_smt_term c, a1, a2;
        if (bmc_smt_terms_split1(&s->tt, a, &c, &a1, &a2))
            return bmc_smt_z3_ite(s, c, bmc_smt_z3_sext(s, extra, a1), bmc_smt_z3_sext(s, extra, a2));
    }
    term *t = T(s, a);
    if (extra == 0)
        return a;
    if (t->is_const && t->width + extra <= 64)
        return bmc_smt_z3_bv_const(s, t->width + extra, (uint64_t)bmc_smt_signed(t->val, t->width));
    return reg(s, Z3_mk_sign_ext(s->ctx, extra, AST(s, a)), K_BV, t->width + extra);
}

/* --- arrays --- */

bmc_smt_term bmc_smt_z3_array_var(bmc_smt_z3 *s, uint32_t idx_width, uint32_t elem_width, const char *name)
{
    Z3_sort srt = Z3_mk_array_sort(s->ctx, bv_sort(s, idx_width), bv_sort(s, elem_width));
    bmc_smt_term r = reg(s, Z3_mk_fresh_const(s->ctx, name, srt), K_ARRAY, elem_width);
    T(s, r)->idx_width = idx_width;
    return r;
}

bmc_smt_term bmc_smt_z3_array_const(bmc_smt_z3 *s, uint32_t idx_width, bmc_smt_term elem)
{
    uint32_t ew = T(s, elem)->width;
    bmc_smt_term r = reg(s, Z3_mk_const_array(s->ctx, bv_sort(s, idx_width), AST(s, elem)),
                     K_ARRAY, ew);
    term *t = T(s, r);
    t->idx_width = idx_width;
    t->op = OP_CONSTARR;
    t->a = elem;
    return r;
}

static bmc_smt_term plain_select(bmc_smt_z3 *s, bmc_smt_term arr, bmc_smt_term idx)
{
    term *ta = T(s, arr);
    s->tt.nselects++;
    return reg(s, Z3_mk_select(s->ctx, AST(s, arr), AST(s, idx)), K_BV, ta->width);
}

/* Read-over-write: resolves a select through stores (by comparing
 * indices, which folds when both are constants), through ite-merged
 * arrays and over ite trees of indices; what the budget does not cover
 * stays an array select, which is equally correct. */
static bmc_smt_term select_rw(bmc_smt_z3 *s, bmc_smt_term arr, bmc_smt_term idx, int *budget)
{
    bmc_smt_term r = 0, cur = arr;
    if (bmc_smt_terms_memo_get(&s->tt, arr, idx, &r))
        return r;
    term *ti = T(s, idx);
    if (ti->leaves > 1 && *budget > 0) {
        --*budget;
        bmc_smt_term c = ti->a, i1 = ti->b, i2 = ti->c;
        bmc_smt_term r1 = select_rw(s, arr, i1, budget);
        r = bmc_smt_z3_ite(s, c, r1, select_rw(s, arr, i2, budget));
    } else {
        for (;;) {
            term *t = T(s, cur);
            if (t->op == OP_CONSTARR) {
                r = t->a;
                break;
            }
            if (t->op == OP_STORE) {
                bmc_smt_term e = bmc_smt_z3_eq(s, t->b, idx);
                t = T(s, cur); /* bmc_smt_eq may have grown the table */
                if (e == s->tt.t_true) {
                    r = t->c;
                    break;
                }
                if (e == s->tt.t_false) {
                    cur = t->a;
                    continue;
                }
                if (*budget > 0) {
                    --*budget;
                    bmc_smt_term v = t->c, rest = t->a;
                    r = bmc_smt_z3_ite(s, e, v, select_rw(s, rest, idx, budget));
                    break;
                }
            } else if (t->op == OP_ITE && *budget > 0) {
                --*budget;
                bmc_smt_term c = t->a, m1 = t->b, m2 = t->c;
                bmc_smt_term r1 = select_rw(s, m1, idx, budget);
                r = bmc_smt_z3_ite(s, c, r1, select_rw(s, m2, idx, budget));
                break;
            }
            r = plain_select(s, cur, idx);
            break;
        }
    }
    bmc_smt_terms_memo_put(&s->tt, arr, idx, r);
    return r;
}

bmc_smt_term bmc_smt_z3_select(bmc_smt_z3 *s, bmc_smt_term arr, bmc_smt_term idx)
{
    int budget = SELECT_BUDGET;
    return select_rw(s, arr, idx, &budget);
}

bmc_smt_term bmc_smt_z3_store(bmc_smt_z3 *s, bmc_smt_term arr, bmc_smt_term idx, bmc_smt_term val)
{
    term *ta = T(s, arr);
    uint32_t ew = ta->width, iw = ta->idx_width;
    bmc_smt_term r = reg(s, Z3_mk_store(s->ctx, AST(s, arr), AST(s, idx), AST(s, val)), K_ARRAY, ew);
    term *t = T(s, r);
    if (t->op == OP_NONE) {
        t->idx_width = iw;
        t->op = OP_STORE;
        t->a = arr;
        t->b = idx;
        t->c = val;
    }
    return r;
}

/* --- solving --- */

/* The first slice, in Z3 resource units (about half a second of solving on
 * this project's machines; 0 would mean no limit). */
#define RLIMIT_SLICE 2000000.0

/* Each check runs fresh Z3 solvers on the constraints plus the
 * assumptions (as assertions), alternating Z3's two engines with doubling
 * slices of resource units until one answers or the timeout is
 * spent: its incremental core (the simple solver: fast on control-heavy
 * formulas such as a KISS schedule, 3 s against 9 s) and its
 * non-incremental path, which preprocesses and bit-blasts (fast on
 * arithmetic: bubble sort of 5 ints 0.8 s against 18 s). A slice lost
 * costs at most what the winning engine spends, so neither kind of
 * formula pays more than about three times its better engine. */
void bmc_smt_z3_assert(bmc_smt_z3 *s, bmc_smt_term a)
{
    s->tt.nasserts++;
    base_vec_push(&s->asserted, a);
}

static Z3_lbool run_engine(bmc_smt_z3 *s, bool core, unsigned ms, unsigned rlimit,
                           const bmc_smt_term *assumptions, size_t n, double *setup)
{
    double t = base_now();
    if (s->solver)
        Z3_solver_dec_ref(s->ctx, s->solver);
    s->solver = core ? Z3_mk_simple_solver(s->ctx) : Z3_mk_solver(s->ctx);
    Z3_solver_inc_ref(s->ctx, s->solver);
    Z3_params p = Z3_mk_params(s->ctx);
    Z3_params_inc_ref(s->ctx, p);
    Z3_params_set_uint(s->ctx, p, Z3_mk_string_symbol(s->ctx, "timeout"), ms);
    Z3_params_set_uint(s->ctx, p, Z3_mk_string_symbol(s->ctx, "rlimit"), rlimit);
    Z3_solver_set_params(s->ctx, s->solver, p);
    Z3_params_dec_ref(s->ctx, p);
    for (size_t i = 0; i < s->asserted.len; i++)
        Z3_solver_assert(s->ctx, s->solver, AST(s, s->asserted.data[i]));
    for (size_t i = 0; i < n; i++)
        Z3_solver_assert(s->ctx, s->solver, AST(s, assumptions[i]));
    *setup = base_now() - t;
    return Z3_solver_check(s->ctx, s->solver);
}

bmc_smt_result bmc_smt_z3_check(bmc_smt_z3 *s, const bmc_smt_term *assumptions, size_t n,
                             unsigned timeout_ms)
{
    if (s->model) {
        Z3_model_dec_ref(s->ctx, s->model);
        s->model = NULL;
    }
    double start = base_now();
    /* Slices are measured in Z3's resource units, not seconds, so which
     * engine answers (and so the model, and the trace the user sees) does
     * not depend on the machine's load; the time budget only caps them. */
    double slice = RLIMIT_SLICE;
    /* Building a fresh solver (asserting every constraint) runs before
     * Z3's timeout clock starts, and takes seconds on a large formula
     * (more with a sanitizer's allocator): a slice is not started when
     * what is left would not pay for that again. */
    double setup = 0;
    for (bool core = true;; core = !core, slice *= 2) {
        double ms = UINT32_MAX - 1;
        if (timeout_ms) {
            double left = timeout_ms - (base_now() - start) * 1000 - setup * 1000;
            if (left < 1) {
                snprintf(s->reason, sizeof s->reason, "timeout");
                return BMC_SMT_UNKNOWN;
            }
            ms = left;
        }
        Z3_lbool r = run_engine(s, core, (unsigned)ms,
                                slice > UINT32_MAX - 1 ? 0 : (unsigned)slice, assumptions, n, &setup);
        if (r == Z3_L_TRUE) {
            s->model = Z3_solver_get_model(s->ctx, s->solver);
            Z3_model_inc_ref(s->ctx, s->model);
            return BMC_SMT_SAT;
        }
        if (r == Z3_L_FALSE)
            return BMC_SMT_UNSAT;
        snprintf(s->reason, sizeof s->reason, "%s",
                 Z3_solver_get_reason_unknown(s->ctx, s->solver));
        if (strstr(s->reason, "timeout") && timeout_ms &&
            timeout_ms - (base_now() - start) * 1000 - setup * 1000 < 1)
            return BMC_SMT_UNKNOWN; /* the budget is spent */
        /* Z3 names an exhausted resource limit variously ("max. resource
         * limit exceeded", "canceled", or just "unknown"); a slice without
         * a limit that gives up is a real failure */
        if (slice > UINT32_MAX - 1)
            return BMC_SMT_UNKNOWN;
    }
}

const char *bmc_smt_z3_reason(bmc_smt_z3 *s)
{
    return s->reason;
}

void bmc_smt_z3_push(bmc_smt_z3 *s)
{
    base_vec_push(&s->scopes, s->asserted.len);
}

void bmc_smt_z3_pop(bmc_smt_z3 *s)
{
    if (s->scopes.len)
        s->asserted.len = base_vec_pop(&s->scopes);
}

static Z3_ast model_eval(bmc_smt_z3 *s, bmc_smt_term a)
{
    Z3_ast out = NULL;
    if (!s->model || !Z3_model_eval(s->ctx, s->model, AST(s, a), true, &out))
        return NULL;
    return out;
}

bool bmc_smt_z3_model_bool(bmc_smt_z3 *s, bmc_smt_term a)
{
    if (T(s, a)->is_const)
        return T(s, a)->val != 0;
    Z3_ast v = model_eval(s, a);
    if (!v)
        return false;
    Z3_inc_ref(s->ctx, v);
    bool r = Z3_get_bool_value(s->ctx, v) == Z3_L_TRUE;
    Z3_dec_ref(s->ctx, v);
    return r;
}

uint64_t bmc_smt_z3_model_bv(bmc_smt_z3 *s, bmc_smt_term a)
{
    if (T(s, a)->is_const)
        return T(s, a)->val;
    Z3_ast v = model_eval(s, a);
    uint64_t u = 0;
    if (v)
        Z3_inc_ref(s->ctx, v);
    if (!v || !Z3_get_numeral_uint64(s->ctx, v, &u))
        u = 0;
    if (v)
        Z3_dec_ref(s->ctx, v);
    return u;
}
