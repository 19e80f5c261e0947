/* bmc_smt_cad: smt.h by bit-blasting to CaDiCaL through sat/solver.
 *
 * Every Boolean is a literal and every bit-vector a vector of literals
 * (least significant bit first), built eagerly as gates when the term is
 * made: AND, XOR and ITE gates, each defined by its Tseitin clauses (both
 * directions, so a definition never constrains its inputs and stays valid
 * across push/pop), hashed so a gate over the same inputs is made once, and
 * folded over the constant literal LT (variable 1, fixed true) and over
 * equal or complementary inputs. A term whose bits all fold is a constant.
 *
 * Terms are nodes of the shared term table (smt_term.h), hash-consed on
 * their meaning as this file sees it: a Bool or a plain bit-vector by its
 * literals, an ite tree over constants (kept for bmc_smt_bv_leaves, as
 * smt_z3.c keeps them) and an array by operator and operands; so constants
 * fold here through the gates, bit by bit, where smt_z3.c folds words. Arrays are not bit-blasted: a select resolves through stores
 * (an ite over index equalities), ite-merged arrays and constant arrays down
 * to an array variable, where it becomes fresh bits related to every other
 * select of that variable by an Ackermann constraint, added eagerly:
 * idx_i = idx_j -> val_i = val_j.
 *
 * push makes an activation literal; an assertion inside a scope is the
 * clause (-act | lit), and pop fixes -act. A check assumes the open scopes'
 * literals and the assumptions. After SAT the model is copied out (adding a
 * clause ends CaDiCaL's model); literals made after the check are evaluated
 * through their gates, inputs reading 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "bmc/smt_backend.h"
#include "bmc/smt_term.h"
#include "sat/solver.h"

typedef bmc_smt_node term;
enum { K_BOOL = BMC_SMT_K_BOOL, K_BV = BMC_SMT_K_BV, K_ARRAY = BMC_SMT_K_ARRAY };
enum { OP_NONE = BMC_SMT_OP_NONE, OP_STORE = BMC_SMT_OP_STORE, OP_CONSTARR = BMC_SMT_OP_CONSTARR,
       OP_ITE = BMC_SMT_OP_ITE, OP_VAR = BMC_SMT_OP_VAR };
enum { G_IN, G_AND, G_XOR, G_ITE };

#define LT 1  /* the literal true */
#define HDR 6 /* a term's key: these header ints, then its literals (BV: width, Bool: one) */

typedef struct sel {
    bmc_smt_term idx, val;
} sel;

typedef BASE_VEC(sel) sel_vec;

struct bmc_smt_cad {
    sat_solver *sat;
    bmc_smt_terms tt;
    base_hashmap and_map, xor_map, pair_map, ite_map; /* gate hashing */
    uint32_t npairs;
    /* per variable: its gate and inputs (for model evaluation) */
    BASE_VEC(uint8_t) gk;
    BASE_VEC(int) g0, g1, g2;
    BASE_VEC(sel_vec) sels;
    BASE_VEC(int) scopes;  /* activation literals of the open pushes */
    BASE_VEC(uint8_t) model; /* per variable: 0, 1, or 2 not yet known */
    int model_vars;          /* variables the SAT model covers */
    int max_used;            /* largest variable given to CaDiCaL */
    bool has_model;
    uint64_t nclauses, cap; /* clauses made; the cap (0: none) */
    bool over;              /* more than cap made: the rest were dropped */
    uint32_t nvars_made;     /* serial for array variables */
    char reason[64];
};

typedef bmc_smt_cad S;

static term *T(S *s, bmc_smt_term t)
{
    return bmc_smt_terms_node(&s->tt, t);
}

static const int *bits(S *s, bmc_smt_term t)
{
    return bmc_smt_terms_key(&s->tt, t) + HDR;
}

/* A copy of t's bits (width of them), to be freed. */
static int *copy_bits(S *s, bmc_smt_term t)
{
    uint32_t w = T(s, t)->width;
    int *r = base_xmalloc(base_mul_size(w ? w : 1, sizeof(int)));
    memcpy(r, bits(s, t), w * sizeof(int));
    return r;
}

static int *new_bits(uint32_t w)
{
    return base_xmalloc(base_mul_size(w ? w : 1, sizeof(int)));
}

/* --- gates --- */

static void use(S *s, int lit)
{
    int v = abs(lit);
    if (v > s->max_used)
        s->max_used = v;
}

static void clause(S *s, const int *c, size_t n)
{
    if (s->cap && s->nclauses >= s->cap)
        s->over = true;
    if (s->over)
        return; /* checks answer unknown from now on: no clause is needed */
    s->nclauses++;
    for (size_t i = 0; i < n; i++)
        use(s, c[i]);
    sat_add_clause(s->sat, c, n);
}

static void cl2(S *s, int a, int b)
{
    int c[2] = { a, b };
    clause(s, c, 2);
}

static void cl3(S *s, int a, int b, int c)
{
    int cl[3] = { a, b, c };
    clause(s, cl, 3);
}

static int new_var(S *s, uint8_t kind, int a, int b, int c)
{
    int v = sat_new_var(s->sat);
    base_vec_push(&s->gk, kind);
    base_vec_push(&s->g0, a);
    base_vec_push(&s->g1, b);
    base_vec_push(&s->g2, c);
    return v;
}

static uint64_t pair_key(int a, int b)
{
    return (uint64_t)(uint32_t)a << 32 | (uint32_t)b;
}

static int g_and(S *s, int a, int b)
{
    if (a == -LT || b == -LT || a == -b)
        return -LT;
    if (a == LT || a == b)
        return b;
    if (b == LT)
        return a;
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    uint64_t k = pair_key(a, b), v;
    if (base_hashmap_get(&s->and_map, k, &v))
        return (int)v;
    int g = new_var(s, G_AND, a, b, 0);
    cl2(s, -g, a);
    cl2(s, -g, b);
    cl3(s, g, -a, -b);
    base_hashmap_put(&s->and_map, k, (uint64_t)g);
    return g;
}

static int g_or(S *s, int a, int b)
{
    return -g_and(s, -a, -b);
}

static int g_xor(S *s, int a, int b)
{
    if (a == LT || a == -LT)
        return a == LT ? -b : b;
    if (b == LT || b == -LT)
        return b == LT ? -a : a;
    if (a == b)
        return -LT;
    if (a == -b)
        return LT;
    bool neg = (a < 0) != (b < 0);
    a = abs(a);
    b = abs(b);
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    uint64_t k = pair_key(a, b), v;
    int g;
    if (base_hashmap_get(&s->xor_map, k, &v)) {
        g = (int)v;
    } else {
        g = new_var(s, G_XOR, a, b, 0);
        cl3(s, -g, a, b);
        cl3(s, -g, -a, -b);
        cl3(s, g, -a, b);
        cl3(s, g, a, -b);
        base_hashmap_put(&s->xor_map, k, (uint64_t)g);
    }
    return neg ? -g : g;
}

static int g_ite(S *s, int c, int t, int e)
{
    if (c == LT || t == e)
        return t;
    if (c == -LT)
        return e;
    if (c < 0) {
        c = -c;
        int x = t;
        t = e;
        e = x;
    }
    if (t == -e)
        return -g_xor(s, c, t);
    if (t == LT || t == c)
        return g_or(s, c, e);
    if (t == -LT || t == -c)
        return g_and(s, -c, e);
    if (e == -LT || e == c)
        return g_and(s, c, t);
    if (e == LT || e == -c)
        return g_or(s, -c, t);
    bool neg = t < 0;
    if (neg) {
        t = -t;
        e = -e;
    }
    uint64_t k = pair_key(c, t), id, v;
    if (!base_hashmap_get(&s->pair_map, k, &id)) {
        id = ++s->npairs;
        base_hashmap_put(&s->pair_map, k, id);
    }
    uint64_t k2 = id << 32 | (uint32_t)e;
    int g;
    if (base_hashmap_get(&s->ite_map, k2, &v)) {
        g = (int)v;
    } else {
        g = new_var(s, G_ITE, c, t, e);
        cl3(s, -c, -t, g);
        cl3(s, -c, t, -g);
        cl3(s, c, -e, g);
        cl3(s, c, e, -g);
        cl3(s, -t, -e, g);
        cl3(s, t, e, -g);
        base_hashmap_put(&s->ite_map, k2, (uint64_t)g);
    }
    return neg ? -g : g;
}

/* --- circuits over bit vectors (least significant bit first) --- */

/* out = a + b + cin (w bits; out may alias a or b); returns the carry. */
static int add_bits(S *s, int *out, const int *a, const int *b, int cin, uint32_t w)
{
    int c = cin;
    for (uint32_t i = 0; i < w; i++) {
        int x = a[i], y = b[i];
        int t = g_xor(s, x, y);
        out[i] = g_xor(s, t, c);
        c = g_or(s, g_and(s, x, y), g_and(s, t, c));
    }
    return c;
}

/* out = a - b; returns the carry (1 when a >= b unsigned). */
static int sub_bits(S *s, int *out, const int *a, const int *b, uint32_t w)
{
    int *nb = new_bits(w);
    for (uint32_t i = 0; i < w; i++)
        nb[i] = -b[i];
    int c = add_bits(s, out, a, nb, LT, w);
    free(nb);
    return c;
}

static void neg_bits(S *s, int *out, const int *a, uint32_t w)
{
    int *na = new_bits(w), *z = new_bits(w);
    for (uint32_t i = 0; i < w; i++) {
        na[i] = -a[i];
        z[i] = -LT;
    }
    add_bits(s, out, na, z, LT, w);
    free(na);
    free(z);
}

static void mux_bits(S *s, int *out, int c, const int *t, const int *e, uint32_t w)
{
    for (uint32_t i = 0; i < w; i++)
        out[i] = g_ite(s, c, t[i], e[i]);
}

static void mul_bits(S *s, int *out, const int *a, const int *b, uint32_t w)
{
    int *pp = new_bits(w);
    for (uint32_t i = 0; i < w; i++)
        out[i] = -LT;
    for (uint32_t i = 0; i < w; i++) {
        if (b[i] == -LT)
            continue;
        for (uint32_t j = i; j < w; j++)
            pp[j - i] = g_and(s, a[j - i], b[i]);
        add_bits(s, out + i, out + i, pp, -LT, w - i);
    }
    free(pp);
}

/* Restoring division: q = a / b, r = a % b, with SMT-LIB's results for
 * b = 0 (q all ones, r = a), which the circuit gives by itself. */
static void udivrem_bits(S *s, int *q, int *r, const int *a, const int *b, uint32_t w)
{
    int *rem = new_bits(w + 1), *sh = new_bits(w + 1), *bx = new_bits(w + 1), *d = new_bits(w + 1);
    for (uint32_t i = 0; i < w; i++) {
        rem[i] = -LT;
        bx[i] = b[i];
    }
    bx[w] = -LT;
    for (uint32_t k = w; k-- > 0;) {
        sh[0] = a[k];
        for (uint32_t i = 0; i < w; i++)
            sh[i + 1] = rem[i];
        int ge = sub_bits(s, d, sh, bx, w + 1);
        q[k] = ge;
        mux_bits(s, rem, ge, d, sh, w);
    }
    memcpy(r, rem, w * sizeof(int));
    free(rem);
    free(sh);
    free(bx);
    free(d);
}

/* a < b unsigned. */
static int ult_bits(S *s, const int *a, const int *b, uint32_t w)
{
    int lt = -LT;
    for (uint32_t i = 0; i < w; i++)
        lt = g_ite(s, g_xor(s, a[i], b[i]), b[i], lt);
    return lt;
}

static int eq_bits(S *s, const int *a, const int *b, uint32_t w)
{
    int r = LT;
    for (uint32_t i = 0; i < w && r != -LT; i++)
        r = g_and(s, r, -g_xor(s, a[i], b[i]));
    return r;
}

/* op is SHL, LSHR or ASHR. */
static void shift_bits(S *s, int *out, bmc_smt_bvop op, const int *a, const int *b, uint32_t w)
{
    int *cur = new_bits(w), *nx = new_bits(w);
    memcpy(cur, a, w * sizeof(int));
    int fill = op == BMC_SMT_BV_ASHR ? a[w - 1] : -LT;
    int over = -LT;
    for (uint32_t k = 0; k < w; k++) {
        if (k >= 32 || ((uint64_t)1 << k) >= w) {
            over = g_or(s, over, b[k]);
            continue;
        }
        uint32_t d = (uint32_t)1 << k;
        for (uint32_t i = 0; i < w; i++) {
            int sh;
            if (op == BMC_SMT_BV_SHL)
                sh = i >= d ? cur[i - d] : -LT;
            else
                sh = i + d < w ? cur[i + d] : fill;
            nx[i] = g_ite(s, b[k], sh, cur[i]);
        }
        memcpy(cur, nx, w * sizeof(int));
    }
    for (uint32_t i = 0; i < w; i++)
        out[i] = g_ite(s, over, fill, cur[i]);
    free(cur);
    free(nx);
}

/* SMT-LIB's bvsdiv/bvsrem: on absolute values, the quotient negated when
 * the signs differ, the remainder taking the dividend's sign. */
static void sdivrem_bits(S *s, int *out, bool rem, const int *a, const int *b, uint32_t w)
{
    int sa = a[w - 1], sb = b[w - 1];
    int *na = new_bits(w), *nb = new_bits(w), *aa = new_bits(w), *ab = new_bits(w);
    int *q = new_bits(w), *r = new_bits(w), *nr = new_bits(w);
    neg_bits(s, na, a, w);
    neg_bits(s, nb, b, w);
    mux_bits(s, aa, sa, na, a, w);
    mux_bits(s, ab, sb, nb, b, w);
    udivrem_bits(s, q, r, aa, ab, w);
    const int *res = rem ? r : q;
    neg_bits(s, nr, res, w);
    mux_bits(s, out, rem ? sa : g_xor(s, sa, sb), nr, res, w);
    free(na);
    free(nb);
    free(aa);
    free(ab);
    free(q);
    free(r);
    free(nr);
}

/* --- terms --- */

static uint32_t nlits(const term *p)
{
    return p->kind == K_BV ? p->width : p->kind == K_BOOL ? 1 : 0;
}

/* The term p with literals lits (nlits(p) of them), made once. */
static bmc_smt_term intern(S *s, term p, const int *lits)
{
    uint32_t n = nlits(&p);
    int hdr[HDR] = { p.kind | p.op << 8, (int)p.width, (int)p.idx_width, (int)p.a, (int)p.b,
                     (int)p.c };
    bool fresh;
    bmc_smt_term id = bmc_smt_terms_intern(&s->tt, hdr, HDR, lits, n, &fresh);
    if (!fresh)
        return id;
    if (p.kind == K_BV) {
        bool c = true;
        uint64_t v = 0;
        for (uint32_t i = 0; i < n && c; i++) {
            c = lits[i] == LT || lits[i] == -LT;
            if (i < 64 && lits[i] == LT)
                v |= (uint64_t)1 << i;
        }
        p.is_const = c;
        p.val = c ? v : 0;
        if (c)
            p.leaves = 1;
    } else if (p.kind == K_BOOL) {
        p.is_const = lits[0] == LT || lits[0] == -LT;
        p.val = lits[0] == LT;
    }
    term *t = T(s, id);
    p.next = t->next;
    p.key = t->key;
    p.nkey = t->nkey;
    *t = p;
    return id;
}

static bmc_smt_term mk_bool(S *s, int lit)
{
    return intern(s, (term){ .kind = K_BOOL }, &lit);
}

static int lit_of(S *s, bmc_smt_term t)
{
    return bits(s, t)[0];
}

/* A plain bit-vector of w bits. */
static bmc_smt_term mk_bv(S *s, uint32_t w, const int *lits)
{
    return intern(s, (term){ .kind = K_BV, .width = w }, lits);
}

/* mk_bv, freeing lits. */
static bmc_smt_term mk_bv_free(S *s, uint32_t w, int *lits)
{
    bmc_smt_term r = mk_bv(s, w, lits);
    free(lits);
    return r;
}

bmc_smt_cad *bmc_smt_cad_new(void)
{
    S *s = base_xcalloc(1, sizeof *s);
    s->sat = sat_solver_new();
    if (!s->sat) {
        fprintf(stderr, "ravel: internal error: CaDiCaL could not start\n");
        abort();
    }
    bmc_smt_terms_init(&s->tt);
    base_hashmap_init(&s->and_map);
    base_hashmap_init(&s->xor_map);
    base_hashmap_init(&s->pair_map);
    base_hashmap_init(&s->ite_map);
    base_vec_push(&s->gk, G_IN);     /* variable 0 does not exist */
    base_vec_push(&s->g0, 0);
    base_vec_push(&s->g1, 0);
    base_vec_push(&s->g2, 0);
    int t = new_var(s, G_IN, 0, 0, 0);
    int u = t;
    clause(s, &u, 1);
    s->tt.t_true = mk_bool(s, LT);
    s->tt.t_false = mk_bool(s, -LT);
    return s;
}

void bmc_smt_cad_free(bmc_smt_cad *s)
{
    if (!s)
        return;
    sat_solver_free(s->sat);
    bmc_smt_terms_free(&s->tt);
    base_hashmap_free(&s->and_map);
    base_hashmap_free(&s->xor_map);
    base_hashmap_free(&s->pair_map);
    base_hashmap_free(&s->ite_map);
    base_vec_free(&s->gk);
    base_vec_free(&s->g0);
    base_vec_free(&s->g1);
    base_vec_free(&s->g2);
    for (size_t i = 0; i < s->sels.len; i++)
        base_vec_free(&s->sels.data[i]);
    base_vec_free(&s->sels);
    base_vec_free(&s->scopes);
    base_vec_free(&s->model);
    free(s);
}

/* --- Booleans --- */

bmc_smt_terms *bmc_smt_cad_terms(bmc_smt_cad *s) { return &s->tt; }

bmc_smt_term bmc_smt_cad_bool_var(bmc_smt_cad *s, const char *name)
{
    (void)name;
    return mk_bool(s, new_var(s, G_IN, 0, 0, 0));
}

bmc_smt_term bmc_smt_cad_not(bmc_smt_cad *s, bmc_smt_term a)
{
    return mk_bool(s, -lit_of(s, a));
}

bmc_smt_term bmc_smt_cad_and(bmc_smt_cad *s, bmc_smt_term a, bmc_smt_term b)
{
    return mk_bool(s, g_and(s, lit_of(s, a), lit_of(s, b)));
}

bmc_smt_term bmc_smt_cad_or(bmc_smt_cad *s, bmc_smt_term a, bmc_smt_term b)
{
    return mk_bool(s, g_or(s, lit_of(s, a), lit_of(s, b)));
}

bmc_smt_term bmc_smt_cad_implies(bmc_smt_cad *s, bmc_smt_term a, bmc_smt_term b)
{
    return mk_bool(s, g_or(s, -lit_of(s, a), lit_of(s, b)));
}

bmc_smt_term bmc_smt_cad_ite(bmc_smt_cad *s, bmc_smt_term c, bmc_smt_term a, bmc_smt_term b)
{
    if (c == s->tt.t_true || a == b)
        return a;
    if (c == s->tt.t_false)
        return b;
    term ta = *T(s, a);
    int lc = lit_of(s, c);
    if (ta.kind == K_BOOL)
        return mk_bool(s, g_ite(s, lc, lit_of(s, a), lit_of(s, b)));
    if (ta.kind == K_ARRAY)
        return intern(s, (term){ .kind = K_ARRAY, .op = OP_ITE, .width = ta.width,
                                 .idx_width = ta.idx_width, .a = c, .b = a, .c = b },
                      NULL);
    uint32_t w = ta.width;
    int *x = copy_bits(s, a), *y = copy_bits(s, b), *r = new_bits(w);
    mux_bits(s, r, lc, x, y, w);
    free(x);
    free(y);
    uint32_t leaves = bmc_smt_terms_ite_leaves(&s->tt, a, b);
    bmc_smt_term res;
    bool folded = true;
    for (uint32_t i = 0; i < w && folded; i++)
        folded = r[i] == LT || r[i] == -LT;
    if (folded || !leaves)
        res = mk_bv(s, w, r);
    else
        res = intern(s, (term){ .kind = K_BV, .op = OP_ITE, .width = w, .leaves = leaves,
                                .a = c, .b = a, .c = b },
                     r);
    free(r);
    return res;
}

bmc_smt_term bmc_smt_cad_eq(bmc_smt_cad *s, bmc_smt_term a, bmc_smt_term b)
{
    bmc_smt_term c, a1, a2, b1, b2;
    if (bmc_smt_terms_split2(&s->tt, a, b, &c, &a1, &a2, &b1, &b2))
        return bmc_smt_cad_ite(s, c, bmc_smt_cad_eq(s, a1, b1), bmc_smt_cad_eq(s, a2, b2));
    if (a == b)
        return s->tt.t_true;
    term *ta = T(s, a);
    if (ta->kind == K_BOOL)
        return mk_bool(s, -g_xor(s, lit_of(s, a), lit_of(s, b)));
    if (ta->kind == K_ARRAY) {
        fprintf(stderr, "ravel: internal error: the CaDiCaL back end has no array equality\n");
        abort();
    }
    int *x = copy_bits(s, a), *y = copy_bits(s, b);
    int r = eq_bits(s, x, y, ta->width);
    free(x);
    free(y);
    return mk_bool(s, r);
}

/* --- bit-vectors --- */

bmc_smt_term bmc_smt_cad_bv_const(bmc_smt_cad *s, uint32_t width, uint64_t v)
{
    int *r = new_bits(width);
    for (uint32_t i = 0; i < width; i++)
        r[i] = i < 64 && (v >> i & 1) ? LT : -LT;
    return mk_bv_free(s, width, r);
}

bmc_smt_term bmc_smt_cad_bv_var(bmc_smt_cad *s, uint32_t width, const char *name)
{
    (void)name;
    int *r = new_bits(width);
    for (uint32_t i = 0; i < width; i++)
        r[i] = new_var(s, G_IN, 0, 0, 0);
    return mk_bv_free(s, width, r);
}

bmc_smt_term bmc_smt_cad_bv_op(bmc_smt_cad *s, bmc_smt_bvop op, bmc_smt_term a, bmc_smt_term b)
{
    {
        bmc_smt_term c, a1, a2, b1, b2;
        if (bmc_smt_terms_split2(&s->tt, a, b, &c, &a1, &a2, &b1, &b2))
            return bmc_smt_cad_ite(s, c, bmc_smt_cad_bv_op(s, op, a1, b1),
                                   bmc_smt_cad_bv_op(s, op, a2, b2));
    }
    uint32_t w = T(s, a)->width;
    int *x = copy_bits(s, a), *y = copy_bits(s, b), *r = new_bits(w), *scratch;
    switch (op) {
    case BMC_SMT_BV_ADD: add_bits(s, r, x, y, -LT, w); break;
    case BMC_SMT_BV_SUB: sub_bits(s, r, x, y, w); break;
    case BMC_SMT_BV_MUL: mul_bits(s, r, x, y, w); break;
    case BMC_SMT_BV_UDIV:
    case BMC_SMT_BV_UREM:
        scratch = new_bits(w);
        if (op == BMC_SMT_BV_UDIV)
            udivrem_bits(s, r, scratch, x, y, w);
        else
            udivrem_bits(s, scratch, r, x, y, w);
        free(scratch);
        break;
    case BMC_SMT_BV_SDIV: sdivrem_bits(s, r, false, x, y, w); break;
    case BMC_SMT_BV_SREM: sdivrem_bits(s, r, true, x, y, w); break;
    case BMC_SMT_BV_SHL:
    case BMC_SMT_BV_LSHR:
    case BMC_SMT_BV_ASHR: shift_bits(s, r, op, x, y, w); break;
    case BMC_SMT_BV_AND:
        for (uint32_t i = 0; i < w; i++)
            r[i] = g_and(s, x[i], y[i]);
        break;
    case BMC_SMT_BV_OR:
        for (uint32_t i = 0; i < w; i++)
            r[i] = g_or(s, x[i], y[i]);
        break;
    default:
        for (uint32_t i = 0; i < w; i++)
            r[i] = g_xor(s, x[i], y[i]);
        break;
    }
    free(x);
    free(y);
    return mk_bv_free(s, w, r);
}

bmc_smt_term bmc_smt_cad_bv_not(bmc_smt_cad *s, bmc_smt_term a)
{
    {
        bmc_smt_term c, a1, a2;
        if (bmc_smt_terms_split1(&s->tt, a, &c, &a1, &a2))
            return bmc_smt_cad_ite(s, c, bmc_smt_cad_bv_not(s, a1), bmc_smt_cad_bv_not(s, a2));
    }
    uint32_t w = T(s, a)->width;
    int *r = copy_bits(s, a);
    for (uint32_t i = 0; i < w; i++)
        r[i] = -r[i];
    return mk_bv_free(s, w, r);
}

bmc_smt_term bmc_smt_cad_bv_neg(bmc_smt_cad *s, bmc_smt_term a)
{
    {
        bmc_smt_term c, a1, a2;
        if (bmc_smt_terms_split1(&s->tt, a, &c, &a1, &a2))
            return bmc_smt_cad_ite(s, c, bmc_smt_cad_bv_neg(s, a1), bmc_smt_cad_bv_neg(s, a2));
    }
    uint32_t w = T(s, a)->width;
    int *x = copy_bits(s, a), *r = new_bits(w);
    neg_bits(s, r, x, w);
    free(x);
    return mk_bv_free(s, w, r);
}

bmc_smt_term bmc_smt_cad_bv_cmp(bmc_smt_cad *s, bmc_smt_cmp op, bmc_smt_term a, bmc_smt_term b)
{
    {
        bmc_smt_term c, a1, a2, b1, b2;
        if (bmc_smt_terms_split2(&s->tt, a, b, &c, &a1, &a2, &b1, &b2))
            return bmc_smt_cad_ite(s, c, bmc_smt_cad_bv_cmp(s, op, a1, b1),
                                   bmc_smt_cad_bv_cmp(s, op, a2, b2));
    }
    uint32_t w = T(s, a)->width;
    int *x = copy_bits(s, a), *y = copy_bits(s, b);
    if (op == BMC_SMT_SLT || op == BMC_SMT_SLE) { /* signed: flip the sign bits */
        x[w - 1] = -x[w - 1];
        y[w - 1] = -y[w - 1];
    }
    int r = op == BMC_SMT_ULT || op == BMC_SMT_SLT ? ult_bits(s, x, y, w) : -ult_bits(s, y, x, w);
    free(x);
    free(y);
    return mk_bool(s, r);
}

bmc_smt_term bmc_smt_cad_extract(bmc_smt_cad *s, uint32_t hi, uint32_t lo, bmc_smt_term a)
{
    {
        bmc_smt_term c, a1, a2;
        if (bmc_smt_terms_split1(&s->tt, a, &c, &a1, &a2))
            return bmc_smt_cad_ite(s, c, bmc_smt_cad_extract(s, hi, lo, a1),
                                   bmc_smt_cad_extract(s, hi, lo, a2));
    }
    if (lo == 0 && hi + 1 == T(s, a)->width)
        return a;
    int *x = copy_bits(s, a);
    bmc_smt_term r = mk_bv(s, hi - lo + 1, x + lo);
    free(x);
    return r;
}

bmc_smt_term bmc_smt_cad_concat(bmc_smt_cad *s, bmc_smt_term hi, bmc_smt_term lo)
{
    {
        bmc_smt_term c, a1, a2, b1, b2;
        if (bmc_smt_terms_split2(&s->tt, hi, lo, &c, &a1, &a2, &b1, &b2))
            return bmc_smt_cad_ite(s, c, bmc_smt_cad_concat(s, a1, b1), bmc_smt_cad_concat(s, a2, b2));
    }
    uint32_t wh = T(s, hi)->width, wl = T(s, lo)->width;
    int *r = new_bits(wh + wl);
    memcpy(r, bits(s, lo), wl * sizeof(int));
    memcpy(r + wl, bits(s, hi), wh * sizeof(int));
    return mk_bv_free(s, wh + wl, r);
}

/* a extended by extra bits, copies of its sign bit or zeros. */
static bmc_smt_term extend(S *s, uint32_t extra, bmc_smt_term a, bool sign)
{
    {
        bmc_smt_term c, a1, a2;
        if (bmc_smt_terms_split1(&s->tt, a, &c, &a1, &a2))
            return bmc_smt_cad_ite(s, c, extend(s, extra, a1, sign), extend(s, extra, a2, sign));
    }
    if (extra == 0)
        return a;
    uint32_t w = T(s, a)->width;
    int *r = new_bits(w + extra);
    memcpy(r, bits(s, a), w * sizeof(int));
    for (uint32_t i = w; i < w + extra; i++)
        r[i] = sign ? r[w - 1] : -LT;
    return mk_bv_free(s, w + extra, r);
}

bmc_smt_term bmc_smt_cad_zext(bmc_smt_cad *s, uint32_t extra, bmc_smt_term a)
{
    return extend(s, extra, a, false);
}

bmc_smt_term bmc_smt_cad_sext(bmc_smt_cad *s, uint32_t extra, bmc_smt_term a)
{
    return extend(s, extra, a, true);
}

/* --- arrays --- */

bmc_smt_term bmc_smt_cad_array_var(bmc_smt_cad *s, uint32_t idx_width, uint32_t elem_width,
                                   const char *name)
{
    (void)name;
    return intern(s, (term){ .kind = K_ARRAY, .op = OP_VAR, .width = elem_width,
                             .idx_width = idx_width, .a = ++s->nvars_made },
                  NULL);
}

bmc_smt_term bmc_smt_cad_array_const(bmc_smt_cad *s, uint32_t idx_width, bmc_smt_term elem)
{
    return intern(s, (term){ .kind = K_ARRAY, .op = OP_CONSTARR, .width = T(s, elem)->width,
                             .idx_width = idx_width, .a = elem },
                  NULL);
}

/* A select on array variable arr: fresh bits, equal to every earlier
 * select's of arr whose index is equal (Ackermann's constraints). */
static bmc_smt_term var_select(S *s, bmc_smt_term arr, bmc_smt_term idx)
{
    s->tt.nselects++;
    if (!T(s, arr)->aux) {
        sel_vec none = { 0 };
        base_vec_push(&s->sels, none);
        T(s, arr)->aux = (uint32_t)s->sels.len;
    }
    uint32_t w = T(s, arr)->width, iw = T(s, idx)->width;
    bmc_smt_term v = bmc_smt_cad_bv_var(s, w, NULL);
    size_t k = T(s, arr)->aux - 1;
    int *xi = copy_bits(s, idx), *xv = copy_bits(s, v);
    for (size_t j = 0; j < s->sels.data[k].len; j++) {
        sel o = s->sels.data[k].data[j];
        int e = eq_bits(s, xi, bits(s, o.idx), iw);
        if (e == -LT)
            continue;
        int f = eq_bits(s, xv, bits(s, o.val), w);
        cl2(s, -e, f);
    }
    free(xi);
    free(xv);
    base_vec_push(&s->sels.data[k], ((sel){ idx, v }));
    return v;
}

/* Read-over-write, as smt_z3.c's select_rw but to the end: through
 * stores (an ite on the index equality), ite-merged arrays and ite trees
 * of indices, to a constant array's element or an array variable's
 * select; memoised on (array, index). */
static bmc_smt_term select_rw(S *s, bmc_smt_term arr, bmc_smt_term idx)
{
    bmc_smt_term r;
    if (bmc_smt_terms_memo_get(&s->tt, arr, idx, &r))
        return r;
    term t = *T(s, arr), ti = *T(s, idx);
    if (ti.leaves > 1) {
        bmc_smt_term r1 = select_rw(s, arr, ti.b);
        r = bmc_smt_cad_ite(s, ti.a, r1, select_rw(s, arr, ti.c));
    } else if (t.op == OP_CONSTARR) {
        r = t.a;
    } else if (t.op == OP_STORE) {
        bmc_smt_term e = bmc_smt_cad_eq(s, t.b, idx);
        if (e == s->tt.t_true)
            r = t.c;
        else if (e == s->tt.t_false)
            r = select_rw(s, t.a, idx);
        else
            r = bmc_smt_cad_ite(s, e, t.c, select_rw(s, t.a, idx));
    } else if (t.op == OP_ITE) {
        bmc_smt_term r1 = select_rw(s, t.b, idx);
        r = bmc_smt_cad_ite(s, t.a, r1, select_rw(s, t.c, idx));
    } else {
        r = var_select(s, arr, idx);
    }
    bmc_smt_terms_memo_put(&s->tt, arr, idx, r);
    return r;
}

bmc_smt_term bmc_smt_cad_select(bmc_smt_cad *s, bmc_smt_term arr, bmc_smt_term idx)
{
    return select_rw(s, arr, idx);
}

bmc_smt_term bmc_smt_cad_store(bmc_smt_cad *s, bmc_smt_term arr, bmc_smt_term idx, bmc_smt_term val)
{
    term *ta = T(s, arr);
    return intern(s, (term){ .kind = K_ARRAY, .op = OP_STORE, .width = ta->width,
                             .idx_width = ta->idx_width, .a = arr, .b = idx, .c = val },
                  NULL);
}

/* --- solving --- */

void bmc_smt_cad_assert(bmc_smt_cad *s, bmc_smt_term a)
{
    s->tt.nasserts++;
    int l = lit_of(s, a);
    if (s->scopes.len)
        cl2(s, -s->scopes.data[s->scopes.len - 1], l);
    else
        clause(s, &l, 1);
}

void bmc_smt_cad_push(bmc_smt_cad *s)
{
    int act = new_var(s, G_IN, 0, 0, 0);
    /* an inner scope's assertions hold only while the outer ones do */
    if (s->scopes.len)
        cl2(s, -act, s->scopes.data[s->scopes.len - 1]);
    base_vec_push(&s->scopes, act);
}

void bmc_smt_cad_pop(bmc_smt_cad *s)
{
    if (!s->scopes.len)
        return;
    int act = base_vec_pop(&s->scopes);
    int u = -act;
    clause(s, &u, 1);
}

bmc_smt_result bmc_smt_cad_check(bmc_smt_cad *s, const bmc_smt_term *assumptions, size_t n,
                                 unsigned timeout_ms)
{
    s->has_model = false;
    if (s->over) {
        snprintf(s->reason, sizeof s->reason, "%s", BMC_SMT_TOO_LARGE);
        return BMC_SMT_UNKNOWN;
    }
    sat_set_deadline(s->sat, timeout_ms ? base_now() + timeout_ms / 1000.0 : 0);
    if (s->scopes.len) {
        int act = s->scopes.data[s->scopes.len - 1];
        use(s, act);
        sat_assume(s->sat, act);
    }
    for (size_t i = 0; i < n; i++) {
        int l = lit_of(s, assumptions[i]);
        use(s, l);
        sat_assume(s->sat, l);
    }
    sat_result r = sat_solve(s->sat);
    if (r == SAT_UNSAT)
        return BMC_SMT_UNSAT;
    if (r != SAT_SAT) {
        snprintf(s->reason, sizeof s->reason, "timeout");
        return BMC_SMT_UNKNOWN;
    }
    int nv = sat_num_vars(s->sat);
    base_vec_clear(&s->model);
    base_vec_push(&s->model, 0);
    for (int v = 1; v <= nv; v++)
        base_vec_push(&s->model, (uint8_t)(v <= s->max_used && sat_value(s->sat, v)));
    s->model_vars = nv;
    s->has_model = true;
    return BMC_SMT_SAT;
}

const char *bmc_smt_cad_reason(bmc_smt_cad *s)
{
    return s->reason;
}

/* The value of lit in the last model; a variable made since is evaluated
 * through its gate (inputs read 0), iteratively: gates can be deep. */
static bool model_lit(S *s, int lit)
{
    int v = abs(lit);
    if (!s->has_model)
        return false;
    while (s->model.len <= (size_t)v)
        base_vec_push(&s->model, 2);
    BASE_VEC(int) stack = { 0 };
    base_vec_push(&stack, v);
    while (stack.len) {
        int x = stack.data[stack.len - 1];
        if (s->model.data[x] != 2) {
            stack.len--;
            continue;
        }
        int in[3] = { s->g0.data[x], s->g1.data[x], s->g2.data[x] };
        uint8_t kind = s->gk.data[x];
        int nin = kind == G_IN ? 0 : kind == G_ITE ? 3 : 2;
        bool ready = true;
        int val[3] = { 0, 0, 0 };
        for (int i = 0; i < nin; i++) {
            int y = abs(in[i]);
            if (s->model.data[y] == 2) {
                base_vec_push(&stack, y);
                ready = false;
            } else {
                val[i] = s->model.data[y] ^ (in[i] < 0);
            }
        }
        if (!ready)
            continue;
        stack.len--;
        s->model.data[x] = (uint8_t)(kind == G_AND   ? val[0] & val[1]
                                     : kind == G_XOR ? val[0] ^ val[1]
                                     : kind == G_ITE ? (val[0] ? val[1] : val[2])
                                                     : 0);
    }
    base_vec_free(&stack);
    return (s->model.data[v] != 0) != (lit < 0);
}

bool bmc_smt_cad_model_bool(bmc_smt_cad *s, bmc_smt_term a)
{
    return model_lit(s, lit_of(s, a));
}

uint64_t bmc_smt_cad_model_bv(bmc_smt_cad *s, bmc_smt_term a)
{
    uint32_t w = T(s, a)->width;
    uint64_t v = 0;
    for (uint32_t i = 0; i < w && i < 64; i++)
        if (model_lit(s, bits(s, a)[i]))
            v |= (uint64_t)1 << i;
    return v & bmc_smt_mask(w);
}

void bmc_smt_cad_set_clause_cap(bmc_smt_cad *s, uint64_t cap)
{
    s->cap = cap;
}

bool bmc_smt_cad_over_cap(const bmc_smt_cad *s) { return s->over; }
uint64_t bmc_smt_cad_num_clauses(const bmc_smt_cad *s) { return s->nclauses; }
